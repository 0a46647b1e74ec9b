//! The HPCC configuration compiler (`roce_cc_hdl::hpcc_window::cfg`), three ways: golden
//! model (`HpccConfig::new` with the compiler's timing), rust-hdl and Verilator, every
//! output every cycle (busy, both configuration words).
//!
//! Stimulus: hpcc.md's parameters across their ranges, T also at the powers of two and just
//! above and below them (where the rounding of `1/T` carries out of 18 bits), `start`
//! pulses at random (also while busy, where they must be ignored), the parameter input
//! changing while a compile runs, and resets in the middle of a compile. After each run the
//! words must be exactly those of the last parameter set compiled to the end.

use proptest::prelude::*;
use roce_cc_hdl::hpcc_window::cfg::HPCC_CFG_CYCLES;
use roce_cc_sim::hpcc_cfg_harness::{
    GoldenHpccCfg, HdlHpccCfg, HpccCfgOuts, HpccCfgPins, hpcc_compiled_words,
};
use roce_cc_sim::hpcc_stimulus::strategies::params;
use roce_cc_sim::hpcc_window::HpccParams;
use roce_cc_sim::lockstep::{Named, cases_from_env, clock_all, eval_all};
use roce_cc_sim::verilated::VerilatedHpccCfg;

/// One stretch of the run: the parameters on the input, whether `start` is pulsed at its
/// beginning, its length, and whether it ends in a reset.
#[derive(Clone, Debug)]
struct Stretch {
    params: HpccParams,
    start: bool,
    cycles: u32,
    reset_after: bool,
}

/// T near a power of two: `2^p - 1`, `2^p`, `2^p + 1` inside 1000..=1000000.
fn t_edges() -> impl Strategy<Value = u32> {
    (10u32..=19, -1i32..=1)
        .prop_map(|(p, d)| ((1i64 << p) + d as i64).clamp(1000, 1_000_000) as u32)
}

fn any_params() -> impl Strategy<Value = HpccParams> {
    (params(), prop::option::weighted(0.4, t_edges())).prop_map(|(mut p, t)| {
        if let Some(t) = t {
            p.base_rtt_ns = t;
        }
        p
    })
}

fn stretch() -> impl Strategy<Value = Stretch> {
    (
        any_params(),
        prop_oneof![4 => Just(true), 1 => Just(false)],
        prop_oneof![2 => Just(HPCC_CFG_CYCLES + 1), 1 => 1..=HPCC_CFG_CYCLES + 4],
        prop_oneof![6 => Just(false), 1 => Just(true)],
    )
        .prop_map(|(params, start, cycles, reset_after)| Stretch {
            params,
            start,
            cycles,
            reset_after,
        })
}

fn run(stretches: &[Stretch]) -> Result<HpccCfgOuts, String> {
    let (mut g, mut h, mut v) = (
        GoldenHpccCfg::new(),
        HdlHpccCfg::new(),
        VerilatedHpccCfg::new(),
    );
    let mut duts: Vec<Named<HpccCfgPins, HpccCfgOuts>> = vec![
        ("golden", &mut g),
        ("rust-hdl", &mut h),
        ("verilator", &mut v),
    ];
    let mut step = 0usize;
    let mut cycle = |duts: &mut Vec<Named<HpccCfgPins, HpccCfgOuts>>, pins: HpccCfgPins| {
        let o = eval_all(duts, &pins, step).map_err(|m| m.to_string());
        clock_all(duts);
        step += 1;
        o
    };
    let p0 = stretches[0].params;
    let idle = |p| HpccCfgPins {
        reset: false,
        start: false,
        params: p,
    };
    for _ in 0..2 {
        cycle(
            &mut duts,
            HpccCfgPins {
                reset: true,
                ..idle(p0)
            },
        )?;
    }
    let mut last = HpccCfgOuts::default();
    for s in stretches {
        for k in 0..s.cycles {
            let pins = HpccCfgPins {
                reset: s.reset_after && k + 1 == s.cycles,
                start: s.start && k == 0,
                params: s.params,
            };
            last = cycle(&mut duts, pins)?;
        }
    }
    // Let a running compile finish.
    for _ in 0..HPCC_CFG_CYCLES + 2 {
        last = cycle(&mut duts, idle(p0))?;
    }
    Ok(last)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases_from_env().min(32), .. ProptestConfig::default() })]

    #[test]
    fn hpcc_cfg_three_way(stretches in proptest::collection::vec(stretch(), 1..5)) {
        let last = run(&stretches).map_err(TestCaseError::fail)?;
        prop_assert!(!last.busy);
    }
}

/// Start once and let it finish: the words are `HpccConfig::new` of the parameters, at
/// hpcc.md's defaults on every link rate, at both ends of every range, and for T at every
/// power of two in range (the carry of `1/T`'s rounding) and one above and below it.
#[test]
fn hpcc_cfg_compiles_range_ends() {
    let mut sets = Vec::new();
    for line in [10_000u32, 25_000, 100_000, 400_000, 800_000] {
        sets.push(HpccParams::hpcc_md_defaults(line));
        for (t, multi) in [(1000, 1), (1_000_000, 64), (1000, 64), (1_000_000, 1)] {
            sets.push(HpccParams {
                base_rtt_ns: t,
                int_multi: multi,
                eta: 1024,
                max_stage: 15,
                rate_ai_mbps: line,
                min_rate_mbps: 1,
                ..HpccParams::hpcc_md_defaults(line)
            });
        }
    }
    for p in 10..=19 {
        for d in [-1i64, 0, 1] {
            let t = ((1i64 << p) + d).clamp(1000, 1_000_000) as u32;
            sets.push(HpccParams {
                base_rtt_ns: t,
                ..HpccParams::hpcc_md_defaults(100_000)
            });
        }
    }
    for p in sets {
        let stretches = [Stretch {
            params: p,
            start: true,
            cycles: HPCC_CFG_CYCLES + 1,
            reset_after: false,
        }];
        let last = run(&stretches).unwrap_or_else(|m| panic!("{p:?}: {m}"));
        assert_eq!((last.cfg, last.cfg_k), hpcc_compiled_words(&p), "{p:?}");
    }
}
