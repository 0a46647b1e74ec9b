//! Throughput benchmark of a unit under a named traffic pattern (`roce-cc bench`).
//!
//! A unit (the RP, the NP or the core top) is driven cycle by cycle, normally as Verilated
//! RTL, by one source per input stream. Each source keeps the stream rule: it offers an
//! event, holds `valid` and the payload until the unit is ready, and only then draws the
//! pattern's next event for that stream. Both outputs' consumers are always ready, so what
//! the table shows is the unit's input side: how many events each stream offered and got
//! accepted in the window, how many cycles it was held off (`valid && !ready`), the
//! longest any one event waited, and the reports the accepted events produced.
//!
//! After the window the sources draw no new events, and the unit runs until every held
//! event is taken and every accepted event is reported (an event held when the window
//! closes is taken then and counted as accepted); events per cycle is accepted events over
//! window cycles.
//!
//! Patterns (the data streams are the RP's packet stream and the NP's received packets;
//! one event per cycle on each, when its source is free):
//!
//! | pattern | events |
//! |---|---|
//! | `one-qp` | every event on QP 0 |
//! | `two-qp` | QPs 0 and 1 alternately |
//! | `round-robin` | QP `k mod qps` for the `k`th event |
//! | `random` | a uniformly random QP each event |
//! | `mixed` | every input stream at once on random QPs: packets every cycle, CNPs and queries on a quarter of the cycles, commands on 1 in 256; received packets every cycle, half of them CE-marked |
//!
//! For the HPCC window unit (`hpcc`) the data stream is the ACK stream (each QP's ACKs
//! those of a steady two-hop flow: timestamps 500 ns apart, a commit every fourth ACK)
//! and `mixed` adds queries on a quarter of the cycles and initialisations on 1 in 256 on
//! its command stream. Its parameters are hpcc.md's defaults at the line rate.

use crate::core_harness::{CoreOuts, CorePins, GoldenCoreCycle, core_bring_up};
use crate::dcqcn_np::ECN_CE;
use crate::dcqcn_rp::RpKind;
use crate::hpcc_harness::{GoldenHpccCycle, HpccOuts, HpccPins};
use crate::hpcc_stimulus::hpcc_bring_up;
use crate::hpcc_window::{Ack, Hop, HpccParams};
use crate::lockstep::{self, CycleDut, Named, Source};
use crate::np_harness::{GoldenNpCycle, NpOuts, NpPins};
use crate::rp_harness::{GoldenRpCycle, RpOuts, RpPins};
use crate::stimulus::XorShift;
use crate::timebase::{TimeStamp, Timebase};
use crate::verilated::{VerilatedCore, VerilatedHpcc, VerilatedNp, VerilatedRp};
use roce_cc_hdl::hpcc_window::window::{CMD_INIT, CMD_QUERY};
use roce_cc_params::Params;
use std::collections::VecDeque;
use std::fmt;
use std::time::Instant;

/// The unit under test.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    /// The DCQCN reaction point (`dcqcn_rp`): commands, CNPs, packets, queries.
    Rp,
    /// The notification point (`dcqcn_np`): clears, received packets.
    Np,
    /// The core top (`roce_cc_core`): the RP's streams and received packets.
    Core,
    /// The HPCC window unit (`hpcc_window`): ACKs, commands.
    Hpcc,
}

impl Unit {
    pub const ALL: [Unit; 4] = [Unit::Rp, Unit::Np, Unit::Core, Unit::Hpcc];

    pub fn name(self) -> &'static str {
        match self {
            Unit::Rp => "rp",
            Unit::Np => "np",
            Unit::Core => "core",
            Unit::Hpcc => "hpcc",
        }
    }

    /// QP counts with a Verilated model of this unit.
    pub fn rtl_qps(self) -> &'static [u32] {
        match self {
            Unit::Rp => &[16, 1024],
            Unit::Np => &[16],
            Unit::Core => &[16, 1024, 16384],
            Unit::Hpcc => &VerilatedHpcc::SIZES,
        }
    }

    fn streams(self) -> &'static [Stream] {
        match self {
            Unit::Rp => &[Stream::Ctl, Stream::Cnp, Stream::Tx, Stream::Query],
            Unit::Np => &[Stream::Clr, Stream::Rx],
            Unit::Core => &[
                Stream::Ctl,
                Stream::Cnp,
                Stream::Tx,
                Stream::Query,
                Stream::Rx,
            ],
            Unit::Hpcc => &[Stream::Ack, Stream::HpccCmd],
        }
    }
}

/// A named traffic pattern (module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pattern {
    OneQp,
    TwoQp,
    RoundRobin,
    Random,
    Mixed,
}

impl Pattern {
    pub const ALL: [Pattern; 5] = [
        Pattern::OneQp,
        Pattern::TwoQp,
        Pattern::RoundRobin,
        Pattern::Random,
        Pattern::Mixed,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Pattern::OneQp => "one-qp",
            Pattern::TwoQp => "two-qp",
            Pattern::RoundRobin => "round-robin",
            Pattern::Random => "random",
            Pattern::Mixed => "mixed",
        }
    }
}

/// The implementation driven.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    /// The Verilated Verilog.
    Rtl,
    /// The golden model with the hardware's pipeline timing (equal to the RTL cycle by
    /// cycle; the three-way tests check it).
    Golden,
}

/// One input stream of a unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stream {
    Ctl,
    Cnp,
    Tx,
    Query,
    Rx,
    Clr,
    Ack,
    HpccCmd,
}

impl Stream {
    fn name(self) -> &'static str {
        match self {
            Stream::Ctl => "command",
            Stream::Cnp => "cnp",
            Stream::Tx => "packet",
            Stream::Query => "query",
            Stream::Rx => "rx",
            Stream::Clr => "clear",
            Stream::Ack => "ack",
            Stream::HpccCmd => "command",
        }
    }
}

/// An event on one stream.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ev {
    Ctl(u32, RpKind),
    Qp(u32),
    Tx(u32, u32),
    Rx(u32, u8),
    /// An ACK: QP and the ACK's number (its fields follow from it, `hpcc_ack`).
    Ack(u32, u64),
    /// An HPCC command: QP and op.
    HpccCmd(u32, u8),
}

impl Ev {
    /// The event's QP.
    fn qp(self) -> u32 {
        match self {
            Ev::Ctl(q, _) | Ev::Qp(q) | Ev::Tx(q, _) | Ev::Rx(q, _) => q,
            Ev::Ack(q, _) | Ev::HpccCmd(q, _) => q,
        }
    }
}

/// One row of the table: one input stream, or `all` of them.
#[derive(Clone, Debug, PartialEq)]
pub struct BenchRow {
    pub unit: &'static str,
    pub pattern: &'static str,
    pub qps: u32,
    pub stream: &'static str,
    /// Window cycles.
    pub cycles: u64,
    /// Events the source offered (each once, however long it was held).
    pub offered: u64,
    /// Events the unit took.
    pub accepted: u64,
    /// Accepted events per window cycle.
    pub events_per_cycle: f64,
    /// Cycles with `valid` high and `ready` low (summed over streams for `all`).
    pub not_ready_cycles: u64,
    /// Cycles the longest-held event waited from its first offer to its acceptance.
    pub longest_wait: u64,
    /// Reports produced by this stream's accepted events: rate reports for the RP's
    /// streams, CNP requests for received packets.
    pub reports: u64,
    /// Simulated cycles per second of wall time (window and drain), for `all`.
    pub sim_cycles_per_s: f64,
}

impl BenchRow {
    /// The row as one JSON object.
    pub fn to_json(&self) -> String {
        format!(
            "{{\"unit\": \"{}\", \"pattern\": \"{}\", \"qps\": {}, \"stream\": \"{}\", \
             \"cycles\": {}, \"offered\": {}, \"accepted\": {}, \"events_per_cycle\": {:.4}, \
             \"not_ready_cycles\": {}, \"longest_wait\": {}, \"reports\": {}, \
             \"sim_cycles_per_s\": {:.0}}}",
            self.unit,
            self.pattern,
            self.qps,
            self.stream,
            self.cycles,
            self.offered,
            self.accepted,
            self.events_per_cycle,
            self.not_ready_cycles,
            self.longest_wait,
            self.reports,
            self.sim_cycles_per_s
        )
    }
}

/// The table header for [`BenchRow`]'s `Display`.
pub const TABLE_HEADER: &str = "| unit | pattern | QPs | stream | offered | accepted | events/cycle | not-ready cycles | longest wait | reports |\n|---|---|---|---|---|---|---|---|---|---|";

impl fmt::Display for BenchRow {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "| {} | {} | {} | {} | {} | {} | {:.4} | {} | {} | {} |",
            self.unit,
            self.pattern,
            self.qps,
            self.stream,
            self.offered,
            self.accepted,
            self.events_per_cycle,
            self.not_ready_cycles,
            self.longest_wait,
            self.reports
        )
    }
}

/// A unit behind the bench's common interface: offers per stream in, readies and reports
/// out.
trait BenchDut {
    /// Drive one cycle's offers (in `Unit::streams` order); the readies, the QP of the rate
    /// report that leaves this cycle, if any, and whether a CNP request leaves (consumers
    /// always ready).
    fn eval(&mut self, offers: &[Option<Ev>], now: TimeStamp) -> (Vec<bool>, Option<u32>, bool);
    fn clock(&mut self);
}

struct RpBench(Box<dyn CycleDut<RpPins, RpOuts>>);
struct NpBench(Box<dyn CycleDut<NpPins, NpOuts>>);
struct CoreBench(Box<dyn CycleDut<CorePins, CoreOuts>>);
struct HpccBench(Box<dyn CycleDut<HpccPins, HpccOuts>>);

/// The `n`th ACK of the bench (of whichever QP): a two-hop flow at about 90 % of a
/// 100 Gb/s link whose timestamps advance 500 ns per ACK number, so a QP's successive
/// ACKs always see `tau > 0`; every fourth ACK passes `last_update_seq` and commits.
fn hpcc_ack(n: u64) -> Ack {
    let hop = |i: u64| Hop {
        rate: 2,
        ts: ((n * 500 + i * 77) % (1 << 24)) as u32,
        tx: ((n * 44) % (1 << 20)) as u32,
        qlen: (n % 5 * 100) as u32,
    };
    let seq = (n * 1000 + 1) as u32;
    Ack {
        seq,
        snd_nxt: seq.wrapping_add(3500),
        hops: [
            hop(0),
            hop(1),
            Hop::default(),
            Hop::default(),
            Hop::default(),
        ],
        nhop: 2,
    }
}

impl BenchDut for HpccBench {
    fn eval(&mut self, o: &[Option<Ev>], _now: TimeStamp) -> (Vec<bool>, Option<u32>, bool) {
        let ack = match o[0] {
            Some(Ev::Ack(q, n)) => Some((q, hpcc_ack(n))),
            _ => None,
        };
        let cmd = match o[1] {
            Some(Ev::HpccCmd(q, op)) => Some((q, op)),
            _ => None,
        };
        let out = self.0.eval(&HpccPins {
            reset: false,
            ack,
            cmd,
            rep_ready: true,
        });
        (
            vec![out.ack_ready, out.cmd_ready],
            out.rep.map(|(q, _)| q),
            false,
        )
    }
    fn clock(&mut self) {
        self.0.clock();
    }
}

fn qp_of(e: Option<Ev>) -> Option<u32> {
    match e {
        Some(Ev::Qp(q)) => Some(q),
        _ => None,
    }
}
fn ctl_of(e: Option<Ev>) -> Option<(u32, RpKind)> {
    match e {
        Some(Ev::Ctl(q, k)) => Some((q, k)),
        _ => None,
    }
}
fn tx_of(e: Option<Ev>) -> Option<(u32, u32)> {
    match e {
        Some(Ev::Tx(q, b)) => Some((q, b)),
        _ => None,
    }
}
fn rx_of(e: Option<Ev>) -> Option<(u32, u8)> {
    match e {
        Some(Ev::Rx(q, ecn)) => Some((q, ecn)),
        _ => None,
    }
}

impl BenchDut for RpBench {
    fn eval(&mut self, o: &[Option<Ev>], now: TimeStamp) -> (Vec<bool>, Option<u32>, bool) {
        let out = self.0.eval(&RpPins {
            reset: false,
            ctl: ctl_of(o[0]),
            cnp: qp_of(o[1]),
            tx: tx_of(o[2]),
            query: qp_of(o[3]),
            m_ready: true,
            now,
            tbl: None,
        });
        (
            vec![out.ctl_ready, out.cnp_ready, out.tx_ready, out.query_ready],
            out.report.map(|r| r.qp),
            false,
        )
    }
    fn clock(&mut self) {
        self.0.clock();
    }
}

impl BenchDut for NpBench {
    fn eval(&mut self, o: &[Option<Ev>], now: TimeStamp) -> (Vec<bool>, Option<u32>, bool) {
        let out = self.0.eval(&NpPins {
            reset: false,
            clr: qp_of(o[0]),
            rx: rx_of(o[1]),
            cnp_ready: true,
            now,
        });
        (vec![out.clr_ready, out.rx_ready], None, out.cnp.is_some())
    }
    fn clock(&mut self) {
        self.0.clock();
    }
}

impl BenchDut for CoreBench {
    fn eval(&mut self, o: &[Option<Ev>], now: TimeStamp) -> (Vec<bool>, Option<u32>, bool) {
        let out = self.0.eval(&CorePins {
            reset: false,
            ctl: ctl_of(o[0]),
            cnp: qp_of(o[1]),
            tx: tx_of(o[2]),
            query: qp_of(o[3]),
            rx: rx_of(o[4]),
            ack: None,
            rate_ready: true,
            cnp_ready: true,
            now,
            tbl: None,
        });
        (
            vec![
                out.ctl_ready,
                out.cnp_ready,
                out.tx_ready,
                out.query_ready,
                out.rx_ready,
            ],
            out.rate.map(|r| r.qp),
            out.cnp.is_some(),
        )
    }
    fn clock(&mut self) {
        self.0.clock();
    }
}

/// The unit built, brought up (reset, table load, RAM sweep) and wrapped.
fn build(unit: Unit, engine: Engine, p: &Params) -> Result<Box<dyn BenchDut>, String> {
    let no_model = || {
        format!(
            "no Verilated {} with {} QPs: choose --qps from {:?} (or --engine golden)",
            unit.name(),
            p.qps,
            unit.rtl_qps()
        )
    };
    let fail = |e: String| format!("bring-up failed: {e}");
    Ok(match unit {
        Unit::Rp => {
            let mut d: Box<dyn CycleDut<RpPins, RpOuts>> = match engine {
                Engine::Rtl => Box::new(VerilatedRp::exact(p).ok_or_else(no_model)?),
                Engine::Golden => Box::new(GoldenRpCycle::new(p)),
            };
            let mut duts: Vec<Named<RpPins, RpOuts>> = vec![("dut", d.as_mut())];
            crate::stimulus::bring_up(p, &mut duts).map_err(|e| fail(e.to_string()))?;
            Box::new(RpBench(d))
        }
        Unit::Np => {
            let mut d: Box<dyn CycleDut<NpPins, NpOuts>> = match engine {
                Engine::Rtl => Box::new(VerilatedNp::new(p).ok_or_else(no_model)?),
                Engine::Golden => Box::new(GoldenNpCycle::new(p)),
            };
            let mut duts: Vec<Named<NpPins, NpOuts>> = vec![("dut", d.as_mut())];
            crate::core_stimulus::np_bring_up(p, &mut duts).map_err(|e| fail(e.to_string()))?;
            Box::new(NpBench(d))
        }
        Unit::Core => {
            let mut d: Box<dyn CycleDut<CorePins, CoreOuts>> = match engine {
                Engine::Rtl => Box::new(VerilatedCore::exact(p).ok_or_else(no_model)?),
                Engine::Golden => Box::new(GoldenCoreCycle::new(p)),
            };
            let mut duts: Vec<Named<CorePins, CoreOuts>> = vec![("dut", d.as_mut())];
            core_bring_up(p, &mut duts).map_err(|e| fail(e.to_string()))?;
            Box::new(CoreBench(d))
        }
        Unit::Hpcc => {
            let hp = HpccParams::hpcc_md_defaults(p.max_rate_mbps());
            let mut d: Box<dyn CycleDut<HpccPins, HpccOuts>> = match engine {
                Engine::Rtl => Box::new(VerilatedHpcc::new(&hp, p.qps).ok_or_else(no_model)?),
                Engine::Golden => Box::new(GoldenHpccCycle::new(&hp, p.qps)),
            };
            let mut duts: Vec<Named<HpccPins, HpccOuts>> = vec![("dut", d.as_mut())];
            hpcc_bring_up(&mut duts).map_err(|e| fail(e.to_string()))?;
            Box::new(HpccBench(d))
        }
    })
}

/// The pattern's next event on `stream` (its `k`th), or none this cycle.
fn next_event(
    pattern: Pattern,
    stream: Stream,
    k: u64,
    qps: u32,
    rng: &mut XorShift,
) -> Option<Ev> {
    let data_qp = |rng: &mut XorShift| match pattern {
        Pattern::OneQp => 0,
        Pattern::TwoQp => (k % 2) as u32 % qps,
        Pattern::RoundRobin => (k % qps as u64) as u32,
        Pattern::Random | Pattern::Mixed => rng.below(qps as u64) as u32,
    };
    let any_qp = |rng: &mut XorShift| rng.below(qps as u64) as u32;
    match (stream, pattern) {
        (Stream::Tx, _) => Some(Ev::Tx(data_qp(rng), 1024)),
        (Stream::Ack, _) => Some(Ev::Ack(data_qp(rng), k)),
        (Stream::HpccCmd, Pattern::Mixed) => match rng.below(256) {
            0 => Some(Ev::HpccCmd(any_qp(rng), CMD_INIT as u8)),
            1..=64 => Some(Ev::HpccCmd(any_qp(rng), CMD_QUERY as u8)),
            _ => None,
        },
        (Stream::Rx, Pattern::Mixed) => {
            let qp = any_qp(rng);
            Some(Ev::Rx(qp, if rng.below(2) == 0 { ECN_CE } else { 0b10 }))
        }
        (Stream::Rx, _) => Some(Ev::Rx(data_qp(rng), ECN_CE)),
        (_, p) if p != Pattern::Mixed => None,
        (Stream::Cnp, _) => (rng.below(4) == 0).then(|| Ev::Qp(any_qp(rng))),
        (Stream::Query, _) => (rng.below(4) == 0).then(|| Ev::Qp(any_qp(rng))),
        (Stream::Ctl, _) => (rng.below(256) == 0).then(|| Ev::Ctl(any_qp(rng), RpKind::Reset)),
        (Stream::Clr, _) => (rng.below(256) == 0).then(|| Ev::Qp(any_qp(rng))),
        (Stream::HpccCmd, _) => None,
    }
}

/// Cycles the drain may take before the bench gives up (a unit that never reports an
/// event it took).
const DRAIN_LIMIT: u64 = 1_000_000;

/// Run `unit` under `pattern` for `cycles` window cycles; one row per input stream and an
/// `all` row. `p.qps` is the unit's size.
pub fn run(
    unit: Unit,
    engine: Engine,
    pattern: Pattern,
    p: &Params,
    cycles: u64,
    seed: u64,
) -> Result<Vec<BenchRow>, String> {
    let streams = unit.streams();
    let mut dut = build(unit, engine, p)?;
    let tb = Timebase::new(p);
    let mut rng = XorShift::new(seed);
    let mut src: Vec<Source<Ev>> = streams.iter().map(|_| Source::default()).collect();
    let mut drawn = vec![0u64; streams.len()];
    // The accepted events that owe a rate report (stream, QP), in acceptance order: the RP
    // reports each QP's events in the order it took them (events of other QPs may go past
    // one that waits), so a report answers the oldest owed event of its QP.
    let mut owed: VecDeque<(usize, u32)> = VecDeque::new();
    let mut reports = vec![0u64; streams.len()];
    let mut window_stats = Vec::new();
    let rx = streams.iter().position(|&s| s == Stream::Rx);
    let t = Instant::now();
    let mut cycle = 0u64;
    loop {
        let in_window = cycle < cycles;
        if !in_window {
            if window_stats.is_empty() {
                window_stats = src.iter().map(|s| s.stats()).collect();
            }
            if src.iter().all(|s| s.idle()) && owed.is_empty() {
                // Rate reports are all out; CNP requests leave a few cycles after their
                // marks (the NP's latency), so run a little more for them.
                for _ in 0..16 {
                    let (_, rate, cnp) = dut.eval(&vec![None; streams.len()], tb.at_cycle(cycle));
                    if let (true, Some(r)) = (cnp, rx) {
                        reports[r] += 1;
                    }
                    assert!(rate.is_none(), "a rate report nobody owed");
                    dut.clock();
                    cycle += 1;
                }
                break;
            }
            if cycle - cycles > DRAIN_LIMIT {
                return Err(format!(
                    "the {} did not report every accepted event within {DRAIN_LIMIT} cycles",
                    unit.name()
                ));
            }
        }
        let offers: Vec<Option<Ev>> = streams
            .iter()
            .enumerate()
            .map(|(i, &s)| {
                let new = if in_window && src[i].idle() {
                    let e = next_event(pattern, s, drawn[i], p.qps, &mut rng);
                    drawn[i] += u64::from(e.is_some());
                    e
                } else {
                    None
                };
                src[i].offer(new)
            })
            .collect();
        let (ready, rate, cnp) = dut.eval(&offers, tb.at_cycle(cycle));
        if let Some(qp) = rate {
            let k = owed
                .iter()
                .position(|&(_, q)| q == qp)
                .ok_or("a rate report without an accepted event of its QP")?;
            let (s, _) = owed.remove(k).expect("found above");
            reports[s] += 1;
        }
        if let (true, Some(r)) = (cnp, rx) {
            reports[r] += 1;
        }
        for (i, &s) in streams.iter().enumerate() {
            if let Some(e) = src[i].edge(ready[i])
                && s != Stream::Rx
                && s != Stream::Clr
            {
                owed.push_back((i, e.qp()));
            }
        }
        dut.clock();
        cycle += 1;
    }
    let speed = cycle as f64 / t.elapsed().as_secs_f64();
    let row = |stream: &'static str, offered, accepted, stalled, wait, rep| BenchRow {
        unit: unit.name(),
        pattern: pattern.name(),
        qps: p.qps,
        stream,
        cycles,
        offered,
        accepted,
        events_per_cycle: accepted as f64 / cycles.max(1) as f64,
        not_ready_cycles: stalled,
        longest_wait: wait,
        reports: rep,
        sim_cycles_per_s: speed,
    };
    let mut rows: Vec<BenchRow> = streams
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let f = src[i].stats();
            let w: &lockstep::SourceStats = &window_stats[i];
            row(
                s.name(),
                w.offered,
                f.accepted,
                w.stalled,
                f.longest_wait,
                reports[i],
            )
        })
        .collect();
    let all = row(
        "all",
        rows.iter().map(|r| r.offered).sum(),
        rows.iter().map(|r| r.accepted).sum(),
        rows.iter().map(|r| r.not_ready_cycles).sum(),
        rows.iter().map(|r| r.longest_wait).max().unwrap_or(0),
        rows.iter().map(|r| r.reports).sum(),
    );
    // Streams the pattern never used stay out of the table.
    rows.retain(|r| r.offered > 0);
    rows.push(all);
    Ok(rows)
}
