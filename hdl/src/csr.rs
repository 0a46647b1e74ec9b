//! `csr`: the register block's controller. It answers the register accesses that
//! `axil_slave` presents, one at a time, using the generated decode ([`CsrMap`], from the
//! one register description), and drives the rest of the core: the configuration compiler
//! on an apply, the core's QP commands and snapshots, the 64-bit counters.
//!
//! ```text
//!  reg_* ──► CsrMap (generated decode, staged parameters, range checks)
//!    ▲          │
//!    └─ ack ◄── FSM: IDLE ──(qp_sel / qp_cmd)──► CMD ──(m_ctl taken)──► WAIT ──(report)──► IDLE
//!                 │ apply: cfg_start, core_reset held while compiling, tb_restart at commit
//!                 └ counters: decerr, slverr (here), bad-QP sum, the core's (latched _hi)
//! ```
//!
//! Rules (`docs/registers.md`; golden model `sim::csr::CsrModel`):
//! - a read of an unmapped address: DECERR; of a `_lo` counter: also latches its `_hi`;
//! - a write: unmapped → DECERR; read-only, or a partial strobe to a register that cannot
//!   take it, or a value out of range → SLVERR with nothing changed; each error counts in
//!   `reg_decerr` / `reg_slverr` (48 bits, read as 64), one cycle after the answer;
//! - writes wait (no `reg_ack`) while an apply runs (`busy`); reads do not wait, so
//!   `status` shows the apply (one cycle after `busy`: it reads a register of it);
//! - a read is answered two cycles after it is accepted: the map registers which register
//!   the address selects (one-hot), then the decode's answer (mapped, the read value, a
//!   counter's high half) is registered ([`ReadCheck`]) and returned from that register;
//! - a write is answered four cycles after it is accepted, in five register steps: the
//!   cycle it is accepted the map registers every parameter's value after the write; the
//!   next (`wr_acc`) it registers each one's range check; the next (`wr_chk`) the decode's
//!   answers (mapped, writable, partial strobe, kind, the AND of the checks as `param_ok`,
//!   the merged value) are registered ([`WriteCheck`]); the next (`wr_pend`) the write is
//!   decided from that register and the comparisons on the merged value (registered a
//!   cycle earlier from the same register, [`MergedCheck`]) into another ([`WriteAction`]); the next (`wr_act`)
//!   it is carried out and answered. The register port holds its address and data
//!   throughout. The decode's read multiplexer and
//!   range comparisons therefore end at registers, and neither `busy` nor a comparison
//!   reaches the response, the error counters or the staged parameters' enables in the
//!   same cycle (the 100 MHz board clock needs that);
//! - `qp_sel` and `qp_cmd` are answered when the core's report for the command (a query,
//!   a QP reset or a mode change, on the core's command stream) arrives; the report is the
//!   window's snapshot.
//!
//! After `reset` the block applies the default parameters (as an apply does: `busy` until
//! the compiler and the core's RAM sweep are done).

use crate::COUNTER_W;
use crate::axil_slave::{AXIL_ADDR_W, AXIL_DATA_W, AXIL_RESP_W, AXIL_STRB_W};
use crate::cfg_compiler::{MBPS_W, ParamWord};
use crate::csr_map::CsrMap;
use crate::dcqcn_rp::widths::*;
use crate::hpcc_window::cfg::HpccParamWord;
use crate::hpcc_window::hop_load::U_W;
use crate::hpcc_window::window::WIN_W;
use crate::zero_ext::ZeroExt;
use roce_cc_params::Params;
use roce_cc_regmap::FwId;
use rust_hdl::prelude::*;

/// A write's checks, registered the cycle it is accepted and used the cycle after, so
/// that the decode's multiplexers and range comparisons end at a register instead of
/// running on into the response, the counters and the staged parameters' enables.
#[derive(Clone, Copy, Debug, Default, PartialEq, LogicStruct)]
pub struct WriteCheck {
    /// `addr` is a register.
    pub mapped: Bit,
    /// The register is RW or WO.
    pub writable: Bit,
    /// A partial strobe to a register that cannot take one.
    pub strb_bad: Bit,
    /// The register is a staged parameter.
    pub is_param: Bit,
    /// The write keeps every staged parameter in its range.
    pub param_ok: Bit,
    /// The register is `ctrl`.
    pub is_ctrl: Bit,
    /// The register is `qp_sel`.
    pub is_qp_sel: Bit,
    /// The register is `qp_cmd`.
    pub is_qp_cmd: Bit,
    /// The register is `qp_mode_arg`.
    pub is_qp_mode_arg: Bit,
    /// The register is `qp_rate_arg`.
    pub is_qp_rate_arg: Bit,
    /// The value the write would leave (strobed bytes over the current value).
    pub merged: Bits<32>,
}

/// The comparisons a write's decision makes on its merged value, registered from
/// [`WriteCheck`]`::merged` a cycle before the decision, so that the decision ([`WriteAction`])
/// is a priority choice among flip-flops (with the 32-bit comparisons in front of `wact`
/// the board design does not meet 10 ns). `merged` is valid from
/// the cycle after the accept on (the map's one-hot select is registered then), so these
/// are valid when the write is decided (`wr_pend`).
#[derive(Clone, Copy, Debug, Default, PartialEq, LogicStruct)]
pub struct MergedCheck {
    /// `merged == 0`.
    pub is0: Bit,
    /// `merged == 1`.
    pub is1: Bit,
    /// `merged == 2`.
    pub is2: Bit,
    /// `merged > 3` (a `qp_mode_arg` out of range).
    pub gt_mode: Bit,
    /// `merged` is above the line rate (a `qp_rate_arg` out of range).
    pub gt_line: Bit,
    /// `merged` is not a QP number of this build (a `qp_sel` out of range).
    pub ge_qps: Bit,
}

/// A read's answer from the decode, registered the cycle the read is accepted and
/// returned the cycle after (the read multiplexer ends at this register).
#[derive(Clone, Copy, Debug, Default, PartialEq, LogicStruct)]
pub struct ReadCheck {
    /// `addr` is a register.
    pub mapped: Bit,
    /// The register is a counter's `_lo` half (the read latches its `_hi`).
    pub is_counter_lo: Bit,
    /// What the read returns.
    pub rdata: Bits<32>,
    /// The high half of the counter whose `_lo` is read.
    pub hi_of_lo: Bits<32>,
}

/// What a write does, decided from its [`WriteCheck`] and registered; carried out the
/// cycle after.
#[derive(Clone, Copy, Debug, Default, PartialEq, LogicStruct)]
pub struct WriteAction {
    /// Answer the access now (a QP command is answered later, with its report).
    pub ack: Bit,
    /// Response: OKAY, SLVERR or DECERR.
    pub resp: Bits<AXIL_RESP_W>,
    /// Store the write in its staged parameter.
    pub commit: Bit,
    /// `ctrl` = 1: apply the staged parameters.
    pub apply: Bit,
    /// Store `value` in `qp_mode_arg`.
    pub set_mode_arg: Bit,
    /// Store `value` in `qp_rate_arg`.
    pub set_rate_arg: Bit,
    /// Store `value` in `qp_sel`.
    pub set_qp_sel: Bit,
    /// Offer a command (`op`) to the core.
    pub cmd: Bit,
    /// The command's op.
    pub op: Bits<CTL_OP_W>,
    /// The write's merged value.
    pub value: Bits<32>,
}

/// The register block's controller for a core of `2^QB` QPs.
#[derive(LogicBlock)]
pub struct Csr<const QB: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset, active high; afterwards the defaults are applied.
    pub reset: Signal<In, Bit>,

    /* Register port (from `axil_slave`) */
    /// An access is requested (held until `reg_ack`).
    pub reg_valid: Signal<In, Bit>,
    /// The access is a write.
    pub reg_write: Signal<In, Bit>,
    /// Byte address.
    pub reg_addr: Signal<In, Bits<AXIL_ADDR_W>>,
    /// Write data.
    pub reg_wdata: Signal<In, Bits<AXIL_DATA_W>>,
    /// Write strobes.
    pub reg_wstrb: Signal<In, Bits<AXIL_STRB_W>>,
    /// The access is answered this cycle.
    pub reg_ack: Signal<Out, Bit>,
    /// Read data (with `reg_ack`).
    pub reg_rdata: Signal<Out, Bits<AXIL_DATA_W>>,
    /// Response: 0 OKAY, 2 SLVERR, 3 DECERR (with `reg_ack`).
    pub reg_resp: Signal<Out, Bits<AXIL_RESP_W>>,

    /* QP commands to the core (its `s_ctl_*` stream) */
    /// A command is offered.
    pub m_ctl_valid: Signal<Out, Bit>,
    /// The core takes it.
    pub m_ctl_ready: Signal<In, Bit>,
    /// QP of the command (`qp_sel`).
    pub m_ctl_qp: Signal<Out, Bits<QB>>,
    /// 0 reset the QP, 1 set its mode, 2 query it.
    pub m_ctl_op: Signal<Out, Bits<CTL_OP_W>>,
    /// Mode for op 1 (`qp_mode_arg`).
    pub m_ctl_mode: Signal<Out, Bits<MODE_W>>,
    /// Host rate for op 1, Mb/s Q.8 (`qp_rate_arg` << 8).
    pub m_ctl_rate: Signal<Out, Bits<RATE_W>>,

    /* The core's report for the command */
    /// The core's report of a command is taken this cycle.
    pub rep_take: Signal<In, Bit>,
    /// Report: limited.
    pub rep_limited: Signal<In, Bit>,
    /// Report: the QP's mode.
    pub rep_mode: Signal<In, Bits<MODE_W>>,
    /// Report: Rc, Mb/s Q.8.
    pub rep_rc: Signal<In, Bits<RATE_W>>,
    /// Report: Rt, Mb/s Q.8.
    pub rep_rt: Signal<In, Bits<RATE_W>>,
    /// Report: alpha, Q.20.
    pub rep_alpha: Signal<In, Bits<ALPHA_W>>,
    /// Report: HPCC's U, Q.24.
    pub rep_u: Signal<In, Bits<U_W>>,
    /// Report: HPCC's window, bytes.
    pub rep_window: Signal<In, Bits<WIN_W>>,

    /* Configuration */
    /// The staged parameters, for the compiler.
    pub params: Signal<Out, ParamWord>,
    /// The staged HPCC parameters, for the HPCC compiler (`max_mbps` the max rate, and
    /// `min_mbps` at most that).
    pub hpcc_params: Signal<Out, HpccParamWord>,
    /// Start the compiler (one cycle, while it is idle).
    pub cfg_start: Signal<Out, Bit>,
    /// The compiler is running.
    pub cfg_busy: Signal<In, Bit>,
    /// Hold the core in reset (from the apply until the compiler is done).
    pub core_reset: Signal<Out, Bit>,
    /// The core is sweeping its RAM (or held in reset).
    pub core_busy: Signal<In, Bit>,
    /// Restart the time base (one cycle, the cycle after the compiler commits the new
    /// parameters; a register).
    pub tb_restart: Signal<Out, Bit>,
    /// Applied `dce_tcp_rtt`, us (for the time base).
    pub tb_p_alpha: Signal<Out, Bits<REM_W>>,
    /// Applied `rate_reduce_monitor_period`, us.
    pub tb_p_dec: Signal<Out, Bits<REM_W>>,
    /// Applied `rpg_time_reset`, us.
    pub tb_p_inc: Signal<Out, Bits<REM_W>>,
    /// Applied `min_time_between_cnps`, us, at least 1.
    pub tb_p_cnp: Signal<Out, Bits<REM_W>>,
    /// An apply is running (`status` bit 0).
    pub busy: Signal<Out, Bit>,

    /* The core's counters (48 bits, wrapping) */
    /// CNPs received by the RP.
    pub cnt_cnp_received: Signal<In, Bits<COUNTER_W>>,
    /// CNP requests sent by the NP.
    pub cnt_cnp_sent: Signal<In, Bits<COUNTER_W>>,
    /// CE marks suppressed by the NP's limiter.
    pub cnt_cnp_suppressed: Signal<In, Bits<COUNTER_W>>,
    /// Cycles a CNP request waited.
    pub cnt_cnp_stall: Signal<In, Bits<COUNTER_W>>,
    /// Rate cuts.
    pub cnt_rate_cuts: Signal<In, Bits<COUNTER_W>>,
    /// Increase events in fast recovery.
    pub cnt_increase_fr: Signal<In, Bits<COUNTER_W>>,
    /// Increase events in additive increase.
    pub cnt_increase_ai: Signal<In, Bits<COUNTER_W>>,
    /// Increase events in hyper increase.
    pub cnt_increase_hai: Signal<In, Bits<COUNTER_W>>,
    /// Bad-QP rejections on the CNP stream.
    pub cnt_bad_qp_cnp: Signal<In, Bits<COUNTER_W>>,
    /// Bad-QP rejections on the packet stream.
    pub cnt_bad_qp_tx: Signal<In, Bits<COUNTER_W>>,
    /// Bad-QP rejections on the query stream.
    pub cnt_bad_qp_query: Signal<In, Bits<COUNTER_W>>,
    /// Bad-QP rejections on the receive stream.
    pub cnt_bad_qp_rx: Signal<In, Bits<COUNTER_W>>,
    /// ACKs rejected.
    pub cnt_bad_ack: Signal<In, Bits<COUNTER_W>>,
    /// ACKs of QPs not in HPCC mode.
    pub cnt_ack_ignored: Signal<In, Bits<COUNTER_W>>,
    /// ACKs applied (32 bits, wrapping).
    pub cnt_ack_applied: Signal<In, Bits<32>>,
    /// Applied ACKs that committed (32 bits, wrapping).
    pub cnt_ack_commits: Signal<In, Bits<32>>,

    map: CsrMap,
    /// 0 idle, 1 command offered, 2 waiting for its report.
    state: DFF<Bits<2>>,
    qp_sel: DFF<Bits<32>>,
    mode_arg: DFF<Bits<32>>,
    rate_arg: DFF<Bits<32>>,
    ctl_op: DFF<Bits<CTL_OP_W>>,
    snap_status: DFF<Bits<32>>,
    snap_rc: DFF<Bits<32>>,
    snap_rt: DFF<Bits<32>>,
    snap_alpha: DFF<Bits<32>>,
    snap_u_lo: DFF<Bits<32>>,
    snap_u_hi: DFF<Bits<32>>,
    snap_win: DFF<Bits<32>>,
    ext_u_hi: ZeroExt<8, 32>,
    ext_applied: ZeroExt<32, COUNTER_W>,
    ext_commits: ZeroExt<32, COUNTER_W>,
    /// The staged max rate (`rpg_max_rate`, else the line rate) and the HPCC floor at most
    /// that (the compilers latch them at `cfg_start`, from the staged registers).
    hp_max: Signal<Local, Bits<MBPS_W>>,
    hp_min: Signal<Local, Bits<MBPS_W>>,
    three32: Constant<Bits<32>>,
    zero_mbps: Constant<Bits<MBPS_W>>,
    latched_hi: DFF<Bits<32>>,
    decerr: DFF<Bits<COUNTER_W>>,
    slverr: DFF<Bits<COUNTER_W>>,
    bad_sum: DFF<Bits<COUNTER_W>>,
    apply_q: DFF<Bit>,
    cfg_busy_q: DFF<Bit>,
    /// `tb_restart`, registered: the compiler's `busy` fell at the edge before (the time
    /// base sits across the board from the register block, so its restart starts at a
    /// flip-flop).
    tb_restart_q: DFF<Bit>,
    app_line_rate: DFF<Bits<MBPS_W>>,
    ext_line: ZeroExt<MBPS_W, 32>,
    p_alpha: DFF<Bits<REM_W>>,
    p_dec: DFF<Bits<REM_W>>,
    p_inc: DFF<Bits<REM_W>>,
    p_cnp: DFF<Bits<REM_W>>,
    ext_rc: ZeroExt<RATE_W, 32>,
    ext_rt: ZeroExt<RATE_W, 32>,
    ext_alpha: ZeroExt<ALPHA_W, 32>,
    ext_mode: ZeroExt<MODE_W, 32>,
    ext_rate: ZeroExt<20, RATE_W>,
    st_idle: Constant<Bits<2>>,
    st_cmd: Constant<Bits<2>>,
    st_wait: Constant<Bits<2>>,
    resp_okay: Constant<Bits<AXIL_RESP_W>>,
    resp_slverr: Constant<Bits<AXIL_RESP_W>>,
    resp_decerr: Constant<Bits<AXIL_RESP_W>>,
    strb_all: Constant<Bits<AXIL_STRB_W>>,
    qps: Constant<Bits<32>>,
    one_count: Constant<Bits<COUNTER_W>>,
    zero_count: Constant<Bits<COUNTER_W>>,
    zero32: Constant<Bits<32>>,
    one32: Constant<Bits<32>>,
    two32: Constant<Bits<32>>,
    one_rem: Constant<Bits<REM_W>>,
    zero_rem: Constant<Bits<REM_W>>,
    op_reset: Constant<Bits<CTL_OP_W>>,
    op_mode: Constant<Bits<CTL_OP_W>>,
    op_query: Constant<Bits<CTL_OP_W>>,
    /// A write was accepted last cycle (the map has registered the parameters' values
    /// after it).
    wr_acc: DFF<Bit>,
    /// The map has registered the range checks of the write; its checks go into `wchk`
    /// now (the map's `param_ok` is two cycles behind the access).
    wr_chk: DFF<Bit>,
    /// `busy`, one cycle late: what `status` reads.
    status_q: DFF<Bit>,
    /// A write's checks are in `wchk`; it is decided now (into `wact`).
    wr_pend: DFF<Bit>,
    /// A write's decision is in `wact`; it is carried out (and answered) now.
    wr_act: DFF<Bit>,
    /// The decision of the write in `wchk` (computed every cycle, used while `wr_act`).
    wact: DFF<WriteAction>,
    /// A read was accepted last cycle (the map has registered its address's select); its
    /// answer goes into `rchk` now.
    rd_acc: DFF<Bit>,
    /// A read's answer is in `rchk`; it is answered now.
    rd_pend: DFF<Bit>,
    /// The decode's answer for a read (sampled every cycle, used while `rd_pend`).
    rchk: DFF<ReadCheck>,
    /// An access was answered DECERR last cycle (`reg_decerr` counts it now).
    err_dec: DFF<Bit>,
    /// An access was answered SLVERR last cycle (`reg_slverr` counts it now).
    err_slv: DFF<Bit>,
    /// The accepted write's checks (sampled every cycle, used while `wr_pend`).
    wchk: DFF<WriteCheck>,
    /// The comparisons on `wchk`'s merged value (sampled every cycle, used while
    /// `wr_pend`).
    wval: DFF<MergedCheck>,
}

impl<const QB: usize> Csr<QB> {
    /// The controller of a bitstream built for `build.qps = 2^QB` QPs at `build.clock_mhz`,
    /// reporting firmware identity `fw`.
    pub fn new(build: &Params, fw: FwId) -> Self {
        assert_eq!(build.qps, 1 << QB, "Csr<{QB}> built for {} QPs", build.qps);
        Self {
            clock: Default::default(),
            reset: Default::default(),
            reg_valid: Default::default(),
            reg_write: Default::default(),
            reg_addr: Default::default(),
            reg_wdata: Default::default(),
            reg_wstrb: Default::default(),
            reg_ack: Default::default(),
            reg_rdata: Default::default(),
            reg_resp: Default::default(),
            m_ctl_valid: Default::default(),
            m_ctl_ready: Default::default(),
            m_ctl_qp: Default::default(),
            m_ctl_op: Default::default(),
            m_ctl_mode: Default::default(),
            m_ctl_rate: Default::default(),
            rep_take: Default::default(),
            rep_limited: Default::default(),
            rep_mode: Default::default(),
            rep_rc: Default::default(),
            rep_rt: Default::default(),
            rep_alpha: Default::default(),
            rep_u: Default::default(),
            rep_window: Default::default(),
            params: Default::default(),
            hpcc_params: Default::default(),
            cfg_start: Default::default(),
            cfg_busy: Default::default(),
            core_reset: Default::default(),
            core_busy: Default::default(),
            tb_restart: Default::default(),
            tb_p_alpha: Default::default(),
            tb_p_dec: Default::default(),
            tb_p_inc: Default::default(),
            tb_p_cnp: Default::default(),
            busy: Default::default(),
            cnt_cnp_received: Default::default(),
            cnt_cnp_sent: Default::default(),
            cnt_cnp_suppressed: Default::default(),
            cnt_cnp_stall: Default::default(),
            cnt_rate_cuts: Default::default(),
            cnt_increase_fr: Default::default(),
            cnt_increase_ai: Default::default(),
            cnt_increase_hai: Default::default(),
            cnt_bad_qp_cnp: Default::default(),
            cnt_bad_qp_tx: Default::default(),
            cnt_bad_qp_query: Default::default(),
            cnt_bad_qp_rx: Default::default(),
            cnt_bad_ack: Default::default(),
            cnt_ack_ignored: Default::default(),
            cnt_ack_applied: Default::default(),
            cnt_ack_commits: Default::default(),
            map: CsrMap::new(build, fw),
            state: Default::default(),
            qp_sel: Default::default(),
            mode_arg: Default::default(),
            rate_arg: Default::default(),
            ctl_op: Default::default(),
            snap_status: Default::default(),
            snap_rc: Default::default(),
            snap_rt: Default::default(),
            snap_alpha: Default::default(),
            snap_u_lo: Default::default(),
            snap_u_hi: Default::default(),
            snap_win: Default::default(),
            ext_u_hi: Default::default(),
            ext_applied: Default::default(),
            ext_commits: Default::default(),
            hp_max: Default::default(),
            hp_min: Default::default(),
            three32: Constant::new(3.into()),
            zero_mbps: Constant::new(0.into()),
            latched_hi: Default::default(),
            decerr: Default::default(),
            slverr: Default::default(),
            bad_sum: Default::default(),
            apply_q: Default::default(),
            cfg_busy_q: Default::default(),
            tb_restart_q: Default::default(),
            app_line_rate: Default::default(),
            ext_line: Default::default(),
            p_alpha: Default::default(),
            p_dec: Default::default(),
            p_inc: Default::default(),
            p_cnp: Default::default(),
            ext_rc: Default::default(),
            ext_rt: Default::default(),
            ext_alpha: Default::default(),
            ext_mode: Default::default(),
            ext_rate: Default::default(),
            st_idle: Constant::new(0.into()),
            st_cmd: Constant::new(1.into()),
            st_wait: Constant::new(2.into()),
            resp_okay: Constant::new(0.into()),
            resp_slverr: Constant::new(2.into()),
            resp_decerr: Constant::new(3.into()),
            strb_all: Constant::new(0xf.into()),
            qps: Constant::new((build.qps as u64).into()),
            one_count: Constant::new(1.into()),
            zero_count: Constant::new(0.into()),
            zero32: Constant::new(0.into()),
            one32: Constant::new(1.into()),
            two32: Constant::new(2.into()),
            one_rem: Constant::new(1.into()),
            zero_rem: Constant::new(0.into()),
            op_reset: Constant::new(0.into()),
            op_mode: Constant::new(1.into()),
            op_query: Constant::new(2.into()),
            wr_acc: Default::default(),
            wr_chk: Default::default(),
            status_q: Default::default(),
            wr_pend: Default::default(),
            wr_act: Default::default(),
            wact: Default::default(),
            rd_acc: Default::default(),
            rd_pend: Default::default(),
            rchk: Default::default(),
            err_dec: Default::default(),
            err_slv: Default::default(),
            wchk: Default::default(),
            wval: Default::default(),
        }
    }
}

impl<const QB: usize> Logic for Csr<QB> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            state,
            qp_sel,
            mode_arg,
            rate_arg,
            ctl_op,
            snap_status,
            snap_rc,
            snap_rt,
            snap_alpha,
            snap_u_lo,
            snap_u_hi,
            snap_win,
            latched_hi,
            decerr,
            slverr,
            bad_sum,
            apply_q,
            cfg_busy_q,
            tb_restart_q,
            wr_acc,
            wr_chk,
            status_q,
            wr_pend,
            wr_act,
            wact,
            rd_acc,
            rd_pend,
            rchk,
            err_dec,
            err_slv,
            wchk,
            wval,
            app_line_rate,
            p_alpha,
            p_dec,
            p_inc,
            p_cnp
        );
        self.map.clock.next = self.clock.val();
        self.map.reset.next = self.reset.val();
        self.map.addr.next = self.reg_addr.val();
        self.map.wdata.next = self.reg_wdata.val();
        self.map.wstrb.next = self.reg_wstrb.val();
        self.map.commit.next = false;
        self.busy.next = self.apply_q.q.val() | self.cfg_busy.val() | self.core_busy.val();
        // `status` reads `busy` one cycle late (a register), so that the compiler's and the
        // core's busy logic does not run on into the read multiplexer.
        self.status_q.d.next = self.busy.val();
        self.map.v_status.next = self.zero32.val();
        if self.status_q.q.val() {
            self.map.v_status.next = self.one32.val();
        }
        self.map.v_qp_sel.next = self.qp_sel.q.val();
        self.map.v_qp_mode_arg.next = self.mode_arg.q.val();
        self.map.v_qp_rate_arg.next = self.rate_arg.q.val();
        self.map.v_qp_status.next = self.snap_status.q.val();
        self.map.v_qp_rc.next = self.snap_rc.q.val();
        self.map.v_qp_rt.next = self.snap_rt.q.val();
        self.map.v_qp_alpha.next = self.snap_alpha.q.val();
        self.map.v_qp_u_lo.next = self.snap_u_lo.q.val();
        self.map.v_qp_u_hi.next = self.snap_u_hi.q.val();
        self.map.v_qp_window.next = self.snap_win.q.val();
        self.map.v_latched_hi.next = self.latched_hi.q.val();
        self.map.v_cnp_received.next = self.cnt_cnp_received.val();
        self.map.v_cnp_sent.next = self.cnt_cnp_sent.val();
        self.map.v_cnp_suppressed.next = self.cnt_cnp_suppressed.val();
        self.map.v_cnp_stall_cycles.next = self.cnt_cnp_stall.val();
        self.map.v_rate_cuts.next = self.cnt_rate_cuts.val();
        self.map.v_increase_fr.next = self.cnt_increase_fr.val();
        self.map.v_increase_ai.next = self.cnt_increase_ai.val();
        self.map.v_increase_hai.next = self.cnt_increase_hai.val();
        self.map.v_bad_qp_events.next = self.bad_sum.q.val();
        self.map.v_reg_decerr.next = self.decerr.q.val();
        self.map.v_reg_slverr.next = self.slverr.q.val();
        self.map.v_ack_bad.next = self.cnt_bad_ack.val();
        self.map.v_ack_ignored.next = self.cnt_ack_ignored.val();
        self.ext_applied.i.next = self.cnt_ack_applied.val();
        self.map.v_ack_applied.next = self.ext_applied.o.val();
        self.ext_commits.i.next = self.cnt_ack_commits.val();
        self.map.v_ack_commits.next = self.ext_commits.o.val();
        self.bad_sum.d.next = self.cnt_bad_qp_cnp.val()
            + self.cnt_bad_qp_tx.val()
            + self.cnt_bad_qp_query.val()
            + self.cnt_bad_qp_rx.val();

        // ---- the compiler's input: the staged parameters (validated, so they fit) ----
        self.params.next.line_rate = self.map.p_line_rate_mbps.val();
        self.params.next.time_reset = self.map.p_rpg_time_reset.val();
        self.params.next.byte_reset = self.map.p_rpg_byte_reset.val();
        self.params.next.threshold = self.map.p_rpg_threshold.val();
        self.params.next.max_rate = self.map.p_rpg_max_rate.val();
        self.params.next.ai_rate = self.map.p_rpg_ai_rate.val();
        self.params.next.hai_rate = self.map.p_rpg_hai_rate.val();
        self.params.next.gd = self.map.p_rpg_gd.val();
        self.params.next.min_dec_fac = self.map.p_rpg_min_dec_fac.val();
        self.params.next.min_rate = self.map.p_rpg_min_rate.val();
        self.params.next.first_rate = self.map.p_rate_to_set_on_first_cnp.val();
        self.params.next.g = self.map.p_dce_tcp_g.val();
        self.params.next.rtt = self.map.p_dce_tcp_rtt.val();
        self.params.next.monitor = self.map.p_rate_reduce_monitor_period.val();
        self.params.next.alpha_init = self.map.p_initial_alpha_value.val();
        self.params.next.clamp_tgt_rate = self.map.p_clamp_tgt_rate.val().any();
        self.params.next.clamp_after_t = self.map.p_clamp_tgt_rate_after_time_inc.val().any();
        self.params.next.cnp_gap = self.map.p_min_time_between_cnps.val();
        self.params.next.per_port = self.map.p_cnp_moderation.val().any();
        self.params.next.dscp = self.map.p_cnp_dscp.val();
        self.params.next.prio = self.map.p_cnp_802p_prio.val();
        self.hpcc_params.next.t_ns = self.map.p_hpcc_base_rtt_ns.val();
        self.hpcc_params.next.eta = self.map.p_hpcc_eta.val();
        self.hpcc_params.next.max_stage = self.map.p_hpcc_max_stage.val();
        self.hpcc_params.next.ai_mbps = self.map.p_hpcc_rate_ai_mbps.val();
        self.hpcc_params.next.multi = self.map.p_hpcc_int_multi.val();
        // The max rate (as the DCQCN compiler takes it) and the floor at most that.
        self.hp_max.next = self.map.p_line_rate_mbps.val();
        if (self.map.p_rpg_max_rate.val() != self.zero_mbps.val())
            & (self.map.p_rpg_max_rate.val() < self.map.p_line_rate_mbps.val())
        {
            self.hp_max.next = self.map.p_rpg_max_rate.val();
        }
        self.hp_min.next = self.map.p_hpcc_min_rate_mbps.val();
        if self.map.p_hpcc_min_rate_mbps.val() > self.hp_max.val() {
            self.hp_min.next = self.hp_max.val();
        }
        self.hpcc_params.next.max_mbps = self.hp_max.val();
        self.hpcc_params.next.min_mbps = self.hp_min.val();

        // ---- apply: start the compiler, hold the core, restart the time base at commit ----
        self.cfg_start.next = self.apply_q.q.val();
        self.core_reset.next = self.apply_q.q.val() | self.cfg_busy.val();
        self.cfg_busy_q.d.next = self.cfg_busy.val();
        self.tb_restart_q.d.next = self.cfg_busy_q.q.val() & !self.cfg_busy.val();
        self.tb_restart.next = self.tb_restart_q.q.val();
        self.apply_q.d.next = false;
        if self.apply_q.q.val() {
            self.app_line_rate.d.next = self.map.p_line_rate_mbps.val();
            self.p_alpha.d.next = self.map.p_dce_tcp_rtt.val();
            self.p_dec.d.next = self.map.p_rate_reduce_monitor_period.val();
            self.p_inc.d.next = self.map.p_rpg_time_reset.val();
            self.p_cnp.d.next = self.map.p_min_time_between_cnps.val();
            if self.map.p_min_time_between_cnps.val() == self.zero_rem.val() {
                self.p_cnp.d.next = self.one_rem.val();
            }
        }
        self.ext_line.i.next = self.app_line_rate.q.val();
        self.tb_p_alpha.next = self.p_alpha.q.val();
        self.tb_p_dec.next = self.p_dec.q.val();
        self.tb_p_inc.next = self.p_inc.q.val();
        self.tb_p_cnp.next = self.p_cnp.q.val();

        // ---- QP commands ----
        self.m_ctl_valid.next = self.state.q.val() == self.st_cmd.val();
        self.m_ctl_qp.next = self.qp_sel.q.val().get_bits::<QB>(0);
        self.m_ctl_op.next = self.ctl_op.q.val();
        self.m_ctl_mode.next = self.mode_arg.q.val().get_bits::<MODE_W>(0);
        self.ext_rate.i.next = self.rate_arg.q.val().get_bits::<20>(0);
        self.m_ctl_rate.next = self.ext_rate.o.val() << 8;
        if (self.state.q.val() == self.st_cmd.val()) & self.m_ctl_ready.val() {
            self.state.d.next = self.st_wait.val();
        }
        self.ext_rc.i.next = self.rep_rc.val();
        self.ext_rt.i.next = self.rep_rt.val();
        self.ext_alpha.i.next = self.rep_alpha.val();
        self.ext_mode.i.next = self.rep_mode.val();
        self.ext_u_hi.i.next = self.rep_u.val().get_bits::<8>(32);

        // ---- the access ----
        self.reg_ack.next = false;
        self.reg_rdata.next = self.zero32.val();
        self.reg_resp.next = self.resp_okay.val();
        // A write's checks, registered every cycle. A write is accepted (`wr_acc`), the
        // map registers the parameters' new values and then their range checks
        // (`wr_chk`), the checks land in `wchk`, and the write is decided from `wchk`
        // (`wr_pend`), while `reg_*` still hold it.
        self.wchk.d.next.mapped = self.map.mapped.val();
        self.wchk.d.next.writable = self.map.writable.val();
        self.wchk.d.next.strb_bad =
            (self.reg_wstrb.val() != self.strb_all.val()) & !self.map.partial_ok.val();
        self.wchk.d.next.is_param = self.map.is_param.val();
        self.wchk.d.next.param_ok = self.map.param_ok.val();
        self.wchk.d.next.is_ctrl = self.map.is_ctrl.val();
        self.wchk.d.next.is_qp_sel = self.map.is_qp_sel.val();
        self.wchk.d.next.is_qp_cmd = self.map.is_qp_cmd.val();
        self.wchk.d.next.is_qp_mode_arg = self.map.is_qp_mode_arg.val();
        self.wchk.d.next.is_qp_rate_arg = self.map.is_qp_rate_arg.val();
        self.wchk.d.next.merged = self.map.merged.val();
        // ... and the comparisons on its merged value, a cycle after it (see `MergedCheck`).
        self.wval.d.next.is0 = self.wchk.q.val().merged == self.zero32.val();
        self.wval.d.next.is1 = self.wchk.q.val().merged == self.one32.val();
        self.wval.d.next.is2 = self.wchk.q.val().merged == self.two32.val();
        self.wval.d.next.gt_mode = self.wchk.q.val().merged > self.three32.val();
        self.wval.d.next.gt_line = self.wchk.q.val().merged > self.ext_line.o.val();
        self.wval.d.next.ge_qps = self.wchk.q.val().merged >= self.qps.val();
        self.wr_acc.d.next = false;
        self.wr_chk.d.next = self.wr_acc.q.val();
        self.wr_pend.d.next = self.wr_chk.q.val();
        self.wr_act.d.next = self.wr_pend.q.val();
        // A read's answer, registered every cycle. A read is accepted (`rd_acc` rises;
        // the map registers which register `addr` selects), its answer lands in `rchk`
        // (`rd_pend` rises) and is returned from there.
        self.rchk.d.next.mapped = self.map.mapped.val();
        self.rchk.d.next.is_counter_lo = self.map.is_counter_lo.val();
        self.rchk.d.next.rdata = self.map.rdata.val();
        self.rchk.d.next.hi_of_lo = self.map.hi_of_lo.val();
        self.rd_acc.d.next = false;
        self.rd_pend.d.next = self.rd_acc.q.val();
        if self.rd_pend.q.val() {
            self.reg_ack.next = true;
            if self.rchk.q.val().mapped {
                self.reg_rdata.next = self.rchk.q.val().rdata;
                if self.rchk.q.val().is_counter_lo {
                    self.latched_hi.d.next = self.rchk.q.val().hi_of_lo;
                }
            } else {
                self.reg_resp.next = self.resp_decerr.val();
            }
        }
        if (self.state.q.val() == self.st_wait.val()) & self.rep_take.val() {
            self.snap_status.d.next = (self.ext_mode.o.val() << 1) | self.zero32.val();
            if self.rep_limited.val() {
                self.snap_status.d.next = (self.ext_mode.o.val() << 1) | self.one32.val();
            }
            self.snap_rc.d.next = self.ext_rc.o.val();
            self.snap_rt.d.next = self.ext_rt.o.val();
            self.snap_alpha.d.next = self.ext_alpha.o.val();
            self.snap_u_lo.d.next = self.rep_u.val().get_bits::<32>(0);
            self.snap_u_hi.d.next = self.ext_u_hi.o.val();
            self.snap_win.d.next = self.rep_window.val();
            self.reg_ack.next = true;
            self.state.d.next = self.st_idle.val();
        }
        if self.reg_valid.val() & (self.state.q.val() == self.st_idle.val()) {
            if !self.reg_write.val() {
                if !self.rd_acc.q.val() & !self.rd_pend.q.val() {
                    self.rd_acc.d.next = true;
                }
            } else if !self.busy.val()
                & !self.wr_acc.q.val()
                & !self.wr_chk.q.val()
                & !self.wr_pend.q.val()
                & !self.wr_act.q.val()
            {
                self.wr_acc.d.next = true;
            }
        }
        // Decide the write in `wchk` (every cycle) into `wact`; it is carried out the
        // cycle after (`wr_act`), so the comparisons on the merged value do not drive the
        // answer, the snapshots or the command registers directly.
        self.wact.d.next.ack = true;
        self.wact.d.next.resp = self.resp_okay.val();
        self.wact.d.next.commit = false;
        self.wact.d.next.apply = false;
        self.wact.d.next.set_mode_arg = false;
        self.wact.d.next.set_rate_arg = false;
        self.wact.d.next.cmd = false;
        self.wact.d.next.set_qp_sel = false;
        self.wact.d.next.op = self.op_query.val();
        self.wact.d.next.value = self.wchk.q.val().merged;
        if self.wr_pend.q.val() {
            if !self.wchk.q.val().mapped {
                self.wact.d.next.resp = self.resp_decerr.val();
            } else if !self.wchk.q.val().writable | self.wchk.q.val().strb_bad {
                self.wact.d.next.resp = self.resp_slverr.val();
            } else if self.wchk.q.val().is_param {
                if self.wchk.q.val().param_ok {
                    self.wact.d.next.commit = true;
                } else {
                    self.wact.d.next.resp = self.resp_slverr.val();
                }
            } else if self.wchk.q.val().is_ctrl {
                if self.wval.q.val().is1 {
                    self.wact.d.next.apply = true;
                } else if !self.wval.q.val().is0 {
                    self.wact.d.next.resp = self.resp_slverr.val();
                }
            } else if self.wchk.q.val().is_qp_mode_arg {
                if self.wval.q.val().gt_mode {
                    self.wact.d.next.resp = self.resp_slverr.val();
                } else {
                    self.wact.d.next.set_mode_arg = true;
                }
            } else if self.wchk.q.val().is_qp_rate_arg {
                if self.wval.q.val().is0 | self.wval.q.val().gt_line {
                    self.wact.d.next.resp = self.resp_slverr.val();
                } else {
                    self.wact.d.next.set_rate_arg = true;
                }
            } else if self.wchk.q.val().is_qp_sel {
                if self.wval.q.val().ge_qps {
                    self.wact.d.next.resp = self.resp_slverr.val();
                } else {
                    self.wact.d.next.ack = false;
                    self.wact.d.next.cmd = true;
                    self.wact.d.next.set_qp_sel = true;
                    self.wact.d.next.op = self.op_query.val();
                }
            } else if self.wchk.q.val().is_qp_cmd {
                if self.wval.q.val().is1 {
                    self.wact.d.next.ack = false;
                    self.wact.d.next.cmd = true;
                    self.wact.d.next.op = self.op_reset.val();
                } else if self.wval.q.val().is2 {
                    self.wact.d.next.ack = false;
                    self.wact.d.next.cmd = true;
                    self.wact.d.next.op = self.op_mode.val();
                } else {
                    self.wact.d.next.resp = self.resp_slverr.val();
                }
            } else {
                self.wact.d.next.resp = self.resp_slverr.val();
            }
        }
        if self.wr_act.q.val() {
            self.reg_ack.next = self.wact.q.val().ack;
            self.reg_resp.next = self.wact.q.val().resp;
            self.map.commit.next = self.wact.q.val().commit;
            if self.wact.q.val().apply {
                self.apply_q.d.next = true;
                self.snap_status.d.next = self.zero32.val();
                self.snap_rc.d.next = self.zero32.val();
                self.snap_rt.d.next = self.zero32.val();
                self.snap_alpha.d.next = self.zero32.val();
                self.snap_u_lo.d.next = self.zero32.val();
                self.snap_u_hi.d.next = self.zero32.val();
                self.snap_win.d.next = self.zero32.val();
            }
            if self.wact.q.val().set_mode_arg {
                self.mode_arg.d.next = self.wact.q.val().value;
            }
            if self.wact.q.val().set_rate_arg {
                self.rate_arg.d.next = self.wact.q.val().value;
            }
            if self.wact.q.val().set_qp_sel {
                self.qp_sel.d.next = self.wact.q.val().value;
            }
            if self.wact.q.val().cmd {
                self.ctl_op.d.next = self.wact.q.val().op;
                self.state.d.next = self.st_cmd.val();
            }
        }
        // The error counters count one cycle after the answer (from a register), so the
        // response logic does not drive their 48-bit enables.
        self.err_dec.d.next = self.reg_ack.val() & (self.reg_resp.val() == self.resp_decerr.val());
        self.err_slv.d.next = self.reg_ack.val() & (self.reg_resp.val() == self.resp_slverr.val());
        if self.err_dec.q.val() {
            self.decerr.d.next = self.decerr.q.val() + self.one_count.val();
        }
        if self.err_slv.q.val() {
            self.slverr.d.next = self.slverr.q.val() + self.one_count.val();
        }

        if self.reset.val() {
            self.state.d.next = self.st_idle.val();
            self.qp_sel.d.next = self.zero32.val();
            self.mode_arg.d.next = self.zero32.val();
            self.rate_arg.d.next = self.one32.val();
            self.snap_status.d.next = self.zero32.val();
            self.snap_rc.d.next = self.zero32.val();
            self.snap_rt.d.next = self.zero32.val();
            self.snap_alpha.d.next = self.zero32.val();
            self.snap_u_lo.d.next = self.zero32.val();
            self.snap_u_hi.d.next = self.zero32.val();
            self.snap_win.d.next = self.zero32.val();
            self.latched_hi.d.next = self.zero32.val();
            self.decerr.d.next = self.zero_count.val();
            self.slverr.d.next = self.zero_count.val();
            self.apply_q.d.next = true;
            self.cfg_busy_q.d.next = false;
            self.tb_restart_q.d.next = false;
            self.wr_acc.d.next = false;
            self.wr_chk.d.next = false;
            self.wr_pend.d.next = false;
            self.wr_act.d.next = false;
            self.rd_acc.d.next = false;
            self.rd_pend.d.next = false;
            self.err_dec.d.next = false;
            self.err_slv.d.next = false;
        }
    }
}
