//! `dcqcn_rp`: the DCQCN reaction point for `2^QB` QPs, one event per clock cycle over
//! events of different QPs, one per 8 cycles on one QP while its events are less than a
//! microsecond apart (see "followers" below; else one per `UPD_STAGES + 1` cycles). An
//! event that waits for its own QP holds an entry of the input queue, not the events of
//! other QPs behind it.
//!
//! Behaviour: `../shared/reference/dcqcn.md` "RP behaviour"; bit-accurate statement:
//! `sim::dcqcn_rp` (the golden model); design notes, widths, formats and rounding:
//! `docs/dcqcn_rp.md`.
//!
//! ```text
//!  s_ctl_* ─┐ round-   ┌─────────┐ HZ: any entry ┌────┐ RAM read ┌────┐ registered ┌───────────────┐
//!  s_cnp_* ─┤ robin    ┤ input   ├──────────────►│ S1 ├─────────►│ S2 ├─── word ──►│ RpUpdate: A..E │─► m_rate_*
//!  s_tx_*  ─┤ arbiter  │ queue,  │ oldest entry  │    │ (QpWord) └────┘ + forward  │ (UPD_STAGES)   │
//!  s_query_┘           │ QB_N    ├──────────────►│    │             ▲   from W1..W3 └───────┬───────┘
//!                      │ entries │ checked to    └────┘             │                       │
//!                      │         │ follow                           │                       │
//!                      └─────────┘                                  └──── write back ◄──────┘
//! ```
//!
//! Pipeline: the arbiter's choice is written into the lowest free of the [`QB_N`] entries
//! of the input queue and stays there until it goes to S1; an age matrix (`qb_old`) keeps
//! the order of acceptance. The inputs are ready while an entry will be free at the next
//! edge (`full_q` clear, a register) and no input the round-robin arbiter
//! serves first is valid (two LUT levels of the four valids and the arbiter's mask), so no
//! ready depends on the interlock; an input class with [`QB_CAP`] entries known to wait is
//! not taken (`cap`), so waiting events never fill the queue. At most one event goes to S1
//! per edge, chosen by one-hot pointers: HZ, whose event goes with its word read from the
//! state RAM (the RAM's read address is HZ's QP, a flip-flop), or the oldest entry whose
//! follower check found it may follow, whose event goes as a follower (below) and before
//! HZ's. S1 reads the state word
//! from block RAM; S2 registers
//! it (registered RAM output) and forwards the three words produced last (W1, W2, W3,
//! newest first; the RAM is written from W1, a register, a cycle after step E). Its next
//! state is computed by [`update::RpUpdate`] in `1 + UPD_STAGES` steps and written back
//! from step E; its report (the QP's state after the event; for a query, its state now) is
//! valid [`RP_REPORT_LATENCY`] cycles after acceptance when nothing waits. The report
//! stream is the per-QP rate update the pacer follows; `m_rate_query` marks the answers to
//! queries. Queries write nothing. `now` is sampled when the event is accepted.
//!
//! The same-QP interlock: an event waits while an event that writes its QP is in S1, S2 or
//! the first `UPD_STAGES - 2` update registers (its word would reach the RAM or the
//! forwarding registers too late to be read), and while an older entry holds its QP
//! (`qb_blk`), so every sequence on one QP is applied in order, exactly as the golden model
//! applies it. Which older entries hold an entry's QP is found once, as the entry is
//! written (its row of the same-QP matrix `qb_same`, from the input classes' QPs compared
//! with every entry's); after that the row only loses the entries that leave. For timing
//! the check is split over registers. In the cycle after an entry
//! is written its QP (`nw_qp`) is compared with every slot of the window (the pipeline
//! from S1 on moves every cycle, so a slot's event is one slot further on at each edge) and
//! the results are registered per slot (`nm`), per group of 8 slots (`nmg`) and per group
//! of 16 (`nmg_or`); at the next edge their OR is the entry's
//! `qb_yv` (a writer of its QP is in the tags), and a search for the youngest match gives
//! the entry, four edges after it was written, that writer's slot (`qb_ys`), which it
//! then follows one slot per edge until the writer leaves the window. S1's match is
//! registered per entry (`qb_hit` for HZ's event: its match, registered in every cycle,
//! ANDed with `s1_hz`, whether it went; `qb_hitf` for a follower, registered when it goes),
//! is S2's an edge later (`qb_hit2`) and then the youngest writer in the tags.
//! An entry's hazard (`qb_haz`) is an OR of `qb_hit`, `qb_hitf`, `qb_hit2` and `qb_yv`,
//! exact from the second edge after the entry was
//! written. HN, HZ's next entry, is chosen an edge ahead: the oldest entry whose hazard
//! bits are exact and say that neither an older entry nor a writer holds its QP (`pick`,
//! from registers only), registered one-hot (`hn_sel`); such an entry stays free until it
//! goes. When HZ is empty or its event goes, HZ takes HN's entry, and its QP from
//! `hn_sel` (`hn_qp`, an OR of two LUT levels). HZ's event goes when a report credit is
//! left (`cr`) and no follower goes (the follower is chosen an edge ahead too,
//! `fol_sel`). So the decision is an AND of registers, and events of other QPs go past
//! an event that waits, one per cycle. Nothing the comparators read depends on the decision
//! (`nw_qp` is loaded from the arbiter's choice), and of S1's event only its valid bit,
//! kind and QP are loaded from the decision: the entry that went is registered in binary
//! (`s1_b`) and the rest of the event, and a follower's distance (`qb_dp`), are read
//! from it in S1's cycle (it is written again an edge later at the earliest). So the
//! decision's fan-out stays beside HZ.
//!
//! The pipeline from S1 on has no enable: it moves every cycle. Reports enter a report
//! FIFO ([`REP_FIFO_AW`], block RAM) and leave through an output register (`m_rate_*`).
//! When `m_rate_valid && !m_rate_ready` reports collect in the FIFO; an event goes to S1
//! only while fewer than [`REP_CREDITS`] reports were owed the cycle before (counted from
//! the edge after an event entered S1), so the FIFO never overflows; then the input queue
//! fills and the readies drop.
//!
//! Followers: an event whose QP has a writer in the window still goes into S1 when that
//! writer (the youngest) is at least 8 slots ahead (9 if it is a leader, an event that
//! read the RAM) and less than a microsecond earlier by its time stamp. The follower
//! check ([`fol_check::FolCheck`]) finds both: it loads the oldest entry not yet checked
//! and not known to be blocked at every edge, reads the last-writer table (per QP: the
//! writer's cycle, kind and stamp) at its QP and registers the result in the entry
//! [`CHECK_EDGES`] edges later; the entry's distance then grows by one per edge. An entry
//! found blocked is checked again once it is not. Its RAM read and
//! catch-up are not used: [`near::RpNear`] computes its word beside the update's last
//! steps from the writer's word (its own result, W1, W2, W3 or the history of written
//! words), and W1 takes that instead of step E's. `docs/dcqcn_rp.md`, "The same-QP path".
//!
//! Commands (`s_ctl_*`, from the register block) reset a QP's state or set its mode; a QP
//! not in DCQCN mode ignores CNPs and packets and reports the host's rate or the max rate
//! (`docs/dcqcn_rp.md`, "Modes"). `cnt_cnp_received` and `cnt_rate_cuts` count what the
//! events that write back did.
//!
//! After `reset` the RAM is swept to "not limited" for `2^QB` cycles (`busy` high, all
//! `s_*_ready` low). The power table (`tbl_*`) must be loaded (`sim::dcqcn_rp::RpConfig`
//! computes it) before the first event; `cfg` and the table may only change while no event
//! is in flight.

pub mod alpha;
pub mod fol_check;
pub mod inc_count;
pub mod near;
pub mod near_check;
pub mod rate;
pub mod state;
pub mod timer;
pub mod update;
pub mod widths;

use crate::COUNTER_W;
use crate::lut_ram::LutRam;
use crate::state_ram::StateRam;
use fol_check::{FolCheck, StampMask};
use inc_count::IncCount;
use near::{NEAR_PRE, NEAR_STAGES, RpNear};
use rust_hdl::prelude::*;
use state::{CYC_W, FolCtx, LastWrite, QpWord, RateReport, RpCfgWord, RpEvent, SLOT_W, TimeWord};
use update::{RpUpdate, UPD_STAGES};
use widths::*;

/// Cycles from an event's acceptance (the edge that takes it) to its report's
/// `m_rate_valid`, when the report stream does not stall and nothing holds it: the input
/// queue (three cycles until the entry is a candidate, one in HN, one in HZ), S1, S2 (step A),
/// the update's [`UPD_STAGES`](update::UPD_STAGES) registers, the report register, the
/// report FIFO and the output register.
pub const RP_REPORT_LATENCY: usize = 11 + UPD_STAGES;

/// A bound on one turn of an event in the input queue when the report stream keeps up: an
/// older event of its QP, or its own interlock, holds it at most `UPD_STAGES + 1` cycles,
/// and a few cycles more while HN and HZ take it and the events that go first take their
/// turns.
pub const RP_QUEUE_TURN_MAX: usize = UPD_STAGES + 6;

/// A bound on how long an accepted event can wait in the input queue when the report
/// stream keeps up: at most [`RP_QUEUE_TURN_MAX`] for each of the older events of its QP in
/// the queue (`QB_N - 1`) and for its own interlock. A caller that waits for the last
/// answers after a burst waits this much longer than [`RP_REPORT_LATENCY`].
pub const RP_QUEUE_WAIT_MAX: usize = QB_N * RP_QUEUE_TURN_MAX;

/// Address bits of the report FIFO: `2^REP_FIFO_AW` reports (256, in block RAM).
pub const REP_FIFO_AW: usize = 8;

/// Width of the report FIFO's pointers and of the count of reports owed.
const REP_PTR_W: usize = REP_FIFO_AW + 1;

/// The most events the RP owes reports for (counted from S1 to the output register) before
/// no more events go into S1: the report FIFO's size less three, so the FIFO cannot
/// overflow although the count sees an event only once it is in S1 (an edge after it was
/// sent) and the credit the decision reads is a register of the count (`credit_next` into
/// `cr`), together two cycles old. Far above the pipeline's depth: a consumer that takes
/// every report never meets it.
pub const REP_CREDITS: usize = (1 << REP_FIFO_AW) - 3;

/// Update registers whose event's word would reach the RAM or the forwarding registers
/// too late for an event entering S1 now: the interlock compares each queue entry's QP with
/// S1, S2 and the tags beside the update's first `HAZ_STAGES` registers.
const HAZ_STAGES: usize = UPD_STAGES - 2;

/// Edges from the one that loads an entry into the follower check to the one that
/// registers the check's result in the entry ([`fol_check::FOL_CHECK_EDGES`]): the
/// last-writer table is read at the entry's QP, registered, and compared over two more
/// registers.
pub const CHECK_EDGES: usize = fol_check::FOL_CHECK_EDGES;

/// Cycles from S1 to the cycle the same-QP block takes a follower's event. Step E is
/// `UPD_STAGES + 1` cycles after S1; the block's result is a register in step E's cycle
/// (W1 chooses between it and step E's word), so the block takes the word `NEAR_STAGES`
/// cycles before step E and the event `NEAR_PRE` before that.
const FOL_LINE: usize = UPD_STAGES + 1 - NEAR_STAGES - NEAR_PRE;
/// Copies of the new entry's QP (`nw_qp` and the seven of `nw_cp`), each compared with
/// `NW_SPAN` window slots (the last copy with the last `HZ_W - NW_LAST` slots), so that no
/// register bit drives more than 16 comparators. `hdl_gen` evaluates an array index from
/// loop variables and literals only, so the span 16 is also a literal in `update`.
const NW_CP: usize = 7;
const NW_SPAN: usize = 16;
/// The first slot of the last copy's slots.
const NW_LAST: usize = NW_CP * NW_SPAN;
const _: () = assert!(NW_LAST < HZ_W && HZ_W <= NW_LAST + NW_SPAN);
/// The copies of `nw_cp` between `nw_qp` and the last one (slots `16 * (c + 1)` to
/// `16 * (c + 2)` for copy `c`).
const NW_CP_MID: usize = NW_CP - 1;
const _: () = assert!(NW_CP_MID == 6);
/// The first copy of `nw_cp` that holds its value at a reset edge.
const NW_CP_HOLD: usize = 5;

/// A follower's distance (`fol_d`, `FolCtx::d`, `SLOT_W` = 7 bits) and the history's depth
/// (`2^SLOT_W` words) hold every distance a follower can have: it follows a writer still in
/// the interlock's window (S1, S2 and `HZ_W` slots), so at most `HZ_W + 2` slots ahead.
const _: () = assert!(HZ_W + 2 < 1 << state::SLOT_W);

/// Index of the tag beside step E.
const UPD_LAST: usize = UPD_STAGES - 1;

/// Slots compared with the QP of the entry written at the last edge (`slot_wr`, `slot_qp`):
/// slot 0 is S1, slot 1 is S2, slot `2 + i` is the tag beside update register `i`. The
/// matches are registered per slot (`nm`, each slot's event one slot further on) and their
/// OR at the next edge (the entry's `qb_yv`, two slots further on), so when the decision
/// reads it it covers the tags `0..HAZ_STAGES`; S1's match is registered from the QP of the
/// event that goes (`qb_hit`, `qb_hitf`) and S2's is their OR an edge later (`qb_hit2`): the
/// interlock's window.
const HZ_W: usize = HAZ_STAGES;

/// Tags compared in every cycle (two slots further on when the group ORs are used): tags
/// `0..HZ_TAGS`.
const HZ_TAGS: usize = HZ_W - 2;

/// Slots per group of the youngest-writer search (`g_first`, `g_val`): the matches `nm` are
/// searched in groups of 8 (the first match of a group is a function of 8 registers, two
/// LUT levels), then the first group with a match is chosen a cycle later (`enc_r`).
/// `hdl_gen` evaluates an array index from loop variables and literals only, so the group
/// size 8 and the last group's 5 slots are literals in `update`.
const HZ_GB: usize = 8;

/// Groups of the window's compared slots (`HZ_GB` each, the last one [`HZ_LAST_BITS`]).
const HZ_NG: usize = HZ_W.div_ceil(HZ_GB);

/// Slots of the last group of `nmg`: the last group's slots but the last two (`HZ_TAGS`
/// slots are below them), whose matches `any_lt` and `any_all` add one by one.
const HZ_LAST_OR: usize = HZ_LAST_BITS - 2;
const _: () = assert!(HZ_NG_FULL * HZ_GB + HZ_LAST_OR == HZ_TAGS && HZ_LAST_OR == 3);
// `nmg_or`, `nmg_o2`, `nmg_ol` and `nmg_oa` OR `nmg` in eight pairs.
const _: () = assert!(HZ_NG == 16);
/// Registers of `nmg_or`: the pairs of `nmg` groups below the last pair.
const NMG_PAIRS: usize = HZ_NG / 2 - 1;

/// Slot numbers as constants (`slot_c`): every `SLOT_W`-bit value.
const SLOT_C_N: usize = 1 << state::SLOT_W;

/// Entries of the input queue. An event from a stream of events on different QPs spends
/// five cycles in it (written, two cycles until its hazard bits are exact, in HN, in HZ),
/// so five entries and the one being written carry one event per cycle; the others hold events that wait for a writer
/// of their QP while the rest go past them (an input class is not taken while [`QB_CAP`]
/// of its entries are known to wait, `cap`, and two more may be on their way in then).
/// Events on a few QPs in random order wait often (one of them lands within 8 cycles of
/// the QP's last one in about a third of the cycles over 16 QPs); 16 entries take 0.97
/// of such events per cycle (24 take 0.999), and 16 keep every OR and AND-OR over the
/// entries two LUT4 levels deep where 24 need three: `docs/dcqcn_rp.md`, "The input
/// queue".
pub const QB_N: usize = 16;
// `tf_kind`, `tf_qp`, `hn_qp`, `hz_kind` and `ck_qp` OR the entries' terms by literal
// index, and the entry numbers and reads by number (`s1_b`, `s1_m`) are
// written out for 16 entries.
const _: () = assert!(QB_N == 16);
/// Bits of the entry number S1 reads its event from (`s1_b`): entries 0..=15.
const S1_B_W: usize = 4;
const _: () = assert!(QB_N <= 1 << S1_B_W);

/// An input class is not taken while this many of its entries are known to wait (`cap`):
/// `QB_N - 8`, so the waiting events of one class (this many and two on their way in: the
/// count is two edges old) leave the six entries a stream of other events needs (five
/// in flight, see [`QB_N`], and the one being written; one query per cycle went on beside
/// a stream of packets that each waited for the window: `rp_smoke`). An entry whose check
/// may still find that it can follow is not counted, so a stream of followers on
/// different QPs is not stopped while their checks run.
pub const QB_CAP: usize = QB_N - 8;

/// Groups of four entries whose waiting entries `cap` counts a cycle ahead (`wk_g`), per
/// input class; all classes' groups; the count's width.
const CAP_G: usize = QB_N / 4;
const CAP_G_N: usize = 4 * CAP_G;
const CAP_W: usize = 5;
const _: () = assert!(QB_N % 4 == 0 && QB_N < 1 << CAP_W);

/// Width of the count of valid entries (`nq`, 0..=`QB_N`).
const NQ_W: usize = 5;
const _: () = assert!(QB_N < 1 << NQ_W);

// `qb_old`, `qb_cb`, `wk_c`, `wk_n` and `ck_t` are indexed `16 p + e` (`wk_g` `4 k + g`),
// `nm` and `nm_c` `8 j + i` in `update` (`hdl_gen` evaluates an array index from loop
// variables and literals only).
const _: () = assert!(QB_N == 16 && CAP_G == 4 && CHECK_EDGES == 4);
// The youngest-writer search's literals: 15 groups of 8 slots and a last group of 5.
const _: () = assert!(HZ_W == 125 && HZ_NG == 16 && HZ_LAST_BITS == 5);

/// The follower check's entry tags, one per entry and edge of the check (`ck_t`).
const CK_T_N: usize = CHECK_EDGES * QB_N;

/// Registers of the age matrix (`qb_old`) and of the same-QP matrix (`qb_same`).
const QB_OLD_N: usize = QB_N * QB_N;

/// Signals per input class and entry (`qb_cb`, `wk_c`, `wk_n`, `qb_eq`).
const QB_CLS_N: usize = 4 * QB_N;

/// The OR trees over a row of `qb_same` (`blk_p`, `hf_p`: pairs of entries; `blk_q`,
/// `hf_q`: groups of four pairs). `hdl_gen` takes literal strides: 8 pairs and 2 groups
/// per row, written out in `update`.
const QB_PAIR_N: usize = QB_N * QB_N / 2;
const QB_QUAD_N: usize = QB_N * QB_N / 8;
const _: () = assert!(QB_N == 16);

/// Groups of four entries in the search for the lowest free entry (`wr_va`, `wr_vg`).
const WR_G: usize = QB_N / 4;

/// `wr_va` of every group but the last (no group lies above it).
const WR_VA: usize = WR_G - 1;
// `wr_vg` (every group below `g` all valid) is written out for four groups in `update`
// (`hdl_gen` takes literal indices).
const _: () = assert!(WR_G == 4);

/// Slots of the last group the search visits: not the last slot, whose writer is beyond
/// the window two edges on (slot `HZ_W + 3`), so its slot is never read.
const HZ_LAST_SRCH: usize = HZ_LAST_BITS - 1;
// The last group's `g_hit` is `nmg[15]` (`HZ_LAST_OR` slots) and slot 123.
const _: () = assert!(HZ_LAST_SRCH == HZ_LAST_OR + 1);

/// Full groups of the youngest-writer search (all but the last).
const HZ_NG_FULL: usize = HZ_NG - 1;

/// Slots of the window's last group of the youngest-writer search.
const HZ_LAST_BITS: usize = HZ_W - (HZ_NG - 1) * HZ_GB;

/// The DCQCN reaction point for `2^QB` QPs (`1 <= QB <= 14`).
#[derive(LogicBlock)]
pub struct DcqcnRp<const QB: usize> {
    /// Clock; everything is synchronous to its rising edge.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset, active high: empties the pipeline and starts the RAM sweep.
    pub reset: Signal<In, Bit>,

    /* Command stream (register block): reset a QP, or set its mode */
    /// A command for `s_ctl_qp`.
    pub s_ctl_valid: Signal<In, Bit>,
    /// The command is accepted this cycle (the round-robin arbiter serves the four
    /// inputs in turn: see `arb_m`).
    pub s_ctl_ready: Signal<Out, Bit>,
    /// QP of the command.
    pub s_ctl_qp: Signal<In, Bits<QB>>,
    /// 0: reset the QP's state; 1: reset it and set its mode to `s_ctl_mode`; 2 (or 3):
    /// query it (the register block's QP window; the report has `m_rate_ctl` set).
    pub s_ctl_op: Signal<In, Bits<CTL_OP_W>>,
    /// The mode (0 DCQCN, 1 rate set by the host, 2 off, 3 HPCC: the core's window unit
    /// sets the rate; the RP keeps the mode and reports the max rate).
    pub s_ctl_mode: Signal<In, Bits<MODE_W>>,
    /// The host's rate for mode 1, Mb/s Q.8.
    pub s_ctl_rate: Signal<In, Bits<RATE_W>>,

    /* CNP received stream */
    /// A CNP was received for `s_cnp_qp`.
    pub s_cnp_valid: Signal<In, Bit>,
    /// The CNP is accepted this cycle.
    pub s_cnp_ready: Signal<Out, Bit>,
    /// QP of the CNP.
    pub s_cnp_qp: Signal<In, Bits<QB>>,

    /* Packet transmitted stream */
    /// `s_tx_qp` transmitted a packet of `s_tx_bytes` bytes.
    pub s_tx_valid: Signal<In, Bit>,
    /// Accepted this cycle.
    pub s_tx_ready: Signal<Out, Bit>,
    /// QP that transmitted.
    pub s_tx_qp: Signal<In, Bits<QB>>,
    /// Packet length, bytes.
    pub s_tx_bytes: Signal<In, Bits<BYTES_W>>,

    /* Rate query stream */
    /// Report the state of `s_query_qp`.
    pub s_query_valid: Signal<In, Bit>,
    /// Accepted this cycle.
    pub s_query_ready: Signal<Out, Bit>,
    /// QP to report.
    pub s_query_qp: Signal<In, Bits<QB>>,

    /* Rate report stream: one report per accepted event, in acceptance order */
    /// A report is offered.
    pub m_rate_valid: Signal<Out, Bit>,
    /// The consumer takes the report; while low, reports wait in the report FIFO (and the
    /// inputs stop once `REP_CREDITS` are owed).
    pub m_rate_ready: Signal<In, Bit>,
    /// QP reported.
    pub m_rate_qp: Signal<Out, Bits<QB>>,
    /// The report answers a query (1) or follows a CNP or a transmitted packet (0).
    pub m_rate_query: Signal<Out, Bit>,
    /// A rate limiter is allocated to the QP.
    pub m_rate_limited: Signal<Out, Bit>,
    /// Current rate Rc, Mb/s Q.8 (the max rate when not limited).
    pub m_rate_rc: Signal<Out, Bits<RATE_W>>,
    /// Target rate Rt, Mb/s Q.8 (the max rate when not limited).
    pub m_rate_rt: Signal<Out, Bits<RATE_W>>,
    /// alpha, Q.20 (0 when not limited).
    pub m_rate_alpha: Signal<Out, Bits<ALPHA_W>>,
    /// The QP's mode after the event (0 DCQCN, 1 rate set by the host, 2 off, 3 HPCC).
    pub m_rate_mode: Signal<Out, Bits<MODE_W>>,
    /// The report follows a command (`s_ctl_*`): the register block takes it.
    pub m_rate_ctl: Signal<Out, Bit>,

    /* Time and parameters */
    /// Now (sampled with each accepted event).
    pub now: Signal<In, TimeWord>,
    /// Parameters in hardware form.
    pub cfg: Signal<In, RpCfgWord>,
    /// Power-table write enable.
    pub tbl_we: Signal<In, Bit>,
    /// Power-table address: bit 7 selects `c^(128 j)` (1) or `c^j` (0), bits 6:0 are `j`.
    pub tbl_addr: Signal<In, Bits<TBL_ADDR_W>>,
    /// Power-table entry, Q.24.
    pub tbl_data: Signal<In, Bits<POW_W>>,
    /// The RAM sweep after reset is running; no event is accepted.
    pub busy: Signal<Out, Bit>,
    /// CNPs applied (any mode), since reset, wrapping.
    pub cnt_cnp_received: Signal<Out, Bits<COUNTER_W>>,
    /// Rate cuts applied, since reset, wrapping.
    pub cnt_rate_cuts: Signal<Out, Bits<COUNTER_W>>,
    /// Increase events applied in fast recovery, since reset, wrapping
    /// ([`inc_count::INC_COUNT_LAG`] cycles behind `cnt_cnp_received`: see `inc_count`).
    pub cnt_increase_fr: Signal<Out, Bits<COUNTER_W>>,
    /// Increase events applied in additive increase, since reset, wrapping
    /// (`INC_COUNT_LAG` cycles behind `cnt_cnp_received`).
    pub cnt_increase_ai: Signal<Out, Bits<COUNTER_W>>,
    /// Increase events applied in hyper increase, since reset, wrapping (`INC_COUNT_LAG`
    /// cycles behind `cnt_cnp_received`).
    pub cnt_increase_hai: Signal<Out, Bits<COUNTER_W>>,

    /// The per-QP state words (read in S1 at HZ's QP, written from W1 or by the sweep). A
    /// read that meets W1's write of its QP is never used (S2 forwards W3's word then):
    /// see [`StateRam`].
    ram: StateRam<QpWord, QB>,
    inc: IncCount,
    tbl_lo: LutRam<POW_W, 7>,
    tbl_hi: LutRam<POW_W, 7>,
    upd: RpUpdate,
    /// Entry `e` of the input queue holds an accepted event that has not gone to S1.
    qb_v: [DFF<Bit>; QB_N],
    /// Entry `e` was written with an accepted event at the last edge (its QP, in `nw_qp`,
    /// is compared with the window in this cycle; `qb_yv` is loaded from the matches at
    /// the next edge).
    qb_nw: [DFF<Bit>; QB_N],
    /// Entry `e` was written with an accepted event two edges ago (`qb_nw` an edge later):
    /// its hazard bits are exact from the next cycle on.
    qb_nw2: [DFF<Bit>; QB_N],
    /// Entry `e` was written three edges ago (`qb_nw2` an edge later).
    qb_nw3: [DFF<Bit>; QB_N],
    /// Entry `e` was written four edges ago (`qb_nw3` an edge later): its youngest
    /// writer's slot `qb_ys` is loaded at the next edge.
    qb_nw4: [DFF<Bit>; QB_N],
    /// The age matrix: index `QB_N f + e` is set when entry `f` was written before entry
    /// `e` (the order of accepted events; meaningful while both are valid; the diagonal is
    /// clear).
    qb_old: [DFF<Bit>; QB_OLD_N],
    /// At the last edge, a valid entry older than entry `e` held an event of `e`'s QP: `e`
    /// may not go before it (events of one QP keep their order). The OR of `e`'s row of
    /// `qb_same` with the valid bits; exact for an entry written at least an edge before
    /// the last.
    qb_blk: [DFF<Bit>; QB_N],
    /// The same-QP matrix: index `QB_N e + f` is set while entry `f` is a valid entry
    /// written before entry `e` that holds `e`'s QP. Row `e` is loaded from `qb_pm`
    /// whenever entry `e` takes the arbiter's choice (`wr_sel`) and then only loses bits:
    /// bit `f` is cleared at the edge after entry `f` is not valid (an entry is written
    /// again an edge after it was freed at the earliest, so the bit is clear before `f`
    /// holds a younger event). The QPs are compared once, when an entry is written, and
    /// `qb_blk` and `qb_hitf` are ORs of registers (no pairwise comparators between the
    /// entries). The diagonal is clear. For the entry written at the last edge, `qb_hitf`
    /// is read from the row before it was loaded, as it was from the entry's old QP before:
    /// no reader uses an entry's `qb_hitf` (nor `qb_hit2` from it) in that first cycle
    /// (`wk` and the candidacy mask it by `qb_nw`/`qb_nw2`; `qb_yv` is reloaded at
    /// `qb_nw2`), and the window compare `nm` covers S1 for it.
    qb_same: [DFF<Bit>; QB_OLD_N],
    /// Entry `f` is valid and holds the QP of the arbiter's choice: the row of `qb_same`
    /// the entry written at the next edge takes.
    qb_pm: [Signal<Local, Bit>; QB_N],
    /// Index `QB_N k + f`: input class `k`'s QP (`s_ctl_qp`, `s_cnp_qp`, `s_tx_qp`,
    /// `s_query_qp`) equals entry `f`'s. The choice's QP is compared per class, before
    /// the arbiter's multiplexer, and the grants select the result (`qb_pm`), so the
    /// comparators' path starts at the input ports rather than after the arbiter.
    qb_eq: [Signal<Local, Bit>; QB_CLS_N],
    /// `qb_blk`'s input as a tree: index `12 e + j` ORs the valid bits of row `e`'s
    /// entries `2 j`, `2 j + 1` (one LUT4), `3 e + i` ORs four of those.
    blk_p: [Signal<Local, Bit>; QB_PAIR_N],
    blk_q: [Signal<Local, Bit>; QB_QUAD_N],
    /// Entry `f` goes as a follower now and writes its QP (`take_fol & qb_wr`).
    tf_w: [Signal<Local, Bit>; QB_N],
    /// `qb_hitf`'s input as a tree, as `blk_p`, `blk_q`: the followers in row `e`.
    hf_p: [Signal<Local, Bit>; QB_PAIR_N],
    hf_q: [Signal<Local, Bit>; QB_QUAD_N],
    /// Valid entries (0..=`QB_N`).
    nq: DFF<Bits<NQ_W>>,
    /// Every entry of the queue is valid (`nq` is `QB_N`): the inputs are not ready. A
    /// register, so no ready depends on the decision; clear at power-up and after reset.
    full_q: DFF<Bit>,
    /// HZ: an entry chosen to go to S1 through the state RAM, valid.
    hz_valid: DFF<Bit>,
    /// The events of the queue, one per entry. The lowest free entry takes the arbiter's
    /// choice every cycle and an accepted event stays where it was written: the queue's
    /// order is the age matrix, HZ is a one-hot pointer, no event moves. (Every free entry
    /// takes the arbiter's event, by `qb_fr`: only the lowest becomes valid, and a free
    /// entry's event is never read.)
    qb_ev: [DFF<RpEvent>; QB_N],
    /// Entry `e` is free (`!qb_v`, registered beside it): the load enable of `qb_ev[e]`'s
    /// 200-odd flip-flops comes straight from a register of its own, not from the choice
    /// of the lowest free entry (`wr_sel`). Stored inverted so that yosys does not merge
    /// it with `qb_v`; it is 0 at power-up until the first edge, while the RP is held in
    /// reset (no event is accepted before its RAM sweep).
    qb_fr: [DFF<Bit>; QB_N],
    /// Entry `e`'s event's kind (`qb_ev`'s, a copy the decision's choices read: `hdl_gen`
    /// reads a field of an array element at a literal index only).
    qb_kind: [DFF<Bits<KIND_W>>; QB_N],
    /// Each entry's QP, written with its event (and never moved): compared with the input
    /// classes' QPs while another entry is written (`qb_eq`, for `qb_same`) and with the QP
    /// of HZ's event (`hz_eq`, for `qb_hit`).
    qb_qp: [DFF<Bits<QB>>; QB_N],
    /// The QP the lowest free entry takes at the last edge (`in_qp`, loaded at every edge),
    /// the QP of the entry written at the last edge, if any.
    nw_qp: DFF<Bits<QB>>,
    /// Copies of `nw_qp`, so that each register drives an eighth of the window's
    /// comparators (see [`NW_SPAN`]). yosys merges flip-flops with the same input bit by
    /// bit, so every copy differs in every bit: copy `c` holds `in_qp ^ nw_inv[c]` (`in_qp`
    /// or its inverse, which the compare undoes); at a reset edge copies `1..NW_CP_HOLD`
    /// are loaded with `nw_rst[c - 1]` (zeros or ones: the flip-flop's synchronous reset) and
    /// the others keep their value (its clock enable), so with `nw_qp` the eight are the
    /// eight combinations of {plain, inverted} and {no reset, reset to 0, reset to 1,
    /// hold in reset}. They differ from `nw_qp` only in the cycle after a reset edge, when
    /// the window is empty (no slot is compared).
    nw_cp: [DFF<Bits<QB>>; NW_CP],
    /// Copy `c`'s inversion mask (zeros or ones).
    nw_inv: [Constant<Bits<QB>>; NW_CP],
    /// The value of copy `c` at a reset edge is `nw_rst[c - 1]` (copies `1..NW_CP_HOLD`).
    nw_rst: [Constant<Bits<QB>>; NW_CP_HOLD - 1],
    /// Slot `p`'s match with `nw_qp` at the last edge: slot `p` (see [`HZ_W`]) held an event
    /// that writes the QP of the entry written the edge before (it is one slot further on
    /// now).
    nm: [DFF<Bit>; HZ_W],
    /// Slot `p`'s match in this cycle (`nm`'s input).
    nm_c: [Signal<Local, Bit>; HZ_W],
    /// Per group of 8 slots (`8 j .. 8 j + 8`; the last group: slots 120 to 122), some
    /// slot matched at the last edge: the OR of its `nm`.
    nmg: [DFF<Bit>; HZ_NG],
    /// Per group `j` of [`HZ_GB`] matches `nm`, registered an edge after them: the group
    /// holds the window's youngest match, i.e. it matched and no lower group did
    /// (`g_first`, one-hot or zero), and the slot its first (youngest) match is in two
    /// edges after this one (`g_val`, the compared slot plus 4). Whether group `j`
    /// matched is `nmg`'s register (`g_hit`; the last group's with slot 123, which `nmg`
    /// leaves to `any_lt`), and whether a lower one did is an OR of those (`g_pre`), so
    /// `g_first` is a few LUT levels from registers and `enc` is an AND-OR of them.
    g_first: [DFF<Bit>; HZ_NG],
    g_val: [DFF<Bits<SLOT_W>>; HZ_NG],
    g_hit: [Signal<Local, Bit>; HZ_NG],
    g_pre: [Signal<Local, Bit>; HZ_NG],
    g_m: [Signal<Local, Bits<SLOT_W>>; HZ_NG],
    /// `nm`: some slot matched (`any_all`), some slot but the last (`any_lt`: the writer is
    /// still in the window an edge after the entry's hazard bit is loaded), some slot but
    /// the last two (`any_lt2`).
    any_all: Signal<Local, Bit>,
    any_lt: Signal<Local, Bit>,
    any_lt2: Signal<Local, Bit>,
    /// The OR of `nmg_or` (slots 0 to 111), which the three add their last pair to.
    any_lo: Signal<Local, Bit>,
    /// The last group's OR with slot 123's match (`nmg_l`, slots 120 to 123) and with
    /// slots 123 and 124's (`nmg_a`, slots 120 to 124), from the same compares as `nmg`:
    /// inputs of `nmg_ol` and `nmg_oa`.
    nmg_l: Signal<Local, Bit>,
    nmg_a: Signal<Local, Bit>,
    /// Slot 124's registered match: read by no one (`nmg_a` takes that slot from its
    /// compare; the register is the last of the `nm` loop, and Verilator does not report
    /// `*unused` signals).
    nm124_unused: Signal<Local, Bit>,
    /// The OR of `nmg` in pairs, registered beside `nmg` from its inputs: pairs 0 to 6
    /// (`nmg_or`, slots 0 to 111: 16 slots each, so a register's input is a slot's compare
    /// and an OR of 16), and the last pair three ways, `nmg[14]` with `nmg[15]`, `nmg_l` or
    /// `nmg_a` (`nmg_o2`, `nmg_ol`, `nmg_oa`). Each of `any_lt2`, `any_lt` and `any_all` is
    /// then an OR of eight registers, two LUTs (an OR of the 16 `nmg` registers was mapped
    /// as a chain of five LUTs into `qb_yv` and `qb_hy`).
    nmg_or: [DFF<Bit>; NMG_PAIRS],
    nmg_o2: DFF<Bit>,
    nmg_ol: DFF<Bit>,
    nmg_oa: DFF<Bit>,
    /// `any_lt`, `any_lt2` registered (for the entry written three edges ago) and
    /// `any_lt2` an edge later (`lt2_d`, for the entry written four edges ago).
    lt_r: DFF<Bit>,
    lt2_r: DFF<Bit>,
    lt2_d: DFF<Bit>,
    /// The first group's `g_val`: the youngest match's slot at the next edge (`enc_r`,
    /// registered) for the entry written four edges ago.
    enc: Signal<Local, Bits<SLOT_W>>,
    enc_r: DFF<Bits<SLOT_W>>,
    /// Entry `e` has a writer of its QP in slots 2 ..= `HZ_W + 1` of the window (the tags;
    /// S1 and S2 are `qb_hit`, `qb_hit2`). Exact from the second edge after the entry was
    /// written.
    qb_yv: [DFF<Bit>; QB_N],
    /// The slot of entry `e`'s youngest writer in the tags (meaningful while `qb_yv`; exact
    /// from the fourth edge after the entry was written).
    qb_ys: [DFF<Bits<SLOT_W>>; QB_N],
    /// S1 holds an event that writes entry `e`'s QP, apart by the way it went to S1: HZ's
    /// event (`qb_hit`) and a follower (`qb_hitf`, registered when the follower went: an
    /// OR of an AND per entry after `take_fol`). Every reader takes their OR. Kept apart,
    /// because in one register synthesis is free to mix the two cones and put the OR over
    /// the followers after `take_hz`.
    qb_hit: [Signal<Local, Bit>; QB_N],
    qb_hitf: [DFF<Bit>; QB_N],
    /// HZ's event writes entry `e`'s QP: compared in every cycle, whatever the decision,
    /// and registered. `qb_hit` is its AND with `s1_hz` after the registers, so that
    /// `take_hz` ends at one flip-flop (`s1_hz`) instead of at an AND with each entry's
    /// match.
    qb_hr: [DFF<Bit>; QB_N],
    /// S2 holds an event that writes entry `e`'s QP: `qb_hit | qb_hitf` an edge later.
    qb_hit2: [DFF<Bit>; QB_N],
    /// Slot 2 holds an event that writes entry `e`'s QP: `qb_hit2` an edge later.
    qb_hit3: [DFF<Bit>; QB_N],
    /// A report credit is left (`credit_next`, registered): an event may go to S1.
    cr: DFF<Bit>,
    /// Entry `e`'s event would wait for a writer of its QP now: `qb_hit[e]`, `qb_hitf[e]`,
    /// `qb_hit2[e]` or `qb_yv[e]` (exact from the second edge after it was written).
    qb_haz: [Signal<Local, Bit>; QB_N],
    /// `qb_hit2[e] | qb_yv[e]`, one register (loaded with the OR of the two registers'
    /// inputs, at the end of `update`): what HZ's choice of its next entry (`cand`) reads
    /// of an entry's hazard, and with `s1_hz & qb_hr | qb_hitf` the whole hazard
    /// (`qb_haz`, one LUT4).
    qb_hy: [DFF<Bit>; QB_N],
    /// Entry `e`'s youngest writer is in the window's last slot (`qb_ys` is `HZ_W + 1`):
    /// it leaves the window at the next edge. Registered from `qb_ys`'s input.
    qb_ye: [DFF<Bit>; QB_N],
    /// HZ's entry, one-hot (all clear while HZ is empty).
    hz_sel: [DFF<Bit>; QB_N],
    /// Entry `e` is neither HZ's nor HN's, registered from their inputs: the only register
    /// of HN's choice (`cand`) that is not the entry's own. `hz_sel` drives the decision
    /// and the queue's reads, so placed among those loads it would start the choice's path
    /// with a long route; this register has only the `cand` LUTs to sit beside. Reset sets
    /// it (no entry is HZ's or HN's); it is 0 at power-up until the first edge, while the
    /// RP is held in reset, as `qb_fr`.
    hz_nsel: [DFF<Bit>; QB_N],
    /// HN, HZ's next entry: chosen one edge ahead (`pick`, the oldest candidate) and
    /// registered one-hot (`hn_sel`, `hn_valid`), so that HZ loads its pointer and its QP
    /// from registers: its QP is the OR of the entries' QPs masked by `hn_sel` (`hn_q`,
    /// `hn_qp`), two LUT levels, where `pick`'s QP was the age matrix's AND-OR and that OR
    /// in series. HN's entry is free of an older entry and of a writer of its QP when it
    /// is chosen, and stays so until it goes (an older entry of its QP cannot arrive, and
    /// a writer of its QP could only come from one), so HZ never waits for its QP.
    hn_valid: DFF<Bit>,
    hn_sel: [DFF<Bit>; QB_N],
    hn_qp: Signal<Local, Bits<QB>>,
    hn_q: [Signal<Local, Bits<QB>>; QB_N],
    /// HN takes `pick` at this edge: HZ takes HN's entry, or HN is empty.
    hn_load: Signal<Local, Bit>,
    /// HZ's QP, loaded with `hz_sel` from HN's (`hn_qp`): the state RAM's read address and
    /// S1's compare start at a flip-flop, not at the queue's read multiplexer (the route
    /// from a pointer through that multiplexer to the spread-out block RAMs does not fit
    /// 10 ns).
    hz_qp: DFF<Bits<QB>>,
    /// `hz_qp` inverted, the copy that only the state RAM's read address reads (through
    /// ten inverters). The RAM's block RAMs are spread over the die; with them on the
    /// same flip-flops as the queue's compares (`hz_eq`, S1), the flip-flops were placed
    /// between the two and the end of the choice of HZ's QP reached them by a long route.
    /// Each copy now sits by its own loads, and the RAM copy's long route is after its
    /// flip-flop, where a whole cycle is left for it. Inverted so that yosys does not merge
    /// the two.
    hz_qpn_rd: DFF<Bits<QB>>,
    /// HZ's event's kind (read from the queue at `hz_sel`: the OR of the entries' kinds
    /// masked by it, `hz_k`, as `tf_kind`).
    hz_kind: Signal<Local, Bits<KIND_W>>,
    hz_k: [Signal<Local, Bits<KIND_W>>; QB_N],
    /// Entry `e` holds HZ's QP (`qb_hr`'s compare).
    hz_eq: [Signal<Local, Bit>; QB_N],
    /// HZ's event goes to S1 at this edge (its word read from the RAM).
    take_hz: Signal<Local, Bit>,
    /// The followers, chosen an edge ahead. Entry `e`'s event can go as a follower at the
    /// next edge when its check will have found that it may, a writer of its QP will be
    /// in the window, a credit will be left, and it is not the follower going now (`fn0`,
    /// `fn1`, below); an older entry's can too (`fo0`, `fo1`). The oldest such entry
    /// (`fol_sel`, one-hot) and
    /// whether there is one (`fol_sel_any`) are registered; at the next edge that entry
    /// goes (`take_fol`) and some entry's event goes as a follower (`fol_any`: its word
    /// from the same-QP block). Exact: an entry that may follow is the oldest of its QP, so
    /// no decision of this edge changes its hazard, and HZ's event that goes now has no
    /// hazard, so it is no candidate (`docs/dcqcn_rp.md`, "The input queue").
    ///
    /// `qb_fok`'s input is the check's `ok` for the entry whose result comes in at this
    /// edge (`qb_res`, one entry at most) and its own distance compare for the others;
    /// `ok` reaches the choice last (a function of the check's registers, routed to every
    /// entry's terms), so the choice is made twice, for `ok` clear (`fn0`, `fo0`) and set (`fn1`, `fo1`), and
    /// `ok` chooses between the two results at the end. Per entry the parts that do not
    /// depend on `ok`: valid and not void (`vx_r`, one register that equals
    /// `qb_v & !qb_void`), its writer stays in the window and it is not the follower going
    /// now (`fl_r`, one LUT4), and the distance compare (`fl_b`, the register `qb_flb`,
    /// which is also `qb_fok`'s input for an entry not in its result edge: one register
    /// for both). The credit (`cr`'s input, a compare of `owed` with a constant) gates
    /// each entry's term before the age OR (`fc0`, `fc1`), where it arrives in time, so
    /// that the last LUT of the choice has five inputs (`ok` and the two pairs), not six.
    /// The age OR reads the ungated terms: without a credit no entry is chosen anyway.
    fl_r: [Signal<Local, Bit>; QB_N],
    fl_b: [Signal<Local, Bit>; QB_N],
    fn0: [Signal<Local, Bit>; QB_N],
    fn1: [Signal<Local, Bit>; QB_N],
    fc0: [Signal<Local, Bit>; QB_N],
    fc1: [Signal<Local, Bit>; QB_N],
    fo0: [Signal<Local, Bit>; QB_N],
    fo1: [Signal<Local, Bit>; QB_N],
    fa0: Signal<Local, Bit>,
    fa1: Signal<Local, Bit>,
    fol_sel: [DFF<Bit>; QB_N],
    fol_sel_any: DFF<Bit>,
    take_fol: [Signal<Local, Bit>; QB_N],
    fol_any: Signal<Local, Bit>,
    /// The follower's event's kind and its QP (read from the queue at `take_fol`; zero
    /// when none goes). `take_fol` is one-hot, so each is the OR of the entries' fields
    /// masked by it (`tf_k`, `tf_q`): an AND-OR of two LUT levels where a chain of
    /// priority multiplexers would be eight deep.
    tf_kind: Signal<Local, Bits<KIND_W>>,
    tf_qp: Signal<Local, Bits<QB>>,
    tf_k: [Signal<Local, Bits<KIND_W>>; QB_N],
    tf_q: [Signal<Local, Bits<QB>>; QB_N],
    /// HZ takes HN's entry at this edge: it is empty or its event goes.
    hz_leave: Signal<Local, Bit>,
    /// Entry `e` may be HN's next: valid, written three or more edges ago (its hazard bits
    /// are exact), neither HZ's nor HN's, not blocked by an older entry and no writer of
    /// its QP in the tags or S2 (`qb_hy`; a writer in S1 came from an older entry, which
    /// blocks it). It is `hz_nsel & cd_b & !qb_hy`, one LUT.
    cand: [Signal<Local, Bit>; QB_N],
    /// The part of `cand` that reads neither `qb_hy` nor `hz_nsel`, registered from the
    /// inputs of the registers it combines (so exact in every cycle): valid, not blocked,
    /// and written neither at the last edge nor at the one before.
    cd_b: [DFF<Bit>; QB_N],
    /// An older entry is a candidate too.
    oc: [Signal<Local, Bit>; QB_N],
    /// The oldest candidate (one-hot): what HN takes; whether there is one.
    pick: [Signal<Local, Bit>; QB_N],
    any_pick: Signal<Local, Bit>,
    /// Entry `e` may be the follower check's next (valid, not checked or in the check, not
    /// known to be blocked); an older one may too; the oldest (one-hot): what the check
    /// loads, its event and QP. `vx` is `vx_r & !qb_ckf`, one LUT: `vx_r` is valid and not
    /// known to be blocked, a register loaded from the inputs of `qb_v`, `qb_blk` and
    /// `qb_nw` (so exact in every cycle). `qb_ckf` is read directly: its input is the
    /// check's own choice, a QP compare and the age matrix deep.
    vx: [Signal<Local, Bit>; QB_N],
    vx_r: [DFF<Bit>; QB_N],
    ox: [Signal<Local, Bit>; QB_N],
    nx: [Signal<Local, Bit>; QB_N],
    /// Entry `e`'s event goes to S1 at this edge.
    lv: [Signal<Local, Bit>; QB_N],
    /// Entry `e` is the lowest free one (written with the arbiter's choice at this edge),
    /// found as a tree rather than a chain through the 16 entries: `wr_va[g]`, entries
    /// `4 g .. 4 g + 4` are all valid; `wr_vg[g]`, every entry below `4 g` is valid (an
    /// AND of at most three `wr_va`); `wr_sel[4 g + i]`, entry `4 g + i` is free, the
    /// entries below its group are valid (`wr_vg[g]`) and so are the `i` below it in its
    /// group. About three LUT levels from the valid bits.
    wr_va: [Signal<Local, Bit>; WR_VA],
    wr_vg: [Signal<Local, Bit>; WR_G],
    wr_sel: [Signal<Local, Bit>; QB_N],
    one_nq: Constant<Bits<NQ_W>>,
    nq_last: Constant<Bits<NQ_W>>,
    nq_all: Constant<Bits<NQ_W>>,
    /// Index `QB_N k + e`: entry `e`'s event came from input class `k` (0 command, 1 CNP,
    /// 2 packet, 3 query), written with it.
    qb_cb: [DFF<Bit>; QB_CLS_N],
    /// Entry `e` is known to wait: valid, and blocked by an older entry of its QP, or
    /// matched by a writer in the window (by bits that are exact for it) and checked unable
    /// to follow it or, before its check is in, found blocked since it was written.
    wk: [Signal<Local, Bit>; QB_N],
    /// Index `QB_N k + e`: entry `e` is known to wait and holds an event of class `k`.
    wk_c: [Signal<Local, Bit>; QB_CLS_N],
    /// Index `QB_N k + e`: `wk_c` as a number (0 or 1), for the count.
    wk_n: [Signal<Local, Bits<CAP_W>>; QB_CLS_N],
    /// Index `CAP_G k + g`: how many of entries `4 g .. 4 g + 4` were known to wait and
    /// held events of class `k` in the last cycle (registered, so that the count's adder
    /// tree is split over two cycles).
    wk_g: [DFF<Bits<CAP_W>>; CAP_G_N],
    /// The entries of class `k` known to wait in the last cycle: the sum of its `wk_g`.
    wk_s: [Signal<Local, Bits<CAP_W>>; 4],
    cap_min: Constant<Bits<CAP_W>>,
    /// Class `k` may not be accepted: `QB_CAP` of its entries were known to wait two edges
    /// ago. So the events that wait for their QP hold at most `QB_CAP + 2` entries per
    /// class (and the class's stream stops behind them), and the other classes keep the
    /// entries they need to go on one per cycle.
    cap: [DFF<Bit>; 4],
    /// Input class `k` is valid and not capped: what the arbiter sees.
    vld: [Signal<Local, Bit>; 4],
    /// The window's slots: slot 0 is S1, slot 1 is S2, slot `2 + i` is the tag beside update
    /// register `i`; whether the slot's event writes back, and its QP.
    slot_wr: [Signal<Local, Bit>; HZ_W],
    slot_qp: [Signal<Local, Bits<QB>>; HZ_W],
    /// S1: an event went from the queue at the last edge (`s1_valid`), its kind and QP
    /// (registers: they feed the window's slot 0 and the forwarding compares).
    s1_valid: DFF<Bit>,
    s1_kind: DFF<Bits<KIND_W>>,
    s1_qp: DFF<Bits<QB>>,
    /// The entry whose event went to S1 at the last edge, binary (`lv` encoded; 0 when
    /// none went). The rest of S1's event (`s1_ev`) is read from that entry in S1's cycle:
    /// the entry is freed at that edge and written again at the next one at the earliest,
    /// so it still holds the event, and the decision's fan-out ends at these registers
    /// instead of at the event's 204 other bits. Binary, not one-hot, so that the read is
    /// a balanced tree of 2:1 multiplexers (`s1_m`, `s1_n`): two logic levels where the
    /// one-hot select's priority chain was five.
    s1_b: [DFF<Bit>; S1_B_W],
    /// The read's tree: `[0..8]` entries in pairs by bit 0; `[8..12]` those in pairs
    /// by bit 1; `[12..14]` entries 0-7 and 8-15 by bit 2 (the two by bit 3 after it).
    s1_m: [Signal<Local, RpEvent>; 14],
    s1_n: [Signal<Local, Bits<SLOT_W>>; 14],
    s2_valid: DFF<Bit>,
    s2_kind: DFF<Bits<KIND_W>>,
    s2_qp: DFF<Bits<QB>>,
    s2_bytes: DFF<Bits<BYTES_W>>,
    s2_mode: DFF<Bits<MODE_W>>,
    s2_rate: DFF<Bits<RATE_W>>,
    s2_now: DFF<TimeWord>,
    s2_ctl: DFF<Bit>,
    s2_word: DFF<QpWord>,
    /// The event's tag beside the update's registers (index 0 beside step A's registers,
    /// index `UPD_STAGES - 1` beside step E): valid.
    tag_valid: [DFF<Bit>; UPD_STAGES],
    /// The tagged event writes its QP back (valid and not a query): what the interlock
    /// compares.
    tag_wr: [DFF<Bit>; UPD_STAGES],
    /// The tagged event's kind.
    tag_kind: [DFF<Bits<KIND_W>>; UPD_STAGES],
    /// The tagged event's QP.
    tag_qp: [DFF<Bits<QB>>; UPD_STAGES],
    /// The tagged event came from the command stream.
    tag_ctl: [DFF<Bit>; UPD_STAGES],
    w1_valid: DFF<Bit>,
    w1_qp: DFF<Bits<QB>>,
    w1_word: DFF<QpWord>,
    w2_valid: DFF<Bit>,
    w2_qp: DFF<Bits<QB>>,
    w2_word: DFF<QpWord>,
    /// The word written the cycle before W2 (W3): the RAM is written from W1, a cycle
    /// after step E, so three words are not yet readable when an event's word is read.
    w3_valid: DFF<Bit>,
    w3_qp: DFF<Bits<QB>>,
    w3_word: DFF<QpWord>,
    /// S2's word comes from W1 (the word written last): registered in S1 from the
    /// word being written then, so the forwarding choice is a register, not a compare.
    fwd_w1: DFF<Bit>,
    /// S2's word comes from W2 (written the cycle before W1), unless from W1.
    fwd_w2: DFF<Bit>,
    /// S2's word comes from W3, unless from W1 or W2.
    fwd_w3: DFF<Bit>,
    /// Report register (after step E): a report is written into the FIFO.
    out_valid: DFF<Bit>,
    /// The report register's QP.
    out_qp: DFF<Bits<QB>>,
    /// The report register's report.
    out_rep: DFF<RateReport>,
    /// Report FIFO, reports.
    fifo_rep: RAM<RateReport, REP_FIFO_AW>,
    /// Report FIFO, QPs.
    fifo_qp: RAM<Bits<QB>, REP_FIFO_AW>,
    /// FIFO write pointer (one bit above the address).
    wr_ptr: DFF<Bits<REP_PTR_W>>,
    /// FIFO read pointer: the oldest report not yet in the output register; the FIFO's read
    /// register holds it when `head` differs from `wr_ptr` one cycle ago (`rd_valid_q`).
    head: DFF<Bits<REP_PTR_W>>,
    /// `head + 1`, a register, so that the FIFO's read address is a choice between two
    /// registers (no carry chain before the RAM).
    head_inc: DFF<Bits<REP_PTR_W>>,
    /// The FIFO's read register holds the report at `head`: `head != wr_ptr` of the cycle
    /// before, computed at the edge before from both of `head`'s candidates (so no pointer
    /// compare runs into the read address).
    rd_valid_q: DFF<Bit>,
    /// Output register: `m_rate_valid`.
    o_valid: DFF<Bit>,
    /// Output register: `m_rate_qp`.
    o_qp: DFF<Bits<QB>>,
    /// Output register: the rest of the report.
    o_rep: DFF<RateReport>,
    /// Events from S1 to the output register (reports owed), counting S1's event from the
    /// edge after it entered S1.
    owed: DFF<Bits<REP_PTR_W>>,
    /// `owed` is below [`REP_CREDITS`]: HZ may send an event into S1 after the edge (folded
    /// into `hz_ok`).
    credit_next: Signal<Local, Bit>,
    one_ptr: Constant<Bits<REP_PTR_W>>,
    credits: Constant<Bits<REP_PTR_W>>,
    sweep: DFF<Bits<QB>>,
    busy_q: DFF<Bit>,
    cnps: DFF<Bits<COUNTER_W>>,
    cuts: DFF<Bits<COUNTER_W>>,
    one_count: Constant<Bits<COUNTER_W>>,
    kind_reset: Constant<Bits<KIND_W>>,
    kind_mode: Constant<Bits<KIND_W>>,
    sweep_last: Constant<Bits<QB>>,
    zero_word: Constant<QpWord>,
    one_qb: Constant<Bits<QB>>,
    kind_cnp: Constant<Bits<KIND_W>>,
    kind_tx: Constant<Bits<KIND_W>>,
    kind_query: Constant<Bits<KIND_W>>,
    /// The output register is empty or taken this cycle: it loads the FIFO's head.
    o_free: Signal<Local, Bit>,
    /// The consumer takes the output register's report this cycle.
    o_pop: Signal<Local, Bit>,
    /// The output register loads the FIFO's head at this edge (`head` moves on).
    rd_adv: Signal<Local, Bit>,
    /// `head` after this edge.
    head_next: Signal<Local, Bits<REP_PTR_W>>,
    /// An event goes to S1 at this edge (HZ's or a follower).
    take: Signal<Local, Bit>,
    /// The arbiter's choice is accepted into the input queue at this edge.
    push: Signal<Local, Bit>,
    /// The input queue has room (`full_q` clear) and the RAM sweep is over: the inputs'
    /// ready.
    room: Signal<Local, Bit>,
    in_valid: Signal<Local, Bit>,
    /// The round-robin arbiter's mask: bit `k` set for the input classes (0 command, 1
    /// CNP, 2 packet, 3 query) after the one it took last, which it serves first; clear
    /// after reset and after it took a query (then the classes in order).
    arb_m: DFF<Bits<4>>,
    /// Input class `k` is valid and set in `arb_m`.
    arb_hi: [Signal<Local, Bit>; 4],
    /// Some input class set in `arb_m` is valid.
    arb_hi_any: Signal<Local, Bit>,
    /// Input class `k` waits for another valid one the arbiter serves first (its ready is
    /// low).
    arb_blk: [Signal<Local, Bit>; 4],
    /// The arbiter takes input class `k` if the queue has room.
    arb_g: [Signal<Local, Bit>; 4],
    in_kind: Signal<Local, Bits<KIND_W>>,
    in_qp: Signal<Local, Bits<QB>>,
    /// The arbiter's choice, less its QP.
    in_ev: Signal<Local, RpEvent>,
    /// S1 holds an event that writes back.
    s1_wr: Signal<Local, Bit>,
    /// S2 holds an event that writes back.
    s2_wr: Signal<Local, Bit>,
    fwd: Signal<Local, QpWord>,
    /// `now.sub < sub` of S2's word and of W1..W3's, each a compare of two registers, and
    /// the one `fwd` chooses (`RpUpdate::late`).
    late_s2: Signal<Local, Bit>,
    late_w1: Signal<Local, Bit>,
    late_w2: Signal<Local, Bit>,
    late_w3: Signal<Local, Bit>,
    fwd_late: Signal<Local, Bit>,
    /// The tag beside step E: valid, writes back, kind, QP, from the command stream.
    e_valid: Signal<Local, Bit>,
    e_wr: Signal<Local, Bit>,
    e_kind: Signal<Local, Bits<KIND_W>>,
    e_qp: Signal<Local, Bits<QB>>,
    e_ctl: Signal<Local, Bit>,
    /// The event leaving the update (step E) writes its word back.
    wb_writes: Signal<Local, Bit>,

    /* The same-QP path: followers (see the module docs) */
    /// The same-QP block: a follower's next state from its QP's previous word.
    near: RpNear,
    /// A free-running cycle count: issue distances are its differences.
    cyc: DFF<Bits<CYC_W>>,
    /// The follower check: the last-writer table (one entry per QP, written from S1 for
    /// every event that writes), read at `ck_qp`, and the check of the loaded stamp
    /// (`ck_sub`, `ck_ie`, `ck_ir`) against it (`FolCheck`), a new entry at every edge.
    fck: FolCheck<QB>,
    lw_in: Signal<Local, LastWrite>,
    /// The check loaded entry `e` at the last edge (`nx` registered, one-hot; none: entry
    /// 0, whose result is not used).
    ck_src: [DFF<Bit>; QB_N],
    /// The QP of the entry the check loaded at the last edge, read from the entry in this
    /// cycle (it was valid then, so it was not written at that edge): the check's choice
    /// ends at `ck_src`. `ck_src` is one-hot or zero, so the QP is the OR of the entries'
    /// QPs masked by it (`ck_q`; zero when none was loaded, whose result is not used).
    ck_qp: Signal<Local, Bits<QB>>,
    ck_q: [Signal<Local, Bits<QB>>; QB_N],
    /// The fields of each entry's stamp the check reads (the cycle within the microsecond,
    /// the increase radix's epoch and remainder), masked by `ck_src` as `ck_q`.
    ck_sm: [StampMask; QB_N],
    /// Their OR over each group of four entries, registered at the edge after the load (an
    /// AND-OR of two LUT levels from `ck_src` and the entries); the OR of the four groups
    /// (`ck_sub`, `ck_ie`, `ck_ir`: one LUT level) is the check's stamp one edge after its
    /// QP, beside the table's output register. The stamp's 59 bits thus leave `ck_src`
    /// through two levels into flip-flops instead of through the entry number and a tree of
    /// four 2:1 choices.
    ck_gs: [DFF<Bits<SUB_W>>; 4],
    ck_ge: [DFF<Bits<EPOCH_W>>; 4],
    ck_gr: [DFF<Bits<REM_W>>; 4],
    ck_sub: Signal<Local, Bits<SUB_W>>,
    ck_ie: Signal<Local, Bits<EPOCH_W>>,
    ck_ir: Signal<Local, Bits<REM_W>>,
    /// Index `QB_N s + e`: the check holds entry `e`'s event `s` edges after it loaded it
    /// (cleared at the edge after the entry's event went, or when the entry is found
    /// blocked).
    ck_t: [DFF<Bit>; CK_T_N],
    /// Entry `e`'s event writes (it is not a query), written with it.
    qb_wr: [DFF<Bit>; QB_N],
    /// Entry `e` is in the check or checked (`qb_ckf`); its result is in (`qb_ck`): the
    /// stamp is less than a microsecond after its QP's last writer's (`qb_st`), that
    /// writer went as a follower (`qb_wf`), the distance behind it if the event went at
    /// the next edge (`qb_d`, saturating at 127), and whether it may go as a follower at
    /// the next edge when a writer of its QP is in the window (`qb_fok`). The last writer
    /// of its QP does not change while it waits unblocked; a check of an entry found
    /// blocked is void.
    qb_ckf: [DFF<Bit>; QB_N],
    qb_ck: [DFF<Bit>; QB_N],
    qb_st: [DFF<Bit>; QB_N],
    qb_wf: [DFF<Bit>; QB_N],
    qb_d: [DFF<Bits<SLOT_W>>; QB_N],
    /// `qb_d >= 7` and `qb_d >= 8`, kept beside it (loaded with it from the check's
    /// distance, or from `qb_d` one less as it counts), so that `qb_flb`, an input of the
    /// next follower's choice, is one LUT of their inputs.
    qb_g7: [DFF<Bit>; QB_N],
    qb_g8: [DFF<Bit>; QB_N],
    /// `fl_b` as a register: `qb_ck & qb_st & (qb_g8 | qb_wf & qb_g7)`, loaded with the
    /// same function of those registers' inputs, so the follower's choice (`fol_sel`)
    /// starts at one flip-flop per entry instead of two LUT levels of five.
    qb_flb: [DFF<Bit>; QB_N],
    /// `qb_d` a cycle ago: in S1's cycle, the distance entry `e` had when its event went
    /// (`qb_d` has counted on since), read through `s1_b` like the rest of S1's event.
    qb_dp: [DFF<Bits<SLOT_W>>; QB_N],
    qb_fok: [DFF<Bit>; QB_N],
    /// Entry `e` was found blocked since it was written: until its check is in, a writer
    /// of its QP in the window makes it known to wait (`wk`; its event most likely waits
    /// for that writer, as the one before it did).
    qb_wb: [DFF<Bit>; QB_N],
    /// Entry `e` is known to be blocked (`qb_blk`, not written at the last edge): its
    /// check is void. A register loaded with `qb_blk`'s and `qb_nw`'s inputs, so it equals
    /// `qb_blk & !qb_nw` a LUT level earlier (it starts the follower's choice, `fl_r`).
    qb_void: [DFF<Bit>; QB_N],
    /// The check's result for entry `e` is registered at this edge.
    qb_res: [Signal<Local, Bit>; QB_N],
    s1_fol: DFF<Bit>,
    /// S1's event went from HZ: `take_hz`, registered.
    s1_hz: DFF<Bit>,
    /// S1's distance behind its QP's last writer (meaningful for a follower), from the
    /// entry it left (`qb_dp`, `s1_b`).
    s1_d: Signal<Local, Bits<SLOT_W>>,
    s1_cyc: DFF<Bits<CYC_W>>,
    s1_ev: Signal<Local, RpEvent>,
    /// `s1_ev`'s stamp (`hdl_gen` writes a field of a field of a local as a call); the
    /// table reads its cycle and increase-radix fields, not the others.
    s1_now: Signal<Local, TimeWord>,
    s1_a_e_unused: Signal<Local, Bits<EPOCH_W>>,
    s1_a_r_unused: Signal<Local, Bits<REM_W>>,
    s1_d_e_unused: Signal<Local, Bits<EPOCH_W>>,
    s1_d_r_unused: Signal<Local, Bits<REM_W>>,
    s2_fol: DFF<Bit>,
    /// The tagged event is a follower.
    tag_fol: [DFF<Bit>; UPD_STAGES],
    /// S1's event, follower flag and distance, delayed to the same-QP block's event input.
    fol_line: crate::delay_line::BramDelayLine<FolCtx, SLOT_W>,
    fol_in: Signal<Local, FolCtx>,
    fol_out: Signal<Local, FolCtx>,
    fol_ev: Signal<Local, RpEvent>,
    /// The words written back (W1) of the last 128 cycles and their `t1`, written every
    /// cycle at `hp - 11`: a follower more than 11 slots behind its writer reads its word here.
    hist: RAM<QpWord, SLOT_W>,
    hist_t1: RAM<Bits<ALPHA_W>, SLOT_W>,
    hp: DFF<Bits<SLOT_W>>,
    hist_q: DFF<QpWord>,
    hist_t1_q: DFF<Bits<ALPHA_W>>,
    /// The follower's distance a cycle after its event reached the block, and the source
    /// of its word chosen from it (registered; `RpNear`'s selects): the block's own result
    /// (8), W1 (9), W2 (10), W3 (11), else the history (`sel_hist`).
    nt_d: DFF<Bits<SLOT_W>>,
    sel_near: DFF<Bit>,
    sel_w1: DFF<Bit>,
    sel_w2: DFF<Bit>,
    sel_w3: DFF<Bit>,
    sel_hist: DFF<Bit>,
    /// `alpha_after(alpha, cnp_alpha, 1)` of W1's, W2's and W3's words.
    w1_t1: DFF<Bits<ALPHA_W>>,
    w2_t1: DFF<Bits<ALPHA_W>>,
    w3_t1: DFF<Bits<ALPHA_W>>,
    /// The event at step E is a follower (its word is the same-QP block's).
    e_fol: Signal<Local, Bit>,
    ext_nfr: crate::zero_ext::ZeroExt<2, EVENTS_W>,
    ext_nai: crate::zero_ext::ZeroExt<2, EVENTS_W>,
    ext_nhai: crate::zero_ext::ZeroExt<2, EVENTS_W>,
    one_cyc: Constant<Bits<CYC_W>>,
    one_slot: Constant<Bits<SLOT_W>>,
    /// The numbers `0..SLOT_C_N` (slots of the window).
    slot_c: [Constant<Bits<SLOT_W>>; SLOT_C_N],
    slot8: Constant<Bits<SLOT_W>>,
    slot9: Constant<Bits<SLOT_W>>,
    slot10: Constant<Bits<SLOT_W>>,
    slot11: Constant<Bits<SLOT_W>>,
    slot7: Constant<Bits<SLOT_W>>,
    slot6: Constant<Bits<SLOT_W>>,
    mode_host: Constant<Bits<MODE_W>>,
}

impl<const QB: usize> DcqcnRp<QB> {
    /// State RAM reads that met a write to their QP in rust-hdl's simulation (see
    /// [`StateRam::collisions`]): the tests use it to show that their stimulus makes some.
    pub fn state_ram_collisions(&self) -> u64 {
        self.ram.collisions()
    }

    /// A reaction point for `2^QB` QPs.
    pub fn new() -> Self {
        assert!(
            (1..=14).contains(&QB),
            "DcqcnRp: QB = {QB}; 2^QB QPs must be 2..=16384"
        );
        Self {
            clock: Default::default(),
            reset: Default::default(),
            s_ctl_valid: Default::default(),
            s_ctl_ready: Default::default(),
            s_ctl_qp: Default::default(),
            s_ctl_op: Default::default(),
            s_ctl_mode: Default::default(),
            s_ctl_rate: Default::default(),
            s_cnp_valid: Default::default(),
            s_cnp_ready: Default::default(),
            s_cnp_qp: Default::default(),
            s_tx_valid: Default::default(),
            s_tx_ready: Default::default(),
            s_tx_qp: Default::default(),
            s_tx_bytes: Default::default(),
            s_query_valid: Default::default(),
            s_query_ready: Default::default(),
            s_query_qp: Default::default(),
            m_rate_valid: Default::default(),
            m_rate_ready: Default::default(),
            m_rate_qp: Default::default(),
            m_rate_query: Default::default(),
            m_rate_limited: Default::default(),
            m_rate_rc: Default::default(),
            m_rate_rt: Default::default(),
            m_rate_alpha: Default::default(),
            m_rate_mode: Default::default(),
            m_rate_ctl: Default::default(),
            now: Default::default(),
            cfg: Default::default(),
            tbl_we: Default::default(),
            tbl_addr: Default::default(),
            tbl_data: Default::default(),
            busy: Default::default(),
            cnt_cnp_received: Default::default(),
            cnt_rate_cuts: Default::default(),
            cnt_increase_fr: Default::default(),
            cnt_increase_ai: Default::default(),
            cnt_increase_hai: Default::default(),
            ram: Default::default(),
            inc: Default::default(),
            tbl_lo: Default::default(),
            tbl_hi: Default::default(),
            upd: Default::default(),
            qb_v: std::array::from_fn(|_| Default::default()),
            qb_nw: std::array::from_fn(|_| Default::default()),
            qb_nw2: std::array::from_fn(|_| Default::default()),
            qb_nw3: std::array::from_fn(|_| Default::default()),
            qb_nw4: std::array::from_fn(|_| Default::default()),
            qb_old: std::array::from_fn(|_| Default::default()),
            qb_blk: std::array::from_fn(|_| Default::default()),
            qb_same: std::array::from_fn(|_| Default::default()),
            qb_pm: std::array::from_fn(|_| Default::default()),
            qb_eq: std::array::from_fn(|_| Default::default()),
            blk_p: std::array::from_fn(|_| Default::default()),
            blk_q: std::array::from_fn(|_| Default::default()),
            tf_w: std::array::from_fn(|_| Default::default()),
            hf_p: std::array::from_fn(|_| Default::default()),
            hf_q: std::array::from_fn(|_| Default::default()),
            nq: Default::default(),
            full_q: Default::default(),
            hz_valid: Default::default(),
            qb_ev: std::array::from_fn(|_| Default::default()),
            qb_fr: std::array::from_fn(|_| Default::default()),
            qb_kind: Default::default(),
            qb_qp: std::array::from_fn(|_| Default::default()),
            nw_qp: Default::default(),
            nw_cp: Default::default(),
            // (inverted, at reset): (1, -), (0, 0), (1, 0), (0, 1), (1, 1), (0, hold),
            // (1, hold); `nw_qp` is (0, -).
            nw_inv: std::array::from_fn(|c| {
                Constant::new(if c % 2 == 0 {
                    Bits::<QB>::mask()
                } else {
                    0.into()
                })
            }),
            nw_rst: std::array::from_fn(|k| {
                Constant::new(if k >= 2 { Bits::<QB>::mask() } else { 0.into() })
            }),
            nm: std::array::from_fn(|_| Default::default()),
            nm_c: std::array::from_fn(|_| Default::default()),
            nmg: Default::default(),
            g_first: std::array::from_fn(|_| Default::default()),
            g_val: std::array::from_fn(|_| Default::default()),
            g_hit: std::array::from_fn(|_| Default::default()),
            g_pre: std::array::from_fn(|_| Default::default()),
            g_m: std::array::from_fn(|_| Default::default()),
            any_all: Default::default(),
            any_lt: Default::default(),
            any_lt2: Default::default(),
            any_lo: Default::default(),
            nmg_l: Default::default(),
            nmg_a: Default::default(),
            nm124_unused: Default::default(),
            nmg_or: Default::default(),
            nmg_o2: Default::default(),
            nmg_ol: Default::default(),
            nmg_oa: Default::default(),
            lt_r: Default::default(),
            lt2_r: Default::default(),
            lt2_d: Default::default(),
            enc: Default::default(),
            enc_r: Default::default(),
            qb_yv: std::array::from_fn(|_| Default::default()),
            qb_ys: std::array::from_fn(|_| Default::default()),
            qb_hit: std::array::from_fn(|_| Default::default()),
            qb_hr: std::array::from_fn(|_| Default::default()),
            qb_hitf: std::array::from_fn(|_| Default::default()),
            qb_hit2: std::array::from_fn(|_| Default::default()),
            qb_hit3: std::array::from_fn(|_| Default::default()),
            cr: Default::default(),
            qb_haz: std::array::from_fn(|_| Default::default()),
            qb_hy: Default::default(),
            cd_b: Default::default(),
            qb_ye: Default::default(),
            hz_sel: std::array::from_fn(|_| Default::default()),
            hz_nsel: std::array::from_fn(|_| Default::default()),
            hn_valid: Default::default(),
            hn_sel: std::array::from_fn(|_| Default::default()),
            hn_qp: Default::default(),
            hn_q: Default::default(),
            hn_load: Default::default(),
            hz_qp: Default::default(),
            hz_qpn_rd: Default::default(),
            hz_kind: Default::default(),
            hz_k: Default::default(),
            hz_eq: Default::default(),
            take_hz: Default::default(),
            fl_r: Default::default(),
            fl_b: Default::default(),
            fn0: Default::default(),
            fn1: Default::default(),
            fc0: Default::default(),
            fc1: Default::default(),
            fo0: Default::default(),
            fo1: Default::default(),
            fa0: Default::default(),
            fa1: Default::default(),
            fol_sel: Default::default(),
            fol_sel_any: Default::default(),
            take_fol: Default::default(),
            fol_any: Default::default(),
            tf_kind: Default::default(),
            tf_qp: Default::default(),
            tf_k: Default::default(),
            tf_q: Default::default(),
            hz_leave: Default::default(),
            cand: std::array::from_fn(|_| Default::default()),
            oc: std::array::from_fn(|_| Default::default()),
            pick: std::array::from_fn(|_| Default::default()),
            any_pick: Default::default(),
            vx: std::array::from_fn(|_| Default::default()),
            vx_r: std::array::from_fn(|_| Default::default()),
            ox: std::array::from_fn(|_| Default::default()),
            nx: std::array::from_fn(|_| Default::default()),
            lv: std::array::from_fn(|_| Default::default()),
            wr_va: std::array::from_fn(|_| Default::default()),
            wr_vg: std::array::from_fn(|_| Default::default()),
            wr_sel: std::array::from_fn(|_| Default::default()),
            qb_cb: std::array::from_fn(|_| Default::default()),
            wk: std::array::from_fn(|_| Default::default()),
            wk_c: std::array::from_fn(|_| Default::default()),
            wk_n: std::array::from_fn(|_| Default::default()),
            wk_g: std::array::from_fn(|_| Default::default()),
            wk_s: Default::default(),
            cap_min: Constant::new((QB_CAP as u64).into()),
            cap: std::array::from_fn(|_| Default::default()),
            vld: std::array::from_fn(|_| Default::default()),
            one_nq: Constant::new(1u64.into()),
            nq_last: Constant::new(((QB_N - 1) as u64).into()),
            nq_all: Constant::new((QB_N as u64).into()),
            slot_wr: std::array::from_fn(|_| Default::default()),
            slot_qp: std::array::from_fn(|_| Default::default()),
            s1_valid: Default::default(),
            s1_kind: Default::default(),
            s1_qp: Default::default(),
            s1_b: Default::default(),
            s1_m: std::array::from_fn(|_| Default::default()),
            s1_n: std::array::from_fn(|_| Default::default()),
            s2_valid: Default::default(),
            s2_kind: Default::default(),
            s2_qp: Default::default(),
            s2_bytes: Default::default(),
            s2_mode: Default::default(),
            s2_rate: Default::default(),
            s2_now: Default::default(),
            s2_ctl: Default::default(),
            s2_word: Default::default(),
            tag_valid: std::array::from_fn(|_| Default::default()),
            tag_wr: std::array::from_fn(|_| Default::default()),
            tag_kind: std::array::from_fn(|_| Default::default()),
            tag_qp: std::array::from_fn(|_| Default::default()),
            tag_ctl: std::array::from_fn(|_| Default::default()),
            w1_valid: Default::default(),
            w1_qp: Default::default(),
            w1_word: Default::default(),
            w2_valid: Default::default(),
            w2_qp: Default::default(),
            w2_word: Default::default(),
            w3_valid: Default::default(),
            w3_qp: Default::default(),
            w3_word: Default::default(),
            fwd_w3: Default::default(),
            fwd_w1: Default::default(),
            fwd_w2: Default::default(),
            out_valid: Default::default(),
            out_qp: Default::default(),
            out_rep: Default::default(),
            fifo_rep: Default::default(),
            fifo_qp: Default::default(),
            wr_ptr: Default::default(),
            head_inc: Default::default(),
            rd_valid_q: Default::default(),
            head: Default::default(),
            o_valid: Default::default(),
            o_qp: Default::default(),
            o_rep: Default::default(),
            owed: Default::default(),
            credit_next: Default::default(),
            one_ptr: Constant::new(1.into()),
            credits: Constant::new((REP_CREDITS as u64).into()),
            sweep: Default::default(),
            busy_q: Default::default(),
            cnps: Default::default(),
            cuts: Default::default(),
            one_count: Constant::new(1.into()),
            kind_reset: Constant::new(3.into()),
            kind_mode: Constant::new(4.into()),
            sweep_last: Constant::new(Bits::<QB>::mask()),
            zero_word: Constant::new(QpWord::default()),
            one_qb: Constant::new(1.into()),
            kind_cnp: Constant::new(0.into()),
            kind_tx: Constant::new(1.into()),
            kind_query: Constant::new(2.into()),
            o_free: Default::default(),
            o_pop: Default::default(),
            rd_adv: Default::default(),
            head_next: Default::default(),
            take: Default::default(),
            push: Default::default(),
            room: Default::default(),
            in_valid: Default::default(),
            arb_m: Default::default(),
            arb_hi: std::array::from_fn(|_| Default::default()),
            arb_hi_any: Default::default(),
            arb_blk: std::array::from_fn(|_| Default::default()),
            arb_g: std::array::from_fn(|_| Default::default()),
            in_kind: Default::default(),
            in_qp: Default::default(),
            in_ev: Default::default(),
            s1_wr: Default::default(),
            s2_wr: Default::default(),
            fwd: Default::default(),
            late_s2: Default::default(),
            late_w1: Default::default(),
            late_w2: Default::default(),
            late_w3: Default::default(),
            fwd_late: Default::default(),
            wb_writes: Default::default(),
            near: Default::default(),
            cyc: Default::default(),
            fck: Default::default(),
            lw_in: Default::default(),
            ck_qp: Default::default(),
            ck_q: Default::default(),
            ck_sm: Default::default(),
            ck_gs: Default::default(),
            ck_ge: Default::default(),
            ck_gr: Default::default(),
            ck_sub: Default::default(),
            ck_ie: Default::default(),
            ck_ir: Default::default(),
            ck_src: Default::default(),
            ck_t: std::array::from_fn(|_| Default::default()),
            qb_wr: Default::default(),
            qb_ckf: Default::default(),
            qb_ck: Default::default(),
            qb_st: Default::default(),
            qb_wf: Default::default(),
            qb_d: Default::default(),
            qb_g7: Default::default(),
            qb_g8: Default::default(),
            qb_flb: Default::default(),
            qb_dp: Default::default(),
            qb_fok: Default::default(),
            qb_wb: Default::default(),
            qb_void: std::array::from_fn(|_| Default::default()),
            qb_res: Default::default(),
            s1_fol: Default::default(),
            s1_hz: Default::default(),
            s1_d: Default::default(),
            s1_cyc: Default::default(),
            s1_ev: Default::default(),
            s1_now: Default::default(),
            s1_a_e_unused: Default::default(),
            s1_a_r_unused: Default::default(),
            s1_d_e_unused: Default::default(),
            s1_d_r_unused: Default::default(),
            s2_fol: Default::default(),
            tag_fol: std::array::from_fn(|_| Default::default()),
            fol_line: crate::delay_line::BramDelayLine::new(FOL_LINE),
            fol_in: Default::default(),
            fol_out: Default::default(),
            fol_ev: Default::default(),
            hist: Default::default(),
            hist_t1: Default::default(),
            hp: Default::default(),
            hist_q: Default::default(),
            hist_t1_q: Default::default(),
            nt_d: Default::default(),
            sel_near: Default::default(),
            sel_w1: Default::default(),
            sel_w2: Default::default(),
            sel_w3: Default::default(),
            sel_hist: Default::default(),
            w1_t1: Default::default(),
            w2_t1: Default::default(),
            w3_t1: Default::default(),
            e_fol: Default::default(),
            ext_nfr: Default::default(),
            ext_nai: Default::default(),
            ext_nhai: Default::default(),
            one_cyc: Constant::new(1.into()),
            one_slot: Constant::new(1.into()),
            slot_c: std::array::from_fn(|i| Constant::new((i as u64).into())),
            slot8: Constant::new(8.into()),
            slot9: Constant::new(9.into()),
            slot10: Constant::new(10.into()),
            slot11: Constant::new(11.into()),
            slot7: Constant::new(7.into()),
            slot6: Constant::new(6.into()),
            mode_host: Constant::new(1.into()),
            e_valid: Default::default(),
            e_wr: Default::default(),
            e_kind: Default::default(),
            e_qp: Default::default(),
            e_ctl: Default::default(),
        }
    }
}

impl<const QB: usize> Default for DcqcnRp<QB> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const QB: usize> Logic for DcqcnRp<QB> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, nw_qp, nq, full_q, hz_valid, hn_valid, cr, s1_valid, s1_kind, s1_qp,
            s2_valid, s2_kind, s2_qp, s2_bytes, s2_mode, s2_rate, s2_now, s2_ctl, s2_word,
            w1_valid, w1_qp, w1_word, w2_valid, w2_qp, w2_word, out_valid, out_qp, out_rep, wr_ptr,
            head, head_inc, rd_valid_q, o_valid, o_qp, o_rep, owed, sweep, busy_q, cnps, cuts,
            fwd_w1, fwd_w2, fwd_w3, w3_valid, w3_qp, w3_word, hz_qp, hz_qpn_rd, arb_m, cyc, s1_fol,
            s1_hz, s1_cyc, s2_fol, hp, hist_q, hist_t1_q, nt_d, sel_near, sel_w1, sel_w2, sel_w3,
            sel_hist, w1_t1, w2_t1, w3_t1, lt_r, lt2_r, lt2_d, enc_r, nmg_o2, nmg_ol, nmg_oa
        );
        for k in 0..HZ_W {
            self.nm[k].clock.next = self.clock.val();
        }
        for c in 0..NW_CP {
            self.nw_cp[c].clock.next = self.clock.val();
        }
        for k in 0..NMG_PAIRS {
            self.nmg_or[k].clock.next = self.clock.val();
        }
        for k in 0..HZ_NG {
            self.nmg[k].clock.next = self.clock.val();
            self.g_first[k].clock.next = self.clock.val();
            self.g_val[k].clock.next = self.clock.val();
        }
        for k in 0..4 {
            self.cap[k].clock.next = self.clock.val();
        }
        for k in 0..CAP_G_N {
            self.wk_g[k].clock.next = self.clock.val();
        }
        for k in 0..QB_CLS_N {
            self.qb_cb[k].clock.next = self.clock.val();
            self.qb_cb[k].d.next = self.qb_cb[k].q.val();
        }
        for k in 0..QB_OLD_N {
            self.qb_old[k].clock.next = self.clock.val();
            self.qb_old[k].d.next = self.qb_old[k].q.val();
            self.qb_same[k].clock.next = self.clock.val();
        }
        for i in 0..QB_N {
            self.qb_ev[i].clock.next = self.clock.val();
            self.qb_ev[i].d.next = self.qb_ev[i].q.val();
            self.qb_kind[i].clock.next = self.clock.val();
            self.qb_kind[i].d.next = self.qb_kind[i].q.val();
            self.qb_v[i].clock.next = self.clock.val();
            self.qb_v[i].d.next = self.qb_v[i].q.val();
            self.qb_nw[i].clock.next = self.clock.val();
            self.qb_wr[i].clock.next = self.clock.val();
            self.qb_wr[i].d.next = self.qb_wr[i].q.val();
            self.qb_ckf[i].clock.next = self.clock.val();
            self.qb_ckf[i].d.next = self.qb_ckf[i].q.val();
            self.qb_ck[i].clock.next = self.clock.val();
            self.qb_ck[i].d.next = self.qb_ck[i].q.val();
            self.qb_st[i].clock.next = self.clock.val();
            self.qb_st[i].d.next = self.qb_st[i].q.val();
            self.qb_wf[i].clock.next = self.clock.val();
            self.qb_wf[i].d.next = self.qb_wf[i].q.val();
            self.qb_d[i].clock.next = self.clock.val();
            self.qb_d[i].d.next = self.qb_d[i].q.val();
            self.qb_g7[i].clock.next = self.clock.val();
            self.qb_g7[i].d.next = self.qb_g7[i].q.val();
            self.qb_g8[i].clock.next = self.clock.val();
            self.qb_g8[i].d.next = self.qb_g8[i].q.val();
            self.qb_flb[i].clock.next = self.clock.val();
            self.qb_dp[i].clock.next = self.clock.val();
            self.qb_dp[i].d.next = self.qb_d[i].q.val();
            self.qb_fok[i].clock.next = self.clock.val();
            self.qb_fok[i].d.next = self.qb_fok[i].q.val();
            self.qb_wb[i].clock.next = self.clock.val();
            self.qb_wb[i].d.next = self.qb_wb[i].q.val();
            self.qb_nw2[i].clock.next = self.clock.val();
            self.qb_blk[i].clock.next = self.clock.val();
            self.hz_sel[i].clock.next = self.clock.val();
            self.hz_sel[i].d.next = self.hz_sel[i].q.val();
            self.hz_nsel[i].clock.next = self.clock.val();
            self.hn_sel[i].clock.next = self.clock.val();
            self.hn_sel[i].d.next = self.hn_sel[i].q.val();
            self.qb_qp[i].clock.next = self.clock.val();
            self.qb_qp[i].d.next = self.qb_qp[i].q.val();
            self.qb_hr[i].clock.next = self.clock.val();
            self.qb_hit[i].next = self.s1_hz.q.val() & self.qb_hr[i].q.val();
            self.qb_hitf[i].clock.next = self.clock.val();
            self.qb_hitf[i].d.next = self.qb_hitf[i].q.val();
            self.qb_hit2[i].clock.next = self.clock.val();
            self.qb_hit2[i].d.next = self.qb_hit[i].val() | self.qb_hitf[i].q.val();
            self.qb_hit3[i].clock.next = self.clock.val();
            self.qb_hit3[i].d.next = self.qb_hit2[i].q.val();
            self.qb_nw3[i].clock.next = self.clock.val();
            self.qb_nw3[i].d.next = self.qb_nw2[i].q.val();
            self.qb_nw4[i].clock.next = self.clock.val();
            self.qb_nw4[i].d.next = self.qb_nw3[i].q.val();
            self.qb_yv[i].clock.next = self.clock.val();
            self.qb_hy[i].clock.next = self.clock.val();
            self.vx_r[i].clock.next = self.clock.val();
            self.cd_b[i].clock.next = self.clock.val();
            self.qb_ye[i].clock.next = self.clock.val();
            self.fol_sel[i].clock.next = self.clock.val();
            self.qb_ys[i].clock.next = self.clock.val();
            self.ck_src[i].clock.next = self.clock.val();
        }
        for i in 0..QB_N {
            self.qb_fr[i].clock.next = self.clock.val();
        }
        for i in 0..S1_B_W {
            self.s1_b[i].clock.next = self.clock.val();
        }
        for i in 0..UPD_STAGES {
            self.tag_valid[i].clock.next = self.clock.val();
            self.tag_valid[i].d.next = self.tag_valid[i].q.val();
            self.tag_wr[i].clock.next = self.clock.val();
            self.tag_wr[i].d.next = self.tag_wr[i].q.val();
            self.tag_kind[i].clock.next = self.clock.val();
            self.tag_kind[i].d.next = self.tag_kind[i].q.val();
            self.tag_qp[i].clock.next = self.clock.val();
            self.tag_qp[i].d.next = self.tag_qp[i].q.val();
            self.tag_ctl[i].clock.next = self.clock.val();
            self.tag_ctl[i].d.next = self.tag_ctl[i].q.val();
            self.tag_fol[i].clock.next = self.clock.val();
            self.tag_fol[i].d.next = self.tag_fol[i].q.val();
        }
        for i in 0..CK_T_N {
            self.ck_t[i].clock.next = self.clock.val();
            self.ck_t[i].d.next = false;
        }
        self.fck.clock.next = self.clock.val();
        self.hist.read_clock.next = self.clock.val();
        self.hist.write_clock.next = self.clock.val();
        self.hist_t1.read_clock.next = self.clock.val();
        self.hist_t1.write_clock.next = self.clock.val();
        self.fol_line.clock.next = self.clock.val();
        self.near.clock.next = self.clock.val();
        self.ram.clock.next = self.clock.val();
        self.fifo_rep.read_clock.next = self.clock.val();
        self.fifo_rep.write_clock.next = self.clock.val();
        self.fifo_qp.read_clock.next = self.clock.val();
        self.fifo_qp.write_clock.next = self.clock.val();
        self.tbl_lo.clock.next = self.clock.val();
        self.tbl_hi.clock.next = self.clock.val();
        self.inc.clock.next = self.clock.val();

        // ---- power table load ----
        self.tbl_lo.we.next = self.tbl_we.val() & !self.tbl_addr.val().get_bit(7);
        self.tbl_hi.we.next = self.tbl_we.val() & self.tbl_addr.val().get_bit(7);
        self.tbl_lo.waddr.next = self.tbl_addr.val().get_bits::<7>(0);
        self.tbl_hi.waddr.next = self.tbl_addr.val().get_bits::<7>(0);
        self.tbl_lo.wdata.next = self.tbl_data.val();
        self.tbl_hi.wdata.next = self.tbl_data.val();

        // ---- input arbitration: round robin over command, CNP, packet, query ----
        // The classes after the one taken last (set in `arb_m`) go first, in that order,
        // then the others in order: a class that is valid is taken within four accepted
        // events, whatever the others offer.
        self.vld[0].next = self.s_ctl_valid.val() & !self.cap[0].q.val();
        self.vld[1].next = self.s_cnp_valid.val() & !self.cap[1].q.val();
        self.vld[2].next = self.s_tx_valid.val() & !self.cap[2].q.val();
        self.vld[3].next = self.s_query_valid.val() & !self.cap[3].q.val();
        self.in_valid.next =
            self.vld[0].val() | self.vld[1].val() | self.vld[2].val() | self.vld[3].val();
        self.arb_hi[0].next = self.vld[0].val() & self.arb_m.q.val().get_bit(0);
        self.arb_hi[1].next = self.vld[1].val() & self.arb_m.q.val().get_bit(1);
        self.arb_hi[2].next = self.vld[2].val() & self.arb_m.q.val().get_bit(2);
        self.arb_hi[3].next = self.vld[3].val() & self.arb_m.q.val().get_bit(3);
        self.arb_hi_any.next = self.arb_hi[0].val()
            | self.arb_hi[1].val()
            | self.arb_hi[2].val()
            | self.arb_hi[3].val();
        self.arb_blk[0].next = self.arb_hi_any.val();
        if self.arb_m.q.val().get_bit(0) {
            self.arb_blk[0].next = false;
        }
        self.arb_blk[1].next = self.arb_hi_any.val() | self.vld[0].val();
        if self.arb_m.q.val().get_bit(1) {
            self.arb_blk[1].next = self.arb_hi[0].val();
        }
        self.arb_blk[2].next = self.arb_hi_any.val() | self.vld[0].val() | self.vld[1].val();
        if self.arb_m.q.val().get_bit(2) {
            self.arb_blk[2].next = self.arb_hi[0].val() | self.arb_hi[1].val();
        }
        self.arb_blk[3].next =
            self.arb_hi_any.val() | self.vld[0].val() | self.vld[1].val() | self.vld[2].val();
        if self.arb_m.q.val().get_bit(3) {
            self.arb_blk[3].next =
                self.arb_hi[0].val() | self.arb_hi[1].val() | self.arb_hi[2].val();
        }
        self.arb_g[0].next = self.vld[0].val() & !self.arb_blk[0].val();
        self.arb_g[1].next = self.vld[1].val() & !self.arb_blk[1].val();
        self.arb_g[2].next = self.vld[2].val() & !self.arb_blk[2].val();
        self.arb_g[3].next = self.vld[3].val() & !self.arb_blk[3].val();
        self.in_kind.next = self.kind_query.val();
        self.in_qp.next = self.s_query_qp.val();
        if self.arb_g[0].val() {
            self.in_kind.next = self.kind_reset.val();
            if self.s_ctl_op.val().get_bit(0) {
                self.in_kind.next = self.kind_mode.val();
            }
            if self.s_ctl_op.val().get_bit(1) {
                self.in_kind.next = self.kind_query.val();
            }
            self.in_qp.next = self.s_ctl_qp.val();
        } else if self.arb_g[1].val() {
            self.in_kind.next = self.kind_cnp.val();
            self.in_qp.next = self.s_cnp_qp.val();
        } else if self.arb_g[2].val() {
            self.in_kind.next = self.kind_tx.val();
            self.in_qp.next = self.s_tx_qp.val();
        }

        self.in_ev.next.kind = self.in_kind.val();
        self.in_ev.next.bytes = self.s_tx_bytes.val();
        self.in_ev.next.mode = self.s_ctl_mode.val();
        self.in_ev.next.rate = self.s_ctl_rate.val();
        self.in_ev.next.now = self.now.val();
        self.in_ev.next.ctl = self.arb_g[0].val();
        // Ready: the queue has room (a register) and no class served first is valid.
        self.room.next = !self.full_q.q.val() & !self.busy_q.q.val();
        self.s_ctl_ready.next = self.room.val() & !self.arb_blk[0].val() & !self.cap[0].q.val();
        self.s_cnp_ready.next = self.room.val() & !self.arb_blk[1].val() & !self.cap[1].q.val();
        self.s_tx_ready.next = self.room.val() & !self.arb_blk[2].val() & !self.cap[2].q.val();
        self.s_query_ready.next = self.room.val() & !self.arb_blk[3].val() & !self.cap[3].q.val();
        // The next class after the one taken goes first from the next cycle on.
        if self.push.val() {
            if self.arb_g[0].val() {
                self.arb_m.d.next = 14.into();
            }
            if self.arb_g[1].val() {
                self.arb_m.d.next = 12.into();
            }
            if self.arb_g[2].val() {
                self.arb_m.d.next = 8.into();
            }
            if self.arb_g[3].val() {
                self.arb_m.d.next = 0.into();
            }
        }
        self.push.next = self.room.val() & self.in_valid.val();

        // ---- hazard check: an event waits while an event that writes its QP is in S1, S2
        // or the update's first UPD_STAGES - 2 registers (its word would reach the RAM or
        // the forwarding registers too late to be read). Every entry of the queue is
        // compared with the window's slots in every cycle and the results registered one
        // slot further on (the pipeline from S1 on moves every cycle); S1's match is
        // registered when an event goes ----
        self.s1_wr.next = self.s1_valid.q.val() & (self.s1_kind.q.val() != self.kind_query.val());
        self.s2_wr.next = self.s2_valid.q.val() & (self.s2_kind.q.val() != self.kind_query.val());
        // HZ's event from the queue (a one-hot pointer: the read is a choice between
        // registers).
        for e in 0..QB_N {
            self.hz_k[e].next = 0.into();
            if self.hz_sel[e].q.val() {
                self.hz_k[e].next = self.qb_kind[e].q.val();
            }
        }
        self.hz_kind.next = self.hz_k[0].val()
            | self.hz_k[1].val()
            | self.hz_k[2].val()
            | self.hz_k[3].val()
            | self.hz_k[4].val()
            | self.hz_k[5].val()
            | self.hz_k[6].val()
            | self.hz_k[7].val()
            | self.hz_k[8].val()
            | self.hz_k[9].val()
            | self.hz_k[10].val()
            | self.hz_k[11].val()
            | self.hz_k[12].val()
            | self.hz_k[13].val()
            | self.hz_k[14].val()
            | self.hz_k[15].val();
        // Each entry's hazard, from registered bits only: its S1 and S2 matches and whether
        // a writer of its QP is in the tags (exact from the second edge after the entry was
        // written).
        for e in 0..QB_N {
            self.qb_haz[e].next =
                self.qb_hit[e].val() | self.qb_hitf[e].q.val() | self.qb_hy[e].q.val();
        }
        // The decision. The oldest entry whose event may go as a follower goes: its check
        // found that its QP's last writer (the youngest in the window) will be at least 8
        // slots ahead (9 if that one is not a follower itself) and that its time stamp is
        // less than a microsecond before the entry's, and a writer of its QP is in the
        // window; the same-QP block computes its word from that writer's. Else HZ's event
        // goes (neither a writer nor an older entry of its QP holds it: see `hn_sel`).
        // (The follower was chosen at the edge before: `fol_sel`, at the end of `update`.)
        self.fol_sel_any.clock.next = self.clock.val();
        for e in 0..QB_N {
            self.take_fol[e].next = self.fol_sel[e].q.val();
            self.tf_w[e].next = self.fol_sel[e].q.val() & self.qb_wr[e].q.val();
        }
        self.fol_any.next = self.fol_sel_any.q.val();
        for e in 0..QB_N {
            self.tf_k[e].next = 0.into();
            self.tf_q[e].next = 0.into();
            if self.take_fol[e].val() {
                self.tf_k[e].next = self.qb_kind[e].q.val();
                self.tf_q[e].next = self.qb_qp[e].q.val();
            }
        }
        self.tf_kind.next = self.tf_k[0].val()
            | self.tf_k[1].val()
            | self.tf_k[2].val()
            | self.tf_k[3].val()
            | self.tf_k[4].val()
            | self.tf_k[5].val()
            | self.tf_k[6].val()
            | self.tf_k[7].val()
            | self.tf_k[8].val()
            | self.tf_k[9].val()
            | self.tf_k[10].val()
            | self.tf_k[11].val()
            | self.tf_k[12].val()
            | self.tf_k[13].val()
            | self.tf_k[14].val()
            | self.tf_k[15].val();
        self.tf_qp.next = self.tf_q[0].val()
            | self.tf_q[1].val()
            | self.tf_q[2].val()
            | self.tf_q[3].val()
            | self.tf_q[4].val()
            | self.tf_q[5].val()
            | self.tf_q[6].val()
            | self.tf_q[7].val()
            | self.tf_q[8].val()
            | self.tf_q[9].val()
            | self.tf_q[10].val()
            | self.tf_q[11].val()
            | self.tf_q[12].val()
            | self.tf_q[13].val()
            | self.tf_q[14].val()
            | self.tf_q[15].val();
        self.take_hz.next = self.hz_valid.q.val() & self.cr.q.val() & !self.fol_any.val();
        self.take.next = self.take_hz.val() | self.fol_any.val();
        self.hz_leave.next = !self.hz_valid.q.val() | self.take_hz.val();
        self.hn_load.next = self.hz_leave.val() | !self.hn_valid.q.val();
        // HN's next entry, from registers only: the oldest valid entry, neither HZ's nor
        // HN's, written three or more edges ago, that neither an older entry nor a writer
        // of its QP holds.
        // The check's next entry: the oldest valid entry not checked and not in the check
        // that is not known to be blocked.
        // (An entry that S1's event writes the QP of is blocked: that event's entry was
        // older. So of its hazard bits only `qb_hy` is read.)
        for e in 0..QB_N {
            self.cand[e].next =
                self.hz_nsel[e].q.val() & self.cd_b[e].q.val() & !self.qb_hy[e].q.val();
            self.qb_void[e].clock.next = self.clock.val();
            self.vx[e].next = self.vx_r[e].q.val() & !self.qb_ckf[e].q.val();
        }
        for e in 0..QB_N {
            self.oc[e].next = false;
            self.ox[e].next = false;
            for f in 0..QB_N {
                if self.cand[f].val() & self.qb_old[f * 16 + e].q.val() {
                    self.oc[e].next = true;
                }
                if self.vx[f].val() & self.qb_old[f * 16 + e].q.val() {
                    self.ox[e].next = true;
                }
            }
            self.pick[e].next = self.cand[e].val() & !self.oc[e].val();
            self.nx[e].next = self.vx[e].val() & !self.ox[e].val();
        }
        // Whether HN takes an entry, and the follower check's next entry.
        self.any_pick.next = false;
        for e in 0..QB_N {
            if self.cand[e].val() {
                self.any_pick.next = true;
            }
            self.ck_src[e].d.next = self.nx[e].val();
        }
        // HN's QP: the OR of the entries' QPs masked by the one-hot `hn_sel`.
        for e in 0..QB_N {
            self.hn_q[e].next = 0.into();
            if self.hn_sel[e].q.val() {
                self.hn_q[e].next = self.qb_qp[e].q.val();
            }
        }
        self.hn_qp.next = self.hn_q[0].val()
            | self.hn_q[1].val()
            | self.hn_q[2].val()
            | self.hn_q[3].val()
            | self.hn_q[4].val()
            | self.hn_q[5].val()
            | self.hn_q[6].val()
            | self.hn_q[7].val()
            | self.hn_q[8].val()
            | self.hn_q[9].val()
            | self.hn_q[10].val()
            | self.hn_q[11].val()
            | self.hn_q[12].val()
            | self.hn_q[13].val()
            | self.hn_q[14].val()
            | self.hn_q[15].val();
        // ---- the follower check: the last-writer table read at the loaded entry's QP
        // (registered), then the writer's stamp compared with the entry's and the distance,
        // over two registers (`FolCheck`); the result is registered in the entry (below) ----
        self.cyc.d.next = self.cyc.q.val() + self.one_cyc.val();
        for e in 0..QB_N {
            self.ck_q[e].next = 0.into();
            if self.ck_src[e].q.val() {
                self.ck_q[e].next = self.qb_qp[e].q.val();
            }
        }
        self.ck_qp.next = self.ck_q[0].val()
            | self.ck_q[1].val()
            | self.ck_q[2].val()
            | self.ck_q[3].val()
            | self.ck_q[4].val()
            | self.ck_q[5].val()
            | self.ck_q[6].val()
            | self.ck_q[7].val()
            | self.ck_q[8].val()
            | self.ck_q[9].val()
            | self.ck_q[10].val()
            | self.ck_q[11].val()
            | self.ck_q[12].val()
            | self.ck_q[13].val()
            | self.ck_q[14].val()
            | self.ck_q[15].val();
        for e in 0..QB_N {
            self.ck_sm[e].ev.next = self.qb_ev[e].q.val();
            self.ck_sm[e].sel.next = self.ck_src[e].q.val();
        }
        for g in 0..4 {
            self.ck_gs[g].clock.next = self.clock.val();
            self.ck_ge[g].clock.next = self.clock.val();
            self.ck_gr[g].clock.next = self.clock.val();
            self.ck_gs[g].d.next = (self.ck_sm[g * 4].sub.val() | self.ck_sm[g * 4 + 1].sub.val())
                | (self.ck_sm[g * 4 + 2].sub.val() | self.ck_sm[g * 4 + 3].sub.val());
            self.ck_ge[g].d.next = (self.ck_sm[g * 4].i_e.val() | self.ck_sm[g * 4 + 1].i_e.val())
                | (self.ck_sm[g * 4 + 2].i_e.val() | self.ck_sm[g * 4 + 3].i_e.val());
            self.ck_gr[g].d.next = (self.ck_sm[g * 4].i_r.val() | self.ck_sm[g * 4 + 1].i_r.val())
                | (self.ck_sm[g * 4 + 2].i_r.val() | self.ck_sm[g * 4 + 3].i_r.val());
        }
        self.ck_sub.next = (self.ck_gs[0].q.val() | self.ck_gs[1].q.val())
            | (self.ck_gs[2].q.val() | self.ck_gs[3].q.val());
        self.ck_ie.next = (self.ck_ge[0].q.val() | self.ck_ge[1].q.val())
            | (self.ck_ge[2].q.val() | self.ck_ge[3].q.val());
        self.ck_ir.next = (self.ck_gr[0].q.val() | self.ck_gr[1].q.val())
            | (self.ck_gr[2].q.val() | self.ck_gr[3].q.val());
        self.fck.qp.next = self.ck_qp.val();
        self.fck.now_sub.next = self.ck_sub.val();
        self.fck.now_ie.next = self.ck_ie.val();
        self.fck.now_ir.next = self.ck_ir.val();
        self.fck.cyc.next = self.cyc.q.val();
        self.fck.p_inc.next = self.cfg.val().p_inc;
        // S1 after the edge holds the event that goes now, if any: each entry's match with
        // it (HZ's event: the match whatever the decision, and whether it went).
        self.s1_hz.d.next = self.take_hz.val();
        for e in 0..QB_N {
            self.hz_eq[e].next = self.hz_qp.q.val() == self.qb_qp[e].q.val();
            self.qb_hr[e].d.next =
                (self.hz_kind.val() != self.kind_query.val()) & self.hz_eq[e].val();
            for j in 0..8 {
                self.hf_p[e * 8 + j].next = (self.qb_same[e * 16 + 2 * j].q.val()
                    & self.tf_w[2 * j].val())
                    | (self.qb_same[e * 16 + 2 * j + 1].q.val() & self.tf_w[2 * j + 1].val());
            }
            for i in 0..2 {
                self.hf_q[e * 2 + i].next = (self.hf_p[e * 8 + 4 * i].val()
                    | self.hf_p[e * 8 + 4 * i + 1].val())
                    | (self.hf_p[e * 8 + 4 * i + 2].val() | self.hf_p[e * 8 + 4 * i + 3].val());
            }
            self.qb_hitf[e].d.next = self.hf_q[e * 2].val() | self.hf_q[e * 2 + 1].val();
        }
        // The window's slots now, each one slot further on at the edge ...
        self.slot_wr[0].next = self.s1_wr.val();
        self.slot_qp[0].next = self.s1_qp.q.val();
        self.slot_wr[1].next = self.s2_wr.val();
        self.slot_qp[1].next = self.s2_qp.q.val();
        for i in 0..HZ_TAGS {
            self.slot_wr[i + 2].next = self.tag_wr[i].q.val();
            self.slot_qp[i + 2].next = self.tag_qp[i].q.val();
        }
        // ... compared with the QP of the entry written at the last edge (one register per
        // slot: the comparators' path ends there), and the OR of each group of 8 matches
        // (`nmg`, so that the OR over the window at the next edge has 18 inputs, not 125) ...
        self.nw_qp.d.next = self.in_qp.val();
        self.nw_cp[0].d.next = self.in_qp.val() ^ self.nw_inv[0].val();
        for c in 1..NW_CP_HOLD {
            self.nw_cp[c].d.next = self.in_qp.val() ^ self.nw_inv[c].val();
            if self.reset.val() {
                self.nw_cp[c].d.next = self.nw_rst[c - 1].val();
            }
        }
        for c in NW_CP_HOLD..NW_CP {
            self.nw_cp[c].d.next = self.nw_cp[c].q.val();
            if !self.reset.val() {
                self.nw_cp[c].d.next = self.in_qp.val() ^ self.nw_inv[c].val();
            }
        }
        for p in 0..NW_SPAN {
            self.nm_c[p].next =
                self.slot_wr[p].val() & (self.slot_qp[p].val() == self.nw_qp.q.val());
        }
        for c in 0..NW_CP_MID {
            for i in 0..NW_SPAN {
                self.nm_c[c * 16 + 16 + i].next = self.slot_wr[c * 16 + 16 + i].val()
                    & (self.slot_qp[c * 16 + 16 + i].val()
                        == (self.nw_cp[c].q.val() ^ self.nw_inv[c].val()));
            }
        }
        for p in NW_LAST..HZ_W {
            self.nm_c[p].next = self.slot_wr[p].val()
                & (self.slot_qp[p].val() == (self.nw_cp[6].q.val() ^ self.nw_inv[6].val()));
        }
        for p in 0..HZ_W {
            self.nm[p].d.next = self.nm_c[p].val();
        }
        for j in 0..HZ_NG_FULL {
            self.nmg[j].d.next = false;
            for i in 0..HZ_GB {
                if self.nm_c[j * 8 + i].val() {
                    self.nmg[j].d.next = true;
                }
            }
        }
        self.nmg[15].d.next = false;
        for i in 0..HZ_LAST_OR {
            if self.nm_c[120 + i].val() {
                self.nmg[15].d.next = true;
            }
        }
        self.nmg_l.next = self.nmg[15].d.val() | self.nm_c[123].val();
        self.nmg_a.next = self.nmg[15].d.val() | (self.nm_c[123].val() | self.nm_c[124].val());
        // ... and the ORs of pairs of groups (`nmg_or`, the last pair three ways) ...
        for k in 0..NMG_PAIRS {
            self.nmg_or[k].d.next = self.nmg[k * 2].d.val() | self.nmg[k * 2 + 1].d.val();
        }
        self.nmg_o2.d.next = self.nmg[14].d.val() | self.nmg[15].d.val();
        self.nmg_ol.d.next = self.nmg[14].d.val() | self.nmg_l.val();
        self.nmg_oa.d.next = self.nmg[14].d.val() | self.nmg_a.val();
        // ... then, at the next edge, whether any slot matched (the entry's `qb_yv`), any
        // but the last or the last two (`lt_r`, `lt2_r`), and per group of 8 whether one
        // matched and its first match's slot two edges on (the youngest writer: the slot
        // plus 4) ...
        self.any_lo.next = ((self.nmg_or[0].q.val() | self.nmg_or[1].q.val())
            | (self.nmg_or[2].q.val() | self.nmg_or[3].q.val()))
            | ((self.nmg_or[4].q.val() | self.nmg_or[5].q.val()) | self.nmg_or[6].q.val());
        self.any_lt2.next = self.any_lo.val() | self.nmg_o2.q.val();
        self.any_lt.next = self.any_lo.val() | self.nmg_ol.q.val();
        self.nm124_unused.next = self.nm[124].q.val();
        self.any_all.next = self.any_lo.val() | self.nmg_oa.q.val();
        self.lt_r.d.next = self.any_lt.val();
        self.lt2_r.d.next = self.any_lt2.val();
        self.lt2_d.d.next = self.lt2_r.q.val();
        // (The last assignment is the lowest slot: the slots are visited from the top.)
        for j in 0..HZ_NG_FULL {
            self.g_hit[j].next = self.nmg[j].q.val();
            self.g_val[j].d.next = self.slot_c[0].val();
            for i in 0..HZ_GB {
                if self.nm[j * 8 + 7 - i].q.val() {
                    self.g_val[j].d.next = self.slot_c[j * 8 + 11 - i].val();
                }
            }
        }
        for j in HZ_NG_FULL..HZ_NG {
            self.g_hit[j].next = self.nmg[j].q.val() | self.nm[123].q.val();
            self.g_val[j].d.next = self.slot_c[0].val();
            for i in 0..HZ_LAST_SRCH {
                if self.nm[j * 8 + 3 - i].q.val() {
                    self.g_val[j].d.next = self.slot_c[j * 8 + 7 - i].val();
                }
            }
        }
        self.g_pre[0].next = false;
        for j in 1..HZ_NG {
            self.g_pre[j].next = self.g_pre[j - 1].val() | self.g_hit[j - 1].val();
        }
        for j in 0..HZ_NG {
            self.g_first[j].d.next = self.g_hit[j].val() & !self.g_pre[j].val();
        }
        // ... and at the edge after that the first group's (the youngest writer's slot an
        // edge later): `g_first` is one-hot or zero, so an AND-OR.
        for j in 0..HZ_NG {
            self.g_m[j].next = 0.into();
            if self.g_first[j].q.val() {
                self.g_m[j].next = self.g_val[j].q.val();
            }
        }
        self.enc.next = self.g_m[0].val()
            | self.g_m[1].val()
            | self.g_m[2].val()
            | self.g_m[3].val()
            | self.g_m[4].val()
            | self.g_m[5].val()
            | self.g_m[6].val()
            | self.g_m[7].val()
            | self.g_m[8].val()
            | self.g_m[9].val()
            | self.g_m[10].val()
            | self.g_m[11].val()
            | self.g_m[12].val()
            | self.g_m[13].val()
            | self.g_m[14].val()
            | self.g_m[15].val();
        self.enc_r.d.next = self.enc.val();
        // Each entry's writer in the tags: loaded from the search for the entry written
        // two, three and four edges ago (its QP was compared in the cycle after it was
        // written); after that its youngest writer's slot moves one
        // slot on per edge until it leaves the window (slot `HZ_W + 1` is the last), and a
        // writer that moves from S2 into the tags (`qb_hit2`) is the youngest.
        for e in 0..QB_N {
            self.qb_ys[e].d.next = self.qb_ys[e].q.val() + self.slot_c[1].val();
            self.qb_yv[e].d.next =
                self.qb_hit2[e].q.val() | (self.qb_yv[e].q.val() & !self.qb_ye[e].q.val());
            if self.qb_nw4[e].q.val() {
                self.qb_ys[e].d.next = self.enc_r.q.val();
                if self.qb_hit3[e].q.val() {
                    self.qb_ys[e].d.next = self.slot_c[3].val();
                }
                self.qb_yv[e].d.next =
                    self.qb_hit2[e].q.val() | self.qb_hit3[e].q.val() | self.lt2_d.q.val();
            }
            if self.qb_nw3[e].q.val() {
                self.qb_yv[e].d.next = self.qb_hit2[e].q.val() | self.lt_r.q.val();
            }
            if self.qb_hit2[e].q.val() {
                self.qb_ys[e].d.next = self.slot_c[2].val();
            }
            if self.qb_nw2[e].q.val() {
                self.qb_yv[e].d.next = self.any_all.val();
            }
        }
        // (`owed` is below REP_CREDITS: see `credit_next`.)
        self.credit_next.next = self.owed.q.val() < self.credits.val();
        self.cr.d.next = self.credit_next.val();
        // HZ takes HN's entry when it is empty or its event goes; HN takes the oldest
        // candidate then, or when it is empty.
        if self.hz_leave.val() {
            self.hz_valid.d.next = self.hn_valid.q.val();
            self.hz_qp.d.next = self.hn_qp.val();
            self.hz_qpn_rd.d.next = !self.hn_qp.val();
            for e in 0..QB_N {
                self.hz_sel[e].d.next = self.hn_sel[e].q.val();
            }
        }
        if self.hn_load.val() {
            self.hn_valid.d.next = self.any_pick.val();
            for e in 0..QB_N {
                self.hn_sel[e].d.next = self.pick[e].val();
            }
        }
        // ---- input queue: the event that goes frees its entry; the lowest free entry
        // takes the arbiter's choice every cycle (its enable is a function of the valid
        // registers, not of `push`, which depends on the input valids) and becomes the
        // youngest in the age matrix; `push` makes it valid ----
        for g in 0..WR_VA {
            self.wr_va[g].next = (self.qb_v[4 * g].q.val() & self.qb_v[4 * g + 1].q.val())
                & (self.qb_v[4 * g + 2].q.val() & self.qb_v[4 * g + 3].q.val());
        }
        self.wr_vg[0].next = true;
        self.wr_vg[1].next = self.wr_va[0].val();
        self.wr_vg[2].next = self.wr_va[0].val() & self.wr_va[1].val();
        self.wr_vg[3].next = (self.wr_va[0].val() & self.wr_va[1].val()) & self.wr_va[2].val();
        for g in 0..WR_G {
            self.wr_sel[4 * g].next = !self.qb_v[4 * g].q.val() & self.wr_vg[g].val();
            self.wr_sel[4 * g + 1].next =
                (!self.qb_v[4 * g + 1].q.val() & self.wr_vg[g].val()) & self.qb_v[4 * g].q.val();
            self.wr_sel[4 * g + 2].next = (!self.qb_v[4 * g + 2].q.val() & self.wr_vg[g].val())
                & (self.qb_v[4 * g].q.val() & self.qb_v[4 * g + 1].q.val());
            self.wr_sel[4 * g + 3].next = (!self.qb_v[4 * g + 3].q.val() & self.wr_vg[g].val())
                & ((self.qb_v[4 * g].q.val() & self.qb_v[4 * g + 1].q.val())
                    & self.qb_v[4 * g + 2].q.val());
        }
        for e in 0..QB_N {
            self.lv[e].next =
                (self.take_hz.val() & self.hz_sel[e].q.val()) | self.take_fol[e].val();
            if self.lv[e].val() {
                self.qb_v[e].d.next = false;
            }
            self.qb_nw[e].d.next = self.wr_sel[e].val() & self.push.val();
            self.qb_nw2[e].d.next = self.qb_nw[e].q.val();
            if self.qb_fr[e].q.val() {
                self.qb_ev[e].d.next = self.in_ev.val();
            }
            if self.wr_sel[e].val() {
                self.qb_kind[e].d.next = self.in_kind.val();
                self.qb_qp[e].d.next = self.in_qp.val();
                self.qb_wr[e].d.next = self.in_kind.val() != self.kind_query.val();
                for k in 0..4 {
                    self.qb_cb[k * 16 + e].d.next = self.arb_g[k].val();
                }
                if self.push.val() {
                    self.qb_v[e].d.next = true;
                }
                for f in 0..QB_N {
                    self.qb_old[f * 16 + e].d.next = true;
                }
                for f in 0..QB_N {
                    self.qb_old[e * 16 + f].d.next = false;
                }
            }
        }
        // The same-QP matrix: the entry written at the edge takes the valid entries that
        // hold the choice's QP (all older than it) as its row; a bit is cleared an edge
        // after its entry is not valid. An older valid entry holds the same QP: the OR of
        // the row with the valid bits (registered).
        for f in 0..QB_N {
            self.qb_eq[f].next = self.s_ctl_qp.val() == self.qb_qp[f].q.val();
            self.qb_eq[16 + f].next = self.s_cnp_qp.val() == self.qb_qp[f].q.val();
            self.qb_eq[32 + f].next = self.s_tx_qp.val() == self.qb_qp[f].q.val();
            self.qb_eq[48 + f].next = self.s_query_qp.val() == self.qb_qp[f].q.val();
            self.qb_pm[f].next = self.qb_v[f].q.val()
                & ((self.arb_g[0].val() & self.qb_eq[f].val())
                    | (self.arb_g[1].val() & self.qb_eq[16 + f].val())
                    | (self.arb_g[2].val() & self.qb_eq[32 + f].val())
                    | (self.arb_g[3].val() & self.qb_eq[48 + f].val()));
        }
        for e in 0..QB_N {
            for f in 0..QB_N {
                self.qb_same[e * 16 + f].d.next =
                    self.qb_same[e * 16 + f].q.val() & self.qb_v[f].q.val();
                if self.wr_sel[e].val() {
                    self.qb_same[e * 16 + f].d.next = self.qb_pm[f].val();
                }
            }
            self.qb_same[e * 16 + e].d.next = false;
            for j in 0..8 {
                self.blk_p[e * 8 + j].next = (self.qb_same[e * 16 + 2 * j].q.val()
                    & self.qb_v[2 * j].q.val())
                    | (self.qb_same[e * 16 + 2 * j + 1].q.val() & self.qb_v[2 * j + 1].q.val());
            }
            for i in 0..2 {
                self.blk_q[e * 2 + i].next = (self.blk_p[e * 8 + 4 * i].val()
                    | self.blk_p[e * 8 + 4 * i + 1].val())
                    | (self.blk_p[e * 8 + 4 * i + 2].val() | self.blk_p[e * 8 + 4 * i + 3].val());
            }
            self.qb_blk[e].d.next = self.blk_q[e * 2].val() | self.blk_q[e * 2 + 1].val();
        }
        // The follower check: it loads the oldest entry not checked (`nx`) at every edge;
        // its tag moves with the check while the entry is valid and not found blocked, and
        // the result is registered in the entry after `CHECK_EDGES` edges. An entry's
        // distance grows by one at every edge after that (saturating), and whether it may
        // follow is computed for the next edge from it. An entry whose event went is
        // cleared an edge later, when it is not valid (these bits are read only for valid
        // entries, and the follower's choice reads `qb_fok`), and it is written at that edge at the
        // earliest: so the decision (`lv`) reaches none of them.
        for e in 0..QB_N {
            self.ck_t[e].d.next = self.nx[e].val();
            for k in 1..CHECK_EDGES {
                self.ck_t[k * 16 + e].d.next = self.ck_t[k * 16 - 16 + e].q.val()
                    & self.qb_v[e].q.val()
                    & !self.qb_void[e].q.val();
            }
            // (`vx_r` is `qb_v & !qb_void`, one register.)
            self.qb_res[e].next = self.ck_t[48 + e].q.val() & self.vx_r[e].q.val();
            if !self.qb_d[e].q.val().all() {
                self.qb_d[e].d.next = self.qb_d[e].q.val() + self.one_slot.val();
                self.qb_g7[e].d.next = self.qb_d[e].q.val() >= self.slot6.val();
                self.qb_g8[e].d.next = self.qb_d[e].q.val() >= self.slot7.val();
            }
            self.fl_b[e].next = self.qb_flb[e].q.val();
            self.qb_fok[e].d.next = self.fl_b[e].val();
            if self.nx[e].val() {
                self.qb_ckf[e].d.next = true;
            }
            if self.qb_res[e].val() {
                self.qb_ck[e].d.next = true;
                self.qb_st[e].d.next = self.fck.st.val();
                self.qb_wf[e].d.next = self.fck.wf.val();
                self.qb_d[e].d.next = self.fck.d.val();
                self.qb_g7[e].d.next = self.fck.d.val() >= self.slot7.val();
                self.qb_g8[e].d.next = self.fck.d.val() >= self.slot8.val();
                self.qb_fok[e].d.next = self.fck.ok.val();
            }
            if !self.qb_v[e].q.val() | self.qb_void[e].q.val() {
                self.qb_ckf[e].d.next = false;
                self.qb_ck[e].d.next = false;
                self.qb_fok[e].d.next = false;
            }
            if self.qb_void[e].q.val() {
                self.qb_wb[e].d.next = true;
            }
            if self.wr_sel[e].val() & self.push.val() {
                self.qb_wb[e].d.next = false;
            }
        }
        // The classes that hold `QB_CAP` entries known to wait are not accepted after the
        // edge (an entry with a writer in the window is known to wait when its check found
        // it cannot follow, or, before the check is in, when it was found blocked).
        for e in 0..QB_N {
            self.wk[e].next = self.qb_v[e].q.val()
                & !self.qb_nw[e].q.val()
                & (self.qb_blk[e].q.val()
                    | (self.qb_haz[e].val()
                        & !self.qb_nw2[e].q.val()
                        & ((self.qb_ck[e].q.val() & !self.qb_st[e].q.val())
                            | (!self.qb_ck[e].q.val() & self.qb_wb[e].q.val()))));
        }
        for k in 0..4 {
            for e in 0..QB_N {
                self.wk_c[k * 16 + e].next = self.wk[e].val() & self.qb_cb[k * 16 + e].q.val();
            }
            for e in 0..QB_N {
                self.wk_n[k * 16 + e].next = 0.into();
                if self.wk_c[k * 16 + e].val() {
                    self.wk_n[k * 16 + e].next = 1.into();
                }
            }
            for g in 0..CAP_G {
                self.wk_g[k * 4 + g].d.next = (self.wk_n[k * 16 + g * 4].val()
                    + self.wk_n[k * 16 + g * 4 + 1].val())
                    + (self.wk_n[k * 16 + g * 4 + 2].val() + self.wk_n[k * 16 + g * 4 + 3].val());
            }
            self.wk_s[k].next = (self.wk_g[k * 4].q.val() + self.wk_g[k * 4 + 1].q.val())
                + (self.wk_g[k * 4 + 2].q.val() + self.wk_g[k * 4 + 3].q.val());
            self.cap[k].d.next = self.wk_s[k].val() >= self.cap_min.val();
        }
        // The count of valid entries after the edge, and whether they are all valid.
        if self.push.val() & !self.take.val() {
            self.nq.d.next = self.nq.q.val() + self.one_nq.val();
        }
        if self.take.val() & !self.push.val() {
            self.nq.d.next = self.nq.q.val() - self.one_nq.val();
        }
        self.full_q.d.next = !self.take.val()
            & ((self.nq.q.val() == self.nq_all.val())
                | ((self.nq.q.val() == self.nq_last.val()) & self.push.val()));

        // ---- S1: read the QP's word ----
        self.ram.read_address.next = !self.hz_qpn_rd.q.val();
        // (A follower's word comes from the same-QP block: what the RAM reads at HZ's QP
        // then is not used.)
        self.s1_valid.d.next = self.take.val();
        self.s1_kind.d.next = self.hz_kind.val();
        self.s1_qp.d.next = self.hz_qp.q.val();
        if self.fol_any.val() {
            self.s1_kind.d.next = self.tf_kind.val();
            self.s1_qp.d.next = self.tf_qp.val();
        }
        // The entry that goes, binary (`lv` is one-hot or zero; `QB_N` = 16).
        self.s1_b[0].d.next = self.lv[1].val()
            | self.lv[3].val()
            | self.lv[5].val()
            | self.lv[7].val()
            | self.lv[9].val()
            | self.lv[11].val()
            | self.lv[13].val()
            | self.lv[15].val();
        self.s1_b[1].d.next = self.lv[2].val()
            | self.lv[3].val()
            | self.lv[6].val()
            | self.lv[7].val()
            | self.lv[10].val()
            | self.lv[11].val()
            | self.lv[14].val()
            | self.lv[15].val();
        self.s1_b[2].d.next = self.lv[4].val()
            | self.lv[5].val()
            | self.lv[6].val()
            | self.lv[7].val()
            | self.lv[12].val()
            | self.lv[13].val()
            | self.lv[14].val()
            | self.lv[15].val();
        self.s1_b[3].d.next = self.lv[8].val()
            | self.lv[9].val()
            | self.lv[10].val()
            | self.lv[11].val()
            | self.lv[12].val()
            | self.lv[13].val()
            | self.lv[14].val()
            | self.lv[15].val();
        // S1's event and distance, read from the entry it left (see `s1_b`; none: entry
        // 0's, unused) by a tree of 2:1 choices: entries in pairs by bit 0 (`s1_m[0..8]`),
        // those in pairs by bit 1 (`[8..12]`), those by bit 2 (`[12..14]`: entries 0-7,
        // 8-15), the two by bit 3.
        for k in 0..8 {
            self.s1_m[k].next = self.qb_ev[2 * k].q.val();
            self.s1_n[k].next = self.qb_dp[2 * k].q.val();
            if self.s1_b[0].q.val() {
                self.s1_m[k].next = self.qb_ev[2 * k + 1].q.val();
                self.s1_n[k].next = self.qb_dp[2 * k + 1].q.val();
            }
        }
        for k in 0..4 {
            self.s1_m[k + 8].next = self.s1_m[2 * k].val();
            self.s1_n[k + 8].next = self.s1_n[2 * k].val();
            if self.s1_b[1].q.val() {
                self.s1_m[k + 8].next = self.s1_m[2 * k + 1].val();
                self.s1_n[k + 8].next = self.s1_n[2 * k + 1].val();
            }
        }
        for k in 0..2 {
            self.s1_m[k + 12].next = self.s1_m[2 * k + 8].val();
            self.s1_n[k + 12].next = self.s1_n[2 * k + 8].val();
            if self.s1_b[2].q.val() {
                self.s1_m[k + 12].next = self.s1_m[2 * k + 9].val();
                self.s1_n[k + 12].next = self.s1_n[2 * k + 9].val();
            }
        }
        self.s1_ev.next = self.s1_m[12].val();
        self.s1_d.next = self.s1_n[12].val();
        if self.s1_b[3].q.val() {
            self.s1_ev.next = self.s1_m[13].val();
            self.s1_d.next = self.s1_n[13].val();
        }
        self.s1_fol.d.next = self.fol_any.val();
        self.s1_cyc.d.next = self.cyc.q.val();
        // The last-writer table (each follower check's copy) is written from S1.
        self.lw_in.next.cyc = self.s1_cyc.q.val();
        self.lw_in.next.fol = self.s1_fol.q.val();
        self.s1_now.next = self.s1_ev.val().now;
        self.lw_in.next.sub = self.s1_now.val().sub;
        self.lw_in.next.i_e = self.s1_now.val().i_e;
        self.lw_in.next.i_r = self.s1_now.val().i_r;
        self.s1_a_e_unused.next = self.s1_now.val().a_e;
        self.s1_a_r_unused.next = self.s1_now.val().a_r;
        self.s1_d_e_unused.next = self.s1_now.val().d_e;
        self.s1_d_r_unused.next = self.s1_now.val().d_r;
        self.fck.wr_en.next = self.s1_wr.val();
        self.fck.wr_qp.next = self.s1_qp.q.val();
        self.fck.wr_data.next = self.lw_in.val();
        // S1's event into the line to the same-QP block.
        self.fol_in.next.ev = self.s1_ev.val();
        self.fol_in.next.d = self.s1_d.val();
        self.fol_line.en.next = true;
        self.fol_line.d.next = self.fol_in.val();
        self.s2_fol.d.next = self.s1_fol.q.val();

        // ---- S2: registered RAM output, forwarding, next state ----
        self.s2_valid.d.next = self.s1_valid.q.val();
        self.s2_kind.d.next = self.s1_kind.q.val();
        self.s2_qp.d.next = self.s1_qp.q.val();
        self.s2_bytes.d.next = self.s1_ev.val().bytes;
        self.s2_mode.d.next = self.s1_ev.val().mode;
        self.s2_rate.d.next = self.s1_ev.val().rate;
        self.s2_now.d.next = self.s1_ev.val().now;
        self.s2_ctl.d.next = self.s1_ev.val().ctl;
        self.s2_word.d.next = self.ram.read_data.val();
        // ---- the event's tag through the update's steps (A -> tag 0 -> .. -> tag
        // UPD_STAGES - 1 = E) ----
        self.tag_valid[0].d.next = self.s2_valid.q.val();
        self.tag_wr[0].d.next =
            self.s2_valid.q.val() & (self.s2_kind.q.val() != self.kind_query.val());
        self.tag_kind[0].d.next = self.s2_kind.q.val();
        self.tag_qp[0].d.next = self.s2_qp.q.val();
        self.tag_ctl[0].d.next = self.s2_ctl.q.val();
        self.tag_fol[0].d.next = self.s2_fol.q.val();
        for i in 1..UPD_STAGES {
            self.tag_valid[i].d.next = self.tag_valid[i - 1].q.val();
            self.tag_wr[i].d.next = self.tag_wr[i - 1].q.val();
            self.tag_kind[i].d.next = self.tag_kind[i - 1].q.val();
            self.tag_qp[i].d.next = self.tag_qp[i - 1].q.val();
            self.tag_ctl[i].d.next = self.tag_ctl[i - 1].q.val();
            self.tag_fol[i].d.next = self.tag_fol[i - 1].q.val();
        }
        // Forwarding: the choice was registered when the event was in S1 (below).
        // Beside it, now's cycle against each candidate's expiry cycle, chosen the same way.
        self.late_s2.next = self.s2_now.q.val().sub < self.s2_word.q.val().sub;
        self.late_w1.next = self.s2_now.q.val().sub < self.w1_word.q.val().sub;
        self.late_w2.next = self.s2_now.q.val().sub < self.w2_word.q.val().sub;
        self.late_w3.next = self.s2_now.q.val().sub < self.w3_word.q.val().sub;
        self.fwd.next = self.s2_word.q.val();
        self.fwd_late.next = self.late_s2.val();
        if self.fwd_w3.q.val() {
            self.fwd.next = self.w3_word.q.val();
            self.fwd_late.next = self.late_w3.val();
        }
        if self.fwd_w2.q.val() {
            self.fwd.next = self.w2_word.q.val();
            self.fwd_late.next = self.late_w2.val();
        }
        if self.fwd_w1.q.val() {
            self.fwd.next = self.w1_word.q.val();
            self.fwd_late.next = self.late_w1.val();
        }
        self.upd.clock.next = self.clock.val();
        // The update runs every cycle: nothing after HZ ever waits (the report FIFO takes
        // every report, see `credit_next`).
        self.upd.en.next = true;
        self.upd.old.next = self.fwd.val();
        self.upd.late.next = self.fwd_late.val();
        self.upd.kind.next = self.s2_kind.q.val();
        self.upd.bytes.next = self.s2_bytes.q.val();
        self.upd.ctl_mode.next = self.s2_mode.q.val();
        self.upd.ctl_rate.next = self.s2_rate.q.val();
        self.upd.now.next = self.s2_now.q.val();
        self.upd.cfg.next = self.cfg.val();
        self.upd.reset.next = self.reset.val();
        self.tbl_lo.raddr0.next = self.upd.lo_addr0.val();
        self.tbl_hi.raddr0.next = self.upd.hi_addr0.val();
        self.tbl_lo.raddr1.next = self.upd.lo_addr1.val();
        self.tbl_hi.raddr1.next = self.upd.hi_addr1.val();
        self.upd.lo_val0.next = self.tbl_lo.rdata0.val();
        self.upd.hi_val0.next = self.tbl_hi.rdata0.val();
        self.upd.lo_val1.next = self.tbl_lo.rdata1.val();
        self.upd.hi_val1.next = self.tbl_hi.rdata1.val();

        // ---- the tag beside step E (an array index in `hdl_gen` must be a literal or a
        // loop variable: a one-pass loop names the last one) ----
        for i in UPD_LAST..UPD_STAGES {
            self.e_valid.next = self.tag_valid[i].q.val();
            self.e_wr.next = self.tag_wr[i].q.val();
            self.e_kind.next = self.tag_kind[i].q.val();
            self.e_qp.next = self.tag_qp[i].q.val();
            self.e_ctl.next = self.tag_ctl[i].q.val();
            self.e_fol.next = self.tag_fol[i].q.val();
        }

        // ---- the same-QP block beside the update's last steps: a follower's event from
        // the line, its word from its writer's (the block's own result 8 slots behind, W1,
        // W2, W3, else the history of written words) ----
        self.fol_out.next = self.fol_line.q.val();
        self.fol_ev.next = self.fol_out.val().ev;
        self.near.ev.next = self.fol_ev.val();
        self.near.cfg.next = self.cfg.val();
        self.hp.d.next = self.hp.q.val() + self.one_slot.val();
        // The word W1 holds in the cycle `hp` counts is written at `hp - 11`, so that the
        // read below is one subtraction from registers (the RAM's address inputs).
        self.hist.write_enable.next = true;
        self.hist.write_address.next = self.hp.q.val() - self.slot11.val();
        self.hist.write_data.next = self.w1_word.q.val();
        self.hist_t1.write_enable.next = true;
        self.hist_t1.write_address.next = self.hp.q.val() - self.slot11.val();
        self.hist_t1.write_data.next = self.w1_t1.q.val();
        // The writer's word went into W1 `d - 1` cycles before the block takes it, and the
        // read here is two cycles before that (RAM, then `hist_q`): at `hp + 11 - d` in
        // W1's count, `hp - d` in the RAM.
        self.hist.read_address.next = self.hp.q.val() - self.fol_out.val().d;
        self.hist_t1.read_address.next = self.hp.q.val() - self.fol_out.val().d;
        self.hist_q.d.next = self.hist.read_data.val();
        self.hist_t1_q.d.next = self.hist_t1.read_data.val();
        self.nt_d.d.next = self.fol_out.val().d;
        self.sel_near.d.next = self.nt_d.q.val() == self.slot8.val();
        self.sel_w1.d.next = self.nt_d.q.val() == self.slot9.val();
        self.sel_w2.d.next = self.nt_d.q.val() == self.slot10.val();
        self.sel_w3.d.next = self.nt_d.q.val() == self.slot11.val();
        self.sel_hist.d.next = !(self.sel_near.d.val()
            | self.sel_w1.d.val()
            | self.sel_w2.d.val()
            | self.sel_w3.d.val());
        // `RpNear` chooses among them (and compares each with the event's instants before
        // the choice).
        self.near.sel_own.next = self.sel_near.q.val();
        self.near.sel_1.next = self.sel_w1.q.val();
        self.near.sel_2.next = self.sel_w2.q.val();
        self.near.sel_3.next = self.sel_w3.q.val();
        self.near.sel_h.next = self.sel_hist.q.val();
        self.near.w_1.next = self.w1_word.q.val();
        self.near.w_2.next = self.w2_word.q.val();
        self.near.w_3.next = self.w3_word.q.val();
        self.near.w_h.next = self.hist_q.q.val();
        self.near.t1_1.next = self.w1_t1.q.val();
        self.near.t1_2.next = self.w2_t1.q.val();
        self.near.t1_3.next = self.w3_t1.q.val();
        self.near.t1_h.next = self.hist_t1_q.q.val();

        // ---- write back (or sweep) from step E, history for forwarding, report ----
        self.wb_writes.next = self.e_wr.val();
        // Forwarding: when S1's event moves to S2, W1 takes the word step E writes now and
        // W2 takes W1's, so S2's choice is made a cycle early against those.
        self.fwd_w1.d.next = self.wb_writes.val() & (self.e_qp.val() == self.s1_qp.q.val());
        self.fwd_w2.d.next = self.w1_valid.q.val() & (self.w1_qp.q.val() == self.s1_qp.q.val());
        self.fwd_w3.d.next = self.w2_valid.q.val() & (self.w2_qp.q.val() == self.s1_qp.q.val());
        // The RAM is written from W1 (a register: the word's route to the block RAMs, which
        // are spread over the device, starts at a flip-flop, not after step E's logic).
        self.ram.write_enable.next = self.w1_valid.q.val();
        self.ram.write_address.next = self.w1_qp.q.val();
        self.ram.write_data.next = self.w1_word.q.val();
        self.w1_valid.d.next = self.wb_writes.val();
        self.w1_qp.d.next = self.e_qp.val();
        self.w1_word.d.next = self.upd.next_word.val();
        self.w1_t1.d.next = self.upd.next_t1.val();
        if self.e_fol.val() {
            self.w1_word.d.next = self.near.w_o.val();
            self.w1_t1.d.next = self.near.t1_o.val();
        }
        self.w2_t1.d.next = self.w1_t1.q.val();
        self.w3_t1.d.next = self.w2_t1.q.val();
        self.w2_valid.d.next = self.w1_valid.q.val();
        self.w2_qp.d.next = self.w1_qp.q.val();
        self.w2_word.d.next = self.w1_word.q.val();
        self.w3_valid.d.next = self.w2_valid.q.val();
        self.w3_qp.d.next = self.w2_qp.q.val();
        self.w3_word.d.next = self.w2_word.q.val();
        self.out_valid.d.next = self.e_valid.val();
        self.out_qp.d.next = self.e_qp.val();
        self.out_rep.d.next.query = self.e_kind.val() == self.kind_query.val();
        if self.e_valid.val() & (self.e_kind.val() == self.kind_cnp.val()) {
            self.cnps.d.next = self.cnps.q.val() + self.one_count.val();
        }
        if self.wb_writes.val()
            & ((!self.e_fol.val() & self.upd.did_cut.val())
                | (self.e_fol.val() & self.near.cut_o.val()))
        {
            self.cuts.d.next = self.cuts.q.val() + self.one_count.val();
        }
        self.out_rep.d.next.limited = self.upd.rep_limited.val();
        self.out_rep.d.next.rc = self.upd.rep_rc.val();
        self.out_rep.d.next.rt = self.upd.rep_rt.val();
        self.out_rep.d.next.alpha = self.upd.rep_alpha.val();
        self.out_rep.d.next.mode = self.upd.next_word.val().mode;
        // A follower's report: the same-QP block's word as the golden `report_of` reads it.
        if self.e_fol.val() {
            self.out_rep.d.next.limited = self.near.w_o.val().limited;
            self.out_rep.d.next.rc = self.cfg.val().max_rate;
            self.out_rep.d.next.rt = self.cfg.val().max_rate;
            self.out_rep.d.next.alpha = 0.into();
            if self.near.w_o.val().limited {
                self.out_rep.d.next.rc = self.near.w_o.val().rc;
                self.out_rep.d.next.rt = self.near.w_o.val().rt;
                self.out_rep.d.next.alpha = self.near.w_o.val().alpha;
            }
            if self.near.w_o.val().mode == self.mode_host.val() {
                self.out_rep.d.next.limited = false;
                self.out_rep.d.next.rc = self.near.w_o.val().host_rate;
                self.out_rep.d.next.rt = self.near.w_o.val().host_rate;
            }
            self.out_rep.d.next.mode = self.near.w_o.val().mode;
        }
        self.out_rep.d.next.ctl = self.e_ctl.val();

        // ---- report FIFO: the report register is written at wr_ptr; the FIFO's read
        // register holds the report at `head` once it was written an edge before; the
        // output register loads it when it is empty or taken ----
        self.fifo_rep.write_enable.next = self.out_valid.q.val();
        self.fifo_qp.write_enable.next = self.out_valid.q.val();
        self.fifo_rep.write_address.next = self.wr_ptr.q.val().get_bits::<REP_FIFO_AW>(0);
        self.fifo_qp.write_address.next = self.wr_ptr.q.val().get_bits::<REP_FIFO_AW>(0);
        self.fifo_rep.write_data.next = self.out_rep.q.val();
        self.fifo_qp.write_data.next = self.out_qp.q.val();
        if self.out_valid.q.val() {
            self.wr_ptr.d.next = self.wr_ptr.q.val() + self.one_ptr.val();
        }
        self.o_free.next = !self.o_valid.q.val() | self.m_rate_ready.val();
        self.o_pop.next = self.o_valid.q.val() & self.m_rate_ready.val();
        self.rd_adv.next = self.o_free.val() & self.rd_valid_q.q.val();
        if self.o_free.val() {
            self.o_valid.d.next = self.rd_valid_q.q.val();
            self.o_qp.d.next = self.fifo_qp.read_data.val();
            self.o_rep.d.next = self.fifo_rep.read_data.val();
        }
        self.head_next.next = self.head.q.val();
        self.rd_valid_q.d.next = self.head.q.val() != self.wr_ptr.q.val();
        if self.rd_adv.val() {
            self.head_next.next = self.head_inc.q.val();
            self.head_inc.d.next = self.head_inc.q.val() + self.one_ptr.val();
            self.rd_valid_q.d.next = self.head_inc.q.val() != self.wr_ptr.q.val();
        }
        self.head.d.next = self.head_next.val();
        self.fifo_rep.read_address.next = self.head_next.val().get_bits::<REP_FIFO_AW>(0);
        self.fifo_qp.read_address.next = self.head_next.val().get_bits::<REP_FIFO_AW>(0);
        // Reports owed: +1 for an event in S1 (counted an edge after HZ sent it, from
        // `s1_valid`, so that the decision's `take` does not run into the counter), -1 for
        // a report taken.
        if self.s1_valid.q.val() & !self.o_pop.val() {
            self.owed.d.next = self.owed.q.val() + self.one_ptr.val();
        }
        if !self.s1_valid.q.val() & self.o_pop.val() {
            self.owed.d.next = self.owed.q.val() - self.one_ptr.val();
        }
        // ---- increase-event counters (pipelined after the write back) ----
        self.inc.reset.next = self.reset.val();
        self.inc.valid.next = self.wb_writes.val();
        self.inc.fr.next = self.upd.inc_fr.val();
        self.inc.ai.next = self.upd.inc_ai.val();
        self.inc.hai.next = self.upd.inc_hai.val();
        self.inc.rel.next = self.upd.inc_rel.val();
        self.inc.rel_phase.next = self.upd.inc_rel_phase.val();
        self.inc.rel_rc.next = self.upd.inc_rel_rc.val();
        self.inc.rel_rt.next = self.upd.inc_rel_rt.val();
        // A follower's counts are whole (one increase event at most per timer and one byte
        // event: a run that releases does so at its first event, so nothing is cut off).
        self.ext_nfr.i.next = self.near.fr_o.val();
        self.ext_nai.i.next = self.near.ai_o.val();
        self.ext_nhai.i.next = self.near.hai_o.val();
        if self.e_fol.val() {
            self.inc.fr.next = self.ext_nfr.o.val();
            self.inc.ai.next = self.ext_nai.o.val();
            self.inc.hai.next = self.ext_nhai.o.val();
            self.inc.rel.next = false;
        }
        self.inc.max.next = self.cfg.val().max_rate;
        self.inc.ai_rate.next = self.cfg.val().ai_rate;
        self.inc.hai_rate.next = self.cfg.val().hai_rate;
        self.inc.recip_ai.next = self.cfg.val().recip_ai;
        self.inc.recip_hai.next = self.cfg.val().recip_hai;
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
            self.hz_valid.d.next = false;
            self.hn_valid.d.next = false;
            self.nq.d.next = 0.into();
            self.full_q.d.next = false;
            for k in 0..4 {
                self.cap[k].d.next = false;
            }
            for k in 0..CAP_G_N {
                self.wk_g[k].d.next = 0.into();
            }
            for e in 0..QB_N {
                self.qb_v[e].d.next = false;
                self.qb_nw[e].d.next = false;
                self.qb_nw2[e].d.next = false;
                self.hz_sel[e].d.next = false;
                self.hn_sel[e].d.next = false;
            }
            for e in 0..QB_N {
                self.qb_ckf[e].d.next = false;
                self.qb_ck[e].d.next = false;
                self.qb_fok[e].d.next = false;
            }
            for i in 0..CK_T_N {
                self.ck_t[i].d.next = false;
            }
            self.s1_valid.d.next = false;
            self.s1_hz.d.next = false;
            for e in 0..QB_N {
                self.qb_hitf[e].d.next = false;
                self.qb_hit2[e].d.next = false;
                self.qb_hit3[e].d.next = false;
                self.qb_nw3[e].d.next = false;
                self.qb_nw4[e].d.next = false;
            }
            self.s2_valid.d.next = false;
            for i in 0..UPD_STAGES {
                self.tag_valid[i].d.next = false;
                self.tag_wr[i].d.next = false;
                self.tag_fol[i].d.next = false;
            }
            self.w1_valid.d.next = false;
            self.w2_valid.d.next = false;
            self.fwd_w1.d.next = false;
            self.fwd_w2.d.next = false;
            self.w3_valid.d.next = false;
            self.fwd_w3.d.next = false;
            self.out_valid.d.next = false;
            self.wr_ptr.d.next = 0.into();
            self.head.d.next = 0.into();
            self.head_inc.d.next = self.one_ptr.val();
            self.rd_valid_q.d.next = false;
            self.o_valid.d.next = false;
            self.owed.d.next = 0.into();
            self.cr.d.next = false;
            self.sweep.d.next = 0.into();
            self.busy_q.d.next = true;
            self.arb_m.d.next = 0.into();
            self.cnps.d.next = 0.into();
            self.cuts.d.next = 0.into();
        }
        // (After every write of `qb_v`, the reset's included.)
        for e in 0..QB_N {
            self.qb_fr[e].d.next = !self.qb_v[e].d.val();
        }
        self.busy.next = self.busy_q.q.val();
        self.cnt_cnp_received.next = self.cnps.q.val();
        self.cnt_rate_cuts.next = self.cuts.q.val();
        self.cnt_increase_fr.next = self.inc.cnt_fr.val();
        self.cnt_increase_ai.next = self.inc.cnt_ai.val();
        self.cnt_increase_hai.next = self.inc.cnt_hai.val();
        self.m_rate_valid.next = self.o_valid.q.val();
        self.m_rate_qp.next = self.o_qp.q.val();
        self.m_rate_query.next = self.o_rep.q.val().query;
        self.m_rate_limited.next = self.o_rep.q.val().limited;
        self.m_rate_rc.next = self.o_rep.q.val().rc;
        self.m_rate_rt.next = self.o_rep.q.val().rt;
        self.m_rate_alpha.next = self.o_rep.q.val().alpha;
        self.m_rate_mode.next = self.o_rep.q.val().mode;
        self.m_rate_ctl.next = self.o_rep.q.val().ctl;
        // Last, after every assignment to the registers they combine (reset included).
        for e in 0..QB_N {
            self.qb_flb[e].d.next = self.qb_ck[e].d.val()
                & self.qb_st[e].d.val()
                & (self.qb_g8[e].d.val() | (self.qb_wf[e].d.val() & self.qb_g7[e].d.val()));
            self.qb_void[e].d.next = self.qb_blk[e].d.val() & !self.qb_nw[e].d.val();
            self.qb_hy[e].d.next = self.qb_hit2[e].d.val() | self.qb_yv[e].d.val();
            self.vx_r[e].d.next =
                self.qb_v[e].d.val() & !(self.qb_blk[e].d.val() & !self.qb_nw[e].d.val());
            self.cd_b[e].d.next = self.qb_v[e].d.val()
                & !self.qb_blk[e].d.val()
                & !self.qb_nw[e].d.val()
                & !self.qb_nw2[e].d.val();
            self.hz_nsel[e].d.next = !(self.hz_sel[e].d.val() | self.hn_sel[e].d.val());
            self.qb_ye[e].d.next = self.qb_ys[e].d.val() == self.slot_c[126].val();
        }
        // The follower of the next edge: the oldest entry whose check will have found that
        // it may follow (`qb_fok`'s input, for the check's `ok` clear and set) and whose
        // youngest writer will still be in the window (`qb_yv` and not in the last slot:
        // such an entry's writer is at least 7 slots ahead, so `qb_yv` is neither loaded
        // nor set at this edge), while a credit will be left; the follower that goes now is
        // not a candidate.
        for e in 0..QB_N {
            self.fl_r[e].next = self.vx_r[e].q.val()
                & self.qb_yv[e].q.val()
                & !self.qb_ye[e].q.val()
                & !self.fol_sel[e].q.val();
            self.fn0[e].next = self.fl_r[e].val() & !self.qb_res[e].val() & self.fl_b[e].val();
            self.fn1[e].next = self.fl_r[e].val() & (self.qb_res[e].val() | self.fl_b[e].val());
            self.fc0[e].next = self.fn0[e].val() & self.cr.d.val();
            self.fc1[e].next = self.fn1[e].val() & self.cr.d.val();
        }
        self.fa0.next = false;
        self.fa1.next = false;
        for e in 0..QB_N {
            if self.fn0[e].val() {
                self.fa0.next = true;
            }
            if self.fn1[e].val() {
                self.fa1.next = true;
            }
            self.fo0[e].next = false;
            self.fo1[e].next = false;
            for f in 0..QB_N {
                if self.fn0[f].val() & self.qb_old[f * 16 + e].q.val() {
                    self.fo0[e].next = true;
                }
                if self.fn1[f].val() & self.qb_old[f * 16 + e].q.val() {
                    self.fo1[e].next = true;
                }
            }
        }
        self.fol_sel_any.d.next = self.cr.d.val() & self.fa0.val();
        for e in 0..QB_N {
            self.fol_sel[e].d.next = self.fc0[e].val() & !self.fo0[e].val();
        }
        if self.fck.ok.val() {
            self.fol_sel_any.d.next = self.cr.d.val() & self.fa1.val();
            for e in 0..QB_N {
                self.fol_sel[e].d.next = self.fc1[e].val() & !self.fo1[e].val();
            }
        }
    }
}
