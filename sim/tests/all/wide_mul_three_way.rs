//! `WideMul<28, 21, 49>` three ways: a plain Rust formula, rust-hdl's own simulation of the
//! block, and the Verilated Verilog (through the generated bridge). All must agree.

use proptest::prelude::*;
use roce_cc_hdl::wide_mul::WideMul28x21;
use roce_cc_sim::verilated::wide_mul_28x21::{PORTS, VWideMul28x21};
use rust_hdl::prelude::*;

const A_MAX: u64 = (1 << 28) - 1;
const B_MAX: u64 = (1 << 21) - 1;

/// The specification: the full product (it fits in 49 bits).
fn formula(a: u64, b: u64) -> u64 {
    a * b
}

/// rust-hdl's simulation of the block, settled after new inputs.
struct HdlMul(WideMul28x21);

impl HdlMul {
    fn new() -> Self {
        let mut uut = WideMul28x21::new();
        uut.connect_all();
        Self(uut)
    }

    fn mul(&mut self, a: u64, b: u64) -> u64 {
        self.0.a.next = Bits::<28>::from(a);
        self.0.b.next = Bits::<21>::from(b);
        assert!(simulate(&mut self.0, 10), "WideMul did not settle");
        self.0.p.val().to_u64()
    }
}

/// The Verilated model.
fn verilated_mul(v: &mut VWideMul28x21, a: u64, b: u64) -> u64 {
    v.set_a(a);
    v.set_b(b);
    v.eval();
    v.p()
}

/// The three agree on every pair, applied in sequence to one instance of each.
fn check_all(pairs: &[(u64, u64)]) {
    let mut hdl = HdlMul::new();
    let mut v = VWideMul28x21::new();
    v.eval();
    for &(a, b) in pairs {
        let want = formula(a, b);
        assert_eq!(hdl.mul(a, b), want, "rust-hdl: {a:#x} * {b:#x}");
        assert_eq!(
            verilated_mul(&mut v, a, b),
            want,
            "verilated: {a:#x} * {b:#x}"
        );
    }
}

/// Operands biased towards the edges: 0, 1, all ones, single bits, and anything.
fn operand(max: u64, bits: u32) -> impl Strategy<Value = u64> {
    prop_oneof![
        Just(0),
        Just(1),
        Just(max),
        Just(max - 1),
        (0..bits).prop_map(|k| 1u64 << k),
        0..=max,
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn three_way_random(pairs in prop::collection::vec((operand(A_MAX, 28), operand(B_MAX, 21)), 1..32)) {
        check_all(&pairs);
    }
}

#[test]
fn three_way_corners() {
    let edges_a = [0, 1, 2, A_MAX - 1, A_MAX, 1 << 27, 0x5555555, 0xAAAAAAA];
    let edges_b = [0, 1, 2, B_MAX - 1, B_MAX, 1 << 20, 0x155555, 0x0AAAAA];
    let pairs: Vec<(u64, u64)> = edges_a
        .iter()
        .flat_map(|&a| edges_b.iter().map(move |&b| (a, b)))
        .collect();
    check_all(&pairs);
    assert_eq!(
        formula(A_MAX, B_MAX) >> 48,
        1,
        "the full product uses all 49 bits"
    );
}

#[test]
fn ports_come_from_rust_hdl() {
    assert_eq!(PORTS, &[("a", 28, "in"), ("b", 21, "in"), ("p", 49, "out")]);
}

#[test]
fn vcd_names_the_ports() {
    let path = std::env::temp_dir().join(format!("wide_mul_vcd_{}.vcd", std::process::id()));
    let mut v = VWideMul28x21::new();
    v.open_vcd(&path).expect("open VCD");
    for (t, (a, b)) in [(0, 0), (3, 5), (A_MAX, B_MAX)].into_iter().enumerate() {
        verilated_mul(&mut v, a, b);
        v.dump_vcd(t as u64);
    }
    v.close_vcd();
    let text = std::fs::read_to_string(&path).expect("VCD written");
    let _ = std::fs::remove_file(&path);
    for decl in [" a [27:0] $end", " b [20:0] $end", " p [48:0] $end"] {
        assert!(
            text.contains(decl),
            "{decl:?} missing from the VCD:\n{text}"
        );
    }
    let full = format!("b{:b} ", formula(A_MAX, B_MAX));
    assert!(
        text.contains(&full),
        "the last product is not in the VCD:\n{text}"
    );
}

#[test]
fn vcd_open_fails_cleanly() {
    let mut v = VWideMul28x21::new();
    assert!(v.open_vcd("/nonexistent-dir/x.vcd").is_err());
    v.dump_vcd(0); // no VCD open: a no-op
}

#[cfg(debug_assertions)]
#[test]
#[should_panic(expected = "does not fit in 28 bits")]
fn oversized_inputs_are_caught_in_debug() {
    VWideMul28x21::new().set_a(1 << 28);
}
