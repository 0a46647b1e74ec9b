//! Golden models of the roce-cc units, the trace-replay engines and the Verilator bridge.

pub mod axil;
pub mod bench;
pub mod cfg_compiler;
pub mod core_harness;
pub mod core_stimulus;
pub mod core_top;
pub mod csr;
pub mod dcqcn_np;
pub mod dcqcn_rp;
pub mod fixed;
pub mod hdl_sim;
pub mod hpcc_window;
pub mod lockstep;
pub mod np_harness;
pub mod replay;
pub mod replay_golden;
pub mod replay_rtl;
pub mod rp_harness;
pub mod sim_top;
pub mod stimulus;
pub mod timebase;
pub mod timebase_harness;
pub mod top_harness;
pub mod trace;
pub mod uart_bridge_harness;
pub mod verilated;
