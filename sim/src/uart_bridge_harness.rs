//! Harness of the UART bridge (`roce_cc_hdl::uart_bridge`, docs/uart_bridge.md):
//!
//! - its pins ([`UbPins`], [`UbOuts`]) and rust-hdl's simulation ([`HdlUartBridge`]; the
//!   Verilated one is `verilated::VerilatedUartBridge`), both built with
//!   [`SIM_DIVISOR`] and [`SIM_TIMEOUT`];
//! - the golden model at byte level ([`GoldenBridge`]): which bytes make a request, which
//!   are dropped, what each request does on the bus and which bytes answer it;
//! - a serial line at the divisor, both ways ([`SerialTx`] bit-bangs bytes, including bytes
//!   with a bad stop bit; [`SerialRx`] decodes the bridge's `txd`);
//! - an AXI4-Lite slave with random ready and response timing over a memory with errors
//!   ([`AxilMemSlave`], semantics in [`MemSemantics`]);
//! - [`UartBoardSim`]: the Verilated bridge wired to the Verilated `roce_cc_top` (16 QPs)
//!   behind a byte stream (`Read + Write`), for the host driver's `UartBar` tests.

use crate::hdl_sim::{settle, tick};
use crate::lockstep::{CycleDut, Named};
use crate::stimulus::XorShift;
use crate::timebase::Timebase;
use crate::top_harness::{TopOuts, TopPins, top_bring_up};
use crate::verilated::{VerilatedTop, VerilatedUartBridge};
use roce_cc_hdl::uart_bridge::UartBridge;
pub use roce_cc_hdl::uart_bridge::{OP_READ, OP_WRITE, SIM_DIVISOR, SIM_TIMEOUT, STATUS_BAD_CHECK};
use roce_cc_params::Params;
use rust_hdl::prelude::*;
use std::collections::{HashMap, VecDeque};

/// The bridge's input pins for one cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UbPins {
    pub reset: bool,
    /// The serial line from the host.
    pub rxd: bool,
    pub awready: bool,
    pub wready: bool,
    /// `BVALID` with `BRESP`.
    pub b: Option<u32>,
    pub arready: bool,
    /// `RVALID` with `(RDATA, RRESP)`.
    pub r: Option<(u32, u32)>,
}

impl Default for UbPins {
    fn default() -> Self {
        Self {
            reset: false,
            rxd: true,
            awready: false,
            wready: false,
            b: None,
            arready: false,
            r: None,
        }
    }
}

/// The bridge's outputs in one cycle (before the clock edge).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct UbOuts {
    pub txd: bool,
    /// `AWVALID` with `AWADDR`.
    pub aw: Option<u32>,
    /// `WVALID` with `(WDATA, WSTRB)`.
    pub w: Option<(u32, u32)>,
    pub bready: bool,
    /// `ARVALID` with `ARADDR`.
    pub ar: Option<u32>,
    pub rready: bool,
    pub busy: bool,
    pub error: bool,
}

/// rust-hdl's own simulation of the bridge ([`SIM_DIVISOR`], [`SIM_TIMEOUT`]).
pub struct HdlUartBridge {
    uut: Box<UartBridge>,
}

impl HdlUartBridge {
    pub fn new() -> Self {
        let mut uut = Box::new(UartBridge::new(SIM_DIVISOR, SIM_TIMEOUT));
        uut.connect_all();
        settle(uut.as_mut());
        Self { uut }
    }
}

impl Default for HdlUartBridge {
    fn default() -> Self {
        Self::new()
    }
}

fn b64(x: u32) -> u64 {
    x as u64
}

impl CycleDut<UbPins, UbOuts> for HdlUartBridge {
    fn eval(&mut self, p: &UbPins) -> UbOuts {
        let u = self.uut.as_mut();
        u.reset.next = p.reset;
        u.rxd.next = p.rxd;
        u.m_axil_awready.next = p.awready;
        u.m_axil_wready.next = p.wready;
        u.m_axil_bvalid.next = p.b.is_some();
        u.m_axil_bresp.next = b64(p.b.unwrap_or(0)).into();
        u.m_axil_arready.next = p.arready;
        u.m_axil_rvalid.next = p.r.is_some();
        u.m_axil_rdata.next = b64(p.r.map_or(0, |r| r.0)).into();
        u.m_axil_rresp.next = b64(p.r.map_or(0, |r| r.1)).into();
        settle(u);
        UbOuts {
            txd: u.txd.val(),
            aw: u
                .m_axil_awvalid
                .val()
                .then(|| u.m_axil_awaddr.val().to_u32()),
            w: u.m_axil_wvalid
                .val()
                .then(|| (u.m_axil_wdata.val().to_u32(), u.m_axil_wstrb.val().to_u32())),
            bready: u.m_axil_bready.val(),
            ar: u
                .m_axil_arvalid
                .val()
                .then(|| u.m_axil_araddr.val().to_u32()),
            rready: u.m_axil_rready.val(),
            busy: u.busy.val(),
            error: u.error.val(),
        }
    }

    fn clock(&mut self) {
        tick(self.uut.as_mut(), |u| &mut u.clock);
    }
}

// ---------------------------------------------------------------------------------------
// Frames

/// XOR of `bytes` (a frame's check byte is the XOR of the bytes before it).
pub fn xor(bytes: &[u8]) -> u8 {
    bytes.iter().fold(0, |a, b| a ^ b)
}

/// A read request for byte address `addr`.
pub fn read_frame(addr: u16) -> Vec<u8> {
    let mut f = vec![OP_READ, addr as u8, (addr >> 8) as u8];
    f.push(xor(&f));
    f
}

/// A write request.
pub fn write_frame(addr: u16, data: u32, strb: u8) -> Vec<u8> {
    let mut f = vec![OP_WRITE, addr as u8, (addr >> 8) as u8];
    f.extend_from_slice(&data.to_le_bytes());
    f.push(strb);
    f.push(xor(&f));
    f
}

/// A complete request as the bridge parsed it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Request {
    pub write: bool,
    /// The 16-bit address of the frame.
    pub addr: u16,
    pub data: u32,
    /// The strobe byte (only bits 3:0 reach the bus).
    pub strb: u8,
    /// The check byte matched.
    pub check_ok: bool,
}

/// A bus access as the slave sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Access {
    pub write: bool,
    pub addr: u32,
    pub data: u32,
    pub strb: u32,
}

/// The golden bridge at byte level.
#[derive(Default)]
pub struct GoldenBridge {
    /// The frame being received: its op and the bytes after it.
    frame: Option<(bool, Vec<u8>)>,
    /// Dropped bytes and frames so far (the hardware pulses `error` once for each).
    pub errors: u64,
}

impl GoldenBridge {
    pub fn new() -> Self {
        Self::default()
    }

    /// A frame is being received (bytes were taken, the request is not complete).
    pub fn mid_frame(&self) -> bool {
        self.frame.is_some()
    }

    /// One byte received; the request if it completes one.
    pub fn byte(&mut self, b: u8) -> Option<Request> {
        let Some((write, bytes)) = &mut self.frame else {
            if b == OP_READ || b == OP_WRITE {
                self.frame = Some((b == OP_WRITE, Vec::new()));
            } else {
                self.errors += 1;
            }
            return None;
        };
        bytes.push(b);
        let len = if *write { 8 } else { 3 };
        if bytes.len() < len {
            return None;
        }
        let write = *write;
        let op = if write { OP_WRITE } else { OP_READ };
        let check_ok = op ^ xor(&bytes[..len - 1]) == bytes[len - 1];
        let r = Request {
            write,
            addr: u16::from_le_bytes([bytes[0], bytes[1]]),
            data: if write {
                u32::from_le_bytes([bytes[2], bytes[3], bytes[4], bytes[5]])
            } else {
                0
            },
            strb: if write { bytes[6] } else { 0 },
            check_ok,
        };
        self.frame = None;
        if !check_ok {
            self.errors += 1;
        }
        Some(r)
    }

    /// A byte with a bad stop bit: any frame being received is dropped.
    pub fn garbled(&mut self) {
        self.frame = None;
        self.errors += 1;
    }

    /// The line was quiet for longer than the inter-byte timeout.
    pub fn gap(&mut self) {
        if self.frame.take().is_some() {
            self.errors += 1;
        }
    }

    /// What request `r` does: the bus access (if any, with `(rdata, resp)` from `slave`)
    /// and the response bytes.
    pub fn respond(r: &Request, slave: &mut MemSemantics) -> (Option<Access>, Vec<u8>) {
        let (access, status, data) = if !r.check_ok {
            (None, STATUS_BAD_CHECK, 0)
        } else if r.addr >= 0x1000 {
            (None, 3, 0)
        } else {
            let a = Access {
                write: r.write,
                addr: r.addr as u32,
                data: r.data,
                strb: (r.strb & 0xf) as u32,
            };
            let (rdata, resp) = slave.access(&a);
            (Some(a), resp as u8, rdata)
        };
        let mut out = vec![status];
        if !r.write {
            out.extend_from_slice(&data.to_le_bytes());
        }
        out.push(xor(&out));
        (access, out)
    }
}

// ---------------------------------------------------------------------------------------
// The serial line

/// The host's transmitter: line levels, one per clock cycle, at `divisor` cycles per bit.
pub struct SerialTx {
    divisor: u32,
    levels: VecDeque<bool>,
}

impl SerialTx {
    pub fn new(divisor: u32) -> Self {
        Self {
            divisor,
            levels: VecDeque::new(),
        }
    }

    fn bit(&mut self, level: bool) {
        for _ in 0..self.divisor {
            self.levels.push_back(level);
        }
    }

    /// Queue one 8N1 byte.
    pub fn byte(&mut self, b: u8) {
        self.frame(b, true);
    }

    /// Queue a byte whose stop bit is low (a framing error), then one bit time of idle.
    pub fn bad_stop(&mut self, b: u8) {
        self.frame(b, false);
        self.bit(true);
    }

    fn frame(&mut self, b: u8, stop: bool) {
        self.bit(false);
        for i in 0..8 {
            self.bit(b >> i & 1 == 1);
        }
        self.bit(stop);
    }

    /// Queue `cycles` of idle line.
    pub fn idle(&mut self, cycles: u32) {
        for _ in 0..cycles {
            self.levels.push_back(true);
        }
    }

    /// Everything queued has been sent.
    pub fn is_idle(&self) -> bool {
        self.levels.is_empty()
    }

    /// The line level this cycle (idle high when nothing is queued).
    pub fn next_level(&mut self) -> bool {
        self.levels.pop_front().unwrap_or(true)
    }
}

/// The host's receiver: samples the line in the middle of each bit.
pub struct SerialRx {
    divisor: u32,
    /// Cycles since the falling edge of the start bit, while a byte is being received.
    t: Option<u32>,
    byte: u8,
    /// Bytes received.
    pub bytes: VecDeque<u8>,
    /// Bytes whose stop bit was low.
    pub framing_errors: u64,
}

impl SerialRx {
    pub fn new(divisor: u32) -> Self {
        Self {
            divisor,
            t: None,
            byte: 0,
            bytes: VecDeque::new(),
            framing_errors: 0,
        }
    }

    /// The line level of one cycle.
    pub fn sample(&mut self, level: bool) {
        let d = self.divisor;
        match self.t {
            None => {
                if !level {
                    self.t = Some(0);
                    self.byte = 0;
                }
            }
            Some(t) => {
                let t = t + 1;
                self.t = Some(t);
                if t == d / 2 && level {
                    self.t = None; // a glitch, not a start bit
                } else if t > d / 2 && (t - d / 2) % d == 0 {
                    let bit = (t - d / 2) / d; // 1..=8 data, 9 stop
                    if bit <= 8 {
                        self.byte |= (level as u8) << (bit - 1);
                    } else {
                        if level {
                            self.bytes.push_back(self.byte);
                        } else {
                            self.framing_errors += 1;
                        }
                        self.t = None;
                    }
                }
            }
        }
    }

    /// Not in the middle of a byte.
    pub fn is_idle(&self) -> bool {
        self.t.is_none()
    }
}

// ---------------------------------------------------------------------------------------
// The AXI4-Lite slave

/// What the slave does with an access: a 4 KiB space, DECERR at 0x800 and above, SLVERR
/// for unaligned addresses and for writes to every eighth register (read-only ones);
/// registers never written read as a hash of their address.
#[derive(Default, Clone)]
pub struct MemSemantics {
    mem: HashMap<u32, u32>,
}

/// AXI response codes.
pub const RESP_OKAY: u32 = 0;
pub const RESP_SLVERR: u32 = 2;
pub const RESP_DECERR: u32 = 3;

impl MemSemantics {
    /// `(rdata, resp)` of access `a` (rdata 0 for a write), applying a write.
    pub fn access(&mut self, a: &Access) -> (u32, u32) {
        if a.addr >= 0x800 {
            return (0, RESP_DECERR);
        }
        if a.addr % 4 != 0 || (a.write && (a.addr >> 2) % 8 == 7) {
            return (0, RESP_SLVERR);
        }
        let old = *self
            .mem
            .get(&a.addr)
            .unwrap_or(&(a.addr.wrapping_mul(0x9e37_79b1) ^ 0x5a5a_0f0f));
        if a.write {
            let mask: u32 = (0..4)
                .filter(|b| a.strb >> b & 1 == 1)
                .map(|b| 0xffu32 << (8 * b))
                .sum();
            self.mem.insert(a.addr, (old & !mask) | (a.data & mask));
            (0, RESP_OKAY)
        } else {
            (old, RESP_OKAY)
        }
    }
}

/// An AXI4-Lite slave over [`MemSemantics`] that takes each channel and answers after
/// random delays (READY low at random, responses late at random), following the protocol
/// (a response stays valid until taken).
pub struct AxilMemSlave {
    pub sem: MemSemantics,
    rng: XorShift,
    /// Percent of cycles a READY is low although the channel's holding slot is free.
    pub stall_pct: u64,
    aw: Option<u32>,
    w: Option<(u32, u32)>,
    ar: Option<u32>,
    b: Option<(u32, u32)>,
    r: Option<((u32, u32), u32)>,
    ready: (bool, bool, bool),
    /// Every access made, in order.
    pub log: Vec<Access>,
}

impl AxilMemSlave {
    pub fn new(seed: u64, stall_pct: u64) -> Self {
        Self {
            sem: MemSemantics::default(),
            rng: XorShift::new(seed),
            stall_pct,
            aw: None,
            w: None,
            ar: None,
            b: None,
            r: None,
            ready: (false, false, false),
            log: Vec::new(),
        }
    }

    fn go(&mut self) -> bool {
        self.rng.below(100) >= self.stall_pct
    }

    /// This cycle's pins (everything but `reset` and `rxd`).
    pub fn pins(&mut self, rxd: bool) -> UbPins {
        self.ready = (
            self.aw.is_none() && self.go(),
            self.w.is_none() && self.go(),
            self.ar.is_none() && self.go(),
        );
        UbPins {
            reset: false,
            rxd,
            awready: self.ready.0,
            wready: self.ready.1,
            b: self.b.and_then(|(resp, wait)| (wait == 0).then_some(resp)),
            arready: self.ready.2,
            r: self.r.and_then(|(rd, wait)| (wait == 0).then_some(rd)),
        }
    }

    /// After the clock edge: what the bridge showed (`o`) with `p`.
    pub fn after(&mut self, p: &UbPins, o: &UbOuts) {
        if let (Some(a), true) = (o.aw, p.awready) {
            self.aw = Some(a);
        }
        if let (Some(w), true) = (o.w, p.wready) {
            self.w = Some(w);
        }
        if let (Some(a), true) = (o.ar, p.arready) {
            self.ar = Some(a);
        }
        if p.b.is_some() && o.bready {
            self.b = None;
        }
        if p.r.is_some() && o.rready {
            self.r = None;
        }
        if let Some((_, w)) = &mut self.b {
            *w = w.saturating_sub(1);
        }
        if let Some((_, w)) = &mut self.r {
            *w = w.saturating_sub(1);
        }
        if self.b.is_none()
            && let (Some(addr), Some((data, strb))) = (self.aw, self.w)
        {
            let a = Access {
                write: true,
                addr,
                data,
                strb,
            };
            let (_, resp) = self.sem.access(&a);
            self.log.push(a);
            self.b = Some((resp, self.rng.below(4) as u32));
            self.aw = None;
            self.w = None;
        }
        if self.r.is_none()
            && let Some(addr) = self.ar
        {
            let a = Access {
                write: false,
                addr,
                data: 0,
                strb: 0,
            };
            let rd = self.sem.access(&a);
            self.log.push(a);
            self.r = Some((rd, self.rng.below(4) as u32));
            self.ar = None;
        }
    }
}

// ---------------------------------------------------------------------------------------
// The bridge in front of the Verilated register block, as a byte stream

/// Cycles a `read` on [`UartBoardSim`] runs without a byte before it returns 0 bytes
/// (longer than the bridge's inter-byte timeout, like a tty's `VTIME` read timeout).
pub const READ_SLICE_CYCLES: u64 = 4 * SIM_TIMEOUT as u64;

/// The Verilated bridge on the Verilated `roce_cc_top` (the event streams idle, `now` held
/// at time 0 like the `model` BAR's), behind a serial line at [`SIM_DIVISOR`]: bytes
/// written go down the line, bytes the bridge sends come back from `read`.
pub struct UartBoardSim {
    bridge: VerilatedUartBridge,
    top: VerilatedTop,
    base: TopPins,
    bridge_pins: UbPins,
    tx: SerialTx,
    rx: SerialRx,
    /// Clock cycles run.
    pub cycles: u64,
    /// `error` pulses of the bridge seen.
    pub bridge_errors: u64,
}

impl UartBoardSim {
    /// The board for `build` (`qps` 16 or 1024, the default clock), out of reset with the
    /// default parameters applied.
    pub fn new(build: &Params) -> Result<Self, String> {
        let mut top = VerilatedTop::new(build.qps)
            .ok_or_else(|| format!("no Verilated roce_cc_top for {} QPs", build.qps))?;
        let base = TopPins {
            rate_ready: true,
            cnp_ready: true,
            now: Timebase::new(build).at_cycle(0),
            ..TopPins::default()
        };
        let mut step = 0;
        let n = {
            let mut duts: Vec<Named<TopPins, TopOuts>> = vec![("verilator", &mut top)];
            top_bring_up(&mut duts, &base, &mut step).map_err(|e| e.to_string())?
        };
        let mut bridge = VerilatedUartBridge::new();
        for reset in [true, true, false] {
            bridge.eval(&UbPins {
                reset,
                ..UbPins::default()
            });
            bridge.clock();
        }
        Ok(Self {
            bridge,
            top,
            base,
            bridge_pins: UbPins::default(),
            tx: SerialTx::new(SIM_DIVISOR),
            rx: SerialRx::new(SIM_DIVISOR),
            cycles: n,
            bridge_errors: 0,
        })
    }

    /// One clock cycle of the board.
    pub fn cycle(&mut self) {
        // The bridge's outputs come from flip-flops: they do not depend on this cycle's
        // inputs, so the top can be evaluated with them first.
        let bo = self.bridge.eval(&self.bridge_pins);
        let tp = TopPins {
            aw: bo.aw,
            w: bo.w,
            bready: bo.bready,
            ar: bo.ar,
            rready: bo.rready,
            ..self.base
        };
        let to = self.top.eval(&tp);
        self.bridge_pins = UbPins {
            reset: false,
            rxd: self.tx.next_level(),
            awready: to.awready,
            wready: to.wready,
            b: to.b,
            arready: to.arready,
            r: to.r,
        };
        let bo2 = self.bridge.eval(&self.bridge_pins);
        debug_assert_eq!(bo, bo2, "the bridge's outputs depend on its inputs");
        self.rx.sample(bo.txd);
        self.bridge_errors += bo.error as u64;
        self.bridge.clock();
        self.top.clock();
        self.cycles += 1;
    }
}

impl std::io::Write for UartBoardSim {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        for &b in buf {
            self.tx.byte(b);
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl std::io::Read for UartBoardSim {
    /// The bytes the bridge has sent; if none yet, runs the board until one arrives or for
    /// [`READ_SLICE_CYCLES`] (then returns 0 bytes, as a tty read with a timeout does).
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let mut quiet = 0;
        while self.rx.bytes.is_empty() && quiet < READ_SLICE_CYCLES {
            self.cycle();
            if self.tx.is_idle() {
                quiet += 1;
            }
        }
        let n = buf.len().min(self.rx.bytes.len());
        for b in buf.iter_mut().take(n) {
            *b = self.rx.bytes.pop_front().expect("counted");
        }
        Ok(n)
    }
}
