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
//! let by_the_book = Options::default().with_algorithm(Algorithm::Set);
//! assert_eq!(count(8, &by_the_book)?.total, 92);
//!
//! // What `nqueens count 12 --threads 2` runs, resolved once, then counted.
//! let job = nqueens::Job::new(12, Options::default(), Some(2), nqueens::Run::default())
//!     .map_err(nqueens::JobError::into_error)?;
//! assert_eq!(job.describe().algorithm, Algorithm::Join);
//! assert_eq!(job.count(&|_| {}).map_err(nqueens::JobError::into_error)?.total, 14_200);
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
//! - [`job`]: a count resolved once ([`Job`]): which engine, on which
//!   path and pool, run how (plainly, journaled, as a shard, over MPI);
//!   its forecast and its [`Count`]. Every command builds one; it is the
//!   one room that names both the engines and the executors.
//! - [`exec`]: how work items run, over any engine: on the rayon
//!   [pool](exec::pool), recorded in a [journal](exec::journal), cut into
//!   [shards](exec::shard), over MPI, and how long they will take
//!   ([forecast](exec::forecast)), whatever engine counts them.
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
//!   lemma. Each engine forecasts itself ([`Engine::workload`]) and says
//!   how its classes are counted ([`Fingerprint::classes`]); the [`Job`]
//!   picks between them, for every command and for [`Options::default()`]
//!   ([`Algorithm::Auto`]).
//! - [`reduce`]: the one [`Tally`] every item returns, summed without
//!   overflow; [`problem`]: what every room shares (the board-size rule,
//!   [`Symmetry`], [`Error`]); [`stats`]: the one random stream and
//!   standard error; [`engine::cpu`]: what this CPU runs.
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

pub mod board;
pub mod engine;
pub mod exec;
pub mod files;
pub mod job;
pub mod oeis;
pub mod problem;
pub mod reduce;
pub mod reference;
mod solutions;
pub mod stats;
pub mod system;

use problem::check_board_size;
pub use problem::{bytes, Error, Symmetry, MAX_N, PROGRAM};
pub use system::{available_memory, peak_memory};

pub use board::Solution;
pub use engine::any::AnyEngine;
pub use engine::backtrack::plan::Plan;
pub use engine::cpu::Simd;
pub use engine::join::{Adapter, Join, JoinLayout};
pub use engine::{Engine, EngineId, Fingerprint};
pub use exec::forecast::Forecast;
pub use exec::{Phase, Progress};
pub use job::{Algorithm, Count, Counted, GpuUse, Job, JobError, Options, Outcome, Run, JOIN_FROM};
pub use reduce::{Classes, Fixed, Tally};
pub use solutions::Solutions;

/// Counts the solutions on an n×n board, on the current rayon pool.
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
/// algorithms call it once, at the end. A [`Job`] does the same with a
/// journal, a shard or a thread count of its own.
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
    let job = Job::new(n, *options, None, Run::default()).map_err(JobError::into_error)?;
    if job.options().algorithm.is_parallel() {
        progress(Phase::Planning);
    }
    job.count(progress).map_err(JobError::into_error)
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
