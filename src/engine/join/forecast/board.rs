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

use crate::engine::join::count::items::Item;
use crate::engine::join::Join;
use crate::stats::{mix, SplitMix64, Strata};
use rayon::prelude::*;

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

    /// A number in `0..below` (`below` > 0), by multiply-shift.
    pub(in crate::engine::join) fn below_u64(&mut self, below: u64) -> u64 {
        self.0.below(below)
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
    /// Pair units sketched (empty slots and fixed-point searches are
    /// not: the census weighs the one, the model costs the other).
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

/// Units a sketch's census draws: which stratum each falls into, or
/// none (an empty slot, a fixed-point search). Its shares then stray by
/// about 0.3 % (n = 28: a quarter of the slots hold pair items, a third
/// of those lie in the largest stratum), in a fraction of a second.
const CENSUS: u64 = 1 << 20;

/// Census draws a task: one stream each.
const CENSUS_TASK: u64 = 1 << 14;

/// Tries to draw a pair unit within a stretch of the order: three slots
/// in four are empty past n = 25, so all of them miss 1 time in 10^32.
const TRIES: usize = 256;

/// Strata of pair units: by how many of their own rows lie north (0..=16).
const STRATA: usize = u16::BITS as usize + 1;

/// A pair unit's stratum: how many of the rows its half is glued on lie
/// north. Its seconds follow it far more than they follow the place of
/// the rows: slots of n = 28 with 7 of 14 rows north take 310 s on
/// average, with 9 77 s, with 5 99 s, and within each the spread is 0.45-
/// 0.75 of the mean; sorted by it, a sample's variance is 0.61-0.64 of
/// one mean's over all at n = 26 and 28, 0.80 at 27 (results/
/// 2026-12-06-vm-sketch-strata).
fn stratum(item: &Item) -> usize {
    item.north.count_ones() as usize
}

impl Join {
    /// Sketches up to `samples` pair units, one drawn at random (with
    /// `seed`) from each of as many equal stretches of the order, as many
    /// as about `budget_s` seconds allow (at least `FIRST_UNITS`), and
    /// forecasts the seconds all the units take on one thread of this
    /// machine.
    ///
    /// Each pair unit stands for its stratum ([`stratum`]): a census of
    /// [`CENSUS`] units drawn at random says what share of the order each
    /// stratum holds (empty slots in none), and the forecast is each
    /// stratum's share times its sketched units' mean ([`Strata`]). A
    /// stretch's draw that is empty or a fixed-point search is drawn
    /// again, so the units sketched are all pair units; the fixed-point
    /// searches are all costed by their model (`cost::fixed`).
    ///
    /// The units are sketched on the current rayon pool, each thread
    /// taking the next unit of the order's spread as it finishes one,
    /// until the budget is spent (but at least `FIRST_UNITS`, and one a
    /// thread); a unit taken is sketched to its end, so the units
    /// sketched are always the first so many of the spread, whichever
    /// thread took them. Each has draws of its own (from `seed` and its
    /// stretch): which units a sketch takes and how it samples each does
    /// not depend on the threads, only how many fit in the budget. A
    /// 64-core node sketches 64 times as many units as one thread in the
    /// same seconds, each timed while the others run, as a count's items
    /// are; no thread waits for another's slowest unit.
    pub fn sketch(&self, samples: usize, budget_s: f64, seed: u64) -> Sketch {
        let clock = Instant::now();
        let order = &self.order;
        let units = order.units();
        let grid = (samples.max(1) as u64).min(units.max(1));
        let fixed_s = |index: usize| cost::fixed(self.n, index) * 1e-9;
        let census = self.census(seed);
        // One pair unit's (stratum, seconds, glue seconds), drawn from
        // stretch `place`.
        let sketch_unit = |place: usize| {
            let mut draws = Draws::stream(seed, place as u64);
            (0..TRIES).find_map(|_| {
                let unit = draws.in_stretch(place as u64, grid, units);
                let item = order.pair_unit(unit)?;
                let sketch = self.sketch_item(&item, &mut draws);
                Some((stratum(&item), sketch.seconds(), sketch.glue_s))
            })
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
            if let Some(unit) = sketch_unit(places[next]) {
                done.lock().expect("a sketch's units").push((next, unit));
            }
        });
        let mut done = done.into_inner().expect("a sketch's units");
        // In the spread's order, whichever thread took each.
        done.sort_unstable_by_key(|&(next, _)| next);
        let (mut seconds, mut glue) = (census.clone(), census);
        for &(_, (stratum, took, glued)) in &done {
            seconds.push(stratum, took);
            glue.push(stratum, glued);
        }
        let (mean, glue) = (seconds.mean(), glue.mean());
        let fixed: Vec<f64> = (0..burnside::items(self.n)).map(fixed_s).collect();
        let pairs_s = mean.mean * units as f64;
        let largest_fixed = fixed.iter().copied().fold(0.0, f64::max);
        let largest_unit = done
            .iter()
            .map(|&(_, (_, took, _))| took)
            .fold(largest_fixed, f64::max);
        let per_item = order.per_item();
        let total = pairs_s + fixed.iter().sum::<f64>();
        Sketch {
            units,
            per_item,
            sampled: seconds.sampled(),
            sketched_s: clock.elapsed().as_secs_f64(),
            seconds: total,
            relative_error: match total > 0.0 {
                true => mean.standard_error * units as f64 / total,
                false => 0.0,
            },
            glue_share: match total > 0.0 {
                true => (glue.mean * units as f64 / total).min(1.0),
                false => 0.0,
            },
            largest_s: largest_unit + (per_item - 1) as f64 * total / units.max(1) as f64,
        }
    }

    /// The strata's shares of the order ([`CENSUS`] units drawn at random
    /// with `seed`, in tasks on the current rayon pool), no values yet.
    fn census(&self, seed: u64) -> Strata {
        let (order, units) = (&self.order, self.order.units());
        if units == 0 {
            return Strata::new(vec![0; STRATA], 0);
        }
        let tasks = CENSUS.div_ceil(CENSUS_TASK);
        let counts = (0..tasks)
            .into_par_iter()
            .map(|task| {
                // Streams of their own, apart from the stretches'.
                let mut draws = Draws::stream(!seed, task);
                let mut counts = vec![0u64; STRATA];
                for _ in 0..CENSUS_TASK {
                    let unit = draws.below_u64(units);
                    if let Some(item) = order.pair_unit(unit) {
                        counts[stratum(&item)] += 1;
                    }
                }
                counts
            })
            .reduce(
                || vec![0u64; STRATA],
                |mut a, b| {
                    a.iter_mut().zip(b).for_each(|(a, b)| *a += b);
                    a
                },
            );
        Strata::new(counts, tasks * CENSUS_TASK)
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

    #[test]
    fn the_census_gives_each_stratum_its_share_of_the_order() {
        // A listed board, whose units can all be looked at: every
        // stratum's share of the census within four standard errors of
        // its share of the order (fixed-point searches in none).
        let join = Join::new(20, Join::fastest(), u64::MAX).unwrap();
        let units = join.order.units();
        let mut exact = [0u64; STRATA];
        for unit in 0..units {
            let item = join.order.unit(unit).unwrap();
            if item.fixed_index().is_none() {
                exact[stratum(&item)] += 1;
            }
        }
        assert!(exact.iter().filter(|&&c| c > 0).count() > 3, "{exact:?}");
        let census = join.census(7);
        for (s, &count) in exact.iter().enumerate() {
            let share = count as f64 / units as f64;
            let error = (share * (1.0 - share) / CENSUS as f64).sqrt();
            assert!(
                (census.share(s) - share).abs() <= 4.0 * error + 1e-12,
                "stratum {s}: census {} against {share}",
                census.share(s)
            );
        }
        // A drawn board's census finds its empty slots: about three in
        // four at n = 26.
        let drawn = Join::new(26, Join::fastest(), u64::MAX).unwrap().census(7);
        let pairs: f64 = (0..STRATA).map(|s| drawn.share(s)).sum();
        assert!((0.2..0.3).contains(&pairs), "{pairs}");
    }
}
