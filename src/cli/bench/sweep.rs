//! Benchmark sweeps: the grid of points to measure, one result row per point,
//! and the pure formatters that turn rows into CSV, JSON and a text table.
//!
//! Measuring (timing, thread pools, progress, files) is the binary's job;
//! everything here is a function of its arguments, so it is tested directly.

use serde::Serialize;

use nqueens::{Algorithm, Simd, Symmetry};

/// One configuration to measure.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Point {
    /// The counting algorithm.
    pub algorithm: Algorithm,
    /// The board size.
    pub n: usize,
    /// Worker threads (1 for the serial algorithms).
    pub threads: usize,
    /// The split depth asked for, or `None` for the automatic choice (and for
    /// the serial algorithms, which do not split).
    pub depth_requested: Option<usize>,
    /// The instruction-set path the engine counts on (`None` for the
    /// serial algorithms).
    pub simd: Option<Simd>,
}

impl Point {
    /// The algorithm and its path, e.g. `join avx2`, for tables and plots.
    pub fn engine(&self) -> String {
        match self.simd {
            Some(simd) => format!("{} {simd}", self.algorithm),
            None => self.algorithm.to_string(),
        }
    }
}

/// Every combination of the lists, in the order they will run: by algorithm,
/// then n, then depth, then path, then threads (so that the 1-thread
/// baseline of a speedup is measured next to the points compared with
/// it). The serial algorithms run once per n, on one thread. `choose` turns
/// an algorithm asked for into the one that runs at n (`auto` into an
/// engine), `path` a path asked for (`None`: auto) into the one that
/// engine counts on; a point chosen twice runs once.
pub fn grid(
    algorithms: &[Algorithm],
    ns: &[usize],
    threads: &[usize],
    depths: &[usize],
    simds: &[Option<Simd>],
    choose: &dyn Fn(Algorithm, usize) -> Algorithm,
    path: &dyn Fn(Algorithm, Option<Simd>) -> Option<Simd>,
) -> Vec<Point> {
    let mut points: Vec<Point> = Vec::new();
    for &asked in algorithms {
        for &n in ns {
            let algorithm = choose(asked, n);
            if !algorithm.is_parallel() {
                points.push(Point {
                    algorithm,
                    n,
                    threads: 1,
                    depth_requested: None,
                    simd: None,
                });
                continue;
            }
            // The join has no split depth.
            let depths: Vec<Option<usize>> = if depths.is_empty() || algorithm == Algorithm::Join {
                vec![None]
            } else {
                depths.iter().map(|&d| Some(d)).collect()
            };
            for depth_requested in depths {
                for &asked in simds {
                    for &threads in threads {
                        let point = Point {
                            algorithm,
                            n,
                            threads,
                            depth_requested,
                            simd: path(algorithm, asked),
                        };
                        if !points.contains(&point) {
                            points.push(point);
                        }
                    }
                }
            }
        }
    }
    points
}

/// The default thread counts for a machine: 1, 2, 4, … below the logical core
/// count, then the physical and the logical core counts; sorted, distinct.
pub fn default_threads(physical: usize, logical: usize) -> Vec<usize> {
    let mut threads: Vec<usize> = std::iter::successors(Some(1usize), |t| t.checked_mul(2))
        .take_while(|&t| t < logical)
        .collect();
    threads.extend([physical.max(1), logical.max(1)]);
    threads.sort_unstable();
    threads.dedup();
    threads
}

/// The measurements of one point.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Row {
    /// What was measured.
    #[serde(flatten)]
    pub point: Point,
    /// The symmetry the count used.
    pub symmetry: Symmetry,
    /// The split depth the count used (0 for the serial algorithms).
    pub depth: usize,
    /// Independent subproblems.
    pub subproblems: usize,
    /// The work items they were grouped into.
    pub items: usize,
    /// Timed runs (warm-up runs excluded).
    pub runs: usize,
    /// Median wall-clock time of the runs, in seconds.
    pub wall_s: f64,
    /// Fastest run, in seconds.
    pub wall_min_s: f64,
    /// Slowest run, in seconds.
    pub wall_max_s: f64,
    /// Median CPU time (user + system, all threads), in seconds, where the
    /// platform reports it.
    pub cpu_s: Option<f64>,
    /// Wall time of the same algorithm, n and requested depth on 1 thread,
    /// divided by this point's; `None` without a 1-thread point.
    pub speedup: Option<f64>,
    /// `speedup / threads`.
    pub efficiency: Option<f64>,
    /// The number of solutions counted (every run agreed).
    pub total: u128,
    /// The OEIS A000170 value the total was checked against, if known.
    pub oeis_total: Option<u128>,
}

/// Fills in `speedup` and `efficiency` from the 1-thread rows.
pub fn fill_speedups(rows: &mut [Row]) {
    // A point's baseline: the same point on one thread.
    let key = |p: &Point| Point { threads: 1, ..*p };
    let baselines: Vec<(Point, f64)> = rows
        .iter()
        .filter(|r| r.point.threads == 1)
        .map(|r| (r.point, r.wall_s))
        .collect();
    for row in rows.iter_mut() {
        let p = row.point;
        let baseline = baselines
            .iter()
            .find(|(b, _)| *b == key(&p))
            .map(|&(_, wall)| wall);
        row.speedup = baseline
            .filter(|_| row.wall_s > 0.0)
            .map(|b| b / row.wall_s);
        row.efficiency = row.speedup.map(|s| s / p.threads as f64);
    }
}

/// The median of a non-empty list.
///
/// # Panics
/// If `values` is empty.
pub fn median(values: &[f64]) -> f64 {
    assert!(!values.is_empty(), "the median of nothing");
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let mid = sorted.len() / 2;
    if sorted.len() % 2 == 1 {
        sorted[mid]
    } else {
        (sorted[mid - 1] + sorted[mid]) / 2.0
    }
}

/// The CSV header, in the order of [`csv_row`]'s fields.
pub const CSV_HEADER: &str = "algorithm,simd,symmetry,n,threads,depth_requested,depth,subproblems,items,runs,wall_s,wall_min_s,wall_max_s,cpu_s,speedup,efficiency,total,oeis_total";

/// One CSV line (no newline); missing values are empty fields.
pub fn csv_row(row: &Row) -> String {
    fn opt<T: ToString>(value: Option<T>) -> String {
        value.map_or(String::new(), |v| v.to_string())
    }
    fn opt_f(value: Option<f64>) -> String {
        value.map_or(String::new(), |v| format!("{v:.6}"))
    }
    format!(
        "{},{},{},{},{},{},{},{},{},{},{:.6},{:.6},{:.6},{},{},{},{},{}",
        row.point.algorithm,
        opt(row.point.simd),
        row.symmetry,
        row.point.n,
        row.point.threads,
        opt(row.point.depth_requested),
        row.depth,
        row.subproblems,
        row.items,
        row.runs,
        row.wall_s,
        row.wall_min_s,
        row.wall_max_s,
        opt_f(row.cpu_s),
        opt_f(row.speedup),
        opt_f(row.efficiency),
        row.total,
        opt(row.oeis_total),
    )
}

/// The whole CSV file: header and one line per row.
pub fn to_csv(rows: &[Row]) -> String {
    let mut out = String::from(CSV_HEADER);
    out.push('\n');
    for row in rows {
        out.push_str(&csv_row(row));
        out.push('\n');
    }
    out
}

/// The whole JSON file: `{"machine": …, "command": …, "rows": […]}`.
pub fn to_json<M: Serialize>(machine: &M, command: &str, rows: &[Row]) -> String {
    #[derive(Serialize)]
    struct File<'a, M> {
        machine: &'a M,
        command: &'a str,
        rows: &'a [Row],
    }
    let file = File {
        machine,
        command,
        rows,
    };
    let mut text = serde_json::to_string_pretty(&file).expect("rows serialize");
    text.push('\n');
    text
}

/// A fixed-width text table of the rows, for the terminal and the README.
pub fn table(rows: &[Row]) -> String {
    let mut out = table_header();
    for row in rows {
        out.push_str(&table_row(row));
    }
    out
}

/// The table's header line.
pub fn table_header() -> String {
    format!(
        "{:<19} {:>3} {:>7} {:>5} {:>11} {:>10} {:>10} {:>8} {:>10} {:>15}\n",
        "algorithm",
        "n",
        "threads",
        "depth",
        "subproblems",
        "wall (s)",
        "cpu (s)",
        "speedup",
        "efficiency",
        "total"
    )
}

/// One line of the table.
pub fn table_row(r: &Row) -> String {
    let cpu = r.cpu_s.map_or("-".to_string(), |c| format!("{c:.3}"));
    let speedup = r.speedup.map_or("-".to_string(), |s| format!("{s:.2}"));
    let efficiency = r
        .efficiency
        .map_or("-".to_string(), |e| format!("{:.1}%", e * 100.0));
    format!(
        "{:<19} {:>3} {:>7} {:>5} {:>11} {:>10.4} {:>10} {:>8} {:>10} {:>15}\n",
        r.point.engine(),
        r.point.n,
        r.point.threads,
        r.depth,
        r.subproblems,
        r.wall_s,
        cpu,
        speedup,
        efficiency,
        r.total
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(threads: usize, wall_s: f64) -> Row {
        Row {
            point: Point {
                algorithm: Algorithm::Parallel,
                n: 10,
                threads,
                depth_requested: None,
                simd: Some(Simd::None),
            },
            symmetry: Symmetry::Full,
            depth: 3,
            subproblems: 40,
            items: 40,
            runs: 3,
            wall_s,
            wall_min_s: wall_s * 0.9,
            wall_max_s: wall_s * 1.1,
            cpu_s: Some(wall_s * threads as f64),
            speedup: None,
            efficiency: None,
            total: 724,
            oeis_total: Some(724),
        }
    }

    #[test]
    fn the_grid_names_the_engine_chosen_for_each_n_and_runs_a_point_once() {
        let choose = |algorithm, n| match algorithm {
            Algorithm::Auto if n < 7 => Algorithm::Parallel,
            Algorithm::Auto => Algorithm::Join,
            other => other,
        };
        let points = grid(
            &[Algorithm::Auto, Algorithm::Join],
            &[6, 8],
            &[1],
            &[],
            &[None],
            &choose,
            &|_, _| Some(Simd::None),
        );
        let chosen: Vec<_> = points.iter().map(|p| (p.algorithm, p.n)).collect();
        assert_eq!(
            chosen,
            [
                (Algorithm::Parallel, 6),
                (Algorithm::Join, 8),
                (Algorithm::Join, 6)
            ]
        );
    }

    #[test]
    fn the_grid_runs_serial_algorithms_once_and_parallel_per_depth_and_thread_count() {
        let points = grid(
            &[Algorithm::Set, Algorithm::Parallel],
            &[8, 9],
            &[1, 2],
            &[2, 3],
            &[None],
            &|algorithm, _| algorithm,
            &|_, asked| Some(asked.unwrap_or(Simd::Avx512)),
        );
        let serial: Vec<_> = points
            .iter()
            .filter(|p| p.algorithm == Algorithm::Set)
            .collect();
        assert_eq!(serial.len(), 2);
        assert!(serial
            .iter()
            .all(|p| p.threads == 1 && p.depth_requested.is_none()));
        let parallel = points.len() - serial.len();
        assert_eq!(parallel, 2 * 2 * 2);
        assert_eq!(points[2].depth_requested, Some(2));
        assert_eq!((points[2].threads, points[3].threads), (1, 2));
    }

    #[test]
    fn the_grid_sweeps_paths_like_threads_and_resolves_auto_per_engine() {
        let points = grid(
            &[Algorithm::Join, Algorithm::Parallel],
            &[10],
            &[1, 2],
            &[],
            &[None, Some(Simd::Avx2), Some(Simd::None)],
            &|algorithm, _| algorithm,
            &|algorithm, asked| match (algorithm, asked) {
                (Algorithm::Join, None) => Some(Simd::Avx2),
                (_, None) => Some(Simd::None),
                (_, Some(simd)) => Some(simd),
            },
        );
        let swept: Vec<_> = points.iter().map(|p| (p.engine(), p.threads)).collect();
        let expected = [
            ("join avx2", 1),
            ("join avx2", 2),
            ("join none", 1),
            ("join none", 2),
            ("parallel none", 1),
            ("parallel none", 2),
            ("parallel avx2", 1),
            ("parallel avx2", 2),
        ];
        let expected: Vec<_> = expected.iter().map(|&(e, t)| (e.to_string(), t)).collect();
        assert_eq!(swept, expected);
    }

    #[test]
    fn default_threads_double_up_to_the_core_counts() {
        assert_eq!(default_threads(2, 2), vec![1, 2]);
        assert_eq!(default_threads(8, 16), vec![1, 2, 4, 8, 16]);
        assert_eq!(default_threads(6, 12), vec![1, 2, 4, 6, 8, 12]);
        assert_eq!(default_threads(1, 1), vec![1]);
    }

    #[test]
    fn speedup_and_efficiency_come_from_the_one_thread_row() {
        let mut rows = vec![row(1, 4.0), row(2, 2.5), row(4, 1.0)];
        fill_speedups(&mut rows);
        assert_eq!(rows[0].speedup, Some(1.0));
        assert_eq!(rows[1].speedup, Some(1.6));
        assert_eq!(rows[1].efficiency, Some(0.8));
        assert_eq!(rows[2].efficiency, Some(1.0));
    }

    #[test]
    fn without_a_one_thread_row_there_is_no_speedup() {
        let mut rows = vec![row(2, 2.5)];
        fill_speedups(&mut rows);
        assert_eq!((rows[0].speedup, rows[0].efficiency), (None, None));
    }

    #[test]
    fn median_of_odd_and_even_lists() {
        assert_eq!(median(&[3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&[4.0, 1.0, 2.0, 3.0]), 2.5);
    }

    #[test]
    fn csv_has_a_header_and_one_line_per_row_with_empty_missing_fields() {
        let mut rows = vec![row(1, 4.0), row(2, 2.0)];
        fill_speedups(&mut rows);
        rows[1].cpu_s = None;
        let csv = to_csv(&rows);
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(lines.len(), 3);
        assert_eq!(lines[0], CSV_HEADER);
        let fields: Vec<&str> = lines[2].split(',').collect();
        assert_eq!(fields.len(), CSV_HEADER.split(',').count());
        assert_eq!(fields[0], "parallel");
        assert_eq!(fields[1], "none", "simd");
        assert_eq!(fields[4], "2");
        assert_eq!(fields[5], "", "automatic depth is an empty field");
        assert_eq!(fields[8], "40", "items");
        assert_eq!(fields[13], "", "no CPU time");
        assert_eq!(fields[14], "2.000000");
        assert_eq!(fields[16], "724");
    }

    #[test]
    fn json_carries_the_machine_the_command_and_every_row() {
        let rows = vec![row(1, 4.0)];
        let json: serde_json::Value =
            serde_json::from_str(&to_json(&"test machine", "nqueens bench", &rows)).unwrap();
        assert_eq!(json["machine"], "test machine");
        assert_eq!(json["command"], "nqueens bench");
        assert_eq!(json["rows"][0]["algorithm"], "parallel");
        assert_eq!(json["rows"][0]["total"], 724);
        assert_eq!(json["rows"][0]["depth_requested"], serde_json::Value::Null);
        assert_eq!(json["rows"][0]["wall_s"], 4.0);
    }

    #[test]
    fn the_table_has_a_line_per_row() {
        let table = table(&[row(1, 4.0), row(2, 2.0)]);
        assert_eq!(table.lines().count(), 3);
        assert!(table.lines().nth(1).unwrap().starts_with("parallel"));
    }
}
