//! `dcqcn_rp`: the DCQCN reaction point for `2^QB` QPs, one event per clock cycle (one per
//! `UPD_STAGES + 1` cycles on the same QP).
//!
//! Behaviour: `../shared/reference/dcqcn.md` "RP behaviour"; bit-accurate statement:
//! `sim::dcqcn_rp` (the golden model); design notes, widths, formats and rounding:
//! `docs/dcqcn_rp.md`.
//!
//! ```text
//!  s_cnp_*  ─┐ fixed priority ┌────┐ RAM read ┌────┐ registered ┌──────────────────────┐
//!  s_tx_*   ─┼ arbiter +      ┤ S1 ├─────────►│ S2 ├─── word ──►│ RpUpdate: steps A..E │─► m_rate_*
//!  s_query_*─┘ same-QP        └────┘ (QpWord) └────┘ + forward  │ (UPD_STAGES = 124)  │
//!              interlock                        ▲  from W1,W2 └──────────┬───────────┘
//!                                               └──── write back ◄──────┘
//! ```
//!
//! Pipeline: an event accepted in cycle `c` has its state word read from block RAM at the
//! end of `c` (S1) and registered at the end of `c+1` (S2: registered RAM output). Its next
//! state is computed by [`update::RpUpdate`] in `1 + UPD_STAGES` steps from `c+2` and
//! written back at the end of `c+2+UPD_STAGES`; its report (the QP's state after the event;
//! for a query, its state now) is valid [`RP_REPORT_LATENCY`] cycles after acceptance. The
//! report stream is the per-QP rate update the pacer follows; `m_rate_query` marks the
//! answers to queries. Queries write nothing.
//!
//! Events on different QPs are accepted one per cycle. An event whose QP is written by an
//! event in S1, S2 or the first `UPD_STAGES - 2` update registers waits at the input (the
//! same-QP interlock, all `s_*_ready` low); the two words written last (W1, W2) are
//! forwarded to S2, newest first. So an event on one QP follows the previous one that
//! wrote it by at least `UPD_STAGES + 1` cycles, and every sequence is applied exactly as
//! the golden model applies it. When `m_rate_valid && !m_rate_ready` the whole pipeline
//! holds (all `s_*_ready` low).
//!
//! Commands (`s_ctl_*`, from the register block) reset a QP's state or set its mode; a QP
//! not in DCQCN mode ignores CNPs and packets and reports the host's rate or the max rate
//! (`docs/dcqcn_rp.md`, "Modes"). `cnt_cnp_received` and `cnt_rate_cuts` count what the
//! events that write back did.
//!
//! After `reset` the RAM is swept to "not limited" for `2^QB` cycles (`busy` high, all
//! `s_*_ready` low). The power table (`tbl_*`) must be loaded (`sim::dcqcn_rp::RpConfig`
//! computes it) before the first event; `cfg` and the table may only change while no event
//! is in flight.

pub mod alpha;
pub mod inc_count;
pub mod rate;
pub mod state;
pub mod timer;
pub mod update;
pub mod widths;

use crate::COUNTER_W;
use crate::lut_ram::LutRam;
use inc_count::IncCount;
use rust_hdl::prelude::*;
use state::{QpWord, RpCfgWord, TimeWord};
use update::{RpUpdate, UPD_STAGES};
use widths::*;

/// Cycles from an event's acceptance (the edge that takes it) to its report's
/// `m_rate_valid`, when the report stream does not stall: S1, S2 (step A), the update's
/// [`UPD_STAGES`](update::UPD_STAGES) registers, the report register.
pub const RP_REPORT_LATENCY: usize = 3 + UPD_STAGES;

/// Update registers whose event's word would reach the RAM or the forwarding registers
/// too late for an event offered now: the interlock compares the offered QP with S1, S2 and
/// the tags beside the update's first `HAZ_STAGES` registers.
const HAZ_STAGES: usize = UPD_STAGES - 2;

/// Index of the tag beside step E.
const UPD_LAST: usize = UPD_STAGES - 1;

/// The DCQCN reaction point for `2^QB` QPs (`1 <= QB <= 14`).
#[derive(LogicBlock)]
pub struct DcqcnRp<const QB: usize> {
    /// Clock; everything is synchronous to its rising edge.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset, active high: empties the pipeline and starts the RAM sweep.
    pub reset: Signal<In, Bit>,

    /* Command stream (register block): reset a QP, or set its mode */
    /// A command for `s_ctl_qp` (highest priority of the four inputs).
    pub s_ctl_valid: Signal<In, Bit>,
    /// The command is accepted this cycle.
    pub s_ctl_ready: Signal<Out, Bit>,
    /// QP of the command.
    pub s_ctl_qp: Signal<In, Bits<QB>>,
    /// 0: reset the QP's state; 1: reset it and set its mode to `s_ctl_mode`; 2 (or 3):
    /// query it (the register block's QP window; the report has `m_rate_ctl` set).
    pub s_ctl_op: Signal<In, Bits<CTL_OP_W>>,
    /// The mode (0 DCQCN, 1 rate set by the host, 2 off).
    pub s_ctl_mode: Signal<In, Bits<MODE_W>>,
    /// The host's rate for mode 1, Mb/s Q.8.
    pub s_ctl_rate: Signal<In, Bits<RATE_W>>,

    /* CNP received stream */
    /// A CNP was received for `s_cnp_qp`.
    pub s_cnp_valid: Signal<In, Bit>,
    /// The CNP is accepted this cycle (when no command is offered).
    pub s_cnp_ready: Signal<Out, Bit>,
    /// QP of the CNP.
    pub s_cnp_qp: Signal<In, Bits<QB>>,

    /* Packet transmitted stream */
    /// `s_tx_qp` transmitted a packet of `s_tx_bytes` bytes.
    pub s_tx_valid: Signal<In, Bit>,
    /// Accepted this cycle (when no command or CNP is offered).
    pub s_tx_ready: Signal<Out, Bit>,
    /// QP that transmitted.
    pub s_tx_qp: Signal<In, Bits<QB>>,
    /// Packet length, bytes.
    pub s_tx_bytes: Signal<In, Bits<BYTES_W>>,

    /* Rate query stream */
    /// Report the state of `s_query_qp`.
    pub s_query_valid: Signal<In, Bit>,
    /// Accepted this cycle (when no other input is offered).
    pub s_query_ready: Signal<Out, Bit>,
    /// QP to report.
    pub s_query_qp: Signal<In, Bits<QB>>,

    /* Rate report stream: one report per accepted event, in acceptance order */
    /// A report is offered.
    pub m_rate_valid: Signal<Out, Bit>,
    /// The consumer takes the report; low holds the whole pipeline.
    pub m_rate_ready: Signal<In, Bit>,
    /// QP reported.
    pub m_rate_qp: Signal<Out, Bits<QB>>,
    /// The report answers a query (1) or follows a CNP or a transmitted packet (0).
    pub m_rate_query: Signal<Out, Bit>,
    /// A rate limiter is allocated to the QP.
    pub m_rate_limited: Signal<Out, Bit>,
    /// Current rate Rc, Mb/s Q.8 (the max rate when not limited).
    pub m_rate_rc: Signal<Out, Bits<RATE_W>>,
    /// Target rate Rt, Mb/s Q.8 (the max rate when not limited).
    pub m_rate_rt: Signal<Out, Bits<RATE_W>>,
    /// alpha, Q.20 (0 when not limited).
    pub m_rate_alpha: Signal<Out, Bits<ALPHA_W>>,
    /// The QP's mode after the event (0 DCQCN, 1 rate set by the host, 2 off).
    pub m_rate_mode: Signal<Out, Bits<MODE_W>>,
    /// The report follows a command (`s_ctl_*`): the register block takes it.
    pub m_rate_ctl: Signal<Out, Bit>,

    /* Time and parameters */
    /// Now (sampled with each accepted event).
    pub now: Signal<In, TimeWord>,
    /// Parameters in hardware form.
    pub cfg: Signal<In, RpCfgWord>,
    /// Power-table write enable.
    pub tbl_we: Signal<In, Bit>,
    /// Power-table address: bit 7 selects `c^(128 j)` (1) or `c^j` (0), bits 6:0 are `j`.
    pub tbl_addr: Signal<In, Bits<TBL_ADDR_W>>,
    /// Power-table entry, Q.24.
    pub tbl_data: Signal<In, Bits<POW_W>>,
    /// The RAM sweep after reset is running; no event is accepted.
    pub busy: Signal<Out, Bit>,
    /// CNPs applied (any mode), since reset, wrapping.
    pub cnt_cnp_received: Signal<Out, Bits<COUNTER_W>>,
    /// Rate cuts applied, since reset, wrapping.
    pub cnt_rate_cuts: Signal<Out, Bits<COUNTER_W>>,
    /// Increase events applied in fast recovery, since reset, wrapping
    /// ([`inc_count::INC_COUNT_LAG`] cycles behind `cnt_cnp_received`: see `inc_count`).
    pub cnt_increase_fr: Signal<Out, Bits<COUNTER_W>>,
    /// Increase events applied in additive increase, since reset, wrapping
    /// (`INC_COUNT_LAG` cycles behind `cnt_cnp_received`).
    pub cnt_increase_ai: Signal<Out, Bits<COUNTER_W>>,
    /// Increase events applied in hyper increase, since reset, wrapping (`INC_COUNT_LAG`
    /// cycles behind `cnt_cnp_received`).
    pub cnt_increase_hai: Signal<Out, Bits<COUNTER_W>>,

    ram: RAM<QpWord, QB>,
    inc: IncCount,
    tbl_lo: LutRam<POW_W, 7>,
    tbl_hi: LutRam<POW_W, 7>,
    upd: RpUpdate,
    s1_valid: DFF<Bit>,
    s1_kind: DFF<Bits<KIND_W>>,
    s1_qp: DFF<Bits<QB>>,
    s1_bytes: DFF<Bits<BYTES_W>>,
    s1_mode: DFF<Bits<MODE_W>>,
    s1_rate: DFF<Bits<RATE_W>>,
    s1_now: DFF<TimeWord>,
    s1_ctl: DFF<Bit>,
    s2_valid: DFF<Bit>,
    s2_kind: DFF<Bits<KIND_W>>,
    s2_qp: DFF<Bits<QB>>,
    s2_bytes: DFF<Bits<BYTES_W>>,
    s2_mode: DFF<Bits<MODE_W>>,
    s2_rate: DFF<Bits<RATE_W>>,
    s2_now: DFF<TimeWord>,
    s2_ctl: DFF<Bit>,
    s2_word: DFF<QpWord>,
    /// The event's tag beside the update's registers (index 0 beside step A's registers,
    /// index `UPD_STAGES - 1` beside step E): valid.
    tag_valid: [DFF<Bit>; UPD_STAGES],
    /// The tagged event writes its QP back (valid and not a query): what the interlock
    /// compares.
    tag_wr: [DFF<Bit>; UPD_STAGES],
    /// The tagged event's kind.
    tag_kind: [DFF<Bits<KIND_W>>; UPD_STAGES],
    /// The tagged event's QP.
    tag_qp: [DFF<Bits<QB>>; UPD_STAGES],
    /// The tagged event came from the command stream.
    tag_ctl: [DFF<Bit>; UPD_STAGES],
    w1_valid: DFF<Bit>,
    w1_qp: DFF<Bits<QB>>,
    w1_word: DFF<QpWord>,
    w2_valid: DFF<Bit>,
    w2_qp: DFF<Bits<QB>>,
    w2_word: DFF<QpWord>,
    out_valid: DFF<Bit>,
    out_qp: DFF<Bits<QB>>,
    out_query: DFF<Bit>,
    out_limited: DFF<Bit>,
    out_rc: DFF<Bits<RATE_W>>,
    out_rt: DFF<Bits<RATE_W>>,
    out_alpha: DFF<Bits<ALPHA_W>>,
    out_mode: DFF<Bits<MODE_W>>,
    out_ctl: DFF<Bit>,
    sweep: DFF<Bits<QB>>,
    busy_q: DFF<Bit>,
    cnps: DFF<Bits<COUNTER_W>>,
    cuts: DFF<Bits<COUNTER_W>>,
    one_count: Constant<Bits<COUNTER_W>>,
    kind_reset: Constant<Bits<KIND_W>>,
    kind_mode: Constant<Bits<KIND_W>>,
    sweep_last: Constant<Bits<QB>>,
    zero_word: Constant<QpWord>,
    one_qb: Constant<Bits<QB>>,
    kind_cnp: Constant<Bits<KIND_W>>,
    kind_tx: Constant<Bits<KIND_W>>,
    kind_query: Constant<Bits<KIND_W>>,
    adv: Signal<Local, Bit>,
    take: Signal<Local, Bit>,
    in_valid: Signal<Local, Bit>,
    in_kind: Signal<Local, Bits<KIND_W>>,
    in_qp: Signal<Local, Bits<QB>>,
    fwd: Signal<Local, QpWord>,
    /// The tag beside step E: valid, writes back, kind, QP, from the command stream.
    e_valid: Signal<Local, Bit>,
    e_wr: Signal<Local, Bit>,
    e_kind: Signal<Local, Bits<KIND_W>>,
    e_qp: Signal<Local, Bits<QB>>,
    e_ctl: Signal<Local, Bit>,
    /// The event leaving the update (step E) writes its word back.
    wb_writes: Signal<Local, Bit>,
    /// The offered event's QP is written by an event still in flight (see the module docs).
    hazard: Signal<Local, Bit>,
}

impl<const QB: usize> DcqcnRp<QB> {
    /// A reaction point for `2^QB` QPs.
    pub fn new() -> Self {
        assert!(
            (1..=14).contains(&QB),
            "DcqcnRp: QB = {QB}; 2^QB QPs must be 2..=16384"
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
            s_cnp_qp: Default::default(),
            s_tx_valid: Default::default(),
            s_tx_ready: Default::default(),
            s_tx_qp: Default::default(),
            s_tx_bytes: Default::default(),
            s_query_valid: Default::default(),
            s_query_ready: Default::default(),
            s_query_qp: Default::default(),
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
            now: Default::default(),
            cfg: Default::default(),
            tbl_we: Default::default(),
            tbl_addr: Default::default(),
            tbl_data: Default::default(),
            busy: Default::default(),
            cnt_cnp_received: Default::default(),
            cnt_rate_cuts: Default::default(),
            cnt_increase_fr: Default::default(),
            cnt_increase_ai: Default::default(),
            cnt_increase_hai: Default::default(),
            ram: Default::default(),
            inc: Default::default(),
            tbl_lo: Default::default(),
            tbl_hi: Default::default(),
            upd: Default::default(),
            s1_valid: Default::default(),
            s1_kind: Default::default(),
            s1_qp: Default::default(),
            s1_bytes: Default::default(),
            s1_mode: Default::default(),
            s1_rate: Default::default(),
            s1_now: Default::default(),
            s1_ctl: Default::default(),
            s2_valid: Default::default(),
            s2_kind: Default::default(),
            s2_qp: Default::default(),
            s2_bytes: Default::default(),
            s2_mode: Default::default(),
            s2_rate: Default::default(),
            s2_now: Default::default(),
            s2_ctl: Default::default(),
            s2_word: Default::default(),
            tag_valid: std::array::from_fn(|_| Default::default()),
            tag_wr: std::array::from_fn(|_| Default::default()),
            tag_kind: std::array::from_fn(|_| Default::default()),
            tag_qp: std::array::from_fn(|_| Default::default()),
            tag_ctl: std::array::from_fn(|_| Default::default()),
            w1_valid: Default::default(),
            w1_qp: Default::default(),
            w1_word: Default::default(),
            w2_valid: Default::default(),
            w2_qp: Default::default(),
            w2_word: Default::default(),
            out_valid: Default::default(),
            out_qp: Default::default(),
            out_query: Default::default(),
            out_limited: Default::default(),
            out_rc: Default::default(),
            out_rt: Default::default(),
            out_alpha: Default::default(),
            out_mode: Default::default(),
            out_ctl: Default::default(),
            sweep: Default::default(),
            busy_q: Default::default(),
            cnps: Default::default(),
            cuts: Default::default(),
            one_count: Constant::new(1.into()),
            kind_reset: Constant::new(3.into()),
            kind_mode: Constant::new(4.into()),
            sweep_last: Constant::new(Bits::<QB>::mask()),
            zero_word: Constant::new(QpWord::default()),
            one_qb: Constant::new(1.into()),
            kind_cnp: Constant::new(0.into()),
            kind_tx: Constant::new(1.into()),
            kind_query: Constant::new(2.into()),
            adv: Default::default(),
            take: Default::default(),
            in_valid: Default::default(),
            in_kind: Default::default(),
            in_qp: Default::default(),
            fwd: Default::default(),
            wb_writes: Default::default(),
            hazard: Default::default(),
            e_valid: Default::default(),
            e_wr: Default::default(),
            e_kind: Default::default(),
            e_qp: Default::default(),
            e_ctl: Default::default(),
        }
    }
}

impl<const QB: usize> Default for DcqcnRp<QB> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const QB: usize> Logic for DcqcnRp<QB> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            s1_valid,
            s1_kind,
            s1_qp,
            s1_bytes,
            s1_mode,
            s1_rate,
            s1_now,
            s1_ctl,
            s2_valid,
            s2_kind,
            s2_qp,
            s2_bytes,
            s2_mode,
            s2_rate,
            s2_now,
            s2_ctl,
            s2_word,
            w1_valid,
            w1_qp,
            w1_word,
            w2_valid,
            w2_qp,
            w2_word,
            out_valid,
            out_qp,
            out_query,
            out_limited,
            out_rc,
            out_rt,
            out_alpha,
            out_mode,
            out_ctl,
            sweep,
            busy_q,
            cnps,
            cuts
        );
        for i in 0..UPD_STAGES {
            self.tag_valid[i].clock.next = self.clock.val();
            self.tag_valid[i].d.next = self.tag_valid[i].q.val();
            self.tag_wr[i].clock.next = self.clock.val();
            self.tag_wr[i].d.next = self.tag_wr[i].q.val();
            self.tag_kind[i].clock.next = self.clock.val();
            self.tag_kind[i].d.next = self.tag_kind[i].q.val();
            self.tag_qp[i].clock.next = self.clock.val();
            self.tag_qp[i].d.next = self.tag_qp[i].q.val();
            self.tag_ctl[i].clock.next = self.clock.val();
            self.tag_ctl[i].d.next = self.tag_ctl[i].q.val();
        }
        self.ram.read_clock.next = self.clock.val();
        self.ram.write_clock.next = self.clock.val();
        self.tbl_lo.clock.next = self.clock.val();
        self.tbl_hi.clock.next = self.clock.val();
        self.inc.clock.next = self.clock.val();

        // ---- power table load ----
        self.tbl_lo.we.next = self.tbl_we.val() & !self.tbl_addr.val().get_bit(7);
        self.tbl_hi.we.next = self.tbl_we.val() & self.tbl_addr.val().get_bit(7);
        self.tbl_lo.waddr.next = self.tbl_addr.val().get_bits::<7>(0);
        self.tbl_hi.waddr.next = self.tbl_addr.val().get_bits::<7>(0);
        self.tbl_lo.wdata.next = self.tbl_data.val();
        self.tbl_hi.wdata.next = self.tbl_data.val();

        // ---- input arbitration: command, CNP, packet, query ----
        self.in_valid.next = self.s_ctl_valid.val()
            | self.s_cnp_valid.val()
            | self.s_tx_valid.val()
            | self.s_query_valid.val();
        self.in_kind.next = self.kind_query.val();
        self.in_qp.next = self.s_query_qp.val();
        if self.s_ctl_valid.val() {
            self.in_kind.next = self.kind_reset.val();
            if self.s_ctl_op.val().get_bit(0) {
                self.in_kind.next = self.kind_mode.val();
            }
            if self.s_ctl_op.val().get_bit(1) {
                self.in_kind.next = self.kind_query.val();
            }
            self.in_qp.next = self.s_ctl_qp.val();
        } else if self.s_cnp_valid.val() {
            self.in_kind.next = self.kind_cnp.val();
            self.in_qp.next = self.s_cnp_qp.val();
        } else if self.s_tx_valid.val() {
            self.in_kind.next = self.kind_tx.val();
            self.in_qp.next = self.s_tx_qp.val();
        }

        // ---- same-QP interlock: the offered event waits while an event that writes its
        // QP is in S1, S2 or the update's first UPD_STAGES - 2 registers (its word would
        // reach the RAM or the forwarding registers too late to be read) ----
        self.hazard.next = false;
        if (self.s1_valid.q.val()
            & (self.s1_kind.q.val() != self.kind_query.val())
            & (self.s1_qp.q.val() == self.in_qp.val()))
            | (self.s2_valid.q.val()
                & (self.s2_kind.q.val() != self.kind_query.val())
                & (self.s2_qp.q.val() == self.in_qp.val()))
        {
            self.hazard.next = self.in_valid.val();
        }
        for i in 0..HAZ_STAGES {
            if self.tag_wr[i].q.val() & (self.tag_qp[i].q.val() == self.in_qp.val()) {
                self.hazard.next = self.in_valid.val();
            }
        }

        self.adv.next = !self.out_valid.q.val() | self.m_rate_ready.val();
        self.take.next = self.adv.val() & !self.busy_q.q.val() & !self.hazard.val();
        self.s_ctl_ready.next = self.take.val();
        self.s_cnp_ready.next = self.take.val() & !self.s_ctl_valid.val();
        self.s_tx_ready.next = self.take.val() & !self.s_ctl_valid.val() & !self.s_cnp_valid.val();
        self.s_query_ready.next = self.take.val()
            & !self.s_ctl_valid.val()
            & !self.s_cnp_valid.val()
            & !self.s_tx_valid.val();

        // ---- S1: read the QP's word (re-read the held event while stalled) ----
        self.ram.read_address.next = self.s1_qp.q.val();
        if self.adv.val() {
            self.ram.read_address.next = self.in_qp.val();
            self.s1_valid.d.next = self.take.val() & self.in_valid.val();
            self.s1_kind.d.next = self.in_kind.val();
            self.s1_qp.d.next = self.in_qp.val();
            self.s1_bytes.d.next = self.s_tx_bytes.val();
            self.s1_mode.d.next = self.s_ctl_mode.val();
            self.s1_rate.d.next = self.s_ctl_rate.val();
            self.s1_now.d.next = self.now.val();
            self.s1_ctl.d.next = self.s_ctl_valid.val();
        }

        // ---- S2: registered RAM output, forwarding, next state ----
        if self.adv.val() {
            self.s2_valid.d.next = self.s1_valid.q.val();
            self.s2_kind.d.next = self.s1_kind.q.val();
            self.s2_qp.d.next = self.s1_qp.q.val();
            self.s2_bytes.d.next = self.s1_bytes.q.val();
            self.s2_mode.d.next = self.s1_mode.q.val();
            self.s2_rate.d.next = self.s1_rate.q.val();
            self.s2_now.d.next = self.s1_now.q.val();
            self.s2_ctl.d.next = self.s1_ctl.q.val();
            self.s2_word.d.next = self.ram.read_data.val();
        }
        // ---- the event's tag through the update's steps (A -> tag 0 -> .. -> tag
        // UPD_STAGES - 1 = E) ----
        if self.adv.val() {
            self.tag_valid[0].d.next = self.s2_valid.q.val();
            self.tag_wr[0].d.next =
                self.s2_valid.q.val() & (self.s2_kind.q.val() != self.kind_query.val());
            self.tag_kind[0].d.next = self.s2_kind.q.val();
            self.tag_qp[0].d.next = self.s2_qp.q.val();
            self.tag_ctl[0].d.next = self.s2_ctl.q.val();
            for i in 1..UPD_STAGES {
                self.tag_valid[i].d.next = self.tag_valid[i - 1].q.val();
                self.tag_wr[i].d.next = self.tag_wr[i - 1].q.val();
                self.tag_kind[i].d.next = self.tag_kind[i - 1].q.val();
                self.tag_qp[i].d.next = self.tag_qp[i - 1].q.val();
                self.tag_ctl[i].d.next = self.tag_ctl[i - 1].q.val();
            }
        }
        self.fwd.next = self.s2_word.q.val();
        if self.w2_valid.q.val() & (self.w2_qp.q.val() == self.s2_qp.q.val()) {
            self.fwd.next = self.w2_word.q.val();
        }
        if self.w1_valid.q.val() & (self.w1_qp.q.val() == self.s2_qp.q.val()) {
            self.fwd.next = self.w1_word.q.val();
        }
        self.upd.clock.next = self.clock.val();
        self.upd.en.next = self.adv.val();
        self.upd.old.next = self.fwd.val();
        self.upd.kind.next = self.s2_kind.q.val();
        self.upd.bytes.next = self.s2_bytes.q.val();
        self.upd.ctl_mode.next = self.s2_mode.q.val();
        self.upd.ctl_rate.next = self.s2_rate.q.val();
        self.upd.now.next = self.s2_now.q.val();
        self.upd.cfg.next = self.cfg.val();
        self.tbl_lo.raddr0.next = self.upd.lo_addr0.val();
        self.tbl_hi.raddr0.next = self.upd.hi_addr0.val();
        self.tbl_lo.raddr1.next = self.upd.lo_addr1.val();
        self.tbl_hi.raddr1.next = self.upd.hi_addr1.val();
        self.upd.lo_val0.next = self.tbl_lo.rdata0.val();
        self.upd.hi_val0.next = self.tbl_hi.rdata0.val();
        self.upd.lo_val1.next = self.tbl_lo.rdata1.val();
        self.upd.hi_val1.next = self.tbl_hi.rdata1.val();

        // ---- the tag beside step E (an array index in `hdl_gen` must be a literal or a
        // loop variable: a one-pass loop names the last one) ----
        for i in UPD_LAST..UPD_STAGES {
            self.e_valid.next = self.tag_valid[i].q.val();
            self.e_wr.next = self.tag_wr[i].q.val();
            self.e_kind.next = self.tag_kind[i].q.val();
            self.e_qp.next = self.tag_qp[i].q.val();
            self.e_ctl.next = self.tag_ctl[i].q.val();
        }

        // ---- write back (or sweep) from step E, history for forwarding, report ----
        self.wb_writes.next = self.e_wr.val();
        self.ram.write_enable.next = self.adv.val() & self.wb_writes.val();
        self.ram.write_address.next = self.e_qp.val();
        self.ram.write_data.next = self.upd.next_word.val();
        if self.adv.val() {
            self.w1_valid.d.next = self.wb_writes.val();
            self.w1_qp.d.next = self.e_qp.val();
            self.w1_word.d.next = self.upd.next_word.val();
            self.w2_valid.d.next = self.w1_valid.q.val();
            self.w2_qp.d.next = self.w1_qp.q.val();
            self.w2_word.d.next = self.w1_word.q.val();
            self.out_valid.d.next = self.e_valid.val();
            self.out_qp.d.next = self.e_qp.val();
            self.out_query.d.next = self.e_kind.val() == self.kind_query.val();
            if self.e_valid.val() & (self.e_kind.val() == self.kind_cnp.val()) {
                self.cnps.d.next = self.cnps.q.val() + self.one_count.val();
            }
            if self.wb_writes.val() & self.upd.did_cut.val() {
                self.cuts.d.next = self.cuts.q.val() + self.one_count.val();
            }
            self.out_limited.d.next = self.upd.rep_limited.val();
            self.out_rc.d.next = self.upd.rep_rc.val();
            self.out_rt.d.next = self.upd.rep_rt.val();
            self.out_alpha.d.next = self.upd.rep_alpha.val();
            self.out_mode.d.next = self.upd.next_word.val().mode;
            self.out_ctl.d.next = self.e_ctl.val();
        }
        // ---- increase-event counters (pipelined after the write back) ----
        self.inc.reset.next = self.reset.val();
        self.inc.valid.next = self.adv.val() & self.wb_writes.val();
        self.inc.fr.next = self.upd.inc_fr.val();
        self.inc.ai.next = self.upd.inc_ai.val();
        self.inc.hai.next = self.upd.inc_hai.val();
        self.inc.rel.next = self.upd.inc_rel.val();
        self.inc.rel_phase.next = self.upd.inc_rel_phase.val();
        self.inc.rel_rc.next = self.upd.inc_rel_rc.val();
        self.inc.rel_rt.next = self.upd.inc_rel_rt.val();
        self.inc.max.next = self.cfg.val().max_rate;
        self.inc.ai_rate.next = self.cfg.val().ai_rate;
        self.inc.hai_rate.next = self.cfg.val().hai_rate;
        self.inc.recip_ai.next = self.cfg.val().recip_ai;
        self.inc.recip_hai.next = self.cfg.val().recip_hai;
        if self.busy_q.q.val() {
            self.ram.write_enable.next = true;
            self.ram.write_address.next = self.sweep.q.val();
            self.ram.write_data.next = self.zero_word.val();
            self.sweep.d.next = self.sweep.q.val() + self.one_qb.val();
            if self.sweep.q.val() == self.sweep_last.val() {
                self.busy_q.d.next = false;
            }
        }
        if self.reset.val() {
            self.s1_valid.d.next = false;
            self.s2_valid.d.next = false;
            for i in 0..UPD_STAGES {
                self.tag_valid[i].d.next = false;
                self.tag_wr[i].d.next = false;
            }
            self.w1_valid.d.next = false;
            self.w2_valid.d.next = false;
            self.out_valid.d.next = false;
            self.sweep.d.next = 0.into();
            self.busy_q.d.next = true;
            self.cnps.d.next = 0.into();
            self.cuts.d.next = 0.into();
        }
        self.busy.next = self.busy_q.q.val();
        self.cnt_cnp_received.next = self.cnps.q.val();
        self.cnt_rate_cuts.next = self.cuts.q.val();
        self.cnt_increase_fr.next = self.inc.cnt_fr.val();
        self.cnt_increase_ai.next = self.inc.cnt_ai.val();
        self.cnt_increase_hai.next = self.inc.cnt_hai.val();
        self.m_rate_valid.next = self.out_valid.q.val();
        self.m_rate_qp.next = self.out_qp.q.val();
        self.m_rate_query.next = self.out_query.q.val();
        self.m_rate_limited.next = self.out_limited.q.val();
        self.m_rate_rc.next = self.out_rc.q.val();
        self.m_rate_rt.next = self.out_rt.q.val();
        self.m_rate_alpha.next = self.out_alpha.q.val();
        self.m_rate_mode.next = self.out_mode.q.val();
        self.m_rate_ctl.next = self.out_ctl.q.val();
    }
}
