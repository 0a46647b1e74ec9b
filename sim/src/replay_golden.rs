//! The `golden` replay engine, and [`replay`]: the one path from events to OUT.jsonl text.
//!
//! [`GoldenEngine`] applies each trace event to the golden core top
//! ([`crate::core_top::Core`]: the reaction point and the notification point) at the
//! event's clock cycle, `floor(t_ns * clock_mhz / 1000)`, in file order. Events with equal
//! times are applied one after the other at the same time stamp, which is what the RTL does
//! when it takes them on consecutive cycles with the same `now` ([`crate::replay_rtl`]); so
//! the two engines agree bit for bit. A `sample` prints the RP's report; an `ecn` event (a
//! CE-marked packet) prints a `cnp_out` line when the NP's limiter lets a CNP through.
//!
//! [`replay`] runs any engine and prints its output with [`OutLine::to_json`]; the CLI and
//! the tests both go through it, so the text two engines print can only differ if their
//! values do.

use crate::core_top::{Core, CoreEvent, CoreOut, MODE_HPCC};
use crate::dcqcn_np::ECN_CE;
use crate::replay::{OutLine, ReplayEngine, TimedEvent, TraceEvent};
use crate::rp_harness::RateOut;
use roce_cc_params::Params;
use std::fmt;

/// The core-top event of a trace event (`ecn` is a CE-marked received packet).
pub fn core_event(ev: &TraceEvent) -> CoreEvent {
    match *ev {
        TraceEvent::Cnp { qp } => CoreEvent::Cnp { qpn: qp },
        TraceEvent::Tx { qp, bytes } => CoreEvent::Tx { qpn: qp, bytes },
        TraceEvent::Sample { qp } => CoreEvent::Query { qpn: qp },
        TraceEvent::Ecn { qp } => CoreEvent::Rx {
            qpn: qp,
            ecn: ECN_CE,
        },
        TraceEvent::Mode { qp, mode, rate_q8 } => CoreEvent::SetMode {
            qpn: qp,
            mode,
            rate_q8,
        },
        TraceEvent::Ack { qp, ack } => CoreEvent::Ack { qpn: qp, ack },
        TraceEvent::Post { .. } => {
            unreachable!("a trace with post events replays through replay_paced::PacedEngine")
        }
    }
}

/// The output line, if any, that the core's answer `out` to event `e` prints.
pub fn out_line(e: &TimedEvent, out: CoreOut) -> Option<OutLine> {
    match out {
        CoreOut::Rate(r) if r.query => Some(sample_line(e.t_ns, &r)),
        CoreOut::Cnp(c) => Some(OutLine::CnpOut {
            t_ns: e.t_ns,
            qp: c.qp,
            dscp: c.dscp,
            prio: c.prio,
        }),
        _ => None,
    }
}

/// The line a `sample` at `t_ns` prints for the core's report `r` of it: the HPCC state
/// for a QP in HPCC mode, else the RP's.
pub fn sample_line(t_ns: u64, r: &RateOut) -> OutLine {
    if r.mode == MODE_HPCC {
        OutLine::HpccSample {
            t_ns,
            qp: r.qp,
            rate_q8: r.report.rc_mbps_q8,
            rc_q8: r.report.rt_mbps_q8,
            u_q24: r.u_q24,
            win_bytes: r.window,
        }
    } else {
        OutLine::Sample {
            t_ns,
            qp: r.qp,
            report: r.report,
        }
    }
}

/// Replays a trace through the golden core top.
pub struct GoldenEngine {
    params: Params,
}

impl GoldenEngine {
    /// The engine for a core with `params` (each [`ReplayEngine::run`] starts from reset).
    pub fn new(params: &Params) -> Self {
        Self {
            params: params.clone(),
        }
    }
}

impl ReplayEngine for GoldenEngine {
    fn run(&mut self, events: &[TimedEvent]) -> Result<Vec<OutLine>, String> {
        // Work for the pacer: the whole paced core, cycle by cycle (`replay_paced`).
        if crate::replay_paced::has_posts(events) {
            let dut = Box::new(crate::replay_paced::golden_paced(&self.params)?);
            return crate::replay_paced::PacedEngine::with_dut(&self.params, dut, "golden")
                .run(events);
        }
        // Every run starts from reset, as the rtl engine's does.
        let mut core = Core::new(&self.params).map_err(|e| e.to_string())?;
        let mut out = Vec::new();
        for e in events {
            let cycle = core.timebase.ns_to_cycles(e.t_ns);
            match core.apply_at_cycle(cycle, core_event(&e.ev)) {
                CoreOut::Rejected => {
                    return Err(format!("line {}: the core rejected the QP number", e.line));
                }
                o => out.extend(out_line(e, o)),
            }
        }
        Ok(out)
    }
}

/// Why [`replay`] failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReplayError {
    /// The engine failed (the trace itself was checked by `trace::parse_trace`).
    Engine(String),
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReplayError::Engine(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for ReplayError {}

/// The OUT.jsonl text of `lines`: one [`OutLine::to_json`] per line, each ending in `\n`.
pub fn out_text(lines: &[OutLine]) -> String {
    let mut s = String::new();
    for l in lines {
        s.push_str(&l.to_json());
        s.push('\n');
    }
    s
}

/// Replay checked `events` (from [`crate::trace::parse_trace`]) through `engine` and return
/// the OUT.jsonl text.
pub fn replay(engine: &mut dyn ReplayEngine, events: &[TimedEvent]) -> Result<String, ReplayError> {
    let lines = engine.run(events).map_err(ReplayError::Engine)?;
    Ok(out_text(&lines))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core_harness::{GoldenCoreCycle, HdlCore};
    use crate::replay_rtl::RtlEngine;
    use crate::trace::{parse_trace, random_hpcc_trace, random_mode_trace, random_trace};

    fn golden(p: &Params, trace: &str) -> Result<String, ReplayError> {
        let evs = parse_trace(trace, p).unwrap();
        replay(&mut GoldenEngine::new(p), &evs)
    }

    /// The first-CNP values by hand: connectx, CNP at 1000 ns, sampled in the same cycle:
    /// Rc = Rt = line rate (rate_to_set_on_first_cnp = 0), alpha = 1023/1024, no timer
    /// has expired yet.
    #[test]
    fn first_cnp_by_hand() {
        let p = Params::default();
        let out = golden(
            &p,
            "{\"t_ns\":1000,\"ev\":\"sample\",\"qp\":3}\n\
             {\"t_ns\":1000,\"ev\":\"cnp\",\"qp\":3}\n\
             {\"t_ns\":1000,\"ev\":\"sample\",\"qp\":3}\n\
             {\"t_ns\":1000,\"ev\":\"sample\",\"qp\":4}\n",
        )
        .unwrap();
        assert_eq!(
            out,
            "{\"t_ns\": 1000, \"qp\": 3, \"limited\": false, \"rc_mbps\": 100000.0, \"rt_mbps\": 100000.0, \"alpha\": null}\n\
             {\"t_ns\": 1000, \"qp\": 3, \"limited\": true, \"rc_mbps\": 100000.0, \"rt_mbps\": 100000.0, \"alpha\": 0.9990234375}\n\
             {\"t_ns\": 1000, \"qp\": 4, \"limited\": false, \"rc_mbps\": 100000.0, \"rt_mbps\": 100000.0, \"alpha\": null}\n"
        );
    }

    /// First decrease check at t + 4 us: alpha has had 4 updates (the first CNP does not set
    /// the alpha flag), T = BC = 0 so Rt is not clamped, and Rc is cut by Rc * alpha / 2.
    #[test]
    fn first_cut_after_monitor_period() {
        let p = Params::default();
        let out = golden(
            &p,
            "{\"t_ns\":1000,\"ev\":\"cnp\",\"qp\":0}\n\
             {\"t_ns\":4999,\"ev\":\"sample\",\"qp\":0}\n\
             {\"t_ns\":5000,\"ev\":\"sample\",\"qp\":0}\n",
        )
        .unwrap();
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 2);
        assert!(lines[0].contains("\"rc_mbps\": 100000.0"), "{}", lines[0]);
        let v: serde_json::Value = serde_json::from_str(lines[1]).unwrap();
        let rc = v["rc_mbps"].as_f64().unwrap();
        let alpha = v["alpha"].as_f64().unwrap();
        // alpha after 4 flagless updates with g = 4/1024, then Rc * (1 - alpha / 2).
        let ideal_alpha = 1023.0 / 1024.0 * (1020.0f64 / 1024.0).powi(4);
        assert!(
            (alpha - ideal_alpha).abs() < 1e-5,
            "{alpha} vs {ideal_alpha}"
        );
        let ideal_rc = 100000.0 * (1.0 - ideal_alpha / 2.0);
        assert!((rc - ideal_rc).abs() < 1.0, "{rc} vs {ideal_rc}");
        assert_eq!(v["rt_mbps"].as_f64(), Some(100000.0));
    }

    #[test]
    fn samples_do_not_change_state() {
        let p = Params::default();
        let base = "{\"t_ns\":1000,\"ev\":\"cnp\",\"qp\":0}\n\
                    {\"t_ns\":30000,\"ev\":\"cnp\",\"qp\":0}\n\
                    {\"t_ns\":900000,\"ev\":\"sample\",\"qp\":0}\n";
        let with_samples = "{\"t_ns\":1000,\"ev\":\"cnp\",\"qp\":0}\n\
                    {\"t_ns\":7000,\"ev\":\"sample\",\"qp\":0}\n\
                    {\"t_ns\":30000,\"ev\":\"cnp\",\"qp\":0}\n\
                    {\"t_ns\":400000,\"ev\":\"sample\",\"qp\":0}\n\
                    {\"t_ns\":900000,\"ev\":\"sample\",\"qp\":0}\n";
        let a = golden(&p, base).unwrap();
        let b = golden(&p, with_samples).unwrap();
        assert_eq!(a.lines().last(), b.lines().last());
    }

    #[test]
    fn runs_start_from_reset() {
        let p = Params::default();
        let evs = parse_trace(
            "{\"t_ns\":1000,\"ev\":\"cnp\",\"qp\":0}\n{\"t_ns\":9000,\"ev\":\"sample\",\"qp\":0}\n",
            &p,
        )
        .unwrap();
        let mut g = GoldenEngine::new(&p);
        assert_eq!(replay(&mut g, &evs).unwrap(), replay(&mut g, &evs).unwrap());
    }

    #[test]
    fn empty_trace_prints_nothing() {
        assert_eq!(golden(&Params::default(), "").unwrap(), "");
    }

    /// The rtl engine over the cycle-level golden model prints exactly what the golden
    /// engine prints: the replay paths (time conversion, ties, report matching) agree.
    #[test]
    fn rtl_engine_over_cycle_model_matches_golden() {
        for seed in 1..=20u64 {
            let mut p = Params {
                qps: 8,
                ..Params::default()
            };
            if seed % 2 == 0 {
                p.rpg_byte_reset = 3000;
                p.clock_mhz = 322;
            }
            if seed % 3 == 0 {
                p.cnp_moderation = roce_cc_params::CnpModeration::PerPort;
                p.min_time_between_cnps = 1 + seed as u32;
            }
            // Odd seeds: QPs also change mode (host rate, off, back to DCQCN).
            let trace = if seed % 2 == 1 {
                random_mode_trace(seed, p.qps, 300)
            } else {
                random_trace(seed, p.qps, 300)
            };
            let evs = parse_trace(&trace, &p).unwrap();
            let want = replay(&mut GoldenEngine::new(&p), &evs).unwrap();
            assert!(
                want.contains("\"limited\": true") && want.contains("cnp_out"),
                "seed {seed}: no limited sample or no CNP"
            );
            let dut = Box::new(GoldenCoreCycle::new(&p));
            let got = replay(&mut RtlEngine::with_dut(&p, dut, "golden-cycle"), &evs).unwrap();
            assert_eq!(got, want, "seed {seed}");
        }
    }

    /// HPCC through the rtl engine over the cycle-level golden model: all four modes,
    /// ACKs of multi-hop flows, samples of QPs in every mode.
    #[test]
    fn hpcc_traces_rtl_engine_over_cycle_model_match_golden() {
        for seed in 1..=12u64 {
            let p = Params {
                qps: 8,
                ..Params::default()
            };
            let trace = random_hpcc_trace(seed, p.qps, 400);
            let evs = parse_trace(&trace, &p).unwrap();
            let want = replay(&mut GoldenEngine::new(&p), &evs).unwrap();
            assert!(
                want.contains("\"mode\": \"hpcc\"") && want.contains("\"limited\": false"),
                "seed {seed}: no HPCC sample or no DCQCN one"
            );
            let dut = Box::new(GoldenCoreCycle::new(&p));
            let got = replay(&mut RtlEngine::with_dut(&p, dut, "golden-cycle"), &evs).unwrap();
            assert_eq!(got, want, "seed {seed}");
        }
    }

    /// The same through rust-hdl's simulation of the core (4 QPs, short traces: it is slow).
    #[test]
    fn rtl_engine_over_rust_hdl_matches_golden() {
        for seed in 1..=2u64 {
            let p = Params {
                qps: 4,
                rpg_byte_reset: 5000,
                ..Params::default()
            };
            let trace = random_trace(seed * 7919, p.qps, 60);
            let evs = parse_trace(&trace, &p).unwrap();
            let want = replay(&mut GoldenEngine::new(&p), &evs).unwrap();
            assert!(
                want.contains("\"limited\": true") && want.contains("cnp_out"),
                "seed {seed}: no limited sample or no CNP"
            );
            let dut = Box::new(HdlCore::<2>::new(&p));
            let got = replay(&mut RtlEngine::with_dut(&p, dut, "rust-hdl"), &evs).unwrap();
            assert_eq!(got, want, "seed {seed}");
        }
    }
}
