//! `count`'s flags turned, once, into the job they imply: the algorithm
//! (the library's [`choose`](nqueens::choose), after a resumed journal's
//! engine and the flags only the backtracker takes), the options every
//! later step counts with, and the thread count. Everything after this
//! asks the job what will run; nothing decides it again.

use nqueens::engine::backtrack::plan::max_subproblems;
use nqueens::engine::join::layout_seconds;
use nqueens::exec::journal;
use nqueens::files::same_file;
use nqueens::{Algorithm, Options, Plan, Symmetry};

use super::args::{reject_parallel_only, reject_serial, CountArgs};
use super::errors::{journal_error, usage_error};
use super::progress::CountBar;
use super::report::duration;
use super::{check_destination, UsageError};

/// The threads per shard the automatic depth of a sharded count plans for:
/// every shard gets at least 64 work items for each of them.
pub const SHARD_THREADS: usize = 16;

/// What a count will run.
pub struct Job {
    /// The board size.
    pub n: usize,
    /// The options, with a concrete algorithm (never `auto`); for a resumed
    /// journal, its depth and symmetry.
    pub options: Options,
    /// The threads of the pool the count runs on.
    pub threads: usize,
}

impl Job {
    /// Resolves `count`'s flags, refusing the ones that do not apply
    /// before anything runs.
    ///
    /// # Errors
    /// A [`UsageError`] naming the flag; a journal that cannot be read.
    /// `bar` is told when the plan will take seconds.
    pub fn resolve(args: &CountArgs, bar: Option<&CountBar>) -> anyhow::Result<Job> {
        check_files(args)?;
        let threads = args.threads.unwrap_or_else(num_cpus::get);
        // A journal resumed decides the plan: its engine, depth and symmetry
        // (a file a crash left before its header was whole is a new one).
        let planned = match args.checkpoint.as_deref() {
            Some(path) => journal::header_of(path, max_subproblems(args.max_memory))
                .map_err(|e| journal_error(e, path))?
                .map(|header| header.fingerprint),
            None => None,
        };
        let backtrack_only = args.depth.is_some() || args.symmetry.is_some();
        // `--algo auto` takes what the default takes.
        let algo = args.algo.filter(|&a| a != Algorithm::Auto);
        let asked = match (algo, planned) {
            (Some(algorithm), _) => algorithm,
            (None, Some(planned)) => Algorithm::of_engine(planned.engine),
            (None, None) if backtrack_only => Algorithm::Parallel,
            (None, None) => Algorithm::Auto,
        };
        check_flags(args, asked)?;
        let mut options = Options {
            algorithm: asked,
            symmetry: args
                .symmetry
                .or(planned.map(|p| p.symmetry))
                .unwrap_or_default(),
            depth: args.depth,
            simd: args.simd.path(),
            max_memory: args.max_memory,
        };
        let join_may_run = matches!(asked, Algorithm::Auto | Algorithm::Join);
        // Laid out on the global pool, before the count's own.
        let layout_threads = rayon::current_num_threads();
        if let (true, Some(bar), Some(seconds)) =
            (join_may_run, bar, layout_seconds(args.n, layout_threads))
        {
            bar.planning(
                args.n,
                &format!(
                    "the join sizes its quarter table and costs its items, about {} on \
                     {layout_threads} thread(s)",
                    duration(seconds)
                ),
            );
        }
        // A join asked for that cannot run is refused here, before an
        // estimate times a sample of it (54 s at n = 22 before the count
        // said no).
        let choice = nqueens::choose(args.n, &options, threads).map_err(usage_error)?;
        if let Some(memory) = choice.join_memory {
            eprintln!(
                "note: the join for n = {} would need {} of memory, more than the {} it may \
                 take; counting by backtracking instead",
                args.n,
                nqueens::bytes(memory.needed_bytes),
                nqueens::bytes(memory.limit_bytes)
            );
        }
        options.algorithm = choice.algorithm;
        check_simd(&options)?;
        if options.algorithm == Algorithm::Parallel {
            options.depth = options.depth.or(planned.map(|p| p.depth));
        }
        Ok(Job {
            n: args.n,
            options,
            threads,
        })
    }

    /// Fixes the backtracker's depth when the flags and the journal leave
    /// it open, for a count whose items must not depend on this machine:
    /// shards, which run on machines of any size, plan for
    /// [`SHARD_THREADS`] threads per shard, the same everywhere; a journal
    /// or an MPI run plans for `threads`, and keeps that plan on resuming.
    pub fn settle_depth(&mut self, shards: Option<usize>, threads: usize) -> anyhow::Result<()> {
        let threads = match shards {
            Some(shards) => SHARD_THREADS.saturating_mul(shards),
            None => threads,
        };
        if self.options.depth.is_none() && self.options.algorithm == Algorithm::Parallel {
            let limit = self.options.max_subproblems();
            self.options.depth = Some(Plan::auto_depth(
                self.n,
                self.options.symmetry,
                threads,
                limit,
            )?);
        }
        Ok(())
    }
}

/// Refuses a `--simd` path the engine that will count lacks here, before
/// anything is built.
pub fn check_simd(options: &Options) -> anyhow::Result<()> {
    match (options.simd, options.algorithm.engine()) {
        (Some(simd), Some(engine)) => engine.check(simd).map_err(usage_error),
        _ => Ok(()),
    }
}

/// Refuses, before any work, a destination the count could not write
/// when it ends, and a result that would overwrite its own journal.
fn check_files(args: &CountArgs) -> Result<(), UsageError> {
    if let Some(journal) = &args.checkpoint {
        check_destination(journal, "--checkpoint <FILE>")?;
    }
    if let Some(out) = &args.out {
        check_destination(out, "--out <FILE>")?;
        if let Some(journal) = args.checkpoint.as_deref().filter(|j| same_file(j, out)) {
            return Err(UsageError {
                value: out.display().to_string(),
                flag: "--out <FILE>",
                rule: format!(
                    "is the --checkpoint journal {} (or a link to it): the shard's result \
                     would overwrite the journal; write it to another file",
                    journal.display()
                ),
            });
        }
    }
    Ok(())
}

/// Refuses the flags that do not apply to `algorithm` (as asked: `auto`
/// takes what the engines it may choose take).
fn check_flags(args: &CountArgs, algorithm: Algorithm) -> Result<(), UsageError> {
    let parallel_only = [
        ("--depth <K>", args.depth.map(|k| k.to_string())),
        ("--symmetry <S>", args.symmetry.map(|s| s.to_string())),
    ];
    reject_parallel_only(algorithm, parallel_only)?;
    let pooled_only = [
        ("--threads <T>", args.threads.map(|t| t.to_string())),
        ("--max-memory <SIZE>", args.max_memory.map(nqueens::bytes)),
        ("--unique", args.unique.then(|| "true".to_string())),
        (
            "--checkpoint <FILE>",
            args.checkpoint.as_ref().map(|p| p.display().to_string()),
        ),
        ("--shard <I/M>", args.shard.map(|(i, m)| format!("{i}/{m}"))),
        ("--mpi", args.mpi.then(|| "true".to_string())),
        ("--simd <PATH>", args.simd.path().map(|s| s.to_string())),
    ];
    reject_serial(algorithm, pooled_only)?;
    if let (true, Some((i, m))) = (args.unique, args.shard) {
        return Err(UsageError {
            value: format!("{i}/{m}"),
            flag: "--shard <I/M>",
            rule: "counts a part of the total: ask `nqueens merge --unique` for the unique \
                   solutions, not --unique here"
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
    Ok(())
}
