//! `Wheel`: the pacer's timing wheel, which holds QPs until their time and releases them
//! one per cycle.
//!
//! `S = 2^SB` slots of one time unit (a clock cycle for the pacer's fine wheel); slot `s`
//! is a list of the QPs due at a time `t` with `t mod S = s`. The lists are singly linked
//! through a link RAM of one word per QP, so a slot holds any number of QPs in no more
//! memory than one word per QP and one per slot:
//!
//! ```text
//!  push {qp, slot} ─► valid[S] (flip-flops)   head[S] (LUT RAM, QB bits)   link[2^QB] (block RAM)
//!                          │ take / skip           │ the slot's first QP         │ {has next, next QP}
//!                          ▼                       ▼                             ▼
//!                  cursor `cur` walks the slots not after `now`; a slot's list leaves one QP per cycle ──► m_qp
//! ```
//!
//! Behaviour, exactly (the golden model `roce_cc_sim::pacer::wheel::WheelModel` states the
//! same rules):
//! - Push: `head[due mod S] := qp`, `link[qp] := {valid[due mod S], old head}`,
//!   `valid[due mod S] := 1`: the QP goes to the front of its slot's list (last pushed,
//!   first out). A push needs `now < due < cur + S` (mod 2^48) and a QP not in the wheel;
//!   the caller checks it against the `cur` output (the unit does not).
//! - Chain: the link word read in the last cycle (of the QP released then) names the next
//!   QP of the same list: if it has one, that QP is released now and its link word read.
//! - Take: otherwise, when slot `cur` is not after `now` and `valid[cur]`, its head is
//!   released, its link word read, `valid[cur]` cleared and `cur` moves on by one.
//! - Skip: when slot `cur` is not after `now` and empty, `cur` moves on by one, or by two
//!   when slot `cur + 1` is not after `now` and empty too (in chain cycles as well), so a
//!   cursor held back by long lists catches up by one slot per cycle.
//! - Empty: a wheel that holds no QP (a count `cnt` of QPs pushed and not yet released)
//!   puts `cur` at `now + 1`, where walking puts a cursor that is not behind; so after
//!   `now` jumps forward (a simulation skipping idle time) an empty wheel is caught up at
//!   the next edge, not after walking every slot in between.
//! - `m_valid`/`m_qp`: the QP released in the last cycle (a register; the consumer, an
//!   eligible-set port, always takes it).
//! - Scan: a second pointer `first` looks ahead of the cursor for the first slot that holds
//!   a QP (`first_valid`). The slots from `cur` up to `first` hold none, and when
//!   `first_valid`, slot `first` holds one. Each edge (values before it): when not
//!   `first_valid`, a set `valid[first]` makes it valid, else `first` moves on by one
//!   while it is less than `cur + S - 1`; a push due at `d` into an empty wheel, or at `d`
//!   not after `first`, makes `first := d` valid; then, when the cursor has passed
//!   `first` (after a take of slot `first`, or an empty wheel following `now`), `first :=
//!   cur` (the new cursor) and it is not valid. The time of the next release is so known
//!   without walking the slots: a simulation may jump `now` to just before `first` (the
//!   paced replay does, `roce_cc_sim::replay_paced`), and the cursor, passing only empty
//!   slots, catches up at two slots a cycle.
//! - `reset` (synchronous) empties the wheel (the `valid` bits, the chain, the output) and
//!   puts `cur` at `now`; a push in a reset cycle is dropped.
//!
//! A QP due at `d` is on `m_qp` in cycle `d + 1` when the cursor is not behind and nothing
//! else leaves; QPs due in one slot leave one per cycle; none leaves before its time.
//!
//! Why the three memories: `valid` is one bit per slot and is read at three slots (`cur`,
//! `cur + 1`, the push's) and written at two (take, push) in one cycle, so it is flip-flops,
//! in words of 32 (each write is a 32-bit decode of the slot's low five bits in the word its
//! high bits choose; each read an `S`-to-1 multiplexer of the words side by side); `head` is read at two slots (the
//! push's, the cursor's) in the cycle of its address and written at one, which LUT RAM does
//! with one copy per read port; `link` is written once per push and read once per release,
//! one port each, so it is block RAM, whose output register is the chain's: the next QP's
//! address is the link RAM's output of this cycle. Nothing in the link RAM needs a reset:
//! every word the chain reads was written by the push that put its QP in the wheel.
//!
//! Widths: QP `QB` bits, slot `SB` bits (`6..=10`), a link word `LW = QB + 1` bits, time
//! [`TIME_W`] = 48 bits in the unit of the slots.

use crate::lut_ram::LutRam;
use crate::state_ram::StateRam;
use crate::zero_ext::ZeroExt;
use rust_hdl::prelude::*;

/// Width of a time (`now`, `due`, `cur`), mod 2^48.
pub const TIME_W: usize = 48;

/// A timing wheel of `2^QB` QPs and `S = 2^SB` slots; `LW = QB + 1` (checked by `Default`).
#[derive(LogicBlock)]
pub struct Wheel<const QB: usize, const SB: usize, const S: usize, const LW: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset, active high: empties the wheel, `cur := now`.
    pub reset: Signal<In, Bit>,
    /// The current time, in slots (48 bits, mod 2^48).
    pub now: Signal<In, Bits<TIME_W>>,
    /// A QP is pushed at this edge (always accepted; see the contract in the module doc).
    pub push_valid: Signal<In, Bit>,
    /// The pushed QP.
    pub push_qp: Signal<In, Bits<QB>>,
    /// The slot of the pushed QP: its due time `due` mod `S`, where `now < due < cur + S`
    /// (mod 2^48; the caller's check).
    pub push_slot: Signal<In, Bits<SB>>,
    /// The cursor: the next slot to take, as a time (never more than one after `now`).
    pub cur: Signal<Out, Bits<TIME_W>>,
    /// A QP is released in this cycle (for one cycle; not held).
    pub m_valid: Signal<Out, Bit>,
    /// The QP released.
    pub m_qp: Signal<Out, Bits<QB>>,
    /// The scan: no slot from `cur` up to (not including) this time holds a QP.
    pub first: Signal<Out, Bits<TIME_W>>,
    /// Slot `first` holds a QP (so `first` is the time of the next slot the cursor takes).
    pub first_valid: Signal<Out, Bit>,
    /// QPs in the wheel: pushed and not yet chosen for release (its slots and its chain).
    pub held: Signal<Out, Bits<LW>>,
    cur_r: DFF<Bits<TIME_W>>,
    /// The scan pointer and whether its slot holds a QP.
    scan_r: DFF<Bits<TIME_W>>,
    seen_r: DFF<Bit>,
    /// The push's time: `cur + ((push_slot - cur) mod S)`.
    pd_off: Signal<Local, Bits<SB>>,
    pd_off_ext: ZeroExt<SB, TIME_W>,
    pd: Signal<Local, Bits<TIME_W>>,
    /// `first - cur`, `first - pd`, `cur' - first` (bit 47: the second is after the first).
    sc_room: Signal<Local, Bits<TIME_W>>,
    sc_pd: Signal<Local, Bits<TIME_W>>,
    sc_pass: Signal<Local, Bits<TIME_W>>,
    sc_room_low_unused: Signal<Local, Bits<47>>,
    sc_pd_low_unused: Signal<Local, Bits<47>>,
    sc_pass_low_unused: Signal<Local, Bits<47>>,
    /// `S - 1` as a time.
    last_t: Constant<Bits<TIME_W>>,
    /// The scan's slot, and whether it holds a QP.
    sc_slot: Signal<Local, Bits<SB>>,
    vs: Signal<Local, Bit>,
    /// The scan pointer after the step and the push, before the cursor's pass.
    scan1: Signal<Local, Bits<TIME_W>>,
    seen1: Signal<Local, Bit>,
    /// The cursor after this edge (but for a reset).
    cur_n: Signal<Local, Bits<TIME_W>>,
    /// QPs in the wheel: pushed and not yet chosen for release (at most `2^QB`).
    cnt: DFF<Bits<LW>>,
    /// `cnt` is zero.
    empty: Signal<Local, Bit>,
    one_lw: Constant<Bits<LW>>,
    /// The slots' valid bits, 32 to a word: slot `s` is bit `s % 32` of word `s / 32`.
    valid: Vec<DFF<Bits<32>>>,
    chain_pending: DFF<Bit>,
    out_v: DFF<Bit>,
    out_q: DFF<Bits<QB>>,
    heads: LutRam<QB, SB>,
    links: StateRam<Bits<LW>, QB>,
    head_ext: ZeroExt<QB, LW>,
    one_w: Constant<Bits<32>>,
    c5: Constant<Bits<SB>>,
    /// Word indices `0..S/32`, as slot-width numbers.
    wc: Vec<Constant<Bits<SB>>>,
    one_t: Constant<Bits<TIME_W>>,
    two_t: Constant<Bits<TIME_W>>,
    /// `2^QB`: the link word's "has next" bit.
    has_bit: Constant<Bits<LW>>,
    /// `cur + 1`.
    cur1: Signal<Local, Bits<TIME_W>>,
    /// `now - cur`, `now - (cur + 1)`: bit 47 clear when the slot is not after `now`.
    d0: Signal<Local, Bits<TIME_W>>,
    d1: Signal<Local, Bits<TIME_W>>,
    /// The bits of `d0`, `d1` below their sign (the waiver's `*unused*` convention).
    d0_low_unused: Signal<Local, Bits<47>>,
    d1_low_unused: Signal<Local, Bits<47>>,
    s0: Signal<Local, Bits<SB>>,
    s1: Signal<Local, Bits<SB>>,
    ps: Signal<Local, Bits<SB>>,
    behind0: Signal<Local, Bit>,
    behind1: Signal<Local, Bit>,
    v0: Signal<Local, Bit>,
    v1: Signal<Local, Bit>,
    /// The link word read in the last cycle: has a next QP, and which.
    rd_has: Signal<Local, Bit>,
    rd_qp: Signal<Local, Bits<QB>>,
    cont: Signal<Local, Bit>,
    take: Signal<Local, Bit>,
    rel: Signal<Local, Bits<QB>>,
    /// Each valid word zero-extended to `S` bits, and the flat vector of all of them
    /// built word by word (`flat_acc[w]`: words below `w`), read at any slot.
    zx: Vec<ZeroExt<32, S>>,
    flat_acc: Vec<Signal<Local, Bits<S>>>,
    flat: Signal<Local, Bits<S>>,
    /// `32 * w`: word `w`'s place in `flat`.
    wsh: Vec<Constant<Bits<16>>>,
    /// The push's slot is valid.
    vp: Signal<Local, Bit>,
    /// Word indices of slot `cur` and of the push's slot.
    s0_w: Signal<Local, Bits<SB>>,
    ps_w: Signal<Local, Bits<SB>>,
    /// The taken and the pushed slot's bit in its word.
    take_oh: Signal<Local, Bits<32>>,
    push_oh: Signal<Local, Bits<32>>,
    push_word: Signal<Local, Bits<LW>>,
}

impl<const QB: usize, const SB: usize, const S: usize, const LW: usize> Default
    for Wheel<QB, SB, S, LW>
{
    fn default() -> Self {
        assert!(
            (1..=14).contains(&QB) && (6..=10).contains(&SB) && S == 1 << SB && LW == QB + 1,
            "Wheel<{QB}, {SB}, {S}, {LW}>: needs QB in 1..=14, SB in 6..=10, S = 2^SB, LW = QB + 1"
        );
        Self {
            clock: Default::default(),
            reset: Default::default(),
            now: Default::default(),
            push_valid: Default::default(),
            push_qp: Default::default(),
            push_slot: Default::default(),
            cur: Default::default(),
            m_valid: Default::default(),
            m_qp: Default::default(),
            first: Default::default(),
            first_valid: Default::default(),
            held: Default::default(),
            cur_r: Default::default(),
            scan_r: Default::default(),
            seen_r: Default::default(),
            pd_off: Default::default(),
            pd_off_ext: Default::default(),
            pd: Default::default(),
            sc_room: Default::default(),
            sc_pd: Default::default(),
            sc_pass: Default::default(),
            sc_room_low_unused: Default::default(),
            sc_pd_low_unused: Default::default(),
            sc_pass_low_unused: Default::default(),
            last_t: Constant::new(((S - 1) as u64).into()),
            sc_slot: Default::default(),
            vs: Default::default(),
            scan1: Default::default(),
            seen1: Default::default(),
            cur_n: Default::default(),
            cnt: Default::default(),
            empty: Default::default(),
            one_lw: Constant::new(1.into()),
            valid: (0..S / 32).map(|_| Default::default()).collect(),
            chain_pending: Default::default(),
            out_v: Default::default(),
            out_q: Default::default(),
            heads: Default::default(),
            links: Default::default(),
            head_ext: Default::default(),
            one_w: Constant::new(1.into()),
            c5: Constant::new(5.into()),
            wc: (0..S / 32)
                .map(|w| Constant::new((w as u64).into()))
                .collect(),
            one_t: Constant::new(1.into()),
            two_t: Constant::new(2.into()),
            has_bit: Constant::new(Bits::<LW>::default().replace_bit(QB, true)),
            cur1: Default::default(),
            d0: Default::default(),
            d1: Default::default(),
            d0_low_unused: Default::default(),
            d1_low_unused: Default::default(),
            s0: Default::default(),
            s1: Default::default(),
            ps: Default::default(),
            behind0: Default::default(),
            behind1: Default::default(),
            v0: Default::default(),
            v1: Default::default(),
            rd_has: Default::default(),
            rd_qp: Default::default(),
            cont: Default::default(),
            take: Default::default(),
            rel: Default::default(),
            zx: (0..S / 32).map(|_| Default::default()).collect(),
            flat_acc: (0..=S / 32).map(|_| Default::default()).collect(),
            flat: Default::default(),
            wsh: (0..S / 32)
                .map(|w| Constant::new((32 * w as u64).into()))
                .collect(),
            vp: Default::default(),
            s0_w: Default::default(),
            ps_w: Default::default(),
            take_oh: Default::default(),
            push_oh: Default::default(),
            push_word: Default::default(),
        }
    }
}

impl<const QB: usize, const SB: usize, const S: usize, const LW: usize> Wheel<QB, SB, S, LW> {
    /// Words of valid bits.
    const WORDS: usize = S / 32;
}

impl<const QB: usize, const SB: usize, const S: usize, const LW: usize> Logic
    for Wheel<QB, SB, S, LW>
{
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            cur_r,
            cnt,
            chain_pending,
            out_v,
            out_q,
            scan_r,
            seen_r
        );
        for w in 0..Self::WORDS {
            self.valid[w].clock.next = self.clock.val();
        }
        clock!(self, clock, heads, links);
        self.cur.next = self.cur_r.q.val();
        self.m_valid.next = self.out_v.q.val();
        self.m_qp.next = self.out_q.q.val();
        // Where the cursor is: slots cur and cur + 1, and whether each is not after now.
        self.cur1.next = self.cur_r.q.val() + self.one_t.val();
        self.d0.next = self.now.val() - self.cur_r.q.val();
        self.d1.next = self.now.val() - self.cur1.val();
        self.behind0.next = !self.d0.val().get_bit(47);
        self.behind1.next = !self.d1.val().get_bit(47);
        self.d0_low_unused.next = self.d0.val().get_bits::<47>(0);
        self.d1_low_unused.next = self.d1.val().get_bits::<47>(0);
        self.s0.next = self.cur_r.q.val().get_bits::<SB>(0);
        self.s1.next = self.cur1.val().get_bits::<SB>(0);
        self.ps.next = self.push_slot.val();
        self.s0_w.next = self.s0.val() >> self.c5.val();
        self.ps_w.next = self.ps.val() >> self.c5.val();
        self.flat_acc[0].next = 0.into();
        for w in 0..Self::WORDS {
            self.zx[w].i.next = self.valid[w].q.val();
            self.flat_acc[w + 1].next =
                self.flat_acc[w].val() | (self.zx[w].o.val() << self.wsh[w].val());
        }
        for w in Self::WORDS..(Self::WORDS + 1) {
            self.flat.next = self.flat_acc[w].val();
        }
        self.v0.next = self.flat.val().get_bit(self.s0.val().index());
        self.v1.next = self.flat.val().get_bit(self.s1.val().index());
        self.vp.next = self.flat.val().get_bit(self.ps.val().index());
        self.sc_slot.next = self.scan_r.q.val().get_bits::<SB>(0);
        self.vs.next = self.flat.val().get_bit(self.sc_slot.val().index());
        // The chain: the link word of the QP released in the last cycle.
        self.rd_qp.next = self.links.read_data.val().get_bits::<QB>(0);
        for j in QB..(QB + 1) {
            self.rd_has.next = self.links.read_data.val().get_bit(j);
        }
        self.cont.next = self.chain_pending.q.val() & self.rd_has.val();
        self.take.next = !self.cont.val() & self.behind0.val() & self.v0.val();
        self.heads.raddr1.next = self.s0.val();
        self.rel.next = self.heads.rdata1.val();
        if self.cont.val() {
            self.rel.next = self.rd_qp.val();
        }
        self.links.read_address.next = self.rel.val();
        self.chain_pending.d.next = self.cont.val() | self.take.val();
        self.out_v.d.next = self.cont.val() | self.take.val();
        self.out_q.d.next = self.rel.val();
        // The cursor: past a taken slot by one, past empty slots by up to two.
        self.cur_n.next = self.cur_r.q.val();
        if self.take.val() {
            self.cur_n.next = self.cur1.val();
        } else if self.behind0.val() & !self.v0.val() {
            self.cur_n.next = self.cur1.val();
            if self.behind1.val() & !self.v1.val() {
                self.cur_n.next = self.cur_r.q.val() + self.two_t.val();
            }
        }
        // An empty wheel puts its cursor just past `now`, however far behind it was.
        self.empty.next = !self.cnt.q.val().any();
        if self.empty.val() {
            self.cur_n.next = self.now.val() + self.one_t.val();
        }
        self.held.next = self.cnt.q.val();
        // The scan: step over an empty slot or find a set one; a push before it (or into an
        // empty wheel) is the first; a cursor that passed it restarts it at the cursor.
        self.first.next = self.scan_r.q.val();
        self.first_valid.next = self.seen_r.q.val();
        self.pd_off.next = self.ps.val() - self.s0.val();
        self.pd_off_ext.i.next = self.pd_off.val();
        self.pd.next = self.cur_r.q.val() + self.pd_off_ext.o.val();
        self.sc_room.next = self.scan_r.q.val() - self.cur_r.q.val() - self.last_t.val();
        self.sc_room_low_unused.next = self.sc_room.val().get_bits::<47>(0);
        self.sc_pd.next = self.scan_r.q.val() - self.pd.val();
        self.sc_pd_low_unused.next = self.sc_pd.val().get_bits::<47>(0);
        self.scan1.next = self.scan_r.q.val();
        self.seen1.next = self.seen_r.q.val();
        if !self.seen_r.q.val() {
            if self.vs.val() {
                self.seen1.next = true;
            } else if self.sc_room.val().get_bit(47) {
                self.scan1.next = self.scan_r.q.val() + self.one_t.val();
            }
        }
        if self.push_valid.val() & (self.empty.val() | !self.sc_pd.val().get_bit(47)) {
            self.scan1.next = self.pd.val();
            self.seen1.next = true;
        }
        self.scan_r.d.next = self.scan1.val();
        self.seen_r.d.next = self.seen1.val();
        self.cur_r.d.next = self.cur_n.val();
        self.sc_pass.next = self.scan1.val() - self.cur_n.val();
        self.sc_pass_low_unused.next = self.sc_pass.val().get_bits::<47>(0);
        if self.sc_pass.val().get_bit(47) {
            self.scan_r.d.next = self.cur_n.val();
            self.seen_r.d.next = false;
        }
        if self.push_valid.val() & !(self.cont.val() | self.take.val()) {
            self.cnt.d.next = self.cnt.q.val() + self.one_lw.val();
        }
        if !self.push_valid.val() & (self.cont.val() | self.take.val()) {
            self.cnt.d.next = self.cnt.q.val() - self.one_lw.val();
        }
        // Push: the QP goes to the front of its slot's list.
        self.heads.raddr0.next = self.ps.val();
        self.heads.waddr.next = self.ps.val();
        self.heads.wdata.next = self.push_qp.val();
        self.heads.we.next = self.push_valid.val() & !self.reset.val();
        self.head_ext.i.next = self.heads.rdata0.val();
        self.push_word.next = self.head_ext.o.val();
        if self.vp.val() {
            self.push_word.next = self.head_ext.o.val() | self.has_bit.val();
        }
        self.links.write_address.next = self.push_qp.val();
        self.links.write_data.next = self.push_word.val();
        self.links.write_enable.next = self.push_valid.val() & !self.reset.val();
        // The take clears its slot's bit and the push sets its own (never the same slot:
        // the take's is not after now, the push's is).
        self.take_oh.next = 0.into();
        if self.take.val() {
            self.take_oh.next = self.one_w.val() << self.s0.val().get_bits::<5>(0);
        }
        self.push_oh.next = 0.into();
        if self.push_valid.val() {
            self.push_oh.next = self.one_w.val() << self.ps.val().get_bits::<5>(0);
        }
        for w in 0..Self::WORDS {
            self.valid[w].d.next = self.valid[w].q.val();
            if self.s0_w.val() == self.wc[w].val() {
                self.valid[w].d.next = self.valid[w].q.val() & !self.take_oh.val();
            }
            if self.ps_w.val() == self.wc[w].val() {
                self.valid[w].d.next = self.valid[w].q.val() | self.push_oh.val();
            }
            if (self.s0_w.val() == self.wc[w].val()) & (self.ps_w.val() == self.wc[w].val()) {
                self.valid[w].d.next =
                    (self.valid[w].q.val() & !self.take_oh.val()) | self.push_oh.val();
            }
        }
        if self.reset.val() {
            for w in 0..Self::WORDS {
                self.valid[w].d.next = 0.into();
            }
            self.chain_pending.d.next = false;
            self.out_v.d.next = false;
            self.cnt.d.next = 0.into();
            self.cur_r.d.next = self.now.val();
            self.scan_r.d.next = self.now.val();
            self.seen_r.d.next = false;
        }
    }
}

/// A wheel of 1024 QPs (the default QP count) and 256 slots.
pub type Wheel1024 = Wheel<10, 8, 256, 11>;

#[cfg(test)]
mod tests {
    use super::*;

    type W = Wheel<4, 6, 64, 5>;

    /// One cycle at `now` with an optional push; returns the QP on `m_qp` in the cycle.
    fn tick(w: &mut W, now: u64, push: Option<(u64, u64)>, reset: bool) -> Option<u64> {
        w.reset.next = reset;
        w.now.next = now.into();
        w.push_valid.next = push.is_some();
        w.push_qp.next = push.map_or(0, |p| p.0).into();
        w.push_slot.next = push.map_or(0, |p| p.1 % 64).into();
        w.clock.next = Clock { clk: false };
        assert!(simulate(w, 50));
        let out = w.m_valid.val().then(|| w.m_qp.val().to_u64());
        w.clock.next = Clock { clk: true };
        assert!(simulate(w, 50));
        out
    }

    /// Three QPs in one slot and one in the next leave one per cycle, newest first, from
    /// the cycle after their time.
    #[test]
    fn a_slot_leaves_one_per_cycle_newest_first() {
        let mut w = W::default();
        w.connect_all();
        tick(&mut w, 0, None, true);
        let pushes = [Some((1, 5)), Some((2, 5)), Some((3, 5)), Some((4, 6))];
        let mut got = Vec::new();
        for k in 0..20u64 {
            if let Some(q) = tick(&mut w, k, pushes.get(k as usize).copied().flatten(), false) {
                got.push((q, k));
            }
        }
        assert_eq!(got, vec![(3, 6), (2, 7), (1, 8), (4, 9)]);
    }
}
