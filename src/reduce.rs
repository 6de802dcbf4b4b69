//! The reducer: what counted work adds up to, summed without overflow.
//!
//! Every engine returns a [`Tally`] per work item, and everything above the
//! engines (the pool, and next the journal, shards and MPI) only adds tallies
//! up. Weighted counts (symmetry none or mirror) and orbit classes (full
//! symmetry) are summed in `u128` (Q(32) is about 10²², past `u64` from
//! n = 29), saturating rather than wrapping; the one way to the total a
//! [`Count`](crate::Count) reports is [`Tally::total_checked`], which
//! refuses a saturated sum.

use serde::{Deserialize, Serialize};

use crate::problem::Error;

/// Solutions counted once per orbit, split by orbit size.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Classes {
    /// Orbits of 8 solutions: no symmetry.
    pub orbit8: u128,
    /// Orbits of 4: symmetric under the half turn only.
    pub orbit4: u128,
    /// Orbits of 2: symmetric under the quarter turn.
    pub orbit2: u128,
    /// Orbits of 1: the 1×1 board.
    pub orbit1: u128,
}

impl Classes {
    /// Solutions distinct up to rotation and reflection (A002562).
    pub fn unique(&self) -> u128 {
        self.orbit8
            .saturating_add(self.orbit4)
            .saturating_add(self.orbit2)
            .saturating_add(self.orbit1)
    }

    /// All solutions: each orbit counted with its size (saturating).
    pub fn total(&self) -> u128 {
        [
            (self.orbit8, 8),
            (self.orbit4, 4),
            (self.orbit2, 2),
            (self.orbit1, 1),
        ]
        .iter()
        .fold(0u128, |sum, &(orbits, size)| {
            sum.saturating_add(orbits.saturating_mul(size))
        })
    }

    /// Adds another tally. Sums saturate rather than wrap: a saturated class
    /// makes [`Classes::total`] `u128::MAX`, which is reported as an
    /// overflow.
    pub fn add(&mut self, other: Classes) {
        self.orbit8 = self.orbit8.saturating_add(other.orbit8);
        self.orbit4 = self.orbit4.saturating_add(other.orbit4);
        self.orbit2 = self.orbit2.saturating_add(other.orbit2);
        self.orbit1 = self.orbit1.saturating_add(other.orbit1);
    }
}

impl Classes {
    /// The classes by Burnside's lemma, from the `total` and the solutions
    /// `fixed` by the rotations: a solution's orbit has 8 / |stabilizer|
    /// members, and only rotations can fix a solution of n >= 2.
    ///
    /// # Errors
    /// [`Error::Burnside`] if the numbers cannot come from one board (a
    /// count is wrong somewhere).
    pub fn by_burnside(n: usize, total: u128, fixed: Fixed) -> Result<Classes, Error> {
        let Fixed {
            half_turn,
            quarter_turn,
            every,
        } = fixed;
        let (half_turn, quarter_turn, every) = (
            u128::from(half_turn),
            u128::from(quarter_turn),
            u128::from(every),
        );
        // Fixed by every symmetry ⊆ by the quarter turn ⊆ by the half turn.
        let parts = [
            (total.checked_sub(half_turn), 8),
            (half_turn.checked_sub(quarter_turn), 4),
            (quarter_turn.checked_sub(every), 2),
            (Some(every), 1),
        ];
        let mut orbits = [0u128; 4];
        for (orbit, (part, size)) in orbits.iter_mut().zip(parts) {
            *orbit = part
                .filter(|p| p % size == 0)
                .map(|p| p / size)
                .ok_or(Error::Burnside { n })?;
        }
        let [orbit8, orbit4, orbit2, orbit1] = orbits;
        Ok(Classes {
            orbit8,
            orbit4,
            orbit2,
            orbit1,
        })
    }
}

/// Solutions fixed by the rotations of the square: what Burnside's lemma
/// needs besides the total to count orbits.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fixed {
    /// Solutions the half turn leaves unchanged.
    pub half_turn: u64,
    /// Solutions the quarter turn leaves unchanged (among them).
    pub quarter_turn: u64,
    /// Solutions every symmetry leaves unchanged (the 1×1 board's).
    pub every: u64,
}

impl Fixed {
    /// Adds another count.
    pub fn add(&mut self, other: Fixed) {
        self.half_turn = self.half_turn.saturating_add(other.half_turn);
        self.quarter_turn = self.quarter_turn.saturating_add(other.quarter_turn);
        self.every = self.every.saturating_add(other.every);
    }
}

/// What some work items add up to: weighted completions and orbit classes.
/// Tallies of disjoint items add up to the tally of their union, in any
/// order, on any machine.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tally {
    /// The sum of `weight × completions` over weighted subproblems
    /// (symmetry none or mirror, and the join).
    pub weighted: u128,
    /// Completions counted once per orbit (full symmetry).
    pub classes: Classes,
    /// The solutions fixed by the rotations, where the items counted them
    /// (the join's first item does); absent elsewhere.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fixed: Option<Fixed>,
}

impl Tally {
    /// Adds another tally.
    pub fn add(&mut self, other: Tally) {
        self.weighted = self.weighted.saturating_add(other.weighted);
        self.classes.add(other.classes);
        self.fixed = match (self.fixed, other.fixed) {
            (Some(mut a), Some(b)) => {
                a.add(b);
                Some(a)
            }
            (a, b) => a.or(b),
        };
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

    /// The total, checked.
    ///
    /// # Errors
    /// [`Error::Overflow`] (for the n×n board) if a sum saturated: the
    /// total is `u128::MAX`, or a count of orbits or weighted solutions
    /// reached it.
    pub fn total_checked(&self, n: usize) -> Result<u128, Error> {
        Some(self.total())
            .filter(|&t| t != u128::MAX && self.weighted != u128::MAX)
            .ok_or(Error::Overflow { n })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn burnside_sorts_the_total_into_orbits() {
        // n = 8: 92 solutions, 4 fixed by the half turn, none by the
        // quarter turn: 11 orbits of 8 and 1 of 4.
        let fixed = Fixed {
            half_turn: 4,
            ..Fixed::default()
        };
        let eight = Classes::by_burnside(8, 92, fixed).unwrap();
        assert_eq!((eight.orbit8, eight.orbit4, eight.unique()), (11, 1, 12));
        let one = Fixed {
            half_turn: 1,
            quarter_turn: 1,
            every: 1,
        };
        assert_eq!(Classes::by_burnside(1, 1, one).unwrap().orbit1, 1);
        assert_eq!(
            Classes::by_burnside(8, 93, fixed),
            Err(Error::Burnside { n: 8 })
        );
    }

    #[test]
    fn tallies_add_weights_and_classes() {
        let mut a = Tally {
            weighted: 10,
            classes: Classes {
                orbit8: 1,
                ..Classes::default()
            },
            fixed: None,
        };
        a.add(Tally {
            weighted: 5,
            classes: Classes {
                orbit4: 2,
                orbit2: 1,
                ..Classes::default()
            },
            fixed: None,
        });
        assert_eq!(a.total(), 15 + 8 + 8 + 2);
        assert_eq!(a.classes.unique(), 4);
        assert_eq!(a.total_checked(8), Ok(33));
    }

    #[test]
    fn tallies_past_u64_survive_json_exactly() {
        // Journals, shard files and MPI carry tallies as JSON: Q(32) is
        // about 10^22.
        let tally = Tally {
            weighted: 22_000_000_000_000_000_000_123,
            classes: Classes {
                orbit8: u128::from(u64::MAX) * 3 + 7,
                orbit4: 1 << 100,
                orbit2: 5,
                orbit1: 0,
            },
            fixed: None,
        };
        let text = serde_json::to_string(&tally).unwrap();
        assert!(text.contains("22000000000000000000123"), "{text}");
        assert_eq!(serde_json::from_str::<Tally>(&text).unwrap(), tally);
    }

    #[test]
    fn totals_past_u64_are_exact_and_a_saturated_sum_is_an_overflow() {
        // Q(32) is about 10^22: past u64, exact in u128.
        let big = Tally {
            weighted: u128::from(u64::MAX) + 1,
            classes: Classes {
                orbit8: u128::from(u64::MAX),
                ..Classes::default()
            },
            fixed: None,
        };
        let expected = u128::from(u64::MAX) + 1 + 8 * u128::from(u64::MAX);
        assert_eq!(big.total_checked(30), Ok(expected));
        let mut sum = big;
        sum.add(big);
        assert_eq!(sum.total_checked(30), Ok(2 * expected));
        let saturated = Tally {
            weighted: 0,
            classes: Classes {
                orbit8: u128::MAX / 4,
                ..Classes::default()
            },
            fixed: None,
        };
        assert_eq!(saturated.total_checked(30), Err(Error::Overflow { n: 30 }));
        let weighted_saturated = Tally {
            weighted: u128::MAX,
            classes: Classes::default(),
            fixed: None,
        };
        assert_eq!(
            weighted_saturated.total_checked(30),
            Err(Error::Overflow { n: 30 })
        );
    }
}
