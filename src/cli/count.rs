//! `nqueens count N`: one count, reported as text or JSON.

use std::io::{self, Write};

use nqueens::engine::EngineId;
use nqueens::{Algorithm, Error, Options, Symmetry};

use super::args::{reject_parallel_only, reject_serial, CountArgs};
use super::report::{write_report, Report};
use super::{estimate, progress, signals, thread_pool, UsageError};

pub fn run(args: CountArgs) -> anyhow::Result<()> {
    let options = options(&args)?;
    if args.is_long_run() {
        return super::longrun::count(&args, options);
    }
    let pool = thread_pool(args.threads)?;
    let bar = progress::CountBar::new();
    announce(args.n, &options, pool.current_num_threads(), 1.0, &bar)?;
    let shown = bar.handle();
    signals::on_interrupt(move || shown.finish_and_clear());
    let result = pool.install(|| nqueens::count_with_progress(args.n, &options, &|p| bar.show(p)));
    bar.finish();
    let count = result.map_err(usage_error)?;
    print_report(&Report::new(count, args.unique), args.json)
}

/// The counts that say, before they start, how long they will take.
pub const ANNOUNCE_AFTER_S: f64 = 60.0;

/// Prints the estimate of a count that should take more than
/// [`ANNOUNCE_AFTER_S`] to stderr (a terminal or not: an hour-long count
/// must not look like a hung one), and hands it to the progress bar.
/// `share` is the part of the whole count still to do (a shard, a resumed
/// journal).
pub fn announce(
    n: usize,
    options: &Options,
    threads: usize,
    share: f64,
    bar: &progress::CountBar,
) -> anyhow::Result<()> {
    let options = Options {
        kernel: options.kernel.or(Some(nqueens::Kernel::fastest())),
        ..*options
    };
    let Some(estimate) =
        estimate::if_longer_than(ANNOUNCE_AFTER_S / share.max(1e-9), n, &options, threads)?
    else {
        return Ok(());
    };
    let seconds = estimate.estimated_s * share;
    let what = if share < 1.0 {
        "the rest of this count"
    } else {
        "this count"
    };
    eprintln!(
        "estimate: {what} (n = {n}, {}) should take about {} on {} thread(s), between {} and {}",
        estimate.size,
        estimate::duration(seconds),
        estimate.threads,
        estimate::duration(estimate.estimated_low_s * share),
        estimate::duration(estimate.estimated_high_s * share),
    );
    bar.set_estimate(seconds);
    Ok(())
}

/// Prints a count's report as text or as one line of JSON.
pub fn print_report(report: &Report, json: bool) -> anyhow::Result<()> {
    let mut out = io::stdout().lock();
    if json {
        serde_json::to_writer(&mut out, report)?;
        writeln!(out)?;
    } else {
        write_report(&mut out, report)?;
    }
    out.flush()?;
    Ok(())
}

/// The algorithm a count runs: the one asked for; without --algo, the
/// backtracking engine when a flag only it takes is given, a journal's
/// engine when one is resumed, else the faster engine for n on this CPU.
pub fn algorithm(args: &CountArgs) -> Algorithm {
    if let Some(algorithm) = args.algo {
        return algorithm;
    }
    if args.depth.is_some() || args.kernel.is_some() || args.symmetry.is_some() {
        return Algorithm::Parallel;
    }
    let journal = args
        .checkpoint
        .as_deref()
        .and_then(|path| nqueens::exec::journal::read(path).ok());
    match journal.map(|contents| contents.header.fingerprint.engine) {
        Some(EngineId::Join) => Algorithm::Join,
        Some(EngineId::Backtrack) => Algorithm::Parallel,
        None if Algorithm::fastest_for(args.n) == Algorithm::Join && join_fits(args) => {
            Algorithm::Join
        }
        None => Algorithm::Parallel,
    }
}

/// Whether the join's plan for this count fits in the memory available
/// (the automatic choice falls back to backtracking, saying why, when it
/// does not).
fn join_fits(args: &CountArgs) -> bool {
    let threads = args.threads.unwrap_or_else(num_cpus::get);
    let limit = args
        .max_memory
        .or_else(nqueens::available_memory)
        .unwrap_or(u64::MAX);
    match nqueens::Join::plan(args.n, threads) {
        Ok(plan) if plan.total() <= limit => true,
        Ok(plan) => {
            eprintln!(
                "note: the join for n = {} would need {} of memory, more than the {} available; \
                 counting by backtracking instead",
                args.n,
                nqueens::bytes(plan.total()),
                nqueens::bytes(limit)
            );
            false
        }
        Err(_) => false,
    }
}

/// Turns the flags into library options, rejecting the ones that do not
/// apply before anything runs.
fn options(args: &CountArgs) -> Result<Options, UsageError> {
    let algo = algorithm(args);
    let parallel_only = [
        ("--depth <K>", args.depth.map(|k| k.to_string())),
        ("--symmetry <S>", args.symmetry.map(|s| s.to_string())),
        ("--kernel <KERNEL>", args.kernel.map(|k| k.to_string())),
    ];
    reject_parallel_only(algo, parallel_only)?;
    let pooled_only = [
        ("--threads <T>", args.threads.map(|t| t.to_string())),
        ("--unique", args.unique.then(|| "true".to_string())),
        (
            "--checkpoint <FILE>",
            args.checkpoint.as_ref().map(|p| p.display().to_string()),
        ),
        ("--shard <I/M>", args.shard.map(|(i, m)| format!("{i}/{m}"))),
        ("--mpi", args.mpi.then(|| "true".to_string())),
    ];
    reject_serial(algo, pooled_only)?;
    if let (Some(bytes), false) = (args.max_memory, algo == Algorithm::Join) {
        return Err(UsageError {
            value: bytes.to_string(),
            flag: "--max-memory <SIZE>",
            rule: format!("applies only to --algo join, not {algo}"),
        });
    }
    if let (true, Some((i, m))) = (args.unique, args.shard) {
        return Err(UsageError {
            value: format!("{i}/{m}"),
            flag: "--shard <I/M>",
            rule: "counts a part of the total: ask `nqueens merge --unique` for the unique \
                   solutions, not --unique here"
                .to_string(),
        });
    }
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
        algorithm: algo,
        symmetry: args.symmetry.unwrap_or_default(),
        depth: args.depth,
        kernel: args.kernel,
        max_memory: args.max_memory,
    })
}

/// A plan too large for memory is the `--depth` flag's fault (the automatic
/// depth always fits): a usage error naming the largest depth that fits.
/// Other errors pass through.
pub fn usage_error(err: Error) -> anyhow::Error {
    match err {
        Error::PlanTooLarge {
            n,
            depth,
            largest,
            max_subproblems,
        } => UsageError {
            value: depth.to_string(),
            flag: "--depth <K>",
            rule: format!(
                "the plan for n = {n} at this depth would hold more than {max_subproblems} \
                 subproblems (1 GiB); the largest depth that fits is {largest}"
            ),
        }
        .into(),
        Error::JoinMemory { n, needed, limit } => UsageError {
            value: nqueens::bytes(limit),
            flag: "--max-memory <SIZE>",
            rule: format!(
                "is less than the join for n = {n} needs: {} (quarter table, items, and each \
                 thread's half lists); allow more, use fewer --threads, or --algo parallel",
                nqueens::bytes(needed)
            ),
        }
        .into(),
        Error::JoinTooLarge { .. } => UsageError {
            value: "join".to_string(),
            flag: "--algo <A>",
            rule: err.to_string(),
        }
        .into(),
        _ => err.into(),
    }
}
