//! Three-way lock-step tests of the core with the pacer inside (`PacedCore`, 64 QPs): the
//! golden paced core (the golden core and the golden pacer joined by the glue's rules),
//! rust-hdl's own simulation and the Verilated Verilog get the same pins every cycle and
//! must agree on every output every cycle: the core's (readies, rate reports, CNP
//! requests, counters), the doorbell's ready, the grants on `m_tx_*` and the pacer's
//! counters.
//!
//! Stimulus: the core's random steps (`core_stimulus::strategies::core_case`: every stream,
//! all four modes, ACKs of real flows, out-of-range QPs, backpressure) with a doorbell on
//! about a third of the steps and the port ready on three in four. After the steps the run
//! drains with the port not ready until every grant the port took has its RP report.
//!
//! A failure prints the shrunk steps and writes a VCD of the Verilated run to
//! `target/tmp/paced_core_three_way/<test>.vcd`. `ROCE_CC_CASES=N` sets the number of cases.

use proptest::prelude::*;
use roce_cc_params::Params;
use roce_cc_sim::core_stimulus::{CoreRun, CoreStep, strategies};
use roce_cc_sim::core_top::MODE_HPCC;
use roce_cc_sim::dcqcn_rp::RpKind;
use roce_cc_sim::hpcc_window::{Ack, Hop};
use roce_cc_sim::lockstep::{cases_from_env_or, failure_vcd, three_way};
use roce_cc_sim::paced_harness::{GoldenPacedCycle, HdlPaced};
use roce_cc_sim::paced_stimulus::{
    PaceRun, PaceStep, describe_paced_steps, run_paced_lockstep, strategies as pace,
};
use roce_cc_sim::verilated::VerilatedPaced;
use std::path::PathBuf;

type Hdl64 = HdlPaced<6, 1, 2, 7, 20, 64>;

fn check(
    test: &str,
    golden: &mut GoldenPacedCycle,
    p: &Params,
    steps: &[CoreStep],
    pace: &[PaceStep],
) -> Result<(CoreRun, PaceRun), TestCaseError> {
    let vcd = failure_vcd(
        &PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("paced_core_three_way"),
        test,
    );
    let (core, run) = three_way(
        golden,
        &mut Hdl64::new(p),
        || VerilatedPaced::exact(p).expect("a 64-QP Verilated paced core is built"),
        &vcd,
        |duts| run_paced_lockstep(p, steps, pace, duts),
    )
    .map_err(|(m, vcd)| {
        TestCaseError::fail(format!(
            "{m}\nparameters:\n{}\nsteps up to the mismatch:\n{}{vcd}",
            p.to_toml_string(),
            describe_paced_steps(steps, pace, m.step)
        ))
    })?;
    let all = |e: String| {
        TestCaseError::fail(format!(
            "{e}\nparameters:\n{}\nsteps:\n{}",
            p.to_toml_string(),
            describe_paced_steps(steps, pace, usize::MAX - 1)
        ))
    };
    core.every_event_accounted().map_err(all)?;
    run.grants_accounted().map_err(all)?;
    Ok((core, run))
}

/// Default cases of `paced_core_three_way_random`: 8 (`ROCE_CC_CASES=N` runs N).
const PACED_CASES: u32 = 8;

proptest! {
    #![proptest_config(ProptestConfig {
        cases: cases_from_env_or(PACED_CASES),
        max_shrink_iters: 1000,
        .. ProptestConfig::default()
    })]

    /// Random core parameters and steps, doorbells and port readiness, up to 150 cycles.
    #[test]
    fn paced_core_three_way_random(
        (p, steps, pace) in strategies::core_case(64, 150).prop_flat_map(|(p, steps)| {
            let n = steps.len();
            (Just(p), Just(steps), proptest::collection::vec(pace::pace_step(64), n))
        })
    ) {
        check("paced_core_three_way_random", &mut GoldenPacedCycle::new(&p), &p, &steps, &pace)?;
    }
}

fn idle_step() -> CoreStep {
    CoreStep {
        dt: 1,
        ctl: None,
        cnp: None,
        tx: None,
        query: None,
        rx: None,
        ack: None,
        rate_ready: true,
        cnp_ready: true,
    }
}

/// The loop closed inside the core, one cycle per step (`now` and the pacer's cycle count
/// advance together, 50 MHz): QP 1 in host mode at 2 Gb/s, QP 2 in host mode at 8 Gb/s, QP 3 off
/// (the line rate), QP 4 in DCQCN mode hit by CNPs; each is posted 40 KB and the port is
/// always ready. The grants must follow the rates the core reported to the pacer (QP 1's
/// packets 4 times as far apart as QP 2's, at the spacing its rate gives), every grant must
/// reach the RP (its report), the DCQCN QP's rate must be cut by its CNPs, and the port's
/// idle cycles must be counted.
#[test]
fn paced_core_closes_the_loop() {
    let p = Params {
        qps: 64,
        clock_mhz: 50,
        line_rate_mbps: 100_000,
        ..Params::default()
    };
    let n = 10_000usize;
    let mut steps = vec![idle_step(); n];
    let mut pace = vec![
        PaceStep {
            post: None,
            tx_ready: true
        };
        n
    ];
    let set = |mode, mbps: u32| RpKind::SetMode {
        mode,
        rate_q8: mbps << 8,
    };
    steps[0].ctl = Some((1, set(1, 2_000)));
    steps[1].ctl = Some((2, set(1, 8_000)));
    steps[2].ctl = Some((3, set(2, 0)));
    // The modes' reports reach the pacer about 140 cycles later; the doorbells follow.
    for (i, q) in [1u32, 2, 3, 4].into_iter().enumerate() {
        pace[400 + i].post = Some((q, 40_960));
    }
    for k in 0..20 {
        steps[600 + 50 * k].cnp = Some(4);
    }
    let (core, run) = check(
        "paced_core_closes_the_loop",
        &mut GoldenPacedCycle::new(&p),
        &p,
        &steps,
        &pace,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let times = |q: u32| -> Vec<u64> {
        run.grants
            .iter()
            .filter(|g| g.1 == q)
            .map(|g| g.0)
            .collect()
    };
    assert!(
        run.grants.iter().all(|g| (1..=p.mtu_bytes).contains(&g.2)),
        "a grant empty or larger than the MTU"
    );
    // Every QP sends its whole 40 KB as ten packets of 4096 bytes: QP 3 (off) back to
    // back, QP 2 (8 Gb/s) one per 4096 * 8 / 8000 us = 4.096 us = 204.8 cycles at 50 MHz,
    // QP 1 (2 Gb/s) one per 819.2 cycles. The schedule keeps a fraction of a cycle, so
    // each gap is less than a cycle off the exact one.
    for (q, gap) in [(1u32, 819.2f64), (2, 204.8)] {
        let t = times(q);
        assert_eq!(t.len(), 10, "QP {q}: {} packets", t.len());
        for w in t.windows(2) {
            assert!(
                ((w[1] - w[0]) as f64 - gap).abs() < 1.0,
                "QP {q}: grants {} cycles apart, not {gap}: {t:?}",
                w[1] - w[0]
            );
        }
    }
    assert_eq!(times(3).len(), 10, "QP 3 (off) sends its whole backlog");
    assert!(!times(4).is_empty(), "QP 4 (DCQCN) was never granted");
    let c = run.last.counts;
    assert!(c.port_idle > 9_000, "port idle cycles {}", c.port_idle);
    assert!(
        core.last.rate_cuts > 0,
        "the DCQCN QP's rate was never cut ({:?})",
        core.last
    );
    assert!(
        core.rates
            .iter()
            .any(|r| r.qp == 4 && r.report.limited && r.report.rc_mbps_q8 < (100_000 << 8)),
        "QP 4 never reported a cut rate"
    );
}

/// The forks' memory of a take, directed: each fork (rate reports to the consumer and the
/// pacer; ACKs to the core and the pacer) must remember which side took its event while the
/// other has not, also in cycles where the side that took it is not ready again. Random
/// stimulus rarely holds a report or an ACK in such a cycle, so this case makes them
/// common: two rounds of queries of every QP keep reports coming for a few hundred cycles
/// while the consumer is ready two cycles in three; back-to-back ACKs of three HPCC QPs in
/// turn keep the pacer's side input alternating between reports and ACKs; and mode
/// commands for forty more QPs hold an ACK the core took in its filter register (an HPCC
/// QP's ACK waits there while a command is in the core's command slice), so the core has
/// no room while the pacer still owes its take. The golden model counts the
/// cycles of each kind (`ForkCover`) and every kind must occur.
#[test]
fn paced_core_forks_remember_a_take() {
    let p = Params {
        qps: 64,
        ..Params::default()
    };
    let n = 1_200usize;
    let mut steps = vec![idle_step(); n];
    let pace = vec![
        PaceStep {
            post: None,
            tx_ready: true
        };
        n
    ];
    // QPs 5 to 7 in HPCC mode; later, mode commands for QPs 8 to 47 (each waits in the
    // core's command slice, holding back the HPCC ACK behind it, and reports).
    let hpcc = RpKind::SetMode {
        mode: MODE_HPCC,
        rate_q8: 0,
    };
    for q in 5..8u32 {
        steps[(q - 5) as usize].ctl = Some((q, hpcc));
    }
    for (k, q) in (8..48u32).enumerate() {
        steps[200 + 5 * k].ctl = Some((q, hpcc));
    }
    for (i, s) in steps.iter_mut().enumerate().skip(3).take(128) {
        s.query = Some((i % 64) as u32);
    }
    for (i, s) in steps.iter_mut().enumerate().take(n - 200).skip(20) {
        s.rate_ready = i % 3 != 0;
        let k = i as u32;
        let mut ack = Ack {
            seq: 1_000 * k,
            snd_nxt: 1_000 * k + 20_000,
            nhop: 1,
            ..Ack::default()
        };
        ack.hops[0] = Hop {
            rate: 5,
            ts: (k * 40) & 0xff_ffff,
            tx: (k * 8) & 0xf_ffff,
            qlen: k % 50,
        };
        s.ack = Some((5 + k % 3, ack));
    }
    let mut golden = GoldenPacedCycle::new(&p);
    check(
        "paced_core_forks_remember_a_take",
        &mut golden,
        &p,
        &steps,
        &pace,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let c = golden.fork_cover();
    assert!(
        c.rate_pacer_took_not_ready > 0
            && c.rate_ext_took_not_ready > 0
            && c.ack_core_took_not_ready > 0
            && c.ack_pacer_took_not_ready > 0,
        "a fork case never occurred: {c:?}"
    );
    eprintln!("fork coverage: {c:?}");
}
