//! Stepping rust-hdl's own simulation of a top, shared by every unit's harness.

use rust_hdl::prelude::*;

/// Let rust-hdl's simulation of `uut` settle after its inputs changed.
pub fn settle<B: Block>(uut: &mut B) {
    assert!(simulate(uut, 1000), "rust-hdl simulation did not settle");
}

/// One clock cycle's edges: rising (the flip-flops take their inputs), then falling.
/// `clock` picks the top's clock input.
pub fn tick<B: Block>(uut: &mut B, clock: fn(&mut B) -> &mut Signal<In, Clock>) {
    clock(uut).next = Clock { clk: true };
    settle(uut);
    clock(uut).next = Clock { clk: false };
    settle(uut);
}
