//! `roce-cc netsim`: run a scenario of the closed-loop network simulation, or a sweep of
//! one over a grid of switch and core parameters (docs/netsim.md).

use crate::{Failure, bad_input, internal};
use clap::{Args, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};
use roce_cc_netsim::report::Summary;
use roce_cc_netsim::scenario::{EcnSpec, Scenario};
use roce_cc_netsim::stats::Outcome;
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

#[derive(Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct NetsimArgs {
    #[command(subcommand)]
    sweep: Option<NetsimSub>,
    /// The scenario (TOML; network.md, docs/netsim.md; examples in scenarios/).
    #[arg(long)]
    scenario: Option<PathBuf>,
    /// Directory for summary.json, the CSV time series and the SVG plots.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Override the scenario's engine: golden, or rtl for the hosts of --rtl-hosts.
    #[arg(long)]
    engine: Option<String>,
    /// Hosts whose core runs as Verilated RTL (with --engine rtl), e.g. 0,1.
    #[arg(long, value_delimiter = ',')]
    rtl_hosts: Option<Vec<u32>>,
    /// Override the scenario's duration, us.
    #[arg(long)]
    duration_us: Option<u64>,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
}

#[derive(Subcommand)]
enum NetsimSub {
    /// Run a scenario over every point of a grid, all cores of the machine in parallel, and
    /// print one row per point with the goals' verdicts.
    Sweep(SweepArgs),
}

#[derive(Args)]
struct SweepArgs {
    /// The scenario every point starts from.
    #[arg(long)]
    scenario: PathBuf,
    /// ECN Kmin values, bytes (comma-separated).
    #[arg(long, value_delimiter = ',')]
    kmin: Vec<u64>,
    /// ECN Kmax values, bytes.
    #[arg(long, value_delimiter = ',')]
    kmax: Vec<u64>,
    /// ECN Pmax values (0..=1).
    #[arg(long, value_delimiter = ',')]
    pmax: Vec<f64>,
    /// PFC alpha as log2 (-7..=3).
    #[arg(long, value_delimiter = ',', allow_negative_numbers = true)]
    alpha_log2: Vec<i32>,
    /// A core parameter and its values, KEY=V1,V2,... (repeatable), e.g. rpg_ai_rate=5,20.
    #[arg(long = "set")]
    set: Vec<String>,
    /// Override the scenario's duration, us.
    #[arg(long)]
    duration_us: Option<u64>,
    /// Parallel runs (default: the machine's cores).
    #[arg(long)]
    jobs: Option<usize>,
    /// Write each point's report into DIR/point-N.
    #[arg(long)]
    out: Option<PathBuf>,
}

pub fn run(a: &NetsimArgs) -> Result<(), Failure> {
    if let Some(NetsimSub::Sweep(s)) = &a.sweep {
        return sweep(s);
    }
    let path = a
        .scenario
        .as_ref()
        .ok_or_else(|| bad_input("netsim needs --scenario FILE (or the `sweep` subcommand)"))?;
    let mut sc = Scenario::from_file(path).map_err(bad_input)?;
    if let Some(e) = &a.engine {
        sc.nic.engine = e.clone();
    }
    if let Some(h) = &a.rtl_hosts {
        sc.nic.rtl_hosts = Some(h.clone());
    }
    if let Some(d) = a.duration_us {
        sc.duration_us = d;
    }
    sc.check().map_err(bad_input)?;
    let bar = if a.quiet {
        ProgressBar::hidden()
    } else {
        let b = ProgressBar::new(sc.duration_us);
        b.set_style(
            ProgressStyle::with_template("{msg} [{bar:40}] {pos}/{len} us simulated, {elapsed}")
                .expect("a valid template")
                .progress_chars("=> "),
        );
        b.set_message(sc.name.clone());
        b
    };
    let s = roce_cc_netsim::run_scenario(&sc, a.out.as_deref(), |now, _| {
        bar.set_position(now / 1_000_000)
    })
    .map_err(internal)?;
    bar.finish_and_clear();
    print_summary(&s);
    if let Some(o) = &a.out {
        println!("report: {}", o.join("summary.json").display());
    }
    Ok(())
}

fn verdict_word(o: &Outcome) -> &'static str {
    match o {
        Outcome::Pass => "pass",
        Outcome::Fail => "FAIL",
        Outcome::NotApplicable => "n/a",
    }
}

fn print_summary(s: &Summary) {
    println!(
        "{}: {} flows, {} completed; {} pause frames ({:.0}/s); {} drops; CNPs {}",
        s.scenario, s.flows, s.flows_completed, s.pauses_total, s.pauses_per_s, s.drops, s.cnps
    );
    if let Some(q) = s.queues.first() {
        println!(
            "largest queue {}: p50 {:.0} B, p99 {:.0} B, max {:.0} B",
            q.port, q.p50, q.p99, q.max
        );
    }
    if let Some(l) = &s.latency_us {
        println!(
            "packet latency us: p50 {:.2}, p90 {:.2}, p99 {:.2}, max {:.2}",
            l.p50, l.p90, l.p99, l.max
        );
    }
    if let Some(q) = &s.judged_queue {
        println!(
            "bottleneck {} over the judged window: link busy {:.2} %, queue p50 {:.0} B, \
             p99 {:.0} B, max {:.0} B",
            q.port,
            s.judged_busy.first().copied().unwrap_or(0.0) * 100.0,
            q.p50,
            q.p99,
            q.max
        );
    }
    if let Some(j) = s.jain_long_flows {
        println!("Jain index of long flows: {j:.4}");
    }
    let v = &s.verdict;
    for (name, g) in [
        ("throughput", &v.throughput),
        ("pauses", &v.pauses),
        ("latency", &v.latency),
    ] {
        println!("goal {name}: {} ({})", verdict_word(&g.outcome), g.reason);
    }
    println!(
        "conservation {}: granted {} = delivered {} + in flight {} + dropped {}",
        if s.conservation.holds {
            "holds"
        } else {
            "BROKEN"
        },
        s.conservation.granted,
        s.conservation.delivered,
        s.conservation.in_flight,
        s.conservation.dropped
    );
    println!(
        "speed: {:.2} s, {} network events ({:.0}/s), {} core cycles evaluated",
        s.speed.wall_s, s.speed.network_events, s.speed.events_per_s, s.speed.core_cycles_evaluated
    );
}

/// One point of the grid.
#[derive(Clone, Debug)]
struct Point {
    kmin: Option<u64>,
    kmax: Option<u64>,
    pmax: Option<f64>,
    alpha_log2: Option<i32>,
    set: Vec<(String, String)>,
}

fn grid(s: &SweepArgs) -> Result<Vec<Point>, Failure> {
    fn axis<T: Clone>(v: &[T]) -> Vec<Option<T>> {
        if v.is_empty() {
            vec![None]
        } else {
            v.iter().cloned().map(Some).collect()
        }
    }
    let mut sets: Vec<Vec<(String, String)>> = vec![Vec::new()];
    for kv in &s.set {
        let (k, vs) = kv
            .split_once('=')
            .ok_or_else(|| bad_input(format!("--set {kv}: expected KEY=V1,V2,...")))?;
        let mut next = Vec::new();
        for base in &sets {
            for v in vs.split(',') {
                let mut b = base.clone();
                b.push((k.to_string(), v.to_string()));
                next.push(b);
            }
        }
        sets = next;
    }
    let mut pts = Vec::new();
    for kmin in axis(&s.kmin) {
        for kmax in axis(&s.kmax) {
            for pmax in axis(&s.pmax) {
                for alpha_log2 in axis(&s.alpha_log2) {
                    for set in &sets {
                        pts.push(Point {
                            kmin,
                            kmax,
                            pmax,
                            alpha_log2,
                            set: set.clone(),
                        });
                    }
                }
            }
        }
    }
    Ok(pts)
}

fn point_scenario(base: &Scenario, p: &Point, i: usize) -> Result<Scenario, String> {
    let mut sc = base.clone();
    sc.name = format!("{}-point{i}", base.name);
    if p.kmin.is_some() || p.kmax.is_some() || p.pmax.is_some() {
        let e = sc.switch.ecn.unwrap_or(EcnSpec {
            kmin_bytes: 100_000,
            kmax_bytes: 400_000,
            pmax: 0.2,
        });
        sc.switch.ecn = Some(EcnSpec {
            kmin_bytes: p.kmin.unwrap_or(e.kmin_bytes),
            kmax_bytes: p.kmax.unwrap_or(e.kmax_bytes),
            pmax: p.pmax.unwrap_or(e.pmax),
        });
    }
    if let Some(a) = p.alpha_log2 {
        sc.switch.pfc_alpha_log2 = a;
    }
    if !p.set.is_empty() {
        let mut t = sc.nic.set.clone().unwrap_or_default();
        for (k, v) in &p.set {
            let val: toml::Value = v
                .parse::<i64>()
                .map(toml::Value::Integer)
                .or_else(|_| v.parse::<bool>().map(toml::Value::Boolean))
                .unwrap_or_else(|_| toml::Value::String(v.clone()));
            t.insert(k.clone(), val);
        }
        sc.nic.set = Some(t);
    }
    sc.check()?;
    Ok(sc)
}

fn sweep(s: &SweepArgs) -> Result<(), Failure> {
    let mut base = Scenario::from_file(&s.scenario).map_err(bad_input)?;
    if let Some(d) = s.duration_us {
        base.duration_us = d;
    }
    let pts = grid(s)?;
    let scs: Vec<Scenario> = pts
        .iter()
        .enumerate()
        .map(|(i, p)| point_scenario(&base, p, i).map_err(|e| bad_input(format!("point {i}: {e}"))))
        .collect::<Result<_, _>>()?;
    let jobs = s
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .clamp(1, scs.len().max(1));
    eprintln!("{} points on {jobs} threads", scs.len());
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<Result<Summary, String>>>> =
        Mutex::new((0..scs.len()).map(|_| None).collect());
    std::thread::scope(|sc| {
        for _ in 0..jobs {
            sc.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(p) = scs.get(i) else { break };
                    let out = s.out.as_ref().map(|o| o.join(format!("point-{i}")));
                    let r = roce_cc_netsim::run_scenario(p, out.as_deref(), |_, _| {});
                    results.lock().expect("no worker panics")[i] = Some(r);
                }
            });
        }
    });
    let results = results.into_inner().expect("no worker panics");
    println!(
        "| point | Kmin B | Kmax B | Pmax | alpha | core | bottleneck / worst port | queue p50 B | Jain | pauses/s | latency p99 us | throughput | pauses | latency |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    for (i, (p, r)) in pts.iter().zip(results).enumerate() {
        let r = r.expect("every point ran").map_err(internal)?;
        let sc = &scs[i];
        let e = sc.switch.ecn;
        let worst = r
            .judged_throughput
            .iter()
            .cloned()
            .fold(None, |m: Option<f64>, x| Some(m.map_or(x, |m| m.min(x))));
        println!(
            "| {i} | {} | {} | {} | 2^{} | {} | {} | {} | {} | {:.0} | {} | {} | {} | {} |",
            e.map_or("-".into(), |e| e.kmin_bytes.to_string()),
            e.map_or("-".into(), |e| e.kmax_bytes.to_string()),
            e.map_or("-".into(), |e| e.pmax.to_string()),
            sc.switch.pfc_alpha_log2,
            if p.set.is_empty() {
                "-".to_string()
            } else {
                p.set
                    .iter()
                    .map(|(k, v)| format!("{k}={v}"))
                    .collect::<Vec<_>>()
                    .join(" ")
            },
            worst.map_or("-".into(), |w| format!("{:.1} %", 100.0 * w)),
            r.judged_queue
                .as_ref()
                .map_or("-".into(), |q| format!("{:.0}", q.p50)),
            r.jain_long_flows.map_or("-".into(), |j| format!("{j:.3}")),
            r.pauses_per_s,
            r.latency_us
                .as_ref()
                .map_or("-".into(), |l| format!("{:.1}", l.p99)),
            verdict_word(&r.verdict.throughput.outcome),
            verdict_word(&r.verdict.pauses.outcome),
            verdict_word(&r.verdict.latency.outcome),
        );
    }
    Ok(())
}
