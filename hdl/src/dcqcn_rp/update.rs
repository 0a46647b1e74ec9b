//! `RpUpdate`: the reaction point's next-state function for one event, combinational.
//!
//! It is `sim::dcqcn_rp::update` in hardware: catch up every timer expiry since the QP was
//! last touched (closed form), then apply the event, then note the next decrease check in
//! the other two radices. The pipeline around it (`DcqcnRp`) feeds it the QP's state word
//! (from block RAM or forwarded) and writes the result back.

use super::alpha::AlphaPow;
use super::rate::{Cut, IncRun, IncSegment};
use super::state::{QpWord, RpCfgWord, TimeWord};
use super::timer::{DivSmall, Fired, RadixEff};
use super::widths::*;
use crate::wide_mul::WideMul;
use crate::zero_ext::ZeroExt;
use rust_hdl::prelude::*;

/// Next state of one QP for one event.
#[derive(LogicBlock)]
pub struct RpUpdate {
    /// The QP's state before the event.
    pub old: Signal<In, QpWord>,
    /// Event kind: 0 CNP received, 1 packet transmitted, 2 rate query.
    pub kind: Signal<In, Bits<KIND_W>>,
    /// Mode for a set-mode event (kind 4).
    pub ctl_mode: Signal<In, Bits<MODE_W>>,
    /// Host rate for a set-mode event, Mb/s Q.8.
    pub ctl_rate: Signal<In, Bits<RATE_W>>,
    /// A rate cut was applied (meaningful for events that write back).
    pub did_cut: Signal<Out, Bit>,
    /// Fast-recovery increase events applied in full (every run before the one that
    /// released the limiter, and the byte event); meaningful for events that write back.
    pub inc_fr: Signal<Out, Bits<EVENTS_W>>,
    /// Additive-increase events applied in full.
    pub inc_ai: Signal<Out, Bits<EVENTS_W>>,
    /// Hyper-increase events applied in full.
    pub inc_hai: Signal<Out, Bits<EVENTS_W>>,
    /// A run of increase-timer events released the limiter; it counts its release index,
    /// which `IncCount` computes from the three signals below.
    pub inc_rel: Signal<Out, Bit>,
    /// Phase of the releasing run (0 FR, 1 AI, 2 HAI).
    pub inc_rel_phase: Signal<Out, Bits<PHASE_W>>,
    /// Rc before the releasing run's first event.
    pub inc_rel_rc: Signal<Out, Bits<RATE_W>>,
    /// Rt before the releasing run's first event.
    pub inc_rel_rt: Signal<Out, Bits<RATE_W>>,
    /// Length of the transmitted packet, bytes (kind 1).
    pub bytes: Signal<In, Bits<BYTES_W>>,
    /// Time of the event.
    pub now: Signal<In, TimeWord>,
    /// Parameters.
    pub cfg: Signal<In, RpCfgWord>,
    /// The QP's state after the event (the pipeline writes it unless the event is a query).
    pub next_word: Signal<Out, QpWord>,
    /// Report: limited.
    pub rep_limited: Signal<Out, Bit>,
    /// Report: Rc, Mb/s Q.8 (max rate when not limited).
    pub rep_rc: Signal<Out, Bits<RATE_W>>,
    /// Report: Rt, Mb/s Q.8 (max rate when not limited).
    pub rep_rt: Signal<Out, Bits<RATE_W>>,
    /// Report: alpha, Q.20 (0 when not limited).
    pub rep_alpha: Signal<Out, Bits<ALPHA_W>>,
    /// Power table, `c^j` half: address and data for alpha at now.
    pub lo_addr0: Signal<Out, Bits<7>>,
    pub lo_val0: Signal<In, Bits<POW_W>>,
    /// Power table, `c^(128 j)` half: address and data for alpha at now.
    pub hi_addr0: Signal<Out, Bits<7>>,
    pub hi_val0: Signal<In, Bits<POW_W>>,
    /// Power table, `c^j` half: address and data for alpha at the cut.
    pub lo_addr1: Signal<Out, Bits<7>>,
    pub lo_val1: Signal<In, Bits<POW_W>>,
    /// Power table, `c^(128 j)` half: address and data for alpha at the cut.
    pub hi_addr1: Signal<Out, Bits<7>>,
    pub hi_val1: Signal<In, Bits<POW_W>>,

    eff_a: RadixEff,
    eff_d: RadixEff,
    eff_i: RadixEff,
    f_alpha: Fired,
    f_dec: Fired,
    f_k1: Fired,
    f_acut: Fired,
    f_k2: Fired,
    /// alpha (Q.20) x `1024 - g` (Q.10): only bits `10..31` (alpha, Q.20) are used.
    mul_t1: WideMul<ALPHA_W, G_W, 31>,
    pow_now: AlphaPow,
    pow_cut: AlphaPow,
    seg1: IncSegment,
    cut: Cut,
    seg2: IncSegment,
    byte_run: IncRun,
    div_a: DivSmall,
    div_i: DivSmall,
    // Zero-extensions (`bit_cast` would emit an AND of mismatched widths; see `crate::zero_ext`).
    ext_g: ZeroExt<G_W, ALPHA_W>,
    ext_acc: ZeroExt<ACC_W, 33>,
    ext_bytes: ZeroExt<BYTES_W, 33>,
    ext_th: ZeroExt<THRESH_W, STAGE_W>,
    ext_td_r: ZeroExt<REM_W, NUM_W>,
    ext_nd_r: ZeroExt<REM_W, NUM_W>,
    ext_p_dec: ZeroExt<REM_W, NUM_W>,
    ext_na_r: ZeroExt<REM_W, NUM_W>,
    ext_ni_r: ZeroExt<REM_W, NUM_W>,
    ext_qa: ZeroExt<NUM_W, EPOCH_W>,
    ext_qi: ZeroExt<NUM_W, EPOCH_W>,
    ext_fr1: ZeroExt<COUNT_W, EVENTS_W>,
    ext_ai1: ZeroExt<COUNT_W, EVENTS_W>,
    ext_hai1: ZeroExt<COUNT_W, EVENTS_W>,
    ext_fr2: ZeroExt<COUNT_W, EVENTS_W>,
    ext_ai2: ZeroExt<COUNT_W, EVENTS_W>,
    ext_hai2: ZeroExt<COUNT_W, EVENTS_W>,
    // Increase events by phase (counters only).
    byte_count: Signal<Local, Bit>,
    byte_fr: Signal<Local, Bits<EVENTS_W>>,
    byte_ai: Signal<Local, Bits<EVENTS_W>>,
    byte_hai: Signal<Local, Bits<EVENTS_W>>,

    cq: Signal<Local, Bits<G_W>>,
    t1: Signal<Local, Bits<ALPHA_W>>,
    g_q20: Signal<Local, Bits<ALPHA_W>>,
    tdi_m1_e: Signal<Local, Bits<EPOCH_W>>,
    tdi_m1_r: Signal<Local, Bits<REM_W>>,
    do_cut: Signal<Local, Bit>,
    byte_off: Signal<Local, Bit>,
    // State after the cut (or unchanged without one).
    rc_a: Signal<Local, Bits<RATE_W>>,
    rt_a: Signal<Local, Bits<RATE_W>>,
    t_a: Signal<Local, Bits<STAGE_W>>,
    bc_a: Signal<Local, Bits<STAGE_W>>,
    acc_a: Signal<Local, Bits<ACC_W>>,
    cnpd_a: Signal<Local, Bit>,
    ti_e_a: Signal<Local, Bits<EPOCH_W>>,
    ti_r_a: Signal<Local, Bits<REM_W>>,
    // Caught-up state.
    cu: Signal<Local, QpWord>,
    still_limited: Signal<Local, Bit>,
    // Transmitted packet.
    acc_sum: Signal<Local, Bits<33>>,
    acc_sat: Signal<Local, Bits<ACC_W>>,
    byte_fire: Signal<Local, Bit>,
    t_hi: Signal<Local, Bits<STAGE_W>>,
    t_lo: Signal<Local, Bits<STAGE_W>>,
    th6: Signal<Local, Bits<STAGE_W>>,
    bc_inc: Signal<Local, Bits<STAGE_W>>,
    // Event applied.
    res: Signal<Local, QpWord>,
    is_init: Signal<Local, Bit>,
    // Next decrease check in the other radices.
    na_e: Signal<Local, Bits<EPOCH_W>>,
    na_r: Signal<Local, Bits<REM_W>>,
    nd_e: Signal<Local, Bits<EPOCH_W>>,
    nd_r: Signal<Local, Bits<REM_W>>,
    ni_e: Signal<Local, Bits<EPOCH_W>>,
    ni_r: Signal<Local, Bits<REM_W>>,
    ahead: Signal<Local, Bits<NUM_W>>,
    /// The 10 fraction bits of `alpha * (1024 - g) / 1024`, which the floor drops: computed
    /// by the multiplier, used by nothing (Verilator ignores `*unused*` signals).
    t1_frac_unused: Signal<Local, Bits<10>>,
    /// The step reciprocals in `cfg` are for the counter pipeline (`IncCount`), which the
    /// pipeline feeds from `cfg` directly: not used here.
    recip_ai_unused: Signal<Local, Bits<STEP_RECIP_W>>,
    recip_hai_unused: Signal<Local, Bits<STEP_RECIP_W>>,
    one_e: Constant<Bits<EPOCH_W>>,
    one_r: Constant<Bits<REM_W>>,
    one_stage: Constant<Bits<STAGE_W>>,
    /// 1024, the `dce_tcp_g` scale.
    g_one: Constant<Bits<G_W>>,
    /// `2^32 - 1`, the saturation value of the byte accumulator.
    acc_max: Constant<Bits<ACC_W>>,
    kind_cnp: Constant<Bits<KIND_W>>,
    kind_tx: Constant<Bits<KIND_W>>,
    kind_reset: Constant<Bits<KIND_W>>,
    kind_mode: Constant<Bits<KIND_W>>,
    mode_host: Constant<Bits<MODE_W>>,
    zero_word: Constant<QpWord>,
}

impl Default for RpUpdate {
    fn default() -> Self {
        Self {
            old: Default::default(),
            kind: Default::default(),
            ctl_mode: Default::default(),
            ctl_rate: Default::default(),
            did_cut: Default::default(),
            inc_fr: Default::default(),
            inc_ai: Default::default(),
            inc_hai: Default::default(),
            inc_rel: Default::default(),
            inc_rel_phase: Default::default(),
            inc_rel_rc: Default::default(),
            inc_rel_rt: Default::default(),
            bytes: Default::default(),
            now: Default::default(),
            cfg: Default::default(),
            next_word: Default::default(),
            rep_limited: Default::default(),
            rep_rc: Default::default(),
            rep_rt: Default::default(),
            rep_alpha: Default::default(),
            lo_addr0: Default::default(),
            lo_val0: Default::default(),
            hi_addr0: Default::default(),
            hi_val0: Default::default(),
            lo_addr1: Default::default(),
            lo_val1: Default::default(),
            hi_addr1: Default::default(),
            hi_val1: Default::default(),
            eff_a: Default::default(),
            eff_d: Default::default(),
            eff_i: Default::default(),
            f_alpha: Default::default(),
            f_dec: Default::default(),
            f_k1: Default::default(),
            f_acut: Default::default(),
            f_k2: Default::default(),
            mul_t1: Default::default(),
            pow_now: Default::default(),
            pow_cut: Default::default(),
            seg1: Default::default(),
            cut: Default::default(),
            seg2: Default::default(),
            byte_run: Default::default(),
            div_a: Default::default(),
            div_i: Default::default(),
            ext_g: Default::default(),
            ext_acc: Default::default(),
            ext_bytes: Default::default(),
            ext_th: Default::default(),
            ext_td_r: Default::default(),
            ext_nd_r: Default::default(),
            ext_p_dec: Default::default(),
            ext_na_r: Default::default(),
            ext_ni_r: Default::default(),
            ext_qa: Default::default(),
            ext_qi: Default::default(),
            ext_fr1: Default::default(),
            ext_ai1: Default::default(),
            ext_hai1: Default::default(),
            ext_fr2: Default::default(),
            ext_ai2: Default::default(),
            ext_hai2: Default::default(),
            byte_count: Default::default(),
            byte_fr: Default::default(),
            byte_ai: Default::default(),
            byte_hai: Default::default(),
            cq: Default::default(),
            t1: Default::default(),
            g_q20: Default::default(),
            tdi_m1_e: Default::default(),
            tdi_m1_r: Default::default(),
            do_cut: Default::default(),
            byte_off: Default::default(),
            rc_a: Default::default(),
            rt_a: Default::default(),
            t_a: Default::default(),
            bc_a: Default::default(),
            acc_a: Default::default(),
            cnpd_a: Default::default(),
            ti_e_a: Default::default(),
            ti_r_a: Default::default(),
            cu: Default::default(),
            still_limited: Default::default(),
            acc_sum: Default::default(),
            acc_sat: Default::default(),
            byte_fire: Default::default(),
            t_hi: Default::default(),
            t_lo: Default::default(),
            th6: Default::default(),
            bc_inc: Default::default(),
            res: Default::default(),
            is_init: Default::default(),
            na_e: Default::default(),
            na_r: Default::default(),
            nd_e: Default::default(),
            nd_r: Default::default(),
            ni_e: Default::default(),
            ni_r: Default::default(),
            ahead: Default::default(),
            t1_frac_unused: Default::default(),
            recip_ai_unused: Default::default(),
            recip_hai_unused: Default::default(),
            one_e: Constant::new(1.into()),
            one_r: Constant::new(1.into()),
            one_stage: Constant::new(1.into()),
            g_one: Constant::new(1024.into()),
            acc_max: Constant::new(Bits::<ACC_W>::mask()),
            kind_cnp: Constant::new(0.into()),
            kind_tx: Constant::new(1.into()),
            kind_reset: Constant::new(3.into()),
            kind_mode: Constant::new(4.into()),
            mode_host: Constant::new(1.into()),
            zero_word: Constant::new(QpWord::default()),
        }
    }
}

impl Logic for RpUpdate {
    #[hdl_gen]
    fn update(&mut self) {
        self.recip_ai_unused.next = self.cfg.val().recip_ai;
        self.recip_hai_unused.next = self.cfg.val().recip_hai;

        // ---- where "now" is for this QP's timers ----
        self.eff_a.now_e.next = self.now.val().a_e;
        self.eff_a.now_r.next = self.now.val().a_r;
        self.eff_a.now_sub.next = self.now.val().sub;
        self.eff_a.qp_sub.next = self.old.val().sub;
        self.eff_a.period.next = self.cfg.val().p_alpha;
        self.eff_d.now_e.next = self.now.val().d_e;
        self.eff_d.now_r.next = self.now.val().d_r;
        self.eff_d.now_sub.next = self.now.val().sub;
        self.eff_d.qp_sub.next = self.old.val().sub;
        self.eff_d.period.next = self.cfg.val().p_dec;
        self.eff_i.now_e.next = self.now.val().i_e;
        self.eff_i.now_r.next = self.now.val().i_r;
        self.eff_i.now_sub.next = self.now.val().sub;
        self.eff_i.qp_sub.next = self.old.val().sub;
        self.eff_i.period.next = self.cfg.val().p_inc;

        // ---- expiry counts ----
        self.f_alpha.upto_e.next = self.eff_a.eff_e.val();
        self.f_alpha.upto_r.next = self.eff_a.eff_r.val();
        self.f_alpha.first_e.next = self.old.val().ta_e;
        self.f_alpha.first_r.next = self.old.val().ta_r;
        self.f_dec.upto_e.next = self.eff_d.eff_e.val();
        self.f_dec.upto_r.next = self.eff_d.eff_r.val();
        self.f_dec.first_e.next = self.old.val().td_e;
        self.f_dec.first_r.next = self.old.val().td_r;
        // Increase events strictly before the cut: up to one microsecond before it.
        self.tdi_m1_e.next = self.old.val().tdi_e;
        self.tdi_m1_r.next = self.old.val().tdi_r - self.one_r.val();
        if !self.old.val().tdi_r.any() {
            self.tdi_m1_e.next = self.old.val().tdi_e - self.one_e.val();
            self.tdi_m1_r.next = self.cfg.val().p_inc - self.one_r.val();
        }
        self.f_k1.upto_e.next = self.tdi_m1_e.val();
        self.f_k1.upto_r.next = self.tdi_m1_r.val();
        self.f_k1.first_e.next = self.old.val().ti_e;
        self.f_k1.first_r.next = self.old.val().ti_r;
        // Alpha expiries up to and including the cut's instant.
        self.f_acut.upto_e.next = self.old.val().tda_e;
        self.f_acut.upto_r.next = self.old.val().tda_r;
        self.f_acut.first_e.next = self.old.val().ta_e;
        self.f_acut.first_r.next = self.old.val().ta_r;

        // ---- alpha: first update exactly, then the power table ----
        self.cq.next = self.g_one.val() - self.cfg.val().g;
        self.mul_t1.a.next = self.old.val().alpha;
        self.mul_t1.b.next = self.cq.val();
        self.ext_g.i.next = self.cfg.val().g;
        self.g_q20.next = self.ext_g.o.val() << 10;
        self.t1_frac_unused.next = self.mul_t1.p.val().get_bits::<10>(0);
        self.t1.next = self.mul_t1.p.val().get_bits::<ALPHA_W>(10);
        if self.old.val().cnp_alpha {
            self.t1.next = self.mul_t1.p.val().get_bits::<ALPHA_W>(10) + self.g_q20.val();
        }
        self.pow_now.alpha.next = self.old.val().alpha;
        self.pow_now.t1.next = self.t1.val();
        self.pow_now.n.next = self.f_alpha.n.val();
        self.lo_addr0.next = self.pow_now.lo_addr.val();
        self.hi_addr0.next = self.pow_now.hi_addr.val();
        self.pow_now.lo_val.next = self.lo_val0.val();
        self.pow_now.hi_val.next = self.hi_val0.val();
        self.pow_cut.alpha.next = self.old.val().alpha;
        self.pow_cut.t1.next = self.t1.val();
        self.pow_cut.n.next = self.f_acut.n.val();
        self.lo_addr1.next = self.pow_cut.lo_addr.val();
        self.hi_addr1.next = self.pow_cut.hi_addr.val();
        self.pow_cut.lo_val.next = self.lo_val1.val();
        self.pow_cut.hi_val.next = self.hi_val1.val();

        // ---- increases before the cut, the cut ----
        self.byte_off.next = !self.cfg.val().byte_reset.any();
        self.do_cut.next =
            self.old.val().limited & self.old.val().cnp_dec & (self.f_dec.n.val().any());
        self.seg1.k.next = 0.into();
        if self.do_cut.val() {
            self.seg1.k.next = self.f_k1.n.val();
        }
        self.seg1.t.next = self.old.val().t;
        self.seg1.bc.next = self.old.val().bc;
        self.seg1.rc.next = self.old.val().rc;
        self.seg1.rt.next = self.old.val().rt;
        self.seg1.th.next = self.cfg.val().threshold;
        self.seg1.byte_off.next = self.byte_off.val();
        self.seg1.ai.next = self.cfg.val().ai_rate;
        self.seg1.hai.next = self.cfg.val().hai_rate;
        self.seg1.max.next = self.cfg.val().max_rate;
        self.cut.rc.next = self.seg1.rc_o.val();
        self.cut.rt.next = self.seg1.rt_o.val();
        self.cut.t.next = self.seg1.t_o.val();
        self.cut.bc.next = self.old.val().bc;
        self.cut.alpha.next = self.pow_cut.alpha_o.val();
        self.cut.clamp.next = self.cfg.val().clamp_tgt_rate;
        self.cut.clamp_after_t.next = self.cfg.val().clamp_after_t;
        self.cut.cut_shift.next = self.cfg.val().cut_shift;
        self.cut.max_cut_q16.next = self.cfg.val().max_cut_q16;
        self.cut.min_rate.next = self.cfg.val().min_rate;
        self.rc_a.next = self.old.val().rc;
        self.rt_a.next = self.old.val().rt;
        self.t_a.next = self.old.val().t;
        self.bc_a.next = self.old.val().bc;
        self.acc_a.next = self.old.val().acc;
        self.cnpd_a.next = self.old.val().cnp_dec;
        self.ti_e_a.next = self.old.val().ti_e;
        self.ti_r_a.next = self.old.val().ti_r;
        if self.do_cut.val() {
            self.rc_a.next = self.cut.rc_o.val();
            self.rt_a.next = self.cut.rt_o.val();
            self.t_a.next = 0.into();
            self.bc_a.next = 0.into();
            self.acc_a.next = 0.into();
            self.cnpd_a.next = false;
            // The check restarts the increase timer.
            self.ti_e_a.next = self.old.val().tdi_e + self.one_e.val();
            self.ti_r_a.next = self.old.val().tdi_r;
        }

        // ---- increases after the cut (or all of them without one) ----
        self.f_k2.upto_e.next = self.eff_i.eff_e.val();
        self.f_k2.upto_r.next = self.eff_i.eff_r.val();
        self.f_k2.first_e.next = self.ti_e_a.val();
        self.f_k2.first_r.next = self.ti_r_a.val();
        self.seg2.k.next = self.f_k2.n.val();
        self.seg2.t.next = self.t_a.val();
        self.seg2.bc.next = self.bc_a.val();
        self.seg2.rc.next = self.rc_a.val();
        self.seg2.rt.next = self.rt_a.val();
        self.seg2.th.next = self.cfg.val().threshold;
        self.seg2.byte_off.next = self.byte_off.val();
        self.seg2.ai.next = self.cfg.val().ai_rate;
        self.seg2.hai.next = self.cfg.val().hai_rate;
        self.seg2.max.next = self.cfg.val().max_rate;

        // ---- the caught-up state ----
        self.still_limited.next = self.old.val().limited
            & !(self.do_cut.val() & self.seg1.released.val())
            & !self.seg2.released.val();
        self.cu.next = self.old.val();
        self.cu.next.limited = self.still_limited.val();
        self.cu.next.rc = self.seg2.rc_o.val();
        self.cu.next.rt = self.seg2.rt_o.val();
        self.cu.next.t = self.seg2.t_o.val();
        self.cu.next.bc = self.bc_a.val();
        self.cu.next.acc = self.acc_a.val();
        self.cu.next.cnp_dec = self.cnpd_a.val();
        self.cu.next.alpha = self.pow_now.alpha_o.val();
        self.cu.next.ti_e = self.ti_e_a.val();
        self.cu.next.ti_r = self.ti_r_a.val();
        if self.f_k2.n.val().any() {
            self.cu.next.ti_e = self.eff_i.eff_e.val();
            if self.eff_i.eff_r.val() >= self.ti_r_a.val() {
                self.cu.next.ti_e = self.eff_i.eff_e.val() + self.one_e.val();
            }
        }
        if self.f_alpha.n.val().any() {
            self.cu.next.cnp_alpha = false;
            self.cu.next.ta_e = self.eff_a.eff_e.val();
            if self.eff_a.eff_r.val() >= self.old.val().ta_r {
                self.cu.next.ta_e = self.eff_a.eff_e.val() + self.one_e.val();
            }
        }
        if self.f_dec.n.val().any() {
            self.cu.next.td_e = self.eff_d.eff_e.val();
            if self.eff_d.eff_r.val() >= self.old.val().td_r {
                self.cu.next.td_e = self.eff_d.eff_e.val() + self.one_e.val();
            }
        }

        // ---- a transmitted packet on a limited QP ----
        self.ext_acc.i.next = self.cu.val().acc;
        self.ext_bytes.i.next = self.bytes.val();
        self.acc_sum.next = self.ext_acc.o.val() + self.ext_bytes.o.val();
        self.acc_sat.next = self.acc_sum.val().get_bits::<ACC_W>(0);
        if self.acc_sum.val().get_bit(32) {
            self.acc_sat.next = self.acc_max.val();
        }
        self.byte_fire.next =
            !self.byte_off.val() & (self.acc_sat.val() >= self.cfg.val().byte_reset);
        self.ext_th.i.next = self.cfg.val().threshold;
        self.th6.next = self.ext_th.o.val();
        self.t_hi.next = self.cu.val().t;
        self.t_lo.next = self.cu.val().bc;
        if self.cu.val().bc > self.cu.val().t {
            self.t_hi.next = self.cu.val().bc;
            self.t_lo.next = self.cu.val().t;
        }
        self.byte_run.n.next = 1.into();
        self.byte_run.step.next = self.cfg.val().ai_rate;
        if self.t_hi.val() < self.th6.val() {
            self.byte_run.step.next = 0.into();
        } else if self.t_lo.val() > self.th6.val() {
            self.byte_run.step.next = self.cfg.val().hai_rate;
        }
        self.byte_run.rc.next = self.cu.val().rc;
        self.byte_run.rt.next = self.cu.val().rt;
        self.byte_run.max.next = self.cfg.val().max_rate;
        // BC + 1, saturating at 63 (all ones).
        self.bc_inc.next = self.cu.val().bc + self.one_stage.val();
        if self.cu.val().bc.all() {
            self.bc_inc.next = self.cu.val().bc;
        }

        // ---- apply the event ----
        self.is_init.next = (self.kind.val() == self.kind_cnp.val()) & !self.still_limited.val();
        self.res.next = self.old.val();
        if self.is_init.val() {
            self.res.next.limited = true;
            self.res.next.rc = self.cfg.val().first_rate;
            self.res.next.rt = self.cfg.val().first_rate;
            self.res.next.alpha = self.cfg.val().alpha_init;
            self.res.next.t = 0.into();
            self.res.next.bc = 0.into();
            self.res.next.acc = 0.into();
            self.res.next.cnp_alpha = false;
            self.res.next.cnp_dec = true;
            self.res.next.sub = self.now.val().sub;
            self.res.next.ta_e = self.now.val().a_e + self.one_e.val();
            self.res.next.ta_r = self.now.val().a_r;
            self.res.next.td_e = self.now.val().d_e + self.one_e.val();
            self.res.next.td_r = self.now.val().d_r;
            self.res.next.ti_e = self.now.val().i_e + self.one_e.val();
            self.res.next.ti_r = self.now.val().i_r;
        } else if self.old.val().limited {
            self.res.next = self.cu.val();
            if self.still_limited.val() {
                if self.kind.val() == self.kind_cnp.val() {
                    self.res.next.cnp_alpha = true;
                    self.res.next.cnp_dec = true;
                }
                if self.kind.val() == self.kind_tx.val() {
                    self.res.next.acc = self.acc_sat.val();
                    if self.byte_fire.val() {
                        self.res.next.acc = self.acc_sat.val() - self.cfg.val().byte_reset;
                        self.res.next.rc = self.byte_run.rc_o.val();
                        self.res.next.rt = self.byte_run.rt_o.val();
                        self.res.next.bc = self.bc_inc.val();
                        self.res.next.limited = self.byte_run.rc_o.val() < self.cfg.val().max_rate;
                    }
                }
            }
        }

        // ---- the next decrease check in the alpha and increase radices ----
        self.na_e.next = self.eff_a.eff_e.val();
        self.na_r.next = self.eff_a.eff_r.val();
        self.nd_e.next = self.eff_d.eff_e.val();
        self.nd_r.next = self.eff_d.eff_r.val();
        self.ni_e.next = self.eff_i.eff_e.val();
        self.ni_r.next = self.eff_i.eff_r.val();
        if self.is_init.val() {
            self.na_e.next = self.now.val().a_e;
            self.na_r.next = self.now.val().a_r;
            self.nd_e.next = self.now.val().d_e;
            self.nd_r.next = self.now.val().d_r;
            self.ni_e.next = self.now.val().i_e;
            self.ni_r.next = self.now.val().i_r;
        }
        self.ext_td_r.i.next = self.res.val().td_r;
        self.ext_nd_r.i.next = self.nd_r.val();
        self.ext_p_dec.i.next = self.cfg.val().p_dec;
        self.ext_na_r.i.next = self.na_r.val();
        self.ext_ni_r.i.next = self.ni_r.val();
        self.ahead.next = self.ext_td_r.o.val() - self.ext_nd_r.o.val();
        if self.res.val().td_e != self.nd_e.val() {
            self.ahead.next =
                (self.ext_p_dec.o.val() + self.ext_td_r.o.val()) - self.ext_nd_r.o.val();
        }
        self.div_a.num.next = self.ext_na_r.o.val() + self.ahead.val();
        self.div_a.p.next = self.cfg.val().p_alpha;
        self.div_a.recip.next = self.cfg.val().recip_alpha;
        self.div_i.num.next = self.ext_ni_r.o.val() + self.ahead.val();
        self.div_i.p.next = self.cfg.val().p_inc;
        self.div_i.recip.next = self.cfg.val().recip_inc;

        self.ext_qa.i.next = self.div_a.q.val();
        self.ext_qi.i.next = self.div_i.q.val();
        self.next_word.next = self.res.val();
        if self.res.val().limited {
            self.next_word.next.tda_e = self.na_e.val() + self.ext_qa.o.val();
            self.next_word.next.tda_r = self.div_a.r.val();
            self.next_word.next.tdi_e = self.ni_e.val() + self.ext_qi.o.val();
            self.next_word.next.tdi_r = self.div_i.r.val();
        }

        // ---- report ----
        self.rep_limited.next = self.res.val().limited;
        self.rep_rc.next = self.cfg.val().max_rate;
        self.rep_rt.next = self.cfg.val().max_rate;
        self.rep_alpha.next = 0.into();
        if self.res.val().limited {
            self.rep_rc.next = self.res.val().rc;
            self.rep_rt.next = self.res.val().rt;
            self.rep_alpha.next = self.res.val().alpha;
        }
        self.did_cut.next = self.do_cut.val() & !self.seg1.released.val();

        // ---- increase events by phase (golden: `timer_increases`, the byte event) ----
        // Off the state path: these only feed IncCount's registers, and they settle in
        // parallel with the byte event's run, which follows the same segment outputs.
        self.byte_count.next = (self.kind.val() == self.kind_tx.val())
            & self.still_limited.val()
            & self.byte_fire.val();
        self.byte_fr.next = 0.into();
        self.byte_ai.next = 0.into();
        self.byte_hai.next = 0.into();
        if self.byte_count.val() {
            if self.t_hi.val() < self.th6.val() {
                self.byte_fr.next = 1.into();
            } else if self.t_lo.val() > self.th6.val() {
                self.byte_hai.next = 1.into();
            } else {
                self.byte_ai.next = 1.into();
            }
        }
        self.ext_fr1.i.next = self.seg1.cnt_fr.val();
        self.ext_ai1.i.next = self.seg1.cnt_ai.val();
        self.ext_hai1.i.next = self.seg1.cnt_hai.val();
        self.ext_fr2.i.next = self.seg2.cnt_fr.val();
        self.ext_ai2.i.next = self.seg2.cnt_ai.val();
        self.ext_hai2.i.next = self.seg2.cnt_hai.val();
        self.inc_fr.next = 0.into();
        self.inc_ai.next = 0.into();
        self.inc_hai.next = 0.into();
        self.inc_rel.next = false;
        self.inc_rel_phase.next = self.seg2.rel_phase.val();
        self.inc_rel_rc.next = self.seg2.rel_rc.val();
        self.inc_rel_rt.next = self.seg2.rel_rt.val();
        if self.seg1.released.val() {
            // Released before the cut: the cut and the segment after it do not happen.
            self.inc_rel_phase.next = self.seg1.rel_phase.val();
            self.inc_rel_rc.next = self.seg1.rel_rc.val();
            self.inc_rel_rt.next = self.seg1.rel_rt.val();
            if self.old.val().limited {
                self.inc_fr.next = self.ext_fr1.o.val();
                self.inc_ai.next = self.ext_ai1.o.val();
                self.inc_hai.next = self.ext_hai1.o.val();
                self.inc_rel.next = true;
            }
        } else if self.old.val().limited {
            self.inc_fr.next = (self.ext_fr1.o.val() + self.ext_fr2.o.val()) + self.byte_fr.val();
            self.inc_ai.next = (self.ext_ai1.o.val() + self.ext_ai2.o.val()) + self.byte_ai.val();
            self.inc_hai.next =
                (self.ext_hai1.o.val() + self.ext_hai2.o.val()) + self.byte_hai.val();
            self.inc_rel.next = self.seg2.released.val();
        }

        // ---- commands, and QPs not in DCQCN mode (golden: the top of `update`) ----
        if self.kind.val() == self.kind_reset.val() {
            self.next_word.next = self.zero_word.val();
        } else if self.kind.val() == self.kind_mode.val() {
            self.next_word.next = self.zero_word.val();
            self.next_word.next.mode = self.ctl_mode.val();
            self.next_word.next.host_rate = self.ctl_rate.val();
        } else if self.old.val().mode.any() {
            self.next_word.next = self.old.val();
        }
        if (self.kind.val() == self.kind_reset.val())
            | (self.kind.val() == self.kind_mode.val())
            | self.old.val().mode.any()
        {
            self.did_cut.next = false;
            self.inc_fr.next = 0.into();
            self.inc_ai.next = 0.into();
            self.inc_hai.next = 0.into();
            self.inc_rel.next = false;
            self.rep_limited.next = false;
            self.rep_rc.next = self.cfg.val().max_rate;
            self.rep_rt.next = self.cfg.val().max_rate;
            self.rep_alpha.next = 0.into();
            if (self.kind.val() == self.kind_mode.val())
                & (self.ctl_mode.val() == self.mode_host.val())
            {
                self.rep_rc.next = self.ctl_rate.val();
                self.rep_rt.next = self.ctl_rate.val();
            }
            if (self.kind.val() != self.kind_reset.val())
                & (self.kind.val() != self.kind_mode.val())
                & (self.old.val().mode == self.mode_host.val())
            {
                self.rep_rc.next = self.old.val().host_rate;
                self.rep_rt.next = self.old.val().host_rate;
            }
        }
    }
}
