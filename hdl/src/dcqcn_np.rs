//! `dcqcn_np`: the DCQCN notification point and its CNP rate limiter, for `2^QB` QPs, one
//! received packet per clock cycle.
//!
//! Behaviour: `../shared/reference/dcqcn.md` "NP and the CNP rate limiter"; bit-accurate
//! statement: `sim::dcqcn_np` (the golden model); design notes: `docs/dcqcn_np.md`.
//!
//! ```text
//!  s_rx_* ─► CE? ─► S1: RAM read ─► S2: base word ─► S3: pass bits ─► S4: decide ─► W1 ─► out
//!                   (address)       subtract and     reduce each      priority     │   m_cnp_*
//!                                   compare vs the   subtract to      select by    │
//!                                   base and the 5   one "passes"     the earlier  │
//!                                   earlier events   bit              events' "hit"│
//!                                          ▲                                       │
//!                                          └── RAM / port register write (from W1) ┘
//! ```
//!
//! Timing of a packet accepted in cycle `c` (any ECN value; only CE, `0b11`, goes on):
//!
//! - `c`: the QP's word is read from the RAM (address at the end of `c`);
//! - `c+1` (S1): the RAM's output; registered as the *base* word (the port register in
//!   `per_port` mode);
//! - `c+2` (S2): the base word and the time of each of the 5 events before (in S3, S4, W1,
//!   W2, W3) are subtracted from this event's time (one 32-bit subtract of epochs and one
//!   27-bit compare of (rem, sub) each, in parallel), and its QP is compared with theirs;
//! - `c+3` (S3): each subtract is reduced to one bit, "a mark now passes a limiter last set
//!   at that time" (`de > 1 or de == 1 and (rem, sub) later`; an earlier clear passes);
//! - `c+4` (S4): the decision. The limiter's state is that written by the newest of the 5
//!   earlier events that wrote it (per flow: same QP and a passing mark or a clear; per
//!   port: any passing mark), else the base word: a priority select over the registered
//!   pass bits by the earlier events' registered `hit` flags, newest first;
//! - end of `c+4`: the request in the output register (`m_cnp_valid` in `c+5`,
//!   [`NP_LATENCY`] cycles after acceptance), the event's `hit` flag and write in W1;
//! - end of `c+5`: W1 writes the RAM (per flow) or the port register (per port), and the
//!   counter for the decision increments (from a registered enable): `cnt_sent` and
//!   `cnt_suppressed` show a decision [`NP_COUNT_LAG`] cycle after `m_cnp_valid` would.
//!
//! A RAM read at the end of `c` misses the writes of the events up to 5 slots ahead (the
//! write is at the end of W1, the fifth stage after acceptance), which is why 5 earlier
//! events are forwarded; one packet per cycle for any mix of QPs, with no hazard stall.
//!
//! Backpressure: while `m_cnp_valid && !m_cnp_ready` the whole NP holds (`s_rx_ready` low,
//! no decision) and `cnt_stall` counts the cycle ([`NP_COUNT_LAG`] cycle later); no
//! decision is lost and the packets wait upstream. A CNP request is never dropped. While
//! holding, S1's word is re-read and W1's write repeated (the same word): a read may then
//! see writes of events it forwards anyway, which changes nothing.
//!
//! Time: `now` is the time base's cycle-within-microsecond and the microsecond count in the
//! radix of `min_time_between_cnps` (`us = e * period + r`, see `sim::timebase`). With that,
//! "`t - last >= period`" is a subtraction of epochs and a compare, no multiply. `(r, sub)`
//! travels as one 27-bit key ([`RsKey`]: `r` above `sub`) so that their order is one compare.
//!
//! A clear (`s_clr_*`, from the register block) goes down the same pipeline and writes the
//! QP's word back to "no CNP sent" (the per-port limiter is kept); it sends nothing and
//! counts nothing.
//!
//! After `reset` the RAM is swept to "no CNP sent" for `2^QB` cycles (`busy`, `s_rx_ready`
//! low); counters and the per-port register clear. `cfg` may only change while idle.

use crate::dcqcn_rp::widths::{EPOCH_W, REM_W, SUB_W};
use crate::state_ram::StateRam;
use rust_hdl::prelude::*;

/// Width of the ECN field of a received packet (`0b11` = CE).
pub const ECN_W: usize = 2;
/// Width of the DSCP carried on every CNP request.
pub const DSCP_W: usize = 6;
/// Width of the 802.1p priority carried on every CNP request.
pub const PRIO_W: usize = 3;
pub use crate::COUNTER_W;

/// Width of the (rem, sub) key of a time: `REM_W + SUB_W`.
pub const RS_W: usize = SUB_W + REM_W;
/// Cycles from an accepted CE mark that passes to its request on `m_cnp_*` (output ready).
pub const NP_LATENCY: usize = 5;
/// Cycles the counters lag: `cnt_sent` / `cnt_suppressed` count a decision this many cycles
/// after `m_cnp_valid` would show its request (`NP_LATENCY + NP_COUNT_LAG` cycles after the
/// mark's acceptance), and `cnt_stall` counts a held cycle this many cycles later.
pub const NP_COUNT_LAG: usize = 1;
/// Earlier events forwarded to a decision (those whose write a RAM read can miss).
const FWD: usize = 5;

/// The (rem, sub) part of a time as one number: `r * 2^SUB_W + sub` (the first field is the
/// low bits), so that "(r, sub) at or after (r', sub')" is one compare of two keys.
#[derive(Clone, Copy, Debug, Default, PartialEq, LogicStruct)]
pub struct RsKey {
    /// Cycle within the microsecond (low bits).
    pub sub: Bits<SUB_W>,
    /// Microseconds within the period (high bits).
    pub r: Bits<REM_W>,
}

/// One QP's (or the port's) limiter state: one block-RAM word (60 bits). Mirrors
/// `sim::dcqcn_np::NpState`.
#[derive(Clone, Copy, Debug, Default, PartialEq, LogicStruct)]
pub struct NpWord {
    /// A CNP was sent (since reset).
    pub sent: Bit,
    /// Time of the last CNP: (rem, sub) as an [`RsKey`].
    pub rs: Bits<RS_W>,
    /// Time of the last CNP: periods of `min_time_between_cnps` (epoch, modulo 2^32).
    pub e: Bits<EPOCH_W>,
}

/// "Now" for the NP, from the core's time base.
#[derive(Clone, Copy, Debug, Default, PartialEq, LogicStruct)]
pub struct NpTimeWord {
    /// Cycle within the microsecond, `0..clock_mhz`.
    pub sub: Bits<SUB_W>,
    /// Microseconds in the `min_time_between_cnps` radix (period 1 when it is 0).
    pub e: Bits<EPOCH_W>,
    pub r: Bits<REM_W>,
}

/// The NP's parameters in hardware form (`sim::dcqcn_np::NpConfig` computes them).
#[derive(Clone, Copy, Debug, Default, PartialEq, LogicStruct)]
pub struct NpCfgWord {
    /// `min_time_between_cnps == 0`: every CE mark gets a CNP.
    pub no_limit: Bit,
    /// `cnp_moderation = per_port`: one limiter for all QPs (else one per QP).
    pub per_port: Bit,
    /// `cnp_dscp`.
    pub dscp: Bits<DSCP_W>,
    /// `cnp_802p_prio`.
    pub prio: Bits<PRIO_W>,
}

/// The DCQCN notification point for `2^QB` QPs (`1 <= QB <= 14`).
#[derive(LogicBlock)]
pub struct DcqcnNp<const QB: usize> {
    /// Clock; everything is synchronous to its rising edge.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset, active high: empties the pipeline, clears the counters and the
    /// per-port limiter, starts the RAM sweep.
    pub reset: Signal<In, Bit>,

    /* Clear stream (register block: reset one QP's limiter) */
    /// Forget `s_clr_qp`'s last CNP (priority over received packets).
    pub s_clr_valid: Signal<In, Bit>,
    /// The clear is taken this cycle (one LUT of registers: `!busy` and the output
    /// register empty; unlike `s_rx_ready`, not `m_cnp_ready`).
    pub s_clr_ready: Signal<Out, Bit>,
    /// QP whose limiter is cleared.
    pub s_clr_qp: Signal<In, Bits<QB>>,

    /* Received data packet stream */
    /// A data packet was received for `s_rx_qp`.
    pub s_rx_valid: Signal<In, Bit>,
    /// The packet is taken this cycle (when no clear is offered).
    pub s_rx_ready: Signal<Out, Bit>,
    /// QP of the packet.
    pub s_rx_qp: Signal<In, Bits<QB>>,
    /// ECN field of the packet's IP header; only `0b11` (CE) acts.
    pub s_rx_ecn: Signal<In, Bits<ECN_W>>,

    /* CNP request stream */
    /// A CNP should be sent ([`NP_LATENCY`] cycles after the mark was accepted, if the
    /// output was ready).
    pub m_cnp_valid: Signal<Out, Bit>,
    /// The CNP generator takes the request; low holds the NP (counted in `cnt_stall`).
    pub m_cnp_ready: Signal<In, Bit>,
    /// QP the CNP is for.
    pub m_cnp_qp: Signal<Out, Bits<QB>>,
    /// DSCP for the CNP (`cnp_dscp`).
    pub m_cnp_dscp: Signal<Out, Bits<DSCP_W>>,
    /// 802.1p priority for the CNP (`cnp_802p_prio`).
    pub m_cnp_prio: Signal<Out, Bits<PRIO_W>>,

    /* Time, parameters, status */
    /// Now (sampled with each accepted packet).
    pub now: Signal<In, NpTimeWord>,
    /// Parameters in hardware form.
    pub cfg: Signal<In, NpCfgWord>,
    /// The RAM sweep after reset is running; no packet is accepted.
    pub busy: Signal<Out, Bit>,
    /// CE marks that produced a CNP request (since reset, wrapping). Lags: a decision is
    /// counted [`NP_COUNT_LAG`] cycle after its request shows on `m_cnp_valid`.
    pub cnt_sent: Signal<Out, Bits<COUNTER_W>>,
    /// CE marks suppressed by the limiter (since reset, wrapping). Lags as `cnt_sent`.
    pub cnt_suppressed: Signal<Out, Bits<COUNTER_W>>,
    /// Cycles the CNP output was not ready while holding a request (since reset, wrapping).
    /// Lags: a held cycle is counted [`NP_COUNT_LAG`] cycle after it.
    pub cnt_stall: Signal<Out, Bits<COUNTER_W>>,

    /// The per-QP limiter words (read at acceptance, written from W1). A read that meets
    /// W1's write of its QP is never used (that write's event is one of the five forwarded
    /// to the decision): see [`StateRam`].
    ram: StateRam<NpWord, QB>,
    /// S1: a CE mark or a clear is here (the RAM is reading its QP's word).
    s1_valid: DFF<Bit>,
    /// S1: the event is a clear.
    s1_clr: DFF<Bit>,
    /// S1: the event's QP.
    s1_qp: DFF<Bits<QB>>,
    /// S1: the event's time, epoch.
    s1_e: DFF<Bits<EPOCH_W>>,
    /// S1: the event's time, (rem, sub) key.
    s1_rs: DFF<Bits<RS_W>>,
    /// S2: an event is here.
    s2_valid: DFF<Bit>,
    /// S2: the event is a clear.
    s2_clr: DFF<Bit>,
    /// S2: the event's QP.
    s2_qp: DFF<Bits<QB>>,
    /// S2: the event's time, epoch.
    s2_e: DFF<Bits<EPOCH_W>>,
    /// S2: the event's time, (rem, sub) key.
    s2_rs: DFF<Bits<RS_W>>,
    /// S2: the base word: the QP's RAM word (per flow) or the port register (per port), as
    /// they were before the last `FWD` events' writes at most.
    s2_base: DFF<NpWord>,
    /// The events after S2, by index: 0 = S3, 1 = S4, 2 = W1, 3 = W2, 4 = W3: QP.
    tr_qp: [DFF<Bits<QB>>; FWD],
    /// The events after S2 (as `tr_qp`): time, epoch.
    tr_e: [DFF<Bits<EPOCH_W>>; FWD],
    /// The events after S2 (as `tr_qp`): time, (rem, sub) key.
    tr_rs: [DFF<Bits<RS_W>>; FWD],
    /// The events after S2 (as `tr_qp`): a clear.
    tr_clr: [DFF<Bit>; FWD],
    /// S3: an event is here.
    s3_valid: DFF<Bit>,
    /// S3: the base word says no CNP was sent.
    s3_unsent: DFF<Bit>,
    /// S3: this event's epoch minus the base word's (modulo 2^32).
    s3_b_de: DFF<Bits<EPOCH_W>>,
    /// S3: this event's (rem, sub) is at or after the base word's.
    s3_b_ge: DFF<Bit>,
    /// S3: this event's epoch minus that of the event `i + 1` before it.
    s3_de: [DFF<Bits<EPOCH_W>>; FWD],
    /// S3: this event's (rem, sub) is at or after that of the event `i + 1` before it.
    s3_ge: [DFF<Bit>; FWD],
    /// S3: the event `i + 1` before shares this event's limiter (same QP, or per port).
    s3_same: [DFF<Bit>; FWD],
    /// S3: the event `i + 1` before is a clear (it writes "no CNP sent").
    s3_zero: [DFF<Bit>; FWD],
    /// S4: an event is here (its clear flag and QP are `tr_clr[1]`, `tr_qp[1]`).
    s4_valid: DFF<Bit>,
    /// S4: a mark passes the base word.
    s4_base: DFF<Bit>,
    /// S4: a mark passes the word the event `i + 1` before writes, if it writes.
    s4_cand: [DFF<Bit>; FWD],
    /// S4: the event `i + 1` before shares this event's limiter.
    s4_same: [DFF<Bit>; FWD],
    /// W1..W5 (index 0..4): the event there wrote its limiter (per flow: a passing mark
    /// or a clear; per port: a passing mark). Index `i` is the event `i + 1` before S4's.
    hit: [DFF<Bit>; FWD],
    /// W1: the event writes its QP's RAM word (a clear, or a passing mark per flow).
    w1_ram_we: DFF<Bit>,
    /// W1: the event writes the port register (a passing mark per port).
    w1_port_we: DFF<Bit>,
    /// The per-port limiter (written from W1).
    port: DFF<NpWord>,
    /// The CNP request register: valid.
    out_valid: DFF<Bit>,
    /// The CNP request register: QP.
    out_qp: DFF<Bits<QB>>,
    /// A mark passed last cycle: `sent` increments.
    inc_sent: DFF<Bit>,
    /// A mark was suppressed last cycle: `suppressed` increments.
    inc_supp: DFF<Bit>,
    /// The NP held last cycle: `stall` increments.
    inc_stall: DFF<Bit>,
    /// `cnt_sent`.
    sent: DFF<Bits<COUNTER_W>>,
    /// `cnt_suppressed`.
    suppressed: DFF<Bits<COUNTER_W>>,
    /// `cnt_stall`.
    stall: DFF<Bits<COUNTER_W>>,
    /// The RAM sweep's address.
    sweep: DFF<Bits<QB>>,
    /// The RAM sweep runs.
    busy_q: DFF<Bit>,
    /// The sweep's last address.
    sweep_last: Constant<Bits<QB>>,
    /// 1 (QP width).
    one_qb: Constant<Bits<QB>>,
    /// 1 (epoch width).
    one_epoch: Constant<Bits<EPOCH_W>>,
    /// All epoch bits but bit 0: `de & hi_epoch != 0` is `de >= 2`.
    hi_epoch: Constant<Bits<EPOCH_W>>,
    /// 1 (counter width).
    one_count: Constant<Bits<COUNTER_W>>,
    /// ECN = CE.
    ce: Constant<Bits<ECN_W>>,
    /// "No CNP sent".
    zero_word: Constant<NpWord>,
    /// The pipeline advances (the output register is empty or taken).
    adv: Signal<Local, Bit>,
    /// An input event is taken.
    take: Signal<Local, Bit>,
    /// A clear is taken: only while the output register is empty (and no sweep runs), so
    /// `s_clr_ready` is a function of registers alone. The core's command path (a reset
    /// goes to the RP only when the NP takes its clear) then does not run through the CNP
    /// handshake (`m_cnp_ready`) into the RP's input queue.
    clr_take: Signal<Local, Bit>,
    /// `now`'s (rem, sub) as a key.
    now_key: Signal<Local, RsKey>,
    /// S4: a mark passes the limiter's state (before `no_limit`).
    sel: Signal<Local, Bit>,
    /// S4: a mark passes.
    pass: Signal<Local, Bit>,
    /// S4: a CE mark (not a clear) is decided.
    mark: Signal<Local, Bit>,
    /// S4: the mark passes (a request).
    passed: Signal<Local, Bit>,
    /// W1's word: "no CNP sent" for a clear, else "sent at the event's time".
    w1_word: Signal<Local, NpWord>,
}

impl<const QB: usize> DcqcnNp<QB> {
    /// RAM reads that met a write to their QP in rust-hdl's simulation (see
    /// [`StateRam::collisions`]): the tests use it to show that their stimulus makes some.
    pub fn state_ram_collisions(&self) -> u64 {
        self.ram.collisions()
    }

    /// A notification point for `2^QB` QPs.
    pub fn new() -> Self {
        assert!(
            (1..=14).contains(&QB),
            "DcqcnNp: QB = {QB}; 2^QB QPs must be 2..=16384"
        );
        Self {
            clock: Default::default(),
            reset: Default::default(),
            s_clr_valid: Default::default(),
            s_clr_ready: Default::default(),
            s_clr_qp: Default::default(),
            s_rx_valid: Default::default(),
            s_rx_ready: Default::default(),
            s_rx_qp: Default::default(),
            s_rx_ecn: Default::default(),
            m_cnp_valid: Default::default(),
            m_cnp_ready: Default::default(),
            m_cnp_qp: Default::default(),
            m_cnp_dscp: Default::default(),
            m_cnp_prio: Default::default(),
            now: Default::default(),
            cfg: Default::default(),
            busy: Default::default(),
            cnt_sent: Default::default(),
            cnt_suppressed: Default::default(),
            cnt_stall: Default::default(),
            ram: Default::default(),
            s1_valid: Default::default(),
            s1_clr: Default::default(),
            s1_qp: Default::default(),
            s1_e: Default::default(),
            s1_rs: Default::default(),
            s2_valid: Default::default(),
            s2_clr: Default::default(),
            s2_qp: Default::default(),
            s2_e: Default::default(),
            s2_rs: Default::default(),
            s2_base: Default::default(),
            tr_qp: std::array::from_fn(|_| Default::default()),
            tr_e: std::array::from_fn(|_| Default::default()),
            tr_rs: std::array::from_fn(|_| Default::default()),
            tr_clr: std::array::from_fn(|_| Default::default()),
            s3_valid: Default::default(),
            s3_unsent: Default::default(),
            s3_b_de: Default::default(),
            s3_b_ge: Default::default(),
            s3_de: std::array::from_fn(|_| Default::default()),
            s3_ge: std::array::from_fn(|_| Default::default()),
            s3_same: std::array::from_fn(|_| Default::default()),
            s3_zero: std::array::from_fn(|_| Default::default()),
            s4_valid: Default::default(),
            s4_base: Default::default(),
            s4_cand: std::array::from_fn(|_| Default::default()),
            s4_same: std::array::from_fn(|_| Default::default()),
            hit: std::array::from_fn(|_| Default::default()),
            w1_ram_we: Default::default(),
            w1_port_we: Default::default(),
            port: Default::default(),
            out_valid: Default::default(),
            out_qp: Default::default(),
            inc_sent: Default::default(),
            inc_supp: Default::default(),
            inc_stall: Default::default(),
            sent: Default::default(),
            suppressed: Default::default(),
            stall: Default::default(),
            sweep: Default::default(),
            busy_q: Default::default(),
            sweep_last: Constant::new(Bits::<QB>::mask()),
            one_qb: Constant::new(1.into()),
            one_epoch: Constant::new(1.into()),
            hi_epoch: Constant::new(((1u64 << EPOCH_W) - 2).into()),
            one_count: Constant::new(1.into()),
            ce: Constant::new(3.into()),
            zero_word: Constant::new(NpWord::default()),
            adv: Default::default(),
            take: Default::default(),
            clr_take: Default::default(),
            now_key: Default::default(),
            sel: Default::default(),
            pass: Default::default(),
            mark: Default::default(),
            passed: Default::default(),
            w1_word: Default::default(),
        }
    }
}

impl<const QB: usize> Default for DcqcnNp<QB> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const QB: usize> Logic for DcqcnNp<QB> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, s1_valid, s1_clr, s1_qp, s1_e, s1_rs, s2_valid, s2_clr, s2_qp, s2_e,
            s2_rs, s2_base, s3_valid, s3_unsent, s3_b_de, s3_b_ge, s4_valid, s4_base, w1_ram_we,
            w1_port_we, port, out_valid, out_qp, inc_sent, inc_supp, inc_stall, sent, suppressed,
            stall, sweep, busy_q
        );
        for i in 0..FWD {
            self.tr_qp[i].clock.next = self.clock.val();
            self.tr_qp[i].d.next = self.tr_qp[i].q.val();
            self.tr_e[i].clock.next = self.clock.val();
            self.tr_e[i].d.next = self.tr_e[i].q.val();
            self.tr_rs[i].clock.next = self.clock.val();
            self.tr_rs[i].d.next = self.tr_rs[i].q.val();
            self.tr_clr[i].clock.next = self.clock.val();
            self.tr_clr[i].d.next = self.tr_clr[i].q.val();
            self.s3_de[i].clock.next = self.clock.val();
            self.s3_de[i].d.next = self.s3_de[i].q.val();
            self.s3_ge[i].clock.next = self.clock.val();
            self.s3_ge[i].d.next = self.s3_ge[i].q.val();
            self.s3_same[i].clock.next = self.clock.val();
            self.s3_same[i].d.next = self.s3_same[i].q.val();
            self.s3_zero[i].clock.next = self.clock.val();
            self.s3_zero[i].d.next = self.s3_zero[i].q.val();
            self.s4_cand[i].clock.next = self.clock.val();
            self.s4_cand[i].d.next = self.s4_cand[i].q.val();
            self.s4_same[i].clock.next = self.clock.val();
            self.s4_same[i].d.next = self.s4_same[i].q.val();
            self.hit[i].clock.next = self.clock.val();
            self.hit[i].d.next = self.hit[i].q.val();
        }
        self.ram.clock.next = self.clock.val();

        // ---- input: every packet is taken; only CE marks go on ----
        self.adv.next = !self.out_valid.q.val() | self.m_cnp_ready.val();
        self.take.next = self.adv.val() & !self.busy_q.q.val();
        self.clr_take.next = !self.out_valid.q.val() & !self.busy_q.q.val();
        self.s_clr_ready.next = self.clr_take.val();
        self.s_rx_ready.next = self.take.val() & !self.s_clr_valid.val();
        self.now_key.next.sub = self.now.val().sub;
        self.now_key.next.r = self.now.val().r;

        // ---- S1: read the QP's word (re-read the held event's while stalled) ----
        self.ram.read_address.next = self.s1_qp.q.val();
        if self.adv.val() {
            self.ram.read_address.next = self.s_rx_qp.val();
            self.s1_valid.d.next =
                self.take.val() & self.s_rx_valid.val() & (self.s_rx_ecn.val() == self.ce.val());
            self.s1_clr.d.next = false;
            self.s1_qp.d.next = self.s_rx_qp.val();
            if self.s_clr_valid.val() {
                self.ram.read_address.next = self.s_clr_qp.val();
                self.s1_valid.d.next = self.clr_take.val();
                self.s1_clr.d.next = true;
                self.s1_qp.d.next = self.s_clr_qp.val();
            }
            self.s1_e.d.next = self.now.val().e;
            self.s1_rs.d.next = self.now_key.val().into();
        }

        // ---- S1 -> S2: the base word (RAM output, or the port register per port) ----
        if self.adv.val() {
            self.s2_valid.d.next = self.s1_valid.q.val();
            self.s2_clr.d.next = self.s1_clr.q.val();
            self.s2_qp.d.next = self.s1_qp.q.val();
            self.s2_e.d.next = self.s1_e.q.val();
            self.s2_rs.d.next = self.s1_rs.q.val();
            self.s2_base.d.next = self.ram.read_data.val();
            if self.cfg.val().per_port {
                self.s2_base.d.next = self.port.q.val();
            }
        }

        // ---- S2 -> S3: subtract and compare against the base and the 5 events before;
        // the events move on down the trail ----
        if self.adv.val() {
            self.s3_valid.d.next = self.s2_valid.q.val();
            self.s3_unsent.d.next = !self.s2_base.q.val().sent;
            self.s3_b_de.d.next = self.s2_e.q.val() - self.s2_base.q.val().e;
            self.s3_b_ge.d.next = self.s2_rs.q.val() >= self.s2_base.q.val().rs;
            for i in 0..FWD {
                self.s3_de[i].d.next = self.s2_e.q.val() - self.tr_e[i].q.val();
                self.s3_ge[i].d.next = self.s2_rs.q.val() >= self.tr_rs[i].q.val();
                self.s3_same[i].d.next =
                    self.cfg.val().per_port | (self.s2_qp.q.val() == self.tr_qp[i].q.val());
                self.s3_zero[i].d.next = self.tr_clr[i].q.val();
            }
            self.tr_qp[0].d.next = self.s2_qp.q.val();
            self.tr_e[0].d.next = self.s2_e.q.val();
            self.tr_rs[0].d.next = self.s2_rs.q.val();
            self.tr_clr[0].d.next = self.s2_clr.q.val();
            for i in 1..FWD {
                self.tr_qp[i].d.next = self.tr_qp[i - 1].q.val();
                self.tr_e[i].d.next = self.tr_e[i - 1].q.val();
                self.tr_rs[i].d.next = self.tr_rs[i - 1].q.val();
                self.tr_clr[i].d.next = self.tr_clr[i - 1].q.val();
            }
        }

        // ---- S3 -> S4: each subtract to one "passes" bit: de >= 2, or de == 1 and
        // (rem, sub) at or after ----
        if self.adv.val() {
            self.s4_valid.d.next = self.s3_valid.q.val();
            self.s4_base.d.next = self.s3_unsent.q.val()
                | (self.s3_b_de.q.val() & self.hi_epoch.val()).any()
                | ((self.s3_b_de.q.val() == self.one_epoch.val()) & self.s3_b_ge.q.val());
            for i in 0..FWD {
                self.s4_cand[i].d.next = self.s3_zero[i].q.val()
                    | (self.s3_de[i].q.val() & self.hi_epoch.val()).any()
                    | ((self.s3_de[i].q.val() == self.one_epoch.val()) & self.s3_ge[i].q.val());
                self.s4_same[i].d.next = self.s3_same[i].q.val();
            }
        }

        // ---- S4: the decision; the newest earlier writer of the limiter wins ----
        self.sel.next = self.s4_base.q.val();
        if self.hit[4].q.val() & self.s4_same[4].q.val() {
            self.sel.next = self.s4_cand[4].q.val();
        }
        if self.hit[3].q.val() & self.s4_same[3].q.val() {
            self.sel.next = self.s4_cand[3].q.val();
        }
        if self.hit[2].q.val() & self.s4_same[2].q.val() {
            self.sel.next = self.s4_cand[2].q.val();
        }
        if self.hit[1].q.val() & self.s4_same[1].q.val() {
            self.sel.next = self.s4_cand[1].q.val();
        }
        if self.hit[0].q.val() & self.s4_same[0].q.val() {
            self.sel.next = self.s4_cand[0].q.val();
        }
        self.pass.next = self.cfg.val().no_limit | self.sel.val();
        self.mark.next = self.s4_valid.q.val() & !self.tr_clr[1].q.val();
        self.passed.next = self.mark.val() & self.pass.val();
        if self.adv.val() {
            self.hit[0].d.next = self.passed.val()
                | (self.s4_valid.q.val() & self.tr_clr[1].q.val() & !self.cfg.val().per_port);
            for i in 1..FWD {
                self.hit[i].d.next = self.hit[i - 1].q.val();
            }
            self.w1_ram_we.d.next = (self.passed.val() & !self.cfg.val().per_port)
                | (self.s4_valid.q.val() & self.tr_clr[1].q.val());
            self.w1_port_we.d.next = self.passed.val() & self.cfg.val().per_port;
            self.out_valid.d.next = self.passed.val();
            self.out_qp.d.next = self.tr_qp[1].q.val();
        }
        self.inc_sent.d.next = self.adv.val() & self.passed.val();
        self.inc_supp.d.next = self.adv.val() & self.mark.val() & !self.pass.val();
        self.inc_stall.d.next = !self.adv.val();

        // ---- W1: write the limiter (repeated while holding: the same word) ----
        self.w1_word.next = self.zero_word.val();
        if !self.tr_clr[2].q.val() {
            self.w1_word.next.sent = true;
            self.w1_word.next.rs = self.tr_rs[2].q.val();
            self.w1_word.next.e = self.tr_e[2].q.val();
        }
        self.ram.write_enable.next = self.w1_ram_we.q.val();
        self.ram.write_address.next = self.tr_qp[2].q.val();
        self.ram.write_data.next = self.w1_word.val();
        if self.w1_port_we.q.val() {
            self.port.d.next = self.w1_word.val();
        }

        // ---- counters, from the registered enables ----
        if self.inc_sent.q.val() {
            self.sent.d.next = self.sent.q.val() + self.one_count.val();
        }
        if self.inc_supp.q.val() {
            self.suppressed.d.next = self.suppressed.q.val() + self.one_count.val();
        }
        if self.inc_stall.q.val() {
            self.stall.d.next = self.stall.q.val() + self.one_count.val();
        }

        // ---- RAM sweep after reset; reset ----
        if self.busy_q.q.val() {
            self.ram.write_enable.next = true;
            self.ram.write_address.next = self.sweep.q.val();
            self.ram.write_data.next = self.zero_word.val();
            self.sweep.d.next = self.sweep.q.val() + self.one_qb.val();
            if self.sweep.q.val() == self.sweep_last.val() {
                self.busy_q.d.next = false;
            }
        }
        if self.reset.val() {
            self.s1_valid.d.next = false;
            self.s2_valid.d.next = false;
            self.s3_valid.d.next = false;
            self.s4_valid.d.next = false;
            for i in 0..FWD {
                self.hit[i].d.next = false;
            }
            self.w1_ram_we.d.next = false;
            self.w1_port_we.d.next = false;
            self.out_valid.d.next = false;
            self.inc_sent.d.next = false;
            self.inc_supp.d.next = false;
            self.inc_stall.d.next = false;
            self.port.d.next = self.zero_word.val();
            self.sent.d.next = 0.into();
            self.suppressed.d.next = 0.into();
            self.stall.d.next = 0.into();
            self.sweep.d.next = 0.into();
            self.busy_q.d.next = true;
        }
        self.busy.next = self.busy_q.q.val();
        self.m_cnp_valid.next = self.out_valid.q.val();
        self.m_cnp_qp.next = self.out_qp.q.val();
        self.m_cnp_dscp.next = self.cfg.val().dscp;
        self.m_cnp_prio.next = self.cfg.val().prio;
        self.cnt_sent.next = self.sent.q.val();
        self.cnt_suppressed.next = self.suppressed.q.val();
        self.cnt_stall.next = self.stall.q.val();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The (rem, sub) key orders as the pair: `r` above `sub`.
    #[test]
    fn rs_key_orders_rem_then_sub() {
        let key = |r: u64, sub: u64| -> u64 {
            let b: Bits<RS_W> = RsKey {
                sub: sub.into(),
                r: r.into(),
            }
            .into();
            b.to_u64()
        };
        assert_eq!(key(0, 5), 5);
        assert_eq!(key(1, 0), 1 << SUB_W);
        assert!(key(2, 0) > key(1, (1 << SUB_W) - 1));
    }

    /// The NP builds and writes Verilog at the shipped size (the pipeline's arrays and
    /// structs translate).
    #[test]
    fn np_generates_verilog() {
        let v = crate::verilog_of(DcqcnNp::<4>::new());
        assert!(v.contains("module top"));
    }
}
