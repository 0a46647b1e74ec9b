//! SVG plots of a run: time series (rates of chosen QPs, queue lengths, pauses over time) and
//! FCT slowdown by flow-size bucket, drawn with `plotters`' SVG backend.
//!
//! The SVG is rendered into a string and then written, so a plot is byte-for-byte the same
//! for the same data (network.md's determinism check covers the output files) and a failed
//! write is reported with its path. Text is written as SVG `<text>` elements that the viewer
//! renders with its own fonts; plotters is built without font files (its text layout is then
//! an estimate, which only affects label spacing).
//!
//! Axis ranges are automatic: the smallest and largest finite value of all series (a
//! constant series gets a band around its value, no data gives 0..1), so no input panics;
//! non-finite values are skipped.

use std::ops::Range;
use std::path::Path;

use plotters::coord::ranged1d::SegmentValue;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::packet::PS_PER_US;
use crate::stats::{Series, SlowdownBucket, SlowdownTable};

/// Size of the SVGs, pixels.
const SIZE: (u32, u32) = (960, 540);
/// Width of the legend panel right of the chart, pixels.
const LEGEND_W: u32 = 190;
/// Height of one legend row, pixels.
const LEGEND_ROW: i32 = 18;
/// Legend names longer than this are cut (with an ellipsis).
const LEGEND_CHARS: usize = 21;
/// At most this many bucket labels on the slowdown plot's x axis (every k-th otherwise).
const MAX_X_LABELS: usize = 12;

/// Line colours, cycled by series index (the Okabe-Ito colour-blind-safe palette, yellow
/// left out as too light on white).
const COLORS: [RGBColor; 7] = [
    RGBColor(0, 114, 178),
    RGBColor(213, 94, 0),
    RGBColor(0, 158, 115),
    RGBColor(204, 121, 167),
    RGBColor(230, 159, 0),
    RGBColor(86, 180, 233),
    RGBColor(0, 0, 0),
];

fn color(i: usize) -> RGBColor {
    COLORS[i % COLORS.len()]
}

/// The range spanning the finite values: min..max, a band of +-10 % (+-1 around 0) for a
/// single value, 0..1 for none.
fn auto_range(values: impl Iterator<Item = f64>) -> Range<f64> {
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for v in values.filter(|v| v.is_finite()) {
        lo = lo.min(v);
        hi = hi.max(v);
    }
    if lo > hi {
        return 0.0..1.0;
    }
    if lo == hi {
        let pad = if lo == 0.0 { 1.0 } else { lo.abs() * 0.1 };
        return (lo - pad)..(hi + pad);
    }
    lo..hi
}

fn draw_err<E: std::fmt::Display>(e: E) -> String {
    format!("plot: {e}")
}

fn write_svg(path: &Path, svg: Result<String, String>) -> Result<(), String> {
    let svg = svg.map_err(|e| format!("{}: {e}", path.display()))?;
    std::fs::write(path, svg).map_err(|e| format!("{}: cannot write SVG: {e}", path.display()))
}

/// The legend in its own panel (so it never hides a line): a coloured stroke and the name
/// per entry, top down; entries that do not fit are summarised as "+k more".
fn draw_legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, plotters::coord::Shift>,
    entries: &[(String, RGBColor)],
) -> Result<(), String> {
    let (_, h) = area.dim_in_pixel();
    let rows = ((h as i32 - 20) / LEGEND_ROW).max(1) as usize;
    let shown = if entries.len() > rows {
        rows - 1
    } else {
        entries.len()
    };
    let font = ("sans-serif", 15).into_font();
    for (i, (name, c)) in entries.iter().take(shown).enumerate() {
        let y = 20 + i as i32 * LEGEND_ROW;
        area.draw(&PathElement::new(vec![(8, y), (30, y)], c.stroke_width(2)))
            .map_err(draw_err)?;
        let name = if name.chars().count() > LEGEND_CHARS {
            let cut: String = name.chars().take(LEGEND_CHARS - 1).collect();
            format!("{cut}\u{2026}")
        } else {
            name.clone()
        };
        let style = font
            .clone()
            .color(&BLACK)
            .pos(Pos::new(HPos::Left, VPos::Center));
        area.draw(&Text::new(name, (36, y), style))
            .map_err(draw_err)?;
    }
    if shown < entries.len() {
        let y = 20 + shown as i32 * LEGEND_ROW;
        let style = font.color(&BLACK).pos(Pos::new(HPos::Left, VPos::Center));
        let more = format!("+{} more", entries.len() - shown);
        area.draw(&Text::new(more, (36, y), style))
            .map_err(draw_err)?;
    }
    Ok(())
}

/// Render [`line_plot`]'s SVG into a string.
pub fn line_plot_svg(
    title: &str,
    x_label: &str,
    y_label: &str,
    series: &[Series],
) -> Result<String, String> {
    let us = |t: u64| t as f64 / PS_PER_US as f64;
    let finite = |p: &&(u64, f64)| p.1.is_finite();
    let xr = auto_range(
        series
            .iter()
            .flat_map(|s| s.points.iter().filter(finite).map(|p| us(p.0))),
    );
    let yr = auto_range(series.iter().flat_map(|s| s.points.iter().map(|p| p.1)));
    // A margin of 5 % above and below the lines.
    let pad = (yr.end - yr.start) * 0.05;
    let yr = (yr.start - pad)..(yr.end + pad);

    let mut buf = String::new();
    {
        let root = SVGBackend::with_string(&mut buf, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(draw_err)?;
        let body = root.titled(title, ("sans-serif", 22)).map_err(draw_err)?;
        let (plot, legend) = body.split_horizontally(SIZE.0 - LEGEND_W);
        let mut chart = ChartBuilder::on(&plot)
            .margin(12)
            .x_label_area_size(45)
            .y_label_area_size(75)
            .build_cartesian_2d(xr, yr)
            .map_err(draw_err)?;
        chart
            .configure_mesh()
            .x_desc(x_label)
            .y_desc(y_label)
            .light_line_style(WHITE.mix(0.0))
            .draw()
            .map_err(draw_err)?;
        for (i, s) in series.iter().enumerate() {
            let c = color(i);
            let pts: Vec<(f64, f64)> = s
                .points
                .iter()
                .filter(finite)
                .map(|p| (us(p.0), p.1))
                .collect();
            if pts.len() == 1 {
                // A single point draws no line: mark it.
                chart.draw_series(pts.into_iter().map(|p| Circle::new(p, 3, c.filled())))
            } else {
                chart.draw_series(LineSeries::new(pts, c.stroke_width(2)))
            }
            .map_err(draw_err)?;
        }
        let entries: Vec<(String, RGBColor)> = series
            .iter()
            .enumerate()
            .map(|(i, s)| (s.name.clone(), color(i)))
            .collect();
        draw_legend(&legend, &entries)?;
        root.present().map_err(draw_err)?;
    }
    Ok(buf)
}

/// Line plot of time series into an SVG file: one line per series, coloured in turn, with a
/// legend of the series names in a panel at the right. The x axis is the series' time in
/// microseconds (ps / 10^6; label it so); ranges are automatic. A series of one point is
/// drawn as a dot; an empty series only appears in the legend.
pub fn line_plot(
    path: &Path,
    title: &str,
    x_label: &str,
    y_label: &str,
    series: &[Series],
) -> Result<(), String> {
    write_svg(path, line_plot_svg(title, x_label, y_label, series))
}

/// Reads one percentile of a bucket.
type Pick = fn(&SlowdownBucket) -> f64;

/// Render [`slowdown_plot`]'s SVG into a string.
pub fn slowdown_plot_svg(title: &str, table: &SlowdownTable) -> Result<String, String> {
    let b = &table.buckets;
    // Segments 0..=last, one per bucket (one empty segment for an empty table).
    let last = b.len().max(1) - 1;
    let top = auto_range(b.iter().flat_map(|b| [b.p50, b.p95, b.p99])).end;
    // Slowdowns are >= 1: a log axis from 1 keeps p50 readable beside a large p99.
    let yr = (1.0..(top * 1.25).max(2.0)).log_scale();
    let labels: Vec<String> = b.iter().map(|b| b.label()).collect();
    let every = b.len().div_ceil(MAX_X_LABELS).max(1);

    let mut buf = String::new();
    {
        let root = SVGBackend::with_string(&mut buf, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(draw_err)?;
        let body = root.titled(title, ("sans-serif", 22)).map_err(draw_err)?;
        let (plot, legend) = body.split_horizontally(SIZE.0 - LEGEND_W);
        let mut chart = ChartBuilder::on(&plot)
            .margin(12)
            .x_label_area_size(45)
            .y_label_area_size(75)
            .build_cartesian_2d((0..last).into_segmented(), yr)
            .map_err(draw_err)?;
        let fmt = |v: &SegmentValue<usize>| match v {
            SegmentValue::CenterOf(i) if i % every == 0 => {
                labels.get(*i).cloned().unwrap_or_default()
            }
            _ => String::new(),
        };
        chart
            .configure_mesh()
            .x_desc("flow size bucket (largest size in it; flows split by count percentile)")
            .y_desc("FCT slowdown")
            .x_labels(last + 2)
            .x_label_formatter(&fmt)
            .light_line_style(WHITE.mix(0.0))
            .draw()
            .map_err(draw_err)?;
        let lines: [(&str, Pick); 3] = [("p50", |b| b.p50), ("p95", |b| b.p95), ("p99", |b| b.p99)];
        for (k, (_, get)) in lines.iter().enumerate() {
            let c = color(k);
            let pts: Vec<(SegmentValue<usize>, f64)> = b
                .iter()
                .enumerate()
                .map(|(i, x)| (SegmentValue::CenterOf(i), get(x)))
                .collect();
            chart
                .draw_series(LineSeries::new(pts.clone(), c.stroke_width(2)))
                .map_err(draw_err)?;
            chart
                .draw_series(pts.into_iter().map(|p| Circle::new(p, 3, c.filled())))
                .map_err(draw_err)?;
        }
        let entries: Vec<(String, RGBColor)> = lines
            .iter()
            .enumerate()
            .map(|(k, (n, _))| (n.to_string(), color(k)))
            .collect();
        draw_legend(&legend, &entries)?;
        root.present().map_err(draw_err)?;
    }
    Ok(buf)
}

/// FCT slowdown by flow-size bucket into an SVG file: the p50, p95 and p99 of each bucket of
/// `table` as three lines over the buckets (in size order, labelled by the largest flow size
/// in each; with many buckets only every k-th is labelled), the slowdown axis logarithmic
/// from 1, a legend in a panel at the right.
pub fn slowdown_plot(path: &Path, title: &str, table: &SlowdownTable) -> Result<(), String> {
    write_svg(path, slowdown_plot_svg(title, table))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::FlowFct;
    use std::path::PathBuf;

    struct TempDir(PathBuf);
    impl TempDir {
        fn new(tag: &str) -> TempDir {
            let nanos = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap()
                .as_nanos();
            let p = std::env::temp_dir()
                .join(format!("netsim-plot-{tag}-{}-{nanos}", std::process::id()));
            std::fs::create_dir_all(&p).unwrap();
            TempDir(p)
        }
    }
    impl Drop for TempDir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    #[test]
    fn line_plot_writes_svg_with_legend() {
        let dir = TempDir::new("line");
        let path = dir.0.join("rates.svg");
        let a = Series::from_points(
            "qp_alpha",
            (0..100)
                .map(|i| (i * PS_PER_US, (i as f64 / 10.0).sin() * 50.0 + 50.0))
                .collect(),
        );
        let b = Series::from_points("qp_beta", vec![(0, 100.0), (99 * PS_PER_US, 0.0)]);
        line_plot(
            &path,
            "rates",
            "time (us)",
            "rate (Gb/s)",
            &[a.clone(), b.clone()],
        )
        .unwrap();
        let svg = std::fs::read_to_string(&path).unwrap();
        assert!(svg.starts_with("<svg"), "{}", &svg[..40]);
        for text in [
            "qp_alpha",
            "qp_beta",
            "rates",
            "time (us)",
            "rate (Gb/s)",
            "<text",
            "<polyline",
        ] {
            assert!(svg.contains(text), "missing {text}");
        }
        // Deterministic.
        assert_eq!(
            line_plot_svg("rates", "time (us)", "rate (Gb/s)", &[a, b]).unwrap(),
            svg
        );
    }

    #[test]
    fn line_plot_handles_degenerate_series() {
        let dir = TempDir::new("degenerate");
        let cases: Vec<Vec<Series>> = vec![
            vec![],
            vec![Series::new("empty")],
            vec![Series::from_points("one", vec![(5, 3.0)])],
            vec![Series::from_points("flat", vec![(0, 7.0), (10, 7.0)])],
            vec![Series::from_points("zero", vec![(4, 0.0), (4, 0.0)])],
            vec![Series::from_points(
                "nan",
                vec![(0, f64::NAN), (1, f64::INFINITY), (2, 1.0)],
            )],
        ];
        for (i, s) in cases.iter().enumerate() {
            let p = dir.0.join(format!("d{i}.svg"));
            line_plot(&p, "degenerate", "t", "v", s).unwrap();
            let svg = std::fs::read_to_string(&p).unwrap();
            assert!(svg.starts_with("<svg"));
            for x in s {
                assert!(svg.contains(&x.name), "{i}: {}", x.name);
            }
        }
        let e = line_plot(&dir.0.join("missing/x.svg"), "t", "x", "y", &[]).unwrap_err();
        assert!(e.contains("x.svg"), "{e}");
    }

    #[test]
    fn a_long_legend_is_cut_short() {
        let many: Vec<Series> = (0..40)
            .map(|i| Series::from_points(format!("qp{i}"), vec![(0, i as f64), (10, 1.0)]))
            .collect();
        let svg = line_plot_svg("many", "t", "v", &many).unwrap();
        // The names shown are qp0, qp1, ... up to what fits, then "+k more" for the rest.
        let shown = svg.lines().filter(|l| l.trim().starts_with("qp")).count();
        assert!(shown >= 20, "{shown}");
        assert!(svg.contains(&format!("qp{}\n", shown - 1)));
        assert!(svg.contains(&format!("+{} more", 40 - shown)), "{shown}");
        let long = Series::from_points("a_very_long_series_name_that_goes_on", vec![(0, 1.0)]);
        let svg = line_plot_svg("long", "t", "v", &[long]).unwrap();
        assert!(svg.contains("a_very_long_series_n\u{2026}"));
    }

    #[test]
    fn slowdown_plot_has_percentile_lines_and_bucket_labels() {
        let dir = TempDir::new("slowdown");
        let flows: Vec<FlowFct> = (1..=200u64)
            .map(|i| FlowFct {
                bytes: i * 1000,
                fct_ps: 100 + i * 37 % 500,
                ideal_ps: 100,
            })
            .collect();
        let table = SlowdownTable::new(&flows);
        let path = dir.0.join("fct.svg");
        slowdown_plot(&path, "FCT slowdown", &table).unwrap();
        let svg = std::fs::read_to_string(&path).unwrap();
        assert!(svg.starts_with("<svg"));
        for text in [
            "p50",
            "p95",
            "p99",
            "FCT slowdown",
            "&lt;=60KB",
            "&lt;=200KB",
        ] {
            assert!(svg.contains(text), "missing {text}");
        }
        // No flows, and all slowdowns 1: still a plot.
        slowdown_plot(&path, "none", &SlowdownTable::new(&[])).unwrap();
        let ones = [FlowFct {
            bytes: 10,
            fct_ps: 5,
            ideal_ps: 5,
        }];
        slowdown_plot(&path, "ones", &SlowdownTable::new(&ones)).unwrap();
        assert!(std::fs::read_to_string(&path).unwrap().contains("&lt;=10B"));
    }
}
