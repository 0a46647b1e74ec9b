//! Three-way lock-step tests of the DCQCN notification point and its CNP rate limiter: the
//! golden model (with the NP's pipeline timing), rust-hdl's own simulation and the
//! Verilated Verilog get the same random pins every cycle and must agree on every output
//! (ready, CNP requests, counters) every cycle.
//!
//! Stimulus (`core_stimulus::strategies`): both modes (per_flow, per_port), limit 0, short
//! windows or any up to the maximum, any clock, DSCP and priority; packets from a hot set
//! of QPs (back-to-back marks on one QP) or any QP, mostly CE and sometimes not; time steps
//! from 0 cycles to seconds; random backpressure on the CNP output.
//!
//! On a mismatch the failure message has the shrunk step list and the path of a VCD of the
//! Verilated run (`target/tmp/np_three_way/<test>.vcd`). `ROCE_CC_CASES=N` sets the number
//! of proptest cases (default 64).

use proptest::prelude::*;
use roce_cc_params::{CnpModeration, Params};
use roce_cc_sim::core_stimulus::{NpStep, describe_np_steps, run_np_lockstep, strategies};
use roce_cc_sim::lockstep::{Named, cases_from_env, failure_vcd, three_way};
use roce_cc_sim::np_harness::{GoldenNpCycle, HdlNp, NpOuts, NpPins};
use roce_cc_sim::verilated::VerilatedNp;
use std::path::PathBuf;

fn check(test: &str, p: &Params, steps: &[NpStep]) -> Result<(), TestCaseError> {
    let vcd = failure_vcd(
        &PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("np_three_way"),
        test,
    );
    three_way(
        &mut GoldenNpCycle::new(p),
        &mut HdlNp::<4>::new(p),
        || VerilatedNp::new(p).expect("a 16-QP Verilated NP is built"),
        &vcd,
        |duts| run_np_lockstep(p, steps, duts),
    )
    .map_err(|(m, vcd)| {
        TestCaseError::fail(format!(
            "{m}\nparameters:\n{}\nsteps up to the mismatch:\n{}{vcd}",
            p.to_toml_string(),
            describe_np_steps(steps, m.step)
        ))
    })?
    .every_mark_decided()
    .map_err(|e| {
        TestCaseError::fail(format!(
            "{e}\nparameters:\n{}\nsteps:\n{}",
            p.to_toml_string(),
            describe_np_steps(steps, usize::MAX - 1)
        ))
    })
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: cases_from_env(),
        max_shrink_iters: 4000,
        .. ProptestConfig::default()
    })]

    /// Random NP parameters (both modes), up to 300 cycles of random packets on 16 QPs.
    #[test]
    fn np_three_way_random((p, steps) in strategies::np_case(16, 300)) {
        check("np_three_way_random", &p, &steps)?;
    }
}

/// Each mode and the backpressure path, on a fixed stream that exercises them (so a
/// strategy change cannot silently stop covering them): marks on the hot QPs every few
/// cycles for 4000 cycles with the CNP consumer ready 2 cycles in 3.
#[test]
fn np_every_mode_with_backpressure() {
    let modes = [
        (CnpModeration::PerFlow, 4),
        (CnpModeration::PerPort, 4),
        (CnpModeration::PerFlow, 0),
    ];
    for (mode, limit_us) in modes {
        let p = Params {
            qps: 16,
            clock_mhz: 10,
            min_time_between_cnps: limit_us,
            cnp_moderation: mode,
            ..Params::default()
        };
        let mut rng = roce_cc_sim::stimulus::XorShift::new(limit_us as u64 + mode as u64);
        let steps: Vec<NpStep> = (0..4000)
            .map(|i| NpStep {
                dt: rng.below(3),
                clr: (i % 97 == 0).then(|| rng.below(6) as u32),
                rx: (rng.below(3) > 0)
                    .then(|| (rng.below(6) as u32, if i % 7 == 0 { 1 } else { 3 })),
                cnp_ready: rng.below(3) > 0,
            })
            .collect();
        let mut g = GoldenNpCycle::new(&p);
        let mut h = HdlNp::<4>::new(&p);
        let mut v = VerilatedNp::new(&p).unwrap();
        let mut duts: Vec<Named<NpPins, NpOuts>> = vec![
            ("golden", &mut g),
            ("rust-hdl", &mut h),
            ("verilator", &mut v),
        ];
        let run = run_np_lockstep(&p, &steps, &mut duts).unwrap_or_else(|m| {
            panic!(
                "{mode:?} {limit_us} us: {m}\n{}",
                describe_np_steps(&steps, m.step)
            )
        });
        run.every_mark_decided()
            .unwrap_or_else(|e| panic!("{mode:?} {limit_us} us: {e}"));
        let (cnps, c) = (&run.cnps, run.last.counts);
        // Per flow, RAM reads meet W1's write of their QP (rust-hdl's RAM then gives the new
        // word, Verilator's the old): the agreement above shows the NP never uses them.
        if mode == CnpModeration::PerFlow {
            let collisions = h.state_ram_collisions();
            assert!(
                collisions > 10,
                "{mode:?}: only {collisions} colliding RAM reads"
            );
        }
        assert_eq!(
            cnps.len() as u64,
            c.sent,
            "{mode:?}: every decided CNP came out"
        );
        assert!(c.stall > 20, "{mode:?}: backpressure exercised ({c:?})");
        if limit_us == 0 {
            assert_eq!(c.suppressed, 0, "no limit suppresses nothing");
        } else {
            assert!(c.suppressed > c.sent, "{mode:?}: the limiter acted ({c:?})");
        }
        if mode == CnpModeration::PerPort {
            // 4 us at 10 MHz = 40 cycles: one CNP per window for the whole port.
            assert!(
                c.sent <= 8_000 / 40 + 1,
                "per_port sends at most one per window ({c:?})"
            );
        }
        assert!(cnps.iter().all(|r| r.dscp == 48 && r.prio == 6));
    }
}
