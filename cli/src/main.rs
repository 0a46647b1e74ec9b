//! `roce-cc`: emit the core's Verilog, replay event traces through the golden model or the
//! Verilated RTL, print parameter profiles and the register map.
//!
//! Exit codes: 0 success; 2 bad input (trace, parameters, command line); 1 internal failure.

mod bench_cmd;
mod driver_cmd;
mod lpf;
mod netsim_cmd;
mod synth_cmd;

use clap::{Parser, Subcommand, ValueEnum};
use roce_cc_params::{PROFILES, Params};
use roce_cc_sim::replay::ReplayEngine;
use roce_cc_sim::replay_golden::{GoldenEngine, ReplayError, replay};
use roce_cc_sim::replay_rtl::RtlEngine;
use roce_cc_sim::trace::parse_trace;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// roce-cc: a DCQCN congestion-control core for RoCEv2 FPGA NICs.
#[derive(Parser)]
#[command(name = "roce-cc", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Write the Verilog of every top the core ships, plus the Verilator lint waivers.
    ///
    /// Writes DIR/<top>.v for each top, DIR/waivers.vlt and DIR/ecp5_cells.v (lint-only
    /// stand-ins for the vendor cells the board design instantiates: its PLL), prints the
    /// paths written and the Verilator command that lints them. Each top's module is named
    /// `top`.
    Verilog {
        /// Directory to write into (created if missing; existing files are overwritten).
        #[arg(long, value_name = "DIR")]
        out: PathBuf,
    },
    /// Replay an event trace (TRACE.jsonl) and print what the core did (OUT.jsonl).
    ///
    /// The trace has one JSON object per line, times non-decreasing (ties replay in file
    /// order); blank lines are skipped:
    ///
    ///   {"t_ns": 1000, "ev": "cnp",    "qp": 3}                 CNP received for QP 3
    ///   {"t_ns": 1200, "ev": "tx",     "qp": 3, "bytes": 1024}  QP 3 sent 1024 bytes
    ///   {"t_ns": 1300, "ev": "ecn",    "qp": 7}                 CE-marked packet for QP 7
    ///   {"t_ns": 1400, "ev": "sample", "qp": 3}                 report QP 3's state
    ///
    /// Event times in ns become clock cycles as floor(t_ns * clock_mhz / 1000). The events
    /// go through the core top (reaction point and notification point). Each sample prints
    /// the QP's state, and each CE mark the NP's limiter lets through prints a CNP request:
    ///
    ///   {"t_ns": 1300, "ev": "cnp_out", "qp": 7, "dscp": 48, "prio": 6}
    ///   {"t_ns": 1400, "qp": 3, "limited": true, "rc_mbps": 50000.0, "rt_mbps": 100000.0, "alpha": 0.9990234375}
    ///
    /// with exact decimal values of the fixed-point state. Both engines print byte-identical
    /// output, so `diff` compares them.
    ///
    /// Errors go to stderr as `error: FILE:LINE: message`. Exit code 2: bad trace or bad
    /// parameters; 1: internal failure.
    #[command(
        verbatim_doc_comment,
        about = "Replay an event trace (TRACE.jsonl) and print what the core did (OUT.jsonl)"
    )]
    Replay {
        /// Which model replays the trace.
        #[arg(long, value_enum)]
        engine: Engine,
        /// Parameter file (flat keys as printed by `roce-cc params`; missing keys take the
        /// connectx defaults). Without it, the connectx defaults.
        #[arg(long, value_name = "PARAMS.toml")]
        params: Option<PathBuf>,
        /// The trace, one JSON event per line; `-` reads standard input.
        #[arg(value_name = "TRACE.jsonl")]
        trace: PathBuf,
        /// With `--engine rtl`: write every signal of the Verilated run to this VCD file
        /// (time unit: half clock cycles; open it with GTKWave or Surfer).
        #[arg(long, value_name = "FILE.vcd")]
        vcd: Option<PathBuf>,
    },
    /// Print a complete PARAMS.toml for a named profile (every key, with its value).
    Params {
        /// connectx: the ConnectX defaults; paper: the DCQCN paper (SIGCOMM'15); ns3-mlx:
        /// the "mlx" DCQCN of the HPCC ns-3 simulator; hpcc-ns3: that simulator's HPCC
        /// scaling (R_AI and the INT units by the line rate).
        #[arg(
            long,
            default_value = "connectx",
            value_parser = clap::builder::PossibleValuesParser::new(PROFILES)
        )]
        profile: String,
    },
    /// Configure and watch the core through its registers (docs/registers.md).
    ///
    /// The BAR is `sim` (the Verilated core and register block, every access an AXI4-Lite
    /// transaction: the PCIe BAR stub; built for 16 or 1024 QPs at 250 MHz), `model` (the
    /// golden register block over the golden core, sized by --qps/--clock-mhz) or the path
    /// of a device's BAR, e.g. /sys/bus/pci/devices/0000:01:00.0/resource0. With --params
    /// the file is loaded first; with --trace (sim and model) its events are fed to the
    /// core at their times before the command, so counters and QP state show their effect.
    Driver {
        /// `sim`, `model`, `uart:TTY[@BAUD]` (a board's UART), or the path of a BAR resource file.
        #[arg(long, value_name = "sim|model|PATH")]
        bar: String,
        /// QPs of the simulated bitstream (sim: 16 or 1024).
        #[arg(long, default_value_t = 1024)]
        qps: u32,
        /// Clock of the simulated bitstream, MHz (sim: 250).
        #[arg(long, default_value_t = 250)]
        clock_mhz: u32,
        /// Load this PARAMS.toml (checked, written, applied) before the command.
        #[arg(long, value_name = "PARAMS.toml")]
        params: Option<PathBuf>,
        /// Feed this trace's events to the simulated core before the command.
        #[arg(long, value_name = "TRACE.jsonl")]
        trace: Option<PathBuf>,
        #[command(subcommand)]
        cmd: driver_cmd::DriverCmd,
    },
    /// Print a text generated from the register map (regmap/src/lib.rs): the register
    /// documentation (docs/registers.md) or the C header for drivers written in C
    /// (host-driver/include/roce_cc_regs.h).
    Regmap {
        #[arg(value_enum)]
        what: RegmapText,
    },
    /// Synthesise for an ECP5: the core top (--core: utilization and Fmax) or a board
    /// design down to a bitstream (--board ulx3s-85f: DIR/roce_cc.bit).
    ///
    /// Installs the tools from PyPI on first use (a venv, .venv-synth/ at the repository
    /// root), then writes DIR/report.json and DIR/summary.md (docs/synthesis.md).
    Synth(synth_cmd::SynthArgs),
    /// Drive a unit (rp, np, core, hpcc) through the Verilated RTL with named traffic
    /// patterns and print, per input stream, the events offered and accepted, events per
    /// cycle, the cycles the input was not ready, the longest wait of one event and the
    /// reports out (docs/bench.md). `--unit pacer` prints the pacer's grants per cycle and
    /// its accuracy table instead.
    ///
    /// Every source holds its event until the unit takes it (valid/ready); the consumers
    /// are always ready. After the window the run drains until every accepted event is
    /// reported.
    Bench(bench_cmd::BenchArgs),
    /// Run the closed-loop network simulation: hosts whose NICs are the core (golden, or
    /// Verilated RTL for chosen hosts), switches with a shared buffer, ECN, PFC and INT
    /// (docs/netsim.md). Writes DIR/summary.json, CSV time series and SVG plots, and prints
    /// the verdict against the deployment goals. `netsim sweep` runs a grid of ECN, PFC and
    /// core parameters in parallel.
    Netsim(netsim_cmd::NetsimArgs),
}

/// What `roce-cc regmap` prints.
#[derive(Clone, Copy, ValueEnum)]
enum RegmapText {
    /// docs/registers.md.
    Markdown,
    /// host-driver/include/roce_cc_regs.h.
    CHeader,
}

/// The replay engines.
#[derive(Clone, Copy, ValueEnum)]
enum Engine {
    /// The bit-accurate golden model (Rust).
    Golden,
    /// The core's Verilog, Verilated, driven cycle by cycle.
    Rtl,
}

/// A failure: its message (already formatted, without `error: `) and the exit code.
pub(crate) struct Failure {
    message: String,
    code: u8,
}

/// Bad input from the user: exit code 2.
pub(crate) fn bad_input(message: impl Into<String>) -> Failure {
    Failure {
        message: message.into(),
        code: 2,
    }
}

/// Something that should not happen: exit code 1.
pub(crate) fn internal(message: impl Into<String>) -> Failure {
    Failure {
        message: message.into(),
        code: 1,
    }
}

/// Stack of the thread that runs a command: rust-hdl keeps a design in one struct, built
/// and connected on the stack, and the core top (an RP update of over a hundred pipeline
/// registers) needs more than a main thread's 8 MiB.
const COMMAND_STACK: usize = 1 << 30;

fn main() -> ExitCode {
    std::thread::Builder::new()
        .stack_size(COMMAND_STACK)
        .spawn(run)
        .expect("spawn the command thread")
        .join()
        .unwrap_or(ExitCode::FAILURE)
}

fn run() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.cmd {
        Cmd::Verilog { out } => verilog(&out),
        Cmd::Replay {
            engine,
            params,
            trace,
            vcd,
        } => replay_cmd(engine, params.as_deref(), &trace, vcd.as_deref()),
        Cmd::Params { profile } => params_cmd(&profile),
        Cmd::Driver {
            bar,
            qps,
            clock_mhz,
            params,
            trace,
            cmd,
        } => driver_cmd::run(&driver_cmd::DriverArgs {
            bar: &bar,
            qps,
            clock_mhz,
            params: params.as_deref(),
            trace: trace.as_deref(),
            cmd: &cmd,
        }),
        Cmd::Regmap { what } => print_out(&match what {
            RegmapText::Markdown => roce_cc_regmap::markdown(),
            RegmapText::CHeader => roce_cc_regmap::c_header(),
        }),
        Cmd::Synth(args) => synth_cmd::run(&args),
        Cmd::Bench(args) => bench_cmd::run(&args),
        Cmd::Netsim(args) => netsim_cmd::run(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(f) => {
            eprintln!("error: {}", f.message);
            ExitCode::from(f.code)
        }
    }
}

/// Write `text` to stdout (a closed pipe or full disk is an internal failure).
pub(crate) fn print_out(text: &str) -> Result<(), Failure> {
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .map_err(|e| internal(format!("cannot write to standard output: {e}")))
}

/// `roce-cc verilog --out DIR`.
fn verilog(dir: &Path) -> Result<(), Failure> {
    std::fs::create_dir_all(dir)
        .map_err(|e| bad_input(format!("cannot create {}: {e}", dir.display())))?;
    let write = |name: &str, text: &str| -> Result<PathBuf, Failure> {
        let path = dir.join(name);
        std::fs::write(&path, text)
            .map_err(|e| bad_input(format!("cannot write {}: {e}", path.display())))?;
        Ok(path)
    };
    let waivers = write("waivers.vlt", roce_cc_hdl::LINT_WAIVERS)?;
    let cells = write("ecp5_cells.v", roce_cc_hdl::LINT_VENDOR_CELLS)?;
    let mut text = format!("{}\n{}\n", waivers.display(), cells.display());
    let mut tops = Vec::new();
    for (name, verilog) in roce_cc_hdl::verilog_tops() {
        let path = write(&format!("{name}.v"), &verilog)?;
        text.push_str(&format!("{}\n", path.display()));
        tops.push(path);
    }
    for top in &tops {
        text.push_str(&format!(
            "lint: verilator --lint-only -Wall -Wno-DECLFILENAME {} {} {} --top-module top\n",
            waivers.display(),
            cells.display(),
            top.display()
        ));
    }
    print_out(&text)
}

/// `roce-cc replay`.
fn replay_cmd(
    engine: Engine,
    params: Option<&Path>,
    trace: &Path,
    vcd: Option<&Path>,
) -> Result<(), Failure> {
    if vcd.is_some() && !matches!(engine, Engine::Rtl) {
        return Err(bad_input(
            "--vcd needs --engine rtl (the golden model has no waveform)",
        ));
    }
    let params = match params {
        // from_file's messages already name the file.
        Some(path) => Params::from_file(path).map_err(|e| bad_input(e.to_string()))?,
        None => Params::default(),
    };
    let (name, text) = if trace == Path::new("-") {
        let mut s = String::new();
        std::io::stdin()
            .read_to_string(&mut s)
            .map_err(|e| bad_input(format!("<stdin>: cannot read the trace: {e}")))?;
        ("<stdin>".to_string(), s)
    } else {
        let s = std::fs::read_to_string(trace)
            .map_err(|e| bad_input(format!("{}: cannot read the trace: {e}", trace.display())))?;
        (trace.display().to_string(), s)
    };
    let at_line =
        |e: &roce_cc_sim::trace::TraceError| bad_input(format!("{name}:{}: {}", e.line, e.message));
    let events = parse_trace(&text, &params).map_err(|e| at_line(&e))?;
    if roce_cc_sim::replay_paced::has_posts(&events) {
        roce_cc_sim::replay_paced::paced_qps(&params).map_err(bad_input)?;
    }
    let mut engine: Box<dyn ReplayEngine> = match engine {
        Engine::Golden => Box::new(GoldenEngine::new(&params)),
        Engine::Rtl if roce_cc_sim::replay_paced::has_posts(&events) => {
            let dut = roce_cc_sim::verilated::paced_for(&params, vcd).map_err(bad_input)?;
            Box::new(roce_cc_sim::replay_paced::PacedEngine::with_dut(
                &params,
                dut,
                "verilator",
            ))
        }
        Engine::Rtl => {
            let dut = roce_cc_sim::verilated::core_for(&params, vcd).map_err(bad_input)?;
            Box::new(RtlEngine::with_dut(&params, dut, "verilator"))
        }
    };
    let out = replay(engine.as_mut(), &events).map_err(|e| match e {
        ReplayError::Engine(m) => internal(format!("{name}: replay failed: {m}")),
    })?;
    print_out(&out)
}

/// `roce-cc params --profile NAME`.
fn params_cmd(profile: &str) -> Result<(), Failure> {
    let p = Params::profile(profile)
        .ok_or_else(|| internal(format!("profile {profile} is listed but not defined")))?;
    print_out(&format!(
        "# roce-cc parameters, profile `{profile}` (roce-cc params --profile {profile})\n{}",
        p.to_toml_string()
    ))
}
