//! Writes the register constants and tables (`roce_cc_regmap::rust_driver`) into OUT_DIR;
//! `src/regs.rs` includes them. The register map has no second copy in this crate.

fn main() {
    let out = std::path::PathBuf::from(std::env::var_os("OUT_DIR").expect("run by cargo"));
    std::fs::write(out.join("regs.rs"), roce_cc_regmap::rust_driver()).expect("write regs.rs");
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=../regmap/src/lib.rs");
}
