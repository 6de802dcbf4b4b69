//! One of the engines, chosen at run time: what the executors and reports
//! take when the choice is made by the caller.

use std::ops::Range;

use super::backtrack::Backtrack;
use super::cpu::Simd;
use super::forecast::Workload;
use super::join::Join;
use super::{Engine, Fingerprint};
use crate::problem::Error;
use crate::reduce::Tally;

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

    fn count(&self, items: Range<usize>) -> Tally {
        self.as_dyn().count(items)
    }

    fn items_with_fixed_points(&self) -> Vec<usize> {
        self.as_dyn().items_with_fixed_points()
    }

    fn simd(&self) -> Simd {
        self.as_dyn().simd()
    }

    fn subproblems(&self) -> usize {
        self.as_dyn().subproblems()
    }

    fn planned_bytes(&self) -> Option<u64> {
        self.as_dyn().planned_bytes()
    }

    fn least_one_thread_s(&self) -> f64 {
        self.as_dyn().least_one_thread_s()
    }

    fn workload(&self, budget_s: f64) -> Result<Workload, Error> {
        self.as_dyn().workload(budget_s)
    }
}
