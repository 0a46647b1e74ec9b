//! Golden model of the DCQCN notification point and its CNP rate limiter
//! (`../shared/reference/dcqcn.md` "NP and the CNP rate limiter"), bit-accurate with
//! `roce_cc_hdl::dcqcn_np`.
//!
//! The limiter remembers, per QP (`per_flow`) or once for the port (`per_port`), whether a
//! CNP was sent and when, as the time base writes it: the cycle within the microsecond and
//! the microsecond count in the radix of `min_time_between_cnps` (see [`crate::timebase`]).
//! A CE mark at time `t` gets a CNP if none was sent, if the limit is 0, or if
//! `t - last >= min_time_between_cnps` microseconds; in that radix this is "two or more
//! periods apart, or one period apart and (rem, sub) now at or after (rem, sub) then".
//! Epochs are 32 bits and compared modulo 2^32, exactly as the hardware does: a limiter
//! idle for more than 2^32 periods may wrongly suppress one mark (documented limit).

use crate::timebase::{Radix, TimeStamp};
use roce_cc_params::{CnpModeration, ParamError, Params};

/// `ecn` value of a CE-marked packet.
pub const ECN_CE: u8 = 0b11;

/// The NP's parameters in the form the hardware uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NpConfig {
    /// `min_time_between_cnps == 0`.
    pub no_limit: bool,
    /// `cnp_moderation = per_port`.
    pub per_port: bool,
    /// `cnp_dscp`.
    pub dscp: u32,
    /// `cnp_802p_prio`.
    pub prio: u32,
}

impl NpConfig {
    /// The hardware form of `p`'s NP parameters; refuses what [`Params::validate`] refuses
    /// (the `deferred` mode among them).
    pub fn new(p: &Params) -> Result<Self, ParamError> {
        p.validate()?;
        Ok(Self {
            no_limit: p.min_time_between_cnps == 0,
            per_port: p.cnp_moderation == CnpModeration::PerPort,
            dscp: p.cnp_dscp,
            prio: p.cnp_802p_prio,
        })
    }
}

/// One limiter's state (a QP's, or the port's).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NpState {
    /// A CNP was sent since reset.
    pub sent: bool,
    /// Cycle within the microsecond of the last CNP.
    pub sub: u32,
    /// Microseconds of the last CNP in the `min_time_between_cnps` radix.
    pub at: Radix,
}

/// A CNP request: send a CNP for `qp` with this DSCP and priority.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CnpRequest {
    pub qp: u32,
    pub dscp: u32,
    pub prio: u32,
}

/// Whether a CE mark at `now` passes a limiter in state `old`.
pub fn passes(cfg: &NpConfig, old: &NpState, now: &TimeStamp) -> bool {
    if !old.sent || cfg.no_limit {
        return true;
    }
    let periods = now.cnp.epoch.wrapping_sub(old.at.epoch);
    let later_in_period = (now.cnp.rem, now.sub) >= (old.at.rem, old.sub);
    periods > 1 || (periods == 1 && later_in_period)
}

/// Counters the NP keeps (all wrap at 2^48 in hardware).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NpCounters {
    /// CE marks that produced a CNP request.
    pub sent: u64,
    /// CE marks the limiter suppressed.
    pub suppressed: u64,
}

/// The notification point: all limiters and the counters.
#[derive(Clone, Debug)]
pub struct DcqcnNp {
    pub cfg: NpConfig,
    /// Per-QP limiters (`per_flow`).
    pub qps: Vec<NpState>,
    /// The port's limiter (`per_port`).
    pub port: NpState,
    pub counters: NpCounters,
}

/// Counter width in hardware (`roce_cc_hdl::dcqcn_np::COUNTER_W`).
pub const COUNTER_MASK: u64 = (1 << 48) - 1;

impl DcqcnNp {
    /// The NP after reset, for `p.qps` QPs. `p` must be valid (see [`NpConfig::new`]).
    pub fn new(p: &Params) -> Result<Self, ParamError> {
        Ok(Self {
            cfg: NpConfig::new(p)?,
            qps: vec![NpState::default(); p.qps as usize],
            port: NpState::default(),
            counters: NpCounters::default(),
        })
    }

    /// A received data packet for `qp` with IP ECN field `ecn` at `now`: the CNP request it
    /// causes, if any.
    pub fn on_packet(&mut self, now: &TimeStamp, qp: u32, ecn: u8) -> Option<CnpRequest> {
        if ecn != ECN_CE {
            return None;
        }
        let cfg = self.cfg;
        let state = if cfg.per_port {
            &mut self.port
        } else {
            &mut self.qps[qp as usize]
        };
        if passes(&cfg, state, now) {
            *state = NpState {
                sent: true,
                sub: now.sub,
                at: now.cnp,
            };
            self.counters.sent = (self.counters.sent + 1) & COUNTER_MASK;
            Some(CnpRequest {
                qp,
                dscp: cfg.dscp,
                prio: cfg.prio,
            })
        } else {
            self.counters.suppressed = (self.counters.suppressed + 1) & COUNTER_MASK;
            None
        }
    }

    /// Forget `qp`'s last CNP (its limiter is as after reset; the port's is kept).
    pub fn reset_qp(&mut self, qp: u32) {
        self.qps[qp as usize] = NpState::default();
    }

    /// Back to the state after reset.
    pub fn reset(&mut self) {
        self.qps.iter_mut().for_each(|q| *q = NpState::default());
        self.port = NpState::default();
        self.counters = NpCounters::default();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::timebase::Timebase;

    /// The radix compare equals "cycles since the last CNP >= period * clock_mhz" for
    /// every pair of times (an independent statement of dcqcn.md's rule).
    #[test]
    fn radix_compare_equals_cycle_difference() {
        let mut rng = crate::stimulus::XorShift::new(7);
        for _ in 0..200_000 {
            let p = Params {
                clock_mhz: 1 + rng.below(300) as u32,
                min_time_between_cnps: 1 + rng.below(60) as u32,
                ..Params::default()
            };
            let tb = Timebase::new(&p);
            let window = p.min_time_between_cnps as u64 * p.clock_mhz as u64;
            let last = rng.below(1 << 34);
            let t = last + rng.below(3 * window + 2);
            let cfg = NpConfig::new(&p).unwrap();
            let then = tb.at_cycle(last);
            let old = NpState {
                sent: true,
                sub: then.sub,
                at: then.cnp,
            };
            assert_eq!(
                passes(&cfg, &old, &tb.at_cycle(t)),
                t - last >= window,
                "{p:?} last {last} t {t}"
            );
        }
    }

    fn marks(p: &Params, times_us: &[(u64, u32)]) -> Vec<Option<u32>> {
        let tb = Timebase::new(p);
        let mut np = DcqcnNp::new(p).unwrap();
        times_us
            .iter()
            .map(|&(us, qp)| {
                np.on_packet(&tb.at_cycle(us * p.clock_mhz as u64), qp, ECN_CE)
                    .map(|r| r.qp)
            })
            .collect()
    }

    #[test]
    fn per_flow_limits_each_qp_on_its_own() {
        let p = Params::default(); // 4 us, per_flow
        let got = marks(
            &p,
            &[(0, 1), (1, 1), (1, 2), (3, 1), (4, 1), (4, 2), (5, 2)],
        );
        assert_eq!(got, [Some(1), None, Some(2), None, Some(1), None, Some(2)]);
    }

    #[test]
    fn per_port_shares_one_limiter() {
        let p = Params {
            cnp_moderation: CnpModeration::PerPort,
            ..Params::default()
        };
        let got = marks(&p, &[(0, 1), (1, 2), (4, 2), (5, 1), (8, 1)]);
        assert_eq!(got, [Some(1), None, Some(2), None, Some(1)]);
    }

    #[test]
    fn zero_limit_sends_on_every_mark_and_other_ecn_does_nothing() {
        let p = Params {
            min_time_between_cnps: 0,
            ..Params::default()
        };
        assert_eq!(marks(&p, &[(0, 1), (0, 1), (0, 1)]), [Some(1); 3]);
        let tb = Timebase::new(&p);
        let mut np = DcqcnNp::new(&p).unwrap();
        for ecn in 0..3 {
            assert_eq!(np.on_packet(&tb.at_cycle(0), 0, ecn), None);
        }
        assert_eq!(np.counters, NpCounters::default());
    }

    #[test]
    fn deferred_is_refused_with_the_valid_values() {
        let p = Params {
            cnp_moderation: CnpModeration::Deferred,
            ..Params::default()
        };
        let e = NpConfig::new(&p).unwrap_err().to_string();
        assert!(e.contains("per_flow") && e.contains("per_port"), "{e}");
    }
}
