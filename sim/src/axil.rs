//! Cycle-level harness of the AXI4-Lite slave front end (`roce_cc_hdl::axil_slave`): its
//! pins, a golden model with the same timing ([`GoldenAxil`]) and rust-hdl's simulation
//! ([`HdlAxil`]); the Verilated one is `verilated::VerilatedAxil`.

use crate::hdl_sim::{settle, tick};
use crate::lockstep::CycleDut;
use roce_cc_hdl::axil_slave::AxilSlave;
use rust_hdl::prelude::*;

/// AXI response codes.
pub const RESP_OKAY: u32 = 0;
pub const RESP_SLVERR: u32 = 2;
pub const RESP_DECERR: u32 = 3;

/// The front end's input pins for one cycle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AxilPins {
    pub reset: bool,
    /// `AWVALID` with `AWADDR`.
    pub aw: Option<u32>,
    /// `WVALID` with `(WDATA, WSTRB)`.
    pub w: Option<(u32, u32)>,
    pub bready: bool,
    /// `ARVALID` with `ARADDR`.
    pub ar: Option<u32>,
    pub rready: bool,
    /// `reg_ack` with `(reg_rdata, reg_resp)`.
    pub ack: Option<(u32, u32)>,
}

/// A register access the front end requests.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RegRequest {
    pub write: bool,
    pub addr: u32,
    pub wdata: u32,
    pub wstrb: u32,
}

/// The front end's outputs in one cycle (before the clock edge).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AxilOuts {
    pub awready: bool,
    pub wready: bool,
    pub arready: bool,
    /// `BVALID` with `BRESP`.
    pub b: Option<u32>,
    /// `RVALID` with `(RDATA, RRESP)`.
    pub r: Option<(u32, u32)>,
    /// `reg_valid` with the request.
    pub req: Option<RegRequest>,
}

/// The golden front end: the documented behaviour of `axil_slave`, cycle by cycle.
#[derive(Default)]
pub struct GoldenAxil {
    aw: Option<u32>,
    w: Option<(u32, u32)>,
    ar: Option<u32>,
    active: Option<RegRequest>,
    last_write: bool,
    b: Option<u32>,
    r: Option<(u32, u32)>,
    /// What the request port shows when idle (the last request's fields).
    req_fields: RegRequest,
    pins: AxilPins,
}

impl GoldenAxil {
    pub fn new() -> Self {
        Self::default()
    }
}

impl CycleDut<AxilPins, AxilOuts> for GoldenAxil {
    fn eval(&mut self, pins: &AxilPins) -> AxilOuts {
        self.pins = *pins;
        AxilOuts {
            awready: self.aw.is_none(),
            wready: self.w.is_none(),
            arready: self.ar.is_none(),
            b: self.b,
            r: self.r,
            req: self.active,
        }
    }

    fn clock(&mut self) {
        let p = self.pins;
        let (aw0, w0, ar0, active0, b0, r0) =
            (self.aw, self.w, self.ar, self.active, self.b, self.r);
        if aw0.is_none() {
            self.aw = p.aw;
        }
        if w0.is_none() {
            self.w = p.w;
        }
        if ar0.is_none() {
            self.ar = p.ar;
        }
        let can_write = active0.is_none() && aw0.is_some() && w0.is_some() && b0.is_none();
        let can_read = active0.is_none() && ar0.is_some() && r0.is_none();
        if can_write && (!can_read || !self.last_write) {
            let (wdata, wstrb) = w0.expect("held");
            let req = RegRequest {
                write: true,
                addr: aw0.expect("held"),
                wdata,
                wstrb,
            };
            self.active = Some(req);
            self.req_fields = req;
            self.last_write = true;
            self.aw = None;
            self.w = None;
        } else if can_read {
            let req = RegRequest {
                write: false,
                addr: ar0.expect("held"),
                ..self.req_fields
            };
            self.active = Some(req);
            self.req_fields = req;
            self.last_write = false;
            self.ar = None;
        }
        if let (Some(req), Some((rdata, resp))) = (active0, p.ack) {
            self.active = None;
            if req.write {
                self.b = Some(resp);
            } else {
                self.r = Some((rdata, resp));
            }
        }
        if b0.is_some() && p.bready {
            self.b = None;
        }
        if r0.is_some() && p.rready {
            self.r = None;
        }
        // Reset clears the control state; the request's address and data registers keep
        // what they loaded (they are not reset in the hardware either, and matter only
        // while a request is shown).
        if p.reset {
            *self = Self {
                req_fields: self.req_fields,
                pins: p,
                ..Self::new()
            };
        }
    }
}

/// rust-hdl's own simulation of the front end.
pub struct HdlAxil {
    uut: Box<AxilSlave>,
}

impl HdlAxil {
    pub fn new() -> Self {
        let mut uut = Box::<AxilSlave>::default();
        uut.connect_all();
        settle(uut.as_mut());
        Self { uut }
    }
}

impl Default for HdlAxil {
    fn default() -> Self {
        Self::new()
    }
}

fn b64(x: u32) -> u64 {
    x as u64
}

impl CycleDut<AxilPins, AxilOuts> for HdlAxil {
    fn eval(&mut self, p: &AxilPins) -> AxilOuts {
        let u = self.uut.as_mut();
        u.reset.next = p.reset;
        u.s_awvalid.next = p.aw.is_some();
        u.s_awaddr.next = b64(p.aw.unwrap_or(0)).into();
        u.s_wvalid.next = p.w.is_some();
        u.s_wdata.next = b64(p.w.map_or(0, |w| w.0)).into();
        u.s_wstrb.next = b64(p.w.map_or(0, |w| w.1)).into();
        u.s_bready.next = p.bready;
        u.s_arvalid.next = p.ar.is_some();
        u.s_araddr.next = b64(p.ar.unwrap_or(0)).into();
        u.s_rready.next = p.rready;
        u.reg_ack.next = p.ack.is_some();
        u.reg_rdata.next = b64(p.ack.map_or(0, |a| a.0)).into();
        u.reg_resp.next = b64(p.ack.map_or(0, |a| a.1)).into();
        settle(u);
        AxilOuts {
            awready: u.s_awready.val(),
            wready: u.s_wready.val(),
            arready: u.s_arready.val(),
            b: u.s_bvalid.val().then(|| u.s_bresp.val().to_u32()),
            r: u.s_rvalid
                .val()
                .then(|| (u.s_rdata.val().to_u32(), u.s_rresp.val().to_u32())),
            req: u.reg_valid.val().then(|| RegRequest {
                write: u.reg_write.val(),
                addr: u.reg_addr.val().to_u32(),
                wdata: u.reg_wdata.val().to_u32(),
                wstrb: u.reg_wstrb.val().to_u32(),
            }),
        }
    }

    fn clock(&mut self) {
        tick(self.uut.as_mut(), |u| &mut u.clock);
    }
}
