//! `Eligible`: the pacer's set of eligible QPs, a bitmap with a round-robin pick of one QP
//! per cycle among all `2^QB` QPs.
//!
//! The bitmap is `NW = 2^(QB-5)` words of 32 bits in flip-flops (QP `q` is bit `q % 32` of
//! word `q / 32`). Up to [`SET_PORTS`] = 4 QPs are set per cycle (always accepted; a set
//! of a bit already set changes nothing). The pick runs in three registers, so that each
//! stage's logic is small while one QP leaves per cycle even when every word holds one bit:
//!
//! ```text
//!  bitmap ──choose a word──► sel ──load (snapshot, clear)──► pre ──► cur ──► m_qp
//!  (NW x 32 FF)  (RR over NW words)   (word index)            (word)   (word, served bit by bit)
//! ```
//!
//! Behaviour, exactly (the golden model `roce_cc_sim::pacer::eligible::EligibleModel`
//! states the same rules):
//! - `m_valid` is `cur != 0`; `m_qp` is `32 * cur_w + (the lowest set bit of cur)`.
//!   `m_ready` in a cycle with `m_valid` takes that QP: its bit leaves `cur`.
//! - `cur` frees at an edge when it is empty or its last bit is taken; then it loads `pre`
//!   if `pre` holds a word, else the word `sel` loads (if any). `pre` frees when it is
//!   empty or moves to `cur`.
//! - Load: when `sel` holds a word index `w` and `pre` frees, word `w` of the bitmap as it
//!   is in this cycle goes to `pre` (or straight to `cur` when `cur` frees and `pre` is
//!   empty), and the word becomes this cycle's sets into it (a bit set in the cycle of the
//!   load stays in the bitmap).
//! - Choose: when `sel` is empty or loads, it takes the first word after the last word
//!   chosen (round-robin over word indices, wrapping) that is nonempty in the bitmap and is
//!   not the word `sel` holds in this cycle. The "last word chosen" is a mask register of
//!   the words above it (`after_mask`), all zeros from reset (as if word `NW - 1` was last).
//! - Sets: at each edge every set port with `set_valid` ORs its QP's bit into the bitmap
//!   (after the load's clear of its word).
//! - `reset` (synchronous) empties the bitmap, `sel`, `pre` and `cur` and clears the
//!   round-robin mask; sets in a reset cycle are dropped.
//!
//! Order: words in round-robin order, a word's QPs in ascending order. A QP set into a word
//! after its snapshot waits for the word's next turn, so no QP is picked twice while
//! another one set before it waits, whatever the set pattern. From a set at an edge to the
//! QP at `m_qp` is two more edges when nothing else is pending (choose into `sel`, load
//! into `cur`).
//!
//! Widths: QP `QB` bits (`6..=14`), word index `WB = QB - 5` bits, `NW = 2^WB` words.

use crate::zero_ext::ZeroExt;
use rust_hdl::prelude::*;

/// Set ports per cycle.
pub const SET_PORTS: usize = 4;
/// QPs per bitmap word.
pub const WORD_BITS: usize = 32;
/// Width of a bit index in a word.
pub const BIT_W: usize = 5;

/// The eligible set of `2^QB` QPs: `WB = QB - 5`, `NW = 2^WB` (checked by `Default`).
#[derive(LogicBlock)]
pub struct Eligible<const QB: usize, const WB: usize, const NW: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset, active high: empties everything.
    pub reset: Signal<In, Bit>,
    /// Set port 0: its QP becomes eligible at this edge.
    pub set0_valid: Signal<In, Bit>,
    /// Set port 0's QP.
    pub set0_qp: Signal<In, Bits<QB>>,
    /// Set port 1: its QP becomes eligible at this edge.
    pub set1_valid: Signal<In, Bit>,
    /// Set port 1's QP.
    pub set1_qp: Signal<In, Bits<QB>>,
    /// Set port 2: its QP becomes eligible at this edge.
    pub set2_valid: Signal<In, Bit>,
    /// Set port 2's QP.
    pub set2_qp: Signal<In, Bits<QB>>,
    /// Set port 3: its QP becomes eligible at this edge.
    pub set3_valid: Signal<In, Bit>,
    /// Set port 3's QP.
    pub set3_qp: Signal<In, Bits<QB>>,
    /// A QP is picked (`cur` is not empty).
    pub m_valid: Signal<Out, Bit>,
    /// The QP picked (held until taken).
    pub m_qp: Signal<Out, Bits<QB>>,
    /// The consumer takes `m_qp` at this edge (ignored without `m_valid`).
    pub m_ready: Signal<In, Bit>,
    /// The bitmap, word `w` holding QPs `32w..32w+31`.
    bm: Vec<DFF<Bits<WORD_BITS>>>,
    /// Words after the last word chosen (bit `w` for word `w`).
    after_mask: DFF<Bits<NW>>,
    sel_v: DFF<Bit>,
    sel_w: DFF<Bits<WB>>,
    pre_v: DFF<Bit>,
    pre_w: DFF<Bits<WB>>,
    pre: DFF<Bits<WORD_BITS>>,
    cur_w: DFF<Bits<WB>>,
    cur: DFF<Bits<WORD_BITS>>,
    /// Word indices `0..NW`.
    wc: Vec<Constant<Bits<WB>>>,
    /// `wmask[j]`: the words whose index has bit `j` set.
    wmask: Vec<Constant<Bits<NW>>>,
    /// `bmask[j]`: the bits whose index has bit `j` set.
    bmask: Vec<Constant<Bits<WORD_BITS>>>,
    /// `woh[w]`: word `w`'s bit.
    woh: Vec<Constant<Bits<NW>>>,
    /// `wpow[j] = 2^j`.
    wpow: Vec<Constant<Bits<WB>>>,
    /// `bpow[j] = 2^j`.
    bpow: Vec<Constant<Bits<BIT_W>>>,
    /// Each set port's bit in its word.
    set_oh: [Signal<Local, Bits<WORD_BITS>>; SET_PORTS],
    /// `hit[4w + p]`: set port `p`'s bit if it names word `w`, else 0.
    hit: Vec<Signal<Local, Bits<WORD_BITS>>>,
    /// The sets into word `w` in this cycle.
    sets_w: Vec<Signal<Local, Bits<WORD_BITS>>>,
    /// `cand` built word by word (`cand_acc[w]`: words below `w`).
    cand_acc: Vec<Signal<Local, Bits<NW>>>,
    /// `pick_w` built bit by bit.
    pick_acc: Vec<Signal<Local, Bits<WB>>>,
    /// The index of `cur`'s lowest bit, built bit by bit.
    low_acc: Vec<Signal<Local, Bits<BIT_W>>>,
    one_nw: Constant<Bits<NW>>,
    one_w: Constant<Bits<WORD_BITS>>,
    c5: Constant<Bits<QB>>,
    /// Nonempty words of the bitmap other than the one `sel` holds.
    cand: Signal<Local, Bits<NW>>,
    /// `cand` after the last word chosen, or all of `cand` when none is after it.
    pool: Signal<Local, Bits<NW>>,
    /// The lowest bit of `pool`.
    pick_oh: Signal<Local, Bits<NW>>,
    pick_w: Signal<Local, Bits<WB>>,
    /// The lowest bit of `cur`.
    low_oh: Signal<Local, Bits<WORD_BITS>>,
    cur_w_ext: ZeroExt<WB, QB>,
    low_b_ext: ZeroExt<BIT_W, QB>,
    /// `cur` after this cycle's take.
    cur_after: Signal<Local, Bits<WORD_BITS>>,
    cur_free: Signal<Local, Bit>,
    pre_free: Signal<Local, Bit>,
    load: Signal<Local, Bit>,
    /// The bitmap's word at `sel_w`.
    sel_word: Signal<Local, Bits<WORD_BITS>>,
    sel_free: Signal<Local, Bit>,
}

impl<const QB: usize, const WB: usize, const NW: usize> Default for Eligible<QB, WB, NW> {
    fn default() -> Self {
        assert!(
            (6..=14).contains(&QB) && WB + BIT_W == QB && NW == 1 << WB,
            "Eligible<{QB}, {WB}, {NW}>: needs QB in 6..=14, WB = QB - 5, NW = 2^WB"
        );
        let mask = |n: usize, j: usize| -> Bits<NW> {
            (0..n)
                .filter(|i| i >> j & 1 == 1)
                .fold(Bits::<NW>::default(), |b, i| b.replace_bit(i, true))
        };
        Self {
            clock: Default::default(),
            reset: Default::default(),
            set0_valid: Default::default(),
            set0_qp: Default::default(),
            set1_valid: Default::default(),
            set1_qp: Default::default(),
            set2_valid: Default::default(),
            set2_qp: Default::default(),
            set3_valid: Default::default(),
            set3_qp: Default::default(),
            m_valid: Default::default(),
            m_qp: Default::default(),
            m_ready: Default::default(),
            bm: (0..NW).map(|_| Default::default()).collect(),
            after_mask: Default::default(),
            sel_v: Default::default(),
            sel_w: Default::default(),
            pre_v: Default::default(),
            pre_w: Default::default(),
            pre: Default::default(),
            cur_w: Default::default(),
            cur: Default::default(),
            wc: (0..NW).map(|w| Constant::new((w as u64).into())).collect(),
            wmask: (0..WB).map(|j| Constant::new(mask(NW, j))).collect(),
            bmask: (0..BIT_W)
                .map(|j| {
                    let m = (0..WORD_BITS as u64)
                        .filter(|i| i >> j & 1 == 1)
                        .fold(0u64, |m, i| m | 1 << i);
                    Constant::new(m.into())
                })
                .collect(),
            woh: (0..NW)
                .map(|w| Constant::new(Bits::<NW>::default().replace_bit(w, true)))
                .collect(),
            wpow: (0..WB).map(|j| Constant::new((1u64 << j).into())).collect(),
            bpow: (0..BIT_W)
                .map(|j| Constant::new((1u64 << j).into()))
                .collect(),
            set_oh: Default::default(),
            hit: (0..SET_PORTS * NW).map(|_| Default::default()).collect(),
            sets_w: (0..NW).map(|_| Default::default()).collect(),
            cand_acc: (0..=NW).map(|_| Default::default()).collect(),
            pick_acc: (0..=WB).map(|_| Default::default()).collect(),
            low_acc: (0..=BIT_W).map(|_| Default::default()).collect(),
            one_nw: Constant::new(1.into()),
            one_w: Constant::new(1.into()),
            c5: Constant::new(5.into()),
            cand: Default::default(),
            pool: Default::default(),
            pick_oh: Default::default(),
            pick_w: Default::default(),
            low_oh: Default::default(),
            cur_w_ext: Default::default(),
            low_b_ext: Default::default(),
            cur_after: Default::default(),
            cur_free: Default::default(),
            pre_free: Default::default(),
            load: Default::default(),
            sel_word: Default::default(),
            sel_free: Default::default(),
        }
    }
}

impl<const QB: usize, const WB: usize, const NW: usize> Logic for Eligible<QB, WB, NW> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, after_mask, sel_v, sel_w, pre_v, pre_w, pre, cur_w, cur
        );
        for w in 0..NW {
            self.bm[w].clock.next = self.clock.val();
        }
        // Output: the lowest bit of `cur`.
        self.low_oh.next = self.cur.q.val() & (!self.cur.q.val() + self.one_w.val());
        self.low_acc[0].next = 0.into();
        for j in 0..BIT_W {
            self.low_acc[j + 1].next = self.low_acc[j].val();
            if (self.low_oh.val() & self.bmask[j].val()).any() {
                self.low_acc[j + 1].next = self.low_acc[j].val() | self.bpow[j].val();
            }
        }
        self.cur_w_ext.i.next = self.cur_w.q.val();
        // (One-pass loops: the Verilog generator resolves an index from a loop variable,
        // not from a Rust constant.)
        for j in BIT_W..(BIT_W + 1) {
            self.low_b_ext.i.next = self.low_acc[j].val();
        }
        self.m_valid.next = self.cur.q.val().any();
        self.m_qp.next = (self.cur_w_ext.o.val() << self.c5.val()) | self.low_b_ext.o.val();
        // cur, pre, sel: which stages free at this edge.
        self.cur_after.next = self.cur.q.val();
        if self.m_ready.val() {
            self.cur_after.next = self.cur.q.val() & (self.cur.q.val() - self.one_w.val());
        }
        self.cur_free.next = !self.cur_after.val().any();
        self.pre_free.next = !self.pre_v.q.val() | self.cur_free.val();
        self.load.next = self.sel_v.q.val() & self.pre_free.val();
        self.sel_free.next = !self.sel_v.q.val() | self.load.val();
        // The word `sel` holds, as the bitmap has it in this cycle.
        self.sel_word.next = 0.into();
        for w in 0..NW {
            if self.sel_w.q.val() == self.wc[w].val() {
                self.sel_word.next = self.bm[w].q.val();
            }
        }
        self.cur.d.next = self.cur_after.val();
        if self.cur_free.val() {
            if self.pre_v.q.val() {
                self.cur.d.next = self.pre.q.val();
                self.cur_w.d.next = self.pre_w.q.val();
                self.pre_v.d.next = false;
            } else if self.sel_v.q.val() {
                // Load straight into `cur` (`pre` is empty).
                self.cur.d.next = self.sel_word.val();
                self.cur_w.d.next = self.sel_w.q.val();
            }
        }
        // Load: the word `sel` holds moves on; the bitmap keeps only new sets.
        if self.load.val() {
            if self.pre_v.q.val() | !self.cur_free.val() {
                self.pre_v.d.next = true;
                self.pre_w.d.next = self.sel_w.q.val();
                self.pre.d.next = self.sel_word.val();
            }
            self.sel_v.d.next = false;
        }
        // Choose: round-robin over the nonempty words, not the word in `sel`.
        self.cand_acc[0].next = 0.into();
        for w in 0..NW {
            self.cand_acc[w + 1].next = self.cand_acc[w].val();
            if self.bm[w].q.val().any()
                & !(self.sel_v.q.val() & (self.sel_w.q.val() == self.wc[w].val()))
            {
                self.cand_acc[w + 1].next = self.cand_acc[w].val() | self.woh[w].val();
            }
        }
        for w in NW..(NW + 1) {
            self.cand.next = self.cand_acc[w].val();
        }
        self.pool.next = self.cand.val();
        if (self.cand.val() & self.after_mask.q.val()).any() {
            self.pool.next = self.cand.val() & self.after_mask.q.val();
        }
        self.pick_oh.next = self.pool.val() & (!self.pool.val() + self.one_nw.val());
        self.pick_acc[0].next = 0.into();
        for j in 0..WB {
            self.pick_acc[j + 1].next = self.pick_acc[j].val();
            if (self.pick_oh.val() & self.wmask[j].val()).any() {
                self.pick_acc[j + 1].next = self.pick_acc[j].val() | self.wpow[j].val();
            }
        }
        for j in WB..(WB + 1) {
            self.pick_w.next = self.pick_acc[j].val();
        }
        if self.sel_free.val() & self.cand.val().any() {
            self.sel_v.d.next = true;
            self.sel_w.d.next = self.pick_w.val();
            self.after_mask.d.next =
                !(self.pick_oh.val() | (self.pick_oh.val() - self.one_nw.val()));
        }
        // Sets: each port's bit, in the word it names.
        self.set_oh[0].next = self.one_w.val() << self.set0_qp.val().get_bits::<BIT_W>(0);
        self.set_oh[1].next = self.one_w.val() << self.set1_qp.val().get_bits::<BIT_W>(0);
        self.set_oh[2].next = self.one_w.val() << self.set2_qp.val().get_bits::<BIT_W>(0);
        self.set_oh[3].next = self.one_w.val() << self.set3_qp.val().get_bits::<BIT_W>(0);
        for w in 0..NW {
            self.hit[4 * w].next = 0.into();
            if self.set0_valid.val() & (self.set0_qp.val().get_bits::<WB>(5) == self.wc[w].val()) {
                self.hit[4 * w].next = self.set_oh[0].val();
            }
            self.hit[4 * w + 1].next = 0.into();
            if self.set1_valid.val() & (self.set1_qp.val().get_bits::<WB>(5) == self.wc[w].val()) {
                self.hit[4 * w + 1].next = self.set_oh[1].val();
            }
            self.hit[4 * w + 2].next = 0.into();
            if self.set2_valid.val() & (self.set2_qp.val().get_bits::<WB>(5) == self.wc[w].val()) {
                self.hit[4 * w + 2].next = self.set_oh[2].val();
            }
            self.hit[4 * w + 3].next = 0.into();
            if self.set3_valid.val() & (self.set3_qp.val().get_bits::<WB>(5) == self.wc[w].val()) {
                self.hit[4 * w + 3].next = self.set_oh[3].val();
            }
            self.sets_w[w].next = self.hit[4 * w].val()
                | self.hit[4 * w + 1].val()
                | self.hit[4 * w + 2].val()
                | self.hit[4 * w + 3].val();
            // A word loaded in this cycle keeps only its new sets.
            self.bm[w].d.next = self.bm[w].q.val() | self.sets_w[w].val();
            if self.load.val() & (self.sel_w.q.val() == self.wc[w].val()) {
                self.bm[w].d.next = self.sets_w[w].val();
            }
        }
        if self.reset.val() {
            for w in 0..NW {
                self.bm[w].d.next = 0.into();
            }
            self.after_mask.d.next = 0.into();
            self.sel_v.d.next = false;
            self.pre_v.d.next = false;
            self.cur.d.next = 0.into();
        }
    }
}

/// The default size: 1024 QPs.
pub type Eligible1024 = Eligible<10, 5, 32>;

#[cfg(test)]
mod tests {
    use super::*;

    fn tick(e: &mut Eligible<7, 2, 4>, sets: &[u64], ready: bool, reset: bool) -> Option<u64> {
        let ports = sets.len();
        assert!(ports <= SET_PORTS);
        e.reset.next = reset;
        e.set0_valid.next = ports > 0;
        e.set0_qp.next = sets.first().copied().unwrap_or(0).into();
        e.set1_valid.next = ports > 1;
        e.set1_qp.next = sets.get(1).copied().unwrap_or(0).into();
        e.set2_valid.next = ports > 2;
        e.set2_qp.next = sets.get(2).copied().unwrap_or(0).into();
        e.set3_valid.next = ports > 3;
        e.set3_qp.next = sets.get(3).copied().unwrap_or(0).into();
        e.m_ready.next = ready;
        e.clock.next = Clock { clk: false };
        assert!(simulate(e, 50));
        let out = e.m_valid.val().then(|| e.m_qp.val().to_u64());
        e.clock.next = Clock { clk: true };
        assert!(simulate(e, 50));
        out.filter(|_| ready)
    }

    /// QPs set in one burst leave one per cycle, words in order from word 0, each word's
    /// QPs ascending, every QP once; the first three edges after the sets are the pipeline.
    #[test]
    fn a_burst_leaves_one_per_cycle_in_word_then_bit_order() {
        let mut e = Eligible::<7, 2, 4>::default();
        e.connect_all();
        tick(&mut e, &[], false, true);
        let qps = [100u64, 3, 35, 64, 1, 33, 127, 96];
        tick(&mut e, &qps[..4], false, false);
        tick(&mut e, &qps[4..], true, false);
        let mut got = Vec::new();
        for _ in 0..12 {
            if let Some(q) = tick(&mut e, &[], true, false) {
                got.push(q);
            }
        }
        assert_eq!(got, vec![1, 3, 33, 35, 64, 96, 100, 127]);
    }

    /// One QP in each word, re-set as it leaves: one pick per cycle.
    #[test]
    fn one_bit_per_word_gives_one_pick_per_cycle() {
        let mut e = Eligible::<7, 2, 4>::default();
        e.connect_all();
        tick(&mut e, &[], false, true);
        tick(&mut e, &[5, 37, 69, 101], false, false);
        let mut picks = 0;
        let mut sets: Vec<u64> = Vec::new();
        for k in 0..100 {
            let got = tick(&mut e, &sets, true, false);
            sets = got.into_iter().collect();
            if k >= 10 {
                assert!(got.is_some(), "cycle {k}: no pick");
                picks += 1;
            }
        }
        assert_eq!(picks, 90);
    }
}
