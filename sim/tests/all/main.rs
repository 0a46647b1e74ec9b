//! The simulation crate's tests, one test binary: one link of the Verilated models instead
//! of one per file, and the harness's threads share the tests of every unit (a slow
//! property of one unit no longer runs alone on one thread while the other idles).
//!
//! Each module is one unit's (or one campaign's) tests; run one of them with its name as
//! the filter, e.g. `cargo test -p roce-cc-sim --test all rp_three_way`.
//!
//! Three-way lock-step tests (golden model, rust-hdl simulation, Verilated Verilog, every
//! output every cycle): `axil_three_way`, `cfg_compiler_three_way`, `core_three_way`,
//! `hpcc_cfg_three_way`, `hpcc_three_way`, `leaves_three_way`, `np_three_way`,
//! `pacer_cpb_three_way`, `pacer_eligible_three_way`, `pacer_step_three_way`, `pacer_wheel_three_way`, `rp_near`, `rp_three_way`,
//! `timebase_three_way`, `top_three_way`, `uart_bridge_three_way`, `wide_mul_three_way`. Directed tests:
//! `rp_blocks`, `rp_smoke`. Behind flags: `rp_long_campaign` and `core_long_campaign`
//! (`ROCE_CC_LONG=1`), `post_synth` (`ROCE_CC_POST_SYNTH=1`).

mod axil_three_way;
mod cfg_compiler_three_way;
mod core_long_campaign;
mod core_three_way;
mod hpcc_cfg_three_way;
mod hpcc_model;
mod hpcc_three_way;
mod leaves_three_way;
mod np_three_way;
mod paced_core_three_way;
mod pacer_cpb_three_way;
mod pacer_eligible_three_way;
mod pacer_step_three_way;
mod pacer_three_way;
mod pacer_wheel_three_way;
mod post_synth;
mod replay_paced;
mod rp_blocks;
mod rp_long_campaign;
mod rp_near;
mod rp_smoke;
mod rp_three_way;
mod timebase_three_way;
mod top_three_way;
mod uart_bridge_three_way;
mod wide_mul_three_way;
