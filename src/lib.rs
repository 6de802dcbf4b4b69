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
//! - [`exec`]: how work items run: the rayon [pool](exec::pool) today (the
//!   journal, shards and MPI next), over any engine.
//! - [`engine`]: what a work item is and how to count one, behind the small
//!   [`Engine`] trait (a fingerprint, a number of items with stable indices,
//!   a cost per item, a count of a range of items). The
//!   [backtracking engine](engine::backtrack) cuts the search into a
//!   [plan] of weighted, independent subproblems
//!   (the partial placements of the first k rows, one per orbit of the
//!   board's [symmetries](engine::backtrack::symmetry)), grouped into
//!   items, and counts them with a [kernel](engine::backtrack::kernel): the
//!   scalar bitmask search or, where the CPU has AVX-512, the lanes, sixteen
//!   subtrees at once.
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
pub use engine::{Engine, Fingerprint};
pub use exec::{Phase, Progress};
pub use reduce::{Classes, Tally};
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
}

impl Algorithm {
    /// Every algorithm, fastest last.
    pub const ALL: [Algorithm; 5] = [
        Algorithm::Set,
        Algorithm::Board,
        Algorithm::Bitmask,
        Algorithm::BitmaskIter,
        Algorithm::Parallel,
    ];

    /// The name used on the command line and in results, e.g. `bitmask-iter`.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Set => "set",
            Algorithm::Board => "board",
            Algorithm::Bitmask => "bitmask",
            Algorithm::BitmaskIter => "bitmask-iter",
            Algorithm::Parallel => "parallel",
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
    /// tree is one subproblem).
    pub depth: usize,
    /// The kernel that counted the subproblems (`None` for the serial
    /// algorithms).
    pub kernel: Option<Kernel>,
    /// How many independent subproblems were counted.
    pub subproblems: usize,
    /// How many work items they were grouped into (1 for the serial
    /// algorithms).
    pub items: usize,
    /// Solutions distinct up to rotation and reflection (A002562), when the
    /// count used full symmetry.
    pub unique: Option<u64>,
    /// The unique solutions by orbit size, when the count used full symmetry.
    pub classes: Option<Classes>,
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
        elapsed_s: 0.0,
    };
    let mut result = match options.algorithm {
        Algorithm::Set => serial(reference::set_based::count(n)),
        Algorithm::Board => serial(reference::board_scan::count(n)),
        Algorithm::Bitmask => serial(reference::bitmask::count_recursive(n)),
        Algorithm::BitmaskIter => serial(reference::bitmask::count_iterative(n)),
        Algorithm::Parallel => {
            let threads = rayon::current_num_threads();
            progress(Phase::Planning);
            let engine = build_engine(n, options, threads)?;
            let tally = exec::pool::count(&engine, progress);
            Count::of_engine(&engine, tally, threads, 0.0)?
        }
    };
    if options.algorithm != Algorithm::Parallel {
        progress(Phase::Counting { done: 1, items: 1 }); // a serial search is one piece
    }
    // The serial counters saturate instead of wrapping.
    if result.total == u64::MAX {
        return Err(Error::Overflow { n });
    }
    result.elapsed_s = start.elapsed().as_secs_f64();
    Ok(result)
}

/// The backtracking engine `options` ask for (their algorithm aside), at
/// the automatic depth for `threads` threads unless they give a depth.
///
/// # Errors
/// [`Error::BoardSize`], [`Error::Depth`], [`Error::PlanTooLarge`] or
/// [`Error::KernelUnavailable`], as [`count`].
pub fn build_engine(n: usize, options: &Options, threads: usize) -> Result<Backtrack, Error> {
    check_board_size(n)?;
    let kernel = options.kernel.unwrap_or_else(Kernel::fastest);
    if !kernel.available() {
        return Err(Error::KernelUnavailable { kernel });
    }
    let plan = match options.depth {
        Some(depth) => Plan::new(n, depth, options.symmetry)?,
        None => Plan::auto(n, options.symmetry, threads)?,
    };
    Backtrack::new(plan, kernel)
}

impl Count {
    /// The result of a count of every work item of `engine` on `threads`
    /// threads, from what the items add up to.
    ///
    /// # Errors
    /// [`Error::Overflow`] if the total does not fit in a `u64`.
    pub fn of_engine(
        engine: &Backtrack,
        tally: Tally,
        threads: usize,
        elapsed_s: f64,
    ) -> Result<Count, Error> {
        let plan = engine.plan();
        let classes = (plan.symmetry == Symmetry::Full).then_some(tally.classes);
        Ok(Count {
            n: plan.n,
            total: tally.total_u64(plan.n)?,
            algorithm: Algorithm::Parallel,
            symmetry: plan.symmetry,
            threads,
            depth: plan.depth,
            kernel: Some(engine.kernel()),
            subproblems: plan.len(),
            items: plan.items(),
            unique: classes.map(|c| c.unique()),
            classes,
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

fn check_board_size(n: usize) -> Result<(), Error> {
    if (1..=MAX_N).contains(&n) {
        Ok(())
    } else {
        Err(Error::BoardSize { n })
    }
}
