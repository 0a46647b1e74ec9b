//! `dcqcn_np`: the DCQCN notification point and its CNP rate limiter, for `2^QB` QPs, one
//! received packet per clock cycle.
//!
//! Behaviour: `../shared/reference/dcqcn.md` "NP and the CNP rate limiter"; bit-accurate
//! statement: `sim::dcqcn_np` (the golden model); design notes: `docs/dcqcn_np.md`.
//!
//! ```text
//!  s_rx_* ──► CE? ──► S1: RAM read ──► S2: registered word ──► decide ──► out reg ──► m_cnp_*
//!                                        + forward W1, W2       │  (per_flow: the QP's
//!                                        (or the port register) │   word; per_port: one
//!                                         ▲                     │   register)
//!                                         └──── write back ◄────┘
//! ```
//!
//! A packet accepted in cycle `c` (any ECN value; only CE, `0b11`, goes on) has its QP's
//! word read at the end of `c`, registered at the end of `c+1`, and is decided in `c+2`
//! against the time of the last CNP: a CNP request is sent if none was sent yet, if
//! `min_time_between_cnps` is 0, or if at least `min_time_between_cnps` microseconds have
//! passed (in cycles: `t - last >= min_time_between_cnps * clock_mhz`). The request is in
//! the output register at the end of `c+2` (`m_cnp_valid` in `c+3`); a suppressed mark
//! increments `cnt_suppressed`. The decision writes the new "last" back at the end of `c+2`
//! and the two previous write-backs are forwarded (as in `dcqcn_rp`), so back-to-back marks
//! on one QP see each other: one decision per cycle for any QP.
//!
//! Backpressure: while `m_cnp_valid && !m_cnp_ready` the whole NP holds (`s_rx_ready` low,
//! no decision, no RAM write) and `cnt_stall` counts the cycle; no decision is lost and
//! the packets wait upstream. A CNP request is never dropped.
//!
//! Time: `now` is the time base's cycle-within-microsecond and the microsecond count in the
//! radix of `min_time_between_cnps` (`us = e * period + r`, see `sim::timebase`). With that,
//! "`t - last >= period`" is a subtraction of epochs and a compare, no multiply.
//!
//! A clear (`s_clr_*`, from the register block) goes down the same pipeline and writes the
//! QP's word back to "no CNP sent" (the per-port limiter is kept); it sends nothing and
//! counts nothing.
//!
//! After `reset` the RAM is swept to "no CNP sent" for `2^QB` cycles (`busy`, `s_rx_ready`
//! low); counters and the per-port register clear. `cfg` may only change while idle.

use crate::dcqcn_rp::widths::{EPOCH_W, REM_W, SUB_W};
use rust_hdl::prelude::*;

/// Width of the ECN field of a received packet (`0b11` = CE).
pub const ECN_W: usize = 2;
/// Width of the DSCP carried on every CNP request.
pub const DSCP_W: usize = 6;
/// Width of the 802.1p priority carried on every CNP request.
pub const PRIO_W: usize = 3;
pub use crate::COUNTER_W;

/// One QP's (or the port's) limiter state: one block-RAM word (60 bits). Mirrors
/// `sim::dcqcn_np::NpState`.
#[derive(Clone, Copy, Debug, Default, PartialEq, LogicStruct)]
pub struct NpWord {
    /// A CNP was sent (since reset).
    pub sent: Bit,
    /// Time of the last CNP: cycle within the microsecond.
    pub sub: Bits<SUB_W>,
    /// Time of the last CNP: microseconds in the `min_time_between_cnps` radix.
    pub e: Bits<EPOCH_W>,
    pub r: Bits<REM_W>,
}

/// "Now" for the NP, from the core's time base.
#[derive(Clone, Copy, Debug, Default, PartialEq, LogicStruct)]
pub struct NpTimeWord {
    /// Cycle within the microsecond, `0..clock_mhz`.
    pub sub: Bits<SUB_W>,
    /// Microseconds in the `min_time_between_cnps` radix (period 1 when it is 0).
    pub e: Bits<EPOCH_W>,
    pub r: Bits<REM_W>,
}

/// The NP's parameters in hardware form (`sim::dcqcn_np::NpConfig` computes them).
#[derive(Clone, Copy, Debug, Default, PartialEq, LogicStruct)]
pub struct NpCfgWord {
    /// `min_time_between_cnps == 0`: every CE mark gets a CNP.
    pub no_limit: Bit,
    /// `cnp_moderation = per_port`: one limiter for all QPs (else one per QP).
    pub per_port: Bit,
    /// `cnp_dscp`.
    pub dscp: Bits<DSCP_W>,
    /// `cnp_802p_prio`.
    pub prio: Bits<PRIO_W>,
}

/// The DCQCN notification point for `2^QB` QPs (`1 <= QB <= 14`).
#[derive(LogicBlock)]
pub struct DcqcnNp<const QB: usize> {
    /// Clock; everything is synchronous to its rising edge.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset, active high: empties the pipeline, clears the counters and the
    /// per-port limiter, starts the RAM sweep.
    pub reset: Signal<In, Bit>,

    /* Clear stream (register block: reset one QP's limiter) */
    /// Forget `s_clr_qp`'s last CNP (priority over received packets).
    pub s_clr_valid: Signal<In, Bit>,
    /// The clear is taken this cycle.
    pub s_clr_ready: Signal<Out, Bit>,
    /// QP whose limiter is cleared.
    pub s_clr_qp: Signal<In, Bits<QB>>,

    /* Received data packet stream */
    /// A data packet was received for `s_rx_qp`.
    pub s_rx_valid: Signal<In, Bit>,
    /// The packet is taken this cycle (when no clear is offered).
    pub s_rx_ready: Signal<Out, Bit>,
    /// QP of the packet.
    pub s_rx_qp: Signal<In, Bits<QB>>,
    /// ECN field of the packet's IP header; only `0b11` (CE) acts.
    pub s_rx_ecn: Signal<In, Bits<ECN_W>>,

    /* CNP request stream */
    /// A CNP should be sent.
    pub m_cnp_valid: Signal<Out, Bit>,
    /// The CNP generator takes the request; low holds the NP (counted in `cnt_stall`).
    pub m_cnp_ready: Signal<In, Bit>,
    /// QP the CNP is for.
    pub m_cnp_qp: Signal<Out, Bits<QB>>,
    /// DSCP for the CNP (`cnp_dscp`).
    pub m_cnp_dscp: Signal<Out, Bits<DSCP_W>>,
    /// 802.1p priority for the CNP (`cnp_802p_prio`).
    pub m_cnp_prio: Signal<Out, Bits<PRIO_W>>,

    /* Time, parameters, status */
    /// Now (sampled with each accepted packet).
    pub now: Signal<In, NpTimeWord>,
    /// Parameters in hardware form.
    pub cfg: Signal<In, NpCfgWord>,
    /// The RAM sweep after reset is running; no packet is accepted.
    pub busy: Signal<Out, Bit>,
    /// CE marks that produced a CNP request (since reset, wrapping).
    pub cnt_sent: Signal<Out, Bits<COUNTER_W>>,
    /// CE marks suppressed by the limiter (since reset, wrapping).
    pub cnt_suppressed: Signal<Out, Bits<COUNTER_W>>,
    /// Cycles the CNP output was not ready while holding a request (since reset, wrapping).
    pub cnt_stall: Signal<Out, Bits<COUNTER_W>>,

    ram: RAM<NpWord, QB>,
    s1_valid: DFF<Bit>,
    s1_clr: DFF<Bit>,
    s1_qp: DFF<Bits<QB>>,
    s1_now: DFF<NpTimeWord>,
    s2_valid: DFF<Bit>,
    s2_clr: DFF<Bit>,
    s2_qp: DFF<Bits<QB>>,
    s2_now: DFF<NpTimeWord>,
    s2_word: DFF<NpWord>,
    w1_valid: DFF<Bit>,
    w1_qp: DFF<Bits<QB>>,
    w1_word: DFF<NpWord>,
    w2_valid: DFF<Bit>,
    w2_qp: DFF<Bits<QB>>,
    w2_word: DFF<NpWord>,
    port: DFF<NpWord>,
    out_valid: DFF<Bit>,
    out_qp: DFF<Bits<QB>>,
    sent: DFF<Bits<COUNTER_W>>,
    suppressed: DFF<Bits<COUNTER_W>>,
    stall: DFF<Bits<COUNTER_W>>,
    sweep: DFF<Bits<QB>>,
    busy_q: DFF<Bit>,
    sweep_last: Constant<Bits<QB>>,
    one_qb: Constant<Bits<QB>>,
    one_epoch: Constant<Bits<EPOCH_W>>,
    one_count: Constant<Bits<COUNTER_W>>,
    ce: Constant<Bits<ECN_W>>,
    zero_word: Constant<NpWord>,
    adv: Signal<Local, Bit>,
    take: Signal<Local, Bit>,
    fwd: Signal<Local, NpWord>,
    old: Signal<Local, NpWord>,
    de: Signal<Local, Bits<EPOCH_W>>,
    later_in_period: Signal<Local, Bit>,
    pass: Signal<Local, Bit>,
    new_word: Signal<Local, NpWord>,
    writes: Signal<Local, Bit>,
}

impl<const QB: usize> DcqcnNp<QB> {
    /// A notification point for `2^QB` QPs.
    pub fn new() -> Self {
        assert!(
            (1..=14).contains(&QB),
            "DcqcnNp: QB = {QB}; 2^QB QPs must be 2..=16384"
        );
        Self {
            clock: Default::default(),
            reset: Default::default(),
            s_clr_valid: Default::default(),
            s_clr_ready: Default::default(),
            s_clr_qp: Default::default(),
            s_rx_valid: Default::default(),
            s_rx_ready: Default::default(),
            s_rx_qp: Default::default(),
            s_rx_ecn: Default::default(),
            m_cnp_valid: Default::default(),
            m_cnp_ready: Default::default(),
            m_cnp_qp: Default::default(),
            m_cnp_dscp: Default::default(),
            m_cnp_prio: Default::default(),
            now: Default::default(),
            cfg: Default::default(),
            busy: Default::default(),
            cnt_sent: Default::default(),
            cnt_suppressed: Default::default(),
            cnt_stall: Default::default(),
            ram: Default::default(),
            s1_valid: Default::default(),
            s1_clr: Default::default(),
            s1_qp: Default::default(),
            s1_now: Default::default(),
            s2_valid: Default::default(),
            s2_clr: Default::default(),
            s2_qp: Default::default(),
            s2_now: Default::default(),
            s2_word: Default::default(),
            w1_valid: Default::default(),
            w1_qp: Default::default(),
            w1_word: Default::default(),
            w2_valid: Default::default(),
            w2_qp: Default::default(),
            w2_word: Default::default(),
            port: Default::default(),
            out_valid: Default::default(),
            out_qp: Default::default(),
            sent: Default::default(),
            suppressed: Default::default(),
            stall: Default::default(),
            sweep: Default::default(),
            busy_q: Default::default(),
            sweep_last: Constant::new(Bits::<QB>::mask()),
            one_qb: Constant::new(1.into()),
            one_epoch: Constant::new(1.into()),
            one_count: Constant::new(1.into()),
            ce: Constant::new(3.into()),
            zero_word: Constant::new(NpWord::default()),
            adv: Default::default(),
            take: Default::default(),
            fwd: Default::default(),
            old: Default::default(),
            de: Default::default(),
            later_in_period: Default::default(),
            pass: Default::default(),
            new_word: Default::default(),
            writes: Default::default(),
        }
    }
}

impl<const QB: usize> Default for DcqcnNp<QB> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const QB: usize> Logic for DcqcnNp<QB> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, s1_valid, s1_clr, s1_qp, s1_now, s2_valid, s2_clr, s2_qp, s2_now, s2_word,
            w1_valid, w1_qp, w1_word, w2_valid, w2_qp, w2_word, port, out_valid, out_qp, sent,
            suppressed, stall, sweep, busy_q
        );
        self.ram.read_clock.next = self.clock.val();
        self.ram.write_clock.next = self.clock.val();

        // ---- input: every packet is taken; only CE marks go on ----
        self.adv.next = !self.out_valid.q.val() | self.m_cnp_ready.val();
        self.take.next = self.adv.val() & !self.busy_q.q.val();
        self.s_clr_ready.next = self.take.val();
        self.s_rx_ready.next = self.take.val() & !self.s_clr_valid.val();

        // ---- S1: read the QP's word (re-read the held packet's while stalled) ----
        self.ram.read_address.next = self.s1_qp.q.val();
        if self.adv.val() {
            self.ram.read_address.next = self.s_rx_qp.val();
            self.s1_valid.d.next =
                self.take.val() & self.s_rx_valid.val() & (self.s_rx_ecn.val() == self.ce.val());
            self.s1_clr.d.next = false;
            self.s1_qp.d.next = self.s_rx_qp.val();
            if self.s_clr_valid.val() {
                self.ram.read_address.next = self.s_clr_qp.val();
                self.s1_valid.d.next = self.take.val();
                self.s1_clr.d.next = true;
                self.s1_qp.d.next = self.s_clr_qp.val();
            }
            self.s1_now.d.next = self.now.val();
        }

        // ---- S2: registered RAM output, forwarding, decision ----
        if self.adv.val() {
            self.s2_valid.d.next = self.s1_valid.q.val();
            self.s2_clr.d.next = self.s1_clr.q.val();
            self.s2_qp.d.next = self.s1_qp.q.val();
            self.s2_now.d.next = self.s1_now.q.val();
            self.s2_word.d.next = self.ram.read_data.val();
        }
        self.fwd.next = self.s2_word.q.val();
        if self.w2_valid.q.val() & (self.w2_qp.q.val() == self.s2_qp.q.val()) {
            self.fwd.next = self.w2_word.q.val();
        }
        if self.w1_valid.q.val() & (self.w1_qp.q.val() == self.s2_qp.q.val()) {
            self.fwd.next = self.w1_word.q.val();
        }
        self.old.next = self.fwd.val();
        if self.cfg.val().per_port {
            self.old.next = self.port.q.val();
        }
        // Whole periods between the last CNP and now (modulo 2^32), then the position
        // within the period: (r, sub) now at or after (r, sub) then.
        self.de.next = self.s2_now.q.val().e - self.old.val().e;
        self.later_in_period.next = (self.s2_now.q.val().r > self.old.val().r)
            | ((self.s2_now.q.val().r == self.old.val().r)
                & (self.s2_now.q.val().sub >= self.old.val().sub));
        self.pass.next = !self.old.val().sent
            | self.cfg.val().no_limit
            | (self.de.val() > self.one_epoch.val())
            | ((self.de.val() == self.one_epoch.val()) & self.later_in_period.val());
        self.new_word.next = self.zero_word.val();
        self.new_word.next.sent = true;
        self.new_word.next.sub = self.s2_now.q.val().sub;
        self.new_word.next.e = self.s2_now.q.val().e;
        self.new_word.next.r = self.s2_now.q.val().r;
        if self.s2_clr.q.val() {
            self.new_word.next = self.zero_word.val();
            self.pass.next = false;
        }

        // ---- write back, forwarding history, port register, output, counters ----
        self.writes.next = self.s2_valid.q.val()
            & ((self.pass.val() & !self.cfg.val().per_port) | self.s2_clr.q.val());
        self.ram.write_enable.next = self.adv.val() & self.writes.val();
        self.ram.write_address.next = self.s2_qp.q.val();
        self.ram.write_data.next = self.new_word.val();
        if self.adv.val() {
            self.w1_valid.d.next = self.writes.val();
            self.w1_qp.d.next = self.s2_qp.q.val();
            self.w1_word.d.next = self.new_word.val();
            self.w2_valid.d.next = self.w1_valid.q.val();
            self.w2_qp.d.next = self.w1_qp.q.val();
            self.w2_word.d.next = self.w1_word.q.val();
            if self.s2_valid.q.val() & self.pass.val() & self.cfg.val().per_port {
                self.port.d.next = self.new_word.val();
            }
            self.out_valid.d.next = self.s2_valid.q.val() & self.pass.val();
            self.out_qp.d.next = self.s2_qp.q.val();
            if self.s2_valid.q.val() & !self.s2_clr.q.val() {
                if self.pass.val() {
                    self.sent.d.next = self.sent.q.val() + self.one_count.val();
                } else {
                    self.suppressed.d.next = self.suppressed.q.val() + self.one_count.val();
                }
            }
        } else {
            self.stall.d.next = self.stall.q.val() + self.one_count.val();
        }
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
            self.w1_valid.d.next = false;
            self.w2_valid.d.next = false;
            self.out_valid.d.next = false;
            self.port.d.next = self.zero_word.val();
            self.sent.d.next = 0.into();
            self.suppressed.d.next = 0.into();
            self.stall.d.next = 0.into();
            self.sweep.d.next = 0.into();
            self.busy_q.d.next = true;
        }
        self.busy.next = self.busy_q.q.val();
        self.m_cnp_valid.next = self.out_valid.q.val();
        self.m_cnp_qp.next = self.out_qp.q.val();
        self.m_cnp_dscp.next = self.cfg.val().dscp;
        self.m_cnp_prio.next = self.cfg.val().prio;
        self.cnt_sent.next = self.sent.q.val();
        self.cnt_suppressed.next = self.suppressed.q.val();
        self.cnt_stall.next = self.stall.q.val();
    }
}
