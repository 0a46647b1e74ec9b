//! The pacer's eligible set (`roce_cc_hdl::pacer::eligible::Eligible`) three ways: the
//! golden model `roce_cc_sim::pacer::eligible::EligibleModel`, rust-hdl's simulation and the
//! Verilated Verilog, for 128 QPs (4 words: sets collide in words and in QPs, the
//! round-robin wraps often) and for 1024 QPs. Each cycle has up to four sets and a random
//! `m_ready`; `m_valid` and `m_qp` are compared every cycle.
//!
//! On a mismatch the message has the shrunk cycle list and the path of a VCD of the
//! Verilated run (`target/tmp/pacer_eligible_three_way/<test>.vcd`). `ROCE_CC_CASES=N`
//! sets the number of random cases.

use proptest::prelude::*;
use roce_cc_hdl::pacer::eligible::Eligible;
use roce_cc_sim::lockstep::{cases_from_env_or, failure_vcd};
use roce_cc_sim::pacer::eligible::EligibleModel;
use roce_cc_sim::verilated::pacer_eligible::VPacerEligible;
use roce_cc_sim::verilated::pacer_eligible_q7::VPacerEligibleQ7;
use rust_hdl::prelude::*;
use std::path::{Path, PathBuf};

/// One cycle: the QPs set (at most four) and the consumer's ready; `reset` in the cycle.
#[derive(Clone, Debug)]
struct Cycle {
    sets: Vec<u32>,
    ready: bool,
    reset: bool,
}

/// The pins of a Verilated eligible set, whatever its size.
trait VElig {
    fn drive(&mut self, c: &Cycle);
    fn out(&mut self) -> Option<u32>;
    fn tick(&mut self);
    fn vcd(&mut self, path: &Path, t: u64, open: bool);
    fn close(&mut self);
}

macro_rules! velig {
    ($t:ty) => {
        impl VElig for $t {
            fn drive(&mut self, c: &Cycle) {
                let s = |i: usize| c.sets.get(i).copied();
                self.set_reset(c.reset as u64);
                self.set_m_ready(c.ready as u64);
                self.set_set0_valid(s(0).is_some() as u64);
                self.set_set0_qp(s(0).unwrap_or(0) as u64);
                self.set_set1_valid(s(1).is_some() as u64);
                self.set_set1_qp(s(1).unwrap_or(0) as u64);
                self.set_set2_valid(s(2).is_some() as u64);
                self.set_set2_qp(s(2).unwrap_or(0) as u64);
                self.set_set3_valid(s(3).is_some() as u64);
                self.set_set3_qp(s(3).unwrap_or(0) as u64);
                self.set_clock(0);
                self.eval();
            }
            fn out(&mut self) -> Option<u32> {
                (self.m_valid() != 0).then(|| self.m_qp() as u32)
            }
            fn tick(&mut self) {
                self.set_clock(1);
                self.eval();
            }
            fn vcd(&mut self, path: &Path, t: u64, open: bool) {
                if open {
                    self.open_vcd(path).expect("open the VCD");
                }
                self.dump_vcd(t);
            }
            fn close(&mut self) {
                self.close_vcd();
            }
        }
    };
}
velig!(VPacerEligible);
velig!(VPacerEligibleQ7);

fn hdl_out<const QB: usize, const WB: usize, const NW: usize>(
    e: &Eligible<QB, WB, NW>,
) -> Option<u32> {
    e.m_valid.val().then(|| e.m_qp.val().to_u64() as u32)
}

fn hdl_drive<const QB: usize, const WB: usize, const NW: usize>(
    e: &mut Eligible<QB, WB, NW>,
    c: &Cycle,
) {
    let s = |i: usize| c.sets.get(i).copied();
    e.reset.next = c.reset;
    e.m_ready.next = c.ready;
    e.set0_valid.next = s(0).is_some();
    e.set0_qp.next = (s(0).unwrap_or(0) as u64).into();
    e.set1_valid.next = s(1).is_some();
    e.set1_qp.next = (s(1).unwrap_or(0) as u64).into();
    e.set2_valid.next = s(2).is_some();
    e.set2_qp.next = (s(2).unwrap_or(0) as u64).into();
    e.set3_valid.next = s(3).is_some();
    e.set3_qp.next = (s(3).unwrap_or(0) as u64).into();
    e.clock.next = Clock { clk: false };
    assert!(simulate(e, 50));
}

/// The three engines on `cycles` (after a reset cycle); the first disagreement, with the
/// cycles up to it. Then, if they agree, the Verilated run again with a VCD when asked.
fn run<const QB: usize, const WB: usize, const NW: usize, V: VElig>(
    cycles: &[Cycle],
    new_v: impl Fn() -> V,
    vcd: Option<&Path>,
) -> Result<(), String> {
    let mut g = EligibleModel::new(1 << QB);
    let mut h = Eligible::<QB, WB, NW>::default();
    h.connect_all();
    let mut v = new_v();
    let reset = Cycle {
        sets: vec![],
        ready: false,
        reset: true,
    };
    for (k, c) in std::iter::once(&reset).chain(cycles).enumerate() {
        hdl_drive(&mut h, c);
        v.drive(c);
        if let Some(p) = vcd {
            v.vcd(p, 2 * k as u64, k == 0);
        }
        let (og, oh, ov) = (g.out(), hdl_out(&h), v.out());
        if og != oh || og != ov {
            if let Some(_) = vcd {
                v.close();
            }
            return Err(format!(
                "cycle {k} (0 is the reset): m_qp golden {og:?}, rust-hdl {oh:?}, Verilator {ov:?}\ncycles up to it:\n{}",
                cycles[..k.min(cycles.len())]
                    .iter()
                    .enumerate()
                    .map(|(i, c)| format!(
                        "  {}: sets {:?} ready {} reset {}\n",
                        i + 1,
                        c.sets,
                        c.ready,
                        c.reset
                    ))
                    .collect::<String>()
            ));
        }
        g.clock(&c.sets, c.ready, c.reset);
        h.clock.next = Clock { clk: true };
        assert!(simulate(&mut h, 50));
        v.tick();
        if let Some(p) = vcd {
            v.vcd(p, 2 * k as u64 + 1, false);
        }
    }
    if vcd.is_some() {
        v.close();
    }
    Ok(())
}

/// `run`, and on a mismatch the same cycles again with the Verilated run's VCD.
fn check<const QB: usize, const WB: usize, const NW: usize, V: VElig>(
    test: &str,
    cycles: &[Cycle],
    new_v: impl Fn() -> V + Copy,
) -> Result<(), TestCaseError> {
    run::<QB, WB, NW, V>(cycles, new_v, None).map_err(|m| {
        let path = failure_vcd(
            &PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("pacer_eligible_three_way"),
            test,
        );
        let _ = run::<QB, WB, NW, V>(cycles, new_v, Some(&path));
        TestCaseError::fail(format!("{m}VCD of the Verilated run: {}", path.display()))
    })
}

/// Cycles for `qps` QPs: sets drawn from a few hot QPs (repeats, one word, neighbours)
/// or from all QPs, bursts and quiet stretches, readiness mostly high, rare resets.
fn cycles(qps: u32) -> impl Strategy<Value = Vec<Cycle>> {
    let qp = prop_oneof![
        3 => (0u32..4).prop_map(|i| [1, 2, 31, 33][i as usize]),
        2 => (0u32..32).prop_map(move |b| (qps - 32) + b),
        3 => 0..qps,
    ];
    let cycle = (
        prop_oneof![
            3 => Just(0usize),
            2 => 1usize..=4,
            1 => Just(1usize),
        ],
        proptest::collection::vec(qp, 4),
        prop_oneof![4 => Just(true), 1 => Just(false)],
        prop_oneof![60 => Just(false), 1 => Just(true)],
    )
        .prop_map(|(n, qps, ready, reset)| Cycle {
            sets: qps[..n].to_vec(),
            ready,
            reset,
        });
    proptest::collection::vec(cycle, 1..400)
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: cases_from_env_or(48),
        max_shrink_iters: 2000,
        ..ProptestConfig::default()
    })]
    #[test]
    fn pacer_eligible_three_way_q128(cs in cycles(128)) {
        check::<7, 2, 4, _>("q128", &cs, VPacerEligibleQ7::new)?;
    }

    #[test]
    fn pacer_eligible_three_way_q1024(cs in cycles(1024)) {
        check::<10, 5, 32, _>("q1024", &cs, VPacerEligible::new)?;
    }
}

/// Every QP of 1024 set at once, the consumer always ready: one QP per cycle in QP order
/// after the pipeline's first three edges, the three engines agreeing on every cycle.
#[test]
fn pacer_eligible_all_qps_leave_one_per_cycle() {
    let mut cs: Vec<Cycle> = (0..256)
        .map(|i| Cycle {
            sets: (0..4).map(|p| 4 * i + p).collect(),
            ready: false,
            reset: false,
        })
        .collect();
    cs.extend((0..1100).map(|_| Cycle {
        sets: vec![],
        ready: true,
        reset: false,
    }));
    check::<10, 5, 32, _>("all", &cs, VPacerEligible::new).unwrap();
    let mut g = EligibleModel::new(1024);
    let mut got = Vec::new();
    for c in &cs {
        got.extend(g.clock(&c.sets, c.ready, c.reset));
    }
    assert_eq!(got, (0..1024).collect::<Vec<u32>>());
}
