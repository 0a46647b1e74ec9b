//! `update_near`, the RP's next-state function without the closed-form catch-up, equals
//! `update` for every event that follows its QP's last write by less than a microsecond
//! (at most one timer instant between them), and not beyond that.
//!
//! Streams of one QP's events (CNPs, packets, queries, resets, mode changes) at gaps
//! mostly under a microsecond, sometimes of tens of microseconds (so the QP reaches every
//! phase, releases and is limited again), under every profile and under random periods of
//! 1 to 6 us (so instants are frequent and every timer fires on the path), at clocks of 3
//! to 250 MHz. Each event is applied by `update`; where it is less than `clock_mhz` cycles
//! after the QP's last write, `update_near` must give the same state, report and stats.

use roce_cc_params::{PROFILES, Params};
use roce_cc_sim::dcqcn_rp::{QpState, RpConfig, RpKind, update, update_near};
use roce_cc_sim::stimulus::XorShift;
use roce_cc_sim::timebase::Timebase;

fn random_params(r: &mut XorShift) -> Params {
    let mut p = Params::profile(PROFILES[r.below(PROFILES.len() as u64) as usize])
        .expect("a named profile");
    if r.below(2) == 0 {
        p.dce_tcp_rtt = 1 + r.below(6) as u32;
        p.rate_reduce_monitor_period = 1 + r.below(6) as u32;
        p.rpg_time_reset = 1 + r.below(6) as u32;
        p.rpg_byte_reset = [0, 3000, 20000, 32767][r.below(4) as usize];
        p.rpg_threshold = 1 + r.below(5) as u32;
        p.dce_tcp_g = 1 + r.below(1024) as u32;
    }
    p.clock_mhz = [100, 3, 7, 250][r.below(4) as usize];
    p.validate().expect("valid parameters");
    p
}

fn random_kind(r: &mut XorShift) -> RpKind {
    match r.below(40) {
        0..=3 => RpKind::Cnp,
        4..=5 => RpKind::Query,
        6 => RpKind::Reset,
        7 => RpKind::SetMode {
            mode: r.below(3) as u32,
            rate_q8: 12_345,
        },
        _ => RpKind::Tx {
            bytes: [64, 1024, 4096, 9000, 65535][r.below(5) as usize],
        },
    }
}

/// What the near events exercised, so the test shows it reached every branch.
#[derive(Default, Debug)]
struct Seen {
    near: u64,
    alpha_updates: u64,
    cuts: u64,
    increases: u64,
    releases: u64,
}

/// Runs `cases` streams; `window(clock_mhz)` is the largest gap (cycles since the QP's last
/// write) at which `update_near` is compared. Returns the first mismatch, if any.
fn compare(cases: u64, window: impl Fn(u64) -> u64, seen: &mut Seen) -> Option<String> {
    let mut r = XorShift::new(0x5eed_0017);
    for case in 0..cases {
        let p = random_params(&mut r);
        let cfg = RpConfig::new(&p);
        let tb = Timebase::new(&p);
        let clk = p.clock_mhz as u64;
        let mut s = QpState::default();
        let mut cycle = r.below(1 << 30);
        let mut t_write = cycle;
        for _ in 0..400 {
            cycle += match r.below(10) {
                0 => r.below(50 * clk),
                1 => r.below(3 * clk),
                _ => r.below(clk),
            };
            let now = tb.at_cycle(cycle);
            let kind = random_kind(&mut r);
            let want = update(&cfg, &s, &now, kind);
            if cycle - t_write <= window(clk) {
                let got = update_near(&cfg, &s, &now, kind);
                if got != want {
                    return Some(format!(
                        "case {case}, {} cycles after the last write: {kind:?} at {now:?} \
                         on {s:?}\n  update:      {want:?}\n  update_near: {got:?}\n  \
                         params: {p:?}",
                        cycle - t_write
                    ));
                }
                seen.near += 1;
                seen.alpha_updates += (s.limited && want.0.alpha != s.alpha) as u64;
                seen.cuts += want.2.cut as u64;
                seen.increases += (want.2.fr + want.2.ai + want.2.hai > 0) as u64;
                seen.releases += (s.limited && !want.0.limited) as u64;
            }
            if kind != RpKind::Query {
                s = want.0;
                t_write = cycle;
            }
        }
    }
    None
}

#[test]
fn update_near_equals_update_within_a_microsecond() {
    let mut seen = Seen::default();
    if let Some(m) = compare(3000, |clk| clk - 1, &mut seen) {
        panic!("update_near differs from update:\n{m}");
    }
    eprintln!("{seen:?}");
    // Every branch of the near step was taken many times.
    assert!(seen.near > 500_000, "{seen:?}");
    assert!(seen.alpha_updates > 10_000, "{seen:?}");
    assert!(seen.cuts > 1_000, "{seen:?}");
    assert!(seen.increases > 10_000, "{seen:?}");
    assert!(seen.releases > 1_000, "{seen:?}");
}

/// The condition is needed: with two instants possible it differs (a timer that fired
/// twice is seen once), so the test above can fail.
#[test]
fn update_near_differs_beyond_a_microsecond() {
    let mut seen = Seen::default();
    assert!(
        compare(3000, |clk| 2 * clk, &mut seen).is_some(),
        "update_near matched update on gaps up to two microseconds: the comparison is blind"
    );
}
