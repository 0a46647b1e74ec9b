//! The replay of traces with `post` events (`replay_paced`): the golden engine (the golden
//! paced core, cycle by cycle) and the rtl engine over the Verilated paced core print the
//! same bytes on traces that mix `post` with every other kind, and skipping idle time
//! changes nothing.

use roce_cc_params::Params;
use roce_cc_sim::replay_golden::{GoldenEngine, replay};
use roce_cc_sim::replay_paced::{PacedEngine, golden_paced};
use roce_cc_sim::trace::{parse_trace, random_paced_trace};
use roce_cc_sim::verilated::paced_for;

/// Random traces of all kinds with posts, 64 QPs: golden and rtl print the same bytes, and
/// the traces grant packets of every QP that posts.
#[test]
fn paced_replay_rtl_equals_golden() {
    let (mut sends, mut samples) = (0, 0);
    for seed in 1..=6u64 {
        let p = Params {
            qps: 64,
            clock_mhz: if seed % 2 == 0 { 322 } else { 250 },
            ..Params::default()
        };
        let trace = random_paced_trace(seed, p.qps, 300);
        let evs = parse_trace(&trace, &p).expect("a valid trace");
        let want = replay(&mut GoldenEngine::new(&p), &evs).expect("golden replay");
        let dut = paced_for(&p, None).expect("the 64-QP paced core is built");
        let got = replay(&mut PacedEngine::with_dut(&p, dut, "verilator"), &evs)
            .expect("rtl replay");
        assert_eq!(got, want, "seed {seed}:\n{trace}");
        sends += want.matches("\"ev\": \"send\"").count();
        samples += want.matches("\"qp\"").count() - want.matches("\"ev\"").count();
    }
    assert!(sends > 100, "only {sends} send lines compared");
    assert!(samples > 300, "only {samples} sample lines compared");
}

/// Bursts of work with idle gaps of milliseconds between them: the golden engine skipping
/// idle time prints what it prints when it clocks through every idle cycle.
#[test]
fn paced_replay_skipping_idle_time_changes_nothing() {
    let p = Params {
        qps: 64,
        clock_mhz: 100,
        ..Params::default()
    };
    let mut t = String::new();
    t.push_str("{\"t_ns\": 0, \"ev\": \"mode\", \"qp\": 1, \"mode\": \"host\", \"rate_mbps\": 20000}\n");
    t.push_str("{\"t_ns\": 0, \"ev\": \"mode\", \"qp\": 2, \"mode\": \"off\"}\n");
    for k in 0..4u64 {
        let t0 = 2_000 + k * 3_000_000;
        for (qp, bytes) in [(1, 30_000), (2, 9_000), (3, 5_000)] {
            t.push_str(&format!(
                "{{\"t_ns\": {t0}, \"ev\": \"post\", \"qp\": {qp}, \"bytes\": {bytes}}}\n"
            ));
        }
        t.push_str(&format!("{{\"t_ns\": {}, \"ev\": \"cnp\", \"qp\": 3}}\n", t0 + 500));
        t.push_str(&format!("{{\"t_ns\": {}, \"ev\": \"sample\", \"qp\": 3}}\n", t0 + 40_000));
    }
    let evs = parse_trace(&t, &p).expect("a valid trace");
    let run = |skip: bool| {
        let dut = Box::new(golden_paced(&p).unwrap());
        let e = PacedEngine::with_dut(&p, dut, "golden");
        let mut e = if skip { e } else { e.without_skipping() };
        replay(&mut e, &evs).expect("replay")
    };
    let skipped = run(true);
    assert_eq!(skipped, run(false));
    // Every burst sends all its bytes: 8 + 3 + 2 packets of at most 4096 bytes.
    assert_eq!(skipped.matches("\"ev\": \"send\"").count(), 4 * 13, "{skipped}");
}

