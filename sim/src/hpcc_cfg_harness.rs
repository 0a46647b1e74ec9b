//! Harness of the HPCC configuration compiler (`roce_cc_hdl::hpcc_window::cfg::HpccCfg`):
//! one set of pins, three implementations ([`GoldenHpccCfg`], [`HdlHpccCfg`], and
//! `VerilatedHpccCfg` in [`crate::verilated`]), compared every cycle by [`crate::lockstep`].
//!
//! What the compiler computes is `HpccConfig::new` (the golden window unit's own
//! configuration); the golden model adds only when: `busy` for `HPCC_CFG_CYCLES` cycles
//! from the one after a `start` while idle, the words at the edge where it falls, zero
//! after a reset.

use crate::hdl_sim::{settle, tick};
use crate::hpcc_harness::hpcc_cfg_words;
use crate::hpcc_window::{HpccConfig, HpccParams};
use crate::lockstep::CycleDut;
use crate::verilated::words_of;
use roce_cc_hdl::hpcc_window::cfg::{HPCC_CFG_CYCLES, HpccCfg, HpccParamWord};
use roce_cc_hdl::hpcc_window::hop_load::CodeConsts;
use roce_cc_hdl::hpcc_window::window::HpccCfgWord;
use rust_hdl::prelude::*;

/// Words of the `cfg` output.
pub const CFG_WORDS: usize = <HpccCfgWord as Synth>::BITS.div_ceil(32);
/// Words of the `cfg_k` output.
pub const K_WORDS: usize = <CodeConsts as Synth>::BITS.div_ceil(32);
/// Words of the `params` input.
pub const HPCC_PARAM_WORDS: usize = <HpccParamWord as Synth>::BITS.div_ceil(32);

fn b<const N: usize>(x: u32) -> Bits<N> {
    (x as u64).into()
}

/// The compiler's input for `p`.
pub fn hpcc_param_word(p: &HpccParams) -> HpccParamWord {
    HpccParamWord {
        t_ns: b(p.base_rtt_ns),
        eta: b(p.eta),
        max_stage: b(p.max_stage),
        ai_mbps: b(p.rate_ai_mbps),
        min_mbps: b(p.min_rate_mbps),
        max_mbps: b(p.max_rate_mbps),
        multi: b(p.int_multi),
    }
}

/// The compiler's pins for one cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HpccCfgPins {
    pub reset: bool,
    pub start: bool,
    /// The parameters on the `params` input (valid ones).
    pub params: HpccParams,
}

/// The compiler's outputs in one cycle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HpccCfgOuts {
    pub busy: bool,
    /// `cfg`, as 32-bit words.
    pub cfg: [u32; CFG_WORDS],
    /// `cfg_k`, as 32-bit words.
    pub cfg_k: [u32; K_WORDS],
}

/// The words the compiler outputs after compiling `p`: those of `HpccConfig::new(p)`.
pub fn hpcc_compiled_words(p: &HpccParams) -> ([u32; CFG_WORDS], [u32; K_WORDS]) {
    let (w, k) = hpcc_cfg_words(&HpccConfig::new(p));
    words_of_cfg(&w, &k)
}

fn words_of_cfg(w: &HpccCfgWord, k: &CodeConsts) -> ([u32; CFG_WORDS], [u32; K_WORDS]) {
    let w: Bits<{ <HpccCfgWord as Synth>::BITS }> = (*w).into();
    let k: Bits<{ <CodeConsts as Synth>::BITS }> = (*k).into();
    (words_of(w), words_of(k))
}

/// The golden compiler: `HpccConfig::new` with the hardware's timing.
#[derive(Default)]
pub struct GoldenHpccCfg {
    /// Cycle of the running compile and its parameters.
    running: Option<(u32, HpccParams)>,
    words: ([u32; CFG_WORDS], [u32; K_WORDS]),
    pins: Option<HpccCfgPins>,
}

impl GoldenHpccCfg {
    pub fn new() -> Self {
        Self::default()
    }
}

impl CycleDut<HpccCfgPins, HpccCfgOuts> for GoldenHpccCfg {
    fn eval(&mut self, pins: &HpccCfgPins) -> HpccCfgOuts {
        self.pins = Some(*pins);
        HpccCfgOuts {
            busy: self.running.is_some(),
            cfg: self.words.0,
            cfg_k: self.words.1,
        }
    }

    fn clock(&mut self) {
        let pins = self.pins.expect("eval before clock");
        if pins.reset {
            self.running = None;
            self.words = Default::default();
            return;
        }
        self.running = match self.running.take() {
            None if pins.start => Some((1, pins.params)),
            None => None,
            Some((k, p)) if k == HPCC_CFG_CYCLES => {
                self.words = hpcc_compiled_words(&p);
                None
            }
            Some((k, p)) => Some((k + 1, p)),
        };
    }
}

/// rust-hdl's own simulation of the compiler.
pub struct HdlHpccCfg {
    uut: Box<HpccCfg>,
}

impl HdlHpccCfg {
    pub fn new() -> Self {
        let mut uut = Box::<HpccCfg>::default();
        uut.connect_all();
        settle(uut.as_mut());
        Self { uut }
    }
}

impl Default for HdlHpccCfg {
    fn default() -> Self {
        Self::new()
    }
}

impl CycleDut<HpccCfgPins, HpccCfgOuts> for HdlHpccCfg {
    fn eval(&mut self, pins: &HpccCfgPins) -> HpccCfgOuts {
        let u = self.uut.as_mut();
        u.reset.next = pins.reset;
        u.start.next = pins.start;
        u.params.next = hpcc_param_word(&pins.params);
        settle(u);
        let (cfg, cfg_k) = words_of_cfg(&u.cfg.val(), &u.cfg_k.val());
        HpccCfgOuts {
            busy: u.busy.val(),
            cfg,
            cfg_k,
        }
    }

    fn clock(&mut self) {
        tick(self.uut.as_mut(), |u| &mut u.clock);
    }
}
