//! The pacer top (`roce_cc_hdl::pacer::sched::Pacer`) three ways: the golden model
//! `roce_cc_sim::pacer::sched::PacerCycle`, rust-hdl's simulation and the Verilated
//! Verilog, comparing every output every cycle (the three readies, `m_grant_valid` and its
//! payload when valid, `busy`).
//!
//! The stimulus follows the valid/ready rule: each input stream (doorbells, rate reports,
//! ACKs) holds its offer until the pacer takes it, and a new offer is drawn only then.
//! Rates put QPs in every part of the schedule (unpaced, a few cycles a packet, the fine
//! wheel, the coarse wheel, beyond its reach); windows and ACKs (mostly inside what was
//! sent, some beyond it or stale) make QPs park and unpark; the port's ready comes and
//! goes; time starts near the 48-bit wrap in some cases; resets are rare. The random
//! cases are drawn as choices that each cycle turns into offers against the golden state,
//! so shrinking keeps them meaningful.
//!
//! On a mismatch the message has the cycles up to it (as driven) and the path of a VCD of
//! the Verilated run (`target/tmp/pacer_three_way/<test>.vcd`). `ROCE_CC_CASES=N` sets the
//! number of random cases.

use proptest::prelude::*;
use roce_cc_hdl::pacer::cpb::clock_consts;
use roce_cc_hdl::pacer::sched::Pacer;
use roce_cc_sim::lockstep::{cases_from_env_or, failure_vcd};
use roce_cc_sim::pacer::sched::{PacerCycle, PacerIn, PacerOut, PacerSleep, RateIn};
use roce_cc_sim::pacer_harness::{PacerPins, PacerVcd, RtlPacer};
use roce_cc_sim::verilated::pacer::VPacer;
use roce_cc_sim::verilated::pacer_q6::VPacerQ6;
use rust_hdl::prelude::*;
use std::path::{Path, PathBuf};

const CLOCK_MHZ: u32 = 250;
const MASK48: u64 = (1 << 48) - 1;

/// One cycle's choices.
#[derive(Clone, Debug)]
struct Choice {
    /// A new doorbell when none waits: (QP pick, bytes pick).
    post: Option<(u32, u32)>,
    /// A new rate report when none waits: (QP pick, rate pick, window pick).
    rate: Option<(u32, u8, u32)>,
    /// A new ACK when none waits: (QP pick, how far into the bytes in flight).
    ack: Option<(u32, u32)>,
    grant_ready: bool,
    reset: bool,
}

/// Rates, Mb/s Q.8: unpaced from reset is the other end. At 250 MHz a 1000-byte packet
/// is 2e6 cycles at 1 Mb/s, 2000 at 1 Gb/s, 20 at 100 Gb/s, 5 at 400 Gb/s.
const RATES: [u64; 8] = [
    0,
    10 << 8,
    1000 << 8,
    10_000 << 8,
    50_000 << 8,
    100_000 << 8,
    400_000 << 8,
    (1 << 28) - 1,
];

/// Turns the choices of a cycle into offers against the golden state and the offers still
/// waiting.
fn resolve(g: &PacerCycle, qps: u32, mtu: u32, c: &Choice, wait: &mut PacerIn) {
    if wait.post.is_none() {
        wait.post = c.post.map(|(q, b)| {
            let bytes = match b % 8 {
                0 => 0,
                1 => mtu,
                2 => mtu + 1,
                3 => 100_000 + b % 50_000,
                _ => 1 + b % 5000,
            };
            (q % qps, bytes)
        });
    }
    if wait.rate.is_none() {
        wait.rate = c.rate.map(|(q, r, w)| RateIn {
            qp: q % qps,
            rate_q8: if r % 9 == 8 {
                (w as u64 * 7919) % (1 << 28)
            } else {
                RATES[r as usize % 8]
            },
            // Windows of whole packets (so `inflight + bytes` meets the window exactly),
            // one byte short of them, or any size.
            window: match w % 6 {
                0 => Some(mtu * (1 + (w >> 8) % 4)),
                1 => Some(mtu * (1 + (w >> 8) % 4) - 1),
                2 => Some(w % 20_000),
                _ => None,
            },
        });
    }
    if wait.ack.is_none() {
        wait.ack = c.ack.map(|(q, f)| {
            let q = q % qps;
            let (sent, acked) = g.sent_acked(q);
            let flight = sent.wrapping_sub(acked);
            let seq = match f % 8 {
                0 => acked.wrapping_sub(f % 1000),
                1 => sent.wrapping_add(1 + f % 3000),
                2 => sent,
                _ => acked.wrapping_add(((flight as u64 * (f as u64 % 1024)) >> 10) as u32),
            };
            (q, seq)
        });
    }
    wait.grant_ready = c.grant_ready;
    wait.reset = c.reset;
}

type H<
    const QB: usize,
    const WB: usize,
    const NW: usize,
    const LW: usize,
    const FW: usize,
    const N: usize,
> = Pacer<QB, WB, NW, LW, FW, N>;

fn hdl_drive<
    const QB: usize,
    const WB: usize,
    const NW: usize,
    const LW: usize,
    const FW: usize,
    const N: usize,
>(
    h: &mut H<QB, WB, NW, LW, FW, N>,
    i: &PacerIn,
    mtu: u32,
) {
    let (km, ke) = clock_consts(CLOCK_MHZ);
    h.reset.next = i.reset;
    h.now.next = i.now.into();
    h.mtu_bytes.next = (mtu as u64).into();
    h.km.next = (km as u64).into();
    h.ke.next = (ke as u64).into();
    h.s_post_valid.next = i.post.is_some();
    h.s_post_qp.next = (i.post.map_or(0, |p| p.0) as u64).into();
    h.s_post_bytes.next = (i.post.map_or(0, |p| p.1) as u64).into();
    h.s_rate_valid.next = i.rate.is_some();
    h.s_rate_qp.next = (i.rate.map_or(0, |r| r.qp) as u64).into();
    h.s_rate_rate.next = i.rate.map_or(0, |r| r.rate_q8).into();
    h.s_rate_win_en.next = i.rate.is_some_and(|r| r.window.is_some());
    h.s_rate_window.next = (i.rate.and_then(|r| r.window).unwrap_or(0) as u64).into();
    h.s_ack_valid.next = i.ack.is_some();
    h.s_ack_qp.next = (i.ack.map_or(0, |a| a.0) as u64).into();
    h.s_ack_seq.next = (i.ack.map_or(0, |a| a.1) as u64).into();
    h.m_grant_ready.next = i.grant_ready;
    h.clock.next = Clock { clk: false };
    assert!(simulate(h, 200));
}

fn hdl_out<
    const QB: usize,
    const WB: usize,
    const NW: usize,
    const LW: usize,
    const FW: usize,
    const N: usize,
>(
    h: &H<QB, WB, NW, LW, FW, N>,
) -> PacerOut {
    PacerOut {
        post_ready: h.s_post_ready.val(),
        rate_ready: h.s_rate_ready.val(),
        ack_ready: h.s_ack_ready.val(),
        grant: h.m_grant_valid.val().then(|| {
            (
                h.m_grant_qp.val().to_u64() as u32,
                h.m_grant_bytes.val().to_u64() as u32,
            )
        }),
        busy: h.busy.val(),
        backlogged: h.backlogged.val().to_u64() as u32,
        sleep: PacerSleep {
            asleep: h.asleep.val(),
            wake_en: h.wake_en.val(),
            wake_at: h.wake_at.val().to_u64(),
        },
    }
}

/// What a run gives when the engines agree: the grants as (cycle index, qp, bytes), the
/// bytes taken by the doorbells and granted, per QP, since the last reset, and the golden
/// model's counts of what it did.
struct Agreed {
    grants: Vec<(usize, u32, u32)>,
    posted: Vec<u64>,
    granted: Vec<u64>,
    stats: roce_cc_sim::pacer::sched::PacerStats,
}

/// The three engines on `choices` from time `t0` (after a reset cycle) with packets of
/// `mtu` bytes; the first disagreement with the cycles up to it, or what they agreed on.
/// On a disagreement, the Verilated run again with a VCD when asked.
fn run<
    const QB: usize,
    const WB: usize,
    const NW: usize,
    const LW: usize,
    const FW: usize,
    const N: usize,
    V: PacerPins + PacerVcd,
>(
    t0: u64,
    mtu: u32,
    choices: &[Choice],
    new_v: impl Fn(u32) -> V,
    vcd: Option<&Path>,
) -> Result<Agreed, String> {
    let qps = 1u32 << QB;
    let mut g = PacerCycle::new(qps, CLOCK_MHZ, mtu, t0);
    let mut h = H::<QB, WB, NW, LW, FW, N>::default();
    h.connect_all();
    let mut v = new_v(mtu);
    let reset = Choice {
        post: None,
        rate: None,
        ack: None,
        grant_ready: false,
        reset: true,
    };
    let mut wait = PacerIn::default();
    let mut done: Vec<PacerIn> = Vec::new();
    let mut a = Agreed {
        grants: Vec::new(),
        posted: vec![0; qps as usize],
        granted: vec![0; qps as usize],
        stats: Default::default(),
    };
    for (k, c) in std::iter::once(&reset).chain(choices).enumerate() {
        wait.now = (t0 + k as u64) & MASK48;
        resolve(&g, qps, mtu, c, &mut wait);
        let i = wait;
        hdl_drive(&mut h, &i, mtu);
        let ov = v.eval(&i);
        if let Some(p) = vcd {
            v.vcd(p, 2 * k as u64, k == 0);
        }
        let og = g.out(&i);
        let oh = hdl_out(&h);
        if k > 0 && (og != oh || og != ov) {
            if vcd.is_some() {
                v.close_vcd();
            }
            return Err(format!(
                "cycle {k} (0 is the reset): golden {og:?}\n rust-hdl {oh:?}\n Verilator {ov:?}\ncycles up to it (inputs as driven):\n{}",
                done.iter()
                    .enumerate()
                    .map(|(i, c)| format!("  {i}: {c:?}\n"))
                    .collect::<String>()
            ));
        }
        if i.reset {
            a.posted.iter_mut().for_each(|x| *x = 0);
            a.granted.iter_mut().for_each(|x| *x = 0);
        } else {
            if let (Some((q, b)), true) = (og.grant, i.grant_ready) {
                a.grants.push((k, q, b));
                a.granted[q as usize] += b as u64;
            }
            if let (Some((q, b)), true) = (i.post, og.post_ready) {
                a.posted[q as usize] += b as u64;
            }
        }
        // Offers taken at this edge stop waiting.
        if og.post_ready || i.reset {
            wait.post = None;
        }
        if og.rate_ready || i.reset {
            wait.rate = None;
        }
        if og.ack_ready || i.reset {
            wait.ack = None;
        }
        g.clock(&i);
        h.clock.next = Clock { clk: true };
        assert!(simulate(&mut h, 200));
        v.clock();
        if let Some(p) = vcd {
            v.vcd(p, 2 * k as u64 + 1, false);
        }
        done.push(i);
    }
    if vcd.is_some() {
        v.close_vcd();
    }
    assert_eq!(g.collisions, 0, "a schedule read met its write");
    a.stats = g.stats;
    Ok(a)
}

/// `run`, and on a mismatch the same cycles again with the Verilated run's VCD.
fn check<
    const QB: usize,
    const WB: usize,
    const NW: usize,
    const LW: usize,
    const FW: usize,
    const N: usize,
    V: PacerPins + PacerVcd,
>(
    test: &str,
    t0: u64,
    mtu: u32,
    choices: &[Choice],
    new_v: impl Fn(u32) -> V + Copy,
) -> Result<Agreed, TestCaseError> {
    run::<QB, WB, NW, LW, FW, N, V>(t0, mtu, choices, new_v, None).map_err(|m| {
        let path = failure_vcd(
            &PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("pacer_three_way"),
            test,
        );
        let _ = run::<QB, WB, NW, LW, FW, N, V>(t0, mtu, choices, new_v, Some(&path));
        TestCaseError::fail(format!("{m}VCD of the Verilated run: {}", path.display()))
    })
}

/// Start times: small, and just before the 48-bit wrap.
fn start() -> impl Strategy<Value = u64> {
    prop_oneof![
        Just(0u64),
        (0u64..3000).prop_map(|d| (1u64 << 48) - 1 - d),
        0u64..(1u64 << 48),
    ]
}

fn mtu() -> impl Strategy<Value = u32> {
    prop_oneof![Just(64u32), Just(256), Just(1500), Just(4096), 64u32..=9216]
}

/// `n` cycles of choices, after the sweep of `sweep` cycles (no offers taken there).
fn choices(sweep: usize, n: std::ops::Range<usize>) -> impl Strategy<Value = Vec<Choice>> {
    let post = prop_oneof![3 => Just(None), 1 => any::<(u32, u32)>().prop_map(Some)];
    let rate = prop_oneof![3 => Just(None), 1 => any::<(u32, u8, u32)>().prop_map(Some)];
    let ack = prop_oneof![3 => Just(None), 1 => any::<(u32, u32)>().prop_map(Some)];
    let ready = prop_oneof![6 => Just(true), 1 => Just(false)];
    let c = (
        post,
        rate,
        ack,
        ready,
        prop_oneof![400 => Just(false), 1 => Just(true)],
    )
        .prop_map(|(post, rate, ack, grant_ready, reset)| Choice {
            post,
            rate,
            ack,
            grant_ready,
            reset,
        });
    proptest::collection::vec(c, n).prop_map(move |mut cs| {
        // No reset inside the sweep: the cases spend their cycles after it.
        for c in cs.iter_mut().take(sweep) {
            c.reset = false;
        }
        cs
    })
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: cases_from_env_or(32),
        max_shrink_iters: 1000,
        ..ProptestConfig::default()
    })]
    #[test]
    fn pacer_three_way_q64(t0 in start(), mtu in mtu(), cs in choices(64, 100..2500)) {
        let a = check::<6, 1, 2, 7, 20, 64, _>("q64", t0, mtu, &cs, |mtu| RtlPacer::<VPacerQ6>::new(CLOCK_MHZ, mtu))?;
        for q in 0..64 {
            prop_assert!(a.granted[q] <= a.posted[q], "QP {q}: granted {} of {} posted", a.granted[q], a.posted[q]);
        }
    }
}

/// Drives `cycles` cycles of one doorbell per QP (`bytes` each, offered from the first
/// cycle after the sweep) with the port always ready; returns what the engines agreed.
fn all_qps<
    const QB: usize,
    const WB: usize,
    const NW: usize,
    const LW: usize,
    const FW: usize,
    const N: usize,
    V: PacerPins + PacerVcd,
>(
    test: &str,
    mtu: u32,
    bytes: u32,
    cycles: usize,
    new_v: impl Fn(u32) -> V + Copy,
) -> Agreed {
    let qps = 1u32 << QB;
    let sweep = qps as usize;
    // Doorbells go in QP order from the first cycle after the sweep.
    let cs: Vec<Choice> = (0..cycles)
        .map(|k| Choice {
            post: (k >= sweep && k - sweep < qps as usize)
                .then(|| ((k - sweep) as u32, bytes_pick(bytes))),
            rate: None,
            ack: None,
            grant_ready: true,
            reset: false,
        })
        .collect();
    check::<QB, WB, NW, LW, FW, N, V>(test, 0, mtu, &cs, new_v).unwrap()
}

/// A bytes pick that `resolve` turns into `bytes` (1..=5000).
fn bytes_pick(bytes: u32) -> u32 {
    assert!((1..=5000).contains(&bytes));
    // `b % 8 >= 4` gives `1 + b % 5000`: find such a `b`.
    (0..8)
        .map(|j| bytes - 1 + 5000 * j)
        .find(|b| b % 8 >= 4)
        .unwrap()
}

/// Every QP posted once with unpaced rates and the port always ready: every posted byte
/// is granted once, in packets of at most the MTU, and once the pipeline is full the
/// grants come one per cycle (64 QPs and 1024 QPs).
#[test]
fn pacer_all_qps_granted_one_per_cycle() {
    for (qps, cycles) in [(64usize, 64 + 4 * 64 + 200), (1024, 1024 + 4 * 1024 + 200)] {
        let a = if qps == 64 {
            all_qps::<6, 1, 2, 7, 20, 64, _>("all_q64", 256, 1000, cycles, |mtu| {
                RtlPacer::<VPacerQ6>::new(CLOCK_MHZ, mtu)
            })
        } else {
            all_qps::<10, 5, 32, 11, 24, 1024, _>("all_q1024", 256, 1000, cycles, |mtu| {
                RtlPacer::<VPacer>::new(CLOCK_MHZ, mtu)
            })
        };
        assert!(a.posted.iter().all(|&p| p == 1000), "{qps} QPs");
        assert_eq!(a.granted, a.posted, "{qps} QPs");
        assert!(a.grants.iter().all(|g| g.2 <= 256));
        // 1000 bytes in packets of 256: four grants per QP, all of them one per cycle from
        // the first grant on.
        let first = a.grants[0].0;
        let n = a.grants.len();
        assert_eq!(n, 4 * qps);
        assert_eq!(
            a.grants[n - 1].0 - first + 1,
            n,
            "{qps} QPs: grants not one per cycle"
        );
    }
}

/// A long random run (a fixed seed, 64 QPs, 1500-byte MTU) through all three engines, and
/// the golden model's counts show that it went down every path: starts and idles, fresh
/// QPs not yet due, both wheels and the wakes, parks and unparks, QPs poked back in
/// flight, refused ACKs, and cycles `asleep` with and without a QP in the coarse wheel (so
/// `asleep`, `wake_en` and `wake_at` are compared while they mean something).
#[test]
fn pacer_three_way_covers_every_path() {
    let mut x: u64 = 0x2545_f491_4f6c_dd1d;
    let mut rnd = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let cs: Vec<Choice> = (0..30_000)
        .map(|k| {
            let r = rnd();
            // Few QPs, so that doorbells, ACKs and reports meet QPs in flight.
            let q = (r >> 8) as u32 % 12;
            Choice {
                post: (k >= 64 && r % 5 == 0).then(|| (q, (r >> 20) as u32)),
                rate: (r % 7 == 1).then(|| (q, (r >> 32) as u8, (r >> 40) as u32)),
                ack: (r % 3 == 2).then(|| (q, (r >> 44) as u32)),
                grant_ready: r % 8 != 7,
                reset: false,
            }
        })
        .collect();
    let a = check::<6, 1, 2, 7, 20, 64, _>("cover", 1 << 40, 1500, &cs, |mtu| {
        RtlPacer::<VPacerQ6>::new(CLOCK_MHZ, mtu)
    })
    .unwrap();
    let s = a.stats;
    println!("{s:?}");
    for (name, n) in [
        ("grants", s.grants),
        ("starts", s.starts),
        ("idles", s.idles),
        ("not_due", s.not_due),
        ("parks", s.parks),
        ("unparks", s.unparks),
        ("poked_back", s.poked_back),
        ("to_eligible", s.to_eligible),
        ("to_fine", s.to_fine),
        ("to_coarse", s.to_coarse),
        ("wakes", s.wakes),
        ("acks_refused", s.acks_refused),
        ("asleep", s.asleep - s.asleep_wake),
        ("asleep_wake", s.asleep_wake),
    ] {
        assert!(n > 0, "the run never reached {name}: {s:?}");
    }
}
