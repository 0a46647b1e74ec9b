//! The hardware time base (`roce_cc_hdl::timebase`), three ways: after every restart, `now`
//! in cycle `k` must be `Timebase::at_cycle(k)` (golden), in rust-hdl's simulation and in the
//! Verilated Verilog, on every cycle. Small clocks and periods make every counter wrap many
//! times; restarts come at random, each with new periods, presented with the restart (the
//! latest `Timebase`'s contract allows; a restart takes effect two cycles later).

use proptest::prelude::*;
use roce_cc_params::Params;
use roce_cc_sim::lockstep::{Divergence, Named, cases_from_env, clock_all, eval_all};
use roce_cc_sim::timebase_harness::{GoldenTimebase, HdlTimebase, TbOuts, TbPins};
use roce_cc_sim::verilated::VerilatedTimebase;

fn params() -> impl Strategy<Value = Params> {
    let period = prop_oneof![4 => 1u32..=7, 1 => 1u32..=131_071];
    (
        1u32..=6,
        period.clone(),
        period.clone(),
        period.clone(),
        0u32..=7,
    )
        .prop_map(|(clock_mhz, rtt, dec, inc, cnp)| Params {
            clock_mhz,
            dce_tcp_rtt: rtt,
            rate_reduce_monitor_period: dec,
            rpg_time_reset: inc,
            min_time_between_cnps: cnp,
            ..Params::default()
        })
}

fn run(stretches: &[(Params, u32)]) -> Result<(), Divergence<TbOuts>> {
    let (mut g, mut h, mut v) = (
        GoldenTimebase::default(),
        HdlTimebase::default(),
        VerilatedTimebase::default(),
    );
    let mut duts: Vec<Named<TbPins, TbOuts>> = vec![
        ("golden", &mut g),
        ("rust-hdl", &mut h),
        ("verilator", &mut v),
    ];
    let mut step = 0;
    for (i, (p, cycles)) in stretches.iter().enumerate() {
        for k in 0..*cycles {
            let pins = TbPins {
                reset: i == 0 && k == 0,
                restart: k == 0,
                params: p.clone(),
            };
            eval_all(&mut duts, &pins, step)?;
            clock_all(&mut duts);
            step += 1;
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases_from_env(), .. ProptestConfig::default() })]

    #[test]
    fn timebase_three_way(stretches in proptest::collection::vec((params(), 1u32..400), 1..5)) {
        run(&stretches).map_err(|m| TestCaseError::fail(format!("{m}\nstretches: {stretches:?}")))?;
    }
}
