//! The pacer's timing wheel (`roce_cc_hdl::pacer::wheel::Wheel`) three ways: the golden
//! model `roce_cc_sim::pacer::wheel::WheelModel`, rust-hdl's simulation and the Verilated
//! Verilog, for 64 QPs in 64 slots (lists of many QPs, the cursor often behind and wrapping
//! the slots) and for 1024 QPs in 256 slots. `m_valid`, `m_qp`, `cur`, the scan (`first`,
//! `first_valid`) and `held` are compared every cycle.
//!
//! The random cycles are drawn as choices (push or not, which free QP, how far ahead,
//! how far `now` moves) that each cycle turns into a push the wheel's contract allows,
//! against the golden model's state: a QP not in the wheel, `now < due < cur + S`. So
//! shrinking keeps every case valid. Times start near the 48-bit wrap in some cases.
//!
//! On a mismatch the message has the cycles up to it (as pushed) and the path of a VCD of
//! the Verilated run (`target/tmp/pacer_wheel_three_way/<test>.vcd`). `ROCE_CC_CASES=N`
//! sets the number of random cases.

use proptest::prelude::*;
use roce_cc_hdl::pacer::wheel::Wheel;
use roce_cc_sim::lockstep::{cases_from_env_or, failure_vcd};
use roce_cc_sim::pacer::wheel::WheelModel;
use roce_cc_sim::verilated::pacer_wheel::VPacerWheel;
use roce_cc_sim::verilated::pacer_wheel_q6::VPacerWheelQ6;
use rust_hdl::prelude::*;
use std::path::{Path, PathBuf};

/// One cycle's choices.
#[derive(Clone, Debug)]
struct Choice {
    /// Push: (which free QP: an index into the QPs not in the wheel, taken mod their number; how far ahead, as a fraction
    /// of the allowed span in 1/65536, or a small number of slots when `near`).
    push: Option<(u32, u32, bool)>,
    /// Or a push of this QP at this due time (`push` is then ignored).
    fixed: Option<(u32, u64)>,
    /// How far `now` moves after the cycle.
    step: u64,
    reset: bool,
}

/// One cycle as driven: `now`, the push, the reset.
#[derive(Clone, Copy, Debug)]
struct Cycle {
    now: u64,
    push: Option<(u32, u64)>,
    reset: bool,
}

const MASK48: u64 = (1 << 48) - 1;

/// The cycle the choice `c` gives at `now` with the golden model `g` of `qps` QPs.
fn resolve(g: &WheelModel, qps: u32, now: u64, c: &Choice) -> Cycle {
    if let Some((qp, due)) = c.fixed {
        assert!(
            g.may_push(now, due) && !g.holds(qp),
            "fixed push {qp} at {due}, now {now}"
        );
        return Cycle {
            now,
            push: Some((qp, due)),
            reset: c.reset,
        };
    }
    let push = c.push.and_then(|(pick, far, near)| {
        let free: Vec<u32> = (0..qps).filter(|&q| !g.holds(q)).collect();
        if free.is_empty() {
            return None;
        }
        let qp = free[pick as usize % free.len()];
        // Allowed dues: now + 1 ..= cur + S - 1.
        let span = (g.cur() + g.slots() - 1).wrapping_sub(now) & MASK48;
        if span == 0 || span >= 1 << 47 {
            return None;
        }
        let ahead = if near {
            1 + far as u64 % span.min(4)
        } else {
            1 + (far as u64 * span >> 16).min(span - 1)
        };
        let due = (now + ahead) & MASK48;
        assert!(g.may_push(now, due));
        Some((qp, due))
    });
    Cycle {
        now,
        push,
        reset: c.reset,
    }
}

/// The compared outputs: `m_valid`/`m_qp`, `cur`, the scan's `first` and `first_valid`,
/// `held`.
type WOut = (Option<u32>, u64, u64, bool, u32);

/// The pins of a Verilated wheel, whatever its size.
trait VWheel {
    fn drive(&mut self, c: &Cycle);
    fn out(&mut self) -> WOut;
    fn tick(&mut self);
    fn vcd(&mut self, path: &Path, t: u64, open: bool);
    fn close(&mut self);
}

macro_rules! vwheel {
    ($t:ty, $slots:expr) => {
        impl VWheel for $t {
            fn drive(&mut self, c: &Cycle) {
                self.set_reset(c.reset as u64);
                self.set_now(c.now);
                self.set_push_valid(c.push.is_some() as u64);
                self.set_push_qp(c.push.map_or(0, |p| p.0 as u64));
                self.set_push_slot(c.push.map_or(0, |p| p.1 & ($slots - 1)));
                self.set_clock(0);
                self.eval();
            }
            fn out(&mut self) -> WOut {
                (
                    (self.m_valid() != 0).then(|| self.m_qp() as u32),
                    self.cur(),
                    self.first(),
                    self.first_valid() != 0,
                    self.held() as u32,
                )
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
vwheel!(VPacerWheel, 256u64);
vwheel!(VPacerWheelQ6, 64u64);

fn hdl_drive<const QB: usize, const SB: usize, const S: usize, const LW: usize>(
    w: &mut Wheel<QB, SB, S, LW>,
    c: &Cycle,
) {
    w.reset.next = c.reset;
    w.now.next = c.now.into();
    w.push_valid.next = c.push.is_some();
    w.push_qp.next = (c.push.map_or(0, |p| p.0) as u64).into();
    w.push_slot.next = c.push.map_or(0, |p| p.1 & (S as u64 - 1)).into();
    w.clock.next = Clock { clk: false };
    assert!(simulate(w, 50));
}

fn hdl_out<const QB: usize, const SB: usize, const S: usize, const LW: usize>(
    w: &Wheel<QB, SB, S, LW>,
) -> WOut {
    (
        w.m_valid.val().then(|| w.m_qp.val().to_u64() as u32),
        w.cur.val().to_u64(),
        w.first.val().to_u64(),
        w.first_valid.val(),
        w.held.val().to_u64() as u32,
    )
}

/// The three engines on `choices` from time `t0` (after a reset cycle); the first
/// disagreement, with the cycles up to it, or the releases as (QP, cycle) when they agree.
/// Then, on a disagreement, the Verilated run again with a VCD when asked.
fn run<const QB: usize, const SB: usize, const S: usize, const LW: usize, V: VWheel>(
    t0: u64,
    choices: &[Choice],
    new_v: impl Fn() -> V,
    vcd: Option<&Path>,
) -> Result<Vec<(u32, u64)>, String> {
    let qps = 1u32 << QB;
    let mut g = WheelModel::new(qps, SB as u32, t0);
    let mut h = Wheel::<QB, SB, S, LW>::default();
    h.connect_all();
    let mut v = new_v();
    let reset = Choice {
        push: None,
        fixed: None,
        step: 0,
        reset: true,
    };
    let mut now = t0 & MASK48;
    let mut done: Vec<Cycle> = Vec::new();
    let mut released = Vec::new();
    for (k, c) in std::iter::once(&reset).chain(choices).enumerate() {
        let cyc = resolve(&g, qps, now, c);
        hdl_drive(&mut h, &cyc);
        v.drive(&cyc);
        if let Some(p) = vcd {
            v.vcd(p, 2 * k as u64, k == 0);
        }
        let (first, first_valid) = g.first();
        let og = (g.out(), g.cur(), first, first_valid, g.held());
        let (mut oh, mut ov) = (hdl_out(&h), v.out());
        if k == 0 {
            // Before the first edge the cursor and the scan are the power-on values; the
            // reset sets them.
            (oh.1, ov.1, oh.2, ov.2) = (og.1, og.1, og.2, og.2);
        }
        if og != oh || og != ov {
            if vcd.is_some() {
                v.close();
            }
            return Err(format!(
                "cycle {k} (0 is the reset): (m_qp, cur, first, first_valid, held) golden {og:?}, rust-hdl {oh:?}, Verilator {ov:?}\ncycles up to it:\n{}",
                done.iter()
                    .enumerate()
                    .map(|(i, c)| format!("  {i}: {c:?}\n"))
                    .collect::<String>()
            ));
        }
        if let Some(q) = og.0 {
            released.push((q, cyc.now));
        }
        g.clock(cyc.now, cyc.push, cyc.reset);
        h.clock.next = Clock { clk: true };
        assert!(simulate(&mut h, 50));
        v.tick();
        if let Some(p) = vcd {
            v.vcd(p, 2 * k as u64 + 1, false);
        }
        done.push(cyc);
        now = (now + c.step) & MASK48;
    }
    if vcd.is_some() {
        v.close();
    }
    Ok(released)
}

/// `run`, and on a mismatch the same cycles again with the Verilated run's VCD.
fn check<const QB: usize, const SB: usize, const S: usize, const LW: usize, V: VWheel>(
    test: &str,
    t0: u64,
    choices: &[Choice],
    new_v: impl Fn() -> V + Copy,
) -> Result<Vec<(u32, u64)>, TestCaseError> {
    run::<QB, SB, S, LW, V>(t0, choices, new_v, None).map_err(|m| {
        let path = failure_vcd(
            &PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("pacer_wheel_three_way"),
            test,
        );
        let _ = run::<QB, SB, S, LW, V>(t0, choices, new_v, Some(&path));
        TestCaseError::fail(format!("{m}VCD of the Verilated run: {}", path.display()))
    })
}

/// Start times: small, and just before the 48-bit wrap.
fn start() -> impl Strategy<Value = u64> {
    prop_oneof![
        Just(0u64),
        (0u64..1000).prop_map(|d| (1u64 << 48) - 1 - d),
        0u64..(1u64 << 48),
    ]
}

/// Choices: pushes most cycles, near ones (a few slots ahead, so lists grow and the
/// cursor falls behind) or anywhere in the span; `now` mostly moving a cycle at a time,
/// sometimes standing (a coarse wheel's time) or jumping; rare resets.
fn choices() -> impl Strategy<Value = Vec<Choice>> {
    let push = prop_oneof![
        2 => Just(None),
        5 => (any::<u32>(), any::<u16>(), prop_oneof![1 => Just(true), 1 => Just(false)])
            .prop_map(|(p, f, n)| Some((p, f as u32, n))),
    ];
    let step = prop_oneof![
        12 => Just(1u64),
        4 => Just(0u64),
        1 => 2u64..6,
    ];
    let c = (push, step, prop_oneof![80 => Just(false), 1 => Just(true)]).prop_map(
        |(push, step, reset)| Choice {
            push,
            fixed: None,
            step,
            reset,
        },
    );
    proptest::collection::vec(c, 1..500)
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: cases_from_env_or(48),
        max_shrink_iters: 2000,
        ..ProptestConfig::default()
    })]
    #[test]
    fn pacer_wheel_three_way_q64(t0 in start(), cs in choices()) {
        check::<6, 6, 64, 7, _>("q64", t0, &cs, VPacerWheelQ6::new)?;
    }

    #[test]
    fn pacer_wheel_three_way_q1024(t0 in start(), cs in choices()) {
        check::<10, 8, 256, 11, _>("q1024", t0, &cs, VPacerWheel::new)?;
    }
}

/// All 1024 QPs pushed while `now` stands at 20, into the eight slots 200..=207, then
/// `now` one cycle at a time: the three engines agree every cycle, every QP leaves once,
/// none before the cycle after its time, and from the first release to the last one QP
/// leaves per cycle.
#[test]
fn pacer_wheel_all_qps_once_one_per_cycle() {
    let cs: Vec<Choice> = (0..1024u32)
        .map(|q| Choice {
            push: None,
            fixed: Some((q, 200 + (q as u64 * 5) % 8)),
            step: 0,
            reset: false,
        })
        .chain((0..2100).map(|_| Choice {
            push: None,
            fixed: None,
            step: 1,
            reset: false,
        }))
        .collect();
    let released = check::<10, 8, 256, 11, _>("all", 20, &cs, VPacerWheel::new).unwrap();
    let mut qps: Vec<u32> = released.iter().map(|r| r.0).collect();
    qps.sort();
    assert_eq!(qps, (0..1024).collect::<Vec<u32>>());
    let due = |q: u32| 200 + (q as u64 * 5) % 8;
    for r in &released {
        assert!(
            r.1 > due(r.0),
            "QP {} on m_qp at {} for due {}",
            r.0,
            r.1,
            due(r.0)
        );
    }
    assert_eq!(released[0].1, 201);
    for (i, r) in released.iter().enumerate() {
        assert_eq!(
            r.1,
            201 + i as u64,
            "release {i} (QP {}) is not one cycle after the last",
            r.0
        );
    }
}
