//! What a run reports (network.md, "What it reports"): the summary JSON, the time series
//! as CSV, the SVG plots, and the verdict against the deployment goals.
//!
//! Definitions:
//! - **Throughput** of a host: payload bytes it received over the time it was receiving
//!   (its first to its last delivery), against its link rate. For incast traffic the goal
//!   judges the receiver (the bottleneck port), for permutation traffic every receiver,
//!   over the second half of the time all flows were sending (when they overlap): the
//!   tail where a few flows are left is not the steady state. Poisson traffic below full
//!   load saturates no port and the goal does not apply.
//! - **Busy**: of a judged receiver's link over the same window, the wire bytes of the data
//!   packets it received (payload, headers, the INT reserve) against its capacity: what a
//!   link-utilisation target such as HPCC's eta is stated in.
//! - **Queues**: each switch egress port's data queue, sampled every `sample_ns`; the
//!   dumbbell's bottleneck queue also over the judged window alone (the steady state,
//!   without the start's transient).
//! - **Pauses**: XOFF frames sent by the switches, per ingress port and in total, scaled
//!   to frames per second over the run (one window of the run's length, or of one second
//!   when longer).
//! - **Latency**: of every delivered data packet, from its grant by the sender's core to
//!   its last bit at the receiver.
//! - **FCT**: from a flow's start to its last byte acknowledged at the sender; the ideal
//!   FCT is the flow's wire bytes at the path's slowest link plus the base RTT with one
//!   store-and-forward of its last packet per hop ([`ideal_fct_ps`]); slowdown = FCT /
//!   ideal, at least 1, by size bucket ([`crate::stats::SlowdownTable`]).
//! - **Fairness**: Jain's index of the long flows' (1 MB or more) throughputs over the
//!   second half of the time all of them were sending (none finished); none if they never
//!   all overlapped.
//! - **Conservation**: payload granted = delivered + in flight (on the wires and in the
//!   queues at the end) + dropped.

use crate::flows::TrafficSpec;
use crate::host::Host;
use crate::packet::{CTRL_BYTES, DATA_HEADER_BYTES, INT_BYTES, PS_PER_US, Ps, wire_time_ps};
use crate::plot::{line_plot, slowdown_plot};
use crate::sim::Run;
use crate::stats::{Dist, FlowFct, Series, SlowdownTable, Verdict, VerdictInputs, jain};
use serde::Serialize;
use std::path::Path;

/// Flows of at least this many bytes count for fairness.
pub const LONG_FLOW_BYTES: u64 = 1_000_000;

/// One port's queue, bytes.
#[derive(Clone, Debug, Serialize)]
pub struct QueueSummary {
    pub port: String,
    pub p50: f64,
    pub p99: f64,
    pub max: f64,
    pub xoff_sent: u64,
    pub paused_us: f64,
}

/// The summary JSON.
#[derive(Clone, Debug, Serialize)]
pub struct Summary {
    pub scenario: String,
    pub seed: u64,
    pub duration_us: u64,
    pub cc: String,
    pub engine: String,
    pub rtl_hosts: Vec<u32>,
    pub hosts: u32,
    pub flows: usize,
    pub flows_completed: usize,
    /// Per receiving host: Gb/s over its receiving time, and as a fraction of its link.
    pub rx_gbps: Vec<(u32, f64)>,
    pub judged_throughput: Vec<f64>,
    /// Per judged receiver: its link's wire utilisation over the judged window.
    pub judged_busy: Vec<f64>,
    /// The dumbbell's bottleneck queue over the judged window (incast traffic).
    pub judged_queue: Option<QueueSummary>,
    /// Every switch port that queued anything, largest p99 first.
    pub queues: Vec<QueueSummary>,
    pub pauses_total: u64,
    pub pauses_per_s: f64,
    pub host_paused_us: Vec<f64>,
    pub latency_us: Option<Dist>,
    pub fct_us: Option<Dist>,
    pub slowdown: Vec<crate::stats::SlowdownBucket>,
    pub jain_long_flows: Option<f64>,
    pub cnps: u64,
    pub drops: u64,
    pub conservation: Conservation,
    pub verdict: Verdict,
    pub speed: Speed,
}

/// Payload bytes: granted = delivered + in flight + dropped.
#[derive(Clone, Debug, Serialize)]
pub struct Conservation {
    pub granted: u64,
    pub delivered: u64,
    pub in_flight: u64,
    pub dropped: u64,
    pub holds: bool,
}

/// How fast the run went.
#[derive(Clone, Debug, Serialize)]
pub struct Speed {
    pub wall_s: f64,
    pub network_events: u64,
    pub events_per_s: f64,
    pub core_cycles_evaluated: u64,
}

/// The ideal FCT of a flow of `bytes` from `src` to `dst`: alone on an idle network.
pub fn ideal_fct_ps(run: &Run, src: u32, dst: u32, bytes: u64, mtu: u32, int: bool) -> Ps {
    let topo = &run.topo;
    let path = topo.path(src, dst, 0);
    let slowest = path
        .iter()
        .map(|&(n, p)| topo.port(n, p).rate_mbps)
        .min()
        .expect("a path has links");
    let full = bytes / u64::from(mtu);
    let rest = bytes % u64::from(mtu);
    let mut wire = full * u64::from(Host::data_wire_bytes(int, mtu));
    let last = if rest > 0 {
        wire += u64::from(Host::data_wire_bytes(int, rest as u32));
        Host::data_wire_bytes(int, rest as u32)
    } else {
        Host::data_wire_bytes(int, mtu)
    };
    let ctrl = CTRL_BYTES + if int { INT_BYTES } else { 0 };
    let rtt = topo.base_rtt_ps(src, dst, last, ctrl);
    let first_link = topo.port(src, 0).rate_mbps;
    wire_time_ps(wire, slowest) + rtt - wire_time_ps(u64::from(last), first_link)
}

/// The second half of the time every flow `pick` selects was sending (from the last
/// one's start to the first one's completion), if they overlapped.
fn common_window(run: &Run, pick: impl Fn(&crate::host::FlowState) -> bool) -> Option<(Ps, Ps)> {
    let fs: Vec<&crate::host::FlowState> = run.flows.iter().filter(|f| pick(f)).collect();
    let from = fs.iter().map(|f| f.flow.start).max()?;
    let to = fs.iter().map(|f| f.done.unwrap_or(run.end)).min()?;
    (to > from).then(|| (from + (to - from) / 2, to))
}

/// Compute the summary of `run` (and write its files into `out`, if given).
pub fn report(run: &Run, wall_s: f64, out: Option<&Path>) -> Result<Summary, String> {
    let sc = &run.scenario;
    let p = sc.params()?;
    let end = run.end;
    let hosts = run.topo.hosts;
    let us = |ps: Ps| ps as f64 / PS_PER_US as f64;

    // Throughput per receiving host.
    let mut first = vec![None::<Ps>; hosts as usize];
    let mut last = vec![0; hosts as usize];
    for d in &run.deliveries {
        let h = run.flows[d.flow as usize].flow.dst as usize;
        first[h].get_or_insert(d.t);
        last[h] = d.t;
    }
    let mut rx_gbps = Vec::new();
    let mut frac = Vec::new();
    for h in 0..hosts as usize {
        if let Some(f) = first[h] {
            if last[h] > f {
                let bits = run.host_rx_payload[h] as f64 * 8.0;
                let gbps = bits / ((last[h] - f) as f64 / 1000.0);
                rx_gbps.push((h as u32, gbps));
                let link = run.topo.port(h as u32, 0).rate_mbps as f64 / 1000.0;
                frac.push((h, gbps / link));
            }
        }
    }
    // The judged ports: over the second half of the time every flow was sending (the
    // flows converged, none has finished), or over each receiver's receiving time when
    // the flows never all overlapped.
    let window = common_window(run, |_| true);
    let data_overhead = DATA_HEADER_BYTES + if sc.switch.int { INT_BYTES } else { 0 };
    let mut judged_busy = Vec::new();
    let judged: Vec<f64> = match &sc.traffic {
        TrafficSpec::Incast { .. } | TrafficSpec::Permutation { .. } => match window {
            Some((from, to)) => frac
                .iter()
                .map(|&(h, _)| {
                    let (mut bytes, mut wire) = (0u64, 0u64);
                    for d in run.deliveries.iter().filter(|d| {
                        run.flows[d.flow as usize].flow.dst == h as u32 && d.t >= from && d.t < to
                    }) {
                        bytes += u64::from(d.bytes);
                        wire += u64::from(d.bytes + data_overhead);
                    }
                    let link = run.topo.port(h as u32, 0).rate_mbps as f64;
                    let per = |b: u64| b as f64 * 8.0 / ((to - from) as f64 / 1e6) / link;
                    judged_busy.push(per(wire));
                    per(bytes)
                })
                .collect(),
            None => frac.iter().map(|f| f.1).collect(),
        },
        TrafficSpec::Poisson { .. } => Vec::new(),
    };

    // Queues.
    let mut queues: Vec<QueueSummary> = Vec::new();
    let mut xoff_by_port = std::collections::BTreeMap::new();
    for &(_, n, pt) in &run.pauses {
        *xoff_by_port.entry((n, pt)).or_insert(0u64) += 1;
    }
    for ((n, pt), samples) in &run.queue_samples {
        let v: Vec<f64> = samples.iter().map(|&x| x as f64).collect();
        let Some(d) = Dist::of(&v) else { continue };
        let xoff = xoff_by_port.get(&(*n, *pt)).copied().unwrap_or(0);
        if d.max == 0.0 && xoff == 0 {
            continue;
        }
        queues.push(QueueSummary {
            port: format!("{}.p{pt}", run.topo.nodes[*n as usize].name),
            p50: d.p50,
            p99: d.p99,
            max: d.max,
            xoff_sent: xoff,
            paused_us: us(run.port_paused_ps.get(&(*n, *pt)).copied().unwrap_or(0)),
        });
    }
    queues.sort_by(|a, b| b.p99.total_cmp(&a.p99).then(a.port.cmp(&b.port)));
    let judged_queue = match (&sc.traffic, window, run.topo.bottleneck()) {
        (TrafficSpec::Incast { .. }, Some((from, to)), Some((n, pt))) => run
            .queue_samples
            .iter()
            .find(|(k, _)| *k == (n, pt))
            .and_then(|(_, samples)| {
                let step = sc.sample_ps();
                let v: Vec<f64> = samples
                    .iter()
                    .enumerate()
                    .filter(|&(k, _)| (k as u64 * step) >= from && (k as u64 * step) < to)
                    .map(|(_, &x)| x as f64)
                    .collect();
                Dist::of(&v)
            })
            .map(|d| QueueSummary {
                port: format!("{}.p{pt}", run.topo.nodes[n as usize].name),
                p50: d.p50,
                p99: d.p99,
                max: d.max,
                xoff_sent: 0,
                paused_us: 0.0,
            }),
        _ => None,
    };

    // Pauses: one window of the run (or of a second).
    let window = end.min(1_000_000 * PS_PER_US).max(1);
    let times: Vec<Ps> = run.pauses.iter().map(|x| x.0).collect();
    let counts = crate::stats::window_counts(&times, 0, end.max(1), window);
    let pauses_per_s = run.pauses.len() as f64 / (end as f64 / 1e12);

    // Latency, FCT, slowdown.
    let lat_ps: Vec<Ps> = run.deliveries.iter().map(|d| d.latency).collect();
    let lat_us: Vec<f64> = lat_ps.iter().map(|&l| us(l)).collect();
    let mut fcts = Vec::new();
    let mut flow_rows = String::from("flow,src,dst,bytes,start_us,fct_us,ideal_us,slowdown\n");
    for fs in &run.flows {
        let (Some(_), Some(done)) = (fs.started, fs.done) else {
            continue;
        };
        let fct = done - fs.flow.start;
        let ideal = ideal_fct_ps(
            run,
            fs.flow.src,
            fs.flow.dst,
            fs.flow.bytes,
            p.mtu_bytes,
            sc.switch.int,
        );
        let f = FlowFct {
            bytes: fs.flow.bytes,
            fct_ps: fct,
            ideal_ps: ideal,
        };
        flow_rows.push_str(&format!(
            "{},{},{},{},{},{},{},{:.4}\n",
            fs.flow.id,
            fs.flow.src,
            fs.flow.dst,
            fs.flow.bytes,
            crate::stats::ps_as_us(fs.flow.start),
            crate::stats::ps_as_us(fct),
            crate::stats::ps_as_us(ideal),
            f.slowdown()
        ));
        fcts.push(f);
    }
    let fct_us: Vec<f64> = fcts.iter().map(|f| us(f.fct_ps)).collect();
    let table = SlowdownTable::new(&fcts);

    // Fairness of long flows over the second half of their common time.
    let long: Vec<&crate::host::FlowState> = run
        .flows
        .iter()
        .filter(|f| f.flow.bytes >= LONG_FLOW_BYTES)
        .collect();
    let jain_long = if long.len() >= 2 {
        common_window(run, |f| f.flow.bytes >= LONG_FLOW_BYTES).map(|(mid, to)| {
            let rates: Vec<f64> = long
                .iter()
                .map(|f| {
                    run.deliveries
                        .iter()
                        .filter(|d| d.flow == f.flow.id && d.t >= mid && d.t < to)
                        .map(|d| f64::from(d.bytes))
                        .sum::<f64>()
                })
                .collect();
            jain(&rates)
        })
    } else {
        None
    };

    let verdict = Verdict::judge(
        &sc.goals,
        &VerdictInputs {
            throughput_frac: &judged,
            pause_counts: &counts,
            pause_window_ps: window,
            latencies_ps: &lat_ps,
        },
    );
    let cons = Conservation {
        granted: run.granted_payload,
        delivered: run.delivered_payload,
        in_flight: run.in_flight_payload,
        dropped: run.dropped_payload,
        holds: run.granted_payload
            == run.delivered_payload + run.in_flight_payload + run.dropped_payload,
    };
    let summary = Summary {
        scenario: sc.name.clone(),
        seed: sc.seed,
        duration_us: sc.duration_us,
        cc: format!("{:?}", sc.nic.cc).to_lowercase(),
        engine: sc.nic.engine.clone(),
        rtl_hosts: sc.rtl_hosts(),
        hosts,
        flows: run.flows.len(),
        flows_completed: fcts.len(),
        rx_gbps,
        judged_throughput: judged,
        judged_busy,
        judged_queue,
        queues,
        pauses_total: run.pauses.len() as u64,
        pauses_per_s,
        host_paused_us: run.host_paused_ps.iter().map(|&x| us(x)).collect(),
        latency_us: Dist::of(&lat_us),
        fct_us: Dist::of(&fct_us),
        slowdown: table.buckets.clone(),
        jain_long_flows: jain_long,
        cnps: run.cnps,
        drops: run.drops,
        conservation: cons,
        verdict,
        speed: Speed {
            wall_s,
            network_events: run.events,
            events_per_s: run.events as f64 / wall_s.max(1e-9),
            core_cycles_evaluated: run.cycles_evaluated,
        },
    };
    if let Some(dir) = out {
        write_files(run, &summary, &table, &flow_rows, dir)?;
    }
    Ok(summary)
}

/// The summary without the wall-clock figures (what must be identical run to run).
pub fn deterministic_json(s: &Summary) -> String {
    let mut v = serde_json::to_value(s).expect("the summary serialises");
    v.as_object_mut().expect("an object").remove("speed");
    serde_json::to_string_pretty(&v).expect("the summary serialises")
}

fn write_files(
    run: &Run,
    s: &Summary,
    table: &SlowdownTable,
    flow_rows: &str,
    dir: &Path,
) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let w = |name: &str, text: &str| {
        std::fs::write(dir.join(name), text)
            .map_err(|e| format!("cannot write {}: {e}", dir.join(name).display()))
    };
    w(
        "summary.json",
        &(serde_json::to_string_pretty(s).expect("the summary serialises") + "\n"),
    )?;
    w("flows.csv", flow_rows)?;
    let step = run.scenario.sample_ps();
    // Queues: the ports with the largest p99 (at most 8).
    let mut qs: Vec<Series> = Vec::new();
    for q in s.queues.iter().take(8) {
        let (_, samples) = run
            .queue_samples
            .iter()
            .find(|((n, p), _)| format!("{}.p{p}", run.topo.nodes[*n as usize].name) == q.port)
            .expect("a port of the summary");
        let mut se = Series::new(&format!("{} bytes", q.port));
        for (i, &b) in samples.iter().enumerate() {
            se.push(i as u64 * step, b as f64);
        }
        qs.push(se);
    }
    crate::stats::write_csv(&dir.join("queues.csv"), &qs)?;
    line_plot(
        &dir.join("queues.svg"),
        "Switch egress queues",
        "time (us)",
        "bytes",
        &qs,
    )?;
    // Rates of the watched flows.
    let mut rs: Vec<Series> = Vec::new();
    for r in &run.rates {
        let name = format!("flow {} Mb/s", r.flow);
        match rs.iter_mut().find(|s| s.name == name) {
            Some(s) => s.push(r.t, r.mbps),
            None => {
                let mut se = Series::new(&name);
                se.push(r.t, r.mbps);
                rs.push(se);
            }
        }
    }
    crate::stats::write_csv(&dir.join("rates.csv"), &rs)?;
    line_plot(
        &dir.join("rates.svg"),
        "Rates of the first flows (the cores' reports)",
        "time (us)",
        "Mb/s",
        &rs,
    )?;
    // Pauses per 10 us.
    let win = 10 * PS_PER_US;
    let times: Vec<Ps> = run.pauses.iter().map(|x| x.0).collect();
    let counts = crate::stats::window_counts(&times, 0, run.end.max(1), win);
    let mut ps = Series::new("XOFF frames per 10 us");
    for (i, &c) in counts.iter().enumerate() {
        ps.push(i as u64 * win, c as f64);
    }
    crate::stats::write_csv(&dir.join("pauses.csv"), std::slice::from_ref(&ps))?;
    line_plot(
        &dir.join("pauses.svg"),
        "PFC pause frames",
        "time (us)",
        "frames per 10 us",
        &[ps],
    )?;
    slowdown_plot(
        &dir.join("fct_slowdown.svg"),
        "FCT slowdown by flow size",
        table,
    )?;
    Ok(())
}
