//! `IncCount`: the reaction point's increase-event counters by phase (fast recovery,
//! additive, hyper increase), pipelined after the next-state function.
//!
//! Per event, [`super::update::RpUpdate`] gives the increase events applied in each phase
//! in full (`fr`, `ai`, `hai`: every run before the one that releases the limiter, and the
//! byte event) and, if a run released the limiter, that run's phase and starting Rc, Rt.
//! The releasing run counts only its release index, the event at which Rc reached the max
//! rate (golden: `sim::dcqcn_rp::release_index`):
//!
//! * Rt at max: `max(1, bitlen(Rt - Rc))`;
//! * fast recovery with Rt below max: 1;
//! * otherwise `e0 + bitlen(max(0, d(e0)))`, where `e0 = ceil((max - Rt) / step)` is the
//!   event at which Rt reaches max and `d(e0) = Rt(e0) - Rc(e0)` the distance then:
//!   `d(e0) = floor((d(e0 - 1) + (max - Rt(e0 - 1))) / 2)` with
//!   `d(e0 - 1) = step + ((d - step) >> (e0 - 1))` (the closed form of `run`) and
//!   `max - Rt(e0 - 1) = (max - Rt) - (e0 - 1) step`, which is the division's remainder, or
//!   `step` when it divides exactly.
//!
//! The division is a multiply by the reciprocal `floor(2^28 / step)` from the
//! configuration (`recip_ai`, `recip_hai`) and one correction step (golden: `div_step`):
//! two `WideMul`s, no divider.
//!
//! ```text
//!  edge c+2 (write back)  K1 <= counts, releasing run (from RpUpdate)
//!  cycle c+3  K1: step and reciprocal by phase; x = max - Rt; d = Rt - Rc; x * recip
//!  cycle c+4  K2: q0 * step, remainder, correction -> e0, remainder g
//!  cycle c+5  K3: d(e0 - 1), d(e0), bit length -> release index
//!  cycle c+6  K4: counters += counts (+ release index in its phase)
//!  cycle c+7  cnt_* show the event (4 cycles after cnt_cnp_received and the report)
//! ```
//!
//! The stages run every cycle (they do not hold with the report stream's backpressure), so
//! the lag is 4 cycles after the write-back edge's counters, always. Nothing here feeds the
//! state path. `cfg` must not change while an event is in these stages.

use super::rate::Asr;
use super::widths::*;
use crate::COUNTER_W;
use crate::wide_mul::WideMul;
use crate::zero_ext::ZeroExt;
use rust_hdl::prelude::*;

/// Bit length of a 31-bit two's complement value: `floor(log2 v) + 1` for `v > 0`, 0
/// otherwise (golden: `bitlen`). A 5-level binary search.
#[derive(LogicBlock)]
pub struct BitLen {
    /// Value, two's complement.
    pub v: Signal<In, Bits<DIST_W>>,
    /// Its bit length, 0..=30 (0 for `v <= 0`).
    pub o: Signal<Out, Bits<BITLEN_W>>,
    w16: Signal<Local, Bits<16>>,
    w8: Signal<Local, Bits<8>>,
    w4: Signal<Local, Bits<4>>,
    w1: Signal<Local, Bit>,
    /// The last window's lowest bit: the bit length does not depend on it (only the
    /// `v != 0` test does, on `v`).
    w4_lsb_unused: Signal<Local, Bit>,
    v32: Signal<Local, Bits<32>>,
    ext_v: ZeroExt<DIST_W, 32>,
    p4: Signal<Local, Bits<BITLEN_W>>,
    p3: Signal<Local, Bits<BITLEN_W>>,
    p2: Signal<Local, Bits<BITLEN_W>>,
    p1: Signal<Local, Bits<BITLEN_W>>,
    p0: Signal<Local, Bits<BITLEN_W>>,
    lg: Signal<Local, Bits<BITLEN_W>>,
    one: Constant<Bits<BITLEN_W>>,
}

impl Default for BitLen {
    fn default() -> Self {
        Self {
            v: Default::default(),
            o: Default::default(),
            w16: Default::default(),
            w8: Default::default(),
            w4: Default::default(),
            w1: Default::default(),
            w4_lsb_unused: Default::default(),
            v32: Default::default(),
            ext_v: Default::default(),
            p4: Default::default(),
            p3: Default::default(),
            p2: Default::default(),
            p1: Default::default(),
            p0: Default::default(),
            lg: Default::default(),
            one: Constant::new(1.into()),
        }
    }
}

impl Logic for BitLen {
    #[hdl_gen]
    fn update(&mut self) {
        // Halve the window five times (bit 30 is the sign: only non-negative values matter).
        self.ext_v.i.next = self.v.val();
        self.v32.next = self.ext_v.o.val();
        self.p4.next = 0.into();
        self.w16.next = self.v32.val().get_bits::<16>(0);
        if self.v32.val().get_bits::<16>(16).any() {
            self.p4.next = 16.into();
            self.w16.next = self.v32.val().get_bits::<16>(16);
        }
        self.p3.next = 0.into();
        self.w8.next = self.w16.val().get_bits::<8>(0);
        if self.w16.val().get_bits::<8>(8).any() {
            self.p3.next = 8.into();
            self.w8.next = self.w16.val().get_bits::<8>(8);
        }
        self.p2.next = 0.into();
        self.w4.next = self.w8.val().get_bits::<4>(0);
        if self.w8.val().get_bits::<4>(4).any() {
            self.p2.next = 4.into();
            self.w4.next = self.w8.val().get_bits::<4>(4);
        }
        self.p1.next = 0.into();
        self.w1.next = self.w4.val().get_bit(1);
        self.w4_lsb_unused.next = self.w4.val().get_bit(0);
        if self.w4.val().get_bits::<2>(2).any() {
            self.p1.next = 2.into();
            self.w1.next = self.w4.val().get_bit(3);
        }
        self.p0.next = 0.into();
        if self.w1.val() {
            self.p0.next = 1.into();
        }
        self.lg.next =
            self.p4.val() | self.p3.val() | self.p2.val() | self.p1.val() | self.p0.val();
        self.o.next = 0.into();
        if (!self.v.val().get_bit(30)) & self.v.val().any() {
            self.o.next = self.lg.val() + self.one.val();
        }
    }
}

/// The increase-event counters by phase, four pipeline stages after the write back.
#[derive(LogicBlock)]
pub struct IncCount {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: empties the stages and clears the counters.
    pub reset: Signal<In, Bit>,
    /// An event is written back this cycle (its counts below are taken).
    pub valid: Signal<In, Bit>,
    /// Fast-recovery events applied in full (not counting the releasing run).
    pub fr: Signal<In, Bits<EVENTS_W>>,
    /// Additive-increase events applied in full.
    pub ai: Signal<In, Bits<EVENTS_W>>,
    /// Hyper-increase events applied in full.
    pub hai: Signal<In, Bits<EVENTS_W>>,
    /// A run of increase events released the limiter.
    pub rel: Signal<In, Bit>,
    /// Its phase: 0 fast recovery, 1 additive, 2 hyper increase.
    pub rel_phase: Signal<In, Bits<PHASE_W>>,
    /// Rc before its first event, Mb/s Q.8.
    pub rel_rc: Signal<In, Bits<RATE_W>>,
    /// Rt before its first event, Mb/s Q.8.
    pub rel_rt: Signal<In, Bits<RATE_W>>,
    /// Max rate, Mb/s Q.8.
    pub max: Signal<In, Bits<RATE_W>>,
    /// Additive step, Mb/s Q.8.
    pub ai_rate: Signal<In, Bits<RATE_W>>,
    /// Hyper step, Mb/s Q.8.
    pub hai_rate: Signal<In, Bits<RATE_W>>,
    /// `floor(2^28 / ai_rate)`.
    pub recip_ai: Signal<In, Bits<STEP_RECIP_W>>,
    /// `floor(2^28 / hai_rate)`.
    pub recip_hai: Signal<In, Bits<STEP_RECIP_W>>,
    /// Fast-recovery increase events since reset, wrapping.
    pub cnt_fr: Signal<Out, Bits<COUNTER_W>>,
    /// Additive-increase events since reset, wrapping.
    pub cnt_ai: Signal<Out, Bits<COUNTER_W>>,
    /// Hyper-increase events since reset, wrapping.
    pub cnt_hai: Signal<Out, Bits<COUNTER_W>>,

    // K1: as RpUpdate gave them.
    k1_valid: DFF<Bit>,
    k1_fr: DFF<Bits<EVENTS_W>>,
    k1_ai: DFF<Bits<EVENTS_W>>,
    k1_hai: DFF<Bits<EVENTS_W>>,
    k1_rel: DFF<Bit>,
    k1_ph: DFF<Bits<PHASE_W>>,
    k1_rc: DFF<Bits<RATE_W>>,
    k1_rt: DFF<Bits<RATE_W>>,
    // K2: the reciprocal product.
    k2_valid: DFF<Bit>,
    k2_fr: DFF<Bits<EVENTS_W>>,
    k2_ai: DFF<Bits<EVENTS_W>>,
    k2_hai: DFF<Bits<EVENTS_W>>,
    k2_rel: DFF<Bit>,
    k2_ph: DFF<Bits<PHASE_W>>,
    k2_at_max: DFF<Bit>,
    k2_x: DFF<Bits<RATE_W>>,
    k2_s: DFF<Bits<RATE_W>>,
    k2_d: DFF<Bits<DIST_W>>,
    k2_q0: DFF<Bits<COUNT_W>>,
    // K3: e0 and the distance still to go at e0 - 1.
    k3_valid: DFF<Bit>,
    k3_fr: DFF<Bits<EVENTS_W>>,
    k3_ai: DFF<Bits<EVENTS_W>>,
    k3_hai: DFF<Bits<EVENTS_W>>,
    k3_rel: DFF<Bit>,
    k3_ph: DFF<Bits<PHASE_W>>,
    k3_at_max: DFF<Bit>,
    k3_e0: DFF<Bits<COUNT_W>>,
    k3_g: DFF<Bits<RATE_W>>,
    k3_d: DFF<Bits<DIST_W>>,
    k3_s: DFF<Bits<RATE_W>>,
    // K4: the release index.
    k4_valid: DFF<Bit>,
    k4_fr: DFF<Bits<EVENTS_W>>,
    k4_ai: DFF<Bits<EVENTS_W>>,
    k4_hai: DFF<Bits<EVENTS_W>>,
    k4_rel: DFF<Bit>,
    k4_ph: DFF<Bits<PHASE_W>>,
    k4_idx: DFF<Bits<COUNT_W>>,
    // The counters.
    c_fr: DFF<Bits<COUNTER_W>>,
    c_ai: DFF<Bits<COUNTER_W>>,
    c_hai: DFF<Bits<COUNTER_W>>,

    /// `(max - Rt) * recip`: bits 28.. are the quotient estimate.
    mul_q: WideMul<RATE_W, STEP_RECIP_W, 49>,
    /// `q0 * step`, low 29 bits (the remainder is below `2 step < 2^29`).
    mul_back: WideMul<COUNT_W, RATE_W, 29>,
    ext_rt: ZeroExt<RATE_W, DIST_W>,
    ext_rc: ZeroExt<RATE_W, DIST_W>,
    ext_x: ZeroExt<RATE_W, 29>,
    ext_s29: ZeroExt<RATE_W, 29>,
    ext_s31: ZeroExt<RATE_W, DIST_W>,
    ext_g31: ZeroExt<RATE_W, DIST_W>,
    ext_inc: ZeroExt<2, COUNT_W>,
    ext_bl: ZeroExt<BITLEN_W, COUNT_W>,
    ext_idx: ZeroExt<COUNT_W, EVENTS_W>,
    ext_add_fr: ZeroExt<EVENTS_W, COUNTER_W>,
    ext_add_ai: ZeroExt<EVENTS_W, COUNTER_W>,
    ext_add_hai: ZeroExt<EVENTS_W, COUNTER_W>,
    asr_run: Asr,
    asr_half: Asr,
    bitlen: BitLen,

    s: Signal<Local, Bits<RATE_W>>,
    recip: Signal<Local, Bits<STEP_RECIP_W>>,
    /// The low 28 bits of `(max - Rt) * recip`, below the quotient: used by nothing
    /// (Verilator ignores `*unused*` signals).
    q_frac_unused: Signal<Local, Bits<28>>,
    r0: Signal<Local, Bits<29>>,
    remf: Signal<Local, Bits<29>>,
    /// Bit 28 of the corrected remainder, which is below `step < 2^28`: always 0.
    remf_hi_unused: Signal<Local, Bit>,
    /// Correction of the quotient estimate (0 or 1).
    corr: Signal<Local, Bits<2>>,
    /// 1 when the step does not divide `max - Rt` (ceil instead of floor).
    up: Signal<Local, Bits<2>>,
    /// `e0 - q0`: the correction plus the ceiling (0..=2).
    e0_inc: Signal<Local, Bits<2>>,
    x: Signal<Local, Bits<RATE_W>>,
    sh: Signal<Local, Bits<6>>,
    e0_m1: Signal<Local, Bits<COUNT_W>>,
    d1: Signal<Local, Bits<DIST_W>>,
    t2: Signal<Local, Bits<DIST_W>>,
    idx: Signal<Local, Bits<COUNT_W>>,
    idx_ev: Signal<Local, Bits<EVENTS_W>>,
    add_fr: Signal<Local, Bits<EVENTS_W>>,
    add_ai: Signal<Local, Bits<EVENTS_W>>,
    add_hai: Signal<Local, Bits<EVENTS_W>>,
    one_c: Constant<Bits<COUNT_W>>,
    sh_max: Constant<Bits<COUNT_W>>,
    ph_fr: Constant<Bits<PHASE_W>>,
    ph_ai: Constant<Bits<PHASE_W>>,
    ph_hai: Constant<Bits<PHASE_W>>,
}

impl Default for IncCount {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            valid: Default::default(),
            fr: Default::default(),
            ai: Default::default(),
            hai: Default::default(),
            rel: Default::default(),
            rel_phase: Default::default(),
            rel_rc: Default::default(),
            rel_rt: Default::default(),
            max: Default::default(),
            ai_rate: Default::default(),
            hai_rate: Default::default(),
            recip_ai: Default::default(),
            recip_hai: Default::default(),
            cnt_fr: Default::default(),
            cnt_ai: Default::default(),
            cnt_hai: Default::default(),
            k1_valid: Default::default(),
            k1_fr: Default::default(),
            k1_ai: Default::default(),
            k1_hai: Default::default(),
            k1_rel: Default::default(),
            k1_ph: Default::default(),
            k1_rc: Default::default(),
            k1_rt: Default::default(),
            k2_valid: Default::default(),
            k2_fr: Default::default(),
            k2_ai: Default::default(),
            k2_hai: Default::default(),
            k2_rel: Default::default(),
            k2_ph: Default::default(),
            k2_at_max: Default::default(),
            k2_x: Default::default(),
            k2_s: Default::default(),
            k2_d: Default::default(),
            k2_q0: Default::default(),
            k3_valid: Default::default(),
            k3_fr: Default::default(),
            k3_ai: Default::default(),
            k3_hai: Default::default(),
            k3_rel: Default::default(),
            k3_ph: Default::default(),
            k3_at_max: Default::default(),
            k3_e0: Default::default(),
            k3_g: Default::default(),
            k3_d: Default::default(),
            k3_s: Default::default(),
            k4_valid: Default::default(),
            k4_fr: Default::default(),
            k4_ai: Default::default(),
            k4_hai: Default::default(),
            k4_rel: Default::default(),
            k4_ph: Default::default(),
            k4_idx: Default::default(),
            c_fr: Default::default(),
            c_ai: Default::default(),
            c_hai: Default::default(),
            mul_q: Default::default(),
            mul_back: Default::default(),
            ext_rt: Default::default(),
            ext_rc: Default::default(),
            ext_x: Default::default(),
            ext_s29: Default::default(),
            ext_s31: Default::default(),
            ext_g31: Default::default(),
            ext_inc: Default::default(),
            ext_bl: Default::default(),
            ext_idx: Default::default(),
            ext_add_fr: Default::default(),
            ext_add_ai: Default::default(),
            ext_add_hai: Default::default(),
            asr_run: Default::default(),
            asr_half: Default::default(),
            bitlen: Default::default(),
            s: Default::default(),
            recip: Default::default(),
            q_frac_unused: Default::default(),
            r0: Default::default(),
            remf: Default::default(),
            remf_hi_unused: Default::default(),
            corr: Default::default(),
            up: Default::default(),
            e0_inc: Default::default(),
            x: Default::default(),
            sh: Default::default(),
            e0_m1: Default::default(),
            d1: Default::default(),
            t2: Default::default(),
            idx: Default::default(),
            idx_ev: Default::default(),
            add_fr: Default::default(),
            add_ai: Default::default(),
            add_hai: Default::default(),
            one_c: Constant::new(1.into()),
            sh_max: Constant::new(63.into()),
            ph_fr: Constant::new(0.into()),
            ph_ai: Constant::new(1.into()),
            ph_hai: Constant::new(2.into()),
        }
    }
}

impl Logic for IncCount {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, k1_valid, k1_fr, k1_ai, k1_hai, k1_rel, k1_ph, k1_rc, k1_rt, k2_valid,
            k2_fr, k2_ai, k2_hai, k2_rel, k2_ph, k2_at_max, k2_x, k2_s, k2_d, k2_q0, k3_valid,
            k3_fr, k3_ai, k3_hai, k3_rel, k3_ph, k3_at_max, k3_e0, k3_g, k3_d, k3_s, k4_valid,
            k4_fr, k4_ai, k4_hai, k4_rel, k4_ph, k4_idx, c_fr, c_ai, c_hai
        );

        // ---- K1 <= the event's counts and its releasing run ----
        self.k1_valid.d.next = self.valid.val();
        self.k1_fr.d.next = self.fr.val();
        self.k1_ai.d.next = self.ai.val();
        self.k1_hai.d.next = self.hai.val();
        self.k1_rel.d.next = self.rel.val();
        self.k1_ph.d.next = self.rel_phase.val();
        self.k1_rc.d.next = self.rel_rc.val();
        self.k1_rt.d.next = self.rel_rt.val();

        // ---- K1: step, reciprocal, quotient estimate ----
        self.s.next = 0.into();
        self.recip.next = self.recip_ai.val();
        if self.k1_ph.q.val() == self.ph_ai.val() {
            self.s.next = self.ai_rate.val();
        } else if self.k1_ph.q.val() == self.ph_hai.val() {
            self.s.next = self.hai_rate.val();
            self.recip.next = self.recip_hai.val();
        }
        self.x.next = self.max.val() - self.k1_rt.q.val();
        self.mul_q.a.next = self.x.val();
        self.mul_q.b.next = self.recip.val();
        self.q_frac_unused.next = self.mul_q.p.val().get_bits::<28>(0);
        self.ext_rt.i.next = self.k1_rt.q.val();
        self.ext_rc.i.next = self.k1_rc.q.val();
        self.k2_valid.d.next = self.k1_valid.q.val();
        self.k2_fr.d.next = self.k1_fr.q.val();
        self.k2_ai.d.next = self.k1_ai.q.val();
        self.k2_hai.d.next = self.k1_hai.q.val();
        self.k2_rel.d.next = self.k1_rel.q.val();
        self.k2_ph.d.next = self.k1_ph.q.val();
        self.k2_at_max.d.next = self.k1_rt.q.val() >= self.max.val();
        self.k2_x.d.next = self.x.val();
        self.k2_s.d.next = self.s.val();
        self.k2_d.d.next = self.ext_rt.o.val() - self.ext_rc.o.val();
        self.k2_q0.d.next = self.mul_q.p.val().get_bits::<COUNT_W>(28);

        // ---- K2: remainder, correction: e0 = ceil(x / s) ----
        self.mul_back.a.next = self.k2_q0.q.val();
        self.mul_back.b.next = self.k2_s.q.val();
        self.ext_x.i.next = self.k2_x.q.val();
        self.ext_s29.i.next = self.k2_s.q.val();
        self.r0.next = self.ext_x.o.val() - self.mul_back.p.val();
        // q0 is floor(x / s) or one less: one correction.
        self.corr.next = 0.into();
        self.remf.next = self.r0.val();
        if self.r0.val() >= self.ext_s29.o.val() {
            self.corr.next = 1.into();
            self.remf.next = self.r0.val() - self.ext_s29.o.val();
        }
        self.remf_hi_unused.next = self.remf.val().get_bit(28);
        // Not a multiple of the step: Rt reaches max one event later, from `remf` below it.
        self.up.next = 0.into();
        self.k3_g.d.next = self.k2_s.q.val();
        if self.remf.val().any() {
            self.up.next = 1.into();
            self.k3_g.d.next = self.remf.val().get_bits::<RATE_W>(0);
        }
        self.e0_inc.next = self.corr.val() + self.up.val();
        self.ext_inc.i.next = self.e0_inc.val();
        self.k3_e0.d.next = self.k2_q0.q.val() + self.ext_inc.o.val();
        self.k3_valid.d.next = self.k2_valid.q.val();
        self.k3_fr.d.next = self.k2_fr.q.val();
        self.k3_ai.d.next = self.k2_ai.q.val();
        self.k3_hai.d.next = self.k2_hai.q.val();
        self.k3_rel.d.next = self.k2_rel.q.val();
        self.k3_ph.d.next = self.k2_ph.q.val();
        self.k3_at_max.d.next = self.k2_at_max.q.val();
        self.k3_d.d.next = self.k2_d.q.val();
        self.k3_s.d.next = self.k2_s.q.val();

        // ---- K3: the distance at e0, its bit length, the release index ----
        // d(e0 - 1) = s + ((d - s) >> (e0 - 1)), shift clamped to 63 (as in IncRun).
        self.e0_m1.next = self.k3_e0.q.val() - self.one_c.val();
        self.sh.next = self.e0_m1.val().get_bits::<6>(0);
        if self.e0_m1.val() >= self.sh_max.val() {
            self.sh.next = 63.into();
        }
        self.ext_s31.i.next = self.k3_s.q.val();
        self.asr_run.v.next = self.k3_d.q.val() - self.ext_s31.o.val();
        self.asr_run.k.next = self.sh.val();
        self.d1.next = self.ext_s31.o.val() + self.asr_run.o.val();
        // d(e0) = floor((d(e0 - 1) + g) / 2).
        self.ext_g31.i.next = self.k3_g.q.val();
        self.t2.next = self.d1.val() + self.ext_g31.o.val();
        self.asr_half.v.next = self.t2.val();
        self.asr_half.k.next = 1.into();
        self.bitlen.v.next = self.asr_half.o.val();
        if self.k3_at_max.q.val() {
            self.bitlen.v.next = self.k3_d.q.val();
        }
        self.ext_bl.i.next = self.bitlen.o.val();
        self.idx.next = self.k3_e0.q.val() + self.ext_bl.o.val();
        if self.k3_at_max.q.val() {
            self.idx.next = self.ext_bl.o.val();
            if !self.bitlen.o.val().any() {
                self.idx.next = 1.into();
            }
        } else if self.k3_ph.q.val() == self.ph_fr.val() {
            self.idx.next = 1.into();
        }
        self.k4_valid.d.next = self.k3_valid.q.val();
        self.k4_fr.d.next = self.k3_fr.q.val();
        self.k4_ai.d.next = self.k3_ai.q.val();
        self.k4_hai.d.next = self.k3_hai.q.val();
        self.k4_rel.d.next = self.k3_rel.q.val();
        self.k4_ph.d.next = self.k3_ph.q.val();
        self.k4_idx.d.next = self.idx.val();

        // ---- K4: the counters ----
        self.ext_idx.i.next = self.k4_idx.q.val();
        self.idx_ev.next = 0.into();
        if self.k4_rel.q.val() {
            self.idx_ev.next = self.ext_idx.o.val();
        }
        self.add_fr.next = self.k4_fr.q.val();
        self.add_ai.next = self.k4_ai.q.val();
        self.add_hai.next = self.k4_hai.q.val();
        if self.k4_ph.q.val() == self.ph_fr.val() {
            self.add_fr.next = self.k4_fr.q.val() + self.idx_ev.val();
        } else if self.k4_ph.q.val() == self.ph_ai.val() {
            self.add_ai.next = self.k4_ai.q.val() + self.idx_ev.val();
        } else {
            self.add_hai.next = self.k4_hai.q.val() + self.idx_ev.val();
        }
        self.ext_add_fr.i.next = self.add_fr.val();
        self.ext_add_ai.i.next = self.add_ai.val();
        self.ext_add_hai.i.next = self.add_hai.val();
        if self.k4_valid.q.val() {
            self.c_fr.d.next = self.c_fr.q.val() + self.ext_add_fr.o.val();
            self.c_ai.d.next = self.c_ai.q.val() + self.ext_add_ai.o.val();
            self.c_hai.d.next = self.c_hai.q.val() + self.ext_add_hai.o.val();
        }

        if self.reset.val() {
            self.k1_valid.d.next = false;
            self.k2_valid.d.next = false;
            self.k3_valid.d.next = false;
            self.k4_valid.d.next = false;
            self.c_fr.d.next = 0.into();
            self.c_ai.d.next = 0.into();
            self.c_hai.d.next = 0.into();
        }
        self.cnt_fr.next = self.c_fr.q.val();
        self.cnt_ai.next = self.c_ai.q.val();
        self.cnt_hai.next = self.c_hai.q.val();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `BitLen` (rust-hdl's simulation of it) against `bitlen` of the value read as a
    /// 31-bit two's complement number, at every power of two and its neighbours.
    #[test]
    fn bitlen_matches_reference() {
        let mut b = BitLen::default();
        b.connect_all();
        let mut values: Vec<u64> = vec![0, 1, 2, 3, (1 << 30) - 1, 1 << 30, (1 << 31) - 1];
        for k in 0..31 {
            let p = 1u64 << k;
            values.extend([p - 1, p, p + 1, p | (p >> 1)]);
        }
        for v in values {
            let v = v & ((1 << DIST_W) - 1);
            b.v.next = v.into();
            assert!(simulate(&mut b, 100));
            let signed = ((v << 33) as i64) >> 33;
            let want = if signed <= 0 {
                0
            } else {
                64 - signed.leading_zeros() as u64
            };
            assert_eq!(b.o.val().to_u64(), want, "v = {v:#x}");
        }
    }
}
