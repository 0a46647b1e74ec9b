//! Synthesizable rust-hdl modules of roce-cc.
//!
//! - [`axil_slave`]: AXI4-Lite slave front end (one register access at a time).
//! - [`cfg_compiler`]: parameters as the host writes them -> the units' hardware form.
//! - [`timebase`]: the time base in hardware (cycle and microsecond counters per period).
//! - [`core_top`]: `roce_cc_core`, the core top: RP and NP behind one set of event streams.
//! - [`ctl_slice`]: the register slice that hands the register block's commands to the RP
//!   and the NP, each unit taking its part in its own cycle.
//! - [`dcqcn_rp`]: the DCQCN reaction point (per-QP rate state machine).
//! - [`dcqcn_np`]: the DCQCN notification point and its per-QP / per-port CNP rate limiter.
//! - [`hpcc_window`]: the HPCC window unit (per-QP rate and window from INT ACKs).
//! - [`pacer`]: the pacer's parts (rates to gaps, the eligible set, a grant's arithmetic).
//! - [`reg_slice`]: a two-register slice of a `{qp, data}` stream (the core top's cuts
//!   between its units and its report merge).
//! - [`traffic_gen`]: a pseudo-random event source for the board design.
//! - [`uart_bridge`]: a UART and a framed command protocol to an AXI4-Lite master (the host's
//!   way to the registers on a board without PCIe).
//! - [`board_ulx3s`]: the ULX3S board design (core + register block + time base + UART),
//!   clocked at 100 MHz by an ECP5 PLL.
//! - [`ecp5_pll`]: a `Verilog::Custom` leaf wrapping the ECP5 PLL primitive (`EHXPLLL`), a
//!   vendor cell rust-hdl cannot instantiate; its Rust model passes the input clock through.
//! - [`synth_shell`]: the core top wrapped for synthesis alone (every port kept, three pins).
//! - [`delay_line`]: a value delayed by `n` cycles in a small RAM (the RP's context beside
//!   its long steps), instead of `n` registers.
//! - [`pipe_mul`]: a multiplier of up to 32 x 32 bits in three registers (partial products
//!   in DSPs, then two adds), for the paths that must close at 100 MHz.
//! - [`wide_mul`], [`dsp_mul`], [`lut_ram`], [`state_ram`], [`zero_ext`]: the
//!   `Verilog::Custom` leaves (primitives rust-hdl cannot express: a multiply wider than
//!   16x16, a multiply registered inside the DSP block, a RAM with combinational reads, a block RAM whose colliding read is undefined (a vendor attribute),
//!   a zero-extension without a width mismatch), each with its own three-way test
//!   (`sim/tests/all/wide_mul_three_way.rs`, `sim/tests/all/leaves_three_way.rs`).

pub mod axil_slave;
pub mod board_ulx3s;
pub mod bypass_ram;
pub mod cfg_compiler;
pub mod core_top;
pub mod csr;
pub mod csr_map;
pub mod ctl_slice;
pub mod dcqcn_np;
pub mod dcqcn_rp;
pub mod delay_line;
pub mod dsp_mul;
pub mod ecp5_pll;
pub mod hpcc_window;
pub mod lut_ram;
pub mod paced_core;
pub mod pacer;
pub mod pipe_mul;
pub mod reg_slice;
pub mod state_ram;
pub mod synth_shell;
pub mod timebase;
pub mod top;
pub mod traffic_gen;
pub mod uart_bridge;
pub mod wide_mul;
pub mod zero_ext;

/// `LutRam<25, 7>`: the power-table RAM as the RP uses it, the top of its three-way test.
pub type LutRam25x7 = lut_ram::LutRam<25, 7>;
/// `DspMul<15, 17, 32>`: the registered DSP multiply leaf, the top of its three-way test.
pub type DspMul15x17 = dsp_mul::DspMul<15, 17, 32>;
/// `StateRam<Bits<12>, 3>`: the state RAM leaf, the top of its three-way test.
pub type StateRam12x3 = state_ram::StateRam<rust_hdl::prelude::Bits<12>, 3>;
/// `ZeroExt<17, 18>`: a zero-extension the RP uses, the top of its three-way test.
pub type ZeroExt17to18 = zero_ext::ZeroExt<17, 18>;

/// Width of every event counter of the units: 2^48 events do not wrap within 3 days at
/// 1 GHz (the register block reads them as 64-bit values).
pub const COUNTER_W: usize = 48;

/// The lint waiver file shipped with every generated top (`hdl/lint/waivers.vlt`).
pub const LINT_WAIVERS: &str = include_str!("../lint/waivers.vlt");

/// Lint-only stand-ins for the vendor cells a top may instantiate (`hdl/lint/ecp5_cells.v`:
/// the ECP5 PLL, `EHXPLLL`, as [`ecp5_pll`] uses it). Verilator and a plain yosys run read
/// it beside a top; it is never synthesised (`synth_ecp5` has the real cells). Also
/// `MULT18X18D`, the DSP that [`dsp_mul`] instantiates in its `SYNTHESIS` body.
pub const LINT_VENDOR_CELLS: &str = include_str!("../lint/ecp5_cells.v");

/// QP-address bits of the units as shipped (1024 QPs; any 1..=14 builds).
pub const QP_BITS: usize = 10;

/// The Verilog of a rust-hdl top (rust-hdl names the top module `top`).
pub fn verilog_of<B: rust_hdl::prelude::Block>(mut top: B) -> String {
    top.connect_all();
    rust_hdl::prelude::generate_verilog(&top)
}

/// Name of the core top's Verilog file as shipped (see [`verilog_tops`]).
pub const CORE_TOP: &str = "roce_cc_core_q1024";

/// Name of the top with the register block (core + AXI4-Lite CSR), as shipped.
pub const TOP: &str = "roce_cc_top_q1024";

/// Name of the ULX3S board design's Verilog file as shipped.
pub const BOARD_ULX3S: &str = "board_ulx3s";

/// `(name, verilog)` of every top-level design roce-cc ships: the core top (what a NIC
/// instantiates), each unit on its own at 1024 QPs, the core with the pacer inside
/// (`paced_core_q1024`), the AXI4-Lite front end of the
/// register block, the UART bridge (at the board's 115200 baud and 100 MHz core clock), the
/// board's traffic generator and the ULX3S board design (which instantiates a vendor PLL: lint it with
/// [`LINT_VENDOR_CELLS`]).
pub fn verilog_tops() -> Vec<(String, String)> {
    vec![
        (
            CORE_TOP.to_string(),
            verilog_of(core_top::RoceCcCore::<QP_BITS>::new()),
        ),
        (
            "dcqcn_rp_q1024".to_string(),
            verilog_of(dcqcn_rp::DcqcnRp::<QP_BITS>::new()),
        ),
        (
            "dcqcn_np_q1024".to_string(),
            verilog_of(dcqcn_np::DcqcnNp::<QP_BITS>::new()),
        ),
        (
            "hpcc_window_q1024".to_string(),
            verilog_of(hpcc_window::window::HpccWindow::<QP_BITS>::default()),
        ),
        (
            "hpcc_cfg".to_string(),
            verilog_of(hpcc_window::cfg::HpccCfg::default()),
        ),
        (
            "timebase".to_string(),
            verilog_of(timebase::Timebase::default()),
        ),
        (
            "pacer_cpb".to_string(),
            verilog_of(pacer::cpb::PacerCpb::default()),
        ),
        (
            "pacer_eligible".to_string(),
            verilog_of(pacer::eligible::Eligible1024::default()),
        ),
        (
            "pacer_step".to_string(),
            verilog_of(pacer::pace_step::PaceStep::default()),
        ),
        (
            "pacer_wheel".to_string(),
            verilog_of(pacer::wheel::Wheel1024::default()),
        ),
        (
            "pacer".to_string(),
            verilog_of(pacer::sched::Pacer1024::default()),
        ),
        (
            "paced_core_q1024".to_string(),
            verilog_of(paced_core::PacedCore1024::default()),
        ),
        (
            "cfg_compiler".to_string(),
            verilog_of(cfg_compiler::CfgCompiler::default()),
        ),
        (
            TOP.to_string(),
            verilog_of(top::RoceCcTop::<QP_BITS>::new(
                &roce_cc_params::Params {
                    qps: 1 << QP_BITS,
                    ..roce_cc_params::Params::default()
                },
                roce_cc_regmap::fw_id(),
            )),
        ),
        (
            "axil_slave".to_string(),
            verilog_of(axil_slave::AxilSlave::default()),
        ),
        (
            "uart_bridge".to_string(),
            verilog_of(uart_bridge::UartBridge::new(
                board_ulx3s::board_divisor(board_ulx3s::BOARD_BAUD),
                uart_bridge::default_timeout(board_ulx3s::board_divisor(board_ulx3s::BOARD_BAUD)),
            )),
        ),
        (
            "traffic_gen_q1024".to_string(),
            verilog_of(traffic_gen::TrafficGen::<QP_BITS>::new(
                board_ulx3s::BOARD_NS_PER_CYCLE,
            )),
        ),
        (
            BOARD_ULX3S.to_string(),
            verilog_of(board_ulx3s::BoardUlx3s::new()),
        ),
    ]
}
