//! A fixed pseudo-random stream through all three implementations of the reaction point:
//! a quick, deterministic check that runs before the proptest campaign.

use roce_cc_params::Params;
use roce_cc_sim::dcqcn_rp::RpCounters;
use roce_cc_sim::lockstep::Named;
use roce_cc_sim::rp_harness::{GoldenRpCycle, HdlRp, RpOuts, RpPins};
use roce_cc_sim::stimulus::{RpRun, Step, XorShift, run_lockstep};
use roce_cc_sim::verilated::VerilatedRp;

/// 14000 cycles on all 16 QPs: CNPs, packets and queries mixed, idle gaps from a cycle to
/// 3 s, backpressure on the report stream. An event the RP does not take in its cycle (the
/// same-QP interlock holds a hot QP for `UPD_STAGES + 1` cycles, over a hundred) stays
/// offered until it is taken (`run_lockstep`'s sources); that stream's new events are not
/// offered meanwhile.
fn stream() -> Vec<Step> {
    let mut rng = XorShift::new(12345);
    (0..14000)
        .map(|_| {
            let r = rng.next_u64();
            let qp = (r % 16) as u32;
            Step {
                ctl: None,
                dt: match r % 7 {
                    0 => 0,
                    1 => 250 * (r >> 40 & 511),
                    2 => 250_000_000 * (r >> 50 & 3),
                    _ => 1,
                },
                cnp: (r >> 8 & 3 == 0).then_some(qp),
                tx: (r >> 10 & 1 == 0)
                    .then_some(((r >> 12) as u32 % 16, 1 + (r >> 20) as u32 % 9000)),
                query: (r >> 14 & 1 == 0).then_some((r >> 16) as u32 % 16),
                m_ready: r >> 30 & 3 != 0,
            }
        })
        .collect()
}

/// `steps` through the golden model, rust-hdl and Verilator for 16 QPs in lock step
/// (panics with the first mismatch, or if an accepted event has no report or reports come
/// out of order); the run, the golden counters, the state RAM reads that met a write to
/// their QP (rust-hdl's count) and the events that went as followers (the golden model's
/// count; the three agree on every ready, so on when each event went).
fn all_three_16_qps(steps: &[Step]) -> (RpRun, RpCounters, u64, u64) {
    let p = Params {
        qps: 16,
        ..Params::default()
    };
    let mut g = GoldenRpCycle::new(&p);
    let mut h = HdlRp::<4>::new(&p);
    let mut v = VerilatedRp::exact(&p).expect("16-QP model is built");
    let mut duts: Vec<Named<RpPins, RpOuts>> = vec![
        ("golden", &mut g),
        ("rust-hdl", &mut h),
        ("verilator", &mut v),
    ];
    let run = run_lockstep(&p, steps, &mut duts).unwrap_or_else(|m| panic!("{m}"));
    run.every_event_reported().unwrap_or_else(|e| panic!("{e}"));
    let followers = g.followers();
    (run, g.counters(), h.state_ram_collisions(), followers)
}

/// A 1 KB packet offered in each of `cycles` cycles, the `i`-th on QP `qp(i)`, `now` one
/// cycle on per cycle, the report stream always ready.
fn packets_every_cycle(cycles: usize, qp: impl Fn(u32) -> u32) -> Vec<Step> {
    (0..cycles as u32)
        .map(|i| Step {
            ctl: None,
            dt: 1,
            cnp: None,
            tx: Some((qp(i), 1024)),
            query: None,
            m_ready: true,
        })
        .collect()
}

#[test]
fn three_implementations_agree_on_a_fixed_stream() {
    let steps = stream();
    let t = std::time::Instant::now();
    let (run, c, collisions, followers) = all_three_16_qps(&steps);
    eprintln!("{} cycles in {:?}", run.cycles, t.elapsed());
    let reports = &run.reports;
    // Held events waited (the interlock), and every one was taken in the end.
    let tx = run.sources[2];
    eprintln!("packet stream: {tx:?}");
    assert!(tx.stalled > 1000 && tx.longest_wait > 100, "{tx:?}");
    assert!(run.sources.iter().all(|s| s.offered == s.accepted));
    let limited = reports.iter().filter(|r| r.report.limited).count();
    // The stream must exercise the interesting states, or the agreement means little.
    assert!(reports.len() > 500, "only {} reports", reports.len());
    assert!(
        limited > 100 && limited < reports.len(),
        "{limited} of {} limited",
        reports.len()
    );
    // ... and increase events (compared every cycle above). With the connectx profile's
    // frequent cuts this stream reaches fast recovery and additive increase only; the
    // proptest campaign (`rp_three_way.rs`) covers hyper increase.
    eprintln!("{c:?}");
    assert!(c.increase_fr > 0 && c.increase_ai > 0, "{c:?}");
    // ... and state RAM reads that met W1's write of their QP, where rust-hdl's RAM gives
    // the new word and Verilator's the old: the agreement shows the RP never uses them.
    eprintln!("{collisions} colliding state RAM reads");
    assert!(
        collisions > 10,
        "only {collisions} colliding state RAM reads"
    );
    // ... and events that followed their QP's last writer closely (the same-QP block).
    eprintln!("{followers} followers");
    assert!(followers > 20, "only {followers} followers");
}

/// One QP's packets offered every cycle (1 KB each, `now` one cycle on per cycle): every
/// packet after the first few follows the one before it 8 slots behind, through the
/// same-QP block, so the packet stream is taken at one event per 8 cycles, sustained.
#[test]
fn one_qp_sustains_one_event_per_8_cycles() {
    const CYCLES: usize = 4000;
    let steps = packets_every_cycle(CYCLES, |_| 5);
    let (run, _, _, followers) = all_three_16_qps(&steps);
    let tx = run.sources[2];
    eprintln!("packet stream: {tx:?}, {followers} followers");
    // The first packet goes at once, the second after the interlock's window; from then
    // on one every 8 cycles.
    assert!(
        tx.accepted as usize * 8 >= CYCLES - 200,
        "{} packets in {CYCLES} cycles: {tx:?}",
        tx.accepted
    );
    assert!(
        followers + 2 >= tx.accepted,
        "{followers} followers of {tx:?}"
    );
}

/// Two QPs at once, each at the single-QP rate: packets on QP 5 and CNPs on QP 6, both
/// offered every cycle, each event less than a microsecond after its QP's last. Each
/// stream's events follow their predecessors through the same-QP block, one per 8 cycles,
/// each in its own follower check (with one check shared by the two QPs, each went about
/// one per 10 cycles).
#[test]
fn two_qps_each_sustain_one_event_per_8_cycles() {
    const CYCLES: usize = 4000;
    let steps: Vec<Step> = (0..CYCLES)
        .map(|_| Step {
            ctl: None,
            dt: 1,
            cnp: Some(6),
            tx: Some((5, 1024)),
            query: None,
            m_ready: true,
        })
        .collect();
    let (run, _, _, followers) = all_three_16_qps(&steps);
    let (cnp, tx) = (run.sources[1], run.sources[2]);
    eprintln!("CNPs {cnp:?}\npackets {tx:?}\n{followers} followers");
    for s in [cnp, tx] {
        assert!(
            s.accepted as usize * 8 >= CYCLES - 200,
            "{} events in {CYCLES} cycles: {s:?}",
            s.accepted
        );
    }
    assert!(
        followers + 4 >= cnp.accepted + tx.accepted,
        "{followers} followers of {cnp:?}, {tx:?}"
    );
}

/// Sixteen QPs' packets in turn, one offered every cycle (1 KB each, `now` one cycle on per
/// cycle): each packet comes 16 cycles after its QP's last, so after the first round every
/// packet follows its QP's last writer through the same-QP block, and the follower check
/// (one entry per edge) lets them go at one per cycle, sustained.
#[test]
fn sixteen_qps_round_robin_sustain_one_event_per_cycle() {
    const CYCLES: usize = 4000;
    let steps = packets_every_cycle(CYCLES, |i| i % 16);
    let (run, _, _, followers) = all_three_16_qps(&steps);
    let tx = run.sources[2];
    eprintln!("packet stream: {tx:?}, {followers} followers");
    // The second round waits for the first round's window (about 130 cycles); from then
    // on one packet per cycle.
    assert!(
        tx.accepted as usize >= CYCLES - 200,
        "{} packets in {CYCLES} cycles: {tx:?}",
        tx.accepted
    );
    assert!(
        followers + 200 >= tx.accepted,
        "{followers} followers of {tx:?}"
    );
}

/// The report FIFO and the credit count: a query every cycle on rotating QPs (queries
/// write nothing, so the interlock never holds one) while the report stream is stalled for
/// 700 cycles, then 1000 cycles with the consumer ready. The
/// RP must stop taking events when `REP_CREDITS` reports are owed (the three
/// implementations compare every `ready` each cycle), deliver every report it took in
/// order (checked by `all_three_16_qps`), and resume.
#[test]
fn report_fifo_fills_under_backpressure_and_drains() {
    let steps: Vec<Step> = (0..1700u32)
        .map(|i| Step {
            ctl: None,
            dt: 1,
            cnp: None,
            tx: None,
            query: Some(i % 16),
            m_ready: i >= 700,
        })
        .collect();
    let (run, _, _, _) = all_three_16_qps(&steps);
    let owed = roce_cc_hdl::dcqcn_rp::REP_CREDITS;
    // While stalled the RP takes about REP_CREDITS events plus its queue and then holds
    // the query stream (one query held for the rest of the stall); after the stall it
    // takes one per cycle again.
    let q = run.sources[3];
    assert!(
        q.accepted > 1000 + owed as u64 / 2 && q.accepted < 1700 - 300,
        "{q:?}"
    );
    let queue = roce_cc_hdl::dcqcn_rp::QB_N as u64;
    assert!(q.longest_wait > 700 - owed as u64 - queue - 20, "{q:?}");
}

/// Throughput: a query every cycle for 600 cycles on rotating QPs, then packets on the 16
/// QPs in 16 consecutive cycles, the consumer always ready. Nothing is held by the
/// interlock (queries write nothing, and no QP is written twice), so the RP must take every
/// event in the cycle it is offered (no source ever holds one): one event per cycle,
/// although HZ holds the first event of the burst a cycle (the queue's other entries absorb
/// it). The three implementations compare every `ready` each cycle.
#[test]
fn one_event_per_cycle_on_different_qps() {
    const QUERIES: u32 = 600;
    let steps: Vec<Step> = (0..QUERIES + 16)
        .map(|i| Step {
            ctl: None,
            dt: 1,
            cnp: None,
            tx: (i >= QUERIES).then_some((i % 16, 1500)),
            query: (i < QUERIES).then_some(i % 16),
            m_ready: true,
        })
        .collect();
    let (run, _, _, _) = all_three_16_qps(&steps);
    let reports = &run.reports;
    assert!(
        run.sources.iter().all(|s| s.stalled == 0),
        "events were not taken one per cycle: {:?}",
        run.sources
    );
    assert_eq!(reports.len(), steps.len());
    for (i, r) in reports.iter().enumerate() {
        assert_eq!(r.qp, i as u32 % 16, "report {i} out of order");
        assert_eq!(r.query, i < QUERIES as usize, "report {i}");
    }
}

/// Fairness: the packet stream always offers an event on one QP (the interlock holds each
/// one until its QP's last write is out of the window) while the query stream always
/// offers one on the other QPs. The round-robin arbiter serves the two in turn whenever the
/// input queue has room, so the queries get at least as many turns as the packets, and
/// none waits long; a fixed priority of packets over queries would take a query only when
/// no packet is offered, which here is never.
#[test]
fn saturating_packets_do_not_starve_queries() {
    let steps: Vec<Step> = (0..3000u32)
        .map(|i| Step {
            ctl: None,
            dt: 1,
            cnp: None,
            tx: Some((0, 1024)),
            query: Some(1 + i % 15),
            m_ready: true,
        })
        .collect();
    let (run, _, _, _) = all_three_16_qps(&steps);
    let (tx, q) = (run.sources[2], run.sources[3]);
    eprintln!("packets {tx:?}\nqueries {q:?}");
    assert!(tx.accepted >= 3000 / 130, "{tx:?}");
    assert!(q.accepted >= tx.accepted, "queries {q:?}, packets {tx:?}");
    // A query waits for at most the packet taken before it and the held one ahead of it in
    // the queue: about two same-QP intervals.
    assert!(q.longest_wait < 3 * 130, "{q:?}");
}

/// No head-of-line blocking: the packet stream offers one QP's packet every cycle, each
/// stamped 1.5 us after the one before, so none can follow its predecessor and each waits
/// in the input queue until its QP's last write has left the interlock's window (over a
/// hundred cycles). The query stream offers one on the other QPs every cycle. The queries
/// go past the waiting packets: at most `QB_CAP` + 2 packets hold entries (`cap`), and the queries
/// are taken at nearly one per cycle, none waiting more than a few cycles. (With an
/// in-order hazard check each waiting packet would hold every query behind it for the
/// whole window.)
#[test]
fn an_event_waiting_for_its_qp_does_not_hold_other_qps() {
    let steps: Vec<Step> = (0..3000u32)
        .map(|i| Step {
            ctl: None,
            dt: 150,
            cnp: None,
            tx: Some((0, 1024)),
            query: Some(1 + i % 15),
            m_ready: true,
        })
        .collect();
    let (run, _, _, followers) = all_three_16_qps(&steps);
    let (tx, q) = (run.sources[2], run.sources[3]);
    eprintln!("packets {tx:?}\nqueries {q:?}\n{followers} followers");
    assert_eq!(followers, 0);
    // The packets wait for the window, one by one.
    assert!(tx.longest_wait > 100, "{tx:?}");
    assert!(tx.accepted >= 3000 / 130, "{tx:?}");
    // The queries do not.
    assert!(q.accepted >= 2900, "{q:?}");
    assert!(q.longest_wait <= 4, "{q:?}");
}
