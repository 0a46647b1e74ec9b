//! The pacer's rate-to-cycles-per-byte pipeline (`roce_cc_hdl::pacer::cpb::PacerCpb`) three
//! ways: the golden statement `roce_cc_sim::pacer::cpb_of_rate`, rust-hdl's simulation and
//! the Verilated Verilog, one rate per cycle, every output compared every cycle.

use proptest::prelude::*;
use roce_cc_hdl::pacer::cpb::{CPB_STAGES, CpbWord, PacerCpb, clock_consts};
use roce_cc_sim::pacer::{Cpb, RATE_W, cpb_of_rate};
use roce_cc_sim::verilated::pacer_cpb::VPacerCpb;
use rust_hdl::prelude::*;

/// `rates` at `clock_mhz`, one per cycle: after each edge the three outputs agree, and from
/// the eighth edge on they are the golden statement of the rate of eight edges ago.
fn cpb_three_way(rates: &[u64], clock_mhz: u32) {
    let (km, ke) = clock_consts(clock_mhz);
    let mut hdl = PacerCpb::default();
    hdl.connect_all();
    let mut v = VPacerCpb::new();
    let l = CpbWord::default();
    let decode = |w: u64| Cpb {
        m: ((w >> l.get_my_offset_m()) & ((1 << l.get_my_width_m()) - 1)) as u32,
        e: ((w >> l.get_my_offset_e()) & ((1 << l.get_my_width_e()) - 1)) as u32,
    };
    for k in 0..rates.len() + CPB_STAGES {
        let rate = rates[k.min(rates.len() - 1)];
        hdl.rate.next = rate.into();
        hdl.km.next = (km as u64).into();
        hdl.ke.next = (ke as u64).into();
        hdl.clock.next = Clock { clk: false };
        assert!(simulate(&mut hdl, 50));
        hdl.clock.next = Clock { clk: true };
        assert!(simulate(&mut hdl, 50));
        v.set_rate(rate);
        v.set_km(km as u64);
        v.set_ke(ke as u64);
        v.set_clock(0);
        v.eval();
        v.set_clock(1);
        v.eval();
        let c = hdl.cpb.val();
        let got_hdl = Cpb {
            m: c.m.to_u64() as u32,
            e: c.e.to_u64() as u32,
        };
        let got_v = decode(v.cpb());
        assert_eq!(got_hdl, got_v, "rust-hdl vs Verilator, cycle {k}");
        if k + 1 >= CPB_STAGES {
            // The rate presented eight edges ago (the last one is held at the end).
            let rate = rates[(k + 1 - CPB_STAGES).min(rates.len() - 1)];
            assert_eq!(
                got_v,
                cpb_of_rate(rate, clock_mhz),
                "cycle {k}: rate {rate}"
            );
        }
    }
}

fn rate() -> impl Strategy<Value = u64> {
    prop_oneof![
        0u64..1024,
        (0u32..RATE_W).prop_flat_map(|b| (1u64 << b)..(2u64 << b).min(1 << RATE_W)),
        Just((1u64 << RATE_W) - 1),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]
    #[test]
    fn pacer_cpb_three_way_random(
        rates in proptest::collection::vec(rate(), 1..120),
        clock in prop_oneof![Just(100u32), Just(250), Just(400), 1u32..=1000],
    ) {
        cpb_three_way(&rates, clock);
    }
}

/// Every power of two and its neighbours, the clamp at 1 Mb/s, the widest rate, at the
/// extreme clocks.
#[test]
fn pacer_cpb_corners() {
    let mut rates = vec![
        0,
        1,
        255,
        256,
        257,
        (1 << RATE_W) - 1,
        100_000 << 8,
        800_000 << 8,
    ];
    for b in 8..RATE_W as u64 {
        rates.extend([(1 << b) - 1, 1 << b, (1 << b) + 1]);
    }
    for clock in [1, 2, 3, 100, 250, 511, 512, 1000] {
        cpb_three_way(&rates, clock);
    }
}
