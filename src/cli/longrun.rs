//! Long runs from the command line: `count --checkpoint` (a journal, and
//! resuming from it), `count --shard I/M --out FILE`, `count --mpi`, and the
//! `status` and `merge` commands.

use std::io::{self, Write};
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use anyhow::Context;
use nqueens::engine::backtrack::Backtrack;
use nqueens::engine::EngineId;
use nqueens::exec::journal::{self, Contents, Header, Journal, JournalError};
use nqueens::exec::merge::{self, MergeError};
use nqueens::exec::pool;
use nqueens::exec::shard::{self, ShardFile};
use nqueens::{
    Algorithm, AnyEngine, Count, Engine, Join, Kernel, Options, PairCounter, Plan, Symmetry, Tally,
};
use serde::Serialize;

use super::args::{CountArgs, MergeArgs, StatusArgs};
use super::count::{print_report, usage_error};
use super::estimate::duration;
use super::report::Report;
use super::{progress, signals, thread_pool, Mismatch, UsageError};

/// The threads per shard the automatic depth of a sharded count plans for:
/// every shard gets at least 64 work items for each of them.
pub const SHARD_THREADS: usize = 16;

/// `count` with `--checkpoint`, `--shard` or `--mpi`.
pub fn count(args: &CountArgs, mut options: Options) -> anyhow::Result<()> {
    if args.mpi {
        return super::mpi::count(args, options);
    }
    let pool = thread_pool(args.threads)?;
    let threads = pool.current_num_threads();
    settle_plan(args, &mut options, threads)?;
    // Planned on the pool, as `count` plans: built on the main thread, the
    // plan left the workers about 1% slower (count 16 --depth 7).
    let engine = pool
        .install(|| nqueens::build_engine(args.n, &options, threads))
        .map_err(usage_error)?;
    let items = match args.shard {
        Some((index, shards)) => shard::ranges(&engine, shards)[index - 1].clone(),
        None => 0..engine.items(),
    };
    let start = Instant::now();
    let bar = progress::CountBar::new();
    let show = |phase| bar.show(phase);
    let journal = match args.checkpoint.as_deref() {
        Some(path) => {
            let header = Header::new(&engine, items.clone());
            let (journal, contents) =
                Journal::open(path, &header).map_err(|e| journal_error(e, path))?;
            Some((path, Arc::new(journal), contents))
        }
        None => None,
    };
    // The part of the whole count this run does, by the items' cost.
    let cost = |items: &mut dyn Iterator<Item = usize>| items.map(|i| engine.cost(i)).sum::<f64>();
    let whole = cost(&mut (0..engine.items()));
    let todo = match &journal {
        Some((_, _, contents)) => cost(&mut contents.remaining().into_iter()),
        None => cost(&mut items.clone()),
    };
    super::count::announce(args.n, &options, threads, todo / whole.max(1e-9), &bar)?;
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
    match (args.shard, args.out.as_deref()) {
        (Some((index, shards)), Some(out)) => {
            let file = shard_file(&engine, [index, shards], items, tally, threads, elapsed_s);
            write_shard(out, &file)?;
            print_shard(&file, out, args.json)
        }
        _ => {
            let count = Count::of_engine(&engine, tally, threads, elapsed_s)?;
            print_report(&Report::new(count, args.unique), args.json)
        }
    }
}

/// Fixes the depth and symmetry the flags leave open: a journal's plan
/// decides them, so that a count resumes whatever thread count it resumes
/// with; shards, which run on machines of any size, plan for
/// [`SHARD_THREADS`] threads per shard, the same everywhere; other counts
/// for `threads`.
pub fn settle_plan(args: &CountArgs, options: &mut Options, threads: usize) -> anyhow::Result<()> {
    if let Some(path) = args.checkpoint.as_deref().filter(|p| p.exists()) {
        let contents = journal::read(path).map_err(|e| journal_error(e, path))?;
        let planned = contents.header.fingerprint;
        options.depth = options.depth.or(Some(planned.depth));
        if args.symmetry.is_none() {
            options.symmetry = planned.symmetry;
        }
    }
    let threads = match args.shard {
        Some((_, shards)) => SHARD_THREADS.saturating_mul(shards),
        None => threads,
    };
    if options.depth.is_none() && options.algorithm == Algorithm::Parallel {
        options.depth = Some(Plan::auto_depth(args.n, options.symmetry, threads)?);
    }
    Ok(())
}

/// Journal errors as the user should see them: a file that is no journal,
/// or one made for another count, is a usage error (exit 2) naming the
/// flag; a corrupt or unwritable one fails the count (exit 1).
pub fn journal_error(err: JournalError, path: &Path) -> anyhow::Error {
    match err {
        JournalError::NotAJournal { why, .. } => UsageError {
            value: path.display().to_string(),
            flag: "--checkpoint <FILE>",
            rule: format!("is not an nqueens journal ({why})"),
        }
        .into(),
        JournalError::Mismatch { differences, .. } => UsageError {
            value: path.display().to_string(),
            flag: "--checkpoint <FILE>",
            rule: format!(
                "was made for another count: {}; use another file, or the flags it was made with",
                differences.join(", ")
            ),
        }
        .into(),
        other => other.into(),
    }
}

pub fn shard_file(
    engine: &AnyEngine,
    shard: [usize; 2],
    items: std::ops::Range<usize>,
    tally: Tally,
    threads: usize,
    elapsed_s: f64,
) -> ShardFile {
    let machine = super::bench::machine::Machine::detect();
    ShardFile {
        kind: shard::KIND.to_string(),
        format: shard::FORMAT,
        fingerprint: engine.fingerprint(),
        shard,
        items: [items.start, items.end],
        total_items: engine.items(),
        tally,
        total: tally.total().to_string(),
        classes: shard::classes(&engine.fingerprint(), &tally),
        elapsed_s,
        threads,
        kernel: engine.counter_name().to_string(),
        host: machine.host,
        cpu: machine.cpu_model,
        program: nqueens::PROGRAM.to_string(),
    }
}

/// Writes a shard file through a temporary file and a rename.
fn write_shard(path: &Path, file: &ShardFile) -> anyhow::Result<()> {
    let mut text = serde_json::to_string_pretty(file)?;
    text.push('\n');
    super::write_atomically(path, &text)
}

fn print_shard(file: &ShardFile, path: &Path, json: bool) -> anyhow::Result<()> {
    let mut out = io::stdout().lock();
    if json {
        serde_json::to_writer(&mut out, file)?;
        writeln!(out)?;
    } else {
        let [index, shards] = file.shard;
        writeln!(
            out,
            "shard {index}/{shards} of n = {}: {} solutions in items {}..{} of {}",
            file.fingerprint.n, file.total, file.items[0], file.items[1], file.total_items
        )?;
        writeln!(out, "  elapsed      {:.3} s", file.elapsed_s)?;
        writeln!(out, "  written to   {}", path.display())?;
    }
    out.flush()?;
    Ok(())
}

/// `nqueens status FILE`.
pub fn status(args: StatusArgs) -> anyhow::Result<()> {
    let path = args.file.as_path();
    let bad = |why: String| UsageError {
        value: path.display().to_string(),
        flag: "<FILE>",
        rule: why,
    };
    let bytes = std::fs::read(path).map_err(|e| bad(format!("cannot be read: {e}")))?;
    if bytes.starts_with(journal::MAGIC.as_bytes()) {
        let contents = journal::read(path).map_err(|e| match e {
            JournalError::NotAJournal { why, .. } => bad(why).into(),
            other => anyhow::Error::from(other),
        })?;
        let status = JournalStatus::new(path, &contents)?;
        print_status(&status, args.json, JournalStatus::write_text)
    } else {
        let file = shard::read(path).map_err(|e| {
            bad(format!(
                "is neither an nqueens journal nor a shard file ({})",
                e.why
            ))
        })?;
        print_status(
            &ShardStatus::new(path, file),
            args.json,
            ShardStatus::write_text,
        )
    }
}

/// What `status` says of a journal.
#[derive(Serialize)]
struct JournalStatus {
    kind: &'static str,
    path: String,
    #[serde(flatten)]
    header: Header,
    done_items: usize,
    complete: bool,
    /// The solutions in the finished items (a decimal string).
    partial_total: String,
    partial_unique: Option<u64>,
    wall_s: f64,
    /// Wall seconds left at the pace so far, by the items' estimated cost.
    estimated_left_s: Option<f64>,
    records: usize,
    torn_last_record: bool,
}

impl JournalStatus {
    fn new(path: &Path, contents: &Contents) -> anyhow::Result<JournalStatus> {
        let header = contents.header.clone();
        let fingerprint = header.fingerprint;
        let full = fingerprint.symmetry == Symmetry::Full;
        let left = if contents.is_complete() {
            Some(0.0)
        } else {
            estimate_left(contents)
        };
        Ok(JournalStatus {
            kind: "journal",
            path: path.display().to_string(),
            done_items: contents.done_items(),
            complete: contents.is_complete(),
            partial_total: contents.tally.total().to_string(),
            partial_unique: (full && fingerprint.engine == EngineId::Backtrack)
                .then(|| contents.tally.classes.unique()),
            wall_s: contents.wall_s,
            estimated_left_s: left,
            records: contents.records,
            torn_last_record: contents.torn,
            header,
        })
    }
}

/// The wall time left at the pace so far: the time spent, scaled by the
/// estimated cost of the items left over that of the items done.
fn estimate_left(contents: &Contents) -> Option<f64> {
    let f = contents.header.fingerprint;
    let cost: Box<dyn Fn(usize) -> f64> = match f.engine {
        EngineId::Backtrack => {
            let plan = Plan::new(f.n, f.depth, f.symmetry).ok()?;
            let engine = Backtrack::new(plan, Kernel::Scalar).ok()?;
            if engine.fingerprint() != f {
                return None;
            }
            Box::new(move |i| engine.cost(i))
        }
        EngineId::Join => {
            let costs = Join::costs(f.n).ok()?;
            Box::new(move |i| costs.get(i).copied().unwrap_or(0.0))
        }
    };
    let done: f64 = contents
        .done
        .iter()
        .flat_map(|r| r.clone())
        .map(&cost)
        .sum();
    let left: f64 = contents.remaining().into_iter().map(&cost).sum();
    (done > 0.0 && contents.wall_s > 0.0).then(|| contents.wall_s * left / done)
}

/// What `status` says of a shard file.
#[derive(Serialize)]
struct ShardStatus {
    kind: &'static str,
    path: String,
    #[serde(flatten)]
    file: ShardFile,
}

impl ShardStatus {
    fn new(path: &Path, file: ShardFile) -> ShardStatus {
        ShardStatus {
            kind: "shard",
            path: path.display().to_string(),
            file,
        }
    }
}

/// Prints a status as one line of JSON, or as text by `write_text`.
fn print_status<T: Serialize>(
    status: &T,
    json: bool,
    write_text: fn(&T, &mut dyn Write) -> io::Result<()>,
) -> anyhow::Result<()> {
    let mut out = io::stdout().lock();
    if json {
        serde_json::to_writer(&mut out, status)?;
        writeln!(out)?;
    } else {
        write_text(status, &mut out)?;
    }
    out.flush()?;
    Ok(())
}

impl JournalStatus {
    fn write_text(&self, out: &mut dyn Write) -> io::Result<()> {
        let f = &self.header.fingerprint;
        let range = self.header.range();
        writeln!(out, "journal {}", self.path)?;
        write_plan(out, f)?;
        if range.len() != self.header.total_items {
            writeln!(
                out,
                "  shard items  {}..{} of {}",
                range.start, range.end, self.header.total_items
            )?;
        }
        let percent = 100.0 * self.done_items as f64 / range.len().max(1) as f64;
        writeln!(
            out,
            "  items done   {} of {} ({percent:.1}%){}",
            self.done_items,
            range.len(),
            if self.complete { ", complete" } else { "" }
        )?;
        writeln!(out, "  solutions    {} so far", self.partial_total)?;
        if let Some(unique) = self.partial_unique {
            writeln!(out, "  unique       {unique} so far")?;
        }
        writeln!(out, "  time spent   {}", duration(self.wall_s))?;
        match self.estimated_left_s {
            Some(left) => writeln!(out, "  time left    about {} at this pace", duration(left))?,
            None => writeln!(out, "  time left    unknown until an item finishes")?,
        }
        if self.torn_last_record {
            writeln!(
                out,
                "  note         its last record was torn; resuming drops it"
            )?;
        }
        writeln!(out, "  written by   {}", self.header.program)
    }
}

impl ShardStatus {
    fn write_text(&self, out: &mut dyn Write) -> io::Result<()> {
        let file = &self.file;
        writeln!(
            out,
            "shard {}/{} {}",
            file.shard[0], file.shard[1], self.path
        )?;
        write_plan(out, &file.fingerprint)?;
        writeln!(
            out,
            "  items        {}..{} of {}, complete",
            file.items[0], file.items[1], file.total_items
        )?;
        writeln!(out, "  solutions    {} (its part of the total)", file.total)?;
        writeln!(
            out,
            "  time spent   {} on {} thread(s), {} kernel",
            duration(file.elapsed_s),
            file.threads,
            file.kernel
        )?;
        writeln!(out, "  machine      {} ({})", file.host, file.cpu)?;
        writeln!(out, "  written by   {}", file.program)
    }
}

fn write_plan(out: &mut dyn Write, f: &nqueens::Fingerprint) -> io::Result<()> {
    writeln!(out, "  n            {}", f.n)?;
    writeln!(out, "  engine       {}", f.engine)?;
    writeln!(out, "  symmetry     {}", f.symmetry)?;
    writeln!(out, "  split depth  {}", f.depth)
}

/// `nqueens merge FILE...`.
pub fn merge(args: MergeArgs) -> anyhow::Result<()> {
    let mut files = Vec::with_capacity(args.files.len());
    for path in &args.files {
        let file = shard::read(path).map_err(|e| UsageError {
            value: path.display().to_string(),
            flag: "<FILE>...",
            rule: e.why,
        })?;
        files.push((path.display().to_string(), file));
    }
    let merged = merge::merge(&files).map_err(|e| match e {
        MergeError::Nothing => anyhow::Error::from(e),
        other => Mismatch(other.to_string()).into(),
    })?;
    let f = merged.fingerprint;
    let full = f.symmetry == Symmetry::Full;
    let join = f.engine == EngineId::Join;
    if args.unique && !full {
        return Err(UsageError {
            value: "true".to_string(),
            flag: "--unique",
            rule: format!(
                "needs shards counted with full symmetry; these used {}",
                f.symmetry
            ),
        }
        .into());
    }
    let classes = nqueens::classes_of(&f, &merged.tally)?;
    let total = merged.tally.total_u64(f.n).context("the merged count")?;
    let count = Count {
        n: f.n,
        total,
        algorithm: if join {
            Algorithm::Join
        } else {
            Algorithm::Parallel
        },
        symmetry: f.symmetry,
        threads: merged.threads,
        depth: f.depth,
        kernel: merged
            .kernel
            .as_deref()
            .and_then(|k| Kernel::ALL.into_iter().find(|x| x.name() == k)),
        subproblems: if join {
            files[0].1.total_items - 1
        } else {
            Plan::size(f.n, f.depth, f.symmetry, usize::MAX).unwrap_or(0)
        },
        items: files[0].1.total_items,
        unique: classes.map(|c| c.unique()),
        classes,
        pair_counter: merged.kernel.as_deref().and_then(|k| {
            [PairCounter::Portable, PairCounter::Avx512]
                .into_iter()
                .find(|x| x.name() == k)
        }),
        planned_bytes: None,
        peak_bytes: None,
        elapsed_s: merged.elapsed_s,
    };
    let report = MergeReport {
        report: Report::new(count, args.unique),
        shards: merged.shards,
        duplicates: merged.duplicates,
    };
    if args.json {
        let mut out = io::stdout().lock();
        serde_json::to_writer(&mut out, &report)?;
        writeln!(out)?;
        out.flush()?;
        Ok(())
    } else {
        print_report(&report.report, false)?;
        let mut out = io::stdout().lock();
        writeln!(
            out,
            "  merged       {} shard(s){}; threads and elapsed are the shards' added up",
            report.shards,
            match report.duplicates {
                0 => String::new(),
                d => format!(", {d} agreeing duplicate(s) counted once"),
            }
        )?;
        out.flush()?;
        Ok(())
    }
}

/// What `merge --json` prints: a count's report and the shards merged.
#[derive(Serialize)]
struct MergeReport {
    #[serde(flatten)]
    report: Report,
    shards: usize,
    duplicates: usize,
}
