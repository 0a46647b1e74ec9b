//! `Weight`: the EWMA weight `w = tau / T` of the kept hop as an 18-bit mantissa and a right
//! shift, `w ~ wm * 2^-ws`, and whether `tau >= T` (then `U := u`), pipelined:
//! [`WEIGHT_STAGES`] = 5 registers from `tau` to the outputs. The golden statement is
//! `roce_cc_sim::hpcc_window::HpccWindow::weight`: `x = tau * inv_m` rounded to 18 bits
//! (half up; a carry out of the rounding renormalises), where `1/T ~ inv_m * 2^inv_e`
//! comes from the configuration compiler.
//!
//! The weight is used only when `0 < tau < T`, and `T <= 10^6 < 2^20`, so the multiply
//! reads `tau`'s low 20 bits: `x = tau * inv_m < 2^38`, and `x >= 2^17` (`tau >= 1`,
//! `inv_m >= 2^17`). With `lz` the leading zeros of `x` in 38 bits, `x << lz` has its
//! leading one at bit 37; its top 19 bits plus one, halved, are the rounded mantissa `m'`
//! (for `x < 2^18` that is `x` itself, as the golden `norm` has it). Then
//! `wm = m'` (or `2^17` when the rounding carried into bit 18) and
//! `ws = ws_base - 37 + lz - carry`, with `ws_base = 17 - inv_e` from the configuration.
//!
//! | register | holds | logic before it |
//! |---|---|---|
//! | 1 | `tau[17:0] * inv_m` (DSP), `tau[19:18]`, `tau >= T` | a 24-bit compare |
//! | 2 | `x` (38 bits) | `inv_m` times two bits (adds), a 38-bit add |
//! | 3 | `x`, `lz` | a 38-bit leading-one search |
//! | 4 | the top 19 bits of `x << lz`, `lz` | a 38-bit shift |
//! | 5 | `wm`, `ws`, `tau >= T` | a 20-bit increment, a 7-bit add and subtract |

use crate::dsp_mul::DspMul;
use crate::zero_ext::ZeroExt;
use rust_hdl::prelude::*;

/// Registers from `tau` to `wm`, `ws`, `big`.
pub const WEIGHT_STAGES: usize = 5;
/// Width of `x = tau * inv_m`.
pub const X_W: usize = 38;
/// Width of a weight's mantissa.
pub const WM_W: usize = 18;
/// Width of a weight's shift (18..=38 where it is used).
pub const WS_W: usize = 6;
/// Width of `T`, ns (`T <= 10^6`).
pub const T_W: usize = 20;

/// `wm`, `ws` and `tau >= T` for the `tau` of [`WEIGHT_STAGES`] edges ago.
#[derive(LogicBlock)]
pub struct Weight {
    /// Clock of the registers.
    pub clock: Signal<In, Clock>,
    /// The kept hop's `tau`, ns (`> 0`).
    pub tau: Signal<In, Bits<24>>,
    /// `T`, ns.
    pub t_ns: Signal<In, Bits<T_W>>,
    /// The mantissa of `1/T` (`2^17 <= inv_m < 2^18`).
    pub inv_m: Signal<In, Bits<WM_W>>,
    /// `17 - inv_e`, where `1/T ~ inv_m * 2^inv_e` (44..=54 for `T` in 1000..=10^6). Like
    /// `t_ns` and `inv_m` a configuration value, static while events are in flight (it is
    /// read at register 5, the others at register 1).
    pub ws_base: Signal<In, Bits<WS_W>>,
    /// The weight's mantissa (`2^17 <= wm < 2^18`; meaningful when `!big`).
    pub wm: Signal<Out, Bits<WM_W>>,
    /// The weight's right shift (meaningful when `!big`).
    pub ws: Signal<Out, Bits<WS_W>>,
    /// `tau >= T`: the EWMA takes `u` whole.
    pub big: Signal<Out, Bit>,
    r1_th: DFF<Bits<2>>,
    r1_m: DFF<Bits<WM_W>>,
    r1_big: DFF<Bit>,
    mul: DspMul<18, WM_W, 36>,
    ext_t: ZeroExt<T_W, 24>,
    /// `inv_m * tau[19:18]` (20 bits) and the sum, at register 2.
    ext_m: ZeroExt<WM_W, 20>,
    hi: Signal<Local, Bits<20>>,
    ext_hi: ZeroExt<20, X_W>,
    ext_lo: ZeroExt<36, X_W>,
    r2_x: DFF<Bits<X_W>>,
    r2_big: DFF<Bit>,
    lz: Signal<Local, Bits<WS_W>>,
    lz_c: [Constant<Bits<WS_W>>; X_W],
    r3_x: DFF<Bits<X_W>>,
    r3_lz: DFF<Bits<WS_W>>,
    r3_big: DFF<Bit>,
    al: Signal<Local, Bits<X_W>>,
    r4_top: DFF<Bits<19>>,
    r4_lz: DFF<Bits<WS_W>>,
    r4_big: DFF<Bit>,
    /// The bits below the top 19 of `x << lz`: read by no one.
    al_low_unused: Signal<Local, Bits<19>>,
    ext_top: ZeroExt<19, 20>,
    rounded: Signal<Local, Bits<20>>,
    /// `ws_base + lz` and `37 + carry` in 7 bits.
    ext_base: ZeroExt<WS_W, 7>,
    ext_lz: ZeroExt<WS_W, 7>,
    ws_sum: Signal<Local, Bits<7>>,
    ws_full: Signal<Local, Bits<7>>,
    /// The dropped bit of the rounding and `ws`'s bit 6 (zero where `ws` is used).
    round_unused: Signal<Local, Bit>,
    ws_top_unused: Signal<Local, Bit>,
    r5_wm: DFF<Bits<WM_W>>,
    r5_ws: DFF<Bits<WS_W>>,
    r5_big: DFF<Bit>,
    one: Constant<Bit>,
    one20: Constant<Bits<20>>,
    c37: Constant<Bits<7>>,
    c38: Constant<Bits<7>>,
    wm_carry: Constant<Bits<WM_W>>,
}

impl Default for Weight {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            tau: Default::default(),
            t_ns: Default::default(),
            inv_m: Default::default(),
            ws_base: Default::default(),
            wm: Default::default(),
            ws: Default::default(),
            big: Default::default(),
            r1_th: Default::default(),
            r1_m: Default::default(),
            r1_big: Default::default(),
            mul: DspMul::new(),
            ext_t: Default::default(),
            ext_m: Default::default(),
            hi: Default::default(),
            ext_hi: Default::default(),
            ext_lo: Default::default(),
            r2_x: Default::default(),
            r2_big: Default::default(),
            lz: Default::default(),
            lz_c: std::array::from_fn(|c| Constant::new((c as u64).into())),
            r3_x: Default::default(),
            r3_lz: Default::default(),
            r3_big: Default::default(),
            al: Default::default(),
            r4_top: Default::default(),
            r4_lz: Default::default(),
            r4_big: Default::default(),
            al_low_unused: Default::default(),
            ext_top: Default::default(),
            rounded: Default::default(),
            ext_base: Default::default(),
            ext_lz: Default::default(),
            ws_sum: Default::default(),
            ws_full: Default::default(),
            round_unused: Default::default(),
            ws_top_unused: Default::default(),
            r5_wm: Default::default(),
            r5_ws: Default::default(),
            r5_big: Default::default(),
            one: Constant::new(true),
            one20: Constant::new(1.into()),
            c37: Constant::new(37.into()),
            c38: Constant::new(38.into()),
            wm_carry: Constant::new((1u64 << 17).into()),
        }
    }
}

impl Logic for Weight {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, r1_th, r1_m, r1_big, r2_x, r2_big, r3_x, r3_lz, r3_big, r4_top, r4_lz,
            r4_big, r5_wm, r5_ws, r5_big
        );
        self.mul.clock.next = self.clock.val();
        self.mul.en.next = self.one.val();
        // Register 1: the low product in the DSP; tau's bits 19:18 and the compare beside it.
        self.mul.a.next = self.tau.val().get_bits::<18>(0);
        self.mul.b.next = self.inv_m.val();
        self.r1_th.d.next = self.tau.val().get_bits::<2>(18);
        self.r1_m.d.next = self.inv_m.val();
        self.ext_t.i.next = self.t_ns.val();
        self.r1_big.d.next = !(self.tau.val() < self.ext_t.o.val());
        // Register 2: x = low product + (inv_m * tau[19:18]) << 18.
        self.ext_m.i.next = self.r1_m.q.val();
        self.hi.next = 0.into();
        if self.r1_th.q.val().get_bit(0) {
            self.hi.next = self.ext_m.o.val();
        }
        if self.r1_th.q.val().get_bit(1) {
            self.hi.next = self.hi.val() + (self.ext_m.o.val() << 1);
        }
        self.ext_lo.i.next = self.mul.p.val();
        self.ext_hi.i.next = self.hi.val();
        self.r2_x.d.next = self.ext_lo.o.val() + (self.ext_hi.o.val() << 18);
        self.r2_big.d.next = self.r1_big.q.val();
        // Register 3: the leading zeros of x (the highest set bit is assigned last).
        self.lz.next = 0.into();
        for i in 0..X_W {
            if self.r2_x.q.val().get_bit(i) {
                self.lz.next = self.lz_c[37 - i].val();
            }
        }
        self.r3_x.d.next = self.r2_x.q.val();
        self.r3_lz.d.next = self.lz.val();
        self.r3_big.d.next = self.r2_big.q.val();
        // Register 4: the top 19 bits of x aligned to bit 37.
        self.al.next = self.r3_x.q.val() << self.r3_lz.q.val();
        self.r4_top.d.next = self.al.val().get_bits::<19>(19);
        self.al_low_unused.next = self.al.val().get_bits::<19>(0);
        self.r4_lz.d.next = self.r3_lz.q.val();
        self.r4_big.d.next = self.r3_big.q.val();
        // Register 5: rounded half up; a carry renormalises (wm = 2^17, one less shift).
        self.ext_top.i.next = self.r4_top.q.val();
        self.rounded.next = self.ext_top.o.val() + self.one20.val();
        self.round_unused.next = self.rounded.val().get_bit(0);
        self.ext_base.i.next = self.ws_base.val();
        self.ext_lz.i.next = self.r4_lz.q.val();
        self.ws_sum.next = self.ext_base.o.val() + self.ext_lz.o.val();
        self.r5_wm.d.next = self.rounded.val().get_bits::<WM_W>(1);
        self.ws_full.next = self.ws_sum.val() - self.c37.val();
        if self.rounded.val().get_bit(19) {
            self.r5_wm.d.next = self.wm_carry.val();
            self.ws_full.next = self.ws_sum.val() - self.c38.val();
        }
        self.r5_ws.d.next = self.ws_full.val().get_bits::<WS_W>(0);
        self.ws_top_unused.next = self.ws_full.val().get_bit(6);
        self.r5_big.d.next = self.r4_big.q.val();
        self.wm.next = self.r5_wm.q.val();
        self.ws.next = self.r5_ws.q.val();
        self.big.next = self.r5_big.q.val();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The golden model's `norm(tau * inv_m, inv_e)`, written out: `(m, -e)`.
    fn statement(tau: u64, inv_m: u64, inv_e: i32) -> (u64, i64) {
        let x = tau * inv_m;
        let p = 63 - x.leading_zeros() as i32;
        if p <= 17 {
            return (x << (17 - p), -(inv_e as i64 - (17 - p) as i64));
        }
        let mut m = ((x >> (p - 18)) + 1) >> 1;
        let mut e = inv_e + (p - 17);
        if m == 1 << 18 {
            m = 1 << 17;
            e += 1;
        }
        (m, -(e as i64))
    }

    #[test]
    fn model_gives_the_statement_five_edges_later() {
        // T from 1000 to 10^6 ns; 1/T's mantissa and exponent as the compiler rounds them.
        let ts = [1000u64, 8000, 8191, 65_536, 333_333, 1_000_000];
        let (mut used, mut carried) = (0, 0);
        for &t in &ts {
            let inv = 1.0 / t as f64;
            let inv_e = inv.log2().floor() as i32 - 17;
            let inv_m = (inv * 2f64.powi(-inv_e)).round() as u64;
            let (inv_m, inv_e) = if inv_m == 1 << 18 {
                (1 << 17, inv_e + 1)
            } else {
                (inv_m, inv_e)
            };
            assert!((1 << 17..1 << 18).contains(&inv_m));
            let mut cases = Vec::new();
            let mut tau = 1u64;
            while tau < 1 << 24 {
                cases.push(tau);
                cases.push((tau * 3 + 1) & 0xff_ffff);
                // All ones below the top: the rounding carries.
                cases.push((tau << 1) - 1);
                tau = tau * 2 + (tau & 5);
            }
            cases.push(t - 1);
            cases.push(t);
            // The configuration is static while the unit runs, as in the window unit.
            let mut w = Weight::default();
            w.connect_all();
            w.t_ns.next = t.into();
            w.inv_m.next = inv_m.into();
            w.ws_base.next = ((17 - inv_e) as u64).into();
            let mut out = Vec::new();
            for n in 0..cases.len() + WEIGHT_STAGES {
                w.tau.next = (cases[n.min(cases.len() - 1)] & 0xff_ffff).into();
                w.clock.next = Clock { clk: false };
                assert!(simulate(&mut w, 50));
                w.clock.next = Clock { clk: true };
                assert!(simulate(&mut w, 50));
                out.push((w.wm.val().to_u64(), w.ws.val().to_u64(), w.big.val()));
            }
            for (n, &tau) in cases.iter().enumerate() {
                let tau = tau & 0xff_ffff;
                let (wm, ws, big) = out[n + WEIGHT_STAGES - 1];
                assert_eq!(big, tau >= t, "case {n}: tau {tau}, T {t}");
                if tau == 0 || tau >= t {
                    continue;
                }
                let (m, s) = statement(tau, inv_m, inv_e);
                assert_eq!((wm, ws as i64), (m, s), "case {n}: tau {tau}, T {t}");
                used += 1;
                let x = tau * inv_m;
                let p = 63 - x.leading_zeros();
                carried += (p >= 18 && x >> (p - 18) == (1 << 19) - 1) as u32;
            }
        }
        assert!(
            used > 50 && carried > 0,
            "{used} weights checked, {carried} with a carry"
        );
    }
}
