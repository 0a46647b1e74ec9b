//! `Recip`: `~ 2^47 / m` for a normalised 24-bit mantissa `m` (`2^23 <= m < 2^24`), a
//! table read and a linear interpolation, pipelined: [`RECIP_STAGES`] = 4 registers from
//! `m` to `y`. The golden statement is `roce_cc_sim::hpcc_window::recip_norm`.
//!
//! The table has 1024 words, one per value of the 10 bits below `m`'s leading one (`i`):
//! `t0 = round(2^34 / (1024 + i))` (25 bits, `2^23 < t0 <= 2^24`) and the slope to the next
//! entry `t0 - t1` (14 bits: at most 16 367, at `i = 0`). The 13 bits below the index (`f`)
//! interpolate: `y = t0 - floor(slope * f / 2^13)`. `1/m` is convex, so the chord lies above
//! it and `y` is high by at most `2^-21` of `1/m`, plus the table's rounding (`2^-25`).
//!
//! | register | holds | logic before it |
//! |---|---|---|
//! | 1 | `m`'s index in the block RAM's address register (`SyncROM`), `f` | none |
//! | 2 | the table word, `f` | none (the block RAM's read) |
//! | 3 | `slope * f` (`DspMul`, the DSP's output register), `t0` | none |
//! | 4 | `y` | a 25-bit subtract |
//!
//! `m` is the caller's stage logic, not a register: register 1 is the caller's mantissa
//! register, held as the block RAM's address. Register 2 is in the fabric, so that the
//! block RAM's read (5.6 ns clock to output on an LFE5U-85F-6 without its output register)
//! and the DSP's input setup (3.5 ns without its input register) are in different cycles.
//!
//! The registers load at every edge (the units that use `Recip` advance every cycle).

use crate::dsp_mul::DspMul;
use crate::zero_ext::ZeroExt;
use rust_hdl::prelude::*;

/// Registers from `m` to `y`.
pub const RECIP_STAGES: usize = 4;
/// Bits of the table index (the mantissa's bits below its leading one, from the top).
pub const RECIP_IDX_W: usize = 10;
/// Bits of the interpolation fraction (the mantissa's bits below the index).
pub const RECIP_FRAC_W: usize = 13;
/// Bits of a table value (`t0 <= 2^24`).
pub const RECIP_W: usize = 25;
/// Bits of a table slope.
pub const SLOPE_W: usize = 14;
/// Bits of a table word: `t0` above the slope.
pub const RECIP_WORD_W: usize = RECIP_W + SLOPE_W;
// `hdl_gen` emits a slice's offset as written, so `update` has these widths as literals.
const _: () = assert!(RECIP_FRAC_W == 13 && SLOPE_W == 14 && RECIP_IDX_W + RECIP_FRAC_W == 23);

/// Entry `i` (`0..=1024`) of the reciprocal table: `round(2^34 / (1024 + i))`, which is
/// `2^47 / m` at the mantissa `m = (1024 + i) * 2^13`.
pub fn recip_table(i: u32) -> u32 {
    assert!(i <= 1 << RECIP_IDX_W, "recip_table({i}): index above 1024");
    let d = (1u64 << RECIP_IDX_W) + i as u64;
    (((1u64 << 35) / d).div_ceil(2)) as u32
}

/// Word `i` (`0..1024`) of the table as the hardware stores it: `t0 << 14 | (t0 - t1)`.
pub fn recip_word(i: u32) -> u64 {
    let t0 = recip_table(i) as u64;
    let slope = t0 - recip_table(i + 1) as u64;
    assert!(slope < 1 << SLOPE_W);
    (t0 << SLOPE_W) | slope
}

/// `y = t0 - floor((t0 - t1) * f / 2^13)` for `m` presented [`RECIP_STAGES`] edges ago.
#[derive(LogicBlock)]
pub struct Recip {
    /// Clock of the registers.
    pub clock: Signal<In, Clock>,
    /// The mantissa, normalised (`2^23 <= m < 2^24`; bit 23 is not read), before its
    /// register (register 1 is the block RAM's address register).
    pub m: Signal<In, Bits<24>>,
    /// `~ 2^47 / m` (`2^23 < y <= 2^24`) for the `m` of four edges ago.
    pub y: Signal<Out, Bits<RECIP_W>>,
    /// The table (named `rom`: `table` is a Verilog keyword).
    rom: SyncROM<Bits<RECIP_WORD_W>, RECIP_IDX_W>,
    r1_f: DFF<Bits<RECIP_FRAC_W>>,
    r2_word: DFF<Bits<RECIP_WORD_W>>,
    r2_f: DFF<Bits<RECIP_FRAC_W>>,
    mul: DspMul<SLOPE_W, RECIP_FRAC_W, { SLOPE_W + RECIP_FRAC_W }>,
    r3_t0: DFF<Bits<RECIP_W>>,
    r4_y: DFF<Bits<RECIP_W>>,
    /// The interpolation's step (`slope * f >> 13`, below `2^14`), zero-extended.
    step: ZeroExt<SLOPE_W, RECIP_W>,
    /// The product's bits the floor drops, and bit 23 of `m` (always one): read by no one.
    step_frac_unused: Signal<Local, Bits<RECIP_FRAC_W>>,
    m_top_unused: Signal<Local, Bit>,
    one: Constant<Bit>,
}

impl Default for Recip {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            m: Default::default(),
            y: Default::default(),
            rom: (0..1u32 << RECIP_IDX_W)
                .map(|i| Bits::<RECIP_WORD_W>::from(recip_word(i)))
                .into(),
            r1_f: Default::default(),
            r2_word: Default::default(),
            r2_f: Default::default(),
            mul: DspMul::new(),
            r3_t0: Default::default(),
            r4_y: Default::default(),
            step: Default::default(),
            step_frac_unused: Default::default(),
            m_top_unused: Default::default(),
            one: Constant::new(true),
        }
    }
}

impl Logic for Recip {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, r1_f, r2_word, r2_f, r3_t0, r4_y);
        self.rom.clock.next = self.clock.val();
        self.mul.clock.next = self.clock.val();
        self.mul.en.next = self.one.val();
        // Register 1: the index in the table's address register, the fraction beside it.
        self.rom.address.next = self.m.val().get_bits::<RECIP_IDX_W>(13);
        self.r1_f.d.next = self.m.val().get_bits::<RECIP_FRAC_W>(0);
        self.m_top_unused.next = self.m.val().get_bit(23);
        // Register 2: the table word, in the fabric.
        self.r2_word.d.next = self.rom.data.val();
        self.r2_f.d.next = self.r1_f.q.val();
        // Register 3: slope * f in the DSP, t0 beside it.
        self.mul.a.next = self.r2_word.q.val().get_bits::<SLOPE_W>(0);
        self.mul.b.next = self.r2_f.q.val();
        self.r3_t0.d.next = self.r2_word.q.val().get_bits::<RECIP_W>(14);
        // Register 4: t0 minus the interpolation step.
        self.step.i.next = self.mul.p.val().get_bits::<SLOPE_W>(13);
        self.step_frac_unused.next = self.mul.p.val().get_bits::<RECIP_FRAC_W>(0);
        self.r4_y.d.next = self.r3_t0.q.val() - self.step.o.val();
        self.y.next = self.r4_y.q.val();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The statement `Recip` implements, written out (the golden model's `recip_norm`).
    fn statement(m: u32) -> u32 {
        let i = (m >> RECIP_FRAC_W) & ((1 << RECIP_IDX_W) - 1);
        let f = m & ((1 << RECIP_FRAC_W) - 1);
        let t0 = recip_table(i);
        let slope = t0 - recip_table(i + 1);
        t0 - ((slope as u64 * f as u64) >> RECIP_FRAC_W) as u32
    }

    #[test]
    fn table_words_fit_and_slopes_are_positive() {
        for i in 0..1u32 << RECIP_IDX_W {
            let w = recip_word(i);
            assert!(w < 1 << RECIP_WORD_W);
            assert!(w & ((1 << SLOPE_W) - 1) > 0, "slope of {i}");
        }
        assert_eq!(recip_table(0), 1 << 24);
        assert_eq!(recip_table(1024), 1 << 23);
    }

    #[test]
    fn model_gives_the_statement_four_edges_later() {
        let mut r = Recip::default();
        r.connect_all();
        let ms: Vec<u32> = (0..40u32)
            .map(|k| (1 << 23) | (k.wrapping_mul(2_654_435_761) >> 9))
            .collect();
        let mut out = Vec::new();
        for k in 0..ms.len() + RECIP_STAGES {
            r.m.next = Bits::<24>::from(ms[k.min(ms.len() - 1)] as u64);
            r.clock.next = Clock { clk: false };
            assert!(simulate(&mut r, 20));
            r.clock.next = Clock { clk: true };
            assert!(simulate(&mut r, 20));
            out.push(r.y.val().to_u64() as u32);
        }
        for (k, &m) in ms.iter().enumerate() {
            assert_eq!(out[k + RECIP_STAGES - 1], statement(m), "m = {m:#x}");
        }
    }
}
