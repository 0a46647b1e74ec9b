//! Post-synthesis simulation of the core top at 1024 QPs, off by default (the netlist is
//! built only with `ROCE_CC_POST_SYNTH` set):
//!
//! `ROCE_CC_POST_SYNTH=1 cargo test -p roce-cc-sim --test all post_synth -- --nocapture`
//!
//! The yosys `synth_ecp5` netlist of `RoceCcCore<10>`, simulated by Verilator with yosys's
//! ECP5 cell models and ours (`sim/post_synth/`), runs in lock step with the golden core on
//! random parameter sets and event streams (the strategies of the proptest cases and of the
//! long campaign: out-of-range QP numbers, backpressure on both outputs), every output
//! compared every cycle. This is the only simulation of what synthesis alone reads: the
//! `MULT18X18D` instances of `DspMul` (its `SYNTHESIS` body), the block RAM yosys infers for
//! the `no_rw_check` state RAM, and the technology mapping as a whole.
//!
//! `ROCE_CC_POST_SYNTH_CYCLES` sets the total of compared cycles (stimulus and drain,
//! bring-up not counted; default 10^5). The seed is printed; `ROCE_CC_SEED` replays a run.
//! A mismatch stops the run with the parameters and the steps up to it, and says whether the
//! Verilated RTL (`VerilatedCore`) passes the same case (if it does, the difference is one
//! only synthesis sees). The netlist is built without tracing (its VCD would be most of its
//! C++), so the waveform is the RTL's: `ROCE_CC_POST_SYNTH_VCD=<file>` writes it.

#[cfg(not(post_synth))]
#[test]
fn post_synth_core_matches_golden() {
    eprintln!(
        "post-synthesis simulation not built: run \
         ROCE_CC_POST_SYNTH=1 cargo test -p roce-cc-sim --test all post_synth -- --nocapture \
         (synth_ecp5 and Verilating the netlist take minutes the first time)"
    );
}

#[cfg(post_synth)]
#[test]
fn post_synth_core_matches_golden() {
    campaign::run();
}

#[cfg(post_synth)]
mod campaign {
    use proptest::strategy::{Strategy, ValueTree};
    use roce_cc_params::Params;
    use roce_cc_sim::core_harness::{CoreOuts, CorePins, GoldenCoreCycle};
    use roce_cc_sim::core_stimulus::{
        CoreRun, CoreStep, describe_core_steps, run_core_lockstep, strategies,
    };
    use roce_cc_sim::lockstep::{Divergence, Named, Waveform, env_u64, seeded_runner};
    use roce_cc_sim::verilated::{VerilatedCore, VerilatedCoreNetlist};

    /// Steps per random case: several cases make up the default 10^5 cycles, so several
    /// parameter sets are covered.
    const CASE_STEPS: usize = 12_000;

    /// Runs cases until the requested number of cycles is compared; panics on the first
    /// mismatch or unaccounted event.
    pub fn run() {
        let total = env_u64("ROCE_CC_POST_SYNTH_CYCLES", 100_000);
        let seed = env_u64("ROCE_CC_SEED", std::process::id() as u64 ^ 0x5e7_c0de);
        let qps = VerilatedCoreNetlist::QPS;
        eprintln!("post-synthesis core ({qps} QPs): {total} cycles, seed {seed}");
        let mut runner = seeded_runner(seed);
        let cases = strategies::core_case(qps, CASE_STEPS);
        let (mut cycles, mut n_cases, mut cnps, mut rejected) = (0u64, 0u64, 0u64, 0u64);
        let start = std::time::Instant::now();
        while cycles < total {
            let (p, steps) = cases.new_tree(&mut runner).expect("strategy").current();
            let case_start = std::time::Instant::now();
            let run = match run_case(&p, &steps) {
                Ok(run) => run,
                Err(m) => fail(n_cases + 1, seed, &p, &steps, &m),
            };
            if let Err(e) = run.every_event_accounted() {
                panic!(
                    "case {} (seed {seed}): {e}\nparameters:\n{}",
                    n_cases + 1,
                    p.to_toml_string()
                );
            }
            let b = run.last.bad_qp;
            rejected += b.cnp + b.tx + b.query + b.rx;
            cnps += run.cnps.len() as u64;
            cycles += run.cycles;
            n_cases += 1;
            eprintln!(
                "case {n_cases}: {} cycles, {} rate reports, {} CNP requests, {:.1} s; \
                 {cycles} cycles in all",
                run.cycles,
                run.rates.len(),
                run.cnps.len(),
                case_start.elapsed().as_secs_f64()
            );
        }
        let secs = start.elapsed().as_secs_f64();
        eprintln!(
            "post-synthesis core passed: {cycles} cycles compared in {n_cases} cases, \
             {cnps} CNP requests, {rejected} bad-QP events rejected, {secs:.0} s \
             ({:.0} cycles/s with the golden model and bring-up)",
            cycles as f64 / secs
        );
    }

    /// One case, golden model against the netlist.
    fn run_case(p: &Params, steps: &[CoreStep]) -> Result<CoreRun, Divergence<CoreOuts>> {
        let mut g = GoldenCoreCycle::new(p);
        let mut n = VerilatedCoreNetlist::new(p).expect("the netlist takes these parameters");
        let mut duts: Vec<Named<CorePins, CoreOuts>> =
            vec![("golden", &mut g), ("netlist", &mut n)];
        run_core_lockstep(p, steps, &mut duts)
    }

    /// Reports a mismatch in case number `case` (from 1, as the progress lines count), with
    /// how the Verilated RTL fares on the same case, then panics.
    fn fail(case: u64, seed: u64, p: &Params, steps: &[CoreStep], m: &Divergence<CoreOuts>) -> ! {
        let vcd = std::env::var_os("ROCE_CC_POST_SYNTH_VCD").map(std::path::PathBuf::from);
        panic!(
            "case {case} (seed {seed}): {m}\nparameters:\n{}\nsteps:\n{}{}",
            p.to_toml_string(),
            describe_core_steps(steps, m.step),
            rtl_verdict(p, steps, vcd.as_deref())
        );
    }

    /// Runs the case golden against the Verilated RTL (writing its VCD to `vcd` if given);
    /// the outcome, for the report.
    fn rtl_verdict(p: &Params, steps: &[CoreStep], vcd: Option<&std::path::Path>) -> String {
        let mut g = GoldenCoreCycle::new(p);
        let Some(mut v) = VerilatedCore::exact(p) else {
            return "(no Verilated RTL of this size to compare with)".into();
        };
        let mut note = String::new();
        if let Some(path) = vcd {
            note = match v.open_vcd(path) {
                Ok(()) => format!("\nVCD of the RTL on this case: {}", path.display()),
                Err(e) => format!("\ncannot write the VCD {}: {e}", path.display()),
            };
        } else {
            note.push_str("\nset ROCE_CC_POST_SYNTH_VCD=<file> for a VCD of the RTL on this case");
        }
        let result = {
            let mut duts: Vec<Named<CorePins, CoreOuts>> =
                vec![("golden", &mut g), ("verilated RTL", &mut v)];
            run_core_lockstep(p, steps, &mut duts)
        };
        v.close_vcd();
        match result {
            Ok(_) => format!(
                "the Verilated RTL passes this case: the difference is in what only synthesis \
                 sees (SYNTHESIS bodies, the inferred RAM, the mapping){note}"
            ),
            Err(r) => format!("the Verilated RTL fails this case too: {r}{note}"),
        }
    }
}
