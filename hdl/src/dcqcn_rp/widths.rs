//! Widths of the reaction point's datapath, chosen once (see `docs/dcqcn_rp.md`).
//!
//! rust-hdl emits every literal inside `#[hdl_gen]` as a 32-bit Verilog constant and maps
//! Rust paths to signal names, so the logic writes numbers literally; these constants are
//! for types (`Bits<RATE_W>`) only. A number that takes part in arithmetic or a comparison
//! is a sized `Constant<Bits<N>>` field of its block instead (a `localparam` of N bits), and
//! a zero-extension is a `crate::zero_ext::ZeroExt`, so the Verilog has no width mismatch
//! (`hdl/lint/waivers.vlt` lists the generator artifacts that remain).

/// A rate in Mb/s, Q.8: 20 integer bits (up to 1048575 Mb/s) and 8 fractional bits.
pub const RATE_W: usize = 28;
/// Signed (two's complement) distance `Rt - Rc` and its intermediates.
pub const DIST_W: usize = 31;
/// alpha, Q.20, `0..=1 << 20`.
pub const ALPHA_W: usize = 21;
/// Power-table entry `c^k`, Q.24, `0..=1 << 24`.
pub const POW_W: usize = 25;
/// Timer epoch (whole periods, modulo 2^32).
pub const EPOCH_W: usize = 32;
/// Timer remainder and period, us (`period <= 131071`).
pub const REM_W: usize = 17;
/// Cycle within a microsecond (`clock_mhz <= 1000`).
pub const SUB_W: usize = 10;
/// Expiry and event counts (saturate at `2^21 - 1`).
pub const COUNT_W: usize = 21;
/// Stage counters T and BC (saturate at 63).
pub const STAGE_W: usize = 6;
/// `rpg_threshold` (1..=31).
pub const THRESH_W: usize = 5;
/// Byte accumulator (saturates at 2^32 - 1) and `rpg_byte_reset`.
pub const ACC_W: usize = 32;
/// Packet length of a transmitted packet, bytes.
pub const BYTES_W: usize = 16;
/// Dividend of the bounded division (`< 2^18`).
pub const NUM_W: usize = 18;
/// `floor(2^18 / p)`.
pub const RECIP_W: usize = 19;
/// `dce_tcp_g` (1..=1024) and `1024 - g`.
pub const G_W: usize = 11;
/// `rpg_gd + 10` (11..=25).
pub const SHIFT_W: usize = 5;
/// Largest cut as a Q.16 fraction of Rc.
pub const CUTFRAC_W: usize = 16;
/// Power-table address: bit 7 selects the `c^(128 j)` half.
pub const TBL_ADDR_W: usize = 8;
/// Event kind: 0 CNP, 1 transmitted packet, 2 rate query, 3 reset the QP, 4 set its mode.
pub const KIND_W: usize = 3;
/// Congestion-control mode of a QP: 0 DCQCN, 1 rate set by the host, 2 off
/// (`roce_cc_regmap::QpMode`).
pub const MODE_W: usize = 2;
/// Command op: 0 reset the QP, 1 set its mode, 2 (or 3) query it for the register block.
pub const CTL_OP_W: usize = 2;
/// `floor(2^28 / step)` for a rate step (`rpg_ai_rate`, `rpg_hai_rate` in Q.8, at least
/// 1 Mb/s = 256): at most `2^20`.
pub const STEP_RECIP_W: usize = 21;
/// Increase events of one phase applied by one event: two segments of at most `2^21 - 1`
/// timer events each plus one byte event, below `2^22`.
pub const EVENTS_W: usize = 22;
/// Bit length of a positive distance `Rt - Rc` (`DIST_W` bits): 0..=31.
pub const BITLEN_W: usize = 5;
/// Phase of an increase event: 0 fast recovery, 1 additive, 2 hyper increase.
pub const PHASE_W: usize = 2;
