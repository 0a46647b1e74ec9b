//! `roce-cc bench --unit pacer`: the pacer top's grant rate and its accuracy, through the
//! Verilated RTL or the golden model (equal cycle by cycle; `tests/all/pacer_three_way.rs`).
//!
//! **Grants per cycle.** After the reset sweep every QP gets one doorbell of 1 MB (one a
//! cycle, in QP order), at no rate report (unpaced: the port's rate), with 64-byte packets
//! and a port that is always ready; grants are counted over a window that starts once every
//! doorbell is in and the first grants are out. That is the pacer's own limit: one grant per
//! cycle is the design's.
//!
//! **Accuracy.** One QP (QP 0) at a set rate, alone or beside 999 backlogged QPs, on an
//! 800 Gb/s port at 400 MHz: the port takes a packet when it is free and holds it for its
//! wire time (`bytes * 8 / line`, in cycles Q.16 as the golden arithmetic computes it).
//! The measured rate is the QP's packets after the first, over the time from its first
//! grant to its last: `(n - 1) * bytes * 8 / (t_last - t_first)`. The 999 others share
//! what is left of 95 % of what the port can carry at the packet size (the line rate, or
//! one packet a cycle for small packets); when the QP's own rate is above that, each of
//! them is at 1 Mb/s and the sum is above the line rate (the row says so). Their doorbells
//! are spread over one of their gaps, and QP 0's comes after them, so the port sees them
//! in steady state rather than as one burst of 999 packets.

use crate::pacer::sched::{PacerIn, RateIn};
use crate::pacer::{CYCLE, FRAC_W, cpb_of_rate, cycles_q16, not_after};
use crate::pacer_harness::{PacerPins, build_pacer};
use std::time::Instant;

/// The accuracy runs' clock, MHz.
pub const ACC_CLOCK_MHZ: u32 = 400;
/// The accuracy runs' port, Mb/s.
pub const ACC_LINE_MBPS: u64 = 800_000;
/// QPs of the accuracy runs' pacer.
pub const ACC_QPS: u32 = 1024;

/// One row of the grant-rate table.
#[derive(Clone, Debug, PartialEq)]
pub struct GrantRow {
    pub qps: u32,
    pub engine: &'static str,
    /// Window cycles and grants in it.
    pub cycles: u64,
    pub grants: u64,
    pub grants_per_cycle: f64,
    /// Simulated cycles per second of wall time.
    pub sim_cycles_per_s: f64,
}

/// One row of the accuracy table.
#[derive(Clone, Debug, PartialEq)]
pub struct AccRow {
    /// The QP's rate, Mb/s.
    pub rate_mbps: u64,
    /// Other QPs backlogged beside it.
    pub others: u32,
    /// The others' rates sum with the QP's above the line rate.
    pub oversubscribed: bool,
    pub packet_bytes: u32,
    /// The QP's packets measured.
    pub packets: u32,
    pub measured_mbps: f64,
    /// `measured / set - 1`.
    pub error: f64,
    /// Simulated cycles.
    pub cycles: u64,
}

/// A port of `line_mbps` at `clock_mhz`: takes a packet when free.
struct Port {
    free: u64,
    line: crate::pacer::Cpb,
}

impl Port {
    fn new(line_mbps: u64, clock_mhz: u32) -> Self {
        Self {
            free: 0,
            line: cpb_of_rate(line_mbps << 8, clock_mhz),
        }
    }
    /// Free within cycle `k`.
    fn ready(&self, k: u64) -> bool {
        not_after(self.free, (k << FRAC_W) + CYCLE - 1)
    }
    fn take(&mut self, k: u64, bytes: u32) {
        let t = k << FRAC_W;
        let start = if not_after(self.free, t) {
            t
        } else {
            self.free
        };
        self.free = start + cycles_q16(bytes, self.line);
    }
}

/// Resets the pacer and runs its sweep; returns the next cycle.
fn bring_up(d: &mut dyn PacerPins) -> u64 {
    let mut k = 0;
    let mut i = PacerIn {
        reset: true,
        ..Default::default()
    };
    loop {
        i.now = k;
        let o = d.eval(&i);
        d.clock();
        k += 1;
        if !i.reset && !o.busy {
            return k;
        }
        i.reset = false;
    }
}

/// Grants per cycle of the pacer of `qps` QPs (RTL when `rtl`) over `window` cycles.
pub fn grant_rate(qps: u32, rtl: bool, window: u64) -> Result<GrantRow, String> {
    let mut d = build_pacer(qps, rtl, ACC_CLOCK_MHZ, 64)?;
    let t = Instant::now();
    let mut k = bring_up(d.as_mut());
    let start = k;
    let mut next_post = 0u32;
    let warm = qps as u64 + 64;
    let mut grants = 0;
    while k < start + warm + window {
        let i = PacerIn {
            now: k,
            post: (next_post < qps).then_some((next_post, 1 << 20)),
            grant_ready: true,
            ..Default::default()
        };
        let o = d.eval(&i);
        if o.post_ready && i.post.is_some() {
            next_post += 1;
        }
        if o.grant.is_some() && k >= start + warm {
            grants += 1;
        }
        d.clock();
        k += 1;
    }
    Ok(GrantRow {
        qps,
        engine: if rtl { "rtl" } else { "golden" },
        cycles: window,
        grants,
        grants_per_cycle: grants as f64 / window as f64,
        sim_cycles_per_s: (k as f64) / t.elapsed().as_secs_f64(),
    })
}

/// The accuracy of QP 0 at `rate_mbps` with packets of `bytes`, alone (`others` 0) or
/// beside `others` backlogged QPs, measured over `packets` of its packets.
pub fn accuracy(
    rate_mbps: u64,
    bytes: u32,
    packets: u32,
    others: u32,
    rtl: bool,
) -> Result<AccRow, String> {
    let clock = ACC_CLOCK_MHZ;
    let mut d = build_pacer(ACC_QPS, rtl, clock, bytes)?;
    let mut port = Port::new(ACC_LINE_MBPS, clock);
    // What the port carries at this packet size: the line rate, or a packet a cycle.
    let carry = ACC_LINE_MBPS.min(bytes as u64 * 8 * clock as u64);
    let left = (carry as f64 * 0.95 - rate_mbps as f64).max(0.0);
    let each_q8 = if others == 0 {
        0
    } else {
        (((left / others as f64) * 256.0) as u64).max(256)
    };
    let oversubscribed =
        others > 0 && rate_mbps as f64 + (each_q8 as f64 / 256.0) * others as f64 > carry as f64;
    let mut rates: Vec<RateIn> = vec![RateIn {
        qp: 0,
        rate_q8: rate_mbps << 8,
        window: None,
    }];
    rates.extend((1..=others).map(|q| RateIn {
        qp: q,
        rate_q8: each_q8,
        window: None,
    }));
    // The others' doorbells spread over one of their gaps (so their packets are spread
    // over time, not a burst of all of them at once), QP 0's after them.
    let mut k = bring_up(d.as_mut());
    let posts_from = k + rates.len() as u64 + 16;
    let others_gap = if others == 0 {
        0
    } else {
        bytes as u64 * 8 * clock as u64 * 256 / each_q8
    };
    let mut posts: Vec<(u64, u32, u32)> = (1..=others)
        .map(|q| {
            let at = posts_from + others_gap * (q as u64 - 1) / others as u64;
            (at, q, 1 << 30)
        })
        .collect();
    posts.push((posts_from + others_gap, 0, bytes * (packets + 4)));
    let (mut ri, mut pi) = (0, 0);
    let mut times = Vec::new();
    let limit = posts_from
        + others_gap
        + (packets as u64 + 8) * (bytes as u64 * 8 * clock as u64 / rate_mbps.max(1) + 64)
        + 10 * ACC_QPS as u64;
    while times.len() < packets as usize {
        if k > limit {
            return Err(format!(
                "QP 0 at {rate_mbps} Mb/s got {} of {packets} packets in {k} cycles",
                times.len()
            ));
        }
        let i = PacerIn {
            now: k,
            rate: rates.get(ri).copied(),
            post: posts.get(pi).filter(|p| k >= p.0).map(|p| (p.1, p.2)),
            grant_ready: port.ready(k),
            ..Default::default()
        };
        let o = d.eval(&i);
        if o.rate_ready && i.rate.is_some() {
            ri += 1;
        }
        if o.post_ready && i.post.is_some() {
            pi += 1;
        }
        if let (Some((q, b)), true) = (o.grant, i.grant_ready) {
            port.take(k, b);
            if q == 0 {
                times.push(k);
            }
        }
        d.clock();
        k += 1;
    }
    let span = (times[times.len() - 1] - times[0]) as f64;
    let measured = (packets - 1) as f64 * bytes as f64 * 8.0 * clock as f64 / span;
    Ok(AccRow {
        rate_mbps,
        others,
        oversubscribed,
        packet_bytes: bytes,
        packets,
        measured_mbps: measured,
        error: measured / rate_mbps as f64 - 1.0,
        cycles: k,
    })
}

/// The accuracy table's rows: (rate Mb/s, packet bytes, packets measured): pacing.md's
/// 1000 consecutive packets, but 100 at 1 Mb/s (a 64-byte packet is 204 800 cycles).
pub const ACC_ROWS: [(u64, u32, u32); 6] = [
    (1, 64, 100),
    (100, 64, 1000),
    (10_000, 4096, 1000),
    (100_000, 4096, 1000),
    (400_000, 4096, 1000),
    (800_000, 4096, 1000),
];

impl std::fmt::Display for GrantRow {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "| {:>5} | {:<6} | {:>8} | {:>8} | {:>6.4} | {:>10.0} |",
            self.qps,
            self.engine,
            self.cycles,
            self.grants,
            self.grants_per_cycle,
            self.sim_cycles_per_s
        )
    }
}

/// The grant-rate table's header.
pub const GRANT_HEADER: &str = "|   QPs | engine |   cycles |   grants | grants/cycle | sim cycles/s |\n|---|---|---|---|---|---|";

impl std::fmt::Display for AccRow {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "| {:>7} | {:>4}{} | {:>5} | {:>5} | {:>14.4} | {:>+9.5} % | {:>9} |",
            self.rate_mbps,
            self.others,
            if self.oversubscribed {
                " (sum above line)"
            } else {
                ""
            },
            self.packet_bytes,
            self.packets,
            self.measured_mbps,
            self.error * 100.0,
            self.cycles
        )
    }
}

/// The accuracy table's header.
pub const ACC_HEADER: &str = "| set Mb/s | others | bytes | packets | measured Mb/s | error | cycles |\n|---|---|---|---|---|---|---|";
