//! A host: its NIC's core, its uplink, and the flows it sends and receives.
//!
//! - **Sending.** A flow that starts takes the host's lowest free QP (a flow waits while
//!   all are taken), gets a `SetMode` command (a fresh sender state in the scenario's
//!   congestion control) and a doorbell for its bytes (split into posts of at most 2^31
//!   bytes). Each grant of the core becomes a data packet of the granted payload plus
//!   [`DATA_HEADER_BYTES`] (and [`INT_BYTES`] with INT) on the uplink, in the cycle of the
//!   grant; the core's pacer is also the RP's transmitted-packet input, inside the core.
//! - **The uplink.** One packet at a time, control packets (ACKs, CNPs) before data, with a
//!   transmit slot of one data packet: the core's port is ready in a cycle when the slot
//!   is empty and PFC has not paused the link's data priority, so a grant made while the
//!   link sends the previous packet follows it back to back (the link does not wait for
//!   the next cycle boundary).
//! - **Receiving.** Each data packet goes to the core's NP as `{qp, ce}` on the flow's QP
//!   at the receiver (its own lowest free receive QP, taken at the flow's start); every
//!   `ack_every` packets and on the flow's last byte the host sends an ACK that echoes the
//!   packet's INT stack. A CNP request of the NP becomes a CNP packet to the flow's sender.
//! - **ACKs and CNPs at the sender.** A CNP goes to the RP on the flow's QP. An ACK goes to
//!   the core (the window unit and the pacer's bytes in flight) for an HPCC flow; its
//!   sequence numbers count the QP's bytes since the QP first sent (the pacer's `sent`,
//!   modulo 2^32), so a QP used by several flows in turn stays consistent. The flow ends at
//!   the sender when its last byte is acknowledged: its completion time (FCT) is that
//!   time minus its start, and its QP is free again.

use crate::flows::Flow;
use crate::nic::{Engine, NicCore, NicOut};
use crate::packet::{
    CTRL_BYTES, DATA_HEADER_BYTES, INT_BYTES, IntStack, NodeId, Packet, Payload, Ps, wire_time_ps,
};
use crate::scenario::CcMode;
use roce_cc_params::Params;
use std::collections::{BTreeSet, VecDeque};

/// Largest doorbell the host rings at once, bytes.
const POST_MAX: u64 = 1 << 31;

/// A flow as its two ends see it.
#[derive(Clone, Debug)]
pub struct FlowState {
    pub flow: Flow,
    /// The sender's QP (once started).
    pub sqp: Option<u32>,
    /// The receiver's QP.
    pub rqp: Option<u32>,
    /// The QP's `sent` (bytes granted on it, mod 2^32) when the flow started.
    pub seq_base: u32,
    /// Payload bytes granted, received in order, acknowledged.
    pub granted: u64,
    pub received: u64,
    pub acked: u64,
    /// Payload bytes the receiver never got (dropped by a switch).
    pub lost: u64,
    /// Data packets received (for `ack_every`).
    pub rx_packets: u64,
    /// When the QP was taken (the flow may wait for one), and when its last byte was
    /// acknowledged.
    pub started: Option<Ps>,
    pub done: Option<Ps>,
}

impl FlowState {
    pub fn new(flow: Flow) -> Self {
        Self {
            flow,
            sqp: None,
            rqp: None,
            seq_base: 0,
            granted: 0,
            received: 0,
            lost: 0,
            acked: 0,
            rx_packets: 0,
            started: None,
            done: None,
        }
    }
}

/// What a host asks the network to do after an input or a cycle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HostAction {
    /// A packet leaves on the uplink at `at`, its last bit out at `done`.
    Send { pkt: Packet, at: Ps, done: Ps },
}

/// One host.
pub struct Host {
    pub id: NodeId,
    pub nic: NicCore,
    pub engine: Engine,
    /// Rate of the uplink, Mb/s.
    link_mbps: u64,
    /// The uplink is busy until this time.
    link_free: Ps,
    /// The data packet granted and waiting for the link.
    tx_slot: Option<Packet>,
    /// The data priority of the uplink is paused (PFC from the switch).
    pub paused: bool,
    /// Time paused so far, and since when.
    pub paused_ps: Ps,
    paused_since: Ps,
    ctrl_q: VecDeque<Packet>,
    free_sqp: BTreeSet<u32>,
    free_rqp: BTreeSet<u32>,
    /// Flow of each sending / receiving QP.
    sqp_flow: Vec<Option<u32>>,
    rqp_flow: Vec<Option<u32>>,
    /// Bytes granted on each QP, mod 2^32 (the pacer's `sent`).
    qp_sent: Vec<u32>,
    /// Flows waiting for a QP.
    waiting: VecDeque<u32>,
    cc: CcMode,
    host_rate_q8: u32,
    ack_every: u64,
    int: bool,
    /// Bytes the host sent on its uplink, and payload bytes it received.
    pub tx_wire_bytes: u64,
    pub rx_payload_bytes: u64,
}

impl Host {
    /// Host `id` with a core for `p`.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        id: NodeId,
        p: &Params,
        engine: Engine,
        link_mbps: u64,
        cc: CcMode,
        host_rate_mbps: u32,
        ack_every: u32,
        int: bool,
    ) -> Result<Self, String> {
        let n = p.qps as usize;
        Ok(Self {
            id,
            nic: NicCore::new(p, engine)?,
            engine,
            link_mbps,
            link_free: 0,
            tx_slot: None,
            paused: false,
            paused_ps: 0,
            paused_since: 0,
            ctrl_q: VecDeque::new(),
            free_sqp: (0..p.qps).collect(),
            free_rqp: (0..p.qps).collect(),
            sqp_flow: vec![None; n],
            rqp_flow: vec![None; n],
            qp_sent: vec![0; n],
            waiting: VecDeque::new(),
            cc,
            host_rate_q8: host_rate_mbps << 8,
            ack_every: u64::from(ack_every),
            int,
            tx_wire_bytes: 0,
            rx_payload_bytes: 0,
        })
    }

    fn ctrl_bytes(&self) -> u32 {
        CTRL_BYTES + if self.int { INT_BYTES } else { 0 }
    }

    /// Wire bytes of a data packet of `payload` bytes.
    pub fn data_wire_bytes(int: bool, payload: u32) -> u32 {
        payload + DATA_HEADER_BYTES + if int { INT_BYTES } else { 0 }
    }

    /// Whether the core's port takes a grant (the transmit slot is empty, no pause).
    pub fn port_ready(&self) -> bool {
        self.tx_slot.is_none() && !self.paused
    }

    /// Flow `f` starts sending at `t` (or waits for a QP).
    pub fn start_flow(&mut self, t: Ps, flows: &mut [FlowState], f: u32) {
        let Some(&q) = self.free_sqp.iter().next() else {
            self.waiting.push_back(f);
            return;
        };
        self.free_sqp.remove(&q);
        let fs = &mut flows[f as usize];
        fs.sqp = Some(q);
        fs.seq_base = self.qp_sent[q as usize];
        fs.started = Some(t);
        self.sqp_flow[q as usize] = Some(f);
        let rate = if self.cc == CcMode::Host {
            self.host_rate_q8
        } else {
            0
        };
        self.nic.set_mode(q, self.cc.code(), rate);
        let mut left = fs.flow.bytes;
        while left > 0 {
            let b = left.min(POST_MAX);
            self.nic.post(q, b as u32);
            left -= b;
        }
    }

    /// Flow `f` will arrive here: take a receive QP for it.
    pub fn open_rx(&mut self, flows: &mut [FlowState], f: u32) {
        // More flows into one host than it has QPs share the last one's NP state.
        let q = match self.free_rqp.iter().next() {
            Some(&q) => {
                self.free_rqp.remove(&q);
                q
            }
            None => self.rqp_flow.len() as u32 - 1,
        };
        flows[f as usize].rqp = Some(q);
        self.rqp_flow[q as usize] = Some(f);
    }

    /// Queue a control packet; it leaves when the link is free.
    fn send_ctrl(&mut self, t: Ps, pkt: Packet, out: &mut Vec<HostAction>) {
        self.ctrl_q.push_back(pkt);
        self.link_idle(t, out);
    }

    /// The link may be free at `t`: start the next control packet, else the data packet
    /// in the slot unless paused.
    pub fn link_idle(&mut self, t: Ps, out: &mut Vec<HostAction>) {
        if self.link_free > t {
            return;
        }
        let pkt = match self.ctrl_q.pop_front() {
            Some(p) => p,
            None if !self.paused && self.tx_slot.is_some() => self.tx_slot.take().expect("some"),
            None => return,
        };
        let done = t + wire_time_ps(u64::from(pkt.wire_bytes), self.link_mbps);
        self.link_free = done;
        self.tx_wire_bytes += u64::from(pkt.wire_bytes);
        out.push(HostAction::Send { pkt, at: t, done });
    }

    /// The data packet waiting in the transmit slot, if any.
    pub fn tx_slot(&self) -> Option<&Packet> {
        self.tx_slot.as_ref()
    }

    /// The switch's pause of the uplink's data priority takes effect (`on`) or ends.
    pub fn set_paused(&mut self, t: Ps, on: bool) {
        if on && !self.paused {
            self.paused_since = t;
        } else if !on && self.paused {
            self.paused_ps += t - self.paused_since;
        }
        self.paused = on;
    }

    /// What the core did in the cycle starting at `t`.
    pub fn on_nic_out(
        &mut self,
        t: Ps,
        o: &NicOut,
        flows: &mut [FlowState],
        next_id: &mut u64,
        out: &mut Vec<HostAction>,
    ) -> Result<(), String> {
        if let Some((qp, bytes)) = o.grant {
            let f = self.sqp_flow[qp as usize].ok_or_else(|| {
                format!("host {}: a grant on QP {qp}, which has no flow", self.id)
            })?;
            let fs = &mut flows[f as usize];
            let wire = Self::data_wire_bytes(self.int, bytes);
            let pkt = Packet {
                id: take(next_id),
                flow: f,
                src: self.id,
                dst: fs.flow.dst,
                qp,
                wire_bytes: wire,
                born: t,
                payload: Payload::Data {
                    seq: fs.granted,
                    bytes,
                    ce: false,
                    int: IntStack::default(),
                },
            };
            fs.granted += u64::from(bytes);
            if fs.granted > fs.flow.bytes {
                return Err(format!(
                    "host {}: flow {f} granted {} of its {} bytes",
                    self.id, fs.granted, fs.flow.bytes
                ));
            }
            self.qp_sent[qp as usize] = self.qp_sent[qp as usize].wrapping_add(bytes);
            self.tx_slot = Some(pkt);
            self.link_idle(t, out);
        }
        if let Some(c) = o.cnp {
            let f = self.rqp_flow[c.qp as usize].ok_or_else(|| {
                format!(
                    "host {}: a CNP request on QP {}, which has no flow",
                    self.id, c.qp
                )
            })?;
            let fs = &flows[f as usize];
            let pkt = Packet {
                id: take(next_id),
                flow: f,
                src: self.id,
                dst: fs.flow.src,
                qp: fs.sqp.unwrap_or(0),
                wire_bytes: CTRL_BYTES,
                born: t,
                payload: Payload::Cnp,
            };
            self.send_ctrl(t, pkt, out);
        }
        Ok(())
    }

    /// A packet for this host arrived (its last bit) at `t`. Returns the flow that
    /// completed at this host, if any.
    pub fn receive(
        &mut self,
        t: Ps,
        pkt: Packet,
        flows: &mut [FlowState],
        next_id: &mut u64,
        out: &mut Vec<HostAction>,
    ) -> Result<Option<u32>, String> {
        let f = pkt.flow;
        match pkt.payload {
            Payload::Data {
                seq,
                bytes,
                ce,
                int,
                ..
            } => {
                let (ctrl, ack_every) = (self.ctrl_bytes(), self.ack_every);
                let fs = &mut flows[f as usize];
                if seq < fs.received {
                    return Err(format!(
                        "host {}: flow {f} received bytes from {seq}, expected {}: packets \
                         reordered",
                        self.id, fs.received
                    ));
                }
                // A gap is data a switch dropped: it is never retransmitted, so the flow
                // cannot complete (the run's drops count it).
                fs.lost += seq - fs.received;
                fs.received = seq + u64::from(bytes);
                fs.rx_packets += 1;
                self.rx_payload_bytes += u64::from(bytes);
                let rqp = fs.rqp.expect("receive QP opened at the flow's start");
                self.nic.rx(rqp, ce);
                let last = fs.received == fs.flow.bytes;
                if last || fs.rx_packets % ack_every == 0 {
                    let ack = Packet {
                        id: take(next_id),
                        flow: f,
                        src: self.id,
                        dst: fs.flow.src,
                        qp: pkt.qp,
                        wire_bytes: ctrl,
                        born: t,
                        payload: Payload::Ack {
                            seq: fs.received,
                            int,
                        },
                    };
                    self.send_ctrl(t, ack, out);
                }
                if last {
                    // The QP is free for the next flow; a CNP the NP still asks for this
                    // flow (its last packets' marks) goes to its sender until then.
                    self.free_rqp.insert(rqp);
                }
                Ok(None)
            }
            Payload::Ack { seq, int } => {
                let fs = &mut flows[f as usize];
                let qp = fs.sqp.expect("an ACK for a started flow");
                if seq <= fs.acked {
                    return Ok(None);
                }
                fs.acked = seq;
                if self.cc == CcMode::Hpcc {
                    let mut a = roce_cc_sim::hpcc_window::Ack {
                        seq: fs.seq_base.wrapping_add(seq as u32),
                        snd_nxt: fs.seq_base.wrapping_add(fs.granted as u32),
                        nhop: int.nhop,
                        ..Default::default()
                    };
                    for (i, h) in int.hops().iter().enumerate() {
                        a.hops[i] = roce_cc_sim::hpcc_window::Hop {
                            rate: h.rate,
                            ts: h.ts,
                            tx: h.tx,
                            qlen: h.qlen,
                        };
                    }
                    self.nic.ack(qp, a);
                }
                if fs.acked == fs.flow.bytes {
                    fs.done = Some(t);
                    self.sqp_flow[qp as usize] = None;
                    self.free_sqp.insert(qp);
                    if let Some(w) = self.waiting.pop_front() {
                        self.start_flow(t, flows, w);
                    }
                    return Ok(Some(f));
                }
                Ok(None)
            }
            Payload::Cnp => {
                if let Some(qp) = flows[f as usize].sqp {
                    if flows[f as usize].done.is_none() {
                        self.nic.cnp(qp);
                    }
                }
                Ok(None)
            }
        }
    }
}

fn take(n: &mut u64) -> u64 {
    let v = *n;
    *n += 1;
    v
}
