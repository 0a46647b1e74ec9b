//! The replay of a trace with `post` events: the core with the pacer inside
//! (`roce_cc_hdl::paced_core`), cycle by cycle, for both engines.
//!
//! A trace that posts work needs the pacer's schedule, which is a matter of clock cycles
//! (its pipeline, the RP's report latency that brings a new rate to it, the port), so both
//! engines run the same cycle-level model of the whole paced core: `golden` the golden one
//! ([`GoldenPacedCycle`]), `rtl` the Verilated Verilog (`verilated::paced_for`). One driver,
//! [`PacedEngine`], gives both the same pins; they print the same bytes when they agree
//! on every output, which the three-way tests check cycle by cycle.
//!
//! How the driver runs the trace:
//! - Time 0 of the trace is the first cycle after bring-up; cycle `c` is at `c * 1000 /
//!   clock_mhz` ns, the core's `now` is that cycle's time stamp and the pacer's
//!   `now_cycles` counts every clock. An event is offered from the cycle of its time,
//!   `floor(t_ns * clock_mhz / 1000)`, one event per cycle in file order, each held until
//!   its stream takes it (a `mode` command, and an `ack` behind a `sample` of its QP, wait
//!   as in [`crate::replay_rtl`]).
//! - The port takes a grant when it is free: a packet of `bytes` occupies it for `(bytes +
//!   pkt_overhead_bytes) * 8 / line_rate_mbps` us, kept exactly (as a fraction of a cycle). Each grant the port
//!   takes prints a `send` line at the start of its cycle; it is also the RP's
//!   transmitted packet, inside the core.
//! - Idle time is skipped: when no event is due, no grant waits, every sample is answered,
//!   nothing has come out of the core for [`QUIET_CYCLES`] cycles (so the RP's reports of
//!   the last grants have reached the pacer) and the pacer has nothing to do until a time
//!   (no QP has bytes, or it is `asleep`: every QP with bytes waits in its coarse wheel
//!   or for its window), the clock jumps to the next event's cycle or to [`WAKE_LEAD`]
//!   cycles before the coarse wheel's next release (`wake_at`), whichever is first. The
//!   pacer's empty timing wheels follow the jump at the next edge and the coarse wheel's
//!   cursor, with no QP in the slots it passes, catches up at two slots a cycle before
//!   `wake_at` (`pacer::wheel`), so the run is the one a clock through every idle cycle
//!   would give. A QP at 3 Mb/s (a 4 KB packet every 11 ms) costs a few hundred cycles
//!   per coarse wheel turn (2^14 cycles) instead of all of them.
//! - The run ends when the last event is taken and answered: the trace's time span is the
//!   run's. Bytes still posted then are not granted in the run; a trace that wants its
//!   posts sent ends with a later event (a `sample`, say) at a time by which they are.
//!
//! Output lines are in time order: an event's lines at the event's time, a send at its
//! cycle's; at equal times the events' lines first (in file order), then the sends.

use crate::core_top::CoreEvent;
use crate::dcqcn_rp::RpKind;
use crate::lockstep::{CycleDut, Named};
use crate::paced_harness::{GoldenPacedCycle, PacedOuts, PacedPins};
use crate::paced_stimulus::paced_bring_up;
use crate::replay::{OutLine, ReplayEngine, TimedEvent, TraceEvent};
use crate::replay_golden::{core_event, sample_line};
use crate::replay_rtl::CNP_LATENCY_CYCLES;
use crate::timebase::Timebase;
use roce_cc_params::Params;
use std::collections::VecDeque;

/// Cycles with nothing out of the core before idle time may be skipped: the RP's report
/// latency and the longest wait in its input queue, the window unit's answer, the grant
/// queue, and a margin.
pub const QUIET_CYCLES: u64 = (roce_cc_hdl::dcqcn_rp::RP_REPORT_LATENCY
    + roce_cc_hdl::dcqcn_rp::RP_QUEUE_WAIT_MAX
    + roce_cc_hdl::hpcc_window::window::LATENCY
    + roce_cc_hdl::paced_core::GRANT_QUEUE
    + 64) as u64;

/// Cycles before the coarse wheel's next release that a skip stops: its cursor, up to
/// 2^8 slots behind after the jump, passes two empty slots a cycle, so it is caught up in
/// 128 cycles; twice that leaves room.
pub const WAKE_LEAD: u64 = 1 << roce_cc_hdl::pacer::sched::COARSE_SB;

/// Whether a trace posts work (and so replays through the paced core).
pub fn has_posts(events: &[TimedEvent]) -> bool {
    events
        .iter()
        .any(|e| matches!(e.ev, TraceEvent::Post { .. }))
}

/// The paced core's size for `p`: the smallest built (64 or 1024 QPs) with at least
/// `p.qps` QPs; a larger design behaves as one of `p.qps` QPs on a valid trace's events.
pub fn paced_qps(p: &Params) -> Result<u32, String> {
    match p.qps {
        0..=64 => Ok(64),
        65..=1024 => Ok(1024),
        q => Err(format!(
            "a trace with post events replays through the core with the pacer, built for at \
             most 1024 QPs; this trace's parameters have qps = {q} (set qps = 1024 or less)"
        )),
    }
}

/// The golden paced core for a trace with parameters `p` (of [`paced_qps`] QPs).
pub fn golden_paced(p: &Params) -> Result<GoldenPacedCycle, String> {
    let m = Params {
        qps: paced_qps(p)?,
        ..p.clone()
    };
    Ok(GoldenPacedCycle::new(&m))
}

/// The port: free again at `free / line_mbps` cycles (a packet of `b` bytes adds `(b +
/// overhead) * 8 * clock_mhz`).
struct Port {
    free: u128,
    line_mbps: u128,
    clock_mhz: u128,
    /// `pkt_overhead_bytes`: added to each packet's wire time.
    overhead: u128,
}

impl Port {
    fn ready(&self, cycle: u64) -> bool {
        self.free <= u128::from(cycle) * self.line_mbps
    }
    fn take(&mut self, cycle: u64, bytes: u32) {
        let start = self.free.max(u128::from(cycle) * self.line_mbps);
        self.free = start + (u128::from(bytes) + self.overhead) * 8 * self.clock_mhz;
    }
}

/// Replays a trace through a paced core: the golden cycle model or the Verilated RTL.
pub struct PacedEngine {
    params: Params,
    dut: Box<dyn CycleDut<PacedPins, PacedOuts>>,
    name: &'static str,
    skip: bool,
    evaluated: u64,
}

impl PacedEngine {
    /// The engine over `dut`, a paced core of [`paced_qps`]`(params)` QPs.
    pub fn with_dut(
        params: &Params,
        dut: Box<dyn CycleDut<PacedPins, PacedOuts>>,
        name: &'static str,
    ) -> Self {
        Self {
            params: params.clone(),
            dut,
            name,
            skip: true,
            evaluated: 0,
        }
    }

    /// Runs every idle cycle instead of skipping idle time (to check that skipping changes
    /// nothing).
    pub fn without_skipping(mut self) -> Self {
        self.skip = false;
        self
    }

    /// Cycles the last run evaluated (the bring-up's not counted; skipped cycles are not
    /// evaluated).
    pub fn cycles_evaluated(&self) -> u64 {
        self.evaluated
    }
}

/// The output's sort key: time as `ns * clock_mhz` (a cycle `c` is at `c * 1000`), then
/// events' lines before sends, then their order.
type Key = (u128, u8, usize);

impl ReplayEngine for PacedEngine {
    fn run(&mut self, events: &[TimedEvent]) -> Result<Vec<OutLine>, String> {
        let p = &self.params;
        let tb = Timebase::new(p);
        let clock = u128::from(p.clock_mhz);
        let start = {
            let mut duts: Vec<Named<PacedPins, PacedOuts>> = vec![(self.name, self.dut.as_mut())];
            paced_bring_up(
                &{
                    let mut m = p.clone();
                    m.qps = paced_qps(p)?;
                    m
                },
                &mut duts,
            )
            .map_err(|m| format!("bring-up failed: {m:?}"))?
        };
        let mut port = Port {
            free: 0,
            line_mbps: u128::from(p.line_rate_mbps),
            clock_mhz: clock,
            overhead: u128::from(p.pkt_overhead_bytes),
        };
        let mut samples: VecDeque<usize> = VecDeque::new();
        let mut marks: VecDeque<(u64, usize)> = VecDeque::new();
        let mut out: Vec<(Key, OutLine)> = Vec::new();
        let mut next = 0usize;
        let mut cycle = 0u64;
        let mut quiet = 0u64;
        let mut ctl_pending = false;
        let mut sends = 0usize;
        let mut waited = 0u64;
        self.evaluated = 0;
        loop {
            let due = events
                .get(next)
                .is_some_and(|e| tb.ns_to_cycles(e.t_ns) <= cycle);
            let ack_waits = matches!(
                events.get(next).map(|e| &e.ev),
                Some(TraceEvent::Ack { qp, .. })
                    if samples.iter().any(|&i| sample_qp(&events[i]) == *qp)
            );
            let offer = if due && !ctl_pending && !ack_waits {
                events.get(next)
            } else {
                None
            };
            let mut pins = PacedPins {
                core: crate::core_harness::CorePins {
                    rate_ready: true,
                    cnp_ready: true,
                    now: tb.at_cycle(cycle),
                    ..Default::default()
                },
                now_cycles: start + cycle,
                post: None,
                tx_ready: port.ready(cycle),
            };
            if let Some(e) = offer {
                if let TraceEvent::Post { qp, bytes } = e.ev {
                    pins.post = Some((qp, bytes));
                } else {
                    let c = &mut pins.core;
                    match core_event(&e.ev) {
                        CoreEvent::Cnp { qpn } => c.cnp = Some(qpn),
                        CoreEvent::Tx { qpn, bytes } => c.tx = Some((qpn, bytes)),
                        CoreEvent::Query { qpn } => c.query = Some(qpn),
                        CoreEvent::Rx { qpn, ecn } => c.rx = Some((qpn, ecn)),
                        CoreEvent::SetMode { qpn, mode, rate_q8 } => {
                            c.ctl = Some((qpn, RpKind::SetMode { mode, rate_q8 }))
                        }
                        CoreEvent::Ack { qpn, ack } => c.ack = Some((qpn, ack)),
                        CoreEvent::Reset { .. } => unreachable!("traces have no reset command"),
                    }
                }
            }
            let o = self.dut.eval(&pins);
            self.evaluated += 1;
            let mut activity = offer.is_some() || o.core.rate.is_some() || o.core.cnp.is_some();
            if o.core.rate.is_some_and(|r| r.ctl) {
                ctl_pending = false;
            }
            if let Some(r) = o.core.rate.filter(|r| r.query) {
                let k = samples
                    .iter()
                    .position(|&i| sample_qp(&events[i]) == r.qp)
                    .ok_or_else(|| {
                        format!(
                            "{}: answered a sample of QP {} nobody asked for",
                            self.name, r.qp
                        )
                    })?;
                let i = samples.remove(k).expect("found above");
                out.push((
                    (u128::from(events[i].t_ns) * clock, 0, i),
                    sample_line(events[i].t_ns, &r),
                ));
            }
            while marks
                .front()
                .is_some_and(|&(at, _)| at + CNP_LATENCY_CYCLES < cycle)
            {
                marks.pop_front();
            }
            if let Some(c) = o.core.cnp {
                let (at, i) = marks.pop_front().ok_or("a CNP request no CE mark caused")?;
                if at + CNP_LATENCY_CYCLES != cycle {
                    return Err(format!(
                        "line {}: CNP request {} cycles after the mark, expected {CNP_LATENCY_CYCLES}",
                        events[i].line,
                        cycle - at
                    ));
                }
                out.push((
                    (u128::from(events[i].t_ns) * clock, 0, i),
                    OutLine::CnpOut {
                        t_ns: events[i].t_ns,
                        qp: c.qp,
                        dscp: c.dscp,
                        prio: c.prio,
                    },
                ));
            }
            if let (Some((qp, bytes)), true) = (o.grant, pins.tx_ready) {
                port.take(cycle, bytes);
                out.push((
                    (u128::from(cycle) * 1000, 1, sends),
                    OutLine::Send {
                        cycle,
                        clock_mhz: p.clock_mhz,
                        qp,
                        bytes,
                    },
                ));
                sends += 1;
                activity = true;
            }
            if let Some(e) = offer {
                let taken = match e.ev {
                    TraceEvent::Cnp { .. } => o.core.cnp_ready,
                    TraceEvent::Tx { .. } => o.core.tx_ready,
                    TraceEvent::Sample { .. } => o.core.query_ready,
                    TraceEvent::Ecn { .. } => o.core.rx_ready,
                    TraceEvent::Mode { .. } => o.core.ctl_ready,
                    TraceEvent::Ack { .. } => o.core.ack_ready,
                    TraceEvent::Post { .. } => o.post_ready,
                };
                if taken {
                    match e.ev {
                        TraceEvent::Sample { .. } => samples.push_back(next),
                        TraceEvent::Ecn { .. } => marks.push_back((cycle, next)),
                        TraceEvent::Mode { .. } => ctl_pending = true,
                        _ => {}
                    }
                    next += 1;
                }
            }
            quiet = if activity { 0 } else { quiet + 1 };
            let answered = samples.is_empty() && marks.is_empty() && !ctl_pending;
            self.dut.clock();
            cycle += 1;
            if next == events.len() && answered {
                break;
            }
            // Skip idle time: nothing due before the next event, no grant waiting, the core
            // quiet long enough for its last reports to be out, and the pacer with nothing
            // to do before its coarse wheel's next release (or at all).
            if self.skip
                && answered
                && (o.backlogged == 0 || o.sleep.asleep)
                && o.grant.is_none()
                && quiet >= QUIET_CYCLES
            {
                if let Some(e) = events.get(next) {
                    let mut to = tb.ns_to_cycles(e.t_ns);
                    if o.backlogged != 0 && o.sleep.wake_en {
                        // `wake_at` counts `now_cycles`, which is `start + cycle` (mod 2^48).
                        let wake = o.sleep.wake_at.wrapping_sub(start) & ((1 << 48) - 1);
                        to = to.min(wake.saturating_sub(WAKE_LEAD));
                    }
                    cycle = cycle.max(to);
                }
            }
            // A sample or a mark that is never answered is a fault of the model.
            waited = if activity { 0 } else { waited + 1 };
            if waited > 4 * QUIET_CYCLES && !(samples.is_empty() && marks.is_empty()) {
                return Err(format!(
                    "{}: the core did not answer every event",
                    self.name
                ));
            }
        }
        out.sort_by_key(|(k, _)| *k);
        Ok(out.into_iter().map(|(_, l)| l).collect())
    }
}

fn sample_qp(e: &TimedEvent) -> u32 {
    match e.ev {
        TraceEvent::Sample { qp } => qp,
        _ => unreachable!("only samples are queued for reports"),
    }
}
