//! `RpUpdate`: the reaction point's next-state function for one event, pipelined:
//! [`UPD_STAGES`] = 127 registers from its inputs (step A) to its outputs (step E's end).
//!
//! It is `sim::dcqcn_rp::update` in hardware: catch up every timer expiry since the QP was
//! last touched (closed form), then apply the event, then note the next decrease check in
//! the other two radices. The pipeline around it (`DcqcnRp`) feeds it the QP's state word
//! (from block RAM or forwarded) in step A and writes `next_word` back from step E's end.
//!
//! Every step is cut so that at most about one carry chain, one barrel shifter or one DSP
//! pass lies between two registers (the 100 MHz target on an ECP5-6); the depths are
//! constants of the blocks, and `UPD_STAGES` is their sum:
//! `4 + (SEG_STAGES + 1) + (CUT_STAGES + 1) + (SEG_STAGES + 1) + 1 + RUN_STAGES + 1` with
//! `SEG_STAGES = PHASE_STAGES + 3 * RUN_STAGES + 2` = 49, `PHASE_STAGES` = 2,
//! `RUN_STAGES` = 15, `CUT_STAGES` = 5.
//!
//! | steps | work | registered at the end |
//! |---|---|---|
//! | A0 | (the inputs, registered: the forwarded word arrives late in its cycle; beside them each `RadixEff`'s candidates from now and the period, and `late`, the compare of now's cycle with the QP's, as `i_late`) | `i_*`, `eff_*` |
//! | A1 | now in each timer's radix (`RadixEff`: a choice among candidates registered in A0, by `i_late`), the increase radix a microsecond before the cut, alpha's first expiry's product in two partial products (alpha's low 18 bits, one DSP; its high 3 bits), `1024 - g` registered beside them | `h_*` |
//! | A2 | the four expiry counts' epoch differences and remainder comparisons; the partial products' sum (`alpha * (1024 - g) >> 10`) | `m_*`: the old word, now, the event, the three radices' now, the differences and comparisons, `m_t1` |
//! | A3 | the counts (`FiredSum`: `diff + ge`, saturating), whether a decrease check cuts; alpha's first expiry `t1` (`+ g` when the alpha timer's CNP flag is set) | `a_*`: the old word, now, the event, the three radices' now, counts, `t1` |
//! | B (`SEG_STAGES + 1` = 50 steps) | alpha at now and at the cut (`AlphaPow`: power table, two pipelined multipliers, `POW_STAGES` = 9 registers, then a delay line to the cut); `seg1` (the increases before the cut, three `IncRun`s) | `ctx_b`, `alpha_b`: the context beside `seg1` (delay lines in RAM); `b_seg1` with its result |
//! | C (`CUT_STAGES + 1` = 6 steps) | the cut's rate (`Cut`: two pipelined multipliers), beside it `seg1`'s result (`seg1_c`, a delay line); then the cut's target rate and the word after the cut; the epoch difference and remainder comparison of the expiries after the cut (both cases of the cut side by side); the byte counter with the event's bytes, its value after a byte event and its test (`acc` does not change after the cut) | `c_word`: the word after `seg1` and the cut; `c_k2_diff`, `c_k2_ge`; `c_acc_sat`, `c_acc_byte`, `c_byte_fire` |
//! | D (50 steps) | the expiries after the cut (`f_k2`, a `FiredSum`: `diff + ge`, saturating), `seg2` | `ctx_d`: the context beside `seg2` (a delay line); `d_seg2` with its result |
//! | E0 | the caught-up word, whether the QP stays limited, the byte event's phase, its step and whether it applies, BC + 1, an initial CNP, a command's override, the decrease check's base as E1 leaves it and `p_dec + td_r` | `e0_*`: these, the context and `seg2`'s result |
//! | E1 | the event applied but for the byte event's run (which starts here), choosing by E0's registers; the divisions' dividends' parts, the counters' inputs, commands and modes | `e1_*` |
//! | E2.. (`RUN_STAGES` - 1 = 14 steps) | the divisions' dividends (`e2_num_*`: the remainder plus the lead, registered apart in E1), the two divisions (`DivSmall`, `DIV_STAGES` = 5: the next decrease check in the alpha and increase radices), then their results wait (`div_line`); everything else waits for the byte event's run (`e_line`) | `e2_num_*`, `e_line`, `div_line` (delay lines) |
//! | E4 | the byte event's result and whether it is limited, the next decrease check's epochs (`na_e + qa`, `ni_e + qi`), what E1 left for the counters and the report | `e5` ([`EEnd`]) |
//! | E5 | the choice only: the word written back (with or without the next decrease check) and the report | the pipeline's write back (W1, outside) |
//!
//! The context (`CtxB`, `CtxD`) carries only what later steps read: the old word until the
//! cut replaces it by the word after the cut (`c_word`: the fields the cut and `seg1` change;
//! every other field, and the whole word of a QP that is not limited, is the old one), now,
//! the event, the radices' now, and the flags and alphas computed early. Beside the
//! segments, the cut and the byte event's run it waits in `DelayLine`s (a small RAM each,
//! written and read back up to 55 cycles later), not in chains of registers: a chain
//! costs the context's width in flip-flops per step, a delay line about one register's
//! worth whatever its length, so a deeper segment costs no more context registers.
//!
//! The parameters (`cfg`) and the power table are not staged: they may only change while no
//! event is in flight (the register block holds the core in reset while it applies). The
//! dividers of step E read their periods and reciprocals from copies registered here
//! (`dv_*`: a cycle after `cfg`, zero while `reset`), and step E4 its max rate (`e4_max`,
//! the same), which is why the block takes the RP's `reset`. Each step's register loads
//! when `en` is high; `DcqcnRp` keeps `en` high, as its pipeline from S1 on never waits.

use super::alpha::{AlphaPow, POW_STAGES};
use super::rate::{CUT_STAGES, Cut, IncRun, IncSegment, RUN_STAGES, SEG_STAGES};
use super::state::{QpWord, RpCfgWord, TimeWord};
use super::timer::{DIV_STAGES, DivSmall, FiredSum, RadixEff};
use super::widths::*;
use crate::delay_line::{BramDelayLine, DelayLine};
use crate::dsp_mul::DspMul;
use crate::zero_ext::ZeroExt;
use rust_hdl::prelude::*;

/// Registers between the update's first and last step: an event's `next_word` and report
/// come out `UPD_STAGES` advancing cycles after its old word went in.
pub const UPD_STAGES: usize =
    4 + (SEG_STAGES + 1) + (CUT_STAGES + 1) + (SEG_STAGES + 1) + 1 + RUN_STAGES + 1;

// The delay lines' lengths fit their address widths (`DelayLine<_, AW>` holds up to
// `2^AW + 1` cycles, `BramDelayLine<_, AW>` `2^AW + 3`) and their minimum of 3 (5).
const _: () = assert!(SEG_STAGES + 1 + CUT_STAGES <= (1 << CTX_AW) + 3);
const _: () = assert!(SEG_STAGES + 1 <= (1 << CTX_AW) + 3);
const _: () = assert!(SEG_STAGES + 1 - POW_STAGES >= 5);
const _: () = assert!(SEG_STAGES + 1 - POW_STAGES <= (1 << CTX_AW) + 3);
const _: () = assert!(CUT_STAGES >= 3 && CUT_STAGES <= (1 << 3) + 1);
const _: () = assert!(RUN_STAGES - 1 <= (1 << 4) + 1);
const _: () =
    assert!(RUN_STAGES - 2 - DIV_STAGES >= 3 && RUN_STAGES - 2 - DIV_STAGES <= (1 << 3) + 1);

// The byte run's product is its step delayed by three registers (`byte_p1..3`).
const _: () = assert!(crate::pipe_mul::PIPE_MUL_STAGES == 3);

/// Address bits of the delay lines beside the segments.
const CTX_AW: usize = 6;

// `AlphaPow` runs beside `seg1` and its result waits in `alpha_b` (a delay line: at least 3
// cycles) for the rest of the segment's `SEG_STAGES + 1`.
const _: () = assert!(POW_STAGES + 3 <= SEG_STAGES + 1);

/// The event's inputs, carried through the steps.
#[derive(Clone, Copy, Debug, Default, PartialEq, LogicStruct)]
pub struct EvWord {
    /// Event kind (see [`RpUpdate::kind`]).
    pub kind: Bits<KIND_W>,
    /// Packet length, bytes.
    pub bytes: Bits<BYTES_W>,
    /// Mode of a set-mode command.
    pub ctl_mode: Bits<MODE_W>,
    /// Host rate of a set-mode command, Mb/s Q.8.
    pub ctl_rate: Bits<RATE_W>,
}

/// An increase segment's result (the outputs of [`IncSegment`]), carried through the steps.
#[derive(Clone, Copy, Debug, Default, PartialEq, LogicStruct)]
pub struct SegWord {
    /// Rc after, Mb/s Q.8.
    pub rc: Bits<RATE_W>,
    /// Rt after, Mb/s Q.8.
    pub rt: Bits<RATE_W>,
    /// T after.
    pub t: Bits<STAGE_W>,
    /// The limiter was released.
    pub released: Bit,
    /// Events applied in full by phase. In the register right after the segment (`b_seg1`,
    /// `d_seg2`) `cnt_hai` is still the segment's output, not yet zeroed for a release by
    /// the hyper run ([`IncSegment::cnt_hai`]); it is zeroed on the way into the next
    /// register (`seg1_c`, `e0_seg2`) when `released`.
    pub cnt_fr: Bits<COUNT_W>,
    pub cnt_ai: Bits<COUNT_W>,
    pub cnt_hai: Bits<COUNT_W>,
    /// The releasing run: phase, Rc and Rt before it.
    pub rel_phase: Bits<PHASE_W>,
    pub rel_rc: Bits<RATE_W>,
    pub rel_rt: Bits<RATE_W>,
}

/// The context beside `seg1`: what steps C to E read of the event and of step A.
#[derive(Clone, Copy, Debug, Default, PartialEq, LogicStruct)]
pub struct CtxB {
    /// The QP's word before the event.
    pub old: QpWord,
    /// Time of the event.
    pub now: TimeWord,
    /// The event.
    pub ev: EvWord,
    /// The three radices' now.
    pub eff: TimeWord,
    /// The alpha timer fired at least once.
    pub alpha_any: Bit,
    /// A decrease check cuts.
    pub do_cut: Bit,
    /// The decrease timer fired at least once.
    pub dec_any: Bit,
    /// The old word's byte counter is not zero (for the cut's target-rate clamp in step C:
    /// ORed before the line, so the clamp's choice is one LUT after the line's register).
    pub bc_any: Bit,
}

/// alpha at now and at the cut (`AlphaPow`'s two results), Q.20.
#[derive(Clone, Copy, Debug, Default, PartialEq, LogicStruct)]
pub struct AlphaPair {
    /// alpha at now.
    pub now: Bits<ALPHA_W>,
    /// alpha at the cut.
    pub cut: Bits<ALPHA_W>,
}

/// `seg1`'s result and alpha at now, beside the cut.
#[derive(Clone, Copy, Debug, Default, PartialEq, LogicStruct)]
pub struct SegAlpha {
    /// `seg1`'s result.
    pub seg: SegWord,
    /// alpha at now, Q.20.
    pub alpha_now: Bits<ALPHA_W>,
    /// `seg1`'s T after is not zero (for the cut's target-rate clamp, ORed before the line).
    pub t_any: Bit,
}

/// The context beside `seg2`: [`CtxB`] with the word after the cut and what step C found.
#[derive(Clone, Copy, Debug, Default, PartialEq, LogicStruct)]
pub struct CtxD {
    /// The QP's word after `seg1` and the cut.
    pub word: QpWord,
    /// Time of the event.
    pub now: TimeWord,
    /// The event.
    pub ev: EvWord,
    /// The three radices' now (`TimeWord` but its `sub`, which step E does not read).
    pub eff_a_e: Bits<EPOCH_W>,
    pub eff_a_r: Bits<REM_W>,
    pub eff_d_e: Bits<EPOCH_W>,
    pub eff_d_r: Bits<REM_W>,
    pub eff_i_e: Bits<EPOCH_W>,
    pub eff_i_r: Bits<REM_W>,
    /// The alpha timer fired at least once.
    pub alpha_any: Bit,
    /// A decrease check cuts.
    pub do_cut: Bit,
    /// The decrease timer fired at least once.
    pub dec_any: Bit,
    /// alpha at now.
    pub alpha_now: Bits<ALPHA_W>,
    /// `seg1`'s result as step E reads it (`SegWord` but Rc, Rt and T, which `seg2`
    /// replaces).
    pub seg1_released: Bit,
    pub seg1_cnt_fr: Bits<COUNT_W>,
    pub seg1_cnt_ai: Bits<COUNT_W>,
    pub seg1_cnt_hai: Bits<COUNT_W>,
    pub seg1_rel_phase: Bits<PHASE_W>,
    pub seg1_rel_rc: Bits<RATE_W>,
    pub seg1_rel_rt: Bits<RATE_W>,
    /// The byte counter with the event's bytes, saturating (`acc + bytes`; the word's
    /// `acc` does not change between the cut and step E, so step C computes it).
    pub acc_sat: Bits<ACC_W>,
    /// The byte counter after a byte event: `acc_sat - byte_reset`.
    pub acc_byte: Bits<ACC_W>,
    /// The byte counter reaches `byte_reset` (and the byte counter is on).
    pub byte_fire: Bit,
    /// BC (the word's, which `seg2` does not change) below and above the threshold: half
    /// of the byte event's phase, compared as the context enters the line, so that E0's
    /// choice of the step starts at registers.
    pub bc_lt_th: Bit,
    pub bc_gt_th: Bit,
}

/// What step E1 leaves for step E's end while the byte event's run and the divisions go on.
#[derive(Clone, Copy, Debug, Default, PartialEq, LogicStruct)]
pub struct EWait {
    /// The event's result but for the byte event's run.
    pub w: QpWord,
    /// The byte event's run applies.
    pub byte_apply: Bit,
    /// The byte counter after a byte event.
    pub acc_byte: Bits<ACC_W>,
    /// BC + 1 (saturating).
    pub bc_inc: Bits<STAGE_W>,
    /// Epoch of the next decrease check's base in the alpha radix.
    pub na_e: Bits<EPOCH_W>,
    /// Epoch of the next decrease check's base in the increase radix.
    pub ni_e: Bits<EPOCH_W>,
    /// Increase events by phase (the counters' inputs).
    pub inc_fr: Bits<EVENTS_W>,
    pub inc_ai: Bits<EVENTS_W>,
    pub inc_hai: Bits<EVENTS_W>,
    /// A run released the limiter; its phase, Rc and Rt before it.
    pub inc_rel: Bit,
    pub inc_rel_phase: Bits<PHASE_W>,
    pub inc_rel_rc: Bits<RATE_W>,
    pub inc_rel_rt: Bits<RATE_W>,
    /// A cut was applied.
    pub did_cut: Bit,
    /// A command or a QP not in DCQCN mode: the report is `rep_ovr_*`.
    pub ovr: Bit,
    /// The overriding report's Rc, Rt, Mb/s Q.8.
    pub rep_ovr_rc: Bits<RATE_W>,
    pub rep_ovr_rt: Bits<RATE_W>,
}

/// The context's fields that E1 does not read (E0 read them): named so Verilator's
/// `*unused*` rule covers them.
#[derive(Clone, Copy, Debug, Default, PartialEq, LogicStruct)]
pub struct E1Unused {
    pub bytes: Bits<BYTES_W>,
    pub alpha_any: Bit,
    pub dec_any: Bit,
    pub alpha_now: Bits<ALPHA_W>,
    pub byte_fire: Bit,
    pub seg2_rc: Bits<RATE_W>,
    pub seg2_rt: Bits<RATE_W>,
    pub seg2_t: Bits<STAGE_W>,
    pub bc_lt_th: Bit,
    pub bc_gt_th: Bit,
}

/// What step E4 registers for E's end (E5): the event's result with the byte event's run
/// applied, whether the next decrease check is written, the check's epochs (the sums done),
/// and what E1 left for the counters and the report. E5 only chooses: no carry chain lies
/// between E4's register and the pipeline's write-back register.
#[derive(Clone, Copy, Debug, Default, PartialEq, LogicStruct)]
pub struct EEnd {
    /// The event's result (the word written back unless `set_td`).
    pub res: QpWord,
    /// The result is limited and no command or mode overrides it: the next decrease check
    /// below replaces the word's `tda_*` and `tdi_*`.
    pub set_td: Bit,
    /// The next decrease check in the alpha radix: epoch, remainder.
    pub tda_e: Bits<EPOCH_W>,
    pub tda_r: Bits<REM_W>,
    /// The next decrease check in the increase radix: epoch, remainder.
    pub tdi_e: Bits<EPOCH_W>,
    pub tdi_r: Bits<REM_W>,
    /// A command or a QP not in DCQCN mode: the report is `rep_ovr_*`.
    pub ovr: Bit,
    /// The overriding report's Rc, Rt, Mb/s Q.8.
    pub rep_ovr_rc: Bits<RATE_W>,
    pub rep_ovr_rt: Bits<RATE_W>,
    /// A cut was applied.
    pub did_cut: Bit,
    /// Increase events by phase; the releasing run (as [`EWait`]).
    pub inc_fr: Bits<EVENTS_W>,
    pub inc_ai: Bits<EVENTS_W>,
    pub inc_hai: Bits<EVENTS_W>,
    pub inc_rel: Bit,
    pub inc_rel_phase: Bits<PHASE_W>,
    pub inc_rel_rc: Bits<RATE_W>,
    pub inc_rel_rt: Bits<RATE_W>,
}

/// The two divisions' results (next decrease check in the alpha and increase radices).
#[derive(Clone, Copy, Debug, Default, PartialEq, LogicStruct)]
pub struct DivPair {
    /// Alpha radix: quotient, remainder.
    pub qa: Bits<NUM_W>,
    pub ra: Bits<REM_W>,
    /// Increase radix: quotient, remainder.
    pub qi: Bits<NUM_W>,
    pub ri: Bits<REM_W>,
}

/// Next state of one QP for one event, in [`UPD_STAGES`] + 1 pipeline steps.
#[derive(LogicBlock)]
pub struct RpUpdate {
    /// Clock of the stage registers.
    pub clock: Signal<In, Clock>,
    /// Advance: the stage registers load (low holds every stage; `DcqcnRp` keeps it high).
    pub en: Signal<In, Bit>,
    /// The QP's state before the event (step A's input).
    pub old: Signal<In, QpWord>,
    /// `now.sub < old.sub`: now's cycle within the microsecond is before the QP's expiry
    /// cycle (what each `RadixEff` chooses by). Computed by the caller, which forwards
    /// `old` from one of several registers: a compare per candidate beside the choice,
    /// then the same choice of one bit. Compared here after the choice it does not fit 10 ns
    /// (the choice's select, about 5 ns of route to its hundreds of loads, then a carry
    /// chain).
    pub late: Signal<In, Bit>,
    /// Event kind: 0 CNP received, 1 packet transmitted, 2 rate query, 3 reset, 4 set mode
    /// (step A's input, like every event input below).
    pub kind: Signal<In, Bits<KIND_W>>,
    /// Mode for a set-mode event (kind 4).
    pub ctl_mode: Signal<In, Bits<MODE_W>>,
    /// Host rate for a set-mode event, Mb/s Q.8.
    pub ctl_rate: Signal<In, Bits<RATE_W>>,
    /// Length of the transmitted packet, bytes (kind 1).
    pub bytes: Signal<In, Bits<BYTES_W>>,
    /// Time of the event.
    pub now: Signal<In, TimeWord>,
    /// Parameters (static while an event is in flight: not staged).
    pub cfg: Signal<In, RpCfgWord>,
    /// The RP's synchronous reset: clears the divisions' copies of their parameters
    /// (`dv_*`, `e4_max`). `cfg` changes only while it is high, and the copies load it
    /// the cycle after it falls, long before an event reaches step E.
    pub reset: Signal<In, Bit>,
    /// A rate cut was applied (meaningful for events that write back). Every output below
    /// belongs to the event in the last step (E), `UPD_STAGES` cycles of `en` after its
    /// inputs were presented.
    pub did_cut: Signal<Out, Bit>,
    /// Fast-recovery increase events applied in full (every run before the one that
    /// released the limiter, and the byte event); meaningful for events that write back.
    pub inc_fr: Signal<Out, Bits<EVENTS_W>>,
    /// Additive-increase events applied in full.
    pub inc_ai: Signal<Out, Bits<EVENTS_W>>,
    /// Hyper-increase events applied in full.
    pub inc_hai: Signal<Out, Bits<EVENTS_W>>,
    /// A run of increase-timer events released the limiter; it counts its release index,
    /// which `IncCount` computes from the three signals below.
    pub inc_rel: Signal<Out, Bit>,
    /// Phase of the releasing run (0 FR, 1 AI, 2 HAI).
    pub inc_rel_phase: Signal<Out, Bits<PHASE_W>>,
    /// Rc before the releasing run's first event.
    pub inc_rel_rc: Signal<Out, Bits<RATE_W>>,
    /// Rt before the releasing run's first event.
    pub inc_rel_rt: Signal<Out, Bits<RATE_W>>,
    /// The QP's state after the event (the pipeline writes it unless the event is a query).
    pub next_word: Signal<Out, QpWord>,
    /// `alpha_after(alpha, cnp_alpha, 1)` of `next_word`, Q.20: alpha after one more alpha
    /// expiry, which the RP's same-QP block (`near::RpNear`) reads beside the word. From
    /// E1's word (alpha and its flag are final there): one `PipeMul`, an add, then a delay
    /// line to E5.
    pub next_t1: Signal<Out, Bits<ALPHA_W>>,
    /// Report: limited.
    pub rep_limited: Signal<Out, Bit>,
    /// Report: Rc, Mb/s Q.8 (max rate when not limited).
    pub rep_rc: Signal<Out, Bits<RATE_W>>,
    /// Report: Rt, Mb/s Q.8 (max rate when not limited).
    pub rep_rt: Signal<Out, Bits<RATE_W>>,
    /// Report: alpha, Q.20 (0 when not limited).
    pub rep_alpha: Signal<Out, Bits<ALPHA_W>>,
    /// Power table, `c^j` half: address (step B) and data for alpha at now.
    pub lo_addr0: Signal<Out, Bits<7>>,
    pub lo_val0: Signal<In, Bits<POW_W>>,
    /// Power table, `c^(128 j)` half: address (step B) and data for alpha at now.
    pub hi_addr0: Signal<Out, Bits<7>>,
    pub hi_val0: Signal<In, Bits<POW_W>>,
    /// Power table, `c^j` half: address (step B) and data for alpha at the cut.
    pub lo_addr1: Signal<Out, Bits<7>>,
    pub lo_val1: Signal<In, Bits<POW_W>>,
    /// Power table, `c^(128 j)` half: address (step B) and data for alpha at the cut.
    pub hi_addr1: Signal<Out, Bits<7>>,
    pub hi_val1: Signal<In, Bits<POW_W>>,

    // ---- step A: where now is in each radix, expiry counts, alpha's first expiry ----
    // A0: the inputs, registered (the forwarded word arrives late in its cycle).
    i_old: DFF<QpWord>,
    i_now: DFF<TimeWord>,
    /// Now's cycle within the microsecond is before the QP's expiry cycle (each
    /// `RadixEff`'s choice in A1): the input `late`, registered.
    i_late: DFF<Bit>,
    i_ev: DFF<EvWord>,
    // A1: now in each radix, the increase radix a microsecond before the cut, alpha's
    // product; the inputs beside them.
    h_old: DFF<QpWord>,
    h_now: DFF<TimeWord>,
    h_ev: DFF<EvWord>,
    h_eff: DFF<TimeWord>,
    h_tdi_m1_e: DFF<Bits<EPOCH_W>>,
    h_tdi_m1_r: DFF<Bits<REM_W>>,
    eff_a: RadixEff,
    eff_d: RadixEff,
    eff_i: RadixEff,
    /// `alpha * (1024 - g)` (alpha Q.20, `1024 - g` Q.10) in two partial products split at
    /// alpha's bit 18, each registered in its DSP between A1 and A2 (`DspMul`, loaded with
    /// the other A1 registers): A2 adds them (`alpha * (1024 - g) >> 10`, Q.20, into
    /// `m_t1`; of the sum only bits `10..31` are used), A3 adds `g` when the alpha timer's
    /// CNP flag is set.
    mul_t1lo: DspMul<18, G_W, 29>,
    mul_t1hi: DspMul<3, G_W, 14>,
    /// A1's alpha (Q.20) as a named local: the partial products take slices of it, and a
    /// slice of a slice (`x[a+:b][c+:d]`) is not Verilog every yosys reads (0.23 refuses it).
    a1_alpha: Signal<Local, Bits<ALPHA_W>>,
    ext_t1lo: ZeroExt<29, 31>,
    ext_t1hi: ZeroExt<14, 31>,
    t1_sum: Signal<Local, Bits<31>>,
    ext_g: ZeroExt<G_W, ALPHA_W>,
    /// `1024 - g`, registered (a parameter: static while events are in flight), so the
    /// multiplier's input does not start at the register block.
    cq: DFF<Bits<G_W>>,
    t1: Signal<Local, Bits<ALPHA_W>>,
    g_q20: Signal<Local, Bits<ALPHA_W>>,
    tdi_m1_e: Signal<Local, Bits<EPOCH_W>>,
    tdi_m1_r: Signal<Local, Bits<REM_W>>,
    /// The three radices' "now" for this QP, one [`TimeWord`] (its `sub` is now's).
    eff: Signal<Local, TimeWord>,
    /// The 10 fraction bits of `alpha * (1024 - g) / 1024`, which the floor drops: computed
    /// by the multiplier, used by nothing (Verilator ignores `*unused*` signals).
    t1_frac_unused: Signal<Local, Bits<10>>,
    /// The step reciprocals in `cfg` are for the counter pipeline (`IncCount`), which the
    /// pipeline feeds from `cfg` directly: not used here.
    recip_ai_unused: Signal<Local, Bits<STEP_RECIP_W>>,
    recip_hai_unused: Signal<Local, Bits<STEP_RECIP_W>>,
    // A2: the expiry counts' epoch differences and remainder comparisons (the first half
    // of each count: alpha at now, decrease checks, increases before the cut, alpha at the
    // cut), alpha's first expiry; the inputs beside them.
    m_old: DFF<QpWord>,
    m_now: DFF<TimeWord>,
    m_ev: DFF<EvWord>,
    m_eff: DFF<TimeWord>,
    m_t1: DFF<Bits<ALPHA_W>>,
    m_alpha_diff: DFF<Bits<EPOCH_W>>,
    m_alpha_ge: DFF<Bit>,
    m_dec_diff: DFF<Bits<EPOCH_W>>,
    m_dec_ge: DFF<Bit>,
    m_k1_diff: DFF<Bits<EPOCH_W>>,
    m_k1_ge: DFF<Bit>,
    m_acut_diff: DFF<Bits<EPOCH_W>>,
    m_acut_ge: DFF<Bit>,
    // A3: the counts (`diff + ge`, saturating), whether a decrease check cuts.
    f_alpha: FiredSum,
    f_k1: FiredSum,
    f_acut: FiredSum,
    do_cut: Signal<Local, Bit>,
    /// The decrease timer fired at least once (what a `FiredSum`'s `n != 0` would say of
    /// `m_dec_diff`, `m_dec_ge`), without its carry chain: the difference is not negative
    /// and not zero, or the remainders add one (`diff + ge > 0` for `0 <= diff < 2^31`).
    dec_any: Signal<Local, Bit>,
    // A -> B registers.
    a_old: DFF<QpWord>,
    a_now: DFF<TimeWord>,
    a_ev: DFF<EvWord>,
    a_eff: DFF<TimeWord>,
    a_n_alpha: DFF<Bits<COUNT_W>>,
    a_n_acut: DFF<Bits<COUNT_W>>,
    /// Increase-timer events up to a microsecond before the cut (`seg1`'s count when
    /// `a_do_cut`; `seg1` gets 0 otherwise).
    a_k1: DFF<Bits<COUNT_W>>,
    a_do_cut: DFF<Bit>,
    a_dec_any: DFF<Bit>,
    a_t1: DFF<Bits<ALPHA_W>>,

    // ---- step B: alpha at now and at the cut (power table), increases before the cut ----
    pow_now: AlphaPow,
    pow_cut: AlphaPow,
    seg1: IncSegment,
    seg1_w: Signal<Local, SegWord>,
    byte_off: Signal<Local, Bit>,
    // B -> C: the context waits beside `seg1` and the cut in a delay line (one RAM, not
    // 55 registers).
    /// The context beside `seg1` and the cut (`SEG_STAGES + 1 + CUT_STAGES` = 55 registers'
    /// worth, in a block RAM, a register before it and two after it).
    ctx_b_in: Signal<Local, CtxB>,
    ctx_b: BramDelayLine<CtxB, CTX_AW>,
    /// alpha at now and at the cut, from `AlphaPow` to the cut's input (`SEG_STAGES + 1 -
    /// POW_STAGES` more cycles).
    alpha_b_in: Signal<Local, AlphaPair>,
    alpha_b: BramDelayLine<AlphaPair, CTX_AW>,
    // The context at the end of step C, out of `ctx_b` and `seg1_c`.
    b_old: Signal<Local, QpWord>,
    b_now: Signal<Local, TimeWord>,
    b_ev: Signal<Local, EvWord>,
    b_eff: Signal<Local, TimeWord>,
    b_alpha_any: Signal<Local, Bit>,
    b_do_cut: Signal<Local, Bit>,
    b_dec_any: Signal<Local, Bit>,
    b_alpha_now: Signal<Local, Bits<ALPHA_W>>,
    /// alpha at the cut, at the cut's input (out of `alpha_b`).
    b_alpha_cut: Signal<Local, Bits<ALPHA_W>>,
    b_seg1: DFF<SegWord>,
    /// `b_seg1` with the hyper count zeroed when the segment released (`SegWord`).
    b_seg1_z: Signal<Local, SegWord>,

    // ---- step C: the cut (`CUT_STAGES` = 5 registers), then the word after it ----
    cut: Cut,
    /// `seg1`'s result and alpha at now, beside the cut.
    seg1_c_in: Signal<Local, SegAlpha>,
    seg1_c: DelayLine<SegAlpha, 3>,
    /// `seg1`'s result at the end of step C.
    cs: Signal<Local, SegWord>,
    /// Rt after the cut: Rc (after `seg1`) on a clamp, else Rt (after `seg1`).
    rt_cut: Signal<Local, Bits<RATE_W>>,
    /// The QP's word after the increases before the cut and the cut (the old word
    /// without a cut).
    after_cut: Signal<Local, QpWord>,
    // C -> D registers.
    c_word: DFF<QpWord>,
    /// The byte counter's sum, its value after a byte event and its test (`CtxD`).
    c_acc_sat: DFF<Bits<ACC_W>>,
    c_acc_byte: DFF<Bits<ACC_W>>,
    c_byte_fire: DFF<Bit>,
    c_now: DFF<TimeWord>,
    c_ev: DFF<EvWord>,
    c_eff: DFF<TimeWord>,
    c_alpha_any: DFF<Bit>,
    c_do_cut: DFF<Bit>,
    c_dec_any: DFF<Bit>,
    c_alpha_now: DFF<Bits<ALPHA_W>>,
    c_seg1: DFF<SegWord>,
    /// The first half of the increase timer's expiry count after the cut (`fired` from
    /// the effective now to the word's next increase check), computed in step C for both
    /// cases of the cut side by side and registered: the epoch difference
    /// (`i_e - (tdi_e + 1) = i_e + !tdi_e` after a cut, `i_e - ti_e` without) ...
    c_k2_diff: DFF<Bits<EPOCH_W>>,
    /// ... and `i_r >= tdi_r` (after a cut) or `i_r >= ti_r`.
    c_k2_ge: DFF<Bit>,
    k2_diff_cut: Signal<Local, Bits<EPOCH_W>>,
    k2_diff_nocut: Signal<Local, Bits<EPOCH_W>>,

    // ---- step D: increases after the cut (all of them without one) ----
    /// The expiry count's second half (`diff + ge`, saturating): one carry chain in D.
    f_k2: FiredSum,
    seg2: IncSegment,
    seg2_w: Signal<Local, SegWord>,
    // D -> E: the context waits beside `seg2` in a delay line.
    /// The context beside `seg2` (`SEG_STAGES + 1` = 50 registers' worth, in a block RAM, a
    /// register before it and two after it).
    ctx_d_in: Signal<Local, CtxD>,
    ctx_d: BramDelayLine<CtxD, CTX_AW>,
    /// The increase timer fired after the cut (`f_k2`'s count is not zero), registered
    /// (it must not end at the delay line's RAM input). Computed without `f_k2`'s adder:
    /// the count `diff + ge` (saturating, 0 for a negative `diff`) is not zero exactly when
    /// `diff` is not negative and `diff` or `ge` is not zero (the sum wraps to zero only
    /// for `diff = 2^32 - 1`, which is negative). Through the adder it does not fit 10 ns.
    k2_q: DFF<Bit>,
    /// `k2_q` beside `seg2` (`SEG_STAGES` more steps: with `k2_q`, as long as `ctx_d`).
    k2_line: DelayLine<Bit, CTX_AW>,
    // The context at step E1, out of the line.
    d_word: Signal<Local, QpWord>,
    d_now: Signal<Local, TimeWord>,
    d_ev: Signal<Local, EvWord>,
    d_alpha_any: Signal<Local, Bit>,
    d_do_cut: Signal<Local, Bit>,
    d_dec_any: Signal<Local, Bit>,
    d_alpha_now: Signal<Local, Bits<ALPHA_W>>,
    d_k2_any: Signal<Local, Bit>,
    d_seg2: DFF<SegWord>,
    /// `seg2`'s T below and above the threshold (the other half of the byte event's
    /// phase), registered with `d_seg2`.
    d_t_lt: DFF<Bit>,
    d_t_gt: DFF<Bit>,

    // ---- step E: caught-up state, the event, the next decrease check, the report ----
    byte_run: IncRun,
    /// The byte event's step, delayed by `PIPE_MUL_STAGES` = 3 registers (E1..E3) as the
    /// byte run's `n * step`: its run has one event, so the product is the step.
    byte_p1: DFF<Bits<RATE_W>>,
    byte_p2: DFF<Bits<RATE_W>>,
    byte_p3: DFF<Bits<RATE_W>>,
    ext_byte_p: ZeroExt<RATE_W, 64>,
    div_a: DivSmall,
    div_i: DivSmall,
    /// The divisions' parameters (`p_alpha`, `recip_alpha`, `p_inc`, `recip_inc`) a cycle
    /// after `cfg`, cleared by `reset`: registers of this block beside the dividers'
    /// multipliers. `RpNear` registers the same fields of `cfg` without a reset; copies
    /// with equal inputs are merged by yosys, and the dividers' DSP inputs then came
    /// from `RpNear`'s copy, placed far from them.
    dv_p_a: DFF<Bits<REM_W>>,
    dv_recip_a: DFF<Bits<RECIP_W>>,
    dv_p_i: DFF<Bits<REM_W>>,
    dv_recip_i: DFF<Bits<RECIP_W>>,
    /// `max_rate` a cycle after `cfg`, cleared by `reset`: step E4's compare
    /// `rc < max_rate` (whether the byte event leaves the QP limited) reads this register,
    /// placed beside it, instead of the RP's `cfg` register or a merged copy far away.
    e4_max: DFF<Bits<RATE_W>>,
    // Zero-extensions (`bit_cast` would emit an AND of mismatched widths; see `crate::zero_ext`).
    ext_acc: ZeroExt<ACC_W, 33>,
    ext_bytes: ZeroExt<BYTES_W, 33>,
    ext_th: ZeroExt<THRESH_W, STAGE_W>,
    ext_td_r: ZeroExt<REM_W, NUM_W>,
    ext_nd_r: ZeroExt<REM_W, NUM_W>,
    ext_p_dec: ZeroExt<REM_W, NUM_W>,
    ext_na_r: ZeroExt<REM_W, NUM_W>,
    ext_ni_r: ZeroExt<REM_W, NUM_W>,
    ext_qa: ZeroExt<NUM_W, EPOCH_W>,
    ext_qi: ZeroExt<NUM_W, EPOCH_W>,
    ext_fr1: ZeroExt<COUNT_W, EVENTS_W>,
    ext_ai1: ZeroExt<COUNT_W, EVENTS_W>,
    ext_hai1: ZeroExt<COUNT_W, EVENTS_W>,
    ext_fr2: ZeroExt<COUNT_W, EVENTS_W>,
    ext_ai2: ZeroExt<COUNT_W, EVENTS_W>,
    ext_hai2: ZeroExt<COUNT_W, EVENTS_W>,
    // Increase events by phase (counters only).
    byte_count: Signal<Local, Bit>,
    byte_fr: Signal<Local, Bits<EVENTS_W>>,
    byte_ai: Signal<Local, Bits<EVENTS_W>>,
    byte_hai: Signal<Local, Bits<EVENTS_W>>,
    // The old word's fields that steps C and D replace are in `d_word`; what the event's
    // commands and modes need of the word before the event is unchanged there (a QP that
    // is not limited is never cut).
    cu: Signal<Local, QpWord>,
    still_limited: Signal<Local, Bit>,
    // Transmitted packet: the byte counter (step C, from the word after the cut).
    acc_sum: Signal<Local, Bits<33>>,
    /// `acc + bytes - byte_reset` (34 bits, two's complement), one carry chain after a
    /// carry-save layer: whether the byte counter fires and what it keeps do not wait for
    /// `acc + bytes` first.
    acc_diff: Signal<Local, Bits<34>>,
    /// Bit 32 of `acc_diff`, used by nothing (the sign is bit 33, the kept value bits 0..32).
    acc_diff_unused: Signal<Local, Bits<34>>,
    /// The event and now as E0 has them, of which it reads only the kind and the
    /// decrease radix (E1 reads the rest from `e0_ctx`); Verilator ignores `*unused*`.
    d_ev_unused: Signal<Local, EvWord>,
    d_now_unused: Signal<Local, TimeWord>,
    /// E0: the decrease check's epoch as E1 leaves the word (`td_e`); its remainder's two
    /// candidates (the word's `td_r`, now's for an initial CNP) each with `p_dec` added
    /// beside it, so the choice (`is_init`, late) comes after the carry chains.
    td_e_sel: Signal<Local, Bits<EPOCH_W>>,
    ext_now_dr: ZeroExt<REM_W, NUM_W>,
    td_rp_w: Signal<Local, Bits<NUM_W>>,
    td_rp_n: Signal<Local, Bits<NUM_W>>,
    /// E0's registers: the context and `seg2`'s result for E1, the caught-up word, whether
    /// the QP stays limited, the byte event's phase (FR, HAI; else AI), BC + 1, whether
    /// the byte event applies, an initial CNP, a command or mode override, the decrease
    /// check's base (`td_e`; `td_r` and `p_dec + td_r`, `NUM_W` bits).
    e0_ctx: DFF<CtxD>,
    e0_seg2: DFF<SegWord>,
    e0_cu: DFF<QpWord>,
    e0_still: DFF<Bit>,
    e0_in_fr: DFF<Bit>,
    e0_in_hai: DFF<Bit>,
    /// The byte event's step by its phase (0 in FR, `hai_rate` in HAI, else `ai_rate`),
    /// Mb/s Q.8: the byte run's step and, three registers later (`byte_p*`), its
    /// product (the run has one event: no multiplier).
    e0_step: DFF<Bits<RATE_W>>,
    /// `ai_rate` and `hai_rate` for E0's step, registered beside E0 so that those paths
    /// start next to it, not at the parameter register across the RP. Stored inverted: a
    /// plain copy would have the same input as `RpNear`'s copy of the parameters and yosys
    /// would merge the two (`opt_merge`), placing the one register between both users. The
    /// parameters are steady while an event is in flight, so the copies' cycle of delay is
    /// never seen.
    e0_nai: DFF<Bits<RATE_W>>,
    e0_nhai: DFF<Bits<RATE_W>>,
    e0_bc_inc: DFF<Bits<STAGE_W>>,
    e0_byte_count: DFF<Bit>,
    e0_is_init: DFF<Bit>,
    e0_ovr: DFF<Bit>,
    /// The parts of `e0_ovr`, decoded here so that E1's choice of the word (`w_pre`) starts
    /// at registers: a command (`reset` or `mode`), a `mode` command, a QP not in DCQCN
    /// mode. As E1 comparisons of the event kind they become the synchronous reset of `e1_w`
    /// (600 flip-flops), which then does not fit 10 ns.
    /// `e0_ovr` equals `e0_ctl | e0_mode_any`; it stays one flip-flop of its own, since
    /// its loads (the increase counts' clears, `e1_ovr`) would otherwise take the OR.
    e0_ctl: DFF<Bit>,
    e0_is_mode: DFF<Bit>,
    e0_mode_any: DFF<Bit>,
    /// Their inputs in step D (`ovr` is `d_ctl | d_mode_any`).
    d_ctl: Signal<Local, Bit>,
    d_is_mode: Signal<Local, Bit>,
    d_mode_any: Signal<Local, Bit>,
    e0_td_e: DFF<Bits<EPOCH_W>>,
    e0_td_r: DFF<Bits<NUM_W>>,
    e0_td_rp: DFF<Bits<NUM_W>>,
    /// E1's view of E0's registers (named: `hdl_gen` reads one field level after `val()`).
    e_ctx: Signal<Local, CtxD>,
    e_word: Signal<Local, QpWord>,
    e_now: Signal<Local, TimeWord>,
    e_ev: Signal<Local, EvWord>,
    e_seg2: Signal<Local, SegWord>,
    e_cu: Signal<Local, QpWord>,
    e1_unused: Signal<Local, E1Unused>,
    csa_a: ZeroExt<ACC_W, 34>,
    csa_b: ZeroExt<BYTES_W, 34>,
    csa_c: ZeroExt<ACC_W, 34>,
    csa_nc: Signal<Local, Bits<34>>,
    csa_s: Signal<Local, Bits<34>>,
    csa_k: Signal<Local, Bits<34>>,
    one_34: Constant<Bits<34>>,
    /// Increase events of the two segments, without and with the byte event (`a + b` and
    /// `a + b + 1 = a - !b`, side by side; the byte event picks one).
    sum_fr: Signal<Local, Bits<EVENTS_W>>,
    sum_fr1: Signal<Local, Bits<EVENTS_W>>,
    sum_ai: Signal<Local, Bits<EVENTS_W>>,
    sum_ai1: Signal<Local, Bits<EVENTS_W>>,
    sum_hai: Signal<Local, Bits<EVENTS_W>>,
    sum_hai1: Signal<Local, Bits<EVENTS_W>>,
    acc_sat: Signal<Local, Bits<ACC_W>>,
    /// After a cut the byte counter is 0 before the event's bytes: `bytes - byte_reset`
    /// (`acc_dcut`, one carry chain: `-byte_reset` (`neg_br`) depends on the parameters
    /// only) and `bytes` itself. Both cases are computed side by side and the cut chooses
    /// after the carry chains, so `do_cut`'s wide fan-out is not in front of them.
    neg_br: Signal<Local, Bits<34>>,
    acc_dcut: Signal<Local, Bits<34>>,
    /// Bit 32 of `acc_dcut`, used by nothing.
    acc_dcut_unused: Signal<Local, Bits<34>>,
    ext_bytes32: ZeroExt<BYTES_W, ACC_W>,
    /// The byte event's phase: fast recovery (`max(T, BC) < threshold`) or hyper increase
    /// (`min(T, BC) > threshold`), else additive increase: the AND of two registered
    /// comparisons each (`T` against the threshold in `d_t_*`, BC in the context's
    /// `bc_*_th`), made a step earlier so that E0's choice of the step is one LUT deep.
    byte_in_fr: Signal<Local, Bit>,
    byte_in_hai: Signal<Local, Bit>,
    bc_inc: Signal<Local, Bits<STAGE_W>>,
    // Event applied.
    /// E4: the event's result.
    res: Signal<Local, QpWord>,
    /// E4's result for E5 (see [`EEnd`]), and its register.
    e4: Signal<Local, EEnd>,
    e5: DFF<EEnd>,
    /// E5's result word (`e5`'s `res`: `hdl_gen` reads one field level after `val()`).
    e5_res: Signal<Local, QpWord>,
    is_init: Signal<Local, Bit>,
    // Next decrease check in the other radices.
    na_e: Signal<Local, Bits<EPOCH_W>>,
    na_r: Signal<Local, Bits<REM_W>>,
    nd_e: Signal<Local, Bits<EPOCH_W>>,
    nd_r: Signal<Local, Bits<REM_W>>,
    ni_e: Signal<Local, Bits<EPOCH_W>>,
    ni_r: Signal<Local, Bits<REM_W>>,
    ahead: Signal<Local, Bits<NUM_W>>,
    /// E1: the word the event leaves before the byte event's run (the command's word for
    /// commands and QPs not in DCQCN mode).
    w_pre: Signal<Local, QpWord>,
    /// E1: commands and QPs not in DCQCN mode (the word and the report are overridden).
    ovr: Signal<Local, Bit>,
    rep_ovr_rc: Signal<Local, Bits<RATE_W>>,
    rep_ovr_rt: Signal<Local, Bits<RATE_W>>,
    inc_fr_e: Signal<Local, Bits<EVENTS_W>>,
    inc_ai_e: Signal<Local, Bits<EVENTS_W>>,
    inc_hai_e: Signal<Local, Bits<EVENTS_W>>,
    inc_rel_e: Signal<Local, Bit>,
    inc_rel_phase_e: Signal<Local, Bits<PHASE_W>>,
    inc_rel_rc_e: Signal<Local, Bits<RATE_W>>,
    inc_rel_rt_e: Signal<Local, Bits<RATE_W>>,
    did_cut_e: Signal<Local, Bit>,
    // E1 -> E2 -> E3 -> E4: the event's result before the byte event's run, the
    // divisions' inputs (E1) and results (E2, E3), what the report and the counters need.
    e1_w: DFF<QpWord>,
    e1_byte_apply: DFF<Bit>,
    e1_acc_byte: DFF<Bits<ACC_W>>,
    e1_bc_inc: DFF<Bits<STAGE_W>>,
    e1_na_e: DFF<Bits<EPOCH_W>>,
    e1_ni_e: DFF<Bits<EPOCH_W>>,
    e1_inc_fr: DFF<Bits<EVENTS_W>>,
    e1_inc_ai: DFF<Bits<EVENTS_W>>,
    e1_inc_hai: DFF<Bits<EVENTS_W>>,
    e1_inc_rel: DFF<Bit>,
    e1_inc_rel_phase: DFF<Bits<PHASE_W>>,
    e1_inc_rel_rc: DFF<Bits<RATE_W>>,
    e1_inc_rel_rt: DFF<Bits<RATE_W>>,
    e1_did_cut: DFF<Bit>,
    e1_ovr: DFF<Bit>,
    e1_rep_ovr_rc: DFF<Bits<RATE_W>>,
    e1_rep_ovr_rt: DFF<Bits<RATE_W>>,
    /// The dividends' parts: `ahead` (the decrease timer's lead) and the two radices'
    /// remainders; E2 adds them (`e2_num_*`), so no carry chain follows another here.
    e1_ahead: DFF<Bits<NUM_W>>,
    e1_na_r: DFF<Bits<NUM_W>>,
    e1_ni_r: DFF<Bits<NUM_W>>,
    /// The divisions' dividends (E2).
    e2_num_a: DFF<Bits<NUM_W>>,
    e2_num_i: DFF<Bits<NUM_W>>,
    /// E1's values wait for the byte event's run (`RUN_STAGES - 1` more cycles).
    e_in: Signal<Local, EWait>,
    e_line: DelayLine<EWait, 4>,
    ew: Signal<Local, EWait>,
    /// The divisions' results wait for it too (`RUN_STAGES - 2 - DIV_STAGES` cycles: E2's
    /// dividends and the divisions come first).
    dv_in: Signal<Local, DivPair>,
    div_line: DelayLine<DivPair, 3>,
    dq: Signal<Local, DivPair>,
    one_e: Constant<Bits<EPOCH_W>>,
    one_r: Constant<Bits<REM_W>>,
    one_stage: Constant<Bits<STAGE_W>>,
    /// 1024, the `dce_tcp_g` scale.
    g_one: Constant<Bits<G_W>>,
    /// `2^32 - 1`, the saturation value of the byte accumulator.
    acc_max: Constant<Bits<ACC_W>>,
    kind_cnp: Constant<Bits<KIND_W>>,
    kind_tx: Constant<Bits<KIND_W>>,
    kind_reset: Constant<Bits<KIND_W>>,
    kind_mode: Constant<Bits<KIND_W>>,
    mode_host: Constant<Bits<MODE_W>>,
    zero_word: Constant<QpWord>,
    /// `next_t1`: `alpha * (1024 - g)` (3 registers), its CNP flag beside it, the sum
    /// (register 4), then the line to E5.
    nt1_mul: crate::pipe_mul::PipeMul<ALPHA_W, 18>,
    next_t1_c: ZeroExt<G_W, 18>,
    nt1_f1: DFF<Bit>,
    nt1_f2: DFF<Bit>,
    nt1_f3: DFF<Bit>,
    nt1_prod: Signal<Local, Bits<ALPHA_W>>,
    nt1_lo_unused: Signal<Local, Bits<10>>,
    nt1_hi_unused: Signal<Local, Bits<33>>,
    next_t1_g: ZeroExt<G_W, ALPHA_W>,
    nt1_g_sh: Signal<Local, Bits<ALPHA_W>>,
    nt1_ten: Constant<Bits<SHIFT_W>>,
    nt1_sum: DFF<Bits<ALPHA_W>>,
    nt1_line: DelayLine<Bits<ALPHA_W>, 4>,
}

impl Default for RpUpdate {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            en: Default::default(),
            old: Default::default(),
            late: Default::default(),
            kind: Default::default(),
            ctl_mode: Default::default(),
            ctl_rate: Default::default(),
            bytes: Default::default(),
            now: Default::default(),
            cfg: Default::default(),
            reset: Default::default(),
            did_cut: Default::default(),
            inc_fr: Default::default(),
            inc_ai: Default::default(),
            inc_hai: Default::default(),
            inc_rel: Default::default(),
            inc_rel_phase: Default::default(),
            inc_rel_rc: Default::default(),
            inc_rel_rt: Default::default(),
            next_word: Default::default(),
            next_t1: Default::default(),
            rep_limited: Default::default(),
            rep_rc: Default::default(),
            rep_rt: Default::default(),
            rep_alpha: Default::default(),
            lo_addr0: Default::default(),
            lo_val0: Default::default(),
            hi_addr0: Default::default(),
            hi_val0: Default::default(),
            lo_addr1: Default::default(),
            lo_val1: Default::default(),
            hi_addr1: Default::default(),
            hi_val1: Default::default(),
            i_old: Default::default(),
            i_now: Default::default(),
            i_late: Default::default(),
            i_ev: Default::default(),
            h_old: Default::default(),
            h_now: Default::default(),
            h_ev: Default::default(),
            h_eff: Default::default(),
            h_tdi_m1_e: Default::default(),
            h_tdi_m1_r: Default::default(),
            eff_a: Default::default(),
            eff_d: Default::default(),
            eff_i: Default::default(),
            mul_t1lo: DspMul::new(),
            mul_t1hi: DspMul::new(),
            a1_alpha: Default::default(),
            ext_t1lo: Default::default(),
            ext_t1hi: Default::default(),
            t1_sum: Default::default(),
            ext_g: Default::default(),
            cq: Default::default(),
            t1: Default::default(),
            g_q20: Default::default(),
            tdi_m1_e: Default::default(),
            tdi_m1_r: Default::default(),
            eff: Default::default(),
            do_cut: Default::default(),
            dec_any: Default::default(),
            t1_frac_unused: Default::default(),
            recip_ai_unused: Default::default(),
            recip_hai_unused: Default::default(),
            m_old: Default::default(),
            m_now: Default::default(),
            m_ev: Default::default(),
            m_eff: Default::default(),
            m_t1: Default::default(),
            m_alpha_diff: Default::default(),
            m_alpha_ge: Default::default(),
            m_dec_diff: Default::default(),
            m_dec_ge: Default::default(),
            m_k1_diff: Default::default(),
            m_k1_ge: Default::default(),
            m_acut_diff: Default::default(),
            m_acut_ge: Default::default(),
            f_alpha: Default::default(),
            f_k1: Default::default(),
            f_acut: Default::default(),
            a_old: Default::default(),
            a_now: Default::default(),
            a_ev: Default::default(),
            a_eff: Default::default(),
            a_n_alpha: Default::default(),
            a_n_acut: Default::default(),
            a_k1: Default::default(),
            a_do_cut: Default::default(),
            a_dec_any: Default::default(),
            a_t1: Default::default(),
            pow_now: Default::default(),
            pow_cut: Default::default(),
            seg1: Default::default(),
            seg1_w: Default::default(),
            byte_off: Default::default(),
            ctx_b_in: Default::default(),
            ctx_b: BramDelayLine::new(SEG_STAGES + 1 + CUT_STAGES),
            alpha_b_in: Default::default(),
            alpha_b: BramDelayLine::new(SEG_STAGES + 1 - POW_STAGES),
            b_old: Default::default(),
            b_now: Default::default(),
            b_ev: Default::default(),
            b_eff: Default::default(),
            b_alpha_any: Default::default(),
            b_do_cut: Default::default(),
            b_dec_any: Default::default(),
            b_alpha_now: Default::default(),
            b_alpha_cut: Default::default(),
            b_seg1: Default::default(),
            b_seg1_z: Default::default(),
            cut: Default::default(),
            seg1_c_in: Default::default(),
            seg1_c: DelayLine::new(CUT_STAGES),
            cs: Default::default(),
            rt_cut: Default::default(),
            after_cut: Default::default(),
            c_word: Default::default(),
            c_acc_sat: Default::default(),
            c_acc_byte: Default::default(),
            c_byte_fire: Default::default(),
            c_now: Default::default(),
            c_ev: Default::default(),
            c_eff: Default::default(),
            c_k2_diff: Default::default(),
            c_k2_ge: Default::default(),
            k2_diff_cut: Default::default(),
            k2_diff_nocut: Default::default(),
            c_alpha_any: Default::default(),
            c_do_cut: Default::default(),
            c_dec_any: Default::default(),
            c_alpha_now: Default::default(),
            c_seg1: Default::default(),
            f_k2: Default::default(),
            seg2: Default::default(),
            seg2_w: Default::default(),
            ctx_d_in: Default::default(),
            ctx_d: BramDelayLine::new(SEG_STAGES + 1),
            k2_q: Default::default(),
            k2_line: DelayLine::new(SEG_STAGES),
            d_word: Default::default(),
            d_now: Default::default(),
            d_ev: Default::default(),
            d_alpha_any: Default::default(),
            d_do_cut: Default::default(),
            d_dec_any: Default::default(),
            d_alpha_now: Default::default(),
            d_k2_any: Default::default(),
            d_seg2: Default::default(),
            d_t_lt: Default::default(),
            d_t_gt: Default::default(),
            byte_p1: Default::default(),
            byte_p2: Default::default(),
            byte_p3: Default::default(),
            ext_byte_p: Default::default(),
            byte_run: Default::default(),
            div_a: Default::default(),
            div_i: Default::default(),
            dv_p_a: Default::default(),
            dv_recip_a: Default::default(),
            dv_p_i: Default::default(),
            dv_recip_i: Default::default(),
            e4_max: Default::default(),
            ext_acc: Default::default(),
            ext_bytes: Default::default(),
            ext_th: Default::default(),
            ext_td_r: Default::default(),
            ext_nd_r: Default::default(),
            ext_p_dec: Default::default(),
            ext_na_r: Default::default(),
            ext_ni_r: Default::default(),
            ext_qa: Default::default(),
            ext_qi: Default::default(),
            ext_fr1: Default::default(),
            ext_ai1: Default::default(),
            ext_hai1: Default::default(),
            ext_fr2: Default::default(),
            ext_ai2: Default::default(),
            ext_hai2: Default::default(),
            byte_count: Default::default(),
            byte_fr: Default::default(),
            byte_ai: Default::default(),
            byte_hai: Default::default(),
            cu: Default::default(),
            still_limited: Default::default(),
            acc_sum: Default::default(),
            acc_diff: Default::default(),
            acc_diff_unused: Default::default(),
            d_ev_unused: Default::default(),
            d_now_unused: Default::default(),
            td_e_sel: Default::default(),
            ext_now_dr: Default::default(),
            td_rp_w: Default::default(),
            td_rp_n: Default::default(),
            e0_ctx: Default::default(),
            e0_seg2: Default::default(),
            e0_cu: Default::default(),
            e0_still: Default::default(),
            e0_in_fr: Default::default(),
            e0_in_hai: Default::default(),
            e0_step: Default::default(),
            e0_nai: Default::default(),
            e0_nhai: Default::default(),
            e0_bc_inc: Default::default(),
            e0_byte_count: Default::default(),
            e0_is_init: Default::default(),
            e0_ovr: Default::default(),
            e0_ctl: Default::default(),
            e0_is_mode: Default::default(),
            e0_mode_any: Default::default(),
            d_ctl: Default::default(),
            d_is_mode: Default::default(),
            d_mode_any: Default::default(),
            e0_td_e: Default::default(),
            e0_td_r: Default::default(),
            e0_td_rp: Default::default(),
            e_ctx: Default::default(),
            e_word: Default::default(),
            e_now: Default::default(),
            e_ev: Default::default(),
            e_seg2: Default::default(),
            e_cu: Default::default(),
            e1_unused: Default::default(),
            csa_a: Default::default(),
            csa_b: Default::default(),
            csa_c: Default::default(),
            csa_nc: Default::default(),
            csa_s: Default::default(),
            csa_k: Default::default(),
            one_34: Constant::new(1.into()),
            sum_fr: Default::default(),
            sum_fr1: Default::default(),
            sum_ai: Default::default(),
            sum_ai1: Default::default(),
            sum_hai: Default::default(),
            sum_hai1: Default::default(),
            acc_sat: Default::default(),
            neg_br: Default::default(),
            acc_dcut: Default::default(),
            acc_dcut_unused: Default::default(),
            ext_bytes32: Default::default(),
            byte_in_fr: Default::default(),
            byte_in_hai: Default::default(),
            bc_inc: Default::default(),
            res: Default::default(),
            e4: Default::default(),
            e5: Default::default(),
            e5_res: Default::default(),
            is_init: Default::default(),
            na_e: Default::default(),
            na_r: Default::default(),
            nd_e: Default::default(),
            nd_r: Default::default(),
            ni_e: Default::default(),
            ni_r: Default::default(),
            ahead: Default::default(),
            w_pre: Default::default(),
            ovr: Default::default(),
            rep_ovr_rc: Default::default(),
            rep_ovr_rt: Default::default(),
            inc_fr_e: Default::default(),
            inc_ai_e: Default::default(),
            inc_hai_e: Default::default(),
            inc_rel_e: Default::default(),
            inc_rel_phase_e: Default::default(),
            inc_rel_rc_e: Default::default(),
            inc_rel_rt_e: Default::default(),
            did_cut_e: Default::default(),
            e1_w: Default::default(),
            e1_byte_apply: Default::default(),
            e1_acc_byte: Default::default(),
            e1_bc_inc: Default::default(),
            e1_na_e: Default::default(),
            e1_ni_e: Default::default(),
            e1_inc_fr: Default::default(),
            e1_inc_ai: Default::default(),
            e1_inc_hai: Default::default(),
            e1_inc_rel: Default::default(),
            e1_inc_rel_phase: Default::default(),
            e1_inc_rel_rc: Default::default(),
            e1_inc_rel_rt: Default::default(),
            e1_did_cut: Default::default(),
            e1_ovr: Default::default(),
            e1_rep_ovr_rc: Default::default(),
            e1_rep_ovr_rt: Default::default(),
            e1_ahead: Default::default(),
            e1_na_r: Default::default(),
            e1_ni_r: Default::default(),
            e2_num_a: Default::default(),
            e2_num_i: Default::default(),
            e_in: Default::default(),
            e_line: DelayLine::new(RUN_STAGES - 1),
            ew: Default::default(),
            dv_in: Default::default(),
            div_line: DelayLine::new(RUN_STAGES - 2 - DIV_STAGES),
            dq: Default::default(),
            one_e: Constant::new(1.into()),
            one_r: Constant::new(1.into()),
            one_stage: Constant::new(1.into()),
            g_one: Constant::new(1024.into()),
            acc_max: Constant::new(Bits::<ACC_W>::mask()),
            kind_cnp: Constant::new(0.into()),
            kind_tx: Constant::new(1.into()),
            kind_reset: Constant::new(3.into()),
            kind_mode: Constant::new(4.into()),
            mode_host: Constant::new(1.into()),
            zero_word: Constant::new(QpWord::default()),
            nt1_mul: Default::default(),
            next_t1_c: Default::default(),
            nt1_f1: Default::default(),
            nt1_f2: Default::default(),
            nt1_f3: Default::default(),
            nt1_prod: Default::default(),
            nt1_lo_unused: Default::default(),
            nt1_hi_unused: Default::default(),
            next_t1_g: Default::default(),
            nt1_g_sh: Default::default(),
            nt1_ten: Constant::new(10.into()),
            nt1_sum: Default::default(),
            nt1_line: DelayLine::new(NT1_LINE),
        }
    }
}

/// Cycles from `next_t1`'s sum register to E5: E1's word reaches E5's logic
/// `RUN_STAGES` cycles after E1 (the line `e_line`, `RUN_STAGES - 1`, then the E5
/// register); the sum is `PIPE_MUL_STAGES + 1` registers after E1.
const NT1_LINE: usize = RUN_STAGES - crate::pipe_mul::PIPE_MUL_STAGES - 1;

impl Logic for RpUpdate {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            dv_p_a,
            dv_recip_a,
            dv_p_i,
            dv_recip_i,
            e4_max,
            nt1_f1,
            nt1_f2,
            nt1_f3,
            nt1_sum,
            k2_q,
            i_old,
            i_now,
            i_late,
            i_ev,
            h_old,
            h_now,
            h_ev,
            h_eff,
            h_tdi_m1_e,
            h_tdi_m1_r,
            cq,
            m_old,
            m_now,
            m_ev,
            m_eff,
            m_t1,
            m_alpha_diff,
            m_alpha_ge,
            m_dec_diff,
            m_dec_ge,
            m_k1_diff,
            m_k1_ge,
            m_acut_diff,
            m_acut_ge,
            a_old,
            a_now,
            a_ev,
            a_eff,
            a_n_alpha,
            a_n_acut,
            a_k1,
            a_do_cut,
            a_dec_any,
            a_t1,
            b_seg1,
            c_word,
            c_acc_sat,
            c_acc_byte,
            c_byte_fire,
            c_now,
            c_ev,
            c_eff,
            c_alpha_any,
            c_do_cut,
            c_dec_any,
            c_alpha_now,
            c_seg1,
            c_k2_diff,
            c_k2_ge,
            d_seg2,
            d_t_lt,
            d_t_gt,
            e1_w,
            e1_byte_apply,
            e1_acc_byte,
            e1_bc_inc,
            e1_na_e,
            e1_ni_e,
            e1_inc_fr,
            e1_inc_ai,
            e1_inc_hai,
            e1_inc_rel,
            e1_inc_rel_phase,
            e1_inc_rel_rc,
            e1_inc_rel_rt,
            e1_did_cut,
            e1_ovr,
            e1_rep_ovr_rc,
            e1_rep_ovr_rt,
            e1_ahead,
            e1_na_r,
            e1_ni_r,
            e2_num_a,
            e2_num_i,
            e5,
            e0_ctx,
            e0_seg2,
            e0_cu,
            e0_still,
            e0_in_fr,
            e0_in_hai,
            e0_step,
            byte_p1,
            byte_p2,
            byte_p3,
            e0_nai,
            e0_nhai,
            e0_bc_inc,
            e0_byte_count,
            e0_is_init,
            e0_ovr,
            e0_ctl,
            e0_is_mode,
            e0_mode_any,
            e0_td_e,
            e0_td_r,
            e0_td_rp
        );
        self.recip_ai_unused.next = self.cfg.val().recip_ai;
        self.recip_hai_unused.next = self.cfg.val().recip_hai;
        self.byte_off.next = !self.cfg.val().byte_reset.any();

        // ======== step A ========
        // ---- A0: the inputs ----
        if self.en.val() {
            self.i_old.d.next = self.old.val();
            self.i_now.d.next = self.now.val();
            self.i_late.d.next = self.late.val();
            self.i_ev.d.next.kind = self.kind.val();
            self.i_ev.d.next.bytes = self.bytes.val();
            self.i_ev.d.next.ctl_mode = self.ctl_mode.val();
            self.i_ev.d.next.ctl_rate = self.ctl_rate.val();
        }
        // ---- A1: where "now" is for this QP's timers (the candidates from now alone are
        // registered inside `RadixEff` beside A0's `i_now`) ----
        self.eff_a.clock.next = self.clock.val();
        self.eff_a.en.next = self.en.val();
        self.eff_a.now_e.next = self.now.val().a_e;
        self.eff_a.now_r.next = self.now.val().a_r;
        self.eff_a.late.next = self.i_late.q.val();
        self.eff_a.period.next = self.cfg.val().p_alpha;
        self.eff_d.clock.next = self.clock.val();
        self.eff_d.en.next = self.en.val();
        self.eff_d.now_e.next = self.now.val().d_e;
        self.eff_d.now_r.next = self.now.val().d_r;
        self.eff_d.late.next = self.i_late.q.val();
        self.eff_d.period.next = self.cfg.val().p_dec;
        self.eff_i.clock.next = self.clock.val();
        self.eff_i.en.next = self.en.val();
        self.eff_i.now_e.next = self.now.val().i_e;
        self.eff_i.now_r.next = self.now.val().i_r;
        self.eff_i.late.next = self.i_late.q.val();
        self.eff_i.period.next = self.cfg.val().p_inc;
        self.eff.next.sub = self.i_now.q.val().sub;
        self.eff.next.a_e = self.eff_a.eff_e.val();
        self.eff.next.a_r = self.eff_a.eff_r.val();
        self.eff.next.d_e = self.eff_d.eff_e.val();
        self.eff.next.d_r = self.eff_d.eff_r.val();
        self.eff.next.i_e = self.eff_i.eff_e.val();
        self.eff.next.i_r = self.eff_i.eff_r.val();

        // Increase events strictly before the cut: up to one microsecond before it.
        self.tdi_m1_e.next = self.i_old.q.val().tdi_e;
        self.tdi_m1_r.next = self.i_old.q.val().tdi_r - self.one_r.val();
        if !self.i_old.q.val().tdi_r.any() {
            self.tdi_m1_e.next = self.i_old.q.val().tdi_e - self.one_e.val();
            self.tdi_m1_r.next = self.cfg.val().p_inc - self.one_r.val();
        }
        // ---- A1: alpha's first expiry: the product ----
        self.cq.d.next = self.g_one.val() - self.cfg.val().g;
        self.a1_alpha.next = self.i_old.q.val().alpha;
        self.mul_t1lo.clock.next = self.clock.val();
        self.mul_t1lo.en.next = self.en.val();
        self.mul_t1hi.clock.next = self.clock.val();
        self.mul_t1hi.en.next = self.en.val();
        self.mul_t1lo.a.next = self.a1_alpha.val().get_bits::<18>(0);
        self.mul_t1lo.b.next = self.cq.q.val();
        self.mul_t1hi.a.next = self.a1_alpha.val().get_bits::<3>(18);
        self.mul_t1hi.b.next = self.cq.q.val();
        if self.en.val() {
            self.h_old.d.next = self.i_old.q.val();
            self.h_now.d.next = self.i_now.q.val();
            self.h_ev.d.next = self.i_ev.q.val();
            self.h_eff.d.next = self.eff.val();
            self.h_tdi_m1_e.d.next = self.tdi_m1_e.val();
            self.h_tdi_m1_r.d.next = self.tdi_m1_r.val();
        }

        // ---- A2: the expiry counts' first half: epoch differences (modulo 2^32) and
        // remainder comparisons; alpha's first expiry, exactly ----
        self.ext_g.i.next = self.cfg.val().g;
        self.g_q20.next = self.ext_g.o.val() << 10;
        self.ext_t1lo.i.next = self.mul_t1lo.p.val();
        self.ext_t1hi.i.next = self.mul_t1hi.p.val();
        self.t1_sum.next = self.ext_t1lo.o.val() + (self.ext_t1hi.o.val() << 18);
        self.t1_frac_unused.next = self.t1_sum.val().get_bits::<10>(0);
        self.t1.next = self.m_t1.q.val();
        if self.m_old.q.val().cnp_alpha {
            self.t1.next = self.m_t1.q.val() + self.g_q20.val();
        }
        if self.en.val() {
            self.m_old.d.next = self.h_old.q.val();
            self.m_now.d.next = self.h_now.q.val();
            self.m_ev.d.next = self.h_ev.q.val();
            self.m_eff.d.next = self.h_eff.q.val();
            self.m_t1.d.next = self.t1_sum.val().get_bits::<ALPHA_W>(10);
            self.m_alpha_diff.d.next = self.h_eff.q.val().a_e - self.h_old.q.val().ta_e;
            self.m_alpha_ge.d.next = self.h_eff.q.val().a_r >= self.h_old.q.val().ta_r;
            self.m_dec_diff.d.next = self.h_eff.q.val().d_e - self.h_old.q.val().td_e;
            self.m_dec_ge.d.next = self.h_eff.q.val().d_r >= self.h_old.q.val().td_r;
            // Increases strictly before the cut: up to a microsecond before it.
            self.m_k1_diff.d.next = self.h_tdi_m1_e.q.val() - self.h_old.q.val().ti_e;
            self.m_k1_ge.d.next = self.h_tdi_m1_r.q.val() >= self.h_old.q.val().ti_r;
            // Alpha expiries up to and including the cut's instant.
            self.m_acut_diff.d.next = self.h_old.q.val().tda_e - self.h_old.q.val().ta_e;
            self.m_acut_ge.d.next = self.h_old.q.val().tda_r >= self.h_old.q.val().ta_r;
        }

        // ---- A3: the counts (`diff + ge`, saturating), whether a decrease check cuts ----
        self.f_alpha.diff.next = self.m_alpha_diff.q.val();
        self.f_alpha.ge.next = self.m_alpha_ge.q.val();
        self.f_k1.diff.next = self.m_k1_diff.q.val();
        self.f_k1.ge.next = self.m_k1_ge.q.val();
        self.f_acut.diff.next = self.m_acut_diff.q.val();
        self.f_acut.ge.next = self.m_acut_ge.q.val();
        self.dec_any.next = !self.m_dec_diff.q.val().get_bit(31)
            & (self.m_dec_diff.q.val().any() | self.m_dec_ge.q.val());
        self.do_cut.next =
            self.m_old.q.val().limited & self.m_old.q.val().cnp_dec & self.dec_any.val();
        if self.en.val() {
            self.a_old.d.next = self.m_old.q.val();
            self.a_now.d.next = self.m_now.q.val();
            self.a_ev.d.next = self.m_ev.q.val();
            self.a_eff.d.next = self.m_eff.q.val();
            self.a_n_alpha.d.next = self.f_alpha.n.val();
            self.a_n_acut.d.next = self.f_acut.n.val();
            self.a_k1.d.next = self.f_k1.n.val();
            self.a_do_cut.d.next = self.do_cut.val();
            self.a_dec_any.d.next = self.dec_any.val();
            self.a_t1.d.next = self.t1.val();
        }

        // ======== step B ========
        // ---- alpha: the power table ----
        self.pow_now.clock.next = self.clock.val();
        self.pow_now.en.next = self.en.val();
        self.pow_cut.clock.next = self.clock.val();
        self.pow_cut.en.next = self.en.val();
        self.pow_now.alpha.next = self.a_old.q.val().alpha;
        self.pow_now.t1.next = self.a_t1.q.val();
        self.pow_now.n.next = self.a_n_alpha.q.val();
        self.lo_addr0.next = self.pow_now.lo_addr.val();
        self.hi_addr0.next = self.pow_now.hi_addr.val();
        self.pow_now.lo_val.next = self.lo_val0.val();
        self.pow_now.hi_val.next = self.hi_val0.val();
        self.pow_cut.alpha.next = self.a_old.q.val().alpha;
        self.pow_cut.t1.next = self.a_t1.q.val();
        self.pow_cut.n.next = self.a_n_acut.q.val();
        self.lo_addr1.next = self.pow_cut.lo_addr.val();
        self.hi_addr1.next = self.pow_cut.hi_addr.val();
        self.pow_cut.lo_val.next = self.lo_val1.val();
        self.pow_cut.hi_val.next = self.hi_val1.val();

        // ---- increases before the cut ----
        // Increases before the cut only when there is a cut: the choice is made here, after
        // the registers, since as `a_k1`'s synchronous reset `do_cut` (`dec_any`'s OR of a
        // 32-bit difference) does not fit 10 ns.
        self.seg1.k.next = 0.into();
        if self.a_do_cut.q.val() {
            self.seg1.k.next = self.a_k1.q.val();
        }
        self.seg1.t.next = self.a_old.q.val().t;
        self.seg1.bc.next = self.a_old.q.val().bc;
        self.seg1.rc.next = self.a_old.q.val().rc;
        self.seg1.rt.next = self.a_old.q.val().rt;
        self.seg1.th.next = self.cfg.val().threshold;
        self.seg1.byte_off.next = self.byte_off.val();
        self.seg1.ai.next = self.cfg.val().ai_rate;
        self.seg1.hai.next = self.cfg.val().hai_rate;
        self.seg1.max.next = self.cfg.val().max_rate;
        self.seg1_w.next.rc = self.seg1.rc_o.val();
        self.seg1_w.next.rt = self.seg1.rt_o.val();
        self.seg1_w.next.t = self.seg1.t_o.val();
        self.seg1_w.next.released = self.seg1.released.val();
        self.seg1_w.next.cnt_fr = self.seg1.cnt_fr.val();
        self.seg1_w.next.cnt_ai = self.seg1.cnt_ai.val();
        self.seg1_w.next.cnt_hai = self.seg1.cnt_hai.val();
        self.seg1_w.next.rel_phase = self.seg1.rel_phase.val();
        self.seg1_w.next.rel_rc = self.seg1.rel_rc.val();
        self.seg1_w.next.rel_rt = self.seg1.rel_rt.val();
        self.seg1.clock.next = self.clock.val();
        self.seg1.en.next = self.en.val();
        // The context enters its line here and comes out at step C.
        self.ctx_b_in.next.old = self.a_old.q.val();
        self.ctx_b_in.next.now = self.a_now.q.val();
        self.ctx_b_in.next.ev = self.a_ev.q.val();
        self.ctx_b_in.next.eff = self.a_eff.q.val();
        self.ctx_b_in.next.alpha_any = self.a_n_alpha.q.val().any();
        self.ctx_b_in.next.do_cut = self.a_do_cut.q.val();
        self.ctx_b_in.next.dec_any = self.a_dec_any.q.val();
        self.ctx_b_in.next.bc_any = self.a_old.q.val().bc.any();
        self.ctx_b.clock.next = self.clock.val();
        self.ctx_b.en.next = self.en.val();
        self.ctx_b.d.next = self.ctx_b_in.val();
        self.b_old.next = self.ctx_b.q.val().old;
        self.b_now.next = self.ctx_b.q.val().now;
        self.b_ev.next = self.ctx_b.q.val().ev;
        self.b_eff.next = self.ctx_b.q.val().eff;
        self.b_alpha_any.next = self.ctx_b.q.val().alpha_any;
        self.b_do_cut.next = self.ctx_b.q.val().do_cut;
        self.b_dec_any.next = self.ctx_b.q.val().dec_any;
        self.alpha_b_in.next.now = self.pow_now.alpha_o.val();
        self.alpha_b_in.next.cut = self.pow_cut.alpha_o.val();
        self.alpha_b.clock.next = self.clock.val();
        self.alpha_b.en.next = self.en.val();
        self.alpha_b.d.next = self.alpha_b_in.val();
        self.b_alpha_cut.next = self.alpha_b.q.val().cut;
        if self.en.val() {
            // `seg1`'s result; the context comes out of `ctx_b`, alpha out of `alpha_b`.
            self.b_seg1.d.next = self.seg1_w.val();
        }

        // ======== step C ========
        // ---- the cut's rate half (`CUT_STAGES` registers); seg1's result and alpha at
        // now wait beside it ----
        self.cut.clock.next = self.clock.val();
        self.cut.en.next = self.en.val();
        self.cut.rc.next = self.b_seg1.q.val().rc;
        self.cut.alpha.next = self.b_alpha_cut.val();
        self.cut.cut_shift.next = self.cfg.val().cut_shift;
        self.cut.max_cut_q16.next = self.cfg.val().max_cut_q16;
        self.cut.min_rate.next = self.cfg.val().min_rate;
        // The hyper run's events are not applied in full when it released the limiter.
        self.b_seg1_z.next = self.b_seg1.q.val();
        if self.b_seg1.q.val().released {
            self.b_seg1_z.next.cnt_hai = 0.into();
        }
        self.seg1_c_in.next.seg = self.b_seg1_z.val();
        self.seg1_c_in.next.alpha_now = self.alpha_b.q.val().now;
        self.seg1_c_in.next.t_any = self.b_seg1.q.val().t.any();
        self.seg1_c.clock.next = self.clock.val();
        self.seg1_c.en.next = self.en.val();
        self.seg1_c.d.next = self.seg1_c_in.val();
        self.cs.next = self.seg1_c.q.val().seg;
        self.b_alpha_now.next = self.seg1_c.q.val().alpha_now;
        // ---- the word after the cut (the cut's target-rate half: Rt := Rc on a clamp) ----
        self.rt_cut.next = self.cs.val().rt;
        // The clamp's choice (28 loads) is one LUT after registers: `bc_any` and `t_any` are
        // ORed before their lines. ORed here, behind the lines, it does not fit 10 ns.
        if self.cfg.val().clamp_tgt_rate
            | self.ctx_b.q.val().bc_any
            | (self.cfg.val().clamp_after_t & self.seg1_c.q.val().t_any)
        {
            self.rt_cut.next = self.cs.val().rc;
        }
        self.after_cut.next = self.b_old.val();
        if self.b_do_cut.val() {
            self.after_cut.next.rc = self.cut.rc_o.val();
            self.after_cut.next.rt = self.rt_cut.val();
            self.after_cut.next.t = 0.into();
            self.after_cut.next.bc = 0.into();
            self.after_cut.next.acc = 0.into();
            self.after_cut.next.cnp_dec = false;
            // The check restarts the increase timer.
            self.after_cut.next.ti_e = self.b_old.val().tdi_e + self.one_e.val();
            self.after_cut.next.ti_r = self.b_old.val().tdi_r;
        }
        if self.en.val() {
            self.c_word.d.next = self.after_cut.val();
            self.c_now.d.next = self.b_now.val();
            self.c_ev.d.next = self.b_ev.val();
            self.c_eff.d.next = self.b_eff.val();
            self.c_alpha_any.d.next = self.b_alpha_any.val();
            self.c_do_cut.d.next = self.b_do_cut.val();
            self.c_dec_any.d.next = self.b_dec_any.val();
            self.c_alpha_now.d.next = self.b_alpha_now.val();
            self.c_seg1.d.next = self.cs.val();
        }
        // ---- the byte counter with the event's bytes (`acc` after the cut: 0 after a cut,
        // else the old word's; nothing later changes it before step E). Without a cut: ----
        self.ext_acc.i.next = self.b_old.val().acc;
        self.ext_bytes.i.next = self.b_ev.val().bytes;
        self.acc_sum.next = self.ext_acc.o.val() + self.ext_bytes.o.val();
        self.acc_sat.next = self.acc_sum.val().get_bits::<ACC_W>(0);
        if self.acc_sum.val().get_bit(32) {
            self.acc_sat.next = self.acc_max.val();
        }
        // acc_sat >= byte_reset: saturated (all ones), or acc + bytes - byte_reset >= 0.
        // The difference is a + b + !c + 1 summed as a carry-save layer (sum and majority
        // bits) and one add, so it runs beside `acc + bytes`, not after it.
        self.csa_a.i.next = self.b_old.val().acc;
        self.csa_b.i.next = self.b_ev.val().bytes;
        self.csa_c.i.next = self.cfg.val().byte_reset;
        self.csa_nc.next = !self.csa_c.o.val();
        self.csa_s.next = self.csa_a.o.val() ^ self.csa_b.o.val() ^ self.csa_nc.val();
        self.csa_k.next = (((self.csa_a.o.val() & self.csa_b.o.val())
            | (self.csa_a.o.val() & self.csa_nc.val())
            | (self.csa_b.o.val() & self.csa_nc.val()))
            << 1)
            | self.one_34.val();
        self.acc_diff.next = self.csa_s.val() + self.csa_k.val();
        self.acc_diff_unused.next = self.acc_diff.val();
        // ... and after a cut (`bytes` < 2^16 does not saturate).
        self.neg_br.next = self.csa_nc.val() + self.one_34.val();
        self.acc_dcut.next = self.csa_b.o.val() + self.neg_br.val();
        self.acc_dcut_unused.next = self.acc_dcut.val();
        self.ext_bytes32.i.next = self.b_ev.val().bytes;
        if self.en.val() {
            self.c_acc_sat.d.next = self.acc_sat.val();
            self.c_byte_fire.d.next = !self.byte_off.val()
                & (self.acc_sum.val().get_bit(32) | !self.acc_diff.val().get_bit(33));
            // acc_sat - byte_reset: the difference's low bits, or all ones minus byte_reset.
            self.c_acc_byte.d.next = self.acc_diff.val().get_bits::<ACC_W>(0);
            if self.acc_sum.val().get_bit(32) {
                self.c_acc_byte.d.next = !self.cfg.val().byte_reset;
            }
            if self.b_do_cut.val() {
                self.c_acc_sat.d.next = self.ext_bytes32.o.val();
                self.c_byte_fire.d.next = !self.byte_off.val() & !self.acc_dcut.val().get_bit(33);
                self.c_acc_byte.d.next = self.acc_dcut.val().get_bits::<ACC_W>(0);
            }
        }
        // The expiry count after the cut, first half (the word's next increase check is
        // `after_cut`'s: `tdi + 1` after a cut, `ti` without).
        self.k2_diff_cut.next = self.b_eff.val().i_e + !self.b_old.val().tdi_e;
        self.k2_diff_nocut.next = self.b_eff.val().i_e - self.b_old.val().ti_e;
        if self.en.val() {
            self.c_k2_diff.d.next = self.k2_diff_nocut.val();
            self.c_k2_ge.d.next = self.b_eff.val().i_r >= self.b_old.val().ti_r;
            if self.b_do_cut.val() {
                self.c_k2_diff.d.next = self.k2_diff_cut.val();
                self.c_k2_ge.d.next = self.b_eff.val().i_r >= self.b_old.val().tdi_r;
            }
        }

        // ======== step D ========
        // ---- increases after the cut (or all of them without one) ----
        self.f_k2.diff.next = self.c_k2_diff.q.val();
        self.f_k2.ge.next = self.c_k2_ge.q.val();
        self.seg2.k.next = self.f_k2.n.val();
        self.seg2.t.next = self.c_word.q.val().t;
        self.seg2.bc.next = self.c_word.q.val().bc;
        self.seg2.rc.next = self.c_word.q.val().rc;
        self.seg2.rt.next = self.c_word.q.val().rt;
        self.seg2.th.next = self.cfg.val().threshold;
        self.seg2.byte_off.next = self.byte_off.val();
        self.seg2.ai.next = self.cfg.val().ai_rate;
        self.seg2.hai.next = self.cfg.val().hai_rate;
        self.seg2.max.next = self.cfg.val().max_rate;
        self.seg2_w.next.rc = self.seg2.rc_o.val();
        self.seg2_w.next.rt = self.seg2.rt_o.val();
        self.seg2_w.next.t = self.seg2.t_o.val();
        self.seg2_w.next.released = self.seg2.released.val();
        self.seg2_w.next.cnt_fr = self.seg2.cnt_fr.val();
        self.seg2_w.next.cnt_ai = self.seg2.cnt_ai.val();
        self.seg2_w.next.cnt_hai = self.seg2.cnt_hai.val();
        self.seg2_w.next.rel_phase = self.seg2.rel_phase.val();
        self.seg2_w.next.rel_rc = self.seg2.rel_rc.val();
        self.seg2_w.next.rel_rt = self.seg2.rel_rt.val();
        self.seg2.clock.next = self.clock.val();
        self.seg2.en.next = self.en.val();
        // The context enters its line here and comes out at step E1.
        self.ctx_d_in.next.word = self.c_word.q.val();
        self.ctx_d_in.next.now = self.c_now.q.val();
        self.ctx_d_in.next.ev = self.c_ev.q.val();
        self.ctx_d_in.next.eff_a_e = self.c_eff.q.val().a_e;
        self.ctx_d_in.next.eff_a_r = self.c_eff.q.val().a_r;
        self.ctx_d_in.next.eff_d_e = self.c_eff.q.val().d_e;
        self.ctx_d_in.next.eff_d_r = self.c_eff.q.val().d_r;
        self.ctx_d_in.next.eff_i_e = self.c_eff.q.val().i_e;
        self.ctx_d_in.next.eff_i_r = self.c_eff.q.val().i_r;
        self.ctx_d_in.next.alpha_any = self.c_alpha_any.q.val();
        self.ctx_d_in.next.do_cut = self.c_do_cut.q.val();
        self.ctx_d_in.next.dec_any = self.c_dec_any.q.val();
        self.ctx_d_in.next.alpha_now = self.c_alpha_now.q.val();
        self.ctx_d_in.next.seg1_released = self.c_seg1.q.val().released;
        self.ctx_d_in.next.seg1_cnt_fr = self.c_seg1.q.val().cnt_fr;
        self.ctx_d_in.next.seg1_cnt_ai = self.c_seg1.q.val().cnt_ai;
        self.ctx_d_in.next.seg1_cnt_hai = self.c_seg1.q.val().cnt_hai;
        self.ctx_d_in.next.seg1_rel_phase = self.c_seg1.q.val().rel_phase;
        self.ctx_d_in.next.seg1_rel_rc = self.c_seg1.q.val().rel_rc;
        self.ctx_d_in.next.seg1_rel_rt = self.c_seg1.q.val().rel_rt;
        self.ctx_d_in.next.acc_sat = self.c_acc_sat.q.val();
        self.ctx_d_in.next.acc_byte = self.c_acc_byte.q.val();
        self.ctx_d_in.next.byte_fire = self.c_byte_fire.q.val();
        self.ext_th.i.next = self.cfg.val().threshold;
        self.ctx_d_in.next.bc_lt_th = self.c_word.q.val().bc < self.ext_th.o.val();
        self.ctx_d_in.next.bc_gt_th = self.c_word.q.val().bc > self.ext_th.o.val();
        if self.en.val() {
            self.k2_q.d.next = !self.c_k2_diff.q.val().get_bit(31)
                & (self.c_k2_diff.q.val().any() | self.c_k2_ge.q.val());
        }
        self.k2_line.clock.next = self.clock.val();
        self.k2_line.en.next = self.en.val();
        self.k2_line.d.next = self.k2_q.q.val();
        self.ctx_d.clock.next = self.clock.val();
        self.ctx_d.en.next = self.en.val();
        self.ctx_d.d.next = self.ctx_d_in.val();
        self.d_word.next = self.ctx_d.q.val().word;
        self.d_now.next = self.ctx_d.q.val().now;
        self.d_ev.next = self.ctx_d.q.val().ev;
        self.d_ev_unused.next = self.d_ev.val();
        self.d_now_unused.next = self.d_now.val();
        self.d_alpha_any.next = self.ctx_d.q.val().alpha_any;
        self.d_do_cut.next = self.ctx_d.q.val().do_cut;
        self.d_dec_any.next = self.ctx_d.q.val().dec_any;
        self.d_alpha_now.next = self.ctx_d.q.val().alpha_now;
        self.d_k2_any.next = self.k2_line.q.val();
        if self.en.val() {
            // `seg2`'s result; the context comes out of `ctx_d`.
            self.d_seg2.d.next = self.seg2_w.val();
            self.d_t_lt.d.next = self.seg2.t_o.val() < self.ext_th.o.val();
            self.d_t_gt.d.next = self.seg2.t_o.val() > self.ext_th.o.val();
        }

        // ======== step E0: what E1's choices depend on, decided and registered (E1 then
        // chooses, and adds at most once, from registers) ========
        // ---- the caught-up state ----
        self.still_limited.next = self.d_word.val().limited
            & !(self.d_do_cut.val() & self.ctx_d.q.val().seg1_released)
            & !self.d_seg2.q.val().released;
        self.cu.next = self.d_word.val();
        self.cu.next.limited = self.still_limited.val();
        self.cu.next.rc = self.d_seg2.q.val().rc;
        self.cu.next.rt = self.d_seg2.q.val().rt;
        self.cu.next.t = self.d_seg2.q.val().t;
        self.cu.next.alpha = self.d_alpha_now.val();
        if self.d_k2_any.val() {
            self.cu.next.ti_e = self.ctx_d.q.val().eff_i_e;
            if self.ctx_d.q.val().eff_i_r >= self.d_word.val().ti_r {
                self.cu.next.ti_e = self.ctx_d.q.val().eff_i_e + self.one_e.val();
            }
        }
        if self.d_alpha_any.val() {
            self.cu.next.cnp_alpha = false;
            self.cu.next.ta_e = self.ctx_d.q.val().eff_a_e;
            if self.ctx_d.q.val().eff_a_r >= self.d_word.val().ta_r {
                self.cu.next.ta_e = self.ctx_d.q.val().eff_a_e + self.one_e.val();
            }
        }
        if self.d_dec_any.val() {
            self.cu.next.td_e = self.ctx_d.q.val().eff_d_e;
            if self.ctx_d.q.val().eff_d_r >= self.d_word.val().td_r {
                self.cu.next.td_e = self.ctx_d.q.val().eff_d_e + self.one_e.val();
            }
        }

        // ---- a transmitted packet on a limited QP: the byte event's phase and whether it
        // applies (its run starts in E1). The byte counter's arithmetic was done in step C
        // (`CtxD`: `acc_sat`, `acc_byte`, `byte_fire`). The caught-up T is `seg2`'s, BC the
        // word's; both were compared with the threshold in step D ----
        self.e0_nai.d.next = !self.cfg.val().ai_rate;
        self.e0_nhai.d.next = !self.cfg.val().hai_rate;
        self.byte_in_fr.next = self.d_t_lt.q.val() & self.ctx_d.q.val().bc_lt_th;
        self.byte_in_hai.next = self.d_t_gt.q.val() & self.ctx_d.q.val().bc_gt_th;
        // BC + 1, saturating at 63 (all ones).
        self.bc_inc.next = self.d_word.val().bc + self.one_stage.val();
        if self.d_word.val().bc.all() {
            self.bc_inc.next = self.d_word.val().bc;
        }
        self.byte_count.next = (self.d_ev.val().kind == self.kind_tx.val())
            & self.still_limited.val()
            & self.ctx_d.q.val().byte_fire;
        // ---- a CNP that starts limiting; commands and QPs not in DCQCN mode ----
        self.is_init.next =
            (self.d_ev.val().kind == self.kind_cnp.val()) & !self.still_limited.val();
        self.d_is_mode.next = self.d_ev.val().kind == self.kind_mode.val();
        self.d_ctl.next = (self.d_ev.val().kind == self.kind_reset.val()) | self.d_is_mode.val();
        self.d_mode_any.next = self.d_word.val().mode.any();
        self.ovr.next = self.d_ctl.val() | self.d_mode_any.val();
        // ---- the decrease check's base as E1 leaves it (its word's `td_e`, `td_r`, read
        // by the next decrease check only when no command or mode overrides the word) and
        // `p_dec + td_r` ----
        self.td_e_sel.next = self.d_word.val().td_e;
        if self.d_word.val().limited {
            self.td_e_sel.next = self.cu.val().td_e;
        }
        if self.is_init.val() {
            self.td_e_sel.next = self.d_now.val().d_e + self.one_e.val();
        }
        self.ext_td_r.i.next = self.d_word.val().td_r;
        self.ext_now_dr.i.next = self.d_now.val().d_r;
        self.ext_p_dec.i.next = self.cfg.val().p_dec;
        self.td_rp_w.next = self.ext_p_dec.o.val() + self.ext_td_r.o.val();
        self.td_rp_n.next = self.ext_p_dec.o.val() + self.ext_now_dr.o.val();
        if self.en.val() {
            self.e0_ctx.d.next = self.ctx_d.q.val();
            self.e0_seg2.d.next = self.d_seg2.q.val();
            // As at `cs`: zero the hyper count of a segment that released.
            if self.d_seg2.q.val().released {
                self.e0_seg2.d.next.cnt_hai = 0.into();
            }
            self.e0_cu.d.next = self.cu.val();
            self.e0_still.d.next = self.still_limited.val();
            self.e0_in_fr.d.next = self.byte_in_fr.val();
            self.e0_in_hai.d.next = self.byte_in_hai.val();
            self.e0_step.d.next = !self.e0_nai.q.val();
            if self.byte_in_fr.val() {
                self.e0_step.d.next = 0.into();
            } else if self.byte_in_hai.val() {
                self.e0_step.d.next = !self.e0_nhai.q.val();
            }
            self.e0_bc_inc.d.next = self.bc_inc.val();
            self.e0_byte_count.d.next = self.byte_count.val();
            self.e0_is_init.d.next = self.is_init.val();
            self.e0_ovr.d.next = self.ovr.val();
            self.e0_ctl.d.next = self.d_ctl.val();
            self.e0_is_mode.d.next = self.d_is_mode.val();
            self.e0_mode_any.d.next = self.d_mode_any.val();
            self.e0_td_e.d.next = self.td_e_sel.val();
            self.e0_td_r.d.next = self.ext_td_r.o.val();
            self.e0_td_rp.d.next = self.td_rp_w.val();
            if self.is_init.val() {
                self.e0_td_r.d.next = self.ext_now_dr.o.val();
                self.e0_td_rp.d.next = self.td_rp_n.val();
            }
        }

        // ======== step E1 ========
        // The context, out of E0's registers (`hdl_gen` reads one field level after
        // `val()`, so the nested ones get a name).
        self.e_ctx.next = self.e0_ctx.q.val();
        self.e_word.next = self.e_ctx.val().word;
        self.e_now.next = self.e_ctx.val().now;
        self.e_ev.next = self.e_ctx.val().ev;
        self.e_seg2.next = self.e0_seg2.q.val();
        self.e_cu.next = self.e0_cu.q.val();
        self.e1_unused.next.bytes = self.e_ev.val().bytes;
        self.e1_unused.next.alpha_any = self.e_ctx.val().alpha_any;
        self.e1_unused.next.dec_any = self.e_ctx.val().dec_any;
        self.e1_unused.next.alpha_now = self.e_ctx.val().alpha_now;
        self.e1_unused.next.byte_fire = self.e_ctx.val().byte_fire;
        self.e1_unused.next.seg2_rc = self.e_seg2.val().rc;
        self.e1_unused.next.seg2_rt = self.e_seg2.val().rt;
        self.e1_unused.next.seg2_t = self.e_seg2.val().t;
        self.e1_unused.next.bc_lt_th = self.e_ctx.val().bc_lt_th;
        self.e1_unused.next.bc_gt_th = self.e_ctx.val().bc_gt_th;
        // ---- the byte event's run starts here ----
        self.byte_run.clock.next = self.clock.val();
        self.byte_run.en.next = self.en.val();
        self.byte_run.n.next = 1.into();
        self.byte_run.step.next = self.e0_step.q.val();
        if self.en.val() {
            self.byte_p1.d.next = self.e0_step.q.val();
            self.byte_p2.d.next = self.byte_p1.q.val();
            self.byte_p3.d.next = self.byte_p2.q.val();
        }
        self.ext_byte_p.i.next = self.byte_p3.q.val();
        self.byte_run.nstep.next = self.ext_byte_p.o.val();
        self.byte_run.rc.next = self.e_cu.val().rc;
        self.byte_run.rt.next = self.e_cu.val().rt;
        self.byte_run.max.next = self.cfg.val().max_rate;

        // ---- apply the event, but for the byte event's run ----
        self.w_pre.next = self.e_word.val();
        if self.e0_is_init.q.val() {
            self.w_pre.next.limited = true;
            self.w_pre.next.rc = self.cfg.val().first_rate;
            self.w_pre.next.rt = self.cfg.val().first_rate;
            self.w_pre.next.alpha = self.cfg.val().alpha_init;
            self.w_pre.next.t = 0.into();
            self.w_pre.next.bc = 0.into();
            self.w_pre.next.acc = 0.into();
            self.w_pre.next.cnp_alpha = false;
            self.w_pre.next.cnp_dec = true;
            self.w_pre.next.sub = self.e_now.val().sub;
            self.w_pre.next.ta_e = self.e_now.val().a_e + self.one_e.val();
            self.w_pre.next.ta_r = self.e_now.val().a_r;
            self.w_pre.next.td_e = self.e_now.val().d_e + self.one_e.val();
            self.w_pre.next.td_r = self.e_now.val().d_r;
            self.w_pre.next.ti_e = self.e_now.val().i_e + self.one_e.val();
            self.w_pre.next.ti_r = self.e_now.val().i_r;
        } else if self.e_word.val().limited {
            self.w_pre.next = self.e_cu.val();
            if self.e0_still.q.val() {
                if self.e_ev.val().kind == self.kind_cnp.val() {
                    self.w_pre.next.cnp_alpha = true;
                    self.w_pre.next.cnp_dec = true;
                }
                if self.e_ev.val().kind == self.kind_tx.val() {
                    self.w_pre.next.acc = self.e_ctx.val().acc_sat;
                }
            }
        }

        // ---- the next decrease check in the alpha and increase radices: the divisions'
        // inputs (the byte event changes no timer) ----
        self.na_e.next = self.e_ctx.val().eff_a_e;
        self.na_r.next = self.e_ctx.val().eff_a_r;
        self.nd_e.next = self.e_ctx.val().eff_d_e;
        self.nd_r.next = self.e_ctx.val().eff_d_r;
        self.ni_e.next = self.e_ctx.val().eff_i_e;
        self.ni_r.next = self.e_ctx.val().eff_i_r;
        if self.e0_is_init.q.val() {
            self.na_e.next = self.e_now.val().a_e;
            self.na_r.next = self.e_now.val().a_r;
            self.nd_e.next = self.e_now.val().d_e;
            self.nd_r.next = self.e_now.val().d_r;
            self.ni_e.next = self.e_now.val().i_e;
            self.ni_r.next = self.e_now.val().i_r;
        }
        self.ext_nd_r.i.next = self.nd_r.val();
        self.ext_na_r.i.next = self.na_r.val();
        self.ext_ni_r.i.next = self.ni_r.val();
        self.ahead.next = self.e0_td_r.q.val() - self.ext_nd_r.o.val();
        if self.e0_td_e.q.val() != self.nd_e.val() {
            self.ahead.next = self.e0_td_rp.q.val() - self.ext_nd_r.o.val();
        }

        // ---- increase events by phase (golden: `timer_increases`, the byte event) ----
        self.byte_fr.next = 0.into();
        self.byte_ai.next = 0.into();
        self.byte_hai.next = 0.into();
        if self.e0_byte_count.q.val() {
            if self.e0_in_fr.q.val() {
                self.byte_fr.next = 1.into();
            } else if self.e0_in_hai.q.val() {
                self.byte_hai.next = 1.into();
            } else {
                self.byte_ai.next = 1.into();
            }
        }
        self.ext_fr1.i.next = self.e_ctx.val().seg1_cnt_fr;
        self.ext_ai1.i.next = self.e_ctx.val().seg1_cnt_ai;
        self.ext_hai1.i.next = self.e_ctx.val().seg1_cnt_hai;
        self.ext_fr2.i.next = self.e_seg2.val().cnt_fr;
        self.ext_ai2.i.next = self.e_seg2.val().cnt_ai;
        self.ext_hai2.i.next = self.e_seg2.val().cnt_hai;
        self.sum_fr.next = self.ext_fr1.o.val() + self.ext_fr2.o.val();
        self.sum_fr1.next = self.ext_fr1.o.val() - !self.ext_fr2.o.val();
        self.sum_ai.next = self.ext_ai1.o.val() + self.ext_ai2.o.val();
        self.sum_ai1.next = self.ext_ai1.o.val() - !self.ext_ai2.o.val();
        self.sum_hai.next = self.ext_hai1.o.val() + self.ext_hai2.o.val();
        self.sum_hai1.next = self.ext_hai1.o.val() - !self.ext_hai2.o.val();
        self.inc_fr_e.next = 0.into();
        self.inc_ai_e.next = 0.into();
        self.inc_hai_e.next = 0.into();
        self.inc_rel_e.next = false;
        self.inc_rel_phase_e.next = self.e_seg2.val().rel_phase;
        self.inc_rel_rc_e.next = self.e_seg2.val().rel_rc;
        self.inc_rel_rt_e.next = self.e_seg2.val().rel_rt;
        if self.e_ctx.val().seg1_released {
            // Released before the cut: the cut and the segment after it do not happen.
            self.inc_rel_phase_e.next = self.e_ctx.val().seg1_rel_phase;
            self.inc_rel_rc_e.next = self.e_ctx.val().seg1_rel_rc;
            self.inc_rel_rt_e.next = self.e_ctx.val().seg1_rel_rt;
            if self.e_word.val().limited {
                self.inc_fr_e.next = self.ext_fr1.o.val();
                self.inc_ai_e.next = self.ext_ai1.o.val();
                self.inc_hai_e.next = self.ext_hai1.o.val();
                self.inc_rel_e.next = true;
            }
        } else if self.e_word.val().limited {
            self.inc_fr_e.next = self.sum_fr.val();
            if self.byte_fr.val().any() {
                self.inc_fr_e.next = self.sum_fr1.val();
            }
            self.inc_ai_e.next = self.sum_ai.val();
            if self.byte_ai.val().any() {
                self.inc_ai_e.next = self.sum_ai1.val();
            }
            self.inc_hai_e.next = self.sum_hai.val();
            if self.byte_hai.val().any() {
                self.inc_hai_e.next = self.sum_hai1.val();
            }
            self.inc_rel_e.next = self.e_seg2.val().released;
        }
        self.did_cut_e.next = self.e_ctx.val().do_cut & !self.e_ctx.val().seg1_released;

        // ---- commands, and QPs not in DCQCN mode (golden: the top of `update`) ----
        self.rep_ovr_rc.next = self.cfg.val().max_rate;
        self.rep_ovr_rt.next = self.cfg.val().max_rate;
        if self.e0_ctl.q.val() {
            // `reset` zeroes the word; `mode` zeroes it but for the mode and host rate.
            self.w_pre.next = self.zero_word.val();
            if self.e0_is_mode.q.val() {
                self.w_pre.next.mode = self.e_ev.val().ctl_mode;
                self.w_pre.next.host_rate = self.e_ev.val().ctl_rate;
                if self.e_ev.val().ctl_mode == self.mode_host.val() {
                    self.rep_ovr_rc.next = self.e_ev.val().ctl_rate;
                    self.rep_ovr_rt.next = self.e_ev.val().ctl_rate;
                }
            }
        } else if self.e0_mode_any.q.val() {
            self.w_pre.next = self.e_word.val();
            if self.e_word.val().mode == self.mode_host.val() {
                self.rep_ovr_rc.next = self.e_word.val().host_rate;
                self.rep_ovr_rt.next = self.e_word.val().host_rate;
            }
        }
        if self.e0_ovr.q.val() {
            self.did_cut_e.next = false;
            self.inc_fr_e.next = 0.into();
            self.inc_ai_e.next = 0.into();
            self.inc_hai_e.next = 0.into();
            self.inc_rel_e.next = false;
        }
        if self.en.val() {
            self.e1_w.d.next = self.w_pre.val();
            self.e1_byte_apply.d.next = self.e0_byte_count.q.val();
            self.e1_acc_byte.d.next = self.e_ctx.val().acc_byte;
            self.e1_bc_inc.d.next = self.e0_bc_inc.q.val();
            self.e1_na_e.d.next = self.na_e.val();
            self.e1_ni_e.d.next = self.ni_e.val();
            self.e1_inc_fr.d.next = self.inc_fr_e.val();
            self.e1_inc_ai.d.next = self.inc_ai_e.val();
            self.e1_inc_hai.d.next = self.inc_hai_e.val();
            self.e1_inc_rel.d.next = self.inc_rel_e.val();
            self.e1_inc_rel_phase.d.next = self.inc_rel_phase_e.val();
            self.e1_inc_rel_rc.d.next = self.inc_rel_rc_e.val();
            self.e1_inc_rel_rt.d.next = self.inc_rel_rt_e.val();
            self.e1_did_cut.d.next = self.did_cut_e.val();
            self.e1_ovr.d.next = self.e0_ovr.q.val();
            self.e1_rep_ovr_rc.d.next = self.rep_ovr_rc.val();
            self.e1_rep_ovr_rt.d.next = self.rep_ovr_rt.val();
            self.e1_ahead.d.next = self.ahead.val();
            self.e1_na_r.d.next = self.ext_na_r.o.val();
            self.e1_ni_r.d.next = self.ext_ni_r.o.val();
            self.e2_num_a.d.next = self.e1_na_r.q.val() + self.e1_ahead.q.val();
            self.e2_num_i.d.next = self.e1_ni_r.q.val() + self.e1_ahead.q.val();
        }

        // ======== steps E2..: the divisions (`DIV_STAGES`); everything else waits for the
        // byte event's run ========
        self.div_a.clock.next = self.clock.val();
        self.div_a.en.next = self.en.val();
        self.div_a.num.next = self.e2_num_a.q.val();
        self.dv_p_a.d.next = self.cfg.val().p_alpha;
        self.dv_recip_a.d.next = self.cfg.val().recip_alpha;
        self.dv_p_i.d.next = self.cfg.val().p_inc;
        self.dv_recip_i.d.next = self.cfg.val().recip_inc;
        if self.reset.val() {
            self.dv_p_a.d.next = 0.into();
            self.dv_recip_a.d.next = 0.into();
            self.dv_p_i.d.next = 0.into();
            self.dv_recip_i.d.next = 0.into();
        }
        self.e4_max.d.next = self.cfg.val().max_rate;
        if self.reset.val() {
            self.e4_max.d.next = 0.into();
        }
        self.div_a.p.next = self.dv_p_a.q.val();
        self.div_a.recip.next = self.dv_recip_a.q.val();
        self.div_i.clock.next = self.clock.val();
        self.div_i.en.next = self.en.val();
        self.div_i.num.next = self.e2_num_i.q.val();
        self.div_i.p.next = self.dv_p_i.q.val();
        self.div_i.recip.next = self.dv_recip_i.q.val();
        self.dv_in.next.qa = self.div_a.q.val();
        self.dv_in.next.ra = self.div_a.r.val();
        self.dv_in.next.qi = self.div_i.q.val();
        self.dv_in.next.ri = self.div_i.r.val();
        self.div_line.clock.next = self.clock.val();
        self.div_line.en.next = self.en.val();
        self.div_line.d.next = self.dv_in.val();
        self.dq.next = self.div_line.q.val();
        self.e_in.next.w = self.e1_w.q.val();
        self.e_in.next.byte_apply = self.e1_byte_apply.q.val();
        self.e_in.next.acc_byte = self.e1_acc_byte.q.val();
        self.e_in.next.bc_inc = self.e1_bc_inc.q.val();
        self.e_in.next.na_e = self.e1_na_e.q.val();
        self.e_in.next.ni_e = self.e1_ni_e.q.val();
        self.e_in.next.inc_fr = self.e1_inc_fr.q.val();
        self.e_in.next.inc_ai = self.e1_inc_ai.q.val();
        self.e_in.next.inc_hai = self.e1_inc_hai.q.val();
        self.e_in.next.inc_rel = self.e1_inc_rel.q.val();
        self.e_in.next.inc_rel_phase = self.e1_inc_rel_phase.q.val();
        self.e_in.next.inc_rel_rc = self.e1_inc_rel_rc.q.val();
        self.e_in.next.inc_rel_rt = self.e1_inc_rel_rt.q.val();
        self.e_in.next.did_cut = self.e1_did_cut.q.val();
        self.e_in.next.ovr = self.e1_ovr.q.val();
        self.e_in.next.rep_ovr_rc = self.e1_rep_ovr_rc.q.val();
        self.e_in.next.rep_ovr_rt = self.e1_rep_ovr_rt.q.val();
        self.e_line.clock.next = self.clock.val();
        self.e_line.en.next = self.en.val();
        self.e_line.d.next = self.e_in.val();
        self.ew.next = self.e_line.q.val();

        // ======== step E4: the byte event's result, the next decrease check (registered
        // in E5, which only chooses) ========
        self.res.next = self.ew.val().w;
        if self.ew.val().byte_apply {
            self.res.next.acc = self.ew.val().acc_byte;
            self.res.next.rc = self.byte_run.rc_o.val();
            self.res.next.rt = self.byte_run.rt_o.val();
            self.res.next.bc = self.ew.val().bc_inc;
            self.res.next.limited = self.byte_run.rc_o.val() < self.e4_max.q.val();
        }
        self.ext_qa.i.next = self.dq.val().qa;
        self.ext_qi.i.next = self.dq.val().qi;
        self.e4.next.res = self.res.val();
        self.e4.next.set_td = !self.ew.val().ovr & self.res.val().limited;
        self.e4.next.tda_e = self.ew.val().na_e + self.ext_qa.o.val();
        self.e4.next.tda_r = self.dq.val().ra;
        self.e4.next.tdi_e = self.ew.val().ni_e + self.ext_qi.o.val();
        self.e4.next.tdi_r = self.dq.val().ri;
        self.e4.next.ovr = self.ew.val().ovr;
        self.e4.next.rep_ovr_rc = self.ew.val().rep_ovr_rc;
        self.e4.next.rep_ovr_rt = self.ew.val().rep_ovr_rt;
        self.e4.next.did_cut = self.ew.val().did_cut;
        self.e4.next.inc_fr = self.ew.val().inc_fr;
        self.e4.next.inc_ai = self.ew.val().inc_ai;
        self.e4.next.inc_hai = self.ew.val().inc_hai;
        self.e4.next.inc_rel = self.ew.val().inc_rel;
        self.e4.next.inc_rel_phase = self.ew.val().inc_rel_phase;
        self.e4.next.inc_rel_rc = self.ew.val().inc_rel_rc;
        self.e4.next.inc_rel_rt = self.ew.val().inc_rel_rt;
        if self.en.val() {
            self.e5.d.next = self.e4.val();
        }

        // ======== step E5: the word written back and the report ========
        self.e5_res.next = self.e5.q.val().res;
        self.next_word.next = self.e5_res.val();
        if self.e5.q.val().set_td {
            self.next_word.next.tda_e = self.e5.q.val().tda_e;
            self.next_word.next.tda_r = self.e5.q.val().tda_r;
            self.next_word.next.tdi_e = self.e5.q.val().tdi_e;
            self.next_word.next.tdi_r = self.e5.q.val().tdi_r;
        }
        self.rep_limited.next = false;
        self.rep_rc.next = self.cfg.val().max_rate;
        self.rep_rt.next = self.cfg.val().max_rate;
        self.rep_alpha.next = 0.into();
        if self.e5.q.val().ovr {
            self.rep_rc.next = self.e5.q.val().rep_ovr_rc;
            self.rep_rt.next = self.e5.q.val().rep_ovr_rt;
        } else if self.e5_res.val().limited {
            self.rep_limited.next = true;
            self.rep_rc.next = self.e5_res.val().rc;
            self.rep_rt.next = self.e5_res.val().rt;
            self.rep_alpha.next = self.e5_res.val().alpha;
        }
        self.did_cut.next = self.e5.q.val().did_cut;
        self.inc_fr.next = self.e5.q.val().inc_fr;
        self.inc_ai.next = self.e5.q.val().inc_ai;
        self.inc_hai.next = self.e5.q.val().inc_hai;
        self.inc_rel.next = self.e5.q.val().inc_rel;
        self.inc_rel_phase.next = self.e5.q.val().inc_rel_phase;
        self.inc_rel_rc.next = self.e5.q.val().inc_rel_rc;
        self.inc_rel_rt.next = self.e5.q.val().inc_rel_rt;

        // ======== next_t1: alpha after one more expiry, from E1's word ========
        // `1024 - g`: A1's register (`cq`), so the multiplier's operand comes from a
        // register, not from a subtractor after the parameter register.
        self.next_t1_c.i.next = self.cq.q.val();
        self.nt1_mul.clock.next = self.clock.val();
        self.nt1_mul.en.next = self.en.val();
        self.nt1_mul.a.next = self.e1_w.q.val().alpha;
        self.nt1_mul.b.next = self.next_t1_c.o.val();
        if self.en.val() {
            self.nt1_f1.d.next = self.e1_w.q.val().cnp_alpha;
            self.nt1_f2.d.next = self.nt1_f1.q.val();
            self.nt1_f3.d.next = self.nt1_f2.q.val();
        }
        self.nt1_prod.next = self.nt1_mul.p.val().get_bits::<ALPHA_W>(10);
        self.nt1_lo_unused.next = self.nt1_mul.p.val().get_bits::<10>(0);
        self.nt1_hi_unused.next = self.nt1_mul.p.val().get_bits::<33>(31);
        self.next_t1_g.i.next = self.cfg.val().g;
        self.nt1_g_sh.next = self.next_t1_g.o.val() << self.nt1_ten.val();
        if self.en.val() {
            self.nt1_sum.d.next = self.nt1_prod.val();
            if self.nt1_f3.q.val() {
                self.nt1_sum.d.next = self.nt1_prod.val() + self.nt1_g_sh.val();
            }
        }
        self.nt1_line.clock.next = self.clock.val();
        self.nt1_line.en.next = self.en.val();
        self.nt1_line.d.next = self.nt1_sum.q.val();
        self.next_t1.next = self.nt1_line.q.val();
    }
}
