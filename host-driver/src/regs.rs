//! Register addresses and tables, generated from `regmap/src/lib.rs` at build time
//! (`roce_cc_regmap::rust_driver`). See `docs/registers.md`.

include!(concat!(env!("OUT_DIR"), "/regs.rs"));
