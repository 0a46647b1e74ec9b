//! The trace-replay interface every engine answers to (`../shared/reference/replay.md`).
//!
//! A trace is parsed and checked once ([`crate::trace`]); engines only see valid
//! [`TimedEvent`]s and return [`OutLine`]s, which are printed by one function
//! ([`OutLine::to_json`]) so that two engines that agree on values print identical bytes.

use crate::fixed::exact_decimal;

/// One event of a trace, already validated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TraceEvent {
    /// CNP received for `qp` (reaction point).
    Cnp { qp: u32 },
    /// `qp` sent a packet of `bytes` bytes.
    Tx { qp: u32, bytes: u32 },
    /// CE-marked data packet received for `qp` (notification point).
    Ecn { qp: u32 },
    /// Report `qp`'s state at this time.
    Sample { qp: u32 },
    /// The register block's set-mode command for `qp`: reset its sender state and put it in
    /// `mode` (`roce_cc_regmap::QpMode` as a number), at `rate_q8` (Mb/s Q.8) in host mode.
    Mode { qp: u32, mode: u32, rate_q8: u32 },
    /// An ACK with its INT stack for `qp` (HPCC window unit).
    Ack {
        qp: u32,
        ack: crate::hpcc_window::Ack,
    },
    /// `qp` has `bytes` more bytes to send (the pacer's doorbell).
    Post { qp: u32, bytes: u32 },
}

/// An event with its time and the trace line it came from (1-based).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TimedEvent {
    pub t_ns: u64,
    pub line: usize,
    pub ev: TraceEvent,
}

/// One QP's reaction-point state as the hardware holds it (fixed point, see `dcqcn_rp`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RpReport {
    /// A rate limiter is allocated to the QP.
    pub limited: bool,
    /// Current rate Rc, Mb/s in Q.8 (the QP's max rate when not limited).
    pub rc_mbps_q8: u32,
    /// Target rate Rt, Mb/s in Q.8 (the QP's max rate when not limited).
    pub rt_mbps_q8: u32,
    /// alpha in Q.20 (`1 << 20` is 1.0); meaningless when not limited.
    pub alpha_q20: u32,
}

/// One line of replay output.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OutLine {
    /// Answer to a `sample` event.
    Sample {
        t_ns: u64,
        qp: u32,
        report: RpReport,
    },
    /// Answer to a `sample` event of a QP in HPCC mode.
    HpccSample {
        t_ns: u64,
        qp: u32,
        /// R, Mb/s Q.8.
        rate_q8: u32,
        /// Rc, Mb/s Q.8.
        rc_q8: u32,
        /// U, Q.24.
        u_q24: u64,
        /// The window `R * T / 8000`, bytes.
        win_bytes: u32,
    },
    /// A CNP the notification point asks to send.
    CnpOut {
        t_ns: u64,
        qp: u32,
        dscp: u32,
        prio: u32,
    },
    /// A packet the pacer granted, at the start of its clock cycle (`cycle` cycles after
    /// time 0 at `clock_mhz`).
    Send {
        cycle: u64,
        clock_mhz: u32,
        qp: u32,
        bytes: u32,
    },
}

impl OutLine {
    /// The exact output line (no trailing newline), as replay.md shows it.
    pub fn to_json(&self) -> String {
        match self {
            OutLine::Sample { t_ns, qp, report } => {
                let alpha = if report.limited {
                    exact_decimal(report.alpha_q20 as u64, 20)
                } else {
                    "null".to_string()
                };
                format!(
                    "{{\"t_ns\": {t_ns}, \"qp\": {qp}, \"limited\": {}, \"rc_mbps\": {}, \"rt_mbps\": {}, \"alpha\": {alpha}}}",
                    report.limited,
                    exact_decimal(report.rc_mbps_q8 as u64, 8),
                    exact_decimal(report.rt_mbps_q8 as u64, 8),
                )
            }
            OutLine::HpccSample {
                t_ns,
                qp,
                rate_q8,
                rc_q8,
                u_q24,
                win_bytes,
            } => format!(
                "{{\"t_ns\": {t_ns}, \"qp\": {qp}, \"mode\": \"hpcc\", \"rate_mbps\": {}, \"rc_mbps\": {}, \"u\": {}, \"win_bytes\": {win_bytes}}}",
                exact_decimal(*rate_q8 as u64, 8),
                exact_decimal(*rc_q8 as u64, 8),
                exact_decimal(*u_q24, 24),
            ),
            OutLine::CnpOut {
                t_ns,
                qp,
                dscp,
                prio,
            } => format!(
                "{{\"t_ns\": {t_ns}, \"ev\": \"cnp_out\", \"qp\": {qp}, \"dscp\": {dscp}, \"prio\": {prio}}}"
            ),
            OutLine::Send {
                cycle,
                clock_mhz,
                qp,
                bytes,
            } => format!(
                "{{\"t_ns\": {}, \"ev\": \"send\", \"qp\": {qp}, \"bytes\": {bytes}}}",
                cycle_ns(*cycle, *clock_mhz)
            ),
        }
    }

    /// The line's time in whole ns (a send's cycle start rounded down).
    pub fn t_ns(&self) -> u64 {
        match self {
            OutLine::Sample { t_ns, .. }
            | OutLine::HpccSample { t_ns, .. }
            | OutLine::CnpOut { t_ns, .. } => *t_ns,
            OutLine::Send {
                cycle, clock_mhz, ..
            } => cycle * 1000 / u64::from(*clock_mhz),
        }
    }
}

/// Digits after the point a cycle's start time is printed with at most (a clock whose
/// period is not a finite decimal, 300 MHz: 3.333333333 ns, is cut there).
pub const CYCLE_NS_DIGITS: usize = 9;

/// The start of clock cycle `cycle` at `clock_mhz`, in ns: `cycle * 1000 / clock_mhz`
/// as an exact decimal (no point for a whole number of ns), cut after
/// [`CYCLE_NS_DIGITS`] digits when it does not end sooner.
pub fn cycle_ns(cycle: u64, clock_mhz: u32) -> String {
    let den = u128::from(clock_mhz);
    let num = u128::from(cycle) * 1000;
    let mut out = (num / den).to_string();
    let mut rem = num % den;
    if rem != 0 {
        out.push('.');
        for _ in 0..CYCLE_NS_DIGITS {
            rem *= 10;
            out.push(char::from(b'0' + (rem / den) as u8));
            rem %= den;
            if rem == 0 {
                break;
            }
        }
    }
    out
}

/// Something that can replay a trace: the golden model or the Verilated RTL.
pub trait ReplayEngine {
    /// Run all events (sorted by time, ties in file order) and return the output lines in
    /// time order (ties in the order the events that caused them appear).
    fn run(&mut self, events: &[TimedEvent]) -> Result<Vec<OutLine>, String>;
}
