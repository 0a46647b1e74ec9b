//! Cycle-level harness of the core top: one set of pins, three implementations
//! ([`GoldenCoreCycle`], [`HdlCore`], and `VerilatedCore` in [`crate::verilated`]),
//! compared by [`crate::lockstep`].

use crate::core_top::BadQpCounts;
use crate::dcqcn_np::{COUNTER_MASK, CnpRequest, NpConfig};
use crate::dcqcn_rp::RpConfig;
use crate::dcqcn_rp::RpKind;
use crate::hdl_sim::{settle, tick};
use crate::lockstep::{CycleDut, Divergence, Named, bring_up};
use crate::np_harness::{GoldenNpCycle, NpCounts, NpPins, np_cfg_word};
use crate::rp_harness::{
    GoldenRpCycle, IncCounts, RateOut, RpPins, cfg_word, ctl_fields, table_writes, time_word,
};
use crate::timebase::{TimeStamp, Timebase};
use roce_cc_hdl::core_top::{CnpTimeWord, RoceCcCore};
use roce_cc_params::Params;
use rust_hdl::prelude::*;

/// The core's input pins for one cycle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CorePins {
    pub reset: bool,
    /// Command stream: `Some((qp, RpKind::Reset | RpKind::SetMode { .. }))`.
    pub ctl: Option<(u32, crate::dcqcn_rp::RpKind)>,
    /// CNP stream: `Some(qpn)` = valid.
    pub cnp: Option<u32>,
    /// Packet stream: `Some((qpn, bytes))`.
    pub tx: Option<(u32, u32)>,
    /// Query stream: `Some(qpn)`.
    pub query: Option<u32>,
    /// Received-packet stream: `Some((qpn, ecn))`.
    pub rx: Option<(u32, u8)>,
    /// Rate-report consumer ready.
    pub rate_ready: bool,
    /// CNP-request consumer ready.
    pub cnp_ready: bool,
    /// Now (one time base for both units).
    pub now: TimeStamp,
    /// RP power-table write `(addr, data)`.
    pub tbl: Option<(u32, u32)>,
}

/// The core's outputs in one cycle (before the clock edge).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CoreOuts {
    pub ctl_ready: bool,
    pub cnp_ready: bool,
    pub tx_ready: bool,
    pub query_ready: bool,
    pub rx_ready: bool,
    pub busy: bool,
    /// `m_rate_*` when valid.
    pub rate: Option<RateOut>,
    /// `m_cnp_*` when valid.
    pub cnp: Option<CnpRequest>,
    /// `cnt_bad_qp_*`.
    pub bad_qp: BadQpCounts,
    /// `cnt_cnp_*` (one cycle behind the NP's decisions and held cycles, see
    /// `roce_cc_hdl::dcqcn_np::NP_COUNT_LAG`; `GoldenNpCycle` models the lag).
    pub np: NpCounts,
    /// `cnt_cnp_received`.
    pub cnp_received: u64,
    /// `cnt_rate_cuts`.
    pub rate_cuts: u64,
    /// `cnt_increase_*` (they lag the other counters, see `rp_harness::INC_COUNT_LAG`).
    pub increase: IncCounts,
}

/// A command in the core's command slice (`roce_cc_hdl::ctl_slice`).
type Cmd = (u32, RpKind);

/// The command slice of `roce_cc_hdl::ctl_slice`, rule for rule: a head with the parts
/// still owed to the RP and to the NP, and a skid register.
#[derive(Clone, Copy, Debug, Default)]
struct CtlSliceModel {
    /// The head command, if any part of it is still owed.
    head: Option<Cmd>,
    /// The head's part for the RP is owed.
    rp_owed: bool,
    /// The head's part for the NP (a reset) is owed.
    np_owed: bool,
    /// The skid register.
    skid: Option<Cmd>,
}

impl CtlSliceModel {
    /// `s_ready`: the skid register is empty.
    fn ready(&self) -> bool {
        self.skid.is_none()
    }

    /// The edge: `offered` is the command on `s_*` (taken when `ready()`), `rp_took` and
    /// `np_took` whether each unit took the part offered to it.
    fn clock(&mut self, offered: Option<Cmd>, rp_took: bool, np_took: bool, reset: bool) {
        let taken = offered.filter(|_| self.ready());
        let rp_left = self.rp_owed && !rp_took;
        let np_left = self.np_owed && !np_took;
        if !rp_left && !np_left {
            let next = self.skid.take().or(taken);
            self.head = next;
            self.rp_owed = next.is_some();
            self.np_owed = matches!(next, Some((_, RpKind::Reset)));
        } else {
            self.rp_owed = rp_left;
            self.np_owed = np_left;
            if taken.is_some() {
                self.skid = taken;
            }
        }
        if reset {
            *self = Self::default();
        }
    }
}

/// The golden core with the hardware's timing: the golden RP and NP cycle models behind
/// the QP check and the command slice of `roce_cc_hdl::core_top`.
pub struct GoldenCoreCycle {
    rp: GoldenRpCycle,
    np: GoldenNpCycle,
    ctl: CtlSliceModel,
    /// Whether the RP and the NP took their parts of the head command this cycle.
    ctl_took: (bool, bool),
    qps: u32,
    bad_qp: BadQpCounts,
    /// Out-of-range events offered last cycle, per stream (cnp, tx, query, rx): the
    /// hardware counts each a cycle after the event.
    bad_last: [bool; 4],
    pins: CorePins,
}

impl GoldenCoreCycle {
    pub fn new(p: &Params) -> Self {
        Self {
            rp: GoldenRpCycle::new(p),
            np: GoldenNpCycle::new(p),
            ctl: CtlSliceModel::default(),
            ctl_took: (false, false),
            qps: p.qps,
            bad_qp: BadQpCounts::default(),
            bad_last: [false; 4],
            pins: CorePins::default(),
        }
    }

    /// The pins each unit sees: events for an out-of-range QP are taken away.
    fn unit_pins(&self, pins: &CorePins) -> (RpPins, NpPins) {
        let ok = |q: u32| q < self.qps;
        (
            RpPins {
                reset: pins.reset,
                ctl: None,
                cnp: pins.cnp.filter(|&q| ok(q)),
                tx: pins.tx.filter(|&(q, _)| ok(q)),
                query: pins.query.filter(|&q| ok(q)),
                m_ready: pins.rate_ready,
                now: pins.now,
                tbl: pins.tbl,
            },
            NpPins {
                reset: pins.reset,
                clr: None,
                rx: pins.rx.filter(|&(q, _)| ok(q)),
                cnp_ready: pins.cnp_ready,
                now: pins.now,
            },
        )
    }
}

impl CycleDut<CorePins, CoreOuts> for GoldenCoreCycle {
    fn eval(&mut self, pins: &CorePins) -> CoreOuts {
        self.pins = *pins;
        let (mut rp_pins, mut np_pins) = self.unit_pins(pins);
        // The command slice offers its head: to the RP while its part is owed, to the NP
        // (a reset) while the NP's is; each unit takes its part when it is ready.
        if self.ctl.rp_owed {
            rp_pins.ctl = self.ctl.head;
        }
        if self.ctl.np_owed {
            np_pins.clr = self.ctl.head.map(|(qp, _)| qp);
        }
        let r = self.rp.eval(&rp_pins);
        let n = self.np.eval(&np_pins);
        self.ctl_took = (
            self.ctl.rp_owed && r.ctl_ready,
            self.ctl.np_owed && n.clr_ready,
        );
        let bad = |q: Option<u32>| q.is_some_and(|q| q >= self.qps);
        CoreOuts {
            ctl_ready: self.ctl.ready(),
            cnp_ready: bad(pins.cnp) || r.cnp_ready,
            tx_ready: bad(pins.tx.map(|t| t.0)) || r.tx_ready,
            query_ready: bad(pins.query) || r.query_ready,
            rx_ready: bad(pins.rx.map(|t| t.0)) || n.rx_ready,
            busy: r.busy || n.busy,
            rate: r.report,
            cnp: n.cnp,
            bad_qp: self.bad_qp,
            np: n.counts,
            cnp_received: r.cnp_received,
            rate_cuts: r.rate_cuts,
            increase: r.increase,
        }
    }

    fn clock(&mut self) {
        let pins = self.pins;
        self.rp.clock();
        self.np.clock();
        self.ctl
            .clock(pins.ctl, self.ctl_took.0, self.ctl_took.1, pins.reset);
        if pins.reset {
            self.bad_qp = BadQpCounts::default();
            self.bad_last = [false; 4];
            return;
        }
        let b = &mut self.bad_qp;
        for (c, hit) in [&mut b.cnp, &mut b.tx, &mut b.query, &mut b.rx]
            .into_iter()
            .zip(self.bad_last)
        {
            if hit {
                *c = (*c + 1) & COUNTER_MASK;
            }
        }
        let bad = |q: Option<u32>| q.is_some_and(|q| q >= self.qps);
        self.bad_last = [
            bad(pins.cnp),
            bad(pins.tx.map(|t| t.0)),
            bad(pins.query),
            bad(pins.rx.map(|t| t.0)),
        ];
    }
}

/// The core's `now_cnp` word for `now`.
pub fn cnp_time_word(now: &TimeStamp) -> CnpTimeWord {
    CnpTimeWord {
        e: (now.cnp.epoch as u64).into(),
        r: (now.cnp.rem as u64).into(),
    }
}

/// rust-hdl's own simulation of the core top with `2^QB` QPs.
pub struct HdlCore<const QB: usize> {
    uut: Box<RoceCcCore<QB>>,
}

impl<const QB: usize> HdlCore<QB> {
    pub fn new(p: &Params) -> Self {
        assert_eq!(1u32 << QB, p.qps, "HdlCore<{QB}> built for {} QPs", p.qps);
        let mut uut = Box::new(RoceCcCore::<QB>::new());
        uut.connect_all();
        uut.rp_cfg.next = cfg_word(&RpConfig::new(p));
        uut.np_cfg.next = np_cfg_word(&NpConfig::new(p).expect("valid NP parameters"));
        settle(uut.as_mut());
        Self { uut }
    }
}

fn b(x: u32) -> u64 {
    x as u64
}

impl<const QB: usize> CycleDut<CorePins, CoreOuts> for HdlCore<QB> {
    fn eval(&mut self, pins: &CorePins) -> CoreOuts {
        let u = self.uut.as_mut();
        u.reset.next = pins.reset;
        let (op, mode, rate) = ctl_fields(pins.ctl);
        u.s_ctl_valid.next = pins.ctl.is_some();
        u.s_ctl_qp.next = b(pins.ctl.map_or(0, |c| c.0)).into();
        u.s_ctl_op.next = b(op).into();
        u.s_ctl_mode.next = b(mode).into();
        u.s_ctl_rate.next = b(rate).into();
        u.s_cnp_valid.next = pins.cnp.is_some();
        u.s_cnp_qpn.next = b(pins.cnp.unwrap_or(0)).into();
        u.s_tx_valid.next = pins.tx.is_some();
        u.s_tx_qpn.next = b(pins.tx.map_or(0, |t| t.0)).into();
        u.s_tx_bytes.next = b(pins.tx.map_or(0, |t| t.1)).into();
        u.s_query_valid.next = pins.query.is_some();
        u.s_query_qpn.next = b(pins.query.unwrap_or(0)).into();
        u.s_rx_valid.next = pins.rx.is_some();
        u.s_rx_qpn.next = b(pins.rx.map_or(0, |t| t.0)).into();
        u.s_rx_ecn.next = (pins.rx.map_or(0, |t| t.1) as u64).into();
        u.m_rate_ready.next = pins.rate_ready;
        u.m_cnp_ready.next = pins.cnp_ready;
        u.now.next = time_word(&pins.now);
        u.now_cnp.next = cnp_time_word(&pins.now);
        u.tbl_we.next = pins.tbl.is_some();
        u.tbl_addr.next = b(pins.tbl.map_or(0, |t| t.0)).into();
        u.tbl_data.next = b(pins.tbl.map_or(0, |t| t.1)).into();
        settle(u);
        CoreOuts {
            ctl_ready: u.s_ctl_ready.val(),
            cnp_ready: u.s_cnp_ready.val(),
            tx_ready: u.s_tx_ready.val(),
            query_ready: u.s_query_ready.val(),
            rx_ready: u.s_rx_ready.val(),
            busy: u.busy.val(),
            rate: u.m_rate_valid.val().then(|| RateOut {
                qp: u.m_rate_qp.val().to_u32(),
                query: u.m_rate_query.val(),
                ctl: u.m_rate_ctl.val(),
                mode: u.m_rate_mode.val().to_u32(),
                report: crate::replay::RpReport {
                    limited: u.m_rate_limited.val(),
                    rc_mbps_q8: u.m_rate_rc.val().to_u32(),
                    rt_mbps_q8: u.m_rate_rt.val().to_u32(),
                    alpha_q20: u.m_rate_alpha.val().to_u32(),
                },
            }),
            cnp: u.m_cnp_valid.val().then(|| CnpRequest {
                qp: u.m_cnp_qp.val().to_u32(),
                dscp: u.m_cnp_dscp.val().to_u32(),
                prio: u.m_cnp_prio.val().to_u32(),
            }),
            bad_qp: BadQpCounts {
                cnp: u.cnt_bad_qp_cnp.val().to_u64(),
                tx: u.cnt_bad_qp_tx.val().to_u64(),
                query: u.cnt_bad_qp_query.val().to_u64(),
                rx: u.cnt_bad_qp_rx.val().to_u64(),
            },
            np: NpCounts {
                sent: u.cnt_cnp_sent.val().to_u64(),
                suppressed: u.cnt_cnp_suppressed.val().to_u64(),
                stall: u.cnt_cnp_stall.val().to_u64(),
            },
            cnp_received: u.cnt_cnp_received.val().to_u64(),
            rate_cuts: u.cnt_rate_cuts.val().to_u64(),
            increase: IncCounts {
                fr: u.cnt_increase_fr.val().to_u64(),
                ai: u.cnt_increase_ai.val().to_u64(),
                hai: u.cnt_increase_hai.val().to_u64(),
            },
        }
    }

    fn clock(&mut self) {
        tick(self.uut.as_mut(), |u| &mut u.clock);
    }
}

/// Reset, load the RP's power table during the RAM sweep, wait for the sweep to end; every
/// implementation sees the same pins. Returns the number of set-up cycles.
pub fn core_bring_up(
    p: &Params,
    duts: &mut [Named<'_, CorePins, CoreOuts>],
) -> Result<u64, Divergence<CoreOuts>> {
    let now = Timebase::new(p).at_cycle(0);
    bring_up(
        duts,
        table_writes(&RpConfig::new(p)),
        |reset, tbl| CorePins {
            reset,
            rate_ready: true,
            cnp_ready: true,
            now,
            tbl,
            ..Default::default()
        },
        |o: &CoreOuts| o.busy,
    )
}
