//! `WideMul`: an unsigned multiplier wider than rust-hdl's `*`, which exists only for 16x16
//! (`Bits<16>`, `Signed<16>`; see `toolchain.md`).
//!
//! A combinational `Verilog::Custom` leaf: the Rust model multiplies in `u128` and keeps the
//! low `P` bits; the Verilog brings both operands to `P` bits first (zero-extended, or cut to
//! their low `P` bits, which is all the truncated product depends on), so the product is
//! computed at the output width and nothing is lost to Verilog's width rules.
//! yosys maps the multiply to DSP blocks (MULT18X18D on ECP5).

use rust_hdl::prelude::*;

/// `p = a * b`, unsigned, truncated to `P` bits. Combinational.
///
/// Limits (checked by [`WideMul::new`]): `A, B, P <= 64` (the Rust model works in `u128`)
/// and `P <= A + B` (a wider output would only add constant zeros).
#[derive(LogicBlock)]
pub struct WideMul<const A: usize, const B: usize, const P: usize> {
    /// Multiplicand: unsigned, `A` bits.
    pub a: Signal<In, Bits<A>>,
    /// Multiplier: unsigned, `B` bits.
    pub b: Signal<In, Bits<B>>,
    /// Product: `a * b` (unsigned) truncated to its low `P` bits.
    pub p: Signal<Out, Bits<P>>,
}

/// The top the Verilator bridge is first tested with: 28 x 21 -> 49 bits (full product).
pub type WideMul28x21 = WideMul<28, 21, 49>;

impl<const A: usize, const B: usize, const P: usize> WideMul<A, B, P> {
    /// A multiplier; panics unless `1 <= A, B, P <= 64` and `P <= A + B`.
    pub fn new() -> Self {
        assert!(
            (1..=64).contains(&A) && (1..=64).contains(&B) && (1..=64).contains(&P),
            "WideMul<{A},{B},{P}>: widths must be 1..=64"
        );
        assert!(P <= A + B, "WideMul<{A},{B},{P}>: P must be at most A + B");
        Self {
            a: Default::default(),
            b: Default::default(),
            p: Default::default(),
        }
    }

    /// The Rust model: the low `P` bits of `a * b`.
    pub fn model(a: u64, b: u64) -> u64 {
        let product = u128::from(a) * u128::from(b);
        (product & low_mask(P)) as u64
    }
}

impl<const A: usize, const B: usize, const P: usize> Default for WideMul<A, B, P> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const A: usize, const B: usize, const P: usize> Logic for WideMul<A, B, P> {
    fn update(&mut self) {
        let product = Self::model(self.a.val().to_u64(), self.b.val().to_u64());
        self.p.next = Bits::<P>::from(product);
    }

    fn connect(&mut self) {
        self.p.connect();
    }

    fn hdl(&self) -> Verilog {
        Verilog::Custom(custom_verilog(A, B, P))
    }
}

/// `width` ones in the low bits of a `u128` (`width <= 128`).
fn low_mask(width: usize) -> u128 {
    if width >= 128 {
        u128::MAX
    } else {
        (1u128 << width) - 1
    }
}

/// The body of the `WideMul` module (`output reg p`, as rust-hdl declares custom outputs).
fn custom_verilog(a: usize, b: usize, p: usize) -> String {
    let (a_decl, a_unused) = operand("a", a, p);
    let (b_decl, b_unused) = operand("b", b, p);
    format!(
        "// p = a * b, unsigned, low {p} bits; operands brought to {p} bits first.\n\
         {a_decl}{b_decl}{a_unused}{b_unused}always @(*) p = a_w * b_w;\n"
    )
}

/// Declaration of `<name>_w`, operand `name` (`width` bits) at `p` bits; plus, when the
/// operand is wider than `p`, a reduction of its unused high bits into a wire named
/// `unused_*` (Verilator's convention, so `-Wall` reports no UNUSED).
fn operand(name: &str, width: usize, p: usize) -> (String, String) {
    let decl = match width.cmp(&p) {
        std::cmp::Ordering::Less => {
            format!(
                "wire [{}:0] {name}_w = {{{{{}{{1'b0}}}}, {name}}};\n",
                p - 1,
                p - width
            )
        }
        std::cmp::Ordering::Equal => format!("wire [{}:0] {name}_w = {name};\n", p - 1),
        std::cmp::Ordering::Greater => {
            format!("wire [{}:0] {name}_w = {name}[{}:0];\n", p - 1, p - 1)
        }
    };
    let unused = if width > p {
        format!("wire unused_{name}_hi = ^{name}[{}:{p}];\n", width - 1)
    } else {
        String::new()
    };
    (decl, unused)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn model_truncates() {
        assert_eq!(
            WideMul::<28, 21, 49>::model((1 << 28) - 1, (1 << 21) - 1),
            ((1u64 << 28) - 1) * ((1 << 21) - 1)
        );
        assert_eq!(WideMul::<8, 8, 8>::model(0xff, 0xff), 0x01);
        assert_eq!(WideMul::<64, 64, 64>::model(u64::MAX, u64::MAX), 1);
    }

    #[test]
    fn verilog_extends_or_cuts_operands() {
        let v = custom_verilog(28, 21, 49);
        assert!(v.contains("wire [48:0] a_w = {{21{1'b0}}, a};"), "{v}");
        assert!(v.contains("wire [48:0] b_w = {{28{1'b0}}, b};"), "{v}");
        assert!(v.contains("always @(*) p = a_w * b_w;"), "{v}");
        let v = custom_verilog(32, 8, 16);
        assert!(v.contains("wire [15:0] a_w = a[15:0];"), "{v}");
        assert!(v.contains("wire unused_a_hi = ^a[31:16];"), "{v}");
        assert!(v.contains("wire [15:0] b_w = {{8{1'b0}}, b};"), "{v}");
    }

    #[test]
    #[should_panic(expected = "P must be at most A + B")]
    fn too_wide_output_is_refused() {
        let _ = WideMul::<8, 8, 17>::new();
    }
}
