//! `traffic_gen`: a pseudo-random source of the core's four event streams (CNP, transmit,
//! receive, ACK), for a board that has no network port.
//!
//! The ULX3S board design ([`crate::board_ulx3s`]) has a register path (the UART bridge)
//! but no Ethernet: without an event source its event streams would be tied idle,
//! synthesis would prune the datapaths they feed (the RP's cut, the NP's limiter, the
//! HPCC window unit's ACK path), and the bitstream would say nothing about the core's size
//! and timing. This unit drives the streams from a 32-bit xorshift generator while its
//! `enable` input is high (a DIP switch on the board), so the bitstream holds those
//! datapaths, and on a board the host can watch the core work through the register block
//! (counters, `qp N` snapshots). The ULX3S design connects the CNP, transmit and receive
//! streams; the ACK stream is for a device that holds the whole window unit beside the RP
//! (the board's LFE5U-85F does not: docs/synthesis.md, "The 85F and HPCC").
//!
//! ```text
//!  enable ─► 2-FF sync ─► en ─┐
//!  x: xorshift32, one step per cycle ──► per stream: gate bits, QP bits, payload bits
//!  ts: += ns_per_cycle per cycle (24 bits), tx0..tx4: += 4 bits of x per cycle (20 bits)
//!        each stream: if !valid || ready { valid <= en && gate; payload <= from x, ts, tx }
//! ```
//!
//! Streams follow the valid/ready rule: an offered event and its payload are held until
//! the core takes it; a new one is drawn only when the stream is empty or its event is
//! taken. The offers, from bits of `x` (one draw per stream per cycle):
//!
//! | stream | offered | QP (low `QB` bits of `x` from bit) | payload |
//! |---|---|---|---|
//! | CNP | 1 in 16 cycles (`x[31:28] = 0`) | 0 | - |
//! | transmit | 1 in 2 (`x[27]`) | 16 | bytes = `x[11:0]` (0..4095) |
//! | receive | 1 in 2 (`x[26]`) | 8 | ECN = `x[25:24]` (a quarter CE) |
//! | ACK | 1 in 2 (`x[23]`) | 4 | see below |
//!
//! Every QP number is below `2^QB` (the core's bad-QP counters stay at zero). An ACK
//! carries `seq` = a counter that grows by 1024 per ACK drawn (all QPs share it),
//! `snd_nxt` = `seq + 65536`, and a path that is a function of its QP, so a QP's path never
//! changes: `nhop` = `v + 1` for `v = qp[2:0] < 5`, else `v - 2` (1..5), and hop `i`'s
//! rate code `qp[5:3] + i` (mod 8). Hop `i`'s `ts` is the shared `ts` counter (ns mod 2^24),
//! its `tx` the counter `tx_i` (128-byte units mod 2^20, growing by 0..15 per cycle: a
//! load of up to 192 B/ns on a link of the code's rate, so some hops are overloaded and
//! HPCC cuts), and its `qlen` `x[i+25:i+16]` (0..1023 units).
//!
//! The values are deterministic (the generator restarts from [`SEED`] at reset) but not
//! a model of any network: this is a bring-up and synthesis aid, not a traffic model
//! (`roce-cc netsim` is that).

use crate::core_top::QPN_W;
use crate::dcqcn_np::ECN_W;
use crate::dcqcn_rp::widths::BYTES_W;
use crate::hpcc_window::window::IntHop;
use crate::zero_ext::ZeroExt;
use rust_hdl::prelude::*;

/// The xorshift state after reset (any non-zero value; zero is the generator's fixed point).
pub const SEED: u64 = 0x2545_f491;

/// The pseudo-random event source for a core of `2^QB` QPs (`1 <= QB <= 14`).
#[derive(LogicBlock)]
pub struct TrafficGen<const QB: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset, active high: streams empty, counters zero, generator at [`SEED`].
    pub reset: Signal<In, Bit>,
    /// Offer events while high (asynchronous, e.g. a switch: synchronised inside). When it
    /// falls, events already offered are still held until taken.
    pub enable: Signal<In, Bit>,

    /// A CNP for QP `m_cnp_qpn` is offered.
    pub m_cnp_valid: Signal<Out, Bit>,
    /// The core takes the CNP.
    pub m_cnp_ready: Signal<In, Bit>,
    /// QP of the CNP (below `2^QB`).
    pub m_cnp_qpn: Signal<Out, Bits<QPN_W>>,
    /// A transmit event is offered.
    pub m_tx_valid: Signal<Out, Bit>,
    /// The core takes the transmit event.
    pub m_tx_ready: Signal<In, Bit>,
    /// QP of the transmit event.
    pub m_tx_qpn: Signal<Out, Bits<QPN_W>>,
    /// Bytes of the transmit event (0..4095).
    pub m_tx_bytes: Signal<Out, Bits<BYTES_W>>,
    /// A receive event is offered.
    pub m_rx_valid: Signal<Out, Bit>,
    /// The core takes the receive event.
    pub m_rx_ready: Signal<In, Bit>,
    /// QP of the receive event.
    pub m_rx_qpn: Signal<Out, Bits<QPN_W>>,
    /// ECN field of the received packet (3 = CE).
    pub m_rx_ecn: Signal<Out, Bits<ECN_W>>,
    /// An ACK is offered.
    pub m_ack_valid: Signal<Out, Bit>,
    /// The core takes the ACK.
    pub m_ack_ready: Signal<In, Bit>,
    /// QP of the ACK.
    pub m_ack_qpn: Signal<Out, Bits<QPN_W>>,
    /// Acknowledged sequence number, bytes.
    pub m_ack_seq: Signal<Out, Bits<32>>,
    /// The sender's next sequence number, bytes.
    pub m_ack_snd_nxt: Signal<Out, Bits<32>>,
    /// Hops of the INT stack (1..5, a function of the QP).
    pub m_ack_nhop: Signal<Out, Bits<3>>,
    /// INT hop 0, in wire units (hpcc.md).
    pub m_ack_h0: Signal<Out, IntHop>,
    /// INT hop 1.
    pub m_ack_h1: Signal<Out, IntHop>,
    /// INT hop 2.
    pub m_ack_h2: Signal<Out, IntHop>,
    /// INT hop 3.
    pub m_ack_h3: Signal<Out, IntHop>,
    /// INT hop 4.
    pub m_ack_h4: Signal<Out, IntHop>,

    en_s1: DFF<Bit>,
    en_s2: DFF<Bit>,
    x: DFF<Bits<32>>,
    /// The three shifts of one xorshift step (combinational): `x1`, `x2`, then `x_next`.
    x1: Signal<Local, Bits<32>>,
    x2: Signal<Local, Bits<32>>,
    x_next: Signal<Local, Bits<32>>,
    /// The ACK stream draws a new ACK this cycle.
    ack_offer: Signal<Local, Bit>,
    ts: DFF<Bits<24>>,
    tx0: DFF<Bits<20>>,
    tx1: DFF<Bits<20>>,
    tx2: DFF<Bits<20>>,
    tx3: DFF<Bits<20>>,
    tx4: DFF<Bits<20>>,
    seq: DFF<Bits<32>>,
    cnp_v: DFF<Bit>,
    cnp_q: DFF<Bits<QB>>,
    tx_v: DFF<Bit>,
    tx_q: DFF<Bits<QB>>,
    tx_b: DFF<Bits<12>>,
    rx_v: DFF<Bit>,
    rx_q: DFF<Bits<QB>>,
    rx_e: DFF<Bits<ECN_W>>,
    ack_v: DFF<Bit>,
    ack_q: DFF<Bits<QB>>,
    ack_seq: DFF<Bits<32>>,
    ack_snd: DFF<Bits<32>>,
    ack_nhop: DFF<Bits<3>>,
    ack_h0: DFF<IntHop>,
    ack_h1: DFF<IntHop>,
    ack_h2: DFF<IntHop>,
    ack_h3: DFF<IntHop>,
    ack_h4: DFF<IntHop>,
    /// The drawn ACK QP, zero-extended so that its bits 5:0 exist for any `QB` (only those
    /// are read: the name tells Verilator the bits above are unused on purpose).
    ack_draw_unused_hi: ZeroExt<QB, QPN_W>,
    /// The drawn ACK QP's bits 2:0 and 5:3 (path: hop count and rate codes).
    ack_path: Signal<Local, Bits<3>>,
    ack_code: Signal<Local, Bits<3>>,
    /// The QP draws of the four streams, `QB` bits of `x_next` each.
    cnp_draw: Signal<Local, Bits<QB>>,
    tx_draw: Signal<Local, Bits<QB>>,
    rx_draw: Signal<Local, Bits<QB>>,
    ack_draw: Signal<Local, Bits<QB>>,
    cnp_ext: ZeroExt<QB, QPN_W>,
    tx_ext: ZeroExt<QB, QPN_W>,
    rx_ext: ZeroExt<QB, QPN_W>,
    ack_ext: ZeroExt<QB, QPN_W>,
    bytes_ext: ZeroExt<12, BYTES_W>,
    nib0: ZeroExt<4, 20>,
    nib1: ZeroExt<4, 20>,
    nib2: ZeroExt<4, 20>,
    nib3: ZeroExt<4, 20>,
    nib4: ZeroExt<4, 20>,
    q0: ZeroExt<10, 17>,
    q1: ZeroExt<10, 17>,
    q2: ZeroExt<10, 17>,
    q3: ZeroExt<10, 17>,
    q4: ZeroExt<10, 17>,
    k_seed: Constant<Bits<32>>,
    k_ts_step: Constant<Bits<24>>,
    k_seq_step: Constant<Bits<32>>,
    k_window: Constant<Bits<32>>,
    k_zero4: Constant<Bits<4>>,
    k_one3: Constant<Bits<3>>,
    k_two3: Constant<Bits<3>>,
    k_three3: Constant<Bits<3>>,
    k_four3: Constant<Bits<3>>,
    k_five3: Constant<Bits<3>>,
}

impl<const QB: usize> TrafficGen<QB> {
    /// A generator whose `ts` advances `ns_per_cycle` ns per clock cycle (10 at 100 MHz).
    pub fn new(ns_per_cycle: u64) -> Self {
        assert!(
            (1..=14).contains(&QB),
            "TrafficGen<{QB}>: QB must be 1..=14"
        );
        assert!(
            (1..1 << 24).contains(&ns_per_cycle),
            "TrafficGen: ns_per_cycle must be 1..2^24"
        );
        Self {
            clock: Default::default(),
            reset: Default::default(),
            enable: Default::default(),
            m_cnp_valid: Default::default(),
            m_cnp_ready: Default::default(),
            m_cnp_qpn: Default::default(),
            m_tx_valid: Default::default(),
            m_tx_ready: Default::default(),
            m_tx_qpn: Default::default(),
            m_tx_bytes: Default::default(),
            m_rx_valid: Default::default(),
            m_rx_ready: Default::default(),
            m_rx_qpn: Default::default(),
            m_rx_ecn: Default::default(),
            m_ack_valid: Default::default(),
            m_ack_ready: Default::default(),
            m_ack_qpn: Default::default(),
            m_ack_seq: Default::default(),
            m_ack_snd_nxt: Default::default(),
            m_ack_nhop: Default::default(),
            m_ack_h0: Default::default(),
            m_ack_h1: Default::default(),
            m_ack_h2: Default::default(),
            m_ack_h3: Default::default(),
            m_ack_h4: Default::default(),
            en_s1: Default::default(),
            en_s2: Default::default(),
            x: Default::default(),
            x1: Default::default(),
            x2: Default::default(),
            x_next: Default::default(),
            ack_offer: Default::default(),
            ts: Default::default(),
            tx0: Default::default(),
            tx1: Default::default(),
            tx2: Default::default(),
            tx3: Default::default(),
            tx4: Default::default(),
            seq: Default::default(),
            cnp_v: Default::default(),
            cnp_q: Default::default(),
            tx_v: Default::default(),
            tx_q: Default::default(),
            tx_b: Default::default(),
            rx_v: Default::default(),
            rx_q: Default::default(),
            rx_e: Default::default(),
            ack_v: Default::default(),
            ack_q: Default::default(),
            ack_seq: Default::default(),
            ack_snd: Default::default(),
            ack_nhop: Default::default(),
            ack_h0: Default::default(),
            ack_h1: Default::default(),
            ack_h2: Default::default(),
            ack_h3: Default::default(),
            ack_h4: Default::default(),
            ack_draw_unused_hi: Default::default(),
            ack_path: Default::default(),
            ack_code: Default::default(),
            cnp_draw: Default::default(),
            tx_draw: Default::default(),
            rx_draw: Default::default(),
            ack_draw: Default::default(),
            cnp_ext: Default::default(),
            tx_ext: Default::default(),
            rx_ext: Default::default(),
            ack_ext: Default::default(),
            bytes_ext: Default::default(),
            nib0: Default::default(),
            nib1: Default::default(),
            nib2: Default::default(),
            nib3: Default::default(),
            nib4: Default::default(),
            q0: Default::default(),
            q1: Default::default(),
            q2: Default::default(),
            q3: Default::default(),
            q4: Default::default(),
            k_seed: Constant::new(SEED.into()),
            k_ts_step: Constant::new(ns_per_cycle.into()),
            k_seq_step: Constant::new(1024.into()),
            k_window: Constant::new(65536.into()),
            k_zero4: Constant::new(0.into()),
            k_one3: Constant::new(1.into()),
            k_two3: Constant::new(2.into()),
            k_three3: Constant::new(3.into()),
            k_four3: Constant::new(4.into()),
            k_five3: Constant::new(5.into()),
        }
    }
}

impl<const QB: usize> Logic for TrafficGen<QB> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, en_s1, en_s2, x, ts, tx0, tx1, tx2, tx3, tx4, seq, cnp_v, cnp_q, tx_v,
            tx_q, tx_b, rx_v, rx_q, rx_e, ack_v, ack_q, ack_seq, ack_snd, ack_nhop, ack_h0, ack_h1,
            ack_h2, ack_h3, ack_h4
        );
        self.en_s1.d.next = self.enable.val();
        self.en_s2.d.next = self.en_s1.q.val();

        // ---- generator and counters ----
        self.x1.next = self.x.q.val() ^ (self.x.q.val() << 13);
        self.x2.next = self.x1.val() ^ (self.x1.val() >> 17);
        self.x_next.next = self.x2.val() ^ (self.x2.val() << 5);
        self.x.d.next = self.x_next.val();
        self.ts.d.next = self.ts.q.val() + self.k_ts_step.val();
        self.nib0.i.next = self.x.q.val().get_bits::<4>(0);
        self.nib1.i.next = self.x.q.val().get_bits::<4>(4);
        self.nib2.i.next = self.x.q.val().get_bits::<4>(8);
        self.nib3.i.next = self.x.q.val().get_bits::<4>(12);
        self.nib4.i.next = self.x.q.val().get_bits::<4>(16);
        self.tx0.d.next = self.tx0.q.val() + self.nib0.o.val();
        self.tx1.d.next = self.tx1.q.val() + self.nib1.o.val();
        self.tx2.d.next = self.tx2.q.val() + self.nib2.o.val();
        self.tx3.d.next = self.tx3.q.val() + self.nib3.o.val();
        self.tx4.d.next = self.tx4.q.val() + self.nib4.o.val();

        // ---- draws from x (the state the next offers are made from) ----
        self.cnp_draw.next = self.x.q.val().get_bits::<QB>(0);
        self.tx_draw.next = self.x.q.val().get_bits::<QB>(16);
        self.rx_draw.next = self.x.q.val().get_bits::<QB>(8);
        self.ack_draw.next = self.x.q.val().get_bits::<QB>(4);
        self.ack_draw_unused_hi.i.next = self.ack_draw.val();
        self.ack_path.next = self.ack_draw_unused_hi.o.val().get_bits::<3>(0);
        self.ack_code.next = self.ack_draw_unused_hi.o.val().get_bits::<3>(3);
        self.bytes_ext.i.next = self.tx_b.q.val();
        self.q0.i.next = self.x.q.val().get_bits::<10>(16);
        self.q1.i.next = self.x.q.val().get_bits::<10>(17);
        self.q2.i.next = self.x.q.val().get_bits::<10>(18);
        self.q3.i.next = self.x.q.val().get_bits::<10>(19);
        self.q4.i.next = self.x.q.val().get_bits::<10>(20);

        // ---- CNP ----
        if !self.cnp_v.q.val() | self.m_cnp_ready.val() {
            self.cnp_v.d.next =
                self.en_s2.q.val() & (self.x.q.val().get_bits::<4>(28) == self.k_zero4.val());
            self.cnp_q.d.next = self.cnp_draw.val();
        }
        // ---- transmit ----
        if !self.tx_v.q.val() | self.m_tx_ready.val() {
            self.tx_v.d.next = self.en_s2.q.val() & self.x.q.val().get_bit(27);
            self.tx_q.d.next = self.tx_draw.val();
            self.tx_b.d.next = self.x.q.val().get_bits::<12>(0);
        }
        // ---- receive ----
        if !self.rx_v.q.val() | self.m_rx_ready.val() {
            self.rx_v.d.next = self.en_s2.q.val() & self.x.q.val().get_bit(26);
            self.rx_q.d.next = self.rx_draw.val();
            self.rx_e.d.next = self.x.q.val().get_bits::<2>(24);
        }
        // ---- ACK ----
        self.ack_offer.next = self.en_s2.q.val() & self.x.q.val().get_bit(23);
        if !self.ack_v.q.val() | self.m_ack_ready.val() {
            self.ack_v.d.next = self.ack_offer.val();
            if self.ack_offer.val() {
                self.seq.d.next = self.seq.q.val() + self.k_seq_step.val();
            }
            self.ack_q.d.next = self.ack_draw.val();
            self.ack_seq.d.next = self.seq.q.val();
            self.ack_snd.d.next = self.seq.q.val() + self.k_window.val();
            if self.ack_path.val() < self.k_five3.val() {
                self.ack_nhop.d.next = self.ack_path.val() + self.k_one3.val();
            } else {
                self.ack_nhop.d.next = self.ack_path.val() - self.k_two3.val();
            }
            self.ack_h0.d.next.rate = self.ack_code.val();
            self.ack_h1.d.next.rate = self.ack_code.val() + self.k_one3.val();
            self.ack_h2.d.next.rate = self.ack_code.val() + self.k_two3.val();
            self.ack_h3.d.next.rate = self.ack_code.val() + self.k_three3.val();
            self.ack_h4.d.next.rate = self.ack_code.val() + self.k_four3.val();
            self.ack_h0.d.next.ts = self.ts.q.val();
            self.ack_h1.d.next.ts = self.ts.q.val();
            self.ack_h2.d.next.ts = self.ts.q.val();
            self.ack_h3.d.next.ts = self.ts.q.val();
            self.ack_h4.d.next.ts = self.ts.q.val();
            self.ack_h0.d.next.tx = self.tx0.q.val();
            self.ack_h1.d.next.tx = self.tx1.q.val();
            self.ack_h2.d.next.tx = self.tx2.q.val();
            self.ack_h3.d.next.tx = self.tx3.q.val();
            self.ack_h4.d.next.tx = self.tx4.q.val();
            self.ack_h0.d.next.qlen = self.q0.o.val();
            self.ack_h1.d.next.qlen = self.q1.o.val();
            self.ack_h2.d.next.qlen = self.q2.o.val();
            self.ack_h3.d.next.qlen = self.q3.o.val();
            self.ack_h4.d.next.qlen = self.q4.o.val();
        }

        // ---- reset ----
        if self.reset.val() {
            self.x.d.next = self.k_seed.val();
            self.ts.d.next = 0.into();
            self.tx0.d.next = 0.into();
            self.tx1.d.next = 0.into();
            self.tx2.d.next = 0.into();
            self.tx3.d.next = 0.into();
            self.tx4.d.next = 0.into();
            self.seq.d.next = 0.into();
            self.cnp_v.d.next = false;
            self.tx_v.d.next = false;
            self.rx_v.d.next = false;
            self.ack_v.d.next = false;
        }

        // ---- outputs: every one from a flip-flop ----
        self.cnp_ext.i.next = self.cnp_q.q.val();
        self.tx_ext.i.next = self.tx_q.q.val();
        self.rx_ext.i.next = self.rx_q.q.val();
        self.ack_ext.i.next = self.ack_q.q.val();
        self.m_cnp_valid.next = self.cnp_v.q.val();
        self.m_cnp_qpn.next = self.cnp_ext.o.val();
        self.m_tx_valid.next = self.tx_v.q.val();
        self.m_tx_qpn.next = self.tx_ext.o.val();
        self.m_tx_bytes.next = self.bytes_ext.o.val();
        self.m_rx_valid.next = self.rx_v.q.val();
        self.m_rx_qpn.next = self.rx_ext.o.val();
        self.m_rx_ecn.next = self.rx_e.q.val();
        self.m_ack_valid.next = self.ack_v.q.val();
        self.m_ack_qpn.next = self.ack_ext.o.val();
        self.m_ack_seq.next = self.ack_seq.q.val();
        self.m_ack_snd_nxt.next = self.ack_snd.q.val();
        self.m_ack_nhop.next = self.ack_nhop.q.val();
        self.m_ack_h0.next = self.ack_h0.q.val();
        self.m_ack_h1.next = self.ack_h1.q.val();
        self.m_ack_h2.next = self.ack_h2.q.val();
        self.m_ack_h3.next = self.ack_h3.q.val();
        self.m_ack_h4.next = self.ack_h4.q.val();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the four streams show in one cycle, before its rising edge.
    #[derive(Clone, Copy, Debug, PartialEq)]
    struct Seen {
        valid: [bool; 4],
        /// CNP, transmit, receive, ACK: QP; plus bytes, ECN, seq, snd_nxt, nhop, hop words.
        qp: [u64; 4],
        bytes: u64,
        ecn: u64,
        seq: u64,
        snd_nxt: u64,
        nhop: u64,
        hops: [IntHop; 5],
    }

    fn seen(g: &TrafficGen<4>) -> Seen {
        Seen {
            valid: [
                g.m_cnp_valid.val(),
                g.m_tx_valid.val(),
                g.m_rx_valid.val(),
                g.m_ack_valid.val(),
            ],
            qp: [
                g.m_cnp_qpn.val().index() as u64,
                g.m_tx_qpn.val().index() as u64,
                g.m_rx_qpn.val().index() as u64,
                g.m_ack_qpn.val().index() as u64,
            ],
            bytes: g.m_tx_bytes.val().index() as u64,
            ecn: g.m_rx_ecn.val().index() as u64,
            seq: g.m_ack_seq.val().index() as u64,
            snd_nxt: g.m_ack_snd_nxt.val().index() as u64,
            nhop: g.m_ack_nhop.val().index() as u64,
            hops: [
                g.m_ack_h0.val(),
                g.m_ack_h1.val(),
                g.m_ack_h2.val(),
                g.m_ack_h3.val(),
                g.m_ack_h4.val(),
            ],
        }
    }

    /// One clock cycle with the given readies and enable: what the streams showed before
    /// the rising edge.
    fn cycle(g: &mut TrafficGen<4>, ready: [bool; 4], enable: bool, reset: bool) -> Seen {
        g.m_cnp_ready.next = ready[0];
        g.m_tx_ready.next = ready[1];
        g.m_rx_ready.next = ready[2];
        g.m_ack_ready.next = ready[3];
        g.enable.next = enable;
        g.reset.next = reset;
        g.clock.next = Clock::from(false);
        assert!(simulate(g, 100), "TrafficGen did not settle");
        let s = seen(g);
        g.clock.next = Clock::from(true);
        assert!(simulate(g, 100), "TrafficGen did not settle");
        s
    }

    /// The hop count a QP's ACKs carry (the module's table).
    fn nhop_of(qp: u64) -> u64 {
        let v = qp & 7;
        if v < 5 { v + 1 } else { v - 2 }
    }

    fn payload(s: &Seen, k: usize) -> Vec<u64> {
        match k {
            0 => vec![s.qp[0]],
            1 => vec![s.qp[1], s.bytes],
            2 => vec![s.qp[2], s.ecn],
            _ => {
                let mut v = vec![s.qp[3], s.seq, s.snd_nxt, s.nhop];
                for h in &s.hops {
                    v.extend([
                        h.rate.index() as u64,
                        h.ts.index() as u64,
                        h.tx.index() as u64,
                        h.qlen.index() as u64,
                    ]);
                }
                v
            }
        }
    }

    #[test]
    fn streams_hold_until_taken_stay_in_range_and_keep_each_qps_path() {
        let mut g = TrafficGen::<4>::new(10);
        g.connect_all();
        for _ in 0..3 {
            cycle(&mut g, [false; 4], false, true);
        }
        let mut lcg = 12345u64;
        let mut prev: Option<(Seen, [bool; 4])> = None;
        let mut taken = [0u32; 4];
        let mut last_seq: Option<u64> = None;
        for t in 0..4000 {
            lcg = lcg
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let ready = [0, 1, 2, 3].map(|k| (lcg >> (40 + 3 * k)) & 3 != 0);
            let s = cycle(&mut g, ready, true, false);
            if let Some((p, pr)) = prev {
                for k in 0..4 {
                    if p.valid[k] && !pr[k] {
                        assert!(
                            s.valid[k],
                            "cycle {t}: stream {k} dropped an event not taken"
                        );
                        assert_eq!(payload(&s, k), payload(&p, k), "cycle {t}: stream {k}");
                    }
                }
            }
            for k in 0..4 {
                if s.valid[k] {
                    assert!(
                        s.qp[k] < 16,
                        "cycle {t}: stream {k} QP {} out of range",
                        s.qp[k]
                    );
                    if ready[k] {
                        taken[k] += 1;
                    }
                }
            }
            if s.valid[3] {
                assert_eq!(s.nhop, nhop_of(s.qp[3]), "cycle {t}: the path is the QP's");
                let code = (s.qp[3] >> 3) & 7;
                for (i, h) in s.hops.iter().enumerate() {
                    assert_eq!(h.rate.index() as u64, (code + i as u64) & 7);
                }
                assert_eq!(s.snd_nxt, (s.seq + 65536) & 0xffff_ffff);
                assert_eq!(s.seq % 1024, 0);
                if let Some(l) = last_seq {
                    assert!(s.seq >= l, "cycle {t}: seq went back");
                }
                last_seq = Some(s.seq);
            }
            prev = Some((s, ready));
        }
        // About 4000 * 3/4 * (1/16, 1/2, 1/2, 1/2) events are taken.
        assert!(taken[0] > 100, "CNPs taken: {}", taken[0]);
        for k in 1..4 {
            assert!(taken[k] > 800, "stream {k} taken: {}", taken[k]);
        }
        // The ACKs' seq grew by 1024 per ACK drawn.
        assert!(last_seq.unwrap() >= 1024 * (taken[3] as u64 - 1));
    }

    #[test]
    fn nothing_is_offered_while_disabled_and_offers_end_when_taken() {
        let mut g = TrafficGen::<4>::new(10);
        g.connect_all();
        for _ in 0..3 {
            cycle(&mut g, [false; 4], false, true);
        }
        for t in 0..500 {
            let s = cycle(&mut g, [true; 4], false, false);
            assert_eq!(s.valid, [false; 4], "cycle {t}: an offer while disabled");
        }
        // Enabled with no ready: offers appear and are held.
        let mut s = cycle(&mut g, [false; 4], true, false);
        for _ in 0..100 {
            s = cycle(&mut g, [false; 4], true, false);
        }
        assert!(
            s.valid[1] && s.valid[2] && s.valid[3],
            "held offers: {:?}",
            s.valid
        );
        // Disabled: held offers stay until taken, then the streams go quiet.
        // (three cycles: `enable` passes a two-flip-flop synchroniser)
        for _ in 0..3 {
            let held = cycle(&mut g, [false; 4], false, false);
            assert_eq!(held.valid, s.valid);
        }
        cycle(&mut g, [true; 4], false, false);
        for t in 0..50 {
            let s = cycle(&mut g, [true; 4], false, false);
            assert_eq!(s.valid, [false; 4], "cycle {t} after disable");
        }
    }
}
