//! The long random campaign of the core top (RP + NP), off by default.
//!
//! `ROCE_CC_LONG=1 cargo test -p roce-cc-sim --test all core_long_campaign -- --nocapture`
//!
//! `ROCE_CC_LONG_CYCLES` sets the total (default 10^8). Every cycle is compared between the
//! golden core and the Verilated core top at 1024 QPs, on random RP and NP parameter sets
//! and random streams (out-of-range QP numbers, backpressure on both outputs) from the same
//! strategies as the proptest cases. One cycle in `ROCE_CC_LONG_HDL_EVERY` (default 500)
//! goes to 16-QP cases that also run rust-hdl's own simulation. The seed is printed;
//! `ROCE_CC_SEED` replays a campaign. A mismatch stops it with the case and a VCD.

use proptest::strategy::{Strategy, ValueTree};
use roce_cc_sim::core_harness::{CoreOuts, CorePins, GoldenCoreCycle, HdlCore};
use roce_cc_sim::core_stimulus::{describe_core_steps, run_core_lockstep, strategies};
use roce_cc_sim::lockstep::{Named, Waveform, env_u64, seeded_runner};
use roce_cc_sim::verilated::VerilatedCore;

#[test]
fn core_long_campaign() {
    if std::env::var_os("ROCE_CC_LONG").is_none() {
        eprintln!("long campaign skipped: set ROCE_CC_LONG=1 to run it");
        return;
    }
    let total = env_u64("ROCE_CC_LONG_CYCLES", 100_000_000);
    let hdl_every = env_u64("ROCE_CC_LONG_HDL_EVERY", 500).max(1);
    let seed = env_u64("ROCE_CC_SEED", std::process::id() as u64 ^ 0xc0de_cafe);
    eprintln!("core long campaign: {total} cycles, seed {seed}");
    let mut runner = seeded_runner(seed);
    let big = strategies::core_case(1024, 20_000);
    let small = strategies::core_case(16, 2_000);
    let (mut cycles, mut hdl_cycles, mut cases) = (0u64, 0u64, 0u64);
    let (mut cnps, mut rejected) = (0u64, 0u64);
    let start = std::time::Instant::now();
    while cycles < total {
        let three_way = hdl_cycles * hdl_every < cycles;
        let (p, steps) = if three_way {
            small.new_tree(&mut runner).expect("strategy").current()
        } else {
            big.new_tree(&mut runner).expect("strategy").current()
        };
        let mut g = GoldenCoreCycle::new(&p);
        let mut v = VerilatedCore::exact(&p).expect("model built for this size");
        let result = if three_way {
            let mut h = HdlCore::<4>::new(&p);
            let mut duts: Vec<Named<CorePins, CoreOuts>> = vec![
                ("golden", &mut g),
                ("rust-hdl", &mut h),
                ("verilator", &mut v),
            ];
            run_core_lockstep(&p, &steps, &mut duts)
        } else {
            let mut duts: Vec<Named<CorePins, CoreOuts>> =
                vec![("golden", &mut g), ("verilator", &mut v)];
            run_core_lockstep(&p, &steps, &mut duts)
        };
        let run = match result {
            Ok(run) => run,
            Err(m) => {
                let path = std::env::temp_dir().join(format!("core_long_campaign_{seed}.vcd"));
                let mut v = VerilatedCore::exact(&p).expect("model built");
                if v.open_vcd(&path).is_ok() {
                    let mut duts: Vec<Named<CorePins, CoreOuts>> = vec![("verilator", &mut v)];
                    let _ = run_core_lockstep(&p, &steps, &mut duts);
                    v.close_vcd();
                }
                panic!(
                    "case {cases} (seed {seed}): {m}\nparameters:\n{}\nsteps:\n{}VCD: {}",
                    p.to_toml_string(),
                    describe_core_steps(&steps, m.step),
                    path.display()
                );
            }
        };
        if let Err(e) = run.every_event_accounted() {
            panic!(
                "case {cases} (seed {seed}): {e}\nparameters:\n{}",
                p.to_toml_string()
            );
        }
        let b = run.last.bad_qp;
        rejected += b.cnp + b.tx + b.query + b.rx;
        cnps += run.cnps.len() as u64;
        let n = run.cycles + p.qps as u64 + 256;
        cycles += n;
        if three_way {
            hdl_cycles += n;
        }
        cases += 1;
        if cases % 200 == 0 {
            eprintln!(
                "{cycles} cycles ({hdl_cycles} three-way), {cases} cases, {:.0} s",
                start.elapsed().as_secs_f64()
            );
        }
    }
    eprintln!(
        "core long campaign passed: {cycles} cycles compared ({hdl_cycles} three-way), \
         {cases} cases, {cnps} CNP requests, {rejected} bad-QP events rejected, {:.0} s",
        start.elapsed().as_secs_f64()
    );
}
