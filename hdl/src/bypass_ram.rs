//! `BypassRam`: a [`StateRam`] whose read of a word written at the same edge returns the
//! new word (write first), defined in both simulations and in the Verilog.
//!
//! `StateRam` leaves that read undefined (an ECP5 block RAM does not promise either word
//! across its ports). A unit whose read must see a write of the same edge, such as a
//! read-modify-write one word per cycle (the pacer's `posted` and `acked`), puts this
//! around it: the edge registers whether the read address equals the write address with a
//! write enabled, and the write data; in the next cycle the output takes the registered
//! data instead of the RAM's. That is one comparator of `N` bits before a register and a
//! `D`-bit 2:1 mux after the RAM's output.

use crate::state_ram::StateRam;
use rust_hdl::prelude::*;

/// `2^N` words of type `D`, one synchronous read port and one write port, read as
/// written.
#[derive(LogicBlock, Default)]
pub struct BypassRam<D: Synth, const N: usize> {
    /// The one clock of both ports.
    pub clock: Signal<In, Clock>,
    /// Read address, sampled at the rising edge.
    pub read_address: Signal<In, Bits<N>>,
    /// The word at `read_address` after the last edge's write (valid the cycle after the
    /// address).
    pub read_data: Signal<Out, D>,
    /// Write address, sampled at the rising edge.
    pub write_address: Signal<In, Bits<N>>,
    /// Write data, stored at `write_address` at the rising edge if `write_enable`.
    pub write_data: Signal<In, D>,
    /// Write enable.
    pub write_enable: Signal<In, Bit>,
    ram: StateRam<D, N>,
    /// The last edge wrote the word it read.
    hit: DFF<Bit>,
    /// The last edge's write data.
    wd: DFF<D>,
}

impl<D: Synth, const N: usize> Logic for BypassRam<D, N> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, hit, wd);
        clock!(self, clock, ram);
        self.ram.read_address.next = self.read_address.val();
        self.ram.write_address.next = self.write_address.val();
        self.ram.write_data.next = self.write_data.val();
        self.ram.write_enable.next = self.write_enable.val();
        self.hit.d.next =
            self.write_enable.val() & (self.write_address.val() == self.read_address.val());
        self.wd.d.next = self.write_data.val();
        self.read_data.next = self.ram.read_data.val();
        if self.hit.q.val() {
            self.read_data.next = self.wd.q.val();
        }
    }
}
