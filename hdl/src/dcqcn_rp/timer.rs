//! Timer arithmetic of the reaction point, in radix form (no division).
//!
//! A microsecond count is kept in the radix of the timer's period `p`: `us = epoch * p +
//! rem`, epoch modulo 2^32, `rem < p < 2^17` (see `sim::timebase`). Every block here mirrors
//! the function of the same name in `sim::dcqcn_rp`; all but `RadixEff` (two steps) and
//! `DivSmall` are combinational.

use super::widths::*;
use crate::zero_ext::ZeroExt;
use rust_hdl::prelude::*;

/// How many expiries at `nxt`, `nxt + p`, ... fall at or before `upto` (golden: `fired`),
/// from the two halves a pipeline registers apart: the epoch difference `upto.epoch -
/// nxt.epoch` (modulo 2^32) and `upto.rem >= nxt.rem` (both computed by the caller, a
/// register earlier), the count `diff + ge`, 0 if the difference is negative, saturating at
/// `2^21 - 1`. One carry chain, and one LUT after it: whether the count saturates is
/// decided from the inputs beside the chain (`sat`: `diff + ge >= 2^21 - 1` holds when a
/// bit of `diff` from 21 to 30 is set, or bits 1 to 20 are all set and bit 0 or `ge` is),
/// not from the sum.
#[derive(LogicBlock)]
pub struct FiredSum {
    /// `upto.epoch - nxt.epoch`, modulo 2^32 (bit 31 set: negative).
    pub diff: Signal<In, Bits<EPOCH_W>>,
    /// `upto.rem >= nxt.rem`.
    pub ge: Signal<In, Bit>,
    /// Number of expiries, saturating.
    pub n: Signal<Out, Bits<COUNT_W>>,
    /// `ge` as a `COUNT_W`-bit addend.
    ge_n: Signal<Local, Bits<COUNT_W>>,
    /// Bits 0 to 20 of `diff`.
    diff_lo: Signal<Local, Bits<COUNT_W>>,
    /// `diff_lo + ge`: the count when it does not saturate (then `diff_lo <= 2^21 - 2`,
    /// and the sum does not wrap).
    plus_lo: Signal<Local, Bits<COUNT_W>>,
    /// Bits 21 to 30 of `diff` (bit 31, the sign, is tested apart).
    diff_hi: Signal<Local, Bits<10>>,
    /// Bits 1 to 20 of `diff`.
    diff_mid: Signal<Local, Bits<20>>,
    /// `diff + ge >= 2^21 - 1` for a non-negative `diff`, from the inputs.
    sat: Signal<Local, Bit>,
}

impl Default for FiredSum {
    fn default() -> Self {
        Self {
            diff: Default::default(),
            ge: Default::default(),
            n: Default::default(),
            ge_n: Default::default(),
            diff_lo: Default::default(),
            plus_lo: Default::default(),
            diff_hi: Default::default(),
            diff_mid: Default::default(),
            sat: Default::default(),
        }
    }
}

impl Logic for FiredSum {
    #[hdl_gen]
    fn update(&mut self) {
        self.ge_n.next = 0.into();
        if self.ge.val() {
            self.ge_n.next = 1.into();
        }
        self.diff_lo.next = self.diff.val().get_bits::<COUNT_W>(0);
        self.plus_lo.next = self.diff_lo.val() + self.ge_n.val();
        // `diff + ge >= 2^21 - 1` (`COUNT_W` = 21; `hdl_gen` needs the literal offsets):
        // `diff >= 2^21`, or `diff` is `2^21 - 1`, or it is `2^21 - 2` and `ge` is set.
        self.diff_hi.next = self.diff.val().get_bits::<10>(21);
        self.diff_mid.next = self.diff.val().get_bits::<20>(1);
        self.sat.next = self.diff_hi.val().any()
            | (self.diff_mid.val().all() & (self.diff.val().get_bit(0) | self.ge.val()));
        if self.diff.val().get_bit(31) {
            self.n.next = 0.into();
        } else if self.sat.val() {
            self.n.next = 2097151.into();
        } else {
            self.n.next = self.plus_lo.val();
        }
    }
}

/// The last microsecond whose expiry instant (cycle `qp_sub` within it) is not after now:
/// `now` itself if `now_sub >= qp_sub`, else one microsecond earlier (golden:
/// `radix_eff`).
///
/// Two steps, one register apart (step A's A0 and A1): the candidates that depend on now
/// and the period alone (now's epoch less one, its remainder less one, whether the
/// remainder is zero, the period less one) are registered with now where `en` loads A0;
/// in the next cycle the result is chosen from those registers by `late` (`now_sub <
/// qp_sub`, registered in A0 as `RpUpdate`'s `i_late`; the core compares now's cycle with
/// each forwarding candidate's and chooses the bit beside the word, since a compare after
/// the word's choice does not fit 10 ns). Neither the 32-bit decrement nor the compare
/// runs in A1: the decrement after the compare, or the compare's result driving the choices
/// of all three units (their compares are identical, so yosys may merge them into one net,
/// with long routes into and out of it), leaves A1's `h_eff` registers short of 10 ns.
/// `e` and `r` repeat fields of `RpUpdate`'s `i_now` (same inputs, same enable): yosys
/// merges them (the netlist grows by exactly the 201 candidate flip-flops), but the block
/// could take them from `i_now` instead; left so, as the measured netlists are built from
/// this form.
#[derive(LogicBlock)]
pub struct RadixEff {
    /// Clock of the A0 registers.
    pub clock: Signal<In, Clock>,
    /// A0 loads (the update's `en`).
    pub en: Signal<In, Bit>,
    /// Now, epoch in this timer's radix (A0's input).
    pub now_e: Signal<In, Bits<EPOCH_W>>,
    /// Now, remainder in this timer's radix (A0's input).
    pub now_r: Signal<In, Bits<REM_W>>,
    /// The timer's period, us (a parameter: constant while events are in flight).
    pub period: Signal<In, Bits<REM_W>>,
    /// Now's cycle within the microsecond is before the QP's expiry cycle (`now_sub <
    /// qp_sub`), registered by the caller where `en` loads A0 (A1's input).
    pub late: Signal<In, Bit>,
    /// Result epoch (A1, for the now registered at the last load).
    pub eff_e: Signal<Out, Bits<EPOCH_W>>,
    /// Result remainder (A1).
    pub eff_r: Signal<Out, Bits<REM_W>>,
    /// A0: now's epoch, and that less one.
    e: DFF<Bits<EPOCH_W>>,
    em1: DFF<Bits<EPOCH_W>>,
    /// A0: now's remainder, that less one, and whether it is zero.
    r: DFF<Bits<REM_W>>,
    rm1: DFF<Bits<REM_W>>,
    rz: DFF<Bit>,
    /// A0: the period less one (the remainder a microsecond before a zero remainder).
    pm1: DFF<Bits<REM_W>>,
    one_e: Constant<Bits<EPOCH_W>>,
    one_r: Constant<Bits<REM_W>>,
}

impl Default for RadixEff {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            en: Default::default(),
            now_e: Default::default(),
            now_r: Default::default(),
            period: Default::default(),
            late: Default::default(),
            eff_e: Default::default(),
            eff_r: Default::default(),
            e: Default::default(),
            em1: Default::default(),
            r: Default::default(),
            rm1: Default::default(),
            rz: Default::default(),
            pm1: Default::default(),
            one_e: Constant::new(1.into()),
            one_r: Constant::new(1.into()),
        }
    }
}

impl Logic for RadixEff {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, e, em1, r, rm1, rz, pm1);
        if self.en.val() {
            self.e.d.next = self.now_e.val();
            self.em1.d.next = self.now_e.val() - self.one_e.val();
            self.r.d.next = self.now_r.val();
            self.rm1.d.next = self.now_r.val() - self.one_r.val();
            self.rz.d.next = !self.now_r.val().any();
            self.pm1.d.next = self.period.val() - self.one_r.val();
        }
        self.eff_e.next = self.e.q.val();
        self.eff_r.next = self.r.q.val();
        if self.late.val() {
            if self.rz.q.val() {
                self.eff_e.next = self.em1.q.val();
                self.eff_r.next = self.pm1.q.val();
            } else {
                self.eff_r.next = self.rm1.q.val();
            }
        }
    }
}

/// `(floor(num / p), num mod p)` for `num < 2^18`: multiply by `recip = floor(2^18 / p)`,
/// then one correction step (golden: `div_small`). Two multipliers.
///
/// Pipelined in [`DIV_STAGES`] = 5 registers that load when `en` is high: (1..3) the
/// estimate `q0 = num * recip >> 18` (`PipeMul`); (4) `q0 * p` (one DSP, registered in
/// the DSP: `DspMul`); (5) `r0 = num - q0 * p`; after register 5, the correction
/// (`r0 >= p`: one more). Register 4's product is the DSP's own output register, so the
/// route out of the DSP is in step 5's subtract, not after the multiply: with the product
/// leaving the DSP combinationally and registered in the fabric, the route in, the
/// multiply and the route out do not fit one 10 ns cycle in the board design. `q`, `r`
/// belong to the inputs presented `DIV_STAGES` advancing cycles earlier; `p` and `recip`
/// are parameters and must not change while a division is in flight.
#[derive(LogicBlock)]
pub struct DivSmall {
    /// Clock of the step registers.
    pub clock: Signal<In, Clock>,
    /// Advance: the step registers load.
    pub en: Signal<In, Bit>,
    /// Dividend, `< 2^18`.
    pub num: Signal<In, Bits<NUM_W>>,
    /// Divisor, `1..2^17`.
    pub p: Signal<In, Bits<REM_W>>,
    /// `floor(2^18 / p)`.
    pub recip: Signal<In, Bits<RECIP_W>>,
    /// Quotient.
    pub q: Signal<Out, Bits<NUM_W>>,
    /// Remainder, `< p`.
    pub r: Signal<Out, Bits<REM_W>>,
    /// `num * recip`; only bits `18..36` (the quotient estimate) are used.
    mul_est: crate::pipe_mul::PipeMul<NUM_W, RECIP_W>,
    /// `q0 * p` (register 4, in the DSP); only its low 18 bits are read: all that
    /// `r0 = num - q0 * p` (18 bits) depends on.
    mul_back: crate::dsp_mul::DspMul<NUM_W, REM_W, 35>,
    back_lo: Signal<Local, Bits<NUM_W>>,
    back_hi_unused: Signal<Local, Bits<17>>,
    k1_num: DFF<Bits<NUM_W>>,
    k2_num: DFF<Bits<NUM_W>>,
    k3_num: DFF<Bits<NUM_W>>,
    q0: Signal<Local, Bits<NUM_W>>,
    /// The 18 fraction bits of `num * recip / 2^18`, which the floor drops, and the bits
    /// above 36 (always zero): computed by the multiplier, used by nothing.
    est_frac_unused: Signal<Local, Bits<NUM_W>>,
    est_hi_unused: Signal<Local, Bits<28>>,
    r4_num: DFF<Bits<NUM_W>>,
    r4_q0: DFF<Bits<NUM_W>>,
    r5_q0: DFF<Bits<NUM_W>>,
    r5_r0: DFF<Bits<NUM_W>>,
    p18: Signal<Local, Bits<NUM_W>>,
    /// `r0 - p`, low 17 bits: all that the remainder output `r` keeps.
    r_fix: Signal<Local, Bits<REM_W>>,
    ext_p: ZeroExt<REM_W, NUM_W>,
    one: Constant<Bits<NUM_W>>,
}

/// Registers inside a [`DivSmall`].
pub const DIV_STAGES: usize = crate::pipe_mul::PIPE_MUL_STAGES + 2;

impl Default for DivSmall {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            en: Default::default(),
            num: Default::default(),
            p: Default::default(),
            recip: Default::default(),
            q: Default::default(),
            r: Default::default(),
            mul_est: Default::default(),
            mul_back: Default::default(),
            back_lo: Default::default(),
            back_hi_unused: Default::default(),
            k1_num: Default::default(),
            k2_num: Default::default(),
            k3_num: Default::default(),
            q0: Default::default(),
            est_frac_unused: Default::default(),
            est_hi_unused: Default::default(),
            r4_num: Default::default(),
            r4_q0: Default::default(),
            r5_q0: Default::default(),
            r5_r0: Default::default(),
            p18: Default::default(),
            r_fix: Default::default(),
            ext_p: Default::default(),
            one: Constant::new(1.into()),
        }
    }
}

impl Logic for DivSmall {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, k1_num, k2_num, k3_num, r4_num, r4_q0, r5_q0, r5_r0
        );
        // ---- registers 1..3: the estimate ----
        self.mul_est.clock.next = self.clock.val();
        self.mul_est.en.next = self.en.val();
        self.mul_est.a.next = self.num.val();
        self.mul_est.b.next = self.recip.val();
        if self.en.val() {
            self.k1_num.d.next = self.num.val();
            self.k2_num.d.next = self.k1_num.q.val();
            self.k3_num.d.next = self.k2_num.q.val();
        }
        // ---- register 4: q0 * p ----
        self.q0.next = self.mul_est.p.val().get_bits::<NUM_W>(18);
        self.est_frac_unused.next = self.mul_est.p.val().get_bits::<NUM_W>(0);
        self.est_hi_unused.next = self.mul_est.p.val().get_bits::<28>(36);
        self.mul_back.clock.next = self.clock.val();
        self.mul_back.en.next = self.en.val();
        self.mul_back.a.next = self.q0.val();
        self.mul_back.b.next = self.p.val();
        if self.en.val() {
            self.r4_num.d.next = self.k3_num.q.val();
            self.r4_q0.d.next = self.q0.val();
        }
        self.back_lo.next = self.mul_back.p.val().get_bits::<NUM_W>(0);
        self.back_hi_unused.next = self.mul_back.p.val().get_bits::<17>(18);
        // ---- register 5: r0 = num - q0 * p ----
        if self.en.val() {
            self.r5_q0.d.next = self.r4_q0.q.val();
            self.r5_r0.d.next = self.r4_num.q.val() - self.back_lo.val();
        }
        // ---- after register 5: q0 is floor(num / p) or one less ----
        self.ext_p.i.next = self.p.val();
        self.p18.next = self.ext_p.o.val();
        self.r_fix.next = self.r5_r0.q.val().get_bits::<REM_W>(0) - self.p.val();
        if self.r5_r0.q.val() >= self.p18.val() {
            self.q.next = self.r5_q0.q.val() + self.one.val();
            self.r.next = self.r_fix.val();
        } else {
            self.q.next = self.r5_q0.q.val();
            self.r.next = self.r5_r0.q.val().get_bits::<REM_W>(0);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `FiredSum` (rust-hdl's simulation of it) against its definition, `diff + ge`
    /// saturating at `2^21 - 1` and 0 for a negative `diff`, around every boundary of the
    /// saturation test (`2^21 - 2`, `2^21 - 1`, `2^21`, each power of two, the sign) with
    /// `ge` clear and set.
    #[test]
    fn fired_sum_matches_definition() {
        let mut f = FiredSum::default();
        f.connect_all();
        let max = (1u64 << COUNT_W) - 1;
        let mut values: Vec<u64> = vec![0, 1, 2, max - 2, max - 1, max, max + 1, 0xFFFF_FFFF];
        for k in 0..32 {
            let p = 1u64 << k;
            values.extend([p - 1, p, p + 1, (p - 1) & !2]);
        }
        for v in values {
            let v = v & 0xFFFF_FFFF;
            for ge in [false, true] {
                f.diff.next = v.into();
                f.ge.next = ge;
                assert!(simulate(&mut f, 100));
                let want = if v >> 31 != 0 {
                    0
                } else {
                    (v + ge as u64).min(max)
                };
                assert_eq!(f.n.val().to_u64(), want, "diff = {v:#x}, ge = {ge}");
            }
        }
    }
}
