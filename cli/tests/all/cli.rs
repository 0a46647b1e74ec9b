//! Tests of the `roce-cc` command as a user runs it: the built binary, its stdout, stderr
//! and exit code.

use roce_cc_params::{PROFILES, Params};
use roce_cc_sim::trace::{random_hpcc_trace, random_mode_trace, random_paced_trace, random_trace};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// What one run of the command gave.
struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

fn finish(out: Output) -> Run {
    Run {
        code: out.status.code().expect("exited normally"),
        stdout: String::from_utf8(out.stdout).expect("utf-8 stdout"),
        stderr: String::from_utf8(out.stderr).expect("utf-8 stderr"),
    }
}

/// Run `roce-cc args...`.
fn run(args: &[&str]) -> Run {
    finish(
        Command::new(env!("CARGO_BIN_EXE_roce-cc"))
            .args(args)
            .output()
            .expect("runs"),
    )
}

/// Run `roce-cc args...` with `input` on stdin.
fn run_stdin(args: &[&str], input: &str) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_roce-cc"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    finish(child.wait_with_output().unwrap())
}

/// A fresh scratch directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("roce-cc-cli")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Write `text` to `dir/name` and return the path as a string.
fn file(dir: &Path, name: &str, text: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.to_str().unwrap().to_string()
}

/// The command must refuse the input: exit code 2, nothing on stdout, and one `error:` line
/// on stderr that starts with `prefix` and contains every one of `parts`.
fn assert_refused(r: &Run, prefix: &str, parts: &[&str]) {
    assert_eq!(r.code, 2, "stderr: {}", r.stderr);
    assert_eq!(r.stdout, "");
    let msg = r.stderr.trim_end();
    assert!(
        msg.starts_with(&format!("error: {prefix}")),
        "{msg:?} should start with {prefix:?}"
    );
    for part in parts {
        assert!(msg.contains(part), "{msg:?} should contain {part:?}");
    }
}

#[test]
fn params_profiles_round_trip_through_replay() {
    let dir = scratch("profiles");
    let trace = file(
        &dir,
        "t.jsonl",
        "{\"t_ns\": 1000, \"ev\": \"cnp\", \"qp\": 0}\n{\"t_ns\": 50000, \"ev\": \"sample\", \"qp\": 0}\n",
    );
    for name in PROFILES {
        let r = run(&["params", "--profile", name]);
        assert_eq!(r.code, 0, "{}", r.stderr);
        assert!(r.stdout.starts_with("# "), "a comment header first");
        assert!(r.stdout.lines().next().unwrap().contains(name));
        let path = file(&dir, &format!("{name}.toml"), &r.stdout);
        assert_eq!(
            Params::from_file(Path::new(&path)).unwrap(),
            Params::profile(name).unwrap()
        );
        // The printed file is accepted by replay, and gives what the profile gives.
        let r = run(&["replay", "--engine", "golden", "--params", &path, &trace]);
        assert_eq!(r.code, 0, "{}", r.stderr);
        assert_eq!(r.stdout.lines().count(), 1);
    }
    // Without --profile: connectx.
    assert_eq!(
        run(&["params"]).stdout,
        run(&["params", "--profile", "connectx"]).stdout
    );
    // connectx and paper differ, so --params is really read.
    let cx = run(&["replay", "--engine", "golden", &trace]).stdout;
    let paper = dir.join("paper.toml");
    let paper = run(&[
        "replay",
        "--engine",
        "golden",
        "--params",
        paper.to_str().unwrap(),
        &trace,
    ]);
    assert_ne!(cx, paper.stdout);
    assert_eq!(
        cx,
        run(&[
            "replay",
            "--engine",
            "golden",
            "--params",
            &file(&dir, "empty.toml", ""),
            &trace
        ])
        .stdout,
        "an empty PARAMS.toml is the connectx defaults"
    );
}

#[test]
fn unknown_profile_lists_the_valid_ones() {
    let r = run(&["params", "--profile", "cx7"]);
    assert_eq!(r.code, 2);
    for name in PROFILES {
        assert!(r.stderr.contains(name), "{}", r.stderr);
    }
}

#[test]
fn out_of_range_params_name_key_and_range() {
    let dir = scratch("bad-params");
    let trace = file(
        &dir,
        "t.jsonl",
        "{\"t_ns\": 1, \"ev\": \"sample\", \"qp\": 0}\n",
    );
    let p = file(&dir, "gd.toml", "rpg_gd = 16\n");
    let r = run(&["replay", "--engine", "golden", "--params", &p, &trace]);
    assert_refused(&r, &p, &["rpg_gd = 16", "1..=15"]);
    let p = file(&dir, "qps.toml", "qps = 1000\n");
    let r = run(&["replay", "--engine", "golden", "--params", &p, &trace]);
    assert_refused(&r, &p, &["qps", "power of two"]);
    let p = file(&dir, "deferred.toml", "cnp_moderation = \"deferred\"\n");
    let r = run(&["replay", "--engine", "rtl", "--params", &p, &trace]);
    assert_refused(
        &r,
        &p,
        &["deferred", "not supported", "per_flow", "per_port"],
    );
    let p = file(&dir, "dscp.toml", "cnp_dscp = 64\n");
    let r = run(&["replay", "--engine", "golden", "--params", &p, &trace]);
    assert_refused(&r, &p, &["cnp_dscp = 64", "0..=63"]);
    let p = file(&dir, "typo.toml", "rpg_gdd = 3\n");
    let r = run(&["replay", "--engine", "golden", "--params", &p, &trace]);
    assert_refused(&r, &p, &["rpg_gdd"]);
    let missing = dir.join("missing.toml");
    let r = run(&[
        "replay",
        "--engine",
        "golden",
        "--params",
        missing.to_str().unwrap(),
        &trace,
    ]);
    assert_refused(&r, "", &["missing.toml"]);
}

#[test]
fn bad_traces_give_file_line_and_message() {
    let dir = scratch("bad-traces");
    let good = "{\"t_ns\": 1000, \"ev\": \"cnp\", \"qp\": 1}\n";
    let cases: &[(&str, usize, &[&str])] = &[
        (
            "{\"t_ns\": 1000, \"ev\": \"cnp\", \"qp\": 1\n",
            2,
            &["invalid JSON"],
        ),
        (
            "{\"t_ns\":1,\"ev\":\"cnp\",\"qp\":1,\"foo\":2}\n",
            2,
            &["`foo`", "t_ns, ev, qp"],
        ),
        (
            "{\"t_ns\": 900, \"ev\": \"cnp\", \"qp\": 1}\n",
            2,
            &["before the previous event's 1000 (line 1)"],
        ),
        (
            "\n\n{\"t_ns\": 2000, \"ev\": \"cnp\", \"qp\": 1024}\n",
            4,
            &["0..=1023", "qps"],
        ),
        (
            "{\"t_ns\": 2000, \"ev\": \"ack\", \"qp\": 1}\n",
            2,
            &["missing field `seq`", "an \"ack\" event has the fields"],
        ),
        (
            "{\"t_ns\": 2000, \"ev\": \"ack\", \"qp\": 1, \"seq\": 1, \"snd_nxt\": 2, \"hops\": []}\n",
            2,
            &["1 to 5 hops, this one 0"],
        ),
        (
            "{\"t_ns\": 2000, \"ev\": \"ack\", \"qp\": 1, \"seq\": 1, \"snd_nxt\": 2, \"hops\": [{\"rate\": 8, \"ts\": 5, \"tx\": 6, \"qlen\": 7}]}\n",
            2,
            &["rate", "0..=7"],
        ),
        (
            "{\"t_ns\": 2000, \"ev\": \"rate\", \"qp\": 1}\n",
            2,
            &["cnp, tx, ecn, sample"],
        ),
        (
            "{\"t_ns\": 2000, \"ev\": \"tx\", \"qp\": 1, \"bytes\": 65536}\n",
            2,
            &["0..=65535"],
        ),
        (
            "{\"t_ns\": -3, \"ev\": \"cnp\", \"qp\": 1}\n",
            2,
            &["`t_ns`", "-3"],
        ),
        (
            "{\"t_ns\": 3000000000000, \"ev\": \"cnp\", \"qp\": 1}\n",
            2,
            &["2000000000000"],
        ),
    ];
    for (i, (rest, line, parts)) in cases.iter().enumerate() {
        let path = file(&dir, &format!("bad{i}.jsonl"), &format!("{good}{rest}"));
        let r = run(&["replay", "--engine", "golden", &path]);
        assert_refused(&r, &format!("{path}:{line}: "), parts);
    }
    // Standard input is named as such.
    let r = run_stdin(&["replay", "--engine", "golden", "-"], "{\"t_ns\": 1}\n");
    assert_refused(&r, "<stdin>:1: ", &["missing field"]);
    // A trace that cannot be read.
    let missing = dir.join("missing.jsonl");
    let r = run(&["replay", "--engine", "golden", missing.to_str().unwrap()]);
    assert_refused(&r, "", &["missing.jsonl", "cannot read"]);
}

#[test]
fn verilog_writes_every_top_the_waivers_and_the_cell_stand_ins() {
    let dir = scratch("verilog").join("out");
    let r = run(&["verilog", "--out", dir.to_str().unwrap()]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let waivers = dir.join("waivers.vlt");
    assert_eq!(
        std::fs::read_to_string(&waivers).unwrap(),
        roce_cc_hdl::LINT_WAIVERS
    );
    assert!(r.stdout.contains(waivers.to_str().unwrap()));
    let cells = dir.join("ecp5_cells.v");
    assert_eq!(
        std::fs::read_to_string(&cells).unwrap(),
        roce_cc_hdl::LINT_VENDOR_CELLS
    );
    assert!(r.stdout.contains(cells.to_str().unwrap()));
    for (name, verilog) in roce_cc_hdl::verilog_tops() {
        let v = dir.join(format!("{name}.v"));
        assert_eq!(std::fs::read_to_string(&v).unwrap(), verilog, "{name}");
        assert!(r.stdout.contains(v.to_str().unwrap()), "{}", r.stdout);
        let hint = format!(
            "verilator --lint-only -Wall -Wno-DECLFILENAME {} {} {} --top-module top",
            waivers.display(),
            cells.display(),
            v.display()
        );
        assert!(r.stdout.contains(&hint), "{}", r.stdout);
    }
}

/// connectx defaults, worked by hand (docs: dcqcn.md):
/// * first CNP at 1000 ns: Rc = Rt = line rate (rate_to_set_on_first_cnp = 0), alpha =
///   initial_alpha_value / 1024 = 1023/1024; a sample in the same cycle sees no expiry;
/// * an untouched QP: not limited, max rate, alpha null;
/// * ties replay in file order: a sample before the CNP at the same time sees no limiter.
#[test]
fn golden_replay_of_a_hand_written_trace() {
    let trace = concat!(
        "{\"t_ns\": 1000, \"ev\": \"sample\", \"qp\": 3}\n",
        "{\"t_ns\": 1000, \"ev\": \"cnp\", \"qp\": 3}\n",
        "{\"t_ns\": 1000, \"ev\": \"sample\", \"qp\": 3}\n",
        "\n",
        "{\"t_ns\": 1200, \"ev\": \"tx\", \"qp\": 3, \"bytes\": 1024}\n",
        "{\"t_ns\": 1300, \"ev\": \"ecn\", \"qp\": 7}\n",
        "{\"t_ns\": 1400, \"ev\": \"sample\", \"qp\": 7}\n",
        "{\"t_ns\": 5299, \"ev\": \"ecn\", \"qp\": 7}\n",
        "{\"t_ns\": 5299, \"ev\": \"ecn\", \"qp\": 6}\n",
        "{\"t_ns\": 5300, \"ev\": \"ecn\", \"qp\": 7}\n",
    );
    // connectx: per_flow, 4 us between CNPs of one QP. The mark 3.999 us after the first
    // one on QP 7 is suppressed; QP 6 has its own limiter; 4 us after is sent again.
    let want = concat!(
        "{\"t_ns\": 1000, \"qp\": 3, \"limited\": false, \"rc_mbps\": 100000.0, \"rt_mbps\": 100000.0, \"alpha\": null}\n",
        "{\"t_ns\": 1000, \"qp\": 3, \"limited\": true, \"rc_mbps\": 100000.0, \"rt_mbps\": 100000.0, \"alpha\": 0.9990234375}\n",
        "{\"t_ns\": 1300, \"ev\": \"cnp_out\", \"qp\": 7, \"dscp\": 48, \"prio\": 6}\n",
        "{\"t_ns\": 1400, \"qp\": 7, \"limited\": false, \"rc_mbps\": 100000.0, \"rt_mbps\": 100000.0, \"alpha\": null}\n",
        "{\"t_ns\": 5299, \"ev\": \"cnp_out\", \"qp\": 6, \"dscp\": 48, \"prio\": 6}\n",
        "{\"t_ns\": 5300, \"ev\": \"cnp_out\", \"qp\": 7, \"dscp\": 48, \"prio\": 6}\n",
    );
    let r = run_stdin(&["replay", "--engine", "golden", "-"], trace);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.stdout, want);
    assert_eq!(r.stderr, "");
    // Every output line is JSON with the fields replay.md lists.
    for l in r.stdout.lines() {
        let v: serde_json::Value = serde_json::from_str(l).unwrap();
        let keys: Vec<&str> = v.as_object().unwrap().keys().map(|k| k.as_str()).collect();
        let fields: &[&str] = if keys.contains(&"ev") {
            &["t_ns", "ev", "qp", "dscp", "prio"]
        } else {
            &["t_ns", "qp", "limited", "rc_mbps", "rt_mbps", "alpha"]
        };
        assert_eq!(keys.len(), fields.len(), "{l}");
        for k in fields {
            assert!(keys.contains(k), "{l}");
        }
    }
    // An empty trace prints nothing and succeeds.
    let r = run_stdin(&["replay", "--engine", "golden", "-"], "");
    assert_eq!((r.code, r.stdout.as_str()), (0, ""));
}

/// The README examples' outputs (DCQCN, HPCC with ACKs, the pacer with posts) are what the
/// golden engine prints today.
#[test]
fn docs_example_is_current() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/examples");
    for name in ["basic", "hpcc", "pacer"] {
        let trace = root.join(format!("{name}.jsonl"));
        let r = run(&["replay", "--engine", "golden", trace.to_str().unwrap()]);
        assert_eq!(r.code, 0, "{}", r.stderr);
        let want = std::fs::read_to_string(root.join(format!("{name}.out.jsonl"))).unwrap();
        assert_eq!(r.stdout, want, "regenerate docs/examples/{name}.out.jsonl");
    }
}

/// The two engines print the same bytes: the README example, hand-written traces and
/// seeded random ones (with CE marks), under every profile, a 16-QP core, per_port
/// moderation and no CNP limit.
#[test]
fn rtl_output_equals_golden_byte_for_byte() {
    let dir = scratch("rtl-vs-golden");
    // Every trace below uses QPs 0..16 only, so it fits every parameter set.
    let mut params: Vec<String> = PROFILES
        .iter()
        .map(|name| {
            file(
                &dir,
                &format!("{name}.toml"),
                &run(&["params", "--profile", name]).stdout,
            )
        })
        .collect();
    params.push(file(
        &dir,
        "q16.toml",
        "qps = 16\nrpg_byte_reset = 3000\nclock_mhz = 322\n",
    ));
    params.push(file(
        &dir,
        "per_port.toml",
        "qps = 16\ncnp_moderation = \"per_port\"\nmin_time_between_cnps = 7\ncnp_dscp = 26\ncnp_802p_prio = 3\n",
    ));
    params.push(file(
        &dir,
        "no_limit.toml",
        "qps = 4096\nmin_time_between_cnps = 0\n",
    ));

    let example = |name: &str| {
        std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../docs/examples/{name}")),
        )
        .unwrap()
    };
    let mut traces = vec![
        example("basic.jsonl"),
        example("hpcc.jsonl"),
        concat!(
            "{\"t_ns\": 1000, \"ev\": \"sample\", \"qp\": 3}\n",
            "{\"t_ns\": 1000, \"ev\": \"cnp\", \"qp\": 3}\n",
            "{\"t_ns\": 1000, \"ev\": \"sample\", \"qp\": 3}\n",
            "{\"t_ns\": 1000, \"ev\": \"cnp\", \"qp\": 3}\n",
            "{\"t_ns\": 1000, \"ev\": \"sample\", \"qp\": 3}\n",
            "{\"t_ns\": 5000, \"ev\": \"sample\", \"qp\": 3}\n",
            "{\"t_ns\": 1999999999999, \"ev\": \"sample\", \"qp\": 3}\n",
        )
        .to_string(),
        // CE marks: ties, back to back on one QP, at the window's edge, after seconds.
        concat!(
            "{\"t_ns\": 0, \"ev\": \"ecn\", \"qp\": 1}\n",
            "{\"t_ns\": 0, \"ev\": \"ecn\", \"qp\": 1}\n",
            "{\"t_ns\": 0, \"ev\": \"ecn\", \"qp\": 2}\n",
            "{\"t_ns\": 0, \"ev\": \"sample\", \"qp\": 1}\n",
            "{\"t_ns\": 3999, \"ev\": \"ecn\", \"qp\": 1}\n",
            "{\"t_ns\": 4000, \"ev\": \"ecn\", \"qp\": 1}\n",
            "{\"t_ns\": 4000, \"ev\": \"cnp\", \"qp\": 1}\n",
            "{\"t_ns\": 7000, \"ev\": \"ecn\", \"qp\": 2}\n",
            "{\"t_ns\": 11000, \"ev\": \"ecn\", \"qp\": 2}\n",
            "{\"t_ns\": 1500000000000, \"ev\": \"ecn\", \"qp\": 1}\n",
            "{\"t_ns\": 1500000000000, \"ev\": \"sample\", \"qp\": 1}\n",
        )
        .to_string(),
    ];
    let (mut total, mut cnps) = (0, 0);
    for seed in 1..=12u64 {
        traces.push(random_trace(seed, 16, 400));
    }
    // QPs leaving and re-entering DCQCN mode (host rate, off) mid-trace.
    for seed in 13..=18u64 {
        traces.push(random_mode_trace(seed, 16, 400));
    }
    // All four modes: HPCC QPs with ACKs of multi-hop flows beside DCQCN, host and off.
    for seed in 19..=24u64 {
        traces.push(random_hpcc_trace(seed, 16, 400));
    }
    let mut hpcc_samples = 0;
    for p in &params {
        for (i, trace) in traces.iter().enumerate() {
            let path = file(&dir, &format!("t{i}.jsonl"), trace);
            let g = run(&["replay", "--engine", "golden", "--params", p, &path]);
            let r = run(&["replay", "--engine", "rtl", "--params", p, &path]);
            assert_eq!(g.code, 0, "golden: {}", g.stderr);
            assert_eq!(r.code, 0, "rtl: {}", r.stderr);
            assert_eq!(r.stdout, g.stdout, "params {p}, trace {path}");
            total += g.stdout.lines().count();
            cnps += g.stdout.matches("cnp_out").count();
            hpcc_samples += g.stdout.matches("\"mode\": \"hpcc\"").count();
        }
    }
    assert!(total > 1000, "only {total} lines compared");
    assert!(cnps > 200, "only {cnps} cnp_out lines compared");
    assert!(
        hpcc_samples > 500,
        "only {hpcc_samples} HPCC samples compared"
    );
}

/// Traces with `post` events (the core with the pacer inside): both engines print the same
/// bytes for the README example and random traces mixing posts with every other kind,
/// under every profile (1024 QPs) and a 64-QP core at 322 MHz; a trace with posts for a
/// core of more than 1024 QPs is refused with what to set.
#[test]
fn paced_rtl_output_equals_golden_byte_for_byte() {
    let dir = scratch("paced-rtl-vs-golden");
    let mut params: Vec<String> = PROFILES
        .iter()
        .map(|name| {
            file(
                &dir,
                &format!("{name}.toml"),
                &run(&["params", "--profile", name]).stdout,
            )
        })
        .collect();
    params.push(file(&dir, "q64.toml", "qps = 64\nclock_mhz = 322\n"));
    let mut traces = vec![
        std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/examples/pacer.jsonl"),
        )
        .unwrap(),
    ];
    for seed in 31..=33u64 {
        traces.push(random_paced_trace(seed, 64, 150));
    }
    let mut sends = 0;
    for p in &params {
        for (i, trace) in traces.iter().enumerate() {
            let path = file(&dir, &format!("t{i}.jsonl"), trace);
            let g = run(&["replay", "--engine", "golden", "--params", p, &path]);
            let r = run(&["replay", "--engine", "rtl", "--params", p, &path]);
            assert_eq!(g.code, 0, "golden: {}", g.stderr);
            assert_eq!(r.code, 0, "rtl: {}", r.stderr);
            assert_eq!(r.stdout, g.stdout, "params {p}, trace {path}");
            sends += g.stdout.matches("\"ev\": \"send\"").count();
        }
    }
    assert!(sends > 200, "only {sends} send lines compared");
    let big = file(&dir, "q4096.toml", "qps = 4096\n");
    let path = file(&dir, "t0.jsonl", &traces[0]);
    for engine in ["golden", "rtl"] {
        let r = run(&["replay", "--engine", engine, "--params", &big, &path]);
        assert_eq!(r.code, 2, "{engine}: {}", r.stderr);
        assert!(
            r.stderr.contains("qps = 4096") && r.stderr.contains("1024 or less"),
            "{}",
            r.stderr
        );
    }
}

/// `roce-cc driver --bar model`: the block list, a parameter file loaded through the
/// registers, the QP window after a trace equal to the replay's last sample, counters, and
/// refusals with exit code 2.
#[test]
fn driver_over_the_model_and_sim_bars() {
    for bar in ["model", "sim"] {
        driver_over(bar);
    }
    // The two bars print the same, byte for byte.
    let example = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/examples/basic.jsonl");
    let example = example.to_str().unwrap();
    for cmd in [
        &["counters"][..],
        &["qp", "5"],
        &["params", "show"],
        &["info"],
    ] {
        let out = |bar: &str| {
            let mut args = vec!["driver", "--bar", bar, "--trace", example];
            args.extend_from_slice(cmd);
            let r = run(&args);
            assert_eq!(r.code, 0, "{}", r.stderr);
            r.stdout
        };
        assert_eq!(out("sim"), out("model"), "{cmd:?}");
    }
    // HPCC through the register block: the hpcc-ns3 parameters loaded and applied, QP 5
    // put into HPCC mode by the trace; both bars show its HPCC state alike. An ACK cannot
    // go through a BAR.
    let dir = scratch("driver-hpcc");
    let prof = file(
        &dir,
        "hpcc.toml",
        &run(&["params", "--profile", "hpcc-ns3"]).stdout,
    );
    let trace = file(
        &dir,
        "hpcc.jsonl",
        "{\"t_ns\": 0, \"ev\": \"mode\", \"qp\": 5, \"mode\": \"hpcc\"}\n\
         {\"t_ns\": 100, \"ev\": \"cnp\", \"qp\": 5}\n",
    );
    for cmd in [&["qp", "5"][..], &["params", "show"], &["counters"]] {
        let out = |bar: &str| {
            let mut args = vec!["driver", "--bar", bar, "--params", &prof, "--trace", &trace];
            args.extend_from_slice(cmd);
            let r = run(&args);
            assert_eq!(r.code, 0, "{}", r.stderr);
            r.stdout
        };
        let m = out("model");
        assert_eq!(out("sim"), m, "{cmd:?}");
        if cmd[0] == "qp" {
            assert_eq!(
                m,
                "{\"qp\": 5, \"mode\": \"hpcc\", \"rate_mbps\": 100000.0, \"rc_mbps\": 100000.0, \"u\": 1.0, \"win_bytes\": 100000}\n"
            );
        }
        if cmd[0] == "params" {
            assert!(
                m.contains("hpcc_int_multi = 4") && m.contains("hpcc_rate_ai_mbps = 40"),
                "{m}"
            );
        }
    }
    let acks = file(
        &dir,
        "ack.jsonl",
        "{\"t_ns\": 0, \"ev\": \"mode\", \"qp\": 5, \"mode\": \"hpcc\"}\n\
         {\"t_ns\": 9, \"ev\": \"ack\", \"qp\": 5, \"seq\": 1, \"snd_nxt\": 2, \"hops\": [{\"rate\": 2, \"ts\": 1, \"tx\": 1, \"qlen\": 0}]}\n",
    );
    for bar in ["model", "sim"] {
        let r = run(&["driver", "--bar", bar, "--trace", &acks, "info"]);
        assert_refused(&r, "", &[":2:", "datapath port", "roce-cc replay"]);
    }
    let r = run(&["driver", "--bar", "sim", "--qps", "64", "info"]);
    assert_refused(&r, "", &["[16, 1024]", "not 64"]);
    let r = run(&["driver", "--bar", "sim", "--clock-mhz", "100", "info"]);
    assert_refused(&r, "", &["250 MHz"]);
    let r = run(&["driver", "--bar", "/nonexistent/resource0", "info"]);
    assert_refused(&r, "", &["/nonexistent/resource0"]);
}

/// The driver commands on one BAR (`model` or `sim`).
fn driver_over(bar: &str) {
    let r = run(&["driver", "--bar", bar, "info"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    for name in [
        "fw_id",
        "global_params",
        "rp_params",
        "np_params",
        "qp_window",
        "counters",
    ] {
        assert!(r.stdout.contains(name), "{}", r.stdout);
    }
    let dir = scratch("driver");
    let paper = file(
        &dir,
        "paper.toml",
        &run(&["params", "--profile", "paper"]).stdout,
    );
    let r = run(&["driver", "--bar", bar, "--params", &paper, "params", "show"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(
        roce_cc_params::Params::from_toml_str(&r.stdout).unwrap(),
        roce_cc_params::Params::profile("paper").unwrap()
    );
    // The QP window after the example trace shows what the replay's last sample of QP 5
    // prints, under the paper profile loaded through the registers.
    let example = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/examples/basic.jsonl");
    let example = example.to_str().unwrap();
    let replay = run(&["replay", "--engine", "golden", "--params", &paper, example]).stdout;
    let last5 = replay
        .lines()
        .filter(|l| l.contains("\"qp\": 5,"))
        .last()
        .unwrap();
    let r = run(&[
        "driver", "--bar", bar, "--params", &paper, "--trace", example, "qp", "5",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let field = |line: &str, key: &str| {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        v[key].to_string()
    };
    for key in ["limited", "rc_mbps", "rt_mbps", "alpha"] {
        assert_eq!(
            field(r.stdout.trim(), key),
            field(last5, key),
            "{key}: {}",
            r.stdout
        );
    }
    let r = run(&["driver", "--bar", bar, "--trace", example, "counters"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("cnp_sent           3"), "{}", r.stdout);
    // Refusals.
    let bad = file(&dir, "bad.toml", "rpg_gd = 99\n");
    let r = run(&["driver", "--bar", bar, "params", "load", &bad]);
    assert_refused(&r, &bad, &["rpg_gd = 99", "1..=15"]);
    let r = run(&[
        "driver", "--bar", bar, "--qps", "16", "--params", &paper, "info",
    ]);
    assert_refused(&r, "", &["qps = 1024", "built with qps = 16"]);
    let r = run(&["driver", "--bar", bar, "qp", "1024"]);
    assert_refused(&r, "", &["QP 1024 is out of range", "0..=1023"]);
    let r = run(&["driver", "--bar", "/nonexistent/resource0", "info"]);
    assert_refused(&r, "", &["/nonexistent/resource0"]);
}

/// `roce-cc bench --json` rows for one unit, pattern and size (the Verilated RTL).
fn bench_rows(unit: &str, pattern: &str, qps: u32, cycles: u32) -> Vec<serde_json::Value> {
    let r = run(&[
        "bench",
        "--unit",
        unit,
        "--pattern",
        pattern,
        "--qps",
        &qps.to_string(),
        "--cycles",
        &cycles.to_string(),
        "--json",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    r.stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

fn row<'a>(rows: &'a [serde_json::Value], stream: &str) -> &'a serde_json::Value {
    rows.iter()
        .find(|r| r["stream"] == stream)
        .unwrap_or_else(|| panic!("no {stream} row in {rows:?}"))
}

/// Every accepted event of the RP's streams has its rate report and every offered event was
/// taken in the end, whatever the pattern; the rows add up to `all`.
#[test]
fn bench_accounts_for_every_event() {
    for pattern in ["one-qp", "mixed"] {
        let rows = bench_rows("core", pattern, 16, 3000);
        for r in &rows {
            assert_eq!(r["offered"], r["accepted"], "{pattern}: {r}");
            let s = r["stream"].as_str().unwrap();
            if !["rx", "all"].contains(&s) {
                assert_eq!(r["reports"], r["accepted"], "{pattern}: {r}");
            }
        }
        let all = row(&rows, "all");
        let sum: u64 = rows
            .iter()
            .filter(|r| r["stream"] != "all")
            .map(|r| r["accepted"].as_u64().unwrap())
            .sum();
        assert_eq!(all["accepted"].as_u64().unwrap(), sum);
    }
    // One QP's packets wait for their own QP's previous update: the stream is held.
    let rows = bench_rows("rp", "one-qp", 16, 3000);
    let tx = row(&rows, "packet");
    assert!(tx["not_ready_cycles"].as_u64().unwrap() > 0, "{tx}");
    assert!(tx["longest_wait"].as_u64().unwrap() > 0, "{tx}");
}

/// Round-robin over 1024 QPs: nothing waits on a hazard, one event per cycle on each unit.
#[test]
fn bench_round_robin_takes_one_event_per_cycle() {
    let rows = bench_rows("core", "round-robin", 1024, 4000);
    for s in ["packet", "rx"] {
        let r = row(&rows, s);
        assert_eq!(r["events_per_cycle"].as_f64().unwrap(), 1.0, "{r}");
        assert_eq!(r["not_ready_cycles"], 0, "{r}");
        assert_eq!(r["longest_wait"], 0, "{r}");
    }
}

/// Hot QPs among many: two alternating QPs each follow at the one-QP rate (one event per 8
/// cycles each), and uniformly random packets over 1024 QPs go in at nearly one per cycle
/// (about one in nine has a writer of its QP in the window and waits in the RP's input
/// queue for its follower check while the rest go past it).
#[test]
fn bench_two_hot_qps_and_random_qps_keep_up() {
    let two = bench_rows("core", "two-qp", 1024, 20000);
    let tx = row(&two, "packet");
    assert!(tx["events_per_cycle"].as_f64().unwrap() >= 0.245, "{tx}");
    let random = bench_rows("core", "random", 1024, 20000);
    let tx = row(&random, "packet");
    assert!(tx["events_per_cycle"].as_f64().unwrap() >= 0.99, "{tx}");
    assert_eq!(tx["reports"], tx["accepted"], "{tx}");
}

/// Sixteen QPs in turn on the Verilated 16-QP RP: every event comes 16 events after its
/// QP's last, so nearly every event follows its predecessor through the same-QP block, and
/// the follower check (one entry per cycle) lets them in at one per cycle.
#[test]
fn bench_sixteen_qps_round_robin_one_event_per_cycle() {
    let rows = bench_rows("rp", "round-robin", 16, 20000);
    let tx = row(&rows, "packet");
    assert!(tx["events_per_cycle"].as_f64().unwrap() >= 0.99, "{tx}");
    assert_eq!(tx["reports"], tx["accepted"], "{tx}");
}

/// The HPCC window unit through `roce-cc bench`: 16 QPs in turn go in at one ACK per
/// cycle, one QP at one per 8 cycles, and every ACK taken is reported.
#[test]
fn bench_hpcc_one_ack_per_cycle_across_qps() {
    let rows = bench_rows("hpcc", "round-robin", 16, 2000);
    let ack = row(&rows, "ack");
    assert_eq!(ack["accepted"], 2000, "{ack}");
    assert_eq!(ack["reports"], 2000, "{ack}");
    assert_eq!(ack["not_ready_cycles"], 0, "{ack}");
    let rows = bench_rows("hpcc", "one-qp", 16, 2000);
    let ack = row(&rows, "ack");
    let accepted = ack["accepted"].as_u64().unwrap();
    // One per 8 cycles, plus those waiting in the unit's 4-entry ACK queue and its first
    // pipeline register when the window closes.
    assert!((250..=255).contains(&accepted), "one per 8 cycles: {ack}");
    assert_eq!(ack["reports"], accepted, "{ack}");
}

/// A size without a Verilated model is refused with the sizes there are.
#[test]
fn bench_refuses_a_size_without_a_model() {
    let r = run(&["bench", "--unit", "np", "--qps", "1024"]);
    assert_refused(
        &r,
        "no Verilated np with 1024 QPs",
        &["[16]", "--engine golden"],
    );
}

/// One QP sending 1 KB packets back to back at 100 Gb/s (one every 81.92 ns) with a CNP
/// every 40 us for 300 us, sampled every 5 us: the golden and the RTL replay print the same
/// bytes (the RTL applies each event at its own time stamp however long the RP holds it;
/// `golden_vs_ideal::one_qp_at_line_rate_with_cnps` checks the golden model against
/// dcqcn.md on the same kind of trace).
#[test]
fn one_qp_at_line_rate_replays_identically() {
    let dir = scratch("line-rate");
    let mut t = String::new();
    let mut lines: Vec<(u64, String)> = Vec::new();
    for k in 0..(500_000 * 100 / 8192) {
        let t_ns = k * 8192 / 100;
        lines.push((
            t_ns,
            "\"ev\": \"tx\", \"qp\": 0, \"bytes\": 1024".to_string(),
        ));
    }
    for k in 0..8u64 {
        lines.push((20_000 + 40_000 * k, "\"ev\": \"cnp\", \"qp\": 0".into()));
    }
    for k in 0..100u64 {
        lines.push((5_000 * k + 1, "\"ev\": \"sample\", \"qp\": 0".into()));
    }
    lines.sort_by_key(|l| l.0);
    for (t_ns, ev) in &lines {
        t.push_str(&format!("{{\"t_ns\": {t_ns}, {ev}}}\n"));
    }
    let path = file(&dir, "line_rate.jsonl", &t);
    let g = run(&["replay", "--engine", "golden", &path]);
    let r = run(&["replay", "--engine", "rtl", &path]);
    assert_eq!(g.code, 0, "golden: {}", g.stderr);
    assert_eq!(r.code, 0, "rtl: {}", r.stderr);
    assert_eq!(g.stdout.lines().count(), 100);
    assert!(g.stdout.contains("\"limited\": true"));
    assert_eq!(r.stdout, g.stdout);
}

/// `bench --unit pacer` (golden engine): one grant per cycle at 1024 and 4096 QPs, and
/// every accuracy row whose rates sum below the line rate within pacing.md's 0.1 %.
#[test]
fn bench_pacer_grants_one_per_cycle_and_keeps_rates() {
    let r = run(&[
        "bench", "--unit", "pacer", "--engine", "golden", "--cycles", "5000", "--json",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let rows: Vec<serde_json::Value> = r
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    let grants: Vec<_> = rows.iter().filter(|r| r["table"] == "grants").collect();
    assert_eq!(grants.len(), 2);
    for g in grants {
        assert_eq!(g["grants_per_cycle"].as_f64().unwrap(), 1.0, "{g}");
    }
    let acc: Vec<_> = rows.iter().filter(|r| r["table"] == "accuracy").collect();
    assert_eq!(acc.len(), 12);
    for a in acc {
        if a["oversubscribed"] == false {
            assert!(a["error"].as_f64().unwrap().abs() < 1e-3, "{a}");
        }
    }
}
