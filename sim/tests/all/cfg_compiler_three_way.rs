//! The configuration compiler (`roce_cc_hdl::cfg_compiler`), three ways: golden model
//! (`RpConfig::new` / `NpConfig::new` with the compiler's timing), rust-hdl and Verilator,
//! every output every cycle (busy, every power-table write, both configuration words).
//!
//! Stimulus: random RP and NP parameter sets across their ranges (the same strategies as
//! the core's tests, `dce_tcp_g` at both ends included), `start` pulses at random (also
//! while busy, where they must be ignored), the parameter input changing while a compile
//! runs (it must not matter), and resets in the middle of a compile. After the run, the
//! configuration words must be exactly those of the last parameter set compiled to the end.

use proptest::prelude::*;
use roce_cc_hdl::cfg_compiler::COMPILE_CYCLES;
use roce_cc_params::Params;
use roce_cc_sim::cfg_compiler::{CfgOuts, CfgPins, GoldenCfg, HdlCfg, compiled_words};
use roce_cc_sim::core_stimulus::strategies::core_params;
use roce_cc_sim::lockstep::{Named, cases_from_env, clock_all, eval_all};
use roce_cc_sim::verilated::VerilatedCfg;

/// One stretch of the run: the parameters on the input, whether `start` is pulsed at its
/// beginning, its length, and whether it ends in a reset.
#[derive(Clone, Debug)]
struct Stretch {
    params: Params,
    start: bool,
    cycles: u32,
    reset_after: bool,
}

fn stretch() -> impl Strategy<Value = Stretch> {
    (
        core_params(16),
        prop_oneof![4 => Just(true), 1 => Just(false)],
        prop_oneof![2 => Just(COMPILE_CYCLES + 1), 1 => 1..=COMPILE_CYCLES + 4],
        prop_oneof![6 => Just(false), 1 => Just(true)],
    )
        .prop_map(|(params, start, cycles, reset_after)| Stretch {
            params,
            start,
            cycles,
            reset_after,
        })
}

fn run(stretches: &[Stretch]) -> Result<CfgOuts, String> {
    let (mut g, mut h, mut v) = (GoldenCfg::new(), HdlCfg::new(), VerilatedCfg::new());
    let mut duts: Vec<Named<CfgPins, CfgOuts>> = vec![
        ("golden", &mut g),
        ("rust-hdl", &mut h),
        ("verilator", &mut v),
    ];
    let mut step = 0usize;
    let mut last = CfgOuts::default();
    let mut cycle = |duts: &mut Vec<Named<CfgPins, CfgOuts>>, pins: CfgPins| {
        let o = eval_all(duts, &pins, step).map_err(|m| m.to_string());
        clock_all(duts);
        step += 1;
        o
    };
    let p0 = stretches[0].params.clone();
    for _ in 0..2 {
        cycle(
            &mut duts,
            CfgPins {
                reset: true,
                start: false,
                params: p0.clone(),
            },
        )?;
    }
    for s in stretches {
        for k in 0..s.cycles {
            let pins = CfgPins {
                reset: s.reset_after && k + 1 == s.cycles,
                start: s.start && k == 0,
                params: s.params.clone(),
            };
            last = cycle(&mut duts, pins)?;
        }
    }
    // Let a running compile finish.
    for _ in 0..COMPILE_CYCLES + 2 {
        last = cycle(
            &mut duts,
            CfgPins {
                reset: false,
                start: false,
                params: p0.clone(),
            },
        )?;
    }
    Ok(last)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases_from_env().min(32), .. ProptestConfig::default() })]

    #[test]
    fn cfg_compiler_three_way(stretches in proptest::collection::vec(stretch(), 1..6)) {
        let last = run(&stretches).map_err(TestCaseError::fail)?;
        prop_assert!(!last.busy);
    }
}

/// Start once and let it finish: the words are `RpConfig::new` / `NpConfig::new` of the
/// parameters, for every profile and for `dce_tcp_g` at both ends (c = 1023/1024, c = 0).
#[test]
fn compiles_profiles_and_g_extremes() {
    let mut sets: Vec<Params> = roce_cc_params::PROFILES
        .iter()
        .map(|n| Params::profile(n).unwrap())
        .collect();
    for g in [1, 1024] {
        sets.push(Params {
            dce_tcp_g: g,
            dce_tcp_rtt: 1,
            rpg_time_reset: 131_071,
            rpg_min_dec_fac: 1,
            ..Params::default()
        });
    }
    for p in sets {
        let stretches = [Stretch {
            params: p.clone(),
            start: true,
            cycles: COMPILE_CYCLES + 1,
            reset_after: false,
        }];
        let last = run(&stretches).unwrap_or_else(|m| panic!("{m}"));
        assert_eq!((last.rp_cfg, last.np_cfg), compiled_words(&p), "{p:?}");
    }
}
