//! The static gates on every top roce-cc ships (`roce_cc_hdl::verilog_tops`), exactly as a
//! user gets them from `roce-cc verilog --out DIR`:
//!
//! - `verilator --lint-only -Wall` with the checked-in waiver file (`hdl/lint/waivers.vlt`)
//!   reports nothing;
//! - vendor cells (the board design's ECP5 PLL, `EHXPLLL`; the DSP leaves' `MULT18X18D`,
//!   which yosys reads under `SYNTHESIS`) are read from the lint-only
//!   stand-ins `hdl/lint/ecp5_cells.v` by both Verilator and yosys, as a user would lint the
//!   tops `roce-cc verilog` writes with that file;
//! - yosys finds no latch, no combinational loop and no undriven net after elaboration
//!   (`proc; flatten; check -assert`: every latch is inferred at `proc`);
//! - with `ROCE_CC_SYNTH=1`, full synthesis, `synth_ecp5` (Lattice ECP5 cells: block RAM,
//!   DSP multipliers, LUT4), of `roce_cc_top` (the core top with both units, plus the
//!   register block) passes the same checks, with no latch cell left, and prints the cell
//!   counts. It takes about 8 minutes on two cores, so the default suite leaves it out: a
//!   latch is inferred at `proc`, which the elaboration check above already runs on every
//!   top, and `roce-cc synth` and the post-synthesis simulation (`ROCE_CC_POST_SYNTH=1`)
//!   synthesize the same design.

use roce_cc_bridge_gen::{
    YosysFlow, lint_top_with_cells, yosys_check_with, yosys_check_with_cells,
};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};

/// Writes the vendor cells' lint-only stand-ins into `dir`; returns the file.
fn vendor_cells(dir: &Path) -> PathBuf {
    let cells = dir.join("ecp5_cells.v");
    std::fs::write(&cells, roce_cc_hdl::LINT_VENDOR_CELLS).unwrap();
    cells
}

/// Writes every top and the waiver file into a fresh directory under the target dir, once
/// per test process (generating the 1024-QP tops' Verilog takes about a minute): the lint
/// and the elaboration gate read the same files.
fn emit() -> (PathBuf, Vec<PathBuf>) {
    static EMITTED: OnceLock<(PathBuf, Vec<PathBuf>)> = OnceLock::new();
    EMITTED
        .get_or_init(|| {
            let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
                .join(format!("rtl_gates_{}", std::process::id()));
            std::fs::create_dir_all(&dir).unwrap();
            let waivers = dir.join("waivers.vlt");
            std::fs::write(&waivers, roce_cc_hdl::LINT_WAIVERS).unwrap();
            vendor_cells(&dir);
            let tops = roce_cc_hdl::verilog_tops()
                .into_iter()
                .map(|(name, text)| {
                    let path = dir.join(format!("{name}.v"));
                    std::fs::write(&path, text).unwrap();
                    path
                })
                .collect();
            (waivers, tops)
        })
        .clone()
}

/// The file [`emit`] wrote for the shipped top `name`.
fn emitted(name: &str) -> PathBuf {
    let (_, tops) = emit();
    tops.into_iter()
        .find(|t| t.file_stem().is_some_and(|s| s == name))
        .unwrap_or_else(|| panic!("{name} is not a shipped top"))
}

/// Runs `check` on every top, as many at a time as the machine has cores (each check is
/// one Verilator or yosys process), and panics with every top's failure.
fn check_every_top(tops: &[PathBuf], check: impl Fn(&Path) -> Result<(), String> + Sync) {
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get());
    let next = AtomicUsize::new(0);
    let failures = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..workers.min(tops.len()) {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(top) = tops.get(i) else { break };
                    if let Err(e) = check(top) {
                        failures
                            .lock()
                            .unwrap()
                            .push(format!("{}: {e}", top.display()));
                    }
                }
            });
        }
    });
    let failures = failures.into_inner().unwrap();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn every_waiver_has_a_reason_and_none_is_blanket() {
    let text = roce_cc_hdl::LINT_WAIVERS;
    let lines: Vec<&str> = text.lines().collect();
    for (i, line) in lines.iter().enumerate() {
        let l = line.trim();
        if !l.starts_with("lint_off") {
            continue;
        }
        assert!(
            i > 0 && lines[i - 1].trim().starts_with("//"),
            "waiver without a reason comment above it: {l}"
        );
        assert!(l.contains("-rule"), "a waiver of every rule: {l}");
        if l.contains("WIDTH") {
            assert!(l.contains("-match"), "a blanket WIDTH waiver: {l}");
        }
    }
}

#[test]
fn verilator_lint_is_clean() {
    let (waivers, tops) = emit();
    let cells = waivers.with_file_name("ecp5_cells.v");
    assert!(!tops.is_empty());
    check_every_top(&tops, |top| {
        lint_top_with_cells(top, &[&cells], &waivers).map_err(|e| {
            let n = e.lines().filter(|l| l.starts_with("%Warning")).count();
            let head: Vec<&str> = e.lines().take(40).collect();
            format!("{n} lint warnings:\n{}", head.join("\n"))
        })
    });
}

#[test]
fn yosys_finds_no_latch_loop_or_undriven_net() {
    let (waivers, tops) = emit();
    let cells = waivers.with_file_name("ecp5_cells.v");
    assert!(!tops.is_empty());
    check_every_top(&tops, |top| {
        let stat = yosys_check_with_cells(top, &[&cells], YosysFlow::Elaborate)?;
        eprintln!("{}: {stat}", top.display());
        Ok(())
    });
}

#[test]
fn yosys_ecp5_synthesis_without_latches() {
    if std::env::var_os("ROCE_CC_SYNTH").is_none() {
        eprintln!("full synth_ecp5 not run: set ROCE_CC_SYNTH=1 to run it");
        return;
    }
    // The shipped top with the register block: it contains the core top, so this one run
    // covers both.
    let top = emitted(roce_cc_hdl::TOP);
    let stat = yosys_check_with(&top, YosysFlow::Ecp5)
        .unwrap_or_else(|e| panic!("{}: {e}", top.display()));
    eprintln!("{}: {stat}", top.display());
}

/// The synthesis shell of `roce-cc synth` (`hdl/src/synth_shell.rs`) around the core for 16
/// QPs passes the same lint and elaboration checks as the shipped tops. (It is not a
/// shipped top: `roce-cc synth` generates it for the QP count asked for.)
#[test]
fn synth_shell_is_lint_clean() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("rtl_gates_shell_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let waivers = dir.join("waivers.vlt");
    std::fs::write(&waivers, roce_cc_hdl::LINT_WAIVERS).unwrap();
    let top = dir.join("synth_shell_q16.v");
    std::fs::write(
        &top,
        roce_cc_hdl::verilog_of(roce_cc_hdl::synth_shell::SynthShell::<4>::new()),
    )
    .unwrap();
    let cells = vendor_cells(&dir);
    if let Err(e) = lint_top_with_cells(&top, &[&cells], &waivers) {
        let head: Vec<&str> = e.lines().take(40).collect();
        panic!("{}: lint warnings:\n{}", top.display(), head.join("\n"));
    }
    // yosys defines `SYNTHESIS`, so it reads the DSP leaves' `MULT18X18D` instances (the
    // stand-in declares the cell as a black box).
    let stat = yosys_check_with_cells(&top, &[&cells], YosysFlow::Elaborate)
        .unwrap_or_else(|e| panic!("{}: {e}", top.display()));
    eprintln!("{}: {stat}", top.display());
}

/// The pipelined multipliers' first register is the DSP's own (`hdl/src/dsp_mul.rs`): for
/// synthesis each `DspMul` is a `MULT18X18D` with its output register on the clock, and
/// the vendor cell's stand-in is a black box to yosys.
#[test]
fn dsp_mul_instantiates_the_registered_dsp() {
    let v = roce_cc_hdl::verilog_of(roce_cc_hdl::DspMul15x17::default());
    let dsp = v.find("MULT18X18D #(").expect("a MULT18X18D instance");
    let sim = v.find("`else").expect("a simulation body");
    assert!(
        v.find("`ifdef SYNTHESIS")
            .is_some_and(|i| i < dsp && dsp < sim),
        "{v}"
    );
    for want in [
        ".REG_OUTPUT_CLK(\"CLK0\")",
        ".REG_INPUTA_CLK(\"NONE\")",
        ".REG_PIPELINE_CLK(\"NONE\")",
        ".CLK0(clock)",
        ".CE0(en)",
        ".RST0(1'b0)",
        ".SIGNEDA(1'b0)",
        ".SIGNEDB(1'b0)",
    ] {
        assert!(
            v[dsp..sim].contains(want),
            "the DSP instance lacks {want:?}"
        );
    }
    let cells = roce_cc_hdl::LINT_VENDOR_CELLS;
    let at = cells
        .find("module MULT18X18D")
        .expect("MULT18X18D stand-in");
    assert!(
        cells[..at].trim_end().ends_with("(* blackbox *)"),
        "the MULT18X18D stand-in must be a yosys black box"
    );
}

/// The board design instantiates the ECP5 PLL (`hdl/src/ecp5_pll.rs`) with the dividers of
/// 25 -> 100 MHz, and the stand-in the gates read for it is a black box to yosys (so the
/// elaboration check never takes the stand-in's pass-through for the real cell).
#[test]
fn board_has_the_pll_and_its_stand_in_is_a_black_box() {
    let board = std::fs::read_to_string(emitted(roce_cc_hdl::BOARD_ULX3S)).unwrap();
    assert_eq!(
        board.matches("EHXPLLL #(").count(),
        1,
        "one PLL on the board"
    );
    for want in [
        "(* FREQUENCY_PIN_CLKI=\"25\" *)",
        "(* FREQUENCY_PIN_CLKOP=\"100\" *)",
        ".CLKI_DIV(1),",
        ".CLKFB_DIV(4),",
        ".CLKOP_DIV(6),",
        ".FEEDBK_PATH(\"CLKOP\")",
    ] {
        assert!(board.contains(want), "board Verilog lacks {want:?}");
    }
    let cells = roce_cc_hdl::LINT_VENDOR_CELLS;
    let at = cells.find("module EHXPLLL").expect("EHXPLLL stand-in");
    assert!(
        cells[..at].trim_end().ends_with("(* blackbox *)"),
        "the EHXPLLL stand-in must be a yosys black box"
    );
}
