//! network.md's checks on whole runs: conservation, one flow alone, incast convergence and
//! fairness, PFC carrying the load without congestion control, HPCC's short queue against
//! DCQCN's, determinism, and the RTL in the loop equal to the golden model.

use roce_cc_netsim::report::{Summary, deterministic_json};
use roce_cc_netsim::run_scenario;
use roce_cc_netsim::scenario::Scenario;

/// A dumbbell of `senders` at 100 Gb/s with `cable_m` cables, 16 MB buffer, PFC alpha 1/8,
/// RED 100/400 KB 0.2 for DCQCN; `set` goes into `[nic]`'s `set` table.
fn dumbbell(
    senders: u32,
    cc: &str,
    profile: &str,
    cable_m: u32,
    bytes: u64,
    duration_us: u64,
    set: &str,
) -> Scenario {
    let ecn = if cc == "dcqcn" {
        "ecn = { kmin_bytes = 100000, kmax_bytes = 400000, pmax = 0.2 }"
    } else {
        ""
    };
    let int = cc == "hpcc";
    let text = format!(
        "name = \"t\"\nseed = 3\nduration_us = {duration_us}\n\
         [topology]\nkind = \"dumbbell\"\nsenders = {senders}\nhost_rate_mbps = 100000\n\
         bottleneck_rate_mbps = 100000\ncable_m = {cable_m}\n\
         [switch]\nbuffer_bytes = 16000000\npfc = true\n{ecn}\nint = {int}\n\
         [nic]\nprofile = \"{profile}\"\ncc = \"{cc}\"\nset = {{ qps = 64{set} }}\n\
         [traffic]\nkind = \"incast\"\nbytes = {bytes}\n"
    );
    Scenario::from_toml_str(&text).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

fn run(sc: &Scenario) -> Summary {
    let s = run_scenario(sc, None, |_, _| {}).expect("the run");
    assert!(s.conservation.holds, "conservation: {:?}", s.conservation);
    assert_eq!(s.drops, 0, "a lossless run dropped packets");
    s
}

/// One flow alone: FCT = wire bytes at the line rate + base RTT + one store-and-forward
/// per hop, within one packet time (4158 bytes at 100 Gb/s: 332.64 ns).
#[test]
fn one_flow_alone_takes_its_ideal_time() {
    let sc = dumbbell(1, "off", "connectx", 2, 1_000_000, 200, "");
    let s = run(&sc);
    assert_eq!(s.flows_completed, 1);
    let fct = s.fct_us.as_ref().unwrap().max;
    // The ideal, computed independently: 244 packets of 4096 + 1 of 576, 62 header bytes
    // each, at 100 Gb/s; 2 m cables (10 ns) to the switch and on to the receiver; the last
    // packet stored and forwarded once at the switch; the ACK (64 bytes) back over two
    // links and stored once.
    let wire = 244.0 * 4158.0 + 638.0;
    let ideal_us = wire * 8.0 / 100_000.0
        + (4.0 * 10.0 + 638.0 * 8.0 / 100.0 + 2.0 * 64.0 * 8.0 / 100.0) / 1000.0;
    // Plus the core's own latency from the doorbell to the first grant: 47 cycles at
    // 250 MHz (the doorbell path, the grant pipeline and the grant queue; docs/pacer.md).
    let ideal_us = ideal_us + 47.0 * 0.004;
    let packet_us = 4158.0 * 8.0 / 100_000.0;
    assert!(
        (fct - ideal_us).abs() <= packet_us,
        "FCT {fct} us, ideal {ideal_us} us"
    );
    assert!(s.slowdown.iter().all(|b| b.p99 < 1.01), "{:?}", s.slowdown);
}

/// Cable of the convergence checks: 200 m, 1 us per link as in the HPCC simulator's
/// topologies; the dumbbell's base RTT is then about 5 us (on 2 m cables it is about 1 us,
/// under three 4 KB packets of bandwidth-delay product at 100 Gb/s).
const LONG_CABLE_M: u32 = 200;

/// N:1 incast of long flows with DCQCN (the `ns3-mlx` profile, tuned for 100 Gb/s): the
/// bottleneck stays busy, the flows converge to equal shares, and the bottleneck queue of
/// the steady state rises above Kmin and stays under Kmax (RED holds it there).
#[test]
fn dcqcn_incast_keeps_the_bottleneck_busy_and_converges() {
    let sc = dumbbell(4, "dcqcn", "ns3-mlx", LONG_CABLE_M, 1 << 30, 4000, "");
    let s = run(&sc);
    assert!(s.cnps > 0, "no CNP in an incast");
    let busy = s.judged_busy[0];
    assert!(busy >= 0.95, "bottleneck busy {busy}");
    let j = s.jain_long_flows.expect("the long flows overlap");
    assert!(j >= 0.99, "Jain {j}");
    let q = s.judged_queue.as_ref().expect("the bottleneck queue");
    assert!(
        q.p99 > 100_000.0 && q.max <= 400_000.0,
        "DCQCN queue p99 {} max {} bytes, not between Kmin and Kmax",
        q.p99,
        q.max
    );
}

/// N:1 incast of long flows with HPCC (T = 5 us, the base RTT; eta = 0.98): the bottleneck
/// runs at eta utilisation with a queue of a few packets at most, and the flows converge.
#[test]
fn hpcc_incast_runs_at_eta_with_a_near_zero_queue() {
    let sc = dumbbell(
        4,
        "hpcc",
        "hpcc-ns3",
        LONG_CABLE_M,
        1 << 30,
        8000,
        ", hpcc_base_rtt_ns = 5000, hpcc_eta = 1004",
    );
    let s = run(&sc);
    let busy = s.judged_busy[0];
    let eta = 1004.0 / 1024.0;
    assert!(busy >= 0.95, "bottleneck busy {busy}");
    assert!((busy - eta).abs() <= 0.015, "busy {busy}, eta {eta}");
    let j = s.jain_long_flows.expect("the long flows overlap");
    assert!(j >= 0.99, "Jain {j}");
    let q = s.judged_queue.as_ref().expect("the bottleneck queue");
    // One data packet on the wire: 4096 + 62 header + 42 INT bytes.
    let packet = 4200.0;
    assert!(q.p50 <= packet, "HPCC queue p50 {} bytes", q.p50);
    assert!(q.p99 <= 4.0 * packet, "HPCC queue p99 {} bytes", q.p99);
}

/// Without congestion control PFC carries the whole load: pauses and no drop.
#[test]
fn pfc_carries_the_load_without_congestion_control() {
    let sc = dumbbell(4, "off", "connectx", 2, 2_000_000, 1200, "");
    let s = run(&sc);
    assert_eq!(s.flows_completed, 4);
    assert!(s.pauses_total > 0, "no pause with 4:1 at line rate");
    assert!(s.judged_throughput[0] >= 0.95, "{:?}", s.judged_throughput);
}

/// The same scenario twice gives the same summary; the Verilated RTL in two hosts gives
/// the golden run's summary.
#[test]
fn runs_are_deterministic_and_rtl_equals_golden() {
    let sc = dumbbell(3, "dcqcn", "connectx", 2, 300_000, 150, "");
    let a = deterministic_json(&run(&sc));
    let b = deterministic_json(&run(&sc));
    assert_eq!(a, b);
    let mut r = sc.clone();
    r.nic.engine = "rtl".into();
    r.nic.rtl_hosts = Some(vec![0, 3]);
    r.check().unwrap();
    let rtl = run(&r);
    let mut rj: serde_json::Value = serde_json::from_str(&deterministic_json(&rtl)).unwrap();
    let mut gj: serde_json::Value = serde_json::from_str(&a).unwrap();
    for v in [&mut rj, &mut gj] {
        let o = v.as_object_mut().unwrap();
        o.remove("engine");
        o.remove("rtl_hosts");
    }
    assert_eq!(rj, gj);
    assert!(rtl.cnps > 0, "the RTL receiver (host 3) made no CNP");
}

/// Every scenario shipped under `scenarios/` reads and passes its checks, and a short run
/// of the 16:1 incast writes every report file.
#[test]
fn shipped_scenarios_are_valid_and_report() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../scenarios");
    let mut n = 0;
    for e in std::fs::read_dir(&dir).unwrap() {
        let path = e.unwrap().path();
        if path.extension().is_some_and(|x| x == "toml") {
            Scenario::from_file(&path).unwrap_or_else(|e| panic!("{e}"));
            n += 1;
        }
    }
    assert_eq!(n, 8, "scenarios shipped");
    let mut sc = Scenario::from_file(&dir.join("incast16-dcqcn-connectx.toml")).unwrap();
    sc.duration_us = 30;
    let out = std::env::temp_dir().join(format!("netsim_report_{}", std::process::id()));
    let s = run_scenario(&sc, Some(&out), |_, _| {}).expect("the run");
    assert!(s.conservation.holds);
    for f in [
        "summary.json",
        "flows.csv",
        "queues.csv",
        "rates.csv",
        "pauses.csv",
        "queues.svg",
        "rates.svg",
        "pauses.svg",
        "fct_slowdown.svg",
    ] {
        let text = std::fs::read_to_string(out.join(f)).unwrap_or_else(|e| panic!("{f}: {e}"));
        assert!(!text.is_empty(), "{f} is empty");
    }
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap();
    assert_eq!(summary["hosts"], 17);
    std::fs::remove_dir_all(&out).ok();
}
