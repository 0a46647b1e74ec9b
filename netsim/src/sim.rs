//! The simulation loop: network events in time order, the hosts' cores cycle by cycle.
//!
//! Two kinds of time advance together. Network events (a packet's last bit arriving at a
//! node, an egress port finishing a packet, a pause frame taking effect, a flow starting,
//! a queue sample) wait in one priority queue ordered by time and then by the order they
//! were made, so a run is deterministic. The hosts' cores share one clock (`clock_mhz`):
//! cycle `c` starts at `c * 10^6 / clock_mhz` ps. At each cycle the loop first handles
//! every network event up to the cycle's start (they hand inputs to the cores), then
//! steps every awake host's core once; what a core puts out (a grant, a CNP request)
//! becomes packets at the cycle's start. A host whose core may skip cycles
//! ([`crate::nic::NicCore::idle_until`]) sleeps until its wake cycle or its next input;
//! when no host is awake the loop jumps to the next event or wake.
//!
//! A packet is handed over whole: it arrives at the next node when its last bit does
//! (store and forward), `wire_time + cable` after its first bit left.

use crate::flows::{Flow, TrafficContext};
use crate::host::{FlowState, Host, HostAction};
use crate::nic::Engine;
use crate::packet::{Class, NodeId, Packet, Payload, PortId, Ps};
use crate::scenario::Scenario;
use crate::switch::{Switch, SwitchAction, SwitchConfig};
use crate::topology::Topology;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// A network event.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Ev {
    /// `pkt`'s last bit reaches `node` on `port`.
    Arrive {
        node: NodeId,
        port: PortId,
        pkt: Packet,
    },
    /// Switch `node`'s egress `port` has sent its packet.
    PortFree { node: NodeId, port: PortId },
    /// A host's uplink has sent its packet.
    HostLinkFree { host: NodeId },
    /// A pause (`on`) or resume of the data priority takes effect on `node`'s egress `port`.
    Pause {
        node: NodeId,
        port: PortId,
        on: bool,
    },
    /// Flow `f` starts.
    FlowStart { f: u32 },
    /// Sample every switch port's queue.
    Sample,
}

/// An event in the queue: time, then order of creation.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Queued {
    t: Ps,
    seq: u64,
    ev: Ev,
}

impl Ord for Queued {
    fn cmp(&self, o: &Self) -> std::cmp::Ordering {
        (self.t, self.seq).cmp(&(o.t, o.seq))
    }
}
impl PartialOrd for Queued {
    fn partial_cmp(&self, o: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(o))
    }
}

/// A delivered data packet: when, its latency (grant to delivery), its flow.
#[derive(Clone, Copy, Debug)]
pub struct Delivery {
    pub t: Ps,
    pub latency: Ps,
    pub flow: u32,
    pub bytes: u32,
}

/// A rate report of a watched flow's QP: time, flow, rate in Mb/s.
#[derive(Clone, Copy, Debug)]
pub struct RatePoint {
    pub t: Ps,
    pub flow: u32,
    pub mbps: f64,
}

/// Everything a run recorded, for the report.
pub struct Run {
    pub scenario: Scenario,
    pub topo: Topology,
    pub flows: Vec<FlowState>,
    pub deliveries: Vec<Delivery>,
    /// Per switch port `(node, port)`: its data queue sampled every `sample_ns`.
    pub queue_samples: Vec<((NodeId, PortId), Vec<u64>)>,
    /// XOFF frames sent: (time, switch node, ingress port).
    pub pauses: Vec<(Ps, NodeId, PortId)>,
    /// Data packets dropped (a lossless run has none), and their payload bytes.
    pub drops: u64,
    pub dropped_payload: u64,
    /// Payload bytes granted by every core, delivered to receivers, still in the network
    /// at the end (counted on the wires and in the queues).
    pub granted_payload: u64,
    pub delivered_payload: u64,
    pub in_flight_payload: u64,
    /// CNP requests the NPs made.
    pub cnps: u64,
    /// Rate reports of the watched flows.
    pub rates: Vec<RatePoint>,
    /// Per host: bytes sent on the uplink, payload received, time paused.
    pub host_tx_bytes: Vec<u64>,
    pub host_rx_payload: Vec<u64>,
    pub host_paused_ps: Vec<Ps>,
    /// Per switch port: bytes transmitted, and time its data class was paused.
    pub port_tx_bytes: Vec<((NodeId, PortId), u64)>,
    pub port_paused_ps: std::collections::BTreeMap<(NodeId, PortId), Ps>,
    /// Core cycles evaluated over all hosts, and network events handled.
    pub cycles_evaluated: u64,
    pub events: u64,
    /// End of the run, ps.
    pub end: Ps,
}

/// Flows whose QP's rate reports are kept (the first ones that start).
pub const WATCHED_FLOWS: u32 = 8;

/// The simulation of one scenario.
pub struct Sim {
    sc: Scenario,
    topo: Topology,
    hosts: Vec<Host>,
    /// Switch of node `hosts + i`.
    switches: Vec<Switch>,
    flows: Vec<FlowState>,
    q: BinaryHeap<Reverse<Queued>>,
    seq: u64,
    next_id: u64,
    clock_mhz: u64,
    /// Per host: awake (stepped every cycle), or the cycle it wakes at.
    awake: Vec<bool>,
    wake_at: Vec<Option<u64>>,
    run: RunAcc,
}

#[derive(Default)]
struct RunAcc {
    deliveries: Vec<Delivery>,
    queue_samples: Vec<Vec<u64>>,
    pauses: Vec<(Ps, NodeId, PortId)>,
    drops: u64,
    dropped_payload: u64,
    granted_payload: u64,
    delivered_payload: u64,
    cnps: u64,
    rates: Vec<RatePoint>,
    events: u64,
}

impl Sim {
    /// Build the network, the hosts' cores (brought up) and the flows of `sc`.
    pub fn new(sc: &Scenario) -> Result<Self, String> {
        let topo = Topology::new(&sc.topology)?;
        let p = sc.params()?;
        let rtl = sc.rtl_hosts();
        let mut hosts = Vec::new();
        for h in 0..topo.hosts {
            let engine = if rtl.contains(&h) {
                Engine::Rtl
            } else {
                Engine::Golden
            };
            let link = topo.port(h, 0).rate_mbps;
            hosts.push(Host::new(
                h,
                &p,
                engine,
                link,
                sc.nic.cc,
                sc.nic.host_rate_mbps.unwrap_or(0),
                sc.nic.ack_every,
                sc.switch.int,
            )?);
        }
        let mtu_wire = Host::data_wire_bytes(sc.switch.int, p.mtu_bytes);
        let mut switches = Vec::new();
        for (i, s) in topo.switches().enumerate() {
            let node = &topo.nodes[s as usize];
            let cfg = SwitchConfig {
                buffer_bytes: sc.switch.buffer_bytes,
                pfc: sc.switch.pfc,
                pfc_alpha_log2: sc.switch.pfc_alpha_log2,
                pfc_resume_offset_bytes: sc
                    .switch
                    .pfc_resume_offset_bytes
                    .unwrap_or(2 * u64::from(mtu_wire)),
                ecn: sc.switch.ecn.map(|e| crate::switch::Red {
                    kmin_bytes: e.kmin_bytes,
                    kmax_bytes: e.kmax_bytes,
                    pmax: e.pmax,
                }),
                int: sc.switch.int,
                int_multi: p.hpcc_int_multi,
                response_ps: sc.switch.response_ns * 1000,
                mtu_wire_bytes: mtu_wire,
            };
            let ports = node
                .ports
                .iter()
                .map(|pt| crate::switch::PortLink {
                    rate_mbps: pt.rate_mbps,
                    cable_ps: pt.cable_ps,
                })
                .collect();
            let seed = sc.seed ^ (0x5157_0000 + i as u64);
            switches.push(
                Switch::new(s, cfg, ports, seed)
                    .map_err(|e| format!("switch {}: {e}", node.name))?,
            );
        }
        let flows: Vec<Flow> = sc.traffic.generate(&TrafficContext {
            hosts: topo.hosts,
            host_rate_mbps: topo.port(0, 0).rate_mbps,
            duration_ps: sc.duration_ps(),
            seed: sc.seed,
            base_dir: sc.base_dir.as_deref(),
        })?;
        let n_hosts = hosts.len();
        let mut sim = Self {
            clock_mhz: u64::from(p.clock_mhz),
            sc: sc.clone(),
            topo,
            hosts,
            switches,
            flows: flows.into_iter().map(FlowState::new).collect(),
            q: BinaryHeap::new(),
            seq: 0,
            next_id: 0,
            awake: vec![false; n_hosts],
            wake_at: vec![None; n_hosts],
            run: RunAcc::default(),
        };
        for f in 0..sim.flows.len() {
            let t = sim.flows[f].flow.start;
            sim.push(t, Ev::FlowStart { f: f as u32 });
        }
        sim.push(0, Ev::Sample);
        let ports = sim.switch_ports();
        sim.run.queue_samples = vec![Vec::new(); ports.len()];
        Ok(sim)
    }

    fn switch_ports(&self) -> Vec<(NodeId, PortId)> {
        let mut v = Vec::new();
        for s in self.topo.switches() {
            for p in 0..self.topo.nodes[s as usize].ports.len() {
                v.push((s, p as PortId));
            }
        }
        v
    }

    fn push(&mut self, t: Ps, ev: Ev) {
        self.seq += 1;
        self.q.push(Reverse(Queued {
            t,
            seq: self.seq,
            ev,
        }));
    }

    /// Start of cycle `c`, ps.
    fn cycle_start(&self, c: u64) -> Ps {
        c * 1_000_000 / self.clock_mhz
    }

    /// The first cycle that starts at or after `t`.
    fn cycle_at(&self, t: Ps) -> u64 {
        (t * self.clock_mhz).div_ceil(1_000_000)
    }

    fn sw(&mut self, node: NodeId) -> &mut Switch {
        let i = (node - self.topo.hosts) as usize;
        &mut self.switches[i]
    }

    fn wake(&mut self, h: NodeId) {
        self.awake[h as usize] = true;
        self.wake_at[h as usize] = None;
    }

    /// Run to the scenario's end; `progress` is called with the simulated time now and
    /// then.
    pub fn run(mut self, mut progress: impl FnMut(Ps, Ps)) -> Result<Run, String> {
        let end = self.sc.duration_ps();
        // Every core is stepped from cycle 0 until it may sleep.
        for h in 0..self.hosts.len() {
            self.awake[h] = true;
        }
        let mut c = 0u64;
        let mut last_progress = 0;
        loop {
            if !self.awake.iter().any(|&a| a) {
                let next_ev = self.q.peek().map(|e| self.cycle_at(e.0.t));
                let next_wake = self.wake_at.iter().flatten().min().copied();
                let to = match (next_ev, next_wake) {
                    (Some(a), Some(b)) => a.min(b),
                    (Some(a), None) | (None, Some(a)) => a,
                    (None, None) => break,
                };
                c = c.max(to);
            }
            let tc = self.cycle_start(c);
            if tc > end {
                break;
            }
            if tc - last_progress >= 10_000_000 {
                progress(tc, end);
                last_progress = tc;
            }
            while self.q.peek().is_some_and(|e| e.0.t <= tc) {
                let Reverse(e) = self.q.pop().expect("peeked");
                self.run.events += 1;
                self.handle(e.t, e.ev)?;
            }
            for h in 0..self.hosts.len() {
                if self.wake_at[h].is_some_and(|w| w <= c) {
                    self.wake(h as NodeId);
                }
                if !self.awake[h] {
                    continue;
                }
                self.step_host(h, c, tc)?;
            }
            c += 1;
        }
        Ok(self.finish(end))
    }

    fn step_host(&mut self, h: usize, c: u64, tc: Ps) -> Result<(), String> {
        let host = &mut self.hosts[h];
        let ready = host.port_ready();
        let o = host.nic.step(c, ready);
        let mut acts = Vec::new();
        host.on_nic_out(tc, &o, &mut self.flows, &mut self.next_id, &mut acts)?;
        if let Some((_, bytes)) = o.grant {
            self.run.granted_payload += u64::from(bytes);
        }
        if o.cnp.is_some() {
            self.run.cnps += 1;
        }
        if let Some(r) = o.rate {
            if let Some(f) = self.watched_flow(h, r.qp) {
                self.run.rates.push(RatePoint {
                    t: tc,
                    flow: f,
                    mbps: f64::from(r.report.rc_mbps_q8) / 256.0,
                });
            }
        }
        match self.hosts[h].nic.idle_until(c) {
            None => {}
            Some(w) => {
                self.awake[h] = false;
                self.wake_at[h] = w;
            }
        }
        self.host_actions(h as NodeId, acts);
        Ok(())
    }

    /// The watched flow (one of the first [`WATCHED_FLOWS`]) sending on `qp` of host `h`.
    fn watched_flow(&self, h: usize, qp: u32) -> Option<u32> {
        (0..WATCHED_FLOWS.min(self.flows.len() as u32)).find(|&f| {
            let fs = &self.flows[f as usize];
            fs.flow.src == h as NodeId && fs.sqp == Some(qp) && fs.done.is_none()
        })
    }

    fn host_actions(&mut self, h: NodeId, acts: Vec<HostAction>) {
        for a in acts {
            let HostAction::Send { pkt, at: _, done } = a;
            let link = *self.topo.port(h, 0);
            self.push(done, Ev::HostLinkFree { host: h });
            self.push(
                done + link.cable_ps,
                Ev::Arrive {
                    node: link.peer,
                    port: link.peer_port,
                    pkt,
                },
            );
        }
    }

    fn switch_actions(&mut self, t: Ps, node: NodeId, acts: Vec<SwitchAction>) {
        for a in acts {
            match a {
                SwitchAction::Transmit { port, pkt, done } => {
                    let link = *self.topo.port(node, port);
                    self.push(done, Ev::PortFree { node, port });
                    self.push(
                        done + link.cable_ps,
                        Ev::Arrive {
                            node: link.peer,
                            port: link.peer_port,
                            pkt,
                        },
                    );
                }
                SwitchAction::Pfc { port, xoff } => {
                    if xoff {
                        self.run.pauses.push((t, node, port));
                    }
                    let link = *self.topo.port(node, port);
                    let at = t + link.cable_ps + self.sc.switch.response_ns * 1000;
                    self.push(
                        at,
                        Ev::Pause {
                            node: link.peer,
                            port: link.peer_port,
                            on: xoff,
                        },
                    );
                }
                SwitchAction::Drop { pkt } => {
                    if let Payload::Data { bytes, .. } = pkt.payload {
                        self.run.drops += 1;
                        self.run.dropped_payload += u64::from(bytes);
                    }
                }
            }
        }
    }

    fn handle(&mut self, t: Ps, ev: Ev) -> Result<(), String> {
        match ev {
            Ev::Arrive { node, port, pkt } => {
                if self.topo.is_host(node) {
                    if let Payload::Data { bytes, .. } = pkt.payload {
                        self.run.delivered_payload += u64::from(bytes);
                        self.run.deliveries.push(Delivery {
                            t,
                            latency: t - pkt.born,
                            flow: pkt.flow,
                            bytes,
                        });
                    }
                    let mut acts = Vec::new();
                    self.hosts[node as usize].receive(
                        t,
                        pkt,
                        &mut self.flows,
                        &mut self.next_id,
                        &mut acts,
                    )?;
                    self.host_actions(node, acts);
                    self.wake(node);
                } else {
                    let out = self.topo.route(node, pkt.dst, pkt.qp, pkt.src);
                    let mut acts = Vec::new();
                    self.sw(node).arrive(t, port, out, pkt, &mut acts);
                    self.switch_actions(t, node, acts);
                }
            }
            Ev::PortFree { node, port } => {
                let mut acts = Vec::new();
                self.sw(node).port_free(t, port, &mut acts);
                self.switch_actions(t, node, acts);
            }
            Ev::HostLinkFree { host } => {
                let mut acts = Vec::new();
                self.hosts[host as usize].link_idle(t, &mut acts);
                self.host_actions(host, acts);
            }
            Ev::Pause { node, port, on } => {
                if self.topo.is_host(node) {
                    let h = &mut self.hosts[node as usize];
                    h.set_paused(t, on);
                    if !on {
                        let mut acts = Vec::new();
                        h.link_idle(t, &mut acts);
                        self.host_actions(node, acts);
                        self.wake(node);
                    }
                } else {
                    let mut acts = Vec::new();
                    self.sw(node).set_paused(t, port, on, &mut acts);
                    self.switch_actions(t, node, acts);
                }
            }
            Ev::FlowStart { f } => {
                let (src, dst) = {
                    let fl = &self.flows[f as usize].flow;
                    (fl.src, fl.dst)
                };
                self.hosts[dst as usize].open_rx(&mut self.flows, f);
                self.hosts[src as usize].start_flow(t, &mut self.flows, f);
                self.wake(src);
            }
            Ev::Sample => {
                let ports = self.switch_ports();
                for (i, (n, p)) in ports.into_iter().enumerate() {
                    let qb = self.sw(n).queue_bytes(p, Class::Data);
                    self.run.queue_samples[i].push(qb);
                }
                let next = t + self.sc.sample_ps();
                if next <= self.sc.duration_ps() {
                    self.push(next, Ev::Sample);
                }
            }
        }
        Ok(())
    }

    fn finish(mut self, end: Ps) -> Run {
        let mut in_flight = 0u64;
        for Reverse(e) in self.q.iter() {
            if let Ev::Arrive { pkt, .. } = &e.ev {
                if let Payload::Data { bytes, .. } = pkt.payload {
                    in_flight += u64::from(bytes);
                }
            }
        }
        for s in &self.switches {
            in_flight += s.queued_payload();
        }
        for h in &self.hosts {
            if let Some(Packet {
                payload: Payload::Data { bytes, .. },
                ..
            }) = h.tx_slot()
            {
                in_flight += u64::from(*bytes);
            }
        }
        let ports = self.switch_ports();
        let port_tx_bytes = ports
            .iter()
            .map(|&(n, p)| {
                let s = &self.switches[(n - self.topo.hosts) as usize];
                ((n, p), s.stats().ports[p as usize].tx_bytes)
            })
            .collect();
        let port_paused_ps = ports
            .iter()
            .map(|&(n, p)| {
                let s = &self.switches[(n - self.topo.hosts) as usize];
                ((n, p), s.paused_ps(p, end))
            })
            .collect();
        for h in &mut self.hosts {
            h.set_paused(end, false);
        }
        Run {
            queue_samples: ports
                .into_iter()
                .zip(std::mem::take(&mut self.run.queue_samples))
                .collect(),
            deliveries: self.run.deliveries,
            pauses: self.run.pauses,
            drops: self.run.drops,
            dropped_payload: self.run.dropped_payload,
            granted_payload: self.run.granted_payload,
            delivered_payload: self.run.delivered_payload,
            in_flight_payload: in_flight,
            cnps: self.run.cnps,
            rates: self.run.rates,
            host_tx_bytes: self.hosts.iter().map(|h| h.tx_wire_bytes).collect(),
            host_rx_payload: self.hosts.iter().map(|h| h.rx_payload_bytes).collect(),
            host_paused_ps: self.hosts.iter().map(|h| h.paused_ps).collect(),
            port_tx_bytes,
            port_paused_ps,
            cycles_evaluated: self.hosts.iter().map(|h| h.nic.evaluated()).sum(),
            events: self.run.events,
            end,
            scenario: self.sc,
            topo: self.topo,
            flows: self.flows,
        }
    }
}
