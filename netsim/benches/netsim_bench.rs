//! Speed of the network simulation on the shipped scenarios (golden engine, one core):
//! network events per second, core cycles evaluated per second and wall time.
//!
//! `cargo bench -p roce-cc-netsim --bench netsim_bench` runs the 16:1 incasts for their
//! 2 ms and the 64-host websearch fabric for 1 ms; `-- --full` runs the websearch fabric
//! for its 10 ms (under a minute), `-- --rtl` adds the 16:1 incast with hosts 0 and 16 as
//! Verilated RTL. `--only TEXT` keeps the runs whose label contains `TEXT`;
//! `--websearch-us N` runs the websearch fabric for `N` us; `--out DIR` writes each run's
//! report (summary, CSV, plots) into a folder of `DIR` named for its label, so two builds
//! can be compared run for run (their summaries differ only in `speed`).

use roce_cc_netsim::run_scenario;
use roce_cc_netsim::scenario::Scenario;
use std::path::Path;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let full = args.iter().any(|a| a == "--full");
    let rtl = args.iter().any(|a| a == "--rtl");
    let value = |flag: &str| {
        args.iter().position(|a| a == flag).map(|i| {
            args.get(i + 1)
                .unwrap_or_else(|| panic!("{flag} needs a value"))
                .clone()
        })
    };
    let only = value("--only");
    let out = value("--out").map(std::path::PathBuf::from);
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
    ws.duration_us = match value("--websearch-us") {
        Some(us) => us.parse().expect("--websearch-us takes microseconds"),
        None if full => ws.duration_us,
        None => 1000,
    };
    runs.push(("leafspine64-websearch-dcqcn-connectx, golden".into(), ws));

    println!(
        "| scenario | simulated | network events | events/s | core cycles | cycles/s | wall |"
    );
    println!("|---|---|---|---|---|---|---|");
    for (label, sc) in runs {
        if only.as_ref().is_some_and(|o| !label.contains(o.as_str())) {
            continue;
        }
        let dir = out.as_ref().map(|o| {
            let name: String = label
                .chars()
                .map(|c| {
                    if c.is_ascii_alphanumeric() || c == '-' {
                        c
                    } else {
                        '_'
                    }
                })
                .collect();
            o.join(name)
        });
        if let Some(d) = &dir {
            std::fs::create_dir_all(d).unwrap_or_else(|e| panic!("{}: {e}", d.display()));
        }
        let s =
            run_scenario(&sc, dir.as_deref(), |_, _| {}).unwrap_or_else(|e| panic!("{label}: {e}"));
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
