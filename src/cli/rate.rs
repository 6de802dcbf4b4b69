//! `nqueens rate`: a rating of this machine, in work units per second,
//! comparable across machines and program versions of one rating version.
//!
//! The workload ([`RATING_VERSION`] 1) has two parts, each a unit counted
//! whole on one thread from tables prepared once: the join counting
//! Q([`JOIN_N`]) and the backtracking engine counting Q([`SEARCH_N`])
//! (full symmetry, split depth [`SEARCH_DEPTH`]). A pass gives each part a
//! [window](window) in which every thread counts units one after another
//! ([`exec::rate`](nqueens::exec::rate)); a part's rate is its units per
//! second summed over the threads, and the rating is the geometric mean of
//! the two parts' rates, so a machine twice as fast at both rates twice as
//! high. Rounds of passes, one on each thread count in turn, repeat until
//! the standard error of every point's mean is under 1% or the time
//! budget is spent. Every unit's total is checked against A000170.

use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use nqueens::engine::backtrack::Backtrack;
use nqueens::engine::EngineId;
use nqueens::exec::rate::{self, Part, WrongCount};
use nqueens::{oeis, Algorithm, Engine, Job, Options, Run, Simd};
use serde::{Deserialize, Serialize};

use super::args::{parse_threads, SimdFlag};
use super::errors::{job_error, usage_error};
use super::machine::Machine;
use super::{write_atomically, Mismatch, UsageError};
use nqueens::problem::printable;

/// The version of the rating: bumped whenever the workload changes, or a
/// change moves the development machine's rating by more than 1%. Ratings
/// of one version compare; ratings of two are refused.
pub const RATING_VERSION: u32 = 1;

/// The join's unit: Q(16), whose time is mostly the pair counter's (at
/// n = 15 most of it is gluing, the same on every path: 1.09x the time
/// with --simd none as with avx512, against 0.64x at 16).
pub const JOIN_N: usize = 16;
/// The backtracking engine's unit: Q(14), full symmetry.
pub const SEARCH_N: usize = 14;
/// The backtracking unit's split depth: fixed, so that the unit is the
/// same work at every thread count (the automatic depth grows with
/// threads).
pub const SEARCH_DEPTH: usize = 4;

/// Each part's window in a pass.
const WINDOW: Duration = Duration::from_millis(500);
/// Seconds the passes may take in all, and per point at most.
const BUDGET_S: f64 = 48.0;
const POINT_BUDGET_S: f64 = 24.0;
/// A drift past this (either way) is warned of.
const DRIFT_WARNING: f64 = 0.03;

/// Environment variable: each part's window in milliseconds instead of
/// 500, the time budget scaled alike (for tests; recorded in the rating,
/// and ratings of other windows are refused by `--compare`).
pub const WINDOW_VAR: &str = "NQUEENS_RATE_WINDOW_MS";

#[derive(clap::Args)]
pub struct RateArgs {
    /// Rate only on T threads [default: 1 thread, the physical cores and
    /// the logical cores].
    #[arg(long, value_name = "T", value_parser = parse_threads, allow_negative_numbers = true)]
    pub threads: Option<usize>,
    #[command(flatten)]
    pub simd: SimdFlag,
    /// Print one JSON object on one line instead of text.
    #[arg(long)]
    pub json: bool,
    /// Also write the rating's JSON to FILE (only once it is complete).
    #[arg(long, value_name = "FILE")]
    pub save: Option<PathBuf>,
    /// Print saved ratings side by side (runs nothing); the first is the
    /// reference of the ratios.
    #[arg(
        long,
        value_name = "FILE",
        num_args = 1..,
        conflicts_with_all = ["threads", "simd", "json", "save"]
    )]
    pub compare: Option<Vec<PathBuf>>,
}

/// What the units are.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Workload {
    pub join_n: usize,
    pub backtracking_n: usize,
    pub backtracking_depth: usize,
    pub window_s: f64,
}

/// The instruction-set path of each part.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Paths {
    pub join: Simd,
    pub backtracking: Simd,
}

/// The rating on one thread count, as a rating file records it: the
/// library's point with its parts named.
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
pub struct Point {
    pub threads: usize,
    /// The geometric mean of the parts' units per second.
    pub rating: f64,
    pub join: f64,
    pub backtracking: f64,
    /// The standard error of the rating (the mean of its passes),
    /// relative to it.
    pub spread: f64,
    /// The mean rating of the second half of the passes over the first
    /// half's, less 1: the machine's speed moving while it was rated.
    pub drift: f64,
    pub passes: usize,
    /// Whether the spread came under 1% within the time budget.
    pub settled: bool,
}

impl From<rate::Point> for Point {
    /// The parts in the order the rating passes them: the join, then the
    /// backtracker.
    fn from(p: rate::Point) -> Point {
        let [join, backtracking] = p.parts;
        Point {
            threads: p.threads,
            rating: p.rating,
            join,
            backtracking,
            spread: p.spread,
            drift: p.drift,
            passes: p.passes,
            settled: p.settled,
        }
    }
}

/// The longest saved rating `--compare` reads: a few kilobytes of fields,
/// with room for a point per thread count.
const MAX_RATING_BYTES: u64 = 1 << 20;

/// A whole rating, as `--json` prints it and `--save` writes it.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Rating {
    pub rating_version: u32,
    pub program_version: String,
    pub workload: Workload,
    pub simd: Paths,
    pub machine: Machine,
    pub points: Vec<Point>,
    /// The rating on one thread, and on the most threads rated.
    pub single: Option<f64>,
    pub multi: Option<f64>,
    pub multi_threads: Option<usize>,
    /// multi / single, and that per thread.
    pub scaling: Option<f64>,
    pub efficiency: Option<f64>,
    /// Whether some point's spread stayed above 1%, or drifted more
    /// than 3%.
    pub noisy: bool,
    pub elapsed_s: f64,
}

impl Rating {
    /// What in a rating read from a file no rating can hold: ratings and
    /// rates are positive finite numbers, spreads and drifts finite,
    /// thread counts at least one.
    fn check(&self) -> Result<(), String> {
        let positive = |what: &str, value: f64| match value.is_finite() && value > 0.0 {
            true => Ok(()),
            false => Err(format!("its {what} {value} is no positive number")),
        };
        for point in &self.points {
            positive("rating", point.rating)?;
            positive("join rate", point.join)?;
            positive("backtracking rate", point.backtracking)?;
            if !(point.spread.is_finite() && point.spread >= 0.0 && point.drift.is_finite()) {
                return Err(format!(
                    "its spread {} or drift {} is no number",
                    point.spread, point.drift
                ));
            }
            if point.threads == 0 {
                return Err("a point of 0 threads".to_string());
            }
        }
        let optional = [
            ("single-thread rating", self.single),
            ("multi-thread rating", self.multi),
            ("scaling", self.scaling),
            ("efficiency", self.efficiency),
        ];
        for (what, value) in optional {
            if let Some(value) = value {
                positive(what, value)?;
            }
        }
        if self.multi_threads == Some(0) {
            return Err("its multi-thread rating is on 0 threads".to_string());
        }
        Ok(())
    }
}

pub fn run(args: RateArgs) -> anyhow::Result<()> {
    if let Some(files) = &args.compare {
        return compare(files);
    }
    if let Some(path) = &args.save {
        // Refused before a minute of rating, not after.
        super::check_destination(path, "--save <FILE>")?;
    }
    let started = Instant::now();
    let window = window()?;
    let (join_simd, search_simd) = paths(args.simd.path())?;
    // One job per engine, on the fixed units: a whole board each.
    let join = unit_job(JOIN_N, Algorithm::Join, None, join_simd)?;
    let search = unit_job(
        SEARCH_N,
        Algorithm::Parallel,
        Some(SEARCH_DEPTH),
        search_simd,
    )?;
    let parts = [
        Part {
            engine: unit_engine(&join)?,
            expected: expected(JOIN_N),
        },
        Part {
            engine: unit_engine(&search)?,
            expected: expected(SEARCH_N),
        },
    ];
    let machine = Machine::detect();
    let counts = match args.threads {
        Some(threads) => vec![threads],
        None => {
            let mut counts = vec![1, machine.physical_cores, machine.logical_cores];
            counts.dedup();
            counts
        }
    };
    // A shorter window (tests) shortens the budget alike.
    let scale = window.as_secs_f64() / WINDOW.as_secs_f64();
    let budget_s = BUDGET_S.min(POINT_BUDGET_S * counts.len() as f64) * scale;
    if io::stderr().is_terminal() {
        eprintln!(
            "rating {RATING_VERSION} on {} thread(s): about {budget_s:.0} s",
            join_list(&counts),
        );
    }
    // A short pass first: caches, page faults and clocks settle.
    for part in &parts {
        rate::pass(part, counts[0], window / 4).map_err(wrong)?;
    }
    let points = rate::points(&parts, &counts, window, budget_s).map_err(wrong)?;
    let points = points.into_iter().map(Point::from).collect();
    let rating = summarize(
        machine,
        Paths {
            join: join_simd,
            backtracking: search_simd,
        },
        Workload {
            join_n: JOIN_N,
            backtracking_n: SEARCH_N,
            backtracking_depth: SEARCH_DEPTH,
            window_s: window.as_secs_f64(),
        },
        points,
        started.elapsed().as_secs_f64(),
    );
    let line = serde_json::to_string(&rating)?;
    if let Some(path) = &args.save {
        write_atomically(path, &format!("{line}\n"))?;
    }
    let mut out = io::stdout().lock();
    if args.json {
        writeln!(out, "{line}")?;
    } else {
        write_text(&mut out, &rating)?;
    }
    out.flush()?;
    for point in &rating.points {
        let said = if !point.settled {
            format!(
                "is still uncertain by {:.1}% after {} passes (the target is 1%)",
                100.0 * point.spread,
                point.passes
            )
        } else if point.drift.abs() > DRIFT_WARNING {
            format!(
                "moved by {:+.1}% from the first half of its passes to the second",
                100.0 * point.drift
            )
        } else {
            continue;
        };
        eprintln!(
            "warning: the rating on {} thread(s) {said}: another load, or frequency \
             scaling, is disturbing the timing; rate again on an idle machine",
            point.threads
        );
    }
    Ok(())
}

/// Each part's window: [`WINDOW`], or [`WINDOW_VAR`]'s.
fn window() -> anyhow::Result<Duration> {
    let Ok(value) = std::env::var(WINDOW_VAR) else {
        return Ok(WINDOW);
    };
    match value.trim().parse::<u64>() {
        Ok(ms @ 1..=60_000) => Ok(Duration::from_millis(ms)),
        _ => Err(UsageError {
            value,
            flag: WINDOW_VAR,
            rule: "must be a number of milliseconds in 1..=60000".to_string(),
        }
        .into()),
    }
}

/// The parts' paths: `asked` for both (the backtracker, which has no
/// NEON path, counts on `none` where NEON is asked), or each engine's
/// fastest.
fn paths(asked: Option<Simd>) -> anyhow::Result<(Simd, Simd)> {
    let join = EngineId::Join.simd(asked);
    EngineId::Join.check(join).map_err(usage_error)?;
    let search = match asked {
        Some(simd) if !Backtrack::PATHS.iter().any(|p| p.simd == simd) => Simd::None,
        _ => EngineId::Backtrack.simd(asked),
    };
    Ok((join, search))
}

/// The job of a rating unit: a whole board, by one engine, on one path.
fn unit_job(
    n: usize,
    algorithm: Algorithm,
    depth: Option<usize>,
    simd: Simd,
) -> anyhow::Result<Job> {
    let options = Options::default()
        .with_algorithm(algorithm)
        .with_depth(depth)
        .with_simd(Some(simd))
        .with_max_memory(Some(u64::MAX));
    Job::new(n, options, None, Run::default()).map_err(job_error)
}

/// The engine a unit's job counts with.
fn unit_engine(job: &Job) -> anyhow::Result<&dyn Engine> {
    let engine = job.engine().map_err(usage_error)?;
    Ok(engine.expect("a rating unit is pooled").as_dyn())
}

fn expected(n: usize) -> u128 {
    oeis::known_total(n).expect("the rating's boards are in A000170")
}

/// A unit counted wrong fails the rating.
fn wrong(WrongCount { expected, counted }: WrongCount) -> anyhow::Error {
    Mismatch(format!(
        "a rating unit counted {counted} solutions where A000170 has {expected}"
    ))
    .into()
}

fn summarize(
    machine: Machine,
    simd: Paths,
    workload: Workload,
    points: Vec<Point>,
    elapsed_s: f64,
) -> Rating {
    let single = points.iter().find(|p| p.threads == 1).map(|p| p.rating);
    let most = points
        .iter()
        .filter(|p| p.threads > 1)
        .max_by_key(|p| p.threads);
    let scaling = single.zip(most).map(|(s, m)| m.rating / s);
    Rating {
        rating_version: RATING_VERSION,
        program_version: env!("CARGO_PKG_VERSION").to_string(),
        workload,
        simd,
        machine,
        single,
        multi: most.map(|p| p.rating),
        multi_threads: most.map(|p| p.threads),
        scaling,
        efficiency: scaling.zip(most).map(|(s, m)| s / m.threads as f64),
        noisy: points
            .iter()
            .any(|p| !p.settled || p.drift.abs() > DRIFT_WARNING),
        points,
        elapsed_s,
    }
}

fn write_text(out: &mut impl Write, r: &Rating) -> io::Result<()> {
    let m = &r.machine;
    writeln!(out, "nqueens rating {}", r.rating_version)?;
    writeln!(
        out,
        "  machine      {}, {} physical / {} logical cores, {} memory, {}",
        m.cpu_model,
        m.physical_cores,
        m.logical_cores,
        m.memory_bytes.map_or("unknown".to_string(), nqueens::bytes),
        m.os
    )?;
    writeln!(
        out,
        "  program      {} (git {})",
        r.program_version, m.git_revision
    )?;
    writeln!(
        out,
        "  units        join Q({}) on {}, backtracking Q({}) on {} (full symmetry, depth {})",
        r.workload.join_n,
        r.simd.join,
        r.workload.backtracking_n,
        r.simd.backtracking,
        r.workload.backtracking_depth
    )?;
    writeln!(out)?;
    writeln!(
        out,
        "  {:>7}  {:>10}  {:>10}  {:>13}  {:>7}  {:>7}  {:>6}",
        "threads", "rating", "join u/s", "backtrack u/s", "spread", "drift", "passes"
    )?;
    for p in &r.points {
        writeln!(
            out,
            "  {:>7}  {:>10.2}  {:>10.2}  {:>13.2}  {:>6.2}%  {:>+6.1}%  {:>6}",
            p.threads,
            p.rating,
            p.join,
            p.backtracking,
            100.0 * p.spread,
            100.0 * p.drift,
            p.passes
        )?;
    }
    writeln!(out)?;
    if let Some(single) = r.single {
        writeln!(out, "  single-thread rating  {single:.2}")?;
    }
    if let (Some(multi), Some(threads)) = (r.multi, r.multi_threads) {
        writeln!(
            out,
            "  multi-thread rating   {multi:.2} on {threads} threads"
        )?;
    }
    if let (Some(scaling), Some(efficiency)) = (r.scaling, r.efficiency) {
        writeln!(
            out,
            "  scaling               {scaling:.2}x, {:.1}% per thread",
            100.0 * efficiency
        )?;
    }
    writeln!(
        out,
        "  (units per second, all counts checked against A000170; {:.0} s)",
        r.elapsed_s
    )
}

/// `--compare`: saved ratings side by side, ratios to the first.
fn compare(files: &[PathBuf]) -> anyhow::Result<()> {
    let flag = "--compare <FILE>...";
    let mut ratings = Vec::new();
    for file in files {
        let bytes = nqueens::files::read_regular(file, MAX_RATING_BYTES, "a saved rating")
            .map_err(|e| bad(file, flag, format!("cannot be read: {e}")))?;
        let rating: Rating = serde_json::from_slice(&bytes)
            .map_err(|e| bad(file, flag, format!("is not a saved rating: {e}")))?;
        rating
            .check()
            .map_err(|why| bad(file, flag, format!("is not a saved rating: {why}")))?;
        ratings.push((file, rating));
    }
    let (first_file, first) = &ratings[0];
    for (file, rating) in &ratings[1..] {
        if rating.rating_version != first.rating_version {
            return Err(bad(
                file,
                flag,
                format!(
                    "holds rating version {}, {} holds version {}: ratings of different \
                     versions do not compare",
                    rating.rating_version,
                    first_file.display(),
                    first.rating_version
                ),
            ));
        }
        if rating.workload != first.workload {
            return Err(bad(
                file,
                flag,
                format!(
                    "was rated on another workload than {} ({} was set?)",
                    first_file.display(),
                    WINDOW_VAR
                ),
            ));
        }
    }
    let mut out = io::stdout().lock();
    writeln!(out, "nqueens rating {}", first.rating_version)?;
    writeln!(
        out,
        "{:<24}  {:<32}  {:>7}  {:>9}  {:>9}  {:>8}  {:>7}  {:>7}",
        "file", "CPU", "simd", "single", "multi", "scaling", "single/", "multi/"
    )?;
    let ratio = |a: Option<f64>, b: Option<f64>| {
        a.zip(b)
            .map_or("-".to_string(), |(a, b)| format!("{:.2}", a / b))
    };
    let value = |v: Option<f64>| v.map_or("-".to_string(), |v| format!("{v:.2}"));
    for (file, r) in &ratings {
        let multi = match (r.multi, r.multi_threads) {
            (Some(m), Some(t)) => format!("{m:.2}/{t}"),
            _ => "-".to_string(),
        };
        let cpu: String = printable(&r.machine.cpu_model).chars().take(32).collect();
        writeln!(
            out,
            "{:<24}  {:<32}  {:>7}  {:>9}  {:>9}  {:>8}  {:>7}  {:>7}",
            printable(&file.display().to_string()),
            cpu,
            r.simd.join.to_string(),
            value(r.single),
            multi,
            r.scaling.map_or("-".to_string(), |s| format!("{s:.2}x")),
            ratio(r.single, first.single),
            ratio(r.multi, first.multi),
        )?;
    }
    writeln!(
        out,
        "(single/ and multi/: ratios to {}; multi is rating/threads)",
        printable(&first_file.display().to_string())
    )?;
    Ok(())
}

fn bad(file: &std::path::Path, flag: &'static str, rule: String) -> anyhow::Error {
    UsageError {
        value: file.display().to_string(),
        flag,
        rule,
    }
    .into()
}

fn join_list(counts: &[usize]) -> String {
    counts
        .iter()
        .map(usize::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}
