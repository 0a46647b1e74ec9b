//! `DelayLine`: a value delayed by `n` advancing cycles, kept in a small RAM instead of a
//! chain of `n` registers.
//!
//! The RP's context (the old state word, now, the event, about 800 bits) waits beside each
//! increase segment for `SEG_STAGES + 1` = 50 cycles; as a chain of registers that would
//! be 50 x 800 flip-flops per segment. Here the value is written into a RAM of `2^AW`
//! words at a pointer that advances with `en`, read back `n - 1` advancing cycles later
//! (the RAM's read is registered) and registered once more at the output (a block RAM's
//! output is slow: `toolchain.md`). yosys maps the RAM to LUT RAM or block RAM, whichever
//! is cheaper for the shape; the only flip-flops are the output register, the RAM's read
//! register, the write pointer and the two read addresses.
//!
//! Behaviour, exactly that of `n` registers that load when `en` is high: `q` is the `d`
//! presented `n` advancing cycles ago (the RAM starts as zeros, as registers do, so `q` is
//! 0 before that). `en` low holds `q`. Limits: `3 <= n <= 2^AW + 1` (checked by
//! [`DelayLine::new`]): the RAM part is `r = n - 1` long, and `r >= 2` keeps a read from
//! ever meeting the write of the same cycle.
//!
//! How the read address follows a stall: in a cycle where the pointer is `m` (the number of
//! advancing cycles so far), the RAM read registered at the next edge must be the word
//! written `r` advancing cycles before the next cycle's count. If `en` is high now the
//! count becomes `m + 1`: read `m + 1 - r`; if `en` is low it stays `m`: read `m - r`.
//!
//! Both read addresses come from registers (`ra_adv`, `ra_hold`), loaded at each edge from
//! the write pointer's next value, so the only logic between a flip-flop and the RAM's read
//! address pins is the 2:1 choice by `en` (none when `en` is tied high). The address pins
//! fan out to every bank of a wide RAM (a few hundred LUT RAM cells for the RP's context
//! lines); an adder in front of them (`wp` plus the offset) left about 6 ns of the 10 ns
//! for the route into the adder, the carry chain and the route out. A register holds its
//! address XOR the offset, so its power-up zero is the address the pointer's power-up
//! zero needs, and the XOR with a constant is at most an inverter per bit.
//!
//! The RAM is a [`StateRam`], which tells yosys that a read meeting the write of its cycle
//! is undefined (`no_rw_check`): here none does (`r >= 2`, and the addresses are exact
//! from power-up), and with the read address in a register of its own yosys cannot see
//! that, so with rust-hdl's `RAM` it built the old-word-on-collision logic around every
//! line (about 3900 flip-flops and 2000 LUTs in the board design). The unit tests below run
//! rust-hdl's model of it, which returns the new word on a collision, against a chain of
//! registers.

use crate::state_ram::StateRam;
use rust_hdl::prelude::*;

/// `q` = `d` of `n` advancing cycles ago (`n` set by [`DelayLine::new`], `3..=2^AW + 1`).
#[derive(LogicBlock)]
pub struct DelayLine<T: Synth, const AW: usize> {
    /// Clock of the RAM and the registers.
    pub clock: Signal<In, Clock>,
    /// Advance: `d` is taken and every value moves one step (low holds everything).
    pub en: Signal<In, Bit>,
    /// The value entering the line.
    pub d: Signal<In, T>,
    /// The value that entered `n` advancing cycles ago (registered).
    pub q: Signal<Out, T>,
    ram: StateRam<T, AW>,
    /// Write pointer: the number of advancing cycles, modulo `2^AW`.
    wp: DFF<Bits<AW>>,
    out: DFF<T>,
    /// The read address when advancing, `wp + read_ahead`, XOR `read_ahead`.
    ra_adv: DFF<Bits<AW>>,
    /// The read address when holding, `wp + read_hold`, XOR `read_hold`.
    ra_hold: DFF<Bits<AW>>,
    one: Constant<Bits<AW>>,
    /// `1 - r` modulo `2^AW`: read offset from `wp` when advancing.
    read_ahead: Constant<Bits<AW>>,
    /// `-r` modulo `2^AW`: read offset from `wp` when holding.
    read_hold: Constant<Bits<AW>>,
}

impl<T: Synth, const AW: usize> DelayLine<T, AW> {
    /// A delay of `n` advancing cycles; panics unless `3 <= n <= 2^AW + 1`.
    pub fn new(n: usize) -> Self {
        assert!(
            (1..=16).contains(&AW) && (3..=(1 << AW) + 1).contains(&n),
            "DelayLine<_, {AW}>: n = {n} must be 3..={} (and AW 1..=16)",
            (1usize << AW) + 1
        );
        let modulus = 1u64 << AW;
        let r = (n - 1) as u64;
        Self {
            clock: Default::default(),
            en: Default::default(),
            d: Default::default(),
            q: Default::default(),
            ram: Default::default(),
            wp: Default::default(),
            out: Default::default(),
            ra_adv: Default::default(),
            ra_hold: Default::default(),
            one: Constant::new(1.into()),
            read_ahead: Constant::new(((modulus + 1 - r) % modulus).into()),
            read_hold: Constant::new(((modulus - r) % modulus).into()),
        }
    }
}

impl<T: Synth, const AW: usize> Logic for DelayLine<T, AW> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, wp, out, ra_adv, ra_hold);
        self.ram.clock.next = self.clock.val();
        self.ram.write_address.next = self.wp.q.val();
        self.ram.write_data.next = self.d.val();
        self.ram.write_enable.next = self.en.val();
        self.ram.read_address.next = self.ra_hold.q.val() ^ self.read_hold.val();
        self.q.next = self.out.q.val();
        if self.en.val() {
            self.wp.d.next = self.wp.q.val() + self.one.val();
            self.ram.read_address.next = self.ra_adv.q.val() ^ self.read_ahead.val();
            self.out.d.next = self.ram.read_data.val();
        }
        // The next cycle's read addresses, from the next write pointer.
        self.ra_adv.d.next = (self.wp.d.val() + self.read_ahead.val()) ^ self.read_ahead.val();
        self.ra_hold.d.next = (self.wp.d.val() + self.read_hold.val()) ^ self.read_hold.val();
    }
}

/// A [`DelayLine`] for a line long and wide enough that yosys puts it in block RAM: one
/// register more before the RAM and one more after it, so `q` is `d` of `n` advancing
/// cycles ago with the RAM part two shorter (`5 <= n <= 2^AW + 3`).
///
/// Why: a `DP16KD` read without its output register has a 5.6 ns clock-to-output on
/// LFE5U-85F-6, so the register right after it has about 4 ns of route and setup left at
/// 100 MHz. When that register also feeds logic (the RP's context fields feed steps C and
/// E0), the placer puts it near the logic, and the route from the RAM (about 4.5 ns,
/// `ctx_d` into `e0_ctx`) does not fit what is left. Here the register after the
/// RAM (the inner line's `out`) feeds only `out2`, so it can sit beside the RAM. On the
/// way in, `in_q` takes whatever logic computes `d` (the user's ORs of a field), so the
/// route to the RAM's data inputs (about 0.2 ns of setup) starts at a register: `ctx_b`'s
/// `alpha_any`, an OR into the RAM, does not fit 10 ns without it.
#[derive(LogicBlock)]
pub struct BramDelayLine<T: Synth, const AW: usize> {
    /// Clock of the RAM and the registers.
    pub clock: Signal<In, Clock>,
    /// Advance: `d` is taken and every value moves one step (low holds everything).
    pub en: Signal<In, Bit>,
    /// The value entering the line.
    pub d: Signal<In, T>,
    /// The value that entered `n` advancing cycles ago (registered twice after the RAM).
    pub q: Signal<Out, T>,
    /// The first cycle: the register before the RAM.
    in_q: DFF<T>,
    /// The next `n - 2` cycles.
    line: DelayLine<T, AW>,
    /// The last cycle: the register that feeds the user's logic.
    out2: DFF<T>,
}

impl<T: Synth, const AW: usize> BramDelayLine<T, AW> {
    /// A delay of `n` advancing cycles; panics unless `5 <= n <= 2^AW + 3`.
    pub fn new(n: usize) -> Self {
        assert!(
            (1..=16).contains(&AW) && (5..=(1 << AW) + 3).contains(&n),
            "BramDelayLine<_, {AW}>: n = {n} must be 5..={} (and AW 1..=16)",
            (1usize << AW) + 3
        );
        Self {
            clock: Default::default(),
            d: Default::default(),
            en: Default::default(),
            q: Default::default(),
            in_q: Default::default(),
            line: DelayLine::new(n - 2),
            out2: Default::default(),
        }
    }
}

impl<T: Synth, const AW: usize> Logic for BramDelayLine<T, AW> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, in_q, out2);
        self.line.clock.next = self.clock.val();
        self.line.en.next = self.en.val();
        self.line.d.next = self.in_q.q.val();
        self.q.next = self.out2.q.val();
        if self.en.val() {
            self.in_q.d.next = self.d.val();
            self.out2.d.next = self.line.q.val();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Drives a line of `n` cycles with `6 * 2^aw + 40` pseudo-random values, `en` low in
    /// about one cycle in five (stalls of 1 to 3 cycles and more values than the RAM holds),
    /// and checks `q` every cycle against `n` registers with enable. `step` presents `d` and
    /// `en`, runs one clock cycle and returns `q`.
    fn matches_registers(n: usize, aw: usize, mut step: impl FnMut(u64, bool) -> u64) {
        let mut regs = vec![0u64; n];
        let mut x: u64 = 0x2545_F491_4F6C_DD1D ^ n as u64;
        let mut stalls = 0;
        for cycle in 0..(6 << aw) + 40 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let en = x % 5 != 0;
            let d = (x >> 8) & 0xFFF;
            let q = step(d, en);
            if en {
                regs.rotate_right(1);
                regs[0] = d;
            } else {
                stalls += 1;
            }
            assert_eq!(q, regs[n - 1], "AW {aw}, n {n}, cycle {cycle}");
        }
        assert!(stalls > 0, "AW {aw}, n {n}: the stimulus never stalled");
    }

    /// Presents `d` and `en` to a line `l` (either type: the same port names), runs one
    /// clock cycle and gives `q`.
    macro_rules! one_cycle {
        ($l:ident, $d:expr, $en:expr) => {{
            $l.d.next = $d.into();
            $l.en.next = $en;
            for clk in [true, false] {
                assert!(simulate(&mut $l, 100));
                $l.clock.next = Clock { clk };
            }
            assert!(simulate(&mut $l, 100));
            $l.q.val().to_u64()
        }};
    }

    fn line_matches<const AW: usize>() {
        for n in 3..=(1usize << AW) + 1 {
            let mut l = DelayLine::<Bits<12>, AW>::new(n);
            l.connect_all();
            matches_registers(n, AW, |d, en| one_cycle!(l, d, en));
        }
    }

    fn bram_line_matches<const AW: usize>() {
        for n in 5..=(1usize << AW) + 3 {
            let mut l = BramDelayLine::<Bits<12>, AW>::new(n);
            l.connect_all();
            matches_registers(n, AW, |d, en| one_cycle!(l, d, en));
        }
    }

    #[test]
    fn behaves_as_n_registers() {
        line_matches::<2>();
        line_matches::<3>();
    }

    #[test]
    fn bram_line_behaves_as_n_registers() {
        bram_line_matches::<2>();
        bram_line_matches::<3>();
    }

    #[test]
    #[should_panic(expected = "must be 3..=5")]
    fn too_long_is_refused() {
        let _ = DelayLine::<Bits<8>, 2>::new(6);
    }

    #[test]
    #[should_panic(expected = "must be 3..=5")]
    fn too_short_is_refused() {
        let _ = DelayLine::<Bits<8>, 2>::new(2);
    }

    #[test]
    #[should_panic(expected = "must be 5..=7")]
    fn bram_line_too_short_is_refused() {
        let _ = BramDelayLine::<Bits<8>, 2>::new(4);
    }
}
