//! `PaceStep`: the arithmetic of one grant to a QP, pipelined: [`PACE_STAGES`] = 6
//! registers. Given the QP's bytes left, its next departure time and its cycles per byte,
//! and the cycle of the grant, it gives the packet's size, the gap it takes at the QP's
//! rate, the bytes left after it and the QP's next departure time (pacing.md, "Behaviour"):
//!
//! ```text
//! bytes = min(mtu_bytes, backlog)
//! gap   = floor(bytes * m * 2^(16 - e))          (cycles Q.16, GAP_W bits)
//! next' = max(next, now - gap) + gap             (Q.16, mod 2^64; "max" is "not after")
//! ```
//!
//! The golden statement is `roce_cc_sim::pacer::QpPace::grant` (with `cycles_q16` for the
//! gap); the three-way test is `sim/tests/all/pacer_step_three_way.rs`. The same product and
//! shift give a packet's wire time at the line rate (`cycles_q16` of the bytes and the
//! overhead at the port's cycles per byte).
//!
//! | register | holds | logic before it |
//! |---|---|---|
//! | 1 | `bytes` | a 32-bit compare with the MTU, a 14-bit 2:1 mux |
//! | 2 | `bytes * m` (`DspMul`, the DSP's output register); `backlog - bytes` | a 32-bit subtract |
//! | 3 | `gap` | a 48-bit right shift by `e` (six mux levels) |
//! | 4 | `now - gap` (`now` a whole cycle, Q.16) | a 64-bit subtract |
//! | 5 | `max(next, now - gap)` | a 64-bit subtract (its sign), a 64-bit 2:1 mux |
//! | 6 | `next'` | a 64-bit add |
//!
//! Every register loads at every edge: the unit takes one grant per cycle, and its outputs
//! are the grant presented six edges earlier. A caller that pipelines several grants of one
//! QP must forward `next_out` and `backlog_out` to a grant of that QP that follows within
//! six cycles.
//!
//! Widths: `now` 48 bits (whole cycles: the integer part of a Q.16 time), `next` 64 bits
//! Q.16, `backlog` 32 bits (bytes posted and not granted), `mtu_bytes` and `bytes` 14 bits
//! (at most 9216), `gap` [`GAP_W`] = 44 bits (9216 bytes at 1 Mb/s and 1000 MHz is below
//! 2^43 cycles Q.16).

use crate::dsp_mul::DspMul;
use crate::pacer::cpb::{CPB_E_W, CPB_M_W, CpbWord};
use crate::zero_ext::ZeroExt;
use rust_hdl::prelude::*;

/// Registers from the inputs to the outputs.
pub const PACE_STAGES: usize = 6;
/// Width of a time, cycles Q.16 (mod 2^64).
pub const TIME_W: usize = 64;
/// Fraction bits of a time.
pub const FRAC_W: usize = 16;
/// Width of a whole-cycle count (`now`).
pub const NOW_W: usize = TIME_W - FRAC_W;
/// Width of a QP's bytes posted and not granted.
pub const BACKLOG_W: usize = 32;
/// Width of a packet's size in bytes (at most 9216).
pub const BYTES_W: usize = 14;
/// Width of a gap or wire time, cycles Q.16.
pub const GAP_W: usize = 44;
/// Width of `bytes * m`.
const PROD_W: usize = BYTES_W + CPB_M_W;
/// Width of the product with 16 fraction bits below it.
const SHIFT_W: usize = PROD_W + FRAC_W;
/// The shifted product's bits above a gap's width.
const SHIFT_TOP_W: usize = SHIFT_W - GAP_W;

const _: () = assert!(SHIFT_W == 48 && PROD_W == 32 && GAP_W == 44 && TIME_W == 64);

/// One grant's arithmetic; the outputs are the inputs of [`PACE_STAGES`] edges ago.
#[derive(LogicBlock)]
pub struct PaceStep {
    /// Clock of the registers.
    pub clock: Signal<In, Clock>,
    /// The cycle of the grant (whole cycles, mod 2^48).
    pub now: Signal<In, Bits<NOW_W>>,
    /// The QP's next departure time, cycles Q.16.
    pub next_in: Signal<In, Bits<TIME_W>>,
    /// The QP's bytes posted and not granted.
    pub backlog: Signal<In, Bits<BACKLOG_W>>,
    /// The QP's cycles per byte (`PacerCpb` of its rate).
    pub cpb: Signal<In, CpbWord>,
    /// The largest packet, bytes (64..=9216); static.
    pub mtu_bytes: Signal<In, Bits<BYTES_W>>,
    /// The packet's size, bytes: `min(mtu_bytes, backlog)`.
    pub bytes_out: Signal<Out, Bits<BYTES_W>>,
    /// The packet's gap at the QP's rate, cycles Q.16.
    pub gap_out: Signal<Out, Bits<GAP_W>>,
    /// The QP's bytes left after the packet.
    pub backlog_out: Signal<Out, Bits<BACKLOG_W>>,
    /// The QP's next departure time after the packet, cycles Q.16.
    pub next_out: Signal<Out, Bits<TIME_W>>,
    // Register 1.
    r1_bytes: DFF<Bits<BYTES_W>>,
    r1_now: DFF<Bits<NOW_W>>,
    r1_next: DFF<Bits<TIME_W>>,
    r1_backlog: DFF<Bits<BACKLOG_W>>,
    r1_e: DFF<Bits<CPB_E_W>>,
    r1_m: DFF<Bits<CPB_M_W>>,
    // Register 2 (the product is inside `mul`).
    mul: DspMul<BYTES_W, CPB_M_W, PROD_W>,
    r2_bytes: DFF<Bits<BYTES_W>>,
    r2_now: DFF<Bits<NOW_W>>,
    r2_next: DFF<Bits<TIME_W>>,
    r2_backlog: DFF<Bits<BACKLOG_W>>,
    r2_e: DFF<Bits<CPB_E_W>>,
    // Register 3.
    r3_gap: DFF<Bits<GAP_W>>,
    r3_bytes: DFF<Bits<BYTES_W>>,
    r3_now: DFF<Bits<NOW_W>>,
    r3_next: DFF<Bits<TIME_W>>,
    r3_backlog: DFF<Bits<BACKLOG_W>>,
    // Register 4.
    r4_floor: DFF<Bits<TIME_W>>,
    r4_gap: DFF<Bits<GAP_W>>,
    r4_bytes: DFF<Bits<BYTES_W>>,
    r4_next: DFF<Bits<TIME_W>>,
    r4_backlog: DFF<Bits<BACKLOG_W>>,
    // Register 5.
    r5_base: DFF<Bits<TIME_W>>,
    r5_gap: DFF<Bits<GAP_W>>,
    r5_bytes: DFF<Bits<BYTES_W>>,
    r5_backlog: DFF<Bits<BACKLOG_W>>,
    // Register 6.
    r6_next: DFF<Bits<TIME_W>>,
    r6_gap: DFF<Bits<GAP_W>>,
    r6_bytes: DFF<Bits<BYTES_W>>,
    r6_backlog: DFF<Bits<BACKLOG_W>>,
    /// The MTU widened to the backlog's width, for the compare.
    mtu_ext: ZeroExt<BYTES_W, BACKLOG_W>,
    /// `bytes` widened for the subtract.
    bytes_ext: ZeroExt<BYTES_W, BACKLOG_W>,
    /// The product widened to 48 bits (then shifted up by the 16 fraction bits).
    prod_ext: ZeroExt<PROD_W, SHIFT_W>,
    prod_q16: Signal<Local, Bits<SHIFT_W>>,
    shifted: Signal<Local, Bits<SHIFT_W>>,
    /// The shifted product's bits above a gap's width (zero for every valid rate).
    shifted_top_unused: Signal<Local, Bits<SHIFT_TOP_W>>,
    c_frac: Constant<Bits<8>>,
    /// `now` as a Q.16 time.
    now_ext: ZeroExt<NOW_W, TIME_W>,
    now_q16: Signal<Local, Bits<TIME_W>>,
    gap_ext: ZeroExt<GAP_W, TIME_W>,
    gap5_ext: ZeroExt<GAP_W, TIME_W>,
    /// `next - (now - gap)`: its top bit set means `now - gap` is after `next`.
    ahead: Signal<Local, Bits<TIME_W>>,
    /// The difference's bits below its sign.
    ahead_low_unused: Signal<Local, Bits<63>>,
    one: Constant<Bit>,
}

impl Default for PaceStep {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            now: Default::default(),
            next_in: Default::default(),
            backlog: Default::default(),
            cpb: Default::default(),
            mtu_bytes: Default::default(),
            bytes_out: Default::default(),
            gap_out: Default::default(),
            backlog_out: Default::default(),
            next_out: Default::default(),
            r1_bytes: Default::default(),
            r1_now: Default::default(),
            r1_next: Default::default(),
            r1_backlog: Default::default(),
            r1_e: Default::default(),
            r1_m: Default::default(),
            mul: DspMul::new(),
            r2_bytes: Default::default(),
            r2_now: Default::default(),
            r2_next: Default::default(),
            r2_backlog: Default::default(),
            r2_e: Default::default(),
            r3_gap: Default::default(),
            r3_bytes: Default::default(),
            r3_now: Default::default(),
            r3_next: Default::default(),
            r3_backlog: Default::default(),
            r4_floor: Default::default(),
            r4_gap: Default::default(),
            r4_bytes: Default::default(),
            r4_next: Default::default(),
            r4_backlog: Default::default(),
            r5_base: Default::default(),
            r5_gap: Default::default(),
            r5_bytes: Default::default(),
            r5_backlog: Default::default(),
            r6_next: Default::default(),
            r6_gap: Default::default(),
            r6_bytes: Default::default(),
            r6_backlog: Default::default(),
            mtu_ext: Default::default(),
            bytes_ext: Default::default(),
            prod_ext: Default::default(),
            prod_q16: Default::default(),
            shifted: Default::default(),
            shifted_top_unused: Default::default(),
            c_frac: Constant::new((FRAC_W as u64).into()),
            now_ext: Default::default(),
            now_q16: Default::default(),
            gap_ext: Default::default(),
            gap5_ext: Default::default(),
            ahead: Default::default(),
            ahead_low_unused: Default::default(),
            one: Constant::new(true),
        }
    }
}

impl Logic for PaceStep {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, r1_bytes, r1_now, r1_next, r1_backlog, r1_e, r1_m, r2_bytes, r2_now,
            r2_next, r2_backlog, r2_e, r3_gap, r3_bytes, r3_now, r3_next, r3_backlog, r4_floor,
            r4_gap, r4_bytes, r4_next, r4_backlog, r5_base, r5_gap, r5_bytes, r5_backlog, r6_next,
            r6_gap, r6_bytes, r6_backlog
        );
        self.mul.clock.next = self.clock.val();
        self.mul.en.next = self.one.val();
        // Register 1: the packet's size.
        self.mtu_ext.i.next = self.mtu_bytes.val();
        self.r1_bytes.d.next = self.mtu_bytes.val();
        if self.backlog.val() < self.mtu_ext.o.val() {
            self.r1_bytes.d.next = self.backlog.val().get_bits::<BYTES_W>(0);
        }
        self.r1_now.d.next = self.now.val();
        self.r1_next.d.next = self.next_in.val();
        self.r1_backlog.d.next = self.backlog.val();
        self.r1_e.d.next = self.cpb.val().e;
        self.r1_m.d.next = self.cpb.val().m;
        // Register 2: bytes * m in the DSP; the bytes left.
        self.mul.a.next = self.r1_bytes.q.val();
        self.mul.b.next = self.r1_m.q.val();
        self.bytes_ext.i.next = self.r1_bytes.q.val();
        self.r2_backlog.d.next = self.r1_backlog.q.val() - self.bytes_ext.o.val();
        self.r2_bytes.d.next = self.r1_bytes.q.val();
        self.r2_now.d.next = self.r1_now.q.val();
        self.r2_next.d.next = self.r1_next.q.val();
        self.r2_e.d.next = self.r1_e.q.val();
        // Register 3: gap = (product << 16) >> e, its low GAP_W bits.
        self.prod_ext.i.next = self.mul.p.val();
        self.prod_q16.next = self.prod_ext.o.val() << self.c_frac.val();
        self.shifted.next = self.prod_q16.val() >> self.r2_e.q.val();
        self.r3_gap.d.next = self.shifted.val().get_bits::<GAP_W>(0);
        // (Literal bit positions: the Verilog generator writes a Rust constant by its name.)
        self.shifted_top_unused.next = self.shifted.val().get_bits::<SHIFT_TOP_W>(44);
        self.r3_bytes.d.next = self.r2_bytes.q.val();
        self.r3_now.d.next = self.r2_now.q.val();
        self.r3_next.d.next = self.r2_next.q.val();
        self.r3_backlog.d.next = self.r2_backlog.q.val();
        // Register 4: now - gap.
        self.now_ext.i.next = self.r3_now.q.val();
        self.now_q16.next = self.now_ext.o.val() << self.c_frac.val();
        self.gap_ext.i.next = self.r3_gap.q.val();
        self.r4_floor.d.next = self.now_q16.val() - self.gap_ext.o.val();
        self.r4_gap.d.next = self.r3_gap.q.val();
        self.r4_bytes.d.next = self.r3_bytes.q.val();
        self.r4_next.d.next = self.r3_next.q.val();
        self.r4_backlog.d.next = self.r3_backlog.q.val();
        // Register 5: max(next, now - gap), "max" mod 2^64.
        self.ahead.next = self.r4_next.q.val() - self.r4_floor.q.val();
        self.r5_base.d.next = self.r4_next.q.val();
        self.ahead_low_unused.next = self.ahead.val().get_bits::<63>(0);
        if self.ahead.val().get_bit(63) {
            self.r5_base.d.next = self.r4_floor.q.val();
        }
        self.r5_gap.d.next = self.r4_gap.q.val();
        self.r5_bytes.d.next = self.r4_bytes.q.val();
        self.r5_backlog.d.next = self.r4_backlog.q.val();
        // Register 6: next' = base + gap.
        self.gap5_ext.i.next = self.r5_gap.q.val();
        self.r6_next.d.next = self.r5_base.q.val() + self.gap5_ext.o.val();
        self.r6_gap.d.next = self.r5_gap.q.val();
        self.r6_bytes.d.next = self.r5_bytes.q.val();
        self.r6_backlog.d.next = self.r5_backlog.q.val();
        self.bytes_out.next = self.r6_bytes.q.val();
        self.gap_out.next = self.r6_gap.q.val();
        self.backlog_out.next = self.r6_backlog.q.val();
        self.next_out.next = self.r6_next.q.val();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rust-hdl model against a plain statement of the arithmetic, six edges later
    /// (the golden model `QpPace::grant` is checked three ways in `sim`).
    #[test]
    fn model_gives_the_grant_six_edges_later() {
        let statement = |now: u64, next: u64, backlog: u64, m: u64, e: u64, mtu: u64| {
            let bytes = backlog.min(mtu);
            let gap = ((bytes * m) << 16 >> e) & ((1 << GAP_W) - 1);
            let floor = (now << 16).wrapping_sub(gap);
            let base = if next.wrapping_sub(floor) >> 63 == 1 {
                floor
            } else {
                next
            };
            (bytes, gap, backlog - bytes, base.wrapping_add(gap))
        };
        let mut u = PaceStep::default();
        u.connect_all();
        let mut x: u64 = 0x2545_f491_4f6c_dd1d;
        let mut rnd = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let mtu = 4096;
        let ins: Vec<(u64, u64, u64, u64, u64)> = (0..80)
            .map(|k| {
                let now = rnd() & ((1 << NOW_W) - 1);
                let ahead = (rnd() % 100_000) << 10;
                let next = if k % 3 == 0 {
                    (now << 16).wrapping_add(ahead)
                } else {
                    (now << 16).wrapping_sub(ahead)
                };
                let backlog = rnd() >> (32 + rnd() % 32);
                (
                    now,
                    next,
                    backlog,
                    (1 << 17) | (rnd() & 0x1_ffff),
                    5 + rnd() % 30,
                )
            })
            .collect();
        let mut out = Vec::new();
        for k in 0..ins.len() + PACE_STAGES {
            let (now, next, backlog, m, e) = ins[k.min(ins.len() - 1)];
            u.now.next = now.into();
            u.next_in.next = next.into();
            u.backlog.next = backlog.into();
            u.cpb.next = CpbWord {
                m: m.into(),
                e: e.into(),
            };
            u.mtu_bytes.next = mtu.into();
            u.clock.next = Clock { clk: false };
            assert!(simulate(&mut u, 50));
            u.clock.next = Clock { clk: true };
            assert!(simulate(&mut u, 50));
            out.push((
                u.bytes_out.val().to_u64(),
                u.gap_out.val().to_u64(),
                u.backlog_out.val().to_u64(),
                u.next_out.val().to_u64(),
            ));
        }
        for (k, &(now, next, backlog, m, e)) in ins.iter().enumerate() {
            assert_eq!(
                out[k + PACE_STAGES - 1],
                statement(now, next, backlog, m, e, mtu),
                "input {k}"
            );
        }
    }
}
