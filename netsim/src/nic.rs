//! A host's NIC: the roce-cc core with the pacer inside (`PacedCore`), cycle by cycle.
//!
//! [`NicCore`] drives one paced core, the golden cycle model (`GoldenPacedCycle`) or the
//! Verilated RTL (`paced_core_q64`/`paced_core_q1024`), through the same pins and the same
//! decisions, so both engines give the same outputs bit for bit and the network around them
//! the same run. Inputs wait in one FIFO per stream and each is held on its stream until
//! the core takes it (valid/ready): commands (`SetMode` at a flow's start), CNPs for the RP,
//! received packets `{qp, ecn}` for the NP, ACKs for the window unit and the pacer,
//! doorbells `{qp, bytes}` for the pacer. What comes out each cycle is a grant (a data
//! packet to send now, when the port was ready), a CNP request of the NP, and a rate
//! report.
//!
//! Time: cycle `c` of the network's clock is the core's cycle `c` after bring-up (its
//! `now` from the time base, its pacer's `now_cycles` = `start + c`). The caller may leave
//! out cycles only when [`NicCore::idle_until`] says so, by the replay's rule
//! (`roce_cc_sim::replay_paced`): no input waiting, nothing out of the core for
//! `QUIET_CYCLES`, no grant offered, and the pacer with nothing to do (no QP has bytes) or
//! `asleep` (every QP with bytes waits in its coarse wheel or for its window), in which
//! case it must be stepped again from `WAKE_LEAD` cycles before its `wake_at`.

use roce_cc_params::Params;
use roce_cc_sim::core_harness::CorePins;
use roce_cc_sim::dcqcn_np::{CnpRequest, ECN_CE};
use roce_cc_sim::dcqcn_rp::RpKind;
use roce_cc_sim::hpcc_window::Ack;
use roce_cc_sim::lockstep::{CycleDut, Named};
use roce_cc_sim::paced_harness::{GoldenPacedCycle, PacedOuts, PacedPins};
use roce_cc_sim::paced_stimulus::paced_bring_up;
use roce_cc_sim::pacer::sched::PacerSleep;
use roce_cc_sim::replay_paced::{QUIET_CYCLES, WAKE_LEAD};
use roce_cc_sim::rp_harness::RateOut;
use roce_cc_sim::timebase::{TimeStamp, Timebase};
use std::collections::VecDeque;

/// Which implementation runs a host's core.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    /// The golden paced core (`GoldenPacedCycle`).
    Golden,
    /// The Verilated `PacedCore` (64 or 1024 QPs).
    Rtl,
}

/// What the core put out in one cycle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NicOut {
    /// A packet `{qp, bytes}` granted and taken by the port in this cycle.
    pub grant: Option<(u32, u32)>,
    /// A CNP the NP asks to send.
    pub cnp: Option<CnpRequest>,
    /// A rate report (after every event the RP or the window unit applied).
    pub rate: Option<RateOut>,
}

/// One host's paced core and the inputs waiting for it.
pub struct NicCore {
    dut: Box<dyn CycleDut<PacedPins, PacedOuts>>,
    tb: Timebase,
    /// The core's clock, MHz.
    clock_mhz: u64,
    /// The time stamp of the last cycle stepped, and its microsecond (the radices are
    /// reused for the cycles of the same microsecond).
    now: TimeStamp,
    now_us: u64,
    /// The pacer's `now_cycles` at cycle 0.
    start: u64,
    ctl: VecDeque<(u32, RpKind)>,
    cnp: VecDeque<u32>,
    rx: VecDeque<(u32, u8)>,
    ack: VecDeque<(u32, Ack)>,
    post: VecDeque<(u32, u32)>,
    /// Cycles since something went in or came out.
    quiet: u64,
    /// What the last cycle evaluated put out that the sleep rule reads: a grant offered,
    /// the QPs with bytes, the pacer's sleep outputs.
    last: (bool, u32, PacerSleep),
    /// Cycles evaluated (the rest were skipped).
    evaluated: u64,
}

impl NicCore {
    /// A core for `p` (`p.qps` 64 or 1024 for the RTL), brought up (reset, tables, sweep).
    pub fn new(p: &Params, engine: Engine) -> Result<Self, String> {
        let mut dut: Box<dyn CycleDut<PacedPins, PacedOuts>> = match engine {
            Engine::Golden => Box::new(GoldenPacedCycle::new(p)),
            Engine::Rtl => roce_cc_sim::verilated::paced_for(p, None)?,
        };
        let start = {
            let mut duts: Vec<Named<PacedPins, PacedOuts>> = vec![("nic", dut.as_mut())];
            paced_bring_up(p, &mut duts).map_err(|m| format!("bring-up failed: {m:?}"))?
        };
        Ok(Self {
            dut,
            tb: Timebase::new(p),
            clock_mhz: u64::from(p.clock_mhz),
            now: Timebase::new(p).at_cycle(0),
            now_us: 0,
            start,
            ctl: VecDeque::new(),
            cnp: VecDeque::new(),
            rx: VecDeque::new(),
            ack: VecDeque::new(),
            post: VecDeque::new(),
            quiet: 0,
            last: (false, 0, PacerSleep::default()),
            evaluated: 0,
        })
    }

    /// Reset QP `qp`'s sender state into `mode` (`RpKind::SetMode`).
    pub fn set_mode(&mut self, qp: u32, mode: u32, rate_q8: u32) {
        self.ctl.push_back((qp, RpKind::SetMode { mode, rate_q8 }));
    }

    /// A CNP for QP `qp` (the RP).
    pub fn cnp(&mut self, qp: u32) {
        self.cnp.push_back(qp);
    }

    /// A data packet received for QP `qp`, CE-marked or not (the NP; its ECN field is CE,
    /// `0b11`, or ECT(0), `0b10`).
    pub fn rx(&mut self, qp: u32, ce: bool) {
        let ecn = if ce { ECN_CE } else { 0b10 };
        self.rx.push_back((qp, ecn));
    }

    /// An ACK for QP `qp` (the window unit, and the pacer's bytes in flight).
    pub fn ack(&mut self, qp: u32, ack: Ack) {
        self.ack.push_back((qp, ack));
    }

    /// A doorbell: `bytes` more to send on QP `qp`.
    pub fn post(&mut self, qp: u32, bytes: u32) {
        self.post.push_back((qp, bytes));
    }

    /// Whether an input waits for the core.
    pub fn has_input(&self) -> bool {
        !(self.ctl.is_empty()
            && self.cnp.is_empty()
            && self.rx.is_empty()
            && self.ack.is_empty()
            && self.post.is_empty())
    }

    /// Cycles evaluated so far.
    pub fn evaluated(&self) -> u64 {
        self.evaluated
    }

    /// QPs with bytes posted and not granted (the pacer's `backlogged`, last cycle).
    pub fn backlogged(&self) -> u32 {
        self.last.1
    }

    /// The core's time stamp at cycle `c`: `Timebase::at_cycle`, with the radices of the
    /// microsecond computed once per microsecond.
    fn time_at(&mut self, c: u64) -> TimeStamp {
        let us = c / self.clock_mhz;
        if us == self.now_us {
            self.now.sub = (c - us * self.clock_mhz) as u32;
        } else {
            self.now = self.tb.at_cycle(c);
            self.now_us = us;
        }
        debug_assert_eq!(self.now, self.tb.at_cycle(c));
        self.now
    }

    /// Evaluate cycle `c` (the port takes a grant if `port_ready`) and clock the core.
    pub fn step(&mut self, c: u64, port_ready: bool) -> NicOut {
        let pins = PacedPins {
            core: CorePins {
                rate_ready: true,
                cnp_ready: true,
                now: self.time_at(c),
                ctl: self.ctl.front().copied(),
                cnp: self.cnp.front().copied(),
                rx: self.rx.front().copied(),
                ack: self.ack.front().copied(),
                ..Default::default()
            },
            now_cycles: self.start + c,
            post: self.post.front().copied(),
            tx_ready: port_ready,
        };
        let o = self.dut.eval(&pins);
        self.evaluated += 1;
        let mut active = self.has_input() || o.core.rate.is_some() || o.core.cnp.is_some();
        if o.core.ctl_ready && pins.core.ctl.is_some() {
            self.ctl.pop_front();
        }
        if o.core.cnp_ready && pins.core.cnp.is_some() {
            self.cnp.pop_front();
        }
        if o.core.rx_ready && pins.core.rx.is_some() {
            self.rx.pop_front();
        }
        if o.core.ack_ready && pins.core.ack.is_some() {
            self.ack.pop_front();
        }
        if o.post_ready && pins.post.is_some() {
            self.post.pop_front();
        }
        let grant = o.grant.filter(|_| port_ready);
        active |= grant.is_some();
        self.quiet = if active { 0 } else { self.quiet + 1 };
        self.last = (o.grant.is_some(), o.backlogged, o.sleep);
        self.dut.clock();
        NicOut {
            grant,
            cnp: o.core.cnp,
            rate: o.core.rate,
        }
    }

    /// After a step of cycle `c`: `None` if the next cycle must be evaluated; otherwise
    /// `Some(None)` when the core may wait for its next input, or `Some(Some(w))` when it
    /// may skip to cycle `w` (> `c`) unless an input comes first.
    pub fn idle_until(&self, c: u64) -> Option<Option<u64>> {
        let (grant, backlogged, sleep) = self.last;
        let idle = !self.has_input()
            && self.quiet >= QUIET_CYCLES
            && !grant
            && (backlogged == 0 || sleep.asleep);
        if !idle {
            return None;
        }
        if backlogged != 0 && sleep.wake_en {
            // `wake_at` counts `now_cycles` (48 bits), which is `start + c`.
            let wake = sleep.wake_at.wrapping_sub(self.start) & ((1 << 48) - 1);
            let w = wake.saturating_sub(WAKE_LEAD);
            if w <= c + 1 {
                return None;
            }
            return Some(Some(w));
        }
        if backlogged != 0 {
            // Asleep without a wake time: waiting for an ACK (its window).
            return Some(None);
        }
        Some(None)
    }
}
