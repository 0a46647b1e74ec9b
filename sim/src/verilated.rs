//! The Verilated models of the roce-cc tops, driven from Rust.
//!
//! `build.rs` Verilates each top with `roce-cc-bridge-gen` and generates its bindings; each
//! top gets a module here holding one safe struct (`V` + the CamelCase top name, e.g.
//! [`wide_mul_28x21::VWideMul28x21`]) with `new`, `eval`, a setter per input
//! (`set_<port>`), a getter per port (`<port>()`), `tick` (if the top has a `clock`),
//! and `open_vcd` / `dump_vcd` / `close_vcd`; plus `PORTS`, the port list.
//!
//! On top of the raw bindings, [`VerilatedRp`], [`VerilatedNp`] and [`VerilatedCore`] give
//! the reaction point, the notification point and the core top the pins of their lock-step
//! harnesses, so the Verilated RTL is driven exactly like the golden model and rust-hdl's
//! simulation.
//!
//! Adding a top: a `build_top` line in `build.rs` and a `bridge!` line here.

use crate::axil::{AxilOuts, AxilPins, RegRequest};
use crate::cfg_compiler::{CfgOuts, CfgPins, PARAM_WORDS, param_word};
use crate::core_harness::{CoreOuts, CorePins, cnp_time_word};
use crate::core_top::{AckCounts, BadQpCounts};
use crate::dcqcn_np::{CnpRequest, NpConfig};
use crate::dcqcn_rp::RpConfig;
use crate::hpcc_cfg_harness::{HPCC_PARAM_WORDS, HpccCfgOuts, HpccCfgPins, hpcc_param_word};
use crate::hpcc_harness::{HpccOuts, HpccPins, HpccRep, hpcc_cfg_words, int_hop};
use crate::hpcc_window::{HpccConfig, HpccParams};
use crate::lockstep::{CycleDut, Waveform};
use crate::np_harness::{NpCounts, NpOuts, NpPins, np_cfg_word, np_time_word};
use crate::paced_harness::{PacedCounts, PacedOuts, PacedPins};
use crate::replay::RpReport;
use crate::rp_harness::{IncCounts, RateOut, RpOuts, RpPins, cfg_word, ctl_fields};
use crate::timebase::TimeStamp;
use crate::timebase_harness::{TbOuts, TbPins};
use crate::top_harness::{TopOuts, TopPins};
use crate::uart_bridge_harness::{UbOuts, UbPins};
use roce_cc_hdl::cfg_compiler::ParamWord;
use roce_cc_hdl::core_top::CnpTimeWord;
use roce_cc_hdl::dcqcn_np::{NpCfgWord, NpTimeWord};
use roce_cc_hdl::dcqcn_rp::state::{RpCfgWord, TimeWord};
use roce_cc_hdl::hpcc_window::cfg::HpccParamWord;
use roce_cc_hdl::hpcc_window::hop_load::CodeConsts;
use roce_cc_hdl::hpcc_window::window::{HpccCfgWord, HpccReport, IntHop};
use roce_cc_params::Params;
use rust_hdl::prelude::{Bits, Synth};
use std::path::Path;

/// A module `$name` holding the generated bindings of top `$name`.
macro_rules! bridge {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        pub mod $name {
            include!(concat!(env!("OUT_DIR"), "/", stringify!($name), "_bindings.rs"));
        }
    };
}

bridge!(
    /// `WideMul<28, 21, 49>` (`roce_cc_hdl::wide_mul::WideMul28x21`): the bridge's test top.
    wide_mul_28x21
);
bridge!(
    /// `LutRam<25, 7>` (`roce_cc_hdl::LutRam25x7`): the power-table RAM leaf.
    lut_ram_25x7
);
bridge!(
    /// `DspMul<15, 17, 32>` (`roce_cc_hdl::DspMul15x17`): the registered DSP multiply leaf
    /// (its simulation body: Verilator does not define `SYNTHESIS`).
    dsp_mul_15x17
);
bridge!(
    /// `StateRam<Bits<12>, 3>` (`roce_cc_hdl::StateRam12x3`): the state RAM leaf.
    state_ram_12x3
);
bridge!(
    /// `ZeroExt<17, 18>` (`roce_cc_hdl::ZeroExt17to18`): the zero-extension leaf.
    zero_ext_17to18
);
bridge!(
    /// `RpNear` (`roce_cc_hdl::dcqcn_rp::near::RpNear`): the RP's same-QP next-state block.
    rp_near
);
bridge!(
    /// `DcqcnRp<4>`: the reaction point for 16 QPs (three-way tests).
    dcqcn_rp_q16
);
bridge!(
    /// `DcqcnRp<10>`: the reaction point for 1024 QPs (the default).
    dcqcn_rp_q1024
);
bridge!(
    /// `AxilSlave`: the AXI4-Lite slave front end.
    axil_slave
);
bridge!(
    /// `UartBridge` at `SIM_DIVISOR` / `SIM_TIMEOUT`: the UART-to-AXI4-Lite bridge.
    uart_bridge_sim
);
bridge!(
    /// `CfgCompiler`: parameters -> the units' hardware form.
    cfg_compiler
);
bridge!(
    /// `Timebase`: the time base in hardware.
    timebase
);
bridge!(
    /// `DcqcnNp<4>`: the notification point for 16 QPs (three-way tests).
    dcqcn_np_q16
);
bridge!(
    /// `HpccWindow<4>`: the HPCC window unit for 16 QPs (three-way tests).
    hpcc_window_q16
);
bridge!(
    /// `HpccWindow<10>` (`roce_cc_hdl::hpcc_window::window`): the HPCC window unit, 1024 QPs.
    hpcc_window_q1024
);
bridge!(
    /// `HpccCfg` (`roce_cc_hdl::hpcc_window::cfg`): the HPCC configuration compiler.
    hpcc_cfg
);
bridge!(
    /// `PacerCpb` (`roce_cc_hdl::pacer::cpb`): the pacer's rate-to-cycles-per-byte pipeline.
    pacer_cpb
);
bridge!(
    /// `Eligible1024` (`roce_cc_hdl::pacer::eligible`): the pacer's eligible set, 1024 QPs.
    pacer_eligible
);
bridge!(
    /// `Eligible<7, 2, 4>`: the pacer's eligible set for 128 QPs (three-way tests).
    pacer_eligible_q7
);
bridge!(
    /// `PaceStep` (`roce_cc_hdl::pacer::pace_step`): one grant's arithmetic.
    pacer_step
);
bridge!(
    /// `Wheel1024` (`roce_cc_hdl::pacer::wheel`): the pacer's timing wheel, 1024 QPs and
    /// 256 slots.
    pacer_wheel
);
bridge!(
    /// `Wheel<6, 6, 64, 7>`: the timing wheel for 64 QPs and 64 slots (three-way tests).
    pacer_wheel_q6
);
bridge!(
    /// `Pacer1024` (`roce_cc_hdl::pacer::sched`): the pacer top, 1024 QPs.
    pacer
);
bridge!(
    /// `Pacer64`: the pacer top for 64 QPs (three-way tests).
    pacer_q6
);
bridge!(
    /// `Pacer4096`: the pacer top for 4096 QPs (`roce-cc bench --unit pacer`).
    pacer_q12
);
bridge!(
    /// `PacedCore64` (`roce_cc_hdl::paced_core`): the core with the pacer inside, 64 QPs.
    paced_core_q64
);
bridge!(
    /// `PacedCore1024`: the core with the pacer inside, 1024 QPs (the rtl replay).
    paced_core_q1024
);
bridge!(
    /// `RoceCcCore<4>`: the core top for 16 QPs (three-way tests).
    roce_cc_core_q16
);
bridge!(
    /// `RoceCcCore<10>`: the core top for 1024 QPs (the default).
    roce_cc_core_q1024
);
bridge!(
    /// `RoceCcCore<14>`: the core top for 16384 QPs (the largest).
    roce_cc_core_q16384
);
#[cfg(post_synth)]
bridge!(
    /// `RoceCcCore<10>` after synthesis: its yosys `synth_ecp5` netlist with the ECP5 cell
    /// models (`sim/post_synth/`), built only with `ROCE_CC_POST_SYNTH` set (see `build.rs`).
    roce_cc_core_q1024_netlist
);
bridge!(
    /// `RoceCcTop<4>`: the core with its register block, 16 QPs (three-way tests).
    roce_cc_top_q16
);
bridge!(
    /// `RoceCcTop<10>`: the core with its register block, 1024 QPs (the `sim` BAR).
    roce_cc_top_q1024
);

/// The VCD bookkeeping of a Verilated wrapper: whether a file is open, and the time of the
/// next dump (half clock cycles).
#[derive(Default)]
struct Vcd {
    half_cycles: u64,
    on: bool,
}

/// For each `Wrapper.model`: a `dump` method (one VCD sample per half cycle while a file is
/// open) and the [`Waveform`] implementation, over the model's generated VCD methods.
macro_rules! waveform {
    ($($ty:ident . $model:ident),*) => {$(
        impl $ty {
            fn dump(&mut self) {
                if self.vcd.on {
                    self.$model.dump_vcd(self.vcd.half_cycles);
                }
                self.vcd.half_cycles += 1;
            }
        }

        impl Waveform for $ty {
            fn open_vcd(&mut self, path: &Path) -> std::io::Result<()> {
                self.$model.open_vcd(path)?;
                self.vcd.on = true;
                Ok(())
            }

            fn close_vcd(&mut self) {
                self.$model.close_vcd();
                self.vcd.on = false;
            }
        }
    )*};
}

/// `x` as `W` 32-bit words, least significant first (the layout Verilator uses for ports
/// wider than 64 bits). The bit order of a `LogicStruct` comes from rust-hdl's own
/// `From<Struct> for Bits<N>`, so there is no second copy of any word layout here.
pub fn words_of<const N: usize, const W: usize>(x: Bits<N>) -> [u32; W] {
    assert_eq!(
        W,
        N.div_ceil(32),
        "{N} bits are {} words, not {W}",
        N.div_ceil(32)
    );
    std::array::from_fn(|i| {
        let lo = 32 * i;
        let mut w = 0u32;
        for bit in 0..32.min(N - lo) {
            if x.get_bit(lo + bit) {
                w |= 1 << bit;
            }
        }
        w
    })
}

/// Sets `width` bits at bit `offset` of `words` to `value`.
fn put_bits(words: &mut [u32], offset: usize, width: usize, value: u64) {
    for bit in 0..width {
        if value >> bit & 1 == 1 {
            let at = offset + bit;
            words[at / 32] |= 1 << (at % 32);
        }
    }
}

/// The `now` port's words for `now`: the same bits as `words_of(time_word(now).into())`,
/// packed directly at the field offsets rust-hdl's `LogicStruct` derive reports (going
/// through a 157-bit `Bits` costs more than the Verilated cycle itself).
pub fn time_words(now: &TimeStamp) -> [u32; 5] {
    let layout = TimeWord::default();
    let mut w = [0u32; 5];
    put_bits(
        &mut w,
        layout.get_my_offset_sub(),
        layout.get_my_width_sub(),
        now.sub.into(),
    );
    let fields = [
        (
            layout.get_my_offset_a_e(),
            layout.get_my_width_a_e(),
            now.alpha.epoch,
        ),
        (
            layout.get_my_offset_a_r(),
            layout.get_my_width_a_r(),
            now.alpha.rem,
        ),
        (
            layout.get_my_offset_d_e(),
            layout.get_my_width_d_e(),
            now.dec.epoch,
        ),
        (
            layout.get_my_offset_d_r(),
            layout.get_my_width_d_r(),
            now.dec.rem,
        ),
        (
            layout.get_my_offset_i_e(),
            layout.get_my_width_i_e(),
            now.inc.epoch,
        ),
        (
            layout.get_my_offset_i_r(),
            layout.get_my_width_i_r(),
            now.inc.rem,
        ),
    ];
    for (offset, width, value) in fields {
        put_bits(&mut w, offset, width, value.into());
    }
    w
}

/// The same set of methods on each size of the Verilated RP, so one wrapper drives them all.
/// `CycleDut` for a Verilated wrapper whose pins carry `now` (the core and the top): the
/// time words are packed here, the rest of the pins by the model's `eval_pins`.
macro_rules! timed_cycle_dut {
    ($ty:ident: $pins:ident, $outs:ident) => {
        impl CycleDut<$pins, $outs> for $ty {
            fn eval(&mut self, pins: &$pins) -> $outs {
                let cnp: Bits<{ <CnpTimeWord as Synth>::BITS }> = cnp_time_word(&pins.now).into();
                self.model
                    .eval_pins(pins, &time_words(&pins.now), cnp.to_u64());
                self.dump();
                self.model.outs()
            }

            fn clock(&mut self) {
                self.model.set_clock(true);
                self.dump();
            }
        }
    };
}

/// The methods every size-dispatch enum of Verilated models has: the clock, and the VCD
/// file of whichever model it holds.
macro_rules! sized_model_common {
    ($enum:ident; $($ty:ident),*) => {
        impl $enum {
            fn set_clock(&mut self, level: bool) {
                match self { $($enum::$ty(m) => { m.set_clock(level as u64); m.eval(); })* }
            }

            fn open_vcd(&mut self, path: &Path) -> std::io::Result<()> {
                match self { $($enum::$ty(m) => m.open_vcd(path),)* }
            }

            fn dump_vcd(&mut self, time: u64) {
                match self { $($enum::$ty(m) => m.dump_vcd(time),)* }
            }

            fn close_vcd(&mut self) {
                match self { $($enum::$ty(m) => m.close_vcd(),)* }
            }
        }
    };
}

/// Drive the core's four event streams and two output readies from `pins` (the core's
/// and the top's pins name them alike, as do the models' ports).
macro_rules! set_event_pins {
    ($m:expr, $pins:expr) => {{
        let (m, pins) = (&mut $m, &$pins);
        m.set_s_cnp_valid(pins.cnp.is_some() as u64);
        m.set_s_cnp_qpn(pins.cnp.unwrap_or(0) as u64);
        m.set_s_tx_valid(pins.tx.is_some() as u64);
        m.set_s_tx_qpn(pins.tx.map_or(0, |t| t.0) as u64);
        m.set_s_tx_bytes(pins.tx.map_or(0, |t| t.1) as u64);
        m.set_s_query_valid(pins.query.is_some() as u64);
        m.set_s_query_qpn(pins.query.unwrap_or(0) as u64);
        m.set_s_rx_valid(pins.rx.is_some() as u64);
        m.set_s_rx_qpn(pins.rx.map_or(0, |t| t.0) as u64);
        m.set_s_rx_ecn(pins.rx.map_or(0, |t| t.1) as u64);
        m.set_m_rate_ready(pins.rate_ready as u64);
        m.set_m_cnp_ready(pins.cnp_ready as u64);
    }};
}

/// The rate report and the CNP request a model with the core's output ports offers; `$ctl`
/// is the report's `ctl` flag.
macro_rules! rate_and_cnp {
    ($m:expr, $ctl:expr) => {{
        let m = &$m;
        (
            (m.m_rate_valid() != 0).then(|| RateOut {
                qp: m.m_rate_qp() as u32,
                query: m.m_rate_query() != 0,
                ctl: $ctl,
                mode: m.m_rate_mode() as u32,
                report: RpReport {
                    limited: m.m_rate_limited() != 0,
                    rc_mbps_q8: m.m_rate_rc() as u32,
                    rt_mbps_q8: m.m_rate_rt() as u32,
                    alpha_q20: m.m_rate_alpha() as u32,
                },
                u_q24: m.m_rate_u(),
                window: m.m_rate_window() as u32,
            }),
            (m.m_cnp_valid() != 0).then(|| CnpRequest {
                qp: m.m_cnp_qp() as u32,
                dscp: m.m_cnp_dscp() as u32,
                prio: m.m_cnp_prio() as u32,
            }),
        )
    }};
}

macro_rules! rp_model {
    ($($module:ident :: $ty:ident),*) => {
        /// One Verilated reaction point, whatever its size.
        enum RpModel { $($ty(Box<$module::$ty>)),* }

        impl RpModel {
            fn eval_pins(&mut self, pins: &RpPins, now: &[u32; 5]) {
                match self { $(RpModel::$ty(m) => {
                    // The falling edge of the previous cycle and this cycle's inputs are one
                    // evaluation (nothing in the design acts on the falling edge).
                    m.set_clock(0);
                    m.set_reset(pins.reset as u64);
                    let (op, mode, rate) = ctl_fields(pins.ctl);
                    m.set_s_ctl_valid(pins.ctl.is_some() as u64);
                    m.set_s_ctl_qp(pins.ctl.map_or(0, |c| c.0) as u64);
                    m.set_s_ctl_op(op as u64);
                    m.set_s_ctl_mode(mode as u64);
                    m.set_s_ctl_rate(rate as u64);
                    m.set_s_cnp_valid(pins.cnp.is_some() as u64);
                    m.set_s_cnp_qp(pins.cnp.unwrap_or(0) as u64);
                    m.set_s_tx_valid(pins.tx.is_some() as u64);
                    m.set_s_tx_qp(pins.tx.map_or(0, |t| t.0) as u64);
                    m.set_s_tx_bytes(pins.tx.map_or(0, |t| t.1) as u64);
                    m.set_s_query_valid(pins.query.is_some() as u64);
                    m.set_s_query_qp(pins.query.unwrap_or(0) as u64);
                    m.set_m_rate_ready(pins.m_ready as u64);
                    m.set_now(now);
                    m.set_tbl_we(pins.tbl.is_some() as u64);
                    m.set_tbl_addr(pins.tbl.map_or(0, |t| t.0) as u64);
                    m.set_tbl_data(pins.tbl.map_or(0, |t| t.1) as u64);
                    m.eval();
                })* }
            }

            fn outs(&self) -> RpOuts {
                match self { $(RpModel::$ty(m) => RpOuts {
                    ctl_ready: m.s_ctl_ready() != 0,
                    cnp_ready: m.s_cnp_ready() != 0,
                    tx_ready: m.s_tx_ready() != 0,
                    query_ready: m.s_query_ready() != 0,
                    busy: m.busy() != 0,
                    report: (m.m_rate_valid() != 0).then(|| RateOut {
                        qp: m.m_rate_qp() as u32,
                        query: m.m_rate_query() != 0,
                        ctl: m.m_rate_ctl() != 0,
                        mode: m.m_rate_mode() as u32,
                        report: RpReport {
                            limited: m.m_rate_limited() != 0,
                            rc_mbps_q8: m.m_rate_rc() as u32,
                            rt_mbps_q8: m.m_rate_rt() as u32,
                            alpha_q20: m.m_rate_alpha() as u32,
                        },
                        u_q24: 0,
                        window: 0,
                    }),
                    cnp_received: m.cnt_cnp_received(),
                    rate_cuts: m.cnt_rate_cuts(),
                    increase: IncCounts {
                        fr: m.cnt_increase_fr(),
                        ai: m.cnt_increase_ai(),
                        hai: m.cnt_increase_hai(),
                    },
                },)* }
            }

            fn set_cfg(&mut self, cfg: &[u32; crate::cfg_compiler::RP_CFG_WORDS]) {
                match self { $(RpModel::$ty(m) => m.set_cfg(cfg),)* }
            }
        }

        sized_model_common!(RpModel; $($ty),*);
    };
}

rp_model!(dcqcn_rp_q16::VDcqcnRpQ16, dcqcn_rp_q1024::VDcqcnRpQ1024);

/// The Verilated reaction point with the lock-step harness's pins ([`RpPins`]).
///
/// Each cycle: `eval` lowers the clock, sets the pins and evaluates once;
/// `clock` raises the clock and evaluates (two evaluations per cycle). With a VCD open, every half cycle is
/// dumped (time unit: half cycles).
pub struct VerilatedRp {
    model: RpModel,
    vcd: Vcd,
}

impl VerilatedRp {
    /// The Verilated RP for `p`, built for exactly `p.qps` QPs; `None` if no model of that
    /// size is built (16 and 1024 are; the core top has more sizes).
    pub fn exact(p: &Params) -> Option<Self> {
        let model = match p.qps {
            16 => RpModel::VDcqcnRpQ16(Box::default()),
            1024 => RpModel::VDcqcnRpQ1024(Box::default()),
            _ => return None,
        };
        Some(Self::with_model(model, p))
    }

    fn with_model(mut model: RpModel, p: &Params) -> Self {
        let cfg: Bits<{ <RpCfgWord as Synth>::BITS }> = cfg_word(&RpConfig::new(p)).into();
        model.set_cfg(&words_of(cfg));
        model.set_clock(false);
        Self {
            model,
            vcd: Vcd::default(),
        }
    }
}

impl CycleDut<RpPins, RpOuts> for VerilatedRp {
    fn eval(&mut self, pins: &RpPins) -> RpOuts {
        self.model.eval_pins(pins, &time_words(&pins.now));
        self.dump();
        self.model.outs()
    }

    fn clock(&mut self) {
        self.model.set_clock(true);
        self.dump();
    }
}

/// The Verilated time base with the harness's pins ([`crate::timebase_harness::TbPins`]).
pub struct VerilatedTimebase {
    m: Box<timebase::VTimebase>,
}

impl Default for VerilatedTimebase {
    fn default() -> Self {
        let mut m: Box<timebase::VTimebase> = Box::default();
        m.set_clock(0);
        m.eval();
        Self { m }
    }
}

impl CycleDut<TbPins, TbOuts> for VerilatedTimebase {
    fn eval(&mut self, pins: &TbPins) -> TbOuts {
        let p = &pins.params;
        let m = self.m.as_mut();
        m.set_clock(0);
        m.set_reset(pins.reset as u64);
        m.set_restart(pins.restart as u64);
        m.set_clock_mhz(p.clock_mhz as u64);
        m.set_p_alpha(p.dce_tcp_rtt as u64);
        m.set_p_dec(p.rate_reduce_monitor_period as u64);
        m.set_p_inc(p.rpg_time_reset as u64);
        m.set_p_cnp(p.min_time_between_cnps.max(1) as u64);
        m.eval();
        TbOuts {
            now: m.now(),
            now_cnp: m.now_cnp(),
        }
    }

    fn clock(&mut self) {
        self.m.set_clock(1);
        self.m.eval();
    }
}

/// The Verilated configuration compiler with the harness's pins
/// ([`crate::cfg_compiler::CfgPins`]).
pub struct VerilatedCfg {
    m: Box<cfg_compiler::VCfgCompiler>,
}

impl VerilatedCfg {
    pub fn new() -> Self {
        let mut m: Box<cfg_compiler::VCfgCompiler> = Box::default();
        m.set_clock(0);
        m.eval();
        Self { m }
    }
}

impl Default for VerilatedCfg {
    fn default() -> Self {
        Self::new()
    }
}

impl CycleDut<CfgPins, CfgOuts> for VerilatedCfg {
    fn eval(&mut self, p: &CfgPins) -> CfgOuts {
        let m = self.m.as_mut();
        m.set_clock(0);
        m.set_reset(p.reset as u64);
        m.set_start(p.start as u64);
        let params: Bits<{ <ParamWord as Synth>::BITS }> = param_word(&p.params).into();
        m.set_params(&words_of::<_, PARAM_WORDS>(params));
        m.eval();
        let m = self.m.as_ref();
        CfgOuts {
            busy: m.busy() != 0,
            tbl: (m.tbl_we() != 0).then(|| (m.tbl_addr() as u32, m.tbl_data() as u32)),
            rp_cfg: m.rp_cfg(),
            np_cfg: m.np_cfg(),
        }
    }

    fn clock(&mut self) {
        self.m.set_clock(1);
        self.m.eval();
    }
}

/// The Verilated HPCC configuration compiler with the harness's pins
/// ([`crate::hpcc_cfg_harness::HpccCfgPins`]).
pub struct VerilatedHpccCfg {
    m: Box<hpcc_cfg::VHpccCfg>,
}

impl VerilatedHpccCfg {
    pub fn new() -> Self {
        let mut m: Box<hpcc_cfg::VHpccCfg> = Box::default();
        m.set_clock(0);
        m.eval();
        Self { m }
    }
}

impl Default for VerilatedHpccCfg {
    fn default() -> Self {
        Self::new()
    }
}

impl CycleDut<HpccCfgPins, HpccCfgOuts> for VerilatedHpccCfg {
    fn eval(&mut self, p: &HpccCfgPins) -> HpccCfgOuts {
        let m = self.m.as_mut();
        m.set_clock(0);
        m.set_reset(p.reset as u64);
        m.set_start(p.start as u64);
        let params: Bits<{ <HpccParamWord as Synth>::BITS }> = hpcc_param_word(&p.params).into();
        m.set_params(&words_of::<_, HPCC_PARAM_WORDS>(params));
        m.eval();
        let m = self.m.as_ref();
        HpccCfgOuts {
            busy: m.busy() != 0,
            cfg: m.cfg(),
            cfg_k: m.cfg_k(),
        }
    }

    fn clock(&mut self) {
        self.m.set_clock(1);
        self.m.eval();
    }
}

/// The Verilated AXI4-Lite front end with the harness's pins ([`crate::axil::AxilPins`]).
pub struct VerilatedAxil {
    m: Box<axil_slave::VAxilSlave>,
    vcd: Vcd,
}

impl VerilatedAxil {
    pub fn new() -> Self {
        let mut m: Box<axil_slave::VAxilSlave> = Box::default();
        m.set_clock(0);
        m.eval();
        Self {
            m,
            vcd: Vcd::default(),
        }
    }
}

impl Default for VerilatedAxil {
    fn default() -> Self {
        Self::new()
    }
}

impl CycleDut<AxilPins, AxilOuts> for VerilatedAxil {
    fn eval(&mut self, p: &AxilPins) -> AxilOuts {
        let m = self.m.as_mut();
        m.set_clock(0);
        m.set_reset(p.reset as u64);
        m.set_s_awvalid(p.aw.is_some() as u64);
        m.set_s_awaddr(p.aw.unwrap_or(0) as u64);
        m.set_s_wvalid(p.w.is_some() as u64);
        m.set_s_wdata(p.w.map_or(0, |w| w.0) as u64);
        m.set_s_wstrb(p.w.map_or(0, |w| w.1) as u64);
        m.set_s_bready(p.bready as u64);
        m.set_s_arvalid(p.ar.is_some() as u64);
        m.set_s_araddr(p.ar.unwrap_or(0) as u64);
        m.set_s_rready(p.rready as u64);
        m.set_reg_ack(p.ack.is_some() as u64);
        m.set_reg_rdata(p.ack.map_or(0, |a| a.0) as u64);
        m.set_reg_resp(p.ack.map_or(0, |a| a.1) as u64);
        m.eval();
        self.dump();
        let m = self.m.as_ref();
        AxilOuts {
            awready: m.s_awready() != 0,
            wready: m.s_wready() != 0,
            arready: m.s_arready() != 0,
            b: (m.s_bvalid() != 0).then(|| m.s_bresp() as u32),
            r: (m.s_rvalid() != 0).then(|| (m.s_rdata() as u32, m.s_rresp() as u32)),
            req: (m.reg_valid() != 0).then(|| RegRequest {
                write: m.reg_write() != 0,
                addr: m.reg_addr() as u32,
                wdata: m.reg_wdata() as u32,
                wstrb: m.reg_wstrb() as u32,
            }),
        }
    }

    fn clock(&mut self) {
        self.m.set_clock(1);
        self.m.eval();
        self.dump();
    }
}

/// The Verilated UART bridge with the harness's pins
/// ([`crate::uart_bridge_harness::UbPins`]).
pub struct VerilatedUartBridge {
    m: Box<uart_bridge_sim::VUartBridgeSim>,
    vcd: Vcd,
}

impl VerilatedUartBridge {
    pub fn new() -> Self {
        let mut m: Box<uart_bridge_sim::VUartBridgeSim> = Box::default();
        m.set_clock(0);
        m.set_rxd(1);
        m.eval();
        Self {
            m,
            vcd: Vcd::default(),
        }
    }
}

impl Default for VerilatedUartBridge {
    fn default() -> Self {
        Self::new()
    }
}

impl CycleDut<UbPins, UbOuts> for VerilatedUartBridge {
    fn eval(&mut self, p: &UbPins) -> UbOuts {
        let m = self.m.as_mut();
        m.set_clock(0);
        m.set_reset(p.reset as u64);
        m.set_rxd(p.rxd as u64);
        m.set_m_axil_awready(p.awready as u64);
        m.set_m_axil_wready(p.wready as u64);
        m.set_m_axil_bvalid(p.b.is_some() as u64);
        m.set_m_axil_bresp(p.b.unwrap_or(0) as u64);
        m.set_m_axil_arready(p.arready as u64);
        m.set_m_axil_rvalid(p.r.is_some() as u64);
        m.set_m_axil_rdata(p.r.map_or(0, |r| r.0) as u64);
        m.set_m_axil_rresp(p.r.map_or(0, |r| r.1) as u64);
        m.eval();
        self.dump();
        let m = self.m.as_ref();
        UbOuts {
            txd: m.txd() != 0,
            aw: (m.m_axil_awvalid() != 0).then(|| m.m_axil_awaddr() as u32),
            w: (m.m_axil_wvalid() != 0).then(|| (m.m_axil_wdata() as u32, m.m_axil_wstrb() as u32)),
            bready: m.m_axil_bready() != 0,
            ar: (m.m_axil_arvalid() != 0).then(|| m.m_axil_araddr() as u32),
            rready: m.m_axil_rready() != 0,
            busy: m.busy() != 0,
            error: m.error() != 0,
        }
    }

    fn clock(&mut self) {
        self.m.set_clock(1);
        self.m.eval();
        self.dump();
    }
}

/// The Verilated notification point (16 QPs) with the NP harness's pins.
pub struct VerilatedNp {
    m: Box<dcqcn_np_q16::VDcqcnNpQ16>,
    vcd: Vcd,
}

impl VerilatedNp {
    /// The Verilated NP for `p` (`p.qps` must be 16, the size built).
    pub fn new(p: &Params) -> Option<Self> {
        if p.qps != 16 {
            return None;
        }
        let mut m: Box<dcqcn_np_q16::VDcqcnNpQ16> = Box::default();
        let cfg: Bits<{ <NpCfgWord as Synth>::BITS }> = np_cfg_word(&NpConfig::new(p).ok()?).into();
        m.set_cfg(cfg.to_u64());
        m.set_clock(0);
        m.eval();
        Some(Self {
            m,
            vcd: Vcd::default(),
        })
    }
}

impl CycleDut<NpPins, NpOuts> for VerilatedNp {
    fn eval(&mut self, pins: &NpPins) -> NpOuts {
        let m = self.m.as_mut();
        m.set_clock(0);
        m.set_reset(pins.reset as u64);
        m.set_s_clr_valid(pins.clr.is_some() as u64);
        m.set_s_clr_qp(pins.clr.unwrap_or(0) as u64);
        m.set_s_rx_valid(pins.rx.is_some() as u64);
        m.set_s_rx_qp(pins.rx.map_or(0, |r| r.0) as u64);
        m.set_s_rx_ecn(pins.rx.map_or(0, |r| r.1) as u64);
        m.set_m_cnp_ready(pins.cnp_ready as u64);
        let now: Bits<{ <NpTimeWord as Synth>::BITS }> = np_time_word(&pins.now).into();
        m.set_now(now.to_u64());
        m.eval();
        self.dump();
        let m = self.m.as_ref();
        NpOuts {
            clr_ready: m.s_clr_ready() != 0,
            rx_ready: m.s_rx_ready() != 0,
            busy: m.busy() != 0,
            cnp: (m.m_cnp_valid() != 0).then(|| CnpRequest {
                qp: m.m_cnp_qp() as u32,
                dscp: m.m_cnp_dscp() as u32,
                prio: m.m_cnp_prio() as u32,
            }),
            counts: NpCounts {
                sent: m.cnt_sent(),
                suppressed: m.cnt_suppressed(),
                stall: m.cnt_stall(),
            },
        }
    }

    fn clock(&mut self) {
        self.m.set_clock(1);
        self.m.eval();
        self.dump();
    }
}

macro_rules! hpcc_model {
    ($($module:ident :: $ty:ident),*) => {
        /// One Verilated HPCC window unit, whatever its size.
        enum HpccModel { $($ty(Box<$module::$ty>)),* }

        impl HpccModel {
            fn set_cfg(&mut self, w: &HpccCfgWord, k: &CodeConsts) {
                let w: Bits<{ <HpccCfgWord as Synth>::BITS }> = (*w).into();
                let k: Bits<{ <CodeConsts as Synth>::BITS }> = (*k).into();
                match self { $(HpccModel::$ty(m) => {
                    m.set_cfg(&words_of(w));
                    m.set_cfg_k(&words_of(k));
                })* }
            }

            fn eval_pins(&mut self, pins: &HpccPins) -> HpccOuts {
                let (qp, ack) = pins.ack.unwrap_or_default();
                let hop = |i: usize| -> u64 {
                    let b: Bits<{ <IntHop as Synth>::BITS }> = int_hop(&ack.hops[i]).into();
                    b.to_u64()
                };
                let (cqp, op) = pins.cmd.unwrap_or_default();
                match self { $(HpccModel::$ty(m) => {
                    m.set_clock(0);
                    m.set_reset(pins.reset as u64);
                    m.set_s_ack_valid(pins.ack.is_some() as u64);
                    m.set_s_ack_qp(qp as u64);
                    m.set_s_ack_seq(ack.seq as u64);
                    m.set_s_ack_snd_nxt(ack.snd_nxt as u64);
                    m.set_s_ack_nhop(ack.nhop as u64);
                    m.set_s_ack_hop_0(hop(0));
                    m.set_s_ack_hop_1(hop(1));
                    m.set_s_ack_hop_2(hop(2));
                    m.set_s_ack_hop_3(hop(3));
                    m.set_s_ack_hop_4(hop(4));
                    m.set_s_cmd_valid(pins.cmd.is_some() as u64);
                    m.set_s_cmd_qp(cqp as u64);
                    m.set_s_cmd_op(op as u64);
                    m.set_m_rep_ready(pins.rep_ready as u64);
                    m.eval();
                    HpccOuts {
                        ack_ready: m.s_ack_ready() != 0,
                        cmd_ready: m.s_cmd_ready() != 0,
                        busy: m.busy() != 0,
                        rep: (m.m_rep_valid() != 0)
                            .then(|| (m.m_rep_qp() as u32, hpcc_rep_of_words(&m.m_rep()))),
                        acks: m.cnt_acks() as u32,
                        commits: m.cnt_commits() as u32,
                    }
                })* }
            }
        }

        sized_model_common!(HpccModel; $($ty),*);
    };
}

hpcc_model!(
    hpcc_window_q16::VHpccWindowQ16,
    hpcc_window_q1024::VHpccWindowQ1024
);

/// The Verilated HPCC window unit (16 or 1024 QPs) with the HPCC harness's pins.
pub struct VerilatedHpcc {
    m: HpccModel,
    vcd: Vcd,
}

impl VerilatedHpcc {
    /// QP counts with a Verilated model.
    pub const SIZES: [u32; 2] = [16, 1024];

    /// The Verilated unit for `p` with `qps` QPs, if that size is built ([`Self::SIZES`]).
    pub fn new(p: &HpccParams, qps: u32) -> Option<Self> {
        let mut m = match qps {
            16 => HpccModel::VHpccWindowQ16(Box::default()),
            1024 => HpccModel::VHpccWindowQ1024(Box::default()),
            _ => return None,
        };
        let (w, k) = hpcc_cfg_words(&HpccConfig::new(p));
        m.set_cfg(&w, &k);
        m.set_clock(false);
        Some(Self {
            m,
            vcd: Vcd::default(),
        })
    }
}

/// `width` bits at bit `offset` of `words`.
fn get_bits(words: &[u32], offset: usize, width: usize) -> u64 {
    (0..width).fold(0u64, |v, bit| {
        let at = offset + bit;
        v | (((words[at / 32] >> (at % 32)) & 1) as u64) << bit
    })
}

/// A report word of the HPCC unit, at the field offsets rust-hdl's `LogicStruct` reports.
fn hpcc_rep_of_words(w: &[u32]) -> HpccRep {
    let l = HpccReport::default();
    let f = |o: usize, n: usize| get_bits(w, o, n);
    HpccRep {
        kind: f(l.get_my_offset_kind(), l.get_my_width_kind()) as u8,
        effect: f(l.get_my_offset_effect(), l.get_my_width_effect()) as u8,
        commit: f(l.get_my_offset_commit(), l.get_my_width_commit()) != 0,
        r: f(l.get_my_offset_r(), l.get_my_width_r()) as u32,
        rc: f(l.get_my_offset_rc(), l.get_my_width_rc()) as u32,
        u: f(l.get_my_offset_u(), l.get_my_width_u()),
        stage: f(l.get_my_offset_stage(), l.get_my_width_stage()) as u8,
        window: f(l.get_my_offset_window(), l.get_my_width_window()) as u32,
    }
}

impl CycleDut<HpccPins, HpccOuts> for VerilatedHpcc {
    fn eval(&mut self, pins: &HpccPins) -> HpccOuts {
        let outs = self.m.eval_pins(pins);
        self.dump();
        outs
    }

    fn clock(&mut self) {
        self.m.set_clock(true);
        self.dump();
    }
}

/// The same set of methods on each size of the Verilated core top (each model a variant of
/// the enum `$enum`; the RTL's sizes and the post-synthesis netlist are two enums).
macro_rules! core_model {
    ($enum:ident; $($module:ident :: $ty:ident),*) => {
        /// One Verilated core top, whatever its size.
        enum $enum { $($ty(Box<$module::$ty>)),* }

        impl $enum {
            fn eval_pins(&mut self, pins: &CorePins, now: &[u32; 5], now_cnp: u64) {
                match self { $($enum::$ty(m) => {
                    m.set_clock(0);
                    m.set_reset(pins.reset as u64);
                    let (op, mode, rate) = ctl_fields(pins.ctl);
                    m.set_s_ctl_valid(pins.ctl.is_some() as u64);
                    m.set_s_ctl_qp(pins.ctl.map_or(0, |c| c.0) as u64);
                    m.set_s_ctl_op(op as u64);
                    m.set_s_ctl_mode(mode as u64);
                    m.set_s_ctl_rate(rate as u64);
                    set_event_pins!(**m, pins);
                    let (aq, ack) = pins.ack.unwrap_or_default();
                    let hop = |i: usize| -> u64 {
                        let b: Bits<{ <IntHop as Synth>::BITS }> = int_hop(&ack.hops[i]).into();
                        b.to_u64()
                    };
                    m.set_s_ack_valid(pins.ack.is_some() as u64);
                    m.set_s_ack_qpn(aq as u64);
                    m.set_s_ack_seq(ack.seq as u64);
                    m.set_s_ack_snd_nxt(ack.snd_nxt as u64);
                    m.set_s_ack_nhop(ack.nhop as u64);
                    m.set_s_ack_hop_0(hop(0));
                    m.set_s_ack_hop_1(hop(1));
                    m.set_s_ack_hop_2(hop(2));
                    m.set_s_ack_hop_3(hop(3));
                    m.set_s_ack_hop_4(hop(4));
                    m.set_now(now);
                    m.set_now_cnp(now_cnp);
                    m.set_tbl_we(pins.tbl.is_some() as u64);
                    m.set_tbl_addr(pins.tbl.map_or(0, |t| t.0) as u64);
                    m.set_tbl_data(pins.tbl.map_or(0, |t| t.1) as u64);
                    m.eval();
                })* }
            }

            fn outs(&self) -> CoreOuts {
                match self { $($enum::$ty(m) => {
                    let (rate, cnp) = rate_and_cnp!(**m, m.m_rate_ctl() != 0);
                    CoreOuts {
                        ctl_ready: m.s_ctl_ready() != 0,
                        cnp_ready: m.s_cnp_ready() != 0,
                        tx_ready: m.s_tx_ready() != 0,
                        query_ready: m.s_query_ready() != 0,
                        rx_ready: m.s_rx_ready() != 0,
                        ack_ready: m.s_ack_ready() != 0,
                        busy: m.busy() != 0,
                        rate,
                        cnp,
                        bad_qp: BadQpCounts {
                            cnp: m.cnt_bad_qp_cnp(),
                            tx: m.cnt_bad_qp_tx(),
                            query: m.cnt_bad_qp_query(),
                            rx: m.cnt_bad_qp_rx(),
                            ack: m.cnt_bad_ack(),
                        },
                        np: NpCounts {
                            sent: m.cnt_cnp_sent(),
                            suppressed: m.cnt_cnp_suppressed(),
                            stall: m.cnt_cnp_stall(),
                        },
                        cnp_received: m.cnt_cnp_received(),
                        rate_cuts: m.cnt_rate_cuts(),
                        increase: IncCounts {
                            fr: m.cnt_increase_fr(),
                            ai: m.cnt_increase_ai(),
                            hai: m.cnt_increase_hai(),
                        },
                        acks: AckCounts {
                            ignored: m.cnt_ack_ignored(),
                            applied: m.cnt_ack_applied() as u32,
                            commits: m.cnt_ack_commits() as u32,
                        },
                    }
                })* }
            }

            fn set_cfg(&mut self, rp_cfg: &[u32; crate::cfg_compiler::RP_CFG_WORDS], np_cfg: u64) {
                match self { $($enum::$ty(m) => { m.set_rp_cfg(rp_cfg); m.set_np_cfg(np_cfg); })* }
            }

            fn set_hpcc_cfg(&mut self, w: &HpccCfgWord, k: &CodeConsts) {
                let w: Bits<{ <HpccCfgWord as Synth>::BITS }> = (*w).into();
                let k: Bits<{ <CodeConsts as Synth>::BITS }> = (*k).into();
                match self { $($enum::$ty(m) => {
                    m.set_hpcc_cfg(&words_of(w));
                    m.set_hpcc_k(&words_of(k));
                })* }
            }
        }

        sized_model_common!($enum; $($ty),*);
    };
}

core_model!(
    CoreModel;
    roce_cc_core_q16::VRoceCcCoreQ16,
    roce_cc_core_q1024::VRoceCcCoreQ1024,
    roce_cc_core_q16384::VRoceCcCoreQ16384
);

/// The Verilated core top with the core harness's pins ([`CorePins`]).
///
/// Each cycle: `eval` lowers the clock, sets the pins and evaluates once; `clock` raises
/// the clock and evaluates. With a VCD open, every half cycle is dumped (time unit: half
/// cycles).
pub struct VerilatedCore {
    model: CoreModel,
    vcd: Vcd,
}

impl VerilatedCore {
    /// The Verilated core for `p`, built for exactly `p.qps` QPs; `None` if no model of
    /// that size is built (16, 1024 and 16384 are) or `p` is refused.
    pub fn exact(p: &Params) -> Option<Self> {
        let model = match p.qps {
            16 => CoreModel::VRoceCcCoreQ16(Box::default()),
            1024 => CoreModel::VRoceCcCoreQ1024(Box::default()),
            16384 => CoreModel::VRoceCcCoreQ16384(Box::default()),
            _ => return None,
        };
        Self::with_model(model, p).ok()
    }

    /// The smallest Verilated core with at least `p.qps` QPs. A larger design behaves
    /// exactly like one of `p.qps` QPs on events for QPs below `p.qps` (the only ones a
    /// valid trace has), except that its reset sweep takes more cycles and it would take
    /// QP numbers up to its own size.
    pub fn at_least(p: &Params) -> Result<Self, String> {
        let model = if p.qps <= 16 {
            CoreModel::VRoceCcCoreQ16(Box::default())
        } else if p.qps <= 1024 {
            CoreModel::VRoceCcCoreQ1024(Box::default())
        } else {
            CoreModel::VRoceCcCoreQ16384(Box::default())
        };
        Self::with_model(model, p)
    }

    fn with_model(mut model: CoreModel, p: &Params) -> Result<Self, String> {
        let rp_cfg: Bits<{ <RpCfgWord as Synth>::BITS }> = cfg_word(&RpConfig::new(p)).into();
        let np_cfg: Bits<{ <NpCfgWord as Synth>::BITS }> =
            np_cfg_word(&NpConfig::new(p).map_err(|e| e.to_string())?).into();
        model.set_cfg(&words_of(rp_cfg), np_cfg.to_u64());
        let (w, k) = hpcc_cfg_words(&HpccConfig::new(&HpccParams::from_params(p)));
        model.set_hpcc_cfg(&w, &k);
        model.set_clock(false);
        Ok(Self {
            model,
            vcd: Vcd::default(),
        })
    }
}

timed_cycle_dut!(VerilatedCore: CorePins, CoreOuts);

core_model!(
    PacedModel;
    paced_core_q64::VPacedCoreQ64,
    paced_core_q1024::VPacedCoreQ1024
);

/// The same method on each size of the Verilated paced core.
macro_rules! paced_model_each {
    ($self:expr, $m:ident => $body:expr) => {
        match $self {
            PacedModel::VPacedCoreQ64($m) => $body,
            PacedModel::VPacedCoreQ1024($m) => $body,
        }
    };
}

impl PacedModel {
    /// The pacer's static parameters: largest packet and clock constants.
    fn set_pacer_cfg(&mut self, mtu: u32, km: u32, ke: u32) {
        paced_model_each!(self, m => {
            m.set_pacer_mtu(mtu as u64);
            m.set_pacer_km(km as u64);
            m.set_pacer_ke(ke as u64);
        })
    }

    /// The pins the core's do not cover (before `eval_pins`, which evaluates).
    fn set_pacer_pins(&mut self, pins: &PacedPins) {
        paced_model_each!(self, m => {
            m.set_now_cycles(pins.now_cycles);
            m.set_s_post_valid(pins.post.is_some() as u64);
            m.set_s_post_qpn(pins.post.map_or(0, |p| p.0 as u64));
            m.set_s_post_bytes(pins.post.map_or(0, |p| p.1 as u64));
            m.set_m_tx_ready(pins.tx_ready as u64);
        })
    }

    /// The outputs the core's do not cover.
    fn pacer_outs(&self, core: CoreOuts) -> PacedOuts {
        paced_model_each!(self, m => PacedOuts {
            core,
            post_ready: m.s_post_ready() != 0,
            grant: (m.m_tx_valid() != 0).then(|| (m.m_tx_qp() as u32, m.m_tx_bytes() as u32)),
            backlogged: m.backlogged() as u32,
            sleep: crate::pacer::sched::PacerSleep {
                asleep: m.asleep() != 0,
                wake_en: m.wake_en() != 0,
                wake_at: m.wake_at(),
            },
            counts: PacedCounts {
                bad_post: m.cnt_bad_qp_post(),
                grants: m.cnt_grants(),
                grant_bytes: m.cnt_grant_bytes(),
                port_idle: m.cnt_port_idle(),
            },
        })
    }
}

/// The Verilated core with the pacer inside (`PacedCore`), with the paced harness's pins
/// ([`PacedPins`]); driven like [`VerilatedCore`].
pub struct VerilatedPaced {
    model: PacedModel,
    vcd: Vcd,
}

impl VerilatedPaced {
    /// The Verilated paced core for `p`, built for exactly `p.qps` QPs; `None` if no model
    /// of that size is built (64 and 1024 are) or `p` is refused.
    pub fn exact(p: &Params) -> Option<Self> {
        let mut model = match p.qps {
            64 => PacedModel::VPacedCoreQ64(Box::default()),
            1024 => PacedModel::VPacedCoreQ1024(Box::default()),
            _ => return None,
        };
        let rp_cfg: Bits<{ <RpCfgWord as Synth>::BITS }> = cfg_word(&RpConfig::new(p)).into();
        let np_cfg: Bits<{ <NpCfgWord as Synth>::BITS }> =
            np_cfg_word(&NpConfig::new(p).ok()?).into();
        model.set_cfg(&words_of(rp_cfg), np_cfg.to_u64());
        let (w, k) = hpcc_cfg_words(&HpccConfig::new(&HpccParams::from_params(p)));
        model.set_hpcc_cfg(&w, &k);
        let (km, ke) = roce_cc_hdl::pacer::cpb::clock_consts(p.clock_mhz);
        model.set_pacer_cfg(p.mtu_bytes, km, ke);
        model.set_clock(false);
        Some(Self {
            model,
            vcd: Vcd::default(),
        })
    }
}

impl CycleDut<PacedPins, PacedOuts> for VerilatedPaced {
    fn eval(&mut self, pins: &PacedPins) -> PacedOuts {
        let cnp: Bits<{ <CnpTimeWord as Synth>::BITS }> = cnp_time_word(&pins.core.now).into();
        self.model.set_pacer_pins(pins);
        self.model
            .eval_pins(&pins.core, &time_words(&pins.core.now), cnp.to_u64());
        self.dump();
        let core = self.model.outs();
        self.model.pacer_outs(core)
    }

    fn clock(&mut self) {
        self.model.set_clock(true);
        self.dump();
    }
}

#[cfg(post_synth)]
core_model!(
    NetlistModel;
    roce_cc_core_q1024_netlist::VRoceCcCoreQ1024Netlist
);

/// The 1024-QP core top after synthesis (yosys `synth_ecp5`, the ECP5 cells simulated by
/// yosys's models and ours) with the core harness's pins, driven exactly like
/// [`VerilatedCore`]: the bodies only synthesis reads (`DspMul`'s `MULT18X18D`) and the
/// block RAM yosys infers for the `no_rw_check` state RAM are what it adds. Built only with
/// `ROCE_CC_POST_SYNTH` set (`build.rs`, cfg `post_synth`). Its [`Waveform`] files hold no
/// signals: the netlist is Verilated without tracing (`roce-cc-bridge-gen`'s `post_synth`).
#[cfg(post_synth)]
pub struct VerilatedCoreNetlist {
    model: NetlistModel,
    vcd: Vcd,
}

#[cfg(post_synth)]
impl VerilatedCoreNetlist {
    /// The QP count the netlist is synthesised for.
    pub const QPS: u32 = 1024;

    /// The netlist for `p`; `Err` unless `p.qps` is [`Self::QPS`] or if `p` is refused.
    pub fn new(p: &Params) -> Result<Self, String> {
        if p.qps != Self::QPS {
            return Err(format!(
                "the netlist is synthesised for {} QPs, not {}",
                Self::QPS,
                p.qps
            ));
        }
        let mut model = NetlistModel::VRoceCcCoreQ1024Netlist(Box::default());
        let rp_cfg: Bits<{ <RpCfgWord as Synth>::BITS }> = cfg_word(&RpConfig::new(p)).into();
        let np_cfg: Bits<{ <NpCfgWord as Synth>::BITS }> =
            np_cfg_word(&NpConfig::new(p).map_err(|e| e.to_string())?).into();
        model.set_cfg(&words_of(rp_cfg), np_cfg.to_u64());
        let (w, k) = hpcc_cfg_words(&HpccConfig::new(&HpccParams::from_params(p)));
        model.set_hpcc_cfg(&w, &k);
        model.set_clock(false);
        Ok(Self {
            model,
            vcd: Vcd::default(),
        })
    }
}

#[cfg(post_synth)]
timed_cycle_dut!(VerilatedCoreNetlist: CorePins, CoreOuts);

#[cfg(post_synth)]
waveform!(VerilatedCoreNetlist.model);

/// The Verilated core top for `params` (the smallest built size with enough QPs), as the
/// `rtl` replay engine drives it; with `vcd`, every signal goes to that file (time unit:
/// half clock cycles), for `roce-cc replay --engine rtl --vcd FILE`.
pub fn core_for(
    params: &Params,
    vcd: Option<&Path>,
) -> Result<Box<dyn CycleDut<CorePins, CoreOuts>>, String> {
    let mut core = VerilatedCore::at_least(params)?;
    if let Some(vcd) = vcd {
        core.open_vcd(vcd)
            .map_err(|e| format!("cannot write the waveform {}: {e}", vcd.display()))?;
    }
    Ok(Box::new(core))
}

/// The Verilated paced core for a trace with `params` (the smallest built size with enough
/// QPs, `replay_paced::paced_qps`), as the `rtl` replay engine drives it; with `vcd`, every
/// signal goes to that file.
pub fn paced_for(
    params: &Params,
    vcd: Option<&Path>,
) -> Result<Box<dyn CycleDut<PacedPins, PacedOuts>>, String> {
    let m = Params {
        qps: crate::replay_paced::paced_qps(params)?,
        ..params.clone()
    };
    let mut core = VerilatedPaced::exact(&m).ok_or("the parameters are refused")?;
    if let Some(vcd) = vcd {
        core.open_vcd(vcd)
            .map_err(|e| format!("cannot write the waveform {}: {e}", vcd.display()))?;
    }
    Ok(Box::new(core))
}

/// The same set of methods on each size of the Verilated top.
macro_rules! top_model {
    ($($module:ident :: $ty:ident),*) => {
        /// One Verilated `roce_cc_top`, whatever its size.
        enum TopModel { $($ty(Box<$module::$ty>)),* }

        impl TopModel {
            fn eval_pins(&mut self, pins: &TopPins, now: &[u32; 5], now_cnp: u64) {
                match self { $(TopModel::$ty(m) => {
                    m.set_clock(0);
                    m.set_reset(pins.reset as u64);
                    m.set_s_axil_awvalid(pins.aw.is_some() as u64);
                    m.set_s_axil_awaddr(pins.aw.unwrap_or(0) as u64);
                    m.set_s_axil_wvalid(pins.w.is_some() as u64);
                    m.set_s_axil_wdata(pins.w.map_or(0, |w| w.0) as u64);
                    m.set_s_axil_wstrb(pins.w.map_or(0, |w| w.1) as u64);
                    m.set_s_axil_bready(pins.bready as u64);
                    m.set_s_axil_arvalid(pins.ar.is_some() as u64);
                    m.set_s_axil_araddr(pins.ar.unwrap_or(0) as u64);
                    m.set_s_axil_rready(pins.rready as u64);
                    set_event_pins!(**m, pins);
                    m.set_now(now);
                    m.set_now_cnp(now_cnp);
                    m.eval();
                })* }
            }

            fn outs(&self) -> TopOuts {
                match self { $(TopModel::$ty(m) => {
                    let (rate, cnp) = rate_and_cnp!(**m, false);
                    TopOuts {
                        awready: m.s_axil_awready() != 0,
                        wready: m.s_axil_wready() != 0,
                        arready: m.s_axil_arready() != 0,
                        b: (m.s_axil_bvalid() != 0).then(|| m.s_axil_bresp() as u32),
                        r: (m.s_axil_rvalid() != 0)
                            .then(|| (m.s_axil_rdata() as u32, m.s_axil_rresp() as u32)),
                        cnp_ready: m.s_cnp_ready() != 0,
                        tx_ready: m.s_tx_ready() != 0,
                        query_ready: m.s_query_ready() != 0,
                        rx_ready: m.s_rx_ready() != 0,
                        rate,
                        cnp,
                        tb_restart: m.tb_restart() != 0,
                        periods: [
                            m.tb_p_alpha() as u32,
                            m.tb_p_dec() as u32,
                            m.tb_p_inc() as u32,
                            m.tb_p_cnp() as u32,
                        ],
                        busy: m.busy() != 0,
                    }
                })* }
            }
        }

        sized_model_common!(TopModel; $($ty),*);
    };
}

top_model!(
    roce_cc_top_q16::VRoceCcTopQ16,
    roce_cc_top_q1024::VRoceCcTopQ1024
);

/// The QP counts `roce_cc_top` is Verilated for (each built with the default clock).
pub const TOP_QPS: [u32; 2] = [16, 1024];

/// The Verilated `roce_cc_top` with the pins of [`crate::top_harness`].
pub struct VerilatedTop {
    model: TopModel,
    vcd: Vcd,
}

impl VerilatedTop {
    /// The top built for `qps` QPs, if that size is Verilated ([`TOP_QPS`]).
    pub fn new(qps: u32) -> Option<Self> {
        let model = match qps {
            16 => TopModel::VRoceCcTopQ16(Box::default()),
            1024 => TopModel::VRoceCcTopQ1024(Box::default()),
            _ => return None,
        };
        let mut t = Self {
            model,
            vcd: Vcd::default(),
        };
        t.model.set_clock(false);
        Some(t)
    }
}

timed_cycle_dut!(VerilatedTop: TopPins, TopOuts);

waveform!(
    VerilatedRp.model,
    VerilatedNp.m,
    VerilatedHpcc.m,
    VerilatedCore.model,
    VerilatedPaced.model,
    VerilatedAxil.m,
    VerilatedUartBridge.m,
    VerilatedTop.model
);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rp_harness::time_word;
    use crate::timebase::Radix;

    /// The direct packing equals rust-hdl's own packing of the `TimeWord` struct.
    #[test]
    fn time_words_match_the_logic_struct_layout() {
        let mut x = 0x1234_5678_9abc_def1u64;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for _ in 0..2000 {
            let mut radix = || Radix {
                epoch: next() as u32,
                rem: next() as u32 & 0x1_ffff,
            };
            let now = TimeStamp {
                sub: 0,
                alpha: radix(),
                dec: radix(),
                inc: radix(),
                cnp: Radix::default(),
            };
            let now = TimeStamp {
                sub: (now.alpha.epoch >> 7) & 0x3ff,
                ..now
            };
            let bits: Bits<{ <TimeWord as Synth>::BITS }> = time_word(&now).into();
            assert_eq!(time_words(&now), words_of::<_, 5>(bits), "{now:?}");
        }
    }
}
