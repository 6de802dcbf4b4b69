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
//! let eight = count(8, &Options::default())?; // the parallel engine
//! assert_eq!(eight.total, 92);
//! assert_eq!(eight.unique, Some(12)); // full symmetry, the default
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
//!   [plan] of weighted, independent subproblems
//!   (the partial placements of the first k rows, one per orbit of the
//!   board's [symmetries](engine::backtrack::symmetry)), grouped into
//!   items, and counts them with a [kernel](engine::backtrack::kernel): the
//!   scalar bitmask search or, where the CPU has AVX-512, the lanes, sixteen
//!   subtrees at once. The [join](engine::join) glues half-boards from
//!   quarter-board tables and counts compatible east/west pairs bit-sliced
//!   (AVX-512 where the CPU has it); its unique count comes from Burnside's
//!   lemma. [`Algorithm::fastest_for`] picks between them.
//! - [`reduce`]: the one [`Tally`] every item returns, summed without
//!   overflow.
//! - [`reference`](mod@reference): the textbook solvers, as test oracles
//!   and benchmark baselines.
//!
//! The library never prints and never builds the global thread pool: the
//! parallel engine uses the pool it is called from (wrap the call in
//! `rayon::ThreadPool::install` to choose the thread count). The `nqueens`
//! binary (its `cli` room) parses, prints, draws the progress and the plots.

#![deny(missing_docs)]

use std::fmt;
use std::time::Instant;

use serde::{Deserialize, Serialize};

pub mod board;
pub mod engine;
pub mod exec;
pub mod oeis;
pub mod reduce;
pub mod reference;
mod solutions;

pub use board::Solution;
pub use engine::backtrack::kernel::Kernel;
pub use engine::backtrack::plan::Plan;
pub use engine::join::pairs::PairCounter;
pub use engine::join::Join;
pub use engine::{Engine, Fingerprint};
pub use exec::{Phase, Progress};
pub use reduce::{Classes, Fixed, Tally};
pub use solutions::Solutions;

// The module paths of nqueens 0.1, kept for its callers.
pub use engine::backtrack::kernel::lanes;
pub use engine::backtrack::{plan, symmetry};

/// The bitmask search: the kernel's state and the serial drivers (paths of
/// nqueens 0.1; see [`engine::backtrack`] and [`reference::bitmask`]).
pub mod bitmask {
    pub use crate::engine::backtrack::kernel::scalar::{count_subtree, TAIL_ROWS};
    pub use crate::engine::backtrack::state::{full_mask, State};
    pub use crate::reference::bitmask::{count_iterative, count_recursive};
}

use engine::backtrack::Backtrack;

/// This program and the revision it was built from, e.g.
/// `nqueens 0.1.0 (git a23de1eafd)`: written into journals and shard files.
pub const PROGRAM: &str = concat!(
    "nqueens ",
    env!("CARGO_PKG_VERSION"),
    " (git ",
    env!("NQUEENS_GIT_REVISION"),
    ")"
);

/// The largest board every algorithm accepts: one bit per column in a `u32`.
///
/// Counts are exact up to it: a sum that would not fit in a `u64` is reported
/// as [`Error::Overflow`], never wrapped. (The largest known count, n = 27,
/// is 2.3 × 10¹⁷.)
pub const MAX_N: usize = 32;

/// The boards (even n, odd n) from which the join counts faster than the
/// backtracking engine, with the AVX-512 pair counter and lanes, and with
/// the portable counter and scalar kernels: measured on one thread, whole
/// processes side by side (`scripts/targets.py crossover`,
/// results/2026-11-30-vm-crossover: at n = 6 both take about a millisecond
/// and the join is 1.04× and 1.01× the time; from n = 7 it is faster, 0.11×
/// at n = 16 with AVX-512).
pub const JOIN_FROM: ((usize, usize), (usize, usize)) = ((8, 7), (8, 7));

/// The ways to count. The names are the CLI's `--algo` values, the bench ids
/// and the `algorithm` field of results.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, clap::ValueEnum, Serialize, Deserialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum Algorithm {
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
    #[default]
    Parallel,
    /// Half-boards joined from quarter-board tables, on a rayon pool, with
    /// full symmetry; the unique count by Burnside's lemma.
    Join,
}

impl Algorithm {
    /// Every algorithm, fastest last.
    pub const ALL: [Algorithm; 6] = [
        Algorithm::Set,
        Algorithm::Board,
        Algorithm::Bitmask,
        Algorithm::BitmaskIter,
        Algorithm::Parallel,
        Algorithm::Join,
    ];

    /// Whether the algorithm runs on the rayon pool (the others are serial).
    pub fn is_parallel(self) -> bool {
        matches!(self, Algorithm::Parallel | Algorithm::Join)
    }

    /// The faster engine for the n×n board on this CPU: the join from
    /// [`JOIN_FROM`] on (even, odd n) for its pair counter, the
    /// backtracking engine below, where the join's setup costs more than
    /// it saves.
    pub fn fastest_for(n: usize) -> Algorithm {
        let (even, odd) = match engine::join::pairs::PairCounter::fastest() {
            engine::join::pairs::PairCounter::Avx512 => JOIN_FROM.0,
            engine::join::pairs::PairCounter::Portable => JOIN_FROM.1,
        };
        let from = if n.is_multiple_of(2) { even } else { odd };
        if n >= from {
            Algorithm::Join
        } else {
            Algorithm::Parallel
        }
    }

    /// The name used on the command line and in results, e.g. `bitmask-iter`.
    pub fn name(self) -> &'static str {
        match self {
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

/// Which symmetries of the board the parallel engine exploits.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, clap::ValueEnum, Serialize, Deserialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum Symmetry {
    /// Search the whole tree.
    None,
    /// Search the left half of the first row and count it twice (the middle
    /// column of an odd board with its second row halved the same way).
    Mirror,
    /// Search one board per orbit of the 8 symmetries of the square (corner /
    /// side split) and weight it by the orbit's size; gives the unique count.
    #[default]
    Full,
}

impl Symmetry {
    /// Every symmetry mode.
    pub const ALL: [Symmetry; 3] = [Symmetry::None, Symmetry::Mirror, Symmetry::Full];

    /// The name used on the command line and in results.
    pub fn name(self) -> &'static str {
        match self {
            Symmetry::None => "none",
            Symmetry::Mirror => "mirror",
            Symmetry::Full => "full",
        }
    }
}

impl fmt::Display for Symmetry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What can go wrong. Every variant is a property of the request, not a bug.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The board size is outside `1..=MAX_N`.
    #[error("n must be in 1..={MAX_N}, got {n}")]
    BoardSize {
        /// The size asked for.
        n: usize,
    },
    /// The split depth is outside `1..=n`.
    #[error("the split depth must be in 1..={n} for n = {n}, got {depth}")]
    Depth {
        /// The depth asked for.
        depth: usize,
        /// The board size.
        n: usize,
    },
    /// The count does not fit in a `u64`.
    #[error("the number of solutions for n = {n} does not fit in 64 bits")]
    Overflow {
        /// The board size.
        n: usize,
    },
    /// The split depth asks for a plan larger than
    /// [`MAX_PLAN_BYTES`](plan::MAX_PLAN_BYTES) allows.
    #[error(
        "the plan for n = {n} at depth {depth} would hold more than {max_subproblems} \
         subproblems (1 GiB); the largest depth that fits is {largest}"
    )]
    PlanTooLarge {
        /// The board size.
        n: usize,
        /// The depth asked for.
        depth: usize,
        /// The deepest split that fits.
        largest: usize,
        /// The most subproblems a plan may hold.
        max_subproblems: usize,
    },
    /// The join's quarter tables would be too large to index.
    #[error(
        "the join counts boards up to n = {largest} (its quarter table for n = {n} would hold \
         more than 2^32 placements: 6.4e9, 48 GiB, at n = 26); use --algo parallel"
    )]
    JoinTooLarge {
        /// The board size.
        n: usize,
        /// The largest board the join counts.
        largest: usize,
    },
    /// The join would need more memory than it may take.
    #[error(
        "the join for n = {n} needs {} of memory (quarter table, items, and each thread's \
         half lists), more than the {} it may take",
        crate::bytes(*needed),
        crate::bytes(*limit)
    )]
    JoinMemory {
        /// The bytes it needs.
        needed: u64,
        /// The bytes it may take.
        limit: u64,
        /// The board size.
        n: usize,
    },
    /// The pair counter asked for needs CPU features this machine lacks.
    #[error("the {counter} pair counter needs AVX-512 F and VPOPCNTDQ, which this CPU lacks")]
    PairCounterUnavailable {
        /// The counter asked for.
        counter: engine::join::pairs::PairCounter,
    },
    /// The solutions fixed by the rotations do not fit the total: some count
    /// is wrong (a bug, never a property of the request).
    #[error("the counts for n = {n} do not fall into orbits (Burnside's lemma): a count is wrong")]
    Burnside {
        /// The board size.
        n: usize,
    },
    /// The kernel asked for needs CPU features this machine lacks.
    #[error("the {kernel} kernel needs AVX-512 F and CD, which this CPU lacks")]
    KernelUnavailable {
        /// The kernel asked for.
        kernel: Kernel,
    },
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
    /// would take more than 1 GiB is refused ([`Error::PlanTooLarge`]).
    pub depth: Option<usize>,
    /// The parallel engine's kernel, or `None` for the fastest this machine
    /// runs ([`Kernel::fastest`]); the serial algorithms ignore it.
    pub kernel: Option<Kernel>,
    /// The most memory the join may plan for, in bytes, or `None` for what
    /// the machine has available; the other algorithms ignore it.
    pub max_memory: Option<u64>,
}

/// The result of a count: the total and how it was obtained.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Count {
    /// The board size.
    pub n: usize,
    /// The number of solutions.
    pub total: u64,
    /// The algorithm that counted.
    pub algorithm: Algorithm,
    /// The symmetry it used (`none` for the serial algorithms).
    pub symmetry: Symmetry,
    /// Threads in the pool it ran on (1 for the serial algorithms).
    pub threads: usize,
    /// Rows placed in each subproblem (0 for the serial algorithms: the whole
    /// tree is one subproblem); for the join, the side h of its quarters.
    pub depth: usize,
    /// The kernel that counted the subproblems (`None` for the serial
    /// algorithms).
    pub kernel: Option<Kernel>,
    /// How many independent subproblems were counted (for the join: its
    /// pair items, one per group of frames and row set).
    pub subproblems: usize,
    /// How many work items they were grouped into (1 for the serial
    /// algorithms).
    pub items: usize,
    /// Solutions distinct up to rotation and reflection (A002562), when the
    /// count used full symmetry.
    pub unique: Option<u64>,
    /// The unique solutions by orbit size, when the count used full symmetry.
    pub classes: Option<Classes>,
    /// The join's pair counter (`None` for the other algorithms).
    pub pair_counter: Option<PairCounter>,
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
/// would not fit in memory; [`Error::KernelUnavailable`] for a kernel this
/// CPU does not run.
pub fn count_with_progress(
    n: usize,
    options: &Options,
    progress: Progress<'_>,
) -> Result<Count, Error> {
    check_board_size(n)?;
    let start = Instant::now();
    let serial = |total: u64| Count {
        n,
        total,
        algorithm: options.algorithm,
        symmetry: Symmetry::None,
        threads: 1,
        depth: 0,
        kernel: None,
        subproblems: 1,
        items: 1,
        unique: None,
        classes: None,
        pair_counter: None,
        planned_bytes: None,
        peak_bytes: None,
        elapsed_s: 0.0,
    };
    let mut result = match options.algorithm {
        Algorithm::Set => serial(reference::set_based::count(n)),
        Algorithm::Board => serial(reference::board_scan::count(n)),
        Algorithm::Bitmask => serial(reference::bitmask::count_recursive(n)),
        Algorithm::BitmaskIter => serial(reference::bitmask::count_iterative(n)),
        Algorithm::Parallel | Algorithm::Join => {
            let threads = rayon::current_num_threads();
            progress(Phase::Planning);
            let engine = build_engine(n, options, threads)?;
            let tally = exec::pool::count(&engine, progress);
            Count::of_engine(&engine, tally, threads, 0.0)?
        }
    };
    if !options.algorithm.is_parallel() {
        progress(Phase::Counting { done: 1, items: 1 }); // a serial search is one piece
    }
    // The serial counters saturate instead of wrapping.
    if result.total == u64::MAX {
        return Err(Error::Overflow { n });
    }
    result.elapsed_s = start.elapsed().as_secs_f64();
    result.peak_bytes = peak_memory();
    Ok(result)
}

/// The process's peak resident memory so far (Linux: `VmHWM`).
pub fn peak_memory() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// The memory this machine has available now (Linux: `MemAvailable`).
pub fn available_memory() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// The engine `options` ask for: the join for [`Algorithm::Join`], else
/// the backtracking engine at the automatic depth for `threads` threads
/// unless they give a depth. The join plans its memory for the current
/// rayon pool and refuses a plan over `options.max_memory` (or the memory
/// the machine has available).
///
/// # Errors
/// [`Error::BoardSize`], [`Error::Depth`], [`Error::PlanTooLarge`] or
/// [`Error::KernelUnavailable`], as [`count`]; for the join
/// [`Error::JoinTooLarge`] and [`Error::JoinMemory`].
pub fn build_engine(n: usize, options: &Options, threads: usize) -> Result<AnyEngine, Error> {
    check_board_size(n)?;
    if options.algorithm == Algorithm::Join {
        let limit = options
            .max_memory
            .or_else(available_memory)
            .unwrap_or(u64::MAX);
        return Ok(AnyEngine::Join(Join::new(
            n,
            PairCounter::fastest(),
            limit,
        )?));
    }
    let kernel = options.kernel.unwrap_or_else(Kernel::fastest);
    if !kernel.available() {
        return Err(Error::KernelUnavailable { kernel });
    }
    let plan = match options.depth {
        Some(depth) => Plan::new(n, depth, options.symmetry)?,
        None => Plan::auto(n, options.symmetry, threads)?,
    };
    Ok(AnyEngine::Backtrack(Backtrack::new(plan, kernel)?))
}

/// One of the engines, chosen at run time.
#[derive(Clone, Debug)]
pub enum AnyEngine {
    /// The backtracking engine.
    Backtrack(Backtrack),
    /// The join.
    Join(Join),
}

impl AnyEngine {
    /// The engine as the trait the executors take.
    pub fn as_dyn(&self) -> &dyn Engine {
        match self {
            AnyEngine::Backtrack(engine) => engine,
            AnyEngine::Join(engine) => engine,
        }
    }

    /// The algorithm the engine stands for.
    pub fn algorithm(&self) -> Algorithm {
        match self {
            AnyEngine::Backtrack(_) => Algorithm::Parallel,
            AnyEngine::Join(_) => Algorithm::Join,
        }
    }

    /// What counted: the backtracking kernel, or the join's pair counter.
    pub fn counter_name(&self) -> &'static str {
        match self {
            AnyEngine::Backtrack(engine) => engine.kernel().name(),
            AnyEngine::Join(engine) => engine.counter().name(),
        }
    }
}

impl Engine for AnyEngine {
    fn fingerprint(&self) -> Fingerprint {
        self.as_dyn().fingerprint()
    }

    fn items(&self) -> usize {
        self.as_dyn().items()
    }

    fn cost(&self, item: usize) -> f64 {
        self.as_dyn().cost(item)
    }

    fn count(&self, items: std::ops::Range<usize>) -> Tally {
        self.as_dyn().count(items)
    }
}

/// The classes a whole count's tally gives for its engine: counted
/// (backtracking, full symmetry) or by Burnside's lemma (the join, when
/// the tally holds its first item); `None` otherwise.
///
/// # Errors
/// [`Error::Burnside`] if the join's counts do not fall into orbits.
pub fn classes_of(fingerprint: &Fingerprint, tally: &Tally) -> Result<Option<Classes>, Error> {
    match (fingerprint.engine, fingerprint.symmetry, tally.fixed) {
        (engine::EngineId::Join, _, Some(fixed)) => {
            Classes::by_burnside(fingerprint.n, tally.total(), fixed).map(Some)
        }
        (engine::EngineId::Join, _, None) => Ok(None),
        (engine::EngineId::Backtrack, Symmetry::Full, _) => Ok(Some(tally.classes)),
        (engine::EngineId::Backtrack, _, _) => Ok(None),
    }
}

impl Count {
    /// The result of a count of every work item of `engine` on `threads`
    /// threads, from what the items add up to.
    ///
    /// # Errors
    /// [`Error::Overflow`] if the total does not fit in a `u64`;
    /// [`Error::Burnside`] if the join's counts do not fall into orbits.
    pub fn of_engine(
        engine: &AnyEngine,
        tally: Tally,
        threads: usize,
        elapsed_s: f64,
    ) -> Result<Count, Error> {
        let fingerprint = engine.fingerprint();
        let n = fingerprint.n;
        let classes = classes_of(&fingerprint, &tally)?;
        let (kernel, subproblems, pair_counter, planned_bytes) = match engine {
            AnyEngine::Backtrack(engine) => {
                (Some(engine.kernel()), engine.plan().len(), None, None)
            }
            AnyEngine::Join(join) => (
                None,
                join.pair_items(),
                Some(join.counter()),
                Some(join.memory().total()),
            ),
        };
        Ok(Count {
            n,
            total: tally.total_u64(n)?,
            algorithm: engine.algorithm(),
            symmetry: fingerprint.symmetry,
            threads,
            depth: fingerprint.depth,
            kernel,
            subproblems,
            items: engine.items(),
            unique: classes.map(|c| c.unique()),
            classes,
            pair_counter,
            planned_bytes,
            peak_bytes: peak_memory(),
            elapsed_s,
        })
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

/// A byte count for people: `512 B`, `3.4 MiB`, `1.2 GiB`.
pub fn bytes(bytes: u64) -> String {
    const UNITS: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{bytes} B")
    } else {
        format!("{value:.1} {}", UNITS[unit])
    }
}

fn check_board_size(n: usize) -> Result<(), Error> {
    if (1..=MAX_N).contains(&n) {
        Ok(())
    } else {
        Err(Error::BoardSize { n })
    }
}
