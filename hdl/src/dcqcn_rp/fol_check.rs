//! `FolCheck`: the RP's follower check (see the module docs of [`super`], "The same-QP
//! path: followers").
//!
//! It holds the last-writer table (one [`LastWrite`] per QP in block RAM, written from S1
//! by every event that writes) and checks one queued event per cycle against it: the RP
//! loads the event at an edge (its entry, registered one-hot; in the next cycle its QP and
//! stamp, `ck_qp` and `ck_ev`, are read from the entry), and [`FOL_CHECK_EDGES`] edges
//! later the RP registers the result into the event's queue entry. The check is a pipeline: a new event may be loaded at every edge.
//!
//! | edge after the load | registers |
//! |---|---|
//! | 1 | the block RAM's output register: the table's word at `qp`; the stamp (`n1_*`) |
//! | 2 | that word again (`lw_r`), so the compares start at a flip-flop beside them; the stamp (`n2_*`) |
//! | 3 | the stamp's microsecond equals the writer's, its cycle within it is earlier than the writer's; the distance now (`cyc - lw.cyc`); the writer was a follower; the microsecond after the writer's (increase radix); the stamp (`n3_*`) |
//! | 4 | (the RP's entry registers) `st`: the stamp is less than a microsecond after the writer's; `ok`: that, and the writer will be far enough ahead at the next decision; `d`: that distance; `wf`: the writer was a follower |
//!
//! The outputs are the logic between edge 3 and edge 4: the RP registers them per entry.

use super::state::{CYC_W, LastWrite, SLOT_W, TimeWord};
use super::widths::*;
use rust_hdl::prelude::*;

/// Edges from the one that loads the checked entry (the RP's `ck_src`) to
/// the one that registers the result in the entry: the RAM's output register, `lw_r`, the
/// compares, the result (the table above).
pub const FOL_CHECK_EDGES: usize = 4;

/// The follower check: the last-writer table, read at `qp`, and whether the event with
/// stamp `now` may follow that writer.
#[derive(LogicBlock)]
pub struct FolCheck<const QB: usize> {
    pub clock: Signal<In, Clock>,
    /// The checked entry's QP (a register in the RP, loaded with the entry): the table's
    /// read address.
    pub qp: Signal<In, Bits<QB>>,
    /// The checked entry's time stamp, loaded with `qp` (only the increase radix and the
    /// cycle within the microsecond are read).
    pub now: Signal<In, TimeWord>,
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
    n1_sub: DFF<Bits<SUB_W>>,
    n1_e: DFF<Bits<EPOCH_W>>,
    n1_r: DFF<Bits<REM_W>>,
    n2_sub: DFF<Bits<SUB_W>>,
    n2_e: DFF<Bits<EPOCH_W>>,
    n2_r: DFF<Bits<REM_W>>,
    n3_e: DFF<Bits<EPOCH_W>>,
    n3_r: DFF<Bits<REM_W>>,
    same: DFF<Bit>,
    sub_lt: DFF<Bit>,
    dd: DFF<Bits<CYC_W>>,
    wr_fol: DFF<Bit>,
    se: DFF<Bits<EPOCH_W>>,
    sr: DFF<Bits<REM_W>>,
    rp1: Signal<Local, Bits<REM_W>>,
    next_us: Signal<Local, Bit>,
    dd2: Signal<Local, Bits<CYC_W>>,
    /// The stamp's fields the check does not read (Verilator does not report `*unused`
    /// signals), and the distance's bit above `SLOT_W`.
    a_e_unused: Signal<Local, Bits<EPOCH_W>>,
    a_r_unused: Signal<Local, Bits<REM_W>>,
    d_e_unused: Signal<Local, Bits<EPOCH_W>>,
    d_r_unused: Signal<Local, Bits<REM_W>>,
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
            now: Default::default(),
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
            n1_sub: Default::default(),
            n1_e: Default::default(),
            n1_r: Default::default(),
            n2_sub: Default::default(),
            n2_e: Default::default(),
            n2_r: Default::default(),
            n3_e: Default::default(),
            n3_r: Default::default(),
            same: Default::default(),
            sub_lt: Default::default(),
            dd: Default::default(),
            wr_fol: Default::default(),
            se: Default::default(),
            sr: Default::default(),
            rp1: Default::default(),
            next_us: Default::default(),
            dd2: Default::default(),
            a_e_unused: Default::default(),
            a_r_unused: Default::default(),
            d_e_unused: Default::default(),
            d_r_unused: Default::default(),
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
            self, clock, lw_r, n1_sub, n1_e, n1_r, n2_sub, n2_e, n2_r, n3_e, n3_r, same, sub_lt,
            dd, wr_fol, se, sr
        );
        self.lw.read_clock.next = self.clock.val();
        self.lw.write_clock.next = self.clock.val();
        self.lw.write_enable.next = self.wr_en.val();
        self.lw.write_address.next = self.wr_qp.val();
        self.lw.write_data.next = self.wr_data.val();
        self.lw.read_address.next = self.qp.val();
        self.lw_r.d.next = self.lw.read_data.val();
        // The stamp travels beside the table's word.
        self.n1_sub.d.next = self.now.val().sub;
        self.n1_e.d.next = self.now.val().i_e;
        self.n1_r.d.next = self.now.val().i_r;
        self.n2_sub.d.next = self.n1_sub.q.val();
        self.n2_e.d.next = self.n1_e.q.val();
        self.n2_r.d.next = self.n1_r.q.val();
        self.n3_e.d.next = self.n2_e.q.val();
        self.n3_r.d.next = self.n2_r.q.val();
        self.same.d.next = (self.n2_e.q.val() == self.lw_r.q.val().i_e)
            & (self.n2_r.q.val() == self.lw_r.q.val().i_r);
        self.sub_lt.d.next = self.n2_sub.q.val() < self.lw_r.q.val().sub;
        self.dd.d.next = self.cyc.val() - self.lw_r.q.val().cyc;
        self.wr_fol.d.next = self.lw_r.q.val().fol;
        // The writer's microsecond plus one, in the increase radix.
        self.rp1.next = self.lw_r.q.val().i_r + self.one_rem.val();
        self.se.d.next = self.lw_r.q.val().i_e;
        self.sr.d.next = self.rp1.val();
        if self.rp1.val() == self.p_inc.val() {
            self.se.d.next = self.lw_r.q.val().i_e + self.one_epoch.val();
            self.sr.d.next = 0.into();
        }
        self.next_us.next = (self.n3_e.q.val() == self.se.q.val())
            & (self.n3_r.q.val() == self.sr.q.val())
            & self.sub_lt.q.val();
        // `dd` is the distance two cycles before the decision that reads `ok` (registered).
        self.st.next = self.same.q.val() | self.next_us.val();
        self.ok.next = (self.same.q.val() | self.next_us.val())
            & ((self.dd.q.val() >= self.seven_cyc.val())
                | (self.wr_fol.q.val() & (self.dd.q.val() >= self.six_cyc.val())));
        self.dd2.next = self.dd.q.val() + self.two_cyc.val();
        self.d.next = self.dd2.val().get_bits::<SLOT_W>(0);
        self.dd2_hi_unused.next = self.dd2.val().get_bit(7);
        self.wf.next = self.wr_fol.q.val();
        self.a_e_unused.next = self.now.val().a_e;
        self.a_r_unused.next = self.now.val().a_r;
        self.d_e_unused.next = self.now.val().d_e;
        self.d_r_unused.next = self.now.val().d_r;
    }
}
