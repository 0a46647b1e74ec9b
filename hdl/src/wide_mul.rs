//! `WideMul`: an unsigned multiplier wider than rust-hdl's 16x16 `*` (toolchain.md).
//!
//! A `Verilog::Custom` leaf: the Rust model multiplies in u128, the Verilog widens both
//! operands to `P` bits and multiplies; yosys maps it to DSP blocks (MULT18X18D on ECP5).

use rust_hdl::prelude::*;

/// `p = a * b`, unsigned, truncated to `P` bits. Combinational.
#[derive(LogicBlock)]
pub struct WideMul<const A: usize, const B: usize, const P: usize> {
    /// Multiplicand, unsigned.
    pub a: Signal<In, Bits<A>>,
    /// Multiplier, unsigned.
    pub b: Signal<In, Bits<B>>,
    /// Product `a * b`, low `P` bits.
    pub p: Signal<Out, Bits<P>>,
}

impl<const A: usize, const B: usize, const P: usize> Default for WideMul<A, B, P> {
    fn default() -> Self {
        assert!(P <= A + B && A <= 64 && B <= 64 && P <= 128, "WideMul<{A},{B},{P}>");
        Self { a: Default::default(), b: Default::default(), p: Default::default() }
    }
}

impl<const A: usize, const B: usize, const P: usize> Logic for WideMul<A, B, P> {
    fn update(&mut self) {
        let a = self.a.val().to_u128();
        let b = self.b.val().to_u128();
        let prod = a * b;
        let masked = if P >= 128 { prod } else { prod & ((1u128 << P) - 1) };
        self.p.next = bits_from_u128::<P>(masked);
    }

    fn connect(&mut self) {
        self.p.connect();
    }

    fn hdl(&self) -> Verilog {
        Verilog::Custom(format!(
            "wire [{pm}:0] a_wide = {{{{{pa}{{1'b0}}}}, a}};\nwire [{pm}:0] b_wide = {{{{{pb}{{1'b0}}}}, b}};\nassign p = a_wide * b_wide;",
            pm = P - 1,
            pa = P - A,
            pb = P - B,
        ))
    }
}

/// A `Bits<P>` from the low `P` bits of `x`.
fn bits_from_u128<const P: usize>(x: u128) -> Bits<P> {
    let lo: Bits<P> = bit_cast::<P, 64>(Bits::<64>::from(x as u64));
    if P > 64 {
        let hi: Bits<P> = bit_cast::<P, 64>(Bits::<64>::from((x >> 64) as u64));
        lo | (hi << 64)
    } else {
        lo
    }
}
