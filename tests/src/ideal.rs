//! An ideal DCQCN reaction point: dcqcn.md's "RP behaviour" in real (`f64`) arithmetic.
//!
//! This model is the reference the bit-accurate golden model (`roce_cc_sim::dcqcn_rp`) is
//! measured against. It is written from `../shared/reference/dcqcn.md` alone and shares no
//! arithmetic with the golden model: there are no closed forms here. Every timer expiry of
//! every limited QP is applied one at a time, in time order, at clock-cycle granularity:
//!
//! * time is counted in clock cycles; a period of `x` us is `x * clock_mhz` cycles;
//! * each limited QP has three timers (alpha: `dce_tcp_rtt`, decrease check:
//!   `rate_reduce_monitor_period`, increase: `rpg_time_reset`), started by its first CNP;
//! * expiries falling on the same cycle are applied as alpha, then decrease check, then
//!   increase timer; every expiry at or before an event's cycle is applied before the event;
//! * rates, alpha and the cut are real numbers: no rounding, no widths (`Rc := (Rc + Rt) / 2`
//!   exactly); T and BC saturate at `u32::MAX` and `acc` is a `u64`, which no trace reaches.
//!
//! Two things are not literally "real arithmetic", both documented where they are used:
//!
//! * **Release.** With `Rt = max_rate` and `Rc < max_rate`, `Rc := (Rc + Rt) / 2` approaches
//!   the max rate geometrically and in exact arithmetic never reaches it; dcqcn.md's
//!   "rounded up" is what makes a real implementation release, so the release instant
//!   depends on the rate resolution. The ideal model releases on its own when
//!   `Rc >= max_rate - RELEASE_EPS_MBPS` (1 b/s, far below any hardware resolution), i.e. at
//!   the same increase event as the exact rule whenever that rule releases at all, and
//!   otherwise some events after any implementation with a coarser rate. A comparison may
//!   adopt an earlier release decided by a model with a finite resolution:
//!   [`IdealRp::apply_at_cycle_observed`] reports every increase event and lets the caller
//!   release the QP right there.
//! * **Denormals.** alpha below `f64::MIN_POSITIVE` (about 2e-308) is taken as 0; its
//!   contribution to a cut is below 1e-300 Mb/s, and this keeps the stepping fast.
//!
//! Only QPs that see events are simulated, lazily: when an event (or a query) arrives for a
//! QP, its timers are stepped up to the event's cycle; a released QP is not stepped.
//! Decrease checks without a pending CNP do nothing, so after the check that cuts they are
//! not visited one by one; their phase is kept. Likewise, alpha updates while alpha is
//! exactly 0 and no CNP is pending leave it 0 and are counted, not computed.

use roce_cc_params::Params;

/// The ideal model releases a limiter when `Rc >= max_rate - RELEASE_EPS_MBPS` (Mb/s).
pub const RELEASE_EPS_MBPS: f64 = 1e-6;

/// An event for one QP.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IdealEvent {
    /// A CNP was received for the QP.
    Cnp,
    /// The QP transmitted a packet of `bytes` bytes.
    Tx {
        /// Packet length in bytes.
        bytes: u64,
    },
    /// Report the QP's state (its timers are stepped up to the query's cycle, which changes
    /// nothing observable: the same expiries would be applied at the next event anyway).
    Query,
}

/// The state of one QP as the ideal model reports it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct IdealReport {
    /// A rate limiter is allocated to the QP.
    pub limited: bool,
    /// Current rate Rc, Mb/s (the max rate when not limited).
    pub rc: f64,
    /// Target rate Rt, Mb/s (the max rate when not limited).
    pub rt: f64,
    /// alpha in [0, 1] (0 when not limited).
    pub alpha: f64,
}

/// The parameters the ideal model uses, in cycles and real numbers.
#[derive(Clone, Debug)]
struct Cfg {
    /// Alpha timer period, cycles.
    pa: u64,
    /// Decrease-check period, cycles.
    pd: u64,
    /// Increase timer period, cycles.
    pi: u64,
    max_rate: f64,
    first_rate: f64,
    min_rate: f64,
    ai: f64,
    hai: f64,
    /// g = dce_tcp_g (in 1/1024).
    g: f64,
    /// 1024 / 2^rpg_gd.
    gd_factor: f64,
    /// (100 - rpg_min_dec_fac) / 100.
    max_cut_frac: f64,
    initial_alpha: f64,
    threshold: u32,
    byte_reset: u64,
    clamp_tgt_rate: bool,
    clamp_tgt_rate_after_time_inc: bool,
}

/// One QP.
#[derive(Clone, Debug, Default)]
struct Qp {
    limited: bool,
    rc: f64,
    rt: f64,
    alpha: f64,
    /// Time stage counter.
    t: u32,
    /// Byte stage counter.
    bc: u32,
    /// Bytes since the last byte event.
    acc: u64,
    cnp_for_alpha: bool,
    cnp_for_decrease: bool,
    /// Next expiry of each timer, cycles.
    next_alpha: u64,
    next_dec: u64,
    next_inc: u64,
}

/// The ideal reaction point: one real-arithmetic state per QP, events applied in time order.
#[derive(Clone, Debug)]
pub struct IdealRp {
    cfg: Cfg,
    qps: Vec<Qp>,
    /// Cycle of the latest event applied (events must come in non-decreasing cycle order).
    last_cycle: u64,
    /// Timer expiries stepped so far (alpha updates, decrease checks with a CNP, increases).
    pub expiries_stepped: u64,
}

impl IdealRp {
    /// A model with every QP not limited. `p` should be valid (`Params::validate`).
    pub fn new(p: &Params) -> Self {
        let clock = p.clock_mhz as u64;
        let max_rate = p.max_rate_mbps() as f64;
        let first_rate = if p.rate_to_set_on_first_cnp == 0 {
            max_rate
        } else {
            (p.rate_to_set_on_first_cnp as f64).min(max_rate)
        };
        let cfg = Cfg {
            pa: p.dce_tcp_rtt as u64 * clock,
            pd: p.rate_reduce_monitor_period as u64 * clock,
            pi: p.rpg_time_reset as u64 * clock,
            max_rate,
            first_rate,
            min_rate: p.rpg_min_rate as f64,
            ai: p.rpg_ai_rate as f64,
            hai: p.rpg_hai_rate as f64,
            g: p.dce_tcp_g as f64,
            gd_factor: 1024.0 / 2f64.powi(p.rpg_gd as i32),
            max_cut_frac: (100.0 - p.rpg_min_dec_fac as f64) / 100.0,
            initial_alpha: p.initial_alpha_value as f64 / 1024.0,
            threshold: p.rpg_threshold,
            byte_reset: p.rpg_byte_reset as u64,
            clamp_tgt_rate: p.clamp_tgt_rate,
            clamp_tgt_rate_after_time_inc: p.clamp_tgt_rate_after_time_inc,
        };
        Self {
            cfg,
            qps: vec![Qp::default(); p.qps as usize],
            last_cycle: 0,
            expiries_stepped: 0,
        }
    }

    /// The max rate, Mb/s.
    pub fn max_rate(&self) -> f64 {
        self.cfg.max_rate
    }

    /// Apply one event for `qp` at clock cycle `cycle` (cycles must not decrease from one
    /// call to the next). Returns the QP's state after the event.
    pub fn apply_at_cycle(&mut self, cycle: u64, qp: u32, ev: IdealEvent) -> IdealReport {
        self.apply_at_cycle_observed(cycle, qp, ev, &mut |_, _| false)
    }

    /// [`IdealRp::apply_at_cycle`], calling `observe(cycle, state)` after every increase
    /// event of the QP (increase-timer expiries stepped up to `cycle` and a byte event of
    /// `ev`), with the cycle of the increase and the QP's state after it (not limited if
    /// this model released it). If the QP is still limited and `observe` returns `true`, the
    /// QP is released there, as if its Rc had reached the max rate.
    ///
    /// This is for comparisons with a model of finite rate resolution, whose release the
    /// ideal model may adopt when its own Rc is close enough to the max rate (see the module
    /// documentation); the caller decides what "close enough" is.
    pub fn apply_at_cycle_observed(
        &mut self,
        cycle: u64,
        qp: u32,
        ev: IdealEvent,
        observe: &mut dyn FnMut(u64, IdealReport) -> bool,
    ) -> IdealReport {
        assert!(
            cycle >= self.last_cycle,
            "events out of time order: {cycle} after {}",
            self.last_cycle
        );
        self.last_cycle = cycle;
        let qp = qp as usize;
        self.expiries_stepped += advance(&self.cfg, &mut self.qps[qp], cycle, observe);
        let cfg = &self.cfg;
        let q = &mut self.qps[qp];
        match ev {
            IdealEvent::Cnp if !q.limited => {
                // First CNP.
                *q = Qp {
                    limited: true,
                    rc: cfg.first_rate,
                    rt: cfg.first_rate,
                    alpha: cfg.initial_alpha,
                    t: 0,
                    bc: 0,
                    acc: 0,
                    cnp_for_alpha: false,
                    cnp_for_decrease: true,
                    next_alpha: cycle + cfg.pa,
                    next_dec: cycle + cfg.pd,
                    next_inc: cycle + cfg.pi,
                };
            }
            IdealEvent::Cnp => {
                q.cnp_for_alpha = true;
                q.cnp_for_decrease = true;
            }
            IdealEvent::Tx { bytes } if q.limited => {
                q.acc += bytes;
                if cfg.byte_reset != 0 && q.acc >= cfg.byte_reset {
                    q.acc -= cfg.byte_reset;
                    self.expiries_stepped += 1;
                    increase(cfg, q, false, cycle, observe);
                }
            }
            IdealEvent::Tx { .. } | IdealEvent::Query => {}
        }
        report_of(cfg, q)
    }

    /// The QP's state as last stepped (no timers are applied).
    pub fn report(&self, qp: u32) -> IdealReport {
        report_of(&self.cfg, &self.qps[qp as usize])
    }
}

/// What a QP reports: its state if limited, else the max rate.
fn report_of(cfg: &Cfg, q: &Qp) -> IdealReport {
    if q.limited {
        IdealReport {
            limited: true,
            rc: q.rc,
            rt: q.rt,
            alpha: q.alpha,
        }
    } else {
        let m = cfg.max_rate;
        IdealReport {
            limited: false,
            rc: m,
            rt: m,
            alpha: 0.0,
        }
    }
}

/// Apply, one at a time and in order, every timer expiry of `q` at or before `now`; returns
/// how many expiries were stepped.
fn advance(
    cfg: &Cfg,
    q: &mut Qp,
    now: u64,
    observe: &mut dyn FnMut(u64, IdealReport) -> bool,
) -> u64 {
    let mut n = 0u64;
    while q.limited {
        if q.cnp_for_decrease {
            // General case: the next expiry of the three timers.
            let t = q.next_alpha.min(q.next_dec).min(q.next_inc);
            if t > now {
                break;
            }
            if q.next_alpha == t {
                alpha_update(cfg, q);
                q.next_alpha += cfg.pa;
                n += 1;
            }
            if q.next_dec == t {
                // cnp_for_decrease is set: this check cuts and restarts the increase timer.
                cut(cfg, q);
                q.next_inc = t + cfg.pi;
                q.next_dec += cfg.pd;
                n += 1;
            }
            if q.next_inc == t {
                q.next_inc += cfg.pi;
                n += 1;
                increase(cfg, q, true, t, observe);
            }
        } else {
            // No CNP pending: decrease checks do nothing until the next event, so only
            // alpha updates and increase-timer expiries remain. Alpha expiries at the
            // increase's own cycle come before it.
            let stop = q.next_inc.min(now);
            while q.next_alpha <= stop {
                if q.alpha == 0.0 && !q.cnp_for_alpha {
                    // alpha stays exactly 0: the remaining updates up to `stop` are no-ops;
                    // move the timer past them.
                    let k = (stop - q.next_alpha) / cfg.pa + 1;
                    q.next_alpha += k * cfg.pa;
                    n += k;
                    break;
                }
                alpha_update(cfg, q);
                q.next_alpha += cfg.pa;
                n += 1;
            }
            if q.next_inc <= now {
                let t = q.next_inc;
                q.next_inc += cfg.pi;
                n += 1;
                increase(cfg, q, true, t, observe);
            } else {
                break;
            }
        }
    }
    // Keep the phase of the decrease-check timer (checks without a CNP were no-ops).
    if q.limited && q.next_dec <= now {
        let k = (now - q.next_dec) / cfg.pd + 1;
        q.next_dec += k * cfg.pd;
    }
    n
}

/// Alpha timer expiry: alpha := (g * cnp_for_alpha + (1024 - g) * alpha) / 1024.
fn alpha_update(cfg: &Cfg, q: &mut Qp) {
    let flag = if q.cnp_for_alpha { 1.0 } else { 0.0 };
    q.alpha = (cfg.g * flag + (1024.0 - cfg.g) * q.alpha) / 1024.0;
    if q.alpha < f64::MIN_POSITIVE {
        q.alpha = 0.0;
    }
    q.cnp_for_alpha = false;
}

/// Decrease check with cnp_for_decrease set: clamp Rt, cut Rc, reset the stage counters.
/// (The caller restarts the increase timer.)
fn cut(cfg: &Cfg, q: &mut Qp) {
    if cfg.clamp_tgt_rate || q.bc > 0 || (cfg.clamp_tgt_rate_after_time_inc && q.t > 0) {
        q.rt = q.rc;
    }
    let by_alpha = q.rc * q.alpha * cfg.gd_factor;
    let by_floor = q.rc * cfg.max_cut_frac;
    q.rc = (q.rc - by_alpha.min(by_floor)).max(cfg.min_rate);
    q.t = 0;
    q.bc = 0;
    q.acc = 0;
    q.cnp_for_decrease = false;
}

/// One increase event at cycle `at`, from the increase timer (`timer`) or the byte counter;
/// then `observe` (see [`IdealRp::apply_at_cycle_observed`]).
fn increase(
    cfg: &Cfg,
    q: &mut Qp,
    timer: bool,
    at: u64,
    observe: &mut dyn FnMut(u64, IdealReport) -> bool,
) {
    let bc = if cfg.byte_reset == 0 { q.t } else { q.bc };
    let th = cfg.threshold;
    if q.t.max(bc) < th {
        // Fast recovery: Rt unchanged.
    } else if q.t.min(bc) > th {
        q.rt = (q.rt + cfg.hai).min(cfg.max_rate);
    } else {
        q.rt = (q.rt + cfg.ai).min(cfg.max_rate);
    }
    q.rc = (q.rc + q.rt) / 2.0;
    if timer {
        q.t = q.t.saturating_add(1);
    } else {
        q.bc = q.bc.saturating_add(1);
    }
    if q.rc >= cfg.max_rate - RELEASE_EPS_MBPS {
        q.limited = false;
    }
    if observe(at, report_of(cfg, q)) && q.limited {
        q.limited = false;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// dcqcn.md by hand, connectx at 250 MHz: first CNP at 1 us, four alpha decays, the
    /// check at 5 us cuts Rc by Rc * alpha / 2.
    #[test]
    fn first_cnp_then_one_cut() {
        let p = Params::default();
        let mut rp = IdealRp::new(&p);
        rp.apply_at_cycle(250, 3, IdealEvent::Cnp);
        let r = rp.apply_at_cycle(250 * 5 - 1, 3, IdealEvent::Query);
        assert!(r.limited && r.rc == 100_000.0);
        let r = rp.apply_at_cycle(250 * 5, 3, IdealEvent::Query);
        let alpha = 1023.0 / 1024.0 * (1020.0f64 / 1024.0).powi(4);
        assert!((r.alpha - alpha).abs() < 1e-15);
        assert!((r.rc - 100_000.0 * (1.0 - alpha / 2.0)).abs() < 1e-9);
        assert_eq!(r.rt, 100_000.0, "T = BC = 0: Rt kept");
        assert!(!rp.apply_at_cycle(250 * 5, 4, IdealEvent::Query).limited);
    }

    /// The increase timer restarts at the cut: with the connectx defaults the first
    /// increase comes 300 us after the first cut (fast recovery: Rt unchanged).
    #[test]
    fn increase_timer_restarts_at_cut() {
        let p = Params::default();
        let mut rp = IdealRp::new(&p);
        rp.apply_at_cycle(0, 0, IdealEvent::Cnp);
        let cut = rp.apply_at_cycle(250 * 4, 0, IdealEvent::Query);
        let before = rp.apply_at_cycle(250 * 304 - 1, 0, IdealEvent::Query);
        assert_eq!(cut.rc, before.rc);
        let after = rp.apply_at_cycle(250 * 304, 0, IdealEvent::Query);
        assert!((after.rc - (cut.rc + 100_000.0) / 2.0).abs() < 1e-9);
    }

    /// A byte event per 32767 bytes, at most one per packet; off with rpg_byte_reset = 0.
    #[test]
    fn byte_counter() {
        let mut p = Params::default();
        let mut rp = IdealRp::new(&p);
        rp.apply_at_cycle(0, 0, IdealEvent::Cnp);
        let cut = rp.apply_at_cycle(250 * 4, 0, IdealEvent::Query).rc;
        let r = rp.apply_at_cycle(250 * 5, 0, IdealEvent::Tx { bytes: 32766 });
        assert_eq!(r.rc, cut);
        let r = rp.apply_at_cycle(250 * 5, 0, IdealEvent::Tx { bytes: 65535 });
        assert!((r.rc - (cut + 100_000.0) / 2.0).abs() < 1e-9);
        p.rpg_byte_reset = 0;
        let mut rp = IdealRp::new(&p);
        rp.apply_at_cycle(0, 0, IdealEvent::Cnp);
        let cut = rp.apply_at_cycle(250 * 4, 0, IdealEvent::Query).rc;
        assert_eq!(
            rp.apply_at_cycle(250 * 5, 0, IdealEvent::Tx { bytes: 65535 })
                .rc,
            cut
        );
    }
}
