//! `WheelModel`: the golden model of the pacer's timing wheel
//! (`roce_cc_hdl::pacer::wheel::Wheel`), cycle by cycle.
//!
//! The wheel holds QPs until a time: `2^SB` slots of one time unit (a cycle, or a coarser
//! unit the caller counts in), each slot a list of the QPs due in it. A cursor `cur` walks
//! the slots in time order behind `now`, and the QPs of each slot leave one per cycle.
//! The rules are the hardware's, stated on plain integers: [`WheelModel::out`] is the
//! registered release of this cycle, [`WheelModel::clock`] the edge with the cycle's push.
//!
//! Each cycle, in this order:
//! - Chain: if a QP left in the last cycle and its list has a QP after it, that QP leaves
//!   now.
//! - Otherwise, if slot `cur` is not after `now` and holds QPs, its first QP leaves, the
//!   rest of its list becomes the chain and the slot is emptied; `cur` moves on by one.
//! - Skip: when no slot was taken and slot `cur` is not after `now` and empty, `cur` moves
//!   on by one, or by two when slot `cur + 1` is not after `now` and empty too (so a
//!   cursor that fell behind catches up by a slot per cycle).
//! - Push: the push's QP goes to the front of its slot's list (the slot is `due mod 2^SB`):
//!   within a slot the last QP pushed leaves first.
//!
//! - Scan: `first` looks ahead of the cursor for the first slot that holds a QP
//!   (`first_valid`); the slots from `cur` up to `first` hold none. At each edge, from the
//!   values before it: when not valid, a QP in slot `first` makes it valid, else `first`
//!   moves on by one while it is less than `cur + 2^SB - 1`; a push into an empty wheel,
//!   or due not after `first`, makes `first :=` its time, valid; then, if the new cursor
//!   is past `first`, `first :=` the new cursor, not valid.
//!
//! A push must have `now < due < cur + 2^SB` (times mod 2^48: `due` is after `now`, and
//! its slot is not one the cursor has passed or will meet a second time before it), and
//! its QP must not be in the wheel (pushed, and not yet seen on `m_qp`). [`WheelModel::clock`]
//! panics when a push breaks this.

/// Width of a time (`now`, `due`, `cur`): whole units, mod 2^48.
pub const TIME_W: u32 = 48;
const TIME_MASK: u64 = (1 << TIME_W) - 1;

/// `a` is not after `b`, times mod 2^48 (`b - a < 2^47`).
pub fn not_after48(a: u64, b: u64) -> bool {
    (b.wrapping_sub(a) & TIME_MASK) < 1 << (TIME_W - 1)
}

/// The timing wheel of `qps` QPs and `2^sb` slots.
#[derive(Clone, Debug)]
pub struct WheelModel {
    sb: u32,
    /// Each slot's list, front first (empty: no QP).
    slots: Vec<Vec<u32>>,
    /// The rest of the list being walked, front first.
    chain: Vec<u32>,
    /// The next slot to take, as a time.
    cur: u64,
    /// The release register (`m_valid`, `m_qp`).
    out: Option<u32>,
    /// QPs in the wheel: pushed, not yet released on `m_qp`.
    inside: Vec<bool>,
    /// QPs in the slots and the chain (pushed, not yet chosen for release).
    count: u32,
    /// The scan pointer: no slot from `cur` up to it holds a QP.
    first: u64,
    /// Slot `first` holds a QP.
    first_valid: bool,
}

impl WheelModel {
    /// An empty wheel of `qps` QPs (a power of two, 2..=16384) and `2^sb` slots (`sb`
    /// 6..=10), its cursor at `now`.
    pub fn new(qps: u32, sb: u32, now: u64) -> Self {
        assert!(
            qps.is_power_of_two() && (2..=16384).contains(&qps) && (6..=10).contains(&sb),
            "WheelModel: {qps} QPs (a power of two, 2..=16384), 2^{sb} slots (sb 6..=10)"
        );
        Self {
            sb,
            slots: vec![Vec::new(); 1 << sb],
            chain: Vec::new(),
            cur: now & TIME_MASK,
            out: None,
            inside: vec![false; qps as usize],
            count: 0,
            first: now & TIME_MASK,
            first_valid: false,
        }
    }

    /// `m_valid`, `m_qp` in this cycle.
    pub fn out(&self) -> Option<u32> {
        self.out
    }

    /// The cursor `cur`: the next slot to take, as a time.
    pub fn cur(&self) -> u64 {
        self.cur
    }

    /// The scan (`first`, `first_valid`): the slots from `cur` up to `first` hold no QP;
    /// when valid, slot `first` holds one.
    pub fn first(&self) -> (u64, bool) {
        (self.first, self.first_valid)
    }

    /// QPs in the wheel's slots and chain: pushed, not yet chosen for release (`held`).
    pub fn held(&self) -> u32 {
        self.count
    }

    /// Slots of the wheel.
    pub fn slots(&self) -> u64 {
        1 << self.sb
    }

    /// Whether a push of a QP due at `due` is allowed in a cycle at `now`.
    pub fn may_push(&self, now: u64, due: u64) -> bool {
        let due = due & TIME_MASK;
        due != now & TIME_MASK
            && not_after48(now, due)
            && (due.wrapping_sub(self.cur) & TIME_MASK) < self.slots()
    }

    /// Whether `qp` is in the wheel (pushed, not yet seen on `m_qp`).
    pub fn holds(&self, qp: u32) -> bool {
        self.inside[qp as usize]
    }

    /// Whether the wheel holds no QP and has nothing to release.
    pub fn is_empty(&self) -> bool {
        self.out.is_none() && !self.inside.iter().any(|&b| b)
    }

    fn slot_of(&self, t: u64) -> usize {
        (t & ((1 << self.sb) - 1)) as usize
    }

    /// The edge of a cycle at time `now`, with this cycle's push (`qp`, `due`) and
    /// `reset` (synchronous: empties the wheel and puts the cursor at `now`).
    pub fn clock(&mut self, now: u64, push: Option<(u32, u64)>, reset: bool) {
        let now = now & TIME_MASK;
        if self.count == 0 && self.out.is_none() && push.is_none() && !reset {
            // An empty wheel (no QP in the slots, the chain or the release register) and no
            // push: the rules below only move the scan and put the cursor at `now + 1`.
            let (mut first, mut first_valid) = (self.first, self.first_valid);
            if !first_valid && (first.wrapping_sub(self.cur) & TIME_MASK) < self.slots() - 1 {
                first = (first + 1) & TIME_MASK;
            }
            self.cur = (now + 1) & TIME_MASK;
            if !not_after48(self.cur, first) {
                (first, first_valid) = (self.cur, false);
            }
            (self.first, self.first_valid) = (first, first_valid);
            return;
        }
        if let Some(q) = self.out {
            self.inside[q as usize] = false;
        }
        if reset {
            for s in &mut self.slots {
                s.clear();
            }
            self.chain.clear();
            self.inside.iter_mut().for_each(|b| *b = false);
            self.out = None;
            self.cur = now;
            self.count = 0;
            self.first = now;
            self.first_valid = false;
            return;
        }
        if let Some((qp, due)) = push {
            assert!(
                self.may_push(now, due),
                "push of QP {qp} due {due} at now {now} with the cursor at {}: needs now < due < cur + {}",
                self.cur,
                self.slots()
            );
            assert!(
                !self.inside[qp as usize],
                "push of QP {qp}, which is in the wheel"
            );
        }
        // The scan, from the values before the edge.
        let (mut first, mut first_valid) = (self.first, self.first_valid);
        if !first_valid {
            if !self.slots[self.slot_of(first)].is_empty() {
                first_valid = true;
            } else if (first.wrapping_sub(self.cur) & TIME_MASK) < self.slots() - 1 {
                first = (first + 1) & TIME_MASK;
            }
        }
        if let Some((_, due)) = push {
            let due = due & TIME_MASK;
            if self.count == 0 || not_after48(due, self.first) {
                (first, first_valid) = (due, true);
            }
        }
        let behind0 = not_after48(self.cur, now);
        let behind1 = not_after48((self.cur + 1) & TIME_MASK, now);
        let s0 = self.slot_of(self.cur);
        let s1 = self.slot_of(self.cur + 1);
        let mut rel = None;
        let skip = |slots: &Vec<Vec<u32>>| -> u64 {
            if behind1 && slots[s1].is_empty() {
                2
            } else {
                1
            }
        };
        if !self.chain.is_empty() {
            rel = Some(self.chain.remove(0));
            if behind0 && self.slots[s0].is_empty() {
                self.cur += skip(&self.slots);
            }
        } else if behind0 && !self.slots[s0].is_empty() {
            let mut list = std::mem::take(&mut self.slots[s0]);
            rel = Some(list.remove(0));
            self.chain = list;
            self.cur += 1;
        } else if behind0 {
            self.cur += skip(&self.slots);
        }
        // A wheel with no QP in it puts its cursor just past `now` (where walking from a
        // cursor that is not behind puts it), however far behind it was.
        if self.count == 0 {
            self.cur = now + 1;
        }
        self.cur &= TIME_MASK;
        if !not_after48(self.cur, first) {
            (first, first_valid) = (self.cur, false);
        }
        (self.first, self.first_valid) = (first, first_valid);
        self.out = rel;
        self.count = self.count + push.is_some() as u32 - rel.is_some() as u32;
        if let Some((qp, due)) = push {
            let s = self.slot_of(due);
            self.slots[s].insert(0, qp);
            self.inside[qp as usize] = true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs `cycles` cycles from `now0`, pushing `pushes[k]` in cycle `k`; returns each
    /// release as (QP, cycle in which it is on `m_qp`).
    fn run(
        w: &mut WheelModel,
        now0: u64,
        pushes: &[Option<(u32, u64)>],
        cycles: u64,
    ) -> Vec<(u32, u64)> {
        let mut got = Vec::new();
        for k in 0..cycles {
            let now = now0 + k;
            if let Some(q) = w.out() {
                got.push((q, now));
            }
            w.clock(now, pushes.get(k as usize).copied().flatten(), false);
        }
        got
    }

    /// A QP pushed due at `d` is on `m_qp` in cycle `d + 1` when nothing else is due.
    #[test]
    fn a_lone_qp_leaves_the_cycle_after_its_time() {
        let mut w = WheelModel::new(16, 6, 100);
        let got = run(&mut w, 100, &[Some((5, 107))], 20);
        assert_eq!(got, vec![(5, 108)]);
        assert!(w.is_empty());
    }

    /// QPs due in one slot leave one per cycle, last pushed first; a slot's QPs come before
    /// a later slot's.
    #[test]
    fn a_slot_leaves_one_per_cycle_newest_first() {
        let mut w = WheelModel::new(16, 6, 0);
        let pushes = [Some((1, 5)), Some((2, 5)), Some((3, 5)), Some((4, 6))];
        let got = run(&mut w, 0, &pushes, 20);
        assert_eq!(got, vec![(3, 6), (2, 7), (1, 8), (4, 9)]);
    }

    /// After a long slot the cursor is behind `now`: the next nonempty slots wait for the
    /// chain, then empty slots are skipped two a cycle until the cursor is back at `now`.
    #[test]
    fn a_late_cursor_catches_up() {
        let mut w = WheelModel::new(64, 6, 0);
        // Ten QPs in slot 25, one in 26 and one in 27, one in 40 and one in 44.
        let mut pushes: Vec<_> = (0..10).map(|q| Some((q, 25))).collect();
        pushes.extend([
            Some((10, 26)),
            Some((11, 27)),
            Some((12, 40)),
            Some((13, 44)),
        ]);
        let got = run(&mut w, 0, &pushes, 60);
        let want: Vec<(u32, u64)> = (0..10)
            .map(|i| (9 - i, 26 + i as u64))
            .chain([(10, 36), (11, 37), (12, 44), (13, 47)])
            .collect();
        assert_eq!(got, want);
        assert_eq!(w.cur(), 60);
    }

    /// The scan: a push into an empty wheel is its first slot at once; a later push does
    /// not move it, an earlier one does; after the first slot is taken the scan walks a
    /// slot an edge to the next one that holds a QP (it runs ahead of the cursor when the
    /// wheel's unit is many cycles, as in the pacer's coarse wheel: here `now` is held).
    #[test]
    fn the_scan_knows_the_first_slot() {
        let mut w = WheelModel::new(16, 6, 0);
        w.clock(0, Some((1, 40)), false);
        assert_eq!(w.first(), (40, true));
        w.clock(0, Some((2, 50)), false);
        assert_eq!(w.first(), (40, true));
        w.clock(0, Some((3, 30)), false);
        assert_eq!(w.first(), (30, true));
        for n in 1..=30 {
            w.clock(n, None, false);
        }
        // Slot 30 taken at now 30: the scan restarts at the cursor.
        assert_eq!(w.out(), Some(3));
        assert_eq!(w.first(), (31, false));
        // Nine edges step over 31..39, the tenth sees slot 40's QP.
        for _ in 0..9 {
            w.clock(31, None, false);
            assert!(!w.first().1);
        }
        w.clock(31, None, false);
        assert_eq!(w.first(), (40, true));
    }

    /// A jump of `now` to just before the first slot: the cursor passes the empty slots
    /// two an edge and the QP leaves at its time, as without the jump.
    #[test]
    fn a_jump_to_just_before_the_first_slot_keeps_its_time() {
        let mut w = WheelModel::new(16, 6, 0);
        w.clock(0, Some((5, 60)), false);
        assert_eq!((w.first(), w.cur()), ((60, true), 1));
        for _ in 0..29 {
            w.clock(58, None, false);
        }
        assert_eq!(w.cur(), 59);
        assert_eq!(run(&mut w, 59, &[], 4), vec![(5, 61)]);
    }

    /// When `now` jumps a million cycles, an empty wheel's cursor is at `now + 1` after one
    /// edge (walking would take half a million cycles), so a QP pushed then within reach
    /// leaves at its time; a wheel that holds a QP walks as before.
    #[test]
    fn an_empty_wheel_follows_a_jump_of_now() {
        let mut w = WheelModel::new(16, 6, 0);
        w.clock(0, None, false);
        let t = 1_000_000u64;
        w.clock(t, None, false);
        assert_eq!(w.cur(), t + 1);
        assert!(w.may_push(t + 1, t + 30));
        let got = run(&mut w, t + 1, &[Some((3, t + 30))], 40);
        assert_eq!(got, vec![(3, t + 31)]);
        // Holding a QP, the cursor walks: two empty slots a cycle.
        let mut h = WheelModel::new(16, 6, 0);
        h.clock(0, Some((1, 50)), false);
        h.clock(40, None, false);
        assert_eq!(h.cur(), 3);
    }

    /// Time wraps at 2^48.
    #[test]
    fn time_wraps() {
        let t0 = (1u64 << 48) - 3;
        let mut w = WheelModel::new(16, 6, t0);
        let got = run(&mut w, t0, &[Some((9, 2))], 10);
        assert_eq!(got, vec![(9, (1u64 << 48) + 3)]);
    }
}
