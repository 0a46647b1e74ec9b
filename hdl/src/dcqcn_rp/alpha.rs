//! alpha after `n` alpha-timer expiries (golden: `RpConfig::alpha_after`), pipelined:
//! [`POW_STAGES`] = 9 registers from `n` to `alpha_o`.
//!
//! The first expiry is applied exactly (`t1`, computed once by the caller for both users);
//! the other `n - 1` multiply by `c^(n-1)`, read from the two halves of the power table
//! (`c^j` and `c^(128 j)`, Q.24) and multiplied together: two table reads and two
//! multipliers. `c^k` is taken as 0 for `k >= 2^14`.
//!
//! | register | holds | logic before it |
//! |---|---|---|
//! | 1 | the two table words, `t1`, and the answer when it is not a product (`n == 0`: alpha; `k >= 2^14`: 0) | `k = n - 1`, the table reads (LUT RAM, combinational) |
//! | 2 | the two table words again, for the multiplier (`r2_lo`, `r2_hi`) | none |
//! | 3-5 | `hi * lo` (`PipeMul`); `t1` and the fixed answer beside it (`DelayLine`s) | `PipeMul` |
//! | 6-8 | `t1 * c^k` (`PipeMul`); the fixed answer beside it | `PipeMul` |
//! | 9 | `alpha_o` | a 2:1 choice |
//!
//! As one combinational step (table read and both multipliers) it is a path of about 36 ns
//! on an ECP5-6; the RP runs it beside the increase segment before the cut, which is
//! longer, so the 9 registers add no latency. Register 2 is a copy: register 1 sits by the
//! power table (the LUT RAM both `AlphaPow`s read), the multiplier's DSP blocks are where
//! the device has them, and at 1024 QPs the route from one to the other through a DSP is
//! about 17 ns; register 2 may sit by the DSPs.

use super::widths::*;
use crate::delay_line::DelayLine;
use crate::pipe_mul::{PIPE_MUL_STAGES, PipeMul};
use rust_hdl::prelude::*;

/// Registers from `n` (and `alpha`, `t1`) to `alpha_o`.
pub const POW_STAGES: usize = 3 + 2 * PIPE_MUL_STAGES;

/// `n == 0 ? alpha : (k = n - 1) >= 2^14 ? 0 : floor(t1 * c^k)`, with
/// `c^k = floor(hi[k >> 7] * lo[k & 127] / 2^24)`, [`POW_STAGES`] cycles of `en` after the
/// inputs were presented.
#[derive(LogicBlock)]
pub struct AlphaPow {
    /// Clock of the registers.
    pub clock: Signal<In, Clock>,
    /// Advance: every register loads (low holds them).
    pub en: Signal<In, Bit>,
    /// alpha before, Q.20 (the answer when `n == 0`).
    pub alpha: Signal<In, Bits<ALPHA_W>>,
    /// alpha after the first expiry, Q.20.
    pub t1: Signal<In, Bits<ALPHA_W>>,
    /// Number of expiries.
    pub n: Signal<In, Bits<COUNT_W>>,
    /// Address into the `c^j` half (`k & 127`), combinational from `n`.
    pub lo_addr: Signal<Out, Bits<7>>,
    /// Address into the `c^(128 j)` half (`k >> 7`), combinational from `n`.
    pub hi_addr: Signal<Out, Bits<7>>,
    /// `c^(k & 127)`, Q.24, read at `lo_addr` in the same cycle.
    pub lo_val: Signal<In, Bits<POW_W>>,
    /// `c^(128 (k >> 7))`, Q.24, read at `hi_addr` in the same cycle.
    pub hi_val: Signal<In, Bits<POW_W>>,
    /// alpha after, Q.20, for the inputs presented [`POW_STAGES`] advancing cycles ago.
    pub alpha_o: Signal<Out, Bits<ALPHA_W>>,
    k: Signal<Local, Bits<COUNT_W>>,
    one: Constant<Bits<COUNT_W>>,
    // Register 1.
    r1_lo: DFF<Bits<POW_W>>,
    r1_hi: DFF<Bits<POW_W>>,
    r1_t1: DFF<Bits<ALPHA_W>>,
    /// The answer is not a product (`n == 0` or `k >= 2^14`) ...
    r1_fixed: DFF<Bit>,
    /// ... and is this (alpha or 0).
    r1_fixed_val: DFF<Bits<ALPHA_W>>,
    // Register 2.
    r2_lo: DFF<Bits<POW_W>>,
    r2_hi: DFF<Bits<POW_W>>,
    /// `t1` beside register 2 and `mul_pow` (registers 2-5), for `mul_alpha`.
    t1_line: DelayLine<Bits<ALPHA_W>, 2>,
    /// The fixed answer beside register 2 and both multipliers (registers 2-8), for
    /// register 9.
    fixed_line: DelayLine<Bit, 3>,
    fixed_val_line: DelayLine<Bits<ALPHA_W>, 3>,
    /// Q.24 x Q.24 (both `<= 2^24`): the product is `<= 2^48`; bits 24..49 are `c^k`.
    mul_pow: PipeMul<POW_W, POW_W>,
    /// Q.20 x Q.24 (`<= 2^20`, `<= 2^24`): the product is `<= 2^44`; bits 24..45 are alpha.
    mul_alpha: PipeMul<ALPHA_W, POW_W>,
    // Register 9.
    r9_alpha: DFF<Bits<ALPHA_W>>,
    /// The product bits the floors (`>> 24`) drop and the bits above each product, which
    /// are zero: computed by the multipliers, used by nothing (Verilator ignores
    /// `*unused*` signals).
    pow_frac_unused: Signal<Local, Bits<24>>,
    pow_hi_unused: Signal<Local, Bits<15>>,
    alpha_frac_unused: Signal<Local, Bits<24>>,
    alpha_hi_unused: Signal<Local, Bits<19>>,
}

impl Default for AlphaPow {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            en: Default::default(),
            alpha: Default::default(),
            t1: Default::default(),
            n: Default::default(),
            lo_addr: Default::default(),
            hi_addr: Default::default(),
            lo_val: Default::default(),
            hi_val: Default::default(),
            alpha_o: Default::default(),
            k: Default::default(),
            one: Constant::new(1.into()),
            r1_lo: Default::default(),
            r1_hi: Default::default(),
            r1_t1: Default::default(),
            r1_fixed: Default::default(),
            r1_fixed_val: Default::default(),
            r2_lo: Default::default(),
            r2_hi: Default::default(),
            t1_line: DelayLine::new(PIPE_MUL_STAGES + 1),
            fixed_line: DelayLine::new(2 * PIPE_MUL_STAGES + 1),
            fixed_val_line: DelayLine::new(2 * PIPE_MUL_STAGES + 1),
            mul_pow: PipeMul::new(),
            mul_alpha: PipeMul::new(),
            r9_alpha: Default::default(),
            pow_frac_unused: Default::default(),
            pow_hi_unused: Default::default(),
            alpha_frac_unused: Default::default(),
            alpha_hi_unused: Default::default(),
        }
    }
}

impl Logic for AlphaPow {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            r1_lo,
            r1_hi,
            r1_t1,
            r1_fixed,
            r1_fixed_val,
            r2_lo,
            r2_hi,
            r9_alpha
        );
        self.t1_line.clock.next = self.clock.val();
        self.t1_line.en.next = self.en.val();
        self.t1_line.d.next = self.r1_t1.q.val();
        self.fixed_line.clock.next = self.clock.val();
        self.fixed_line.en.next = self.en.val();
        self.fixed_line.d.next = self.r1_fixed.q.val();
        self.fixed_val_line.clock.next = self.clock.val();
        self.fixed_val_line.en.next = self.en.val();
        self.fixed_val_line.d.next = self.r1_fixed_val.q.val();
        self.mul_pow.clock.next = self.clock.val();
        self.mul_pow.en.next = self.en.val();
        self.mul_alpha.clock.next = self.clock.val();
        self.mul_alpha.en.next = self.en.val();
        // Before register 1: the table addresses (the tables answer in the same cycle).
        self.k.next = self.n.val() - self.one.val();
        self.lo_addr.next = self.k.val().get_bits::<7>(0);
        self.hi_addr.next = self.k.val().get_bits::<7>(7);
        // Before registers 3-5 and 6-8: the two multipliers.
        self.mul_pow.a.next = self.r2_hi.q.val();
        self.mul_pow.b.next = self.r2_lo.q.val();
        self.pow_frac_unused.next = self.mul_pow.p.val().get_bits::<24>(0);
        self.pow_hi_unused.next = self.mul_pow.p.val().get_bits::<15>(49);
        self.mul_alpha.a.next = self.t1_line.q.val();
        self.mul_alpha.b.next = self.mul_pow.p.val().get_bits::<POW_W>(24);
        self.alpha_frac_unused.next = self.mul_alpha.p.val().get_bits::<24>(0);
        self.alpha_hi_unused.next = self.mul_alpha.p.val().get_bits::<19>(45);
        self.alpha_o.next = self.r9_alpha.q.val();
        if self.en.val() {
            self.r1_lo.d.next = self.lo_val.val();
            self.r1_hi.d.next = self.hi_val.val();
            self.r1_t1.d.next = self.t1.val();
            self.r2_lo.d.next = self.r1_lo.q.val();
            self.r2_hi.d.next = self.r1_hi.q.val();
            if !self.n.val().any() {
                self.r1_fixed.d.next = true;
                self.r1_fixed_val.d.next = self.alpha.val();
            } else if self.k.val().get_bits::<7>(14).any() {
                // k >= 2^14: c^k is taken as 0.
                self.r1_fixed.d.next = true;
                self.r1_fixed_val.d.next = 0.into();
            } else {
                self.r1_fixed.d.next = false;
                self.r1_fixed_val.d.next = 0.into();
            }
            if self.fixed_line.q.val() {
                self.r9_alpha.d.next = self.fixed_val_line.q.val();
            } else {
                self.r9_alpha.d.next = self.mul_alpha.p.val().get_bits::<ALPHA_W>(24);
            }
        }
    }
}
