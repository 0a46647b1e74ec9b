//! `pacer`: the per-QP rate limiter and scheduler (`../shared/reference/pacing.md`), and
//! its parts. The golden statement of its arithmetic is `roce_cc_sim::pacer`.
//!
//! - [`cpb`]: a rate to cycles per byte (the reciprocal that turns a rate into a gap).
//! - [`eligible`]: the set of eligible QPs, one round-robin pick per cycle.
//! - [`pace_step`]: one grant's arithmetic (packet size, gap, the QP's next departure).
//! - [`wheel`]: the timing wheel that holds QPs until their time.

pub mod cpb;
pub mod eligible;
pub mod pace_step;
pub mod qp_bits;
pub mod sched;
pub mod wheel;
