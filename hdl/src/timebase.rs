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
//! `restart` (or `reset`) is registered first (`again`): the counters are zero two cycles
//! after it, and the outputs are the counters registered once more (`now_q`, see Timing),
//! so `now` in cycle `k` (`k = 0` three cycles after the restart's cycle) equals
//! `Timebase::at_cycle(k)` for the same clock and periods; in the two cycles after the
//! restart the outputs still count under the old values. Every counter restarts at zero
//! with `restart`; the
//! periods and `clock_mhz` may change only together with a restart (the units' state then
//! restarts too: the register block applies parameters by resetting every QP). Epochs wrap
//! modulo 2^32 like the golden model's.
//!
//! In simulation the harnesses compute `now` directly, so that idle gaps of seconds cost
//! one cycle; this block is for a design that runs in real time (the board top).
//!
//! Timing: the outputs come from registers of their own (`now_q`, `now_cnp_q`), so that
//! the counters, the tick and the flags can sit together while the copies sit towards the
//! units. The microsecond tick and each radix's wrap are registers (`tick`, `*_wrap`),
//! computed a cycle ahead, so the enables and resets of the counters (which drive `now` into
//! both units) start at flip-flops (a compare driving the enables of `now` or a radix's
//! reset directly misses 10 ns by about 3 ns in the board design). No flag has an adder in
//! front of it (computed from the counters' next values, `(r_next + 1) == period`, an adder
//! and a compare behind the counter's own mux, it does not fit 10 ns either):
//!
//! - a counter that does not move keeps its flag (`wrap` changes only with a tick);
//! - a counter that steps from `r` to `r + 1` wraps next when `r == period - 2`, an equality
//!   against a register that holds `period - 2` (`*_pm2`, `clock_pm2`);
//! - a counter that restarts at 0 (restart, reset or its own wrap) wraps next when
//!   `period == 1`, a register too (`*_is1`, `clock_is1`).
//!
//! The periods and `clock_mhz` reach the flags only through those registers, which `again`
//! reads a cycle after the restart, so they must be steady from the restart's cycle on (the
//! register block changes them at an apply, cycles before its restart). Without `again`
//! the restart's path does not fit 10 ns in the board design: with `period == 1` compared
//! in the restart's cycle (the restart's route from the register block, its fan-out, then
//! a 17-bit compare), or with the compares registered (the OR of `reset` and `restart` into
//! 196 loads: about 3.6 ns of route to the OR, 4.7 ns out of it). `again` makes both a
//! register's fan-out. The board's register block
//! restarts the time base at the start of the core's RAM sweep (2^QB cycles without
//! events), so the extra cycle changes no event's time.

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
    /// Restart every counter at zero (time 0 is the third cycle after this one: the
    /// restart is registered first, and the outputs after the counters).
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
    /// This cycle ends a microsecond: `sub == clock_mhz - 1`. It moves `sub` and the
    /// alpha radix.
    tick: DFF<Bit>,
    /// Copies of `tick` for the decrease, increase and CNP radices, so that no flip-flop
    /// enables all 196 counter bits (one register's route to them all takes several
    /// nanoseconds of the cycle). Each is `tick` or'ed with a reset input (`tk_d`: `reset`;
    /// `tk_i`: `restart`; `tk_c`: both), so that yosys, which merges flip-flops with the
    /// same input, keeps them apart; the OR changes nothing, since in the cycle after a
    /// reset or restart `again` is high and sets every counter and flag it could move.
    tk_d: DFF<Bit>,
    tk_i: DFF<Bit>,
    tk_c: DFF<Bit>,
    /// Each radix's remainder is its period less one (the next tick wraps it).
    a_wrap: DFF<Bit>,
    d_wrap: DFF<Bit>,
    i_wrap: DFF<Bit>,
    c_wrap: DFF<Bit>,
    /// `clock_mhz - 2`, for the tick's compare.
    clock_pm2: DFF<Bits<SUB_W>>,
    /// `clock_mhz == 1`: the tick after a restart or a tick.
    clock_is1: DFF<Bit>,
    /// Each period is 1: the wrap after a restart or a wrap.
    a_is1: DFF<Bit>,
    d_is1: DFF<Bit>,
    i_is1: DFF<Bit>,
    c_is1: DFF<Bit>,
    /// Each period less two, for the wrap compares.
    a_pm2: DFF<Bits<REM_W>>,
    d_pm2: DFF<Bits<REM_W>>,
    i_pm2: DFF<Bits<REM_W>>,
    c_pm2: DFF<Bits<REM_W>>,
    one_sub: Constant<Bits<SUB_W>>,
    two_sub: Constant<Bits<SUB_W>>,
    one_rem: Constant<Bits<REM_W>>,
    two_rem: Constant<Bits<REM_W>>,
    /// `reset` or `restart` was high last cycle: every counter starts again at 0 next cycle.
    /// A register, because it reaches every counter's reset and every flag (196 loads in
    /// the board build): as the OR of the two inputs it carries the register block's
    /// restart (about 3.6 ns of route) into that fan-out (4.7 ns) and misses 10 ns.
    again: DFF<Bit>,
    one_epoch: Constant<Bits<EPOCH_W>>,
    /// The outputs, registered once more than the counters: `now` reaches both units
    /// across the chip, and straight from the counters it drew them (and the tick
    /// registers, which enable them) apart, so that the tick's route alone took half the
    /// cycle.
    /// With these copies the counters and their flags stay together and the copies sit
    /// towards the units.
    now_q: DFF<TimeWord>,
    now_cnp_q: DFF<CnpTimeWord>,
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
            tick: Default::default(),
            tk_d: Default::default(),
            tk_i: Default::default(),
            tk_c: Default::default(),
            a_wrap: Default::default(),
            d_wrap: Default::default(),
            i_wrap: Default::default(),
            c_wrap: Default::default(),
            clock_pm2: Default::default(),
            clock_is1: Default::default(),
            a_is1: Default::default(),
            d_is1: Default::default(),
            i_is1: Default::default(),
            c_is1: Default::default(),
            a_pm2: Default::default(),
            d_pm2: Default::default(),
            i_pm2: Default::default(),
            c_pm2: Default::default(),
            one_sub: Constant::new(1.into()),
            two_sub: Constant::new(2.into()),
            one_rem: Constant::new(1.into()),
            two_rem: Constant::new(2.into()),
            again: Default::default(),
            one_epoch: Constant::new(1.into()),
            now_q: Default::default(),
            now_cnp_q: Default::default(),
        }
    }
}

impl Logic for Timebase {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, sub, a_e, a_r, d_e, d_r, i_e, i_r, c_e, c_r, tick, tk_d, tk_i, tk_c,
            a_wrap, d_wrap, i_wrap, c_wrap, clock_pm2, a_pm2, d_pm2, i_pm2, c_pm2, clock_is1,
            a_is1, d_is1, i_is1, c_is1, again, now_q, now_cnp_q
        );
        // ---- cycle within the microsecond ----
        self.sub.d.next = self.sub.q.val() + self.one_sub.val();
        if self.tick.q.val() {
            self.sub.d.next = 0.into();
        }
        // ---- one radix per period: rem counts microseconds, epoch counts periods (each
        // register holds its value unless a tick moves it) ----
        if self.tick.q.val() {
            self.a_r.d.next = self.a_r.q.val() + self.one_rem.val();
            if self.a_wrap.q.val() {
                self.a_r.d.next = 0.into();
                self.a_e.d.next = self.a_e.q.val() + self.one_epoch.val();
            }
        }
        if self.tk_d.q.val() {
            self.d_r.d.next = self.d_r.q.val() + self.one_rem.val();
            if self.d_wrap.q.val() {
                self.d_r.d.next = 0.into();
                self.d_e.d.next = self.d_e.q.val() + self.one_epoch.val();
            }
        }
        if self.tk_i.q.val() {
            self.i_r.d.next = self.i_r.q.val() + self.one_rem.val();
            if self.i_wrap.q.val() {
                self.i_r.d.next = 0.into();
                self.i_e.d.next = self.i_e.q.val() + self.one_epoch.val();
            }
        }
        if self.tk_c.q.val() {
            self.c_r.d.next = self.c_r.q.val() + self.one_rem.val();
            if self.c_wrap.q.val() {
                self.c_r.d.next = 0.into();
                self.c_e.d.next = self.c_e.q.val() + self.one_epoch.val();
            }
        }
        if self.again.q.val() {
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
        // ---- the flags for the next cycle (see the module doc: no adder before a flag; a
        // wrap flag holds its value when there is no tick) ----
        self.clock_pm2.d.next = self.clock_mhz.val() - self.two_sub.val();
        self.a_pm2.d.next = self.p_alpha.val() - self.two_rem.val();
        self.d_pm2.d.next = self.p_dec.val() - self.two_rem.val();
        self.i_pm2.d.next = self.p_inc.val() - self.two_rem.val();
        self.c_pm2.d.next = self.p_cnp.val() - self.two_rem.val();
        self.clock_is1.d.next = self.clock_mhz.val() == self.one_sub.val();
        self.a_is1.d.next = self.p_alpha.val() == self.one_rem.val();
        self.d_is1.d.next = self.p_dec.val() == self.one_rem.val();
        self.i_is1.d.next = self.p_inc.val() == self.one_rem.val();
        self.c_is1.d.next = self.p_cnp.val() == self.one_rem.val();
        // Each flag is written once per case: its counter steps (the equality with the
        // `- 2` register), then starts again at 0 (`period == 1`).
        self.again.d.next = self.reset.val() | self.restart.val();
        self.tick.d.next = self.sub.q.val() == self.clock_pm2.q.val();
        if self.again.q.val() | self.tick.q.val() {
            self.tick.d.next = self.clock_is1.q.val();
        }
        self.tk_d.d.next = self.tick.d.val() | self.reset.val();
        self.tk_i.d.next = self.tick.d.val() | self.restart.val();
        self.tk_c.d.next = self.tick.d.val() | self.reset.val() | self.restart.val();
        if self.tick.q.val() {
            self.a_wrap.d.next = self.a_r.q.val() == self.a_pm2.q.val();
        }
        if self.tk_d.q.val() {
            self.d_wrap.d.next = self.d_r.q.val() == self.d_pm2.q.val();
        }
        if self.tk_i.q.val() {
            self.i_wrap.d.next = self.i_r.q.val() == self.i_pm2.q.val();
        }
        if self.tk_c.q.val() {
            self.c_wrap.d.next = self.c_r.q.val() == self.c_pm2.q.val();
        }
        if self.again.q.val() | (self.tick.q.val() & self.a_wrap.q.val()) {
            self.a_wrap.d.next = self.a_is1.q.val();
        }
        if self.again.q.val() | (self.tk_d.q.val() & self.d_wrap.q.val()) {
            self.d_wrap.d.next = self.d_is1.q.val();
        }
        if self.again.q.val() | (self.tk_i.q.val() & self.i_wrap.q.val()) {
            self.i_wrap.d.next = self.i_is1.q.val();
        }
        if self.again.q.val() | (self.tk_c.q.val() & self.c_wrap.q.val()) {
            self.c_wrap.d.next = self.c_is1.q.val();
        }
        self.now_q.d.next.sub = self.sub.q.val();
        self.now_q.d.next.a_e = self.a_e.q.val();
        self.now_q.d.next.a_r = self.a_r.q.val();
        self.now_q.d.next.d_e = self.d_e.q.val();
        self.now_q.d.next.d_r = self.d_r.q.val();
        self.now_q.d.next.i_e = self.i_e.q.val();
        self.now_q.d.next.i_r = self.i_r.q.val();
        self.now_cnp_q.d.next.e = self.c_e.q.val();
        self.now_cnp_q.d.next.r = self.c_r.q.val();
        self.now.next = self.now_q.q.val();
        self.now_cnp.next = self.now_cnp_q.q.val();
    }
}
