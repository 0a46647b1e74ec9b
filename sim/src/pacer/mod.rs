//! `pacer`: the golden statement of the pacer's arithmetic (bit-accurate: the formats and
//! roundings the hardware uses) and of its schedule without pipeline latency
//! ([`PacerModel`]). `pacer_exact` is pacing.md in real arithmetic; the tests below measure
//! this model against it.
//!
//! Formats (widths in `docs/pacer.md`):
//! - A time is a cycle count with [`FRAC_W`] = 16 fraction bits in a `u64` (48 integer
//!   bits): mod 2^64 it wraps after 2^48 cycles, 8 days at 400 MHz. "`a` is not after `b`"
//!   is `b - a < 2^63` (mod 2^64).
//! - A rate becomes cycles per byte, [`Cpb`]: `m * 2^-e`, `m` an 18-bit normalised mantissa
//!   (`2^17 <= m < 2^18`), from the rate in Mb/s Q.8 (the core's `rc`) and the clock
//!   (`8 * clock_mhz / rate_mbps`) through the reciprocal table of the HPCC unit
//!   ([`recip_norm`]): [`cpb_of_rate`]. The port's cycles per byte are the same function of
//!   the line rate.
//! - A packet of `S` bytes is `floor(S * m * 2^(16 - e))` cycles Q.16 ([`cycles_q16`]): its
//!   gap at the QP's rate, its wire time (with the overhead bytes) at the line rate.
//!
//! Error: `recip_norm` is high by at most `2^-21`, the 18-bit rounding of the reciprocal
//! and the truncation of the mantissa's product each move `m` by at most `2^-17` of it,
//! and each gap is truncated by less than `2^-16` cycles. A rate below 1 Mb/s (`rate_q8 <
//! 256`) is paced at 1 Mb/s.

use crate::hpcc_window::recip_norm;

pub mod eligible;
pub mod sched;
pub mod wheel;

/// Fraction bits of a time or a gap (the hardware's, `PaceStep`).
pub const FRAC_W: u32 = roce_cc_hdl::pacer::pace_step::FRAC_W as u32;
/// One cycle, Q.16.
pub const CYCLE: u64 = 1 << FRAC_W;
/// Width of a cycles-per-byte mantissa (the hardware's, `PacerCpb`).
pub const CPB_M_W: u32 = roce_cc_hdl::pacer::cpb::CPB_M_W as u32;
/// The slowest rate paced, Mb/s Q.8 (1 Mb/s): slower rates are paced at it.
pub const RATE_MIN_Q8: u64 = 256;
/// Width of the rate input (the core's `rc`, Mb/s Q.8; the hardware's, `PacerCpb`).
pub const RATE_W: u32 = roce_cc_hdl::pacer::cpb::RATE_W as u32;
/// Width of a gap or wire time, Q.16: below `9216 * 8000 * 2^16 < 2^43` (the largest
/// packet at 1 Mb/s and 1000 MHz). The hardware's, `PaceStep`.
pub const GAP_W: u32 = roce_cc_hdl::pacer::pace_step::GAP_W as u32;
/// The farthest a QP's `next` can be ahead of now, Q.16 (one gap): a `next` farther ahead
/// than this is taken to be behind (a QP idle for a multiple of 2^48 cycles).
pub const AHEAD_MAX: u64 = 1 << (GAP_W - 1);

/// Cycles per byte: `m * 2^-e`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Cpb {
    /// Mantissa, `2^17 <= m < 2^18`.
    pub m: u32,
    /// Exponent: cycles per byte = `m * 2^-e` (`e` <= 40).
    pub e: u32,
}

/// Position of the most significant set bit (`v > 0`).
fn msb(v: u64) -> u32 {
    63 - v.leading_zeros()
}

/// Cycles per byte at `rate_q8` (Mb/s Q.8, below 2^28) with a `clock_mhz` clock
/// (1..=1000): `8 * clock_mhz / rate` as the hardware computes it.
///
/// `r = max(rate_q8, 256)` is normalised to 24 bits (`m24 = r` shifted so its leading
/// one, at bit `p`, is bit 23; bits shifted out are dropped), `y18 = (recip_norm(m24) + 64)
/// >> 7` (about `2^40 / m24`, `2^16 <= y18 <= 2^17`), and the clock is `km * 2^(ke - 17)`
/// (`km` 18 bits, `ke = msb(clock_mhz)`, exact). Then `P = km * y18` (`2^33 <= P <
/// 2^35`), and `8 * clock / r = P * 2^(ke - 23 - p)`: `m` is `P`'s top 18 bits.
pub fn cpb_of_rate(rate_q8: u64, clock_mhz: u32) -> Cpb {
    assert!(
        rate_q8 < 1 << RATE_W,
        "cpb_of_rate: rate {rate_q8} above 28 bits"
    );
    assert!(
        (1..=1000).contains(&clock_mhz),
        "cpb_of_rate: clock {clock_mhz} MHz"
    );
    let r = rate_q8.max(RATE_MIN_Q8);
    let p = msb(r);
    let m24 = if p >= 23 {
        r >> (p - 23)
    } else {
        r << (23 - p)
    } as u32;
    let y18 = ((recip_norm(m24) as u64) + 64) >> 7;
    let (km, ke) = roce_cc_hdl::pacer::cpb::clock_consts(clock_mhz);
    let prod = km as u64 * y18;
    debug_assert!((1 << 33..1 << 35).contains(&prod));
    if prod >> 34 != 0 {
        // P >> 17 carries P * 2^-17: cycles/byte = m * 2^(17 + ke - 23 - p).
        Cpb {
            m: (prod >> 17) as u32,
            e: 6 + p - ke,
        }
    } else {
        Cpb {
            m: (prod >> 16) as u32,
            e: 7 + p - ke,
        }
    }
}

/// `floor(bytes * m * 2^(16 - e))`: a packet of `bytes` at `c` cycles per byte, Q.16.
pub fn cycles_q16(bytes: u32, c: Cpb) -> u64 {
    let x = ((bytes as u64) * (c.m as u64)) << FRAC_W;
    (x >> c.e) & ((1 << GAP_W) - 1)
}

/// `a` is not after `b` (times mod 2^64).
pub fn not_after(a: u64, b: u64) -> bool {
    b.wrapping_sub(a) < 1 << 63
}

/// The pacer's configuration: port and packet rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PacerConfig {
    /// Clock, MHz.
    pub clock_mhz: u32,
    /// The port's cycles per byte (`cpb_of_rate` of the line rate).
    pub line: Cpb,
    /// Largest packet, bytes (64..=9216).
    pub mtu_bytes: u32,
    /// Bytes added to each packet's wire time (0..=128).
    pub overhead_bytes: u32,
}

impl PacerConfig {
    /// The configuration for a port of `line_rate_mbps` at `clock_mhz`.
    pub fn new(line_rate_mbps: u32, clock_mhz: u32, mtu_bytes: u32, overhead_bytes: u32) -> Self {
        assert!((64..=9216).contains(&mtu_bytes), "mtu_bytes {mtu_bytes}");
        assert!(overhead_bytes <= 128, "pkt_overhead_bytes {overhead_bytes}");
        Self {
            clock_mhz,
            line: cpb_of_rate((line_rate_mbps as u64) << 8, clock_mhz),
            mtu_bytes,
            overhead_bytes,
        }
    }
}

/// One QP's pacing state.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct QpPace {
    /// Bytes posted and not granted.
    pub backlog: u64,
    /// Next departure time, Q.16.
    pub next: u64,
    /// Cycles per byte at the QP's rate.
    pub cpb: Cpb,
    /// The window, bytes (HPCC QPs), else `None`.
    pub window: Option<u32>,
    /// Bytes granted (mod 2^32), and the highest acknowledged sequence.
    pub sent: u32,
    pub acked: u32,
}

impl QpPace {
    /// The next packet's size.
    pub fn packet(&self, mtu: u32) -> u32 {
        self.backlog.min(mtu as u64) as u32
    }

    /// The window lets the next packet go (nothing in flight, or the packet fits).
    pub fn window_allows(&self, mtu: u32) -> bool {
        let inflight = self.sent.wrapping_sub(self.acked);
        match self.window {
            None => true,
            Some(w) => inflight == 0 || inflight as u64 + self.packet(mtu) as u64 <= w as u64,
        }
    }

    /// `bytes` posted at `now` (Q.16): a QP that had none starts no earlier than now.
    pub fn post(&mut self, bytes: u64, now: u64) {
        if self.backlog == 0 {
            let ahead = self.next.wrapping_sub(now);
            if ahead == 0 || ahead >= AHEAD_MAX {
                self.next = now;
            }
        }
        self.backlog += bytes;
    }

    /// An ACK of the bytes up to `seq`: taken when it is in `(acked, sent]` (mod 2^32).
    pub fn ack(&mut self, seq: u32) {
        let d = seq.wrapping_sub(self.acked);
        if d != 0 && d <= self.sent.wrapping_sub(self.acked) {
            self.acked = seq;
        }
    }

    /// A grant at `now` (Q.16, a whole cycle): the packet's bytes, `next := max(next, now
    /// - gap) + gap`.
    pub fn grant(&mut self, now: u64, mtu: u32) -> u32 {
        let bytes = self.packet(mtu);
        let gap = cycles_q16(bytes, self.cpb);
        let floor = now.wrapping_sub(gap);
        if !not_after(floor, self.next) {
            self.next = floor;
        }
        self.next = self.next.wrapping_add(gap);
        self.backlog -= bytes as u64;
        self.sent = self.sent.wrapping_add(bytes);
        bytes
    }
}

/// What reaches the pacer in a cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PacerEvent {
    /// Doorbell: `bytes` more for `qp`.
    Post { qp: u32, bytes: u64 },
    /// A rate report: the QP's rate (Mb/s Q.8) and, for an HPCC QP, its window.
    Rate {
        qp: u32,
        rate_q8: u64,
        window: Option<u32>,
    },
    /// An ACK of `qp`'s bytes up to `seq`.
    Ack { qp: u32, seq: u32 },
}

/// A grant: `qp` sends `bytes` in cycle `cycle`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Grant {
    pub cycle: u64,
    pub qp: u32,
    pub bytes: u32,
    /// The QP's `next` (Q.16) when granted.
    pub next: u64,
}

/// The schedule in the golden arithmetic with no pipeline latency: at each cycle the
/// cycle's events, then, if the port frees within the cycle (`port_free < now + 1`), the
/// first eligible QP after the last one granted (round-robin in QP order) is granted.
/// A QP is eligible when it has bytes, `floor(next) <= now` and its window allows.
///
/// `regrant_cycles` (1 by default: none) models the one latency a hardware pacer adds to
/// this schedule: a QP granted in cycle `k` is not eligible again before `k +
/// regrant_cycles` (its state goes round the grant pipeline before its next grant), which
/// caps one QP at a packet per `regrant_cycles` cycles.
#[derive(Clone, Debug)]
pub struct PacerModel {
    pub cfg: PacerConfig,
    pub qps: Vec<QpPace>,
    /// The time the port is free, Q.16.
    pub port_free: u64,
    /// The last QP granted.
    pub last: u32,
    /// The current cycle.
    pub now: u64,
    /// Fewest cycles from one grant of a QP to its next (1: any cycle).
    pub regrant_cycles: u64,
    /// Per QP: the first cycle it may be granted again.
    regrant_at: Vec<u64>,
}

impl PacerModel {
    /// `n` QPs at `rate_q8` with nothing posted.
    pub fn new(cfg: PacerConfig, n: u32, rate_q8: u64) -> Self {
        let cpb = cpb_of_rate(rate_q8, cfg.clock_mhz);
        Self {
            cfg,
            qps: vec![
                QpPace {
                    cpb,
                    ..Default::default()
                };
                n as usize
            ],
            port_free: 0,
            last: n - 1,
            now: 0,
            regrant_cycles: 1,
            regrant_at: vec![0; n as usize],
        }
    }

    /// Applies an event at the current cycle.
    pub fn apply(&mut self, ev: PacerEvent) {
        let now = self.now << FRAC_W;
        match ev {
            PacerEvent::Post { qp, bytes } => self.qps[qp as usize].post(bytes, now),
            PacerEvent::Rate {
                qp,
                rate_q8,
                window,
            } => {
                let q = &mut self.qps[qp as usize];
                q.cpb = cpb_of_rate(rate_q8, self.cfg.clock_mhz);
                q.window = window;
            }
            PacerEvent::Ack { qp, seq } => self.qps[qp as usize].ack(seq),
        }
    }

    fn eligible(&self, i: usize) -> bool {
        let q = &self.qps[i];
        q.backlog > 0
            && not_after(q.next >> FRAC_W, self.now)
            && self.regrant_at[i] <= self.now
            && q.window_allows(self.cfg.mtu_bytes)
    }

    /// The grant of the current cycle, if any.
    pub fn grant(&mut self) -> Option<Grant> {
        let now = self.now << FRAC_W;
        if !not_after(self.port_free, now + CYCLE - 1) {
            return None;
        }
        let n = self.qps.len() as u32;
        let i = (1..=n)
            .map(|d| (self.last + d) % n)
            .find(|&i| self.eligible(i as usize))?;
        let q = &mut self.qps[i as usize];
        let at = q.next;
        let bytes = q.grant(now, self.cfg.mtu_bytes);
        let start = if not_after(self.port_free, now) {
            now
        } else {
            self.port_free
        };
        self.port_free = start + cycles_q16(bytes + self.cfg.overhead_bytes, self.cfg.line);
        self.last = i;
        self.regrant_at[i as usize] = self.now + self.regrant_cycles;
        Some(Grant {
            cycle: self.now,
            qp: i,
            bytes,
            next: at,
        })
    }

    /// The first cycle after the current one at which a grant may become possible without
    /// an input.
    fn next_wake(&self) -> Option<u64> {
        let mtu = self.cfg.mtu_bytes;
        let due = self
            .qps
            .iter()
            .zip(&self.regrant_at)
            .filter(|(q, _)| q.backlog > 0 && q.window_allows(mtu))
            .map(|(q, &r)| (q.next >> FRAC_W).max(r))
            .min()?;
        let port = if self.port_free == 0 {
            0
        } else {
            (self.port_free - 1) >> FRAC_W
        };
        Some(due.max(port).max(self.now + 1))
    }

    /// Runs from the current cycle through `events` (cycle, event; non-decreasing cycles,
    /// each applied at the start of its cycle) until `end` (exclusive), skipping cycles in
    /// which nothing can happen. (Times stay below 2^48 cycles here.)
    pub fn run(&mut self, events: &[(u64, PacerEvent)], end: u64) -> Vec<Grant> {
        let mut k = 0;
        let mut out = Vec::new();
        while self.now < end {
            while k < events.len() && events[k].0 <= self.now {
                assert_eq!(events[k].0, self.now, "events out of order");
                self.apply(events[k].1);
                k += 1;
            }
            if let Some(g) = self.grant() {
                out.push(g);
            }
            let wake = self.next_wake().unwrap_or(u64::MAX);
            let ev = events.get(k).map_or(u64::MAX, |e| e.0);
            self.now = wake.min(ev).min(end).max(self.now + 1);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pacer_exact::{ExactEvent, ExactPacer, PortConfig};

    /// `cpb_of_rate` against `8 * clock / rate` in f64.
    #[test]
    fn cycles_per_byte_within_4e_5_of_the_real_value() {
        for clock in [1, 100, 156, 250, 322, 400, 1000] {
            let mut r = 1u64;
            while r < 1 << RATE_W {
                for rate_q8 in [r, r + r / 3, r * 2 - 1] {
                    if rate_q8 >= 1 << RATE_W {
                        continue;
                    }
                    let c = cpb_of_rate(rate_q8, clock);
                    assert!((1 << 17..1 << 18).contains(&c.m), "{c:?}");
                    let got = c.m as f64 * (-(c.e as f64)).exp2();
                    let want = 8.0 * clock as f64 * 256.0 / rate_q8.max(RATE_MIN_Q8) as f64;
                    assert!(
                        (got / want - 1.0).abs() < 4e-5,
                        "rate_q8 {rate_q8} clock {clock}: {got} for {want}"
                    );
                }
                r *= 2;
            }
        }
    }

    #[test]
    fn a_gap_is_the_packet_at_the_rate() {
        // 4096 bytes at 100 Gb/s and 250 MHz: 81.92 cycles.
        let c = cpb_of_rate(100_000 << 8, 250);
        let g = cycles_q16(4096, c) as f64 / CYCLE as f64;
        assert!((g - 81.92).abs() < 1e-3, "{g}");
        // The largest gap fits GAP_W bits: 9216 bytes at 1 Mb/s and 1000 MHz.
        let c = cpb_of_rate(256, 1000);
        let g = cycles_q16(9216, c);
        assert!(g < 1 << (GAP_W - 1) && g > 73_000_000 << FRAC_W, "{g}");
    }

    #[test]
    fn a_post_after_a_long_idle_starts_now() {
        let mut q = QpPace {
            cpb: cpb_of_rate(1000 << 8, 250),
            ..Default::default()
        };
        q.post(100, 5 << FRAC_W);
        assert_eq!(q.next, 5 << FRAC_W);
        q.grant(5 << FRAC_W, 4096);
        let ahead = q.next;
        // Posted again before `next`: the schedule holds.
        q.post(100, 6 << FRAC_W);
        assert_eq!(q.next, ahead);
        q.grant(q.next & !(CYCLE - 1), 4096);
        // Posted much later (and after a wrap of the time): it starts now.
        let later = q.next.wrapping_add(1 << 60);
        q.post(100, later);
        assert_eq!(q.next, later);
    }

    #[test]
    fn acks_outside_the_bytes_in_flight_are_ignored() {
        let mut q = QpPace {
            window: Some(8192),
            sent: 10_000,
            acked: 2000,
            ..Default::default()
        };
        q.ack(1000); // behind
        assert_eq!(q.acked, 2000);
        q.ack(12_000); // beyond what was sent
        assert_eq!(q.acked, 2000);
        q.ack(9000);
        assert_eq!(q.acked, 9000);
        // Across the wrap of the sequence space.
        q.sent = 100;
        q.acked = u32::MAX - 50;
        q.ack(20);
        assert_eq!(q.acked, 20);
    }

    fn exact_cfg(line: f64, clock: f64, mtu: u32) -> PortConfig {
        PortConfig {
            line_rate_mbps: line,
            clock_mhz: clock,
            mtu_bytes: mtu,
            pkt_overhead_bytes: 0,
        }
    }

    /// Rate of `qp`'s grants from its first to its last, Mb/s.
    fn rate_of(g: &[Grant], qp: u32, clock: f64) -> f64 {
        let mine: Vec<&Grant> = g.iter().filter(|g| g.qp == qp).collect();
        let bytes: u64 = mine[..mine.len() - 1].iter().map(|g| g.bytes as u64).sum();
        bytes as f64 * 8.0 * clock / (mine[mine.len() - 1].cycle - mine[0].cycle) as f64
    }

    /// One QP alone at 1 Mb/s .. 800 Gb/s on an 800 Gb/s port: within 0.01 % of its rate,
    /// and never granted before the cycle of its `next`, as the exact model.
    #[test]
    fn a_qp_alone_keeps_its_rate_from_1_mbps_to_800_gbps() {
        let clock = 400;
        for (rate_mbps, mtu, n) in [
            (1u64, 4096u32, 40u64),
            (100, 4096, 200),
            (10_000, 4096, 1000),
            (100_000, 1024, 1000),
            (400_000, 1024, 1000),
            (799_000, 256, 1000),
        ] {
            let cfg = PacerConfig::new(800_000, clock, mtu, 0);
            let mut m = PacerModel::new(cfg, 4, rate_mbps << 8);
            let post = PacerEvent::Post {
                qp: 1,
                bytes: mtu as u64 * n,
            };
            let g = m.run(&[(3, post)], u64::MAX);
            assert_eq!(g.len() as u64, n);
            assert!(g.iter().all(|g| not_after(g.next >> FRAC_W, g.cycle)));
            // Grants are whole cycles: a measured rate is exact to one cycle in the span.
            let span = (g[g.len() - 1].cycle - g[0].cycle) as f64;
            let r = rate_of(&g, 1, clock as f64);
            assert!(
                (r / rate_mbps as f64 - 1.0).abs() < 1e-4 + 1.0 / span,
                "{rate_mbps} Mb/s: {r}"
            );
            let mut x =
                ExactPacer::new(exact_cfg(800_000.0, clock as f64, mtu), 4, rate_mbps as f64);
            let xg = x.run(
                &[(
                    3,
                    ExactEvent::Post {
                        qp: 1,
                        bytes: mtu as u64 * n,
                    },
                )],
                u64::MAX,
            );
            let xr = crate::pacer_exact::measured_rate_mbps(&xg, 1, clock as f64).unwrap();
            assert!(
                (r / xr - 1.0).abs() < 1e-4 + 2.0 / span,
                "{rate_mbps} Mb/s: {r} vs exact {xr}"
            );
        }
    }

    /// 1000 QPs backlogged at rates summing to 95 % of the port, posted at scattered
    /// cycles within their first gap: each within 0.1 % of its rate over its backlog (the
    /// bytes before its last packet over the cycles from its post to that packet).
    /// (Started in one cycle, the first round of 1000 packets takes 20 000 cycles, more
    /// than the fastest QPs' gaps, and pacing.md's rule drops that first delay from them,
    /// in the exact model as here.)
    #[test]
    fn a_thousand_backlogged_qps_each_keep_their_rate() {
        let clock = 250;
        let line = 100_000u32;
        let cfg = PacerConfig::new(line, clock, 1024, 0);
        let n = 1000u32;
        let mut m = PacerModel::new(cfg, 1024, 1 << 8);
        let mut events = Vec::new();
        let mut want = Vec::new();
        for qp in 0..n {
            // Rates from 10 to 180 Mb/s (sum 95 Gb/s).
            let r_q8 = ((10 + (qp * 7919) % 171) as u64 * 95_000 << 8) / 95_000;
            want.push(r_q8 as f64 / 256.0);
            events.push((
                0,
                PacerEvent::Rate {
                    qp,
                    rate_q8: r_q8,
                    window: None,
                },
            ));
        }
        let total: f64 = want.iter().sum();
        assert!(total < line as f64);
        let pkts = 200u64;
        let posted_at = |qp: u32| 1 + (qp as u64 * 7919) % 11_000;
        for qp in 0..n {
            events.push((
                posted_at(qp),
                PacerEvent::Post {
                    qp,
                    bytes: 1024 * pkts,
                },
            ));
        }
        events.sort_by_key(|e| e.0);
        let g = m.run(&events, u64::MAX);
        assert_eq!(g.len() as u64, pkts * n as u64);
        let mut worst = 0f64;
        for qp in 0..n {
            let last = g.iter().rev().find(|g| g.qp == qp).unwrap();
            let r = (pkts - 1) as f64 * 1024.0 * 8.0 * clock as f64
                / (last.cycle - posted_at(qp)) as f64;
            let w = want[qp as usize];
            worst = worst.max((r / w - 1.0).abs());
            assert!((r / w - 1.0).abs() < 1e-3, "QP {qp}: {r} for {w} Mb/s");
        }
        eprintln!("worst rate error of {n} QPs: {:.4} %", worst * 100.0);
    }

    /// Oversubscribed: the port stays above 99 % busy and the QPs take turns.
    #[test]
    fn an_oversubscribed_port_stays_busy_round_robin() {
        for bytes in [64u32, 1000, 4096] {
            let clock = 250;
            let cfg = PacerConfig::new(100_000, clock, bytes, 0);
            let mut m = PacerModel::new(cfg, 16, 60_000 << 8);
            let qps = [2u32, 5, 11];
            let events: Vec<_> = qps
                .iter()
                .map(|&qp| {
                    (
                        0,
                        PacerEvent::Post {
                            qp,
                            bytes: bytes as u64 * 3000,
                        },
                    )
                })
                .collect();
            let g = m.run(&events, u64::MAX);
            assert_eq!(g.len(), 9000);
            for (k, gr) in g.iter().enumerate() {
                assert_eq!(gr.qp, qps[k % 3], "{bytes} B: grant {k}");
            }
            let wire = bytes as f64 * 8.0 * clock as f64 / 100_000.0;
            let span = (g[8999].cycle - g[0].cycle) as f64;
            let busy = 8999.0 * wire / span;
            assert!(busy > 0.99, "{bytes} B: port busy {busy}");
        }
    }

    /// A re-grant latency of `L` cycles caps one QP at a packet per `L` cycles and costs
    /// nothing below that: a QP alone at 799 Gb/s with 4 KB packets at 250 MHz (a gap of
    /// 10.25 cycles) keeps its rate for `L` up to 10 and is held to `S * 8 * f / L` above;
    /// 64-byte packets at 100 Gb/s (1.28 cycles) are held to the cap from `L` = 2.
    #[test]
    fn a_regrant_latency_caps_one_qp_at_a_packet_per_latency() {
        let clock = 250u64;
        for (rate_mbps, line, mtu) in [(799_000u64, 800_000u32, 4096u32), (100_000, 100_000, 64)] {
            for l in [1u64, 2, 4, 8, 10, 11, 12, 16] {
                let cfg = PacerConfig::new(line, clock as u32, mtu, 0);
                let mut m = PacerModel::new(cfg, 4, rate_mbps << 8);
                m.regrant_cycles = l;
                let n = 2000u64;
                let g = m.run(
                    &[(
                        3,
                        PacerEvent::Post {
                            qp: 2,
                            bytes: mtu as u64 * n,
                        },
                    )],
                    u64::MAX,
                );
                assert_eq!(g.len() as u64, n);
                let span = (g[g.len() - 1].cycle - g[0].cycle) as f64;
                let r = rate_of(&g, 2, clock as f64);
                let cap = (mtu as u64 * 8 * clock) as f64 / l as f64;
                let want = (rate_mbps as f64).min(cap);
                assert!(
                    (r / want - 1.0).abs() < 1e-4 + 1.0 / span,
                    "{rate_mbps} Mb/s, {mtu} B, L = {l}: {r} Mb/s for {want}"
                );
            }
        }
    }

    /// Every posted byte is granted once, in packets of at most the MTU.
    #[test]
    fn every_posted_byte_is_granted_once() {
        let cfg = PacerConfig::new(100_000, 250, 1500, 0);
        let mut m = PacerModel::new(cfg, 8, 20_000 << 8);
        let posts = [
            (0u64, 3u32, 10_000u64),
            (5, 3, 1),
            (7, 6, 4500),
            (100, 3, 2999),
        ];
        let events: Vec<_> = posts
            .iter()
            .map(|&(t, qp, bytes)| (t, PacerEvent::Post { qp, bytes }))
            .collect();
        let g = m.run(&events, u64::MAX);
        for qp in [3u32, 6] {
            let posted: u64 = posts.iter().filter(|p| p.1 == qp).map(|p| p.2).sum();
            let granted: u64 = g
                .iter()
                .filter(|g| g.qp == qp)
                .map(|g| g.bytes as u64)
                .sum();
            assert_eq!(posted, granted, "QP {qp}");
        }
        assert!(g.iter().all(|g| g.bytes <= 1500 && g.bytes > 0));
    }
}
