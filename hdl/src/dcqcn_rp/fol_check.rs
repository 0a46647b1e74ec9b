//! `FolCheck`: the RP's follower check (see the module docs of [`super`], "The same-QP
//! path: followers").
//!
//! It holds the last-writer table (one [`LastWrite`] per QP in block RAM, written from S1
//! by every event that writes) and checks one queued event per cycle against it: the RP
//! loads the event at an edge (its entry, registered one-hot; in the next cycle its QP,
//! `ck_qp`, is read from the entry, and its stamp into four registers, one per group of
//! four entries, whose OR is the stamp here an edge later), and [`FOL_CHECK_EDGES`] edges
//! later the RP registers the result into the event's queue entry. The check is a pipeline: a new event may be loaded at every edge.
//!
//! | edge after the load | registers |
//! |---|---|
//! | 1 | the block RAM's output register: the table's word at `qp`; (in the RP) the stamp's group registers (`ck_gs`, `ck_ge`, `ck_gr`), whose OR is `now_*` |
//! | 2 | that word again (`lw_r`), so the compares start at a flip-flop beside them; the stamp (`n2_*`), its remainder and epoch less one and whether its remainder is 0 (`n2_rm1`, `n2_em1`, `n2_r0`) |
//! | 3 | the stamp's microsecond equals the writer's (`same`), its cycle within it is earlier than the writer's (`sub_lt`); the terms of "the stamp is the microsecond after the writer's" (`eq_*`, below); the distance now (`cyc - lw.cyc`) and whether it is far enough (`far`); the writer was a follower |
//! | 4 | (the RP's entry registers) `st`: the stamp is less than a microsecond after the writer's; `ok`: that, and the writer will be far enough ahead at the next decision; `d`: that distance; `wf`: the writer was a follower |
//!
//! The outputs are the logic between edge 3 and edge 4: the RP registers them per entry.
//! That logic is a function of a few registers (`ok` feeds the RP's choice of its next
//! follower), so every compare is registered at edge 3 at the latest. "The stamp (`n`) is the microsecond
//! after the writer's (`w`)" in the increase radix, whose remainder counts to `p_inc`:
//! when `w.r + 1 != p_inc`, `n.e == w.e` and `n.r == w.r + 1`, that is `n.r - 1 == w.r`;
//! when `w.r + 1 == p_inc`, `n.r == 0` and `n.e == w.e + 1`, that is `n.e - 1 == w.e`
//! (all modulo the fields' widths, as the adds they replace were). So the stamp's side is
//! decremented at edge 2, away from the table, and edge 3 registers the equalities with
//! the writer's word (`eq_e`, `same`, `eq_rm1`, `eq_em1`) and `w.r + 1 == p_inc`
//! (`eq_pm1`), which reads `p_inc` at the same edge as before.

use super::state::{CYC_W, LastWrite, RpEvent, SLOT_W};
use super::widths::*;
use rust_hdl::prelude::*;

/// Edges from the one that loads the checked entry (the RP's `ck_src`) to
/// the one that registers the result in the entry: the RAM's output register, `lw_r`, the
/// compares, the result (the table above).
pub const FOL_CHECK_EDGES: usize = 4;

/// The follower check: the last-writer table, read at `qp`, and whether the event with
/// stamp (`now_*`) may follow that writer.
#[derive(LogicBlock)]
pub struct FolCheck<const QB: usize> {
    pub clock: Signal<In, Clock>,
    /// The checked entry's QP (a register in the RP, loaded with the entry): the table's
    /// read address.
    pub qp: Signal<In, Bits<QB>>,
    /// The checked entry's time stamp, one edge after its `qp`: the cycle within the
    /// microsecond (`TimeWord::sub`), and the increase radix's epoch and remainder
    /// (`TimeWord::i_e`, `i_r`), the fields the check reads. The inputs come from registers
    /// through one LUT level (the OR of the RP's four group registers).
    pub now_sub: Signal<In, Bits<SUB_W>>,
    pub now_ie: Signal<In, Bits<EPOCH_W>>,
    pub now_ir: Signal<In, Bits<REM_W>>,
    /// The RP's free-running cycle count (`cyc`): distances are its differences.
    pub cyc: Signal<In, Bits<CYC_W>>,
    /// The increase timer's period in microseconds (`RpCfgWord::p_inc`).
    pub p_inc: Signal<In, Bits<REM_W>>,
    /// Table write port: an event that writes went to S1 in the last cycle (`wr_en`), its
    /// QP and what the table keeps of it.
    pub wr_en: Signal<In, Bit>,
    pub wr_qp: Signal<In, Bits<QB>>,
    pub wr_data: Signal<In, LastWrite>,
    /// The stamp loaded three edges ago is less than a microsecond after its QP's last
    /// writer's (the same microsecond, or the next one and an earlier cycle within it):
    /// `update_near`'s condition.
    pub st: Signal<Out, Bit>,
    /// `st`, and the writer is far enough ahead for the event to go at the edge after
    /// next: 8 slots, 9 if the writer went from the queue with its word read from the RAM
    /// (`cyc - lw.cyc >= 7`, or `>= 6` for a follower, two edges before that decision).
    pub ok: Signal<Out, Bit>,
    /// The distance the event would be behind the writer if it went at the edge after
    /// next, in slots.
    pub d: Signal<Out, Bits<SLOT_W>>,
    /// The writer went as a follower.
    pub wf: Signal<Out, Bit>,
    lw: RAM<LastWrite, QB>,
    lw_r: DFF<LastWrite>,
    n2_sub: DFF<Bits<SUB_W>>,
    n2_e: DFF<Bits<EPOCH_W>>,
    n2_r: DFF<Bits<REM_W>>,
    /// The stamp's increase-radix remainder less one, epoch less one, remainder zero.
    n2_rm1: DFF<Bits<REM_W>>,
    n2_em1: DFF<Bits<EPOCH_W>>,
    n2_r0: DFF<Bit>,
    same: DFF<Bit>,
    sub_lt: DFF<Bit>,
    /// `n.r - 1 == w.r`, `n.e - 1 == w.e`, `w.r + 1 == p_inc` (module docs).
    eq_rm1: DFF<Bit>,
    eq_em1: DFF<Bit>,
    eq_pm1: DFF<Bit>,
    /// The stamp's epoch equals the writer's (a term of `same`, kept for `next_us`).
    eq_e: DFF<Bit>,
    r0_3: DFF<Bit>,
    dd: DFF<Bits<CYC_W>>,
    /// The distance is far enough for `ok` (`dd >= 7`, or `>= 6` after a follower).
    far: DFF<Bit>,
    wr_fol: DFF<Bit>,
    dd_n: Signal<Local, Bits<CYC_W>>,
    /// The stamp's epoch equals the writer's (edge 3's compare, read by `eq_e` and `same`).
    e_eq: Signal<Local, Bit>,
    next_us: Signal<Local, Bit>,
    dd2: Signal<Local, Bits<CYC_W>>,
    /// The distance's bit above `SLOT_W` (Verilator does not report `*unused` signals).
    dd2_hi_unused: Signal<Local, Bit>,
    one_rem: Constant<Bits<REM_W>>,
    one_epoch: Constant<Bits<EPOCH_W>>,
    two_cyc: Constant<Bits<CYC_W>>,
    six_cyc: Constant<Bits<CYC_W>>,
    seven_cyc: Constant<Bits<CYC_W>>,
}

impl<const QB: usize> Default for FolCheck<QB> {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            qp: Default::default(),
            now_sub: Default::default(),
            now_ie: Default::default(),
            now_ir: Default::default(),
            cyc: Default::default(),
            p_inc: Default::default(),
            wr_en: Default::default(),
            wr_qp: Default::default(),
            wr_data: Default::default(),
            st: Default::default(),
            ok: Default::default(),
            d: Default::default(),
            wf: Default::default(),
            lw: Default::default(),
            lw_r: Default::default(),
            n2_sub: Default::default(),
            n2_e: Default::default(),
            n2_r: Default::default(),
            n2_rm1: Default::default(),
            n2_em1: Default::default(),
            n2_r0: Default::default(),
            same: Default::default(),
            sub_lt: Default::default(),
            eq_rm1: Default::default(),
            eq_em1: Default::default(),
            eq_pm1: Default::default(),
            eq_e: Default::default(),
            r0_3: Default::default(),
            dd: Default::default(),
            far: Default::default(),
            wr_fol: Default::default(),
            dd_n: Default::default(),
            e_eq: Default::default(),
            next_us: Default::default(),
            dd2: Default::default(),
            dd2_hi_unused: Default::default(),
            one_rem: Constant::new(1.into()),
            one_epoch: Constant::new(1.into()),
            two_cyc: Constant::new(2.into()),
            six_cyc: Constant::new(6.into()),
            seven_cyc: Constant::new(7.into()),
        }
    }
}

impl<const QB: usize> Logic for FolCheck<QB> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, lw_r, n2_sub, n2_e, n2_r, n2_rm1, n2_em1, n2_r0, same, sub_lt, eq_rm1,
            eq_em1, eq_pm1, eq_e, r0_3, dd, far, wr_fol
        );
        self.lw.read_clock.next = self.clock.val();
        self.lw.write_clock.next = self.clock.val();
        self.lw.write_enable.next = self.wr_en.val();
        self.lw.write_address.next = self.wr_qp.val();
        self.lw.write_data.next = self.wr_data.val();
        self.lw.read_address.next = self.qp.val();
        self.lw_r.d.next = self.lw.read_data.val();
        // The stamp arrives an edge after the QP, beside the table's output register.
        self.n2_sub.d.next = self.now_sub.val();
        self.n2_e.d.next = self.now_ie.val();
        self.n2_r.d.next = self.now_ir.val();
        self.n2_rm1.d.next = self.now_ir.val() - self.one_rem.val();
        self.n2_em1.d.next = self.now_ie.val() - self.one_epoch.val();
        self.n2_r0.d.next = !self.now_ir.val().any();
        // Edge 3: the compares with the writer's word.
        self.e_eq.next = self.n2_e.q.val() == self.lw_r.q.val().i_e;
        self.eq_e.d.next = self.e_eq.val();
        self.same.d.next = self.e_eq.val() & (self.n2_r.q.val() == self.lw_r.q.val().i_r);
        self.eq_rm1.d.next = self.n2_rm1.q.val() == self.lw_r.q.val().i_r;
        self.eq_em1.d.next = self.n2_em1.q.val() == self.lw_r.q.val().i_e;
        self.eq_pm1.d.next = (self.lw_r.q.val().i_r + self.one_rem.val()) == self.p_inc.val();
        self.r0_3.d.next = self.n2_r0.q.val();
        self.sub_lt.d.next = self.n2_sub.q.val() < self.lw_r.q.val().sub;
        self.dd_n.next = self.cyc.val() - self.lw_r.q.val().cyc;
        self.dd.d.next = self.dd_n.val();
        // `dd` is the distance two cycles before the decision that reads `ok` (registered).
        self.far.d.next = (self.dd_n.val() >= self.seven_cyc.val())
            | (self.lw_r.q.val().fol & (self.dd_n.val() >= self.six_cyc.val()));
        self.wr_fol.d.next = self.lw_r.q.val().fol;
        // The stamp is the microsecond after the writer's (module docs), and a cycle
        // within it earlier than the writer's.
        self.next_us.next = self.sub_lt.q.val()
            & ((!self.eq_pm1.q.val() & self.eq_e.q.val() & self.eq_rm1.q.val())
                | (self.eq_pm1.q.val() & self.r0_3.q.val() & self.eq_em1.q.val()));
        self.st.next = self.same.q.val() | self.next_us.val();
        self.ok.next = (self.same.q.val() | self.next_us.val()) & self.far.q.val();
        self.dd2.next = self.dd.q.val() + self.two_cyc.val();
        self.d.next = self.dd2.val().get_bits::<SLOT_W>(0);
        self.dd2_hi_unused.next = self.dd2.val().get_bit(7);
        self.wf.next = self.wr_fol.q.val();
    }
}

/// One queue entry's contribution to the follower check's stamp: the fields of the entry's
/// stamp that the check reads, masked by whether the check loaded the entry (`sel`, the
/// RP's one-hot `ck_src`), so the RP's OR over the entries is the loaded entry's stamp. A
/// block of its own because `hdl_gen` does not read a field of a field of an array
/// element with a loop index (`qb_ev[e].q.val().now.sub`).
#[derive(LogicBlock, Default)]
pub struct StampMask {
    /// The entry's event (its register, `qb_ev`).
    pub ev: Signal<In, RpEvent>,
    /// The check loaded this entry at the last edge.
    pub sel: Signal<In, Bit>,
    /// The stamp's cycle within the microsecond, increase-radix epoch and remainder, or
    /// zero when `sel` is low.
    pub sub: Signal<Out, Bits<SUB_W>>,
    pub i_e: Signal<Out, Bits<EPOCH_W>>,
    pub i_r: Signal<Out, Bits<REM_W>>,
    /// The event's stamp (`hdl_gen` reads one level of fields at a time).
    now: Signal<Local, super::state::TimeWord>,
    /// The event and its stamp whole, so that the fields the check does not read are
    /// read (Verilator does not report `*unused` signals).
    ev_unused: Signal<Local, RpEvent>,
    now_unused: Signal<Local, super::state::TimeWord>,
}

impl Logic for StampMask {
    #[hdl_gen]
    fn update(&mut self) {
        self.now.next = self.ev.val().now;
        self.ev_unused.next = self.ev.val();
        self.now_unused.next = self.now.val();
        self.sub.next = 0.into();
        self.i_e.next = 0.into();
        self.i_r.next = 0.into();
        if self.sel.val() {
            self.sub.next = self.now.val().sub;
            self.i_e.next = self.now.val().i_e;
            self.i_r.next = self.now.val().i_r;
        }
    }
}
