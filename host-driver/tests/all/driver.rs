//! The driver over the `model` BAR and over an mmap of a plain file standing in for a
//! device's BAR: block discovery (good list, loop, pointer out of range, unknown block,
//! not a roce-cc core, device gone), parameter files (refused before any write; loaded in
//! an order the device accepts; the core then behaves as `roce-cc replay` says), counters
//! and the QP window.

use roce_cc_host_driver::{BusError, Device, DriverError, FileBar, ModelBar, RegIo, SimBar, regs};
use roce_cc_params::{PROFILES, Params};
use roce_cc_regmap::{BAR_SIZE, blocks};
use roce_cc_sim::replay::OutLine;
use roce_cc_sim::replay::ReplayEngine;
use roce_cc_sim::replay_golden::GoldenEngine;
use roce_cc_sim::trace::{parse_trace, random_mode_trace};
use std::path::PathBuf;

fn build16() -> Params {
    Params {
        qps: 16,
        ..Params::default()
    }
}

/// Counts writes, to prove that a refused file touches nothing.
struct Counting<B: RegIo> {
    inner: B,
    writes: usize,
}

impl<B: RegIo> RegIo for Counting<B> {
    fn read32(&mut self, offset: u32) -> Result<u32, BusError> {
        self.inner.read32(offset)
    }
    fn write32_strb(&mut self, offset: u32, value: u32, strb: u32) -> Result<(), BusError> {
        self.writes += 1;
        self.inner.write32_strb(offset, value, strb)
    }
}

#[test]
fn walks_the_model_and_finds_every_block() {
    let mut d = Device::open(ModelBar::new(&build16())).unwrap();
    let names: Vec<_> = d.blocks().iter().map(|b| b.name.unwrap()).collect();
    let want: Vec<_> = blocks().iter().map(|b| b.name).collect();
    assert_eq!(names, want);
    assert!(d.unknown_blocks().is_empty());
    assert_eq!(d.fw_id().unwrap(), roce_cc_regmap::fw_id());
}

fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("driver");
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// A BAR image: the map's block headers, then `edit` applied.
fn image(edit: impl FnOnce(&mut Vec<u32>)) -> PathBuf {
    let mut words = vec![0u32; (BAR_SIZE / 4) as usize];
    for b in blocks() {
        let i = (b.base / 4) as usize;
        words[i] = b.type_id;
        words[i + 1] = b.version;
        words[i + 2] = b.next;
    }
    edit(&mut words);
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let path = scratch(&format!(
        "bar{}.bin",
        bytes.iter().map(|&b| b as u64).sum::<u64>()
    ));
    std::fs::write(&path, bytes).unwrap();
    path
}

#[test]
fn file_bar_walks_and_reports_broken_lists() {
    // Good list.
    let d = Device::open(FileBar::open(&image(|_| {})).unwrap()).unwrap();
    assert_eq!(d.blocks().len(), blocks().len());
    // An unknown block spliced in at 0xe00 is walked over and reported.
    let last = blocks().last().unwrap().base as usize / 4;
    let d = Device::open(
        FileBar::open(&image(|w| {
            w[last + 2] = 0xe00;
            w[0xe00 / 4] = 0x1234_5678;
            w[0xe00 / 4 + 1] = 1;
        }))
        .unwrap(),
    )
    .unwrap();
    let unknown = d.unknown_blocks();
    assert_eq!(unknown.len(), 1);
    assert_eq!((unknown[0].base, unknown[0].type_id), (0xe00, 0x1234_5678));
    // A loop.
    let e = Device::open(FileBar::open(&image(|w| w[last + 2] = 0x100)).unwrap()).err();
    assert!(
        matches!(&e, Some(DriverError::BadBlockList(m)) if m.contains("loop")),
        "{e:?}"
    );
    // A pointer out of the BAR.
    let e = Device::open(FileBar::open(&image(|w| w[last + 2] = 0x2000)).unwrap()).err();
    assert!(
        matches!(&e, Some(DriverError::BadBlockList(m)) if m.contains("outside")),
        "{e:?}"
    );
    // Not a roce-cc core.
    let e = Device::open(FileBar::open(&image(|w| w[0] = 0xdead_beef)).unwrap()).err();
    assert!(
        matches!(&e, Some(DriverError::BadBlockList(m)) if m.contains("fw_id")),
        "{e:?}"
    );
    // A device that has gone away reads as all ones.
    let e = Device::open(FileBar::open(&image(|w| w.fill(u32::MAX))).unwrap()).err();
    assert_eq!(e, Some(DriverError::DeviceGone));
    // Too small to be the BAR.
    let small = scratch("small.bin");
    std::fs::write(&small, [0u8; 100]).unwrap();
    assert!(matches!(FileBar::open(&small), Err(DriverError::Open(m)) if m.contains("4096")));
}

#[test]
fn file_bar_reads_and_writes_through_the_mapping() {
    let path = image(|_| {});
    let mut bar = FileBar::open(&path).unwrap();
    bar.write32(0x40c, 0xa5a5_0001).unwrap();
    assert_eq!(bar.read32(0x40c).unwrap(), 0xa5a5_0001);
    assert!(
        bar.write32_strb(0x40c, 1, 0x1).is_err(),
        "partial writes refused"
    );
    assert!(bar.read32(0x1000).is_err() && bar.read32(0x3).is_err());
    drop(bar);
    let bytes = std::fs::read(&path).unwrap();
    assert_eq!(&bytes[0x40c..0x410], &0xa5a5_0001u32.to_le_bytes());
}

#[test]
fn a_device_that_goes_away_mid_session_is_noticed() {
    struct Vanishing(ModelBar, bool);
    impl RegIo for Vanishing {
        fn read32(&mut self, offset: u32) -> Result<u32, BusError> {
            if self.1 {
                Ok(u32::MAX)
            } else {
                self.0.read32(offset)
            }
        }
        fn write32_strb(&mut self, o: u32, v: u32, s: u32) -> Result<(), BusError> {
            self.0.write32_strb(o, v, s)
        }
    }
    let mut d = Device::open(Vanishing(ModelBar::new(&build16()), false)).unwrap();
    assert!(d.counters().is_ok());
    d.bar().1 = true;
    assert_eq!(d.counters().err(), Some(DriverError::DeviceGone));
    assert_eq!(d.qp(0).err(), Some(DriverError::DeviceGone));
}

#[test]
fn bad_parameter_files_are_refused_before_any_write() {
    let mut d = Device::open(Counting {
        inner: ModelBar::new(&build16()),
        writes: 0,
    })
    .unwrap();
    let bad = Params {
        qps: 16,
        rpg_gd: 16,
        ..Params::default()
    };
    let e = d.load_params(&bad).unwrap_err();
    assert!(e.to_string().contains("rpg_gd") && e.to_string().contains("nothing was written"));
    let other_build = Params::default(); // 1024 QPs
    let e = d.load_params(&other_build).unwrap_err();
    assert!(
        e.to_string().contains("qps = 1024") && e.to_string().contains("16"),
        "{e}"
    );
    assert_eq!(d.bar().writes, 0);
}

/// Every profile (and sets far from the current one) loads through the registers in an
/// order the device accepts, and reads back exactly.
#[test]
fn parameter_files_load_and_read_back() {
    let mut d = Device::open(ModelBar::new(&build16())).unwrap();
    let mut sets: Vec<Params> = PROFILES
        .iter()
        .map(|n| Params {
            qps: 16,
            ..Params::profile(n).unwrap()
        })
        .collect();
    // Lower line rate with a high floor, then a much higher one: the order matters.
    sets.push(Params {
        qps: 16,
        line_rate_mbps: 10_000,
        rpg_max_rate: 9_000,
        rpg_min_rate: 8_000,
        rpg_ai_rate: 10_000,
        ..Params::default()
    });
    sets.push(Params {
        qps: 16,
        line_rate_mbps: 800_000,
        rpg_min_rate: 700_000,
        rpg_hai_rate: 800_000,
        cnp_moderation: roce_cc_params::CnpModeration::PerPort,
        ..Params::default()
    });
    for p in sets {
        d.load_params(&p).unwrap_or_else(|e| panic!("{e}: {p:?}"));
        assert_eq!(d.params().unwrap(), p);
        assert_eq!(d.bar().model.applied, p);
    }
}

/// A PARAMS.toml loaded through the driver makes the core behave as the same file does in
/// `roce-cc replay`: after the same events, the QP window shows what the replay's final
/// samples print, and the CNP counter counts its `cnp_out` lines.
/// A PARAMS.toml loaded through the driver makes the core behave exactly as the same
/// parameters do in `roce-cc replay` (golden engine): the QP window shows every QP's state
/// at the end of a trace as replay's samples do, and `cnp_sent` counts replay's CNPs. On the
/// golden register block (`model`) and on the Verilated core behind AXI4-Lite (`sim`).
fn loaded_parameters_behave_as_in_replay<B: RegIo>(
    bar_name: &str,
    open: impl Fn() -> B,
    feed: impl Fn(&mut B, &[roce_cc_sim::replay::TimedEvent]),
) {
    let mut total_limited = 0;
    for (seed, name) in PROFILES.iter().enumerate() {
        let p = Params {
            qps: 16,
            ..Params::profile(name).unwrap()
        };
        let trace = random_mode_trace(seed as u64 + 40, 16, 300);
        let evs = parse_trace(&trace, &p).unwrap();
        let mut d = Device::open(open()).unwrap();
        d.load_params(&p).unwrap();
        feed(d.bar(), &evs);
        let last_t = evs.last().unwrap().t_ns;
        // The replay with a sample of every QP at the end.
        let mut with_samples = evs.clone();
        for qp in 0..16 {
            with_samples.push(roce_cc_sim::replay::TimedEvent {
                t_ns: last_t,
                line: 0,
                ev: roce_cc_sim::replay::TraceEvent::Sample { qp },
            });
        }
        let out = GoldenEngine::new(&p).run(&with_samples).unwrap();
        let cnp_out = out
            .iter()
            .filter(|l| matches!(l, OutLine::CnpOut { .. }))
            .count() as u64;
        let finals: Vec<_> = out.iter().rev().take(16).collect();
        let mut limited = 0;
        for line in finals {
            let OutLine::Sample { qp, report, .. } = line else {
                panic!("{line:?}")
            };
            let got = d.qp(*qp).unwrap();
            assert_eq!(
                (got.limited, got.rc_mbps_q8, got.rt_mbps_q8),
                (report.limited, report.rc_mbps_q8, report.rt_mbps_q8),
                "{bar_name}: {name}, QP {qp}"
            );
            if report.limited {
                limited += 1;
                assert_eq!(got.alpha_q20, report.alpha_q20);
            }
        }
        let counters = d.counters().unwrap();
        let sent = counters.iter().find(|c| c.0 == "cnp_sent").unwrap().1;
        assert_eq!(sent, cnp_out, "{bar_name}: {name}");
        assert!(sent > 0, "{name}: the trace has CNPs");
        total_limited += limited;
    }
    eprintln!("{bar_name}: {total_limited} QPs limited at the end over all profiles");
}

#[test]
fn loaded_parameters_behave_as_in_replay_model() {
    loaded_parameters_behave_as_in_replay(
        "model",
        || ModelBar::new(&build16()),
        |b, e| b.feed(e).unwrap(),
    );
}

#[test]
fn loaded_parameters_behave_as_in_replay_sim() {
    loaded_parameters_behave_as_in_replay(
        "sim",
        || SimBar::new(&build16()).unwrap(),
        |b, e| b.feed(e).unwrap(),
    );
}

/// The sim BAR (Verilated core and register block behind AXI4-Lite) and the model BAR (the
/// golden register block) answer every access identically: after the same parameter load
/// and trace, every address of the BAR read in turn (mapped or not), the driver's view
/// (firmware id, blocks, parameters, counters, every QP) and a list of bad writes.
#[test]
fn sim_and_model_bars_agree_on_every_register() {
    for (seed, name) in PROFILES.iter().enumerate() {
        let p = Params {
            qps: 16,
            ..Params::profile(name).unwrap()
        };
        let evs = parse_trace(&random_mode_trace(seed as u64 + 7, 16, 400), &p).unwrap();
        let mut sim = Device::open(SimBar::new(&build16()).unwrap()).unwrap();
        let mut model = Device::open(ModelBar::new(&build16())).unwrap();
        sim.load_params(&p).unwrap();
        model.load_params(&p).unwrap();
        sim.bar().feed(&evs).unwrap();
        model.bar().feed(&evs).unwrap();
        let bad_writes = [
            (regs::GLOBAL_PARAMS_QPS, 4, 0xf),
            (0x7f0, 1, 0xf),
            (regs::RP_PARAMS_RPG_AI_RATE, 1, 0x3),
            (regs::RP_PARAMS_RPG_THRESHOLD, 40, 0xf),
            (regs::GLOBAL_PARAMS_LINE_RATE_MBPS, 1, 0xf),
            (regs::QP_WINDOW_QP_SEL, 16, 0xf),
            (regs::QP_WINDOW_QP_CMD, 9, 0xf),
            (regs::RP_PARAMS_RPG_THRESHOLD, 9, 0x1),
        ];
        for (a, v, strb) in bad_writes {
            assert_eq!(
                sim.bar().write32_strb(a, v, strb),
                model.bar().write32_strb(a, v, strb),
                "{name}: write {v:#x} (strobes {strb:#x}) at {a:#05x}"
            );
        }
        for qp in 0..16 {
            assert_eq!(
                sim.qp(qp).unwrap(),
                model.qp(qp).unwrap(),
                "{name}: QP {qp}"
            );
        }
        assert_eq!(sim.fw_id().unwrap(), model.fw_id().unwrap());
        assert_eq!(sim.blocks(), model.blocks());
        assert_eq!(sim.params().unwrap(), model.params().unwrap(), "{name}");
        assert_eq!(sim.counters().unwrap(), model.counters().unwrap(), "{name}");
        for a in (0..BAR_SIZE).step_by(4) {
            assert_eq!(
                sim.bar().read32(a),
                model.bar().read32(a),
                "{name}: read at {a:#05x}"
            );
        }
        let c = model.counters().unwrap();
        let get = |n: &str| c.iter().find(|x| x.0 == n).unwrap().1;
        assert!(get("cnp_received") > 0 && get("rate_cuts") > 0 && get("cnp_sent") > 0);
        assert!(get("reg_slverr") >= 6 && get("reg_decerr") >= 1, "{c:?}");
    }
}

#[test]
fn counters_and_register_errors_through_the_driver() {
    let mut d = Device::open(ModelBar::new(&build16())).unwrap();
    assert_eq!(d.bar().read32(0xff0), Err(BusError::DecErr));
    assert_eq!(
        d.bar().write32(regs::GLOBAL_PARAMS_QPS, 4),
        Err(BusError::SlvErr)
    );
    let c = d.counters().unwrap();
    let get = |n: &str| c.iter().find(|x| x.0 == n).unwrap().1;
    assert_eq!((get("reg_decerr"), get("reg_slverr")), (1, 1));
    assert_eq!(c.len(), roce_cc_regmap::COUNTERS.len());
    assert!(matches!(d.qp(16), Err(DriverError::BadParams(m)) if m.contains("0..=15")));
}

/// The generated C header compiles and its constants are the map's.
#[test]
fn c_header_compiles_with_the_same_addresses() {
    let dir = scratch("c");
    std::fs::create_dir_all(&dir).unwrap();
    let src = dir.join("check.c");
    let include = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("include");
    std::fs::write(
        &src,
        format!(
            "#include \"roce_cc_regs.h\"\n\
             _Static_assert(ROCE_CC_GLOBAL_PARAMS_QPS == {}u, \"qps\");\n\
             _Static_assert(ROCE_CC_QP_WINDOW_QP_SEL == {}u, \"qp_sel\");\n\
             _Static_assert(ROCE_CC_COUNTERS_REG_SLVERR_LO == {}u, \"reg_slverr_lo\");\n\
             int main(void) {{ return 0; }}\n",
            regs::GLOBAL_PARAMS_QPS,
            regs::QP_WINDOW_QP_SEL,
            regs::COUNTERS_REG_SLVERR_LO
        ),
    )
    .unwrap();
    let out = std::process::Command::new("cc")
        .args(["-std=c11", "-Wall", "-Werror", "-fsyntax-only", "-I"])
        .arg(&include)
        .arg(&src)
        .output()
        .expect("a C compiler (cc) is installed: Verilator needs one too");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
