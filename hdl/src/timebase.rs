//! `timebase`: the core's time base in hardware. It counts clock cycles and gives "now" in
//! the form the units compare in: the cycle within the microsecond, and the microsecond
//! count in the radix of each timer period (`us = epoch * period + rem`; see
//! `sim::timebase`, whose `Timebase::at_cycle` is the golden model).
//!
//! ```text
//!  clock ─► sub (0..clock_mhz-1) ─► us tick ─┬─► alpha radix (e, r mod dce_tcp_rtt)          ─┐
//!                                            ├─► decrease radix (mod rate_reduce_monitor_period)├─► now
//!                                            ├─► increase radix (mod rpg_time_reset)           ─┘
//!                                            └─► CNP radix (mod max(1, min_time_between_cnps)) ──► now_cnp
//! ```
//!
//! `now` in cycle `k` after the last `restart` (or reset) equals `Timebase::at_cycle(k)`
//! for the same clock and periods. Every counter restarts at zero with `restart`; the
//! periods and `clock_mhz` may change only together with a restart (the units' state then
//! restarts too: the register block applies parameters by resetting every QP). Epochs wrap
//! modulo 2^32 like the golden model's.
//!
//! In simulation the harnesses compute `now` directly, so that idle gaps of seconds cost
//! one cycle; this block is for a design that runs in real time (the board top).

use crate::core_top::CnpTimeWord;
use crate::dcqcn_rp::state::TimeWord;
use crate::dcqcn_rp::widths::{EPOCH_W, REM_W, SUB_W};
use rust_hdl::prelude::*;

/// The time base.
#[derive(LogicBlock)]
pub struct Timebase {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset, active high: every counter to zero (like `restart`).
    pub reset: Signal<In, Bit>,
    /// Restart every counter at zero (time 0 is the next cycle).
    pub restart: Signal<In, Bit>,
    /// Clock cycles per microsecond (1..=1000).
    pub clock_mhz: Signal<In, Bits<SUB_W>>,
    /// `dce_tcp_rtt`, us (1..=131071).
    pub p_alpha: Signal<In, Bits<REM_W>>,
    /// `rate_reduce_monitor_period`, us.
    pub p_dec: Signal<In, Bits<REM_W>>,
    /// `rpg_time_reset`, us.
    pub p_inc: Signal<In, Bits<REM_W>>,
    /// `max(1, min_time_between_cnps)`, us.
    pub p_cnp: Signal<In, Bits<REM_W>>,
    /// Now, for the reaction point (and the cycle within the microsecond for both units).
    pub now: Signal<Out, TimeWord>,
    /// Now in the CNP radix, for the notification point.
    pub now_cnp: Signal<Out, CnpTimeWord>,

    sub: DFF<Bits<SUB_W>>,
    a_e: DFF<Bits<EPOCH_W>>,
    a_r: DFF<Bits<REM_W>>,
    d_e: DFF<Bits<EPOCH_W>>,
    d_r: DFF<Bits<REM_W>>,
    i_e: DFF<Bits<EPOCH_W>>,
    i_r: DFF<Bits<REM_W>>,
    c_e: DFF<Bits<EPOCH_W>>,
    c_r: DFF<Bits<REM_W>>,
    one_sub: Constant<Bits<SUB_W>>,
    one_rem: Constant<Bits<REM_W>>,
    one_epoch: Constant<Bits<EPOCH_W>>,
    us_tick: Signal<Local, Bit>,
}

impl Default for Timebase {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            restart: Default::default(),
            clock_mhz: Default::default(),
            p_alpha: Default::default(),
            p_dec: Default::default(),
            p_inc: Default::default(),
            p_cnp: Default::default(),
            now: Default::default(),
            now_cnp: Default::default(),
            sub: Default::default(),
            a_e: Default::default(),
            a_r: Default::default(),
            d_e: Default::default(),
            d_r: Default::default(),
            i_e: Default::default(),
            i_r: Default::default(),
            c_e: Default::default(),
            c_r: Default::default(),
            one_sub: Constant::new(1.into()),
            one_rem: Constant::new(1.into()),
            one_epoch: Constant::new(1.into()),
            us_tick: Default::default(),
        }
    }
}

impl Logic for Timebase {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, sub, a_e, a_r, d_e, d_r, i_e, i_r, c_e, c_r);
        // ---- cycle within the microsecond ----
        self.us_tick.next = (self.sub.q.val() + self.one_sub.val()) == self.clock_mhz.val();
        self.sub.d.next = self.sub.q.val() + self.one_sub.val();
        if self.us_tick.val() {
            self.sub.d.next = 0.into();
        }
        // ---- one radix per period: rem counts microseconds, epoch counts periods ----
        if self.us_tick.val() {
            self.a_r.d.next = self.a_r.q.val() + self.one_rem.val();
            if (self.a_r.q.val() + self.one_rem.val()) == self.p_alpha.val() {
                self.a_r.d.next = 0.into();
                self.a_e.d.next = self.a_e.q.val() + self.one_epoch.val();
            }
            self.d_r.d.next = self.d_r.q.val() + self.one_rem.val();
            if (self.d_r.q.val() + self.one_rem.val()) == self.p_dec.val() {
                self.d_r.d.next = 0.into();
                self.d_e.d.next = self.d_e.q.val() + self.one_epoch.val();
            }
            self.i_r.d.next = self.i_r.q.val() + self.one_rem.val();
            if (self.i_r.q.val() + self.one_rem.val()) == self.p_inc.val() {
                self.i_r.d.next = 0.into();
                self.i_e.d.next = self.i_e.q.val() + self.one_epoch.val();
            }
            self.c_r.d.next = self.c_r.q.val() + self.one_rem.val();
            if (self.c_r.q.val() + self.one_rem.val()) == self.p_cnp.val() {
                self.c_r.d.next = 0.into();
                self.c_e.d.next = self.c_e.q.val() + self.one_epoch.val();
            }
        }
        if self.reset.val() | self.restart.val() {
            self.sub.d.next = 0.into();
            self.a_e.d.next = 0.into();
            self.a_r.d.next = 0.into();
            self.d_e.d.next = 0.into();
            self.d_r.d.next = 0.into();
            self.i_e.d.next = 0.into();
            self.i_r.d.next = 0.into();
            self.c_e.d.next = 0.into();
            self.c_r.d.next = 0.into();
        }
        self.now.next.sub = self.sub.q.val();
        self.now.next.a_e = self.a_e.q.val();
        self.now.next.a_r = self.a_r.q.val();
        self.now.next.d_e = self.d_e.q.val();
        self.now.next.d_r = self.d_r.q.val();
        self.now.next.i_e = self.i_e.q.val();
        self.now.next.i_r = self.i_r.q.val();
        self.now_cnp.next.e = self.c_e.q.val();
        self.now_cnp.next.r = self.c_r.q.val();
    }
}
