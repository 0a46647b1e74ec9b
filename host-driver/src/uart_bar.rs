//! The `uart` BAR: the core's registers through the UART bridge of a board design
//! (`roce_cc_hdl::uart_bridge`, protocol in docs/uart_bridge.md), over any byte stream:
//! a serial device opened as a file (e.g. `/dev/ttyUSB0`, set up with `stty`, see
//! [`stty_args`]), or a simulated board in the tests.
//!
//! Every access is one request frame and one response frame. A response that does not come
//! within the timeout, or that is garbled, fails the access with a [`BusError::Backend`]
//! saying so; the next access first waits for the line to go quiet and drops whatever
//! arrived late, so one lost byte costs one access, not the session.

use crate::{BusError, RegIo};
use std::io::{ErrorKind, Read, Write};
use std::time::{Duration, Instant};

/// Op byte of a read request.
pub const OP_READ: u8 = 0x52;
/// Op byte of a write request.
pub const OP_WRITE: u8 = 0x57;
/// Status of a request the bridge refused because its check byte was wrong.
pub const STATUS_BAD_CHECK: u8 = 0x10;
/// The board's baud rate as shipped.
pub const DEFAULT_BAUD: u32 = 115_200;
/// How long an access waits for its response by default.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_millis(500);

/// The `stty` arguments that put serial device `path` in raw 8N1 mode at `baud`, with no
/// flow control and reads that return after 0.1 s without data (so a silent device cannot
/// block the driver): `stty -F <path> <these>`.
pub fn stty_args(baud: u32) -> Vec<String> {
    [
        baud.to_string().as_str(),
        "raw",
        "cs8",
        "-cstopb",
        "-parenb",
        "-echo",
        "-ixon",
        "-ixoff",
        "-crtscts",
        "clocal",
        "min",
        "0",
        "time",
        "1",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}

fn xor(bytes: &[u8]) -> u8 {
    bytes.iter().fold(0, |a, b| a ^ b)
}

/// [`RegIo`] over the UART bridge, on byte stream `S`.
pub struct UartBar<S: Read + Write> {
    stream: S,
    name: String,
    timeout: Duration,
    /// The last access failed: resynchronise before the next one.
    dirty: bool,
}

impl<S: Read + Write> UartBar<S> {
    /// The bridge on `stream`, called `name` in messages (e.g. the device path), with the
    /// default response timeout. Reads on `stream` should return (with 0 bytes or
    /// `WouldBlock`/`TimedOut`) when no data comes for a while, as a tty set up with
    /// [`stty_args`] does; a stream whose reads block forever cannot time out.
    pub fn new(stream: S, name: &str) -> Self {
        Self {
            stream,
            name: name.to_string(),
            timeout: DEFAULT_TIMEOUT,
            dirty: true,
        }
    }

    /// Set how long an access waits for its response.
    pub fn with_timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// The stream (e.g. the simulated board).
    pub fn stream(&mut self) -> &mut S {
        &mut self.stream
    }

    /// The stream back, e.g. to hand it to a new session.
    pub fn into_inner(self) -> S {
        self.stream
    }

    /// Wait until a read returns nothing (the bridge has dropped any partial frame: a read
    /// with no data lasts longer than its inter-byte timeout) and drop what came.
    fn resync(&mut self) -> Result<(), BusError> {
        let deadline = Instant::now() + self.timeout;
        let mut buf = [0u8; 64];
        loop {
            match self.stream.read(&mut buf) {
                Ok(0) => break,
                Ok(_) => {}
                Err(e) if quiet(&e) => break,
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(e) => return Err(self.io_error("reading", e)),
            }
            if Instant::now() > deadline {
                return Err(BusError::Backend(format!(
                    "{}: the line does not go quiet (a stream of bytes nobody asked for): \
                     is this the board's UART, at the right baud rate?",
                    self.name
                )));
            }
        }
        self.dirty = false;
        Ok(())
    }

    fn io_error(&self, what: &str, e: std::io::Error) -> BusError {
        BusError::Backend(format!("{}: {what} the serial line: {e}", self.name))
    }

    /// Send `req` and receive a response of `len` bytes; check its check byte and status.
    fn transact(&mut self, req: &[u8], len: usize) -> Result<Vec<u8>, BusError> {
        if self.dirty {
            self.resync()?;
        }
        self.dirty = true;
        self.stream
            .write_all(req)
            .and_then(|_| self.stream.flush())
            .map_err(|e| self.io_error("writing to", e))?;
        let deadline = Instant::now() + self.timeout;
        let mut resp = vec![0u8; len];
        let mut got = 0;
        while got < len {
            match self.stream.read(&mut resp[got..]) {
                Ok(n) => got += n,
                Err(e) if quiet(&e) || e.kind() == ErrorKind::Interrupted => {}
                Err(e) => return Err(self.io_error("reading", e)),
            }
            if got < len && Instant::now() > deadline {
                return Err(BusError::Backend(format!(
                    "{}: no answer from the UART bridge within {:?} ({got} of {len} bytes): \
                     is the board powered and programmed with the roce-cc bitstream, is this \
                     its serial port, and is the baud rate right (stty -F <device> {})?",
                    self.name,
                    self.timeout,
                    stty_args(DEFAULT_BAUD).join(" ")
                )));
            }
        }
        if xor(&resp) != 0 {
            return Err(BusError::Backend(format!(
                "{}: garbled answer from the UART bridge ({resp:02x?}: bad check byte)",
                self.name
            )));
        }
        self.dirty = false;
        match resp[0] {
            0 => Ok(resp),
            2 => Err(BusError::SlvErr),
            3 => Err(BusError::DecErr),
            STATUS_BAD_CHECK => Err(BusError::Backend(format!(
                "{}: the UART bridge received a corrupted request (bad check byte); nothing \
                 was done",
                self.name
            ))),
            s => Err(BusError::Backend(format!(
                "{}: unknown status 0x{s:02x} from the UART bridge",
                self.name
            ))),
        }
    }
}

/// A read error that only means "no data yet".
fn quiet(e: &std::io::Error) -> bool {
    matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut)
}

fn addr16(offset: u32) -> Result<u16, BusError> {
    u16::try_from(offset).map_err(|_| {
        BusError::Backend(format!(
            "offset 0x{offset:x} does not fit the UART bridge's 16-bit address"
        ))
    })
}

impl<S: Read + Write> RegIo for UartBar<S> {
    fn read32(&mut self, offset: u32) -> Result<u32, BusError> {
        let a = addr16(offset)?.to_le_bytes();
        let mut req = vec![OP_READ, a[0], a[1]];
        req.push(xor(&req));
        let r = self.transact(&req, 6)?;
        Ok(u32::from_le_bytes([r[1], r[2], r[3], r[4]]))
    }

    fn write32_strb(&mut self, offset: u32, value: u32, strb: u32) -> Result<(), BusError> {
        let a = addr16(offset)?.to_le_bytes();
        let mut req = vec![OP_WRITE, a[0], a[1]];
        req.extend_from_slice(&value.to_le_bytes());
        req.push((strb & 0xf) as u8);
        req.push(xor(&req));
        self.transact(&req, 2).map(|_| ())
    }
}

/// `uart:PATH[@BAUD]`: the device path and the baud rate ([`DEFAULT_BAUD`] if not given);
/// `None` if `spec` does not start with `uart:`.
pub fn parse_uart_spec(spec: &str) -> Option<Result<(String, u32), String>> {
    let rest = spec.strip_prefix("uart:")?;
    let (path, baud) = match rest.rsplit_once('@') {
        Some((p, b)) => match b.parse::<u32>() {
            Ok(b) if b > 0 => (p, b),
            _ => {
                return Some(Err(format!(
                    "--bar {spec}: `{b}` is not a baud rate (uart:PATH[@BAUD], e.g. \
                     uart:/dev/ttyUSB0@115200)"
                )));
            }
        },
        None => (rest, DEFAULT_BAUD),
    };
    if path.is_empty() {
        return Some(Err(format!(
            "--bar {spec}: no device path (uart:PATH[@BAUD], e.g. uart:/dev/ttyUSB0)"
        )));
    }
    Some(Ok((path.to_string(), baud)))
}

/// Open serial device `path` at `baud` for a [`UartBar`]: `stty` puts it in raw mode (see
/// [`stty_args`]), then it is opened read-write.
pub fn open_serial(path: &str, baud: u32) -> Result<UartBar<std::fs::File>, String> {
    let file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open(path)
        .map_err(|e| format!("{path}: {e}"))?;
    let out = std::process::Command::new("stty")
        .arg("-F")
        .arg(path)
        .args(stty_args(baud))
        .output()
        .map_err(|e| format!("cannot run stty to set up {path}: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "{path}: stty could not set {baud} baud raw mode (is it a serial device?): {}",
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    Ok(UartBar::new(file, path))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A device that takes every byte and never answers.
    struct Silent;
    impl Read for Silent {
        fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
            std::thread::sleep(Duration::from_millis(5));
            Ok(0)
        }
    }
    impl Write for Silent {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    /// A device that answers every request with `answer`.
    struct Canned(Vec<u8>, Vec<u8>);
    impl Read for Canned {
        fn read(&mut self, b: &mut [u8]) -> std::io::Result<usize> {
            let n = b.len().min(self.1.len());
            b[..n].copy_from_slice(&self.1[..n]);
            self.1.drain(..n);
            Ok(n)
        }
    }
    impl Write for Canned {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            self.1.extend_from_slice(&self.0);
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_silent_device_times_out_with_a_clear_error() {
        let mut bar = UartBar::new(Silent, "/dev/ttyTEST").with_timeout(Duration::from_millis(50));
        let e = bar.read32(0).unwrap_err();
        let BusError::Backend(m) = e else {
            panic!("{e:?}")
        };
        assert!(m.contains("/dev/ttyTEST") && m.contains("no answer"), "{m}");
        assert!(m.contains("0 of 6 bytes"), "{m}");
    }

    #[test]
    fn garbled_answers_and_status_codes() {
        let mut bar = UartBar::new(Canned(vec![0, 1, 2, 3, 4, 9], vec![]), "t");
        assert!(matches!(bar.read32(0), Err(BusError::Backend(m)) if m.contains("garbled")));
        let mut bar = UartBar::new(Canned(vec![2, 2], vec![]), "t");
        assert_eq!(bar.write32(4, 1), Err(BusError::SlvErr));
        let mut bar = UartBar::new(Canned(vec![3, 3], vec![]), "t");
        assert_eq!(bar.write32(4, 1), Err(BusError::DecErr));
        let mut bar = UartBar::new(Canned(vec![0x10, 0x10], vec![]), "t");
        assert!(matches!(bar.write32(4, 1), Err(BusError::Backend(m)) if m.contains("corrupted")));
        let d = 0x1234_5678u32.to_le_bytes();
        let ok = vec![0, d[0], d[1], d[2], d[3], xor(&d)];
        let mut bar = UartBar::new(Canned(ok, vec![]), "t");
        assert_eq!(bar.read32(8), Ok(0x1234_5678));
    }

    #[test]
    fn uart_specs() {
        assert_eq!(parse_uart_spec("sim"), None);
        assert_eq!(
            parse_uart_spec("uart:/dev/ttyUSB0"),
            Some(Ok(("/dev/ttyUSB0".into(), DEFAULT_BAUD)))
        );
        assert_eq!(
            parse_uart_spec("uart:/dev/ttyUSB1@1000000"),
            Some(Ok(("/dev/ttyUSB1".into(), 1_000_000)))
        );
        assert!(matches!(parse_uart_spec("uart:/dev/x@fast"), Some(Err(_))));
        assert!(matches!(parse_uart_spec("uart:"), Some(Err(_))));
    }

    #[test]
    fn frames_are_as_documented() {
        // docs/uart_bridge.md: read of 0x123 = 52 23 01 70; write 0xdeadbeef to 0x010.
        struct Rec(Vec<u8>);
        impl Read for Rec {
            fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
                Ok(0)
            }
        }
        impl Write for Rec {
            fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
                self.0.extend_from_slice(b);
                Ok(b.len())
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        let mut bar = UartBar::new(Rec(vec![]), "t").with_timeout(Duration::from_millis(1));
        let _ = bar.read32(0x123);
        assert_eq!(bar.stream().0, vec![0x52, 0x23, 0x01, 0x52 ^ 0x23 ^ 0x01]);
        bar.stream().0.clear();
        let _ = bar.write32_strb(0x010, 0xdead_beef, 0x3);
        let mut want = vec![0x57, 0x10, 0x00, 0xef, 0xbe, 0xad, 0xde, 0x03];
        want.push(xor(&want));
        assert_eq!(bar.stream().0, want);
    }
}
