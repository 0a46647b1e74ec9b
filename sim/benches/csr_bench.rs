//! Speed and latency of register accesses, printed as a table.
//!
//! `cargo bench -p roce-cc-sim --bench csr_bench`
//!
//! - the golden register block (`CsrModel`, the `model` BAR) and the Verilated core with
//!   its register block behind AXI4-Lite (`SimTop`, the `sim` BAR): reads of every register
//!   of the map in turn, accesses per second (wall clock: compare ratios on a quiet machine);
//! - clock cycles one read, one write, one QP snapshot (`qp_sel`) and one apply take in the
//!   hardware, from the first VALID to the response (the AXI master raises every VALID and
//!   READY at once).

use roce_cc_params::Params;
use roce_cc_regmap::{blocks, find, fw_id};
use roce_cc_sim::csr::CsrModel;
use roce_cc_sim::sim_top::SimTop;
use std::time::Instant;

fn addr(block: &str, name: &str) -> u32 {
    find(&blocks(), block, name)
        .expect("a register of the map")
        .addr
}

fn main() {
    let build = Params {
        qps: 1024,
        ..Params::default()
    };
    let all: Vec<u32> = blocks()
        .iter()
        .flat_map(|b| b.regs.iter().map(|r| r.addr))
        .collect();
    let rounds = 200;

    let mut model = CsrModel::new(&build, fw_id());
    let t = Instant::now();
    for _ in 0..rounds {
        for &a in &all {
            std::hint::black_box(model.read(a));
        }
    }
    let model_rate = (rounds * all.len()) as f64 / t.elapsed().as_secs_f64();

    let mut sim = SimTop::new(&build).expect("the 1024-QP top is Verilated");
    let bring_up = sim.cycles_run;
    let t = Instant::now();
    let c0 = sim.cycles_run;
    for _ in 0..rounds {
        for &a in &all {
            std::hint::black_box(sim.read(a).unwrap());
        }
    }
    let sim_rate = (rounds * all.len()) as f64 / t.elapsed().as_secs_f64();
    let read_cycles = (sim.cycles_run - c0) as f64 / (rounds * all.len()) as f64;

    let cycles = |sim: &mut SimTop, f: &mut dyn FnMut(&mut SimTop)| {
        let c = sim.cycles_run;
        f(sim);
        sim.cycles_run - c
    };
    let th = addr("rp_params", "rpg_threshold");
    let write = cycles(&mut sim, &mut |s| {
        s.write(th, 7, 0xf).unwrap();
    });
    let sel = addr("qp_window", "qp_sel");
    let snapshot = cycles(&mut sim, &mut |s| {
        s.write(sel, 5, 0xf).unwrap();
    });
    let (ctrl, status) = (
        addr("global_params", "ctrl"),
        addr("global_params", "status"),
    );
    let apply = cycles(&mut sim, &mut |s| {
        s.write(ctrl, 1, 0xf).unwrap();
        while s.read(status).unwrap().0 != 0 {}
    });

    println!("| what | figure |");
    println!("|---|---|");
    println!("| model BAR (CsrModel): register reads | {model_rate:.0} /s |");
    println!("| sim BAR (Verilated top, 1024 QPs): register reads | {sim_rate:.0} /s |");
    println!("| hardware: one read, first VALID to RVALID taken | {read_cycles:.1} cycles |");
    println!("| hardware: one parameter write | {write} cycles |");
    println!("| hardware: qp_sel write (snapshot through the RP) | {snapshot} cycles |");
    println!("| hardware: apply (write ctrl, poll status until idle) | {apply} cycles |");
    println!("| hardware: reset to defaults applied (bring-up) | {bring_up} cycles |");
}
