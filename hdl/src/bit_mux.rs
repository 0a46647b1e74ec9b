//! `BitMux`: one bit of an `N`-bit vector chosen by a `B`-bit index, as a tree of 2:1
//! multiplexers.
//!
//! `v[i]` with a variable `i` is what rust-hdl writes for `get_bit`, and yosys builds it
//! (`$shiftx`) as a full-width shifter whose unused bits it does not all remove: for a
//! 1024-bit vector about 1900 LUT4, against about 350 for a tree. This unit writes the tree:
//! level `l` keeps the lower or the upper half of level `l - 1` by index bit `B - l`, so
//! after `B` levels bit 0 is `v[i]`; only the halves that reach bit 0 are logic after
//! synthesis (about `N` 2:1 multiplexers). Combinational.

use rust_hdl::prelude::*;

/// `picked = v[index]`, `N = 2^B` bits (checked by `Default`).
#[derive(LogicBlock)]
pub struct BitMux<const N: usize, const B: usize> {
    /// The vector.
    pub v: Signal<In, Bits<N>>,
    /// The bit's index.
    pub index: Signal<In, Bits<B>>,
    /// `v[index]`.
    pub picked: Signal<Out, Bit>,
    /// `lvl[l]`: after `l` halvings, the chosen bit is among the low `N >> l` bits.
    lvl: Vec<Signal<Local, Bits<N>>>,
    /// `imask[l]`: index bit `B - 1 - l`.
    imask: Vec<Constant<Bits<B>>>,
    /// `half[l] = N >> (l + 1)`.
    half: Vec<Constant<Bits<16>>>,
    one: Constant<Bits<N>>,
}

impl<const N: usize, const B: usize> Default for BitMux<N, B> {
    fn default() -> Self {
        assert!(
            (1..=15).contains(&B) && N == 1 << B,
            "BitMux<{N}, {B}>: needs N = 2^B, B in 1..=15"
        );
        Self {
            v: Default::default(),
            index: Default::default(),
            picked: Default::default(),
            lvl: (0..=B).map(|_| Default::default()).collect(),
            imask: (0..B)
                .map(|l| Constant::new((1u64 << (B - 1 - l)).into()))
                .collect(),
            half: (0..B)
                .map(|l| Constant::new(((N >> (l + 1)) as u64).into()))
                .collect(),
            one: Constant::new(1.into()),
        }
    }
}

impl<const N: usize, const B: usize> Logic for BitMux<N, B> {
    #[hdl_gen]
    fn update(&mut self) {
        self.lvl[0].next = self.v.val();
        for l in 0..B {
            self.lvl[l + 1].next = self.lvl[l].val();
            if (self.index.val() & self.imask[l].val()).any() {
                self.lvl[l + 1].next = self.lvl[l].val() >> self.half[l].val();
            }
        }
        for l in B..(B + 1) {
            self.picked.next = (self.lvl[l].val() & self.one.val()).any();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every index of a 64-bit pattern picks its bit.
    #[test]
    fn picks_every_bit() {
        let mut m = BitMux::<64, 6>::default();
        m.connect_all();
        let pat: u64 = 0x9e37_79b9_7f4a_7c15;
        m.v.next = pat.into();
        for i in 0..64u64 {
            m.index.next = i.into();
            assert!(simulate(&mut m, 20));
            assert_eq!(m.picked.val(), pat >> i & 1 == 1, "bit {i}");
        }
    }
}
