//! How long a count will take, before it runs: the one model behind
//! `estimate`, the warning `count` and `verify` print before a long count,
//! and a library user's own planning.
//!
//! The engine says what every item costs on one thread, by its own method
//! ([`Engine::workload`]: the backtracker probes its tree and times a
//! smaller board, the join times or sketches a sample of its items). Here
//! that becomes wall time on T threads, assuming they count
//! [`PARALLEL_EFFICIENCY`] as fast as T single threads, with a spread of two
//! standard errors either side, never below the largest item's time, which
//! no number of threads shortens. The one-thread time is the count's core
//! time.

use serde::Serialize;

pub use crate::engine::forecast::{Basis, Workload};
use crate::engine::Engine;
use crate::problem::Error;

/// The share of T single threads' pace that T threads reach (measured
/// 1.93–1.96 for 2 threads, see results/).
pub const PARALLEL_EFFICIENCY: f64 = 0.97;

/// A forecast of a count: its wall time on some threads, the spread, and
/// what it rests on.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[non_exhaustive]
pub struct Forecast {
    /// The board size.
    pub n: usize,
    /// The threads the count would run on (1 for a serial search).
    pub threads: usize,
    /// Wall seconds on `threads` threads.
    pub estimated_s: f64,
    /// Two standard errors below, in seconds.
    pub estimated_low_s: f64,
    /// Two standard errors above, in seconds.
    pub estimated_high_s: f64,
    /// Seconds on one thread: the count's core time (core-hours = this /
    /// 3600).
    pub one_thread_s: f64,
    /// What it rests on.
    #[serde(flatten)]
    pub basis: Basis,
}

impl Forecast {
    /// How big the count is, in words: `1.23e+12 nodes in all`, or
    /// `176871 work items, 105 timed`.
    pub fn size(&self) -> String {
        self.basis.size()
    }
}

/// The forecast of counting every item of `engine` on `threads` threads;
/// with `longer_than`, `None` for a count that surely takes less (decided
/// in milliseconds by a pace no machine beats, before anything is timed).
/// The engine's method spends about `budget_s` seconds.
///
/// # Errors
/// What the engine's forecast refuses ([`Engine::workload`]).
pub fn forecast(
    engine: &dyn Engine,
    threads: usize,
    longer_than: Option<f64>,
    budget_s: f64,
) -> Result<Option<Forecast>, Error> {
    forecast_with(
        engine.fingerprint().n,
        threads,
        longer_than,
        || Ok(engine.least_one_thread_s()),
        || engine.workload(budget_s),
    )
}

/// [`forecast`] of work that is not an engine's items (a serial search):
/// `least` is the quick lower bound of its one-thread seconds, `workload`
/// its forecast on one thread.
///
/// # Errors
/// What `least` or `workload` return.
pub fn forecast_with(
    n: usize,
    threads: usize,
    longer_than: Option<f64>,
    least: impl FnOnce() -> Result<f64, Error>,
    workload: impl FnOnce() -> Result<Workload, Error>,
) -> Result<Option<Forecast>, Error> {
    let threads = threads.max(1);
    if let Some(threshold) = longer_than {
        if least()? / (threads as f64) < threshold {
            return Ok(None);
        }
    }
    let Workload {
        one_thread_s,
        relative_error,
        basis,
    } = workload()?;
    let forecast = spread(n, threads, one_thread_s, relative_error, basis);
    Ok(wanted(forecast, longer_than))
}

/// The forecast, unless it is shorter than the threshold asked for.
fn wanted(forecast: Forecast, longer_than: Option<f64>) -> Option<Forecast> {
    match longer_than {
        Some(threshold) if forecast.estimated_s.is_nan() || forecast.estimated_s < threshold => {
            None
        }
        _ => Some(forecast),
    }
}

/// The forecast of `one_thread_s` seconds of work on `threads` threads,
/// two standard errors either side.
fn spread(n: usize, threads: usize, one_thread_s: f64, error: f64, basis: Basis) -> Forecast {
    let efficiency = if threads > 1 {
        PARALLEL_EFFICIENCY
    } else {
        1.0
    };
    // No count ends before its largest item (where the basis knows it).
    let floor = basis.largest_item_s();
    let seconds = one_thread_s / (threads as f64 * efficiency);
    let spread = 2.0 * error;
    Forecast {
        n,
        threads,
        estimated_s: seconds.max(floor),
        estimated_low_s: (seconds * (1.0 - spread).max(0.0)).max(floor),
        estimated_high_s: (seconds * (1.0 + spread)).max(floor),
        one_thread_s,
        basis,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::backtrack::{plan::Plan, Backtrack};
    use crate::engine::join::Join;
    use crate::problem::Symmetry;

    #[test]
    fn a_short_count_is_not_forecast_and_a_long_one_is() {
        let backtrack = |n| {
            Backtrack::new(
                Plan::new(n, 3, Symmetry::Full).unwrap(),
                Backtrack::fastest(),
            )
            .unwrap()
        };
        assert_eq!(forecast(&backtrack(10), 1, Some(60.0), 1.0).unwrap(), None);
        let long = forecast(&backtrack(30), 2, Some(60.0), 1.0)
            .unwrap()
            .unwrap();
        assert!(long.estimated_s > 3e7, "{long:?}"); // years
        assert!(long.estimated_low_s <= long.estimated_s);
        assert!(long.size().ends_with("nodes in all"));
    }

    #[test]
    fn the_join_is_forecast_by_a_sample_of_its_items() {
        let join = Join::new(13, Join::fastest(), u64::MAX).unwrap();
        let f = forecast(&join, 1, None, 0.5).unwrap().unwrap();
        let Basis::Sample {
            items,
            sampled_items,
            ..
        } = f.basis
        else {
            panic!("{f:?}")
        };
        assert!(sampled_items >= 1 && sampled_items <= items);
        assert!(f.estimated_s > 0.0);
        assert!(f.one_thread_s >= f.estimated_s * 0.9, "{f:?}");
    }

    #[test]
    fn no_number_of_threads_forecasts_the_join_below_its_largest_item() {
        let join = Join::new(14, Join::fastest(), u64::MAX).unwrap();
        let f = forecast(&join, 1 << 20, None, 0.5).unwrap().unwrap();
        let Basis::Sample { largest_item_s, .. } = f.basis else {
            panic!("{f:?}")
        };
        assert!(largest_item_s > 0.0, "{f:?}");
        // A million threads would share the work out to next to nothing.
        assert!(
            f.one_thread_s / f64::from(1 << 20) < largest_item_s,
            "{f:?}"
        );
        assert_eq!(f.estimated_s, largest_item_s, "{f:?}");
        assert!(f.estimated_low_s >= largest_item_s, "{f:?}");
    }
}
