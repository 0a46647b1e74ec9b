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
//!  clk_25mhz ─► Ecp5Pll (EHXPLLL, x4) ─► clk: the one clock domain, 100 MHz ─────────┐
//!                  └─ locked ─► 2-FF sync ─┐                                          │
//!  btn1 ─────────────────────► 2-FF sync ─┼─► BoardReset ─► reset ─► uart_bridge,     │
//!  power-on counter (restarts while unlocked) ┘              roce_cc_top, timebase   │
//!  ftdi_txd ─► uart_bridge ─ m_axil ─► roce_cc_top ─ tb_restart, tb_p_* ─► timebase ─┘
//!  ftdi_rxd ◄─┘                        ▲ now, now_cnp ◄───────────────────┘
//!  sw0 ─► traffic_gen ─ CNP, transmit, receive events ─► roce_cc_top
//!         (ACK and query streams idle: queries come from the register block; rate
//!          reports and CNP requests always taken)
//! ```
//!
//! Events: the board has no network port, so DIP switch 1 (`sw0`) turns on an on-chip
//! pseudo-random source of the core's CNP, transmit and receive streams
//! ([`crate::traffic_gen`]). With the switch off the streams are idle and the core only
//! answers the register block. Because the source exists, synthesis keeps the DCQCN
//! datapaths (the RP's cuts and increases, the NP and its CNP limiter), so the bitstream's
//! size and timing are those of DCQCN in full, and on a board the counters and QP
//! snapshots show it working.
//!
//! The ACK stream is tied idle, so the HPCC window unit is in the bitstream with its
//! command path only (mode changes and queries of HPCC QPs; a QP in HPCC mode keeps its
//! initial rate), and synthesis removes its ACK datapath. The LFE5U-85F does not hold the
//! RP and the whole window unit: with the generator's ACKs connected the board design
//! needs 75 718 flip-flops (90 % of 83 640) and nextpnr finds no legal placement, and the
//! core alone in its synthesis shell at 1024 QPs needs 75 189 (also unplaceable);
//! flip-flops hardly depend on the QP count (the per-QP state is in block RAM), so no QP
//! count fits both (docs/synthesis.md, "The 85F and HPCC").
//!
//! Clocking: an ECP5 PLL ([`crate::ecp5_pll::Ecp5Pll`], [`PLL_25_TO_100`]) multiplies the
//! 25 MHz oscillator by four; its output, [`BOARD_CORE_MHZ`] = 100 MHz, clocks everything
//! (core, register block, time base, UART bridge, LEDs). Nothing runs on the oscillator
//! itself, so the design has one clock domain. The bitstream is built with
//! `clock_mhz = 100`: the time base counts 100 cycles per microsecond, the register block
//! reports 100 MHz, and the UART divisor is computed at 100 MHz (868 for 115200 baud).
//! nextpnr derives the 100 MHz constraint of the PLL output from the instance's
//! `FREQUENCY_PIN_CLKOP` attribute; constraints/ulx3s.lpf constrains only the oscillator.
//!
//! Reset ([`BoardReset`]): the design is held in reset until the PLL reports lock (its
//! LOCK output, synchronised by two flip-flops in the 100 MHz domain) and then for 15 more
//! cycles (a 4-bit power-on counter that restarts whenever lock is lost), and while FIRE1
//! (`btn1`, active high) is pressed, through a second two-flip-flop synchroniser. The reset
//! is synchronous; its register starts in reset (the ECP5's flip-flops start at zero and
//! the register holds "running"). The only asynchronous inputs are `btn1`, the PLL's lock
//! and `ftdi_txd` (synchronised in the bridge).

use crate::core_top::QPN_W;
use crate::dcqcn_np::{DSCP_W, PRIO_W};
use crate::dcqcn_rp::widths::{ALPHA_W, MODE_W, RATE_W, SUB_W};
use crate::ecp5_pll::{Ecp5Pll, Ecp5PllConfig, PLL_25_TO_100};
use crate::hpcc_window::hop_load::U_W;
use crate::hpcc_window::window::WIN_W;
use crate::timebase::Timebase;
use crate::top::RoceCcTop;
use crate::traffic_gen::TrafficGen;
use crate::uart_bridge::{UartBridge, default_timeout};
use roce_cc_params::Params;
use rust_hdl::prelude::*;

/// The ULX3S oscillator, MHz: the PLL's input (pin G2).
pub const BOARD_OSC_MHZ: u32 = 25;
/// The board design's core clock, MHz: the PLL's output, the one clock every part of the
/// design runs on.
pub const BOARD_CORE_MHZ: u32 = 100;
/// The PLL of the board: [`BOARD_OSC_MHZ`] in, [`BOARD_CORE_MHZ`] out.
pub const BOARD_PLL: Ecp5PllConfig = PLL_25_TO_100;
/// The clock the board design's logic runs at, MHz (= [`BOARD_CORE_MHZ`]; the oscillator is
/// [`BOARD_OSC_MHZ`]).
pub const BOARD_CLOCK_MHZ: u32 = BOARD_CORE_MHZ;
/// The board's clock period, whole ns (the traffic generator's time step).
pub const BOARD_NS_PER_CYCLE: u64 = 1000 / BOARD_CORE_MHZ as u64;

// The PLL's settings agree with the board's clocks (checked when this compiles).
const _: () = assert!(BOARD_PLL.clki_mhz == BOARD_OSC_MHZ);
const _: () = assert!(
    BOARD_PLL.clki_mhz / BOARD_PLL.clki_div * BOARD_PLL.clkfb_div == BOARD_CORE_MHZ
        && BOARD_PLL.clki_mhz % BOARD_PLL.clki_div == 0
);

/// The UART's baud rate as shipped.
pub const BOARD_BAUD: u32 = 115_200;
/// QP-address bits of the board design (1024 QPs).
pub const BOARD_QB: usize = 10;

/// The build parameters of the board's bitstream: 1024 QPs at [`BOARD_CORE_MHZ`].
pub fn board_params() -> Params {
    board_params_for(BOARD_QB)
}

/// The build parameters of a board bitstream for `2^qb` QPs at [`BOARD_CORE_MHZ`].
pub fn board_params_for(qb: usize) -> Params {
    Params {
        qps: 1 << qb,
        clock_mhz: BOARD_CORE_MHZ,
        ..Params::default()
    }
}

/// The UART divisor for `baud` at the board's core clock, [`BOARD_CORE_MHZ`] (nearest
/// integer); panics if the rate error is above 2% (the receiver tolerates about 4% in
/// total).
pub fn board_divisor(baud: u32) -> u32 {
    let clock = BOARD_CORE_MHZ as u64 * 1_000_000;
    let div = ((clock + baud as u64 / 2) / baud as u64) as u32;
    let err = (clock as f64 / div as f64 - baud as f64).abs() / baud as f64;
    assert!(
        err < 0.02,
        "board_ulx3s: {baud} baud is {:.1}% off at {BOARD_CORE_MHZ} MHz (divisor {div})",
        err * 100.0
    );
    div
}

/// The ULX3S board top for `2^QB` QPs (the shipped bitstream: `QB` = [`BOARD_QB`]).
#[derive(LogicBlock)]
pub struct BoardUlx3s<const QB: usize> {
    /// The 25 MHz oscillator (pin G2): the PLL's reference, nothing else.
    pub clk_25mhz: Signal<In, Clock>,
    /// FIRE1 button (pin R1, active high, pulled down): reset while pressed.
    pub btn1: Signal<In, Bit>,
    /// DIP switch 1 (pin E8, pulled down): on = the traffic generator offers events.
    pub sw0: Signal<In, Bit>,
    /// Serial data from the host: the FTDI chip's TXD (pin M1).
    pub ftdi_txd: Signal<In, Bit>,
    /// Serial data to the host: the FTDI chip's RXD (pin L4).
    pub ftdi_rxd: Signal<Out, Bit>,
    /// LED 0 (pin B2): heartbeat, about 1.5 Hz (the PLL's output clock runs).
    pub led0: Signal<Out, Bit>,
    /// LED 1 (pin C2): the UART bridge is busy with a request.
    pub led1: Signal<Out, Bit>,
    /// LED 2 (pin C1): the core is applying parameters or sweeping its RAM.
    pub led2: Signal<Out, Bit>,
    /// LED 3 (pin D2): the design is held in reset (PLL not locked yet, power-on count,
    /// or FIRE1 pressed).
    pub led3: Signal<Out, Bit>,

    pll: Ecp5Pll,
    rst: BoardReset,
    /// The core clock: the PLL's output.
    clk: Signal<Local, Clock>,
    bridge: UartBridge,
    top: RoceCcTop<QB>,
    tb: Timebase,
    traffic: TrafficGen<QB>,
    heartbeat: DFF<Bits<HEARTBEAT_W>>,
    /// LEDs 1 to 3, registered: each pad's route starts at a flip-flop, not at the register
    /// block's logic (an unregistered LED output is a long route to the pad on top of it).
    led1_q: DFF<Bit>,
    led2_q: DFF<Bit>,
    led3_q: DFF<Bit>,
    k_one_hb: Constant<Bits<HEARTBEAT_W>>,
    k_clock_mhz: Constant<Bits<SUB_W>>,
    k_qpn0: Constant<Bits<QPN_W>>,
    /// Outputs of the core a board without a pacer or CNP generator leaves unused.
    unused_outputs: Signal<Local, Bit>,
    unused_rate: Signal<Local, Bits<RATE_W>>,
    unused_alpha: Signal<Local, Bits<ALPHA_W>>,
    unused_mode: Signal<Local, Bits<MODE_W>>,
    unused_dscp: Signal<Local, Bits<DSCP_W>>,
    unused_prio: Signal<Local, Bits<PRIO_W>>,
    unused_qp: Signal<Local, Bits<QB>>,
    unused_u: Signal<Local, Bits<U_W>>,
    unused_window: Signal<Local, Bits<WIN_W>>,
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
            sw0: Default::default(),
            ftdi_txd: Default::default(),
            ftdi_rxd: Default::default(),
            led0: Default::default(),
            led1: Default::default(),
            led2: Default::default(),
            led3: Default::default(),
            pll: Ecp5Pll::new(BOARD_PLL),
            rst: BoardReset::default(),
            clk: Default::default(),
            bridge: UartBridge::new(div, default_timeout(div)),
            top: RoceCcTop::new(&board_params_for(QB), roce_cc_regmap::fw_id()),
            tb: Timebase::default(),
            traffic: TrafficGen::new(BOARD_NS_PER_CYCLE),
            heartbeat: Default::default(),
            led1_q: Default::default(),
            led2_q: Default::default(),
            led3_q: Default::default(),
            k_one_hb: Constant::new(1.into()),
            k_clock_mhz: Constant::new((BOARD_CORE_MHZ as u64).into()),
            k_qpn0: Constant::new(0.into()),
            unused_outputs: Default::default(),
            unused_rate: Default::default(),
            unused_alpha: Default::default(),
            unused_mode: Default::default(),
            unused_dscp: Default::default(),
            unused_prio: Default::default(),
            unused_qp: Default::default(),
            unused_u: Default::default(),
            unused_window: Default::default(),
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
        // ---- clock: the PLL's output drives every register ----
        self.pll.clk_in.next = self.clk_25mhz.val();
        self.clk.next = self.pll.clk_out.val();
        dff_setup!(self, clk, heartbeat, led1_q, led2_q, led3_q);
        self.rst.clock.next = self.clk.val();
        self.bridge.clock.next = self.clk.val();
        self.top.clock.next = self.clk.val();
        self.tb.clock.next = self.clk.val();
        self.traffic.clock.next = self.clk.val();

        // ---- reset: until the PLL locks, power-on count, FIRE1 ----
        self.rst.locked.next = self.pll.locked.val();
        self.rst.button.next = self.btn1.val();
        self.bridge.reset.next = self.rst.reset.val();
        self.top.reset.next = self.rst.reset.val();
        self.tb.reset.next = self.rst.reset.val();
        self.traffic.reset.next = self.rst.reset.val();

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

        // ---- events from the traffic generator (query stream idle) ----
        self.traffic.enable.next = self.sw0.val();
        self.top.s_cnp_valid.next = self.traffic.m_cnp_valid.val();
        self.traffic.m_cnp_ready.next = self.top.s_cnp_ready.val();
        self.top.s_cnp_qpn.next = self.traffic.m_cnp_qpn.val();
        self.top.s_tx_valid.next = self.traffic.m_tx_valid.val();
        self.traffic.m_tx_ready.next = self.top.s_tx_ready.val();
        self.top.s_tx_qpn.next = self.traffic.m_tx_qpn.val();
        self.top.s_tx_bytes.next = self.traffic.m_tx_bytes.val();
        self.top.s_rx_valid.next = self.traffic.m_rx_valid.val();
        self.traffic.m_rx_ready.next = self.top.s_rx_ready.val();
        self.top.s_rx_qpn.next = self.traffic.m_rx_qpn.val();
        self.top.s_rx_ecn.next = self.traffic.m_rx_ecn.val();
        // The ACK stream is tied idle: the 85F does not hold the RP and the window unit's
        // ACK datapath together (module docs).
        self.top.s_ack_valid.next = false;
        self.traffic.m_ack_ready.next = false;
        self.top.s_ack_qpn.next = self.traffic.m_ack_qpn.val();
        self.top.s_ack_seq.next = self.traffic.m_ack_seq.val();
        self.top.s_ack_snd_nxt.next = self.traffic.m_ack_snd_nxt.val();
        self.top.s_ack_nhop.next = self.traffic.m_ack_nhop.val();
        self.top.s_ack_hop[0].next = self.traffic.m_ack_h0.val();
        self.top.s_ack_hop[1].next = self.traffic.m_ack_h1.val();
        self.top.s_ack_hop[2].next = self.traffic.m_ack_h2.val();
        self.top.s_ack_hop[3].next = self.traffic.m_ack_h3.val();
        self.top.s_ack_hop[4].next = self.traffic.m_ack_h4.val();
        self.top.s_query_valid.next = false;
        self.top.s_query_qpn.next = self.k_qpn0.val();
        self.unused_u.next = self.top.m_rate_u.val();
        self.unused_window.next = self.top.m_rate_window.val();
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
            ^ self.top.s_query_ready.val()
            ^ self.top.s_ack_ready.val()
            ^ self.traffic.m_ack_valid.val()
            ^ self.bridge.error.val();

        // ---- LEDs ----
        self.heartbeat.d.next = self.heartbeat.q.val() + self.k_one_hb.val();
        self.led0.next = self.heartbeat.q.val().get_bit(25);
        self.led1_q.d.next = self.bridge.busy.val();
        self.led2_q.d.next = self.top.busy.val();
        self.led3_q.d.next = self.rst.reset.val();
        self.led1.next = self.led1_q.q.val();
        self.led2.next = self.led2_q.q.val();
        self.led3.next = self.led3_q.q.val();
    }
}

/// Width of the heartbeat counter: its top bit (bit 25, LED 0) toggles every 2^25 cycles,
/// a period of about 0.67 s (1.5 Hz) at 100 MHz.
const HEARTBEAT_W: usize = 26;

/// Power-on count: cycles of reset after the PLL's lock is seen (4-bit counter).
const POR_CYCLES: u64 = 15;

/// The board's reset, in the core clock's domain: high until the PLL's `locked` has been
/// seen high (through two flip-flops) for [`POR_CYCLES`] cycles, and while `button` is
/// pressed (through two more). Losing lock restarts the count. The output comes from a
/// flip-flop that holds "running" (its inverse), so a design whose flip-flops start at zero
/// starts in reset.
#[derive(LogicBlock)]
pub struct BoardReset {
    /// The core clock (the PLL's output).
    pub clock: Signal<In, Clock>,
    /// The PLL's lock, asynchronous to `clock`: synchronised here.
    pub locked: Signal<In, Bit>,
    /// A reset button, active high, asynchronous: synchronised here.
    pub button: Signal<In, Bit>,
    /// Synchronous reset for the design, active high.
    pub reset: Signal<Out, Bit>,
    lock_s1: DFF<Bit>,
    lock_s2: DFF<Bit>,
    btn_s1: DFF<Bit>,
    btn_s2: DFF<Bit>,
    por: DFF<Bits<4>>,
    run: DFF<Bit>,
    k_por_done: Constant<Bits<4>>,
    k_one4: Constant<Bits<4>>,
    k_zero4: Constant<Bits<4>>,
}

impl Default for BoardReset {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            locked: Default::default(),
            button: Default::default(),
            reset: Default::default(),
            lock_s1: Default::default(),
            lock_s2: Default::default(),
            btn_s1: Default::default(),
            btn_s2: Default::default(),
            por: Default::default(),
            run: Default::default(),
            k_por_done: Constant::new(POR_CYCLES.into()),
            k_one4: Constant::new(1.into()),
            k_zero4: Constant::new(0.into()),
        }
    }
}

impl Logic for BoardReset {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, lock_s1, lock_s2, btn_s1, btn_s2, por, run);
        self.lock_s1.d.next = self.locked.val();
        self.lock_s2.d.next = self.lock_s1.q.val();
        self.btn_s1.d.next = self.button.val();
        self.btn_s2.d.next = self.btn_s1.q.val();
        if !self.lock_s2.q.val() {
            self.por.d.next = self.k_zero4.val();
        } else if self.por.q.val() != self.k_por_done.val() {
            self.por.d.next = self.por.q.val() + self.k_one4.val();
        }
        self.run.d.next = self.lock_s2.q.val()
            & (self.por.q.val() == self.k_por_done.val())
            & !self.btn_s2.q.val();
        self.reset.next = !self.run.q.val();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One rising and one falling edge of `r`'s clock, settling after each.
    fn cycle(r: &mut BoardReset) {
        for level in [true, false] {
            r.clock.next = Clock::from(level);
            assert!(simulate(r, 100), "BoardReset did not settle");
        }
    }

    /// Cycles until `reset` is low, at most `limit`.
    fn cycles_to_release(r: &mut BoardReset, limit: usize) -> Option<usize> {
        (1..=limit).find(|_| {
            cycle(r);
            !r.reset.val()
        })
    }

    #[test]
    fn reset_waits_for_lock_then_counts_and_follows_the_button() {
        let mut r = BoardReset::default();
        r.connect_all();
        assert!(simulate(&mut r, 100));
        assert!(r.reset.val(), "starts in reset");
        // No lock: reset stays.
        assert_eq!(cycles_to_release(&mut r, 200), None);
        // Lock: two synchroniser cycles, POR_CYCLES counting, one for the output register.
        r.locked.next = true;
        assert_eq!(
            cycles_to_release(&mut r, 200),
            Some(2 + POR_CYCLES as usize + 1)
        );
        // The button resets through its own synchroniser and releases at once.
        r.button.next = true;
        assert_eq!(
            (1..=10).find(|_| {
                cycle(&mut r);
                r.reset.val()
            }),
            Some(3)
        );
        r.button.next = false;
        assert_eq!(cycles_to_release(&mut r, 10), Some(3));
        // Losing lock resets, and the count starts again after lock returns.
        r.locked.next = false;
        cycle(&mut r);
        cycle(&mut r);
        cycle(&mut r);
        assert!(r.reset.val());
        r.locked.next = true;
        assert_eq!(
            cycles_to_release(&mut r, 200),
            Some(2 + POR_CYCLES as usize + 1)
        );
    }

    #[test]
    fn board_clock_is_the_pll_output() {
        assert_eq!(BOARD_CLOCK_MHZ, 100);
        assert_eq!(BOARD_PLL.clkop_mhz(), BOARD_CORE_MHZ as f64);
        assert_eq!(board_params_for(4).clock_mhz, 100);
        assert_eq!(board_divisor(115_200), 868);
        assert_eq!(board_divisor(1_000_000), 100);
    }

    #[test]
    fn board_verilog_instantiates_the_pll_and_clocks_everything_from_it() {
        let v = crate::verilog_of(BoardUlx3s::<1>::with_qps_baud(BOARD_BAUD));
        assert_eq!(v.matches("EHXPLLL #(").count(), 1, "one PLL");
        for want in crate::ecp5_pll::PLL_25_TO_100_MARKERS {
            assert!(v.contains(want), "board Verilog lacks {want:?}");
        }
        // The oscillator goes to the PLL only: every other instance's clock is the PLL's.
        let osc_uses: Vec<&str> = v
            .lines()
            .filter(|l| {
                l.contains("clk_25mhz")
                    && !l.contains("input wire")
                    && !l.trim_start().starts_with("module top(")
            })
            .collect();
        assert!(
            osc_uses.iter().all(|l| l.contains("pll$clk_in")),
            "the oscillator drives something else: {osc_uses:?}"
        );
    }
}
