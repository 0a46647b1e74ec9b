//! `cfg_compiler`: turns the parameters as the host writes them (ConnectX names and units,
//! `ParamWord`) into the units' hardware form: the RP's `RpCfgWord` and power table, and
//! the NP's `NpCfgWord`. The bit-accurate statement is `sim::dcqcn_rp::RpConfig::new` and
//! `sim::dcqcn_np::NpConfig::new`; `sim::cfg_compiler` adds the timing.
//!
//! ```text
//!  start ─► latch params ─► DIV: 5 divisions, 24 cycles each ─► TABLE_LO: 128 entries ─► TABLE_HI: 128 entries ─► commit
//!                            2^18 / dce_tcp_rtt                  c^j, j = 0..127           c^(128 j)               rp_cfg, np_cfg
//!                            2^18 / rpg_time_reset               (4 cycles each: one       (4 cycles each)         (busy falls)
//!                                                                pipelined multiply)
//!                            (100 - rpg_min_dec_fac) 2^16 / 100
//!                            2^20 / rpg_ai_rate, 2^20 / rpg_hai_rate
//! ```
//!
//! A `start` while idle latches `params` at the clock edge (the latch follows `params` at
//! every idle edge, so only the phase waits for `start`); `busy` is high for exactly
//! [`COMPILE_CYCLES`] cycles from the next one. The power table is written on `tbl_*`
//! (the RP's load port, from registers), one entry every [`TBL_PERIOD`] = 4 cycles after
//! the divisions: `c^j` at address `j` in cycle `121 + 4 j` of that window, `c^(128 j)` at
//! `128 + j` in cycle `121 + 4 (128 + j)` (the last write is in cycle 1141 of 1144), where
//! `c = (1024 - dce_tcp_g) / 1024` in Q.24 and each entry is the previous one times `c` (or
//! `c^128`), truncated. An entry takes four cycles because the next one is its product:
//! the multiply is pipelined over three registers ([`PipeMul`]) and the product returns to
//! the running power in a fourth, so no cycle holds more than one DSP pass or one carry
//! chain (a 25 x 25 combinational multiply with its adder tree took 15.8 ns). The new
//! `rp_cfg` and `np_cfg` appear together when `busy` falls; until then the previous ones
//! stay. The caller keeps the units idle while `busy` is high. `start` while busy is
//! ignored. After `reset` the outputs are all zero (not a valid configuration) until the
//! first compile.
//!
//! The divisions are restoring, one quotient bit per cycle (24-bit numerator, 20-bit
//! divisor). The multiplies are one 25 x 25 [`PipeMul`] (four DSP blocks). The parameters are
//! assumed valid: the register block refuses out-of-range values before they get here.

use crate::dcqcn_np::{DSCP_W, NpCfgWord, PRIO_W};
use crate::dcqcn_rp::state::RpCfgWord;
use crate::dcqcn_rp::widths::*;
use crate::pipe_mul::{PIPE_MUL_STAGES, PipeMul};
use crate::zero_ext::ZeroExt;
use rust_hdl::prelude::*;

/// Width of a rate parameter in Mb/s (integer part of `RATE_W`).
pub const MBPS_W: usize = 20;
/// Divisions of one compile: `2^18 / dce_tcp_rtt`, `2^18 / rpg_time_reset`,
/// `(100 - rpg_min_dec_fac) 2^16 / 100`, `2^20 / rpg_ai_rate`, `2^20 / rpg_hai_rate`.
pub const DIVISIONS: u32 = 5;
/// Cycles of the divisions (24 each); the table writes follow.
pub const DIV_CYCLES: u32 = DIVISIONS * 24;
/// Cycles per power-table entry: the entry's product goes through the pipelined
/// multiplier ([`PIPE_MUL_STAGES`] registers) and back into the running power (one more).
pub const TBL_PERIOD: u32 = PIPE_MUL_STAGES as u32 + 1;
/// Cycles `busy` is high for one compile: the divisions, then 256 table entries of
/// [`TBL_PERIOD`] cycles each.
pub const COMPILE_CYCLES: u32 = DIV_CYCLES + 256 * TBL_PERIOD;
/// Cycle of the compile (counted from the one after `start`) in which the first power-table
/// entry is on `tbl_*`: the sequencer reaches it after the divisions and the port is a
/// register, one cycle later.
pub const TBL_FIRST_CYCLE: u32 = DIV_CYCLES + 1;

/// The parameters as the host writes them (ConnectX names and units; ranges as in
/// `roce_cc_params::SPECS`). `clock_mhz` and `qps` are fixed by the build and are not here.
#[derive(Clone, Copy, Debug, Default, PartialEq, LogicStruct)]
pub struct ParamWord {
    /// `line_rate_mbps`.
    pub line_rate: Bits<MBPS_W>,
    /// `rpg_time_reset`, us.
    pub time_reset: Bits<REM_W>,
    /// `rpg_byte_reset`, bytes.
    pub byte_reset: Bits<ACC_W>,
    /// `rpg_threshold`.
    pub threshold: Bits<THRESH_W>,
    /// `rpg_max_rate`, Mb/s (0 = line rate).
    pub max_rate: Bits<MBPS_W>,
    /// `rpg_ai_rate`, Mb/s.
    pub ai_rate: Bits<MBPS_W>,
    /// `rpg_hai_rate`, Mb/s.
    pub hai_rate: Bits<MBPS_W>,
    /// `rpg_gd` (1..=15).
    pub gd: Bits<4>,
    /// `rpg_min_dec_fac`, percent (1..=100).
    pub min_dec_fac: Bits<7>,
    /// `rpg_min_rate`, Mb/s.
    pub min_rate: Bits<MBPS_W>,
    /// `rate_to_set_on_first_cnp`, Mb/s (0 = max rate).
    pub first_rate: Bits<MBPS_W>,
    /// `dce_tcp_g`, 1/1024 (1..=1024).
    pub g: Bits<G_W>,
    /// `dce_tcp_rtt`, us.
    pub rtt: Bits<REM_W>,
    /// `rate_reduce_monitor_period`, us.
    pub monitor: Bits<REM_W>,
    /// `initial_alpha_value`, 1/1024 (0..=1024).
    pub alpha_init: Bits<G_W>,
    /// `clamp_tgt_rate`.
    pub clamp_tgt_rate: Bit,
    /// `clamp_tgt_rate_after_time_inc`.
    pub clamp_after_t: Bit,
    /// `min_time_between_cnps`, us (0 = no limit).
    pub cnp_gap: Bits<REM_W>,
    /// `cnp_moderation`: 1 = per_port.
    pub per_port: Bit,
    /// `cnp_dscp`.
    pub dscp: Bits<DSCP_W>,
    /// `cnp_802p_prio`.
    pub prio: Bits<PRIO_W>,
}

/// Numerator width of the divider.
const NUM_BITS: usize = 24;
/// Remainder width of the divider (divisor < 2^20).
const DREM_W: usize = MBPS_W + 1;
/// Index of a division (0..=4).
const DIV_IDX_W: usize = 3;

/// The configuration compiler.
#[derive(LogicBlock)]
pub struct CfgCompiler {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset, active high: idle, outputs zero.
    pub reset: Signal<In, Bit>,
    /// The parameters (sampled on the `start` edge).
    pub params: Signal<In, ParamWord>,
    /// Compile `params` (ignored while busy).
    pub start: Signal<In, Bit>,
    /// A compile is running; the units must stay idle.
    pub busy: Signal<Out, Bit>,
    /// The RP's configuration (changes only when `busy` falls).
    pub rp_cfg: Signal<Out, RpCfgWord>,
    /// The NP's configuration (changes only when `busy` falls).
    pub np_cfg: Signal<Out, NpCfgWord>,
    /// Power-table write enable (to the RP's `tbl_we`).
    pub tbl_we: Signal<Out, Bit>,
    /// Power-table address.
    pub tbl_addr: Signal<Out, Bits<TBL_ADDR_W>>,
    /// Power-table entry, Q.24.
    pub tbl_data: Signal<Out, Bits<POW_W>>,

    p: DFF<ParamWord>,
    phase: DFF<Bits<2>>,
    /// `phase != idle`, kept as its own register (set with the move out of idle, cleared
    /// with the move back or a reset) so that `busy`, which the register block turns into
    /// the core's reset and the time base's restart, starts at a flip-flop.
    busy_q: DFF<Bit>,
    div_idx: DFF<Bits<DIV_IDX_W>>,
    step: DFF<Bits<7>>,
    quo: DFF<Bits<NUM_BITS>>,
    rem: DFF<Bits<DREM_W>>,
    den: DFF<Bits<MBPS_W>>,
    recip_alpha: DFF<Bits<RECIP_W>>,
    recip_inc: DFF<Bits<RECIP_W>>,
    recip_ai: DFF<Bits<STEP_RECIP_W>>,
    recip_hai: DFF<Bits<STEP_RECIP_W>>,
    max_cut: DFF<Bits<CUTFRAC_W>>,
    acc: DFF<Bits<POW_W>>,
    /// The multiplier's constant operand, a register so that no selection sits before the
    /// DSPs: `c` (Q.10, an integer up to 1024) through the low table, `c^128` (Q.24)
    /// through the high one. Loaded when each table starts.
    mul_b: DFF<Bits<POW_W>>,
    /// `acc` and `mul_b` load at the next edge (each is its condition one cycle ahead, like
    /// `div_end_q`): their enables (`POW_W` flip-flops each) start at a register instead of
    /// at the sequencer's compares of `phase`, `sub` and `div_idx`.
    acc_ld_q: DFF<Bit>,
    mul_b_ld_q: DFF<Bit>,
    /// The power-table write port (`tbl_we`, `tbl_addr`, `tbl_data`), registered: it
    /// reaches the RP's table RAMs across the core, so it starts at flip-flops.
    tbl_we_q: DFF<Bit>,
    tbl_addr_q: DFF<Bits<TBL_ADDR_W>>,
    tbl_data_q: DFF<Bits<POW_W>>,
    rp_q: DFF<RpCfgWord>,
    np_q: DFF<NpCfgWord>,
    /// The max rate, Mb/s Q.8, registered from the latched parameters (settled two cycles
    /// after `start`, long before the commit), so that its comparison and the first-CNP
    /// rate's are not one path.
    max_q8_r: DFF<Bits<RATE_W>>,
    /// The first-CNP rate, Mb/s Q.8, registered from `max_q8_r`.
    first_q8_r: DFF<Bits<RATE_W>>,
    /// The power step, `acc * c` (or `acc * c^128`), pipelined.
    mul: PipeMul<POW_W, POW_W>,
    /// `c = 1024 - dce_tcp_g`, registered from the latched parameters.
    c_r: DFF<Bits<G_W>>,
    /// Cycle within the current table entry, `0..TBL_PERIOD`; the entry is written in
    /// cycle 0 and its successor is taken from the multiplier in the last.
    sub: DFF<Bits<2>>,
    k_last_sub: Constant<Bits<2>>,
    /// The sub-cycle before the last (`TBL_PERIOD - 2`).
    k_pre_last_sub: Constant<Bits<2>>,
    /// A division's last quotient step comes next: `step` is 22 in `DIV` (a register, so
    /// the sequencer's enables do not start at a 7-bit compare of `step`).
    div_end_q: DFF<Bit>,
    /// The table's last entry is in its last sub-cycle: `step` is 127 and `sub` was
    /// `TBL_PERIOD - 2` at the edge before (a register, as `div_end_q`).
    tbl_end_q: DFF<Bit>,
    /// The commit comes at the next edge: `tbl_end_q` in `TABLE_HI` (the same compare, its
    /// own register, since it enables all of `rp_q` and `np_q`).
    commit_q: DFF<Bit>,
    k_one_sub: Constant<Bits<2>>,
    k_zero_sub: Constant<Bits<2>>,
    ext_c: ZeroExt<G_W, POW_W>,
    ext_ai: ZeroExt<MBPS_W, RATE_W>,
    ext_hai: ZeroExt<MBPS_W, RATE_W>,
    ext_min: ZeroExt<MBPS_W, RATE_W>,
    ext_max: ZeroExt<MBPS_W, RATE_W>,
    ext_first: ZeroExt<MBPS_W, RATE_W>,
    ext_dec: ZeroExt<7, NUM_BITS>,
    ext_step: ZeroExt<7, TBL_ADDR_W>,
    ext_gd: ZeroExt<4, SHIFT_W>,
    ext_ainit: ZeroExt<G_W, ALPHA_W>,
    ext_rem: ZeroExt<MBPS_W, DREM_W>,
    ext_rtt: ZeroExt<REM_W, MBPS_W>,
    ext_treset: ZeroExt<REM_W, MBPS_W>,
    k_idle: Constant<Bits<2>>,
    k_div: Constant<Bits<2>>,
    k_lo: Constant<Bits<2>>,
    k_hi: Constant<Bits<2>>,
    /// The last quotient step of a division less one (23 steps of 24: `div_end_q`).
    k_pre_last_step_div: Constant<Bits<7>>,
    k_last_step_tbl: Constant<Bits<7>>,
    k_one_step: Constant<Bits<7>>,
    k_one_pow: Constant<Bits<POW_W>>,
    k_1024: Constant<Bits<G_W>>,
    k_recip_num: Constant<Bits<NUM_BITS>>,
    k_100: Constant<Bits<NUM_BITS>>,
    k_100_den: Constant<Bits<MBPS_W>>,
    /// `2^20`: the numerator of the rate-step reciprocals.
    k_step_num: Constant<Bits<NUM_BITS>>,
    k_ten: Constant<Bits<SHIFT_W>>,
    k_zero_mbps: Constant<Bits<MBPS_W>>,
    k_zero_rem: Constant<Bits<REM_W>>,
    k_div_last: Constant<Bits<DIV_IDX_W>>,
    k_one_idx: Constant<Bits<DIV_IDX_W>>,
    k_zero_idx: Constant<Bits<DIV_IDX_W>>,
    k_two_idx: Constant<Bits<DIV_IDX_W>>,
    k_three_idx: Constant<Bits<DIV_IDX_W>>,
    k_one_drem: Constant<Bits<DREM_W>>,
    k_one_num: Constant<Bits<NUM_BITS>>,
    k_hi_half: Constant<Bits<TBL_ADDR_W>>,
    k_zero_rp: Constant<RpCfgWord>,
    k_zero_np: Constant<NpCfgWord>,
    c: Signal<Local, Bits<G_W>>,
    max_mbps: Signal<Local, Bits<MBPS_W>>,
    max_q8: Signal<Local, Bits<RATE_W>>,
    first_q8: Signal<Local, Bits<RATE_W>>,
    rem_shift: Signal<Local, Bits<DREM_W>>,
    den_ext: Signal<Local, Bits<DREM_W>>,
    quo_next: Signal<Local, Bits<NUM_BITS>>,
    rem_next: Signal<Local, Bits<DREM_W>>,
    next_num: Signal<Local, Bits<NUM_BITS>>,
    next_den: Signal<Local, Bits<MBPS_W>>,
    product: Signal<Local, Bits<64>>,
    mul_unused: Signal<Local, Bits<64>>,
}

impl Default for CfgCompiler {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            params: Default::default(),
            start: Default::default(),
            busy: Default::default(),
            rp_cfg: Default::default(),
            np_cfg: Default::default(),
            tbl_we: Default::default(),
            tbl_addr: Default::default(),
            tbl_data: Default::default(),
            p: Default::default(),
            phase: Default::default(),
            busy_q: Default::default(),
            div_idx: Default::default(),
            step: Default::default(),
            quo: Default::default(),
            rem: Default::default(),
            den: Default::default(),
            recip_alpha: Default::default(),
            recip_inc: Default::default(),
            recip_ai: Default::default(),
            recip_hai: Default::default(),
            max_cut: Default::default(),
            acc: Default::default(),
            mul_b: Default::default(),
            acc_ld_q: Default::default(),
            mul_b_ld_q: Default::default(),
            tbl_we_q: Default::default(),
            tbl_addr_q: Default::default(),
            tbl_data_q: Default::default(),
            rp_q: Default::default(),
            np_q: Default::default(),
            max_q8_r: Default::default(),
            first_q8_r: Default::default(),
            mul: PipeMul::new(),
            c_r: Default::default(),
            sub: Default::default(),
            k_last_sub: Constant::new(((TBL_PERIOD - 1) as u64).into()),
            k_pre_last_sub: Constant::new(((TBL_PERIOD - 2) as u64).into()),
            div_end_q: Default::default(),
            tbl_end_q: Default::default(),
            commit_q: Default::default(),
            k_one_sub: Constant::new(1.into()),
            k_zero_sub: Constant::new(0.into()),
            ext_c: Default::default(),
            ext_ai: Default::default(),
            ext_hai: Default::default(),
            ext_min: Default::default(),
            ext_max: Default::default(),
            ext_first: Default::default(),
            ext_dec: Default::default(),
            ext_step: Default::default(),
            ext_gd: Default::default(),
            ext_ainit: Default::default(),
            ext_rem: Default::default(),
            ext_rtt: Default::default(),
            ext_treset: Default::default(),
            k_idle: Constant::new(0.into()),
            k_div: Constant::new(1.into()),
            k_lo: Constant::new(2.into()),
            k_hi: Constant::new(3.into()),
            k_pre_last_step_div: Constant::new(22.into()),
            k_last_step_tbl: Constant::new(127.into()),
            k_one_step: Constant::new(1.into()),
            k_one_pow: Constant::new((1u64 << 24).into()),
            k_1024: Constant::new(1024.into()),
            k_recip_num: Constant::new((1u64 << 18).into()),
            k_100: Constant::new(100.into()),
            k_100_den: Constant::new(100.into()),
            k_step_num: Constant::new((1u64 << 20).into()),
            k_ten: Constant::new(10.into()),
            k_zero_mbps: Constant::new(0.into()),
            k_zero_rem: Constant::new(0.into()),
            k_div_last: Constant::new(((DIVISIONS - 1) as u64).into()),
            k_one_idx: Constant::new(1.into()),
            k_zero_idx: Constant::new(0.into()),
            k_two_idx: Constant::new(2.into()),
            k_three_idx: Constant::new(3.into()),
            k_one_drem: Constant::new(1.into()),
            k_one_num: Constant::new(1.into()),
            k_hi_half: Constant::new(128.into()),
            k_zero_rp: Constant::new(RpCfgWord::default()),
            k_zero_np: Constant::new(NpCfgWord::default()),
            c: Default::default(),
            max_mbps: Default::default(),
            max_q8: Default::default(),
            first_q8: Default::default(),
            rem_shift: Default::default(),
            den_ext: Default::default(),
            quo_next: Default::default(),
            rem_next: Default::default(),
            next_num: Default::default(),
            next_den: Default::default(),
            product: Default::default(),
            mul_unused: Default::default(),
        }
    }
}

impl Logic for CfgCompiler {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            p,
            phase,
            busy_q,
            div_idx,
            step,
            quo,
            rem,
            den,
            recip_alpha,
            recip_inc,
            recip_ai,
            recip_hai,
            max_cut,
            acc,
            mul_b,
            acc_ld_q,
            mul_b_ld_q,
            div_end_q,
            tbl_end_q,
            commit_q,
            tbl_we_q,
            tbl_addr_q,
            tbl_data_q,
            rp_q,
            np_q,
            max_q8_r,
            first_q8_r,
            c_r,
            sub
        );

        // ---- simple derivations (from the latched parameters) ----
        self.c.next = self.k_1024.val() - self.p.q.val().g;
        self.c_r.d.next = self.c.val();
        self.max_mbps.next = self.p.q.val().line_rate;
        if (self.p.q.val().max_rate != self.k_zero_mbps.val())
            & (self.p.q.val().max_rate < self.p.q.val().line_rate)
        {
            self.max_mbps.next = self.p.q.val().max_rate;
        }
        self.ext_max.i.next = self.max_mbps.val();
        self.max_q8.next = self.ext_max.o.val() << 8;
        self.max_q8_r.d.next = self.max_q8.val();
        self.ext_first.i.next = self.p.q.val().first_rate;
        self.first_q8.next = self.max_q8_r.q.val();
        if (self.p.q.val().first_rate != self.k_zero_mbps.val())
            & ((self.ext_first.o.val() << 8) < self.max_q8_r.q.val())
        {
            self.first_q8.next = self.ext_first.o.val() << 8;
        }
        self.first_q8_r.d.next = self.first_q8.val();
        self.ext_ai.i.next = self.p.q.val().ai_rate;
        self.ext_hai.i.next = self.p.q.val().hai_rate;
        self.ext_min.i.next = self.p.q.val().min_rate;
        self.ext_gd.i.next = self.p.q.val().gd;
        self.ext_ainit.i.next = self.p.q.val().alpha_init;

        // ---- divider: restoring, one quotient bit per cycle ----
        self.ext_rem.i.next = self.den.q.val();
        self.den_ext.next = self.ext_rem.o.val();
        self.rem_shift.next = self.rem.q.val() << 1;
        if self.quo.q.val().get_bit(23) {
            self.rem_shift.next = (self.rem.q.val() << 1) | self.k_one_drem.val();
        }
        self.quo_next.next = self.quo.q.val() << 1;
        self.rem_next.next = self.rem_shift.val();
        if self.rem_shift.val() >= self.den_ext.val() {
            self.rem_next.next = self.rem_shift.val() - self.den_ext.val();
            self.quo_next.next = (self.quo.q.val() << 1) | self.k_one_num.val();
        }
        // Operands of the division after the current one.
        self.ext_rtt.i.next = self.params.val().rtt;
        self.ext_treset.i.next = self.p.q.val().time_reset;
        self.next_num.next = self.k_recip_num.val();
        self.next_den.next = self.ext_treset.o.val();
        self.ext_dec.i.next = self.p.q.val().min_dec_fac;
        if self.div_idx.q.val() == self.k_one_idx.val() {
            self.next_num.next = (self.k_100.val() - self.ext_dec.o.val()) << 16;
            self.next_den.next = self.k_100_den.val();
        } else if self.div_idx.q.val() == self.k_two_idx.val() {
            self.next_num.next = self.k_step_num.val();
            self.next_den.next = self.p.q.val().ai_rate;
        } else if self.div_idx.q.val() == self.k_three_idx.val() {
            self.next_num.next = self.k_step_num.val();
            self.next_den.next = self.p.q.val().hai_rate;
        }

        // ---- multiplier for the power tables ----
        self.ext_c.i.next = self.c_r.q.val();
        self.mul.clock.next = self.clock.val();
        self.mul.en.next = true;
        self.mul.a.next = self.acc.q.val();
        self.mul.b.next = self.mul_b.q.val();
        self.product.next = self.mul.p.val();
        self.mul_unused.next = self.product.val();

        // ---- sequencer ----
        if self.phase.q.val() == self.k_idle.val() {
            // While idle the working registers load at every edge (their values matter only
            // from a start on), so `start`, which comes from the register block across the
            // device, enables only `phase` and `busy_q`.
            self.p.d.next = self.params.val();
            self.div_idx.d.next = 0.into();
            self.step.d.next = 0.into();
            self.sub.d.next = 0.into();
            self.quo.d.next = self.k_recip_num.val();
            self.rem.d.next = 0.into();
            self.den.d.next = self.ext_rtt.o.val();
            if self.start.val() {
                self.phase.d.next = self.k_div.val();
                self.busy_q.d.next = true;
            }
        } else if self.phase.q.val() == self.k_div.val() {
            self.quo.d.next = self.quo_next.val();
            self.rem.d.next = self.rem_next.val();
            self.step.d.next = self.step.q.val() + self.k_one_step.val();
            if self.div_end_q.q.val() {
                self.step.d.next = 0.into();
                self.div_idx.d.next = self.div_idx.q.val() + self.k_one_idx.val();
                self.quo.d.next = self.next_num.val();
                self.rem.d.next = 0.into();
                self.den.d.next = self.next_den.val();
                if self.div_idx.q.val() == self.k_zero_idx.val() {
                    self.recip_alpha.d.next = self.quo_next.val().get_bits::<RECIP_W>(0);
                } else if self.div_idx.q.val() == self.k_one_idx.val() {
                    self.recip_inc.d.next = self.quo_next.val().get_bits::<RECIP_W>(0);
                } else if self.div_idx.q.val() == self.k_two_idx.val() {
                    self.max_cut.d.next = self.quo_next.val().get_bits::<CUTFRAC_W>(0);
                } else if self.div_idx.q.val() == self.k_three_idx.val() {
                    self.recip_ai.d.next = self.quo_next.val().get_bits::<STEP_RECIP_W>(0);
                } else {
                    self.recip_hai.d.next = self.quo_next.val().get_bits::<STEP_RECIP_W>(0);
                }
                if self.div_idx.q.val() == self.k_div_last.val() {
                    self.phase.d.next = self.k_lo.val();
                }
            }
        } else if self.sub.q.val() != self.k_last_sub.val() {
            // The entry `acc` was written in sub-cycle 0; its product is on its way.
            self.sub.d.next = self.sub.q.val() + self.k_one_sub.val();
        } else {
            self.sub.d.next = 0.into();
            self.step.d.next = self.step.q.val() + self.k_one_step.val();
            if self.tbl_end_q.q.val() {
                self.step.d.next = 0.into();
                if self.phase.q.val() == self.k_lo.val() {
                    self.phase.d.next = self.k_hi.val();
                } else {
                    self.phase.d.next = self.k_idle.val();
                    self.busy_q.d.next = false;
                }
            }
        }
        // ---- the running power and the multiplier's operand, loaded on their flags: at
        // the end of the divisions (1 and `c`), at the end of each table entry (the
        // product), and at the end of the low table (1 and `c^128`) ----
        if self.acc_ld_q.q.val() {
            if self.phase.q.val() == self.k_div.val() {
                self.acc.d.next = self.k_one_pow.val();
            } else if self.phase.q.val() == self.k_lo.val() {
                self.acc.d.next = self.product.val().get_bits::<POW_W>(10);
                if self.tbl_end_q.q.val() {
                    self.acc.d.next = self.k_one_pow.val();
                }
            } else {
                self.acc.d.next = self.product.val().get_bits::<POW_W>(24);
            }
        }
        if self.mul_b_ld_q.q.val() {
            self.mul_b.d.next = self.product.val().get_bits::<POW_W>(10);
            if self.phase.q.val() == self.k_div.val() {
                self.mul_b.d.next = self.ext_c.o.val();
            }
        }
        // ---- commit: the last table entry's last sub-cycle in TABLE_HI (`commit_q`, a
        // register, so the enable of the ~370 configuration flip-flops starts at one) ----
        if self.commit_q.q.val() {
            self.rp_q.d.next.p_alpha = self.p.q.val().rtt;
            self.rp_q.d.next.p_dec = self.p.q.val().monitor;
            self.rp_q.d.next.p_inc = self.p.q.val().time_reset;
            self.rp_q.d.next.recip_alpha = self.recip_alpha.q.val();
            self.rp_q.d.next.recip_inc = self.recip_inc.q.val();
            self.rp_q.d.next.max_rate = self.max_q8_r.q.val();
            self.rp_q.d.next.ai_rate = self.ext_ai.o.val() << 8;
            self.rp_q.d.next.hai_rate = self.ext_hai.o.val() << 8;
            self.rp_q.d.next.min_rate = self.ext_min.o.val() << 8;
            self.rp_q.d.next.first_rate = self.first_q8_r.q.val();
            self.rp_q.d.next.alpha_init = self.ext_ainit.o.val() << 10;
            self.rp_q.d.next.g = self.p.q.val().g;
            self.rp_q.d.next.cut_shift = self.ext_gd.o.val() + self.k_ten.val();
            self.rp_q.d.next.max_cut_q16 = self.max_cut.q.val();
            self.rp_q.d.next.threshold = self.p.q.val().threshold;
            self.rp_q.d.next.byte_reset = self.p.q.val().byte_reset;
            self.rp_q.d.next.clamp_tgt_rate = self.p.q.val().clamp_tgt_rate;
            self.rp_q.d.next.clamp_after_t = self.p.q.val().clamp_after_t;
            self.rp_q.d.next.recip_ai = self.recip_ai.q.val();
            self.rp_q.d.next.recip_hai = self.recip_hai.q.val();
            self.np_q.d.next.no_limit = self.p.q.val().cnp_gap == self.k_zero_rem.val();
            self.np_q.d.next.per_port = self.p.q.val().per_port;
            self.np_q.d.next.dscp = self.p.q.val().dscp;
            self.np_q.d.next.prio = self.p.q.val().prio;
        }
        if self.reset.val() {
            self.phase.d.next = self.k_idle.val();
            self.busy_q.d.next = false;
            self.rp_q.d.next = self.k_zero_rp.val();
            self.np_q.d.next = self.k_zero_np.val();
        }

        self.busy.next = self.busy_q.q.val();
        self.tbl_we_q.d.next = ((self.phase.q.val() == self.k_lo.val())
            | (self.phase.q.val() == self.k_hi.val()))
            & (self.sub.q.val() == self.k_zero_sub.val());
        self.ext_step.i.next = self.step.q.val();
        self.tbl_addr_q.d.next = self.ext_step.o.val();
        if self.phase.q.val() == self.k_hi.val() {
            self.tbl_addr_q.d.next = self.ext_step.o.val() | self.k_hi_half.val();
        }
        self.tbl_data_q.d.next = self.acc.q.val();
        // The end flags: each is the compare one cycle ahead.
        self.div_end_q.d.next = (self.phase.q.val() == self.k_div.val())
            & (self.step.q.val() == self.k_pre_last_step_div.val());
        self.tbl_end_q.d.next = (self.sub.q.val() == self.k_pre_last_sub.val())
            & (self.step.q.val() == self.k_last_step_tbl.val());
        self.commit_q.d.next = (self.phase.q.val() == self.k_hi.val())
            & (self.sub.q.val() == self.k_pre_last_sub.val())
            & (self.step.q.val() == self.k_last_step_tbl.val());
        self.acc_ld_q.d.next = ((self.phase.q.val() == self.k_div.val())
            & (self.step.q.val() == self.k_pre_last_step_div.val())
            & (self.div_idx.q.val() == self.k_div_last.val()))
            | (((self.phase.q.val() == self.k_lo.val()) | (self.phase.q.val() == self.k_hi.val()))
                & (self.sub.q.val() == self.k_pre_last_sub.val()));
        self.mul_b_ld_q.d.next = ((self.phase.q.val() == self.k_div.val())
            & (self.step.q.val() == self.k_pre_last_step_div.val())
            & (self.div_idx.q.val() == self.k_div_last.val()))
            | ((self.phase.q.val() == self.k_lo.val())
                & (self.sub.q.val() == self.k_pre_last_sub.val())
                & (self.step.q.val() == self.k_last_step_tbl.val()));
        if self.reset.val() {
            self.acc_ld_q.d.next = false;
            self.mul_b_ld_q.d.next = false;
            self.tbl_we_q.d.next = false;
            self.div_end_q.d.next = false;
            self.tbl_end_q.d.next = false;
            self.commit_q.d.next = false;
        }
        self.tbl_we.next = self.tbl_we_q.q.val();
        self.tbl_addr.next = self.tbl_addr_q.q.val();
        self.tbl_data.next = self.tbl_data_q.q.val();
        self.rp_cfg.next = self.rp_q.q.val();
        self.np_cfg.next = self.np_q.q.val();
    }
}
