//! The `nqueens` command: parses the arguments, runs the library, prints.
//!
//! Exit status: 0 on success (also when a reader closes the pipe early),
//! 1 when a count fails, `verify` finds a mismatch or `bench` a wrong count,
//! 2 on a usage error.

use std::io::{self, BufWriter, Write};
use std::process::ExitCode;

use anyhow::Context;
use clap::{Parser, Subcommand, ValueEnum};
use serde::Serialize;

use nqueens::{oeis, Algorithm, Count, Kernel, Options, Symmetry, MAX_N};

mod cli {
    pub mod bench;
    pub mod machine;
}

/// The most threads `--threads` accepts.
const MAX_THREADS: usize = 1024;

#[derive(Parser)]
#[command(
    name = "nqueens",
    version,
    about = "Count and list the solutions of the n-queens puzzle, exactly and fast"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Count the solutions of the n×n board.
    Count(CountArgs),
    /// List the solutions of the n×n board, in lexicographic order.
    Solve(SolveArgs),
    /// Count n = 1..=MAX and check each total against OEIS A000170.
    Verify(VerifyArgs),
    /// Time a sweep over boards, algorithms, threads and depths; write CSV,
    /// JSON, SVG plots and a README into a results folder.
    Bench(cli::bench::BenchArgs),
}

#[derive(clap::Args)]
struct CountArgs {
    /// Board size, 1..=32.
    #[arg(value_parser = parse_n, allow_negative_numbers = true)]
    n: usize,
    /// Counting algorithm.
    #[arg(long, value_name = "A", value_enum, default_value_t)]
    algo: Algorithm,
    /// Symmetry used by the parallel algorithm [default: full].
    #[arg(long, value_name = "S", value_enum)]
    symmetry: Option<Symmetry>,
    /// Worker threads for the parallel algorithm [default: all logical cores].
    #[arg(long, value_name = "T", value_parser = parse_threads, allow_negative_numbers = true)]
    threads: Option<usize>,
    /// Rows placed in each subproblem of the parallel algorithm, 1..=N
    /// [default: the smallest depth with 64 subproblems per thread].
    #[arg(long, value_name = "K", value_parser = parse_depth, allow_negative_numbers = true)]
    depth: Option<usize>,
    /// Kernel of the parallel algorithm: scalar (any CPU) or lanes (AVX-512)
    /// [default: the fastest this CPU runs].
    #[arg(long, value_name = "KERNEL", value_enum)]
    kernel: Option<Kernel>,
    /// Also report the unique solutions (A002562) and their symmetry classes
    /// (needs --symmetry full, the default).
    #[arg(long)]
    unique: bool,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

#[derive(clap::Args)]
struct SolveArgs {
    /// Board size, 1..=32.
    #[arg(value_parser = parse_n, allow_negative_numbers = true)]
    n: usize,
    /// Stop after this many solutions.
    #[arg(long, value_name = "M", value_parser = parse_positive_u64, allow_negative_numbers = true)]
    limit: Option<u64>,
    /// board: rows of '.' and 'Q', a blank line between boards; columns: the
    /// queen's column in each row, space-separated, one solution per line;
    /// json: one JSON array of columns per line.
    #[arg(long, value_name = "F", value_enum, default_value_t = Format::Board)]
    format: Format,
}

#[derive(Clone, Copy, ValueEnum)]
enum Format {
    Board,
    Columns,
    Json,
}

#[derive(clap::Args)]
struct VerifyArgs {
    /// Largest board size to count.
    #[arg(long, value_name = "N", value_parser = parse_n, default_value = "14", allow_negative_numbers = true)]
    max: usize,
    /// Counting algorithm.
    #[arg(long, value_name = "A", value_enum, default_value_t)]
    algo: Algorithm,
    /// Worker threads for the parallel algorithm [default: all logical cores].
    #[arg(long, value_name = "T", value_parser = parse_threads, allow_negative_numbers = true)]
    threads: Option<usize>,
    /// Also check the unique solutions against OEIS A002562.
    #[arg(long)]
    unique: bool,
}

/// A mistake in the command line: printed once, exit status 2.
#[derive(Debug, thiserror::Error)]
#[error("invalid value '{value}' for '{flag}': {rule}")]
struct UsageError {
    value: String,
    flag: &'static str,
    rule: String,
}

/// A count that did not match OEIS: exit status 1.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
struct Mismatch(String);

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) if is_broken_pipe(&err) => ExitCode::SUCCESS,
        Err(err) => {
            let status = if err.is::<UsageError>() { 2 } else { 1 };
            eprintln!("error: {err:#}");
            if status == 2 {
                eprintln!("\nFor more information, try '--help'.");
            }
            ExitCode::from(status)
        }
    }
}

fn run(cli: Cli) -> anyhow::Result<()> {
    match cli.command {
        Command::Count(args) => count(args),
        Command::Solve(args) => solve(args),
        Command::Verify(args) => verify(args),
        Command::Bench(args) => cli::bench::run(args),
    }
}

fn count(args: CountArgs) -> anyhow::Result<()> {
    let options = count_options(&args)?;
    let pool = thread_pool(args.threads)?;
    let bar = progress_bar();
    let progress = |done: usize, all: usize| {
        bar.set_length(all as u64);
        bar.set_position(done as u64);
    };
    let result = pool.install(|| nqueens::count_with_progress(args.n, &options, &progress));
    bar.finish_and_clear();
    let report = Report::new(result?, args.unique);
    let mut out = io::stdout().lock();
    if args.json {
        serde_json::to_writer(&mut out, &report)?;
        writeln!(out)?;
    } else {
        write_report(&mut out, &report)?;
    }
    out.flush()?;
    Ok(())
}

/// Turns the flags into library options, rejecting the ones that do not
/// apply before anything runs.
fn count_options(args: &CountArgs) -> Result<Options, UsageError> {
    let parallel_only = [
        ("--threads <T>", args.threads.map(|t| t.to_string())),
        ("--depth <K>", args.depth.map(|k| k.to_string())),
        ("--symmetry <S>", args.symmetry.map(|s| s.to_string())),
        ("--kernel <KERNEL>", args.kernel.map(|k| k.to_string())),
        ("--unique", args.unique.then(|| "true".to_string())),
    ];
    reject_parallel_only(args.algo, parallel_only)?;
    if let Some(kernel) = args.kernel.filter(|k| !k.available()) {
        return Err(UsageError {
            value: kernel.to_string(),
            flag: "--kernel <KERNEL>",
            rule: "needs AVX-512 F and CD, which this CPU lacks; scalar runs on any CPU"
                .to_string(),
        });
    }
    if let Some(symmetry) = args
        .symmetry
        .filter(|&s| args.unique && s != Symmetry::Full)
    {
        return Err(UsageError {
            value: symmetry.to_string(),
            flag: "--symmetry <S>",
            rule: "must be full with --unique".to_string(),
        });
    }
    if let Some(depth) = args.depth {
        if !(1..=args.n).contains(&depth) {
            return Err(UsageError {
                value: depth.to_string(),
                flag: "--depth <K>",
                rule: format!("must be in 1..={n} for n = {n}", n = args.n),
            });
        }
    }
    Ok(Options {
        algorithm: args.algo,
        symmetry: args.symmetry.unwrap_or_default(),
        depth: args.depth,
        kernel: args.kernel,
    })
}

/// Subproblems counted so far, with an ETA, on stderr; hidden when stderr is
/// not a terminal, and drawn only after a second so short counts stay quiet.
fn progress_bar() -> indicatif::ProgressBar {
    use std::io::IsTerminal;
    if !io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let bar =
        indicatif::ProgressBar::with_draw_target(None, indicatif::ProgressDrawTarget::hidden());
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{elapsed_precise} [{bar:30}] {pos}/{len} subproblems, ETA {eta}",
        )
        .expect("a valid template")
        .progress_chars("=> "),
    );
    let shown = bar.clone();
    std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_secs(1));
        if !shown.is_finished() {
            shown.set_draw_target(indicatif::ProgressDrawTarget::stderr());
            shown.enable_steady_tick(std::time::Duration::from_millis(250));
        }
    });
    bar
}

/// Rejects the first flag given (a `Some` value) that only the parallel
/// algorithm uses, when another algorithm is chosen: better than ignoring it.
fn reject_parallel_only<const N: usize>(
    algorithm: Algorithm,
    flags: [(&'static str, Option<String>); N],
) -> Result<(), UsageError> {
    if algorithm == Algorithm::Parallel {
        return Ok(());
    }
    match flags
        .into_iter()
        .find_map(|(flag, value)| value.map(|v| (flag, v)))
    {
        Some((flag, value)) => Err(UsageError {
            value,
            flag,
            rule: format!("applies only to --algo parallel, not {algorithm}"),
        }),
        None => Ok(()),
    }
}

fn thread_pool(threads: Option<usize>) -> anyhow::Result<rayon::ThreadPool> {
    let threads = threads.unwrap_or_else(num_cpus::get);
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .with_context(|| format!("could not start {threads} worker threads"))
}

/// What `count` prints: the library's result and its checks against OEIS.
#[derive(Serialize)]
struct Report {
    #[serde(flatten)]
    count: Count,
    /// The A000170 value, where OEIS lists one.
    oeis_total: Option<u64>,
    /// Whether `total` equals it (null where OEIS lists no value).
    matches_oeis: Option<bool>,
    /// The A002562 value, where OEIS lists one and the count found `unique`.
    oeis_unique: Option<u64>,
    /// Whether `unique` equals it.
    matches_oeis_unique: Option<bool>,
    /// Whether the text report shows the unique count.
    #[serde(skip)]
    show_unique: bool,
}

impl Report {
    fn new(count: Count, show_unique: bool) -> Report {
        let oeis_total = oeis::known_total(count.n);
        let oeis_unique = count.unique.and(oeis::known_unique(count.n));
        Report {
            matches_oeis: oeis_total.map(|known| known == count.total),
            oeis_total,
            matches_oeis_unique: oeis_unique.zip(count.unique).map(|(k, u)| k == u),
            oeis_unique,
            count,
            show_unique,
        }
    }
}

fn write_report(out: &mut impl Write, report: &Report) -> io::Result<()> {
    let c = &report.count;
    writeln!(out, "{} solutions for n = {}", c.total, c.n)?;
    if let (true, Some(unique), Some(classes)) = (report.show_unique, c.unique, c.classes) {
        writeln!(out, "{unique} unique up to rotation and reflection")?;
        writeln!(out, "  orbits of 8  {:>12}   (no symmetry)", classes.orbit8)?;
        writeln!(
            out,
            "  orbits of 4  {:>12}   (half-turn symmetric)",
            classes.orbit4
        )?;
        writeln!(
            out,
            "  orbits of 2  {:>12}   (quarter-turn symmetric)",
            classes.orbit2
        )?;
        if classes.orbit1 > 0 {
            writeln!(
                out,
                "  orbits of 1  {:>12}   (the 1x1 board)",
                classes.orbit1
            )?;
        }
    }
    writeln!(out, "  algorithm    {}", c.algorithm)?;
    writeln!(out, "  symmetry     {}", c.symmetry)?;
    writeln!(out, "  threads      {}", c.threads)?;
    writeln!(out, "  split depth  {}", c.depth)?;
    if let Some(kernel) = c.kernel {
        writeln!(out, "  kernel       {kernel}")?;
    }
    writeln!(out, "  subproblems  {}", c.subproblems)?;
    writeln!(out, "  elapsed      {:.3} s", c.elapsed_s)?;
    write_check(out, "A000170", report.oeis_total, report.matches_oeis)?;
    if report.show_unique {
        write_check(
            out,
            "A002562",
            report.oeis_unique,
            report.matches_oeis_unique,
        )?;
    }
    Ok(())
}

fn write_check(
    out: &mut impl Write,
    sequence: &str,
    known: Option<u64>,
    matches: Option<bool>,
) -> io::Result<()> {
    match (known, matches) {
        (Some(_), Some(true)) => writeln!(out, "  {sequence}      matches"),
        (Some(known), _) => writeln!(out, "  {sequence}      MISMATCH: OEIS lists {known}"),
        (None, _) => writeln!(out, "  {sequence}      no known value"),
    }
}

fn solve(args: SolveArgs) -> anyhow::Result<()> {
    let solutions = nqueens::solutions(args.n)?;
    let limit = args.limit.unwrap_or(u64::MAX);
    let mut out = BufWriter::new(io::stdout().lock());
    for (i, solution) in (0..limit).zip(solutions) {
        match args.format {
            Format::Board => {
                if i > 0 {
                    writeln!(out)?;
                }
                writeln!(out, "{}", solution.board())?;
            }
            Format::Columns => writeln!(out, "{solution}")?,
            Format::Json => {
                serde_json::to_writer(&mut out, solution.columns())?;
                writeln!(out)?;
            }
        }
    }
    out.flush()?;
    Ok(())
}

fn verify(args: VerifyArgs) -> anyhow::Result<()> {
    let parallel_only = [
        ("--threads <T>", args.threads.map(|t| t.to_string())),
        ("--unique", args.unique.then(|| "true".to_string())),
    ];
    reject_parallel_only(args.algo, parallel_only)?;
    let pool = thread_pool(args.threads)?;
    let options = Options {
        algorithm: args.algo,
        symmetry: Symmetry::Full,
        depth: None,
        kernel: None,
    };
    let mut out = io::stdout().lock();
    writeln!(out, "algorithm: {}", args.algo)?;
    write!(
        out,
        "{:>3}  {:>20}  {:>20}  {:>4}",
        "n", "total", "A000170", "ok"
    )?;
    if args.unique {
        write!(out, "  {:>18}  {:>18}  {:>4}", "unique", "A002562", "ok")?;
    }
    writeln!(out, "  {:>10}", "time (s)")?;
    let mut mismatches = Vec::new();
    for n in 1..=args.max {
        let result = pool.install(|| nqueens::count(n, &options))?;
        write!(out, "{n:>3}")?;
        let mut ok = write_verified(&mut out, 20, result.total, oeis::known_total(n))?;
        if args.unique {
            let unique = result
                .unique
                .expect("full symmetry counts unique solutions");
            ok &= write_verified(&mut out, 18, unique, oeis::known_unique(n))?;
        }
        writeln!(out, "  {:>10.3}", result.elapsed_s)?;
        out.flush()?;
        if !ok {
            mismatches.push(n);
        }
    }
    let sequences = if args.unique {
        "A000170 and A002562"
    } else {
        "A000170"
    };
    if mismatches.is_empty() {
        writeln!(out, "all counts for n = 1..={} match {sequences}", args.max)?;
        Ok(())
    } else {
        Err(Mismatch(format!(
            "counts differ from {sequences} for n = {mismatches:?}"
        ))
        .into())
    }
}

/// Writes `computed`, the known value and whether they agree, as columns of
/// a `verify` row; returns false on a mismatch.
fn write_verified(
    out: &mut impl Write,
    width: usize,
    computed: u64,
    known: Option<u64>,
) -> io::Result<bool> {
    let known_text = known.map_or("-".to_string(), |k| k.to_string());
    let verdict = match known {
        Some(k) if k == computed => "ok",
        Some(_) => "FAIL",
        None => "-",
    };
    write!(
        out,
        "  {computed:>width$}  {known_text:>width$}  {verdict:>4}"
    )?;
    Ok(verdict != "FAIL")
}

fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        let kind = match cause.downcast_ref::<io::Error>() {
            Some(io) => Some(io.kind()),
            None => cause
                .downcast_ref::<serde_json::Error>()
                .and_then(serde_json::Error::io_error_kind),
        };
        kind == Some(io::ErrorKind::BrokenPipe)
    })
}

fn parse_n(s: &str) -> Result<usize, String> {
    parse_in_range(s, 1, MAX_N as u64).map(|v| v as usize)
}

fn parse_threads(s: &str) -> Result<usize, String> {
    parse_in_range(s, 1, MAX_THREADS as u64).map(|v| v as usize)
}

/// Any count of rows; [`count_options`] checks it against the board size.
fn parse_depth(s: &str) -> Result<usize, String> {
    s.trim()
        .parse::<usize>()
        .map_err(|_| "must be an integer in 1..=N, the board size".to_string())
}

fn parse_positive_u64(s: &str) -> Result<u64, String> {
    parse_in_range(s, 1, u64::MAX)
}

/// An integer in `min..=max`, with a message naming the range otherwise.
fn parse_in_range(s: &str, min: u64, max: u64) -> Result<u64, String> {
    let rule = || {
        if max == u64::MAX {
            format!("must be an integer, at least {min}")
        } else {
            format!("must be an integer in {min}..={max}")
        }
    };
    s.trim()
        .parse::<u64>()
        .ok()
        .filter(|v| (min..=max).contains(v))
        .ok_or_else(rule)
}
