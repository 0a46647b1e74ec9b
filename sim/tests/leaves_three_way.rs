//! The `Verilog::Custom` leaves `LutRam` and `ZeroExt` three ways: a plain Rust statement of
//! what they do, rust-hdl's simulation of the block (the hand-written Rust model inside
//! it), and the Verilated custom Verilog. All must agree on every cycle. (`WideMul` has its
//! own file, `wide_mul_three_way.rs`.)

use proptest::prelude::*;
use roce_cc_hdl::{LutRam25x7, ZeroExt17to18};
use roce_cc_sim::verilated::lut_ram_25x7::VLutRam25x7;
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

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

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
