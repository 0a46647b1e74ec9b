//! Three-way tests of `roce_cc_top` (the core with its AXI4-Lite register block): the
//! register block's golden model (`CsrModel` over the golden core), rust-hdl's simulation
//! and the Verilated Verilog get the same register accesses and core events.
//!
//! - rust-hdl and Verilator run in lock-step and must agree on every output every cycle
//!   (AXI channels, event readiness, reports, CNP requests, time-base outputs, busy);
//! - every access's answer (read data and response) must equal the golden model's;
//! - at the end every register of the map is read and compared.
//!
//! Stimulus: random accesses to every register (in-range, out-of-range and cross-bound
//! parameter values, partial strobes, read-only registers, unmapped and unaligned
//! addresses, every command), with random AXI4-Lite timing per access (address before
//! data, data before address, both at once, stalled B and R channels), core events
//! (CNPs, packets, CE marks, good and bad QP numbers) and time steps between them.
//!
//! A failure prints the shrunk operation list; the Verilated run is repeated with a VCD at
//! `target/tmp/top_three_way/<test>.vcd`. `ROCE_CC_CASES=N` sets the number of cases of each
//! random property (default 2 each, [`TOP_CASES`]).

use proptest::prelude::*;
use roce_cc_params::{Bound, Params, SPECS};
use roce_cc_regmap::{Access, Field, blocks, find, fw_id};
use roce_cc_sim::core_top::CoreEvent;
use roce_cc_sim::csr::{CsrModel, Resp};
use roce_cc_sim::lockstep::{Named, Waveform, cases_from_env_or, failure_vcd};
use roce_cc_sim::timebase::Timebase;
use roce_cc_sim::top_harness::{
    AccessError, AccessTiming, HdlTop, RegOp, TopOuts, TopPins, Watched, access, drain_cycles,
    idle, offer_event, top_bring_up,
};
use roce_cc_sim::verilated::VerilatedTop;
use std::path::PathBuf;

/// One step of a test: a register access with its timing, a core event, or time passing.
#[derive(Clone, Copy, Debug)]
enum Op {
    Access(RegOp, AccessTiming),
    Event(CoreEvent),
    Advance(u64),
}

const QPS: u32 = 16;

fn build() -> Params {
    Params {
        qps: QPS,
        ..Params::default()
    }
}

fn addr(block: &str, name: &str) -> u32 {
    find(&blocks(), block, name)
        .unwrap_or_else(|| panic!("no register {block}.{name}"))
        .addr
}

fn resp_code(r: Resp) -> u32 {
    r as u32
}

/// Run `ops` on the golden model and, in lock-step, on rust-hdl's and the Verilated top
/// (or on the Verilated one alone, with a VCD, when `vcd` is given).
fn run(ops: &[Op], vcd: Option<&std::path::Path>) -> Result<(), String> {
    let build = build();
    let fw = fw_id();
    let mut model = CsrModel::new(&build, fw);
    let mut hdl = HdlTop::<4>::new(&build, fw);
    let mut ver = Watched::new(VerilatedTop::new(QPS).expect("a 16-QP top is Verilated"));
    let restart = ver.restart.clone();
    if let Some(path) = vcd {
        ver.dut.open_vcd(path).map_err(|e| e.to_string())?;
    }
    let mut duts: Vec<Named<TopPins, TopOuts>> = match vcd {
        Some(_) => vec![("verilator", &mut ver)],
        None => vec![("rust-hdl", &mut hdl), ("verilator", &mut ver)],
    };
    let mut tb = Timebase::new(&build);
    let mut cycle = 0u64;
    let mut step = 0usize;
    let base = |tb: &Timebase, cycle: u64| TopPins {
        rate_ready: true,
        cnp_ready: true,
        now: tb.at_cycle(cycle),
        ..TopPins::default()
    };
    let fail = |i: usize, e: AccessError| format!("op {i}: {e}");
    top_bring_up(&mut duts, &base(&tb, cycle), &mut step).map_err(|e| fail(usize::MAX, e))?;
    // The reset's apply of the defaults restarted the time base (same periods).
    let p = restart
        .take()
        .ok_or("the reset's apply did not restart the time base")?;
    tb = Timebase::from_periods(build.clock_mhz, p);
    let status = addr("global_params", "status");
    let ctrl = addr("global_params", "ctrl");
    let mut all_reads: Vec<Op> = blocks()
        .iter()
        .flat_map(|b| b.regs.iter().map(|r| r.addr))
        .map(|a| Op::Access(RegOp::Read { addr: a }, AccessTiming::default()))
        .collect();
    let mut ops = ops.to_vec();
    ops.append(&mut all_reads);
    // Register accesses since the last event's drain: each may have sent the core a
    // command (a QP command, a query of the selected QP) that is still in the RP's queue.
    let mut accesses = 0usize;
    for (i, op) in ops.iter().enumerate() {
        match *op {
            Op::Access(reg, t) => {
                accesses += 1;
                let want = match reg {
                    RegOp::Read { addr } => {
                        let (d, r) = model.read(addr);
                        (d, resp_code(r))
                    }
                    RegOp::Write { addr, data, strb } => {
                        (0, resp_code(model.write(addr, data, strb)))
                    }
                };
                let got = access(&mut duts, &base(&tb, cycle), reg, t, &mut step)
                    .map_err(|e| fail(i, e))?;
                if (got.data, got.resp) != want {
                    return Err(format!(
                        "op {i} {reg:?}: the hardware answered data {:#x} resp {}, the golden \
                         model data {:#x} resp {}",
                        got.data, got.resp, want.0, want.1
                    ));
                }
                // After an apply, wait for it (as the driver does) so that `status` reads
                // as the model's.
                if let RegOp::Write {
                    addr,
                    data,
                    strb: 0xf,
                } = reg
                {
                    if addr == ctrl && data == 1 {
                        loop {
                            let r = access(
                                &mut duts,
                                &base(&tb, cycle),
                                RegOp::Read { addr: status },
                                AccessTiming::default(),
                                &mut step,
                            )
                            .map_err(|e| fail(i, e))?;
                            if r.data == 0 {
                                break;
                            }
                        }
                        // The apply restarts the time base with the new periods, as the
                        // model's does.
                        let p = restart.take().ok_or_else(|| {
                            format!("op {i}: the apply did not restart the time base")
                        })?;
                        tb = Timebase::from_periods(build.clock_mhz, p);
                        cycle = 0;
                        assert_eq!(model.cycle, cycle, "the model restarts its time base");
                    }
                }
                if restart.take().is_some() {
                    return Err(format!("op {i}: a time-base restart without an apply"));
                }
            }
            Op::Event(ev) => {
                model.core.apply_at_cycle(model.cycle, ev);
                offer_event(&mut duts, &base(&tb, cycle), ev, &mut step).map_err(|e| fail(i, e))?;
                // The model's counters count at once; the hardware's once the event is
                // through the RP, behind whatever the accesses since the last drain sent it.
                idle(
                    &mut duts,
                    &base(&tb, cycle),
                    drain_cycles(accesses),
                    &mut step,
                )
                .map_err(|e| fail(i, e))?;
                accesses = 0;
            }
            Op::Advance(n) => {
                cycle += n;
                model.cycle += n;
            }
        }
    }
    drop(duts);
    if vcd.is_some() {
        ver.dut.close_vcd();
    }
    Ok(())
}

fn check(test: &str, ops: &[Op]) -> Result<(), TestCaseError> {
    run(ops, None).map_err(|m| {
        let vcd = failure_vcd(
            &PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("top_three_way"),
            test,
        );
        let note = match run(ops, Some(&vcd)) {
            Ok(()) | Err(_) => format!("VCD of the Verilated run: {}", vcd.display()),
        };
        let list: String = ops
            .iter()
            .enumerate()
            .map(|(i, o)| format!("  {i:3}: {o:?}\n"))
            .collect();
        TestCaseError::fail(format!("{m}\noperations:\n{list}{note}"))
    })
}

fn timing() -> impl Strategy<Value = AccessTiming> {
    prop_oneof![
        2 => Just(AccessTiming::default()),
        3 => (0u32..4, 0u32..4, 0u32..4, 0u32..6).prop_map(|(aw, w, ar, r)| AccessTiming {
            aw_delay: aw,
            w_delay: w,
            ar_delay: ar,
            resp_delay: r,
        }),
    ]
}

/// A value for parameter `k`: its bounds, just outside them, or anything.
fn param_value(k: usize) -> BoxedStrategy<u32> {
    let s = &SPECS[k];
    let b = |x: Bound| match x {
        Bound::Const(v) => v,
        // The defaults' line rate; the staged one may differ, which is the point.
        Bound::LineRate | Bound::MaxRate => Params::default().line_rate_mbps,
    };
    let (lo, hi) = (b(s.lo), b(s.hi));
    prop_oneof![
        3 => lo..=hi,
        1 => Just(lo),
        1 => Just(hi),
        1 => Just(hi.wrapping_add(1)),
        1 => Just(lo.wrapping_sub(1)),
        1 => any::<u32>(),
        1 => 1u32..200,
    ]
    .boxed()
}

/// A write to register `reg` of the map with a plausible or hostile value.
fn write_op() -> impl Strategy<Value = RegOp> {
    let regs: Vec<(u32, Field, Access)> = blocks()
        .iter()
        .flat_map(|b| b.regs.iter().map(|r| (r.addr, r.field, r.access)))
        .collect();
    let n = regs.len();
    // Half the writes go to the window's and the control registers (a handful among ~100).
    let special: Vec<usize> = (0..n)
        .filter(|&i| {
            matches!(
                regs[i].1,
                Field::Ctrl
                    | Field::QpSelect
                    | Field::QpCommand
                    | Field::QpModeArg
                    | Field::QpRateArg
            )
        })
        .collect();
    let which = prop_oneof![
        1 => 0..n,
        1 => proptest::sample::select(special),
    ];
    let strb = prop_oneof![8 => Just(0xfu32), 1 => 0u32..16];
    (which, strb, any::<u32>(), 0u32..1000).prop_flat_map(move |(i, strb, raw, small)| {
        let (addr, field, _) = regs[i];
        let value: BoxedStrategy<u32> = match field {
            Field::Param(s) => {
                let k = SPECS.iter().position(|x| x.key == s.key).unwrap();
                param_value(k)
            }
            Field::Ctrl => prop_oneof![3 => Just(1u32), 1 => Just(0), 1 => Just(2)].boxed(),
            Field::QpSelect => (0u32..QPS + 4).boxed(),
            Field::QpCommand => (0u32..4).boxed(),
            Field::QpModeArg => (0u32..4).boxed(),
            Field::QpRateArg => prop_oneof![Just(0u32), 1u32..200_000, Just(raw)].boxed(),
            _ => prop_oneof![Just(raw), Just(small)].boxed(),
        };
        value.prop_map(move |data| RegOp::Write { addr, data, strb })
    })
}

fn read_op() -> impl Strategy<Value = RegOp> {
    prop_oneof![
        6 => (0u32..0x700).prop_map(|a| RegOp::Read { addr: a & !3 }),
        1 => any::<u32>().prop_map(|a| RegOp::Read { addr: a & 0xfff }),
    ]
}

fn event() -> impl Strategy<Value = CoreEvent> {
    let qpn = prop_oneof![6 => 0u32..QPS, 1 => QPS..(1 << 24)];
    (0u32..4, qpn, 1u32..=65535).prop_map(|(k, qpn, bytes)| match k {
        0 => CoreEvent::Cnp { qpn },
        1 => CoreEvent::Tx { qpn, bytes },
        2 => CoreEvent::Query { qpn },
        _ => CoreEvent::Rx { qpn, ecn: 3 },
    })
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        5 => (write_op(), timing()).prop_map(|(w, t)| Op::Access(w, t)),
        4 => (read_op(), timing()).prop_map(|(r, t)| Op::Access(r, t)),
        4 => event().prop_map(Op::Event),
        1 => prop_oneof![1u64..2000, 1u64..200_000_000].prop_map(Op::Advance),
    ]
}

/// Default cases of each of `top_three_way_random` and `top_three_way_random_2`: a case
/// runs rust-hdl's simulation of the whole top (about 50 s with the two properties side by
/// side on a 2-core machine: 16 cases in 413 s, release build), so the test command runs
/// 2 + 2 (each CI run draws new ones) and `ROCE_CC_CASES=N` runs N in each. The two properties are the same; there are two so
/// that the test harness's two threads share the cases.
const TOP_CASES: u32 = 2;

proptest! {
    #![proptest_config(ProptestConfig {
        cases: cases_from_env_or(TOP_CASES),
        max_shrink_iters: 500,
        .. ProptestConfig::default()
    })]

    /// Random accesses, events and time steps; up to 60 operations.
    #[test]
    fn top_three_way_random(ops in proptest::collection::vec(op(), 1..60)) {
        check("top_three_way_random", &ops)?;
    }

    /// The same property, more cases of it on the harness's second thread.
    #[test]
    fn top_three_way_random_2(ops in proptest::collection::vec(op(), 1..60)) {
        check("top_three_way_random_2", &ops)?;
    }
}

/// Every bad access of the issue, each with its own AXI timing, then a correct use of
/// every command; the final register sweep compares everything, and the error counters
/// must show each refusal.
#[test]
fn top_bad_accesses_and_handshakes() {
    let w = |addr: u32, data: u32, strb: u32, t: AccessTiming| {
        Op::Access(RegOp::Write { addr, data, strb }, t)
    };
    let r = |addr: u32, t: AccessTiming| Op::Access(RegOp::Read { addr }, t);
    let both = AccessTiming::default();
    let addr_first = AccessTiming { w_delay: 3, ..both };
    let data_first = AccessTiming {
        aw_delay: 3,
        ..both
    };
    let stalled = AccessTiming {
        ar_delay: 1,
        resp_delay: 5,
        ..both
    };
    let ai = addr("rp_params", "rpg_ai_rate");
    let line = addr("global_params", "line_rate_mbps");
    let th = addr("rp_params", "rpg_threshold");
    let line_now = Params::default().line_rate_mbps;
    let ops = vec![
        r(0xffc, both),                                             // unmapped read: DECERR
        w(0x7f0, 1, 0xf, addr_first),                               // unmapped write: DECERR
        r(0x102, stalled),                                          // unaligned: DECERR
        w(addr("fw_id", "git_hash"), 0, 0xf, data_first),           // read-only: SLVERR
        w(addr("global_params", "qps"), 64, 0xf, both),             // build-time: SLVERR
        w(ai, 0x10, 0x1, addr_first),                               // partial, not allowed: SLVERR
        w(th, 7, 0x1, data_first),                                  // partial, allowed: OKAY
        w(th, 32, 0xf, stalled),                                    // out of range: SLVERR
        w(ai, 500_000, 0xf, both),                                  // above line rate: SLVERR
        w(line, 1000, 0xf, both), // below the staged ai rate? OK or not
        w(line, 1, 0xf, both),    // below ai/hai: SLVERR
        w(addr("global_params", "ctrl"), 2, 0xf, both), // bad command: SLVERR
        w(addr("qp_window", "qp_sel"), QPS, 0xf, both), // no such QP: SLVERR
        w(addr("qp_window", "qp_cmd"), 3, 0xf, both), // bad command: SLVERR
        w(addr("qp_window", "qp_mode_arg"), 4, 0xf, both), // bad mode: SLVERR
        w(addr("hpcc_params", "hpcc_eta"), 1025, 0xf, both), // above its range: SLVERR
        w(addr("hpcc_params", "hpcc_base_rtt_ns"), 999, 0xf, both), // below: SLVERR
        w(addr("qp_window", "qp_rate_arg"), 0, 0xf, both), // zero rate: SLVERR
        // The applied line rate bounds a QP's rate: one above is refused, equal is taken.
        w(addr("qp_window", "qp_rate_arg"), line_now + 1, 0xf, both), // SLVERR
        w(addr("qp_window", "qp_rate_arg"), line_now, 0xf, addr_first), // OKAY
        w(addr("qp_window", "qp_sel"), QPS - 1, 0xf, both),           // the last QP: a query
        w(addr("global_params", "ctrl"), 0, 0xf, both),               // no command: OKAY
        Op::Event(CoreEvent::Cnp { qpn: 3 }),
        Op::Event(CoreEvent::Cnp { qpn: 1 << 20 }),
        Op::Event(CoreEvent::Rx { qpn: 3, ecn: 3 }),
        Op::Advance(12_345),
        w(addr("qp_window", "qp_sel"), 3, 0xf, stalled),
        r(addr("qp_window", "qp_rc"), stalled),
        w(addr("qp_window", "qp_mode_arg"), 2, 0x1, both),
        w(addr("qp_window", "qp_cmd"), 2, 0xf, both),
        w(addr("qp_window", "qp_mode_arg"), 1, 0x1, both),
        w(addr("qp_window", "qp_rate_arg"), 777, 0xf, both),
        w(addr("qp_window", "qp_cmd"), 2, 0xf, data_first),
        w(addr("qp_window", "qp_cmd"), 1, 0xf, addr_first),
        // HPCC through the register block: QP 3 into HPCC mode, its window snapshot.
        w(addr("qp_window", "qp_mode_arg"), 3, 0xf, both),
        w(addr("qp_window", "qp_cmd"), 2, 0xf, both),
        r(addr("qp_window", "qp_status"), both),
        r(addr("qp_window", "qp_rc"), both),
        r(addr("qp_window", "qp_u_lo"), both),
        r(addr("qp_window", "qp_u_hi"), both),
        r(addr("qp_window", "qp_window"), both),
        Op::Event(CoreEvent::Cnp { qpn: 3 }),
        w(addr("qp_window", "qp_sel"), 3, 0xf, both),
        r(addr("qp_window", "qp_window"), stalled),
        w(addr("rp_params", "rpg_time_reset"), 17, 0xf, both),
        w(addr("hpcc_params", "hpcc_base_rtt_ns"), 12_000, 0xf, both),
        w(addr("hpcc_params", "hpcc_rate_ai_mbps"), 400, 0xf, both),
        w(addr("global_params", "ctrl"), 1, 0xf, both),
        w(addr("qp_window", "qp_mode_arg"), 3, 0xf, both),
        w(addr("qp_window", "qp_sel"), 5, 0xf, both),
        w(addr("qp_window", "qp_cmd"), 2, 0xf, both),
        r(addr("qp_window", "qp_window"), both),
        Op::Event(CoreEvent::Tx {
            qpn: 2,
            bytes: 1500,
        }),
    ];
    check("top_bad_accesses_and_handshakes", &ops).unwrap();
    // The refusals above were counted: read the counters through the golden model (the
    // sweep in `check` compared the hardware's with it).
    let mut m = CsrModel::new(&build(), fw_id());
    let mut decerr = 0;
    let mut slverr = 0;
    for op in &ops {
        if let Op::Access(reg, _) = op {
            let resp = match *reg {
                RegOp::Read { addr } => m.read(addr).1,
                RegOp::Write { addr, data, strb } => m.write(addr, data, strb),
            };
            decerr += (resp == Resp::DecErr) as u32;
            slverr += (resp == Resp::SlvErr) as u32;
        }
    }
    assert_eq!(
        (decerr, slverr),
        (3, 14),
        "the refusals the list means to make"
    );
}
