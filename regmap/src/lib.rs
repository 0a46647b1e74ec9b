//! The roce-cc register map, written once.
//!
//! The host sees the core through a 4 KiB BAR of 32-bit registers at byte addresses,
//! organised as a linked list of blocks in the Corundum manner: every block starts with
//! `TYPE`, `VERSION` and `NEXT` (the byte address of the next block, 0 for the last), so a
//! driver discovers what a bitstream has by walking the list from address 0 and skips
//! blocks it does not know.
//!
//! [`blocks`] is the one description. From it come:
//! - the driver's constants and typed accessors ([`rust_driver`], included by
//!   `host-driver` at build time);
//! - `docs/registers.md` ([`markdown`]) and the C header
//!   `host-driver/include/roce_cc_regs.h` ([`c_header`]), checked in and compared with a
//!   fresh generation by the tests;
//! - the hardware decode and staged parameter registers ([`hdl_gen::hdl_decode`], written
//!   by `hdl/build.rs` and included by `roce_cc_hdl::csr_map`).
//!
//! Parameter registers come from `roce_cc_params::SPECS` (names, units, ranges): there is
//! no second list of parameters here.

pub mod hdl_gen;

use roce_cc_params::{Bound, ParamSpec, SPECS, Scope};
use std::fmt::Write;

/// Size of the register space in bytes; any address outside a register is unmapped.
pub const BAR_SIZE: u32 = 0x1000;
/// Bytes between block bases.
pub const BLOCK_STRIDE: u32 = 0x100;
/// Version of every block in this map: major in bits 31:16, minor in 15:0.
pub const BLOCK_VERSION: u32 = 0x0001_0000;

/// Who may do what with a register.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    /// Read only; writes are refused with SLVERR.
    Ro,
    /// Read and write.
    Rw,
    /// Write only (a command); reads return 0.
    Wo,
}

impl Access {
    pub fn name(self) -> &'static str {
        match self {
            Access::Ro => "RO",
            Access::Rw => "RW",
            Access::Wo => "WO",
        }
    }
}

/// A 64-bit event counter of the core (read as `_LO` then `_HI`; reading `_LO` latches
/// `_HI`, so the pair is one atomic snapshot).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Counter {
    /// CNPs received by the RP (CNP events accepted for a valid QP).
    CnpReceived,
    /// CNP requests the NP sent.
    CnpSent,
    /// CE marks the NP's limiter suppressed.
    CnpSuppressed,
    /// Cycles a CNP request waited for the CNP generator.
    CnpStallCycles,
    /// Rate cuts the RP applied.
    RateCuts,
    /// RP increase events in fast recovery.
    IncreaseFr,
    /// RP increase events in additive increase.
    IncreaseAi,
    /// RP increase events in hyper increase.
    IncreaseHai,
    /// Events rejected for an out-of-range QP number (all four input streams).
    BadQpEvents,
    /// Register accesses answered with DECERR (unmapped address).
    RegDecerr,
    /// Register accesses answered with SLVERR (out-of-range value, read-only register,
    /// partial write).
    RegSlverr,
    /// ACKs rejected: QP number out of range or a hop count outside 1..=5.
    AckBad,
    /// ACKs for a QP not in HPCC mode.
    AckIgnored,
    /// ACKs the HPCC window unit applied.
    AckApplied,
    /// Applied ACKs that committed (the first of a round trip).
    AckCommits,
}

/// Every counter, in register order.
pub const COUNTERS: [Counter; 15] = [
    Counter::CnpReceived,
    Counter::CnpSent,
    Counter::CnpSuppressed,
    Counter::CnpStallCycles,
    Counter::RateCuts,
    Counter::IncreaseFr,
    Counter::IncreaseAi,
    Counter::IncreaseHai,
    Counter::BadQpEvents,
    Counter::RegDecerr,
    Counter::RegSlverr,
    Counter::AckBad,
    Counter::AckIgnored,
    Counter::AckApplied,
    Counter::AckCommits,
];

impl Counter {
    /// Register-name stem.
    pub fn name(self) -> &'static str {
        match self {
            Counter::CnpReceived => "cnp_received",
            Counter::CnpSent => "cnp_sent",
            Counter::CnpSuppressed => "cnp_suppressed",
            Counter::CnpStallCycles => "cnp_stall_cycles",
            Counter::RateCuts => "rate_cuts",
            Counter::IncreaseFr => "increase_fr",
            Counter::IncreaseAi => "increase_ai",
            Counter::IncreaseHai => "increase_hai",
            Counter::BadQpEvents => "bad_qp_events",
            Counter::RegDecerr => "reg_decerr",
            Counter::RegSlverr => "reg_slverr",
            Counter::AckBad => "ack_bad",
            Counter::AckIgnored => "ack_ignored",
            Counter::AckApplied => "ack_applied",
            Counter::AckCommits => "ack_commits",
        }
    }

    pub fn doc(self) -> &'static str {
        match self {
            Counter::CnpReceived => "CNPs received by the RP (for a valid QP)",
            Counter::CnpSent => "CNP requests the NP sent",
            Counter::CnpSuppressed => "CE marks the NP's limiter suppressed",
            Counter::CnpStallCycles => "cycles a CNP request waited for the CNP generator",
            Counter::RateCuts => "rate cuts the RP applied",
            Counter::IncreaseFr => "RP increase events in fast recovery",
            Counter::IncreaseAi => "RP increase events in additive increase",
            Counter::IncreaseHai => "RP increase events in hyper increase",
            Counter::BadQpEvents => "events rejected for an out-of-range QP number",
            Counter::RegDecerr => "register accesses answered DECERR (unmapped address)",
            Counter::RegSlverr => {
                "register accesses answered SLVERR (bad value, read-only register, partial write)"
            }
            Counter::AckBad => {
                "ACKs rejected: QP number out of range, or a hop count outside 1..=5"
            }
            Counter::AckIgnored => "ACKs of QPs not in HPCC mode",
            Counter::AckApplied => "ACKs the HPCC window unit applied (wraps at 2^32)",
            Counter::AckCommits => "applied ACKs that committed Rc (wraps at 2^32)",
        }
    }
}

/// A QP's congestion-control mode (`QP_MODE_ARG`, `QP_STATUS` bits 2:1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QpMode {
    /// Full hardware DCQCN (after reset).
    Dcqcn = 0,
    /// The rate is the one the host set (`QP_RATE_ARG`); the hardware only enforces it.
    HostRate = 1,
    /// No congestion control: the QP may always send at the max rate.
    Off = 2,
    /// HPCC: the rate and window of the HPCC window unit, from the QP's ACKs.
    Hpcc = 3,
}

/// The identity of this build, as the `fw_id` block reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FwId {
    /// major << 16 | minor << 8 | patch.
    pub version: u32,
    /// Commit time of the build, Unix seconds (0 outside a git checkout).
    pub build_id: u32,
    /// First 32 bits of the commit hash (0 outside a git checkout).
    pub git_hash: u32,
}

fn parse_u32(s: &str) -> u32 {
    let mut v = 0u32;
    for b in s.bytes() {
        v = v.wrapping_mul(10).wrapping_add((b - b'0') as u32);
    }
    v
}

/// This build's identity (from `build.rs`: git and the crate version).
pub fn fw_id() -> FwId {
    FwId {
        version: parse_u32(env!("CARGO_PKG_VERSION_MAJOR")) << 16
            | parse_u32(env!("CARGO_PKG_VERSION_MINOR")) << 8
            | parse_u32(env!("CARGO_PKG_VERSION_PATCH")),
        build_id: parse_u32(env!("ROCE_CC_BUILD_ID")),
        git_hash: parse_u32(env!("ROCE_CC_GIT_HASH")),
    }
}

/// `ctrl` value: apply the staged parameters (compile them, reset every QP's state).
pub const CTRL_APPLY: u32 = 1;

/// `QP_CMD` values.
pub const QP_CMD_RESET: u32 = 1;
/// `QP_CMD`: set the mode (and host rate) from `QP_MODE_ARG` / `QP_RATE_ARG`.
pub const QP_CMD_SET_MODE: u32 = 2;

/// What a register holds.
#[derive(Clone, Copy, Debug)]
pub enum Field {
    /// Block header: type identifier.
    BlockType,
    /// Block header: version.
    BlockVersion,
    /// Block header: byte address of the next block, 0 for the last.
    BlockNext,
    /// Firmware version: major << 16 | minor << 8 | patch (the crate version).
    FwVersion,
    /// Build identifier: the commit time of the build, Unix seconds.
    BuildId,
    /// First 32 bits of the git commit hash of the build.
    GitHash,
    /// A parameter of `roce_cc_params::SPECS` (the staged value).
    Param(&'static ParamSpec),
    /// Control: `CTRL_APPLY` applies the staged parameters.
    Ctrl,
    /// Status: bit 0 = busy (applying parameters, or the reset sweep).
    Status,
    /// The QP the window shows (write: select it and snapshot its state).
    QpSelect,
    /// A command for the selected QP.
    QpCommand,
    /// Mode argument of `QP_CMD_SET_MODE`.
    QpModeArg,
    /// Rate argument of `QP_CMD_SET_MODE` (mode host rate), Mb/s.
    QpRateArg,
    /// Snapshot: bit 0 limited, bits 2:1 mode.
    QpStatus,
    /// Snapshot: current rate Rc, Mb/s Q.8.
    QpRc,
    /// Snapshot: target rate Rt, Mb/s Q.8.
    QpRt,
    /// Snapshot: alpha, Q.20.
    QpAlpha,
    /// Snapshot: HPCC's U, Q.24, bits 31:0.
    QpULo,
    /// Snapshot: HPCC's U, Q.24, bits 39:32.
    QpUHi,
    /// Snapshot: HPCC's window, bytes.
    QpWindow,
    /// Low 32 bits of a counter (reading it latches the high half).
    CounterLo(Counter),
    /// High 32 bits of a counter, as latched by the last `_LO` read.
    CounterHi(Counter),
}

/// One 32-bit register.
#[derive(Clone, Debug)]
pub struct Reg {
    /// Name, lower case (`rpg_time_reset`, `qp_sel`, `cnp_sent_lo`).
    pub name: String,
    /// Byte address in the BAR.
    pub addr: u32,
    pub access: Access,
    pub field: Field,
    /// What it is, with unit and range.
    pub doc: String,
    /// A write may strobe fewer than four bytes (only registers whose value fits in byte 0;
    /// unstrobed bytes keep their value). Any other partial write is refused with SLVERR.
    pub partial_ok: bool,
}

impl Reg {
    /// Valid write range `(lo, hi)` under the current parameters, for parameter registers.
    pub fn param(&self) -> Option<&'static ParamSpec> {
        match self.field {
            Field::Param(s) => Some(s),
            _ => None,
        }
    }
}

/// One block of registers.
#[derive(Clone, Debug)]
pub struct Block {
    /// Name, lower case (`fw_id`, `rp_params`).
    pub name: &'static str,
    /// One line: what the block is.
    pub title: &'static str,
    pub type_id: u32,
    pub version: u32,
    /// Byte address of the block's first register (`TYPE`).
    pub base: u32,
    /// Byte address of the next block, 0 for the last.
    pub next: u32,
    pub regs: Vec<Reg>,
}

/// Block type identifiers (ASCII "RC" + two letters).
pub mod block_type {
    pub const FW_ID: u32 = 0x5243_4649; // "RCFI"
    pub const GLOBAL_PARAMS: u32 = 0x5243_4750; // "RCGP"
    pub const RP_PARAMS: u32 = 0x5243_5250; // "RCRP"
    pub const NP_PARAMS: u32 = 0x5243_4e50; // "RCNP"
    pub const QP_WINDOW: u32 = 0x5243_5157; // "RCQW"
    pub const COUNTERS: u32 = 0x5243_4354; // "RCCT"
    pub const HPCC_PARAMS: u32 = 0x5243_4850; // "RCHP"
}

fn ro(name: &str, field: Field, doc: &str) -> (String, Access, Field, String, bool) {
    (name.to_string(), Access::Ro, field, doc.to_string(), false)
}

fn param_doc(s: &ParamSpec) -> String {
    let range = match (s.lo, s.hi) {
        (Bound::Const(lo), Bound::Const(hi)) => format!("{lo}..={hi}"),
        _ => s.range_text(),
    };
    let fixed = if s.build_time {
        "; fixed when the bitstream is built"
    } else {
        ""
    };
    format!("{} ({}, range {range}{fixed})", s.doc, s.unit)
}

fn param_regs(scope: Scope) -> Vec<(String, Access, Field, String, bool)> {
    SPECS
        .iter()
        .filter(|s| s.scope == scope)
        .map(|s| {
            let access = if s.build_time { Access::Ro } else { Access::Rw };
            let partial = matches!(s.hi, Bound::Const(hi) if hi < 256) && !s.build_time;
            (
                s.key.to_string(),
                access,
                Field::Param(s),
                param_doc(s),
                partial,
            )
        })
        .collect()
}

/// The register map: every block with its registers at their byte addresses, linked in
/// address order.
pub fn blocks() -> Vec<Block> {
    type Body = Vec<(String, Access, Field, String, bool)>;
    let bodies: Vec<(&str, &str, u32, Body)> =
        vec![
        (
            "fw_id",
            "firmware identification",
            block_type::FW_ID,
            vec![
                ro(
                    "fw_version",
                    Field::FwVersion,
                    "roce-cc version: major << 16 | minor << 8 | patch",
                ),
                ro(
                    "build_id",
                    Field::BuildId,
                    "commit time of the build, Unix seconds",
                ),
                ro(
                    "git_hash",
                    Field::GitHash,
                    "first 32 bits of the git commit hash of the build",
                ),
            ],
        ),
        (
            "global_params",
            "parameters of the whole core; apply and status",
            block_type::GLOBAL_PARAMS,
            [
                (
                    "ctrl".to_string(),
                    Access::Wo,
                    Field::Ctrl,
                    format!(
                        "{CTRL_APPLY} = apply the staged parameters: the units take them and every \
                         QP's state is reset (range 0..=1)"
                    ),
                    false,
                ),
                ro(
                    "status",
                    Field::Status,
                    "bit 0 = busy: parameters being applied, or the reset sweep; events wait",
                ),
            ]
            .into_iter()
            .chain(param_regs(Scope::Global))
            .collect(),
        ),
        (
            "rp_params",
            "reaction point parameters (ConnectX roce_rp names)",
            block_type::RP_PARAMS,
            param_regs(Scope::Rp),
        ),
        (
            "np_params",
            "notification point parameters (ConnectX roce_np names)",
            block_type::NP_PARAMS,
            param_regs(Scope::Np),
        ),
        (
            "qp_window",
            "one QP's state and commands",
            block_type::QP_WINDOW,
            vec![
                (
                    "qp_sel".into(),
                    Access::Rw,
                    Field::QpSelect,
                    "QP shown by the window, 0..qps-1; a write selects it and takes a snapshot \
                     of its state"
                        .into(),
                    false,
                ),
                (
                    "qp_cmd".into(),
                    Access::Wo,
                    Field::QpCommand,
                    format!(
                        "command for the selected QP: {QP_CMD_RESET} = reset its RP and NP state, \
                         {QP_CMD_SET_MODE} = set its mode from qp_mode_arg and qp_rate_arg; \
                         then a new snapshot"
                    ),
                    false,
                ),
                (
                    "qp_mode_arg".into(),
                    Access::Rw,
                    Field::QpModeArg,
                    "mode for set-mode: 0 = hardware DCQCN, 1 = rate set by the host, \
                     2 = congestion control off, 3 = HPCC (range 0..=3)"
                        .into(),
                    true,
                ),
                (
                    "qp_rate_arg".into(),
                    Access::Rw,
                    Field::QpRateArg,
                    "rate for mode 1, Mb/s (range 1..=line_rate_mbps)".into(),
                    false,
                ),
                ro(
                    "qp_status",
                    Field::QpStatus,
                    "snapshot: bit 0 = limited, bits 2:1 = mode",
                ),
                ro(
                    "qp_rc",
                    Field::QpRc,
                    "snapshot: the rate the QP may send at, Mb/s Q.8 (DCQCN's current rate \
                     Rc, HPCC's R)",
                ),
                ro(
                    "qp_rt",
                    Field::QpRt,
                    "snapshot: DCQCN's target rate Rt, or HPCC's reference rate Rc, Mb/s Q.8",
                ),
                ro(
                    "qp_alpha",
                    Field::QpAlpha,
                    "snapshot: alpha, Q.20 (0 when not limited, and in HPCC mode)",
                ),
                ro(
                    "qp_u_lo",
                    Field::QpULo,
                    "snapshot: HPCC's U, Q.24, bits 31:0 (0 outside HPCC mode)",
                ),
                ro("qp_u_hi", Field::QpUHi, "snapshot: HPCC's U, Q.24, bits 39:32"),
                ro(
                    "qp_window",
                    Field::QpWindow,
                    "snapshot: HPCC's window R * T / 8000, bytes (0 outside HPCC mode)",
                ),
            ],
        ),
        (
            "counters",
            "64-bit event counters (read _lo first: it latches _hi)",
            block_type::COUNTERS,
            COUNTERS
                .iter()
                .flat_map(|&c| {
                    [
                        ro(
                            &format!("{}_lo", c.name()),
                            Field::CounterLo(c),
                            &format!("{}, bits 31:0 (latches _hi)", c.doc()),
                        ),
                        ro(
                            &format!("{}_hi", c.name()),
                            Field::CounterHi(c),
                            &format!("{}, bits 63:32 (as latched)", c.doc()),
                        ),
                    ]
                })
                .collect(),
        ),
        (
            "hpcc_params",
            "HPCC window unit parameters (hpcc.md)",
            block_type::HPCC_PARAMS,
            param_regs(Scope::Hpcc),
        ),
    ];
    let n = bodies.len() as u32;
    bodies
        .into_iter()
        .enumerate()
        .map(|(i, (name, title, type_id, body))| {
            let base = i as u32 * BLOCK_STRIDE;
            let next = if i as u32 + 1 == n {
                0
            } else {
                base + BLOCK_STRIDE
            };
            let header = [
                ("type", Field::BlockType, "block type identifier"),
                (
                    "version",
                    Field::BlockVersion,
                    "block version: major << 16 | minor",
                ),
                (
                    "next",
                    Field::BlockNext,
                    "byte address of the next block, 0 for the last",
                ),
            ];
            let mut regs: Vec<Reg> = header
                .iter()
                .map(|(n, f, d)| ro(n, *f, d))
                .chain(body)
                .enumerate()
                .map(|(k, (name, access, field, doc, partial_ok))| Reg {
                    name,
                    addr: base + 4 * k as u32,
                    access,
                    field,
                    doc,
                    partial_ok,
                })
                .collect();
            regs.shrink_to_fit();
            assert!(
                4 * regs.len() as u32 <= BLOCK_STRIDE,
                "block {name} overflows its stride"
            );
            Block {
                name,
                title,
                type_id,
                version: BLOCK_VERSION,
                base,
                next,
                regs,
            }
        })
        .collect()
}

/// The register at byte address `addr`, with its block, if any.
pub fn at(map: &[Block], addr: u32) -> Option<(&Block, &Reg)> {
    map.iter()
        .flat_map(|b| b.regs.iter().map(move |r| (b, r)))
        .find(|(_, r)| r.addr == addr)
}

/// The register called `name` in block `block`.
pub fn find<'a>(map: &'a [Block], block: &str, name: &str) -> Option<&'a Reg> {
    map.iter()
        .find(|b| b.name == block)?
        .regs
        .iter()
        .find(|r| r.name == name)
}

/// `docs/registers.md`.
pub fn markdown() -> String {
    let map = blocks();
    let mut s = String::new();
    s.push_str(
        "# roce-cc registers\n\n\
         Generated from `regmap/src/lib.rs` by `roce-cc regmap markdown`. Do not edit: the \
         test suite regenerates it and fails if it differs.\n\n\
         The core's registers are 32 bits wide at byte addresses in a 4 KiB BAR. They form a \
         linked list of blocks: every block starts with `type`, `version` and `next`, the byte \
         address of the next block (0 ends the list). A driver walks the list from address 0 \
         and skips blocks it does not know.\n\n\
         Access rules (AXI4-Lite):\n\n\
         - an address that is not a register: DECERR, nothing changes, `reg_decerr` counts it;\n\
         - a write to a read-only register, a parameter value outside its range, or a write \
           that strobes fewer than four bytes to a register that does not take partial writes: \
           SLVERR, the old value stays, `reg_slverr` counts it;\n\
         - partial writes are taken only by registers whose whole range fits in byte 0; \
           unstrobed bytes keep their value;\n\
         - 64-bit counters: read `_lo` first; it latches `_hi`, so the pair is one snapshot.\n\n\
         Parameter registers are staged: a write changes what is read back, and the units \
         take the staged set only when `ctrl` is written with 1 (apply), which also resets \
         every QP's state; `status` bit 0 is high until that is done. A parameter write is \
         refused (SLVERR) if the staged set would become invalid: ranges that name another \
         parameter (`line_rate_mbps`, the max rate) are checked against its staged value, in \
         both directions. `roce-cc driver params load` writes a file in an order that never \
         passes through an invalid set.\n\n",
    );
    s.push_str("| block | base | type | title |\n|---|---|---|---|\n");
    for b in &map {
        let _ = writeln!(
            s,
            "| `{}` | `0x{:03x}` | `0x{:08x}` | {} |",
            b.name, b.base, b.type_id, b.title
        );
    }
    for b in &map {
        let _ = write!(
            s,
            "\n## `{}` at `0x{:03x}`: {}\n\n| address | name | access | partial write | description |\n|---|---|---|---|---|\n",
            b.name, b.base, b.title
        );
        for r in &b.regs {
            let _ = writeln!(
                s,
                "| `0x{:03x}` | `{}` | {} | {} | {} |",
                r.addr,
                r.name,
                r.access.name(),
                if r.partial_ok { "yes" } else { "no" },
                r.doc.replace('|', "\\|")
            );
        }
    }
    s
}

/// `host-driver/include/roce_cc_regs.h`.
pub fn c_header() -> String {
    let map = blocks();
    let mut s = String::from(
        "/* roce-cc register map. Generated from regmap/src/lib.rs by\n \
         * `roce-cc regmap c-header`; do not edit. See docs/registers.md. */\n\
         #ifndef ROCE_CC_REGS_H\n#define ROCE_CC_REGS_H\n\n",
    );
    let _ = writeln!(s, "#define ROCE_CC_BAR_SIZE 0x{BAR_SIZE:04x}u");
    let _ = writeln!(s, "#define ROCE_CC_BLOCK_VERSION 0x{BLOCK_VERSION:08x}u");
    let _ = writeln!(s, "#define ROCE_CC_QP_CMD_RESET {QP_CMD_RESET}u");
    let _ = writeln!(s, "#define ROCE_CC_QP_CMD_SET_MODE {QP_CMD_SET_MODE}u");
    for (name, v) in [("DCQCN", 0), ("HOST_RATE", 1), ("OFF", 2)] {
        let _ = writeln!(s, "#define ROCE_CC_QP_MODE_{name} {v}u");
    }
    for b in &map {
        let up = b.name.to_uppercase();
        let _ = write!(
            s,
            "\n/* {}: {} */\n#define ROCE_CC_{up}_TYPE_ID 0x{:08x}u\n#define ROCE_CC_{up}_BASE 0x{:03x}u\n",
            b.name, b.title, b.type_id, b.base
        );
        for r in &b.regs {
            let _ = writeln!(
                s,
                "#define ROCE_CC_{up}_{} 0x{:03x}u /* {} */",
                r.name.to_uppercase(),
                r.addr,
                r.access.name()
            );
        }
    }
    s.push_str("\n#endif /* ROCE_CC_REGS_H */\n");
    s
}

/// Rust source of the driver's constants and typed accessors (`host-driver` includes it).
///
/// For every register: `pub const <BLOCK>_<NAME>: u32` (its address). For every parameter
/// register: a `Param` entry in `PARAM_REGS` (key, address, writable). For every counter:
/// an entry in `COUNTER_REGS` (name, `_lo` address). Block type identifiers: `TYPE_<BLOCK>`.
pub fn rust_driver() -> String {
    let map = blocks();
    let mut s = String::from(
        "// Generated by roce_cc_regmap::rust_driver from regmap/src/lib.rs; do not edit.\n\n",
    );
    for b in &map {
        let up = b.name.to_uppercase();
        let _ = writeln!(
            s,
            "/// Block type of `{}`: {}.\npub const TYPE_{up}: u32 = 0x{:08x};",
            b.name, b.title, b.type_id
        );
        for r in &b.regs {
            let _ = writeln!(
                s,
                "/// `{}.{}` ({}): {}.\npub const {up}_{}: u32 = 0x{:03x};",
                b.name,
                r.name,
                r.access.name(),
                r.doc.replace('[', "\\[").replace(']', "\\]"),
                r.name.to_uppercase(),
                r.addr
            );
        }
    }
    s.push_str("\n/// Every parameter register: (PARAMS.toml key, address, writable).\n");
    s.push_str("pub const PARAM_REGS: &[(&str, u32, bool)] = &[\n");
    for b in &map {
        for r in &b.regs {
            if let Some(p) = r.param() {
                let _ = writeln!(
                    s,
                    "    (\"{}\", 0x{:03x}, {}),",
                    p.key,
                    r.addr,
                    r.access == Access::Rw
                );
            }
        }
    }
    s.push_str("];\n\n/// Every counter: (name, address of `_lo`; `_hi` follows).\n");
    s.push_str("pub const COUNTER_REGS: &[(&str, u32)] = &[\n");
    for b in &map {
        for r in &b.regs {
            if let Field::CounterLo(c) = r.field {
                let _ = writeln!(s, "    (\"{}\", 0x{:03x}),", c.name(), r.addr);
            }
        }
    }
    s.push_str("];\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_are_unique_aligned_and_inside_the_bar() {
        let map = blocks();
        let mut seen = std::collections::HashSet::new();
        for b in &map {
            assert_eq!(b.regs[0].addr, b.base);
            for r in &b.regs {
                assert_eq!(r.addr % 4, 0, "{}", r.name);
                assert!(r.addr < BAR_SIZE, "{}", r.name);
                assert!(seen.insert(r.addr), "{} reuses 0x{:x}", r.name, r.addr);
            }
        }
    }

    #[test]
    fn the_list_is_linked_in_order_and_ends() {
        let map = blocks();
        let mut at = 0u32;
        for (i, b) in map.iter().enumerate() {
            assert_eq!(b.base, at, "block {i}");
            at = b.next;
        }
        assert_eq!(at, 0, "the last block ends the list");
        let types: std::collections::HashSet<u32> = map.iter().map(|b| b.type_id).collect();
        assert_eq!(types.len(), map.len());
    }

    #[test]
    fn every_parameter_of_the_register_map_has_exactly_one_register() {
        let map = blocks();
        for s in SPECS {
            let want = usize::from(s.in_register_map());
            let n = map
                .iter()
                .flat_map(|b| &b.regs)
                .filter(|r| r.param().is_some_and(|p| p.key == s.key))
                .count();
            assert_eq!(n, want, "{}", s.key);
        }
    }

    #[test]
    fn generated_texts_name_every_register() {
        let (md, h, rs) = (markdown(), c_header(), rust_driver());
        for b in blocks() {
            for r in &b.regs {
                assert!(md.contains(&format!("`{}`", r.name)), "{}", r.name);
                let c = format!(
                    "ROCE_CC_{}_{}",
                    b.name.to_uppercase(),
                    r.name.to_uppercase()
                );
                assert!(h.contains(&c), "{c}");
                let k = format!("{}_{}", b.name.to_uppercase(), r.name.to_uppercase());
                assert!(rs.contains(&k), "{k}");
            }
        }
    }

    /// The checked-in generated files are what the description generates today.
    #[test]
    fn checked_in_docs_and_header_are_current() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        for (path, text, cmd) in [
            ("docs/registers.md", markdown(), "markdown"),
            ("host-driver/include/roce_cc_regs.h", c_header(), "c-header"),
        ] {
            let on_disk = std::fs::read_to_string(root.join(path)).unwrap_or_default();
            assert!(
                on_disk == text,
                "{path} is out of date: regenerate it with `roce-cc regmap {cmd} > {path}`"
            );
        }
    }
}
