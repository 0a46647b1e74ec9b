//! Cycle-level harness of the notification point: one set of pins, three implementations
//! ([`GoldenNpCycle`], [`HdlNp`], and `VerilatedNp` in [`crate::verilated`]), compared by
//! [`crate::lockstep`].

use crate::dcqcn_np::{COUNTER_MASK, CnpRequest, DcqcnNp, NpConfig};
use crate::hdl_sim::{settle, tick};
use crate::lockstep::CycleDut;
use crate::timebase::TimeStamp;
use roce_cc_hdl::dcqcn_np::{
    DcqcnNp as HdlDcqcnNp, NP_COUNT_LAG, NP_LATENCY, NpCfgWord, NpTimeWord,
};
use roce_cc_params::Params;
use rust_hdl::prelude::*;

/// The NP's input pins for one cycle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NpPins {
    pub reset: bool,
    /// Clear stream: `Some(qp)` = valid.
    pub clr: Option<u32>,
    /// Received packet: `Some((qp, ecn))` = valid.
    pub rx: Option<(u32, u8)>,
    /// CNP consumer ready.
    pub cnp_ready: bool,
    /// Now.
    pub now: TimeStamp,
}

/// The NP's counters as its output ports show them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NpCounts {
    pub sent: u64,
    pub suppressed: u64,
    pub stall: u64,
}

/// The NP's outputs in one cycle (before the clock edge).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NpOuts {
    pub clr_ready: bool,
    pub rx_ready: bool,
    pub busy: bool,
    /// The CNP request stream's payload when `m_cnp_valid`.
    pub cnp: Option<CnpRequest>,
    pub counts: NpCounts,
}

/// An accepted CE mark or clear on its way to the decision: `(qp, now, clear)`.
type NpEvent = (u32, TimeStamp, bool);

/// Pipeline registers before the decision (`roce_cc_hdl::dcqcn_np`: S1 to S4).
const DECIDE_STAGES: usize = NP_LATENCY - 1;

/// The golden NP with the hardware's pipeline timing (see `roce_cc_hdl::dcqcn_np`): an
/// accepted event is decided `NP_LATENCY - 1` cycles after acceptance, a request offered
/// the cycle after (`NP_LATENCY`); the whole NP holds while an offered request is not
/// taken. The counter outputs lag the counts by [`NP_COUNT_LAG`] (= 1) cycle, as the
/// hardware's counters increment from registered enables: they show the counts as they
/// were before the last clock edge.
pub struct GoldenNpCycle {
    np: DcqcnNp,
    qps: u32,
    busy_left: u32,
    /// Accepted CE marks and clears in S1..S4 (index 0 = S1; S4 is decided next).
    pipe: [Option<NpEvent>; DECIDE_STAGES],
    out: Option<CnpRequest>,
    stall: u64,
    /// The counters as the outputs show them (before the last edge's increments).
    shown: NpCounts,
    pins: NpPins,
    outs: NpOuts,
}

const _: () = assert!(NP_COUNT_LAG == 1, "GoldenNpCycle models a lag of one cycle");

impl GoldenNpCycle {
    /// Panics on parameters [`NpConfig::new`] refuses (tests build valid ones).
    pub fn new(p: &Params) -> Self {
        Self {
            np: DcqcnNp::new(p).expect("valid NP parameters"),
            qps: p.qps,
            busy_left: 0,
            pipe: [None; DECIDE_STAGES],
            out: None,
            stall: 0,
            shown: NpCounts::default(),
            pins: NpPins::default(),
            outs: NpOuts::default(),
        }
    }

    /// The NP's outputs for `pins`, without remembering them.
    pub fn peek(&self, pins: &NpPins) -> NpOuts {
        let adv = self.out.is_none() || pins.cnp_ready;
        let take = adv && self.busy_left == 0;
        NpOuts {
            // A clear waits for an empty output register (not for `cnp_ready`).
            clr_ready: self.out.is_none() && self.busy_left == 0,
            rx_ready: take && pins.clr.is_none(),
            busy: self.busy_left > 0,
            cnp: self.out,
            counts: self.shown,
        }
    }
}

impl CycleDut<NpPins, NpOuts> for GoldenNpCycle {
    fn eval(&mut self, pins: &NpPins) -> NpOuts {
        self.pins = *pins;
        self.outs = self.peek(pins);
        self.outs
    }

    fn clock(&mut self) {
        let pins = self.pins;
        if pins.reset {
            self.pipe = [None; DECIDE_STAGES];
            self.out = None;
            self.stall = 0;
            self.shown = NpCounts::default();
            self.busy_left = self.qps;
            self.np.reset();
            return;
        }
        // The counters' registered enables: this edge shows what the previous edges did.
        self.shown = NpCounts {
            sent: self.np.counters.sent,
            suppressed: self.np.counters.suppressed,
            stall: self.stall,
        };
        self.busy_left = self.busy_left.saturating_sub(1);
        let adv = self.out.is_none() || pins.cnp_ready;
        if !adv {
            self.stall = (self.stall + 1) & COUNTER_MASK;
            return;
        }
        self.out = None;
        match self.pipe[DECIDE_STAGES - 1] {
            Some((qp, _, true)) => self.np.reset_qp(qp),
            Some((qp, now, false)) => {
                self.out = self.np.on_packet(&now, qp, crate::dcqcn_np::ECN_CE);
            }
            None => {}
        }
        self.pipe.copy_within(0..DECIDE_STAGES - 1, 1);
        self.pipe[0] = None;
        if let (Some(qp), true) = (pins.clr, self.outs.clr_ready) {
            self.pipe[0] = Some((qp, pins.now, true));
        } else if self.outs.rx_ready {
            self.pipe[0] = pins
                .rx
                .filter(|&(_, ecn)| ecn == crate::dcqcn_np::ECN_CE)
                .map(|(qp, _)| (qp, pins.now, false));
        }
    }
}

/// The hardware configuration word of `cfg`.
pub fn np_cfg_word(cfg: &NpConfig) -> NpCfgWord {
    NpCfgWord {
        no_limit: cfg.no_limit,
        per_port: cfg.per_port,
        dscp: (cfg.dscp as u64).into(),
        prio: (cfg.prio as u64).into(),
    }
}

/// The NP's time word for `now`.
pub fn np_time_word(now: &TimeStamp) -> NpTimeWord {
    NpTimeWord {
        sub: (now.sub as u64).into(),
        e: (now.cnp.epoch as u64).into(),
        r: (now.cnp.rem as u64).into(),
    }
}

/// rust-hdl's own simulation of the NP with `2^QB` QPs.
pub struct HdlNp<const QB: usize> {
    uut: Box<HdlDcqcnNp<QB>>,
}

impl<const QB: usize> HdlNp<QB> {
    pub fn new(p: &Params) -> Self {
        assert_eq!(1u32 << QB, p.qps, "HdlNp<{QB}> built for {} QPs", p.qps);
        let mut uut = Box::new(HdlDcqcnNp::<QB>::new());
        uut.connect_all();
        uut.cfg.next = np_cfg_word(&NpConfig::new(p).expect("valid NP parameters"));
        settle(uut.as_mut());
        Self { uut }
    }

    /// State RAM reads that met a write to their QP so far (rust-hdl's model returned the
    /// new word, Verilator the old: see `roce_cc_hdl::state_ram`).
    pub fn state_ram_collisions(&self) -> u64 {
        self.uut.state_ram_collisions()
    }
}

impl<const QB: usize> CycleDut<NpPins, NpOuts> for HdlNp<QB> {
    fn eval(&mut self, pins: &NpPins) -> NpOuts {
        let u = self.uut.as_mut();
        u.reset.next = pins.reset;
        u.s_clr_valid.next = pins.clr.is_some();
        u.s_clr_qp.next = (pins.clr.unwrap_or(0) as u64).into();
        u.s_rx_valid.next = pins.rx.is_some();
        u.s_rx_qp.next = (pins.rx.map_or(0, |r| r.0) as u64).into();
        u.s_rx_ecn.next = (pins.rx.map_or(0, |r| r.1) as u64).into();
        u.m_cnp_ready.next = pins.cnp_ready;
        u.now.next = np_time_word(&pins.now);
        settle(u);
        NpOuts {
            clr_ready: u.s_clr_ready.val(),
            rx_ready: u.s_rx_ready.val(),
            busy: u.busy.val(),
            cnp: u.m_cnp_valid.val().then(|| CnpRequest {
                qp: u.m_cnp_qp.val().to_u32(),
                dscp: u.m_cnp_dscp.val().to_u32(),
                prio: u.m_cnp_prio.val().to_u32(),
            }),
            counts: NpCounts {
                sent: u.cnt_sent.val().to_u64(),
                suppressed: u.cnt_suppressed.val().to_u64(),
                stall: u.cnt_stall.val().to_u64(),
            },
        }
    }

    fn clock(&mut self) {
        tick(self.uut.as_mut(), |u| &mut u.clock);
    }
}
