//! Timed passes of a rating's workload: every thread counts whole units
//! (one engine's whole board) one after another until the window closes.
//!
//! A unit is counted on the thread that takes it, from the engine's
//! prepared tables (built once, shared by every thread, not timed), so the
//! work a unit stands for is the same on every machine and at every thread
//! count: the rate of T threads is T times the rate of one on a machine
//! that scales perfectly. Each thread's rate is its units over its own time
//! (it stops at the first unit ending after the window), so a unit cut by
//! the window's end biases nothing; a pass's rate is the sum over threads.
//! Every unit's total is checked: a wrong one ends the pass. Rounds of
//! passes on each thread count make the [`Point`]s of a rating.

use std::sync::Barrier;
use std::time::{Duration, Instant};

use crate::engine::Engine;
use crate::stats::Moments;

/// One part of a workload: an engine whose whole count is a unit, and
/// the total each unit must give.
pub struct Part<'a> {
    /// Counts a unit: all its items.
    pub engine: &'a dyn Engine,
    /// The total of a unit.
    pub expected: u128,
}

/// A unit that counted wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WrongCount {
    /// The total a unit must give.
    pub expected: u128,
    /// The total it gave.
    pub counted: u128,
}

/// The units per second of `threads` threads counting units of `part`
/// for `window`.
///
/// # Errors
/// [`WrongCount`] if any unit's total differs from `part.expected`.
pub fn pass(part: &Part<'_>, threads: usize, window: Duration) -> Result<f64, WrongCount> {
    let threads = threads.max(1);
    let start = Barrier::new(threads);
    let rates: Vec<Result<f64, WrongCount>> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| scope.spawn(|| units_per_second(part, &start, window)))
            .collect();
        workers
            .into_iter()
            .map(|w| w.join().expect("a rating thread panicked"))
            .collect()
    });
    rates.into_iter().sum()
}

/// One thread's units per second, from when every thread is ready.
fn units_per_second(part: &Part<'_>, start: &Barrier, window: Duration) -> Result<f64, WrongCount> {
    let items = 0..part.engine.items();
    start.wait();
    let began = Instant::now();
    let mut units = 0u32;
    loop {
        let counted = part.engine.count(items.clone()).total();
        if counted != part.expected {
            return Err(WrongCount {
                expected: part.expected,
                counted,
            });
        }
        units += 1;
        let elapsed = began.elapsed();
        if elapsed >= window {
            return Ok(f64::from(units) / elapsed.as_secs_f64());
        }
    }
}

/// A point's passes are enough once the standard error of its rating is
/// under this, relative.
pub const SETTLED_SPREAD: f64 = 0.01;

/// Passes every point takes before it may be settled.
pub const MIN_PASSES: usize = 3;

/// The rating on one thread count.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Point {
    /// The threads that counted.
    pub threads: usize,
    /// The geometric mean of the parts' units per second.
    pub rating: f64,
    /// Each part's units per second, in the order of the parts.
    pub parts: [f64; 2],
    /// The standard error of the rating (the mean of its passes),
    /// relative to it.
    pub spread: f64,
    /// The mean rating of the second half of the passes over the first
    /// half's, less 1: the machine's speed moving while it was rated.
    pub drift: f64,
    /// The passes taken.
    pub passes: usize,
    /// Whether the spread came under [`SETTLED_SPREAD`] within the time
    /// budget.
    pub settled: bool,
}

/// Rounds of passes of both parts, one on each thread count in turn (so
/// that a machine whose speed drifts moves every point alike, and the
/// scaling stays true), until every point's standard error is under
/// [`SETTLED_SPREAD`] or `budget_s` is spent.
///
/// # Errors
/// [`WrongCount`] if any unit counted wrong.
pub fn points(
    parts: &[Part<'_>; 2],
    counts: &[usize],
    window: Duration,
    budget_s: f64,
) -> Result<Vec<Point>, WrongCount> {
    let began = Instant::now();
    let mut passes: Vec<Vec<(f64, f64)>> = vec![Vec::new(); counts.len()];
    loop {
        for (&threads, passes) in counts.iter().zip(&mut passes) {
            let first = pass(&parts[0], threads, window)?;
            let second = pass(&parts[1], threads, window)?;
            passes.push((first, second));
        }
        let rounds = passes[0].len();
        if rounds < MIN_PASSES {
            continue;
        }
        let points: Vec<Point> = counts
            .iter()
            .zip(&passes)
            .map(|(&threads, passes)| point(threads, passes))
            .collect();
        let round_s = began.elapsed().as_secs_f64() / rounds as f64;
        if points.iter().all(|p| p.settled) || began.elapsed().as_secs_f64() + round_s > budget_s {
            return Ok(points);
        }
    }
}

/// The point of `threads` threads from its passes' rates (one per part).
fn point(threads: usize, passes: &[(f64, f64)]) -> Point {
    let ratings: Vec<f64> = passes.iter().map(|&(j, b)| (j * b).sqrt()).collect();
    let mean = |values: &mut dyn Iterator<Item = f64>| Moments::of(values).mean();
    let spread = Moments::of(ratings.iter().copied()).relative_error();
    let half = ratings.len() / 2;
    Point {
        threads,
        rating: mean(&mut ratings.iter().copied()),
        parts: [
            mean(&mut passes.iter().map(|p| p.0)),
            mean(&mut passes.iter().map(|p| p.1)),
        ],
        spread,
        drift: mean(&mut ratings[ratings.len() - half..].iter().copied())
            / mean(&mut ratings[..half].iter().copied())
            - 1.0,
        passes: passes.len(),
        settled: spread < SETTLED_SPREAD,
    }
}

#[cfg(test)]
mod tests {
    use std::ops::Range;

    use super::*;
    use crate::engine::cpu::Simd;
    use crate::engine::forecast::{Basis, Workload};
    use crate::engine::{EngineId, Fingerprint};
    use crate::reduce::Tally;
    use crate::Symmetry;

    /// An engine whose one item sleeps 2 ms and counts `total`.
    struct Sleeper {
        total: u128,
    }

    impl Engine for Sleeper {
        fn fingerprint(&self) -> Fingerprint {
            Fingerprint {
                engine: EngineId::Backtrack,
                n: 1,
                symmetry: Symmetry::None,
                depth: 1,
                format: 0,
                layout: None,
            }
        }

        fn items(&self) -> usize {
            1
        }

        fn cost(&self, _: usize) -> f64 {
            1.0
        }

        fn count(&self, _: Range<usize>) -> Tally {
            std::thread::sleep(Duration::from_millis(2));
            Tally {
                weighted: self.total,
                ..Tally::default()
            }
        }

        fn simd(&self) -> Simd {
            Simd::None
        }

        fn subproblems(&self) -> usize {
            1
        }

        fn least_one_thread_s(&self) -> f64 {
            0.002
        }

        fn workload(&self, _: f64) -> Result<Workload, crate::Error> {
            Ok(Workload {
                one_thread_s: 0.002,
                relative_error: 0.0,
                basis: Basis::Sample {
                    items: 1,
                    sampled_items: 0,
                    sampled_s: 0.0,
                    largest_item_s: 0.002,
                },
            })
        }
    }

    #[test]
    fn threads_add_their_rates_and_a_wrong_count_ends_the_pass() {
        let engine = Sleeper { total: 92 };
        let part = Part {
            engine: &engine,
            expected: 92,
        };
        let window = Duration::from_millis(60);
        let one = pass(&part, 1, window).unwrap();
        // Sleeping threads scale on any machine: four rate about 4x one
        // (a loaded machine oversleeps some passes more than others: 4.51x
        // seen while a count ran beside the tests).
        let four = pass(&part, 4, window).unwrap();
        assert!(one > 100.0 && one <= 500.0, "{one} units/s");
        assert!((3.0..=5.5).contains(&(four / one)), "{four} vs {one}");
        let wrong = Part {
            engine: &engine,
            expected: 91,
        };
        assert_eq!(
            pass(&wrong, 2, window),
            Err(WrongCount {
                expected: 91,
                counted: 92
            })
        );
    }
}
