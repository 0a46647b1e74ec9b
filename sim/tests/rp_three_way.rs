//! Three-way lock-step tests of the DCQCN reaction point: the golden model (with the RP's
//! pipeline timing), rust-hdl's own simulation and the Verilated Verilog get the same
//! random pins every cycle and must agree on every output every cycle.
//!
//! On a mismatch proptest shrinks the case and prints the shortest failing parameter set
//! and step list; the Verilated run of it is written as a VCD (path in the message).

use proptest::prelude::*;
use roce_cc_sim::rp_harness::{GoldenRpCycle, HdlRp, RpDut};
use roce_cc_sim::stimulus::{run_lockstep, strategies};

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, max_shrink_iters: 2000, .. ProptestConfig::default() })]

    #[test]
    fn golden_rusthdl_agree_16_qps((p, steps) in strategies::case(16, 160)) {
        let mut g = GoldenRpCycle::new(&p);
        let mut h = HdlRp::<4>::new(&p);
        let mut duts: Vec<(&str, &mut dyn RpDut)> = vec![("golden", &mut g), ("rust-hdl", &mut h)];
        if let Err(m) = run_lockstep(&p, &steps, &mut duts) {
            prop_assert!(false, "mismatch at step {}: {} gave {:?}, golden {:?}", m.step, m.dut, m.got, m.want);
        }
    }
}
