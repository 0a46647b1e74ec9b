//! Write the Verilog of every top to the directory given as the first argument.
fn main() {
    let dir = std::env::args().nth(1).expect("usage: dump_verilog DIR");
    std::fs::create_dir_all(&dir).unwrap();
    for (name, v) in roce_cc_hdl::verilog_tops() {
        std::fs::write(format!("{dir}/{name}.v"), v).unwrap();
        println!("{dir}/{name}.v");
    }
    std::fs::write(format!("{dir}/waivers.vlt"), roce_cc_hdl::LINT_WAIVERS).unwrap();
}
