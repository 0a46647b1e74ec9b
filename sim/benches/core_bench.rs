//! Speed of the implementations of the notification point and of the core top, printed as
//! a table (the reaction point's own table is `rp_bench`).
//!
//! `cargo bench -p roce-cc-sim --bench core_bench`
//!
//! The same pseudo-random stimulus is stepped through each implementation alone: for the
//! NP, received packets (mostly CE) on a hot set of QPs with CNP backpressure; for the
//! core, all four input streams, 1 QP number in 16 out of range, gaps up to seconds,
//! backpressure on both outputs. Wall-clock figures: compare ratios on a quiet machine.

use roce_cc_params::Params;
use roce_cc_sim::core_harness::{CoreOuts, CorePins, GoldenCoreCycle, HdlCore};
use roce_cc_sim::core_stimulus::{CoreStep, NpStep, run_core_lockstep, run_np_lockstep};
use roce_cc_sim::core_top::{Core, CoreEvent};
use roce_cc_sim::lockstep::{CycleDut, Named};
use roce_cc_sim::np_harness::{GoldenNpCycle, HdlNp, NpOuts, NpPins};
use roce_cc_sim::stimulus::XorShift;
use roce_cc_sim::verilated::{VerilatedCore, VerilatedNp};
use std::time::Instant;

fn np_stimulus(n: usize, qps: u32) -> Vec<NpStep> {
    let mut rng = XorShift::new(3);
    (0..n)
        .map(|_| {
            let r = rng.next_u64();
            NpStep {
                clr: None,
                dt: if r % 5 == 0 { 250 * (r >> 40 & 63) } else { 1 },
                rx: (r >> 8 & 3 != 0).then_some((
                    (r >> 16) as u32 % 8 % qps,
                    if r >> 24 & 7 == 0 { 1 } else { 3 },
                )),
                cnp_ready: r >> 30 & 7 != 0,
            }
        })
        .collect()
}

fn core_stimulus(n: usize, qps: u32) -> Vec<CoreStep> {
    let mut rng = XorShift::new(4);
    (0..n)
        .map(|_| {
            let r = rng.next_u64();
            let qpn = |s: u32| {
                if r >> (s + 4) & 15 == 0 {
                    qps + (r >> 40) as u32 % 1000
                } else {
                    (r >> s) as u32 % 8 % qps
                }
            };
            CoreStep {
                ctl: None,
                dt: match r % 9 {
                    0 => 0,
                    1 => 250 * (r >> 40 & 255),
                    2 if r >> 56 == 0 => 250_000_000,
                    _ => 1,
                },
                cnp: (r >> 8 & 7 == 0).then(|| qpn(10)),
                tx: (r >> 11 & 1 == 0).then(|| (qpn(14), 64 + (r >> 20) as u32 % 4000)),
                query: (r >> 12 & 3 == 0).then(|| qpn(18)),
                rx: (r >> 13 & 1 == 0).then(|| (qpn(22), 3)),
                ack: None,
                rate_ready: r >> 30 & 7 != 0,
                cnp_ready: r >> 33 & 7 != 0,
            }
        })
        .collect()
}

fn np_cycles_per_s(p: &Params, steps: &[NpStep], dut: &mut dyn CycleDut<NpPins, NpOuts>) -> f64 {
    let mut duts: Vec<Named<NpPins, NpOuts>> = vec![("dut", dut)];
    let t = Instant::now();
    let run = run_np_lockstep(p, steps, &mut duts).expect("one implementation cannot differ");
    (run.cycles as f64 + p.qps as f64) / t.elapsed().as_secs_f64()
}

fn core_cycles_per_s(
    p: &Params,
    steps: &[CoreStep],
    dut: &mut dyn CycleDut<CorePins, CoreOuts>,
) -> f64 {
    let mut duts: Vec<Named<CorePins, CoreOuts>> = vec![("dut", dut)];
    let t = Instant::now();
    let run = run_core_lockstep(p, steps, &mut duts).expect("one implementation cannot differ");
    (run.cycles as f64 + p.qps as f64 + 256.0) / t.elapsed().as_secs_f64()
}

/// The event-level golden core on random events at random times, events per second.
fn golden_core_events_per_s(p: &Params, n: usize) -> f64 {
    let mut core = Core::new(p).unwrap();
    let mut rng = XorShift::new(99);
    let mut cycle = 0u64;
    let events: Vec<(u64, CoreEvent)> = (0..n)
        .map(|_| {
            let r = rng.next_u64();
            cycle += r % 500;
            let qpn = (r >> 20) as u32 % p.qps;
            let ev = match r >> 40 & 3 {
                0 => CoreEvent::Cnp { qpn },
                1 => CoreEvent::Rx { qpn, ecn: 3 },
                2 => CoreEvent::Query { qpn },
                _ => CoreEvent::Tx { qpn, bytes: 1024 },
            };
            (cycle, ev)
        })
        .collect();
    let t = Instant::now();
    for &(cycle, ev) in &events {
        std::hint::black_box(core.apply_at_cycle(cycle, ev));
    }
    n as f64 / t.elapsed().as_secs_f64()
}

fn main() {
    let p16 = Params {
        qps: 16,
        ..Params::default()
    };
    let p1024 = Params::default();
    let np_short = np_stimulus(200_000, 16);
    let np_long = np_stimulus(5_000_000, 16);
    let core_short = core_stimulus(20_000, 16);
    let core16 = core_stimulus(1_000_000, 16);
    let core1024 = core_stimulus(1_000_000, 1024);

    let rows = [
        (
            "NP: rust-hdl simulation",
            16,
            np_short.len(),
            np_cycles_per_s(&p16, &np_short, &mut HdlNp::<4>::new(&p16)),
        ),
        (
            "NP: Verilator (same stimulus)",
            16,
            np_short.len(),
            np_cycles_per_s(&p16, &np_short, &mut VerilatedNp::new(&p16).unwrap()),
        ),
        (
            "NP: Verilator",
            16,
            np_long.len(),
            np_cycles_per_s(&p16, &np_long, &mut VerilatedNp::new(&p16).unwrap()),
        ),
        (
            "NP: golden model, pipeline timing",
            16,
            np_long.len(),
            np_cycles_per_s(&p16, &np_long, &mut GoldenNpCycle::new(&p16)),
        ),
        (
            "core: rust-hdl simulation",
            16,
            core_short.len(),
            core_cycles_per_s(&p16, &core_short, &mut HdlCore::<4>::new(&p16)),
        ),
        (
            "core: Verilator (same stimulus)",
            16,
            core_short.len(),
            core_cycles_per_s(&p16, &core_short, &mut VerilatedCore::exact(&p16).unwrap()),
        ),
        (
            "core: Verilator",
            16,
            core16.len(),
            core_cycles_per_s(&p16, &core16, &mut VerilatedCore::exact(&p16).unwrap()),
        ),
        (
            "core: Verilator",
            1024,
            core1024.len(),
            core_cycles_per_s(
                &p1024,
                &core1024,
                &mut VerilatedCore::exact(&p1024).unwrap(),
            ),
        ),
        (
            "core: golden model, pipeline timing",
            16,
            core16.len(),
            core_cycles_per_s(&p16, &core16, &mut GoldenCoreCycle::new(&p16)),
        ),
    ];
    println!("| implementation | QPs | stimulus cycles | speed |");
    println!("|---|---|---|---|");
    for (name, qps, n, speed) in rows {
        println!("| {name} | {qps} | {n} | {speed:.0} cycles/s |");
    }
    let ev = golden_core_events_per_s(&p1024, 5_000_000);
    println!("| core: golden model, event level | 1024 | 5000000 events | {ev:.0} events/s |");
    println!();
    println!(
        "Verilator / rust-hdl on the same stimulus: NP {:.0}x, core {:.0}x",
        rows[1].3 / rows[0].3,
        rows[5].3 / rows[4].3
    );
}
