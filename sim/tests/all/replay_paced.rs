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
        // Seeds 3 and 6 set pacing.md's two parameters away from their defaults.
        let (mtu_bytes, pkt_overhead_bytes) = match seed {
            3 => (1500, 24),
            6 => (9216, 128),
            _ => (4096, 0),
        };
        let p = Params {
            qps: 64,
            clock_mhz: if seed % 2 == 0 { 322 } else { 250 },
            mtu_bytes,
            pkt_overhead_bytes,
            ..Params::default()
        };
        let trace = random_paced_trace(seed, p.qps, 300);
        let evs = parse_trace(&trace, &p).expect("a valid trace");
        let want = replay(&mut GoldenEngine::new(&p), &evs).expect("golden replay");
        let dut = paced_for(&p, None).expect("the 64-QP paced core is built");
        let got =
            replay(&mut PacedEngine::with_dut(&p, dut, "verilator"), &evs).expect("rtl replay");
        assert_eq!(got, want, "seed {seed}:\n{trace}");
        sends += want.matches("\"ev\": \"send\"").count();
        samples += want.matches("\"qp\"").count() - want.matches("\"ev\"").count();
    }
    assert!(sends > 100, "only {sends} send lines compared");
    assert!(samples > 300, "only {samples} sample lines compared");
}

/// `mtu_bytes` cuts a post into packets of at most that size, and `pkt_overhead_bytes`
/// holds the port for each packet's bytes plus the overhead: a QP at the line rate
/// (`off`) sends 1000-byte packets every (1000 + 100) * 8 / 100 000 us = 88 ns.
#[test]
fn paced_replay_packets_follow_mtu_and_overhead() {
    let p = Params {
        qps: 64,
        clock_mhz: 250,
        mtu_bytes: 1000,
        pkt_overhead_bytes: 100,
        ..Params::default()
    };
    let t = "{\"t_ns\": 0, \"ev\": \"mode\", \"qp\": 2, \"mode\": \"off\"}\n\
             {\"t_ns\": 1000, \"ev\": \"post\", \"qp\": 2, \"bytes\": 4500}\n\
             {\"t_ns\": 5000, \"ev\": \"sample\", \"qp\": 2}\n";
    let evs = parse_trace(t, &p).expect("a valid trace");
    let dut = Box::new(golden_paced(&p).unwrap());
    let out = replay(&mut PacedEngine::with_dut(&p, dut, "golden"), &evs).expect("replay");
    let sends: Vec<(f64, u64)> = out
        .lines()
        .filter(|l| l.contains("\"send\""))
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            (v["t_ns"].as_f64().unwrap(), v["bytes"].as_u64().unwrap())
        })
        .collect();
    let bytes: Vec<u64> = sends.iter().map(|s| s.1).collect();
    assert_eq!(bytes, [1000, 1000, 1000, 1000, 500], "{out}");
    for w in sends.windows(2) {
        assert_eq!(w[1].0 - w[0].0, 88.0, "{out}");
    }
    let dut = paced_for(&p, None).expect("the 64-QP paced core is built");
    let rtl = replay(&mut PacedEngine::with_dut(&p, dut, "verilator"), &evs).expect("rtl");
    assert_eq!(rtl, out);
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
    t.push_str(
        "{\"t_ns\": 0, \"ev\": \"mode\", \"qp\": 1, \"mode\": \"host\", \"rate_mbps\": 20000}\n",
    );
    t.push_str("{\"t_ns\": 0, \"ev\": \"mode\", \"qp\": 2, \"mode\": \"off\"}\n");
    for k in 0..4u64 {
        let t0 = 2_000 + k * 3_000_000;
        for (qp, bytes) in [(1, 30_000), (2, 9_000), (3, 5_000)] {
            t.push_str(&format!(
                "{{\"t_ns\": {t0}, \"ev\": \"post\", \"qp\": {qp}, \"bytes\": {bytes}}}\n"
            ));
        }
        t.push_str(&format!(
            "{{\"t_ns\": {}, \"ev\": \"cnp\", \"qp\": 3}}\n",
            t0 + 500
        ));
        t.push_str(&format!(
            "{{\"t_ns\": {}, \"ev\": \"sample\", \"qp\": 3}}\n",
            t0 + 40_000
        ));
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
    assert_eq!(
        skipped.matches("\"ev\": \"send\"").count(),
        4 * 13,
        "{skipped}"
    );
}

/// Slow QPs (1, 3 and 5 Mb/s: a 4 KB packet every 33, 11 and 6.6 ms) beside a fast one:
/// the golden engine skipping the time its QPs wait in the coarse wheel prints what it
/// prints when it clocks through every cycle, the rtl engine prints the same, and the
/// skipping run evaluates under 5 % of the trace's 1.1 million cycles (4.4 % when written:
/// a few hundred cycles per QP per turn of the coarse wheel, 2^14 cycles). A 25 MHz clock keeps the
/// full run short; the waits are still 70 turns of the coarse wheel.
#[test]
fn paced_replay_skips_the_waits_of_slow_qps() {
    let p = Params {
        qps: 64,
        clock_mhz: 25,
        ..Params::default()
    };
    let qps = [
        (1, 3, 4 * 4096),
        (2, 5, 3 * 4096),
        (3, 1, 2 * 4096),
        (4, 40_000, 65_536),
    ];
    let mut t = String::new();
    for (qp, mbps, _) in qps {
        t.push_str(&format!(
            "{{\"t_ns\": 0, \"ev\": \"mode\", \"qp\": {qp}, \"mode\": \"host\", \"rate_mbps\": {mbps}}}\n"
        ));
    }
    for (qp, _, bytes) in qps {
        t.push_str(&format!(
            "{{\"t_ns\": 1000, \"ev\": \"post\", \"qp\": {qp}, \"bytes\": {bytes}}}\n"
        ));
    }
    t.push_str("{\"t_ns\": 20000000, \"ev\": \"sample\", \"qp\": 1}\n");
    t.push_str("{\"t_ns\": 45000000, \"ev\": \"sample\", \"qp\": 2}\n");
    let evs = parse_trace(&t, &p).expect("a valid trace");
    let golden = |skip: bool| {
        let dut = Box::new(golden_paced(&p).unwrap());
        let e = PacedEngine::with_dut(&p, dut, "golden");
        let mut e = if skip { e } else { e.without_skipping() };
        let out = replay(&mut e, &evs).expect("replay");
        (out, e.cycles_evaluated())
    };
    let (skipped, evaluated) = golden(true);
    let (full, all) = golden(false);
    assert_eq!(skipped, full);
    // 4 + 3 + 2 packets of the slow QPs, 16 of the fast one.
    assert_eq!(skipped.matches("\"ev\": \"send\"").count(), 25, "{skipped}");
    println!("evaluated {evaluated} of {all} cycles");
    assert!(all > 1_100_000, "the full run evaluated only {all} cycles");
    assert!(
        evaluated * 20 < all,
        "the skipping run evaluated {evaluated} of {all} cycles"
    );
    let dut = paced_for(&p, None).expect("the 64-QP paced core is built");
    let mut rtl = PacedEngine::with_dut(&p, dut, "verilator");
    assert_eq!(replay(&mut rtl, &evs).expect("rtl replay"), skipped);
    assert_eq!(rtl.cycles_evaluated(), evaluated);
}
