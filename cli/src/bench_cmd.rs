//! `roce-cc bench`: a unit's throughput under named traffic patterns, through the
//! Verilated RTL (`roce_cc_sim::bench`).

use crate::{Failure, bad_input, internal, print_out};
use clap::{Args, ValueEnum};
use roce_cc_params::Params;
use roce_cc_sim::bench::{self, Engine, Pattern, TABLE_HEADER, Unit};

/// `roce-cc bench`'s arguments.
#[derive(Args)]
pub struct BenchArgs {
    /// The unit driven.
    #[arg(long, value_enum, default_value = "core")]
    unit: UnitArg,
    /// Traffic pattern(s), comma separated, or `all`: one-qp (every event on QP 0), two-qp
    /// (QPs 0 and 1 alternately), round-robin (QP k mod N), random, mixed (every input
    /// stream at once).
    #[arg(long, value_delimiter = ',', default_value = "all")]
    pattern: Vec<PatternArg>,
    /// QPs of the unit (a size with a Verilated model: rp 16 or 1024, np 16, core 16, 1024
    /// or 16384, hpcc 16; any power of two with --engine golden).
    #[arg(long, default_value_t = 1024)]
    qps: u32,
    /// Window length in clock cycles (the sources offer events during the window; the run
    /// then drains until every accepted event is reported).
    #[arg(long, default_value_t = 100_000)]
    cycles: u64,
    /// Seed of the random patterns.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The implementation driven: the Verilated RTL, or the golden model with the
    /// hardware's pipeline timing (equal cycle by cycle, faster).
    #[arg(long, value_enum, default_value = "rtl")]
    engine: EngineArg,
    /// Parameters (PARAMS.toml); the connectx defaults without it. `qps` is set by --qps.
    #[arg(long, value_name = "PARAMS.toml")]
    params: Option<std::path::PathBuf>,
    /// One JSON object per row instead of the table.
    #[arg(long)]
    json: bool,
}

#[derive(Clone, Copy, ValueEnum)]
enum UnitArg {
    Rp,
    Np,
    Core,
    Hpcc,
    /// The pacer top: grants per cycle at 1024 and 4096 QPs and the accuracy table
    /// (`--qps`, `--pattern` and `--params` do not apply).
    Pacer,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum PatternArg {
    OneQp,
    TwoQp,
    RoundRobin,
    Random,
    Mixed,
    All,
}

#[derive(Clone, Copy, ValueEnum)]
enum EngineArg {
    Rtl,
    Golden,
}

pub fn run(a: &BenchArgs) -> Result<(), Failure> {
    if let UnitArg::Pacer = a.unit {
        return run_pacer(a);
    }
    let unit = match a.unit {
        UnitArg::Rp => Unit::Rp,
        UnitArg::Np => Unit::Np,
        UnitArg::Core => Unit::Core,
        UnitArg::Hpcc => Unit::Hpcc,
        UnitArg::Pacer => unreachable!("handled above"),
    };
    let engine = match a.engine {
        EngineArg::Rtl => Engine::Rtl,
        EngineArg::Golden => Engine::Golden,
    };
    let mut patterns = Vec::new();
    for p in &a.pattern {
        let list: &[Pattern] = match p {
            PatternArg::OneQp => &[Pattern::OneQp],
            PatternArg::TwoQp => &[Pattern::TwoQp],
            PatternArg::RoundRobin => &[Pattern::RoundRobin],
            PatternArg::Random => &[Pattern::Random],
            PatternArg::Mixed => &[Pattern::Mixed],
            PatternArg::All => &Pattern::ALL,
        };
        for &q in list {
            if !patterns.contains(&q) {
                patterns.push(q);
            }
        }
    }
    if a.cycles == 0 {
        return Err(bad_input("--cycles must be at least 1"));
    }
    if engine == Engine::Rtl && !unit.rtl_qps().contains(&a.qps) {
        return Err(bad_input(format!(
            "no Verilated {} with {} QPs: choose --qps from {:?} (or --engine golden)",
            unit.name(),
            a.qps,
            unit.rtl_qps()
        )));
    }
    let mut p = match &a.params {
        Some(path) => Params::from_file(path).map_err(|e| bad_input(e.to_string()))?,
        None => Params::default(),
    };
    p.qps = a.qps;
    p.validate()
        .map_err(|e| bad_input(format!("--qps {}: {e}", a.qps)))?;
    if !a.json {
        print_out(&format!("{TABLE_HEADER}\n"))?;
    }
    let mut speeds = Vec::new();
    for &pattern in &patterns {
        let rows = bench::run(unit, engine, pattern, &p, a.cycles, a.seed).map_err(internal)?;
        let mut text = String::new();
        for r in &rows {
            if a.json {
                text.push_str(&r.to_json());
            } else {
                text.push_str(&r.to_string());
            }
            text.push('\n');
        }
        speeds.push((
            pattern.name(),
            rows.last().map_or(0.0, |r| r.sim_cycles_per_s),
        ));
        print_out(&text)?;
    }
    if !a.json {
        let engine = match engine {
            Engine::Rtl => "Verilated RTL",
            Engine::Golden => "golden model",
        };
        let s: Vec<String> = speeds
            .iter()
            .map(|(n, s)| format!("{n} {:.0}", s))
            .collect();
        print_out(&format!(
            "\n{} cycles per pattern, {engine}; simulated cycles/s: {}\n",
            a.cycles,
            s.join(", ")
        ))?;
    }
    Ok(())
}

/// `--unit pacer`: the grant rate at 1024 and 4096 QPs over `--cycles`, then the accuracy
/// table (docs/bench.md, `roce_cc_sim::bench_pacer`).
fn run_pacer(a: &BenchArgs) -> Result<(), Failure> {
    use roce_cc_sim::bench_pacer::{
        ACC_CLOCK_MHZ, ACC_HEADER, ACC_LINE_MBPS, ACC_ROWS, GRANT_HEADER, accuracy, grant_rate,
    };
    if a.cycles == 0 {
        return Err(bad_input("--cycles must be at least 1"));
    }
    let rtl = matches!(a.engine, EngineArg::Rtl);
    let mut out = String::new();
    if !a.json {
        out.push_str(&format!(
            "Grants per cycle: every QP backlogged, unpaced, 64-byte packets, the port always ready\n\n{GRANT_HEADER}\n"
        ));
    }
    print_out(&out)?;
    for qps in [1024, 4096] {
        let r = grant_rate(qps, rtl, a.cycles).map_err(internal)?;
        let line = if a.json {
            format!(
                "{{\"table\": \"grants\", \"qps\": {}, \"engine\": \"{}\", \"cycles\": {}, \"grants\": {}, \"grants_per_cycle\": {:.4}, \"sim_cycles_per_s\": {:.0}}}\n",
                r.qps, r.engine, r.cycles, r.grants, r.grants_per_cycle, r.sim_cycles_per_s
            )
        } else {
            format!("{r}\n")
        };
        print_out(&line)?;
    }
    if !a.json {
        print_out(&format!(
            "\nAccuracy: QP 0 at the set rate on a {} Gb/s port at {ACC_CLOCK_MHZ} MHz, alone and beside 999 backlogged QPs\n\n{ACC_HEADER}\n",
            ACC_LINE_MBPS / 1000
        ))?;
    }
    for others in [0, 999] {
        for &(rate, bytes, packets) in &ACC_ROWS {
            let r = accuracy(rate, bytes, packets, others, rtl).map_err(internal)?;
            let line = if a.json {
                format!(
                    "{{\"table\": \"accuracy\", \"rate_mbps\": {}, \"others\": {}, \"oversubscribed\": {}, \"packet_bytes\": {}, \"packets\": {}, \"measured_mbps\": {:.6}, \"error\": {:.3e}, \"cycles\": {}}}\n",
                    r.rate_mbps,
                    r.others,
                    r.oversubscribed,
                    r.packet_bytes,
                    r.packets,
                    r.measured_mbps,
                    r.error,
                    r.cycles
                )
            } else {
                format!("{r}\n")
            };
            print_out(&line)?;
        }
    }
    Ok(())
}
