//! The `sim` BAR, the "PCIe BAR stub": the Verilated core and register block
//! (`roce_cc_top`), every access an AXI4-Lite transaction on its slave port
//! (`roce_cc_sim::sim_top::SimTop`).

use crate::{BusError, RegIo};
use roce_cc_params::Params;
use roce_cc_sim::csr::Resp;
use roce_cc_sim::replay::TimedEvent;
use roce_cc_sim::sim_top::SimTop;

/// [`RegIo`] over the Verilated `roce_cc_top`.
pub struct SimBar {
    pub top: SimTop,
}

impl SimBar {
    /// The simulated bitstream built with `build.qps` QPs at `build.clock_mhz`, out of reset
    /// with the default parameters applied; refused if no such build is Verilated.
    pub fn new(build: &Params) -> Result<Self, BusError> {
        SimTop::new(build)
            .map(|top| Self { top })
            .map_err(BusError::Backend)
    }

    /// Feed trace events to the core at their times (under the applied parameters);
    /// afterwards the core's time is the last event's (`roce_cc_sim::sim_top`).
    pub fn feed(&mut self, events: &[TimedEvent]) -> Result<(), BusError> {
        self.top.feed(events).map_err(BusError::Backend)
    }
}

fn check(r: Resp) -> Result<(), BusError> {
    match r {
        Resp::Okay => Ok(()),
        Resp::SlvErr => Err(BusError::SlvErr),
        Resp::DecErr => Err(BusError::DecErr),
    }
}

impl RegIo for SimBar {
    fn read32(&mut self, offset: u32) -> Result<u32, BusError> {
        let (v, r) = self
            .top
            .read(offset)
            .map_err(|e| BusError::Backend(e.to_string()))?;
        check(r).map(|_| v)
    }

    fn write32_strb(&mut self, offset: u32, value: u32, strb: u32) -> Result<(), BusError> {
        let r = self
            .top
            .write(offset, value, strb)
            .map_err(|e| BusError::Backend(e.to_string()))?;
        check(r)
    }
}
