//! `QpBits`: one bit per QP in flip-flops, two set ports, one clear port and one
//! combinational read: the pacer's `active`, `parked` and `poke` bits.
//!
//! The bits are `NW` words of 32 (QP `q` is bit `q % 32` of word `q / 32`), so a set or a
//! clear decodes a word index and a 32-bit one-hot. At an edge a bit becomes `(bit | set0 |
//! set1) & !clear`: a clear wins over a set of the same QP in the same cycle. The read is
//! a `2^QB`-to-1 mux of the current bits (not this cycle's sets). `reset` clears every bit.

use rust_hdl::prelude::*;

/// `2^QB = N` bits in `NW = N / 32` words; `WB = QB - 5` (checked by `Default`).
#[derive(LogicBlock)]
pub struct QpBits<const QB: usize, const WB: usize, const NW: usize, const N: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset, active high: every bit cleared.
    pub reset: Signal<In, Bit>,
    /// Set port 0: `set0_qp`'s bit is set at the edge.
    pub set0_valid: Signal<In, Bit>,
    /// Set port 0's QP.
    pub set0_qp: Signal<In, Bits<QB>>,
    /// Set port 1.
    pub set1_valid: Signal<In, Bit>,
    /// Set port 1's QP.
    pub set1_qp: Signal<In, Bits<QB>>,
    /// Clear port: `clr_qp`'s bit is cleared at the edge (over a set of it).
    pub clr_valid: Signal<In, Bit>,
    /// The cleared QP.
    pub clr_qp: Signal<In, Bits<QB>>,
    /// The QP read.
    pub rd_qp: Signal<In, Bits<QB>>,
    /// `rd_qp`'s bit as it is in this cycle.
    pub rd: Signal<Out, Bit>,
    words: Vec<DFF<Bits<32>>>,
    wc: Vec<Constant<Bits<WB>>>,
    one_w: Constant<Bits<32>>,
    s0_oh: Signal<Local, Bits<32>>,
    s1_oh: Signal<Local, Bits<32>>,
    c_oh: Signal<Local, Bits<32>>,
    s0_w: Signal<Local, Bits<WB>>,
    s1_w: Signal<Local, Bits<WB>>,
    c_w: Signal<Local, Bits<WB>>,
    /// Each word with this cycle's sets.
    nxt: Vec<Signal<Local, Bits<32>>>,
    /// The words zero-extended and placed, and the flat vector built from them.
    zx: Vec<crate::zero_ext::ZeroExt<32, N>>,
    flat_acc: Vec<Signal<Local, Bits<N>>>,
    flat: Signal<Local, Bits<N>>,
    wsh: Vec<Constant<Bits<16>>>,
}

impl<const QB: usize, const WB: usize, const NW: usize, const N: usize> Default
    for QpBits<QB, WB, NW, N>
{
    fn default() -> Self {
        assert!(
            (6..=14).contains(&QB) && WB == QB - 5 && NW == 1 << WB && N == 1 << QB,
            "QpBits<{QB}, {WB}, {NW}, {N}>: needs QB in 6..=14, WB = QB - 5, NW = 2^WB, N = 2^QB"
        );
        Self {
            clock: Default::default(),
            reset: Default::default(),
            set0_valid: Default::default(),
            set0_qp: Default::default(),
            set1_valid: Default::default(),
            set1_qp: Default::default(),
            clr_valid: Default::default(),
            clr_qp: Default::default(),
            rd_qp: Default::default(),
            rd: Default::default(),
            words: (0..NW).map(|_| Default::default()).collect(),
            wc: (0..NW).map(|w| Constant::new((w as u64).into())).collect(),
            one_w: Constant::new(1.into()),
            s0_oh: Default::default(),
            s1_oh: Default::default(),
            c_oh: Default::default(),
            s0_w: Default::default(),
            s1_w: Default::default(),
            c_w: Default::default(),
            nxt: (0..NW).map(|_| Default::default()).collect(),
            zx: (0..NW).map(|_| Default::default()).collect(),
            flat_acc: (0..=NW).map(|_| Default::default()).collect(),
            flat: Default::default(),
            wsh: (0..NW)
                .map(|w| Constant::new((32 * w as u64).into()))
                .collect(),
        }
    }
}

impl<const QB: usize, const WB: usize, const NW: usize, const N: usize> Logic
    for QpBits<QB, WB, NW, N>
{
    #[hdl_gen]
    fn update(&mut self) {
        for w in 0..NW {
            self.words[w].clock.next = self.clock.val();
        }
        self.s0_w.next = self.set0_qp.val().get_bits::<WB>(5);
        self.s1_w.next = self.set1_qp.val().get_bits::<WB>(5);
        self.c_w.next = self.clr_qp.val().get_bits::<WB>(5);
        self.s0_oh.next = 0.into();
        if self.set0_valid.val() {
            self.s0_oh.next = self.one_w.val() << self.set0_qp.val().get_bits::<5>(0);
        }
        self.s1_oh.next = 0.into();
        if self.set1_valid.val() {
            self.s1_oh.next = self.one_w.val() << self.set1_qp.val().get_bits::<5>(0);
        }
        self.c_oh.next = 0.into();
        if self.clr_valid.val() {
            self.c_oh.next = self.one_w.val() << self.clr_qp.val().get_bits::<5>(0);
        }
        for w in 0..NW {
            self.nxt[w].next = self.words[w].q.val();
            if self.s0_w.val() == self.wc[w].val() {
                self.nxt[w].next = self.words[w].q.val() | self.s0_oh.val();
            }
            if self.s1_w.val() == self.wc[w].val() {
                self.nxt[w].next = self.words[w].q.val() | self.s1_oh.val();
            }
            if (self.s0_w.val() == self.wc[w].val()) & (self.s1_w.val() == self.wc[w].val()) {
                self.nxt[w].next = self.words[w].q.val() | self.s0_oh.val() | self.s1_oh.val();
            }
            self.words[w].d.next = self.nxt[w].val();
            if self.c_w.val() == self.wc[w].val() {
                self.words[w].d.next = self.nxt[w].val() & !self.c_oh.val();
            }
            if self.reset.val() {
                self.words[w].d.next = 0.into();
            }
        }
        self.flat_acc[0].next = 0.into();
        for w in 0..NW {
            self.zx[w].i.next = self.words[w].q.val();
            self.flat_acc[w + 1].next =
                self.flat_acc[w].val() | (self.zx[w].o.val() << self.wsh[w].val());
        }
        for w in NW..(NW + 1) {
            self.flat.next = self.flat_acc[w].val();
        }
        self.rd.next = self.flat.val().get_bit(self.rd_qp.val().index());
    }
}
