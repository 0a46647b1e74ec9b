//! The port list of a rust-hdl top, read with rust-hdl's `Probe` visitor.

use rust_hdl::core::prelude::{Atom, AtomKind, Block, Probe, TypeKind};

/// Direction of a top-level port, as seen from outside the top.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dir {
    /// Driven by the testbench (`Signal<In, _>`).
    In,
    /// Driven by the design (`Signal<Out, _>`).
    Out,
    /// Bidirectional (`Signal<InOut, _>`): both a setter and a getter are generated.
    InOut,
}

/// One top-level port.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Port {
    /// The Verilog port name (a rust-hdl field name; fields of an interface are joined
    /// with `$`, e.g. `bus$data`).
    pub name: String,
    /// Width in bits.
    pub width: usize,
    /// Direction.
    pub dir: Dir,
    /// True for a `Signal<_, Clock>`.
    pub clock: bool,
    /// True for a `Signed<N>` port (two's complement).
    pub signed: bool,
}

impl Port {
    /// The testbench may write this port.
    pub fn is_input(&self) -> bool {
        self.dir != Dir::Out
    }

    /// Number of 32-bit words Verilator uses for a port wider than 64 bits.
    pub fn words(&self) -> usize {
        self.width.div_ceil(32)
    }

    /// Wider than 64 bits: passed as 32-bit words, least significant first.
    pub fn is_wide(&self) -> bool {
        self.width > 64
    }
}

/// The top-level ports of `top` (the signals at depth 1, including fields of interfaces),
/// in declaration order, which is the Verilog port order. `top` should be connected
/// (`connect_all`) first, as for Verilog generation.
pub fn ports_of<B: Block>(top: &B) -> Vec<Port> {
    let mut probe = PortProbe::default();
    top.accept("top", &mut probe);
    probe.ports
}

/// Collects the parameters of the outermost scope.
#[derive(Default)]
struct PortProbe {
    depth: usize,
    namespace: Vec<String>,
    ports: Vec<Port>,
}

impl Probe for PortProbe {
    fn visit_start_scope(&mut self, _name: &str, _node: &dyn Block) {
        self.depth += 1;
    }

    fn visit_start_namespace(&mut self, name: &str, _node: &dyn Block) {
        if self.depth == 1 {
            self.namespace.push(name.to_string());
        }
    }

    fn visit_atom(&mut self, name: &str, signal: &dyn Atom) {
        if self.depth != 1 {
            return;
        }
        if let Some(dir) = direction(signal.kind()) {
            let descriptor = signal.descriptor();
            self.ports.push(Port {
                name: self.qualified(name),
                width: signal.bits(),
                dir,
                clock: descriptor.name == "clock",
                signed: matches!(descriptor.kind, TypeKind::Signed(_)),
            });
        }
    }

    fn visit_end_namespace(&mut self, _name: &str, _node: &dyn Block) {
        if self.depth == 1 {
            self.namespace.pop();
        }
    }

    fn visit_end_scope(&mut self, _name: &str, _node: &dyn Block) {
        self.depth -= 1;
    }
}

impl PortProbe {
    /// `name` prefixed with the open interface names, joined with `$` as rust-hdl does.
    fn qualified(&self, name: &str) -> String {
        let mut parts = self.namespace.clone();
        parts.push(name.to_string());
        parts.join("$")
    }
}

/// The port direction of a parameter atom; `None` for locals, constants and stubs.
fn direction(kind: AtomKind) -> Option<Dir> {
    match kind {
        AtomKind::InputParameter => Some(Dir::In),
        AtomKind::OutputParameter | AtomKind::OutputPassthrough => Some(Dir::Out),
        AtomKind::InOutParameter => Some(Dir::InOut),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rust_hdl::prelude::*;

    #[derive(LogicBlock, Default)]
    struct Inner {
        pub x: Signal<In, Bits<3>>,
        pub y: Signal<Out, Bits<3>>,
    }

    impl Logic for Inner {
        #[hdl_gen]
        fn update(&mut self) {
            self.y.next = self.x.val();
        }
    }

    #[derive(LogicBlock, Default)]
    struct Outer {
        pub clock: Signal<In, Clock>,
        pub wide: Signal<In, Bits<100>>,
        pub s: Signal<In, Signed<8>>,
        pub out: Signal<Out, Bits<3>>,
        inner: Inner,
        local: Signal<Local, Bits<3>>,
    }

    impl Logic for Outer {
        #[hdl_gen]
        fn update(&mut self) {
            self.local.next = self.wide.val().get_bits::<3>(0);
            self.inner.x.next = self.local.val();
            self.out.next = self.inner.y.val();
        }
    }

    #[test]
    fn only_top_level_parameters_are_ports() {
        let mut top = Outer::default();
        top.connect_all();
        let ports = ports_of(&top);
        let names: Vec<_> = ports.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names, ["clock", "wide", "s", "out"]);
        assert!(ports[0].clock && ports[0].width == 1 && ports[0].dir == Dir::In);
        assert!(ports[1].is_wide() && ports[1].words() == 4);
        assert!(ports[2].signed && !ports[2].clock);
        assert_eq!(ports[3].dir, Dir::Out);
    }
}
