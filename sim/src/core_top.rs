//! Golden model of the whole core top (`roce_cc_hdl::core_top::RoceCcCore`): the reaction
//! point, the notification point and the HPCC window unit behind one QP check, one time
//! base and one parameter set. Event-level: [`Core::apply`] takes one event at one time
//! stamp; the cycle-level wrapper with the core's pipeline timing is
//! `core_harness::GoldenCoreCycle`.
//!
//! Per-QP modes as the core defines them (`roce_cc_hdl::core_top`, "Per-QP modes"): a QP's
//! mode is the RP's; a QP in HPCC mode (3) has its CNPs and packets ignored by the RP and
//! their reports dropped, its ACKs applied by the window unit (each reported), and its
//! queries and set-mode answered from the window unit's state. ACKs of other QPs are
//! counted as ignored.

use crate::dcqcn_np::{COUNTER_MASK, CnpRequest, DcqcnNp};
use crate::dcqcn_rp::{DcqcnRp, RpKind};
use crate::hpcc_window::{Ack, AckEffect, HOPS_MAX, HpccParams, HpccWindow};
use crate::replay::RpReport;
use crate::rp_harness::RateOut;
use crate::timebase::{TimeStamp, Timebase};
use roce_cc_params::{ParamError, Params};

/// The mode number of HPCC (`roce_cc_hdl::core_top::MODE_HPCC`).
pub const MODE_HPCC: u32 = roce_cc_hdl::core_top::MODE_HPCC as u32;

/// Whether the core takes an ACK with `nhop` hops (1..=5; others are rejected).
pub fn ack_hops_ok(nhop: u8) -> bool {
    (1..=HOPS_MAX).contains(&(nhop as usize))
}

/// The hardware's check of the ACK stream's payload, valid or not, for a core of `qps`
/// QPs: a QP number in range and 1..=5 hops. `None` drives the default payload (QP 0, no
/// hops), which the check refuses.
pub fn ack_payload_ok(qps: u32, ack: &Option<(u32, Ack)>) -> bool {
    let (q, nhop) = ack
        .as_ref()
        .map_or((0, Ack::default().nhop), |(q, a)| (*q, a.nhop));
    q < qps && ack_hops_ok(nhop)
}

/// One event on one of the core's input streams, with its 24-bit QP number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CoreEvent {
    /// CNP received (RP).
    Cnp { qpn: u32 },
    /// Packet of `bytes` bytes transmitted (RP).
    Tx { qpn: u32, bytes: u32 },
    /// Report the QP's RP state.
    Query { qpn: u32 },
    /// Data packet received with IP ECN field `ecn` (NP).
    Rx { qpn: u32, ecn: u8 },
    /// Reset the QP's RP and NP state (register block command).
    Reset { qpn: u32 },
    /// Reset the QP's RP state and set its mode and host rate (register block command).
    SetMode { qpn: u32, mode: u32, rate_q8: u32 },
    /// An ACK with its INT stack (HPCC window unit).
    Ack { qpn: u32, ack: Ack },
}

impl CoreEvent {
    /// The QP number the event is for.
    pub fn qpn(&self) -> u32 {
        match *self {
            CoreEvent::Cnp { qpn }
            | CoreEvent::Tx { qpn, .. }
            | CoreEvent::Query { qpn }
            | CoreEvent::Rx { qpn, .. }
            | CoreEvent::Reset { qpn }
            | CoreEvent::SetMode { qpn, .. }
            | CoreEvent::Ack { qpn, .. } => qpn,
        }
    }
}

/// What the core emits for one event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CoreOut {
    /// A report on the rate stream (every accepted RP event).
    Rate(RateOut),
    /// A CNP request.
    Cnp(CnpRequest),
    /// The event was rejected: its QP number is out of range (or an ACK's hop count is not
    /// 1..=5).
    Rejected,
    /// An ACK for a QP not in HPCC mode (counted, no report).
    AckIgnored,
    /// Nothing (a packet without CE, or a suppressed mark).
    None,
}

/// Events rejected for an out-of-range QP number, per input stream (wrap at 2^48).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BadQpCounts {
    pub cnp: u64,
    pub tx: u64,
    pub query: u64,
    pub rx: u64,
    /// ACKs rejected: QP out of range or a hop count outside 1..=5 (`cnt_bad_ack`).
    pub ack: u64,
}

/// The ACK counters of the core (`cnt_ack_*`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AckCounts {
    /// ACKs for a QP not in HPCC mode (wrap at 2^48).
    pub ignored: u64,
    /// ACKs applied by the window unit (wrap at 2^32).
    pub applied: u32,
    /// Applied ACKs that committed (wrap at 2^32).
    pub commits: u32,
}

/// The core: both units and the rejection counters.
#[derive(Clone, Debug)]
pub struct Core {
    pub rp: DcqcnRp,
    pub np: DcqcnNp,
    pub hpcc: HpccWindow,
    pub bad_qp: BadQpCounts,
    pub acks: AckCounts,
    pub timebase: Timebase,
    qps: u32,
}

impl Core {
    /// The core after reset; refuses parameters the hardware cannot take.
    pub fn new(p: &Params) -> Result<Self, ParamError> {
        Ok(Self {
            np: DcqcnNp::new(p)?,
            rp: DcqcnRp::new(p),
            hpcc: HpccWindow::new(&HpccParams::from_params(p), p.qps as usize),
            bad_qp: BadQpCounts::default(),
            acks: AckCounts::default(),
            timebase: Timebase::new(p),
            qps: p.qps,
        })
    }

    /// Whether the core has QP `qpn` (the hardware has exactly `qps = 2^QB` QPs).
    pub fn has_qp(&self, qpn: u32) -> bool {
        qpn < self.qps
    }

    /// Apply one event at `now`.
    pub fn apply(&mut self, now: &TimeStamp, ev: CoreEvent) -> CoreOut {
        // Commands come from the register block, which names only QPs the core has (its
        // command port is QB bits wide): there is nothing to reject or count.
        let counter = match ev {
            CoreEvent::Cnp { .. } => Some(&mut self.bad_qp.cnp),
            CoreEvent::Tx { .. } => Some(&mut self.bad_qp.tx),
            CoreEvent::Query { .. } => Some(&mut self.bad_qp.query),
            CoreEvent::Rx { .. } => Some(&mut self.bad_qp.rx),
            CoreEvent::Ack { .. } => Some(&mut self.bad_qp.ack),
            CoreEvent::Reset { .. } | CoreEvent::SetMode { .. } => None,
        };
        let qpn = ev.qpn();
        let hops_bad = matches!(ev, CoreEvent::Ack { ack, .. } if !ack_hops_ok(ack.nhop));
        if qpn >= self.qps || hops_bad {
            let counter = counter.expect("a command for a QP the core does not have");
            *counter = (*counter + 1) & COUNTER_MASK;
            return CoreOut::Rejected;
        }
        let rp_kind = match ev {
            CoreEvent::Cnp { .. } => RpKind::Cnp,
            CoreEvent::Tx { bytes, .. } => RpKind::Tx { bytes },
            CoreEvent::Query { .. } => RpKind::Query,
            CoreEvent::Reset { .. } => {
                self.np.reset_qp(qpn);
                RpKind::Reset
            }
            CoreEvent::SetMode { mode, rate_q8, .. } => RpKind::SetMode { mode, rate_q8 },
            CoreEvent::Rx { ecn, .. } => {
                return match self.np.on_packet(now, qpn, ecn) {
                    Some(r) => CoreOut::Cnp(r),
                    None => CoreOut::None,
                };
            }
            CoreEvent::Ack { ack, .. } => {
                if self.mode(qpn) != MODE_HPCC {
                    self.acks.ignored = (self.acks.ignored + 1) & COUNTER_MASK;
                    return CoreOut::AckIgnored;
                }
                let commit = match self.hpcc.on_ack(qpn, &ack) {
                    AckEffect::NewPath => false,
                    AckEffect::NoHop { commit } | AckEffect::Update { commit } => commit,
                };
                self.acks.applied = self.acks.applied.wrapping_add(1);
                self.acks.commits = self.acks.commits.wrapping_add(commit as u32);
                return CoreOut::Rate(self.hpcc_report(qpn, false, false));
            }
        };
        let report = self.rp.apply(now, qpn, rp_kind);
        if self.mode(qpn) == MODE_HPCC {
            return match rp_kind {
                RpKind::SetMode { .. } => {
                    self.hpcc.reset_qp(qpn);
                    CoreOut::Rate(self.hpcc_report(qpn, false, true))
                }
                RpKind::Query => CoreOut::Rate(self.hpcc_report(qpn, true, false)),
                // The RP ignored the CNP or packet; its report does not leave the core.
                _ => CoreOut::None,
            };
        }
        CoreOut::Rate(RateOut {
            qp: qpn,
            query: rp_kind == RpKind::Query,
            ctl: matches!(ev, CoreEvent::Reset { .. } | CoreEvent::SetMode { .. }),
            mode: self.rp.qps[qpn as usize].mode,
            report,
            u_q24: 0,
            window: 0,
        })
    }

    /// QP `qpn`'s mode (the RP's).
    pub fn mode(&self, qpn: u32) -> u32 {
        self.rp.qps[qpn as usize].mode
    }

    /// The core's report of HPCC QP `qp` from the window unit's state: R as the rate, Rc
    /// in the target rate's place, U and the window.
    pub fn hpcc_report(&self, qp: u32, query: bool, ctl: bool) -> RateOut {
        let s = &self.hpcc.qps[qp as usize];
        RateOut {
            qp,
            query,
            ctl,
            mode: MODE_HPCC,
            report: RpReport {
                limited: false,
                rc_mbps_q8: s.r,
                rt_mbps_q8: s.rc,
                alpha_q20: 0,
            },
            u_q24: s.u,
            window: self.hpcc.cfg.window_bytes(s.r),
        }
    }

    /// Apply one event at clock cycle `cycle`.
    pub fn apply_at_cycle(&mut self, cycle: u64, ev: CoreEvent) -> CoreOut {
        let now = self.timebase.at_cycle(cycle);
        self.apply(&now, ev)
    }
}
