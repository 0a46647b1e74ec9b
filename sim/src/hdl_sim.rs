//! Stepping rust-hdl's own simulation of a top, shared by every unit's harness.

use rust_hdl::prelude::*;

/// Let rust-hdl's simulation of `uut` settle after its inputs changed.
pub fn settle<B: Block>(uut: &mut B) {
    settle_within(uut, 1000);
}

/// [`settle`] with at most `passes` passes (a top with long combinational chains of child
/// blocks needs more than the default 1000).
pub fn settle_within<B: Block>(uut: &mut B, passes: usize) {
    assert!(
        simulate(uut, passes),
        "rust-hdl simulation did not settle in {passes} passes"
    );
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
    tick_within(uut, clock, 1000);
}

/// [`tick`] with at most `passes` passes per settle (see [`settle_within`]).
pub fn tick_within<B: Block>(
    uut: &mut B,
    clock: fn(&mut B) -> &mut Signal<In, Clock>,
    passes: usize,
) {
    settle_within(uut, passes);
    clock(uut).next = Clock { clk: true };
    settle_within(uut, passes);
    clock(uut).next = Clock { clk: false };
    settle_within(uut, passes);
}
