//! The words the reaction point stores and consumes: per-QP state, the time stamp and the
//! configuration. Field order is the bit order (first field in the least significant bits),
//! which is how `sim` packs them for the Verilated model.

use super::widths::*;
use rust_hdl::prelude::*;

/// One QP's state: one block-RAM word (409 bits). Mirrors `sim::dcqcn_rp::QpState`.
#[derive(Clone, Copy, Debug, Default, PartialEq, LogicStruct)]
pub struct QpWord {
    /// A rate limiter is allocated.
    pub limited: Bit,
    /// Rc, Mb/s Q.8.
    pub rc: Bits<RATE_W>,
    /// Rt, Mb/s Q.8.
    pub rt: Bits<RATE_W>,
    /// alpha, Q.20.
    pub alpha: Bits<ALPHA_W>,
    /// Timer stage counter T (saturating).
    pub t: Bits<STAGE_W>,
    /// Byte stage counter BC (saturating).
    pub bc: Bits<STAGE_W>,
    /// Bytes since the last byte event (saturating).
    pub acc: Bits<ACC_W>,
    /// cnp_for_alpha.
    pub cnp_alpha: Bit,
    /// cnp_for_decrease.
    pub cnp_dec: Bit,
    /// Cycle within the microsecond at which this QP's timers expire.
    pub sub: Bits<SUB_W>,
    /// Next alpha expiry: epoch and remainder in the alpha radix.
    pub ta_e: Bits<EPOCH_W>,
    pub ta_r: Bits<REM_W>,
    /// Next decrease check, decrease radix.
    pub td_e: Bits<EPOCH_W>,
    pub td_r: Bits<REM_W>,
    /// Next increase-timer expiry, increase radix.
    pub ti_e: Bits<EPOCH_W>,
    pub ti_r: Bits<REM_W>,
    /// The next decrease check in the alpha radix.
    pub tda_e: Bits<EPOCH_W>,
    pub tda_r: Bits<REM_W>,
    /// The next decrease check in the increase radix.
    pub tdi_e: Bits<EPOCH_W>,
    pub tdi_r: Bits<REM_W>,
    /// Congestion-control mode (0 DCQCN, 1 host rate, 2 off).
    pub mode: Bits<MODE_W>,
    /// The host's rate for mode 1, Mb/s Q.8.
    pub host_rate: Bits<RATE_W>,
}

/// "Now" as the time base gives it (see `sim::timebase`): the cycle within the
/// microsecond and the microsecond count in each timer's radix.
#[derive(Clone, Copy, Debug, Default, PartialEq, LogicStruct)]
pub struct TimeWord {
    /// Cycle within the microsecond, `0..clock_mhz`.
    pub sub: Bits<SUB_W>,
    /// Microseconds in the `dce_tcp_rtt` radix.
    pub a_e: Bits<EPOCH_W>,
    pub a_r: Bits<REM_W>,
    /// Microseconds in the `rate_reduce_monitor_period` radix.
    pub d_e: Bits<EPOCH_W>,
    pub d_r: Bits<REM_W>,
    /// Microseconds in the `rpg_time_reset` radix.
    pub i_e: Bits<EPOCH_W>,
    pub i_r: Bits<REM_W>,
}

/// The RP's parameters in hardware form (`sim::dcqcn_rp::RpConfig` computes them from the
/// ConnectX-named `Params`; the power table is loaded through the table port).
#[derive(Clone, Copy, Debug, Default, PartialEq, LogicStruct)]
pub struct RpCfgWord {
    /// `dce_tcp_rtt`, us.
    pub p_alpha: Bits<REM_W>,
    /// `rate_reduce_monitor_period`, us.
    pub p_dec: Bits<REM_W>,
    /// `rpg_time_reset`, us.
    pub p_inc: Bits<REM_W>,
    /// `floor(2^18 / p_alpha)`.
    pub recip_alpha: Bits<RECIP_W>,
    /// `floor(2^18 / p_inc)`.
    pub recip_inc: Bits<RECIP_W>,
    /// Max rate, Mb/s Q.8.
    pub max_rate: Bits<RATE_W>,
    /// `rpg_ai_rate`, Mb/s Q.8.
    pub ai_rate: Bits<RATE_W>,
    /// `rpg_hai_rate`, Mb/s Q.8.
    pub hai_rate: Bits<RATE_W>,
    /// `rpg_min_rate`, Mb/s Q.8.
    pub min_rate: Bits<RATE_W>,
    /// Rc and Rt on a first CNP, Mb/s Q.8.
    pub first_rate: Bits<RATE_W>,
    /// `initial_alpha_value`, Q.20.
    pub alpha_init: Bits<ALPHA_W>,
    /// `dce_tcp_g` (1..=1024).
    pub g: Bits<G_W>,
    /// `rpg_gd + 10`.
    pub cut_shift: Bits<SHIFT_W>,
    /// `floor((100 - rpg_min_dec_fac) * 2^16 / 100)`.
    pub max_cut_q16: Bits<CUTFRAC_W>,
    /// `rpg_threshold`.
    pub threshold: Bits<THRESH_W>,
    /// `rpg_byte_reset` (0 = byte counter off).
    pub byte_reset: Bits<ACC_W>,
    /// `clamp_tgt_rate`.
    pub clamp_tgt_rate: Bit,
    /// `clamp_tgt_rate_after_time_inc`.
    pub clamp_after_t: Bit,
    /// `floor(2^28 / ai_rate)` (= `floor(2^20 / rpg_ai_rate)`): the increase-event
    /// counters divide by the additive step with it.
    pub recip_ai: Bits<STEP_RECIP_W>,
    /// `floor(2^28 / hai_rate)` (= `floor(2^20 / rpg_hai_rate)`).
    pub recip_hai: Bits<STEP_RECIP_W>,
}

/// An accepted event while it waits in the RP's input queue or its hazard check: all but
/// its QP (whose width is the RP's generic `QB`).
#[derive(Clone, Copy, Debug, Default, PartialEq, LogicStruct)]
pub struct RpEvent {
    /// 0 CNP, 1 packet, 2 query, 3 reset the QP, 4 reset it and set its mode.
    pub kind: Bits<KIND_W>,
    /// Packet length, bytes (packets only).
    pub bytes: Bits<BYTES_W>,
    /// The mode a command sets (commands only).
    pub mode: Bits<MODE_W>,
    /// The host's rate a command sets, Mb/s Q.8 (commands only).
    pub rate: Bits<RATE_W>,
    /// Now, as sampled when the event was accepted at the input.
    pub now: TimeWord,
    /// The event came from the command stream.
    pub ctl: Bit,
}

/// One report of the rate stream, less its QP: what the report register, the report FIFO
/// and the output register hold.
#[derive(Clone, Copy, Debug, Default, PartialEq, LogicStruct)]
pub struct RateReport {
    /// The report answers a query.
    pub query: Bit,
    /// A rate limiter is allocated to the QP.
    pub limited: Bit,
    /// Current rate Rc, Mb/s Q.8.
    pub rc: Bits<RATE_W>,
    /// Target rate Rt, Mb/s Q.8.
    pub rt: Bits<RATE_W>,
    /// alpha, Q.20.
    pub alpha: Bits<ALPHA_W>,
    /// The QP's mode after the event.
    pub mode: Bits<MODE_W>,
    /// The report follows a command.
    pub ctl: Bit,
}

/// Width of an issue distance in pipeline slots (`1..=127`: the interlock's window is
/// shorter) and of the history's pointers.
pub const SLOT_W: usize = 7;
/// Width of the RP's free-running cycle count (issue distances are its differences).
pub const CYC_W: usize = 8;

/// What the RP remembers of the last event that wrote a QP, per QP (the last-writer table):
/// when it went into the pipeline, whether it was a follower, and its time stamp, which is
/// what decides whether a later event may follow it (less than a microsecond after it).
#[derive(Clone, Copy, Debug, Default, PartialEq, LogicStruct)]
pub struct LastWrite {
    /// The RP's cycle count in the cycle the event went to S1.
    pub cyc: Bits<CYC_W>,
    /// It went as a follower (its word comes out of the same-QP block).
    pub fol: Bit,
    /// Its time stamp: the cycle within the microsecond and the microsecond in the
    /// increase timer's radix.
    pub sub: Bits<SUB_W>,
    pub i_e: Bits<EPOCH_W>,
    pub i_r: Bits<REM_W>,
}

/// What an event carries from S1 to the same-QP block beside the update: the event and, for
/// a follower, how many slots behind its QP's previous writer it went (whether it is a
/// follower travels in the tags, `tag_fol`).
#[derive(Clone, Copy, Debug, Default, PartialEq, LogicStruct)]
pub struct FolCtx {
    pub ev: RpEvent,
    pub d: Bits<SLOT_W>,
}
