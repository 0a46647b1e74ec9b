//! `HpccCfg`: the HPCC part of the configuration compiler. From hpcc.md's parameters as the
//! host writes them ([`HpccParamWord`]) it computes the window unit's hardware form: the
//! reciprocal of T, the window constant `T / 2048000`, and per link-rate code the constants
//! of the tx and queue terms of a hop's load (`CodeConsts`). The bit-accurate statement is
//! `roce_cc_sim::hpcc_window::HpccConfig::new`; `docs/hpcc_window.md` gives the formats.
//!
//! Every constant is an 18-bit mantissa and a shift. Each is one job of a small sequencer
//! that owns no DSP block: a shift-and-add multiply (one bit of the 18-bit operand per
//! cycle), a normalisation that moves the product's leading one to bit 39 (four or one
//! bits per cycle), and a rounding to 18 bits, half up, a carry out renormalising
//! (`ScaledConst::norm`). The shift of a result is counted along the way: a job's starting
//! shift (from the link table, and `1/T`'s for the queue constants) plus the
//! normalisation's shifts less the rounding's carry, modulo 256.
//!
//! ```text
//!  start ─► T_NORM (11) ─► DIV (38) ─► INV (1) ─► 25 jobs x [SETUP MUL(18) NORM(8) ROUND] ─► DONE
//!           T << s, its     2^38 / (T << s),       win: T * c_win
//!           leading one     restoring              tx, code c: multi * c_tx(c)
//!           at bit 19                              queue, code c: (1/T) * c_q(c), then * multi
//! ```
//!
//! `1/T`: with `T << s` in `[2^19, 2^20)`, `Q = floor(2^38 / (T << s))`. The mantissa is
//! `((Q >> 1) + 1) >> 1` one place up if that is `2^17` (T at or just above a power of
//! two), else `(Q + 1) >> 1`. So the exponent is the largest whose rounded quotient has 18
//! bits, as in `ScaledConst::ratio(1, T, 0)` ([`ratio_m_e`]). Every phase has a fixed length, so `busy` is high for
//! exactly [`HPCC_CFG_CYCLES`] cycles from the one after `start`, whatever the parameters.
//! A `start` while idle latches the parameters at that edge; `start` while busy is ignored;
//! the outputs change only at the edge where `busy` falls and are zero after `reset`
//! until the first compile.

use super::hop_load::{CodeConsts, KM_W, KQ_SH_W, KTX_SH_W};
use super::rate_step::{RATE_W, STAGE_W};
use super::weight::T_W;
use super::window::HpccCfgWord;
use crate::cfg_compiler::MBPS_W;
use crate::zero_ext::ZeroExt;
use rust_hdl::prelude::*;

/// Link rates of the eight INT rate codes, Gb/s.
pub const LINK_GBPS: [u32; 8] = [25, 50, 100, 200, 400, 800, 10, 40];
/// Width of `hpcc_int_multi` (1..=64).
pub const MULTI_W: usize = 7;
/// Jobs of one compile: the window constant, eight tx constants, eight queue constants of
/// two multiplies each.
pub const JOBS: usize = 25;
/// Results kept: every job's but the first multiply of a queue constant.
const RESULTS: usize = 17;
/// Cycles of one job: SETUP, MUL (18), NORM (8), ROUND.
const JOB_CYCLES: u32 = 1 + 18 + 8 + 1;
/// Cycles `busy` is high for one compile.
pub const HPCC_CFG_CYCLES: u32 = 11 + 38 + 1 + JOBS as u32 * JOB_CYCLES + 1;

/// `num / den * 2^scale` as an 18-bit mantissa `m` (`2^17 <= m < 2^18`) and the exponent
/// `e` of `m * 2^e`, the quotient rounded half up: the constants of the link table.
pub fn ratio_m_e(num: u128, den: u128, scale: i32) -> (u32, i32) {
    assert!(num > 0 && den > 0);
    let q = |e: i32| -> u128 {
        let (n, d) = if e <= 0 {
            (num << (-e) as u32, den)
        } else {
            (num, den << e as u32)
        };
        (2 * n / d + 1) / 2
    };
    let mut e = 0i32;
    while q(e) >= 1 << 18 {
        e += 1;
    }
    while q(e) < 1 << 17 {
        e -= 1;
    }
    (q(e) as u32, e + scale)
}

/// The tx constant of code `c`: `1024 / B * 2^-16` (`B` in Gb/s).
pub fn c_tx(c: usize) -> (u32, i32) {
    ratio_m_e(1024, LINK_GBPS[c] as u128, 24 - 40)
}

/// The queue constant of code `c`: `640 / B * 2^24`.
pub fn c_q(c: usize) -> (u32, i32) {
    ratio_m_e(640, LINK_GBPS[c] as u128, 24)
}

/// The window's constant: `1 / 2048000` (bytes per Mb/s Q.8 and ns).
pub fn c_win() -> (u32, i32) {
    ratio_m_e(1, 8000 << 8, 0)
}

/// hpcc.md's parameters as the host writes them (ranges as in `roce_cc_params::SPECS`).
#[derive(Clone, Copy, Debug, Default, PartialEq, LogicStruct)]
pub struct HpccParamWord {
    /// `hpcc_base_rtt_ns`, T (1000..=1000000).
    pub t_ns: Bits<T_W>,
    /// `hpcc_eta`, 1/1024 (512..=1024).
    pub eta: Bits<11>,
    /// `hpcc_max_stage` (0..=15).
    pub max_stage: Bits<STAGE_W>,
    /// `hpcc_rate_ai_mbps`.
    pub ai_mbps: Bits<MBPS_W>,
    /// `hpcc_min_rate_mbps`.
    pub min_mbps: Bits<MBPS_W>,
    /// The max rate (dcqcn.md's: `rpg_max_rate`, else the line rate), Mb/s.
    pub max_mbps: Bits<MBPS_W>,
    /// `hpcc_int_multi` (1..=64).
    pub multi: Bits<MULTI_W>,
}

const PH_IDLE: u64 = 0;
const PH_TNORM: u64 = 1;
const PH_DIV: u64 = 2;
const PH_INV: u64 = 3;
const PH_SETUP: u64 = 4;
const PH_MUL: u64 = 5;
const PH_NORM: u64 = 6;
const PH_ROUND: u64 = 7;
const PH_DONE: u64 = 8;

/// Operand `a` of a job: T.
const A_T: u64 = 0;
/// Operand `a`: `hpcc_int_multi`.
const A_MULTI: u64 = 1;
/// Operand `a`: the mantissa of `1/T`.
const A_INV: u64 = 2;

/// One job of the table: operands, starting shift, whether the result is kept.
#[derive(Clone, Copy)]
struct Job {
    a: u64,
    /// `b` is the last result's mantissa (else `b_const`).
    b_last: bool,
    b_const: u64,
    /// The shift goes on from the last job's (else it starts at `sh_const`).
    keep_sh: bool,
    /// `sh_const` plus the shift of `1/T` (`ws_base`).
    add_ws: bool,
    sh_const: i32,
    store: bool,
}

/// The jobs in order: the window, the tx constants of codes 0..8, then per code the queue
/// constant's two multiplies. The starting shifts (see the module doc): a result
/// `m * 2^e` from `x * 2^e0` normalised by `s` shifts with carry `c` has
/// `e = e0 + 22 - s + c`; the unit stores `pre - e` (`pre` = 0, 2, 9 for the window, tx and
/// queue constants), so a job starts at `pre - e0 - 22` and counts `+s - c`; the queue
/// constant's second multiply adds another `-22`, and `e0` holds `1/T`'s exponent
/// `17 - ws_base`.
fn jobs() -> [Job; JOBS] {
    let none = Job {
        a: A_T,
        b_last: false,
        b_const: 0,
        keep_sh: false,
        add_ws: false,
        sh_const: 0,
        store: true,
    };
    let mut j = [none; JOBS];
    let (wm, we) = c_win();
    j[0] = Job {
        b_const: wm as u64,
        sh_const: -we - 22,
        ..none
    };
    for c in 0..8 {
        let (tm, te) = c_tx(c);
        j[1 + c] = Job {
            a: A_MULTI,
            b_const: tm as u64,
            sh_const: 2 - te - 22,
            ..none
        };
        let (qm, qe) = c_q(c);
        j[9 + 2 * c] = Job {
            a: A_INV,
            b_const: qm as u64,
            add_ws: true,
            sh_const: 9 - qe - 17 - 44,
            store: false,
            ..none
        };
        j[10 + 2 * c] = Job {
            a: A_MULTI,
            b_last: true,
            keep_sh: true,
            ..none
        };
    }
    j
}

/// The HPCC configuration compiler.
#[derive(LogicBlock)]
pub struct HpccCfg {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset, active high: idle, outputs zero.
    pub reset: Signal<In, Bit>,
    /// The parameters (latched at the `start` edge).
    pub params: Signal<In, HpccParamWord>,
    /// Compile `params` (ignored while busy).
    pub start: Signal<In, Bit>,
    /// A compile is running.
    pub busy: Signal<Out, Bit>,
    /// The window unit's configuration (changes only when `busy` falls).
    pub cfg: Signal<Out, HpccCfgWord>,
    /// The per-code constants of a hop's load (changes only when `busy` falls).
    pub cfg_k: Signal<Out, CodeConsts>,

    p: DFF<HpccParamWord>,
    phase: DFF<Bits<4>>,
    busy_q: DFF<Bit>,
    cnt: DFF<Bits<6>>,
    job: DFF<Bits<5>>,
    /// T shifted until its leading one is at bit 19, and the shifts.
    tn: DFF<Bits<T_W>>,
    st: DFF<Bits<6>>,
    rem: DFF<Bits<21>>,
    quo: DFF<Bits<20>>,
    inv_m: DFF<Bits<KM_W>>,
    ws: DFF<Bits<6>>,
    /// The job's product, then its normalised form.
    x: DFF<Bits<40>>,
    a: DFF<Bits<20>>,
    b: DFF<Bits<KM_W>>,
    /// The job's shift, modulo 256.
    sh: DFF<Bits<8>>,
    last_m: DFF<Bits<KM_W>>,
    /// The results, oldest first once all are in (a shift register).
    res_m: [DFF<Bits<KM_W>>; RESULTS],
    res_sh: [DFF<Bits<8>>; RESULTS],
    cfg_q: DFF<HpccCfgWord>,
    k_q: DFF<CodeConsts>,
    // ---- the job table ----
    k_job: [Constant<Bits<5>>; JOBS],
    k_a: [Constant<Bits<2>>; JOBS],
    k_blast: [Constant<Bit>; JOBS],
    k_b: [Constant<Bits<KM_W>>; JOBS],
    k_keep: [Constant<Bit>; JOBS],
    k_ws: [Constant<Bit>; JOBS],
    k_sh: [Constant<Bits<8>>; JOBS],
    k_store: [Constant<Bit>; JOBS],
    // ---- the job's table entry ----
    j_a: Signal<Local, Bits<2>>,
    j_blast: Signal<Local, Bit>,
    j_b: Signal<Local, Bits<KM_W>>,
    j_keep: Signal<Local, Bit>,
    j_ws: Signal<Local, Bit>,
    j_sh: Signal<Local, Bits<8>>,
    j_store: Signal<Local, Bit>,
    // ---- datapath ----
    rem2: Signal<Local, Bits<21>>,
    tn21: Signal<Local, Bits<21>>,
    q1: Signal<Local, Bits<20>>,
    q_half1: Signal<Local, Bits<20>>,
    a_sel: Signal<Local, Bits<20>>,
    a40: Signal<Local, Bits<40>>,
    x_top: Signal<Local, Bits<19>>,
    x_top1: Signal<Local, Bits<20>>,
    m19: Signal<Local, Bits<19>>,
    m_new: Signal<Local, Bits<KM_W>>,
    sh_new: Signal<Local, Bits<8>>,
    /// The bits of the roundings' sums that no result takes (Verilator's `*unused*`).
    round_unused: Signal<Local, Bits<20>>,
    ext_tn: ZeroExt<T_W, 21>,
    ext_multi: ZeroExt<MULTI_W, 20>,
    ext_inv: ZeroExt<KM_W, 20>,
    ext_a: ZeroExt<20, 40>,
    ext_top: ZeroExt<19, 20>,
    ext_ws: ZeroExt<6, 8>,
    ext_ai: ZeroExt<MBPS_W, RATE_W>,
    ext_min: ZeroExt<MBPS_W, RATE_W>,
    ext_max: ZeroExt<MBPS_W, RATE_W>,
    k_ph: [Constant<Bits<4>>; 9],
    k_cnt_tnorm: Constant<Bits<6>>,
    k_cnt_div: Constant<Bits<6>>,
    k_cnt_mul: Constant<Bits<6>>,
    k_cnt_norm: Constant<Bits<6>>,
    k_last_job: Constant<Bits<5>>,
    k_one6: Constant<Bits<6>>,
    k_one5: Constant<Bits<5>>,
    k_one8: Constant<Bits<8>>,
    k_four8: Constant<Bits<8>>,
    k_one20: Constant<Bits<20>>,
    k_one21: Constant<Bits<21>>,
    k_zero4: Constant<Bits<4>>,
    k_a_t: Constant<Bits<2>>,
    k_a_multi: Constant<Bits<2>>,
    k_m_min: Constant<Bits<KM_W>>,
    k_ws54: Constant<Bits<6>>,
    k_ws53: Constant<Bits<6>>,
    k_zero_cfg: Constant<HpccCfgWord>,
    k_zero_k: Constant<CodeConsts>,
}

impl Default for HpccCfg {
    fn default() -> Self {
        let t = jobs();
        let sh = |v: i32| Constant::new(((v.rem_euclid(256)) as u64).into());
        Self {
            clock: Default::default(),
            reset: Default::default(),
            params: Default::default(),
            start: Default::default(),
            busy: Default::default(),
            cfg: Default::default(),
            cfg_k: Default::default(),
            p: Default::default(),
            phase: Default::default(),
            busy_q: Default::default(),
            cnt: Default::default(),
            job: Default::default(),
            tn: Default::default(),
            st: Default::default(),
            rem: Default::default(),
            quo: Default::default(),
            inv_m: Default::default(),
            ws: Default::default(),
            x: Default::default(),
            a: Default::default(),
            b: Default::default(),
            sh: Default::default(),
            last_m: Default::default(),
            res_m: Default::default(),
            res_sh: Default::default(),
            cfg_q: Default::default(),
            k_q: Default::default(),
            k_job: std::array::from_fn(|j| Constant::new((j as u64).into())),
            k_a: std::array::from_fn(|j| Constant::new(t[j].a.into())),
            k_blast: std::array::from_fn(|j| Constant::new(t[j].b_last)),
            k_b: std::array::from_fn(|j| Constant::new(t[j].b_const.into())),
            k_keep: std::array::from_fn(|j| Constant::new(t[j].keep_sh)),
            k_ws: std::array::from_fn(|j| Constant::new(t[j].add_ws)),
            k_sh: std::array::from_fn(|j| sh(t[j].sh_const)),
            k_store: std::array::from_fn(|j| Constant::new(t[j].store)),
            j_a: Default::default(),
            j_blast: Default::default(),
            j_b: Default::default(),
            j_keep: Default::default(),
            j_ws: Default::default(),
            j_sh: Default::default(),
            j_store: Default::default(),
            rem2: Default::default(),
            tn21: Default::default(),
            q1: Default::default(),
            q_half1: Default::default(),
            a_sel: Default::default(),
            a40: Default::default(),
            x_top: Default::default(),
            x_top1: Default::default(),
            m19: Default::default(),
            m_new: Default::default(),
            sh_new: Default::default(),
            round_unused: Default::default(),
            ext_tn: Default::default(),
            ext_multi: Default::default(),
            ext_inv: Default::default(),
            ext_a: Default::default(),
            ext_top: Default::default(),
            ext_ws: Default::default(),
            ext_ai: Default::default(),
            ext_min: Default::default(),
            ext_max: Default::default(),
            k_ph: std::array::from_fn(|i| Constant::new((i as u64).into())),
            k_cnt_tnorm: Constant::new(10.into()),
            k_cnt_div: Constant::new(37.into()),
            k_cnt_mul: Constant::new(17.into()),
            k_cnt_norm: Constant::new(7.into()),
            k_last_job: Constant::new(((JOBS - 1) as u64).into()),
            k_one6: Constant::new(1.into()),
            k_one5: Constant::new(1.into()),
            k_one8: Constant::new(1.into()),
            k_four8: Constant::new(4.into()),
            k_one20: Constant::new(1.into()),
            k_one21: Constant::new(1.into()),
            k_zero4: Constant::new(0.into()),
            k_a_t: Constant::new(A_T.into()),
            k_a_multi: Constant::new(A_MULTI.into()),
            k_m_min: Constant::new((1u64 << 17).into()),
            k_ws54: Constant::new(54.into()),
            k_ws53: Constant::new(53.into()),
            k_zero_cfg: Constant::new(HpccCfgWord::default()),
            k_zero_k: Constant::new(CodeConsts::default()),
        }
    }
}

const _: () = assert!(
    PH_IDLE == 0
        && PH_TNORM == 1
        && PH_DIV == 2
        && PH_INV == 3
        && PH_SETUP == 4
        && PH_MUL == 5
        && PH_NORM == 6
        && PH_ROUND == 7
        && PH_DONE == 8
        && RESULTS == 17
        && A_INV == 2
);

impl Logic for HpccCfg {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, p, phase, busy_q, cnt, job, tn, st, rem, quo, inv_m, ws, x, a, b, sh,
            last_m, cfg_q, k_q
        );
        for r in 0..RESULTS {
            self.res_m[r].clock.next = self.clock.val();
            self.res_sh[r].clock.next = self.clock.val();
            self.res_m[r].d.next = self.res_m[r].q.val();
            self.res_sh[r].d.next = self.res_sh[r].q.val();
        }
        // ---- the current job's table entry ----
        self.j_a.next = self.k_a[0].val();
        self.j_blast.next = self.k_blast[0].val();
        self.j_b.next = self.k_b[0].val();
        self.j_keep.next = self.k_keep[0].val();
        self.j_ws.next = self.k_ws[0].val();
        self.j_sh.next = self.k_sh[0].val();
        self.j_store.next = self.k_store[0].val();
        for j in 0..JOBS {
            if self.job.q.val() == self.k_job[j].val() {
                self.j_a.next = self.k_a[j].val();
                self.j_blast.next = self.k_blast[j].val();
                self.j_b.next = self.k_b[j].val();
                self.j_keep.next = self.k_keep[j].val();
                self.j_ws.next = self.k_ws[j].val();
                self.j_sh.next = self.k_sh[j].val();
                self.j_store.next = self.k_store[j].val();
            }
        }
        // ---- datapath ----
        self.ext_tn.i.next = self.tn.q.val();
        self.tn21.next = self.ext_tn.o.val();
        self.rem2.next = self.rem.q.val() << 1;
        self.q1.next = self.quo.q.val() + self.k_one20.val();
        self.q_half1.next = (self.quo.q.val() >> 1) + self.k_one20.val();
        self.ext_multi.i.next = self.p.q.val().multi;
        self.ext_inv.i.next = self.inv_m.q.val();
        self.a_sel.next = self.ext_inv.o.val();
        if self.j_a.val() == self.k_a_t.val() {
            self.a_sel.next = self.p.q.val().t_ns;
        }
        if self.j_a.val() == self.k_a_multi.val() {
            self.a_sel.next = self.ext_multi.o.val();
        }
        self.ext_a.i.next = self.a.q.val();
        self.a40.next = self.ext_a.o.val();
        self.x_top.next = self.x.q.val().get_bits::<19>(21);
        self.ext_top.i.next = self.x_top.val();
        self.x_top1.next = self.ext_top.o.val() + self.k_one20.val();
        self.m19.next = self.x_top1.val().get_bits::<19>(1);
        self.m_new.next = self.m19.val().get_bits::<KM_W>(0);
        self.sh_new.next = self.sh.q.val();
        if self.m19.val().get_bit(18) {
            // The rounding carried out: 2^18 is 2^17 one place up.
            self.m_new.next = self.k_m_min.val();
            self.sh_new.next = self.sh.q.val() - self.k_one8.val();
        }
        self.round_unused.next = self.q1.val() ^ self.q_half1.val() ^ self.x_top1.val();
        self.ext_ws.i.next = self.ws.q.val();
        self.ext_ai.i.next = self.p.q.val().ai_mbps;
        self.ext_min.i.next = self.p.q.val().min_mbps;
        self.ext_max.i.next = self.p.q.val().max_mbps;

        // ---- sequencer ----
        self.cnt.d.next = self.cnt.q.val() + self.k_one6.val();
        if self.phase.q.val() == self.k_ph[0].val() {
            // Idle: the parameters and T load at every edge; `start` moves on.
            self.p.d.next = self.params.val();
            self.tn.d.next = self.params.val().t_ns;
            self.st.d.next = 0.into();
            self.cnt.d.next = 0.into();
            if self.start.val() {
                self.phase.d.next = self.k_ph[1].val();
                self.busy_q.d.next = true;
            }
        } else if self.phase.q.val() == self.k_ph[1].val() {
            // T_NORM: T's leading one to bit 19.
            if !self.tn.q.val().get_bit(19) {
                self.tn.d.next = self.tn.q.val() << 1;
                self.st.d.next = self.st.q.val() + self.k_one6.val();
            }
            if self.cnt.q.val() == self.k_cnt_tnorm.val() {
                self.phase.d.next = self.k_ph[2].val();
                self.cnt.d.next = 0.into();
                self.rem.d.next = self.k_one21.val();
                self.quo.d.next = 0.into();
            }
        } else if self.phase.q.val() == self.k_ph[2].val() {
            // DIV: one quotient bit of 2^38 / (T << s) per cycle (the numerator's leading
            // one is already in the remainder).
            self.rem.d.next = self.rem2.val();
            self.quo.d.next = self.quo.q.val() << 1;
            if self.rem2.val() >= self.tn21.val() {
                self.rem.d.next = self.rem2.val() - self.tn21.val();
                self.quo.d.next = (self.quo.q.val() << 1) | self.k_one20.val();
            }
            if self.cnt.q.val() == self.k_cnt_div.val() {
                self.phase.d.next = self.k_ph[3].val();
            }
        } else if self.phase.q.val() == self.k_ph[3].val() {
            // INV: round the quotient to 18 bits, one place up when that place already
            // rounds to 2^17.
            self.inv_m.d.next = self.q1.val().get_bits::<KM_W>(1);
            self.ws.d.next = self.k_ws54.val() - self.st.q.val();
            if self.q_half1.val().get_bit(18) {
                self.inv_m.d.next = self.q_half1.val().get_bits::<KM_W>(1);
                self.ws.d.next = self.k_ws53.val() - self.st.q.val();
            }
            self.job.d.next = 0.into();
            self.phase.d.next = self.k_ph[4].val();
        } else if self.phase.q.val() == self.k_ph[4].val() {
            // SETUP: the job's operands and starting shift.
            self.x.d.next = 0.into();
            self.a.d.next = self.a_sel.val();
            self.b.d.next = self.j_b.val();
            if self.j_blast.val() {
                self.b.d.next = self.last_m.q.val();
            }
            if !self.j_keep.val() {
                self.sh.d.next = self.j_sh.val();
                if self.j_ws.val() {
                    self.sh.d.next = self.j_sh.val() + self.ext_ws.o.val();
                }
            }
            self.cnt.d.next = 0.into();
            self.phase.d.next = self.k_ph[5].val();
        } else if self.phase.q.val() == self.k_ph[5].val() {
            // MUL: x = a * b, b's bits from the top.
            self.x.d.next = self.x.q.val() << 1;
            if self.b.q.val().get_bit(17) {
                self.x.d.next = (self.x.q.val() << 1) + self.a40.val();
            }
            self.b.d.next = self.b.q.val() << 1;
            if self.cnt.q.val() == self.k_cnt_mul.val() {
                self.cnt.d.next = 0.into();
                self.phase.d.next = self.k_ph[6].val();
            }
        } else if self.phase.q.val() == self.k_ph[6].val() {
            // NORM: the leading one to bit 39, four places at a time while the top four
            // bits are zero.
            if !self.x.q.val().get_bit(39) {
                if self.x.q.val().get_bits::<4>(36) == self.k_zero4.val() {
                    self.x.d.next = self.x.q.val() << 4;
                    self.sh.d.next = self.sh.q.val() + self.k_four8.val();
                } else {
                    self.x.d.next = self.x.q.val() << 1;
                    self.sh.d.next = self.sh.q.val() + self.k_one8.val();
                }
            }
            if self.cnt.q.val() == self.k_cnt_norm.val() {
                self.phase.d.next = self.k_ph[7].val();
            }
        } else if self.phase.q.val() == self.k_ph[7].val() {
            // ROUND: 18 bits, half up; a kept result enters the shift register.
            self.last_m.d.next = self.m_new.val();
            self.sh.d.next = self.sh_new.val();
            if self.j_store.val() {
                for r in 0..(RESULTS - 1) {
                    self.res_m[r].d.next = self.res_m[r + 1].q.val();
                    self.res_sh[r].d.next = self.res_sh[r + 1].q.val();
                }
                self.res_m[16].d.next = self.m_new.val();
                self.res_sh[16].d.next = self.sh_new.val();
            }
            self.job.d.next = self.job.q.val() + self.k_one5.val();
            self.phase.d.next = self.k_ph[4].val();
            if self.job.q.val() == self.k_last_job.val() {
                self.phase.d.next = self.k_ph[8].val();
            }
        } else {
            // DONE: the results to the outputs.
            self.cfg_q.d.next.t_ns = self.p.q.val().t_ns;
            self.cfg_q.d.next.inv_m = self.inv_m.q.val();
            self.cfg_q.d.next.ws_base = self.ws.q.val();
            self.cfg_q.d.next.eta = self.p.q.val().eta;
            self.cfg_q.d.next.max_stage = self.p.q.val().max_stage;
            self.cfg_q.d.next.ai = self.ext_ai.o.val() << 8;
            self.cfg_q.d.next.min_rate = self.ext_min.o.val() << 8;
            self.cfg_q.d.next.max_rate = self.ext_max.o.val() << 8;
            self.cfg_q.d.next.win_m = self.res_m[0].q.val();
            self.cfg_q.d.next.win_sh = self.res_sh[0].q.val().get_bits::<6>(0);
            self.k_q.d.next.ktx_m0 = self.res_m[1].q.val();
            self.k_q.d.next.ktx_m1 = self.res_m[2].q.val();
            self.k_q.d.next.ktx_m2 = self.res_m[3].q.val();
            self.k_q.d.next.ktx_m3 = self.res_m[4].q.val();
            self.k_q.d.next.ktx_m4 = self.res_m[5].q.val();
            self.k_q.d.next.ktx_m5 = self.res_m[6].q.val();
            self.k_q.d.next.ktx_m6 = self.res_m[7].q.val();
            self.k_q.d.next.ktx_m7 = self.res_m[8].q.val();
            self.k_q.d.next.ktx_sh0 = self.res_sh[1].q.val().get_bits::<KTX_SH_W>(0);
            self.k_q.d.next.ktx_sh1 = self.res_sh[2].q.val().get_bits::<KTX_SH_W>(0);
            self.k_q.d.next.ktx_sh2 = self.res_sh[3].q.val().get_bits::<KTX_SH_W>(0);
            self.k_q.d.next.ktx_sh3 = self.res_sh[4].q.val().get_bits::<KTX_SH_W>(0);
            self.k_q.d.next.ktx_sh4 = self.res_sh[5].q.val().get_bits::<KTX_SH_W>(0);
            self.k_q.d.next.ktx_sh5 = self.res_sh[6].q.val().get_bits::<KTX_SH_W>(0);
            self.k_q.d.next.ktx_sh6 = self.res_sh[7].q.val().get_bits::<KTX_SH_W>(0);
            self.k_q.d.next.ktx_sh7 = self.res_sh[8].q.val().get_bits::<KTX_SH_W>(0);
            self.k_q.d.next.kq_m0 = self.res_m[9].q.val();
            self.k_q.d.next.kq_m1 = self.res_m[10].q.val();
            self.k_q.d.next.kq_m2 = self.res_m[11].q.val();
            self.k_q.d.next.kq_m3 = self.res_m[12].q.val();
            self.k_q.d.next.kq_m4 = self.res_m[13].q.val();
            self.k_q.d.next.kq_m5 = self.res_m[14].q.val();
            self.k_q.d.next.kq_m6 = self.res_m[15].q.val();
            self.k_q.d.next.kq_m7 = self.res_m[16].q.val();
            self.k_q.d.next.kq_sh0 = self.res_sh[9].q.val().get_bits::<KQ_SH_W>(0);
            self.k_q.d.next.kq_sh1 = self.res_sh[10].q.val().get_bits::<KQ_SH_W>(0);
            self.k_q.d.next.kq_sh2 = self.res_sh[11].q.val().get_bits::<KQ_SH_W>(0);
            self.k_q.d.next.kq_sh3 = self.res_sh[12].q.val().get_bits::<KQ_SH_W>(0);
            self.k_q.d.next.kq_sh4 = self.res_sh[13].q.val().get_bits::<KQ_SH_W>(0);
            self.k_q.d.next.kq_sh5 = self.res_sh[14].q.val().get_bits::<KQ_SH_W>(0);
            self.k_q.d.next.kq_sh6 = self.res_sh[15].q.val().get_bits::<KQ_SH_W>(0);
            self.k_q.d.next.kq_sh7 = self.res_sh[16].q.val().get_bits::<KQ_SH_W>(0);
            self.phase.d.next = self.k_ph[0].val();
            self.busy_q.d.next = false;
        }
        if self.reset.val() {
            self.phase.d.next = self.k_ph[0].val();
            self.busy_q.d.next = false;
            self.cfg_q.d.next = self.k_zero_cfg.val();
            self.k_q.d.next = self.k_zero_k.val();
        }
        self.busy.next = self.busy_q.q.val();
        self.cfg.next = self.cfg_q.q.val();
        self.cfg_k.next = self.k_q.q.val();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every starting shift is in range for the hardware's modulo-256 count, and the
    /// cycle count leaves room inside the DCQCN compile it runs beside.
    #[test]
    fn job_table_and_cycles() {
        let t = jobs();
        assert_eq!(t.iter().filter(|j| j.store).count(), RESULTS);
        for j in &t {
            assert!(j.sh_const.abs() < 128, "{}", j.sh_const);
        }
        assert_eq!(HPCC_CFG_CYCLES, 751);
        assert!(HPCC_CFG_CYCLES < crate::cfg_compiler::COMPILE_CYCLES);
    }
}
