//! What a run reports: percentiles, fairness, FCT slowdown by flow size, time series, and
//! the verdict against the deployment goals of network.md.
//!
//! Everything here is a pure function of numbers the simulation collected; nothing here
//! simulates. The definitions are fixed so that reports of different runs compare:
//!
//! - Percentiles are **nearest-rank** ([`percentile_sorted`]): the p-th percentile of n
//!   values is the value of rank `ceil(p/100 * n)` (1-based, at least 1) in ascending order,
//!   always one of the values, never interpolated. p = 100 is the maximum, p = 0 the minimum.
//! - Fairness is Jain's index ([`jain`]), `(sum x)^2 / (n * sum x^2)`, 1 when all are equal
//!   and 1/n when one has everything.
//! - FCT slowdown ([`slowdown`]) is a flow's completion time divided by its completion time
//!   alone on an idle network, at least 1, as the HPCC simulator's analysis script computes
//!   it (`fct / standalone_fct`, raised to 1). [`SlowdownTable`] groups flows into size
//!   buckets as that script does: flows sorted by size are split into groups by *count*
//!   percentile ranges (the script uses equal 5 % steps; the default here is
//!   [`DEFAULT_SIZE_BUCKETS`], 0-30-50-60-70-80-90-95-99-100 %, finer at the tail where the
//!   long flows are), and each group reports the p50, p95 and p99 of its slowdowns and the
//!   largest size in it.
//! - Time series ([`Series`]) are (time, value) points read as a step function (a value holds
//!   until the next point); helpers resample them, integrate them over time
//!   ([`TimeWeighted`], [`Series::time_weighted_mean`]), count events per window
//!   ([`window_counts`]) and write several of them as one CSV with a shared time column
//!   ([`csv_string`], [`write_csv`]).
//! - [`Goals`] and [`Verdict`]: network.md's three deployment goals (server port
//!   throughput at least 95 %; PFC pauses at most 5 per second for 99 % of the time; p99
//!   latency at most 80 us) and the pass/fail of a run against them, each with the measured
//!   number and a reason.

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::packet::{PS_PER_US, Ps};

/// Picoseconds per second.
const PS_PER_S: f64 = 1e12;

// ---------------------------------------------------------------------------------------
// Percentiles and summaries

/// The values sorted ascending (`f64::total_cmp`: NaNs, which should not occur, sort last).
pub fn sorted(values: &[f64]) -> Vec<f64> {
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    v
}

/// Nearest-rank percentile of values already sorted ascending: the value of 1-based rank
/// `ceil(p/100 * n)`, at least rank 1; `p` is clamped to 0..=100. `None` for no values.
///
/// Example: of [15, 20, 35, 40, 50], p30 is 20 (rank ceil(1.5) = 2), p40 is 20 (rank 2),
/// p50 is 35 (rank 3), p100 is 50.
pub fn percentile_sorted(sorted: &[f64], p: f64) -> Option<f64> {
    if sorted.is_empty() {
        return None;
    }
    let n = sorted.len();
    let p = if p.is_nan() { 0.0 } else { p.clamp(0.0, 100.0) };
    // p * n first: exact for integer percents, so 99 % of 100 is rank 99, not 100. The
    // small tolerance keeps a product like 99.9 * 1000 = 99900.000..01 at rank 99900.
    let rank = (p * n as f64 / 100.0 - 1e-9).ceil().max(1.0) as usize;
    Some(sorted[rank.min(n) - 1])
}

/// Nearest-rank percentile ([`percentile_sorted`]) of values in any order.
pub fn percentile(values: &[f64], p: f64) -> Option<f64> {
    percentile_sorted(&sorted(values), p)
}

/// Median (nearest-rank p50) of values in any order.
pub fn p50(values: &[f64]) -> Option<f64> {
    percentile(values, 50.0)
}

/// Nearest-rank p90 of values in any order.
pub fn p90(values: &[f64]) -> Option<f64> {
    percentile(values, 90.0)
}

/// Nearest-rank p95 of values in any order.
pub fn p95(values: &[f64]) -> Option<f64> {
    percentile(values, 95.0)
}

/// Nearest-rank p99 of values in any order.
pub fn p99(values: &[f64]) -> Option<f64> {
    percentile(values, 99.0)
}

/// The largest value (`None` for no values).
pub fn max(values: &[f64]) -> Option<f64> {
    values.iter().copied().max_by(f64::total_cmp)
}

/// A distribution's summary for the report: count, mean and nearest-rank percentiles.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Dist {
    /// Number of values (at least 1).
    pub count: usize,
    /// Arithmetic mean.
    pub mean: f64,
    /// Nearest-rank median.
    pub p50: f64,
    /// Nearest-rank 90th percentile.
    pub p90: f64,
    /// Nearest-rank 95th percentile.
    pub p95: f64,
    /// Nearest-rank 99th percentile.
    pub p99: f64,
    /// Largest value.
    pub max: f64,
}

impl Dist {
    /// Summarise values in any order; `None` for no values.
    pub fn of(values: &[f64]) -> Option<Dist> {
        let s = sorted(values);
        let pct = |p| percentile_sorted(&s, p);
        Some(Dist {
            count: s.len(),
            mean: s.iter().sum::<f64>() / s.len() as f64,
            p50: pct(50.0)?,
            p90: pct(90.0)?,
            p95: pct(95.0)?,
            p99: pct(99.0)?,
            max: *s.last()?,
        })
    }

    /// The same summary with every value multiplied by `k` (e.g. ps to us with 1e-6).
    pub fn scaled(&self, k: f64) -> Dist {
        Dist {
            count: self.count,
            mean: self.mean * k,
            p50: self.p50 * k,
            p90: self.p90 * k,
            p95: self.p95 * k,
            p99: self.p99 * k,
            max: self.max * k,
        }
    }
}

/// Jain's fairness index of allocations `xs` (e.g. the throughputs of long flows):
/// `(sum x)^2 / (n * sum x^2)`, in [1/n, 1] for non-negative values; 1 when all are equal.
/// Defined as 1 for no values or all zeros (nothing is shared unfairly).
pub fn jain(xs: &[f64]) -> f64 {
    let sum: f64 = xs.iter().sum();
    let sq: f64 = xs.iter().map(|x| x * x).sum();
    if xs.is_empty() || sq == 0.0 {
        return 1.0;
    }
    sum * sum / (xs.len() as f64 * sq)
}

// ---------------------------------------------------------------------------------------
// FCT slowdown

/// FCT slowdown: `fct_ps / ideal_ps`, at least 1 (a flow cannot beat itself alone on an idle
/// network; rounding in the ideal can make the raw ratio dip below 1). `ideal_ps` is the
/// flow's completion time alone on an idle network, computed by the caller; 0 is taken as
/// 1 ps.
pub fn slowdown(fct_ps: Ps, ideal_ps: Ps) -> f64 {
    (fct_ps as f64 / ideal_ps.max(1) as f64).max(1.0)
}

/// One completed flow as the FCT analysis needs it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FlowFct {
    /// Flow size, bytes.
    pub bytes: u64,
    /// Completion time: from the flow's start to its last byte's delivery, ps.
    pub fct_ps: Ps,
    /// Completion time the flow would have alone on an idle network, ps.
    pub ideal_ps: Ps,
}

impl FlowFct {
    /// [`slowdown`] of this flow.
    pub fn slowdown(&self) -> f64 {
        slowdown(self.fct_ps, self.ideal_ps)
    }
}

/// Default size buckets of [`SlowdownTable`]: percentile edges of the flow *count*, flows
/// sorted by size (0-30 %, 30-50 %, ..., 95-99 %, 99-100 %).
pub const DEFAULT_SIZE_BUCKETS: [f64; 10] =
    [0.0, 30.0, 50.0, 60.0, 70.0, 80.0, 90.0, 95.0, 99.0, 100.0];

/// Equal count-percentile edges of `step` percent (0, step, 2 step, ..., 100), the HPCC
/// analysis script's scheme (its default step is 5). `step` is clamped to 1..=100; a step
/// that does not divide 100 makes the last group shorter.
pub fn equal_step_buckets(step: u32) -> Vec<f64> {
    let step = step.clamp(1, 100);
    let mut e: Vec<f64> = (0..100).step_by(step as usize).map(f64::from).collect();
    e.push(100.0);
    e
}

/// One size bucket of a [`SlowdownTable`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SlowdownBucket {
    /// The bucket holds the flows of count-percentile range `[lo_pct, hi_pct)` in size order:
    /// this is its lower edge, percent.
    pub lo_pct: f64,
    /// Upper edge of the count-percentile range, percent.
    pub hi_pct: f64,
    /// Flows in the bucket (at least 1).
    pub count: usize,
    /// Smallest flow size in the bucket, bytes.
    pub min_bytes: u64,
    /// Largest flow size in the bucket, bytes (the HPCC script labels a group by it).
    pub max_bytes: u64,
    /// Nearest-rank median of the bucket's slowdowns.
    pub p50: f64,
    /// Nearest-rank 95th percentile of the bucket's slowdowns.
    pub p95: f64,
    /// Nearest-rank 99th percentile of the bucket's slowdowns.
    pub p99: f64,
}

impl SlowdownBucket {
    /// A short label: the largest size in the bucket, decimal units ("<=80KB", "<=30MB").
    pub fn label(&self) -> String {
        format!("<={}", format_bytes(self.max_bytes))
    }
}

/// Bytes in decimal units with at most three significant digits: 950B, 10KB, 1.5MB, 2GB.
pub fn format_bytes(b: u64) -> String {
    let (v, unit) = match b {
        0..1_000 => return format!("{b}B"),
        1_000..1_000_000 => (b as f64 / 1e3, "KB"),
        1_000_000..1_000_000_000 => (b as f64 / 1e6, "MB"),
        _ => (b as f64 / 1e9, "GB"),
    };
    let s = if v >= 100.0 {
        format!("{v:.0}")
    } else if v >= 10.0 {
        format!("{v:.1}")
    } else {
        format!("{v:.2}")
    };
    let s = if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    };
    format!("{s}{unit}")
}

/// FCT slowdown by flow-size bucket, as the HPCC simulator's analysis script groups flows.
///
/// Flows are sorted by size (ties by slowdown, so the result does not depend on input order).
/// For count-percentile edges `e_0 = 0 < e_1 < ... < e_k = 100` and n flows, bucket j holds
/// the flows of sorted index `floor(e_j * n / 100) ..< floor(e_{j+1} * n / 100)`; each bucket
/// reports its size range and the nearest-rank p50/p95/p99 of its slowdowns. Buckets that
/// hold no flow (few flows, narrow ranges) are left out, so `buckets` may be shorter than
/// the edges suggest; each bucket carries its own range.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SlowdownTable {
    /// The count-percentile edges used.
    pub edges_pct: Vec<f64>,
    /// Flows in all buckets.
    pub flows: usize,
    /// Non-empty buckets in size order.
    pub buckets: Vec<SlowdownBucket>,
}

impl SlowdownTable {
    /// The table with [`DEFAULT_SIZE_BUCKETS`].
    pub fn new(flows: &[FlowFct]) -> SlowdownTable {
        SlowdownTable::with_edges(flows, &DEFAULT_SIZE_BUCKETS).expect("default edges are valid")
    }

    /// The table with the given count-percentile edges: at least two, the first 0, the last
    /// 100, strictly increasing (e.g. [`equal_step_buckets`]`(5)` for the HPCC script's).
    pub fn with_edges(flows: &[FlowFct], edges_pct: &[f64]) -> Result<SlowdownTable, String> {
        if edges_pct.len() < 2 || edges_pct[0] != 0.0 || *edges_pct.last().unwrap() != 100.0 {
            return Err(format!(
                "size bucket edges must start at 0 and end at 100 (percent of flows), are {edges_pct:?}"
            ));
        }
        if edges_pct.windows(2).any(|w| w[1] <= w[0]) {
            return Err(format!(
                "size bucket edges must increase strictly, are {edges_pct:?}"
            ));
        }
        let mut fs: Vec<(u64, f64)> = flows.iter().map(|f| (f.bytes, f.slowdown())).collect();
        fs.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.total_cmp(&b.1)));
        let n = fs.len();
        let idx = |e: f64| ((e * n as f64 / 100.0).floor() as usize).min(n);
        let mut buckets = Vec::new();
        for w in edges_pct.windows(2) {
            let (l, r) = (idx(w[0]), idx(w[1]));
            if l >= r {
                continue;
            }
            let group = &fs[l..r];
            let sd = sorted(&group.iter().map(|g| g.1).collect::<Vec<_>>());
            buckets.push(SlowdownBucket {
                lo_pct: w[0],
                hi_pct: w[1],
                count: group.len(),
                min_bytes: group[0].0,
                max_bytes: group[group.len() - 1].0,
                p50: percentile_sorted(&sd, 50.0).unwrap(),
                p95: percentile_sorted(&sd, 95.0).unwrap(),
                p99: percentile_sorted(&sd, 99.0).unwrap(),
            });
        }
        Ok(SlowdownTable {
            edges_pct: edges_pct.to_vec(),
            flows: n,
            buckets,
        })
    }
}

// ---------------------------------------------------------------------------------------
// Time series

/// A named time series: (time ps, value) points in non-decreasing time order, read as a
/// step function (each value holds from its time until the next point's).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Series {
    /// Column name in the CSV and legend entry in a plot.
    pub name: String,
    /// The points, time ascending.
    pub points: Vec<(Ps, f64)>,
}

impl Series {
    /// An empty series.
    pub fn new(name: impl Into<String>) -> Series {
        Series {
            name: name.into(),
            points: Vec::new(),
        }
    }

    /// A series from points (sorted by time here, stably).
    pub fn from_points(name: impl Into<String>, mut points: Vec<(Ps, f64)>) -> Series {
        points.sort_by_key(|p| p.0);
        Series {
            name: name.into(),
            points,
        }
    }

    /// Append a point; `t` must not be before the last point's time (panics otherwise).
    pub fn push(&mut self, t: Ps, v: f64) {
        if let Some(&(last, _)) = self.points.last() {
            assert!(
                t >= last,
                "series {}: point at {t} ps after one at {last} ps",
                self.name
            );
        }
        self.points.push((t, v));
    }

    /// Number of points.
    pub fn len(&self) -> usize {
        self.points.len()
    }

    /// True when there are no points.
    pub fn is_empty(&self) -> bool {
        self.points.is_empty()
    }

    /// The values, in time order.
    pub fn values(&self) -> Vec<f64> {
        self.points.iter().map(|p| p.1).collect()
    }

    /// The step function's value at `t`: the value of the last point at or before `t`
    /// (`None` before the first point).
    pub fn value_at(&self, t: Ps) -> Option<f64> {
        let i = self.points.partition_point(|p| p.0 <= t);
        (i > 0).then(|| self.points[i - 1].1)
    }

    /// The step function sampled at `start, start + step, ...` below `end` (times before the
    /// first point are skipped), named like this series. Panics if `step` is 0.
    pub fn resample(&self, start: Ps, end: Ps, step: Ps) -> Series {
        assert!(step > 0, "resample step must be > 0");
        let mut out = Series::new(self.name.clone());
        let mut t = start;
        while t < end {
            if let Some(v) = self.value_at(t) {
                out.points.push((t, v));
            }
            t += step;
        }
        out
    }

    /// Time-weighted mean of the step function over `[start, end)`: the integral of value
    /// over time divided by the time covered. Time before the first point is not covered;
    /// `None` when nothing of `[start, end)` is covered.
    pub fn time_weighted_mean(&self, start: Ps, end: Ps) -> Option<f64> {
        let first = self.points.first()?.0;
        let from = start.max(first);
        if from >= end {
            return None;
        }
        let mut acc = TimeWeighted::new(from, self.value_at(from)?);
        let i = self.points.partition_point(|p| p.0 <= from);
        for &(t, v) in &self.points[i..] {
            if t >= end {
                break;
            }
            acc.set(t, v);
        }
        Some(acc.mean_until(end))
    }
}

/// Running integral of a value held over time (a queue length, 0/1 for paused): `set` the new
/// value whenever it changes; the integral in value-picoseconds and the time-weighted mean
/// follow. Paused time, for instance, is the integral of a 0/1 value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimeWeighted {
    start: Ps,
    last_t: Ps,
    last_v: f64,
    integral: f64,
    max: f64,
}

impl TimeWeighted {
    /// Start at time `t0` with value `v0`.
    pub fn new(t0: Ps, v0: f64) -> TimeWeighted {
        TimeWeighted {
            start: t0,
            last_t: t0,
            last_v: v0,
            integral: 0.0,
            max: v0,
        }
    }

    /// The value becomes `v` at time `t` (not before the previous change; panics otherwise).
    pub fn set(&mut self, t: Ps, v: f64) {
        assert!(
            t >= self.last_t,
            "time went back: {t} ps after {} ps",
            self.last_t
        );
        self.integral += self.last_v * (t - self.last_t) as f64;
        self.last_t = t;
        self.last_v = v;
        self.max = self.max.max(v);
    }

    /// The current value.
    pub fn value(&self) -> f64 {
        self.last_v
    }

    /// The largest value held so far.
    pub fn max(&self) -> f64 {
        self.max
    }

    /// Integral of the value over `[t0, t)`, value x picoseconds (`t` not before the last
    /// change).
    pub fn integral_until(&self, t: Ps) -> f64 {
        assert!(
            t >= self.last_t,
            "time went back: {t} ps after {} ps",
            self.last_t
        );
        self.integral + self.last_v * (t - self.last_t) as f64
    }

    /// Time-weighted mean over `[t0, t)`; the current value when `t == t0`.
    pub fn mean_until(&self, t: Ps) -> f64 {
        if t == self.start {
            return self.last_v;
        }
        self.integral_until(t) / (t - self.start) as f64
    }
}

/// Events per window: window k counts the event times in `[start + k w, start + (k+1) w)`.
/// There are `ceil((end - start) / w)` windows, so the last may be shorter than `w`; events
/// outside `[start, end)` are not counted. Panics if `window` is 0.
pub fn window_counts(events: &[Ps], start: Ps, end: Ps, window: Ps) -> Vec<u64> {
    assert!(window > 0, "window must be > 0");
    let n = end.saturating_sub(start).div_ceil(window) as usize;
    let mut c = vec![0u64; n];
    for &t in events {
        if t >= start && t < end {
            c[((t - start) / window) as usize] += 1;
        }
    }
    c
}

/// Picoseconds as exact decimal microseconds ("12.345678").
pub fn ps_as_us(t: Ps) -> String {
    format!("{}.{:06}", t / PS_PER_US, t % PS_PER_US)
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// Several series as one CSV sharing a time column.
///
/// The header is `time_us` and the series names (quoted when they hold a comma, quote or
/// newline). There is one row per distinct time of any series, ascending, the time written
/// as exact decimal microseconds ([`ps_as_us`]); a series' cell is its value at exactly that
/// time (the last of its points at that time) or empty when it has no point there. Values
/// use Rust's shortest round-trip formatting, so the output is byte-for-byte deterministic.
pub fn csv_string(series: &[Series]) -> String {
    let mut out = String::from("time_us");
    for s in series {
        out.push(',');
        out.push_str(&csv_field(&s.name));
    }
    out.push('\n');
    let mut times: Vec<Ps> = series
        .iter()
        .flat_map(|s| s.points.iter().map(|p| p.0))
        .collect();
    times.sort_unstable();
    times.dedup();
    let mut pos = vec![0usize; series.len()];
    for t in times {
        out.push_str(&ps_as_us(t));
        for (s, i) in series.iter().zip(pos.iter_mut()) {
            out.push(',');
            let mut cell = None;
            while *i < s.points.len() && s.points[*i].0 <= t {
                if s.points[*i].0 == t {
                    cell = Some(s.points[*i].1);
                }
                *i += 1;
            }
            if let Some(v) = cell {
                out.push_str(&v.to_string());
            }
        }
        out.push('\n');
    }
    out
}

/// Write [`csv_string`] of the series to `path`; the error names the path.
pub fn write_csv(path: &Path, series: &[Series]) -> Result<(), String> {
    std::fs::write(path, csv_string(series))
        .map_err(|e| format!("{}: cannot write CSV: {e}", path.display()))
}

// ---------------------------------------------------------------------------------------
// Deployment goals and verdict

/// The three deployment goals of network.md (a public account of a cloud's RoCE deployment),
/// with their thresholds. The defaults are network.md's numbers; a scenario may tighten or
/// relax them.
///
/// (network.md's "latency <= 40 us in 90 % of scenarios" is a statement over many runs; a
/// caller sweeping scenarios can count the runs whose [`Verdict::latency`] measurement is at
/// most 40.)
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Goals {
    /// Throughput goal: every judged port carries at least this fraction of its line rate
    /// (0.95).
    pub min_throughput: f64,
    /// Pause goal: the pause-frame rate limit, frames per second (5).
    pub max_pauses_per_s: f64,
    /// Pause goal: the fraction of time (of windows) that must be within the limit (0.99).
    pub pause_time_fraction: f64,
    /// Latency goal: the largest allowed p99 packet latency, microseconds (80).
    pub max_latency_p99_us: f64,
}

impl Default for Goals {
    fn default() -> Goals {
        Goals {
            min_throughput: 0.95,
            max_pauses_per_s: 5.0,
            pause_time_fraction: 0.99,
            max_latency_p99_us: 80.0,
        }
    }
}

/// What one goal came to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// The measured number meets the threshold.
    Pass,
    /// It does not.
    Fail,
    /// There was nothing to measure (no port judged, no window, no packet); not a failure.
    NotApplicable,
}

/// One goal's result.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GoalResult {
    /// Pass, fail or not applicable.
    pub outcome: Outcome,
    /// The number compared with the threshold (see [`Verdict`] for which), if any.
    pub measured: Option<f64>,
    /// The threshold it is compared with.
    pub threshold: f64,
    /// One sentence saying what was compared and why it passed or failed.
    pub reason: String,
}

/// The numbers a run's verdict is computed from.
#[derive(Clone, Copy, Debug, Default)]
pub struct VerdictInputs<'a> {
    /// Throughput of each port the goal applies to, as a fraction of its line rate: the
    /// bottleneck port for incast, the busy hosts' ports for permutation traffic. Leave it
    /// empty when no port is expected to be saturated (e.g. Poisson traffic below full
    /// load): the goal is then not applicable.
    pub throughput_frac: &'a [f64],
    /// PFC pause frames sent in each consecutive window of `pause_window_ps` (e.g.
    /// [`window_counts`] of the pause times): the total over all ports for the strict
    /// reading, or one port's.
    pub pause_counts: &'a [u64],
    /// The window length of `pause_counts`, ps (1 ms = 10^9 ps is the usual).
    pub pause_window_ps: Ps,
    /// Latency of every delivered data packet, from the sender's grant to delivery, ps.
    pub latencies_ps: &'a [Ps],
}

/// A run against the [`Goals`]. `pass` is true when no goal failed (not-applicable goals do
/// not fail a run). Precisely:
///
/// - `throughput`: measured = the smallest of `throughput_frac` (the worst judged port);
///   pass iff measured >= `min_throughput`.
/// - `pauses`: each window's rate is its count divided by the window length in seconds;
///   measured = the fraction of windows whose rate is <= `max_pauses_per_s`; pass iff
///   measured >= `pause_time_fraction`. (With 1 ms windows a single pause is 1000 per
///   second, so in effect at most 1 % of the windows may hold a pause; windows of 1 s judge
///   the count per second directly.)
/// - `latency`: measured = the nearest-rank p99 of `latencies_ps`, in microseconds; pass iff
///   measured <= `max_latency_p99_us`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Verdict {
    /// No goal failed.
    pub pass: bool,
    /// Server port throughput >= 95 % of line rate.
    pub throughput: GoalResult,
    /// PFC pauses <= 5 per second for 99 % of the time.
    pub pauses: GoalResult,
    /// p99 latency <= 80 us.
    pub latency: GoalResult,
}

impl Verdict {
    /// Judge a run's numbers against the goals.
    pub fn judge(goals: &Goals, inputs: &VerdictInputs) -> Verdict {
        let throughput = judge_throughput(goals, inputs.throughput_frac);
        let pauses = judge_pauses(goals, inputs.pause_counts, inputs.pause_window_ps);
        let latency = judge_latency(goals, inputs.latencies_ps);
        let pass = [&throughput, &pauses, &latency]
            .iter()
            .all(|g| g.outcome != Outcome::Fail);
        Verdict {
            pass,
            throughput,
            pauses,
            latency,
        }
    }
}

fn pass_fail(ok: bool) -> Outcome {
    if ok { Outcome::Pass } else { Outcome::Fail }
}

fn judge_throughput(goals: &Goals, fracs: &[f64]) -> GoalResult {
    let threshold = goals.min_throughput;
    let Some((worst_i, &worst)) = fracs.iter().enumerate().min_by(|a, b| a.1.total_cmp(b.1)) else {
        return GoalResult {
            outcome: Outcome::NotApplicable,
            measured: None,
            threshold,
            reason: "no port is judged for throughput (no saturating traffic)".into(),
        };
    };
    let ok = worst >= threshold;
    GoalResult {
        outcome: pass_fail(ok),
        measured: Some(worst),
        threshold,
        reason: format!(
            "worst of {} judged port(s) (#{worst_i}) carries {:.2} % of line rate, goal >= {:.2} %",
            fracs.len(),
            worst * 100.0,
            threshold * 100.0
        ),
    }
}

fn judge_pauses(goals: &Goals, counts: &[u64], window_ps: Ps) -> GoalResult {
    let threshold = goals.pause_time_fraction;
    if counts.is_empty() || window_ps == 0 {
        return GoalResult {
            outcome: Outcome::NotApplicable,
            measured: None,
            threshold,
            reason: "no pause-count window to judge".into(),
        };
    }
    let window_s = window_ps as f64 / PS_PER_S;
    let rate = |c: u64| c as f64 / window_s;
    let within = counts
        .iter()
        .filter(|&&c| rate(c) <= goals.max_pauses_per_s)
        .count();
    let frac = within as f64 / counts.len() as f64;
    let peak = counts.iter().copied().max().unwrap_or(0);
    let ok = frac >= threshold;
    GoalResult {
        outcome: pass_fail(ok),
        measured: Some(frac),
        threshold,
        reason: format!(
            "{within} of {} windows of {} us ({:.2} %) within {} pauses/s, goal >= {:.2} %; \
             busiest window {peak} pause(s) = {} /s",
            counts.len(),
            ps_as_us(window_ps)
                .trim_end_matches('0')
                .trim_end_matches('.'),
            frac * 100.0,
            goals.max_pauses_per_s,
            threshold * 100.0,
            rate(peak)
        ),
    }
}

fn judge_latency(goals: &Goals, latencies: &[Ps]) -> GoalResult {
    let threshold = goals.max_latency_p99_us;
    let us: Vec<f64> = latencies
        .iter()
        .map(|&l| l as f64 / PS_PER_US as f64)
        .collect();
    let Some(p) = p99(&us) else {
        return GoalResult {
            outcome: Outcome::NotApplicable,
            measured: None,
            threshold,
            reason: "no packet delivered: no latency to judge".into(),
        };
    };
    let ok = p <= threshold;
    GoalResult {
        outcome: pass_fail(ok),
        measured: Some(p),
        threshold,
        reason: format!(
            "p99 latency of {} packets is {p:.3} us, goal <= {threshold} us",
            latencies.len()
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_rank_percentiles() {
        let v = [50.0, 15.0, 40.0, 20.0, 35.0];
        assert_eq!(percentile(&v, 5.0), Some(15.0));
        assert_eq!(percentile(&v, 30.0), Some(20.0));
        assert_eq!(percentile(&v, 40.0), Some(20.0));
        assert_eq!(percentile(&v, 50.0), Some(35.0));
        assert_eq!(percentile(&v, 100.0), Some(50.0));
        assert_eq!(percentile(&v, 0.0), Some(15.0));
        assert_eq!(percentile(&[], 50.0), None);
        // 1..=100: p99 is 99 (rank 99), p99.9 of 1..=1000 is 999.
        let h: Vec<f64> = (1..=100).map(f64::from).collect();
        assert_eq!(p99(&h), Some(99.0));
        assert_eq!(p95(&h), Some(95.0));
        assert_eq!(p90(&h), Some(90.0));
        assert_eq!(p50(&h), Some(50.0));
        assert_eq!(max(&h), Some(100.0));
        let k: Vec<f64> = (1..=1000).map(f64::from).collect();
        assert_eq!(percentile(&k, 99.9), Some(999.0));
        // Ten values: p50 rank 5, p95 rank ceil(9.5) = 10.
        let t: Vec<f64> = (1..=10).map(f64::from).collect();
        assert_eq!(p50(&t), Some(5.0));
        assert_eq!(p95(&t), Some(10.0));
        let d = Dist::of(&t).unwrap();
        assert_eq!(
            (d.count, d.mean, d.p90, d.p99, d.max),
            (10, 5.5, 9.0, 10.0, 10.0)
        );
        assert_eq!(d.scaled(2.0).p50, 10.0);
        assert!(Dist::of(&[]).is_none());
    }

    #[test]
    fn jain_index() {
        assert_eq!(jain(&[3.0, 3.0, 3.0, 3.0]), 1.0);
        assert_eq!(jain(&[1.0, 0.0, 0.0, 0.0]), 0.25);
        // (1+2+3)^2 / (3 * 14) = 36/42
        assert!((jain(&[1.0, 2.0, 3.0]) - 36.0 / 42.0).abs() < 1e-12);
        assert_eq!(jain(&[]), 1.0);
        assert_eq!(jain(&[0.0, 0.0]), 1.0);
    }

    #[test]
    fn slowdown_is_at_least_one() {
        assert_eq!(slowdown(300, 100), 3.0);
        assert_eq!(slowdown(90, 100), 1.0);
        assert_eq!(slowdown(5, 0), 5.0);
        assert_eq!(
            FlowFct {
                bytes: 1,
                fct_ps: 250,
                ideal_ps: 100
            }
            .slowdown(),
            2.5
        );
    }

    #[test]
    fn slowdown_table_groups_by_count_percentile() {
        // Sizes 1000..=10000 given in reverse; flow i (size 1000 i) has slowdown i.
        let flows: Vec<FlowFct> = (1..=10u64)
            .rev()
            .map(|i| FlowFct {
                bytes: 1000 * i,
                fct_ps: 100 * i,
                ideal_ps: 100,
            })
            .collect();
        let t = SlowdownTable::with_edges(&flows, &[0.0, 50.0, 100.0]).unwrap();
        assert_eq!(t.flows, 10);
        assert_eq!(t.buckets.len(), 2);
        let b = &t.buckets[0];
        assert_eq!((b.count, b.min_bytes, b.max_bytes), (5, 1000, 5000));
        // Slowdowns 1..=5: p50 rank 3, p95 and p99 rank 5.
        assert_eq!((b.p50, b.p95, b.p99), (3.0, 5.0, 5.0));
        assert_eq!(b.label(), "<=5KB");
        assert_eq!(t.buckets[1].p50, 8.0);

        // Default edges on 10 flows: index ranges [0,3) [3,5) [5,6) [6,7) [7,8) [8,9)
        // [9,9) [9,9) [9,10): the 90-95 and 95-99 groups are empty and left out.
        let d = SlowdownTable::new(&flows);
        let counts: Vec<usize> = d.buckets.iter().map(|b| b.count).collect();
        assert_eq!(counts, [3, 2, 1, 1, 1, 1, 1]);
        let last = d.buckets.last().unwrap();
        assert_eq!(
            (last.lo_pct, last.hi_pct, last.max_bytes, last.p99),
            (99.0, 100.0, 10_000, 10.0)
        );
        assert_eq!(d.buckets[0].p50, 2.0);

        assert!(SlowdownTable::with_edges(&flows, &[0.0, 50.0]).is_err());
        assert!(SlowdownTable::with_edges(&flows, &[0.0, 50.0, 50.0, 100.0]).is_err());
        assert!(SlowdownTable::new(&[]).buckets.is_empty());
        assert_eq!(equal_step_buckets(25), [0.0, 25.0, 50.0, 75.0, 100.0]);
        assert_eq!(equal_step_buckets(30), [0.0, 30.0, 60.0, 90.0, 100.0]);
    }

    #[test]
    fn bytes_format() {
        assert_eq!(format_bytes(999), "999B");
        assert_eq!(format_bytes(10_000), "10KB");
        assert_eq!(format_bytes(1_500_000), "1.5MB");
        assert_eq!(format_bytes(30_000_000), "30MB");
        assert_eq!(format_bytes(123_456), "123KB");
        assert_eq!(format_bytes(2_000_000_000), "2GB");
    }

    #[test]
    fn series_step_function_helpers() {
        let s = Series::from_points("q", vec![(10, 3.0), (0, 1.0), (20, 5.0)]);
        assert_eq!(s.value_at(5), Some(1.0));
        assert_eq!(s.value_at(10), Some(3.0));
        let r = s.resample(0, 30, 5);
        assert_eq!(r.values(), [1.0, 1.0, 3.0, 3.0, 5.0, 5.0]);
        assert_eq!(r.points[5].0, 25);
        // (1*10 + 3*10 + 5*10) / 30 = 3; over [5, 15): (1*5 + 3*5) / 10 = 2.
        assert_eq!(s.time_weighted_mean(0, 30), Some(3.0));
        assert_eq!(s.time_weighted_mean(5, 15), Some(2.0));
        assert_eq!(s.time_weighted_mean(30, 30), None);
        assert_eq!(Series::new("e").time_weighted_mean(0, 10), None);
        // Starting before the first point: only [10, 20) is covered.
        let late = Series::from_points("l", vec![(10, 4.0)]);
        assert_eq!(late.time_weighted_mean(0, 20), Some(4.0));

        let mut tw = TimeWeighted::new(100, 0.0);
        tw.set(200, 1.0); // paused from 200
        tw.set(250, 0.0); // to 250
        tw.set(400, 1.0);
        assert_eq!(tw.integral_until(500), 150.0);
        assert_eq!(tw.mean_until(500), 0.375);
        assert_eq!(tw.max(), 1.0);
        assert_eq!(tw.value(), 1.0);
    }

    #[test]
    fn window_counting() {
        assert_eq!(
            window_counts(&[0, 999, 1000, 2500, 3000], 0, 3000, 1000),
            [2, 1, 1]
        );
        // Partial last window; an event before the start is ignored.
        assert_eq!(window_counts(&[5, 10, 1500], 10, 1510, 1000), [1, 1]);
        assert!(window_counts(&[], 0, 0, 1000).is_empty());
    }

    #[test]
    fn csv_shares_the_time_column() {
        let a = Series::from_points("rate,qp0", vec![(0, 1.5), (1_000_000, 2.0)]);
        let b = Series::from_points("q", vec![(1_000_000, 7.0), (2_500_000, 0.0)]);
        let csv = csv_string(&[a, b]);
        assert_eq!(
            csv,
            "time_us,\"rate,qp0\",q\n0.000000,1.5,\n1.000000,2,7\n2.500000,,0\n"
        );
        let dir = std::env::temp_dir().join(format!("netsim-stats-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("s.csv");
        write_csv(&p, &[Series::from_points("x", vec![(1, 0.25)])]).unwrap();
        assert_eq!(
            std::fs::read_to_string(&p).unwrap(),
            "time_us,x\n0.000001,0.25\n"
        );
        assert!(
            write_csv(&dir.join("no/such/dir.csv"), &[])
                .unwrap_err()
                .contains("dir.csv")
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn verdict_against_the_goals() {
        let g = Goals::default();
        // 200 windows of 1 ms: two hold a pause (1000/s each) -> 198/200 = 99 %: pass.
        let mut pauses = vec![0u64; 200];
        pauses[10] = 1;
        pauses[50] = 1;
        // Latencies 1..=100 us: p99 = 99 us > 80: fail.
        let lat: Vec<Ps> = (1..=100).map(|u| u * PS_PER_US).collect();
        let v = Verdict::judge(
            &g,
            &VerdictInputs {
                throughput_frac: &[0.97, 0.951, 0.99],
                pause_counts: &pauses,
                pause_window_ps: 1_000_000_000,
                latencies_ps: &lat,
            },
        );
        assert_eq!(v.throughput.outcome, Outcome::Pass);
        assert_eq!(v.throughput.measured, Some(0.951));
        assert!(
            v.throughput.reason.contains("(#1)"),
            "{}",
            v.throughput.reason
        );
        assert_eq!(v.pauses.outcome, Outcome::Pass);
        assert_eq!(v.pauses.measured, Some(0.99));
        assert!(
            v.pauses.reason.contains("198 of 200 windows of 1000 us"),
            "{}",
            v.pauses.reason
        );
        assert_eq!(v.latency.outcome, Outcome::Fail);
        assert_eq!(v.latency.measured, Some(99.0));
        assert!(!v.pass);

        // A third paused window: 197/200 < 99 %; a port at 94 %; latencies of 50 us pass.
        pauses[60] = 3;
        let v = Verdict::judge(
            &g,
            &VerdictInputs {
                throughput_frac: &[0.94],
                pause_counts: &pauses,
                pause_window_ps: 1_000_000_000,
                latencies_ps: &[50 * PS_PER_US; 10],
            },
        );
        assert_eq!(v.throughput.outcome, Outcome::Fail);
        assert_eq!(v.pauses.outcome, Outcome::Fail);
        assert_eq!(v.pauses.measured, Some(0.985));
        assert_eq!(v.latency.outcome, Outcome::Pass);
        // One 1 s window with 5 pauses is within 5/s.
        let v = Verdict::judge(
            &g,
            &VerdictInputs {
                pause_counts: &[5],
                pause_window_ps: 1_000_000_000_000,
                ..Default::default()
            },
        );
        assert_eq!(v.pauses.outcome, Outcome::Pass);
        assert_eq!(v.throughput.outcome, Outcome::NotApplicable);
        assert_eq!(v.latency.outcome, Outcome::NotApplicable);
        assert!(v.pass);

        // The summary JSON.
        let j = serde_json::to_value(&v).unwrap();
        assert_eq!(j["pass"], true);
        assert_eq!(j["throughput"]["outcome"], "not_applicable");
        assert_eq!(j["pauses"]["measured"], 1.0);
        let back: Verdict = serde_json::from_value(j).unwrap();
        assert_eq!(back, v);
        let goals: Goals = toml::from_str("max_latency_p99_us = 40.0\n").unwrap();
        assert_eq!(goals.max_latency_p99_us, 40.0);
        assert_eq!(goals.min_throughput, 0.95);
        assert!(toml::from_str::<Goals>("latency = 1\n").is_err());
    }
}
