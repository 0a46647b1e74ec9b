//! `RateStep`: every QP's rates R and Rc (Mb/s Q.8, 28 bits) and inc_stage in block RAM,
//! and the step that sets them from an ACK, pipelined: [`RATE_STAGES`] = 8 registers from
//! an event to the QP's new word. The golden statement is the rate part of
//! `roce_cc_sim::hpcc_window::HpccWindow::on_ack`:
//!
//! `md = k >= 1 or inc_stage >= max_stage`; if `md`: `R' = (U = 0 ? max_rate :
//! sat28((Rc * ey) >> sh)) + R_AI`, `stage' = 0`; else `R' = Rc + R_AI`,
//! `stage' = min(inc_stage + 1, 15)`; `R' = clamp(R', min_rate, max_rate)`; `R := R'`,
//! and on a commit `Rc := R'`, `inc_stage := stage'`. (`ey`, `sh`, `k >= 1` and `U = 0`
//! come from `EtaOverU`.)
//!
//! The operations are those of `UEwma` ([`OP_KEEP`], [`OP_UPDATE`], [`OP_INIT`]: R and Rc
//! := max_rate, inc_stage := 0), and the spacing contract is the same: **two events of one
//! QP enter at least [`RATE_SPACING`] = 8 cycles apart**; the one write an event's read can
//! miss (that of the same edge) is forwarded at register 2.
//!
//! | register | holds | logic before it |
//! |---|---|---|
//! | 1 | the RAM's read (`StateRam`), the event | none |
//! | 2 | the word (or the forwarded write) | a 10-bit compare, a 60-bit 2:1 choice |
//! | 3 | the four partial products of `Rc * ey` (DSPs), `Rc + R_AI`, the stage's increment, `md` | a 29-bit add, a 4-bit compare |
//! | 4 | the products added in two pairs | a 51-bit and a 43-bit add |
//! | 5 | `Rc * ey` (60 bits) | a 60-bit add |
//! | 6 | `(Rc * ey) >> sh`, saturated to 28 bits | a 60-bit shift, the saturation |
//! | 7 | R' before the clamp (29 bits) | the `U = 0` and `md` choices, a 29-bit add |
//! | 8 | the new word (written to the RAM in this cycle) | two 29-bit compares, the operation's choice |

use super::eta_over_u::{EY_W, SH_W};
use crate::dsp_mul::DspMul;
use crate::state_ram::StateRam;
use crate::zero_ext::ZeroExt;
use rust_hdl::prelude::*;

pub use super::u_ewma::{OP_INIT, OP_KEEP, OP_UPDATE};

/// Registers from an event to its new word.
pub const RATE_STAGES: usize = 8;
/// Fewest cycles between two events of one QP.
pub const RATE_SPACING: usize = 8;
/// Width of a rate (Mb/s Q.8).
pub const RATE_W: usize = 28;
/// Width of inc_stage.
pub const STAGE_W: usize = 4;

// `hdl_gen` emits a slice's offset as written: `update` writes RATE_W as the literal 28.
const _: () = assert!(RATE_W == 28);

/// One QP's word: R, Rc, inc_stage.
#[derive(Copy, Clone, Debug, PartialEq, Default, LogicStruct)]
pub struct RateWord {
    /// R, Mb/s Q.8.
    pub r: Bits<RATE_W>,
    /// Rc, Mb/s Q.8.
    pub rc: Bits<RATE_W>,
    /// inc_stage.
    pub stage: Bits<STAGE_W>,
}

/// The new word of the event presented [`RATE_STAGES`] edges ago.
#[derive(LogicBlock)]
pub struct RateStep<const QB: usize> {
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
    /// The ACK commits (the first of a round trip).
    pub in_commit: Signal<In, Bit>,
    /// `EtaOverU`'s `ey` for the QP's new U.
    pub in_ey: Signal<In, Bits<EY_W>>,
    /// `EtaOverU`'s shift.
    pub in_sh: Signal<In, Bits<SH_W>>,
    /// `k >= 1`.
    pub in_k_ge_1: Signal<In, Bit>,
    /// `U = 0`.
    pub in_u_zero: Signal<In, Bit>,
    /// R_AI, Mb/s Q.8 (configuration).
    pub ai: Signal<In, Bits<RATE_W>>,
    /// Floor of R, Mb/s Q.8 (configuration).
    pub min_rate: Signal<In, Bits<RATE_W>>,
    /// Ceiling of R and the initial rate, Mb/s Q.8 (configuration).
    pub max_rate: Signal<In, Bits<RATE_W>>,
    /// Additive-only updates before a multiplicative one (configuration).
    pub max_stage: Signal<In, Bits<STAGE_W>>,
    /// The event of [`RATE_STAGES`] edges ago.
    pub out_valid: Signal<Out, Bit>,
    /// Its QP.
    pub out_qp: Signal<Out, Bits<QB>>,
    /// Its QP's word after it.
    pub out_word: Signal<Out, RateWord>,
    ram: StateRam<RateWord, QB>,
    v: [DFF<Bit>; RATE_STAGES],
    qp: [DFF<Bits<QB>>; RATE_STAGES],
    op: [DFF<Bits<2>>; 7],
    commit: [DFF<Bit>; 7],
    ey: [DFF<Bits<EY_W>>; 2],
    sh: [DFF<Bits<SH_W>>; 5],
    kge: [DFF<Bit>; 2],
    uz: [DFF<Bit>; 6],
    byp_we: DFF<Bit>,
    byp_qp: DFF<Bits<QB>>,
    byp_w: DFF<RateWord>,
    r2_w: DFF<RateWord>,
    /// Rc and inc_stage of register 2's word.
    rc2: Signal<Local, Bits<RATE_W>>,
    st2: Signal<Local, Bits<STAGE_W>>,
    /// The old word from register 3 to register 7.
    w_old: [DFF<RateWord>; 5],
    mul_ll: DspMul<18, 18, 36>,
    mul_lh: DspMul<18, 14, 32>,
    mul_hl: DspMul<10, 18, 28>,
    mul_hh: DspMul<10, 14, 24>,
    ext_rc: ZeroExt<RATE_W, 29>,
    ext_ai: ZeroExt<RATE_W, 29>,
    /// `Rc + R_AI` from register 3 to register 7.
    rc_ai: [DFF<Bits<29>>; 4],
    r3_inc: DFF<Bits<STAGE_W>>,
    md: [DFF<Bit>; 5],
    inc: [DFF<Bits<STAGE_W>>; 4],
    ext_ll: ZeroExt<36, 51>,
    ext_lh: ZeroExt<32, 51>,
    ext_hl: ZeroExt<28, 43>,
    ext_hh: ZeroExt<24, 43>,
    r4_a: DFF<Bits<51>>,
    r4_b: DFF<Bits<43>>,
    ext_a: ZeroExt<51, 60>,
    ext_b: ZeroExt<43, 60>,
    r5_p: DFF<Bits<60>>,
    shifted: Signal<Local, Bits<60>>,
    r6_q: DFF<Bits<RATE_W>>,
    ext_q: ZeroExt<RATE_W, 29>,
    ext_max: ZeroExt<RATE_W, 29>,
    ext_min: ZeroExt<RATE_W, 29>,
    base: Signal<Local, Bits<29>>,
    r7_cand: DFF<Bits<29>>,
    r_new: Signal<Local, Bits<RATE_W>>,
    /// The clamped rate's bit 28 (zero after the clamp): read by no one.
    r_new_top_unused: Signal<Local, Bit>,
    r8_w: DFF<RateWord>,
    stage_max: Constant<Bits<STAGE_W>>,
    rate_sat: Constant<Bits<RATE_W>>,
    stage_one: Constant<Bits<STAGE_W>>,
    op_update: Constant<Bits<2>>,
    op_init: Constant<Bits<2>>,
    one: Constant<Bit>,
}

impl<const QB: usize> Default for RateStep<QB> {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            in_valid: Default::default(),
            in_qp: Default::default(),
            in_op: Default::default(),
            in_commit: Default::default(),
            in_ey: Default::default(),
            in_sh: Default::default(),
            in_k_ge_1: Default::default(),
            in_u_zero: Default::default(),
            ai: Default::default(),
            min_rate: Default::default(),
            max_rate: Default::default(),
            max_stage: Default::default(),
            out_valid: Default::default(),
            out_qp: Default::default(),
            out_word: Default::default(),
            ram: Default::default(),
            v: Default::default(),
            qp: Default::default(),
            op: Default::default(),
            commit: Default::default(),
            ey: Default::default(),
            sh: Default::default(),
            kge: Default::default(),
            uz: Default::default(),
            byp_we: Default::default(),
            byp_qp: Default::default(),
            byp_w: Default::default(),
            r2_w: Default::default(),
            rc2: Default::default(),
            st2: Default::default(),
            w_old: Default::default(),
            mul_ll: DspMul::new(),
            mul_lh: DspMul::new(),
            mul_hl: DspMul::new(),
            mul_hh: DspMul::new(),
            ext_rc: Default::default(),
            ext_ai: Default::default(),
            rc_ai: Default::default(),
            r3_inc: Default::default(),
            md: Default::default(),
            inc: Default::default(),
            ext_ll: Default::default(),
            ext_lh: Default::default(),
            ext_hl: Default::default(),
            ext_hh: Default::default(),
            r4_a: Default::default(),
            r4_b: Default::default(),
            ext_a: Default::default(),
            ext_b: Default::default(),
            r5_p: Default::default(),
            shifted: Default::default(),
            r6_q: Default::default(),
            ext_q: Default::default(),
            ext_max: Default::default(),
            ext_min: Default::default(),
            base: Default::default(),
            r7_cand: Default::default(),
            r_new: Default::default(),
            r_new_top_unused: Default::default(),
            r8_w: Default::default(),
            stage_max: Constant::new(15.into()),
            rate_sat: Constant::new(Bits::<RATE_W>::mask()),
            stage_one: Constant::new(1.into()),
            op_update: Constant::new(OP_UPDATE.into()),
            op_init: Constant::new(OP_INIT.into()),
            one: Constant::new(true),
        }
    }
}

impl<const QB: usize> Logic for RateStep<QB> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, byp_we, byp_qp, byp_w, r2_w, r3_inc, r4_a, r4_b, r5_p, r6_q, r7_cand, r8_w
        );
        for i in 0..RATE_STAGES {
            self.v[i].clock.next = self.clock.val();
            self.qp[i].clock.next = self.clock.val();
        }
        for i in 0..7 {
            self.op[i].clock.next = self.clock.val();
            self.commit[i].clock.next = self.clock.val();
        }
        for i in 0..6 {
            self.uz[i].clock.next = self.clock.val();
        }
        for i in 0..5 {
            self.sh[i].clock.next = self.clock.val();
            self.w_old[i].clock.next = self.clock.val();
            self.md[i].clock.next = self.clock.val();
        }
        for i in 0..4 {
            self.rc_ai[i].clock.next = self.clock.val();
            self.inc[i].clock.next = self.clock.val();
        }
        for i in 0..2 {
            self.ey[i].clock.next = self.clock.val();
            self.kge[i].clock.next = self.clock.val();
        }
        self.ram.clock.next = self.clock.val();
        self.mul_ll.clock.next = self.clock.val();
        self.mul_lh.clock.next = self.clock.val();
        self.mul_hl.clock.next = self.clock.val();
        self.mul_hh.clock.next = self.clock.val();
        self.mul_ll.en.next = self.one.val();
        self.mul_lh.en.next = self.one.val();
        self.mul_hl.en.next = self.one.val();
        self.mul_hh.en.next = self.one.val();
        // The event beside the pipeline (index i: register i + 1).
        self.v[0].d.next = self.in_valid.val();
        self.qp[0].d.next = self.in_qp.val();
        self.op[0].d.next = self.in_op.val();
        self.commit[0].d.next = self.in_commit.val();
        self.ey[0].d.next = self.in_ey.val();
        self.sh[0].d.next = self.in_sh.val();
        self.kge[0].d.next = self.in_k_ge_1.val();
        self.uz[0].d.next = self.in_u_zero.val();
        for i in 1..RATE_STAGES {
            self.v[i].d.next = self.v[i - 1].q.val();
            self.qp[i].d.next = self.qp[i - 1].q.val();
        }
        for i in 1..7 {
            self.op[i].d.next = self.op[i - 1].q.val();
            self.commit[i].d.next = self.commit[i - 1].q.val();
        }
        for i in 1..6 {
            self.uz[i].d.next = self.uz[i - 1].q.val();
        }
        for i in 1..5 {
            self.sh[i].d.next = self.sh[i - 1].q.val();
        }
        self.ey[1].d.next = self.ey[0].q.val();
        self.kge[1].d.next = self.kge[0].q.val();
        // Register 1: the RAM read; the write of this cycle beside it.
        self.ram.read_address.next = self.in_qp.val();
        self.ram.write_address.next = self.qp[7].q.val();
        self.ram.write_data.next = self.r8_w.q.val();
        self.ram.write_enable.next = self.v[7].q.val();
        self.byp_we.d.next = self.v[7].q.val();
        self.byp_qp.d.next = self.qp[7].q.val();
        self.byp_w.d.next = self.r8_w.q.val();
        // Register 2: the word, forwarded from the write the read met.
        self.r2_w.d.next = self.ram.read_data.val();
        if self.byp_we.q.val() & (self.byp_qp.q.val() == self.qp[0].q.val()) {
            self.r2_w.d.next = self.byp_w.q.val();
        }
        // Register 3: Rc * ey in four DSPs; Rc + R_AI; the stage's increment; md.
        self.rc2.next = self.r2_w.q.val().rc;
        self.st2.next = self.r2_w.q.val().stage;
        self.mul_ll.a.next = self.rc2.val().get_bits::<18>(0);
        self.mul_ll.b.next = self.ey[1].q.val().get_bits::<18>(0);
        self.mul_lh.a.next = self.rc2.val().get_bits::<18>(0);
        self.mul_lh.b.next = self.ey[1].q.val().get_bits::<14>(18);
        self.mul_hl.a.next = self.rc2.val().get_bits::<10>(18);
        self.mul_hl.b.next = self.ey[1].q.val().get_bits::<18>(0);
        self.mul_hh.a.next = self.rc2.val().get_bits::<10>(18);
        self.mul_hh.b.next = self.ey[1].q.val().get_bits::<14>(18);
        self.ext_rc.i.next = self.rc2.val();
        self.ext_ai.i.next = self.ai.val();
        self.rc_ai[0].d.next = self.ext_rc.o.val() + self.ext_ai.o.val();
        for i in 1..4 {
            self.rc_ai[i].d.next = self.rc_ai[i - 1].q.val();
        }
        self.r3_inc.d.next = self.st2.val() + self.stage_one.val();
        if self.st2.val() == self.stage_max.val() {
            self.r3_inc.d.next = self.stage_max.val();
        }
        self.md[0].d.next = self.kge[1].q.val() | !(self.st2.val() < self.max_stage.val());
        for i in 1..5 {
            self.md[i].d.next = self.md[i - 1].q.val();
        }
        self.inc[0].d.next = self.r3_inc.q.val();
        for i in 1..4 {
            self.inc[i].d.next = self.inc[i - 1].q.val();
        }
        self.w_old[0].d.next = self.r2_w.q.val();
        for i in 1..5 {
            self.w_old[i].d.next = self.w_old[i - 1].q.val();
        }
        // Register 4: the products added in pairs (the low Rc bits' and the high's).
        self.ext_ll.i.next = self.mul_ll.p.val();
        self.ext_lh.i.next = self.mul_lh.p.val();
        self.r4_a.d.next = self.ext_ll.o.val() + (self.ext_lh.o.val() << 18);
        self.ext_hl.i.next = self.mul_hl.p.val();
        self.ext_hh.i.next = self.mul_hh.p.val();
        self.r4_b.d.next = self.ext_hl.o.val() + (self.ext_hh.o.val() << 18);
        // Register 5: Rc * ey.
        self.ext_a.i.next = self.r4_a.q.val();
        self.ext_b.i.next = self.r4_b.q.val();
        self.r5_p.d.next = self.ext_a.o.val() + (self.ext_b.o.val() << 18);
        // Register 6: shifted to Mb/s Q.8 and saturated (sh of register 5).
        self.shifted.next = self.r5_p.q.val() >> self.sh[4].q.val();
        self.r6_q.d.next = self.shifted.val().get_bits::<RATE_W>(0);
        if self.shifted.val().get_bits::<32>(28).any() {
            self.r6_q.d.next = self.rate_sat.val();
        }
        // Register 7: R' before the clamp.
        self.ext_q.i.next = self.r6_q.q.val();
        self.ext_max.i.next = self.max_rate.val();
        self.ext_min.i.next = self.min_rate.val();
        self.base.next = self.ext_q.o.val();
        if self.uz[5].q.val() {
            self.base.next = self.ext_max.o.val();
        }
        self.r7_cand.d.next = self.rc_ai[3].q.val();
        if self.md[3].q.val() {
            self.r7_cand.d.next = self.base.val() + self.ext_ai.o.val();
        }
        // Register 8: clamped; the new word by the operation and the commit.
        self.r_new.next = self.r7_cand.q.val().get_bits::<RATE_W>(0);
        self.r_new_top_unused.next = self.r7_cand.q.val().get_bit(28);
        if self.r7_cand.q.val() > self.ext_max.o.val() {
            self.r_new.next = self.max_rate.val();
        }
        if self.r7_cand.q.val() < self.ext_min.o.val() {
            self.r_new.next = self.min_rate.val();
        }
        self.r8_w.d.next = self.w_old[4].q.val();
        if self.op[6].q.val() == self.op_update.val() {
            self.r8_w.d.next.r = self.r_new.val();
            if self.commit[6].q.val() {
                self.r8_w.d.next.rc = self.r_new.val();
                self.r8_w.d.next.stage = self.inc[3].q.val();
                if self.md[4].q.val() {
                    self.r8_w.d.next.stage = 0.into();
                }
            }
        }
        if self.op[6].q.val() == self.op_init.val() {
            self.r8_w.d.next.r = self.max_rate.val();
            self.r8_w.d.next.rc = self.max_rate.val();
            self.r8_w.d.next.stage = 0.into();
        }
        if self.reset.val() {
            for i in 0..RATE_STAGES {
                self.v[i].d.next = false;
            }
        }
        self.out_valid.next = self.v[7].q.val();
        self.out_qp.next = self.qp[7].q.val();
        self.out_word.next = self.r8_w.q.val();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        commit: bool,
        ey: u64,
        sh: u64,
        kge: bool,
        uz: bool,
    }

    struct Cfg {
        ai: u64,
        min: u64,
        max: u64,
        max_stage: u64,
    }

    /// The golden statement of one event on a QP's (R, Rc, inc_stage).
    fn statement(c: &Cfg, w: (u64, u64, u64), e: &Ev) -> (u64, u64, u64) {
        let (r, rc, stage) = w;
        match e.op {
            OP_INIT => (c.max, c.max, 0),
            OP_UPDATE => {
                let md = e.kge || stage >= c.max_stage;
                let (cand, st) = if md {
                    let base = if e.uz {
                        c.max
                    } else {
                        ((rc as u128 * e.ey as u128) >> e.sh).min((1 << RATE_W) - 1) as u64
                    };
                    (base + c.ai, 0)
                } else {
                    (rc + c.ai, (stage + 1).min(15))
                };
                let rn = cand.clamp(c.min, c.max);
                if e.commit {
                    (rn, rn, st)
                } else {
                    (rn, rc, stage)
                }
            }
            _ => (r, rc, stage),
        }
    }

    #[test]
    fn model_gives_the_statement_with_forwarding() {
        for (k, c) in [
            Cfg {
                ai: 40 << 8,
                min: 1000 << 8,
                max: 100_000 << 8,
                max_stage: 0,
            },
            Cfg {
                ai: 160 << 8,
                min: 1 << 8,
                max: (1 << RATE_W) - 1,
                max_stage: 5,
            },
        ]
        .iter()
        .enumerate()
        {
            let mut g = Lcg(5 + k as u64);
            let mut sched: Vec<Option<Ev>> = Vec::new();
            let mut last = [None::<usize>; 16];
            let init = |qp| Ev {
                qp,
                op: OP_INIT,
                commit: false,
                ey: 0,
                sh: 7,
                kge: false,
                uz: false,
            };
            for qp in 0..16 {
                sched.push(Some(init(qp)));
                last[qp as usize] = Some(sched.len() - 1);
            }
            for _ in 0..3000 {
                let qp = g.next(2);
                let t = sched.len();
                if g.next(3) == 0 || last[qp as usize].is_some_and(|l| t < l + RATE_SPACING) {
                    sched.push(None);
                    continue;
                }
                let op = [OP_UPDATE, OP_UPDATE, OP_UPDATE, OP_UPDATE, OP_KEEP, OP_INIT]
                    [g.next(16) as usize % 6];
                // ey as EtaOverU makes it (eta * 2^24-ish >> 3) and shifts across U's range,
                // some small enough to saturate.
                let ey = (1 << 28) | g.next(30);
                let sh = 7 + g.next(6) % 40;
                sched.push(Some(Ev {
                    qp,
                    op,
                    commit: g.next(2) == 0,
                    ey,
                    sh,
                    kge: g.next(1) == 1,
                    uz: g.next(5) == 0,
                }));
                last[qp as usize] = Some(t);
            }
            let mut m = RateStep::<4>::default();
            m.connect_all();
            m.ai.next = c.ai.into();
            m.min_rate.next = c.min.into();
            m.max_rate.next = c.max.into();
            m.max_stage.next = c.max_stage.into();
            let mut outs = Vec::new();
            for n in 0..sched.len() + RATE_STAGES {
                let e = sched.get(n).copied().flatten();
                m.in_valid.next = e.is_some();
                let e = e.unwrap_or(init(15));
                m.in_qp.next = e.qp.into();
                m.in_op.next = e.op.into();
                m.in_commit.next = e.commit;
                m.in_ey.next = e.ey.into();
                m.in_sh.next = e.sh.into();
                m.in_k_ge_1.next = e.kge;
                m.in_u_zero.next = e.uz;
                m.clock.next = Clock { clk: false };
                assert!(simulate(&mut m, 50));
                m.clock.next = Clock { clk: true };
                assert!(simulate(&mut m, 50));
                let w = m.out_word.val();
                outs.push((
                    m.out_valid.val(),
                    m.out_qp.val().to_u64(),
                    (w.r.to_u64(), w.rc.to_u64(), w.stage.to_u64()),
                ));
            }
            let mut st = [(0u64, 0u64, 0u64); 16];
            let (mut spaced8, mut stages, mut clamps) = (0, 0, 0);
            for (n, e) in sched.iter().enumerate() {
                let (v, qp, got) = outs[n + RATE_STAGES - 1];
                match e {
                    None => assert!(!v, "cycle {n}: an output without an event"),
                    Some(e) => {
                        let want = statement(c, st[e.qp as usize], e);
                        st[e.qp as usize] = want;
                        assert!(v && qp == e.qp, "cycle {n}");
                        assert_eq!(got, want, "config {k}, cycle {n}: {e:?}");
                        spaced8 += (n >= RATE_SPACING
                            && matches!(sched[n - RATE_SPACING], Some(p) if p.qp == e.qp))
                            as u32;
                        stages += (want.2 > 0) as u32;
                        clamps +=
                            (e.op == OP_UPDATE && (want.0 == c.min || want.0 == c.max)) as u32;
                    }
                }
            }
            assert!(
                spaced8 > 20,
                "config {k}: {spaced8} events 8 cycles after their QP's last"
            );
            assert!(clamps > 10, "config {k}: {clamps} clamped");
            assert!(
                k == 0 || stages > 10,
                "config {k}: {stages} with inc_stage > 0"
            );
        }
    }
}
