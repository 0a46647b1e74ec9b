//! A scenario: one TOML file with the topology, the switches, the NICs and the traffic
//! (network.md, "Scenario"). Unknown keys are refused, and every number is checked against
//! its range with a message that names the key and the range.
//!
//! ```toml
//! name = "incast-16"
//! seed = 1
//! duration_us = 500
//!
//! [topology]
//! kind = "dumbbell"
//! senders = 16
//! host_rate_mbps = 100000
//! bottleneck_rate_mbps = 100000
//! cable_m = 2
//!
//! [switch]
//! buffer_bytes = 16000000
//! pfc = true
//! pfc_alpha_log2 = -3        # alpha = 1/8
//! ecn = { kmin_bytes = 100000, kmax_bytes = 400000, pmax = 0.2 }
//! int = false
//!
//! [nic]
//! profile = "connectx"       # or params = "file.toml"; [nic.params] overrides keys
//! cc = "dcqcn"               # dcqcn | hpcc | host | off
//! ack_every = 1
//!
//! [traffic]
//! kind = "incast"
//! bytes = 1000000
//! ```

use crate::flows::TrafficSpec;
use crate::packet::{PS_PER_NS, PS_PER_US, Ps};
use crate::topology::TopologySpec;
use roce_cc_params::Params;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The whole scenario file.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// Name printed in the report.
    #[serde(default)]
    pub name: String,
    /// Seed of every random choice (RED marks, traffic); the same seed gives the same run.
    #[serde(default = "default_seed")]
    pub seed: u64,
    /// Simulated time, us (1..=1 000 000).
    pub duration_us: u64,
    /// Period of the queue samples, ns (100..=1 000 000; network.md: every 1 us).
    #[serde(default = "default_sample_ns")]
    pub sample_ns: u64,
    pub topology: TopologySpec,
    pub switch: SwitchSpec,
    pub nic: NicSpec,
    pub traffic: TrafficSpec,
    /// The deployment goals the verdict judges (network.md's by default).
    #[serde(default)]
    pub goals: crate::stats::Goals,
    /// The scenario file's directory: relative paths (a CDF file) are taken from it.
    #[serde(skip)]
    pub base_dir: Option<PathBuf>,
}

fn default_seed() -> u64 {
    1
}
fn default_sample_ns() -> u64 {
    1000
}

/// ECN marking (RED on the instantaneous egress queue, at enqueue).
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EcnSpec {
    pub kmin_bytes: u64,
    pub kmax_bytes: u64,
    /// Marking probability at Kmax, 0..=1.
    pub pmax: f64,
}

/// The switches (all alike).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SwitchSpec {
    /// Shared buffer of the switch, bytes (headroom included).
    pub buffer_bytes: u64,
    /// PFC on the data priority.
    #[serde(default = "yes")]
    pub pfc: bool,
    /// log2 of the dynamic threshold's alpha, -7..=3 (1/128 .. 8).
    #[serde(default = "default_alpha_log2")]
    pub pfc_alpha_log2: i32,
    /// XON this many bytes below the XOFF threshold; default two MTUs.
    #[serde(default)]
    pub pfc_resume_offset_bytes: Option<u64>,
    /// Response time of a port to a pause frame (Tm), ns; default 1000.
    #[serde(default = "default_response_ns")]
    pub response_ns: u64,
    /// RED ECN; none = no marking.
    #[serde(default)]
    pub ecn: Option<EcnSpec>,
    /// Stamp INT at dequeue (HPCC needs it).
    #[serde(default)]
    pub int: bool,
}

fn yes() -> bool {
    true
}
fn default_alpha_log2() -> i32 {
    -3
}
fn default_response_ns() -> u64 {
    1000
}

/// The congestion control every flow's QP runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CcMode {
    Dcqcn,
    Hpcc,
    /// A fixed rate per QP (`host_rate_mbps`).
    Host,
    /// No congestion control: the max rate.
    Off,
}

impl CcMode {
    /// The mode number of the core's `SetMode` command.
    pub fn code(self) -> u32 {
        use roce_cc_regmap::QpMode;
        (match self {
            CcMode::Dcqcn => QpMode::Dcqcn,
            CcMode::Host => QpMode::HostRate,
            CcMode::Off => QpMode::Off,
            CcMode::Hpcc => QpMode::Hpcc,
        }) as u32
    }
}

/// The NICs (every host's core has the same parameters).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NicSpec {
    /// A named profile of `roce-cc params` (default `connectx`).
    #[serde(default)]
    pub profile: Option<String>,
    /// A PARAMS.toml, relative to the scenario file; excludes `profile`.
    #[serde(default)]
    pub params: Option<PathBuf>,
    /// Keys that override the profile's or the file's (PARAMS.toml keys).
    #[serde(default)]
    pub set: Option<toml::Table>,
    /// Congestion control of every flow.
    pub cc: CcMode,
    /// Rate of every QP in `host` mode, Mb/s.
    #[serde(default)]
    pub host_rate_mbps: Option<u32>,
    /// The receiver sends an ACK every this many data packets (and on a flow's last).
    #[serde(default = "one")]
    pub ack_every: u32,
    /// `golden` or `rtl`.
    #[serde(default = "golden")]
    pub engine: String,
    /// Hosts whose core runs as Verilated RTL when `engine = "rtl"` (default: all).
    #[serde(default)]
    pub rtl_hosts: Option<Vec<u32>>,
}

fn one() -> u32 {
    1
}
fn golden() -> String {
    "golden".into()
}

impl Scenario {
    /// Read and check a scenario file.
    pub fn from_file(path: &Path) -> Result<Scenario, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let mut s: Scenario =
            toml::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        let dir = path.parent().unwrap_or(Path::new(".")).to_path_buf();
        if let Some(p) = &s.nic.params {
            if p.is_relative() {
                s.nic.params = Some(dir.join(p));
            }
        }
        s.base_dir = Some(dir);
        s.check().map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(s)
    }

    /// Parse a scenario text (relative paths from the current directory).
    pub fn from_toml_str(text: &str) -> Result<Scenario, String> {
        let s: Scenario = toml::from_str(text).map_err(|e| e.to_string())?;
        s.check()?;
        Ok(s)
    }

    /// Simulated time, ps.
    pub fn duration_ps(&self) -> Ps {
        self.duration_us * PS_PER_US
    }

    /// Queue sample period, ps.
    pub fn sample_ps(&self) -> Ps {
        self.sample_ns * PS_PER_NS
    }

    /// Every range and every rule between the sections.
    pub fn check(&self) -> Result<(), String> {
        range("duration_us", self.duration_us, 1, 1_000_000)?;
        range("sample_ns", self.sample_ns, 100, 1_000_000)?;
        self.topology.validate()?;
        self.traffic.validate()?;
        let sw = &self.switch;
        range("switch.buffer_bytes", sw.buffer_bytes, 64 * 1024, 1 << 32)?;
        if !(-7..=3).contains(&sw.pfc_alpha_log2) {
            return Err(format!(
                "switch.pfc_alpha_log2 = {} is out of range: valid range is -7..=3 (alpha 1/128 .. 8)",
                sw.pfc_alpha_log2
            ));
        }
        range("switch.response_ns", sw.response_ns, 0, 100_000)?;
        if let Some(e) = &sw.ecn {
            if e.kmin_bytes > e.kmax_bytes {
                return Err(format!(
                    "switch.ecn: kmin_bytes = {} is above kmax_bytes = {}",
                    e.kmin_bytes, e.kmax_bytes
                ));
            }
            if !(0.0..=1.0).contains(&e.pmax) {
                return Err(format!(
                    "switch.ecn.pmax = {} is out of range: valid range is 0..=1",
                    e.pmax
                ));
            }
        }
        range("nic.ack_every", u64::from(self.nic.ack_every), 1, 1024)?;
        if self.nic.profile.is_some() && self.nic.params.is_some() {
            return Err("nic: give `profile` or `params`, not both".into());
        }
        if self.nic.cc == CcMode::Hpcc && !sw.int {
            return Err("nic.cc = \"hpcc\" needs INT: set switch.int = true".into());
        }
        if self.nic.cc == CcMode::Host && self.nic.host_rate_mbps.is_none() {
            return Err("nic.cc = \"host\" needs nic.host_rate_mbps".into());
        }
        if !matches!(self.nic.engine.as_str(), "golden" | "rtl") {
            return Err(format!(
                "nic.engine = {:?}: valid values are \"golden\" and \"rtl\"",
                self.nic.engine
            ));
        }
        let p = self.params()?;
        let host = match &self.topology {
            TopologySpec::Dumbbell { host_rate_mbps, .. }
            | TopologySpec::LeafSpine { host_rate_mbps, .. } => *host_rate_mbps,
        };
        if u64::from(p.line_rate_mbps) != host {
            return Err(format!(
                "the NIC's line_rate_mbps = {} differs from the topology's host_rate_mbps = \
                 {host}: set line_rate_mbps in nic.set",
                p.line_rate_mbps
            ));
        }
        if let Some(hs) = &self.nic.rtl_hosts {
            let n = self.topology.host_count();
            if let Some(h) = hs.iter().find(|&&h| h >= n) {
                return Err(format!(
                    "nic.rtl_hosts: host {h} is out of range: this topology has {n} hosts (0..={})",
                    n - 1
                ));
            }
        }
        if self.nic.engine == "rtl" && !matches!(p.qps, 64 | 1024) {
            return Err(format!(
                "nic.engine = \"rtl\" runs cores of 64 or 1024 QPs, not {}: set qps in nic.set",
                p.qps
            ));
        }
        Ok(())
    }

    /// The NICs' parameters: the profile or the file, then `set`'s keys, validated.
    pub fn params(&self) -> Result<Params, String> {
        let base = match (&self.nic.profile, &self.nic.params) {
            (_, Some(f)) => Params::from_file(f).map_err(|e| e.to_string())?,
            (Some(name), None) => Params::profile(name).ok_or_else(|| {
                format!(
                    "nic.profile = {name:?} is not a profile: valid profiles are {}",
                    roce_cc_params::PROFILES.join(", ")
                )
            })?,
            (None, None) => Params::default(),
        };
        let Some(set) = &self.nic.set else {
            return Ok(base);
        };
        let mut table: toml::Table =
            toml::from_str(&base.to_toml_string()).map_err(|e| e.to_string())?;
        for (k, v) in set {
            table.insert(k.clone(), v.clone());
        }
        Params::from_toml_str(&toml::to_string(&table).map_err(|e| e.to_string())?)
            .map_err(|e| format!("nic.set: {e}"))
    }

    /// Hosts whose core runs as RTL.
    pub fn rtl_hosts(&self) -> Vec<u32> {
        if self.nic.engine != "rtl" {
            return Vec::new();
        }
        match &self.nic.rtl_hosts {
            Some(h) => h.clone(),
            None => (0..self.topology.host_count()).collect(),
        }
    }
}

fn range(key: &str, v: u64, lo: u64, hi: u64) -> Result<(), String> {
    if (lo..=hi).contains(&v) {
        Ok(())
    } else {
        Err(format!(
            "{key} = {v} is out of range: valid range is {lo}..={hi}"
        ))
    }
}
