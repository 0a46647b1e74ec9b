//! The pin and clock constraints (LPF) that `roce-cc synth` gives nextpnr: the boards'
//! constraint files and the scaling of their clock constraints by `--pnr-margin`.
//!
//! Its unit tests run in the `synth` integration test (`cli/tests/all/synth.rs` includes this
//! file), so that the command's binary is not compiled a second time as a test harness.

/// The ULX3S's constraints (`constraints/ulx3s.lpf`): pins, and the 25 MHz oscillator's
/// clock.
pub(crate) const ULX3S_LPF: &str = include_str!("../../constraints/ulx3s.lpf");

/// `--pnr-margin`'s default: nextpnr is given a clock 10 % faster than the target, so its
/// timing-driven placer and router also shorten the paths just under the target's period,
/// which they leave alone when they meet the clock they were given (docs/synthesis.md,
/// "Aiming above the target clock", and the measurement in "Results").
pub(crate) const PNR_MARGIN_PCT: f64 = 10.0;

/// Every `FREQUENCY PORT "name" <f> MHz;` constraint of an LPF multiplied by `factor`
/// (the rest of the text unchanged): the constraints nextpnr is given for `--pnr-margin`.
pub(crate) fn scale_lpf_frequencies(lpf: &str, factor: f64) -> String {
    let mut out = String::new();
    for line in lpf.lines() {
        let t = line.trim_start();
        let mut scaled = None;
        if t.starts_with("FREQUENCY PORT ") {
            let w: Vec<&str> = t.trim_end_matches(';').split_whitespace().collect();
            if w.len() == 5
                && w[4].eq_ignore_ascii_case("mhz")
                && let Ok(f) = w[3].parse::<f64>()
            {
                scaled = Some(format!("FREQUENCY PORT {} {:.6} MHz;", w[2], f * factor));
            }
        }
        out += scaled.as_deref().unwrap_or(line);
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lpf_frequencies_scale_and_the_rest_stays() {
        let lpf = "# FREQUENCY PORT \"x\" 1 MHz; in a comment\nLOCATE COMP \"a\" SITE \"G2\";\n\
                   FREQUENCY PORT \"clk_25mhz\" 25.000000 MHz;\n  FREQUENCY PORT \"clock\" 100 MHZ;\n";
        let out = scale_lpf_frequencies(lpf, 1.1);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines[0], "# FREQUENCY PORT \"x\" 1 MHz; in a comment");
        assert_eq!(lines[1], "LOCATE COMP \"a\" SITE \"G2\";");
        assert_eq!(lines[2], "FREQUENCY PORT \"clk_25mhz\" 27.500000 MHz;");
        assert_eq!(lines[3], "FREQUENCY PORT \"clock\" 110.000000 MHz;");
        assert_eq!(lines.len(), 4);
    }

    #[test]
    fn the_board_lpf_has_one_scaled_clock() {
        let out = scale_lpf_frequencies(ULX3S_LPF, 1.0 + PNR_MARGIN_PCT / 100.0);
        let f: Vec<&str> = out
            .lines()
            .filter(|l| l.starts_with("FREQUENCY PORT"))
            .collect();
        assert_eq!(f, ["FREQUENCY PORT \"clk_25mhz\" 27.500000 MHz;"]);
        assert_eq!(out.lines().count(), ULX3S_LPF.lines().count());
    }
}
