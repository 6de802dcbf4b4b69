//! The backtracking engine: a [`plan`] of weighted subproblems (the
//! first rows placed, one board per orbit of the chosen [symmetry]),
//! counted by a [kernel], scalar or in SIMD lanes.
//!
//! Its work items are the plan's: runs of consecutive subproblems of one
//! family, fixed by (n, symmetry, depth) alone.

pub mod estimate;
pub mod kernel;
pub mod plan;
pub mod rules;
pub mod state;
pub mod symmetry;

use std::ops::Range;

use self::kernel::{count_scalar, lanes, Kernel};
use self::plan::{Plan, Subproblem};
use super::{Engine, EngineId, Fingerprint};
use crate::problem::Error;
use crate::reduce::Tally;

/// The version of the backtracking engine's work items: bumped whenever
/// the plan's order or its cut into items changes, so that a journal or
/// shard of another version is refused.
pub const FORMAT: u32 = 1;

/// A plan and the kernel that counts it.
#[derive(Clone, Debug)]
pub struct Backtrack {
    plan: Plan,
    kernel: Kernel,
}

impl Backtrack {
    /// The engine counting `plan` with `kernel`.
    ///
    /// # Errors
    /// [`Error::CpuLacks`] if this machine cannot run `kernel`.
    pub fn new(plan: Plan, kernel: Kernel) -> Result<Backtrack, Error> {
        if !kernel.available() {
            return Err(Error::CpuLacks {
                path: "lanes kernel",
                needs: kernel.needs(),
            });
        }
        Ok(Backtrack { plan, kernel })
    }

    /// The plan.
    pub fn plan(&self) -> &Plan {
        &self.plan
    }

    /// The kernel.
    pub fn kernel(&self) -> Kernel {
        self.kernel
    }

    fn count_item(&self, item: usize) -> Tally {
        let n = self.plan.n;
        let subproblems = self.plan.item(item);
        match self.kernel {
            Kernel::Scalar => subproblems
                .map(|i| count_scalar(n, &self.plan.subproblem(i)))
                .fold(Tally::default(), Tally::sum),
            Kernel::Lanes => {
                let batch: Vec<Subproblem> = subproblems.map(|i| self.plan.subproblem(i)).collect();
                lanes::count(n, &batch)
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
}
