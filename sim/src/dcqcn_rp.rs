//! Golden model of the DCQCN reaction point (RP): the bit-accurate statement of what the
//! `dcqcn_rp` hardware computes.
//!
//! The behaviour is dcqcn.md's "RP behaviour"; this file fixes the widths, the rounding and
//! the way timer expiries are applied, and the RTL equals it bit for bit on every output.
//! The design is described in `docs/dcqcn_rp.md`; the short version:
//!
//! * **Lazy timers, closed form.** Nothing runs for a QP between two of its events. When an
//!   event touches a QP, every timer expiry since the previous touch is applied at once, in
//!   the order dcqcn.md prescribes, by closed formulas: the number of expiries of a timer is
//!   a subtraction in the timer's own radix ([`crate::timebase`]); `k` increase events are
//!   at most three runs (fast recovery, additive, hyper) each applied in closed form
//!   ([`run`]); `n` alpha updates are one multiply by `c^(n-1)` read from a power table
//!   ([`RpConfig::pow_c`]). The only expiry that needs its own time is the one decrease
//!   check that cuts (the first after a CNP); its time is kept, in the radices of the alpha
//!   and increase timers, in the QP's state ([`QpState::tda`], [`QpState::tdi`]).
//! * **Queries do not write.** A rate query applies the catch-up to a copy and reports it,
//!   so sampling a QP never changes what it does later.
//!
//! Formats: rates are Mb/s in Q.8 (28 bits, resolution 1/256 Mb/s); alpha is Q.20
//! (`1 << 20` = 1.0); the power table is Q.24. All divisions by powers of two floor.

use crate::replay::RpReport;
use crate::timebase::{Radix, TimeStamp, Timebase};
use roce_cc_params::Params;
use roce_cc_regmap::QpMode;

/// Fractional bits of a rate (Mb/s).
pub const RATE_FRAC: u32 = 8;
/// Fractional bits of alpha.
pub const ALPHA_FRAC: u32 = 20;
/// Fractional bits of the entries of the power table `c^k`.
pub const POW_FRAC: u32 = 24;
/// Entries of each half of the power table (`c^j` and `c^(128 j)`, `j < 128`).
pub const POW_TABLE: usize = 128;
/// `c^k` is taken as 0 for `k >= POW_LIMIT` (below 2^-21 even for g = 1/1024).
pub const POW_LIMIT: u64 = (POW_TABLE * POW_TABLE) as u64;
/// Saturation value of the stage counters T and BC (6 bits).
pub const STAGE_MAX: u32 = 63;
/// Expiry counts saturate here (21 bits): more increase events than this always release.
pub const COUNT_MAX: u64 = (1 << 21) - 1;
/// Shift of the reciprocals used for the bounded divisions (numerators < 2^18).
pub const RECIP_SHIFT: u32 = 18;
/// Shift of the reciprocals of the rate steps (`floor(2^28 / step)`, dividends < 2^28),
/// used by the increase-event counters ([`div_step`]).
pub const STEP_RECIP_SHIFT: u32 = 28;

/// The parameters in the form the hardware uses them, derived from [`Params`] once (the
/// hardware's configuration stage computes the same values after reset).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RpConfig {
    /// Alpha timer period, us.
    pub p_alpha: u32,
    /// Decrease-check period, us.
    pub p_dec: u32,
    /// Increase timer period, us.
    pub p_inc: u32,
    /// `floor(2^18 / p_alpha)`.
    pub recip_alpha: u32,
    /// `floor(2^18 / p_inc)`.
    pub recip_inc: u32,
    /// `floor(2^28 / ai_rate)` (`ai_rate` in Q.8, so `floor(2^20 / rpg_ai_rate)`).
    pub recip_ai: u32,
    /// `floor(2^28 / hai_rate)`.
    pub recip_hai: u32,
    /// Max rate, Mb/s Q.8.
    pub max_rate: u32,
    /// Additive step, Mb/s Q.8.
    pub ai_rate: u32,
    /// Hyper step, Mb/s Q.8.
    pub hai_rate: u32,
    /// Rc floor, Mb/s Q.8.
    pub min_rate: u32,
    /// Rc and Rt on a first CNP, Mb/s Q.8.
    pub first_rate: u32,
    /// Alpha on a first CNP, Q.20.
    pub alpha_init: u32,
    /// `dce_tcp_g` (1..=1024).
    pub g: u32,
    /// `rpg_gd + 10`: the right shift of `Rc * alpha_q20` that gives the alpha cut.
    pub cut_shift: u32,
    /// `floor((100 - rpg_min_dec_fac) * 2^16 / 100)`: the largest cut as a Q.16 fraction.
    pub max_cut_q16: u32,
    /// `rpg_threshold`.
    pub threshold: u32,
    /// `rpg_byte_reset` (0 = byte counter off).
    pub byte_reset: u32,
    pub clamp_tgt_rate: bool,
    pub clamp_tgt_rate_after_time_inc: bool,
    /// `c^j`, Q.24, `c = (1024 - g) / 1024`.
    pub pow_lo: [u32; POW_TABLE],
    /// `c^(128 j)`, Q.24.
    pub pow_hi: [u32; POW_TABLE],
}

impl RpConfig {
    pub fn new(p: &Params) -> Self {
        let max_rate = p.max_rate_mbps() << RATE_FRAC;
        let first_rate = if p.rate_to_set_on_first_cnp == 0 {
            max_rate
        } else {
            (p.rate_to_set_on_first_cnp << RATE_FRAC).min(max_rate)
        };
        let c = 1024 - p.dce_tcp_g as u64;
        let mut pow_lo = [0u32; POW_TABLE];
        let mut pow_hi = [0u32; POW_TABLE];
        // The hardware generates the tables the same way: one multiply per entry.
        pow_lo[0] = 1 << POW_FRAC;
        for j in 1..POW_TABLE {
            pow_lo[j] = ((pow_lo[j - 1] as u64 * c) >> 10) as u32;
        }
        let c128 = (pow_lo[POW_TABLE - 1] as u64 * c) >> 10;
        pow_hi[0] = 1 << POW_FRAC;
        for j in 1..POW_TABLE {
            pow_hi[j] = ((pow_hi[j - 1] as u64 * c128) >> POW_FRAC) as u32;
        }
        Self {
            p_alpha: p.dce_tcp_rtt,
            p_dec: p.rate_reduce_monitor_period,
            p_inc: p.rpg_time_reset,
            recip_alpha: (1 << RECIP_SHIFT) / p.dce_tcp_rtt,
            recip_inc: (1 << RECIP_SHIFT) / p.rpg_time_reset,
            recip_ai: (1 << STEP_RECIP_SHIFT) / (p.rpg_ai_rate << RATE_FRAC),
            recip_hai: (1 << STEP_RECIP_SHIFT) / (p.rpg_hai_rate << RATE_FRAC),
            max_rate,
            ai_rate: p.rpg_ai_rate << RATE_FRAC,
            hai_rate: p.rpg_hai_rate << RATE_FRAC,
            min_rate: p.rpg_min_rate << RATE_FRAC,
            first_rate,
            alpha_init: p.initial_alpha_value << (ALPHA_FRAC - 10),
            g: p.dce_tcp_g,
            cut_shift: p.rpg_gd + 10,
            max_cut_q16: (100 - p.rpg_min_dec_fac) * 65536 / 100,
            threshold: p.rpg_threshold,
            byte_reset: p.rpg_byte_reset,
            clamp_tgt_rate: p.clamp_tgt_rate,
            clamp_tgt_rate_after_time_inc: p.clamp_tgt_rate_after_time_inc,
            pow_lo,
            pow_hi,
        }
    }

    /// `c^k` in Q.24 for `k < POW_LIMIT`, from the two table halves (one multiply).
    pub fn pow_c(&self, k: u64) -> u64 {
        debug_assert!(k < POW_LIMIT);
        let hi = self.pow_hi[(k >> 7) as usize] as u64;
        let lo = self.pow_lo[(k & 127) as usize] as u64;
        (hi * lo) >> POW_FRAC
    }

    /// alpha after `n` alpha-timer expiries, the first of which sees the CNP flag `flag`:
    /// `t1 = floor(alpha * (1024 - g) / 1024) + flag * g / 1024` (one exact update), then
    /// `floor(t1 * c^(n-1))`; 0 once `n - 1 >= POW_LIMIT`.
    pub fn alpha_after(&self, alpha: u32, flag: bool, n: u64) -> u32 {
        if n == 0 {
            return alpha;
        }
        let c = 1024 - self.g as u64;
        let t1 = ((alpha as u64 * c) >> 10) + if flag { (self.g as u64) << 10 } else { 0 };
        let k = n - 1;
        if k >= POW_LIMIT {
            0
        } else {
            ((t1 * self.pow_c(k)) >> POW_FRAC) as u32
        }
    }
}

/// One QP's state word (what the hardware keeps in block RAM).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct QpState {
    /// A rate limiter is allocated.
    pub limited: bool,
    /// Rc, Mb/s Q.8.
    pub rc: u32,
    /// Rt, Mb/s Q.8.
    pub rt: u32,
    /// alpha, Q.20.
    pub alpha: u32,
    /// Timer stage counter T (saturates at 63).
    pub t: u32,
    /// Byte stage counter BC (saturates at 63).
    pub bc: u32,
    /// Bytes since the last byte event (saturates at 2^32 - 1).
    pub acc: u32,
    /// cnp_for_alpha.
    pub cnp_alpha: bool,
    /// cnp_for_decrease.
    pub cnp_dec: bool,
    /// Cycle within the microsecond at which every timer of this episode expires.
    pub sub: u32,
    /// Next alpha expiry, us in the alpha radix.
    pub ta: Radix,
    /// Next decrease check, us in the decrease radix.
    pub td: Radix,
    /// Next increase-timer expiry, us in the increase radix.
    pub ti: Radix,
    /// `td` written in the alpha radix (valid while limited).
    pub tda: Radix,
    /// `td` written in the increase radix (valid while limited).
    pub tdi: Radix,
    /// Congestion-control mode (`roce_cc_regmap::QpMode` as a number; 0 = DCQCN).
    pub mode: u32,
    /// The host's rate for mode `HostRate`, Mb/s Q.8.
    pub host_rate: u32,
}

/// An event the RP accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RpKind {
    /// A CNP was received for the QP.
    Cnp,
    /// The QP transmitted a packet of `bytes` bytes (`bytes < 2^16`).
    Tx { bytes: u32 },
    /// Report the QP's state; changes nothing.
    Query,
    /// Reset the QP's state to the state after reset (mode DCQCN, not limited).
    Reset,
    /// Reset the QP's state and set its mode (and, for `HostRate`, its rate in Mb/s Q.8).
    SetMode { mode: u32, rate_q8: u32 },
}

/// What one event did, for the RP's counters (only events that write are counted).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RpStats {
    /// A rate cut was applied.
    pub cut: bool,
    /// Increase events applied in fast recovery, additive and hyper increase.
    pub fr: u64,
    pub ai: u64,
    pub hai: u64,
}

/// The RP's event counters (wrap at 2^48 like the hardware's).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RpCounters {
    /// CNP events applied (any mode).
    pub cnp_received: u64,
    pub rate_cuts: u64,
    pub increase_fr: u64,
    pub increase_ai: u64,
    pub increase_hai: u64,
}

/// Counter wrap mask (48-bit counters).
const COUNTER_MASK: u64 = (1 << 48) - 1;

impl RpCounters {
    fn add(&mut self, kind: RpKind, st: &RpStats) {
        let add = |c: &mut u64, n: u64| *c = (*c + n) & COUNTER_MASK;
        if kind == RpKind::Cnp {
            add(&mut self.cnp_received, 1);
        }
        add(&mut self.rate_cuts, st.cut as u64);
        add(&mut self.increase_fr, st.fr);
        add(&mut self.increase_ai, st.ai);
        add(&mut self.increase_hai, st.hai);
    }
}

/// `r` one microsecond earlier.
pub fn radix_dec(r: Radix, period: u32) -> Radix {
    if r.rem > 0 {
        Radix {
            epoch: r.epoch,
            rem: r.rem - 1,
        }
    } else {
        Radix {
            epoch: r.epoch.wrapping_sub(1),
            rem: period - 1,
        }
    }
}

/// The last microsecond whose expiry instant (cycle `sub` within it) is not after now.
pub fn radix_eff(now: Radix, now_sub: u32, sub: u32, period: u32) -> Radix {
    if now_sub < sub {
        radix_dec(now, period)
    } else {
        now
    }
}

/// How many expiries at `next`, `next + period`, ... fall at or before `upto` (saturating
/// at [`COUNT_MAX`]). Epochs compare modulo 2^32.
pub fn fired(upto: Radix, next: Radix) -> u64 {
    let d = upto.epoch.wrapping_sub(next.epoch) as i32 as i64 + (upto.rem >= next.rem) as i64;
    d.clamp(0, COUNT_MAX as i64) as u64
}

/// The first expiry (phase `next.rem`) after `upto`, given that at least one has fired.
pub fn next_after(upto: Radix, next: Radix) -> Radix {
    Radix {
        epoch: upto.epoch.wrapping_add((upto.rem >= next.rem) as u32),
        rem: next.rem,
    }
}

/// `(floor(num / p), num mod p)` for `num < 2^18`, as the hardware does it: multiply by
/// `recip = floor(2^18 / p)`, then one correction step.
pub fn div_small(num: u32, p: u32, recip: u32) -> (u32, u32) {
    debug_assert!(num < 1 << RECIP_SHIFT);
    let q0 = ((num as u64 * recip as u64) >> RECIP_SHIFT) as u32;
    let r0 = num - q0 * p;
    if r0 >= p { (q0 + 1, r0 - p) } else { (q0, r0) }
}

/// `n` consecutive increase events that all add `step` to Rt (0 for fast recovery), in
/// closed form. Returns the new `(rc, rt)`; the caller checks `rc >= max` for release.
///
/// One event is `Rt := min(Rt + step, M); Rc := ceil((Rc + Rt) / 2)`. With `d = Rt - Rc`
/// that is `d := floor((d + step) / 2)` while Rt is below M, so `d - step` halves (an
/// arithmetic shift); once Rt has reached M, `d` halves. The event at which Rt reaches M is
/// found from the overshoot `Rt + n * step - M` by a 5-bit division; if it came more than
/// 31 events before the end, `d` is taken as 0 (stepping gives 0 or -1: Rc >= M, released
/// either way).
pub fn run(n: u64, step: u32, rc: u32, rt: u32, max: u32) -> (u32, u32) {
    if n == 0 {
        return (rc, rt);
    }
    let d = rt as i64 - rc as i64;
    let shift = |x: i64, k: u64| x >> k.min(63);
    let (rt2, d2) = if rt >= max {
        (max as i64, shift(d, n))
    } else {
        let s = step as i64;
        let over = rt as i64 + n as i64 * s - max as i64;
        if over < 0 {
            (rt as i64 + n as i64 * s, s + shift(d - s, n))
        } else if over >= 32 * s {
            // Rt reached M more than 31 events ago: d has halved to 0 (or -1, which
            // releases the same way); the hardware takes 0.
            (max as i64, 0)
        } else {
            let r = over / s;
            let rem = over - r * s;
            let d1 = s + shift(d - s, n - r as u64 - 1);
            let d_sat = (d1 + s - rem) >> 1;
            (max as i64, d_sat >> r)
        }
    };
    ((rt2 - d2) as u32, rt2 as u32)
}

/// The first of `n` increase events (1-based) after which Rc >= `max`: the event that
/// releases the limiter, found by halving (Rc < max before Rt reaches max, and once
/// Rc >= max it stays). This was the golden model's definition; it is kept as the test
/// oracle of the closed form [`release_index`] (`release_index_closed_form_matches_search`).
pub fn release_index_search(n: u64, step: u32, rc: u32, rt: u32, max: u32) -> u64 {
    let (mut lo, mut hi) = (1u64, n);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if run(mid, step, rc, rt, max).0 >= max {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    lo
}

/// Bit length of `v` (`0` for `v <= 0`): the number of halvings (arithmetic shifts) that
/// take a positive distance to 0.
pub fn bitlen(v: i64) -> u64 {
    if v <= 0 {
        0
    } else {
        64 - v.leading_zeros() as u64
    }
}

/// The event (1-based) of a run of increase events with step `step` starting at `rc`, `rt`
/// at which Rc reaches `max`: the event that releases the limiter. Called only for a run
/// that ends released; the result is then at most its length. Closed form (what the
/// hardware computes, `hdl::dcqcn_rp::inc_count`):
///
/// * Rt already at max: `d = Rt - Rc` halves each event and Rc = max - d, so the index is
///   the bit length of `d` (at least 1).
/// * Rt below max, `step > 0`: Rc < max until Rt reaches max at event
///   `e0 = ceil((max - Rt) / step)`; from there `d` halves, so the index is
///   `e0 + bitlen(max - Rc(e0))` with `Rc(e0) = run(e0, ..)`.
/// * Rt below max in fast recovery (`step == 0`): Rt never reaches max and Rc only
///   approaches Rt, so a release is possible only at the first event (from Rc = max with
///   Rt one LSB below; unreachable with the rates the configuration produces): 1.
///
/// Equal to [`release_index_search`] wherever Rc < max before Rt reaches max, which holds
/// for every state the RP can reach (`release_index_closed_form_matches_search`).
pub fn release_index(step: u32, rc: u32, rt: u32, max: u32) -> u64 {
    if rt >= max {
        return bitlen(rt as i64 - rc as i64).max(1);
    }
    if step == 0 {
        return 1;
    }
    let e0 = ((max - rt) as u64).div_ceil(step as u64);
    let rc_e0 = run(e0, step, rc, rt, max).0;
    e0 + bitlen(max as i64 - rc_e0 as i64)
}

/// `(floor(x / s), x mod s)` for `x < 2^28` and `256 <= s < 2^28` (a rate step of at least
/// 1 Mb/s, Q.8) as the hardware does it: multiply by `recip = floor(2^28 / s)` (at most
/// 2^20), then one correction step. The estimate is low by at most one because
/// `x * (2^28 / s - recip) < x < 2^28`.
pub fn div_step(x: u32, s: u32, recip: u32) -> (u32, u32) {
    debug_assert!(x < 1 << STEP_RECIP_SHIFT && s >= 1 << RATE_FRAC);
    let q0 = ((x as u64 * recip as u64) >> STEP_RECIP_SHIFT) as u32;
    let r0 = x - q0 * s;
    if r0 >= s { (q0 + 1, r0 - s) } else { (q0, r0) }
}

/// Numbers of fast-recovery, additive and hyper increase events among `k` timer events
/// that start with stage counters `t`, `bc` (dcqcn.md "Phase"; with the byte counter off
/// BC follows T).
pub fn phases(cfg: &RpConfig, k: u64, t: u32, bc: u32) -> (u64, u64, u64) {
    let th = cfg.threshold as u64;
    let t = t as u64;
    let bc = bc as u64;
    let byte_off = cfg.byte_reset == 0;
    let fr_ok = byte_off || bc < th;
    let hai_ok = byte_off || bc > th;
    let n_fr = if fr_ok {
        k.min(th.saturating_sub(t))
    } else {
        0
    };
    let before_hai = (th + 1).saturating_sub(t);
    let n_hai = if hai_ok {
        k.saturating_sub(before_hai)
    } else {
        0
    };
    (n_fr, k - n_fr - n_hai, n_hai)
}

/// Step of Rt for one increase event in the phase given by `t`, `bc`.
/// The phase of a byte event: 0 = FR, 1 = AI, 2 = HAI (dcqcn.md, from T and BC before it).
fn byte_event_phase(cfg: &RpConfig, t: u32, bc: u32) -> usize {
    let th = cfg.threshold;
    if t.max(bc) < th {
        0
    } else if t.min(bc) > th {
        2
    } else {
        1
    }
}

fn byte_event_step(cfg: &RpConfig, t: u32, bc: u32) -> u32 {
    let th = cfg.threshold;
    if t.max(bc) < th {
        0
    } else if t.min(bc) > th {
        cfg.hai_rate
    } else {
        cfg.ai_rate
    }
}

/// Apply `k` increase-timer events to `s`; clears `limited` on release. The events applied
/// are counted in `st` by phase (none after the run that releases the limiter).
fn timer_increases(cfg: &RpConfig, s: &mut QpState, k: u64, st: &mut RpStats) {
    if k == 0 {
        return;
    }
    let (n_fr, n_ai, n_hai) = phases(cfg, k, s.t, s.bc);
    for (i, (n, step)) in [(n_fr, 0), (n_ai, cfg.ai_rate), (n_hai, cfg.hai_rate)]
        .into_iter()
        .enumerate()
    {
        let (rc, rt) = run(n, step, s.rc, s.rt, cfg.max_rate);
        let released = n > 0 && rc >= cfg.max_rate;
        let applied = if released {
            release_index(step, s.rc, s.rt, cfg.max_rate)
        } else {
            n
        };
        *[&mut st.fr, &mut st.ai, &mut st.hai][i] += applied;
        s.rc = rc;
        s.rt = rt;
        if released {
            s.limited = false;
            return;
        }
    }
    s.t = (s.t as u64 + k).min(STAGE_MAX as u64) as u32;
}

/// The decrease that a decrease check with its CNP flag set performs (dcqcn.md).
fn cut(cfg: &RpConfig, s: &mut QpState, alpha: u32, st: &mut RpStats) {
    st.cut = true;
    if cfg.clamp_tgt_rate || s.bc > 0 || (cfg.clamp_tgt_rate_after_time_inc && s.t > 0) {
        s.rt = s.rc;
    }
    let cut_alpha = (s.rc as u64 * alpha as u64) >> cfg.cut_shift;
    let cut_max = (s.rc as u64 * cfg.max_cut_q16 as u64) >> 16;
    let c = cut_alpha.min(cut_max) as u32;
    s.rc = (s.rc - c).max(cfg.min_rate);
    s.t = 0;
    s.bc = 0;
    s.acc = 0;
    s.cnp_dec = false;
}

/// Apply every timer expiry up to `now` to a limited QP (dcqcn.md ordering: per instant
/// alpha, then the decrease check, then the increase timer).
pub fn catch_up(cfg: &RpConfig, s: &mut QpState, now: &TimeStamp, st: &mut RpStats) {
    if !s.limited {
        return;
    }
    let ea = radix_eff(now.alpha, now.sub, s.sub, cfg.p_alpha);
    let ed = radix_eff(now.dec, now.sub, s.sub, cfg.p_dec);
    let ei = radix_eff(now.inc, now.sub, s.sub, cfg.p_inc);
    let n_alpha = fired(ea, s.ta);
    let n_dec = fired(ed, s.td);
    let alpha0 = s.alpha;
    let flag0 = s.cnp_alpha;
    if s.cnp_dec && n_dec > 0 {
        // Increase events strictly before the cut (one at the cut's own instant is
        // superseded: the check restarts the increase timer first).
        let k1 = fired(radix_dec(s.tdi, cfg.p_inc), s.ti);
        timer_increases(cfg, s, k1, st);
        if !s.limited {
            return;
        }
        let alpha_at_cut = cfg.alpha_after(alpha0, flag0, fired(s.tda, s.ta));
        cut(cfg, s, alpha_at_cut, st);
        s.ti = Radix {
            epoch: s.tdi.epoch.wrapping_add(1),
            rem: s.tdi.rem,
        };
    }
    let k = fired(ei, s.ti);
    timer_increases(cfg, s, k, st);
    if !s.limited {
        return;
    }
    if k > 0 {
        s.ti = next_after(ei, s.ti);
    }
    s.alpha = cfg.alpha_after(alpha0, flag0, n_alpha);
    if n_alpha > 0 {
        s.cnp_alpha = false;
        s.ta = next_after(ea, s.ta);
    }
    if n_dec > 0 {
        s.td = next_after(ed, s.td);
    }
}

/// Record the time of the next decrease check in the alpha and increase radices.
fn note_next_check(cfg: &RpConfig, s: &mut QpState, now: &TimeStamp) {
    let ea = radix_eff(now.alpha, now.sub, s.sub, cfg.p_alpha);
    let ed = radix_eff(now.dec, now.sub, s.sub, cfg.p_dec);
    let ei = radix_eff(now.inc, now.sub, s.sub, cfg.p_inc);
    // td is the first check after `ed`: 1..=p_dec microseconds ahead.
    let ahead = if s.td.epoch == ed.epoch {
        s.td.rem - ed.rem
    } else {
        cfg.p_dec + s.td.rem - ed.rem
    };
    let (qa, ra) = div_small(ea.rem + ahead, cfg.p_alpha, cfg.recip_alpha);
    s.tda = Radix {
        epoch: ea.epoch.wrapping_add(qa),
        rem: ra,
    };
    let (qi, ri) = div_small(ei.rem + ahead, cfg.p_inc, cfg.recip_inc);
    s.tdi = Radix {
        epoch: ei.epoch.wrapping_add(qi),
        rem: ri,
    };
}

/// The report of a QP in state `s`: its DCQCN state when limited; otherwise the max rate,
/// or the host's rate in mode `HostRate`.
pub fn report_of(cfg: &RpConfig, s: &QpState) -> RpReport {
    if s.mode == QpMode::HostRate as u32 {
        RpReport {
            limited: false,
            rc_mbps_q8: s.host_rate,
            rt_mbps_q8: s.host_rate,
            alpha_q20: 0,
        }
    } else if s.limited {
        RpReport {
            limited: true,
            rc_mbps_q8: s.rc,
            rt_mbps_q8: s.rt,
            alpha_q20: s.alpha,
        }
    } else {
        RpReport {
            limited: false,
            rc_mbps_q8: cfg.max_rate,
            rt_mbps_q8: cfg.max_rate,
            alpha_q20: 0,
        }
    }
}

/// The next state of one QP, its report, and what the event did: the whole RP in one
/// function.
///
/// `Reset` and `SetMode` replace the state (DCQCN state back to "not limited"). In a mode
/// other than DCQCN, CNPs and packets change nothing (the QP's rate is the host's, or the
/// max rate when congestion control is off).
pub fn update(
    cfg: &RpConfig,
    old: &QpState,
    now: &TimeStamp,
    kind: RpKind,
) -> (QpState, RpReport, RpStats) {
    let mut st = RpStats::default();
    match kind {
        RpKind::Reset => {
            let s = QpState::default();
            return (s, report_of(cfg, &s), st);
        }
        RpKind::SetMode { mode, rate_q8 } => {
            let s = QpState {
                mode,
                host_rate: rate_q8,
                ..QpState::default()
            };
            return (s, report_of(cfg, &s), st);
        }
        _ if old.mode != QpMode::Dcqcn as u32 => return (*old, report_of(cfg, old), st),
        _ => {}
    }
    let mut s = *old;
    catch_up(cfg, &mut s, now, &mut st);
    apply_event(cfg, s, now, kind, st)
}

/// The event itself, applied to a QP in DCQCN mode whose timers are caught up to `now`
/// (the part of [`update`] after `catch_up`, shared with [`update_near`]).
fn apply_event(
    cfg: &RpConfig,
    mut s: QpState,
    now: &TimeStamp,
    kind: RpKind,
    mut st: RpStats,
) -> (QpState, RpReport, RpStats) {
    match kind {
        RpKind::Cnp if !s.limited => {
            s = QpState {
                limited: true,
                rc: cfg.first_rate,
                rt: cfg.first_rate,
                alpha: cfg.alpha_init,
                t: 0,
                bc: 0,
                acc: 0,
                cnp_alpha: false,
                cnp_dec: true,
                sub: now.sub,
                ta: Radix {
                    epoch: now.alpha.epoch.wrapping_add(1),
                    rem: now.alpha.rem,
                },
                td: Radix {
                    epoch: now.dec.epoch.wrapping_add(1),
                    rem: now.dec.rem,
                },
                ti: Radix {
                    epoch: now.inc.epoch.wrapping_add(1),
                    rem: now.inc.rem,
                },
                tda: Radix::default(),
                tdi: Radix::default(),
                mode: s.mode,
                host_rate: s.host_rate,
            };
        }
        RpKind::Cnp => {
            s.cnp_alpha = true;
            s.cnp_dec = true;
        }
        RpKind::Tx { bytes } if s.limited => {
            let sum = s.acc.saturating_add(bytes);
            if cfg.byte_reset != 0 && sum >= cfg.byte_reset {
                s.acc = sum - cfg.byte_reset;
                let step = byte_event_step(cfg, s.t, s.bc);
                let phase = byte_event_phase(cfg, s.t, s.bc);
                *[&mut st.fr, &mut st.ai, &mut st.hai][phase] += 1;
                let (rc, rt) = run(1, step, s.rc, s.rt, cfg.max_rate);
                s.rc = rc;
                s.rt = rt;
                s.bc = (s.bc + 1).min(STAGE_MAX);
                if rc >= cfg.max_rate {
                    s.limited = false;
                }
            } else {
                s.acc = sum;
            }
        }
        RpKind::Tx { .. } | RpKind::Query | RpKind::Reset | RpKind::SetMode { .. } => {}
    }
    if s.limited {
        note_next_check(cfg, &mut s, now);
    }
    let report = report_of(cfg, &s);
    (s, report, st)
}

/// [`update`] without the closed-form catch-up, for an event that follows the QP's last
/// write closely: at most one of the QP's timer instants (cycle `sub` of a microsecond)
/// lies after the time of the event that wrote `old` and at or before `now`. That holds
/// whenever `now` is less than `clock_mhz` cycles after that event, and for any `now` when
/// the QP is not limited (no timer runs). Under that condition the result equals
/// [`update`]'s exactly (`sim/tests/all/rp_near.rs` checks it on a million events); it is the
/// computation a same-QP path can make from the word its predecessor just wrote, a few
/// register stages instead of the catch-up's 127.
///
/// Why it is short: a word written at time `t` is caught up to `t`, so each timer's next
/// expiry (`ta`, `td`, `ti`) is its first after `t`. With at most one instant in between,
/// a timer fired iff its next expiry is the instant `now` reaches (`radix_eff`): an
/// equality, not a count, and each timer fired at most once. So alpha is updated once
/// (`alpha_after(.., 1)`, no power table); a decrease check with its CNP flag set cuts with
/// alpha as it is at that instant (alpha's update comes first) and restarts the increase
/// timer there, so no increase event falls with it (the catch-up's increases before the
/// cut are none); otherwise a fired increase timer is one increase event (`run(1, ..)`).
/// A release ends the catch-up as in [`update`]: the other timers keep their old values.
/// Then the event, exactly as in [`update`].
pub fn update_near(
    cfg: &RpConfig,
    old: &QpState,
    now: &TimeStamp,
    kind: RpKind,
) -> (QpState, RpReport, RpStats) {
    let mut st = RpStats::default();
    match kind {
        RpKind::Reset | RpKind::SetMode { .. } => return update(cfg, old, now, kind),
        _ if old.mode != QpMode::Dcqcn as u32 => return (*old, report_of(cfg, old), st),
        _ => {}
    }
    let mut s = *old;
    if s.limited {
        let ea = radix_eff(now.alpha, now.sub, s.sub, cfg.p_alpha);
        let ed = radix_eff(now.dec, now.sub, s.sub, cfg.p_dec);
        let ei = radix_eff(now.inc, now.sub, s.sub, cfg.p_inc);
        let (fa, fd, fi) = (ea == s.ta, ed == s.td, ei == s.ti);
        let next = |r: Radix| Radix {
            epoch: r.epoch.wrapping_add(1),
            rem: r.rem,
        };
        let alpha_inst = if fa {
            cfg.alpha_after(s.alpha, s.cnp_alpha, 1)
        } else {
            s.alpha
        };
        let mut released = false;
        if fd && s.cnp_dec {
            cut(cfg, &mut s, alpha_inst, &mut st);
            s.ti = next(ei);
        } else if fi {
            timer_increases(cfg, &mut s, 1, &mut st);
            released = !s.limited;
            if !released {
                s.ti = next(ei);
            }
        }
        if !released {
            s.alpha = alpha_inst;
            if fa {
                s.cnp_alpha = false;
                s.ta = next(ea);
            }
            if fd {
                s.td = next(ed);
            }
        }
    }
    apply_event(cfg, s, now, kind, st)
}

/// The golden reaction point: one [`QpState`] per QP, events applied in order.
#[derive(Clone, Debug)]
pub struct DcqcnRp {
    pub cfg: RpConfig,
    pub timebase: Timebase,
    pub qps: Vec<QpState>,
    pub counters: RpCounters,
}

impl DcqcnRp {
    pub fn new(p: &Params) -> Self {
        Self {
            cfg: RpConfig::new(p),
            timebase: Timebase::new(p),
            qps: vec![QpState::default(); p.qps as usize],
            counters: RpCounters::default(),
        }
    }

    /// Apply one event at `now`; returns the report (for a query the QP's state now, for
    /// other events its state after the event). Events that write are counted.
    pub fn apply(&mut self, now: &TimeStamp, qp: u32, kind: RpKind) -> RpReport {
        let old = &self.qps[qp as usize];
        let (new, report, st) = update(&self.cfg, old, now, kind);
        if kind != RpKind::Query {
            self.qps[qp as usize] = new;
            self.counters.add(kind, &st);
        }
        report
    }

    /// Back to the state after reset (every QP, the counters).
    pub fn reset(&mut self) {
        self.qps.iter_mut().for_each(|q| *q = QpState::default());
        self.counters = RpCounters::default();
    }

    /// Apply one event at clock cycle `cycle`.
    pub fn apply_at_cycle(&mut self, cycle: u64, qp: u32, kind: RpKind) -> RpReport {
        let now = self.timebase.at_cycle(cycle);
        self.apply(&now, qp, kind)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The closed form of `run` equals stepping one increase event at a time.
    #[test]
    fn run_matches_stepping() {
        let mut rng = 0x1234_5678_9abc_def0u64;
        let mut next = || {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng
        };
        for _ in 0..200_000 {
            let max = (next() % (1 << 28)).max(2) as u32;
            let rt = (next() % max as u64) as u32
                + if next() % 8 == 0 {
                    max - (next() % max as u64) as u32
                } else {
                    0
                };
            let rt = rt.min(max);
            let rc = (next() % (max as u64 + 1)) as u32;
            let step = match next() % 4 {
                0 => 0,
                1 => (next() % 4096) as u32,
                2 => (next() % max as u64) as u32 + 1,
                _ => (next() % 256) as u32 + 1,
            };
            let n = match next() % 3 {
                0 => next() % 8,
                1 => next() % 80,
                _ => next() % 3000,
            };
            let (mut c, mut t) = (rc as i64, rt as i64);
            for _ in 0..n {
                t = (t + step as i64).min(max as i64);
                c = (c + t + 1).div_euclid(2);
            }
            let got = run(n, step, rc, rt, max);
            // Past M both are released; the hardware clamps the distance there.
            let want = if c >= max as i64 {
                (max as u32, t as u32)
            } else {
                (c as u32, t as u32)
            };
            assert_eq!(
                (got.0.min(max), got.1),
                want,
                "n={n} step={step} rc={rc} rt={rt} max={max}"
            );
        }
    }

    /// The closed form of the release index ([`release_index`]) equals the binary search
    /// over `run` ([`release_index_search`]) on every run that ends released, from states
    /// with Rc, Rt <= max. Runs that release before Rt reaches max are not states the RP
    /// can reach (they need Rc = max with Rt one LSB below it, or Rc above max); they are
    /// counted, and must be rare in this generator.
    #[test]
    fn release_index_closed_form_matches_search() {
        let mut rng = 0x0bad_cafe_dead_beefu64;
        let mut next = || {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng
        };
        let (mut checked, mut early) = (0u64, 0u64);
        let mut by_case = [0u64; 3];
        for _ in 0..400_000 {
            let max = match next() % 3 {
                0 => (next() % 4096).max(2),
                1 => (next() % (1 << 20)).max(2),
                _ => (next() % (1 << 28)).max(2),
            } as u32;
            let below = |r: u64, m: u32| (r % m as u64) as u32;
            let rt = match next() % 4 {
                0 => max,
                1 => max - below(next(), max.min(1 << (next() % 12 + 1))),
                _ => below(next(), max + 1),
            };
            let rc = match next() % 4 {
                0 => max - below(next(), max.min(1 << (next() % 12 + 1))),
                1 => rt.saturating_sub(below(next(), 1 << (next() % 20 + 1))),
                2 => max,
                _ => below(next(), max + 1),
            };
            let step = match next() % 5 {
                0 => 0,
                1 => (next() % 4096) as u32 + 1,
                2 => ((next() % (max as u64 >> 8).max(1)) as u32 + 1) << 8,
                3 => (next() % max as u64) as u32 + 1,
                _ => (next() % 256) as u32 + 1,
            };
            let n = match next() % 4 {
                0 => 1 + next() % 8,
                1 => 1 + next() % 80,
                2 => 1 + next() % 5000,
                _ => 1 + next() % COUNT_MAX,
            };
            if run(n, step, rc, rt, max).0 < max {
                continue;
            }
            let case = if rt >= max {
                0
            } else if step == 0 {
                1
            } else {
                2
            };
            // Released before Rt reached max (never in fast recovery with Rt < max): not a
            // reachable state.
            if case == 1
                || (case == 2 && {
                    let e0 = ((max - rt) as u64).div_ceil(step as u64);
                    e0 > 1 && run(e0 - 1, step, rc, rt, max).0 >= max
                })
            {
                early += 1;
                continue;
            }
            let want = release_index_search(n, step, rc, rt, max);
            let got = release_index(step, rc, rt, max);
            assert_eq!(got, want, "n={n} step={step} rc={rc} rt={rt} max={max}");
            assert!(got >= 1 && got <= n);
            checked += 1;
            by_case[case] += 1;
        }
        eprintln!("checked {checked} ({by_case:?} at max / FR / stepping), early {early}");
        assert!(by_case[0] > 10_000 && by_case[2] > 10_000, "{by_case:?}");
        assert!(early * 100 < checked, "{early} of {checked} released early");
    }

    /// The reciprocal division of the counter pipeline is exact for every rate step the
    /// configuration can produce (a multiple of 256, at least 256) and every dividend.
    #[test]
    fn div_step_exact() {
        let mut rng = crate::stimulus::XorShift::new(77);
        let steps = [1u32, 2, 3, 5, 7, 100, 4095, 65535, 1 << 19, (1 << 20) - 1];
        let random: Vec<u32> = (0..2000).map(|_| 1 + rng.below(1 << 20) as u32).collect();
        for mbps in steps.into_iter().chain(random) {
            let s = mbps << RATE_FRAC;
            let recip = (1 << STEP_RECIP_SHIFT) / s;
            assert!(recip <= 1 << 20);
            let xs = [0u32, 1, s - 1, s, s + 1, (1 << 28) - 1, (1 << 28) - s];
            for x in xs
                .into_iter()
                .chain((0..200).map(|_| rng.below(1 << 28) as u32))
            {
                assert_eq!(div_step(x, s, recip), (x / s, x % s), "{x}/{s}");
            }
        }
    }

    #[test]
    fn div_small_exact() {
        for p in [1u32, 2, 3, 7, 100, 255, 1000, 65535, 131071] {
            let recip = (1 << RECIP_SHIFT) / p;
            for num in (0..(1u32 << 18)).step_by(97).chain([0, (1 << 18) - 1]) {
                assert_eq!(div_small(num, p, recip), (num / p, num % p), "{num}/{p}");
            }
        }
    }

    #[test]
    fn phases_match_rule() {
        let mut p = Params::default();
        for byte_reset in [0, 100] {
            p.rpg_byte_reset = byte_reset;
            for th in [1, 2, 5, 31] {
                p.rpg_threshold = th;
                let cfg = RpConfig::new(&p);
                for t in 0..40 {
                    for bc in [0, 1, th - 1, th, th + 1, 40] {
                        for k in [0u64, 1, 2, 3, 7, 40, 100] {
                            let (mut fr, mut ai, mut hai) = (0, 0, 0);
                            let mut tt = t;
                            for _ in 0..k {
                                let b = if byte_reset == 0 { tt } else { bc };
                                if tt.max(b) < th {
                                    fr += 1
                                } else if tt.min(b) > th {
                                    hai += 1
                                } else {
                                    ai += 1
                                }
                                tt += 1;
                            }
                            assert_eq!(
                                phases(&cfg, k, t, bc),
                                (fr, ai, hai),
                                "t={t} bc={bc} k={k} th={th}"
                            );
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn alpha_single_step_is_exact_update() {
        let p = Params::default();
        let cfg = RpConfig::new(&p);
        for alpha in [0u32, 1, 12345, 1 << 19, 1 << 20] {
            for flag in [false, true] {
                let want =
                    ((alpha as u64 * (1024 - 4)) >> 10) as u32 + if flag { 4 << 10 } else { 0 };
                assert_eq!(cfg.alpha_after(alpha, flag, 1), want);
            }
        }
    }
}

#[cfg(test)]
mod scenario_tests {
    use super::*;

    /// Hand-computed from dcqcn.md with the connectx profile at 250 MHz: first CNP at
    /// cycle 250 (1 us); alpha updates at 2, 3, 4, 5 us decay alpha by 252/256 each (no CNP
    /// since); the decrease check at 5 us (first after the CNP) cuts Rc by
    /// Rc * alpha * 1024 / 2^11 = Rc * alpha / 2.
    #[test]
    fn first_cnp_then_one_cut() {
        let p = Params::default();
        let mut rp = DcqcnRp::new(&p);
        rp.apply_at_cycle(250, 3, RpKind::Cnp);
        let r = rp.apply_at_cycle(250 * 5 - 1, 3, RpKind::Query);
        assert!(r.limited);
        assert_eq!(r.rc_mbps_q8, 100_000 << 8);
        let r = rp.apply_at_cycle(250 * 5, 3, RpKind::Query);
        let mut alpha = 1023.0 / 1024.0;
        for _ in 0..4 {
            alpha *= 1.0 - 4.0 / 1024.0;
        }
        let want = 100_000.0 * (1.0 - alpha / 2.0);
        let got = r.rc_mbps_q8 as f64 / 256.0;
        // Q.20 alpha and the Q.24 power table: within 0.05 Mb/s of real arithmetic.
        assert!((got - want).abs() < 0.05, "got {got}, want {want}");
        assert_eq!(
            r.rt_mbps_q8,
            100_000 << 8,
            "T = BC = 0 at the first cut: Rt is kept"
        );
        // Untouched QPs stay unlimited at the line rate.
        let r = rp.apply_at_cycle(250 * 5, 4, RpKind::Query);
        assert!(!r.limited && r.rc_mbps_q8 == 100_000 << 8);
    }

    /// After a cut and a long idle the QP recovers to the max rate and is released.
    #[test]
    fn idle_recovers_and_releases() {
        let p = Params::default();
        let mut rp = DcqcnRp::new(&p);
        rp.apply_at_cycle(0, 0, RpKind::Cnp);
        let r = rp.apply_at_cycle(250 * 10, 0, RpKind::Query);
        assert!(r.limited && r.rc_mbps_q8 < 60_000 << 8);
        // FR 1 step then AI (5 Mb/s) / HAI ... reaching line rate takes a while; 5 s is plenty.
        let r = rp.apply_at_cycle(250 * 5_000_000, 0, RpKind::Query);
        assert!(!r.limited, "{r:?}");
    }

    /// The counters do not depend on how often a QP is touched: catching up once after a
    /// gap counts the same cuts and increase events (per phase, none after a release) as
    /// touching the QP every microsecond with empty packets.
    #[test]
    fn counters_do_not_depend_on_touch_rate() {
        let mut rng = crate::stimulus::XorShift::new(5);
        for case in 0..300 {
            let mut p = Params {
                qps: 2,
                rpg_time_reset: 1 + rng.below(20) as u32,
                rate_reduce_monitor_period: 1 + rng.below(10) as u32,
                dce_tcp_rtt: 1 + rng.below(5) as u32,
                rpg_threshold: 1 + rng.below(6) as u32,
                clock_mhz: 10,
                ..Params::default()
            };
            if case % 2 == 0 {
                p.rpg_byte_reset = 0;
            }
            let mut once = DcqcnRp::new(&p);
            let mut often = DcqcnRp::new(&p);
            let c = p.clock_mhz as u64;
            let mut t = 0u64;
            for _ in 0..1 + rng.below(4) {
                for rp in [&mut once, &mut often] {
                    rp.apply_at_cycle(t, 1, RpKind::Cnp);
                }
                let gap = 1 + rng.below(400);
                for us in 1..gap {
                    often.apply_at_cycle(t + us * c, 1, RpKind::Tx { bytes: 0 });
                }
                t += gap * c;
            }
            for rp in [&mut once, &mut often] {
                rp.apply_at_cycle(t, 1, RpKind::Tx { bytes: 0 });
            }
            // (The states may differ in the last bits: alpha caught up through the power
            // table rounds differently from alpha stepped once per period.)
            assert_eq!(once.counters, often.counters, "case {case}: {p:?}");
        }
    }

    #[test]
    fn modes_reset_and_counters_by_hand() {
        let p = Params {
            qps: 4,
            ..Params::default()
        };
        let mut rp = DcqcnRp::new(&p);
        let host = 1234 << RATE_FRAC;
        rp.apply_at_cycle(0, 1, RpKind::Cnp);
        rp.apply_at_cycle(0, 2, RpKind::Cnp);
        assert!(rp.apply_at_cycle(0, 1, RpKind::Query).limited);
        let r = rp.apply_at_cycle(
            10,
            1,
            RpKind::SetMode {
                mode: QpMode::HostRate as u32,
                rate_q8: host,
            },
        );
        assert_eq!((r.limited, r.rc_mbps_q8, r.rt_mbps_q8), (false, host, host));
        // CNPs change nothing in host-rate mode, but are counted as received.
        let r = rp.apply_at_cycle(20, 1, RpKind::Cnp);
        assert_eq!(r.rc_mbps_q8, host);
        let r = rp.apply_at_cycle(
            30,
            2,
            RpKind::SetMode {
                mode: QpMode::Off as u32,
                rate_q8: 0,
            },
        );
        assert_eq!((r.limited, r.rc_mbps_q8), (false, rp.cfg.max_rate));
        assert_eq!(
            rp.apply_at_cycle(40, 2, RpKind::Cnp).rc_mbps_q8,
            rp.cfg.max_rate
        );
        let r = rp.apply_at_cycle(50, 1, RpKind::Reset);
        assert_eq!((r.limited, r.rc_mbps_q8), (false, rp.cfg.max_rate));
        assert_eq!(rp.qps[1], QpState::default());
        // Back in DCQCN mode a CNP limits the QP again. The decrease check 4 us later cuts
        // and restarts the increase timer: its first expiry is at 4 + 300 us.
        rp.apply_at_cycle(1000, 1, RpKind::Cnp);
        rp.apply_at_cycle(1000 + 303 * 250, 1, RpKind::Tx { bytes: 0 });
        assert_eq!(rp.counters.increase_fr, 0);
        rp.apply_at_cycle(1000 + 305 * 250, 1, RpKind::Tx { bytes: 0 });
        let c = rp.counters;
        assert_eq!(c.cnp_received, 5);
        assert_eq!(c.rate_cuts, 1, "one cut at the first decrease check");
        assert_eq!(
            c.increase_fr, 1,
            "one increase-timer event, in fast recovery"
        );
        assert_eq!((c.increase_ai, c.increase_hai), (0, 0));
    }
}
