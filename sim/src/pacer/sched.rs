//! `PacerCycle`: the golden model of the pacer top (`roce_cc_hdl::pacer::sched::Pacer`),
//! cycle by cycle: the doorbell, rate and ACK paths, the grant pipeline, the eligible set,
//! the two timing wheels and the grant FIFO, with the hardware's latencies and its rules
//! for the races between them. `docs/pacer.md` ("The pacer top") describes the same design
//! for a reader; this module is its exact statement.
//!
//! # Where a QP is
//!
//! A QP with bytes to send is in exactly one place: the eligible set, the fine wheel, the
//! coarse wheel, the grant pipeline, or parked (its window full). A QP with none is idle.
//! Only the grant pipeline reads and writes a QP's schedule (`next`, `sent`, `fresh`), and a
//! QP is in it at most once, so that state needs no forwarding. The doorbell, rate and ACK
//! paths write their own memories (`posted`, the rate word, `acked`), which the grant
//! pipeline reads; three per-QP bits settle the races between them:
//!
//! - `active`: the QP has bytes (set by a doorbell that finds it clear, which also puts the
//!   QP into the eligible set; cleared when a grant leaves it without bytes).
//! - `parked`: the QP waits for its window (set by the grant pipeline; an ACK that moves
//!   `acked`, or a rate report, clears it and puts the QP into the eligible set).
//! - `poke`: a doorbell, a rate report or a taken ACK wrote the QP's memories after the
//!   grant pipeline read them. Cleared when an operation on the QP is issued; a QP that the
//!   route stage would make idle or park is put into the eligible set instead when its poke
//!   is set (or its memories are written in the route's cycle), so no doorbell or ACK is
//!   lost between the read and the decision.
//!
//! # Cycle by cycle
//!
//! Doorbell (`post`), accepted in cycle `p` (`s_post_ready` is `!busy`): `posted` is read at
//! the edge of `p` and written `posted + bytes` in cycle `p + 1`; in that cycle a post of
//! nonzero bytes to a QP whose `active` bit is clear sets it and puts the QP into the
//! eligible set, else it sets the QP's `poke`.
//!
//! Rate reports and ACKs share one side path, one accepted per cycle (when both are
//! offered they take turns). Accepted in cycle `s`: a rate goes through `PacerCpb` (cycles
//! per byte, 8 registers) and is written with its window in cycle `s + 8`; an ACK reads
//! `acked` at the edge of `s + 7` and in `s + 8` is taken when `seq - acked` is in
//! `1..2^31` (mod 2^32), and written. A rate report, or a taken ACK, unparks its QP (into
//! the eligible set) if it is parked, else sets its `poke`.
//!
//! The memories the side and doorbell paths write read as written in the same cycle
//! (write first): a read at the edge of a write to its address returns the new word.
//!
//! Grant pipeline: in cycle `c0` one operation is issued: the coarse wheel's release (a
//! wake, first: the wheel has no ready), else the eligible set's pick (a grant) when the
//! grant FIFO has room for every grant in flight. At the edge of `c0` the QP's memories
//! are read and its `poke` cleared.
//! - `c1`: `backlog = posted - sent`, `inflight = sent - acked`, `ahead = next - now`.
//! - `c2`: a fresh QP (one that was idle) starts at `now` unless its `next` is ahead of
//!   `now` by less than [`AHEAD_MAX`](super::AHEAD_MAX) (then it waits for `next`: `due`
//!   is whether `floor(next) <= now`); the packet `bytes = min(mtu_bytes, backlog)`; the
//!   grant's arithmetic (`PaceStep`, 6 registers) starts with `now` of `c1`.
//! - `c3`: the window allows the packet (no window, nothing in flight, or `inflight +
//!   bytes <= window`; an `inflight` of 2^31 or more counts as none).
//! - `c8` (route): a grant (the QP has bytes, is due and its window allows) goes into the
//!   FIFO, the QP's `next := max(next, t - gap) + gap`, `sent += bytes`; with no bytes
//!   left (and no poke) the QP becomes idle (`active` cleared, `fresh` set), else it is
//!   routed by its new `next`. A fresh QP not yet due is routed by its `next`; a QP whose
//!   window is full is parked (or, poked, put back into the eligible set). A wake is
//!   routed by its `next`.
//!
//! Route of a QP due at `d = floor(next)` in cycle `now`, held until `w = d - LEAD`
//! ([`LEAD`] = 4 cycles: a QP set into the eligible set at an edge is issued three edges
//! later at the earliest, and its grant's time is the cycle after the issue): `w <= now`:
//! into the eligible set; else `w` within the fine wheel's reach (`w - fine.cur < 256`):
//! into the fine wheel at `w` (released on its `m_qp` at `w + 1`); else into the coarse
//! wheel (units of 2^[`COARSE_SHIFT`] cycles, its `now` is `now >> 6`) at coarse time `c =
//! (w >> 6) - 1`, but not before `(now >> 6) + 1` nor after `coarse.cur + 255`. Released one coarse unit before `d`'s, the QP is routed again by a
//! wake, then normally into the fine wheel; a QP due beyond the coarse wheel's reach goes
//! round it again.
//!
//! The fine wheel's releases go into the eligible set. The grant FIFO ([`GRANT_FIFO`]
//! entries) is the output `m_grant_*` (valid while it holds a grant, popped by
//! `m_grant_ready`). The eligible set has four set ports: fine-wheel release, route,
//! doorbell start, unpark.
//!
//! `reset` (synchronous) empties everything and starts a sweep of `2^QB` cycles (`busy`)
//! that writes every QP's memories: nothing posted or sent, `acked` 0, `fresh`, no
//! window, cycles per byte 0 (unpaced: the port's rate) until the QP's first rate report.

use super::eligible::EligibleModel;
use super::wheel::{TIME_W, WheelModel, not_after48};
use super::{AHEAD_MAX, CYCLE, Cpb, FRAC_W, QpPace, cpb_of_rate};

/// Slots of the fine wheel: `2^FINE_SB` one-cycle slots (the hardware's).
pub const FINE_SB: u32 = roce_cc_hdl::pacer::sched::FINE_SB as u32;
/// Slots of the coarse wheel: `2^COARSE_SB`.
pub const COARSE_SB: u32 = roce_cc_hdl::pacer::sched::COARSE_SB as u32;
/// The coarse wheel's unit: `2^COARSE_SHIFT` cycles.
pub const COARSE_SHIFT: u32 = roce_cc_hdl::pacer::sched::COARSE_SHIFT as u32;
/// Entries of the grant FIFO.
pub const GRANT_FIFO: u32 = roce_cc_hdl::pacer::sched::GRANT_FIFO as u32;
/// Cycles from an operation's issue to its route stage.
pub const ROUTE_STAGE: usize = roce_cc_hdl::pacer::sched::ROUTE_STAGE;
/// Cycles from a side-path acceptance to its write.
pub const SIDE_STAGES: usize = roce_cc_hdl::pacer::sched::SIDE_STAGES;
/// Cycles before its time a QP leaves the wheels (the eligible set's latency to the
/// issue).
pub const LEAD: u64 = roce_cc_hdl::pacer::sched::LEAD as u64;

const TIME_MASK: u64 = (1 << TIME_W) - 1;

/// A rate report as the pacer takes it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RateIn {
    pub qp: u32,
    /// The QP's rate, Mb/s Q.8 (28 bits).
    pub rate_q8: u64,
    /// The QP's window, bytes (HPCC QPs), else `None`.
    pub window: Option<u32>,
}

/// The inputs of one cycle: each stream's offer (held until taken, by the caller).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PacerIn {
    pub reset: bool,
    /// The cycle, whole cycles (48 bits).
    pub now: u64,
    /// Doorbell `{qp, bytes}`.
    pub post: Option<(u32, u32)>,
    pub rate: Option<RateIn>,
    /// ACK `{qp, seq}`.
    pub ack: Option<(u32, u32)>,
    /// The port takes a grant.
    pub grant_ready: bool,
}

/// The outputs of one cycle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PacerOut {
    pub post_ready: bool,
    pub rate_ready: bool,
    pub ack_ready: bool,
    /// `m_grant_valid`, `{qp, bytes}`.
    pub grant: Option<(u32, u32)>,
    pub busy: bool,
    /// QPs with bytes posted and not granted (`backlogged`).
    pub backlogged: u32,
    /// `asleep`, `wake_en`, `wake_at`.
    pub sleep: PacerSleep,
}

/// When the pacer does something without an input (its `asleep`, `wake_en`, `wake_at`
/// outputs): asleep, it does nothing before `wake_at` (ever, without `wake_en`) unless a
/// doorbell, rate report or ACK comes in, or one offered in the last `SIDE_STAGES`
/// cycles is still in flight.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PacerSleep {
    /// Every QP with bytes is parked or waits in the coarse wheel's slots, no grant is
    /// owed, the coarse wheel releases nothing now and its scan has found its first QP.
    pub asleep: bool,
    /// The coarse wheel holds a QP.
    pub wake_en: bool,
    /// The coarse wheel's first slot (its scan), in cycles mod 2^48.
    pub wake_at: u64,
}

/// A QP's schedule (the grant pipeline's memory).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct StWord {
    next: u64,
    sent: u32,
    fresh: bool,
}

/// A QP's rate word (the side path's memory).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct RateWord {
    cpb: Cpb,
    window: Option<u32>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Grant,
    Wake,
}

/// An operation of the grant pipeline, with what it has computed so far.
#[derive(Clone, Copy, Debug)]
struct Op {
    kind: Kind,
    qp: u32,
    // Read at the issue edge.
    st: StWord,
    posted: u32,
    rate: RateWord,
    acked: u32,
    // c1.
    backlog: u32,
    inflight_raw: u32,
    ahead: u64,
    now1: u64,
    // c2.
    next_eff: u64,
    due: bool,
    has: bool,
    bytes: u32,
    /// PaceStep's results (its outputs at c8).
    next_out: u64,
    backlog_out: u32,
    // c3.
    allowed: bool,
    sent_new: u32,
}

#[derive(Clone, Copy, Debug)]
enum SideOp {
    Rate {
        qp: u32,
        cpb: Cpb,
        window: Option<u32>,
    },
    Ack {
        qp: u32,
        seq: u32,
        acked: u32,
    },
}

/// Counts of what the pacer did since it was built (not reset), for tests that show their
/// stimulus reaches every path.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PacerStats {
    /// Grants into the FIFO.
    pub grants: u64,
    /// Doorbells that started an idle QP; QPs made idle.
    pub starts: u64,
    pub idles: u64,
    /// Fresh QPs whose `next` was ahead (routed by it, not granted).
    pub not_due: u64,
    /// QPs parked for their window; unparked by an ACK or a rate report.
    pub parks: u64,
    pub unparks: u64,
    /// QPs put back into the eligible set because they were poked in flight.
    pub poked_back: u64,
    /// Route stage: into the eligible set, the fine wheel, the coarse wheel.
    pub to_eligible: u64,
    pub to_fine: u64,
    pub to_coarse: u64,
    /// Coarse-wheel releases (wakes issued).
    pub wakes: u64,
    /// ACKs not taken (not newer than `acked`).
    pub acks_refused: u64,
    /// Cycles `asleep`, and of them with a QP in the coarse wheel (`wake_en`).
    pub asleep: u64,
    pub asleep_wake: u64,
}

/// The pacer top of `qps` QPs, cycle by cycle.
#[derive(Clone, Debug)]
pub struct PacerCycle {
    qps: u32,
    clock_mhz: u32,
    mtu: u32,
    st: Vec<StWord>,
    posted: Vec<u32>,
    rate: Vec<RateWord>,
    acked: Vec<u32>,
    active: Vec<bool>,
    /// QPs whose `active` bit is set.
    n_active: u32,
    parked: Vec<bool>,
    /// QPs whose `parked` bit is set.
    n_parked: u32,
    poke: Vec<bool>,
    busy: bool,
    sweep: u32,
    /// The doorbell in its write cycle: `{qp, bytes, posted as read}`.
    post_w: Option<(u32, u32, u32)>,
    /// The side path: `side[k]` is the operation accepted `k + 1` cycles ago.
    side: [Option<SideOp>; SIDE_STAGES],
    ack_turn: bool,
    /// The grant pipeline, a ring: stage `k` (the operation issued `k + 1` cycles ago) is
    /// at index `(pipe_at + k) % ROUTE_STAGE` (advancing is one index step, not a copy).
    pipe: [Option<Op>; ROUTE_STAGE],
    pipe_at: usize,
    /// Operations in the grant pipeline (so an empty one is known without reading it).
    pipe_n: usize,
    eligible: EligibleModel,
    fine: WheelModel,
    coarse: WheelModel,
    fifo: std::collections::VecDeque<(u32, u32)>,
    /// Grants issued and neither popped nor discarded.
    owed: u32,
    /// Reads of the schedule memory at the edge of a write to it (never, by the design).
    pub collisions: u64,
    pub stats: PacerStats,
}

impl PacerCycle {
    /// The pacer of `qps` QPs (a power of two, 64..=16384) at `clock_mhz` with packets of at
    /// most `mtu_bytes`, in the cycle after a reset at `now` (its sweep running).
    pub fn new(qps: u32, clock_mhz: u32, mtu_bytes: u32, now: u64) -> Self {
        assert!(
            qps.is_power_of_two() && (64..=16384).contains(&qps),
            "PacerCycle: {qps} QPs (a power of two, 64..=16384)"
        );
        assert!(
            (64..=9216).contains(&mtu_bytes),
            "mtu_bytes {mtu_bytes}: 64..=9216"
        );
        let n = qps as usize;
        Self {
            qps,
            clock_mhz,
            mtu: mtu_bytes,
            st: vec![StWord::default(); n],
            posted: vec![0; n],
            rate: vec![RateWord::default(); n],
            acked: vec![0; n],
            active: vec![false; n],
            n_active: 0,
            parked: vec![false; n],
            n_parked: 0,
            poke: vec![false; n],
            busy: true,
            sweep: 0,
            post_w: None,
            side: [None; SIDE_STAGES],
            ack_turn: false,
            pipe: [None; ROUTE_STAGE],
            pipe_at: 0,
            pipe_n: 0,
            eligible: EligibleModel::new(qps),
            fine: WheelModel::new(qps, FINE_SB, now),
            coarse: WheelModel::new(qps, COARSE_SB, (now & TIME_MASK) >> COARSE_SHIFT),
            fifo: Default::default(),
            owed: 0,
            collisions: 0,
            stats: PacerStats::default(),
        }
    }

    /// The pacer as it powers up, before its first reset: the hardware's registers are
    /// zero, so it is not sweeping (`busy` low) and holds nothing; a reset must follow.
    pub fn at_power_up(qps: u32, clock_mhz: u32, mtu_bytes: u32) -> Self {
        let mut s = Self::new(qps, clock_mhz, mtu_bytes, 0);
        s.busy = false;
        s
    }

    /// The outputs in a cycle with inputs `i` (the readies of the side path depend on both
    /// of its offers).
    pub fn out(&self, i: &PacerIn) -> PacerOut {
        let (rate_ready, ack_ready) = self.side_readies(i);
        PacerOut {
            post_ready: !self.busy,
            rate_ready,
            ack_ready,
            grant: self.fifo.front().copied(),
            busy: self.busy,
            backlogged: self.n_active,
            sleep: self.sleep(),
        }
    }

    fn sleep(&self) -> PacerSleep {
        let held = self.coarse.held();
        let (first, first_valid) = self.coarse.first();
        PacerSleep {
            asleep: self.n_active == held + self.n_parked
                && self.coarse.out().is_none()
                && (held == 0 || first_valid)
                && self.owed == 0
                && !self.busy,
            wake_en: held > 0,
            wake_at: (first << COARSE_SHIFT) & TIME_MASK,
        }
    }

    fn side_readies(&self, i: &PacerIn) -> (bool, bool) {
        let open = !self.busy;
        (
            open && !(i.ack.is_some() && self.ack_turn),
            open && !(i.rate.is_some() && !self.ack_turn),
        )
    }

    /// Whether nothing is in flight and no QP has bytes (the sweep may still run).
    pub fn is_idle(&self) -> bool {
        self.post_w.is_none()
            && self.side.iter().all(Option::is_none)
            && self.pipe.iter().all(Option::is_none)
            && self.fifo.is_empty()
            && !self.active.iter().any(|&a| a)
    }

    /// Whether an edge with no input would only move the wheels and the eligible set: no
    /// sweep, no coarse release and no pick to issue, and the doorbell path, the side
    /// path, the grant pipeline and the grant FIFO empty.
    fn is_quiet(&self) -> bool {
        !self.busy
            && self.owed == 0
            && self.fifo.is_empty()
            && self.post_w.is_none()
            && self.coarse.out().is_none()
            && self.eligible.out().is_none()
            && self.side.iter().all(Option::is_none)
            && self.pipe_n == 0
    }

    /// Stage `k` of the grant pipeline (0: issued one cycle ago).
    fn stage(&self, k: usize) -> Option<Op> {
        self.pipe[(self.pipe_at + k) % ROUTE_STAGE]
    }

    /// Bytes granted to `qp` (mod 2^32) and its highest acknowledged sequence, as the
    /// memories hold them now (for stimulus that sends meaningful ACKs).
    pub fn sent_acked(&self, qp: u32) -> (u32, u32) {
        (self.st[qp as usize].sent, self.acked[qp as usize])
    }

    /// Bytes posted to `qp` and not granted (as the memories hold them now).
    pub fn backlog(&self, qp: u32) -> u32 {
        self.posted[qp as usize].wrapping_sub(self.st[qp as usize].sent)
    }

    /// The edge at the end of a cycle with inputs `i`.
    pub fn clock(&mut self, i: &PacerIn) {
        let now = i.now & TIME_MASK;
        let o = self.out(i);
        if i.reset {
            let (collisions, stats) = (self.collisions, self.stats);
            *self = Self::new(self.qps, self.clock_mhz, self.mtu, now);
            (self.collisions, self.stats) = (collisions, stats);
            return;
        }
        if i.post.is_none() && i.rate.is_none() && i.ack.is_none() && self.is_quiet() {
            // Nothing to issue and nothing in the doorbell path, the side path, the grant
            // pipeline or the grant FIFO, and nothing offered: the edge writes no memory
            // and changes no flag; only the wheels and the eligible set move (the fine
            // wheel's release goes into the set), as in the full rules below.
            let sl = o.sleep;
            self.stats.asleep += sl.asleep as u64;
            self.stats.asleep_wake += (sl.asleep && sl.wake_en) as u64;
            let fine = self.fine.out();
            self.eligible.clock(fine.as_slice(), false, false);
            self.fine.clock(now, None, false);
            self.coarse.clock(now >> COARSE_SHIFT, None, false);
            return;
        }
        // Issue.
        let wake = self.coarse.out();
        let pick = self.eligible.out();
        let grant_issue = !self.busy && wake.is_none() && pick.is_some() && self.owed < GRANT_FIFO;
        let issue = match (wake, grant_issue) {
            (Some(q), _) => Some((Kind::Wake, q)),
            (None, true) => Some((Kind::Grant, pick.unwrap())),
            _ => None,
        };
        // Doorbell write cycle.
        let mut start = None;
        let mut post_touch = None;
        let mut posted_w = None;
        if let Some((qp, bytes, old)) = self.post_w {
            posted_w = Some((qp, old.wrapping_add(bytes)));
            if bytes != 0 {
                post_touch = Some(qp);
                if !self.active[qp as usize] {
                    start = Some(qp);
                }
            }
        }
        // Side write cycle.
        let mut side_touch = None;
        let mut rate_w = None;
        let mut acked_w = None;
        match self.side[SIDE_STAGES - 1] {
            Some(SideOp::Rate { qp, cpb, window }) => {
                rate_w = Some((qp, RateWord { cpb, window }));
                side_touch = Some(qp);
            }
            Some(SideOp::Ack { qp, seq, acked }) => {
                let d = seq.wrapping_sub(acked);
                if d != 0 && d < 1 << 31 {
                    acked_w = Some((qp, seq));
                    side_touch = Some(qp);
                } else {
                    self.stats.acks_refused += 1;
                }
            }
            None => {}
        }
        let unpark = side_touch.filter(|&q| self.parked[q as usize]);
        // Route stage.
        let mut st_w = None;
        let mut route_elig = None;
        let mut fine_push = None;
        let mut coarse_push = None;
        let mut fifo_push = None;
        let mut discard = false;
        let mut idle = None;
        let mut park = None;
        if let Some(op) = self.stage(ROUTE_STAGE - 1) {
            let q = op.qp;
            let poked = self.poke[q as usize] || post_touch == Some(q) || side_touch == Some(q);
            let mut route_at = None;
            match op.kind {
                Kind::Wake => route_at = Some(op.next_eff),
                Kind::Grant => {
                    let granted = op.has && op.due && op.allowed;
                    discard = !granted;
                    if granted {
                        fifo_push = Some((q, op.bytes));
                        let empty = op.backlog_out == 0 && !poked;
                        st_w = Some(StWord {
                            next: op.next_out,
                            sent: op.sent_new,
                            fresh: empty,
                        });
                        if empty {
                            idle = Some(q);
                        } else {
                            route_at = Some(op.next_out);
                        }
                    } else if !op.has {
                        if poked {
                            route_elig = Some(q);
                        } else {
                            idle = Some(q);
                            st_w = Some(StWord {
                                next: op.next_eff,
                                sent: op.st.sent,
                                fresh: true,
                            });
                        }
                    } else {
                        st_w = Some(StWord {
                            next: op.next_eff,
                            sent: op.st.sent,
                            fresh: false,
                        });
                        if !op.due {
                            route_at = Some(op.next_eff);
                        } else if poked {
                            route_elig = Some(q);
                        } else {
                            park = Some(q);
                        }
                    }
                }
            }
            if let Some(t) = route_at {
                // The wheels hold the QP until `w`, LEAD cycles before its time: from
                // there the eligible set's latency brings it to the issue at its time.
                let w = ((t >> FRAC_W).wrapping_sub(LEAD)) & TIME_MASK;
                if not_after48(w, now) {
                    route_elig = Some(q);
                } else if (w.wrapping_sub(self.fine.cur()) & TIME_MASK) < 1 << FINE_SB {
                    fine_push = Some((q, w));
                } else {
                    let cn = now >> COARSE_SHIFT;
                    let cd = ((w >> COARSE_SHIFT).wrapping_sub(1)) & TIME_MASK;
                    let mut c = if not_after48(cd, cn) {
                        (cn + 1) & TIME_MASK
                    } else {
                        cd
                    };
                    let ccur = self.coarse.cur();
                    if (c.wrapping_sub(ccur) & TIME_MASK) >= 1 << COARSE_SB {
                        c = (ccur + (1 << COARSE_SB) - 1) & TIME_MASK;
                    }
                    coarse_push = Some((q, c));
                }
            }
        }
        let sl = o.sleep;
        let route_op = self.stage(ROUTE_STAGE - 1);
        let st = &mut self.stats;
        st.asleep += sl.asleep as u64;
        st.asleep_wake += (sl.asleep && sl.wake_en) as u64;
        st.grants += fifo_push.is_some() as u64;
        st.starts += start.is_some() as u64;
        st.idles += idle.is_some() as u64;
        st.parks += park.is_some() as u64;
        st.unparks += unpark.is_some() as u64;
        st.to_eligible += route_elig.is_some() as u64;
        st.to_fine += fine_push.is_some() as u64;
        st.to_coarse += coarse_push.is_some() as u64;
        st.wakes += wake.is_some() as u64;
        if let Some(op) = route_op {
            st.not_due += (op.kind == Kind::Grant && op.has && !op.due) as u64;
            st.poked_back += (op.kind == Kind::Grant
                && !(op.has && op.due && op.allowed)
                && (!op.has || op.due)
                && route_elig.is_some()) as u64;
        }
        // Memories: writes (or the sweep's), then the reads of this edge (write first).
        if self.busy {
            let a = self.sweep as usize;
            self.st[a] = StWord {
                next: 0,
                sent: 0,
                fresh: true,
            };
            self.posted[a] = 0;
            self.rate[a] = RateWord::default();
            self.acked[a] = 0;
        } else {
            if let (Some(w), Some(op)) = (st_w, self.stage(ROUTE_STAGE - 1)) {
                if issue.map(|(_, q)| q) == Some(op.qp) {
                    self.collisions += 1;
                }
                self.st[op.qp as usize] = w;
            }
            if let Some((q, v)) = posted_w {
                self.posted[q as usize] = v;
            }
            if let Some((q, w)) = rate_w {
                self.rate[q as usize] = w;
            }
            if let Some((q, v)) = acked_w {
                self.acked[q as usize] = v;
            }
        }
        // Bitmaps.
        self.n_active = self.n_active + start.is_some() as u32 - idle.is_some() as u32;
        self.n_parked = self.n_parked + park.is_some() as u32 - unpark.is_some() as u32;
        if let Some(q) = start {
            self.active[q as usize] = true;
        } else if let Some(q) = post_touch {
            self.poke[q as usize] = true;
        }
        if let Some(q) = unpark {
            self.parked[q as usize] = false;
        } else if let Some(q) = side_touch {
            self.poke[q as usize] = true;
        }
        if let Some(q) = idle {
            self.active[q as usize] = false;
        }
        if let Some(q) = park {
            self.parked[q as usize] = true;
        }
        if let Some((_, q)) = issue {
            self.poke[q as usize] = false;
        }
        // The grant pipeline advances (each stage's logic with this cycle's `now`).
        let mtu = self.mtu;
        // The ring turns by one (the route stage's slot, read above, becomes stage 0's);
        // the operations leaving c1, c2 and c3 are updated where they are.
        for k in 1..=3 {
            let at = (self.pipe_at + k - 1) % ROUTE_STAGE;
            if let Some(op) = self.pipe[at].as_mut() {
                match k {
                    // Leaving c1.
                    1 => {
                        op.backlog = op.posted.wrapping_sub(op.st.sent);
                        op.inflight_raw = op.st.sent.wrapping_sub(op.acked);
                        op.ahead = op.st.next.wrapping_sub(now << FRAC_W);
                        op.now1 = now;
                    }
                    // Leaving c2.
                    2 => {
                        let stale = op.ahead == 0 || op.ahead >= AHEAD_MAX;
                        let t1 = op.now1 << FRAC_W;
                        op.next_eff = if op.st.fresh && stale { t1 } else { op.st.next };
                        op.due = !op.st.fresh || stale || op.ahead < CYCLE;
                        op.has = op.backlog != 0;
                        let mut p = QpPace {
                            backlog: op.backlog as u64,
                            next: op.next_eff,
                            cpb: op.rate.cpb,
                            ..Default::default()
                        };
                        op.bytes = p.grant(t1, mtu);
                        op.next_out = p.next;
                        op.backlog_out = p.backlog as u32;
                    }
                    // Leaving c3.
                    3 => {
                        let inflight = if op.inflight_raw >= 1 << 31 {
                            0
                        } else {
                            op.inflight_raw
                        };
                        op.allowed = match op.rate.window {
                            None => true,
                            Some(w) => {
                                inflight == 0 || inflight as u64 + op.bytes as u64 <= w as u64
                            }
                        };
                        op.sent_new = op.st.sent.wrapping_add(op.bytes);
                    }
                    _ => {}
                }
            }
        }
        self.pipe_n = self.pipe_n + usize::from(issue.is_some()) - usize::from(route_op.is_some());
        debug_assert_eq!(
            self.pipe_n,
            self.pipe.iter().flatten().count() + usize::from(issue.is_some())
                - usize::from(route_op.is_some())
        );
        self.pipe_at = (self.pipe_at + ROUTE_STAGE - 1) % ROUTE_STAGE;
        self.pipe[self.pipe_at] = issue.map(|(kind, qp)| {
            let q = qp as usize;
            Op {
                kind,
                qp,
                st: self.st[q],
                posted: self.posted[q],
                rate: self.rate[q],
                acked: self.acked[q],
                backlog: 0,
                inflight_raw: 0,
                ahead: 0,
                now1: 0,
                next_eff: 0,
                due: false,
                has: false,
                bytes: 0,
                next_out: 0,
                backlog_out: 0,
                allowed: false,
                sent_new: 0,
            }
        });
        // The doorbell and side paths advance.
        self.post_w = i
            .post
            .filter(|_| o.post_ready)
            .map(|(q, b)| (q, b, self.posted[q as usize]));
        let mut side = [None; SIDE_STAGES];
        side[1..].copy_from_slice(&self.side[..SIDE_STAGES - 1]);
        if let Some(SideOp::Ack { qp, acked, .. }) = &mut side[SIDE_STAGES - 1] {
            *acked = self.acked[*qp as usize];
        }
        side[0] = if let Some(r) = i.rate.filter(|_| o.rate_ready) {
            Some(SideOp::Rate {
                qp: r.qp,
                cpb: cpb_of_rate(r.rate_q8, self.clock_mhz),
                window: r.window,
            })
        } else {
            i.ack
                .filter(|_| o.ack_ready)
                .map(|(qp, seq)| SideOp::Ack { qp, seq, acked: 0 })
        };
        if i.rate.is_some() && i.ack.is_some() && !self.busy {
            self.ack_turn = !self.ack_turn;
        }
        self.side = side;
        // Grant FIFO.
        let pop = o.grant.is_some() && i.grant_ready;
        if pop {
            self.fifo.pop_front();
        }
        if let Some(g) = fifo_push {
            self.fifo.push_back(g);
        }
        self.owed = self.owed + grant_issue as u32 - pop as u32 - discard as u32;
        // Eligible set, wheels.
        let (mut sets, mut n_sets) = ([0u32; 4], 0);
        for q in [self.fine.out(), route_elig, start, unpark]
            .into_iter()
            .flatten()
        {
            sets[n_sets] = q;
            n_sets += 1;
        }
        self.eligible.clock(&sets[..n_sets], grant_issue, false);
        self.fine.clock(now, fine_push, false);
        self.coarse.clock(now >> COARSE_SHIFT, coarse_push, false);
        // Sweep.
        if self.busy {
            self.sweep += 1;
            if self.sweep == self.qps {
                self.busy = false;
                self.sweep = 0;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A port that takes a packet when it is free: `bytes * 8 / line` cycles each.
    struct Port {
        free: u64,
        line: Cpb,
    }

    impl Port {
        fn ready(&self, now: u64) -> bool {
            super::super::not_after(self.free, (now << FRAC_W) + CYCLE - 1)
        }
        fn take(&mut self, now: u64, bytes: u32) {
            let t = now << FRAC_W;
            let start = if super::super::not_after(self.free, t) {
                t
            } else {
                self.free
            };
            self.free = start + super::super::cycles_q16(bytes, self.line);
        }
    }

    /// Runs `cycles` cycles after the sweep with the given rates (offered from the first
    /// cycle after the sweep, one a cycle, each held until taken) and then the posts (once
    /// the rates are written); returns the grants as (cycle, qp, bytes).
    fn run(
        p: &mut PacerCycle,
        port: &mut Port,
        posts: &[(u32, u32)],
        rates: &[RateIn],
        cycles: u64,
    ) -> Vec<(u64, u32, u32)> {
        let mut now = 0;
        while p.out(&PacerIn::default()).busy {
            p.clock(&PacerIn {
                now,
                ..Default::default()
            });
            now += 1;
        }
        let (mut pi, mut ri) = (0, 0);
        let mut got = Vec::new();
        let posts_from = now + rates.len() as u64 + SIDE_STAGES as u64 + 1;
        for _ in 0..cycles {
            let i = PacerIn {
                now,
                post: posts.get(pi).copied().filter(|_| now >= posts_from),
                rate: rates.get(ri).copied(),
                ack: None,
                grant_ready: port.ready(now),
                reset: false,
            };
            let o = p.out(&i);
            if o.post_ready && i.post.is_some() {
                pi += 1;
            }
            if o.rate_ready && i.rate.is_some() {
                ri += 1;
            }
            if let (Some((q, b)), true) = (o.grant, i.grant_ready) {
                port.take(now, b);
                got.push((now, q, b));
            }
            p.clock(&i);
            now += 1;
        }
        got
    }

    /// Every posted byte is granted once, in packets of at most the MTU, for QPs at rates
    /// that put some in each wheel.
    #[test]
    fn every_posted_byte_is_granted_once() {
        let mut p = PacerCycle::new(64, 250, 1500, 0);
        let mut port = Port {
            free: 0,
            line: cpb_of_rate(100_000 << 8, 250),
        };
        let rates: Vec<RateIn> = (0..64)
            .map(|q| RateIn {
                qp: q,
                rate_q8: (200u64 << q % 8) << 8,
                window: None,
            })
            .collect();
        let posts: Vec<(u32, u32)> = (0..200u32)
            .map(|k| ((k * 7) % 64, 1 + (k * 7919) % 5000))
            .collect();
        let mut want = vec![0u64; 64];
        for &(q, b) in &posts {
            want[q as usize] += b as u64;
        }
        let got = run(&mut p, &mut port, &posts, &rates, 400_000);
        let mut have = vec![0u64; 64];
        for &(_, q, b) in &got {
            assert!(b > 0 && b <= 1500);
            have[q as usize] += b as u64;
        }
        assert_eq!(have, want);
        assert!(p.is_idle());
        assert_eq!(p.collisions, 0);
    }

    /// Backlogged unpaced QPs on a port that always takes: one grant per cycle.
    #[test]
    fn many_backlogged_qps_get_a_grant_per_cycle() {
        let mut p = PacerCycle::new(1024, 250, 64, 0);
        let mut port = Port {
            free: 0,
            line: Cpb { m: 0, e: 0 },
        };
        let posts: Vec<(u32, u32)> = (0..1024).map(|q| (q, 1 << 20)).collect();
        let got = run(&mut p, &mut port, &posts, &[], 20_000);
        let late: Vec<_> = got.iter().filter(|g| g.0 >= 2000 + 1024).collect();
        assert_eq!(late.len() as u64, 20_000 + 1024 - 2000 - 1024);
    }

    /// One QP alone keeps its rate within 0.1 % from 100 Mb/s to 100 Gb/s.
    #[test]
    fn a_qp_alone_keeps_its_rate() {
        for (rate_mbps, bytes, n) in [
            (100u64, 1000u32, 40u32),
            (10_000, 4096, 200),
            (100_000, 4096, 400),
            (400_000, 4096, 400),
        ] {
            let mut p = PacerCycle::new(64, 250, bytes, 0);
            let mut port = Port {
                free: 0,
                line: cpb_of_rate(800_000 << 8, 250),
            };
            let rates = [RateIn {
                qp: 5,
                rate_q8: rate_mbps << 8,
                window: None,
            }];
            let gap = bytes as f64 * 8.0 * 250.0 / rate_mbps as f64;
            let cycles = (gap * (n as f64 + 2.0)) as u64 + 100;
            let posts = [(5, bytes * n)];
            let got = run(&mut p, &mut port, &posts, &rates, cycles);
            assert_eq!(got.len() as u32, n, "{rate_mbps} Mb/s");
            let span = (got[n as usize - 1].0 - got[0].0) as f64;
            let rate = (n - 1) as f64 * bytes as f64 * 8.0 * 250.0 / span;
            assert!(
                (rate / rate_mbps as f64 - 1.0).abs() < 1e-3,
                "{rate_mbps} Mb/s: {rate}"
            );
        }
    }

    /// A window QP stops when its window is full and goes on when an ACK opens it.
    #[test]
    fn a_full_window_parks_until_an_ack() {
        let mut p = PacerCycle::new(64, 250, 1000, 0);
        let mut now = 0;
        let step = |p: &mut PacerCycle, i: PacerIn, now: &mut u64| -> Option<(u32, u32)> {
            let i = PacerIn { now: *now, ..i };
            let o = p.out(&i);
            p.clock(&i);
            *now += 1;
            o.grant.filter(|_| i.grant_ready)
        };
        while p.out(&PacerIn::default()).busy {
            step(&mut p, PacerIn::default(), &mut now);
        }
        let idle = PacerIn {
            grant_ready: true,
            ..Default::default()
        };
        let rate = RateIn {
            qp: 3,
            rate_q8: 100_000 << 8,
            window: Some(2500),
        };
        step(
            &mut p,
            PacerIn {
                rate: Some(rate),
                ..idle
            },
            &mut now,
        );
        for _ in 0..SIDE_STAGES {
            step(&mut p, idle, &mut now);
        }
        step(
            &mut p,
            PacerIn {
                post: Some((3, 10_000)),
                ..idle
            },
            &mut now,
        );
        let mut sent = 0;
        let run = |p: &mut PacerCycle, now: &mut u64, sent: &mut u32| {
            for _ in 0..2000 {
                if let Some((q, b)) = step(p, idle, now) {
                    assert_eq!(q, 3);
                    *sent += b;
                }
            }
        };
        run(&mut p, &mut now, &mut sent);
        // Two packets in flight fill the window (a third would make 3000 > 2500).
        assert_eq!(sent, 2000);
        assert!(p.parked[3]);
        step(
            &mut p,
            PacerIn {
                ack: Some((3, 1000)),
                ..idle
            },
            &mut now,
        );
        run(&mut p, &mut now, &mut sent);
        assert_eq!(sent, 3000);
        assert!(p.parked[3]);
        // A larger window unparks it.
        let wider = RateIn {
            window: Some(4500),
            ..rate
        };
        step(
            &mut p,
            PacerIn {
                rate: Some(wider),
                ..idle
            },
            &mut now,
        );
        run(&mut p, &mut now, &mut sent);
        assert_eq!(sent, 5000);
        // An ACK beyond what was sent is taken (it is newer): nothing counts as in flight
        // until `sent` passes it, so the rest goes at the QP's rate.
        step(
            &mut p,
            PacerIn {
                ack: Some((3, 9000)),
                ..idle
            },
            &mut now,
        );
        run(&mut p, &mut now, &mut sent);
        assert_eq!(sent, 10_000);
        assert!(p.is_idle());
    }
}
