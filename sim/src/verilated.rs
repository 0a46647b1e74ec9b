//! The Verilated models of the roce-cc tops, driven from Rust.
//!
//! `build.rs` Verilates each top with `roce-cc-bridge-gen` and generates its bindings; each
//! top gets a module here holding one safe struct (`V` + the CamelCase top name, e.g.
//! [`wide_mul_28x21::VWideMul28x21`]) with `new`, `eval`, a setter per input
//! (`set_<port>`), a getter per port (`<port>()`), `tick` (if the top has a `clock`),
//! and `open_vcd` / `dump_vcd` / `close_vcd`; plus `PORTS`, the port list.
//!
//! On top of the raw bindings, [`VerilatedRp`] gives the reaction point the [`RpDut`]
//! pins of the lock-step harness, so the Verilated RTL is driven exactly like the golden
//! model and rust-hdl's simulation.
//!
//! Adding a top: a `build_top` line in `build.rs` and a `bridge!` line here.

use crate::dcqcn_rp::RpConfig;
use crate::replay::RpReport;
use crate::rp_harness::{RpDut, RpOuts, RpPins, cfg_word};
use crate::timebase::TimeStamp;
use roce_cc_hdl::dcqcn_rp::state::TimeWord;
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
    /// `ZeroExt<17, 18>` (`roce_cc_hdl::ZeroExt17to18`): the zero-extension leaf.
    zero_ext_17to18
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
    /// `DcqcnRp<14>`: the reaction point for 16384 QPs (the largest).
    dcqcn_rp_q16384
);

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
                    cnp_ready: m.s_cnp_ready() != 0,
                    tx_ready: m.s_tx_ready() != 0,
                    query_ready: m.s_query_ready() != 0,
                    busy: m.busy() != 0,
                    report: (m.m_rate_valid() != 0).then(|| {
                        (
                            m.m_rate_qp() as u32,
                            RpReport {
                                limited: m.m_rate_limited() != 0,
                                rc_mbps_q8: m.m_rate_rc() as u32,
                                rt_mbps_q8: m.m_rate_rt() as u32,
                                alpha_q20: m.m_rate_alpha() as u32,
                            },
                        )
                    }),
                },)* }
            }

            fn set_cfg(&mut self, cfg: &[u32; 11]) {
                match self { $(RpModel::$ty(m) => m.set_cfg(cfg),)* }
            }

            fn set_clock(&mut self, level: bool) {
                match self { $(RpModel::$ty(m) => { m.set_clock(level as u64); m.eval(); })* }
            }

            fn open_vcd(&mut self, path: &Path) -> std::io::Result<()> {
                match self { $(RpModel::$ty(m) => m.open_vcd(path),)* }
            }

            fn dump_vcd(&mut self, time: u64) {
                match self { $(RpModel::$ty(m) => m.dump_vcd(time),)* }
            }

            fn close_vcd(&mut self) {
                match self { $(RpModel::$ty(m) => m.close_vcd(),)* }
            }
        }
    };
}

rp_model!(
    dcqcn_rp_q16::VDcqcnRpQ16,
    dcqcn_rp_q1024::VDcqcnRpQ1024,
    dcqcn_rp_q16384::VDcqcnRpQ16384
);

/// The Verilated reaction point with the lock-step harness's pins ([`RpDut`]).
///
/// Each cycle: [`RpDut::eval`] lowers the clock, sets the pins and evaluates once;
/// [`RpDut::clock`] raises the clock and evaluates (two evaluations per cycle). With a VCD open, every half cycle is
/// dumped (time unit: half cycles).
pub struct VerilatedRp {
    model: RpModel,
    half_cycles: u64,
    vcd: bool,
}

impl VerilatedRp {
    /// The Verilated RP for `p`, built for exactly `p.qps` QPs; `None` if no model of that
    /// size is built (16, 1024 and 16384 are).
    pub fn exact(p: &Params) -> Option<Self> {
        let model = match p.qps {
            16 => RpModel::VDcqcnRpQ16(Box::default()),
            1024 => RpModel::VDcqcnRpQ1024(Box::default()),
            16384 => RpModel::VDcqcnRpQ16384(Box::default()),
            _ => return None,
        };
        Some(Self::with_model(model, p))
    }

    /// The smallest Verilated RP with at least `p.qps` QPs. A larger design behaves
    /// exactly like one of `p.qps` QPs on events for QPs below `p.qps` (the only ones a
    /// valid trace has), except that its reset sweep takes more cycles.
    pub fn at_least(p: &Params) -> Self {
        let model = if p.qps <= 16 {
            RpModel::VDcqcnRpQ16(Box::default())
        } else if p.qps <= 1024 {
            RpModel::VDcqcnRpQ1024(Box::default())
        } else {
            RpModel::VDcqcnRpQ16384(Box::default())
        };
        Self::with_model(model, p)
    }

    fn with_model(mut model: RpModel, p: &Params) -> Self {
        let cfg: Bits<{ <roce_cc_hdl::dcqcn_rp::state::RpCfgWord as Synth>::BITS }> =
            cfg_word(&RpConfig::new(p)).into();
        model.set_cfg(&words_of(cfg));
        model.set_clock(false);
        Self {
            model,
            half_cycles: 0,
            vcd: false,
        }
    }

    /// Start writing every signal to a VCD at `path` (from the next cycle on).
    pub fn open_vcd(&mut self, path: &Path) -> std::io::Result<()> {
        self.model.open_vcd(path)?;
        self.vcd = true;
        Ok(())
    }

    /// Flush and close the VCD.
    pub fn close_vcd(&mut self) {
        self.model.close_vcd();
        self.vcd = false;
    }

    fn dump(&mut self) {
        if self.vcd {
            self.model.dump_vcd(self.half_cycles);
        }
        self.half_cycles += 1;
    }
}

impl RpDut for VerilatedRp {
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

/// The Verilated reaction point for `params` (the smallest built size with enough QPs),
/// as the `rtl` replay engine drives it.
pub fn rp_for(params: &Params) -> Result<Box<dyn RpDut>, String> {
    Ok(Box::new(VerilatedRp::at_least(params)))
}

/// [`rp_for`] with every signal of the Verilated run written to the VCD file `vcd`
/// (time unit: half clock cycles), for `roce-cc replay --engine rtl --vcd FILE`.
pub fn rp_for_with_vcd(params: &Params, vcd: &Path) -> Result<Box<dyn RpDut>, String> {
    let mut rp = VerilatedRp::at_least(params);
    rp.open_vcd(vcd)
        .map_err(|e| format!("cannot write the waveform {}: {e}", vcd.display()))?;
    Ok(Box::new(rp))
}

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
