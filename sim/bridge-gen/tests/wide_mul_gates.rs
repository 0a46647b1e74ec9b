//! The static gates on `WideMul`'s Verilog, in every operand/output shape it allows:
//! `verilator --lint-only -Wall` with no waivers at all, and yosys synthesis with no latch.

use roce_cc_bridge_gen::{lint_top, yosys_check};
use roce_cc_hdl::verilog_of;
use roce_cc_hdl::wide_mul::WideMul;
use std::path::PathBuf;

/// A scratch directory for one test, removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new(tag: &str) -> Self {
        let dir = std::env::temp_dir().join(format!("wide_mul_gates_{}_{tag}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        Self(dir)
    }

    fn file(&self, name: &str, text: &str) -> PathBuf {
        let path = self.0.join(name);
        std::fs::write(&path, text).unwrap();
        path
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Lints and synthesises the Verilog of one shape.
fn gates(tag: &str, verilog: String) {
    let dir = Scratch::new(tag);
    let v = dir.file("top.v", &verilog);
    let no_waivers = dir.file("none.vlt", "`verilator_config\n");
    lint_top(&v, &no_waivers).unwrap_or_else(|e| panic!("{tag}: lint\n{e}\n{verilog}"));
    let stats = yosys_check(&v).unwrap_or_else(|e| panic!("{tag}: yosys\n{e}\n{verilog}"));
    assert!(!stats.contains("DLATCH"), "{tag}: {stats}");
}

#[test]
fn full_product_28x21() {
    gates("28x21_49", verilog_of(WideMul::<28, 21, 49>::new()));
}

#[test]
fn output_narrower_than_an_operand() {
    gates("32x8_16", verilog_of(WideMul::<32, 8, 16>::new()));
}

#[test]
fn output_as_wide_as_an_operand() {
    gates("20x10_20", verilog_of(WideMul::<20, 10, 20>::new()));
}

#[test]
fn truncated_64_bit() {
    gates("64x64_64", verilog_of(WideMul::<64, 64, 64>::new()));
}

#[test]
fn one_bit() {
    gates("1x1_1", verilog_of(WideMul::<1, 1, 1>::new()));
}
