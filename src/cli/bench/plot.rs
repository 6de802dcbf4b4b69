//! SVG plots of sweep results, drawn by plotters' SVG backend: text stays
//! text, so no font or graphics library is needed, here or where the file is
//! opened.
//!
//! Each function returns `None` when the rows cannot make the plot (fewer than
//! two x values), and the SVG text otherwise. Titles name the machine.

use plotters::prelude::*;

use nqueens::Algorithm;

use super::sweep::Row;

/// One line of a chart: a legend label and its points.
struct Series {
    label: String,
    points: Vec<(f64, f64)>,
}

/// Speedup against threads, one series per (n, requested depth), with the
/// ideal line `speedup = threads`.
pub fn speedup_svg(rows: &[Row], machine: &str) -> Option<String> {
    let parallel: Vec<&Row> = rows
        .iter()
        .filter(|r| r.point.algorithm.is_parallel() && r.speedup.is_some())
        .collect();
    let mut series = group(&parallel, series_label, |r| {
        (r.point.threads as f64, r.speedup.unwrap_or_default())
    });
    series.retain(|s| s.points.len() >= 2);
    if series.is_empty() {
        return None;
    }
    let max_threads = parallel.iter().map(|r| r.point.threads).max()? as f64;
    series.push(Series {
        label: "ideal".to_string(),
        points: vec![(1.0, 1.0), (max_threads, max_threads)],
    });
    Some(chart(
        &format!("Speedup against threads, {machine}"),
        "threads",
        "speedup over 1 thread",
        series,
        Scale::Linear,
    ))
}

/// Median wall time against n on a log scale, one series per algorithm (and
/// thread count, for the parallel engine).
pub fn time_vs_n_svg(rows: &[Row], machine: &str) -> Option<String> {
    let rows: Vec<&Row> = rows.iter().collect();
    let mut series = group(
        &rows,
        |r| match (r.point.algorithm, r.point.threads) {
            (pooled, 1) if pooled.is_parallel() => format!("{}, 1 thread", r.point.engine()),
            (pooled, threads) if pooled.is_parallel() => {
                format!("{}, {threads} threads", r.point.engine())
            }
            (serial, _) => serial.name().to_string(),
        },
        |r| (r.point.n as f64, r.wall_s.max(1e-9)),
    );
    series.retain(|s| s.points.len() >= 2);
    if series.is_empty() {
        return None;
    }
    Some(chart(
        &format!("Time against n, {machine}"),
        "n",
        "median wall time (s)",
        series,
        Scale::Log,
    ))
}

/// Parallel efficiency against the split depth, one series per (n, threads)
/// on more than one thread.
pub fn efficiency_vs_depth_svg(rows: &[Row], machine: &str) -> Option<String> {
    let rows: Vec<&Row> = rows
        .iter()
        .filter(|r| {
            r.point.algorithm == Algorithm::Parallel
                && r.point.threads > 1
                && r.point.depth_requested.is_some()
                && r.efficiency.is_some()
        })
        .collect();
    let mut series = group(
        &rows,
        |r| format!("n = {}, {} threads", r.point.n, r.point.threads),
        |r| {
            let depth = r.point.depth_requested.unwrap_or_default() as f64;
            (depth, 100.0 * r.efficiency.unwrap_or_default())
        },
    );
    series.retain(|s| s.points.len() >= 2);
    if series.is_empty() {
        return None;
    }
    Some(chart(
        &format!("Parallel efficiency against split depth, {machine}"),
        "split depth",
        "efficiency (%)",
        series,
        Scale::Linear,
    ))
}

fn series_label(row: &Row) -> String {
    let engine = format!("{}, ", row.point.engine());
    match row.point.depth_requested {
        Some(depth) => format!("{engine}n = {}, depth {depth}", row.point.n),
        None => format!("{engine}n = {}", row.point.n),
    }
}

/// Groups rows into series by label, in first-seen order, points sorted by x.
fn group<'a>(
    rows: &[&'a Row],
    label: impl Fn(&'a Row) -> String,
    point: impl Fn(&'a Row) -> (f64, f64),
) -> Vec<Series> {
    let mut series: Vec<Series> = Vec::new();
    for &row in rows {
        let name = label(row);
        let index = match series.iter().position(|s| s.label == name) {
            Some(index) => index,
            None => {
                series.push(Series {
                    label: name,
                    points: Vec::new(),
                });
                series.len() - 1
            }
        };
        series[index].points.push(point(row));
    }
    for s in &mut series {
        s.points.sort_by(|a, b| a.0.total_cmp(&b.0));
    }
    series
}

#[derive(Clone, Copy, PartialEq)]
enum Scale {
    Linear,
    Log,
}

/// Draws line-and-point series on one chart with a legend.
fn chart(title: &str, x_desc: &str, y_desc: &str, series: Vec<Series>, y_scale: Scale) -> String {
    let all = || series.iter().flat_map(|s| s.points.iter());
    let (x_min, x_max) = bounds(all().map(|p| p.0));
    let (y_min, y_max) = bounds(all().map(|p| p.1));
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (800, 520)).into_drawing_area();
        root.fill(&WHITE).expect("drawing into a string");
        let mut builder = ChartBuilder::on(&root);
        builder
            .caption(title, ("sans-serif", 18))
            .margin(15)
            .x_label_area_size(45)
            .y_label_area_size(70);
        let x_range = pad(x_min, x_max, Scale::Linear);
        // Every x axis here counts something (threads, n, depth): one label per
        // integer, as long as that stays readable.
        let x_labels = ((x_max - x_min) as usize + 1).clamp(2, 16);
        let integer = |x: &f64| format!("{x:.0}");
        let (lo, hi) = pad(y_min, y_max, y_scale);
        // The two arms differ only in the y coordinate type.
        macro_rules! draw_on {
            ($y_range:expr) => {{
                let mut chart = builder
                    .build_cartesian_2d(x_range.0..x_range.1, $y_range)
                    .expect("valid ranges");
                chart
                    .configure_mesh()
                    .x_labels(x_labels)
                    .x_label_formatter(&integer)
                    .x_desc(x_desc)
                    .y_desc(y_desc)
                    .draw()
                    .expect("drawing into a string");
                draw_series(&mut chart, &series);
            }};
        }
        match y_scale {
            Scale::Linear => draw_on!(lo..hi),
            Scale::Log => draw_on!((lo..hi).log_scale()),
        }
        root.present().expect("drawing into a string");
    }
    svg
}

fn draw_series<'a, DB, CT>(chart: &mut ChartContext<'a, DB, CT>, series: &[Series])
where
    DB: DrawingBackend + 'a,
    CT: CoordTranslate<From = (f64, f64)>,
{
    for (i, s) in series.iter().enumerate() {
        let color = if s.label == "ideal" {
            BLACK.mix(0.5)
        } else {
            Palette99::pick(i).mix(1.0)
        };
        chart
            .draw_series(LineSeries::new(
                s.points.iter().copied(),
                color.stroke_width(2),
            ))
            .expect("drawing into a string")
            .label(s.label.as_str())
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 20, y)], color.stroke_width(2))
            });
        chart
            .draw_series(s.points.iter().map(|&p| Circle::new(p, 3, color.filled())))
            .expect("drawing into a string");
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .draw()
        .expect("drawing into a string");
}

fn bounds(values: impl Iterator<Item = f64>) -> (f64, f64) {
    values.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
        (lo.min(v), hi.max(v))
    })
}

/// A little room around the data; a log axis keeps positive bounds.
fn pad(lo: f64, hi: f64, scale: Scale) -> (f64, f64) {
    match scale {
        Scale::Log => (lo / 2.0, hi * 2.0),
        Scale::Linear => {
            let span = (hi - lo).abs().max(1e-9);
            (lo - span * 0.05, hi + span * 0.08)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::bench::sweep::{fill_speedups, Point};
    use nqueens::Symmetry;

    fn row(
        algorithm: Algorithm,
        n: usize,
        threads: usize,
        depth: Option<usize>,
        wall_s: f64,
    ) -> Row {
        Row {
            point: Point {
                algorithm,
                n,
                threads,
                depth_requested: depth,
                simd: algorithm.is_parallel().then_some(nqueens::Simd::None),
            },
            symmetry: Symmetry::Full,
            depth: depth.unwrap_or(3),
            subproblems: 100,
            items: 100,
            runs: 1,
            wall_s,
            wall_min_s: wall_s,
            wall_max_s: wall_s,
            cpu_s: None,
            speedup: None,
            efficiency: None,
            total: 1,
            oeis_total: None,
        }
    }

    /// Checks the text is one well-formed SVG document and returns it.
    fn assert_svg(svg: &str) -> &str {
        assert!(svg.starts_with("<svg"), "{}", &svg[..svg.len().min(80)]);
        assert!(svg.trim_end().ends_with("</svg>"));
        assert_eq!(svg.matches("<svg").count(), 1);
        svg
    }

    #[test]
    fn the_speedup_plot_carries_each_series_the_ideal_line_and_the_machine() {
        let mut rows = vec![
            row(Algorithm::Parallel, 15, 1, None, 4.0),
            row(Algorithm::Parallel, 15, 2, None, 2.1),
            row(Algorithm::Parallel, 16, 1, None, 20.0),
            row(Algorithm::Parallel, 16, 2, None, 10.2),
        ];
        fill_speedups(&mut rows);
        let svg = speedup_svg(&rows, "test box (2 cores)").unwrap();
        let svg = assert_svg(&svg);
        for text in [
            "n = 15",
            "n = 16",
            "ideal",
            "test box (2 cores)",
            "threads",
            "speedup over 1 thread",
        ] {
            assert!(svg.contains(text), "missing {text}");
        }
        // Two data series with 2 points each, drawn as circles.
        assert_eq!(svg.matches("<circle").count(), 4 + 2);
    }

    #[test]
    fn the_time_plot_has_one_series_per_algorithm_on_a_log_axis() {
        let rows = vec![
            row(Algorithm::Set, 8, 1, None, 0.01),
            row(Algorithm::Set, 10, 1, None, 0.2),
            row(Algorithm::Parallel, 8, 2, None, 0.0001),
            row(Algorithm::Parallel, 10, 2, None, 0.001),
        ];
        let svg = time_vs_n_svg(&rows, "m").unwrap();
        let svg = assert_svg(&svg);
        assert!(svg.contains("set"));
        assert!(svg.contains("parallel none, 2 threads"));
        assert!(svg.contains("median wall time (s)"));
    }

    #[test]
    fn the_depth_plot_shows_efficiency_per_thread_count() {
        let mut rows = vec![];
        for depth in [2, 3, 4] {
            rows.push(row(Algorithm::Parallel, 12, 1, Some(depth), 1.0));
            rows.push(row(Algorithm::Parallel, 12, 2, Some(depth), 0.55));
        }
        fill_speedups(&mut rows);
        let svg = efficiency_vs_depth_svg(&rows, "m").unwrap();
        let svg = assert_svg(&svg);
        assert!(svg.contains("n = 12, 2 threads"));
        assert!(svg.contains("split depth"));
        assert!(svg.contains("efficiency (%)"));
    }

    #[test]
    fn plots_need_two_x_values() {
        let mut rows = vec![row(Algorithm::Parallel, 12, 1, None, 1.0)];
        fill_speedups(&mut rows);
        assert_eq!(speedup_svg(&rows, "m"), None);
        assert_eq!(time_vs_n_svg(&rows, "m"), None);
        assert_eq!(efficiency_vs_depth_svg(&rows, "m"), None);
    }
}
