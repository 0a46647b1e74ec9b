//! The `uart` BAR against the simulated board: `UartBar` speaks the bridge protocol over a
//! byte stream into the Verilated UART bridge (`roce_cc_hdl::uart_bridge`), which drives the
//! Verilated `roce_cc_top` (16 QPs) on AXI4-Lite (`roce_cc_sim::uart_bridge_harness::
//! UartBoardSim`, a serial line bit-banged at the bridge's divisor both ways). Every answer
//! must be the `model` BAR's: the block list, the firmware identity, parameters loaded and
//! read back, refused writes, a QP's state, the counters, and every address of the BAR.

#![cfg(feature = "model")]

use roce_cc_host_driver::{BusError, Device, ModelBar, RegIo, UartBar, regs};
use roce_cc_params::Params;
use roce_cc_regmap::BAR_SIZE;
use roce_cc_sim::uart_bridge_harness::UartBoardSim;
use std::io::{Read, Write};
use std::time::Duration;

fn build16() -> Params {
    Params {
        qps: 16,
        ..Params::default()
    }
}

fn board() -> UartBar<UartBoardSim> {
    UartBar::new(UartBoardSim::new(&build16()).unwrap(), "sim-uart")
}

#[test]
fn uart_and_model_bars_agree() {
    let mut uart = Device::open(board()).unwrap();
    let mut model = Device::open(ModelBar::new(&build16())).unwrap();
    assert_eq!(uart.blocks(), model.blocks());
    assert_eq!(uart.fw_id().unwrap(), model.fw_id().unwrap());
    assert_eq!(uart.params().unwrap(), model.params().unwrap());

    let p = Params {
        qps: 16,
        ..Params::profile("paper").unwrap()
    };
    uart.load_params(&p).unwrap();
    model.load_params(&p).unwrap();
    assert_eq!(uart.params().unwrap(), p);

    let writes = [
        (regs::GLOBAL_PARAMS_QPS, 4, 0xf),        // read-only: SLVERR
        (0x7f0, 1, 0xf),                          // no register: DECERR
        (regs::RP_PARAMS_RPG_AI_RATE, 1, 0x3),    // partial write refused
        (regs::RP_PARAMS_RPG_THRESHOLD, 40, 0xf), // out of range
        (regs::QP_WINDOW_QP_SEL, 3, 0xf),         // fine
        (regs::RP_PARAMS_RPG_THRESHOLD, 7, 0xf),  // fine
    ];
    for (a, v, strb) in writes {
        assert_eq!(
            uart.bar().write32_strb(a, v, strb),
            model.bar().write32_strb(a, v, strb),
            "write {v:#x} (strobes {strb:#x}) at {a:#05x}"
        );
    }
    for qp in [0, 5, 15] {
        assert_eq!(uart.qp(qp).unwrap(), model.qp(qp).unwrap(), "QP {qp}");
    }
    assert_eq!(uart.counters().unwrap(), model.counters().unwrap());
    for a in (0..BAR_SIZE).step_by(4).chain([0x1000, 0x2ffc]) {
        assert_eq!(
            uart.bar().read32(a),
            model.bar().read32(a),
            "read at {a:#05x}"
        );
    }
    let c = model.counters().unwrap();
    let get = |n: &str| c.iter().find(|x| x.0 == n).unwrap().1;
    assert!(get("reg_slverr") >= 3 && get("reg_decerr") >= 1, "{c:?}");
}

/// Drops the `n`-th byte written (counting from 0), like a noisy line.
struct Lossy {
    inner: UartBoardSim,
    written: usize,
    drop: usize,
}

impl Read for Lossy {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.inner.read(buf)
    }
}

impl Write for Lossy {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        for &b in buf {
            if self.written != self.drop {
                self.inner.write_all(&[b])?;
            }
            self.written += 1;
        }
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[test]
fn a_lost_byte_costs_one_access() {
    let first = roce_cc_regmap::blocks()[0].type_id;
    // Byte 6 is the second byte of the second request (a read is 4 bytes).
    let lossy = Lossy {
        inner: UartBoardSim::new(&build16()).unwrap(),
        written: 0,
        drop: 5,
    };
    let mut bar = UartBar::new(lossy, "sim-uart").with_timeout(Duration::from_millis(200));
    assert_eq!(bar.read32(0), Ok(first));
    let e = bar.read32(0).unwrap_err();
    assert!(
        matches!(&e, BusError::Backend(m) if m.contains("no answer") && m.contains("sim-uart")),
        "{e:?}"
    );
    assert_eq!(bar.read32(0), Ok(first));
    assert_eq!(bar.read32(4), Ok(roce_cc_regmap::blocks()[0].version));
    // The bridge dropped the partial frame after its inter-byte timeout.
    assert_eq!(bar.stream().inner.bridge_errors, 1);
}

#[test]
fn a_driver_killed_mid_frame_does_not_wedge_the_next_one() {
    let first = roce_cc_regmap::blocks()[0].type_id;
    let mut bar = board();
    assert_eq!(bar.read32(0), Ok(first));
    // Half a write request, then the driver is gone.
    bar.stream().write_all(&[0x57, 0x10, 0x00]).unwrap();
    let stream = bar.into_inner();
    // A new session waits for the line to go quiet first; the bridge has dropped the
    // partial frame by then.
    let mut bar = UartBar::new(stream, "sim-uart");
    assert_eq!(bar.read32(0), Ok(first));
    assert_eq!(bar.stream().bridge_errors, 1);
}
