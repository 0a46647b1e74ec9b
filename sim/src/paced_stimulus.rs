//! Random stimulus and the lock-step runner for the core with the pacer inside
//! (`roce_cc_hdl::paced_core`): the core's steps ([`crate::core_stimulus`]) plus, per step,
//! a doorbell and the port's ready.

use crate::core_harness::{CoreOuts, CorePins};
use crate::core_stimulus::{CoreExtra, CoreRun, CoreStep, run_core_steps};
use crate::dcqcn_rp::RpConfig;
use crate::lockstep::{self, Divergence, Named, bring_up};
use crate::paced_harness::{PacedOuts, PacedPins};
use crate::rp_harness::table_writes;
use crate::timebase::Timebase;
use roce_cc_params::Params;
use std::cell::Cell;

/// The pacer's side of one step.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PaceStep {
    /// Offered doorbell `{qpn, bytes}` (the QP number may be out of range).
    pub post: Option<(u32, u32)>,
    /// The port is ready for a grant.
    pub tx_ready: bool,
}

/// What the pacer's side of a lock-step run saw.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PaceRun {
    /// Bytes posted per QP (accepted doorbells for a QP in range).
    pub posted: Vec<u64>,
    /// Grants the port took, in order: `{now_cycles, qp, bytes}`.
    pub grants: Vec<(u64, u32, u32)>,
    /// Doorbells accepted for an out-of-range QP.
    pub rejected_posts: u64,
    /// The outputs of the last cycle (the pacer's counters).
    pub last: PacedOuts,
    /// The doorbell source.
    pub source: lockstep::SourceStats,
}

impl PaceRun {
    /// Whether the grants fit the doorbells (no QP granted more than posted, no empty
    /// grant), and the counters agree with what the port took; what differs if not.
    pub fn grants_accounted(&self) -> Result<(), String> {
        let mut err = Vec::new();
        let mut granted = vec![0u64; self.posted.len()];
        for &(_, q, b) in &self.grants {
            if b == 0 {
                err.push(format!("an empty grant for QP {q}"));
            }
            granted[q as usize] += u64::from(b);
        }
        for (q, (&g, &p)) in granted.iter().zip(&self.posted).enumerate() {
            if g > p {
                err.push(format!("QP {q}: {p} bytes posted, {g} granted"));
            }
        }
        let c = self.last.counts;
        let bytes: u64 = granted.iter().sum();
        if c.grants != self.grants.len() as u64 || c.grant_bytes != bytes {
            err.push(format!(
                "{} grants of {bytes} bytes taken, counted {} of {}",
                self.grants.len(),
                c.grants,
                c.grant_bytes
            ));
        }
        if c.bad_post != self.rejected_posts {
            err.push(format!(
                "{} out-of-range doorbells, counted {}",
                self.rejected_posts, c.bad_post
            ));
        }
        if err.is_empty() {
            Ok(())
        } else {
            Err(err.join("; "))
        }
    }
}

/// The pacer's side of the run, as [`CoreExtra`].
struct PacedExtra<'a> {
    steps: &'a [PaceStep],
    qps: u32,
    now_cycles: u64,
    post: lockstep::Source<(u32, u32)>,
    /// This cycle's pins (for the edge).
    pins: PacedPins,
    run: PaceRun,
}

impl CoreExtra<PacedPins, PacedOuts> for PacedExtra<'_> {
    fn pins(&mut self, step: Option<usize>, core: CorePins) -> PacedPins {
        let s = step
            .and_then(|i| self.steps.get(i))
            .copied()
            .unwrap_or_default();
        self.pins = PacedPins {
            core,
            now_cycles: self.now_cycles,
            post: self.post.offer(s.post),
            // While the run drains the port takes nothing: the grants already taken reach
            // the RP, and no new ones leave.
            tx_ready: step.is_some() && s.tx_ready,
        };
        self.pins
    }

    fn core_outs(o: &PacedOuts) -> CoreOuts {
        o.core
    }

    fn edge(&mut self, o: &PacedOuts, run: &mut CoreRun) {
        match self.post.edge(o.post_ready) {
            Some((q, b)) if q < self.qps => self.run.posted[q as usize] += u64::from(b),
            Some(_) => self.run.rejected_posts += 1,
            None => {}
        }
        if let (Some((q, b)), true) = (o.grant, self.pins.tx_ready) {
            self.run.grants.push((self.pins.now_cycles, q, b));
            // Every grant is also a transmitted packet for the RP: a report is owed.
            run.accepted_rp += 1;
            run.accepted_rp_qp[q as usize] += 1;
        }
        self.run.last = *o;
        self.now_cycles += 1;
    }

    fn idle(&self) -> bool {
        self.post.idle()
    }
}

/// Reset, load the RP's power table, wait for both sweeps; `now_cycles` counts from 0 at
/// the first reset cycle. Returns the set-up cycles (the `now_cycles` of the first step).
pub fn paced_bring_up(
    p: &Params,
    duts: &mut [Named<'_, PacedPins, PacedOuts>],
) -> Result<u64, Divergence<PacedOuts>> {
    let now = Timebase::new(p).at_cycle(0);
    let cycle = Cell::new(0u64);
    bring_up(
        duts,
        table_writes(&RpConfig::new(p)),
        |reset, tbl| {
            let c = cycle.get();
            cycle.set(c + 1);
            PacedPins {
                core: CorePins {
                    reset,
                    rate_ready: true,
                    cnp_ready: true,
                    now,
                    tbl,
                    ..Default::default()
                },
                now_cycles: c,
                post: None,
                tx_ready: false,
            }
        },
        |o: &PacedOuts| o.core.busy,
    )
}

/// Run the core's `steps` with the pacer's `pace` beside them (step `i` with `pace[i]`) on
/// every paced core in lock step after bring-up, comparing all outputs every cycle. The
/// run drains as the core's does, with the port not ready, until every grant the port took
/// has its RP report.
pub fn run_paced_lockstep(
    p: &Params,
    steps: &[CoreStep],
    pace: &[PaceStep],
    duts: &mut [Named<'_, PacedPins, PacedOuts>],
) -> Result<(CoreRun, PaceRun), Divergence<PacedOuts>> {
    let start = paced_bring_up(p, duts)?;
    let mut x = PacedExtra {
        steps: pace,
        qps: p.qps,
        now_cycles: start,
        post: lockstep::Source::default(),
        pins: PacedPins::default(),
        run: PaceRun {
            posted: vec![0; p.qps as usize],
            ..PaceRun::default()
        },
    };
    let core = run_core_steps(p, steps, duts, &mut x)?;
    x.run.source = x.post.stats();
    Ok((core, x.run))
}

/// The steps of a failing case up to `upto`, one per line (the core's and the pacer's).
pub fn describe_paced_steps(steps: &[CoreStep], pace: &[PaceStep], upto: usize) -> String {
    let core = crate::core_stimulus::describe_core_steps(steps, upto);
    let mut out = String::new();
    for (i, (line, s)) in core.lines().zip(pace).enumerate() {
        out.push_str(&format!(
            "{line}  post {:?} port {}\n",
            s.post, s.tx_ready as u8
        ));
        if i >= upto {
            break;
        }
    }
    out
}

/// Proptest strategies for the pacer's side.
pub mod strategies {
    use super::PaceStep;
    use proptest::prelude::*;

    /// One step of the pacer's side: a doorbell on about a third of the steps (a QP from a
    /// hot set of 4, any in range, or out of range up to 24 bits; 1 byte to three
    /// packets), the port ready on 3 steps in 4.
    pub fn pace_step(qps: u32) -> impl Strategy<Value = PaceStep> {
        let qpn = prop_oneof![
            6 => 0u32..4,
            3 => 0..qps,
            1 => qps..(1 << 24),
        ];
        let bytes = prop_oneof![1 => 1u32..64, 2 => 64u32..=12_288];
        (
            proptest::option::weighted(0.3, (qpn, bytes)),
            proptest::bool::weighted(0.75),
        )
            .prop_map(|(post, tx_ready)| PaceStep { post, tx_ready })
    }
}
