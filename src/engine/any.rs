//! One of the engines, chosen at run time: what the executors and reports
//! take when the choice is made by the caller.

use std::ops::Range;

use super::backtrack::Backtrack;
use super::cpu::Simd;
use super::join::Join;
use super::{Engine, Fingerprint};
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

    /// The instruction-set path the engine counts on.
    pub fn simd(&self) -> Simd {
        match self {
            AnyEngine::Backtrack(engine) => engine.simd(),
            AnyEngine::Join(engine) => engine.simd(),
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
}
