//! Cycle-level harness of the core top: one set of pins, three implementations
//! ([`GoldenCoreCycle`], [`HdlCore`], and `VerilatedCore` in [`crate::verilated`]),
//! compared by [`crate::lockstep`].

use crate::core_top::{AckCounts, BadQpCounts, MODE_HPCC, ack_payload_ok};
use crate::dcqcn_np::{COUNTER_MASK, CnpRequest, NpConfig};
use crate::dcqcn_rp::RpConfig;
use crate::dcqcn_rp::RpKind;
use crate::hdl_sim::{settle, tick};
use crate::hpcc_harness::{GoldenHpccCycle, HpccOuts, HpccPins, hpcc_cfg_words, int_hop};
use crate::hpcc_window::{Ack, HpccConfig, HpccParams};
use crate::lockstep::{CycleDut, Divergence, Named, bring_up};
use crate::np_harness::{GoldenNpCycle, NpCounts, NpPins, np_cfg_word};
use crate::rp_harness::{
    GoldenRpCycle, IncCounts, RateOut, RpPins, cfg_word, ctl_fields, table_writes, time_word,
};
use crate::timebase::{TimeStamp, Timebase};
use roce_cc_hdl::core_top::{CnpTimeWord, RoceCcCore};
use roce_cc_hdl::hpcc_window::window::{CMD_INIT, CMD_QUERY, KIND_ACK, KIND_QUERY};
use roce_cc_params::Params;
use rust_hdl::prelude::*;

/// The core's input pins for one cycle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CorePins {
    pub reset: bool,
    /// Command stream: `Some((qp, RpKind::Reset | RpKind::SetMode { .. }))`.
    pub ctl: Option<(u32, crate::dcqcn_rp::RpKind)>,
    /// CNP stream: `Some(qpn)` = valid.
    pub cnp: Option<u32>,
    /// Packet stream: `Some((qpn, bytes))`.
    pub tx: Option<(u32, u32)>,
    /// Query stream: `Some(qpn)`.
    pub query: Option<u32>,
    /// Received-packet stream: `Some((qpn, ecn))`.
    pub rx: Option<(u32, u8)>,
    /// ACK stream: `Some((qpn, ack))` (any hop count: the core rejects those not 1..=5).
    pub ack: Option<(u32, Ack)>,
    /// Rate-report consumer ready.
    pub rate_ready: bool,
    /// CNP-request consumer ready.
    pub cnp_ready: bool,
    /// Now (one time base for both units).
    pub now: TimeStamp,
    /// RP power-table write `(addr, data)`.
    pub tbl: Option<(u32, u32)>,
}

/// The core's outputs in one cycle (before the clock edge).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CoreOuts {
    pub ctl_ready: bool,
    pub cnp_ready: bool,
    pub tx_ready: bool,
    pub query_ready: bool,
    pub rx_ready: bool,
    pub ack_ready: bool,
    pub busy: bool,
    /// `m_rate_*` when valid.
    pub rate: Option<RateOut>,
    /// `m_cnp_*` when valid.
    pub cnp: Option<CnpRequest>,
    /// `cnt_bad_qp_*`.
    pub bad_qp: BadQpCounts,
    /// `cnt_cnp_*` (one cycle behind the NP's decisions and held cycles, see
    /// `roce_cc_hdl::dcqcn_np::NP_COUNT_LAG`; `GoldenNpCycle` models the lag).
    pub np: NpCounts,
    /// `cnt_cnp_received`.
    pub cnp_received: u64,
    /// `cnt_rate_cuts`.
    pub rate_cuts: u64,
    /// `cnt_increase_*` (they lag the other counters, see `rp_harness::INC_COUNT_LAG`).
    pub increase: IncCounts,
    /// `cnt_ack_ignored`, `cnt_ack_applied`, `cnt_ack_commits`.
    pub acks: AckCounts,
}

/// A command in the core's command slice (`roce_cc_hdl::ctl_slice`).
type Cmd = (u32, RpKind);

/// The command slice of `roce_cc_hdl::ctl_slice`, rule for rule: a head with the parts
/// still owed to the RP and to the NP, and a skid register.
#[derive(Clone, Copy, Debug, Default)]
struct CtlSliceModel {
    /// The head command, if any part of it is still owed.
    head: Option<Cmd>,
    /// The head's part for the RP is owed.
    rp_owed: bool,
    /// The head's part for the NP (a reset) is owed.
    np_owed: bool,
    /// The skid register.
    skid: Option<Cmd>,
}

impl CtlSliceModel {
    /// `s_ready`: the skid register is empty.
    fn ready(&self) -> bool {
        self.skid.is_none()
    }

    /// The edge: `offered` is the command on `s_*` (taken when `ready()`), `rp_took` and
    /// `np_took` whether each unit took the part offered to it.
    fn clock(&mut self, offered: Option<Cmd>, rp_took: bool, np_took: bool, reset: bool) {
        let taken = offered.filter(|_| self.ready());
        let rp_left = self.rp_owed && !rp_took;
        let np_left = self.np_owed && !np_took;
        if !rp_left && !np_left {
            let next = self.skid.take().or(taken);
            self.head = next;
            self.rp_owed = next.is_some();
            self.np_owed = matches!(next, Some((_, RpKind::Reset)));
        } else {
            self.rp_owed = rp_left;
            self.np_owed = np_left;
            if taken.is_some() {
                self.skid = taken;
            }
        }
        if reset {
            *self = Self::default();
        }
    }
}

/// The two-register slice of `roce_cc_hdl::reg_slice`, rule for rule: a head register
/// (the output) and a skid register; `s_ready` is "the skid is empty".
#[derive(Clone, Copy, Debug)]
pub struct RegSliceModel<T> {
    head: Option<T>,
    skid: Option<T>,
}

impl<T> Default for RegSliceModel<T> {
    fn default() -> Self {
        Self {
            head: None,
            skid: None,
        }
    }
}

impl<T: Copy> RegSliceModel<T> {
    /// `s_ready`.
    pub fn ready(&self) -> bool {
        self.skid.is_none()
    }

    /// `m_valid` and the payload.
    pub fn head(&self) -> Option<T> {
        self.head
    }

    /// The edge: `offered` is the input (taken when `ready()`), `m_ready` the consumer's
    /// ready in this cycle.
    pub fn clock(&mut self, offered: Option<T>, m_ready: bool, reset: bool) {
        let taken = offered.filter(|_| self.ready());
        if self.head.is_none() || m_ready {
            self.head = self.skid.take().or(taken);
        } else if taken.is_some() {
            self.skid = taken;
        }
        if reset {
            *self = Self::default();
        }
    }
}

/// A command for the window unit in the core's command slice: (QP, query, `ctl` flag).
type WinCmd = (u32, bool, bool);

/// The golden core with the hardware's timing: the golden RP, NP and HPCC window unit
/// cycle models behind the QP checks, the command slice, the ACK filter with its mode RAM,
/// the register slices and the report merge of `roce_cc_hdl::core_top`, rule for rule.
pub struct GoldenCoreCycle {
    rp: GoldenRpCycle,
    np: GoldenNpCycle,
    hp: GoldenHpccCycle,
    ctl: CtlSliceModel,
    /// Whether the RP and the NP took their parts of the head command this cycle.
    ctl_took: (bool, bool),
    qps: u32,
    bad_qp: BadQpCounts,
    /// Out-of-range events offered last cycle, per stream (cnp, tx, query, rx, ack): the
    /// hardware counts each a cycle after the event.
    bad_last: [bool; 5],
    /// The mode RAM (a QP is in HPCC mode), its registered read, and its reset sweep.
    mode: Vec<bool>,
    mode_rd: bool,
    msw: u32,
    msw_busy: bool,
    /// The ACK filter register.
    f: Option<(u32, Ack)>,
    /// The RP's reports, HPCC QPs' commands to the window unit, the unit's reports.
    rslice: RegSliceModel<RateOut>,
    cslice: RegSliceModel<WinCmd>,
    wslice: RegSliceModel<(u32, crate::hpcc_harness::HpccRep)>,
    /// The merge's reports, registered before `m_rate_*`.
    oslice: RegSliceModel<RateOut>,
    /// The merge: an offer held, the source offered last cycle, the source last taken
    /// (`true`: the window unit).
    arb_hold: bool,
    arb_sel: bool,
    arb_last: bool,
    ignored: u64,
    /// The filter register dropped an ACK last cycle (counted a cycle later).
    ign_last: bool,
    /// The `ctl` flags of the commands given to the window unit whose reports have not
    /// left the merge, oldest first.
    tq: std::collections::VecDeque<bool>,
    /// What the edge needs of this cycle's pins (not the pins: an ACK's INT stack is
    /// copied only when the filter register loads it).
    edge_in: CoreEdgeIn,
    /// This cycle's decisions, for the edge.
    dec: CoreDecisions,
}

/// The part of a cycle's pins that the core's edge uses.
#[derive(Clone, Copy, Debug, Default)]
struct CoreEdgeIn {
    reset: bool,
    ctl: Option<Cmd>,
    rate_ready: bool,
    /// Out-of-range events offered (cnp, tx, query, rx, ack).
    bad: [bool; 5],
    /// The ACK the filter register loads (when `f_load`).
    f_in: Option<(u32, Ack)>,
}

/// What a cycle of the core's glue decided (computed in `eval`, applied at the edge).
#[derive(Clone, Copy, Debug, Default)]
struct CoreDecisions {
    /// What each slice is offered and whether its consumer is ready.
    r_offer: Option<RateOut>,
    r_take: bool,
    c_offer: Option<WinCmd>,
    c_take: bool,
    w_offer: Option<(u32, crate::hpcc_harness::HpccRep)>,
    w_take: bool,
    f_free: bool,
    f_load: bool,
    /// The mode RAM's write `(qp, in HPCC mode)`.
    mode_we: Option<(u32, bool)>,
    pick_w: bool,
    /// The merge's report (offered to the output slice) and the slice's ready.
    rate: Option<RateOut>,
    o_ready: bool,
    /// The window unit takes a command now, with this `ctl` flag.
    tq_push: Option<bool>,
    /// A report of a window unit command leaves the merge now.
    tq_pop: bool,
}

impl GoldenCoreCycle {
    pub fn new(p: &Params) -> Self {
        Self {
            rp: GoldenRpCycle::new(p),
            np: GoldenNpCycle::new(p),
            hp: GoldenHpccCycle::new(&HpccParams::from_params(p), p.qps),
            ctl: CtlSliceModel::default(),
            ctl_took: (false, false),
            qps: p.qps,
            bad_qp: BadQpCounts::default(),
            bad_last: [false; 5],
            mode: vec![false; p.qps as usize],
            mode_rd: false,
            msw: 0,
            msw_busy: false,
            f: None,
            rslice: Default::default(),
            cslice: Default::default(),
            wslice: Default::default(),
            oslice: Default::default(),
            arb_hold: false,
            arb_sel: false,
            arb_last: false,
            ignored: 0,
            ign_last: false,
            tq: Default::default(),
            edge_in: CoreEdgeIn::default(),
            dec: CoreDecisions::default(),
        }
    }

    /// The report on `m_rate_*` this cycle (a register: it does not depend on the pins).
    pub fn m_rate(&self) -> Option<RateOut> {
        self.oslice.head()
    }

    /// After this cycle's `eval`: whether the ACK input has room (`f_free && !msw_busy`:
    /// `s_ack_ready` for a payload that passes the check, also when nothing or a bad
    /// payload is offered).
    pub fn ack_room(&self) -> bool {
        self.dec.f_free && !self.msw_busy
    }

    /// The pins each unit sees: events for an out-of-range QP are taken away.
    fn unit_pins(&self, pins: &CorePins) -> (RpPins, NpPins) {
        let ok = |q: u32| q < self.qps;
        (
            RpPins {
                reset: pins.reset,
                ctl: None,
                cnp: pins.cnp.filter(|&q| ok(q)),
                tx: pins.tx.filter(|&(q, _)| ok(q)),
                query: pins.query.filter(|&q| ok(q)),
                m_ready: false,
                now: pins.now,
                tbl: pins.tbl,
            },
            NpPins {
                reset: pins.reset,
                clr: None,
                rx: pins.rx.filter(|&(q, _)| ok(q)),
                cnp_ready: pins.cnp_ready,
                now: pins.now,
            },
        )
    }

    /// Whether the core rejects an ACK offered as `ack`.
    fn ack_bad(&self, ack: &Option<(u32, Ack)>) -> bool {
        ack.is_some() && !ack_payload_ok(self.qps, ack)
    }
}

/// The core's report of a window unit report (`ctl`: the flag of the oldest command owed).
fn hpcc_rate(qp: u32, r: &crate::hpcc_harness::HpccRep, ctl: bool) -> RateOut {
    RateOut {
        qp,
        query: u64::from(r.kind) == KIND_QUERY,
        ctl: u64::from(r.kind) != KIND_ACK && ctl,
        mode: MODE_HPCC,
        report: crate::replay::RpReport {
            limited: false,
            rc_mbps_q8: r.r,
            rt_mbps_q8: r.rc,
            alpha_q20: 0,
        },
        u_q24: r.u,
        window: r.window,
    }
}

impl CycleDut<CorePins, CoreOuts> for GoldenCoreCycle {
    fn eval(&mut self, pins: &CorePins) -> CoreOuts {
        let (mut rp_pins, mut np_pins) = self.unit_pins(pins);
        // The command slice offers its head: to the RP while its part is owed, to the NP
        // (a reset) while the NP's is; each unit takes its part when it is ready.
        if self.ctl.rp_owed {
            rp_pins.ctl = self.ctl.head;
        }
        if self.ctl.np_owed {
            np_pins.clr = self.ctl.head.map(|(qp, _)| qp);
        }
        // Every unit's pins are known from registers: the slices' readies and heads, the
        // filter register and the mode RAM's read.
        rp_pins.m_ready = self.rslice.ready();
        let r = self.rp.eval(&rp_pins);
        let n = self.np.eval(&np_pins);
        self.ctl_took = (
            self.ctl.rp_owed && r.ctl_ready,
            self.ctl.np_owed && n.clr_ready,
        );
        let c_head = self.cslice.head();
        let w_head = self.wslice.head();
        // ACK check and filter register (an ACK waits while a command is in the slice).
        let ack_bad = self.ack_bad(&pins.ack);
        // The payload check refuses the default payload too, so `s_ack_ready` is high
        // while nothing is offered.
        let payload_bad = !ack_payload_ok(self.qps, &pins.ack);
        let f_pass = self.f.is_some() && self.mode_rd && c_head.is_none();
        let hp_pins = HpccPins {
            reset: pins.reset,
            ack: if f_pass { self.f } else { None },
            cmd: c_head.map(|(q, query, _)| (q, if query { CMD_QUERY } else { CMD_INIT } as u8)),
            rep_ready: self.wslice.ready(),
        };
        let h: HpccOuts = self.hp.eval(&hp_pins);
        let f_free = self.f.is_none() || !self.mode_rd || (h.ack_ready && c_head.is_none());
        let f_load = pins.ack.is_some() && !ack_bad && f_free && !self.msw_busy;
        let bad = |q: Option<u32>| q.is_some_and(|q| q >= self.qps);
        self.edge_in = CoreEdgeIn {
            reset: pins.reset,
            ctl: pins.ctl,
            rate_ready: pins.rate_ready,
            bad: [
                bad(pins.cnp),
                bad(pins.tx.map(|t| t.0)),
                bad(pins.query),
                bad(pins.rx.map(|t| t.0)),
                ack_bad,
            ],
            f_in: None,
        };
        if f_load {
            self.edge_in.f_in = pins.ack;
        }
        let ack_ready = payload_bad || (f_free && !self.msw_busy);

        // The RP's report at the head of its slice: an HPCC QP's command or query goes to
        // the command slice.
        let rv = self.rslice.head();
        let rp_h = rv.is_some_and(|x| x.mode == MODE_HPCC);
        let rp_cmd = rv.is_some_and(|x| x.ctl || x.query);
        let rp_pass = rv.is_some() && !rp_h && !self.msw_busy;
        let c_offer = rv
            .filter(|_| rp_h && rp_cmd && !self.msw_busy)
            .map(|x| (x.qp, x.query, x.ctl));
        let o_ready = self.oslice.ready();
        let pick_w = if self.arb_hold {
            self.arb_sel
        } else {
            w_head.is_some() && (!rp_pass || !self.arb_last)
        };
        let rp_take = if rp_h {
            if rp_cmd {
                self.cslice.ready() && !self.msw_busy
            } else {
                !self.msw_busy
            }
        } else {
            rp_pass && o_ready && !pick_w
        };
        let head = self.tq.front().copied().unwrap_or(false);
        let rate = if pick_w {
            w_head.map(|(qp, rep)| hpcc_rate(qp, &rep, head))
        } else if rp_pass {
            rv
        } else {
            None
        };
        let mode_we = if self.msw_busy {
            Some((self.msw, false))
        } else {
            rv.filter(|x| x.ctl && !x.query && rp_take)
                .map(|x| (x.qp, rp_h))
        };
        self.dec = CoreDecisions {
            r_offer: r.report,
            r_take: rp_take,
            c_offer,
            c_take: h.cmd_ready,
            w_offer: h.rep,
            w_take: o_ready && pick_w,
            f_free,
            f_load,
            mode_we,
            pick_w,
            rate,
            o_ready,
            tq_push: c_head.filter(|_| h.cmd_ready).map(|(_, _, ctl)| ctl),
            tq_pop: pick_w && o_ready && w_head.is_some_and(|(_, x)| u64::from(x.kind) != KIND_ACK),
        };

        let bad = |q: Option<u32>| q.is_some_and(|q| q >= self.qps);
        CoreOuts {
            ctl_ready: self.ctl.ready(),
            cnp_ready: bad(pins.cnp) || r.cnp_ready,
            tx_ready: bad(pins.tx.map(|t| t.0)) || r.tx_ready,
            query_ready: bad(pins.query) || r.query_ready,
            rx_ready: bad(pins.rx.map(|t| t.0)) || n.rx_ready,
            ack_ready,
            busy: r.busy || n.busy || h.busy || self.msw_busy,
            rate: self.oslice.head(),
            cnp: n.cnp,
            bad_qp: self.bad_qp,
            np: n.counts,
            cnp_received: r.cnp_received,
            rate_cuts: r.rate_cuts,
            increase: r.increase,
            acks: AckCounts {
                ignored: self.ignored,
                applied: h.acks,
                commits: h.commits,
            },
        }
    }

    fn clock(&mut self) {
        let pins = self.edge_in;
        let d = self.dec;
        let dropping = self.f.is_some() && !self.mode_rd;
        self.rp.clock();
        self.np.clock();
        self.hp.clock();
        self.ctl
            .clock(pins.ctl, self.ctl_took.0, self.ctl_took.1, pins.reset);
        self.rslice.clock(d.r_offer, d.r_take, pins.reset);
        self.cslice.clock(d.c_offer, d.c_take, pins.reset);
        self.wslice.clock(d.w_offer, d.w_take, pins.reset);
        self.oslice.clock(d.rate, pins.rate_ready, pins.reset);
        // The mode RAM: the registered read returns the word before this edge's write.
        let rd_addr = match (d.f_load, &pins.f_in, &self.f) {
            (true, Some((q, _)), _) => q & (self.qps - 1),
            (_, _, Some((q, _))) => *q,
            _ => 0,
        };
        self.mode_rd = self.mode[rd_addr as usize];
        if let Some((q, v)) = d.mode_we {
            self.mode[q as usize] = v;
        }
        if pins.reset {
            self.bad_qp = BadQpCounts::default();
            self.bad_last = [false; 5];
            self.f = None;
            self.arb_hold = false;
            self.arb_sel = false;
            self.arb_last = false;
            self.ignored = 0;
            self.ign_last = false;
            self.msw = 0;
            self.msw_busy = true;
            self.tq.clear();
            return;
        }
        let b = &mut self.bad_qp;
        for (c, hit) in [&mut b.cnp, &mut b.tx, &mut b.query, &mut b.rx, &mut b.ack]
            .into_iter()
            .zip(self.bad_last)
        {
            if hit {
                *c = (*c + 1) & COUNTER_MASK;
            }
        }
        if self.ign_last {
            self.ignored = (self.ignored + 1) & COUNTER_MASK;
        }
        self.bad_last = pins.bad;
        self.ign_last = dropping;
        if d.f_free {
            self.f = if d.f_load { pins.f_in } else { None };
        }
        if d.tq_pop {
            self.tq.pop_front();
        }
        if let Some(c) = d.tq_push {
            self.tq.push_back(c);
        }
        self.arb_hold = d.rate.is_some() && !d.o_ready;
        self.arb_sel = d.pick_w;
        if d.rate.is_some() && d.o_ready {
            self.arb_last = d.pick_w;
        }
        if self.msw_busy {
            if self.msw == self.qps - 1 {
                self.msw_busy = false;
            }
            self.msw = (self.msw + 1) % self.qps;
        }
    }
}

/// The core's `now_cnp` word for `now`.
pub fn cnp_time_word(now: &TimeStamp) -> CnpTimeWord {
    CnpTimeWord {
        e: (now.cnp.epoch as u64).into(),
        r: (now.cnp.rem as u64).into(),
    }
}

/// rust-hdl's own simulation of the core top with `2^QB` QPs.
pub struct HdlCore<const QB: usize> {
    uut: Box<RoceCcCore<QB>>,
}

impl<const QB: usize> HdlCore<QB> {
    pub fn new(p: &Params) -> Self {
        assert_eq!(1u32 << QB, p.qps, "HdlCore<{QB}> built for {} QPs", p.qps);
        let mut uut = Box::new(RoceCcCore::<QB>::new());
        uut.connect_all();
        uut.rp_cfg.next = cfg_word(&RpConfig::new(p));
        uut.np_cfg.next = np_cfg_word(&NpConfig::new(p).expect("valid NP parameters"));
        let (w, k) = hpcc_cfg_words(&HpccConfig::new(&HpccParams::from_params(p)));
        uut.hpcc_cfg.next = w;
        uut.hpcc_k.next = k;
        settle(uut.as_mut());
        Self { uut }
    }
}

pub(crate) fn b(x: u32) -> u64 {
    x as u64
}

/// Drives the core's pins `pins` on a rust-hdl top `u` that has the core's port names
/// (`RoceCcCore`, `PacedCore`).
macro_rules! drive_core_pins {
    ($u:expr, $pins:expr) => {{
        let u = $u;
        let pins: &CorePins = $pins;
        u.reset.next = pins.reset;
        let (op, mode, rate) = ctl_fields(pins.ctl);
        u.s_ctl_valid.next = pins.ctl.is_some();
        u.s_ctl_qp.next = b(pins.ctl.map_or(0, |c| c.0)).into();
        u.s_ctl_op.next = b(op).into();
        u.s_ctl_mode.next = b(mode).into();
        u.s_ctl_rate.next = b(rate).into();
        u.s_cnp_valid.next = pins.cnp.is_some();
        u.s_cnp_qpn.next = b(pins.cnp.unwrap_or(0)).into();
        u.s_tx_valid.next = pins.tx.is_some();
        u.s_tx_qpn.next = b(pins.tx.map_or(0, |t| t.0)).into();
        u.s_tx_bytes.next = b(pins.tx.map_or(0, |t| t.1)).into();
        u.s_query_valid.next = pins.query.is_some();
        u.s_query_qpn.next = b(pins.query.unwrap_or(0)).into();
        u.s_rx_valid.next = pins.rx.is_some();
        u.s_rx_qpn.next = b(pins.rx.map_or(0, |t| t.0)).into();
        u.s_rx_ecn.next = (pins.rx.map_or(0, |t| t.1) as u64).into();
        let (aq, ack) = pins.ack.unwrap_or_default();
        u.s_ack_valid.next = pins.ack.is_some();
        u.s_ack_qpn.next = b(aq).into();
        u.s_ack_seq.next = b(ack.seq).into();
        u.s_ack_snd_nxt.next = b(ack.snd_nxt).into();
        u.s_ack_nhop.next = (ack.nhop as u64).into();
        for (i, h) in ack.hops.iter().enumerate() {
            u.s_ack_hop[i].next = int_hop(h);
        }
        u.m_rate_ready.next = pins.rate_ready;
        u.m_cnp_ready.next = pins.cnp_ready;
        u.now.next = time_word(&pins.now);
        u.now_cnp.next = cnp_time_word(&pins.now);
        u.tbl_we.next = pins.tbl.is_some();
        u.tbl_addr.next = b(pins.tbl.map_or(0, |t| t.0)).into();
        u.tbl_data.next = b(pins.tbl.map_or(0, |t| t.1)).into();
    }};
}
pub(crate) use drive_core_pins;

/// The core's outputs read from a rust-hdl top `u` with the core's port names.
macro_rules! read_core_outs {
    ($u:expr) => {{
        let u = $u;
        CoreOuts {
            ctl_ready: u.s_ctl_ready.val(),
            cnp_ready: u.s_cnp_ready.val(),
            tx_ready: u.s_tx_ready.val(),
            query_ready: u.s_query_ready.val(),
            rx_ready: u.s_rx_ready.val(),
            ack_ready: u.s_ack_ready.val(),
            busy: u.busy.val(),
            rate: u.m_rate_valid.val().then(|| RateOut {
                qp: u.m_rate_qp.val().to_u32(),
                query: u.m_rate_query.val(),
                ctl: u.m_rate_ctl.val(),
                mode: u.m_rate_mode.val().to_u32(),
                report: crate::replay::RpReport {
                    limited: u.m_rate_limited.val(),
                    rc_mbps_q8: u.m_rate_rc.val().to_u32(),
                    rt_mbps_q8: u.m_rate_rt.val().to_u32(),
                    alpha_q20: u.m_rate_alpha.val().to_u32(),
                },
                u_q24: u.m_rate_u.val().to_u64(),
                window: u.m_rate_window.val().to_u32(),
            }),
            cnp: u.m_cnp_valid.val().then(|| CnpRequest {
                qp: u.m_cnp_qp.val().to_u32(),
                dscp: u.m_cnp_dscp.val().to_u32(),
                prio: u.m_cnp_prio.val().to_u32(),
            }),
            bad_qp: BadQpCounts {
                cnp: u.cnt_bad_qp_cnp.val().to_u64(),
                tx: u.cnt_bad_qp_tx.val().to_u64(),
                query: u.cnt_bad_qp_query.val().to_u64(),
                rx: u.cnt_bad_qp_rx.val().to_u64(),
                ack: u.cnt_bad_ack.val().to_u64(),
            },
            np: NpCounts {
                sent: u.cnt_cnp_sent.val().to_u64(),
                suppressed: u.cnt_cnp_suppressed.val().to_u64(),
                stall: u.cnt_cnp_stall.val().to_u64(),
            },
            cnp_received: u.cnt_cnp_received.val().to_u64(),
            rate_cuts: u.cnt_rate_cuts.val().to_u64(),
            increase: IncCounts {
                fr: u.cnt_increase_fr.val().to_u64(),
                ai: u.cnt_increase_ai.val().to_u64(),
                hai: u.cnt_increase_hai.val().to_u64(),
            },
            acks: AckCounts {
                ignored: u.cnt_ack_ignored.val().to_u64(),
                applied: u.cnt_ack_applied.val().to_u32(),
                commits: u.cnt_ack_commits.val().to_u32(),
            },
        }
    }};
}
pub(crate) use read_core_outs;

impl<const QB: usize> CycleDut<CorePins, CoreOuts> for HdlCore<QB> {
    fn eval(&mut self, pins: &CorePins) -> CoreOuts {
        let u = self.uut.as_mut();
        drive_core_pins!(&mut *u, pins);
        settle(u);
        read_core_outs!(&*u)
    }

    fn clock(&mut self) {
        tick(self.uut.as_mut(), |u| &mut u.clock);
    }
}

/// Reset, load the RP's power table during the RAM sweep, wait for the sweep to end; every
/// implementation sees the same pins. Returns the number of set-up cycles.
pub fn core_bring_up(
    p: &Params,
    duts: &mut [Named<'_, CorePins, CoreOuts>],
) -> Result<u64, Divergence<CoreOuts>> {
    let now = Timebase::new(p).at_cycle(0);
    bring_up(
        duts,
        table_writes(&RpConfig::new(p)),
        |reset, tbl| CorePins {
            reset,
            rate_ready: true,
            cnp_ready: true,
            now,
            tbl,
            ..Default::default()
        },
        |o: &CoreOuts| o.busy,
    )
}
