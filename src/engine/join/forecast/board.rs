//! The sketch of a whole count: the forecast of the join where its items
//! take too long to time whole (from n = 26). A sample of units (listed
//! items, or drawn slots) spread over the order is sketched one by one
//! (glue/sketch.rs: each item's glue and pair count done in part and
//! timed), the fixed-point searches costed by their model.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use crate::engine::join::count::burnside;

use crate::engine::join::order::cost;

use crate::engine::join::Join;
use crate::stats::{mix, Moments, SplitMix64};

/// The random draws of a sketch: the crate's stream, drawn the ways a
/// sketch needs.
pub(in crate::engine::join) struct Draws(SplitMix64);

impl Draws {
    pub(in crate::engine::join) fn new(seed: u64) -> Draws {
        Draws(SplitMix64::new(seed))
    }

    /// The draws of stream `index` of `seed`: its start mixed, so that no
    /// two indices' streams overlap (SplitMix64 steps its state by a
    /// constant; starts a multiple of it apart would give one stream
    /// shifted).
    pub(in crate::engine::join) fn stream(seed: u64, index: u64) -> Draws {
        Draws::new(mix(seed ^ mix(index)))
    }

    /// A number in `0..below` (`below` > 0).
    pub(in crate::engine::join) fn below(&mut self, below: usize) -> usize {
        self.0.below_by_remainder(below as u64) as usize
    }

    /// A number in [0, 1].
    pub(in crate::engine::join) fn fraction(&mut self) -> f64 {
        self.0.unit()
    }

    /// `taken` (at most `len`, `len` > 0) places of `0..len` spread evenly
    /// from a random start.
    pub(in crate::engine::join) fn spread(
        &mut self,
        len: usize,
        taken: usize,
    ) -> impl Iterator<Item = usize> {
        let stride = len as f64 / taken as f64;
        let start = self.0.unit() * stride;
        (0..taken).map(move |i| ((start + i as f64 * stride) as usize).min(len - 1))
    }

    /// A random unit of stretch `place` of `units` cut into `stretches`
    /// equal stretches: never one at a fixed stride, since the listed order
    /// is itself interleaved by bit reversal and a stride through it would
    /// meet the same few costs again and again.
    pub(in crate::engine::join) fn in_stretch(
        &mut self,
        place: u64,
        stretches: u64,
        units: u64,
    ) -> u64 {
        let (start, end) = (place * units / stretches, (place + 1) * units / stretches);
        start + self.0.below_by_remainder((end - start).max(1))
    }
}

/// The sketch of a whole count: a sample of its units (listed items, or
/// drawn slots) sketched one by one (`Join::sketch_item`), the
/// fixed-point searches by `cost::fixed`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sketch {
    /// Units in all: items where they are listed, slots where drawn.
    pub units: u64,
    /// Units per work item.
    pub per_item: u64,
    /// Units sketched.
    pub sampled: usize,
    /// Seconds the sketch took.
    pub sketched_s: f64,
    /// Seconds all the units should take on one thread.
    pub seconds: f64,
    /// The standard error of `seconds`, relative to it.
    pub relative_error: f64,
    /// The share of `seconds` spent gluing (the rest counts pairs).
    pub glue_share: f64,
    /// Seconds the largest work item should take, about: the largest unit
    /// sketched or fixed-point search, and the rest of its item at the
    /// mean. No count on any number of threads ends sooner.
    pub largest_s: f64,
}

/// Units sketched before the budget is looked at.
const FIRST_UNITS: usize = 16;

impl Join {
    /// Sketches up to `samples` units, one drawn at random (with `seed`)
    /// from each of as many equal stretches of the order, as many as about
    /// `budget_s` seconds allow (at least `FIRST_UNITS`), and forecasts the seconds all of
    /// them take on one thread of this machine: each unit stands for
    /// `units / sampled` of them. The units are sketched on the current
    /// rayon pool, each thread taking the next unit of the order's spread
    /// as it finishes one, until the budget is spent (but at least
    /// `FIRST_UNITS`, and one a thread); a unit taken is sketched to its
    /// end, so the units sketched are always the first so many of the
    /// spread, whichever thread took them. Each has draws of its own (from
    /// `seed` and its stretch): which units a sketch takes and how it
    /// samples each does not depend on the threads, only how many fit in
    /// the budget. A 64-core node sketches 64 times as many units as one
    /// thread in the same seconds, each timed while the others run, as a
    /// count's items are; no thread waits for another's slowest unit (in
    /// rounds of one unit a thread, each round waited for its slowest).
    pub fn sketch(&self, samples: usize, budget_s: f64, seed: u64) -> Sketch {
        let clock = Instant::now();
        let order = &self.order;
        let units = order.units();
        let grid = (samples.max(1) as u64).min(units.max(1));
        let fixed_s = |index: usize| cost::fixed(self.n, index) * 1e-9;
        // One unit's (seconds, glue seconds), drawn from stretch `place`.
        let sketch_unit = |place: usize| {
            let mut draws = Draws::stream(seed, place as u64);
            let unit = draws.in_stretch(place as u64, grid, units);
            match order.unit(unit) {
                None => (0.0, 0.0),
                Some(item) => match item.fixed_index() {
                    Some(index) => (fixed_s(index), 0.0),
                    None => {
                        let sketch = self.sketch_item(&item, &mut draws);
                        (sketch.seconds(), sketch.glue_s)
                    }
                },
            }
        };
        // Visited so that every prefix is spread over the whole order.
        let places: Vec<usize> = cost::interleave(grid as usize).collect();
        let least = FIRST_UNITS
            .max(rayon::current_num_threads())
            .min(places.len());
        let taken = AtomicUsize::new(0);
        let done = Mutex::new(Vec::with_capacity(places.len()));
        rayon::broadcast(|_| loop {
            // A unit is taken only while the budget lasts (or too few
            // are), and sketched to its end once taken.
            let next = taken.fetch_add(1, Ordering::Relaxed);
            if next >= places.len() || next >= least && clock.elapsed().as_secs_f64() > budget_s {
                break;
            }
            let (took, glued) = sketch_unit(places[next]);
            done.lock()
                .expect("a sketch's units")
                .push((next, took, glued));
        });
        let mut done = done.into_inner().expect("a sketch's units");
        // In the spread's order, whichever thread took each.
        done.sort_unstable_by_key(|&(next, _, _)| next);
        let seconds: Vec<f64> = done.iter().map(|&(_, took, _)| took).collect();
        let glue: f64 = done.iter().map(|&(_, _, glued)| glued).sum();
        let moments = Moments::of(seconds.iter().copied());
        let (sampled, mean) = (seconds.len().max(1) as f64, moments.mean());
        let largest_fixed = (0..burnside::items(self.n))
            .map(fixed_s)
            .fold(0.0, f64::max);
        let largest_unit = seconds.iter().copied().fold(largest_fixed, f64::max);
        let per_item = order.per_item();
        Sketch {
            units,
            per_item,
            sampled: seconds.len(),
            sketched_s: clock.elapsed().as_secs_f64(),
            seconds: mean * units as f64,
            relative_error: moments.relative_error(),
            glue_share: match mean > 0.0 {
                true => glue / sampled / mean,
                false => 0.0,
            },
            largest_s: largest_unit + (per_item - 1) as f64 * mean,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sketch_of_a_drawn_board_forecasts_every_slot() {
        let join = Join::new(26, Join::fastest(), u64::MAX).unwrap();
        let sketch = join.sketch(64, 0.0, 1);
        assert_eq!(
            sketch.sampled,
            FIRST_UNITS.max(rayon::current_num_threads()),
            "a spent budget stops at the first round of units"
        );
        assert!(
            sketch.seconds > 0.0 && sketch.seconds.is_finite(),
            "{sketch:?}"
        );
        assert!(sketch.relative_error.is_finite() && sketch.largest_s > 0.0);
        assert!((0.0..=1.0).contains(&sketch.glue_share));
        assert_eq!(sketch.per_item, sketch.units.div_ceil(1 << 22).max(1));
    }
}
