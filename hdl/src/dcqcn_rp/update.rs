//! `RpUpdate`: the reaction point's next-state function for one event, in nine pipeline
//! steps (A, B1-B3, C, D1-D3, E) with [`UPD_STAGES`] = 8 registers between them.
//!
//! It is `sim::dcqcn_rp::update` in hardware: catch up every timer expiry since the QP was
//! last touched (closed form), then apply the event, then note the next decrease check in
//! the other two radices. The pipeline around it (`DcqcnRp`) feeds it the QP's state word
//! (from block RAM or forwarded) in step A and writes `next_word` back from step E.
//!
//! | step | work | registered at its end |
//! |---|---|---|
//! | A | now in each timer's radix (`RadixEff`), expiry counts (`Fired`), whether a decrease check cuts, alpha's first expiry (one multiplier) | `a_*`: the old word, now, the event, the three radices' now, counts, `t1` |
//! | B1 | alpha at now and at the cut (power table, two multipliers each); `seg1` step 1 (phases, fast-recovery run) | `b1_*`: the context and the alphas; `seg1`'s own registers |
//! | B2, B3 | `seg1` steps 2 (additive run) and 3 (hyper run) | `b2_*`, then `b_*` with `seg1`'s result |
//! | C | the cut (two multipliers) | `c_word`: the word after `seg1` and the cut |
//! | D1 | the expiries after the cut (`f_k2`), `seg2` step 1 | `d1_*` |
//! | D2, D3 | `seg2` steps 2 and 3 | `d2_*`, then `d_*` with `seg2`'s result |
//! | E | the caught-up word, the event (a transmitted packet's increase run), the next decrease check (two divisions), commands and modes, the report | the pipeline's write back |
//!
//! The context registers carry only what later steps read: the old word until the cut
//! replaces it by the word after the cut (`c_word`: the fields the cut and `seg1` change;
//! every other field, and the whole word of a QP that is not limited, is the old one), now,
//! the event, the radices' now, and the flags and alphas computed early.
//!
//! The parameters (`cfg`) and the power table are not staged: they may only change while no
//! event is in flight (the register block holds the core in reset while it applies). Each
//! step's register loads when `en` is high, so a stalled report stream holds every step.

use super::alpha::AlphaPow;
use super::rate::{Cut, IncRun, IncSegment};
use super::state::{QpWord, RpCfgWord, TimeWord};
use super::timer::{DivSmall, Fired, RadixEff};
use super::widths::*;
use crate::wide_mul::WideMul;
use crate::zero_ext::ZeroExt;
use rust_hdl::prelude::*;

/// Registers between the update's first and last step: an event's `next_word` and report
/// come out `UPD_STAGES` advancing cycles after its old word went in.
pub const UPD_STAGES: usize = 8;

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
    /// Events applied in full by phase.
    pub cnt_fr: Bits<COUNT_W>,
    pub cnt_ai: Bits<COUNT_W>,
    pub cnt_hai: Bits<COUNT_W>,
    /// The releasing run: phase, Rc and Rt before it.
    pub rel_phase: Bits<PHASE_W>,
    pub rel_rc: Bits<RATE_W>,
    pub rel_rt: Bits<RATE_W>,
}

/// Next state of one QP for one event, in [`UPD_STAGES`] + 1 pipeline steps.
#[derive(LogicBlock)]
pub struct RpUpdate {
    /// Clock of the stage registers.
    pub clock: Signal<In, Clock>,
    /// Advance: the stage registers load (low holds every stage, as the pipeline around
    /// it does when the report stream stalls).
    pub en: Signal<In, Bit>,
    /// The QP's state before the event (step A's input).
    pub old: Signal<In, QpWord>,
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
    eff_a: RadixEff,
    eff_d: RadixEff,
    eff_i: RadixEff,
    f_alpha: Fired,
    f_dec: Fired,
    f_k1: Fired,
    f_acut: Fired,
    /// alpha (Q.20) x `1024 - g` (Q.10): only bits `10..31` (alpha, Q.20) are used.
    mul_t1: WideMul<ALPHA_W, G_W, 31>,
    ext_g: ZeroExt<G_W, ALPHA_W>,
    cq: Signal<Local, Bits<G_W>>,
    t1: Signal<Local, Bits<ALPHA_W>>,
    g_q20: Signal<Local, Bits<ALPHA_W>>,
    tdi_m1_e: Signal<Local, Bits<EPOCH_W>>,
    tdi_m1_r: Signal<Local, Bits<REM_W>>,
    /// The three radices' "now" for this QP, one [`TimeWord`] (its `sub` is now's).
    eff: Signal<Local, TimeWord>,
    do_cut: Signal<Local, Bit>,
    /// The 10 fraction bits of `alpha * (1024 - g) / 1024`, which the floor drops: computed
    /// by the multiplier, used by nothing (Verilator ignores `*unused*` signals).
    t1_frac_unused: Signal<Local, Bits<10>>,
    /// The step reciprocals in `cfg` are for the counter pipeline (`IncCount`), which the
    /// pipeline feeds from `cfg` directly: not used here.
    recip_ai_unused: Signal<Local, Bits<STEP_RECIP_W>>,
    recip_hai_unused: Signal<Local, Bits<STEP_RECIP_W>>,
    // A -> B registers.
    a_old: DFF<QpWord>,
    a_now: DFF<TimeWord>,
    a_ev: DFF<EvWord>,
    a_eff: DFF<TimeWord>,
    a_n_alpha: DFF<Bits<COUNT_W>>,
    a_n_acut: DFF<Bits<COUNT_W>>,
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
    // While `seg1` runs its steps 2 and 3: the context, delayed.
    b1_old: DFF<QpWord>,
    b1_now: DFF<TimeWord>,
    b1_ev: DFF<EvWord>,
    b1_eff: DFF<TimeWord>,
    b1_alpha_any: DFF<Bit>,
    b1_do_cut: DFF<Bit>,
    b1_dec_any: DFF<Bit>,
    b1_alpha_now: DFF<Bits<ALPHA_W>>,
    b1_alpha_cut: DFF<Bits<ALPHA_W>>,
    b2_old: DFF<QpWord>,
    b2_now: DFF<TimeWord>,
    b2_ev: DFF<EvWord>,
    b2_eff: DFF<TimeWord>,
    b2_alpha_any: DFF<Bit>,
    b2_do_cut: DFF<Bit>,
    b2_dec_any: DFF<Bit>,
    b2_alpha_now: DFF<Bits<ALPHA_W>>,
    b2_alpha_cut: DFF<Bits<ALPHA_W>>,
    // B -> C registers.
    b_old: DFF<QpWord>,
    b_now: DFF<TimeWord>,
    b_ev: DFF<EvWord>,
    b_eff: DFF<TimeWord>,
    b_alpha_any: DFF<Bit>,
    b_do_cut: DFF<Bit>,
    b_dec_any: DFF<Bit>,
    b_alpha_now: DFF<Bits<ALPHA_W>>,
    b_alpha_cut: DFF<Bits<ALPHA_W>>,
    b_seg1: DFF<SegWord>,

    // ---- step C: the cut ----
    cut: Cut,
    /// The QP's word after the increases before the cut and the cut (the old word
    /// without a cut).
    after_cut: Signal<Local, QpWord>,
    // C -> D registers.
    c_word: DFF<QpWord>,
    c_now: DFF<TimeWord>,
    c_ev: DFF<EvWord>,
    c_eff: DFF<TimeWord>,
    c_alpha_any: DFF<Bit>,
    c_do_cut: DFF<Bit>,
    c_dec_any: DFF<Bit>,
    c_alpha_now: DFF<Bits<ALPHA_W>>,
    c_seg1: DFF<SegWord>,

    // ---- step D: increases after the cut (all of them without one) ----
    f_k2: Fired,
    seg2: IncSegment,
    seg2_w: Signal<Local, SegWord>,
    // While `seg2` runs its steps 2 and 3: the context, delayed.
    d1_word: DFF<QpWord>,
    d1_now: DFF<TimeWord>,
    d1_ev: DFF<EvWord>,
    d1_eff: DFF<TimeWord>,
    d1_alpha_any: DFF<Bit>,
    d1_do_cut: DFF<Bit>,
    d1_dec_any: DFF<Bit>,
    d1_alpha_now: DFF<Bits<ALPHA_W>>,
    d1_seg1: DFF<SegWord>,
    d1_k2_any: DFF<Bit>,
    d2_word: DFF<QpWord>,
    d2_now: DFF<TimeWord>,
    d2_ev: DFF<EvWord>,
    d2_eff: DFF<TimeWord>,
    d2_alpha_any: DFF<Bit>,
    d2_do_cut: DFF<Bit>,
    d2_dec_any: DFF<Bit>,
    d2_alpha_now: DFF<Bits<ALPHA_W>>,
    d2_seg1: DFF<SegWord>,
    d2_k2_any: DFF<Bit>,
    // D -> E registers.
    d_word: DFF<QpWord>,
    d_now: DFF<TimeWord>,
    d_ev: DFF<EvWord>,
    d_eff: DFF<TimeWord>,
    d_alpha_any: DFF<Bit>,
    d_do_cut: DFF<Bit>,
    d_dec_any: DFF<Bit>,
    d_alpha_now: DFF<Bits<ALPHA_W>>,
    d_seg1: DFF<SegWord>,
    d_seg2: DFF<SegWord>,
    d_k2_any: DFF<Bit>,

    // ---- step E: caught-up state, the event, the next decrease check, the report ----
    byte_run: IncRun,
    div_a: DivSmall,
    div_i: DivSmall,
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
    // Transmitted packet.
    acc_sum: Signal<Local, Bits<33>>,
    acc_sat: Signal<Local, Bits<ACC_W>>,
    byte_fire: Signal<Local, Bit>,
    t_hi: Signal<Local, Bits<STAGE_W>>,
    t_lo: Signal<Local, Bits<STAGE_W>>,
    th6: Signal<Local, Bits<STAGE_W>>,
    bc_inc: Signal<Local, Bits<STAGE_W>>,
    // Event applied.
    res: Signal<Local, QpWord>,
    is_init: Signal<Local, Bit>,
    // Next decrease check in the other radices.
    na_e: Signal<Local, Bits<EPOCH_W>>,
    na_r: Signal<Local, Bits<REM_W>>,
    nd_e: Signal<Local, Bits<EPOCH_W>>,
    nd_r: Signal<Local, Bits<REM_W>>,
    ni_e: Signal<Local, Bits<EPOCH_W>>,
    ni_r: Signal<Local, Bits<REM_W>>,
    ahead: Signal<Local, Bits<NUM_W>>,
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
}

impl Default for RpUpdate {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            en: Default::default(),
            old: Default::default(),
            kind: Default::default(),
            ctl_mode: Default::default(),
            ctl_rate: Default::default(),
            bytes: Default::default(),
            now: Default::default(),
            cfg: Default::default(),
            did_cut: Default::default(),
            inc_fr: Default::default(),
            inc_ai: Default::default(),
            inc_hai: Default::default(),
            inc_rel: Default::default(),
            inc_rel_phase: Default::default(),
            inc_rel_rc: Default::default(),
            inc_rel_rt: Default::default(),
            next_word: Default::default(),
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
            eff_a: Default::default(),
            eff_d: Default::default(),
            eff_i: Default::default(),
            f_alpha: Default::default(),
            f_dec: Default::default(),
            f_k1: Default::default(),
            f_acut: Default::default(),
            mul_t1: Default::default(),
            ext_g: Default::default(),
            cq: Default::default(),
            t1: Default::default(),
            g_q20: Default::default(),
            tdi_m1_e: Default::default(),
            tdi_m1_r: Default::default(),
            eff: Default::default(),
            do_cut: Default::default(),
            t1_frac_unused: Default::default(),
            recip_ai_unused: Default::default(),
            recip_hai_unused: Default::default(),
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
            b1_old: Default::default(),
            b1_now: Default::default(),
            b1_ev: Default::default(),
            b1_eff: Default::default(),
            b1_alpha_any: Default::default(),
            b1_do_cut: Default::default(),
            b1_dec_any: Default::default(),
            b1_alpha_now: Default::default(),
            b1_alpha_cut: Default::default(),
            b2_old: Default::default(),
            b2_now: Default::default(),
            b2_ev: Default::default(),
            b2_eff: Default::default(),
            b2_alpha_any: Default::default(),
            b2_do_cut: Default::default(),
            b2_dec_any: Default::default(),
            b2_alpha_now: Default::default(),
            b2_alpha_cut: Default::default(),
            d1_word: Default::default(),
            d1_now: Default::default(),
            d1_ev: Default::default(),
            d1_eff: Default::default(),
            d1_alpha_any: Default::default(),
            d1_do_cut: Default::default(),
            d1_dec_any: Default::default(),
            d1_alpha_now: Default::default(),
            d1_seg1: Default::default(),
            d1_k2_any: Default::default(),
            d2_word: Default::default(),
            d2_now: Default::default(),
            d2_ev: Default::default(),
            d2_eff: Default::default(),
            d2_alpha_any: Default::default(),
            d2_do_cut: Default::default(),
            d2_dec_any: Default::default(),
            d2_alpha_now: Default::default(),
            d2_seg1: Default::default(),
            d2_k2_any: Default::default(),
            byte_off: Default::default(),
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
            cut: Default::default(),
            after_cut: Default::default(),
            c_word: Default::default(),
            c_now: Default::default(),
            c_ev: Default::default(),
            c_eff: Default::default(),
            c_alpha_any: Default::default(),
            c_do_cut: Default::default(),
            c_dec_any: Default::default(),
            c_alpha_now: Default::default(),
            c_seg1: Default::default(),
            f_k2: Default::default(),
            seg2: Default::default(),
            seg2_w: Default::default(),
            d_word: Default::default(),
            d_now: Default::default(),
            d_ev: Default::default(),
            d_eff: Default::default(),
            d_alpha_any: Default::default(),
            d_do_cut: Default::default(),
            d_dec_any: Default::default(),
            d_alpha_now: Default::default(),
            d_seg1: Default::default(),
            d_seg2: Default::default(),
            d_k2_any: Default::default(),
            byte_run: Default::default(),
            div_a: Default::default(),
            div_i: Default::default(),
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
            acc_sat: Default::default(),
            byte_fire: Default::default(),
            t_hi: Default::default(),
            t_lo: Default::default(),
            th6: Default::default(),
            bc_inc: Default::default(),
            res: Default::default(),
            is_init: Default::default(),
            na_e: Default::default(),
            na_r: Default::default(),
            nd_e: Default::default(),
            nd_r: Default::default(),
            ni_e: Default::default(),
            ni_r: Default::default(),
            ahead: Default::default(),
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
        }
    }
}

impl Logic for RpUpdate {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            b1_old,
            b1_now,
            b1_ev,
            b1_eff,
            b1_alpha_any,
            b1_do_cut,
            b1_dec_any,
            b1_alpha_now,
            b1_alpha_cut,
            b2_old,
            b2_now,
            b2_ev,
            b2_eff,
            b2_alpha_any,
            b2_do_cut,
            b2_dec_any,
            b2_alpha_now,
            b2_alpha_cut,
            d1_word,
            d1_now,
            d1_ev,
            d1_eff,
            d1_alpha_any,
            d1_do_cut,
            d1_dec_any,
            d1_alpha_now,
            d1_seg1,
            d1_k2_any,
            d2_word,
            d2_now,
            d2_ev,
            d2_eff,
            d2_alpha_any,
            d2_do_cut,
            d2_dec_any,
            d2_alpha_now,
            d2_seg1,
            d2_k2_any,
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
            b_old,
            b_now,
            b_ev,
            b_eff,
            b_alpha_any,
            b_do_cut,
            b_dec_any,
            b_alpha_now,
            b_alpha_cut,
            b_seg1,
            c_word,
            c_now,
            c_ev,
            c_eff,
            c_alpha_any,
            c_do_cut,
            c_dec_any,
            c_alpha_now,
            c_seg1,
            d_word,
            d_now,
            d_ev,
            d_eff,
            d_alpha_any,
            d_do_cut,
            d_dec_any,
            d_alpha_now,
            d_seg1,
            d_seg2,
            d_k2_any
        );
        self.recip_ai_unused.next = self.cfg.val().recip_ai;
        self.recip_hai_unused.next = self.cfg.val().recip_hai;
        self.byte_off.next = !self.cfg.val().byte_reset.any();

        // ======== step A ========
        // ---- where "now" is for this QP's timers ----
        self.eff_a.now_e.next = self.now.val().a_e;
        self.eff_a.now_r.next = self.now.val().a_r;
        self.eff_a.now_sub.next = self.now.val().sub;
        self.eff_a.qp_sub.next = self.old.val().sub;
        self.eff_a.period.next = self.cfg.val().p_alpha;
        self.eff_d.now_e.next = self.now.val().d_e;
        self.eff_d.now_r.next = self.now.val().d_r;
        self.eff_d.now_sub.next = self.now.val().sub;
        self.eff_d.qp_sub.next = self.old.val().sub;
        self.eff_d.period.next = self.cfg.val().p_dec;
        self.eff_i.now_e.next = self.now.val().i_e;
        self.eff_i.now_r.next = self.now.val().i_r;
        self.eff_i.now_sub.next = self.now.val().sub;
        self.eff_i.qp_sub.next = self.old.val().sub;
        self.eff_i.period.next = self.cfg.val().p_inc;
        self.eff.next.sub = self.now.val().sub;
        self.eff.next.a_e = self.eff_a.eff_e.val();
        self.eff.next.a_r = self.eff_a.eff_r.val();
        self.eff.next.d_e = self.eff_d.eff_e.val();
        self.eff.next.d_r = self.eff_d.eff_r.val();
        self.eff.next.i_e = self.eff_i.eff_e.val();
        self.eff.next.i_r = self.eff_i.eff_r.val();

        // ---- expiry counts ----
        self.f_alpha.upto_e.next = self.eff_a.eff_e.val();
        self.f_alpha.upto_r.next = self.eff_a.eff_r.val();
        self.f_alpha.first_e.next = self.old.val().ta_e;
        self.f_alpha.first_r.next = self.old.val().ta_r;
        self.f_dec.upto_e.next = self.eff_d.eff_e.val();
        self.f_dec.upto_r.next = self.eff_d.eff_r.val();
        self.f_dec.first_e.next = self.old.val().td_e;
        self.f_dec.first_r.next = self.old.val().td_r;
        // Increase events strictly before the cut: up to one microsecond before it.
        self.tdi_m1_e.next = self.old.val().tdi_e;
        self.tdi_m1_r.next = self.old.val().tdi_r - self.one_r.val();
        if !self.old.val().tdi_r.any() {
            self.tdi_m1_e.next = self.old.val().tdi_e - self.one_e.val();
            self.tdi_m1_r.next = self.cfg.val().p_inc - self.one_r.val();
        }
        self.f_k1.upto_e.next = self.tdi_m1_e.val();
        self.f_k1.upto_r.next = self.tdi_m1_r.val();
        self.f_k1.first_e.next = self.old.val().ti_e;
        self.f_k1.first_r.next = self.old.val().ti_r;
        // Alpha expiries up to and including the cut's instant.
        self.f_acut.upto_e.next = self.old.val().tda_e;
        self.f_acut.upto_r.next = self.old.val().tda_r;
        self.f_acut.first_e.next = self.old.val().ta_e;
        self.f_acut.first_r.next = self.old.val().ta_r;
        self.do_cut.next =
            self.old.val().limited & self.old.val().cnp_dec & (self.f_dec.n.val().any());

        // ---- alpha's first expiry, exactly ----
        self.cq.next = self.g_one.val() - self.cfg.val().g;
        self.mul_t1.a.next = self.old.val().alpha;
        self.mul_t1.b.next = self.cq.val();
        self.ext_g.i.next = self.cfg.val().g;
        self.g_q20.next = self.ext_g.o.val() << 10;
        self.t1_frac_unused.next = self.mul_t1.p.val().get_bits::<10>(0);
        self.t1.next = self.mul_t1.p.val().get_bits::<ALPHA_W>(10);
        if self.old.val().cnp_alpha {
            self.t1.next = self.mul_t1.p.val().get_bits::<ALPHA_W>(10) + self.g_q20.val();
        }
        if self.en.val() {
            self.a_old.d.next = self.old.val();
            self.a_now.d.next = self.now.val();
            self.a_ev.d.next.kind = self.kind.val();
            self.a_ev.d.next.bytes = self.bytes.val();
            self.a_ev.d.next.ctl_mode = self.ctl_mode.val();
            self.a_ev.d.next.ctl_rate = self.ctl_rate.val();
            self.a_eff.d.next = self.eff.val();
            self.a_n_alpha.d.next = self.f_alpha.n.val();
            self.a_n_acut.d.next = self.f_acut.n.val();
            self.a_k1.d.next = 0.into();
            if self.do_cut.val() {
                self.a_k1.d.next = self.f_k1.n.val();
            }
            self.a_do_cut.d.next = self.do_cut.val();
            self.a_dec_any.d.next = self.f_dec.n.val().any();
            self.a_t1.d.next = self.t1.val();
        }

        // ======== step B ========
        // ---- alpha: the power table ----
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
        self.seg1.k.next = self.a_k1.q.val();
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
        if self.en.val() {
            // B1: alpha done; the context waits for `seg1`'s steps 2 and 3 (B2, B3).
            self.b1_old.d.next = self.a_old.q.val();
            self.b1_now.d.next = self.a_now.q.val();
            self.b1_ev.d.next = self.a_ev.q.val();
            self.b1_eff.d.next = self.a_eff.q.val();
            self.b1_alpha_any.d.next = self.a_n_alpha.q.val().any();
            self.b1_do_cut.d.next = self.a_do_cut.q.val();
            self.b1_dec_any.d.next = self.a_dec_any.q.val();
            self.b1_alpha_now.d.next = self.pow_now.alpha_o.val();
            self.b1_alpha_cut.d.next = self.pow_cut.alpha_o.val();
            self.b2_old.d.next = self.b1_old.q.val();
            self.b2_now.d.next = self.b1_now.q.val();
            self.b2_ev.d.next = self.b1_ev.q.val();
            self.b2_eff.d.next = self.b1_eff.q.val();
            self.b2_alpha_any.d.next = self.b1_alpha_any.q.val();
            self.b2_do_cut.d.next = self.b1_do_cut.q.val();
            self.b2_dec_any.d.next = self.b1_dec_any.q.val();
            self.b2_alpha_now.d.next = self.b1_alpha_now.q.val();
            self.b2_alpha_cut.d.next = self.b1_alpha_cut.q.val();
            self.b_old.d.next = self.b2_old.q.val();
            self.b_now.d.next = self.b2_now.q.val();
            self.b_ev.d.next = self.b2_ev.q.val();
            self.b_eff.d.next = self.b2_eff.q.val();
            self.b_alpha_any.d.next = self.b2_alpha_any.q.val();
            self.b_do_cut.d.next = self.b2_do_cut.q.val();
            self.b_dec_any.d.next = self.b2_dec_any.q.val();
            self.b_alpha_now.d.next = self.b2_alpha_now.q.val();
            self.b_alpha_cut.d.next = self.b2_alpha_cut.q.val();
            self.b_seg1.d.next = self.seg1_w.val();
        }

        // ======== step C ========
        // ---- the cut ----
        self.cut.rc.next = self.b_seg1.q.val().rc;
        self.cut.rt.next = self.b_seg1.q.val().rt;
        self.cut.t.next = self.b_seg1.q.val().t;
        self.cut.bc.next = self.b_old.q.val().bc;
        self.cut.alpha.next = self.b_alpha_cut.q.val();
        self.cut.clamp.next = self.cfg.val().clamp_tgt_rate;
        self.cut.clamp_after_t.next = self.cfg.val().clamp_after_t;
        self.cut.cut_shift.next = self.cfg.val().cut_shift;
        self.cut.max_cut_q16.next = self.cfg.val().max_cut_q16;
        self.cut.min_rate.next = self.cfg.val().min_rate;
        self.after_cut.next = self.b_old.q.val();
        if self.b_do_cut.q.val() {
            self.after_cut.next.rc = self.cut.rc_o.val();
            self.after_cut.next.rt = self.cut.rt_o.val();
            self.after_cut.next.t = 0.into();
            self.after_cut.next.bc = 0.into();
            self.after_cut.next.acc = 0.into();
            self.after_cut.next.cnp_dec = false;
            // The check restarts the increase timer.
            self.after_cut.next.ti_e = self.b_old.q.val().tdi_e + self.one_e.val();
            self.after_cut.next.ti_r = self.b_old.q.val().tdi_r;
        }
        if self.en.val() {
            self.c_word.d.next = self.after_cut.val();
            self.c_now.d.next = self.b_now.q.val();
            self.c_ev.d.next = self.b_ev.q.val();
            self.c_eff.d.next = self.b_eff.q.val();
            self.c_alpha_any.d.next = self.b_alpha_any.q.val();
            self.c_do_cut.d.next = self.b_do_cut.q.val();
            self.c_dec_any.d.next = self.b_dec_any.q.val();
            self.c_alpha_now.d.next = self.b_alpha_now.q.val();
            self.c_seg1.d.next = self.b_seg1.q.val();
        }

        // ======== step D ========
        // ---- increases after the cut (or all of them without one) ----
        self.f_k2.upto_e.next = self.c_eff.q.val().i_e;
        self.f_k2.upto_r.next = self.c_eff.q.val().i_r;
        self.f_k2.first_e.next = self.c_word.q.val().ti_e;
        self.f_k2.first_r.next = self.c_word.q.val().ti_r;
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
        if self.en.val() {
            // D1, D2: the context waits for `seg2`'s steps 2 and 3.
            self.d1_word.d.next = self.c_word.q.val();
            self.d1_now.d.next = self.c_now.q.val();
            self.d1_ev.d.next = self.c_ev.q.val();
            self.d1_eff.d.next = self.c_eff.q.val();
            self.d1_alpha_any.d.next = self.c_alpha_any.q.val();
            self.d1_do_cut.d.next = self.c_do_cut.q.val();
            self.d1_dec_any.d.next = self.c_dec_any.q.val();
            self.d1_alpha_now.d.next = self.c_alpha_now.q.val();
            self.d1_seg1.d.next = self.c_seg1.q.val();
            self.d1_k2_any.d.next = self.f_k2.n.val().any();
            self.d2_word.d.next = self.d1_word.q.val();
            self.d2_now.d.next = self.d1_now.q.val();
            self.d2_ev.d.next = self.d1_ev.q.val();
            self.d2_eff.d.next = self.d1_eff.q.val();
            self.d2_alpha_any.d.next = self.d1_alpha_any.q.val();
            self.d2_do_cut.d.next = self.d1_do_cut.q.val();
            self.d2_dec_any.d.next = self.d1_dec_any.q.val();
            self.d2_alpha_now.d.next = self.d1_alpha_now.q.val();
            self.d2_seg1.d.next = self.d1_seg1.q.val();
            self.d2_k2_any.d.next = self.d1_k2_any.q.val();
            self.d_word.d.next = self.d2_word.q.val();
            self.d_now.d.next = self.d2_now.q.val();
            self.d_ev.d.next = self.d2_ev.q.val();
            self.d_eff.d.next = self.d2_eff.q.val();
            self.d_alpha_any.d.next = self.d2_alpha_any.q.val();
            self.d_do_cut.d.next = self.d2_do_cut.q.val();
            self.d_dec_any.d.next = self.d2_dec_any.q.val();
            self.d_alpha_now.d.next = self.d2_alpha_now.q.val();
            self.d_seg1.d.next = self.d2_seg1.q.val();
            self.d_k2_any.d.next = self.d2_k2_any.q.val();
            self.d_seg2.d.next = self.seg2_w.val();
        }

        // ======== step E ========
        // ---- the caught-up state ----
        self.still_limited.next = self.d_word.q.val().limited
            & !(self.d_do_cut.q.val() & self.d_seg1.q.val().released)
            & !self.d_seg2.q.val().released;
        self.cu.next = self.d_word.q.val();
        self.cu.next.limited = self.still_limited.val();
        self.cu.next.rc = self.d_seg2.q.val().rc;
        self.cu.next.rt = self.d_seg2.q.val().rt;
        self.cu.next.t = self.d_seg2.q.val().t;
        self.cu.next.alpha = self.d_alpha_now.q.val();
        if self.d_k2_any.q.val() {
            self.cu.next.ti_e = self.d_eff.q.val().i_e;
            if self.d_eff.q.val().i_r >= self.d_word.q.val().ti_r {
                self.cu.next.ti_e = self.d_eff.q.val().i_e + self.one_e.val();
            }
        }
        if self.d_alpha_any.q.val() {
            self.cu.next.cnp_alpha = false;
            self.cu.next.ta_e = self.d_eff.q.val().a_e;
            if self.d_eff.q.val().a_r >= self.d_word.q.val().ta_r {
                self.cu.next.ta_e = self.d_eff.q.val().a_e + self.one_e.val();
            }
        }
        if self.d_dec_any.q.val() {
            self.cu.next.td_e = self.d_eff.q.val().d_e;
            if self.d_eff.q.val().d_r >= self.d_word.q.val().td_r {
                self.cu.next.td_e = self.d_eff.q.val().d_e + self.one_e.val();
            }
        }

        // ---- a transmitted packet on a limited QP ----
        self.ext_acc.i.next = self.cu.val().acc;
        self.ext_bytes.i.next = self.d_ev.q.val().bytes;
        self.acc_sum.next = self.ext_acc.o.val() + self.ext_bytes.o.val();
        self.acc_sat.next = self.acc_sum.val().get_bits::<ACC_W>(0);
        if self.acc_sum.val().get_bit(32) {
            self.acc_sat.next = self.acc_max.val();
        }
        self.byte_fire.next =
            !self.byte_off.val() & (self.acc_sat.val() >= self.cfg.val().byte_reset);
        self.ext_th.i.next = self.cfg.val().threshold;
        self.th6.next = self.ext_th.o.val();
        self.t_hi.next = self.cu.val().t;
        self.t_lo.next = self.cu.val().bc;
        if self.cu.val().bc > self.cu.val().t {
            self.t_hi.next = self.cu.val().bc;
            self.t_lo.next = self.cu.val().t;
        }
        self.byte_run.n.next = 1.into();
        self.byte_run.step.next = self.cfg.val().ai_rate;
        if self.t_hi.val() < self.th6.val() {
            self.byte_run.step.next = 0.into();
        } else if self.t_lo.val() > self.th6.val() {
            self.byte_run.step.next = self.cfg.val().hai_rate;
        }
        self.byte_run.rc.next = self.cu.val().rc;
        self.byte_run.rt.next = self.cu.val().rt;
        self.byte_run.max.next = self.cfg.val().max_rate;
        // BC + 1, saturating at 63 (all ones).
        self.bc_inc.next = self.cu.val().bc + self.one_stage.val();
        if self.cu.val().bc.all() {
            self.bc_inc.next = self.cu.val().bc;
        }

        // ---- apply the event ----
        self.is_init.next =
            (self.d_ev.q.val().kind == self.kind_cnp.val()) & !self.still_limited.val();
        self.res.next = self.d_word.q.val();
        if self.is_init.val() {
            self.res.next.limited = true;
            self.res.next.rc = self.cfg.val().first_rate;
            self.res.next.rt = self.cfg.val().first_rate;
            self.res.next.alpha = self.cfg.val().alpha_init;
            self.res.next.t = 0.into();
            self.res.next.bc = 0.into();
            self.res.next.acc = 0.into();
            self.res.next.cnp_alpha = false;
            self.res.next.cnp_dec = true;
            self.res.next.sub = self.d_now.q.val().sub;
            self.res.next.ta_e = self.d_now.q.val().a_e + self.one_e.val();
            self.res.next.ta_r = self.d_now.q.val().a_r;
            self.res.next.td_e = self.d_now.q.val().d_e + self.one_e.val();
            self.res.next.td_r = self.d_now.q.val().d_r;
            self.res.next.ti_e = self.d_now.q.val().i_e + self.one_e.val();
            self.res.next.ti_r = self.d_now.q.val().i_r;
        } else if self.d_word.q.val().limited {
            self.res.next = self.cu.val();
            if self.still_limited.val() {
                if self.d_ev.q.val().kind == self.kind_cnp.val() {
                    self.res.next.cnp_alpha = true;
                    self.res.next.cnp_dec = true;
                }
                if self.d_ev.q.val().kind == self.kind_tx.val() {
                    self.res.next.acc = self.acc_sat.val();
                    if self.byte_fire.val() {
                        self.res.next.acc = self.acc_sat.val() - self.cfg.val().byte_reset;
                        self.res.next.rc = self.byte_run.rc_o.val();
                        self.res.next.rt = self.byte_run.rt_o.val();
                        self.res.next.bc = self.bc_inc.val();
                        self.res.next.limited = self.byte_run.rc_o.val() < self.cfg.val().max_rate;
                    }
                }
            }
        }

        // ---- the next decrease check in the alpha and increase radices ----
        self.na_e.next = self.d_eff.q.val().a_e;
        self.na_r.next = self.d_eff.q.val().a_r;
        self.nd_e.next = self.d_eff.q.val().d_e;
        self.nd_r.next = self.d_eff.q.val().d_r;
        self.ni_e.next = self.d_eff.q.val().i_e;
        self.ni_r.next = self.d_eff.q.val().i_r;
        if self.is_init.val() {
            self.na_e.next = self.d_now.q.val().a_e;
            self.na_r.next = self.d_now.q.val().a_r;
            self.nd_e.next = self.d_now.q.val().d_e;
            self.nd_r.next = self.d_now.q.val().d_r;
            self.ni_e.next = self.d_now.q.val().i_e;
            self.ni_r.next = self.d_now.q.val().i_r;
        }
        self.ext_td_r.i.next = self.res.val().td_r;
        self.ext_nd_r.i.next = self.nd_r.val();
        self.ext_p_dec.i.next = self.cfg.val().p_dec;
        self.ext_na_r.i.next = self.na_r.val();
        self.ext_ni_r.i.next = self.ni_r.val();
        self.ahead.next = self.ext_td_r.o.val() - self.ext_nd_r.o.val();
        if self.res.val().td_e != self.nd_e.val() {
            self.ahead.next =
                (self.ext_p_dec.o.val() + self.ext_td_r.o.val()) - self.ext_nd_r.o.val();
        }
        self.div_a.num.next = self.ext_na_r.o.val() + self.ahead.val();
        self.div_a.p.next = self.cfg.val().p_alpha;
        self.div_a.recip.next = self.cfg.val().recip_alpha;
        self.div_i.num.next = self.ext_ni_r.o.val() + self.ahead.val();
        self.div_i.p.next = self.cfg.val().p_inc;
        self.div_i.recip.next = self.cfg.val().recip_inc;

        self.ext_qa.i.next = self.div_a.q.val();
        self.ext_qi.i.next = self.div_i.q.val();
        self.next_word.next = self.res.val();
        if self.res.val().limited {
            self.next_word.next.tda_e = self.na_e.val() + self.ext_qa.o.val();
            self.next_word.next.tda_r = self.div_a.r.val();
            self.next_word.next.tdi_e = self.ni_e.val() + self.ext_qi.o.val();
            self.next_word.next.tdi_r = self.div_i.r.val();
        }

        // ---- report ----
        self.rep_limited.next = self.res.val().limited;
        self.rep_rc.next = self.cfg.val().max_rate;
        self.rep_rt.next = self.cfg.val().max_rate;
        self.rep_alpha.next = 0.into();
        if self.res.val().limited {
            self.rep_rc.next = self.res.val().rc;
            self.rep_rt.next = self.res.val().rt;
            self.rep_alpha.next = self.res.val().alpha;
        }
        self.did_cut.next = self.d_do_cut.q.val() & !self.d_seg1.q.val().released;

        // ---- increase events by phase (golden: `timer_increases`, the byte event) ----
        // Off the state path: these only feed IncCount's registers, and they settle in
        // parallel with the byte event's run, which follows the same segment outputs.
        self.byte_count.next = (self.d_ev.q.val().kind == self.kind_tx.val())
            & self.still_limited.val()
            & self.byte_fire.val();
        self.byte_fr.next = 0.into();
        self.byte_ai.next = 0.into();
        self.byte_hai.next = 0.into();
        if self.byte_count.val() {
            if self.t_hi.val() < self.th6.val() {
                self.byte_fr.next = 1.into();
            } else if self.t_lo.val() > self.th6.val() {
                self.byte_hai.next = 1.into();
            } else {
                self.byte_ai.next = 1.into();
            }
        }
        self.ext_fr1.i.next = self.d_seg1.q.val().cnt_fr;
        self.ext_ai1.i.next = self.d_seg1.q.val().cnt_ai;
        self.ext_hai1.i.next = self.d_seg1.q.val().cnt_hai;
        self.ext_fr2.i.next = self.d_seg2.q.val().cnt_fr;
        self.ext_ai2.i.next = self.d_seg2.q.val().cnt_ai;
        self.ext_hai2.i.next = self.d_seg2.q.val().cnt_hai;
        self.inc_fr.next = 0.into();
        self.inc_ai.next = 0.into();
        self.inc_hai.next = 0.into();
        self.inc_rel.next = false;
        self.inc_rel_phase.next = self.d_seg2.q.val().rel_phase;
        self.inc_rel_rc.next = self.d_seg2.q.val().rel_rc;
        self.inc_rel_rt.next = self.d_seg2.q.val().rel_rt;
        if self.d_seg1.q.val().released {
            // Released before the cut: the cut and the segment after it do not happen.
            self.inc_rel_phase.next = self.d_seg1.q.val().rel_phase;
            self.inc_rel_rc.next = self.d_seg1.q.val().rel_rc;
            self.inc_rel_rt.next = self.d_seg1.q.val().rel_rt;
            if self.d_word.q.val().limited {
                self.inc_fr.next = self.ext_fr1.o.val();
                self.inc_ai.next = self.ext_ai1.o.val();
                self.inc_hai.next = self.ext_hai1.o.val();
                self.inc_rel.next = true;
            }
        } else if self.d_word.q.val().limited {
            self.inc_fr.next = (self.ext_fr1.o.val() + self.ext_fr2.o.val()) + self.byte_fr.val();
            self.inc_ai.next = (self.ext_ai1.o.val() + self.ext_ai2.o.val()) + self.byte_ai.val();
            self.inc_hai.next =
                (self.ext_hai1.o.val() + self.ext_hai2.o.val()) + self.byte_hai.val();
            self.inc_rel.next = self.d_seg2.q.val().released;
        }

        // ---- commands, and QPs not in DCQCN mode (golden: the top of `update`) ----
        if self.d_ev.q.val().kind == self.kind_reset.val() {
            self.next_word.next = self.zero_word.val();
        } else if self.d_ev.q.val().kind == self.kind_mode.val() {
            self.next_word.next = self.zero_word.val();
            self.next_word.next.mode = self.d_ev.q.val().ctl_mode;
            self.next_word.next.host_rate = self.d_ev.q.val().ctl_rate;
        } else if self.d_word.q.val().mode.any() {
            self.next_word.next = self.d_word.q.val();
        }
        if (self.d_ev.q.val().kind == self.kind_reset.val())
            | (self.d_ev.q.val().kind == self.kind_mode.val())
            | self.d_word.q.val().mode.any()
        {
            self.did_cut.next = false;
            self.inc_fr.next = 0.into();
            self.inc_ai.next = 0.into();
            self.inc_hai.next = 0.into();
            self.inc_rel.next = false;
            self.rep_limited.next = false;
            self.rep_rc.next = self.cfg.val().max_rate;
            self.rep_rt.next = self.cfg.val().max_rate;
            self.rep_alpha.next = 0.into();
            if (self.d_ev.q.val().kind == self.kind_mode.val())
                & (self.d_ev.q.val().ctl_mode == self.mode_host.val())
            {
                self.rep_rc.next = self.d_ev.q.val().ctl_rate;
                self.rep_rt.next = self.d_ev.q.val().ctl_rate;
            }
            if (self.d_ev.q.val().kind != self.kind_reset.val())
                & (self.d_ev.q.val().kind != self.kind_mode.val())
                & (self.d_word.q.val().mode == self.mode_host.val())
            {
                self.rep_rc.next = self.d_word.q.val().host_rate;
                self.rep_rt.next = self.d_word.q.val().host_rate;
            }
        }
    }
}
