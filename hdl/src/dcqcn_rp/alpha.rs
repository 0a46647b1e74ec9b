//! alpha after `n` alpha-timer expiries (golden: `RpConfig::alpha_after`).
//!
//! The first expiry is applied exactly (`t1`, computed once by the caller for both users);
//! the other `n - 1` multiply by `c^(n-1)`, read from the two halves of the power table
//! (`c^j` and `c^(128 j)`, Q.24) and multiplied together: two table reads and two
//! multipliers. `c^k` is taken as 0 for `k >= 2^14`.

use super::widths::*;
use crate::wide_mul::WideMul;
use rust_hdl::prelude::*;

/// `n == 0 ? alpha : (k = n - 1) >= 2^14 ? 0 : floor(t1 * c^k)`, with
/// `c^k = floor(hi[k >> 7] * lo[k & 127] / 2^24)`.
#[derive(LogicBlock)]
pub struct AlphaPow {
    /// alpha before, Q.20 (the answer when `n == 0`).
    pub alpha: Signal<In, Bits<ALPHA_W>>,
    /// alpha after the first expiry, Q.20.
    pub t1: Signal<In, Bits<ALPHA_W>>,
    /// Number of expiries.
    pub n: Signal<In, Bits<COUNT_W>>,
    /// Address into the `c^j` half (`k & 127`).
    pub lo_addr: Signal<Out, Bits<7>>,
    /// Address into the `c^(128 j)` half (`k >> 7`).
    pub hi_addr: Signal<Out, Bits<7>>,
    /// `c^(k & 127)`, Q.24, read at `lo_addr`.
    pub lo_val: Signal<In, Bits<POW_W>>,
    /// `c^(128 (k >> 7))`, Q.24, read at `hi_addr`.
    pub hi_val: Signal<In, Bits<POW_W>>,
    /// alpha after, Q.20.
    pub alpha_o: Signal<Out, Bits<ALPHA_W>>,
    /// Q.24 x Q.24 (both `<= 2^24`): the product is `<= 2^48`, 49 bits.
    mul_pow: WideMul<POW_W, POW_W, 49>,
    /// Q.20 x Q.24 (`<= 2^20`, `<= 2^24`): the product is `<= 2^44`, 45 bits.
    mul_alpha: WideMul<ALPHA_W, POW_W, 45>,
    k: Signal<Local, Bits<COUNT_W>>,
    /// The 24 fraction bits of each product, which the floor (`>> 24`) drops: computed by
    /// the multipliers, used by nothing (Verilator ignores `*unused*` signals).
    pow_frac_unused: Signal<Local, Bits<24>>,
    alpha_frac_unused: Signal<Local, Bits<24>>,
    one: Constant<Bits<COUNT_W>>,
}

impl Default for AlphaPow {
    fn default() -> Self {
        Self {
            alpha: Default::default(),
            t1: Default::default(),
            n: Default::default(),
            lo_addr: Default::default(),
            hi_addr: Default::default(),
            lo_val: Default::default(),
            hi_val: Default::default(),
            alpha_o: Default::default(),
            mul_pow: Default::default(),
            mul_alpha: Default::default(),
            k: Default::default(),
            pow_frac_unused: Default::default(),
            alpha_frac_unused: Default::default(),
            one: Constant::new(1.into()),
        }
    }
}

impl Logic for AlphaPow {
    #[hdl_gen]
    fn update(&mut self) {
        self.k.next = self.n.val() - self.one.val();
        self.lo_addr.next = self.k.val().get_bits::<7>(0);
        self.hi_addr.next = self.k.val().get_bits::<7>(7);
        self.mul_pow.a.next = self.hi_val.val();
        self.mul_pow.b.next = self.lo_val.val();
        self.pow_frac_unused.next = self.mul_pow.p.val().get_bits::<24>(0);
        self.mul_alpha.a.next = self.t1.val();
        self.mul_alpha.b.next = self.mul_pow.p.val().get_bits::<POW_W>(24);
        self.alpha_frac_unused.next = self.mul_alpha.p.val().get_bits::<24>(0);
        if !self.n.val().any() {
            self.alpha_o.next = self.alpha.val();
        } else if self.k.val().get_bits::<7>(14).any() {
            // k >= 2^14: c^k is taken as 0.
            self.alpha_o.next = 0.into();
        } else {
            self.alpha_o.next = self.mul_alpha.p.val().get_bits::<ALPHA_W>(24);
        }
    }
}
