// Lint-only stand-ins for the Lattice ECP5 vendor cells roce-cc's tops instantiate.
//
// NOT for synthesis or simulation of the real part: synth_ecp5 and nextpnr use Lattice's
// own cell definitions. Verilator does not know vendor cells and a plain yosys
// `hierarchy -check` refuses unknown modules, so the static gates (tests/tests/all/rtl_gates.rs)
// read this file beside a top. Each module declares the ports and parameters the instance
// in hdl/src uses, with the names of the real cell, so a misspelt port or parameter still
// fails the lint; yosys treats the module as a black box.

// EHXPLLL, the ECP5 PLL (hdl/src/ecp5_pll.rs). Stand-in behaviour: CLKOP follows CLKI and
// LOCK is high (Verilator never runs it; it only has to be lint-clean).
(* blackbox *)
module EHXPLLL #(
   parameter PLLRST_ENA = "DISABLED",
   parameter INTFB_WAKE = "DISABLED",
   parameter STDBY_ENABLE = "DISABLED",
   parameter DPHASE_SOURCE = "DISABLED",
   parameter OUTDIVIDER_MUXA = "DIVA",
   parameter integer CLKI_DIV = 1,
   parameter integer CLKFB_DIV = 1,
   parameter integer CLKOP_DIV = 8,
   parameter integer CLKOP_CPHASE = 0,
   parameter integer CLKOP_FPHASE = 0,
   parameter CLKOP_ENABLE = "ENABLED",
   parameter FEEDBK_PATH = "CLKOP"
) (
   input wire CLKI,
   input wire CLKFB,
   input wire RST,
   input wire STDBY,
   input wire PHASESEL0,
   input wire PHASESEL1,
   input wire PHASEDIR,
   input wire PHASESTEP,
   input wire PHASELOADREG,
   input wire PLLWAKESYNC,
   input wire ENCLKOP,
   output wire CLKOP,
   output wire LOCK
);
   assign CLKOP = CLKI;
   assign LOCK = 1'b1;
   // The stand-in ignores the feedback, controls and settings (Verilator's unused_* names).
   wire unused_inputs = ^{CLKFB, RST, STDBY, PHASESEL0, PHASESEL1, PHASEDIR, PHASESTEP,
                          PHASELOADREG, PLLWAKESYNC, ENCLKOP};
   localparam integer unused_params = CLKI_DIV + CLKFB_DIV + CLKOP_DIV + CLKOP_CPHASE
                                      + CLKOP_FPHASE
                                      + (PLLRST_ENA == "" ? 1 : 0) + (INTFB_WAKE == "" ? 1 : 0)
                                      + (STDBY_ENABLE == "" ? 1 : 0)
                                      + (DPHASE_SOURCE == "" ? 1 : 0)
                                      + (OUTDIVIDER_MUXA == "" ? 1 : 0)
                                      + (CLKOP_ENABLE == "" ? 1 : 0)
                                      + (FEEDBK_PATH == "" ? 1 : 0);
endmodule

// MULT18X18D, the ECP5 18 x 18 multiplier (hdl/src/dsp_mul.rs, read only under SYNTHESIS,
// which yosys defines), with the ports DspMul connects (the cascade inputs and the other
// clocks, enables and resets of the real cell stay unconnected). Stand-in behaviour: the
// unsigned product of A and B registered on CLK0 when CE0, the one mode DspMul uses
// (REG_OUTPUT_CLK = "CLK0", no other register).
(* blackbox *)
module MULT18X18D #(
   parameter REG_INPUTA_CLK = "NONE",
   parameter REG_INPUTB_CLK = "NONE",
   parameter REG_INPUTC_CLK = "NONE",
   parameter REG_PIPELINE_CLK = "NONE",
   parameter REG_OUTPUT_CLK = "NONE",
   parameter REG_OUTPUT_CE = "CE0",
   parameter REG_OUTPUT_RST = "RST0",
   parameter GSR = "ENABLED",
   parameter RESETMODE = "SYNC"
) (
   input wire A0,
   input wire A1,
   input wire A2,
   input wire A3,
   input wire A4,
   input wire A5,
   input wire A6,
   input wire A7,
   input wire A8,
   input wire A9,
   input wire A10,
   input wire A11,
   input wire A12,
   input wire A13,
   input wire A14,
   input wire A15,
   input wire A16,
   input wire A17,
   input wire B0,
   input wire B1,
   input wire B2,
   input wire B3,
   input wire B4,
   input wire B5,
   input wire B6,
   input wire B7,
   input wire B8,
   input wire B9,
   input wire B10,
   input wire B11,
   input wire B12,
   input wire B13,
   input wire B14,
   input wire B15,
   input wire B16,
   input wire B17,
   input wire C0,
   input wire C1,
   input wire C2,
   input wire C3,
   input wire C4,
   input wire C5,
   input wire C6,
   input wire C7,
   input wire C8,
   input wire C9,
   input wire C10,
   input wire C11,
   input wire C12,
   input wire C13,
   input wire C14,
   input wire C15,
   input wire C16,
   input wire C17,
   input wire SIGNEDA,
   input wire SIGNEDB,
   input wire SOURCEA,
   input wire SOURCEB,
   input wire CLK0,
   input wire CE0,
   input wire RST0,
   output wire P0,
   output wire P1,
   output wire P2,
   output wire P3,
   output wire P4,
   output wire P5,
   output wire P6,
   output wire P7,
   output wire P8,
   output wire P9,
   output wire P10,
   output wire P11,
   output wire P12,
   output wire P13,
   output wire P14,
   output wire P15,
   output wire P16,
   output wire P17,
   output wire P18,
   output wire P19,
   output wire P20,
   output wire P21,
   output wire P22,
   output wire P23,
   output wire P24,
   output wire P25,
   output wire P26,
   output wire P27,
   output wire P28,
   output wire P29,
   output wire P30,
   output wire P31,
   output wire P32,
   output wire P33,
   output wire P34,
   output wire P35
);
   reg [35:0] p_q = 36'd0;
   always @(posedge CLK0) begin
      if (CE0) p_q <= {18'd0, {A17, A16, A15, A14, A13, A12, A11, A10, A9, A8, A7, A6, A5, A4,
         A3, A2, A1, A0}} * {18'd0, {B17, B16, B15, B14, B13, B12, B11, B10, B9, B8, B7, B6, B5,
         B4, B3, B2, B1, B0}};
   end
   assign {P35, P34, P33, P32, P31, P30, P29, P28, P27, P26, P25, P24, P23, P22, P21, P20, P19,
      P18, P17, P16, P15, P14, P13, P12, P11, P10, P9, P8, P7, P6, P5, P4, P3, P2, P1, P0} =
      p_q;
   // The stand-in ignores C, the sign and source selects, the reset and the settings
   // (Verilator's unused_* names).
   wire unused_inputs = ^{C0, C1, C2, C3, C4, C5, C6, C7, C8, C9, C10, C11, C12, C13, C14, C15,
      C16, C17, SIGNEDA, SIGNEDB, SOURCEA, SOURCEB, RST0};
   localparam integer unused_params = (REG_INPUTA_CLK == "" ? 1 : 0)
                                      + (REG_INPUTB_CLK == "" ? 1 : 0)
                                      + (REG_INPUTC_CLK == "" ? 1 : 0)
                                      + (REG_PIPELINE_CLK == "" ? 1 : 0)
                                      + (REG_OUTPUT_CLK == "" ? 1 : 0)
                                      + (REG_OUTPUT_CE == "" ? 1 : 0)
                                      + (REG_OUTPUT_RST == "" ? 1 : 0) + (GSR == "" ? 1 : 0)
                                      + (RESETMODE == "" ? 1 : 0);
endmodule
