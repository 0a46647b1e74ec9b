//! Rate arithmetic of the reaction point: runs of increase events in closed form, their
//! phases, and the cut. Each block mirrors the golden function of the same name in
//! `sim::dcqcn_rp` (`run`, `phases`, `cut`); each is pipelined (`RUN_STAGES`,
//! `PHASE_STAGES`, `CUT_STAGES`, `SEG_STAGES`) with its registers loading on `en`.
//!
//! Signed values (`Rt - Rc` and intermediates) are two's complement in `DIST_W` = 31 bits;
//! rates are unsigned Mb/s Q.8 in 28 bits.

use super::widths::*;
use crate::delay_line::DelayLine;
use crate::pipe_mul::{PIPE_MUL_STAGES, PipeMul};
use crate::zero_ext::ZeroExt;
use rust_hdl::prelude::*;

// `IncRun`'s register 11 slices `n` (`COUNT_W` bits) as 7 + 14 and 5 + 16 bits.
const _: () = assert!(COUNT_W == 21);

/// Arithmetic right shift of a 31-bit two's complement value: `floor(v / 2^k)`.
#[derive(LogicBlock, Default)]
pub struct Asr {
    /// Value, two's complement.
    pub v: Signal<In, Bits<DIST_W>>,
    /// Shift, 0..=63.
    pub k: Signal<In, Bits<6>>,
    /// `v >> k`, sign-filling.
    pub o: Signal<Out, Bits<DIST_W>>,
}

impl Logic for Asr {
    #[hdl_gen]
    fn update(&mut self) {
        if self.v.val().get_bit(30) {
            self.o.next = !((!self.v.val()) >> self.k.val());
        } else {
            self.o.next = self.v.val() >> self.k.val();
        }
    }
}

/// What an [`IncRun`] carries beside its arithmetic from its inputs to the division's end.
#[derive(Clone, Copy, Debug, Default, PartialEq, LogicStruct)]
pub struct RunCarry {
    /// Number of events.
    pub n: Bits<COUNT_W>,
    /// Rt step per event, Mb/s Q.8.
    pub step: Bits<RATE_W>,
    /// Rt before, Mb/s Q.8.
    pub rt: Bits<RATE_W>,
    /// Rc before, Mb/s Q.8.
    pub rc: Bits<RATE_W>,
    /// Rt is at the max already.
    pub at_max: Bit,
}

/// An [`IncRun`]'s division in progress (and what its later steps need of the earlier).
#[derive(Clone, Copy, Debug, Default, PartialEq, LogicStruct)]
pub struct RunDiv {
    /// What is left of the excess `Rt + n * step - max` (34 bits: the excess is below
    /// `32 * step < 2^33` whenever the quotient is used).
    pub x: Bits<34>,
    /// Quotient bits found so far (`floor(excess / step)` at the end, `<= 31`).
    pub q: Bits<5>,
    /// `d = Rt - Rc`, two's complement.
    pub d: Bits<DIST_W>,
    /// `d - step`.
    pub dms: Bits<DIST_W>,
    /// The low `RATE_W` bits of `Rt + n * step` (Rt after when it stays below the max).
    pub sum: Bits<RATE_W>,
    /// `Rt + n * step < max`.
    pub below: Bit,
    /// `Rt + n * step >= max + 32 * step`: Rt reaches the max more than 31 events before
    /// the end, so the distance has halved to 0.
    pub far: Bit,
}

/// `n` consecutive increase events that add `step` to Rt (0: fast recovery), in closed
/// form (golden: `run`): the product `n * step` (its caller's: [`IncRun::nstep`]), a 5-step
/// restoring division and five arithmetic shifters.
///
/// Pipelined in [`RUN_STAGES`] = 15 registers that load when `en` is high, at most one
/// carry chain (or one barrel shifter) between two registers:
///
/// | registers | work before them |
/// |---|---|
/// | 1..3 | `n * step` (outside: `nstep`); `Rt >= max` |
/// | 4 | `Rt + n * step`, `max + 32 * step`, `d = Rt - Rc` |
/// | 5 | the excess `Rt + n * step - max` (and whether it is negative), whether it reaches `32 * step`, `d - step` |
/// | 6..10 | the division of the excess by the step, one quotient bit per step |
/// | 11 | `j = n - r - 1` (Rt reaches the max `r` events before the end), the shift amounts clamped to 63, `2 * step - remainder` |
/// | 12 | the three shifts of `d` and `d - step` |
/// | 13 | `step + ((d - step) >> n)` and `(step + ((d - step) >> j) + step - remainder) >> 1` |
/// | 14 | the last shift (by `r`) and the choice of the case |
/// | 15 | `Rc = Rt - d`: the outputs, registered (the segment compares Rc with the max) |
///
/// The outputs belong to the inputs presented
/// `RUN_STAGES` advancing cycles earlier; `max` is a parameter and must not change while a
/// run is in flight.
#[derive(LogicBlock)]
pub struct IncRun {
    /// Clock of the step registers.
    pub clock: Signal<In, Clock>,
    /// Advance: the step registers load.
    pub en: Signal<In, Bit>,
    /// Number of events, `< 2^21`.
    pub n: Signal<In, Bits<COUNT_W>>,
    /// Rt step per event, Mb/s Q.8.
    pub step: Signal<In, Bits<RATE_W>>,
    /// Rc before, Mb/s Q.8.
    pub rc: Signal<In, Bits<RATE_W>>,
    /// Rt before, Mb/s Q.8 (`<= max`).
    pub rt: Signal<In, Bits<RATE_W>>,
    /// Max rate, Mb/s Q.8. A parameter: registered at the run's input (`max_q`), so it
    /// must be steady from a cycle before an event enters until it leaves.
    pub max: Signal<In, Bits<RATE_W>>,
    /// `n * step` of the inputs presented [`PIPE_MUL_STAGES`] advancing cycles earlier
    /// (bits 49 and up unused): a `PipeMul` beside the run with the same `n`, `step` and
    /// `en` where both vary, else what the product reduces to (0 for the fast-recovery
    /// run, whose step is 0; the step, delayed, for the byte event's run of one event).
    /// Outside the run so that a fixed operand costs no DSPs and no DSP operand path.
    pub nstep: Signal<In, Bits<64>>,
    /// Rc after, Mb/s Q.8 (may exceed `max` by 1 LSB when the QP releases).
    pub rc_o: Signal<Out, Bits<RATE_W>>,
    /// Rt after, Mb/s Q.8.
    pub rt_o: Signal<Out, Bits<RATE_W>>,
    // Zero-extensions (`bit_cast` would emit an AND of mismatched widths; see `crate::zero_ext`).
    ext_p: ZeroExt<49, 50>,
    ext_rt50: ZeroExt<RATE_W, 50>,
    ext_max50: ZeroExt<RATE_W, 50>,
    ext_s50: ZeroExt<RATE_W, 50>,
    ext_rt31: ZeroExt<RATE_W, DIST_W>,
    ext_rc31: ZeroExt<RATE_W, DIST_W>,
    ext_s31_5: ZeroExt<RATE_W, DIST_W>,
    ext_s34_6: ZeroExt<RATE_W, 34>,
    ext_s34_7: ZeroExt<RATE_W, 34>,
    ext_s34_8: ZeroExt<RATE_W, 34>,
    ext_s34_9: ZeroExt<RATE_W, 34>,
    ext_s34_10: ZeroExt<RATE_W, 34>,
    ext_r6j: ZeroExt<5, 6>,
    ext_r7: ZeroExt<5, 7>,
    ext_s31_11: ZeroExt<RATE_W, DIST_W>,
    ext_s31_13: ZeroExt<RATE_W, DIST_W>,
    ext_r6: ZeroExt<5, 6>,
    asr_n: Asr,
    asr_fr: Asr,
    asr_j: Asr,
    asr_half: Asr,
    asr_sat: Asr,
    // Registers 1..3: beside the multiplier.
    c1: DFF<RunCarry>,
    c2: DFF<RunCarry>,
    c3: DFF<RunCarry>,
    // Register 4.
    /// `n * step`: 49 bits of `nstep`'s 64 (the rest are zero).
    p49: Signal<Local, Bits<49>>,
    p_hi_unused: Signal<Local, Bits<15>>,
    c4: DFF<RunCarry>,
    r4_sum: DFF<Bits<50>>,
    r4_m32: DFF<Bits<50>>,
    r4_d: DFF<Bits<DIST_W>>,
    // Register 5.
    over: Signal<Local, Bits<50>>,
    /// Bits of the excess above the 34 the division reads: when they are not zero the
    /// result does not depend on the quotient (`far` or `below`).
    over_hi_unused: Signal<Local, Bits<16>>,
    v5: Signal<Local, RunDiv>,
    c5: DFF<RunCarry>,
    r5: DFF<RunDiv>,
    // Registers 6..10: one quotient bit each (16, 8, 4, 2, 1 times the step).
    ds6: Signal<Local, Bits<34>>,
    v6: Signal<Local, RunDiv>,
    c6: DFF<RunCarry>,
    r6: DFF<RunDiv>,
    ds7: Signal<Local, Bits<34>>,
    v7: Signal<Local, RunDiv>,
    c7: DFF<RunCarry>,
    r7: DFF<RunDiv>,
    ds8: Signal<Local, Bits<34>>,
    v8: Signal<Local, RunDiv>,
    c8: DFF<RunCarry>,
    r8: DFF<RunDiv>,
    ds9: Signal<Local, Bits<34>>,
    v9: Signal<Local, RunDiv>,
    c9: DFF<RunCarry>,
    r9: DFF<RunDiv>,
    ds10: Signal<Local, Bits<34>>,
    v10: Signal<Local, RunDiv>,
    c10: DFF<RunCarry>,
    r10: DFF<RunDiv>,
    /// `n` out of register 9 (a local: `hdl_gen` cannot slice a field).
    n9: Signal<Local, Bits<COUNT_W>>,
    /// `n >= 128`, `n >= 32`, `n >= 63`, registered beside `c10` so that register 11's
    /// clamps of the shift amounts start at one flip-flop each: as ORs of `c10`'s upper `n`
    /// bits they are four LUT levels in front of `r11_sh_j`, which leaves no margin at
    /// 10 ns.
    r10_n_hi7: DFF<Bit>,
    r10_n_hi5: DFF<Bit>,
    r10_n_ge63: DFF<Bit>,
    // Register 11.
    /// `n` and the remainder out of registers 10 (locals: `hdl_gen` cannot slice a field).
    n10: Signal<Local, Bits<COUNT_W>>,
    x10: Signal<Local, Bits<34>>,
    /// `j = n - r - 1` (modulo `2^COUNT_W`), its low 6 bits only (`n + !r` in 6 bits).
    j6: Signal<Local, Bits<6>>,
    /// `j >= 63`, found without `j`'s carry chain (`r <= 31`): `n >= r + 64` (true when
    /// `n >= 128`, else `n`'s low 7 bits against `64 | r`) or `n <= r` (`j` wraps around).
    j_far: Signal<Local, Bit>,
    j_wrap: Signal<Local, Bit>,
    /// `64 | r` (= `r + 64`), 7 bits.
    r_p64: Signal<Local, Bits<7>>,
    k64_7: Constant<Bits<7>>,
    /// The bits of the remainder above `DIST_W`: it is below `step < 2^28` whenever the
    /// result depends on it.
    rem_hi_unused: Signal<Local, Bits<3>>,
    r11_n_any: DFF<Bit>,
    r11_sh_n: DFF<Bits<6>>,
    r11_sh_j: DFF<Bits<6>>,
    r11_r: DFF<Bits<5>>,
    r11_tsr: DFF<Bits<DIST_W>>,
    r11_d: DFF<Bits<DIST_W>>,
    r11_dms: DFF<Bits<DIST_W>>,
    r11_step: DFF<Bits<RATE_W>>,
    r11_rt: DFF<Bits<RATE_W>>,
    r11_rc: DFF<Bits<RATE_W>>,
    r11_sum: DFF<Bits<RATE_W>>,
    r11_at_max: DFF<Bit>,
    r11_below: DFF<Bit>,
    r11_far: DFF<Bit>,
    // Register 12.
    r12_asr_n: DFF<Bits<DIST_W>>,
    r12_asr_fr: DFF<Bits<DIST_W>>,
    r12_asr_j: DFF<Bits<DIST_W>>,
    r12_n_any: DFF<Bit>,
    r12_r: DFF<Bits<5>>,
    r12_tsr: DFF<Bits<DIST_W>>,
    r12_step: DFF<Bits<RATE_W>>,
    r12_rt: DFF<Bits<RATE_W>>,
    r12_rc: DFF<Bits<RATE_W>>,
    r12_sum: DFF<Bits<RATE_W>>,
    r12_at_max: DFF<Bit>,
    r12_below: DFF<Bit>,
    r12_far: DFF<Bit>,
    // Register 13.
    r13_d_unsat: DFF<Bits<DIST_W>>,
    r13_half: DFF<Bits<DIST_W>>,
    r13_asr_fr: DFF<Bits<DIST_W>>,
    r13_n_any: DFF<Bit>,
    r13_r: DFF<Bits<5>>,
    r13_rt: DFF<Bits<RATE_W>>,
    r13_rc: DFF<Bits<RATE_W>>,
    r13_sum: DFF<Bits<RATE_W>>,
    r13_at_max: DFF<Bit>,
    r13_below: DFF<Bit>,
    r13_far: DFF<Bit>,
    // Register 14.
    rt_sel: Signal<Local, Bits<RATE_W>>,
    d_sel: Signal<Local, Bits<DIST_W>>,
    /// Rc after is the low `RATE_W` bits of `Rt - d` (the golden model stores Rc in
    /// `RATE_W` bits too): the high bits of `d` do not reach it.
    d_sel_hi_unused: Signal<Local, Bits<3>>,
    r14_n_any: DFF<Bit>,
    r14_rt_sel: DFF<Bits<RATE_W>>,
    r14_d_sel: DFF<Bits<RATE_W>>,
    r14_rt: DFF<Bits<RATE_W>>,
    r14_rc: DFF<Bits<RATE_W>>,
    // Register 15: the outputs (what reads them compares them with the max at once).
    rc15: Signal<Local, Bits<RATE_W>>,
    rt15: Signal<Local, Bits<RATE_W>>,
    r15_rc: DFF<Bits<RATE_W>>,
    r15_rt: DFF<Bits<RATE_W>>,
    /// `max`, registered every cycle: the run's compares and sums with the max start at
    /// this register beside them rather than at the parameter register, which feeds every
    /// run of the update (the route from that register to a run's register-5 compare alone
    /// can take two thirds of the 10 ns cycle).
    max_q: DFF<Bits<RATE_W>>,
    q16: Constant<Bits<5>>,
    q8: Constant<Bits<5>>,
    q4: Constant<Bits<5>>,
    q2: Constant<Bits<5>>,
    q1: Constant<Bits<5>>,
    sh_max: Constant<Bits<COUNT_W>>,
}

/// Registers inside an [`IncRun`]: its outputs follow its inputs by this many advancing
/// cycles.
pub const RUN_STAGES: usize = PIPE_MUL_STAGES + 12;

impl Default for IncRun {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            en: Default::default(),
            n: Default::default(),
            step: Default::default(),
            rc: Default::default(),
            rt: Default::default(),
            max: Default::default(),
            rc_o: Default::default(),
            rt_o: Default::default(),
            nstep: Default::default(),
            ext_p: Default::default(),
            ext_rt50: Default::default(),
            ext_max50: Default::default(),
            ext_s50: Default::default(),
            ext_rt31: Default::default(),
            ext_rc31: Default::default(),
            ext_s31_5: Default::default(),
            ext_s34_6: Default::default(),
            ext_s34_7: Default::default(),
            ext_s34_8: Default::default(),
            ext_s34_9: Default::default(),
            ext_s34_10: Default::default(),
            ext_r6j: Default::default(),
            ext_r7: Default::default(),
            ext_s31_11: Default::default(),
            ext_s31_13: Default::default(),
            ext_r6: Default::default(),
            asr_n: Default::default(),
            asr_fr: Default::default(),
            asr_j: Default::default(),
            asr_half: Default::default(),
            asr_sat: Default::default(),
            c1: Default::default(),
            c2: Default::default(),
            c3: Default::default(),
            p49: Default::default(),
            p_hi_unused: Default::default(),
            c4: Default::default(),
            r4_sum: Default::default(),
            r4_m32: Default::default(),
            r4_d: Default::default(),
            over: Default::default(),
            over_hi_unused: Default::default(),
            v5: Default::default(),
            c5: Default::default(),
            r5: Default::default(),
            ds6: Default::default(),
            v6: Default::default(),
            c6: Default::default(),
            r6: Default::default(),
            ds7: Default::default(),
            v7: Default::default(),
            c7: Default::default(),
            r7: Default::default(),
            ds8: Default::default(),
            v8: Default::default(),
            c8: Default::default(),
            r8: Default::default(),
            ds9: Default::default(),
            v9: Default::default(),
            c9: Default::default(),
            r9: Default::default(),
            ds10: Default::default(),
            v10: Default::default(),
            c10: Default::default(),
            n9: Default::default(),
            r10_n_hi7: Default::default(),
            r10_n_hi5: Default::default(),
            r10_n_ge63: Default::default(),
            r10: Default::default(),
            n10: Default::default(),
            x10: Default::default(),
            j6: Default::default(),
            j_far: Default::default(),
            j_wrap: Default::default(),
            r_p64: Default::default(),
            k64_7: Constant::new(64.into()),
            rem_hi_unused: Default::default(),
            r11_n_any: Default::default(),
            r11_sh_n: Default::default(),
            r11_sh_j: Default::default(),
            r11_r: Default::default(),
            r11_tsr: Default::default(),
            r11_d: Default::default(),
            r11_dms: Default::default(),
            r11_step: Default::default(),
            r11_rt: Default::default(),
            r11_rc: Default::default(),
            r11_sum: Default::default(),
            r11_at_max: Default::default(),
            r11_below: Default::default(),
            r11_far: Default::default(),
            r12_asr_n: Default::default(),
            r12_asr_fr: Default::default(),
            r12_asr_j: Default::default(),
            r12_n_any: Default::default(),
            r12_r: Default::default(),
            r12_tsr: Default::default(),
            r12_step: Default::default(),
            r12_rt: Default::default(),
            r12_rc: Default::default(),
            r12_sum: Default::default(),
            r12_at_max: Default::default(),
            r12_below: Default::default(),
            r12_far: Default::default(),
            r13_d_unsat: Default::default(),
            r13_half: Default::default(),
            r13_asr_fr: Default::default(),
            r13_n_any: Default::default(),
            r13_r: Default::default(),
            r13_rt: Default::default(),
            r13_rc: Default::default(),
            r13_sum: Default::default(),
            r13_at_max: Default::default(),
            r13_below: Default::default(),
            r13_far: Default::default(),
            rt_sel: Default::default(),
            d_sel: Default::default(),
            d_sel_hi_unused: Default::default(),
            r14_n_any: Default::default(),
            r14_rt_sel: Default::default(),
            r14_d_sel: Default::default(),
            r14_rt: Default::default(),
            r14_rc: Default::default(),
            rc15: Default::default(),
            rt15: Default::default(),
            r15_rc: Default::default(),
            r15_rt: Default::default(),
            max_q: Default::default(),
            q16: Constant::new(16.into()),
            q8: Constant::new(8.into()),
            q4: Constant::new(4.into()),
            q2: Constant::new(2.into()),
            q1: Constant::new(1.into()),
            sh_max: Constant::new(63.into()),
        }
    }
}

impl Logic for IncRun {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            c1,
            c2,
            c3,
            c4,
            r4_sum,
            r4_m32,
            r4_d,
            c5,
            r5,
            c6,
            r6,
            c7,
            r7,
            c8,
            r8,
            c9,
            r9,
            c10,
            r10_n_hi7,
            r10_n_hi5,
            r10_n_ge63,
            r10,
            r11_n_any,
            r11_sh_n,
            r11_sh_j,
            r11_r,
            r11_tsr,
            r11_d,
            r11_dms,
            r11_step,
            r11_rt,
            r11_rc,
            r11_sum,
            r11_at_max,
            r11_below,
            r11_far,
            r12_asr_n,
            r12_asr_fr,
            r12_asr_j,
            r12_n_any,
            r12_r,
            r12_tsr,
            r12_step,
            r12_rt,
            r12_rc,
            r12_sum,
            r12_at_max,
            r12_below,
            r12_far,
            r13_d_unsat,
            r13_half,
            r13_asr_fr,
            r13_n_any,
            r13_r,
            r13_rt,
            r13_rc,
            r13_sum,
            r13_at_max,
            r13_below,
            r13_far,
            r14_n_any,
            r14_rt_sel,
            r14_d_sel,
            r14_rt,
            r14_rc,
            r15_rc,
            r15_rt,
            max_q
        );
        self.max_q.d.next = self.max.val();
        // ---- registers 1..3: n * step; Rt against the max ----
        if self.en.val() {
            self.c1.d.next.n = self.n.val();
            self.c1.d.next.step = self.step.val();
            self.c1.d.next.rt = self.rt.val();
            self.c1.d.next.rc = self.rc.val();
            self.c1.d.next.at_max = self.rt.val() >= self.max_q.q.val();
            self.c2.d.next = self.c1.q.val();
            self.c3.d.next = self.c2.q.val();
        }

        // ---- register 4: Rt + n * step, max + 32 * step, d ----
        self.p49.next = self.nstep.val().get_bits::<49>(0);
        self.p_hi_unused.next = self.nstep.val().get_bits::<15>(49);
        self.ext_p.i.next = self.p49.val();
        self.ext_rt50.i.next = self.c3.q.val().rt;
        self.ext_max50.i.next = self.max_q.q.val();
        self.ext_s50.i.next = self.c3.q.val().step;
        self.ext_rt31.i.next = self.c3.q.val().rt;
        self.ext_rc31.i.next = self.c3.q.val().rc;
        if self.en.val() {
            self.c4.d.next = self.c3.q.val();
            self.r4_sum.d.next = self.ext_rt50.o.val() + self.ext_p.o.val();
            self.r4_m32.d.next = self.ext_max50.o.val() + (self.ext_s50.o.val() << 5);
            self.r4_d.d.next = self.ext_rt31.o.val() - self.ext_rc31.o.val();
        }

        // ---- register 5: the excess over the max, d - step ----
        self.over.next = self.r4_sum.q.val() - self.ext_max50.o.val();
        self.over_hi_unused.next = self.over.val().get_bits::<16>(34);
        self.ext_s31_5.i.next = self.c4.q.val().step;
        self.v5.next.x = self.over.val().get_bits::<34>(0);
        self.v5.next.q = 0.into();
        self.v5.next.d = self.r4_d.q.val();
        self.v5.next.dms = self.r4_d.q.val() - self.ext_s31_5.o.val();
        self.v5.next.sum = self.r4_sum.q.val().get_bits::<RATE_W>(0);
        self.v5.next.below = self.r4_sum.q.val() < self.ext_max50.o.val();
        self.v5.next.far = self.r4_sum.q.val() >= self.r4_m32.q.val();
        if self.en.val() {
            self.c5.d.next = self.c4.q.val();
            self.r5.d.next = self.v5.val();
        }

        // ---- registers 6..10: r = floor(excess / step), for excess < 32 * step ----
        self.ext_s34_6.i.next = self.c5.q.val().step;
        self.ds6.next = self.ext_s34_6.o.val() << 4;
        self.v6.next = self.r5.q.val();
        if self.r5.q.val().x >= self.ds6.val() {
            self.v6.next.x = self.r5.q.val().x - self.ds6.val();
            self.v6.next.q = self.r5.q.val().q | self.q16.val();
        }
        self.ext_s34_7.i.next = self.c6.q.val().step;
        self.ds7.next = self.ext_s34_7.o.val() << 3;
        self.v7.next = self.r6.q.val();
        if self.r6.q.val().x >= self.ds7.val() {
            self.v7.next.x = self.r6.q.val().x - self.ds7.val();
            self.v7.next.q = self.r6.q.val().q | self.q8.val();
        }
        self.ext_s34_8.i.next = self.c7.q.val().step;
        self.ds8.next = self.ext_s34_8.o.val() << 2;
        self.v8.next = self.r7.q.val();
        if self.r7.q.val().x >= self.ds8.val() {
            self.v8.next.x = self.r7.q.val().x - self.ds8.val();
            self.v8.next.q = self.r7.q.val().q | self.q4.val();
        }
        self.ext_s34_9.i.next = self.c8.q.val().step;
        self.ds9.next = self.ext_s34_9.o.val() << 1;
        self.v9.next = self.r8.q.val();
        if self.r8.q.val().x >= self.ds9.val() {
            self.v9.next.x = self.r8.q.val().x - self.ds9.val();
            self.v9.next.q = self.r8.q.val().q | self.q2.val();
        }
        self.ext_s34_10.i.next = self.c9.q.val().step;
        self.ds10.next = self.ext_s34_10.o.val();
        self.v10.next = self.r9.q.val();
        if self.r9.q.val().x >= self.ds10.val() {
            self.v10.next.x = self.r9.q.val().x - self.ds10.val();
            self.v10.next.q = self.r9.q.val().q | self.q1.val();
        }
        self.n9.next = self.c9.q.val().n;
        if self.en.val() {
            self.c6.d.next = self.c5.q.val();
            self.r6.d.next = self.v6.val();
            self.c7.d.next = self.c6.q.val();
            self.r7.d.next = self.v7.val();
            self.c8.d.next = self.c7.q.val();
            self.r8.d.next = self.v8.val();
            self.c9.d.next = self.c8.q.val();
            self.r9.d.next = self.v9.val();
            self.c10.d.next = self.c9.q.val();
            self.r10.d.next = self.v10.val();
            self.r10_n_hi7.d.next = self.n9.val().get_bits::<14>(7).any();
            self.r10_n_hi5.d.next = self.n9.val().get_bits::<16>(5).any();
            self.r10_n_ge63.d.next = self.n9.val() >= self.sh_max.val();
        }

        // ---- register 11: j = n - r - 1 (n + !r), the shift amounts (clamped to 63:
        // every 31-bit value is 0 or -1 by then), 2 * step - remainder ----
        self.n10.next = self.c10.q.val().n;
        self.x10.next = self.r10.q.val().x;
        self.ext_r6j.i.next = self.r10.q.val().q;
        self.j6.next = self.n10.val().get_bits::<6>(0) + !self.ext_r6j.o.val();
        self.ext_r7.i.next = self.r10.q.val().q;
        self.r_p64.next = self.ext_r7.o.val() | self.k64_7.val();
        self.j_far.next =
            self.r10_n_hi7.q.val() | (self.n10.val().get_bits::<7>(0) >= self.r_p64.val());
        self.j_wrap.next =
            !self.r10_n_hi5.q.val() & (self.n10.val().get_bits::<5>(0) <= self.r10.q.val().q);
        self.ext_s31_11.i.next = self.c10.q.val().step;
        self.rem_hi_unused.next = self.x10.val().get_bits::<3>(31);
        if self.en.val() {
            self.r11_n_any.d.next = self.n10.val().any();
            self.r11_sh_n.d.next = self.n10.val().get_bits::<6>(0);
            if self.r10_n_ge63.q.val() {
                self.r11_sh_n.d.next = 63.into();
            }
            self.r11_sh_j.d.next = self.j6.val();
            if self.j_far.val() | self.j_wrap.val() {
                self.r11_sh_j.d.next = 63.into();
            }
            self.r11_r.d.next = self.r10.q.val().q;
            self.r11_tsr.d.next =
                (self.ext_s31_11.o.val() << 1) - self.x10.val().get_bits::<DIST_W>(0);
            self.r11_d.d.next = self.r10.q.val().d;
            self.r11_dms.d.next = self.r10.q.val().dms;
            self.r11_step.d.next = self.c10.q.val().step;
            self.r11_rt.d.next = self.c10.q.val().rt;
            self.r11_rc.d.next = self.c10.q.val().rc;
            self.r11_sum.d.next = self.r10.q.val().sum;
            self.r11_at_max.d.next = self.c10.q.val().at_max;
            self.r11_below.d.next = self.r10.q.val().below;
            self.r11_far.d.next = self.r10.q.val().far;
        }

        // ---- register 12: the shifts of d ----
        // Rt stays below max: d - step halves n times.
        self.asr_n.v.next = self.r11_dms.q.val();
        self.asr_n.k.next = self.r11_sh_n.q.val();
        // Rt already at max: d halves n times.
        self.asr_fr.v.next = self.r11_d.q.val();
        self.asr_fr.k.next = self.r11_sh_n.q.val();
        // Rt reaches max r events before the end.
        self.asr_j.v.next = self.r11_dms.q.val();
        self.asr_j.k.next = self.r11_sh_j.q.val();
        if self.en.val() {
            self.r12_asr_n.d.next = self.asr_n.o.val();
            self.r12_asr_fr.d.next = self.asr_fr.o.val();
            self.r12_asr_j.d.next = self.asr_j.o.val();
            self.r12_n_any.d.next = self.r11_n_any.q.val();
            self.r12_r.d.next = self.r11_r.q.val();
            self.r12_tsr.d.next = self.r11_tsr.q.val();
            self.r12_step.d.next = self.r11_step.q.val();
            self.r12_rt.d.next = self.r11_rt.q.val();
            self.r12_rc.d.next = self.r11_rc.q.val();
            self.r12_sum.d.next = self.r11_sum.q.val();
            self.r12_at_max.d.next = self.r11_at_max.q.val();
            self.r12_below.d.next = self.r11_below.q.val();
            self.r12_far.d.next = self.r11_far.q.val();
        }

        // ---- register 13: step + (d - step) >> n; (step + (d - step) >> j + step -
        // remainder) >> 1 ----
        self.ext_s31_13.i.next = self.r12_step.q.val();
        self.asr_half.v.next = self.r12_asr_j.q.val() + self.r12_tsr.q.val();
        self.asr_half.k.next = 1.into();
        if self.en.val() {
            self.r13_d_unsat.d.next = self.ext_s31_13.o.val() + self.r12_asr_n.q.val();
            self.r13_half.d.next = self.asr_half.o.val();
            self.r13_asr_fr.d.next = self.r12_asr_fr.q.val();
            self.r13_n_any.d.next = self.r12_n_any.q.val();
            self.r13_r.d.next = self.r12_r.q.val();
            self.r13_rt.d.next = self.r12_rt.q.val();
            self.r13_rc.d.next = self.r12_rc.q.val();
            self.r13_sum.d.next = self.r12_sum.q.val();
            self.r13_at_max.d.next = self.r12_at_max.q.val();
            self.r13_below.d.next = self.r12_below.q.val();
            self.r13_far.d.next = self.r12_far.q.val();
        }

        // ---- register 14: the halving by r, the case ----
        self.ext_r6.i.next = self.r13_r.q.val();
        self.asr_sat.v.next = self.r13_half.q.val();
        self.asr_sat.k.next = self.ext_r6.o.val();
        self.rt_sel.next = self.max_q.q.val();
        self.d_sel.next = self.asr_sat.o.val();
        if self.r13_at_max.q.val() {
            self.d_sel.next = self.r13_asr_fr.q.val();
        } else if self.r13_below.q.val() {
            self.rt_sel.next = self.r13_sum.q.val();
            self.d_sel.next = self.r13_d_unsat.q.val();
        } else if self.r13_far.q.val() {
            self.d_sel.next = 0.into();
        }
        self.d_sel_hi_unused.next = self.d_sel.val().get_bits::<3>(28);
        if self.en.val() {
            self.r14_n_any.d.next = self.r13_n_any.q.val();
            self.r14_rt_sel.d.next = self.rt_sel.val();
            self.r14_d_sel.d.next = self.d_sel.val().get_bits::<RATE_W>(0);
            self.r14_rt.d.next = self.r13_rt.q.val();
            self.r14_rc.d.next = self.r13_rc.q.val();
        }

        // ---- register 15: Rc = Rt - d (modulo 2^RATE_W) ----
        if !self.r14_n_any.q.val() {
            self.rc15.next = self.r14_rc.q.val();
            self.rt15.next = self.r14_rt.q.val();
        } else {
            self.rc15.next = self.r14_rt_sel.q.val() - self.r14_d_sel.q.val();
            self.rt15.next = self.r14_rt_sel.q.val();
        }
        if self.en.val() {
            self.r15_rc.d.next = self.rc15.val();
            self.r15_rt.d.next = self.rt15.val();
        }
        self.rc_o.next = self.r15_rc.q.val();
        self.rt_o.next = self.r15_rt.q.val();
    }
}

/// Split `k` increase-timer events starting at stage counters `t`, `bc` into fast recovery,
/// additive and hyper events (golden: `phases`).
///
/// Pipelined in [`PHASE_STAGES`] = 2 registers that load when `en` is high: (1) the events
/// before T reaches the threshold (`to_ai`) and passes it (`to_hai`), which phases the byte
/// counter allows, computed [`PHASE_SMALL_W`] bits wide (the threshold, T and BC are at most
/// 63, so `to_hai <= 32`: a 21-bit `th + 1` chain followed by a 21-bit compare and subtract
/// does not fit 10 ns); (2) `fr = min(k, to_ai)`,
/// `hai = k - to_hai` (when positive) and `k - hai`; after register 2, `ai = (k - hai) - fr`. The outputs belong to the inputs
/// presented `PHASE_STAGES` advancing cycles earlier; `th` and `byte_off` are parameters.
#[derive(LogicBlock)]
pub struct Phases {
    /// Clock of the step registers.
    pub clock: Signal<In, Clock>,
    /// Advance: the step registers load.
    pub en: Signal<In, Bit>,
    /// Number of events.
    pub k: Signal<In, Bits<COUNT_W>>,
    /// Timer stage counter T before.
    pub t: Signal<In, Bits<STAGE_W>>,
    /// Byte stage counter BC (constant over timer events).
    pub bc: Signal<In, Bits<STAGE_W>>,
    /// `rpg_threshold`.
    pub th: Signal<In, Bits<THRESH_W>>,
    /// The byte counter is off (`rpg_byte_reset == 0`): BC follows T.
    pub byte_off: Signal<In, Bit>,
    /// Fast-recovery events.
    pub n_fr: Signal<Out, Bits<COUNT_W>>,
    /// Additive-increase events.
    pub n_ai: Signal<Out, Bits<COUNT_W>>,
    /// Hyper-increase events.
    pub n_hai: Signal<Out, Bits<COUNT_W>>,
    th7: Signal<Local, Bits<PHASE_SMALL_W>>,
    th1: Signal<Local, Bits<PHASE_SMALL_W>>,
    t7: Signal<Local, Bits<PHASE_SMALL_W>>,
    bc7: Signal<Local, Bits<PHASE_SMALL_W>>,
    // Zero-extensions (`bit_cast` would emit an AND of mismatched widths; see `crate::zero_ext`).
    ext_th: ZeroExt<THRESH_W, PHASE_SMALL_W>,
    ext_t: ZeroExt<STAGE_W, PHASE_SMALL_W>,
    ext_bc: ZeroExt<STAGE_W, PHASE_SMALL_W>,
    ext_to_ai: ZeroExt<PHASE_SMALL_W, COUNT_W>,
    ext_to_hai: ZeroExt<PHASE_SMALL_W, COUNT_W>,
    one: Constant<Bits<PHASE_SMALL_W>>,
    r1_k: DFF<Bits<COUNT_W>>,
    r1_to_ai: DFF<Bits<PHASE_SMALL_W>>,
    r1_to_hai: DFF<Bits<PHASE_SMALL_W>>,
    /// `r1_to_ai`, `r1_to_hai` zero-extended to `COUNT_W`.
    to_ai: Signal<Local, Bits<COUNT_W>>,
    to_hai: Signal<Local, Bits<COUNT_W>>,
    /// Fast recovery and hyper increase happen at all (the byte counter allows them).
    r1_fr_on: DFF<Bit>,
    r1_hai_on: DFF<Bit>,
    r2_fr: DFF<Bits<COUNT_W>>,
    r2_hai: DFF<Bits<COUNT_W>>,
    /// `k - hai`.
    r2_khai: DFF<Bits<COUNT_W>>,
}

/// Registers inside [`Phases`].
pub const PHASE_STAGES: usize = 2;
/// Width of [`Phases`]' register-1 arithmetic: T and BC (`STAGE_W` bits, at most 63), the
/// threshold (`THRESH_W`, at most 31) and the threshold plus one, without overflow.
pub const PHASE_SMALL_W: usize = STAGE_W + 1;

impl Default for Phases {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            en: Default::default(),
            k: Default::default(),
            t: Default::default(),
            bc: Default::default(),
            th: Default::default(),
            byte_off: Default::default(),
            n_fr: Default::default(),
            n_ai: Default::default(),
            n_hai: Default::default(),
            th7: Default::default(),
            th1: Default::default(),
            t7: Default::default(),
            bc7: Default::default(),
            ext_th: Default::default(),
            ext_t: Default::default(),
            ext_bc: Default::default(),
            ext_to_ai: Default::default(),
            ext_to_hai: Default::default(),
            one: Constant::new(1.into()),
            r1_k: Default::default(),
            r1_to_ai: Default::default(),
            r1_to_hai: Default::default(),
            to_ai: Default::default(),
            to_hai: Default::default(),
            r1_fr_on: Default::default(),
            r1_hai_on: Default::default(),
            r2_fr: Default::default(),
            r2_hai: Default::default(),
            r2_khai: Default::default(),
        }
    }
}

impl Logic for Phases {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, r1_k, r1_to_ai, r1_to_hai, r1_fr_on, r1_hai_on, r2_fr, r2_hai, r2_khai
        );
        // ---- register 1: events before T reaches the threshold, and before it passes it
        self.ext_th.i.next = self.th.val();
        self.ext_t.i.next = self.t.val();
        self.ext_bc.i.next = self.bc.val();
        self.th7.next = self.ext_th.o.val();
        self.th1.next = self.th7.val() + self.one.val();
        self.t7.next = self.ext_t.o.val();
        self.bc7.next = self.ext_bc.o.val();
        if self.en.val() {
            self.r1_k.d.next = self.k.val();
            self.r1_to_ai.d.next = 0.into();
            if self.th7.val() > self.t7.val() {
                self.r1_to_ai.d.next = self.th7.val() - self.t7.val();
            }
            self.r1_to_hai.d.next = 0.into();
            if self.th1.val() > self.t7.val() {
                self.r1_to_hai.d.next = self.th1.val() - self.t7.val();
            }
            self.r1_fr_on.d.next = self.byte_off.val() | (self.bc7.val() < self.th7.val());
            self.r1_hai_on.d.next = self.byte_off.val() | (self.bc7.val() > self.th7.val());
        }
        // ---- register 2: fast recovery and hyper events, k - hai ----
        self.ext_to_ai.i.next = self.r1_to_ai.q.val();
        self.ext_to_hai.i.next = self.r1_to_hai.q.val();
        self.to_ai.next = self.ext_to_ai.o.val();
        self.to_hai.next = self.ext_to_hai.o.val();
        if self.en.val() {
            self.r2_fr.d.next = 0.into();
            if self.r1_fr_on.q.val() {
                self.r2_fr.d.next = self.r1_k.q.val();
                if self.to_ai.val() < self.r1_k.q.val() {
                    self.r2_fr.d.next = self.to_ai.val();
                }
            }
            self.r2_hai.d.next = 0.into();
            self.r2_khai.d.next = self.r1_k.q.val();
            if self.r1_hai_on.q.val() & (self.r1_k.q.val() > self.to_hai.val()) {
                self.r2_hai.d.next = self.r1_k.q.val() - self.to_hai.val();
                self.r2_khai.d.next = self.to_hai.val();
            }
        }
        // ---- after register 2: the additive events ----
        self.n_fr.next = self.r2_fr.q.val();
        self.n_hai.next = self.r2_hai.q.val();
        self.n_ai.next = self.r2_khai.q.val() - self.r2_fr.q.val();
    }
}

/// `k` increase-timer events: phases, then the three runs; T advances by `k` (saturating)
/// and `released` says Rc reached the max rate (golden: `timer_increases`).
///
/// Pipelined: the three runs follow one another, each an [`IncRun`] of `RUN_STAGES`
/// registers with a register between runs (`p1`, `p2`); what the later steps need of the
/// earlier ones (a [`SegSide`]) waits beside each run in a `DelayLine` (`line_a`, `line_b`,
/// `line_c`: a small RAM each, not `RUN_STAGES` registers). The outputs belong to the
/// inputs presented [`SEG_STAGES`] advancing cycles earlier. `th`, `byte_off`, `ai`, `hai`
/// and `max` are parameters and must not change while a segment is in flight.
/// What an [`IncSegment`] carries beside its runs.
#[derive(Clone, Copy, Debug, Default, PartialEq, LogicStruct)]
pub struct SegSide {
    /// Events by phase (from `Phases`).
    pub n_fr: Bits<COUNT_W>,
    pub n_ai: Bits<COUNT_W>,
    pub n_hai: Bits<COUNT_W>,
    /// Rc, Rt before the segment, Mb/s Q.8.
    pub rc: Bits<RATE_W>,
    pub rt: Bits<RATE_W>,
    /// T after the segment.
    pub t_o: Bits<STAGE_W>,
    /// Rc, Rt after the fast-recovery run (0 beside it).
    pub fr_rc: Bits<RATE_W>,
    pub fr_rt: Bits<RATE_W>,
    /// Rc, Rt after the additive run (0 before it).
    pub ai_rc: Bits<RATE_W>,
    pub ai_rt: Bits<RATE_W>,
    /// The fast-recovery (additive) run released the limiter: it had events and its Rc
    /// reached the max. Compared when the run's result is registered (`p1`, `p2`), so the
    /// segment's end compares only the hyper run's Rc.
    pub fr_rel: Bit,
    pub ai_rel: Bit,
}

#[derive(LogicBlock)]
pub struct IncSegment {
    /// Clock of the step registers.
    pub clock: Signal<In, Clock>,
    /// Advance: the step registers load.
    pub en: Signal<In, Bit>,
    /// Number of increase-timer events.
    pub k: Signal<In, Bits<COUNT_W>>,
    /// T before.
    pub t: Signal<In, Bits<STAGE_W>>,
    /// BC.
    pub bc: Signal<In, Bits<STAGE_W>>,
    /// Rc before.
    pub rc: Signal<In, Bits<RATE_W>>,
    /// Rt before.
    pub rt: Signal<In, Bits<RATE_W>>,
    /// `rpg_threshold`.
    pub th: Signal<In, Bits<THRESH_W>>,
    /// Byte counter off.
    pub byte_off: Signal<In, Bit>,
    /// Additive step, Mb/s Q.8.
    pub ai: Signal<In, Bits<RATE_W>>,
    /// Hyper step, Mb/s Q.8.
    pub hai: Signal<In, Bits<RATE_W>>,
    /// Max rate, Mb/s Q.8. A parameter: registered here and in each run (`max_q`), so it
    /// must be steady from a cycle before an event enters until it leaves.
    pub max: Signal<In, Bits<RATE_W>>,
    /// Rc after.
    pub rc_o: Signal<Out, Bits<RATE_W>>,
    /// Rt after.
    pub rt_o: Signal<Out, Bits<RATE_W>>,
    /// T after.
    pub t_o: Signal<Out, Bits<STAGE_W>>,
    /// Rc reached the max rate during these events: the limiter is released.
    pub released: Signal<Out, Bit>,
    /// Fast-recovery events applied in full: the run's length unless it (or an earlier
    /// run) released the limiter, then 0 (golden: `timer_increases` counts the releasing
    /// run by its release index, which `IncCount` computes from `rel_*`).
    pub cnt_fr: Signal<Out, Bits<COUNT_W>>,
    /// Additive-increase events applied in full.
    pub cnt_ai: Signal<Out, Bits<COUNT_W>>,
    /// Hyper-increase events: 0 when the fast-recovery or additive run released the
    /// limiter, else the hyper run's length, **also when the hyper run itself released**.
    /// The caller registers it and then zeroes it when `released` is set (the events applied
    /// in full). The end compare (`rc_o >= max`) thus drives one register, `released`;
    /// with the zeroing here yosys makes it the synchronous reset of the count's 21 register
    /// bits, a long route from the carry chain.
    pub cnt_hai: Signal<Out, Bits<COUNT_W>>,
    /// Phase of the first run that released (0 FR, 1 AI, 2 HAI; meaningful when `released`).
    pub rel_phase: Signal<Out, Bits<PHASE_W>>,
    /// Rc before that run.
    pub rel_rc: Signal<Out, Bits<RATE_W>>,
    /// Rt before that run.
    pub rel_rt: Signal<Out, Bits<RATE_W>>,
    phases: Phases,
    run_fr: IncRun,
    run_ai: IncRun,
    run_hai: IncRun,
    /// The additive and hyper runs' `n * step` (the fast-recovery run's step is 0, so is
    /// its product).
    mul_ai: PipeMul<COUNT_W, RATE_W>,
    mul_hai: PipeMul<COUNT_W, RATE_W>,
    /// T after, saturated at 63: `t + k` in 7 bits (`t7k`) and `k`'s bits above its low
    /// six (`k_hi`). When `k_hi` is clear, `k < 64` and `t + k < 127` fits; when it is
    /// set, `k >= 64` and T saturates, so `t + k < 63` (which implies `k < 63`) is
    /// `!k_hi & t7k < 63`: a 7-bit carry chain, not a `COUNT_W`-bit one.
    t7k: Signal<Local, Bits<7>>,
    k_hi: Signal<Local, Bit>,
    t_new: Signal<Local, Bits<STAGE_W>>,
    ext_t: ZeroExt<STAGE_W, 7>,
    /// 63, the saturation value of T, at the width it is compared at.
    t_max: Constant<Bits<7>>,
    rel_fr: Signal<Local, Bit>,
    rel_ai: Signal<Local, Bit>,
    rel_hai: Signal<Local, Bit>,
    /// Rc, Rt and T after, beside `phases`. T after (`t_o`) is computed between `s_pa`
    /// and `s_pb`, from `t` and `k` registered in `s_pa_t`, `s_pa_k`, so that `t + k` and
    /// its comparisons are not in the cycle of the logic that produces `k`.
    s_pa: DFF<SegSide>,
    s_pa_t: DFF<Bits<STAGE_W>>,
    s_pa_k: DFF<Bits<COUNT_W>>,
    s_pb: DFF<SegSide>,
    side_a: Signal<Local, SegSide>,
    line_a: DelayLine<SegSide, 4>,
    p1: DFF<SegSide>,
    side_b: Signal<Local, SegSide>,
    line_b: DelayLine<SegSide, 4>,
    p2: DFF<SegSide>,
    /// `max`, registered every cycle, for the release compares beside the runs (as in
    /// [`IncRun`]).
    max_q: DFF<Bits<RATE_W>>,
    /// `ai` and `hai`, registered every cycle, as the additive and hyper runs' steps (their
    /// multipliers' operands): a DSP's operand input has 3.49 ns of setup (the multiply
    /// before its output register), too little for the route from the parameter register,
    /// which feeds the whole RP. (In the segments the steps are parameters; the byte
    /// event's run chooses its step per event and takes it as it is.)
    ai_q: DFF<Bits<RATE_W>>,
    hai_q: DFF<Bits<RATE_W>>,
    side_c: Signal<Local, SegSide>,
    line_c: DelayLine<SegSide, 4>,
    /// What waited beside the hyper run.
    c: Signal<Local, SegSide>,
    zero_side: Constant<SegSide>,
}

/// Registers inside an [`IncSegment`]: the phases, three runs and a register after each of
/// the first two.
pub const SEG_STAGES: usize = PHASE_STAGES + 3 * RUN_STAGES + 2;

impl Default for IncSegment {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            en: Default::default(),
            k: Default::default(),
            t: Default::default(),
            bc: Default::default(),
            rc: Default::default(),
            rt: Default::default(),
            th: Default::default(),
            byte_off: Default::default(),
            ai: Default::default(),
            hai: Default::default(),
            max: Default::default(),
            rc_o: Default::default(),
            rt_o: Default::default(),
            t_o: Default::default(),
            released: Default::default(),
            cnt_fr: Default::default(),
            cnt_ai: Default::default(),
            cnt_hai: Default::default(),
            rel_phase: Default::default(),
            rel_rc: Default::default(),
            rel_rt: Default::default(),
            phases: Default::default(),
            run_fr: Default::default(),
            run_ai: Default::default(),
            run_hai: Default::default(),
            mul_ai: Default::default(),
            mul_hai: Default::default(),
            t7k: Default::default(),
            k_hi: Default::default(),
            t_new: Default::default(),
            ext_t: Default::default(),
            t_max: Constant::new(63.into()),
            rel_fr: Default::default(),
            rel_ai: Default::default(),
            rel_hai: Default::default(),
            s_pa: Default::default(),
            s_pa_t: Default::default(),
            s_pa_k: Default::default(),
            s_pb: Default::default(),
            side_a: Default::default(),
            line_a: DelayLine::new(RUN_STAGES),
            p1: Default::default(),
            side_b: Default::default(),
            line_b: DelayLine::new(RUN_STAGES),
            p2: Default::default(),
            max_q: Default::default(),
            ai_q: Default::default(),
            hai_q: Default::default(),
            side_c: Default::default(),
            line_c: DelayLine::new(RUN_STAGES),
            c: Default::default(),
            zero_side: Constant::new(SegSide::default()),
        }
    }
}

impl Logic for IncSegment {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, s_pa, s_pa_t, s_pa_k, s_pb, p1, p2, max_q, ai_q, hai_q
        );
        self.max_q.d.next = self.max.val();
        self.ai_q.d.next = self.ai.val();
        self.hai_q.d.next = self.hai.val();
        self.run_fr.clock.next = self.clock.val();
        self.run_ai.clock.next = self.clock.val();
        self.run_hai.clock.next = self.clock.val();
        self.run_fr.en.next = self.en.val();
        self.run_ai.en.next = self.en.val();
        self.run_hai.en.next = self.en.val();
        self.line_a.clock.next = self.clock.val();
        self.line_b.clock.next = self.clock.val();
        self.line_c.clock.next = self.clock.val();
        self.line_a.en.next = self.en.val();
        self.line_b.en.next = self.en.val();
        self.line_c.en.next = self.en.val();
        // ---- phases (`PHASE_STAGES` registers), T after, the fast-recovery run ----
        self.phases.clock.next = self.clock.val();
        self.phases.en.next = self.en.val();
        self.phases.k.next = self.k.val();
        self.phases.t.next = self.t.val();
        self.phases.bc.next = self.bc.val();
        self.phases.th.next = self.th.val();
        self.phases.byte_off.next = self.byte_off.val();
        self.run_fr.n.next = self.phases.n_fr.val();
        self.run_fr.step.next = 0.into();
        self.run_fr.nstep.next = 0.into();
        self.run_fr.rc.next = self.s_pb.q.val().rc;
        self.run_fr.rt.next = self.s_pb.q.val().rt;
        self.run_fr.max.next = self.max.val();
        self.ext_t.i.next = self.s_pa_t.q.val();
        self.t7k.next = self.ext_t.o.val() + self.s_pa_k.q.val().get_bits::<7>(0);
        self.k_hi.next = self.s_pa_k.q.val().get_bits::<15>(6).any();
        self.t_new.next = 63.into();
        if !self.k_hi.val() & (self.t7k.val() < self.t_max.val()) {
            self.t_new.next = self.t7k.val().get_bits::<STAGE_W>(0);
        }
        if self.en.val() {
            self.s_pa.d.next = self.zero_side.val();
            self.s_pa.d.next.rc = self.rc.val();
            self.s_pa.d.next.rt = self.rt.val();
            self.s_pa_t.d.next = self.t.val();
            self.s_pa_k.d.next = self.k.val();
            self.s_pb.d.next = self.s_pa.q.val();
            self.s_pb.d.next.t_o = self.t_new.val();
        }
        // Beside the FR run.
        self.side_a.next = self.s_pb.q.val();
        self.side_a.next.n_fr = self.phases.n_fr.val();
        self.side_a.next.n_ai = self.phases.n_ai.val();
        self.side_a.next.n_hai = self.phases.n_hai.val();
        self.line_a.d.next = self.side_a.val();
        // After it.
        self.side_b.next = self.line_a.q.val();
        self.side_b.next.fr_rc = self.run_fr.rc_o.val();
        self.side_b.next.fr_rt = self.run_fr.rt_o.val();
        self.side_b.next.fr_rel =
            self.line_a.q.val().n_fr.any() & (self.run_fr.rc_o.val() >= self.max_q.q.val());
        if self.en.val() {
            self.p1.d.next = self.side_b.val();
        }
        // ---- the additive run; the rest waits beside it ----
        self.run_ai.n.next = self.p1.q.val().n_ai;
        self.run_ai.step.next = self.ai_q.q.val();
        self.mul_ai.clock.next = self.clock.val();
        self.mul_ai.en.next = self.en.val();
        self.mul_ai.a.next = self.p1.q.val().n_ai;
        self.mul_ai.b.next = self.ai_q.q.val();
        self.run_ai.nstep.next = self.mul_ai.p.val();
        self.run_ai.rc.next = self.p1.q.val().fr_rc;
        self.run_ai.rt.next = self.p1.q.val().fr_rt;
        self.run_ai.max.next = self.max.val();
        self.line_b.d.next = self.p1.q.val();
        self.side_c.next = self.line_b.q.val();
        self.side_c.next.ai_rc = self.run_ai.rc_o.val();
        self.side_c.next.ai_rt = self.run_ai.rt_o.val();
        self.side_c.next.ai_rel =
            self.line_b.q.val().n_ai.any() & (self.run_ai.rc_o.val() >= self.max_q.q.val());
        if self.en.val() {
            self.p2.d.next = self.side_c.val();
        }
        // ---- the hyper run ----
        self.run_hai.n.next = self.p2.q.val().n_hai;
        self.run_hai.step.next = self.hai_q.q.val();
        self.mul_hai.clock.next = self.clock.val();
        self.mul_hai.en.next = self.en.val();
        self.mul_hai.a.next = self.p2.q.val().n_hai;
        self.mul_hai.b.next = self.hai_q.q.val();
        self.run_hai.nstep.next = self.mul_hai.p.val();
        self.run_hai.rc.next = self.p2.q.val().ai_rc;
        self.run_hai.rt.next = self.p2.q.val().ai_rt;
        self.run_hai.max.next = self.max.val();
        self.line_c.d.next = self.p2.q.val();
        self.c.next = self.line_c.q.val();
        // ---- release, counts (from the values that waited beside the HAI run) ----
        self.rc_o.next = self.run_hai.rc_o.val();
        self.rt_o.next = self.run_hai.rt_o.val();
        self.t_o.next = self.c.val().t_o;
        self.rel_fr.next = self.c.val().fr_rel;
        self.rel_ai.next = self.c.val().ai_rel;
        self.rel_hai.next =
            (self.c.val().n_hai.any()) & (self.run_hai.rc_o.val() >= self.max_q.q.val());
        self.released.next = self.rel_fr.val() | self.rel_ai.val() | self.rel_hai.val();
        // Counts by phase, and the first run that released (for the counters only: off the
        // state path, in parallel with what follows the segment).
        self.cnt_fr.next = self.c.val().n_fr;
        self.cnt_ai.next = self.c.val().n_ai;
        self.cnt_hai.next = self.c.val().n_hai;
        self.rel_phase.next = 2.into();
        self.rel_rc.next = self.c.val().ai_rc;
        self.rel_rt.next = self.c.val().ai_rt;
        if self.rel_fr.val() {
            self.cnt_fr.next = 0.into();
            self.cnt_ai.next = 0.into();
            self.cnt_hai.next = 0.into();
            self.rel_phase.next = 0.into();
            self.rel_rc.next = self.c.val().rc;
            self.rel_rt.next = self.c.val().rt;
        } else if self.rel_ai.val() {
            self.cnt_ai.next = 0.into();
            self.cnt_hai.next = 0.into();
            self.rel_phase.next = 1.into();
            self.rel_rc.next = self.c.val().fr_rc;
            self.rel_rt.next = self.c.val().fr_rt;
        }
        // A release by the hyper run leaves `cnt_hai` as it is: the caller zeroes it after
        // its register (see the port), so the end compare drives `released` alone.
    }
}

/// The rate cut a decrease check performs when its CNP flag is set (golden: `cut`):
/// `Rc := max(min_rate, Rc - min(Rc * alpha >> (gd + 10), Rc * max_cut_q16 >> 16))`.
/// (The target-rate half of `cut`, `Rt := Rc` on a clamp, is a 2:1 choice the caller makes
/// beside it.)
///
/// Pipelined in [`CUT_STAGES`] = 5 registers that load when `en` is high:
///
/// | register | holds | logic before it |
/// |---|---|---|
/// | 1..3 | the two products `Rc * alpha`, `Rc * max_cut_q16` (and Rc beside them) | two `PipeMul`s |
/// | 4 | `cut_a = Rc * alpha >> (gd + 10)` (its low `RATE_W` bits, and its 21 bits above those ORed in three parts of 7), `cut_m = Rc * max_cut_q16 >> 16`, `Rc - min_rate`, `Rc < min_rate` | a barrel shift, a subtract |
/// | 5 | `cut = min(cut_a, cut_m)` | a compare (`cut_a` fits in `RATE_W` bits when the three parts are zero) |
///
/// After register 5: `Rc - cut` and `Rc - cut < min_rate`, in parallel, then the choice.
/// `max_cut_q16 < 2^16` (`rpg_min_dec_fac >= 1`), so `cut <= cut_m < Rc` or `cut = 0`:
/// `Rc - cut` does not wrap, and `Rc - cut < min_rate` is `Rc < min_rate` or
/// `Rc - min_rate < cut`, which needs no second subtract in series. `rc_o` belongs to the
/// inputs presented `CUT_STAGES` advancing cycles earlier; `cut_shift`, `max_cut_q16` and
/// `min_rate` are parameters and must not change while a cut is in flight.
#[derive(LogicBlock, Default)]
pub struct Cut {
    /// Clock of the step registers.
    pub clock: Signal<In, Clock>,
    /// Advance: the step registers load.
    pub en: Signal<In, Bit>,
    /// Rc before, Mb/s Q.8.
    pub rc: Signal<In, Bits<RATE_W>>,
    /// alpha at the check, Q.20.
    pub alpha: Signal<In, Bits<ALPHA_W>>,
    /// `rpg_gd + 10`.
    pub cut_shift: Signal<In, Bits<SHIFT_W>>,
    /// `floor((100 - rpg_min_dec_fac) * 2^16 / 100)`, below 2^16.
    pub max_cut_q16: Signal<In, Bits<CUTFRAC_W>>,
    /// `rpg_min_rate`, Mb/s Q.8.
    pub min_rate: Signal<In, Bits<RATE_W>>,
    /// Rc after, Mb/s Q.8.
    pub rc_o: Signal<Out, Bits<RATE_W>>,
    mul_alpha: PipeMul<RATE_W, ALPHA_W>,
    mul_max: PipeMul<RATE_W, 18>,
    /// `max_cut_q16`, registered every cycle, as the multiplier's operand (as the segment's
    /// `ai_q`, `hai_q`: a DSP input's setup leaves little for the route from the parameters).
    /// The parameter reaches the multiply a cycle later; it is steady while events are in
    /// flight.
    q16_q: DFF<Bits<CUTFRAC_W>>,
    ext_q16: ZeroExt<CUTFRAC_W, 18>,
    k1_rc: DFF<Bits<RATE_W>>,
    k2_rc: DFF<Bits<RATE_W>>,
    k3_rc: DFF<Bits<RATE_W>>,
    /// `Rc * alpha`: 49 bits (`RATE_W + ALPHA_W`) of `PipeMul`'s 64.
    p_alpha: Signal<Local, Bits<49>>,
    /// `PipeMul`'s bits above `RATE_W + ALPHA_W`: always zero.
    p_alpha_hi_unused: Signal<Local, Bits<15>>,
    cut_a: Signal<Local, Bits<49>>,
    /// `Rc * max_cut_q16 >> 16`: bits `16..44` of the product, `RATE_W` bits.
    cut_m: Signal<Local, Bits<RATE_W>>,
    /// The 16 fraction bits of `Rc * max_cut_q16` (the floor drops them) and the bits above
    /// 44 (always zero).
    p_max_lo_unused: Signal<Local, Bits<16>>,
    p_max_hi_unused: Signal<Local, Bits<20>>,
    /// `cut_a`'s bits 28..35 ORed (`cut_a` fits in `RATE_W` bits when this and the next
    /// two are zero). The OR of all 21 high bits after the barrel shift, as one register,
    /// does not fit 10 ns; the three-input OR is a LUT input at register 5.
    r4_a_hi0: DFF<Bit>,
    /// `cut_a`'s bits 35..42 ORed.
    r4_a_hi1: DFF<Bit>,
    /// `cut_a`'s bits 42..49 ORed.
    r4_a_hi2: DFF<Bit>,
    r4_cut_a: DFF<Bits<RATE_W>>,
    r4_cut_m: DFF<Bits<RATE_W>>,
    r4_rc: DFF<Bits<RATE_W>>,
    r4_rc_mm: DFF<Bits<RATE_W>>,
    r4_rc_low: DFF<Bit>,
    r5_cut: DFF<Bits<RATE_W>>,
    r5_rc: DFF<Bits<RATE_W>>,
    r5_rc_mm: DFF<Bits<RATE_W>>,
    r5_rc_low: DFF<Bit>,
    diff: Signal<Local, Bits<RATE_W>>,
}

/// Registers inside a [`Cut`]: `rc_o` follows `rc` by this many advancing cycles.
pub const CUT_STAGES: usize = PIPE_MUL_STAGES + 2;

impl Logic for Cut {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, k1_rc, k2_rc, k3_rc, r4_a_hi0, r4_a_hi1, r4_a_hi2, r4_cut_a, r4_cut_m,
            r4_rc, r4_rc_mm, r4_rc_low, r5_cut, r5_rc, r5_rc_mm, r5_rc_low, q16_q
        );
        // ---- registers 1..3: the two products ----
        self.mul_alpha.clock.next = self.clock.val();
        self.mul_alpha.en.next = self.en.val();
        self.mul_alpha.a.next = self.rc.val();
        self.mul_alpha.b.next = self.alpha.val();
        self.q16_q.d.next = self.max_cut_q16.val();
        self.ext_q16.i.next = self.q16_q.q.val();
        self.mul_max.clock.next = self.clock.val();
        self.mul_max.en.next = self.en.val();
        self.mul_max.a.next = self.rc.val();
        self.mul_max.b.next = self.ext_q16.o.val();
        if self.en.val() {
            self.k1_rc.d.next = self.rc.val();
            self.k2_rc.d.next = self.k1_rc.q.val();
            self.k3_rc.d.next = self.k2_rc.q.val();
        }

        // ---- register 4: the shifts, Rc against the min rate ----
        self.p_alpha.next = self.mul_alpha.p.val().get_bits::<49>(0);
        self.p_alpha_hi_unused.next = self.mul_alpha.p.val().get_bits::<15>(49);
        self.cut_a.next = self.p_alpha.val() >> self.cut_shift.val();
        self.cut_m.next = self.mul_max.p.val().get_bits::<RATE_W>(16);
        self.p_max_lo_unused.next = self.mul_max.p.val().get_bits::<16>(0);
        self.p_max_hi_unused.next = self.mul_max.p.val().get_bits::<20>(44);
        if self.en.val() {
            // cut_a < cut_m needs cut_a < 2^RATE_W (bits 28..49 zero).
            self.r4_a_hi0.d.next = self.cut_a.val().get_bits::<7>(28).any();
            self.r4_a_hi1.d.next = self.cut_a.val().get_bits::<7>(35).any();
            self.r4_a_hi2.d.next = self.cut_a.val().get_bits::<7>(42).any();
            self.r4_cut_a.d.next = self.cut_a.val().get_bits::<RATE_W>(0);
            self.r4_cut_m.d.next = self.cut_m.val();
            self.r4_rc.d.next = self.k3_rc.q.val();
            self.r4_rc_mm.d.next = self.k3_rc.q.val() - self.min_rate.val();
            self.r4_rc_low.d.next = self.k3_rc.q.val() < self.min_rate.val();
        }

        // ---- register 5: min(cut_a, cut_m) ----
        if self.en.val() {
            self.r5_cut.d.next = self.r4_cut_m.q.val();
            if !(self.r4_a_hi0.q.val() | self.r4_a_hi1.q.val() | self.r4_a_hi2.q.val())
                & (self.r4_cut_a.q.val() < self.r4_cut_m.q.val())
            {
                self.r5_cut.d.next = self.r4_cut_a.q.val();
            }
            self.r5_rc.d.next = self.r4_rc.q.val();
            self.r5_rc_mm.d.next = self.r4_rc_mm.q.val();
            self.r5_rc_low.d.next = self.r4_rc_low.q.val();
        }

        // ---- after register 5: Rc - cut, clamped to the min rate ----
        self.diff.next = self.r5_rc.q.val() - self.r5_cut.q.val();
        self.rc_o.next = self.diff.val();
        if self.r5_rc_low.q.val() | (self.r5_rc_mm.q.val() < self.r5_cut.q.val()) {
            self.rc_o.next = self.min_rate.val();
        }
    }
}
