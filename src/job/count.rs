//! The result of a count, [`Count`], and the one way an engine's tally
//! becomes one.

use serde::Serialize;

use super::options::Algorithm;
use crate::engine::cpu::Simd;
use crate::engine::join::{GpuReport, JoinLayout};
use crate::engine::{Engine, Fingerprint};
use crate::problem::{Error, Symmetry};
use crate::reduce::Classes;
use crate::reduce::Tally;
use crate::system::peak_memory;

/// The result of a count: the total and how it was obtained.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[non_exhaustive]
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
    /// The join's layout (absent for the others).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub layout: Option<JoinLayout>,
    /// The memory the join planned for, in bytes (`None` for the others).
    pub planned_bytes: Option<u64>,
    /// The process's peak resident memory at the end of the count, in bytes,
    /// where the system tells it (Linux).
    pub peak_bytes: Option<u64>,
    /// Wall-clock time of the count, planning included, in seconds.
    pub elapsed_s: f64,
    /// What the GPU did, where the join counted pairs on one (`--gpu`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gpu: Option<GpuUse>,
}

/// What the GPU of a count did: the adapter and its backend, the pairs of
/// halves it compared, and the share of the count's wall-clock time that
/// at least one pair job was on it (from the host's side: its transfers
/// included).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GpuUse {
    /// The adapter's name, as its driver gives it.
    pub adapter: String,
    /// Vulkan, Metal or DX12.
    pub backend: String,
    /// Pairs of halves compared on it.
    pub pairs: u64,
    /// Share of the wall-clock time, 0..=1.
    pub busy: f64,
}

impl GpuUse {
    /// `report`'s figures for a count of `elapsed_s` seconds.
    pub fn of(report: GpuReport, elapsed_s: f64) -> GpuUse {
        GpuUse {
            adapter: report.adapter,
            backend: report.backend,
            pairs: report.pairs,
            busy: match elapsed_s > 0.0 {
                true => (report.busy_s / elapsed_s).min(1.0),
                false => 0.0,
            },
        }
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
        let classes = fingerprint.classes(tally)?;
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
            layout: fingerprint.layout,
            planned_bytes: counted.planned_bytes,
            peak_bytes: peak_memory(),
            elapsed_s: counted.elapsed_s,
            gpu: None,
        })
    }

    /// The result of a count of every work item of `engine` on `threads`
    /// threads, from what the items add up to.
    ///
    /// # Errors
    /// As [`Count::of_tally`].
    pub fn of_engine(
        engine: &dyn Engine,
        tally: Tally,
        threads: usize,
        elapsed_s: f64,
    ) -> Result<Count, Error> {
        let counted = Counted {
            items: engine.items(),
            subproblems: engine.subproblems(),
            simd: Some(engine.simd()),
            planned_bytes: engine.planned_bytes(),
            threads,
            elapsed_s,
        };
        Count::of_tally(&engine.fingerprint(), &tally, counted)
    }
}
