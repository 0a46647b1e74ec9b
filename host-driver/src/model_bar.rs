//! The `model` BAR: the golden register block over the golden core.

use crate::{BusError, RegIo};
use roce_cc_params::Params;
use roce_cc_sim::csr::{CsrModel, Resp, set_mode_writes};
use roce_cc_sim::replay::{TimedEvent, TraceEvent};
use roce_cc_sim::replay_golden::core_event;

/// [`RegIo`] over `roce_cc_sim::csr::CsrModel`.
pub struct ModelBar {
    pub model: CsrModel,
}

impl ModelBar {
    /// The model of a bitstream built with `build.qps` QPs at `build.clock_mhz`, with this
    /// build's firmware identity.
    pub fn new(build: &Params) -> Self {
        Self {
            model: CsrModel::new(build, roce_cc_regmap::fw_id()),
        }
    }

    /// Feed trace events to the core (times under the applied parameters); `mode` events
    /// are the register writes of a set-mode command. `sample` events only advance the time (use the QP window to look at a QP); afterwards the
    /// model's time is the last event's.
    pub fn feed(&mut self, events: &[TimedEvent]) -> Result<(), String> {
        roce_cc_sim::trace::register_block_can_feed(events)
            .map_err(|e| format!("line {}: {}", e.line, e.message))?;
        let tb = self.model.timebase();
        for e in events {
            let cycle = tb.ns_to_cycles(e.t_ns);
            self.model.cycle = cycle;
            match e.ev {
                TraceEvent::Sample { .. } => continue,
                TraceEvent::Mode { qp, mode, rate_q8 } => {
                    for (addr, value) in set_mode_writes(qp, mode, rate_q8) {
                        let r = self.model.write(addr, value, 0xf);
                        assert_eq!(r, Resp::Okay, "set-mode write at {addr:#x}");
                    }
                    continue;
                }
                _ => {}
            }
            self.model.core.apply_at_cycle(cycle, core_event(&e.ev));
        }
        Ok(())
    }
}

fn check(r: Resp) -> Result<(), BusError> {
    match r {
        Resp::Okay => Ok(()),
        Resp::SlvErr => Err(BusError::SlvErr),
        Resp::DecErr => Err(BusError::DecErr),
    }
}

impl RegIo for ModelBar {
    fn read32(&mut self, offset: u32) -> Result<u32, BusError> {
        let (v, r) = self.model.read(offset);
        check(r).map(|_| v)
    }

    fn write32_strb(&mut self, offset: u32, value: u32, strb: u32) -> Result<(), BusError> {
        check(self.model.write(offset, value, strb))
    }
}
