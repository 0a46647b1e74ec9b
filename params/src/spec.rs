//! Every parameter as a number: its key, unit, valid range and which unit it configures.
//!
//! [`SPECS`] is the one table of ranges. [`Params::validate`] checks it, and the register
//! map (`roce-cc-regmap`) builds one register per entry from it: the hardware range check,
//! the driver's checks and `docs/registers.md` all come from here. Booleans are 0/1;
//! `cnp_moderation` is 0 = `per_flow`, 1 = `per_port` (2 = `deferred` is refused).

use crate::{CnpModeration, MAX_LINE_RATE_MBPS, MAX_PERIOD_US, MAX_QPS, Params};

/// One end of a valid range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// A fixed number.
    Const(u32),
    /// `line_rate_mbps`.
    LineRate,
    /// The max rate: `rpg_max_rate` if non-zero, else the line rate.
    MaxRate,
}

impl Bound {
    /// The bound's value under `p`.
    pub fn value(self, p: &Params) -> u32 {
        match self {
            Bound::Const(v) => v,
            Bound::LineRate => p.line_rate_mbps,
            Bound::MaxRate => p.max_rate_mbps(),
        }
    }

    /// How the range is written in messages and docs.
    pub fn name(self) -> String {
        match self {
            Bound::Const(v) => v.to_string(),
            Bound::LineRate => "line_rate_mbps".into(),
            Bound::MaxRate => "max rate".into(),
        }
    }
}

/// Which part of the core a parameter configures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// The whole core (line rate, clock, QP count).
    Global,
    /// The reaction point (`roce_rp`).
    Rp,
    /// The notification point (`roce_np`).
    Np,
    /// The HPCC window unit.
    Hpcc,
    /// The pacer. Its parameters are inputs of `PacedCore` and of the replay's port; the
    /// register block has no registers for them (`roce_cc_top` has no pacer).
    Pacer,
}

/// One parameter as a 32-bit number.
#[derive(Clone, Copy, Debug)]
pub struct ParamSpec {
    /// The ConnectX name, also the PARAMS.toml key.
    pub key: &'static str,
    pub scope: Scope,
    /// Unit of the number.
    pub unit: &'static str,
    /// One line: what it does.
    pub doc: &'static str,
    pub lo: Bound,
    pub hi: Bound,
    /// Fixed when the hardware is built (read-only in the register map).
    pub build_time: bool,
    /// The value as a number.
    pub get: fn(&Params) -> u32,
    /// Set from a number (booleans: non-zero is true).
    pub set: fn(&mut Params, u32),
}

impl ParamSpec {
    /// Whether the register block has a register for it (every scope but [`Scope::Pacer`]).
    pub fn in_register_map(&self) -> bool {
        self.scope != Scope::Pacer
    }

    /// `lo..=hi` under `p`, as messages print it.
    pub fn range_text(&self) -> String {
        format!("{}..={}", self.lo.name(), self.hi.name())
    }

    /// Whether `v` is in range under `p` (with this parameter set to `v`).
    pub fn in_range(&self, p: &Params, v: u32) -> bool {
        let mut q = p.clone();
        (self.set)(&mut q, v);
        v >= self.lo.value(&q) && v <= self.hi.value(&q)
    }
}

const fn c(v: u32) -> Bound {
    Bound::Const(v)
}

macro_rules! spec {
    ($key:ident, $scope:ident, $unit:expr, $lo:expr, $hi:expr, $doc:expr) => {
        spec!($key, $scope, $unit, $lo, $hi, $doc, false)
    };
    ($key:ident, $scope:ident, $unit:expr, $lo:expr, $hi:expr, $doc:expr, $fixed:expr) => {
        ParamSpec {
            key: stringify!($key),
            scope: Scope::$scope,
            unit: $unit,
            doc: $doc,
            lo: $lo,
            hi: $hi,
            build_time: $fixed,
            get: |p| p.$key,
            set: |p, v| p.$key = v,
        }
    };
}

macro_rules! flag {
    ($key:ident, $doc:expr) => {
        ParamSpec {
            key: stringify!($key),
            scope: Scope::Rp,
            unit: "bool",
            doc: $doc,
            lo: c(0),
            hi: c(1),
            build_time: false,
            get: |p| p.$key as u32,
            set: |p, v| p.$key = v != 0,
        }
    };
}

/// Every parameter, in register order.
pub static SPECS: &[ParamSpec] = &[
    spec!(
        line_rate_mbps,
        Global,
        "Mb/s",
        c(1),
        c(MAX_LINE_RATE_MBPS),
        "line rate of the port"
    ),
    spec!(
        clock_mhz,
        Global,
        "MHz",
        c(1),
        c(1000),
        "core clock; a time of t us is t * clock_mhz cycles",
        true
    ),
    spec!(
        qps,
        Global,
        "QPs",
        c(2),
        c(MAX_QPS),
        "number of QPs, a power of two",
        true
    ),
    spec!(
        rpg_time_reset,
        Rp,
        "us",
        c(1),
        c(MAX_PERIOD_US),
        "period of the rate-increase timer"
    ),
    spec!(
        rpg_byte_reset,
        Rp,
        "bytes",
        c(0),
        c(u32::MAX),
        "bytes between byte-counter increase events; 0 disables the byte counter"
    ),
    spec!(
        rpg_threshold,
        Rp,
        "count",
        c(1),
        c(31),
        "stage count at which fast recovery ends"
    ),
    spec!(
        rpg_max_rate,
        Rp,
        "Mb/s",
        c(0),
        Bound::LineRate,
        "0 = line rate; reaching it releases the limiter"
    ),
    spec!(
        rpg_ai_rate,
        Rp,
        "Mb/s",
        c(1),
        Bound::LineRate,
        "additive-increase step of Rt"
    ),
    spec!(
        rpg_hai_rate,
        Rp,
        "Mb/s",
        c(1),
        Bound::LineRate,
        "hyper-increase step of Rt"
    ),
    spec!(
        rpg_gd,
        Rp,
        "log2",
        c(1),
        c(15),
        "cut = Rc * alpha * 1024 / 2^rpg_gd"
    ),
    spec!(
        rpg_min_dec_fac,
        Rp,
        "percent",
        c(1),
        c(100),
        "one cut never takes Rc below Rc * rpg_min_dec_fac / 100"
    ),
    spec!(
        rpg_min_rate,
        Rp,
        "Mb/s",
        c(1),
        Bound::MaxRate,
        "floor of Rc"
    ),
    spec!(
        rate_to_set_on_first_cnp,
        Rp,
        "Mb/s",
        c(0),
        Bound::LineRate,
        "Rc on the first CNP; 0 = max rate"
    ),
    spec!(
        dce_tcp_g,
        Rp,
        "1/1024",
        c(1),
        c(1024),
        "g in alpha = g * cnp + (1 - g) * alpha (NVIDIA's documented formula)"
    ),
    spec!(
        dce_tcp_rtt,
        Rp,
        "us",
        c(1),
        c(MAX_PERIOD_US),
        "period of the alpha update timer"
    ),
    spec!(
        rate_reduce_monitor_period,
        Rp,
        "us",
        c(1),
        c(MAX_PERIOD_US),
        "period of the decrease check: at most one cut per period"
    ),
    spec!(
        initial_alpha_value,
        Rp,
        "1/1024",
        c(0),
        c(1024),
        "alpha on the first CNP"
    ),
    flag!(clamp_tgt_rate, "every cut sets Rt = Rc first"),
    flag!(
        clamp_tgt_rate_after_time_inc,
        "a cut sets Rt = Rc if the timer stage counter T > 0"
    ),
    spec!(
        min_time_between_cnps,
        Np,
        "us",
        c(0),
        c(MAX_PERIOD_US),
        "minimum time between two CNPs of one limiter; 0 = no limit"
    ),
    ParamSpec {
        key: "cnp_moderation",
        scope: Scope::Np,
        unit: "enum",
        doc: "0 = per_flow (one limiter per QP), 1 = per_port (one for all QPs)",
        lo: c(0),
        hi: c(1),
        build_time: false,
        get: |p| match p.cnp_moderation {
            CnpModeration::PerFlow => 0,
            CnpModeration::PerPort => 1,
            CnpModeration::Deferred => 2,
        },
        set: |p, v| {
            p.cnp_moderation = match v {
                0 => CnpModeration::PerFlow,
                1 => CnpModeration::PerPort,
                _ => CnpModeration::Deferred,
            }
        },
    },
    spec!(
        cnp_dscp,
        Np,
        "DSCP",
        c(0),
        c(63),
        "DSCP carried on every CNP request"
    ),
    spec!(
        cnp_802p_prio,
        Np,
        "priority",
        c(0),
        c(7),
        "802.1p priority carried on every CNP request"
    ),
    spec!(
        hpcc_base_rtt_ns,
        Hpcc,
        "ns",
        c(1000),
        c(1_000_000),
        "T, the base RTT (the largest in the fabric); the window is R * T"
    ),
    spec!(
        hpcc_eta,
        Hpcc,
        "1/1024",
        c(512),
        c(1024),
        "target utilisation eta (973 = 0.95)"
    ),
    spec!(
        hpcc_max_stage,
        Hpcc,
        "count",
        c(0),
        c(15),
        "additive-only updates before a multiplicative one"
    ),
    spec!(
        hpcc_rate_ai_mbps,
        Hpcc,
        "Mb/s",
        c(1),
        Bound::LineRate,
        "additive step R_AI"
    ),
    spec!(
        hpcc_min_rate_mbps,
        Hpcc,
        "Mb/s",
        c(1),
        c(MAX_LINE_RATE_MBPS),
        "floor of the HPCC rate; a floor above the max rate is the max rate"
    ),
    spec!(
        hpcc_int_multi,
        Hpcc,
        "count",
        c(1),
        c(64),
        "scale of the INT tx (128 * multi bytes) and qlen (80 * multi bytes) fields"
    ),
    spec!(
        mtu_bytes,
        Pacer,
        "bytes",
        c(64),
        c(9216),
        "largest packet the pacer grants; a QP sends min(mtu_bytes, its backlog)"
    ),
    spec!(
        pkt_overhead_bytes,
        Pacer,
        "bytes",
        c(0),
        c(128),
        "bytes each packet adds to the port's wire time (framing), not to the QP's gap"
    ),
];

/// The spec of `key`.
pub fn spec(key: &str) -> Option<&'static ParamSpec> {
    SPECS.iter().find(|s| s.key == key)
}
