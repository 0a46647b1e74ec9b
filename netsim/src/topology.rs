//! The network's shape: hosts, switches, the links between them and how switches route.
//!
//! # Shapes
//!
//! A scenario names one of two shapes ([`TopologySpec`], the `[topology]` table of the
//! scenario TOML, `kind = "dumbbell"` or `kind = "leaf-spine"`):
//!
//! - **dumbbell** (incast): hosts `0..senders` are the senders and host `senders` the
//!   receiver, all on one switch (node `senders + 1`). Switch port `i` faces host `i`. Every
//!   sender's link runs at `host_rate_mbps`; the receiver's link, the bottleneck, at
//!   `bottleneck_rate_mbps`. Every cable is `cable_m` metres.
//! - **leaf-spine**: `leaves * hosts_per_leaf` hosts numbered leaf-major (host `h` sits on
//!   leaf `h / hosts_per_leaf`), then the leaves, then the spines: node ids are hosts
//!   `0..H`, leaf `l` is node `H + l`, spine `s` is node `H + leaves + s`. Leaf port `j`
//!   (`j < hosts_per_leaf`) faces host `l * hosts_per_leaf + j`, leaf port
//!   `hosts_per_leaf + s` faces spine `s`; spine port `l` faces leaf `l`. Host links run at
//!   `host_rate_mbps` over `host_cable_m`, leaf-spine links at `fabric_rate_mbps` over
//!   `fabric_cable_m`. Every leaf connects to every spine.
//!
//! A host has exactly one port, port 0. A link is two [`Port`]s, one at each end, each naming
//! the other (`peer`, `peer_port`); both ends have the same rate and cable delay
//! (`cable_m * PS_PER_M`, 5 ns per metre).
//!
//! # Validation
//!
//! [`TopologySpec::validate`] refuses: a rate outside 10 000 ..= 800 000 Mb/s (network.md's
//! 10..800 Gb/s); a zero count (`senders`, `leaves`, `spines`, `hosts_per_leaf`); fewer than
//! two hosts; a switch with more than 65 535 ports ([`PortId`] is 16 bits). Every message
//! names the field and its valid range. Cable lengths may be zero.
//!
//! # Routing
//!
//! Switches forward along shortest paths (fewest links) to the destination host; hosts never
//! forward. Where several next hops are equally short (a leaf towards a host on another leaf
//! may go up to any spine) the switch picks one by ECMP: candidate ports in ascending order,
//! index [`ecmp_hash`]`(src, dst, qp) % candidates`. The hash is a fixed splitmix64 mix of
//! the packet's source host, destination host and QP number, so a flow keeps one path, runs
//! are reproducible, and the ACKs of a flow (source and destination swapped) may take
//! another spine than its data. The tables are computed once in [`Topology::new`];
//! [`Topology::route`] is a table look-up.
//!
//! # Base RTT
//!
//! [`Topology::base_rtt_ps`] is the round trip of one packet on an idle network: for every
//! link from `a` to `b` (the sender's NIC link included) its cable delay plus the
//! serialization of one data packet at that link's rate (store and forward), then for every
//! link from `b` back to `a` its cable delay plus the serialization of one control packet
//! (the ACK). The path of QP 0 is used: in both shapes every equal-cost path between two
//! hosts crosses the same rates and cables, so the QP does not change the result.
//! [`Topology::max_base_rtt_ps`], the largest over all ordered host pairs, is HPCC's `T`.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use crate::packet::{NodeId, PS_PER_M, PortId, Ps, RateMbps, wire_time_ps};

/// Lowest link rate a scenario may use, Mb/s (network.md: 10 Gb/s).
pub const MIN_RATE_MBPS: RateMbps = 10_000;
/// Highest link rate a scenario may use, Mb/s (network.md: 800 Gb/s).
pub const MAX_RATE_MBPS: RateMbps = 800_000;

/// The `[topology]` table of a scenario: which shape, how many of each node, link rates and
/// cable lengths.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
pub enum TopologySpec {
    /// N senders and one receiver on a single switch (incast).
    Dumbbell {
        /// Number of sending hosts (at least 1); the receiver is host `senders`.
        senders: u32,
        /// Rate of every sender's link, Mb/s.
        host_rate_mbps: RateMbps,
        /// Rate of the receiver's link (the bottleneck), Mb/s.
        bottleneck_rate_mbps: RateMbps,
        /// Length of every cable, metres.
        cable_m: u32,
    },
    /// A two-tier Clos: every leaf connects to every spine, hosts hang off the leaves.
    LeafSpine {
        /// Number of leaf switches (at least 1).
        leaves: u32,
        /// Number of spine switches (at least 1).
        spines: u32,
        /// Hosts on each leaf (at least 1).
        hosts_per_leaf: u32,
        /// Rate of every host-leaf link, Mb/s.
        host_rate_mbps: RateMbps,
        /// Rate of every leaf-spine link, Mb/s.
        fabric_rate_mbps: RateMbps,
        /// Length of every host-leaf cable, metres.
        host_cable_m: u32,
        /// Length of every leaf-spine cable, metres.
        fabric_cable_m: u32,
    },
}

fn check_rate(field: &str, rate: RateMbps) -> Result<(), String> {
    if (MIN_RATE_MBPS..=MAX_RATE_MBPS).contains(&rate) {
        Ok(())
    } else {
        Err(format!(
            "topology.{field} = {rate} Mb/s is outside the valid range \
             {MIN_RATE_MBPS}..={MAX_RATE_MBPS} Mb/s"
        ))
    }
}

fn check_count(field: &str, n: u32) -> Result<(), String> {
    if n == 0 {
        Err(format!("topology.{field} = 0; it must be at least 1"))
    } else {
        Ok(())
    }
}

fn check_ports(what: &str, ports: u64) -> Result<(), String> {
    if ports > PortId::MAX as u64 {
        Err(format!(
            "topology: {what} would have {ports} ports; a switch has at most {}",
            PortId::MAX
        ))
    } else {
        Ok(())
    }
}

impl TopologySpec {
    /// Check every field; the message names the first bad field and its valid range.
    pub fn validate(&self) -> Result<(), String> {
        match *self {
            TopologySpec::Dumbbell {
                senders,
                host_rate_mbps,
                bottleneck_rate_mbps,
                cable_m: _,
            } => {
                check_count("senders", senders)?;
                check_rate("host_rate_mbps", host_rate_mbps)?;
                check_rate("bottleneck_rate_mbps", bottleneck_rate_mbps)?;
                check_ports("the dumbbell switch (senders + 1)", senders as u64 + 1)
                    .map_err(|e| format!("{e} (topology.senders must be at most 65534)"))
            }
            TopologySpec::LeafSpine {
                leaves,
                spines,
                hosts_per_leaf,
                host_rate_mbps,
                fabric_rate_mbps,
                host_cable_m: _,
                fabric_cable_m: _,
            } => {
                check_count("leaves", leaves)?;
                check_count("spines", spines)?;
                check_count("hosts_per_leaf", hosts_per_leaf)?;
                check_rate("host_rate_mbps", host_rate_mbps)?;
                check_rate("fabric_rate_mbps", fabric_rate_mbps)?;
                check_ports(
                    "a leaf (hosts_per_leaf + spines)",
                    hosts_per_leaf as u64 + spines as u64,
                )?;
                check_ports("a spine (leaves)", leaves as u64)?;
                let hosts = leaves as u64 * hosts_per_leaf as u64;
                if hosts < 2 {
                    return Err(format!(
                        "topology: leaves * hosts_per_leaf = {hosts}; a network needs at \
                         least 2 hosts"
                    ));
                }
                let nodes = hosts + leaves as u64 + spines as u64;
                if nodes > NodeId::MAX as u64 {
                    return Err(format!(
                        "topology: {nodes} nodes; at most {} are supported",
                        NodeId::MAX
                    ));
                }
                Ok(())
            }
        }
    }

    /// Number of hosts the shape has (`senders + 1`, or `leaves * hosts_per_leaf`).
    pub fn host_count(&self) -> u32 {
        match *self {
            TopologySpec::Dumbbell { senders, .. } => senders + 1,
            TopologySpec::LeafSpine {
                leaves,
                hosts_per_leaf,
                ..
            } => leaves * hosts_per_leaf,
        }
    }
}

/// What a node is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// A host: one port, a NIC running the roce-cc core.
    Host,
    /// The dumbbell's single switch.
    Switch,
    /// A leaf (top-of-rack) switch.
    Leaf,
    /// A spine switch.
    Spine,
}

/// One end of a link.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Port {
    /// The node at the other end.
    pub peer: NodeId,
    /// The port of `peer` this link arrives on.
    pub peer_port: PortId,
    /// Link rate, Mb/s (the same at both ends).
    pub rate_mbps: RateMbps,
    /// Propagation delay of the cable, ps (`cable_m * PS_PER_M`).
    pub cable_ps: Ps,
}

/// A host or a switch and its ports (indexed by [`PortId`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node {
    /// Short name for reports: `h3`, `sw`, `leaf0`, `spine1`.
    pub name: String,
    /// Host or which kind of switch.
    pub role: Role,
    /// The node's ports; a host has exactly one.
    pub ports: Vec<Port>,
}

/// A built network: nodes, links and the switches' routing tables.
#[derive(Clone, Debug)]
pub struct Topology {
    /// The specification it was built from.
    pub spec: TopologySpec,
    /// Number of hosts; hosts are nodes `0..hosts`, switches follow.
    pub hosts: u32,
    /// Every node, indexed by [`NodeId`].
    pub nodes: Vec<Node>,
    /// `(offset, len)` into `pool` for switch `s - hosts` and destination host `d`, at
    /// index `(s - hosts) * hosts + d`.
    table: Vec<(u32, u16)>,
    /// Candidate next-hop port lists, deduplicated.
    pool: Vec<PortId>,
}

/// splitmix64's finaliser: a fixed, well-mixed 64-bit integer hash.
fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The ECMP hash of a packet: `splitmix64(splitmix64(src << 32 | dst) ^ qp)`.
pub fn ecmp_hash(src: NodeId, dst: NodeId, qp: u32) -> u64 {
    splitmix64(splitmix64(((src as u64) << 32) | dst as u64) ^ qp as u64)
}

impl Topology {
    /// Validate `spec` and build its nodes, links and routing tables.
    pub fn new(spec: &TopologySpec) -> Result<Topology, String> {
        spec.validate()?;
        let hosts = spec.host_count();
        let host_node = |i: u32| Node {
            name: format!("h{i}"),
            role: Role::Host,
            ports: Vec::with_capacity(1),
        };
        let mut nodes: Vec<Node> = (0..hosts).map(host_node).collect();
        match *spec {
            TopologySpec::Dumbbell {
                senders,
                host_rate_mbps,
                bottleneck_rate_mbps,
                cable_m,
            } => {
                let sw = hosts;
                nodes.push(Node {
                    name: "sw".into(),
                    role: Role::Switch,
                    ports: Vec::with_capacity(hosts as usize),
                });
                for h in 0..hosts {
                    let rate = if h == senders {
                        bottleneck_rate_mbps
                    } else {
                        host_rate_mbps
                    };
                    connect(&mut nodes, h, sw, rate, cable_m as Ps * PS_PER_M);
                }
            }
            TopologySpec::LeafSpine {
                leaves,
                spines,
                hosts_per_leaf,
                host_rate_mbps,
                fabric_rate_mbps,
                host_cable_m,
                fabric_cable_m,
            } => {
                for l in 0..leaves {
                    nodes.push(Node {
                        name: format!("leaf{l}"),
                        role: Role::Leaf,
                        ports: Vec::with_capacity((hosts_per_leaf + spines) as usize),
                    });
                }
                for s in 0..spines {
                    nodes.push(Node {
                        name: format!("spine{s}"),
                        role: Role::Spine,
                        ports: Vec::with_capacity(leaves as usize),
                    });
                }
                for h in 0..hosts {
                    let leaf = hosts + h / hosts_per_leaf;
                    connect(
                        &mut nodes,
                        h,
                        leaf,
                        host_rate_mbps,
                        host_cable_m as Ps * PS_PER_M,
                    );
                }
                for l in 0..leaves {
                    for s in 0..spines {
                        connect(
                            &mut nodes,
                            hosts + l,
                            hosts + leaves + s,
                            fabric_rate_mbps,
                            fabric_cable_m as Ps * PS_PER_M,
                        );
                    }
                }
            }
        }
        let mut topo = Topology {
            spec: spec.clone(),
            hosts,
            nodes,
            table: Vec::new(),
            pool: Vec::new(),
        };
        topo.build_tables();
        Ok(topo)
    }

    /// Breadth-first search from every destination host (hosts other than the destination do
    /// not forward), then for every switch the ports whose peer is one link nearer.
    fn build_tables(&mut self) {
        let n = self.nodes.len();
        let hosts = self.hosts as usize;
        let switches = n - hosts;
        let mut table = vec![(0u32, 0u16); switches * hosts];
        let mut pool: Vec<PortId> = Vec::new();
        let mut seen: HashMap<Vec<PortId>, u32> = HashMap::new();
        let mut dist = vec![u32::MAX; n];
        let mut frontier: Vec<NodeId> = Vec::new();
        let mut next: Vec<NodeId> = Vec::new();
        let mut cand: Vec<PortId> = Vec::new();
        for d in 0..hosts {
            dist.fill(u32::MAX);
            dist[d] = 0;
            frontier.clear();
            frontier.push(d as NodeId);
            let mut level = 0;
            while !frontier.is_empty() {
                level += 1;
                next.clear();
                for &u in &frontier {
                    if (u as usize) < hosts && u as usize != d {
                        continue; // hosts never forward
                    }
                    for p in &self.nodes[u as usize].ports {
                        if dist[p.peer as usize] == u32::MAX {
                            dist[p.peer as usize] = level;
                            next.push(p.peer);
                        }
                    }
                }
                std::mem::swap(&mut frontier, &mut next);
            }
            for s in hosts..n {
                cand.clear();
                if dist[s] != u32::MAX {
                    for (i, p) in self.nodes[s].ports.iter().enumerate() {
                        if dist[p.peer as usize] + 1 == dist[s] {
                            cand.push(i as PortId);
                        }
                    }
                }
                let off = match seen.get(&cand) {
                    Some(&o) => o,
                    None => {
                        let o = pool.len() as u32;
                        pool.extend_from_slice(&cand);
                        seen.insert(cand.clone(), o);
                        o
                    }
                };
                table[(s - hosts) * hosts + d] = (off, cand.len() as u16);
            }
        }
        self.table = table;
        self.pool = pool;
    }

    /// Whether `node` is a host.
    pub fn is_host(&self, node: NodeId) -> bool {
        node < self.hosts
    }

    /// The switches' node ids, in order.
    pub fn switches(&self) -> std::ops::Range<NodeId> {
        self.hosts..self.nodes.len() as NodeId
    }

    /// The port `port` of `node`.
    pub fn port(&self, node: NodeId, port: PortId) -> &Port {
        &self.nodes[node as usize].ports[port as usize]
    }

    /// The switch port a host is attached to: `(switch, port)`.
    pub fn host_attachment(&self, host: NodeId) -> (NodeId, PortId) {
        let p = self.port(host, 0);
        (p.peer, p.peer_port)
    }

    /// The dumbbell's bottleneck, the switch port facing the receiver; `None` for a
    /// leaf-spine.
    pub fn bottleneck(&self) -> Option<(NodeId, PortId)> {
        match self.spec {
            TopologySpec::Dumbbell { senders, .. } => Some(self.host_attachment(senders)),
            TopologySpec::LeafSpine { .. } => None,
        }
    }

    /// The egress port of `node` for a packet from host `src` to host `dst` of QP `qp`: a
    /// host's only port, or the switch's shortest-path next hop, ECMP-hashed among equals.
    /// Panics if `dst` is not a host.
    pub fn route(&self, node: NodeId, dst: NodeId, qp: u32, src: NodeId) -> PortId {
        if node < self.hosts {
            return 0;
        }
        assert!(dst < self.hosts, "route: destination {dst} is not a host");
        let (off, len) =
            self.table[(node - self.hosts) as usize * self.hosts as usize + dst as usize];
        assert!(len > 0, "route: node {node} cannot reach host {dst}");
        let i = if len == 1 {
            0
        } else {
            (ecmp_hash(src, dst, qp) % len as u64) as usize
        };
        self.pool[off as usize + i]
    }

    /// Walk the hops from host `a` to host `b` for QP `qp`, calling `f(node, out_port)`.
    fn walk(&self, a: NodeId, b: NodeId, qp: u32, mut f: impl FnMut(NodeId, PortId)) {
        assert!(
            a < self.hosts && b < self.hosts,
            "path: {a} or {b} is not a host"
        );
        let mut node = a;
        for _ in 0..self.nodes.len() {
            let p = self.route(node, b, qp, a);
            f(node, p);
            node = self.port(node, p).peer;
            if node == b {
                return;
            }
        }
        panic!("path: no route from {a} to {b} (a routing loop)");
    }

    /// The hops of a packet from host `a` to host `b` of QP `qp`: `(node, egress port)` for
    /// the sending host (port 0) and then every switch, in order.
    pub fn path(&self, a: NodeId, b: NodeId, qp: u32) -> Vec<(NodeId, PortId)> {
        let mut v = Vec::new();
        self.walk(a, b, qp, |n, p| v.push((n, p)));
        v
    }

    /// Number of switches between hosts `a` and `b`.
    pub fn hops(&self, a: NodeId, b: NodeId) -> u32 {
        let mut n = 0;
        self.walk(a, b, 0, |_, _| n += 1);
        n - 1
    }

    /// Idle round trip between hosts `a` and `b`, ps: on every link out, cable delay plus the
    /// serialization of one `data_wire_bytes` packet; on every link back, cable delay plus
    /// the serialization of one `ctrl_wire_bytes` packet (QP 0's path each way).
    pub fn base_rtt_ps(
        &self,
        a: NodeId,
        b: NodeId,
        data_wire_bytes: u32,
        ctrl_wire_bytes: u32,
    ) -> Ps {
        let mut t = 0;
        self.walk(a, b, 0, |n, p| {
            let l = self.port(n, p);
            t += l.cable_ps + wire_time_ps(data_wire_bytes as u64, l.rate_mbps);
        });
        self.walk(b, a, 0, |n, p| {
            let l = self.port(n, p);
            t += l.cable_ps + wire_time_ps(ctrl_wire_bytes as u64, l.rate_mbps);
        });
        t
    }

    /// The largest [`Topology::base_rtt_ps`] over all ordered pairs of distinct hosts (HPCC's
    /// `T`).
    pub fn max_base_rtt_ps(&self, data_wire_bytes: u32, ctrl_wire_bytes: u32) -> Ps {
        let mut max = 0;
        for a in 0..self.hosts {
            for b in 0..self.hosts {
                if a != b {
                    max = max.max(self.base_rtt_ps(a, b, data_wire_bytes, ctrl_wire_bytes));
                }
            }
        }
        max
    }
}

/// Add a link between `a` and `b`: the next free port at each end.
fn connect(nodes: &mut [Node], a: NodeId, b: NodeId, rate_mbps: RateMbps, cable_ps: Ps) {
    let pa = nodes[a as usize].ports.len() as PortId;
    let pb = nodes[b as usize].ports.len() as PortId;
    nodes[a as usize].ports.push(Port {
        peer: b,
        peer_port: pb,
        rate_mbps,
        cable_ps,
    });
    nodes[b as usize].ports.push(Port {
        peer: a,
        peer_port: pa,
        rate_mbps,
        cable_ps,
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dumbbell() -> Topology {
        Topology::new(&TopologySpec::Dumbbell {
            senders: 3,
            host_rate_mbps: 100_000,
            bottleneck_rate_mbps: 25_000,
            cable_m: 2,
        })
        .unwrap()
    }

    fn leaf_spine(leaves: u32, spines: u32, hpl: u32) -> Topology {
        Topology::new(&TopologySpec::LeafSpine {
            leaves,
            spines,
            hosts_per_leaf: hpl,
            host_rate_mbps: 100_000,
            fabric_rate_mbps: 400_000,
            host_cable_m: 1,
            fabric_cable_m: 20,
        })
        .unwrap()
    }

    /// Every port's peer names it back, with the same rate and cable.
    fn check_links(t: &Topology) {
        for (n, node) in t.nodes.iter().enumerate() {
            for (i, p) in node.ports.iter().enumerate() {
                let back = t.port(p.peer, p.peer_port);
                assert_eq!((back.peer, back.peer_port), (n as NodeId, i as PortId));
                assert_eq!((back.rate_mbps, back.cable_ps), (p.rate_mbps, p.cable_ps));
            }
            if t.is_host(n as NodeId) {
                assert_eq!(node.ports.len(), 1);
            }
        }
    }

    #[test]
    fn dumbbell_shape() {
        let t = dumbbell();
        assert_eq!(t.hosts, 4);
        assert_eq!(t.nodes.len(), 5);
        check_links(&t);
        let sw = &t.nodes[4];
        assert_eq!(sw.role, Role::Switch);
        assert_eq!(sw.ports.len(), 4);
        for h in 0..3 {
            assert_eq!(sw.ports[h as usize].peer, h);
            assert_eq!(sw.ports[h as usize].rate_mbps, 100_000);
            assert_eq!(sw.ports[h as usize].cable_ps, 10_000);
        }
        assert_eq!(sw.ports[3].rate_mbps, 25_000);
        assert_eq!(t.bottleneck(), Some((4, 3)));
        assert_eq!(t.hops(0, 3), 1);
        assert_eq!(t.path(1, 3, 7), vec![(1, 0), (4, 3)]);
    }

    #[test]
    fn leaf_spine_2x2x2_shape() {
        let t = leaf_spine(2, 2, 2);
        assert_eq!(t.hosts, 4);
        assert_eq!(t.nodes.len(), 8);
        check_links(&t);
        let names: Vec<&str> = t.nodes.iter().map(|n| n.name.as_str()).collect();
        assert_eq!(
            names,
            ["h0", "h1", "h2", "h3", "leaf0", "leaf1", "spine0", "spine1"]
        );
        // Leaf 1: ports 0, 1 to hosts 2, 3; ports 2, 3 to spines 0, 1.
        let leaf1 = &t.nodes[5];
        let peers: Vec<NodeId> = leaf1.ports.iter().map(|p| p.peer).collect();
        assert_eq!(peers, [2, 3, 6, 7]);
        assert_eq!(leaf1.ports[0].rate_mbps, 100_000);
        assert_eq!(leaf1.ports[0].cable_ps, 5_000);
        assert_eq!(leaf1.ports[2].rate_mbps, 400_000);
        assert_eq!(leaf1.ports[2].cable_ps, 100_000);
        // Spine 1: port l to leaf l.
        let spine1 = &t.nodes[7];
        let peers: Vec<NodeId> = spine1.ports.iter().map(|p| p.peer).collect();
        assert_eq!(peers, [4, 5]);
        assert_eq!(t.host_attachment(3), (5, 1));
        assert_eq!(t.hops(0, 1), 1);
        assert_eq!(t.hops(0, 3), 3);
        assert_eq!(t.bottleneck(), None);
    }

    #[test]
    fn routing_reaches_every_host_from_every_host() {
        for t in [
            dumbbell(),
            leaf_spine(2, 2, 2),
            leaf_spine(3, 4, 5),
            leaf_spine(4, 1, 1),
        ] {
            for a in 0..t.hosts {
                for b in 0..t.hosts {
                    if a == b {
                        continue;
                    }
                    for qp in 0..8 {
                        let p = t.path(a, b, qp);
                        assert_eq!(p[0], (a, 0));
                        let (last, port) = *p.last().unwrap();
                        assert_eq!(t.port(last, port).peer, b);
                        // Every step follows a link, no node repeats.
                        for w in p.windows(2) {
                            assert_eq!(t.port(w[0].0, w[0].1).peer, w[1].0);
                        }
                        let mut ns: Vec<NodeId> = p.iter().map(|h| h.0).collect();
                        ns.sort();
                        ns.dedup();
                        assert_eq!(ns.len(), p.len());
                        let same_leaf = match t.spec {
                            TopologySpec::LeafSpine { hosts_per_leaf, .. } => {
                                a / hosts_per_leaf == b / hosts_per_leaf
                            }
                            _ => true,
                        };
                        assert_eq!(p.len(), if same_leaf { 2 } else { 4 });
                    }
                }
            }
        }
    }

    #[test]
    fn ecmp_spreads_qps_over_spines() {
        let t = leaf_spine(2, 4, 2);
        let mut count = [0u32; 4];
        for qp in 0..400 {
            let p = t.route(4, 3, qp, 0);
            assert!((2..6).contains(&p), "leaf0 to host 3 goes up, port {p}");
            // Deterministic: the same packet takes the same port.
            assert_eq!(t.route(4, 3, qp, 0), p);
            count[(p - 2) as usize] += 1;
        }
        for c in count {
            assert!((60..=140).contains(&c), "spine counts {count:?}");
        }
        // Different sources of the same QP spread too.
        let ports: std::collections::BTreeSet<PortId> = (0..2)
            .flat_map(|s| (0..20).map(move |q| (s, q)))
            .map(|(s, q)| t.route(4, 3, q, s))
            .collect();
        assert_eq!(ports.len(), 4);
        // The hash is fixed: a change of it changes every run's results.
        assert_eq!(ecmp_hash(0, 0, 0), splitmix64(splitmix64(0)));
        assert_eq!(splitmix64(0), 0xE220_A839_7B1D_CDAF);
    }

    #[test]
    fn base_rtt_matches_a_hand_computed_case() {
        // Dumbbell, sender 0 -> receiver 3: 2 links out (100 G, then 25 G), 2 back.
        let t = dumbbell();
        // Out: cables 2 x 10 ns; 1000 B at 100 G = 80 ns, at 25 G = 320 ns.
        // Back: cables 2 x 10 ns; 64 B at 25 G = 20.48 ns, at 100 G = 5.12 ns.
        let want = 10_000 + 80_000 + 10_000 + 320_000 + 10_000 + 20_480 + 10_000 + 5_120;
        assert_eq!(t.base_rtt_ps(0, 3, 1000, 64), want);
        // Leaf-spine across leaves: host link 5 ns, fabric 100 ns; 100 G and 400 G.
        let t = leaf_spine(2, 2, 2);
        let out = 2 * (5_000 + 80_000) + 2 * (100_000 + 20_000);
        let back = 2 * (5_000 + 5_120) + 2 * (100_000 + 1_280);
        assert_eq!(t.base_rtt_ps(0, 2, 1000, 64), out + back);
        assert_eq!(t.max_base_rtt_ps(1000, 64), out + back);
        assert_eq!(
            t.base_rtt_ps(0, 1, 1000, 64),
            2 * (5_000 + 80_000) + 2 * (5_000 + 5_120)
        );
    }

    #[test]
    fn validation_names_the_field_and_range() {
        let bad = TopologySpec::Dumbbell {
            senders: 2,
            host_rate_mbps: 100_000,
            bottleneck_rate_mbps: 900_000,
            cable_m: 1,
        };
        let e = Topology::new(&bad).unwrap_err();
        assert!(
            e.contains("bottleneck_rate_mbps") && e.contains("10000..=800000"),
            "{e}"
        );
        let bad = TopologySpec::LeafSpine {
            leaves: 2,
            spines: 0,
            hosts_per_leaf: 2,
            host_rate_mbps: 100_000,
            fabric_rate_mbps: 100_000,
            host_cable_m: 1,
            fabric_cable_m: 1,
        };
        let e = bad.validate().unwrap_err();
        assert!(e.contains("spines") && e.contains("at least 1"), "{e}");
        let bad = TopologySpec::Dumbbell {
            senders: 0,
            host_rate_mbps: 100_000,
            bottleneck_rate_mbps: 100_000,
            cable_m: 1,
        };
        assert!(bad.validate().unwrap_err().contains("senders"));
    }

    #[test]
    fn spec_reads_from_toml() {
        let s: TopologySpec = toml::from_str(
            "kind = \"leaf-spine\"\nleaves = 2\nspines = 2\nhosts_per_leaf = 4\n\
             host_rate_mbps = 100000\nfabric_rate_mbps = 400000\nhost_cable_m = 2\n\
             fabric_cable_m = 10\n",
        )
        .unwrap();
        assert_eq!(s.host_count(), 8);
        let s: TopologySpec = toml::from_str(
            "kind = \"dumbbell\"\nsenders = 8\nhost_rate_mbps = 100000\n\
             bottleneck_rate_mbps = 100000\ncable_m = 2\n",
        )
        .unwrap();
        assert_eq!(s.host_count(), 9);
        let back: TopologySpec = toml::from_str(&toml::to_string(&s).unwrap()).unwrap();
        assert_eq!(back, s);
        let e = toml::from_str::<TopologySpec>(
            "kind = \"dumbbell\"\nsenders = 8\nhost_rate_mbps = 100000\n\
             bottleneck_rate_mbps = 100000\ncable_m = 2\ncable_km = 1\n",
        );
        assert!(e.is_err(), "an unknown field is refused");
    }
}
