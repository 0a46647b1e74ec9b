//! The configuration compiler's harness: [`param_word`] (the hardware input for a
//! `Params`), a golden model with the compiler's timing ([`GoldenCfg`]), rust-hdl's
//! simulation ([`HdlCfg`]); the Verilated one is `verilated::VerilatedCfg`.
//!
//! What the compiler computes is `RpConfig::new` and `NpConfig::new` (the same functions the
//! golden RP and NP use); the golden model only adds when: `busy` for
//! `COMPILE_CYCLES` cycles, one table write every `TBL_PERIOD` cycles from `TBL_FIRST_CYCLE`
//! (after the divisions and the port's register; the low table, then the high one), the
//! words on the last edge.

use crate::dcqcn_np::NpConfig;
use crate::dcqcn_rp::{POW_TABLE, RpConfig};
use crate::hdl_sim::{settle, tick};
use crate::lockstep::CycleDut;
use crate::np_harness::np_cfg_word;
use crate::rp_harness::cfg_word;
use crate::verilated::words_of;
use roce_cc_hdl::cfg_compiler::{
    COMPILE_CYCLES, CfgCompiler, ParamWord, TBL_FIRST_CYCLE, TBL_PERIOD,
};
use roce_cc_hdl::dcqcn_np::NpCfgWord;
use roce_cc_hdl::dcqcn_rp::state::RpCfgWord;
use roce_cc_params::{CnpModeration, Params};
use rust_hdl::prelude::*;

/// Words of the RP configuration output.
pub const RP_CFG_WORDS: usize = <RpCfgWord as Synth>::BITS.div_ceil(32);
/// Words of the parameter input.
pub const PARAM_WORDS: usize = <ParamWord as Synth>::BITS.div_ceil(32);

fn b<const N: usize>(x: u32) -> Bits<N> {
    (x as u64).into()
}

/// The compiler's input for `p` (as the register block holds it).
pub fn param_word(p: &Params) -> ParamWord {
    ParamWord {
        line_rate: b(p.line_rate_mbps),
        time_reset: b(p.rpg_time_reset),
        byte_reset: b(p.rpg_byte_reset),
        threshold: b(p.rpg_threshold),
        max_rate: b(p.rpg_max_rate),
        ai_rate: b(p.rpg_ai_rate),
        hai_rate: b(p.rpg_hai_rate),
        gd: b(p.rpg_gd),
        min_dec_fac: b(p.rpg_min_dec_fac),
        min_rate: b(p.rpg_min_rate),
        first_rate: b(p.rate_to_set_on_first_cnp),
        g: b(p.dce_tcp_g),
        rtt: b(p.dce_tcp_rtt),
        monitor: b(p.rate_reduce_monitor_period),
        alpha_init: b(p.initial_alpha_value),
        clamp_tgt_rate: p.clamp_tgt_rate,
        clamp_after_t: p.clamp_tgt_rate_after_time_inc,
        cnp_gap: b(p.min_time_between_cnps),
        per_port: p.cnp_moderation == CnpModeration::PerPort,
        dscp: b(p.cnp_dscp),
        prio: b(p.cnp_802p_prio),
    }
}

/// The compiler's pins for one cycle.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CfgPins {
    pub reset: bool,
    pub start: bool,
    /// The parameters on the `params` input (must be valid).
    pub params: Params,
}

/// The compiler's outputs in one cycle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CfgOuts {
    pub busy: bool,
    /// `tbl_we` with `(tbl_addr, tbl_data)`.
    pub tbl: Option<(u32, u32)>,
    /// `rp_cfg`, as 32-bit words.
    pub rp_cfg: [u32; RP_CFG_WORDS],
    /// `np_cfg`.
    pub np_cfg: u64,
}

/// The configuration words of `p`: what the compiler outputs after compiling it.
pub fn compiled_words(p: &Params) -> ([u32; RP_CFG_WORDS], u64) {
    let rp: Bits<{ <RpCfgWord as Synth>::BITS }> = cfg_word(&RpConfig::new(p)).into();
    let np: Bits<{ <NpCfgWord as Synth>::BITS }> =
        np_cfg_word(&NpConfig::new(p).expect("valid parameters")).into();
    (words_of(rp), np.to_u64())
}

/// The golden compiler: `RpConfig::new` / `NpConfig::new` with the hardware's timing.
#[derive(Default)]
pub struct GoldenCfg {
    /// Cycle of the running compile and its configuration.
    running: Option<(u32, Box<RpConfig>, Params)>,
    words: ([u32; RP_CFG_WORDS], u64),
    pins: CfgPins,
}

impl GoldenCfg {
    pub fn new() -> Self {
        Self::default()
    }
}

impl CycleDut<CfgPins, CfgOuts> for GoldenCfg {
    fn eval(&mut self, pins: &CfgPins) -> CfgOuts {
        self.pins = pins.clone();
        let tbl = self.running.as_ref().and_then(|(k, cfg, _)| {
            let k = *k as usize;
            let lo = TBL_FIRST_CYCLE as usize;
            let period = TBL_PERIOD as usize;
            if k < lo || (k - lo) % period != 0 {
                return None;
            }
            let j = (k - lo) / period;
            if j < POW_TABLE {
                Some((j as u32, cfg.pow_lo[j]))
            } else if j < 2 * POW_TABLE {
                Some((j as u32, cfg.pow_hi[j - POW_TABLE]))
            } else {
                None
            }
        });
        CfgOuts {
            busy: self.running.is_some(),
            tbl,
            rp_cfg: self.words.0,
            np_cfg: self.words.1,
        }
    }

    fn clock(&mut self) {
        let pins = &self.pins;
        if pins.reset {
            self.running = None;
            self.words = Default::default();
            return;
        }
        match self.running.take() {
            None if pins.start => {
                let cfg = Box::new(RpConfig::new(&pins.params));
                self.running = Some((0, cfg, pins.params.clone()));
            }
            None => {}
            Some((k, _, p)) if k + 1 == COMPILE_CYCLES => self.words = compiled_words(&p),
            Some((k, cfg, p)) => self.running = Some((k + 1, cfg, p)),
        }
    }
}

/// rust-hdl's own simulation of the compiler.
pub struct HdlCfg {
    uut: Box<CfgCompiler>,
}

impl HdlCfg {
    pub fn new() -> Self {
        let mut uut = Box::<CfgCompiler>::default();
        uut.connect_all();
        settle(uut.as_mut());
        Self { uut }
    }
}

impl Default for HdlCfg {
    fn default() -> Self {
        Self::new()
    }
}

impl CycleDut<CfgPins, CfgOuts> for HdlCfg {
    fn eval(&mut self, pins: &CfgPins) -> CfgOuts {
        let u = self.uut.as_mut();
        u.reset.next = pins.reset;
        u.start.next = pins.start;
        u.params.next = param_word(&pins.params);
        settle(u);
        let rp: Bits<{ <RpCfgWord as Synth>::BITS }> = u.rp_cfg.val().into();
        let np: Bits<{ <NpCfgWord as Synth>::BITS }> = u.np_cfg.val().into();
        CfgOuts {
            busy: u.busy.val(),
            tbl: u
                .tbl_we
                .val()
                .then(|| (u.tbl_addr.val().to_u32(), u.tbl_data.val().to_u32())),
            rp_cfg: words_of(rp),
            np_cfg: np.to_u64(),
        }
    }

    fn clock(&mut self) {
        tick(self.uut.as_mut(), |u| &mut u.clock);
    }
}
