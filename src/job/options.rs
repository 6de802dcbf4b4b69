//! What a count is asked to do: the [`Algorithm`] and the [`Options`] it
//! counts with. A [`Job`](super::Job) resolves them once.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::engine::backtrack::plan;
use crate::engine::cpu::Simd;
use crate::engine::join::{Adapter, JoinLayout};
use crate::engine::EngineId;
use crate::problem::Symmetry;

/// The ways to count. The names are the CLI's `--algo` values, the bench ids
/// and the `algorithm` field of results.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "kebab-case")]
pub enum Algorithm {
    /// The faster engine for the board on this CPU, in the memory allowed:
    /// resolved by the [`Job`](super::Job) into [`Algorithm::Join`] or
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

/// How to count: [`Options::default()`] (the faster engine, full
/// symmetry, the automatic depth and path, the memory available), changed
/// with the `with_` methods. More options will come (marked
/// `#[non_exhaustive]`: build them from the default).
///
/// ```
/// use nqueens::{Algorithm, Options, Symmetry};
/// let options = Options::default()
///     .with_algorithm(Algorithm::Parallel)
///     .with_symmetry(Symmetry::Mirror)
///     .with_depth(Some(4));
/// assert_eq!(nqueens::count(10, &options)?.total, 724);
/// # Ok::<(), nqueens::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Options {
    /// The algorithm.
    pub algorithm: Algorithm,
    /// The symmetry the parallel engine uses; the serial algorithms search the
    /// whole tree and ignore it.
    pub symmetry: Symmetry,
    /// The parallel engine's split depth, or `None` for the automatic choice
    /// ([`Plan::auto`](crate::Plan::auto)); the serial algorithms ignore it. A depth whose plan
    /// would take more than `max_memory` (1 GiB without it) is refused
    /// ([`Error::PlanTooLarge`](crate::Error::PlanTooLarge)).
    pub depth: Option<usize>,
    /// The instruction-set path of whichever engine counts (the join's
    /// pair counter, the backtracker's kernel), or `None` for the fastest
    /// this CPU runs for it; under `auto`, a path only one engine has here
    /// takes that engine. The serial algorithms ignore it.
    pub simd: Option<Simd>,
    /// The most memory the join may plan for, in bytes, or `None` for what
    /// the machine has available; also the most the parallel engine's plan
    /// may take (`None`: 1 GiB). The serial algorithms ignore it.
    pub max_memory: Option<u64>,
    /// The join's layout, or `None` for the board's own
    /// ([`JoinLayout::automatic`]; a resumed journal's). Asking for one
    /// asks for the join.
    pub layout: Option<JoinLayout>,
    /// The GPU that counts the join's long pair jobs (`--gpu`), or `None`
    /// for the CPU alone. Asking for one asks for the join; it changes no
    /// item nor the fingerprint, so a journal or shard counted with it
    /// resumes and merges with one counted without.
    pub gpu: Option<Adapter>,
    /// The most GPU memory the pair jobs in flight hold, in bytes (`None`:
    /// a [`GPU_MEMORY_SHARE`](crate::engine::join::GPU_MEMORY_SHARE) of
    /// what a Vulkan driver reports, else
    /// [`GPU_MEMORY_DEFAULT`](crate::engine::join::GPU_MEMORY_DEFAULT));
    /// only with a GPU, at least
    /// [`GPU_MEMORY_LEAST`](crate::engine::join::GPU_MEMORY_LEAST).
    pub gpu_memory: Option<u64>,
}

impl Options {
    /// These options with `algorithm`.
    pub fn with_algorithm(self, algorithm: Algorithm) -> Options {
        Options { algorithm, ..self }
    }

    /// These options with `symmetry`.
    pub fn with_symmetry(self, symmetry: Symmetry) -> Options {
        Options { symmetry, ..self }
    }

    /// These options with the split `depth` (`None`: automatic).
    pub fn with_depth(self, depth: Option<usize>) -> Options {
        Options { depth, ..self }
    }

    /// These options with the path `simd` (`None`: the fastest here).
    pub fn with_simd(self, simd: Option<Simd>) -> Options {
        Options { simd, ..self }
    }

    /// These options with the memory limit `max_memory` in bytes (`None`:
    /// what the machine has available).
    pub fn with_max_memory(self, max_memory: Option<u64>) -> Options {
        Options { max_memory, ..self }
    }

    /// These options with the join laid out as `layout` (`None`: the
    /// board's own).
    pub fn with_layout(self, layout: Option<JoinLayout>) -> Options {
        Options { layout, ..self }
    }

    /// These options with the join's long pair jobs on the GPU `gpu`
    /// (`None`: the CPU alone).
    pub fn with_gpu(self, gpu: Option<Adapter>) -> Options {
        Options { gpu, ..self }
    }

    /// These options with the GPU's jobs in flight holding at most
    /// `gpu_memory` bytes on it (`None`: the default).
    pub fn with_gpu_memory(self, gpu_memory: Option<u64>) -> Options {
        Options { gpu_memory, ..self }
    }

    /// The most subproblems the parallel engine's plan may hold under
    /// these options ([`max_subproblems`](plan::max_subproblems)).
    pub fn max_subproblems(&self) -> usize {
        plan::max_subproblems(self.max_memory)
    }
}
