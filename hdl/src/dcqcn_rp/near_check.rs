//! `NearCheck`: the compares `RpNear` makes at its first edge between one candidate word
//! and the event's instants (see [`super::near`], edge 1).
//!
//! `RpNear` takes its word from one of five sources (its own result, the RP's write-back
//! registers W1, W2, W3, or the history of written words), all of them registers. It
//! runs one `NearCheck` per source and registers the OR of the five checks' [`NearHits`]:
//! each check's results are zero unless its source is the chosen one (`take`), so each
//! compare starts at the source's flip-flops and the choice is one AND-OR level after it.
//! Comparing after the choice put the select's route (it reaches every bit of the 409-bit
//! word) in front of 32-bit equalities; a priority chain of five 2:1 choices after the
//! compares was up to three more logic levels.
//!
//! Purely combinational: no clock, no registers.

use super::state::TimeWord;
use super::widths::*;
use rust_hdl::prelude::*;

/// The results of the first edge's compares for one candidate word. Fields as in
/// `RpNear`'s edge 1: `f{a,d,i}` for the alpha, decrease and increase timers; `_n` against
/// now, `_l` against now a microsecond earlier; `_el` and `_eh` the epochs' low and high
/// 16 bits equal, `_r` the remainders.
#[derive(Clone, Copy, Debug, Default, PartialEq, LogicStruct)]
pub struct NearHits {
    /// Now's cycle within the microsecond is before the word's: the instant is a
    /// microsecond before now.
    pub late: Bit,
    pub fa_n_el: Bit,
    pub fa_n_eh: Bit,
    pub fa_n_r: Bit,
    pub fa_l_el: Bit,
    pub fa_l_eh: Bit,
    pub fa_l_r: Bit,
    pub fd_n_el: Bit,
    pub fd_n_eh: Bit,
    pub fd_n_r: Bit,
    pub fd_l_el: Bit,
    pub fd_l_eh: Bit,
    pub fd_l_r: Bit,
    pub fi_n_el: Bit,
    pub fi_n_eh: Bit,
    pub fi_n_r: Bit,
    pub fi_l_el: Bit,
    pub fi_l_eh: Bit,
    pub fi_l_r: Bit,
    /// An increase event at the instant is in fast recovery (golden `phases`: the byte
    /// counter off or `BC < threshold`, and `T < threshold`).
    pub ti_fr: Bit,
    /// An increase event at the instant is hyper increase, unless fast recovery
    /// (`byte_off | BC > threshold`, and `T > threshold`).
    pub ti_hai: Bit,
}

/// One candidate word's compares (module docs).
#[derive(LogicBlock, Default)]
pub struct NearCheck {
    /// The candidate word's cycle within the microsecond of its write (`QpWord::sub`).
    pub sub: Signal<In, Bits<SUB_W>>,
    /// The candidate's next alpha-timer expiry, epoch and remainder (`ta_e`, `ta_r`).
    pub ta_e: Signal<In, Bits<EPOCH_W>>,
    pub ta_r: Signal<In, Bits<REM_W>>,
    /// The candidate's next decrease check (`td_e`, `td_r`).
    pub td_e: Signal<In, Bits<EPOCH_W>>,
    pub td_r: Signal<In, Bits<REM_W>>,
    /// The candidate's next increase-timer expiry (`ti_e`, `ti_r`).
    pub ti_e: Signal<In, Bits<EPOCH_W>>,
    pub ti_r: Signal<In, Bits<REM_W>>,
    /// The candidate's timer and byte stage counters (`t`, `bc`).
    pub t: Signal<In, Bits<STAGE_W>>,
    pub bc: Signal<In, Bits<STAGE_W>>,
    /// The event's now.
    pub now: Signal<In, TimeWord>,
    /// Now a microsecond earlier in the alpha, decrease and increase radices.
    pub ago_a_e: Signal<In, Bits<EPOCH_W>>,
    pub ago_a_r: Signal<In, Bits<REM_W>>,
    pub ago_d_e: Signal<In, Bits<EPOCH_W>>,
    pub ago_d_r: Signal<In, Bits<REM_W>>,
    pub ago_i_e: Signal<In, Bits<EPOCH_W>>,
    pub ago_i_r: Signal<In, Bits<REM_W>>,
    /// The threshold (`rpg_threshold`), 6 bits wide.
    pub th6: Signal<In, Bits<STAGE_W>>,
    /// The byte counter is off (`rpg_byte_reset == 0`).
    pub byte_off: Signal<In, Bit>,
    /// This candidate is the chosen one: the results are the compares' (else all 0).
    pub take: Signal<In, Bit>,
    /// The compares' results, each ANDed with `take`.
    pub o: Signal<Out, NearHits>,
    /// Now's epochs, apart from the word (so that their halves are slices of a signal).
    now_a_e: Signal<Local, Bits<EPOCH_W>>,
    now_d_e: Signal<Local, Bits<EPOCH_W>>,
    now_i_e: Signal<Local, Bits<EPOCH_W>>,
}

impl Logic for NearCheck {
    #[hdl_gen]
    fn update(&mut self) {
        self.now_a_e.next = self.now.val().a_e;
        self.now_d_e.next = self.now.val().d_e;
        self.now_i_e.next = self.now.val().i_e;
        self.o.next.late = self.take.val() & (self.now.val().sub < self.sub.val());
        self.o.next.fa_n_el = self.take.val()
            & (self.now_a_e.val().get_bits::<16>(0) == self.ta_e.val().get_bits::<16>(0));
        self.o.next.fa_n_eh = self.take.val()
            & (self.now_a_e.val().get_bits::<16>(16) == self.ta_e.val().get_bits::<16>(16));
        self.o.next.fa_n_r = self.take.val() & (self.now.val().a_r == self.ta_r.val());
        self.o.next.fa_l_el = self.take.val()
            & (self.ago_a_e.val().get_bits::<16>(0) == self.ta_e.val().get_bits::<16>(0));
        self.o.next.fa_l_eh = self.take.val()
            & (self.ago_a_e.val().get_bits::<16>(16) == self.ta_e.val().get_bits::<16>(16));
        self.o.next.fa_l_r = self.take.val() & (self.ago_a_r.val() == self.ta_r.val());
        self.o.next.fd_n_el = self.take.val()
            & (self.now_d_e.val().get_bits::<16>(0) == self.td_e.val().get_bits::<16>(0));
        self.o.next.fd_n_eh = self.take.val()
            & (self.now_d_e.val().get_bits::<16>(16) == self.td_e.val().get_bits::<16>(16));
        self.o.next.fd_n_r = self.take.val() & (self.now.val().d_r == self.td_r.val());
        self.o.next.fd_l_el = self.take.val()
            & (self.ago_d_e.val().get_bits::<16>(0) == self.td_e.val().get_bits::<16>(0));
        self.o.next.fd_l_eh = self.take.val()
            & (self.ago_d_e.val().get_bits::<16>(16) == self.td_e.val().get_bits::<16>(16));
        self.o.next.fd_l_r = self.take.val() & (self.ago_d_r.val() == self.td_r.val());
        self.o.next.fi_n_el = self.take.val()
            & (self.now_i_e.val().get_bits::<16>(0) == self.ti_e.val().get_bits::<16>(0));
        self.o.next.fi_n_eh = self.take.val()
            & (self.now_i_e.val().get_bits::<16>(16) == self.ti_e.val().get_bits::<16>(16));
        self.o.next.fi_n_r = self.take.val() & (self.now.val().i_r == self.ti_r.val());
        self.o.next.fi_l_el = self.take.val()
            & (self.ago_i_e.val().get_bits::<16>(0) == self.ti_e.val().get_bits::<16>(0));
        self.o.next.fi_l_eh = self.take.val()
            & (self.ago_i_e.val().get_bits::<16>(16) == self.ti_e.val().get_bits::<16>(16));
        self.o.next.fi_l_r = self.take.val() & (self.ago_i_r.val() == self.ti_r.val());
        self.o.next.ti_fr = self.take.val()
            & ((self.byte_off.val() | (self.bc.val() < self.th6.val()))
                & (self.t.val() < self.th6.val()));
        self.o.next.ti_hai = self.take.val()
            & ((self.byte_off.val() | (self.bc.val() > self.th6.val()))
                & (self.t.val() > self.th6.val()));
    }
}
