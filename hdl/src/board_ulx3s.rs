//! `board_ulx3s`: a board design for the Radiona ULX3S (Lattice ECP5 LFE5U-85F): the core
//! with its register block (`roce_cc_top`, 1024 QPs as shipped), the hardware time base and
//! the UART bridge on the board's FTDI USB-serial port, so the host driver can reach the
//! registers with `roce-cc driver --bar uart:/dev/ttyUSB0` (docs/uart_bridge.md,
//! constraints/ulx3s.lpf). `roce-cc synth --board ulx3s-85f` builds its bitstream
//! (docs/synthesis.md).
//!
//! The design is generic over its QP-address bits, `BoardUlx3s<QB>` (`2^QB` QPs); the
//! shipped bitstream is `BoardUlx3s<BOARD_QB>` (1024 QPs), which `BoardUlx3s::new()` and
//! `BoardUlx3s::with_baud()` build. Smaller builds (`BoardUlx3s::<4>::with_qps_baud()`)
//! exist for quick tests of the flow.
//!
//! ```text
//!  clk_25mhz ─► (one clock domain, 25 MHz, no PLL) ─────────────────────────────────┐
//!  btn1 ─► 2-FF sync ─┐                                                              │
//!  power-on counter ──┴─► reset ─► uart_bridge, roce_cc_top, timebase               │
//!  ftdi_txd ─► uart_bridge ─ m_axil ─► roce_cc_top ─ tb_restart, tb_p_* ─► timebase ─┘
//!  ftdi_rxd ◄─┘                        ▲ now, now_cnp ◄───────────────────┘
//!             event streams tied idle; rate reports and CNP requests always taken
//! ```
//!
//! Clocking: the core runs directly from the 25 MHz oscillator (no EHXPLLL). The bitstream
//! is built with `clock_mhz = 25`, so the time base counts 25 cycles per microsecond and
//! the register block reports 25 MHz. A PLL to a faster core clock is a later step.
//!
//! Reset: a 4-bit power-on counter holds reset for 15 cycles after configuration (the
//! ECP5's flip-flops start at zero), and FIRE1 (`btn1`, active high) resets the whole
//! design while pressed, through a two-flip-flop synchroniser. The design is single-clock;
//! the only asynchronous inputs are `btn1` and `ftdi_txd` (synchronised in the bridge).

use crate::core_top::QPN_W;
use crate::dcqcn_np::{DSCP_W, PRIO_W};
use crate::dcqcn_rp::widths::{ALPHA_W, BYTES_W, MODE_W, RATE_W, SUB_W};
use crate::timebase::Timebase;
use crate::top::RoceCcTop;
use crate::uart_bridge::{UartBridge, default_timeout};
use roce_cc_params::Params;
use rust_hdl::prelude::*;

/// The ULX3S oscillator, MHz (the core clock: no PLL).
pub const BOARD_CLOCK_MHZ: u32 = 25;
/// The UART's baud rate as shipped.
pub const BOARD_BAUD: u32 = 115_200;
/// QP-address bits of the board design (1024 QPs).
pub const BOARD_QB: usize = 10;

/// The build parameters of the board's bitstream: 1024 QPs at 25 MHz.
pub fn board_params() -> Params {
    board_params_for(BOARD_QB)
}

/// The build parameters of a board bitstream for `2^qb` QPs at 25 MHz.
pub fn board_params_for(qb: usize) -> Params {
    Params {
        qps: 1 << qb,
        clock_mhz: BOARD_CLOCK_MHZ,
        ..Params::default()
    }
}

/// The UART divisor for `baud` at the board clock (nearest integer); panics if the rate
/// error is above 2% (the receiver tolerates about 4% in total).
pub fn board_divisor(baud: u32) -> u32 {
    let clock = BOARD_CLOCK_MHZ as u64 * 1_000_000;
    let div = ((clock + baud as u64 / 2) / baud as u64) as u32;
    let err = (clock as f64 / div as f64 - baud as f64).abs() / baud as f64;
    assert!(
        err < 0.02,
        "board_ulx3s: {baud} baud is {:.1}% off at {BOARD_CLOCK_MHZ} MHz (divisor {div})",
        err * 100.0
    );
    div
}

/// The ULX3S board top for `2^QB` QPs (the shipped bitstream: `QB` = [`BOARD_QB`]).
#[derive(LogicBlock)]
pub struct BoardUlx3s<const QB: usize> {
    /// The 25 MHz oscillator (pin G2).
    pub clk_25mhz: Signal<In, Clock>,
    /// FIRE1 button (pin R1, active high, pulled down): reset while pressed.
    pub btn1: Signal<In, Bit>,
    /// Serial data from the host: the FTDI chip's TXD (pin M1).
    pub ftdi_txd: Signal<In, Bit>,
    /// Serial data to the host: the FTDI chip's RXD (pin L4).
    pub ftdi_rxd: Signal<Out, Bit>,
    /// LED 0 (pin B2): heartbeat, about 1.5 Hz (the clock runs).
    pub led0: Signal<Out, Bit>,
    /// LED 1 (pin C2): the UART bridge is busy with a request.
    pub led1: Signal<Out, Bit>,
    /// LED 2 (pin C1): the core is applying parameters or sweeping its RAM.
    pub led2: Signal<Out, Bit>,
    /// LED 3 (pin D2): the design is held in reset.
    pub led3: Signal<Out, Bit>,

    bridge: UartBridge,
    top: RoceCcTop<QB>,
    tb: Timebase,
    por: DFF<Bits<4>>,
    btn_s1: DFF<Bit>,
    btn_s2: DFF<Bit>,
    rst: DFF<Bit>,
    heartbeat: DFF<Bits<24>>,
    k_por_done: Constant<Bits<4>>,
    k_one4: Constant<Bits<4>>,
    k_one24: Constant<Bits<24>>,
    k_clock_mhz: Constant<Bits<SUB_W>>,
    k_qpn0: Constant<Bits<QPN_W>>,
    k_bytes0: Constant<Bits<BYTES_W>>,
    /// Outputs of the core a board without a pacer or CNP generator leaves unused.
    unused_outputs: Signal<Local, Bit>,
    unused_rate: Signal<Local, Bits<RATE_W>>,
    unused_alpha: Signal<Local, Bits<ALPHA_W>>,
    unused_mode: Signal<Local, Bits<MODE_W>>,
    unused_dscp: Signal<Local, Bits<DSCP_W>>,
    unused_prio: Signal<Local, Bits<PRIO_W>>,
    unused_qp: Signal<Local, Bits<QB>>,
}

impl BoardUlx3s<BOARD_QB> {
    /// The shipped board design (1024 QPs) with the UART at [`BOARD_BAUD`].
    pub fn new() -> Self {
        Self::with_baud(BOARD_BAUD)
    }

    /// The shipped board design (1024 QPs) with the UART at `baud` (e.g. 1_000_000; see
    /// [`board_divisor`]).
    pub fn with_baud(baud: u32) -> Self {
        Self::with_qps_baud(baud)
    }
}

impl<const QB: usize> BoardUlx3s<QB> {
    /// The board design for `2^QB` QPs with the UART at `baud`.
    pub fn with_qps_baud(baud: u32) -> Self {
        let div = board_divisor(baud);
        Self {
            clk_25mhz: Default::default(),
            btn1: Default::default(),
            ftdi_txd: Default::default(),
            ftdi_rxd: Default::default(),
            led0: Default::default(),
            led1: Default::default(),
            led2: Default::default(),
            led3: Default::default(),
            bridge: UartBridge::new(div, default_timeout(div)),
            top: RoceCcTop::new(&board_params_for(QB), roce_cc_regmap::fw_id()),
            tb: Timebase::default(),
            por: Default::default(),
            btn_s1: Default::default(),
            btn_s2: Default::default(),
            rst: Default::default(),
            heartbeat: Default::default(),
            k_por_done: Constant::new(15.into()),
            k_one4: Constant::new(1.into()),
            k_one24: Constant::new(1.into()),
            k_clock_mhz: Constant::new((BOARD_CLOCK_MHZ as u64).into()),
            k_qpn0: Constant::new(0.into()),
            k_bytes0: Constant::new(0.into()),
            unused_outputs: Default::default(),
            unused_rate: Default::default(),
            unused_alpha: Default::default(),
            unused_mode: Default::default(),
            unused_dscp: Default::default(),
            unused_prio: Default::default(),
            unused_qp: Default::default(),
        }
    }
}

impl Default for BoardUlx3s<BOARD_QB> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const QB: usize> Logic for BoardUlx3s<QB> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clk_25mhz, por, btn_s1, btn_s2, rst, heartbeat);
        self.bridge.clock.next = self.clk_25mhz.val();
        self.top.clock.next = self.clk_25mhz.val();
        self.tb.clock.next = self.clk_25mhz.val();

        // ---- reset: power-on counter and the synchronised button ----
        self.btn_s1.d.next = self.btn1.val();
        self.btn_s2.d.next = self.btn_s1.q.val();
        if self.por.q.val() != self.k_por_done.val() {
            self.por.d.next = self.por.q.val() + self.k_one4.val();
        }
        self.rst.d.next = (self.por.q.val() != self.k_por_done.val()) | self.btn_s2.q.val();
        self.bridge.reset.next = self.rst.q.val();
        self.top.reset.next = self.rst.q.val();
        self.tb.reset.next = self.rst.q.val();

        // ---- UART bridge -> register block ----
        self.bridge.rxd.next = self.ftdi_txd.val();
        self.ftdi_rxd.next = self.bridge.txd.val();
        self.top.s_axil_awvalid.next = self.bridge.m_axil_awvalid.val();
        self.bridge.m_axil_awready.next = self.top.s_axil_awready.val();
        self.top.s_axil_awaddr.next = self.bridge.m_axil_awaddr.val();
        self.top.s_axil_wvalid.next = self.bridge.m_axil_wvalid.val();
        self.bridge.m_axil_wready.next = self.top.s_axil_wready.val();
        self.top.s_axil_wdata.next = self.bridge.m_axil_wdata.val();
        self.top.s_axil_wstrb.next = self.bridge.m_axil_wstrb.val();
        self.bridge.m_axil_bvalid.next = self.top.s_axil_bvalid.val();
        self.top.s_axil_bready.next = self.bridge.m_axil_bready.val();
        self.bridge.m_axil_bresp.next = self.top.s_axil_bresp.val();
        self.top.s_axil_arvalid.next = self.bridge.m_axil_arvalid.val();
        self.bridge.m_axil_arready.next = self.top.s_axil_arready.val();
        self.top.s_axil_araddr.next = self.bridge.m_axil_araddr.val();
        self.bridge.m_axil_rvalid.next = self.top.s_axil_rvalid.val();
        self.top.s_axil_rready.next = self.bridge.m_axil_rready.val();
        self.bridge.m_axil_rdata.next = self.top.s_axil_rdata.val();
        self.bridge.m_axil_rresp.next = self.top.s_axil_rresp.val();

        // ---- time base ----
        self.tb.restart.next = self.top.tb_restart.val();
        self.tb.clock_mhz.next = self.k_clock_mhz.val();
        self.tb.p_alpha.next = self.top.tb_p_alpha.val();
        self.tb.p_dec.next = self.top.tb_p_dec.val();
        self.tb.p_inc.next = self.top.tb_p_inc.val();
        self.tb.p_cnp.next = self.top.tb_p_cnp.val();
        self.top.now.next = self.tb.now.val();
        self.top.now_cnp.next = self.tb.now_cnp.val();

        // ---- event streams idle; reports and CNP requests always taken ----
        self.top.s_cnp_valid.next = false;
        self.top.s_cnp_qpn.next = self.k_qpn0.val();
        self.top.s_tx_valid.next = false;
        self.top.s_tx_qpn.next = self.k_qpn0.val();
        self.top.s_tx_bytes.next = self.k_bytes0.val();
        self.top.s_query_valid.next = false;
        self.top.s_query_qpn.next = self.k_qpn0.val();
        self.top.s_rx_valid.next = false;
        self.top.s_rx_qpn.next = self.k_qpn0.val();
        self.top.s_rx_ecn.next = 0.into();
        self.top.m_rate_ready.next = true;
        self.top.m_cnp_ready.next = true;
        self.unused_rate.next = self.top.m_rate_rc.val() ^ self.top.m_rate_rt.val();
        self.unused_alpha.next = self.top.m_rate_alpha.val();
        self.unused_mode.next = self.top.m_rate_mode.val();
        self.unused_dscp.next = self.top.m_cnp_dscp.val();
        self.unused_prio.next = self.top.m_cnp_prio.val();
        self.unused_qp.next = self.top.m_rate_qp.val() ^ self.top.m_cnp_qp.val();
        self.unused_outputs.next = self.top.m_rate_valid.val()
            ^ self.top.m_rate_query.val()
            ^ self.top.m_rate_limited.val()
            ^ self.top.m_cnp_valid.val()
            ^ self.top.s_cnp_ready.val()
            ^ self.top.s_tx_ready.val()
            ^ self.top.s_query_ready.val()
            ^ self.top.s_rx_ready.val()
            ^ self.bridge.error.val();

        // ---- LEDs ----
        self.heartbeat.d.next = self.heartbeat.q.val() + self.k_one24.val();
        self.led0.next = self.heartbeat.q.val().get_bit(23);
        self.led1.next = self.bridge.busy.val();
        self.led2.next = self.top.busy.val();
        self.led3.next = self.rst.q.val();
    }
}
