//! The one parameter set of roce-cc.
//!
//! Every DCQCN parameter carries the name NVIDIA ConnectX exposes
//! (`/sys/class/net/<if>/ecn/roce_rp/*`, `roce_np/*`), its unit, default and valid range as
//! `../shared/reference/dcqcn.md` fixes them. This struct is the single source: the golden
//! model, the hardware harnesses, `roce-cc params` and (later) the register map and the
//! driver all read it. [`Params::validate`] refuses a value outside its range and names the
//! range; nothing downstream re-checks ranges by hand.

use serde::{Deserialize, Serialize};
use std::fmt;

pub mod spec;
pub use spec::{Bound, ParamSpec, SPECS, Scope};

/// How the notification point rate-limits CNPs (dcqcn.md "NP and the CNP rate limiter").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CnpModeration {
    /// One limiter per QP.
    PerFlow,
    /// One limiter for the whole port.
    PerPort,
    /// Per QP; a suppressed mark sends one CNP when the window ends (DCQCN paper variant).
    /// Named so that a PARAMS.toml asking for it gets a clear refusal from
    /// [`Params::validate`]: this core does not implement it (see `docs/dcqcn_np.md`).
    Deferred,
}

/// All parameters of the core, flat, with ConnectX names. Missing keys in a PARAMS.toml take
/// the defaults of [`Params::default`] (the `connectx` profile); unknown keys are refused.
/// Units and valid ranges: [`SPECS`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Params {
    // ---- global ----
    /// Line rate of the port, Mb/s.
    pub line_rate_mbps: u32,
    /// Core clock, MHz. Times in us become `us * clock_mhz` cycles.
    pub clock_mhz: u32,
    /// Number of QPs: a power of two, 2..=16384.
    pub qps: u32,

    // ---- reaction point (roce_rp) ----
    /// Period of the rate-increase timer, us.
    pub rpg_time_reset: u32,
    /// Bytes between byte-counter increase events; 0 disables the byte counter.
    pub rpg_byte_reset: u32,
    /// Stage count at which fast recovery ends.
    pub rpg_threshold: u32,
    /// Mb/s; 0 = line rate. Reaching it releases the limiter.
    pub rpg_max_rate: u32,
    /// Additive-increase step of Rt, Mb/s.
    pub rpg_ai_rate: u32,
    /// Hyper-increase step of Rt, Mb/s.
    pub rpg_hai_rate: u32,
    /// log2 divisor of the cut: cut = Rc * alpha * 1024 / 2^rpg_gd.
    pub rpg_gd: u32,
    /// One cut never takes Rc below Rc * rpg_min_dec_fac / 100.
    pub rpg_min_dec_fac: u32,
    /// Floor of Rc, Mb/s.
    pub rpg_min_rate: u32,
    /// Rc on the first CNP, Mb/s; 0 = max rate.
    pub rate_to_set_on_first_cnp: u32,
    /// g of the alpha update in 1/1024. The core follows NVIDIA's documented
    /// formula alpha = g * cnp + (1 - g) * alpha; 4 (1/256) is the DCQCN paper's value.
    pub dce_tcp_g: u32,
    /// Period of the alpha update timer, us.
    pub dce_tcp_rtt: u32,
    /// Period of the rate-decrease check, us: at most one cut per period.
    pub rate_reduce_monitor_period: u32,
    /// Alpha on the first CNP, in 1/1024.
    pub initial_alpha_value: u32,
    /// Every cut sets Rt = Rc first.
    pub clamp_tgt_rate: bool,
    /// A cut sets Rt = Rc if the timer stage counter T > 0.
    pub clamp_tgt_rate_after_time_inc: bool,

    // ---- notification point (roce_np) ----
    /// Minimum time between two CNPs of one limiter, us.
    pub min_time_between_cnps: u32,
    /// CNP limiter granularity.
    pub cnp_moderation: CnpModeration,
    /// DSCP carried on every CNP request.
    pub cnp_dscp: u32,
    /// 802.1p priority carried on every CNP request.
    pub cnp_802p_prio: u32,

    // ---- HPCC window unit (`../shared/reference/hpcc.md`) ----
    /// T, the base RTT (the largest in the fabric), ns.
    pub hpcc_base_rtt_ns: u32,
    /// Target utilisation eta in 1/1024 (973 = 0.95).
    pub hpcc_eta: u32,
    /// Additive-only updates before a multiplicative one.
    pub hpcc_max_stage: u32,
    /// Additive step R_AI, Mb/s.
    pub hpcc_rate_ai_mbps: u32,
    /// Floor of the HPCC rate, Mb/s.
    pub hpcc_min_rate_mbps: u32,
    /// Scale of the INT tx and qlen fields.
    pub hpcc_int_multi: u32,

    // ---- pacer (`../shared/reference/pacing.md`) ----
    /// Largest packet the pacer grants, bytes: a QP's packets are min(mtu_bytes, backlog).
    pub mtu_bytes: u32,
    /// Bytes each packet adds to its wire time beyond its own (framing, headers), bytes.
    pub pkt_overhead_bytes: u32,
}

impl Default for Params {
    fn default() -> Self {
        Self {
            line_rate_mbps: 100_000,
            clock_mhz: 250,
            qps: 1024,
            rpg_time_reset: 300,
            rpg_byte_reset: 32767,
            rpg_threshold: 1,
            rpg_max_rate: 0,
            rpg_ai_rate: 5,
            rpg_hai_rate: 50,
            rpg_gd: 11,
            rpg_min_dec_fac: 50,
            rpg_min_rate: 1,
            rate_to_set_on_first_cnp: 0,
            dce_tcp_g: 4,
            dce_tcp_rtt: 1,
            rate_reduce_monitor_period: 4,
            initial_alpha_value: 1023,
            clamp_tgt_rate: false,
            clamp_tgt_rate_after_time_inc: true,
            min_time_between_cnps: 4,
            cnp_moderation: CnpModeration::PerFlow,
            cnp_dscp: 48,
            cnp_802p_prio: 6,
            hpcc_base_rtt_ns: 8000,
            hpcc_eta: 973,
            hpcc_max_stage: 0,
            hpcc_rate_ai_mbps: 40,
            hpcc_min_rate_mbps: 1000,
            hpcc_int_multi: 1,
            mtu_bytes: 4096,
            pkt_overhead_bytes: 0,
        }
    }
}

/// The named profiles `roce-cc params --profile` prints (dcqcn.md "Profiles"; `hpcc-ns3`:
/// hpcc.md's, the HPCC ns-3 simulator's scaling of R_AI and the INT fields by the line rate).
pub const PROFILES: [&str; 4] = ["connectx", "paper", "ns3-mlx", "hpcc-ns3"];

/// A parameter outside its valid range, or a file that cannot be read as parameters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParamError(pub String);

impl fmt::Display for ParamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}
impl std::error::Error for ParamError {}

/// Largest line rate the fixed-point formats hold: rates are 20 integer bits of Mb/s.
pub const MAX_LINE_RATE_MBPS: u32 = (1 << 20) - 1;
/// Largest period in us (17 bits), for every RP timer and the CNP window.
pub const MAX_PERIOD_US: u32 = 131_071;
/// Largest QP count.
pub const MAX_QPS: u32 = 16_384;

impl Params {
    /// A named profile, or `None` for an unknown name.
    pub fn profile(name: &str) -> Option<Params> {
        let mut p = Params::default();
        match name {
            "connectx" => {}
            "paper" => {
                p.rpg_time_reset = 55;
                p.rpg_byte_reset = 10 * 1024 * 1024;
                p.rpg_threshold = 5;
                p.rpg_ai_rate = 40;
                p.rpg_hai_rate = 200;
                p.dce_tcp_g = 4;
                p.dce_tcp_rtt = 55;
                p.rate_reduce_monitor_period = 50;
                p.min_time_between_cnps = 50;
            }
            "ns3-mlx" => {
                // The HPCC ns-3 "mlx" DCQCN: byte counter off, alpha := 1 on the first CNP,
                // AI/HAI 5/50 Mb/s at 25G scaled by the line rate.
                let scale = p.line_rate_mbps / 25_000;
                p.rpg_byte_reset = 0;
                p.rpg_threshold = 1;
                p.rpg_ai_rate = 5 * scale;
                p.rpg_hai_rate = 50 * scale;
                p.dce_tcp_g = 4;
                p.dce_tcp_rtt = 1;
                p.rate_reduce_monitor_period = 4;
                p.rpg_time_reset = 300;
                p.rpg_min_rate = 1000;
                p.initial_alpha_value = 1024;
                p.clamp_tgt_rate = false;
                p.clamp_tgt_rate_after_time_inc = true;
            }
            "hpcc-ns3" => {
                // R_AI = 10 Mb/s per 25 Gb/s of line rate, the INT fields in units of
                // line / 25G (at least 1), a floor of 1 Gb/s.
                let scale = p.line_rate_mbps / 25_000;
                p.hpcc_rate_ai_mbps = (10 * p.line_rate_mbps / 25_000).max(1);
                p.hpcc_int_multi = scale.max(1);
                p.hpcc_min_rate_mbps = 1000;
            }
            _ => return None,
        }
        Some(p)
    }

    /// Parse a PARAMS.toml text (flat keys; missing keys take defaults) and validate it.
    pub fn from_toml_str(text: &str) -> Result<Params, ParamError> {
        let p: Params = toml::from_str(text).map_err(|e| ParamError(format!("{e}")))?;
        p.validate()?;
        Ok(p)
    }

    /// Read and validate a PARAMS.toml file.
    pub fn from_file(path: &std::path::Path) -> Result<Params, ParamError> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| ParamError(format!("cannot read {}: {e}", path.display())))?;
        Self::from_toml_str(&text).map_err(|e| ParamError(format!("{}: {e}", path.display())))
    }

    /// The complete file, every key present, in a stable order.
    pub fn to_toml_string(&self) -> String {
        toml::to_string(self).expect("Params always serialises")
    }

    /// The max rate in Mb/s: `rpg_max_rate` if non-zero, else the line rate, never above it.
    pub fn max_rate_mbps(&self) -> u32 {
        if self.rpg_max_rate == 0 {
            self.line_rate_mbps
        } else {
            self.rpg_max_rate.min(self.line_rate_mbps)
        }
    }

    /// log2 of the QP count.
    pub fn qp_bits(&self) -> u32 {
        self.qps.trailing_zeros()
    }

    /// Check every value against its range ([`SPECS`]); the error names the key and the
    /// range.
    pub fn validate(&self) -> Result<(), ParamError> {
        if self.cnp_moderation == CnpModeration::Deferred {
            return Err(ParamError(
                "parameter cnp_moderation = \"deferred\" is not supported by this core: \
                 a CNP at the end of each window needs a per-QP timer (see docs/dcqcn_np.md); \
                 valid values are \"per_flow\" and \"per_port\""
                    .into(),
            ));
        }
        for s in SPECS {
            let v = (s.get)(self);
            if v < s.lo.value(self) || v > s.hi.value(self) {
                let at = match (s.lo, s.hi) {
                    (Bound::Const(_), Bound::Const(_)) => String::new(),
                    _ => format!(" (here {}..={})", s.lo.value(self), s.hi.value(self)),
                };
                return Err(ParamError(format!(
                    "parameter {} = {v} is out of range: valid range is {}{at}",
                    s.key,
                    s.range_text()
                )));
            }
        }
        if !self.qps.is_power_of_two() {
            return Err(ParamError(format!(
                "parameter qps = {} must be a power of two in 2..={MAX_QPS}",
                self.qps
            )));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn profiles_are_valid_and_round_trip() {
        for name in PROFILES {
            let p = Params::profile(name).unwrap();
            p.validate().unwrap();
            let back = Params::from_toml_str(&p.to_toml_string()).unwrap();
            assert_eq!(p, back, "{name}");
        }
        assert!(Params::profile("nope").is_none());
    }

    #[test]
    fn out_of_range_names_key_and_range() {
        let e = Params::from_toml_str("rpg_gd = 16").unwrap_err();
        assert!(e.0.contains("rpg_gd = 16") && e.0.contains("1..=15"), "{e}");
        let e = Params::from_toml_str("qps = 1000").unwrap_err();
        assert!(e.0.contains("power of two"), "{e}");
        let e = Params::from_toml_str("rpg_min_rate = 2000\nrpg_max_rate = 1000").unwrap_err();
        assert!(e.0.contains("rpg_min_rate"), "{e}");
    }

    /// Every key of the TOML file has exactly one spec, and get/set round-trip.
    #[test]
    fn every_key_has_one_spec() {
        let p = Params::default();
        let text = p.to_toml_string();
        let keys: Vec<&str> = text
            .lines()
            .filter_map(|l| l.split(" = ").next())
            .filter(|k| !k.is_empty())
            .collect();
        assert_eq!(keys.len(), SPECS.len(), "{keys:?}");
        for k in keys {
            let s = spec::spec(k).unwrap_or_else(|| panic!("no spec for {k}"));
            let mut q = p.clone();
            (s.set)(&mut q, (s.get)(&p));
            assert_eq!(q, p, "{k}");
        }
        let e = Params::from_toml_str("rpg_ai_rate = 200000").unwrap_err();
        assert!(
            e.0.contains("1..=line_rate_mbps") && e.0.contains("(here 1..=100000)"),
            "{e}"
        );
    }

    #[test]
    fn unknown_key_refused_missing_key_defaulted() {
        assert!(Params::from_toml_str("rpg_gdd = 3").is_err());
        let p = Params::from_toml_str("rpg_gd = 9").unwrap();
        assert_eq!(p.rpg_gd, 9);
        assert_eq!(p.rpg_ai_rate, Params::default().rpg_ai_rate);
    }
}
