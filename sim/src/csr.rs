//! Golden model of the register block (`docs/registers.md`), at the level of register
//! accesses: what every read returns and what every write does, over the golden core
//! ([`crate::core_top::Core`]). It is generated from the same description
//! (`roce_cc_regmap::blocks`) as the docs and the driver's constants, so it has no list of
//! registers of its own: every address is looked up in the description.
//!
//! The host driver's `model` BAR is this model; the `sim` BAR (the Verilated core behind
//! AXI4-Lite) must answer every access the same way.
//!
//! Semantics, in the order they are checked:
//! - an address that is not a register: DECERR, `reg_decerr` + 1, nothing changes;
//! - a write to a read-only register: SLVERR;
//! - a write strobing fewer than four bytes to a register without partial writes: SLVERR;
//!   otherwise unstrobed bytes keep the register's value;
//! - a parameter write that would make the staged set invalid (`Params::validate`), a
//!   command or argument out of its range: SLVERR, the old value stays;
//! - every SLVERR counts in `reg_slverr`.
//!
//! The model applies a parameter set at once (`status` reads 0); the hardware takes a few
//! hundred cycles, during which `status` bit 0 is high.

use crate::core_top::{Core, CoreEvent, CoreOut};
use crate::dcqcn_rp::RATE_FRAC;
use crate::timebase::Timebase;
use roce_cc_params::{MAX_LINE_RATE_MBPS, Params};
use roce_cc_regmap::{
    Access, Block, COUNTERS, CTRL_APPLY, Counter, Field, FwId, QP_CMD_RESET, QP_CMD_SET_MODE,
    QpMode, blocks,
};

/// The answer to a register access (AXI response codes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Resp {
    Okay = 0,
    SlvErr = 2,
    DecErr = 3,
}

/// The snapshot the QP window shows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct QpSnapshot {
    /// Bit 0 limited, bits 2:1 mode.
    pub status: u32,
    pub rc_q8: u32,
    pub rt_q8: u32,
    pub alpha_q20: u32,
    /// HPCC's U, Q.24 (0 outside HPCC mode).
    pub u_q24: u64,
    /// HPCC's window, bytes (0 outside HPCC mode).
    pub window: u32,
}

/// The register block over the golden core.
pub struct CsrModel {
    map: Vec<Block>,
    fw: FwId,
    /// The parameters as staged by register writes (what reads return).
    pub staged: Params,
    /// The parameters the core runs with.
    pub applied: Params,
    /// The core.
    pub core: Core,
    /// Now, in clock cycles since reset (the caller advances it).
    pub cycle: u64,
    qp_sel: u32,
    mode_arg: u32,
    rate_arg: u32,
    snapshot: QpSnapshot,
    latched_hi: u32,
    decerr: u64,
    slverr: u64,
}

const MASK48: u64 = (1 << 48) - 1;

impl CsrModel {
    /// The block as after reset, for a bitstream built with `build.qps` QPs at
    /// `build.clock_mhz`: every other parameter at its default, applied.
    pub fn new(build: &Params, fw: FwId) -> Self {
        let staged = Params {
            qps: build.qps,
            clock_mhz: build.clock_mhz,
            ..Params::default()
        };
        Self {
            map: blocks(),
            fw,
            core: Core::new(&staged).expect("the defaults are valid"),
            applied: staged.clone(),
            staged,
            cycle: 0,
            qp_sel: 0,
            mode_arg: 0,
            rate_arg: 1,
            snapshot: QpSnapshot::default(),
            latched_hi: 0,
            decerr: 0,
            slverr: 0,
        }
    }

    /// The time base of the applied parameters.
    pub fn timebase(&self) -> Timebase {
        Timebase::new(&self.applied)
    }

    fn counter(&self, c: Counter) -> u64 {
        let rp = self.core.rp.counters;
        let np = self.core.np.counters;
        let b = self.core.bad_qp;
        match c {
            Counter::CnpReceived => rp.cnp_received,
            Counter::CnpSent => np.sent,
            Counter::CnpSuppressed => np.suppressed,
            // Event-level: the CNP output is always ready.
            Counter::CnpStallCycles => 0,
            Counter::RateCuts => rp.rate_cuts,
            Counter::IncreaseFr => rp.increase_fr,
            Counter::IncreaseAi => rp.increase_ai,
            Counter::IncreaseHai => rp.increase_hai,
            Counter::BadQpEvents => (b.cnp + b.tx + b.query + b.rx) & MASK48,
            Counter::RegDecerr => self.decerr & MASK48,
            Counter::RegSlverr => self.slverr & MASK48,
            Counter::AckBad => b.ack,
            Counter::AckIgnored => self.core.acks.ignored,
            Counter::AckApplied => self.core.acks.applied as u64,
            Counter::AckCommits => self.core.acks.commits as u64,
        }
    }

    /// The value a read of `field` returns, without side effects.
    fn value(&self, block: &Block, field: Field) -> u32 {
        match field {
            Field::BlockType => block.type_id,
            Field::BlockVersion => block.version,
            Field::BlockNext => block.next,
            Field::FwVersion => self.fw.version,
            Field::BuildId => self.fw.build_id,
            Field::GitHash => self.fw.git_hash,
            Field::Param(s) => (s.get)(&self.staged),
            Field::Ctrl | Field::QpCommand => 0,
            Field::Status => 0,
            Field::QpSelect => self.qp_sel,
            Field::QpModeArg => self.mode_arg,
            Field::QpRateArg => self.rate_arg,
            Field::QpStatus => self.snapshot.status,
            Field::QpRc => self.snapshot.rc_q8,
            Field::QpRt => self.snapshot.rt_q8,
            Field::QpAlpha => self.snapshot.alpha_q20,
            Field::QpULo => self.snapshot.u_q24 as u32,
            Field::QpUHi => (self.snapshot.u_q24 >> 32) as u32,
            Field::QpWindow => self.snapshot.window,
            Field::CounterLo(c) => self.counter(c) as u32,
            Field::CounterHi(_) => self.latched_hi,
        }
    }

    /// A 32-bit read at byte address `addr`.
    pub fn read(&mut self, addr: u32) -> (u32, Resp) {
        let Some((block, reg)) = roce_cc_regmap::at(&self.map, addr) else {
            self.decerr += 1;
            return (0, Resp::DecErr);
        };
        let v = self.value(block, reg.field);
        if let Field::CounterLo(c) = reg.field {
            self.latched_hi = (self.counter(c) >> 32) as u32;
        }
        (v, Resp::Okay)
    }

    /// A 32-bit write at byte address `addr` with byte strobes `strb` (bit i = byte i).
    pub fn write(&mut self, addr: u32, data: u32, strb: u32) -> Resp {
        let resp = self.try_write(addr, data, strb);
        match resp {
            Resp::DecErr => self.decerr += 1,
            Resp::SlvErr => self.slverr += 1,
            Resp::Okay => {}
        }
        resp
    }

    fn try_write(&mut self, addr: u32, data: u32, strb: u32) -> Resp {
        let Some((block, reg)) = roce_cc_regmap::at(&self.map, addr) else {
            return Resp::DecErr;
        };
        let (field, access, partial_ok) = (reg.field, reg.access, reg.partial_ok);
        if access == Access::Ro {
            return Resp::SlvErr;
        }
        let strb = strb & 0xf;
        if strb != 0xf && !partial_ok {
            return Resp::SlvErr;
        }
        let mask: u32 = (0..4)
            .filter(|b| strb >> b & 1 == 1)
            .map(|b| 0xffu32 << (8 * b))
            .sum();
        let old = self.value(&block.clone(), field);
        let v = (old & !mask) | (data & mask);
        match field {
            Field::Param(s) => {
                let mut next = self.staged.clone();
                (s.set)(&mut next, v);
                if (s.get)(&next) != v || next.validate().is_err() {
                    return Resp::SlvErr;
                }
                self.staged = next;
            }
            Field::Ctrl => match v {
                0 => {}
                CTRL_APPLY => self.apply(),
                _ => return Resp::SlvErr,
            },
            Field::QpSelect => {
                if v >= self.applied.qps {
                    return Resp::SlvErr;
                }
                self.qp_sel = v;
                self.take_snapshot();
            }
            Field::QpModeArg => {
                if v > QpMode::Hpcc as u32 {
                    return Resp::SlvErr;
                }
                self.mode_arg = v;
            }
            Field::QpRateArg => {
                if v == 0 || v > self.applied.line_rate_mbps.min(MAX_LINE_RATE_MBPS) {
                    return Resp::SlvErr;
                }
                self.rate_arg = v;
            }
            Field::QpCommand => {
                let qpn = self.qp_sel;
                let ev = match v {
                    QP_CMD_RESET => CoreEvent::Reset { qpn },
                    QP_CMD_SET_MODE => CoreEvent::SetMode {
                        qpn,
                        mode: self.mode_arg,
                        rate_q8: self.rate_arg << RATE_FRAC,
                    },
                    _ => return Resp::SlvErr,
                };
                self.core.apply_at_cycle(self.cycle, ev);
                self.take_snapshot();
            }
            _ => return Resp::SlvErr,
        }
        Resp::Okay
    }

    /// The units take the staged parameters; every QP's state, the units' counters and the
    /// time base start over.
    fn apply(&mut self) {
        // The time base restarts with the new periods (`tb_restart`).
        self.cycle = 0;
        self.applied = self.staged.clone();
        self.core = Core::new(&self.applied).expect("staged parameters are always valid");
        self.snapshot = QpSnapshot::default();
    }

    /// Query the selected QP now and keep its state for the window (the window unit's for
    /// a QP in HPCC mode).
    fn take_snapshot(&mut self) {
        let qpn = self.qp_sel;
        let CoreOut::Rate(r) = self
            .core
            .apply_at_cycle(self.cycle, CoreEvent::Query { qpn })
        else {
            unreachable!("a query of a QP the core has is answered")
        };
        self.snapshot = QpSnapshot {
            status: r.report.limited as u32 | r.mode << 1,
            rc_q8: r.report.rc_mbps_q8,
            rt_q8: r.report.rt_mbps_q8,
            alpha_q20: r.report.alpha_q20,
            u_q24: r.u_q24,
            window: r.window,
        };
    }

    /// Every counter of the register map, by name (for tests and the driver's model BAR).
    pub fn counters(&self) -> Vec<(&'static str, u64)> {
        COUNTERS
            .iter()
            .map(|&c| (c.name(), self.counter(c)))
            .collect()
    }
}

/// The register writes (byte address, value) a host makes to put QP `qp` in `mode`
/// (`QpMode` as a number) at `rate_q8` (Mb/s Q.8, host mode only): select the QP, the mode
/// argument, the rate argument for host mode (its range starts at 1 Mb/s, so no other mode
/// writes it), then the set-mode command. The `mode` trace event goes into a register
/// block through these (`SimTop::feed`, the driver's model BAR).
pub fn set_mode_writes(qp: u32, mode: u32, rate_q8: u32) -> Vec<(u32, u32)> {
    let map = blocks();
    let at = |name: &str| {
        roce_cc_regmap::find(&map, "qp_window", name)
            .unwrap_or_else(|| panic!("qp_window.{name} is in the register map"))
            .addr
    };
    let mut w = vec![(at("qp_sel"), qp), (at("qp_mode_arg"), mode)];
    if mode == QpMode::HostRate as u32 {
        w.push((at("qp_rate_arg"), rate_q8 >> RATE_FRAC));
    }
    w.push((at("qp_cmd"), QP_CMD_SET_MODE));
    w
}

#[cfg(test)]
mod tests {
    use super::*;
    use roce_cc_regmap::find;

    fn model() -> CsrModel {
        CsrModel::new(
            &Params {
                qps: 16,
                ..Params::default()
            },
            roce_cc_regmap::fw_id(),
        )
    }

    fn addr(block: &str, name: &str) -> u32 {
        find(&blocks(), block, name).unwrap().addr
    }

    #[test]
    fn bad_accesses_are_refused_counted_and_change_nothing() {
        let mut m = model();
        let gd = addr("rp_params", "rpg_gd");
        assert_eq!(m.read(gd), (11, Resp::Okay));
        assert_eq!(m.write(gd, 16, 0xf), Resp::SlvErr, "out of range");
        assert_eq!(m.write(gd, 9, 0x1), Resp::Okay, "fits byte 0: partial ok");
        assert_eq!(m.read(gd).0, 9);
        let tr = addr("rp_params", "rpg_time_reset");
        assert_eq!(m.write(tr, 55, 0x3), Resp::SlvErr, "partial write refused");
        assert_eq!(m.read(tr).0, 300);
        assert_eq!(
            m.write(addr("global_params", "qps"), 32, 0xf),
            Resp::SlvErr,
            "read-only"
        );
        assert_eq!(m.read(0xffc), (0, Resp::DecErr));
        assert_eq!(m.write(0x0f0, 1, 0xf), Resp::DecErr);
        // The staged set stays valid: the AI step cannot exceed the line rate, and the
        // line rate cannot drop below the AI step.
        let line = addr("global_params", "line_rate_mbps");
        let ai = addr("rp_params", "rpg_ai_rate");
        assert_eq!(m.write(ai, 100_001, 0xf), Resp::SlvErr);
        assert_eq!(m.write(ai, 40_000, 0xf), Resp::Okay);
        assert_eq!(m.write(line, 25_000, 0xf), Resp::SlvErr);
        assert_eq!(m.read(line).0, 100_000);
        let moderation = addr("np_params", "cnp_moderation");
        assert_eq!(
            m.write(moderation, 2, 0xf),
            Resp::SlvErr,
            "deferred is refused"
        );
        let c = m.counters();
        let get = |n: &str| c.iter().find(|(k, _)| *k == n).unwrap().1;
        assert_eq!((get("reg_decerr"), get("reg_slverr")), (2, 6));
    }

    #[test]
    fn counters_read_atomically_and_qp_window_commands_work() {
        let mut m = model();
        m.core.apply_at_cycle(0, CoreEvent::Cnp { qpn: 3 });
        m.core.apply_at_cycle(0, CoreEvent::Rx { qpn: 99, ecn: 3 });
        let lo = addr("counters", "cnp_received_lo");
        let hi = addr("counters", "cnp_received_hi");
        assert_eq!(m.read(lo).0, 1);
        assert_eq!(m.read(hi).0, 0);
        assert_eq!(m.read(addr("counters", "bad_qp_events_lo")).0, 1);
        m.cycle = 250 * 10;
        assert_eq!(m.write(addr("qp_window", "qp_sel"), 3, 0xf), Resp::Okay);
        assert_eq!(m.read(addr("qp_window", "qp_status")).0 & 1, 1, "limited");
        assert!(
            m.read(addr("qp_window", "qp_rc")).0 < 100_000 << 8,
            "cut after 4 us"
        );
        assert_eq!(m.write(addr("qp_window", "qp_sel"), 16, 0xf), Resp::SlvErr);
        assert_eq!(
            m.write(addr("qp_window", "qp_mode_arg"), 1, 0xf),
            Resp::Okay
        );
        assert_eq!(
            m.write(addr("qp_window", "qp_rate_arg"), 777, 0xf),
            Resp::Okay
        );
        let cmd = addr("qp_window", "qp_cmd");
        assert_eq!(m.write(cmd, QP_CMD_SET_MODE, 0xf), Resp::Okay);
        assert_eq!(
            m.read(addr("qp_window", "qp_status")).0,
            1 << 1,
            "host-rate mode"
        );
        assert_eq!(m.read(addr("qp_window", "qp_rc")).0, 777 << 8);
        assert_eq!(m.write(cmd, QP_CMD_RESET, 0xf), Resp::Okay);
        assert_eq!(m.read(addr("qp_window", "qp_status")).0, 0);
        assert_eq!(m.write(cmd, 7, 0xf), Resp::SlvErr);
    }

    #[test]
    fn apply_takes_the_staged_parameters() {
        let mut m = model();
        let tr = addr("rp_params", "rpg_time_reset");
        assert_eq!(m.write(tr, 55, 0xf), Resp::Okay);
        assert_eq!(m.applied.rpg_time_reset, 300, "staged only");
        assert_eq!(m.write(addr("global_params", "ctrl"), 2, 0xf), Resp::SlvErr);
        assert_eq!(
            m.write(addr("global_params", "ctrl"), CTRL_APPLY, 0xf),
            Resp::Okay
        );
        assert_eq!(m.applied.rpg_time_reset, 55);
        assert_eq!(m.core.rp.cfg.p_inc, 55);
    }
}
