//! The engine of the host driver's `sim` BAR: the Verilated `roce_cc_top` (core plus
//! register block) behind AXI4-Lite transactions, with the time base in the test bench.
//!
//! Time is the trace's: the bench drives `now` from the golden time base
//! ([`Timebase::from_periods`] with the periods the register block reports, restarted on
//! `tb_restart`) at the cycle of the event being fed, and holds it there while register
//! accesses run. So a register read shows the state at the last event fed, the same
//! instant the `model` BAR (`crate::csr::CsrModel`) shows; the clock runs on (accesses
//! take cycles: a read 2 after the register block accepts it, a write 4, an apply about
//! `COMPILE_CYCLES` = 1144 plus the RAM sweep) but `now` does not move.

use crate::csr::Resp;
use crate::lockstep::Named;
use crate::lockstep::Waveform;
use crate::replay::{TimedEvent, TraceEvent};
use crate::replay_golden::core_event;
use crate::timebase::Timebase;
use crate::top_harness::{
    AccessError, AccessTiming, DRAIN_CYCLES, RegOp, TopOuts, TopPins, Watched, access, idle,
    offer_event, top_bring_up,
};
use crate::verilated::{TOP_QPS, VerilatedTop};
use roce_cc_params::Params;
use std::path::Path;

/// The Verilated core and register block, driven by register accesses and trace events.
pub struct SimTop {
    dut: Watched<VerilatedTop>,
    clock_mhz: u32,
    tb: Timebase,
    /// Cycles since the last time-base restart that `now` shows.
    cycle: u64,
    step: usize,
    /// Cycles the clock has run.
    pub cycles_run: u64,
}

impl SimTop {
    /// The top of a bitstream built with `build.qps` QPs at `build.clock_mhz`, out of reset
    /// with the defaults applied. Refuses builds that are not Verilated.
    pub fn new(build: &Params) -> Result<Self, String> {
        let default_clock = Params::default().clock_mhz;
        if build.clock_mhz != default_clock {
            return Err(format!(
                "the simulated core is built for {default_clock} MHz (clock_mhz is fixed when \
                 a bitstream is built); drop --clock-mhz or give {default_clock}"
            ));
        }
        let top = VerilatedTop::new(build.qps).ok_or_else(|| {
            format!(
                "the simulated core is built for {TOP_QPS:?} QPs, not {}; give --qps with one \
                 of those",
                build.qps
            )
        })?;
        let mut s = Self {
            dut: Watched::new(top),
            clock_mhz: build.clock_mhz,
            tb: Timebase::new(build),
            cycle: 0,
            step: 0,
            cycles_run: 0,
        };
        let base = s.base();
        let mut duts: Vec<Named<TopPins, TopOuts>> = vec![("verilator", &mut s.dut)];
        let n = top_bring_up(&mut duts, &base, &mut s.step).map_err(|e| e.to_string())?;
        s.cycles_run += n;
        s.take_restart();
        Ok(s)
    }

    /// Write every signal of the design to `path` from now on (time unit: half cycles).
    pub fn open_vcd(&mut self, path: &Path) -> std::io::Result<()> {
        self.dut.dut.open_vcd(path)
    }

    fn base(&self) -> TopPins {
        TopPins {
            rate_ready: true,
            cnp_ready: true,
            now: self.tb.at_cycle(self.cycle),
            ..TopPins::default()
        }
    }

    fn take_restart(&mut self) {
        if let Some(p) = self.dut.restart.take() {
            self.tb = Timebase::from_periods(self.clock_mhz, p);
            self.cycle = 0;
        }
    }

    fn run(&mut self, op: RegOp) -> Result<(u32, Resp), AccessError> {
        let base = self.base();
        let mut duts: Vec<Named<TopPins, TopOuts>> = vec![("verilator", &mut self.dut)];
        let r = access(
            &mut duts,
            &base,
            op,
            AccessTiming::default(),
            &mut self.step,
        )?;
        self.cycles_run += r.cycles;
        self.take_restart();
        let resp = match r.resp {
            0 => Resp::Okay,
            2 => Resp::SlvErr,
            _ => Resp::DecErr,
        };
        Ok((r.data, resp))
    }

    /// A 32-bit read at byte address `addr`.
    pub fn read(&mut self, addr: u32) -> Result<(u32, Resp), AccessError> {
        self.run(RegOp::Read { addr })
    }

    /// A 32-bit write with byte strobes `strb`.
    pub fn write(&mut self, addr: u32, data: u32, strb: u32) -> Result<Resp, AccessError> {
        self.run(RegOp::Write { addr, data, strb }).map(|r| r.1)
    }

    /// Feed trace events to the core at their times (under the applied parameters);
    /// `sample` events only move the time; `mode` events are the register writes of a
    /// set-mode command. Afterwards `now` stays at the last event's.
    pub fn feed(&mut self, events: &[TimedEvent]) -> Result<(), String> {
        crate::trace::register_block_can_feed(events)
            .map_err(|e| format!("line {}: {}", e.line, e.message))?;
        for e in events {
            self.cycle = self.tb.ns_to_cycles(e.t_ns);
            match e.ev {
                TraceEvent::Sample { .. } => continue,
                TraceEvent::Mode { qp, mode, rate_q8 } => {
                    for (addr, value) in crate::csr::set_mode_writes(qp, mode, rate_q8) {
                        match self.write(addr, value, 0xf) {
                            Ok(Resp::Okay) => {}
                            r => return Err(format!("line {}: set-mode write: {r:?}", e.line)),
                        }
                    }
                    continue;
                }
                _ => {}
            }
            let base = self.base();
            let mut duts: Vec<Named<TopPins, TopOuts>> = vec![("verilator", &mut self.dut)];
            let n = offer_event(&mut duts, &base, core_event(&e.ev), &mut self.step)
                .map_err(|err| format!("line {}: {err}", e.line))?;
            self.cycles_run += n;
        }
        // Let the last events through the pipelines and into every counter (reports and
        // CNP requests are taken).
        let base = self.base();
        let mut duts: Vec<Named<TopPins, TopOuts>> = vec![("verilator", &mut self.dut)];
        idle(&mut duts, &base, DRAIN_CYCLES, &mut self.step).map_err(|e| e.to_string())?;
        self.cycles_run += DRAIN_CYCLES;
        Ok(())
    }
}
