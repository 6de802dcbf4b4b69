//! `nqueens bench`: a sweep over boards, algorithms, thread counts and split
//! depths, with progress on stderr, a table on stdout, and CSV, JSON, plots
//! and a README written into a results folder.
//!
//! Files are rewritten after every point (see [`folder`]): an interrupted
//! sweep leaves a README marked incomplete, CSV and JSON that agree row for
//! row, and plots of the points done.

use std::collections::HashSet;
use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use anyhow::bail;
use indicatif::ProgressBar;
use nqueens::engine::backtrack::plan::{Plan, MAX_SUBPROBLEMS};
use nqueens::{oeis, Algorithm, Options, Simd, Symmetry, MAX_N};

use self::folder::Folder;
use self::sweep::{Point, Row};
use super::args::{parse_in_range, SimdArg, MAX_THREADS};
use super::machine::Machine;
use super::report::Verdict;
use super::{progress, signals, thread_pool, UsageError};

pub mod folder;

pub mod plot;
pub mod sweep;

#[derive(clap::Args)]
pub struct BenchArgs {
    /// Board sizes: a value, a list (14,15,16) or a range (12..=16, or 12-16).
    #[arg(long = "n", value_name = "LIST", default_value = "14", value_parser = parse_n_list, allow_hyphen_values = true)]
    ns: List,
    /// Thread counts for the parallel algorithm, as a list or range
    /// [default: 1, 2, 4, … up to the logical cores, plus the physical cores].
    #[arg(long, value_name = "LIST", value_parser = parse_threads_list, allow_hyphen_values = true)]
    threads: Option<List>,
    /// Split depths for the parallel algorithm, as a list or range
    /// [default: the automatic depth].
    #[arg(long, value_name = "LIST", value_parser = parse_depth_list, allow_hyphen_values = true)]
    depth: Option<List>,
    /// Algorithms, comma-separated; auto is the faster engine for each n
    /// on this CPU (as `count` chooses), parallel when --depth or
    /// --symmetry is given.
    #[arg(
        long,
        value_name = "A,…",
        value_enum,
        value_delimiter = ',',
        default_value = "auto"
    )]
    algo: Vec<Algorithm>,
    /// Symmetry of the parallel algorithm [default: full].
    #[arg(long, value_name = "S", value_enum)]
    symmetry: Option<Symmetry>,
    /// Instruction-set paths, comma-separated, swept like --threads: auto
    /// (the fastest each engine has here), avx512, avx2, neon, none. A path
    /// an engine of the sweep lacks here is refused before anything runs.
    #[arg(
        long,
        value_name = "PATH,…",
        value_enum,
        value_delimiter = ',',
        default_value = "auto"
    )]
    simd: Vec<SimdArg>,
    /// Timed runs per point; the median is reported, 1..=1000.
    #[arg(long, value_name = "R", default_value = "3", value_parser = parse_runs, allow_negative_numbers = true)]
    runs: usize,
    /// Untimed runs before the timed ones, 0..=100.
    #[arg(long, value_name = "W", default_value = "0", value_parser = parse_warmup, allow_negative_numbers = true)]
    warmup: usize,
    /// Folder for the results [default: a new results/<date>-<host>-<time>/].
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Replace the sweep already in --out (its files only).
    #[arg(long, requires = "out")]
    force: bool,
}

/// A parsed list of integers (a newtype, so that clap takes it as one value).
#[derive(Clone, Debug)]
pub struct List(Vec<usize>);

fn parse_n_list(s: &str) -> Result<List, String> {
    parse_list(s, 1, MAX_N)
}

fn parse_threads_list(s: &str) -> Result<List, String> {
    parse_list(s, 1, MAX_THREADS)
}

fn parse_depth_list(s: &str) -> Result<List, String> {
    parse_list(s, 1, MAX_N)
}

fn parse_runs(s: &str) -> Result<usize, String> {
    parse_in_range(s, 1, 1000).map(|v| v as usize)
}

fn parse_warmup(s: &str) -> Result<usize, String> {
    parse_in_range(s, 0, 100).map(|v| v as usize)
}

/// `a`, `a,b,c`, `a..=b`, `a-b` or a comma list of those, each in
/// `min..=max`; sorted and without repeats.
fn parse_list(s: &str, min: usize, max: usize) -> Result<List, String> {
    let rule =
        || format!("must be a list or range of integers in {min}..={max}, e.g. 12,14 or 12..=16");
    let number = |t: &str| {
        t.trim()
            .parse::<usize>()
            .ok()
            .filter(|v| (min..=max).contains(v))
            .ok_or_else(rule)
    };
    let mut values = Vec::new();
    for item in s.split(',') {
        let range = item.split_once("..=").or_else(|| item.split_once('-'));
        match range {
            Some((lo, hi)) => {
                let (lo, hi) = (number(lo)?, number(hi)?);
                if lo > hi {
                    return Err(rule());
                }
                values.extend(lo..=hi);
            }
            None => values.push(number(item)?),
        }
    }
    values.sort_unstable();
    values.dedup();
    Ok(List(values))
}

pub fn run(args: BenchArgs) -> anyhow::Result<()> {
    let machine = Machine::detect();
    let ns = args.ns.0;
    let mut algorithms = args.algo;
    let backtrack_only = args.depth.is_some() || args.symmetry.is_some();
    for algorithm in &mut algorithms {
        if *algorithm == Algorithm::Auto && backtrack_only {
            *algorithm = Algorithm::Parallel;
        }
    }
    let mut seen = HashSet::new();
    algorithms.retain(|a| seen.insert(*a));
    let parallel = algorithms.contains(&Algorithm::Parallel);
    let pooled = algorithms.iter().any(|a| a.is_parallel());
    if !parallel {
        let list = |l: &Option<List>| {
            l.as_ref().map(|List(v)| {
                let values: Vec<String> = v.iter().map(ToString::to_string).collect();
                values.join(",")
            })
        };
        let flags = [
            ("--threads <LIST>", list(&args.threads).filter(|_| !pooled)),
            ("--depth <LIST>", list(&args.depth)),
            ("--symmetry <S>", args.symmetry.map(|s| s.to_string())),
        ];
        if let Some((flag, value)) = flags.into_iter().find_map(|(f, v)| v.map(|v| (f, v))) {
            return Err(UsageError {
                value,
                flag,
                rule: "applies only to --algo parallel (--threads to join too); the serial \
                       algorithms run once per n, on one thread"
                    .to_string(),
            }
            .into());
        }
    }
    let symmetry = args.symmetry.unwrap_or_default();
    let threads = match args.threads {
        Some(List(t)) => t,
        None => sweep::default_threads(machine.physical_cores, machine.logical_cores),
    };
    let depths = args.depth.map(|List(d)| d).unwrap_or_default();
    let smallest_n = *ns.first().expect("the parser never returns an empty list");
    if let Some(&deepest) = depths.last() {
        if deepest > smallest_n {
            return Err(UsageError {
                value: deepest.to_string(),
                flag: "--depth <LIST>",
                rule: format!("must be in 1..={smallest_n}, the smallest --n"),
            }
            .into());
        }
    }
    if parallel {
        check_plans_fit(&ns, &depths, symmetry)?;
        check_threads_start(&threads)?;
    }
    let command = command_line();
    // `auto` becomes, for each n, the engine `count` would run there.
    let most_threads = threads.iter().copied().max().unwrap_or(1);
    let choose = |algorithm, n| {
        let asked = Options::default()
            .with_algorithm(algorithm)
            .with_symmetry(symmetry);
        // The job count would resolve (its pool is never started here).
        nqueens::Job::new(n, asked, Some(most_threads), nqueens::Run::default())
            .map_or(algorithm, |job| job.options().algorithm)
    };
    let mut simds: Vec<Option<Simd>> = args.simd.iter().map(|s| s.path()).collect();
    let mut seen = HashSet::new();
    simds.retain(|s| seen.insert(*s));
    let path = |algorithm: Algorithm, asked| algorithm.engine().map(|e| e.simd(asked));
    let points = sweep::grid(&algorithms, &ns, &threads, &depths, &simds, &choose, &path);
    check_paths(&points)?;
    // Only now: a refused sweep leaves no folder behind.
    let folder = Arc::new(Folder::prepare(args.out, args.force, &machine)?);
    let progress = progress::runs_bar((points.len() * (args.warmup + args.runs)) as u64);
    {
        let (folder, progress) = (Arc::clone(&folder), progress.clone());
        signals::on_interrupt(move || {
            progress.finish_and_clear();
            folder.interrupt();
            eprintln!(
                "interrupted: the points measured so far are in {}",
                folder.path().display()
            );
        });
    }
    // The table goes to stdout as points finish; a reader that goes away
    // (`| head`, `| true`) stops the table, not the sweep: the files are
    // the product.
    let mut stdout = Stdout::new();
    stdout.print(&sweep::table_header());
    let files = |rows: &[Row], done: usize| {
        Report {
            machine: &machine,
            command: &command,
            runs: args.runs,
            warmup: args.warmup,
            points: points.len(),
            done,
            rows,
        }
        .files()
    };
    let mut rows: Vec<Row> = Vec::new();
    folder.write(&files(&rows, 0))?;
    for (i, point) in points.iter().enumerate() {
        progress.set_message(describe(point));
        let options = Options::default()
            .with_algorithm(point.algorithm)
            .with_symmetry(symmetry)
            .with_depth(point.depth_requested)
            .with_simd(point.simd);
        // Each point's pool ends before the next one starts.
        let pool = thread_pool(Some(point.threads))?;
        let row = measure(point, &options, &pool, args.warmup, args.runs, &progress)?;
        drop(pool);
        rows.push(row);
        sweep::fill_speedups(&mut rows);
        folder.write(&files(&rows, i + 1))?;
        progress.suspend(|| stdout.print(&sweep::table_row(rows.last().expect("a row"))));
    }
    folder.finish()?;
    progress.finish_and_clear();
    stdout.print(&format!("results written to {}\n", folder.path().display()));
    stdout.result()
}

/// Stdout that stops printing once its reader has gone (quietly: the files
/// are the product) or a write fails (an error once the sweep is done,
/// as `>/dev/full` is for every other command).
struct Stdout {
    open: bool,
    failed: Option<std::io::Error>,
}

impl Stdout {
    fn new() -> Stdout {
        Stdout {
            open: true,
            failed: None,
        }
    }

    fn print(&mut self, text: &str) {
        if self.open {
            let mut out = std::io::stdout().lock();
            if let Err(e) = out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
                self.open = false;
                if e.kind() != std::io::ErrorKind::BrokenPipe {
                    self.failed = Some(e);
                }
            }
        }
    }

    fn result(self) -> anyhow::Result<()> {
        match self.failed {
            Some(e) => Err(anyhow::anyhow!("cannot write to stdout: {e}")),
            None => Ok(()),
        }
    }
}

/// What a sweep has measured so far, as the files it writes.
struct Report<'a> {
    machine: &'a Machine,
    command: &'a str,
    runs: usize,
    warmup: usize,
    points: usize,
    done: usize,
    rows: &'a [Row],
}

impl Report<'_> {
    /// Every file of the sweep: CSV, JSON, the plots the rows make, README.
    fn files(&self) -> Vec<(&'static str, String)> {
        let rows = self.rows;
        let title = self.machine.title();
        let plots = [
            (
                "speedup.svg",
                "Speedup against threads",
                plot::speedup_svg(rows, &title),
            ),
            (
                "time_vs_n.svg",
                "Time against n",
                plot::time_vs_n_svg(rows, &title),
            ),
            (
                "efficiency_vs_depth.svg",
                "Efficiency against split depth",
                plot::efficiency_vs_depth_svg(rows, &title),
            ),
        ];
        let mut files = vec![
            ("sweep.csv", sweep::to_csv(rows)),
            (
                "sweep.json",
                sweep::to_json(self.machine, self.command, rows),
            ),
        ];
        let mut embeds = String::new();
        for (file, caption, svg) in plots {
            if let Some(svg) = svg {
                files.push((file, svg));
                embeds.push_str(&format!("![{caption}]({file})\n\n"));
            }
        }
        files.push(("README.md", self.readme(&embeds)));
        files
    }

    fn readme(&self, embeds: &str) -> String {
        let status = if self.done == self.points {
            format!(
                "Complete: {} of {} points measured.",
                self.done, self.points
            )
        } else {
            format!(
                "**Incomplete**: {} of {} points measured (the sweep was stopped, or is \
                 still running).",
                self.done, self.points
            )
        };
        format!(
            "# nqueens bench\n\n\
             Command: `{command}`\n\n\
             {status}\n\n\
             {runs} timed run(s) per point after {warmup} warm-up run(s); times are medians. \
             Every total was checked against OEIS A000170 where it is known \
             (`oeis_total` column); a wrong count stops the sweep.\n\n\
             ## Machine and build\n\n{machine_table}\n\
             ## Results\n\n```\n{table}```\n\n\
             Files: `sweep.csv`, `sweep.json`.\n\n{embeds}",
            command = self.command,
            runs = self.runs,
            warmup = self.warmup,
            machine_table = self.machine.markdown(),
            table = sweep::table(self.rows),
        )
    }
}

/// Starts (and ends) the largest pool the sweep needs before it starts, so
/// that a thread count the system cannot start is refused up front.
fn check_threads_start(threads: &[usize]) -> Result<(), UsageError> {
    let Some(&most) = threads.iter().max() else {
        return Ok(());
    };
    rayon::ThreadPoolBuilder::new()
        .num_threads(most)
        .build()
        .map(drop)
        .map_err(|e| UsageError {
            value: most.to_string(),
            flag: "--threads <LIST>",
            rule: format!("this system could not start that many threads ({e})"),
        })
}

/// Runs one point `warmup + runs` times and reduces the timed runs to a row.
fn measure(
    point: &Point,
    options: &Options,
    pool: &rayon::ThreadPool,
    warmup: usize,
    runs: usize,
    progress: &ProgressBar,
) -> anyhow::Result<Row> {
    let mut walls = Vec::with_capacity(runs);
    let mut cpus = Vec::with_capacity(runs);
    let mut last = None;
    for i in 0..warmup + runs {
        let cpu_before = nqueens::system::process_cpu_s();
        let start = Instant::now();
        let count = pool.install(|| nqueens::count(point.n, options))?;
        let wall = start.elapsed();
        let cpu = cpu_before
            .zip(nqueens::system::process_cpu_s())
            .map(|(b, a)| a - b);
        check(
            point,
            count.total,
            last.as_ref().map(|c: &nqueens::Count| c.total),
        )?;
        if i >= warmup {
            walls.push(wall.as_secs_f64());
            cpus.extend(cpu);
        }
        last = Some(count);
        progress.inc(1);
    }
    let count = last.expect("at least one run");
    Ok(Row {
        point: *point,
        symmetry: count.symmetry,
        depth: count.depth,
        subproblems: count.subproblems,
        items: count.items,
        runs,
        wall_s: sweep::median(&walls),
        wall_min_s: walls.iter().copied().fold(f64::INFINITY, f64::min),
        wall_max_s: walls.iter().copied().fold(0.0, f64::max),
        cpu_s: (cpus.len() == walls.len()).then(|| sweep::median(&cpus)),
        speedup: None,
        efficiency: None,
        total: count.total,
        oeis_total: oeis::known_total(point.n),
    })
}

/// Refuses, before anything runs, a path an engine of the sweep lacks here.
fn check_paths(points: &[Point]) -> anyhow::Result<()> {
    for point in points {
        let (Some(simd), Some(engine)) = (point.simd, point.algorithm.engine()) else {
            continue;
        };
        let checked = engine.check(simd);
        if let Err(err @ nqueens::Error::SimdUnavailable { simd, .. }) = checked {
            return Err(UsageError {
                value: simd.to_string(),
                flag: "--simd <PATH,…>",
                rule: err.to_string(),
            }
            .into());
        }
        checked?;
    }
    Ok(())
}

/// Refuses, before anything runs, a depth whose plan would not fit in
/// memory for one of the boards.
fn check_plans_fit(ns: &[usize], depths: &[usize], symmetry: Symmetry) -> Result<(), UsageError> {
    for &n in ns {
        for &depth in depths {
            if Plan::size(n, depth, symmetry, MAX_SUBPROBLEMS).is_none() {
                return Err(UsageError {
                    value: depth.to_string(),
                    flag: "--depth <LIST>",
                    rule: format!(
                        "the plan for n = {n} at this depth would hold more than \
                         {MAX_SUBPROBLEMS} subproblems (1 GiB) at some row of its walk; depths \
                         1..={} fit",
                        Plan::largest_depth(n, symmetry, MAX_SUBPROBLEMS)
                    ),
                });
            }
        }
    }
    Ok(())
}

/// A count that differs from OEIS, or from the previous run, is an error.
fn check(point: &Point, total: u128, previous: Option<u128>) -> anyhow::Result<()> {
    if let Verdict::Differs { known } = Verdict::of(total, oeis::known_total(point.n)) {
        bail!(
            "{}: counted {total}, but A000170 lists {known}",
            describe(point)
        );
    }
    if let Some(previous) = previous.filter(|&p| p != total) {
        bail!(
            "{}: runs disagree ({previous} then {total})",
            describe(point)
        );
    }
    Ok(())
}

fn describe(point: &Point) -> String {
    let depth = point
        .depth_requested
        .map_or(String::new(), |d| format!(", depth {d}"));
    format!(
        "{} n = {}, {} thread(s){depth}",
        point.algorithm, point.n, point.threads
    )
}

/// The command line as typed, for the record.
fn command_line() -> String {
    let mut words = vec!["nqueens".to_string()];
    words.extend(std::env::args().skip(1).map(|a| {
        if a.contains(char::is_whitespace) {
            format!("'{a}'")
        } else {
            a
        }
    }));
    words.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_take_values_ranges_and_mixtures() {
        assert_eq!(parse_list("14", 1, 32).unwrap().0, vec![14]);
        assert_eq!(parse_list("12..=14", 1, 32).unwrap().0, vec![12, 13, 14]);
        assert_eq!(parse_list("12-14", 1, 32).unwrap().0, vec![12, 13, 14]);
        assert_eq!(
            parse_list("16,8,10..=11,8", 1, 32).unwrap().0,
            vec![8, 10, 11, 16]
        );
    }

    #[test]
    fn lists_reject_out_of_range_reversed_and_malformed_items() {
        for bad in [
            "0", "33", "14..=12", "a", "", "1,,2", "-3", "1..=", "2..=40",
        ] {
            let err = parse_list(bad, 1, 32).unwrap_err();
            assert!(err.contains("1..=32"), "{bad}: {err}");
        }
    }
}
