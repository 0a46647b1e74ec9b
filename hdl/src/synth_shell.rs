//! `SynthShell`: the core top wrapped for synthesis alone (utilization and timing), with
//! every core port kept but only three package pins used.
//!
//! The core top has about 1700 input and 900 output bits, several times the user IOs of an
//! ECP5 package (CABGA381: 197 on the LFE5U-85F). Left as top-level ports they cannot be
//! placed; tied off or left open, synthesis would remove the logic they drive or read. The
//! shell keeps them all:
//!
//! ```text
//!            ┌──────────────────────────── synth_shell ────────────────────────────┐
//!  sin ──────┤► input shift register (IN_W FFs) ──► every core input (ShellIn)     │
//!            │                                          │                          │
//!            │                                    RoceCcCore<QB>                   │
//!            │                                          │                          │
//!            │   every core output ──► capture register (ShellOut + 2 QP buses)    │
//!            │      ──► per-port XOR ──► signature register (one FF per port) ─────┼──► sout
//!  clock ────┤                                                                     │
//!            └─────────────────────────────────────────────────────────────────────┘
//! ```
//!
//! - **Inputs.** One shift register of [`IN_W`] flip-flops is loaded serially from `sin`;
//!   its bits, taken as a [`ShellIn`], drive every core input (reset, the event streams,
//!   the ACK stream, the time base, the parameter words, the power-table port, the ready
//!   inputs). Every input is an independent, non-constant register output, as it is behind the register
//!   block and the NIC's pipeline in a real design.
//! - **Outputs.** Every core output is registered once as it leaves the core (the capture
//!   register, [`ShellOut`] plus the two `2^QB`-wide QP buses), so the core's own paths end
//!   at a flip-flop and no shell logic is added to them. Each captured port is then reduced
//!   by XOR into one stage of a signature register (a chain `f[k] <= f[k-1] ^ xor(port k)`,
//!   one flip-flop per port); the last stage is `sout`. Every output bit reaches `sout`,
//!   and two ports that happen to carry the same value enter the chain at different stages,
//!   so they cannot cancel (a plain XOR of all bits would let synthesis drop both).
//! - **Cost and timing.** The shell adds [`IN_W`] + [`OUT_W`] + `2 QB` + [`FOLD_W`] + 1
//!   flip-flops (see [`shell_ffs`]) and, for the XOR trees, roughly one LUT4 per three
//!   captured bits; no block RAM and no multiplier. All its paths are register to
//!   register: shift register -> shift register (no logic), capture register -> signature
//!   stage (an XOR of at most 48 bits: three LUT4 levels), and signature stage -> next
//!   stage. The core's paths start at shift-register flip-flops (as they would at the
//!   registers feeding it) and end at its own registers or the capture register, so Fmax
//!   is the core's.
//!
//! The shell is for synthesis only: the pins carry no protocol. Its Rust model is
//! complete (it simulates), but no test drives it.

use crate::core_top::{CnpTimeWord, QPN_W, RoceCcCore};
use crate::dcqcn_np::{COUNTER_W, DSCP_W, ECN_W, NpCfgWord, PRIO_W};
use crate::dcqcn_rp::state::{RpCfgWord, TimeWord};
use crate::dcqcn_rp::widths::*;
use crate::hpcc_window::hop_load::{CodeConsts, U_W};
use crate::hpcc_window::window::{HpccCfgWord, IntHop, WIN_W};
use crate::zero_ext::ZeroExt;
use rust_hdl::prelude::*;

/// Width of the command's QP field in the shift register (the core takes its low `QB` bits).
pub const CTL_QP_W: usize = 14;

/// Every core input, in the order it sits in the input shift register (first field in the
/// least significant bits, `sin` enters at bit 0).
#[derive(Clone, Copy, Debug, Default, PartialEq, LogicStruct)]
pub struct ShellIn {
    pub reset: Bit,
    pub ctl_valid: Bit,
    pub ctl_qp: Bits<CTL_QP_W>,
    pub ctl_op: Bits<CTL_OP_W>,
    pub ctl_mode: Bits<MODE_W>,
    pub ctl_rate: Bits<RATE_W>,
    pub cnp_valid: Bit,
    pub cnp_qpn: Bits<QPN_W>,
    pub tx_valid: Bit,
    pub tx_qpn: Bits<QPN_W>,
    pub tx_bytes: Bits<BYTES_W>,
    pub query_valid: Bit,
    pub query_qpn: Bits<QPN_W>,
    pub rx_valid: Bit,
    pub rx_qpn: Bits<QPN_W>,
    pub rx_ecn: Bits<ECN_W>,
    pub rate_ready: Bit,
    pub cnp_ready: Bit,
    pub now: TimeWord,
    pub now_cnp: CnpTimeWord,
    pub rp_cfg: RpCfgWord,
    pub np_cfg: NpCfgWord,
    pub tbl_we: Bit,
    pub tbl_addr: Bits<TBL_ADDR_W>,
    pub tbl_data: Bits<POW_W>,
    pub ack_valid: Bit,
    pub ack_qpn: Bits<QPN_W>,
    pub ack_seq: Bits<32>,
    pub ack_snd_nxt: Bits<32>,
    pub ack_nhop: Bits<3>,
    pub ack_h0: IntHop,
    pub ack_h1: IntHop,
    pub ack_h2: IntHop,
    pub ack_h3: IntHop,
    pub ack_h4: IntHop,
    pub hpcc_cfg: HpccCfgWord,
    pub hpcc_k: CodeConsts,
}

/// Every core output except the two `2^QB`-wide QP buses (a `LogicStruct` cannot be
/// generic), as captured.
#[derive(Clone, Copy, Debug, Default, PartialEq, LogicStruct)]
pub struct ShellOut {
    pub ctl_ready: Bit,
    pub cnp_ready: Bit,
    pub tx_ready: Bit,
    pub query_ready: Bit,
    pub rx_ready: Bit,
    pub rate_valid: Bit,
    pub rate_query: Bit,
    pub rate_limited: Bit,
    pub rate_rc: Bits<RATE_W>,
    pub rate_rt: Bits<RATE_W>,
    pub rate_alpha: Bits<ALPHA_W>,
    pub rate_mode: Bits<MODE_W>,
    pub rate_ctl: Bit,
    pub cnp_valid: Bit,
    pub cnp_dscp: Bits<DSCP_W>,
    pub cnp_prio: Bits<PRIO_W>,
    pub busy: Bit,
    pub cnt_bad_qp_cnp: Bits<COUNTER_W>,
    pub cnt_bad_qp_tx: Bits<COUNTER_W>,
    pub cnt_bad_qp_query: Bits<COUNTER_W>,
    pub cnt_bad_qp_rx: Bits<COUNTER_W>,
    pub cnt_cnp_received: Bits<COUNTER_W>,
    pub cnt_rate_cuts: Bits<COUNTER_W>,
    pub cnt_increase_fr: Bits<COUNTER_W>,
    pub cnt_increase_ai: Bits<COUNTER_W>,
    pub cnt_increase_hai: Bits<COUNTER_W>,
    pub cnt_cnp_sent: Bits<COUNTER_W>,
    pub cnt_cnp_suppressed: Bits<COUNTER_W>,
    pub cnt_cnp_stall: Bits<COUNTER_W>,
    pub ack_ready: Bit,
    pub rate_u: Bits<U_W>,
    pub rate_window: Bits<WIN_W>,
    pub cnt_bad_ack: Bits<COUNTER_W>,
    pub cnt_ack_ignored: Bits<COUNTER_W>,
    pub cnt_ack_applied: Bits<32>,
    pub cnt_ack_commits: Bits<32>,
}

/// The signature register: one stage per captured output port, in chain order.
#[derive(Clone, Copy, Debug, Default, PartialEq, LogicStruct)]
pub struct ShellFold {
    pub ctl_ready: Bit,
    pub cnp_ready: Bit,
    pub tx_ready: Bit,
    pub query_ready: Bit,
    pub rx_ready: Bit,
    pub rate_valid: Bit,
    pub rate_qp: Bit,
    pub rate_query: Bit,
    pub rate_limited: Bit,
    pub rate_rc: Bit,
    pub rate_rt: Bit,
    pub rate_alpha: Bit,
    pub rate_mode: Bit,
    pub rate_ctl: Bit,
    pub cnp_valid: Bit,
    pub cnp_qp: Bit,
    pub cnp_dscp: Bit,
    pub cnp_prio: Bit,
    pub busy: Bit,
    pub cnt_bad_qp_cnp: Bit,
    pub cnt_bad_qp_tx: Bit,
    pub cnt_bad_qp_query: Bit,
    pub cnt_bad_qp_rx: Bit,
    pub cnt_cnp_received: Bit,
    pub cnt_rate_cuts: Bit,
    pub cnt_increase_fr: Bit,
    pub cnt_increase_ai: Bit,
    pub cnt_increase_hai: Bit,
    pub cnt_cnp_sent: Bit,
    pub cnt_cnp_suppressed: Bit,
    pub cnt_cnp_stall: Bit,
    pub ack_ready: Bit,
    pub rate_u: Bit,
    pub rate_window: Bit,
    pub cnt_bad_ack: Bit,
    pub cnt_ack_ignored: Bit,
    pub cnt_ack_applied: Bit,
    pub cnt_ack_commits: Bit,
}

/// Flip-flops of the input shift register: every core input bit.
pub const IN_W: usize = <ShellIn as Synth>::BITS;
/// Captured core output bits other than the two QP buses.
pub const OUT_W: usize = <ShellOut as Synth>::BITS;
/// Stages of the signature register: one per core output port.
pub const FOLD_W: usize = <ShellFold as Synth>::BITS;

/// Flip-flops the shell itself adds around a core for `2^qb` QPs (before synthesis trims
/// any that hold a constant, e.g. the capture of a core output that is constant).
pub fn shell_ffs(qb: usize) -> usize {
    IN_W + OUT_W + 2 * qb + FOLD_W + 1
}

/// The core top for `2^QB` QPs inside the synthesis shell (`1 <= QB <= 14`).
#[derive(LogicBlock)]
pub struct SynthShell<const QB: usize> {
    /// Clock of the core and the shell.
    pub clock: Signal<In, Clock>,
    /// Serial input of the shift register that drives every core input.
    pub sin: Signal<In, Bits<1>>,
    /// Last stage of the signature register over every core output.
    pub sout: Signal<Out, Bit>,

    core: RoceCcCore<QB>,
    sr: DFF<Bits<IN_W>>,
    sin_ext: ZeroExt<1, IN_W>,
    cin: Signal<Local, ShellIn>,
    /// `ShellIn::ctl_qp`; the core takes its low `QB` bits (the name tells Verilator
    /// that the bits above are unused on purpose).
    ctl_qp_unused_hi: Signal<Local, Bits<CTL_QP_W>>,
    oq: DFF<ShellOut>,
    rate_qp: DFF<Bits<QB>>,
    cnp_qp: DFF<Bits<QB>>,
    fold: DFF<ShellFold>,
    sout_q: DFF<Bit>,
}

impl<const QB: usize> SynthShell<QB> {
    /// The core for `2^QB` QPs in its shell.
    pub fn new() -> Self {
        Self {
            clock: Default::default(),
            sin: Default::default(),
            sout: Default::default(),
            core: RoceCcCore::new(),
            sr: Default::default(),
            sin_ext: Default::default(),
            cin: Default::default(),
            ctl_qp_unused_hi: Default::default(),
            oq: Default::default(),
            rate_qp: Default::default(),
            cnp_qp: Default::default(),
            fold: Default::default(),
            sout_q: Default::default(),
        }
    }
}

impl<const QB: usize> Default for SynthShell<QB> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const QB: usize> Logic for SynthShell<QB> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, sr, oq, rate_qp, cnp_qp, fold, sout_q);
        self.core.clock.next = self.clock.val();

        // ---- input shift register -> every core input ----
        self.sin_ext.i.next = self.sin.val();
        self.sr.d.next = (self.sr.q.val() << 1) | self.sin_ext.o.val();
        self.cin.next = self.sr.q.val().into();
        self.core.reset.next = self.cin.val().reset;
        self.core.s_ctl_valid.next = self.cin.val().ctl_valid;
        self.ctl_qp_unused_hi.next = self.cin.val().ctl_qp;
        self.core.s_ctl_qp.next = self.ctl_qp_unused_hi.val().get_bits::<QB>(0);
        self.core.s_ctl_op.next = self.cin.val().ctl_op;
        self.core.s_ctl_mode.next = self.cin.val().ctl_mode;
        self.core.s_ctl_rate.next = self.cin.val().ctl_rate;
        self.core.s_cnp_valid.next = self.cin.val().cnp_valid;
        self.core.s_cnp_qpn.next = self.cin.val().cnp_qpn;
        self.core.s_tx_valid.next = self.cin.val().tx_valid;
        self.core.s_tx_qpn.next = self.cin.val().tx_qpn;
        self.core.s_tx_bytes.next = self.cin.val().tx_bytes;
        self.core.s_query_valid.next = self.cin.val().query_valid;
        self.core.s_query_qpn.next = self.cin.val().query_qpn;
        self.core.s_rx_valid.next = self.cin.val().rx_valid;
        self.core.s_rx_qpn.next = self.cin.val().rx_qpn;
        self.core.s_rx_ecn.next = self.cin.val().rx_ecn;
        self.core.m_rate_ready.next = self.cin.val().rate_ready;
        self.core.m_cnp_ready.next = self.cin.val().cnp_ready;
        self.core.now.next = self.cin.val().now;
        self.core.now_cnp.next = self.cin.val().now_cnp;
        self.core.rp_cfg.next = self.cin.val().rp_cfg;
        self.core.np_cfg.next = self.cin.val().np_cfg;
        self.core.tbl_we.next = self.cin.val().tbl_we;
        self.core.tbl_addr.next = self.cin.val().tbl_addr;
        self.core.tbl_data.next = self.cin.val().tbl_data;
        self.core.s_ack_valid.next = self.cin.val().ack_valid;
        self.core.s_ack_qpn.next = self.cin.val().ack_qpn;
        self.core.s_ack_seq.next = self.cin.val().ack_seq;
        self.core.s_ack_snd_nxt.next = self.cin.val().ack_snd_nxt;
        self.core.s_ack_nhop.next = self.cin.val().ack_nhop;
        self.core.s_ack_hop[0].next = self.cin.val().ack_h0;
        self.core.s_ack_hop[1].next = self.cin.val().ack_h1;
        self.core.s_ack_hop[2].next = self.cin.val().ack_h2;
        self.core.s_ack_hop[3].next = self.cin.val().ack_h3;
        self.core.s_ack_hop[4].next = self.cin.val().ack_h4;
        self.core.hpcc_cfg.next = self.cin.val().hpcc_cfg;
        self.core.hpcc_k.next = self.cin.val().hpcc_k;

        // ---- every core output -> capture register ----
        self.oq.d.next.ctl_ready = self.core.s_ctl_ready.val();
        self.oq.d.next.cnp_ready = self.core.s_cnp_ready.val();
        self.oq.d.next.tx_ready = self.core.s_tx_ready.val();
        self.oq.d.next.query_ready = self.core.s_query_ready.val();
        self.oq.d.next.rx_ready = self.core.s_rx_ready.val();
        self.oq.d.next.rate_valid = self.core.m_rate_valid.val();
        self.rate_qp.d.next = self.core.m_rate_qp.val();
        self.oq.d.next.rate_query = self.core.m_rate_query.val();
        self.oq.d.next.rate_limited = self.core.m_rate_limited.val();
        self.oq.d.next.rate_rc = self.core.m_rate_rc.val();
        self.oq.d.next.rate_rt = self.core.m_rate_rt.val();
        self.oq.d.next.rate_alpha = self.core.m_rate_alpha.val();
        self.oq.d.next.rate_mode = self.core.m_rate_mode.val();
        self.oq.d.next.rate_ctl = self.core.m_rate_ctl.val();
        self.oq.d.next.cnp_valid = self.core.m_cnp_valid.val();
        self.cnp_qp.d.next = self.core.m_cnp_qp.val();
        self.oq.d.next.cnp_dscp = self.core.m_cnp_dscp.val();
        self.oq.d.next.cnp_prio = self.core.m_cnp_prio.val();
        self.oq.d.next.busy = self.core.busy.val();
        self.oq.d.next.cnt_bad_qp_cnp = self.core.cnt_bad_qp_cnp.val();
        self.oq.d.next.cnt_bad_qp_tx = self.core.cnt_bad_qp_tx.val();
        self.oq.d.next.cnt_bad_qp_query = self.core.cnt_bad_qp_query.val();
        self.oq.d.next.cnt_bad_qp_rx = self.core.cnt_bad_qp_rx.val();
        self.oq.d.next.cnt_cnp_received = self.core.cnt_cnp_received.val();
        self.oq.d.next.cnt_rate_cuts = self.core.cnt_rate_cuts.val();
        self.oq.d.next.cnt_increase_fr = self.core.cnt_increase_fr.val();
        self.oq.d.next.cnt_increase_ai = self.core.cnt_increase_ai.val();
        self.oq.d.next.cnt_increase_hai = self.core.cnt_increase_hai.val();
        self.oq.d.next.cnt_cnp_sent = self.core.cnt_cnp_sent.val();
        self.oq.d.next.cnt_cnp_suppressed = self.core.cnt_cnp_suppressed.val();
        self.oq.d.next.cnt_cnp_stall = self.core.cnt_cnp_stall.val();
        self.oq.d.next.ack_ready = self.core.s_ack_ready.val();
        self.oq.d.next.rate_u = self.core.m_rate_u.val();
        self.oq.d.next.rate_window = self.core.m_rate_window.val();
        self.oq.d.next.cnt_bad_ack = self.core.cnt_bad_ack.val();
        self.oq.d.next.cnt_ack_ignored = self.core.cnt_ack_ignored.val();
        self.oq.d.next.cnt_ack_applied = self.core.cnt_ack_applied.val();
        self.oq.d.next.cnt_ack_commits = self.core.cnt_ack_commits.val();

        // ---- capture register -> signature register, one stage per port -> sout ----
        self.fold.d.next.ctl_ready = self.oq.q.val().ctl_ready;
        self.fold.d.next.cnp_ready = self.fold.q.val().ctl_ready ^ self.oq.q.val().cnp_ready;
        self.fold.d.next.tx_ready = self.fold.q.val().cnp_ready ^ self.oq.q.val().tx_ready;
        self.fold.d.next.query_ready = self.fold.q.val().tx_ready ^ self.oq.q.val().query_ready;
        self.fold.d.next.rx_ready = self.fold.q.val().query_ready ^ self.oq.q.val().rx_ready;
        self.fold.d.next.rate_valid = self.fold.q.val().rx_ready ^ self.oq.q.val().rate_valid;
        self.fold.d.next.rate_qp = self.fold.q.val().rate_valid ^ self.rate_qp.q.val().xor();
        self.fold.d.next.rate_query = self.fold.q.val().rate_qp ^ self.oq.q.val().rate_query;
        self.fold.d.next.rate_limited = self.fold.q.val().rate_query ^ self.oq.q.val().rate_limited;
        self.fold.d.next.rate_rc = self.fold.q.val().rate_limited ^ self.oq.q.val().rate_rc.xor();
        self.fold.d.next.rate_rt = self.fold.q.val().rate_rc ^ self.oq.q.val().rate_rt.xor();
        self.fold.d.next.rate_alpha = self.fold.q.val().rate_rt ^ self.oq.q.val().rate_alpha.xor();
        self.fold.d.next.rate_mode = self.fold.q.val().rate_alpha ^ self.oq.q.val().rate_mode.xor();
        self.fold.d.next.rate_ctl = self.fold.q.val().rate_mode ^ self.oq.q.val().rate_ctl;
        self.fold.d.next.cnp_valid = self.fold.q.val().rate_ctl ^ self.oq.q.val().cnp_valid;
        self.fold.d.next.cnp_qp = self.fold.q.val().cnp_valid ^ self.cnp_qp.q.val().xor();
        self.fold.d.next.cnp_dscp = self.fold.q.val().cnp_qp ^ self.oq.q.val().cnp_dscp.xor();
        self.fold.d.next.cnp_prio = self.fold.q.val().cnp_dscp ^ self.oq.q.val().cnp_prio.xor();
        self.fold.d.next.busy = self.fold.q.val().cnp_prio ^ self.oq.q.val().busy;
        self.fold.d.next.cnt_bad_qp_cnp =
            self.fold.q.val().busy ^ self.oq.q.val().cnt_bad_qp_cnp.xor();
        self.fold.d.next.cnt_bad_qp_tx =
            self.fold.q.val().cnt_bad_qp_cnp ^ self.oq.q.val().cnt_bad_qp_tx.xor();
        self.fold.d.next.cnt_bad_qp_query =
            self.fold.q.val().cnt_bad_qp_tx ^ self.oq.q.val().cnt_bad_qp_query.xor();
        self.fold.d.next.cnt_bad_qp_rx =
            self.fold.q.val().cnt_bad_qp_query ^ self.oq.q.val().cnt_bad_qp_rx.xor();
        self.fold.d.next.cnt_cnp_received =
            self.fold.q.val().cnt_bad_qp_rx ^ self.oq.q.val().cnt_cnp_received.xor();
        self.fold.d.next.cnt_rate_cuts =
            self.fold.q.val().cnt_cnp_received ^ self.oq.q.val().cnt_rate_cuts.xor();
        self.fold.d.next.cnt_increase_fr =
            self.fold.q.val().cnt_rate_cuts ^ self.oq.q.val().cnt_increase_fr.xor();
        self.fold.d.next.cnt_increase_ai =
            self.fold.q.val().cnt_increase_fr ^ self.oq.q.val().cnt_increase_ai.xor();
        self.fold.d.next.cnt_increase_hai =
            self.fold.q.val().cnt_increase_ai ^ self.oq.q.val().cnt_increase_hai.xor();
        self.fold.d.next.cnt_cnp_sent =
            self.fold.q.val().cnt_increase_hai ^ self.oq.q.val().cnt_cnp_sent.xor();
        self.fold.d.next.cnt_cnp_suppressed =
            self.fold.q.val().cnt_cnp_sent ^ self.oq.q.val().cnt_cnp_suppressed.xor();
        self.fold.d.next.cnt_cnp_stall =
            self.fold.q.val().cnt_cnp_suppressed ^ self.oq.q.val().cnt_cnp_stall.xor();
        self.fold.d.next.ack_ready = self.fold.q.val().cnt_cnp_stall ^ self.oq.q.val().ack_ready;
        self.fold.d.next.rate_u = self.fold.q.val().ack_ready ^ self.oq.q.val().rate_u.xor();
        self.fold.d.next.rate_window = self.fold.q.val().rate_u ^ self.oq.q.val().rate_window.xor();
        self.fold.d.next.cnt_bad_ack =
            self.fold.q.val().rate_window ^ self.oq.q.val().cnt_bad_ack.xor();
        self.fold.d.next.cnt_ack_ignored =
            self.fold.q.val().cnt_bad_ack ^ self.oq.q.val().cnt_ack_ignored.xor();
        self.fold.d.next.cnt_ack_applied =
            self.fold.q.val().cnt_ack_ignored ^ self.oq.q.val().cnt_ack_applied.xor();
        self.fold.d.next.cnt_ack_commits =
            self.fold.q.val().cnt_ack_applied ^ self.oq.q.val().cnt_ack_commits.xor();
        self.sout_q.d.next = self.fold.q.val().cnt_ack_commits;
        self.sout.next = self.sout_q.q.val();
    }
}

/// Reading a `LogicStruct` back out of the bits its derive packs it into (first field in
/// the least significant bits): the Rust model of `cin = sr` in the Verilog, where the
/// struct is that bit vector.
trait FromBitsAt: Sized {
    /// The value whose lowest bit is bit `*at` of `b`; advances `*at` past it.
    fn from_bits_at<const M: usize>(b: &Bits<M>, at: &mut usize) -> Self;
}

impl<const N: usize> FromBitsAt for Bits<N> {
    fn from_bits_at<const M: usize>(b: &Bits<M>, at: &mut usize) -> Self {
        let v = b.get_bits::<N>(*at);
        *at += N;
        v
    }
}

impl FromBitsAt for Bit {
    fn from_bits_at<const M: usize>(b: &Bits<M>, at: &mut usize) -> Self {
        let v = b.get_bit(*at);
        *at += 1;
        v
    }
}

/// `FromBitsAt` for a `LogicStruct`, its fields listed in declaration order (the test
/// `from_bits_inverts_the_derive` checks every list against the derive's layout).
macro_rules! from_bits_struct {
    ($t:ty { $($f:ident),* $(,)? }) => {
        impl FromBitsAt for $t {
            fn from_bits_at<const M: usize>(b: &Bits<M>, at: &mut usize) -> Self {
                let mut s = <$t>::default();
                $( s.$f = FromBitsAt::from_bits_at(b, at); )*
                s
            }
        }
    };
}

from_bits_struct!(TimeWord {
    sub,
    a_e,
    a_r,
    d_e,
    d_r,
    i_e,
    i_r
});
from_bits_struct!(CnpTimeWord { e, r });
from_bits_struct!(NpCfgWord {
    no_limit,
    per_port,
    dscp,
    prio
});
from_bits_struct!(RpCfgWord {
    p_alpha,
    p_dec,
    p_inc,
    recip_alpha,
    recip_inc,
    max_rate,
    ai_rate,
    hai_rate,
    min_rate,
    first_rate,
    alpha_init,
    g,
    cut_shift,
    max_cut_q16,
    threshold,
    byte_reset,
    clamp_tgt_rate,
    clamp_after_t,
    recip_ai,
    recip_hai,
});
from_bits_struct!(IntHop { rate, ts, tx, qlen });
from_bits_struct!(HpccCfgWord {
    t_ns,
    inv_m,
    ws_base,
    eta,
    max_stage,
    ai,
    min_rate,
    max_rate,
    win_m,
    win_sh,
});
from_bits_struct!(CodeConsts {
    ktx_m0,
    ktx_m1,
    ktx_m2,
    ktx_m3,
    ktx_m4,
    ktx_m5,
    ktx_m6,
    ktx_m7,
    ktx_sh0,
    ktx_sh1,
    ktx_sh2,
    ktx_sh3,
    ktx_sh4,
    ktx_sh5,
    ktx_sh6,
    ktx_sh7,
    kq_m0,
    kq_m1,
    kq_m2,
    kq_m3,
    kq_m4,
    kq_m5,
    kq_m6,
    kq_m7,
    kq_sh0,
    kq_sh1,
    kq_sh2,
    kq_sh3,
    kq_sh4,
    kq_sh5,
    kq_sh6,
    kq_sh7,
});
from_bits_struct!(ShellIn {
    reset,
    ctl_valid,
    ctl_qp,
    ctl_op,
    ctl_mode,
    ctl_rate,
    cnp_valid,
    cnp_qpn,
    tx_valid,
    tx_qpn,
    tx_bytes,
    query_valid,
    query_qpn,
    rx_valid,
    rx_qpn,
    rx_ecn,
    rate_ready,
    cnp_ready,
    now,
    now_cnp,
    rp_cfg,
    np_cfg,
    tbl_we,
    tbl_addr,
    tbl_data,
    ack_valid,
    ack_qpn,
    ack_seq,
    ack_snd_nxt,
    ack_nhop,
    ack_h0,
    ack_h1,
    ack_h2,
    ack_h3,
    ack_h4,
    hpcc_cfg,
    hpcc_k,
});

impl From<Bits<IN_W>> for ShellIn {
    fn from(b: Bits<IN_W>) -> Self {
        let mut at = 0;
        let s = Self::from_bits_at(&b, &mut at);
        debug_assert_eq!(at, IN_W);
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A pseudo-random `Bits<N>` (xorshift), so every field gets a distinct pattern.
    fn noise<const N: usize>(seed: u64) -> Bits<N> {
        let mut x = seed | 1;
        let mut b = Bits::<N>::default();
        for i in 0..N {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            if x & 1 == 1 {
                b = b | (Bits::<N>::from(1u64) << (i as u64));
            }
        }
        b
    }

    /// bits -> struct (this module) -> bits (the derive) is the identity, so the field
    /// lists above match the derive's layout, field for field.
    #[test]
    fn from_bits_inverts_the_derive() {
        for seed in 1..4u64 {
            let b = noise::<IN_W>(seed);
            let s = ShellIn::from(b);
            let back: Bits<IN_W> = s.into();
            assert_eq!(back, b);
        }
        let mut at = 0;
        let b = noise::<{ <RpCfgWord as Synth>::BITS }>(7);
        let w = RpCfgWord::from_bits_at(&b, &mut at);
        assert_eq!(at, <RpCfgWord as Synth>::BITS);
        let back: Bits<{ <RpCfgWord as Synth>::BITS }> = w.into();
        assert_eq!(back, b);
    }

    #[test]
    fn shell_size() {
        // The counts the docs quote (docs/synthesis.md).
        assert_eq!(IN_W, 1737);
        assert_eq!(OUT_W, 908);
        assert_eq!(shell_ffs(10), 2704);
        assert_eq!(FOLD_W, 38);
    }
}
