//! `roce_cc_top`: the core with its register block, what a NIC design instantiates.
//!
//! ```text
//!               ┌───────────────────────────── roce_cc_top ─────────────────────────────┐
//!  s_axil_* ───►│ axil_slave ─ reg_* ─► csr (CsrMap: generated decode + staged params)  │
//!               │                        │ params/start      │ s_ctl (QP commands)       │
//!               │                        ▼                   ▼                           │
//!               │                   cfg_compiler ─ cfg ─► roce_cc_core ─► m_rate_* ──────┼──► pacer
//!  s_cnp/tx/    │                   (RpCfgWord,          (RP + NP)   ─► m_cnp_*  ──────┼──► CNP generator
//!  query/rx ───►│──────────────────  NpCfgWord, table) ──►    ▲ counters ─► csr          │
//!  now,now_cnp ►│─────────────────────────────────────────────┘                          │
//!               │ tb_restart, tb_p_* ◄── csr (for the time base: `crate::timebase`)      │
//!               └────────────────────────────────────────────────────────────────────────┘
//! ```
//!
//! Time is an input (`now`, `now_cnp`): a board design drives it from a
//! [`crate::timebase::Timebase`] restarted by `tb_restart` with the periods `tb_p_*`;
//! a simulation may drive it from the golden time base at any cycle it likes (the
//! `sim` BAR follows a trace's timestamps).
//!
//! The core's reports of register-block queries go only to the register block; reports of
//! QP resets and mode changes go to both (the pacer must see the new rate), so the
//! register block's commands wait for `m_rate_ready` like any event.

use crate::axil_slave::{AXIL_ADDR_W, AXIL_DATA_W, AXIL_RESP_W, AXIL_STRB_W, AxilSlave};
use crate::cfg_compiler::CfgCompiler;
use crate::core_top::{CnpTimeWord, QPN_W, RoceCcCore};
use crate::csr::Csr;
use crate::dcqcn_np::{DSCP_W, ECN_W, PRIO_W};
use crate::dcqcn_rp::state::TimeWord;
use crate::dcqcn_rp::widths::*;
use crate::hpcc_window::cfg::HpccCfg;
use crate::hpcc_window::hop_load::U_W;
use crate::hpcc_window::window::{HOPS, IntHop, WIN_W};
use roce_cc_params::Params;
use roce_cc_regmap::FwId;
use rust_hdl::prelude::*;

/// The core top with its AXI4-Lite register block, for `2^QB` QPs.
#[derive(LogicBlock)]
pub struct RoceCcTop<const QB: usize> {
    /// Clock; everything is synchronous to its rising edge.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset, active high. Afterwards the default parameters are applied
    /// (`busy` until done).
    pub reset: Signal<In, Bit>,

    /* AXI4-Lite slave (register block, docs/registers.md) */
    /// Write address valid.
    pub s_axil_awvalid: Signal<In, Bit>,
    /// Write address ready.
    pub s_axil_awready: Signal<Out, Bit>,
    /// Write address (byte).
    pub s_axil_awaddr: Signal<In, Bits<AXIL_ADDR_W>>,
    /// Write data valid.
    pub s_axil_wvalid: Signal<In, Bit>,
    /// Write data ready.
    pub s_axil_wready: Signal<Out, Bit>,
    /// Write data.
    pub s_axil_wdata: Signal<In, Bits<AXIL_DATA_W>>,
    /// Write strobes.
    pub s_axil_wstrb: Signal<In, Bits<AXIL_STRB_W>>,
    /// Write response valid.
    pub s_axil_bvalid: Signal<Out, Bit>,
    /// Write response ready.
    pub s_axil_bready: Signal<In, Bit>,
    /// Write response (0 OKAY, 2 SLVERR, 3 DECERR).
    pub s_axil_bresp: Signal<Out, Bits<AXIL_RESP_W>>,
    /// Read address valid.
    pub s_axil_arvalid: Signal<In, Bit>,
    /// Read address ready.
    pub s_axil_arready: Signal<Out, Bit>,
    /// Read address (byte).
    pub s_axil_araddr: Signal<In, Bits<AXIL_ADDR_W>>,
    /// Read data valid.
    pub s_axil_rvalid: Signal<Out, Bit>,
    /// Read data ready.
    pub s_axil_rready: Signal<In, Bit>,
    /// Read data.
    pub s_axil_rdata: Signal<Out, Bits<AXIL_DATA_W>>,
    /// Read response (0 OKAY, 3 DECERR).
    pub s_axil_rresp: Signal<Out, Bits<AXIL_RESP_W>>,

    /* Event streams (as `roce_cc_core`) */
    /// A CNP was received for QP `s_cnp_qpn`.
    pub s_cnp_valid: Signal<In, Bit>,
    /// Taken this cycle.
    pub s_cnp_ready: Signal<Out, Bit>,
    /// QP number of the CNP.
    pub s_cnp_qpn: Signal<In, Bits<QPN_W>>,
    /// QP `s_tx_qpn` transmitted a packet.
    pub s_tx_valid: Signal<In, Bit>,
    /// Taken this cycle.
    pub s_tx_ready: Signal<Out, Bit>,
    /// QP number that transmitted.
    pub s_tx_qpn: Signal<In, Bits<QPN_W>>,
    /// Packet length, bytes.
    pub s_tx_bytes: Signal<In, Bits<BYTES_W>>,
    /// Report the RP state of QP `s_query_qpn`.
    pub s_query_valid: Signal<In, Bit>,
    /// Taken this cycle.
    pub s_query_ready: Signal<Out, Bit>,
    /// QP number to report.
    pub s_query_qpn: Signal<In, Bits<QPN_W>>,
    /// A data packet was received for QP `s_rx_qpn`.
    pub s_rx_valid: Signal<In, Bit>,
    /// Taken this cycle.
    pub s_rx_ready: Signal<Out, Bit>,
    /// QP number of the packet.
    pub s_rx_qpn: Signal<In, Bits<QPN_W>>,
    /// ECN field of the packet.
    pub s_rx_ecn: Signal<In, Bits<ECN_W>>,
    /// An ACK with its INT stack was received for QP `s_ack_qpn` (see `core_top`).
    pub s_ack_valid: Signal<In, Bit>,
    /// Taken this cycle.
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

    /* Per-QP rate reports (pacer) */
    /// A report is offered.
    pub m_rate_valid: Signal<Out, Bit>,
    /// The pacer takes it; low holds the RP.
    pub m_rate_ready: Signal<In, Bit>,
    /// QP reported.
    pub m_rate_qp: Signal<Out, Bits<QB>>,
    /// The report answers a query on `s_query_*`.
    pub m_rate_query: Signal<Out, Bit>,
    /// A rate limiter is allocated to the QP.
    pub m_rate_limited: Signal<Out, Bit>,
    /// Current rate Rc, Mb/s Q.8.
    pub m_rate_rc: Signal<Out, Bits<RATE_W>>,
    /// Target rate Rt, Mb/s Q.8.
    pub m_rate_rt: Signal<Out, Bits<RATE_W>>,
    /// alpha, Q.20.
    pub m_rate_alpha: Signal<Out, Bits<ALPHA_W>>,
    /// The QP's mode (0 DCQCN, 1 rate set by the host, 2 off, 3 HPCC).
    pub m_rate_mode: Signal<Out, Bits<MODE_W>>,
    /// HPCC's U, Q.24 (0 for other modes).
    pub m_rate_u: Signal<Out, Bits<U_W>>,
    /// HPCC's window, bytes (0 for other modes).
    pub m_rate_window: Signal<Out, Bits<WIN_W>>,

    /* CNP requests */
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

    /* Time base */
    /// Now: cycle within the microsecond and the RP timers' radices.
    pub now: Signal<In, TimeWord>,
    /// Now in the NP's radix.
    pub now_cnp: Signal<In, CnpTimeWord>,
    /// Restart the time base (the applied parameters change its periods).
    pub tb_restart: Signal<Out, Bit>,
    /// Alpha-timer period, us.
    pub tb_p_alpha: Signal<Out, Bits<REM_W>>,
    /// Decrease-check period, us.
    pub tb_p_dec: Signal<Out, Bits<REM_W>>,
    /// Increase-timer period, us.
    pub tb_p_inc: Signal<Out, Bits<REM_W>>,
    /// CNP-window period, us.
    pub tb_p_cnp: Signal<Out, Bits<REM_W>>,
    /// Parameters are being applied (or the RAM sweep runs): events wait.
    pub busy: Signal<Out, Bit>,

    axil: AxilSlave,
    csr: Csr<QB>,
    cfg: CfgCompiler,
    core: RoceCcCore<QB>,
    /// The core's reset, registered: `reset`, or the register block holding the core while
    /// an apply runs. It reaches every reset pin of the core, so it starts at a flip-flop
    /// (one cycle after either cause; the register block's `busy` covers that cycle).
    core_reset_q: DFF<Bit>,
    /// The core's report follows a register-block query (only the register block takes it).
    csr_only: Signal<Local, Bit>,
    /// The HPCC configuration compiler: the register block's HPCC parameters in the
    /// window unit's form (started with the DCQCN compiler, done within its time).
    hcfg: HpccCfg,
}

impl<const QB: usize> RoceCcTop<QB> {
    /// The top of a bitstream built for `build.qps = 2^QB` QPs at `build.clock_mhz`,
    /// reporting firmware identity `fw` (`roce_cc_regmap::fw_id()` for this build).
    pub fn new(build: &Params, fw: FwId) -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            s_axil_awvalid: Default::default(),
            s_axil_awready: Default::default(),
            s_axil_awaddr: Default::default(),
            s_axil_wvalid: Default::default(),
            s_axil_wready: Default::default(),
            s_axil_wdata: Default::default(),
            s_axil_wstrb: Default::default(),
            s_axil_bvalid: Default::default(),
            s_axil_bready: Default::default(),
            s_axil_bresp: Default::default(),
            s_axil_arvalid: Default::default(),
            s_axil_arready: Default::default(),
            s_axil_araddr: Default::default(),
            s_axil_rvalid: Default::default(),
            s_axil_rready: Default::default(),
            s_axil_rdata: Default::default(),
            s_axil_rresp: Default::default(),
            s_cnp_valid: Default::default(),
            s_cnp_ready: Default::default(),
            s_cnp_qpn: Default::default(),
            s_tx_valid: Default::default(),
            s_tx_ready: Default::default(),
            s_tx_qpn: Default::default(),
            s_tx_bytes: Default::default(),
            s_query_valid: Default::default(),
            s_query_ready: Default::default(),
            s_query_qpn: Default::default(),
            s_rx_valid: Default::default(),
            s_rx_ready: Default::default(),
            s_rx_qpn: Default::default(),
            s_rx_ecn: Default::default(),
            s_ack_valid: Default::default(),
            s_ack_ready: Default::default(),
            s_ack_qpn: Default::default(),
            s_ack_seq: Default::default(),
            s_ack_snd_nxt: Default::default(),
            s_ack_nhop: Default::default(),
            s_ack_hop: Default::default(),
            m_rate_u: Default::default(),
            m_rate_window: Default::default(),
            m_rate_valid: Default::default(),
            m_rate_ready: Default::default(),
            m_rate_qp: Default::default(),
            m_rate_query: Default::default(),
            m_rate_limited: Default::default(),
            m_rate_rc: Default::default(),
            m_rate_rt: Default::default(),
            m_rate_alpha: Default::default(),
            m_rate_mode: Default::default(),
            m_cnp_valid: Default::default(),
            m_cnp_ready: Default::default(),
            m_cnp_qp: Default::default(),
            m_cnp_dscp: Default::default(),
            m_cnp_prio: Default::default(),
            now: Default::default(),
            now_cnp: Default::default(),
            tb_restart: Default::default(),
            tb_p_alpha: Default::default(),
            tb_p_dec: Default::default(),
            tb_p_inc: Default::default(),
            tb_p_cnp: Default::default(),
            busy: Default::default(),
            axil: Default::default(),
            csr: Csr::new(build, fw),
            cfg: Default::default(),
            core: RoceCcCore::new(),
            core_reset_q: Default::default(),
            csr_only: Default::default(),
            hcfg: Default::default(),
        }
    }
}

impl<const QB: usize> Logic for RoceCcTop<QB> {
    #[hdl_gen]
    fn update(&mut self) {
        // ---- clocks and resets ----
        self.axil.clock.next = self.clock.val();
        self.csr.clock.next = self.clock.val();
        self.cfg.clock.next = self.clock.val();
        self.core.clock.next = self.clock.val();
        self.axil.reset.next = self.reset.val();
        self.csr.reset.next = self.reset.val();
        self.cfg.reset.next = self.reset.val();
        self.core_reset_q.clock.next = self.clock.val();
        self.core_reset_q.d.next = self.reset.val() | self.csr.core_reset.val();
        self.core.reset.next = self.core_reset_q.q.val();

        // ---- AXI4-Lite ----
        self.axil.s_awvalid.next = self.s_axil_awvalid.val();
        self.s_axil_awready.next = self.axil.s_awready.val();
        self.axil.s_awaddr.next = self.s_axil_awaddr.val();
        self.axil.s_wvalid.next = self.s_axil_wvalid.val();
        self.s_axil_wready.next = self.axil.s_wready.val();
        self.axil.s_wdata.next = self.s_axil_wdata.val();
        self.axil.s_wstrb.next = self.s_axil_wstrb.val();
        self.s_axil_bvalid.next = self.axil.s_bvalid.val();
        self.axil.s_bready.next = self.s_axil_bready.val();
        self.s_axil_bresp.next = self.axil.s_bresp.val();
        self.axil.s_arvalid.next = self.s_axil_arvalid.val();
        self.s_axil_arready.next = self.axil.s_arready.val();
        self.axil.s_araddr.next = self.s_axil_araddr.val();
        self.s_axil_rvalid.next = self.axil.s_rvalid.val();
        self.axil.s_rready.next = self.s_axil_rready.val();
        self.s_axil_rdata.next = self.axil.s_rdata.val();
        self.s_axil_rresp.next = self.axil.s_rresp.val();
        self.csr.reg_valid.next = self.axil.reg_valid.val();
        self.csr.reg_write.next = self.axil.reg_write.val();
        self.csr.reg_addr.next = self.axil.reg_addr.val();
        self.csr.reg_wdata.next = self.axil.reg_wdata.val();
        self.csr.reg_wstrb.next = self.axil.reg_wstrb.val();
        self.axil.reg_ack.next = self.csr.reg_ack.val();
        self.axil.reg_rdata.next = self.csr.reg_rdata.val();
        self.axil.reg_resp.next = self.csr.reg_resp.val();

        // ---- configuration ----
        self.cfg.params.next = self.csr.params.val();
        self.cfg.start.next = self.csr.cfg_start.val();
        self.hcfg.clock.next = self.clock.val();
        self.hcfg.reset.next = self.reset.val();
        self.hcfg.params.next = self.csr.hpcc_params.val();
        self.hcfg.start.next = self.csr.cfg_start.val();
        self.csr.cfg_busy.next = self.cfg.busy.val() | self.hcfg.busy.val();
        self.core.rp_cfg.next = self.cfg.rp_cfg.val();
        self.core.np_cfg.next = self.cfg.np_cfg.val();
        self.core.tbl_we.next = self.cfg.tbl_we.val();
        self.core.tbl_addr.next = self.cfg.tbl_addr.val();
        self.core.tbl_data.next = self.cfg.tbl_data.val();
        self.csr.core_busy.next = self.core.busy.val();
        self.busy.next = self.csr.busy.val();
        self.tb_restart.next = self.csr.tb_restart.val();
        self.tb_p_alpha.next = self.csr.tb_p_alpha.val();
        self.tb_p_dec.next = self.csr.tb_p_dec.val();
        self.tb_p_inc.next = self.csr.tb_p_inc.val();
        self.tb_p_cnp.next = self.csr.tb_p_cnp.val();
        self.core.now.next = self.now.val();
        self.core.now_cnp.next = self.now_cnp.val();

        // ---- QP commands and their reports ----
        self.core.s_ctl_valid.next = self.csr.m_ctl_valid.val();
        self.csr.m_ctl_ready.next = self.core.s_ctl_ready.val();
        self.core.s_ctl_qp.next = self.csr.m_ctl_qp.val();
        self.core.s_ctl_op.next = self.csr.m_ctl_op.val();
        self.core.s_ctl_mode.next = self.csr.m_ctl_mode.val();
        self.core.s_ctl_rate.next = self.csr.m_ctl_rate.val();
        self.csr_only.next = self.core.m_rate_ctl.val() & self.core.m_rate_query.val();
        self.m_rate_valid.next = self.core.m_rate_valid.val() & !self.csr_only.val();
        self.core.m_rate_ready.next = self.m_rate_ready.val() | self.csr_only.val();
        self.csr.rep_take.next = self.core.m_rate_valid.val()
            & self.core.m_rate_ctl.val()
            & (self.m_rate_ready.val() | self.csr_only.val());
        self.csr.rep_limited.next = self.core.m_rate_limited.val();
        self.csr.rep_mode.next = self.core.m_rate_mode.val();
        self.csr.rep_rc.next = self.core.m_rate_rc.val();
        self.csr.rep_rt.next = self.core.m_rate_rt.val();
        self.csr.rep_alpha.next = self.core.m_rate_alpha.val();
        self.m_rate_qp.next = self.core.m_rate_qp.val();
        self.m_rate_query.next = self.core.m_rate_query.val();
        self.m_rate_limited.next = self.core.m_rate_limited.val();
        self.m_rate_rc.next = self.core.m_rate_rc.val();
        self.m_rate_rt.next = self.core.m_rate_rt.val();
        self.m_rate_alpha.next = self.core.m_rate_alpha.val();
        self.m_rate_mode.next = self.core.m_rate_mode.val();
        self.m_rate_u.next = self.core.m_rate_u.val();
        self.m_rate_window.next = self.core.m_rate_window.val();
        self.core.s_ack_valid.next = self.s_ack_valid.val();
        self.s_ack_ready.next = self.core.s_ack_ready.val();
        self.core.s_ack_qpn.next = self.s_ack_qpn.val();
        self.core.s_ack_seq.next = self.s_ack_seq.val();
        self.core.s_ack_snd_nxt.next = self.s_ack_snd_nxt.val();
        self.core.s_ack_nhop.next = self.s_ack_nhop.val();
        self.core.s_ack_hop[0].next = self.s_ack_hop[0].val();
        self.core.s_ack_hop[1].next = self.s_ack_hop[1].val();
        self.core.s_ack_hop[2].next = self.s_ack_hop[2].val();
        self.core.s_ack_hop[3].next = self.s_ack_hop[3].val();
        self.core.s_ack_hop[4].next = self.s_ack_hop[4].val();
        self.core.hpcc_cfg.next = self.hcfg.cfg.val();
        self.core.hpcc_k.next = self.hcfg.cfg_k.val();
        self.csr.rep_u.next = self.core.m_rate_u.val();
        self.csr.rep_window.next = self.core.m_rate_window.val();
        self.csr.cnt_bad_ack.next = self.core.cnt_bad_ack.val();
        self.csr.cnt_ack_ignored.next = self.core.cnt_ack_ignored.val();
        self.csr.cnt_ack_applied.next = self.core.cnt_ack_applied.val();
        self.csr.cnt_ack_commits.next = self.core.cnt_ack_commits.val();

        // ---- event streams ----
        self.core.s_cnp_valid.next = self.s_cnp_valid.val();
        self.s_cnp_ready.next = self.core.s_cnp_ready.val();
        self.core.s_cnp_qpn.next = self.s_cnp_qpn.val();
        self.core.s_tx_valid.next = self.s_tx_valid.val();
        self.s_tx_ready.next = self.core.s_tx_ready.val();
        self.core.s_tx_qpn.next = self.s_tx_qpn.val();
        self.core.s_tx_bytes.next = self.s_tx_bytes.val();
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

        // ---- counters ----
        self.csr.cnt_cnp_received.next = self.core.cnt_cnp_received.val();
        self.csr.cnt_cnp_sent.next = self.core.cnt_cnp_sent.val();
        self.csr.cnt_cnp_suppressed.next = self.core.cnt_cnp_suppressed.val();
        self.csr.cnt_cnp_stall.next = self.core.cnt_cnp_stall.val();
        self.csr.cnt_rate_cuts.next = self.core.cnt_rate_cuts.val();
        self.csr.cnt_increase_fr.next = self.core.cnt_increase_fr.val();
        self.csr.cnt_increase_ai.next = self.core.cnt_increase_ai.val();
        self.csr.cnt_increase_hai.next = self.core.cnt_increase_hai.val();
        self.csr.cnt_bad_qp_cnp.next = self.core.cnt_bad_qp_cnp.val();
        self.csr.cnt_bad_qp_tx.next = self.core.cnt_bad_qp_tx.val();
        self.csr.cnt_bad_qp_query.next = self.core.cnt_bad_qp_query.val();
        self.csr.cnt_bad_qp_rx.next = self.core.cnt_bad_qp_rx.val();
    }
}
