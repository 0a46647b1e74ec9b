//! The AXI4-Lite slave front end (`roce_cc_hdl::axil_slave`), three ways.
//!
//! - `axil_three_way_random_pins`: golden model, rust-hdl and Verilator get the same random
//!   pins every cycle (any pattern, protocol-conforming or not, resets included) and must
//!   agree on every output every cycle.
//! - `axil_transactions_under_random_timing`: AXI masters that follow the protocol (VALID
//!   held until READY, payload stable) issue writes and reads with the address before the
//!   data, the data before the address, or both at once, with random gaps; the B and R
//!   channels are stalled at random; a register file answers each request after a random
//!   wait, with OKAY, SLVERR or DECERR. All three implementations run in lock step, and the
//!   test checks that every write and read reaches the register port exactly once, in
//!   issue order per kind, with its own address, data and strobes, and that every response
//!   carries what the register port answered.
//!
//! A failure prints the step list (or seed) and writes a VCD of the Verilated run to
//! `target/tmp/axil_three_way/`.

use proptest::prelude::*;
use roce_cc_sim::axil::{
    AxilOuts, AxilPins, GoldenAxil, HdlAxil, RESP_DECERR, RESP_OKAY, RESP_SLVERR,
};
use roce_cc_sim::lockstep::{
    Divergence, Named, cases_from_env, clock_all, eval_all, failure_vcd, three_way,
};
use roce_cc_sim::stimulus::XorShift;
use roce_cc_sim::verilated::VerilatedAxil;
use std::collections::{HashMap, VecDeque};
use std::path::PathBuf;

fn vcd_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("axil_three_way")
}

fn run_pins(
    steps: &[AxilPins],
    duts: &mut [Named<AxilPins, AxilOuts>],
) -> Result<(), Divergence<AxilOuts>> {
    for (i, p) in steps.iter().enumerate() {
        eval_all(duts, p, i)?;
        clock_all(duts);
    }
    Ok(())
}

fn pins() -> impl Strategy<Value = AxilPins> {
    let resp = prop_oneof![Just(RESP_OKAY), Just(RESP_SLVERR), Just(RESP_DECERR)];
    (
        prop_oneof![1 => Just(true), 30 => Just(false)],
        proptest::option::of(0u32..4096),
        proptest::option::of((any::<u32>(), 0u32..16)),
        any::<bool>(),
        proptest::option::of(0u32..4096),
        any::<bool>(),
        proptest::option::of((any::<u32>(), resp)),
    )
        .prop_map(|(reset, aw, w, bready, ar, rready, ack)| AxilPins {
            reset,
            aw,
            w,
            bready,
            ar,
            rready,
            ack,
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases_from_env(), .. ProptestConfig::default() })]

    #[test]
    fn axil_three_way_random_pins(steps in proptest::collection::vec(pins(), 1..400)) {
        let vcd = failure_vcd(&vcd_dir(), "axil_three_way_random_pins");
        if let Err((m, vcd)) = three_way(
            &mut GoldenAxil::new(),
            &mut HdlAxil::new(),
            VerilatedAxil::new,
            &vcd,
            |duts| run_pins(&steps, duts),
        ) {
            let list: Vec<String> = steps.iter().enumerate().map(|(i, s)| format!("  {i:4}: {s:?}")).collect();
            return Err(TestCaseError::fail(format!("{m}\nsteps:\n{}\n{vcd}", list.join("\n"))));
        }
    }
}

/// How a write's two halves are offered.
#[derive(Clone, Copy, Debug)]
enum Order {
    AddressFirst,
    DataFirst,
    Together,
}

#[derive(Clone, Copy, Debug)]
struct Write {
    addr: u32,
    data: u32,
    strb: u32,
    order: Order,
    /// Cycles between the first half and the second.
    lag: u32,
}

/// A write master that keeps VALID up until READY and never changes a payload meanwhile.
struct WriteMaster {
    queue: VecDeque<Write>,
    /// Cycles each half still waits before it is offered.
    aw_wait: Option<u32>,
    w_wait: Option<u32>,
    aw_done: bool,
    w_done: bool,
}

impl WriteMaster {
    fn start(&mut self) {
        if let Some(w) = self.queue.front() {
            let (a, d) = match w.order {
                Order::AddressFirst => (0, w.lag),
                Order::DataFirst => (w.lag, 0),
                Order::Together => (0, 0),
            };
            self.aw_wait = Some(a);
            self.w_wait = Some(d);
            self.aw_done = false;
            self.w_done = false;
        }
    }

    fn pins(&self) -> (Option<u32>, Option<(u32, u32)>) {
        let Some(w) = self.queue.front() else {
            return (None, None);
        };
        let aw = (!self.aw_done && self.aw_wait == Some(0)).then_some(w.addr);
        let wd = (!self.w_done && self.w_wait == Some(0)).then_some((w.data, w.strb));
        (aw, wd)
    }

    /// After the edge: what was taken.
    fn after(&mut self, aw_taken: bool, w_taken: bool) {
        if aw_taken {
            self.aw_done = true;
        }
        if w_taken {
            self.w_done = true;
        }
        for wait in [&mut self.aw_wait, &mut self.w_wait] {
            if let Some(n) = wait {
                *n = n.saturating_sub(1);
            }
        }
        if self.aw_done && self.w_done && !self.queue.is_empty() {
            self.queue.pop_front();
            self.start();
        }
    }
}

fn transactions(seed: u64) -> Result<(usize, usize), String> {
    let mut rng = XorShift::new(seed);
    let n = 300;
    let writes: VecDeque<Write> = (0..n)
        .map(|_| Write {
            addr: (rng.below(64) as u32) * 4 + if rng.below(8) == 0 { 0x800 } else { 0 },
            data: rng.next_u64() as u32,
            strb: if rng.below(4) == 0 {
                rng.below(16) as u32
            } else {
                0xf
            },
            order: match rng.below(3) {
                0 => Order::AddressFirst,
                1 => Order::DataFirst,
                _ => Order::Together,
            },
            lag: rng.below(4) as u32,
        })
        .collect();
    let reads: Vec<u32> = (0..n)
        .map(|_| (rng.below(64) as u32) * 4 + if rng.below(8) == 0 { 0x800 } else { 0 })
        .collect();
    let mut wm = WriteMaster {
        queue: writes.clone(),
        aw_wait: None,
        w_wait: None,
        aw_done: false,
        w_done: false,
    };
    wm.start();
    let (mut g, mut h, mut v) = (GoldenAxil::new(), HdlAxil::new(), VerilatedAxil::new());
    let mut duts: Vec<Named<AxilPins, AxilOuts>> = vec![
        ("golden", &mut g),
        ("rust-hdl", &mut h),
        ("verilator", &mut v),
    ];
    // Register file and what the register port saw and answered, in order.
    let mut mem: HashMap<u32, u32> = HashMap::new();
    let mut seen_writes: Vec<(u32, u32, u32)> = Vec::new();
    let mut seen_reads: Vec<u32> = Vec::new();
    let mut answered_b: VecDeque<u32> = VecDeque::new();
    let mut answered_r: VecDeque<(u32, u32)> = VecDeque::new();
    let (mut got_b, mut got_r) = (0usize, 0usize);
    let mut next_read = 0usize;
    let mut read_wait = rng.below(3) as u32;
    let mut ack_wait: Option<u32> = None;
    for cycle in 0..200_000usize {
        if got_b == n && got_r == n {
            break;
        }
        let (aw, w) = wm.pins();
        let ar = (next_read < n && read_wait == 0).then(|| reads[next_read]);
        let mut p = AxilPins {
            reset: cycle < 2,
            aw,
            w,
            bready: rng.below(3) > 0,
            ar,
            rready: rng.below(3) > 0,
            ack: None,
        };
        if cycle < 2 {
            p.aw = None;
            p.w = None;
            p.ar = None;
        }
        // The register file looks at the request shown before the edge.
        let probe =
            eval_all(&mut duts, &AxilPins { ack: None, ..p }, cycle).map_err(|m| m.to_string())?;
        if let Some(req) = probe.req {
            let wait = ack_wait.get_or_insert_with(|| rng.below(4) as u32);
            if *wait == 0 {
                ack_wait = None;
                let resp = if req.addr >= 0x800 {
                    RESP_DECERR
                } else if req.write && req.wdata % 7 == 0 {
                    RESP_SLVERR
                } else {
                    RESP_OKAY
                };
                let old = *mem.get(&req.addr).unwrap_or(&0);
                if req.write {
                    seen_writes.push((req.addr, req.wdata, req.wstrb));
                    if resp == RESP_OKAY {
                        let mask: u32 = (0..4)
                            .filter(|b| req.wstrb >> b & 1 == 1)
                            .map(|b| 0xffu32 << (8 * b))
                            .sum();
                        mem.insert(req.addr, (old & !mask) | (req.wdata & mask));
                    }
                    answered_b.push_back(resp);
                    p.ack = Some((0, resp));
                } else {
                    seen_reads.push(req.addr);
                    answered_r.push_back((old, resp));
                    p.ack = Some((old, resp));
                }
            } else {
                *wait -= 1;
            }
        }
        let o = eval_all(&mut duts, &p, cycle).map_err(|m| m.to_string())?;
        if let (Some(b), true) = (o.b, p.bready) {
            let want = answered_b
                .pop_front()
                .ok_or("a write response nobody answered")?;
            if b != want {
                return Err(format!(
                    "cycle {cycle}: BRESP {b}, the register port answered {want}"
                ));
            }
            got_b += 1;
        }
        if let (Some(r), true) = (o.r, p.rready) {
            let want = answered_r.pop_front().ok_or("read data nobody answered")?;
            if r != want {
                return Err(format!(
                    "cycle {cycle}: R {r:?}, the register port answered {want:?}"
                ));
            }
            got_r += 1;
        }
        let aw_taken = p.aw.is_some() && o.awready;
        let w_taken = p.w.is_some() && o.wready;
        let ar_taken = p.ar.is_some() && o.arready;
        clock_all(&mut duts);
        if cycle >= 2 {
            wm.after(aw_taken, w_taken);
        }
        if ar_taken {
            next_read += 1;
            read_wait = rng.below(3) as u32;
        } else {
            read_wait = read_wait.saturating_sub(1);
        }
    }
    let want_writes: Vec<(u32, u32, u32)> =
        writes.iter().map(|w| (w.addr, w.data, w.strb)).collect();
    if seen_writes != want_writes {
        return Err("the register port did not see every write once, in order".into());
    }
    if seen_reads != reads {
        return Err("the register port did not see every read once, in order".into());
    }
    if got_b != n || got_r != n {
        return Err(format!(
            "only {got_b} write and {got_r} read responses of {n}"
        ));
    }
    Ok((got_b, got_r))
}

#[test]
fn axil_transactions_under_random_timing() {
    for seed in 1..=6u64 {
        let (b, r) = transactions(seed).unwrap_or_else(|m| panic!("seed {seed}: {m}"));
        assert_eq!((b, r), (300, 300));
    }
}
