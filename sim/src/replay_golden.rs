//! The `golden` replay engine, and [`replay`]: the one path from events to OUT.jsonl text.
//!
//! [`GoldenEngine`] applies each trace event to the golden reaction point
//! ([`crate::dcqcn_rp::DcqcnRp`]) at the event's clock cycle, `floor(t_ns * clock_mhz /
//! 1000)`, in file order. Events with equal times are applied one after the other at the
//! same time stamp, which is what the RTL does when it takes them on consecutive cycles
//! with the same `now` ([`crate::replay_rtl`]); so the two engines agree bit for bit.
//!
//! [`replay`] runs any engine and prints its output with [`OutLine::to_json`]; the CLI and
//! the tests both go through it, so the text two engines print can only differ if their
//! values do.

use crate::dcqcn_rp::{DcqcnRp, RpKind};
use crate::replay::{OutLine, ReplayEngine, TimedEvent, TraceEvent};
use crate::trace::{MAX_TX_BYTES, TraceError};
use roce_cc_params::Params;
use std::fmt;

/// The message both engines give for an `ecn` event: the notification point is not in this
/// version yet. Byte-identical to the `rtl` engine's message.
pub fn ecn_not_supported(line: usize) -> String {
    format!(
        "line {line}: \"ecn\" events need the notification point, which is not in this version yet"
    )
}

/// Replays a trace through the golden reaction point.
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
        // Every run starts from reset, as the rtl engine's does.
        let mut rp = DcqcnRp::new(&self.params);
        let mut out = Vec::new();
        for e in events {
            let cycle = rp.timebase.ns_to_cycles(e.t_ns);
            let (qp, kind) = match e.ev {
                TraceEvent::Cnp { qp } => (qp, RpKind::Cnp),
                TraceEvent::Tx { qp, bytes } => {
                    if bytes as u64 > MAX_TX_BYTES {
                        return Err(format!("line {}: tx bytes {bytes} exceeds 16 bits", e.line));
                    }
                    (qp, RpKind::Tx { bytes })
                }
                TraceEvent::Sample { qp } => (qp, RpKind::Query),
                TraceEvent::Ecn { .. } => return Err(ecn_not_supported(e.line)),
            };
            if qp >= self.params.qps {
                return Err(format!("line {}: qp {qp} is out of range", e.line));
            }
            let report = rp.apply_at_cycle(cycle, qp, kind);
            if kind == RpKind::Query {
                out.push(OutLine::Sample {
                    t_ns: e.t_ns,
                    qp,
                    report,
                });
            }
        }
        Ok(out)
    }
}

/// Why [`replay`] failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReplayError {
    /// The trace asks for something this version cannot do (a user error, like a bad line).
    Input(TraceError),
    /// The engine itself failed.
    Engine(String),
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReplayError::Input(e) => write!(f, "{e}"),
            ReplayError::Engine(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for ReplayError {}

/// The first event no engine of this version can replay, as an input error.
///
/// Both engines refuse `ecn` with [`ecn_not_supported`]; checking here first lets the
/// caller report it as a bad trace line (with its line number) rather than an engine
/// failure. Remove the `Ecn` arm when the notification point is added.
pub fn check_supported(events: &[TimedEvent]) -> Result<(), TraceError> {
    for e in events {
        if let TraceEvent::Ecn { .. } = e.ev {
            return Err(TraceError {
                line: e.line,
                message: "\"ecn\" events need the notification point, which is not in this \
                          version yet (it comes in a later release); remove the ecn lines to \
                          replay the reaction point alone"
                    .into(),
            });
        }
    }
    Ok(())
}

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
    check_supported(events).map_err(ReplayError::Input)?;
    let lines = engine.run(events).map_err(ReplayError::Engine)?;
    Ok(out_text(&lines))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::replay_rtl::RtlEngine;
    use crate::rp_harness::{GoldenRpCycle, HdlRp};
    use crate::trace::{parse_trace, random_trace};

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

    /// `ecn`: both engines give the same error, and `replay` reports it as a bad line.
    #[test]
    fn ecn_refused_identically() {
        let p = Params {
            qps: 16,
            ..Params::default()
        };
        let evs = parse_trace(
            "{\"t_ns\":1000,\"ev\":\"cnp\",\"qp\":0}\n\n{\"t_ns\":1300,\"ev\":\"ecn\",\"qp\":7}\n",
            &p,
        )
        .unwrap();
        let g = GoldenEngine::new(&p).run(&evs).unwrap_err();
        let r = RtlEngine::with_dut(&p, Box::new(GoldenRpCycle::new(&p)), "golden-cycle")
            .run(&evs)
            .unwrap_err();
        assert_eq!(g, r);
        assert!(g.starts_with("line 3: "), "{g}");
        match replay(&mut GoldenEngine::new(&p), &evs).unwrap_err() {
            ReplayError::Input(e) => {
                assert_eq!(e.line, 3);
                assert!(e.message.contains("notification point"), "{e}");
            }
            other => panic!("expected an input error, got {other:?}"),
        }
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
            let trace = random_trace(seed, p.qps, 300);
            let evs = parse_trace(&trace, &p).unwrap();
            let want = replay(&mut GoldenEngine::new(&p), &evs).unwrap();
            assert!(
                want.contains("\"limited\": true"),
                "seed {seed}: no limited sample"
            );
            let dut = Box::new(GoldenRpCycle::new(&p));
            let got = replay(&mut RtlEngine::with_dut(&p, dut, "golden-cycle"), &evs).unwrap();
            assert_eq!(got, want, "seed {seed}");
        }
    }

    /// The same through rust-hdl's simulation of the RP (4 QPs, short traces: it is slow).
    #[test]
    fn rtl_engine_over_rust_hdl_matches_golden() {
        for seed in 1..=2u64 {
            let p = Params {
                qps: 4,
                rpg_byte_reset: 5000,
                ..Params::default()
            };
            let trace = random_trace(seed * 7919, p.qps, 40);
            let evs = parse_trace(&trace, &p).unwrap();
            let want = replay(&mut GoldenEngine::new(&p), &evs).unwrap();
            assert!(
                want.contains("\"limited\": true"),
                "seed {seed}: no limited sample"
            );
            let dut = Box::new(HdlRp::<2>::new(&p));
            let got = replay(&mut RtlEngine::with_dut(&p, dut, "rust-hdl"), &evs).unwrap();
            assert_eq!(got, want, "seed {seed}");
        }
    }
}
