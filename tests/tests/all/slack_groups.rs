//! `scripts/slack_groups.py` (every endpoint's slack from a nextpnr report, grouped by
//! register) on small reports written here: which groups it lists, their worst slack and
//! miss counts, and its error for a report without per-endpoint timing.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Numbers the report files of one test process (the tests run in parallel).
static REPORTS: AtomicUsize = AtomicUsize::new(0);

fn script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/slack_groups.py")
}

/// One net of a nextpnr report: its driver and `(cell, port, arrival ns)` endpoints.
fn net(driver: &str, endpoints: &[(&str, &str, f64)]) -> String {
    let eps: Vec<String> = endpoints
        .iter()
        .map(|(cell, port, t)| {
            format!(
                r#"{{"cell": "{cell}", "port": "{port}", "event": "posedge clk", "delay": [1.0, {t}]}}"#
            )
        })
        .collect();
    format!(
        r#"{{"driver": "{driver}", "port": "F", "net": "n_{driver}", "event": "posedge clk", "sources": [], "endpoints": [{}]}}"#,
        eps.join(", ")
    )
}

fn run(report: &str, args: &[&str]) -> (i32, String, String) {
    let dir = std::env::temp_dir().join(format!("slack_groups_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!(
        "report_{}.json",
        REPORTS.fetch_add(1, Ordering::SeqCst)
    ));
    std::fs::write(&path, report).unwrap();
    let out = Command::new("python3")
        .arg(script())
        .arg(&path)
        .args(args)
        .output()
        .expect("python3 runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn lists_the_groups_that_miss_worst_first() {
    let nets = [
        // Two bits of `q0_ev` (one misses 10 ns by 2.5), an array register's elements
        // (`hz_match$3`, `hz_match$70`: one group), a block RAM tile, a synchronous reset
        // (`LSR`) and a group that meets timing. The script subtracts the setup time of the
        // port: 0.205 ns at a block RAM address, 0.424 ns at `LSR`, none at `DI` or `M`; the
        // `LSR` endpoint arrives before 10 ns and still misses.
        net(
            "core.rp.q0_ev.q_TRELLIS_FF_Q_1_DI_LUT4_Z",
            &[
                ("core.rp.q0_ev.q_TRELLIS_FF_Q_1", "DI", 12.5),
                ("core.rp.q0_ev.q_TRELLIS_FF_Q_2", "DI", 9.0),
            ],
        ),
        net(
            "x_LUT4_Z",
            &[
                ("core.rp.hz_match$3.q_TRELLIS_FF_Q", "DI", 10.75),
                ("core.rp.hz_match$70.q_TRELLIS_FF_Q", "DI", 11.0),
            ],
        ),
        net("y_LUT4_Z", &[("core.rp.ram.mem.0.7", "ADB12", 10.045)]),
        net(
            "w_LUT4_Z",
            &[("core.rp.e_line.q_TRELLIS_FF_Q_4", "LSR", 9.876)],
        ),
        net("z_LUT4_Z", &[("core.rp.s1_qp.q_TRELLIS_FF_Q_3", "M", 4.0)]),
    ];
    let report = format!(
        r#"{{"fmax": {{}}, "detailed_net_timings": [{}]}}"#,
        nets.join(", ")
    );
    let (code, out, err) = run(&report, &[]);
    assert_eq!(code, 0, "stderr: {err}");
    let lines: Vec<&str> = out.lines().collect();
    assert!(
        lines[0].starts_with("4 register groups, 5 endpoints miss 10 ns"),
        "{out}"
    );
    // Worst first: q0_ev (-2.50, 1 of 2), hz_match[] (-1.00, 2 of 2), e_line (-0.30),
    // ram.mem (-0.25).
    let rows: Vec<Vec<&str>> = lines[2..]
        .iter()
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert_eq!(rows.len(), 4, "{out}");
    assert_eq!(&rows[0][..3], &["-2.50", "1/2", "core.rp.q0_ev"], "{out}");
    assert_eq!(
        &rows[1][..3],
        &["-1.00", "2/2", "core.rp.hz_match[]"],
        "{out}"
    );
    assert_eq!(&rows[2][..3], &["-0.30", "1/1", "core.rp.e_line"], "{out}");
    assert_eq!(&rows[3][..3], &["-0.25", "1/1", "core.rp.ram.mem"], "{out}");
    assert!(
        !out.contains("s1_qp"),
        "a group that meets timing is listed: {out}"
    );

    // A longer period: only q0_ev misses 12 ns.
    let (code, out, _) = run(&report, &["--period-ns", "12"]);
    assert_eq!(code, 0);
    assert!(
        out.starts_with("1 register groups, 1 endpoints miss 12 ns"),
        "{out}"
    );
}

#[test]
fn a_report_without_endpoint_timing_is_refused() {
    let (code, out, err) = run(r#"{"fmax": {}, "critical_paths": []}"#, &[]);
    assert_eq!(code, 2, "stdout: {out}");
    assert!(err.contains("--detailed-timing-report"), "{err}");
}
