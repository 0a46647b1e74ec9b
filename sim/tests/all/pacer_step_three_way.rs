//! One grant's arithmetic (`roce_cc_hdl::pacer::pace_step::PaceStep`) three ways: the golden
//! statement `roce_cc_sim::pacer::QpPace::grant` (with `cycles_q16` for the gap), rust-hdl's
//! simulation and the Verilated Verilog, one grant per cycle, every output compared every
//! cycle. The stimulus covers QPs ahead of and behind their schedule (by less and by more
//! than one gap), `next` and `now` across the wrap of the time, backlogs below, at and above
//! the MTU, and cycles per byte of every rate at several clocks.

use proptest::prelude::*;
use roce_cc_hdl::pacer::cpb::CpbWord;
use roce_cc_hdl::pacer::pace_step::{NOW_W, PACE_STAGES, PaceStep};
use roce_cc_sim::pacer::{FRAC_W, QpPace, RATE_W, cpb_of_rate, cycles_q16};
use roce_cc_sim::verilated::pacer_step::VPacerStep;
use rust_hdl::prelude::*;

/// One grant presented to the unit.
#[derive(Clone, Copy, Debug)]
struct GrantIn {
    /// Whole cycles.
    now: u64,
    /// Q.16.
    next: u64,
    backlog: u32,
    rate_q8: u64,
    clock_mhz: u32,
}

/// The unit's outputs: bytes, gap, backlog left, next.
type Out = (u64, u64, u64, u64);

fn golden(g: &GrantIn, mtu: u32) -> Out {
    let cpb = cpb_of_rate(g.rate_q8, g.clock_mhz);
    let mut q = QpPace {
        backlog: g.backlog as u64,
        next: g.next,
        cpb,
        ..Default::default()
    };
    let bytes = q.grant(g.now << FRAC_W, mtu);
    (bytes as u64, cycles_q16(bytes, cpb), q.backlog, q.next)
}

/// `grants` with `mtu` bytes: after each edge rust-hdl and Verilator agree on every output,
/// and from the sixth edge on they are the golden grant of six edges ago.
fn step_three_way(grants: &[GrantIn], mtu: u32) {
    let mut hdl = PaceStep::default();
    hdl.connect_all();
    let mut v = VPacerStep::new();
    let l = CpbWord::default();
    for k in 0..grants.len() + PACE_STAGES {
        let g = grants[k.min(grants.len() - 1)];
        let cpb = cpb_of_rate(g.rate_q8, g.clock_mhz);
        hdl.now.next = g.now.into();
        hdl.next_in.next = g.next.into();
        hdl.backlog.next = (g.backlog as u64).into();
        hdl.cpb.next = CpbWord {
            m: (cpb.m as u64).into(),
            e: (cpb.e as u64).into(),
        };
        hdl.mtu_bytes.next = (mtu as u64).into();
        hdl.clock.next = Clock { clk: false };
        assert!(simulate(&mut hdl, 50));
        hdl.clock.next = Clock { clk: true };
        assert!(simulate(&mut hdl, 50));
        v.set_now(g.now);
        v.set_next_in(g.next);
        v.set_backlog(g.backlog as u64);
        v.set_cpb(
            ((cpb.m as u64) << l.get_my_offset_m()) | ((cpb.e as u64) << l.get_my_offset_e()),
        );
        v.set_mtu_bytes(mtu as u64);
        v.set_clock(0);
        v.eval();
        v.set_clock(1);
        v.eval();
        let got_hdl: Out = (
            hdl.bytes_out.val().to_u64(),
            hdl.gap_out.val().to_u64(),
            hdl.backlog_out.val().to_u64(),
            hdl.next_out.val().to_u64(),
        );
        let got_v: Out = (v.bytes_out(), v.gap_out(), v.backlog_out(), v.next_out());
        assert_eq!(
            got_hdl, got_v,
            "rust-hdl vs Verilator (bytes, gap, backlog, next), cycle {k}"
        );
        if k + 1 >= PACE_STAGES {
            let g = grants[(k + 1 - PACE_STAGES).min(grants.len() - 1)];
            assert_eq!(
                got_v,
                golden(&g, mtu),
                "cycle {k}: grant {g:?} (bytes, gap, backlog, next)"
            );
        }
    }
}

/// A grant: `next` within a few gaps of `now` either way (or anywhere), `now` anywhere in
/// its 48 bits (near the wrap often), backlogs around the MTU, rates over every octave.
fn grant() -> impl Strategy<Value = GrantIn> {
    let now = prop_oneof![
        0u64..1 << 20,
        ((1u64 << NOW_W) - (1 << 20))..(1u64 << NOW_W),
        0u64..1 << NOW_W,
    ];
    let offset = prop_oneof![
        // Within a few gaps of now, in Q.16.
        (-(1i64 << 40)..(1i64 << 40)),
        (-(1i64 << 24)..(1i64 << 24)),
        Just(0i64),
        any::<i64>(),
    ];
    let backlog = prop_oneof![0u32..10_000, any::<u32>(), Just(0u32),];
    let rate = prop_oneof![
        0u64..1024,
        (0u32..RATE_W as u32).prop_flat_map(|b| (1u64 << b)..(2u64 << b).min(1 << RATE_W)),
    ];
    let clock = prop_oneof![Just(100u32), Just(250), Just(400), 1u32..=1000];
    (now, offset, backlog, rate, clock).prop_map(|(now, off, backlog, rate_q8, clock_mhz)| {
        GrantIn {
            now,
            next: (now << FRAC_W).wrapping_add(off as u64),
            backlog,
            rate_q8,
            clock_mhz,
        }
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]
    #[test]
    fn pacer_step_three_way_random(
        grants in proptest::collection::vec(grant(), 1..150),
        mtu in prop_oneof![Just(64u32), Just(1024), Just(4096), Just(9216), 64u32..=9216],
    ) {
        step_three_way(&grants, mtu);
    }
}

/// Corners: the largest gap (9216 bytes at 1 Mb/s, 1000 MHz), the smallest (one byte at
/// the widest rate, 1 MHz), `next` exactly one gap behind `now` and one unit either side of
/// it, `now - gap` across the wrap of the time, empty and full backlogs.
#[test]
fn pacer_step_corners() {
    let mut grants = Vec::new();
    for (rate_q8, clock_mhz) in [
        (0u64, 1000u32),
        (256, 1000),
        ((1 << RATE_W) - 1, 1),
        (100_000 << 8, 250),
    ] {
        for backlog in [0u32, 1, 9215, 9216, 9217, u32::MAX] {
            let cpb = cpb_of_rate(rate_q8, clock_mhz);
            let gap = cycles_q16(backlog.min(9216), cpb) as i64;
            for now in [0u64, 1, 5, (1 << NOW_W) - 1] {
                for off in [-gap - 1, -gap, -gap + 1, 0, gap, i64::MIN, i64::MAX] {
                    grants.push(GrantIn {
                        now,
                        next: (now << FRAC_W).wrapping_add(off as u64),
                        backlog,
                        rate_q8,
                        clock_mhz,
                    });
                }
            }
        }
    }
    step_three_way(&grants, 9216);
}
