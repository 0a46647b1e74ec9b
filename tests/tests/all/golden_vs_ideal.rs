//! The golden reaction point (`roce_cc_sim::dcqcn_rp`, bit-accurate, closed-form lazy
//! timers) against the ideal one (`roce_cc_tests::ideal`, real arithmetic, every timer
//! expiry stepped), within dcqcn.md's tolerance.
//!
//! Every scenario is a list of events (CNP, transmitted packet, query) in cycle order, fed to
//! both models. Before each CNP or packet both models are queried at the event's cycle, and
//! both report again after it; scenarios also insert queries in between (golden queries do
//! not write, and an ideal query only applies expiries that the next event would apply
//! anyway). At every such sample:
//!
//! * **Rc** (the requirement): `|Rc_golden - Rc_ideal| <= max(1 % of Rc_ideal, 0.1 % of the
//!   line rate)`; a QP that is not limited reports the max rate in both models.
//! * **limited** must agree, with one allowance, the release. In real arithmetic
//!   `Rc := (Rc + Rt) / 2` only approaches the max rate, so *when* Rc "reaches" it depends on
//!   the rate resolution (dcqcn.md: "rounded up"): the golden model (Q.8, ceil) releases
//!   once its Rc is within 1/256 Mb/s, the ideal model on its own only within 1e-6 Mb/s,
//!   typically some increase events later. That difference is not an error of either, but
//!   it matters: a CNP arriving in between is a first CNP for one model (Rc := max rate,
//!   alpha := initial) and a subsequent one for the other (a cut with the decayed alpha),
//!   and the two then differ by far more than the tolerance. So the ideal model adopts the
//!   golden release: after every increase event of the ideal model (same cycles as the
//!   golden's), the golden model is queried at that cycle; if it has released and the ideal
//!   Rc is within the Rc tolerance of the max rate, the ideal model releases there too
//!   (counted as "release syncs"). A golden release while the ideal Rc is further from the
//!   max rate is a failure, and so is any disagreement on `limited` at a sample, except the
//!   ideal model releasing first by its own rule while the golden Rc is within tolerance
//!   (counted as "ideal released first"; not synchronised).
//! * **Rt** is checked with the same tolerance as Rc while both models are limited (Rt is
//!   set from Rc by clamped cuts, so it carries Rc's error).
//! * **alpha** is checked within `ALPHA_TOL` absolute while both are limited. The golden
//!   alpha is Q.20 and floors once per touch of the QP; those errors decay by (1024 - g)/1024
//!   per update, so they can add up to about 1024/g LSBs when a QP is touched every update
//!   (g = 1: 1024 LSB ~ 1e-3).
//!
//! Each test prints the worst errors it saw (run with `--nocapture` to see them).

use roce_cc_params::Params;
use roce_cc_sim::dcqcn_rp::{DcqcnRp, RpKind};
use roce_cc_sim::replay::RpReport;
use roce_cc_tests::ideal::{IdealEvent, IdealReport, IdealRp};
use std::collections::VecDeque;

/// Absolute tolerance on alpha (see the file comment).
const ALPHA_TOL: f64 = 2e-3;

/// An event of a scenario.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ev {
    Cnp,
    Tx(u32),
    Query,
}

/// `(cycle, qp, event)`.
type Trace = Vec<(u64, u32, Ev)>;

/// A small seeded xorshift64* generator.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Self {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    /// Uniform in `0..n` (n > 0).
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    /// Log-uniform in `[lo, hi]`.
    fn log_uniform(&mut self, lo: f64, hi: f64) -> f64 {
        let u = (self.next() >> 11) as f64 / (1u64 << 53) as f64;
        (lo.ln() + u * (hi.ln() - lo.ln())).exp()
    }
}

/// Worst value of a statistic and where it was seen.
#[derive(Default)]
struct Worst {
    value: f64,
    at: String,
}

impl Worst {
    fn see(&mut self, value: f64, at: impl FnOnce() -> String) {
        if value > self.value {
            self.value = value;
            self.at = at();
        }
    }
}

/// Both models, fed the same events, and what the comparison saw.
struct Compare {
    name: String,
    golden: DcqcnRp,
    ideal: IdealRp,
    line: f64,
    /// The last events of each QP, for failure reports.
    history: Vec<VecDeque<(u64, Ev)>>,
    samples: u64,
    limited_samples: u64,
    rc_rel: Worst,
    rc_abs: Worst,
    /// Worst relative Rc error among samples where the 1 % bound is the tolerance.
    rc_rel_1pct: Worst,
    /// Largest `max_rate - Rc_ideal` at which the ideal model adopted a golden release.
    sync_gap: Worst,
    /// Largest |error| / tolerance.
    rc_usage: Worst,
    rt_usage: Worst,
    alpha_abs: Worst,
    /// Golden released first, ideal Rc within tolerance: the ideal adopted the release.
    release_syncs: u64,
    /// Ideal released first, golden Rc within tolerance.
    ideal_released_first: u64,
    failures: Vec<String>,
    n_failures: u64,
}

fn to_ideal(ev: Ev) -> IdealEvent {
    match ev {
        Ev::Cnp => IdealEvent::Cnp,
        Ev::Tx(b) => IdealEvent::Tx { bytes: b as u64 },
        Ev::Query => IdealEvent::Query,
    }
}

fn to_golden(ev: Ev) -> RpKind {
    match ev {
        Ev::Cnp => RpKind::Cnp,
        Ev::Tx(b) => RpKind::Tx { bytes: b },
        Ev::Query => RpKind::Query,
    }
}

impl Compare {
    fn new(name: &str, p: &Params) -> Self {
        p.validate().unwrap_or_else(|e| panic!("{name}: {e}"));
        Compare {
            name: name.to_string(),
            golden: DcqcnRp::new(p),
            ideal: IdealRp::new(p),
            line: p.line_rate_mbps as f64,
            history: vec![VecDeque::new(); p.qps as usize],
            samples: 0,
            limited_samples: 0,
            rc_rel: Worst::default(),
            rc_abs: Worst::default(),
            rc_rel_1pct: Worst::default(),
            sync_gap: Worst::default(),
            rc_usage: Worst::default(),
            rt_usage: Worst::default(),
            alpha_abs: Worst::default(),
            release_syncs: 0,
            ideal_released_first: 0,
            failures: Vec::new(),
            n_failures: 0,
        }
    }

    fn fail(&mut self, msg: String) {
        self.n_failures += 1;
        if self.failures.len() < 10 {
            self.failures.push(msg);
        }
    }

    fn tol(&self, ideal: f64) -> f64 {
        (0.01 * ideal).max(0.001 * self.line)
    }

    /// Compare one sample of `qp` at `cycle`.
    fn check(&mut self, cycle: u64, qp: u32, what: &str, g: RpReport, i: IdealReport) {
        self.samples += 1;
        let rc_g = g.rc_mbps_q8 as f64 / 256.0;
        let rt_g = g.rt_mbps_q8 as f64 / 256.0;
        let alpha_g = g.alpha_q20 as f64 / (1u64 << 20) as f64;
        let err = (rc_g - i.rc).abs();
        let tol = self.tol(i.rc);
        let at = || {
            format!(
                "cycle {cycle} qp {qp} ({what}): golden limited={} Rc={rc_g:.6} Rt={rt_g:.6} \
                 alpha={alpha_g:.7}; ideal limited={} Rc={:.6} Rt={:.6} alpha={:.7}",
                g.limited, i.limited, i.rc, i.rt, i.alpha
            )
        };
        self.rc_abs.see(err, at);
        self.rc_rel.see(err / i.rc, at);
        self.rc_usage.see(err / tol, at);
        if 0.01 * i.rc >= 0.001 * self.line {
            self.rc_rel_1pct.see(err / i.rc, at);
        }
        if err > tol {
            let msg = format!(
                "Rc outside tolerance {tol:.4} Mb/s: {}; recent events {:?}",
                at(),
                self.history[qp as usize]
            );
            self.fail(msg);
        }
        if g.limited != i.limited {
            if g.limited && err <= tol {
                self.ideal_released_first += 1;
            } else {
                let msg = format!("limited disagrees: {}", at());
                self.fail(msg);
            }
        } else if g.limited {
            self.limited_samples += 1;
            let rt_tol = self.tol(i.rt);
            let rt_err = (rt_g - i.rt).abs();
            self.rt_usage.see(rt_err / rt_tol, at);
            if rt_err > rt_tol {
                let msg = format!("Rt outside tolerance {rt_tol:.4}: {}", at());
                self.fail(msg);
            }
            let a_err = (alpha_g - i.alpha).abs();
            self.alpha_abs.see(a_err, at);
            if a_err > ALPHA_TOL {
                let msg = format!("alpha outside {ALPHA_TOL}: {}", at());
                self.fail(msg);
            }
        }
    }

    /// Apply `ev` to the ideal model, adopting golden releases (see the file comment).
    /// `golden_after` is the golden report after `ev` when `ev` is not a query (the only
    /// increase the ideal model then applies is the event's own byte event, at `cycle`).
    fn ideal_apply(
        &mut self,
        cycle: u64,
        qp: u32,
        ev: Ev,
        golden_after: Option<RpReport>,
    ) -> IdealReport {
        let line = self.line;
        let max = self.ideal.max_rate();
        let golden = &mut self.golden;
        let mut seen: Vec<(u64, IdealReport, RpReport)> = Vec::new();
        let i = self
            .ideal
            .apply_at_cycle_observed(cycle, qp, to_ideal(ev), &mut |c, r| {
                let g = match golden_after {
                    Some(g) => {
                        assert_eq!(c, cycle);
                        g
                    }
                    None => golden.apply_at_cycle(c, qp, RpKind::Query),
                };
                seen.push((c, r, g));
                r.limited && !g.limited && (max - r.rc) <= (0.01 * r.rc).max(0.001 * line)
            });
        for (c, r, g) in seen {
            if r.limited && !g.limited {
                if (max - r.rc) <= self.tol(r.rc) {
                    self.release_syncs += 1;
                    self.sync_gap
                        .see(max - r.rc, || format!("cycle {c} qp {qp}"));
                } else {
                    let msg = format!(
                        "golden released at the increase at cycle {c} of qp {qp}, ideal Rc = {:.6} \
                         Rt = {:.6} is outside tolerance of the max rate {max}; recent events {:?}",
                        r.rc, r.rt, self.history[qp as usize]
                    );
                    self.fail(msg);
                }
            } else if !r.limited && g.limited {
                let rc_g = g.rc_mbps_q8 as f64 / 256.0;
                if max - rc_g > self.tol(max) {
                    let msg = format!(
                        "ideal released at the increase at cycle {c} of qp {qp}, golden Rc = {rc_g:.6} \
                         is outside tolerance of the max rate {max}"
                    );
                    self.fail(msg);
                }
            }
        }
        i
    }

    /// Feed one event to both models, sampling before (for CNPs and packets) and after.
    fn event(&mut self, cycle: u64, qp: u32, ev: Ev) {
        if ev != Ev::Query {
            let g = self.golden.apply_at_cycle(cycle, qp, RpKind::Query);
            let i = self.ideal_apply(cycle, qp, Ev::Query, None);
            self.check(cycle, qp, "before event", g, i);
        }
        let g = self.golden.apply_at_cycle(cycle, qp, to_golden(ev));
        let i = self.ideal_apply(cycle, qp, ev, (ev != Ev::Query).then_some(g));
        let h = &mut self.history[qp as usize];
        if h.len() == 8 {
            h.pop_front();
        }
        h.push_back((cycle, ev));
        self.check(cycle, qp, &format!("after {ev:?}"), g, i);
    }

    fn run(&mut self, trace: &mut Trace) {
        trace.sort_by_key(|e| e.0);
        for &(c, qp, ev) in trace.iter() {
            self.event(c, qp, ev);
        }
    }

    /// Print the worst errors; returns the failures (empty if none).
    fn finish(&self) -> Vec<String> {
        eprintln!(
            "[{}] samples {} (both limited {}), ideal expiries stepped {}: worst Rc rel err \
             {:.3e} (where the 1 % bound applies: {:.3e}), worst Rc abs err {:.3e} Mb/s, worst \
             Rc err/tol {:.3e}, worst Rt err/tol {:.3e}, worst alpha abs err {:.3e}; release \
             syncs {} (largest max_rate - ideal Rc at a sync {:.3e} Mb/s), ideal released first {}",
            self.name,
            self.samples,
            self.limited_samples,
            self.ideal.expiries_stepped,
            self.rc_rel.value,
            self.rc_rel_1pct.value,
            self.rc_abs.value,
            self.rc_usage.value,
            self.rt_usage.value,
            self.alpha_abs.value,
            self.release_syncs,
            self.sync_gap.value,
            self.ideal_released_first,
        );
        eprintln!("    worst Rc err/tol at {}", self.rc_usage.at);
        if self.n_failures > 0 {
            let mut v = vec![format!(
                "[{}] {} failures, first ones:",
                self.name, self.n_failures
            )];
            v.extend(self.failures.iter().cloned());
            v
        } else {
            Vec::new()
        }
    }
}

/// Run `trace` through both models and fail the test on any failure.
fn run_one(name: &str, p: &Params, mut trace: Trace) {
    let mut c = Compare::new(name, p);
    c.run(&mut trace);
    let f = c.finish();
    assert!(f.is_empty(), "{}", f.join("\n"));
}

/// Cycles of `us` microseconds.
fn us(p: &Params, us: f64) -> u64 {
    (us * p.clock_mhz as f64).round() as u64
}

/// Queries of QPs `0..n` at `cycle`.
fn sample_all(trace: &mut Trace, cycle: u64, n: u32) {
    for qp in 0..n {
        trace.push((cycle, qp, Ev::Query));
    }
}

/// A pseudo-random mixed trace over QPs `0..nqp`: CNP bursts, packet trains, mixed bursts
/// and idle gaps (log-uniform from 1 us to `max_gap_us`, sampled inside), with all QPs
/// sampled after every segment.
fn mixed(p: &Params, seed: u64, nqp: u32, segments: usize, max_gap_us: f64) -> Trace {
    let mut rng = Rng::new(seed);
    let clock = p.clock_mhz as u64;
    let pd = p.rate_reduce_monitor_period as u64 * clock;
    let cnp_spread = (3 * pd).min(3000 * clock).max(2);
    let mut tr = Trace::new();
    let mut t = rng.below(10 * clock);
    let bytes = |rng: &mut Rng| match rng.below(6) {
        0 => 64,
        1 => 1500,
        2 => 4096,
        3 => 65535,
        _ => 1 + rng.below(65535) as u32,
    };
    for _ in 0..segments {
        match rng.below(10) {
            0..=2 => {
                // CNP burst on a few QPs.
                let n = 1 + rng.below(30);
                let spread = 1 + rng.below(cnp_spread);
                let qps = 1 + rng.below(nqp as u64);
                for _ in 0..n {
                    t += rng.below(spread);
                    let qp = rng.below(qps) as u32;
                    tr.push((t, qp, Ev::Cnp));
                    if rng.below(3) == 0 {
                        tr.push((t + rng.below(2 * clock), qp, Ev::Query));
                    }
                }
            }
            3..=5 => {
                // Packet train.
                let n = 1 + rng.below(200);
                for _ in 0..n {
                    t += rng.below(2 * clock);
                    let qp = rng.below(nqp as u64) as u32;
                    tr.push((t, qp, Ev::Tx(bytes(&mut rng))));
                    if rng.below(8) == 0 {
                        tr.push((t, qp, Ev::Query));
                    }
                }
            }
            6..=7 => {
                // CNPs and packets interleaved.
                let n = 1 + rng.below(100);
                for _ in 0..n {
                    t += rng.below(cnp_spread / 4 + 1);
                    let qp = rng.below(nqp as u64) as u32;
                    let ev = if rng.below(4) == 0 {
                        Ev::Cnp
                    } else {
                        Ev::Tx(bytes(&mut rng))
                    };
                    tr.push((t, qp, ev));
                }
            }
            _ => {
                // Idle gap, sampled inside.
                let gap = us(p, rng.log_uniform(1.0, max_gap_us)).max(1);
                let mut at: Vec<u64> = (0..rng.below(12)).map(|_| t + rng.below(gap)).collect();
                at.sort();
                for c in at {
                    tr.push((c, rng.below(nqp as u64) as u32, Ev::Query));
                }
                t += gap;
            }
        }
        t += 1;
        sample_all(&mut tr, t, nqp);
    }
    tr
}

/// CNP bursts on QPs 0..6 (with packets on the even ones), then silences of 1 ms, 10 ms,
/// 3 s and 5 s separated by more CNPs, QPs 0..7 sampled densely during bursts and at
/// log-spaced points (1 us, 2 us, 4 us, ... into each gap) during silences. QP 6 gets its
/// only CNP exactly at the end of the 3 s gap; QP 7 gets one CNP at the start and nothing
/// but a query 8 s later (one catch-up over the whole trace).
fn idle_gaps_trace(p: &Params) -> Trace {
    let mut tr = Trace::new();
    let n = 6u32;
    let sampled = 7u32;
    let log_samples = |tr: &mut Trace, from: u64, len_us: f64, qps: u32| {
        let mut d = 1.0;
        while d < len_us {
            sample_all(tr, from + us(p, d), qps);
            d *= 2.0;
        }
    };
    let burst = |tr: &mut Trace, start: u64, qps: u32, k: u32| {
        for j in 0..k {
            for qp in 0..qps {
                tr.push((start + us(p, 7.0 * j as f64) + 13 * qp as u64, qp, Ev::Cnp));
            }
        }
        for j in 0..50 {
            for qp in (0..qps).step_by(2) {
                tr.push((start + us(p, 2.0 * j as f64) + 5, qp, Ev::Tx(1500)));
            }
            if j % 5 == 0 {
                sample_all(tr, start + us(p, 2.0 * j as f64) + 7, qps);
            }
        }
    };
    tr.push((0, 7, Ev::Cnp));
    // Bursts of 20 CNPs per QP, 7 us apart.
    burst(&mut tr, 100, n, 20);
    let mut t = 100 + us(p, 200.0);
    // 1 ms silence, sampled every 50 us.
    for j in 0..20 {
        sample_all(&mut tr, t + us(p, 50.0 * j as f64) + 3, sampled);
    }
    t += us(p, 1000.0);
    burst(&mut tr, t, 4, 3);
    t += us(p, 120.0);
    // 10 ms silence, log-sampled.
    log_samples(&mut tr, t, 10_000.0, sampled);
    t += us(p, 10_000.0);
    burst(&mut tr, t, n, 5);
    t += us(p, 150.0);
    // 3 s silence.
    log_samples(&mut tr, t, 3e6, sampled);
    t += us(p, 3e6);
    tr.push((t, 6, Ev::Cnp));
    burst(&mut tr, t + 1, 4, 2);
    t += us(p, 150.0);
    // 5 s silence.
    log_samples(&mut tr, t, 5e6, sampled);
    t += us(p, 5e6);
    burst(&mut tr, t, n, 3);
    t += us(p, 200.0);
    log_samples(&mut tr, t, 1e4, sampled);
    t += us(p, 1e4);
    tr.push((t, 7, Ev::Query));
    sample_all(&mut tr, t + 1, sampled);
    tr
}

/// Idle gaps of 1 ms, 10 ms, 3 s and 5 s between CNP bursts (connectx profile, 250 MHz).
#[test]
fn idle_gaps() {
    let p = Params::default();
    run_one("idle gaps, connectx", &p, idle_gaps_trace(&p));
}

/// The idle-gap scenario at 800 Gb/s and a 100 MHz clock, for the connectx and ns3-mlx
/// profiles (ns3-mlx: byte counter off, initial alpha 1, min rate 1000).
#[test]
fn idle_gaps_800g_100mhz() {
    for prof in ["connectx", "ns3-mlx"] {
        let mut p = Params::profile(prof).unwrap();
        p.line_rate_mbps = 800_000;
        p.clock_mhz = 100;
        run_one(
            &format!("idle gaps, {prof}, 800G, 100 MHz"),
            &p,
            idle_gaps_trace(&p),
        );
    }
}

/// Every one of 1024 QPs limited at once: rounds of CNPs (one per cycle, QP after QP), each
/// QP in a different share of the rounds so that rates spread, all 1024 sampled after every
/// round and at log-spaced points of the following 2 s recovery; then a second wave (first
/// CNPs again for the released QPs) and 3 s of recovery. With `traffic`, every third QP
/// also sends 4 KB packets between rounds and during recovery, so byte events happen.
fn all_qps_trace(p: &Params, traffic: bool) -> Trace {
    let n = p.qps;
    let mut tr = Trace::new();
    let mut t = 0u64;
    for wave in 0..2 {
        for r in 0..10u32 {
            for qp in 0..n {
                if r == 0 || (qp + r) % (1 + qp % 5) == 0 {
                    tr.push((t + qp as u64, qp, Ev::Cnp));
                }
            }
            if traffic {
                for k in 0..8u64 {
                    for qp in (0..n).step_by(3) {
                        tr.push((
                            t + us(p, 6.0 + 2.0 * k as f64) + qp as u64,
                            qp,
                            Ev::Tx(4096),
                        ));
                    }
                }
            }
            sample_all(&mut tr, t + us(p, 23.0), n);
            t += us(p, 25.0) + 17 * r as u64;
        }
        let len = if wave == 0 { 2e6 } else { 3e6 };
        let mut d = 1.0;
        while d < len {
            if traffic && d < 1e5 {
                for qp in (0..n).step_by(3) {
                    tr.push((t + us(p, d) + qp as u64, qp, Ev::Tx(4096)));
                }
            }
            sample_all(&mut tr, t + us(p, d) + 2000, n);
            d *= 1.5;
        }
        t += us(p, len) + 5000;
    }
    sample_all(&mut tr, t, n);
    tr
}

/// 1024 QPs all limited, CNPs only (connectx).
#[test]
fn all_qps_limited() {
    let p = Params::default();
    assert_eq!(p.qps, 1024);
    run_one("1024 QPs limited, CNPs only", &p, all_qps_trace(&p, false));
}

/// 1024 QPs all limited, every third one also transmitting (byte events; connectx).
#[test]
fn all_qps_limited_with_traffic() {
    let p = Params::default();
    run_one(
        "1024 QPs limited, with traffic",
        &p,
        all_qps_trace(&p, true),
    );
}

/// Set one parameter by name (booleans: non-zero is true).
fn set(p: &mut Params, name: &str, v: u32) {
    match name {
        "line_rate_mbps" => p.line_rate_mbps = v,
        "clock_mhz" => p.clock_mhz = v,
        "qps" => p.qps = v,
        "rpg_time_reset" => p.rpg_time_reset = v,
        "rpg_byte_reset" => p.rpg_byte_reset = v,
        "rpg_threshold" => p.rpg_threshold = v,
        "rpg_max_rate" => p.rpg_max_rate = v,
        "rpg_ai_rate" => p.rpg_ai_rate = v,
        "rpg_hai_rate" => p.rpg_hai_rate = v,
        "rpg_gd" => p.rpg_gd = v,
        "rpg_min_dec_fac" => p.rpg_min_dec_fac = v,
        "rpg_min_rate" => p.rpg_min_rate = v,
        "rate_to_set_on_first_cnp" => p.rate_to_set_on_first_cnp = v,
        "dce_tcp_g" => p.dce_tcp_g = v,
        "dce_tcp_rtt" => p.dce_tcp_rtt = v,
        "rate_reduce_monitor_period" => p.rate_reduce_monitor_period = v,
        "initial_alpha_value" => p.initial_alpha_value = v,
        "clamp_tgt_rate" => p.clamp_tgt_rate = v != 0,
        "clamp_tgt_rate_after_time_inc" => p.clamp_tgt_rate_after_time_inc = v != 0,
        _ => panic!("unknown parameter {name}"),
    }
}

/// Each RP parameter at both ends of its valid range (dcqcn.md's table, `Params::validate`),
/// plus a few interior values, one at a time from the connectx defaults (8 QPs), each
/// driven by the same kind of mixed trace (CNP bursts, packets, gaps up to 2 s). The global
/// line rate, clock and QP count are included. Every failing parameter is reported.
#[test]
fn each_parameter_at_both_ends() {
    let line = Params::default().line_rate_mbps;
    let cases: &[(&str, &[u32])] = &[
        ("rpg_time_reset", &[1, 131_071]),
        ("rpg_byte_reset", &[0, 1, u32::MAX]),
        ("rpg_threshold", &[1, 31]),
        ("rpg_max_rate", &[0, 1, 40_000, line]),
        ("rpg_ai_rate", &[1, line]),
        ("rpg_hai_rate", &[1, line]),
        ("rpg_gd", &[1, 15]),
        ("rpg_min_dec_fac", &[1, 100]),
        ("rpg_min_rate", &[1, line]),
        ("rate_to_set_on_first_cnp", &[0, 1, line]),
        ("dce_tcp_g", &[1, 1024]),
        ("dce_tcp_rtt", &[1, 131_071]),
        ("rate_reduce_monitor_period", &[1, 131_071]),
        ("initial_alpha_value", &[0, 1024]),
        ("clamp_tgt_rate", &[0, 1]),
        ("clamp_tgt_rate_after_time_inc", &[0, 1]),
        // Global: the lowest line rate the default AI/HAI steps allow, and the widest.
        ("line_rate_mbps", &[50, 800_000, 1_048_575]),
        ("clock_mhz", &[1, 1000]),
        ("qps", &[2, 16_384]),
    ];
    // Ends that only mean something together (e.g. a 131 ms monitor period with the default
    // 300 us increase timer releases every QP before its first cut).
    let combos: &[&[(&str, u32)]] = &[
        &[
            ("rpg_time_reset", 131_071),
            ("dce_tcp_rtt", 131_071),
            ("rate_reduce_monitor_period", 131_071),
        ],
        &[
            ("rpg_time_reset", 1),
            ("dce_tcp_rtt", 1),
            ("rate_reduce_monitor_period", 1),
        ],
        &[
            ("rpg_time_reset", 131_071),
            ("rate_reduce_monitor_period", 131_071),
        ],
        &[
            ("rpg_time_reset", 10_000),
            ("rate_reduce_monitor_period", 1000),
            ("dce_tcp_rtt", 100),
        ],
        &[("rpg_byte_reset", 1), ("rpg_threshold", 31)],
        &[
            ("rpg_byte_reset", 100_000),
            ("rpg_threshold", 5),
            ("rpg_time_reset", 55),
        ],
        &[("rpg_gd", 1), ("rpg_min_dec_fac", 1)],
        &[("rpg_gd", 15), ("dce_tcp_g", 1)],
        &[("rpg_ai_rate", line), ("rpg_hai_rate", line)],
        &[
            ("rpg_max_rate", 40_000),
            ("rate_to_set_on_first_cnp", line),
            ("rpg_min_rate", 40_000),
        ],
        &[("initial_alpha_value", 0), ("dce_tcp_g", 1024)],
    ];
    let runs = cases
        .iter()
        .flat_map(|&(name, values)| values.iter().map(move |&v| vec![(name, v)]))
        .chain(combos.iter().map(|c| c.to_vec()));
    let mut failures = Vec::new();
    for (k, settings) in runs.enumerate() {
        let mut p = Params {
            qps: 8,
            ..Params::default()
        };
        for &(name, v) in &settings {
            set(&mut p, name, v);
        }
        let label: Vec<String> = settings.iter().map(|(n, v)| format!("{n} = {v}")).collect();
        let mut c = Compare::new(&label.join(", "), &p);
        c.run(&mut mixed(&p, 2 + k as u64, p.qps.min(8), 150, 2e6));
        failures.extend(c.finish());
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A combination the single-parameter sweep cannot reach: a first-CNP rate below the min
/// rate (the cut raises Rc above Rt, Rt < Rc afterwards), with and without Rt clamping.
#[test]
fn first_rate_below_min_rate() {
    let mut failures = Vec::new();
    for clamp in [false, true] {
        let p = Params {
            qps: 8,
            rate_to_set_on_first_cnp: 10,
            rpg_min_rate: 20_000,
            clamp_tgt_rate: clamp,
            ..Params::default()
        };
        let mut c = Compare::new(
            &format!("first rate 10 < min rate 20000, clamp {clamp}"),
            &p,
        );
        c.run(&mut mixed(&p, 77, 8, 200, 1e6));
        failures.extend(c.finish());
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The three shipped profiles, each with a long seeded mixed trace on 32 QPs (about 1500
/// segments: bursts, packet trains and gaps up to 3 s).
#[test]
fn profiles_long_mixed() {
    let mut failures = Vec::new();
    for (k, prof) in ["connectx", "paper", "ns3-mlx"].into_iter().enumerate() {
        let mut p = Params::profile(prof).unwrap();
        p.qps = 32;
        let mut c = Compare::new(&format!("profile {prof}, mixed"), &p);
        c.run(&mut mixed(&p, 1000 + k as u64, 32, 1500, 3e6));
        failures.extend(c.finish());
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The connectx and paper profiles at 800 Gb/s with a 100 MHz clock, mixed trace.
#[test]
fn line_800g_clock_100mhz_mixed() {
    let mut failures = Vec::new();
    for prof in ["connectx", "paper"] {
        let mut p = Params::profile(prof).unwrap();
        p.line_rate_mbps = 800_000;
        p.clock_mhz = 100;
        p.qps = 16;
        let mut c = Compare::new(&format!("profile {prof}, 800G, 100 MHz, mixed"), &p);
        c.run(&mut mixed(&p, 4242, 16, 800, 3e6));
        failures.extend(c.finish());
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// One QP sending `bytes`-byte packets back to back at the line rate for `ms`
/// milliseconds (the byte counter fires as often as it can), with a CNP every `cnp_us`
/// microseconds during the first `cnp_ms` milliseconds and none after (cuts, then the
/// recovery through fast recovery, additive and hyper increase), sampled every 5 us.
fn one_qp_line_rate(p: &Params, bytes: u32, ms: f64, cnp_ms: f64, cnp_us: f64) -> Trace {
    let mut tr = Trace::new();
    let per_packet_us = bytes as f64 * 8.0 / p.line_rate_mbps as f64;
    let mut k = 0u64;
    loop {
        let t_us = k as f64 * per_packet_us;
        if t_us >= ms * 1000.0 {
            break;
        }
        tr.push((us(p, t_us), 0, Ev::Tx(bytes)));
        k += 1;
    }
    let mut t_us = cnp_us / 2.0;
    while t_us < cnp_ms * 1000.0 {
        tr.push((us(p, t_us), 0, Ev::Cnp));
        t_us += cnp_us;
    }
    let mut t_us = 0.0;
    while t_us < ms * 1000.0 {
        tr.push((us(p, t_us) + 1, 0, Ev::Query));
        t_us += 5.0;
    }
    tr
}

/// One QP at line rate with CNPs (1 KB packets at 100 and 400 Gb/s, 4 KB at 100 Gb/s), in
/// each shipped profile: every event applied one at a time, as the RP applies them, stays
/// within dcqcn.md's tolerance of the ideal behaviour through the cuts and the recovery.
#[test]
fn one_qp_at_line_rate_with_cnps() {
    let mut failures = Vec::new();
    for prof in ["connectx", "paper", "ns3-mlx"] {
        for (line, bytes) in [(100_000, 1024), (400_000, 1024), (100_000, 4096)] {
            let mut p = Params::profile(prof).unwrap();
            p.line_rate_mbps = line;
            p.qps = 16;
            let name = format!("profile {prof}, one QP, {bytes} B at {} Gb/s", line / 1000);
            let mut c = Compare::new(&name, &p);
            c.run(&mut one_qp_line_rate(&p, bytes, 3.0, 1.0, 40.0));
            failures.extend(c.finish());
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
