//! `UEwma`: every QP's load estimate U (Q.24, 40 bits) in block RAM, and the EWMA that
//! updates it, pipelined: [`U_STAGES`] = 8 registers from an event to its new U. The
//! golden statement is `roce_cc_sim::hpcc_window::HpccWindow::ewma`:
//!
//! `U' = u` when `tau >= T` (`big`), else `U' = U + sign(u - U) * ((|u - U| * wm +
//! 2^(ws - 1)) >> ws)`, with the weight `w = tau / T ~ wm * 2^-ws` from `Weight`
//! (`18 <= ws <= 38` wherever `!big`). `U'` lies between `U` and `u`, so it never leaves
//! 40 bits.
//!
//! An event is one of three operations ([`OP_KEEP`], [`OP_UPDATE`], [`OP_INIT`]); every
//! event reads its QP's U and writes the result back, so the output is always the QP's U
//! after the event.
//!
//! | register | holds | logic before it |
//! |---|---|---|
//! | 1 | the RAM's read (`StateRam`), the event | none (the address is the input) |
//! | 2 | U (the RAM's word, or the write of the event's first cycle: the bypass) | a 10-bit compare, a 40-bit 2:1 choice |
//! | 3 | `|u - U|`, the sign | two 41-bit subtracts, a choice |
//! | 4 | `mag[17:0] * wm`, `mag[35:18] * wm`, `mag[39:36] * wm` (three DSPs) | none |
//! | 5 | the first two products added (54 bits), the third | a 54-bit add |
//! | 6 | the sum plus `2^(ws - 1)` (58 bits) | a 58-bit add, the half decoded from `ws` |
//! | 7 | the step, `sum >> ws` | a 58-bit shift |
//! | 8 | U' (written to the RAM in this cycle) | a 40-bit add or subtract, the operation's choice |
//!
//! The loop-carried path is U from the RAM's output to its write: U is read at the edge
//! that ends the event's first cycle and written at the edge that ends its eighth. The
//! unit's contract: **two events of one QP enter at least [`U_SPACING`] = 8 cycles apart**
//! (the window unit's issue stage holds an ACK until then). Then the only write an event's
//! read can miss is the one of the same edge (an event 8 cycles ahead), which a register
//! beside the RAM forwards at register 2; every earlier write is in the RAM.
//!
//! After power-up the RAM holds zeros: the window unit sweeps every QP with [`OP_INIT`].

use crate::dsp_mul::DspMul;
use crate::state_ram::StateRam;
use crate::zero_ext::ZeroExt;
use rust_hdl::prelude::*;

/// Registers from an event to its U'.
pub const U_STAGES: usize = 8;
/// Fewest cycles between two events of one QP.
pub const U_SPACING: usize = 8;
/// Width of U and u (Q.24, 16 integer bits).
pub const U_W: usize = 40;
/// Fractional bits of U.
pub const U_FRAC: usize = 24;
/// Operation: U unchanged (an ACK that keeps no hop, or a new path).
pub const OP_KEEP: u64 = 0;
/// Operation: the EWMA with `u`, `wm`, `ws`, `big`.
pub const OP_UPDATE: u64 = 1;
/// Operation: U := 1.0 (reset of the QP, or the power-up sweep).
pub const OP_INIT: u64 = 2;

/// U' of the event presented [`U_STAGES`] edges ago.
#[derive(LogicBlock)]
pub struct UEwma<const QB: usize> {
    /// Clock of the RAM and the registers.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: the events in the pipeline are dropped (no write, no output).
    pub reset: Signal<In, Bit>,
    /// An event is presented.
    pub in_valid: Signal<In, Bit>,
    /// Its QP.
    pub in_qp: Signal<In, Bits<QB>>,
    /// Its operation (`OP_*`).
    pub in_op: Signal<In, Bits<2>>,
    /// The kept hop's load, Q.24 (`OP_UPDATE`).
    pub in_u: Signal<In, Bits<U_W>>,
    /// The weight's mantissa (`OP_UPDATE`, `!big`).
    pub in_wm: Signal<In, Bits<18>>,
    /// The weight's right shift, 18..=38 (`OP_UPDATE`, `!big`).
    pub in_ws: Signal<In, Bits<6>>,
    /// `tau >= T`: U' = u (`OP_UPDATE`).
    pub in_big: Signal<In, Bit>,
    /// The event of [`U_STAGES`] edges ago.
    pub out_valid: Signal<Out, Bit>,
    /// Its QP.
    pub out_qp: Signal<Out, Bits<QB>>,
    /// Its QP's U after it, Q.24.
    pub out_u: Signal<Out, Bits<U_W>>,
    ram: StateRam<Bits<U_W>, QB>,
    // The event beside the pipeline: valid, QP, operation, u, wm, ws, big.
    v: [DFF<Bit>; U_STAGES],
    qp: [DFF<Bits<QB>>; U_STAGES],
    op: [DFF<Bits<2>>; 7],
    uu: [DFF<Bits<U_W>>; 2],
    wm: [DFF<Bits<18>>; 3],
    ws: [DFF<Bits<6>>; 6],
    big: [DFF<Bit>; 7],
    /// u from register 3 to register 7 (the `big` choice).
    u_line: [DFF<Bits<U_W>>; 5],
    /// The write of the event's first cycle: enable, QP, word.
    byp_we: DFF<Bit>,
    byp_qp: DFF<Bits<QB>>,
    byp_u: DFF<Bits<U_W>>,
    r2_u: DFF<Bits<U_W>>,
    ext_u: ZeroExt<U_W, 41>,
    ext_uold: ZeroExt<U_W, 41>,
    d_up: Signal<Local, Bits<41>>,
    d_dn: Signal<Local, Bits<41>>,
    r3_mag: DFF<Bits<U_W>>,
    r3_neg: DFF<Bit>,
    /// U from register 3 to register 7.
    uold: [DFF<Bits<U_W>>; 5],
    /// The subtracts' sign bits: read by no one beyond the choice.
    sign_unused: Signal<Local, Bit>,
    neg: [DFF<Bit>; 4],
    mul0: DspMul<18, 18, 36>,
    mul1: DspMul<18, 18, 36>,
    mul2: DspMul<4, 18, 22>,
    ext_p0: ZeroExt<36, 54>,
    ext_p1: ZeroExt<36, 54>,
    r5_a: DFF<Bits<54>>,
    r5_c: DFF<Bits<22>>,
    ext_a: ZeroExt<54, 58>,
    ext_c: ZeroExt<22, 58>,
    half: Signal<Local, Bits<58>>,
    half_c: [Constant<Bits<58>>; 64],
    ws_c: [Constant<Bits<6>>; 64],
    r6_s: DFF<Bits<58>>,
    shifted: Signal<Local, Bits<58>>,
    r7_step: DFF<Bits<U_W>>,
    /// The step's bits above 40 (zero: the step is at most `|u - U|`): read by no one.
    step_top_unused: Signal<Local, Bits<18>>,
    r8_u: DFF<Bits<U_W>>,
    op_update: Constant<Bits<2>>,
    op_init: Constant<Bits<2>>,
    u_one: Constant<Bits<U_W>>,
    one: Constant<Bit>,
}

impl<const QB: usize> Default for UEwma<QB> {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            in_valid: Default::default(),
            in_qp: Default::default(),
            in_op: Default::default(),
            in_u: Default::default(),
            in_wm: Default::default(),
            in_ws: Default::default(),
            in_big: Default::default(),
            out_valid: Default::default(),
            out_qp: Default::default(),
            out_u: Default::default(),
            ram: Default::default(),
            v: Default::default(),
            qp: Default::default(),
            op: Default::default(),
            uu: Default::default(),
            wm: Default::default(),
            ws: Default::default(),
            big: Default::default(),
            u_line: Default::default(),
            byp_we: Default::default(),
            byp_qp: Default::default(),
            byp_u: Default::default(),
            r2_u: Default::default(),
            ext_u: Default::default(),
            ext_uold: Default::default(),
            d_up: Default::default(),
            d_dn: Default::default(),
            r3_mag: Default::default(),
            r3_neg: Default::default(),
            uold: Default::default(),
            sign_unused: Default::default(),
            neg: Default::default(),
            mul0: DspMul::new(),
            mul1: DspMul::new(),
            mul2: DspMul::new(),
            ext_p0: Default::default(),
            ext_p1: Default::default(),
            r5_a: Default::default(),
            r5_c: Default::default(),
            ext_a: Default::default(),
            ext_c: Default::default(),
            half: Default::default(),
            // 2^(ws - 1) for each shift (0 where it would not fit: shifts never used).
            half_c: std::array::from_fn(|s| {
                Constant::new(if s == 0 || s > 58 {
                    0u64.into()
                } else {
                    (1u64 << (s - 1)).into()
                })
            }),
            ws_c: std::array::from_fn(|s| Constant::new((s as u64).into())),
            r6_s: Default::default(),
            shifted: Default::default(),
            r7_step: Default::default(),
            step_top_unused: Default::default(),
            r8_u: Default::default(),
            op_update: Constant::new(OP_UPDATE.into()),
            op_init: Constant::new(OP_INIT.into()),
            u_one: Constant::new((1u64 << U_FRAC).into()),
            one: Constant::new(true),
        }
    }
}

impl<const QB: usize> Logic for UEwma<QB> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, byp_we, byp_qp, byp_u, r2_u, r3_mag, r3_neg, r5_a, r5_c, r6_s, r7_step,
            r8_u
        );
        for i in 0..U_STAGES {
            self.v[i].clock.next = self.clock.val();
            self.qp[i].clock.next = self.clock.val();
        }
        for i in 0..7 {
            self.op[i].clock.next = self.clock.val();
            self.big[i].clock.next = self.clock.val();
        }
        for i in 0..6 {
            self.ws[i].clock.next = self.clock.val();
        }
        for i in 0..5 {
            self.u_line[i].clock.next = self.clock.val();
            self.uold[i].clock.next = self.clock.val();
        }
        for i in 0..4 {
            self.neg[i].clock.next = self.clock.val();
        }
        for i in 0..3 {
            self.wm[i].clock.next = self.clock.val();
        }
        for i in 0..2 {
            self.uu[i].clock.next = self.clock.val();
        }
        self.ram.clock.next = self.clock.val();
        self.mul0.clock.next = self.clock.val();
        self.mul1.clock.next = self.clock.val();
        self.mul2.clock.next = self.clock.val();
        self.mul0.en.next = self.one.val();
        self.mul1.en.next = self.one.val();
        self.mul2.en.next = self.one.val();
        // The event beside the pipeline (index i: register i + 1).
        self.v[0].d.next = self.in_valid.val();
        self.qp[0].d.next = self.in_qp.val();
        self.op[0].d.next = self.in_op.val();
        self.uu[0].d.next = self.in_u.val();
        self.wm[0].d.next = self.in_wm.val();
        self.ws[0].d.next = self.in_ws.val();
        self.big[0].d.next = self.in_big.val();
        for i in 1..U_STAGES {
            self.v[i].d.next = self.v[i - 1].q.val();
            self.qp[i].d.next = self.qp[i - 1].q.val();
        }
        for i in 1..7 {
            self.op[i].d.next = self.op[i - 1].q.val();
            self.big[i].d.next = self.big[i - 1].q.val();
        }
        for i in 1..6 {
            self.ws[i].d.next = self.ws[i - 1].q.val();
        }
        for i in 1..3 {
            self.wm[i].d.next = self.wm[i - 1].q.val();
        }
        self.uu[1].d.next = self.uu[0].q.val();
        // Register 1: the RAM read at the event's QP; the write of this cycle beside it.
        self.ram.read_address.next = self.in_qp.val();
        self.ram.write_address.next = self.qp[7].q.val();
        self.ram.write_data.next = self.r8_u.q.val();
        self.ram.write_enable.next = self.v[7].q.val();
        self.byp_we.d.next = self.v[7].q.val();
        self.byp_qp.d.next = self.qp[7].q.val();
        self.byp_u.d.next = self.r8_u.q.val();
        // Register 2: U, forwarded from the write the read met.
        self.r2_u.d.next = self.ram.read_data.val();
        if self.byp_we.q.val() & (self.byp_qp.q.val() == self.qp[0].q.val()) {
            self.r2_u.d.next = self.byp_u.q.val();
        }
        // Register 3: |u - U| and its sign.
        self.ext_u.i.next = self.uu[1].q.val();
        self.ext_uold.i.next = self.r2_u.q.val();
        self.d_up.next = self.ext_u.o.val() - self.ext_uold.o.val();
        self.d_dn.next = self.ext_uold.o.val() - self.ext_u.o.val();
        self.r3_neg.d.next = self.d_up.val().get_bit(40);
        self.r3_mag.d.next = self.d_up.val().get_bits::<U_W>(0);
        if self.d_up.val().get_bit(40) {
            self.r3_mag.d.next = self.d_dn.val().get_bits::<U_W>(0);
        }
        self.sign_unused.next = self.d_dn.val().get_bit(40);
        self.uold[0].d.next = self.r2_u.q.val();
        for i in 1..5 {
            self.uold[i].d.next = self.uold[i - 1].q.val();
        }
        self.u_line[0].d.next = self.uu[1].q.val();
        for i in 1..5 {
            self.u_line[i].d.next = self.u_line[i - 1].q.val();
        }
        self.neg[0].d.next = self.r3_neg.q.val();
        for i in 1..4 {
            self.neg[i].d.next = self.neg[i - 1].q.val();
        }
        // Register 4: the three partial products (wm of register 3).
        self.mul0.a.next = self.r3_mag.q.val().get_bits::<18>(0);
        self.mul0.b.next = self.wm[2].q.val();
        self.mul1.a.next = self.r3_mag.q.val().get_bits::<18>(18);
        self.mul1.b.next = self.wm[2].q.val();
        self.mul2.a.next = self.r3_mag.q.val().get_bits::<4>(36);
        self.mul2.b.next = self.wm[2].q.val();
        // Register 5: the first two added.
        self.ext_p0.i.next = self.mul0.p.val();
        self.ext_p1.i.next = self.mul1.p.val();
        self.r5_a.d.next = self.ext_p0.o.val() + (self.ext_p1.o.val() << 18);
        self.r5_c.d.next = self.mul2.p.val();
        // Register 6: plus the third and half of the shift's unit (ws of register 5).
        self.half.next = 0.into();
        for s in 0..64 {
            if self.ws[4].q.val() == self.ws_c[s].val() {
                self.half.next = self.half_c[s].val();
            }
        }
        self.ext_a.i.next = self.r5_a.q.val();
        self.ext_c.i.next = self.r5_c.q.val();
        self.r6_s.d.next = self.ext_a.o.val() + (self.ext_c.o.val() << 36) + self.half.val();
        // Register 7: the step.
        self.shifted.next = self.r6_s.q.val() >> self.ws[5].q.val();
        self.r7_step.d.next = self.shifted.val().get_bits::<U_W>(0);
        self.step_top_unused.next = self.shifted.val().get_bits::<18>(40);
        // Register 8: U' by the operation.
        self.r8_u.d.next = self.uold[4].q.val();
        if self.op[6].q.val() == self.op_update.val() {
            if self.big[6].q.val() {
                self.r8_u.d.next = self.u_line[4].q.val();
            } else if self.neg[3].q.val() {
                self.r8_u.d.next = self.uold[4].q.val() - self.r7_step.q.val();
            } else {
                self.r8_u.d.next = self.uold[4].q.val() + self.r7_step.q.val();
            }
        }
        if self.op[6].q.val() == self.op_init.val() {
            self.r8_u.d.next = self.u_one.val();
        }
        if self.reset.val() {
            for i in 0..U_STAGES {
                self.v[i].d.next = false;
            }
        }
        self.out_valid.next = self.v[7].q.val();
        self.out_qp.next = self.qp[7].q.val();
        self.out_u.next = self.r8_u.q.val();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small deterministic generator.
    struct Lcg(u64);
    impl Lcg {
        fn next(&mut self, bits: u32) -> u64 {
            self.0 = self
                .0
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (self.0 >> 11) & ((1u64 << bits) - 1)
        }
    }

    #[derive(Clone, Copy, Debug)]
    struct Ev {
        qp: u64,
        op: u64,
        u: u64,
        wm: u64,
        ws: u64,
        big: bool,
    }

    /// The golden statement of one event on a QP's U.
    fn statement(u_old: u64, e: &Ev) -> u64 {
        match e.op {
            OP_INIT => 1 << U_FRAC,
            OP_UPDATE if e.big => e.u,
            OP_UPDATE => {
                let mag =
                    (e.u.abs_diff(u_old) as u128 * e.wm as u128 + (1u128 << (e.ws - 1))) >> e.ws;
                if e.u >= u_old {
                    u_old + mag as u64
                } else {
                    u_old - mag as u64
                }
            }
            _ => u_old,
        }
    }

    /// Events on 4 QPs of a 16-QP unit, each QP's events at least 8 cycles apart (some
    /// exactly 8: the forwarded read), idle cycles between; every QP first initialised.
    #[test]
    fn model_gives_the_statement_with_forwarding() {
        let mut g = Lcg(11);
        let mut sched: Vec<Option<Ev>> = Vec::new();
        let mut last = [None::<usize>; 16];
        for qp in 0..16 {
            sched.push(Some(Ev {
                qp,
                op: OP_INIT,
                u: 0,
                wm: 0,
                ws: 0,
                big: false,
            }));
            last[qp as usize] = Some(sched.len() - 1);
        }
        for _ in 0..3000 {
            if g.next(3) == 0 {
                sched.push(None);
                continue;
            }
            let qp = g.next(2);
            let t = sched.len();
            if let Some(l) = last[qp as usize] {
                if t < l + U_SPACING {
                    sched.push(None);
                    continue;
                }
            }
            let op = [OP_UPDATE, OP_UPDATE, OP_UPDATE, OP_KEEP, OP_INIT, OP_UPDATE]
                [g.next(16) as usize % 6];
            let u = match g.next(2) {
                0 => g.next(40),
                1 => g.next(26),
                2 => (1u64 << 40) - 1 - g.next(3),
                _ => g.next(1),
            };
            sched.push(Some(Ev {
                qp,
                op,
                u,
                wm: (1 << 17) | g.next(17),
                ws: 18 + g.next(5) % 21,
                big: g.next(4) == 0,
            }));
            last[qp as usize] = Some(t);
        }
        let mut m = UEwma::<4>::default();
        m.connect_all();
        let mut outs = Vec::new();
        for n in 0..sched.len() + U_STAGES {
            let e = sched.get(n).copied().flatten();
            m.in_valid.next = e.is_some();
            let e = e.unwrap_or(Ev {
                qp: 15,
                op: OP_KEEP,
                u: 3,
                wm: 1 << 17,
                ws: 20,
                big: false,
            });
            m.in_qp.next = e.qp.into();
            m.in_op.next = e.op.into();
            m.in_u.next = e.u.into();
            m.in_wm.next = e.wm.into();
            m.in_ws.next = e.ws.into();
            m.in_big.next = e.big;
            m.clock.next = Clock { clk: false };
            assert!(simulate(&mut m, 50));
            m.clock.next = Clock { clk: true };
            assert!(simulate(&mut m, 50));
            outs.push((
                m.out_valid.val(),
                m.out_qp.val().to_u64(),
                m.out_u.val().to_u64(),
            ));
        }
        let mut u = [0u64; 16];
        let mut spaced8 = 0;
        for (n, e) in sched.iter().enumerate() {
            let (v, qp, got) = outs[n + U_STAGES - 1];
            match e {
                None => assert!(!v, "cycle {n}: an output without an event"),
                Some(e) => {
                    let want = statement(u[e.qp as usize], e);
                    u[e.qp as usize] = want;
                    assert!(v && qp == e.qp, "cycle {n}");
                    assert_eq!(got, want, "cycle {n}: {e:?}");
                    spaced8 += (n >= U_SPACING
                        && matches!(sched[n - U_SPACING], Some(p) if p.qp == e.qp))
                        as u32;
                }
            }
        }
        assert!(
            spaced8 > 20,
            "only {spaced8} events exactly 8 cycles after their QP's last"
        );
    }
}
