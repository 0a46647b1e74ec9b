// Lint-only stand-ins for the Lattice ECP5 vendor cells roce-cc's tops instantiate.
//
// NOT for synthesis or simulation of the real part: synth_ecp5 and nextpnr use Lattice's
// own cell definitions. Verilator does not know vendor cells and a plain yosys
// `hierarchy -check` refuses unknown modules, so the static gates (tests/tests/rtl_gates.rs)
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
