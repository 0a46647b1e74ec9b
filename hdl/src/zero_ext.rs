//! `ZeroExt`: zero-extension from `N` to `M` bits, as a `Verilog::Custom` leaf.
//!
//! rust-hdl's `bit_cast::<M, N>(x)` emits `((x) & M'hmask)`, which widens `x` through
//! Verilog's context width rules and which Verilator reports as an AND of mismatched widths
//! (the same warning a real width bug, `x & 32'hf` on a narrow `x`, gives). This leaf emits
//! the explicit concatenation `{{(M-N){1'b0}}, i}` instead; its Rust model is `bit_cast`.
//! After flattening it is wiring only.

use rust_hdl::prelude::*;

/// `o = i`, zero-extended from `N` to `M` bits (`N < M`). Combinational.
#[derive(LogicBlock)]
pub struct ZeroExt<const N: usize, const M: usize> {
    /// Value, `N` bits.
    pub i: Signal<In, Bits<N>>,
    /// `i` with `M - N` zeros above it.
    pub o: Signal<Out, Bits<M>>,
}

impl<const N: usize, const M: usize> Default for ZeroExt<N, M> {
    fn default() -> Self {
        assert!(0 < N && N < M, "ZeroExt<{N},{M}>: needs 0 < N < M");
        Self {
            i: Default::default(),
            o: Default::default(),
        }
    }
}

impl<const N: usize, const M: usize> Logic for ZeroExt<N, M> {
    fn update(&mut self) {
        self.o.next = bit_cast::<M, N>(self.i.val());
    }

    fn connect(&mut self) {
        self.o.connect();
    }

    fn hdl(&self) -> Verilog {
        Verilog::Custom(format!("always @(*) o = {{{{{}{{1'b0}}}}, i}};\n", M - N))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verilog_is_a_concatenation() {
        let Verilog::Custom(v) = ZeroExt::<17, 18>::default().hdl() else {
            panic!("not custom")
        };
        assert_eq!(v, "always @(*) o = {{1{1'b0}}, i};\n");
    }

    #[test]
    fn model_zero_extends() {
        let mut z = ZeroExt::<4, 9>::default();
        z.connect_all();
        z.i.next = 0xF.into();
        assert!(simulate(&mut z, 10));
        assert_eq!(z.o.val(), Bits::<9>::from(0xF));
    }
}
