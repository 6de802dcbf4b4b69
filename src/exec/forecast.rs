//! How long a count will take, before it runs: the one forecast model
//! behind `estimate`, the warning `count` and `verify` print before a long
//! count, and a library user's own planning.
//!
//! A search (the backtracking engine, or a serial textbook search) is
//! forecast by its nodes and this machine's pace: the nodes from Knuth's
//! estimator on the very plan the count would use
//! ([`estimate`](crate::engine::backtrack::estimate::nodes)), the pace from
//! timing the same search on one thread on the largest smaller board that
//! counts in about [`CALIBRATION_S`], whose nodes are estimated the same
//! way. The join, which has no search tree, is forecast by a timed sample
//! of its own work items ([`sample::time_within`]), and past
//! [`LARGEST_SAMPLED`], where one item takes minutes to days, by a sketch
//! of a sample of its slots ([`Join::sketch`]). Either way the time
//! on T threads assumes they count [`PARALLEL_EFFICIENCY`] as fast as T
//! single threads, and the spread is two standard errors either side; the
//! join's is never less than its largest item's time, which no number of
//! threads shortens. The one-thread time is the count's core time.

use std::time::Instant;

use serde::Serialize;

use super::sample;
use crate::engine::backtrack::estimate::{self, NodeEstimate};
use crate::engine::backtrack::plan::Plan;
use crate::engine::backtrack::Backtrack;
use crate::engine::cpu::Simd;
use crate::engine::join::{Join, LARGEST_SAMPLED};
use crate::problem::{Error, Symmetry};

/// Probes per estimate: a few percent of spread for the boards people count.
pub const PROBES: usize = 20_000;

/// How long the calibration's count may take, on one thread.
pub const CALIBRATION_S: f64 = 0.3;

/// The share of T single threads' pace that T threads reach (measured
/// 1.93–1.96 for 2 threads, see results/).
pub const PARALLEL_EFFICIENCY: f64 = 0.97;

/// The join's items timed at most for a forecast.
pub const JOIN_SAMPLES: usize = 256;

/// The join's slots sketched at most for a forecast (past
/// [`LARGEST_SAMPLED`]): most are empty, and a few large ones carry much
/// of the time, so as many as the budget allows (n = 26: about 500 in
/// 20 s; from n = 27 the budget stops it first, at about 200).
pub const JOIN_SKETCHES: usize = 4096;

/// How far a sketch of the join's items ([`Join::sketch`]) strays from
/// timing them, relative, taken as two standard errors of its own in a
/// sketched forecast's spread. Measured (results/2026-12-02-vm-sketch,
/// -sketch-boards): whole boards' sketches 1.09, 1.06 and 1.04 times the
/// forecast from timing whole items at n = 22, 24 and 25; sketched items
/// 0.94, 0.985, 1.21 and 0.77 of their whole counts' time at n = 24, 25,
/// 26 and 27 (24, 16, 5 and 3 items).
pub const SKETCH_ERROR: f64 = 0.20;

/// The join's seconds per unit of cost on the reference machine's thread:
/// its units are nanoseconds there ([`Join::costs`]). Counts whose items
/// add up to less than a quarter of a threshold at this pace (no machine
/// is 4× faster a thread) are not sampled.
const JOIN_FASTEST_S_PER_COST: f64 = 1e-9;

/// What is forecast: the way the count will search.
#[derive(Clone, Copy, Debug)]
pub enum Method<'a> {
    /// The backtracking engine under `symmetry` on `simd`, on the pool.
    Backtrack {
        /// The symmetry its plan exploits.
        symmetry: Symmetry,
        /// The path its kernel counts on.
        simd: Simd,
    },
    /// A serial search of the whole tree, on one thread.
    Serial {
        /// The search: the solutions of the n×n board.
        count: fn(usize) -> u64,
        /// Nodes a second no machine beats (for the quick first look).
        fastest_nodes_per_s: f64,
    },
    /// The join, by a timed sample of its items: those of `engine` when
    /// one is given (the count's own, its table filled), else of a join
    /// built for the purpose, planning for at most `max_memory` bytes.
    Join {
        /// The count's engine, if built.
        engine: Option<&'a Join>,
        /// The most memory a join built here may plan for.
        max_memory: u64,
        /// The path a join built here counts pairs on.
        simd: Simd,
    },
}

/// A forecast of a count: its wall time on some threads, the spread, and
/// what it rests on.
#[derive(Clone, Debug, PartialEq, Serialize)]
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

/// What a forecast rests on.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Basis {
    /// The nodes of the search and this machine's pace.
    Search {
        /// Nodes of the search (placements below the plan's cut).
        nodes: f64,
        /// The standard error of `nodes`, relative to it.
        nodes_relative_error: f64,
        /// The probes that estimated them.
        probes: usize,
        /// The board timed for the pace.
        calibration_n: usize,
        /// How long it took, on one thread.
        calibration_s: f64,
        /// The pace: nodes a second on one thread.
        nodes_per_s_per_thread: f64,
    },
    /// A sketch of a sample of the join's units (drawn slots), each
    /// one's glue and pair count done in part and timed ([`Join::sketch`]).
    Sketch {
        /// The units in all (slots, empty ones included).
        units: u64,
        /// Units per work item.
        units_per_item: u64,
        /// The units sketched.
        sampled_units: usize,
        /// Seconds the sketch took.
        sketched_s: f64,
        /// The share of the time the glue takes (the rest counts pairs).
        glue_share: f64,
        /// Seconds the largest item should take, about: the least the
        /// count takes on any number of threads.
        largest_item_s: f64,
    },
    /// A timed sample of the join's work items.
    Sample {
        /// The work items in all.
        items: usize,
        /// The items timed.
        sampled_items: usize,
        /// Seconds the sample took on one thread.
        sampled_s: f64,
        /// Seconds the largest item should take: the least the count
        /// takes on any number of threads.
        largest_item_s: f64,
    },
}

impl Forecast {
    /// How big the count is, in words: `1.23e+12 nodes in all`, or
    /// `176871 work items, 105 timed`.
    pub fn size(&self) -> String {
        match self.basis {
            Basis::Search { nodes, .. } => format!("{nodes:.2e} nodes in all"),
            Basis::Sample {
                items,
                sampled_items,
                ..
            } => format!("{items} work items, {sampled_items} timed"),
            Basis::Sketch {
                units,
                units_per_item,
                sampled_units,
                ..
            } => format!(
                "{} work items of {units_per_item} slots, {sampled_units} slots sketched",
                units.div_ceil(units_per_item)
            ),
        }
    }
}

/// The forecast of the count of the n×n board by `method` on `threads`
/// threads; with `longer_than`, `None` for a count that surely takes less
/// (decided in milliseconds by a pace no machine beats, before anything is
/// timed). The join's sample spends about `budget_s` seconds.
///
/// # Errors
/// What planning the search or building the join refuses
/// ([`Error::BoardSize`], [`Error::JoinMemory`]…);
/// [`Error::ThreadPool`] if the one-thread pool of the calibration cannot
/// start.
pub fn forecast(
    n: usize,
    method: Method<'_>,
    threads: usize,
    longer_than: Option<f64>,
    budget_s: f64,
) -> Result<Option<Forecast>, Error> {
    let threads = match method {
        Method::Serial { .. } => 1,
        _ => threads.max(1),
    };
    let threshold = longer_than.unwrap_or(0.0);
    if let Method::Join {
        engine,
        max_memory,
        simd,
    } = method
    {
        // Past LARGEST_SAMPLED items take minutes to days: every count is
        // long, and a sample of slots is sketched rather than timed whole.
        let sketched = n > LARGEST_SAMPLED;
        if !sketched && longer_than.is_some() {
            let costs = Join::costs(n)?;
            let optimistic = costs.iter().sum::<f64>() * JOIN_FASTEST_S_PER_COST / threads as f64;
            if optimistic < threshold / 4.0 {
                return Ok(None);
            }
        }
        let built;
        let join = match engine {
            Some(join) => join,
            None => {
                built = Join::new(n, simd, max_memory)?;
                &built
            }
        };
        if sketched {
            let sketch = join.sketch(JOIN_SKETCHES, budget_s, n as u64);
            // The sample's spread, and the sketch's own error against
            // whole counts as two standard errors of its own.
            let error = sketch.relative_error.hypot(SKETCH_ERROR / 2.0);
            let forecast = spread(
                n,
                threads,
                sketch.seconds,
                error,
                Basis::Sketch {
                    units: sketch.units,
                    units_per_item: sketch.per_item,
                    sampled_units: sketch.sampled,
                    sketched_s: sketch.sketched_s,
                    glue_share: sketch.glue_share,
                    largest_item_s: sketch.largest_s,
                },
            );
            return Ok(wanted(forecast, longer_than));
        }
        let sampled = sample::time_within(join, JOIN_SAMPLES, budget_s);
        let forecast = spread(
            n,
            threads,
            sampled.seconds,
            sampled.relative_error,
            Basis::Sample {
                items: sampled.items,
                sampled_items: sampled.sampled,
                sampled_s: sampled.sampled_s,
                largest_item_s: sampled.largest_s,
            },
        );
        return Ok(wanted(forecast, longer_than));
    }
    if longer_than.is_some() {
        let fastest_nodes_per_s = match method {
            Method::Serial {
                fastest_nodes_per_s,
                ..
            } => fastest_nodes_per_s,
            _ => 2e9,
        };
        let nodes = estimate::nodes(&plan(n, method)?, 2_000, 3).nodes;
        if nodes / (fastest_nodes_per_s * threads as f64) < threshold {
            return Ok(None);
        }
    }
    let nodes = estimate::nodes(&plan(n, method)?, PROBES, n as u64);
    let (calibration_n, calibration_s, calibration_nodes) = calibrate(n, method)?;
    let pace = calibration_nodes / calibration_s.max(1e-6);
    let NodeEstimate {
        nodes,
        relative_error,
        probes,
    } = nodes;
    // A tree with no node (n = 2, 3) takes no time, whatever the pace.
    let one_thread_s = if nodes > 0.0 {
        nodes / pace.max(1e-9)
    } else {
        0.0
    };
    let forecast = spread(
        n,
        threads,
        one_thread_s,
        relative_error,
        Basis::Search {
            nodes,
            nodes_relative_error: relative_error,
            probes,
            calibration_n,
            calibration_s,
            nodes_per_s_per_thread: pace,
        },
    );
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
    // No count ends before its largest item (known for the join's).
    let floor = match basis {
        Basis::Sample { largest_item_s, .. } | Basis::Sketch { largest_item_s, .. } => {
            largest_item_s
        }
        Basis::Search { .. } => 0.0,
    };
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

/// A plan of the tree the search walks, to probe: the engine's at its
/// one-thread depth (a deeper cut leaves the nodes below it all but the
/// same, and would only cost planning); the whole tree cut after the first
/// row for a serial search.
fn plan(n: usize, method: Method<'_>) -> Result<Plan, Error> {
    match method {
        Method::Backtrack { symmetry, .. } => Plan::auto(n, symmetry, 1),
        _ => Plan::new(n, 1, Symmetry::None),
    }
}

/// Times the largest board up to n whose count takes about
/// [`CALIBRATION_S`] on one thread: (its n, seconds, estimated nodes).
fn calibrate(n: usize, method: Method<'_>) -> Result<(usize, f64, f64), Error> {
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .map_err(|e| Error::ThreadPool { why: e.to_string() })?;
    let once = |board: usize| -> Result<f64, Error> {
        let start = Instant::now();
        match method {
            Method::Backtrack { symmetry, simd } => {
                // The smaller boards at their own automatic depth.
                let engine = Backtrack::new(Plan::auto(board, symmetry, 1)?, simd)?;
                one.install(|| std::hint::black_box(super::pool::count(&engine, &|_| {})));
            }
            Method::Serial { count, .. } => {
                std::hint::black_box(count(board));
            }
            Method::Join { .. } => unreachable!("the join is sampled, not calibrated"),
        }
        Ok(start.elapsed().as_secs_f64())
    };
    let nodes_of = |board: usize, probes: usize| -> Result<f64, Error> {
        Ok(estimate::nodes(&plan(board, method)?, probes, board as u64).nodes)
    };
    // Climb to the largest board that counts within CALIBRATION_S...
    let mut board = n.min(8);
    let mut seconds = once(board)?;
    let mut nodes = nodes_of(board, PROBES / 4)?;
    while board < n {
        let next = nodes_of(board + 1, PROBES / 4)?;
        if next * seconds / nodes.max(1.0) > CALIBRATION_S {
            break;
        }
        board += 1;
        (seconds, nodes) = (once(board)?, next);
    }
    // ...then time it again a few times (CALIBRATION_S in all) and keep the
    // fastest: one short run is at the mercy of everything else running.
    let budget = Instant::now();
    while budget.elapsed().as_secs_f64() + seconds < CALIBRATION_S {
        seconds = seconds.min(once(board)?);
    }
    let nodes = nodes_of(board, PROBES)?;
    Ok((board, seconds, nodes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_short_count_is_not_forecast_and_a_long_one_is() {
        let method = Method::Backtrack {
            symmetry: Symmetry::Full,
            simd: Backtrack::fastest(),
        };
        assert_eq!(forecast(10, method, 1, Some(60.0), 1.0).unwrap(), None);
        let long = forecast(30, method, 2, Some(60.0), 1.0).unwrap().unwrap();
        assert!(long.estimated_s > 3e7, "{long:?}"); // years
        assert!(long.estimated_low_s <= long.estimated_s);
        assert!(long.size().ends_with("nodes in all"));
    }

    #[test]
    fn the_join_is_forecast_by_a_sample_of_its_items() {
        let method = Method::Join {
            engine: None,
            max_memory: u64::MAX,
            simd: Join::fastest(),
        };
        let f = forecast(13, method, 1, None, 0.5).unwrap().unwrap();
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
        let method = Method::Join {
            engine: None,
            max_memory: u64::MAX,
            simd: Join::fastest(),
        };
        let f = forecast(14, method, 1 << 20, None, 0.5).unwrap().unwrap();
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
