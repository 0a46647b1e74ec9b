//! `PacerCpb`: a rate (Mb/s Q.8, the core's `rc`) to cycles per byte, `m * 2^-e` with an
//! 18-bit normalised mantissa, pipelined: [`CPB_STAGES`] = 8 registers. The golden
//! statement is `roce_cc_sim::pacer::cpb_of_rate`:
//!
//! `r = max(rate, 256)` (rates below 1 Mb/s are paced at 1 Mb/s), `p` the position of
//! its leading one, `m24 = r` shifted so that its leading one is bit 23 (low bits
//! dropped), `y18 = (recip(m24) + 64) >> 7 ~ 2^40 / m24`, `P = km * y18` with the clock
//! `clock_mhz = km * 2^(ke - 17)`; then `8 * clock_mhz / rate = P * 2^(ke - 23 - p)`, so
//! `m` is `P`'s top 18 bits and `e = 6 + p - ke` (`P >= 2^34`) or `7 + p - ke`.
//!
//! | register | holds | logic before it |
//! |---|---|---|
//! | 1 | `r`, `p` | a 20-bit OR (the clamp), a 28-bit leading-one search |
//! | 2-5 | `recip(m24)` (`Recip`; register 2 is its table's address) | a 28-bit shift |
//! | 6 | `y18` | a 25-bit add |
//! | 7 | `P = km * y18` (`DspMul`, the DSP's output register) | none |
//! | 8 | `m`, `e` | an 18-bit 2:1 mux, a 6-bit add |
//!
//! The registers load at every edge; `p` waits beside the reciprocal in registers.

use crate::dsp_mul::DspMul;
use crate::hpcc_window::recip::{RECIP_STAGES, RECIP_W, Recip};
use crate::zero_ext::ZeroExt;
use rust_hdl::prelude::*;

/// Registers from `rate` to `m`, `e`.
pub const CPB_STAGES: usize = 8;
/// Width of a rate, Mb/s Q.8.
pub const RATE_W: usize = 28;
/// Width of a cycles-per-byte mantissa (`2^17 <= m < 2^18`).
pub const CPB_M_W: usize = 18;
/// Width of a cycles-per-byte exponent (`e <= 34`).
pub const CPB_E_W: usize = 6;
/// Width of the clock's exponent `ke` (`0..=9`).
pub const KE_W: usize = 4;
/// Width of a leading-one position in a rate (`8..=27`).
const P_W: usize = 5;

const _: () = assert!(RECIP_STAGES == 4 && RECIP_W == 25 && RATE_W == 28);

/// Cycles per byte `m * 2^-e`.
#[derive(Clone, Copy, Debug, Default, PartialEq, LogicStruct)]
pub struct CpbWord {
    /// Mantissa, `2^17 <= m < 2^18`.
    pub m: Bits<CPB_M_W>,
    /// Exponent.
    pub e: Bits<CPB_E_W>,
}

/// `cpb_of_rate(rate)` for the `rate` of [`CPB_STAGES`] edges ago.
#[derive(LogicBlock)]
pub struct PacerCpb {
    /// Clock of the registers.
    pub clock: Signal<In, Clock>,
    /// The rate, Mb/s Q.8.
    pub rate: Signal<In, Bits<RATE_W>>,
    /// The clock's mantissa `km` (`clock_mhz << (17 - ke)`, `2^17 <= km < 2^18`); static.
    pub km: Signal<In, Bits<CPB_M_W>>,
    /// The clock's exponent `ke` (the position of `clock_mhz`'s leading one); static.
    pub ke: Signal<In, Bits<KE_W>>,
    /// Cycles per byte at the rate of eight edges ago.
    pub cpb: Signal<Out, CpbWord>,
    r1_r: DFF<Bits<RATE_W>>,
    /// `p`, for registers 1 to 7.
    p_d: [DFF<Bits<P_W>>; 7],
    recip: Recip,
    r6_y18: DFF<Bits<CPB_M_W>>,
    mul: DspMul<CPB_M_W, CPB_M_W, { 2 * CPB_M_W }>,
    r8: DFF<CpbWord>,
    /// The rate clamped to 256.
    r: Signal<Local, Bits<RATE_W>>,
    /// The leading one's position (the highest set bit is assigned last).
    p: Signal<Local, Bits<P_W>>,
    p_c: [Constant<Bits<P_W>>; RATE_W],
    /// `r << (27 - p)`: the leading one at bit 27.
    al: Signal<Local, Bits<RATE_W>>,
    /// The bits below the 24 the reciprocal takes.
    al_low_unused: Signal<Local, Bits<4>>,
    c27: Constant<Bits<P_W>>,
    /// 256 (1 Mb/s Q.8).
    r_min: Constant<Bits<RATE_W>>,
    /// `recip + 64`.
    y_ext: ZeroExt<RECIP_W, 26>,
    y_sum: Signal<Local, Bits<26>>,
    c64: Constant<Bits<26>>,
    y_low_unused: Signal<Local, Bits<7>>,
    y_top_unused: Signal<Local, Bit>,
    /// `p - ke` and the exponent.
    p_ext: ZeroExt<P_W, CPB_E_W>,
    ke_ext: ZeroExt<KE_W, CPB_E_W>,
    c6: Constant<Bits<CPB_E_W>>,
    c7: Constant<Bits<CPB_E_W>>,
    /// The product's bits no mantissa takes.
    p_low_unused: Signal<Local, Bits<16>>,
    p_top_unused: Signal<Local, Bit>,
    one: Constant<Bit>,
}

impl Default for PacerCpb {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            rate: Default::default(),
            km: Default::default(),
            ke: Default::default(),
            cpb: Default::default(),
            r1_r: Default::default(),
            p_d: Default::default(),
            recip: Default::default(),
            r6_y18: Default::default(),
            mul: DspMul::new(),
            r8: Default::default(),
            r: Default::default(),
            p: Default::default(),
            p_c: std::array::from_fn(|c| Constant::new((c as u64).into())),
            al: Default::default(),
            al_low_unused: Default::default(),
            c27: Constant::new(27.into()),
            r_min: Constant::new(256.into()),
            y_ext: Default::default(),
            y_sum: Default::default(),
            c64: Constant::new(64.into()),
            y_low_unused: Default::default(),
            y_top_unused: Default::default(),
            p_ext: Default::default(),
            ke_ext: Default::default(),
            c6: Constant::new(6.into()),
            c7: Constant::new(7.into()),
            p_low_unused: Default::default(),
            p_top_unused: Default::default(),
            one: Constant::new(true),
        }
    }
}

impl Logic for PacerCpb {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, r1_r, r6_y18, r8);
        for i in 0..7 {
            self.p_d[i].clock.next = self.clock.val();
        }
        self.recip.clock.next = self.clock.val();
        self.mul.clock.next = self.clock.val();
        self.mul.en.next = self.one.val();
        // Register 1: the clamped rate and its leading one.
        self.r.next = self.rate.val();
        if self.rate.val() < self.r_min.val() {
            self.r.next = self.r_min.val();
        }
        self.p.next = 0.into();
        for i in 0..RATE_W {
            if self.r.val().get_bit(i) {
                self.p.next = self.p_c[i].val();
            }
        }
        self.r1_r.d.next = self.r.val();
        self.p_d[0].d.next = self.p.val();
        for i in 1..7 {
            self.p_d[i].d.next = self.p_d[i - 1].q.val();
        }
        // Registers 2 to 5: the reciprocal of the 24-bit mantissa.
        self.al.next = self.r1_r.q.val() << (self.c27.val() - self.p_d[0].q.val());
        self.recip.m.next = self.al.val().get_bits::<24>(4);
        self.al_low_unused.next = self.al.val().get_bits::<4>(0);
        // Register 6: y18 = (y + 64) >> 7.
        self.y_ext.i.next = self.recip.y.val();
        self.y_sum.next = self.y_ext.o.val() + self.c64.val();
        self.r6_y18.d.next = self.y_sum.val().get_bits::<CPB_M_W>(7);
        self.y_low_unused.next = self.y_sum.val().get_bits::<7>(0);
        self.y_top_unused.next = self.y_sum.val().get_bit(25);
        // Register 7: P = km * y18 in the DSP.
        self.mul.a.next = self.km.val();
        self.mul.b.next = self.r6_y18.q.val();
        // Register 8: the mantissa and the exponent.
        self.p_ext.i.next = self.p_d[6].q.val();
        self.ke_ext.i.next = self.ke.val();
        self.p_low_unused.next = self.mul.p.val().get_bits::<16>(0);
        self.p_top_unused.next = self.mul.p.val().get_bit(35);
        if self.mul.p.val().get_bit(34) {
            self.r8.d.next.m = self.mul.p.val().get_bits::<CPB_M_W>(17);
            self.r8.d.next.e = self.c6.val() + self.p_ext.o.val() - self.ke_ext.o.val();
        } else {
            self.r8.d.next.m = self.mul.p.val().get_bits::<CPB_M_W>(16);
            self.r8.d.next.e = self.c7.val() + self.p_ext.o.val() - self.ke_ext.o.val();
        }
        self.cpb.next = self.r8.q.val();
    }
}

/// The clock constants `(km, ke)` of `clock_mhz` (1..=1000): `ke` the position of its
/// leading one, `km = clock_mhz << (17 - ke)`.
pub fn clock_consts(clock_mhz: u32) -> (u32, u32) {
    assert!((1..=1000).contains(&clock_mhz), "clock {clock_mhz} MHz");
    let ke = 31 - clock_mhz.leading_zeros();
    (clock_mhz << (17 - ke), ke)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rust-hdl model against a plain statement of the arithmetic, eight edges later
    /// (the golden model's `cpb_of_rate` is checked three ways in `sim`).
    #[test]
    fn model_gives_the_mantissa_and_exponent_eight_edges_later() {
        use crate::hpcc_window::recip::recip_table;
        let statement = |rate: u64, clock: u32| -> (u64, u64) {
            let r = rate.max(256);
            let p = 63 - r.leading_zeros() as u64;
            let m24 = if p >= 23 {
                r >> (p - 23)
            } else {
                r << (23 - p)
            };
            let i = ((m24 >> 13) & 1023) as u32;
            let f = m24 & 8191;
            let t0 = recip_table(i) as u64;
            let y = t0 - (((t0 - recip_table(i + 1) as u64) * f) >> 13);
            let y18 = (y + 64) >> 7;
            let (km, ke) = clock_consts(clock);
            let prod = km as u64 * y18;
            if prod >> 34 != 0 {
                (prod >> 17, 6 + p - ke as u64)
            } else {
                (prod >> 16, 7 + p - ke as u64)
            }
        };
        let mut u = PacerCpb::default();
        u.connect_all();
        let clock = 250;
        let (km, ke) = clock_consts(clock);
        let rates: Vec<u64> = (0..60u64)
            .map(|k| (k.wrapping_mul(2_654_435_761) >> (k % 28)) & ((1 << 28) - 1))
            .chain([0, 1, 255, 256, 257, (1 << 28) - 1, 100_000 << 8])
            .collect();
        let mut out = Vec::new();
        for k in 0..rates.len() + CPB_STAGES {
            u.rate.next = rates[k.min(rates.len() - 1)].into();
            u.km.next = (km as u64).into();
            u.ke.next = (ke as u64).into();
            u.clock.next = Clock { clk: false };
            assert!(simulate(&mut u, 50));
            u.clock.next = Clock { clk: true };
            assert!(simulate(&mut u, 50));
            let c = u.cpb.val();
            out.push((c.m.to_u64(), c.e.to_u64()));
        }
        for (k, &rate) in rates.iter().enumerate() {
            assert_eq!(
                out[k + CPB_STAGES - 1],
                statement(rate, clock),
                "rate {rate}"
            );
        }
    }
}
