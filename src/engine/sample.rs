//! Forecasting a count by timing a sample of its work items: items spread
//! evenly over their order by estimated cost (the sample is stratified by
//! cost), each counted alone on the calling thread, and the seconds per
//! unit of estimated cost carried over to every item.
//!
//! It serves engines without a search tree to probe (the join); it costs
//! about `samples / items` of the count.

use std::time::Instant;

use crate::engine::Engine;
use crate::stats::Moments;

/// A forecast from a timed sample of items.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sampled {
    /// Items in all.
    pub items: usize,
    /// Items in the sample.
    pub sampled: usize,
    /// Seconds the sample took.
    pub sampled_s: f64,
    /// The items' estimated cost, in all.
    pub total_cost: f64,
    /// Seconds every item should take on one thread.
    pub seconds: f64,
    /// The standard error of `seconds`, relative to it.
    pub relative_error: f64,
    /// Seconds the largest item should take on one thread: the most any
    /// stratum's pace makes of its costliest item ([`time_within`] also
    /// times the first item). No count on any number of threads ends
    /// sooner.
    pub largest_s: f64,
}

/// Times `samples` items of `engine` (fewer if it has fewer), spread over
/// their order by cost, and forecasts the seconds all of them take on one thread:
/// each sampled item stands for the items around it, at its seconds per
/// unit of cost. What an item builds for the others to share
/// ([`Engine::shared_s`]: the join's shared row sets, filled by the first
/// item that needs them) is taken out of its seconds and added once, with
/// what the rest of it should take: counted in each item's time, the
/// join's searched layout was forecast 1.18 and 1.29 times its count's CPU
/// seconds at n = 20 and 21 (results/2026-12-06-vm-layouts; a third of
/// the sample's time at 21 went to row sets the count fills once).
pub fn time_by_cost(engine: &dyn Engine, samples: usize) -> Sampled {
    let items = engine.items();
    let costs: Vec<f64> = (0..items).map(|i| engine.cost(i).max(1e-9)).collect();
    let total_cost: f64 = costs.iter().sum();
    let by_cost = by_cost(&costs);
    let sampled = samples.clamp(1, items.max(1)).min(items);
    let mut seconds = 0.0;
    let mut sampled_s = 0.0;
    let mut paces = Vec::with_capacity(sampled);
    let mut largest_s: f64 = 0.0;
    for k in 0..sampled {
        // Stratum k: the items at places [k·items/sampled,
        // (k+1)·items/sampled) of the order by cost, sampled at its middle.
        let (start, end) = (k * items / sampled, (k + 1) * items / sampled);
        let item = by_cost[(start + end) / 2];
        let shared = engine.shared_s();
        let clock = Instant::now();
        std::hint::black_box(engine.count(item..item + 1));
        let took = clock.elapsed().as_secs_f64();
        sampled_s += took;
        let own = (took - (engine.shared_s() - shared)).max(0.0);
        let pace = own / costs[item];
        let (sum, most) = by_cost[start..end]
            .iter()
            .fold((0.0, 0.0f64), |(sum, most), &i| {
                (sum + costs[i], most.max(costs[i]))
            });
        seconds += pace * sum;
        largest_s = largest_s.max(pace * most);
        paces.push(pace);
    }
    // Built once a count: all of it so far (this sample's, and an earlier
    // one's on the same engine), and the rest.
    seconds += engine.shared_s() + engine.shared_rest_s();
    let relative_error = Moments::of(paces).relative_error();
    Sampled {
        items,
        sampled,
        sampled_s,
        total_cost,
        seconds,
        relative_error,
        largest_s,
    }
}

/// The items' indices, costliest first (ties in index order).
fn by_cost(costs: &[f64]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..costs.len()).collect();
    order.sort_by(|&a, &b| costs[b].total_cmp(&costs[a]));
    order
}

/// The items a [`time_within`] times first, to learn what one costs.
pub const FIRST_SAMPLES: usize = 16;

/// [`time_by_cost`] with as many samples as fit in about `budget_s`
/// seconds, at most `max_samples`: a first pass of [`FIRST_SAMPLES`] tells
/// what an item takes, then the sample is drawn again as large as the
/// budget allows (at n = 22 the join's items take 0.2 s each: 256 of them,
/// 50 s, were timed before a count that said it would take 20 minutes).
///
/// The largest item's time is also bounded by the costliest item's by
/// estimate, timed once on its own unless the sample covered every item.
pub fn time_within(engine: &dyn Engine, max_samples: usize, budget_s: f64) -> Sampled {
    let mut sampled = drawn_within(engine, max_samples, budget_s);
    if engine.items() > 0 && sampled.sampled < engine.items() {
        let costliest = (0..engine.items())
            .max_by(|&a, &b| engine.cost(a).total_cmp(&engine.cost(b)))
            .unwrap_or(0);
        let clock = Instant::now();
        std::hint::black_box(engine.count(costliest..costliest + 1));
        let took = clock.elapsed().as_secs_f64();
        sampled.sampled_s += took;
        sampled.largest_s = sampled.largest_s.max(took);
    }
    sampled
}

/// The stratified sample [`time_within`] draws: a first pass, then one as
/// large as the budget allows.
fn drawn_within(engine: &dyn Engine, max_samples: usize, budget_s: f64) -> Sampled {
    let first = time_by_cost(engine, FIRST_SAMPLES.min(max_samples));
    if first.sampled >= engine.items() || first.sampled >= max_samples {
        return first;
    }
    let per_item_s = first.sampled_s / first.sampled.max(1) as f64;
    let affordable = (budget_s / per_item_s.max(1e-9)).min(max_samples as f64) as usize;
    if affordable <= first.sampled {
        return first;
    }
    time_by_cost(engine, affordable)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::join::Join;

    #[test]
    fn a_forecast_of_every_item_is_the_time_they_take() {
        let engine = Join::new(12, Join::fastest(), u64::MAX).unwrap();
        let all = time_by_cost(&engine, usize::MAX);
        assert_eq!(all.sampled, engine.items());
        assert!((all.seconds - all.sampled_s).abs() <= 1e-9 * all.seconds.max(1.0));
        let some = time_by_cost(&engine, 16);
        assert_eq!(some.sampled, 16);
        assert!(some.seconds > 0.0 && some.relative_error.is_finite());
    }

    #[test]
    fn a_budget_bounds_the_sample() {
        let engine = Join::new(12, Join::fastest(), u64::MAX).unwrap();
        let none = time_within(&engine, 256, 0.0);
        assert_eq!(none.sampled, FIRST_SAMPLES);
        let ample = time_within(&engine, 64, 60.0);
        assert_eq!(ample.sampled, 64);
    }
}
