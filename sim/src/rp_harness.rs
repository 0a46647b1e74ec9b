//! Cycle-level harness of the reaction point: one set of pins, three implementations.
//!
//! * [`GoldenRpCycle`]: the golden model ([`crate::dcqcn_rp`]) wrapped in the RP's
//!   documented pipeline timing (arbitration, latency, backpressure, reset sweep).
//! * [`HdlRp`]: rust-hdl's own simulation of `roce_cc_hdl::dcqcn_rp::DcqcnRp`.
//! * `VerilatedRp` (in [`crate::verilated`]): the Verilog of the same design, Verilated.
//!
//! All three implement [`CycleDut`]`<RpPins, RpOuts>` (`crate::lockstep`), and the
//! three-way tests drive them through it. Each cycle: `eval` applies the pins and returns
//! the outputs as they are before the clock edge; `clock` is the rising edge.

use crate::dcqcn_rp::{DcqcnRp, POW_TABLE, QpState, RpConfig, RpKind};
use crate::hdl_sim::{settle, tick};
use crate::lockstep::CycleDut;
use crate::replay::RpReport;
use crate::timebase::{Radix, TimeStamp};
use roce_cc_hdl::dcqcn_rp::DcqcnRp as HdlDcqcnRp;
use roce_cc_hdl::dcqcn_rp::state::{QpWord, RpCfgWord, RpEvent, TimeWord};
use roce_cc_hdl::dcqcn_rp::update::UPD_STAGES;
use roce_cc_hdl::dcqcn_rp::{CHECK_EDGES, QB_CAP, QB_N, REP_CREDITS, REP_FIFO_AW};
use roce_cc_params::Params;
use rust_hdl::prelude::*;

/// The RP's input pins for one cycle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RpPins {
    pub reset: bool,
    /// Command stream: `Some((qp, RpKind::Reset | RpKind::SetMode { .. } | RpKind::Query))`
    /// = valid (a query here is the register block's).
    pub ctl: Option<(u32, RpKind)>,
    /// CNP stream: `Some(qp)` = valid.
    pub cnp: Option<u32>,
    /// Packet stream: `Some((qp, bytes))` = valid.
    pub tx: Option<(u32, u32)>,
    /// Query stream: `Some(qp)` = valid.
    pub query: Option<u32>,
    /// Report consumer ready.
    pub m_ready: bool,
    /// Now.
    pub now: TimeStamp,
    /// Power-table write `(addr, data)`.
    pub tbl: Option<(u32, u32)>,
}

/// The RP's output pins in one cycle (before the clock edge).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RpOuts {
    pub ctl_ready: bool,
    pub cnp_ready: bool,
    pub tx_ready: bool,
    pub query_ready: bool,
    pub busy: bool,
    /// The report stream's payload when `m_rate_valid`.
    pub report: Option<RateOut>,
    /// `cnt_cnp_received`.
    pub cnp_received: u64,
    /// `cnt_rate_cuts`.
    pub rate_cuts: u64,
    /// `cnt_increase_fr`, `cnt_increase_ai`, `cnt_increase_hai` (they lag
    /// `cnt_cnp_received` by [`INC_COUNT_LAG`] cycles).
    pub increase: IncCounts,
}

/// The increase-event counters by phase.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct IncCounts {
    /// `cnt_increase_fr`: fast recovery.
    pub fr: u64,
    /// `cnt_increase_ai`: additive increase.
    pub ai: u64,
    /// `cnt_increase_hai`: hyper increase.
    pub hai: u64,
}

/// Cycles by which the increase-event counters lag `cnt_cnp_received` and
/// `cnt_rate_cuts`: the event's write back loads the first of the counter pipeline's
/// stages (`roce_cc_hdl::dcqcn_rp::inc_count`), the counters take it on the `INC_COUNT_LAG`th edge
/// after. The stages run every cycle, stall or not.
pub const INC_COUNT_LAG: usize = roce_cc_hdl::dcqcn_rp::inc_count::INC_COUNT_LAG;

impl IncCounts {
    fn of(c: &crate::dcqcn_rp::RpCounters) -> Self {
        Self {
            fr: c.increase_fr,
            ai: c.increase_ai,
            hai: c.increase_hai,
        }
    }
}

/// One report of the RP's report stream: `qp`'s state after an event, or now for a query.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RateOut {
    pub qp: u32,
    /// The report answers a query (`m_rate_query`).
    pub query: bool,
    /// The report follows a command (`m_rate_ctl`).
    pub ctl: bool,
    /// The QP's mode after the event (`m_rate_mode`).
    pub mode: u32,
    pub report: RpReport,
    /// HPCC's U, Q.24 (`m_rate_u` of the core; 0 for other modes and from the RP alone).
    pub u_q24: u64,
    /// HPCC's window, bytes (`m_rate_window` of the core; 0 as `u_q24`).
    pub window: u32,
}

/// Which input, if any, the arbiter takes (the one valid input whose ready is high).
pub fn accepted(pins: &RpPins, outs: &RpOuts) -> Option<(u32, RpKind)> {
    if let (Some(c), true) = (pins.ctl, outs.ctl_ready) {
        Some(c)
    } else if let (Some(qp), true) = (pins.cnp, outs.cnp_ready) {
        Some((qp, RpKind::Cnp))
    } else if let (Some((qp, bytes)), true) = (pins.tx, outs.tx_ready) {
        Some((qp, RpKind::Tx { bytes }))
    } else if let (Some(qp), true) = (pins.query, outs.query_ready) {
        Some((qp, RpKind::Query))
    } else {
        None
    }
}

/// Which of the input classes (command, CNP, packet, query) are valid.
fn valids(pins: &RpPins) -> [bool; 4] {
    [
        pins.ctl.is_some(),
        pins.cnp.is_some(),
        pins.tx.is_some(),
        pins.query.is_some(),
    ]
}

/// The round-robin arbiter: for each input class, whether a valid class it serves first
/// holds it back. The classes set in `mask` go first, in order, then the others in order.
pub fn arbiter_blocked(mask: &[bool; 4], valid: &[bool; 4]) -> [bool; 4] {
    let order = |k: usize| (usize::from(!mask[k]), k);
    std::array::from_fn(|i| (0..4).any(|k| k != i && valid[k] && order(k) < order(i)))
}

/// The arbiter's mask after it took class `k`: the classes after it.
pub fn arbiter_mask_after(k: usize) -> [bool; 4] {
    std::array::from_fn(|i| i > k)
}

/// An accepted event on its way through the pipeline: QP, kind, its time, from the
/// command stream.
type InFlight = (u32, RpKind, TimeStamp, bool);

/// Pipeline slots an event passes before it is applied: S1, S2 and the update's
/// registers.
const PIPE_SLOTS: usize = 2 + UPD_STAGES;

/// Slots whose events block an offered event on the same QP (when they write): S1, S2 and
/// the update's registers but the last two, whose words the forwarding registers catch.
const HAZARD_SLOTS: usize = UPD_STAGES;

/// An entry of the input queue: the accepted event, its input class (0 command, 1 CNP, 2
/// packet, 3 query), its place in the order of acceptance, and the edge that wrote it.
#[derive(Clone, Copy)]
struct QueueEntry {
    ev: InFlight,
    cls: usize,
    /// The follower check of the entry: the edge at which its result is registered (the
    /// check loaded it [`CHECK_EDGES`] edges before); `None` when the entry is not checked
    /// and not being checked (the RTL's `qb_ckf`, `qb_ck`).
    ck_done: Option<u64>,
    /// The entry was found blocked (the RTL's `qb_wb`): until its check is in, a writer of
    /// its QP in the window makes it known to wait.
    was_blk: bool,
    seq: u64,
    written: u64,
}

/// The golden model with the RP's pipeline timing (see `hdl::dcqcn_rp` docs).
pub struct GoldenRpCycle {
    rp: DcqcnRp,
    qps: u32,
    busy_left: u32,
    /// The input queue's entries (`QB_N`; an accepted event is written to the lowest free
    /// one and stays there until it goes to S1).
    entries: [Option<QueueEntry>; QB_N],
    /// Entries in use (so an empty queue is known without reading them).
    queued: usize,
    /// Edges since reset (the current cycle follows edge `edge`), and acceptances.
    edge: u64,
    seq: u64,
    /// Per entry, computed at the last edge from the entries then: an older valid entry
    /// held its QP (the RTL's `qb_blk`; false for entries that were free then).
    blk: [bool; QB_N],
    /// HZ's entry: it goes to S1 with its word read from the state RAM at the first edge
    /// at which a credit is left and no follower goes. It came from HN, so neither an
    /// older entry nor a writer of its QP holds it.
    hz: Option<usize>,
    /// HN, HZ's next entry: at each edge at which HZ is empty or its event goes, HZ takes
    /// it, and HN takes the oldest entry written at least three edges before (its hazard
    /// bits exact in the RTL) that is neither HZ's nor HN's and that neither an older entry
    /// nor a writer of its QP in the first `HAZARD_SLOTS` slots holds (such an entry stays
    /// free until it goes: an older entry of its QP cannot arrive and a writer of its QP
    /// could only come from one); HN takes it at other edges too while it is empty.
    hz_next: Option<usize>,
    /// An entry of the queue is free (the RTL's `full_q` clear).
    room: bool,
    /// Input class `k` is not accepted: at the edge before the last, [`QB_CAP`] of its
    /// entries were known to wait (valid, not written at the edge before, and blocked by an
    /// older entry of their QP or, when written two edges before or earlier, matched by a
    /// writer in the window whose stamp their check found a microsecond or more before
    /// theirs or, before their check is in, having been found blocked). The RTL counts
    /// them over two cycles.
    cap: [bool; 4],
    /// Per input class, its entries known to wait at the last edge (`cap` at the next).
    waiting: [usize; 4],
    /// The round-robin arbiter's mask (`arb_m`): the input classes (0 command, 1 CNP, 2
    /// packet, 3 query) after the one taken last; they go first, in order, then the rest.
    arb_mask: [bool; 4],
    /// The events in flight, newest first: S1, S2, then the update's registers
    /// (`UPD_STAGES` of them); the last one is applied at the next advancing edge.
    pipe: [Option<InFlight>; PIPE_SLOTS],
    /// Beside `pipe`: the slot's event went as a follower.
    pipe_fol: [bool; PIPE_SLOTS],
    /// `pipe` and `pipe_fol` are rings: slot 0 (S1) is at index `pipe_at`, slot `i` at
    /// `(pipe_at + i) % PIPE_SLOTS` (moving the pipeline is one index step, not a copy).
    pipe_at: usize,
    /// Events that went as followers since the model was made.
    followers: u64,
    /// The report register: the report of the event applied at the last edge.
    rep: Option<RateOut>,
    /// The report FIFO's memory (`2^REP_FIFO_AW` entries) and pointers (one bit wider).
    fifo: Vec<Option<RateOut>>,
    wr_ptr: usize,
    /// `wr_ptr` one edge ago: the entries the FIFO's registered read can see.
    wr_seen: usize,
    /// The oldest report not yet in the output register.
    head: usize,
    /// The FIFO's read register (the entry at `head`, valid when `head != wr_seen`).
    rd_data: Option<RateOut>,
    /// The output register (`m_rate_*`).
    out: Option<RateOut>,
    /// Events from the edge after they entered the first pipeline slot to the output
    /// register, and whether that was below `REP_CREDITS` at the last edge (HZ sends an
    /// event into the first slot only then).
    owed: usize,
    credit: bool,
    /// The golden increase counters after each of the last `INC_COUNT_LAG + 1` edges, a
    /// ring whose oldest entry is at `inc_at`: the outputs show the oldest, the counters
    /// as they were `INC_COUNT_LAG` edges before the last one.
    inc_lag: [IncCounts; INC_COUNT_LAG + 1],
    inc_at: usize,
    pins: RpPins,
    outs: RpOuts,
}

impl GoldenRpCycle {
    pub fn new(p: &Params) -> Self {
        Self {
            rp: DcqcnRp::new(p),
            qps: p.qps,
            busy_left: 0,
            entries: [None; QB_N],
            queued: 0,
            edge: 0,
            seq: 0,
            blk: [false; QB_N],
            hz: None,
            hz_next: None,
            room: true,
            cap: [false; 4],
            waiting: [0; 4],
            arb_mask: [false; 4],
            pipe: [None; PIPE_SLOTS],
            pipe_fol: [false; PIPE_SLOTS],
            pipe_at: 0,
            followers: 0,
            rep: None,
            fifo: vec![None; 1 << REP_FIFO_AW],
            wr_ptr: 0,
            wr_seen: 0,
            head: 0,
            rd_data: None,
            out: None,
            owed: 0,
            credit: true,
            inc_lag: Default::default(),
            inc_at: 0,
            pins: RpPins::default(),
            outs: RpOuts::default(),
        }
    }
}

impl CycleDut<RpPins, RpOuts> for GoldenRpCycle {
    fn eval(&mut self, pins: &RpPins) -> RpOuts {
        // The inputs are ready while the queue has room and no input the arbiter serves
        // first is valid; the hazard check happens behind the queue.
        let room = self.room && self.busy_left == 0;
        let v = valids(pins);
        let seen = [0, 1, 2, 3].map(|k| v[k] && !self.cap[k]);
        let blocked = arbiter_blocked(&self.arb_mask, &seen);
        let ready = [0, 1, 2, 3].map(|k| room && !blocked[k] && !self.cap[k]);
        let outs = RpOuts {
            ctl_ready: ready[0],
            cnp_ready: ready[1],
            tx_ready: ready[2],
            query_ready: ready[3],
            busy: self.busy_left > 0,
            report: self.out,
            cnp_received: self.rp.counters.cnp_received,
            rate_cuts: self.rp.counters.rate_cuts,
            increase: self.inc_lag[self.inc_at],
        };
        self.pins = *pins;
        self.outs = outs;
        outs
    }

    fn clock(&mut self) {
        self.step();
        // The counter pipeline: the counters as they were after the edge INC_COUNT_LAG
        // edges before this one (reset clears the stages and the counters at once).
        // The oldest entry's slot takes the newest, and the next slot is the oldest.
        self.inc_lag[self.inc_at] = IncCounts::of(&self.rp.counters);
        self.inc_at = (self.inc_at + 1) % (INC_COUNT_LAG + 1);
        if self.pins.reset {
            self.inc_lag = Default::default();
        }
    }
}

impl GoldenRpCycle {
    /// The golden model's counters now (the outputs show the increase counters
    /// [`INC_COUNT_LAG`] cycles later).
    pub fn counters(&self) -> crate::dcqcn_rp::RpCounters {
        self.rp.counters
    }

    /// Events that went into the pipeline as followers (their word from the same-QP block)
    /// since the model was made: the tests use it to show that their stimulus makes some.
    pub fn followers(&self) -> u64 {
        self.followers
    }

    /// One edge of the event pipeline.
    fn step(&mut self) {
        let pins = self.pins;
        if pins.reset {
            self.entries = [None; QB_N];
            self.queued = 0;
            self.edge = 0;
            self.blk = [false; QB_N];
            self.hz = None;
            self.hz_next = None;
            self.room = true;
            self.cap = [false; 4];
            self.waiting = [0; 4];
            self.arb_mask = [false; 4];
            self.pipe = [None; PIPE_SLOTS];
            self.pipe_fol = [false; PIPE_SLOTS];
            self.pipe_at = 0;
            self.rep = None;
            self.wr_ptr = 0;
            self.wr_seen = 0;
            self.head = 0;
            self.out = None;
            self.owed = 0;
            self.credit = true;
            self.busy_left = self.qps;
            self.rp.reset();
            return;
        }
        self.busy_left = self.busy_left.saturating_sub(1);
        if !valids(&pins).contains(&true) && self.is_empty() {
            // Nothing queued, in flight or reported, and nothing offered: the edge moves no
            // event and changes no register but the FIFO's read of its head and the credit
            // (the full rules below leave every other register as it is).
            debug_assert!(self.pipe.iter().all(Option::is_none));
            self.rd_data = self.fifo[self.head & (self.fifo.len() - 1)];
            self.credit = self.owed < REP_CREDITS;
            self.edge += 1;
            return;
        }
        let ctl = pins.ctl.is_some() && self.outs.ctl_ready;
        let ready = [
            self.outs.ctl_ready,
            self.outs.cnp_ready,
            self.outs.tx_ready,
            self.outs.query_ready,
        ];
        let cls = (0..4).find(|&k| valids(&pins)[k] && ready[k]);
        if let Some(k) = cls {
            self.arb_mask = arbiter_mask_after(k);
        }
        let push = accepted(&pins, &self.outs)
            .zip(cls)
            .map(|((qp, kind), k)| ((qp, kind, pins.now, ctl), k));
        // The report FIFO and the output register.
        let ptr_mask = (2 << REP_FIFO_AW) - 1;
        let o_free = self.out.is_none() || pins.m_ready;
        let o_pop = self.out.is_some() && pins.m_ready;
        let rd_valid = self.head != self.wr_seen;
        let mut head_next = self.head;
        if o_free {
            self.out = if rd_valid { self.rd_data } else { None };
            if rd_valid {
                head_next = (self.head + 1) & ptr_mask;
            }
        }
        let rd_data = self.fifo[head_next & (self.fifo.len() - 1)];
        self.head = head_next;
        self.wr_seen = self.wr_ptr;
        if let Some(r) = self.rep {
            let n = self.fifo.len();
            self.fifo[self.wr_ptr & (n - 1)] = Some(r);
            self.wr_ptr = (self.wr_ptr + 1) & ptr_mask;
        }
        self.rd_data = rd_data;
        // The pipeline (it never waits), and the reports owed: an event is counted at the
        // edge after the one that took it into the first slot (it is there now).
        let counted = self.slot(0).is_some();
        self.advance(push);
        let credit = self.owed < REP_CREDITS;
        self.owed = self.owed + usize::from(counted) - usize::from(o_pop);
        self.credit = credit;
    }

    /// Whether the unit holds no event and no report: the input queue, HZ and HN, the
    /// pipeline, the report register, the FIFO and the output register empty, the sweep
    /// over, and no class known to wait. (`owed` counts every event from the edge after it
    /// entered S1 until the output register hands its report over, so with `owed == 0`
    /// and S1 empty the pipeline holds none.)
    fn is_empty(&self) -> bool {
        self.busy_left == 0
            && self.owed == 0
            && self.slot(0).is_none()
            && self.rep.is_none()
            && self.out.is_none()
            && self.head == self.wr_ptr
            && self.wr_seen == self.wr_ptr
            && self.hz.is_none()
            && self.hz_next.is_none()
            && self.room
            && self.cap == [false; 4]
            && self.waiting == [0; 4]
            && self.blk == [false; QB_N]
            && self.queued == 0
    }

    /// The event in pipeline slot `i` (0 = S1).
    fn slot(&self, i: usize) -> Option<InFlight> {
        self.pipe[(self.pipe_at + i) % PIPE_SLOTS]
    }

    /// The position of the youngest event in the first `HAZARD_SLOTS` slots that writes
    /// entry `e`'s QP.
    fn writer(&self, e: usize) -> Option<usize> {
        let q = self.entries[e]?.ev.0;
        (0..HAZARD_SLOTS).position(|i| {
            self.slot(i)
                .is_some_and(|(qp, kind, _, _)| qp == q && kind != RpKind::Query)
        })
    }

    /// The pipeline moves one slot (the last one's event is applied into the report
    /// register); at most one event of the queue enters S1: the oldest entry whose check
    /// is in and whose event may follow ([`GoldenRpCycle::may_follow`]), else HZ's; HZ
    /// takes HN's entry when it is empty or its event goes, and HN the oldest entry free
    /// of its QP (`hz_next`); the follower check loads the oldest entry not checked, not
    /// in the check and not known to be blocked (its result is in [`CHECK_EDGES`] edges
    /// later), and the check of an entry known to be blocked is void; the accepted event
    /// is written to the lowest free entry; the classes with [`QB_CAP`] entries known to
    /// wait (blocked, or with a writer of their QP in the window and checked unable to
    /// follow it or, unchecked, found blocked before) are not taken from the edge after
    /// the next.
    fn advance(&mut self, push: Option<(InFlight, usize)>) {
        let k = self.edge;
        let valid = |e: usize| self.entries[e].is_some();
        let nw = |e: usize| self.entries[e].is_some_and(|x| x.written == k);
        let nw2 = |e: usize| self.entries[e].is_some_and(|x| x.written + 1 == k);
        let seq = |e: usize| self.entries[e].map_or(u64::MAX, |x| x.seq);
        // Each entry's follower check: its result is in from the edge `ck_done` on.
        let checked = |e: usize| self.entries[e].is_some_and(|x| x.ck_done.is_some_and(|d| d <= k));
        let known_blk = |e: usize| self.blk[e] && !nw(e);
        // With the queue empty (most edges) every search below finds nothing.
        let queued = self.queued > 0;
        debug_assert_eq!(self.queued, self.entries.iter().flatten().count());
        // The decision: the oldest entry whose event may go as a follower goes; else HZ's.
        let fol = (0..QB_N)
            .filter(|_| queued)
            .filter(|&e| {
                self.credit
                    && checked(e)
                    && !self.blk[e]
                    && self.writer(e).is_some_and(|i| self.may_follow(e, i))
            })
            .min_by_key(|&e| seq(e));
        let any_fol = fol.is_some();
        debug_assert!(
            self.hz
                .is_none_or(|h| self.writer(h).is_none() && !self.blk[h])
        );
        let take_hz = self.hz.is_some() && self.credit && !any_fol;
        let hz_leave = self.hz.is_none() || take_hz;
        // HN's next entry and the check's.
        let cand = |e: usize| {
            valid(e)
                && Some(e) != self.hz
                && Some(e) != self.hz_next
                && !nw(e)
                && !nw2(e)
                && !self.blk[e]
                && self.writer(e).is_none()
        };
        let pick = (0..QB_N)
            .filter(|&e| queued && cand(e))
            .min_by_key(|&e| seq(e));
        let nx = (0..QB_N)
            .filter(|&e| {
                queued && self.entries[e].is_some_and(|x| x.ck_done.is_none()) && !known_blk(e)
            })
            .min_by_key(|&e| seq(e));
        // Each entry's `blk` after the edge, from the entries now.
        let mut blk = [false; QB_N];
        for (e, b) in blk.iter_mut().enumerate().filter(|_| queued) {
            if let Some(x) = self.entries[e] {
                *b = self
                    .entries
                    .iter()
                    .flatten()
                    .any(|y| y.seq < x.seq && y.ev.0 == x.ev.0);
            }
        }
        // The classes with `QB_CAP` entries known to wait.
        let mut waiting = [0usize; 4];
        for e in (0..QB_N).filter(|_| queued) {
            if let Some(x) = self.entries[e]
                && !nw(e)
                && (self.blk[e]
                    || self.writer(e).is_some_and(|i| {
                        !nw2(e)
                            && if checked(e) {
                                !self.close(e, i)
                            } else {
                                x.was_blk
                            }
                    }))
            {
                waiting[x.cls] += 1;
            }
        }
        let void: [bool; QB_N] = std::array::from_fn(|e| queued && known_blk(e));
        let nvalid = (0..QB_N).filter(|&e| queued && valid(e)).count();
        let free = (0..QB_N).find(|&e| !queued || !valid(e));
        // The pipeline.
        self.rep = None;
        if let Some((qp, kind, now, ctl)) = self.slot(PIPE_SLOTS - 1) {
            let report = self.rp.apply(&now, qp, kind);
            self.rep = Some(RateOut {
                qp,
                query: kind == RpKind::Query,
                ctl,
                mode: self.rp.qps[qp as usize].mode,
                report,
                u_q24: 0,
                window: 0,
            });
        }
        // Every slot moves one on: the last slot's index becomes slot 0's.
        self.pipe_at = (self.pipe_at + PIPE_SLOTS - 1) % PIPE_SLOTS;
        self.pipe[self.pipe_at] = None;
        self.pipe_fol[self.pipe_at] = false;
        let taken = if any_fol {
            fol
        } else if take_hz {
            self.hz
        } else {
            None
        };
        if let Some(t) = taken {
            self.pipe[self.pipe_at] = self.entries[t].take().map(|x| x.ev);
            self.queued -= 1;
            self.pipe_fol[self.pipe_at] = any_fol;
            self.followers += u64::from(any_fol);
            debug_assert!(pick != Some(t) && self.hz_next != Some(t));
        }
        let hn_load = hz_leave || self.hz_next.is_none();
        if hz_leave {
            self.hz = self.hz_next;
        }
        if hn_load {
            self.hz_next = pick;
        }
        // A check of an entry found blocked is void (its QP's writers may change); the
        // check loads the oldest entry not checked and not known to be blocked.
        for (e, void) in void.into_iter().enumerate().filter(|_| queued) {
            if void && let Some(x) = self.entries[e].as_mut() {
                x.ck_done = None;
                x.was_blk = true;
            }
        }
        if let Some(x) = nx.and_then(|e| self.entries[e].as_mut()) {
            x.ck_done = Some(k + 1 + CHECK_EDGES as u64);
        }
        self.blk = blk;
        self.room = nvalid + usize::from(push.is_some()) - usize::from(taken.is_some()) < QB_N;
        self.cap = self.waiting.map(|n| n >= QB_CAP);
        self.waiting = waiting;
        if let Some((ev, cls)) = push {
            let w = free.expect("the inputs are ready only while an entry is free");
            self.queued += 1;
            self.entries[w] = Some(QueueEntry {
                ev,
                cls,
                ck_done: None,
                was_blk: false,
                seq: self.seq,
                written: k + 1,
            });
            self.seq += 1;
        }
        self.edge += 1;
    }

    /// Whether entry `f`'s event may go now as a follower of the writer of its QP in slot
    /// `i` (the youngest): that one will be `i + 1` slots ahead of it, at least 8 (9 if it
    /// is not a follower itself: the same-QP block takes a leader's word from W1, a cycle
    /// after its own result), and its time stamp is less than a microsecond before the
    /// event's (at most one of the QP's timer instants between them: `update_near`'s
    /// condition).
    fn may_follow(&self, f: usize, i: usize) -> bool {
        let d = i + 1;
        (d >= 9 || (d == 8 && self.pipe_fol[(self.pipe_at + i) % PIPE_SLOTS])) && self.close(f, i)
    }

    /// Whether entry `f`'s event's stamp is less than a microsecond after that of the event
    /// in slot `i`: the same microsecond, or the next one and an earlier cycle within it
    /// (in the increase timer's radix).
    fn close(&self, f: usize, i: usize) -> bool {
        let (
            Some(QueueEntry {
                ev: (_, _, f, _), ..
            }),
            Some((_, _, p, _)),
        ) = (self.entries[f], self.slot(i))
        else {
            return false;
        };
        let p_inc = self.rp.cfg.p_inc;
        let next = if p.inc.rem + 1 == p_inc {
            Radix {
                epoch: p.inc.epoch.wrapping_add(1),
                rem: 0,
            }
        } else {
            Radix {
                epoch: p.inc.epoch,
                rem: p.inc.rem + 1,
            }
        };
        f.inc == p.inc || (f.inc == next && f.sub < p.sub)
    }
}

/// The command pins `(op, mode, rate)` of a command (0s when there is none).
pub fn ctl_fields(ctl: Option<(u32, RpKind)>) -> (u32, u32, u32) {
    match ctl {
        Some((_, RpKind::SetMode { mode, rate_q8 })) => (1, mode, rate_q8),
        Some((_, RpKind::Query)) => (2, 0, 0),
        Some((_, RpKind::Reset)) | None => (0, 0, 0),
        Some((_, other)) => panic!("{other:?} is not a command"),
    }
}

/// The hardware configuration word for `cfg`.
pub fn cfg_word(cfg: &RpConfig) -> RpCfgWord {
    RpCfgWord {
        p_alpha: b(cfg.p_alpha),
        p_dec: b(cfg.p_dec),
        p_inc: b(cfg.p_inc),
        recip_alpha: b(cfg.recip_alpha),
        recip_inc: b(cfg.recip_inc),
        max_rate: b(cfg.max_rate),
        ai_rate: b(cfg.ai_rate),
        hai_rate: b(cfg.hai_rate),
        min_rate: b(cfg.min_rate),
        first_rate: b(cfg.first_rate),
        alpha_init: b(cfg.alpha_init),
        g: b(cfg.g),
        cut_shift: b(cfg.cut_shift),
        max_cut_q16: b(cfg.max_cut_q16),
        threshold: b(cfg.threshold),
        byte_reset: b(cfg.byte_reset),
        clamp_tgt_rate: cfg.clamp_tgt_rate,
        clamp_after_t: cfg.clamp_tgt_rate_after_time_inc,
        recip_ai: b(cfg.recip_ai),
        recip_hai: b(cfg.recip_hai),
    }
}

/// The hardware time word for `now`.
pub fn time_word(now: &TimeStamp) -> TimeWord {
    TimeWord {
        sub: b(now.sub),
        a_e: b(now.alpha.epoch),
        a_r: b(now.alpha.rem),
        d_e: b(now.dec.epoch),
        d_r: b(now.dec.rem),
        i_e: b(now.inc.epoch),
        i_r: b(now.inc.rem),
    }
}

/// The hardware word of a golden QP state (`QpWord` mirrors `QpState` field for field).
pub fn qp_word(s: &QpState) -> QpWord {
    QpWord {
        limited: s.limited,
        rc: b(s.rc),
        rt: b(s.rt),
        alpha: b(s.alpha),
        t: b(s.t),
        bc: b(s.bc),
        acc: b(s.acc),
        cnp_alpha: s.cnp_alpha,
        cnp_dec: s.cnp_dec,
        sub: b(s.sub),
        ta_e: b(s.ta.epoch),
        ta_r: b(s.ta.rem),
        td_e: b(s.td.epoch),
        td_r: b(s.td.rem),
        ti_e: b(s.ti.epoch),
        ti_r: b(s.ti.rem),
        tda_e: b(s.tda.epoch),
        tda_r: b(s.tda.rem),
        tdi_e: b(s.tdi.epoch),
        tdi_r: b(s.tdi.rem),
        mode: b(s.mode),
        host_rate: b(s.host_rate),
    }
}

/// The golden QP state a hardware word holds (the inverse of [`qp_word`]).
pub fn qp_state(w: &QpWord) -> QpState {
    let n = |x: u64| x as u32;
    let r = |e: Bits<32>, m: Bits<17>| Radix {
        epoch: n(e.to_u64()),
        rem: n(m.to_u64()),
    };
    QpState {
        limited: w.limited,
        rc: n(w.rc.to_u64()),
        rt: n(w.rt.to_u64()),
        alpha: n(w.alpha.to_u64()),
        t: n(w.t.to_u64()),
        bc: n(w.bc.to_u64()),
        acc: n(w.acc.to_u64()),
        cnp_alpha: w.cnp_alpha,
        cnp_dec: w.cnp_dec,
        sub: n(w.sub.to_u64()),
        ta: r(w.ta_e, w.ta_r),
        td: r(w.td_e, w.td_r),
        ti: r(w.ti_e, w.ti_r),
        tda: r(w.tda_e, w.tda_r),
        tdi: r(w.tdi_e, w.tdi_r),
        mode: n(w.mode.to_u64()),
        host_rate: n(w.host_rate.to_u64()),
    }
}

/// The hardware form of an event accepted at `now` (`RpEvent`'s kind codes: 0 CNP,
/// 1 packet, 2 query, 3 reset, 4 set mode), as if from the command stream when `ctl`.
pub fn rp_event(kind: RpKind, now: &TimeStamp, ctl: bool) -> RpEvent {
    let (k, bytes, mode, rate) = match kind {
        RpKind::Cnp => (0, 0, 0, 0),
        RpKind::Tx { bytes } => (1, bytes, 0, 0),
        RpKind::Query => (2, 0, 0, 0),
        RpKind::Reset => (3, 0, 0, 0),
        RpKind::SetMode { mode, rate_q8 } => (4, 0, mode, rate_q8),
    };
    RpEvent {
        kind: b(k),
        bytes: b(bytes),
        mode: b(mode),
        rate: b(rate),
        now: time_word(now),
        ctl,
    }
}

/// The power-table writes `(addr, data)` that load `cfg`'s table (`c^j` at `j`, `c^(128 j)`
/// at `128 + j`).
pub fn table_writes(cfg: &RpConfig) -> Vec<(u32, u32)> {
    let lo = cfg.pow_lo.iter().enumerate().map(|(j, v)| (j as u32, *v));
    let hi = cfg
        .pow_hi
        .iter()
        .enumerate()
        .map(|(j, v)| ((POW_TABLE + j) as u32, *v));
    lo.chain(hi).collect()
}

/// rust-hdl's own simulation of the RP with `2^QB` QPs.
pub struct HdlRp<const QB: usize> {
    uut: Box<HdlDcqcnRp<QB>>,
}

impl<const QB: usize> HdlRp<QB> {
    pub fn new(p: &Params) -> Self {
        assert_eq!(1u32 << QB, p.qps, "HdlRp<{QB}> built for {} QPs", p.qps);
        let mut uut = Box::new(HdlDcqcnRp::<QB>::new());
        uut.connect_all();
        uut.cfg.next = cfg_word(&RpConfig::new(p));
        settle(uut.as_mut());
        Self { uut }
    }

    /// State RAM reads that met a write to their QP so far (rust-hdl's model returned the
    /// new word, Verilator the old: see `roce_cc_hdl::state_ram`).
    pub fn state_ram_collisions(&self) -> u64 {
        self.uut.state_ram_collisions()
    }
}

/// A `Bits<N>` from a `u32`.
fn b<const N: usize>(x: u32) -> Bits<N> {
    (x as u64).into()
}

impl<const QB: usize> CycleDut<RpPins, RpOuts> for HdlRp<QB> {
    fn eval(&mut self, pins: &RpPins) -> RpOuts {
        let u = self.uut.as_mut();
        u.reset.next = pins.reset;
        let (ctl_op, ctl_mode, ctl_rate) = ctl_fields(pins.ctl);
        u.s_ctl_valid.next = pins.ctl.is_some();
        u.s_ctl_qp.next = (pins.ctl.map_or(0, |c| c.0) as u64).into();
        u.s_ctl_op.next = (ctl_op as u64).into();
        u.s_ctl_mode.next = (ctl_mode as u64).into();
        u.s_ctl_rate.next = (ctl_rate as u64).into();
        u.s_cnp_valid.next = pins.cnp.is_some();
        u.s_cnp_qp.next = (pins.cnp.unwrap_or(0) as u64).into();
        u.s_tx_valid.next = pins.tx.is_some();
        u.s_tx_qp.next = (pins.tx.map_or(0, |t| t.0) as u64).into();
        u.s_tx_bytes.next = (pins.tx.map_or(0, |t| t.1) as u64).into();
        u.s_query_valid.next = pins.query.is_some();
        u.s_query_qp.next = (pins.query.unwrap_or(0) as u64).into();
        u.m_rate_ready.next = pins.m_ready;
        u.now.next = time_word(&pins.now);
        u.tbl_we.next = pins.tbl.is_some();
        u.tbl_addr.next = (pins.tbl.map_or(0, |t| t.0) as u64).into();
        u.tbl_data.next = (pins.tbl.map_or(0, |t| t.1) as u64).into();
        settle(u);
        RpOuts {
            ctl_ready: u.s_ctl_ready.val(),
            cnp_ready: u.s_cnp_ready.val(),
            tx_ready: u.s_tx_ready.val(),
            query_ready: u.s_query_ready.val(),
            busy: u.busy.val(),
            report: u.m_rate_valid.val().then(|| RateOut {
                qp: u.m_rate_qp.val().to_u32(),
                query: u.m_rate_query.val(),
                ctl: u.m_rate_ctl.val(),
                mode: u.m_rate_mode.val().to_u32(),
                report: RpReport {
                    limited: u.m_rate_limited.val(),
                    rc_mbps_q8: u.m_rate_rc.val().to_u32(),
                    rt_mbps_q8: u.m_rate_rt.val().to_u32(),
                    alpha_q20: u.m_rate_alpha.val().to_u32(),
                },
                u_q24: 0,
                window: 0,
            }),
            cnp_received: u.cnt_cnp_received.val().to_u64(),
            rate_cuts: u.cnt_rate_cuts.val().to_u64(),
            increase: IncCounts {
                fr: u.cnt_increase_fr.val().to_u64(),
                ai: u.cnt_increase_ai.val().to_u64(),
                hai: u.cnt_increase_hai.val().to_u64(),
            },
        }
    }

    fn clock(&mut self) {
        tick(self.uut.as_mut(), |u| &mut u.clock);
    }
}
