//! Two of the RP update's arithmetic blocks alone, rust-hdl's simulation against the golden
//! functions they implement, one input per cycle: `IncRun` (golden `run`: `n` increase
//! events in closed form) and `Phases` (golden `phases`: timer events split by phase).
//!
//! The RP's three-way tests (`rp_three_way`, `rp_smoke`) reach these blocks only through
//! whole update streams, where long runs that pass the max rate a few events before their
//! end are rare: a mutant of `IncRun`'s `n >= 32` flag (register 10) passed them. Here the
//! inputs aim at the blocks' edges: run lengths around 32, 64 and 128, Rt at or near the
//! max, T and BC around the threshold. The Verilog of both blocks is the RP's and is
//! compared with Verilator there.

use proptest::prelude::*;
use roce_cc_hdl::dcqcn_rp::rate::{IncRun, PHASE_STAGES, Phases, RUN_STAGES};
use roce_cc_hdl::pipe_mul::PIPE_MUL_STAGES;
use roce_cc_params::Params;
use roce_cc_sim::dcqcn_rp::{RpConfig, phases, run};
use rust_hdl::prelude::*;

/// One clock cycle of a rust-hdl block: inputs already set, low phase, then the edge.
macro_rules! edge {
    ($b:expr) => {{
        $b.clock.next = Clock { clk: false };
        assert!(simulate(&mut $b, 50));
        $b.clock.next = Clock { clk: true };
        assert!(simulate(&mut $b, 50));
    }};
}

/// `(n, step, rc, rt, max)`: a run's inputs, with `rc <= rt <= max` as the RP keeps them
/// (Mb/s Q.8, below 2^28).
type RunIn = (u64, u32, u32, u32, u32);

fn run_in() -> impl Strategy<Value = RunIn> {
    let n = prop_oneof![
        0u64..4,
        28u64..70,
        120u64..136,
        0u64..(1 << 21),
        Just((1 << 21) - 1)
    ];
    let step = prop_oneof![Just(0u32), 1u32..(1 << 12), (1u32 << 8)..(1 << 24)];
    let reach = prop_oneof![0u64..3, 28u64..36, 0u64..64];
    (
        n,
        step,
        1u32..(1 << 28),
        0u32..(1 << 28),
        0u32..(1 << 28),
        reach,
    )
        .prop_map(|(n, step, max, a, b, reach)| {
            // Rt at, just below or well below the max, or where the run reaches the max
            // `reach` events before its end (`Rt + n step - max = reach step + a little`).
            let rt = match a % 5 {
                0 => max,
                1 => max.saturating_sub(a % 4096),
                2 => a % (max + 1),
                _ => {
                    let over = (reach.min(n.saturating_sub(1)) * step as u64)
                        + (a as u64 % step.max(1) as u64);
                    (max as u64 + over)
                        .saturating_sub(n * step as u64)
                        .min(max as u64) as u32
                }
            };
            let rc = rt - (b % (rt + 1));
            (n, step, rc, rt, max)
        })
}

/// Presents `ins` one per cycle (then zeros to drain) and checks each output
/// `RUN_STAGES` cycles after its input against `run`. The run's product input (`nstep`)
/// gets `n * step` exactly, `PIPE_MUL_STAGES` cycles after its input, as the `PipeMul`
/// beside a run in `IncSegment` gives it (`PipeMul` has its own tests).
fn inc_run_matches(ins: &[RunIn], max: u32) {
    let mut b = IncRun::default();
    b.connect_all();
    b.en.next = true;
    b.max.next = (max as u64).into();
    // The max is registered at the run's input: present it a cycle before the first event.
    b.n.next = 0.into();
    edge!(b);
    for cycle in 0..ins.len() + RUN_STAGES {
        let (n, step, rc, rt, _) = ins.get(cycle).copied().unwrap_or((0, 0, 0, 0, max));
        b.n.next = n.into();
        b.step.next = (step as u64).into();
        b.rc.next = (rc as u64).into();
        b.rt.next = (rt as u64).into();
        // The caller's product: `n * step` of the input presented `PIPE_MUL_STAGES`
        // cycles ago.
        let (pn, pstep, ..) = cycle
            .checked_sub(PIPE_MUL_STAGES)
            .and_then(|k| ins.get(k).copied())
            .unwrap_or((0, 0, 0, 0, max));
        b.nstep.next = (pn * pstep as u64).into();
        edge!(b);
        // After this edge the outputs hold the input of cycle `cycle + 1 - RUN_STAGES`.
        if let Some(k) = (cycle + 1).checked_sub(RUN_STAGES) {
            if let Some(&(n, step, rc, rt, _)) = ins.get(k) {
                let want = run(n, step, rc, rt, max);
                let got = (b.rc_o.val().to_u64() as u32, b.rt_o.val().to_u64() as u32);
                assert_eq!(
                    got, want,
                    "IncRun input {k}: n {n}, step {step}, rc {rc}, rt {rt}, max {max}"
                );
            }
        }
    }
}

/// `(k, t, bc)`: timer events and the stage counters before them (T, BC at most 63).
type PhaseIn = (u64, u32, u32);

fn phase_in() -> impl Strategy<Value = PhaseIn> {
    let k = prop_oneof![0u64..70, 0u64..(1 << 21), Just((1 << 21) - 1)];
    (k, 0u32..64, 0u32..64)
}

/// As [`inc_run_matches`] for `Phases` with threshold `th` and byte counter reset
/// `byte_reset` (0: off).
fn phases_match(ins: &[PhaseIn], th: u32, byte_reset: u32) {
    let mut cfg = RpConfig::new(&Params::default());
    cfg.threshold = th;
    cfg.byte_reset = byte_reset;
    let mut b = Phases::default();
    b.connect_all();
    b.en.next = true;
    b.th.next = (th as u64).into();
    b.byte_off.next = byte_reset == 0;
    for cycle in 0..ins.len() + PHASE_STAGES {
        let (k, t, bc) = ins.get(cycle).copied().unwrap_or((0, 0, 0));
        b.k.next = k.into();
        b.t.next = (t as u64).into();
        b.bc.next = (bc as u64).into();
        edge!(b);
        if let Some(i) = (cycle + 1).checked_sub(PHASE_STAGES) {
            if let Some(&(k, t, bc)) = ins.get(i) {
                let want = phases(&cfg, k, t, bc);
                let got = (
                    b.n_fr.val().to_u64(),
                    b.n_ai.val().to_u64(),
                    b.n_hai.val().to_u64(),
                );
                assert_eq!(
                    got, want,
                    "Phases input {i}: k {k}, t {t}, bc {bc}, threshold {th}, byte reset {byte_reset}"
                );
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(
        std::env::var("ROCE_CC_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(64)
    ))]

    #[test]
    fn inc_run_matches_the_closed_form(ins in proptest::collection::vec(run_in(), 1..40)) {
        // One max per stream (a parameter): the first input's.
        let max = ins[0].4;
        let ins: Vec<RunIn> = ins
            .into_iter()
            .map(|(n, step, rc, rt, _)| {
                let rt = rt.min(max);
                (n, step, rc.min(rt), rt, max)
            })
            .collect();
        inc_run_matches(&ins, max);
    }

    #[test]
    fn phases_match_the_golden_split(
        ins in proptest::collection::vec(phase_in(), 1..40),
        th in 1u32..32,
        byte_reset in prop_oneof![Just(0u32), 1u32..(1 << 20)],
    ) {
        phases_match(&ins, th, byte_reset);
    }
}

/// Every run length from 0 to 200, each reaching the max `r` events before its end for
/// `r` in 0..=33 (and a few Rt at or just below the max), with Rc from just below Rt to
/// far below it: the region of the shift clamps (`j = n - r - 1` against 63, `n` against
/// 32, 63 and 128).
#[test]
fn inc_run_every_short_length_near_the_max() {
    let max: u32 = 100_000 << 8;
    let step: u32 = 5 << 8;
    let mut ins = Vec::new();
    for n in 0..=200u32 {
        let mut rts = vec![max, max - 7, max - 31 * step];
        for r in [0, 1, 2, 5, 17, 30, 31, 32, 33] {
            if r < n {
                rts.push(max - (n - r) * step + 7);
            }
        }
        for rt in rts {
            for d in [0, 1000, 1 << 20, rt] {
                ins.push((n as u64, step, rt - d, rt, max));
            }
        }
    }
    inc_run_matches(&ins, max);
}
