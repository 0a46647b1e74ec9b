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
#[derive(LogicBlock)]
pub struct IncRun {
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
    ext_step: ZeroExt<RATE_W, 50>,
    ext_rt: ZeroExt<RATE_W, 50>,
    ext_rc: ZeroExt<RATE_W, DIST_W>,
    ext_max: ZeroExt<RATE_W, 50>,
    ext_p: ZeroExt<49, 50>,
    sh_n_asr: Asr,
    fr_asr: Asr,
    sh_j_asr: Asr,
    half_asr: Asr,
    sat_asr: Asr,
    s31: Signal<Local, Bits<DIST_W>>,
    d: Signal<Local, Bits<DIST_W>>,
    dms: Signal<Local, Bits<DIST_W>>,
    sum: Signal<Local, Bits<50>>,
    max50: Signal<Local, Bits<50>>,
    over: Signal<Local, Bits<50>>,
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
    r6: Signal<Local, Bits<6>>,
    r21: Signal<Local, Bits<COUNT_W>>,
    j: Signal<Local, Bits<COUNT_W>>,
    sh_n: Signal<Local, Bits<6>>,
    sh_j: Signal<Local, Bits<6>>,
    rem31: Signal<Local, Bits<DIST_W>>,
    d_unsat: Signal<Local, Bits<DIST_W>>,
    d1: Signal<Local, Bits<DIST_W>>,
    t2: Signal<Local, Bits<DIST_W>>,
    rt_sel: Signal<Local, Bits<RATE_W>>,
    d_sel: Signal<Local, Bits<DIST_W>>,
    /// The bits of the remainder `x0` above `rem31`'s `DIST_W`: it is below `step < 2^28`
    /// whenever the result depends on it, so they are zero and nothing reads them.
    x0_hi_unused: Signal<Local, Bits<3>>,
    /// Rc after is the low `RATE_W` bits of `Rt - d` (the golden model stores Rc in
    /// `RATE_W` bits too): the high bits of `d` do not reach it.
    d_sel_hi_unused: Signal<Local, Bits<3>>,
    one: Constant<Bits<COUNT_W>>,
    sh_max: Constant<Bits<COUNT_W>>,
}

impl Default for IncRun {
    fn default() -> Self {
        Self {
            n: Default::default(),
            step: Default::default(),
            rc: Default::default(),
            rt: Default::default(),
            max: Default::default(),
            rc_o: Default::default(),
            rt_o: Default::default(),
            mul: Default::default(),
            ext_step: Default::default(),
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
            r6: Default::default(),
            r21: Default::default(),
            j: Default::default(),
            sh_n: Default::default(),
            sh_j: Default::default(),
            rem31: Default::default(),
            d_unsat: Default::default(),
            d1: Default::default(),
            t2: Default::default(),
            rt_sel: Default::default(),
            d_sel: Default::default(),
            x0_hi_unused: Default::default(),
            d_sel_hi_unused: Default::default(),
            one: Constant::new(1.into()),
            sh_max: Constant::new(63.into()),
        }
    }
}

impl Logic for IncRun {
    #[hdl_gen]
    fn update(&mut self) {
        self.ext_step.i.next = self.step.val();
        self.ext_rt.i.next = self.rt.val();
        self.ext_rc.i.next = self.rc.val();
        self.ext_max.i.next = self.max.val();
        self.s31.next = self.ext_step.o.val().get_bits::<DIST_W>(0);
        self.d.next = self.ext_rt.o.val().get_bits::<DIST_W>(0) - self.ext_rc.o.val();
        self.dms.next = self.d.val() - self.s31.val();
        // Rt + n * step against the max rate.
        self.mul.a.next = self.n.val();
        self.mul.b.next = self.step.val();
        self.ext_p.i.next = self.mul.p.val();
        self.sum.next = self.ext_rt.o.val() + self.ext_p.o.val();
        self.max50.next = self.ext_max.o.val();
        self.over.next = self.sum.val() - self.max50.val();
        self.s32x.next = self.ext_step.o.val() << 5;
        // r = floor(over / step) and its remainder, for over < 32 * step.
        self.s34.next = self.ext_step.o.val().get_bits::<34>(0);
        self.x5.next = self.over.val().get_bits::<34>(0);
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
        self.r6.next = self.r21.val().get_bits::<6>(0);
        self.rem31.next = self.x0.val().get_bits::<DIST_W>(0);
        self.x0_hi_unused.next = self.x0.val().get_bits::<3>(31);
        self.j.next = (self.n.val() - self.r21.val()) - self.one.val();
        // Shift amounts, clamped to 63 (every 31-bit value is 0 or -1 by then).
        self.sh_n.next = self.n.val().get_bits::<6>(0);
        if self.n.val() >= self.sh_max.val() {
            self.sh_n.next = 63.into();
        }
        self.sh_j.next = self.j.val().get_bits::<6>(0);
        if self.j.val() >= self.sh_max.val() {
            self.sh_j.next = 63.into();
        }
        // Rt stays below max: d - step halves n times.
        self.sh_n_asr.v.next = self.dms.val();
        self.sh_n_asr.k.next = self.sh_n.val();
        self.d_unsat.next = self.s31.val() + self.sh_n_asr.o.val();
        // Rt already at max: d halves n times.
        self.fr_asr.v.next = self.d.val();
        self.fr_asr.k.next = self.sh_n.val();
        // Rt reaches max r events before the end.
        self.sh_j_asr.v.next = self.dms.val();
        self.sh_j_asr.k.next = self.sh_j.val();
        self.d1.next = self.s31.val() + self.sh_j_asr.o.val();
        self.t2.next = (self.d1.val() + self.s31.val()) - self.rem31.val();
        self.half_asr.v.next = self.t2.val();
        self.half_asr.k.next = 1.into();
        self.sat_asr.v.next = self.half_asr.o.val();
        self.sat_asr.k.next = self.r6.val();
        // Select.
        self.rt_sel.next = self.max.val();
        self.d_sel.next = self.sat_asr.o.val();
        if self.rt.val() >= self.max.val() {
            self.d_sel.next = self.fr_asr.o.val();
        } else if self.sum.val() < self.max50.val() {
            self.rt_sel.next = self.sum.val().get_bits::<RATE_W>(0);
            self.d_sel.next = self.d_unsat.val();
        } else if self.over.val() >= self.s32x.val() {
            self.d_sel.next = 0.into();
        }
        self.d_sel_hi_unused.next = self.d_sel.val().get_bits::<3>(28);
        if !self.n.val().any() {
            self.rc_o.next = self.rc.val();
            self.rt_o.next = self.rt.val();
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
/// Pipelined, one run per step: step 1 (phases, the fast-recovery run) and step 2 (the
/// additive run) end in registers that load when `en` is high; step 3 (the hyper run) is
/// combinational to the outputs. The outputs belong to the inputs presented
/// [`SEG_STAGES`] advancing cycles earlier. `th`, `byte_off`, `ai`, `hai` and `max` are
/// parameters and must not change while a segment is in flight.
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
    // Step 1 -> 2: the phases' counts, Rc and Rt before and after the FR run, T after.
    p1_n_fr: DFF<Bits<COUNT_W>>,
    p1_n_ai: DFF<Bits<COUNT_W>>,
    p1_n_hai: DFF<Bits<COUNT_W>>,
    p1_rc: DFF<Bits<RATE_W>>,
    p1_rt: DFF<Bits<RATE_W>>,
    p1_fr_rc: DFF<Bits<RATE_W>>,
    p1_fr_rt: DFF<Bits<RATE_W>>,
    p1_t_o: DFF<Bits<STAGE_W>>,
    // Step 2 -> 3: the same and Rc, Rt after the AI run.
    p2_n_fr: DFF<Bits<COUNT_W>>,
    p2_n_ai: DFF<Bits<COUNT_W>>,
    p2_n_hai: DFF<Bits<COUNT_W>>,
    p2_rc: DFF<Bits<RATE_W>>,
    p2_rt: DFF<Bits<RATE_W>>,
    p2_fr_rc: DFF<Bits<RATE_W>>,
    p2_fr_rt: DFF<Bits<RATE_W>>,
    p2_ai_rc: DFF<Bits<RATE_W>>,
    p2_ai_rt: DFF<Bits<RATE_W>>,
    p2_t_o: DFF<Bits<STAGE_W>>,
    rel_fr: Signal<Local, Bit>,
    rel_ai: Signal<Local, Bit>,
    rel_hai: Signal<Local, Bit>,
}

/// Registers inside an [`IncSegment`]: its outputs follow its inputs by this many
/// advancing cycles.
pub const SEG_STAGES: usize = 2;

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
            p1_n_fr: Default::default(),
            p1_n_ai: Default::default(),
            p1_n_hai: Default::default(),
            p1_rc: Default::default(),
            p1_rt: Default::default(),
            p1_fr_rc: Default::default(),
            p1_fr_rt: Default::default(),
            p1_t_o: Default::default(),
            p2_n_fr: Default::default(),
            p2_n_ai: Default::default(),
            p2_n_hai: Default::default(),
            p2_rc: Default::default(),
            p2_rt: Default::default(),
            p2_fr_rc: Default::default(),
            p2_fr_rt: Default::default(),
            p2_ai_rc: Default::default(),
            p2_ai_rt: Default::default(),
            p2_t_o: Default::default(),
            rel_fr: Default::default(),
            rel_ai: Default::default(),
            rel_hai: Default::default(),
        }
    }
}

impl Logic for IncSegment {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, p1_n_fr, p1_n_ai, p1_n_hai, p1_rc, p1_rt, p1_fr_rc, p1_fr_rt, p1_t_o,
            p2_n_fr, p2_n_ai, p2_n_hai, p2_rc, p2_rt, p2_fr_rc, p2_fr_rt, p2_ai_rc, p2_ai_rt,
            p2_t_o
        );
        // ---- step 1: phases, the fast-recovery run, T after ----
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
            self.p1_n_fr.d.next = self.phases.n_fr.val();
            self.p1_n_ai.d.next = self.phases.n_ai.val();
            self.p1_n_hai.d.next = self.phases.n_hai.val();
            self.p1_rc.d.next = self.rc.val();
            self.p1_rt.d.next = self.rt.val();
            self.p1_fr_rc.d.next = self.run_fr.rc_o.val();
            self.p1_fr_rt.d.next = self.run_fr.rt_o.val();
            self.p1_t_o.d.next = self.t_new.val();
        }

        // ---- step 2: the additive run ----
        self.run_ai.n.next = self.p1_n_ai.q.val();
        self.run_ai.step.next = self.ai.val();
        self.run_ai.rc.next = self.p1_fr_rc.q.val();
        self.run_ai.rt.next = self.p1_fr_rt.q.val();
        self.run_ai.max.next = self.max.val();
        if self.en.val() {
            self.p2_n_fr.d.next = self.p1_n_fr.q.val();
            self.p2_n_ai.d.next = self.p1_n_ai.q.val();
            self.p2_n_hai.d.next = self.p1_n_hai.q.val();
            self.p2_rc.d.next = self.p1_rc.q.val();
            self.p2_rt.d.next = self.p1_rt.q.val();
            self.p2_fr_rc.d.next = self.p1_fr_rc.q.val();
            self.p2_fr_rt.d.next = self.p1_fr_rt.q.val();
            self.p2_ai_rc.d.next = self.run_ai.rc_o.val();
            self.p2_ai_rt.d.next = self.run_ai.rt_o.val();
            self.p2_t_o.d.next = self.p1_t_o.q.val();
        }

        // ---- step 3: the hyper run, release, counts ----
        self.run_hai.n.next = self.p2_n_hai.q.val();
        self.run_hai.step.next = self.hai.val();
        self.run_hai.rc.next = self.p2_ai_rc.q.val();
        self.run_hai.rt.next = self.p2_ai_rt.q.val();
        self.run_hai.max.next = self.max.val();
        self.rc_o.next = self.run_hai.rc_o.val();
        self.rt_o.next = self.run_hai.rt_o.val();
        self.t_o.next = self.p2_t_o.q.val();
        self.rel_fr.next = (self.p2_n_fr.q.val().any()) & (self.p2_fr_rc.q.val() >= self.max.val());
        self.rel_ai.next = (self.p2_n_ai.q.val().any()) & (self.p2_ai_rc.q.val() >= self.max.val());
        self.rel_hai.next =
            (self.p2_n_hai.q.val().any()) & (self.run_hai.rc_o.val() >= self.max.val());
        self.released.next = self.rel_fr.val() | self.rel_ai.val() | self.rel_hai.val();
        // Counts by phase, and the first run that released (for the counters only: off the
        // state path, in parallel with what follows the segment).
        self.cnt_fr.next = self.p2_n_fr.q.val();
        self.cnt_ai.next = self.p2_n_ai.q.val();
        self.cnt_hai.next = self.p2_n_hai.q.val();
        self.rel_phase.next = 2.into();
        self.rel_rc.next = self.p2_ai_rc.q.val();
        self.rel_rt.next = self.p2_ai_rt.q.val();
        if self.rel_fr.val() {
            self.cnt_fr.next = 0.into();
            self.cnt_ai.next = 0.into();
            self.cnt_hai.next = 0.into();
            self.rel_phase.next = 0.into();
            self.rel_rc.next = self.p2_rc.q.val();
            self.rel_rt.next = self.p2_rt.q.val();
        } else if self.rel_ai.val() {
            self.cnt_ai.next = 0.into();
            self.cnt_hai.next = 0.into();
            self.rel_phase.next = 1.into();
            self.rel_rc.next = self.p2_fr_rc.q.val();
            self.rel_rt.next = self.p2_fr_rt.q.val();
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
