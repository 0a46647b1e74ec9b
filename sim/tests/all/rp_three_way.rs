//! Three-way lock-step tests of the DCQCN reaction point: the golden model (with the RP's
//! pipeline timing), rust-hdl's own simulation and the Verilated Verilog get the same
//! random pins every cycle and must agree on every output every cycle.
//!
//! Stimulus (`stimulus::strategies`): random parameters across their full ranges, random
//! QPs from a hot set (repeats, back-to-back hits on one QP) or any QP, time steps from 0
//! cycles to seconds of idle, all four input streams at once, random backpressure on the
//! report stream. Each input holds its event until the RP takes it (the stream rule), the
//! run drains until every accepted event is reported, and each test asserts that every
//! accepted event got its report, each QP's in the order they were accepted.
//!
//! On a mismatch proptest shrinks the case; the failure message holds the shortest failing
//! step list, and the Verilated run of that case is written as a VCD whose path is in the
//! message (`target/tmp/rp_three_way/<test>.vcd`; open it with GTKWave).
//!
//! `ROCE_CC_CASES=N` sets the number of proptest cases (default 16, [`RP_CASES`]); the long
//! campaign is `rp_long_campaign.rs`.

use proptest::prelude::*;
use roce_cc_params::Params;
use roce_cc_sim::lockstep::{cases_from_env_or, failure_vcd, three_way};
use roce_cc_sim::rp_harness::{GoldenRpCycle, HdlRp};
use roce_cc_sim::stimulus::{RpRun, Step, describe_steps, run_lockstep, strategies};
use roce_cc_sim::verilated::VerilatedRp;
use std::path::PathBuf;

/// Where the VCD of a failing case goes.
fn vcd_path(test: &str) -> PathBuf {
    failure_vcd(
        &PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("rp_three_way"),
        test,
    )
}

/// Runs one case three ways; on a mismatch the Verilated model runs alone again with a VCD
/// (proptest calls this for every shrink step, so the file left is the shortest case's).
/// Returns what the run accepted and reported.
fn check(test: &str, p: &Params, steps: &[Step]) -> Result<RpRun, TestCaseError> {
    let run = three_way(
        &mut GoldenRpCycle::new(p),
        &mut HdlRp::<4>::new(p),
        || VerilatedRp::exact(p).expect("a 16-QP Verilated RP is built"),
        &vcd_path(test),
        |duts| run_lockstep(p, steps, duts),
    )
    .map_err(|(m, vcd)| {
        TestCaseError::fail(format!(
            "{m}\nparameters:\n{}\nsteps up to the mismatch:\n{}{vcd}",
            p.to_toml_string(),
            describe_steps(steps, m.step)
        ))
    })?;
    run.every_event_reported().map_err(|e| {
        TestCaseError::fail(format!(
            "{e}\nparameters:\n{}\nsteps:\n{}",
            p.to_toml_string(),
            describe_steps(steps, usize::MAX - 1)
        ))
    })?;
    Ok(run)
}

/// Default cases of each property: 16 (`ROCE_CC_CASES=N` runs N). Each case is up to 600
/// events through rust-hdl's simulation of the RP, several seconds on a 2-core machine,
/// and every CI run draws new ones; the long campaign (`rp_long_campaign`) runs 10^8
/// cycles.
const RP_CASES: u32 = 16;

proptest! {
    #![proptest_config(ProptestConfig {
        cases: cases_from_env_or(RP_CASES),
        max_shrink_iters: 4000,
        .. ProptestConfig::default()
    })]

    /// Random parameters, up to 200 cycles of random events on 16 QPs.
    #[test]
    fn three_way_random_16_qps((p, steps) in strategies::case(16, 200)) {
        check("three_way_random_16_qps", &p, &steps)?;
    }

    /// The connectx defaults, longer streams: the profile users start from.
    #[test]
    fn three_way_connectx_16_qps(steps in proptest::collection::vec(strategies::step(16, 250), 1..=600)) {
        let p = Params { qps: 16, ..Params::default() };
        check("three_way_connectx_16_qps", &p, &steps)?;
    }
}

/// Followers across the increase timer's radix wrap, a case random stimulus seldom builds:
/// one QP, rate-limited by a CNP every 2 us, sends a packet every 10 cycles at 100 MHz
/// (100 cycles per microsecond) for 6 us, with the increase period 1, 2 and 3 us. Each
/// packet follows the one 10 cycles before it, and at every microsecond boundary the
/// writer's increase-timer remainder is often the period's last microsecond, so the
/// follower check's "next microsecond" must take the wrap (remainder `p_inc - 1` to 0, the
/// epoch one on). An RP that refused those followers would hold each boundary's packet
/// until its writer left the window: the three-way compare sees the reports move, and the
/// packet stream's longest wait (a few cycles when every packet follows) grows to about
/// the update pipeline's length.
#[test]
fn three_way_follower_across_increase_wrap() {
    for period_us in [1u32, 2, 3] {
        let p = Params {
            qps: 16,
            clock_mhz: 100,
            rpg_time_reset: period_us,
            ..Params::default()
        };
        p.validate().expect("valid parameters");
        let steps: Vec<Step> = (0..600u32)
            .map(|c| Step {
                dt: 1,
                ctl: None,
                cnp: (c % 200 == 0).then_some(3),
                tx: (c % 10 == 5).then_some((3, 1024)),
                query: None,
                m_ready: true,
            })
            .collect();
        let run = check("three_way_follower_across_increase_wrap", &p, &steps)
            .unwrap_or_else(|e| panic!("increase period {period_us} us: {e}"));
        let tx = run.sources[2];
        assert_eq!(tx.accepted, 60, "increase period {period_us} us: {tx:?}");
        assert!(
            tx.longest_wait < 20,
            "increase period {period_us} us: a packet waited {} cycles; every packet \
             should follow the one 10 cycles before it ({tx:?})",
            tx.longest_wait
        );
    }
}
