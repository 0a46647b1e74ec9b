//! `LutRam`: a small RAM with one synchronous write port and two asynchronous read ports.
//!
//! rust-hdl's `RAM` reads synchronously (block RAM). The DCQCN RP's power table must be read
//! in the same cycle as its address is computed, so it lives in distributed (LUT) RAM, which
//! rust-hdl cannot express: this is a `Verilog::Custom` leaf, kept small, with a Rust model
//! that behaves exactly like the Verilog (write at the clock edge, reads combinational).
//! yosys maps it to LUT RAM (TRELLIS_DPR16X4 on ECP5), one copy per read port.

use rust_hdl::prelude::*;

/// `2^AW` words of `DW` bits; writes at the rising clock edge, two combinational reads.
#[derive(LogicBlock)]
pub struct LutRam<const DW: usize, const AW: usize> {
    /// Write clock.
    pub clock: Signal<In, Clock>,
    /// Write enable: `wdata` is stored at `waddr` at the rising edge.
    pub we: Signal<In, Bit>,
    /// Write address.
    pub waddr: Signal<In, Bits<AW>>,
    /// Write data.
    pub wdata: Signal<In, Bits<DW>>,
    /// Read port 0 address.
    pub raddr0: Signal<In, Bits<AW>>,
    /// Read port 0 data: the word at `raddr0`, combinationally.
    pub rdata0: Signal<Out, Bits<DW>>,
    /// Read port 1 address.
    pub raddr1: Signal<In, Bits<AW>>,
    /// Read port 1 data: the word at `raddr1`, combinationally.
    pub rdata1: Signal<Out, Bits<DW>>,
    _mem: Vec<Bits<DW>>,
}

impl<const DW: usize, const AW: usize> Default for LutRam<DW, AW> {
    fn default() -> Self {
        assert!(AW <= 10, "LutRam is for small tables (at most 1024 words)");
        Self {
            clock: Default::default(),
            we: Default::default(),
            waddr: Default::default(),
            wdata: Default::default(),
            raddr0: Default::default(),
            rdata0: Default::default(),
            raddr1: Default::default(),
            rdata1: Default::default(),
            _mem: vec![Bits::<DW>::default(); 1 << AW],
        }
    }
}

impl<const DW: usize, const AW: usize> Logic for LutRam<DW, AW> {
    fn update(&mut self) {
        if self.clock.pos_edge() && self.we.val() {
            self._mem[self.waddr.val().index()] = self.wdata.val();
        }
        self.rdata0.next = self._mem[self.raddr0.val().index()];
        self.rdata1.next = self._mem[self.raddr1.val().index()];
    }

    fn connect(&mut self) {
        self.rdata0.connect();
        self.rdata1.connect();
    }

    /// rust-hdl declares custom outputs `output reg`: the reads are `always @(*)`, not
    /// `assign` (which yosys reports as a continuous assignment to a reg).
    fn hdl(&self) -> Verilog {
        Verilog::Custom(format!(
            "\
reg [{dw}:0] mem [0:{depth}];
integer i;
initial begin
   for (i = 0; i <= {depth}; i = i + 1) mem[i] = {DW}'d0;
end
always @(posedge clock) begin
   if (we) mem[waddr] <= wdata;
end
always @(*) rdata0 = mem[raddr0];
always @(*) rdata1 = mem[raddr1];
",
            dw = DW - 1,
            depth = (1usize << AW) - 1,
            DW = DW,
        ))
    }
}
