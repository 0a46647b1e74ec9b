//! Speed of the three implementations of the reaction point, printed as a table.
//!
//! `cargo bench -p roce-cc-sim --bench rp_bench`
//!
//! The same pseudo-random RP stimulus (connectx profile; CNPs, packets and queries on a
//! hot set of QPs, idle gaps up to seconds, backpressure) is stepped through rust-hdl's own
//! simulation and through the Verilated Verilog, each alone, and the cycles per second are
//! compared; the golden model is timed as events per second (the bare next-state function
//! on random QPs) and as cycles per second with the pipeline timing. Wall-clock figures:
//! run on a quiet machine, compare ratios rather than absolute numbers.

use roce_cc_params::Params;
use roce_cc_sim::dcqcn_rp::{DcqcnRp, RpKind};
use roce_cc_sim::lockstep::{CycleDut, Named};
use roce_cc_sim::rp_harness::{GoldenRpCycle, HdlRp, RpOuts, RpPins};
use roce_cc_sim::stimulus::{Step, XorShift, run_lockstep};
use roce_cc_sim::verilated::VerilatedRp;
use std::time::Instant;

/// `n` cycles of stimulus over `qps` QPs.
fn stimulus(n: usize, qps: u32) -> Vec<Step> {
    let mut rng = XorShift::new(1);
    (0..n)
        .map(|_| {
            let r = rng.next_u64();
            let hot = (r % 8) as u32 % qps;
            let qp = if r >> 60 == 0 {
                (r >> 32) as u32 % qps
            } else {
                hot
            };
            Step {
                ctl: None,
                dt: match r % 9 {
                    0 => 0,
                    1 => 250 * (r >> 40 & 255),
                    2 if r >> 56 == 0 => 250_000_000,
                    _ => 1,
                },
                cnp: (r >> 8 & 7 == 0).then_some(qp),
                tx: (r >> 11 & 1 == 0).then_some((hot, 64 + (r >> 20) as u32 % 4000)),
                query: (r >> 12 & 3 == 0).then_some(hot),
                m_ready: r >> 30 & 7 != 0,
            }
        })
        .collect()
}

/// Cycles per second of `dut` alone on `steps` (bring-up included in neither count nor time
/// of the others: each run does its own).
fn cycles_per_s(p: &Params, steps: &[Step], dut: &mut dyn CycleDut<RpPins, RpOuts>) -> f64 {
    let mut duts: Vec<Named<RpPins, RpOuts>> = vec![("dut", dut)];
    let t = Instant::now();
    let run = run_lockstep(p, steps, &mut duts).expect("a single DUT cannot mismatch");
    let setup = p.qps as f64 + 256.0;
    (run.cycles as f64 + setup) / t.elapsed().as_secs_f64()
}

fn golden_events_per_s(p: &Params, n: usize) -> f64 {
    let mut rp = DcqcnRp::new(p);
    let mut rng = XorShift::new(12345);
    let events: Vec<(u64, u32, RpKind)> = {
        let mut cycle = 0u64;
        (0..n)
            .map(|_| {
                let r = rng.next_u64();
                cycle += r % 500;
                let qp = (r >> 20) as u32 % p.qps;
                let kind = match r >> 40 & 3 {
                    0 => RpKind::Cnp,
                    1 => RpKind::Query,
                    _ => RpKind::Tx { bytes: 1024 },
                };
                (cycle, qp, kind)
            })
            .collect()
    };
    let t = Instant::now();
    let mut limited = 0u32;
    for &(cycle, qp, kind) in &events {
        limited += rp.apply_at_cycle(cycle, qp, kind).limited as u32;
    }
    let rate = n as f64 / t.elapsed().as_secs_f64();
    assert!(limited > 0, "the stream must limit some QPs");
    rate
}

fn main() {
    let p16 = Params {
        qps: 16,
        ..Params::default()
    };
    let p1024 = Params::default();
    let short = stimulus(20_000, 16);
    let long16 = stimulus(2_000_000, 16);
    let long1024 = stimulus(2_000_000, 1024);

    let hdl16 = cycles_per_s(&p16, &short, &mut HdlRp::<4>::new(&p16));
    let ver16 = cycles_per_s(&p16, &long16, &mut VerilatedRp::exact(&p16).unwrap());
    let ver16_same = cycles_per_s(&p16, &short, &mut VerilatedRp::exact(&p16).unwrap());
    let ver1024 = cycles_per_s(&p1024, &long1024, &mut VerilatedRp::exact(&p1024).unwrap());
    let gold16 = cycles_per_s(&p16, &long16, &mut GoldenRpCycle::new(&p16));
    let gold_ev = golden_events_per_s(&p1024, 5_000_000);

    println!("| implementation | QPs | stimulus cycles | speed |");
    println!("|---|---|---|---|");
    println!(
        "| rust-hdl simulation | 16 | {} | {:.0} cycles/s |",
        short.len(),
        hdl16
    );
    println!(
        "| Verilator (same stimulus) | 16 | {} | {:.0} cycles/s |",
        short.len(),
        ver16_same
    );
    println!(
        "| Verilator | 16 | {} | {:.0} cycles/s |",
        long16.len(),
        ver16
    );
    println!(
        "| Verilator | 1024 | {} | {:.0} cycles/s |",
        long1024.len(),
        ver1024
    );
    println!(
        "| golden model, pipeline timing | 16 | {} | {:.0} cycles/s |",
        long16.len(),
        gold16
    );
    println!(
        "| golden model, next-state function | 1024 | 5000000 events | {:.0} events/s |",
        gold_ev
    );
    println!();
    println!(
        "Verilator / rust-hdl on the same stimulus: {:.0}x",
        ver16_same / hdl16
    );
}
