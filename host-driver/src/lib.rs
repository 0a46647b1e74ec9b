//! Host driver for the roce-cc core.
//!
//! The core's registers (`docs/registers.md`) sit in a 4 KiB BAR. Everything here goes
//! through [`RegIo`], a 32-bit read/write at a byte offset, which has several
//! implementations:
//!
//! - [`FileBar`]: an mmap of a real device's BAR, `/sys/bus/pci/devices/<BDF>/resource<N>`
//!   (or of any file of at least 4 KiB, which is how it is tested);
//! - `ModelBar` (feature `model`, on by default): the golden register block over the golden
//!   core (`roce_cc_sim::csr::CsrModel`);
//! - `SimBar` (feature `model`): the "PCIe BAR stub", the Verilated core and register block
//!   (`roce_cc_top`), every access an AXI4-Lite transaction;
//! - [`UartBar`]: a board's UART bridge (`roce_cc_hdl::uart_bridge`, docs/uart_bridge.md)
//!   over any byte stream, e.g. `/dev/ttyUSB0` ([`uart_bar::open_serial`]).
//!
//! [`Device`] is the driver proper: it discovers the blocks by walking their linked list
//! (loops, out-of-range pointers and unknown blocks are detected and reported), loads a
//! PARAMS.toml after checking it, reads the counters and one QP's state, and notices a
//! device that has gone away (reads of all ones).

pub mod regs;
pub mod uart_bar;
pub use uart_bar::UartBar;

#[cfg(feature = "model")]
mod model_bar;
#[cfg(feature = "model")]
pub use model_bar::ModelBar;
#[cfg(feature = "model")]
mod sim_bar;
#[cfg(feature = "model")]
pub use sim_bar::SimBar;

use roce_cc_params::{Params, SPECS};
use roce_cc_regmap::{BAR_SIZE, CTRL_APPLY, FwId};
use std::fmt;
use std::path::Path;

/// Why a register access failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BusError {
    /// The device answered SLVERR: a read-only register, a value out of range, a partial
    /// write it cannot take.
    SlvErr,
    /// The device answered DECERR: no register at that address.
    DecErr,
    /// The backend failed (I/O, simulation).
    Backend(String),
}

impl fmt::Display for BusError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BusError::SlvErr => f.write_str("the device refused the access (SLVERR)"),
            BusError::DecErr => f.write_str("no register at that address (DECERR)"),
            BusError::Backend(m) => f.write_str(m),
        }
    }
}

/// 32-bit register access at a byte offset into the core's BAR.
///
/// A backend that cannot observe bus errors (a memory-mapped PCIe BAR) returns `Ok` for
/// every access; errors then show up as counters (`reg_slverr`, `reg_decerr`) and a device
/// that went away as reads of all ones.
pub trait RegIo {
    /// Read the 32-bit register at byte offset `offset` (a multiple of 4).
    fn read32(&mut self, offset: u32) -> Result<u32, BusError>;
    /// Write `value` to the register at `offset`, with byte strobes `strb` (bit i enables
    /// byte i; 0xf is a full write).
    fn write32_strb(&mut self, offset: u32, value: u32, strb: u32) -> Result<(), BusError>;
    /// A full 32-bit write.
    fn write32(&mut self, offset: u32, value: u32) -> Result<(), BusError> {
        self.write32_strb(offset, value, 0xf)
    }
}

/// The BAR of a real device (or a file standing in for one), memory-mapped.
pub struct FileBar {
    map: memmap2::MmapMut,
}

impl FileBar {
    /// Map `path` (e.g. `/sys/bus/pci/devices/0000:01:00.0/resource0`) read-write. The file
    /// must hold at least the 4 KiB register space.
    pub fn open(path: &Path) -> Result<Self, DriverError> {
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open(path)
            .map_err(|e| DriverError::Open(format!("{}: {e}", path.display())))?;
        let len = file
            .metadata()
            .map_err(|e| DriverError::Open(format!("{}: {e}", path.display())))?
            .len();
        if len < BAR_SIZE as u64 {
            return Err(DriverError::Open(format!(
                "{}: {len} bytes, but the core's registers need {BAR_SIZE}; is this the right \
                 resource file?",
                path.display()
            )));
        }
        // SAFETY: the mapping is only accessed through volatile 32-bit reads and writes at
        // checked, aligned offsets; another process changing the file (or the device
        // changing its registers) is what a BAR is for.
        let map = unsafe {
            memmap2::MmapOptions::new()
                .len(BAR_SIZE as usize)
                .map_mut(&file)
        }
        .map_err(|e| DriverError::Open(format!("{}: cannot mmap: {e}", path.display())))?;
        Ok(Self { map })
    }

    fn ptr(&mut self, offset: u32) -> Result<*mut u32, BusError> {
        if offset % 4 != 0 || offset + 4 > BAR_SIZE {
            return Err(BusError::Backend(format!(
                "offset 0x{offset:x} is not an aligned register offset inside the BAR"
            )));
        }
        // SAFETY: in bounds and 4-byte aligned (the mapping is page-aligned).
        Ok(unsafe { self.map.as_mut_ptr().add(offset as usize) } as *mut u32)
    }
}

impl RegIo for FileBar {
    fn read32(&mut self, offset: u32) -> Result<u32, BusError> {
        let p = self.ptr(offset)?;
        // SAFETY: see `ptr`.
        Ok(u32::from_le(unsafe { p.read_volatile() }))
    }

    fn write32_strb(&mut self, offset: u32, value: u32, strb: u32) -> Result<(), BusError> {
        if strb & 0xf != 0xf {
            return Err(BusError::Backend(
                "a memory-mapped BAR takes only full 32-bit writes".into(),
            ));
        }
        let p = self.ptr(offset)?;
        // SAFETY: see `ptr`.
        unsafe { p.write_volatile(value.to_le()) };
        Ok(())
    }
}

/// A driver failure, with what to do about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DriverError {
    /// The BAR could not be opened.
    Open(String),
    /// Reads return all ones: the device is gone (unplugged, reset, link down).
    DeviceGone,
    /// The block list is broken (a loop, a pointer outside the BAR, no `fw_id` first).
    BadBlockList(String),
    /// A block the driver needs is missing.
    MissingBlock(&'static str),
    /// A parameter file was refused before anything was written.
    BadParams(String),
    /// A register access failed.
    Bus { what: String, err: BusError },
    /// The device stayed busy.
    Timeout(String),
}

impl fmt::Display for DriverError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DriverError::Open(m) => write!(f, "cannot open the BAR: {m}"),
            DriverError::DeviceGone => f.write_str(
                "the device is gone: its registers read as all ones (check that it is still \
                 on the bus, e.g. lspci, and that it was not reset)",
            ),
            DriverError::BadBlockList(m) => write!(f, "the register block list is broken: {m}"),
            DriverError::MissingBlock(b) => write!(
                f,
                "the bitstream has no `{b}` block; it may be older than this driver"
            ),
            DriverError::BadParams(m) => write!(f, "{m} (nothing was written to the device)"),
            DriverError::Bus { what, err } => write!(f, "{what}: {err}"),
            DriverError::Timeout(m) => write!(f, "{m}"),
        }
    }
}

impl std::error::Error for DriverError {}

/// One block found by walking the list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BlockInfo {
    pub base: u32,
    pub type_id: u32,
    pub version: u32,
    /// The block's name if this driver knows its type.
    pub name: Option<&'static str>,
}

/// One QP's state as the QP window shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QpInfo {
    pub qp: u32,
    pub limited: bool,
    /// 0 DCQCN, 1 host rate, 2 off, 3 HPCC.
    pub mode: u32,
    /// The rate the QP may send at (DCQCN's Rc, HPCC's R), Mb/s Q.8.
    pub rc_mbps_q8: u32,
    /// DCQCN's Rt, or HPCC's Rc, Mb/s Q.8.
    pub rt_mbps_q8: u32,
    pub alpha_q20: u32,
    /// HPCC's U, Q.24 (0 outside HPCC mode).
    pub u_q24: u64,
    /// HPCC's window, bytes (0 outside HPCC mode).
    pub window: u32,
}

/// The known block types and their names.
fn block_name(type_id: u32) -> Option<&'static str> {
    roce_cc_regmap::blocks()
        .into_iter()
        .find(|b| b.type_id == type_id)
        .map(|b| b.name)
}

/// The roce-cc core behind a BAR.
pub struct Device<B: RegIo> {
    bar: B,
    blocks: Vec<BlockInfo>,
}

/// How many status polls `load_params` waits for the core to finish applying.
pub const APPLY_POLLS: u32 = 100_000;

impl<B: RegIo> Device<B> {
    /// Open the core behind `bar`: walk the block list and check it.
    pub fn open(bar: B) -> Result<Self, DriverError> {
        let mut d = Self {
            bar,
            blocks: Vec::new(),
        };
        d.blocks = d.walk()?;
        Ok(d)
    }

    /// The BAR (for backends with extra abilities, e.g. feeding events to a model).
    pub fn bar(&mut self) -> &mut B {
        &mut self.bar
    }

    /// The blocks found, in list order.
    pub fn blocks(&self) -> &[BlockInfo] {
        &self.blocks
    }

    fn read(&mut self, addr: u32, what: &str) -> Result<u32, DriverError> {
        let v = self.bar.read32(addr).map_err(|err| DriverError::Bus {
            what: format!("reading {what} at 0x{addr:03x}"),
            err,
        })?;
        if v == u32::MAX && self.gone() {
            return Err(DriverError::DeviceGone);
        }
        Ok(v)
    }

    fn write(&mut self, addr: u32, value: u32, what: &str) -> Result<(), DriverError> {
        self.bar
            .write32(addr, value)
            .map_err(|err| DriverError::Bus {
                what: format!("writing {value} to {what} at 0x{addr:03x}"),
                err,
            })
    }

    /// All ones where the first block's type should be: nothing answers any more.
    fn gone(&mut self) -> bool {
        matches!(self.bar.read32(0), Ok(u32::MAX))
    }

    /// Walk the block list from address 0: every `next` must be a 4-byte aligned address
    /// inside the BAR that was not visited before; the first block must be `fw_id`.
    pub fn walk(&mut self) -> Result<Vec<BlockInfo>, DriverError> {
        let mut seen = std::collections::HashSet::new();
        let mut out = Vec::new();
        let mut at = 0u32;
        loop {
            if !seen.insert(at) {
                return Err(DriverError::BadBlockList(format!(
                    "block at 0x{at:03x} is reached twice (a loop); blocks so far: {}",
                    out.len()
                )));
            }
            let type_id = self.read(at, "a block type")?;
            let version = self.read(at + 4, "a block version")?;
            let next = self.read(at + 8, "a next pointer")?;
            if out.is_empty() && type_id != regs::TYPE_FW_ID {
                return Err(DriverError::BadBlockList(format!(
                    "the first block has type 0x{type_id:08x}, not fw_id (0x{:08x}): this is \
                     not a roce-cc core, or the BAR number is wrong",
                    regs::TYPE_FW_ID
                )));
            }
            out.push(BlockInfo {
                base: at,
                type_id,
                version,
                name: block_name(type_id),
            });
            if next == 0 {
                return Ok(out);
            }
            if next % 4 != 0 || next + 12 > BAR_SIZE {
                return Err(DriverError::BadBlockList(format!(
                    "block at 0x{at:03x} points to 0x{next:x}, outside the {BAR_SIZE}-byte BAR \
                     or unaligned"
                )));
            }
            at = next;
        }
    }

    /// Blocks of types this driver does not know (skipped, reported by `info`).
    pub fn unknown_blocks(&self) -> Vec<&BlockInfo> {
        self.blocks.iter().filter(|b| b.name.is_none()).collect()
    }

    /// The address of register `name` of block `block`, if the device has that block at the
    /// address this driver's map expects.
    fn reg(&self, block: &'static str, name: &str) -> Result<u32, DriverError> {
        let map = roce_cc_regmap::blocks();
        let want = map
            .iter()
            .find(|b| b.name == block)
            .expect("a block of the map");
        if !self
            .blocks
            .iter()
            .any(|b| b.base == want.base && b.type_id == want.type_id)
        {
            return Err(DriverError::MissingBlock(want.name));
        }
        Ok(roce_cc_regmap::find(&map, block, name)
            .expect("a register of the map")
            .addr)
    }

    /// The firmware identification.
    pub fn fw_id(&mut self) -> Result<FwId, DriverError> {
        Ok(FwId {
            version: self.read(regs::FW_ID_FW_VERSION, "fw_version")?,
            build_id: self.read(regs::FW_ID_BUILD_ID, "build_id")?,
            git_hash: self.read(regs::FW_ID_GIT_HASH, "git_hash")?,
        })
    }

    /// The staged parameters (what `params show` prints).
    /// The pacer's parameters (`mtu_bytes`, `pkt_overhead_bytes`) have no registers
    /// (`roce_cc_top` has no pacer) and read as their defaults.
    pub fn params(&mut self) -> Result<Params, DriverError> {
        self.reg("rp_params", "type")?;
        self.reg("np_params", "type")?;
        let mut p = Params::default();
        for &(key, addr, _) in regs::PARAM_REGS {
            let spec = roce_cc_params::spec::spec(key).expect("a parameter of the map");
            let v = self.read(addr, key)?;
            (spec.set)(&mut p, v);
        }
        Ok(p)
    }

    /// Load `p`: check it first (nothing is written if it is invalid or made for another
    /// bitstream), write every parameter in an order that keeps the staged set valid, apply,
    /// and wait until the core has taken it.
    pub fn load_params(&mut self, p: &Params) -> Result<(), DriverError> {
        p.validate()
            .map_err(|e| DriverError::BadParams(e.to_string()))?;
        let now = self.params()?;
        for s in SPECS.iter().filter(|s| s.build_time && s.in_register_map()) {
            let (want, have) = ((s.get)(p), (s.get)(&now));
            if want != have {
                return Err(DriverError::BadParams(format!(
                    "parameter {} = {want}, but this bitstream was built with {} = {have}; \
                     set it to {have} or leave it out of the file",
                    s.key, s.key
                )));
            }
        }
        let addr = |key: &str| {
            regs::PARAM_REGS
                .iter()
                .find(|r| r.0 == key)
                .expect("a parameter of the map")
                .1
        };
        // Raise the line rate and drop the Rc floor first: every other value then fits.
        let line = now.line_rate_mbps.max(p.line_rate_mbps);
        self.write(addr("line_rate_mbps"), line, "line_rate_mbps")?;
        self.write(addr("rpg_min_rate"), 1, "rpg_min_rate")?;
        for s in SPECS.iter().filter(|s| s.in_register_map()) {
            if s.build_time || s.key == "line_rate_mbps" || s.key == "rpg_min_rate" {
                continue;
            }
            self.write(addr(s.key), (s.get)(p), s.key)?;
        }
        self.write(addr("rpg_min_rate"), p.rpg_min_rate, "rpg_min_rate")?;
        self.write(addr("line_rate_mbps"), p.line_rate_mbps, "line_rate_mbps")?;
        let ctrl = self.reg("global_params", "ctrl")?;
        let status = self.reg("global_params", "status")?;
        self.write(ctrl, CTRL_APPLY, "ctrl")?;
        for _ in 0..APPLY_POLLS {
            if self.read(status, "status")? & 1 == 0 {
                return Ok(());
            }
        }
        Err(DriverError::Timeout(format!(
            "the core was still applying the parameters after {APPLY_POLLS} status reads"
        )))
    }

    /// Every counter, 64-bit, each read atomically (`_lo` latches `_hi`).
    pub fn counters(&mut self) -> Result<Vec<(&'static str, u64)>, DriverError> {
        self.reg("counters", "type")?;
        let mut out = Vec::new();
        for &(name, lo) in regs::COUNTER_REGS {
            let l = self.read(lo, name)?;
            let h = self.read(lo + 4, name)?;
            out.push((name, (h as u64) << 32 | l as u64));
        }
        Ok(out)
    }

    /// One QP's state: select it (which takes a snapshot), then read the window.
    pub fn qp(&mut self, qp: u32) -> Result<QpInfo, DriverError> {
        let sel = self.reg("qp_window", "qp_sel")?;
        let qps = self.read(regs::GLOBAL_PARAMS_QPS, "qps")?;
        if qp >= qps {
            return Err(DriverError::BadParams(format!(
                "QP {qp} is out of range: this core has {qps} QPs (0..={})",
                qps - 1
            )));
        }
        self.write(sel, qp, "qp_sel")?;
        let status = self.read(regs::QP_WINDOW_QP_STATUS, "qp_status")?;
        Ok(QpInfo {
            qp,
            limited: status & 1 == 1,
            mode: status >> 1 & 3,
            rc_mbps_q8: self.read(regs::QP_WINDOW_QP_RC, "qp_rc")?,
            rt_mbps_q8: self.read(regs::QP_WINDOW_QP_RT, "qp_rt")?,
            alpha_q20: self.read(regs::QP_WINDOW_QP_ALPHA, "qp_alpha")?,
            u_q24: (self.read(regs::QP_WINDOW_QP_U_HI, "qp_u_hi")? as u64) << 32
                | self.read(regs::QP_WINDOW_QP_U_LO, "qp_u_lo")? as u64,
            window: self.read(regs::QP_WINDOW_QP_WINDOW, "qp_window")?,
        })
    }
}
