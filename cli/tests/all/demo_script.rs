//! The README's main command, `./scripts/demo.sh`, run end to end by the test command, so
//! that it cannot break unnoticed. The script runs with the `roce-cc` binary cargo built
//! for this test (`ROCE_CC_BIN`) and writes into a scratch directory (`ROCE_CC_OUT`);
//! every other step is the script's own: the Verilog of every top and its lint, the
//! parameter profile, the golden and RTL replays, their comparison and the waveform.

use std::path::Path;
use std::process::Command;

#[test]
fn demo_script_runs_end_to_end() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("demo-script");
    let _ = std::fs::remove_dir_all(&out);
    let run = Command::new("bash")
        .arg(root.join("scripts/demo.sh"))
        .env("ROCE_CC_BIN", env!("CARGO_BIN_EXE_roce-cc"))
        .env("ROCE_CC_OUT", &out)
        .output()
        .expect("bash runs scripts/demo.sh");
    let stdout = String::from_utf8_lossy(&run.stdout);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(
        run.status.success(),
        "scripts/demo.sh failed ({}):\n--- stdout\n{stdout}\n--- stderr\n{stderr}",
        run.status
    );

    // Every top was linted, the board design (with its vendor PLL) included.
    let tops: Vec<_> = std::fs::read_dir(out.join("verilog"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.ends_with(".v") && n != "ecp5_cells.v")
        .collect();
    assert!(
        tops.iter().any(|n| n.starts_with("board_ulx3s")),
        "{tops:?}"
    );
    for top in &tops {
        assert!(
            stdout.contains(&format!(
                "lint clean: {}",
                out.join("verilog").join(top).display()
            )),
            "{top} was not linted:\n{stdout}"
        );
    }

    // Both replays wrote the same non-empty output, and the RTL run its waveform.
    let golden = std::fs::read(out.join("basic.golden.jsonl")).unwrap();
    let rtl = std::fs::read(out.join("basic.rtl.jsonl")).unwrap();
    assert!(!golden.is_empty());
    assert_eq!(golden, rtl, "the script compared them; so does the test");
    let vcd = std::fs::read_to_string(out.join("basic.vcd")).unwrap();
    assert!(vcd.contains("$enddefinitions"), "not a VCD file");
    assert!(vcd.lines().filter(|l| l.starts_with('#')).count() > 10);
}
