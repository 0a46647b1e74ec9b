//! Stepping rust-hdl's own simulation of a top, shared by every unit's harness.

use rust_hdl::prelude::*;

/// Let rust-hdl's simulation of `uut` settle after its inputs changed.
pub fn settle<B: Block>(uut: &mut B) {
    assert!(simulate(uut, 1000), "rust-hdl simulation did not settle");
}

/// One clock cycle: the inputs set since the last call settle with the clock low, then the
/// rising edge (the flip-flops take their inputs), then the falling edge. `clock` picks the
/// top's clock input.
///
/// The first settle matters: rust-hdl's simulation moves a value one signal per pass, so an
/// input changed in the same pass as the clock reaches a flip-flop through a combinational
/// child block (`RpNear`'s `NearCheck`s) a pass after the flip-flop has sampled, while the
/// Verilog samples the settled value.
pub fn tick<B: Block>(uut: &mut B, clock: fn(&mut B) -> &mut Signal<In, Clock>) {
    settle(uut);
    clock(uut).next = Clock { clk: true };
    settle(uut);
    clock(uut).next = Clock { clk: false };
    settle(uut);
}
