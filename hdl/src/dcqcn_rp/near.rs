//! `RpNear`: the RP's next-state function for an event that follows its QP's last write by
//! less than a microsecond, from the word that write produced (golden: `update_near` in
//! `sim::dcqcn_rp`). [`NEAR_STAGES`] = 8 registers from that word to the next one, where
//! the catch-up from an arbitrary old word (`update::RpUpdate`) takes `UPD_STAGES`.
//!
//! Why it is short: the word is caught up to its writer's time, and at most one of the
//! QP's timer instants falls between that and the event. So whether each timer fired is an
//! equality between its next expiry and the instant the event's `now` reaches (`now`, or a
//! microsecond before it when now's cycle within the microsecond is before the QP's), and
//! each fires at most once: alpha is updated once (`t1 = alpha_after(alpha, flag, 1)`,
//! which the word carries beside it as its `t1`, so the cut's multiply starts two registers in);
//! a decrease check with its CNP flag set cuts with alpha as it is at that instant; else a
//! fired increase timer is one increase event (`Rt := min(Rt + step, max)`,
//! `Rc := ceil((Rc + Rt) / 2)`). Then the event: a CNP sets the flags or starts limiting;
//! a packet adds to the byte counter and may be one byte event; a query changes nothing;
//! commands replace the word.
//!
//! Timing of the ports: the event (`ev`, with its `now`) is presented [`NEAR_PRE`] = 2
//! cycles before its word. The word and its `t1` are one of five registers, chosen here by
//! the caller's registered selects (its forwarding choice): the block's own result
//! (`w_o`, `t1_o`), or the ports `w_1`, `w_2`, `w_3`, `w_h` with their `t1_*`. The results
//! (`w_o`, `t1_o` and the event's increase and cut counts) are registers loaded at the
//! [`NEAR_STAGES`]-th edge after the word was presented. So a result can be the word of an
//! event presented `NEAR_STAGES` cycles after the one it answers: one event of a QP every
//! 8 cycles.
//! The parameters come through registers of this block (`pc`, a copy of `cfg`, and values
//! derived from it such as `2 max_rate`, [`NEAR_CFG_CYCLES`] = 3 cycles after `cfg`):
//! `cfg` is steady while events are in flight, and an event reaches this block more than
//! three cycles after the RP takes it.
//! Everything that does not depend on the word is computed before it or beside the path: now a
//! microsecond earlier in each radix, and the next decrease check in the alpha and increase
//! radices as a first CNP or a decrease check at this instant leaves it (two `DivSmall`s
//! of `now + p_dec`, the earlier-microsecond candidate one microsecond less).
//!
//! | edge | registers | logic before it |
//! |---|---|---|
//! | -1 | the event | |
//! | 0 | now a microsecond earlier in each radix; `now + p_dec`'s dividends | a decrement per radix, two adds |
//! | 1 | the word; `late`; whether each timer's next expiry equals now and now a microsecond earlier, the epochs' halves and remainders apart (`y1_f*_n_el`, `y1_f*_n_eh`, `y1_f*_n_r`, `y1_f*_l_*`); both instants in the increase radix; the phase an increase event at the instant would have | per candidate word (`NearCheck`, five of them): `late` (a 10-bit compare) beside eighteen equalities (each epoch's low and high 16 bits apart, twelve of 16 bits; six of 17) and 6-bit compares of T and BC with the threshold; each check's results ANDed with its select, then ORed (one AND-OR level); the word's 5:1 choice by the selects |
//! | 2 | alpha at the instant; whether the cut clamps its Rt to Rc (from the chosen word's BC and T); the increase's `Rt + step`; `acc + bytes`; `Rc + Rt` and `Rc + Rc` | whether each timer fired (`fa`, `fd`, `fi`: the three equalities `late` chooses, and `limited`, an 8-input function each, two LUT4s and a PFUMX), then 2:1 choices by them and edge 1's registers, adds |
//! | 3..5 | the cut's Rt and `Rc + Rt_c + 1` (3: the clamp's 2:1 choices before the adds); `Rc * alpha`, `Rc * max_cut_q16`, `alpha * (1024 - g)` (three `PipeMul`s); the increase event (min, then the halved sum, then the release compare); the byte event's phase without a cut (3: T after the instant, the word's or `y2_t_i` by `y2_inc`, and T and BC against the threshold, each candidate compared before the choice), its sum (4: `Rt + step`) and test | |
//! | 6 | the cut's two candidates; `t1` of the new alpha; the divisions' results; whether the packet is a byte event and the decrease timer fired while limited; whether the event is a CNP or a command and the QP not in DCQCN mode, and edge 7's one-hot choice of the next decrease checks (`y6_xk`, `y6_xn`, `y6_xs`) | a barrel shift, adds |
//! | 7 | the cut's Rc (`Rc - cut`, clamped) and its byte event's Rc (`(Rc + Rt_c + 1 - cut) / 2`); the result's next decrease check in the alpha and increase radices as every case but the byte event's release leaves it (`y7_xd*`: a remainder a microsecond earlier is one carry chain whose borrow says it wraps to the period less one, a register beside `pc`); every choice of the last edge (limited at the instant, first CNP, byte event and its release, which timers to write, command, mode) and the epochs plus one it writes | the cut's results for both candidates, each with its clamp applied, in parallel with the compare that picks the smaller (`cut = min(..)`), then chosen; the byte event's release from them; adds |
//! | 8 | the result (`w_o`, `t1_o`, counts) | the choice of each field between registers, by registered selects (its control has no logic before it, but for the release, one LUT of three registers, and the 98 bits of the other radices' decrease check, a 2:1 choice by the release and `y7_fdk`: the word's 409 bits are spread wide, so every select reaches many of them) |

use super::near_check::NearCheck;
use super::state::{QpWord, RpCfgWord, RpEvent, TimeWord};
use super::timer::DivSmall;
use super::widths::*;
use crate::pipe_mul::PipeMul;
use crate::zero_ext::ZeroExt;
use rust_hdl::prelude::*;

/// Cycles by which the event precedes its word at the ports.
pub const NEAR_PRE: usize = 2;
/// Registers from the word to the results.
pub const NEAR_STAGES: usize = 8;
/// Cycles from `cfg` to the last of the block's parameter registers (`pc`, `max29`, then
/// `two_max`): `cfg` must be steady this long before an event is presented.
pub const NEAR_CFG_CYCLES: usize = 3;

/// Width of a rate sum (`Rc + Rt_c + 1`, `Rt + step`).
const SUM_W: usize = RATE_W + 1;
/// A remainder with its borrow: `r - 1` in `REM_W + 1` bits is negative (bit `REM_W` set)
/// exactly when `r` is 0. (`hdl_gen` writes an index's name into the Verilog, so bit
/// `REM_W` is read as the literal 17.)
const REM_B: usize = REM_W + 1;
const _: () = assert!(REM_W == 17);
/// Width of `Rc + Rt_c + 1 - 2 max` (signed).
const ZW: usize = RATE_W + 2;
// `hdl_gen` writes a constant in an index by name: its sign bit is the literal 29 below.
const _: () = assert!(ZW == 30);

/// The RP's next state for an event less than a microsecond after its QP's last write
/// (module docs). No enable: the registers load every cycle.
#[derive(LogicBlock)]
pub struct RpNear {
    /// Clock of every register.
    pub clock: Signal<In, Clock>,
    /// The event and its `now`, [`NEAR_PRE`] cycles before its word.
    pub ev: Signal<In, RpEvent>,
    /// The QP's word as its last write left it comes from one of five registers, chosen
    /// here (the caller's forwarding choice): the block's own result `w_o` when `sel_own`,
    /// else `w_1` when `sel_1`, `w_2` when `sel_2`, `w_3` when `sel_3`, else `w_h`
    /// (`sel_h`). The selects are registers of the caller; so are the words (module docs,
    /// edge 1). Exactly one of the five selects is high (the caller decodes them from one
    /// distance): the word is chosen by the first four, each check's results by its own.
    pub sel_own: Signal<In, Bit>,
    pub sel_1: Signal<In, Bit>,
    pub sel_2: Signal<In, Bit>,
    pub sel_3: Signal<In, Bit>,
    /// The history's word `w_h` is the chosen one: none of the other four selects is high.
    /// A register of the caller too, so that the history's check starts at flip-flops
    /// like the others (a NOR of the four here put a LUT and its route in front of the
    /// five checks' AND-OR).
    pub sel_h: Signal<In, Bit>,
    /// The candidate words other than the block's own: the RP's write-back registers W1,
    /// W2, W3 and the history's output register.
    pub w_1: Signal<In, QpWord>,
    pub w_2: Signal<In, QpWord>,
    pub w_3: Signal<In, QpWord>,
    pub w_h: Signal<In, QpWord>,
    /// Each candidate's `alpha_after(w.alpha, w.cnp_alpha, 1)`: alpha after one
    /// alpha-timer expiry, Q.20 (meaningful while `w.limited`); chosen with the word.
    pub t1_1: Signal<In, Bits<ALPHA_W>>,
    pub t1_2: Signal<In, Bits<ALPHA_W>>,
    pub t1_3: Signal<In, Bits<ALPHA_W>>,
    pub t1_h: Signal<In, Bits<ALPHA_W>>,
    /// Parameters (constant while events are in flight).
    pub cfg: Signal<In, RpCfgWord>,
    /// The QP's word after the event (for a query: its state now, which the caller does not
    /// write); [`NEAR_STAGES`] edges after the word was presented.
    pub w_o: Signal<Out, QpWord>,
    /// `alpha_after(w_o.alpha, w_o.cnp_alpha, 1)` (meaningful while `w_o.limited`).
    pub t1_o: Signal<Out, Bits<ALPHA_W>>,
    /// The event cut the rate.
    pub cut_o: Signal<Out, Bit>,
    /// Increase events the event applied in fast recovery, additive and hyper increase
    /// (the timer's at the instant and the byte event: 0..=2 in all).
    pub fr_o: Signal<Out, Bits<2>>,
    pub ai_o: Signal<Out, Bits<2>>,
    pub hai_o: Signal<Out, Bits<2>>,

    // ---- the parameters, registered here ----
    /// `cfg`, a cycle later: every parameter this block reads comes from this copy (and
    /// the registers below derived from it), so no path starts at the register block's
    /// copy, which sits far away and drives the whole RP.
    pc: DFF<RpCfgWord>,
    // ---- edge -1, 0: the event; now a microsecond earlier ----
    p1_ev: DFF<RpEvent>,
    x0_ev: DFF<RpEvent>,
    /// Now a microsecond earlier in the alpha, decrease and increase radices.
    x0_da_e: DFF<Bits<EPOCH_W>>,
    x0_da_r: DFF<Bits<REM_W>>,
    x0_dd_e: DFF<Bits<EPOCH_W>>,
    x0_dd_r: DFF<Bits<REM_W>>,
    x0_di_e: DFF<Bits<EPOCH_W>>,
    x0_di_r: DFF<Bits<REM_W>>,
    /// `now.a_r + p_dec`, `now.i_r + p_dec`: the divisions' dividends.
    x0_num_a: DFF<Bits<NUM_W>>,
    x0_num_i: DFF<Bits<NUM_W>>,
    div_a: DivSmall,
    div_i: DivSmall,
    ext_ar: ZeroExt<REM_W, NUM_W>,
    ext_ir: ZeroExt<REM_W, NUM_W>,
    ext_pd: ZeroExt<REM_W, NUM_W>,

    // ---- edge 1: which timers fired ----
    /// The first edge's compares, one block per candidate word (own result, W1, W2, W3,
    /// history), each from the candidate's registers.
    chk_own: NearCheck,
    chk_1: NearCheck,
    chk_2: NearCheck,
    chk_3: NearCheck,
    chk_h: NearCheck,
    /// The chosen candidate's word and `t1` (its compares are the OR of the five checks':
    /// only the chosen one's are not zero).
    w_in: Signal<Local, QpWord>,
    t1_in: Signal<Local, Bits<ALPHA_W>>,
    y1_w: DFF<QpWord>,
    y1_t1: DFF<Bits<ALPHA_W>>,
    y1_ev: DFF<RpEvent>,
    /// Whether each timer's next expiry equals now (`*_n`) and now a microsecond earlier
    /// (`*_l`), as three registers each: the epochs' low and high 16 bits are equal
    /// (`*_el`, `*_eh`) and the remainders are (`*_r`, 17 bits). Edge 2 ANDs the three,
    /// chooses by `y1_late` and ANDs `limited` (two LUT4s and a PFUMX, as deep as with the
    /// epoch in one register), so edge 1 holds only equalities of 16 or 17 bits of its
    /// registers with each candidate word and the choice of one candidate's results: a
    /// 32-bit equality was one LUT level more, after a long route from the word.
    y1_fa_n_el: DFF<Bit>,
    y1_fa_n_eh: DFF<Bit>,
    y1_fa_n_r: DFF<Bit>,
    y1_fa_l_el: DFF<Bit>,
    y1_fa_l_eh: DFF<Bit>,
    y1_fa_l_r: DFF<Bit>,
    y1_fd_n_el: DFF<Bit>,
    y1_fd_n_eh: DFF<Bit>,
    y1_fd_n_r: DFF<Bit>,
    y1_fd_l_el: DFF<Bit>,
    y1_fd_l_eh: DFF<Bit>,
    y1_fd_l_r: DFF<Bit>,
    y1_fi_n_el: DFF<Bit>,
    y1_fi_n_eh: DFF<Bit>,
    y1_fi_n_r: DFF<Bit>,
    y1_fi_l_el: DFF<Bit>,
    y1_fi_l_eh: DFF<Bit>,
    y1_fi_l_r: DFF<Bit>,
    /// The increase radix's now and now a microsecond earlier (edge 2 chooses the instant).
    y1_in_e: DFF<Bits<EPOCH_W>>,
    y1_in_r: DFF<Bits<REM_W>>,
    y1_il_e: DFF<Bits<EPOCH_W>>,
    y1_il_r: DFF<Bits<REM_W>>,
    /// Now's cycle within the microsecond is before the word's: the instant is a
    /// microsecond before now.
    y1_late: DFF<Bit>,
    /// The instant's increase event's phase (fast recovery, hyper increase), from the
    /// word's counters.
    y1_ti_fr: DFF<Bit>,
    y1_ti_hai: DFF<Bit>,
    // ---- edge 2 ----
    /// Only the kinds, the mode and the limited bit matter from here: the choices.
    /// Edge 2's view of edge 1: whether each timer fired at the instant (while limited) and
    /// the increase radix's instant.
    fa: Signal<Local, Bit>,
    fd: Signal<Local, Bit>,
    fi: Signal<Local, Bit>,
    ei_e: Signal<Local, Bits<EPOCH_W>>,
    ei_r: Signal<Local, Bits<REM_W>>,
    cut_go: Signal<Local, Bit>,
    inc_go: Signal<Local, Bit>,
    /// The threshold, 6 bits wide (`pc.threshold`).
    th6: DFF<Bits<STAGE_W>>,
    ext_th: ZeroExt<THRESH_W, STAGE_W>,
    /// The byte counter is off (`pc.byte_reset == 0`).
    byte_off: DFF<Bit>,
    ti_fr: Signal<Local, Bit>,
    ti_hai: Signal<Local, Bit>,
    t_inc: Signal<Local, Bits<STAGE_W>>,
    step_i: Signal<Local, Bits<RATE_W>>,
    ext_rt: ZeroExt<RATE_W, SUM_W>,
    ext_rc: ZeroExt<RATE_W, SUM_W>,
    ext_step_i: ZeroExt<RATE_W, SUM_W>,
    ext_acc: ZeroExt<ACC_W, 33>,
    ext_bytes: ZeroExt<BYTES_W, 33>,
    ext_bytes32: ZeroExt<BYTES_W, ACC_W>,
    y2_w: DFF<QpWord>,
    y2_ev: DFF<RpEvent>,
    y2_late: DFF<Bit>,
    y2_fa: DFF<Bit>,
    y2_fd: DFF<Bit>,
    y2_cut: DFF<Bit>,
    y2_inc: DFF<Bit>,
    y2_alpha: DFF<Bits<ALPHA_W>>,
    /// The new alpha's CNP flag unless the event starts limiting.
    y2_flag: DFF<Bit>,
    /// The instant's increase event's phase: fast recovery, hyper (else additive).
    y2_i_fr: DFF<Bit>,
    y2_i_hai: DFF<Bit>,
    y2_rt_plus: DFF<Bits<SUM_W>>,
    /// T after the instant's increase event (`T + 1`, saturating); edge 3 chooses between
    /// it and the word's T by `y2_inc`, so `inc_go` ends at one register here instead of
    /// a multiplexer into T.
    y2_t_i: DFF<Bits<STAGE_W>>,
    /// A cut at the instant takes Rc as its Rt (golden `cut`'s clamp: `clamp_tgt_rate`,
    /// or the word's BC nonzero, or `clamp_tgt_rate_after_time_inc` and its T nonzero),
    /// from the chosen word's registers, so the edge-1 candidate checks leave it out.
    y2_clamp: DFF<Bit>,
    /// `Rc + Rt` and `Rc + Rc`: the cut's `Rc + Rt_c` without and with the clamp, which
    /// edge 3 chooses by `y2_clamp` (the cut's byte event sums from it).
    y2_x: DFF<Bits<SUM_W>>,
    y2_xc: DFF<Bits<SUM_W>>,
    y2_sum33: DFF<Bits<33>>,
    y2_ti_e: DFF<Bits<EPOCH_W>>,
    y2_ti_r: DFF<Bits<REM_W>>,
    // ---- edges 3..5 ----
    mul_a: PipeMul<RATE_W, ALPHA_W>,
    mul_m: PipeMul<RATE_W, 18>,
    mul_t1: PipeMul<ALPHA_W, 18>,
    mul_t1i: PipeMul<ALPHA_W, 18>,
    ext_q16: ZeroExt<CUTFRAC_W, 18>,
    ext_c1: ZeroExt<G_W, 18>,
    /// `1024 - g`, registered (a parameter: steady while events are in flight), so the
    /// multipliers' operand comes from a register, not from a subtractor after `pc`.
    c_g: DFF<Bits<G_W>>,
    k1024: Constant<Bits<G_W>>,
    /// `pc.max_rate`, a sum's width.
    max29: DFF<Bits<SUM_W>>,
    ext_max: ZeroExt<RATE_W, SUM_W>,
    ext_min: ZeroExt<RATE_W, SUM_W>,
    rt_i: Signal<Local, Bits<RATE_W>>,
    acc_sat: Signal<Local, Bits<ACC_W>>,
    y3_w: DFF<QpWord>,
    y3_ev: DFF<RpEvent>,
    y3_late: DFF<Bit>,
    y3_fa: DFF<Bit>,
    y3_fd: DFF<Bit>,
    y3_cut: DFF<Bit>,
    y3_inc: DFF<Bit>,
    y3_alpha: DFF<Bits<ALPHA_W>>,
    y3_flag: DFF<Bit>,
    y3_i_fr: DFF<Bit>,
    y3_i_hai: DFF<Bit>,
    y3_rt_i: DFF<Bits<RATE_W>>,
    y3_t_n: DFF<Bits<STAGE_W>>,
    /// The cut's Rt (`Rc` when `y2_clamp`, else `Rt`) and its `Rc + Rt_c`.
    rt_c: Signal<Local, Bits<RATE_W>>,
    x_c: Signal<Local, Bits<SUM_W>>,
    y3_rt_c: DFF<Bits<RATE_W>>,
    y3_x: DFF<Bits<SUM_W>>,
    /// `min_rate + Rt_c + 1`: the cut's byte event's sum when the cut clamps.
    y3_m: DFF<Bits<SUM_W>>,
    y3_acc_sat: DFF<Bits<ACC_W>>,
    y3_fire_n: DFF<Bit>,
    /// The byte event after a cut (`acc = 0`): `bytes >= byte_reset`.
    y3_fire_c: DFF<Bit>,
    y3_acc_c: DFF<Bits<ACC_W>>,
    y3_ti_e: DFF<Bits<EPOCH_W>>,
    y3_ti_r: DFF<Bits<REM_W>>,
    /// The byte event's phase without a cut (T after the instant and BC against the
    /// threshold), registered a stage before it is used: with the threshold compares in
    /// front of the step's choice and the add, edge 4 does not fit 10 ns (the parameters'
    /// route is long).
    y3_b_fr: DFF<Bit>,
    y3_b_hai: DFF<Bit>,
    ext_x30: ZeroExt<SUM_W, ZW>,
    ext_max30: ZeroExt<SUM_W, ZW>,
    one29: Constant<Bits<SUM_W>>,
    one_e: Constant<Bits<EPOCH_W>>,
    one_r: Constant<Bits<REM_W>>,
    one_rb: Constant<Bits<REM_B>>,
    one6: Constant<Bits<STAGE_W>>,
    kind_cnp: Constant<Bits<KIND_W>>,
    kind_tx: Constant<Bits<KIND_W>>,
    kind_reset: Constant<Bits<KIND_W>>,
    kind_mode: Constant<Bits<KIND_W>>,
    rc_sum: Signal<Local, Bits<SUM_W>>,
    // ---- edge 4 ----
    y4_w: DFF<QpWord>,
    y4_ev: DFF<RpEvent>,
    y4_late: DFF<Bit>,
    y4_fa: DFF<Bit>,
    y4_fd: DFF<Bit>,
    y4_cut: DFF<Bit>,
    y4_inc: DFF<Bit>,
    y4_alpha: DFF<Bits<ALPHA_W>>,
    y4_flag: DFF<Bit>,
    y4_i_fr: DFF<Bit>,
    y4_i_hai: DFF<Bit>,
    y4_rt_i: DFF<Bits<RATE_W>>,
    y4_rc_i: DFF<Bits<RATE_W>>,
    y4_t_n: DFF<Bits<STAGE_W>>,
    y4_rt_c: DFF<Bits<RATE_W>>,
    y4_x: DFF<Bits<SUM_W>>,
    y4_m: DFF<Bits<SUM_W>>,
    y4_z: DFF<Bits<ZW>>,
    y4_acc_n: DFF<Bits<ACC_W>>,
    y4_fire_n: DFF<Bit>,
    y4_fire_c: DFF<Bit>,
    y4_acc_c: DFF<Bits<ACC_W>>,
    y4_ti_e: DFF<Bits<EPOCH_W>>,
    y4_ti_r: DFF<Bits<REM_W>>,
    /// The byte event's phase without a cut (from T after the instant and BC).
    y4_b_fr: DFF<Bit>,
    y4_b_hai: DFF<Bit>,
    /// The word's Rt after the instant without a cut, plus the byte event's step.
    y4_rtb_plus: DFF<Bits<SUM_W>>,
    rt_n: Signal<Local, Bits<RATE_W>>,
    step_b: Signal<Local, Bits<RATE_W>>,
    ext_rtn: ZeroExt<RATE_W, SUM_W>,
    ext_stepb: ZeroExt<RATE_W, SUM_W>,
    ext_rtn2: ZeroExt<RATE_W, SUM_W>,
    // ---- edge 5 ----
    y5_w: DFF<QpWord>,
    y5_ev: DFF<RpEvent>,
    y5_late: DFF<Bit>,
    y5_fa: DFF<Bit>,
    y5_fd: DFF<Bit>,
    y5_cut: DFF<Bit>,
    y5_inc: DFF<Bit>,
    y5_alpha: DFF<Bits<ALPHA_W>>,
    y5_flag: DFF<Bit>,
    y5_i_fr: DFF<Bit>,
    y5_i_hai: DFF<Bit>,
    /// The word after the instant without a cut: Rc, Rt, T, and whether it is limited.
    y5_rc_n: DFF<Bits<RATE_W>>,
    y5_rt_n: DFF<Bits<RATE_W>>,
    y5_t_n: DFF<Bits<STAGE_W>>,
    y5_lim_n: DFF<Bit>,
    y5_rt_c: DFF<Bits<RATE_W>>,
    y5_x: DFF<Bits<SUM_W>>,
    y5_m: DFF<Bits<SUM_W>>,
    y5_z: DFF<Bits<ZW>>,
    y5_acc_n: DFF<Bits<ACC_W>>,
    y5_fire_n: DFF<Bit>,
    y5_fire_c: DFF<Bit>,
    y5_acc_c: DFF<Bits<ACC_W>>,
    y5_ti_e: DFF<Bits<EPOCH_W>>,
    y5_ti_r: DFF<Bits<REM_W>>,
    y5_b_fr: DFF<Bit>,
    y5_b_hai: DFF<Bit>,
    y5_rt_b: DFF<Bits<RATE_W>>,
    // ---- edge 6 ----
    p_a: Signal<Local, Bits<49>>,
    p_a_hi_unused: Signal<Local, Bits<15>>,
    cut_a: Signal<Local, Bits<49>>,
    p_m_lo_unused: Signal<Local, Bits<16>>,
    p_m_hi_unused: Signal<Local, Bits<20>>,
    t1_prod: Signal<Local, Bits<ALPHA_W>>,
    t1_lo_unused: Signal<Local, Bits<10>>,
    t1_hi_unused: Signal<Local, Bits<33>>,
    t1i_prod: Signal<Local, Bits<ALPHA_W>>,
    t1i_lo_unused: Signal<Local, Bits<10>>,
    t1i_hi_unused: Signal<Local, Bits<33>>,
    g_sh: Signal<Local, Bits<ALPHA_W>>,
    ext_g: ZeroExt<G_W, ALPHA_W>,
    ten: Constant<Bits<SHIFT_W>>,
    y6_w: DFF<QpWord>,
    y6_ev: DFF<RpEvent>,
    y6_late: DFF<Bit>,
    y6_fa: DFF<Bit>,
    y6_fd: DFF<Bit>,
    y6_cut: DFF<Bit>,
    y6_inc: DFF<Bit>,
    y6_alpha: DFF<Bits<ALPHA_W>>,
    y6_flag: DFF<Bit>,
    y6_i_fr: DFF<Bit>,
    y6_i_hai: DFF<Bit>,
    y6_rc_n: DFF<Bits<RATE_W>>,
    y6_rt_n: DFF<Bits<RATE_W>>,
    y6_t_n: DFF<Bits<STAGE_W>>,
    y6_lim_n: DFF<Bit>,
    y6_rt_c: DFF<Bits<RATE_W>>,
    y6_x: DFF<Bits<SUM_W>>,
    y6_m: DFF<Bits<SUM_W>>,
    y6_z: DFF<Bits<ZW>>,
    y6_acc_n: DFF<Bits<ACC_W>>,
    y6_acc_c: DFF<Bits<ACC_W>>,
    y6_ti_e: DFF<Bits<EPOCH_W>>,
    y6_ti_r: DFF<Bits<REM_W>>,
    y6_b_fr: DFF<Bit>,
    y6_b_hai: DFF<Bit>,
    y6_rt_b: DFF<Bits<RATE_W>>,
    /// Edge 7's terms that do not wait for the cut's compare: limited at the instant
    /// (`lim6`), the decrease timer fired while limited, and the packet is a byte event.
    lim6: Signal<Local, Bit>,
    y6_fd_lim: DFF<Bit>,
    y6_fire: DFF<Bit>,
    /// `(Rt_b + Rc_n + 1) / 2`: Rc after the byte event without a cut.
    y6_rc_b: DFF<Bits<RATE_W>>,
    /// `cut_a`'s bits above `RATE_W` ORed in three parts (as in `rate::Cut`).
    y6_a_hi0: DFF<Bit>,
    y6_a_hi1: DFF<Bit>,
    y6_a_hi2: DFF<Bit>,
    y6_cut_a: DFF<Bits<RATE_W>>,
    y6_cut_m: DFF<Bits<RATE_W>>,
    y6_rc_mm: DFF<Bits<RATE_W>>,
    y6_rc_low: DFF<Bit>,
    y6_t1: DFF<Bits<ALPHA_W>>,
    y6_t1i: DFF<Bits<ALPHA_W>>,
    /// Now's epoch less one in the alpha and increase radices (the earlier candidates).
    y6_ema: DFF<Bits<EPOCH_W>>,
    y6_emi: DFF<Bits<EPOCH_W>>,
    y6_qa: DFF<Bits<NUM_W>>,
    y6_ra: DFF<Bits<REM_W>>,
    y6_qi: DFF<Bits<NUM_W>>,
    y6_ri: DFF<Bits<REM_W>>,
    rcb_sum: Signal<Local, Bits<SUM_W>>,
    ext_rcn: ZeroExt<RATE_W, SUM_W>,
    ext_rtb: ZeroExt<RATE_W, SUM_W>,
    ext_rcn2: ZeroExt<RATE_W, SUM_W>,
    ext_rtb2: ZeroExt<RATE_W, SUM_W>,
    // ---- edge 7 ----
    y7_w: DFF<QpWord>,
    y7_ev: DFF<RpEvent>,
    y7_cut: DFF<Bit>,
    y7_inc: DFF<Bit>,
    y7_alpha: DFF<Bits<ALPHA_W>>,
    y7_i_fr: DFF<Bit>,
    y7_i_hai: DFF<Bit>,
    y7_rc_n: DFF<Bits<RATE_W>>,
    y7_rt_n: DFF<Bits<RATE_W>>,
    y7_t_n: DFF<Bits<STAGE_W>>,
    y7_lim_n: DFF<Bit>,
    y7_rt_c: DFF<Bits<RATE_W>>,
    y7_ti_e: DFF<Bits<EPOCH_W>>,
    y7_ti_r: DFF<Bits<REM_W>>,
    y7_b_fr: DFF<Bit>,
    y7_b_hai: DFF<Bit>,
    y7_rt_b: DFF<Bits<RATE_W>>,
    y7_rc_b: DFF<Bits<RATE_W>>,
    /// The cut's Rc (`Rc - cut`, `min_rate` when the cut clamps).
    y7_rc_cut: DFF<Bits<RATE_W>>,
    /// Rc after the cut's byte event (`(Rc_cut + Rt_c + 1) / 2`).
    y7_rc_bc: DFF<Bits<RATE_W>>,
    /// Edge 8's choices, decided at edge 7 (the last edge chooses between registers by
    /// registered selects): limited at the instant (`lim_i`); a first CNP; a CNP or a packet
    /// while limited; a byte event (`fire`) and whether it releases; the decrease check's
    /// next expiries to be written (`fdl`: unless the release); the alpha and
    /// decrease timers fired while limited; a QP not in DCQCN mode (`moded`: the word
    /// stays); a command (`cmd`: the word is replaced), a mode command.
    y7_lim_i: DFF<Bit>,
    y7_first: DFF<Bit>,
    y7_cnp_lim: DFF<Bit>,
    y7_tx_lim: DFF<Bit>,
    y7_fire: DFF<Bit>,
    /// The byte event releases, for each cut candidate (`rb_a` if the cut is `cut_a`,
    /// `rb_m` if `cut_m`; equal without a cut), and which candidate the cut is (`sel_a`):
    /// the last edge chooses (`rel_byte8`), so no register here waits for the compare
    /// that picks the cut after the candidates' own compares.
    y7_rb_a: DFF<Bit>,
    y7_rb_m: DFF<Bit>,
    y7_sel_a: DFF<Bit>,
    /// The other radices' next decrease check (`tda_*`, `tdi_*`) as the result leaves it
    /// unless the byte event releases (`y7_xd*`: zero for a command; the word's for a QP
    /// not in DCQCN mode; from now for a first CNP; the check at the instant after a
    /// decrease check while limited; else the word's), and whether a release puts the
    /// word's fields back instead (`y7_fdk`: a decrease check while limited, and none of
    /// the cases before it). The last edge is then one 2:1 choice per bit by `y7_fdk`
    /// and the release (`rel_byte8`); the release's own registers stay free of this AND,
    /// which would put their inputs a level deeper.
    y7_xda_e: DFF<Bits<EPOCH_W>>,
    y7_xda_r: DFF<Bits<REM_W>>,
    y7_xdi_e: DFF<Bits<EPOCH_W>>,
    y7_xdi_r: DFF<Bits<REM_W>>,
    y7_fdk: DFF<Bit>,
    y7_fa_lim: DFF<Bit>,
    y7_fd_lim: DFF<Bit>,
    y7_moded: DFF<Bit>,
    y7_cmd: DFF<Bit>,
    y7_mode_ev: DFF<Bit>,
    /// BC after a byte event (1 after a cut, else BC + 1, saturating); the byte counter
    /// after a packet (the cut's or the no-cut case's).
    y7_bc_inc: DFF<Bits<STAGE_W>>,
    y7_acc_sel: DFF<Bits<ACC_W>>,
    /// The word's next expiries plus one epoch (increase, alpha, decrease) and now's
    /// epochs plus one (a first CNP's expiries).
    y7_ti_e1: DFF<Bits<EPOCH_W>>,
    y7_ta_e1: DFF<Bits<EPOCH_W>>,
    y7_td_e1: DFF<Bits<EPOCH_W>>,
    y7_na_e1: DFF<Bits<EPOCH_W>>,
    y7_nd_e1: DFF<Bits<EPOCH_W>>,
    y7_ni_e1: DFF<Bits<EPOCH_W>>,
    y7_t1: DFF<Bits<ALPHA_W>>,
    y7_t1i: DFF<Bits<ALPHA_W>>,
    /// Edge 7's next decrease check in the alpha radix from now (`_n`), and as a decrease
    /// check at the instant leaves it (`_s`: from now, or from a microsecond earlier when
    /// the instant is); the same in the increase radix. `y7_xd*` chooses among them.
    tda_ne7: Signal<Local, Bits<EPOCH_W>>,
    tda_nr7: Signal<Local, Bits<REM_W>>,
    tda_se7: Signal<Local, Bits<EPOCH_W>>,
    tda_sr7: Signal<Local, Bits<REM_W>>,
    tdi_ne7: Signal<Local, Bits<EPOCH_W>>,
    tdi_nr7: Signal<Local, Bits<REM_W>>,
    tdi_se7: Signal<Local, Bits<EPOCH_W>>,
    tdi_sr7: Signal<Local, Bits<REM_W>>,
    /// `y6_ra - 1` and `y6_ri - 1` with their borrows (see [`REM_B`]): one carry chain
    /// gives both the remainder a microsecond earlier and whether it wraps.
    ra_m1: Signal<Local, Bits<REM_B>>,
    ri_m1: Signal<Local, Bits<REM_B>>,
    ext_rab: ZeroExt<REM_W, REM_B>,
    ext_rib: ZeroExt<REM_W, REM_B>,
    /// The periods less one microsecond's remainder (`p_alpha - 1`, `p_dec - 1`,
    /// `p_inc - 1`), registered from `cfg` beside `pc` (which loads `cfg` at every edge), so
    /// they equal `pc`'s periods less one in every cycle without a carry chain after `pc`.
    pa_m1: DFF<Bits<REM_W>>,
    pd_m1: DFF<Bits<REM_W>>,
    pi_m1: DFF<Bits<REM_W>>,
    /// Edge 6's event is a CNP (`y6_kcnp`), a command (`y6_cmd`); its word's QP is not in
    /// DCQCN mode (`y6_moded`): registered from edge 5's event and word, so edge 7's
    /// choice of `y7_xd*` starts at registers.
    y6_kcnp: DFF<Bit>,
    y6_cmd: DFF<Bit>,
    y6_moded: DFF<Bit>,
    /// Edge 7's choice of `y7_xd*`, one-hot or zero (a command: zero), registered at edge 6
    /// so that the selects of those 68 bits are registers: the word's own fields
    /// (`y6_xk`: a QP not in DCQCN mode, or none of the other cases), from now (`y6_xn`: a
    /// first CNP), as a decrease check while limited leaves them (`y6_xs`, which is also
    /// `y7_fdk`'s input).
    y6_xk: DFF<Bit>,
    y6_xn: DFF<Bit>,
    y6_xs: DFF<Bit>,
    /// Edge 7's terms of `y7_xd*`: a first CNP, a QP not in DCQCN mode, a command.
    first7: Signal<Local, Bit>,
    moded7: Signal<Local, Bit>,
    cmd7: Signal<Local, Bit>,
    ext_qa: ZeroExt<NUM_W, EPOCH_W>,
    ext_qi: ZeroExt<NUM_W, EPOCH_W>,
    /// Edge 7's cut results for both candidates (`_a` alpha's, `_m` the max cut's), and
    /// the choice: the cut is `cut_a` when `sel_a`.
    sel_a: Signal<Local, Bit>,
    clamp_a: Signal<Local, Bit>,
    clamp_m: Signal<Local, Bit>,
    rcc_a: Signal<Local, Bits<RATE_W>>,
    rcc_m: Signal<Local, Bits<RATE_W>>,
    bc_a: Signal<Local, Bits<SUM_W>>,
    bc_m: Signal<Local, Bits<SUM_W>>,
    /// Each candidate's Rc after the cut and after the cut's byte event with its clamp
    /// applied (`min_rate`, `M / 2` when it clamps), so that `sel_a` is the last choice.
    rct_a: Signal<Local, Bits<RATE_W>>,
    rct_m: Signal<Local, Bits<RATE_W>>,
    rbc_a: Signal<Local, Bits<RATE_W>>,
    rbc_m: Signal<Local, Bits<RATE_W>>,
    rel_ca: Signal<Local, Bit>,
    rel_cm: Signal<Local, Bit>,
    ext_ca29: ZeroExt<RATE_W, SUM_W>,
    ext_cm29: ZeroExt<RATE_W, SUM_W>,
    ext_ca30: ZeroExt<RATE_W, ZW>,
    ext_cm30: ZeroExt<RATE_W, ZW>,
    /// `2 max29` (from `max29`: a cycle after it).
    two_max: DFF<Bits<SUM_W>>,
    /// Edge 7's terms of the choices: limited at the instant, a packet while limited, a
    /// byte event, the byte event's release without and with a cut, the release, BC + 1.
    lim7: Signal<Local, Bit>,
    tx_lim7: Signal<Local, Bit>,
    fire7: Signal<Local, Bit>,
    rel_b7: Signal<Local, Bit>,
    /// The release after a clamped cut: `M >= 2 max`.
    rel_m7: Signal<Local, Bit>,
    bc_inc7: Signal<Local, Bits<STAGE_W>>,
    // ---- edge 8: the result ----
    /// The byte event releases the limiter (`y7_rb_a` or `y7_rb_m` by `y7_sel_a`).
    rel_byte8: Signal<Local, Bit>,
    s: Signal<Local, QpWord>,
    o_w: DFF<QpWord>,
    o_t1: DFF<Bits<ALPHA_W>>,
    o_cut: DFF<Bit>,
    o_fr: DFF<Bits<2>>,
    o_ai: DFF<Bits<2>>,
    o_hai: DFF<Bits<2>>,
    cnt_fr: Signal<Local, Bits<2>>,
    cnt_ai: Signal<Local, Bits<2>>,
    cnt_hai: Signal<Local, Bits<2>>,
    one2: Constant<Bits<2>>,
    zero_word: Constant<QpWord>,
    acc_max: Constant<Bits<ACC_W>>,
    /// Bits no logic reads (Verilator does not report `*unused` signals): the halved sums'
    /// low bits, the fields of the time words and parameters this block does not use.
    rc_sum_lo_unused: Signal<Local, Bit>,
    rcb_sum_lo_unused: Signal<Local, Bit>,
    bc_a_lo_unused: Signal<Local, Bit>,
    bc_m_lo_unused: Signal<Local, Bit>,
    p1_sub_unused: Signal<Local, Bits<SUB_W>>,
    y5_sub_unused: Signal<Local, Bits<SUB_W>>,
    y5_a_r_unused: Signal<Local, Bits<REM_W>>,
    y5_d_e_unused: Signal<Local, Bits<EPOCH_W>>,
    y5_d_r_unused: Signal<Local, Bits<REM_W>>,
    y5_i_r_unused: Signal<Local, Bits<REM_W>>,
    y6_sub_unused: Signal<Local, Bits<SUB_W>>,
    y6_a_r_unused: Signal<Local, Bits<REM_W>>,
    y6_d_r_unused: Signal<Local, Bits<REM_W>>,
    y6_i_r_unused: Signal<Local, Bits<REM_W>>,
    recip_ai_unused: Signal<Local, Bits<STEP_RECIP_W>>,
    recip_hai_unused: Signal<Local, Bits<STEP_RECIP_W>>,
    /// `p1_ev`'s now (rust-hdl reads one field level per signal).
    p1_now: Signal<Local, TimeWord>,
    /// `x0_ev`'s now (rust-hdl reads one field level per signal).
    x0_now: Signal<Local, TimeWord>,
    /// `y5_ev`'s now (rust-hdl reads one field level per signal).
    y5_now: Signal<Local, TimeWord>,
    /// `y6_ev`'s now (rust-hdl reads one field level per signal).
    y6_now: Signal<Local, TimeWord>,
    /// `y7_ev`'s now (rust-hdl reads one field level per signal).
    y7_now: Signal<Local, TimeWord>,
    y7_a_e_unused: Signal<Local, Bits<EPOCH_W>>,
    y7_d_e_unused: Signal<Local, Bits<EPOCH_W>>,
    y7_i_e_unused: Signal<Local, Bits<EPOCH_W>>,
}

impl Default for RpNear {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            ev: Default::default(),
            sel_own: Default::default(),
            sel_1: Default::default(),
            sel_2: Default::default(),
            sel_3: Default::default(),
            sel_h: Default::default(),
            w_1: Default::default(),
            w_2: Default::default(),
            w_3: Default::default(),
            w_h: Default::default(),
            t1_1: Default::default(),
            t1_2: Default::default(),
            t1_3: Default::default(),
            t1_h: Default::default(),
            chk_own: Default::default(),
            chk_1: Default::default(),
            chk_2: Default::default(),
            chk_3: Default::default(),
            chk_h: Default::default(),
            w_in: Default::default(),
            t1_in: Default::default(),
            cfg: Default::default(),
            w_o: Default::default(),
            t1_o: Default::default(),
            cut_o: Default::default(),
            fr_o: Default::default(),
            ai_o: Default::default(),
            hai_o: Default::default(),
            pc: Default::default(),
            p1_ev: Default::default(),
            x0_ev: Default::default(),
            x0_da_e: Default::default(),
            x0_da_r: Default::default(),
            x0_dd_e: Default::default(),
            x0_dd_r: Default::default(),
            x0_di_e: Default::default(),
            x0_di_r: Default::default(),
            x0_num_a: Default::default(),
            x0_num_i: Default::default(),
            div_a: Default::default(),
            div_i: Default::default(),
            ext_ar: Default::default(),
            ext_ir: Default::default(),
            ext_pd: Default::default(),
            y1_w: Default::default(),
            y1_t1: Default::default(),
            y1_ev: Default::default(),
            y1_fa_n_el: Default::default(),
            y1_fa_n_eh: Default::default(),
            y1_fa_n_r: Default::default(),
            y1_fa_l_el: Default::default(),
            y1_fa_l_eh: Default::default(),
            y1_fa_l_r: Default::default(),
            y1_fd_n_el: Default::default(),
            y1_fd_n_eh: Default::default(),
            y1_fd_n_r: Default::default(),
            y1_fd_l_el: Default::default(),
            y1_fd_l_eh: Default::default(),
            y1_fd_l_r: Default::default(),
            y1_fi_n_el: Default::default(),
            y1_fi_n_eh: Default::default(),
            y1_fi_n_r: Default::default(),
            y1_fi_l_el: Default::default(),
            y1_fi_l_eh: Default::default(),
            y1_fi_l_r: Default::default(),
            y1_in_e: Default::default(),
            y1_in_r: Default::default(),
            y1_il_e: Default::default(),
            y1_il_r: Default::default(),
            y1_late: Default::default(),
            y1_ti_fr: Default::default(),
            y1_ti_hai: Default::default(),
            fa: Default::default(),
            fd: Default::default(),
            fi: Default::default(),
            ei_e: Default::default(),
            ei_r: Default::default(),
            cut_go: Default::default(),
            inc_go: Default::default(),
            th6: Default::default(),
            ext_th: Default::default(),
            byte_off: Default::default(),
            ti_fr: Default::default(),
            ti_hai: Default::default(),
            t_inc: Default::default(),
            step_i: Default::default(),
            ext_rt: Default::default(),
            ext_rc: Default::default(),
            ext_step_i: Default::default(),
            ext_acc: Default::default(),
            ext_bytes: Default::default(),
            ext_bytes32: Default::default(),
            y2_w: Default::default(),
            y2_ev: Default::default(),
            y2_late: Default::default(),
            y2_fa: Default::default(),
            y2_fd: Default::default(),
            y2_cut: Default::default(),
            y2_inc: Default::default(),
            y2_alpha: Default::default(),
            y2_flag: Default::default(),
            y2_i_fr: Default::default(),
            y2_i_hai: Default::default(),
            y2_rt_plus: Default::default(),
            y2_t_i: Default::default(),
            y2_clamp: Default::default(),
            y2_x: Default::default(),
            y2_xc: Default::default(),
            y2_sum33: Default::default(),
            y2_ti_e: Default::default(),
            y2_ti_r: Default::default(),
            mul_a: Default::default(),
            mul_m: Default::default(),
            mul_t1: Default::default(),
            mul_t1i: Default::default(),
            ext_q16: Default::default(),
            ext_c1: Default::default(),
            c_g: Default::default(),
            k1024: Constant::new(1024.into()),
            max29: Default::default(),
            ext_max: Default::default(),
            ext_min: Default::default(),
            rt_i: Default::default(),
            acc_sat: Default::default(),
            y3_w: Default::default(),
            y3_ev: Default::default(),
            y3_late: Default::default(),
            y3_fa: Default::default(),
            y3_fd: Default::default(),
            y3_cut: Default::default(),
            y3_inc: Default::default(),
            y3_alpha: Default::default(),
            y3_flag: Default::default(),
            y3_i_fr: Default::default(),
            y3_i_hai: Default::default(),
            y3_rt_i: Default::default(),
            y3_t_n: Default::default(),
            rt_c: Default::default(),
            x_c: Default::default(),
            y3_rt_c: Default::default(),
            y3_x: Default::default(),
            y3_m: Default::default(),
            y3_acc_sat: Default::default(),
            y3_fire_n: Default::default(),
            y3_fire_c: Default::default(),
            y3_acc_c: Default::default(),
            y3_ti_e: Default::default(),
            y3_ti_r: Default::default(),
            ext_x30: Default::default(),
            ext_max30: Default::default(),
            one29: Constant::new(1.into()),
            one_e: Constant::new(1.into()),
            one_r: Constant::new(1.into()),
            one_rb: Constant::new(1.into()),
            one6: Constant::new(1.into()),
            kind_cnp: Constant::new(0.into()),
            kind_tx: Constant::new(1.into()),
            kind_reset: Constant::new(3.into()),
            kind_mode: Constant::new(4.into()),
            rc_sum: Default::default(),
            y4_w: Default::default(),
            y4_ev: Default::default(),
            y4_late: Default::default(),
            y4_fa: Default::default(),
            y4_fd: Default::default(),
            y4_cut: Default::default(),
            y4_inc: Default::default(),
            y4_alpha: Default::default(),
            y4_flag: Default::default(),
            y4_i_fr: Default::default(),
            y4_i_hai: Default::default(),
            y4_rt_i: Default::default(),
            y4_rc_i: Default::default(),
            y4_t_n: Default::default(),
            y4_rt_c: Default::default(),
            y4_x: Default::default(),
            y4_m: Default::default(),
            y4_z: Default::default(),
            y4_acc_n: Default::default(),
            y4_fire_n: Default::default(),
            y4_fire_c: Default::default(),
            y4_acc_c: Default::default(),
            y4_ti_e: Default::default(),
            y4_ti_r: Default::default(),
            y3_b_fr: Default::default(),
            y3_b_hai: Default::default(),
            y4_b_fr: Default::default(),
            y4_b_hai: Default::default(),
            y4_rtb_plus: Default::default(),
            rt_n: Default::default(),
            step_b: Default::default(),
            ext_rtn: Default::default(),
            ext_stepb: Default::default(),
            ext_rtn2: Default::default(),
            y5_w: Default::default(),
            y5_ev: Default::default(),
            y5_late: Default::default(),
            y5_fa: Default::default(),
            y5_fd: Default::default(),
            y5_cut: Default::default(),
            y5_inc: Default::default(),
            y5_alpha: Default::default(),
            y5_flag: Default::default(),
            y5_i_fr: Default::default(),
            y5_i_hai: Default::default(),
            y5_rc_n: Default::default(),
            y5_rt_n: Default::default(),
            y5_t_n: Default::default(),
            y5_lim_n: Default::default(),
            y5_rt_c: Default::default(),
            y5_x: Default::default(),
            y5_m: Default::default(),
            y5_z: Default::default(),
            y5_acc_n: Default::default(),
            y5_fire_n: Default::default(),
            y5_fire_c: Default::default(),
            y5_acc_c: Default::default(),
            y5_ti_e: Default::default(),
            y5_ti_r: Default::default(),
            y5_b_fr: Default::default(),
            y5_b_hai: Default::default(),
            y5_rt_b: Default::default(),
            p_a: Default::default(),
            p_a_hi_unused: Default::default(),
            cut_a: Default::default(),
            p_m_lo_unused: Default::default(),
            p_m_hi_unused: Default::default(),
            t1_prod: Default::default(),
            t1_lo_unused: Default::default(),
            t1_hi_unused: Default::default(),
            t1i_prod: Default::default(),
            t1i_lo_unused: Default::default(),
            t1i_hi_unused: Default::default(),
            g_sh: Default::default(),
            ext_g: Default::default(),
            ten: Constant::new(10.into()),
            y6_w: Default::default(),
            y6_ev: Default::default(),
            y6_late: Default::default(),
            y6_fa: Default::default(),
            y6_fd: Default::default(),
            y6_cut: Default::default(),
            y6_inc: Default::default(),
            y6_alpha: Default::default(),
            y6_flag: Default::default(),
            y6_i_fr: Default::default(),
            y6_i_hai: Default::default(),
            y6_rc_n: Default::default(),
            y6_rt_n: Default::default(),
            y6_t_n: Default::default(),
            y6_lim_n: Default::default(),
            y6_rt_c: Default::default(),
            y6_x: Default::default(),
            y6_m: Default::default(),
            y6_z: Default::default(),
            y6_acc_n: Default::default(),
            y6_acc_c: Default::default(),
            y6_ti_e: Default::default(),
            y6_ti_r: Default::default(),
            y6_b_fr: Default::default(),
            y6_b_hai: Default::default(),
            y6_rt_b: Default::default(),
            lim6: Default::default(),
            y6_fd_lim: Default::default(),
            y6_fire: Default::default(),
            y6_rc_b: Default::default(),
            y6_a_hi0: Default::default(),
            y6_a_hi1: Default::default(),
            y6_a_hi2: Default::default(),
            y6_cut_a: Default::default(),
            y6_cut_m: Default::default(),
            y6_rc_mm: Default::default(),
            y6_rc_low: Default::default(),
            y6_t1: Default::default(),
            y6_t1i: Default::default(),
            y6_ema: Default::default(),
            y6_emi: Default::default(),
            y6_qa: Default::default(),
            y6_ra: Default::default(),
            y6_qi: Default::default(),
            y6_ri: Default::default(),
            rcb_sum: Default::default(),
            ext_rcn: Default::default(),
            ext_rtb: Default::default(),
            ext_rcn2: Default::default(),
            ext_rtb2: Default::default(),
            y7_w: Default::default(),
            y7_ev: Default::default(),
            y7_cut: Default::default(),
            y7_inc: Default::default(),
            y7_alpha: Default::default(),
            y7_i_fr: Default::default(),
            y7_i_hai: Default::default(),
            y7_rc_n: Default::default(),
            y7_rt_n: Default::default(),
            y7_t_n: Default::default(),
            y7_lim_n: Default::default(),
            y7_rt_c: Default::default(),
            y7_ti_e: Default::default(),
            y7_ti_r: Default::default(),
            y7_b_fr: Default::default(),
            y7_b_hai: Default::default(),
            y7_rt_b: Default::default(),
            y7_rc_b: Default::default(),
            y7_t1: Default::default(),
            y7_t1i: Default::default(),
            tda_ne7: Default::default(),
            tda_nr7: Default::default(),
            tda_se7: Default::default(),
            tda_sr7: Default::default(),
            tdi_ne7: Default::default(),
            tdi_nr7: Default::default(),
            tdi_se7: Default::default(),
            tdi_sr7: Default::default(),
            ra_m1: Default::default(),
            ri_m1: Default::default(),
            ext_rab: Default::default(),
            ext_rib: Default::default(),
            pa_m1: Default::default(),
            pd_m1: Default::default(),
            pi_m1: Default::default(),
            y6_kcnp: Default::default(),
            y6_cmd: Default::default(),
            y6_moded: Default::default(),
            y6_xk: Default::default(),
            y6_xn: Default::default(),
            y6_xs: Default::default(),
            ext_qa: Default::default(),
            ext_qi: Default::default(),
            y7_rc_cut: Default::default(),
            y7_rc_bc: Default::default(),
            y7_lim_i: Default::default(),
            y7_first: Default::default(),
            y7_cnp_lim: Default::default(),
            y7_tx_lim: Default::default(),
            y7_fire: Default::default(),
            y7_rb_a: Default::default(),
            y7_rb_m: Default::default(),
            y7_sel_a: Default::default(),
            y7_xda_e: Default::default(),
            y7_xda_r: Default::default(),
            y7_xdi_e: Default::default(),
            y7_xdi_r: Default::default(),
            y7_fdk: Default::default(),
            y7_fa_lim: Default::default(),
            y7_fd_lim: Default::default(),
            y7_moded: Default::default(),
            y7_cmd: Default::default(),
            y7_mode_ev: Default::default(),
            y7_bc_inc: Default::default(),
            y7_acc_sel: Default::default(),
            y7_ti_e1: Default::default(),
            y7_ta_e1: Default::default(),
            y7_td_e1: Default::default(),
            y7_na_e1: Default::default(),
            y7_nd_e1: Default::default(),
            y7_ni_e1: Default::default(),
            sel_a: Default::default(),
            clamp_a: Default::default(),
            clamp_m: Default::default(),
            rcc_a: Default::default(),
            rcc_m: Default::default(),
            bc_a: Default::default(),
            bc_m: Default::default(),
            rct_a: Default::default(),
            rct_m: Default::default(),
            rbc_a: Default::default(),
            rbc_m: Default::default(),
            rel_ca: Default::default(),
            rel_cm: Default::default(),
            ext_ca29: Default::default(),
            ext_cm29: Default::default(),
            ext_ca30: Default::default(),
            ext_cm30: Default::default(),
            two_max: Default::default(),
            lim7: Default::default(),
            tx_lim7: Default::default(),
            fire7: Default::default(),
            rel_b7: Default::default(),
            rel_m7: Default::default(),
            bc_inc7: Default::default(),
            rel_byte8: Default::default(),
            first7: Default::default(),
            moded7: Default::default(),
            cmd7: Default::default(),
            s: Default::default(),
            o_w: Default::default(),
            o_t1: Default::default(),
            o_cut: Default::default(),
            o_fr: Default::default(),
            o_ai: Default::default(),
            o_hai: Default::default(),
            cnt_fr: Default::default(),
            cnt_ai: Default::default(),
            cnt_hai: Default::default(),
            one2: Constant::new(1.into()),
            zero_word: Constant::new(QpWord::default()),
            acc_max: Constant::new(0xFFFF_FFFF_u64.into()),
            rc_sum_lo_unused: Default::default(),
            rcb_sum_lo_unused: Default::default(),
            bc_a_lo_unused: Default::default(),
            bc_m_lo_unused: Default::default(),
            p1_sub_unused: Default::default(),
            y5_sub_unused: Default::default(),
            y5_a_r_unused: Default::default(),
            y5_d_e_unused: Default::default(),
            y5_d_r_unused: Default::default(),
            y5_i_r_unused: Default::default(),
            y6_sub_unused: Default::default(),
            y6_a_r_unused: Default::default(),
            y6_d_r_unused: Default::default(),
            y6_i_r_unused: Default::default(),
            recip_ai_unused: Default::default(),
            recip_hai_unused: Default::default(),
            p1_now: Default::default(),
            x0_now: Default::default(),
            y5_now: Default::default(),
            y6_now: Default::default(),
            y7_now: Default::default(),
            y7_a_e_unused: Default::default(),
            y7_d_e_unused: Default::default(),
            y7_i_e_unused: Default::default(),
        }
    }
}

impl Logic for RpNear {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            c_g,
            pc,
            pa_m1,
            pd_m1,
            pi_m1,
            y6_kcnp,
            y6_cmd,
            y6_moded,
            y6_xk,
            y6_xn,
            y6_xs,
            th6,
            byte_off,
            max29,
            two_max,
            p1_ev,
            x0_ev,
            x0_da_e,
            x0_da_r,
            x0_dd_e,
            x0_dd_r,
            x0_di_e,
            x0_di_r,
            x0_num_a,
            x0_num_i,
            y1_w,
            y1_t1,
            y1_ev,
            y1_fa_n_el,
            y1_fa_n_eh,
            y1_fa_n_r,
            y1_fa_l_el,
            y1_fa_l_eh,
            y1_fa_l_r,
            y1_fd_n_el,
            y1_fd_n_eh,
            y1_fd_n_r,
            y1_fd_l_el,
            y1_fd_l_eh,
            y1_fd_l_r,
            y1_fi_n_el,
            y1_fi_n_eh,
            y1_fi_n_r,
            y1_fi_l_el,
            y1_fi_l_eh,
            y1_fi_l_r,
            y1_in_e,
            y1_in_r,
            y1_il_e,
            y1_il_r,
            y1_late,
            y1_ti_fr,
            y1_ti_hai,
            y2_w,
            y2_ev,
            y2_late,
            y2_fa,
            y2_fd,
            y2_cut,
            y2_inc,
            y2_alpha,
            y2_flag,
            y2_i_fr,
            y2_i_hai,
            y2_rt_plus,
            y2_t_i,
            y2_clamp,
            y2_x,
            y2_xc,
            y2_sum33,
            y2_ti_e,
            y2_ti_r,
            y3_w,
            y3_ev,
            y3_late,
            y3_fa,
            y3_fd,
            y3_cut,
            y3_inc,
            y3_alpha,
            y3_flag,
            y3_i_fr,
            y3_i_hai,
            y3_rt_i,
            y3_t_n,
            y3_rt_c,
            y3_x,
            y3_m,
            y3_acc_sat,
            y3_fire_n,
            y3_fire_c,
            y3_acc_c,
            y3_ti_e,
            y3_ti_r,
            y4_w,
            y4_ev,
            y4_late,
            y4_fa,
            y4_fd,
            y4_cut,
            y4_inc,
            y4_alpha,
            y4_flag,
            y4_i_fr,
            y4_i_hai,
            y4_rt_i,
            y4_rc_i,
            y4_t_n,
            y4_rt_c,
            y4_x,
            y4_m,
            y4_z,
            y4_acc_n,
            y4_fire_n,
            y4_fire_c,
            y4_acc_c,
            y4_ti_e,
            y4_ti_r,
            y3_b_fr,
            y3_b_hai,
            y4_b_fr,
            y4_b_hai,
            y4_rtb_plus,
            y5_w,
            y5_ev,
            y5_late,
            y5_fa,
            y5_fd,
            y5_cut,
            y5_inc,
            y5_alpha,
            y5_flag,
            y5_i_fr,
            y5_i_hai,
            y5_rc_n,
            y5_rt_n,
            y5_t_n,
            y5_lim_n,
            y5_rt_c,
            y5_x,
            y5_m,
            y5_z,
            y5_acc_n,
            y5_fire_n,
            y5_fire_c,
            y5_acc_c,
            y5_ti_e,
            y5_ti_r,
            y5_b_fr,
            y5_b_hai,
            y5_rt_b,
            y6_w,
            y6_ev,
            y6_late,
            y6_fa,
            y6_fd,
            y6_cut,
            y6_inc,
            y6_alpha,
            y6_flag,
            y6_i_fr,
            y6_i_hai,
            y6_rc_n,
            y6_rt_n,
            y6_t_n,
            y6_lim_n,
            y6_rt_c,
            y6_x,
            y6_m,
            y6_z,
            y6_acc_n,
            y6_acc_c,
            y6_ti_e,
            y6_ti_r,
            y6_b_fr,
            y6_b_hai,
            y6_rt_b,
            y6_fd_lim,
            y6_fire,
            y6_rc_b,
            y6_a_hi0,
            y6_a_hi1,
            y6_a_hi2,
            y6_cut_a,
            y6_cut_m,
            y6_rc_mm,
            y6_rc_low,
            y6_t1,
            y6_t1i,
            y6_ema,
            y6_emi,
            y6_qa,
            y6_ra,
            y6_qi,
            y6_ri,
            y7_w,
            y7_ev,
            y7_cut,
            y7_inc,
            y7_alpha,
            y7_i_fr,
            y7_i_hai,
            y7_rc_n,
            y7_rt_n,
            y7_t_n,
            y7_lim_n,
            y7_rt_c,
            y7_ti_e,
            y7_ti_r,
            y7_b_fr,
            y7_b_hai,
            y7_rt_b,
            y7_rc_b,
            y7_rc_cut,
            y7_rc_bc,
            y7_lim_i,
            y7_first,
            y7_cnp_lim,
            y7_tx_lim,
            y7_fire,
            y7_rb_a,
            y7_rb_m,
            y7_sel_a,
            y7_xda_e,
            y7_xda_r,
            y7_xdi_e,
            y7_xdi_r,
            y7_fdk,
            y7_fa_lim,
            y7_fd_lim,
            y7_moded,
            y7_cmd,
            y7_mode_ev,
            y7_bc_inc,
            y7_acc_sel,
            y7_ti_e1,
            y7_ta_e1,
            y7_td_e1,
            y7_na_e1,
            y7_nd_e1,
            y7_ni_e1,
            y7_t1,
            y7_t1i,
            o_w,
            o_t1,
            o_cut,
            o_fr,
            o_ai,
            o_hai
        );
        self.p1_now.next = self.p1_ev.q.val().now;
        self.x0_now.next = self.x0_ev.q.val().now;
        self.y5_now.next = self.y5_ev.q.val().now;
        self.y6_now.next = self.y6_ev.q.val().now;
        self.y7_now.next = self.y7_ev.q.val().now;
        self.y7_a_e_unused.next = self.y7_now.val().a_e;
        self.y7_d_e_unused.next = self.y7_now.val().d_e;
        self.y7_i_e_unused.next = self.y7_now.val().i_e;
        self.p1_sub_unused.next = self.p1_now.val().sub;
        self.y5_sub_unused.next = self.y5_now.val().sub;
        self.y5_a_r_unused.next = self.y5_now.val().a_r;
        self.y5_d_e_unused.next = self.y5_now.val().d_e;
        self.y5_d_r_unused.next = self.y5_now.val().d_r;
        self.y5_i_r_unused.next = self.y5_now.val().i_r;
        self.y6_sub_unused.next = self.y6_now.val().sub;
        self.y6_a_r_unused.next = self.y6_now.val().a_r;
        self.y6_d_r_unused.next = self.y6_now.val().d_r;
        self.y6_i_r_unused.next = self.y6_now.val().i_r;
        self.recip_ai_unused.next = self.pc.q.val().recip_ai;
        self.recip_hai_unused.next = self.pc.q.val().recip_hai;
        // The parameters: the copy, then what is derived from it (registers too).
        self.pc.d.next = self.cfg.val();
        self.pa_m1.d.next = self.cfg.val().p_alpha - self.one_r.val();
        self.pd_m1.d.next = self.cfg.val().p_dec - self.one_r.val();
        self.pi_m1.d.next = self.cfg.val().p_inc - self.one_r.val();
        self.ext_th.i.next = self.pc.q.val().threshold;
        self.th6.d.next = self.ext_th.o.val();
        self.byte_off.d.next = !self.pc.q.val().byte_reset.any();
        self.ext_max.i.next = self.pc.q.val().max_rate;
        self.max29.d.next = self.ext_max.o.val();
        self.two_max.d.next = self.max29.q.val() + self.max29.q.val();
        self.ext_max30.i.next = self.two_max.q.val();

        // ---- edge -1, 0: the event; now a microsecond earlier; the dividends ----
        self.p1_ev.d.next = self.ev.val();
        self.x0_ev.d.next = self.p1_ev.q.val();
        self.x0_da_e.d.next = self.p1_now.val().a_e;
        self.x0_da_r.d.next = self.p1_now.val().a_r - self.one_r.val();
        if !self.p1_now.val().a_r.any() {
            self.x0_da_e.d.next = self.p1_now.val().a_e - self.one_e.val();
            self.x0_da_r.d.next = self.pa_m1.q.val();
        }
        self.x0_dd_e.d.next = self.p1_now.val().d_e;
        self.x0_dd_r.d.next = self.p1_now.val().d_r - self.one_r.val();
        if !self.p1_now.val().d_r.any() {
            self.x0_dd_e.d.next = self.p1_now.val().d_e - self.one_e.val();
            self.x0_dd_r.d.next = self.pd_m1.q.val();
        }
        self.x0_di_e.d.next = self.p1_now.val().i_e;
        self.x0_di_r.d.next = self.p1_now.val().i_r - self.one_r.val();
        if !self.p1_now.val().i_r.any() {
            self.x0_di_e.d.next = self.p1_now.val().i_e - self.one_e.val();
            self.x0_di_r.d.next = self.pi_m1.q.val();
        }
        self.ext_ar.i.next = self.p1_now.val().a_r;
        self.ext_ir.i.next = self.p1_now.val().i_r;
        self.ext_pd.i.next = self.pc.q.val().p_dec;
        self.x0_num_a.d.next = self.ext_ar.o.val() + self.ext_pd.o.val();
        self.x0_num_i.d.next = self.ext_ir.o.val() + self.ext_pd.o.val();
        // The next decrease check from now in the alpha and increase radices: results in
        // the cycle after edge 5 (registered at edge 6).
        self.div_a.clock.next = self.clock.val();
        self.div_a.en.next = true;
        self.div_a.num.next = self.x0_num_a.q.val();
        self.div_a.p.next = self.pc.q.val().p_alpha;
        self.div_a.recip.next = self.pc.q.val().recip_alpha;
        self.div_i.clock.next = self.clock.val();
        self.div_i.en.next = true;
        self.div_i.num.next = self.x0_num_i.q.val();
        self.div_i.p.next = self.pc.q.val().p_inc;
        self.div_i.recip.next = self.pc.q.val().recip_inc;

        // ---- edge 1: which timers fired at the instant (if any) since the word ----
        // Each candidate word's compares with the instants (`NearCheck`), from the
        // candidate's registers, zero unless the candidate is the chosen one, so the
        // registered results are the OR of the five; then the choice of the word and t1.
        // The compares: `late` (the instant is a microsecond before now), each timer's next
        // expiry against now and now a microsecond earlier, the epochs' low and high 16
        // bits and the remainders apart (edge 2 ANDs the three, chooses by `late` and ANDs
        // `limited`), the phase of an increase event at the instant (golden `phases` for one
        // event) and the cut's clamp.
        self.chk_own.take.next = self.sel_own.val();
        self.chk_1.take.next = self.sel_1.val();
        self.chk_2.take.next = self.sel_2.val();
        self.chk_3.take.next = self.sel_3.val();
        self.chk_h.take.next = self.sel_h.val();
        self.chk_own.sub.next = self.o_w.q.val().sub;
        self.chk_own.ta_e.next = self.o_w.q.val().ta_e;
        self.chk_own.ta_r.next = self.o_w.q.val().ta_r;
        self.chk_own.td_e.next = self.o_w.q.val().td_e;
        self.chk_own.td_r.next = self.o_w.q.val().td_r;
        self.chk_own.ti_e.next = self.o_w.q.val().ti_e;
        self.chk_own.ti_r.next = self.o_w.q.val().ti_r;
        self.chk_own.t.next = self.o_w.q.val().t;
        self.chk_own.bc.next = self.o_w.q.val().bc;
        self.chk_own.now.next = self.x0_now.val();
        self.chk_own.ago_a_e.next = self.x0_da_e.q.val();
        self.chk_own.ago_a_r.next = self.x0_da_r.q.val();
        self.chk_own.ago_d_e.next = self.x0_dd_e.q.val();
        self.chk_own.ago_d_r.next = self.x0_dd_r.q.val();
        self.chk_own.ago_i_e.next = self.x0_di_e.q.val();
        self.chk_own.ago_i_r.next = self.x0_di_r.q.val();
        self.chk_own.th6.next = self.th6.q.val();
        self.chk_own.byte_off.next = self.byte_off.q.val();
        self.chk_1.sub.next = self.w_1.val().sub;
        self.chk_1.ta_e.next = self.w_1.val().ta_e;
        self.chk_1.ta_r.next = self.w_1.val().ta_r;
        self.chk_1.td_e.next = self.w_1.val().td_e;
        self.chk_1.td_r.next = self.w_1.val().td_r;
        self.chk_1.ti_e.next = self.w_1.val().ti_e;
        self.chk_1.ti_r.next = self.w_1.val().ti_r;
        self.chk_1.t.next = self.w_1.val().t;
        self.chk_1.bc.next = self.w_1.val().bc;
        self.chk_1.now.next = self.x0_now.val();
        self.chk_1.ago_a_e.next = self.x0_da_e.q.val();
        self.chk_1.ago_a_r.next = self.x0_da_r.q.val();
        self.chk_1.ago_d_e.next = self.x0_dd_e.q.val();
        self.chk_1.ago_d_r.next = self.x0_dd_r.q.val();
        self.chk_1.ago_i_e.next = self.x0_di_e.q.val();
        self.chk_1.ago_i_r.next = self.x0_di_r.q.val();
        self.chk_1.th6.next = self.th6.q.val();
        self.chk_1.byte_off.next = self.byte_off.q.val();
        self.chk_2.sub.next = self.w_2.val().sub;
        self.chk_2.ta_e.next = self.w_2.val().ta_e;
        self.chk_2.ta_r.next = self.w_2.val().ta_r;
        self.chk_2.td_e.next = self.w_2.val().td_e;
        self.chk_2.td_r.next = self.w_2.val().td_r;
        self.chk_2.ti_e.next = self.w_2.val().ti_e;
        self.chk_2.ti_r.next = self.w_2.val().ti_r;
        self.chk_2.t.next = self.w_2.val().t;
        self.chk_2.bc.next = self.w_2.val().bc;
        self.chk_2.now.next = self.x0_now.val();
        self.chk_2.ago_a_e.next = self.x0_da_e.q.val();
        self.chk_2.ago_a_r.next = self.x0_da_r.q.val();
        self.chk_2.ago_d_e.next = self.x0_dd_e.q.val();
        self.chk_2.ago_d_r.next = self.x0_dd_r.q.val();
        self.chk_2.ago_i_e.next = self.x0_di_e.q.val();
        self.chk_2.ago_i_r.next = self.x0_di_r.q.val();
        self.chk_2.th6.next = self.th6.q.val();
        self.chk_2.byte_off.next = self.byte_off.q.val();
        self.chk_3.sub.next = self.w_3.val().sub;
        self.chk_3.ta_e.next = self.w_3.val().ta_e;
        self.chk_3.ta_r.next = self.w_3.val().ta_r;
        self.chk_3.td_e.next = self.w_3.val().td_e;
        self.chk_3.td_r.next = self.w_3.val().td_r;
        self.chk_3.ti_e.next = self.w_3.val().ti_e;
        self.chk_3.ti_r.next = self.w_3.val().ti_r;
        self.chk_3.t.next = self.w_3.val().t;
        self.chk_3.bc.next = self.w_3.val().bc;
        self.chk_3.now.next = self.x0_now.val();
        self.chk_3.ago_a_e.next = self.x0_da_e.q.val();
        self.chk_3.ago_a_r.next = self.x0_da_r.q.val();
        self.chk_3.ago_d_e.next = self.x0_dd_e.q.val();
        self.chk_3.ago_d_r.next = self.x0_dd_r.q.val();
        self.chk_3.ago_i_e.next = self.x0_di_e.q.val();
        self.chk_3.ago_i_r.next = self.x0_di_r.q.val();
        self.chk_3.th6.next = self.th6.q.val();
        self.chk_3.byte_off.next = self.byte_off.q.val();
        self.chk_h.sub.next = self.w_h.val().sub;
        self.chk_h.ta_e.next = self.w_h.val().ta_e;
        self.chk_h.ta_r.next = self.w_h.val().ta_r;
        self.chk_h.td_e.next = self.w_h.val().td_e;
        self.chk_h.td_r.next = self.w_h.val().td_r;
        self.chk_h.ti_e.next = self.w_h.val().ti_e;
        self.chk_h.ti_r.next = self.w_h.val().ti_r;
        self.chk_h.t.next = self.w_h.val().t;
        self.chk_h.bc.next = self.w_h.val().bc;
        self.chk_h.now.next = self.x0_now.val();
        self.chk_h.ago_a_e.next = self.x0_da_e.q.val();
        self.chk_h.ago_a_r.next = self.x0_da_r.q.val();
        self.chk_h.ago_d_e.next = self.x0_dd_e.q.val();
        self.chk_h.ago_d_r.next = self.x0_dd_r.q.val();
        self.chk_h.ago_i_e.next = self.x0_di_e.q.val();
        self.chk_h.ago_i_r.next = self.x0_di_r.q.val();
        self.chk_h.th6.next = self.th6.q.val();
        self.chk_h.byte_off.next = self.byte_off.q.val();
        self.w_in.next = self.w_h.val();
        self.t1_in.next = self.t1_h.val();
        if self.sel_3.val() {
            self.w_in.next = self.w_3.val();
            self.t1_in.next = self.t1_3.val();
        }
        if self.sel_2.val() {
            self.w_in.next = self.w_2.val();
            self.t1_in.next = self.t1_2.val();
        }
        if self.sel_1.val() {
            self.w_in.next = self.w_1.val();
            self.t1_in.next = self.t1_1.val();
        }
        if self.sel_own.val() {
            self.w_in.next = self.o_w.q.val();
            self.t1_in.next = self.o_t1.q.val();
        }
        self.y1_late.d.next = self.chk_own.o.val().late
            | self.chk_1.o.val().late
            | self.chk_2.o.val().late
            | self.chk_3.o.val().late
            | self.chk_h.o.val().late;
        self.y1_fa_n_el.d.next = self.chk_own.o.val().fa_n_el
            | self.chk_1.o.val().fa_n_el
            | self.chk_2.o.val().fa_n_el
            | self.chk_3.o.val().fa_n_el
            | self.chk_h.o.val().fa_n_el;
        self.y1_fa_n_eh.d.next = self.chk_own.o.val().fa_n_eh
            | self.chk_1.o.val().fa_n_eh
            | self.chk_2.o.val().fa_n_eh
            | self.chk_3.o.val().fa_n_eh
            | self.chk_h.o.val().fa_n_eh;
        self.y1_fa_n_r.d.next = self.chk_own.o.val().fa_n_r
            | self.chk_1.o.val().fa_n_r
            | self.chk_2.o.val().fa_n_r
            | self.chk_3.o.val().fa_n_r
            | self.chk_h.o.val().fa_n_r;
        self.y1_fa_l_el.d.next = self.chk_own.o.val().fa_l_el
            | self.chk_1.o.val().fa_l_el
            | self.chk_2.o.val().fa_l_el
            | self.chk_3.o.val().fa_l_el
            | self.chk_h.o.val().fa_l_el;
        self.y1_fa_l_eh.d.next = self.chk_own.o.val().fa_l_eh
            | self.chk_1.o.val().fa_l_eh
            | self.chk_2.o.val().fa_l_eh
            | self.chk_3.o.val().fa_l_eh
            | self.chk_h.o.val().fa_l_eh;
        self.y1_fa_l_r.d.next = self.chk_own.o.val().fa_l_r
            | self.chk_1.o.val().fa_l_r
            | self.chk_2.o.val().fa_l_r
            | self.chk_3.o.val().fa_l_r
            | self.chk_h.o.val().fa_l_r;
        self.y1_fd_n_el.d.next = self.chk_own.o.val().fd_n_el
            | self.chk_1.o.val().fd_n_el
            | self.chk_2.o.val().fd_n_el
            | self.chk_3.o.val().fd_n_el
            | self.chk_h.o.val().fd_n_el;
        self.y1_fd_n_eh.d.next = self.chk_own.o.val().fd_n_eh
            | self.chk_1.o.val().fd_n_eh
            | self.chk_2.o.val().fd_n_eh
            | self.chk_3.o.val().fd_n_eh
            | self.chk_h.o.val().fd_n_eh;
        self.y1_fd_n_r.d.next = self.chk_own.o.val().fd_n_r
            | self.chk_1.o.val().fd_n_r
            | self.chk_2.o.val().fd_n_r
            | self.chk_3.o.val().fd_n_r
            | self.chk_h.o.val().fd_n_r;
        self.y1_fd_l_el.d.next = self.chk_own.o.val().fd_l_el
            | self.chk_1.o.val().fd_l_el
            | self.chk_2.o.val().fd_l_el
            | self.chk_3.o.val().fd_l_el
            | self.chk_h.o.val().fd_l_el;
        self.y1_fd_l_eh.d.next = self.chk_own.o.val().fd_l_eh
            | self.chk_1.o.val().fd_l_eh
            | self.chk_2.o.val().fd_l_eh
            | self.chk_3.o.val().fd_l_eh
            | self.chk_h.o.val().fd_l_eh;
        self.y1_fd_l_r.d.next = self.chk_own.o.val().fd_l_r
            | self.chk_1.o.val().fd_l_r
            | self.chk_2.o.val().fd_l_r
            | self.chk_3.o.val().fd_l_r
            | self.chk_h.o.val().fd_l_r;
        self.y1_fi_n_el.d.next = self.chk_own.o.val().fi_n_el
            | self.chk_1.o.val().fi_n_el
            | self.chk_2.o.val().fi_n_el
            | self.chk_3.o.val().fi_n_el
            | self.chk_h.o.val().fi_n_el;
        self.y1_fi_n_eh.d.next = self.chk_own.o.val().fi_n_eh
            | self.chk_1.o.val().fi_n_eh
            | self.chk_2.o.val().fi_n_eh
            | self.chk_3.o.val().fi_n_eh
            | self.chk_h.o.val().fi_n_eh;
        self.y1_fi_n_r.d.next = self.chk_own.o.val().fi_n_r
            | self.chk_1.o.val().fi_n_r
            | self.chk_2.o.val().fi_n_r
            | self.chk_3.o.val().fi_n_r
            | self.chk_h.o.val().fi_n_r;
        self.y1_fi_l_el.d.next = self.chk_own.o.val().fi_l_el
            | self.chk_1.o.val().fi_l_el
            | self.chk_2.o.val().fi_l_el
            | self.chk_3.o.val().fi_l_el
            | self.chk_h.o.val().fi_l_el;
        self.y1_fi_l_eh.d.next = self.chk_own.o.val().fi_l_eh
            | self.chk_1.o.val().fi_l_eh
            | self.chk_2.o.val().fi_l_eh
            | self.chk_3.o.val().fi_l_eh
            | self.chk_h.o.val().fi_l_eh;
        self.y1_fi_l_r.d.next = self.chk_own.o.val().fi_l_r
            | self.chk_1.o.val().fi_l_r
            | self.chk_2.o.val().fi_l_r
            | self.chk_3.o.val().fi_l_r
            | self.chk_h.o.val().fi_l_r;
        self.y1_ti_fr.d.next = self.chk_own.o.val().ti_fr
            | self.chk_1.o.val().ti_fr
            | self.chk_2.o.val().ti_fr
            | self.chk_3.o.val().ti_fr
            | self.chk_h.o.val().ti_fr;
        self.y1_ti_hai.d.next = self.chk_own.o.val().ti_hai
            | self.chk_1.o.val().ti_hai
            | self.chk_2.o.val().ti_hai
            | self.chk_3.o.val().ti_hai
            | self.chk_h.o.val().ti_hai;
        self.y1_in_e.d.next = self.x0_now.val().i_e;
        self.y1_in_r.d.next = self.x0_now.val().i_r;
        self.y1_il_e.d.next = self.x0_di_e.q.val();
        self.y1_il_r.d.next = self.x0_di_r.q.val();
        self.y1_w.d.next = self.w_in.val();
        self.y1_t1.d.next = self.t1_in.val();
        self.y1_ev.d.next = self.x0_ev.q.val();

        // ---- edge 2: alpha at the instant; the cut's Rt; the increase event's Rt + step;
        // the byte counter's sum ----
        // Each timer fired at the instant (now, or a microsecond earlier when late) while
        // the QP is limited.
        self.fa.next = self.y1_fa_n_el.q.val()
            & self.y1_fa_n_eh.q.val()
            & self.y1_fa_n_r.q.val()
            & self.y1_w.q.val().limited;
        self.fd.next = self.y1_fd_n_el.q.val()
            & self.y1_fd_n_eh.q.val()
            & self.y1_fd_n_r.q.val()
            & self.y1_w.q.val().limited;
        self.fi.next = self.y1_fi_n_el.q.val()
            & self.y1_fi_n_eh.q.val()
            & self.y1_fi_n_r.q.val()
            & self.y1_w.q.val().limited;
        self.ei_e.next = self.y1_in_e.q.val();
        self.ei_r.next = self.y1_in_r.q.val();
        if self.y1_late.q.val() {
            self.fa.next = self.y1_fa_l_el.q.val()
                & self.y1_fa_l_eh.q.val()
                & self.y1_fa_l_r.q.val()
                & self.y1_w.q.val().limited;
            self.fd.next = self.y1_fd_l_el.q.val()
                & self.y1_fd_l_eh.q.val()
                & self.y1_fd_l_r.q.val()
                & self.y1_w.q.val().limited;
            self.fi.next = self.y1_fi_l_el.q.val()
                & self.y1_fi_l_eh.q.val()
                & self.y1_fi_l_r.q.val()
                & self.y1_w.q.val().limited;
            self.ei_e.next = self.y1_il_e.q.val();
            self.ei_r.next = self.y1_il_r.q.val();
        }
        self.cut_go.next = self.fd.val() & self.y1_w.q.val().cnp_dec;
        self.inc_go.next = self.fi.val() & !self.cut_go.val();
        self.y2_alpha.d.next = self.y1_w.q.val().alpha;
        if self.fa.val() {
            self.y2_alpha.d.next = self.y1_t1.q.val();
        }
        self.y2_flag.d.next = self.y1_w.q.val().cnp_alpha & !self.fa.val();
        if self.y1_ev.q.val().kind == self.kind_cnp.val() {
            self.y2_flag.d.next = true;
        }
        // The increase timer's event: its phase (registered at edge 1).
        self.ti_fr.next = self.y1_ti_fr.q.val();
        self.ti_hai.next = self.y1_ti_hai.q.val();
        self.step_i.next = self.pc.q.val().ai_rate;
        if self.ti_hai.val() {
            self.step_i.next = self.pc.q.val().hai_rate;
        }
        if self.ti_fr.val() {
            self.step_i.next = 0.into();
        }
        self.ext_rt.i.next = self.y1_w.q.val().rt;
        self.ext_step_i.i.next = self.step_i.val();
        self.y2_rt_plus.d.next = self.ext_rt.o.val() + self.ext_step_i.o.val();
        self.t_inc.next = self.y1_w.q.val().t + self.one6.val();
        if self.y1_w.q.val().t.all() {
            self.t_inc.next = self.y1_w.q.val().t;
        }
        self.y2_t_i.d.next = self.t_inc.val();
        // The cut's clamp (golden `cut`: Rt_c is Rc on a clamp) and both of its sums.
        self.y2_clamp.d.next = self.pc.q.val().clamp_tgt_rate
            | self.y1_w.q.val().bc.any()
            | (self.pc.q.val().clamp_after_t & self.y1_w.q.val().t.any());
        self.ext_rc.i.next = self.y1_w.q.val().rc;
        self.y2_x.d.next = self.ext_rc.o.val() + self.ext_rt.o.val();
        self.y2_xc.d.next = self.ext_rc.o.val() + self.ext_rc.o.val();
        self.ext_acc.i.next = self.y1_w.q.val().acc;
        self.ext_bytes.i.next = self.y1_ev.q.val().bytes;
        self.y2_sum33.d.next = self.ext_acc.o.val() + self.ext_bytes.o.val();
        self.y2_ti_e.d.next = self.ei_e.val() + self.one_e.val();
        self.y2_ti_r.d.next = self.ei_r.val();
        self.y2_w.d.next = self.y1_w.q.val();
        self.y2_ev.d.next = self.y1_ev.q.val();
        self.y2_late.d.next = self.y1_late.q.val();
        self.y2_fa.d.next = self.fa.val();
        self.y2_fd.d.next = self.fd.val();
        self.y2_cut.d.next = self.cut_go.val();
        self.y2_inc.d.next = self.inc_go.val();
        self.y2_i_fr.d.next = self.ti_fr.val();
        self.y2_i_hai.d.next = self.ti_hai.val() & !self.ti_fr.val();

        // ---- edges 3..5: the products; the increase event; the byte counter ----
        self.mul_a.clock.next = self.clock.val();
        self.mul_a.en.next = true;
        self.mul_a.a.next = self.y2_w.q.val().rc;
        self.mul_a.b.next = self.y2_alpha.q.val();
        self.ext_q16.i.next = self.pc.q.val().max_cut_q16;
        self.mul_m.clock.next = self.clock.val();
        self.mul_m.en.next = true;
        self.mul_m.a.next = self.y2_w.q.val().rc;
        self.mul_m.b.next = self.ext_q16.o.val();
        self.c_g.d.next = self.k1024.val() - self.pc.q.val().g;
        self.ext_c1.i.next = self.c_g.q.val();
        self.mul_t1.clock.next = self.clock.val();
        self.mul_t1.en.next = true;
        self.mul_t1.a.next = self.y2_alpha.q.val();
        self.mul_t1.b.next = self.ext_c1.o.val();
        // alpha_init's product: a parameter, so the output is steady.
        self.mul_t1i.clock.next = self.clock.val();
        self.mul_t1i.en.next = true;
        self.mul_t1i.a.next = self.pc.q.val().alpha_init;
        self.mul_t1i.b.next = self.ext_c1.o.val();
        // Edge 3.
        self.rt_i.next = self.y2_rt_plus.q.val().get_bits::<RATE_W>(0);
        if self.y2_rt_plus.q.val() >= self.max29.q.val() {
            self.rt_i.next = self.pc.q.val().max_rate;
        }
        self.acc_sat.next = self.y2_sum33.q.val().get_bits::<ACC_W>(0);
        if self.y2_sum33.q.val().get_bit(32) {
            self.acc_sat.next = self.acc_max.val();
        }
        self.y3_acc_sat.d.next = self.acc_sat.val();
        self.y3_fire_n.d.next =
            !self.byte_off.q.val() & (self.acc_sat.val() >= self.pc.q.val().byte_reset);
        self.ext_bytes32.i.next = self.y2_ev.q.val().bytes;
        self.y3_fire_c.d.next =
            !self.byte_off.q.val() & (self.ext_bytes32.o.val() >= self.pc.q.val().byte_reset);
        self.y3_acc_c.d.next = self.ext_bytes32.o.val();
        if !self.byte_off.q.val() & (self.ext_bytes32.o.val() >= self.pc.q.val().byte_reset) {
            self.y3_acc_c.d.next = self.ext_bytes32.o.val() - self.pc.q.val().byte_reset;
        }
        self.y3_rt_i.d.next = self.rt_i.val();
        // The cut's Rt (Rc on a clamp) and `Rc + Rt_c + 1`.
        self.rt_c.next = self.y2_w.q.val().rt;
        self.x_c.next = self.y2_x.q.val();
        if self.y2_clamp.q.val() {
            self.rt_c.next = self.y2_w.q.val().rc;
            self.x_c.next = self.y2_xc.q.val();
        }
        self.y3_x.d.next = self.x_c.val() + self.one29.val();
        self.ext_min.i.next = self.pc.q.val().min_rate;
        self.ext_rtb.i.next = self.rt_c.val();
        self.y3_m.d.next = self.ext_min.o.val() + self.ext_rtb.o.val();
        self.y3_w.d.next = self.y2_w.q.val();
        self.y3_ev.d.next = self.y2_ev.q.val();
        self.y3_late.d.next = self.y2_late.q.val();
        self.y3_fa.d.next = self.y2_fa.q.val();
        self.y3_fd.d.next = self.y2_fd.q.val();
        self.y3_cut.d.next = self.y2_cut.q.val();
        self.y3_inc.d.next = self.y2_inc.q.val();
        self.y3_alpha.d.next = self.y2_alpha.q.val();
        self.y3_flag.d.next = self.y2_flag.q.val();
        self.y3_i_fr.d.next = self.y2_i_fr.q.val();
        self.y3_i_hai.d.next = self.y2_i_hai.q.val();
        // T after the instant, and the byte event's phase from it: both candidates'
        // compares, then the choice.
        self.y3_t_n.d.next = self.y2_w.q.val().t;
        self.y3_b_fr.d.next =
            (self.y2_w.q.val().t < self.th6.q.val()) & (self.y2_w.q.val().bc < self.th6.q.val());
        self.y3_b_hai.d.next =
            (self.y2_w.q.val().t > self.th6.q.val()) & (self.y2_w.q.val().bc > self.th6.q.val());
        if self.y2_inc.q.val() {
            self.y3_t_n.d.next = self.y2_t_i.q.val();
            self.y3_b_fr.d.next = (self.y2_t_i.q.val() < self.th6.q.val())
                & (self.y2_w.q.val().bc < self.th6.q.val());
            self.y3_b_hai.d.next = (self.y2_t_i.q.val() > self.th6.q.val())
                & (self.y2_w.q.val().bc > self.th6.q.val());
        }
        self.y3_rt_c.d.next = self.rt_c.val();
        self.y3_ti_e.d.next = self.y2_ti_e.q.val();
        self.y3_ti_r.d.next = self.y2_ti_r.q.val();
        // Edge 4: Rc after the increase event; the byte counter after a byte event; the
        // cut's release bound; the byte event's phase and Rt + step without a cut.
        self.ext_rcn.i.next = self.y3_w.q.val().rc;
        self.ext_rtn.i.next = self.y3_rt_i.q.val();
        self.rc_sum.next = self.ext_rtn.o.val() + self.ext_rcn.o.val() + self.one29.val();
        self.y4_rc_i.d.next = self.rc_sum.val().get_bits::<RATE_W>(1);
        self.y4_acc_n.d.next = self.y3_acc_sat.q.val();
        if self.y3_fire_n.q.val() {
            self.y4_acc_n.d.next = self.y3_acc_sat.q.val() - self.pc.q.val().byte_reset;
        }
        self.ext_x30.i.next = self.y3_x.q.val();
        self.y4_z.d.next = self.ext_x30.o.val() - self.ext_max30.o.val();
        self.y4_m.d.next = self.y3_m.q.val() + self.one29.val();
        self.rt_n.next = self.y3_w.q.val().rt;
        if self.y3_inc.q.val() {
            self.rt_n.next = self.y3_rt_i.q.val();
        }
        self.y4_b_fr.d.next = self.y3_b_fr.q.val();
        self.y4_b_hai.d.next = self.y3_b_hai.q.val();
        self.step_b.next = self.pc.q.val().ai_rate;
        if self.y3_b_hai.q.val() {
            self.step_b.next = self.pc.q.val().hai_rate;
        }
        if self.y3_b_fr.q.val() {
            self.step_b.next = 0.into();
        }
        self.ext_stepb.i.next = self.step_b.val();
        self.ext_rtn2.i.next = self.rt_n.val();
        self.y4_rtb_plus.d.next = self.ext_rtn2.o.val() + self.ext_stepb.o.val();
        self.y4_w.d.next = self.y3_w.q.val();
        self.y4_ev.d.next = self.y3_ev.q.val();
        self.y4_late.d.next = self.y3_late.q.val();
        self.y4_fa.d.next = self.y3_fa.q.val();
        self.y4_fd.d.next = self.y3_fd.q.val();
        self.y4_cut.d.next = self.y3_cut.q.val();
        self.y4_inc.d.next = self.y3_inc.q.val();
        self.y4_alpha.d.next = self.y3_alpha.q.val();
        self.y4_flag.d.next = self.y3_flag.q.val();
        self.y4_i_fr.d.next = self.y3_i_fr.q.val();
        self.y4_i_hai.d.next = self.y3_i_hai.q.val();
        self.y4_rt_i.d.next = self.y3_rt_i.q.val();
        self.y4_t_n.d.next = self.y3_t_n.q.val();
        self.y4_rt_c.d.next = self.y3_rt_c.q.val();
        self.y4_x.d.next = self.y3_x.q.val();
        self.y4_fire_n.d.next = self.y3_fire_n.q.val();
        self.y4_fire_c.d.next = self.y3_fire_c.q.val();
        self.y4_acc_c.d.next = self.y3_acc_c.q.val();
        self.y4_ti_e.d.next = self.y3_ti_e.q.val();
        self.y4_ti_r.d.next = self.y3_ti_r.q.val();
        // Edge 5: whether the increase event released; the word after the instant without
        // a cut; the byte event's Rt.
        self.y5_lim_n.d.next = self.y4_w.q.val().limited
            & !(self.y4_inc.q.val() & (self.y4_rc_i.q.val() >= self.pc.q.val().max_rate));
        self.y5_rc_n.d.next = self.y4_w.q.val().rc;
        self.y5_rt_n.d.next = self.y4_w.q.val().rt;
        if self.y4_inc.q.val() {
            self.y5_rc_n.d.next = self.y4_rc_i.q.val();
            self.y5_rt_n.d.next = self.y4_rt_i.q.val();
        }
        self.y5_rt_b.d.next = self.y4_rtb_plus.q.val().get_bits::<RATE_W>(0);
        if self.y4_rtb_plus.q.val() >= self.max29.q.val() {
            self.y5_rt_b.d.next = self.pc.q.val().max_rate;
        }
        self.y5_w.d.next = self.y4_w.q.val();
        self.y5_ev.d.next = self.y4_ev.q.val();
        self.y5_late.d.next = self.y4_late.q.val();
        self.y5_fa.d.next = self.y4_fa.q.val();
        self.y5_fd.d.next = self.y4_fd.q.val();
        self.y5_cut.d.next = self.y4_cut.q.val();
        self.y5_inc.d.next = self.y4_inc.q.val();
        self.y5_alpha.d.next = self.y4_alpha.q.val();
        self.y5_flag.d.next = self.y4_flag.q.val();
        self.y5_i_fr.d.next = self.y4_i_fr.q.val();
        self.y5_i_hai.d.next = self.y4_i_hai.q.val();
        self.y5_t_n.d.next = self.y4_t_n.q.val();
        self.y5_rt_c.d.next = self.y4_rt_c.q.val();
        self.y5_x.d.next = self.y4_x.q.val();
        self.y5_m.d.next = self.y4_m.q.val();
        self.y5_z.d.next = self.y4_z.q.val();
        self.y5_acc_n.d.next = self.y4_acc_n.q.val();
        self.y5_fire_n.d.next = self.y4_fire_n.q.val();
        self.y5_fire_c.d.next = self.y4_fire_c.q.val();
        self.y5_acc_c.d.next = self.y4_acc_c.q.val();
        self.y5_ti_e.d.next = self.y4_ti_e.q.val();
        self.y5_ti_r.d.next = self.y4_ti_r.q.val();
        self.y5_b_fr.d.next = self.y4_b_fr.q.val();
        self.y5_b_hai.d.next = self.y4_b_hai.q.val();

        // ---- edge 6: the cut's candidates, t1 of the new alpha, the divisions ----
        self.p_a.next = self.mul_a.p.val().get_bits::<49>(0);
        self.p_a_hi_unused.next = self.mul_a.p.val().get_bits::<15>(49);
        self.cut_a.next = self.p_a.val() >> self.pc.q.val().cut_shift;
        self.y6_a_hi0.d.next = self.cut_a.val().get_bits::<7>(28).any();
        self.y6_a_hi1.d.next = self.cut_a.val().get_bits::<7>(35).any();
        self.y6_a_hi2.d.next = self.cut_a.val().get_bits::<7>(42).any();
        self.y6_cut_a.d.next = self.cut_a.val().get_bits::<RATE_W>(0);
        self.y6_cut_m.d.next = self.mul_m.p.val().get_bits::<RATE_W>(16);
        self.p_m_lo_unused.next = self.mul_m.p.val().get_bits::<16>(0);
        self.p_m_hi_unused.next = self.mul_m.p.val().get_bits::<20>(44);
        self.y6_rc_mm.d.next = self.y5_w.q.val().rc - self.pc.q.val().min_rate;
        self.y6_rc_low.d.next = self.y5_w.q.val().rc < self.pc.q.val().min_rate;
        // t1 = (alpha * (1024 - g) >> 10) + flag * (g << 10).
        self.t1_prod.next = self.mul_t1.p.val().get_bits::<ALPHA_W>(10);
        self.t1_lo_unused.next = self.mul_t1.p.val().get_bits::<10>(0);
        self.t1_hi_unused.next = self.mul_t1.p.val().get_bits::<33>(31);
        self.t1i_prod.next = self.mul_t1i.p.val().get_bits::<ALPHA_W>(10);
        self.t1i_lo_unused.next = self.mul_t1i.p.val().get_bits::<10>(0);
        self.t1i_hi_unused.next = self.mul_t1i.p.val().get_bits::<33>(31);
        self.ext_g.i.next = self.pc.q.val().g;
        self.g_sh.next = self.ext_g.o.val() << self.ten.val();
        self.y6_t1.d.next = self.t1_prod.val();
        if self.y5_flag.q.val() {
            self.y6_t1.d.next = self.t1_prod.val() + self.g_sh.val();
        }
        self.y6_t1i.d.next = self.t1i_prod.val();
        self.y6_ema.d.next = self.y5_now.val().a_e - self.one_e.val();
        self.y6_emi.d.next = self.y5_now.val().i_e - self.one_e.val();
        self.y6_qa.d.next = self.div_a.q.val();
        self.y6_ra.d.next = self.div_a.r.val();
        self.y6_qi.d.next = self.div_i.q.val();
        self.y6_ri.d.next = self.div_i.r.val();
        // Rc after the byte event without a cut.
        self.ext_rcn2.i.next = self.y5_rc_n.q.val();
        self.ext_rtb2.i.next = self.y5_rt_b.q.val();
        self.rcb_sum.next = self.ext_rcn2.o.val() + self.ext_rtb2.o.val() + self.one29.val();
        self.y6_rc_b.d.next = self.rcb_sum.val().get_bits::<RATE_W>(1);
        self.y6_w.d.next = self.y5_w.q.val();
        self.y6_ev.d.next = self.y5_ev.q.val();
        self.y6_late.d.next = self.y5_late.q.val();
        self.y6_kcnp.d.next = self.y5_ev.q.val().kind == self.kind_cnp.val();
        self.y6_cmd.d.next = (self.y5_ev.q.val().kind == self.kind_reset.val())
            | (self.y5_ev.q.val().kind == self.kind_mode.val());
        self.y6_moded.d.next = self.y5_w.q.val().mode.any();
        self.y6_fa.d.next = self.y5_fa.q.val();
        self.y6_fd.d.next = self.y5_fd.q.val();
        self.y6_cut.d.next = self.y5_cut.q.val();
        self.y6_inc.d.next = self.y5_inc.q.val();
        self.y6_alpha.d.next = self.y5_alpha.q.val();
        self.y6_flag.d.next = self.y5_flag.q.val();
        self.y6_i_fr.d.next = self.y5_i_fr.q.val();
        self.y6_i_hai.d.next = self.y5_i_hai.q.val();
        self.y6_rc_n.d.next = self.y5_rc_n.q.val();
        self.y6_rt_n.d.next = self.y5_rt_n.q.val();
        self.y6_t_n.d.next = self.y5_t_n.q.val();
        self.y6_lim_n.d.next = self.y5_lim_n.q.val();
        self.y6_rt_c.d.next = self.y5_rt_c.q.val();
        self.y6_x.d.next = self.y5_x.q.val();
        self.y6_m.d.next = self.y5_m.q.val();
        self.y6_z.d.next = self.y5_z.q.val();
        self.y6_acc_n.d.next = self.y5_acc_n.q.val();
        self.y6_acc_c.d.next = self.y5_acc_c.q.val();
        self.y6_ti_e.d.next = self.y5_ti_e.q.val();
        self.y6_ti_r.d.next = self.y5_ti_r.q.val();
        self.y6_b_fr.d.next = self.y5_b_fr.q.val();
        self.y6_b_hai.d.next = self.y5_b_hai.q.val();
        self.y6_rt_b.d.next = self.y5_rt_b.q.val();
        self.lim6.next = self.y5_cut.q.val() | self.y5_lim_n.q.val();
        self.y6_fd_lim.d.next = self.y5_fd.q.val() & self.lim6.val();
        // Edge 7's priorities for `y7_xd*` (a command, then a QP not in DCQCN mode, then a
        // first CNP, then a decrease check while limited), one-hot.
        self.y6_xn.d.next =
            !self.y6_cmd.d.val() & !self.y6_moded.d.val() & self.y6_kcnp.d.val() & !self.lim6.val();
        self.y6_xs.d.next = !self.y6_cmd.d.val()
            & !self.y6_moded.d.val()
            & !(self.y6_kcnp.d.val() & !self.lim6.val())
            & self.y6_fd_lim.d.val();
        self.y6_xk.d.next = !self.y6_cmd.d.val() & !self.y6_xn.d.val() & !self.y6_xs.d.val();
        self.y6_fire.d.next = (self.y5_ev.q.val().kind == self.kind_tx.val())
            & self.lim6.val()
            & self.y5_fire_n.q.val();
        if self.y5_cut.q.val() {
            self.y6_fire.d.next = (self.y5_ev.q.val().kind == self.kind_tx.val())
                & self.lim6.val()
                & self.y5_fire_c.q.val();
        }

        // ---- edge 7: the cut; the byte event's release; the next decrease check's
        // candidates ----
        // The cut is min(cut_a, cut_m). Every result that depends on it is computed for
        // both candidates in parallel and chosen after the compare, so no carry chain
        // follows the choice and the last edge only chooses between registers.
        self.sel_a.next = !(self.y6_a_hi0.q.val() | self.y6_a_hi1.q.val() | self.y6_a_hi2.q.val())
            & (self.y6_cut_a.q.val() < self.y6_cut_m.q.val());
        // Rc - cut, and whether it clamps (Rc - cut < min_rate).
        self.rcc_a.next = self.y6_w.q.val().rc - self.y6_cut_a.q.val();
        self.rcc_m.next = self.y6_w.q.val().rc - self.y6_cut_m.q.val();
        self.clamp_a.next =
            self.y6_rc_low.q.val() | (self.y6_rc_mm.q.val() < self.y6_cut_a.q.val());
        self.clamp_m.next =
            self.y6_rc_low.q.val() | (self.y6_rc_mm.q.val() < self.y6_cut_m.q.val());
        // The cut's byte event: (Rc_cut + Rt_c + 1) / 2 = (X - cut) / 2 with X = Rc + Rt_c + 1,
        // and its release, (X - cut) / 2 >= max, i.e. cut <= X - 2 max = Z.
        self.ext_ca29.i.next = self.y6_cut_a.q.val();
        self.ext_cm29.i.next = self.y6_cut_m.q.val();
        self.bc_a.next = self.y6_x.q.val() - self.ext_ca29.o.val();
        self.bc_m.next = self.y6_x.q.val() - self.ext_cm29.o.val();
        self.ext_ca30.i.next = self.y6_cut_a.q.val();
        self.ext_cm30.i.next = self.y6_cut_m.q.val();
        self.rel_ca.next =
            !self.y6_z.q.val().get_bit(29) & (self.ext_ca30.o.val() <= self.y6_z.q.val());
        self.rel_cm.next =
            !self.y6_z.q.val().get_bit(29) & (self.ext_cm30.o.val() <= self.y6_z.q.val());
        // A clamped cut leaves min_rate: the byte event's sum is M = min_rate + Rt_c + 1.
        // Each candidate's results with its clamp, then the choice of the candidate.
        self.rct_a.next = self.rcc_a.val();
        self.rbc_a.next = self.bc_a.val().get_bits::<RATE_W>(1);
        if self.clamp_a.val() {
            self.rct_a.next = self.pc.q.val().min_rate;
            self.rbc_a.next = self.y6_m.q.val().get_bits::<RATE_W>(1);
        }
        self.rct_m.next = self.rcc_m.val();
        self.rbc_m.next = self.bc_m.val().get_bits::<RATE_W>(1);
        if self.clamp_m.val() {
            self.rct_m.next = self.pc.q.val().min_rate;
            self.rbc_m.next = self.y6_m.q.val().get_bits::<RATE_W>(1);
        }
        self.y7_rc_cut.d.next = self.rct_m.val();
        self.y7_rc_bc.d.next = self.rbc_m.val();
        if self.sel_a.val() {
            self.y7_rc_cut.d.next = self.rct_a.val();
            self.y7_rc_bc.d.next = self.rbc_a.val();
        }
        self.rel_b7.next = self.y6_rc_b.q.val() >= self.pc.q.val().max_rate;
        self.rel_m7.next = self.y6_m.q.val() >= self.two_max.q.val();
        self.y7_rc_b.d.next = self.y6_rc_b.q.val();
        self.y7_t1.d.next = self.y6_t1.q.val();
        self.y7_t1i.d.next = self.y6_t1i.q.val();
        // now + p_dec, and a microsecond less, in the alpha radix ...
        self.ext_qa.i.next = self.y6_qa.q.val();
        self.tda_ne7.next = self.y6_now.val().a_e + self.ext_qa.o.val();
        self.tda_nr7.next = self.y6_ra.q.val();
        self.tda_se7.next = self.y6_now.val().a_e + self.ext_qa.o.val();
        self.tda_sr7.next = self.y6_ra.q.val();
        self.ext_rab.i.next = self.y6_ra.q.val();
        self.ra_m1.next = self.ext_rab.o.val() - self.one_rb.val();
        if self.y6_late.q.val() {
            self.tda_sr7.next = self.ra_m1.val().get_bits::<REM_W>(0);
            if self.ra_m1.val().get_bit(17) {
                self.tda_se7.next = self.y6_ema.q.val() + self.ext_qa.o.val();
                self.tda_sr7.next = self.pa_m1.q.val();
            }
        }
        // ... and in the increase radix.
        self.ext_qi.i.next = self.y6_qi.q.val();
        self.tdi_ne7.next = self.y6_now.val().i_e + self.ext_qi.o.val();
        self.tdi_nr7.next = self.y6_ri.q.val();
        self.tdi_se7.next = self.y6_now.val().i_e + self.ext_qi.o.val();
        self.tdi_sr7.next = self.y6_ri.q.val();
        self.ext_rib.i.next = self.y6_ri.q.val();
        self.ri_m1.next = self.ext_rib.o.val() - self.one_rb.val();
        if self.y6_late.q.val() {
            self.tdi_sr7.next = self.ri_m1.val().get_bits::<REM_W>(0);
            if self.ri_m1.val().get_bit(17) {
                self.tdi_se7.next = self.y6_emi.q.val() + self.ext_qi.o.val();
                self.tdi_sr7.next = self.pi_m1.q.val();
            }
        }
        // Edge 8's choices (see `y7_lim_i`).
        self.lim7.next = self.y6_cut.q.val() | self.y6_lim_n.q.val();
        // The result's next decrease check in both radices unless the byte event releases
        // (see `y7_xda_e`), by the last edge's priorities: a command, then a QP not in
        // DCQCN mode, then a first CNP, then a decrease check while limited.
        self.first7.next = self.y6_kcnp.q.val() & !self.lim7.val();
        self.moded7.next = self.y6_moded.q.val();
        self.cmd7.next = self.y6_cmd.q.val();
        self.y7_xda_e.d.next = 0.into();
        self.y7_xda_r.d.next = 0.into();
        self.y7_xdi_e.d.next = 0.into();
        self.y7_xdi_r.d.next = 0.into();
        if self.y6_xk.q.val() {
            self.y7_xda_e.d.next = self.y6_w.q.val().tda_e;
            self.y7_xda_r.d.next = self.y6_w.q.val().tda_r;
            self.y7_xdi_e.d.next = self.y6_w.q.val().tdi_e;
            self.y7_xdi_r.d.next = self.y6_w.q.val().tdi_r;
        }
        if self.y6_xn.q.val() {
            self.y7_xda_e.d.next = self.tda_ne7.val();
            self.y7_xda_r.d.next = self.tda_nr7.val();
            self.y7_xdi_e.d.next = self.tdi_ne7.val();
            self.y7_xdi_r.d.next = self.tdi_nr7.val();
        }
        // (Last: the carry chains' results arrive latest.)
        if self.y6_xs.q.val() {
            self.y7_xda_e.d.next = self.tda_se7.val();
            self.y7_xda_r.d.next = self.tda_sr7.val();
            self.y7_xdi_e.d.next = self.tdi_se7.val();
            self.y7_xdi_r.d.next = self.tdi_sr7.val();
        }
        self.y7_fdk.d.next = self.y6_xs.q.val();
        self.y7_lim_i.d.next = self.lim7.val();
        self.y7_first.d.next = self.first7.val();
        self.y7_cnp_lim.d.next = self.y6_kcnp.q.val() & self.lim7.val();
        self.tx_lim7.next = (self.y6_ev.q.val().kind == self.kind_tx.val()) & self.lim7.val();
        self.y7_tx_lim.d.next = self.tx_lim7.val();
        self.fire7.next = self.y6_fire.q.val();
        self.y7_rb_a.d.next = self.fire7.val() & self.rel_b7.val();
        self.y7_rb_m.d.next = self.fire7.val() & self.rel_b7.val();
        self.y7_sel_a.d.next = self.sel_a.val();
        self.y7_acc_sel.d.next = self.y6_acc_n.q.val();
        self.bc_inc7.next = self.y6_w.q.val().bc + self.one6.val();
        if self.y6_w.q.val().bc.all() {
            self.bc_inc7.next = self.y6_w.q.val().bc;
        }
        self.y7_bc_inc.d.next = self.bc_inc7.val();
        if self.y6_cut.q.val() {
            self.y7_rb_a.d.next = self.fire7.val() & self.rel_ca.val();
            if self.clamp_a.val() {
                self.y7_rb_a.d.next = self.fire7.val() & self.rel_m7.val();
            }
            self.y7_rb_m.d.next = self.fire7.val() & self.rel_cm.val();
            if self.clamp_m.val() {
                self.y7_rb_m.d.next = self.fire7.val() & self.rel_m7.val();
            }
            self.y7_acc_sel.d.next = self.y6_acc_c.q.val();
            // The cut cleared BC.
            self.y7_bc_inc.d.next = 1.into();
        }
        self.y7_fire.d.next = self.fire7.val();
        self.y7_fa_lim.d.next = self.y6_fa.q.val() & self.lim7.val();
        self.y7_fd_lim.d.next = self.y6_fd.q.val() & self.lim7.val();
        self.y7_moded.d.next = self.moded7.val();
        self.y7_cmd.d.next = self.cmd7.val();
        self.y7_mode_ev.d.next = self.y6_ev.q.val().kind == self.kind_mode.val();
        self.y7_ti_e1.d.next = self.y6_w.q.val().ti_e + self.one_e.val();
        self.y7_ta_e1.d.next = self.y6_w.q.val().ta_e + self.one_e.val();
        self.y7_td_e1.d.next = self.y6_w.q.val().td_e + self.one_e.val();
        self.y7_na_e1.d.next = self.y6_now.val().a_e + self.one_e.val();
        self.y7_nd_e1.d.next = self.y6_now.val().d_e + self.one_e.val();
        self.y7_ni_e1.d.next = self.y6_now.val().i_e + self.one_e.val();
        self.y7_w.d.next = self.y6_w.q.val();
        self.y7_ev.d.next = self.y6_ev.q.val();
        self.y7_cut.d.next = self.y6_cut.q.val();
        self.y7_inc.d.next = self.y6_inc.q.val();
        self.y7_alpha.d.next = self.y6_alpha.q.val();
        self.y7_i_fr.d.next = self.y6_i_fr.q.val();
        self.y7_i_hai.d.next = self.y6_i_hai.q.val();
        self.y7_rc_n.d.next = self.y6_rc_n.q.val();
        self.y7_rt_n.d.next = self.y6_rt_n.q.val();
        self.y7_t_n.d.next = self.y6_t_n.q.val();
        self.y7_lim_n.d.next = self.y6_lim_n.q.val();
        self.y7_rt_c.d.next = self.y6_rt_c.q.val();
        self.y7_ti_e.d.next = self.y6_ti_e.q.val();
        self.y7_ti_r.d.next = self.y6_ti_r.q.val();
        self.y7_b_fr.d.next = self.y6_b_fr.q.val();
        self.y7_b_hai.d.next = self.y6_b_hai.q.val();
        self.y7_rt_b.d.next = self.y6_rt_b.q.val();

        // ---- edge 8: the word, chosen from registers by registered selects ----
        // The word after the instant: the cut, or the increase event.
        self.s.next = self.y7_w.q.val();
        if self.y7_cut.q.val() {
            self.s.next.rc = self.y7_rc_cut.q.val();
            self.s.next.rt = self.y7_rt_c.q.val();
            self.s.next.t = 0.into();
            self.s.next.bc = 0.into();
            self.s.next.acc = 0.into();
            self.s.next.cnp_dec = false;
            self.s.next.ti_e = self.y7_ti_e.q.val();
            self.s.next.ti_r = self.y7_ti_r.q.val();
        } else if self.y7_inc.q.val() {
            self.s.next.rc = self.y7_rc_n.q.val();
            self.s.next.rt = self.y7_rt_n.q.val();
            if self.y7_lim_n.q.val() {
                self.s.next.t = self.y7_t_n.q.val();
                self.s.next.ti_e = self.y7_ti_e1.q.val();
            } else {
                self.s.next.limited = false;
            }
        }
        // Alpha and the alpha and decrease timers (not after a release).
        if self.y7_lim_i.q.val() {
            self.s.next.alpha = self.y7_alpha.q.val();
        }
        if self.y7_fa_lim.q.val() {
            self.s.next.cnp_alpha = false;
            self.s.next.ta_e = self.y7_ta_e1.q.val();
        }
        if self.y7_fd_lim.q.val() {
            self.s.next.td_e = self.y7_td_e1.q.val();
        }
        // The event: a CNP sets the flags; a packet adds to the byte counter and may be a
        // byte event, which may release.
        if self.y7_cnp_lim.q.val() {
            self.s.next.cnp_alpha = true;
            self.s.next.cnp_dec = true;
        }
        if self.y7_tx_lim.q.val() {
            self.s.next.acc = self.y7_acc_sel.q.val();
        }
        if self.y7_fire.q.val() {
            self.s.next.bc = self.y7_bc_inc.q.val();
            if self.y7_cut.q.val() {
                self.s.next.rc = self.y7_rc_bc.q.val();
            } else {
                self.s.next.rc = self.y7_rc_b.q.val();
                self.s.next.rt = self.y7_rt_b.q.val();
            }
        }
        self.rel_byte8.next = self.y7_rb_m.q.val();
        if self.y7_sel_a.q.val() {
            self.rel_byte8.next = self.y7_rb_a.q.val();
        }
        if self.rel_byte8.val() {
            self.s.next.limited = false;
        }
        if self.y7_first.q.val() {
            self.s.next.limited = true;
            self.s.next.rc = self.pc.q.val().first_rate;
            self.s.next.rt = self.pc.q.val().first_rate;
            self.s.next.alpha = self.pc.q.val().alpha_init;
            self.s.next.t = 0.into();
            self.s.next.bc = 0.into();
            self.s.next.acc = 0.into();
            self.s.next.cnp_alpha = false;
            self.s.next.cnp_dec = true;
            self.s.next.sub = self.y7_now.val().sub;
            self.s.next.ta_e = self.y7_na_e1.q.val();
            self.s.next.ta_r = self.y7_now.val().a_r;
            self.s.next.td_e = self.y7_nd_e1.q.val();
            self.s.next.td_r = self.y7_now.val().d_r;
            self.s.next.ti_e = self.y7_ni_e1.q.val();
            self.s.next.ti_r = self.y7_now.val().i_r;
        }
        // Counts: the instant's increase event and the byte event, by phase.
        self.cnt_fr.next = 0.into();
        self.cnt_ai.next = 0.into();
        self.cnt_hai.next = 0.into();
        if self.y7_inc.q.val() {
            if self.y7_i_fr.q.val() {
                self.cnt_fr.next = self.one2.val();
            } else if self.y7_i_hai.q.val() {
                self.cnt_hai.next = self.one2.val();
            } else {
                self.cnt_ai.next = self.one2.val();
            }
        }
        if self.y7_fire.q.val() {
            if self.y7_cut.q.val() | self.y7_b_fr.q.val() {
                self.cnt_fr.next = self.cnt_fr.val() + self.one2.val();
            } else if self.y7_b_hai.q.val() {
                self.cnt_hai.next = self.cnt_hai.val() + self.one2.val();
            } else {
                self.cnt_ai.next = self.cnt_ai.val() + self.one2.val();
            }
        }
        self.o_w.d.next = self.s.val();
        self.o_t1.d.next = self.y7_t1.q.val();
        if self.y7_first.q.val() {
            self.o_t1.d.next = self.y7_t1i.q.val();
        }
        self.o_cut.d.next = self.y7_cut.q.val();
        self.o_fr.d.next = self.cnt_fr.val();
        self.o_ai.d.next = self.cnt_ai.val();
        self.o_hai.d.next = self.cnt_hai.val();
        // Commands replace the word; a QP not in DCQCN mode ignores CNPs and packets.
        if self.y7_moded.q.val() {
            self.o_w.d.next = self.y7_w.q.val();
            self.o_cut.d.next = false;
            self.o_fr.d.next = 0.into();
            self.o_ai.d.next = 0.into();
            self.o_hai.d.next = 0.into();
        }
        if self.y7_cmd.q.val() {
            self.o_w.d.next = self.zero_word.val();
            if self.y7_mode_ev.q.val() {
                self.o_w.d.next.mode = self.y7_ev.q.val().mode;
                self.o_w.d.next.host_rate = self.y7_ev.q.val().rate;
            }
            self.o_cut.d.next = false;
            self.o_fr.d.next = 0.into();
            self.o_ai.d.next = 0.into();
            self.o_hai.d.next = 0.into();
        }
        // The next decrease check in the other radices (chosen at edge 7, `y7_xda_e`).
        self.o_w.d.next.tda_e = self.y7_xda_e.q.val();
        self.o_w.d.next.tda_r = self.y7_xda_r.q.val();
        self.o_w.d.next.tdi_e = self.y7_xdi_e.q.val();
        self.o_w.d.next.tdi_r = self.y7_xdi_r.q.val();
        if self.y7_fdk.q.val() & self.rel_byte8.val() {
            self.o_w.d.next.tda_e = self.y7_w.q.val().tda_e;
            self.o_w.d.next.tda_r = self.y7_w.q.val().tda_r;
            self.o_w.d.next.tdi_e = self.y7_w.q.val().tdi_e;
            self.o_w.d.next.tdi_r = self.y7_w.q.val().tdi_r;
        }
        self.rc_sum_lo_unused.next = self.rc_sum.val().get_bit(0);
        self.rcb_sum_lo_unused.next = self.rcb_sum.val().get_bit(0);
        self.bc_a_lo_unused.next = self.bc_a.val().get_bit(0);
        self.bc_m_lo_unused.next = self.bc_m.val().get_bit(0);
        self.w_o.next = self.o_w.q.val();
        self.t1_o.next = self.o_t1.q.val();
        self.cut_o.next = self.o_cut.q.val();
        self.fr_o.next = self.o_fr.q.val();
        self.ai_o.next = self.o_ai.q.val();
        self.hai_o.next = self.o_hai.q.val();
    }
}
