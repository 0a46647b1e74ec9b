//! Verilating one top, and checking the generated header against the rust-hdl port list.

use crate::names::verilator_encode;
use crate::ports::{Dir, Port};
use crate::tools;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// A Verilated model on disk.
pub(crate) struct Model {
    /// `<out>/obj_<name>`: Verilator's output directory.
    pub obj_dir: PathBuf,
    /// `V<name>.h`: the model class.
    pub header: PathBuf,
    /// `V<name>__ALL.a`: the compiled model.
    pub archive: PathBuf,
}

/// Verilator's options for the bridge: Verilog and C++, optimised, X as 0, VCD tracing,
/// model class `V<name>`. Warnings are not fatal here; [`crate::lint_top`] is the lint gate.
///
/// The model's C++ is compiled with `-O1` (`OPT_FAST`, `OPT_GLOBAL`) instead of Verilator's
/// `-Os`: measured on the 1024-QP core with g++ 12, half the compile time (81 s instead of
/// 144 s of CPU) and a tenth more cycles per second; `-O0` compiles in 54 s but simulates
/// eight times slower.
fn verilator_args(name: &str, obj_dir: &Path) -> Vec<String> {
    let mut args: Vec<String> = [
        "--cc",
        "--build",
        "-O3",
        "--x-assign",
        "0",
        "--x-initial",
        "0",
        "--trace",
        "-Wno-fatal",
        "-j",
        "2",
        "-MAKEFLAGS",
        "OPT_FAST=-O1 OPT_GLOBAL=-O1",
        "--top-module",
        "top",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    args.extend(["--prefix".to_string(), format!("V{name}")]);
    args.extend(["-Mdir".to_string(), obj_dir.display().to_string()]);
    args
}

/// Verilates `verilog` (whose text is `text`) unless the same text was already Verilated
/// with the same Verilator and options. The tool's log is kept in `obj_<name>/verilator.log`.
pub(crate) fn verilate(name: &str, verilog: &Path, text: &str, out_dir: &Path) -> Model {
    let sources = [verilog.to_path_buf()];
    verilate_sources(name, &sources, &[], tools::fnv1a(text), out_dir)
}

/// Verilates the Verilog files `sources` (read in that order; top module `top`) with the
/// bridge's options plus `extra_args`, unless a model was already built from sources whose
/// contents hash to `content_hash` with the same Verilator and options (the stamp in
/// `obj_<name>/bridge.stamp`). The tool's log is kept in `obj_<name>/verilator.log`.
pub(crate) fn verilate_sources(
    name: &str,
    sources: &[PathBuf],
    extra_args: &[String],
    content_hash: u64,
    out_dir: &Path,
) -> Model {
    let obj_dir = out_dir.join(format!("obj_{name}"));
    let model = Model {
        header: obj_dir.join(format!("V{name}.h")),
        archive: obj_dir.join(format!("V{name}__ALL.a")),
        obj_dir,
    };
    let mut args = verilator_args(name, &model.obj_dir);
    args.extend(extra_args.iter().cloned());
    let key = format!(
        "{}\n{}\n{:016x}\n",
        tools::verilator_version(),
        args.join(" "),
        content_hash
    );
    let stamp = model.obj_dir.join("bridge.stamp");
    if tools::up_to_date(&stamp, &key, &[&model.header, &model.archive]) {
        return model;
    }
    let _ = std::fs::remove_file(&stamp);
    let mut cmd = Command::new(tools::verilator());
    cmd.args(&args)
        .args(sources)
        .env_remove("MAKEFLAGS")
        .env_remove("MFLAGS");
    let result = tools::run(&mut cmd);
    std::fs::create_dir_all(&model.obj_dir).expect("cannot create the Verilator directory");
    let log = match &result {
        Ok(text) | Err(text) => text,
    };
    std::fs::write(model.obj_dir.join("verilator.log"), log).expect("cannot write verilator.log");
    if let Err(e) = result {
        panic!("Verilating {name} failed: {e}");
    }
    std::fs::write(&stamp, key).expect("cannot write the Verilator stamp");
    model
}

/// One hash over the names and contents of `files`, in order: the stamp of a model built
/// from several sources (a netlist and its cell library).
pub(crate) fn hash_files(files: &[PathBuf]) -> u64 {
    let mut all = String::new();
    for f in files {
        let text = std::fs::read_to_string(f)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", f.display()));
        let file_name = f
            .file_name()
            .map(|n| n.to_string_lossy())
            .unwrap_or_default();
        all.push_str(&format!("{file_name}\0{}\0{text}", text.len()));
    }
    tools::fnv1a(&all)
}

/// Copies the model archive to `<out>/lib<name>_model.a`; returns the library name.
pub(crate) fn install_archive(name: &str, model: &Model, out_dir: &Path) -> String {
    let lib = format!("{name}_model");
    std::fs::copy(&model.archive, out_dir.join(format!("lib{lib}.a")))
        .unwrap_or_else(|e| panic!("cannot copy {}: {e}", model.archive.display()));
    lib
}

/// One port as declared in a Verilated header: `VL_IN64(&p,48,0);`.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct HeaderPort {
    /// `IN`, `OUT` or `INOUT`.
    pub dir: String,
    /// Width in bits (`msb - lsb + 1`).
    pub width: usize,
}

/// The ports declared in a Verilated model header, by C++ member name.
pub(crate) fn parse_header(text: &str) -> HashMap<String, HeaderPort> {
    text.lines()
        .filter_map(|l| parse_port_line(l.trim()))
        .collect()
}

/// Parses `VL_<DIR><SIZE>(&<member>,<msb>,<lsb>[,<words>]);`.
fn parse_port_line(line: &str) -> Option<(String, HeaderPort)> {
    let rest = line.strip_prefix("VL_")?;
    let (mac, args) = rest.split_once("(&")?;
    let dir = ["INOUT", "IN", "OUT"]
        .into_iter()
        .find(|d| mac.starts_with(d))?;
    let size = &mac[dir.len()..];
    if !["", "8", "16", "64", "W"].contains(&size) {
        return None;
    }
    let args = args.split_once(')')?.0;
    let fields: Vec<&str> = args.split(',').map(str::trim).collect();
    let msb: usize = fields.get(1)?.parse().ok()?;
    let lsb: usize = fields.get(2)?.parse().ok()?;
    let port = HeaderPort {
        dir: dir.to_string(),
        width: msb + 1 - lsb,
    };
    Some((fields[0].to_string(), port))
}

/// Panics unless the header declares exactly `ports`, with matching widths and directions:
/// the shim addresses ports by their Verilator member names.
pub(crate) fn check_header(header: &Path, ports: &[Port]) {
    let text = std::fs::read_to_string(header)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", header.display()));
    let declared = parse_header(&text);
    for port in ports {
        let member = verilator_encode(&port.name);
        let found = declared.get(&member).unwrap_or_else(|| {
            panic!(
                "port {} (member {member}) missing from {}",
                port.name,
                header.display()
            )
        });
        let dir = match port.dir {
            Dir::In => "IN",
            Dir::Out => "OUT",
            Dir::InOut => "INOUT",
        };
        assert!(
            found.dir == dir && found.width == port.width,
            "port {}: rust-hdl says {dir} {} bits, {} says {found:?}",
            port.name,
            port.width,
            header.display()
        );
    }
    assert_eq!(
        declared.len(),
        ports.len(),
        "{} has ports rust-hdl does not list",
        header.display()
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_lines_parse() {
        let text = "    VL_IN8(&clock,0,0);\n    VL_INW(&w,99,0,4);\n    VL_OUT64(&p,48,0);\n\
                    VL_IN(&a,27,0);\n    VL_UNCOPYABLE(Vt);\n";
        let ports = parse_header(text);
        assert_eq!(ports.len(), 4);
        assert_eq!(
            ports["w"],
            HeaderPort {
                dir: "IN".into(),
                width: 100
            }
        );
        assert_eq!(
            ports["p"],
            HeaderPort {
                dir: "OUT".into(),
                width: 49
            }
        );
        assert_eq!(ports["a"].width, 28);
        assert_eq!(ports["clock"].width, 1);
    }
}
