//! Three-way lock-step tests of the core top (`roce_cc_core`): the golden core (the golden
//! RP, NP and HPCC window unit with their pipeline timing behind the QP checks, the ACK
//! filter and the report merge), rust-hdl's own simulation and the Verilated Verilog get
//! the same random pins every cycle and must agree on every output every cycle: ready of
//! all six input streams, rate reports (HPCC's U and window included), CNP requests,
//! `busy` and all eleven counters.
//!
//! Stimulus (`core_stimulus::strategies`): random RP and NP parameters across their ranges
//! (both CNP modes), every input stream offered at random (idle cycles on every input, all
//! at once), set-modes to all four modes, ACKs of real flows (wrapping fields, path
//! changes, 1 to 5 hops, and rejected ones: hop counts 0, 6, 7), QP numbers from a hot set,
//! any in range, or out of range up to 24 bits; time steps from 0 cycles to seconds;
//! random backpressure on both outputs.
//!
//! A failure prints the shrunk step list and writes a VCD of the Verilated run to
//! `target/tmp/core_three_way/<test>.vcd`. `ROCE_CC_CASES=N` sets the number of cases.

use proptest::prelude::*;
use roce_cc_params::{CnpModeration, Params};
use roce_cc_sim::core_harness::{CoreOuts, CorePins, GoldenCoreCycle, HdlCore};
use roce_cc_sim::core_stimulus::{
    CoreRun, CoreStep, describe_core_steps, run_core_lockstep, strategies,
};
use roce_cc_sim::core_top::MODE_HPCC;
use roce_cc_sim::dcqcn_rp::RpKind;
use roce_cc_sim::lockstep::{Named, cases_from_env_or, failure_vcd, three_way};
use roce_cc_sim::stimulus::XorShift;
use roce_cc_sim::verilated::VerilatedCore;
use std::path::PathBuf;

fn check(test: &str, p: &Params, steps: &[CoreStep]) -> Result<(), TestCaseError> {
    let vcd = failure_vcd(
        &PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("core_three_way"),
        test,
    );
    three_way(
        &mut GoldenCoreCycle::new(p),
        &mut HdlCore::<4>::new(p),
        || VerilatedCore::exact(p).expect("a 16-QP Verilated core is built"),
        &vcd,
        |duts| run_core_lockstep(p, steps, duts),
    )
    .map_err(|(m, vcd)| {
        TestCaseError::fail(format!(
            "{m}\nparameters:\n{}\nsteps up to the mismatch:\n{}{vcd}",
            p.to_toml_string(),
            describe_core_steps(steps, m.step)
        ))
    })?
    .every_event_accounted()
    .map_err(|e| {
        TestCaseError::fail(format!(
            "{e}\nparameters:\n{}\nsteps:\n{}",
            p.to_toml_string(),
            describe_core_steps(steps, usize::MAX - 1)
        ))
    })
}

/// Default cases of `core_three_way_random`: 16 (`ROCE_CC_CASES=N` runs N). A case runs
/// rust-hdl's simulation of the core (RP and NP, 16 QPs) for up to 200 cycles of events,
/// several seconds on a 2-core machine; every CI run draws new ones, and the long
/// campaign (`ROCE_CC_LONG=1`) compares 10^8 cycles.
const CORE_CASES: u32 = 16;

proptest! {
    #![proptest_config(ProptestConfig {
        cases: cases_from_env_or(CORE_CASES),
        max_shrink_iters: 2000,
        .. ProptestConfig::default()
    })]

    /// Random RP and NP parameters, up to 200 cycles on 16 QPs.
    #[test]
    fn core_three_way_random((p, steps) in strategies::core_case(16, 200)) {
        check("core_three_way_random", &p, &steps)?;
    }
}

/// A fixed busy stream through the core in each CNP mode: every stream loaded, 1 in 10
/// QP numbers out of range, both outputs ready 2 cycles in 3; QPs 0..=5 put into HPCC mode
/// early (QP 5 back to DCQCN later, QP 6 into host mode) while ACKs of real flows arrive
/// for QPs in and out of HPCC mode. Checks that the run exercised what the random test is
/// meant to cover (rejections on every stream, stalls, suppression, limited QPs, ACKs
/// applied, committed and ignored, HPCC queries) and that the counters agree with what
/// came out.
#[test]
fn core_every_mode_loaded() {
    for mode in [CnpModeration::PerFlow, CnpModeration::PerPort] {
        let p = Params {
            qps: 16,
            clock_mhz: 20,
            cnp_moderation: mode,
            ..Params::default()
        };
        let mut rng = XorShift::new(mode as u64 + 11);
        let qpn = |rng: &mut XorShift| {
            if rng.below(10) == 0 {
                16 + rng.below((1 << 24) - 16) as u32
            } else {
                rng.below(16) as u32
            }
        };
        // All 16 QPs, so that the RP's same-QP interlock (a QP written by an event in
        // flight waits) still lets queries through; the last 2000 cycles offer few writes
        // (a query waits behind any writer of its QP, and the same-QP interval is
        // `UPD_STAGES + 1`, over a hundred cycles).
        let mut steps: Vec<CoreStep> = (0..6000)
            .map(|i| CoreStep {
                ctl: match i {
                    _ if i % 40 != 0 || i >= 40 * 8 => None,
                    280 => Some((
                        5,
                        RpKind::SetMode {
                            mode: 0,
                            rate_q8: 0,
                        },
                    )),
                    240 => Some((
                        6,
                        RpKind::SetMode {
                            mode: 1,
                            rate_q8: 5000 << 8,
                        },
                    )),
                    _ => Some((
                        (i / 40) as u32,
                        RpKind::SetMode {
                            mode: MODE_HPCC,
                            rate_q8: 0,
                        },
                    )),
                },
                dt: rng.below(4),
                cnp: (rng.below(if i < 4000 { 4 } else { 32 }) == 0).then(|| qpn(&mut rng)),
                tx: (rng.below(if i < 4000 { 2 } else { 32 }) == 0)
                    .then(|| (qpn(&mut rng), 1 + rng.below(4096) as u32)),
                query: (rng.below(3) == 0).then(|| qpn(&mut rng)),
                rx: (rng.below(2) == 0).then(|| (qpn(&mut rng), 3)),
                ack: None,
                rate_ready: rng.below(3) > 0,
                cnp_ready: rng.below(3) > 0,
            })
            .collect();
        // ACKs on about 3 steps in 4 (on 16 QPs, QPs 0..=2 hot), 1 in 12 of them rejected.
        let raw: Vec<(u64, u64, u8)> = (0..steps.len())
            .map(|_| {
                let ev = rng.next_u64();
                let ev = if rng.below(4) == 0 { ev & !0xf8 } else { ev };
                (ev, rng.next_u64(), rng.below(24) as u8)
            })
            .collect();
        strategies::with_acks(&p, &mut steps, mode as u64 + 5, &raw);
        let mut g = GoldenCoreCycle::new(&p);
        let mut h = HdlCore::<4>::new(&p);
        let mut v = VerilatedCore::exact(&p).unwrap();
        let mut duts: Vec<Named<CorePins, CoreOuts>> = vec![
            ("golden", &mut g),
            ("rust-hdl", &mut h),
            ("verilator", &mut v),
        ];
        let run = run_core_lockstep(&p, &steps, &mut duts)
            .unwrap_or_else(|m| panic!("{mode:?}: {m}\n{}", describe_core_steps(&steps, m.step)));
        run.every_event_accounted()
            .unwrap_or_else(|e| panic!("{mode:?}: {e}"));
        let o = run.last;
        // Out-of-range QPs on every stream were offered, taken and counted.
        assert!(run.rejected.iter().all(|&n| n > 0), "{:?}", run.rejected);
        assert!(o.bad_qp.rx > 50, "{o:?}");
        assert_eq!(run.cnps.len() as u64, o.np.sent, "{mode:?}");
        assert!(o.np.stall > 10 && o.np.suppressed > 50, "{mode:?}: {o:?}");
        assert!(run.rates.iter().all(|r| r.qp < 16));
        assert!(run.rates.iter().any(|r| r.report.limited));
        let queries = run.rates.iter().filter(|r| r.query).count();
        assert!(queries > 100, "{mode:?}: {queries} query answers");
        // HPCC: ACKs applied, committed, ignored (QPs not in HPCC mode), rejected; the
        // window unit's answers to queries; rates moved away from the max rate.
        let a = o.acks;
        assert!(
            a.applied > 500 && a.commits > 50 && a.ignored > 100,
            "{a:?}"
        );
        assert!(o.bad_qp.ack > 20, "{o:?}");
        let acked = run
            .rates
            .iter()
            .filter(|r| CoreRun::is_ack_report(r))
            .count();
        assert_eq!(acked as u32, a.applied);
        let hq = run
            .rates
            .iter()
            .filter(|r| r.query && r.mode == MODE_HPCC)
            .count();
        assert!(hq > 20, "{mode:?}: {hq} HPCC query answers");
        let max_q8 = p.max_rate_mbps() << 8;
        assert!(
            run.rates
                .iter()
                .any(|r| r.mode == MODE_HPCC && r.report.rc_mbps_q8 < max_q8 && r.window > 0),
            "no HPCC rate below the max rate"
        );
    }
}
