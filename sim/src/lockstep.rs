//! Lock-step comparison of any number of implementations of one unit, cycle by cycle.
//!
//! A unit's harness defines its pins `P` (inputs for one cycle) and outputs `O` (everything
//! observable before the clock edge), and each implementation (golden model with the
//! unit's pipeline timing, rust-hdl's simulation, the Verilated Verilog) implements
//! [`CycleDut<P, O>`]. [`eval_all`] gives every implementation the same pins and returns the
//! first disagreement.

use std::fmt;
use std::path::Path;

/// Something with a unit's pins, stepped one clock cycle at a time.
pub trait CycleDut<P, O> {
    /// Drive `pins` and return the outputs before the next rising edge.
    fn eval(&mut self, pins: &P) -> O;
    /// The rising clock edge (with the pins last given to `eval`).
    fn clock(&mut self);
}

/// A named implementation under comparison.
pub type Named<'a, P, O> = (&'a str, &'a mut dyn CycleDut<P, O>);

/// The first cycle on which an implementation differed from the first one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Divergence<O> {
    /// Step index (`usize::MAX` during bring-up).
    pub step: usize,
    /// The implementation that differed.
    pub dut: String,
    /// The first implementation's outputs.
    pub want: O,
    /// Its outputs.
    pub got: O,
}

impl<O: fmt::Debug> fmt::Display for Divergence<O> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let at = if self.step == usize::MAX {
            "during bring-up (reset, table load)".to_string()
        } else {
            format!("at step {}", self.step)
        };
        write!(
            f,
            "{} differs from the first implementation {at}:\n  expected {:?}\n  got      {:?}",
            self.dut, self.want, self.got
        )
    }
}

/// Evaluate every implementation on `pins`; the first one's outputs, or the first
/// disagreement.
pub fn eval_all<P, O: PartialEq + Clone>(
    duts: &mut [Named<'_, P, O>],
    pins: &P,
    step: usize,
) -> Result<O, Divergence<O>> {
    let mut first: Option<O> = None;
    for (name, d) in duts.iter_mut() {
        let o = d.eval(pins);
        match &first {
            None => first = Some(o),
            Some(w) if *w != o => {
                return Err(Divergence {
                    step,
                    dut: name.to_string(),
                    want: w.clone(),
                    got: o,
                });
            }
            _ => {}
        }
    }
    Ok(first.expect("at least one implementation"))
}

/// The rising edge on every implementation.
pub fn clock_all<P, O>(duts: &mut [Named<'_, P, O>]) {
    for (_, d) in duts.iter_mut() {
        d.clock();
    }
}

/// Proptest cases per property: `ROCE_CC_CASES`, default 64.
pub fn cases_from_env() -> u32 {
    std::env::var("ROCE_CC_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(64)
}

/// `dir/<test>.vcd`, creating `dir`: where a failing case's waveform goes.
pub fn failure_vcd(dir: &std::path::Path, test: &str) -> std::path::PathBuf {
    std::fs::create_dir_all(dir).expect("create the VCD directory");
    dir.join(format!("{test}.vcd"))
}

/// An integer from the environment variable `name`, or `default`.
pub fn env_u64(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// A proptest runner whose random choices are fixed by `seed` (the long campaigns print
/// their seed so that a failure can be replayed with `ROCE_CC_SEED`).
pub fn seeded_runner(seed: u64) -> proptest::test_runner::TestRunner {
    use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
    let mut seed_bytes = [0u8; 32];
    seed_bytes[..8].copy_from_slice(&seed.to_le_bytes());
    TestRunner::new_with_rng(
        Config::default(),
        TestRng::from_seed(RngAlgorithm::ChaCha, &seed_bytes),
    )
}

/// A Verilated model that can write every signal to a VCD waveform.
pub trait Waveform {
    fn open_vcd(&mut self, path: &Path) -> std::io::Result<()>;
    fn close_vcd(&mut self);
}

/// Run `run` on golden, rust-hdl and Verilator together. If they diverge, run a fresh
/// Verilated model alone again with a VCD written to `vcd`, and return the divergence with a
/// line that names the file (or says why there is none), for the failure message.
pub fn three_way<P, O, R, V>(
    golden: &mut dyn CycleDut<P, O>,
    hdl: &mut dyn CycleDut<P, O>,
    verilated: impl Fn() -> V,
    vcd: &Path,
    run: impl Fn(&mut [Named<'_, P, O>]) -> Result<R, Divergence<O>>,
) -> Result<R, (Divergence<O>, String)>
where
    V: CycleDut<P, O> + Waveform,
{
    let mut v = verilated();
    let mut duts: Vec<Named<P, O>> =
        vec![("golden", golden), ("rust-hdl", hdl), ("verilator", &mut v)];
    let divergence = match run(&mut duts) {
        Ok(r) => return Ok(r),
        Err(d) => d,
    };
    let mut v = verilated();
    let note = match v.open_vcd(vcd) {
        Ok(()) => {
            let mut duts: Vec<Named<P, O>> = vec![("verilator", &mut v)];
            let _ = run(&mut duts);
            v.close_vcd();
            format!("VCD of the Verilated run: {}", vcd.display())
        }
        Err(e) => format!("(no VCD: {e})"),
    };
    Err((divergence, note))
}

/// The bring-up every unit needs before its stimulus: `reset` for two cycles, then the
/// `table` writes one per cycle (they overlap the RAM sweep), then idle cycles until `busy`
/// falls. `pins(reset, table_write)` builds one cycle's pins, `busy` reads the outputs.
/// Every implementation sees the same pins; returns the number of set-up cycles.
pub fn bring_up<P, O: PartialEq + Clone>(
    duts: &mut [Named<'_, P, O>],
    table: impl IntoIterator<Item = (u32, u32)>,
    pins: impl Fn(bool, Option<(u32, u32)>) -> P,
    busy: impl Fn(&O) -> bool,
) -> Result<u64, Divergence<O>> {
    let mut table = table.into_iter();
    let mut cycle = 0u64;
    let mut reset_cycles = 2u32;
    loop {
        let write = if reset_cycles > 0 { None } else { table.next() };
        let outs = eval_all(duts, &pins(reset_cycles > 0, write), usize::MAX)?;
        if reset_cycles == 0 && !busy(&outs) && write.is_none() {
            return Ok(cycle);
        }
        clock_all(duts);
        reset_cycles = reset_cycles.saturating_sub(1);
        cycle += 1;
    }
}
