//! Random stimulus and lock-step runners for the notification point and the core top (the
//! reaction point's are in [`crate::stimulus`]).
//!
//! A step is one cycle: which inputs are offered, whether each output's consumer is ready
//! (random backpressure), and how far `now` advances (0 cycles to seconds; the units see
//! time only through `now`, so an idle gap costs one simulated cycle).

use crate::core_harness::{CoreOuts, CorePins, core_bring_up};
use crate::core_top::{MODE_HPCC, ack_hops_ok};
use crate::dcqcn_np::CnpRequest;
use crate::dcqcn_rp::RpKind;
use crate::hpcc_window::Ack;
use crate::lockstep::{self, Divergence, Named, clock_all, eval_all};
use crate::np_harness::{NpOuts, NpPins};
use crate::rp_harness::RateOut;
use crate::timebase::Timebase;
use roce_cc_params::Params;

/// One cycle of NP stimulus.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NpStep {
    /// Cycles `now` advances before this cycle.
    pub dt: u64,
    /// Offered clear of a QP's limiter.
    pub clr: Option<u32>,
    /// Offered packet `(qp, ecn)`.
    pub rx: Option<(u32, u8)>,
    /// CNP consumer ready.
    pub cnp_ready: bool,
}

/// One cycle of core stimulus (QP numbers may be out of range).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CoreStep {
    pub dt: u64,
    /// Offered command (`RpKind::Reset` or `RpKind::SetMode`), for a QP in range.
    pub ctl: Option<(u32, crate::dcqcn_rp::RpKind)>,
    pub cnp: Option<u32>,
    pub tx: Option<(u32, u32)>,
    pub query: Option<u32>,
    pub rx: Option<(u32, u8)>,
    /// Offered ACK (QP number and hop count may be out of range).
    pub ack: Option<(u32, Ack)>,
    pub rate_ready: bool,
    pub cnp_ready: bool,
}

fn opt<T: std::fmt::Display>(x: Option<T>) -> String {
    x.map_or_else(|| "-".into(), |v| v.to_string())
}

/// The steps of a failing NP case up to the mismatch, one per line.
pub fn describe_np_steps(steps: &[NpStep], upto: usize) -> String {
    let mut s = String::new();
    for (i, st) in steps.iter().enumerate().take(upto.saturating_add(1)) {
        s.push_str(&format!(
            "  {i:4}: dt {:>12} clr {:<4} rx {:<10} cnp_ready {}\n",
            st.dt,
            opt(st.clr),
            opt(st.rx.map(|(q, e)| format!("{q}/ecn{e}"))),
            st.cnp_ready
        ));
    }
    s
}

/// The steps of a failing core case up to the mismatch, one per line.
pub fn describe_core_steps(steps: &[CoreStep], upto: usize) -> String {
    let mut s = String::new();
    for (i, st) in steps.iter().enumerate().take(upto.saturating_add(1)) {
        s.push_str(&format!(
            "  {i:4}: dt {:>12} ctl {:<28} cnp {:<9} tx {:<16} query {:<9} rx {:<14} ack {:<34} rate_ready {} cnp_ready {}\n",
            st.dt,
            opt(st.ctl.map(|(q, k)| format!("{q}/{k:?}"))),
            opt(st.cnp),
            opt(st.tx.map(|(q, b)| format!("{q}/{b}B"))),
            opt(st.query),
            opt(st.rx.map(|(q, e)| format!("{q}/ecn{e}"))),
            opt(st.ack.map(|(q, a)| format!(
                "{q}/seq{}/nxt{}/{}hop/ts{}",
                a.seq, a.snd_nxt, a.nhop, a.hops[0].ts
            ))),
            st.rate_ready,
            st.cnp_ready
        ));
    }
    s
}

/// Reset the NPs and wait for their RAM sweep to end (the NP has no table to load);
/// returns the set-up cycles. Every DUT sees the same pins.
pub fn np_bring_up(
    p: &Params,
    duts: &mut [Named<'_, NpPins, NpOuts>],
) -> Result<u64, Divergence<NpOuts>> {
    let now = Timebase::new(p).at_cycle(0);
    lockstep::bring_up(
        duts,
        [],
        |reset, _| NpPins {
            reset,
            cnp_ready: true,
            now,
            ..Default::default()
        },
        |o: &NpOuts| o.busy,
    )
}

/// What the NP's lock-step run saw.
#[derive(Clone, Debug, Default)]
pub struct NpRun {
    /// The CNP requests the consumer took, in order.
    pub cnps: Vec<CnpRequest>,
    /// The outputs of the last cycle (counters).
    pub last: NpOuts,
    /// Accepted CE-marked packets (each must be sent as a CNP request or suppressed).
    pub accepted_ce: u64,
    /// The input streams' sources: clear, received packet.
    pub sources: [lockstep::SourceStats; 2],
    /// Stimulus and drain cycles run.
    pub cycles: u64,
}

impl NpRun {
    /// Whether every accepted CE mark was decided (sent or suppressed) and every request
    /// the NP sent was taken by the consumer; what differs if not.
    pub fn every_mark_decided(&self) -> Result<(), String> {
        let c = self.last.counts;
        if c.sent + c.suppressed != self.accepted_ce || self.cnps.len() as u64 != c.sent {
            return Err(format!(
                "{} CE marks accepted; counters: {} sent, {} suppressed; {} requests taken",
                self.accepted_ce,
                c.sent,
                c.suppressed,
                self.cnps.len()
            ));
        }
        Ok(())
    }
}

/// Drain cycles after the last outcome when a QP is in HPCC mode: more than the RP's
/// report latency plus the window unit's, with both FIFOs' worth of reports.
const HPCC_DRAIN_MARGIN: usize = 512;

/// Cycles after the last decision for the counters' lag, and the drain's bound.
const DRAIN_MARGIN: usize = 4;
const DRAIN_LIMIT: usize = 100_000;

/// Run `steps` on every NP in lock step after reset and the RAM sweep, comparing all
/// outputs every cycle. Each input holds its event until the NP takes it (a step's event on
/// a busy stream is not offered); after the steps the run drains with the consumer ready
/// until both inputs are idle and every accepted CE mark is decided (counters: sent +
/// suppressed), then a few cycles more.
pub fn run_np_lockstep(
    p: &Params,
    steps: &[NpStep],
    duts: &mut [Named<'_, NpPins, NpOuts>],
) -> Result<NpRun, Divergence<NpOuts>> {
    let tb = Timebase::new(p);
    np_bring_up(p, duts)?;
    let idle = NpStep {
        dt: 1,
        clr: None,
        rx: None,
        cnp_ready: true,
    };
    let mut clr = lockstep::Source::default();
    let mut rx = lockstep::Source::default();
    let mut drain = lockstep::Drain::new(DRAIN_MARGIN, DRAIN_LIMIT);
    let mut cycle = 0u64;
    let mut run = NpRun::default();
    let mut i = 0usize;
    loop {
        let s = match steps.get(i) {
            Some(s) => *s,
            None => {
                let c = run.last.counts;
                let done = clr.idle() && rx.idle() && c.sent + c.suppressed == run.accepted_ce;
                let a = run.accepted_ce;
                if !drain.more(done, || format!("{a} CE marks accepted, counters {c:?}")) {
                    break;
                }
                idle
            }
        };
        cycle += s.dt;
        let pins = NpPins {
            reset: false,
            clr: clr.offer(s.clr),
            rx: rx.offer(s.rx),
            cnp_ready: s.cnp_ready,
            now: tb.at_cycle(cycle),
        };
        run.last = eval_all(duts, &pins, i)?;
        if let (Some(c), true) = (run.last.cnp, s.cnp_ready) {
            run.cnps.push(c);
        }
        clr.edge(run.last.clr_ready);
        if let Some((_, ecn)) = rx.edge(run.last.rx_ready) {
            run.accepted_ce += u64::from(ecn == crate::dcqcn_np::ECN_CE);
        }
        clock_all(duts);
        i += 1;
    }
    run.sources = [clr.stats(), rx.stats()];
    run.cycles = i as u64;
    Ok(run)
}

/// What the consumers of the core's outputs took during a lock-step run, and what its
/// inputs accepted.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CoreRun {
    pub rates: Vec<RateOut>,
    pub cnps: Vec<CnpRequest>,
    /// The outputs of the last cycle (counters).
    pub last: CoreOuts,
    /// Accepted events for the RP (QP in range): commands, CNPs, packets, queries.
    pub accepted_rp: u64,
    /// Accepted RP events per QP.
    pub accepted_rp_qp: Vec<u64>,
    /// QPs a set-mode to HPCC was accepted for (their ignored CNPs and packets have no
    /// report).
    pub hpcc_qps: Vec<bool>,
    /// Accepted CE-marked packets for a QP in range.
    pub accepted_ce: u64,
    /// Accepted ACKs for a QP in range with 1..=5 hops.
    pub accepted_acks: u64,
    /// Accepted events with an out-of-range QP (an ACK: or hop count), per stream (cnp,
    /// tx, query, rx, ack).
    pub rejected: [u64; 5],
    /// The input streams' sources: command, CNP, packet, query, received packet, ACK.
    pub sources: [lockstep::SourceStats; 6],
    /// Stimulus and drain cycles run.
    pub cycles: u64,
}

impl CoreRun {
    /// A report that follows an ACK (the window unit's, not a command's or a query's).
    pub fn is_ack_report(r: &RateOut) -> bool {
        r.mode == MODE_HPCC && !r.query && !r.ctl
    }

    /// Reports per QP other than the ACKs'.
    fn rp_reports_per_qp(&self) -> Vec<u64> {
        let mut n = vec![0u64; self.accepted_rp_qp.len()];
        for r in self.rates.iter().filter(|r| !Self::is_ack_report(r)) {
            n[r.qp as usize] += 1;
        }
        n
    }

    /// Whether the reports so far answer every accepted event: per QP never set to HPCC,
    /// one report per RP event; per ACK applied, one report; every accepted ACK applied
    /// or ignored (what differs, if not).
    pub fn reports_complete(&self) -> Result<(), String> {
        let o = &self.last;
        let mut err = Vec::new();
        for (q, (&got, &want)) in self
            .rp_reports_per_qp()
            .iter()
            .zip(&self.accepted_rp_qp)
            .enumerate()
        {
            let ok = if self.hpcc_qps[q] {
                got <= want
            } else {
                got == want
            };
            if !ok {
                err.push(format!("QP {q}: {want} RP events accepted, {got} reports"));
            }
        }
        let ack_reports = self.rates.iter().filter(|r| Self::is_ack_report(r)).count() as u64;
        if ack_reports != u64::from(o.acks.applied)
            || o.acks.ignored + u64::from(o.acks.applied) != self.accepted_acks
        {
            err.push(format!(
                "{} ACKs accepted; {:?}; {ack_reports} ACK reports",
                self.accepted_acks, o.acks
            ));
        }
        if err.is_empty() {
            Ok(())
        } else {
            Err(err.join("; "))
        }
    }

    /// Whether every accepted event has its outcome: a rate report per RP event (none for
    /// the ignored CNPs and packets of a QP in HPCC mode), a report per ACK applied, every
    /// ACK applied or ignored, every CE mark sent or suppressed, every request sent taken,
    /// every rejected event counted; what differs if not.
    pub fn every_event_accounted(&self) -> Result<(), String> {
        let o = &self.last;
        let bad = [
            o.bad_qp.cnp,
            o.bad_qp.tx,
            o.bad_qp.query,
            o.bad_qp.rx,
            o.bad_qp.ack,
        ];
        let mut err = Vec::new();
        if let Err(e) = self.reports_complete() {
            err.push(e);
        }
        if o.np.sent + o.np.suppressed != self.accepted_ce || self.cnps.len() as u64 != o.np.sent {
            err.push(format!(
                "{} CE marks accepted; {:?}; {} requests taken",
                self.accepted_ce,
                o.np,
                self.cnps.len()
            ));
        }
        if bad != self.rejected {
            err.push(format!(
                "out-of-range events accepted {:?}, counted {bad:?}",
                self.rejected
            ));
        }
        if err.is_empty() {
            Ok(())
        } else {
            Err(err.join("; "))
        }
    }
}

/// Run `steps` on every core in lock step after bring-up, comparing all outputs every
/// cycle. Each input holds its event until the core takes it (a step's event on a busy
/// stream is not offered); after the steps the run drains with both consumers ready until
/// every input is idle, every accepted RP event has its report and every accepted CE mark
/// is decided, then the RP's increase counters' lag and a cycle more.
pub fn run_core_lockstep(
    p: &Params,
    steps: &[CoreStep],
    duts: &mut [Named<'_, CorePins, CoreOuts>],
) -> Result<CoreRun, Divergence<CoreOuts>> {
    core_bring_up(p, duts)?;
    run_core_steps(p, steps, duts, &mut NoExtra)
}

/// What a top around the core adds to [`run_core_steps`]: its pins and outputs around the
/// core's, its own inputs' offers and its own accounting.
pub trait CoreExtra<P, O> {
    /// The top's pins for a cycle: the core's `core`, plus its own for step `step` (`None`
    /// while the run drains).
    fn pins(&mut self, step: Option<usize>, core: CorePins) -> P;
    /// The core's outputs among the top's.
    fn core_outs(o: &O) -> CoreOuts;
    /// The edge after a cycle with outputs `o`: the top's own sources and accounting (RP
    /// events it made go into `run.accepted_rp_qp`).
    fn edge(&mut self, o: &O, run: &mut CoreRun);
    /// Whether the top's own inputs hold nothing and its own work is done.
    fn idle(&self) -> bool;
}

/// The bare core: nothing around it.
pub struct NoExtra;

impl CoreExtra<CorePins, CoreOuts> for NoExtra {
    fn pins(&mut self, _: Option<usize>, core: CorePins) -> CorePins {
        core
    }
    fn core_outs(o: &CoreOuts) -> CoreOuts {
        *o
    }
    fn edge(&mut self, _: &CoreOuts, _: &mut CoreRun) {}
    fn idle(&self) -> bool {
        true
    }
}

/// [`run_core_lockstep`]'s loop after bring-up, for the core or a top around it (`x`).
pub fn run_core_steps<P, O: PartialEq + Clone, X: CoreExtra<P, O>>(
    p: &Params,
    steps: &[CoreStep],
    duts: &mut [Named<'_, P, O>],
    x: &mut X,
) -> Result<CoreRun, Divergence<O>> {
    let tb = Timebase::new(p);
    let idle = CoreStep {
        dt: 1,
        ctl: None,
        cnp: None,
        tx: None,
        query: None,
        rx: None,
        ack: None,
        rate_ready: true,
        cnp_ready: true,
    };
    let mut ctl = lockstep::Source::default();
    let mut cnp = lockstep::Source::default();
    let mut tx = lockstep::Source::default();
    let mut query = lockstep::Source::default();
    let mut rx = lockstep::Source::default();
    let mut ack = lockstep::Source::default();
    let mut drain = lockstep::Drain::new(crate::rp_harness::INC_COUNT_LAG + 2, DRAIN_LIMIT);
    let mut cycle = 0u64;
    let qps = p.qps;
    let mut run = CoreRun {
        accepted_rp_qp: vec![0; qps as usize],
        hpcc_qps: vec![false; qps as usize],
        ..CoreRun::default()
    };
    let mut i = 0usize;
    loop {
        let s = match steps.get(i) {
            Some(s) => *s,
            None => {
                let n = run.last.np;
                let done = x.idle()
                    && ctl.idle()
                    && cnp.idle()
                    && tx.idle()
                    && query.idle()
                    && rx.idle()
                    && ack.idle()
                    && run.reports_complete().is_ok()
                    && n.sent + n.suppressed == run.accepted_ce;
                // A QP in HPCC mode may still owe a query's or a command's report (it
                // cannot be told from an ignored CNP's, which has none): run the RP's and
                // the window unit's latencies and FIFOs out.
                if run.hpcc_qps.iter().any(|&h| h) {
                    drain.margin = drain.margin.max(HPCC_DRAIN_MARGIN);
                }
                let (a, r, ce) = (run.accepted_rp, run.rates.len(), run.accepted_ce);
                let rc = run.reports_complete().err().unwrap_or_default();
                if !drain.more(done, || {
                    format!("{a} RP events accepted, {r} reports ({rc}); {ce} CE marks, {n:?}")
                }) {
                    break;
                }
                idle
            }
        };
        cycle += s.dt;
        let pins = CorePins {
            reset: false,
            ctl: ctl.offer(s.ctl),
            cnp: cnp.offer(s.cnp),
            tx: tx.offer(s.tx),
            query: query.offer(s.query),
            rx: rx.offer(s.rx),
            ack: ack.offer(s.ack),
            rate_ready: s.rate_ready,
            cnp_ready: s.cnp_ready,
            now: tb.at_cycle(cycle),
            tbl: None,
        };
        let step = (i < steps.len()).then_some(i);
        let full = eval_all(duts, &x.pins(step, pins), i)?;
        let o = X::core_outs(&full);
        x.edge(&full, &mut run);
        if let (Some(r), true) = (o.rate, s.rate_ready) {
            run.rates.push(r);
        }
        if let (Some(c), true) = (o.cnp, s.cnp_ready) {
            run.cnps.push(c);
        }
        if let Some((q, k)) = ctl.edge(o.ctl_ready) {
            run.accepted_rp += 1;
            run.accepted_rp_qp[q as usize] += 1;
            if let RpKind::SetMode { mode, .. } = k {
                run.hpcc_qps[q as usize] |= mode == MODE_HPCC;
            }
        }
        let mut take = |qp: Option<u32>, stream: usize| match qp {
            Some(q) if q < qps => {
                run.accepted_rp += 1;
                run.accepted_rp_qp[q as usize] += 1;
            }
            Some(_) => run.rejected[stream] += 1,
            None => {}
        };
        take(cnp.edge(o.cnp_ready), 0);
        take(tx.edge(o.tx_ready).map(|t| t.0), 1);
        take(query.edge(o.query_ready), 2);
        match rx.edge(o.rx_ready) {
            Some((q, ecn)) if q < qps => {
                run.accepted_ce += u64::from(ecn == crate::dcqcn_np::ECN_CE)
            }
            Some(_) => run.rejected[3] += 1,
            None => {}
        }
        match ack.edge(o.ack_ready) {
            Some((q, a)) if q < qps && ack_hops_ok(a.nhop) => run.accepted_acks += 1,
            Some(_) => run.rejected[4] += 1,
            None => {}
        }
        run.last = o;
        clock_all(duts);
        i += 1;
    }
    run.sources = [
        ctl.stats(),
        cnp.stats(),
        tx.stats(),
        query.stats(),
        rx.stats(),
        ack.stats(),
    ];
    run.cycles = i as u64;
    Ok(run)
}

/// Proptest strategies for the NP and the core.
pub mod strategies {
    use super::{CoreStep, NpStep};
    use crate::core_top::MODE_HPCC;
    use crate::dcqcn_rp::RpKind;
    use crate::hpcc_stimulus::build_steps;
    use crate::hpcc_window::HpccParams;
    use crate::stimulus::strategies as rp;
    use proptest::prelude::*;
    use roce_cc_params::{CnpModeration, MAX_PERIOD_US, Params};

    /// The NP's parameters drawn onto `p`: limit 0, short, or anywhere in range; both
    /// modes; any DSCP and priority.
    pub fn with_np_params(p: Params) -> impl Strategy<Value = Params> {
        (
            prop_oneof![1 => Just(0u32), 4 => 1u32..=8, 1 => 1u32..=MAX_PERIOD_US],
            any::<bool>(),
            0u32..=63,
            0u32..=7,
        )
            .prop_map(move |(limit, per_port, dscp, prio)| {
                let mut p = p.clone();
                p.min_time_between_cnps = limit;
                p.cnp_moderation = if per_port {
                    CnpModeration::PerPort
                } else {
                    CnpModeration::PerFlow
                };
                p.cnp_dscp = dscp;
                p.cnp_802p_prio = prio;
                p.validate().expect("strategy makes valid parameters");
                p
            })
    }

    /// NP parameters for `qps` QPs (any clock).
    pub fn np_params(qps: u32) -> impl Strategy<Value = Params> {
        prop_oneof![Just(250u32), 1u32..=1000].prop_flat_map(move |clock_mhz| {
            with_np_params(Params {
                qps,
                clock_mhz,
                ..Params::default()
            })
        })
    }

    /// Core parameters: random RP parameters (as in the RP's tests) and random NP ones.
    pub fn core_params(qps: u32) -> impl Strategy<Value = Params> {
        rp::params(qps).prop_flat_map(with_np_params)
    }

    /// A time step: mostly back to back, often within a few CNP windows, sometimes seconds.
    fn dt(p: &Params) -> BoxedStrategy<u64> {
        let c = p.clock_mhz as u64;
        let w = (p.min_time_between_cnps.max(1) as u64) * c;
        prop_oneof![
            6 => 0u64..=1,
            3 => 0..=2 * w,
            1 => 0..=2_000 * c,
            1 => 0..=5_000_000 * c,
        ]
        .boxed()
    }

    /// A QP in range: from a hot set (back-to-back hits) or any.
    fn qp(qps: u32) -> BoxedStrategy<u32> {
        prop_oneof![3 => 0u32..4.min(qps), 1 => 0..qps].boxed()
    }

    /// A QP number: mostly in range, sometimes out of range (up to 24 bits).
    fn qpn(qps: u32) -> BoxedStrategy<u32> {
        prop_oneof![8 => qp(qps), 1 => qps..(1 << 24), 1 => Just(qps)].boxed()
    }

    /// An ECN field: mostly CE.
    fn ecn() -> BoxedStrategy<u8> {
        prop_oneof![4 => Just(3u8), 1 => 0u8..=2].boxed()
    }

    fn ready() -> BoxedStrategy<bool> {
        prop_oneof![3 => Just(true), 1 => Just(false)].boxed()
    }

    /// One NP cycle.
    pub fn np_step(p: &Params) -> impl Strategy<Value = NpStep> + use<> {
        (
            dt(p),
            proptest::option::weighted(0.05, qp(p.qps)),
            proptest::option::weighted(0.7, (qp(p.qps), ecn())),
            ready(),
        )
            .prop_map(|(dt, clr, rx, cnp_ready)| NpStep {
                dt,
                clr,
                rx,
                cnp_ready,
            })
    }

    /// One core cycle: every stream but the ACKs' offered at random (idle cycles on every
    /// input), random backpressure on both outputs; set-modes to all four modes, half of
    /// them to HPCC.
    pub fn core_step(p: &Params) -> impl Strategy<Value = CoreStep> + use<> {
        let q = p.qps;
        let ctl = (qp(q), 0u32..6, any::<u32>()).prop_map(|(qp, kind, rate)| {
            let k = match kind {
                0 => RpKind::Reset,
                5 => RpKind::Query,
                1 | 2 => RpKind::SetMode {
                    mode: MODE_HPCC,
                    rate_q8: rate >> 4,
                },
                _ => RpKind::SetMode {
                    mode: rate % 3,
                    rate_q8: rate >> 4,
                },
            };
            (qp, k)
        });
        (
            (dt(p), proptest::option::weighted(0.04, ctl)),
            proptest::option::weighted(0.3, qpn(q)),
            proptest::option::weighted(0.3, (qpn(q), 1u32..=65535)),
            proptest::option::weighted(0.3, qpn(q)),
            proptest::option::weighted(0.5, (qpn(q), ecn())),
            ready(),
            ready(),
        )
            .prop_map(
                |((dt, ctl), cnp, tx, query, rx, rate_ready, cnp_ready)| CoreStep {
                    dt,
                    ctl,
                    cnp,
                    tx,
                    query,
                    rx,
                    ack: None,
                    rate_ready,
                    cnp_ready,
                },
            )
    }

    /// ACKs of real flows (`hpcc_stimulus::build_steps`: wrapping fields, path changes,
    /// tau = 0 and tau > T, every link code) put on `steps`, one per `raw` word while they
    /// last; a `raw` tag of 0 makes the ACK's hop count 0, 6 or 7 and a tag of 1 its QP
    /// number out of range (both are rejected).
    pub fn with_acks(p: &Params, steps: &mut [CoreStep], seed: u64, raw: &[(u64, u64, u8)]) {
        let hp = HpccParams::from_params(p);
        let words: Vec<(u64, u64)> = raw.iter().map(|&(a, b, _)| (a, b)).collect();
        let acks = build_steps(&hp, p.qps, seed, 8, &words);
        for ((s, h), &(_, w, tag)) in steps.iter_mut().zip(&acks).zip(raw) {
            s.ack = h.ack.map(|(q, mut a)| match tag {
                0 => {
                    a.nhop = [0, 6, 7][(w % 3) as usize];
                    (q, a)
                }
                1 => (p.qps + (w % (1 << 20)) as u32, a),
                _ => (q, a),
            });
        }
    }

    /// NP parameters and `1..=len` steps.
    pub fn np_case(qps: u32, len: usize) -> impl Strategy<Value = (Params, Vec<NpStep>)> {
        np_params(qps).prop_flat_map(move |p| {
            let steps = proptest::collection::vec(np_step(&p), 1..=len);
            (Just(p), steps)
        })
    }

    /// Core parameters and `1..=len` steps, with ACKs on about half of them.
    pub fn core_case(qps: u32, len: usize) -> impl Strategy<Value = (Params, Vec<CoreStep>)> {
        core_params(qps)
            .prop_flat_map(move |p| {
                let steps = proptest::collection::vec(core_step(&p), 1..=len);
                let raw = proptest::collection::vec((any::<u64>(), any::<u64>(), 0u8..24), 0..=len);
                (Just(p), steps, any::<u64>(), raw)
            })
            .prop_map(|(p, mut steps, seed, raw)| {
                // Half of the ACK words offer nothing: ACKs on about half of the steps.
                let raw: Vec<(u64, u64, u8)> = raw
                    .into_iter()
                    .map(|(a, b, t)| {
                        if t >= 14 {
                            (a & !0xf8, b, t)
                        } else {
                            (a, b, t)
                        }
                    })
                    .collect();
                with_acks(&p, &mut steps, seed, &raw);
                (p, steps)
            })
    }
}
