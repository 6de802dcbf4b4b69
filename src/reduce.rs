//! The reducer: what counted work adds up to, summed without overflow.
//!
//! Every engine returns a [`Tally`] per work item, and everything above the
//! engines (the pool, and next the journal, shards and MPI) only adds tallies
//! up. Weighted counts (symmetry none or mirror) are summed in `u128`; orbit
//! classes (full symmetry) saturate rather than wrap. The one conversion to
//! the `u64` a [`Count`](crate::Count) reports is [`Tally::total_u64`], which
//! refuses anything that does not fit.

use serde::{Deserialize, Serialize};

use crate::Error;

/// Solutions counted once per orbit, split by orbit size.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Classes {
    /// Orbits of 8 solutions: no symmetry.
    pub orbit8: u64,
    /// Orbits of 4: symmetric under the half turn only.
    pub orbit4: u64,
    /// Orbits of 2: symmetric under the quarter turn.
    pub orbit2: u64,
    /// Orbits of 1: the 1×1 board.
    pub orbit1: u64,
}

impl Classes {
    /// Solutions distinct up to rotation and reflection (A002562).
    pub fn unique(&self) -> u64 {
        // No larger than the total, which the engine has checked fits.
        self.orbit8
            .saturating_add(self.orbit4)
            .saturating_add(self.orbit2)
            .saturating_add(self.orbit1)
    }

    /// All solutions: each orbit counted with its size, in `u128`.
    pub fn total(&self) -> u128 {
        8 * u128::from(self.orbit8)
            + 4 * u128::from(self.orbit4)
            + 2 * u128::from(self.orbit2)
            + u128::from(self.orbit1)
    }

    /// Adds another tally. Sums saturate rather than wrap: a saturated class
    /// makes [`Classes::total`] exceed `u64::MAX`, which is reported as an
    /// overflow.
    pub fn add(&mut self, other: Classes) {
        self.orbit8 = self.orbit8.saturating_add(other.orbit8);
        self.orbit4 = self.orbit4.saturating_add(other.orbit4);
        self.orbit2 = self.orbit2.saturating_add(other.orbit2);
        self.orbit1 = self.orbit1.saturating_add(other.orbit1);
    }
}

/// What some work items add up to: weighted completions and orbit classes.
/// Tallies of disjoint items add up to the tally of their union, in any
/// order, on any machine.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tally {
    /// The sum of `weight × completions` over weighted subproblems
    /// (symmetry none or mirror).
    pub weighted: u128,
    /// Completions counted once per orbit (full symmetry).
    pub classes: Classes,
}

impl Tally {
    /// Adds another tally.
    pub fn add(&mut self, other: Tally) {
        self.weighted = self.weighted.saturating_add(other.weighted);
        self.classes.add(other.classes);
    }

    /// The sum of two tallies (for `reduce`).
    pub fn sum(mut self, other: Tally) -> Tally {
        self.add(other);
        self
    }

    /// All the solutions the tally stands for, in `u128`.
    pub fn total(&self) -> u128 {
        self.weighted.saturating_add(self.classes.total())
    }

    /// The total as a `u64`.
    ///
    /// # Errors
    /// [`Error::Overflow`] (for the n×n board) if it does not fit, or
    /// equals `u64::MAX`, where the kernels saturate.
    pub fn total_u64(&self, n: usize) -> Result<u64, Error> {
        u64::try_from(self.total())
            .ok()
            .filter(|&t| t != u64::MAX)
            .ok_or(Error::Overflow { n })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tallies_add_weights_and_classes() {
        let mut a = Tally {
            weighted: 10,
            classes: Classes {
                orbit8: 1,
                ..Classes::default()
            },
        };
        a.add(Tally {
            weighted: 5,
            classes: Classes {
                orbit4: 2,
                orbit2: 1,
                ..Classes::default()
            },
        });
        assert_eq!(a.total(), 15 + 8 + 8 + 2);
        assert_eq!(a.classes.unique(), 4);
        assert_eq!(a.total_u64(8), Ok(33));
    }

    #[test]
    fn a_total_past_u64_is_an_overflow_not_a_wrapped_count() {
        let big = Tally {
            weighted: u128::from(u64::MAX) + 1,
            classes: Classes::default(),
        };
        assert_eq!(big.total_u64(30), Err(Error::Overflow { n: 30 }));
        let saturated = Tally {
            weighted: 0,
            classes: Classes {
                orbit8: u64::MAX,
                ..Classes::default()
            },
        };
        assert_eq!(saturated.total_u64(30), Err(Error::Overflow { n: 30 }));
        let kernel_saturated = Tally {
            weighted: u128::from(u64::MAX),
            classes: Classes::default(),
        };
        assert_eq!(
            kernel_saturated.total_u64(30),
            Err(Error::Overflow { n: 30 })
        );
    }
}
