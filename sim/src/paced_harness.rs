//! Cycle-level harness of the core with the pacer inside (`roce_cc_hdl::paced_core`): one
//! set of pins, three implementations ([`GoldenPacedCycle`], [`HdlPaced`], and
//! `VerilatedPaced` in [`crate::verilated`]), compared by [`crate::lockstep`].
//!
//! [`GoldenPacedCycle`] is the golden core ([`GoldenCoreCycle`]) and the golden pacer
//! ([`PacerCycle`]) joined by the glue of `PacedCore`, rule for rule: the fork of the rate
//! reports, the fork of the ACKs, the grant queue in front of the RP's transmitted-packet
//! input with its turn against `s_tx_*`, the doorbell's QP check and the counters.

use crate::core_harness::{CoreOuts, CorePins, GoldenCoreCycle, b, cnp_time_word};
use crate::core_harness::{drive_core_pins, read_core_outs};
use crate::core_top::{AckCounts, BadQpCounts, MODE_HPCC, ack_payload_ok};
use crate::dcqcn_np::{COUNTER_MASK, CnpRequest, NpConfig};
use crate::dcqcn_rp::RpConfig;
use crate::hdl_sim::{settle, tick};
use crate::hpcc_harness::{hpcc_cfg_words, int_hop};
use crate::hpcc_window::{HpccConfig, HpccParams};
use crate::lockstep::CycleDut;
use crate::np_harness::{NpCounts, np_cfg_word};
use crate::pacer::sched::{PacerCycle, PacerIn, PacerSleep, RateIn};
use crate::rp_harness::{IncCounts, RateOut, cfg_word, ctl_fields, time_word};
use roce_cc_hdl::paced_core::{GRANT_QUEUE, PacedCore};
use roce_cc_hdl::pacer::cpb::clock_consts;
use roce_cc_params::Params;
use rust_hdl::prelude::*;
use std::collections::VecDeque;

/// The paced core's input pins for one cycle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PacedPins {
    /// The core's pins: `tx` is the external `s_tx_*` stream, `rate_ready` the external
    /// consumer's ready.
    pub core: CorePins,
    /// The pacer's time, whole cycles (one more each cycle).
    pub now_cycles: u64,
    /// Doorbell `{qpn, bytes}`.
    pub post: Option<(u32, u32)>,
    /// The port takes a grant (`m_tx_ready`).
    pub tx_ready: bool,
}

/// The paced core's counters of the pacer's side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PacedCounts {
    /// `cnt_bad_qp_post`.
    pub bad_post: u64,
    /// `cnt_grants`.
    pub grants: u64,
    /// `cnt_grant_bytes`.
    pub grant_bytes: u64,
    /// `cnt_port_idle`.
    pub port_idle: u64,
}

/// The paced core's outputs in one cycle (before the clock edge).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PacedOuts {
    /// The core's outputs: `tx_ready` of the external `s_tx_*`, `rate` the external
    /// `m_rate_*`, `busy` the core's or the pacer's sweep.
    pub core: CoreOuts,
    /// `s_post_ready`.
    pub post_ready: bool,
    /// `m_tx_*` when valid: `{qp, bytes}`.
    pub grant: Option<(u32, u32)>,
    /// `backlogged`: QPs with bytes posted and not granted.
    pub backlogged: u32,
    /// The pacer's `asleep`, `wake_en`, `wake_at`.
    pub sleep: PacerSleep,
    pub counts: PacedCounts,
}

/// Cycles (counted by [`GoldenPacedCycle`]) in which a fork held an event that one of its two
/// consumers had already taken and the other had not, while the consumer that took it was not
/// ready. Only the fork's memory of the take (`rf_*`, `af_*` in `PacedCore`) keeps such an
/// event from being offered twice or held a cycle too long, so a test that shows a fault in
/// that memory must reach these cycles; one per kind of fork and side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ForkCover {
    /// A rate report the pacer took, waiting for the consumer, the pacer's rate input not
    /// ready (an ACK on its turn, or the pacer's sweep).
    pub rate_pacer_took_not_ready: u64,
    /// A rate report the consumer took, waiting for the pacer, the consumer not ready.
    pub rate_ext_took_not_ready: u64,
    /// An ACK the core took, waiting for the pacer, the core's ACK input without room (the
    /// core's `s_ack_ready` then is low whether or not the fork offers it the ACK again).
    pub ack_core_took_not_ready: u64,
    /// An ACK the pacer took, waiting for the core, the pacer's ACK input not ready.
    pub ack_pacer_took_not_ready: u64,
}

impl std::ops::AddAssign for ForkCover {
    fn add_assign(&mut self, o: Self) {
        self.rate_pacer_took_not_ready += o.rate_pacer_took_not_ready;
        self.rate_ext_took_not_ready += o.rate_ext_took_not_ready;
        self.ack_core_took_not_ready += o.ack_core_took_not_ready;
        self.ack_pacer_took_not_ready += o.ack_pacer_took_not_ready;
    }
}

/// The golden core and pacer joined as `PacedCore` joins them.
pub struct GoldenPacedCycle {
    core: GoldenCoreCycle,
    pacer: PacerCycle,
    qps: u32,
    /// The grant queue: `{qp, bytes}` of grants taken, for the RP's transmitted packets.
    gq: VecDeque<(u32, u32)>,
    /// The grant queue goes first when both it and `s_tx_*` wait.
    tx_turn: bool,
    /// The current rate report was taken by the consumer / the pacer.
    rf_ext: bool,
    rf_pac: bool,
    /// The current ACK was taken by the core / the pacer.
    af_core: bool,
    af_pac: bool,
    counts: PacedCounts,
    cover: ForkCover,
    /// Events counted a cycle later: a rejected doorbell, a grant's bytes, an idle port.
    hit_post: bool,
    hit_grant: Option<u32>,
    hit_idle: bool,
    /// What the edge needs of this cycle's pins (reset, the doorbell, an ACK offered), and
    /// what they decided.
    edge_in: (bool, Option<(u32, u32)>, bool),
    dec: PacedDecisions,
}

#[derive(Clone, Copy, Debug, Default)]
struct PacedDecisions {
    pacer_in: PacerIn,
    /// The RP's `s_tx` takes the grant queue's head.
    sel_g: bool,
    /// The core took its `s_tx` offer.
    core_tx_take: bool,
    rate: Option<RateOut>,
    rf_ok: (bool, bool),
    af_ok: (bool, bool),
    grant_take: Option<(u32, u32)>,
    port_idle: bool,
    cover: ForkCover,
}

impl GoldenPacedCycle {
    /// The golden paced core for `p` (`p.qps` a power of two, 64..=16384), packets of at
    /// most `p.mtu_bytes` bytes, as it powers up (a reset must follow).
    pub fn new(p: &Params) -> Self {
        Self {
            core: GoldenCoreCycle::new(p),
            pacer: PacerCycle::at_power_up(p.qps, p.clock_mhz, p.mtu_bytes),
            qps: p.qps,
            gq: VecDeque::new(),
            tx_turn: false,
            rf_ext: false,
            rf_pac: false,
            af_core: false,
            af_pac: false,
            counts: PacedCounts::default(),
            cover: ForkCover::default(),
            hit_post: false,
            hit_grant: None,
            hit_idle: false,
            edge_in: (false, None, false),
            dec: PacedDecisions::default(),
        }
    }

    /// The golden pacer (its state, for stimulus that sends meaningful ACKs).
    pub fn pacer(&self) -> &PacerCycle {
        &self.pacer
    }

    /// The forks' coverage since power-up ([`ForkCover`]).
    pub fn fork_cover(&self) -> ForkCover {
        self.cover
    }

    /// Grants waiting in the grant queue for the RP.
    pub fn grant_queue_len(&self) -> usize {
        self.gq.len()
    }
}

impl CycleDut<PacedPins, PacedOuts> for GoldenPacedCycle {
    fn eval(&mut self, pins: &PacedPins) -> PacedOuts {
        self.edge_in = (pins.core.reset, pins.post, pins.core.ack.is_some());
        let room = self.gq.len() < GRANT_QUEUE;
        // The RP's transmitted packets: the grant queue's head or `s_tx_*`.
        let sel_g = !self.gq.is_empty() && (pins.core.tx.is_none() || self.tx_turn);
        let mut core_pins = pins.core;
        if sel_g {
            core_pins.tx = self.gq.front().copied();
        }
        if self.af_core {
            core_pins.ack = None;
        }
        // The rate report and the pacer's inputs.
        let rate = self.core.m_rate();
        let ok = ack_payload_ok(self.qps, &pins.core.ack);
        let pacer_in = PacerIn {
            reset: pins.core.reset,
            now: pins.now_cycles,
            post: pins.post.filter(|&(q, _)| q < self.qps),
            rate: rate.filter(|_| !self.rf_pac).map(|r| RateIn {
                qp: r.qp,
                rate_q8: u64::from(r.report.rc_mbps_q8),
                window: (r.mode == MODE_HPCC).then_some(r.window),
            }),
            ack: pins
                .core
                .ack
                .filter(|_| ok && !self.af_pac)
                .map(|(q, a)| (q, a.seq)),
            grant_ready: pins.tx_ready && room,
        };
        let po = self.pacer.out(&pacer_in);
        let rf_ok = (
            pins.core.rate_ready || self.rf_ext,
            po.rate_ready || self.rf_pac,
        );
        core_pins.rate_ready = rf_ok.0 && rf_ok.1;
        let o = self.core.eval(&core_pins);
        let af_ok = (
            o.ack_ready || self.af_core,
            po.ack_ready || self.af_pac || !ok,
        );
        // This cycle's coverage of the forks, counted at the edge.
        let held = |on: bool, took: bool, ready: bool| u64::from(on && took && !ready);
        let cover = ForkCover {
            rate_pacer_took_not_ready: held(rate.is_some(), self.rf_pac, po.rate_ready),
            rate_ext_took_not_ready: held(rate.is_some(), self.rf_ext, pins.core.rate_ready),
            ack_core_took_not_ready: held(
                pins.core.ack.is_some(),
                self.af_core,
                self.core.ack_room(),
            ),
            ack_pacer_took_not_ready: held(pins.core.ack.is_some(), self.af_pac, po.ack_ready),
        };
        let grant = po.grant.filter(|_| room);
        let busy = o.busy || po.busy;
        let post_bad = pins.post.unwrap_or_default().0 >= self.qps;
        self.dec = PacedDecisions {
            pacer_in,
            sel_g,
            core_tx_take: core_pins.tx.is_some() && o.tx_ready,
            rate,
            rf_ok,
            af_ok,
            grant_take: grant.filter(|_| pins.tx_ready),
            port_idle: pins.tx_ready && grant.is_none() && !busy,
            cover,
        };
        let mut core = o;
        core.tx_ready = !sel_g && o.tx_ready;
        core.ack_ready = af_ok.0 && af_ok.1;
        core.rate = rate.filter(|_| !self.rf_ext);
        core.busy = busy;
        PacedOuts {
            core,
            post_ready: post_bad || po.post_ready,
            grant,
            backlogged: po.backlogged,
            sleep: po.sleep,
            counts: self.counts,
        }
    }

    fn clock(&mut self) {
        let (reset, post, ack_offered) = self.edge_in;
        let d = self.dec;
        self.core.clock();
        self.pacer.clock(&d.pacer_in);
        if reset {
            self.gq.clear();
            self.tx_turn = false;
            self.rf_ext = false;
            self.rf_pac = false;
            self.af_core = false;
            self.af_pac = false;
            self.counts = PacedCounts::default();
            self.hit_post = false;
            self.hit_grant = None;
            self.hit_idle = false;
            return;
        }
        self.cover += d.cover;
        let c = &mut self.counts;
        if self.hit_post {
            c.bad_post = (c.bad_post + 1) & COUNTER_MASK;
        }
        if let Some(bytes) = self.hit_grant {
            c.grants = (c.grants + 1) & COUNTER_MASK;
            c.grant_bytes = (c.grant_bytes + u64::from(bytes)) & COUNTER_MASK;
        }
        if self.hit_idle {
            c.port_idle = (c.port_idle + 1) & COUNTER_MASK;
        }
        self.hit_post = post.is_some_and(|(q, _)| q >= self.qps);
        self.hit_grant = d.grant_take.map(|(_, bytes)| bytes);
        self.hit_idle = d.port_idle;
        if d.sel_g && d.core_tx_take {
            self.gq.pop_front();
        }
        if let Some(g) = d.grant_take {
            self.gq.push_back(g);
        }
        if d.core_tx_take {
            self.tx_turn = !d.sel_g;
        }
        if d.rate.is_some() {
            if d.rf_ok.0 && d.rf_ok.1 {
                (self.rf_ext, self.rf_pac) = (false, false);
            } else {
                (self.rf_ext, self.rf_pac) = d.rf_ok;
            }
        }
        if ack_offered {
            if d.af_ok.0 && d.af_ok.1 {
                (self.af_core, self.af_pac) = (false, false);
            } else {
                (self.af_core, self.af_pac) = d.af_ok;
            }
        }
    }
}

/// rust-hdl's own simulation of the paced core.
pub struct HdlPaced<
    const QB: usize,
    const WB: usize,
    const NW: usize,
    const LW: usize,
    const FW: usize,
    const N: usize,
> {
    uut: Box<PacedCore<QB, WB, NW, LW, FW, N>>,
}

impl<
    const QB: usize,
    const WB: usize,
    const NW: usize,
    const LW: usize,
    const FW: usize,
    const N: usize,
> HdlPaced<QB, WB, NW, LW, FW, N>
{
    /// The paced core for `p` (`p.qps` = `2^QB`), packets of at most `p.mtu_bytes`.
    pub fn new(p: &Params) -> Self {
        assert_eq!(1u32 << QB, p.qps, "HdlPaced<{QB}> built for {} QPs", p.qps);
        let mut uut: Box<PacedCore<QB, WB, NW, LW, FW, N>> = Box::default();
        uut.connect_all();
        uut.rp_cfg.next = cfg_word(&RpConfig::new(p));
        uut.np_cfg.next = np_cfg_word(&NpConfig::new(p).expect("valid NP parameters"));
        let (w, k) = hpcc_cfg_words(&HpccConfig::new(&HpccParams::from_params(p)));
        uut.hpcc_cfg.next = w;
        uut.hpcc_k.next = k;
        let (km, ke) = clock_consts(p.clock_mhz);
        uut.pacer_mtu.next = b(p.mtu_bytes).into();
        uut.pacer_km.next = b(km).into();
        uut.pacer_ke.next = b(ke).into();
        settle(uut.as_mut());
        Self { uut }
    }
}

impl<
    const QB: usize,
    const WB: usize,
    const NW: usize,
    const LW: usize,
    const FW: usize,
    const N: usize,
> CycleDut<PacedPins, PacedOuts> for HdlPaced<QB, WB, NW, LW, FW, N>
{
    fn eval(&mut self, pins: &PacedPins) -> PacedOuts {
        let u = self.uut.as_mut();
        drive_core_pins!(&mut *u, &pins.core);
        u.now_cycles.next = pins.now_cycles.into();
        u.s_post_valid.next = pins.post.is_some();
        u.s_post_qpn.next = b(pins.post.map_or(0, |p| p.0)).into();
        u.s_post_bytes.next = b(pins.post.map_or(0, |p| p.1)).into();
        u.m_tx_ready.next = pins.tx_ready;
        settle(u);
        PacedOuts {
            core: read_core_outs!(&*u),
            post_ready: u.s_post_ready.val(),
            grant: u
                .m_tx_valid
                .val()
                .then(|| (u.m_tx_qp.val().to_u32(), u.m_tx_bytes.val().to_u32())),
            backlogged: u.backlogged.val().to_u32(),
            sleep: PacerSleep {
                asleep: u.asleep.val(),
                wake_en: u.wake_en.val(),
                wake_at: u.wake_at.val().to_u64(),
            },
            counts: PacedCounts {
                bad_post: u.cnt_bad_qp_post.val().to_u64(),
                grants: u.cnt_grants.val().to_u64(),
                grant_bytes: u.cnt_grant_bytes.val().to_u64(),
                port_idle: u.cnt_port_idle.val().to_u64(),
            },
        }
    }

    fn clock(&mut self) {
        tick(self.uut.as_mut(), |u| &mut u.clock);
    }
}
