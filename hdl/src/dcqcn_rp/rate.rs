//! Rate arithmetic of the reaction point: runs of increase events in closed form, their
//! phases, and the cut. Combinational; each block mirrors the golden function of the same
//! name in `sim::dcqcn_rp` (`run`, `phases`, `cut`).
//!
//! Signed values (`Rt - Rc` and intermediates) are two's complement in `DIST_W` = 31 bits;
//! rates are unsigned Mb/s Q.8 in 28 bits.

use super::widths::*;
use crate::wide_mul::WideMul;
use crate::zero_ext::ZeroExt;
use rust_hdl::prelude::*;

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

/// `n` consecutive increase events that add `step` to Rt (0: fast recovery), in closed
/// form (golden: `run`). One multiplier (`n * step`), a 5-step restoring division and five
/// arithmetic shifters.
///
/// Pipelined in four steps with [`RUN_STAGES`] = 3 registers that load when `en` is high:
/// (1) `d = Rt - Rc`, the product `n * step`, `Rt + n * step` and its excess over the max;
/// (2) the division of the excess by the step and the index `j` where Rt reaches the max;
/// (3) the shift amounts and the three shifts of `d`; (4) the sums, the halving and the
/// selection. The outputs belong to the inputs presented `RUN_STAGES` advancing cycles
/// earlier; `max` is a parameter and must not change while a run is in flight.
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
    /// Max rate, Mb/s Q.8.
    pub max: Signal<In, Bits<RATE_W>>,
    /// Rc after, Mb/s Q.8 (may exceed `max` by 1 LSB when the QP releases).
    pub rc_o: Signal<Out, Bits<RATE_W>>,
    /// Rt after, Mb/s Q.8.
    pub rt_o: Signal<Out, Bits<RATE_W>>,
    mul: WideMul<COUNT_W, RATE_W, 49>,
    // Zero-extensions (`bit_cast` would emit an AND of mismatched widths; see `crate::zero_ext`).
    ext_step: ZeroExt<RATE_W, DIST_W>,
    ext_step2: ZeroExt<RATE_W, 50>,
    ext_rt: ZeroExt<RATE_W, 50>,
    ext_rc: ZeroExt<RATE_W, DIST_W>,
    ext_max: ZeroExt<RATE_W, 50>,
    ext_p: ZeroExt<49, 50>,
    sh_n_asr: Asr,
    fr_asr: Asr,
    sh_j_asr: Asr,
    half_asr: Asr,
    sat_asr: Asr,
    // Step 1.
    s31: Signal<Local, Bits<DIST_W>>,
    d: Signal<Local, Bits<DIST_W>>,
    dms: Signal<Local, Bits<DIST_W>>,
    sum: Signal<Local, Bits<50>>,
    max50: Signal<Local, Bits<50>>,
    over: Signal<Local, Bits<50>>,
    r1_n: DFF<Bits<COUNT_W>>,
    r1_step: DFF<Bits<RATE_W>>,
    r1_rt: DFF<Bits<RATE_W>>,
    r1_rc: DFF<Bits<RATE_W>>,
    r1_s31: DFF<Bits<DIST_W>>,
    r1_d: DFF<Bits<DIST_W>>,
    r1_dms: DFF<Bits<DIST_W>>,
    r1_sum: DFF<Bits<50>>,
    r1_over: DFF<Bits<50>>,
    // Step 2.
    s32x: Signal<Local, Bits<50>>,
    x5: Signal<Local, Bits<34>>,
    x4: Signal<Local, Bits<34>>,
    x3: Signal<Local, Bits<34>>,
    x2: Signal<Local, Bits<34>>,
    x1: Signal<Local, Bits<34>>,
    x0: Signal<Local, Bits<34>>,
    s34: Signal<Local, Bits<34>>,
    q4: Signal<Local, Bits<COUNT_W>>,
    q3: Signal<Local, Bits<COUNT_W>>,
    q2: Signal<Local, Bits<COUNT_W>>,
    q1: Signal<Local, Bits<COUNT_W>>,
    q0: Signal<Local, Bits<COUNT_W>>,
    r21: Signal<Local, Bits<COUNT_W>>,
    j: Signal<Local, Bits<COUNT_W>>,
    /// The bits of the remainder `x0` above `DIST_W`: it is below `step < 2^28`
    /// whenever the result depends on it, so they are zero and nothing reads them.
    x0_hi_unused: Signal<Local, Bits<3>>,
    /// Only the low `RATE_W` bits of `Rt + n * step` can become Rt (when it is below the
    /// max); the high bits do not reach the outputs after step 2.
    sum_hi_unused: Signal<Local, Bits<22>>,
    r2_n: DFF<Bits<COUNT_W>>,
    r2_rt: DFF<Bits<RATE_W>>,
    r2_rc: DFF<Bits<RATE_W>>,
    r2_s31: DFF<Bits<DIST_W>>,
    r2_d: DFF<Bits<DIST_W>>,
    r2_dms: DFF<Bits<DIST_W>>,
    r2_sum: DFF<Bits<RATE_W>>,
    r2_r6: DFF<Bits<6>>,
    r2_rem31: DFF<Bits<DIST_W>>,
    r2_j: DFF<Bits<COUNT_W>>,
    r2_at_max: DFF<Bit>,
    r2_below: DFF<Bit>,
    r2_far: DFF<Bit>,
    // Step 3.
    sh_n: Signal<Local, Bits<6>>,
    sh_j: Signal<Local, Bits<6>>,
    r3_n_any: DFF<Bit>,
    r3_rt: DFF<Bits<RATE_W>>,
    r3_rc: DFF<Bits<RATE_W>>,
    r3_s31: DFF<Bits<DIST_W>>,
    r3_sum: DFF<Bits<RATE_W>>,
    r3_r6: DFF<Bits<6>>,
    r3_rem31: DFF<Bits<DIST_W>>,
    r3_at_max: DFF<Bit>,
    r3_below: DFF<Bit>,
    r3_far: DFF<Bit>,
    r3_asr_n: DFF<Bits<DIST_W>>,
    r3_asr_fr: DFF<Bits<DIST_W>>,
    r3_asr_j: DFF<Bits<DIST_W>>,
    // Step 4.
    d_unsat: Signal<Local, Bits<DIST_W>>,
    d1: Signal<Local, Bits<DIST_W>>,
    t2: Signal<Local, Bits<DIST_W>>,
    rt_sel: Signal<Local, Bits<RATE_W>>,
    d_sel: Signal<Local, Bits<DIST_W>>,
    /// Rc after is the low `RATE_W` bits of `Rt - d` (the golden model stores Rc in
    /// `RATE_W` bits too): the high bits of `d` do not reach it.
    d_sel_hi_unused: Signal<Local, Bits<3>>,
    one: Constant<Bits<COUNT_W>>,
    sh_max: Constant<Bits<COUNT_W>>,
}

/// Registers inside an [`IncRun`]: its outputs follow its inputs by this many advancing
/// cycles.
pub const RUN_STAGES: usize = 3;

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
            mul: Default::default(),
            ext_step: Default::default(),
            ext_step2: Default::default(),
            ext_rt: Default::default(),
            ext_rc: Default::default(),
            ext_max: Default::default(),
            ext_p: Default::default(),
            sh_n_asr: Default::default(),
            fr_asr: Default::default(),
            sh_j_asr: Default::default(),
            half_asr: Default::default(),
            sat_asr: Default::default(),
            s31: Default::default(),
            d: Default::default(),
            dms: Default::default(),
            sum: Default::default(),
            max50: Default::default(),
            over: Default::default(),
            r1_n: Default::default(),
            r1_step: Default::default(),
            r1_rt: Default::default(),
            r1_rc: Default::default(),
            r1_s31: Default::default(),
            r1_d: Default::default(),
            r1_dms: Default::default(),
            r1_sum: Default::default(),
            r1_over: Default::default(),
            s32x: Default::default(),
            x5: Default::default(),
            x4: Default::default(),
            x3: Default::default(),
            x2: Default::default(),
            x1: Default::default(),
            x0: Default::default(),
            s34: Default::default(),
            q4: Default::default(),
            q3: Default::default(),
            q2: Default::default(),
            q1: Default::default(),
            q0: Default::default(),
            r21: Default::default(),
            j: Default::default(),
            x0_hi_unused: Default::default(),
            sum_hi_unused: Default::default(),
            r2_n: Default::default(),
            r2_rt: Default::default(),
            r2_rc: Default::default(),
            r2_s31: Default::default(),
            r2_d: Default::default(),
            r2_dms: Default::default(),
            r2_sum: Default::default(),
            r2_r6: Default::default(),
            r2_rem31: Default::default(),
            r2_j: Default::default(),
            r2_at_max: Default::default(),
            r2_below: Default::default(),
            r2_far: Default::default(),
            sh_n: Default::default(),
            sh_j: Default::default(),
            r3_n_any: Default::default(),
            r3_rt: Default::default(),
            r3_rc: Default::default(),
            r3_s31: Default::default(),
            r3_sum: Default::default(),
            r3_r6: Default::default(),
            r3_rem31: Default::default(),
            r3_at_max: Default::default(),
            r3_below: Default::default(),
            r3_far: Default::default(),
            r3_asr_n: Default::default(),
            r3_asr_fr: Default::default(),
            r3_asr_j: Default::default(),
            d_unsat: Default::default(),
            d1: Default::default(),
            t2: Default::default(),
            rt_sel: Default::default(),
            d_sel: Default::default(),
            d_sel_hi_unused: Default::default(),
            one: Constant::new(1.into()),
            sh_max: Constant::new(63.into()),
        }
    }
}

impl Logic for IncRun {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, r1_n, r1_step, r1_rt, r1_rc, r1_s31, r1_d, r1_dms, r1_sum, r1_over, r2_n,
            r2_rt, r2_rc, r2_s31, r2_d, r2_dms, r2_sum, r2_r6, r2_rem31, r2_j, r2_at_max, r2_below,
            r2_far, r3_n_any, r3_rt, r3_rc, r3_s31, r3_sum, r3_r6, r3_rem31, r3_at_max, r3_below,
            r3_far, r3_asr_n, r3_asr_fr, r3_asr_j
        );
        // ---- step 1: d, Rt + n * step against the max rate ----
        self.ext_step.i.next = self.step.val();
        self.ext_rt.i.next = self.rt.val();
        self.ext_rc.i.next = self.rc.val();
        self.ext_max.i.next = self.max.val();
        self.s31.next = self.ext_step.o.val();
        self.d.next = self.ext_rt.o.val().get_bits::<DIST_W>(0) - self.ext_rc.o.val();
        self.dms.next = self.d.val() - self.s31.val();
        self.mul.a.next = self.n.val();
        self.mul.b.next = self.step.val();
        self.ext_p.i.next = self.mul.p.val();
        self.sum.next = self.ext_rt.o.val() + self.ext_p.o.val();
        self.max50.next = self.ext_max.o.val();
        self.over.next = self.sum.val() - self.max50.val();
        if self.en.val() {
            self.r1_n.d.next = self.n.val();
            self.r1_step.d.next = self.step.val();
            self.r1_rt.d.next = self.rt.val();
            self.r1_rc.d.next = self.rc.val();
            self.r1_s31.d.next = self.s31.val();
            self.r1_d.d.next = self.d.val();
            self.r1_dms.d.next = self.dms.val();
            self.r1_sum.d.next = self.sum.val();
            self.r1_over.d.next = self.over.val();
        }

        // ---- step 2: r = floor(over / step) and its remainder, for over < 32 * step ----
        self.ext_step2.i.next = self.r1_step.q.val();
        self.s32x.next = self.ext_step2.o.val() << 5;
        self.s34.next = self.ext_step2.o.val().get_bits::<34>(0);
        self.x5.next = self.r1_over.q.val().get_bits::<34>(0);
        self.q4.next = 0.into();
        self.x4.next = self.x5.val();
        if self.x5.val() >= (self.s34.val() << 4) {
            self.q4.next = 16.into();
            self.x4.next = self.x5.val() - (self.s34.val() << 4);
        }
        self.q3.next = 0.into();
        self.x3.next = self.x4.val();
        if self.x4.val() >= (self.s34.val() << 3) {
            self.q3.next = 8.into();
            self.x3.next = self.x4.val() - (self.s34.val() << 3);
        }
        self.q2.next = 0.into();
        self.x2.next = self.x3.val();
        if self.x3.val() >= (self.s34.val() << 2) {
            self.q2.next = 4.into();
            self.x2.next = self.x3.val() - (self.s34.val() << 2);
        }
        self.q1.next = 0.into();
        self.x1.next = self.x2.val();
        if self.x2.val() >= (self.s34.val() << 1) {
            self.q1.next = 2.into();
            self.x1.next = self.x2.val() - (self.s34.val() << 1);
        }
        self.q0.next = 0.into();
        self.x0.next = self.x1.val();
        if self.x1.val() >= self.s34.val() {
            self.q0.next = 1.into();
            self.x0.next = self.x1.val() - self.s34.val();
        }
        // r = q4 | .. | q0 <= 31: six bits hold it.
        self.r21.next =
            self.q4.val() | self.q3.val() | self.q2.val() | self.q1.val() | self.q0.val();
        self.x0_hi_unused.next = self.x0.val().get_bits::<3>(31);
        self.j.next = (self.r1_n.q.val() - self.r21.val()) - self.one.val();
        // Bits RATE_W (28) and up (hdl_gen needs the literal).
        self.sum_hi_unused.next = self.r1_sum.q.val().get_bits::<22>(28);
        if self.en.val() {
            self.r2_n.d.next = self.r1_n.q.val();
            self.r2_rt.d.next = self.r1_rt.q.val();
            self.r2_rc.d.next = self.r1_rc.q.val();
            self.r2_s31.d.next = self.r1_s31.q.val();
            self.r2_d.d.next = self.r1_d.q.val();
            self.r2_dms.d.next = self.r1_dms.q.val();
            self.r2_sum.d.next = self.r1_sum.q.val().get_bits::<RATE_W>(0);
            self.r2_r6.d.next = self.r21.val().get_bits::<6>(0);
            self.r2_rem31.d.next = self.x0.val().get_bits::<DIST_W>(0);
            self.r2_j.d.next = self.j.val();
            self.r2_at_max.d.next = self.r1_rt.q.val() >= self.max.val();
            self.r2_below.d.next = self.r1_sum.q.val() < self.max50.val();
            self.r2_far.d.next = self.r1_over.q.val() >= self.s32x.val();
        }

        // ---- step 3: shift amounts (clamped to 63: every 31-bit value is 0 or -1 by
        // then) and the shifts of d ----
        self.sh_n.next = self.r2_n.q.val().get_bits::<6>(0);
        if self.r2_n.q.val() >= self.sh_max.val() {
            self.sh_n.next = 63.into();
        }
        self.sh_j.next = self.r2_j.q.val().get_bits::<6>(0);
        if self.r2_j.q.val() >= self.sh_max.val() {
            self.sh_j.next = 63.into();
        }
        // Rt stays below max: d - step halves n times.
        self.sh_n_asr.v.next = self.r2_dms.q.val();
        self.sh_n_asr.k.next = self.sh_n.val();
        // Rt already at max: d halves n times.
        self.fr_asr.v.next = self.r2_d.q.val();
        self.fr_asr.k.next = self.sh_n.val();
        // Rt reaches max r events before the end.
        self.sh_j_asr.v.next = self.r2_dms.q.val();
        self.sh_j_asr.k.next = self.sh_j.val();
        if self.en.val() {
            self.r3_n_any.d.next = self.r2_n.q.val().any();
            self.r3_rt.d.next = self.r2_rt.q.val();
            self.r3_rc.d.next = self.r2_rc.q.val();
            self.r3_s31.d.next = self.r2_s31.q.val();
            self.r3_sum.d.next = self.r2_sum.q.val();
            self.r3_r6.d.next = self.r2_r6.q.val();
            self.r3_rem31.d.next = self.r2_rem31.q.val();
            self.r3_at_max.d.next = self.r2_at_max.q.val();
            self.r3_below.d.next = self.r2_below.q.val();
            self.r3_far.d.next = self.r2_far.q.val();
            self.r3_asr_n.d.next = self.sh_n_asr.o.val();
            self.r3_asr_fr.d.next = self.fr_asr.o.val();
            self.r3_asr_j.d.next = self.sh_j_asr.o.val();
        }

        // ---- step 4: sums, the halving, the selection ----
        self.d_unsat.next = self.r3_s31.q.val() + self.r3_asr_n.q.val();
        self.d1.next = self.r3_s31.q.val() + self.r3_asr_j.q.val();
        self.t2.next = (self.d1.val() + self.r3_s31.q.val()) - self.r3_rem31.q.val();
        self.half_asr.v.next = self.t2.val();
        self.half_asr.k.next = 1.into();
        self.sat_asr.v.next = self.half_asr.o.val();
        self.sat_asr.k.next = self.r3_r6.q.val();
        self.rt_sel.next = self.max.val();
        self.d_sel.next = self.sat_asr.o.val();
        if self.r3_at_max.q.val() {
            self.d_sel.next = self.r3_asr_fr.q.val();
        } else if self.r3_below.q.val() {
            self.rt_sel.next = self.r3_sum.q.val();
            self.d_sel.next = self.d_unsat.val();
        } else if self.r3_far.q.val() {
            self.d_sel.next = 0.into();
        }
        self.d_sel_hi_unused.next = self.d_sel.val().get_bits::<3>(28);
        if !self.r3_n_any.q.val() {
            self.rc_o.next = self.r3_rc.q.val();
            self.rt_o.next = self.r3_rt.q.val();
        } else {
            // Rt - d, modulo 2^RATE_W.
            self.rc_o.next = self.rt_sel.val() - self.d_sel.val().get_bits::<RATE_W>(0);
            self.rt_o.next = self.rt_sel.val();
        }
    }
}

/// Split `k` increase-timer events starting at stage counters `t`, `bc` into fast recovery,
/// additive and hyper events (golden: `phases`).
#[derive(LogicBlock)]
pub struct Phases {
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
    th21: Signal<Local, Bits<COUNT_W>>,
    th1: Signal<Local, Bits<COUNT_W>>,
    t21: Signal<Local, Bits<COUNT_W>>,
    bc21: Signal<Local, Bits<COUNT_W>>,
    to_ai: Signal<Local, Bits<COUNT_W>>,
    to_hai: Signal<Local, Bits<COUNT_W>>,
    fr: Signal<Local, Bits<COUNT_W>>,
    hai: Signal<Local, Bits<COUNT_W>>,
    // Zero-extensions (`bit_cast` would emit an AND of mismatched widths; see `crate::zero_ext`).
    ext_th: ZeroExt<THRESH_W, COUNT_W>,
    ext_t: ZeroExt<STAGE_W, COUNT_W>,
    ext_bc: ZeroExt<STAGE_W, COUNT_W>,
    one: Constant<Bits<COUNT_W>>,
}

impl Default for Phases {
    fn default() -> Self {
        Self {
            k: Default::default(),
            t: Default::default(),
            bc: Default::default(),
            th: Default::default(),
            byte_off: Default::default(),
            n_fr: Default::default(),
            n_ai: Default::default(),
            n_hai: Default::default(),
            th21: Default::default(),
            th1: Default::default(),
            t21: Default::default(),
            bc21: Default::default(),
            to_ai: Default::default(),
            to_hai: Default::default(),
            fr: Default::default(),
            hai: Default::default(),
            ext_th: Default::default(),
            ext_t: Default::default(),
            ext_bc: Default::default(),
            one: Constant::new(1.into()),
        }
    }
}

impl Logic for Phases {
    #[hdl_gen]
    fn update(&mut self) {
        self.ext_th.i.next = self.th.val();
        self.ext_t.i.next = self.t.val();
        self.ext_bc.i.next = self.bc.val();
        self.th21.next = self.ext_th.o.val();
        self.th1.next = self.th21.val() + self.one.val();
        self.t21.next = self.ext_t.o.val();
        self.bc21.next = self.ext_bc.o.val();
        // Events before T reaches the threshold, and before it passes it.
        self.to_ai.next = 0.into();
        if self.th21.val() > self.t21.val() {
            self.to_ai.next = self.th21.val() - self.t21.val();
        }
        self.to_hai.next = 0.into();
        if self.th1.val() > self.t21.val() {
            self.to_hai.next = self.th1.val() - self.t21.val();
        }
        self.fr.next = 0.into();
        if self.byte_off.val() | (self.bc21.val() < self.th21.val()) {
            self.fr.next = self.k.val();
            if self.to_ai.val() < self.k.val() {
                self.fr.next = self.to_ai.val();
            }
        }
        self.hai.next = 0.into();
        if self.byte_off.val() | (self.bc21.val() > self.th21.val()) {
            if self.k.val() > self.to_hai.val() {
                self.hai.next = self.k.val() - self.to_hai.val();
            }
        }
        self.n_fr.next = self.fr.val();
        self.n_hai.next = self.hai.val();
        self.n_ai.next = (self.k.val() - self.fr.val()) - self.hai.val();
    }
}

/// `k` increase-timer events: phases, then the three runs; T advances by `k` (saturating)
/// and `released` says Rc reached the max rate (golden: `timer_increases`).
///
/// Pipelined: the three runs follow one another, each an [`IncRun`] of `RUN_STAGES`
/// registers with a register between runs (`p1`, `p2`); what the later steps need of the
/// earlier ones waits beside each run (`qa*`, `qb*`, `qc*`). The outputs belong to the
/// inputs presented [`SEG_STAGES`] advancing cycles earlier. `th`, `byte_off`, `ai`, `hai`
/// and `max` are parameters and must not change while a segment is in flight.
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
    /// Max rate, Mb/s Q.8.
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
    /// Hyper-increase events applied in full.
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
    t21: Signal<Local, Bits<COUNT_W>>,
    t_new: Signal<Local, Bits<STAGE_W>>,
    ext_t: ZeroExt<STAGE_W, COUNT_W>,
    /// 63, the saturation value of T, at the width it is compared at.
    t_max: Constant<Bits<COUNT_W>>,
    rel_fr: Signal<Local, Bit>,
    rel_ai: Signal<Local, Bit>,
    rel_hai: Signal<Local, Bit>,
    qa1_n_fr: DFF<Bits<COUNT_W>>,
    qa1_n_ai: DFF<Bits<COUNT_W>>,
    qa1_n_hai: DFF<Bits<COUNT_W>>,
    qa1_rc: DFF<Bits<RATE_W>>,
    qa1_rt: DFF<Bits<RATE_W>>,
    qa1_t_o: DFF<Bits<STAGE_W>>,
    qa2_n_fr: DFF<Bits<COUNT_W>>,
    qa2_n_ai: DFF<Bits<COUNT_W>>,
    qa2_n_hai: DFF<Bits<COUNT_W>>,
    qa2_rc: DFF<Bits<RATE_W>>,
    qa2_rt: DFF<Bits<RATE_W>>,
    qa2_t_o: DFF<Bits<STAGE_W>>,
    qa3_n_fr: DFF<Bits<COUNT_W>>,
    qa3_n_ai: DFF<Bits<COUNT_W>>,
    qa3_n_hai: DFF<Bits<COUNT_W>>,
    qa3_rc: DFF<Bits<RATE_W>>,
    qa3_rt: DFF<Bits<RATE_W>>,
    qa3_t_o: DFF<Bits<STAGE_W>>,
    p1_n_fr: DFF<Bits<COUNT_W>>,
    p1_n_ai: DFF<Bits<COUNT_W>>,
    p1_n_hai: DFF<Bits<COUNT_W>>,
    p1_rc: DFF<Bits<RATE_W>>,
    p1_rt: DFF<Bits<RATE_W>>,
    p1_t_o: DFF<Bits<STAGE_W>>,
    p1_fr_rc: DFF<Bits<RATE_W>>,
    p1_fr_rt: DFF<Bits<RATE_W>>,
    qb1_n_fr: DFF<Bits<COUNT_W>>,
    qb1_n_ai: DFF<Bits<COUNT_W>>,
    qb1_n_hai: DFF<Bits<COUNT_W>>,
    qb1_rc: DFF<Bits<RATE_W>>,
    qb1_rt: DFF<Bits<RATE_W>>,
    qb1_t_o: DFF<Bits<STAGE_W>>,
    qb1_fr_rc: DFF<Bits<RATE_W>>,
    qb1_fr_rt: DFF<Bits<RATE_W>>,
    qb2_n_fr: DFF<Bits<COUNT_W>>,
    qb2_n_ai: DFF<Bits<COUNT_W>>,
    qb2_n_hai: DFF<Bits<COUNT_W>>,
    qb2_rc: DFF<Bits<RATE_W>>,
    qb2_rt: DFF<Bits<RATE_W>>,
    qb2_t_o: DFF<Bits<STAGE_W>>,
    qb2_fr_rc: DFF<Bits<RATE_W>>,
    qb2_fr_rt: DFF<Bits<RATE_W>>,
    qb3_n_fr: DFF<Bits<COUNT_W>>,
    qb3_n_ai: DFF<Bits<COUNT_W>>,
    qb3_n_hai: DFF<Bits<COUNT_W>>,
    qb3_rc: DFF<Bits<RATE_W>>,
    qb3_rt: DFF<Bits<RATE_W>>,
    qb3_t_o: DFF<Bits<STAGE_W>>,
    qb3_fr_rc: DFF<Bits<RATE_W>>,
    qb3_fr_rt: DFF<Bits<RATE_W>>,
    p2_n_fr: DFF<Bits<COUNT_W>>,
    p2_n_ai: DFF<Bits<COUNT_W>>,
    p2_n_hai: DFF<Bits<COUNT_W>>,
    p2_rc: DFF<Bits<RATE_W>>,
    p2_rt: DFF<Bits<RATE_W>>,
    p2_t_o: DFF<Bits<STAGE_W>>,
    p2_fr_rc: DFF<Bits<RATE_W>>,
    p2_fr_rt: DFF<Bits<RATE_W>>,
    p2_ai_rc: DFF<Bits<RATE_W>>,
    p2_ai_rt: DFF<Bits<RATE_W>>,
    qc1_n_fr: DFF<Bits<COUNT_W>>,
    qc1_n_ai: DFF<Bits<COUNT_W>>,
    qc1_n_hai: DFF<Bits<COUNT_W>>,
    qc1_rc: DFF<Bits<RATE_W>>,
    qc1_rt: DFF<Bits<RATE_W>>,
    qc1_t_o: DFF<Bits<STAGE_W>>,
    qc1_fr_rc: DFF<Bits<RATE_W>>,
    qc1_fr_rt: DFF<Bits<RATE_W>>,
    qc1_ai_rc: DFF<Bits<RATE_W>>,
    qc1_ai_rt: DFF<Bits<RATE_W>>,
    qc2_n_fr: DFF<Bits<COUNT_W>>,
    qc2_n_ai: DFF<Bits<COUNT_W>>,
    qc2_n_hai: DFF<Bits<COUNT_W>>,
    qc2_rc: DFF<Bits<RATE_W>>,
    qc2_rt: DFF<Bits<RATE_W>>,
    qc2_t_o: DFF<Bits<STAGE_W>>,
    qc2_fr_rc: DFF<Bits<RATE_W>>,
    qc2_fr_rt: DFF<Bits<RATE_W>>,
    qc2_ai_rc: DFF<Bits<RATE_W>>,
    qc2_ai_rt: DFF<Bits<RATE_W>>,
    qc3_n_fr: DFF<Bits<COUNT_W>>,
    qc3_n_ai: DFF<Bits<COUNT_W>>,
    qc3_n_hai: DFF<Bits<COUNT_W>>,
    qc3_rc: DFF<Bits<RATE_W>>,
    qc3_rt: DFF<Bits<RATE_W>>,
    qc3_t_o: DFF<Bits<STAGE_W>>,
    qc3_fr_rc: DFF<Bits<RATE_W>>,
    qc3_fr_rt: DFF<Bits<RATE_W>>,
    qc3_ai_rc: DFF<Bits<RATE_W>>,
    qc3_ai_rt: DFF<Bits<RATE_W>>,
}

/// Registers inside an [`IncSegment`]: three runs and a register after each of the
/// first two.
pub const SEG_STAGES: usize = 3 * RUN_STAGES + 2;

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
            t21: Default::default(),
            t_new: Default::default(),
            ext_t: Default::default(),
            t_max: Constant::new(63.into()),
            rel_fr: Default::default(),
            rel_ai: Default::default(),
            rel_hai: Default::default(),
            qa1_n_fr: Default::default(),
            qa1_n_ai: Default::default(),
            qa1_n_hai: Default::default(),
            qa1_rc: Default::default(),
            qa1_rt: Default::default(),
            qa1_t_o: Default::default(),
            qa2_n_fr: Default::default(),
            qa2_n_ai: Default::default(),
            qa2_n_hai: Default::default(),
            qa2_rc: Default::default(),
            qa2_rt: Default::default(),
            qa2_t_o: Default::default(),
            qa3_n_fr: Default::default(),
            qa3_n_ai: Default::default(),
            qa3_n_hai: Default::default(),
            qa3_rc: Default::default(),
            qa3_rt: Default::default(),
            qa3_t_o: Default::default(),
            p1_n_fr: Default::default(),
            p1_n_ai: Default::default(),
            p1_n_hai: Default::default(),
            p1_rc: Default::default(),
            p1_rt: Default::default(),
            p1_t_o: Default::default(),
            p1_fr_rc: Default::default(),
            p1_fr_rt: Default::default(),
            qb1_n_fr: Default::default(),
            qb1_n_ai: Default::default(),
            qb1_n_hai: Default::default(),
            qb1_rc: Default::default(),
            qb1_rt: Default::default(),
            qb1_t_o: Default::default(),
            qb1_fr_rc: Default::default(),
            qb1_fr_rt: Default::default(),
            qb2_n_fr: Default::default(),
            qb2_n_ai: Default::default(),
            qb2_n_hai: Default::default(),
            qb2_rc: Default::default(),
            qb2_rt: Default::default(),
            qb2_t_o: Default::default(),
            qb2_fr_rc: Default::default(),
            qb2_fr_rt: Default::default(),
            qb3_n_fr: Default::default(),
            qb3_n_ai: Default::default(),
            qb3_n_hai: Default::default(),
            qb3_rc: Default::default(),
            qb3_rt: Default::default(),
            qb3_t_o: Default::default(),
            qb3_fr_rc: Default::default(),
            qb3_fr_rt: Default::default(),
            p2_n_fr: Default::default(),
            p2_n_ai: Default::default(),
            p2_n_hai: Default::default(),
            p2_rc: Default::default(),
            p2_rt: Default::default(),
            p2_t_o: Default::default(),
            p2_fr_rc: Default::default(),
            p2_fr_rt: Default::default(),
            p2_ai_rc: Default::default(),
            p2_ai_rt: Default::default(),
            qc1_n_fr: Default::default(),
            qc1_n_ai: Default::default(),
            qc1_n_hai: Default::default(),
            qc1_rc: Default::default(),
            qc1_rt: Default::default(),
            qc1_t_o: Default::default(),
            qc1_fr_rc: Default::default(),
            qc1_fr_rt: Default::default(),
            qc1_ai_rc: Default::default(),
            qc1_ai_rt: Default::default(),
            qc2_n_fr: Default::default(),
            qc2_n_ai: Default::default(),
            qc2_n_hai: Default::default(),
            qc2_rc: Default::default(),
            qc2_rt: Default::default(),
            qc2_t_o: Default::default(),
            qc2_fr_rc: Default::default(),
            qc2_fr_rt: Default::default(),
            qc2_ai_rc: Default::default(),
            qc2_ai_rt: Default::default(),
            qc3_n_fr: Default::default(),
            qc3_n_ai: Default::default(),
            qc3_n_hai: Default::default(),
            qc3_rc: Default::default(),
            qc3_rt: Default::default(),
            qc3_t_o: Default::default(),
            qc3_fr_rc: Default::default(),
            qc3_fr_rt: Default::default(),
            qc3_ai_rc: Default::default(),
            qc3_ai_rt: Default::default(),
        }
    }
}

impl Logic for IncSegment {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, qa1_n_fr, qa1_n_ai, qa1_n_hai, qa1_rc, qa1_rt, qa1_t_o, qa2_n_fr,
            qa2_n_ai, qa2_n_hai, qa2_rc, qa2_rt, qa2_t_o, qa3_n_fr, qa3_n_ai, qa3_n_hai, qa3_rc,
            qa3_rt, qa3_t_o, p1_n_fr, p1_n_ai, p1_n_hai, p1_rc, p1_rt, p1_t_o, p1_fr_rc, p1_fr_rt,
            qb1_n_fr, qb1_n_ai, qb1_n_hai, qb1_rc, qb1_rt, qb1_t_o, qb1_fr_rc, qb1_fr_rt, qb2_n_fr,
            qb2_n_ai, qb2_n_hai, qb2_rc, qb2_rt, qb2_t_o, qb2_fr_rc, qb2_fr_rt, qb3_n_fr, qb3_n_ai,
            qb3_n_hai, qb3_rc, qb3_rt, qb3_t_o, qb3_fr_rc, qb3_fr_rt, p2_n_fr, p2_n_ai, p2_n_hai,
            p2_rc, p2_rt, p2_t_o, p2_fr_rc, p2_fr_rt, p2_ai_rc, p2_ai_rt, qc1_n_fr, qc1_n_ai,
            qc1_n_hai, qc1_rc, qc1_rt, qc1_t_o, qc1_fr_rc, qc1_fr_rt, qc1_ai_rc, qc1_ai_rt,
            qc2_n_fr, qc2_n_ai, qc2_n_hai, qc2_rc, qc2_rt, qc2_t_o, qc2_fr_rc, qc2_fr_rt,
            qc2_ai_rc, qc2_ai_rt, qc3_n_fr, qc3_n_ai, qc3_n_hai, qc3_rc, qc3_rt, qc3_t_o,
            qc3_fr_rc, qc3_fr_rt, qc3_ai_rc, qc3_ai_rt
        );
        self.run_fr.clock.next = self.clock.val();
        self.run_ai.clock.next = self.clock.val();
        self.run_hai.clock.next = self.clock.val();
        self.run_fr.en.next = self.en.val();
        self.run_ai.en.next = self.en.val();
        self.run_hai.en.next = self.en.val();
        // ---- phases, T after, the fast-recovery run ----
        self.phases.k.next = self.k.val();
        self.phases.t.next = self.t.val();
        self.phases.bc.next = self.bc.val();
        self.phases.th.next = self.th.val();
        self.phases.byte_off.next = self.byte_off.val();
        self.run_fr.n.next = self.phases.n_fr.val();
        self.run_fr.step.next = 0.into();
        self.run_fr.rc.next = self.rc.val();
        self.run_fr.rt.next = self.rt.val();
        self.run_fr.max.next = self.max.val();
        self.ext_t.i.next = self.t.val();
        self.t21.next = self.ext_t.o.val() + self.k.val();
        self.t_new.next = 63.into();
        if (self.k.val() < self.t_max.val()) & (self.t21.val() < self.t_max.val()) {
            self.t_new.next = self.t21.val().get_bits::<STAGE_W>(0);
        }
        if self.en.val() {
            // Beside the FR run.
            self.qa1_n_fr.d.next = self.phases.n_fr.val();
            self.qa1_n_ai.d.next = self.phases.n_ai.val();
            self.qa1_n_hai.d.next = self.phases.n_hai.val();
            self.qa1_rc.d.next = self.rc.val();
            self.qa1_rt.d.next = self.rt.val();
            self.qa1_t_o.d.next = self.t_new.val();
            self.qa2_n_fr.d.next = self.qa1_n_fr.q.val();
            self.qa2_n_ai.d.next = self.qa1_n_ai.q.val();
            self.qa2_n_hai.d.next = self.qa1_n_hai.q.val();
            self.qa2_rc.d.next = self.qa1_rc.q.val();
            self.qa2_rt.d.next = self.qa1_rt.q.val();
            self.qa2_t_o.d.next = self.qa1_t_o.q.val();
            self.qa3_n_fr.d.next = self.qa2_n_fr.q.val();
            self.qa3_n_ai.d.next = self.qa2_n_ai.q.val();
            self.qa3_n_hai.d.next = self.qa2_n_hai.q.val();
            self.qa3_rc.d.next = self.qa2_rc.q.val();
            self.qa3_rt.d.next = self.qa2_rt.q.val();
            self.qa3_t_o.d.next = self.qa2_t_o.q.val();
            // After it.
            self.p1_n_fr.d.next = self.qa3_n_fr.q.val();
            self.p1_n_ai.d.next = self.qa3_n_ai.q.val();
            self.p1_n_hai.d.next = self.qa3_n_hai.q.val();
            self.p1_rc.d.next = self.qa3_rc.q.val();
            self.p1_rt.d.next = self.qa3_rt.q.val();
            self.p1_t_o.d.next = self.qa3_t_o.q.val();
            self.p1_fr_rc.d.next = self.run_fr.rc_o.val();
            self.p1_fr_rt.d.next = self.run_fr.rt_o.val();
            // Beside the AI run.
            self.qb1_n_fr.d.next = self.p1_n_fr.q.val();
            self.qb1_n_ai.d.next = self.p1_n_ai.q.val();
            self.qb1_n_hai.d.next = self.p1_n_hai.q.val();
            self.qb1_rc.d.next = self.p1_rc.q.val();
            self.qb1_rt.d.next = self.p1_rt.q.val();
            self.qb1_t_o.d.next = self.p1_t_o.q.val();
            self.qb1_fr_rc.d.next = self.p1_fr_rc.q.val();
            self.qb1_fr_rt.d.next = self.p1_fr_rt.q.val();
            self.qb2_n_fr.d.next = self.qb1_n_fr.q.val();
            self.qb2_n_ai.d.next = self.qb1_n_ai.q.val();
            self.qb2_n_hai.d.next = self.qb1_n_hai.q.val();
            self.qb2_rc.d.next = self.qb1_rc.q.val();
            self.qb2_rt.d.next = self.qb1_rt.q.val();
            self.qb2_t_o.d.next = self.qb1_t_o.q.val();
            self.qb2_fr_rc.d.next = self.qb1_fr_rc.q.val();
            self.qb2_fr_rt.d.next = self.qb1_fr_rt.q.val();
            self.qb3_n_fr.d.next = self.qb2_n_fr.q.val();
            self.qb3_n_ai.d.next = self.qb2_n_ai.q.val();
            self.qb3_n_hai.d.next = self.qb2_n_hai.q.val();
            self.qb3_rc.d.next = self.qb2_rc.q.val();
            self.qb3_rt.d.next = self.qb2_rt.q.val();
            self.qb3_t_o.d.next = self.qb2_t_o.q.val();
            self.qb3_fr_rc.d.next = self.qb2_fr_rc.q.val();
            self.qb3_fr_rt.d.next = self.qb2_fr_rt.q.val();
            // After it.
            self.p2_n_fr.d.next = self.qb3_n_fr.q.val();
            self.p2_n_ai.d.next = self.qb3_n_ai.q.val();
            self.p2_n_hai.d.next = self.qb3_n_hai.q.val();
            self.p2_rc.d.next = self.qb3_rc.q.val();
            self.p2_rt.d.next = self.qb3_rt.q.val();
            self.p2_t_o.d.next = self.qb3_t_o.q.val();
            self.p2_fr_rc.d.next = self.qb3_fr_rc.q.val();
            self.p2_fr_rt.d.next = self.qb3_fr_rt.q.val();
            self.p2_ai_rc.d.next = self.run_ai.rc_o.val();
            self.p2_ai_rt.d.next = self.run_ai.rt_o.val();
            // Beside the HAI run.
            self.qc1_n_fr.d.next = self.p2_n_fr.q.val();
            self.qc1_n_ai.d.next = self.p2_n_ai.q.val();
            self.qc1_n_hai.d.next = self.p2_n_hai.q.val();
            self.qc1_rc.d.next = self.p2_rc.q.val();
            self.qc1_rt.d.next = self.p2_rt.q.val();
            self.qc1_t_o.d.next = self.p2_t_o.q.val();
            self.qc1_fr_rc.d.next = self.p2_fr_rc.q.val();
            self.qc1_fr_rt.d.next = self.p2_fr_rt.q.val();
            self.qc1_ai_rc.d.next = self.p2_ai_rc.q.val();
            self.qc1_ai_rt.d.next = self.p2_ai_rt.q.val();
            self.qc2_n_fr.d.next = self.qc1_n_fr.q.val();
            self.qc2_n_ai.d.next = self.qc1_n_ai.q.val();
            self.qc2_n_hai.d.next = self.qc1_n_hai.q.val();
            self.qc2_rc.d.next = self.qc1_rc.q.val();
            self.qc2_rt.d.next = self.qc1_rt.q.val();
            self.qc2_t_o.d.next = self.qc1_t_o.q.val();
            self.qc2_fr_rc.d.next = self.qc1_fr_rc.q.val();
            self.qc2_fr_rt.d.next = self.qc1_fr_rt.q.val();
            self.qc2_ai_rc.d.next = self.qc1_ai_rc.q.val();
            self.qc2_ai_rt.d.next = self.qc1_ai_rt.q.val();
            self.qc3_n_fr.d.next = self.qc2_n_fr.q.val();
            self.qc3_n_ai.d.next = self.qc2_n_ai.q.val();
            self.qc3_n_hai.d.next = self.qc2_n_hai.q.val();
            self.qc3_rc.d.next = self.qc2_rc.q.val();
            self.qc3_rt.d.next = self.qc2_rt.q.val();
            self.qc3_t_o.d.next = self.qc2_t_o.q.val();
            self.qc3_fr_rc.d.next = self.qc2_fr_rc.q.val();
            self.qc3_fr_rt.d.next = self.qc2_fr_rt.q.val();
            self.qc3_ai_rc.d.next = self.qc2_ai_rc.q.val();
            self.qc3_ai_rt.d.next = self.qc2_ai_rt.q.val();
        }
        // ---- the additive run ----
        self.run_ai.n.next = self.p1_n_ai.q.val();
        self.run_ai.step.next = self.ai.val();
        self.run_ai.rc.next = self.p1_fr_rc.q.val();
        self.run_ai.rt.next = self.p1_fr_rt.q.val();
        self.run_ai.max.next = self.max.val();
        // ---- the hyper run ----
        self.run_hai.n.next = self.p2_n_hai.q.val();
        self.run_hai.step.next = self.hai.val();
        self.run_hai.rc.next = self.p2_ai_rc.q.val();
        self.run_hai.rt.next = self.p2_ai_rt.q.val();
        self.run_hai.max.next = self.max.val();
        // ---- release, counts (from the values that waited beside the HAI run) ----
        self.rc_o.next = self.run_hai.rc_o.val();
        self.rt_o.next = self.run_hai.rt_o.val();
        self.t_o.next = self.qc3_t_o.q.val();
        self.rel_fr.next =
            (self.qc3_n_fr.q.val().any()) & (self.qc3_fr_rc.q.val() >= self.max.val());
        self.rel_ai.next =
            (self.qc3_n_ai.q.val().any()) & (self.qc3_ai_rc.q.val() >= self.max.val());
        self.rel_hai.next =
            (self.qc3_n_hai.q.val().any()) & (self.run_hai.rc_o.val() >= self.max.val());
        self.released.next = self.rel_fr.val() | self.rel_ai.val() | self.rel_hai.val();
        // Counts by phase, and the first run that released (for the counters only: off the
        // state path, in parallel with what follows the segment).
        self.cnt_fr.next = self.qc3_n_fr.q.val();
        self.cnt_ai.next = self.qc3_n_ai.q.val();
        self.cnt_hai.next = self.qc3_n_hai.q.val();
        self.rel_phase.next = 2.into();
        self.rel_rc.next = self.qc3_ai_rc.q.val();
        self.rel_rt.next = self.qc3_ai_rt.q.val();
        if self.rel_fr.val() {
            self.cnt_fr.next = 0.into();
            self.cnt_ai.next = 0.into();
            self.cnt_hai.next = 0.into();
            self.rel_phase.next = 0.into();
            self.rel_rc.next = self.qc3_rc.q.val();
            self.rel_rt.next = self.qc3_rt.q.val();
        } else if self.rel_ai.val() {
            self.cnt_ai.next = 0.into();
            self.cnt_hai.next = 0.into();
            self.rel_phase.next = 1.into();
            self.rel_rc.next = self.qc3_fr_rc.q.val();
            self.rel_rt.next = self.qc3_fr_rt.q.val();
        } else if self.rel_hai.val() {
            self.cnt_hai.next = 0.into();
        }
    }
}

/// The decrease a decrease check performs when its CNP flag is set (golden: `cut`):
/// optionally `Rt := Rc`, then `Rc := max(min_rate, Rc - min(Rc * alpha >> (gd + 10),
/// Rc * max_cut_q16 >> 16))`. Two multipliers.
#[derive(LogicBlock, Default)]
pub struct Cut {
    /// Rc before.
    pub rc: Signal<In, Bits<RATE_W>>,
    /// Rt before.
    pub rt: Signal<In, Bits<RATE_W>>,
    /// T at the check.
    pub t: Signal<In, Bits<STAGE_W>>,
    /// BC at the check.
    pub bc: Signal<In, Bits<STAGE_W>>,
    /// alpha at the check, Q.20.
    pub alpha: Signal<In, Bits<ALPHA_W>>,
    /// `clamp_tgt_rate`.
    pub clamp: Signal<In, Bit>,
    /// `clamp_tgt_rate_after_time_inc`.
    pub clamp_after_t: Signal<In, Bit>,
    /// `rpg_gd + 10`.
    pub cut_shift: Signal<In, Bits<SHIFT_W>>,
    /// `floor((100 - rpg_min_dec_fac) * 2^16 / 100)`.
    pub max_cut_q16: Signal<In, Bits<CUTFRAC_W>>,
    /// `rpg_min_rate`, Mb/s Q.8.
    pub min_rate: Signal<In, Bits<RATE_W>>,
    /// Rc after.
    pub rc_o: Signal<Out, Bits<RATE_W>>,
    /// Rt after.
    pub rt_o: Signal<Out, Bits<RATE_W>>,
    mul_alpha: WideMul<RATE_W, ALPHA_W, 49>,
    mul_max: WideMul<RATE_W, CUTFRAC_W, 44>,
    cut_a: Signal<Local, Bits<49>>,
    /// `Rc * max_cut_q16 >> 16`: bits `16..44` of the 44-bit product, `RATE_W` bits.
    cut_m: Signal<Local, Bits<RATE_W>>,
    /// The 16 fraction bits of `Rc * max_cut_q16`, which the floor (`>> 16`) drops:
    /// computed by the multiplier, used by nothing (Verilator ignores `*unused*` signals).
    cut_m_frac_unused: Signal<Local, Bits<16>>,
    cut_v: Signal<Local, Bits<RATE_W>>,
    diff: Signal<Local, Bits<RATE_W>>,
}

impl Logic for Cut {
    #[hdl_gen]
    fn update(&mut self) {
        self.rt_o.next = self.rt.val();
        if self.clamp.val()
            | (self.bc.val().any())
            | (self.clamp_after_t.val() & (self.t.val().any()))
        {
            self.rt_o.next = self.rc.val();
        }
        self.mul_alpha.a.next = self.rc.val();
        self.mul_alpha.b.next = self.alpha.val();
        self.cut_a.next = self.mul_alpha.p.val() >> self.cut_shift.val();
        self.mul_max.a.next = self.rc.val();
        self.mul_max.b.next = self.max_cut_q16.val();
        self.cut_m.next = self.mul_max.p.val().get_bits::<RATE_W>(16);
        self.cut_m_frac_unused.next = self.mul_max.p.val().get_bits::<16>(0);
        // min(cut_a, cut_m); cut_a < cut_m needs cut_a < 2^RATE_W.
        self.cut_v.next = self.cut_m.val();
        if (!self.cut_a.val().get_bits::<21>(28).any())
            & (self.cut_a.val().get_bits::<RATE_W>(0) < self.cut_m.val())
        {
            self.cut_v.next = self.cut_a.val().get_bits::<RATE_W>(0);
        }
        self.diff.next = self.rc.val() - self.cut_v.val();
        self.rc_o.next = self.diff.val();
        if self.diff.val() < self.min_rate.val() {
            self.rc_o.next = self.min_rate.val();
        }
    }
}
