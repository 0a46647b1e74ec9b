//! An output-queued shared-buffer switch with PFC, RED ECN and INT (network.md, "Switch
//! behaviour").
//!
//! The switch holds no clock and schedules nothing: the caller's event loop tells it when a
//! packet has been fully received ([`Switch::arrive`], with the egress port the caller's
//! routing chose), when an egress port has finished putting its packet on the wire
//! ([`Switch::port_free`]) and when a pause frame from a downstream peer takes effect
//! ([`Switch::set_paused`]). Each call appends what the switch does to a `Vec` of
//! [`SwitchAction`]s, in the order it does them.
//!
//! # Queues and scheduling
//!
//! Every egress port has two FIFO queues, one per [`Class`]. `Ctrl` (ACKs, CNPs) is served
//! before `Data` (strict priority, not preemptive: a packet on the wire finishes). `Data`
//! is served only while the port is not paused by its downstream peer; `Ctrl` is never
//! paused. A port sends one packet at a time: when it is idle and has something to send it
//! starts at once ([`SwitchAction::Transmit`], `done` = start + the packet's wire time at
//! the port rate); the caller calls [`Switch::port_free`] at `done` and the port starts its
//! next packet. A pause that takes effect while a data packet is on the wire does not stop
//! that packet.
//!
//! # Buffer
//!
//! One buffer of `buffer_bytes` is split into a **headroom** reserve per port (only with
//! PFC) and the **shared** pool, the rest. A packet holds `wire_bytes` of buffer from the
//! moment it has arrived until its transmission **starts** (the dequeue): the buffer and
//! the egress queue lengths that RED, INT, PFC and the statistics see are the bytes
//! waiting, not counting packets on the wire.
//!
//! - A data packet is charged to its ingress priority group (PG: ingress port, class
//!   `Data`) and to its egress `Data` queue, as a whole either to the shared pool or to its
//!   ingress port's headroom. It goes to the shared pool if its PG is not in the XOFF state
//!   and the pool has room for it; otherwise (PFC on) to the headroom if the headroom of its
//!   ingress port has room for it; otherwise it is dropped. So a PG in XOFF puts what
//!   still arrives (the upstream's in-flight data) into headroom even while the shared
//!   pool has room, and a PG whose headroom overflows loses packets: a headroom too small
//!   for the real response shows as drops.
//! - A PG's use is counted as a whole, as a switch's MMU counts it: a data packet that
//!   leaves frees its PG's headroom first and its shared use with the rest, whichever part
//!   it was charged to on arrival. The headroom is thus the PG's use beyond what it holds
//!   in the shared pool, and it is empty again before the PG's shared use falls (so before
//!   its XON): a PG that goes XOFF again finds its whole headroom free. (Freeing each
//!   packet's own charge instead would keep the headroom full until the packets that
//!   landed in it reach the head of a long egress queue, and the next XOFF would drop
//!   in-flight data.)
//! - A control packet uses the shared pool only, with no PG and no PFC; it is dropped when
//!   the pool has no room for it.
//! - With PFC off there is no headroom: the whole buffer is the shared pool, and packets
//!   are dropped when it is full.
//!
//! Headroom of a port, bytes (network.md, the guide's formula with `Tm1 = Tm2 =
//! response_ps`): `ceil((2 * response_ps + 2 * cable_ps) * rate_mbps / 8e6) + 2 *
//! mtu_wire_bytes`. It covers what the upstream still sends after the XOFF decision: the
//! two ends' response times and the cable both ways at the link rate, plus one maximum
//! packet at each end (one being received here when XOFF is decided, one the upstream has
//! just started and finishes). [`Switch::new`] refuses a configuration whose headroom
//! leaves no shared pool.
//!
//! # PFC (dynamic threshold)
//!
//! With `alpha = 2^pfc_alpha_log2` and `free` = shared pool bytes not in use, a PG's
//! threshold is `alpha * free` (integer: `free << k` or `free >> -k`). After every change
//! of the buffer (an arrival or a dequeue of any packet) every PG is checked against the
//! threshold at that moment:
//! - a PG not in XOFF whose shared use exceeds the threshold goes to XOFF;
//! - a PG in XOFF whose headroom is empty and whose shared use is at most `threshold -
//!   pfc_resume_offset_bytes` goes back to XON. The headroom must be empty, not only the
//!   whole use under the threshold: the threshold also rises when other PGs drain, and a
//!   PG resumed with data still in its headroom would meet its next XOFF with less than a
//!   full headroom for the upstream's in-flight data, and could drop some of it.
//!
//! A PG that has to charge a packet to headroom goes to XOFF too (the shared pool was full).
//! Each change of state emits one [`SwitchAction::Pfc`] for that ingress port, XOFF or XON,
//! in ascending port order; the caller delivers the pause frame upstream after the cable
//! delay and the upstream's response time. The caller also tells the switch when a
//! downstream peer's pause takes effect on an egress port ([`Switch::set_paused`]).
//!
//! # ECN (RED at enqueue)
//!
//! With `ecn` set, a data packet that is admitted sees `q` = its egress `Data` queue bytes
//! before it: `q <= kmin_bytes` leaves it unmarked; `kmin < q <= kmax` marks it
//! (`Payload::Data.ce = true`) with probability `pmax * (q - kmin) / (kmax - kmin)`, drawn
//! from the switch's `StdRng` seeded with `seed` (one draw per packet in this band, none
//! elsewhere); `q > kmax` marks it. Control packets are never marked.
//!
//! # INT (HPCC, at dequeue)
//!
//! With `int` on, a data packet starting its transmission at `t` gets one hop pushed on its
//! stack (hpcc.md's wire units): `rate` = the port's rate code ([`int_rate_code`]; a port
//! rate without a code is refused by [`Switch::new`]), `ts = (t / 1000) mod 2^24` (ns),
//! `tx = (bytes the port transmitted before this packet, both classes) / (128 * int_multi)
//! mod 2^20`, `qlen = min(egress Data queue bytes after this packet left it /
//! (80 * int_multi), 2^17 - 1)`. The packet's wire size does not change (the sender reserves
//! the stack, `INT_BYTES`).
//!
//! # Statistics
//!
//! [`SwitchStats`] counts per port: bytes and packets transmitted, drops by egress port and
//! by ingress port, ECN marks, XOFF and XON frames sent, time paused, largest queue per class
//! and largest headroom use; and per switch: drops, bytes charged and freed, largest shared
//! pool use. [`Switch::queue_bytes`] is the instantaneous queue for the caller's 1 us
//! sampling, [`Switch::paused_ps`] the paused time including a pause still running.

use std::collections::VecDeque;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use crate::packet::{
    Class, IntHop, NodeId, PS_PER_NS, PS_PER_US, Packet, Payload, PortId, Ps, RateMbps,
    int_rate_code, wire_time_ps,
};
use crate::topology;

/// RED marking parameters (bytes of the egress data queue).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Red {
    /// At or below this queue, no mark.
    pub kmin_bytes: u64,
    /// Above this queue, every packet is marked.
    pub kmax_bytes: u64,
    /// Marking probability just below `kmax_bytes` (0..=1).
    pub pmax: f64,
}

/// A switch's buffer, PFC, ECN and INT settings (the same for every switch of a run).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SwitchConfig {
    /// Total packet buffer, bytes: headroom of every port plus the shared pool.
    pub buffer_bytes: u64,
    /// PFC on the data class: headroom reserved and XOFF/XON sent.
    pub pfc: bool,
    /// `k` of the dynamic threshold's `alpha = 2^k`, `-7..=3` (1/128 ..= 8).
    pub pfc_alpha_log2: i32,
    /// How far below the threshold a PG's shared use must fall before XON, bytes.
    pub pfc_resume_offset_bytes: u64,
    /// RED ECN marking of data packets; `None` marks nothing.
    pub ecn: Option<Red>,
    /// Stamp an INT hop on data packets at dequeue.
    pub int: bool,
    /// hpcc_int_multi: the scale of INT's `tx` and `qlen` fields, `1..=64`.
    pub int_multi: u32,
    /// Response time to a pause frame at each end of a link (`Tm1 = Tm2`), ps.
    pub response_ps: Ps,
    /// Largest packet on the wire (MTU plus headers), bytes.
    pub mtu_wire_bytes: u32,
}

impl SwitchConfig {
    /// A lossless switch with `buffer_bytes` of buffer: PFC on, alpha = 1/8, resume offset
    /// 2 MTU, response time 1 us, no ECN, no INT, `int_multi` 1.
    pub fn new(buffer_bytes: u64, mtu_wire_bytes: u32) -> SwitchConfig {
        SwitchConfig {
            buffer_bytes,
            pfc: true,
            pfc_alpha_log2: -3,
            pfc_resume_offset_bytes: 2 * mtu_wire_bytes as u64,
            ecn: None,
            int: false,
            int_multi: 1,
            response_ps: PS_PER_US,
            mtu_wire_bytes,
        }
    }

    /// Check the ranges of every field (not the headroom, which needs the ports).
    pub fn validate(&self) -> Result<(), String> {
        if !(-7..=3).contains(&self.pfc_alpha_log2) {
            return Err(format!(
                "switch: pfc_alpha_log2 = {} is outside -7..=3 (alpha 1/128..=8)",
                self.pfc_alpha_log2
            ));
        }
        if !(1..=64).contains(&self.int_multi) {
            return Err(format!(
                "switch: int_multi = {} is outside 1..=64",
                self.int_multi
            ));
        }
        if self.mtu_wire_bytes == 0 {
            return Err("switch: mtu_wire_bytes = 0; it must be at least 1".into());
        }
        if let Some(r) = self.ecn {
            if r.kmin_bytes > r.kmax_bytes {
                return Err(format!(
                    "switch: ECN kmin = {} bytes is above kmax = {} bytes",
                    r.kmin_bytes, r.kmax_bytes
                ));
            }
            if !(0.0..=1.0).contains(&r.pmax) {
                return Err(format!("switch: ECN pmax = {} is outside 0..=1", r.pmax));
            }
        }
        Ok(())
    }

    /// The dynamic PFC threshold for `free` unused shared bytes: `alpha * free`.
    pub fn pfc_threshold(&self, free: u64) -> u64 {
        if self.pfc_alpha_log2 >= 0 {
            free.saturating_mul(1 << self.pfc_alpha_log2)
        } else {
            free >> (-self.pfc_alpha_log2)
        }
    }

    /// Headroom of a port, bytes: `ceil((2 * response_ps + 2 * cable_ps) * rate / 8e6) + 2 *
    /// mtu_wire_bytes` (0 with PFC off).
    pub fn headroom_bytes(&self, link: &PortLink) -> u64 {
        if !self.pfc {
            return 0;
        }
        let ps = 2 * self.response_ps as u128 + 2 * link.cable_ps as u128;
        let bytes = (ps * link.rate_mbps as u128).div_ceil(8_000_000);
        bytes as u64 + 2 * self.mtu_wire_bytes as u64
    }
}

/// The link behind one switch port.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PortLink {
    /// Link rate, Mb/s.
    pub rate_mbps: RateMbps,
    /// Cable propagation delay, ps.
    pub cable_ps: Ps,
}

impl From<&topology::Port> for PortLink {
    fn from(p: &topology::Port) -> PortLink {
        PortLink {
            rate_mbps: p.rate_mbps,
            cable_ps: p.cable_ps,
        }
    }
}

/// What the switch does, for the caller's event loop.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SwitchAction {
    /// `port` starts putting `pkt` on its wire now; the last bit leaves at `done`, when the
    /// caller must call [`Switch::port_free`] (and the peer receives it a cable delay later).
    Transmit {
        /// Egress port.
        port: PortId,
        /// The packet, with its CE mark and INT stack updated.
        pkt: Packet,
        /// Now plus the packet's wire time at the port rate.
        done: Ps,
    },
    /// The data PG of ingress `port` changed state: send a pause frame (`xoff`) or a resume
    /// (`!xoff`) to the upstream peer on that port.
    Pfc {
        /// Ingress port whose upstream is paused or resumed.
        port: PortId,
        /// `true`: XOFF (pause); `false`: XON (resume).
        xoff: bool,
    },
    /// The packet found neither shared buffer nor headroom and is lost.
    Drop {
        /// The dropped packet.
        pkt: Packet,
    },
}

/// Counters of one port.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PortStats {
    /// Bytes transmitted (both classes), counted when a transmission starts.
    pub tx_bytes: u64,
    /// Packets transmitted per class ([`Class::idx`]).
    pub tx_packets: [u64; 2],
    /// Packets dropped that were headed out of this port.
    pub drops: u64,
    /// Packets dropped that arrived on this port.
    pub drops_ingress: u64,
    /// Data packets marked CE at enqueue on this egress port.
    pub ecn_marks: u64,
    /// Pause frames (XOFF) sent upstream from this ingress port.
    pub xoff_sent: u64,
    /// Resume frames (XON) sent upstream from this ingress port.
    pub xon_sent: u64,
    /// Time this egress port's data class spent paused, ps, over finished pauses (see
    /// [`Switch::paused_ps`] for a pause still running).
    pub paused_ps: Ps,
    /// Largest queue per class ([`Class::idx`]), bytes.
    pub max_queue_bytes: [u64; 2],
    /// Largest headroom use of this ingress port, bytes.
    pub max_headroom_bytes: u64,
}

/// Counters of one switch.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SwitchStats {
    /// Per port, indexed by [`PortId`].
    pub ports: Vec<PortStats>,
    /// Packets dropped.
    pub drops: u64,
    /// Bytes of the packets dropped.
    pub drop_bytes: u64,
    /// Bytes ever charged to the buffer (shared or headroom).
    pub charged_bytes: u64,
    /// Bytes ever freed from the buffer; `charged - freed` is the buffer in use.
    pub freed_bytes: u64,
    /// Largest shared pool use, bytes.
    pub max_shared_bytes: u64,
}

/// Where an arriving packet's bytes are charged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Charge {
    Shared,
    Headroom,
}

#[derive(Clone, Debug)]
struct Entry {
    pkt: Packet,
    in_port: PortId,
}

#[derive(Clone, Debug)]
struct PortState {
    link: PortLink,
    /// INT rate code (0 when INT is off).
    rate_code: u8,
    /// Headroom reserved for this port as an ingress, bytes.
    headroom_cap: u64,
    /// Egress FIFOs per class and their bytes.
    queue: [VecDeque<Entry>; 2],
    queue_bytes: [u64; 2],
    /// A packet is on the wire.
    busy: bool,
    /// The downstream peer has paused our data class, since `paused_since`.
    paused: bool,
    paused_since: Ps,
    /// Ingress data PG: shared and headroom use, XOFF state.
    pg_shared: u64,
    pg_headroom: u64,
    xoff: bool,
}

/// One output-queued shared-buffer switch (see the module docs for every rule).
#[derive(Clone, Debug)]
pub struct Switch {
    node: NodeId,
    cfg: SwitchConfig,
    ports: Vec<PortState>,
    /// Size of the shared pool and the bytes in use in it.
    shared_size: u64,
    shared_used: u64,
    rng: StdRng,
    stats: SwitchStats,
}

impl Switch {
    /// A switch `node` with one port per entry of `ports` (port `i` is `ports[i]`), RED's
    /// random numbers seeded with `seed`. Refuses a bad configuration, a port rate without
    /// an INT code while INT is on, and headroom that leaves no shared buffer.
    pub fn new(
        node: NodeId,
        cfg: SwitchConfig,
        ports: Vec<PortLink>,
        seed: u64,
    ) -> Result<Switch, String> {
        cfg.validate().map_err(|e| format!("node {node}: {e}"))?;
        if ports.is_empty() || ports.len() > PortId::MAX as usize {
            return Err(format!(
                "switch {node}: {} ports; a switch has 1..={} ports",
                ports.len(),
                PortId::MAX
            ));
        }
        let mut states = Vec::with_capacity(ports.len());
        let mut headroom_total = 0u64;
        for (i, link) in ports.iter().enumerate() {
            if link.rate_mbps == 0 {
                return Err(format!("switch {node} port {i}: rate 0 Mb/s"));
            }
            let rate_code = if cfg.int {
                int_rate_code(link.rate_mbps).ok_or_else(|| {
                    format!(
                        "switch {node} port {i}: INT is on but {} Mb/s has no INT rate code \
                         (10, 25, 40, 50, 100, 200, 400 or 800 Gb/s)",
                        link.rate_mbps
                    )
                })?
            } else {
                0
            };
            let headroom_cap = cfg.headroom_bytes(link);
            headroom_total += headroom_cap;
            states.push(PortState {
                link: *link,
                rate_code,
                headroom_cap,
                queue: [VecDeque::new(), VecDeque::new()],
                queue_bytes: [0; 2],
                busy: false,
                paused: false,
                paused_since: 0,
                pg_shared: 0,
                pg_headroom: 0,
                xoff: false,
            });
        }
        if headroom_total >= cfg.buffer_bytes {
            return Err(format!(
                "switch {node}: the PFC headroom of its {} ports is {headroom_total} bytes, \
                 which leaves none of the {} bytes of buffer for the shared pool; the buffer \
                 is too small for these link rates and cables",
                ports.len(),
                cfg.buffer_bytes
            ));
        }
        Ok(Switch {
            node,
            cfg,
            shared_size: cfg.buffer_bytes - headroom_total,
            shared_used: 0,
            rng: StdRng::seed_from_u64(seed),
            stats: SwitchStats {
                ports: vec![PortStats::default(); ports.len()],
                ..SwitchStats::default()
            },
            ports: states,
        })
    }

    /// The node id this switch was built for.
    pub fn node(&self) -> NodeId {
        self.node
    }

    /// Its configuration.
    pub fn config(&self) -> &SwitchConfig {
        &self.cfg
    }

    /// Number of ports.
    pub fn port_count(&self) -> usize {
        self.ports.len()
    }

    /// `pkt` has been fully received at `t` on `in_port`; the caller's routing sends it out
    /// of `out_port`. Admits (and marks) or drops it, and starts it at once if `out_port`
    /// is idle and may send it.
    pub fn arrive(
        &mut self,
        t: Ps,
        in_port: PortId,
        out_port: PortId,
        mut pkt: Packet,
        out: &mut Vec<SwitchAction>,
    ) {
        let class = pkt.class();
        let bytes = pkt.wire_bytes as u64;
        let (ip, op) = (in_port as usize, out_port as usize);
        let shared_room = self.shared_used + bytes <= self.shared_size;
        let charge = match class {
            Class::Ctrl => shared_room.then_some(Charge::Shared),
            Class::Data => {
                let pg = &self.ports[ip];
                if shared_room && !pg.xoff {
                    Some(Charge::Shared)
                } else if self.cfg.pfc && pg.pg_headroom + bytes <= pg.headroom_cap {
                    Some(Charge::Headroom)
                } else {
                    None
                }
            }
        };
        let Some(charge) = charge else {
            self.stats.drops += 1;
            self.stats.drop_bytes += bytes;
            self.stats.ports[op].drops += 1;
            self.stats.ports[ip].drops_ingress += 1;
            out.push(SwitchAction::Drop { pkt });
            return;
        };

        // RED on the egress data queue before this packet.
        if let (Some(red), Payload::Data { ce, .. }) = (self.cfg.ecn, &mut pkt.payload) {
            let q = self.ports[op].queue_bytes[Class::Data.idx()];
            let mark = if q <= red.kmin_bytes {
                false
            } else if q > red.kmax_bytes {
                true
            } else {
                let p = red.pmax * (q - red.kmin_bytes) as f64
                    / (red.kmax_bytes - red.kmin_bytes) as f64;
                self.rng.r#gen::<f64>() < p
            };
            if mark {
                *ce = true;
                self.stats.ports[op].ecn_marks += 1;
            }
        }

        // Charge the buffer.
        self.stats.charged_bytes += bytes;
        match charge {
            Charge::Shared => {
                self.shared_used += bytes;
                self.stats.max_shared_bytes = self.stats.max_shared_bytes.max(self.shared_used);
                if class == Class::Data {
                    self.ports[ip].pg_shared += bytes;
                }
            }
            Charge::Headroom => {
                let pg = &mut self.ports[ip];
                pg.pg_headroom += bytes;
                let st = &mut self.stats.ports[ip];
                st.max_headroom_bytes = st.max_headroom_bytes.max(pg.pg_headroom);
                if !pg.xoff {
                    pg.xoff = true;
                    st.xoff_sent += 1;
                    out.push(SwitchAction::Pfc {
                        port: in_port,
                        xoff: true,
                    });
                }
            }
        }
        let port = &mut self.ports[op];
        port.queue[class.idx()].push_back(Entry { pkt, in_port });
        port.queue_bytes[class.idx()] += bytes;
        let m = &mut self.stats.ports[op].max_queue_bytes[class.idx()];
        *m = (*m).max(port.queue_bytes[class.idx()]);

        self.check_pfc(out);
        self.try_send(t, out_port, out);
    }

    /// `port` finished serializing its packet at `t` (the `done` of its last
    /// [`SwitchAction::Transmit`]); it starts the next one if it may.
    pub fn port_free(&mut self, t: Ps, port: PortId, out: &mut Vec<SwitchAction>) {
        debug_assert!(
            self.ports[port as usize].busy,
            "switch {}: port_free on idle port {port}",
            self.node
        );
        self.ports[port as usize].busy = false;
        self.try_send(t, port, out);
    }

    /// The downstream peer's pause of the data class on egress `port` takes effect at `t`
    /// (`on`: XOFF; `!on`: XON). Pauses do not nest: the last one wins.
    pub fn set_paused(&mut self, t: Ps, port: PortId, on: bool, out: &mut Vec<SwitchAction>) {
        let p = &mut self.ports[port as usize];
        if on && !p.paused {
            p.paused = true;
            p.paused_since = t;
        } else if !on && p.paused {
            p.paused = false;
            self.stats.ports[port as usize].paused_ps += t.saturating_sub(p.paused_since);
            self.try_send(t, port, out);
        }
    }

    /// The counters.
    pub fn stats(&self) -> &SwitchStats {
        &self.stats
    }

    /// Payload bytes of the data packets waiting in every egress queue (for the
    /// conservation check: granted = delivered + in flight + dropped).
    pub fn queued_payload(&self) -> u64 {
        self.ports
            .iter()
            .flat_map(|p| p.queue.iter().flatten())
            .map(|e| match e.pkt.payload {
                crate::packet::Payload::Data { bytes, .. } => u64::from(bytes),
                _ => 0,
            })
            .sum()
    }

    /// Bytes waiting in egress `port`'s queue of `class` now (not counting the packet on the
    /// wire).
    pub fn queue_bytes(&self, port: PortId, class: Class) -> u64 {
        self.ports[port as usize].queue_bytes[class.idx()]
    }

    /// Whether the downstream peer has paused egress `port`'s data class.
    pub fn is_paused(&self, port: PortId) -> bool {
        self.ports[port as usize].paused
    }

    /// Time egress `port` has spent paused up to `now`, ps, a running pause included.
    pub fn paused_ps(&self, port: PortId, now: Ps) -> Ps {
        let p = &self.ports[port as usize];
        let running = if p.paused {
            now.saturating_sub(p.paused_since)
        } else {
            0
        };
        self.stats.ports[port as usize].paused_ps + running
    }

    /// Whether the data PG of ingress `port` is in the XOFF state (its upstream paused).
    pub fn is_xoff(&self, port: PortId) -> bool {
        self.ports[port as usize].xoff
    }

    /// Shared-pool and headroom bytes charged to the data PG of ingress `port`.
    pub fn pg_bytes(&self, port: PortId) -> (u64, u64) {
        let p = &self.ports[port as usize];
        (p.pg_shared, p.pg_headroom)
    }

    /// Headroom reserved for ingress `port`, bytes.
    pub fn headroom_bytes(&self, port: PortId) -> u64 {
        self.ports[port as usize].headroom_cap
    }

    /// Size of the shared pool, bytes (buffer minus every port's headroom).
    pub fn shared_bytes(&self) -> u64 {
        self.shared_size
    }

    /// Shared-pool bytes in use now.
    pub fn shared_used(&self) -> u64 {
        self.shared_used
    }

    /// Buffer bytes in use now, shared and headroom.
    pub fn buffer_used(&self) -> u64 {
        self.shared_used + self.ports.iter().map(|p| p.pg_headroom).sum::<u64>()
    }

    /// Start the next packet on `port` if it is idle: the control queue first, then the data
    /// queue unless paused.
    fn try_send(&mut self, t: Ps, port: PortId, out: &mut Vec<SwitchAction>) {
        let pi = port as usize;
        let p = &mut self.ports[pi];
        if p.busy {
            return;
        }
        let class = if !p.queue[Class::Ctrl.idx()].is_empty() {
            Class::Ctrl
        } else if !p.paused && !p.queue[Class::Data.idx()].is_empty() {
            Class::Data
        } else {
            return;
        };
        let Entry { mut pkt, in_port } = p.queue[class.idx()].pop_front().expect("queue not empty");
        let bytes = pkt.wire_bytes as u64;
        p.queue_bytes[class.idx()] -= bytes;
        p.busy = true;

        // Free the buffer: a data packet frees its PG's headroom first.
        self.stats.freed_bytes += bytes;
        if class == Class::Data {
            let pg = &mut self.ports[in_port as usize];
            let from_headroom = bytes.min(pg.pg_headroom);
            pg.pg_headroom -= from_headroom;
            pg.pg_shared -= bytes - from_headroom;
            self.shared_used -= bytes - from_headroom;
        } else {
            self.shared_used -= bytes;
        }

        // INT stamp.
        let p = &self.ports[pi];
        let st = &mut self.stats.ports[pi];
        if self.cfg.int {
            if let Payload::Data { int, .. } = &mut pkt.payload {
                let m = self.cfg.int_multi as u64;
                int.push(IntHop {
                    rate: p.rate_code,
                    ts: ((t / PS_PER_NS) % (1 << 24)) as u32,
                    tx: ((st.tx_bytes / (128 * m)) % (1 << 20)) as u32,
                    qlen: (p.queue_bytes[Class::Data.idx()] / (80 * m)).min((1 << 17) - 1) as u32,
                });
            }
        }
        st.tx_bytes += bytes;
        st.tx_packets[class.idx()] += 1;
        let done = t + wire_time_ps(bytes, p.link.rate_mbps);
        out.push(SwitchAction::Transmit { port, pkt, done });

        self.check_pfc(out);
    }

    /// Move every PG across its XOFF / XON threshold at the current buffer use.
    fn check_pfc(&mut self, out: &mut Vec<SwitchAction>) {
        if !self.cfg.pfc {
            return;
        }
        let thr = self.cfg.pfc_threshold(self.shared_size - self.shared_used);
        let resume = thr.checked_sub(self.cfg.pfc_resume_offset_bytes);
        for (i, p) in self.ports.iter_mut().enumerate() {
            if !p.xoff && p.pg_shared > thr {
                p.xoff = true;
                self.stats.ports[i].xoff_sent += 1;
                out.push(SwitchAction::Pfc {
                    port: i as PortId,
                    xoff: true,
                });
            } else if p.xoff && p.pg_headroom == 0 && resume.is_some_and(|r| p.pg_shared <= r) {
                p.xoff = false;
                self.stats.ports[i].xon_sent += 1;
                out.push(SwitchAction::Pfc {
                    port: i as PortId,
                    xoff: false,
                });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::packet::IntStack;

    const G100: RateMbps = 100_000;

    fn data(id: u64, bytes: u32) -> Packet {
        Packet {
            id,
            flow: 0,
            src: 0,
            dst: 1,
            qp: 0,
            wire_bytes: bytes,
            born: 0,
            payload: Payload::Data {
                seq: 0,
                bytes,
                ce: false,
                int: IntStack::default(),
            },
        }
    }

    fn ctrl(id: u64, bytes: u32) -> Packet {
        Packet {
            wire_bytes: bytes,
            payload: Payload::Cnp,
            ..data(id, bytes)
        }
    }

    fn links(n: usize, rate: RateMbps, cable_ps: Ps) -> Vec<PortLink> {
        vec![
            PortLink {
                rate_mbps: rate,
                cable_ps
            };
            n
        ]
    }

    fn transmits(out: &[SwitchAction]) -> Vec<(PortId, u64)> {
        out.iter()
            .filter_map(|a| match a {
                SwitchAction::Transmit { port, pkt, .. } => Some((*port, pkt.id)),
                _ => None,
            })
            .collect()
    }

    fn pfcs(out: &[SwitchAction]) -> Vec<(PortId, bool)> {
        out.iter()
            .filter_map(|a| match a {
                SwitchAction::Pfc { port, xoff } => Some((*port, *xoff)),
                _ => None,
            })
            .collect()
    }

    /// After `port` was unpaused (its first packet's `Transmit` in `out`): free the port
    /// at each transmission's end until a PFC frame comes; the packets dequeued, counting
    /// the first.
    fn drain_until_pfc(sw: &mut Switch, port: PortId, out: &mut Vec<SwitchAction>) -> u32 {
        let mut dequeued = 1;
        while pfcs(out).is_empty() {
            let Some(&SwitchAction::Transmit { done, .. }) = out.last() else {
                panic!("drained without XON")
            };
            out.clear();
            sw.port_free(done, port, out);
            dequeued += 1;
        }
        dequeued
    }

    fn lossy(buffer: u64) -> SwitchConfig {
        SwitchConfig {
            pfc: false,
            ..SwitchConfig::new(buffer, 1000)
        }
    }

    #[test]
    fn strict_priority_serves_ctrl_first() {
        let mut sw = Switch::new(9, lossy(1 << 20), links(3, G100, 0), 1).unwrap();
        let mut out = Vec::new();
        sw.arrive(0, 0, 2, data(1, 1000), &mut out);
        assert_eq!(transmits(&out), [(2, 1)]);
        let SwitchAction::Transmit { done, .. } = out[0] else {
            panic!()
        };
        assert_eq!(done, 80_000);
        out.clear();
        sw.arrive(10, 0, 2, data(2, 1000), &mut out);
        sw.arrive(20, 1, 2, data(3, 1000), &mut out);
        sw.arrive(30, 1, 2, ctrl(4, 64), &mut out);
        assert!(out.is_empty(), "port busy: nothing starts");
        assert_eq!(sw.queue_bytes(2, Class::Data), 2000);
        assert_eq!(sw.queue_bytes(2, Class::Ctrl), 64);
        let mut order = Vec::new();
        let mut t = 80_000;
        for _ in 0..3 {
            out.clear();
            sw.port_free(t, 2, &mut out);
            let SwitchAction::Transmit { pkt, done, .. } = out[0] else {
                panic!()
            };
            order.push(pkt.id);
            t = done;
        }
        assert_eq!(order, [4, 2, 3]);
        out.clear();
        sw.port_free(t, 2, &mut out);
        assert!(out.is_empty());
        assert_eq!(sw.stats().ports[2].tx_packets, [3, 1]);
        assert_eq!(sw.stats().ports[2].tx_bytes, 3064);
    }

    #[test]
    fn a_pause_holds_data_but_not_ctrl() {
        let mut sw = Switch::new(9, lossy(1 << 20), links(2, G100, 0), 1).unwrap();
        let mut out = Vec::new();
        sw.set_paused(100, 1, true, &mut out);
        sw.arrive(200, 0, 1, data(1, 1000), &mut out);
        assert!(out.is_empty());
        sw.arrive(300, 0, 1, ctrl(2, 64), &mut out);
        assert_eq!(transmits(&out), [(1, 2)]);
        out.clear();
        sw.port_free(5_420, 1, &mut out);
        assert!(out.is_empty(), "data stays while paused");
        assert_eq!(sw.paused_ps(1, 1_100), 1_000);
        sw.set_paused(10_100, 1, false, &mut out);
        assert_eq!(transmits(&out), [(1, 1)]);
        assert_eq!(sw.stats().ports[1].paused_ps, 10_000);
        assert_eq!(sw.paused_ps(1, 50_000), 10_000);
    }

    #[test]
    fn red_marks_none_below_kmin_all_above_kmax() {
        let red = Red {
            kmin_bytes: 5_000,
            kmax_bytes: 10_000,
            pmax: 0.2,
        };
        let cfg = SwitchConfig {
            ecn: Some(red),
            ..lossy(1 << 24)
        };
        let mut sw = Switch::new(1, cfg, links(2, G100, 0), 7).unwrap();
        let mut out = Vec::new();
        sw.set_paused(0, 1, true, &mut out);
        let mut seen = Vec::new();
        for id in 0..40 {
            seen.push((id, sw.queue_bytes(1, Class::Data)));
            sw.arrive(id, 0, 1, data(id, 500), &mut out);
        }
        sw.set_paused(100, 1, false, &mut out);
        let mut t = 100;
        let mut marks = std::collections::HashMap::new();
        loop {
            let Some(&SwitchAction::Transmit { pkt, done, .. }) = out.last() else {
                break;
            };
            let Payload::Data { ce, .. } = pkt.payload else {
                panic!()
            };
            marks.insert(pkt.id, ce);
            out.clear();
            t = done.max(t);
            sw.port_free(t, 1, &mut out);
        }
        assert_eq!(marks.len(), 40);
        for (id, q) in seen {
            if q <= 5_000 {
                assert!(!marks[&id], "q = {q} marked");
            }
            if q > 10_000 {
                assert!(marks[&id], "q = {q} not marked");
            }
        }
        assert_eq!(
            sw.stats().ports[1].ecn_marks,
            marks.values().filter(|&&m| m).count() as u64
        );
    }

    #[test]
    fn red_marks_about_the_right_fraction_between() {
        // kmin 10 kB, kmax 110 kB, pmax 0.5, 1000-byte packets: the k-th packet of a fill
        // sees q = 1000 k; those with 10 < k <= 110 are marked with 0.5 (k - 10) / 100.
        let red = Red {
            kmin_bytes: 10_000,
            kmax_bytes: 110_000,
            pmax: 0.5,
        };
        let cfg = SwitchConfig {
            ecn: Some(red),
            ..lossy(1 << 24)
        };
        let mut sw = Switch::new(1, cfg, links(2, G100, 0), 42).unwrap();
        let mut out = Vec::new();
        let mut t = 0;
        let mut id = 0;
        let (mut marked_mid, mut expect_mid) = (0u64, 0.0f64);
        let mut qs = std::collections::HashMap::new();
        for _fill in 0..400 {
            sw.set_paused(t, 1, true, &mut out);
            for k in 0..111u64 {
                let q = sw.queue_bytes(1, Class::Data);
                assert_eq!(q, 1000 * k);
                qs.insert(id, q);
                if q > 10_000 {
                    expect_mid += 0.5 * (q - 10_000) as f64 / 100_000.0;
                }
                sw.arrive(t, 0, 1, data(id, 1000), &mut out);
                id += 1;
            }
            sw.set_paused(t, 1, false, &mut out);
            loop {
                let Some(&SwitchAction::Transmit { pkt, done, .. }) = out.last() else {
                    break;
                };
                let Payload::Data { ce, .. } = pkt.payload else {
                    panic!()
                };
                let q = qs[&pkt.id];
                if q <= 10_000 {
                    assert!(!ce);
                } else if ce {
                    marked_mid += 1;
                }
                out.clear();
                t = done;
                sw.port_free(t, 1, &mut out);
            }
        }
        // Expected 10 100 marks, standard deviation about 80.
        let ratio = marked_mid as f64 / expect_mid;
        assert!(
            (0.95..=1.05).contains(&ratio),
            "{marked_mid} marks, expected {expect_mid}"
        );
    }

    /// 3 ports at 100 G, no cable, response 1 us, MTU 1000: headroom per port
    /// 2 us * 100 Gb/s / 8 = 25 000 + 2 000 = 27 000 bytes; the shared pool 100 000.
    fn lossless(alpha_log2: i32) -> Switch {
        let cfg = SwitchConfig {
            pfc_alpha_log2: alpha_log2,
            ..SwitchConfig::new(3 * 27_000 + 100_000, 1000)
        };
        let sw = Switch::new(1, cfg, links(3, G100, 0), 1).unwrap();
        assert_eq!(sw.headroom_bytes(0), 27_000);
        assert_eq!(sw.shared_bytes(), 100_000);
        sw
    }

    #[test]
    fn headroom_follows_the_formula() {
        let cfg = SwitchConfig::new(10_000_000, 4158);
        // (2 us + 2 * 100 ns) * 400 Gb/s = 880 000 bits = 110 000 bytes, + 2 MTU.
        let link = PortLink {
            rate_mbps: 400_000,
            cable_ps: 100_000,
        };
        assert_eq!(cfg.headroom_bytes(&link), 110_000 + 2 * 4158);
        let off = SwitchConfig { pfc: false, ..cfg };
        assert_eq!(off.headroom_bytes(&link), 0);
        // Rounded up: 1 ps at 10 Gb/s is 0.00125 bytes.
        let cfg = SwitchConfig {
            response_ps: 0,
            ..SwitchConfig::new(10_000, 100)
        };
        let link = PortLink {
            rate_mbps: 10_000,
            cable_ps: 1,
        };
        assert_eq!(cfg.headroom_bytes(&link), 1 + 200);
    }

    #[test]
    fn xoff_when_a_pg_exceeds_alpha_free_and_xon_after_it_drains() {
        // alpha = 1: n packets of 1000 B from port 0 held at paused port 2 use n kB of the
        // 100 kB pool; XOFF when n kB > (100 - n) kB, at n = 51.
        let mut sw = lossless(0);
        let mut out = Vec::new();
        sw.set_paused(0, 2, true, &mut out);
        for id in 0..51 {
            sw.arrive(id, 0, 2, data(id, 1000), &mut out);
            if id < 50 {
                assert!(out.is_empty(), "no XOFF at {} kB", id + 1);
            }
        }
        assert_eq!(pfcs(&out), [(0, true)]);
        assert!(sw.is_xoff(0));
        assert_eq!(sw.stats().ports[0].xoff_sent, 1);
        // In-flight packets after XOFF land in headroom; no second XOFF.
        out.clear();
        for id in 51..56 {
            sw.arrive(id, 0, 2, data(id, 1000), &mut out);
        }
        assert!(out.is_empty());
        assert_eq!(sw.pg_bytes(0), (51_000, 5_000));
        // Another PG with a little shared use stays XON... until the threshold falls below
        // it: port 1 sends 20 kB into the pool (free 29 kB), its own use 20 kB < 29 kB.
        for id in 100..120 {
            sw.arrive(id, 1, 2, data(id, 1000), &mut out);
        }
        assert!(out.is_empty());
        assert!(!sw.is_xoff(1));
        // Drain: port 0's packets leave first and free its 5 kB of headroom, then its
        // shared use. XON when its whole use, 56 kB - d, is at most the threshold less the
        // 2 kB offset, 100 - (71 - (d - 5)) - 2 kB: after d = 17 dequeues (the first one
        // at the unpause).
        sw.set_paused(1000, 2, false, &mut out);
        let dequeued = drain_until_pfc(&mut sw, 2, &mut out);
        assert_eq!(pfcs(&out), [(0, false)]);
        assert_eq!(dequeued, 17);
        assert_eq!(sw.pg_bytes(0), (39_000, 0));
        assert_eq!(sw.stats().ports[0].xon_sent, 1);
        assert_eq!(sw.stats().drops, 0);
    }

    #[test]
    fn no_xon_while_the_headroom_holds_data() {
        // alpha = 2. Port 1 holds 30 kB at paused port 3; port 0's packets, held at paused
        // port 2, reach XOFF when n kB > 2 * (70 - n) kB, at n = 47; five more land in its
        // headroom.
        let cfg = SwitchConfig {
            pfc_alpha_log2: 1,
            ..SwitchConfig::new(4 * 27_000 + 100_000, 1000)
        };
        let mut sw = Switch::new(1, cfg, links(4, G100, 0), 1).unwrap();
        assert_eq!(sw.shared_bytes(), 100_000);
        let mut out = Vec::new();
        sw.set_paused(0, 2, true, &mut out);
        sw.set_paused(0, 3, true, &mut out);
        for id in 100..130 {
            sw.arrive(id, 1, 3, data(id, 1000), &mut out);
        }
        for id in 0..47 {
            sw.arrive(id, 0, 2, data(id, 1000), &mut out);
        }
        assert_eq!(pfcs(&out), [(0, true)]);
        for id in 47..52 {
            sw.arrive(id, 0, 2, data(id, 1000), &mut out);
        }
        assert_eq!(sw.pg_bytes(0), (47_000, 5_000));
        // Port 1's packets leave: the threshold rises to 2 * 53 kB, far above port 0's
        // whole use plus the offset, but its headroom still holds 5 kB: no XON.
        out.clear();
        sw.set_paused(1000, 3, false, &mut out);
        for _ in 0..30 {
            let Some(&SwitchAction::Transmit { done, .. }) = out.last() else {
                panic!("port 3 stopped")
            };
            assert!(pfcs(&out).is_empty(), "XON with data in the headroom");
            out.clear();
            sw.port_free(done, 3, &mut out);
        }
        assert!(pfcs(&out).is_empty(), "XON with data in the headroom");
        assert!(sw.is_xoff(0));
        // Port 0's packets leave: the fifth empties the headroom and brings the XON.
        out.clear();
        sw.set_paused(1_000_000, 2, false, &mut out);
        let dequeued = drain_until_pfc(&mut sw, 2, &mut out);
        assert_eq!(pfcs(&out), [(0, false)]);
        assert_eq!(dequeued, 5);
        assert_eq!(sw.pg_bytes(0), (47_000, 0));
    }

    #[test]
    fn a_pg_over_the_threshold_of_a_shrinking_pool_gets_xoff() {
        // alpha = 1/2. Port 0 holds 30 kB (threshold 35 kB); port 1 then fills the pool
        // until port 0's 30 kB exceeds half the free space: free < 60 kB, at port 1's
        // 11th kB (free 59 kB).
        let mut sw = lossless(-1);
        let mut out = Vec::new();
        sw.set_paused(0, 2, true, &mut out);
        for id in 0..30 {
            sw.arrive(id, 0, 2, data(id, 1000), &mut out);
        }
        assert!(out.is_empty());
        for id in 100..111 {
            sw.arrive(id, 1, 2, data(id, 1000), &mut out);
            if id < 110 {
                assert!(out.is_empty(), "at {id}");
            }
        }
        assert_eq!(pfcs(&out), [(0, true)]);
    }

    #[test]
    fn headroom_absorbs_in_flight_packets_after_xoff() {
        let mut sw = lossless(0);
        let mut out = Vec::new();
        sw.set_paused(0, 2, true, &mut out);
        for id in 0..51 {
            sw.arrive(id, 0, 2, data(id, 1000), &mut out);
        }
        assert_eq!(pfcs(&out), [(0, true)]);
        out.clear();
        // 27 000 bytes of headroom: 27 packets arrive after XOFF without a drop.
        for id in 51..78 {
            sw.arrive(id, 0, 2, data(id, 1000), &mut out);
        }
        assert!(out.is_empty());
        assert_eq!(sw.pg_bytes(0), (51_000, 27_000));
        assert_eq!(sw.stats().ports[0].max_headroom_bytes, 27_000);
        assert_eq!(sw.stats().drops, 0);
        // The 28th does not fit.
        sw.arrive(78, 0, 2, data(78, 1000), &mut out);
        assert!(matches!(out[..], [SwitchAction::Drop { pkt }] if pkt.id == 78));
        assert_eq!(sw.stats().drops, 1);
        assert_eq!(sw.stats().ports[0].drops_ingress, 1);
        assert_eq!(sw.stats().ports[2].drops, 1);
    }

    #[test]
    fn a_too_small_headroom_drops_and_counts() {
        // Response time 0 and no cable: headroom 2 MTU, less than what is really in flight.
        let cfg = SwitchConfig {
            pfc_alpha_log2: 0,
            response_ps: 0,
            ..SwitchConfig::new(3 * 2_000 + 100_000, 1000)
        };
        let mut sw = Switch::new(1, cfg, links(3, G100, 0), 1).unwrap();
        assert_eq!(sw.headroom_bytes(1), 2_000);
        let mut out = Vec::new();
        sw.set_paused(0, 2, true, &mut out);
        for id in 0..51 {
            sw.arrive(id, 0, 2, data(id, 1000), &mut out);
        }
        out.clear();
        for id in 51..56 {
            sw.arrive(id, 0, 2, data(id, 1000), &mut out);
        }
        let drops: Vec<u64> = out
            .iter()
            .filter_map(|a| match a {
                SwitchAction::Drop { pkt } => Some(pkt.id),
                _ => None,
            })
            .collect();
        assert_eq!(drops, [53, 54, 55]);
        assert_eq!(sw.stats().drops, 3);
        assert_eq!(sw.stats().drop_bytes, 3000);
        assert_eq!(sw.stats().ports[0].drops_ingress, 3);
    }

    #[test]
    fn without_pfc_a_full_buffer_drops_data_and_ctrl() {
        let mut sw = Switch::new(1, lossy(10_000), links(2, G100, 0), 1).unwrap();
        assert_eq!(sw.shared_bytes(), 10_000);
        let mut out = Vec::new();
        sw.set_paused(0, 1, true, &mut out);
        for id in 0..11 {
            sw.arrive(id, 0, 1, data(id, 1000), &mut out);
        }
        assert!(pfcs(&out).is_empty());
        assert!(matches!(out[..], [SwitchAction::Drop { pkt }] if pkt.id == 10));
        out.clear();
        sw.arrive(20, 0, 1, ctrl(20, 64), &mut out);
        assert!(matches!(out[..], [SwitchAction::Drop { pkt }] if pkt.id == 20));
        assert_eq!(sw.stats().drops, 2);
    }

    #[test]
    fn a_headroom_bigger_than_the_buffer_is_refused() {
        let e = Switch::new(3, SwitchConfig::new(81_000, 1000), links(3, G100, 0), 1).unwrap_err();
        assert!(e.contains("headroom") && e.contains("81000"), "{e}");
        assert!(Switch::new(3, SwitchConfig::new(81_001, 1000), links(3, G100, 0), 1).is_ok());
        let cfg = SwitchConfig {
            int: true,
            ..SwitchConfig::new(1 << 24, 1000)
        };
        let e = Switch::new(3, cfg, links(2, 30_000, 0), 1).unwrap_err();
        assert!(e.contains("INT") && e.contains("30000"), "{e}");
        let cfg = SwitchConfig {
            pfc_alpha_log2: 4,
            ..SwitchConfig::new(1 << 24, 1000)
        };
        assert!(Switch::new(3, cfg, links(2, G100, 0), 1).is_err());
    }

    #[test]
    fn int_stamps_rate_ts_tx_qlen_exactly() {
        let cfg = SwitchConfig {
            int: true,
            int_multi: 2,
            ..lossy(1 << 24)
        };
        let mut sw = Switch::new(1, cfg, links(2, 400_000, 0), 1).unwrap();
        let mut out = Vec::new();
        // 300 + 1000 bytes already sent on port 1; then 4 data packets queue behind a
        // pause, the first leaves at t = 20 s + 123 456 789 ps.
        sw.arrive(0, 0, 1, ctrl(0, 300), &mut out);
        sw.port_free(6_000, 1, &mut out);
        sw.arrive(7_000, 0, 1, data(1, 1000), &mut out);
        sw.port_free(27_000, 1, &mut out);
        sw.set_paused(30_000, 1, true, &mut out);
        for id in 2..6 {
            sw.arrive(40_000, 0, 1, data(id, 1000), &mut out);
        }
        out.clear();
        let t = 20_000_123_456_789;
        sw.set_paused(t, 1, false, &mut out);
        let [SwitchAction::Transmit { pkt, .. }] = out[..] else {
            panic!("{out:?}")
        };
        let Payload::Data { int, .. } = pkt.payload else {
            panic!()
        };
        assert_eq!(int.nhop, 1);
        assert_eq!(
            int.hops[0],
            IntHop {
                rate: 4,
                // 20 000 123 456 ns mod 2^24 = 20 000 123 456 - 1192 * 16 777 216
                ts: (20_000_123_456u64 - 1192 * 16_777_216) as u32,
                // 1300 bytes / 256
                tx: 5,
                // 3 packets behind it: 3000 / 160
                qlen: 18,
            }
        );
        // Ctrl packets carry no stamp even when they are ACKs with a stack.
        out.clear();
        let mut ack = ctrl(9, 64);
        ack.payload = Payload::Ack {
            seq: 0,
            int: IntStack::default(),
        };
        sw.arrive(t, 0, 1, ack, &mut out);
        sw.port_free(t + 20_000, 1, &mut out);
        let SwitchAction::Transmit { pkt, .. } = out[0] else {
            panic!()
        };
        assert_eq!(
            pkt.payload,
            Payload::Ack {
                seq: 0,
                int: IntStack::default()
            }
        );
    }

    #[test]
    fn int_qlen_is_capped_and_tx_wraps() {
        let cfg = SwitchConfig {
            int: true,
            ..lossy(1 << 40)
        };
        let mut sw = Switch::new(1, cfg, links(2, 800_000, 0), 1).unwrap();
        let mut out = Vec::new();
        // 2050 packets of 65 536 bytes queued: the first leaves 2049 * 64 KiB behind it,
        // far above the cap of (2^17 - 1) * 80 bytes.
        sw.set_paused(0, 1, true, &mut out);
        for id in 0..2050 {
            sw.arrive(0, 0, 1, data(id, 65_536), &mut out);
        }
        sw.set_paused(0, 1, false, &mut out);
        let mut hops = Vec::new();
        loop {
            let Some(&SwitchAction::Transmit { pkt, done, .. }) = out.last() else {
                break;
            };
            let Payload::Data { int, .. } = pkt.payload else {
                panic!()
            };
            hops.push(int.hops[0]);
            out.clear();
            sw.port_free(done, 1, &mut out);
        }
        assert_eq!(hops.len(), 2050);
        assert_eq!(hops[0].qlen, (1 << 17) - 1);
        assert_eq!(hops[0].tx, 0);
        // Packet k had k * 512 units of 128 bytes before it, mod 2^20: 2048 packets wrap.
        assert_eq!(hops[1].tx, 512);
        assert_eq!(hops[2047].tx, 2047 * 512);
        assert_eq!(hops[2048].tx, 0);
        assert_eq!(hops[2049].tx, 512);
        assert_eq!(hops[2049].qlen, 0);
        assert_eq!(hops[2048].qlen, 65_536 / 80);
    }

    #[test]
    fn every_byte_charged_is_freed() {
        // Random traffic on 4 ports with PFC, pauses and drops; a tiny event loop drives it.
        use std::cmp::Reverse;
        use std::collections::BinaryHeap;
        let cfg = SwitchConfig {
            pfc_alpha_log2: -2,
            ecn: Some(Red {
                kmin_bytes: 5_000,
                kmax_bytes: 20_000,
                pmax: 0.1,
            }),
            ..SwitchConfig::new(4 * 27_000 + 30_000, 1000)
        };
        let mut sw = Switch::new(1, cfg, links(4, G100, 0), 3).unwrap();
        let mut rng = StdRng::seed_from_u64(11);
        // (time, seq, kind, port)
        let mut ev: BinaryHeap<Reverse<(Ps, u64, u8, PortId)>> = BinaryHeap::new();
        let mut out = Vec::new();
        let (mut seq, mut id) = (0u64, 0u64);
        let mut wire_bytes = std::collections::HashMap::new();
        for _ in 0..3000 {
            let t = rng.gen_range(0..50_000_000u64);
            ev.push(Reverse((t, seq, 0, rng.gen_range(0..4))));
            seq += 1;
        }
        for _ in 0..40 {
            let t = rng.gen_range(0..50_000_000u64);
            ev.push(Reverse((t, seq, 2, rng.gen_range(0..4))));
            seq += 1;
        }
        let (mut sent, mut dropped) = (0u64, 0u64);
        let mut arrived = 0u64;
        while let Some(Reverse((t, _, kind, port))) = ev.pop() {
            out.clear();
            match kind {
                0 => {
                    let bytes = rng.gen_range(64..=1000u32);
                    let pkt = if rng.gen_bool(0.2) {
                        ctrl(id, bytes)
                    } else {
                        data(id, bytes)
                    };
                    wire_bytes.insert(id, bytes as u64);
                    id += 1;
                    arrived += bytes as u64;
                    let out_port = (port + rng.gen_range(1..4)) % 4;
                    sw.arrive(t, port, out_port, pkt, &mut out);
                }
                1 => sw.port_free(t, port, &mut out),
                _ => {
                    let on = !sw.is_paused(port);
                    sw.set_paused(t, port, on, &mut out);
                    if on {
                        ev.push(Reverse((t + 3_000_000, seq, 2, port)));
                        seq += 1;
                    }
                }
            }
            for a in &out {
                match *a {
                    SwitchAction::Transmit { port, pkt, done } => {
                        sent += wire_bytes[&pkt.id];
                        ev.push(Reverse((done, seq, 1, port)));
                        seq += 1;
                    }
                    SwitchAction::Drop { pkt } => dropped += wire_bytes[&pkt.id],
                    SwitchAction::Pfc { .. } => {}
                }
            }
            let st = sw.stats();
            let queued: u64 = (0..4)
                .map(|p| sw.queue_bytes(p, Class::Data) + sw.queue_bytes(p, Class::Ctrl))
                .sum();
            assert_eq!(st.charged_bytes - st.freed_bytes, sw.buffer_used());
            assert_eq!(sw.buffer_used(), queued);
            assert_eq!(st.charged_bytes, arrived - dropped);
            assert_eq!(st.freed_bytes, sent);
            assert!(sw.shared_used() <= sw.shared_bytes());
            for p in 0..4 {
                assert!(sw.pg_bytes(p).1 <= sw.headroom_bytes(p));
            }
        }
        let st = sw.stats();
        assert_eq!(sw.buffer_used(), 0);
        assert_eq!(st.charged_bytes, st.freed_bytes);
        assert_eq!(sent + dropped, arrived);
        assert!(st.drops > 0, "the test should exercise drops");
        assert!(st.ports.iter().map(|p| p.xoff_sent).sum::<u64>() > 0);
        for p in 0..4 {
            assert_eq!(sw.pg_bytes(p), (0, 0));
            assert!(!sw.is_xoff(p), "an empty buffer resumes every PG");
            let s = &st.ports[p as usize];
            assert_eq!(s.xoff_sent, s.xon_sent);
        }
    }
}
