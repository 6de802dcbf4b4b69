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

/// Whose facts an automatic choice may weigh.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Decider {
    /// This machine's: its CPU's paths and the memory it has now. A plain
    /// count, a journal (resumed, it follows its header instead) and an
    /// MPI run's rank 0, whose workers follow the plan it sends.
    Machine,
    /// The board's alone: a shard, whose items must be the ones every
    /// other shard of the count was cut from, on whatever machine takes
    /// it. The engine is the join from the crossover of the narrower paths
    /// ([`JOIN_FROM`]'s second pair, which every CPU reaches), in its
    /// [automatic](JoinLayout::automatic) layout; where that plan does not
    /// fit this machine the shard is refused, never counted another way.
    Board,
}

/// What `choose` decided: the algorithm that will count, the join's
/// layout, and why the join or its automatic layout was passed over.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Choice {
    /// The algorithm, never [`Algorithm::Auto`].
    pub algorithm: Algorithm,
    /// The join's layout (`None` for the other algorithms).
    pub layout: Option<JoinLayout>,
    /// Set when the join's automatic layout would have been chosen but
    /// its plan needs more memory than the count may take: the join's
    /// other layout counts where that fits, else the backtracking engine.
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
/// `threads` threads, weighing `decider`'s facts.
///
/// An algorithm asked for by name is kept, the join only if its memory
/// plan fits the limit (`options.max_memory`, else the memory available
/// now): refused before anything is built or timed. For
/// [`Algorithm::Auto`], the engine the forecasts put ahead: the
/// backtracking engine when the options set something only it takes (a
/// depth, a symmetry other than full) and on boards below [`JOIN_FROM`]
/// (results/2026-12-03-vm-engines: from there to n = 32 the join's
/// forecast is the smaller: 65x at n = 28, 23x at 32); the join otherwise. The
/// machine decider also takes the path (an instruction set asked for that
/// one engine lacks on this CPU takes the other; the crossover of the path
/// the join runs) and the memory: the join's automatic layout, else its
/// other layout where only that fits, else the backtracking engine.
///
/// # Errors
/// [`Error::BoardSize`] unless `1 <= n <= MAX_N`; for the join asked for
/// by name, [`Error::JoinMemory`] over the limit; for the board decider,
/// [`Error::Refused`] naming `--max-memory` where the join's plan does not
/// fit.
pub(super) fn choose(
    n: usize,
    options: &Options,
    threads: usize,
    decider: Decider,
) -> Result<Choice, Error> {
    check_board_size(n)?;
    let limit = memory_limit(options);
    let needs = |layout| Ok::<_, Error>(Join::plan(n, layout, threads)?.total());
    let join = |layout| Choice {
        algorithm: Algorithm::Join,
        layout: Some(layout),
        join_memory: None,
    };
    let backtrack = |join_memory| Choice {
        algorithm: Algorithm::Parallel,
        layout: None,
        join_memory,
    };
    if options.algorithm == Algorithm::Join {
        let layout = options.layout.unwrap_or(JoinLayout::automatic(n));
        let needed = needs(layout)?;
        if needed > limit {
            return Err(Error::JoinMemory { n, needed, limit });
        }
        return Ok(join(layout));
    }
    if options.algorithm != Algorithm::Auto {
        return Ok(Choice {
            algorithm: options.algorithm,
            ..backtrack(None)
        });
    }
    let backtrack_only = options.depth.is_some() || options.symmetry != Symmetry::Full;
    let on_machine = decider == Decider::Machine;
    let (even, odd) = match EngineId::Join.simd(options.simd) {
        Simd::Avx512 if on_machine => JOIN_FROM.0,
        _ => JOIN_FROM.1,
    };
    let join_from = if n.is_multiple_of(2) { even } else { odd };
    let lacks =
        |engine: EngineId| on_machine && options.simd.is_some_and(|s| engine.check(s).is_err());
    let (join_lacks, backtrack_lacks) = (lacks(EngineId::Join), lacks(EngineId::Backtrack));
    if backtrack_only || (!backtrack_lacks && (join_lacks || n < join_from)) {
        return Ok(backtrack(None));
    }
    let automatic = JoinLayout::automatic(n);
    let needed = needs(automatic)?;
    if needed <= limit {
        return Ok(join(automatic));
    }
    if !on_machine {
        return Err(Error::Refused {
            flag: "--max-memory <SIZE>",
            value: crate::problem::bytes(limit),
            rule: format!(
                "is less than the join for n = {n} needs on {threads} thread(s): {} (layout \
                 {automatic}); every shard of a count takes the engine and layout its board \
                 does, whatever the machine, so that the shards merge: allow more, use fewer \
                 --threads, or count every shard with --algo parallel",
                crate::problem::bytes(needed)
            ),
        });
    }
    let other = JoinLayout::ALL
        .into_iter()
        .find(|&l| l != automatic && l.check(n).is_ok());
    let join_memory = Some(JoinMemory {
        needed_bytes: needed,
        limit_bytes: limit,
    });
    if let Some(other) = other {
        if needs(other)? <= limit {
            return Ok(Choice {
                join_memory,
                ..join(other)
            });
        }
    }
    Ok(backtrack(join_memory))
}

/// The most memory the join may plan for under `options`: their limit,
/// else what the machine has available now.
pub fn memory_limit(options: &Options) -> u64 {
    options
        .max_memory
        .or_else(available_memory)
        .unwrap_or(u64::MAX)
}
