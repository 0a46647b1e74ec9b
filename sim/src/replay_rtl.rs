//! The `rtl` replay engine: the trace through the Verilated reaction point, cycle by cycle.
//!
//! Each trace event is offered on its stream in its own cycle with `now` = the event's
//! time, so events with equal times go in on consecutive cycles with the same time stamp,
//! in file order (the RP applies them in acceptance order, exactly as the golden model
//! does). Reports come back in query order and are matched to the `sample` events.

use crate::dcqcn_rp::RpKind;
use crate::replay::{OutLine, ReplayEngine, TimedEvent, TraceEvent};
use crate::rp_harness::{RpDut, RpPins, accepted};
use crate::stimulus::bring_up;
use crate::timebase::Timebase;
use roce_cc_params::Params;
use std::collections::VecDeque;

/// Replays through any [`RpDut`] (the CLI gives it the Verilated RP).
pub struct RtlEngine {
    params: Params,
    dut: Box<dyn RpDut>,
    name: &'static str,
}

impl RtlEngine {
    /// The engine over a given DUT (tests use rust-hdl's simulation too).
    pub fn with_dut(params: &Params, dut: Box<dyn RpDut>, name: &'static str) -> Self {
        Self {
            params: params.clone(),
            dut,
            name,
        }
    }
}

impl ReplayEngine for RtlEngine {
    fn run(&mut self, events: &[TimedEvent]) -> Result<Vec<OutLine>, String> {
        let tb = Timebase::new(&self.params);
        {
            let mut duts: Vec<(&str, &mut dyn RpDut)> = vec![(self.name, self.dut.as_mut())];
            bring_up(&self.params, &mut duts).map_err(|m| format!("bring-up failed: {m:?}"))?;
        }
        let mut pending: VecDeque<(u64, u32)> = VecDeque::new();
        let mut out = Vec::new();
        let mut queue = events.iter().peekable();
        let mut idle_cycles = 0u32;
        loop {
            let ev = queue.peek().copied();
            let mut pins = RpPins {
                m_ready: true,
                ..Default::default()
            };
            if let Some(e) = ev {
                pins.now = tb.at_cycle(tb.ns_to_cycles(e.t_ns));
                match e.ev {
                    TraceEvent::Cnp { qp } => pins.cnp = Some(qp),
                    TraceEvent::Tx { qp, bytes } => pins.tx = Some((qp, bytes)),
                    TraceEvent::Sample { qp } => pins.query = Some(qp),
                    TraceEvent::Ecn { .. } => {
                        return Err(format!(
                            "line {}: \"ecn\" events need the notification point, which is not in this version yet",
                            e.line
                        ));
                    }
                }
            } else if pending.is_empty() {
                return Ok(out);
            } else {
                idle_cycles += 1;
                if idle_cycles > 64 {
                    return Err("the RTL did not answer every sample".into());
                }
            }
            let outs = self.dut.eval(&pins);
            if let Some((qp, report)) = outs.report {
                let (t_ns, want_qp) = pending
                    .pop_front()
                    .ok_or("the RTL reported a sample nobody asked for")?;
                if qp != want_qp {
                    return Err(format!(
                        "the RTL answered QP {qp} where QP {want_qp} was asked"
                    ));
                }
                out.push(OutLine::Sample { t_ns, qp, report });
            }
            if let (Some(e), Some((qp, kind))) = (ev, accepted(&pins, &outs)) {
                if kind == RpKind::Query {
                    pending.push_back((e.t_ns, qp));
                }
                queue.next();
            }
            self.dut.clock();
        }
    }
}
