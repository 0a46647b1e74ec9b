//! Golden model of the HPCC window unit (`hpcc_window`): `../shared/reference/hpcc.md` in
//! the integer arithmetic the hardware uses, bit for bit. [`HpccWindow::on_ack`] applies one
//! ACK to one QP; [`reference`] is the same behaviour in `f64`, the "real arithmetic" the
//! golden model is held to (2 % on R or 0.1 % of the line rate, 2 % on U or 0.01).
//!
//! Formats (`docs/hpcc_window.md` gives the reasons and the error bounds):
//!
//! | quantity | format | bits |
//! |---|---|---|
//! | R, Rc, R_AI, min and max rate | Mb/s, unsigned Q.8 (as the RP) | 28 |
//! | U, u_i | unsigned Q.24, saturating at `2^40 - 1` (U < 65536) | 40 |
//! | EWMA weight w = tau / T (tau < T; U := u when tau >= T) | 18-bit mantissa, shift | 18 + 6 |
//! | 1/T, T / 2048000 (the window) | 18-bit mantissa and a power of two (`ScaledConst`) | 18 + 7 |
//! | reciprocal of a 24-bit mantissa | `recip_norm`: table of 1025 + linear interpolation | 25 |
//! | per-code tx and queue constants | 18-bit mantissa and a shift (`ScaledConst`) | 18 + 6 |
//! | seq, snd_nxt, last_update_seq | bytes, unsigned, compared as plain integers | 32 |
//!
//! Per hop `i` of an ACK (after the first ACK of a path): `tau = (ts - L.ts) mod 2^24`,
//! `dtx = (tx - L.tx) mod 2^20`, `qmin = min(qlen, L.qlen)`; a hop with `tau = 0` is skipped.
//! `u_i = K_tx[code] * dtx / tau + K_q[code] * qmin` with `K_tx = multi * 1024 / B` and
//! `K_q = multi * 640 / (B * T)` (`B` in Gb/s, which is bit/ns): hpcc.md's
//! `tx_rate / B + qlen * 8 / (B * T)` with the wire units folded into the constants. `1/tau`
//! comes from [`recip_norm`] on the normalised `tau`.

/// Most INT hops an ACK carries.
pub const HOPS_MAX: usize = 5;
/// Width of an INT timestamp, ns.
pub const TS_W: u32 = 24;
/// Width of an INT tx counter (units of `128 * hpcc_int_multi` bytes).
pub const TX_W: u32 = 20;
/// Width of an INT queue length (units of `80 * hpcc_int_multi` bytes).
pub const QLEN_W: u32 = 17;
/// Fractional bits of U and u.
pub const U_FRAC: u32 = 24;
/// Width of U and u (16 integer bits).
pub const U_W: u32 = 40;
/// The largest U the hardware holds.
pub const U_MAX: u64 = (1 << U_W) - 1;
/// Fractional bits of the rates (Mb/s Q.8, as the RP's).
pub const RATE_FRAC: u32 = 8;
/// Width of a rate.
pub const RATE_W: u32 = 28;
/// Largest inc_stage (saturating).
pub const STAGE_MAX: u8 = 15;
/// Link rate, Gb/s, of each INT rate code (hpcc.md: 0..4 as the simulator; 5 = 800,
/// 6 = 10, 7 = 40 added here): the hardware's table.
pub use roce_cc_hdl::hpcc_window::cfg::LINK_GBPS;

/// The reciprocal table is the hardware's own (`roce_cc_hdl::hpcc_window::recip`): entry
/// `i` is `round(2^34 / (1024 + i))`, `2^47 / m` at the mantissa `m = (1024 + i) * 2^13`.
pub use roce_cc_hdl::hpcc_window::recip::recip_table;

/// Index bits of the reciprocal table.
pub const RECIP_IDX_W: u32 = roce_cc_hdl::hpcc_window::recip::RECIP_IDX_W as u32;
/// Interpolation bits of the reciprocal (the mantissa's bits below the index).
pub const RECIP_FRAC_W: u32 = roce_cc_hdl::hpcc_window::recip::RECIP_FRAC_W as u32;

/// `~ 2^47 / m` for a normalised 24-bit mantissa `m` (`2^23 <= m < 2^24`): the table at
/// the top 10 bits below the leading one, minus the slope to the next entry times the 13
/// bits below those (linear interpolation; the chord lies above `1/m`, so the result is
/// high by at most `2^-21` relative, plus the table's rounding). In `(2^23, 2^24]`.
pub fn recip_norm(m: u32) -> u32 {
    assert!(
        (1 << 23..1 << 24).contains(&m),
        "recip_norm({m}): not normalised"
    );
    let i = (m >> RECIP_FRAC_W) & ((1 << RECIP_IDX_W) - 1);
    let f = m & ((1 << RECIP_FRAC_W) - 1);
    let t0 = recip_table(i);
    let slope = t0 - recip_table(i + 1);
    t0 - ((slope as u64 * f as u64) >> RECIP_FRAC_W) as u32
}

/// Position of the most significant set bit (`v > 0`).
fn msb(v: u64) -> u32 {
    63 - v.leading_zeros()
}

/// `v` normalised to a 24-bit mantissa (`2^23 <= m < 2^24`, low bits truncated) and the
/// position of its leading one: `v ~ m * 2^(p - 23)`.
pub fn normalise24(v: u64) -> (u32, u32) {
    assert!(v > 0);
    let p = msb(v);
    let m = if p <= 23 {
        v << (23 - p)
    } else {
        v >> (p - 23)
    };
    (m as u32, p)
}

/// `x * 2^e` for a signed shift, saturating at `max` (a shift right truncates).
fn shift_sat(x: u128, e: i32, max: u64) -> u64 {
    let v = if e >= 0 {
        if x != 0 && (e >= 64 || msb_u128(x) + e as u32 >= 64) {
            return max;
        }
        x << e
    } else if -e >= 128 {
        0
    } else {
        x >> (-e)
    };
    v.min(max as u128) as u64
}

fn msb_u128(v: u128) -> u32 {
    127 - v.leading_zeros()
}

/// A positive constant as an 18-bit mantissa and a power of two: `m * 2^e`
/// (`2^17 <= m < 2^18`, rounded to nearest), or zero.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ScaledConst {
    pub m: u32,
    pub e: i32,
}

impl ScaledConst {
    /// `x * 2^e` (`x > 0`) with `x` rounded to an 18-bit mantissa (half up; a carry out of
    /// the rounding renormalises): how the configuration compiler rounds a product.
    pub fn norm(x: u64, e: i32) -> Self {
        assert!(x > 0);
        let p = msb(x) as i32;
        if p <= 17 {
            return Self {
                m: (x << (17 - p)) as u32,
                e: e - (17 - p),
            };
        }
        let mut m = ((x >> (p - 18)) + 1) >> 1;
        let mut e = e + (p - 17);
        if m == 1 << 18 {
            m = 1 << 17;
            e += 1;
        }
        Self { m: m as u32, e }
    }

    /// The right shift that brings `m * x` to the unit's scale when the unit pre-shifts by
    /// `pre` bits: `pre - e` (what the hardware stores beside the mantissa).
    pub fn shift(&self, pre: i32) -> u32 {
        let sh = pre - self.e;
        assert!(sh >= 0, "{self:?}: shift {sh} below zero");
        sh as u32
    }

    /// `num / den * 2^scale`, rounded to an 18-bit mantissa (half up): the hardware
    /// table's function (`roce_cc_hdl::hpcc_window::cfg::ratio_m_e`).
    pub fn ratio(num: u128, den: u128, scale: i32) -> Self {
        let (m, e) = roce_cc_hdl::hpcc_window::cfg::ratio_m_e(num, den, scale);
        Self { m, e }
    }
}

/// The unit's parameters as hpcc.md states them (the `hpcc_*` keys of PARAMS.toml and the
/// max rate), before the configuration compiler turns them into [`HpccConfig`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HpccParams {
    /// T, the base RTT, ns (1000..=1000000).
    pub base_rtt_ns: u32,
    /// eta, 1/1024 (512..=1024).
    pub eta: u32,
    /// Additive-only updates before a multiplicative one (0..=15).
    pub max_stage: u32,
    /// R_AI, Mb/s.
    pub rate_ai_mbps: u32,
    /// Floor of R, Mb/s.
    pub min_rate_mbps: u32,
    /// Ceiling of R and R after reset, Mb/s (dcqcn.md's max rate).
    pub max_rate_mbps: u32,
    /// Scale of the INT tx and qlen fields (1..=64).
    pub int_multi: u32,
}

impl HpccParams {
    /// The `hpcc_*` parameters of `p` with its max rate (`rpg_max_rate`, else the line
    /// rate); a floor above the max rate is taken as the max rate (as the register block
    /// hands it to the compiler).
    pub fn from_params(p: &roce_cc_params::Params) -> Self {
        let max = p.max_rate_mbps();
        Self {
            base_rtt_ns: p.hpcc_base_rtt_ns,
            eta: p.hpcc_eta,
            max_stage: p.hpcc_max_stage,
            rate_ai_mbps: p.hpcc_rate_ai_mbps,
            min_rate_mbps: p.hpcc_min_rate_mbps.min(max),
            max_rate_mbps: max,
            int_multi: p.hpcc_int_multi,
        }
    }

    /// hpcc.md's defaults with the rate ceiling `max_rate_mbps` (T = 8 us, eta = 0.95,
    /// max_stage 0, R_AI 40 Mb/s, floor 1000 Mb/s, int_multi 1).
    pub fn hpcc_md_defaults(max_rate_mbps: u32) -> Self {
        Self {
            base_rtt_ns: 8000,
            eta: 973,
            max_stage: 0,
            rate_ai_mbps: 40,
            min_rate_mbps: 1000.min(max_rate_mbps),
            max_rate_mbps,
            int_multi: 1,
        }
    }
}

/// The unit's parameters in hardware form (what the configuration compiler computes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HpccConfig {
    /// T, ns.
    pub t_ns: u32,
    /// `1 / T` (ns^-1) as an 18-bit mantissa and a power of two.
    pub inv_t: ScaledConst,
    /// `T / (8000 * 2^8)` (bytes per Mb/s Q.8), for the window, as a scaled constant.
    pub win_k: ScaledConst,
    /// eta, 1/1024.
    pub eta: u32,
    /// Additive-only updates before a multiplicative one.
    pub max_stage: u8,
    /// R_AI, Mb/s Q.8.
    pub ai: u32,
    /// Floor of R, Mb/s Q.8.
    pub min_rate: u32,
    /// Ceiling of R (and R after reset), Mb/s Q.8.
    pub max_rate: u32,
    /// Per rate code: `K_tx * 2^24 * 2^-40` as a scaled constant, so that
    /// `u_tx (Q.24) = K_tx' * dtx * y18 * 2^lz` (see [`HpccWindow::hop_load`]):
    /// `multi` times the code's constant [`c_tx`], rounded.
    pub k_tx: [ScaledConst; 8],
    /// Per rate code: `K_q` in Q.24 as a scaled constant: `u_q (Q.24) = K_q' * qmin`:
    /// the code's constant [`c_q`] times `1/T`, rounded, times `multi`, rounded.
    pub k_q: [ScaledConst; 8],
}

impl HpccConfig {
    /// The hardware form of hpcc.md's parameters in `p`.
    pub fn new(p: &HpccParams) -> Self {
        let t = p.base_rtt_ns;
        let multi = p.int_multi as u64;
        let inv_t = ScaledConst::ratio(1, t as u128, 0);
        let mut k_tx = [ScaledConst::default(); 8];
        let mut k_q = [ScaledConst::default(); 8];
        for c in 0..8 {
            let ct = c_tx(c);
            k_tx[c] = ScaledConst::norm(multi * ct.m as u64, ct.e);
            let cq = c_q(c);
            let q_t = ScaledConst::norm(cq.m as u64 * inv_t.m as u64, cq.e + inv_t.e);
            k_q[c] = ScaledConst::norm(multi * q_t.m as u64, q_t.e);
        }
        let (m, e) = roce_cc_hdl::hpcc_window::cfg::c_win();
        let wk = ScaledConst { m, e };
        const _: () = assert!(RATE_FRAC == 8); // c_win is 1 / (8000 * 2^8)
        Self {
            t_ns: t,
            inv_t,
            win_k: ScaledConst::norm(t as u64 * wk.m as u64, wk.e),
            eta: p.eta,
            max_stage: p.max_stage as u8,
            ai: p.rate_ai_mbps << RATE_FRAC,
            min_rate: p.min_rate_mbps << RATE_FRAC,
            max_rate: p.max_rate_mbps << RATE_FRAC,
            k_tx,
            k_q,
        }
    }

    /// The window of a QP at rate `r` (Mb/s Q.8): `R * T / 8000` bytes as the hardware
    /// computes it, `floor(r * win_k)` (`win_k` within `2^-17` of `T / 2048000`),
    /// saturating at `2^32 - 1` (never reached: at most `2^20` Mb/s times `10^6` ns is
    /// `1.3 * 10^8` bytes).
    pub fn window_bytes(&self, r: u32) -> u32 {
        shift_sat(
            r as u128 * self.win_k.m as u128,
            self.win_k.e,
            u32::MAX as u64,
        ) as u32
    }
}

/// The link rate constant of `K_tx` for code `c`: `1024 / B * 2^-16` (`B` in Gb/s), a
/// table of the hardware (8 entries).
pub fn c_tx(c: usize) -> ScaledConst {
    let (m, e) = roce_cc_hdl::hpcc_window::cfg::c_tx(c);
    ScaledConst { m, e }
}

/// The link rate constant of `K_q` for code `c`: `640 / B * 2^24`, a table of the hardware.
pub fn c_q(c: usize) -> ScaledConst {
    let (m, e) = roce_cc_hdl::hpcc_window::cfg::c_q(c);
    ScaledConst { m, e }
}

/// One INT hop in wire units.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Hop {
    /// Link rate code (0..=7, [`LINK_GBPS`]).
    pub rate: u8,
    /// Timestamp, ns mod 2^24.
    pub ts: u32,
    /// Transmitted bytes / (128 * multi), mod 2^20.
    pub tx: u32,
    /// Queue bytes / (80 * multi).
    pub qlen: u32,
}

/// An ACK: the acknowledged sequence number, the sender's next one, the INT stack.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Ack {
    pub seq: u32,
    pub snd_nxt: u32,
    /// Hops `0..nhop` are valid.
    pub hops: [Hop; HOPS_MAX],
    /// 1..=5.
    pub nhop: u8,
}

/// A QP's HPCC state (one block-RAM word in the hardware).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HpccQp {
    /// R, Mb/s Q.8: the rate the pacer follows.
    pub r: u32,
    /// Rc, Mb/s Q.8: the reference rate.
    pub rc: u32,
    /// U, Q.24.
    pub u: u64,
    pub stage: u8,
    /// 0: no ACK seen yet.
    pub last_seq: u32,
    /// Hops of the path in `l` (0 before the first ACK).
    pub nhop: u8,
    /// The last ACK's hops.
    pub l: [Hop; HOPS_MAX],
}

impl HpccQp {
    /// The state after reset or on entering HPCC mode.
    pub fn initial(cfg: &HpccConfig) -> Self {
        Self {
            r: cfg.max_rate,
            rc: cfg.max_rate,
            u: 1 << U_FRAC,
            stage: 0,
            last_seq: 0,
            nhop: 0,
            l: [Hop::default(); HOPS_MAX],
        }
    }
}

/// What an ACK did (for tests and counters).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AckEffect {
    /// First ACK of a QP or of a new path: L re-initialised.
    NewPath,
    /// No hop had `tau > 0`: only L (and on a commit last_update_seq) changed.
    NoHop { commit: bool },
    /// R (and on a commit Rc and inc_stage) updated.
    Update { commit: bool },
}

/// The golden HPCC window unit: every QP's state.
#[derive(Clone, Debug)]
pub struct HpccWindow {
    pub cfg: HpccConfig,
    pub qps: Vec<HpccQp>,
}

impl HpccWindow {
    /// `qps` QPs, every one in its initial state.
    pub fn new(p: &HpccParams, qps: usize) -> Self {
        let cfg = HpccConfig::new(p);
        Self {
            cfg,
            qps: vec![HpccQp::initial(&cfg); qps],
        }
    }

    /// Reset QP `qp` (reset command, or the QP is put into HPCC mode).
    pub fn reset_qp(&mut self, qp: u32) {
        self.qps[qp as usize] = HpccQp::initial(&self.cfg);
    }

    /// u_i of one hop in Q.24 (saturating), for `tau > 0`.
    pub fn hop_load(cfg: &HpccConfig, code: u8, tau: u32, dtx: u32, qmin: u32) -> u64 {
        debug_assert!(tau > 0 && tau < 1 << TS_W);
        // 1/tau: tau normalised to 24 bits, lz = 23 - msb(tau).
        let (m, p) = normalise24(tau as u64);
        let lz = 23 - p;
        let y18 = (recip_norm(m) + 64) >> 7; // ~ 2^40 / m, rounded to 18 bits
        let ktx = cfg.k_tx[code as usize];
        let prod = ktx.m as u128 * dtx as u128 * y18 as u128;
        let u_tx = shift_sat(prod, ktx.e + lz as i32, U_MAX);
        let kq = cfg.k_q[code as usize];
        let u_q = shift_sat(kq.m as u128 * qmin as u128, kq.e, U_MAX);
        debug_assert!(
            (-33..=-21).contains(&ktx.e) && (-14..=9).contains(&kq.e),
            "{ktx:?} {kq:?}"
        );
        (u_tx + u_q).min(U_MAX)
    }

    /// The EWMA weight `w = tau / T` for `tau < T` as an 18-bit mantissa and the right
    /// shift that applies it: `w ~ wm * 2^-ws` (`tau * inv_t` rounded to 18 bits).
    pub fn weight(cfg: &HpccConfig, tau: u32) -> (u32, u32) {
        debug_assert!(tau > 0 && tau < cfg.t_ns);
        let w = ScaledConst::norm(tau as u64 * cfg.inv_t.m as u64, cfg.inv_t.e);
        (w.m, w.shift(0))
    }

    /// The new U from U, the kept hop's load `u` and its `tau`: `u` when `tau >= T`, else
    /// `U + sign(u - U) * round(|u - U| * wm * 2^-ws)` (sign and magnitude, half up).
    pub fn ewma(cfg: &HpccConfig, u_old: u64, u: u64, tau: u32) -> u64 {
        if tau >= cfg.t_ns {
            return u;
        }
        let (wm, ws) = Self::weight(cfg, tau);
        let mag = u.abs_diff(u_old) as u128 * wm as u128;
        let step = ((mag + (1u128 << (ws - 1))) >> ws) as u64;
        if u >= u_old {
            u_old + step
        } else {
            u_old - step
        }
    }

    /// `Rc / k` with `k = U * 1024 / eta`, Mb/s Q.8 (`U > 0`), saturating at 2^28 - 1.
    /// (`eta * y` is cut to 32 bits, `>> 3`, before it meets `rc`.)
    pub fn rc_over_k(cfg: &HpccConfig, rc: u32, u: u64) -> u32 {
        let (m, p) = normalise24(u);
        let ey = (cfg.eta as u64 * recip_norm(m) as u64) >> 3; // eta / U ~ ey * 2^(3 - p)
        let prod = rc as u128 * ey as u128;
        shift_sat(prod, -(p as i32) - 7, (1 << RATE_W) - 1) as u32
    }

    /// Apply one ACK to QP `qp` (which is in HPCC mode).
    pub fn on_ack(&mut self, qp: u32, ack: &Ack) -> AckEffect {
        let cfg = self.cfg;
        let s = &mut self.qps[qp as usize];
        let n = ack.nhop as usize;
        assert!((1..=HOPS_MAX).contains(&n));
        if s.last_seq == 0 || s.nhop != ack.nhop {
            s.l = ack.hops;
            s.nhop = ack.nhop;
            s.last_seq = ack.snd_nxt;
            return AckEffect::NewPath;
        }
        let commit = ack.seq > s.last_seq;
        let mut best: Option<(u64, u32)> = None;
        for (h, l) in ack.hops[..n].iter().zip(&s.l[..n]) {
            let tau = h.ts.wrapping_sub(l.ts) & ((1 << TS_W) - 1);
            if tau == 0 {
                continue;
            }
            let dtx = h.tx.wrapping_sub(l.tx) & ((1 << TX_W) - 1);
            let qmin = h.qlen.min(l.qlen);
            let u = Self::hop_load(&cfg, h.rate, tau, dtx, qmin);
            if best.is_none_or(|(b, _)| u > b) {
                best = Some((u, tau));
            }
        }
        s.l = ack.hops;
        let effect = match best {
            None => AckEffect::NoHop { commit },
            Some((u, tau)) => {
                let u_new = Self::ewma(&cfg, s.u, u, tau);
                let md = u_new >= (cfg.eta as u64) << (U_FRAC - 10) || s.stage >= cfg.max_stage;
                let (r_new, stage_new) = if md {
                    let base = if u_new == 0 {
                        cfg.max_rate
                    } else {
                        Self::rc_over_k(&cfg, s.rc, u_new)
                    };
                    (base as u64 + cfg.ai as u64, 0)
                } else {
                    (s.rc as u64 + cfg.ai as u64, (s.stage + 1).min(STAGE_MAX))
                };
                let r_new = r_new.clamp(cfg.min_rate as u64, cfg.max_rate as u64) as u32;
                s.u = u_new;
                s.r = r_new;
                if commit {
                    s.rc = r_new;
                    s.stage = stage_new;
                }
                AckEffect::Update { commit }
            }
        };
        if commit {
            s.last_seq = ack.snd_nxt;
        }
        effect
    }
}

/// hpcc.md in real arithmetic: the behaviour the golden model is held to.
pub mod reference {
    use super::{Ack, HOPS_MAX, Hop, HpccParams, LINK_GBPS, TS_W, TX_W};

    /// A QP's state in real numbers (rates in Mb/s).
    #[derive(Clone, Copy, Debug)]
    pub struct RefQp {
        pub r: f64,
        pub rc: f64,
        pub u: f64,
        pub stage: u32,
        pub last_seq: u32,
        pub nhop: u8,
        pub l: [Hop; HOPS_MAX],
    }

    /// The parameters in real numbers.
    #[derive(Clone, Copy, Debug)]
    pub struct RefCfg {
        pub t: f64,
        pub eta: f64,
        pub max_stage: u32,
        pub ai: f64,
        pub min_rate: f64,
        pub max_rate: f64,
        pub multi: f64,
    }

    impl RefCfg {
        pub fn new(p: &HpccParams) -> Self {
            Self {
                t: p.base_rtt_ns as f64,
                eta: p.eta as f64 / 1024.0,
                max_stage: p.max_stage,
                ai: p.rate_ai_mbps as f64,
                min_rate: p.min_rate_mbps as f64,
                max_rate: p.max_rate_mbps as f64,
                multi: p.int_multi as f64,
            }
        }
    }

    impl RefQp {
        pub fn initial(c: &RefCfg) -> Self {
            Self {
                r: c.max_rate,
                rc: c.max_rate,
                u: 1.0,
                stage: 0,
                last_seq: 0,
                nhop: 0,
                l: [Hop::default(); HOPS_MAX],
            }
        }

        /// hpcc.md "Behaviour", steps 1 to 6.
        pub fn on_ack(&mut self, c: &RefCfg, ack: &Ack) {
            let n = ack.nhop as usize;
            if self.last_seq == 0 || self.nhop != ack.nhop {
                self.l = ack.hops;
                self.nhop = ack.nhop;
                self.last_seq = ack.snd_nxt;
                return;
            }
            let commit = ack.seq > self.last_seq;
            let mut best: Option<(f64, f64)> = None;
            for (h, l) in ack.hops[..n].iter().zip(&self.l[..n]) {
                let tau = (h.ts.wrapping_sub(l.ts) & ((1 << TS_W) - 1)) as f64;
                if tau == 0.0 {
                    continue;
                }
                let dtx = (h.tx.wrapping_sub(l.tx) & ((1 << TX_W) - 1)) as f64;
                let b = LINK_GBPS[h.rate as usize] as f64; // bit/ns
                let tx_rate = dtx * 128.0 * c.multi * 8.0 / tau;
                let q = h.qlen.min(l.qlen) as f64 * 80.0 * c.multi * 8.0;
                let u = tx_rate / b + q / (b * c.t);
                if best.is_none_or(|(bu, _)| u > bu) {
                    best = Some((u, tau));
                }
            }
            self.l = ack.hops;
            if let Some((u, tau)) = best {
                let tau = tau.min(c.t);
                self.u = (self.u * (c.t - tau) + u * tau) / c.t;
                let k = self.u / c.eta;
                let (r_new, stage_new) = if k >= 1.0 || self.stage >= c.max_stage {
                    let base = if k == 0.0 { c.max_rate } else { self.rc / k };
                    (base + c.ai, 0)
                } else {
                    (self.rc + c.ai, (self.stage + 1).min(15))
                };
                let r_new = r_new.clamp(c.min_rate, c.max_rate);
                self.r = r_new;
                if commit {
                    self.rc = r_new;
                    self.stage = stage_new;
                }
            }
            if commit {
                self.last_seq = ack.snd_nxt;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recip_norm_is_within_its_bound() {
        // Every table interval at its ends and middle, and a sweep.
        let mut worst = 0f64;
        for m in ((1u32 << 23)..(1 << 24)).step_by(997) {
            let exact = (1u64 << 47) as f64 / m as f64;
            let err = (recip_norm(m) as f64 - exact) / exact;
            worst = worst.max(err.abs());
            assert!(err > -2.0 / (1u64 << 24) as f64, "m = {m}: {err}");
        }
        assert!(
            worst < 1.0 / (1u64 << 21) as f64,
            "worst relative error {worst}"
        );
    }

    #[test]
    fn scaled_const_is_normalised_and_close() {
        for (num, den, scale) in [
            (1024u128, 25u128, -16),
            (640, 800 * 1_000_000, 24),
            (65536, 10, 0),
        ] {
            let k = ScaledConst::ratio(num, den, scale);
            assert!((1 << 17..1 << 18).contains(&k.m), "{k:?}");
            let v = k.m as f64 * 2f64.powi(k.e);
            let exact = num as f64 / den as f64 * 2f64.powi(scale);
            assert!(
                ((v - exact) / exact).abs() < 4e-6,
                "{num}/{den}: {v} vs {exact}"
            );
        }
    }
}
