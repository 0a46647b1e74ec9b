//! `PacedCore`: the core top with the pacer inside, the NIC's own loop closed
//! (`../shared/reference/pacing.md`, "Inputs and output"):
//!
//! ```text
//!            ┌──────────────────────────────── PacedCore ─────────────────────────────────┐
//!  s_ctl/cnp/query/rx ─────────────────► ┌──────────────┐ m_rate ──fork──────────────────►│ m_rate_*
//!  s_ack ─fork─────────────────────────► │ roce_cc_core │                │ rate, window   │
//!         │          s_tx ──merge──────► └──────────────┘                ▼                │
//!         │                  ▲ grants (gq, 16)            ┌─────────────────────┐         │
//!         └── seq (good ACKs) ┼──────────────────────────►│ pacer               │         │
//!  s_post ── QP check ───────┼──────────────────────────►│ (doorbell: backlog) │         │
//!                            └─────────────────── grant ──┤                     ├─ m_tx_* ►│ port
//!            └────────────────────────────────────────────┴─────────────────────┴─────────┘
//! ```
//!
//! - **Rates.** Every report on the core's `m_rate_*` goes both out (`m_rate_*`, as
//!   before) and to the pacer: `rc` is the QP's rate whatever its mode (DCQCN's Rc while
//!   limited, else the max rate; the host's rate; the max rate when off; HPCC's R), and an
//!   HPCC report (`mode` 3) carries the window. The report leaves the core when both have
//!   taken it; one that took it first is not offered it again (`rf_ext`, `rf_pac`).
//! - **ACKs.** An ACK goes to the core (the window unit, through its mode filter) and, when
//!   the core would not reject it (QP in range, 1..=5 hops), its `seq` to the pacer, which
//!   keeps the QP's highest acknowledged byte (only a QP with a window reads it). The ACK
//!   is taken when both have it (`af_core`, `af_pac`).
//! - **Grants.** A grant leaves on `m_tx_*` when the port is ready and the grant queue
//!   `gq` (16 entries, LUT RAM) has room; the same cycle it enters `gq`, whose head is the
//!   RP's transmitted-packet event. The RP's `s_tx` takes `gq`'s head and the external
//!   `s_tx_*` stream in turn when both wait (`tx_turn`). `m_tx_valid` never falls before it
//!   is taken: `gq` only gains room while a grant waits.
//! - **Doorbells.** `s_post_*` carries a 24-bit QP number; one at or above `2^QB` is taken
//!   and counted in `cnt_bad_qp_post` (a cycle later), never applied.
//! - **Counters** (48 bits, cleared by reset, each a cycle after its event): grants taken,
//!   their bytes, and cycles the port was ready with no grant offered (`m_tx_ready` high,
//!   `m_tx_valid` low, not `busy`).
//!
//! The pacer runs on `now_cycles`, the clock cycle count (one more each cycle; the core's
//! `now` words are the same instant in the RP's and NP's radices). `pacer_mtu`,
//! `pacer_km` and `pacer_ke` are its static parameters (`mtu_bytes` and the clock
//! constants of `pacer::cpb`). The golden model is `roce_cc_sim::paced_harness`
//! (`GoldenPacedCycle`), rule for rule; `docs/core_top.md` ("The pacer inside the core").

use crate::core_top::{CnpTimeWord, MODE_HPCC, QPN_W, RoceCcCore};
use crate::dcqcn_np::{COUNTER_W, DSCP_W, ECN_W, NpCfgWord, PRIO_W};
use crate::dcqcn_rp::state::{RpCfgWord, TimeWord};
use crate::dcqcn_rp::widths::{
    ALPHA_W, BYTES_W as TX_BYTES_W, CTL_OP_W, MODE_W, POW_W, RATE_W, TBL_ADDR_W,
};
use crate::hpcc_window::hop_load::{CodeConsts, U_W};
use crate::hpcc_window::window::{HOPS, HpccCfgWord, IntHop, WIN_W};
use crate::lut_ram::LutRam;
use crate::pacer::cpb::{CPB_M_W, KE_W};
use crate::pacer::pace_step::{BYTES_W as PKT_W, NOW_W};
use crate::pacer::sched::{Pacer, SEQ_W};
use crate::zero_ext::ZeroExt;
use rust_hdl::prelude::*;

/// Entries of the grant queue in front of the RP's transmitted-packet input.
pub const GRANT_QUEUE: usize = 16;

/// The core and the pacer for `2^QB = N` QPs (the pacer's size parameters: `WB = QB - 5`,
/// `NW = 2^WB`, `LW = QB + 1`, `FW = QB + 14`; [`PacedCore1024`], [`PacedCore64`]).
#[derive(LogicBlock)]
pub struct PacedCore<
    const QB: usize,
    const WB: usize,
    const NW: usize,
    const LW: usize,
    const FW: usize,
    const N: usize,
> {
    /// Clock; everything is synchronous to its rising edge.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset, active high: the core and the pacer sweep their memories
    /// (`busy`), the counters clear.
    pub reset: Signal<In, Bit>,
    /// Register-block command for QP `s_ctl_qp` (as `RoceCcCore`).
    pub s_ctl_valid: Signal<In, Bit>,
    /// The command slice takes the command (a register).
    pub s_ctl_ready: Signal<Out, Bit>,
    /// QP of the command.
    pub s_ctl_qp: Signal<In, Bits<QB>>,
    /// 0: reset the QP; 1: reset its sender state and set its mode; 2: query it.
    pub s_ctl_op: Signal<In, Bits<CTL_OP_W>>,
    /// Mode for op 1 (0 DCQCN, 1 host rate, 2 off, 3 HPCC).
    pub s_ctl_mode: Signal<In, Bits<MODE_W>>,
    /// Host rate for mode 1, Mb/s Q.8.
    pub s_ctl_rate: Signal<In, Bits<RATE_W>>,
    /// A CNP was received for QP `s_cnp_qpn` (RP).
    pub s_cnp_valid: Signal<In, Bit>,
    /// Taken this cycle (always, for an out-of-range QP).
    pub s_cnp_ready: Signal<Out, Bit>,
    /// QP number of the CNP.
    pub s_cnp_qpn: Signal<In, Bits<QPN_W>>,
    /// Report the RP state of QP `s_query_qpn`.
    pub s_query_valid: Signal<In, Bit>,
    /// Taken this cycle (always, for an out-of-range QP).
    pub s_query_ready: Signal<Out, Bit>,
    /// QP number to report.
    pub s_query_qpn: Signal<In, Bits<QPN_W>>,
    /// A data packet was received for QP `s_rx_qpn` (NP).
    pub s_rx_valid: Signal<In, Bit>,
    /// Taken this cycle (always, for an out-of-range QP).
    pub s_rx_ready: Signal<Out, Bit>,
    /// QP number of the packet.
    pub s_rx_qpn: Signal<In, Bits<QPN_W>>,
    /// ECN field of the packet (`0b11` = CE).
    pub s_rx_ecn: Signal<In, Bits<ECN_W>>,
    /// A CNP should be sent.
    pub m_cnp_valid: Signal<Out, Bit>,
    /// The CNP generator takes it.
    pub m_cnp_ready: Signal<In, Bit>,
    /// QP the CNP is for.
    pub m_cnp_qp: Signal<Out, Bits<QB>>,
    /// DSCP of the CNP.
    pub m_cnp_dscp: Signal<Out, Bits<DSCP_W>>,
    /// 802.1p priority of the CNP.
    pub m_cnp_prio: Signal<Out, Bits<PRIO_W>>,
    /// Now for the RP (`TimeWord`).
    pub now: Signal<In, TimeWord>,
    /// Now in the NP's radix.
    pub now_cnp: Signal<In, CnpTimeWord>,
    /// RP parameters in hardware form.
    pub rp_cfg: Signal<In, RpCfgWord>,
    /// NP parameters in hardware form.
    pub np_cfg: Signal<In, NpCfgWord>,
    /// RP power-table write enable.
    pub tbl_we: Signal<In, Bit>,
    /// RP power-table address.
    pub tbl_addr: Signal<In, Bits<TBL_ADDR_W>>,
    /// RP power-table entry, Q.24.
    pub tbl_data: Signal<In, Bits<POW_W>>,
    /// HPCC parameters in hardware form.
    pub hpcc_cfg: Signal<In, HpccCfgWord>,
    /// HPCC per-rate-code constants.
    pub hpcc_k: Signal<In, CodeConsts>,
    /// CNP events rejected for an out-of-range QP.
    pub cnt_bad_qp_cnp: Signal<Out, Bits<COUNTER_W>>,
    /// `s_tx_*` events rejected for an out-of-range QP (grants are never out of range).
    pub cnt_bad_qp_tx: Signal<Out, Bits<COUNTER_W>>,
    /// Queries rejected for an out-of-range QP.
    pub cnt_bad_qp_query: Signal<Out, Bits<COUNTER_W>>,
    /// Received packets rejected for an out-of-range QP.
    pub cnt_bad_qp_rx: Signal<Out, Bits<COUNTER_W>>,
    /// CNPs the RP applied.
    pub cnt_cnp_received: Signal<Out, Bits<COUNTER_W>>,
    /// Rate cuts the RP applied.
    pub cnt_rate_cuts: Signal<Out, Bits<COUNTER_W>>,
    /// RP increase events in fast recovery.
    pub cnt_increase_fr: Signal<Out, Bits<COUNTER_W>>,
    /// RP increase events in additive increase.
    pub cnt_increase_ai: Signal<Out, Bits<COUNTER_W>>,
    /// RP increase events in hyper increase.
    pub cnt_increase_hai: Signal<Out, Bits<COUNTER_W>>,
    /// CE marks that produced a CNP request.
    pub cnt_cnp_sent: Signal<Out, Bits<COUNTER_W>>,
    /// CE marks suppressed by the CNP limiter.
    pub cnt_cnp_suppressed: Signal<Out, Bits<COUNTER_W>>,
    /// Cycles a CNP request waited for `m_cnp_ready`.
    pub cnt_cnp_stall: Signal<Out, Bits<COUNTER_W>>,
    /// ACKs rejected (QP out of range, hop count outside 1..=5).
    pub cnt_bad_ack: Signal<Out, Bits<COUNTER_W>>,
    /// ACKs the window unit dropped (QP not in HPCC mode).
    pub cnt_ack_ignored: Signal<Out, Bits<COUNTER_W>>,
    /// ACKs the window unit applied.
    pub cnt_ack_applied: Signal<Out, Bits<32>>,
    /// Applied ACKs that committed.
    pub cnt_ack_commits: Signal<Out, Bits<32>>,
    /// QP reported.
    pub m_rate_qp: Signal<Out, Bits<QB>>,
    /// The report answers a query.
    pub m_rate_query: Signal<Out, Bit>,
    /// A DCQCN rate limiter is allocated to the QP.
    pub m_rate_limited: Signal<Out, Bit>,
    /// The QP's sending rate, Mb/s Q.8 (what the pacer paces it at).
    pub m_rate_rc: Signal<Out, Bits<RATE_W>>,
    /// DCQCN's Rt or HPCC's Rc, Mb/s Q.8.
    pub m_rate_rt: Signal<Out, Bits<RATE_W>>,
    /// alpha, Q.20.
    pub m_rate_alpha: Signal<Out, Bits<ALPHA_W>>,
    /// The QP's mode after the event.
    pub m_rate_mode: Signal<Out, Bits<MODE_W>>,
    /// The report follows a register-block command.
    pub m_rate_ctl: Signal<Out, Bit>,
    /// HPCC's U, Q.24 (0 for other modes).
    pub m_rate_u: Signal<Out, Bits<U_W>>,
    /// HPCC's window, bytes (0 for other modes).
    pub m_rate_window: Signal<Out, Bits<WIN_W>>,
    /// QP `s_tx_qpn` transmitted a packet that the pacer did not grant (the RP's byte
    /// counter); taken in turn with the grants.
    pub s_tx_valid: Signal<In, Bit>,
    /// Taken this cycle (always, for an out-of-range QP, when it has the turn).
    pub s_tx_ready: Signal<Out, Bit>,
    /// QP number that transmitted.
    pub s_tx_qpn: Signal<In, Bits<QPN_W>>,
    /// Packet length, bytes.
    pub s_tx_bytes: Signal<In, Bits<TX_BYTES_W>>,
    /// An ACK with its INT stack for QP `s_ack_qpn` (the window unit; its `seq` to the
    /// pacer).
    pub s_ack_valid: Signal<In, Bit>,
    /// Taken this cycle: the core and (for an ACK the core does not reject) the pacer
    /// have it.
    pub s_ack_ready: Signal<Out, Bit>,
    /// QP number of the ACK.
    pub s_ack_qpn: Signal<In, Bits<QPN_W>>,
    /// The acknowledged sequence number, bytes.
    pub s_ack_seq: Signal<In, Bits<32>>,
    /// The sender's next sequence number, bytes.
    pub s_ack_snd_nxt: Signal<In, Bits<32>>,
    /// Hops in the INT stack, 1..=5.
    pub s_ack_nhop: Signal<In, Bits<3>>,
    /// The INT stack in wire units.
    pub s_ack_hop: [Signal<In, IntHop>; HOPS],
    /// A rate report is offered (held until taken; the pacer has its copy).
    pub m_rate_valid: Signal<Out, Bit>,
    /// The consumer takes the report.
    pub m_rate_ready: Signal<In, Bit>,
    /// Doorbell: `s_post_bytes` more bytes for QP `s_post_qpn`.
    pub s_post_valid: Signal<In, Bit>,
    /// Taken this cycle (the pacer is not sweeping, or the QP is out of range).
    pub s_post_ready: Signal<Out, Bit>,
    /// QP number of the doorbell.
    pub s_post_qpn: Signal<In, Bits<QPN_W>>,
    /// Bytes posted (a QP holds at most 2^32 - 1 bytes posted and not granted).
    pub s_post_bytes: Signal<In, Bits<SEQ_W>>,
    /// Grant: QP `m_tx_qp` sends a packet of `m_tx_bytes` bytes now; held until ready.
    pub m_tx_valid: Signal<Out, Bit>,
    /// The port takes the grant (it is free to start a packet).
    pub m_tx_ready: Signal<In, Bit>,
    /// The granted QP.
    pub m_tx_qp: Signal<Out, Bits<QB>>,
    /// The packet's bytes: `min(pacer_mtu, the QP's backlog)`.
    pub m_tx_bytes: Signal<Out, Bits<PKT_W>>,
    /// The cycle count, whole cycles mod 2^48, one more each cycle (the pacer's time).
    pub now_cycles: Signal<In, Bits<NOW_W>>,
    /// Largest packet, bytes (64..=9216); static.
    pub pacer_mtu: Signal<In, Bits<PKT_W>>,
    /// The pacer's clock constant `km` (`pacer::cpb::clock_consts`); static.
    pub pacer_km: Signal<In, Bits<CPB_M_W>>,
    /// The pacer's clock constant `ke`; static.
    pub pacer_ke: Signal<In, Bits<KE_W>>,
    /// A reset sweep of the core or the pacer is running.
    pub busy: Signal<Out, Bit>,
    /// QPs with bytes posted and not granted (the pacer's `backlogged`; with 0 the pacer
    /// holds no QP in its wheels or eligible set).
    pub backlogged: Signal<Out, Bits<LW>>,
    /// The pacer's `asleep`: it does nothing before `wake_at` (ever, without `wake_en`)
    /// but for inputs (`docs/pacer.md`).
    pub asleep: Signal<Out, Bit>,
    /// The pacer's `wake_en`: its coarse wheel holds a QP.
    pub wake_en: Signal<Out, Bit>,
    /// The pacer's `wake_at`: the coarse wheel's first slot, in cycles of `now_cycles`.
    pub wake_at: Signal<Out, Bits<NOW_W>>,
    /// Doorbells rejected for an out-of-range QP.
    pub cnt_bad_qp_post: Signal<Out, Bits<COUNTER_W>>,
    /// Grants the port took.
    pub cnt_grants: Signal<Out, Bits<COUNTER_W>>,
    /// Bytes of the grants the port took.
    pub cnt_grant_bytes: Signal<Out, Bits<COUNTER_W>>,
    /// Cycles the port was ready and no grant was offered (not counted while `busy`).
    pub cnt_port_idle: Signal<Out, Bits<COUNTER_W>>,

    core: RoceCcCore<QB>,
    pacer: Pacer<QB, WB, NW, LW, FW, N>,
    /// Grant queue: `{bytes, qp}` of the grants taken, for the RP's `s_tx`.
    gq: LutRam<FW, 4>,
    gq_wr: DFF<Bits<4>>,
    gq_rd: DFF<Bits<4>>,
    gq_cnt: DFF<Bits<5>>,
    gq_room: Signal<Local, Bit>,
    gq_push: Signal<Local, Bit>,
    gq_pop: Signal<Local, Bit>,
    gq_head: Signal<Local, Bits<FW>>,
    gq_word: Signal<Local, Bits<FW>>,
    gq_r1_unused: Signal<Local, Bits<FW>>,
    gq_bytes: Signal<Local, Bits<PKT_W>>,
    gq_qp_x: ZeroExt<QB, QPN_W>,
    gq_b_x: ZeroExt<PKT_W, TX_BYTES_W>,
    g_q_x: ZeroExt<QB, FW>,
    g_b_x: ZeroExt<PKT_W, FW>,
    c_shift: Constant<Bits<FW>>,
    /// The RP's `s_tx` takes the grant queue's head (else the external stream).
    sel_g: Signal<Local, Bit>,
    /// The grant queue goes first when both wait.
    tx_turn: DFF<Bit>,
    /// The current report was taken by the consumer / by the pacer.
    rf_ext: DFF<Bit>,
    rf_pac: DFF<Bit>,
    rf_ext_ok: Signal<Local, Bit>,
    rf_pac_ok: Signal<Local, Bit>,
    /// The current ACK was taken by the core / by the pacer.
    af_core: DFF<Bit>,
    af_pac: DFF<Bit>,
    af_core_ok: Signal<Local, Bit>,
    af_pac_ok: Signal<Local, Bit>,
    /// The core would not reject the ACK (QP in range, 1..=5 hops).
    ack_ok: Signal<Local, Bit>,
    nhop_max: Constant<Bits<3>>,
    mode_hpcc: Constant<Bits<MODE_W>>,
    post_bad: Signal<Local, Bit>,
    qpn_hi_mask: Constant<Bits<QPN_W>>,
    g_take: Signal<Local, Bit>,
    any_busy: Signal<Local, Bit>,
    hit_post: DFF<Bit>,
    hit_grant: DFF<Bit>,
    hit_bytes: DFF<Bits<PKT_W>>,
    hit_idle: DFF<Bit>,
    bad_post: DFF<Bits<COUNTER_W>>,
    grants: DFF<Bits<COUNTER_W>>,
    grant_bytes: DFF<Bits<COUNTER_W>>,
    port_idle: DFF<Bits<COUNTER_W>>,
    bytes_x: ZeroExt<PKT_W, COUNTER_W>,
    one_count: Constant<Bits<COUNTER_W>>,
    one4: Constant<Bits<4>>,
    one5: Constant<Bits<5>>,
}

impl<
    const QB: usize,
    const WB: usize,
    const NW: usize,
    const LW: usize,
    const FW: usize,
    const N: usize,
> Default for PacedCore<QB, WB, NW, LW, FW, N>
{
    fn default() -> Self {
        assert!(
            FW == QB + PKT_W && (6..=14).contains(&QB),
            "PacedCore<{QB}, {WB}, {NW}, {LW}, {FW}, {N}>: the pacer's sizes (QB in 6..=14)"
        );
        Self {
            clock: Default::default(),
            reset: Default::default(),
            s_ctl_valid: Default::default(),
            s_ctl_ready: Default::default(),
            s_ctl_qp: Default::default(),
            s_ctl_op: Default::default(),
            s_ctl_mode: Default::default(),
            s_ctl_rate: Default::default(),
            s_cnp_valid: Default::default(),
            s_cnp_ready: Default::default(),
            s_cnp_qpn: Default::default(),
            s_query_valid: Default::default(),
            s_query_ready: Default::default(),
            s_query_qpn: Default::default(),
            s_rx_valid: Default::default(),
            s_rx_ready: Default::default(),
            s_rx_qpn: Default::default(),
            s_rx_ecn: Default::default(),
            m_cnp_valid: Default::default(),
            m_cnp_ready: Default::default(),
            m_cnp_qp: Default::default(),
            m_cnp_dscp: Default::default(),
            m_cnp_prio: Default::default(),
            now: Default::default(),
            now_cnp: Default::default(),
            rp_cfg: Default::default(),
            np_cfg: Default::default(),
            tbl_we: Default::default(),
            tbl_addr: Default::default(),
            tbl_data: Default::default(),
            hpcc_cfg: Default::default(),
            hpcc_k: Default::default(),
            cnt_bad_qp_cnp: Default::default(),
            cnt_bad_qp_tx: Default::default(),
            cnt_bad_qp_query: Default::default(),
            cnt_bad_qp_rx: Default::default(),
            cnt_cnp_received: Default::default(),
            cnt_rate_cuts: Default::default(),
            cnt_increase_fr: Default::default(),
            cnt_increase_ai: Default::default(),
            cnt_increase_hai: Default::default(),
            cnt_cnp_sent: Default::default(),
            cnt_cnp_suppressed: Default::default(),
            cnt_cnp_stall: Default::default(),
            cnt_bad_ack: Default::default(),
            cnt_ack_ignored: Default::default(),
            cnt_ack_applied: Default::default(),
            cnt_ack_commits: Default::default(),
            m_rate_qp: Default::default(),
            m_rate_query: Default::default(),
            m_rate_limited: Default::default(),
            m_rate_rc: Default::default(),
            m_rate_rt: Default::default(),
            m_rate_alpha: Default::default(),
            m_rate_mode: Default::default(),
            m_rate_ctl: Default::default(),
            m_rate_u: Default::default(),
            m_rate_window: Default::default(),
            s_tx_valid: Default::default(),
            s_tx_ready: Default::default(),
            s_tx_qpn: Default::default(),
            s_tx_bytes: Default::default(),
            s_ack_valid: Default::default(),
            s_ack_ready: Default::default(),
            s_ack_qpn: Default::default(),
            s_ack_seq: Default::default(),
            s_ack_snd_nxt: Default::default(),
            s_ack_nhop: Default::default(),
            s_ack_hop: Default::default(),
            m_rate_valid: Default::default(),
            m_rate_ready: Default::default(),
            s_post_valid: Default::default(),
            s_post_ready: Default::default(),
            s_post_qpn: Default::default(),
            s_post_bytes: Default::default(),
            m_tx_valid: Default::default(),
            m_tx_ready: Default::default(),
            m_tx_qp: Default::default(),
            m_tx_bytes: Default::default(),
            now_cycles: Default::default(),
            pacer_mtu: Default::default(),
            pacer_km: Default::default(),
            pacer_ke: Default::default(),
            busy: Default::default(),
            backlogged: Default::default(),
            asleep: Default::default(),
            wake_en: Default::default(),
            wake_at: Default::default(),
            cnt_bad_qp_post: Default::default(),
            cnt_grants: Default::default(),
            cnt_grant_bytes: Default::default(),
            cnt_port_idle: Default::default(),
            core: RoceCcCore::new(),
            pacer: Default::default(),
            gq: Default::default(),
            gq_wr: Default::default(),
            gq_rd: Default::default(),
            gq_cnt: Default::default(),
            gq_room: Default::default(),
            gq_push: Default::default(),
            gq_pop: Default::default(),
            gq_head: Default::default(),
            gq_word: Default::default(),
            gq_r1_unused: Default::default(),
            gq_bytes: Default::default(),
            gq_qp_x: Default::default(),
            gq_b_x: Default::default(),
            g_q_x: Default::default(),
            g_b_x: Default::default(),
            c_shift: Constant::new((QB as u64).into()),
            sel_g: Default::default(),
            tx_turn: Default::default(),
            rf_ext: Default::default(),
            rf_pac: Default::default(),
            rf_ext_ok: Default::default(),
            rf_pac_ok: Default::default(),
            af_core: Default::default(),
            af_pac: Default::default(),
            af_core_ok: Default::default(),
            af_pac_ok: Default::default(),
            ack_ok: Default::default(),
            nhop_max: Constant::new((HOPS as u64).into()),
            mode_hpcc: Constant::new(MODE_HPCC.into()),
            post_bad: Default::default(),
            qpn_hi_mask: Constant::new((((1u64 << QPN_W) - 1) & !((1u64 << QB) - 1)).into()),
            g_take: Default::default(),
            any_busy: Default::default(),
            hit_post: Default::default(),
            hit_grant: Default::default(),
            hit_bytes: Default::default(),
            hit_idle: Default::default(),
            bad_post: Default::default(),
            grants: Default::default(),
            grant_bytes: Default::default(),
            port_idle: Default::default(),
            bytes_x: Default::default(),
            one_count: Constant::new(1.into()),
            one4: Constant::new(1.into()),
            one5: Constant::new(1.into()),
        }
    }
}

impl<
    const QB: usize,
    const WB: usize,
    const NW: usize,
    const LW: usize,
    const FW: usize,
    const N: usize,
> Logic for PacedCore<QB, WB, NW, LW, FW, N>
{
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            gq_wr,
            gq_rd,
            gq_cnt,
            tx_turn,
            rf_ext,
            rf_pac,
            af_core,
            af_pac,
            hit_post,
            hit_grant,
            hit_bytes,
            hit_idle,
            bad_post,
            grants,
            grant_bytes,
            port_idle
        );
        clock!(self, clock, core, pacer, gq);
        self.core.reset.next = self.reset.val();
        self.pacer.reset.next = self.reset.val();

        // ---- the core's ports that pass through ----
        self.core.s_ctl_valid.next = self.s_ctl_valid.val();
        self.s_ctl_ready.next = self.core.s_ctl_ready.val();
        self.core.s_ctl_qp.next = self.s_ctl_qp.val();
        self.core.s_ctl_op.next = self.s_ctl_op.val();
        self.core.s_ctl_mode.next = self.s_ctl_mode.val();
        self.core.s_ctl_rate.next = self.s_ctl_rate.val();
        self.core.s_cnp_valid.next = self.s_cnp_valid.val();
        self.s_cnp_ready.next = self.core.s_cnp_ready.val();
        self.core.s_cnp_qpn.next = self.s_cnp_qpn.val();
        self.core.s_query_valid.next = self.s_query_valid.val();
        self.s_query_ready.next = self.core.s_query_ready.val();
        self.core.s_query_qpn.next = self.s_query_qpn.val();
        self.core.s_rx_valid.next = self.s_rx_valid.val();
        self.s_rx_ready.next = self.core.s_rx_ready.val();
        self.core.s_rx_qpn.next = self.s_rx_qpn.val();
        self.core.s_rx_ecn.next = self.s_rx_ecn.val();
        self.m_cnp_valid.next = self.core.m_cnp_valid.val();
        self.core.m_cnp_ready.next = self.m_cnp_ready.val();
        self.m_cnp_qp.next = self.core.m_cnp_qp.val();
        self.m_cnp_dscp.next = self.core.m_cnp_dscp.val();
        self.m_cnp_prio.next = self.core.m_cnp_prio.val();
        self.core.now.next = self.now.val();
        self.core.now_cnp.next = self.now_cnp.val();
        self.core.rp_cfg.next = self.rp_cfg.val();
        self.core.np_cfg.next = self.np_cfg.val();
        self.core.tbl_we.next = self.tbl_we.val();
        self.core.tbl_addr.next = self.tbl_addr.val();
        self.core.tbl_data.next = self.tbl_data.val();
        self.core.hpcc_cfg.next = self.hpcc_cfg.val();
        self.core.hpcc_k.next = self.hpcc_k.val();
        self.cnt_bad_qp_cnp.next = self.core.cnt_bad_qp_cnp.val();
        self.cnt_bad_qp_tx.next = self.core.cnt_bad_qp_tx.val();
        self.cnt_bad_qp_query.next = self.core.cnt_bad_qp_query.val();
        self.cnt_bad_qp_rx.next = self.core.cnt_bad_qp_rx.val();
        self.cnt_cnp_received.next = self.core.cnt_cnp_received.val();
        self.cnt_rate_cuts.next = self.core.cnt_rate_cuts.val();
        self.cnt_increase_fr.next = self.core.cnt_increase_fr.val();
        self.cnt_increase_ai.next = self.core.cnt_increase_ai.val();
        self.cnt_increase_hai.next = self.core.cnt_increase_hai.val();
        self.cnt_cnp_sent.next = self.core.cnt_cnp_sent.val();
        self.cnt_cnp_suppressed.next = self.core.cnt_cnp_suppressed.val();
        self.cnt_cnp_stall.next = self.core.cnt_cnp_stall.val();
        self.cnt_bad_ack.next = self.core.cnt_bad_ack.val();
        self.cnt_ack_ignored.next = self.core.cnt_ack_ignored.val();
        self.cnt_ack_applied.next = self.core.cnt_ack_applied.val();
        self.cnt_ack_commits.next = self.core.cnt_ack_commits.val();
        self.m_rate_qp.next = self.core.m_rate_qp.val();
        self.m_rate_query.next = self.core.m_rate_query.val();
        self.m_rate_limited.next = self.core.m_rate_limited.val();
        self.m_rate_rc.next = self.core.m_rate_rc.val();
        self.m_rate_rt.next = self.core.m_rate_rt.val();
        self.m_rate_alpha.next = self.core.m_rate_alpha.val();
        self.m_rate_mode.next = self.core.m_rate_mode.val();
        self.m_rate_ctl.next = self.core.m_rate_ctl.val();
        self.m_rate_u.next = self.core.m_rate_u.val();
        self.m_rate_window.next = self.core.m_rate_window.val();

        // ---- the pacer's time and parameters ----
        self.pacer.now.next = self.now_cycles.val();
        self.pacer.mtu_bytes.next = self.pacer_mtu.val();
        self.pacer.km.next = self.pacer_km.val();
        self.pacer.ke.next = self.pacer_ke.val();

        // ---- doorbells: QP check, then the pacer ----
        self.post_bad.next = (self.s_post_qpn.val() & self.qpn_hi_mask.val()).any();
        self.pacer.s_post_valid.next = self.s_post_valid.val() & !self.post_bad.val();
        self.pacer.s_post_qp.next = self.s_post_qpn.val().get_bits::<QB>(0);
        self.pacer.s_post_bytes.next = self.s_post_bytes.val();
        self.s_post_ready.next = self.post_bad.val() | self.pacer.s_post_ready.val();

        // ---- rate reports: to the consumer and to the pacer ----
        self.m_rate_valid.next = self.core.m_rate_valid.val() & !self.rf_ext.q.val();
        self.pacer.s_rate_valid.next = self.core.m_rate_valid.val() & !self.rf_pac.q.val();
        self.pacer.s_rate_qp.next = self.core.m_rate_qp.val();
        self.pacer.s_rate_rate.next = self.core.m_rate_rc.val();
        self.pacer.s_rate_win_en.next = self.core.m_rate_mode.val() == self.mode_hpcc.val();
        self.pacer.s_rate_window.next = self.core.m_rate_window.val();
        self.rf_ext_ok.next = self.m_rate_ready.val() | self.rf_ext.q.val();
        self.rf_pac_ok.next = self.pacer.s_rate_ready.val() | self.rf_pac.q.val();
        self.core.m_rate_ready.next = self.rf_ext_ok.val() & self.rf_pac_ok.val();
        if self.core.m_rate_valid.val() {
            if self.rf_ext_ok.val() & self.rf_pac_ok.val() {
                self.rf_ext.d.next = false;
                self.rf_pac.d.next = false;
            } else {
                self.rf_ext.d.next = self.rf_ext_ok.val();
                self.rf_pac.d.next = self.rf_pac_ok.val();
            }
        }

        // ---- ACKs: to the core and (those it does not reject) to the pacer ----
        self.ack_ok.next = !(self.s_ack_qpn.val() & self.qpn_hi_mask.val()).any()
            & self.s_ack_nhop.val().any()
            & (self.s_ack_nhop.val() <= self.nhop_max.val());
        self.core.s_ack_valid.next = self.s_ack_valid.val() & !self.af_core.q.val();
        self.core.s_ack_qpn.next = self.s_ack_qpn.val();
        self.core.s_ack_seq.next = self.s_ack_seq.val();
        self.core.s_ack_snd_nxt.next = self.s_ack_snd_nxt.val();
        self.core.s_ack_nhop.next = self.s_ack_nhop.val();
        self.core.s_ack_hop[0].next = self.s_ack_hop[0].val();
        self.core.s_ack_hop[1].next = self.s_ack_hop[1].val();
        self.core.s_ack_hop[2].next = self.s_ack_hop[2].val();
        self.core.s_ack_hop[3].next = self.s_ack_hop[3].val();
        self.core.s_ack_hop[4].next = self.s_ack_hop[4].val();
        self.pacer.s_ack_valid.next =
            self.s_ack_valid.val() & self.ack_ok.val() & !self.af_pac.q.val();
        self.pacer.s_ack_qp.next = self.s_ack_qpn.val().get_bits::<QB>(0);
        self.pacer.s_ack_seq.next = self.s_ack_seq.val();
        self.af_core_ok.next = self.core.s_ack_ready.val() | self.af_core.q.val();
        self.af_pac_ok.next =
            self.pacer.s_ack_ready.val() | self.af_pac.q.val() | !self.ack_ok.val();
        self.s_ack_ready.next = self.af_core_ok.val() & self.af_pac_ok.val();
        if self.s_ack_valid.val() {
            if self.af_core_ok.val() & self.af_pac_ok.val() {
                self.af_core.d.next = false;
                self.af_pac.d.next = false;
            } else {
                self.af_core.d.next = self.af_core_ok.val();
                self.af_pac.d.next = self.af_pac_ok.val();
            }
        }

        // ---- grants: to the port, and into the grant queue ----
        self.gq_room.next = !self.gq_cnt.q.val().get_bit(4);
        self.m_tx_valid.next = self.pacer.m_grant_valid.val() & self.gq_room.val();
        self.pacer.m_grant_ready.next = self.m_tx_ready.val() & self.gq_room.val();
        self.m_tx_qp.next = self.pacer.m_grant_qp.val();
        self.m_tx_bytes.next = self.pacer.m_grant_bytes.val();
        self.g_take.next =
            self.pacer.m_grant_valid.val() & self.m_tx_ready.val() & self.gq_room.val();
        self.gq_push.next = self.g_take.val();
        self.g_q_x.i.next = self.pacer.m_grant_qp.val();
        self.g_b_x.i.next = self.pacer.m_grant_bytes.val();
        self.gq_word.next = self.g_q_x.o.val() | (self.g_b_x.o.val() << self.c_shift.val());
        self.gq.we.next = self.gq_push.val();
        self.gq.waddr.next = self.gq_wr.q.val();
        self.gq.wdata.next = self.gq_word.val();
        self.gq.raddr0.next = self.gq_rd.q.val();
        self.gq.raddr1.next = self.gq_rd.q.val();
        self.gq_head.next = self.gq.rdata0.val();
        self.gq_r1_unused.next = self.gq.rdata1.val();
        for j in QB..(QB + 1) {
            self.gq_bytes.next = self.gq_head.val().get_bits::<PKT_W>(j);
        }
        self.gq_qp_x.i.next = self.gq_head.val().get_bits::<QB>(0);
        self.gq_b_x.i.next = self.gq_bytes.val();

        // ---- the RP's transmitted packets: the grant queue and `s_tx_*` in turn ----
        self.sel_g.next =
            self.gq_cnt.q.val().any() & (!self.s_tx_valid.val() | self.tx_turn.q.val());
        self.core.s_tx_valid.next = self.sel_g.val() | self.s_tx_valid.val();
        self.core.s_tx_qpn.next = self.s_tx_qpn.val();
        self.core.s_tx_bytes.next = self.s_tx_bytes.val();
        if self.sel_g.val() {
            self.core.s_tx_qpn.next = self.gq_qp_x.o.val();
            self.core.s_tx_bytes.next = self.gq_b_x.o.val();
        }
        self.s_tx_ready.next = !self.sel_g.val() & self.core.s_tx_ready.val();
        self.gq_pop.next = self.sel_g.val() & self.core.s_tx_ready.val();
        if self.core.s_tx_valid.val() & self.core.s_tx_ready.val() {
            self.tx_turn.d.next = !self.sel_g.val();
        }
        if self.gq_push.val() {
            self.gq_wr.d.next = self.gq_wr.q.val() + self.one4.val();
        }
        if self.gq_pop.val() {
            self.gq_rd.d.next = self.gq_rd.q.val() + self.one4.val();
        }
        if self.gq_push.val() & !self.gq_pop.val() {
            self.gq_cnt.d.next = self.gq_cnt.q.val() + self.one5.val();
        }
        if !self.gq_push.val() & self.gq_pop.val() {
            self.gq_cnt.d.next = self.gq_cnt.q.val() - self.one5.val();
        }

        // ---- status and counters (each a cycle after its event) ----
        self.any_busy.next = self.core.busy.val() | self.pacer.busy.val();
        self.busy.next = self.any_busy.val();
        self.backlogged.next = self.pacer.backlogged.val();
        self.asleep.next = self.pacer.asleep.val();
        self.wake_en.next = self.pacer.wake_en.val();
        self.wake_at.next = self.pacer.wake_at.val();
        self.hit_post.d.next = self.s_post_valid.val() & self.post_bad.val();
        self.hit_grant.d.next = self.g_take.val();
        self.hit_bytes.d.next = self.pacer.m_grant_bytes.val();
        self.hit_idle.d.next =
            self.m_tx_ready.val() & !self.m_tx_valid.val() & !self.any_busy.val();
        self.bytes_x.i.next = self.hit_bytes.q.val();
        if self.hit_post.q.val() {
            self.bad_post.d.next = self.bad_post.q.val() + self.one_count.val();
        }
        if self.hit_grant.q.val() {
            self.grants.d.next = self.grants.q.val() + self.one_count.val();
            self.grant_bytes.d.next = self.grant_bytes.q.val() + self.bytes_x.o.val();
        }
        if self.hit_idle.q.val() {
            self.port_idle.d.next = self.port_idle.q.val() + self.one_count.val();
        }
        if self.reset.val() {
            self.gq_wr.d.next = 0.into();
            self.gq_rd.d.next = 0.into();
            self.gq_cnt.d.next = 0.into();
            self.tx_turn.d.next = false;
            self.rf_ext.d.next = false;
            self.rf_pac.d.next = false;
            self.af_core.d.next = false;
            self.af_pac.d.next = false;
            self.hit_post.d.next = false;
            self.hit_grant.d.next = false;
            self.hit_idle.d.next = false;
            self.bad_post.d.next = 0.into();
            self.grants.d.next = 0.into();
            self.grant_bytes.d.next = 0.into();
            self.port_idle.d.next = 0.into();
        }
        self.cnt_bad_qp_post.next = self.bad_post.q.val();
        self.cnt_grants.next = self.grants.q.val();
        self.cnt_grant_bytes.next = self.grant_bytes.q.val();
        self.cnt_port_idle.next = self.port_idle.q.val();
    }
}

/// The default size: 1024 QPs.
pub type PacedCore1024 = PacedCore<10, 5, 32, 11, 24, 1024>;
/// 64 QPs (three-way tests).
pub type PacedCore64 = PacedCore<6, 1, 2, 7, 20, 64>;
