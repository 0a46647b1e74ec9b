//! Random stimulus and the lock-step runner of the HPCC window unit (its harness is
//! [`crate::hpcc_harness`]).
//!
//! A step is one cycle: an ACK or a command that arrives (queued behind earlier ones of its
//! stream and offered under the valid/ready rule, so none is lost) and whether the report
//! consumer is ready. The ACKs of a QP follow one another as a real flow's do: each hop's
//! timestamp and tx counter advance from the QP's last ACK (by 0, by a fraction of T, or by
//! more than T; both wrap: QPs start near the top of their ranges), queues come and go,
//! `seq` and `snd_nxt` grow so that some ACKs commit and others fall in the same round trip,
//! and now and then the path changes (a different hop count).

use crate::hpcc_harness::{HpccOuts, HpccPins, HpccRep};
use crate::hpcc_window::{Ack, HOPS_MAX, Hop, HpccParams, LINK_GBPS, QLEN_W, TS_W, TX_W};
use crate::lockstep::{self, Divergence, Named, clock_all, eval_all};

/// One cycle of stimulus.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HpccStep {
    /// An ACK that arrives this cycle: `(qp, ack)`.
    pub ack: Option<(u32, Ack)>,
    /// A command that arrives this cycle: `(qp, op)`.
    pub cmd: Option<(u32, u8)>,
    /// Report consumer ready.
    pub rep_ready: bool,
}

/// The steps of a failing case up to `upto`, one per line.
pub fn describe_hpcc_steps(steps: &[HpccStep], upto: usize) -> String {
    let mut s = String::new();
    for (i, st) in steps.iter().enumerate().take(upto.saturating_add(1)) {
        let ack = st.ack.map_or_else(
            || "-".to_string(),
            |(qp, a)| {
                let hops: Vec<String> = a.hops[..a.nhop as usize]
                    .iter()
                    .map(|h| format!("c{}/ts{}/tx{}/q{}", h.rate, h.ts, h.tx, h.qlen))
                    .collect();
                format!(
                    "qp {qp} seq {} snd {} [{}]",
                    a.seq,
                    a.snd_nxt,
                    hops.join(" ")
                )
            },
        );
        let cmd = st
            .cmd
            .map_or_else(|| "-".to_string(), |(q, op)| format!("{q}/op{op}"));
        s.push_str(&format!(
            "  {i:4}: ack {ack:<90} cmd {cmd:<8} rep_ready {}\n",
            st.rep_ready
        ));
    }
    s
}

/// Reset for two cycles, then idle until the sweep is done.
pub fn hpcc_bring_up(
    duts: &mut [Named<'_, HpccPins, HpccOuts>],
) -> Result<u64, Divergence<HpccOuts>> {
    lockstep::bring_up(
        duts,
        [],
        |reset, _| HpccPins {
            reset,
            rep_ready: true,
            ..Default::default()
        },
        |o: &HpccOuts| o.busy,
    )
}

/// What a lock-step run saw.
#[derive(Clone, Debug, Default)]
pub struct HpccRun {
    /// Reports taken, in order.
    pub reps: Vec<(u32, HpccRep)>,
    /// ACKs and commands accepted.
    pub accepted_acks: u64,
    pub accepted_cmds: u64,
    /// The outputs of the last cycle (counters).
    pub last: HpccOuts,
    /// The ACK and command sources.
    pub sources: [lockstep::SourceStats; 2],
    /// Cycles with the consumer ready and an event held that did not go in.
    pub cycles: u64,
}

impl HpccRun {
    /// Whether every accepted event was reported once and every ACK counted.
    pub fn every_event_reported(&self) -> Result<(), String> {
        let want = self.accepted_acks + self.accepted_cmds;
        let acks = self.reps.iter().filter(|(_, r)| r.kind == 0).count() as u64;
        if self.reps.len() as u64 != want || acks != self.accepted_acks {
            return Err(format!(
                "{} ACKs and {} commands accepted, {} reports ({acks} of ACKs)",
                self.accepted_acks,
                self.accepted_cmds,
                self.reps.len()
            ));
        }
        if u64::from(self.last.acks) != self.accepted_acks {
            return Err(format!(
                "{} ACKs accepted, cnt_acks {}",
                self.accepted_acks, self.last.acks
            ));
        }
        let commits = self.reps.iter().filter(|(_, r)| r.commit).count() as u64;
        if u64::from(self.last.commits) != commits {
            return Err(format!(
                "{commits} committing reports, cnt_commits {}",
                self.last.commits
            ));
        }
        Ok(())
    }
}

/// Cycles after the last report for the counters (they count at the FIFO's write).
const DRAIN_MARGIN: usize = 3;
/// The drain's limit: the pipeline, the FIFO and every queued event at 8 cycles each.
const DRAIN_LIMIT_BASE: usize = 1000;

/// Runs `steps` on `duts` (after [`hpcc_bring_up`]), then drains until every accepted event
/// is reported.
pub fn run_hpcc_lockstep(
    steps: &[HpccStep],
    duts: &mut [Named<'_, HpccPins, HpccOuts>],
) -> Result<HpccRun, Divergence<HpccOuts>> {
    hpcc_bring_up(duts)?;
    let mut ack_q = std::collections::VecDeque::new();
    let mut cmd_q = std::collections::VecDeque::new();
    let mut ack_src = lockstep::Source::default();
    let mut cmd_src = lockstep::Source::default();
    let limit = DRAIN_LIMIT_BASE + 8 * steps.len();
    let mut drain = lockstep::Drain::new(DRAIN_MARGIN, limit);
    let mut run = HpccRun::default();
    let mut i = 0usize;
    loop {
        let s = match steps.get(i) {
            Some(s) => *s,
            None => {
                let done = ack_q.is_empty()
                    && cmd_q.is_empty()
                    && ack_src.idle()
                    && cmd_src.idle()
                    && run.reps.len() as u64 == run.accepted_acks + run.accepted_cmds;
                let (a, c, r) = (run.accepted_acks, run.accepted_cmds, run.reps.len());
                if !drain.more(done, || {
                    format!("{a} ACKs and {c} commands accepted, {r} reports")
                }) {
                    break;
                }
                HpccStep {
                    ack: None,
                    cmd: None,
                    rep_ready: true,
                }
            }
        };
        ack_q.extend(s.ack);
        cmd_q.extend(s.cmd);
        let new_ack = if ack_src.idle() {
            ack_q.pop_front()
        } else {
            None
        };
        let new_cmd = if cmd_src.idle() {
            cmd_q.pop_front()
        } else {
            None
        };
        let pins = HpccPins {
            reset: false,
            ack: ack_src.offer(new_ack),
            cmd: cmd_src.offer(new_cmd),
            rep_ready: s.rep_ready,
        };
        run.last = eval_all(duts, &pins, i)?;
        if let (Some(r), true) = (run.last.rep, s.rep_ready) {
            run.reps.push(r);
        }
        run.accepted_acks += ack_src.edge(run.last.ack_ready).is_some() as u64;
        run.accepted_cmds += cmd_src.edge(run.last.cmd_ready).is_some() as u64;
        clock_all(duts);
        i += 1;
    }
    run.sources = [ack_src.stats(), cmd_src.stats()];
    run.cycles = i as u64;
    Ok(run)
}

/// The flow state of one QP while its ACKs are made.
#[derive(Clone, Copy, Debug)]
struct FlowState {
    nhop: u8,
    hops: [Hop; HOPS_MAX],
    seq: u32,
}

/// A small deterministic generator (the strategies draw its seed and the per-step words).
fn mix(mut x: u64) -> u64 {
    x ^= x >> 33;
    x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
    x ^= x >> 33;
    x = x.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    x ^ (x >> 33)
}

/// Turns raw step words into steps with real flows (see the module doc): `raw` holds per
/// step a word choosing the event and its QP, and a word from which the ACK's fields are
/// drawn. `qps` QPs, `hot` of them hot; `ready_per_8` is how often the consumer is ready.
pub fn build_steps(
    p: &HpccParams,
    qps: u32,
    seed: u64,
    ready_per_8: u64,
    raw: &[(u64, u64)],
) -> Vec<HpccStep> {
    let mut flows: Vec<FlowState> = (0..qps)
        .map(|q| {
            let r = mix(seed ^ (q as u64 + 1) * 0x9e37_79b9);
            let near_top = r & 1 == 1;
            let mut hops = [Hop::default(); HOPS_MAX];
            for (i, h) in hops.iter_mut().enumerate() {
                let ri = mix(r.wrapping_add(i as u64 + 7));
                h.rate = (ri % 8) as u8;
                h.ts = if near_top {
                    (1 << TS_W) - 1 - (ri >> 8) as u32 % 60_000
                } else {
                    (ri >> 8) as u32 % (1 << TS_W)
                };
                h.tx = if near_top {
                    (1 << TX_W) - 1 - (ri >> 32) as u32 % 3000
                } else {
                    (ri >> 32) as u32 % (1 << TX_W)
                };
            }
            FlowState {
                nhop: 1 + (r >> 40) as u8 % HOPS_MAX as u8,
                hops,
                seq: 1 + (r >> 20) as u32 % 100_000,
            }
        })
        .collect();
    let t = p.base_rtt_ns as u64;
    raw.iter()
        .map(|&(ev, w)| {
            let rep_ready = (ev & 7) < ready_per_8;
            let sel = (ev >> 3) % 16;
            let qp = if (ev >> 8) & 3 != 0 {
                ((ev >> 12) % 3) as u32 % qps
            } else {
                ((ev >> 12) % qps as u64) as u32
            };
            let cmd = match sel {
                0 => Some((qp, 1u8)),
                1 if (ev >> 20) % 4 == 0 => Some((qp, 0u8)),
                _ => None,
            };
            let ack = (sel >= 2 && sel < 15).then(|| {
                let f = &mut flows[qp as usize];
                let r = mix(w);
                // A path change: another hop count (and new links).
                if r % 24 == 0 {
                    f.nhop = 1 + ((r >> 8) as u8 % 4 + f.nhop) % HOPS_MAX as u8;
                    for (i, h) in f.hops.iter_mut().enumerate() {
                        h.rate = ((r >> (12 + 3 * i)) % 8) as u8;
                    }
                }
                // The round trip's tau: none, a fraction of T, about T, beyond T.
                let class = (r >> 24) % 16;
                let base = match class {
                    0 => 0,
                    1..=9 => 1 + (r >> 28) % (t / 4).max(1),
                    10..=13 => 1 + (r >> 28) % (2 * t),
                    _ => 1 + (r >> 28) % (1 << 23),
                };
                let util_q8 = (r >> 44) % 400; // 0 to 1.56 of the link
                for i in 0..f.nhop as usize {
                    let ri = mix(r ^ (i as u64 + 1));
                    let h = &mut f.hops[i];
                    let tau = if ri % 7 == 0 {
                        0
                    } else {
                        base + (ri >> 8) % (base / 8 + 1)
                    };
                    h.ts = ((h.ts as u64 + tau) % (1 << TS_W)) as u32;
                    let gbps = LINK_GBPS[h.rate as usize] as u64;
                    let util = util_q8 * (896 + (ri >> 16) % 256) / 1024; // +-12 %
                    let bytes = util * gbps * tau / (8 * 256);
                    let dtx = bytes / (128 * p.int_multi as u64);
                    h.tx = ((h.tx as u64 + dtx) % (1 << TX_W)) as u32;
                    h.qlen = match (ri >> 40) % 8 {
                        0..=3 => 0,
                        4..=6 => ((ri >> 44) % 2000) as u32,
                        _ => ((ri >> 44) % (1 << QLEN_W)) as u32,
                    };
                }
                f.seq = f.seq.wrapping_add(((r >> 50) % 20_000) as u32);
                Ack {
                    seq: f.seq,
                    snd_nxt: f.seq.wrapping_add(1 + ((r >> 36) % 30_000) as u32),
                    hops: f.hops,
                    nhop: f.nhop,
                }
            });
            HpccStep {
                ack: ack.map(|a| (qp, a)),
                cmd,
                rep_ready,
            }
        })
        .collect()
}

/// Proptest strategies.
pub mod strategies {
    use super::{HpccStep, build_steps};
    use crate::hpcc_window::{HpccParams, LINK_GBPS};
    use proptest::prelude::*;

    /// hpcc.md's parameters anywhere in their ranges (the line rate one of the link codes').
    pub fn params() -> impl Strategy<Value = HpccParams> {
        (
            prop_oneof![Just(8000u32), Just(1000), 1000u32..=1_000_000],
            prop_oneof![Just(973u32), 512u32..=1024],
            prop_oneof![2 => Just(0u32), 1 => Just(5), 1 => 0u32..=15],
            0usize..8,
            0u32..=1000,
            0u32..=1000,
            prop_oneof![Just(1u32), 1u32..=64],
        )
            .prop_map(|(t, eta, stage, code, ai_pm, min_pm, multi)| {
                let line = LINK_GBPS[code] * 1000;
                HpccParams {
                    base_rtt_ns: t,
                    eta,
                    max_stage: stage,
                    rate_ai_mbps: (line as u64 * ai_pm as u64 / 20_000).max(1) as u32,
                    min_rate_mbps: (line as u64 * min_pm as u64 / 1000).max(1) as u32,
                    max_rate_mbps: line,
                    int_multi: multi,
                }
            })
    }

    /// Parameters and up to `max_steps` steps on `qps` QPs.
    pub fn case(qps: u32, max_steps: usize) -> impl Strategy<Value = (HpccParams, Vec<HpccStep>)> {
        (
            params(),
            any::<u64>(),
            prop_oneof![3 => Just(8u64), 2 => 5u64..=7, 1 => 0u64..=2],
            prop::collection::vec((any::<u64>(), any::<u64>()), 1..=max_steps),
        )
            .prop_map(move |(p, seed, ready, raw)| {
                let steps = build_steps(&p, qps, seed, ready, &raw);
                (p, steps)
            })
    }
}
