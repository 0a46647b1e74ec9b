//! The core's time base, as the reaction point and the notification point see it.
//!
//! Every RP timer period is a whole number of microseconds, and every timer of one limited
//! episode of a QP is started at the same clock cycle (its first CNP) or at one of its own
//! expiries, so all expiries of a QP fall on the same cycle-within-a-microsecond (`sub`).
//! The time base therefore gives "now" as that sub-microsecond cycle plus, for each of the
//! three RP timers, the microsecond count written in the timer's own radix:
//! `now_us = epoch * period_us + rem`. With that, "how many expiries of this timer have
//! passed" is a subtraction and a compare, with no division in the hardware (see
//! `dcqcn_rp` docs). The notification point's CNP window (`min_time_between_cnps`, whole
//! microseconds too) gets a radix of its own. In the core the radices are counters; in
//! simulation they are computed here from the cycle count.

use roce_cc_params::Params;

/// A microsecond count in the radix of one timer period: `us = epoch * period + rem`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Radix {
    /// Whole periods, modulo 2^32.
    pub epoch: u32,
    /// Microseconds into the current period, `0..period`.
    pub rem: u32,
}

impl Radix {
    /// `us` written in radix `period_us`.
    pub fn of(us: u64, period_us: u32) -> Radix {
        let p = period_us as u64;
        Radix {
            epoch: (us / p) as u32,
            rem: (us % p) as u32,
        }
    }
}

/// "Now" as the RP consumes it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TimeStamp {
    /// Clock cycle within the current microsecond, `0..clock_mhz`.
    pub sub: u32,
    /// Microseconds in the radix of `dce_tcp_rtt` (alpha timer).
    pub alpha: Radix,
    /// Microseconds in the radix of `rate_reduce_monitor_period` (decrease check).
    pub dec: Radix,
    /// Microseconds in the radix of `rpg_time_reset` (increase timer).
    pub inc: Radix,
    /// Microseconds in the radix of `min_time_between_cnps` (the NP's CNP window; radix 1
    /// when it is 0, i.e. no limit).
    pub cnp: Radix,
}

/// Converts trace times and cycle counts to [`TimeStamp`]s for one parameter set.
#[derive(Clone, Debug)]
pub struct Timebase {
    clock_mhz: u32,
    p_alpha: u32,
    p_dec: u32,
    p_inc: u32,
    p_cnp: u32,
}

impl Timebase {
    pub fn new(p: &Params) -> Self {
        Self {
            clock_mhz: p.clock_mhz,
            p_alpha: p.dce_tcp_rtt,
            p_dec: p.rate_reduce_monitor_period,
            p_inc: p.rpg_time_reset,
            p_cnp: p.min_time_between_cnps.max(1),
        }
    }

    /// The time base of a `clock_mhz` clock with periods `[alpha, dec, inc, cnp]` in us (as
    /// the register block's `tb_p_*` outputs give them).
    pub fn from_periods(clock_mhz: u32, periods: [u32; 4]) -> Self {
        Self {
            clock_mhz,
            p_alpha: periods[0],
            p_dec: periods[1],
            p_inc: periods[2],
            p_cnp: periods[3],
        }
    }

    /// Clock cycle of an event at `t_ns`: `floor(t_ns * clock_mhz / 1000)` (dcqcn.md).
    pub fn ns_to_cycles(&self, t_ns: u64) -> u64 {
        ((t_ns as u128 * self.clock_mhz as u128) / 1000) as u64
    }

    /// The time stamp of clock cycle `cycles`.
    pub fn at_cycle(&self, cycles: u64) -> TimeStamp {
        let c = self.clock_mhz as u64;
        let us = cycles / c;
        TimeStamp {
            sub: (cycles % c) as u32,
            alpha: Radix::of(us, self.p_alpha),
            dec: Radix::of(us, self.p_dec),
            inc: Radix::of(us, self.p_inc),
            cnp: Radix::of(us, self.p_cnp),
        }
    }
}
