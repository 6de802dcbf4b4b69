//! Which engine counts: the one decision every command's [`Job`](super::Job)
//! takes from here, and nobody else makes.

use super::options::{Algorithm, Options};
use crate::engine::cpu::Simd;
use crate::engine::join::{Join, JoinLayout};
use crate::engine::EngineId;
use crate::problem::{check_board_size, Error, Symmetry};
use crate::system::available_memory;

/// The boards (even n, odd n) from which the join counts faster than the
/// backtracking engine: on AVX-512 (against the lanes), and on a narrower
/// path (against the scalar kernel). One thread, whole processes, 15 pairs
/// a point (`scripts/targets.py crossover`, results/2026-12-01-vm-crossover):
/// up to n = 9 both take about 2 ms and the join is 1.00-1.17× the time.
pub const JOIN_FROM: ((usize, usize), (usize, usize)) = ((10, 11), (12, 13));

/// What `choose` decided: the algorithm that will count, and why the
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
pub(super) fn choose(n: usize, options: &Options, threads: usize) -> Result<Choice, Error> {
    check_board_size(n)?;
    let chosen = |algorithm| Choice {
        algorithm,
        join_memory: None,
    };
    // The layout asked for, else the board's own: the automatic choice
    // weighs the join as it would run.
    let layout = options.layout.unwrap_or(JoinLayout::automatic(n));
    if options.algorithm == Algorithm::Join {
        let needed = Join::plan(n, layout, threads)?.total();
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
    let plan = Join::plan(n, layout, threads)?;
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
