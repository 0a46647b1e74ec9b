//! TRACE.jsonl: reading and checking a replay trace (`../shared/reference/replay.md`).
//!
//! A trace is one JSON object per line, times non-decreasing (ties replay in file order):
//!
//! ```text
//! {"t_ns": 1000, "ev": "cnp",    "qp": 3}
//! {"t_ns": 1200, "ev": "tx",     "qp": 3, "bytes": 1024}
//! {"t_ns": 1300, "ev": "ecn",    "qp": 7}
//! {"t_ns": 1400, "ev": "sample", "qp": 3}
//! {"t_ns": 1500, "ev": "mode",   "qp": 6, "mode": "host", "rate_mbps": 2500}
//! ```
//!
//! [`parse_trace`] checks everything an engine relies on, once, so that every engine sees
//! the same valid [`TimedEvent`]s and no engine re-checks input: each line is a JSON
//! object; `ev` is a known kind; the fields are exactly the ones of that kind; numbers are
//! non-negative integers in range (`qp < qps`, `bytes` fits the RP's 16-bit packet-length
//! input, `t_ns` within [`MAX_T_NS`]); times never decrease; an `ack` (HPCC) has 1 to 5 hops with
//! every field in its wire width. Blank lines are skipped but
//! still counted, so line numbers in errors are the ones an editor shows.
//!
//! The values are read as [`serde_json::Value`] rather than deserialised into a struct so
//! that every message can say exactly what is wrong and what to write instead.

use crate::core_top::MODE_HPCC;
use crate::hpcc_window::{Ack, HOPS_MAX, Hop, LINK_GBPS, QLEN_W, TS_W, TX_W};
use crate::replay::{TimedEvent, TraceEvent};
use roce_cc_params::Params;
use roce_cc_regmap::QpMode;
use serde_json::{Map, Value};
use std::fmt;

/// The latest event time a trace may use: 2000 s.
///
/// The RP keeps its timers as 32-bit epochs (docs/dcqcn_rp.md, "Limits"); with a 1 us timer
/// period they wrap after about 4295 s and a QP idle for more than 2^31 periods is misread.
/// 2000 s keeps every trace well inside that for every period.
pub const MAX_T_NS: u64 = 2_000_000_000_000;

/// The largest `bytes` of a `tx` event: the RP's packet-length input is 16 bits.
pub const MAX_TX_BYTES: u64 = 65_535;

/// The event kinds this version replays, in the order messages list them.
pub const KINDS: [&str; 7] = ["cnp", "tx", "ecn", "sample", "mode", "ack", "post"];

/// The largest `post` (bytes one doorbell hands the pacer): the pacer counts a QP's bytes
/// posted and not granted mod 2^32.
pub const MAX_POST_BYTES: u64 = u32::MAX as u64;

/// The modes of a `mode` event, as the core's mode numbers (`roce_cc_regmap::QpMode`, and
/// HPCC's `core_top::MODE_HPCC`).
pub const MODES: [(&str, u32); 4] = [
    ("dcqcn", QpMode::Dcqcn as u32),
    ("hpcc", MODE_HPCC),
    ("host", QpMode::HostRate as u32),
    ("off", QpMode::Off as u32),
];

/// A trace line that cannot be replayed: where, and what to do about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraceError {
    /// 1-based line number in the trace text (blank lines count).
    pub line: usize,
    /// What is wrong with the line and how to fix it (no line number, no file name).
    pub message: String,
}

impl TraceError {
    fn new(line: usize, message: impl Into<String>) -> Self {
        Self {
            line,
            message: message.into(),
        }
    }
}

impl fmt::Display for TraceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for TraceError {}

/// The fields an event of `kind` must carry, in the order messages list them.
fn fields_of(kind: &str) -> &'static [&'static str] {
    match kind {
        "tx" | "post" => &["t_ns", "ev", "qp", "bytes"],
        "mode" => &["t_ns", "ev", "qp", "mode", "rate_mbps"],
        "ack" => &["t_ns", "ev", "qp", "seq", "snd_nxt", "hops"],
        _ => &["t_ns", "ev", "qp"],
    }
}

/// "an" before a kind that starts with a vowel ("an \"ack\" event"), else "a".
fn article(kind: &str) -> &'static str {
    if kind.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    }
}

/// A short, readable description of a JSON value for "found ..." messages.
fn describe(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Bool(b) => format!("the boolean {b}"),
        Value::Number(n) if n.is_f64() => format!("the non-integer {n}"),
        Value::Number(n) => format!("{n}"),
        Value::String(s) => format!("the string {}", Value::String(s.clone())),
        Value::Array(_) => "an array".into(),
        Value::Object(_) => "an object".into(),
    }
}

/// Field `name` of `obj` as a non-negative integer.
fn uint_field(obj: &Map<String, Value>, name: &str, kind: &str, what: &str) -> Result<u64, String> {
    match obj.get(name) {
        None => Err(format!(
            "missing field `{name}` ({what}); {} \"{kind}\" event has the fields {}",
            article(kind),
            fields_of(kind).join(", ")
        )),
        Some(v) => v.as_u64().ok_or_else(|| {
            format!(
                "field `{name}` ({what}) must be a non-negative integer written without quotes \
                 or a decimal point, found {}",
                describe(v)
            )
        }),
    }
}

/// The example line printed when a line is not an object at all.
const EXAMPLE: &str = r#"{"t_ns": 1000, "ev": "cnp", "qp": 3}"#;

/// Parse one non-blank line into an event (without the ordering check).
fn parse_line(text: &str, params: &Params) -> Result<(u64, TraceEvent), String> {
    let value: Value = serde_json::from_str(text).map_err(|e| {
        let hint = if text.trim_start().starts_with('#') || text.trim_start().starts_with("//") {
            "; comments are not allowed in a trace"
        } else {
            ""
        };
        // serde_json says "at line 1 column N" (it only sees this line): keep the column.
        let what = e.to_string();
        let what = what.split(" at line ").next().unwrap_or_default();
        format!(
            "invalid JSON at column {}: {what}{hint}; each line must be one JSON object such as \
             {EXAMPLE}",
            e.column()
        )
    })?;
    let Value::Object(obj) = value else {
        return Err(format!(
            "expected a JSON object such as {EXAMPLE}, found {}",
            describe(&value)
        ));
    };

    let known = KINDS.join(", ");
    let kind = match obj.get("ev") {
        None => {
            return Err(format!(
                "missing field `ev` (the event kind: one of {known})"
            ));
        }
        Some(Value::String(s)) => s.as_str(),
        Some(v) => {
            return Err(format!(
                "field `ev` (the event kind) must be a string, one of {known}; found {}",
                describe(v)
            ));
        }
    };
    if !KINDS.contains(&kind) {
        return Err(format!(
            "unknown event kind \"{kind}\": known kinds are {known}"
        ));
    }

    // Unknown fields first: a misspelt field is better reported as itself than as the
    // missing field it was meant to be.
    let allowed = fields_of(kind);
    if let Some(extra) = obj.keys().find(|k| !allowed.contains(&k.as_str())) {
        return Err(format!(
            "unknown field `{extra}` in {} \"{kind}\" event: allowed fields are {}",
            article(kind),
            allowed.join(", ")
        ));
    }

    let t_ns = uint_field(&obj, "t_ns", kind, "event time in ns")?;
    if t_ns > MAX_T_NS {
        return Err(format!(
            "t_ns {t_ns} is beyond the limit of {MAX_T_NS} ns (2000 s): the RP's timer epochs \
             are 32-bit (docs/dcqcn_rp.md, \"Limits\"); keep traces shorter than 2000 s"
        ));
    }
    let qp = uint_field(&obj, "qp", kind, "queue pair number")?;
    if qp >= params.qps as u64 {
        return Err(format!(
            "qp {qp} is out of range: this core has {} QPs (0..={}); set `qps` in PARAMS.toml",
            params.qps,
            params.qps - 1
        ));
    }
    let qp = qp as u32;
    let ev = match kind {
        "cnp" => TraceEvent::Cnp { qp },
        "ecn" => TraceEvent::Ecn { qp },
        "sample" => TraceEvent::Sample { qp },
        "tx" => {
            let bytes = uint_field(&obj, "bytes", kind, "packet length in bytes")?;
            if bytes > MAX_TX_BYTES {
                return Err(format!(
                    "tx bytes {bytes} is out of range: the RP's packet-length input is 16 bits \
                     (0..={MAX_TX_BYTES}); write one tx event per packet"
                ));
            }
            TraceEvent::Tx {
                qp,
                bytes: bytes as u32,
            }
        }
        "mode" => mode_event(&obj, qp, params)?,
        "ack" => TraceEvent::Ack {
            qp,
            ack: parse_ack(&obj)?,
        },
        "post" => {
            let bytes = uint_field(&obj, "bytes", kind, "bytes to send")?;
            if bytes == 0 || bytes > MAX_POST_BYTES {
                return Err(format!(
                    "post bytes {bytes} is out of range: 1..={MAX_POST_BYTES} (the pacer \
                     counts a QP's bytes posted and not granted in 32 bits)"
                ));
            }
            TraceEvent::Post {
                qp,
                bytes: bytes as u32,
            }
        }
        _ => unreachable!("kind checked against KINDS"),
    };
    Ok((t_ns, ev))
}

/// The ACK of an `ack` event: `seq` and `snd_nxt` (32-bit byte counts) and `hops`, 1 to
/// [`HOPS_MAX`] objects `{"rate", "ts", "tx", "qlen"}` in hpcc.md's wire units (rate code
/// 0..=7, `ts` 24 bits, `tx` 20 bits, `qlen` 17 bits).
fn parse_ack(obj: &Map<String, Value>) -> Result<Ack, String> {
    let word = |name: &str, what: &str| -> Result<u32, String> {
        let v = uint_field(obj, name, "ack", what)?;
        u32::try_from(v).map_err(|_| {
            format!(
                "{name} {v} is out of range: it is a 32-bit byte count (0..={})",
                u32::MAX
            )
        })
    };
    let seq = word("seq", "the acknowledged sequence number, bytes")?;
    let snd_nxt = word("snd_nxt", "the sender's next sequence number, bytes")?;
    let hops_doc = format!(
        "`hops` is a list of 1 to {HOPS_MAX} INT hops such as \
         {{\"rate\": 2, \"ts\": 16777000, \"tx\": 1048000, \"qlen\": 37}}"
    );
    let list = match obj.get("hops") {
        None => return Err(format!("missing field `hops`; {hops_doc}")),
        Some(Value::Array(a)) => a,
        Some(v) => return Err(format!("{hops_doc}; found {}", describe(v))),
    };
    if list.is_empty() || list.len() > HOPS_MAX {
        return Err(format!(
            "an ACK carries 1 to {HOPS_MAX} hops, this one {}; {hops_doc}",
            list.len()
        ));
    }
    let mut hops = [Hop::default(); HOPS_MAX];
    const HOP_FIELDS: [&str; 4] = ["rate", "ts", "tx", "qlen"];
    for (i, (h, v)) in hops.iter_mut().zip(list).enumerate() {
        let Value::Object(o) = v else {
            return Err(format!(
                "hop {i} must be an object; {hops_doc}; found {}",
                describe(v)
            ));
        };
        if let Some(extra) = o.keys().find(|k| !HOP_FIELDS.contains(&k.as_str())) {
            return Err(format!(
                "unknown field `{extra}` in hop {i}: a hop has the fields {}",
                HOP_FIELDS.join(", ")
            ));
        }
        let field = |name: &str, bits: u32, what: &str| -> Result<u32, String> {
            let v = match o.get(name) {
                None => {
                    return Err(format!(
                        "missing field `{name}` ({what}) in hop {i}: a hop has the fields {}",
                        HOP_FIELDS.join(", ")
                    ));
                }
                Some(v) => v.as_u64().ok_or_else(|| {
                    format!(
                        "field `{name}` ({what}) of hop {i} must be a non-negative integer, \
                         found {}",
                        describe(v)
                    )
                })?,
            };
            if v >= 1 << bits {
                return Err(format!(
                    "hop {i}: {name} {v} does not fit its {bits}-bit field (0..={}): {what}",
                    (1u64 << bits) - 1
                ));
            }
            Ok(v as u32)
        };
        let rate = field("rate", 3, "the link rate code, 0..=7 (hpcc.md)")?;
        *h = Hop {
            rate: rate as u8,
            ts: field("ts", TS_W, "the timestamp in ns, modulo 2^24")?,
            tx: field(
                "tx",
                TX_W,
                "transmitted bytes / (128 * hpcc_int_multi), modulo 2^20",
            )?,
            qlen: field("qlen", QLEN_W, "queued bytes / (80 * hpcc_int_multi)")?,
        };
    }
    Ok(Ack {
        seq,
        snd_nxt,
        hops,
        nhop: list.len() as u8,
    })
}

/// The `mode` event of `obj` (its `mode`, and `rate_mbps` exactly when the mode is `host`).
fn mode_event(obj: &Map<String, Value>, qp: u32, params: &Params) -> Result<TraceEvent, String> {
    let names: Vec<String> = MODES.iter().map(|(n, _)| format!("\"{n}\"")).collect();
    let names = format!(
        "{} or {}",
        names[..names.len() - 1].join(", "),
        names[names.len() - 1]
    );
    let name = match obj.get("mode") {
        None => {
            return Err(format!(
                "missing field `mode` (the QP's congestion control: {names})"
            ));
        }
        Some(Value::String(s)) => s.as_str(),
        Some(v) => {
            return Err(format!(
                "field `mode` must be a string, {names}; found {}",
                describe(v)
            ));
        }
    };
    let Some(&(_, mode)) = MODES.iter().find(|(n, _)| *n == name) else {
        return Err(format!("unknown mode \"{name}\": the modes are {names}"));
    };
    let rate_q8 = if mode == QpMode::HostRate as u32 {
        let rate = uint_field(obj, "rate_mbps", "mode", "the host's rate in Mb/s")?;
        if rate == 0 || rate > params.line_rate_mbps as u64 {
            return Err(format!(
                "rate_mbps {rate} is out of range: a host rate is 1..={} Mb/s (the line rate, \
                 line_rate_mbps in PARAMS.toml)",
                params.line_rate_mbps
            ));
        }
        (rate as u32) << 8
    } else {
        if obj.contains_key("rate_mbps") {
            return Err(format!(
                "field `rate_mbps` is only for mode \"host\"; a \"{name}\" QP sends at the rate \
                 its mode gives it: remove the field"
            ));
        }
        0
    };
    Ok(TraceEvent::Mode { qp, mode, rate_q8 })
}

/// Whether the driver's BARs can feed `events` to the core (`model` and `sim`): they drive
/// the register block and the core's DCQCN streams, not its ACK stream (a NIC's datapath
/// port, not a register), so `ack` events are for `roce-cc replay` only. The first event
/// they cannot feed, if any.
pub fn register_block_can_feed(events: &[TimedEvent]) -> Result<(), TraceError> {
    match events
        .iter()
        .find(|e| matches!(e.ev, TraceEvent::Ack { .. }))
    {
        Some(e) => Err(TraceError {
            line: e.line,
            message: "an \"ack\" event cannot go through the driver: the ACK stream is a \
                      datapath port of the core, not a register; replay traces with ACKs \
                      with `roce-cc replay` (\"mode\": \"hpcc\" goes through the driver)"
                .into(),
        }),
        None => Ok(()),
    }
}

/// Parse and check a whole TRACE.jsonl text for a core with `params` (for `qps`).
///
/// Returns the events in file order, each with its time and 1-based line number, or the
/// first bad line.
pub fn parse_trace(text: &str, params: &Params) -> Result<Vec<TimedEvent>, TraceError> {
    let mut events: Vec<TimedEvent> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        if raw.trim().is_empty() {
            continue;
        }
        let (t_ns, ev) = parse_line(raw, params).map_err(|m| TraceError::new(line, m))?;
        if let Some(prev) = events.last().filter(|prev| t_ns < prev.t_ns) {
            return Err(TraceError::new(
                line,
                format!(
                    "t_ns {t_ns} is before the previous event's {} (line {}); traces must be \
                     sorted by time",
                    prev.t_ns, prev.line
                ),
            ));
        }
        events.push(TimedEvent { t_ns, line, ev });
    }
    Ok(events)
}

/// A random valid trace of `len` events (CNPs, packets, samples, CE marks) on four QPs from
/// `0..qps`, with gaps from 0 (ties) to seconds; the same `seed` gives the same text. For
/// differential tests of the replay engines.
pub fn random_trace(seed: u64, qps: u32, len: usize) -> String {
    random_trace_of(seed, qps, len, false)
}

/// As [`random_trace`], with `mode` events too (about one in 12 events: `dcqcn`, `off`, or
/// `host` at 1..=10000 Mb/s), so QPs leave and re-enter DCQCN mid-trace.
pub fn random_mode_trace(seed: u64, qps: u32, len: usize) -> String {
    random_trace_of(seed, qps, len, true)
}

/// A random trace mixing all four modes: `mode` events (half of them `hpcc`), `ack`
/// events of one flow per QP (1 to 5 hops, every link code, path changes, `ts` and `tx`
/// wrapping, load from idle to 1.6 times the link), samples, and the DCQCN kinds. Times
/// step mostly by up to tens of microseconds (HPCC's round trips), sometimes by seconds.
pub fn random_hpcc_trace(seed: u64, qps: u32, len: usize) -> String {
    struct Flow {
        nhop: usize,
        rate: [u64; HOPS_MAX],
        ts: [u64; HOPS_MAX],
        tx: [u64; HOPS_MAX],
        seq: u32,
        last_t: u64,
    }
    let mut r = crate::stimulus::XorShift::new(seed);
    let few: Vec<u32> = (0..4).map(|_| r.below(qps as u64) as u32).collect();
    let mut flows: Vec<Flow> = (0..few.len())
        .map(|_| Flow {
            nhop: 1 + r.below(HOPS_MAX as u64) as usize,
            rate: [0; HOPS_MAX].map(|_| r.below(8)),
            ts: [0; HOPS_MAX].map(|_| r.below(1 << TS_W)),
            tx: [0; HOPS_MAX].map(|_| r.below(1 << TX_W)),
            seq: 1 + r.below(1 << 20) as u32,
            last_t: 0,
        })
        .collect();
    let mut t = r.below(10_000);
    let mut s = String::new();
    for _ in 0..len {
        t += match r.below(16) {
            0..=3 => 0,
            4..=9 => r.below(3_000),
            10..=13 => r.below(30_000),
            14 => r.below(5_000_000),
            _ => r.below(2_000_000_000),
        };
        let k = r.below(few.len() as u64) as usize;
        let qp = few[k];
        let line = match r.below(20) {
            0..=1 => {
                format!("{{\"t_ns\": {t}, \"ev\": \"mode\", \"qp\": {qp}, \"mode\": \"hpcc\"}}")
            }
            2 => {
                let m = ["dcqcn", "off", "host"][r.below(3) as usize];
                let rate = if m == "host" {
                    format!(", \"rate_mbps\": {}", 1 + r.below(10_000))
                } else {
                    String::new()
                };
                format!(
                    "{{\"t_ns\": {t}, \"ev\": \"mode\", \"qp\": {qp}, \"mode\": \"{m}\"{rate}}}"
                )
            }
            3..=11 => {
                let f = &mut flows[k];
                if r.below(30) == 0 {
                    f.nhop = 1 + r.below(HOPS_MAX as u64) as usize;
                    f.rate = [0; HOPS_MAX].map(|_| r.below(8));
                }
                let dt = t - f.last_t;
                f.last_t = t;
                let load_q8 = r.below(410);
                let mut hops = Vec::new();
                for h in 0..f.nhop {
                    let tau = if r.below(8) == 0 {
                        0
                    } else {
                        dt + r.below(200)
                    };
                    f.ts[h] = (f.ts[h] + tau) % (1 << TS_W);
                    let gbps = LINK_GBPS[f.rate[h] as usize] as u64;
                    let bytes = load_q8 * gbps * tau / (8 * 256);
                    f.tx[h] = (f.tx[h] + bytes / 128) % (1 << TX_W);
                    let qlen = match r.below(4) {
                        0 | 1 => 0,
                        2 => r.below(3_000),
                        _ => r.below(1 << QLEN_W),
                    };
                    hops.push(format!(
                        "{{\"rate\": {}, \"ts\": {}, \"tx\": {}, \"qlen\": {qlen}}}",
                        f.rate[h], f.ts[h], f.tx[h]
                    ));
                }
                f.seq = f.seq.wrapping_add(r.below(20_000) as u32);
                format!(
                    "{{\"t_ns\": {t}, \"ev\": \"ack\", \"qp\": {qp}, \"seq\": {}, \"snd_nxt\": {}, \"hops\": [{}]}}",
                    f.seq,
                    f.seq.wrapping_add(1 + r.below(60_000) as u32),
                    hops.join(", ")
                )
            }
            12..=15 => format!("{{\"t_ns\": {t}, \"ev\": \"sample\", \"qp\": {qp}}}"),
            16 => format!("{{\"t_ns\": {t}, \"ev\": \"cnp\", \"qp\": {qp}}}"),
            17 => format!("{{\"t_ns\": {t}, \"ev\": \"ecn\", \"qp\": {qp}}}"),
            _ => format!(
                "{{\"t_ns\": {t}, \"ev\": \"tx\", \"qp\": {qp}, \"bytes\": {}}}",
                r.below(65_536)
            ),
        };
        s.push_str(&line);
        s.push('\n');
    }
    s
}

/// [`random_hpcc_trace`]'s events at times a few microseconds apart (ties, up to 2 us, up
/// to 20 us), with a `post` of 1 to 20 000 bytes after about one event in four for one of
/// the same four QPs: work for the pacer beside every other kind. For the paced replay's
/// differential tests (the run is cycle by cycle while a QP has bytes, so the trace spans
/// about a millisecond per 400 events).
pub fn random_paced_trace(seed: u64, qps: u32, len: usize) -> String {
    let base = random_hpcc_trace(seed, qps, len);
    // The same four QPs as the base trace's (its first four draws).
    let mut q = crate::stimulus::XorShift::new(seed);
    let few: Vec<u64> = (0..4).map(|_| q.below(qps as u64)).collect();
    let mut r = crate::stimulus::XorShift::new(seed ^ 0x5eed_0f_9ace);
    let mut t = 0u64;
    let mut s = String::new();
    for line in base.lines() {
        t += match r.below(8) {
            0..=2 => 0,
            3..=6 => r.below(2_000),
            _ => r.below(20_000),
        };
        let rest = &line[line.find(',').expect("a trace line has fields")..];
        s.push_str(&format!("{{\"t_ns\": {t}{rest}\n"));
        if r.below(4) == 0 {
            let qp = few[r.below(4) as usize];
            s.push_str(&format!(
                "{{\"t_ns\": {t}, \"ev\": \"post\", \"qp\": {qp}, \"bytes\": {}}}\n",
                1 + r.below(20_000)
            ));
        }
    }
    s
}

fn random_trace_of(seed: u64, qps: u32, len: usize, modes: bool) -> String {
    let mut r = crate::stimulus::XorShift::new(seed);
    let few: Vec<u64> = (0..4).map(|_| r.below(qps as u64)).collect();
    let mut t = r.below(10_000);
    let mut s = String::new();
    for _ in 0..len {
        t += match r.below(12) {
            0..=2 => 0,
            3..=5 => r.below(2_000),
            6..=8 => r.below(500_000),
            9..=10 => r.below(30_000_000),
            _ => r.below(4_000_000_000),
        };
        let qp = few[r.below(few.len() as u64) as usize];
        if modes && r.below(12) == 0 {
            let line = match r.below(4) {
                0 => {
                    format!("{{\"t_ns\": {t}, \"ev\": \"mode\", \"qp\": {qp}, \"mode\": \"off\"}}")
                }
                1 => format!(
                    "{{\"t_ns\": {t}, \"ev\": \"mode\", \"qp\": {qp}, \"mode\": \"host\", \"rate_mbps\": {}}}",
                    1 + r.below(10_000)
                ),
                _ => format!(
                    "{{\"t_ns\": {t}, \"ev\": \"mode\", \"qp\": {qp}, \"mode\": \"dcqcn\"}}"
                ),
            };
            s.push_str(&line);
            s.push('\n');
            continue;
        }
        let line = match r.below(4) {
            0 => format!("{{\"t_ns\": {t}, \"ev\": \"cnp\", \"qp\": {qp}}}"),
            3 => format!("{{\"t_ns\": {t}, \"ev\": \"ecn\", \"qp\": {qp}}}"),
            1 => format!(
                "{{\"t_ns\": {t}, \"ev\": \"tx\", \"qp\": {qp}, \"bytes\": {}}}",
                r.below(65_536)
            ),
            _ => format!("{{\"t_ns\": {t}, \"ev\": \"sample\", \"qp\": {qp}}}"),
        };
        s.push_str(&line);
        s.push('\n');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p() -> Params {
        Params::default()
    }

    /// The error of a trace that must fail.
    fn err(text: &str) -> TraceError {
        parse_trace(text, &p()).expect_err("the trace must be refused")
    }

    /// Assert the error is on `line` and its message contains every one of `parts`.
    fn check(text: &str, line: usize, parts: &[&str]) {
        let e = err(text);
        assert_eq!(e.line, line, "{e}");
        for part in parts {
            assert!(e.message.contains(part), "{e:?} should contain {part:?}");
        }
    }

    /// `mode` events: all four modes, `rate_mbps` exactly with `host` and in range.
    #[test]
    fn mode_events() {
        let text = concat!(
            "{\"t_ns\": 0, \"ev\": \"mode\", \"qp\": 1, \"mode\": \"host\", \"rate_mbps\": 2500}\n",
            "{\"t_ns\": 1, \"ev\": \"mode\", \"qp\": 1, \"mode\": \"off\"}\n",
            "{\"mode\": \"dcqcn\", \"t_ns\": 2, \"ev\": \"mode\", \"qp\": 2}\n",
            "{\"t_ns\": 3, \"ev\": \"mode\", \"qp\": 3, \"mode\": \"host\", \"rate_mbps\": 100000}\n",
            "{\"t_ns\": 4, \"ev\": \"mode\", \"qp\": 4, \"mode\": \"hpcc\"}\n",
        );
        let evs: Vec<TraceEvent> = parse_trace(text, &p())
            .unwrap()
            .into_iter()
            .map(|e| e.ev)
            .collect();
        assert_eq!(
            evs,
            [
                TraceEvent::Mode {
                    qp: 1,
                    mode: 1,
                    rate_q8: 2500 << 8
                },
                TraceEvent::Mode {
                    qp: 1,
                    mode: 2,
                    rate_q8: 0
                },
                TraceEvent::Mode {
                    qp: 2,
                    mode: 0,
                    rate_q8: 0
                },
                TraceEvent::Mode {
                    qp: 3,
                    mode: 1,
                    rate_q8: 100_000 << 8
                },
                TraceEvent::Mode {
                    qp: 4,
                    mode: MODE_HPCC,
                    rate_q8: 0
                },
            ]
        );
        let ok = "{\"t_ns\": 0, \"ev\": \"sample\", \"qp\": 0}\n";
        let bad = |line: &str| format!("{ok}{line}");
        check(
            &bad(r#"{"t_ns": 0, "ev": "mode", "qp": 1, "mode": "hpcc", "rate_mbps": 9}"#),
            2,
            &["field `rate_mbps` is only for mode \"host\""],
        );
        check(
            &bad(r#"{"t_ns": 0, "ev": "mode", "qp": 1, "mode": "fast"}"#),
            2,
            &[
                "unknown mode \"fast\"",
                "\"dcqcn\", \"hpcc\", \"host\" or \"off\"",
            ],
        );
        check(
            &bad(r#"{"t_ns": 0, "ev": "mode", "qp": 1, "mode": 2}"#),
            2,
            &["field `mode` must be a string", "found 2"],
        );
        check(
            &bad(r#"{"t_ns": 0, "ev": "mode", "qp": 1}"#),
            2,
            &["missing field `mode`"],
        );
        check(
            &bad(r#"{"t_ns": 0, "ev": "mode", "qp": 1, "mode": "host"}"#),
            2,
            &["missing field `rate_mbps`"],
        );
        for rate in [0, 100_001] {
            check(
                &bad(&format!(
                    r#"{{"t_ns": 0, "ev": "mode", "qp": 1, "mode": "host", "rate_mbps": {rate}}}"#
                )),
                2,
                &[&format!("rate_mbps {rate} is out of range"), "1..=100000"],
            );
        }
        check(
            &bad(r#"{"t_ns": 0, "ev": "mode", "qp": 1, "mode": "off", "rate_mbps": 5}"#),
            2,
            &["only for mode \"host\"", "remove the field"],
        );
        check(
            &bad(r#"{"t_ns": 0, "ev": "mode", "qp": 1, "mode": "off", "rate": 5}"#),
            2,
            &["unknown field `rate`", "rate_mbps"],
        );
        // Random traces with modes are valid.
        parse_trace(&random_mode_trace(5, 16, 500), &p()).unwrap();
    }

    #[test]
    fn valid_trace() {
        let text = concat!(
            "{\"t_ns\": 1000, \"ev\": \"cnp\", \"qp\": 3}\n",
            "\n",
            "{\"t_ns\": 1200, \"ev\": \"tx\", \"qp\": 3, \"bytes\": 1024}\n",
            "   \n",
            "{\"qp\": 7, \"ev\": \"ecn\", \"t_ns\": 1300}\r\n",
            "{\"t_ns\": 1300, \"ev\": \"sample\", \"qp\": 1023}\n",
            "{\"t_ns\": 2000000000000, \"ev\": \"tx\", \"qp\": 0, \"bytes\": 65535}\n",
            "{\"t_ns\": 2000000000000, \"ev\": \"tx\", \"qp\": 0, \"bytes\": 0}",
        );
        let evs = parse_trace(text, &p()).unwrap();
        let want = vec![
            TimedEvent {
                t_ns: 1000,
                line: 1,
                ev: TraceEvent::Cnp { qp: 3 },
            },
            TimedEvent {
                t_ns: 1200,
                line: 3,
                ev: TraceEvent::Tx { qp: 3, bytes: 1024 },
            },
            TimedEvent {
                t_ns: 1300,
                line: 5,
                ev: TraceEvent::Ecn { qp: 7 },
            },
            TimedEvent {
                t_ns: 1300,
                line: 6,
                ev: TraceEvent::Sample { qp: 1023 },
            },
            TimedEvent {
                t_ns: MAX_T_NS,
                line: 7,
                ev: TraceEvent::Tx {
                    qp: 0,
                    bytes: 65535,
                },
            },
            TimedEvent {
                t_ns: MAX_T_NS,
                line: 8,
                ev: TraceEvent::Tx { qp: 0, bytes: 0 },
            },
        ];
        assert_eq!(evs, want);
    }

    #[test]
    fn empty_and_blank_traces_are_empty() {
        assert_eq!(parse_trace("", &p()).unwrap(), vec![]);
        assert_eq!(parse_trace("\n  \n\t\n", &p()).unwrap(), vec![]);
    }

    #[test]
    fn invalid_json() {
        check(
            "\n{\"t_ns\": 1, \"ev\": \"cnp\", \"qp\": 1\n",
            2,
            &[
                "invalid JSON at column 32: EOF while parsing an object;",
                "JSON object",
            ],
        );
        check(
            "{\"t_ns\": 1, \"ev\": \"cnp\", \"qp\": 1}}",
            1,
            &["invalid JSON"],
        );
        check(
            "# a comment",
            1,
            &["invalid JSON", "comments are not allowed"],
        );
    }

    #[test]
    fn not_an_object() {
        check("[1, 2]", 1, &["expected a JSON object", "found an array"]);
        check("1000", 1, &["expected a JSON object", "found 1000"]);
        check(
            "\"cnp\"",
            1,
            &["expected a JSON object", "found the string \"cnp\""],
        );
        check("null", 1, &["found null"]);
    }

    #[test]
    fn missing_fields() {
        check(
            "{\"ev\": \"cnp\", \"qp\": 1}",
            1,
            &["missing field `t_ns`", "t_ns, ev, qp"],
        );
        check(
            "{\"t_ns\": 1, \"qp\": 1}",
            1,
            &["missing field `ev`", "cnp, tx, ecn, sample"],
        );
        check(
            "{\"t_ns\": 1, \"ev\": \"sample\"}",
            1,
            &["missing field `qp`"],
        );
        check(
            "{\"t_ns\": 1, \"ev\": \"tx\", \"qp\": 1}",
            1,
            &["missing field `bytes`", "t_ns, ev, qp, bytes"],
        );
    }

    #[test]
    fn wrong_types() {
        check(
            "{\"t_ns\": -5, \"ev\": \"cnp\", \"qp\": 1}",
            1,
            &["`t_ns`", "non-negative integer", "-5"],
        );
        check(
            "{\"t_ns\": 1.5, \"ev\": \"cnp\", \"qp\": 1}",
            1,
            &["`t_ns`", "non-integer 1.5"],
        );
        check(
            "{\"t_ns\": 1.0, \"ev\": \"cnp\", \"qp\": 1}",
            1,
            &["`t_ns`", "non-integer 1.0"],
        );
        check(
            "{\"t_ns\": \"1000\", \"ev\": \"cnp\", \"qp\": 1}",
            1,
            &["`t_ns`", "string \"1000\""],
        );
        check(
            "{\"t_ns\": 1, \"ev\": \"cnp\", \"qp\": -1}",
            1,
            &["`qp`", "-1"],
        );
        check(
            "{\"t_ns\": 1, \"ev\": \"cnp\", \"qp\": null}",
            1,
            &["`qp`", "found null"],
        );
        check(
            "{\"t_ns\": 1, \"ev\": \"tx\", \"qp\": 1, \"bytes\": 1e3}",
            1,
            &["`bytes`", "non-integer"],
        );
        check(
            "{\"t_ns\": 1, \"ev\": \"tx\", \"qp\": 1, \"bytes\": true}",
            1,
            &["`bytes`", "boolean true"],
        );
        check(
            "{\"t_ns\": 1, \"ev\": 3, \"qp\": 1}",
            1,
            &["`ev`", "must be a string", "found 3"],
        );
        // Beyond u64: serde_json reads it as a float.
        check(
            "{\"t_ns\": 18446744073709551616, \"ev\": \"cnp\", \"qp\": 1}",
            1,
            &["`t_ns`"],
        );
    }

    #[test]
    fn unknown_field_names_it_and_lists_allowed() {
        check(
            "{\"t_ns\":1,\"ev\":\"cnp\",\"qp\":1,\"foo\":2}",
            1,
            &[
                "unknown field `foo`",
                "\"cnp\"",
                "allowed fields are t_ns, ev, qp",
            ],
        );
        check(
            "{\"t_ns\":1,\"ev\":\"tx\",\"qp\":1,\"bytes\":2,\"len\":2}",
            1,
            &["unknown field `len`", "t_ns, ev, qp, bytes"],
        );
        // `bytes` belongs to tx only.
        check(
            "{\"t_ns\":1,\"ev\":\"sample\",\"qp\":1,\"bytes\":2}",
            1,
            &["unknown field `bytes`"],
        );
        // A misspelling is reported as itself, not as the missing field.
        check(
            "{\"t_ns\":1,\"ev\":\"cnp\",\"pq\":1}",
            1,
            &["unknown field `pq`"],
        );
    }

    #[test]
    fn unknown_kinds() {
        check(
            "{\"t_ns\":1,\"ev\":\"nack\",\"qp\":1}",
            1,
            &["unknown event kind \"nack\"", "cnp, tx, ecn, sample"],
        );
    }

    /// A `post` names its bytes, 1 to 2^32 - 1; 0, too many and a missing field are
    /// refused with the line number.
    #[test]
    fn posts() {
        let p = Params::default();
        let ok = parse_trace("{\"t_ns\":1,\"ev\":\"post\",\"qp\":1,\"bytes\":1000}\n", &p)
            .expect("a valid post");
        assert_eq!(ok[0].ev, TraceEvent::Post { qp: 1, bytes: 1000 });
        check(
            "{\"t_ns\":1,\"ev\":\"post\",\"qp\":1,\"bytes\":0}",
            1,
            &["post bytes 0 is out of range", "1..=4294967295"],
        );
        check(
            "{\"t_ns\":1,\"ev\":\"post\",\"qp\":1,\"bytes\":4294967296}",
            1,
            &["out of range"],
        );
        check(
            "{\"t_ns\":1,\"ev\":\"post\",\"qp\":1}",
            1,
            &["missing field `bytes`"],
        );
    }

    /// A malformed `ack` gets its own message and line number: 0 or 6 hops, a field too
    /// wide, a rate code out of range, bad types; a valid one of 5 hops is read exactly.
    #[test]
    fn malformed_acks() {
        let hop = r#"{"rate": 2, "ts": 16777000, "tx": 1048000, "qlen": 37}"#;
        let ack = |hops: &str| {
            format!(
                "{{\"t_ns\": 0, \"ev\": \"sample\", \"qp\": 0}}\n{{\"t_ns\": 9, \"ev\": \"ack\", \"qp\": 5, \"seq\": 8192, \"snd_nxt\": 65536, \"hops\": {hops}}}"
            )
        };
        let five = vec![hop; 5].join(", ");
        let evs = parse_trace(&ack(&format!("[{five}]")), &p()).unwrap();
        let h = Hop {
            rate: 2,
            ts: 16_777_000,
            tx: 1_048_000,
            qlen: 37,
        };
        assert_eq!(
            evs[1].ev,
            TraceEvent::Ack {
                qp: 5,
                ack: Ack {
                    seq: 8192,
                    snd_nxt: 65536,
                    hops: [h; 5],
                    nhop: 5
                }
            }
        );
        check(&ack("[]"), 2, &["1 to 5 hops, this one 0"]);
        check(
            &ack(&format!("[{five}, {hop}]")),
            2,
            &["1 to 5 hops, this one 6"],
        );
        check(&ack("{}"), 2, &["`hops` is a list", "found an object"]);
        let bad_hop = |h: &str| ack(&format!("[{hop}, {h}]"));
        check(
            &bad_hop(r#"{"rate": 8, "ts": 0, "tx": 0, "qlen": 0}"#),
            2,
            &[
                "hop 1: rate 8 does not fit its 3-bit field (0..=7)",
                "rate code",
            ],
        );
        check(
            &bad_hop(r#"{"rate": 0, "ts": 16777216, "tx": 0, "qlen": 0}"#),
            2,
            &["hop 1: ts 16777216 does not fit its 24-bit field"],
        );
        check(
            &bad_hop(r#"{"rate": 0, "ts": 0, "tx": 1048576, "qlen": 0}"#),
            2,
            &["hop 1: tx 1048576 does not fit its 20-bit field"],
        );
        check(
            &bad_hop(r#"{"rate": 0, "ts": 0, "tx": 0, "qlen": 131072}"#),
            2,
            &["hop 1: qlen 131072 does not fit its 17-bit field"],
        );
        check(
            &bad_hop(r#"{"rate": 0, "ts": 0, "tx": 0}"#),
            2,
            &["missing field `qlen`", "in hop 1"],
        );
        check(
            &bad_hop(r#"{"rate": 0, "ts": 0, "tx": 0, "qlen": 0, "q": 1}"#),
            2,
            &["unknown field `q` in hop 1"],
        );
        check(
            &bad_hop(r#"{"rate": "2", "ts": 0, "tx": 0, "qlen": 0}"#),
            2,
            &["field `rate`", "of hop 1 must be a non-negative integer"],
        );
        check(&bad_hop("7"), 2, &["hop 1 must be an object"]);
        check(
            &ack(&format!("[{hop}]")).replace("8192", "4294967296"),
            2,
            &["seq 4294967296 is out of range", "32-bit"],
        );
        check(
            &ack(&format!("[{hop}]")).replace("\"snd_nxt\": 65536, ", ""),
            2,
            &["missing field `snd_nxt`"],
        );
        check(
            &ack(&format!("[{hop}]")).replace("\"qp\": 5", "\"qp\": 5000"),
            2,
            &["qp 5000 is out of range"],
        );
    }

    #[test]
    fn decreasing_time() {
        let text = concat!(
            "{\"t_ns\": 500, \"ev\": \"cnp\", \"qp\": 1}\n",
            "\n",
            "{\"t_ns\": 1000, \"ev\": \"cnp\", \"qp\": 1}\n",
            "{\"t_ns\": 1000, \"ev\": \"sample\", \"qp\": 1}\n",
            "{\"t_ns\": 900, \"ev\": \"cnp\", \"qp\": 1}\n",
        );
        check(
            text,
            5,
            &[
                "t_ns 900 is before the previous event's 1000 (line 4); traces must be sorted by time",
            ],
        );
    }

    #[test]
    fn qp_out_of_range() {
        check(
            "{\"t_ns\": 1, \"ev\": \"cnp\", \"qp\": 1024}",
            1,
            &[
                "qp 1024 is out of range: this core has 1024 QPs (0..=1023); set `qps` in PARAMS.toml",
            ],
        );
        let mut small = p();
        small.qps = 16;
        let e = parse_trace("{\"t_ns\": 1, \"ev\": \"sample\", \"qp\": 16}", &small).unwrap_err();
        assert!(e.message.contains("16 QPs (0..=15)"), "{e}");
        assert!(parse_trace("{\"t_ns\": 1, \"ev\": \"sample\", \"qp\": 15}", &small).is_ok());
    }

    #[test]
    fn tx_bytes_out_of_range() {
        check(
            "{\"t_ns\": 1, \"ev\": \"tx\", \"qp\": 0, \"bytes\": 65536}",
            1,
            &["tx bytes 65536 is out of range", "16 bits", "0..=65535"],
        );
    }

    #[test]
    fn time_beyond_limit() {
        check(
            "{\"t_ns\": 2000000000001, \"ev\": \"cnp\", \"qp\": 0}",
            1,
            &["t_ns 2000000000001", "2000000000000", "32-bit", "Limits"],
        );
    }

    #[test]
    fn display_names_the_line() {
        let e = err("\n\n{}");
        assert_eq!(e.line, 3);
        assert!(
            e.to_string().starts_with("line 3: missing field `ev`"),
            "{e}"
        );
    }
}
