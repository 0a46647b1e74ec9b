//! The HPCC window unit (`../shared/reference/hpcc.md`): per-QP rate and window from the
//! INT stacks of ACKs. The unit is [`window::HpccWindow`]; its parts: the reciprocal
//! ([`recip`]), one hop's load ([`hop_load`]), the EWMA weight ([`weight`]), the U state
//! and its EWMA ([`u_ewma`]), `eta / U` ([`eta_over_u`]) and the rate state and its step
//! ([`rate_step`]); its configuration compiler is [`cfg`]. The golden statement is `roce_cc_sim::hpcc_window`.

pub mod cfg;
pub mod eta_over_u;
pub mod hop_load;
pub mod rate_step;
pub mod recip;
pub mod u_ewma;
pub mod weight;
pub mod window;
