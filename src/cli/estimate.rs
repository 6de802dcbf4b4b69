//! `nqueens estimate N`: how big a count is and how long it will take,
//! before it runs; and the warning `count` and `verify` print before a long
//! one.
//!
//! The search's nodes come from Knuth's estimator on the very plan the
//! count would use ([`estimate`](nqueens::engine::backtrack::estimate)).
//! Their pace comes from timing the same algorithm, symmetry and kernel on
//! one thread, on the largest smaller board that counts in a few tenths of
//! a second, whose nodes are estimated the same way. The time on T threads
//! assumes they count [`PARALLEL_EFFICIENCY`] as fast as T single threads.

use std::io::{self, Write};
use std::time::Instant;

use nqueens::engine::backtrack::estimate;
use nqueens::engine::backtrack::plan::MAX_SUBPROBLEMS;
use nqueens::engine::join::{LARGEST_N, SLOW_LAYOUT_FROM};
use nqueens::{Algorithm, Join, Kernel, Options, PairCounter, Plan, Symmetry};
use serde::Serialize;

use super::args::EstimateArgs;
use super::errors::usage_error;
use super::progress;
use super::report::{duration, print};
use super::UsageError;

/// The counts that say, before they start, how long they will take.
pub const ANNOUNCE_AFTER_S: f64 = 60.0;

/// Prints the estimate of a count that should take more than
/// [`ANNOUNCE_AFTER_S`] to stderr (a terminal or not: an hour-long count
/// must not look like a hung one), and hands it to the progress bar.
/// `options` name the algorithm that will count (never `auto`); `share` is
/// the part of the whole count still to do (a shard, a resumed journal).
/// A join's forecast times items of `join`, the count's own engine, when
/// one is given.
pub fn announce(
    n: usize,
    options: &Options,
    threads: usize,
    share: f64,
    join: Option<&Join>,
    bar: &progress::CountBar,
) -> anyhow::Result<()> {
    let options = Options {
        kernel: options.kernel.or(Some(Kernel::fastest())),
        ..*options
    };
    let threshold = ANNOUNCE_AFTER_S / share.max(1e-9);
    let Some(estimate) = if_longer_than(threshold, n, &options, threads, join)? else {
        return Ok(());
    };
    let seconds = estimate.estimated_s * share;
    let what = if share < 1.0 {
        "the rest of this count"
    } else {
        "this count"
    };
    eprintln!(
        "estimate: {what} (n = {n}, {}) should take about {} on {} thread(s), between {} and {}",
        estimate.size,
        duration(seconds),
        estimate.threads,
        duration(estimate.estimated_low_s * share),
        duration(estimate.estimated_high_s * share),
    );
    bar.set_estimate(seconds);
    Ok(())
}

/// Probes per estimate: a few percent of spread for the boards people count.
const PROBES: usize = 20_000;

/// How long the calibration's count may take.
const CALIBRATION_S: f64 = 0.3;

/// The share of T single threads' pace that T threads reach (measured
/// 1.93–1.96 for 2 threads, see results/).
pub const PARALLEL_EFFICIENCY: f64 = 0.97;

/// What `estimate` reports.
#[derive(Clone, Debug, Serialize)]
pub struct Estimate {
    pub n: usize,
    pub algorithm: Algorithm,
    pub symmetry: Symmetry,
    pub kernel: Option<Kernel>,
    pub threads: usize,
    pub depth: usize,
    /// Nodes of the search (placements below the plan's cut).
    pub nodes: f64,
    /// The standard error of `nodes`, relative to it.
    pub nodes_relative_error: f64,
    pub probes: usize,
    /// The board timed for the pace, and how long it took on one thread.
    pub calibration_n: usize,
    pub calibration_s: f64,
    pub nodes_per_s_per_thread: f64,
    /// Wall seconds on `threads` threads.
    pub estimated_s: f64,
    /// Two standard errors either side.
    pub estimated_low_s: f64,
    pub estimated_high_s: f64,
    /// The exact nodes, with --exact.
    pub exact_nodes: Option<u64>,
}

/// How many of the join's work items its forecast times.
const JOIN_SAMPLES: usize = 256;

/// The join's cost units per second no machine beats by 4×: counts whose
/// items add up to less than a quarter of a threshold at this pace are not
/// sampled (measured on one thread: 1.8e-9 to 7.2e-9 s a unit, n = 16..20).
const JOIN_FASTEST_S_PER_COST: f64 = 5e-9;

/// What `estimate --algo join` reports: a sample of the join's work items
/// timed on one thread, spread over their order (by estimated cost), each
/// standing for the items around it at its seconds per unit of cost.
#[derive(Clone, Debug, Serialize)]
pub struct JoinEstimate {
    pub n: usize,
    pub algorithm: Algorithm,
    pub threads: usize,
    pub items: usize,
    pub sampled_items: usize,
    /// Seconds the sample took on one thread.
    pub sampled_s: f64,
    /// Wall seconds on `threads` threads.
    pub estimated_s: f64,
    /// Two standard errors either side.
    pub estimated_low_s: f64,
    pub estimated_high_s: f64,
}

impl JoinEstimate {
    fn write_text(&self, out: &mut dyn Write) -> io::Result<()> {
        writeln!(
            out,
            "n = {}: about {} on {} thread(s)",
            self.n,
            duration(self.estimated_s),
            self.threads
        )?;
        writeln!(
            out,
            "  between      {} and {} (two standard errors)",
            duration(self.estimated_low_s),
            duration(self.estimated_high_s)
        )?;
        writeln!(
            out,
            "  sample       {} of {} work items, {:.3} s on one thread",
            self.sampled_items, self.items, self.sampled_s
        )?;
        writeln!(out, "  algorithm    join")
    }
}

/// Seconds `estimate --algo join` may spend timing its sample (beyond a
/// first pass of a few items).
const JOIN_ESTIMATE_BUDGET_S: f64 = 20.0;

/// Seconds the forecast before a count may spend timing the join's items:
/// a few percent of the shortest count that is announced.
const JOIN_ANNOUNCE_BUDGET_S: f64 = 2.0;

/// The join's forecast for the n×n board on `threads` threads: a sample
/// of its items timed on the calling thread, within `budget_s` seconds, on
/// `engine` (the count's own, whose table is built) or on a join built
/// for the purpose.
pub fn join_estimate(
    n: usize,
    threads: usize,
    engine: Option<&Join>,
    budget_s: f64,
) -> anyhow::Result<JoinEstimate> {
    let built;
    let engine = match engine {
        Some(engine) => engine,
        None => {
            let one = super::thread_pool(Some(1))?;
            let limit = nqueens::memory_limit(&Options::default());
            built = one
                .install(|| Join::new(n, PairCounter::fastest(), limit))
                .map_err(usage_error)?;
            &built
        }
    };
    let sampled = nqueens::exec::sample::time_within(engine, JOIN_SAMPLES, budget_s);
    let efficiency: f64 = if threads > 1 {
        PARALLEL_EFFICIENCY
    } else {
        1.0
    };
    let seconds = sampled.seconds / (threads as f64 * efficiency);
    let spread = 2.0 * sampled.relative_error;
    Ok(JoinEstimate {
        n,
        algorithm: Algorithm::Join,
        threads,
        items: sampled.items,
        sampled_items: sampled.sampled,
        sampled_s: sampled.sampled_s,
        estimated_s: seconds,
        estimated_low_s: seconds * (1.0 - spread).max(0.0),
        estimated_high_s: seconds * (1.0 + spread),
    })
}

/// What `count` and `verify` say before a long count.
pub struct Forecast {
    pub estimated_s: f64,
    pub estimated_low_s: f64,
    pub estimated_high_s: f64,
    pub threads: usize,
    /// How big the count is, e.g. `1.23e+12 nodes in all`.
    pub size: String,
}

/// `nqueens estimate`.
pub fn run(args: EstimateArgs) -> anyhow::Result<()> {
    let threads = args.threads.unwrap_or_else(num_cpus::get);
    let backtrack_only = args.exact || args.symmetry.is_some();
    let asked = match args.algo {
        Algorithm::Auto if backtrack_only => Algorithm::Parallel,
        asked => asked,
    };
    let options = Options {
        algorithm: asked,
        symmetry: args.symmetry.unwrap_or_default(),
        ..Options::default()
    };
    let slow = (SLOW_LAYOUT_FROM..=LARGEST_N).contains(&args.n);
    if matches!(asked, Algorithm::Auto | Algorithm::Join) && slow {
        eprintln!(
            "estimate: the join for n = {} sizes its quarter table and times a sample of its \
             items (a minute at most)…",
            args.n
        );
    }
    let options = Options {
        algorithm: nqueens::choose(args.n, &options, threads)?.algorithm,
        ..options
    };
    if options.algorithm == Algorithm::Join {
        if let Some(flag) = [
            ("--exact", args.exact),
            ("--symmetry <S>", args.symmetry.is_some()),
        ]
        .into_iter()
        .find_map(|(flag, given)| given.then_some(flag))
        {
            return Err(UsageError {
                value: "join".to_string(),
                flag: "--algo <A>",
                rule: format!("takes no {flag}: the join has no search tree to count nodes of"),
            }
            .into());
        }
        let estimate = join_estimate(args.n, threads, None, JOIN_ESTIMATE_BUDGET_S)?;
        return print(&estimate, args.json, JoinEstimate::write_text);
    }
    let mut estimate = estimate(args.n, &options, threads)?;
    if args.exact {
        let plan = match options.algorithm {
            Algorithm::Parallel => {
                Plan::auto(args.n, options.symmetry, threads).map_err(usage_error)?
            }
            _ => self::plan(args.n, &options)?,
        };
        let pool = super::thread_pool(Some(threads))?;
        let exact = pool.install(|| {
            use rayon::prelude::*;
            (0..plan.len())
                .into_par_iter()
                .with_max_len(64)
                .map(|i| estimate::exact_nodes(&plan, i..i + 1))
                .sum::<u64>()
        });
        estimate.exact_nodes = Some(exact);
    }
    print(&estimate, args.json, write_text)
}

fn write_text(e: &Estimate, out: &mut dyn Write) -> io::Result<()> {
    writeln!(
        out,
        "n = {}: about {} on {} thread(s)",
        e.n,
        duration(e.estimated_s),
        e.threads
    )?;
    writeln!(
        out,
        "  between      {} and {} (two standard errors)",
        duration(e.estimated_low_s),
        duration(e.estimated_high_s)
    )?;
    writeln!(
        out,
        "  search       {:.3e} nodes (± {:.1}%, {} probes)",
        e.nodes,
        100.0 * e.nodes_relative_error,
        e.probes
    )?;
    if let Some(exact) = e.exact_nodes {
        let error = (e.nodes - exact as f64) / exact as f64;
        writeln!(
            out,
            "  exact        {exact} nodes (estimate off by {:+.1}%)",
            100.0 * error
        )?;
    }
    writeln!(
        out,
        "  pace         {:.3e} nodes/s per thread (n = {} counted in {:.3} s on one thread)",
        e.nodes_per_s_per_thread, e.calibration_n, e.calibration_s
    )?;
    writeln!(out, "  algorithm    {}", e.algorithm)?;
    if e.algorithm == Algorithm::Parallel {
        writeln!(out, "  symmetry     {}", e.symmetry)?;
        writeln!(out, "  split depth  {}", e.depth)?;
        if let Some(kernel) = e.kernel {
            writeln!(out, "  kernel       {kernel}")?;
        }
    }
    Ok(())
}

/// A plan of the tree the count searches, to probe: the engine's at its
/// one-thread depth for `parallel` (a deeper cut leaves the nodes below it
/// all but the same, and would only cost planning), the whole tree cut
/// after the first row for the serial algorithms.
fn plan(n: usize, options: &Options) -> anyhow::Result<Plan> {
    let plan = match options.algorithm {
        Algorithm::Parallel => Plan::auto(n, options.symmetry, 1),
        _ => Plan::new(n, 1, Symmetry::None),
    };
    plan.map_err(usage_error)
}

/// The depth the count would split at.
fn depth(n: usize, options: &Options, threads: usize) -> anyhow::Result<usize> {
    match (options.algorithm, options.depth) {
        (Algorithm::Parallel, Some(depth)) => Ok(depth),
        (Algorithm::Parallel, None) => Ok(Plan::auto_depth(n, options.symmetry, threads)?),
        _ => Ok(0),
    }
}

/// Estimates the count of the n×n board with `options` on `threads`
/// threads (calibrating on this machine).
pub fn estimate(n: usize, options: &Options, threads: usize) -> anyhow::Result<Estimate> {
    // The serial algorithms run on one thread, whatever the pool.
    let threads = if options.algorithm == Algorithm::Parallel {
        threads
    } else {
        1
    };
    let nodes = estimate::nodes(&plan(n, options)?, PROBES, n as u64);
    let (calibration_n, calibration_s, calibration_nodes) = calibrate(n, options)?;
    let pace = calibration_nodes / calibration_s.max(1e-6);
    let efficiency = if threads > 1 {
        PARALLEL_EFFICIENCY
    } else {
        1.0
    };
    let seconds = nodes.nodes / (pace * threads as f64 * efficiency);
    let spread = 2.0 * nodes.relative_error;
    let parallel = options.algorithm == Algorithm::Parallel;
    Ok(Estimate {
        n,
        algorithm: options.algorithm,
        symmetry: if parallel {
            options.symmetry
        } else {
            Symmetry::None
        },
        kernel: parallel.then(|| options.kernel.unwrap_or_else(Kernel::fastest)),
        threads,
        depth: depth(n, options, threads)?,
        nodes: nodes.nodes,
        nodes_relative_error: nodes.relative_error,
        probes: nodes.probes,
        calibration_n,
        calibration_s,
        nodes_per_s_per_thread: pace,
        estimated_s: seconds,
        estimated_low_s: seconds * (1.0 - spread).max(0.0),
        estimated_high_s: seconds * (1.0 + spread),
        exact_nodes: None,
    })
}

/// Times the largest board up to n whose count takes about
/// [`CALIBRATION_S`] on one thread: (its n, seconds, estimated nodes).
fn calibrate(n: usize, options: &Options) -> anyhow::Result<(usize, f64, f64)> {
    let one = super::thread_pool(Some(1))?;
    // The smaller boards at their own automatic depth: a depth given for n
    // may not exist on them.
    let options = &Options {
        depth: None,
        ..*options
    };
    let once = |board: usize| -> anyhow::Result<f64> {
        let start = Instant::now();
        one.install(|| nqueens::count(board, options))?;
        Ok(start.elapsed().as_secs_f64())
    };
    let nodes_of = |board: usize, probes: usize| -> anyhow::Result<f64> {
        Ok(estimate::nodes(&plan(board, options)?, probes, board as u64).nodes)
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

/// A cheap first look: the seconds the count would take at a pace no
/// machine beats, so that only counts that may be long are calibrated.
fn optimistic_s(n: usize, options: &Options, threads: usize) -> anyhow::Result<f64> {
    let threads = if options.algorithm == Algorithm::Parallel {
        threads
    } else {
        1
    };
    let fastest_pace = match options.algorithm {
        // The join is forecast by a sample of its items (if_longer_than).
        Algorithm::Join => return Ok(f64::INFINITY),
        Algorithm::Auto | Algorithm::Parallel => 2e9,
        Algorithm::Bitmask | Algorithm::BitmaskIter => 1e9,
        Algorithm::Board => 2e8,
        Algorithm::Set => 1e8,
    };
    let nodes = estimate::nodes(&plan(n, options)?, 2_000, 3).nodes;
    Ok(nodes / (fastest_pace * threads as f64))
}

/// The forecast of a count that may take longer than `threshold_s`, or
/// `None` for one that surely will not (decided in milliseconds).
/// A join's forecast times items of `join`, the count's engine, when one
/// is given.
pub fn if_longer_than(
    threshold_s: f64,
    n: usize,
    options: &Options,
    threads: usize,
    join: Option<&Join>,
) -> anyhow::Result<Option<Forecast>> {
    if options.algorithm == Algorithm::Join {
        // A board the join refuses is the count's to refuse.
        let Ok(costs) = nqueens::Join::costs(n) else {
            return Ok(None);
        };
        let optimistic = costs.iter().sum::<f64>() * JOIN_FASTEST_S_PER_COST / threads as f64;
        if optimistic < threshold_s / 4.0 {
            return Ok(None);
        }
        let Ok(e) = join_estimate(n, threads, join, JOIN_ANNOUNCE_BUDGET_S) else {
            return Ok(None);
        };
        return Ok((e.estimated_s >= threshold_s).then(|| Forecast {
            estimated_s: e.estimated_s,
            estimated_low_s: e.estimated_low_s,
            estimated_high_s: e.estimated_high_s,
            threads: e.threads,
            size: format!("{} work items, {} timed", e.items, e.sampled_items),
        }));
    }
    if optimistic_s(n, options, threads)? < threshold_s {
        return Ok(None);
    }
    // A depth whose plan does not fit is the count's to refuse, first.
    if let Some(depth) = options
        .depth
        .filter(|_| options.algorithm == Algorithm::Parallel)
    {
        if Plan::size(n, depth, options.symmetry, MAX_SUBPROBLEMS).is_none() {
            return Ok(None);
        }
    }
    let e = estimate(n, options, threads)?;
    Ok((e.estimated_s >= threshold_s).then(|| Forecast {
        estimated_s: e.estimated_s,
        estimated_low_s: e.estimated_low_s,
        estimated_high_s: e.estimated_high_s,
        threads: e.threads,
        size: format!("{:.2e} nodes in all", e.nodes),
    }))
}
