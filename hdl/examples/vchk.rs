fn main() {
    let t = std::thread::Builder::new()
        .stack_size(1 << 30)
        .spawn(|| {
            let dir = std::env::args().nth(1).unwrap();
            if std::env::args().nth(2).as_deref() == Some("board") {
                let v = roce_cc_hdl::verilog_of(
                    roce_cc_hdl::board_ulx3s::BoardUlx3s::<10>::with_qps_baud(115_200),
                );
                std::fs::write(format!("{dir}/board.v"), v).unwrap();
                return;
            }
            let v = roce_cc_hdl::verilog_of(roce_cc_hdl::synth_shell::SynthShell::<10>::new());
            std::fs::write(format!("{dir}/shell.v"), v).unwrap();
            std::fs::create_dir_all("/tmp/vchk").unwrap();
            let v = roce_cc_hdl::verilog_of(roce_cc_hdl::dcqcn_rp::DcqcnRp::<4>::new());
            std::fs::write("/tmp/vchk/rp.v", v).unwrap();
        })
        .unwrap();
    t.join().unwrap();
}
