//! `EtaOverU`: from a QP's new load estimate U (Q.24, 40 bits), the factor `1/k = eta / U`
//! the multiplicative step applies to Rc, pipelined: [`ETA_STAGES`] = 7 registers. The
//! golden statement is `roce_cc_sim::hpcc_window::HpccWindow::rc_over_k`'s first half:
//!
//! `(m, p) = normalise24(U)` (the 24 bits from U's leading one down, `p` its position),
//! `ey = (eta * recip(m)) >> 3` (32 bits), so that `Rc / k = (Rc * ey) >> (p + 7)`, which
//! `RateStep` computes. Beside it: `U >= eta` (`k >= 1`, the multiplicative step) and
//! `U = 0` (then `Rc / k` is the max rate).
//!
//! | register | holds | logic before it |
//! |---|---|---|
//! | 1 | U, its leading zeros `lz`, `U >= eta * 2^14`, `U = 0` | a 40-bit leading-one search, a 40-bit compare |
//! | 2 | `m`, the top 24 bits of `U << lz` (`Recip`'s first register); the shift `p + 7 = 46 - lz` | a 40-bit shift |
//! | 3-5 | `recip(m)` (`Recip`'s registers 2 to 4) | |
//! | 6 | `eta * y[17:0]`, `eta * y[24:18]` (two DSPs) | none |
//! | 7 | `ey` | a 43-bit add |

use super::recip::{RECIP_STAGES, RECIP_W, Recip};
use crate::dsp_mul::DspMul;
use crate::zero_ext::ZeroExt;
use rust_hdl::prelude::*;

/// Registers from U to `ey`.
pub const ETA_STAGES: usize = 7;
/// Width of a load and of U (Q.24, 16 integer bits): one width for the whole window unit.
pub use super::u_ewma::U_W;
/// Width of eta (1/1024, `512..=1024`).
pub const ETA_W: usize = 11;
/// Width of `ey`.
pub const EY_W: usize = 32;
/// Width of the shift `p + 7` (7..=46).
pub const SH_W: usize = 6;

const _: () = assert!(RECIP_STAGES == 4 && RECIP_W == 25);

/// `ey`, the shift, `U >= eta`, `U = 0` for the U of [`ETA_STAGES`] edges ago.
#[derive(LogicBlock)]
pub struct EtaOverU {
    /// Clock of the registers.
    pub clock: Signal<In, Clock>,
    /// U, Q.24.
    pub u: Signal<In, Bits<U_W>>,
    /// eta, 1/1024 (a configuration value: read at registers 1 and 6).
    pub eta: Signal<In, Bits<ETA_W>>,
    /// `(eta * recip(m)) >> 3`: `eta / U ~ ey * 2^-(p + 7)` (eta and U as reals).
    pub ey: Signal<Out, Bits<EY_W>>,
    /// `p + 7`: the right shift that brings `Rc * ey` to Mb/s Q.8.
    pub sh: Signal<Out, Bits<SH_W>>,
    /// `U >= eta` (`k >= 1`).
    pub k_ge_1: Signal<Out, Bit>,
    /// `U = 0`.
    pub zero: Signal<Out, Bit>,
    lz: Signal<Local, Bits<SH_W>>,
    lz_c: [Constant<Bits<SH_W>>; U_W],
    ext_eta: ZeroExt<ETA_W, U_W>,
    r1_u: DFF<Bits<U_W>>,
    r1_lz: DFF<Bits<SH_W>>,
    al: Signal<Local, Bits<U_W>>,
    /// The bits below the mantissa: read by no one (a truncation).
    al_low_unused: Signal<Local, Bits<16>>,
    recip: Recip,
    /// The shift and the flags beside the pipeline (registers 1 to 7).
    sh_d: [DFF<Bits<SH_W>>; 6],
    ge: [DFF<Bit>; 7],
    z: [DFF<Bit>; 7],
    mul_lo: DspMul<ETA_W, 18, 29>,
    mul_hi: DspMul<ETA_W, 7, 18>,
    ext_lo: ZeroExt<29, 43>,
    ext_hi: ZeroExt<18, 43>,
    sum: Signal<Local, Bits<43>>,
    /// The bits `>> 3` drops and the sum's top (zero: `eta * y <= 2^34`): read by no one.
    sum_unused: Signal<Local, Bits<3>>,
    sum_top_unused: Signal<Local, Bits<8>>,
    r7_ey: DFF<Bits<EY_W>>,
    c46: Constant<Bits<SH_W>>,
    one: Constant<Bit>,
}

impl Default for EtaOverU {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            u: Default::default(),
            eta: Default::default(),
            ey: Default::default(),
            sh: Default::default(),
            k_ge_1: Default::default(),
            zero: Default::default(),
            lz: Default::default(),
            lz_c: std::array::from_fn(|c| Constant::new((c as u64).into())),
            ext_eta: Default::default(),
            r1_u: Default::default(),
            r1_lz: Default::default(),
            al: Default::default(),
            al_low_unused: Default::default(),
            recip: Default::default(),
            sh_d: Default::default(),
            ge: Default::default(),
            z: Default::default(),
            mul_lo: DspMul::new(),
            mul_hi: DspMul::new(),
            ext_lo: Default::default(),
            ext_hi: Default::default(),
            sum: Default::default(),
            sum_unused: Default::default(),
            sum_top_unused: Default::default(),
            r7_ey: Default::default(),
            c46: Constant::new(46.into()),
            one: Constant::new(true),
        }
    }
}

impl Logic for EtaOverU {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, r1_u, r1_lz, r7_ey);
        for i in 0..6 {
            self.sh_d[i].clock.next = self.clock.val();
        }
        for i in 0..7 {
            self.ge[i].clock.next = self.clock.val();
            self.z[i].clock.next = self.clock.val();
        }
        self.recip.clock.next = self.clock.val();
        self.mul_lo.clock.next = self.clock.val();
        self.mul_hi.clock.next = self.clock.val();
        self.mul_lo.en.next = self.one.val();
        self.mul_hi.en.next = self.one.val();
        // Register 1: the leading zeros (the highest set bit is assigned last), the flags.
        self.lz.next = 0.into();
        for i in 0..U_W {
            if self.u.val().get_bit(i) {
                self.lz.next = self.lz_c[39 - i].val();
            }
        }
        self.r1_u.d.next = self.u.val();
        self.r1_lz.d.next = self.lz.val();
        self.ext_eta.i.next = self.eta.val();
        self.ge[0].d.next = !(self.u.val() < (self.ext_eta.o.val() << 14));
        self.z[0].d.next = !self.u.val().any();
        for i in 1..7 {
            self.ge[i].d.next = self.ge[i - 1].q.val();
            self.z[i].d.next = self.z[i - 1].q.val();
        }
        // Register 2: the mantissa and the shift.
        self.al.next = self.r1_u.q.val() << self.r1_lz.q.val();
        self.recip.m.next = self.al.val().get_bits::<24>(16);
        self.al_low_unused.next = self.al.val().get_bits::<16>(0);
        self.sh_d[0].d.next = self.c46.val() - self.r1_lz.q.val();
        for i in 1..6 {
            self.sh_d[i].d.next = self.sh_d[i - 1].q.val();
        }
        // Registers 3 to 5: the reciprocal; 6: eta times it in two DSPs.
        self.mul_lo.a.next = self.eta.val();
        self.mul_lo.b.next = self.recip.y.val().get_bits::<18>(0);
        self.mul_hi.a.next = self.eta.val();
        self.mul_hi.b.next = self.recip.y.val().get_bits::<7>(18);
        // Register 7: ey = (lo + hi << 18) >> 3.
        self.ext_lo.i.next = self.mul_lo.p.val();
        self.ext_hi.i.next = self.mul_hi.p.val();
        self.sum.next = self.ext_lo.o.val() + (self.ext_hi.o.val() << 18);
        self.r7_ey.d.next = self.sum.val().get_bits::<EY_W>(3);
        self.sum_unused.next = self.sum.val().get_bits::<3>(0);
        self.sum_top_unused.next = self.sum.val().get_bits::<8>(35);
        self.ey.next = self.r7_ey.q.val();
        self.sh.next = self.sh_d[5].q.val();
        self.k_ge_1.next = self.ge[6].q.val();
        self.zero.next = self.z[6].q.val();
    }
}

#[cfg(test)]
mod tests {
    use super::super::recip::recip_table;
    use super::*;

    /// The golden statement, written out: `(ey, p + 7, U >= eta << 14, U = 0)`.
    fn statement(u: u64, eta: u64) -> (u64, u64, bool, bool) {
        assert!(u > 0);
        let p = 63 - u.leading_zeros() as u64;
        let m = if p <= 23 {
            u << (23 - p)
        } else {
            u >> (p - 23)
        } as u32;
        let i = (m >> 13) & 1023;
        let f = m & 8191;
        let t0 = recip_table(i);
        let y = t0 - (((t0 - recip_table(i + 1)) as u64 * f as u64) >> 13) as u32;
        ((eta * y as u64) >> 3, p + 7, u >= eta << 14, false)
    }

    #[test]
    fn model_gives_the_statement_seven_edges_later() {
        for eta in [973u64, 512, 1024, 1000] {
            let mut cases = Vec::new();
            let mut x = 0x9e37_79b9_7f4a_7c15u64 ^ eta;
            for n in 0..300u64 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let bits = 1 + n % 40;
                cases.push(match n % 17 {
                    0 => 0,
                    // Around eta: k = 1 either side.
                    1 => (eta << 14) + (x & 1) - (x >> 62 & 1),
                    _ => (x & ((1 << bits) - 1)) | 1 << (bits - 1),
                });
            }
            let mut e = EtaOverU::default();
            e.connect_all();
            e.eta.next = eta.into();
            let mut out = Vec::new();
            for n in 0..cases.len() + ETA_STAGES {
                e.u.next = cases[n.min(cases.len() - 1)].into();
                e.clock.next = Clock { clk: false };
                assert!(simulate(&mut e, 50));
                e.clock.next = Clock { clk: true };
                assert!(simulate(&mut e, 50));
                out.push((
                    e.ey.val().to_u64(),
                    e.sh.val().to_u64(),
                    e.k_ge_1.val(),
                    e.zero.val(),
                ));
            }
            let mut at_eta = [0; 2];
            for (n, &u) in cases.iter().enumerate() {
                let got = out[n + ETA_STAGES - 1];
                if u == 0 {
                    assert!(got.3 && !got.2, "eta {eta}, case {n}: U = 0");
                } else {
                    assert_eq!(got, statement(u, eta), "eta {eta}, case {n}: U {u:#x}");
                }
                if u.abs_diff(eta << 14) <= 1 {
                    at_eta[got.2 as usize] += 1;
                }
            }
            assert!(
                at_eta[0] > 0 && at_eta[1] > 0,
                "eta {eta}: U near eta {at_eta:?}"
            );
        }
    }
}
