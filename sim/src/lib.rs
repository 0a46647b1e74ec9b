//! Golden models of the roce-cc units, the trace-replay engines and the Verilator bridge.

pub mod dcqcn_rp;
pub mod fixed;
pub mod replay;
pub mod replay_golden;
pub mod replay_rtl;
pub mod rp_harness;
pub mod stimulus;
pub mod timebase;
pub mod trace;
pub mod verilated;
