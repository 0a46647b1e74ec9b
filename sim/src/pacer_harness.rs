//! The pacer top's pins, one trait for its golden model and its Verilated models
//! (`PacerPins`), so that a bench, a replay or a test drives any of them the same way:
//! [`PacerPins::eval`] presents a cycle's inputs and returns its outputs, then
//! [`PacerPins::clock`] is the edge.

use crate::pacer::sched::{PacerCycle, PacerIn, PacerOut, PacerSleep};
use crate::verilated::pacer::VPacer;
use crate::verilated::pacer_q6::VPacerQ6;
use crate::verilated::pacer_q12::VPacerQ12;
use roce_cc_hdl::pacer::cpb::clock_consts;

/// A Verilated model's waveform.
pub trait PacerVcd {
    /// Dumps the signals at time `t` (half cycles), opening `path` first when `open`.
    fn vcd(&mut self, path: &std::path::Path, t: u64, open: bool);
    /// Closes the waveform.
    fn close_vcd(&mut self);
}

/// A pacer driven a cycle at a time.
pub trait PacerPins {
    /// The outputs in a cycle with inputs `i`.
    fn eval(&mut self, i: &PacerIn) -> PacerOut;
    /// The edge at the end of the cycle last evaluated.
    fn clock(&mut self);
}

/// The golden model with its cycle's inputs.
pub struct GoldenPacer {
    pub model: PacerCycle,
    last: PacerIn,
}

impl GoldenPacer {
    /// `qps` QPs at `clock_mhz` with packets of at most `mtu_bytes`.
    pub fn new(qps: u32, clock_mhz: u32, mtu_bytes: u32) -> Self {
        Self {
            model: PacerCycle::new(qps, clock_mhz, mtu_bytes, 0),
            last: PacerIn::default(),
        }
    }
}

impl PacerPins for GoldenPacer {
    fn eval(&mut self, i: &PacerIn) -> PacerOut {
        self.last = *i;
        self.model.out(i)
    }
    fn clock(&mut self) {
        self.model.clock(&self.last);
    }
}

/// A Verilated pacer with its static inputs.
pub struct RtlPacer<V> {
    v: V,
    mtu: u32,
    km: u32,
    ke: u32,
}

macro_rules! rtl_pacer {
    ($t:ty, $qps:expr) => {
        impl RtlPacer<$t> {
            /// QPs of this model.
            pub const QPS: u32 = $qps;
            /// The model at `clock_mhz` with packets of at most `mtu_bytes`.
            pub fn new(clock_mhz: u32, mtu_bytes: u32) -> Self {
                let (km, ke) = clock_consts(clock_mhz);
                Self {
                    v: <$t>::new(),
                    mtu: mtu_bytes,
                    km,
                    ke,
                }
            }
        }
        impl PacerPins for RtlPacer<$t> {
            fn eval(&mut self, i: &PacerIn) -> PacerOut {
                let v = &mut self.v;
                v.set_reset(i.reset as u64);
                v.set_now(i.now);
                v.set_mtu_bytes(self.mtu as u64);
                v.set_km(self.km as u64);
                v.set_ke(self.ke as u64);
                v.set_s_post_valid(i.post.is_some() as u64);
                v.set_s_post_qp(i.post.map_or(0, |p| p.0 as u64));
                v.set_s_post_bytes(i.post.map_or(0, |p| p.1 as u64));
                v.set_s_rate_valid(i.rate.is_some() as u64);
                v.set_s_rate_qp(i.rate.map_or(0, |r| r.qp as u64));
                v.set_s_rate_rate(i.rate.map_or(0, |r| r.rate_q8));
                v.set_s_rate_win_en(i.rate.map_or(0, |r| r.window.is_some() as u64));
                v.set_s_rate_window(i.rate.and_then(|r| r.window).unwrap_or(0) as u64);
                v.set_s_ack_valid(i.ack.is_some() as u64);
                v.set_s_ack_qp(i.ack.map_or(0, |a| a.0 as u64));
                v.set_s_ack_seq(i.ack.map_or(0, |a| a.1 as u64));
                v.set_m_grant_ready(i.grant_ready as u64);
                v.set_clock(0);
                v.eval();
                PacerOut {
                    post_ready: v.s_post_ready() != 0,
                    rate_ready: v.s_rate_ready() != 0,
                    ack_ready: v.s_ack_ready() != 0,
                    grant: (v.m_grant_valid() != 0)
                        .then(|| (v.m_grant_qp() as u32, v.m_grant_bytes() as u32)),
                    busy: v.busy() != 0,
                    backlogged: v.backlogged() as u32,
                    sleep: PacerSleep {
                        asleep: v.asleep() != 0,
                        wake_en: v.wake_en() != 0,
                        wake_at: v.wake_at(),
                    },
                }
            }
            fn clock(&mut self) {
                self.v.set_clock(1);
                self.v.eval();
            }
        }
        impl PacerVcd for RtlPacer<$t> {
            fn vcd(&mut self, path: &std::path::Path, t: u64, open: bool) {
                if open {
                    self.v.open_vcd(path).expect("open the VCD");
                }
                self.v.dump_vcd(t);
            }
            fn close_vcd(&mut self) {
                self.v.close_vcd();
            }
        }
    };
}
rtl_pacer!(VPacerQ6, 64);
rtl_pacer!(VPacer, 1024);
rtl_pacer!(VPacerQ12, 4096);

/// A pacer of `qps` QPs: the Verilated model of that size (`rtl`) or the golden model.
pub fn build_pacer(
    qps: u32,
    rtl: bool,
    clock_mhz: u32,
    mtu_bytes: u32,
) -> Result<Box<dyn PacerPins>, String> {
    if !rtl {
        return Ok(Box::new(GoldenPacer::new(qps, clock_mhz, mtu_bytes)));
    }
    Ok(match qps {
        64 => Box::new(RtlPacer::<VPacerQ6>::new(clock_mhz, mtu_bytes)),
        1024 => Box::new(RtlPacer::<VPacer>::new(clock_mhz, mtu_bytes)),
        4096 => Box::new(RtlPacer::<VPacerQ12>::new(clock_mhz, mtu_bytes)),
        n => return Err(format!("no Verilated pacer with {n} QPs: 64, 1024 or 4096")),
    })
}
