//! `CsrMap`: the register map's hardware decode and the staged parameter registers,
//! generated at build time from the one description (`roce_cc_regmap::blocks`, whose
//! parameter registers come from `roce_cc_params::SPECS`) by
//! `roce_cc_regmap::hdl_gen::hdl_decode` (`build.rs`). See `docs/registers.md` for the map
//! and `crate::csr` for the controller around it.
//!
//! For each access it answers: is `addr` a register, may it be written, does it take a
//! partial write, which kind of register it is, what a read returns, the value a write
//! would leave (`merged`: strobed bytes of `wdata` over the current value), and whether
//! that value keeps every staged parameter in its range (`param_ok`; ranges that name
//! `line_rate_mbps` or the max rate use their values after the write).

use rust_hdl::prelude::*;

include!(concat!(env!("OUT_DIR"), "/csr_map.rs"));
