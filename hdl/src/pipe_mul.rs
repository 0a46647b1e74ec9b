//! `PipeMul`: an unsigned multiplier of up to 32 x 32 bits in [`PIPE_MUL_STAGES`] = 3
//! registers, for paths that must close at 100 MHz on an ECP5.
//!
//! A combinational `WideMul` of 25 x 25 bits is four MULT18X18D blocks and an adder tree
//! after them. Two of them in series (25 x 25, then 21 x 25, as in the RP's alpha step)
//! take 24 ns on an LFE5U-85F-6 out of context, 41.6 MHz (`scripts/stage_fmax.py`); the
//! same step built from two `PipeMul`s reaches 139.5 MHz. Here each operand is split into a
//! low half of 17 bits and a high half of up to 15 bits (17 x 17 unsigned fits one
//! 18 x 18 signed DSP), and the work is spread over three registers:
//!
//! | register | holds | logic before it |
//! |---|---|---|
//! | 1 | the four partial products `ll`, `lh`, `hl`, `hh` (34, 32, 32, 30 bits) | one DSP each, registered in the DSP (`DspMul` leaves) |
//! | 2 | `cat = hh << 34 | ll` (64 bits, no add: the two do not overlap) and `mid = lh + hl` (33 bits) | one 33-bit add |
//! | 3 | `p = cat + (mid << 17)` (64 bits) | one 47-bit add |
//!
//! The product of `a` and `b` presented while `en` is high comes out on `p` three `en`
//! cycles later; `en` low holds all three registers (the pipeline around it stalls the
//! same way). `p` is 64 bits wide whatever `A` and `B` are: the caller takes the bits it
//! needs (bits above `A + B` are always zero) and names the rest `*unused*`.
//!
//! Built from the `DspMul` leaf (its own three-way test) and ordinary rust-hdl logic; the
//! RP's three-way tests cover it in place, and the tests below check it against `a * b`.
//! Register 1 is each DSP's own output register (`DspMul`), so the route from a DSP to the
//! fabric is in the add's stage, not in the multiply's.

use crate::dsp_mul::DspMul;
use crate::zero_ext::ZeroExt;
use rust_hdl::prelude::*;

/// Registers from `a`, `b` to `p`.
pub const PIPE_MUL_STAGES: usize = 3;

/// `p = a * b` (unsigned), [`PIPE_MUL_STAGES`] cycles of `en` after `a`, `b` were presented.
/// `A`, `B`: operand widths, 18..=32 (narrower operands need no pipelined multiplier).
#[derive(LogicBlock)]
pub struct PipeMul<const A: usize, const B: usize> {
    /// Clock of the three registers.
    pub clock: Signal<In, Clock>,
    /// Advance: the registers load (low holds them).
    pub en: Signal<In, Bit>,
    /// Multiplicand, unsigned, `A` bits.
    pub a: Signal<In, Bits<A>>,
    /// Multiplier, unsigned, `B` bits.
    pub b: Signal<In, Bits<B>>,
    /// `a * b` of the operands presented three advancing cycles ago (bits above `A + B` zero).
    pub p: Signal<Out, Bits<64>>,
    ext_a: ZeroExt<A, 32>,
    ext_b: ZeroExt<B, 32>,
    /// Register 1: the partial products, each in its DSP's output register.
    r1_ll: DspMul<17, 17, 34>,
    r1_lh: DspMul<17, 15, 32>,
    r1_hl: DspMul<15, 17, 32>,
    r1_hh: DspMul<15, 15, 30>,
    /// The bits of each partial product that `A` and `B` can set (`lh`: `B` bits, `hl`: `A`,
    /// `hh`: `A + B - 34`). A DSP's output is opaque to yosys, which therefore no longer
    /// knows that a narrow operand's product has zero high bits; the masks tell it, so the
    /// adds after register 1 are as wide as the product, not as the DSP.
    mask_lh: Constant<Bits<32>>,
    mask_hl: Constant<Bits<32>>,
    mask_hh: Constant<Bits<30>>,
    ext_ll: ZeroExt<34, 64>,
    ext_hh: ZeroExt<30, 64>,
    ext_lh: ZeroExt<32, 33>,
    ext_hl: ZeroExt<32, 33>,
    r2_cat: DFF<Bits<64>>,
    r2_mid: DFF<Bits<33>>,
    ext_mid: ZeroExt<33, 64>,
    r3_p: DFF<Bits<64>>,
}

impl<const A: usize, const B: usize> PipeMul<A, B> {
    /// A pipelined multiplier; panics unless `18 <= A, B <= 32`.
    pub fn new() -> Self {
        assert!(
            (18..=32).contains(&A) && (18..=32).contains(&B),
            "PipeMul<{A},{B}>: operands must be 18..=32 bits"
        );
        Self {
            clock: Default::default(),
            en: Default::default(),
            a: Default::default(),
            b: Default::default(),
            p: Default::default(),
            ext_a: Default::default(),
            ext_b: Default::default(),
            r1_ll: DspMul::new(),
            r1_lh: DspMul::new(),
            r1_hl: DspMul::new(),
            r1_hh: DspMul::new(),
            mask_lh: Constant::new(low_ones(B)),
            mask_hl: Constant::new(low_ones(A)),
            mask_hh: Constant::new(low_ones(A + B - 34)),
            ext_ll: Default::default(),
            ext_hh: Default::default(),
            ext_lh: Default::default(),
            ext_hl: Default::default(),
            r2_cat: Default::default(),
            r2_mid: Default::default(),
            ext_mid: Default::default(),
            r3_p: Default::default(),
        }
    }
}

/// `n` ones in the low bits (`n < 64`).
fn low_ones<const N: usize>(n: usize) -> Bits<N> {
    Bits::<N>::from((1u64 << n) - 1)
}

impl<const A: usize, const B: usize> Default for PipeMul<A, B> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const A: usize, const B: usize> Logic for PipeMul<A, B> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, r2_cat, r2_mid, r3_p);
        self.ext_a.i.next = self.a.val();
        self.ext_b.i.next = self.b.val();
        // Register 1: the partial products (in the DSPs).
        self.r1_ll.clock.next = self.clock.val();
        self.r1_lh.clock.next = self.clock.val();
        self.r1_hl.clock.next = self.clock.val();
        self.r1_hh.clock.next = self.clock.val();
        self.r1_ll.en.next = self.en.val();
        self.r1_lh.en.next = self.en.val();
        self.r1_hl.en.next = self.en.val();
        self.r1_hh.en.next = self.en.val();
        self.r1_ll.a.next = self.ext_a.o.val().get_bits::<17>(0);
        self.r1_ll.b.next = self.ext_b.o.val().get_bits::<17>(0);
        self.r1_lh.a.next = self.ext_a.o.val().get_bits::<17>(0);
        self.r1_lh.b.next = self.ext_b.o.val().get_bits::<15>(17);
        self.r1_hl.a.next = self.ext_a.o.val().get_bits::<15>(17);
        self.r1_hl.b.next = self.ext_b.o.val().get_bits::<17>(0);
        self.r1_hh.a.next = self.ext_a.o.val().get_bits::<15>(17);
        self.r1_hh.b.next = self.ext_b.o.val().get_bits::<15>(17);
        // Register 2: the outer products side by side, the middle ones added.
        self.ext_ll.i.next = self.r1_ll.p.val();
        self.ext_hh.i.next = self.r1_hh.p.val() & self.mask_hh.val();
        self.ext_lh.i.next = self.r1_lh.p.val() & self.mask_lh.val();
        self.ext_hl.i.next = self.r1_hl.p.val() & self.mask_hl.val();
        // Register 3: the middle sum at its weight.
        self.ext_mid.i.next = self.r2_mid.q.val();
        self.p.next = self.r3_p.q.val();
        if self.en.val() {
            self.r2_cat.d.next = (self.ext_hh.o.val() << 34) | self.ext_ll.o.val();
            self.r2_mid.d.next = self.ext_lh.o.val() + self.ext_hl.o.val();
            self.r3_p.d.next = self.r2_cat.q.val() + (self.ext_mid.o.val() << 17);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Drives `PipeMul<25, 21>` in rust-hdl's simulation with a stream of operands (and
    /// cycles of `en` low) and checks every product three advancing cycles later.
    #[test]
    fn products_come_out_three_en_cycles_later() {
        let mut m = PipeMul::<25, 21>::new();
        m.connect_all();
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        // Corner operands first, then random ones.
        let mut ops: Vec<(u64, u64)> = vec![
            (0, 0),
            ((1 << 25) - 1, (1 << 21) - 1),
            ((1 << 17) - 1, (1 << 17) - 1),
            (1 << 17, 1 << 17),
            ((1 << 25) - 1, 1),
        ];
        for _ in 0..300 {
            ops.push((next() & ((1 << 25) - 1), next() & ((1 << 21) - 1)));
        }
        let mut expect = std::collections::VecDeque::new();
        let mut checked = 0;
        for (i, &(a, b)) in ops.iter().enumerate() {
            let en = i % 7 != 3;
            m.a.next = a.into();
            m.b.next = b.into();
            m.en.next = en;
            assert!(simulate(&mut m, 100));
            m.clock.next = Clock { clk: true };
            assert!(simulate(&mut m, 100));
            m.clock.next = Clock { clk: false };
            assert!(simulate(&mut m, 100));
            if en {
                expect.push_back(a * b);
                if expect.len() > PIPE_MUL_STAGES {
                    expect.pop_front();
                }
                if expect.len() == PIPE_MUL_STAGES {
                    assert_eq!(m.p.val().to_u64(), expect[0], "op {i}: {a} * {b}");
                    checked += 1;
                }
            }
        }
        assert!(checked > 250, "only {checked} products checked");
    }

    #[test]
    #[should_panic(expected = "operands must be 18..=32 bits")]
    fn narrow_operands_are_refused() {
        let _ = PipeMul::<16, 20>::new();
    }
}
