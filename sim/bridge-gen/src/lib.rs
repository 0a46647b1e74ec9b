//! Turns any rust-hdl top into a Verilated model driven from Rust; called from build scripts.
//!
//! For one top, [`build_top`]:
//! 1. generates its Verilog with rust-hdl (`<out>/<name>.v`, module `top`);
//! 2. reads its port list with rust-hdl's [`Probe`](rust_hdl::core::prelude::Probe) visitor
//!    ([`ports_of`]);
//! 3. Verilates it (`verilator --cc --build`, model class `V<name>`, in `<out>/obj_<name>`),
//!    and checks every port against the generated header;
//! 4. writes and compiles an `extern "C"` C++ shim (`<out>/<name>_shim.cpp`);
//! 5. writes Rust bindings (`<out>/<name>_bindings.rs`, to be `include!`d) with one safe
//!    struct per top (see [`TopInfo::struct_name`]);
//! 6. tells cargo to link the shim and the model.
//!
//! [`build_runtime`] compiles Verilator's runtime (`verilated.cpp`, `verilated_threads.cpp`,
//! `verilated_vcd_c.cpp`) once for all tops and tells cargo to link it. Call it after the last
//! [`build_top`], so that the runtime follows the models on the linker command line:
//!
//! ```no_run
//! # use rust_hdl::prelude::*;
//! # #[derive(LogicBlock, Default)] struct MyTop { pub a: Signal<In, Bit>, pub y: Signal<Out, Bit> }
//! # impl Logic for MyTop { #[hdl_gen] fn update(&mut self) { self.y.next = self.a.val(); } }
//! // build.rs
//! let out = roce_cc_bridge_gen::out_dir();
//! roce_cc_bridge_gen::build_top("my_top", &mut MyTop::default(), &out);
//! roce_cc_bridge_gen::build_runtime(&out);
//! ```
//!
//! Unchanged Verilog (same text, same Verilator, same options) is not Verilated again, and the
//! runtime is not recompiled when its stamp matches, so re-running a build script is cheap.
//!
//! Post-synthesis simulation (module `post_synth`): [`synth_ecp5_netlist`] turns a top's
//! Verilog into a yosys `synth_ecp5` netlist, [`ecp5_cell_library`] gathers simulation
//! models of the ECP5 cells, and [`build_netlist_top`] Verilates the two behind the same
//! bindings as the top's own Verilog.
//!
//! A deliberate fault for showing that the tests see the RTL (module `mutation`):
//! `ROCE_CC_RTL_MUTATION="FROM=>TO"` edits the generated Verilog before it is Verilated.
//!
//! Two gates for the test suites live here too: [`lint_top`] (`verilator --lint-only -Wall`)
//! and [`yosys_check`] (synthesis with yosys, failing on any inferred latch).
//!
//! Tools: `verilator` and `yosys` are taken from `PATH`, or from the environment variables
//! `VERILATOR` and `YOSYS`; Verilator's include directory from `VERILATOR_ROOT` or
//! `verilator --getenv VERILATOR_ROOT`. Targets Verilator 5.006 (Debian bookworm) and later.

mod bindings;
mod checks;
mod model;
mod mutation;
mod names;
mod ports;
mod post_synth;
mod runtime;
mod shim;
mod tools;

pub use checks::{
    YosysFlow, lint_top, lint_top_with_cells, yosys_check, yosys_check_with, yosys_check_with_cells,
};
pub use mutation::{MUTATION_ENV, MUTATION_TOPS_ENV};
pub use ports::{Dir, Port, ports_of};
pub use post_synth::{
    CellLibrary, Netlist, build_netlist_top, ecp5_cell_library, synth_ecp5_netlist,
    unmodelled_cells, yosys_datdir,
};
pub use runtime::build_runtime;

use rust_hdl::core::prelude::{Block, generate_verilog};
use std::path::{Path, PathBuf};

/// What [`build_top`] produced for one top.
#[derive(Clone, Debug)]
pub struct TopInfo {
    /// The top's name as given (`wide_mul_28x21`): file names and C symbol prefix.
    pub name: String,
    /// The Rust struct in the bindings (`VWideMul28x21`).
    pub struct_name: String,
    /// The generated Verilog (`<out>/<name>.v`).
    pub verilog: PathBuf,
    /// The generated Rust bindings (`<out>/<name>_bindings.rs`).
    pub bindings: PathBuf,
    /// The top-level ports, in Verilog port order.
    pub ports: Vec<Port>,
}

/// `OUT_DIR` of the running build script.
///
/// Panics outside a build script.
pub fn out_dir() -> PathBuf {
    PathBuf::from(std::env::var_os("OUT_DIR").expect("OUT_DIR is not set: call from build.rs"))
}

/// Prints `cargo:rerun-if-changed` for `path` (a file or a directory, scanned recursively by
/// cargo), made absolute (and canonical when it exists) so it is right from any workspace
/// location.
pub fn rerun_if_changed(path: &Path) {
    let abs = path
        .canonicalize()
        .or_else(|_| std::path::absolute(path))
        .unwrap_or_else(|_| path.to_path_buf());
    println!("cargo:rerun-if-changed={}", abs.display());
}

/// Verilates the rust-hdl `top` as `name` into `out_dir` and prepares its Rust bindings.
///
/// `name` must be lowercase snake case (`[a-z][a-z0-9_]*`), distinct per top. See the
/// crate documentation for the steps; panics with the tool's output if any step fails
/// (this runs in a build script). Link order: call [`build_runtime`] after the last top.
pub fn build_top<B: Block>(name: &str, top: &mut B, out_dir: &Path) -> TopInfo {
    names::check_top_name(name);
    std::fs::create_dir_all(out_dir).expect("cannot create the output directory");
    top.connect_all();
    let verilog_text = mutation::apply(name, generate_verilog(top));
    let ports = ports_of(top);
    let verilog = out_dir.join(format!("{name}.v"));
    tools::write_if_changed(&verilog, &verilog_text);
    let model = model::verilate(name, &verilog, &verilog_text, out_dir);
    model::check_header(&model.header, &ports);
    let shim_lib = shim::build(name, &ports, &model, out_dir);
    let model_lib = model::install_archive(name, &model, out_dir);
    let struct_name = names::struct_name(name);
    let bindings = out_dir.join(format!("{name}_bindings.rs"));
    tools::write_if_changed(&bindings, &bindings::generate(name, &struct_name, &ports));
    emit_link(out_dir, &[&shim_lib, &model_lib]);
    TopInfo {
        name: name.to_string(),
        struct_name,
        verilog,
        bindings,
        ports,
    }
}

/// Tells cargo to link the static libraries `libs` (names without `lib`/`.a`) from `dir`,
/// and the C++ standard library.
fn emit_link(dir: &Path, libs: &[&str]) {
    println!("cargo:rustc-link-search=native={}", dir.display());
    for lib in libs {
        println!("cargo:rustc-link-lib=static={lib}");
    }
    println!("cargo:rustc-link-lib=stdc++");
}
