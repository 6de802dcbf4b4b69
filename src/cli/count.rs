//! `nqueens count N`: the flags turned into the library's [`Job`] (which
//! resolves the engine, the journal, the shard), counted on its pool, and
//! reported as text or JSON. (`--mpi` is [`mpi`](super::mpi), which
//! resolves its job here too. Reading the files back
//! is [`status`](super::status) and [`merge`](super::merge).)

use std::path::Path;

use nqueens::exec::shard::ShardFile;
use nqueens::{Job, Outcome};

use super::args::{reject_serial, CountArgs};
use super::errors::job_error;
use super::report::{self, duration, print, print_report, Report};
use super::{estimate, progress, signals, UsageError};

pub fn run(args: CountArgs) -> anyhow::Result<()> {
    // Made first: planning a large join takes seconds, and says so.
    let bar = progress::CountBar::new(args.n);
    let outcome = count(&args, &bar);
    bar.finish();
    match outcome? {
        Outcome::Count { count, resumed } => {
            print_report(&Report::new(count, args.unique).resumed(resumed), args.json)
        }
        Outcome::Shard { file, resumed, gpu } => {
            let out = args.out.as_deref().expect("--shard needs --out");
            print_shard(&file, out, resumed, gpu.as_ref(), args.json)
        }
        _ => unreachable!("a count or a shard"),
    }
}

/// Resolves, announces and counts.
fn count(args: &CountArgs, bar: &progress::CountBar) -> anyhow::Result<Outcome> {
    let job = resolve(args, args.run(), args.job.threads())?;
    if let Some(seconds) = job.layout_seconds() {
        bar.planning(
            args.n,
            &format!(
                "the join sizes its quarter table and costs its items, about {} on {} thread(s)",
                duration(seconds),
                rayon::current_num_threads()
            ),
        );
    }
    let started = job.start().map_err(job_error)?;
    estimate::announce(&job, started.share(), bar)?;
    // Ctrl-C or SIGTERM: what finished reaches the journal, the progress
    // line is cleared.
    let (shown, synced) = (bar.handle(), started.journal());
    signals::on_interrupt(move || {
        shown.finish_and_clear();
        if let Some(journal) = synced {
            let _ = journal.flush();
        }
    });
    started.run(&|phase| bar.show(phase)).map_err(job_error)
}

/// `count`'s job: the flags refused that do not apply to the engine it
/// resolves (a serial search takes no --threads), and a note when the join
/// does not fit in memory and the backtracker counts instead.
pub fn resolve(args: &CountArgs, run: nqueens::Run, threads: usize) -> anyhow::Result<Job> {
    if let (true, Some((i, m))) = (args.unique, args.shard) {
        return Err(UsageError {
            value: format!("{i}/{m}"),
            flag: "--shard <I/M>",
            rule: "counts a part of the total: ask `nqueens merge --unique` for the unique \
                   solutions, not --unique here"
                .to_string(),
        }
        .into());
    }
    if let Some(symmetry) = args
        .job
        .symmetry
        .filter(|&s| args.unique && s != nqueens::Symmetry::Full)
    {
        return Err(UsageError {
            value: symmetry.to_string(),
            flag: "--symmetry <S>",
            rule: "must be full with --unique".to_string(),
        }
        .into());
    }
    let options = args.options(args.checkpoint.is_some());
    let job = Job::new(args.n, options, Some(threads), run).map_err(job_error)?;
    let algorithm = job.options().algorithm;
    args.job.check(algorithm)?;
    reject_serial(
        algorithm,
        [("--unique", args.unique.then(|| "true".to_string()))],
    )?;
    let described = job.describe();
    if let Some(memory) = described.join_memory {
        let instead = match described.layout {
            Some(layout) => format!("laying it out {layout} instead"),
            None => "counting by backtracking instead".to_string(),
        };
        eprintln!(
            "note: the join for n = {} (layout {}) would need {} of memory, more than the {} \
             it may take; {instead}",
            args.n,
            nqueens::JoinLayout::automatic(args.n),
            nqueens::bytes(memory.needed_bytes),
            nqueens::bytes(memory.limit_bytes)
        );
    }
    Ok(job)
}

/// A shard's report: the file (as JSON, the file's text), and in text
/// what its GPU did, which the file leaves out.
fn print_shard(
    file: &ShardFile,
    path: &Path,
    resumed: Option<usize>,
    gpu: Option<&nqueens::GpuUse>,
    json: bool,
) -> anyhow::Result<()> {
    print(file, json, |file, out| {
        let [index, shards] = file.shard;
        writeln!(
            out,
            "shard {index}/{shards} of n = {}: {} solutions in items {}..{} of {}",
            file.fingerprint.n, file.total, file.items[0], file.items[1], file.total_items
        )?;
        if let Some(done) = resumed {
            let items = file.items[1] - file.items[0];
            writeln!(out, "  resumed      {}", report::resumed(done, items))?;
        }
        writeln!(out, "  elapsed      {:.3} s", file.elapsed_s)?;
        if let Some(gpu) = gpu {
            report::write_gpu(gpu, out)?;
        }
        writeln!(out, "  written to   {}", path.display())
    })
}
