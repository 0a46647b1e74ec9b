//! Verilates the rust-hdl tops of roce-cc and generates their Rust bindings (see
//! `roce-cc-bridge-gen`); `src/verilated.rs` includes the bindings, one module per top.
//!
//! Adding a top: one `build_top` line below (a distinct snake-case name) and one
//! `bridge!` line in `src/verilated.rs`.

use roce_cc_bridge_gen::{build_runtime, build_top, out_dir, rerun_if_changed};
use roce_cc_hdl::core_top::RoceCcCore;
use roce_cc_hdl::dcqcn_np::DcqcnNp;
use roce_cc_hdl::dcqcn_rp::DcqcnRp;
use roce_cc_hdl::top::RoceCcTop;
use std::path::PathBuf;

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
    // The units alone at 16 QPs (their three-way tests, beside rust-hdl's simulation of
    // the same size); the RP also at 1024 (benchmark, long campaign).
    build_top("dcqcn_rp_q16", &mut DcqcnRp::<4>::new(), &out);
    build_top("dcqcn_rp_q1024", &mut DcqcnRp::<10>::new(), &out);
    build_top("dcqcn_np_q16", &mut DcqcnNp::<4>::new(), &out);
    // The core top at 16 QPs (three-way tests), 1024 (the default) and 16384 (the largest;
    // it serves every other QP count, see `verilated::core_for`).
    build_top("roce_cc_core_q16", &mut RoceCcCore::<4>::new(), &out);
    build_top("roce_cc_core_q1024", &mut RoceCcCore::<10>::new(), &out);
    build_top("roce_cc_core_q16384", &mut RoceCcCore::<14>::new(), &out);
    // The core with its register block (the `sim` BAR), built for the default clock and
    // this build's firmware identity: 16 QPs (three-way tests) and 1024 (the default).
    let top_params = |qps: u32| roce_cc_params::Params {
        qps,
        ..roce_cc_params::Params::default()
    };
    let fw = roce_cc_regmap::fw_id();
    build_top(
        "roce_cc_top_q16",
        &mut RoceCcTop::<4>::new(&top_params(16), fw),
        &out,
    );
    build_top(
        "roce_cc_top_q1024",
        &mut RoceCcTop::<10>::new(&top_params(1024), fw),
        &out,
    );

    // Last: the runtime must follow every model on the link line.
    build_runtime(&out);
}
