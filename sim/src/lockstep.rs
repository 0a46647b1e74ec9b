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
    cases_from_env_or(64)
}

/// Proptest cases for a property whose cases are slow: `ROCE_CC_CASES`, default `n`.
pub fn cases_from_env_or(n: u32) -> u32 {
    std::env::var("ROCE_CC_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(n)
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

/// One input stream's source under the valid/ready rule: once it offers an event it holds
/// `valid` and the payload until a cycle where `ready` is high, and only then may it offer
/// the next. A stimulus step's new event for a stream whose source still holds one is not
/// offered (the source is busy), so no offered event is ever withdrawn or lost.
#[derive(Clone, Debug)]
pub struct Source<T> {
    held: Option<T>,
    /// Events offered (each counted once, however long it was held).
    pub offered: u64,
    /// Events accepted (`valid && ready` at a clock edge).
    pub accepted: u64,
    /// Cycles `valid` was high with `ready` low.
    pub stalled: u64,
    /// The longest time one event was held, in cycles from its first offer to its
    /// acceptance (0: taken in the cycle it was offered).
    pub longest_wait: u64,
    wait: u64,
}

impl<T> Default for Source<T> {
    fn default() -> Self {
        Source {
            held: None,
            offered: 0,
            accepted: 0,
            stalled: 0,
            longest_wait: 0,
            wait: 0,
        }
    }
}

impl<T: Copy> Source<T> {
    /// The payload on the stream this cycle: the held event, else `new` (now held).
    pub fn offer(&mut self, new: Option<T>) -> Option<T> {
        if self.held.is_none() {
            if let Some(x) = new {
                self.held = Some(x);
                self.offered += 1;
                self.wait = 0;
            }
        }
        self.held
    }

    /// The clock edge with the sink's `ready`: the event taken, if any.
    pub fn edge(&mut self, ready: bool) -> Option<T> {
        self.held?;
        if ready {
            self.accepted += 1;
            self.longest_wait = self.longest_wait.max(self.wait);
            self.held.take()
        } else {
            self.stalled += 1;
            self.wait += 1;
            None
        }
    }

    /// Whether the source holds nothing.
    pub fn idle(&self) -> bool {
        self.held.is_none()
    }

    /// Its counts.
    pub fn stats(&self) -> SourceStats {
        SourceStats {
            offered: self.offered,
            accepted: self.accepted,
            stalled: self.stalled,
            longest_wait: self.longest_wait,
        }
    }
}

/// A [`Source`]'s counts at the end of a run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SourceStats {
    pub offered: u64,
    pub accepted: u64,
    pub stalled: u64,
    pub longest_wait: u64,
}

/// The drain after a lock-step run's stimulus: idle cycles with every consumer ready,
/// until `done` (every held event accepted and every accepted event reported), then
/// `margin` more cycles for outputs that lag the reports (counters). Panics after
/// `limit` cycles: a unit that never reports an event it accepted is a failure, not a
/// reason to stop early.
#[derive(Clone, Copy, Debug)]
pub struct Drain {
    pub margin: usize,
    pub limit: usize,
    left_after_done: Option<usize>,
    spent: usize,
}

impl Drain {
    pub fn new(margin: usize, limit: usize) -> Self {
        Drain {
            margin,
            limit,
            left_after_done: None,
            spent: 0,
        }
    }

    /// Called once per drain cycle before it runs, with whether everything is done:
    /// whether to run this cycle.
    pub fn more(&mut self, done: bool, what: impl FnOnce() -> String) -> bool {
        if done && self.left_after_done.is_none() {
            self.left_after_done = Some(self.margin);
        }
        if let Some(left) = self.left_after_done.as_mut() {
            if *left == 0 {
                return false;
            }
            *left -= 1;
        }
        self.spent += 1;
        assert!(
            self.spent <= self.limit,
            "the drain did not finish in {} cycles: {}",
            self.limit,
            what()
        );
        true
    }
}
