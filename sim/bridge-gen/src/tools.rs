//! Running the external tools, and small file helpers.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Mutex, OnceLock};

/// The `verilator` executable: `$VERILATOR` or `verilator` on `PATH`.
pub(crate) fn verilator() -> OsString {
    tool("VERILATOR", "verilator")
}

/// The `yosys` executable: `$YOSYS` or `yosys` on `PATH`.
pub(crate) fn yosys() -> OsString {
    tool("YOSYS", "yosys")
}

/// `$var`, or `default`; tells cargo (once per variable) to re-run when `$var` changes.
fn tool(var: &str, default: &str) -> OsString {
    rerun_if_env_changed(var);
    std::env::var_os(var).unwrap_or_else(|| default.into())
}

/// Prints `cargo:rerun-if-env-changed=<var>` the first time it is asked for `var`.
fn rerun_if_env_changed(var: &str) {
    static SEEN: Mutex<Vec<String>> = Mutex::new(Vec::new());
    let mut seen = SEEN.lock().unwrap_or_else(|e| e.into_inner());
    if !seen.iter().any(|v| v == var) {
        seen.push(var.to_string());
        println!("cargo:rerun-if-env-changed={var}");
    }
}

/// Runs `cmd`; `Ok(stdout + stderr)` if it exits with 0, else `Err` with the same text.
pub(crate) fn run(cmd: &mut Command) -> Result<String, String> {
    let out = cmd
        .output()
        .map_err(|e| format!("cannot run {:?}: {e}", cmd.get_program()))?;
    let mut text = String::from_utf8_lossy(&out.stdout).into_owned();
    text.push_str(&String::from_utf8_lossy(&out.stderr));
    if out.status.success() {
        Ok(text)
    } else {
        Err(format!(
            "{:?} failed ({}):\n{text}",
            cmd.get_program(),
            out.status
        ))
    }
}

/// `verilator --version`, trimmed (part of every cache stamp); asked once per process.
pub(crate) fn verilator_version() -> String {
    static VERSION: OnceLock<String> = OnceLock::new();
    VERSION.get_or_init(ask_verilator_version).clone()
}

fn ask_verilator_version() -> String {
    run(Command::new(verilator()).arg("--version"))
        .unwrap_or_else(|e| {
            panic!("{e}\nInstall Verilator (Debian: apt-get install verilator) or set VERILATOR")
        })
        .trim()
        .to_string()
}

/// Verilator's runtime directory: `$VERILATOR_ROOT` or `verilator --getenv VERILATOR_ROOT`.
pub(crate) fn verilator_root() -> PathBuf {
    rerun_if_env_changed("VERILATOR_ROOT");
    if let Some(root) = std::env::var_os("VERILATOR_ROOT") {
        return PathBuf::from(root);
    }
    let out = Command::new(verilator())
        .args(["--getenv", "VERILATOR_ROOT"])
        .output()
        .expect("cannot run verilator --getenv VERILATOR_ROOT");
    PathBuf::from(String::from_utf8_lossy(&out.stdout).trim())
}

/// Writes `text` to `path` unless it already holds exactly that; true if it wrote.
pub(crate) fn write_if_changed(path: &Path, text: &str) -> bool {
    if std::fs::read(path).is_ok_and(|old| old == text.as_bytes()) {
        return false;
    }
    std::fs::write(path, text).unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
    true
}

/// A stable 64-bit FNV-1a hash (cache stamps must not change between compiler versions).
pub(crate) fn fnv1a(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    })
}

/// True if `stamp` holds exactly `key` and every file in `outputs` exists.
pub(crate) fn up_to_date(stamp: &Path, key: &str, outputs: &[&Path]) -> bool {
    std::fs::read_to_string(stamp).is_ok_and(|s| s == key) && outputs.iter().all(|p| p.exists())
}

/// A `cc::Build` for C++ against Verilator's headers, configured for this crate's outputs:
/// optimised regardless of the cargo profile, quiet, no automatic cargo link lines
/// (the callers print them, in link order).
pub(crate) fn cxx_build(root: &Path, out_dir: &Path) -> cc::Build {
    let include = root.join("include");
    let mut b = cc::Build::new();
    b.cpp(true)
        .out_dir(out_dir)
        .opt_level(2)
        .debug(false)
        .warnings(false)
        .cargo_metadata(false)
        .include(&include)
        .include(include.join("vltstd"))
        .define("VM_COVERAGE", "0")
        .define("VM_SC", "0")
        .define("VM_TRACE", "1")
        .define("VM_TRACE_FST", "0")
        .define("VM_TRACE_VCD", "1")
        .flag_if_supported("-faligned-new");
    b
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv1a_is_the_reference_function() {
        assert_eq!(fnv1a(""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a("a"), 0xaf63_dc4c_8601_ec8c);
    }
}
