//! `reg_slice`: a two-register slice of a valid/ready stream of `{qp, data}`: every output
//! is a register and so is `s_ready`, so no combinational path crosses it in either
//! direction, and it passes one item per cycle while the consumer takes them.
//!
//! ```text
//!            ┌───────────── reg_slice ─────────────┐
//!  s_valid ─►│ skid (one item) ──► head (one item) ├─► m_valid, m_qp, m_data
//!  s_ready ◄─┤ !skid_v (a register)                │◄─ m_ready
//!            └─────────────────────────────────────┘
//! ```
//!
//! The core top (`core_top`) puts one on each source of its rate-report merge and one in
//! front of the window unit's command input: without them the merge's handshake ran from
//! the window unit's command state through the merge into the read address of the RP's
//! report FIFO (a 19-level path, 11.9 ns on an LFE5U-85F-6).
//!
//! Behaviour, exactly (the golden model `sim::core_harness::RegSliceModel` states the same
//! rules):
//! - `s_ready` is high while the skid register is empty; an item offered then is taken.
//! - `m_valid`, `m_qp`, `m_data` are the head register. At an edge where the head is empty
//!   or taken (`m_ready`), it loads the skid's item if the skid holds one (the skid
//!   empties), else the item taken in this cycle (if any). Otherwise an item taken in this
//!   cycle goes into the skid.
//! - An item leaves one edge after it was taken at the earliest; items leave in order.
//! - `reset` empties both registers (an item taken in a reset cycle is dropped).

use rust_hdl::prelude::*;

/// The slice for items `{qp: Bits<QB>, data: T}`.
#[derive(LogicBlock)]
pub struct RegSlice<T: Synth, const QB: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset, active high: empties the slice.
    pub reset: Signal<In, Bit>,
    /// An item is offered.
    pub s_valid: Signal<In, Bit>,
    /// The slice takes the item offered in this cycle (the skid register is empty).
    pub s_ready: Signal<Out, Bit>,
    /// QP of the item offered.
    pub s_qp: Signal<In, Bits<QB>>,
    /// The rest of the item offered.
    pub s_data: Signal<In, T>,
    /// The head holds an item (held with its payload until `m_ready`).
    pub m_valid: Signal<Out, Bit>,
    /// The consumer takes the head's item at this edge.
    pub m_ready: Signal<In, Bit>,
    /// QP of the head's item.
    pub m_qp: Signal<Out, Bits<QB>>,
    /// The rest of the head's item.
    pub m_data: Signal<Out, T>,
    head_v: DFF<Bit>,
    head_qp: DFF<Bits<QB>>,
    head: DFF<T>,
    skid_v: DFF<Bit>,
    skid_qp: DFF<Bits<QB>>,
    skid: DFF<T>,
    /// The head is empty or taken at this edge.
    free: Signal<Local, Bit>,
    /// The item offered is taken at this edge.
    take: Signal<Local, Bit>,
}

impl<T: Synth, const QB: usize> Default for RegSlice<T, QB> {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            s_valid: Default::default(),
            s_ready: Default::default(),
            s_qp: Default::default(),
            s_data: Default::default(),
            m_valid: Default::default(),
            m_ready: Default::default(),
            m_qp: Default::default(),
            m_data: Default::default(),
            head_v: Default::default(),
            head_qp: Default::default(),
            head: Default::default(),
            skid_v: Default::default(),
            skid_qp: Default::default(),
            skid: Default::default(),
            free: Default::default(),
            take: Default::default(),
        }
    }
}

impl<T: Synth, const QB: usize> Logic for RegSlice<T, QB> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, head_v, head_qp, head, skid_v, skid_qp, skid);
        self.s_ready.next = !self.skid_v.q.val();
        self.m_valid.next = self.head_v.q.val();
        self.m_qp.next = self.head_qp.q.val();
        self.m_data.next = self.head.q.val();
        self.take.next = self.s_valid.val() & !self.skid_v.q.val();
        self.free.next = !self.head_v.q.val() | self.m_ready.val();
        if self.free.val() {
            if self.skid_v.q.val() {
                self.head_v.d.next = true;
                self.head_qp.d.next = self.skid_qp.q.val();
                self.head.d.next = self.skid.q.val();
                self.skid_v.d.next = false;
            } else {
                self.head_v.d.next = self.take.val();
                self.head_qp.d.next = self.s_qp.val();
                self.head.d.next = self.s_data.val();
            }
        } else if self.take.val() {
            self.skid_v.d.next = true;
            self.skid_qp.d.next = self.s_qp.val();
            self.skid.d.next = self.s_data.val();
        }
        if self.reset.val() {
            self.head_v.d.next = false;
            self.skid_v.d.next = false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Random offers and readies: every item taken leaves once, in order, with its
    /// payload, and the handshake rules hold.
    #[test]
    fn items_leave_in_order_once_and_ready_is_the_skid() {
        let mut s = RegSlice::<Bits<8>, 4>::default();
        s.connect_all();
        let mut x: u32 = 0x1234_5678;
        let mut rnd = move || {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            x
        };
        let mut next_in = 0u64;
        let mut next_out = 0u64;
        let mut offer = false;
        for cycle in 0..2000 {
            if !offer {
                offer = rnd() % 3 != 0;
            }
            let ready = rnd() % 4 != 0;
            s.reset.next = cycle < 2;
            s.s_valid.next = offer;
            s.s_qp.next = ((next_in & 15) as u64).into();
            s.s_data.next = ((next_in * 7) & 255).into();
            s.m_ready.next = ready;
            s.clock.next = Clock { clk: false };
            assert!(simulate(&mut s, 20));
            let took = offer && s.s_ready.val() && cycle >= 2;
            if cycle >= 2 && s.m_valid.val() {
                assert_eq!(s.m_qp.val().to_u64(), next_out & 15, "cycle {cycle}");
                assert_eq!(s.m_data.val().to_u64(), (next_out * 7) & 255);
                if ready {
                    next_out += 1;
                }
            }
            s.clock.next = Clock { clk: true };
            assert!(simulate(&mut s, 20));
            if took {
                next_in += 1;
                offer = false;
            }
        }
        assert!(next_out > 1000, "{next_out} items passed");
        assert!(next_in - next_out <= 2);
    }
}
