//! `nqueens estimate N`: how big a count is and how long it will take,
//! before it runs; and the warning `count` and `verify` print before a long
//! one. The model is the library's ([`nqueens::exec::forecast`]): Knuth's
//! estimator on the very plan the count would use, paced by a timed count
//! of a smaller board, or for the join a timed sample of its items. This
//! module only turns flags into its question and its answer into text.

use std::io::{self, Write};

use nqueens::engine::backtrack::estimate::exact_nodes;
use nqueens::engine::join::{layout_seconds, LARGEST_N, LARGEST_SAMPLED};
use nqueens::exec::forecast::Basis;
use nqueens::{Algorithm, Forecast, Join, Options, Plan, Simd, Symmetry};
use serde::Serialize;

use super::args::EstimateArgs;
use super::errors::usage_error;
use super::progress;
use super::report::{duration, print};
use super::UsageError;

/// The counts that say, before they start, how long they will take.
pub const ANNOUNCE_AFTER_S: f64 = 60.0;

/// Seconds `estimate` may spend timing the join's items (beyond a first
/// pass of a few).
const ESTIMATE_BUDGET_S: f64 = 20.0;

/// Seconds the forecast before a count may spend timing the join's items:
/// a few percent of the shortest count that is announced.
pub const ANNOUNCE_BUDGET_S: f64 = 2.0;

/// What `estimate` prints: the forecast, and what it forecasts.
#[derive(Serialize)]
struct Estimate {
    algorithm: Algorithm,
    /// The instruction-set path the engine would count on (`None` for
    /// the serial algorithms).
    simd: Option<Simd>,
    /// The search's symmetry and split depth (not the join's).
    #[serde(flatten)]
    search: Option<Search>,
    #[serde(flatten)]
    forecast: Forecast,
    /// The exact nodes, with --exact.
    #[serde(skip_serializing_if = "Option::is_none")]
    exact_nodes: Option<u64>,
}

#[derive(Serialize)]
struct Search {
    symmetry: Symmetry,
    depth: usize,
}

/// Prints the forecast of a count that should take more than
/// [`ANNOUNCE_AFTER_S`] to stderr (a terminal or not: an hour-long count
/// must not look like a hung one), and hands it to the progress bar.
/// `options` name the algorithm that will count (never `auto`); `share` is
/// the part of the whole count still to do (a shard, a resumed journal). A
/// join's forecast times items of `join`, the count's own engine, when one
/// is given.
pub fn announce(
    n: usize,
    options: &Options,
    threads: usize,
    share: f64,
    join: Option<&Join>,
    bar: &progress::CountBar,
) -> anyhow::Result<()> {
    let threshold = ANNOUNCE_AFTER_S / share.max(1e-9);
    // What the count will refuse is the count's to say.
    let forecast = match nqueens::forecast(
        n,
        options,
        threads,
        Some(threshold),
        ANNOUNCE_BUDGET_S,
        join,
    ) {
        Ok(Some(forecast)) => forecast,
        _ => return Ok(()),
    };
    let seconds = forecast.estimated_s * share;
    let what = if share < 1.0 {
        "the rest of this count"
    } else {
        "this count"
    };
    eprintln!(
        "estimate: {what} (n = {n}, {}) should take about {} on {} thread(s), between {} and {}",
        forecast.size(),
        duration(seconds),
        forecast.threads,
        duration(forecast.estimated_low_s * share),
        duration(forecast.estimated_high_s * share),
    );
    bar.set_estimate(seconds);
    Ok(())
}

/// `nqueens estimate`.
pub fn run(args: EstimateArgs) -> anyhow::Result<()> {
    let threads = args.threads.unwrap_or_else(num_cpus::get);
    let backtrack_only = args.exact || args.symmetry.is_some();
    let asked = match args.algo {
        Algorithm::Auto if backtrack_only => Algorithm::Parallel,
        asked => asked,
    };
    let join_may_run = matches!(asked, Algorithm::Auto | Algorithm::Join);
    // The layout runs on the global pool.
    let layout_threads = rayon::current_num_threads();
    if join_may_run && (LARGEST_SAMPLED + 1..=LARGEST_N).contains(&args.n) {
        eprintln!(
            "estimate: the join for n = {} sketches a sample of its slots (each one's glue and \
             pairs done in part and timed; about {ESTIMATE_BUDGET_S:.0} s)…",
            args.n
        );
    } else if let (true, Some(seconds)) = (join_may_run, layout_seconds(args.n, layout_threads)) {
        eprintln!(
            "estimate: the join for n = {} sizes its quarter table and costs its items (about \
             {} on {layout_threads} thread(s)), then times a sample of its items (about \
             {ESTIMATE_BUDGET_S:.0} s)…",
            args.n,
            duration(seconds)
        );
    }
    let options = Options {
        algorithm: asked,
        symmetry: args.symmetry.unwrap_or_default(),
        simd: args.simd.path(),
        ..Options::default()
    };
    let algorithm = nqueens::choose(args.n, &options, threads)
        .map_err(usage_error)?
        .algorithm;
    let options = Options {
        algorithm,
        ..options
    };
    super::job::check_simd(&options)?;
    let simd = algorithm.engine().map(|engine| engine.simd(options.simd));
    if algorithm == Algorithm::Join {
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
    }
    let forecast = nqueens::forecast(args.n, &options, threads, None, ESTIMATE_BUDGET_S, None)
        .map_err(usage_error)?
        .expect("a forecast without a threshold");
    let parallel = algorithm == Algorithm::Parallel;
    let search = (algorithm != Algorithm::Join).then(|| Search {
        symmetry: if parallel {
            options.symmetry
        } else {
            Symmetry::None
        },
        depth: if parallel {
            Plan::auto_depth(args.n, options.symmetry, threads, options.max_subproblems())
                .unwrap_or(0)
        } else {
            0
        },
    });
    let exact_nodes = match args.exact {
        true => Some(exact(args.n, &options, threads)?),
        false => None,
    };
    let estimate = Estimate {
        algorithm,
        simd,
        search,
        forecast,
        exact_nodes,
    };
    print(&estimate, args.json, write_text)
}

/// The nodes of the search, counted one by one on `threads` threads:
/// the plan the count would use (for a serial search, the whole tree cut
/// after the first row).
fn exact(n: usize, options: &Options, threads: usize) -> anyhow::Result<u64> {
    let plan = match options.algorithm {
        Algorithm::Parallel => Plan::auto(n, options.symmetry, threads),
        _ => Plan::new(n, 1, Symmetry::None),
    }
    .map_err(usage_error)?;
    let pool = super::thread_pool(Some(threads))?;
    Ok(pool.install(|| {
        use rayon::prelude::*;
        (0..plan.len())
            .into_par_iter()
            .with_max_len(64)
            .map(|i| exact_nodes(&plan, i..i + 1))
            .sum::<u64>()
    }))
}

fn write_text(e: &Estimate, out: &mut dyn Write) -> io::Result<()> {
    let f = &e.forecast;
    writeln!(
        out,
        "n = {}: about {} on {} thread(s)",
        f.n,
        duration(f.estimated_s),
        f.threads
    )?;
    writeln!(
        out,
        "  between      {} and {} (two standard errors)",
        duration(f.estimated_low_s),
        duration(f.estimated_high_s)
    )?;
    match f.basis {
        Basis::Search {
            nodes,
            nodes_relative_error,
            probes,
            calibration_n,
            calibration_s,
            nodes_per_s_per_thread,
        } => {
            writeln!(
                out,
                "  search       {nodes:.3e} nodes (± {:.1}%, {probes} probes)",
                100.0 * nodes_relative_error,
            )?;
            if let Some(exact) = e.exact_nodes {
                let error = (nodes - exact as f64) / exact as f64;
                writeln!(
                    out,
                    "  exact        {exact} nodes (estimate off by {:+.1}%)",
                    100.0 * error
                )?;
            }
            writeln!(
                out,
                "  pace         {nodes_per_s_per_thread:.3e} nodes/s per thread (n = \
                 {calibration_n} counted in {calibration_s:.3} s on one thread)",
            )?;
        }
        Basis::Sketch {
            units,
            sampled_units,
            sketched_s,
            glue_share,
            largest_item_s,
            ..
        } => {
            writeln!(
                out,
                "  sketch       {sampled_units} of {units} slots sketched in {sketched_s:.1} s on \
                 one thread (glue {:.0}% of the time, pairs the rest)",
                100.0 * glue_share
            )?;
            writeln!(
                out,
                "  largest item about {} (no count on any number of threads ends sooner)",
                duration(largest_item_s)
            )?;
        }
        Basis::Sample {
            items,
            sampled_items,
            sampled_s,
            largest_item_s,
        } => {
            writeln!(
                out,
                "  sample       {sampled_items} of {items} work items, {sampled_s:.3} s on one thread"
            )?;
            let largest = if largest_item_s < 60.0 {
                format!("{largest_item_s:.3} s")
            } else {
                duration(largest_item_s)
            };
            writeln!(
                out,
                "  largest item {largest} (no count on any number of threads ends sooner)"
            )?;
        }
    }
    writeln!(
        out,
        "  core time    {} ({:.3} core-hours)",
        duration(f.one_thread_s),
        f.one_thread_s / 3600.0
    )?;
    writeln!(out, "  algorithm    {}", e.algorithm)?;
    if let Some(simd) = e.simd {
        writeln!(out, "  simd         {simd}")?;
    }
    if let (Algorithm::Parallel, Some(search)) = (e.algorithm, &e.search) {
        writeln!(out, "  symmetry     {}", search.symmetry)?;
        writeln!(out, "  split depth  {}", search.depth)?;
    }
    Ok(())
}
