//! `roce-cc driver`: configure and watch the core through its registers.

use crate::{Failure, bad_input, internal, print_out};
use clap::Subcommand;
use roce_cc_host_driver::uart_bar::{open_serial, parse_uart_spec};
use roce_cc_host_driver::{Device, DriverError, FileBar, ModelBar, RegIo, SimBar};
use roce_cc_params::Params;
use roce_cc_sim::fixed::exact_decimal;
use roce_cc_sim::trace::parse_trace;
use std::path::{Path, PathBuf};

/// What `roce-cc driver` does once the BAR is open.
#[derive(Subcommand)]
pub enum DriverCmd {
    /// The firmware identity and the block list (unknown blocks are listed as skipped).
    Info,
    /// Show or load the parameters.
    Params {
        #[command(subcommand)]
        op: ParamsOp,
    },
    /// Every 64-bit counter.
    Counters,
    /// One QP's state (mode, limited, Rc, Rt, alpha) through the QP window.
    Qp {
        /// QP number.
        qp: u32,
    },
}

/// `roce-cc driver params ...`.
#[derive(Subcommand)]
pub enum ParamsOp {
    /// Print the staged parameters as a complete PARAMS.toml.
    Show,
    /// Check a PARAMS.toml, write it and apply it (nothing is written if it is refused).
    Load {
        /// The file (as printed by `roce-cc params`).
        #[arg(value_name = "PARAMS.toml")]
        file: PathBuf,
    },
}

/// The options of `roce-cc driver`.
pub struct DriverArgs<'a> {
    pub bar: &'a str,
    pub qps: u32,
    pub clock_mhz: u32,
    pub params: Option<&'a Path>,
    pub trace: Option<&'a Path>,
    pub cmd: &'a DriverCmd,
}

fn failure(e: DriverError) -> Failure {
    match e {
        DriverError::Open(_) | DriverError::BadParams(_) => bad_input(e.to_string()),
        _ => internal(e.to_string()),
    }
}

fn load_file(path: &Path) -> Result<Params, Failure> {
    Params::from_file(path).map_err(|e| bad_input(e.to_string()))
}

/// Run a driver command.
pub fn run(a: &DriverArgs) -> Result<(), Failure> {
    if a.bar == "model" {
        let build = Params {
            qps: a.qps,
            clock_mhz: a.clock_mhz,
            ..Params::default()
        };
        build.validate().map_err(|e| bad_input(e.to_string()))?;
        let mut d = Device::open(ModelBar::new(&build)).map_err(failure)?;
        if let Some(p) = a.params {
            d.load_params(&load_file(p)?).map_err(failure)?;
        }
        if let Some(t) = a.trace {
            let text = std::fs::read_to_string(t)
                .map_err(|e| bad_input(format!("{}: cannot read the trace: {e}", t.display())))?;
            let applied = d.bar().model.applied.clone();
            let evs = parse_trace(&text, &applied)
                .map_err(|e| bad_input(format!("{}:{}: {}", t.display(), e.line, e.message)))?;
            roce_cc_sim::trace::register_block_can_feed(&evs)
                .map_err(|e| bad_input(format!("{}:{}: {}", t.display(), e.line, e.message)))?;
            d.bar().feed(&evs).map_err(internal)?;
        }
        command(&mut d, a.cmd)
    } else if a.bar == "sim" {
        let build = Params {
            qps: a.qps,
            clock_mhz: a.clock_mhz,
            ..Params::default()
        };
        build.validate().map_err(|e| bad_input(e.to_string()))?;
        let bar = SimBar::new(&build).map_err(|e| bad_input(e.to_string()))?;
        let mut d = Device::open(bar).map_err(failure)?;
        if let Some(p) = a.params {
            d.load_params(&load_file(p)?).map_err(failure)?;
        }
        if let Some(t) = a.trace {
            let text = std::fs::read_to_string(t)
                .map_err(|e| bad_input(format!("{}: cannot read the trace: {e}", t.display())))?;
            // The applied parameters are the staged ones (a load applies what it wrote).
            let applied = d.params().map_err(failure)?;
            let evs = parse_trace(&text, &applied)
                .map_err(|e| bad_input(format!("{}:{}: {}", t.display(), e.line, e.message)))?;
            roce_cc_sim::trace::register_block_can_feed(&evs)
                .map_err(|e| bad_input(format!("{}:{}: {}", t.display(), e.line, e.message)))?;
            d.bar().feed(&evs).map_err(|e| internal(e.to_string()))?;
        }
        command(&mut d, a.cmd)
    } else if let Some(spec) = parse_uart_spec(a.bar) {
        // A board's UART bridge (docs/uart_bridge.md): `uart:PATH[@BAUD]`.
        let (path, baud) = spec.map_err(bad_input)?;
        if a.trace.is_some() {
            return Err(bad_input(
                "--trace feeds events to a simulated core; a board gets its events from its \
                 own inputs (use --bar model or --bar sim)",
            ));
        }
        let bar =
            open_serial(&path, baud).map_err(|m| bad_input(format!("--bar {}: {m}", a.bar)))?;
        let mut d = Device::open(bar).map_err(failure)?;
        if let Some(p) = a.params {
            d.load_params(&load_file(p)?).map_err(failure)?;
        }
        command(&mut d, a.cmd)
    } else {
        if a.trace.is_some() {
            return Err(bad_input(
                "--trace feeds events to a simulated core; a real device gets its events from \
                 the network (use --bar model or --bar sim)",
            ));
        }
        let mut d =
            Device::open(FileBar::open(Path::new(a.bar)).map_err(failure)?).map_err(failure)?;
        if let Some(p) = a.params {
            d.load_params(&load_file(p)?).map_err(failure)?;
        }
        command(&mut d, a.cmd)
    }
}

fn command<B: RegIo>(d: &mut Device<B>, cmd: &DriverCmd) -> Result<(), Failure> {
    let text = match cmd {
        DriverCmd::Info => {
            let fw = d.fw_id().map_err(failure)?;
            let mut s = format!(
                "firmware: version {}.{}.{}, build id {}, git {:08x}\nblocks:\n",
                fw.version >> 16,
                fw.version >> 8 & 0xff,
                fw.version & 0xff,
                fw.build_id,
                fw.git_hash
            );
            for b in d.blocks() {
                s.push_str(&format!(
                    "  0x{:03x}  {:<14} type 0x{:08x}  version {}.{}\n",
                    b.base,
                    b.name.unwrap_or("(unknown)"),
                    b.type_id,
                    b.version >> 16,
                    b.version & 0xffff
                ));
            }
            for b in d.unknown_blocks() {
                s.push_str(&format!(
                    "skipped: a block of unknown type 0x{:08x} at 0x{:03x} (newer bitstream?)\n",
                    b.type_id, b.base
                ));
            }
            s
        }
        DriverCmd::Params { op: ParamsOp::Show } => d.params().map_err(failure)?.to_toml_string(),
        DriverCmd::Params {
            op: ParamsOp::Load { file },
        } => {
            let p = load_file(file)?;
            d.load_params(&p).map_err(failure)?;
            format!("loaded and applied {}\n", file.display())
        }
        DriverCmd::Counters => d
            .counters()
            .map_err(failure)?
            .iter()
            .map(|(n, v)| format!("{n:<18} {v}\n"))
            .collect(),
        DriverCmd::Qp { qp } => {
            let q = d.qp(*qp).map_err(|e| match e {
                DriverError::BadParams(m) => bad_input(m),
                e => failure(e),
            })?;
            let mode = ["dcqcn", "host_rate", "off", "hpcc"][q.mode.min(3) as usize];
            let alpha = if q.limited {
                exact_decimal(q.alpha_q20 as u64, 20)
            } else {
                "null".into()
            };
            if q.mode == roce_cc_regmap::QpMode::Hpcc as u32 {
                // As a replay's HPCC sample prints it.
                format!(
                    "{{\"qp\": {}, \"mode\": \"hpcc\", \"rate_mbps\": {}, \"rc_mbps\": {}, \"u\": {}, \"win_bytes\": {}}}\n",
                    q.qp,
                    exact_decimal(q.rc_mbps_q8 as u64, 8),
                    exact_decimal(q.rt_mbps_q8 as u64, 8),
                    exact_decimal(q.u_q24, 24),
                    q.window
                )
            } else {
                format!(
                    "{{\"qp\": {}, \"mode\": \"{mode}\", \"limited\": {}, \"rc_mbps\": {}, \"rt_mbps\": {}, \"alpha\": {alpha}}}\n",
                    q.qp,
                    q.limited,
                    exact_decimal(q.rc_mbps_q8 as u64, 8),
                    exact_decimal(q.rt_mbps_q8 as u64, 8)
                )
            }
        }
    };
    print_out(&text)
}
