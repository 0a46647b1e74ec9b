//! Traffic: the flows a run starts, and the flow-size distributions they are drawn from.
//!
//! network.md names three traffic patterns and this module generates each as a plain list of
//! [`Flow`]s (source, destination, bytes, start time) before the simulation starts, so the
//! traffic of a run depends only on the scenario and its seed:
//!
//! - [`incast`]: N senders each send one flow of the same size to one receiver, optionally
//!   repeated at a fixed interval (the N:1 pattern of the congestion-control checks);
//! - [`permutation`]: every host sends one flow to another host, the destinations a random
//!   derangement (no host sends to itself, every host receives exactly one flow);
//! - [`poisson`]: every host starts flows as a Poisson process with sizes from a flow-size
//!   distribution ([`Cdf`]) and uniformly random destinations other than itself, at a rate
//!   that makes the offered bytes `load` times the host link rate, as the HPCC simulator's
//!   traffic generator does.
//!
//! Flow-size distributions are piecewise-linear CDFs: points (size in bytes, cumulative
//! percent) with linear interpolation in between. A sample is drawn by inverse transform:
//! a uniform percent in [0, 100) is mapped through the interpolated inverse CDF and rounded
//! to whole bytes (at least 1). The two distributions of network.md are built in
//! ([`Cdf::websearch`], [`Cdf::fb_hadoop`]); any other comes from a text file
//! ([`Cdf::parse`]).
//!
//! Determinism: every generator takes a seed and draws from `StdRng::seed_from_u64(seed)`
//! (rand 0.8's ChaCha12, pinned by the lock file); nothing reads the OS's randomness. Flows
//! are returned sorted by start time (ties in generation order) and numbered `0..n` in that
//! order, so a flow's id is its index in the returned list.

use std::path::{Path, PathBuf};

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use serde::{Deserialize, Serialize};

use crate::packet::{NodeId, PS_PER_US, Ps};

/// One flow: `bytes` from host `src` to host `dst`, offered to the sender's NIC at `start`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Flow {
    /// Index of the flow in its run's flow list.
    pub id: u32,
    /// Sending host.
    pub src: NodeId,
    /// Receiving host (never `src`).
    pub dst: NodeId,
    /// Payload bytes (at least 1).
    pub bytes: u64,
    /// When the flow starts, picoseconds.
    pub start: Ps,
}

/// A flow-size distribution: a piecewise-linear cumulative distribution function.
///
/// Points are (size in bytes, cumulative percent), sizes and percents non-decreasing, the
/// first point at 0 percent and the last at 100 percent. Between two points the CDF is
/// linear, i.e. the size is uniformly distributed over the segment; two points with the same
/// size make a point mass at that size.
#[derive(Clone, Debug, PartialEq)]
pub struct Cdf {
    points: Vec<(f64, f64)>,
}

/// network.md's `websearch` points (the DCTCP paper's web-search cluster).
const WEBSEARCH: [(f64, f64); 12] = [
    (0.0, 0.0),
    (10_000.0, 15.0),
    (20_000.0, 20.0),
    (30_000.0, 30.0),
    (50_000.0, 40.0),
    (80_000.0, 53.0),
    (200_000.0, 60.0),
    (1_000_000.0, 70.0),
    (2_000_000.0, 80.0),
    (5_000_000.0, 90.0),
    (10_000_000.0, 97.0),
    (30_000_000.0, 100.0),
];

/// network.md's `fb_hadoop` points (Facebook's Hadoop cluster).
const FB_HADOOP: [(f64, f64); 20] = [
    (0.0, 0.0),
    (100.0, 1.0),
    (200.0, 2.0),
    (300.0, 5.0),
    (350.0, 15.0),
    (400.0, 20.0),
    (500.0, 30.0),
    (600.0, 40.0),
    (700.0, 50.0),
    (1_000.0, 60.0),
    (2_000.0, 67.0),
    (7_000.0, 70.0),
    (30_000.0, 72.0),
    (50_000.0, 82.0),
    (80_000.0, 87.0),
    (120_000.0, 90.0),
    (300_000.0, 95.0),
    (1_000_000.0, 97.5),
    (2_000_000.0, 99.0),
    (10_000_000.0, 100.0),
];

impl Cdf {
    /// The web-search distribution of network.md (mean 1 711 250 bytes).
    pub fn websearch() -> Cdf {
        Cdf::new(WEBSEARCH.to_vec()).expect("built-in websearch CDF is valid")
    }

    /// The Facebook Hadoop distribution of network.md.
    pub fn fb_hadoop() -> Cdf {
        Cdf::new(FB_HADOOP.to_vec()).expect("built-in fb_hadoop CDF is valid")
    }

    /// A CDF from (size bytes, cumulative percent) points; the same checks as [`Cdf::parse`],
    /// errors naming the point's index (from 0).
    pub fn new(points: Vec<(f64, f64)>) -> Result<Cdf, String> {
        for (i, &(size, pct)) in points.iter().enumerate() {
            check_point(i, size, pct, i.checked_sub(1).map(|j| points[j]))
                .map_err(|e| format!("point {i}: {e}"))?;
        }
        check_ends(&points).map_err(|(i, e)| format!("point {i}: {e}"))?;
        Ok(Cdf { points })
    }

    /// Parse a CDF file: one point per line, `size percent` separated by white space (size in
    /// bytes, cumulative percent 0..=100); `#` starts a comment, blank lines are skipped.
    ///
    /// Errors name the line (from 1) and what is wrong: an unparsable or negative number, a
    /// missing or extra field, a size or percent below the previous point's (non-monotonic),
    /// a percent above 100, a first point not at 0 percent, a last point not at 100 percent,
    /// fewer than two points.
    pub fn parse(text: &str) -> Result<Cdf, String> {
        let mut points: Vec<(f64, f64)> = Vec::new();
        let mut lines: Vec<usize> = Vec::new();
        for (idx, raw) in text.lines().enumerate() {
            let line_no = idx + 1;
            let line = raw.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let fields: Vec<&str> = line.split_whitespace().collect();
            if fields.len() != 2 {
                return Err(format!(
                    "line {line_no}: expected two numbers `size percent`, found {} field(s) in {:?}",
                    fields.len(),
                    line
                ));
            }
            let size = parse_number(fields[0])
                .map_err(|e| format!("line {line_no}: unparsable size {:?}: {e}", fields[0]))?;
            let pct = parse_number(fields[1])
                .map_err(|e| format!("line {line_no}: unparsable percent {:?}: {e}", fields[1]))?;
            check_point(points.len(), size, pct, points.last().copied())
                .map_err(|e| format!("line {line_no}: {e}"))?;
            points.push((size, pct));
            lines.push(line_no);
        }
        if points.is_empty() {
            return Err("no points: a CDF needs at least two `size percent` lines".into());
        }
        check_ends(&points).map_err(|(i, e)| format!("line {}: {e}", lines[i]))?;
        Ok(Cdf { points })
    }

    /// Read and parse a CDF file; errors start with the path.
    pub fn load(path: &Path) -> Result<Cdf, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
        Cdf::parse(&text).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// `websearch`, `fb_hadoop`, or else a CDF file path (a relative path is taken relative
    /// to `base_dir` when given, e.g. the scenario file's directory).
    pub fn named_or_file(name: &str, base_dir: Option<&Path>) -> Result<Cdf, String> {
        match name {
            "websearch" => Ok(Cdf::websearch()),
            "fb_hadoop" => Ok(Cdf::fb_hadoop()),
            path => {
                let p = Path::new(path);
                let full: PathBuf = match base_dir {
                    Some(dir) if p.is_relative() => dir.join(p),
                    _ => p.to_path_buf(),
                };
                Cdf::load(&full)
            }
        }
    }

    /// The points, (size bytes, cumulative percent).
    pub fn points(&self) -> &[(f64, f64)] {
        &self.points
    }

    /// The size at cumulative percent `pct` (clamped to 0..=100): the interpolated inverse
    /// CDF. On a flat stretch (equal percents) the smallest size at that percent is
    /// returned, except at the top, where it is the largest size.
    pub fn size_at(&self, pct: f64) -> f64 {
        let pct = pct.clamp(0.0, 100.0);
        // First point whose percent exceeds pct: the segment [i-1, i] contains pct with a
        // non-zero width, so zero-probability stretches are never chosen.
        let i = self.points.partition_point(|&(_, p)| p <= pct);
        if i == 0 {
            return self.points[0].0;
        }
        if i == self.points.len() {
            return self.points[i - 1].0;
        }
        let (x0, p0) = self.points[i - 1];
        let (x1, p1) = self.points[i];
        x0 + (x1 - x0) * (pct - p0) / (p1 - p0)
    }

    /// Draw one flow size, bytes: inverse transform of a uniform percent in [0, 100),
    /// rounded to the nearest byte, at least 1.
    pub fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> u64 {
        let u: f64 = rng.r#gen::<f64>() * 100.0;
        let x = self.size_at(u).round();
        if x < 1.0 { 1 } else { x as u64 }
    }

    /// The exact mean size of the piecewise-linear distribution, bytes: the sum over
    /// segments of the segment's midpoint size times its probability. (Samples round to whole
    /// bytes, at least 1; that moves their mean by well under a byte.)
    pub fn mean(&self) -> f64 {
        self.points
            .windows(2)
            .map(|w| (w[0].0 + w[1].0) / 2.0 * (w[1].1 - w[0].1) / 100.0)
            .sum()
    }
}

fn parse_number(s: &str) -> Result<f64, String> {
    let v: f64 = s.parse().map_err(|e| format!("{e}"))?;
    if !v.is_finite() {
        return Err("not a finite number".into());
    }
    Ok(v)
}

/// Checks of one point against its predecessor (index `i`, from 0).
fn check_point(i: usize, size: f64, pct: f64, prev: Option<(f64, f64)>) -> Result<(), String> {
    if !size.is_finite() || size < 0.0 {
        return Err(format!("size {size} must be a finite number of bytes >= 0"));
    }
    if !pct.is_finite() || !(0.0..=100.0).contains(&pct) {
        return Err(format!("percent {pct} must be in 0..=100"));
    }
    if i == 0 && pct != 0.0 {
        return Err(format!("the first point must be at 0 percent, is at {pct}"));
    }
    if let Some((ps, pp)) = prev {
        if size < ps {
            return Err(format!(
                "non-monotonic: size {size} is below the previous point's {ps}"
            ));
        }
        if pct < pp {
            return Err(format!(
                "non-monotonic: percent {pct} is below the previous point's {pp}"
            ));
        }
    }
    Ok(())
}

/// Checks of the whole list: at least two points, the last at 100 percent. The error carries
/// the index of the offending point.
fn check_ends(points: &[(f64, f64)]) -> Result<(), (usize, String)> {
    let last = points.len().saturating_sub(1);
    if points.len() < 2 {
        return Err((last, "a CDF needs at least two points".into()));
    }
    if points[last].1 != 100.0 {
        return Err((
            last,
            format!(
                "the last point must be at 100 percent, is at {}",
                points[last].1
            ),
        ));
    }
    Ok(())
}

/// Sort flows by start time (stable: ties keep generation order) and number them `0..n`.
fn finish(mut flows: Vec<Flow>) -> Vec<Flow> {
    flows.sort_by_key(|f| f.start);
    for (i, f) in flows.iter_mut().enumerate() {
        f.id = u32::try_from(i).expect("fewer than 2^32 flows");
    }
    flows
}

/// N:1 incast: every sender sends one flow of `bytes` to `receiver` at `start`, and again
/// every `interval_ps` for `repeat` rounds in all (round r starts at `start + r *
/// interval_ps`). Within a round flows are in the order of `senders`. `repeat = 0` gives no
/// flows.
///
/// Panics if `receiver` is among `senders` (a flow to itself).
pub fn incast(
    senders: &[NodeId],
    receiver: NodeId,
    bytes: u64,
    repeat: u32,
    interval_ps: Ps,
    start: Ps,
) -> Vec<Flow> {
    assert!(
        !senders.contains(&receiver),
        "incast: receiver {receiver} is also a sender"
    );
    let mut flows = Vec::with_capacity(senders.len() * repeat as usize);
    for r in 0..repeat as u64 {
        let t = start + r * interval_ps;
        for &src in senders {
            flows.push(Flow {
                id: 0,
                src,
                dst: receiver,
                bytes,
                start: t,
            });
        }
    }
    finish(flows)
}

/// Permutation traffic: host `h` (of `0..hosts`) sends one flow of `bytes` to `perm[h]`, all
/// at `start`, where `perm` is a uniformly random derangement (a permutation without fixed
/// points: no self-flows, every host sends once and receives once). Drawn by shuffling
/// (Fisher-Yates) until no host maps to itself, on average e ~ 2.7 shuffles.
///
/// Panics if `hosts < 2`.
pub fn permutation(hosts: u32, bytes: u64, start: Ps, seed: u64) -> Vec<Flow> {
    assert!(
        hosts >= 2,
        "permutation: needs at least 2 hosts, got {hosts}"
    );
    let mut rng = StdRng::seed_from_u64(seed);
    let mut perm: Vec<NodeId> = (0..hosts).collect();
    loop {
        perm.shuffle(&mut rng);
        if perm.iter().enumerate().all(|(h, &d)| h as NodeId != d) {
            break;
        }
    }
    let flows = perm
        .iter()
        .enumerate()
        .map(|(h, &dst)| Flow {
            id: 0,
            src: h as NodeId,
            dst,
            bytes,
            start,
        })
        .collect();
    finish(flows)
}

/// Mean time between flow arrivals at one host, picoseconds, for flows of `mean_bytes` to
/// offer `load` times a link of `host_rate_mbps`: `mean_bytes * 8 / (load * rate)`.
pub fn mean_interarrival_ps(mean_bytes: f64, load: f64, host_rate_mbps: u64) -> f64 {
    // bits / (Mb/s) = us
    mean_bytes * 8.0 * PS_PER_US as f64 / (load * host_rate_mbps as f64)
}

/// Poisson traffic: every host of `0..hosts` starts flows as a Poisson process over
/// `[0, duration_ps)`; sizes are drawn from `cdf`; each flow's destination is uniformly
/// random among the other `hosts - 1` hosts.
///
/// The mean inter-arrival time is [`mean_interarrival_ps`]`(cdf.mean(), load,
/// host_rate_mbps)`, so each host offers `load` times its link rate on average. Gaps are
/// exponential, drawn by inverse transform (`-ln(1 - u) * mean`, `u` uniform in [0, 1)) and
/// rounded to whole picoseconds; a host's first flow starts one gap after 0 (as the HPCC
/// traffic generator does). Hosts are generated in order from one random stream; per host:
/// gap, then destination, then size.
///
/// Panics if `hosts < 2`, `load` is not in (0, 1] or `host_rate_mbps` is 0.
pub fn poisson(
    hosts: u32,
    cdf: &Cdf,
    load: f64,
    host_rate_mbps: u64,
    duration_ps: Ps,
    seed: u64,
) -> Vec<Flow> {
    assert!(hosts >= 2, "poisson: needs at least 2 hosts, got {hosts}");
    assert!(
        load > 0.0 && load <= 1.0,
        "poisson: load {load} not in (0, 1]"
    );
    assert!(host_rate_mbps > 0, "poisson: host rate is 0");
    let mean_gap = mean_interarrival_ps(cdf.mean(), load, host_rate_mbps);
    let mut rng = StdRng::seed_from_u64(seed);
    let mut flows = Vec::new();
    for src in 0..hosts {
        let mut t: Ps = 0;
        loop {
            let u: f64 = rng.r#gen::<f64>();
            let gap = (-(1.0 - u).ln() * mean_gap).round();
            // A gap beyond the duration ends this host (and avoids overflow).
            if gap >= (duration_ps - t) as f64 {
                break;
            }
            t += gap as Ps;
            let mut dst = rng.gen_range(0..hosts - 1);
            if dst >= src {
                dst += 1;
            }
            let bytes = cdf.sample(&mut rng);
            flows.push(Flow {
                id: 0,
                src,
                dst,
                bytes,
                start: t,
            });
        }
    }
    finish(flows)
}

/// The traffic of a scenario (its `[traffic]` table), tagged by `kind`.
///
/// ```toml
/// [traffic]
/// kind = "incast"        # or "permutation", "poisson"
/// bytes = 1000000
/// repeat = 1             # incast only; default 1
/// interval_us = 0.0      # incast only; default 0
/// start_us = 0.0         # incast and permutation; default 0
/// ```
///
/// Times are microseconds (f64, rounded to whole picoseconds). What the scenario holds
/// elsewhere (hosts, host link rate, duration, seed) comes in a [`TrafficContext`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum TrafficSpec {
    /// [`incast`]: every sender one flow of `bytes` to the receiver, `repeat` times
    /// `interval_us` apart, from `start_us`.
    Incast {
        /// Sending hosts; default every host except the receiver.
        #[serde(default)]
        senders: Option<Vec<NodeId>>,
        /// Receiving host; default the last host (`hosts - 1`).
        #[serde(default)]
        receiver: Option<NodeId>,
        /// Bytes per flow, at least 1.
        bytes: u64,
        /// Rounds, at least 1; default 1.
        #[serde(default = "one")]
        repeat: u32,
        /// Time between rounds, us, >= 0; default 0.
        #[serde(default)]
        interval_us: f64,
        /// Start of the first round, us, >= 0; default 0.
        #[serde(default)]
        start_us: f64,
    },
    /// [`permutation`]: every host one flow of `bytes` to a distinct other host.
    Permutation {
        /// Bytes per flow, at least 1.
        bytes: u64,
        /// Start of every flow, us, >= 0; default 0.
        #[serde(default)]
        start_us: f64,
    },
    /// [`poisson`]: flows with sizes from `cdf` at `load` times the host link rate.
    Poisson {
        /// `"websearch"`, `"fb_hadoop"` or a CDF file path (see [`Cdf::parse`]).
        cdf: String,
        /// Offered load, a fraction of the host link rate in (0, 1].
        load: f64,
    },
}

fn one() -> u32 {
    1
}

/// What flow generation needs from the rest of the scenario.
#[derive(Clone, Debug)]
pub struct TrafficContext<'a> {
    /// Hosts are `0..hosts`.
    pub hosts: u32,
    /// Host link rate, Mb/s (poisson's load is a fraction of it).
    pub host_rate_mbps: u64,
    /// Poisson flows start in `[0, duration_ps)`.
    pub duration_ps: Ps,
    /// Seed of the random draws.
    pub seed: u64,
    /// Directory a relative CDF path is taken from (the scenario file's), if any.
    pub base_dir: Option<&'a Path>,
}

/// Microseconds (already validated finite and >= 0) to picoseconds, rounded.
fn us_to_ps(us: f64) -> Ps {
    (us * PS_PER_US as f64).round() as Ps
}

fn check_us(field: &str, v: f64) -> Result<(), String> {
    // 2^53 ps ~ 9007 s: beyond it a microsecond value does not map to exact picoseconds.
    if !v.is_finite() || !(0.0..=9.0e9).contains(&v) {
        return Err(format!(
            "traffic.{field} must be a finite number of microseconds in 0..=9e9, is {v}"
        ));
    }
    Ok(())
}

impl TrafficSpec {
    /// The `kind` tag.
    pub fn kind(&self) -> &'static str {
        match self {
            TrafficSpec::Incast { .. } => "incast",
            TrafficSpec::Permutation { .. } => "permutation",
            TrafficSpec::Poisson { .. } => "poisson",
        }
    }

    /// Check every field's range on its own (without the topology): bytes >= 1, repeat >= 1,
    /// times finite and >= 0, load in (0, 1], cdf not empty. Errors name the field
    /// (`traffic.<field>`), its allowed range and the value.
    pub fn validate(&self) -> Result<(), String> {
        match self {
            TrafficSpec::Incast {
                senders,
                bytes,
                repeat,
                interval_us,
                start_us,
                ..
            } => {
                if *bytes < 1 {
                    return Err(format!("traffic.bytes must be at least 1, is {bytes}"));
                }
                if *repeat < 1 {
                    return Err(format!("traffic.repeat must be at least 1, is {repeat}"));
                }
                check_us("interval_us", *interval_us)?;
                check_us("start_us", *start_us)?;
                if senders.as_ref().is_some_and(|s| s.is_empty()) {
                    return Err("traffic.senders must list at least one host, is empty".into());
                }
                Ok(())
            }
            TrafficSpec::Permutation { bytes, start_us } => {
                if *bytes < 1 {
                    return Err(format!("traffic.bytes must be at least 1, is {bytes}"));
                }
                check_us("start_us", *start_us)
            }
            TrafficSpec::Poisson { cdf, load } => {
                if !(load.is_finite() && *load > 0.0 && *load <= 1.0) {
                    return Err(format!(
                        "traffic.load must be in (0, 1] (a fraction of the host link rate), is {load}"
                    ));
                }
                if cdf.trim().is_empty() {
                    return Err(
                        "traffic.cdf must be \"websearch\", \"fb_hadoop\" or a CDF file path, is empty"
                            .into(),
                    );
                }
                Ok(())
            }
        }
    }

    /// Validate against the context (hosts exist, senders distinct and not the receiver,
    /// at least 2 hosts for permutation and poisson, the CDF loads) and generate the flows.
    pub fn generate(&self, ctx: &TrafficContext) -> Result<Vec<Flow>, String> {
        self.validate()?;
        let hosts = ctx.hosts;
        let host_ok = |field: &str, h: NodeId| {
            if h < hosts {
                Ok(())
            } else {
                Err(format!(
                    "traffic.{field} = {h} is not a host (hosts are 0..{hosts})"
                ))
            }
        };
        match self {
            TrafficSpec::Incast {
                senders,
                receiver,
                bytes,
                repeat,
                interval_us,
                start_us,
            } => {
                if hosts < 2 {
                    return Err(format!(
                        "incast needs at least 2 hosts, the topology has {hosts}"
                    ));
                }
                let receiver = receiver.unwrap_or(hosts - 1);
                host_ok("receiver", receiver)?;
                let senders: Vec<NodeId> = match senders {
                    Some(s) => s.clone(),
                    None => (0..hosts).filter(|&h| h != receiver).collect(),
                };
                for (i, &s) in senders.iter().enumerate() {
                    host_ok(&format!("senders[{i}]"), s)?;
                    if s == receiver {
                        return Err(format!(
                            "traffic.senders[{i}] = {s} is the receiver (a flow to itself)"
                        ));
                    }
                    if senders[..i].contains(&s) {
                        return Err(format!("traffic.senders[{i}] = {s} is listed twice"));
                    }
                }
                Ok(incast(
                    &senders,
                    receiver,
                    *bytes,
                    *repeat,
                    us_to_ps(*interval_us),
                    us_to_ps(*start_us),
                ))
            }
            TrafficSpec::Permutation { bytes, start_us } => {
                if hosts < 2 {
                    return Err(format!(
                        "permutation needs at least 2 hosts, the topology has {hosts}"
                    ));
                }
                Ok(permutation(hosts, *bytes, us_to_ps(*start_us), ctx.seed))
            }
            TrafficSpec::Poisson { cdf, load } => {
                if hosts < 2 {
                    return Err(format!(
                        "poisson needs at least 2 hosts, the topology has {hosts}"
                    ));
                }
                if ctx.host_rate_mbps == 0 {
                    return Err("poisson traffic needs a host link rate above 0".into());
                }
                let cdf = Cdf::named_or_file(cdf, ctx.base_dir)
                    .map_err(|e| format!("traffic.cdf: {e}"))?;
                Ok(poisson(
                    hosts,
                    &cdf,
                    *load,
                    ctx.host_rate_mbps,
                    ctx.duration_ps,
                    ctx.seed,
                ))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn empirical_mean(cdf: &Cdf, n: usize, seed: u64) -> f64 {
        let mut rng = StdRng::seed_from_u64(seed);
        (0..n).map(|_| cdf.sample(&mut rng) as f64).sum::<f64>() / n as f64
    }

    #[test]
    fn builtin_means_are_exact() {
        // Hand sum of midpoint * probability over network.md's websearch segments.
        assert!((Cdf::websearch().mean() - 1_711_250.0).abs() < 1e-3);
        // fb_hadoop, the same sum.
        let m = 50.0 * 0.01
            + 150.0 * 0.01
            + 250.0 * 0.03
            + 325.0 * 0.10
            + 375.0 * 0.05
            + 450.0 * 0.10
            + 550.0 * 0.10
            + 650.0 * 0.10
            + 850.0 * 0.10
            + 1_500.0 * 0.07
            + 4_500.0 * 0.03
            + 18_500.0 * 0.02
            + 40_000.0 * 0.10
            + 65_000.0 * 0.05
            + 100_000.0 * 0.03
            + 210_000.0 * 0.05
            + 650_000.0 * 0.025
            + 1_500_000.0 * 0.015
            + 6_000_000.0 * 0.01;
        assert!(
            (Cdf::fb_hadoop().mean() - m).abs() < 1e-3,
            "{}",
            Cdf::fb_hadoop().mean()
        );
    }

    #[test]
    fn sampled_mean_matches_cdf_mean() {
        for cdf in [Cdf::websearch(), Cdf::fb_hadoop()] {
            let emp = empirical_mean(&cdf, 100_000, 7);
            let rel = (emp - cdf.mean()).abs() / cdf.mean();
            assert!(rel < 0.03, "empirical {emp} vs {} ({rel})", cdf.mean());
        }
    }

    #[test]
    fn samples_stay_in_range_and_interpolate() {
        let cdf = Cdf::websearch();
        let mut rng = StdRng::seed_from_u64(1);
        for _ in 0..10_000 {
            let s = cdf.sample(&mut rng);
            assert!((1..=30_000_000).contains(&s));
        }
        assert_eq!(cdf.size_at(0.0), 0.0);
        assert_eq!(cdf.size_at(7.5), 5_000.0);
        assert_eq!(cdf.size_at(15.0), 10_000.0);
        assert_eq!(cdf.size_at(25.0), 25_000.0);
        assert_eq!(cdf.size_at(100.0), 30_000_000.0);
        // Fraction of flows at most 10 kB is 15 %.
        let mut rng = StdRng::seed_from_u64(2);
        let small = (0..100_000)
            .filter(|_| cdf.sample(&mut rng) <= 10_000)
            .count();
        assert!((small as f64 / 1e5 - 0.15).abs() < 0.01, "{small}");
    }

    #[test]
    fn point_mass_and_flat_stretch() {
        // Half the flows exactly 1000 bytes, half uniform in 2000..4000 (1000..2000 never).
        let cdf = Cdf::parse("1000 0\n1000 50\n2000 50\n4000 100\n").unwrap();
        assert_eq!(cdf.mean(), 0.5 * 1000.0 + 0.5 * 3000.0);
        let mut rng = StdRng::seed_from_u64(3);
        for _ in 0..1000 {
            let s = cdf.sample(&mut rng);
            assert!(s == 1000 || (2000..=4000).contains(&s), "{s}");
        }
    }

    #[test]
    fn parse_accepts_comments_and_blank_lines() {
        let text = "# websearch-like\n\n0 0\n  10000 15 # first segment\n30000000 100\n";
        let cdf = Cdf::parse(text).unwrap();
        assert_eq!(cdf.points(), &[(0.0, 0.0), (10_000.0, 15.0), (30e6, 100.0)]);
    }

    #[test]
    fn parse_errors_name_the_line() {
        let cases = [
            ("0 0\n100 50\n50 60\n200 100\n", "line 3", "non-monotonic"),
            ("0 0\n100 50\n200 40\n300 100\n", "line 3", "non-monotonic"),
            (
                "# c\n0 5\n100 100\n",
                "line 2",
                "first point must be at 0 percent",
            ),
            (
                "0 0\n\n100 50\n200 99\n",
                "line 4",
                "last point must be at 100 percent",
            ),
            ("0 0\n1x0 50\n200 100\n", "line 2", "unparsable size"),
            ("0 0\n100 fifty\n200 100\n", "line 2", "unparsable percent"),
            ("0 0\n100\n200 100\n", "line 2", "expected two numbers"),
            ("0 0\n100 50 7\n200 100\n", "line 2", "expected two numbers"),
            ("0 0\n100 150\n", "line 2", "0..=100"),
            ("0 0\n-5 50\n200 100\n", "line 2", ">= 0"),
            ("0 0\n", "line 1", "at least two points"),
        ];
        for (text, line, what) in cases {
            let e = Cdf::parse(text).unwrap_err();
            assert!(e.starts_with(&format!("{line}:")), "{text:?}: {e}");
            assert!(e.contains(what), "{text:?}: {e}");
        }
        assert!(
            Cdf::parse("# only a comment\n")
                .unwrap_err()
                .contains("no points")
        );
    }

    #[test]
    fn incast_rounds_sorted_and_numbered() {
        let f = incast(&[3, 1, 2], 0, 1000, 2, 5_000, 100);
        assert_eq!(f.len(), 6);
        for (i, fl) in f.iter().enumerate() {
            assert_eq!(fl.id, i as u32);
            assert_eq!(fl.dst, 0);
            assert_eq!(fl.bytes, 1000);
            assert_eq!(fl.start, if i < 3 { 100 } else { 5_100 });
        }
        assert_eq!(
            f.iter().map(|x| x.src).collect::<Vec<_>>(),
            [3, 1, 2, 3, 1, 2]
        );
        assert!(incast(&[1], 0, 10, 0, 0, 0).is_empty());
    }

    #[test]
    fn permutation_is_a_derangement() {
        for hosts in [2, 3, 8, 64] {
            for seed in 0..20 {
                let f = permutation(hosts, 1 << 20, 7, seed);
                assert_eq!(f.len(), hosts as usize);
                let mut sent = vec![0; hosts as usize];
                let mut recv = vec![0; hosts as usize];
                for (i, fl) in f.iter().enumerate() {
                    assert_eq!(fl.id, i as u32);
                    assert_ne!(fl.src, fl.dst);
                    assert_eq!(fl.start, 7);
                    sent[fl.src as usize] += 1;
                    recv[fl.dst as usize] += 1;
                }
                assert!(sent.iter().all(|&c| c == 1) && recv.iter().all(|&c| c == 1));
            }
        }
        // Different seeds do give different permutations.
        assert_ne!(permutation(64, 1, 0, 1), permutation(64, 1, 0, 2));
    }

    #[test]
    fn generators_are_deterministic() {
        assert_eq!(permutation(32, 100, 0, 9), permutation(32, 100, 0, 9));
        let c = Cdf::fb_hadoop();
        let a = poisson(8, &c, 0.3, 100_000, 100 * PS_PER_US, 5);
        assert_eq!(a, poisson(8, &c, 0.3, 100_000, 100 * PS_PER_US, 5));
        assert_ne!(a, poisson(8, &c, 0.3, 100_000, 100 * PS_PER_US, 6));
    }

    #[test]
    fn poisson_offers_the_asked_load() {
        let hosts = 16;
        let rate = 100_000; // Mb/s
        for (cdf, duration) in [
            // 2 s: 70 000 flows at load 0.3 (websearch's mean is 1.7 MB).
            (Cdf::websearch(), 2_000_000 * PS_PER_US),
            // 1 s: 500 000 flows at load 0.3 (fb_hadoop's mean is 120 kB, its tail heavy).
            (Cdf::fb_hadoop(), 1_000_000 * PS_PER_US),
        ] {
            for load in [0.3, 0.8] {
                let f = poisson(hosts, &cdf, load, rate, duration, 11);
                let mut per_host = vec![0u64; hosts as usize];
                for (i, fl) in f.iter().enumerate() {
                    assert_eq!(fl.id, i as u32);
                    assert_ne!(fl.src, fl.dst);
                    assert!(fl.dst < hosts && fl.start < duration && fl.bytes >= 1);
                    if i > 0 {
                        assert!(f[i - 1].start <= fl.start);
                    }
                    per_host[fl.src as usize] += fl.bytes;
                }
                // Link capacity over the duration, bytes: rate Mb/s * us / 8.
                let cap = rate as f64 * (duration / PS_PER_US) as f64 / 8.0;
                let total: u64 = per_host.iter().sum();
                let offered = total as f64 / (cap * hosts as f64);
                assert!(
                    (offered - load).abs() / load < 0.04,
                    "load {load}: offered {offered} ({} flows)",
                    f.len()
                );
            }
        }
    }

    #[test]
    fn poisson_destinations_are_uniform_over_other_hosts() {
        let f = poisson(4, &Cdf::fb_hadoop(), 1.0, 100_000, 50_000 * PS_PER_US, 3);
        let mut m = [[0u32; 4]; 4];
        for fl in &f {
            m[fl.src as usize][fl.dst as usize] += 1;
        }
        for (s, row) in m.iter().enumerate() {
            let n: u32 = row.iter().sum();
            assert_eq!(row[s], 0);
            for d in (0..4).filter(|&d| d != s) {
                let frac = row[d] as f64 / n as f64;
                assert!((frac - 1.0 / 3.0).abs() < 0.03, "{s}->{d}: {frac}");
            }
        }
    }

    #[test]
    fn traffic_spec_from_toml() {
        let s: TrafficSpec =
            toml::from_str("kind = \"poisson\"\ncdf = \"websearch\"\nload = 0.5\n").unwrap();
        assert_eq!(
            s,
            TrafficSpec::Poisson {
                cdf: "websearch".into(),
                load: 0.5
            }
        );
        let s: TrafficSpec = toml::from_str(
            "kind = \"incast\"\nbytes = 1000\nrepeat = 3\ninterval_us = 2.5\nreceiver = 0\n",
        )
        .unwrap();
        let ctx = TrafficContext {
            hosts: 4,
            host_rate_mbps: 100_000,
            duration_ps: 0,
            seed: 1,
            base_dir: None,
        };
        let f = s.generate(&ctx).unwrap();
        assert_eq!(f.len(), 9);
        assert_eq!(f[3].start, 2_500_000);
        assert!(f.iter().all(|x| x.dst == 0 && x.src != 0));
        let p: TrafficSpec = toml::from_str("kind = \"permutation\"\nbytes = 10\n").unwrap();
        assert_eq!(p.generate(&ctx).unwrap(), permutation(4, 10, 0, 1));

        // Unknown fields and kinds are refused.
        assert!(
            toml::from_str::<TrafficSpec>("kind = \"permutation\"\nbytes = 1\nx = 1\n").is_err()
        );
        assert!(toml::from_str::<TrafficSpec>("kind = \"alltoall\"\nbytes = 1\n").is_err());
    }

    #[test]
    fn traffic_spec_validation_names_the_field() {
        let ctx = TrafficContext {
            hosts: 4,
            host_rate_mbps: 100_000,
            duration_ps: PS_PER_US,
            seed: 1,
            base_dir: None,
        };
        let bad = |s: TrafficSpec, what: &str| {
            let e = s.generate(&ctx).unwrap_err();
            assert!(e.contains(what), "{e}");
        };
        bad(
            TrafficSpec::Poisson {
                cdf: "websearch".into(),
                load: 0.0,
            },
            "traffic.load",
        );
        bad(
            TrafficSpec::Poisson {
                cdf: "websearch".into(),
                load: 1.5,
            },
            "(0, 1]",
        );
        bad(
            TrafficSpec::Poisson {
                cdf: "/nonexistent/x.cdf".into(),
                load: 0.5,
            },
            "traffic.cdf",
        );
        bad(
            TrafficSpec::Permutation {
                bytes: 0,
                start_us: 0.0,
            },
            "traffic.bytes",
        );
        bad(
            TrafficSpec::Permutation {
                bytes: 1,
                start_us: -1.0,
            },
            "traffic.start_us",
        );
        let inc = |senders: Option<Vec<NodeId>>, receiver, repeat| TrafficSpec::Incast {
            senders,
            receiver,
            bytes: 1,
            repeat,
            interval_us: 0.0,
            start_us: 0.0,
        };
        bad(inc(None, None, 0), "traffic.repeat");
        bad(inc(None, Some(4), 1), "traffic.receiver = 4");
        bad(inc(Some(vec![0, 9]), Some(3), 1), "traffic.senders[1] = 9");
        bad(inc(Some(vec![0, 3]), Some(3), 1), "is the receiver");
        bad(inc(Some(vec![1, 1]), Some(3), 1), "listed twice");
        bad(inc(Some(vec![]), Some(3), 1), "traffic.senders");
        let f = inc(None, None, 1).generate(&ctx).unwrap();
        assert_eq!(
            f.iter().map(|x| (x.src, x.dst)).collect::<Vec<_>>(),
            [(0, 3), (1, 3), (2, 3)]
        );
    }

    #[test]
    fn cdf_file_relative_to_base_dir() {
        let dir = std::env::temp_dir().join(format!("netsim-flows-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("my.cdf"), "0 0\n100 100\n").unwrap();
        let c = Cdf::named_or_file("my.cdf", Some(&dir)).unwrap();
        assert_eq!(c.mean(), 50.0);
        std::fs::write(dir.join("bad.cdf"), "0 0\n100 90\n").unwrap();
        let e = Cdf::named_or_file("bad.cdf", Some(&dir)).unwrap_err();
        assert!(e.contains("bad.cdf: line 2"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
