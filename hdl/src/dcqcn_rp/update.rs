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
use rust_hdl::prelude::*;

/// Next state of one QP for one event.
#[derive(LogicBlock, Default)]
pub struct RpUpdate {
    /// The QP's state before the event.
    pub old: Signal<In, QpWord>,
    /// Event kind: 0 CNP received, 1 packet transmitted, 2 rate query.
    pub kind: Signal<In, Bits<KIND_W>>,
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
    mul_t1: WideMul<ALPHA_W, G_W, 32>,
    pow_now: AlphaPow,
    pow_cut: AlphaPow,
    seg1: IncSegment,
    cut: Cut,
    seg2: IncSegment,
    byte_run: IncRun,
    div_a: DivSmall,
    div_i: DivSmall,

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
}

impl Logic for RpUpdate {
    #[hdl_gen]
    fn update(&mut self) {
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
        self.tdi_m1_r.next = self.old.val().tdi_r - 1;
        if self.old.val().tdi_r == 0 {
            self.tdi_m1_e.next = self.old.val().tdi_e - 1;
            self.tdi_m1_r.next = self.cfg.val().p_inc - 1;
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
        self.cq.next = bits::<G_W>(1024) - self.cfg.val().g;
        self.mul_t1.a.next = self.old.val().alpha;
        self.mul_t1.b.next = self.cq.val();
        self.g_q20.next = bit_cast::<ALPHA_W, G_W>(self.cfg.val().g) << 10;
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
        self.byte_off.next = self.cfg.val().byte_reset == 0;
        self.do_cut.next = self.old.val().limited
            & self.old.val().cnp_dec
            & (self.f_dec.n.val() != 0);
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
            self.ti_e_a.next = self.old.val().tdi_e + 1;
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
        if self.f_k2.n.val() != 0 {
            self.cu.next.ti_e = self.eff_i.eff_e.val();
            if self.eff_i.eff_r.val() >= self.ti_r_a.val() {
                self.cu.next.ti_e = self.eff_i.eff_e.val() + 1;
            }
        }
        if self.f_alpha.n.val() != 0 {
            self.cu.next.cnp_alpha = false;
            self.cu.next.ta_e = self.eff_a.eff_e.val();
            if self.eff_a.eff_r.val() >= self.old.val().ta_r {
                self.cu.next.ta_e = self.eff_a.eff_e.val() + 1;
            }
        }
        if self.f_dec.n.val() != 0 {
            self.cu.next.td_e = self.eff_d.eff_e.val();
            if self.eff_d.eff_r.val() >= self.old.val().td_r {
                self.cu.next.td_e = self.eff_d.eff_e.val() + 1;
            }
        }

        // ---- a transmitted packet on a limited QP ----
        self.acc_sum.next =
            bit_cast::<33, ACC_W>(self.cu.val().acc) + bit_cast::<33, BYTES_W>(self.bytes.val());
        self.acc_sat.next = self.acc_sum.val().get_bits::<ACC_W>(0);
        if self.acc_sum.val().get_bit(32) {
            self.acc_sat.next = 0xFFFF_FFFF_u64.into();
        }
        self.byte_fire.next = !self.byte_off.val() & (self.acc_sat.val() >= self.cfg.val().byte_reset);
        self.th6.next = bit_cast::<STAGE_W, THRESH_W>(self.cfg.val().threshold);
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
        self.bc_inc.next = self.cu.val().bc + 1;
        if self.cu.val().bc == 63 {
            self.bc_inc.next = 63.into();
        }

        // ---- apply the event ----
        self.is_init.next = (self.kind.val() == 0) & !self.still_limited.val();
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
            self.res.next.ta_e = self.now.val().a_e + 1;
            self.res.next.ta_r = self.now.val().a_r;
            self.res.next.td_e = self.now.val().d_e + 1;
            self.res.next.td_r = self.now.val().d_r;
            self.res.next.ti_e = self.now.val().i_e + 1;
            self.res.next.ti_r = self.now.val().i_r;
        } else if self.old.val().limited {
            self.res.next = self.cu.val();
            if self.still_limited.val() {
                if self.kind.val() == 0 {
                    self.res.next.cnp_alpha = true;
                    self.res.next.cnp_dec = true;
                }
                if self.kind.val() == 1 {
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
        self.ahead.next = bit_cast::<NUM_W, REM_W>(self.res.val().td_r)
            - bit_cast::<NUM_W, REM_W>(self.nd_r.val());
        if self.res.val().td_e != self.nd_e.val() {
            self.ahead.next = (bit_cast::<NUM_W, REM_W>(self.cfg.val().p_dec)
                + bit_cast::<NUM_W, REM_W>(self.res.val().td_r))
                - bit_cast::<NUM_W, REM_W>(self.nd_r.val());
        }
        self.div_a.num.next = bit_cast::<NUM_W, REM_W>(self.na_r.val()) + self.ahead.val();
        self.div_a.p.next = self.cfg.val().p_alpha;
        self.div_a.recip.next = self.cfg.val().recip_alpha;
        self.div_i.num.next = bit_cast::<NUM_W, REM_W>(self.ni_r.val()) + self.ahead.val();
        self.div_i.p.next = self.cfg.val().p_inc;
        self.div_i.recip.next = self.cfg.val().recip_inc;

        self.next_word.next = self.res.val();
        if self.res.val().limited {
            self.next_word.next.tda_e = self.na_e.val() + bit_cast::<EPOCH_W, NUM_W>(self.div_a.q.val());
            self.next_word.next.tda_r = self.div_a.r.val();
            self.next_word.next.tdi_e = self.ni_e.val() + bit_cast::<EPOCH_W, NUM_W>(self.div_i.q.val());
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
    }
}
