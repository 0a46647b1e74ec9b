//! What travels on the simulated wires: data packets, ACKs, CNPs and PFC pause frames.
//!
//! Times are picoseconds ([`Ps`]): a 4096-byte packet at 800 Gb/s is 40 960 ps and a cable
//! of one metre 5000 ps, so every delay of network.md is a whole number of picoseconds.
//! Rates are Mb/s ([`RateMbps`]), the unit of the core's parameters.

/// Simulated time, picoseconds.
pub type Ps = u64;
/// Picoseconds per nanosecond.
pub const PS_PER_NS: Ps = 1_000;
/// Picoseconds per microsecond.
pub const PS_PER_US: Ps = 1_000_000;
/// Propagation delay of one metre of cable (network.md: 5 ns/m).
pub const PS_PER_M: Ps = 5 * PS_PER_NS;

/// A link rate, Mb/s (10 000 ..= 800 000 in a scenario).
pub type RateMbps = u64;

/// Time to put `bytes` on a link of `rate_mbps`, picoseconds, rounded up: `bytes * 8 / rate`.
pub fn wire_time_ps(bytes: u64, rate_mbps: RateMbps) -> Ps {
    // bits * 1e6 ps/us / (Mb/s) = ps
    (bytes * 8 * PS_PER_US).div_ceil(rate_mbps)
}

/// A node of the topology: hosts are `0..hosts`, switches follow them.
pub type NodeId = u32;
/// A port of a node (a host has one, port 0).
pub type PortId = u16;

/// The two traffic classes of network.md's switch.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Class {
    /// RoCE data: the lossless priority, paused by PFC, ECN-marked.
    Data,
    /// CNPs and ACKs: the strict-priority queue above the data, never paused or marked.
    Ctrl,
}

impl Class {
    /// Both classes, served in this order (strict priority).
    pub const BY_PRIORITY: [Class; 2] = [Class::Ctrl, Class::Data];

    /// Index for per-class arrays (`Data` = 0, `Ctrl` = 1).
    pub fn idx(self) -> usize {
        match self {
            Class::Data => 0,
            Class::Ctrl => 1,
        }
    }
}

/// Hops an INT stack holds (hpcc.md: 1 to 5).
pub const MAX_HOPS: usize = 5;

/// One INT hop in hpcc.md's wire units (64 bits on the wire).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct IntHop {
    /// Egress link rate code: 0=25, 1=50, 2=100, 3=200, 4=400, 5=800, 6=10, 7=40 Gb/s.
    pub rate: u8,
    /// Dequeue time, ns mod 2^24.
    pub ts: u32,
    /// Bytes the egress port has transmitted / (128 * hpcc_int_multi), mod 2^20.
    pub tx: u32,
    /// Egress queue bytes / (80 * hpcc_int_multi), at most 2^17 - 1.
    pub qlen: u32,
}

/// The INT rate code of a link rate, if hpcc.md has one.
pub fn int_rate_code(rate_mbps: RateMbps) -> Option<u8> {
    Some(match rate_mbps {
        25_000 => 0,
        50_000 => 1,
        100_000 => 2,
        200_000 => 3,
        400_000 => 4,
        800_000 => 5,
        10_000 => 6,
        40_000 => 7,
        _ => return None,
    })
}

/// An INT stack: the hops stamped so far, in path order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct IntStack {
    pub hops: [IntHop; MAX_HOPS],
    /// Hops `0..nhop` are valid.
    pub nhop: u8,
}

impl IntStack {
    /// Append a hop; a stack already holding [`MAX_HOPS`] keeps its first five.
    pub fn push(&mut self, h: IntHop) {
        if (self.nhop as usize) < MAX_HOPS {
            self.hops[self.nhop as usize] = h;
            self.nhop += 1;
        }
    }

    /// The valid hops.
    pub fn hops(&self) -> &[IntHop] {
        &self.hops[..self.nhop as usize]
    }
}

/// What a packet carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Payload {
    /// `bytes` of flow `flow` starting at byte `seq` of the flow.
    Data {
        seq: u64,
        bytes: u32,
        /// Marked CE by a switch (RED at enqueue).
        ce: bool,
        /// Stamped by each switch at dequeue when INT is on.
        int: IntStack,
    },
    /// The receiver has every byte of the flow below `seq`; `int` echoes the stack of the
    /// data packet that triggered it.
    Ack { seq: u64, int: IntStack },
    /// The receiver's notification point asks the sender to slow the flow down.
    Cnp,
}

impl Payload {
    /// The class the packet travels in.
    pub fn class(&self) -> Class {
        match self {
            Payload::Data { .. } => Class::Data,
            Payload::Ack { .. } | Payload::Cnp => Class::Ctrl,
        }
    }
}

/// One packet between two hosts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Packet {
    /// Unique in a run, in order of creation (ties in the event queue fall back to it).
    pub id: u64,
    /// The flow: its index in the run's flow list.
    pub flow: u32,
    /// Sending and receiving host of this packet (an ACK goes from the flow's receiver to
    /// its sender).
    pub src: NodeId,
    pub dst: NodeId,
    /// The flow's QP number at its sender (the same number at its receiver); ECMP hashes it.
    pub qp: u32,
    /// Bytes on the wire: payload plus headers.
    pub wire_bytes: u32,
    /// When the sender's NIC granted it (data) or created it (ACK, CNP).
    pub born: Ps,
    pub payload: Payload,
}

impl Packet {
    pub fn class(&self) -> Class {
        self.payload.class()
    }
}

/// Header bytes of a data packet on the wire (Ethernet, IPv4, UDP, BTH, ICRC, FCS), without
/// the INT stack.
pub const DATA_HEADER_BYTES: u32 = 62;
/// Bytes an INT stack adds to a data packet or an ACK when INT is on: a 2-byte header and
/// room for [`MAX_HOPS`] hops of 8 bytes (a fixed size, as the HPCC simulator reserves it).
pub const INT_BYTES: u32 = 2 + 8 * MAX_HOPS as u32;
/// Wire bytes of an ACK or a CNP without INT (a minimum Ethernet frame).
pub const CTRL_BYTES: u32 = 64;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wire_times_are_exact_picoseconds() {
        assert_eq!(wire_time_ps(4096, 800_000), 40_960);
        assert_eq!(wire_time_ps(1000, 100_000), 80_000);
        // 1 byte at 3 Mb/s: 2 666 666.67 ps, rounded up.
        assert_eq!(wire_time_ps(1, 3), 2_666_667);
    }

    #[test]
    fn an_int_stack_keeps_five_hops() {
        let mut s = IntStack::default();
        for i in 0..7 {
            s.push(IntHop {
                rate: 2,
                ts: i,
                tx: 0,
                qlen: 0,
            });
        }
        assert_eq!(s.nhop, 5);
        assert_eq!(s.hops().last().unwrap().ts, 4);
    }
}
