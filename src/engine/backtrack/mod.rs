//! The backtracking engine: a [`plan`] of weighted subproblems (the
//! first rows placed, one board per orbit of the chosen [symmetry]),
//! counted by a [kernel]: scalar ([`Simd::None`]) or many subtrees in
//! lanes, sixteen on [`Simd::Avx512`] and four on [`Simd::Avx2`].
//!
//! Its work items are the plan's: runs of consecutive subproblems of one
//! family, fixed by (n, symmetry, depth) alone.

pub mod estimate;
pub mod forecast;
pub mod kernel;
pub mod plan;
pub mod rules;
pub mod state;
pub mod symmetry;

use std::ops::Range;

use self::kernel::{count_scalar, lanes};
use self::plan::{Plan, Subproblem};
use super::cpu::{self, Path, Simd};
use super::forecast::Workload;
use super::{Engine, EngineId, Fingerprint};
use crate::problem::Error;
use crate::reduce::Tally;

/// The version of the backtracking engine's work items: bumped whenever
/// the plan's order or its cut into items changes, so that a journal or
/// shard of another version is refused.
pub const FORMAT: u32 = 1;

/// A plan and the path its kernel counts on.
#[derive(Clone, Debug)]
pub struct Backtrack {
    plan: Plan,
    simd: Simd,
}

impl Backtrack {
    /// The instruction-set paths of its kernels: scalar, and the lanes on
    /// AVX-512 and AVX2.
    pub const PATHS: &'static [Path] = &[
        cpu::PORTABLE,
        Path {
            simd: Simd::Avx512,
            needs: cpu::AVX512_LANES_NEEDS,
            detect: cpu::avx512_lanes,
        },
        Path {
            simd: Simd::Avx2,
            needs: cpu::AVX2_NEEDS,
            detect: cpu::avx2,
        },
    ];

    /// The engine's name in messages.
    pub const NAME: &'static str = "backtracking engine";

    /// The fastest of its [`PATHS`](Backtrack::PATHS) this CPU runs.
    pub fn fastest() -> Simd {
        cpu::fastest(Self::PATHS)
    }

    /// The engine counting `plan` on `simd`.
    ///
    /// # Errors
    /// [`Error::SimdUnavailable`] if this CPU does not run the engine on
    /// `simd`.
    pub fn new(plan: Plan, simd: Simd) -> Result<Backtrack, Error> {
        cpu::check(Self::NAME, Self::PATHS, simd)?;
        Ok(Backtrack { plan, simd })
    }

    /// Whether a test may run the engine on `simd` here (a skip is said,
    /// once); `false` for a path it does not have.
    #[doc(hidden)]
    pub fn runs_in(simd: Simd, test: &str) -> bool {
        cpu::path_runs_in(Self::PATHS, simd, "kernel", test)
    }

    /// The plan.
    pub fn plan(&self) -> &Plan {
        &self.plan
    }

    /// The instruction-set path it counts on.
    pub fn simd(&self) -> Simd {
        self.simd
    }

    fn count_item(&self, item: usize) -> Tally {
        let n = self.plan.n;
        let subproblems = self.plan.item(item);
        match self.simd {
            Simd::None => subproblems
                .map(|i| count_scalar(n, &self.plan.subproblem(i)))
                .fold(Tally::default(), Tally::sum),
            lanes_path => {
                let batch: Vec<Subproblem> = subproblems.map(|i| self.plan.subproblem(i)).collect();
                lanes::count(n, &batch, lanes_path)
            }
        }
    }
}

impl Engine for Backtrack {
    fn fingerprint(&self) -> Fingerprint {
        Fingerprint {
            engine: EngineId::Backtrack,
            n: self.plan.n,
            symmetry: self.plan.symmetry,
            depth: self.plan.depth,
            format: FORMAT,
            layout: None,
        }
    }

    fn items(&self) -> usize {
        self.plan.items()
    }

    fn cost(&self, item: usize) -> f64 {
        self.plan.item_cost(item)
    }

    fn count(&self, items: Range<usize>) -> Tally {
        items
            .map(|item| self.count_item(item))
            .fold(Tally::default(), Tally::sum)
    }

    fn simd(&self) -> Simd {
        self.simd
    }

    fn subproblems(&self) -> usize {
        self.plan.len()
    }

    fn least_one_thread_s(&self) -> f64 {
        // A plan the forecast cannot make is the workload's to refuse.
        self.search().least_one_thread_s(self.plan.n).unwrap_or(0.0)
    }

    fn workload(&self, _budget_s: f64) -> Result<Workload, Error> {
        self.search().workload(self.plan.n)
    }
}
