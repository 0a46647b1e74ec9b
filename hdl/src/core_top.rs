//! `roce_cc_core`: the congestion-control core top. The DCQCN reaction point and the
//! notification point behind one set of event streams, one time base and one parameter
//! set, with a per-QP rate output for the pacer.
//!
//! ```text
//!                   ┌──────────────────── roce_cc_core ────────────────────┐
//!  s_cnp_*  (qpn) ──┤ QP check ─┐    ┌─────────────┐                      │
//!  s_tx_*   (qpn) ──┤ QP check ─┼──► │  dcqcn_rp   ├── m_rate_* ──────────┼──► per-QP rate (pacer)
//!  s_query_*(qpn) ──┤ QP check ─┘    └─────────────┘                      │
//!  s_rx_*   (qpn) ──┤ QP check ───►  ┌─────────────┐                      │
//!                   │                │  dcqcn_np   ├── m_cnp_* ───────────┼──► CNP requests
//!                   │                └─────────────┘                      │
//!  now, now_cnp ────┤ one time base ──► both                               │
//!  rp_cfg, np_cfg ──┤ one parameter set (sim::core::CoreConfig) ──► both   │
//!                   │ cnt_bad_qp_* (events rejected for an out-of-range QP)│
//!                   └──────────────────────────────────────────────────────┘
//! ```
//!
//! Every input stream carries a 24-bit RoCE QP number. A QP number at or above `2^QB` is
//! rejected where it enters: the stream's `ready` is high for it in the same cycle (it is
//! consumed, never applied to any QP, not even to the QP its low bits name), and that
//! stream's `cnt_bad_qp_*` counter increments. Rejection does not wait for the units, so
//! a bad event never blocks the stream; it is refused even while the RAM sweep runs.
//!
//! Latency and backpressure are the units' own: see `dcqcn_rp` (a report on `m_rate_*`
//! `RP_REPORT_LATENCY` = 138 cycles after each accepted CNP, packet or query when the
//! consumer keeps up) and `dcqcn_np` (a CNP request
//! `NP_LATENCY` = 5 cycles after an accepted CE mark that passes the limiter; its counters
//! one cycle later). The two units are independent: backpressure on one output holds only
//! its own unit.
//!
//! Room for HPCC (`../shared/reference/hpcc.md`, not implemented): an ACK stream joins the
//! input streams (with its own QP check) and feeds a window unit beside the RP; the rate
//! report gains the QP's window next to its rate. The QP check, the time base and the
//! counters here are written so that adding a stream is one more instance of each.

use crate::ctl_slice::CtlSlice;
use crate::dcqcn_np::{COUNTER_W, DSCP_W, DcqcnNp, ECN_W, NpCfgWord, PRIO_W};
use crate::dcqcn_rp::DcqcnRp;
use crate::dcqcn_rp::state::{RpCfgWord, TimeWord};
use crate::dcqcn_rp::widths::*;
use rust_hdl::prelude::*;

/// Width of a RoCE QP number on the input streams.
pub const QPN_W: usize = 24;

/// The NP's time-base radix: microseconds in the `min_time_between_cnps` radix.
#[derive(Clone, Copy, Debug, Default, PartialEq, LogicStruct)]
pub struct CnpTimeWord {
    /// Whole periods (modulo 2^32).
    pub e: Bits<EPOCH_W>,
    /// Microseconds into the period.
    pub r: Bits<REM_W>,
}

/// The core top for `2^QB` QPs (`1 <= QB <= 14`).
#[derive(LogicBlock)]
pub struct RoceCcCore<const QB: usize> {
    /// Clock; everything is synchronous to its rising edge.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset, active high: resets both units (each sweeps its RAM, `busy`) and
    /// clears the counters.
    pub reset: Signal<In, Bit>,

    /* Command stream (register block) */
    /// A command for QP `s_ctl_qp` (the RP serves its four inputs in turn).
    pub s_ctl_valid: Signal<In, Bit>,
    /// Taken this cycle: the command slice has room (a register; see `ctl_slice`).
    pub s_ctl_ready: Signal<Out, Bit>,
    /// QP of the command (the register block only names QPs the core has).
    pub s_ctl_qp: Signal<In, Bits<QB>>,
    /// 0: reset the QP's RP and NP state; 1: reset its RP state and set its mode; 2: query
    /// its RP state (the report has `m_rate_ctl` set).
    pub s_ctl_op: Signal<In, Bits<CTL_OP_W>>,
    /// Mode for op 1 (0 DCQCN, 1 rate set by the host, 2 off).
    pub s_ctl_mode: Signal<In, Bits<MODE_W>>,
    /// Host rate for mode 1, Mb/s Q.8.
    pub s_ctl_rate: Signal<In, Bits<RATE_W>>,

    /* RP input streams */
    /// A CNP was received for QP `s_cnp_qpn` (reaction point).
    pub s_cnp_valid: Signal<In, Bit>,
    /// Taken this cycle (always, for an out-of-range QP).
    pub s_cnp_ready: Signal<Out, Bit>,
    /// QP number of the CNP.
    pub s_cnp_qpn: Signal<In, Bits<QPN_W>>,
    /// QP `s_tx_qpn` transmitted a packet of `s_tx_bytes` bytes.
    pub s_tx_valid: Signal<In, Bit>,
    /// Taken this cycle (always, for an out-of-range QP).
    pub s_tx_ready: Signal<Out, Bit>,
    /// QP number that transmitted.
    pub s_tx_qpn: Signal<In, Bits<QPN_W>>,
    /// Packet length, bytes.
    pub s_tx_bytes: Signal<In, Bits<BYTES_W>>,
    /// Report the RP state of QP `s_query_qpn`.
    pub s_query_valid: Signal<In, Bit>,
    /// Taken this cycle (always, for an out-of-range QP).
    pub s_query_ready: Signal<Out, Bit>,
    /// QP number to report.
    pub s_query_qpn: Signal<In, Bits<QPN_W>>,

    /* NP input stream */
    /// A data packet was received for QP `s_rx_qpn` (notification point).
    pub s_rx_valid: Signal<In, Bit>,
    /// Taken this cycle (always, for an out-of-range QP).
    pub s_rx_ready: Signal<Out, Bit>,
    /// QP number of the packet.
    pub s_rx_qpn: Signal<In, Bits<QPN_W>>,
    /// ECN field of the packet (`0b11` = CE).
    pub s_rx_ecn: Signal<In, Bits<ECN_W>>,

    /* Per-QP rate reports (one per accepted RP event) */
    /// A report is offered.
    pub m_rate_valid: Signal<Out, Bit>,
    /// The consumer (pacer) takes it; while low, reports collect in the RP's report FIFO,
    /// and the RP's inputs stop when it is full.
    pub m_rate_ready: Signal<In, Bit>,
    /// QP reported.
    pub m_rate_qp: Signal<Out, Bits<QB>>,
    /// The report answers a query (else it follows a CNP or a transmitted packet).
    pub m_rate_query: Signal<Out, Bit>,
    /// A rate limiter is allocated to the QP.
    pub m_rate_limited: Signal<Out, Bit>,
    /// Current rate Rc, Mb/s Q.8: the QP's sending rate.
    pub m_rate_rc: Signal<Out, Bits<RATE_W>>,
    /// Target rate Rt, Mb/s Q.8.
    pub m_rate_rt: Signal<Out, Bits<RATE_W>>,
    /// alpha, Q.20 (0 when not limited).
    pub m_rate_alpha: Signal<Out, Bits<ALPHA_W>>,
    /// The QP's mode after the event (0 DCQCN, 1 rate set by the host, 2 off).
    pub m_rate_mode: Signal<Out, Bits<MODE_W>>,
    /// The report follows a command of the register block (`s_ctl_*`).
    pub m_rate_ctl: Signal<Out, Bit>,

    /* CNP requests */
    /// A CNP should be sent.
    pub m_cnp_valid: Signal<Out, Bit>,
    /// The CNP generator takes it; low holds the NP (counted in `cnt_cnp_stall`).
    pub m_cnp_ready: Signal<In, Bit>,
    /// QP the CNP is for.
    pub m_cnp_qp: Signal<Out, Bits<QB>>,
    /// DSCP of the CNP.
    pub m_cnp_dscp: Signal<Out, Bits<DSCP_W>>,
    /// 802.1p priority of the CNP.
    pub m_cnp_prio: Signal<Out, Bits<PRIO_W>>,

    /* Time base, parameters */
    /// Now: cycle within the microsecond and the RP timers' radices.
    pub now: Signal<In, TimeWord>,
    /// Now in the NP's `min_time_between_cnps` radix (same time base, same `now.sub`).
    pub now_cnp: Signal<In, CnpTimeWord>,
    /// RP parameters in hardware form.
    pub rp_cfg: Signal<In, RpCfgWord>,
    /// NP parameters in hardware form.
    pub np_cfg: Signal<In, NpCfgWord>,
    /// RP power-table write enable (see `dcqcn_rp`).
    pub tbl_we: Signal<In, Bit>,
    /// RP power-table address.
    pub tbl_addr: Signal<In, Bits<TBL_ADDR_W>>,
    /// RP power-table entry, Q.24.
    pub tbl_data: Signal<In, Bits<POW_W>>,

    /* Status and counters (all clear on reset, wrap at 2^48) */
    /// A RAM sweep after reset is running.
    pub busy: Signal<Out, Bit>,
    /// CNP events rejected for an out-of-range QP.
    pub cnt_bad_qp_cnp: Signal<Out, Bits<COUNTER_W>>,
    /// Transmitted-packet events rejected for an out-of-range QP.
    pub cnt_bad_qp_tx: Signal<Out, Bits<COUNTER_W>>,
    /// Queries rejected for an out-of-range QP.
    pub cnt_bad_qp_query: Signal<Out, Bits<COUNTER_W>>,
    /// Received packets rejected for an out-of-range QP.
    pub cnt_bad_qp_rx: Signal<Out, Bits<COUNTER_W>>,
    /// CNPs the RP applied.
    pub cnt_cnp_received: Signal<Out, Bits<COUNTER_W>>,
    /// Rate cuts the RP applied.
    pub cnt_rate_cuts: Signal<Out, Bits<COUNTER_W>>,
    /// RP increase events in fast recovery.
    pub cnt_increase_fr: Signal<Out, Bits<COUNTER_W>>,
    /// RP increase events in additive increase.
    pub cnt_increase_ai: Signal<Out, Bits<COUNTER_W>>,
    /// RP increase events in hyper increase.
    pub cnt_increase_hai: Signal<Out, Bits<COUNTER_W>>,
    /// CE marks that produced a CNP request (`dcqcn_np::NP_COUNT_LAG` cycle after the
    /// request shows on `m_cnp_valid`).
    pub cnt_cnp_sent: Signal<Out, Bits<COUNTER_W>>,
    /// CE marks suppressed by the CNP limiter (lags as `cnt_cnp_sent`).
    pub cnt_cnp_suppressed: Signal<Out, Bits<COUNTER_W>>,
    /// Cycles a CNP request waited for `m_cnp_ready` (each counted `NP_COUNT_LAG` cycle
    /// later).
    pub cnt_cnp_stall: Signal<Out, Bits<COUNTER_W>>,

    /// The command stream's register slice: it takes the register block's commands and
    /// hands each unit its part (`ctl_slice`).
    ctl: CtlSlice<QB>,
    rp: DcqcnRp<QB>,
    np: DcqcnNp<QB>,
    bad_cnp: DFF<Bits<COUNTER_W>>,
    bad_tx: DFF<Bits<COUNTER_W>>,
    bad_query: DFF<Bits<COUNTER_W>>,
    bad_rx: DFF<Bits<COUNTER_W>>,
    /// An out-of-range event was offered on each stream last cycle: the `bad_*` counters
    /// count from these registers, a cycle after the event, so an input valid and the QPN
    /// compare do not drive the 48 clock enables of a counter (that path into `bad_rx` is
    /// too long for 10 ns at 1024 QPs).
    hit_cnp: DFF<Bit>,
    hit_tx: DFF<Bit>,
    hit_query: DFF<Bit>,
    hit_rx: DFF<Bit>,
    /// The QPN bits above the core's `QB`: a QPN is out of range when one is set (`qpn >
    /// 2^QB - 1` as an OR of 24 - QB bits, two LUT levels, not a 24-bit carry chain in the
    /// input streams' handshake).
    qpn_hi_mask: Constant<Bits<QPN_W>>,
    one_count: Constant<Bits<COUNTER_W>>,
    cnp_bad: Signal<Local, Bit>,
    tx_bad: Signal<Local, Bit>,
    query_bad: Signal<Local, Bit>,
    rx_bad: Signal<Local, Bit>,
}

impl<const QB: usize> RoceCcCore<QB> {
    /// A core for `2^QB` QPs.
    pub fn new() -> Self {
        assert!(
            (1..=14).contains(&QB),
            "RoceCcCore: QB = {QB}; 2^QB QPs must be 2..=16384"
        );
        Self {
            clock: Default::default(),
            reset: Default::default(),
            s_ctl_valid: Default::default(),
            s_ctl_ready: Default::default(),
            s_ctl_qp: Default::default(),
            s_ctl_op: Default::default(),
            s_ctl_mode: Default::default(),
            s_ctl_rate: Default::default(),
            s_cnp_valid: Default::default(),
            s_cnp_ready: Default::default(),
            s_cnp_qpn: Default::default(),
            s_tx_valid: Default::default(),
            s_tx_ready: Default::default(),
            s_tx_qpn: Default::default(),
            s_tx_bytes: Default::default(),
            s_query_valid: Default::default(),
            s_query_ready: Default::default(),
            s_query_qpn: Default::default(),
            s_rx_valid: Default::default(),
            s_rx_ready: Default::default(),
            s_rx_qpn: Default::default(),
            s_rx_ecn: Default::default(),
            m_rate_valid: Default::default(),
            m_rate_ready: Default::default(),
            m_rate_qp: Default::default(),
            m_rate_query: Default::default(),
            m_rate_limited: Default::default(),
            m_rate_rc: Default::default(),
            m_rate_rt: Default::default(),
            m_rate_alpha: Default::default(),
            m_rate_mode: Default::default(),
            m_rate_ctl: Default::default(),
            m_cnp_valid: Default::default(),
            m_cnp_ready: Default::default(),
            m_cnp_qp: Default::default(),
            m_cnp_dscp: Default::default(),
            m_cnp_prio: Default::default(),
            now: Default::default(),
            now_cnp: Default::default(),
            rp_cfg: Default::default(),
            np_cfg: Default::default(),
            tbl_we: Default::default(),
            tbl_addr: Default::default(),
            tbl_data: Default::default(),
            busy: Default::default(),
            cnt_bad_qp_cnp: Default::default(),
            cnt_bad_qp_tx: Default::default(),
            cnt_bad_qp_query: Default::default(),
            cnt_bad_qp_rx: Default::default(),
            cnt_cnp_received: Default::default(),
            cnt_rate_cuts: Default::default(),
            cnt_increase_fr: Default::default(),
            cnt_increase_ai: Default::default(),
            cnt_increase_hai: Default::default(),
            cnt_cnp_sent: Default::default(),
            cnt_cnp_suppressed: Default::default(),
            cnt_cnp_stall: Default::default(),
            ctl: CtlSlice::new(),
            rp: DcqcnRp::new(),
            np: DcqcnNp::new(),
            bad_cnp: Default::default(),
            bad_tx: Default::default(),
            bad_query: Default::default(),
            bad_rx: Default::default(),
            hit_cnp: Default::default(),
            hit_tx: Default::default(),
            hit_query: Default::default(),
            hit_rx: Default::default(),
            qpn_hi_mask: Constant::new((((1u64 << QPN_W) - 1) & !((1u64 << QB) - 1)).into()),
            one_count: Constant::new(1.into()),
            cnp_bad: Default::default(),
            tx_bad: Default::default(),
            query_bad: Default::default(),
            rx_bad: Default::default(),
        }
    }
}

impl<const QB: usize> Default for RoceCcCore<QB> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const QB: usize> Logic for RoceCcCore<QB> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, bad_cnp, bad_tx, bad_query, bad_rx, hit_cnp, hit_tx, hit_query, hit_rx
        );
        self.rp.clock.next = self.clock.val();
        self.np.clock.next = self.clock.val();
        self.rp.reset.next = self.reset.val();
        self.np.reset.next = self.reset.val();

        // ---- QP check on every input stream ----
        self.cnp_bad.next = (self.s_cnp_qpn.val() & self.qpn_hi_mask.val()).any();
        self.tx_bad.next = (self.s_tx_qpn.val() & self.qpn_hi_mask.val()).any();
        self.query_bad.next = (self.s_query_qpn.val() & self.qpn_hi_mask.val()).any();
        self.rx_bad.next = (self.s_rx_qpn.val() & self.qpn_hi_mask.val()).any();

        // ---- commands: through the slice, each unit takes its part ----
        self.ctl.clock.next = self.clock.val();
        self.ctl.reset.next = self.reset.val();
        self.ctl.s_valid.next = self.s_ctl_valid.val();
        self.s_ctl_ready.next = self.ctl.s_ready.val();
        self.ctl.s_qp.next = self.s_ctl_qp.val();
        self.ctl.s_op.next = self.s_ctl_op.val();
        self.ctl.s_mode.next = self.s_ctl_mode.val();
        self.ctl.s_rate.next = self.s_ctl_rate.val();
        self.rp.s_ctl_valid.next = self.ctl.m_rp_valid.val();
        self.ctl.m_rp_ready.next = self.rp.s_ctl_ready.val();
        self.rp.s_ctl_qp.next = self.ctl.m_qp.val();
        self.rp.s_ctl_op.next = self.ctl.m_op.val();
        self.rp.s_ctl_mode.next = self.ctl.m_mode.val();
        self.rp.s_ctl_rate.next = self.ctl.m_rate.val();
        self.np.s_clr_valid.next = self.ctl.m_np_valid.val();
        self.ctl.m_np_ready.next = self.np.s_clr_ready.val();
        self.np.s_clr_qp.next = self.ctl.m_qp.val();

        // ---- reaction point ----
        self.rp.s_cnp_valid.next = self.s_cnp_valid.val() & !self.cnp_bad.val();
        self.rp.s_cnp_qp.next = self.s_cnp_qpn.val().get_bits::<QB>(0);
        self.s_cnp_ready.next = self.cnp_bad.val() | self.rp.s_cnp_ready.val();
        self.rp.s_tx_valid.next = self.s_tx_valid.val() & !self.tx_bad.val();
        self.rp.s_tx_qp.next = self.s_tx_qpn.val().get_bits::<QB>(0);
        self.rp.s_tx_bytes.next = self.s_tx_bytes.val();
        self.s_tx_ready.next = self.tx_bad.val() | self.rp.s_tx_ready.val();
        self.rp.s_query_valid.next = self.s_query_valid.val() & !self.query_bad.val();
        self.rp.s_query_qp.next = self.s_query_qpn.val().get_bits::<QB>(0);
        self.s_query_ready.next = self.query_bad.val() | self.rp.s_query_ready.val();
        self.rp.m_rate_ready.next = self.m_rate_ready.val();
        self.m_rate_valid.next = self.rp.m_rate_valid.val();
        self.m_rate_qp.next = self.rp.m_rate_qp.val();
        self.m_rate_query.next = self.rp.m_rate_query.val();
        self.m_rate_limited.next = self.rp.m_rate_limited.val();
        self.m_rate_rc.next = self.rp.m_rate_rc.val();
        self.m_rate_rt.next = self.rp.m_rate_rt.val();
        self.m_rate_alpha.next = self.rp.m_rate_alpha.val();
        self.m_rate_mode.next = self.rp.m_rate_mode.val();
        self.m_rate_ctl.next = self.rp.m_rate_ctl.val();
        self.rp.now.next = self.now.val();
        self.rp.cfg.next = self.rp_cfg.val();
        self.rp.tbl_we.next = self.tbl_we.val();
        self.rp.tbl_addr.next = self.tbl_addr.val();
        self.rp.tbl_data.next = self.tbl_data.val();

        // ---- notification point ----
        self.np.s_rx_valid.next = self.s_rx_valid.val() & !self.rx_bad.val();
        self.np.s_rx_qp.next = self.s_rx_qpn.val().get_bits::<QB>(0);
        self.np.s_rx_ecn.next = self.s_rx_ecn.val();
        self.s_rx_ready.next = self.rx_bad.val() | self.np.s_rx_ready.val();
        self.np.m_cnp_ready.next = self.m_cnp_ready.val();
        self.m_cnp_valid.next = self.np.m_cnp_valid.val();
        self.m_cnp_qp.next = self.np.m_cnp_qp.val();
        self.m_cnp_dscp.next = self.np.m_cnp_dscp.val();
        self.m_cnp_prio.next = self.np.m_cnp_prio.val();
        self.np.now.next.sub = self.now.val().sub;
        self.np.now.next.e = self.now_cnp.val().e;
        self.np.now.next.r = self.now_cnp.val().r;
        self.np.cfg.next = self.np_cfg.val();

        // ---- counters ----
        // (each counts a cycle after its event, from a register of the hit)
        self.hit_cnp.d.next = self.s_cnp_valid.val() & self.cnp_bad.val();
        self.hit_tx.d.next = self.s_tx_valid.val() & self.tx_bad.val();
        self.hit_query.d.next = self.s_query_valid.val() & self.query_bad.val();
        self.hit_rx.d.next = self.s_rx_valid.val() & self.rx_bad.val();
        if self.hit_cnp.q.val() {
            self.bad_cnp.d.next = self.bad_cnp.q.val() + self.one_count.val();
        }
        if self.hit_tx.q.val() {
            self.bad_tx.d.next = self.bad_tx.q.val() + self.one_count.val();
        }
        if self.hit_query.q.val() {
            self.bad_query.d.next = self.bad_query.q.val() + self.one_count.val();
        }
        if self.hit_rx.q.val() {
            self.bad_rx.d.next = self.bad_rx.q.val() + self.one_count.val();
        }
        if self.reset.val() {
            self.hit_cnp.d.next = false;
            self.hit_tx.d.next = false;
            self.hit_query.d.next = false;
            self.hit_rx.d.next = false;
            self.bad_cnp.d.next = 0.into();
            self.bad_tx.d.next = 0.into();
            self.bad_query.d.next = 0.into();
            self.bad_rx.d.next = 0.into();
        }
        self.busy.next = self.rp.busy.val() | self.np.busy.val();
        self.cnt_bad_qp_cnp.next = self.bad_cnp.q.val();
        self.cnt_bad_qp_tx.next = self.bad_tx.q.val();
        self.cnt_bad_qp_query.next = self.bad_query.q.val();
        self.cnt_bad_qp_rx.next = self.bad_rx.q.val();
        self.cnt_cnp_received.next = self.rp.cnt_cnp_received.val();
        self.cnt_rate_cuts.next = self.rp.cnt_rate_cuts.val();
        self.cnt_increase_fr.next = self.rp.cnt_increase_fr.val();
        self.cnt_increase_ai.next = self.rp.cnt_increase_ai.val();
        self.cnt_increase_hai.next = self.rp.cnt_increase_hai.val();
        self.cnt_cnp_sent.next = self.np.cnt_sent.val();
        self.cnt_cnp_suppressed.next = self.np.cnt_suppressed.val();
        self.cnt_cnp_stall.next = self.np.cnt_stall.val();
    }
}
