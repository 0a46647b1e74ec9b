//! `StateRam`: the per-QP state memory of the RP and the NP, one synchronous read port and
//! one write port on one clock, with a read that collides with a write left undefined.
//!
//! rust-hdl's `RAM` is written as "the read returns the old word when it meets a write to
//! the same address". An ECP5 block RAM (`DP16KD`) does not promise that across its two
//! ports, so yosys builds it around the RAM: a compare of both addresses, the write data
//! and the compare registered, and a multiplexer after the RAM's output (for the RP's
//! 1024 x 400-bit word: hundreds of flip-flops, and the read address's route into a compare
//! after the RAM's own, too long for 10 ns). The units never use such a read: the
//! word being written is one the units forward to the event anyway (the RP's W1..W3, the
//! NP's five earlier events). This leaf says so to yosys with the `no_rw_check` attribute
//! on the memory ("don't care on collision"), which yosys reads as its own, and which is
//! the only difference from `RAM`'s Verilog.
//!
//! The claim "never used" is tested rather than trusted: the two simulations model the two
//! results a block RAM can give. Verilator runs the Verilog, whose read returns the old
//! word; rust-hdl's model of this leaf returns the word being written (write first). The
//! units' three-way tests compare golden model, rust-hdl and Verilator every cycle, so a
//! unit whose outputs depended on a colliding read would fail them wherever the old and the
//! new word differ. [`StateRam::collisions`] counts the colliding reads rust-hdl's model
//! saw, so a test can show that its stimulus made some. `sim/tests/all/leaves_three_way.rs`
//! checks the leaf itself three ways (every read without a collision exact; with one,
//! rust-hdl returns the new word and Verilator the old).

use rust_hdl::prelude::*;
use std::collections::BTreeMap;

/// `2^N` words of type `D`, read and written at the rising edge of `clock`.
#[derive(LogicBlock, Default)]
pub struct StateRam<D: Synth, const N: usize> {
    /// The one clock of both ports.
    pub clock: Signal<In, Clock>,
    /// Read address, sampled at the rising edge.
    pub read_address: Signal<In, Bits<N>>,
    /// The word at `read_address` as of the last edge (registered: valid the cycle after
    /// the address). Undefined if that edge also wrote `read_address` (see the module doc).
    pub read_data: Signal<Out, D>,
    /// Write address, sampled at the rising edge.
    pub write_address: Signal<In, Bits<N>>,
    /// Write data, stored at `write_address` at the rising edge if `write_enable`.
    pub write_data: Signal<In, D>,
    /// Write enable.
    pub write_enable: Signal<In, Bit>,
    _mem: Box<BTreeMap<Bits<N>, D>>,
    _collisions: u64,
}

impl<D: Synth, const N: usize> StateRam<D, N> {
    /// Reads that met a write to their address in rust-hdl's simulation since the leaf was
    /// built (rust-hdl's model returned the new word for each; Verilator the old one).
    pub fn collisions(&self) -> u64 {
        self._collisions
    }
}

impl<D: Synth, const N: usize> Logic for StateRam<D, N> {
    fn update(&mut self) {
        if self.clock.pos_edge() {
            let ra = self.read_address.val();
            let we = self.write_enable.val();
            let wa = self.write_address.val();
            if we && wa == ra {
                self._collisions += 1;
                self.read_data.next = self.write_data.val();
            } else {
                self.read_data.next = *self._mem.get(&ra).unwrap_or(&D::default());
            }
            if we {
                self._mem.insert(wa, self.write_data.val());
            }
        }
    }

    fn connect(&mut self) {
        self.read_data.connect();
    }

    /// rust-hdl declares custom outputs `output reg`, so the read is a nonblocking
    /// assignment in a clocked block. No `initial` block: the units sweep their RAM after
    /// reset.
    fn hdl(&self) -> Verilog {
        Verilog::Custom(format!(
            "\
(* no_rw_check *)
reg [{msb}:0] mem [0:{last}];
always @(posedge clock) begin
   read_data <= mem[read_address];
   if (write_enable) mem[write_address] <= write_data;
end
",
            msb = D::BITS - 1,
            last = (1usize << N) - 1,
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn edge(ram: &mut StateRam<Bits<8>, 2>) {
        ram.clock.next = Clock { clk: false };
        assert!(simulate(ram, 10));
        ram.clock.next = Clock { clk: true };
        assert!(simulate(ram, 10));
    }

    /// The model: a plain read returns the stored word, a colliding read the new word, and
    /// each colliding read is counted.
    #[test]
    fn model_reads_and_counts_collisions() {
        let mut ram = StateRam::<Bits<8>, 2>::default();
        ram.connect_all();
        ram.write_enable.next = true;
        ram.write_address.next = 1.into();
        ram.write_data.next = 0x5a.into();
        ram.read_address.next = 2.into();
        edge(&mut ram);
        assert_eq!(ram.read_data.val(), Bits::<8>::from(0));
        assert_eq!(ram.collisions(), 0);
        ram.write_data.next = 0x33.into();
        ram.read_address.next = 1.into();
        edge(&mut ram);
        assert_eq!(ram.read_data.val(), Bits::<8>::from(0x33));
        assert_eq!(ram.collisions(), 1);
        ram.write_enable.next = false;
        edge(&mut ram);
        assert_eq!(ram.read_data.val(), Bits::<8>::from(0x33));
        assert_eq!(ram.collisions(), 1);
    }
}
