//! `nqueens estimate N`: how big a count is and how long it will take,
//! before it runs; and the warning `count` and `verify` print before a long
//! one. The model is the library's ([`nqueens::exec::forecast`]): Knuth's
//! estimator on the very plan the count would use, paced by a timed count
//! of a smaller board, or for the join a timed sample of its items. This
//! module only turns flags into its question and its answer into text.

use std::io::{self, Write};

use nqueens::engine::backtrack::estimate::exact_nodes;
use nqueens::engine::join::{GpuReport, JoinLayout};
use nqueens::exec::forecast::Basis;
use nqueens::{Algorithm, AnyEngine, Engine, Forecast, GpuUse, Job, Plan, Run, Simd, Symmetry};
use serde::Serialize;

use super::args::EstimateArgs;
use super::errors::{job_error, usage_error};
use super::progress;
use super::report::{duration, print};
use super::UsageError;

/// The counts that say, before they start, how long they will take.
pub const ANNOUNCE_AFTER_S: f64 = 60.0;

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
    /// The join's layout (absent for the others).
    #[serde(skip_serializing_if = "Option::is_none")]
    layout: Option<JoinLayout>,
    /// The search's symmetry and split depth (not the join's).
    #[serde(flatten)]
    search: Option<Search>,
    #[serde(flatten)]
    forecast: Forecast,
    /// The exact nodes, with --exact.
    #[serde(skip_serializing_if = "Option::is_none")]
    exact_nodes: Option<u64>,
    /// The memory the join would plan for on its threads, in bytes
    /// (absent for the others): what a node needs.
    #[serde(skip_serializing_if = "Option::is_none")]
    planned_bytes: Option<u64>,
    /// What the GPU did during the sample, with --gpu: its pairs, and
    /// the share of the sample's one-thread time a job was on it.
    #[serde(skip_serializing_if = "Option::is_none")]
    gpu: Option<GpuUse>,
}

#[derive(Serialize)]
struct Search {
    symmetry: Symmetry,
    depth: usize,
}

/// Prints the forecast of a count that should take more than
/// [`ANNOUNCE_AFTER_S`] to stderr (a terminal or not: an hour-long count
/// must not look like a hung one), and hands it to the progress bar.
/// `share` is the part of the whole count still to do (a shard, a resumed
/// journal). The forecast is the job's own, on its engine.
pub fn announce(job: &Job, share: f64, bar: &progress::CountBar) -> anyhow::Result<()> {
    let threshold = ANNOUNCE_AFTER_S / share.max(1e-9);
    // What the count will refuse is the count's to say.
    let forecast = match job.forecast(Some(threshold), ANNOUNCE_BUDGET_S) {
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
        "estimate: {what} (n = {}, {}) should take about {} on {} thread(s), between {} and {}",
        job.n(),
        forecast.size(),
        duration(seconds),
        forecast.threads,
        duration(forecast.estimated_low_s * share),
        duration(forecast.estimated_high_s * share),
    );
    bar.set_estimate(seconds);
    Ok(())
}

/// `nqueens estimate`: the job `count` would resolve from the same flags,
/// forecast.
pub fn run(args: EstimateArgs) -> anyhow::Result<()> {
    let mut options = args.gpu.apply(args.job.options(false), false);
    // Nodes are the backtracker's.
    if args.exact && options.algorithm == Algorithm::Auto {
        options.algorithm = Algorithm::Parallel;
    }
    let job =
        Job::new(args.n, options, Some(args.job.threads()), Run::default()).map_err(job_error)?;
    let described = job.describe();
    let algorithm = described.algorithm;
    args.job.check_search(algorithm)?;
    if algorithm == Algorithm::Join && args.exact {
        return Err(UsageError {
            value: "join".to_string(),
            flag: "--algo <A>",
            rule: "takes no --exact: the join has no search tree to count nodes of".to_string(),
        }
        .into());
    }
    if args.gpu.gpu && job.sketches() {
        return Err(UsageError {
            value: "true".to_string(),
            flag: "--gpu",
            rule: format!(
                "estimates boards up to 25: past it the join's forecast sketches slots and \
                 models the CPU's pair counter only (n = {})",
                args.n
            ),
        }
        .into());
    }
    // The layout runs on the global pool.
    let layout_threads = rayon::current_num_threads();
    let budget_s = args.budget as f64;
    if job.sketches() {
        eprintln!(
            "estimate: the join for n = {} sketches a sample of its slots (each one's glue and \
             pairs done in part and timed; about {})…",
            args.n,
            duration(budget_s)
        );
    } else if let Some(seconds) = job.layout_seconds() {
        eprintln!(
            "estimate: the join for n = {} sizes its quarter table and costs its items (about \
             {} on {layout_threads} thread(s)), then times a sample of its items (about \
             {})…",
            args.n,
            duration(seconds),
            duration(budget_s)
        );
    }
    let before = job.gpu_report();
    let forecast = job
        .forecast(None, budget_s)
        .map_err(usage_error)?
        .expect("a forecast without a threshold");
    let gpu = job.gpu_report().zip(before).map(|(after, before)| {
        let sampled_s = match forecast.basis {
            Basis::Sample { sampled_s, .. } => sampled_s,
            _ => 0.0,
        };
        let sample = GpuReport {
            pairs: after.pairs - before.pairs,
            busy_s: after.busy_s - before.busy_s,
            ..after
        };
        GpuUse::of(sample, sampled_s)
    });
    let search = (algorithm != Algorithm::Join).then_some(Search {
        symmetry: described.symmetry,
        depth: described.depth,
    });
    let exact_nodes = match args.exact {
        true => Some(exact(&job)?),
        false => None,
    };
    let estimate = Estimate {
        algorithm,
        simd: described.simd,
        layout: described.layout,
        search,
        forecast,
        exact_nodes,
        planned_bytes: job
            .engine()
            .map_err(usage_error)?
            .and_then(|engine| engine.planned_bytes()),
        gpu,
    };
    print(&estimate, args.json, write_text)
}

/// The nodes of the search, counted one by one on the job's threads: the
/// plan the count would use (for a serial search, the whole tree cut after
/// the first row).
fn exact(job: &Job) -> anyhow::Result<u64> {
    let whole_tree;
    let plan = match job.engine().map_err(usage_error)? {
        Some(AnyEngine::Backtrack(engine)) => engine.plan(),
        _ => {
            whole_tree = Plan::new(job.n(), 1, Symmetry::None).map_err(usage_error)?;
            &whole_tree
        }
    };
    let pool = super::thread_pool(Some(job.threads()))?;
    Ok(pool.install(|| {
        use rayon::prelude::*;
        (0..plan.len())
            .into_par_iter()
            .with_max_len(64)
            .map(|i| exact_nodes(plan, i..i + 1))
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
                "  sketch       {sampled_units} pair slots of {units} sketched in {sketched_s:.1} s, \
                 weighed by a census of the slots (glue {:.0}% of the time, pairs the rest)",
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
        _ => writeln!(out, "  basis        {}", f.size())?,
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
    if let Some(layout) = e.layout {
        writeln!(out, "  layout       {layout}")?;
    }
    if let Some(gpu) = &e.gpu {
        // The forecast divides the one-thread time by the threads, as if
        // the GPU took every thread's jobs at the sample's pace: a busy
        // share past 1 / threads says the GPU may bound the count instead.
        writeln!(
            out,
            "  gpu          {} ({}): {} pairs of the sample, busy {:.0} % of its one-thread time",
            gpu.adapter,
            gpu.backend,
            gpu.pairs,
            100.0 * gpu.busy
        )?;
    }
    if let Some(planned) = e.planned_bytes {
        writeln!(out, "  memory plan  {}", nqueens::bytes(planned))?;
    }
    if let (Algorithm::Parallel, Some(search)) = (e.algorithm, &e.search) {
        writeln!(out, "  symmetry     {}", search.symmetry)?;
        writeln!(out, "  split depth  {}", search.depth)?;
    }
    Ok(())
}
