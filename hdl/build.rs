//! Writes the register block's decode (`roce_cc_regmap::hdl_gen::hdl_decode`) into OUT_DIR;
//! `src/csr_map.rs` includes it. The register map has no second copy in this crate.

fn main() {
    let out = std::path::PathBuf::from(std::env::var_os("OUT_DIR").expect("run by cargo"));
    std::fs::write(
        out.join("csr_map.rs"),
        roce_cc_regmap::hdl_gen::hdl_decode(),
    )
    .expect("write csr_map.rs");
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=../regmap/src");
    println!("cargo:rerun-if-changed=../params/src");
}
