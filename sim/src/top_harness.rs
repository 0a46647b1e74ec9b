//! Harness of `roce_cc_top` (the core with its AXI4-Lite register block): its pins,
//! rust-hdl's simulation of it ([`HdlTop`]; the Verilated one is
//! `verilated::VerilatedTop`), and an AXI4-Lite master ([`access`]) that runs one register
//! access through any implementation with chosen VALID/READY timing.
//!
//! The register block's golden model is `crate::csr::CsrModel`, at the level of accesses:
//! the three-way test runs the same accesses through it and, cycle by cycle in lock-step,
//! through both hardware simulations (`sim/tests/all/top_three_way.rs`).

use crate::core_harness::cnp_time_word;
use crate::core_top::CoreEvent;
use crate::dcqcn_np::CnpRequest;
use crate::hdl_sim::{settle, tick};
use crate::lockstep::{CycleDut, Divergence, Named, clock_all, eval_all};
use crate::replay::RpReport;
use crate::rp_harness::{RateOut, time_word};
use crate::timebase::TimeStamp;
use roce_cc_hdl::top::RoceCcTop;
use roce_cc_params::Params;
use roce_cc_regmap::FwId;
use rust_hdl::prelude::*;
use std::cell::Cell;
use std::rc::Rc;

/// The top's input pins for one cycle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TopPins {
    pub reset: bool,
    /// `AWVALID` with `AWADDR`.
    pub aw: Option<u32>,
    /// `WVALID` with `(WDATA, WSTRB)`.
    pub w: Option<(u32, u32)>,
    pub bready: bool,
    /// `ARVALID` with `ARADDR`.
    pub ar: Option<u32>,
    pub rready: bool,
    /// CNP stream: `Some(qpn)`.
    pub cnp: Option<u32>,
    /// Packet stream: `Some((qpn, bytes))`.
    pub tx: Option<(u32, u32)>,
    /// Query stream: `Some(qpn)`.
    pub query: Option<u32>,
    /// Receive stream: `Some((qpn, ecn))`.
    pub rx: Option<(u32, u32)>,
    pub rate_ready: bool,
    pub cnp_ready: bool,
    /// Now (both radices come from it).
    pub now: TimeStamp,
}

/// The top's outputs in one cycle (before the clock edge).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TopOuts {
    pub awready: bool,
    pub wready: bool,
    pub arready: bool,
    /// `BVALID` with `BRESP`.
    pub b: Option<u32>,
    /// `RVALID` with `(RDATA, RRESP)`.
    pub r: Option<(u32, u32)>,
    pub cnp_ready: bool,
    pub tx_ready: bool,
    pub query_ready: bool,
    pub rx_ready: bool,
    /// The pacer's report (`ctl` is always false here: the top has no such port).
    pub rate: Option<RateOut>,
    pub cnp: Option<CnpRequest>,
    pub tb_restart: bool,
    /// `tb_p_alpha`, `tb_p_dec`, `tb_p_inc`, `tb_p_cnp`, us.
    pub periods: [u32; 4],
    pub busy: bool,
}

/// rust-hdl's own simulation of the top with `2^QB` QPs.
pub struct HdlTop<const QB: usize> {
    uut: Box<RoceCcTop<QB>>,
}

impl<const QB: usize> HdlTop<QB> {
    /// The top of a bitstream built for `build` (QP count and clock) reporting `fw`.
    pub fn new(build: &Params, fw: FwId) -> Self {
        let mut uut = Box::new(RoceCcTop::<QB>::new(build, fw));
        uut.connect_all();
        settle(uut.as_mut());
        Self { uut }
    }
}

fn b<const N: usize>(x: u32) -> Bits<N> {
    (x as u64).into()
}

impl<const QB: usize> CycleDut<TopPins, TopOuts> for HdlTop<QB> {
    fn eval(&mut self, pins: &TopPins) -> TopOuts {
        let u = self.uut.as_mut();
        u.reset.next = pins.reset;
        u.s_axil_awvalid.next = pins.aw.is_some();
        u.s_axil_awaddr.next = b(pins.aw.unwrap_or(0));
        u.s_axil_wvalid.next = pins.w.is_some();
        u.s_axil_wdata.next = b(pins.w.map_or(0, |w| w.0));
        u.s_axil_wstrb.next = b(pins.w.map_or(0, |w| w.1));
        u.s_axil_bready.next = pins.bready;
        u.s_axil_arvalid.next = pins.ar.is_some();
        u.s_axil_araddr.next = b(pins.ar.unwrap_or(0));
        u.s_axil_rready.next = pins.rready;
        u.s_cnp_valid.next = pins.cnp.is_some();
        u.s_cnp_qpn.next = b(pins.cnp.unwrap_or(0));
        u.s_tx_valid.next = pins.tx.is_some();
        u.s_tx_qpn.next = b(pins.tx.map_or(0, |t| t.0));
        u.s_tx_bytes.next = b(pins.tx.map_or(0, |t| t.1));
        u.s_query_valid.next = pins.query.is_some();
        u.s_query_qpn.next = b(pins.query.unwrap_or(0));
        u.s_rx_valid.next = pins.rx.is_some();
        u.s_rx_qpn.next = b(pins.rx.map_or(0, |t| t.0));
        u.s_rx_ecn.next = b(pins.rx.map_or(0, |t| t.1));
        u.m_rate_ready.next = pins.rate_ready;
        u.m_cnp_ready.next = pins.cnp_ready;
        u.now.next = time_word(&pins.now);
        u.now_cnp.next = cnp_time_word(&pins.now);
        settle(u);
        TopOuts {
            awready: u.s_axil_awready.val(),
            wready: u.s_axil_wready.val(),
            arready: u.s_axil_arready.val(),
            b: u.s_axil_bvalid.val().then(|| u.s_axil_bresp.val().to_u32()),
            r: u.s_axil_rvalid
                .val()
                .then(|| (u.s_axil_rdata.val().to_u32(), u.s_axil_rresp.val().to_u32())),
            cnp_ready: u.s_cnp_ready.val(),
            tx_ready: u.s_tx_ready.val(),
            query_ready: u.s_query_ready.val(),
            rx_ready: u.s_rx_ready.val(),
            rate: u.m_rate_valid.val().then(|| RateOut {
                qp: u.m_rate_qp.val().to_u32(),
                query: u.m_rate_query.val(),
                ctl: false,
                mode: u.m_rate_mode.val().to_u32(),
                report: RpReport {
                    limited: u.m_rate_limited.val(),
                    rc_mbps_q8: u.m_rate_rc.val().to_u32(),
                    rt_mbps_q8: u.m_rate_rt.val().to_u32(),
                    alpha_q20: u.m_rate_alpha.val().to_u32(),
                },
                u_q24: u.m_rate_u.val().to_u64(),
                window: u.m_rate_window.val().to_u32(),
            }),
            cnp: u.m_cnp_valid.val().then(|| CnpRequest {
                qp: u.m_cnp_qp.val().to_u32(),
                dscp: u.m_cnp_dscp.val().to_u32(),
                prio: u.m_cnp_prio.val().to_u32(),
            }),
            tb_restart: u.tb_restart.val(),
            periods: [
                u.tb_p_alpha.val().to_u32(),
                u.tb_p_dec.val().to_u32(),
                u.tb_p_inc.val().to_u32(),
                u.tb_p_cnp.val().to_u32(),
            ],
            busy: u.busy.val(),
        }
    }

    fn clock(&mut self) {
        tick(self.uut.as_mut(), |u| &mut u.clock);
    }
}

/// One register access.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RegOp {
    Read { addr: u32 },
    Write { addr: u32, data: u32, strb: u32 },
}

/// When the master raises each VALID and READY, in cycles after the access starts (each
/// VALID stays up until its handshake; READY stays up from its cycle on).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AccessTiming {
    pub aw_delay: u32,
    pub w_delay: u32,
    pub ar_delay: u32,
    /// `BREADY` / `RREADY`.
    pub resp_delay: u32,
}

/// What an access returned: `(data, resp)` (data 0 for a write) and the cycles it took.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AccessResult {
    pub data: u32,
    pub resp: u32,
    pub cycles: u64,
}

/// Why an access did not complete.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AccessError {
    /// Two implementations differed.
    Diverged(Divergence<TopOuts>),
    /// No response within the cycle limit.
    Timeout { op: RegOp, cycles: u64 },
}

impl std::fmt::Display for AccessError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AccessError::Diverged(d) => write!(f, "{d}"),
            AccessError::Timeout { op, cycles } => {
                write!(f, "{op:?}: no AXI4-Lite response in {cycles} cycles")
            }
        }
    }
}

/// Cycles an access may take before it counts as hung (an apply is the compiler's
/// `COMPILE_CYCLES` = 1144 plus the RAM sweep; writes wait for it).
pub const ACCESS_TIMEOUT: u64 = 100_000;

/// Run one register access through `duts` in lock-step (one or more implementations, all
/// compared every cycle), the other pins as in `base`. `step` numbers the cycles for the
/// divergence report and advances.
pub fn access(
    duts: &mut [Named<'_, TopPins, TopOuts>],
    base: &TopPins,
    op: RegOp,
    t: AccessTiming,
    step: &mut usize,
) -> Result<AccessResult, AccessError> {
    let (mut aw_done, mut w_done, mut ar_done) = match op {
        RegOp::Read { .. } => (true, true, false),
        RegOp::Write { .. } => (false, false, true),
    };
    for cyc in 0..ACCESS_TIMEOUT {
        let c = cyc as u32;
        let mut pins = *base;
        match op {
            RegOp::Read { addr } => {
                if !ar_done && c >= t.ar_delay {
                    pins.ar = Some(addr);
                }
                pins.rready = c >= t.resp_delay;
            }
            RegOp::Write { addr, data, strb } => {
                if !aw_done && c >= t.aw_delay {
                    pins.aw = Some(addr);
                }
                if !w_done && c >= t.w_delay {
                    pins.w = Some((data, strb));
                }
                pins.bready = c >= t.resp_delay;
            }
        }
        let outs = eval_all(duts, &pins, *step).map_err(AccessError::Diverged)?;
        clock_all(duts);
        *step += 1;
        aw_done |= pins.aw.is_some() && outs.awready;
        w_done |= pins.w.is_some() && outs.wready;
        ar_done |= pins.ar.is_some() && outs.arready;
        if let (true, Some(resp)) = (pins.bready, outs.b) {
            return Ok(AccessResult {
                data: 0,
                resp,
                cycles: cyc + 1,
            });
        }
        if let (true, Some((data, resp))) = (pins.rready, outs.r) {
            return Ok(AccessResult {
                data,
                resp,
                cycles: cyc + 1,
            });
        }
    }
    Err(AccessError::Timeout {
        op,
        cycles: ACCESS_TIMEOUT,
    })
}

/// Reset for two cycles, then idle until the default parameters are applied (`busy`
/// low). Returns the cycles taken.
pub fn top_bring_up(
    duts: &mut [Named<'_, TopPins, TopOuts>],
    base: &TopPins,
    step: &mut usize,
) -> Result<u64, AccessError> {
    for cyc in 0..ACCESS_TIMEOUT {
        let pins = TopPins {
            reset: cyc < 2,
            ..*base
        };
        let outs = eval_all(duts, &pins, *step).map_err(AccessError::Diverged)?;
        clock_all(duts);
        *step += 1;
        if cyc >= 2 && !outs.busy {
            return Ok(cyc + 1);
        }
    }
    Err(AccessError::Timeout {
        op: RegOp::Read { addr: 0 },
        cycles: ACCESS_TIMEOUT,
    })
}

/// Offer one core event on its input stream until the top takes it (the other pins as in
/// `base`). Register-block commands are not events here. Returns the cycles taken.
pub fn offer_event(
    duts: &mut [Named<'_, TopPins, TopOuts>],
    base: &TopPins,
    ev: CoreEvent,
    step: &mut usize,
) -> Result<u64, AccessError> {
    let mut pins = *base;
    match ev {
        CoreEvent::Cnp { qpn } => pins.cnp = Some(qpn),
        CoreEvent::Tx { qpn, bytes } => pins.tx = Some((qpn, bytes)),
        CoreEvent::Query { qpn } => pins.query = Some(qpn),
        CoreEvent::Rx { qpn, ecn } => pins.rx = Some((qpn, ecn as u32)),
        CoreEvent::Reset { .. } | CoreEvent::SetMode { .. } => {
            panic!("{ev:?} is a register-block command, not an input event")
        }
        CoreEvent::Ack { .. } => {
            panic!("the top's ACK stream is not driven here (`trace::register_block_can_feed`)")
        }
    }
    for cyc in 0..ACCESS_TIMEOUT {
        let o = eval_all(duts, &pins, *step).map_err(AccessError::Diverged)?;
        clock_all(duts);
        *step += 1;
        let taken = (pins.cnp.is_some() && o.cnp_ready)
            || (pins.tx.is_some() && o.tx_ready)
            || (pins.query.is_some() && o.query_ready)
            || (pins.rx.is_some() && o.rx_ready);
        if taken {
            return Ok(cyc + 1);
        }
    }
    Err(AccessError::Timeout {
        op: RegOp::Read { addr: 0 },
        cycles: ACCESS_TIMEOUT,
    })
}

/// An implementation of the top that notes each time-base restart it asks for
/// (`tb_restart` with the new periods), for a test bench that keeps the time base.
pub struct Watched<D> {
    pub dut: D,
    /// The periods of the last restart not yet taken (shared, so the bench can look while
    /// the implementation is lent to a lock-step run).
    pub restart: Rc<Cell<Option<[u32; 4]>>>,
}

impl<D> Watched<D> {
    pub fn new(dut: D) -> Self {
        Self {
            dut,
            restart: Rc::default(),
        }
    }
}

impl<D: CycleDut<TopPins, TopOuts>> CycleDut<TopPins, TopOuts> for Watched<D> {
    fn eval(&mut self, pins: &TopPins) -> TopOuts {
        let o = self.dut.eval(pins);
        if o.tb_restart {
            self.restart.set(Some(o.periods));
        }
        o
    }

    fn clock(&mut self) {
        self.dut.clock();
    }
}

/// Idle cycles after an event until every counter shows it, when at most `older` core
/// commands or events (register-block commands, queries) may be ahead of it in the RP's
/// input queue and the report stream keeps up. The slowest counters are the RP's increase
/// counters, `RP_REPORT_LATENCY + rp_harness::INC_COUNT_LAG` cycles after the event is taken,
/// plus what the interlock holds it in the RP's input queue: a
/// [`RP_QUEUE_TURN_MAX`](roce_cc_hdl::dcqcn_rp::RP_QUEUE_TURN_MAX) for each entry ahead of it
/// and for its own turn, at most `QB_N` of them (the RP's `RP_QUEUE_WAIT_MAX` when the queue
/// is full); then the core's command slice (a command reaches the RP an edge after the slice
/// took it, two with one ahead of it) and the register block's bad-QP sum (one register
/// after the core's counters).
pub const fn drain_cycles(older: usize) -> u64 {
    use roce_cc_hdl::dcqcn_rp::{QB_N, RP_QUEUE_TURN_MAX, RP_REPORT_LATENCY};
    let turns = if older + 1 < QB_N { older + 1 } else { QB_N };
    (RP_REPORT_LATENCY + turns * RP_QUEUE_TURN_MAX + crate::rp_harness::INC_COUNT_LAG + 2 + 3)
        as u64
}

/// [`drain_cycles`] with the RP's input queue full: enough after any stimulus whose
/// report stream keeps up.
pub const DRAIN_CYCLES: u64 = drain_cycles(roce_cc_hdl::dcqcn_rp::QB_N - 1);

/// `n` idle cycles (the pins as in `base`), compared in lock-step.
pub fn idle(
    duts: &mut [Named<'_, TopPins, TopOuts>],
    base: &TopPins,
    n: u64,
    step: &mut usize,
) -> Result<(), AccessError> {
    for _ in 0..n {
        eval_all(duts, base, *step).map_err(AccessError::Diverged)?;
        clock_all(duts);
        *step += 1;
    }
    Ok(())
}
