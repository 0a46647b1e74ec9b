//! Verilates the rust-hdl tops of roce-cc and generates their Rust bindings (see
//! `roce-cc-bridge-gen`); `src/verilated.rs` includes the bindings, one module per top.
//!
//! Adding a top: one `build_top` line below (a distinct snake-case name) and one
//! `bridge!` line in `src/verilated.rs`.
//!
//! With `ROCE_CC_POST_SYNTH` set, also the post-synthesis model of the 1024-QP core: its
//! yosys `synth_ecp5` netlist Verilated with the ECP5 cell models (`post_synth/`), as
//! `roce_cc_core_q1024_netlist`, and the cfg `post_synth` for `src/verilated.rs` and
//! `tests/all/post_synth.rs`. Off by default: synthesis and Verilating the flat netlist take
//! many minutes (cached afterwards by their stamps in `OUT_DIR`).

use roce_cc_bridge_gen::{
    TopInfo, build_netlist_top, build_runtime, build_top, ecp5_cell_library, out_dir,
    rerun_if_changed, synth_ecp5_netlist,
};
use roce_cc_hdl::core_top::RoceCcCore;
use roce_cc_hdl::dcqcn_np::DcqcnNp;
use roce_cc_hdl::dcqcn_rp::DcqcnRp;
use roce_cc_hdl::top::RoceCcTop;
use std::path::{Path, PathBuf};

/// Set (to anything) to build the post-synthesis model of the core.
const POST_SYNTH_ENV: &str = "ROCE_CC_POST_SYNTH";

/// Our simulation models of the ECP5 cells yosys 0.23's `cells_sim.v` has no body for
/// (relative to this crate); yosys's own are used where it has them.
const CELL_MODELS: [&str; 2] = ["post_synth/mult18x18d_sim.v", "post_synth/dp16kd_sim.v"];

/// Stack of the thread that builds the designs: rust-hdl keeps a design in one struct, built
/// and connected on the stack, and the whole core top (an RP update of over a hundred
/// pipeline registers) needs more than the main thread's 8 MiB.
const DESIGN_STACK: usize = 1 << 30;

fn main() {
    std::thread::Builder::new()
        .stack_size(DESIGN_STACK)
        .spawn(build_all)
        .expect("spawn the design thread")
        .join()
        .expect("building the verilated models failed (see the message above)");
}

fn build_all() {
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("run by cargo"));
    println!("cargo:rustc-check-cfg=cfg(post_synth)");
    println!("cargo:rerun-if-env-changed={POST_SYNTH_ENV}");
    rerun_if_changed(&manifest.join("build.rs"));
    rerun_if_changed(&manifest.join("../hdl/src"));
    let out = out_dir();

    build_top(
        "wide_mul_28x21",
        &mut roce_cc_hdl::wide_mul::WideMul28x21::new(),
        &out,
    );
    build_top(
        "lut_ram_25x7",
        &mut roce_cc_hdl::LutRam25x7::default(),
        &out,
    );
    build_top(
        "dsp_mul_15x17",
        &mut roce_cc_hdl::DspMul15x17::default(),
        &out,
    );
    build_top(
        "state_ram_12x3",
        &mut roce_cc_hdl::StateRam12x3::default(),
        &out,
    );
    build_top(
        "zero_ext_17to18",
        &mut roce_cc_hdl::ZeroExt17to18::default(),
        &out,
    );
    build_top(
        "timebase",
        &mut roce_cc_hdl::timebase::Timebase::default(),
        &out,
    );
    build_top(
        "cfg_compiler",
        &mut roce_cc_hdl::cfg_compiler::CfgCompiler::default(),
        &out,
    );
    build_top(
        "axil_slave",
        &mut roce_cc_hdl::axil_slave::AxilSlave::default(),
        &out,
    );
    // The UART bridge at the simulations' divisor and timeout (fast to simulate).
    build_top(
        "uart_bridge_sim",
        &mut roce_cc_hdl::uart_bridge::UartBridge::new(
            roce_cc_hdl::uart_bridge::SIM_DIVISOR,
            roce_cc_hdl::uart_bridge::SIM_TIMEOUT,
        ),
        &out,
    );
    // The RP's same-QP next-state block alone (its three-way test, `tests/all/rp_near.rs`).
    build_top(
        "rp_near",
        &mut roce_cc_hdl::dcqcn_rp::near::RpNear::default(),
        &out,
    );
    // The HPCC window unit for 16 QPs (three-way tests, `tests/all/hpcc_three_way.rs`).
    build_top(
        "hpcc_window_q16",
        &mut roce_cc_hdl::hpcc_window::window::HpccWindow::<4>::default(),
        &out,
    );
    // The pacer's rate-to-cycles-per-byte pipeline (`tests/all/pacer_cpb_three_way.rs`).
    build_top(
        "pacer_cpb",
        &mut roce_cc_hdl::pacer::cpb::PacerCpb::default(),
        &out,
    );
    // The pacer's eligible set, 1024 QPs and 128 QPs (`tests/all/pacer_eligible_three_way.rs`).
    build_top(
        "pacer_eligible",
        &mut roce_cc_hdl::pacer::eligible::Eligible1024::default(),
        &out,
    );
    build_top(
        "pacer_eligible_q7",
        &mut roce_cc_hdl::pacer::eligible::Eligible::<7, 2, 4>::default(),
        &out,
    );
    // One grant's arithmetic (`tests/all/pacer_step_three_way.rs`).
    build_top(
        "pacer_step",
        &mut roce_cc_hdl::pacer::pace_step::PaceStep::default(),
        &out,
    );
    // The timing wheel, 1024 QPs x 256 slots and 64 QPs x 64 slots
    // (`tests/all/pacer_wheel_three_way.rs`).
    build_top(
        "pacer_wheel",
        &mut roce_cc_hdl::pacer::wheel::Wheel1024::default(),
        &out,
    );
    build_top(
        "pacer_wheel_q6",
        &mut roce_cc_hdl::pacer::wheel::Wheel::<6, 6, 64, 7>::default(),
        &out,
    );
    // The pacer top, 1024 QPs and 64 QPs (`tests/all/pacer_three_way.rs`).
    build_top(
        "pacer",
        &mut roce_cc_hdl::pacer::sched::Pacer1024::default(),
        &out,
    );
    build_top(
        "pacer_q6",
        &mut roce_cc_hdl::pacer::sched::Pacer64::default(),
        &out,
    );
    // 4096 QPs, for `roce-cc bench --unit pacer`.
    build_top(
        "pacer_q12",
        &mut roce_cc_hdl::pacer::sched::Pacer4096::default(),
        &out,
    );
    // The HPCC configuration compiler (`tests/all/hpcc_cfg_three_way.rs`).
    build_top(
        "hpcc_cfg",
        &mut roce_cc_hdl::hpcc_window::cfg::HpccCfg::default(),
        &out,
    );
    // The tops that hold the RP take most of the build (about a minute and a half each to
    // Verilate and compile): two threads build them side by side, so the serial parts
    // (rust-hdl's Verilog, Verilator's front end) of one overlap the C++ compile of the
    // other on a two-core machine.
    let out_b = out.clone();
    let large = std::thread::Builder::new()
        .stack_size(DESIGN_STACK)
        .spawn(move || build_large(&out_b))
        .expect("spawn the second design thread");
    build_top("dcqcn_rp_q16", &mut DcqcnRp::<4>::new(), &out);
    build_top("dcqcn_np_q16", &mut DcqcnNp::<4>::new(), &out);
    build_top("roce_cc_core_q16", &mut RoceCcCore::<4>::new(), &out);
    // The core with the pacer inside, 64 QPs (`tests/all/paced_core_three_way.rs`).
    build_top(
        "paced_core_q64",
        &mut roce_cc_hdl::paced_core::PacedCore64::default(),
        &out,
    );
    build_top(
        "roce_cc_top_q16",
        &mut RoceCcTop::<4>::new(&top_params(16), roce_cc_regmap::fw_id()),
        &out,
    );
    let core_q1024 = large
        .join()
        .expect("building the 1024-QP tops failed (see above)");

    if std::env::var_os(POST_SYNTH_ENV).is_some() {
        build_post_synth(&core_q1024, &manifest, &out);
    }

    // Last: the runtime must follow every model on the link line.
    build_runtime(&out);
}

/// The core and register block for `qps` QPs at the default clock.
fn top_params(qps: u32) -> roce_cc_params::Params {
    roce_cc_params::Params {
        qps,
        ..roce_cc_params::Params::default()
    }
}

/// The tops at 1024 QPs and more (the second design thread of `build_all`): the RP at 1024
/// (benchmark, long campaign); the HPCC window unit at 1024 (benchmark); the core top at 1024 (the default) and 16384 (the largest;
/// it serves every other QP count, see `verilated::core_for`); the core with the pacer at
/// 1024 (`verilated::paced_for`); the core with its register
/// block (the `sim` BAR) at 1024, built for the default clock and this build's firmware
/// identity. Returns the 1024-QP core's top for the post-synthesis model.
fn build_large(out: &Path) -> TopInfo {
    build_top("dcqcn_rp_q1024", &mut DcqcnRp::<10>::new(), out);
    build_top(
        "hpcc_window_q1024",
        &mut roce_cc_hdl::hpcc_window::window::HpccWindow::<10>::default(),
        out,
    );
    let core_q1024 = build_top("roce_cc_core_q1024", &mut RoceCcCore::<10>::new(), out);
    build_top("roce_cc_core_q16384", &mut RoceCcCore::<14>::new(), out);
    // The core with the pacer inside at 1024 QPs (the rtl replay of traces with posts).
    build_top(
        "paced_core_q1024",
        &mut roce_cc_hdl::paced_core::PacedCore1024::default(),
        out,
    );
    build_top(
        "roce_cc_top_q1024",
        &mut RoceCcTop::<10>::new(&top_params(1024), roce_cc_regmap::fw_id()),
        out,
    );
    core_q1024
}

/// The 1024-QP core's `synth_ecp5` netlist, Verilated with the ECP5 cell models as
/// `roce_cc_core_q1024_netlist` (the ports of `RoceCcCore<10>`), and the cfg `post_synth`.
/// Prints how long each step took (`cargo build -vv` shows it), since both are minutes
/// when their stamps do not match.
fn build_post_synth(core: &TopInfo, manifest: &Path, out: &Path) {
    let start = std::time::Instant::now();
    let netlist = synth_ecp5_netlist(&core.verilog, &out.join("roce_cc_core_q1024_netlist.v"))
        .unwrap_or_else(|e| panic!("synth_ecp5 of the core failed: {e}"));
    let synth_s = start.elapsed().as_secs_f64();
    let models: Vec<PathBuf> = CELL_MODELS.iter().map(|m| manifest.join(m)).collect();
    let models: Vec<&Path> = models.iter().map(PathBuf::as_path).collect();
    let library = ecp5_cell_library(&models, out);
    let start = std::time::Instant::now();
    build_netlist_top(
        "roce_cc_core_q1024_netlist",
        &mut RoceCcCore::<10>::new(),
        &netlist,
        &library,
        out,
    );
    println!(
        "post-synthesis core: synth_ecp5 {synth_s:.0} s, Verilator {:.0} s; cells {:?}; {}",
        start.elapsed().as_secs_f64(),
        netlist.cells,
        library.notes.join("; ")
    );
    println!("cargo:rustc-cfg=post_synth");
}
