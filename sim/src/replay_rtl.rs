//! The `rtl` replay engine: the trace through the core top, cycle by cycle (the CLI gives it
//! the Verilated core; tests also use the golden cycle model and rust-hdl's simulation).
//!
//! Each trace event is offered on its stream in its own cycle with `now` = the event's
//! time (a `mode` event on the command stream, as the register block sends it; the next
//! event waits for its report, as the register block waits before it answers the host), so events with equal times go in on consecutive cycles with the same time stamp,
//! in file order (each unit applies them in acceptance order, exactly as the golden model
//! does). Both outputs are always ready. Rate reports come back in acceptance order per QP
//! (the RP lets events of other QPs go past one that waits); the answers to queries are
//! matched to the oldest `sample` event of their QP. A CNP request comes out exactly
//! [`CNP_LATENCY_CYCLES`] after the CE mark that caused it was accepted, which identifies
//! the `ecn` event (a mark with no request at that cycle was suppressed). Output lines are
//! printed in the order of the events that caused them, as the golden engine prints them.

use crate::core_harness::{CoreOuts, CorePins, core_bring_up};
use crate::core_top::CoreEvent;
use crate::dcqcn_rp::RpKind;
use crate::lockstep::{CycleDut, Named};
use crate::replay::{OutLine, ReplayEngine, TimedEvent, TraceEvent};
use crate::replay_golden::{core_event, sample_line};
use crate::timebase::Timebase;
use roce_cc_params::Params;
use std::collections::VecDeque;

/// Cycles from a CE mark's acceptance to its CNP request on `m_cnp_*` when the output is
/// ready (`roce_cc_hdl::dcqcn_np::NP_LATENCY`: decided in `c+4`, offered in `c+5`).
pub const CNP_LATENCY_CYCLES: u64 = roce_cc_hdl::dcqcn_np::NP_LATENCY as u64;

/// Cycles an HPCC QP's answer takes beyond the RP's: the window unit's issue (an ACK queue
/// ahead of it, the spacing of one QP) and pipeline, and its report FIFO's output.
const HPCC_ANSWER_CYCLES: usize = roce_cc_hdl::hpcc_window::window::LATENCY + 32;

/// Replays through any core top ([`CycleDut`] with the core's pins).
pub struct RtlEngine {
    params: Params,
    dut: Box<dyn CycleDut<CorePins, CoreOuts>>,
    name: &'static str,
}

impl RtlEngine {
    /// The engine over a given core implementation.
    pub fn with_dut(
        params: &Params,
        dut: Box<dyn CycleDut<CorePins, CoreOuts>>,
        name: &'static str,
    ) -> Self {
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
            let mut duts: Vec<Named<CorePins, CoreOuts>> = vec![(self.name, self.dut.as_mut())];
            core_bring_up(&self.params, &mut duts)
                .map_err(|m| format!("bring-up failed: {m:?}"))?;
        }
        // Accepted samples waiting for their report: index of the event.
        let mut samples: VecDeque<usize> = VecDeque::new();
        // Accepted CE marks: (acceptance cycle, index of the event).
        let mut marks: VecDeque<(u64, usize)> = VecDeque::new();
        let mut out: Vec<(usize, OutLine)> = Vec::new();
        let mut next = 0usize;
        let mut cycle = 0u64;
        let mut idle_cycles = 0u32;
        // A `mode` command was taken and its report has not come back: the next event waits
        // (the command goes through the core's command slice, so an event offered after it
        // on another stream could reach the RP first).
        let mut ctl_pending = false;
        loop {
            let mut pins = CorePins {
                rate_ready: true,
                cnp_ready: true,
                ..Default::default()
            };
            // An ACK goes straight to the HPCC window unit, a sample through the RP first:
            // an ACK waits for the answers to earlier samples of its QP, so that it cannot
            // reach the unit before them.
            let ack_waits = matches!(
                events.get(next).map(|e| &e.ev),
                Some(TraceEvent::Ack { qp, .. })
                    if samples.iter().any(|&i| sample_qp(&events[i]) == *qp)
            );
            let offer = if ctl_pending || ack_waits {
                None
            } else {
                events.get(next)
            };
            if let Some(e) = offer {
                pins.now = tb.at_cycle(tb.ns_to_cycles(e.t_ns));
                match core_event(&e.ev) {
                    CoreEvent::Cnp { qpn } => pins.cnp = Some(qpn),
                    CoreEvent::Tx { qpn, bytes } => pins.tx = Some((qpn, bytes)),
                    CoreEvent::Query { qpn } => pins.query = Some(qpn),
                    CoreEvent::Rx { qpn, ecn } => pins.rx = Some((qpn, ecn)),
                    CoreEvent::SetMode { qpn, mode, rate_q8 } => {
                        pins.ctl = Some((qpn, RpKind::SetMode { mode, rate_q8 }))
                    }
                    CoreEvent::Ack { qpn, ack } => pins.ack = Some((qpn, ack)),
                    CoreEvent::Reset { .. } => {
                        unreachable!("traces have no reset command")
                    }
                }
            } else if next == events.len() && samples.is_empty() && marks.is_empty() {
                return Ok(finish(out));
            } else {
                // Time stays at the last event offered.
                pins.now = tb.at_cycle(tb.ns_to_cycles(events[next - 1].t_ns));
                idle_cycles += 1;
                // The last answers leave the RP `RP_REPORT_LATENCY` cycles after their
                // event, plus what the interlock held them in the RP's input queue (the
                // NP's are quicker); 64 more is a margin.
                if idle_cycles
                    > (roce_cc_hdl::dcqcn_rp::RP_REPORT_LATENCY
                        + roce_cc_hdl::dcqcn_rp::RP_QUEUE_WAIT_MAX
                        + HPCC_ANSWER_CYCLES) as u32
                        + 64
                {
                    return Err("the RTL did not answer every event".into());
                }
            }
            let outs = self.dut.eval(&pins);
            if outs.rate.is_some_and(|r| r.ctl) {
                ctl_pending = false;
            }
            if let Some(r) = outs.rate.filter(|r| r.query) {
                // The oldest sample of the report's QP (the RP answers each QP's events in
                // order; another QP's may go past one that waits).
                let k = samples
                    .iter()
                    .position(|&i| sample_qp(&events[i]) == r.qp)
                    .ok_or_else(|| {
                        format!("the RTL answered a sample of QP {} nobody asked for", r.qp)
                    })?;
                let i = samples.remove(k).expect("found above");
                out.push((i, sample_line(events[i].t_ns, &r)));
            }
            // Marks whose decision time has passed without a request were suppressed.
            while marks
                .front()
                .is_some_and(|&(at, _)| at + CNP_LATENCY_CYCLES < cycle)
            {
                marks.pop_front();
            }
            if let Some(c) = outs.cnp {
                let (at, i) = marks
                    .pop_front()
                    .ok_or("the RTL sent a CNP request no CE mark caused")?;
                if at + CNP_LATENCY_CYCLES != cycle {
                    return Err(format!(
                        "line {}: CNP request {} cycles after the mark, expected {CNP_LATENCY_CYCLES}",
                        events[i].line,
                        cycle - at
                    ));
                }
                out.push((
                    i,
                    OutLine::CnpOut {
                        t_ns: events[i].t_ns,
                        qp: c.qp,
                        dscp: c.dscp,
                        prio: c.prio,
                    },
                ));
            }
            if let Some(e) = offer {
                let taken = match e.ev {
                    TraceEvent::Cnp { .. } => outs.cnp_ready,
                    TraceEvent::Tx { .. } => outs.tx_ready,
                    TraceEvent::Sample { .. } => outs.query_ready,
                    TraceEvent::Ecn { .. } => outs.rx_ready,
                    TraceEvent::Mode { .. } => outs.ctl_ready,
                    TraceEvent::Ack { .. } => outs.ack_ready,
                    TraceEvent::Post { .. } => {
                        unreachable!("a trace with post events replays through PacedEngine")
                    }
                };
                if taken {
                    match e.ev {
                        TraceEvent::Sample { .. } => samples.push_back(next),
                        TraceEvent::Ecn { .. } => marks.push_back((cycle, next)),
                        TraceEvent::Mode { .. } => ctl_pending = true,
                        _ => {}
                    }
                    next += 1;
                    idle_cycles = 0;
                }
            }
            self.dut.clock();
            cycle += 1;
        }
    }
}

fn sample_qp(e: &TimedEvent) -> u32 {
    match e.ev {
        TraceEvent::Sample { qp } => qp,
        _ => unreachable!("only samples are queued for reports"),
    }
}

/// The lines in the order of the events that caused them (stable: a sample and a CNP
/// request never come from one event).
fn finish(mut out: Vec<(usize, OutLine)>) -> Vec<OutLine> {
    out.sort_by_key(|(i, _)| *i);
    out.into_iter().map(|(_, l)| l).collect()
}
