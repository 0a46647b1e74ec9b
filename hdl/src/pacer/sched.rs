//! `Pacer`: the pacer top (`../shared/reference/pacing.md`): per-QP rates, windows and
//! backlogs in, one grant `{qp, bytes}` per cycle at most out, in the schedule of
//! pacing.md.
//!
//! The golden model `roce_cc_sim::pacer::sched::PacerCycle` states the behaviour cycle by
//! cycle (its module doc is the exact statement); `docs/pacer.md` ("The pacer top") is the
//! description for a reader. In short:
//!
//! ```text
//!  s_post ──► posted += bytes ──(QP was idle)──────────────────────────┐ set 2
//!  s_rate ─┬► PacerCpb (8) ──► rate word ─┐                             │
//!  s_ack  ─┘        acked (newer) ────────┴─(parked QP)────────────────┤ set 3
//!                                                                       ▼
//!  coarse wheel ──wake──┐          ┌─────────── eligible set ◄── fine wheel (set 0)
//!  (256 x 64 cycles)    ▼          ▼ pick                              ▲
//!                   issue (c0) ─► read state, posted, rate, acked (c1) │
//!                   ─► fresh start, bytes, PaceStep (c2..c7), window (c3)
//!                   ─► route (c8): grant FIFO ─► m_grant; next into the eligible
//!                      set (set 1), the fine wheel or the coarse wheel; park; idle
//! ```
//!
//! A QP with bytes is in exactly one place (eligible set, a wheel, the grant pipeline, or
//! parked), so the grant pipeline's own memory (`next`, `sent`, `fresh`) is never read
//! while it is being written and needs no forwarding; the doorbell and side paths write
//! their own memories, read as written ([`BypassRam`]), and three per-QP bits (`active`,
//! `parked`, `poke`, [`QpBits`]) settle the races between the paths.
//!
//! Widths: QP `QB` bits; `now` 48 bits (whole cycles); a QP's `next` 64 bits (cycles Q.16);
//! `posted`, `sent`, `acked`, ACK `seq`, window: 32 bits (bytes, mod 2^32: a QP holds at
//! most 2^32 - 1 bytes posted and not granted); a packet 14 bits (at most 9216 bytes); a
//! rate 28 bits (Mb/s Q.8).

use crate::bypass_ram::BypassRam;
use crate::lut_ram::LutRam;
use crate::pacer::cpb::{CPB_E_W, CPB_M_W, CpbWord, KE_W, PacerCpb, RATE_W};
use crate::pacer::eligible::Eligible;
use crate::pacer::pace_step::{BACKLOG_W, BYTES_W, GAP_W, NOW_W, PaceStep, TIME_W};
use crate::pacer::qp_bits::QpBits;
use crate::pacer::wheel::Wheel;
use crate::state_ram::StateRam;
use crate::zero_ext::ZeroExt;
use rust_hdl::prelude::*;

/// Slots of the fine wheel: `2^FINE_SB` one-cycle slots.
pub const FINE_SB: usize = 8;
/// Slots of the coarse wheel: `2^COARSE_SB`.
pub const COARSE_SB: usize = 8;
/// The coarse wheel's unit: `2^COARSE_SHIFT` cycles.
pub const COARSE_SHIFT: usize = 6;
/// Entries of the grant FIFO.
pub const GRANT_FIFO: usize = 16;
/// Cycles from an operation's issue to its route stage.
pub const ROUTE_STAGE: usize = 8;
/// Cycles from a side-path acceptance (rate report or ACK) to its write.
pub const SIDE_STAGES: usize = 8;
/// Cycles before its time a QP leaves the wheels for the eligible set.
pub const LEAD: usize = 4;
/// Width of a byte count, sequence or window (mod 2^32).
pub const SEQ_W: usize = 32;
/// Slots of each wheel.
const SLOTS: usize = 256;
/// Stages after c4 that carry an operation to the route stage.
const TAIL: usize = ROUTE_STAGE - 4;

const _: () = assert!(SLOTS == 1 << FINE_SB && SLOTS == 1 << COARSE_SB);
const _: () = assert!(crate::pacer::cpb::CPB_STAGES == SIDE_STAGES);
const _: () = assert!(crate::pacer::pace_step::PACE_STAGES + 2 == ROUTE_STAGE);

/// A QP's schedule: the grant pipeline's memory.
#[derive(Clone, Copy, Debug, Default, PartialEq, LogicStruct)]
pub struct PacerSt {
    /// Next departure time, cycles Q.16.
    pub next_t: Bits<TIME_W>,
    /// Bytes granted, mod 2^32.
    pub sent: Bits<SEQ_W>,
    /// The QP was idle: its next grant starts no earlier than its cycle.
    pub fresh: Bit,
}

/// A QP's rate word: the side path's memory.
#[derive(Clone, Copy, Debug, Default, PartialEq, LogicStruct)]
pub struct PacerRateWord {
    /// Cycles per byte, mantissa (0: unpaced).
    pub m: Bits<CPB_M_W>,
    /// Cycles per byte, exponent.
    pub e: Bits<CPB_E_W>,
    /// The QP has a window.
    pub win_en: Bit,
    /// The window, bytes.
    pub window: Bits<SEQ_W>,
}

/// The pacer of `2^QB = N` QPs. `WB = QB - 5`, `NW = 2^WB`, `LW = QB + 1`, `FW = QB + 14`
/// (checked by `Default`; [`Pacer1024`] is the default size).
#[derive(LogicBlock)]
pub struct Pacer<
    const QB: usize,
    const WB: usize,
    const NW: usize,
    const LW: usize,
    const FW: usize,
    const N: usize,
> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset, active high: empties the pacer and sweeps its memories (`busy`).
    pub reset: Signal<In, Bit>,
    /// The current cycle (whole cycles, mod 2^48); one more each cycle.
    pub now: Signal<In, Bits<NOW_W>>,
    /// Largest packet, bytes (64..=9216); static.
    pub mtu_bytes: Signal<In, Bits<BYTES_W>>,
    /// Clock constant of `PacerCpb`: `clock_mhz << (17 - ke)`; static.
    pub km: Signal<In, Bits<CPB_M_W>>,
    /// Clock constant of `PacerCpb`: the position of `clock_mhz`'s leading one; static.
    pub ke: Signal<In, Bits<KE_W>>,
    /// Doorbell: `s_post_bytes` more bytes for `s_post_qp`.
    pub s_post_valid: Signal<In, Bit>,
    /// The pacer takes the doorbell (`!busy`).
    pub s_post_ready: Signal<Out, Bit>,
    /// The doorbell's QP.
    pub s_post_qp: Signal<In, Bits<QB>>,
    /// The doorbell's bytes (0 changes nothing).
    pub s_post_bytes: Signal<In, Bits<SEQ_W>>,
    /// Rate report: the QP's rate and window.
    pub s_rate_valid: Signal<In, Bit>,
    /// The pacer takes the rate report (shared with the ACKs, turn about).
    pub s_rate_ready: Signal<Out, Bit>,
    /// The report's QP.
    pub s_rate_qp: Signal<In, Bits<QB>>,
    /// The QP's rate, Mb/s Q.8 (below 1 Mb/s paced at 1 Mb/s).
    pub s_rate_rate: Signal<In, Bits<RATE_W>>,
    /// The QP has a window (an HPCC QP).
    pub s_rate_win_en: Signal<In, Bit>,
    /// The QP's window, bytes.
    pub s_rate_window: Signal<In, Bits<SEQ_W>>,
    /// ACK: the QP's bytes up to `s_ack_seq` arrived.
    pub s_ack_valid: Signal<In, Bit>,
    /// The pacer takes the ACK.
    pub s_ack_ready: Signal<Out, Bit>,
    /// The ACK's QP.
    pub s_ack_qp: Signal<In, Bits<QB>>,
    /// The ACK's sequence (bytes, mod 2^32): taken when newer than the QP's last.
    pub s_ack_seq: Signal<In, Bits<SEQ_W>>,
    /// Grant: `m_grant_qp` sends a packet of `m_grant_bytes` now; held until ready.
    pub m_grant_valid: Signal<Out, Bit>,
    /// The port takes the grant.
    pub m_grant_ready: Signal<In, Bit>,
    /// The granted QP.
    pub m_grant_qp: Signal<Out, Bits<QB>>,
    /// The packet's bytes.
    pub m_grant_bytes: Signal<Out, Bits<BYTES_W>>,
    /// The reset sweep is running (no input is taken).
    pub busy: Signal<Out, Bit>,
    /// QPs with bytes posted and not granted (`active`): 0 when the pacer has no work (its
    /// wheels and eligible set are empty; grants may still wait in the FIFO).
    pub backlogged: Signal<Out, Bits<LW>>,
    /// Nothing happens inside without an input before `wake_at` (or ever, without
    /// `wake_en`): every QP with bytes is parked or waits in the coarse wheel's slots, no
    /// grant is owed, the coarse wheel releases nothing now and its scan has found its first
    /// QP. Rate reports, ACKs and doorbells in flight in the side and doorbell paths (at
    /// most `SIDE_STAGES` cycles after their offer) are not seen here.
    pub asleep: Signal<Out, Bit>,
    /// The coarse wheel holds a QP: when `asleep`, the next one leaves at `wake_at`.
    pub wake_en: Signal<Out, Bit>,
    /// The cycle (mod 2^48) at whose coarse slot the coarse wheel's first QP is due: its
    /// scan's `first` times 2^`COARSE_SHIFT`. A wake is on the coarse wheel's output no
    /// earlier than the cycle after it.
    pub wake_at: Signal<Out, Bits<NOW_W>>,

    // Units.
    eligible: Eligible<QB, WB, NW>,
    fine: Wheel<QB, FINE_SB, SLOTS, LW>,
    coarse: Wheel<QB, COARSE_SB, SLOTS, LW>,
    cpb_u: PacerCpb,
    step: PaceStep,
    // Memories.
    st_ram: StateRam<PacerSt, QB>,
    /// `posted`: one copy read by the doorbell path, one by the grant pipeline.
    posted_a: BypassRam<Bits<SEQ_W>, QB>,
    posted_b: BypassRam<Bits<SEQ_W>, QB>,
    rate_ram: BypassRam<PacerRateWord, QB>,
    /// `acked`: one copy read by the side path, one by the grant pipeline.
    acked_a: BypassRam<Bits<SEQ_W>, QB>,
    acked_b: BypassRam<Bits<SEQ_W>, QB>,
    active: QpBits<QB, WB, NW, N>,
    parked: QpBits<QB, WB, NW, N>,
    poke: QpBits<QB, WB, NW, N>,
    fifo: LutRam<FW, 4>,
    // Sweep and turn.
    busy_r: DFF<Bit>,
    /// QPs whose `active` bit is set.
    act_cnt: DFF<Bits<LW>>,
    /// QPs whose `parked` bit is set.
    park_cnt: DFF<Bits<LW>>,
    /// QPs parked or in the coarse wheel.
    sleep_sum: Signal<Local, Bits<LW>>,
    /// The fine wheel's scan and count, which the pacer does not use (it sleeps only while
    /// the fine wheel is empty, which the counts say).
    fine_first_unused: Signal<Local, Bits<NOW_W>>,
    fine_first_valid_unused: Signal<Local, Bit>,
    fine_held_unused: Signal<Local, Bits<LW>>,
    one_lw: Constant<Bits<LW>>,
    sweep: DFF<Bits<QB>>,
    ack_turn: DFF<Bit>,
    // Doorbell write cycle.
    pa_v: DFF<Bit>,
    pa_qp: DFF<Bits<QB>>,
    pa_bytes: DFF<Bits<SEQ_W>>,
    // Side path: `sd_*[k]` is the operation accepted `k + 1` cycles ago.
    sd_v: Vec<DFF<Bit>>,
    sd_ack: Vec<DFF<Bit>>,
    sd_qp: Vec<DFF<Bits<QB>>>,
    sd_seq: Vec<DFF<Bits<SEQ_W>>>,
    sd_wen: Vec<DFF<Bit>>,
    sd_win: Vec<DFF<Bits<SEQ_W>>>,
    // Grant pipeline: `p_*[k]` is the operation issued `k + 1` cycles ago.
    p_v: Vec<DFF<Bit>>,
    p_wake: Vec<DFF<Bit>>,
    p_qp: Vec<DFF<Bits<QB>>>,
    // In c2.
    s2_backlog: DFF<Bits<BACKLOG_W>>,
    s2_infl: DFF<Bits<SEQ_W>>,
    s2_ahead: DFF<Bits<TIME_W>>,
    s2_now: DFF<Bits<NOW_W>>,
    s2_next: DFF<Bits<TIME_W>>,
    s2_sent: DFF<Bits<SEQ_W>>,
    s2_fresh: DFF<Bit>,
    s2_cpb: DFF<CpbWord>,
    s2_wen: DFF<Bit>,
    s2_win: DFF<Bits<SEQ_W>>,
    // In c3.
    s3_next: DFF<Bits<TIME_W>>,
    s3_due: DFF<Bit>,
    s3_has: DFF<Bit>,
    s3_bytes: DFF<Bits<BYTES_W>>,
    s3_infl: DFF<Bits<SEQ_W>>,
    s3_sent: DFF<Bits<SEQ_W>>,
    s3_wen: DFF<Bit>,
    s3_win: DFF<Bits<SEQ_W>>,
    // In c4.
    s4_allowed: DFF<Bit>,
    s4_sent_new: DFF<Bits<SEQ_W>>,
    s4_sent: DFF<Bits<SEQ_W>>,
    s4_next: DFF<Bits<TIME_W>>,
    s4_due: DFF<Bit>,
    s4_has: DFF<Bit>,
    // In c5..c8: `t_*[k]` in cycle `c(5 + k)`.
    t_grant: Vec<DFF<Bit>>,
    t_sent: Vec<DFF<Bits<SEQ_W>>>,
    t_next: Vec<DFF<Bits<TIME_W>>>,
    t_due: Vec<DFF<Bit>>,
    t_has: Vec<DFF<Bit>>,
    // Grant FIFO.
    f_wr: DFF<Bits<4>>,
    f_rd: DFF<Bits<4>>,
    f_cnt: DFF<Bits<5>>,
    owed: DFF<Bits<5>>,

    // Constants.
    c_one_q: Constant<Bits<QB>>,
    c_one4: Constant<Bits<4>>,
    c_one5: Constant<Bits<5>>,
    c_fifo: Constant<Bits<5>>,
    c_frac: Constant<Bits<8>>,
    c_lead: Constant<Bits<NOW_W>>,
    c_one_t: Constant<Bits<NOW_W>>,
    c_last_slot: Constant<Bits<NOW_W>>,
    c_cshift: Constant<Bits<8>>,
    c_zero_s: Constant<Bits<SEQ_W>>,
    c_one: Constant<Bit>,
    c_sweep_st: Constant<PacerSt>,
    c_sweep_rate: Constant<PacerRateWord>,

    // Issue.
    wake: Signal<Local, Bit>,
    grant_issue: Signal<Local, Bit>,
    op_v: Signal<Local, Bit>,
    op_qp: Signal<Local, Bits<QB>>,
    // Doorbell.
    post_take: Signal<Local, Bit>,
    post_touch: Signal<Local, Bit>,
    start: Signal<Local, Bit>,
    // Side.
    rate_take: Signal<Local, Bit>,
    ack_take: Signal<Local, Bit>,
    sd_d: Signal<Local, Bits<SEQ_W>>,
    sd_d_low_unused: Signal<Local, Bits<31>>,
    ack_ok: Signal<Local, Bit>,
    side_touch: Signal<Local, Bit>,
    unpark: Signal<Local, Bit>,
    rate_wd: Signal<Local, PacerRateWord>,
    // c1.
    now_x: ZeroExt<NOW_W, TIME_W>,
    now_q16: Signal<Local, Bits<TIME_W>>,
    // c2.
    n2_x: ZeroExt<NOW_W, TIME_W>,
    n2_q16: Signal<Local, Bits<TIME_W>>,
    stale: Signal<Local, Bit>,
    ahead_hi: Signal<Local, Bits<21>>,
    ahead_cyc: Signal<Local, Bits<48>>,
    ahead_frac_unused: Signal<Local, Bits<16>>,
    ahead_mid_unused: Signal<Local, Bits<27>>,
    next_eff: Signal<Local, Bits<TIME_W>>,
    mtu_x: ZeroExt<BYTES_W, BACKLOG_W>,
    // c3.
    infl_x: ZeroExt<SEQ_W, 33>,
    bytes_x33: ZeroExt<BYTES_W, 33>,
    win_x: ZeroExt<SEQ_W, 33>,
    bytes_x32: ZeroExt<BYTES_W, SEQ_W>,
    // c8.
    poked: Signal<Local, Bit>,
    granted: Signal<Local, Bit>,
    is_grant: Signal<Local, Bit>,
    empty: Signal<Local, Bit>,
    route_en: Signal<Local, Bit>,
    route_t: Signal<Local, Bits<TIME_W>>,
    route_d: Signal<Local, Bits<NOW_W>>,
    route_frac_unused: Signal<Local, Bits<16>>,
    w: Signal<Local, Bits<NOW_W>>,
    w_now: Signal<Local, Bits<NOW_W>>,
    w_now_low_unused: Signal<Local, Bits<47>>,
    elig_now: Signal<Local, Bit>,
    w_fine: Signal<Local, Bits<NOW_W>>,
    w_fine_low_unused: Signal<Local, Bits<8>>,
    fine_ok: Signal<Local, Bit>,
    cn: Signal<Local, Bits<NOW_W>>,
    cd: Signal<Local, Bits<NOW_W>>,
    cd_cn: Signal<Local, Bits<NOW_W>>,
    cd_cn_low_unused: Signal<Local, Bits<47>>,
    c_try: Signal<Local, Bits<NOW_W>>,
    c_far: Signal<Local, Bits<NOW_W>>,
    c_far_low_unused: Signal<Local, Bits<8>>,
    c_slot: Signal<Local, Bits<NOW_W>>,
    c_slot_hi_unused: Signal<Local, Bits<40>>,
    w_hi_unused: Signal<Local, Bits<40>>,
    route_elig: Signal<Local, Bit>,
    idle: Signal<Local, Bit>,
    park: Signal<Local, Bit>,
    st_we: Signal<Local, Bit>,
    st_wd: Signal<Local, PacerSt>,
    // FIFO.
    f_push: Signal<Local, Bit>,
    f_pop: Signal<Local, Bit>,
    f_word: Signal<Local, Bits<FW>>,
    f_q_x: ZeroExt<QB, FW>,
    f_b_x: ZeroExt<BYTES_W, FW>,
    c_fshift: Constant<Bits<8>>,
    f_out_hi: Signal<Local, Bits<BYTES_W>>,
    /// The FIFO's head word; its second read port is not used.
    f_out: Signal<Local, Bits<FW>>,
    f_r1_unused: Signal<Local, Bits<FW>>,
    /// `PaceStep`'s gap (the pacer needs only `next'`).
    gap_unused: Signal<Local, Bits<GAP_W>>,
    discard: Signal<Local, Bit>,
    cnt_next: Signal<Local, Bits<5>>,
    owed_a: Signal<Local, Bits<5>>,
    owed_b: Signal<Local, Bits<5>>,
    owed_next: Signal<Local, Bits<5>>,
    post_sum: Signal<Local, Bits<SEQ_W>>,
    sweep_nx: Signal<Local, Bits<QB>>,
    /// The last stage of each delay line (and the side path's second to last), by name.
    sdl_v: Signal<Local, Bit>,
    sdl_ack: Signal<Local, Bit>,
    sdl_qp: Signal<Local, Bits<QB>>,
    sdl_seq: Signal<Local, Bits<SEQ_W>>,
    sdl_wen: Signal<Local, Bit>,
    sdl_win: Signal<Local, Bits<SEQ_W>>,
    pl_v: Signal<Local, Bit>,
    pl_wake: Signal<Local, Bit>,
    pl_qp: Signal<Local, Bits<QB>>,
    tl_grant: Signal<Local, Bit>,
    tl_sent: Signal<Local, Bits<SEQ_W>>,
    tl_next: Signal<Local, Bits<TIME_W>>,
    tl_due: Signal<Local, Bit>,
    tl_has: Signal<Local, Bit>,
    sdp_qp: Signal<Local, Bits<QB>>,
}

impl<
    const QB: usize,
    const WB: usize,
    const NW: usize,
    const LW: usize,
    const FW: usize,
    const N: usize,
> Default for Pacer<QB, WB, NW, LW, FW, N>
{
    fn default() -> Self {
        assert!(
            (6..=14).contains(&QB)
                && WB == QB - 5
                && NW == 1 << WB
                && LW == QB + 1
                && FW == QB + BYTES_W
                && N == 1 << QB,
            "Pacer<{QB}, {WB}, {NW}, {LW}, {FW}, {N}>: needs QB in 6..=14, WB = QB - 5, \
             NW = 2^WB, LW = QB + 1, FW = QB + 14, N = 2^QB"
        );
        Self {
            clock: Default::default(),
            reset: Default::default(),
            now: Default::default(),
            mtu_bytes: Default::default(),
            km: Default::default(),
            ke: Default::default(),
            s_post_valid: Default::default(),
            s_post_ready: Default::default(),
            s_post_qp: Default::default(),
            s_post_bytes: Default::default(),
            s_rate_valid: Default::default(),
            s_rate_ready: Default::default(),
            s_rate_qp: Default::default(),
            s_rate_rate: Default::default(),
            s_rate_win_en: Default::default(),
            s_rate_window: Default::default(),
            s_ack_valid: Default::default(),
            s_ack_ready: Default::default(),
            s_ack_qp: Default::default(),
            s_ack_seq: Default::default(),
            m_grant_valid: Default::default(),
            m_grant_ready: Default::default(),
            m_grant_qp: Default::default(),
            m_grant_bytes: Default::default(),
            busy: Default::default(),
            eligible: Default::default(),
            fine: Default::default(),
            coarse: Default::default(),
            cpb_u: Default::default(),
            step: Default::default(),
            st_ram: Default::default(),
            posted_a: Default::default(),
            posted_b: Default::default(),
            rate_ram: Default::default(),
            acked_a: Default::default(),
            acked_b: Default::default(),
            active: Default::default(),
            parked: Default::default(),
            poke: Default::default(),
            fifo: Default::default(),
            busy_r: Default::default(),
            act_cnt: Default::default(),
            park_cnt: Default::default(),
            sleep_sum: Default::default(),
            fine_first_unused: Default::default(),
            fine_first_valid_unused: Default::default(),
            fine_held_unused: Default::default(),
            asleep: Default::default(),
            wake_en: Default::default(),
            wake_at: Default::default(),
            one_lw: Constant::new(1.into()),
            backlogged: Default::default(),
            sweep: Default::default(),
            ack_turn: Default::default(),
            pa_v: Default::default(),
            pa_qp: Default::default(),
            pa_bytes: Default::default(),
            sd_v: dffs(SIDE_STAGES),
            sd_ack: dffs(SIDE_STAGES),
            sd_qp: dffs(SIDE_STAGES),
            sd_seq: dffs(SIDE_STAGES),
            sd_wen: dffs(SIDE_STAGES),
            sd_win: dffs(SIDE_STAGES),
            p_v: dffs(ROUTE_STAGE),
            p_wake: dffs(ROUTE_STAGE),
            p_qp: dffs(ROUTE_STAGE),
            s2_backlog: Default::default(),
            s2_infl: Default::default(),
            s2_ahead: Default::default(),
            s2_now: Default::default(),
            s2_next: Default::default(),
            s2_sent: Default::default(),
            s2_fresh: Default::default(),
            s2_cpb: Default::default(),
            s2_wen: Default::default(),
            s2_win: Default::default(),
            s3_next: Default::default(),
            s3_due: Default::default(),
            s3_has: Default::default(),
            s3_bytes: Default::default(),
            s3_infl: Default::default(),
            s3_sent: Default::default(),
            s3_wen: Default::default(),
            s3_win: Default::default(),
            s4_allowed: Default::default(),
            s4_sent_new: Default::default(),
            s4_sent: Default::default(),
            s4_next: Default::default(),
            s4_due: Default::default(),
            s4_has: Default::default(),
            t_grant: dffs(TAIL),
            t_sent: dffs(TAIL),
            t_next: dffs(TAIL),
            t_due: dffs(TAIL),
            t_has: dffs(TAIL),
            f_wr: Default::default(),
            f_rd: Default::default(),
            f_cnt: Default::default(),
            owed: Default::default(),
            c_one_q: Constant::new(1.into()),
            c_one4: Constant::new(1.into()),
            c_one5: Constant::new(1.into()),
            c_fifo: Constant::new((GRANT_FIFO as u64).into()),
            c_frac: Constant::new((crate::pacer::pace_step::FRAC_W as u64).into()),
            c_lead: Constant::new((LEAD as u64).into()),
            c_one_t: Constant::new(1.into()),
            c_last_slot: Constant::new(((SLOTS - 1) as u64).into()),
            c_cshift: Constant::new((COARSE_SHIFT as u64).into()),
            c_zero_s: Constant::new(0.into()),
            c_one: Constant::new(true),
            c_sweep_st: Constant::new(PacerSt {
                fresh: true,
                ..Default::default()
            }),
            c_sweep_rate: Constant::new(PacerRateWord::default()),
            wake: Default::default(),
            grant_issue: Default::default(),
            op_v: Default::default(),
            op_qp: Default::default(),
            post_take: Default::default(),
            post_touch: Default::default(),
            start: Default::default(),
            rate_take: Default::default(),
            ack_take: Default::default(),
            sd_d: Default::default(),
            sd_d_low_unused: Default::default(),
            ack_ok: Default::default(),
            side_touch: Default::default(),
            unpark: Default::default(),
            rate_wd: Default::default(),
            now_x: Default::default(),
            now_q16: Default::default(),
            n2_x: Default::default(),
            n2_q16: Default::default(),
            stale: Default::default(),
            ahead_hi: Default::default(),
            ahead_cyc: Default::default(),
            ahead_frac_unused: Default::default(),
            ahead_mid_unused: Default::default(),
            next_eff: Default::default(),
            mtu_x: Default::default(),
            infl_x: Default::default(),
            bytes_x33: Default::default(),
            win_x: Default::default(),
            bytes_x32: Default::default(),
            poked: Default::default(),
            granted: Default::default(),
            is_grant: Default::default(),
            empty: Default::default(),
            route_en: Default::default(),
            route_t: Default::default(),
            route_d: Default::default(),
            route_frac_unused: Default::default(),
            w: Default::default(),
            w_now: Default::default(),
            w_now_low_unused: Default::default(),
            elig_now: Default::default(),
            w_fine: Default::default(),
            w_fine_low_unused: Default::default(),
            fine_ok: Default::default(),
            cn: Default::default(),
            cd: Default::default(),
            cd_cn: Default::default(),
            cd_cn_low_unused: Default::default(),
            c_try: Default::default(),
            c_far: Default::default(),
            c_far_low_unused: Default::default(),
            c_slot: Default::default(),
            c_slot_hi_unused: Default::default(),
            w_hi_unused: Default::default(),
            route_elig: Default::default(),
            idle: Default::default(),
            park: Default::default(),
            st_we: Default::default(),
            st_wd: Default::default(),
            f_push: Default::default(),
            f_pop: Default::default(),
            f_word: Default::default(),
            f_q_x: Default::default(),
            f_b_x: Default::default(),
            c_fshift: Constant::new((QB as u64).into()),
            f_out_hi: Default::default(),
            f_out: Default::default(),
            f_r1_unused: Default::default(),
            gap_unused: Default::default(),
            discard: Default::default(),
            cnt_next: Default::default(),
            owed_a: Default::default(),
            owed_b: Default::default(),
            owed_next: Default::default(),
            post_sum: Default::default(),
            sweep_nx: Default::default(),
            sdl_v: Default::default(),
            sdl_ack: Default::default(),
            sdl_qp: Default::default(),
            sdl_seq: Default::default(),
            sdl_wen: Default::default(),
            sdl_win: Default::default(),
            pl_v: Default::default(),
            pl_wake: Default::default(),
            pl_qp: Default::default(),
            tl_grant: Default::default(),
            tl_sent: Default::default(),
            tl_next: Default::default(),
            tl_due: Default::default(),
            tl_has: Default::default(),
            sdp_qp: Default::default(),
        }
    }
}

impl<
    const QB: usize,
    const WB: usize,
    const NW: usize,
    const LW: usize,
    const FW: usize,
    const N: usize,
> Logic for Pacer<QB, WB, NW, LW, FW, N>
{
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            busy_r,
            act_cnt,
            park_cnt,
            sweep,
            ack_turn,
            pa_v,
            pa_qp,
            pa_bytes,
            s2_backlog,
            s2_infl,
            s2_ahead,
            s2_now,
            s2_next,
            s2_sent,
            s2_fresh,
            s2_cpb,
            s2_wen,
            s2_win,
            s3_next,
            s3_due,
            s3_has,
            s3_bytes,
            s3_infl,
            s3_sent,
            s3_wen,
            s3_win,
            s4_allowed,
            s4_sent_new,
            s4_sent,
            s4_next,
            s4_due,
            s4_has,
            f_wr,
            f_rd,
            f_cnt,
            owed
        );
        for k in 0..SIDE_STAGES {
            self.sd_v[k].clock.next = self.clock.val();
            self.sd_ack[k].clock.next = self.clock.val();
            self.sd_qp[k].clock.next = self.clock.val();
            self.sd_seq[k].clock.next = self.clock.val();
            self.sd_wen[k].clock.next = self.clock.val();
            self.sd_win[k].clock.next = self.clock.val();
        }
        for k in 0..ROUTE_STAGE {
            self.p_v[k].clock.next = self.clock.val();
            self.p_wake[k].clock.next = self.clock.val();
            self.p_qp[k].clock.next = self.clock.val();
        }
        for k in 0..TAIL {
            self.t_grant[k].clock.next = self.clock.val();
            self.t_sent[k].clock.next = self.clock.val();
            self.t_next[k].clock.next = self.clock.val();
            self.t_due[k].clock.next = self.clock.val();
            self.t_has[k].clock.next = self.clock.val();
        }
        clock!(
            self, clock, eligible, fine, coarse, cpb_u, step, st_ram, posted_a, posted_b, rate_ram,
            acked_a, acked_b, active, parked, poke, fifo
        );
        self.eligible.reset.next = self.reset.val();
        self.fine.reset.next = self.reset.val();
        self.coarse.reset.next = self.reset.val();
        self.active.reset.next = self.reset.val();
        self.parked.reset.next = self.reset.val();
        self.poke.reset.next = self.reset.val();
        self.busy.next = self.busy_r.q.val();
        self.backlogged.next = self.act_cnt.q.val();
        self.sleep_sum.next = self.coarse.held.val() + self.park_cnt.q.val();
        self.fine_first_unused.next = self.fine.first.val();
        self.fine_first_valid_unused.next = self.fine.first_valid.val();
        self.fine_held_unused.next = self.fine.held.val();
        self.wake_en.next = self.coarse.held.val().any();
        self.wake_at.next = self.coarse.first.val() << self.c_cshift.val();
        self.asleep.next = (self.act_cnt.q.val() == self.sleep_sum.val())
            & !self.coarse.m_valid.val()
            & (!self.coarse.held.val().any() | self.coarse.first_valid.val())
            & !self.owed.q.val().any()
            & !self.busy_r.q.val();
        // The last stages by name (an index in `hdl_gen` must be a loop variable).
        for k in (SIDE_STAGES - 1)..SIDE_STAGES {
            self.sdl_v.next = self.sd_v[k].q.val();
            self.sdl_ack.next = self.sd_ack[k].q.val();
            self.sdl_qp.next = self.sd_qp[k].q.val();
            self.sdl_seq.next = self.sd_seq[k].q.val();
            self.sdl_wen.next = self.sd_wen[k].q.val();
            self.sdl_win.next = self.sd_win[k].q.val();
        }
        for k in (SIDE_STAGES - 2)..(SIDE_STAGES - 1) {
            self.sdp_qp.next = self.sd_qp[k].q.val();
        }
        for k in (ROUTE_STAGE - 1)..ROUTE_STAGE {
            self.pl_v.next = self.p_v[k].q.val();
            self.pl_wake.next = self.p_wake[k].q.val();
            self.pl_qp.next = self.p_qp[k].q.val();
        }
        for k in (TAIL - 1)..TAIL {
            self.tl_grant.next = self.t_grant[k].q.val();
            self.tl_sent.next = self.t_sent[k].q.val();
            self.tl_next.next = self.t_next[k].q.val();
            self.tl_due.next = self.t_due[k].q.val();
            self.tl_has.next = self.t_has[k].q.val();
        }

        // ---- Issue (c0): the coarse wheel's wake first, else the eligible pick.
        self.wake.next = self.coarse.m_valid.val();
        self.grant_issue.next = !self.busy_r.q.val()
            & !self.wake.val()
            & self.eligible.m_valid.val()
            & (self.owed.q.val() < self.c_fifo.val());
        self.eligible.m_ready.next = self.grant_issue.val();
        self.op_v.next = self.wake.val() | self.grant_issue.val();
        self.op_qp.next = self.eligible.m_qp.val();
        if self.wake.val() {
            self.op_qp.next = self.coarse.m_qp.val();
        }
        self.st_ram.read_address.next = self.op_qp.val();
        self.posted_b.read_address.next = self.op_qp.val();
        self.rate_ram.read_address.next = self.op_qp.val();
        self.acked_b.read_address.next = self.op_qp.val();
        self.poke.clr_valid.next = self.op_v.val();
        self.poke.clr_qp.next = self.op_qp.val();
        self.p_v[0].d.next = self.op_v.val() & !self.reset.val();
        self.p_wake[0].d.next = self.wake.val();
        self.p_qp[0].d.next = self.op_qp.val();
        for k in 1..ROUTE_STAGE {
            self.p_v[k].d.next = self.p_v[k - 1].q.val() & !self.reset.val();
            self.p_wake[k].d.next = self.p_wake[k - 1].q.val();
            self.p_qp[k].d.next = self.p_qp[k - 1].q.val();
        }

        // ---- Doorbell: read at the acceptance, add and write in the next cycle.
        self.s_post_ready.next = !self.busy_r.q.val();
        self.post_take.next = self.s_post_valid.val() & !self.busy_r.q.val();
        self.posted_a.read_address.next = self.s_post_qp.val();
        self.pa_v.d.next = self.post_take.val() & !self.reset.val();
        self.pa_qp.d.next = self.s_post_qp.val();
        self.pa_bytes.d.next = self.s_post_bytes.val();
        self.active.rd_qp.next = self.pa_qp.q.val();
        self.post_touch.next = self.pa_v.q.val() & self.pa_bytes.q.val().any();
        self.start.next = self.post_touch.val() & !self.active.rd.val();
        self.active.set0_valid.next = self.start.val();
        self.active.set0_qp.next = self.pa_qp.q.val();
        self.poke.set0_valid.next = self.post_touch.val() & !self.start.val();
        self.poke.set0_qp.next = self.pa_qp.q.val();
        self.posted_a.write_address.next = self.pa_qp.q.val();
        self.post_sum.next = self.posted_a.read_data.val() + self.pa_bytes.q.val();
        self.posted_a.write_data.next = self.post_sum.val();
        self.posted_a.write_enable.next = self.pa_v.q.val();

        // ---- Side path: rate reports and ACKs, one a cycle, turn about when both wait.
        self.s_rate_ready.next =
            !self.busy_r.q.val() & !(self.s_ack_valid.val() & self.ack_turn.q.val());
        self.s_ack_ready.next =
            !self.busy_r.q.val() & !(self.s_rate_valid.val() & !self.ack_turn.q.val());
        self.rate_take.next = self.s_rate_valid.val() & self.s_rate_ready.val();
        self.ack_take.next =
            self.s_ack_valid.val() & self.s_ack_ready.val() & !self.rate_take.val();
        if self.s_rate_valid.val() & self.s_ack_valid.val() & !self.busy_r.q.val() {
            self.ack_turn.d.next = !self.ack_turn.q.val();
        }
        self.cpb_u.rate.next = self.s_rate_rate.val();
        self.cpb_u.km.next = self.km.val();
        self.cpb_u.ke.next = self.ke.val();
        self.sd_v[0].d.next = (self.rate_take.val() | self.ack_take.val()) & !self.reset.val();
        self.sd_ack[0].d.next = !self.rate_take.val();
        self.sd_qp[0].d.next = self.s_ack_qp.val();
        if self.rate_take.val() {
            self.sd_qp[0].d.next = self.s_rate_qp.val();
        }
        self.sd_seq[0].d.next = self.s_ack_seq.val();
        self.sd_wen[0].d.next = self.s_rate_win_en.val();
        self.sd_win[0].d.next = self.s_rate_window.val();
        for k in 1..SIDE_STAGES {
            self.sd_v[k].d.next = self.sd_v[k - 1].q.val() & !self.reset.val();
            self.sd_ack[k].d.next = self.sd_ack[k - 1].q.val();
            self.sd_qp[k].d.next = self.sd_qp[k - 1].q.val();
            self.sd_seq[k].d.next = self.sd_seq[k - 1].q.val();
            self.sd_wen[k].d.next = self.sd_wen[k - 1].q.val();
            self.sd_win[k].d.next = self.sd_win[k - 1].q.val();
        }
        // The ACK's read of `acked` one cycle before its write cycle.
        self.acked_a.read_address.next = self.sdp_qp.val();
        // Write cycle (s + 8).
        self.sd_d.next = self.sdl_seq.val() - self.acked_a.read_data.val();
        self.sd_d_low_unused.next = self.sd_d.val().get_bits::<31>(0);
        self.ack_ok.next = self.sd_d.val().any() & !self.sd_d.val().get_bit(31);
        self.side_touch.next = self.sdl_v.val() & (!self.sdl_ack.val() | self.ack_ok.val());
        self.parked.rd_qp.next = self.sdl_qp.val();
        self.unpark.next = self.side_touch.val() & self.parked.rd.val();
        self.parked.clr_valid.next = self.unpark.val();
        self.parked.clr_qp.next = self.sdl_qp.val();
        self.poke.set1_valid.next = self.side_touch.val() & !self.unpark.val();
        self.poke.set1_qp.next = self.sdl_qp.val();
        self.rate_wd.next.m = self.cpb_u.cpb.val().m;
        self.rate_wd.next.e = self.cpb_u.cpb.val().e;
        self.rate_wd.next.win_en = self.sdl_wen.val();
        self.rate_wd.next.window = self.sdl_win.val();
        self.rate_ram.write_address.next = self.sdl_qp.val();
        self.rate_ram.write_data.next = self.rate_wd.val();
        self.rate_ram.write_enable.next = self.sdl_v.val() & !self.sdl_ack.val();
        self.acked_a.write_address.next = self.sdl_qp.val();
        self.acked_a.write_data.next = self.sdl_seq.val();
        self.acked_a.write_enable.next = self.sdl_v.val() & self.sdl_ack.val() & self.ack_ok.val();

        // ---- c1: the QP's memories as read at the issue.
        self.now_x.i.next = self.now.val();
        self.now_q16.next = self.now_x.o.val() << self.c_frac.val();
        self.s2_backlog.d.next = self.posted_b.read_data.val() - self.st_ram.read_data.val().sent;
        self.s2_infl.d.next = self.st_ram.read_data.val().sent - self.acked_b.read_data.val();
        self.s2_ahead.d.next = self.st_ram.read_data.val().next_t - self.now_q16.val();
        self.s2_now.d.next = self.now.val();
        self.s2_next.d.next = self.st_ram.read_data.val().next_t;
        self.s2_sent.d.next = self.st_ram.read_data.val().sent;
        self.s2_fresh.d.next = self.st_ram.read_data.val().fresh;
        self.s2_cpb.d.next.m = self.rate_ram.read_data.val().m;
        self.s2_cpb.d.next.e = self.rate_ram.read_data.val().e;
        self.s2_wen.d.next = self.rate_ram.read_data.val().win_en;
        self.s2_win.d.next = self.rate_ram.read_data.val().window;

        // ---- c2: a fresh QP's start, the packet, PaceStep's inputs.
        self.n2_x.i.next = self.s2_now.q.val();
        self.n2_q16.next = self.n2_x.o.val() << self.c_frac.val();
        self.ahead_hi.next = self.s2_ahead.q.val().get_bits::<21>(43);
        self.ahead_cyc.next = self.s2_ahead.q.val().get_bits::<48>(16);
        self.ahead_frac_unused.next = self.s2_ahead.q.val().get_bits::<16>(0);
        self.ahead_mid_unused.next = self.s2_ahead.q.val().get_bits::<27>(16);
        self.stale.next = !self.s2_ahead.q.val().any() | self.ahead_hi.val().any();
        self.next_eff.next = self.s2_next.q.val();
        if self.s2_fresh.q.val() & self.stale.val() {
            self.next_eff.next = self.n2_q16.val();
        }
        self.s3_next.d.next = self.next_eff.val();
        self.s3_due.d.next =
            !self.s2_fresh.q.val() | self.stale.val() | !self.ahead_cyc.val().any();
        self.s3_has.d.next = self.s2_backlog.q.val().any();
        self.mtu_x.i.next = self.mtu_bytes.val();
        self.s3_bytes.d.next = self.mtu_bytes.val();
        if self.s2_backlog.q.val() < self.mtu_x.o.val() {
            self.s3_bytes.d.next = self.s2_backlog.q.val().get_bits::<BYTES_W>(0);
        }
        self.s3_infl.d.next = self.s2_infl.q.val();
        if self.s2_infl.q.val().get_bit(31) {
            self.s3_infl.d.next = self.c_zero_s.val();
        }
        self.s3_sent.d.next = self.s2_sent.q.val();
        self.s3_wen.d.next = self.s2_wen.q.val();
        self.s3_win.d.next = self.s2_win.q.val();
        self.step.now.next = self.s2_now.q.val();
        self.step.next_in.next = self.next_eff.val();
        self.step.backlog.next = self.s2_backlog.q.val();
        self.step.cpb.next = self.s2_cpb.q.val();
        self.step.mtu_bytes.next = self.mtu_bytes.val();

        // ---- c3: the window; the bytes sent after a grant.
        self.infl_x.i.next = self.s3_infl.q.val();
        self.bytes_x33.i.next = self.s3_bytes.q.val();
        self.win_x.i.next = self.s3_win.q.val();
        self.s4_allowed.d.next = !self.s3_wen.q.val()
            | !self.s3_infl.q.val().any()
            | ((self.infl_x.o.val() + self.bytes_x33.o.val()) <= self.win_x.o.val());
        self.bytes_x32.i.next = self.s3_bytes.q.val();
        self.s4_sent_new.d.next = self.s3_sent.q.val() + self.bytes_x32.o.val();
        self.s4_sent.d.next = self.s3_sent.q.val();
        self.s4_next.d.next = self.s3_next.q.val();
        self.s4_due.d.next = self.s3_due.q.val();
        self.s4_has.d.next = self.s3_has.q.val();

        // ---- c4: the grant's decision; then carried to the route stage.
        self.t_grant[0].d.next =
            self.s4_has.q.val() & self.s4_due.q.val() & self.s4_allowed.q.val();
        self.t_sent[0].d.next = self.s4_sent.q.val();
        if self.s4_has.q.val() & self.s4_due.q.val() & self.s4_allowed.q.val() {
            self.t_sent[0].d.next = self.s4_sent_new.q.val();
        }
        self.t_next[0].d.next = self.s4_next.q.val();
        self.t_due[0].d.next = self.s4_due.q.val();
        self.t_has[0].d.next = self.s4_has.q.val();
        for k in 1..TAIL {
            self.t_grant[k].d.next = self.t_grant[k - 1].q.val();
            self.t_sent[k].d.next = self.t_sent[k - 1].q.val();
            self.t_next[k].d.next = self.t_next[k - 1].q.val();
            self.t_due[k].d.next = self.t_due[k - 1].q.val();
            self.t_has[k].d.next = self.t_has[k - 1].q.val();
        }

        // ---- c8: route.
        self.poke.rd_qp.next = self.pl_qp.val();
        self.poked.next = self.poke.rd.val()
            | (self.post_touch.val() & (self.pa_qp.q.val() == self.pl_qp.val()))
            | (self.side_touch.val() & (self.sdl_qp.val() == self.pl_qp.val()));
        self.is_grant.next = self.pl_v.val() & !self.pl_wake.val();
        self.granted.next = self.is_grant.val() & self.tl_grant.val();
        self.empty.next = !self.step.backlog_out.val().any() & !self.poked.val();
        // Where the QP goes: by its new `next` after a grant, else by `next` as it was.
        self.route_t.next = self.tl_next.val();
        if self.granted.val() {
            self.route_t.next = self.step.next_out.val();
        }
        self.route_en.next = (self.pl_v.val() & self.pl_wake.val())
            | (self.granted.val() & !self.empty.val())
            | (self.is_grant.val() & !self.tl_grant.val() & self.tl_has.val() & !self.tl_due.val());
        self.route_d.next = self.route_t.val().get_bits::<NOW_W>(16);
        self.route_frac_unused.next = self.route_t.val().get_bits::<16>(0);
        self.w.next = self.route_d.val() - self.c_lead.val();
        self.w_now.next = self.now.val() - self.w.val();
        self.w_now_low_unused.next = self.w_now.val().get_bits::<47>(0);
        self.elig_now.next = !self.w_now.val().get_bit(47);
        self.w_fine.next = self.w.val() - self.fine.cur.val();
        self.w_fine_low_unused.next = self.w_fine.val().get_bits::<8>(0);
        self.fine_ok.next = !self.w_fine.val().get_bits::<40>(8).any();
        self.cn.next = self.now.val() >> self.c_cshift.val();
        self.cd.next = (self.w.val() >> self.c_cshift.val()) - self.c_one_t.val();
        self.cd_cn.next = self.cn.val() - self.cd.val();
        self.cd_cn_low_unused.next = self.cd_cn.val().get_bits::<47>(0);
        self.c_try.next = self.cd.val();
        if !self.cd_cn.val().get_bit(47) {
            self.c_try.next = self.cn.val() + self.c_one_t.val();
        }
        self.c_far.next = self.c_try.val() - self.coarse.cur.val();
        self.c_far_low_unused.next = self.c_far.val().get_bits::<8>(0);
        self.c_slot.next = self.c_try.val();
        if self.c_far.val().get_bits::<40>(8).any() {
            self.c_slot.next = self.coarse.cur.val() + self.c_last_slot.val();
        }
        self.c_slot_hi_unused.next = self.c_slot.val().get_bits::<40>(8);
        self.w_hi_unused.next = self.w.val().get_bits::<40>(8);
        self.fine.now.next = self.now.val();
        self.fine.push_valid.next = self.route_en.val() & !self.elig_now.val() & self.fine_ok.val();
        self.fine.push_qp.next = self.pl_qp.val();
        self.fine.push_slot.next = self.w.val().get_bits::<FINE_SB>(0);
        self.coarse.now.next = self.cn.val();
        self.coarse.push_valid.next =
            self.route_en.val() & !self.elig_now.val() & !self.fine_ok.val();
        self.coarse.push_qp.next = self.pl_qp.val();
        self.coarse.push_slot.next = self.c_slot.val().get_bits::<COARSE_SB>(0);
        // Not granted: no bytes (idle, or back to the set when poked); a window full
        // (parked, or back to the set when poked).
        self.route_elig.next = (self.route_en.val() & self.elig_now.val())
            | (self.is_grant.val()
                & !self.tl_grant.val()
                & (!self.tl_has.val() | self.tl_due.val())
                & self.poked.val());
        self.idle.next = (self.granted.val() & self.empty.val())
            | (self.is_grant.val() & !self.tl_has.val() & !self.poked.val());
        self.park.next = self.is_grant.val()
            & !self.tl_grant.val()
            & self.tl_has.val()
            & self.tl_due.val()
            & !self.poked.val();
        self.active.clr_valid.next = self.idle.val();
        self.active.clr_qp.next = self.pl_qp.val();
        self.parked.set0_valid.next = self.park.val();
        self.parked.set0_qp.next = self.pl_qp.val();
        self.parked.set1_valid.next = false;
        self.parked.set1_qp.next = self.pl_qp.val();
        self.active.set1_valid.next = false;
        self.active.set1_qp.next = self.pl_qp.val();
        // The QP's schedule: after a grant, `next'` and `sent + bytes`; a QP made idle is
        // fresh; a QP not granted keeps `next` as it was used (a fresh start's `now`).
        self.st_we.next = self.granted.val()
            | (self.is_grant.val() & !self.tl_grant.val() & !self.poked.val())
            | (self.is_grant.val() & !self.tl_grant.val() & self.tl_has.val());
        self.st_wd.next.next_t = self.tl_next.val();
        if self.granted.val() {
            self.st_wd.next.next_t = self.step.next_out.val();
        }
        self.st_wd.next.sent = self.tl_sent.val();
        self.st_wd.next.fresh = self.idle.val();

        // ---- Eligible set: fine wheel's release, route, doorbell start, unpark.
        self.eligible.set0_valid.next = self.fine.m_valid.val();
        self.eligible.set0_qp.next = self.fine.m_qp.val();
        self.eligible.set1_valid.next = self.route_elig.val();
        self.eligible.set1_qp.next = self.pl_qp.val();
        self.eligible.set2_valid.next = self.start.val();
        self.eligible.set2_qp.next = self.pa_qp.q.val();
        self.eligible.set3_valid.next = self.unpark.val();
        self.eligible.set3_qp.next = self.sdl_qp.val();

        // ---- Grant FIFO.
        self.f_push.next = self.granted.val();
        self.f_pop.next = self.f_cnt.q.val().any() & self.m_grant_ready.val();
        self.f_q_x.i.next = self.pl_qp.val();
        self.f_b_x.i.next = self.step.bytes_out.val();
        self.f_word.next = self.f_q_x.o.val() | (self.f_b_x.o.val() << self.c_fshift.val());
        self.fifo.we.next = self.f_push.val();
        self.fifo.waddr.next = self.f_wr.q.val();
        self.fifo.wdata.next = self.f_word.val();
        self.fifo.raddr0.next = self.f_rd.q.val();
        self.fifo.raddr1.next = self.f_rd.q.val();
        self.m_grant_valid.next = self.f_cnt.q.val().any();
        self.f_out.next = self.fifo.rdata0.val();
        self.f_r1_unused.next = self.fifo.rdata1.val();
        self.gap_unused.next = self.step.gap_out.val();
        self.m_grant_qp.next = self.f_out.val().get_bits::<QB>(0);
        for j in QB..(QB + 1) {
            self.f_out_hi.next = self.f_out.val().get_bits::<BYTES_W>(j);
        }
        self.m_grant_bytes.next = self.f_out_hi.val();
        if self.f_push.val() {
            self.f_wr.d.next = self.f_wr.q.val() + self.c_one4.val();
        }
        if self.f_pop.val() {
            self.f_rd.d.next = self.f_rd.q.val() + self.c_one4.val();
        }
        self.discard.next = self.is_grant.val() & !self.tl_grant.val();
        self.cnt_next.next = self.f_cnt.q.val();
        if self.f_push.val() & !self.f_pop.val() {
            self.cnt_next.next = self.f_cnt.q.val() + self.c_one5.val();
        }
        if !self.f_push.val() & self.f_pop.val() {
            self.cnt_next.next = self.f_cnt.q.val() - self.c_one5.val();
        }
        self.f_cnt.d.next = self.cnt_next.val();
        // Grants owed: issued, and neither popped nor discarded.
        self.owed_a.next = self.owed.q.val();
        if self.grant_issue.val() {
            self.owed_a.next = self.owed.q.val() + self.c_one5.val();
        }
        self.owed_b.next = self.owed_a.val();
        if self.f_pop.val() {
            self.owed_b.next = self.owed_a.val() - self.c_one5.val();
        }
        self.owed_next.next = self.owed_b.val();
        if self.discard.val() {
            self.owed_next.next = self.owed_b.val() - self.c_one5.val();
        }
        self.owed.d.next = self.owed_next.val();

        // ---- Memories' writes: the paths', or the sweep's.
        self.sweep_nx.next = self.sweep.q.val() + self.c_one_q.val();
        self.st_ram.write_address.next = self.pl_qp.val();
        self.st_ram.write_data.next = self.st_wd.val();
        self.st_ram.write_enable.next = self.st_we.val();
        self.posted_b.write_address.next = self.pa_qp.q.val();
        self.posted_b.write_data.next = self.post_sum.val();
        self.posted_b.write_enable.next = self.pa_v.q.val();
        self.acked_b.write_address.next = self.sdl_qp.val();
        self.acked_b.write_data.next = self.sdl_seq.val();
        self.acked_b.write_enable.next = self.acked_a.write_enable.val();
        if self.busy_r.q.val() {
            self.st_ram.write_address.next = self.sweep.q.val();
            self.st_ram.write_data.next = self.c_sweep_st.val();
            self.st_ram.write_enable.next = self.c_one.val();
            self.posted_a.write_address.next = self.sweep.q.val();
            self.posted_a.write_data.next = self.c_zero_s.val();
            self.posted_a.write_enable.next = self.c_one.val();
            self.posted_b.write_address.next = self.sweep.q.val();
            self.posted_b.write_data.next = self.c_zero_s.val();
            self.posted_b.write_enable.next = self.c_one.val();
            self.rate_ram.write_address.next = self.sweep.q.val();
            self.rate_ram.write_data.next = self.c_sweep_rate.val();
            self.rate_ram.write_enable.next = self.c_one.val();
            self.acked_a.write_address.next = self.sweep.q.val();
            self.acked_a.write_data.next = self.c_zero_s.val();
            self.acked_a.write_enable.next = self.c_one.val();
            self.acked_b.write_address.next = self.sweep.q.val();
            self.acked_b.write_data.next = self.c_zero_s.val();
            self.acked_b.write_enable.next = self.c_one.val();
            self.sweep.d.next = self.sweep_nx.val();
            if !self.sweep_nx.val().any() {
                self.busy_r.d.next = false;
            }
        }

        // ---- QPs with bytes: a start sets `active`, an idle clears it (never one QP in
        // one cycle: a start needs the bit clear, an idle comes from the pipeline).
        if self.start.val() & !self.idle.val() {
            self.act_cnt.d.next = self.act_cnt.q.val() + self.one_lw.val();
        }
        if !self.start.val() & self.idle.val() {
            self.act_cnt.d.next = self.act_cnt.q.val() - self.one_lw.val();
        }

        // ---- Parked QPs: the route parks, a rate report or an ACK unparks (never one QP
        // in one cycle: an unpark needs the bit set, a park comes from the pipeline).
        if self.park.val() & !self.unpark.val() {
            self.park_cnt.d.next = self.park_cnt.q.val() + self.one_lw.val();
        }
        if !self.park.val() & self.unpark.val() {
            self.park_cnt.d.next = self.park_cnt.q.val() - self.one_lw.val();
        }

        // ---- Reset: empty the paths, start the sweep.
        if self.reset.val() {
            self.act_cnt.d.next = 0.into();
            self.park_cnt.d.next = 0.into();
            self.busy_r.d.next = true;
            self.sweep.d.next = 0.into();
            self.ack_turn.d.next = false;
            self.f_wr.d.next = 0.into();
            self.f_rd.d.next = 0.into();
            self.f_cnt.d.next = 0.into();
            self.owed.d.next = 0.into();
        }
    }
}

/// `n` flip-flops (a delay line's stages).
fn dffs<T: Synth>(n: usize) -> Vec<DFF<T>> {
    (0..n).map(|_| Default::default()).collect()
}

/// The pacer of 1024 QPs (the default QP count).
pub type Pacer1024 = Pacer<10, 5, 32, 11, 24, 1024>;
/// The pacer of 4096 QPs.
pub type Pacer4096 = Pacer<12, 7, 128, 13, 26, 4096>;
/// The pacer of 64 QPs (tests).
pub type Pacer64 = Pacer<6, 1, 2, 7, 20, 64>;

#[cfg(test)]
mod tests {
    use super::*;

    /// One cycle of the rust-hdl model; returns the grant taken in it.
    fn tick(p: &mut Pacer64, now: u64, post: Option<(u64, u64)>) -> Option<(u64, u64)> {
        p.now.next = now.into();
        p.s_post_valid.next = post.is_some();
        p.s_post_qp.next = post.map_or(0, |x| x.0).into();
        p.s_post_bytes.next = post.map_or(0, |x| x.1).into();
        p.m_grant_ready.next = true;
        p.clock.next = Clock { clk: false };
        assert!(simulate(p, 200));
        let g = p
            .m_grant_valid
            .val()
            .then(|| (p.m_grant_qp.val().to_u64(), p.m_grant_bytes.val().to_u64()));
        p.clock.next = Clock { clk: true };
        assert!(simulate(p, 200));
        p.reset.next = false;
        g
    }

    /// After the sweep, a doorbell of 2500 bytes to an unpaced QP leaves as packets of
    /// 1000, 1000 and 500 bytes.
    #[test]
    fn a_post_leaves_as_packets_of_the_mtu() {
        let mut p = Pacer64::default();
        p.connect_all();
        p.mtu_bytes.next = 1000.into();
        let (km, ke) = crate::pacer::cpb::clock_consts(250);
        p.km.next = (km as u64).into();
        p.ke.next = (ke as u64).into();
        p.reset.next = true;
        let mut now = 0;
        tick(&mut p, now, None);
        while p.busy.val() {
            now += 1;
            tick(&mut p, now, None);
        }
        let mut got = Vec::new();
        for k in 0..60 {
            now += 1;
            let post = (k == 0).then_some((9, 2500));
            got.extend(tick(&mut p, now, post));
        }
        assert_eq!(got, vec![(9, 1000), (9, 1000), (9, 500)]);
    }
}
