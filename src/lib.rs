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
//! Every fast count is one pipeline: a [`plan`] cuts the search into weighted,
//! independent subproblems (the partial placements of the first k rows, one
//! per orbit of the board's symmetries, see [`symmetry`]); the [`parallel`]
//! executor runs a kernel on each of them on the current rayon pool (the
//! scalar [`bitmask`] kernel and its symmetry branches, or, where the CPU has
//! AVX-512, the [`lanes`], sixteen subtrees at once); the weighted counts are
//! summed without overflow. The textbook
//! solvers in [`reference`](mod@reference) sit beside it as test oracles and
//! benchmark baselines.
//!
//! The library never prints and never builds the global thread pool: the
//! parallel engine uses the pool it is called from (wrap the call in
//! `rayon::ThreadPool::install` to choose the thread count).

#![deny(missing_docs)]

use std::fmt;
use std::time::Instant;

use serde::Serialize;

pub mod bitmask;
pub mod board;
pub mod lanes;
pub mod oeis;
pub mod parallel;
pub mod plan;
pub mod plot;
pub mod reference;
mod solutions;
pub mod sweep;
pub mod symmetry;

pub use board::Solution;
pub use parallel::Kernel;
pub use plan::Plan;
pub use solutions::Solutions;
pub use symmetry::Classes;

/// The largest board every algorithm accepts: one bit per column in a `u32`.
///
/// Counts are exact up to it: a sum that would not fit in a `u64` is reported
/// as [`Error::Overflow`], never wrapped. (The largest known count, n = 27,
/// is 2.3 × 10¹⁷.)
pub const MAX_N: usize = 32;

/// The ways to count. The names are the CLI's `--algo` values, the bench ids
/// and the `algorithm` field of results.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, clap::ValueEnum, Serialize)]
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
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, clap::ValueEnum, Serialize)]
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
    /// ([`Plan::auto`]); the serial algorithms ignore it.
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
    count_with_progress(n, options, &|_, _| {})
}

/// [`count`], reporting progress: the parallel engine calls `progress` with
/// (subproblems finished, subproblems in all) as each subproblem finishes,
/// from its worker threads; the serial algorithms call it once, at the end.
///
/// # Errors
/// As [`count`].
pub fn count_with_progress(
    n: usize,
    options: &Options,
    progress: parallel::Progress<'_>,
) -> Result<Count, Error> {
    check_board_size(n)?;
    let start = Instant::now();
    let serial = |total: u64| (total, None, Symmetry::None, 1, 0, None, 1);
    let (total, classes, symmetry, threads, depth, kernel, subproblems) = match options.algorithm {
        Algorithm::Set => serial(reference::set_based::count(n)),
        Algorithm::Board => serial(reference::board_scan::count(n)),
        Algorithm::Bitmask => serial(bitmask::count_recursive(n)),
        Algorithm::BitmaskIter => serial(bitmask::count_iterative(n)),
        Algorithm::Parallel => {
            let kernel = options.kernel.unwrap_or_else(Kernel::fastest);
            if !kernel.available() {
                return Err(Error::KernelUnavailable { kernel });
            }
            let threads = rayon::current_num_threads();
            let plan = match options.depth {
                Some(depth) => Plan::new(n, depth, options.symmetry)?,
                None => Plan::auto(n, options.symmetry, threads)?,
            };
            let tally = parallel::count_plan_with(&plan, kernel, progress)?;
            let subproblems = plan.subproblems.len();
            let (total, classes) = (tally.total, tally.classes);
            (
                total,
                classes,
                plan.symmetry,
                threads,
                plan.depth,
                Some(kernel),
                subproblems,
            )
        }
    };
    if subproblems == 1 && depth == 0 {
        progress(1, 1); // a serial search is one piece
    }
    // The serial counters saturate instead of wrapping.
    if total == u64::MAX {
        return Err(Error::Overflow { n });
    }
    Ok(Count {
        n,
        total,
        algorithm: options.algorithm,
        symmetry,
        threads,
        depth,
        kernel,
        subproblems,
        unique: classes.map(|c| c.unique()),
        classes,
        elapsed_s: start.elapsed().as_secs_f64(),
    })
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
