//! Verilator's runtime library, compiled once per build for all tops.

use crate::tools;
use std::path::Path;

/// The runtime sources every bridged model needs (threads: always in Verilator 5;
/// VCD: the models are built with `--trace`).
const RUNTIME_SOURCES: &[&str] = &[
    "verilated.cpp",
    "verilated_threads.cpp",
    "verilated_vcd_c.cpp",
];

/// The static library name of the runtime (`lib<this>.a` in the output directory).
const RUNTIME_LIB: &str = "verilated_runtime";

/// Compiles Verilator's runtime into `<out_dir>/libverilated_runtime.a` (skipped when an
/// archive built from the same Verilator is already there) and tells cargo to link it,
/// with the C++ standard library and pthreads.
///
/// Call it once per build script, after the last [`crate::build_top`]: static libraries
/// are searched in order, and the models refer to the runtime.
pub fn build_runtime(out_dir: &Path) {
    crate::mutation::check_applied();
    std::fs::create_dir_all(out_dir).expect("cannot create the output directory");
    let root = tools::verilator_root();
    let archive = out_dir.join(format!("lib{RUNTIME_LIB}.a"));
    let stamp = out_dir.join(format!("{RUNTIME_LIB}.stamp"));
    let key = format!(
        "{}\n{}\n{}\n",
        tools::verilator_version(),
        root.display(),
        RUNTIME_SOURCES.join(" ")
    );
    if !tools::up_to_date(&stamp, &key, &[&archive]) {
        let _ = std::fs::remove_file(&stamp);
        let mut build = tools::cxx_build(&root, out_dir);
        for src in RUNTIME_SOURCES {
            build.file(root.join("include").join(src));
        }
        build.compile(RUNTIME_LIB);
        std::fs::write(&stamp, key).expect("cannot write the runtime stamp");
    }
    println!("cargo:rustc-link-search=native={}", out_dir.display());
    println!("cargo:rustc-link-lib=static={RUNTIME_LIB}");
    println!("cargo:rustc-link-lib=stdc++");
    println!("cargo:rustc-link-lib=pthread");
}
