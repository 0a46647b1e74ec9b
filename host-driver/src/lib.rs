//! Host driver for the roce-cc core.
//!
//! For now only the register-access trait the driver will be built on; the register block,
//! the BAR backends (simulated core, golden model, mmap of a sysfs resource) and block
//! discovery come with the issue "Register block and host driver over a PCIe BAR stub".

/// 32-bit register access at a byte offset into a BAR.
pub trait RegIo {
    /// Read the 32-bit register at `offset` (a multiple of 4).
    fn read32(&mut self, offset: u64) -> u32;
    /// Write the 32-bit register at `offset` (a multiple of 4).
    fn write32(&mut self, offset: u64, value: u32);
}
