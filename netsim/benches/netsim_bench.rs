//! Speed of the network simulation on the shipped scenarios (golden engine, one core):
//! network events per second, core cycles evaluated per second and wall time.
//!
//! `cargo bench -p roce-cc-netsim --bench netsim_bench` runs the 16:1 incasts for their
//! 2 ms and the 64-host websearch fabric for 1 ms; `-- --full` runs the websearch fabric
//! for its 10 ms (about two minutes), `-- --rtl` adds the 16:1 incast with hosts 0 and 16
//! as Verilated RTL.

use roce_cc_netsim::run_scenario;
use roce_cc_netsim::scenario::Scenario;
use std::path::Path;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let full = args.iter().any(|a| a == "--full");
    let rtl = args.iter().any(|a| a == "--rtl");
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scenarios");
    let load = |name: &str| {
        Scenario::from_file(&dir.join(format!("{name}.toml"))).unwrap_or_else(|e| panic!("{e}"))
    };
    let mut runs: Vec<(String, Scenario)> = Vec::new();
    for name in ["incast16-dcqcn-connectx", "incast16-hpcc"] {
        runs.push((format!("{name}, golden"), load(name)));
    }
    if rtl {
        let mut sc = load("incast16-dcqcn-connectx");
        sc.nic.engine = "rtl".into();
        sc.nic.rtl_hosts = Some(vec![0, 16]);
        sc.check().expect("a valid scenario");
        runs.push(("incast16-dcqcn-connectx, RTL hosts 0 and 16".into(), sc));
    }
    let mut ws = load("leafspine64-websearch-dcqcn-connectx");
    if !full {
        ws.duration_us = 1000;
    }
    runs.push(("leafspine64-websearch-dcqcn-connectx, golden".into(), ws));

    println!(
        "| scenario | simulated | network events | events/s | core cycles | cycles/s | wall |"
    );
    println!("|---|---|---|---|---|---|---|");
    for (label, sc) in runs {
        let s = run_scenario(&sc, None, |_, _| {}).unwrap_or_else(|e| panic!("{label}: {e}"));
        let sp = &s.speed;
        println!(
            "| {label} | {} us | {} | {:.0} | {} | {:.0} | {:.2} s |",
            sc.duration_us,
            sp.network_events,
            sp.events_per_s,
            sp.core_cycles_evaluated,
            sp.core_cycles_evaluated as f64 / sp.wall_s.max(1e-9),
            sp.wall_s
        );
    }
}
