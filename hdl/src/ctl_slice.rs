//! `ctl_slice`: the register slice between the register block's command stream and the two
//! units of the core: a QP reset goes to both the reaction point and the notification
//! point, a mode change to the RP alone, and each unit takes its part when it is ready, in
//! its own cycle.
//!
//! ```text
//!              ┌──────────────── ctl_slice ────────────────┐
//!  s_valid ───►│ skid (one command) ──► head (one command) ├──► m_rp_* (op, mode, rate, qp)
//!  s_ready ◄───┤ !skid full (a register)   owed: rp, np    ├──► m_np_* (qp; resets only)
//!              └───────────────────────────────────────────┘
//! ```
//!
//! Why it exists: without it the RP's command valid was an AND with the NP's readiness
//! and the NP's command valid an AND with the RP's, so a path ran from the NP's registers
//! through the core into the RP's input arbiter and on into the write enables of the RP's
//! input queue (16 entries wide), and from the register block's command registers into the
//! same enables. Behind the slice every unit input is a register of the slice, and the two
//! units' readies reach only the slice's few owed flags and its head's load enable.
//!
//! Behaviour, exactly (the golden model `sim::core_harness::GoldenCoreCycle` states the
//! same rules):
//! - `s_ready` is high while the skid register is empty (a register: it does not depend on
//!   `s_valid` or on the units). A command offered then is taken.
//! - The head holds the oldest command with two "owed" flags: `rp` (always set on load) and
//!   `np` (set for a reset, op 0). `m_rp_valid = rp`, `m_np_valid = np`; a unit takes its
//!   part in the cycle its ready is high, and its flag clears.
//! - When the head is empty at the next edge (every owed part taken, or nothing held), it
//!   loads the skid's command if the skid holds one, else the command taken in this cycle;
//!   otherwise a command taken in this cycle goes into the skid. So the slice passes one
//!   command per cycle while both units take theirs, and holds two otherwise.
//! - A command is in the slice for at least one cycle: it reaches the units one edge after
//!   it was taken at the earliest. Commands reach each unit in the order they were taken.
//! - `reset` empties the slice (a command taken in a reset cycle is dropped, as the units
//!   drop what they hold).

use crate::dcqcn_rp::widths::{CTL_OP_W, MODE_W, RATE_W};
use rust_hdl::prelude::*;

/// The command slice for `2^QB` QPs.
#[derive(LogicBlock)]
pub struct CtlSlice<const QB: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset, active high: empties the slice.
    pub reset: Signal<In, Bit>,

    /// A command is offered (register block).
    pub s_valid: Signal<In, Bit>,
    /// The slice takes it this cycle (the skid register is empty).
    pub s_ready: Signal<Out, Bit>,
    /// QP of the command.
    pub s_qp: Signal<In, Bits<QB>>,
    /// 0: reset the QP (both units); 1: reset its RP state and set its mode; 2: query.
    pub s_op: Signal<In, Bits<CTL_OP_W>>,
    /// Mode for op 1.
    pub s_mode: Signal<In, Bits<MODE_W>>,
    /// Host rate for mode 1, Mb/s Q.8.
    pub s_rate: Signal<In, Bits<RATE_W>>,

    /// The head command is owed to the RP.
    pub m_rp_valid: Signal<Out, Bit>,
    /// The RP takes it.
    pub m_rp_ready: Signal<In, Bit>,
    /// The head command is a reset owed to the NP.
    pub m_np_valid: Signal<Out, Bit>,
    /// The NP takes it.
    pub m_np_ready: Signal<In, Bit>,
    /// QP of the head command (both units).
    pub m_qp: Signal<Out, Bits<QB>>,
    /// Op of the head command.
    pub m_op: Signal<Out, Bits<CTL_OP_W>>,
    /// Mode of the head command.
    pub m_mode: Signal<Out, Bits<MODE_W>>,
    /// Host rate of the head command, Mb/s Q.8.
    pub m_rate: Signal<Out, Bits<RATE_W>>,

    /// The head's part for the RP is not yet taken.
    h_rp: DFF<Bit>,
    /// The head's part for the NP (a reset) is not yet taken.
    h_np: DFF<Bit>,
    h_qp: DFF<Bits<QB>>,
    h_op: DFF<Bits<CTL_OP_W>>,
    h_mode: DFF<Bits<MODE_W>>,
    h_rate: DFF<Bits<RATE_W>>,
    /// The skid register holds a command.
    k_v: DFF<Bit>,
    k_qp: DFF<Bits<QB>>,
    k_op: DFF<Bits<CTL_OP_W>>,
    k_mode: DFF<Bits<MODE_W>>,
    k_rate: DFF<Bits<RATE_W>>,
    /// A command is taken this cycle.
    acc: Signal<Local, Bit>,
    /// The head is empty at the next edge.
    h_free: Signal<Local, Bit>,
}

impl<const QB: usize> CtlSlice<QB> {
    /// An empty slice.
    pub fn new() -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            s_valid: Default::default(),
            s_ready: Default::default(),
            s_qp: Default::default(),
            s_op: Default::default(),
            s_mode: Default::default(),
            s_rate: Default::default(),
            m_rp_valid: Default::default(),
            m_rp_ready: Default::default(),
            m_np_valid: Default::default(),
            m_np_ready: Default::default(),
            m_qp: Default::default(),
            m_op: Default::default(),
            m_mode: Default::default(),
            m_rate: Default::default(),
            h_rp: Default::default(),
            h_np: Default::default(),
            h_qp: Default::default(),
            h_op: Default::default(),
            h_mode: Default::default(),
            h_rate: Default::default(),
            k_v: Default::default(),
            k_qp: Default::default(),
            k_op: Default::default(),
            k_mode: Default::default(),
            k_rate: Default::default(),
            acc: Default::default(),
            h_free: Default::default(),
        }
    }
}

impl<const QB: usize> Default for CtlSlice<QB> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const QB: usize> Logic for CtlSlice<QB> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, h_rp, h_np, h_qp, h_op, h_mode, h_rate, k_v, k_qp, k_op, k_mode, k_rate
        );
        self.s_ready.next = !self.k_v.q.val();
        self.acc.next = self.s_valid.val() & !self.k_v.q.val();
        self.h_free.next = (!self.h_rp.q.val() | self.m_rp_ready.val())
            & (!self.h_np.q.val() | self.m_np_ready.val());

        self.h_rp.d.next = self.h_rp.q.val() & !self.m_rp_ready.val();
        self.h_np.d.next = self.h_np.q.val() & !self.m_np_ready.val();
        if self.h_free.val() {
            if self.k_v.q.val() {
                self.h_rp.d.next = true;
                self.h_np.d.next = !self.k_op.q.val().any();
                self.h_qp.d.next = self.k_qp.q.val();
                self.h_op.d.next = self.k_op.q.val();
                self.h_mode.d.next = self.k_mode.q.val();
                self.h_rate.d.next = self.k_rate.q.val();
                self.k_v.d.next = false;
            } else {
                self.h_rp.d.next = self.acc.val();
                self.h_np.d.next = self.acc.val() & !self.s_op.val().any();
                self.h_qp.d.next = self.s_qp.val();
                self.h_op.d.next = self.s_op.val();
                self.h_mode.d.next = self.s_mode.val();
                self.h_rate.d.next = self.s_rate.val();
            }
        } else if self.acc.val() {
            self.k_v.d.next = true;
            self.k_qp.d.next = self.s_qp.val();
            self.k_op.d.next = self.s_op.val();
            self.k_mode.d.next = self.s_mode.val();
            self.k_rate.d.next = self.s_rate.val();
        }
        if self.reset.val() {
            self.h_rp.d.next = false;
            self.h_np.d.next = false;
            self.k_v.d.next = false;
        }

        self.m_rp_valid.next = self.h_rp.q.val();
        self.m_np_valid.next = self.h_np.q.val();
        self.m_qp.next = self.h_qp.q.val();
        self.m_op.next = self.h_op.q.val();
        self.m_mode.next = self.h_mode.q.val();
        self.m_rate.next = self.h_rate.q.val();
    }
}
