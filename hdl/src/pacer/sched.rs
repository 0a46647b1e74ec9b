//! `Pacer`: the pacer top (`../shared/reference/pacing.md`).

/// Slots of the fine wheel: `2^FINE_SB` one-cycle slots.
pub const FINE_SB: usize = 8;
/// Slots of the coarse wheel: `2^COARSE_SB`.
pub const COARSE_SB: usize = 8;
/// The coarse wheel's unit: `2^COARSE_SHIFT` cycles.
pub const COARSE_SHIFT: usize = 6;
/// Entries of the grant FIFO.
pub const GRANT_FIFO: usize = 16;
/// Cycles from an operation's issue to its route stage.
pub const ROUTE_STAGE: usize = 8;
/// Cycles from a side-path acceptance (rate report or ACK) to its write.
pub const SIDE_STAGES: usize = 8;
/// Cycles before its time a QP leaves the wheels for the eligible set.
pub const LEAD: usize = 4;
