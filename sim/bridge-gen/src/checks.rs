//! The two static gates on generated Verilog: Verilator's lint and yosys synthesis.

use crate::tools;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Yosys cell types that are latches, before and after technology mapping.
const LATCH_CELLS: &[&str] = &[
    "t:$dlatch",
    "t:$adlatch",
    "t:$dlatchsr",
    "t:$_DLATCH_*",
    "t:$_DLATCHSR_*",
    "t:$_SR_*",
];

/// `verilator --lint-only -Wall -Wno-DECLFILENAME <waivers> <verilog> --top-module top`.
///
/// `Ok(())` when Verilator reports nothing beyond what `waivers` (a `.vlt` configuration
/// file) waives; otherwise `Err` with Verilator's messages. `DECLFILENAME` (file name differs
/// from the module name) is off because rust-hdl names every top module `top`.
pub fn lint_top(verilog: &Path, waivers: &Path) -> Result<(), String> {
    lint_top_with_cells(verilog, &[], waivers)
}

/// [`lint_top`] for a top that instantiates vendor cells: `cells` (Verilog files of
/// lint-only stand-ins for those cells, e.g. `roce_cc_hdl::LINT_VENDOR_CELLS` written to a
/// file) are read before the top and linted with it.
pub fn lint_top_with_cells(verilog: &Path, cells: &[&Path], waivers: &Path) -> Result<(), String> {
    let mut cmd = Command::new(tools::verilator());
    cmd.args(["--lint-only", "-Wall", "-Wno-DECLFILENAME"])
        .arg(waivers)
        .args(cells)
        .arg(verilog)
        .args(["--top-module", "top"]);
    tools::run(&mut cmd).map(|_| ())
}

/// Synthesises `verilog` (top module `top`, flattened) with yosys's generic `synth`, runs
/// `check -assert`, and fails if any latch cell is left.
///
/// `Ok` holds a one-line summary of `stat`: `"<n> cells: <type> <count>, ..."`;
/// `Err` holds yosys's messages (for a latch: the offending cells).
pub fn yosys_check(verilog: &Path) -> Result<String, String> {
    yosys_check_with(verilog, YosysFlow::Generic)
}

/// How far [`yosys_check_with`] takes a design.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum YosysFlow {
    /// `proc; flatten`: elaboration only. Every latch is inferred here (by `proc_dlatch`),
    /// and `check` sees combinational loops and undriven nets; seconds even for the RP.
    Elaborate,
    /// `synth -flatten`: generic gate-level synthesis.
    Generic,
    /// `synth_ecp5`: Lattice ECP5 cells (block RAM, DSP multipliers, LUT4); minutes for the
    /// RP, and the cell counts are the design's real size on that family.
    Ecp5,
}

/// Like [`yosys_check`], taking the design through `flow` before `check -assert` and the
/// latch check.
pub fn yosys_check_with(verilog: &Path, flow: YosysFlow) -> Result<String, String> {
    yosys_check_with_cells(verilog, &[], flow)
}

/// [`yosys_check_with`] for a top that instantiates vendor cells: `cells` (Verilog files
/// whose modules are marked `(* blackbox *)`) are read before the top, so `hierarchy
/// -check` knows them. For [`YosysFlow::Elaborate`] and [`YosysFlow::Generic`]; `synth_ecp5`
/// reads Lattice's own cell library and needs none.
pub fn yosys_check_with_cells(
    verilog: &Path,
    cells: &[&Path],
    flow: YosysFlow,
) -> Result<String, String> {
    let stat = scratch_file("stat.txt");
    let steps = match flow {
        YosysFlow::Elaborate => "hierarchy -check -top top; proc; flatten; opt_clean",
        YosysFlow::Generic => "synth -flatten -top top",
        YosysFlow::Ecp5 => "synth_ecp5 -top top",
    };
    let script = format!(
        "{steps}; check -assert; select -assert-none {}; tee -q -o {} stat",
        LATCH_CELLS.join(" "),
        stat.display()
    );
    let mut cmd = Command::new(tools::yosys());
    cmd.args(["-q", "-p", &script]).args(cells).arg(verilog);
    let result = tools::run(&mut cmd);
    let summary = std::fs::read_to_string(&stat).map(|text| stat_summary(&text));
    let _ = std::fs::remove_file(&stat);
    result?;
    summary.map_err(|e| format!("yosys wrote no statistics: {e}"))
}

/// A fresh path in the temporary directory (unique per process and call).
fn scratch_file(suffix: &str) -> PathBuf {
    static COUNTER: AtomicUsize = AtomicUsize::new(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    std::env::temp_dir().join(format!(
        "roce-cc-bridge-{}-{n}-{suffix}",
        std::process::id()
    ))
}

/// `"<n> cells: <type> <count>, ..."` from yosys `stat` output.
fn stat_summary(text: &str) -> String {
    let mut total = String::from("?");
    let mut types = Vec::new();
    let mut in_cells = false;
    for line in text.lines() {
        let fields: Vec<&str> = line.split_whitespace().collect();
        if let Some(n) = line.trim().strip_prefix("Number of cells:") {
            total = n.trim().to_string();
            in_cells = true;
        } else if let (true, Some((cell, n))) = (in_cells, cell_count(&fields)) {
            types.push(format!("{cell} {n}"));
        } else if in_cells && !line.trim().is_empty() {
            in_cells = false;
        }
    }
    format!("{total} cells: {}", types.join(", "))
}

/// A `stat` line's fields as a cell type and its count (`$_AND_ 2`, `LUT4 1234`).
fn cell_count<'a>(fields: &[&'a str]) -> Option<(&'a str, u64)> {
    let [cell, n] = fields else { return None };
    let n = n.parse::<u64>().ok()?;
    cell.chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
        .then_some((*cell, n))
}

/// Cell type -> count from yosys `stat` output (the first module's list; a flattened design
/// has one).
pub(crate) fn stat_cells(text: &str) -> std::collections::BTreeMap<String, u64> {
    let mut cells = std::collections::BTreeMap::new();
    let mut in_cells = false;
    for line in text.lines() {
        let fields: Vec<&str> = line.split_whitespace().collect();
        if line.trim().starts_with("Number of cells:") {
            if !cells.is_empty() {
                break;
            }
            in_cells = true;
        } else if let (true, Some((cell, n))) = (in_cells, cell_count(&fields)) {
            cells.insert(cell.to_string(), n);
        } else if in_cells && !line.trim().is_empty() {
            in_cells = false;
        }
    }
    cells
}

#[cfg(test)]
mod tests {
    use super::*;

    const CLEAN: &str = "module top(input wire clock, input wire [3:0] a, input wire [3:0] b,
    output reg [3:0] q);
    always @(posedge clock) q <= a & b;
endmodule
";

    /// `q` keeps its value when `en` is low: a latch.
    const LATCHING: &str = "module top(input wire en, input wire [3:0] d, output reg [3:0] q);
    always @(*) begin
        if (en) q = d;
    end
endmodule
";

    /// A scratch file, removed when dropped.
    struct Scratch(PathBuf);

    impl Drop for Scratch {
        fn drop(&mut self) {
            let _ = std::fs::remove_file(&self.0);
        }
    }

    impl std::ops::Deref for Scratch {
        type Target = Path;
        fn deref(&self) -> &Path {
            &self.0
        }
    }

    fn write(name: &str, text: &str) -> Scratch {
        let path = scratch_file(name);
        std::fs::write(&path, text).unwrap();
        Scratch(path)
    }

    #[test]
    fn yosys_passes_clean_verilog_with_stats() {
        let v = write("clean.v", CLEAN);
        let summary = yosys_check(&v).expect("clean design must pass");
        assert!(summary.starts_with("8 cells:"), "{summary}");
        assert!(summary.contains("$_DFF_P_ 4"), "{summary}");
    }

    #[test]
    fn yosys_fails_on_a_latch() {
        let v = write("latch.v", LATCHING);
        let err = yosys_check(&v).expect_err("a latch must fail");
        assert!(err.contains("DLATCH") || err.contains("dlatch"), "{err}");
    }

    #[test]
    fn elaboration_alone_finds_the_latch() {
        let v = write("latch_elab.v", LATCHING);
        let err = yosys_check_with(&v, YosysFlow::Elaborate).expect_err("a latch must fail");
        assert!(err.contains("dlatch"), "{err}");
        let v = write("clean_elab.v", CLEAN);
        yosys_check_with(&v, YosysFlow::Elaborate).expect("clean design must pass");
    }

    #[test]
    fn lint_passes_clean_verilog() {
        let v = write("lint_clean.v", CLEAN);
        let w = write("waivers.vlt", "`verilator_config\n");
        lint_top(&v, &w).expect("clean design must lint");
    }

    #[test]
    fn lint_fails_on_a_latch() {
        let v = write("lint_latch.v", LATCHING);
        let w = write("waivers2.vlt", "`verilator_config\n");
        let err = lint_top(&v, &w).expect_err("a latch must fail lint");
        assert!(err.contains("LATCH"), "{err}");
    }

    #[test]
    fn stat_lines_are_summarised() {
        let text = "=== top ===\n\n   Number of wires:  5\n   Number of cells:  3\n     $_AND_   2\n     $_DFF_P_  1\n\n";
        assert_eq!(stat_summary(text), "3 cells: $_AND_ 2, $_DFF_P_ 1");
        let cells = stat_cells(text);
        assert_eq!(cells.len(), 2);
        assert_eq!(cells["$_AND_"], 2);
        assert_eq!(cells["$_DFF_P_"], 1);
    }
}
