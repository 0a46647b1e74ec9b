//! The hardware time base's harness (`roce_cc_hdl::timebase`): a golden model that counts
//! cycles since the last restart and answers with `Timebase::at_cycle` ([`GoldenTimebase`]),
//! and rust-hdl's simulation ([`HdlTimebase`]); the Verilated one is
//! `verilated::VerilatedTimebase`. Outputs are compared as the ports' bits.

use crate::core_harness::cnp_time_word;
use crate::hdl_sim::{settle, tick};
use crate::lockstep::CycleDut;
use crate::timebase::Timebase;
use crate::verilated::{time_words, words_of};
use roce_cc_hdl::core_top::CnpTimeWord;
use roce_cc_hdl::dcqcn_rp::state::TimeWord;
use roce_cc_hdl::timebase::Timebase as HdlTimebaseTop;
use roce_cc_params::Params;
use rust_hdl::prelude::*;

/// The time base's pins for one cycle.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TbPins {
    pub reset: bool,
    pub restart: bool,
    /// Clock and periods (only `clock_mhz`, the three RP periods and
    /// `min_time_between_cnps` are used).
    pub params: Params,
}

/// The time base's outputs: `now` as its 157-bit port's words, `now_cnp` as a number.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TbOuts {
    pub now: [u32; 5],
    pub now_cnp: u64,
}

fn outs_of(tb: &Timebase, cycle: u64) -> TbOuts {
    let now = tb.at_cycle(cycle);
    let cnp: Bits<{ <CnpTimeWord as Synth>::BITS }> = cnp_time_word(&now).into();
    TbOuts {
        now: time_words(&now),
        now_cnp: cnp.to_u64(),
    }
}

/// The golden time base: `Timebase::at_cycle` of the cycles since the last restart, under
/// the periods given with that restart (they may change only with a restart). The hardware
/// registers the restart (or reset) first and its outputs after the counters, so cycle 0
/// is the third cycle after it: in the two cycles after the restart's own, the outputs
/// still count under the old periods.
pub struct GoldenTimebase {
    cycle: u64,
    /// The outputs' register: the counters' value at the last edge (zero at power-up).
    out: TbOuts,
    tb: Timebase,
    pins: TbPins,
    /// A restart (or reset) seen at the last edge, with its periods: it takes effect at
    /// the next edge.
    pending: Option<Params>,
}

impl Default for GoldenTimebase {
    fn default() -> Self {
        Self {
            cycle: 0,
            out: TbOuts::default(),
            tb: Timebase::new(&Params::default()),
            pins: TbPins::default(),
            pending: None,
        }
    }
}

impl CycleDut<TbPins, TbOuts> for GoldenTimebase {
    fn eval(&mut self, pins: &TbPins) -> TbOuts {
        self.pins = pins.clone();
        self.out
    }

    fn clock(&mut self) {
        self.out = outs_of(&self.tb, self.cycle);
        let due = self.pending.take();
        if self.pins.reset || self.pins.restart {
            self.pending = Some(self.pins.params.clone());
        }
        match due {
            Some(params) => {
                self.cycle = 0;
                self.tb = Timebase::new(&params);
            }
            None => self.cycle += 1,
        }
    }
}

/// rust-hdl's own simulation of the time base.
pub struct HdlTimebase {
    uut: Box<HdlTimebaseTop>,
}

impl Default for HdlTimebase {
    fn default() -> Self {
        let mut uut = Box::<HdlTimebaseTop>::default();
        uut.connect_all();
        settle(uut.as_mut());
        Self { uut }
    }
}

fn b<const N: usize>(x: u32) -> Bits<N> {
    (x as u64).into()
}

impl CycleDut<TbPins, TbOuts> for HdlTimebase {
    fn eval(&mut self, pins: &TbPins) -> TbOuts {
        let u = self.uut.as_mut();
        let p = &pins.params;
        u.reset.next = pins.reset;
        u.restart.next = pins.restart;
        u.clock_mhz.next = b(p.clock_mhz);
        u.p_alpha.next = b(p.dce_tcp_rtt);
        u.p_dec.next = b(p.rate_reduce_monitor_period);
        u.p_inc.next = b(p.rpg_time_reset);
        u.p_cnp.next = b(p.min_time_between_cnps.max(1));
        settle(u);
        let now: Bits<{ <TimeWord as Synth>::BITS }> = u.now.val().into();
        let cnp: Bits<{ <CnpTimeWord as Synth>::BITS }> = u.now_cnp.val().into();
        TbOuts {
            now: words_of(now),
            now_cnp: cnp.to_u64(),
        }
    }

    fn clock(&mut self) {
        tick(self.uut.as_mut(), |u| &mut u.clock);
    }
}
