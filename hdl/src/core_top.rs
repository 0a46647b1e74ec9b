//! `roce_cc_core`: the congestion-control core top. The DCQCN reaction point, the
//! notification point and the HPCC window unit behind one set of event streams, one time
//! base and one parameter set, with one per-QP rate output for the pacer.
//!
//! ```text
//!                   ┌──────────────────────── roce_cc_core ─────────────────────────┐
//!  s_ctl_*   (qp) ──┤ ctl_slice ─┐                                                   │
//!  s_cnp_*  (qpn) ──┤ QP check ──┼─► ┌───────────┐  mode != HPCC  ┌───────┐          │
//!  s_tx_*   (qpn) ──┤ QP check ──┤   │ dcqcn_rp  ├───────────────►│ merge ├─ m_rate_*┼─► per-QP rate
//!  s_query_*(qpn) ──┤ QP check ──┘   └─────┬─────┘                └───▲───┘          │   (and window)
//!                   │          HPCC QP's command/query report         │              │
//!                   │                      ▼ init / query             │              │
//!  s_ack_*  (qpn) ──┤ ACK check ─► mode filter ─► ┌─────────────┐      │              │
//!                   │              (mode RAM)     │ hpcc_window ├──────┘              │
//!                   │                             └─────────────┘                     │
//!  s_rx_*   (qpn) ──┤ QP check ───► ┌───────────┐                                     │
//!                   │               │ dcqcn_np  ├── m_cnp_* ──────────────────────────┼─► CNP requests
//!                   │               └───────────┘                                     │
//!  now, now_cnp, rp_cfg, np_cfg, hpcc_cfg, hpcc_k ──► the units                        │
//!                   └─────────────────────────────────────────────────────────────────┘
//! ```
//!
//! Every input stream carries a 24-bit RoCE QP number. A QP number at or above `2^QB` is
//! rejected where it enters: the stream's `ready` is high for it in the same cycle (it is
//! consumed, never applied to any QP, not even to the QP its low bits name), and that
//! stream's `cnt_bad_*` counter increments. Rejection does not wait for the units, so
//! a bad event never blocks the stream; it is refused even while the RAM sweep runs. An
//! ACK is also rejected (and counted in `cnt_bad_ack`) when its hop count is not 1..=5.
//!
//! Latency and backpressure are the units' own, plus the report slices' cycle: see
//! `dcqcn_rp` (a report on `m_rate_*` `RP_REPORT_LATENCY` + 2 = 140 cycles after each
//! accepted CNP, packet or query when the consumer keeps up), `dcqcn_np` (a CNP request `NP_LATENCY` = 5 cycles after an
//! accepted CE mark that passes the limiter; its counters one cycle later) and
//! `hpcc_window`. Backpressure on the CNP output holds only the NP.
//!
//! ## Per-QP modes (DCQCN, host rate, off, HPCC)
//! The mode of a QP lives in the RP's state, set by the command stream's set-mode (op 1,
//! mode 0..=3). A QP in any mode but DCQCN has its CNPs and transmitted packets ignored by
//! the RP. HPCC (mode 3) is joined to the RP at its report output:
//! - The RP's report of a command (reset or set-mode) or of a query for a QP in HPCC mode
//!   does not leave the core: it becomes a command to the window unit, an init (the QP
//!   enters HPCC mode: R = Rc = max rate, U = 1, no path) or a query, and the window unit's report of it leaves in its place, with `m_rate_ctl` or
//!   `m_rate_query` set as the RP's was. The RP's reports of ignored CNPs and packets of
//!   an HPCC QP are dropped: the QP's rate is the window unit's, reported on every ACK.
//!   (A reset, op 0, puts a QP back into DCQCN mode, as the RP defines it, so only a
//!   set-mode to HPCC inits the window unit.)
//! - The RP's reports pass a register slice (`rslice`, `crate::reg_slice`) before the
//!   core reads them; the commands and queries for the window unit pass another
//!   (`cslice`), the window unit's reports a third (`wslice`) and the merge's reports a
//!   fourth (`oslice`, whose registers are `m_rate_*`). Each slice's outputs and ready
//!   are registers, so the merge's handshake reaches neither unit's internals nor the
//!   consumer (without them a path ran from the window unit's command state through the
//!   merge into the RP's report FIFO, and from the merge into the register block's query
//!   capture). Each adds one cycle to its reports' latency.
//! - The mode RAM (one bit per QP, block RAM with a registered read) says which QPs are
//!   in HPCC mode for the ACK stream. The bit is written when the RP's report of a
//!   set-mode or reset leaves `rslice`: set for a set-mode to HPCC (at the edge its init
//!   enters `cslice`), cleared otherwise. It is swept to 0 after reset.
//! - An accepted ACK waits one cycle in the filter register, while the mode RAM is read
//!   at its QP. If the bit is clear the ACK is dropped (`cnt_ack_ignored`); if set it is
//!   offered to the window unit while `cslice` is empty and leaves the register when the
//!   unit takes it. The RAM read follows the register: a write to the QP's bit is seen
//!   one cycle later; holding ACKs while a command waits keeps an ACK that saw the bit set
//!   behind the init that set it.
//! - Reports of both slices meet in the merge: one report per cycle, the two sources in
//!   turn when both have one, and an offer `oslice` does not take is held (the same
//!   source next cycle); `m_rate_*` keeps its payload until `m_rate_ready`. A window unit report
//!   has `m_rate_mode` = 3, R on `m_rate_rc`, Rc on `m_rate_rt`, U and the window on
//!   `m_rate_u` and `m_rate_window`; an RP report has 0 in those two.

use crate::ctl_slice::CtlSlice;
use crate::dcqcn_np::{COUNTER_W, DSCP_W, DcqcnNp, ECN_W, NpCfgWord, PRIO_W};
use crate::dcqcn_rp::DcqcnRp;
use crate::dcqcn_rp::state::RateReport;
use crate::dcqcn_rp::state::{RpCfgWord, TimeWord};
use crate::dcqcn_rp::widths::*;
use crate::hpcc_window::hop_load::{CodeConsts, U_W};
use crate::hpcc_window::window::{
    HOPS, HpccCfgWord, HpccReport, HpccWindow, IntHop, KIND_ACK, KIND_QUERY, REP_CREDITS, WIN_W,
};
use crate::reg_slice::RegSlice;
use rust_hdl::prelude::*;

/// The mode number of HPCC on the command stream and in the reports.
pub const MODE_HPCC: u64 = 3;
/// Hops an ACK may carry at most (an ACK with more, or none, is rejected).
pub const ACK_HOPS_MAX: u64 = HOPS as u64;

const _: () = assert!(REP_CREDITS + 3 <= 64); // the ctl flags `tq` of the window's commands

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
    /// Mode for op 1 (0 DCQCN, 1 rate set by the host, 2 off, 3 HPCC).
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

    /* ACK stream (HPCC window unit) */
    /// An ACK with its INT stack was received for QP `s_ack_qpn`.
    pub s_ack_valid: Signal<In, Bit>,
    /// Taken this cycle (always, for an ACK that is rejected).
    pub s_ack_ready: Signal<Out, Bit>,
    /// QP number of the ACK.
    pub s_ack_qpn: Signal<In, Bits<QPN_W>>,
    /// The acknowledged sequence number, bytes.
    pub s_ack_seq: Signal<In, Bits<32>>,
    /// The sender's next sequence number when the ACK is processed, bytes.
    pub s_ack_snd_nxt: Signal<In, Bits<32>>,
    /// Hops in the INT stack, 1..=5 (any other count is rejected).
    pub s_ack_nhop: Signal<In, Bits<3>>,
    /// The INT stack in wire units (hops `0..nhop`; the others are not read).
    pub s_ack_hop: [Signal<In, IntHop>; HOPS],

    /* Per-QP rate reports (one per accepted RP event) */
    /// A report is offered (held with its payload until `m_rate_ready`).
    pub m_rate_valid: Signal<Out, Bit>,
    /// The consumer (pacer) takes it; while low, reports collect in the units' report
    /// FIFOs, and a unit's inputs stop when its FIFO is full.
    pub m_rate_ready: Signal<In, Bit>,
    /// QP reported.
    pub m_rate_qp: Signal<Out, Bits<QB>>,
    /// The report answers a query (else it follows a CNP or a transmitted packet).
    pub m_rate_query: Signal<Out, Bit>,
    /// A rate limiter is allocated to the QP.
    pub m_rate_limited: Signal<Out, Bit>,
    /// The QP's sending rate, Mb/s Q.8: DCQCN's current rate Rc, the host's rate, the max
    /// rate (off), or HPCC's R.
    pub m_rate_rc: Signal<Out, Bits<RATE_W>>,
    /// DCQCN's target rate Rt, or HPCC's reference rate Rc, Mb/s Q.8.
    pub m_rate_rt: Signal<Out, Bits<RATE_W>>,
    /// alpha, Q.20 (0 when not limited, and for HPCC).
    pub m_rate_alpha: Signal<Out, Bits<ALPHA_W>>,
    /// The QP's mode after the event (0 DCQCN, 1 rate set by the host, 2 off, 3 HPCC).
    pub m_rate_mode: Signal<Out, Bits<MODE_W>>,
    /// The report follows a command of the register block (`s_ctl_*`).
    pub m_rate_ctl: Signal<Out, Bit>,
    /// HPCC's U, Q.24 (0 for other modes).
    pub m_rate_u: Signal<Out, Bits<U_W>>,
    /// HPCC's window `R * T / 8000`, bytes (0 for other modes).
    pub m_rate_window: Signal<Out, Bits<WIN_W>>,

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
    /// HPCC parameters in hardware form (`hpcc_window::cfg::HpccCfg`).
    pub hpcc_cfg: Signal<In, HpccCfgWord>,
    /// HPCC per-rate-code constants of a hop's load (`hpcc_window::cfg::HpccCfg`).
    pub hpcc_k: Signal<In, CodeConsts>,

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
    /// ACKs rejected: QP number out of range, or a hop count outside 1..=5.
    pub cnt_bad_ack: Signal<Out, Bits<COUNTER_W>>,
    /// ACKs dropped because their QP was not in HPCC mode (counted a cycle after the drop).
    pub cnt_ack_ignored: Signal<Out, Bits<COUNTER_W>>,
    /// ACKs the window unit applied (counted as their report is written; wrap at 2^32).
    pub cnt_ack_applied: Signal<Out, Bits<32>>,
    /// Applied ACKs that committed (first of a round trip; wrap at 2^32).
    pub cnt_ack_commits: Signal<Out, Bits<32>>,

    /// The command stream's register slice: it takes the register block's commands and
    /// hands each unit its part (`ctl_slice`).
    ctl: CtlSlice<QB>,
    rp: DcqcnRp<QB>,
    np: DcqcnNp<QB>,
    win: HpccWindow<QB>,
    /// The RP's reports, registered before the core reads them.
    rslice: RegSlice<RateReport, QB>,
    /// HPCC QPs' commands and queries, registered before the window unit.
    cslice: RegSlice<WinCmd, QB>,
    /// The window unit's reports, registered before the merge.
    wslice: RegSlice<HpccReport, QB>,
    /// The merge's reports, registered before `m_rate_*`.
    oslice: RegSlice<CoreRate, QB>,
    /// One bit per QP: in HPCC mode (for the ACK stream's filter).
    mode_ram: RAM<Bit, QB>,
    /// The mode RAM's reset sweep: address, running.
    msw: DFF<Bits<QB>>,
    msw_busy: DFF<Bit>,
    qb_last: Constant<Bits<QB>>,
    one_qb: Constant<Bits<QB>>,
    /// The ACK filter register: an accepted ACK while the mode RAM is read at its QP.
    f_v: DFF<Bit>,
    f_qp: DFF<Bits<QB>>,
    f_seq: DFF<Bits<32>>,
    f_snd: DFF<Bits<32>>,
    f_nhop: DFF<Bits<3>>,
    f_hop: [DFF<IntHop>; HOPS],
    /// The filter register is free at this edge (empty, dropping, or taken by the unit).
    f_free: Signal<Local, Bit>,
    /// An ACK is taken into the filter register at this edge.
    f_load: Signal<Local, Bit>,
    /// The filter register's ACK is offered to the window unit.
    f_pass: Signal<Local, Bit>,
    ack_bad: Signal<Local, Bit>,
    nhop_max: Constant<Bits<3>>,
    mode_hpcc: Constant<Bits<MODE_W>>,
    kind_query: Constant<Bits<2>>,
    /// The RP's report is of an HPCC QP.
    rp_h: Signal<Local, Bit>,
    /// The RP's report is a command's or a query's.
    rp_cmd: Signal<Local, Bit>,
    /// The RP's report goes to the merge (a QP not in HPCC mode).
    rp_pass: Signal<Local, Bit>,
    /// The RP's report is taken at this edge.
    rp_take: Signal<Local, Bit>,
    /// The merge offers the window unit's report (else the RP's).
    pick_w: Signal<Local, Bit>,
    /// The merge's offer was not taken last cycle (it stays with `arb_sel`).
    arb_hold: DFF<Bit>,
    /// The source the merge offered last cycle (1: the window unit).
    arb_sel: DFF<Bit>,
    /// The source of the last report taken (the other goes first next time both offer).
    arb_last: DFF<Bit>,
    /// The window unit's report fields the core does not pass on.
    rep_unused: Signal<Local, Bit>,
    /// The `m_rate_ctl` flags of the commands given to the window unit whose reports have
    /// not left the merge, oldest in bit 0 (a register-block query's answer has both
    /// `ctl` and `query` set, a stream query's only `query`). At most `REP_CREDITS` + 3
    /// = 64 are owed (the unit's report credits, its command register and the two
    /// registers of `wslice`), so the 64th is pushed into bit 63.
    tq: DFF<Bits<64>>,
    /// Flags held in `tq`.
    tq_n: DFF<Bits<7>>,
    tq_base: Signal<Local, Bits<64>>,
    tq_nx: Signal<Local, Bits<7>>,
    tq_pop: Signal<Local, Bit>,
    one7: Constant<Bits<7>>,
    one64: Constant<Bits<64>>,
    kind_ack: Constant<Bits<2>>,
    bad_ack: DFF<Bits<COUNTER_W>>,
    ign_ack: DFF<Bits<COUNTER_W>>,
    hit_ack: DFF<Bit>,
    hit_ign: DFF<Bit>,
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

/// A report on `m_rate_*`, as it waits in the core's output slice (the fields of the
/// `m_rate_*` ports of the same names).
#[derive(Clone, Copy, Debug, Default, PartialEq, LogicStruct)]
pub struct CoreRate {
    /// The report answers a query.
    pub query: Bit,
    /// A DCQCN rate limiter is allocated to the QP (0 for an HPCC report).
    pub limited: Bit,
    /// Rc (DCQCN) or R (HPCC), Mb/s Q.8.
    pub rc: Bits<RATE_W>,
    /// Rt (DCQCN) or Rc (HPCC), Mb/s Q.8.
    pub rt: Bits<RATE_W>,
    /// DCQCN alpha, Q.20 (0 for an HPCC report).
    pub alpha: Bits<ALPHA_W>,
    /// The QP's mode after the event.
    pub mode: Bits<MODE_W>,
    /// The report follows a register-block command.
    pub ctl: Bit,
    /// HPCC U, Q.24 (0 for an RP report).
    pub u: Bits<U_W>,
    /// HPCC window, bytes (0 for an RP report).
    pub window: Bits<WIN_W>,
}

/// A command to the window unit in the core's command slice (its QP beside it).
#[derive(Clone, Copy, Debug, Default, PartialEq, LogicStruct)]
pub struct WinCmd {
    /// A query (`CMD_QUERY`), else an init (`CMD_INIT`).
    pub query: Bit,
    /// The `m_rate_ctl` flag its report leaves with.
    pub ctl: Bit,
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
            cnt_bad_ack: Default::default(),
            cnt_ack_ignored: Default::default(),
            cnt_ack_applied: Default::default(),
            cnt_ack_commits: Default::default(),
            s_ack_valid: Default::default(),
            s_ack_ready: Default::default(),
            s_ack_qpn: Default::default(),
            s_ack_seq: Default::default(),
            s_ack_snd_nxt: Default::default(),
            s_ack_nhop: Default::default(),
            s_ack_hop: Default::default(),
            m_rate_u: Default::default(),
            m_rate_window: Default::default(),
            hpcc_cfg: Default::default(),
            hpcc_k: Default::default(),
            ctl: CtlSlice::new(),
            rp: DcqcnRp::new(),
            np: DcqcnNp::new(),
            win: HpccWindow::default(),
            rslice: Default::default(),
            cslice: Default::default(),
            wslice: Default::default(),
            oslice: Default::default(),
            mode_ram: RAM::default(),
            msw: Default::default(),
            msw_busy: Default::default(),
            qb_last: Constant::new(((1u64 << QB) - 1).into()),
            one_qb: Constant::new(1.into()),
            f_v: Default::default(),
            f_qp: Default::default(),
            f_seq: Default::default(),
            f_snd: Default::default(),
            f_nhop: Default::default(),
            f_hop: Default::default(),
            f_free: Default::default(),
            f_load: Default::default(),
            f_pass: Default::default(),
            ack_bad: Default::default(),
            nhop_max: Constant::new(ACK_HOPS_MAX.into()),
            mode_hpcc: Constant::new(MODE_HPCC.into()),
            kind_query: Constant::new(KIND_QUERY.into()),
            rp_h: Default::default(),
            rp_cmd: Default::default(),
            rp_pass: Default::default(),
            rp_take: Default::default(),
            pick_w: Default::default(),
            arb_hold: Default::default(),
            arb_sel: Default::default(),
            arb_last: Default::default(),
            rep_unused: Default::default(),
            tq: Default::default(),
            tq_n: Default::default(),
            tq_base: Default::default(),
            tq_nx: Default::default(),
            tq_pop: Default::default(),
            one7: Constant::new(1.into()),
            one64: Constant::new(1.into()),
            kind_ack: Constant::new(KIND_ACK.into()),
            bad_ack: Default::default(),
            ign_ack: Default::default(),
            hit_ack: Default::default(),
            hit_ign: Default::default(),
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
            self, clock, bad_cnp, bad_tx, bad_query, bad_rx, hit_cnp, hit_tx, hit_query, hit_rx,
            msw, msw_busy, f_v, f_qp, f_seq, f_snd, f_nhop, arb_hold, arb_sel, arb_last, bad_ack,
            ign_ack, hit_ack, hit_ign, tq, tq_n
        );
        for h in 0..HOPS {
            self.f_hop[h].clock.next = self.clock.val();
            self.f_hop[h].d.next = self.f_hop[h].q.val();
        }
        self.win.clock.next = self.clock.val();
        self.win.reset.next = self.reset.val();
        self.mode_ram.read_clock.next = self.clock.val();
        self.mode_ram.write_clock.next = self.clock.val();
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

        // ---- ACK stream: check, filter register, mode RAM ----
        self.ack_bad.next = (self.s_ack_qpn.val() & self.qpn_hi_mask.val()).any()
            | !self.s_ack_nhop.val().any()
            | (self.s_ack_nhop.val() > self.nhop_max.val());
        // An ACK waits while a command is in the command slice: the mode bit of a QP set to
        // HPCC is written as its init enters the slice, and the ACK must follow the init.
        self.f_pass.next =
            self.f_v.q.val() & self.mode_ram.read_data.val() & !self.cslice.m_valid.val();
        self.f_free.next = !self.f_v.q.val()
            | !self.mode_ram.read_data.val()
            | (self.win.s_ack_ready.val() & !self.cslice.m_valid.val());
        self.f_load.next = self.s_ack_valid.val()
            & !self.ack_bad.val()
            & self.f_free.val()
            & !self.msw_busy.q.val();
        self.s_ack_ready.next = self.ack_bad.val() | (self.f_free.val() & !self.msw_busy.q.val());
        if self.f_free.val() {
            self.f_v.d.next = self.f_load.val();
        }
        self.mode_ram.read_address.next = self.f_qp.q.val();
        if self.f_load.val() {
            self.f_qp.d.next = self.s_ack_qpn.val().get_bits::<QB>(0);
            self.f_seq.d.next = self.s_ack_seq.val();
            self.f_snd.d.next = self.s_ack_snd_nxt.val();
            self.f_nhop.d.next = self.s_ack_nhop.val();
            self.f_hop[0].d.next = self.s_ack_hop[0].val();
            self.f_hop[1].d.next = self.s_ack_hop[1].val();
            self.f_hop[2].d.next = self.s_ack_hop[2].val();
            self.f_hop[3].d.next = self.s_ack_hop[3].val();
            self.f_hop[4].d.next = self.s_ack_hop[4].val();
            self.mode_ram.read_address.next = self.s_ack_qpn.val().get_bits::<QB>(0);
        }
        self.win.s_ack_valid.next = self.f_pass.val();
        self.win.s_ack_qp.next = self.f_qp.q.val();
        self.win.s_ack_seq.next = self.f_seq.q.val();
        self.win.s_ack_snd_nxt.next = self.f_snd.q.val();
        self.win.s_ack_nhop.next = self.f_nhop.q.val();
        self.win.s_ack_hop[0].next = self.f_hop[0].q.val();
        self.win.s_ack_hop[1].next = self.f_hop[1].q.val();
        self.win.s_ack_hop[2].next = self.f_hop[2].q.val();
        self.win.s_ack_hop[3].next = self.f_hop[3].q.val();
        self.win.s_ack_hop[4].next = self.f_hop[4].q.val();
        self.win.cfg.next = self.hpcc_cfg.val();
        self.win.cfg_k.next = self.hpcc_k.val();

        // ---- the RP's reports, through their slice ----
        self.rslice.clock.next = self.clock.val();
        self.rslice.reset.next = self.reset.val();
        self.rslice.s_valid.next = self.rp.m_rate_valid.val();
        self.rp.m_rate_ready.next = self.rslice.s_ready.val();
        self.rslice.s_qp.next = self.rp.m_rate_qp.val();
        self.rslice.s_data.next.query = self.rp.m_rate_query.val();
        self.rslice.s_data.next.limited = self.rp.m_rate_limited.val();
        self.rslice.s_data.next.rc = self.rp.m_rate_rc.val();
        self.rslice.s_data.next.rt = self.rp.m_rate_rt.val();
        self.rslice.s_data.next.alpha = self.rp.m_rate_alpha.val();
        self.rslice.s_data.next.mode = self.rp.m_rate_mode.val();
        self.rslice.s_data.next.ctl = self.rp.m_rate_ctl.val();

        // ---- HPCC QPs' commands and queries: through the command slice to the unit ----
        self.rp_h.next = self.rslice.m_data.val().mode == self.mode_hpcc.val();
        self.rp_cmd.next = self.rslice.m_data.val().ctl | self.rslice.m_data.val().query;
        self.rp_pass.next = self.rslice.m_valid.val() & !self.rp_h.val() & !self.msw_busy.q.val();
        self.cslice.clock.next = self.clock.val();
        self.cslice.reset.next = self.reset.val();
        self.cslice.s_valid.next = self.rslice.m_valid.val()
            & self.rp_h.val()
            & self.rp_cmd.val()
            & !self.msw_busy.q.val();
        self.cslice.s_qp.next = self.rslice.m_qp.val();
        self.cslice.s_data.next.query = self.rslice.m_data.val().query;
        self.cslice.s_data.next.ctl = self.rslice.m_data.val().ctl;
        self.win.s_cmd_valid.next = self.cslice.m_valid.val();
        self.cslice.m_ready.next = self.win.s_cmd_ready.val();
        self.win.s_cmd_qp.next = self.cslice.m_qp.val();
        // CMD_INIT (0) for a reset or set-mode, CMD_QUERY (1) for a query.
        self.win.s_cmd_op.next = self.cslice.m_data.val().query;

        // ---- the window unit's reports, through their slice ----
        self.wslice.clock.next = self.clock.val();
        self.wslice.reset.next = self.reset.val();
        self.wslice.s_valid.next = self.win.m_rep_valid.val();
        self.win.m_rep_ready.next = self.wslice.s_ready.val();
        self.wslice.s_qp.next = self.win.m_rep_qp.val();
        self.wslice.s_data.next = self.win.m_rep.val();

        // ---- merge: one report per cycle from the two slices ----
        if self.arb_hold.q.val() {
            self.pick_w.next = self.arb_sel.q.val();
        } else {
            self.pick_w.next =
                self.wslice.m_valid.val() & (!self.rp_pass.val() | !self.arb_last.q.val());
        }
        if self.rp_h.val() {
            if self.rp_cmd.val() {
                self.rp_take.next = self.cslice.s_ready.val() & !self.msw_busy.q.val();
            } else {
                // An ignored CNP or packet of an HPCC QP: its report is dropped.
                self.rp_take.next = !self.msw_busy.q.val();
            }
        } else {
            self.rp_take.next = self.rp_pass.val() & self.oslice.s_ready.val() & !self.pick_w.val();
        }
        self.rslice.m_ready.next = self.rp_take.val();
        self.wslice.m_ready.next = self.oslice.s_ready.val() & self.pick_w.val();
        // Not reported by the core: the effect of an ACK, whether it committed, inc_stage.
        // (`.xor()` of the field, not `get_bit` on it: rust-hdl writes a bit select of a
        // struct field as a select of a part select, which yosys 0.23 refuses.)
        self.rep_unused.next = self.wslice.m_data.val().effect.xor()
            ^ (self.wslice.m_data.val().commit ^ self.wslice.m_data.val().stage.xor());
        if self.pick_w.val() {
            self.oslice.s_valid.next = self.wslice.m_valid.val();
            self.oslice.s_qp.next = self.wslice.m_qp.val();
            self.oslice.s_data.next.query = self.wslice.m_data.val().kind == self.kind_query.val();
            self.oslice.s_data.next.ctl =
                (self.wslice.m_data.val().kind != self.kind_ack.val()) & self.tq.q.val().get_bit(0);
            self.oslice.s_data.next.limited = false;
            self.oslice.s_data.next.rc = self.wslice.m_data.val().r;
            self.oslice.s_data.next.rt = self.wslice.m_data.val().rc;
            self.oslice.s_data.next.alpha = 0.into();
            self.oslice.s_data.next.mode = self.mode_hpcc.val();
            self.oslice.s_data.next.u = self.wslice.m_data.val().u;
            self.oslice.s_data.next.window = self.wslice.m_data.val().window;
        } else {
            self.oslice.s_valid.next = self.rp_pass.val();
            self.oslice.s_qp.next = self.rslice.m_qp.val();
            self.oslice.s_data.next.query = self.rslice.m_data.val().query;
            self.oslice.s_data.next.ctl = self.rslice.m_data.val().ctl;
            self.oslice.s_data.next.limited = self.rslice.m_data.val().limited;
            self.oslice.s_data.next.rc = self.rslice.m_data.val().rc;
            self.oslice.s_data.next.rt = self.rslice.m_data.val().rt;
            self.oslice.s_data.next.alpha = self.rslice.m_data.val().alpha;
            self.oslice.s_data.next.mode = self.rslice.m_data.val().mode;
            self.oslice.s_data.next.u = 0.into();
            self.oslice.s_data.next.window = 0.into();
        }
        // The ctl flags of the window unit's commands, in command order.
        self.tq_pop.next = self.wslice.m_valid.val()
            & self.oslice.s_ready.val()
            & self.pick_w.val()
            & (self.wslice.m_data.val().kind != self.kind_ack.val());
        self.tq_base.next = self.tq.q.val();
        self.tq_nx.next = self.tq_n.q.val();
        if self.tq_pop.val() {
            self.tq_base.next = self.tq.q.val() >> self.one7.val();
            self.tq_nx.next = self.tq_n.q.val() - self.one7.val();
        }
        self.tq.d.next = self.tq_base.val();
        self.tq_n.d.next = self.tq_nx.val();
        if self.cslice.m_valid.val() & self.win.s_cmd_ready.val() {
            if self.cslice.m_data.val().ctl {
                self.tq.d.next = self.tq_base.val() | (self.one64.val() << self.tq_nx.val());
            }
            self.tq_n.d.next = self.tq_nx.val() + self.one7.val();
        }
        self.arb_hold.d.next = self.oslice.s_valid.val() & !self.oslice.s_ready.val();
        self.arb_sel.d.next = self.pick_w.val();
        if self.oslice.s_valid.val() & self.oslice.s_ready.val() {
            self.arb_last.d.next = self.pick_w.val();
        }

        // ---- the merge's output slice: `m_rate_*` are its registers ----
        self.oslice.clock.next = self.clock.val();
        self.oslice.reset.next = self.reset.val();
        self.oslice.m_ready.next = self.m_rate_ready.val();
        self.m_rate_valid.next = self.oslice.m_valid.val();
        self.m_rate_qp.next = self.oslice.m_qp.val();
        self.m_rate_query.next = self.oslice.m_data.val().query;
        self.m_rate_ctl.next = self.oslice.m_data.val().ctl;
        self.m_rate_limited.next = self.oslice.m_data.val().limited;
        self.m_rate_rc.next = self.oslice.m_data.val().rc;
        self.m_rate_rt.next = self.oslice.m_data.val().rt;
        self.m_rate_alpha.next = self.oslice.m_data.val().alpha;
        self.m_rate_mode.next = self.oslice.m_data.val().mode;
        self.m_rate_u.next = self.oslice.m_data.val().u;
        self.m_rate_window.next = self.oslice.m_data.val().window;

        // ---- mode RAM writes: the sweep, or a command's report leaving the RP ----
        if self.msw_busy.q.val() {
            self.mode_ram.write_address.next = self.msw.q.val();
            self.mode_ram.write_data.next = false;
            self.mode_ram.write_enable.next = true;
            self.msw.d.next = self.msw.q.val() + self.one_qb.val();
            if self.msw.q.val() == self.qb_last.val() {
                self.msw_busy.d.next = false;
            }
        } else {
            self.mode_ram.write_address.next = self.rslice.m_qp.val();
            self.mode_ram.write_data.next = self.rp_h.val();
            self.mode_ram.write_enable.next = self.rslice.m_valid.val()
                & self.rslice.m_data.val().ctl
                & !self.rslice.m_data.val().query
                & self.rp_take.val();
        }

        // ---- counters ----
        // (each counts a cycle after its event, from a register of the hit)
        self.hit_cnp.d.next = self.s_cnp_valid.val() & self.cnp_bad.val();
        self.hit_tx.d.next = self.s_tx_valid.val() & self.tx_bad.val();
        self.hit_query.d.next = self.s_query_valid.val() & self.query_bad.val();
        self.hit_rx.d.next = self.s_rx_valid.val() & self.rx_bad.val();
        self.hit_ack.d.next = self.s_ack_valid.val() & self.ack_bad.val();
        self.hit_ign.d.next = self.f_v.q.val() & !self.mode_ram.read_data.val();
        if self.hit_ack.q.val() {
            self.bad_ack.d.next = self.bad_ack.q.val() + self.one_count.val();
        }
        if self.hit_ign.q.val() {
            self.ign_ack.d.next = self.ign_ack.q.val() + self.one_count.val();
        }
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
            self.hit_ack.d.next = false;
            self.hit_ign.d.next = false;
            self.bad_ack.d.next = 0.into();
            self.ign_ack.d.next = 0.into();
            self.f_v.d.next = false;
            self.arb_hold.d.next = false;
            self.arb_sel.d.next = false;
            self.arb_last.d.next = false;
            self.msw.d.next = 0.into();
            self.msw_busy.d.next = true;
            self.tq.d.next = 0.into();
            self.tq_n.d.next = 0.into();
        }
        self.busy.next =
            self.rp.busy.val() | self.np.busy.val() | self.win.busy.val() | self.msw_busy.q.val();
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
        self.cnt_bad_ack.next = self.bad_ack.q.val();
        self.cnt_ack_ignored.next = self.ign_ack.q.val();
        self.cnt_ack_applied.next = self.win.cnt_acks.val();
        self.cnt_ack_commits.next = self.win.cnt_commits.val();
    }
}
