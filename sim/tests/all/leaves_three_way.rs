//! The `Verilog::Custom` leaves `LutRam`, `StateRam`, `DspMul` and `ZeroExt` three ways: a plain Rust statement of
//! what they do, rust-hdl's simulation of the block (the hand-written Rust model inside
//! it), and the Verilated custom Verilog. All must agree on every cycle. (`WideMul` has its
//! own file, `wide_mul_three_way.rs`.)

use proptest::prelude::*;
use roce_cc_hdl::{DspMul15x17, LutRam25x7, StateRam12x3, ZeroExt17to18};
use roce_cc_sim::verilated::dsp_mul_15x17::VDspMul15x17;
use roce_cc_sim::verilated::lut_ram_25x7::VLutRam25x7;
use roce_cc_sim::verilated::state_ram_12x3::VStateRam12x3;
use roce_cc_sim::verilated::zero_ext_17to18::VZeroExt17to18;
use rust_hdl::prelude::*;

/// One cycle of the RAM's inputs: an optional write `(addr, data)` and two read addresses.
type RamStep = (Option<(u64, u64)>, u64, u64);

/// The three implementations of `LutRam<25, 7>` on `steps`: every cycle, after the inputs
/// settle (reads are combinational, so they show this cycle's memory before the write),
/// both read ports; then the clock edge.
fn ram_three_way(steps: &[RamStep]) {
    let mut spec = vec![0u64; 128];
    let mut hdl = LutRam25x7::default();
    hdl.connect_all();
    let mut v = VLutRam25x7::new();
    v.eval();
    for (i, &(write, r0, r1)) in steps.iter().enumerate() {
        let (we, wa, wd) = write.map_or((false, 0, 0), |(a, d)| (true, a, d));
        hdl.we.next = we;
        hdl.waddr.next = wa.into();
        hdl.wdata.next = wd.into();
        hdl.raddr0.next = r0.into();
        hdl.raddr1.next = r1.into();
        hdl.clock.next = Clock { clk: false };
        assert!(simulate(&mut hdl, 10));
        v.set_we(we as u64);
        v.set_waddr(wa);
        v.set_wdata(wd);
        v.set_raddr0(r0);
        v.set_raddr1(r1);
        v.set_clock(0);
        v.eval();
        let want = (spec[r0 as usize], spec[r1 as usize]);
        let got_hdl = (hdl.rdata0.val().to_u64(), hdl.rdata1.val().to_u64());
        let got_v = (v.rdata0(), v.rdata1());
        assert_eq!(got_hdl, want, "rust-hdl, cycle {i}");
        assert_eq!(got_v, want, "verilator, cycle {i}");
        if we {
            spec[wa as usize] = wd;
        }
        hdl.clock.next = Clock { clk: true };
        assert!(simulate(&mut hdl, 10));
        v.set_clock(1);
        v.eval();
    }
}

fn ram_step() -> impl Strategy<Value = RamStep> {
    let addr = prop_oneof![0u64..4, 0u64..128];
    let data = prop_oneof![Just(0u64), Just((1 << 25) - 1), 0u64..(1 << 25)];
    (
        proptest::option::weighted(0.5, (addr.clone(), data)),
        addr.clone(),
        addr,
    )
}

/// One cycle of the state RAM's inputs: an optional write `(addr, data)` and the read
/// address.
type StateStep = (Option<(u64, u64)>, u64);

/// The three implementations of `StateRam<Bits<12>, 3>` on `steps`: each cycle the inputs,
/// the clock edge, then the registered read. Without a collision both simulations show the
/// stored word; a read that met a write to its address is undefined in hardware, and there
/// rust-hdl's model shows the new word and Verilator (the Verilog) the old one, on purpose
/// (see `hdl/src/state_ram.rs`). rust-hdl's count of collisions is checked too.
fn state_ram_three_way(steps: &[StateStep]) {
    let mut spec = vec![0u64; 8];
    let mut hdl = StateRam12x3::default();
    hdl.connect_all();
    let mut v = VStateRam12x3::new();
    v.set_clock(0);
    v.eval();
    let mut collisions = 0;
    for (i, &(write, ra)) in steps.iter().enumerate() {
        let (we, wa, wd) = write.map_or((false, 0, 0), |(a, d)| (true, a, d));
        hdl.write_enable.next = we;
        hdl.write_address.next = wa.into();
        hdl.write_data.next = wd.into();
        hdl.read_address.next = ra.into();
        hdl.clock.next = Clock { clk: false };
        assert!(simulate(&mut hdl, 10));
        hdl.clock.next = Clock { clk: true };
        assert!(simulate(&mut hdl, 10));
        v.set_write_enable(we as u64);
        v.set_write_address(wa);
        v.set_write_data(wd);
        v.set_read_address(ra);
        v.set_clock(1);
        v.eval();
        v.set_clock(0);
        v.eval();
        let old = spec[ra as usize];
        let collided = we && wa == ra;
        if we {
            spec[wa as usize] = wd;
        }
        collisions += collided as u64;
        let hdl_want = if collided { wd } else { old };
        assert_eq!(
            hdl.read_data.val().to_u64(),
            hdl_want,
            "rust-hdl, cycle {i}"
        );
        assert_eq!(v.read_data(), old, "verilator, cycle {i}");
        assert_eq!(
            hdl.collisions(),
            collisions,
            "rust-hdl's collision count, cycle {i}"
        );
    }
}

fn state_step() -> impl Strategy<Value = StateStep> {
    let addr = prop_oneof![0u64..2, 0u64..8];
    let data = prop_oneof![Just(0u64), Just(0xfff), 0u64..0x1000];
    (proptest::option::weighted(0.6, (addr.clone(), data)), addr)
}

/// One cycle of the registered multiply's inputs: `(en, a, b)`.
type MulStep = (bool, u64, u64);

/// The three implementations of `DspMul<15, 17, 32>` (Verilator runs the simulation body,
/// the `MULT18X18D` instance being for synthesis only) on `steps`: each cycle the inputs,
/// the clock edge, then the product register, which must hold `a * b` of the last cycle
/// with `en` (zero before the first).
fn dsp_mul_three_way(steps: &[MulStep]) {
    let mut want = 0u64;
    let mut hdl = DspMul15x17::default();
    hdl.connect_all();
    let mut v = VDspMul15x17::new();
    v.set_clock(0);
    v.eval();
    for (i, &(en, a, b)) in steps.iter().enumerate() {
        hdl.en.next = en;
        hdl.a.next = a.into();
        hdl.b.next = b.into();
        hdl.clock.next = Clock { clk: false };
        assert!(simulate(&mut hdl, 10));
        hdl.clock.next = Clock { clk: true };
        assert!(simulate(&mut hdl, 10));
        v.set_en(en as u64);
        v.set_a(a);
        v.set_b(b);
        v.set_clock(1);
        v.eval();
        v.set_clock(0);
        v.eval();
        if en {
            want = a * b;
        }
        assert_eq!(hdl.p.val().to_u64(), want, "rust-hdl, cycle {i}: {a} * {b}");
        assert_eq!(v.p(), want, "verilator, cycle {i}: {a} * {b}");
    }
}

fn mul_step() -> impl Strategy<Value = MulStep> {
    let a = prop_oneof![Just(0u64), Just((1 << 15) - 1), 0u64..(1 << 15)];
    let b = prop_oneof![Just(0u64), Just((1 << 17) - 1), 0u64..(1 << 17)];
    (proptest::bool::weighted(0.8), a, b)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Random operands, `en` low one cycle in five (the register holds).
    #[test]
    fn dsp_mul_three_way_random(steps in proptest::collection::vec(mul_step(), 1..200)) {
        dsp_mul_three_way(&steps);
    }

    /// Random writes and reads, hot addresses included (collisions are frequent).
    #[test]
    fn state_ram_three_way_random(steps in proptest::collection::vec(state_step(), 1..200)) {
        state_ram_three_way(&steps);
    }

    /// Random writes and reads on both ports, hot addresses included (read of the address
    /// being written in the same cycle).
    #[test]
    fn lut_ram_three_way(steps in proptest::collection::vec(ram_step(), 1..200)) {
        ram_three_way(&steps);
    }

    /// Every 17-bit value zero-extends to the same 18 bits three ways.
    #[test]
    fn zero_ext_three_way(values in proptest::collection::vec(prop_oneof![Just(0u64), Just((1 << 17) - 1), 0u64..(1 << 17)], 1..64)) {
        let mut hdl = ZeroExt17to18::default();
        hdl.connect_all();
        let mut v = VZeroExt17to18::new();
        for x in values {
            hdl.i.next = x.into();
            assert!(simulate(&mut hdl, 10));
            v.set_i(x);
            v.eval();
            prop_assert_eq!(hdl.o.val().to_u64(), x);
            prop_assert_eq!(v.o(), x);
        }
    }
}

/// Fill every word, then read them all back on both ports: the whole address range.
#[test]
fn lut_ram_every_word() {
    let mut steps: Vec<RamStep> = (0..128)
        .map(|a| (Some((a, (a * 0x2_5a5a + 7) & ((1 << 25) - 1))), 0, 127))
        .collect();
    steps.extend((0..128).map(|a| (None, a, 127 - a)));
    ram_three_way(&steps);
}

/// Fill every word, read them all back, then a colliding write and read on each word.
#[test]
fn state_ram_every_word() {
    let mut steps: Vec<StateStep> = (0..8).map(|a| (Some((a, 0x111 * a + 5)), 7 - a)).collect();
    steps.extend((0..8).map(|a| (None, a)));
    steps.extend((0..8).map(|a| (Some((a, 0xfff - a)), a)));
    steps.extend((0..8).map(|a| (None, a)));
    state_ram_three_way(&steps);
}

/// The corners of both operands, each held for a cycle with `en` low between them.
#[test]
fn dsp_mul_corners() {
    let (amax, bmax) = ((1u64 << 15) - 1, (1u64 << 17) - 1);
    let mut steps = Vec::new();
    for a in [0, 1, amax, 1 << 14] {
        for b in [0, 1, bmax, 1 << 16] {
            steps.push((true, a, b));
            steps.push((false, amax - a, bmax - b));
        }
    }
    dsp_mul_three_way(&steps);
}
