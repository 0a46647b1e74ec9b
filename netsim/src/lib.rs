//! `roce-cc netsim`: a deterministic packet-level network whose NICs are the roce-cc core
//! (`../shared/reference/network.md`; `docs/netsim.md`).
//!
//! The layout follows the model: [`packet`] (what travels), [`topology`] (nodes, links,
//! routes), [`switch`] (the shared-buffer switch: queues, ECN, PFC, INT), [`flows`]
//! (traffic), [`nic`] (a host's core, golden or RTL, cycle by cycle), [`host`] (the
//! host around it: uplink, flows, ACKs and CNPs), [`sim`] (the event loop), [`scenario`]
//! (the TOML file), [`stats`], [`report`] and [`plot`] (what a run reports).

pub mod flows;
pub mod host;
pub mod nic;
pub mod packet;
pub mod plot;
pub mod report;
pub mod scenario;
pub mod sim;
pub mod stats;
pub mod switch;
pub mod topology;

use std::path::Path;

/// Run `sc` and write its report into `out` (if given); `progress(now, end)` is called
/// with the simulated time every 10 us of it.
pub fn run_scenario(
    sc: &scenario::Scenario,
    out: Option<&Path>,
    progress: impl FnMut(packet::Ps, packet::Ps),
) -> Result<report::Summary, String> {
    let t0 = std::time::Instant::now();
    let run = sim::Sim::new(sc)?.run(progress)?;
    report::report(&run, t0.elapsed().as_secs_f64(), out)
}
