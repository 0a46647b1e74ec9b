//! Random stimulus for the reaction point and the lock-step runner of the three-way tests.
//!
//! A [`Stimulus`] is a parameter set plus a list of [`Step`]s: per cycle, which inputs are
//! offered, whether the report consumer is ready, and how far time advances (from one
//! cycle up to seconds, which the RP sees only through its `now` input, so an idle gap of
//! seconds costs one simulated cycle). [`run_lockstep`] drives every implementation with the
//! same pins and compares every output on every cycle; its sources keep the stream rule (an
//! offered event is held until it is taken) and its drain waits for every report.

use crate::dcqcn_rp::RpConfig;
use crate::lockstep::{self, Divergence, Named, clock_all, eval_all};
use crate::rp_harness::{RpOuts, RpPins, table_writes};
use crate::timebase::Timebase;
use roce_cc_params::Params;

/// A small seeded xorshift64 generator for reproducible test data (tests, benchmarks and
/// `trace::random_trace`); not for anything that needs statistical quality.
#[derive(Clone, Debug)]
pub struct XorShift(u64);

impl XorShift {
    /// A generator from any seed (0 included).
    pub fn new(seed: u64) -> Self {
        XorShift(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// Uniform-ish in `0..n` (`n > 0`).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }
}

/// One cycle of stimulus.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    /// Cycles by which `now` advances before this cycle (>= 0; large values are idle gaps).
    pub dt: u64,
    /// Offered command (`RpKind::Reset` or `RpKind::SetMode`).
    pub ctl: Option<(u32, crate::dcqcn_rp::RpKind)>,
    /// Offered CNP.
    pub cnp: Option<u32>,
    /// Offered packet.
    pub tx: Option<(u32, u32)>,
    /// Offered query.
    pub query: Option<u32>,
    /// Report consumer ready.
    pub m_ready: bool,
}

/// The steps of a failing case up to and including the mismatch, one per line, for
/// failure messages (the shrunk event sequence).
pub fn describe_steps(steps: &[Step], upto: usize) -> String {
    let mut s = String::new();
    for (i, st) in steps.iter().enumerate().take(upto.saturating_add(1)) {
        s.push_str(&format!(
            "  {i:4}: dt {:>12} ctl {:<28} cnp {:<8} tx {:<16} query {:<8} ready {}\n",
            st.dt,
            fmt_opt(st.ctl.map(|(q, k)| format!("{q}/{k:?}"))),
            fmt_opt(st.cnp.map(|q| q.to_string())),
            fmt_opt(st.tx.map(|(q, b)| format!("{q}/{b}B"))),
            fmt_opt(st.query.map(|q| q.to_string())),
            st.m_ready
        ));
    }
    s
}

fn fmt_opt(x: Option<String>) -> String {
    x.unwrap_or_else(|| "-".into())
}

/// Reset, load the power table during the RAM sweep, wait for the sweep to end.
/// Returns the number of set-up cycles; every DUT sees the same pins.
pub fn bring_up(
    p: &Params,
    duts: &mut [Named<'_, RpPins, RpOuts>],
) -> Result<u64, Divergence<RpOuts>> {
    let now = Timebase::new(p).at_cycle(0);
    lockstep::bring_up(
        duts,
        table_writes(&RpConfig::new(p)),
        |reset, tbl| RpPins {
            reset,
            m_ready: true,
            now,
            tbl,
            ..Default::default()
        },
        |o: &RpOuts| o.busy,
    )
}

/// What the RP's lock-step run saw: the events each input accepted and the reports the
/// consumer took.
#[derive(Clone, Debug, Default)]
pub struct RpRun {
    /// Every accepted event `(qp, kind, from the command stream)`, in acceptance order (a
    /// register-block query on the command stream is `(qp, RpKind::Query, true)`).
    pub accepted: Vec<(u32, crate::dcqcn_rp::RpKind, bool)>,
    /// The reports the consumer took, in order.
    pub reports: Vec<crate::rp_harness::RateOut>,
    /// The four input streams' sources: command, CNP, packet, query.
    pub sources: [lockstep::SourceStats; 4],
    /// Stimulus cycles and drain cycles run.
    pub cycles: u64,
}

impl RpRun {
    /// Whether every accepted event has exactly one report, of its kind, and each QP's
    /// reports come in the order its events were accepted (the RP lets events of other QPs
    /// go past an event that waits for its own QP, so the order across QPs may differ);
    /// what differs if not.
    pub fn every_event_reported(&self) -> Result<(), String> {
        use crate::dcqcn_rp::RpKind;
        use std::collections::{HashMap, VecDeque};
        if self.accepted.len() != self.reports.len() {
            return Err(format!(
                "{} events accepted, {} reports",
                self.accepted.len(),
                self.reports.len()
            ));
        }
        let mut owed: HashMap<u32, VecDeque<(usize, bool, bool)>> = HashMap::new();
        for (i, (qp, kind, ctl)) in self.accepted.iter().enumerate() {
            let query = matches!(kind, RpKind::Query);
            owed.entry(*qp).or_default().push_back((i, query, *ctl));
        }
        for (j, r) in self.reports.iter().enumerate() {
            let Some((i, query, ctl)) = owed.get_mut(&r.qp).and_then(|q| q.pop_front()) else {
                return Err(format!(
                    "report {j} {r:?} answers no accepted event of its QP"
                ));
            };
            if !(r.query == query && r.ctl == ctl) {
                let (qp, kind, _) = self.accepted[i];
                return Err(format!(
                    "report {j} {r:?} does not answer its QP's oldest unanswered event, \
                     accepted event {i} (qp {qp}, {kind:?}, command stream: {ctl})"
                ));
            }
        }
        Ok(())
    }
}

/// Run `steps` on every DUT in lock step (after [`bring_up`]), comparing all outputs every
/// cycle. Each input stream has a [`lockstep::Source`]: a step's event on a stream is
/// offered only when the stream's source is idle, and then held (valid and payload) until
/// the RP is ready, so every offered event is eventually taken. After the steps the run
/// drains with the consumer ready until every held event was accepted and every accepted
/// event reported, then `INC_COUNT_LAG` + 2 cycles more for the increase counters; a drain
/// longer than 100 000 cycles panics. Returns the accepted events and the reports taken,
/// or the first mismatch.
pub fn run_lockstep(
    p: &Params,
    steps: &[Step],
    duts: &mut [Named<'_, RpPins, RpOuts>],
) -> Result<RpRun, Divergence<RpOuts>> {
    use crate::dcqcn_rp::RpKind;
    let tb = Timebase::new(p);
    bring_up(p, duts)?;
    let mut cycle = 0u64;
    let mut run = RpRun::default();
    let mut ctl = lockstep::Source::default();
    let mut cnp = lockstep::Source::default();
    let mut tx = lockstep::Source::default();
    let mut query = lockstep::Source::default();
    let mut drain = lockstep::Drain::new(crate::rp_harness::INC_COUNT_LAG + 2, 100_000);
    let idle = Step {
        dt: 1,
        ctl: None,
        cnp: None,
        tx: None,
        query: None,
        m_ready: true,
    };
    let mut i = 0usize;
    loop {
        let s = match steps.get(i) {
            Some(s) => *s,
            None => {
                let done = ctl.idle()
                    && cnp.idle()
                    && tx.idle()
                    && query.idle()
                    && run.reports.len() == run.accepted.len();
                let (a, r) = (run.accepted.len(), run.reports.len());
                if !drain.more(done, || format!("{a} events accepted, {r} reports")) {
                    break;
                }
                idle
            }
        };
        cycle += s.dt;
        let pins = RpPins {
            reset: false,
            ctl: ctl.offer(s.ctl),
            cnp: cnp.offer(s.cnp),
            tx: tx.offer(s.tx),
            query: query.offer(s.query),
            m_ready: s.m_ready,
            now: tb.at_cycle(cycle),
            tbl: None,
        };
        let outs = eval_all(duts, &pins, i)?;
        if let (Some(r), true) = (outs.report, pins.m_ready) {
            run.reports.push(r);
        }
        if let Some((qp, kind)) = ctl.edge(outs.ctl_ready) {
            run.accepted.push((qp, kind, true));
        }
        if let Some(qp) = cnp.edge(outs.cnp_ready) {
            run.accepted.push((qp, RpKind::Cnp, false));
        }
        if let Some((qp, bytes)) = tx.edge(outs.tx_ready) {
            run.accepted.push((qp, RpKind::Tx { bytes }, false));
        }
        if let Some(qp) = query.edge(outs.query_ready) {
            run.accepted.push((qp, RpKind::Query, false));
        }
        clock_all(duts);
        i += 1;
    }
    run.sources = [ctl.stats(), cnp.stats(), tx.stats(), query.stats()];
    run.cycles = i as u64;
    Ok(run)
}

/// Proptest strategies for parameters and steps (also used by the long campaign).
pub mod strategies {
    use super::Step;
    use crate::dcqcn_rp::RpKind;
    use proptest::prelude::*;
    use roce_cc_params::{MAX_LINE_RATE_MBPS, MAX_PERIOD_US, Params};

    /// A value in `lo..=hi`, with both ends drawn often.
    fn ranged(lo: u32, hi: u32) -> BoxedStrategy<u32> {
        prop_oneof![1 => Just(lo), 1 => Just(hi), 4 => lo..=hi].boxed()
    }

    /// A short period in us (so that timers expire often), sometimes any period.
    fn period() -> BoxedStrategy<u32> {
        prop_oneof![3 => 1u32..=8, 1 => Just(MAX_PERIOD_US), 2 => 1u32..=MAX_PERIOD_US].boxed()
    }

    /// Random RP parameters across their full ranges, `qps` fixed.
    pub fn params(qps: u32) -> impl Strategy<Value = Params> {
        let rates = (
            ranged(1_000, MAX_LINE_RATE_MBPS),
            0u32..=3,
            any::<u32>(),
            any::<u32>(),
            any::<u32>(),
            any::<u32>(),
        );
        let times = (
            period(),
            period(),
            period(),
            prop_oneof![Just(250u32), 1u32..=1000],
        );
        let shape = (
            ranged(1, 31),
            ranged(1, 15),
            ranged(1, 100),
            ranged(1, 1024),
            ranged(0, 1024),
            any::<bool>(),
            any::<bool>(),
        );
        let bytes = prop_oneof![Just(0u32), 1u32..=3000, Just(u32::MAX), 1u32..=u32::MAX];
        (rates, times, shape, bytes).prop_map(move |(r, t, s, byte_reset)| {
            let (line, max_kind, a, b, c, d) = r;
            let mut p = Params {
                qps,
                line_rate_mbps: line,
                ..Params::default()
            };
            p.rpg_max_rate = match max_kind {
                0 => 0,
                1 => line,
                _ => 1 + a % line,
            };
            let max = p.max_rate_mbps();
            let pick = |x: u32, hi: u32| match x % 4 {
                0 => 1,
                1 => hi,
                _ => 1 + (x >> 2) % hi,
            };
            p.rpg_ai_rate = pick(b, line);
            p.rpg_hai_rate = pick(c, line);
            p.rpg_min_rate = pick(d, max);
            p.rate_to_set_on_first_cnp = if a & 1 == 0 { 0 } else { pick(a >> 1, line) };
            (
                p.dce_tcp_rtt,
                p.rate_reduce_monitor_period,
                p.rpg_time_reset,
                p.clock_mhz,
            ) = t;
            (
                p.rpg_threshold,
                p.rpg_gd,
                p.rpg_min_dec_fac,
                p.dce_tcp_g,
                p.initial_alpha_value,
            ) = (s.0, s.1, s.2, s.3, s.4);
            p.clamp_tgt_rate = s.5;
            p.clamp_tgt_rate_after_time_inc = s.6;
            p.rpg_byte_reset = byte_reset;
            p.validate().expect("strategy makes valid parameters");
            p
        })
    }

    /// One cycle: random QPs from a small hot set (repeats and back-to-back hits) or any QP,
    /// time advancing by a cycle, a few microseconds, or up to seconds; random backpressure.
    pub fn step(qps: u32, clock_mhz: u32) -> impl Strategy<Value = Step> {
        let qp = prop_oneof![3 => 0u32..4.min(qps), 1 => 0..qps];
        let c = clock_mhz as u64;
        let dt = prop_oneof![
            6 => 0u64..=1,
            3 => 0..=8 * c,
            1 => 0..=2_000 * c,
            1 => 0..=5_000_000 * c,
        ];
        // Commands: rare (they reset the QP's state), every mode, any host rate, and the
        // register block's queries.
        let ctl = (0u32..4, any::<u32>()).prop_map(|(mode, rate)| match mode {
            0 => RpKind::Reset,
            3 => RpKind::Query,
            m => RpKind::SetMode {
                mode: m - 1 + (rate & 1),
                rate_q8: rate >> 4,
            },
        });
        (
            dt,
            proptest::option::weighted(0.04, (qp.clone(), ctl)),
            proptest::option::weighted(0.3, qp.clone()),
            proptest::option::weighted(0.4, (qp.clone(), 1u32..=65535)),
            proptest::option::weighted(0.4, qp),
            prop_oneof![4 => Just(true), 1 => Just(false)],
        )
            .prop_map(|(dt, ctl, cnp, tx, query, m_ready)| Step {
                dt,
                ctl,
                cnp,
                tx,
                query,
                m_ready,
            })
    }

    /// Parameters and a stream of `1..=len` steps.
    pub fn case(qps: u32, len: usize) -> impl Strategy<Value = (Params, Vec<Step>)> {
        params(qps).prop_flat_map(move |p| {
            let c = p.clock_mhz;
            (Just(p), proptest::collection::vec(step(qps, c), 1..=len))
        })
    }
}
