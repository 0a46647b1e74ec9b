//! Post-synthesis simulation: a top's yosys `synth_ecp5` netlist, Verilated together with
//! simulation models of the Lattice ECP5 cells, behind the same shim and bindings as
//! [`crate::build_top`] gives the top's own Verilog.
//!
//! Why: the tops' `Verilog::Custom` leaves have bodies only synthesis reads (`DspMul`'s
//! `MULT18X18D` instance under `SYNTHESIS`) and attributes only synthesis acts on
//! (`StateRam`'s `no_rw_check`), and yosys's technology mapping itself (block RAM, carry
//! chains, LUT packing) is otherwise never simulated. The three steps, each cached by a stamp
//! on its inputs' contents, for use from a build script:
//! 1. [`synth_ecp5_netlist`]: `read_verilog` (which defines `SYNTHESIS`), `synth_ecp5 -top
//!    top`, `write_verilog -noattr`: a flat netlist of ECP5 cells. `roce-cc synth` runs the
//!    same passes with another wire delay for abc9's LUT mapping, a choice of structure, not
//!    of function; this runs `$YOSYS`, else the `yosys` on the path;
//! 2. [`ecp5_cell_library`]: yosys's `ecp5/cells_sim.v` plus our own models of the cells it
//!    leaves without a body (in yosys 0.23: `MULT18X18D` and `DP16KD`);
//! 3. [`build_netlist_top`]: Verilates netlist and library as a top whose ports are read from
//!    the rust-hdl top; fails if the netlist uses a cell the library does not model.

use crate::model;
use crate::ports::ports_of;
use crate::tools;
use crate::{TopInfo, emit_link, names, shim};
use rust_hdl::core::prelude::Block;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

/// A `synth_ecp5` netlist on disk and what it is made of.
#[derive(Clone, Debug)]
pub struct Netlist {
    /// The flattened netlist (`write_verilog -noattr`), top module `top`.
    pub path: PathBuf,
    /// yosys's `stat` of the netlist (`<netlist>.stat`).
    pub stat: PathBuf,
    /// Cell type -> count, from that `stat`.
    pub cells: BTreeMap<String, u64>,
}

/// A Verilog simulation library of vendor cells: files to read before a netlist, and the
/// include directories they need.
#[derive(Clone, Debug)]
pub struct CellLibrary {
    /// The files, in reading order.
    pub sources: Vec<PathBuf>,
    /// `-I` directories (`cells_sim.v` includes `cells_ff.vh` and `cells_io.vh`).
    pub include_dirs: Vec<PathBuf>,
    /// The cells with a simulation body, by module name.
    pub modelled: BTreeSet<String>,
    /// Where each of our models was used instead of yosys's, or dropped in its favour.
    pub notes: Vec<String>,
}

/// yosys's data directory (`share/yosys`, holding `ecp5/cells_sim.v`): `$YOSYS_DATDIR` if
/// set (an explicit override wins), else `yosys-config --datdir`, else `../share/yosys`
/// beside the `yosys` executable on `PATH` (Debian ships no `yosys-config` with `yosys`).
pub fn yosys_datdir() -> PathBuf {
    println!("cargo:rerun-if-env-changed=YOSYS_DATDIR");
    if let Some(dir) = std::env::var_os("YOSYS_DATDIR") {
        return PathBuf::from(dir);
    }
    if let Ok(out) = tools::run(Command::new("yosys-config").arg("--datdir")) {
        return PathBuf::from(out.trim());
    }
    let exe = find_on_path(&tools::yosys()).unwrap_or_else(|| {
        panic!("cannot find yosys on PATH to locate its data directory: set YOSYS_DATDIR")
    });
    let exe = exe.canonicalize().unwrap_or(exe);
    exe.parent()
        .and_then(Path::parent)
        .map(|prefix| prefix.join("share").join("yosys"))
        .expect("yosys's path has no parent directory")
}

/// `program` itself if it is a path, else its first match on `PATH`.
fn find_on_path(program: &std::ffi::OsStr) -> Option<PathBuf> {
    let p = Path::new(program);
    if p.components().count() > 1 {
        return p.exists().then(|| p.to_path_buf());
    }
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|dir| dir.join(p))
        .find(|candidate| candidate.is_file())
}

/// The yosys script that turns `verilog` into the netlist `netlist` and its `stat`: the
/// synthesis `roce-cc synth` runs but for abc9's wire delay (`read_verilog` defines
/// `SYNTHESIS`; `synth_ecp5` reads Lattice's cell declarations itself, `MULT18X18D`
/// included), then a flat Verilog netlist without attributes (Verilator need not parse
/// yosys's `src` strings).
fn synth_script(verilog: &Path, netlist: &Path, stat: &Path) -> String {
    format!(
        "read_verilog {}; synth_ecp5 -top top; tee -q -o {} stat; write_verilog -noattr {}",
        verilog.display(),
        stat.display(),
        netlist.display()
    )
}

/// Synthesises `verilog` (top module `top`) with yosys `synth_ecp5` into the flat Verilog
/// netlist `netlist`, unless the same text was already synthesised there by the same yosys
/// (stamp `<netlist>.stamp`). Minutes for a large top. `Err` holds yosys's messages.
pub fn synth_ecp5_netlist(verilog: &Path, netlist: &Path) -> Result<Netlist, String> {
    let text = std::fs::read_to_string(verilog)
        .map_err(|e| format!("cannot read {}: {e}", verilog.display()))?;
    let stat = netlist.with_extension("stat");
    let stamp = netlist.with_extension("stamp");
    let script = synth_script(verilog, netlist, &stat);
    let key = format!(
        "{}\n{script}\n{:016x}\n",
        yosys_version()?,
        tools::fnv1a(&text)
    );
    if !tools::up_to_date(&stamp, &key, &[netlist, &stat]) {
        let _ = std::fs::remove_file(&stamp);
        let log = tools::run(Command::new(tools::yosys()).args(["-q", "-p", &script]))?;
        std::fs::write(netlist.with_extension("yosys.log"), log)
            .map_err(|e| format!("cannot write the yosys log: {e}"))?;
        std::fs::write(&stamp, key).map_err(|e| format!("cannot write the stamp: {e}"))?;
    }
    let stat_text = std::fs::read_to_string(&stat)
        .map_err(|e| format!("cannot read {}: {e}", stat.display()))?;
    Ok(Netlist {
        path: netlist.to_path_buf(),
        cells: crate::checks::stat_cells(&stat_text),
        stat,
    })
}

/// `yosys -V`, trimmed (part of the netlist's stamp).
fn yosys_version() -> Result<String, String> {
    tools::run(Command::new(tools::yosys()).arg("-V")).map(|v| v.trim().to_string())
}

/// One `module` in a Verilog library file.
#[derive(Debug, PartialEq, Eq)]
struct LibModule {
    name: String,
    /// Declared `(* blackbox *)`: ports only, nothing to simulate.
    blackbox: bool,
    /// Byte range from the start of its attributes to the end of its `endmodule`.
    span: std::ops::Range<usize>,
}

/// The modules of a Verilog library `text` (as yosys writes its cell libraries: `module`
/// at the start of a line, attributes on the lines before it).
fn library_modules(text: &str) -> Vec<LibModule> {
    let mut found = Vec::new();
    let mut from = 0;
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let start = offset;
        offset += line.len();
        let Some(rest) = line.trim_start().strip_prefix("module") else {
            continue;
        };
        if !rest.starts_with([' ', '\t', '\\']) {
            continue;
        }
        let name: String = rest
            .trim_start()
            .trim_start_matches('\\')
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '$')
            .collect();
        let end = text[start..]
            .find("endmodule")
            .map_or(text.len(), |e| start + e + "endmodule".len());
        let before = &text[from..start];
        let attrs_at = before
            .rfind("endmodule")
            .map_or(from, |e| from + e + "endmodule".len());
        let attrs = &text[attrs_at..start];
        let attr_start = attrs.find("(*").map_or(start, |a| attrs_at + a);
        found.push(LibModule {
            name,
            blackbox: attrs.contains("blackbox"),
            span: attr_start..end,
        });
        from = end.min(text.len());
    }
    found
}

/// The modules `file` defines.
fn modules_of(file: &Path) -> Vec<LibModule> {
    let text = std::fs::read_to_string(file)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", file.display()));
    library_modules(&text)
}

/// The ECP5 simulation library for a `synth_ecp5` netlist, written to `out_dir`: yosys's
/// `ecp5/cells_sim.v` (from [`yosys_datdir`]) plus `our_models` (Verilog files, each
/// modelling cells yosys leaves without a body). Where yosys has a real model of a cell, it
/// is preferred and ours is not read; where yosys declares only a black box, that empty
/// declaration is cut from a copy of `cells_sim.v` (`<out>/ecp5_cells_sim.v`) so the
/// names do not clash. Panics if a file cannot be read (build-script use).
pub fn ecp5_cell_library(our_models: &[&Path], out_dir: &Path) -> CellLibrary {
    let ecp5 = yosys_datdir().join("ecp5");
    let cells_sim = ecp5.join("cells_sim.v");
    crate::rerun_if_changed(&cells_sim);
    let mut text = std::fs::read_to_string(&cells_sim)
        .unwrap_or_else(|e| panic!("cannot read yosys's {}: {e}", cells_sim.display()));
    let mut notes = Vec::new();
    let mut sources = Vec::new();
    let mut extra = Vec::new();
    for model_file in our_models {
        crate::rerun_if_changed(model_file);
        let ours = modules_of(model_file);
        let yosys_has_all = ours.iter().all(|m| {
            library_modules(&text)
                .iter()
                .any(|y| y.name == m.name && !y.blackbox)
        });
        if yosys_has_all {
            notes.push(format!(
                "{}: yosys's model used instead",
                model_file.display()
            ));
            continue;
        }
        for m in &ours {
            text = drop_module(&text, &m.name, model_file);
        }
        notes.push(format!(
            "{}: used (yosys has no model)",
            model_file.display()
        ));
        extra.push(model_file.to_path_buf());
    }
    let copy = out_dir.join("ecp5_cells_sim.v");
    tools::write_if_changed(&copy, &text);
    sources.push(copy);
    sources.extend(extra);
    let modelled = sources
        .iter()
        .flat_map(|f| modules_of(f))
        .filter(|m| !m.blackbox)
        .map(|m| m.name)
        .collect();
    CellLibrary {
        sources,
        include_dirs: vec![ecp5],
        modelled,
        notes,
    }
}

/// `text` without its declaration of module `name` (a black box, replaced by the model in
/// `by`), leaving a comment saying so; `text` itself if it has none.
fn drop_module(text: &str, name: &str, by: &Path) -> String {
    match library_modules(text).into_iter().find(|m| m.name == name) {
        Some(m) => format!(
            "{}// roce-cc: yosys's empty black box {name} removed here; modelled by {}\n{}",
            &text[..m.span.start],
            by.file_name()
                .map(|f| f.to_string_lossy())
                .unwrap_or_default(),
            &text[m.span.end..]
        ),
        None => text.to_string(),
    }
}

/// The cell types of `netlist` that `library` has no simulation body for (empty when every
/// cell is modelled).
pub fn unmodelled_cells(netlist: &Netlist, library: &CellLibrary) -> Vec<String> {
    netlist
        .cells
        .keys()
        .filter(|c| !library.modelled.contains(c.as_str()))
        .cloned()
        .collect()
}

/// Verilator's options for a netlist on top of the bridge's: the library's include
/// directories; the vendor library's lint and style warnings off (the log would otherwise
/// hold thousands of them; they are not errors with the bridge's `-Wno-fatal`); and the C++
/// of the model's evaluation compiled with `-O1` instead of Verilator's `-Os`. A flat
/// netlist is hundreds of megabytes of C++ (the 1024-QP core: about 130 files of ~1 MB
/// even untraced, see [`NO_TRACE`]), and `-Os` compiled one such file in about 1.5 minutes
/// on a loaded two-core machine.
fn netlist_args(library: &CellLibrary) -> Vec<String> {
    let mut args: Vec<String> = library
        .include_dirs
        .iter()
        .map(|d| format!("-I{}", d.display()))
        .collect();
    args.extend(["-Wno-lint", "-Wno-style", "-MAKEFLAGS", "OPT_FAST=-O1"].map(String::from));
    args
}

/// A Verilator configuration file that turns waveform tracing off for every signal. The
/// model keeps its VCD functions (the shim is the same for every top), but a VCD of the
/// netlist holds no signals: tracing each net of a flat netlist was 170 of the 1024-QP
/// core's 303 C++ files.
const NO_TRACE: &str = "`verilator_config\n// roce-cc-bridge-gen: no tracing in a netlist (post_synth.rs)\ntracing_off\n";

/// Verilates `netlist` with the cell `library` as the top `name`, with the ports of the
/// rust-hdl `top` it was synthesised from, and prepares the same shim and Rust bindings as
/// [`crate::build_top`] would for `top` (struct [`TopInfo::struct_name`] of `name`).
/// Panics if the netlist uses a cell the library does not model, if Verilating fails, or if
/// the model's ports differ from the rust-hdl top's. Link order as for `build_top`.
pub fn build_netlist_top<B: Block>(
    name: &str,
    top: &mut B,
    netlist: &Netlist,
    library: &CellLibrary,
    out_dir: &Path,
) -> TopInfo {
    names::check_top_name(name);
    let missing = unmodelled_cells(netlist, library);
    assert!(
        missing.is_empty(),
        "{} uses cells with no simulation model: {}",
        netlist.path.display(),
        missing.join(", ")
    );
    top.connect_all();
    let ports = ports_of(top);
    let no_trace = out_dir.join(format!("{name}_no_trace.vlt"));
    tools::write_if_changed(&no_trace, NO_TRACE);
    let mut sources = vec![no_trace];
    sources.extend(library.sources.iter().cloned());
    sources.push(netlist.path.clone());
    let args = netlist_args(library);
    let hash = model::hash_files(&sources);
    let model = model::verilate_sources(name, &sources, &args, hash, out_dir);
    model::check_header(&model.header, &ports);
    let shim_lib = shim::build(name, &ports, &model, out_dir);
    let model_lib = model::install_archive(name, &model, out_dir);
    let struct_name = names::struct_name(name);
    let bindings = out_dir.join(format!("{name}_bindings.rs"));
    tools::write_if_changed(
        &bindings,
        &crate::bindings::generate(name, &struct_name, &ports),
    );
    emit_link(out_dir, &[&shim_lib, &model_lib]);
    TopInfo {
        name: name.to_string(),
        struct_name,
        verilog: netlist.path.clone(),
        bindings,
        ports,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LIB: &str = "// cells\n(* abc9_box, lib_whitebox *)\nmodule LUT4(input A, output Z);\n\
        assign Z = A;\nendmodule\n\n(* blackbox *)\nmodule DP16KD(\n  input CLKA\n);\n\
        parameter X = 1;\nendmodule\nmodule \\$__X (input A);\nendmodule\n";

    #[test]
    fn library_modules_are_found_with_their_black_box_flag() {
        let mods = library_modules(LIB);
        let names: Vec<_> = mods.iter().map(|m| (m.name.as_str(), m.blackbox)).collect();
        assert_eq!(names, [("LUT4", false), ("DP16KD", true), ("$__X", false)]);
        assert!(LIB[mods[1].span.clone()].starts_with("(* blackbox *)\nmodule DP16KD"));
        assert!(LIB[mods[1].span.clone()].ends_with("endmodule"));
    }

    #[test]
    fn a_black_box_is_cut_out_and_the_rest_kept() {
        let cut = drop_module(LIB, "DP16KD", Path::new("/x/dp16kd_sim.v"));
        assert!(!cut.contains("module DP16KD"), "{cut}");
        assert!(!cut.contains("blackbox"), "{cut}");
        assert!(cut.contains("modelled by dp16kd_sim.v"), "{cut}");
        assert!(
            cut.contains("module LUT4") && cut.contains("module \\$__X"),
            "{cut}"
        );
        assert_eq!(drop_module(LIB, "NOPE", Path::new("x")), LIB);
    }

    /// A registered multiply and a small RAM: yosys maps them to `MULT18X18D`, `DP16KD` or
    /// LUT RAM, flip-flops and LUTs.
    const SMALL: &str = "module top(input wire clock, input wire [15:0] a, input wire [15:0] b,
    input wire [8:0] wa, input wire [8:0] ra, input wire [17:0] wd, input wire we,
    output reg [31:0] p, output reg [17:0] rd);
    reg [17:0] mem [0:511];
    always @(posedge clock) begin
        p <= a * b;
        rd <= mem[ra];
        if (we) mem[wa] <= wd;
    end
endmodule
";

    /// The synthesis step end to end on a small design: the netlist and its cell list, a
    /// cached second call, and every cell modelled by yosys's library plus ours.
    #[test]
    fn a_small_design_is_synthesised_and_every_cell_is_modelled() {
        if tools::run(Command::new(tools::yosys()).arg("-V")).is_err() {
            eprintln!("yosys not installed: skipped");
            return;
        }
        let dir = std::env::temp_dir().join(format!("roce-cc-post-synth-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let v = dir.join("small.v");
        std::fs::write(&v, SMALL).unwrap();
        let net = synth_ecp5_netlist(&v, &dir.join("small_netlist.v")).expect("synth_ecp5");
        assert!(net.cells.contains_key("MULT18X18D"), "{:?}", net.cells);
        assert!(net.cells.contains_key("TRELLIS_FF"), "{:?}", net.cells);
        let text = std::fs::read_to_string(&net.path).unwrap();
        assert!(
            text.contains("module top") && !text.contains("(*"),
            "attributes left"
        );
        let modified = std::fs::metadata(&net.path).unwrap().modified().unwrap();
        let again = synth_ecp5_netlist(&v, &net.path).expect("cached");
        assert_eq!(again.cells, net.cells);
        assert_eq!(
            std::fs::metadata(&net.path).unwrap().modified().unwrap(),
            modified
        );
        let models = Path::new(env!("CARGO_MANIFEST_DIR")).join("../post_synth");
        let lib = ecp5_cell_library(
            &[
                &models.join("mult18x18d_sim.v"),
                &models.join("dp16kd_sim.v"),
            ],
            &dir,
        );
        assert_eq!(unmodelled_cells(&net, &lib), Vec::<String>::new());
        assert!(lib.modelled.contains("DP16KD") && lib.modelled.contains("LUT4"));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn yosys_data_directory_holds_the_ecp5_library() {
        if tools::run(Command::new(tools::yosys()).arg("-V")).is_err() {
            eprintln!("yosys not installed: skipped");
            return;
        }
        let dir = yosys_datdir();
        assert!(dir.join("ecp5/cells_sim.v").is_file(), "{}", dir.display());
    }
}
