//! `axil_slave`: an AXI4-Lite slave front end that turns the five AXI channels into one
//! register access at a time on a simple request/acknowledge port.
//!
//! ```text
//!  AW ─► [aw held] ─┐                      ┌──────────┐
//!  W  ─► [w held]  ─┼─► start (round robin)│ reg_*    │──► register decode (csr)
//!  AR ─► [ar held] ─┘      one access      │ request  │◄── reg_ack, reg_rdata, reg_resp
//!  B  ◄─ [b reg] ◄──────────────────────────┤          │
//!  R  ◄─ [r reg] ◄──────────────────────────┘          │
//! ```
//!
//! Channels are taken independently: the address and data of a write may arrive in either
//! order or together; each channel's `ready` is high while its holding register is empty.
//! A write starts once both halves are held and no write response is waiting; a read once
//! its address is held and no read response is waiting. When both could start, the kind
//! that did not go last goes first, so neither can starve the other.
//!
//! An access that starts in cycle `c` shows `reg_valid` from `c+1` until the decode answers
//! with `reg_ack` (in the same cycle or later: the decode may wait, e.g. for a QP snapshot).
//! The answer is registered: `bvalid` (with `bresp`) or `rvalid` (with `rdata`, `rresp`)
//! rises the cycle after `reg_ack` and stays until the master takes it. Responses are
//! `OKAY` (0), `SLVERR` (2) or `DECERR` (3), as the decode says.
//!
//! Reset is synchronous, active high: it empties every holding register, drops any access
//! in flight without acknowledging it, and clears both responses.

use rust_hdl::prelude::*;

/// Byte-address width of the register space (4 KiB).
pub const AXIL_ADDR_W: usize = 12;
/// Data width.
pub const AXIL_DATA_W: usize = 32;
/// Write-strobe width (one bit per byte).
pub const AXIL_STRB_W: usize = 4;
/// Response code width (`OKAY` 0, `SLVERR` 2, `DECERR` 3).
pub const AXIL_RESP_W: usize = 2;

/// The AXI4-Lite slave front end.
#[derive(LogicBlock, Default)]
pub struct AxilSlave {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset, active high.
    pub reset: Signal<In, Bit>,

    /// Write address valid.
    pub s_awvalid: Signal<In, Bit>,
    /// Write address taken (its holding register is empty).
    pub s_awready: Signal<Out, Bit>,
    /// Write byte address.
    pub s_awaddr: Signal<In, Bits<AXIL_ADDR_W>>,
    /// Write data valid.
    pub s_wvalid: Signal<In, Bit>,
    /// Write data taken.
    pub s_wready: Signal<Out, Bit>,
    /// Write data.
    pub s_wdata: Signal<In, Bits<AXIL_DATA_W>>,
    /// Write byte strobes.
    pub s_wstrb: Signal<In, Bits<AXIL_STRB_W>>,
    /// Write response valid.
    pub s_bvalid: Signal<Out, Bit>,
    /// The master takes the write response.
    pub s_bready: Signal<In, Bit>,
    /// Write response code.
    pub s_bresp: Signal<Out, Bits<AXIL_RESP_W>>,
    /// Read address valid.
    pub s_arvalid: Signal<In, Bit>,
    /// Read address taken.
    pub s_arready: Signal<Out, Bit>,
    /// Read byte address.
    pub s_araddr: Signal<In, Bits<AXIL_ADDR_W>>,
    /// Read data valid.
    pub s_rvalid: Signal<Out, Bit>,
    /// The master takes the read data.
    pub s_rready: Signal<In, Bit>,
    /// Read data.
    pub s_rdata: Signal<Out, Bits<AXIL_DATA_W>>,
    /// Read response code.
    pub s_rresp: Signal<Out, Bits<AXIL_RESP_W>>,

    /// A register access is requested (held until `reg_ack`).
    pub reg_valid: Signal<Out, Bit>,
    /// The access is a write (else a read).
    pub reg_write: Signal<Out, Bit>,
    /// Byte address of the access.
    pub reg_addr: Signal<Out, Bits<AXIL_ADDR_W>>,
    /// Write data.
    pub reg_wdata: Signal<Out, Bits<AXIL_DATA_W>>,
    /// Write byte strobes.
    pub reg_wstrb: Signal<Out, Bits<AXIL_STRB_W>>,
    /// The decode has done the access this cycle.
    pub reg_ack: Signal<In, Bit>,
    /// Read data, with `reg_ack` of a read.
    pub reg_rdata: Signal<In, Bits<AXIL_DATA_W>>,
    /// Response code, with `reg_ack`.
    pub reg_resp: Signal<In, Bits<AXIL_RESP_W>>,

    aw_held: DFF<Bit>,
    aw_addr: DFF<Bits<AXIL_ADDR_W>>,
    w_held: DFF<Bit>,
    w_data: DFF<Bits<AXIL_DATA_W>>,
    w_strb: DFF<Bits<AXIL_STRB_W>>,
    ar_held: DFF<Bit>,
    ar_addr: DFF<Bits<AXIL_ADDR_W>>,
    active: DFF<Bit>,
    active_write: DFF<Bit>,
    last_write: DFF<Bit>,
    req_addr: DFF<Bits<AXIL_ADDR_W>>,
    req_wdata: DFF<Bits<AXIL_DATA_W>>,
    req_wstrb: DFF<Bits<AXIL_STRB_W>>,
    bvalid: DFF<Bit>,
    bresp: DFF<Bits<AXIL_RESP_W>>,
    rvalid: DFF<Bit>,
    rdata: DFF<Bits<AXIL_DATA_W>>,
    rresp: DFF<Bits<AXIL_RESP_W>>,
    can_write: Signal<Local, Bit>,
    can_read: Signal<Local, Bit>,
}

impl Logic for AxilSlave {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            aw_held,
            aw_addr,
            w_held,
            w_data,
            w_strb,
            ar_held,
            ar_addr,
            active,
            active_write,
            last_write,
            req_addr,
            req_wdata,
            req_wstrb,
            bvalid,
            bresp,
            rvalid,
            rdata,
            rresp
        );
        // ---- channel holding registers ----
        self.s_awready.next = !self.aw_held.q.val();
        self.s_wready.next = !self.w_held.q.val();
        self.s_arready.next = !self.ar_held.q.val();
        if self.s_awvalid.val() & !self.aw_held.q.val() {
            self.aw_held.d.next = true;
            self.aw_addr.d.next = self.s_awaddr.val();
        }
        if self.s_wvalid.val() & !self.w_held.q.val() {
            self.w_held.d.next = true;
            self.w_data.d.next = self.s_wdata.val();
            self.w_strb.d.next = self.s_wstrb.val();
        }
        if self.s_arvalid.val() & !self.ar_held.q.val() {
            self.ar_held.d.next = true;
            self.ar_addr.d.next = self.s_araddr.val();
        }

        // ---- start one access (round robin between writes and reads) ----
        self.can_write.next = !self.active.q.val()
            & self.aw_held.q.val()
            & self.w_held.q.val()
            & !self.bvalid.q.val();
        self.can_read.next = !self.active.q.val() & self.ar_held.q.val() & !self.rvalid.q.val();
        if self.can_write.val() & (!self.can_read.val() | !self.last_write.q.val()) {
            self.active.d.next = true;
            self.active_write.d.next = true;
            self.last_write.d.next = true;
            self.req_addr.d.next = self.aw_addr.q.val();
            self.req_wdata.d.next = self.w_data.q.val();
            self.req_wstrb.d.next = self.w_strb.q.val();
            self.aw_held.d.next = false;
            self.w_held.d.next = false;
        } else if self.can_read.val() {
            self.active.d.next = true;
            self.active_write.d.next = false;
            self.last_write.d.next = false;
            self.req_addr.d.next = self.ar_addr.q.val();
            self.ar_held.d.next = false;
        }

        // ---- the decode's answer becomes the response ----
        if self.active.q.val() & self.reg_ack.val() {
            self.active.d.next = false;
            if self.active_write.q.val() {
                self.bvalid.d.next = true;
                self.bresp.d.next = self.reg_resp.val();
            } else {
                self.rvalid.d.next = true;
                self.rdata.d.next = self.reg_rdata.val();
                self.rresp.d.next = self.reg_resp.val();
            }
        }
        if self.bvalid.q.val() & self.s_bready.val() {
            self.bvalid.d.next = false;
        }
        if self.rvalid.q.val() & self.s_rready.val() {
            self.rvalid.d.next = false;
        }
        if self.reset.val() {
            self.aw_held.d.next = false;
            self.w_held.d.next = false;
            self.ar_held.d.next = false;
            self.active.d.next = false;
            self.last_write.d.next = false;
            self.bvalid.d.next = false;
            self.rvalid.d.next = false;
        }

        self.reg_valid.next = self.active.q.val();
        self.reg_write.next = self.active_write.q.val();
        self.reg_addr.next = self.req_addr.q.val();
        self.reg_wdata.next = self.req_wdata.q.val();
        self.reg_wstrb.next = self.req_wstrb.q.val();
        self.s_bvalid.next = self.bvalid.q.val();
        self.s_bresp.next = self.bresp.q.val();
        self.s_rvalid.next = self.rvalid.q.val();
        self.s_rdata.next = self.rdata.q.val();
        self.s_rresp.next = self.rresp.q.val();
    }
}
