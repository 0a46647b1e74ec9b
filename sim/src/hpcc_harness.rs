//! Cycle-level harness of the HPCC window unit: one set of pins, three implementations
//! ([`GoldenHpccCycle`], [`HdlHpcc`], and `VerilatedHpcc` in [`crate::verilated`]), compared
//! every cycle by [`crate::lockstep`].
//!
//! [`GoldenHpccCycle`] states the unit's timing, which exists nowhere else outside the RTL
//! (`roce_cc_hdl::hpcc_window::window`, `docs/hpcc_window.md`): the ACK queue
//! (`ACK_QUEUE` entries in arrival order) and the command register, the issue rules (a QP
//! issued in the last `SPACING - 1` cycles holds its next event; the oldest queued ACK that
//! need not wait goes; ACKs of one QP stay in order; ACKs and commands alternate; an ACK
//! and a command of one QP go in the order they were taken; an event issues only while
//! fewer than `REP_CREDITS` reports are owed), the reset sweep, the pipeline's `LATENCY`, the report FIFO with its registered
//! read and output register, and the counters. What an event does to its QP is the golden
//! model's ([`crate::hpcc_window::HpccWindow`]), applied when the event issues: the spacing
//! rule makes that equal to applying it in the pipeline, since a QP's events are issued in
//! order and each reads the state its predecessor wrote.

use crate::hpcc_window::{
    Ack, AckEffect, HOPS_MAX, Hop, HpccConfig, HpccParams, HpccWindow as GoldenHpcc,
};
use crate::lockstep::CycleDut;
use roce_cc_hdl::hpcc_window::hop_load::{CodeConsts, KQ_SH_W, KTX_SH_W};
use roce_cc_hdl::hpcc_window::window::{
    ACK_QUEUE, CMD_QUERY, EFFECT_NEW_PATH, EFFECT_NO_HOP, EFFECT_UPDATE, HOPS, HpccCfgWord,
    HpccReport, HpccWindow as HdlHpccWindow, IntHop, KIND_ACK, KIND_INIT, KIND_QUERY, LATENCY,
    REP_CREDITS, REP_FIFO_AW, SPACING,
};
use rust_hdl::prelude::*;
use std::collections::VecDeque;

const _: () = assert!(HOPS == HOPS_MAX);

/// One report of the unit, in plain integers (`HpccReport`'s fields).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HpccRep {
    /// `KIND_ACK`, `KIND_INIT` or `KIND_QUERY`.
    pub kind: u8,
    /// `EFFECT_NEW_PATH`, `EFFECT_NO_HOP` (also every command) or `EFFECT_UPDATE`.
    pub effect: u8,
    /// The ACK committed (`seq > last_update_seq` on a known path).
    pub commit: bool,
    /// R, Mb/s Q.8.
    pub r: u32,
    /// Rc, Mb/s Q.8.
    pub rc: u32,
    /// U, Q.24.
    pub u: u64,
    /// inc_stage.
    pub stage: u8,
    /// The window, bytes.
    pub window: u32,
}

impl HpccRep {
    /// The report of an event of `kind` that left QP state `s` behind.
    fn of(
        cfg: &HpccConfig,
        kind: u64,
        effect: u64,
        commit: bool,
        s: &crate::hpcc_window::HpccQp,
    ) -> Self {
        Self {
            kind: kind as u8,
            effect: effect as u8,
            commit,
            r: s.r,
            rc: s.rc,
            u: s.u,
            stage: s.stage,
            window: cfg.window_bytes(s.r),
        }
    }

    /// The hardware's report word.
    pub fn from_hdl(r: &HpccReport) -> Self {
        Self {
            kind: r.kind.to_u64() as u8,
            effect: r.effect.to_u64() as u8,
            commit: r.commit,
            r: r.r.to_u64() as u32,
            rc: r.rc.to_u64() as u32,
            u: r.u.to_u64(),
            stage: r.stage.to_u64() as u8,
            window: r.window.to_u64() as u32,
        }
    }
}

/// The unit's input pins for one cycle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HpccPins {
    pub reset: bool,
    /// ACK stream: `Some((qp, ack))` = valid. `ack.nhop` is 1..=5 (the core refuses others).
    pub ack: Option<(u32, Ack)>,
    /// Command stream: `Some((qp, op))` = valid (`CMD_INIT` or `CMD_QUERY`).
    pub cmd: Option<(u32, u8)>,
    /// Report consumer ready.
    pub rep_ready: bool,
}

/// The unit's outputs in one cycle (before the clock edge).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HpccOuts {
    pub ack_ready: bool,
    pub cmd_ready: bool,
    pub busy: bool,
    /// The report stream's payload when `m_rep_valid`: `(qp, report)`.
    pub rep: Option<(u32, HpccRep)>,
    /// ACKs applied (reported).
    pub acks: u32,
    /// ACKs that committed.
    pub commits: u32,
}

/// Edges from an event's issue (the cycle its `go` is high) to the cycle its report is in
/// the register that writes the FIFO: the issue register, then `LATENCY` pipeline edges.
pub const REPORT_DELAY: usize = LATENCY + 1;

const FIFO_DEPTH: usize = 1 << REP_FIFO_AW;

/// The golden HPCC window unit with the hardware's timing (see the module doc).
pub struct GoldenHpccCycle {
    unit: GoldenHpcc,
    qps: u32,
    /// The ACK queue in arrival order: (QP, ACK, the held command was taken before it).
    aq: Vec<(u32, Ack, bool)>,
    /// The command holding register.
    pc: Option<(u32, u8)>,
    /// QPs issued in the last `SPACING - 1` cycles (index 0: the last).
    hist: [Option<u32>; SPACING - 1],
    pref_c: bool,
    busy: bool,
    sweep: u32,
    owed: u32,
    /// Reports of issued events, newest first; `pipe[REPORT_DELAY - 1]` is the report
    /// register (`None`: no event, or a silent sweep init).
    pipe: VecDeque<Option<(u32, HpccRep)>>,
    fifo: [(u32, HpccRep); FIFO_DEPTH],
    wr_ptr: u8,
    head: u8,
    rd_valid: bool,
    rd_data: (u32, HpccRep),
    o_valid: bool,
    o: (u32, HpccRep),
    acks: u32,
    commits: u32,
    pins: HpccPins,
    outs: HpccOuts,
    /// The issue decision of the last `eval`: (sweep, command, ACK).
    go: (bool, bool, bool),
    /// The queue entry of the ACK that may issue (the oldest that need not wait).
    take: Option<usize>,
}

impl GoldenHpccCycle {
    /// `qps` QPs (a power of two) with parameters `p`.
    pub fn new(p: &HpccParams, qps: u32) -> Self {
        assert!(qps.is_power_of_two());
        Self {
            unit: GoldenHpcc::new(p, qps as usize),
            qps,
            aq: Vec::with_capacity(ACK_QUEUE),
            pc: None,
            hist: [None; SPACING - 1],
            pref_c: false,
            busy: false,
            sweep: 0,
            owed: 0,
            pipe: VecDeque::from(vec![None; REPORT_DELAY]),
            fifo: [(0, HpccRep::default()); FIFO_DEPTH],
            wr_ptr: 0,
            head: 0,
            rd_valid: false,
            rd_data: (0, HpccRep::default()),
            o_valid: false,
            o: (0, HpccRep::default()),
            acks: 0,
            commits: 0,
            pins: HpccPins::default(),
            outs: HpccOuts::default(),
            go: (false, false, false),
            take: None,
        }
    }

    /// The golden unit's state (every QP).
    pub fn unit(&self) -> &GoldenHpcc {
        &self.unit
    }

    /// Whether the unit holds no event and no report: no sweep, the ACK queue and the
    /// command register empty, no QP issued in the spacing window, the pipeline, the FIFO
    /// and the output register empty. (`owed` counts every report from its issue until
    /// the output register hands it over, so with `owed == 0` the pipeline holds none:
    /// the sweep's entries are empty.)
    fn is_empty(&self) -> bool {
        !self.busy
            && self.owed == 0
            && !self.o_valid
            && !self.rd_valid
            && self.head == self.wr_ptr
            && self.aq.is_empty()
            && self.pc.is_none()
            && self.hist.iter().all(Option::is_none)
    }

    /// The issue decision: (sweep, command, ACK), and the queue entry of the ACK that may
    /// issue.
    fn decide(&self) -> ((bool, bool, bool), Option<usize>) {
        let recent = |qp: u32| self.hist.iter().any(|h| *h == Some(qp));
        let cmd_qp = self.pc.map(|(q, _)| q);
        // The oldest entry that need not wait. (ACKs of one QP keep their order without a
        // rule of their own: two entries of one QP wait alike, see the unit's module doc.)
        let take = (0..self.aq.len()).find(|&e| {
            let (q, _, cmd_first) = self.aq[e];
            !recent(q) && !(cmd_first && cmd_qp == Some(q))
        });
        let blk_c = cmd_qp.is_some_and(|qc| {
            recent(qc)
                || self
                    .aq
                    .iter()
                    .any(|(q, _, cmd_first)| *q == qc && !cmd_first)
        });
        let credit = self.owed < REP_CREDITS as u32;
        let go_s = self.busy;
        let go_c =
            !self.busy && self.pc.is_some() && !blk_c && credit && (self.pref_c || take.is_none());
        let go_a = !self.busy && take.is_some() && credit && !go_c;
        ((go_s, go_c, go_a), take)
    }

    /// Applies the issued event to the golden state; its report (`None` for the sweep).
    fn issue(&mut self, go: (bool, bool, bool)) -> Option<(u32, Option<(u32, HpccRep)>)> {
        let cfg = self.unit.cfg;
        match go {
            (true, _, _) => {
                let qp = self.sweep;
                self.unit.reset_qp(qp);
                Some((qp, None))
            }
            (false, true, _) => {
                let (qp, op) = self.pc.expect("a held command");
                let kind = if u64::from(op) == CMD_QUERY {
                    KIND_QUERY
                } else {
                    self.unit.reset_qp(qp);
                    KIND_INIT
                };
                let s = &self.unit.qps[qp as usize];
                Some((
                    qp,
                    Some((qp, HpccRep::of(&cfg, kind, EFFECT_NO_HOP, false, s))),
                ))
            }
            (false, false, true) => {
                let (qp, ack, _) = self.aq[self.take.expect("an ACK that may issue")];
                let (effect, commit) = match self.unit.on_ack(qp, &ack) {
                    AckEffect::NewPath => (EFFECT_NEW_PATH, false),
                    AckEffect::NoHop { commit } => (EFFECT_NO_HOP, commit),
                    AckEffect::Update { commit } => (EFFECT_UPDATE, commit),
                };
                let s = &self.unit.qps[qp as usize];
                Some((
                    qp,
                    Some((qp, HpccRep::of(&cfg, KIND_ACK, effect, commit, s))),
                ))
            }
            _ => None,
        }
    }
}

impl CycleDut<HpccPins, HpccOuts> for GoldenHpccCycle {
    fn eval(&mut self, pins: &HpccPins) -> HpccOuts {
        // The pins the edge needs; an ACK's INT stack is copied only when one is offered.
        self.pins.reset = pins.reset;
        self.pins.cmd = pins.cmd;
        self.pins.rep_ready = pins.rep_ready;
        if pins.ack.is_some() {
            self.pins.ack = pins.ack;
        } else {
            self.pins.ack = None;
        }
        (self.go, self.take) = self.decide();
        let (_, go_c, _) = self.go;
        self.outs = HpccOuts {
            ack_ready: !self.busy && self.aq.len() < ACK_QUEUE,
            cmd_ready: !self.busy && (self.pc.is_none() || go_c),
            busy: self.busy,
            rep: self.o_valid.then_some(self.o),
            acks: self.acks,
            commits: self.commits,
        };
        self.outs
    }

    fn clock(&mut self) {
        if self.pins.reset {
            let mut fresh = Self::new_like(self);
            fresh.unit.qps = std::mem::take(&mut self.unit.qps);
            *self = fresh;
            for qp in 0..self.qps {
                self.unit.reset_qp(qp);
            }
            return;
        }
        if self.pins.ack.is_none() && self.pins.cmd.is_none() && self.is_empty() {
            // Nothing queued, in flight or reported, and nothing offered: the edge changes
            // no register but the output register's and the FIFO read's data (copies of the
            // FIFO's head, not valid), as the full rules below.
            debug_assert!(self.pipe.iter().all(Option::is_none));
            self.o = self.rd_data;
            self.rd_data = self.fifo[self.head as usize % FIFO_DEPTH];
            return;
        }
        let pins = self.pins;
        let go @ (go_s, go_c, go_a) = self.go;
        let outs = self.outs;
        // The report register writes the FIFO; the counters count it.
        let rep_reg = self.pipe[REPORT_DELAY - 1];
        // The output register and the FIFO's read side.
        let o_free = !self.o_valid || pins.rep_ready;
        let o_pop = self.o_valid && pins.rep_ready;
        let rd_adv = o_free && self.rd_valid;
        if o_free {
            self.o_valid = self.rd_valid;
            self.o = self.rd_data;
        }
        let head_next = if rd_adv {
            self.head.wrapping_add(1) & 0x7f
        } else {
            self.head
        };
        self.rd_valid = head_next != self.wr_ptr;
        self.head = head_next;
        if let Some(r) = rep_reg {
            self.fifo[self.wr_ptr as usize % FIFO_DEPTH] = r;
            self.wr_ptr = self.wr_ptr.wrapping_add(1) & 0x7f;
            if u64::from(r.1.kind) == KIND_ACK {
                self.acks = self.acks.wrapping_add(1);
                self.commits = self.commits.wrapping_add(u32::from(r.1.commit));
            }
        }
        self.rd_data = self.fifo[head_next as usize % FIFO_DEPTH];
        // Reports owed.
        match (go_a || go_c, o_pop) {
            (true, false) => self.owed += 1,
            (false, true) => self.owed -= 1,
            _ => {}
        }
        // Issue.
        let issued = self.issue(go);
        self.pipe.pop_back();
        self.pipe.push_front(issued.and_then(|(_, r)| r));
        self.hist.copy_within(0..SPACING - 2, 1);
        self.hist[0] = issued.map(|(qp, _)| qp);
        if go_s {
            if self.sweep == self.qps - 1 {
                self.busy = false;
            }
            self.sweep = (self.sweep + 1) % self.qps;
        }
        if go_c {
            self.pref_c = false;
        }
        if go_a {
            self.pref_c = true;
        }
        // The ACK queue and the command register.
        let ack_in = pins.ack.filter(|_| outs.ack_ready);
        let cmd_in = pins.cmd.filter(|_| outs.cmd_ready);
        if go_a {
            self.aq.remove(self.take.expect("an ACK that may issue"));
        }
        if let Some((qp, ack)) = ack_in {
            self.aq.push((qp, ack, self.pc.is_some() && !go_c));
        }
        if cmd_in.is_some() {
            for entry in &mut self.aq {
                entry.2 = false;
            }
        }
        if go_c {
            self.pc = None;
        }
        if cmd_in.is_some() {
            self.pc = cmd_in;
        }
    }
}

impl GoldenHpccCycle {
    /// A unit in the state a reset edge leaves (every register of `old` that reset clears
    /// cleared; the QP state is swept separately).
    fn new_like(old: &Self) -> Self {
        Self {
            unit: GoldenHpcc {
                cfg: old.unit.cfg,
                qps: Vec::new(),
            },
            qps: old.qps,
            aq: Vec::with_capacity(ACK_QUEUE),
            pc: None,
            hist: [None; SPACING - 1],
            pref_c: false,
            busy: true,
            sweep: 0,
            owed: 0,
            pipe: VecDeque::from(vec![None; REPORT_DELAY]),
            fifo: old.fifo,
            wr_ptr: 0,
            head: 0,
            rd_valid: false,
            rd_data: old.rd_data,
            o_valid: false,
            o: old.o,
            acks: 0,
            commits: 0,
            pins: old.pins,
            outs: old.outs,
            go: (false, false, false),
            take: None,
        }
    }
}

/// The hardware configuration of `cfg`: the unit's `cfg` and `cfg_k` words.
pub fn hpcc_cfg_words(cfg: &HpccConfig) -> (HpccCfgWord, CodeConsts) {
    let word = HpccCfgWord {
        t_ns: (cfg.t_ns as u64).into(),
        inv_m: (cfg.inv_t.m as u64).into(),
        ws_base: cfg.inv_t.shift(17).into_bits6(),
        eta: (cfg.eta as u64).into(),
        max_stage: (cfg.max_stage as u64).into(),
        ai: (cfg.ai as u64).into(),
        min_rate: (cfg.min_rate as u64).into(),
        max_rate: (cfg.max_rate as u64).into(),
        win_m: (cfg.win_k.m as u64).into(),
        win_sh: cfg.win_k.shift(0).into_bits6(),
    };
    let tm = |c: usize| -> Bits<18> { (cfg.k_tx[c].m as u64).into() };
    let ts = |c: usize| -> Bits<KTX_SH_W> { (cfg.k_tx[c].shift(2) as u64).into() };
    let qm = |c: usize| -> Bits<18> { (cfg.k_q[c].m as u64).into() };
    let qs = |c: usize| -> Bits<KQ_SH_W> { (cfg.k_q[c].shift(9) as u64).into() };
    let k = CodeConsts {
        ktx_m0: tm(0),
        ktx_m1: tm(1),
        ktx_m2: tm(2),
        ktx_m3: tm(3),
        ktx_m4: tm(4),
        ktx_m5: tm(5),
        ktx_m6: tm(6),
        ktx_m7: tm(7),
        ktx_sh0: ts(0),
        ktx_sh1: ts(1),
        ktx_sh2: ts(2),
        ktx_sh3: ts(3),
        ktx_sh4: ts(4),
        ktx_sh5: ts(5),
        ktx_sh6: ts(6),
        ktx_sh7: ts(7),
        kq_m0: qm(0),
        kq_m1: qm(1),
        kq_m2: qm(2),
        kq_m3: qm(3),
        kq_m4: qm(4),
        kq_m5: qm(5),
        kq_m6: qm(6),
        kq_m7: qm(7),
        kq_sh0: qs(0),
        kq_sh1: qs(1),
        kq_sh2: qs(2),
        kq_sh3: qs(3),
        kq_sh4: qs(4),
        kq_sh5: qs(5),
        kq_sh6: qs(6),
        kq_sh7: qs(7),
    };
    (word, k)
}

/// A 6-bit shift field.
trait IntoBits6 {
    fn into_bits6(self) -> Bits<6>;
}

impl IntoBits6 for u32 {
    fn into_bits6(self) -> Bits<6> {
        assert!(self < 64, "shift {self} does not fit 6 bits");
        (self as u64).into()
    }
}

/// The hardware's INT hop word of `h`.
pub fn int_hop(h: &Hop) -> IntHop {
    IntHop {
        rate: (h.rate as u64).into(),
        ts: (h.ts as u64).into(),
        tx: (h.tx as u64).into(),
        qlen: (h.qlen as u64).into(),
    }
}

/// rust-hdl's simulation passes allowed per settle: the unit's five `HopLoad`s and their
/// constants take more passes than the other tops' 1000.
const SETTLE_PASSES: usize = 4000;

/// rust-hdl's own simulation of the unit with `2^QB` QPs.
pub struct HdlHpcc<const QB: usize> {
    uut: Box<HdlHpccWindow<QB>>,
}

impl<const QB: usize> HdlHpcc<QB> {
    pub fn new(p: &HpccParams) -> Self {
        let mut uut = Box::<HdlHpccWindow<QB>>::default();
        uut.connect_all();
        let (w, k) = hpcc_cfg_words(&HpccConfig::new(p));
        uut.cfg.next = w;
        uut.cfg_k.next = k;
        crate::hdl_sim::settle_within(uut.as_mut(), SETTLE_PASSES);
        Self { uut }
    }
}

impl<const QB: usize> CycleDut<HpccPins, HpccOuts> for HdlHpcc<QB> {
    fn eval(&mut self, pins: &HpccPins) -> HpccOuts {
        let u = self.uut.as_mut();
        u.reset.next = pins.reset;
        u.s_ack_valid.next = pins.ack.is_some();
        let (qp, ack) = pins.ack.unwrap_or_default();
        u.s_ack_qp.next = (qp as u64).into();
        u.s_ack_seq.next = (ack.seq as u64).into();
        u.s_ack_snd_nxt.next = (ack.snd_nxt as u64).into();
        u.s_ack_nhop.next = (ack.nhop as u64).into();
        for i in 0..HOPS {
            u.s_ack_hop[i].next = int_hop(&ack.hops[i]);
        }
        u.s_cmd_valid.next = pins.cmd.is_some();
        let (cqp, op) = pins.cmd.unwrap_or_default();
        u.s_cmd_qp.next = (cqp as u64).into();
        u.s_cmd_op.next = op != 0;
        u.m_rep_ready.next = pins.rep_ready;
        crate::hdl_sim::settle_within(u, SETTLE_PASSES);
        HpccOuts {
            ack_ready: u.s_ack_ready.val(),
            cmd_ready: u.s_cmd_ready.val(),
            busy: u.busy.val(),
            rep: u.m_rep_valid.val().then(|| {
                (
                    u.m_rep_qp.val().to_u64() as u32,
                    HpccRep::from_hdl(&u.m_rep.val()),
                )
            }),
            acks: u.cnt_acks.val().to_u64() as u32,
            commits: u.cnt_commits.val().to_u64() as u32,
        }
    }

    fn clock(&mut self) {
        crate::hdl_sim::tick_within(self.uut.as_mut(), |u| &mut u.clock, SETTLE_PASSES);
    }
}
