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
//! two pipelined multipliers (`PipeMul`), no divider.
//!
//! The work is spread over [`INC_COUNT_LAG`] = 17 registers, at most one carry chain (or
//! one barrel shifter, or the bit length) between two of them (see [`IncCount`]): the
//! counters show an event `INC_COUNT_LAG` cycles after `cnt_cnp_received` and the report do.
//! The stages run every cycle (they do not hold with the report stream's backpressure), so
//! the lag is always the same. Nothing here feeds the state path. `cfg` must not change
//! while an event is in these stages.

use super::rate::Asr;
use super::widths::*;
use crate::COUNTER_W;
use crate::delay_line::DelayLine;
use crate::pipe_mul::{PIPE_MUL_STAGES, PipeMul};
use crate::zero_ext::ZeroExt;
use rust_hdl::prelude::*;

/// Bit length of a 31-bit two's complement value, in two parts: `pos` (`v > 0`) and
/// `lg = floor(log2 v)` (for `v > 0`); the bit length (golden: `bitlen`) is `lg + 1` when
/// `pos`, else 0. A 5-level binary search. The `+ 1` is left to the user: as a carry chain
/// at the end of the release-index path's edge 14 it does not fit 10 ns; [`IncCount`]
/// folds it into edge 15's adder.
#[derive(LogicBlock)]
pub struct BitLen {
    /// Value, two's complement.
    pub v: Signal<In, Bits<DIST_W>>,
    /// `v > 0`.
    pub pos: Signal<Out, Bit>,
    /// `floor(log2 v)`, 0..=29, when `pos` (for `v <= 0` it means nothing: the user
    /// chooses by `pos`).
    pub lg: Signal<Out, Bits<BITLEN_W>>,
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
}

impl Default for BitLen {
    fn default() -> Self {
        Self {
            v: Default::default(),
            pos: Default::default(),
            lg: Default::default(),
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
        self.pos.next = (!self.v.val().get_bit(30)) & self.v.val().any();
        self.lg.next =
            self.p4.val() | self.p3.val() | self.p2.val() | self.p1.val() | self.p0.val();
    }
}

/// What waits beside the release-index arithmetic: the event's counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, LogicStruct)]
pub struct IncEvent {
    /// An event was written back.
    pub valid: Bit,
    /// Events applied in full by phase.
    pub fr: Bits<EVENTS_W>,
    pub ai: Bits<EVENTS_W>,
    pub hai: Bits<EVENTS_W>,
    /// A run released the limiter (it counts its release index too).
    pub rel: Bit,
}

/// What the release-index arithmetic carries beside its two multipliers.
#[derive(Clone, Copy, Debug, Default, PartialEq, LogicStruct)]
pub struct RelCarry {
    /// The releasing run's phase.
    pub ph: Bits<PHASE_W>,
    /// Its step, Mb/s Q.8 (0 in fast recovery).
    pub s: Bits<RATE_W>,
    /// `max - Rt`, Mb/s Q.8.
    pub x: Bits<RATE_W>,
    /// `d = Rt - Rc`, two's complement.
    pub d: Bits<DIST_W>,
    /// `d - s`.
    pub dms: Bits<DIST_W>,
    /// Rt at the max already.
    pub at_max: Bit,
    /// The quotient estimate `floor((max - Rt) * recip / 2^28)` (beside the second
    /// multiplier only).
    pub q0: Bits<COUNT_W>,
}

/// Edges from the write back (the edge that loads `IncCount`'s first register) to the one
/// that adds the event to the counters: `cnt_*` show it [`INC_COUNT_LAG`] cycles after
/// `cnt_cnp_received` does.
pub const INC_COUNT_LAG: usize = 2 * PIPE_MUL_STAGES + 11;

/// The increase-event counters by phase, [`INC_COUNT_LAG`] pipeline stages after the
/// write back.
///
/// | edge | registered |
/// |---|---|
/// | 0 | `k1_*`: the event's counts and its releasing run |
/// | 1 | `k2_*`: step and reciprocal by phase, `x = max - Rt`, `d = Rt - Rc` |
/// | 2..4 | `x * recip` (`PipeMul`), beside it `d - s` |
/// | 5..7 | `q0 * s` (`PipeMul`): `q0` the quotient estimate |
/// | 8 | `r0 = x - q0 * s` |
/// | 9 | the correction: `r0 >= s` and `r0 - s` |
/// | 10 | `e0 = ceil(x / s)`, the remainder `g` |
/// | 11 | `e0 - 1` clamped to 63, `s + g` |
/// | 12 | `(d - s) >> (e0 - 1)` |
/// | 13 | `d(e0) = (d(e0 - 1) + g) >> 1` (or `d` at the max) |
/// | 14 | its bit length as `v > 0` and `floor(log2 v)` (the `+ 1` goes into edge 15), `e0 + 1` |
/// | 15 | the release index |
/// | 16 | each phase's count plus the index |
/// | 17 | the counters |
///
/// The event's counts wait beside it in a `DelayLine` (`ev_line`). The stages run every
/// cycle, stall or not. A reset clears the counters and ignores what leaves the stages for
/// the next `INC_COUNT_LAG` cycles (events written back before the reset).
#[derive(LogicBlock)]
pub struct IncCount {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: clears the counters and drops the events in the stages.
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

    // Edge 0: as RpUpdate gave them.
    k1_valid: DFF<Bit>,
    k1_fr: DFF<Bits<EVENTS_W>>,
    k1_ai: DFF<Bits<EVENTS_W>>,
    k1_hai: DFF<Bits<EVENTS_W>>,
    k1_rel: DFF<Bit>,
    k1_ph: DFF<Bits<PHASE_W>>,
    k1_rc: DFF<Bits<RATE_W>>,
    k1_rt: DFF<Bits<RATE_W>>,
    /// The counts, from edge 0 to edge 16.
    ev_in: Signal<Local, IncEvent>,
    ev_line: DelayLine<IncEvent, 4>,
    ev: Signal<Local, IncEvent>,
    // Edge 1.
    k2: DFF<RelCarry>,
    k2_recip: DFF<Bits<STEP_RECIP_W>>,
    // Edges 2..4, 5..7: beside the multipliers.
    m2: DFF<RelCarry>,
    m3: DFF<RelCarry>,
    m4: DFF<RelCarry>,
    m5: DFF<RelCarry>,
    m6: DFF<RelCarry>,
    m7: DFF<RelCarry>,
    /// `(max - Rt) * recip`: bits 28..49 are the quotient estimate.
    mul_q: PipeMul<RATE_W, STEP_RECIP_W>,
    /// `q0 * s`: the low 29 bits are all the remainder needs (it is below `2 s < 2^29`).
    mul_back: PipeMul<COUNT_W, RATE_W>,
    c2_in: Signal<Local, RelCarry>,
    c5_in: Signal<Local, RelCarry>,
    // Edge 8.
    m8: DFF<RelCarry>,
    r8_r0: DFF<Bits<29>>,
    // Edge 9.
    m9: DFF<RelCarry>,
    r9_remf: DFF<Bits<29>>,
    r9_corr: DFF<Bit>,
    /// The corrected remainder is not zero (`x` is not a multiple of `s`): `r8_r0 != 0`
    /// without the correction, `r8_r0 != s` with it, chosen beside `r9_remf`, so edge 10's
    /// ceiling starts at a flip-flop instead of behind an OR over `r9_remf`'s 29 bits.
    r9_up: DFF<Bit>,
    // Edge 10.
    r10_e0: DFF<Bits<COUNT_W>>,
    r10_g: DFF<Bits<RATE_W>>,
    r10_s: DFF<Bits<RATE_W>>,
    r10_d: DFF<Bits<DIST_W>>,
    r10_dms: DFF<Bits<DIST_W>>,
    r10_at_max: DFF<Bit>,
    r10_ph: DFF<Bits<PHASE_W>>,
    // Edge 11.
    r11_sh: DFF<Bits<6>>,
    r11_sg: DFF<Bits<DIST_W>>,
    r11_e0: DFF<Bits<COUNT_W>>,
    r11_d: DFF<Bits<DIST_W>>,
    r11_dms: DFF<Bits<DIST_W>>,
    r11_at_max: DFF<Bit>,
    r11_ph: DFF<Bits<PHASE_W>>,
    // Edge 12.
    r12_asr: DFF<Bits<DIST_W>>,
    r12_sg: DFF<Bits<DIST_W>>,
    r12_e0: DFF<Bits<COUNT_W>>,
    r12_d: DFF<Bits<DIST_W>>,
    r12_at_max: DFF<Bit>,
    r12_ph: DFF<Bits<PHASE_W>>,
    // Edge 13.
    r13_v: DFF<Bits<DIST_W>>,
    r13_e0: DFF<Bits<COUNT_W>>,
    r13_at_max: DFF<Bit>,
    r13_ph: DFF<Bits<PHASE_W>>,
    // Edge 14 (the bit length is `r14_lg + 1` when `r14_pos`, else 0).
    r14_pos: DFF<Bit>,
    r14_lg: DFF<Bits<BITLEN_W>>,
    r14_e0: DFF<Bits<COUNT_W>>,
    /// `e0 + 1`, so that edge 15 adds the bit length `lg + 1` as `(e0 + 1) + lg`.
    r14_e0p1: DFF<Bits<COUNT_W>>,
    r14_at_max: DFF<Bit>,
    r14_ph: DFF<Bits<PHASE_W>>,
    // Edge 15.
    r15_idx: DFF<Bits<COUNT_W>>,
    r15_ph: DFF<Bits<PHASE_W>>,
    // Edge 16.
    r16_valid: DFF<Bit>,
    r16_fr: DFF<Bits<EVENTS_W>>,
    r16_ai: DFF<Bits<EVENTS_W>>,
    r16_hai: DFF<Bits<EVENTS_W>>,
    // Edge 17: the counters.
    c_fr: DFF<Bits<COUNTER_W>>,
    c_ai: DFF<Bits<COUNTER_W>>,
    c_hai: DFF<Bits<COUNTER_W>>,
    /// Cycles left in which what leaves the stages is dropped (after a reset).
    flush: DFF<Bits<5>>,

    ext_rt: ZeroExt<RATE_W, DIST_W>,
    ext_rc: ZeroExt<RATE_W, DIST_W>,
    ext_s31: ZeroExt<RATE_W, DIST_W>,
    ext_x: ZeroExt<RATE_W, 29>,
    ext_s29: ZeroExt<RATE_W, 29>,
    ext_s31b: ZeroExt<RATE_W, DIST_W>,
    ext_g31: ZeroExt<RATE_W, DIST_W>,
    ext_inc: ZeroExt<2, COUNT_W>,
    ext_lg: ZeroExt<BITLEN_W, COUNT_W>,
    ext_idx: ZeroExt<COUNT_W, EVENTS_W>,
    ext_add_fr: ZeroExt<EVENTS_W, COUNTER_W>,
    ext_add_ai: ZeroExt<EVENTS_W, COUNTER_W>,
    ext_add_hai: ZeroExt<EVENTS_W, COUNTER_W>,
    asr_run: Asr,
    asr_half: Asr,
    bitlen: BitLen,

    s: Signal<Local, Bits<RATE_W>>,
    recip: Signal<Local, Bits<STEP_RECIP_W>>,
    /// The low 28 bits of `(max - Rt) * recip`, below the quotient, and the bits above 49
    /// (always zero): used by nothing.
    q_frac_unused: Signal<Local, Bits<28>>,
    q_hi_unused: Signal<Local, Bits<15>>,
    /// `q0 * s` above bit 29: the remainder does not depend on them.
    back_hi_unused: Signal<Local, Bits<35>>,
    /// `x` out of `m8` (a local: `hdl_gen` cannot slice a field).
    x8: Signal<Local, Bits<RATE_W>>,
    /// Bit 28 of the corrected remainder, which is below `step < 2^28`: always 0.
    remf_hi_unused: Signal<Local, Bit>,
    remf: Signal<Local, Bits<29>>,
    /// `e0 - q0`: the correction plus the ceiling (0..=2).
    e0_inc: Signal<Local, Bits<2>>,
    up: Signal<Local, Bits<2>>,
    corr2: Signal<Local, Bits<2>>,
    e0_m1: Signal<Local, Bits<COUNT_W>>,
    idx: Signal<Local, Bits<COUNT_W>>,
    idx_ev: Signal<Local, Bits<EVENTS_W>>,
    one_c: Constant<Bits<COUNT_W>>,
    sh_max: Constant<Bits<COUNT_W>>,
    lag: Constant<Bits<5>>,
    one5: Constant<Bits<5>>,
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
            ev_in: Default::default(),
            ev_line: DelayLine::new(INC_COUNT_LAG - 2),
            ev: Default::default(),
            k2: Default::default(),
            k2_recip: Default::default(),
            m2: Default::default(),
            m3: Default::default(),
            m4: Default::default(),
            m5: Default::default(),
            m6: Default::default(),
            m7: Default::default(),
            mul_q: Default::default(),
            mul_back: Default::default(),
            c2_in: Default::default(),
            c5_in: Default::default(),
            m8: Default::default(),
            r8_r0: Default::default(),
            m9: Default::default(),
            r9_remf: Default::default(),
            r9_corr: Default::default(),
            r9_up: Default::default(),
            r10_e0: Default::default(),
            r10_g: Default::default(),
            r10_s: Default::default(),
            r10_d: Default::default(),
            r10_dms: Default::default(),
            r10_at_max: Default::default(),
            r10_ph: Default::default(),
            r11_sh: Default::default(),
            r11_sg: Default::default(),
            r11_e0: Default::default(),
            r11_d: Default::default(),
            r11_dms: Default::default(),
            r11_at_max: Default::default(),
            r11_ph: Default::default(),
            r12_asr: Default::default(),
            r12_sg: Default::default(),
            r12_e0: Default::default(),
            r12_d: Default::default(),
            r12_at_max: Default::default(),
            r12_ph: Default::default(),
            r13_v: Default::default(),
            r13_e0: Default::default(),
            r13_at_max: Default::default(),
            r13_ph: Default::default(),
            r14_pos: Default::default(),
            r14_lg: Default::default(),
            r14_e0: Default::default(),
            r14_e0p1: Default::default(),
            r14_at_max: Default::default(),
            r14_ph: Default::default(),
            r15_idx: Default::default(),
            r15_ph: Default::default(),
            r16_valid: Default::default(),
            r16_fr: Default::default(),
            r16_ai: Default::default(),
            r16_hai: Default::default(),
            c_fr: Default::default(),
            c_ai: Default::default(),
            c_hai: Default::default(),
            flush: Default::default(),
            ext_rt: Default::default(),
            ext_rc: Default::default(),
            ext_s31: Default::default(),
            ext_x: Default::default(),
            ext_s29: Default::default(),
            ext_s31b: Default::default(),
            ext_g31: Default::default(),
            ext_inc: Default::default(),
            ext_lg: Default::default(),
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
            q_hi_unused: Default::default(),
            back_hi_unused: Default::default(),
            x8: Default::default(),
            remf_hi_unused: Default::default(),
            remf: Default::default(),
            e0_inc: Default::default(),
            up: Default::default(),
            corr2: Default::default(),
            e0_m1: Default::default(),
            idx: Default::default(),
            idx_ev: Default::default(),
            one_c: Constant::new(1.into()),
            sh_max: Constant::new(63.into()),
            lag: Constant::new((INC_COUNT_LAG as u64).into()),
            one5: Constant::new(1.into()),
            ph_fr: Constant::new(0.into()),
            ph_ai: Constant::new(1.into()),
            ph_hai: Constant::new(2.into()),
        }
    }
}

// The flush count fits its 5 bits; the counts' line is at most 17 long (`AW` = 4).
const _: () = assert!(INC_COUNT_LAG < 32 && INC_COUNT_LAG - 2 <= 17);

impl Logic for IncCount {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, k1_valid, k1_fr, k1_ai, k1_hai, k1_rel, k1_ph, k1_rc, k1_rt, k2, k2_recip,
            m2, m3, m4, m5, m6, m7, m8, r8_r0, m9, r9_remf, r9_corr, r9_up, r10_e0, r10_g, r10_s,
            r10_d, r10_dms, r10_at_max, r10_ph, r11_sh, r11_sg, r11_e0, r11_d, r11_dms, r11_at_max,
            r11_ph, r12_asr, r12_sg, r12_e0, r12_d, r12_at_max, r12_ph, r13_v, r13_e0, r13_at_max,
            r13_ph, r14_pos, r14_lg, r14_e0, r14_e0p1, r14_at_max, r14_ph, r15_idx, r15_ph,
            r16_valid, r16_fr, r16_ai, r16_hai, c_fr, c_ai, c_hai, flush
        );

        // ---- edge 0: the event's counts and its releasing run ----
        self.k1_valid.d.next = self.valid.val();
        self.k1_fr.d.next = self.fr.val();
        self.k1_ai.d.next = self.ai.val();
        self.k1_hai.d.next = self.hai.val();
        self.k1_rel.d.next = self.rel.val();
        self.k1_ph.d.next = self.rel_phase.val();
        self.k1_rc.d.next = self.rel_rc.val();
        self.k1_rt.d.next = self.rel_rt.val();
        // The counts wait in their line until edge 16.
        self.ev_in.next.valid = self.k1_valid.q.val();
        self.ev_in.next.fr = self.k1_fr.q.val();
        self.ev_in.next.ai = self.k1_ai.q.val();
        self.ev_in.next.hai = self.k1_hai.q.val();
        self.ev_in.next.rel = self.k1_rel.q.val();
        self.ev_line.clock.next = self.clock.val();
        self.ev_line.en.next = true;
        self.ev_line.d.next = self.ev_in.val();
        self.ev.next = self.ev_line.q.val();

        // ---- edge 1: step and reciprocal by phase, x = max - Rt, d = Rt - Rc ----
        self.s.next = 0.into();
        self.recip.next = self.recip_ai.val();
        if self.k1_ph.q.val() == self.ph_ai.val() {
            self.s.next = self.ai_rate.val();
        } else if self.k1_ph.q.val() == self.ph_hai.val() {
            self.s.next = self.hai_rate.val();
            self.recip.next = self.recip_hai.val();
        }
        self.ext_rt.i.next = self.k1_rt.q.val();
        self.ext_rc.i.next = self.k1_rc.q.val();
        self.k2.d.next.ph = self.k1_ph.q.val();
        self.k2.d.next.s = self.s.val();
        self.k2.d.next.x = self.max.val() - self.k1_rt.q.val();
        self.k2.d.next.d = self.ext_rt.o.val() - self.ext_rc.o.val();
        self.k2.d.next.dms = 0.into();
        self.k2.d.next.at_max = self.k1_rt.q.val() >= self.max.val();
        self.k2.d.next.q0 = 0.into();
        self.k2_recip.d.next = self.recip.val();

        // ---- edges 2..4: x * recip; d - s beside it ----
        self.mul_q.clock.next = self.clock.val();
        self.mul_q.en.next = true;
        self.mul_q.a.next = self.k2.q.val().x;
        self.mul_q.b.next = self.k2_recip.q.val();
        self.ext_s31.i.next = self.k2.q.val().s;
        self.c2_in.next = self.k2.q.val();
        self.c2_in.next.dms = self.k2.q.val().d - self.ext_s31.o.val();
        self.m2.d.next = self.c2_in.val();
        self.m3.d.next = self.m2.q.val();
        self.m4.d.next = self.m3.q.val();

        // ---- edges 5..7: q0 * s ----
        self.q_frac_unused.next = self.mul_q.p.val().get_bits::<28>(0);
        self.q_hi_unused.next = self.mul_q.p.val().get_bits::<15>(49);
        self.c5_in.next = self.m4.q.val();
        self.c5_in.next.q0 = self.mul_q.p.val().get_bits::<COUNT_W>(28);
        self.mul_back.clock.next = self.clock.val();
        self.mul_back.en.next = true;
        self.mul_back.a.next = self.c5_in.val().q0;
        self.mul_back.b.next = self.m4.q.val().s;
        self.m5.d.next = self.c5_in.val();
        self.m6.d.next = self.m5.q.val();
        self.m7.d.next = self.m6.q.val();

        // ---- edge 8: r0 = x - q0 * s (29 bits) ----
        self.back_hi_unused.next = self.mul_back.p.val().get_bits::<35>(29);
        self.x8.next = self.m7.q.val().x;
        self.ext_x.i.next = self.x8.val();
        self.m8.d.next = self.m7.q.val();
        self.r8_r0.d.next = self.ext_x.o.val() - self.mul_back.p.val().get_bits::<29>(0);

        // ---- edge 9: q0 is floor(x / s) or one less: one correction ----
        self.ext_s29.i.next = self.m8.q.val().s;
        self.m9.d.next = self.m8.q.val();
        self.r9_corr.d.next = false;
        self.r9_remf.d.next = self.r8_r0.q.val();
        self.r9_up.d.next = self.r8_r0.q.val().any();
        if self.r8_r0.q.val() >= self.ext_s29.o.val() {
            self.r9_corr.d.next = true;
            self.r9_remf.d.next = self.r8_r0.q.val() - self.ext_s29.o.val();
            self.r9_up.d.next = self.r8_r0.q.val() != self.ext_s29.o.val();
        }

        // ---- edge 10: e0 = ceil(x / s) (not a multiple of the step: Rt reaches max one
        // event later, from the remainder g below it) ----
        self.remf.next = self.r9_remf.q.val();
        self.remf_hi_unused.next = self.remf.val().get_bit(28);
        self.up.next = 0.into();
        self.r10_g.d.next = self.m9.q.val().s;
        if self.r9_up.q.val() {
            self.up.next = 1.into();
            self.r10_g.d.next = self.remf.val().get_bits::<RATE_W>(0);
        }
        self.corr2.next = 0.into();
        if self.r9_corr.q.val() {
            self.corr2.next = 1.into();
        }
        self.e0_inc.next = self.corr2.val() + self.up.val();
        self.ext_inc.i.next = self.e0_inc.val();
        self.r10_e0.d.next = self.m9.q.val().q0 + self.ext_inc.o.val();
        self.r10_s.d.next = self.m9.q.val().s;
        self.r10_d.d.next = self.m9.q.val().d;
        self.r10_dms.d.next = self.m9.q.val().dms;
        self.r10_at_max.d.next = self.m9.q.val().at_max;
        self.r10_ph.d.next = self.m9.q.val().ph;

        // ---- edge 11: the shift e0 - 1 (clamped to 63, as in IncRun), s + g ----
        self.e0_m1.next = self.r10_e0.q.val() - self.one_c.val();
        self.r11_sh.d.next = self.e0_m1.val().get_bits::<6>(0);
        if self.e0_m1.val() >= self.sh_max.val() {
            self.r11_sh.d.next = 63.into();
        }
        self.ext_s31b.i.next = self.r10_s.q.val();
        self.ext_g31.i.next = self.r10_g.q.val();
        self.r11_sg.d.next = self.ext_s31b.o.val() + self.ext_g31.o.val();
        self.r11_e0.d.next = self.r10_e0.q.val();
        self.r11_d.d.next = self.r10_d.q.val();
        self.r11_dms.d.next = self.r10_dms.q.val();
        self.r11_at_max.d.next = self.r10_at_max.q.val();
        self.r11_ph.d.next = self.r10_ph.q.val();

        // ---- edge 12: (d - s) >> (e0 - 1) ----
        self.asr_run.v.next = self.r11_dms.q.val();
        self.asr_run.k.next = self.r11_sh.q.val();
        self.r12_asr.d.next = self.asr_run.o.val();
        self.r12_sg.d.next = self.r11_sg.q.val();
        self.r12_e0.d.next = self.r11_e0.q.val();
        self.r12_d.d.next = self.r11_d.q.val();
        self.r12_at_max.d.next = self.r11_at_max.q.val();
        self.r12_ph.d.next = self.r11_ph.q.val();

        // ---- edge 13: d(e0) = floor((d(e0 - 1) + g) / 2), d(e0 - 1) = s + the shift ----
        self.asr_half.v.next = self.r12_asr.q.val() + self.r12_sg.q.val();
        self.asr_half.k.next = 1.into();
        self.r13_v.d.next = self.asr_half.o.val();
        if self.r12_at_max.q.val() {
            self.r13_v.d.next = self.r12_d.q.val();
        }
        self.r13_e0.d.next = self.r12_e0.q.val();
        self.r13_at_max.d.next = self.r12_at_max.q.val();
        self.r13_ph.d.next = self.r12_ph.q.val();

        // ---- edge 14: the bit length ----
        self.bitlen.v.next = self.r13_v.q.val();
        self.r14_pos.d.next = self.bitlen.pos.val();
        self.r14_lg.d.next = self.bitlen.lg.val();
        self.r14_e0.d.next = self.r13_e0.q.val();
        self.r14_e0p1.d.next = self.r13_e0.q.val() + self.one_c.val();
        self.r14_at_max.d.next = self.r13_at_max.q.val();
        self.r14_ph.d.next = self.r13_ph.q.val();

        // ---- edge 15: the release index ----
        // `e0 + bitlen`, and at the max `max(1, bitlen)`, with `bitlen = lg + 1` or 0.
        self.ext_lg.i.next = self.r14_lg.q.val();
        self.idx.next = self.r14_e0.q.val();
        if self.r14_pos.q.val() {
            self.idx.next = self.r14_e0p1.q.val() + self.ext_lg.o.val();
        }
        if self.r14_at_max.q.val() {
            self.idx.next = 1.into();
            if self.r14_pos.q.val() {
                self.idx.next = self.ext_lg.o.val() + self.one_c.val();
            }
        } else if self.r14_ph.q.val() == self.ph_fr.val() {
            self.idx.next = 1.into();
        }
        self.r15_idx.d.next = self.idx.val();
        self.r15_ph.d.next = self.r14_ph.q.val();

        // ---- edge 16: each phase's count (the releasing run's phase plus its index) ----
        self.ext_idx.i.next = self.r15_idx.q.val();
        self.idx_ev.next = 0.into();
        if self.ev.val().rel {
            self.idx_ev.next = self.ext_idx.o.val();
        }
        self.r16_valid.d.next = self.ev.val().valid & !self.flush.q.val().any();
        self.r16_fr.d.next = self.ev.val().fr;
        self.r16_ai.d.next = self.ev.val().ai;
        self.r16_hai.d.next = self.ev.val().hai;
        if self.r15_ph.q.val() == self.ph_fr.val() {
            self.r16_fr.d.next = self.ev.val().fr + self.idx_ev.val();
        } else if self.r15_ph.q.val() == self.ph_ai.val() {
            self.r16_ai.d.next = self.ev.val().ai + self.idx_ev.val();
        } else {
            self.r16_hai.d.next = self.ev.val().hai + self.idx_ev.val();
        }

        // ---- edge 17: the counters ----
        self.ext_add_fr.i.next = self.r16_fr.q.val();
        self.ext_add_ai.i.next = self.r16_ai.q.val();
        self.ext_add_hai.i.next = self.r16_hai.q.val();
        if self.r16_valid.q.val() {
            self.c_fr.d.next = self.c_fr.q.val() + self.ext_add_fr.o.val();
            self.c_ai.d.next = self.c_ai.q.val() + self.ext_add_ai.o.val();
            self.c_hai.d.next = self.c_hai.q.val() + self.ext_add_hai.o.val();
        }
        if self.flush.q.val().any() {
            self.flush.d.next = self.flush.q.val() - self.one5.val();
        }

        if self.reset.val() {
            self.k1_valid.d.next = false;
            self.r16_valid.d.next = false;
            self.flush.d.next = self.lag.val();
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

    /// `BitLen` (rust-hdl's simulation of it; the bit length as its user forms it, `lg + 1`
    /// when `pos`, else 0) against `bitlen` of the value read as a 31-bit two's complement
    /// number, at every power of two and its neighbours.
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
            let got = if b.pos.val() {
                b.lg.val().to_u64() + 1
            } else {
                0
            };
            assert_eq!(got, want, "v = {v:#x}");
        }
    }
}
