//! `HpccWindow`: the HPCC window unit for `2^QB` QPs (`docs/hpcc_window.md`), joining the
//! parts: the issue stage, the path state, five `HopLoad`s, the choice of the most loaded
//! hop, `Weight`, `UEwma`, `EtaOverU`, `RateStep`, the window and the report FIFO.
//!
//! Events: ACKs (`s_ack_*`) and commands (`s_cmd_*`: initialise a QP, or query it). Every
//! event goes down one pipeline that moves every cycle, [`LATENCY`] edges from its issue to
//! its report. Two events of one QP are issued at least [`SPACING`] = 8 cycles apart (the
//! issue stage compares the QP with those of the seven events issued before it and holds
//! the event otherwise), which is the contract of every state segment (`UEwma`,
//! `RateStep`, the path RAM): each reads its QP's word and writes it back within 8 cycles,
//! so the next event of the QP reads it from the RAM or from the one forwarded write.
//!
//! ACKs wait in a queue of [`ACK_QUEUE`] entries kept in arrival order (entry 0 the oldest;
//! an issued entry leaves and the younger ones move down). Each cycle the oldest entry that
//! need not wait issues: its QP was not issued in the last 7 cycles and the held command is
//! not an older event of its QP. An ACK held for its QP's spacing so no longer holds ACKs
//! of other QPs behind it. ACKs of one QP stay in order with no compare between entries:
//! two entries of one QP wait for the same history, and for the command alike (a command
//! taken before the older entry's ACK was also taken before the younger's; a new command
//! clears every entry's flag), so whenever the younger may go the older may too, and the
//! oldest goes first.
//! `s_ack_ready` is the queue's last entry empty (a register).
//!
//! | edge | what |
//! |---|---|
//! | 0 | issue: the event in the issue registers, the path RAM read |
//! | 1 | the path word (registered RAM output) |
//! | 2 | new path, commit, per hop tau, dtx, min(qlen); the new path word |
//! | 15 | per hop u (`HopLoad`, 13 edges) |
//! | 16-18 | the most loaded hop (three levels of 2:1 choices; the first wins a tie) |
//! | 23 | the weight (`Weight`, 5 edges) |
//! | 31 | U' (`UEwma`, 8 edges) |
//! | 38 | `eta / U'` (`EtaOverU`, 7 edges) |
//! | 46 | R, Rc, inc_stage (`RateStep`, 8 edges) |
//! | 49 | the window; the report enters the FIFO |
//!
//! Reports leave in issue order through a FIFO ([`REP_FIFO_AW`]) and an output register
//! (`m_rep_*`); an event is issued only while fewer than [`REP_CREDITS`] reports are owed,
//! so the FIFO never overflows and `m_rep_ready` low stops the inputs, never the pipeline.
//! ACKs and commands alternate when both wait (neither class starves the other); an ACK
//! and a command of one QP go in the order they were taken.
//!
//! After `reset` every QP is initialised by the issue stage (an init event per cycle, no
//! reports: `busy` high, the readies low, for `2^QB` cycles); events in the pipeline at the
//! reset are dropped.

use super::eta_over_u::EtaOverU;
use super::hop_load::{CodeConsts, HOP_STAGES, HopLoad};
use super::rate_step::{RATE_STAGES, RATE_W, RateStep, RateWord, STAGE_W};
use super::u_ewma::{OP_INIT, OP_KEEP, OP_UPDATE, U_STAGES, U_W, UEwma};
use super::weight::{T_W, WEIGHT_STAGES, Weight};
use crate::delay_line::DelayLine;
use crate::dsp_mul::DspMul;
use crate::state_ram::StateRam;
use crate::zero_ext::ZeroExt;
use rust_hdl::prelude::*;

/// INT hops an ACK carries at most.
pub const HOPS: usize = 5;
/// Fewest cycles between the issue of two events of one QP.
pub const SPACING: usize = 8;
/// Entries of the ACK queue in front of the issue stage: an ACK that waits for its QP's
/// spacing lets younger ACKs of other QPs go first.
pub const ACK_QUEUE: usize = 4;
/// Edges from an event's issue to its report entering the FIFO.
pub const LATENCY: usize = 49;
/// Address bits of the report FIFO (64 reports).
pub const REP_FIFO_AW: usize = 6;
/// Reports that may be owed (issued, not yet taken): the FIFO's size less three.
pub const REP_CREDITS: usize = (1 << REP_FIFO_AW) - 3;
/// Width of a window, bytes.
pub const WIN_W: usize = 32;
/// Event kind: an ACK.
pub const KIND_ACK: u64 = 0;
/// Event kind: initialise the QP (reset, or the QP enters HPCC mode).
pub const KIND_INIT: u64 = 1;
/// Event kind: report the QP's state.
pub const KIND_QUERY: u64 = 2;
/// Command: initialise the QP.
pub const CMD_INIT: u64 = 0;
/// Command: report the QP's state.
pub const CMD_QUERY: u64 = 1;
/// Effect of an ACK: the first of a QP or of a new path (L re-initialised).
pub const EFFECT_NEW_PATH: u64 = 0;
/// Effect of an ACK: no hop with `tau > 0` (only L and last_update_seq changed).
pub const EFFECT_NO_HOP: u64 = 1;
/// Effect of an ACK: R updated (and on a commit Rc and inc_stage).
pub const EFFECT_UPDATE: u64 = 2;

const _: () = assert!(WIN_W == 32); // a literal slice offset in `update`
// `update` writes the ACK queue's last entry (3) and its hop arrays out by hand.
const _: () = assert!(ACK_QUEUE == 4 && HOPS == 5);
const _: () = assert!(
    HOP_STAGES == 13
        && WEIGHT_STAGES == 5
        && U_STAGES == 8
        && RATE_STAGES == 8
        && 2 + HOP_STAGES + 3 + WEIGHT_STAGES + U_STAGES + 7 + RATE_STAGES + 3 == LATENCY
);

/// One INT hop in wire units (hpcc.md).
#[derive(Clone, Copy, Debug, Default, PartialEq, LogicStruct)]
pub struct IntHop {
    /// Link rate code.
    pub rate: Bits<3>,
    /// Timestamp, ns mod 2^24.
    pub ts: Bits<24>,
    /// Transmitted bytes / (128 * multi), mod 2^20.
    pub tx: Bits<20>,
    /// Queue bytes / (80 * multi).
    pub qlen: Bits<17>,
}

/// One hop of a QP's last ACK (its L), one block-RAM word per hop.
#[derive(Clone, Copy, Debug, Default, PartialEq, LogicStruct)]
pub struct HopMem {
    pub ts: Bits<24>,
    pub tx: Bits<20>,
    pub qlen: Bits<17>,
}

/// A QP's last_update_seq and hop count.
#[derive(Clone, Copy, Debug, Default, PartialEq, LogicStruct)]
pub struct SeqWord {
    /// last_update_seq, bytes (0: no ACK seen yet).
    pub last_seq: Bits<32>,
    /// Hops of the path in L (0 before the first ACK).
    pub nhop: Bits<3>,
}

/// The unit's configuration (the configuration compiler's `HpccConfig`).
#[derive(Clone, Copy, Debug, Default, PartialEq, LogicStruct)]
pub struct HpccCfgWord {
    /// T, ns.
    pub t_ns: Bits<T_W>,
    /// Mantissa of 1/T.
    pub inv_m: Bits<18>,
    /// `17 - e` of 1/T.
    pub ws_base: Bits<6>,
    /// eta, 1/1024.
    pub eta: Bits<11>,
    /// hpcc_max_stage.
    pub max_stage: Bits<STAGE_W>,
    /// R_AI, Mb/s Q.8.
    pub ai: Bits<RATE_W>,
    /// Floor of R, Mb/s Q.8.
    pub min_rate: Bits<RATE_W>,
    /// Ceiling of R, Mb/s Q.8.
    pub max_rate: Bits<RATE_W>,
    /// Mantissa of `T / 2048000` (bytes per Mb/s Q.8).
    pub win_m: Bits<18>,
    /// Its right shift.
    pub win_sh: Bits<6>,
}

/// What an event reports.
#[derive(Clone, Copy, Debug, Default, PartialEq, LogicStruct)]
pub struct HpccReport {
    /// `KIND_*`.
    pub kind: Bits<2>,
    /// `EFFECT_*` (ACKs).
    pub effect: Bits<2>,
    /// The ACK committed.
    pub commit: Bit,
    /// R, Mb/s Q.8.
    pub r: Bits<RATE_W>,
    /// Rc, Mb/s Q.8.
    pub rc: Bits<RATE_W>,
    /// U, Q.24.
    pub u: Bits<U_W>,
    /// inc_stage.
    pub stage: Bits<STAGE_W>,
    /// The window `R * T / 8000`, bytes (saturating).
    pub window: Bits<WIN_W>,
}

/// An event's flags beside the pipeline.
#[derive(Clone, Copy, Debug, Default, PartialEq, LogicStruct)]
pub struct EvFlags {
    /// `KIND_*`.
    pub kind: Bits<2>,
    /// No report (the reset sweep).
    pub silent: Bit,
    /// New path (or first ACK).
    pub new_path: Bit,
    /// The ACK commits.
    pub commit: Bit,
    /// The ACK kept a hop (`tau > 0` on one at least): U and R are updated.
    pub kept: Bit,
}

/// The HPCC window unit for `2^QB` QPs.
#[derive(LogicBlock)]
pub struct HpccWindow<const QB: usize> {
    /// Clock of every register and RAM.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: drops the events in flight and the queued reports, then
    /// initialises every QP (`busy`).
    pub reset: Signal<In, Bit>,
    /// An ACK is offered (held with its payload until `s_ack_ready`).
    pub s_ack_valid: Signal<In, Bit>,
    /// The ACK is taken at this edge.
    pub s_ack_ready: Signal<Out, Bit>,
    /// Its QP.
    pub s_ack_qp: Signal<In, Bits<QB>>,
    /// The acknowledged sequence number, bytes.
    pub s_ack_seq: Signal<In, Bits<32>>,
    /// The sender's next sequence number, bytes.
    pub s_ack_snd_nxt: Signal<In, Bits<32>>,
    /// Hops in the INT stack, 1..=5.
    pub s_ack_nhop: Signal<In, Bits<3>>,
    /// The INT stack (hops `0..nhop`).
    pub s_ack_hop: [Signal<In, IntHop>; HOPS],
    /// A command is offered.
    pub s_cmd_valid: Signal<In, Bit>,
    /// The command is taken at this edge.
    pub s_cmd_ready: Signal<Out, Bit>,
    /// Its QP.
    pub s_cmd_qp: Signal<In, Bits<QB>>,
    /// `CMD_INIT` or `CMD_QUERY`.
    pub s_cmd_op: Signal<In, Bit>,
    /// A report is offered (held until `m_rep_ready`).
    pub m_rep_valid: Signal<Out, Bit>,
    /// The report is taken at this edge.
    pub m_rep_ready: Signal<In, Bit>,
    /// Its QP.
    pub m_rep_qp: Signal<Out, Bits<QB>>,
    /// The report.
    pub m_rep: Signal<Out, HpccReport>,
    /// Configuration (static while events are in flight).
    pub cfg: Signal<In, HpccCfgWord>,
    /// Per rate code: the constants of `u_i` (`HopLoad`).
    pub cfg_k: Signal<In, CodeConsts>,
    /// The reset sweep is running (the readies are low).
    pub busy: Signal<Out, Bit>,
    /// ACKs applied (reported), wrapping.
    pub cnt_acks: Signal<Out, Bits<32>>,
    /// ACKs that committed, wrapping.
    pub cnt_commits: Signal<Out, Bits<32>>,
    // ---- the ACK queue (entry 0 the oldest; valid entries are 0..n, no gaps) ----
    q_v: [DFF<Bit>; ACK_QUEUE],
    q_qp: [DFF<Bits<QB>>; ACK_QUEUE],
    q_seq: [DFF<Bits<32>>; ACK_QUEUE],
    q_snd: [DFF<Bits<32>>; ACK_QUEUE],
    q_nhop: [DFF<Bits<3>>; ACK_QUEUE],
    /// The hops, one array per hop (a field of an array element takes a literal index).
    q_h0: [DFF<IntHop>; ACK_QUEUE],
    q_h1: [DFF<IntHop>; ACK_QUEUE],
    q_h2: [DFF<IntHop>; ACK_QUEUE],
    q_h3: [DFF<IntHop>; ACK_QUEUE],
    q_h4: [DFF<IntHop>; ACK_QUEUE],
    /// The held command was taken before this entry's ACK.
    q_cb: [DFF<Bit>; ACK_QUEUE],
    /// The entry's QP was issued in the last 7 cycles.
    q_hist: [Signal<Local, Bit>; ACK_QUEUE],
    /// The entry may issue now.
    q_elig: [Signal<Local, Bit>; ACK_QUEUE],
    /// Some older entry may issue now.
    q_pre: [Signal<Local, Bit>; ACK_QUEUE],
    /// The entry is the ACK chosen (the oldest that may issue).
    q_take: [Signal<Local, Bit>; ACK_QUEUE],
    /// The ACK issued is this entry or an older one: the entry takes the next one's event.
    q_shift: [Signal<Local, Bit>; ACK_QUEUE],
    /// The entry is valid after this cycle's shift (before this cycle's load).
    q_post: [Signal<Local, Bit>; ACK_QUEUE],
    /// Some entry holds an ACK that may issue.
    a_elig: Signal<Local, Bit>,
    /// An ACK is taken at this edge.
    a_load: Signal<Local, Bit>,
    /// A command is taken at this edge.
    c_load: Signal<Local, Bit>,
    pc_v: DFF<Bit>,
    pc_qp: DFF<Bits<QB>>,
    pc_op: DFF<Bit>,
    // ---- issue ----
    /// QPs of the events issued in the last 7 cycles (index 0: the last).
    h_v: [DFF<Bit>; 7],
    h_qp: [DFF<Bits<QB>>; 7],
    blk_c: Signal<Local, Bit>,
    go_a: Signal<Local, Bit>,
    go_c: Signal<Local, Bit>,
    go_s: Signal<Local, Bit>,
    /// The commands have priority at the next choice between both.
    pref_c: DFF<Bit>,
    busy_q: DFF<Bit>,
    sweep: DFF<Bits<QB>>,
    sweep_last: Constant<Bits<QB>>,
    one_qb: Constant<Bits<QB>>,
    /// Reports owed: issued non-silent events whose report was not taken.
    owed: DFF<Bits<8>>,
    credits: Constant<Bits<8>>,
    one8: Constant<Bits<8>>,
    iss_qp: Signal<Local, Bits<QB>>,
    iss_v: Signal<Local, Bit>,
    // ---- edge 0: the issued event ----
    i_v: DFF<Bit>,
    i_qp: DFF<Bits<QB>>,
    i_fl: DFF<EvFlags>,
    i_seq: DFF<Bits<32>>,
    i_snd: DFF<Bits<32>>,
    i_nhop: DFF<Bits<3>>,
    i_hop: [DFF<IntHop>; HOPS],
    seq_ram: StateRam<SeqWord, QB>,
    l_ram: [StateRam<HopMem, QB>; HOPS],
    // ---- edge 1: the path word ----
    f1_v: DFF<Bit>,
    f1_qp: DFF<Bits<QB>>,
    f1_fl: DFF<EvFlags>,
    f1_seq: DFF<Bits<32>>,
    f1_snd: DFF<Bits<32>>,
    f1_nhop: DFF<Bits<3>>,
    f1_hop: [DFF<IntHop>; HOPS],
    f1_sw: DFF<SeqWord>,
    f1_l: [DFF<HopMem>; HOPS],
    // ---- edge 2: deltas and the path write ----
    new_path: Signal<Local, Bit>,
    commit: Signal<Local, Bit>,
    is_ack: Signal<Local, Bit>,
    hop_c: [Constant<Bits<3>>; HOPS],
    f2_v: DFF<Bit>,
    f2_qp: DFF<Bits<QB>>,
    f2_fl: DFF<EvFlags>,
    f2_hv: [DFF<Bit>; HOPS],
    f2_code: [DFF<Bits<3>>; HOPS],
    f2_tau: [DFF<Bits<24>>; HOPS],
    f2_dtx: [DFF<Bits<20>>; HOPS],
    f2_qmin: [DFF<Bits<17>>; HOPS],
    f2_we: DFF<Bit>,
    f2_sw: DFF<SeqWord>,
    f2_l: [DFF<HopMem>; HOPS],
    hop: [HopLoad; HOPS],
    tau_line: [DelayLine<Bits<24>, 4>; HOPS],
    // ---- edges 16 to 18: the most loaded hop ----
    m1_v: [DFF<Bit>; 3],
    m1_u: [DFF<Bits<U_W>>; 3],
    m1_t: [DFF<Bits<24>>; 3],
    m2_v: [DFF<Bit>; 2],
    m2_u: [DFF<Bits<U_W>>; 2],
    m2_t: [DFF<Bits<24>>; 2],
    m3_v: DFF<Bit>,
    m3_u: DFF<Bits<U_W>>,
    m3_t: DFF<Bits<24>>,
    weight: Weight,
    /// The kept hop's u and whether a hop was kept, from edge 18 to edge 23.
    u_line: DelayLine<Bits<U_W>, 3>,
    any_line: DelayLine<Bit, 3>,
    // ---- the event beside the pipeline ----
    /// valid from edge 2 to edge 23 (registers: reset clears them).
    va: [DFF<Bit>; 21],
    qp_a: DelayLine<Bits<QB>, 5>,
    fl_a: DelayLine<EvFlags, 5>,
    ue: UEwma<QB>,
    /// Flags from edge 23 to edge 38, and to edge 49.
    fl_b: DelayLine<EvFlags, 4>,
    fl_c: DelayLine<EvFlags, 4>,
    /// U' from edge 31 to edge 49.
    u_rep: DelayLine<Bits<U_W>, 5>,
    vb: [DFF<Bit>; 7],
    qp_b: DelayLine<Bits<QB>, 3>,
    eta_u: EtaOverU,
    rs: RateStep<QB>,
    op_ue: Signal<Local, Bits<2>>,
    op_rs: Signal<Local, Bits<2>>,
    /// The flags entering `fl_b`, with `kept`.
    fl_ab: Signal<Local, EvFlags>,
    effect_c: Signal<Local, Bits<2>>,
    eff_new_path: Constant<Bits<2>>,
    eff_no_hop: Constant<Bits<2>>,
    eff_update: Constant<Bits<2>>,
    kind_ack: Constant<Bits<2>>,
    kind_init: Constant<Bits<2>>,
    kind_query: Constant<Bits<2>>,
    op_keep: Constant<Bits<2>>,
    op_update: Constant<Bits<2>>,
    op_init: Constant<Bits<2>>,
    // ---- edges 47 to 49: the window; the report ----
    w_lo: DspMul<18, 18, 36>,
    w_hi: DspMul<10, 18, 28>,
    vc: [DFF<Bit>; 2],
    qp_c: [DFF<Bits<QB>>; 2],
    wd: [DFF<RateWord>; 2],
    ext_wlo: ZeroExt<36, 46>,
    ext_whi: ZeroExt<28, 46>,
    r48_p: DFF<Bits<46>>,
    w_sh: Signal<Local, Bits<46>>,
    /// RateStep's R (a field sliced again is a double slice in Verilog, which yosys refuses).
    r_out: Signal<Local, Bits<RATE_W>>,
    rep: DFF<HpccReport>,
    rep_v: DFF<Bit>,
    rep_qp: DFF<Bits<QB>>,
    win_max: Constant<Bits<WIN_W>>,
    // ---- report FIFO and output register ----
    fifo_rep: RAM<HpccReport, REP_FIFO_AW>,
    fifo_qp: RAM<Bits<QB>, REP_FIFO_AW>,
    wr_ptr: DFF<Bits<7>>,
    head: DFF<Bits<7>>,
    head_inc: DFF<Bits<7>>,
    head_next: Signal<Local, Bits<7>>,
    rd_valid_q: DFF<Bit>,
    o_valid: DFF<Bit>,
    o_qp: DFF<Bits<QB>>,
    o_rep: DFF<HpccReport>,
    o_free: Signal<Local, Bit>,
    o_pop: Signal<Local, Bit>,
    rd_adv: Signal<Local, Bit>,
    one7: Constant<Bits<7>>,
    acks: DFF<Bits<32>>,
    commits: DFF<Bits<32>>,
    one32: Constant<Bits<32>>,
    one: Constant<Bit>,
}

impl<const QB: usize> Default for HpccWindow<QB> {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            s_ack_valid: Default::default(),
            s_ack_ready: Default::default(),
            s_ack_qp: Default::default(),
            s_ack_seq: Default::default(),
            s_ack_snd_nxt: Default::default(),
            s_ack_nhop: Default::default(),
            s_ack_hop: Default::default(),
            s_cmd_valid: Default::default(),
            s_cmd_ready: Default::default(),
            s_cmd_qp: Default::default(),
            s_cmd_op: Default::default(),
            m_rep_valid: Default::default(),
            m_rep_ready: Default::default(),
            m_rep_qp: Default::default(),
            m_rep: Default::default(),
            cfg: Default::default(),
            cfg_k: Default::default(),
            busy: Default::default(),
            cnt_acks: Default::default(),
            cnt_commits: Default::default(),
            q_v: Default::default(),
            q_qp: Default::default(),
            q_seq: Default::default(),
            q_snd: Default::default(),
            q_nhop: Default::default(),
            q_h0: Default::default(),
            q_h1: Default::default(),
            q_h2: Default::default(),
            q_h3: Default::default(),
            q_h4: Default::default(),
            q_cb: Default::default(),
            q_hist: Default::default(),
            q_elig: Default::default(),
            q_pre: Default::default(),
            q_take: Default::default(),
            q_shift: Default::default(),
            q_post: Default::default(),
            a_elig: Default::default(),
            a_load: Default::default(),
            c_load: Default::default(),
            pc_v: Default::default(),
            pc_qp: Default::default(),
            pc_op: Default::default(),
            h_v: Default::default(),
            h_qp: Default::default(),
            blk_c: Default::default(),
            go_a: Default::default(),
            go_c: Default::default(),
            go_s: Default::default(),
            pref_c: Default::default(),
            busy_q: Default::default(),
            sweep: Default::default(),
            sweep_last: Constant::new(Bits::<QB>::mask()),
            one_qb: Constant::new(1.into()),
            owed: Default::default(),
            credits: Constant::new((REP_CREDITS as u64).into()),
            one8: Constant::new(1.into()),
            iss_qp: Default::default(),
            iss_v: Default::default(),
            i_v: Default::default(),
            i_qp: Default::default(),
            i_fl: Default::default(),
            i_seq: Default::default(),
            i_snd: Default::default(),
            i_nhop: Default::default(),
            i_hop: Default::default(),
            seq_ram: Default::default(),
            l_ram: Default::default(),
            f1_v: Default::default(),
            f1_qp: Default::default(),
            f1_fl: Default::default(),
            f1_seq: Default::default(),
            f1_snd: Default::default(),
            f1_nhop: Default::default(),
            f1_hop: Default::default(),
            f1_sw: Default::default(),
            f1_l: Default::default(),
            new_path: Default::default(),
            commit: Default::default(),
            is_ack: Default::default(),
            hop_c: std::array::from_fn(|i| Constant::new((i as u64).into())),
            f2_v: Default::default(),
            f2_qp: Default::default(),
            f2_fl: Default::default(),
            f2_hv: Default::default(),
            f2_code: Default::default(),
            f2_tau: Default::default(),
            f2_dtx: Default::default(),
            f2_qmin: Default::default(),
            f2_we: Default::default(),
            f2_sw: Default::default(),
            f2_l: Default::default(),
            hop: Default::default(),
            tau_line: std::array::from_fn(|_| DelayLine::new(HOP_STAGES)),
            m1_v: Default::default(),
            m1_u: Default::default(),
            m1_t: Default::default(),
            m2_v: Default::default(),
            m2_u: Default::default(),
            m2_t: Default::default(),
            m3_v: Default::default(),
            m3_u: Default::default(),
            m3_t: Default::default(),
            weight: Default::default(),
            u_line: DelayLine::new(WEIGHT_STAGES),
            any_line: DelayLine::new(WEIGHT_STAGES),
            va: Default::default(),
            qp_a: DelayLine::new(21),
            fl_a: DelayLine::new(21),
            ue: Default::default(),
            fl_b: DelayLine::new(U_STAGES + 7),
            fl_c: DelayLine::new(RATE_STAGES + 2),
            u_rep: DelayLine::new(7 + RATE_STAGES + 2),
            vb: Default::default(),
            qp_b: DelayLine::new(7),
            eta_u: Default::default(),
            rs: Default::default(),
            op_ue: Default::default(),
            op_rs: Default::default(),
            fl_ab: Default::default(),
            effect_c: Default::default(),
            eff_new_path: Constant::new(EFFECT_NEW_PATH.into()),
            eff_no_hop: Constant::new(EFFECT_NO_HOP.into()),
            eff_update: Constant::new(EFFECT_UPDATE.into()),
            kind_ack: Constant::new(KIND_ACK.into()),
            kind_init: Constant::new(KIND_INIT.into()),
            kind_query: Constant::new(KIND_QUERY.into()),
            op_keep: Constant::new(OP_KEEP.into()),
            op_update: Constant::new(OP_UPDATE.into()),
            op_init: Constant::new(OP_INIT.into()),
            w_lo: DspMul::new(),
            w_hi: DspMul::new(),
            vc: Default::default(),
            qp_c: Default::default(),
            wd: Default::default(),
            ext_wlo: Default::default(),
            ext_whi: Default::default(),
            r48_p: Default::default(),
            w_sh: Default::default(),
            r_out: Default::default(),
            rep: Default::default(),
            rep_v: Default::default(),
            rep_qp: Default::default(),
            win_max: Constant::new(Bits::<WIN_W>::mask()),
            fifo_rep: Default::default(),
            fifo_qp: Default::default(),
            wr_ptr: Default::default(),
            head: Default::default(),
            head_inc: Default::default(),
            head_next: Default::default(),
            rd_valid_q: Default::default(),
            o_valid: Default::default(),
            o_qp: Default::default(),
            o_rep: Default::default(),
            o_free: Default::default(),
            o_pop: Default::default(),
            rd_adv: Default::default(),
            one7: Constant::new(1.into()),
            acks: Default::default(),
            commits: Default::default(),
            one32: Constant::new(1.into()),
            one: Constant::new(true),
        }
    }
}

impl<const QB: usize> Logic for HpccWindow<QB> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, pc_v, pc_qp, pc_op, pref_c, busy_q, sweep, owed, i_v, i_qp, i_fl, i_seq,
            i_snd, i_nhop, f1_v, f1_qp, f1_fl, f1_seq, f1_snd, f1_nhop, f1_sw, f2_v, f2_qp, f2_fl,
            f2_we, f2_sw, m3_v, m3_u, m3_t, r48_p, rep, rep_v, rep_qp, wr_ptr, head, head_inc,
            rd_valid_q, o_valid, o_qp, o_rep, acks, commits
        );
        for i in 0..HOPS {
            self.i_hop[i].clock.next = self.clock.val();
            self.f1_hop[i].clock.next = self.clock.val();
            self.f1_l[i].clock.next = self.clock.val();
            self.f2_hv[i].clock.next = self.clock.val();
            self.f2_code[i].clock.next = self.clock.val();
            self.f2_tau[i].clock.next = self.clock.val();
            self.f2_dtx[i].clock.next = self.clock.val();
            self.f2_qmin[i].clock.next = self.clock.val();
            self.f2_l[i].clock.next = self.clock.val();
            self.l_ram[i].clock.next = self.clock.val();
            self.hop[i].clock.next = self.clock.val();
            self.tau_line[i].clock.next = self.clock.val();
            self.tau_line[i].en.next = self.one.val();
        }
        for i in 0..7 {
            self.h_v[i].clock.next = self.clock.val();
            self.h_qp[i].clock.next = self.clock.val();
            self.vb[i].clock.next = self.clock.val();
        }
        for i in 0..3 {
            self.m1_v[i].clock.next = self.clock.val();
            self.m1_u[i].clock.next = self.clock.val();
            self.m1_t[i].clock.next = self.clock.val();
        }
        for i in 0..2 {
            self.m2_v[i].clock.next = self.clock.val();
            self.m2_u[i].clock.next = self.clock.val();
            self.m2_t[i].clock.next = self.clock.val();
            self.vc[i].clock.next = self.clock.val();
            self.qp_c[i].clock.next = self.clock.val();
            self.wd[i].clock.next = self.clock.val();
        }
        for i in 0..21 {
            self.va[i].clock.next = self.clock.val();
        }
        self.seq_ram.clock.next = self.clock.val();
        self.weight.clock.next = self.clock.val();
        self.ue.clock.next = self.clock.val();
        self.eta_u.clock.next = self.clock.val();
        self.rs.clock.next = self.clock.val();
        self.w_lo.clock.next = self.clock.val();
        self.w_hi.clock.next = self.clock.val();
        self.w_lo.en.next = self.one.val();
        self.w_hi.en.next = self.one.val();
        self.u_line.clock.next = self.clock.val();
        self.any_line.clock.next = self.clock.val();
        self.qp_a.clock.next = self.clock.val();
        self.fl_a.clock.next = self.clock.val();
        self.fl_b.clock.next = self.clock.val();
        self.fl_c.clock.next = self.clock.val();
        self.u_rep.clock.next = self.clock.val();
        self.qp_b.clock.next = self.clock.val();
        self.u_line.en.next = self.one.val();
        self.any_line.en.next = self.one.val();
        self.qp_a.en.next = self.one.val();
        self.fl_a.en.next = self.one.val();
        self.fl_b.en.next = self.one.val();
        self.fl_c.en.next = self.one.val();
        self.u_rep.en.next = self.one.val();
        self.qp_b.en.next = self.one.val();
        self.fifo_rep.read_clock.next = self.clock.val();
        self.fifo_rep.write_clock.next = self.clock.val();
        self.fifo_qp.read_clock.next = self.clock.val();
        self.fifo_qp.write_clock.next = self.clock.val();
        self.ue.reset.next = self.reset.val();
        self.rs.reset.next = self.reset.val();

        // ---- the ACK queue and the issue: an event waits while its QP was issued in the
        // last 7 cycles; the oldest ACK that need not wait goes ----
        for e in 0..ACK_QUEUE {
            self.q_v[e].clock.next = self.clock.val();
            self.q_qp[e].clock.next = self.clock.val();
            self.q_seq[e].clock.next = self.clock.val();
            self.q_snd[e].clock.next = self.clock.val();
            self.q_nhop[e].clock.next = self.clock.val();
            self.q_h0[e].clock.next = self.clock.val();
            self.q_h1[e].clock.next = self.clock.val();
            self.q_h2[e].clock.next = self.clock.val();
            self.q_h3[e].clock.next = self.clock.val();
            self.q_h4[e].clock.next = self.clock.val();
            self.q_cb[e].clock.next = self.clock.val();
            self.q_v[e].d.next = self.q_v[e].q.val();
            self.q_qp[e].d.next = self.q_qp[e].q.val();
            self.q_seq[e].d.next = self.q_seq[e].q.val();
            self.q_snd[e].d.next = self.q_snd[e].q.val();
            self.q_nhop[e].d.next = self.q_nhop[e].q.val();
            self.q_h0[e].d.next = self.q_h0[e].q.val();
            self.q_h1[e].d.next = self.q_h1[e].q.val();
            self.q_h2[e].d.next = self.q_h2[e].q.val();
            self.q_h3[e].d.next = self.q_h3[e].q.val();
            self.q_h4[e].d.next = self.q_h4[e].q.val();
            self.q_cb[e].d.next = self.q_cb[e].q.val();
            self.q_hist[e].next = false;
            for k in 0..7 {
                if self.h_v[k].q.val() & (self.h_qp[k].q.val() == self.q_qp[e].q.val()) {
                    self.q_hist[e].next = true;
                }
            }
        }
        self.blk_c.next = false;
        for k in 0..7 {
            if self.h_v[k].q.val() & (self.h_qp[k].q.val() == self.pc_qp.q.val()) {
                self.blk_c.next = true;
            }
        }
        // An ACK and a command of one QP go in the order they were taken: the command waits
        // for the queued ACKs of its QP taken before it, an ACK for the held command if that
        // was taken first.
        for e in 0..ACK_QUEUE {
            if self.q_v[e].q.val()
                & !self.q_cb[e].q.val()
                & (self.q_qp[e].q.val() == self.pc_qp.q.val())
            {
                self.blk_c.next = true;
            }
        }
        for e in 0..ACK_QUEUE {
            self.q_elig[e].next = self.q_v[e].q.val()
                & !self.q_hist[e].val()
                & !(self.pc_v.q.val()
                    & self.q_cb[e].q.val()
                    & (self.pc_qp.q.val() == self.q_qp[e].q.val()));
        }
        self.q_pre[0].next = false;
        for e in 1..ACK_QUEUE {
            self.q_pre[e].next = self.q_pre[e - 1].val() | self.q_elig[e - 1].val();
        }
        for e in 0..ACK_QUEUE {
            self.q_take[e].next = self.q_elig[e].val() & !self.q_pre[e].val();
        }
        self.a_elig.next = self.q_pre[3].val() | self.q_elig[3].val();
        self.go_s.next = self.busy_q.q.val();
        self.go_c.next = !self.busy_q.q.val()
            & self.pc_v.q.val()
            & !self.blk_c.val()
            & (self.owed.q.val() < self.credits.val())
            & (self.pref_c.q.val() | !self.a_elig.val());
        self.go_a.next = !self.busy_q.q.val()
            & self.a_elig.val()
            & (self.owed.q.val() < self.credits.val())
            & !self.go_c.val();
        if self.go_c.val() {
            self.pref_c.d.next = false;
        }
        if self.go_a.val() {
            self.pref_c.d.next = true;
        }
        // The ACK queue takes an ACK while it has a free entry (a register: the last entry's
        // valid); the command register when empty or issued this cycle.
        self.s_ack_ready.next = !self.busy_q.q.val() & !self.q_v[3].q.val();
        self.s_cmd_ready.next = !self.busy_q.q.val() & (!self.pc_v.q.val() | self.go_c.val());
        self.a_load.next = self.s_ack_valid.val() & self.s_ack_ready.val();
        self.c_load.next = self.s_cmd_valid.val() & self.s_cmd_ready.val();
        // The issued entry leaves; the younger ones move one entry down; the ACK taken goes
        // to the first free entry after the move.
        self.q_shift[0].next = self.go_a.val() & self.q_take[0].val();
        for e in 1..ACK_QUEUE {
            self.q_shift[e].next =
                self.q_shift[e - 1].val() | (self.go_a.val() & self.q_take[e].val());
        }
        for e in 0..(ACK_QUEUE - 1) {
            self.q_post[e].next = self.q_v[e].q.val();
            if self.q_shift[e].val() {
                self.q_post[e].next = self.q_v[e + 1].q.val();
                self.q_v[e].d.next = self.q_v[e + 1].q.val();
                self.q_qp[e].d.next = self.q_qp[e + 1].q.val();
                self.q_seq[e].d.next = self.q_seq[e + 1].q.val();
                self.q_snd[e].d.next = self.q_snd[e + 1].q.val();
                self.q_nhop[e].d.next = self.q_nhop[e + 1].q.val();
                self.q_h0[e].d.next = self.q_h0[e + 1].q.val();
                self.q_h1[e].d.next = self.q_h1[e + 1].q.val();
                self.q_h2[e].d.next = self.q_h2[e + 1].q.val();
                self.q_h3[e].d.next = self.q_h3[e + 1].q.val();
                self.q_h4[e].d.next = self.q_h4[e + 1].q.val();
                self.q_cb[e].d.next = self.q_cb[e + 1].q.val();
            }
        }
        self.q_post[3].next = self.q_v[3].q.val() & !self.q_shift[3].val();
        if self.q_shift[3].val() {
            self.q_v[3].d.next = false;
        }
        if self.a_load.val() & !self.q_post[0].val() {
            self.q_v[0].d.next = true;
            self.q_qp[0].d.next = self.s_ack_qp.val();
            self.q_seq[0].d.next = self.s_ack_seq.val();
            self.q_snd[0].d.next = self.s_ack_snd_nxt.val();
            self.q_nhop[0].d.next = self.s_ack_nhop.val();
            self.q_h0[0].d.next = self.s_ack_hop[0].val();
            self.q_h1[0].d.next = self.s_ack_hop[1].val();
            self.q_h2[0].d.next = self.s_ack_hop[2].val();
            self.q_h3[0].d.next = self.s_ack_hop[3].val();
            self.q_h4[0].d.next = self.s_ack_hop[4].val();
            self.q_cb[0].d.next = self.pc_v.q.val() & !self.go_c.val();
        }
        for e in 1..ACK_QUEUE {
            if self.a_load.val() & !self.q_post[e].val() & self.q_post[e - 1].val() {
                self.q_v[e].d.next = true;
                self.q_qp[e].d.next = self.s_ack_qp.val();
                self.q_seq[e].d.next = self.s_ack_seq.val();
                self.q_snd[e].d.next = self.s_ack_snd_nxt.val();
                self.q_nhop[e].d.next = self.s_ack_nhop.val();
                self.q_h0[e].d.next = self.s_ack_hop[0].val();
                self.q_h1[e].d.next = self.s_ack_hop[1].val();
                self.q_h2[e].d.next = self.s_ack_hop[2].val();
                self.q_h3[e].d.next = self.s_ack_hop[3].val();
                self.q_h4[e].d.next = self.s_ack_hop[4].val();
                self.q_cb[e].d.next = self.pc_v.q.val() & !self.go_c.val();
            }
        }
        // A command taken now is younger than every queued ACK (and than one taken at this
        // edge).
        if self.c_load.val() {
            for e in 0..ACK_QUEUE {
                self.q_cb[e].d.next = false;
            }
        }
        if self.go_c.val() {
            self.pc_v.d.next = false;
        }
        if self.c_load.val() {
            self.pc_v.d.next = true;
            self.pc_qp.d.next = self.s_cmd_qp.val();
            self.pc_op.d.next = self.s_cmd_op.val();
        }
        // The issued event (edge 0) and the path RAM read.
        self.iss_qp.next = self.q_qp[0].q.val();
        for e in 1..ACK_QUEUE {
            if self.q_take[e].val() {
                self.iss_qp.next = self.q_qp[e].q.val();
            }
        }
        if self.go_c.val() {
            self.iss_qp.next = self.pc_qp.q.val();
        }
        if self.go_s.val() {
            self.iss_qp.next = self.sweep.q.val();
        }
        self.seq_ram.read_address.next = self.iss_qp.val();
        for i in 0..HOPS {
            self.l_ram[i].read_address.next = self.iss_qp.val();
        }
        self.iss_v.next = self.go_a.val() | self.go_c.val() | self.go_s.val();
        self.i_v.d.next = self.iss_v.val();
        self.i_qp.d.next = self.iss_qp.val();
        self.i_fl.d.next.kind = self.kind_ack.val();
        self.i_fl.d.next.silent = self.go_s.val();
        self.i_fl.d.next.new_path = false;
        self.i_fl.d.next.commit = false;
        self.i_fl.d.next.kept = false;
        if self.go_s.val() | (self.go_c.val() & !self.pc_op.q.val()) {
            self.i_fl.d.next.kind = self.kind_init.val();
        }
        if self.go_c.val() & self.pc_op.q.val() {
            self.i_fl.d.next.kind = self.kind_query.val();
        }
        self.i_seq.d.next = self.q_seq[0].q.val();
        self.i_snd.d.next = self.q_snd[0].q.val();
        self.i_nhop.d.next = self.q_nhop[0].q.val();
        self.i_hop[0].d.next = self.q_h0[0].q.val();
        self.i_hop[1].d.next = self.q_h1[0].q.val();
        self.i_hop[2].d.next = self.q_h2[0].q.val();
        self.i_hop[3].d.next = self.q_h3[0].q.val();
        self.i_hop[4].d.next = self.q_h4[0].q.val();
        for e in 1..ACK_QUEUE {
            if self.q_take[e].val() {
                self.i_seq.d.next = self.q_seq[e].q.val();
                self.i_snd.d.next = self.q_snd[e].q.val();
                self.i_nhop.d.next = self.q_nhop[e].q.val();
                self.i_hop[0].d.next = self.q_h0[e].q.val();
                self.i_hop[1].d.next = self.q_h1[e].q.val();
                self.i_hop[2].d.next = self.q_h2[e].q.val();
                self.i_hop[3].d.next = self.q_h3[e].q.val();
                self.i_hop[4].d.next = self.q_h4[e].q.val();
            }
        }
        self.h_v[0].d.next = self.iss_v.val();
        self.h_qp[0].d.next = self.iss_qp.val();
        for k in 1..7 {
            self.h_v[k].d.next = self.h_v[k - 1].q.val();
            self.h_qp[k].d.next = self.h_qp[k - 1].q.val();
        }
        if self.go_s.val() {
            self.sweep.d.next = self.sweep.q.val() + self.one_qb.val();
            if self.sweep.q.val() == self.sweep_last.val() {
                self.busy_q.d.next = false;
            }
        }
        self.busy.next = self.busy_q.q.val();

        // ---- edge 1: the path word ----
        self.f1_v.d.next = self.i_v.q.val();
        self.f1_qp.d.next = self.i_qp.q.val();
        self.f1_fl.d.next = self.i_fl.q.val();
        self.f1_seq.d.next = self.i_seq.q.val();
        self.f1_snd.d.next = self.i_snd.q.val();
        self.f1_nhop.d.next = self.i_nhop.q.val();
        self.f1_sw.d.next = self.seq_ram.read_data.val();
        for i in 0..HOPS {
            self.f1_hop[i].d.next = self.i_hop[i].q.val();
            self.f1_l[i].d.next = self.l_ram[i].read_data.val();
        }

        // ---- edge 2: new path, commit, the deltas; the new path word ----
        self.is_ack.next = self.f1_v.q.val() & (self.f1_fl.q.val().kind == self.kind_ack.val());
        self.new_path.next =
            !self.f1_sw.q.val().last_seq.any() | (self.f1_sw.q.val().nhop != self.f1_nhop.q.val());
        self.commit.next = self.is_ack.val()
            & !self.new_path.val()
            & (self.f1_seq.q.val() > self.f1_sw.q.val().last_seq);
        self.f2_v.d.next = self.f1_v.q.val();
        self.f2_qp.d.next = self.f1_qp.q.val();
        self.f2_fl.d.next = self.f1_fl.q.val();
        self.f2_fl.d.next.new_path = self.is_ack.val() & self.new_path.val();
        self.f2_fl.d.next.commit = self.commit.val();
        // (Unrolled: rust-hdl's generator takes a field of an array element only at a
        // literal index.)
        self.f2_hv[0].d.next =
            self.is_ack.val() & !self.new_path.val() & (self.hop_c[0].val() < self.f1_nhop.q.val());
        self.f2_code[0].d.next = self.f1_hop[0].q.val().rate;
        self.f2_tau[0].d.next = self.f1_hop[0].q.val().ts - self.f1_l[0].q.val().ts;
        self.f2_dtx[0].d.next = self.f1_hop[0].q.val().tx - self.f1_l[0].q.val().tx;
        self.f2_qmin[0].d.next = self.f1_hop[0].q.val().qlen;
        if self.f1_l[0].q.val().qlen < self.f1_hop[0].q.val().qlen {
            self.f2_qmin[0].d.next = self.f1_l[0].q.val().qlen;
        }
        self.f2_l[0].d.next.ts = self.f1_hop[0].q.val().ts;
        self.f2_l[0].d.next.tx = self.f1_hop[0].q.val().tx;
        self.f2_l[0].d.next.qlen = self.f1_hop[0].q.val().qlen;
        self.f2_hv[1].d.next =
            self.is_ack.val() & !self.new_path.val() & (self.hop_c[1].val() < self.f1_nhop.q.val());
        self.f2_code[1].d.next = self.f1_hop[1].q.val().rate;
        self.f2_tau[1].d.next = self.f1_hop[1].q.val().ts - self.f1_l[1].q.val().ts;
        self.f2_dtx[1].d.next = self.f1_hop[1].q.val().tx - self.f1_l[1].q.val().tx;
        self.f2_qmin[1].d.next = self.f1_hop[1].q.val().qlen;
        if self.f1_l[1].q.val().qlen < self.f1_hop[1].q.val().qlen {
            self.f2_qmin[1].d.next = self.f1_l[1].q.val().qlen;
        }
        self.f2_l[1].d.next.ts = self.f1_hop[1].q.val().ts;
        self.f2_l[1].d.next.tx = self.f1_hop[1].q.val().tx;
        self.f2_l[1].d.next.qlen = self.f1_hop[1].q.val().qlen;
        self.f2_hv[2].d.next =
            self.is_ack.val() & !self.new_path.val() & (self.hop_c[2].val() < self.f1_nhop.q.val());
        self.f2_code[2].d.next = self.f1_hop[2].q.val().rate;
        self.f2_tau[2].d.next = self.f1_hop[2].q.val().ts - self.f1_l[2].q.val().ts;
        self.f2_dtx[2].d.next = self.f1_hop[2].q.val().tx - self.f1_l[2].q.val().tx;
        self.f2_qmin[2].d.next = self.f1_hop[2].q.val().qlen;
        if self.f1_l[2].q.val().qlen < self.f1_hop[2].q.val().qlen {
            self.f2_qmin[2].d.next = self.f1_l[2].q.val().qlen;
        }
        self.f2_l[2].d.next.ts = self.f1_hop[2].q.val().ts;
        self.f2_l[2].d.next.tx = self.f1_hop[2].q.val().tx;
        self.f2_l[2].d.next.qlen = self.f1_hop[2].q.val().qlen;
        self.f2_hv[3].d.next =
            self.is_ack.val() & !self.new_path.val() & (self.hop_c[3].val() < self.f1_nhop.q.val());
        self.f2_code[3].d.next = self.f1_hop[3].q.val().rate;
        self.f2_tau[3].d.next = self.f1_hop[3].q.val().ts - self.f1_l[3].q.val().ts;
        self.f2_dtx[3].d.next = self.f1_hop[3].q.val().tx - self.f1_l[3].q.val().tx;
        self.f2_qmin[3].d.next = self.f1_hop[3].q.val().qlen;
        if self.f1_l[3].q.val().qlen < self.f1_hop[3].q.val().qlen {
            self.f2_qmin[3].d.next = self.f1_l[3].q.val().qlen;
        }
        self.f2_l[3].d.next.ts = self.f1_hop[3].q.val().ts;
        self.f2_l[3].d.next.tx = self.f1_hop[3].q.val().tx;
        self.f2_l[3].d.next.qlen = self.f1_hop[3].q.val().qlen;
        self.f2_hv[4].d.next =
            self.is_ack.val() & !self.new_path.val() & (self.hop_c[4].val() < self.f1_nhop.q.val());
        self.f2_code[4].d.next = self.f1_hop[4].q.val().rate;
        self.f2_tau[4].d.next = self.f1_hop[4].q.val().ts - self.f1_l[4].q.val().ts;
        self.f2_dtx[4].d.next = self.f1_hop[4].q.val().tx - self.f1_l[4].q.val().tx;
        self.f2_qmin[4].d.next = self.f1_hop[4].q.val().qlen;
        if self.f1_l[4].q.val().qlen < self.f1_hop[4].q.val().qlen {
            self.f2_qmin[4].d.next = self.f1_l[4].q.val().qlen;
        }
        self.f2_l[4].d.next.ts = self.f1_hop[4].q.val().ts;
        self.f2_l[4].d.next.tx = self.f1_hop[4].q.val().tx;
        self.f2_l[4].d.next.qlen = self.f1_hop[4].q.val().qlen;
        // The path word: an ACK writes L, the hop count and (new path or commit) the seq;
        // an init writes zeros; a query writes nothing.
        self.f2_we.d.next = self.f1_v.q.val() & (self.f1_fl.q.val().kind != self.kind_query.val());
        self.f2_sw.d.next.nhop = self.f1_nhop.q.val();
        self.f2_sw.d.next.last_seq = self.f1_sw.q.val().last_seq;
        if self.new_path.val() | self.commit.val() {
            self.f2_sw.d.next.last_seq = self.f1_snd.q.val();
        }
        if !self.is_ack.val() {
            self.f2_sw.d.next.nhop = 0.into();
            self.f2_sw.d.next.last_seq = 0.into();
            self.f2_l[0].d.next.ts = 0.into();
            self.f2_l[0].d.next.tx = 0.into();
            self.f2_l[0].d.next.qlen = 0.into();
            self.f2_l[1].d.next.ts = 0.into();
            self.f2_l[1].d.next.tx = 0.into();
            self.f2_l[1].d.next.qlen = 0.into();
            self.f2_l[2].d.next.ts = 0.into();
            self.f2_l[2].d.next.tx = 0.into();
            self.f2_l[2].d.next.qlen = 0.into();
            self.f2_l[3].d.next.ts = 0.into();
            self.f2_l[3].d.next.tx = 0.into();
            self.f2_l[3].d.next.qlen = 0.into();
            self.f2_l[4].d.next.ts = 0.into();
            self.f2_l[4].d.next.tx = 0.into();
            self.f2_l[4].d.next.qlen = 0.into();
        }
        self.seq_ram.write_enable.next = self.f2_we.q.val();
        self.seq_ram.write_address.next = self.f2_qp.q.val();
        self.seq_ram.write_data.next = self.f2_sw.q.val();
        for i in 0..HOPS {
            self.l_ram[i].write_enable.next = self.f2_we.q.val();
            self.l_ram[i].write_address.next = self.f2_qp.q.val();
            self.l_ram[i].write_data.next = self.f2_l[i].q.val();
        }

        // ---- edges 3 to 15: each hop's load ----
        for i in 0..HOPS {
            self.hop[i].valid.next = self.f2_hv[i].q.val();
            self.hop[i].code.next = self.f2_code[i].q.val();
            self.hop[i].tau.next = self.f2_tau[i].q.val();
            self.hop[i].dtx.next = self.f2_dtx[i].q.val();
            self.hop[i].qmin.next = self.f2_qmin[i].q.val();
            self.tau_line[i].d.next = self.f2_tau[i].q.val();
            self.hop[i].k.next = self.cfg_k.val();
        }

        // ---- edges 16 to 18: the most loaded hop, the first of equals ----
        self.m1_v[0].d.next = self.hop[1].u_valid.val();
        self.m1_u[0].d.next = self.hop[1].u.val();
        self.m1_t[0].d.next = self.tau_line[1].q.val();
        if self.hop[0].u_valid.val()
            & (!self.hop[1].u_valid.val() | !(self.hop[0].u.val() < self.hop[1].u.val()))
        {
            self.m1_v[0].d.next = true;
            self.m1_u[0].d.next = self.hop[0].u.val();
            self.m1_t[0].d.next = self.tau_line[0].q.val();
        }
        self.m1_v[1].d.next = self.hop[3].u_valid.val();
        self.m1_u[1].d.next = self.hop[3].u.val();
        self.m1_t[1].d.next = self.tau_line[3].q.val();
        if self.hop[2].u_valid.val()
            & (!self.hop[3].u_valid.val() | !(self.hop[2].u.val() < self.hop[3].u.val()))
        {
            self.m1_v[1].d.next = true;
            self.m1_u[1].d.next = self.hop[2].u.val();
            self.m1_t[1].d.next = self.tau_line[2].q.val();
        }
        self.m1_v[2].d.next = self.hop[4].u_valid.val();
        self.m1_u[2].d.next = self.hop[4].u.val();
        self.m1_t[2].d.next = self.tau_line[4].q.val();
        self.m2_v[0].d.next = self.m1_v[1].q.val();
        self.m2_u[0].d.next = self.m1_u[1].q.val();
        self.m2_t[0].d.next = self.m1_t[1].q.val();
        if self.m1_v[0].q.val()
            & (!self.m1_v[1].q.val() | !(self.m1_u[0].q.val() < self.m1_u[1].q.val()))
        {
            self.m2_v[0].d.next = true;
            self.m2_u[0].d.next = self.m1_u[0].q.val();
            self.m2_t[0].d.next = self.m1_t[0].q.val();
        }
        self.m2_v[1].d.next = self.m1_v[2].q.val();
        self.m2_u[1].d.next = self.m1_u[2].q.val();
        self.m2_t[1].d.next = self.m1_t[2].q.val();
        self.m3_v.d.next = self.m2_v[1].q.val();
        self.m3_u.d.next = self.m2_u[1].q.val();
        self.m3_t.d.next = self.m2_t[1].q.val();
        if self.m2_v[0].q.val()
            & (!self.m2_v[1].q.val() | !(self.m2_u[0].q.val() < self.m2_u[1].q.val()))
        {
            self.m3_v.d.next = true;
            self.m3_u.d.next = self.m2_u[0].q.val();
            self.m3_t.d.next = self.m2_t[0].q.val();
        }

        // ---- edges 19 to 23: the weight; the event beside it ----
        self.weight.tau.next = self.m3_t.q.val();
        self.weight.t_ns.next = self.cfg.val().t_ns;
        self.weight.inv_m.next = self.cfg.val().inv_m;
        self.weight.ws_base.next = self.cfg.val().ws_base;
        self.u_line.d.next = self.m3_u.q.val();
        self.any_line.d.next = self.m3_v.q.val();
        self.va[0].d.next = self.f2_v.q.val();
        for i in 1..21 {
            self.va[i].d.next = self.va[i - 1].q.val();
        }
        self.qp_a.d.next = self.f2_qp.q.val();
        self.fl_a.d.next = self.f2_fl.q.val();

        // ---- edges 24 to 31: U ----
        self.op_ue.next = self.op_keep.val();
        if (self.fl_a.q.val().kind == self.kind_ack.val()) & self.any_line.q.val() {
            self.op_ue.next = self.op_update.val();
        }
        if self.fl_a.q.val().kind == self.kind_init.val() {
            self.op_ue.next = self.op_init.val();
        }
        self.ue.in_valid.next = self.va[20].q.val();
        self.ue.in_qp.next = self.qp_a.q.val();
        self.ue.in_op.next = self.op_ue.val();
        self.ue.in_u.next = self.u_line.q.val();
        self.ue.in_wm.next = self.weight.wm.val();
        self.ue.in_ws.next = self.weight.ws.val();
        self.ue.in_big.next = self.weight.big.val();
        self.fl_ab.next = self.fl_a.q.val();
        self.fl_ab.next.kept =
            (self.fl_a.q.val().kind == self.kind_ack.val()) & self.any_line.q.val();
        self.fl_b.d.next = self.fl_ab.val();

        // ---- edges 32 to 38: eta / U'; 39 to 46: the rates ----
        self.eta_u.u.next = self.ue.out_u.val();
        self.eta_u.eta.next = self.cfg.val().eta;
        self.u_rep.d.next = self.ue.out_u.val();
        self.vb[0].d.next = self.ue.out_valid.val();
        for i in 1..7 {
            self.vb[i].d.next = self.vb[i - 1].q.val();
        }
        self.qp_b.d.next = self.ue.out_qp.val();
        self.op_rs.next = self.op_keep.val();
        if self.fl_b.q.val().kind == self.kind_init.val() {
            self.op_rs.next = self.op_init.val();
        }
        if self.fl_b.q.val().kept {
            self.op_rs.next = self.op_update.val();
        }
        self.rs.in_valid.next = self.vb[6].q.val();
        self.rs.in_qp.next = self.qp_b.q.val();
        self.rs.in_op.next = self.op_rs.val();
        self.rs.in_commit.next = self.fl_b.q.val().commit;
        self.rs.in_ey.next = self.eta_u.ey.val();
        self.rs.in_sh.next = self.eta_u.sh.val();
        self.rs.in_k_ge_1.next = self.eta_u.k_ge_1.val();
        self.rs.in_u_zero.next = self.eta_u.zero.val();
        self.rs.ai.next = self.cfg.val().ai;
        self.rs.min_rate.next = self.cfg.val().min_rate;
        self.rs.max_rate.next = self.cfg.val().max_rate;
        self.rs.max_stage.next = self.cfg.val().max_stage;
        self.fl_c.d.next = self.fl_b.q.val();

        // ---- edges 47 to 49: the window, the report ----
        self.r_out.next = self.rs.out_word.val().r;
        self.w_lo.a.next = self.r_out.val().get_bits::<18>(0);
        self.w_lo.b.next = self.cfg.val().win_m;
        self.w_hi.a.next = self.r_out.val().get_bits::<10>(18);
        self.w_hi.b.next = self.cfg.val().win_m;
        self.vc[0].d.next = self.rs.out_valid.val();
        self.qp_c[0].d.next = self.rs.out_qp.val();
        self.wd[0].d.next = self.rs.out_word.val();
        self.vc[1].d.next = self.vc[0].q.val();
        self.qp_c[1].d.next = self.qp_c[0].q.val();
        self.wd[1].d.next = self.wd[0].q.val();
        self.ext_wlo.i.next = self.w_lo.p.val();
        self.ext_whi.i.next = self.w_hi.p.val();
        self.r48_p.d.next = self.ext_wlo.o.val() + (self.ext_whi.o.val() << 18);
        self.w_sh.next = self.r48_p.q.val() >> self.cfg.val().win_sh;
        self.rep_v.d.next = self.vc[1].q.val() & !self.fl_c.q.val().silent;
        self.rep_qp.d.next = self.qp_c[1].q.val();
        self.rep.d.next.kind = self.fl_c.q.val().kind;
        self.effect_c.next = self.eff_no_hop.val();
        if self.fl_c.q.val().kept {
            self.effect_c.next = self.eff_update.val();
        }
        if self.fl_c.q.val().new_path {
            self.effect_c.next = self.eff_new_path.val();
        }
        self.rep.d.next.effect = self.effect_c.val();
        self.rep.d.next.commit = self.fl_c.q.val().commit;
        self.rep.d.next.r = self.wd[1].q.val().r;
        self.rep.d.next.rc = self.wd[1].q.val().rc;
        self.rep.d.next.stage = self.wd[1].q.val().stage;
        self.rep.d.next.u = self.u_rep.q.val();
        self.rep.d.next.window = self.w_sh.val().get_bits::<WIN_W>(0);
        if self.w_sh.val().get_bits::<14>(32).any() {
            self.rep.d.next.window = self.win_max.val();
        }

        // ---- report FIFO: written at wr_ptr; its read register holds the report at
        // `head` once it was written an edge before; the output register loads it when it
        // is empty or taken ----
        self.fifo_rep.write_enable.next = self.rep_v.q.val();
        self.fifo_qp.write_enable.next = self.rep_v.q.val();
        self.fifo_rep.write_address.next = self.wr_ptr.q.val().get_bits::<REP_FIFO_AW>(0);
        self.fifo_qp.write_address.next = self.wr_ptr.q.val().get_bits::<REP_FIFO_AW>(0);
        self.fifo_rep.write_data.next = self.rep.q.val();
        self.fifo_qp.write_data.next = self.rep_qp.q.val();
        if self.rep_v.q.val() {
            self.wr_ptr.d.next = self.wr_ptr.q.val() + self.one7.val();
        }
        self.o_free.next = !self.o_valid.q.val() | self.m_rep_ready.val();
        self.o_pop.next = self.o_valid.q.val() & self.m_rep_ready.val();
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
            self.head_inc.d.next = self.head_inc.q.val() + self.one7.val();
            self.rd_valid_q.d.next = self.head_inc.q.val() != self.wr_ptr.q.val();
        }
        self.head.d.next = self.head_next.val();
        self.fifo_rep.read_address.next = self.head_next.val().get_bits::<REP_FIFO_AW>(0);
        self.fifo_qp.read_address.next = self.head_next.val().get_bits::<REP_FIFO_AW>(0);
        self.m_rep_valid.next = self.o_valid.q.val();
        self.m_rep_qp.next = self.o_qp.q.val();
        self.m_rep.next = self.o_rep.q.val();
        // Reports owed: +1 for a reporting event issued, -1 for a report taken.
        if (self.go_a.val() | self.go_c.val()) & !self.o_pop.val() {
            self.owed.d.next = self.owed.q.val() + self.one8.val();
        }
        if !(self.go_a.val() | self.go_c.val()) & self.o_pop.val() {
            self.owed.d.next = self.owed.q.val() - self.one8.val();
        }
        // Counters, at the report.
        if self.rep_v.q.val() & (self.rep.q.val().kind == self.kind_ack.val()) {
            self.acks.d.next = self.acks.q.val() + self.one32.val();
            if self.rep.q.val().commit {
                self.commits.d.next = self.commits.q.val() + self.one32.val();
            }
        }
        self.cnt_acks.next = self.acks.q.val();
        self.cnt_commits.next = self.commits.q.val();

        if self.reset.val() {
            for e in 0..ACK_QUEUE {
                self.q_v[e].d.next = false;
            }
            self.pc_v.d.next = false;
            self.pref_c.d.next = false;
            self.busy_q.d.next = true;
            self.sweep.d.next = 0.into();
            self.owed.d.next = 0.into();
            self.i_v.d.next = false;
            self.f1_v.d.next = false;
            self.f2_v.d.next = false;
            self.f2_we.d.next = false;
            for k in 0..7 {
                self.h_v[k].d.next = false;
                self.vb[k].d.next = false;
            }
            for i in 0..21 {
                self.va[i].d.next = false;
            }
            for i in 0..2 {
                self.vc[i].d.next = false;
            }
            self.rep_v.d.next = false;
            self.wr_ptr.d.next = 0.into();
            self.head.d.next = 0.into();
            self.head_inc.d.next = 1.into();
            self.rd_valid_q.d.next = false;
            self.o_valid.d.next = false;
            self.acks.d.next = 0.into();
            self.commits.d.next = 0.into();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `x` as a mantissa of 18 bits and its power of two (`x ~ m * 2^e`).
    fn scaled(x: f64) -> (u64, i32) {
        let e = x.log2().floor() as i32 - 17;
        let m = (x * 2f64.powi(-e)).round() as u64;
        if m == 1 << 18 {
            (1 << 17, e + 1)
        } else {
            (m, e)
        }
    }

    const GBPS: [f64; 8] = [25.0, 50.0, 100.0, 200.0, 400.0, 800.0, 10.0, 40.0];

    /// hpcc.md's defaults at 100 Gb/s, T = 8 us, in the unit's form (rounded here in f64:
    /// this test checks the wiring and the behaviour's shape, not the bits; the lock-step
    /// tests against the golden model check the bits).
    fn configure(w: &mut HpccWindow<4>) {
        let t = 8000.0;
        let (inv_m, inv_e) = scaled(1.0 / t);
        let (win_m, win_e) = scaled(t / 2_048_000.0);
        w.cfg.next = HpccCfgWord {
            t_ns: 8000.into(),
            inv_m: inv_m.into(),
            ws_base: ((17 - inv_e) as u64).into(),
            eta: 973.into(),
            max_stage: 0.into(),
            ai: (40u64 << 8).into(),
            min_rate: (1000u64 << 8).into(),
            max_rate: (100_000u64 << 8).into(),
            win_m: win_m.into(),
            win_sh: ((-win_e) as u64).into(),
        };
        let tx: Vec<(u64, i32)> = GBPS
            .iter()
            .map(|b| scaled(1024.0 / b * 2f64.powi(-16)))
            .collect();
        let q: Vec<(u64, i32)> = GBPS
            .iter()
            .map(|b| scaled(640.0 / (b * t) * 2f64.powi(24)))
            .collect();
        w.cfg_k.next = CodeConsts {
            ktx_m0: tx[0].0.into(),
            ktx_sh0: ((2 - tx[0].1) as u64).into(),
            kq_m0: q[0].0.into(),
            kq_sh0: ((9 - q[0].1) as u64).into(),
            ktx_m1: tx[1].0.into(),
            ktx_sh1: ((2 - tx[1].1) as u64).into(),
            kq_m1: q[1].0.into(),
            kq_sh1: ((9 - q[1].1) as u64).into(),
            ktx_m2: tx[2].0.into(),
            ktx_sh2: ((2 - tx[2].1) as u64).into(),
            kq_m2: q[2].0.into(),
            kq_sh2: ((9 - q[2].1) as u64).into(),
            ktx_m3: tx[3].0.into(),
            ktx_sh3: ((2 - tx[3].1) as u64).into(),
            kq_m3: q[3].0.into(),
            kq_sh3: ((9 - q[3].1) as u64).into(),
            ktx_m4: tx[4].0.into(),
            ktx_sh4: ((2 - tx[4].1) as u64).into(),
            kq_m4: q[4].0.into(),
            kq_sh4: ((9 - q[4].1) as u64).into(),
            ktx_m5: tx[5].0.into(),
            ktx_sh5: ((2 - tx[5].1) as u64).into(),
            kq_m5: q[5].0.into(),
            kq_sh5: ((9 - q[5].1) as u64).into(),
            ktx_m6: tx[6].0.into(),
            ktx_sh6: ((2 - tx[6].1) as u64).into(),
            kq_m6: q[6].0.into(),
            kq_sh6: ((9 - q[6].1) as u64).into(),
            ktx_m7: tx[7].0.into(),
            ktx_sh7: ((2 - tx[7].1) as u64).into(),
            kq_m7: q[7].0.into(),
            kq_sh7: ((9 - q[7].1) as u64).into(),
        };
    }

    fn edge(w: &mut HpccWindow<4>) {
        w.clock.next = Clock { clk: false };
        assert!(simulate(w, 2000));
        w.clock.next = Clock { clk: true };
        assert!(simulate(w, 2000));
    }

    fn hop(ts: u64, tx: u64, qlen: u64) -> IntHop {
        IntHop {
            rate: 2.into(),
            ts: ts.into(),
            tx: tx.into(),
            qlen: qlen.into(),
        }
    }

    /// An ACK's fields: QP, seq, snd_nxt, hops.
    type AckIn = (u64, u64, u64, Vec<IntHop>);

    /// Offers `acks` in order (each held until taken) and `queries` after them, with the
    /// report output always ready; returns the reports in order and the cycles each ACK
    /// was taken at.
    fn run(
        w: &mut HpccWindow<4>,
        acks: &[AckIn],
        queries: &[u64],
    ) -> (Vec<(u64, HpccReport)>, Vec<usize>) {
        let (mut ai, mut qi) = (0, 0);
        let (mut reps, mut taken) = (Vec::new(), Vec::new());
        let want = acks.len() + queries.len();
        for cycle in 0..20_000 {
            w.s_ack_valid.next = ai < acks.len();
            if let Some((qp, seq, snd, hops)) = acks.get(ai) {
                w.s_ack_qp.next = (*qp).into();
                w.s_ack_seq.next = (*seq).into();
                w.s_ack_snd_nxt.next = (*snd).into();
                w.s_ack_nhop.next = (hops.len() as u64).into();
                for i in 0..HOPS {
                    w.s_ack_hop[i].next = hops.get(i).copied().unwrap_or_default();
                }
            }
            w.s_cmd_valid.next = ai == acks.len() && qi < queries.len();
            w.s_cmd_qp.next = queries.get(qi).copied().unwrap_or(0).into();
            w.s_cmd_op.next = true;
            w.m_rep_ready.next = true;
            assert!(simulate(w, 2000));
            let (a_go, c_go) = (
                w.s_ack_valid.val() && w.s_ack_ready.val(),
                w.s_cmd_valid.val() && w.s_cmd_ready.val(),
            );
            if w.m_rep_valid.val() {
                reps.push((w.m_rep_qp.val().to_u64(), w.m_rep.val()));
            }
            edge(w);
            if a_go {
                ai += 1;
                taken.push(cycle);
            }
            qi += c_go as usize;
            if reps.len() == want {
                break;
            }
        }
        assert_eq!(reps.len(), want, "reports");
        (reps, taken)
    }

    fn fresh() -> HpccWindow<4> {
        let mut w = HpccWindow::<4>::default();
        configure(&mut w);
        w.connect_all();
        w.reset.next = true;
        edge(&mut w);
        w.reset.next = false;
        for _ in 0..20 {
            edge(&mut w);
        }
        assert!(!w.busy.val(), "the sweep takes 16 cycles");
        w
    }

    #[test]
    fn sweep_then_query_reports_the_initial_state() {
        let mut w = fresh();
        let (reps, _) = run(&mut w, &[], &[3, 15]);
        for (k, &(qp, r)) in reps.iter().enumerate() {
            assert_eq!(qp, [3, 15][k]);
            assert_eq!(r.kind.to_u64(), KIND_QUERY);
            assert_eq!(r.r.to_u64(), 100_000 << 8);
            assert_eq!(r.rc.to_u64(), 100_000 << 8);
            assert_eq!(r.u.to_u64(), 1 << 24);
            assert_eq!(
                r.window.to_u64(),
                100_000,
                "R * T / 8000 bytes at 100 Gb/s, 8 us"
            );
        }
    }

    #[test]
    fn a_loaded_hop_cuts_the_rate_and_commits() {
        let mut w = fresh();
        // QP 3 over two hops: the first at half its rate with a queue of 80 000 bytes
        // (u = 0.5 + 0.8 = 1.3), the second idle. Second ACK: tau = 1000 ns, w = 1/8,
        // U = 7/8 + 1.3/8 = 1.0375, k = U / 0.95, R = Rc / k + 40 Mb/s, committed.
        let a1 = (3, 100, 1000, vec![hop(5000, 7, 1000), hop(9000, 100, 0)]);
        let a2 = (
            3,
            1100,
            2000,
            vec![hop(6000, 7 + 49, 1000), hop(10_000, 100, 0)],
        );
        // An ACK of the same round trip (seq <= last_update_seq): R moves, Rc stays.
        let a3 = (
            3,
            1500,
            3000,
            vec![hop(7000, 56 + 49, 1000), hop(11_000, 100, 0)],
        );
        let (reps, taken) = run(&mut w, &[a1, a2, a3], &[3]);
        let eff: Vec<u64> = reps.iter().map(|(_, r)| r.effect.to_u64()).collect();
        assert_eq!(&eff[..3], &[EFFECT_NEW_PATH, EFFECT_UPDATE, EFFECT_UPDATE]);
        // The ACK queue takes all three on consecutive cycles; the second and third wait
        // in it for their QP's spacing (the reports below show they were applied in order).
        assert_eq!(taken, [taken[0], taken[0] + 1, taken[0] + 2]);
        let u_real = |r: &HpccReport| r.u.to_u64() as f64 / (1u64 << 24) as f64;
        let mbps = |x: Bits<RATE_W>| x.to_u64() as f64 / 256.0;
        let r2 = reps[1].1;
        assert!(
            r2.commit && (u_real(&r2) - 1.0375).abs() < 2e-3,
            "U {}",
            u_real(&r2)
        );
        let want = 100_000.0 / (u_real(&r2) * 1024.0 / 973.0) + 40.0;
        assert!(
            (mbps(r2.r) - want).abs() < 0.01 * want,
            "R {} vs {want}",
            mbps(r2.r)
        );
        assert_eq!(r2.r, r2.rc);
        let r3 = reps[2].1;
        assert!(!r3.commit && r3.rc == r2.rc && r3.r != r2.r, "{r3:?}");
        let q = reps[3].1;
        assert_eq!(
            (q.r, q.rc, q.u),
            (r3.r, r3.rc, r3.u),
            "the query sees the last ACK's state"
        );
        assert_eq!(w.cnt_acks.val().to_u64(), 3);
        assert_eq!(w.cnt_commits.val().to_u64(), 1);
    }

    #[test]
    fn one_ack_per_cycle_over_qps_and_one_per_8_cycles_on_one() {
        let mut w = fresh();
        let acks: Vec<AckIn> = (0..64u64)
            .map(|n| (n % 16, 100 + n, 1000 + n, vec![hop(n * 100, n, 0)]))
            .collect();
        let (_, taken) = run(&mut w, &acks, &[]);
        assert_eq!(
            taken.last().unwrap() - taken[0],
            63,
            "16 QPs round robin: {taken:?}"
        );
        let acks: Vec<AckIn> = (0..16u64)
            .map(|n| (5, 100 + n, 1000 + n, vec![hop(n * 100, n, 0)]))
            .collect();
        let (_, taken) = run(&mut w, &acks, &[]);
        // The first issues at once and the queue takes the next ACK_QUEUE on consecutive
        // cycles; from then on an entry frees, and an ACK is taken, once per 8 cycles.
        for (k, t) in taken[..=ACK_QUEUE].iter().enumerate() {
            assert_eq!(t - taken[0], k, "one QP: {taken:?}");
        }
        for p in taken[ACK_QUEUE + 1..].windows(2) {
            assert_eq!(p[1] - p[0], SPACING, "one QP: {taken:?}");
        }
    }
}
