//! The join's forecast: it has no search tree to probe, so up to
//! [`LARGEST_SAMPLED`] it times a sample of its own work items
//! ([`sample::time_within`]), and past it, where one item takes minutes to
//! days, it sketches a sample of its slots ([`Join::sketch`]): the board's
//! sketch ([`board`]) over items sketched one by one, each one's glue and
//! pairs done in part and timed ([`item`]).

pub(in crate::engine::join) mod board;
pub(in crate::engine::join) mod item;
#[cfg(test)]
mod parts;

pub use self::board::Sketch;

use super::{Join, JoinLayout, LARGEST_SAMPLED};
use crate::engine::forecast::{Basis, Workload};
use crate::engine::{sample, Engine};

/// The join's items timed at most for a forecast of up to
/// [`BUDGET_STEP_S`] (as many more for each further step of budget).
pub const JOIN_SAMPLES: usize = 256;

/// The join's pair slots sketched at most for a forecast (past
/// [`LARGEST_SAMPLED`]) of up to [`BUDGET_STEP_S`], as many more for each
/// further step: as many as the budget allows (on 2 threads in 20 s,
/// n = 26: about 115; n = 28 about 55; a 64-core node can reach the
/// bound). Empty slots are drawn again, not sketched: a census weighs
/// the slots sketched ([`Join::sketch`]).
pub const JOIN_SKETCHES: usize = 4096;

/// The budget [`JOIN_SAMPLES`] and [`JOIN_SKETCHES`] are sized for, and
/// `estimate`'s default: a longer budget may take more in proportion, so
/// that `estimate --budget` narrows the band on any number of threads.
pub const BUDGET_STEP_S: f64 = 20.0;

/// `most` for a budget of [`BUDGET_STEP_S`], scaled to `budget_s`: never
/// fewer, more in proportion to a longer budget.
fn most_within(most: usize, budget_s: f64) -> usize {
    let steps = (budget_s / BUDGET_STEP_S).max(1.0);
    (most as f64 * steps).min(u32::MAX as f64) as usize
}

/// How far a sketch of the join's items ([`Join::sketch`]) strays from
/// timing them, relative, taken as two standard errors of its own in a
/// sketched forecast's spread. Measured (results/2026-12-02-vm-sketch,
/// -sketch-boards): whole boards' sketches 1.09, 1.06 and 1.04 times the
/// forecast from timing whole items at n = 22, 24 and 25; sketched items
/// 0.94, 0.985, 1.21 and 0.77 of their whole counts' time at n = 24, 25,
/// 26 and 27 (24, 16, 5 and 3 items). With key passes (results/
/// 2026-12-03-vm-sketch): 1.064 at n = 26 (8 units, each 0.89-1.33) and
/// 1.053 at 27 (3 units, 0.80-1.97); at n = 28 (-sketch-28) 0.72 (3
/// units, 0.59-1.68): the largest, bound by its pairs, took 1.7 times its
/// sketch. 0.40 keeps that inside the band (0.20 did not).
pub const SKETCH_ERROR: f64 = 0.40;

/// The join's seconds per unit of cost on the reference machine's thread:
/// its units are nanoseconds there ([`Join::costs`]). Counts whose items
/// add up to less than a quarter of a threshold at this pace (no machine
/// is 4× faster a thread) are not sampled.
const FASTEST_S_PER_COST: f64 = 1e-9 / 4.0;

impl Join {
    /// Seconds on one thread no machine beats: the items' costs at a pace
    /// four times the reference machine's; infinite past
    /// [`LARGEST_SAMPLED`], where every count is long, and for the
    /// searched layout, whose costs are slots, not nanoseconds (no quick
    /// bound: its forecast always times a sample).
    pub(super) fn least_seconds(&self) -> f64 {
        if self.n > LARGEST_SAMPLED || self.layout == JoinLayout::Searched {
            return f64::INFINITY;
        }
        (0..self.items()).map(|i| self.cost(i)).sum::<f64>() * FASTEST_S_PER_COST
    }

    /// The forecast of every item on one thread: a sample of items timed,
    /// or past [`LARGEST_SAMPLED`] a sketch of slots, in about `budget_s`.
    pub(super) fn forecast(&self, budget_s: f64) -> Workload {
        if self.n > LARGEST_SAMPLED {
            let most = most_within(JOIN_SKETCHES, budget_s);
            let sketch = self.sketch(most, budget_s, self.n as u64);
            // The sample's spread, and the sketch's own error against
            // whole counts as two standard errors of its own.
            return Workload {
                one_thread_s: sketch.seconds,
                relative_error: sketch.relative_error.hypot(SKETCH_ERROR / 2.0),
                basis: Basis::Sketch {
                    units: sketch.units,
                    units_per_item: sketch.per_item,
                    sampled_units: sketch.sampled,
                    sketched_s: sketch.sketched_s,
                    glue_share: sketch.glue_share,
                    largest_item_s: sketch.largest_s,
                },
            };
        }
        let sampled = sample::time_within(self, most_within(JOIN_SAMPLES, budget_s), budget_s);
        Workload {
            one_thread_s: sampled.seconds,
            relative_error: sampled.relative_error,
            basis: Basis::Sample {
                items: sampled.items,
                sampled_items: sampled.sampled,
                sampled_s: sampled.sampled_s,
                largest_item_s: sampled.largest_s,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_longer_budget_takes_more_in_proportion_and_a_shorter_no_fewer() {
        assert_eq!(most_within(256, BUDGET_STEP_S), 256);
        assert_eq!(most_within(256, 1.0), 256, "a short budget keeps the bound");
        assert_eq!(most_within(256, 5.0 * BUDGET_STEP_S), 1280);
        assert_eq!(most_within(4096, 1.5 * BUDGET_STEP_S), 6144);
    }
}
