//! The UART bridge (`roce_cc_hdl::uart_bridge`), three ways: rust-hdl's simulation and the
//! Verilated Verilog in lock-step (every output compared every cycle), both checked against
//! the golden model at byte level (`GoldenBridge`).
//!
//! - `uart_bridge_random_pins`: random pins (reset, a line that toggles at random, AXI
//!   inputs that need not follow the protocol): rust-hdl and Verilator must agree on every
//!   output every cycle.
//! - `uart_bridge_frames_and_garbage`: a host bit-bangs the serial line at the divisor
//!   (with random gaps between bytes) against an AXI4-Lite slave with random READY and
//!   response timing over a memory with errors. The script mixes good reads and writes
//!   (aligned, unaligned, DECERR, SLVERR, out-of-range addresses, partial strobes) with
//!   corrupted frames (a flipped bit: bad check byte), partial frames and lost bytes
//!   followed by silence (the inter-byte timeout), stray bytes, and bytes with a bad stop
//!   bit. Like a real host, it waits for each response before it sends more. The slave
//!   must see exactly the accesses the golden model predicts, the host must receive exactly
//!   the predicted response bytes, and the bridge must pulse `error` once per dropped byte
//!   or frame; after all of that, a last good request must still work (nothing wedged).
//!
//! A failure writes a VCD of the Verilated run to `target/tmp/uart_bridge_three_way/`.

use proptest::prelude::*;
use roce_cc_sim::lockstep::{
    Divergence, Named, Waveform, cases_from_env, clock_all, eval_all, failure_vcd,
};
use roce_cc_sim::stimulus::XorShift;
use roce_cc_sim::uart_bridge_harness::{
    Access, AxilMemSlave, GoldenBridge, HdlUartBridge, MemSemantics, SIM_DIVISOR, SIM_TIMEOUT,
    SerialRx, SerialTx, UbOuts, UbPins, read_frame, write_frame,
};
use roce_cc_sim::verilated::VerilatedUartBridge;
use std::path::PathBuf;

fn vcd_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("uart_bridge_three_way")
}

fn pins() -> impl Strategy<Value = UbPins> {
    (
        prop_oneof![1 => Just(true), 60 => Just(false)],
        prop_oneof![1 => Just(false), 4 => Just(true)],
        any::<bool>(),
        any::<bool>(),
        proptest::option::of(0u32..4),
        any::<bool>(),
        proptest::option::of((any::<u32>(), 0u32..4)),
    )
        .prop_map(|(reset, rxd, awready, wready, b, arready, r)| UbPins {
            reset,
            rxd,
            awready,
            wready,
            b,
            arready,
            r,
        })
}

fn run_pins(
    steps: &[UbPins],
    duts: &mut [Named<UbPins, UbOuts>],
) -> Result<(), Divergence<UbOuts>> {
    for (i, p) in steps.iter().enumerate() {
        eval_all(duts, p, i)?;
        clock_all(duts);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases_from_env(), .. ProptestConfig::default() })]

    #[test]
    fn uart_bridge_random_pins(steps in proptest::collection::vec(pins(), 1..600)) {
        // Hold each random line level for a few cycles so that start bits and bytes occur.
        let steps: Vec<UbPins> = steps.iter().flat_map(|p| std::iter::repeat_n(*p, 5)).collect();
        let (mut h, mut v) = (HdlUartBridge::new(), VerilatedUartBridge::new());
        let mut duts: Vec<Named<UbPins, UbOuts>> = vec![("rust-hdl", &mut h), ("verilator", &mut v)];
        if let Err(m) = run_pins(&steps, &mut duts) {
            let vcd = failure_vcd(&vcd_dir(), "uart_bridge_random_pins");
            let mut v = VerilatedUartBridge::new();
            let _ = v.open_vcd(&vcd);
            let mut duts: Vec<Named<UbPins, UbOuts>> = vec![("verilator", &mut v)];
            let _ = run_pins(&steps, &mut duts);
            v.close_vcd();
            return Err(TestCaseError::fail(format!("{m}\nVCD: {}", vcd.display())));
        }
    }
}

/// One piece of the host's script.
#[derive(Clone, Debug)]
enum Item {
    /// Bytes sent with short random gaps (each may be sent with a bad stop bit).
    Bytes(Vec<(u8, bool)>),
    /// Silence longer than the inter-byte timeout.
    Gap,
}

/// The test bench: both hardware simulations in lock-step, the serial line, the slave.
struct Bench<'a> {
    duts: Vec<Named<'a, UbPins, UbOuts>>,
    tx: SerialTx,
    rx: SerialRx,
    slave: AxilMemSlave,
    errors: u64,
    cycle: usize,
}

impl Bench<'_> {
    fn step(&mut self) -> Result<(), String> {
        let mut p = self.slave.pins(self.tx.next_level());
        p.reset = self.cycle < 2;
        let o = eval_all(&mut self.duts, &p, self.cycle).map_err(|d| d.to_string())?;
        self.rx.sample(o.txd);
        self.errors += o.error as u64;
        clock_all(&mut self.duts);
        if !p.reset {
            self.slave.after(&p, &o);
        }
        self.cycle += 1;
        Ok(())
    }

    /// Run until the line has sent everything and `n` response bytes are in.
    fn run_until(&mut self, n: usize, what: &str) -> Result<(), String> {
        let limit = self.cycle + 200_000;
        while !(self.tx.is_idle() && self.rx.bytes.len() >= n && self.rx.is_idle()) {
            if self.cycle > limit {
                return Err(format!(
                    "cycle {}: {what}: waited for {n} response bytes, have {:02x?}",
                    self.cycle, self.rx.bytes
                ));
            }
            self.step()?;
        }
        Ok(())
    }
}

fn random_addr(rng: &mut XorShift) -> u16 {
    match rng.below(10) {
        0 => 0x800 + rng.below(0x800) as u16 & !3, // DECERR in the slave
        1 => 0x1000 + rng.below(0xf000) as u16,    // above 12 bits: DECERR in the bridge
        2 => (rng.below(0x200) as u16) * 4 + 1,    // unaligned: SLVERR
        _ => (rng.below(0x40) as u16) * 4,         // a few registers, often reused
    }
}

fn good_frame(rng: &mut XorShift) -> Vec<u8> {
    let addr = random_addr(rng);
    if rng.below(2) == 0 {
        read_frame(addr)
    } else {
        let strb = if rng.below(3) == 0 {
            rng.below(256) as u8
        } else {
            0xf
        };
        write_frame(addr, rng.next_u64() as u32, strb)
    }
}

fn script(rng: &mut XorShift, n: usize) -> Vec<Item> {
    let plain = |f: Vec<u8>| Item::Bytes(f.into_iter().map(|b| (b, false)).collect());
    let mut out = Vec::new();
    for _ in 0..n {
        match rng.below(12) {
            0 => {
                // A corrupted frame: one bit flipped.
                let mut f = good_frame(rng);
                let i = rng.below(f.len() as u64) as usize;
                f[i] ^= 1 << rng.below(8);
                out.push(plain(f));
                out.push(Item::Gap);
            }
            1 => {
                // A partial frame, then silence.
                let f = good_frame(rng);
                let k = 1 + rng.below(f.len() as u64 - 1) as usize;
                out.push(plain(f[..k].to_vec()));
                out.push(Item::Gap);
            }
            2 => {
                // A lost byte, then silence.
                let mut f = good_frame(rng);
                f.remove(rng.below(f.len() as u64) as usize);
                out.push(plain(f));
                out.push(Item::Gap);
            }
            3 => {
                // Stray bytes (op codes among them start frames the check byte refuses).
                let g = (0..1 + rng.below(12))
                    .map(|_| rng.below(256) as u8)
                    .collect();
                out.push(plain(g));
                out.push(Item::Gap);
            }
            4 => {
                // A byte with a bad stop bit somewhere in a frame, then the frame again.
                let f = good_frame(rng);
                let i = rng.below(f.len() as u64) as usize;
                let mut b: Vec<(u8, bool)> = f.iter().map(|&b| (b, false)).collect();
                b[i].1 = true;
                b.truncate(i + 1);
                out.push(Item::Bytes(b));
                out.push(plain(f));
            }
            _ => out.push(plain(good_frame(rng))),
        }
    }
    out.push(Item::Gap);
    out.push(plain(read_frame(0x10)));
    out
}

fn frames_and_garbage(seed: u64, stall_pct: u64) -> Result<(usize, u64), String> {
    let mut rng = XorShift::new(seed);
    let items = script(&mut rng, 60);
    let (mut h, mut v) = (HdlUartBridge::new(), VerilatedUartBridge::new());
    let mut bench = Bench {
        duts: vec![("rust-hdl", &mut h), ("verilator", &mut v)],
        tx: SerialTx::new(SIM_DIVISOR),
        rx: SerialRx::new(SIM_DIVISOR),
        slave: AxilMemSlave::new(seed ^ 0xabcd, stall_pct),
        errors: 0,
        cycle: 0,
    };
    bench.tx.idle(20);
    let mut golden = GoldenBridge::new();
    let mut sem = MemSemantics::default();
    let mut want_log: Vec<Access> = Vec::new();
    let mut responses = 0usize;
    for (k, item) in items.iter().enumerate() {
        match item {
            Item::Gap => {
                bench.tx.idle(SIM_TIMEOUT + 30 * SIM_DIVISOR);
                golden.gap();
                bench.run_until(0, "gap")?;
            }
            Item::Bytes(bytes) => {
                for &(b, bad_stop) in bytes {
                    bench.tx.idle(rng.below(3 * SIM_DIVISOR as u64) as u32);
                    if bad_stop {
                        bench.tx.bad_stop(b);
                        golden.garbled();
                        continue;
                    }
                    bench.tx.byte(b);
                    if let Some(req) = golden.byte(b) {
                        let (access, want) = GoldenBridge::respond(&req, &mut sem);
                        want_log.extend(access);
                        bench.run_until(want.len(), &format!("item {k} {item:?}"))?;
                        let got: Vec<u8> = bench.rx.bytes.drain(..).collect();
                        if got != want {
                            return Err(format!(
                                "cycle {}: item {k} ({req:?}): response {got:02x?}, golden \
                                 {want:02x?}",
                                bench.cycle
                            ));
                        }
                        responses += 1;
                    }
                }
                bench.run_until(0, "bytes")?;
            }
        }
        if !bench.rx.bytes.is_empty() {
            return Err(format!(
                "item {k} ({item:?}): unexpected response bytes {:02x?}",
                bench.rx.bytes
            ));
        }
    }
    // Let the last error pulse out.
    for _ in 0..4 {
        bench.step()?;
    }
    if bench.slave.log != want_log {
        let n = bench
            .slave
            .log
            .iter()
            .zip(&want_log)
            .take_while(|(a, b)| a == b)
            .count();
        return Err(format!(
            "the slave saw {} accesses, golden {}; first difference at {n}: {:?} vs {:?}",
            bench.slave.log.len(),
            want_log.len(),
            bench.slave.log.get(n),
            want_log.get(n)
        ));
    }
    if bench.errors != golden.errors {
        return Err(format!(
            "the bridge pulsed error {} times, golden counts {} dropped bytes/frames",
            bench.errors, golden.errors
        ));
    }
    if bench.rx.framing_errors != 0 {
        return Err("the bridge sent a byte with a bad stop bit".into());
    }
    Ok((responses, golden.errors))
}

#[test]
fn uart_bridge_frames_and_garbage() {
    let seeds = roce_cc_sim::lockstep::env_u64("ROCE_CC_UART_SEEDS", 6);
    for seed in 1..=seeds {
        let stall = [0, 30, 70][seed as usize % 3];
        match frames_and_garbage(seed, stall) {
            Ok((n, e)) => {
                assert!(n >= 30, "seed {seed}: only {n} responses");
                eprintln!("seed {seed} (stall {stall}%): {n} responses, {e} dropped");
            }
            Err(m) => panic!("seed {seed} (stall {stall}%): {m}"),
        }
    }
}
