//! `roce-cc synth`: its argument errors (fast, always run), and the whole core flow for
//! 16 QPs (yosys -> nextpnr-ecp5, a few minutes on two cores; it runs only with
//! `ROCE_CC_SYNTH=1`, and installs the tools into `.venv-synth/` on first use).

use std::path::{Path, PathBuf};
use std::process::Command;

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

fn run(args: &[&str]) -> Run {
    let out = Command::new(env!("CARGO_BIN_EXE_roce-cc"))
        .args(args)
        .output()
        .expect("runs");
    Run {
        code: out.status.code().expect("exited normally"),
        stdout: String::from_utf8(out.stdout).expect("utf-8 stdout"),
        stderr: String::from_utf8(out.stderr).expect("utf-8 stderr"),
    }
}

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("roce-cc-synth")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[test]
fn bad_qps_says_what_is_valid() {
    let out = scratch("bad_qps");
    for qps in ["1000", "1", "32768", "0"] {
        let r = run(&[
            "synth",
            "--core",
            "--qps",
            qps,
            "--out",
            out.to_str().unwrap(),
        ]);
        assert_eq!(r.code, 2, "--qps {qps}: {}", r.stderr);
        assert!(
            r.stderr.contains("power of two, 2..=16384"),
            "--qps {qps}: {}",
            r.stderr
        );
    }
    assert!(!out.exists(), "nothing is written for bad arguments");
}

#[test]
fn unknown_device_lists_the_valid_ones() {
    let out = scratch("bad_device");
    let r = run(&[
        "synth",
        "--core",
        "--device",
        "100k",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr.contains("unknown --device") && r.stderr.contains("25k, 45k, 85k"),
        "{}",
        r.stderr
    );
    assert!(!out.exists());
}

#[test]
fn synth_needs_core() {
    let out = scratch("no_core");
    let r = run(&["synth", "--out", out.to_str().unwrap()]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("pass --core"), "{}", r.stderr);
}

/// The whole flow for 16 QPs on the 85k, checked field by field.
#[test]
fn core_flow_16_qps() {
    if std::env::var("ROCE_CC_SYNTH").as_deref() != Ok("1") {
        eprintln!(
            "skipped: the synthesis flow for 16 QPs (a few minutes) runs with ROCE_CC_SYNTH=1"
        );
        return;
    }
    let out = scratch("core_q16");
    let r = run(&[
        "synth",
        "--core",
        "--qps",
        "16",
        "--freq",
        "100",
        "--device",
        "85k",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stderr.contains("nextpnr: done"), "{}", r.stderr);
    assert!(r.stdout.contains("Fmax"), "{}", r.stdout);
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("report.json")).unwrap()).unwrap();
    let n = |k: &str| {
        report[k]
            .as_u64()
            .unwrap_or_else(|| panic!("{k} missing: {report}"))
    };
    assert_eq!(n("qps"), 16);
    assert_eq!(report["device"], "85k");
    assert_eq!(report["target_mhz"].as_f64(), Some(100.0));
    let fmax = report["fmax_mhz"].as_f64().unwrap();
    assert!(fmax > 0.0 && fmax < 1000.0, "fmax {fmax}");
    assert_eq!(report["events_per_s"].as_f64(), Some((fmax * 1e6).round()));
    // More LUTs and FFs than the shell alone has: the core was not optimised away.
    assert!(n("luts") > 5000, "luts {}", n("luts"));
    assert!(n("ffs") > report["shell"]["ffs"].as_u64().unwrap() + 1000);
    // The RP's rate and alpha arithmetic is on the DSP blocks whatever the QP count (51
    // MULT18X18D at 1024 QPs, docs/synthesis.md); the per-QP tables shrink with the QP
    // count (27 DP16KD at 1024 QPs).
    assert!(n("dsp") >= 40, "dsp {}", n("dsp"));
    assert!(n("bram") <= 27, "bram {}", n("bram"));
    assert_eq!(n("io"), 3, "clock, sin, sout");
    let cp = &report["critical_path"];
    assert!(cp["delay_ns"].as_f64().unwrap() > 0.0, "{cp}");
    assert!(cp["logic_stages"].as_u64().unwrap() > 0, "{cp}");
    assert!(report["tools"]["yosys"].as_str().unwrap().contains("Yosys"));
    assert!(
        report["tools"]["nextpnr"]
            .as_str()
            .unwrap()
            .contains("nextpnr")
    );
    for stage in ["yosys", "nextpnr", "total"] {
        assert!(report["seconds"][stage].as_f64().unwrap() > 0.0, "{stage}");
    }
    assert!(
        std::fs::read_to_string(out.join("summary.md"))
            .unwrap()
            .contains("| Fmax |")
    );
}
