use roce_cc_params::Params;
use roce_cc_sim::rp_harness::{GoldenRpCycle, HdlRp, RpDut};
use roce_cc_sim::stimulus::{run_lockstep, Step};

#[test]
fn golden_and_rust_hdl_agree_on_a_random_stream() {
    let mut p = Params::default();
    p.qps = 16;
    let mut rng = 12345u64;
    let mut next = move || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    let mut steps = Vec::new();
    for _ in 0..3000 {
        let r = next();
        let qp = (r % 4) as u32;
        steps.push(Step {
            dt: match r % 7 { 0 => 0, 1 => 250 * (r >> 40 & 511), 2 => 1_000_000 * (r >> 50 & 3), _ => 1 },
            cnp: (r >> 8 & 3 == 0).then_some(qp),
            tx: (r >> 10 & 1 == 0).then_some(((r >> 12) as u32 % 4, 1 + (r >> 20) as u32 % 9000)),
            query: (r >> 14 & 1 == 0).then_some((r >> 16) as u32 % 4),
            m_ready: r >> 30 & 3 != 0,
        });
    }
    let mut g = GoldenRpCycle::new(&p);
    let mut h = HdlRp::<4>::new(&p);
    let mut duts: Vec<(&str, &mut dyn RpDut)> = vec![("golden", &mut g), ("rust-hdl", &mut h)];
    let t = std::time::Instant::now();
    let res = run_lockstep(&p, &steps, &mut duts);
    eprintln!("{:?}", t.elapsed());
    match res {
        Ok(r) => eprintln!("{} reports, limited: {}", r.len(), r.iter().filter(|x| x.1.limited).count()),
        Err(m) => panic!("{m:#?}\n{:?}", &steps[m.step.saturating_sub(5)..(m.step + 1).min(steps.len())]),
    }
}
