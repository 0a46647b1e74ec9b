//! `HopLoad`: one INT hop's normalised load `u_i` (Q.24, saturating at `2^40 - 1`) from the
//! hop's deltas, pipelined: [`HOP_STAGES`] = 13 registers from the inputs to `u`. The
//! golden statement is `roce_cc_sim::hpcc_window::HpccWindow::hop_load`:
//!
//! `u = min(u_tx + u_q, 2^40 - 1)`, with
//! `u_tx = sat((ktx_m[c] * dtx * y18) >> (ktx_sh[c] - 2 - lz))` and
//! `u_q = sat((kq_m[c] * qmin) >> (kq_sh[c] - 9))` (a negative shift is a left shift),
//! where `c` is the hop's rate code, `lz` the leading zeros of the 24-bit `tau`,
//! `y18 = (recip(tau << lz) + 64) >> 7 ~ 2^40 / (tau << lz)` and `sat` saturates at
//! `2^40 - 1`. The per-code constants come from the configuration compiler
//! (`crate::cfg_compiler`): `ktx = multi * 1024 / B * 2^-16` and `kq = multi * 640 / (B * T)
//! * 2^24` as 18-bit mantissas and shifts.
//!
//! | register | holds | logic before it |
//! |---|---|---|
//! | 1 | `tau`, its leading zeros `lz`, `dtx`, `qmin`, the code, valid (`tau > 0`) | a 24-bit leading-one search |
//! | 2 | `m = tau << lz` (`Recip`'s first register), the tx shift `ktx_sh - lz`, `kq_m * qmin` (DSP) | a 24-bit shift, the code's constants |
//! | 3 | `u_q` | a 44-bit shift and the saturation |
//! | 3-5 | `recip(m)` (`Recip`'s registers 2 to 4) | |
//! | 6 | `y18` | a 25-bit add |
//! | 7 | `kv = ktx_m * y18` (DSP) | the code's constant |
//! | 8 | `kv_lo * dl`, `kv_hi * dl` (two DSPs; `dtx = dh * 2^18 + dl`), `kv * dh` | a 38-bit add |
//! | 9 | `kv_lo * dl + (kv_hi * dl << 18)` | a 54-bit add |
//! | 10 | the product `ktx_m * y18 * dtx` (56 bits) | a 56-bit add |
//! | 11 | the product shifted | a 58-bit shift |
//! | 12 | `u_tx` | the saturation |
//! | 13 | `u` | a 41-bit add and the saturation |
//!
//! The registers load at every edge. `dtx`, the tx shift and `u_q` wait in `DelayLine`s
//! (LUT RAM) for the registers that read them.

use super::recip::{RECIP_STAGES, RECIP_W, Recip};
use crate::delay_line::DelayLine;
use crate::dsp_mul::DspMul;
use crate::zero_ext::ZeroExt;
use rust_hdl::prelude::*;

/// Registers from the inputs to `u`.
pub const HOP_STAGES: usize = 13;
/// Width of a load and of U (Q.24, 16 integer bits): one width for the whole window unit.
pub use super::u_ewma::U_W;
/// Width of an INT timestamp delta, ns.
pub const TAU_W: usize = 24;
/// Width of an INT tx delta (units of `128 * multi` bytes).
pub const DTX_W: usize = 20;
/// Width of an INT queue length (units of `80 * multi` bytes).
pub const QLEN_W: usize = 17;
/// Width of a per-code constant's mantissa (`2^17 <= m < 2^18`).
pub const KM_W: usize = 18;
/// Width of the tx shift `ktx_sh = 2 - e` (`e` in `-33..=-21`: 23 to 35).
pub const KTX_SH_W: usize = 6;
/// Width of the queue shift `kq_sh = 9 - e` (`e` in `-14..=9`: 0 to 23).
pub const KQ_SH_W: usize = 5;
/// Rate codes.
pub const CODES: usize = 8;

const _: () = assert!(RECIP_STAGES == 4 && RECIP_W == 25);

/// The per-rate-code constants of `u_i` (from the configuration compiler), one field per
/// code (rust-hdl's generator cannot index an array port of a sub-block).
#[derive(Clone, Copy, Debug, Default, PartialEq, LogicStruct)]
pub struct CodeConsts {
    /// Code 0: the tx constant's mantissa.
    pub ktx_m0: Bits<KM_W>,
    /// Code 1: the tx constant's mantissa.
    pub ktx_m1: Bits<KM_W>,
    /// Code 2: the tx constant's mantissa.
    pub ktx_m2: Bits<KM_W>,
    /// Code 3: the tx constant's mantissa.
    pub ktx_m3: Bits<KM_W>,
    /// Code 4: the tx constant's mantissa.
    pub ktx_m4: Bits<KM_W>,
    /// Code 5: the tx constant's mantissa.
    pub ktx_m5: Bits<KM_W>,
    /// Code 6: the tx constant's mantissa.
    pub ktx_m6: Bits<KM_W>,
    /// Code 7: the tx constant's mantissa.
    pub ktx_m7: Bits<KM_W>,
    /// Code 0: the tx constant's shift, `2 - e`.
    pub ktx_sh0: Bits<KTX_SH_W>,
    /// Code 1: the tx constant's shift, `2 - e`.
    pub ktx_sh1: Bits<KTX_SH_W>,
    /// Code 2: the tx constant's shift, `2 - e`.
    pub ktx_sh2: Bits<KTX_SH_W>,
    /// Code 3: the tx constant's shift, `2 - e`.
    pub ktx_sh3: Bits<KTX_SH_W>,
    /// Code 4: the tx constant's shift, `2 - e`.
    pub ktx_sh4: Bits<KTX_SH_W>,
    /// Code 5: the tx constant's shift, `2 - e`.
    pub ktx_sh5: Bits<KTX_SH_W>,
    /// Code 6: the tx constant's shift, `2 - e`.
    pub ktx_sh6: Bits<KTX_SH_W>,
    /// Code 7: the tx constant's shift, `2 - e`.
    pub ktx_sh7: Bits<KTX_SH_W>,
    /// Code 0: the queue constant's mantissa.
    pub kq_m0: Bits<KM_W>,
    /// Code 1: the queue constant's mantissa.
    pub kq_m1: Bits<KM_W>,
    /// Code 2: the queue constant's mantissa.
    pub kq_m2: Bits<KM_W>,
    /// Code 3: the queue constant's mantissa.
    pub kq_m3: Bits<KM_W>,
    /// Code 4: the queue constant's mantissa.
    pub kq_m4: Bits<KM_W>,
    /// Code 5: the queue constant's mantissa.
    pub kq_m5: Bits<KM_W>,
    /// Code 6: the queue constant's mantissa.
    pub kq_m6: Bits<KM_W>,
    /// Code 7: the queue constant's mantissa.
    pub kq_m7: Bits<KM_W>,
    /// Code 0: the queue constant's shift, `9 - e`.
    pub kq_sh0: Bits<KQ_SH_W>,
    /// Code 1: the queue constant's shift, `9 - e`.
    pub kq_sh1: Bits<KQ_SH_W>,
    /// Code 2: the queue constant's shift, `9 - e`.
    pub kq_sh2: Bits<KQ_SH_W>,
    /// Code 3: the queue constant's shift, `9 - e`.
    pub kq_sh3: Bits<KQ_SH_W>,
    /// Code 4: the queue constant's shift, `9 - e`.
    pub kq_sh4: Bits<KQ_SH_W>,
    /// Code 5: the queue constant's shift, `9 - e`.
    pub kq_sh5: Bits<KQ_SH_W>,
    /// Code 6: the queue constant's shift, `9 - e`.
    pub kq_sh6: Bits<KQ_SH_W>,
    /// Code 7: the queue constant's shift, `9 - e`.
    pub kq_sh7: Bits<KQ_SH_W>,
}

/// `u_i` of the hop presented [`HOP_STAGES`] edges ago, and whether it counts (`tau > 0`).
#[derive(LogicBlock)]
pub struct HopLoad {
    /// Clock of the registers.
    pub clock: Signal<In, Clock>,
    /// The hop is one of the ACK's (`i < nhop`) and the ACK is applied.
    pub valid: Signal<In, Bit>,
    /// Link rate code.
    pub code: Signal<In, Bits<3>>,
    /// `(ts - L.ts) mod 2^24`, ns.
    pub tau: Signal<In, Bits<TAU_W>>,
    /// `(tx - L.tx) mod 2^20`.
    pub dtx: Signal<In, Bits<DTX_W>>,
    /// `min(qlen, L.qlen)`.
    pub qmin: Signal<In, Bits<QLEN_W>>,
    /// The per-code constants.
    pub k: Signal<In, CodeConsts>,
    /// `valid` and `tau > 0`, for the hop of [`HOP_STAGES`] edges ago.
    pub u_valid: Signal<Out, Bit>,
    /// `u_i`, Q.24 (meaningful with `u_valid`).
    pub u: Signal<Out, Bits<U_W>>,
    code_c: [Constant<Bits<3>>; CODES],
    lz_c: [Constant<Bits<5>>; TAU_W],
    // Register 1.
    r1_valid: DFF<Bit>,
    r1_tau: DFF<Bits<TAU_W>>,
    r1_lz: DFF<Bits<5>>,
    r1_code: DFF<Bits<3>>,
    r1_qmin: DFF<Bits<QLEN_W>>,
    lz: Signal<Local, Bits<5>>,
    // Register 2.
    r2_kq_sh: DFF<Bits<KQ_SH_W>>,
    r2_code: DFF<Bits<3>>,
    sel_kq_m: Signal<Local, Bits<KM_W>>,
    sel_ktx_sh: Signal<Local, Bits<KTX_SH_W>>,
    sel_kq_sh: Signal<Local, Bits<KQ_SH_W>>,
    mul_q: DspMul<KM_W, QLEN_W, { KM_W + QLEN_W }>,
    /// `ktx_sh - lz`, from register 2 to register 11's input.
    sh_line: DelayLine<Bits<KTX_SH_W>, 4>,
    /// `dtx`, from register 1 to register 8's input.
    dtx_line: DelayLine<Bits<DTX_W>, 3>,
    // Register 3.
    ext_q: ZeroExt<{ KM_W + QLEN_W }, 44>,
    q_sh: Signal<Local, Bits<44>>,
    r3_uq: DFF<Bits<U_W>>,
    /// `u_q`, from register 3 to register 13's input.
    uq_line: DelayLine<Bits<U_W>, 4>,
    recip: Recip,
    // Registers 3 to 6: the code beside the reciprocal.
    r3_code: DFF<Bits<3>>,
    r4_code: DFF<Bits<3>>,
    r5_code: DFF<Bits<3>>,
    r6_code: DFF<Bits<3>>,
    // Register 6.
    r6_y18: DFF<Bits<KM_W>>,
    y_round: Signal<Local, Bits<RECIP_W>>,
    // Register 7.
    sel_ktx_m: Signal<Local, Bits<KM_W>>,
    mul_kv: DspMul<KM_W, KM_W, 36>,
    // Register 8.
    mul_lo: DspMul<18, 18, 36>,
    mul_hi: DspMul<18, 18, 36>,
    ext_kv: ZeroExt<36, 38>,
    r8_kh: DFF<Bits<38>>,
    /// `kv * dtx[19:18]`, built in a local signal (a DFF's `d` reads back its settled value
    /// in rust-hdl's simulation, not the one just assigned).
    kh: Signal<Local, Bits<38>>,
    // Register 9.
    ext_lo: ZeroExt<36, 54>,
    ext_hi: ZeroExt<36, 54>,
    r9_a: DFF<Bits<54>>,
    r9_kh: DFF<Bits<38>>,
    // Register 10.
    ext_a: ZeroExt<54, 56>,
    ext_kh: ZeroExt<38, 56>,
    r10_p: DFF<Bits<56>>,
    // Register 11.
    ext_p: ZeroExt<56, 58>,
    r11_s: DFF<Bits<58>>,
    // Register 12.
    r12_utx: DFF<Bits<U_W>>,
    // Register 13.
    ext_utx: ZeroExt<U_W, 41>,
    ext_uq: ZeroExt<U_W, 41>,
    sum: Signal<Local, Bits<41>>,
    r13_u: DFF<Bits<U_W>>,
    /// `valid` from register 1 to register 13.
    v: [DFF<Bit>; 12],
    u_max: Constant<Bits<U_W>>,
    one: Constant<Bit>,
    /// Half of `y`'s dropped bits (`2^6`), for the rounding to 18 bits.
    half_y: Constant<Bits<RECIP_W>>,
    ext_lz: ZeroExt<5, KTX_SH_W>,
    /// The bits a floor drops and bits known to be zero: read by no one.
    y_frac_unused: Signal<Local, Bits<7>>,
}

impl Default for HopLoad {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            valid: Default::default(),
            code: Default::default(),
            tau: Default::default(),
            dtx: Default::default(),
            qmin: Default::default(),
            k: Default::default(),
            u_valid: Default::default(),
            u: Default::default(),
            code_c: std::array::from_fn(|c| Constant::new((c as u64).into())),
            lz_c: std::array::from_fn(|c| Constant::new((c as u64).into())),
            r1_valid: Default::default(),
            r1_tau: Default::default(),
            r1_lz: Default::default(),
            r1_code: Default::default(),
            r1_qmin: Default::default(),
            lz: Default::default(),
            r2_kq_sh: Default::default(),
            r2_code: Default::default(),
            sel_kq_m: Default::default(),
            sel_ktx_sh: Default::default(),
            sel_kq_sh: Default::default(),
            mul_q: DspMul::new(),
            // Written at edge 2, read before edge 11: 9 edges.
            sh_line: DelayLine::new(9),
            // Written at edge 1, read before edge 8: 7 edges... the line's `d` is the input
            // `dtx` at edge 1, so its `q` after edge 7 is `dtx` of 7 edges ago.
            dtx_line: DelayLine::new(7),
            ext_q: Default::default(),
            q_sh: Default::default(),
            r3_uq: Default::default(),
            // Written at edge 4 (from register 3), read before edge 13: 9 edges.
            uq_line: DelayLine::new(9),
            recip: Default::default(),
            r3_code: Default::default(),
            r4_code: Default::default(),
            r5_code: Default::default(),
            r6_code: Default::default(),
            r6_y18: Default::default(),
            y_round: Default::default(),
            sel_ktx_m: Default::default(),
            mul_kv: DspMul::new(),
            mul_lo: DspMul::new(),
            mul_hi: DspMul::new(),
            ext_kv: Default::default(),
            r8_kh: Default::default(),
            kh: Default::default(),
            ext_lo: Default::default(),
            ext_hi: Default::default(),
            r9_a: Default::default(),
            r9_kh: Default::default(),
            ext_a: Default::default(),
            ext_kh: Default::default(),
            r10_p: Default::default(),
            ext_p: Default::default(),
            r11_s: Default::default(),
            r12_utx: Default::default(),
            ext_utx: Default::default(),
            ext_uq: Default::default(),
            sum: Default::default(),
            r13_u: Default::default(),
            v: Default::default(),
            u_max: Constant::new(Bits::<U_W>::mask()),
            one: Constant::new(true),
            half_y: Constant::new(64.into()),
            ext_lz: Default::default(),
            y_frac_unused: Default::default(),
        }
    }
}

impl Logic for HopLoad {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, r1_valid, r1_tau, r1_lz, r1_code, r1_qmin, r2_kq_sh, r2_code, r3_uq,
            r3_code, r4_code, r5_code, r6_code, r6_y18, r8_kh, r9_a, r9_kh, r10_p, r11_s, r12_utx,
            r13_u
        );
        for i in 0..12 {
            self.v[i].clock.next = self.clock.val();
        }
        self.recip.clock.next = self.clock.val();
        self.mul_q.clock.next = self.clock.val();
        self.mul_kv.clock.next = self.clock.val();
        self.mul_lo.clock.next = self.clock.val();
        self.mul_hi.clock.next = self.clock.val();
        self.mul_q.en.next = self.one.val();
        self.mul_kv.en.next = self.one.val();
        self.mul_lo.en.next = self.one.val();
        self.mul_hi.en.next = self.one.val();
        self.sh_line.clock.next = self.clock.val();
        self.sh_line.en.next = self.one.val();
        self.dtx_line.clock.next = self.clock.val();
        self.dtx_line.en.next = self.one.val();
        self.uq_line.clock.next = self.clock.val();
        self.uq_line.en.next = self.one.val();
        // Register 1: the leading zeros of tau (the highest set bit is assigned last).
        self.lz.next = 0.into();
        for i in 0..TAU_W {
            if self.tau.val().get_bit(i) {
                self.lz.next = self.lz_c[23 - i].val();
            }
        }
        self.r1_valid.d.next = self.valid.val() & self.tau.val().any();
        self.r1_tau.d.next = self.tau.val();
        self.r1_lz.d.next = self.lz.val();
        self.r1_code.d.next = self.code.val();
        self.r1_qmin.d.next = self.qmin.val();
        self.dtx_line.d.next = self.dtx.val();
        // Register 2: the mantissa, the tx shift, the queue product; the code's constants.
        self.sel_kq_m.next = 0.into();
        self.sel_ktx_sh.next = 0.into();
        self.sel_kq_sh.next = 0.into();
        if self.r1_code.q.val() == self.code_c[0].val() {
            self.sel_kq_m.next = self.k.val().kq_m0;
            self.sel_ktx_sh.next = self.k.val().ktx_sh0;
            self.sel_kq_sh.next = self.k.val().kq_sh0;
        }
        if self.r1_code.q.val() == self.code_c[1].val() {
            self.sel_kq_m.next = self.k.val().kq_m1;
            self.sel_ktx_sh.next = self.k.val().ktx_sh1;
            self.sel_kq_sh.next = self.k.val().kq_sh1;
        }
        if self.r1_code.q.val() == self.code_c[2].val() {
            self.sel_kq_m.next = self.k.val().kq_m2;
            self.sel_ktx_sh.next = self.k.val().ktx_sh2;
            self.sel_kq_sh.next = self.k.val().kq_sh2;
        }
        if self.r1_code.q.val() == self.code_c[3].val() {
            self.sel_kq_m.next = self.k.val().kq_m3;
            self.sel_ktx_sh.next = self.k.val().ktx_sh3;
            self.sel_kq_sh.next = self.k.val().kq_sh3;
        }
        if self.r1_code.q.val() == self.code_c[4].val() {
            self.sel_kq_m.next = self.k.val().kq_m4;
            self.sel_ktx_sh.next = self.k.val().ktx_sh4;
            self.sel_kq_sh.next = self.k.val().kq_sh4;
        }
        if self.r1_code.q.val() == self.code_c[5].val() {
            self.sel_kq_m.next = self.k.val().kq_m5;
            self.sel_ktx_sh.next = self.k.val().ktx_sh5;
            self.sel_kq_sh.next = self.k.val().kq_sh5;
        }
        if self.r1_code.q.val() == self.code_c[6].val() {
            self.sel_kq_m.next = self.k.val().kq_m6;
            self.sel_ktx_sh.next = self.k.val().ktx_sh6;
            self.sel_kq_sh.next = self.k.val().kq_sh6;
        }
        if self.r1_code.q.val() == self.code_c[7].val() {
            self.sel_kq_m.next = self.k.val().kq_m7;
            self.sel_ktx_sh.next = self.k.val().ktx_sh7;
            self.sel_kq_sh.next = self.k.val().kq_sh7;
        }
        self.recip.m.next = self.r1_tau.q.val() << self.r1_lz.q.val();
        self.ext_lz.i.next = self.r1_lz.q.val();
        self.sh_line.d.next = self.sel_ktx_sh.val() - self.ext_lz.o.val();
        self.r2_kq_sh.d.next = self.sel_kq_sh.val();
        self.r2_code.d.next = self.r1_code.q.val();
        self.mul_q.a.next = self.sel_kq_m.val();
        self.mul_q.b.next = self.r1_qmin.q.val();
        // Register 3: u_q, shifted and saturated; the reciprocal starts.
        self.ext_q.i.next = self.mul_q.p.val();
        self.q_sh.next = (self.ext_q.o.val() << 9) >> self.r2_kq_sh.q.val();
        self.r3_uq.d.next = self.q_sh.val().get_bits::<U_W>(0);
        if self.q_sh.val().get_bits::<4>(40).any() {
            self.r3_uq.d.next = self.u_max.val();
        }
        self.uq_line.d.next = self.r3_uq.q.val();
        self.r3_code.d.next = self.r2_code.q.val();
        self.r4_code.d.next = self.r3_code.q.val();
        self.r5_code.d.next = self.r4_code.q.val();
        self.r6_code.d.next = self.r5_code.q.val();
        // Register 6: y rounded to 18 bits.
        self.y_round.next = self.recip.y.val() + self.half_y.val();
        self.r6_y18.d.next = self.y_round.val().get_bits::<KM_W>(7);
        self.y_frac_unused.next = self.y_round.val().get_bits::<7>(0);
        // Register 7: ktx_m * y18.
        self.sel_ktx_m.next = 0.into();
        if self.r6_code.q.val() == self.code_c[0].val() {
            self.sel_ktx_m.next = self.k.val().ktx_m0;
        }
        if self.r6_code.q.val() == self.code_c[1].val() {
            self.sel_ktx_m.next = self.k.val().ktx_m1;
        }
        if self.r6_code.q.val() == self.code_c[2].val() {
            self.sel_ktx_m.next = self.k.val().ktx_m2;
        }
        if self.r6_code.q.val() == self.code_c[3].val() {
            self.sel_ktx_m.next = self.k.val().ktx_m3;
        }
        if self.r6_code.q.val() == self.code_c[4].val() {
            self.sel_ktx_m.next = self.k.val().ktx_m4;
        }
        if self.r6_code.q.val() == self.code_c[5].val() {
            self.sel_ktx_m.next = self.k.val().ktx_m5;
        }
        if self.r6_code.q.val() == self.code_c[6].val() {
            self.sel_ktx_m.next = self.k.val().ktx_m6;
        }
        if self.r6_code.q.val() == self.code_c[7].val() {
            self.sel_ktx_m.next = self.k.val().ktx_m7;
        }
        self.mul_kv.a.next = self.sel_ktx_m.val();
        self.mul_kv.b.next = self.r6_y18.q.val();
        // Register 8: kv times dtx's low 18 bits (two DSPs) and its high 2 bits (adds).
        self.mul_lo.a.next = self.mul_kv.p.val().get_bits::<18>(0);
        self.mul_lo.b.next = self.dtx_line.q.val().get_bits::<18>(0);
        self.mul_hi.a.next = self.mul_kv.p.val().get_bits::<18>(18);
        self.mul_hi.b.next = self.dtx_line.q.val().get_bits::<18>(0);
        self.ext_kv.i.next = self.mul_kv.p.val();
        self.kh.next = 0.into();
        if self.dtx_line.q.val().get_bit(18) {
            self.kh.next = self.ext_kv.o.val();
        }
        if self.dtx_line.q.val().get_bit(19) {
            self.kh.next = self.kh.val() + (self.ext_kv.o.val() << 1);
        }
        self.r8_kh.d.next = self.kh.val();
        // Registers 9 and 10: the partial products added.
        self.ext_lo.i.next = self.mul_lo.p.val();
        self.ext_hi.i.next = self.mul_hi.p.val();
        self.r9_a.d.next = self.ext_lo.o.val() + (self.ext_hi.o.val() << 18);
        self.r9_kh.d.next = self.r8_kh.q.val();
        self.ext_a.i.next = self.r9_a.q.val();
        self.ext_kh.i.next = self.r9_kh.q.val();
        self.r10_p.d.next = self.ext_a.o.val() + (self.ext_kh.o.val() << 18);
        // Registers 11 and 12: the product at its weight, saturated.
        self.ext_p.i.next = self.r10_p.q.val();
        self.r11_s.d.next = (self.ext_p.o.val() << 2) >> self.sh_line.q.val();
        self.r12_utx.d.next = self.r11_s.q.val().get_bits::<U_W>(0);
        if self.r11_s.q.val().get_bits::<18>(40).any() {
            self.r12_utx.d.next = self.u_max.val();
        }
        // Register 13: u_tx + u_q, saturated.
        self.ext_utx.i.next = self.r12_utx.q.val();
        self.ext_uq.i.next = self.uq_line.q.val();
        self.sum.next = self.ext_utx.o.val() + self.ext_uq.o.val();
        self.r13_u.d.next = self.sum.val().get_bits::<U_W>(0);
        if self.sum.val().get_bit(40) {
            self.r13_u.d.next = self.u_max.val();
        }
        self.u.next = self.r13_u.q.val();
        // valid beside the registers.
        self.v[0].d.next = self.r1_valid.q.val();
        for i in 1..12 {
            self.v[i].d.next = self.v[i - 1].q.val();
        }
        self.u_valid.next = self.v[11].q.val();
    }
}

#[cfg(test)]
mod tests {
    use super::super::recip::recip_table;
    use super::*;

    /// A small deterministic generator (the hdl crate has no random-number dependency).
    struct Lcg(u64);
    impl Lcg {
        fn next(&mut self, bits: u32) -> u64 {
            self.0 = self
                .0
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (self.0 >> 11) & ((1u64 << bits) - 1)
        }
    }

    /// The statement `HopLoad` implements, written out.
    fn statement(k: &Consts, code: usize, tau: u32, dtx: u32, qmin: u32) -> u64 {
        let u_max = (1u64 << U_W) - 1;
        let lz = tau.leading_zeros() - 8;
        let m = tau << lz;
        let i = (m >> 13) & 1023;
        let f = m & 8191;
        let t0 = recip_table(i);
        let y = t0 - (((t0 - recip_table(i + 1)) as u64 * f as u64) >> 13) as u32;
        let y18 = ((y + 64) >> 7) as u128;
        let p = k.ktx_m[code] as u128 * y18 * dtx as u128;
        let u_tx = ((p << 2) >> (k.ktx_sh[code] - lz)).min(u_max as u128) as u64;
        let q = (k.kq_m[code] as u128 * qmin as u128) << 9;
        let u_q = (q >> k.kq_sh[code]).min(u_max as u128) as u64;
        (u_tx + u_q).min(u_max)
    }

    struct Consts {
        ktx_m: [u64; CODES],
        ktx_sh: [u32; CODES],
        kq_m: [u64; CODES],
        kq_sh: [u32; CODES],
    }

    #[test]
    fn model_gives_the_statement_thirteen_edges_later() {
        let mut g = Lcg(7);
        let k = Consts {
            ktx_m: std::array::from_fn(|_| (1 << 17) | g.next(17)),
            ktx_sh: std::array::from_fn(|c| 23 + (c as u32 * 5) % 13),
            kq_m: std::array::from_fn(|_| (1 << 17) | g.next(17)),
            kq_sh: std::array::from_fn(|c| (c as u32 * 7) % 24),
        };
        let mut h = HopLoad::default();
        h.k.next = CodeConsts {
            ktx_m0: (k.ktx_m[0]).into(),
            ktx_m1: (k.ktx_m[1]).into(),
            ktx_m2: (k.ktx_m[2]).into(),
            ktx_m3: (k.ktx_m[3]).into(),
            ktx_m4: (k.ktx_m[4]).into(),
            ktx_m5: (k.ktx_m[5]).into(),
            ktx_m6: (k.ktx_m[6]).into(),
            ktx_m7: (k.ktx_m[7]).into(),
            ktx_sh0: (k.ktx_sh[0] as u64).into(),
            ktx_sh1: (k.ktx_sh[1] as u64).into(),
            ktx_sh2: (k.ktx_sh[2] as u64).into(),
            ktx_sh3: (k.ktx_sh[3] as u64).into(),
            ktx_sh4: (k.ktx_sh[4] as u64).into(),
            ktx_sh5: (k.ktx_sh[5] as u64).into(),
            ktx_sh6: (k.ktx_sh[6] as u64).into(),
            ktx_sh7: (k.ktx_sh[7] as u64).into(),
            kq_m0: (k.kq_m[0]).into(),
            kq_m1: (k.kq_m[1]).into(),
            kq_m2: (k.kq_m[2]).into(),
            kq_m3: (k.kq_m[3]).into(),
            kq_m4: (k.kq_m[4]).into(),
            kq_m5: (k.kq_m[5]).into(),
            kq_m6: (k.kq_m[6]).into(),
            kq_m7: (k.kq_m[7]).into(),
            kq_sh0: (k.kq_sh[0] as u64).into(),
            kq_sh1: (k.kq_sh[1] as u64).into(),
            kq_sh2: (k.kq_sh[2] as u64).into(),
            kq_sh3: (k.kq_sh[3] as u64).into(),
            kq_sh4: (k.kq_sh[4] as u64).into(),
            kq_sh5: (k.kq_sh[5] as u64).into(),
            kq_sh6: (k.kq_sh[6] as u64).into(),
            kq_sh7: (k.kq_sh[7] as u64).into(),
        };
        h.connect_all();
        // Inputs: every code, tau from 0 (not valid) over every leading-zero count, the
        // deltas small and at their tops (saturation).
        let inputs: Vec<(bool, usize, u32, u32, u32)> = (0..400)
            .map(|n| {
                let tau_bits = 1 + (n % 24) as u32;
                let tau = if n % 37 == 0 {
                    0
                } else {
                    g.next(tau_bits) as u32 | 1 << (tau_bits - 1)
                };
                let dtx = if n % 11 == 0 {
                    (1 << DTX_W) - 1
                } else {
                    g.next(DTX_W as u32) as u32
                };
                let qmin = if n % 13 == 0 {
                    (1 << QLEN_W) - 1
                } else {
                    g.next(QLEN_W as u32) as u32
                };
                (n % 5 != 4, (n % 8) as usize, tau, dtx, qmin)
            })
            .collect();
        let mut out = Vec::new();
        for n in 0..inputs.len() + HOP_STAGES {
            let (valid, code, tau, dtx, qmin) = inputs[n.min(inputs.len() - 1)];
            h.valid.next = valid;
            h.code.next = (code as u64).into();
            h.tau.next = (tau as u64).into();
            h.dtx.next = (dtx as u64).into();
            h.qmin.next = (qmin as u64).into();
            h.clock.next = Clock { clk: false };
            assert!(simulate(&mut h, 50));
            h.clock.next = Clock { clk: true };
            assert!(simulate(&mut h, 50));
            out.push((h.u_valid.val(), h.u.val().to_u64()));
        }
        let mut saturated = 0;
        for (n, &(valid, code, tau, dtx, qmin)) in inputs.iter().enumerate() {
            let (v, u) = out[n + HOP_STAGES - 1];
            assert_eq!(v, valid && tau > 0, "input {n}");
            if v {
                let want = statement(&k, code, tau, dtx, qmin);
                assert_eq!(
                    u, want,
                    "input {n}: code {code} tau {tau} dtx {dtx} qmin {qmin}"
                );
                saturated += (want == (1u64 << U_W) - 1) as u32;
            }
        }
        assert!(
            saturated > 0 && saturated < 200,
            "saturated {saturated} of 400"
        );
    }
}
