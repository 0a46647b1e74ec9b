//! Golden model of the whole core top (`roce_cc_hdl::core_top::RoceCcCore`): the reaction
//! point and the notification point behind one QP check, one time base and one parameter
//! set. Event-level: [`Core::apply`] takes one event at one time stamp; the cycle-level
//! wrapper with the core's pipeline timing is `core_harness::GoldenCoreCycle`.

use crate::dcqcn_np::{COUNTER_MASK, CnpRequest, DcqcnNp};
use crate::dcqcn_rp::{DcqcnRp, RpKind};
use crate::rp_harness::RateOut;
use crate::timebase::{TimeStamp, Timebase};
use roce_cc_params::{ParamError, Params};

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
            | CoreEvent::SetMode { qpn, .. } => qpn,
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
    /// The event was rejected: its QP number is out of range.
    Rejected,
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
}

/// The core: both units and the rejection counters.
#[derive(Clone, Debug)]
pub struct Core {
    pub rp: DcqcnRp,
    pub np: DcqcnNp,
    pub bad_qp: BadQpCounts,
    pub timebase: Timebase,
    qps: u32,
}

impl Core {
    /// The core after reset; refuses parameters the hardware cannot take.
    pub fn new(p: &Params) -> Result<Self, ParamError> {
        Ok(Self {
            np: DcqcnNp::new(p)?,
            rp: DcqcnRp::new(p),
            bad_qp: BadQpCounts::default(),
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
            CoreEvent::Reset { .. } | CoreEvent::SetMode { .. } => None,
        };
        let qpn = ev.qpn();
        if qpn >= self.qps {
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
        };
        let report = self.rp.apply(now, qpn, rp_kind);
        CoreOut::Rate(RateOut {
            qp: qpn,
            query: rp_kind == RpKind::Query,
            ctl: matches!(ev, CoreEvent::Reset { .. } | CoreEvent::SetMode { .. }),
            mode: self.rp.qps[qpn as usize].mode,
            report,
        })
    }

    /// Apply one event at clock cycle `cycle`.
    pub fn apply_at_cycle(&mut self, cycle: u64, ev: CoreEvent) -> CoreOut {
        let now = self.timebase.at_cycle(cycle);
        self.apply(&now, ev)
    }
}
