//! The static gates on every top roce-cc ships (`roce_cc_hdl::verilog_tops`), exactly as a
//! user gets them from `roce-cc verilog --out DIR`:
//!
//! - `verilator --lint-only -Wall` with the checked-in waiver file (`hdl/lint/waivers.vlt`)
//!   reports nothing;
//! - yosys finds no latch, no combinational loop and no undriven net after elaboration
//!   (`proc; flatten; check -assert`: every latch is inferred at `proc`);
//! - full synthesis, `synth_ecp5` (Lattice ECP5 cells: block RAM, DSP multipliers, LUT4), of
//!   `roce_cc_top` (the core top with both units, plus the register block) passes the same
//!   checks, with no latch cell left,
//!   and prints the cell counts. About 6 minutes on two cores; `ROCE_CC_NO_SYNTH=1` skips
//!   it for a quick local run (CI never sets it).

use roce_cc_bridge_gen::{YosysFlow, lint_top, yosys_check_with};
use std::path::PathBuf;

/// Writes every top and the waiver file into a fresh directory under the target dir.
fn emit() -> (PathBuf, Vec<PathBuf>) {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("rtl_gates_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let waivers = dir.join("waivers.vlt");
    std::fs::write(&waivers, roce_cc_hdl::LINT_WAIVERS).unwrap();
    let tops = roce_cc_hdl::verilog_tops()
        .into_iter()
        .map(|(name, text)| {
            let path = dir.join(format!("{name}.v"));
            std::fs::write(&path, text).unwrap();
            path
        })
        .collect();
    (waivers, tops)
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
    assert!(!tops.is_empty());
    for top in &tops {
        if let Err(e) = lint_top(top, &waivers) {
            let n = e.lines().filter(|l| l.starts_with("%Warning")).count();
            let head: Vec<&str> = e.lines().take(40).collect();
            panic!("{}: {n} lint warnings:\n{}", top.display(), head.join("\n"));
        }
    }
}

#[test]
fn yosys_finds_no_latch_loop_or_undriven_net() {
    let (_, tops) = emit();
    for top in &tops {
        let stat = yosys_check_with(top, YosysFlow::Elaborate)
            .unwrap_or_else(|e| panic!("{}: {e}", top.display()));
        eprintln!("{}: {stat}", top.display());
    }
}

#[test]
fn yosys_ecp5_synthesis_without_latches() {
    if std::env::var_os("ROCE_CC_NO_SYNTH").is_some() {
        eprintln!("full synth_ecp5 skipped (ROCE_CC_NO_SYNTH is set)");
        return;
    }
    // The shipped top with the register block: it contains the core top, so this one run
    // covers both.
    let (_, tops) = emit();
    let top = tops
        .iter()
        .find(|t| t.file_stem().is_some_and(|s| s == roce_cc_hdl::TOP))
        .expect("the top with the register block is shipped");
    let stat =
        yosys_check_with(top, YosysFlow::Ecp5).unwrap_or_else(|e| panic!("{}: {e}", top.display()));
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
    if let Err(e) = lint_top(&top, &waivers) {
        let head: Vec<&str> = e.lines().take(40).collect();
        panic!("{}: lint warnings:\n{}", top.display(), head.join("\n"));
    }
    let stat = yosys_check_with(&top, YosysFlow::Elaborate)
        .unwrap_or_else(|e| panic!("{}: {e}", top.display()));
    eprintln!("{}: {stat}", top.display());
}
