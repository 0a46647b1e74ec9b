//! `DspMul`: an unsigned multiply of up to 18 x 18 bits whose product is registered inside
//! the DSP block (ECP5 `MULT18X18D`, output register), as a `Verilog::Custom` leaf.
//!
//! yosys's `synth_ecp5` maps `a * b` to a `MULT18X18D` but never moves a register into it:
//! the product leaves the DSP combinationally and is registered in the fabric. nextpnr does
//! time a DSP's own registers: a 17 x 17 product between fabric registers measured 144.26
//! MHz on an LFE5U-85F-6, with the DSP's output register 185.98 MHz (the route from the DSP
//! to the fabric moves to the next stage). The RP's pipelined multipliers (`PipeMul`) need
//! that margin at 10 ns, so their first register is this leaf.
//!
//! The Verilog has two bodies, chosen by the `SYNTHESIS` macro (which yosys defines and
//! Verilator does not): for synthesis the `MULT18X18D` instance (its connections as yosys's
//! own `dsp_map_18x18.v` makes them, plus `REG_OUTPUT_CLK = "CLK0"`, `CLK0`, `CE0 = en`
//! and `RST0` low; the cascade inputs `SRIA`/`SRIB` and the other clocks, enables and
//! resets stay unconnected: tied to ground, the cascade pins made nextpnr's router fail,
//! they have no route from the fabric); for
//! simulation the same register written behaviourally, which Verilator runs in the
//! three-way tests (`sim/tests/all/leaves_three_way.rs`: golden statement, rust-hdl's model
//! below, Verilator). The vendor cell is never simulated: its lint stand-in is in
//! `hdl/lint/ecp5_cells.v`, and `tests/tests/all/rtl_gates.rs` checks the instance's
//! parameters and that the stand-in is a black box to yosys. That `synth_ecp5` keeps the
//! register is not a test: it was read from a netlist by hand (every `PipeMul` partial
//! product's `MULT18X18D` has `REG_OUTPUT_CLK = "CLK0"`); `t1`'s two partial products in
//! the RP's step A were combinational `WideMul`s in the netlist that was read, so their
//! register has not been checked that way.

use rust_hdl::prelude::*;

/// `p <= a * b` (unsigned, all `P = A + B` bits) at each rising edge of `clock` with `en`;
/// `p` holds otherwise. One cycle from `a`, `b` to `p`.
///
/// Limits (checked by [`DspMul::new`]): `1 <= A, B <= 18` (one `MULT18X18D` in unsigned
/// mode) and `P == A + B`.
#[derive(LogicBlock)]
pub struct DspMul<const A: usize, const B: usize, const P: usize> {
    /// Clock of the product register.
    pub clock: Signal<In, Clock>,
    /// Load: the product register takes `a * b` at the edge (low holds it).
    pub en: Signal<In, Bit>,
    /// Multiplicand, unsigned, `A` bits.
    pub a: Signal<In, Bits<A>>,
    /// Multiplier, unsigned, `B` bits.
    pub b: Signal<In, Bits<B>>,
    /// The product registered at the last edge with `en` (zero before the first).
    pub p: Signal<Out, Bits<P>>,
}

impl<const A: usize, const B: usize, const P: usize> DspMul<A, B, P> {
    /// A registered DSP multiply; panics unless `1 <= A, B <= 18` and `P == A + B`.
    pub fn new() -> Self {
        assert!(
            (1..=18).contains(&A) && (1..=18).contains(&B),
            "DspMul<{A},{B},{P}>: operands must be 1..=18 bits (one MULT18X18D)"
        );
        assert_eq!(P, A + B, "DspMul<{A},{B},{P}>: P must be A + B");
        Self {
            clock: Default::default(),
            en: Default::default(),
            a: Default::default(),
            b: Default::default(),
            p: Default::default(),
        }
    }
}

impl<const A: usize, const B: usize, const P: usize> Default for DspMul<A, B, P> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const A: usize, const B: usize, const P: usize> Logic for DspMul<A, B, P> {
    fn update(&mut self) {
        if self.clock.pos_edge() && self.en.val() {
            let product = self.a.val().to_u64() * self.b.val().to_u64();
            self.p.next = Bits::<P>::from(product);
        }
    }

    fn connect(&mut self) {
        self.p.connect();
    }

    fn hdl(&self) -> Verilog {
        Verilog::Custom(custom_verilog(A, B, P))
    }
}

/// `name` (`width` bits) zero-extended to `to` bits, as a Verilog expression.
fn extend(name: &str, width: usize, to: usize) -> String {
    if width == to {
        name.to_string()
    } else {
        format!("{{{{{}{{1'b0}}}}, {name}}}", to - width)
    }
}

/// The body of the `DspMul` module (rust-hdl declares custom outputs `output reg`).
fn custom_verilog(a: usize, b: usize, p: usize) -> String {
    let pins = |port: &str, n: usize, f: &dyn Fn(usize) -> String| {
        (0..n)
            .map(|i| format!(".{port}{i}({})", f(i)))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let zero = |_| "1'b0".to_string();
    let a_pins = pins("A", 18, &|i| format!("a_18[{i}]"));
    let b_pins = pins("B", 18, &|i| format!("b_18[{i}]"));
    let c_pins = pins("C", 18, &zero);
    let p_pins = pins("P", 36, &|i| format!("p_36[{i}]"));
    let unused_p = if p < 36 {
        format!("wire unused_p_36_hi = ^p_36[35:{p}];\n")
    } else {
        String::new()
    };
    format!(
        "\
// p <= a * b (unsigned, {p} bits) at the clock edge when en: the DSP's output register.
`ifdef SYNTHESIS
wire [17:0] a_18 = {a18};
wire [17:0] b_18 = {b18};
wire [35:0] p_36;
{unused_p}MULT18X18D #(
   .REG_INPUTA_CLK(\"NONE\"), .REG_INPUTB_CLK(\"NONE\"), .REG_INPUTC_CLK(\"NONE\"),
   .REG_PIPELINE_CLK(\"NONE\"),
   .REG_OUTPUT_CLK(\"CLK0\"), .REG_OUTPUT_CE(\"CE0\"), .REG_OUTPUT_RST(\"RST0\"),
   .GSR(\"DISABLED\"), .RESETMODE(\"SYNC\")
) dsp (
   {a_pins},
   {b_pins},
   {c_pins},
   .SIGNEDA(1'b0), .SIGNEDB(1'b0), .SOURCEA(1'b0), .SOURCEB(1'b0),
   .CLK0(clock), .CE0(en), .RST0(1'b0),
   {p_pins}
);
always @(*) p = p_36[{pm}:0];
`else
wire [{pm}:0] a_p = {ap};
wire [{pm}:0] b_p = {bp};
always @(posedge clock) begin
   if (en) p <= a_p * b_p;
end
`endif
",
        a18 = extend("a", a, 18),
        b18 = extend("b", b, 18),
        ap = extend("a", a, p),
        bp = extend("b", b, p),
        pm = p - 1,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn model_registers_the_product_when_enabled() {
        let mut m = DspMul::<17, 17, 34>::new();
        m.connect_all();
        let edge = |m: &mut DspMul<17, 17, 34>| {
            m.clock.next = Clock { clk: false };
            assert!(simulate(m, 10));
            m.clock.next = Clock { clk: true };
            assert!(simulate(m, 10));
        };
        m.a.next = ((1u64 << 17) - 1).into();
        m.b.next = ((1u64 << 17) - 1).into();
        m.en.next = false;
        edge(&mut m);
        assert_eq!(m.p.val().to_u64(), 0);
        m.en.next = true;
        edge(&mut m);
        assert_eq!(m.p.val().to_u64(), ((1u64 << 17) - 1) * ((1 << 17) - 1));
        m.a.next = 3.into();
        m.en.next = false;
        edge(&mut m);
        assert_eq!(m.p.val().to_u64(), ((1u64 << 17) - 1) * ((1 << 17) - 1));
    }

    #[test]
    fn verilog_has_the_registered_dsp_and_the_model() {
        let v = custom_verilog(15, 17, 32);
        assert!(v.contains("wire [17:0] a_18 = {{3{1'b0}}, a};"), "{v}");
        assert!(v.contains("wire [17:0] b_18 = {{1{1'b0}}, b};"), "{v}");
        assert!(v.contains(".REG_OUTPUT_CLK(\"CLK0\")"), "{v}");
        assert!(v.contains(".CE0(en)"), "{v}");
        assert!(v.contains("wire unused_p_36_hi = ^p_36[35:32];"), "{v}");
        assert!(v.contains("always @(*) p = p_36[31:0];"), "{v}");
        assert!(v.contains("if (en) p <= a_p * b_p;"), "{v}");
        let v = custom_verilog(18, 18, 36);
        assert!(v.contains("wire [17:0] a_18 = a;"), "{v}");
        assert!(!v.contains("unused_p_36_hi"), "{v}");
    }
}
