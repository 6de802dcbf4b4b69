//! Exact, fast, parallel counting of the solutions of the n-queens puzzle.
//!
//! Place n queens on an n×n board so that no two share a row, a column or a
//! diagonal: how many ways are there? The answers are OEIS
//! [A000170](https://oeis.org/A000170), and counted once per orbit under the
//! 8 symmetries of the square, [A002562](https://oeis.org/A002562); this
//! crate computes both exactly, and as fast as the hardware allows.
//!
//! ```
//! use nqueens::{count, Algorithm, Options};
//!
//! let eight = count(8, &Options::default())?; // the faster engine for n = 8
//! assert_eq!(eight.total, 92);
//! assert_eq!(eight.unique, Some(12)); // full symmetry, the default
//! assert_eq!(eight.algorithm, Algorithm::Parallel); // what `Algorithm::Auto` chose
//! assert_eq!(count(14, &Options::default())?.algorithm, Algorithm::Join);
//!
//! let by_the_book = Options { algorithm: Algorithm::Set, ..Options::default() };
//! assert_eq!(count(8, &by_the_book)?.total, 92);
//!
//! // Every solution, streamed in lexicographic order of the column vectors.
//! let first = nqueens::solutions(4)?.next().unwrap();
//! assert_eq!(first.columns(), &[1, 3, 0, 2]);
//! assert_eq!(first.board().to_string(), ".Q..\n...Q\nQ...\n..Q.");
//! # Ok::<(), nqueens::Error>(())
//! ```
//!
//! # How it is built
//!
//! The crate is a few rooms, each importing only from the ones below it:
//!
//! - [`exec`]: how work items run, over any engine: on the rayon
//!   [pool](exec::pool), recorded in a [journal](exec::journal), cut into
//!   [shards](exec::shard), over MPI, or [sampled](exec::sample) for a
//!   forecast.
//! - [`engine`]: what a work item is and how to count one, behind the small
//!   [`Engine`] trait (a fingerprint, a number of items with stable indices,
//!   a cost per item, a count of a range of items). The
//!   [backtracking engine](engine::backtrack) cuts the search into a
//!   [plan](engine::backtrack::plan) of weighted, independent subproblems
//!   (the partial placements of the first k rows, one per orbit of the
//!   board's [symmetries](engine::backtrack::symmetry)), grouped into
//!   items, and counts them with a [kernel](engine::backtrack::kernel): the
//!   scalar bitmask search or, where the CPU has AVX-512 or AVX2, the
//!   lanes, many subtrees at once. The [join](engine::join) glues half-boards from
//!   quarter-board tables and counts compatible east/west pairs bit-sliced
//!   (AVX-512 where the CPU has it); its unique count comes from Burnside's
//!   lemma. [`choose`] picks between them, for every command and for
//!   [`Options::default()`] ([`Algorithm::Auto`]).
//! - [`reduce`]: the one [`Tally`] every item returns, summed without
//!   overflow; [`problem`]: what every room shares (the board-size rule,
//!   [`Symmetry`], [`Error`]); [`engine::cpu`]: what this CPU runs.
//! - [`reference`](mod@reference): the textbook solvers, as test oracles
//!   and benchmark baselines.
//!
//! The library never prints and never builds the global thread pool: the
//! parallel engine uses the pool it is called from (wrap the call in
//! `rayon::ThreadPool::install` to choose the thread count). The `nqueens`
//! binary (its `cli` room) parses, prints, draws the progress and the plots;
//! what only it needs (clap, progress bars, plots, signals) comes with the
//! cargo feature `cli`, on by default: a library user may set
//! `default-features = false`.

#![deny(missing_docs)]

use std::fmt;
use std::time::Instant;

use serde::{Deserialize, Serialize};

pub mod board;
pub mod engine;
pub mod exec;
pub mod files;
pub mod oeis;
pub mod problem;
pub mod reduce;
pub mod reference;
mod solutions;
pub mod system;

use problem::check_board_size;
pub use problem::{bytes, Error, Symmetry, MAX_N, PROGRAM};
pub use system::{available_memory, peak_memory};

pub use board::Solution;
pub use engine::backtrack::plan::Plan;
pub use engine::cpu::Simd;
pub use engine::join::Join;
pub use engine::{Engine, EngineId, Fingerprint};
pub use exec::forecast::Forecast;
pub use exec::{Phase, Progress};
pub use reduce::{Classes, Fixed, Tally};
pub use solutions::Solutions;

pub use engine::any::AnyEngine;
use engine::backtrack::Backtrack;

/// The boards (even n, odd n) from which the join counts faster than the
/// backtracking engine: on AVX-512 (against the lanes), and on a narrower
/// path (against the scalar kernel). One thread, whole processes, 15 pairs
/// a point (`scripts/targets.py crossover`, results/2026-12-01-vm-crossover):
/// up to n = 9 both take about 2 ms and the join is 1.00-1.17× the time.
pub const JOIN_FROM: ((usize, usize), (usize, usize)) = ((10, 11), (12, 13));

/// The ways to count. The names are the CLI's `--algo` values, the bench ids
/// and the `algorithm` field of results.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "kebab-case")]
pub enum Algorithm {
    /// The faster engine for the board on this CPU, in the memory allowed:
    /// resolved by [`choose`] into [`Algorithm::Join`] or
    /// [`Algorithm::Parallel`] before anything counts.
    #[default]
    Auto,
    /// Set-based backtracking: hash sets of used columns and diagonals.
    Set,
    /// Board-scan backtracking: an n×n board, scanning column and diagonals.
    Board,
    /// Serial bitmask search, recursive (the hot kernel on the whole tree).
    Bitmask,
    /// Serial bitmask search on an explicit stack, no recursion.
    BitmaskIter,
    /// The bitmask kernel on subproblems split at depth k, on a rayon pool,
    /// with full (or mirror, or no) symmetry.
    Parallel,
    /// Half-boards joined from quarter-board tables, on a rayon pool, with
    /// full symmetry; the unique count by Burnside's lemma.
    Join,
}

impl Algorithm {
    /// Every algorithm that counts ([`Algorithm::Auto`] only chooses one),
    /// fastest last.
    pub const ALL: [Algorithm; 6] = [
        Algorithm::Set,
        Algorithm::Board,
        Algorithm::Bitmask,
        Algorithm::BitmaskIter,
        Algorithm::Parallel,
        Algorithm::Join,
    ];

    /// Whether the algorithm runs on the rayon pool (the others are serial;
    /// [`Algorithm::Auto`] chooses a pooled one).
    pub fn is_parallel(self) -> bool {
        matches!(
            self,
            Algorithm::Auto | Algorithm::Parallel | Algorithm::Join
        )
    }

    /// Its engine (`None` for the serial ones and for unresolved `auto`).
    pub fn engine(self) -> Option<EngineId> {
        match self {
            Algorithm::Parallel => Some(EngineId::Backtrack),
            Algorithm::Join => Some(EngineId::Join),
            _ => None,
        }
    }

    /// The algorithm an engine's count is reported as.
    pub fn of_engine(engine: EngineId) -> Algorithm {
        match engine {
            EngineId::Backtrack => Algorithm::Parallel,
            EngineId::Join => Algorithm::Join,
        }
    }

    /// The name used on the command line and in results, e.g. `bitmask-iter`.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Auto => "auto",
            Algorithm::Set => "set",
            Algorithm::Board => "board",
            Algorithm::Bitmask => "bitmask",
            Algorithm::BitmaskIter => "bitmask-iter",
            Algorithm::Parallel => "parallel",
            Algorithm::Join => "join",
        }
    }
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What [`choose`] decided: the algorithm that will count, and why the
/// join was passed over when it would have been faster.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Choice {
    /// The algorithm, never [`Algorithm::Auto`].
    pub algorithm: Algorithm,
    /// Set when the join would have been chosen but its plan needs more
    /// memory than the count may take: the backtracking engine counts
    /// instead.
    pub join_memory: Option<JoinMemory>,
}

/// The join's memory plan against the limit it did not fit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct JoinMemory {
    /// The bytes the join would need.
    pub needed_bytes: u64,
    /// The bytes the count may take.
    pub limit_bytes: u64,
}

/// The one place that decides what counts the n×n board with `options` on
/// `threads` threads. An algorithm asked for by name is kept, the join
/// only if its memory plan fits the limit (`options.max_memory`, else the
/// memory available now): refused before anything is built or timed. For
/// [`Algorithm::Auto`]: the backtracking engine when the options set
/// something only it takes (a depth, a symmetry other than full), on
/// boards below [`JOIN_FROM`] for the path, past the largest board the join
/// counts, and when the join's memory plan exceeds the limit
/// (`options.max_memory`, else the memory available now); the join
/// otherwise. An instruction-set path asked for (`options.simd`) that one
/// engine lacks on this CPU and the other has takes the other.
///
/// # Errors
/// [`Error::BoardSize`] unless `1 <= n <= MAX_N`; for the join asked for
/// by name, [`Error::JoinMemory`] over the limit.
pub fn choose(n: usize, options: &Options, threads: usize) -> Result<Choice, Error> {
    check_board_size(n)?;
    let chosen = |algorithm| Choice {
        algorithm,
        join_memory: None,
    };
    if options.algorithm == Algorithm::Join {
        let needed = Join::plan(n, threads)?.total();
        let limit = memory_limit(options);
        if needed > limit {
            return Err(Error::JoinMemory { n, needed, limit });
        }
    }
    if options.algorithm != Algorithm::Auto {
        return Ok(chosen(options.algorithm));
    }
    let backtrack_only = options.depth.is_some() || options.symmetry != Symmetry::Full;
    let (even, odd) = match EngineId::Join.simd(options.simd) {
        Simd::Avx512 => JOIN_FROM.0,
        _ => JOIN_FROM.1,
    };
    let join_from = if n.is_multiple_of(2) { even } else { odd };
    let lacks = |engine: EngineId| options.simd.is_some_and(|s| engine.check(s).is_err());
    let (join_lacks, backtrack_lacks) = (lacks(EngineId::Join), lacks(EngineId::Backtrack));
    if backtrack_only || (!backtrack_lacks && (join_lacks || n < join_from)) {
        return Ok(chosen(Algorithm::Parallel));
    }
    let plan = Join::plan(n, threads)?;
    let limit = memory_limit(options);
    if plan.total() > limit {
        return Ok(Choice {
            algorithm: Algorithm::Parallel,
            join_memory: Some(JoinMemory {
                needed_bytes: plan.total(),
                limit_bytes: limit,
            }),
        });
    }
    Ok(chosen(Algorithm::Join))
}

/// The most memory the join may plan for under `options`: their limit,
/// else what the machine has available now.
pub fn memory_limit(options: &Options) -> u64 {
    options
        .max_memory
        .or_else(available_memory)
        .unwrap_or(u64::MAX)
}

/// How to count.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// The algorithm.
    pub algorithm: Algorithm,
    /// The symmetry the parallel engine uses; the serial algorithms search the
    /// whole tree and ignore it.
    pub symmetry: Symmetry,
    /// The parallel engine's split depth, or `None` for the automatic choice
    /// ([`Plan::auto`]); the serial algorithms ignore it. A depth whose plan
    /// would take more than `max_memory` (1 GiB without it) is refused
    /// ([`Error::PlanTooLarge`]).
    pub depth: Option<usize>,
    /// The instruction-set path of whichever engine counts (the join's
    /// pair counter, the backtracker's kernel), or `None` for the fastest
    /// this CPU runs for it; under `auto`, a path only one engine has here
    /// takes that engine ([`choose`]). The serial algorithms ignore it.
    pub simd: Option<Simd>,
    /// The most memory the join may plan for, in bytes, or `None` for what
    /// the machine has available; also the most the parallel engine's plan
    /// may take (`None`: 1 GiB). The serial algorithms ignore it.
    pub max_memory: Option<u64>,
}

impl Options {
    /// The most subproblems the parallel engine's plan may hold under
    /// these options ([`engine::backtrack::plan::max_subproblems`]).
    pub fn max_subproblems(&self) -> usize {
        engine::backtrack::plan::max_subproblems(self.max_memory)
    }
}

/// The result of a count: the total and how it was obtained.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Count {
    /// The board size.
    pub n: usize,
    /// The number of solutions (past `u64` from n = 29).
    pub total: u128,
    /// The algorithm that counted.
    pub algorithm: Algorithm,
    /// The symmetry it used (`none` for the serial algorithms).
    pub symmetry: Symmetry,
    /// Threads in the pool it ran on (1 for the serial algorithms).
    pub threads: usize,
    /// Rows placed in each subproblem (0 for the serial algorithms: the whole
    /// tree is one subproblem); for the join, the side h of its quarters.
    pub depth: usize,
    /// How many independent subproblems were counted (for the join: its
    /// pair items, one per group of frames and row set).
    pub subproblems: usize,
    /// How many work items they were grouped into (1 for the serial
    /// algorithms).
    pub items: usize,
    /// Solutions distinct up to rotation and reflection (A002562), when the
    /// count used full symmetry.
    pub unique: Option<u128>,
    /// The unique solutions by orbit size, when the count used full symmetry.
    pub classes: Option<Classes>,
    /// The instruction-set path the engine counted on (`None` for the
    /// serial algorithms).
    pub simd: Option<Simd>,
    /// The memory the join planned for, in bytes (`None` for the others).
    pub planned_bytes: Option<u64>,
    /// The process's peak resident memory at the end of the count, in bytes,
    /// where the system tells it (Linux).
    pub peak_bytes: Option<u64>,
    /// Wall-clock time of the count, planning included, in seconds.
    pub elapsed_s: f64,
}

/// Counts the solutions on an n×n board.
///
/// The parallel algorithm runs on the current rayon pool.
///
/// # Errors
/// [`Error::BoardSize`] unless `1 <= n <= MAX_N`; [`Error::Depth`] for a
/// parallel split depth outside `1..=n`; [`Error::Overflow`] if the count does
/// not fit in a `u64`.
pub fn count(n: usize, options: &Options) -> Result<Count, Error> {
    count_with_progress(n, options, &|_| {})
}

/// [`count`], reporting progress: the parallel engine calls `progress`
/// with [`Phase::Planning`] before it plans, then with the work items
/// finished as each finishes, from its worker threads; the serial
/// algorithms call it once, at the end.
///
/// # Errors
/// As [`count`], and [`Error::PlanTooLarge`] for a split depth whose plan
/// would not fit in memory; [`Error::SimdUnavailable`] for a path the
/// engine does not run on this CPU.
pub fn count_with_progress(
    n: usize,
    options: &Options,
    progress: Progress<'_>,
) -> Result<Count, Error> {
    let start = Instant::now();
    let threads = rayon::current_num_threads();
    let algorithm = choose(n, options, threads)?.algorithm;
    let serial = |total: u64| Count {
        n,
        total: u128::from(total),
        algorithm,
        symmetry: Symmetry::None,
        threads: 1,
        depth: 0,
        subproblems: 1,
        items: 1,
        unique: None,
        classes: None,
        simd: None,
        planned_bytes: None,
        peak_bytes: None,
        elapsed_s: 0.0,
    };
    let mut result = match algorithm {
        Algorithm::Set => serial(reference::set_based::count(n)),
        Algorithm::Board => serial(reference::board_scan::count(n)),
        Algorithm::Bitmask => serial(reference::bitmask::count_recursive(n)),
        Algorithm::BitmaskIter => serial(reference::bitmask::count_iterative(n)),
        Algorithm::Auto | Algorithm::Parallel | Algorithm::Join => {
            progress(Phase::Planning);
            let engine = build_engine(
                n,
                &Options {
                    algorithm,
                    ..*options
                },
                threads,
            )?;
            let tally = exec::pool::count(&engine, progress);
            Count::of_engine(&engine, tally, threads, 0.0)?
        }
    };
    if !algorithm.is_parallel() {
        progress(Phase::Counting { done: 1, items: 1 }); // a serial search is one piece
    }
    // The serial counters saturate their u64 instead of wrapping.
    if result.total == u128::from(u64::MAX) {
        return Err(Error::Overflow { n });
    }
    result.elapsed_s = start.elapsed().as_secs_f64();
    result.peak_bytes = peak_memory();
    Ok(result)
}

/// The forecast of the count of the n×n board with `options` on `threads`
/// threads, of the algorithm [`choose`] resolves them to: see
/// [`exec::forecast`]. With `longer_than`, `None` for a count that surely
/// takes less (decided in milliseconds), and for a split depth whose plan
/// would not fit (the count's to refuse). The join is forecast by timing
/// about `budget_s` seconds of items of `join` (the count's own engine)
/// when given, else of a join built for it.
///
/// # Errors
/// As [`exec::forecast::forecast`].
pub fn forecast(
    n: usize,
    options: &Options,
    threads: usize,
    longer_than: Option<f64>,
    budget_s: f64,
    join: Option<&Join>,
) -> Result<Option<Forecast>, Error> {
    use exec::forecast::Method;
    let serial = |count, fastest_nodes_per_s| Method::Serial {
        count,
        fastest_nodes_per_s,
    };
    let method = match choose(n, options, threads)?.algorithm {
        Algorithm::Join => Method::Join {
            engine: join,
            max_memory: memory_limit(options),
            simd: EngineId::Join.simd(options.simd),
        },
        Algorithm::Auto | Algorithm::Parallel => {
            let fits = options.depth.is_none_or(|depth| {
                Plan::items_of(n, depth, options.symmetry, options.max_subproblems()).is_some()
            });
            if !fits && longer_than.is_some() {
                return Ok(None);
            }
            Method::Backtrack {
                symmetry: options.symmetry,
                simd: EngineId::Backtrack.simd(options.simd),
            }
        }
        Algorithm::Set => serial(reference::set_based::count, 1e8),
        Algorithm::Board => serial(reference::board_scan::count, 2e8),
        Algorithm::Bitmask => serial(reference::bitmask::count_recursive, 1e9),
        Algorithm::BitmaskIter => serial(reference::bitmask::count_iterative, 1e9),
    };
    exec::forecast::forecast(n, method, threads, longer_than, budget_s)
}

/// The engine that counts the n×n board with `options` on `threads`
/// threads, as [`choose`] decides: the join, or the backtracking engine
/// (also for a serial algorithm's options) at the automatic depth for
/// `threads` threads unless they give a depth. The join plans its memory
/// for the current rayon pool and refuses a plan over `options.max_memory`
/// (or the memory the machine has available).
///
/// # Errors
/// [`Error::BoardSize`], [`Error::Depth`], [`Error::PlanTooLarge`] or
/// [`Error::SimdUnavailable`], as [`count`]; for the join
/// [`Error::JoinMemory`].
pub fn build_engine(n: usize, options: &Options, threads: usize) -> Result<AnyEngine, Error> {
    if choose(n, options, threads)?.algorithm == Algorithm::Join {
        let simd = EngineId::Join.simd(options.simd);
        let join = Join::new(n, simd, memory_limit(options))?;
        return Ok(AnyEngine::Join(join));
    }
    let simd = EngineId::Backtrack.simd(options.simd);
    let plan = match options.depth {
        Some(depth) => Plan::within(n, depth, options.symmetry, options.max_subproblems())?,
        None => Plan::auto_within(n, options.symmetry, threads, options.max_subproblems())?,
    };
    Ok(AnyEngine::Backtrack(Backtrack::new(plan, simd)?))
}

/// The classes a whole count's tally gives for its engine: counted
/// (backtracking, full symmetry) or by Burnside's lemma (the join, whose
/// fixed-point items every whole count holds); `None` otherwise.
///
/// # Errors
/// [`Error::Overflow`] if the tally saturated; [`Error::NoFixedPoints`]
/// for a join's tally without its fixed-point counts (a record or shard
/// edited); [`Error::Burnside`] if the join's counts do not fall into
/// orbits.
pub fn classes_of(fingerprint: &Fingerprint, tally: &Tally) -> Result<Option<Classes>, Error> {
    let n = fingerprint.n;
    match (fingerprint.engine, fingerprint.symmetry, tally.fixed) {
        (engine::EngineId::Join, _, Some(fixed)) => {
            Classes::by_burnside(n, tally.total_checked(n)?, fixed).map(Some)
        }
        (engine::EngineId::Join, _, None) => Err(Error::NoFixedPoints { n }),
        (engine::EngineId::Backtrack, Symmetry::Full, _) => Ok(Some(tally.classes)),
        (engine::EngineId::Backtrack, _, _) => Ok(None),
    }
}

/// What a count of an engine's items knows beside their tally: how they
/// were counted.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Counted {
    /// The engine's work items.
    pub items: usize,
    /// The subproblems they hold (for the join: its pair items).
    pub subproblems: usize,
    /// The instruction-set path the engine counted on.
    pub simd: Option<Simd>,
    /// The memory the join planned for, in bytes.
    pub planned_bytes: Option<u64>,
    /// The threads that counted (added up over shards or ranks).
    pub threads: usize,
    /// The wall-clock seconds (added up over shards).
    pub elapsed_s: f64,
}

impl Count {
    /// The one way a count of an engine's items becomes a [`Count`]: the
    /// plan `fingerprint` describes, what its items add up to, and how
    /// they were counted.
    ///
    /// # Errors
    /// [`Error::Overflow`] if a sum saturated;
    /// [`Error::Burnside`] if the join's counts do not fall into orbits.
    pub fn of_tally(
        fingerprint: &Fingerprint,
        tally: &Tally,
        counted: Counted,
    ) -> Result<Count, Error> {
        let n = fingerprint.n;
        let classes = classes_of(fingerprint, tally)?;
        Ok(Count {
            n,
            total: tally.total_checked(n)?,
            algorithm: Algorithm::of_engine(fingerprint.engine),
            symmetry: fingerprint.symmetry,
            threads: counted.threads,
            depth: fingerprint.depth,
            subproblems: counted.subproblems,
            items: counted.items,
            unique: classes.map(|c| c.unique()),
            classes,
            simd: counted.simd,
            planned_bytes: counted.planned_bytes,
            peak_bytes: peak_memory(),
            elapsed_s: counted.elapsed_s,
        })
    }

    /// The result of a count of every work item of `engine` on `threads`
    /// threads, from what the items add up to.
    ///
    /// # Errors
    /// As [`Count::of_tally`].
    pub fn of_engine(
        engine: &AnyEngine,
        tally: Tally,
        threads: usize,
        elapsed_s: f64,
    ) -> Result<Count, Error> {
        let counted = match engine {
            AnyEngine::Backtrack(engine) => Counted {
                simd: Some(engine.simd()),
                subproblems: engine.plan().len(),
                ..Counted::default()
            },
            AnyEngine::Join(join) => Counted {
                subproblems: join.pair_items(),
                simd: Some(join.simd()),
                planned_bytes: Some(join.memory().total()),
                ..Counted::default()
            },
        };
        let counted = Counted {
            items: engine.items(),
            threads,
            elapsed_s,
            ..counted
        };
        Count::of_tally(&engine.fingerprint(), &tally, counted)
    }
}

/// Every solution of the n×n board, streamed in lexicographic order of the
/// column vectors; memory does not grow with the number of solutions.
///
/// # Errors
/// [`Error::BoardSize`] unless `1 <= n <= MAX_N`.
pub fn solutions(n: usize) -> Result<Solutions, Error> {
    check_board_size(n)?;
    Ok(Solutions::new(n))
}
