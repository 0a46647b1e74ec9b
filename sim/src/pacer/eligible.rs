//! `EligibleModel`: the golden model of the pacer's eligible set
//! (`roce_cc_hdl::pacer::eligible::Eligible`), cycle by cycle: a bitmap of 32-bit words,
//! a round-robin choice of a word, the word's snapshot served bit by bit.
//!
//! The rules are the hardware's, stated on plain integers: each cycle [`EligibleModel::out`]
//! gives `m_valid`/`m_qp` from the registers, and [`EligibleModel::clock`] is the edge,
//! with the cycle's sets and `m_ready`.

/// QPs per bitmap word.
pub const WORD_BITS: u32 = 32;

/// The eligible set of `qps` QPs (a power of two, 64..=16384).
#[derive(Clone, Debug)]
pub struct EligibleModel {
    /// The bitmap, word `w` holding QPs `32w..32w+31`.
    bm: Vec<u32>,
    /// The last word chosen (`None` from reset: as if the last word).
    last: Option<usize>,
    /// The word index `sel` holds.
    sel: Option<usize>,
    /// The word `pre` holds: (index, bits).
    pre: Option<(usize, u32)>,
    /// `cur`: its word index and the bits not yet taken.
    cur_w: usize,
    cur: u32,
    /// Words of `bm` that are not zero (so an empty bitmap is known without a search).
    nonzero: usize,
}

impl EligibleModel {
    /// An empty set of `qps` QPs.
    pub fn new(qps: u32) -> Self {
        assert!(
            qps.is_power_of_two() && (64..=16384).contains(&qps),
            "EligibleModel: {qps} QPs (a power of two, 64..=16384)"
        );
        Self {
            bm: vec![0; (qps / WORD_BITS) as usize],
            last: None,
            sel: None,
            pre: None,
            cur_w: 0,
            cur: 0,
            nonzero: 0,
        }
    }

    /// `m_valid`, `m_qp` in this cycle: the lowest QP of `cur`.
    pub fn out(&self) -> Option<u32> {
        (self.cur != 0).then(|| self.cur_w as u32 * WORD_BITS + self.cur.trailing_zeros())
    }

    /// Whether any QP is set, chosen or picked.
    pub fn is_empty(&self) -> bool {
        self.cur == 0 && self.pre.is_none() && self.sel.is_none() && self.bm.iter().all(|&w| w == 0)
    }

    /// The edge: `sets` are this cycle's set ports (at most four, the QPs below `qps`),
    /// `m_ready` the consumer's ready. Returns the QP taken at this edge, if any.
    pub fn clock(&mut self, sets: &[u32], m_ready: bool, reset: bool) -> Option<u32> {
        assert!(sets.len() <= 4, "four set ports");
        let taken = self.out().filter(|_| m_ready);
        let cur_after = if m_ready {
            self.cur & self.cur.wrapping_sub(1)
        } else {
            self.cur
        };
        let cur_free = cur_after == 0;
        let pre_free = self.pre.is_none() || cur_free;
        let load = self.sel.filter(|_| pre_free);
        let sel_free = self.sel.is_none() || load.is_some();
        // Choose, from the bitmap of this cycle without the word `sel` holds.
        let nw = self.bm.len();
        let cand = |w: usize| self.bm[w] != 0 && self.sel != Some(w);
        let start = self.last.map_or(0, |l| l + 1);
        let chosen = if self.nonzero == 0 {
            None
        } else {
            (start..nw).chain(0..start).find(|&w| cand(w))
        };
        // cur, pre.
        let mut cur = (self.cur_w, cur_after);
        let mut pre = self.pre;
        let sel_word = load.map(|w| (w, self.bm[w]));
        if cur_free {
            if let Some(p) = pre.take() {
                cur = p;
            } else if let Some(s) = sel_word {
                cur = s;
            }
        }
        if let Some(s) = sel_word
            && (self.pre.is_some() || !cur_free)
        {
            pre = Some(s);
        }
        // The bitmap: a loaded word keeps only this cycle's sets.
        if let Some(w) = load {
            self.nonzero -= usize::from(self.bm[w] != 0);
            self.bm[w] = 0;
        }
        for &q in sets {
            let w = (q / WORD_BITS) as usize;
            assert!(w < nw, "set of QP {q} beyond {} QPs", nw as u32 * WORD_BITS);
            self.nonzero += usize::from(self.bm[w] == 0);
            self.bm[w] |= 1 << (q % WORD_BITS);
        }
        debug_assert_eq!(self.nonzero, self.bm.iter().filter(|&&w| w != 0).count());
        if load.is_some() {
            self.sel = None;
        }
        if sel_free && let Some(w) = chosen {
            self.sel = Some(w);
            self.last = Some(w);
        }
        (self.cur_w, self.cur) = cur;
        self.pre = pre;
        if reset {
            *self = Self::new(nw as u32 * WORD_BITS);
            return None;
        }
        taken
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// With a consumer always ready and one set per cycle of a random QP: no QP is taken
    /// more often than it was set, and once the sets stop every QP is taken after its last
    /// set and the set drains.
    #[test]
    fn every_set_qp_is_taken_and_the_set_drains() {
        let mut m = EligibleModel::new(256);
        let mut x: u32 = 0x9e37_79b9;
        let (mut sets_n, mut takes_n) = (vec![0u32; 256], vec![0u32; 256]);
        let (mut last_set, mut last_take) = (vec![None; 256], vec![None; 256]);
        for k in 0..5000 {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            let sets: Vec<u32> = if k < 4000 && x % 3 == 0 {
                vec![x % 256]
            } else {
                vec![]
            };
            if let Some(q) = m.clock(&sets, true, false) {
                takes_n[q as usize] += 1;
                last_take[q as usize] = Some(k);
                assert!(
                    takes_n[q as usize] <= sets_n[q as usize],
                    "cycle {k}: QP {q}"
                );
            }
            for &q in &sets {
                sets_n[q as usize] += 1;
                last_set[q as usize] = Some(k);
            }
        }
        assert!(m.is_empty());
        for q in 0..256 {
            assert!(
                last_set[q].is_none() || last_take[q] > last_set[q],
                "QP {q}: set at {:?}, taken at {:?}",
                last_set[q],
                last_take[q]
            );
        }
    }
}
