//! The one executor of a pooled count (the backtracking engine or the
//! join): the engine built on the pool, its items counted there, plainly,
//! recorded in a journal (`--checkpoint`, resumed from it) or cut to a
//! shard (`--shard I/M --out FILE`), and reported. (`count --mpi` is
//! [`mpi`](super::mpi); reading the files back, [`status`](super::status)
//! and [`merge`](super::merge).)

use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use nqueens::exec::journal::{self, Journal};
use nqueens::exec::pool;
use nqueens::exec::shard::{self, ShardFile};
use nqueens::{AnyEngine, Count, Engine, Tally};

use super::args::CountArgs;
use super::errors::{journal_error, usage_error};
use super::job::Job;
use super::report::{self, print, print_report, Report};
use super::{estimate, progress, signals, thread_pool};

/// `count` on the pool: plain, with `--checkpoint` or with `--shard`.
pub fn count(args: &CountArgs, mut job: Job, bar: progress::CountBar) -> anyhow::Result<()> {
    let start = Instant::now();
    let pool = thread_pool(Some(job.threads))?;
    let threads = pool.current_num_threads();
    job.settle_depth(args.shard.map(|(_, shards)| shards), threads)?;
    let options = job.options;
    // Planned on the pool, as `count` plans: built on the main thread, the
    // plan left the workers about 1% slower (count 16 --depth 7).
    let engine = pool
        .install(|| nqueens::build_engine(job.n, &options, threads))
        .map_err(usage_error)?;
    let items = match args.shard {
        Some((index, shards)) => shard::ranges(&engine, shards)[index - 1].clone(),
        None => 0..engine.items(),
    };
    let show = |phase| bar.show(phase);
    let journal = match args.checkpoint.as_deref() {
        Some(path) => {
            let (journal, contents) =
                Journal::open(path, &engine, items.clone()).map_err(|e| journal_error(e, path))?;
            Some((path, Arc::new(journal), contents))
        }
        None => None,
    };
    // The part of the whole count this run does, by the items' cost (all
    // of it for a plain count: no need to add the costs up).
    let cost = |items: &mut dyn Iterator<Item = usize>| items.map(|i| engine.cost(i)).sum::<f64>();
    let share = if journal.is_none() && args.shard.is_none() {
        1.0
    } else {
        let todo = match &journal {
            Some((_, _, contents)) => cost(&mut contents.remaining()),
            None => cost(&mut items.clone()),
        };
        todo / cost(&mut (0..engine.items())).max(1e-9)
    };
    let join = match &engine {
        AnyEngine::Join(join) => Some(join),
        AnyEngine::Backtrack(_) => None,
    };
    estimate::announce(job.n, &options, threads, share, join, &bar)?;
    // Ctrl-C or SIGTERM: what finished reaches the journal, the progress
    // line is cleared.
    let (shown, synced) = (
        bar.handle(),
        journal.as_ref().map(|(_, j, _)| Arc::clone(j)),
    );
    signals::on_interrupt(move || {
        shown.finish_and_clear();
        if let Some(journal) = synced {
            let _ = journal.flush();
        }
    });
    let tally = pool.install(|| match &journal {
        Some((path, journal, contents)) => {
            journal::count(&engine, journal, contents, &show).map_err(|e| journal_error(e, path))
        }
        None => Ok(pool::count_items(&engine, items.clone(), &show)),
    });
    bar.finish();
    let tally = tally?;
    let elapsed_s = start.elapsed().as_secs_f64();
    let resumed = journal
        .as_ref()
        .map(|(_, _, contents)| contents.done_items());
    match (args.shard, args.out.as_deref()) {
        (Some((index, shards)), Some(out)) => {
            let file = shard_file(&engine, [index, shards], items, tally, threads, elapsed_s)?;
            super::write_atomically(out, &file.to_text())?;
            print_shard(&file, out, resumed, args.json)
        }
        _ => {
            let count = Count::of_engine(&engine, tally, threads, elapsed_s)?;
            print_report(&Report::new(count, args.unique).resumed(resumed), args.json)
        }
    }
}

/// The file of a finished shard.
///
/// # Errors
/// [`Error::Overflow`](nqueens::Error::Overflow) if its tally saturated:
/// a saturated sum is no count.
pub fn shard_file(
    engine: &AnyEngine,
    shard: [usize; 2],
    items: std::ops::Range<usize>,
    tally: Tally,
    threads: usize,
    elapsed_s: f64,
) -> anyhow::Result<ShardFile> {
    let machine = super::bench::machine::Machine::detect();
    let fingerprint = engine.fingerprint();
    let total = tally.total_checked(fingerprint.n)?;
    Ok(ShardFile {
        kind: shard::KIND.to_string(),
        format: shard::FORMAT,
        fingerprint,
        shard,
        items: [items.start, items.end],
        total_items: engine.items(),
        tally,
        total: total.to_string(),
        classes: shard::classes(&fingerprint, &tally),
        elapsed_s,
        threads,
        simd: engine.simd().to_string(),
        host: machine.host,
        cpu: machine.cpu_model,
        program: nqueens::PROGRAM.to_string(),
        seal: String::new(),
    })
}

fn print_shard(
    file: &ShardFile,
    path: &Path,
    resumed: Option<usize>,
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
        writeln!(out, "  written to   {}", path.display())
    })
}
