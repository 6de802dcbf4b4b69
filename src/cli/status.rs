//! `nqueens status FILE`: what a journal (`count --checkpoint`) or a shard
//! file (`count --shard --out`) holds: the plan, the work done, the partial
//! total, the time spent and left.

use std::io::{self, Read, Write};
use std::path::Path;

use anyhow::Context;
use nqueens::engine::backtrack::plan::max_subproblems;
use nqueens::engine::backtrack::Backtrack;
use nqueens::engine::join::{lays_out_slowly, JoinLayout};
use nqueens::exec::journal::{self, Contents, Header, JournalError};
use nqueens::exec::shard::{self, ShardFile};
use nqueens::files::{self, FileError};
use nqueens::problem::printable;
use nqueens::{Engine, EngineId, Fingerprint, Join, Plan, Simd, Symmetry};
use serde::Serialize;

use super::args::StatusArgs;
use super::report::{duration, print};
use super::{Mismatch, UsageError};

/// `nqueens status FILE`.
pub fn run(args: StatusArgs) -> anyhow::Result<()> {
    let path = args.file.as_path();
    let limit = max_subproblems(args.max_memory);
    let bad = |why: String| UsageError {
        value: path.display().to_string(),
        flag: "<FILE>",
        rule: why,
    };
    // What the file is, from its first bytes (a FIFO or a device is
    // refused before anything is read from it).
    let mut start = Vec::new();
    files::open_regular(path)
        .map_err(|e| match e {
            FileError::Unfit(why) => bad(why),
            FileError::Io(e) => bad(format!("cannot be read: {e}")),
        })?
        .take(journal::MAGIC.len() as u64)
        .read_to_end(&mut start)
        .map_err(|e| bad(format!("cannot be read: {e}")))?;
    if journal::lacks_header(&start) || start.starts_with(journal::MAGIC.as_bytes()) {
        let contents = journal::read(path, limit).map_err(|e| match e {
            JournalError::NotAJournal { why, .. } => bad(why).into(),
            other => anyhow::Error::from(other),
        })?;
        let status = JournalStatus::new(path, &contents, limit)?;
        print(&status, args.json, JournalStatus::write_text)
    } else {
        let file = shard::read(path, limit).map_err(|e| match e.altered {
            true => anyhow::Error::from(Mismatch(e.to_string())),
            false => bad(format!(
                "is neither an nqueens journal nor a shard file ({})",
                e.why
            ))
            .into(),
        })?;
        // Its fields, with `kind` "shard" (like the journal's "journal")
        // and its path.
        let mut status = serde_json::to_value(&file)?;
        status["kind"] = "shard".into();
        status["path"] = path.display().to_string().into();
        print(&status, args.json, |_, out| write_shard(&file, path, out))
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
    partial_unique: Option<u128>,
    wall_s: f64,
    /// Wall seconds left at the pace so far, by the items' estimated cost.
    estimated_left_s: Option<f64>,
    records: usize,
    torn_last_record: bool,
}

impl JournalStatus {
    /// # Errors
    /// [`nqueens::Error::Overflow`] if its records sum past what a count
    /// holds: no count adds up to that.
    fn new(path: &Path, contents: &Contents, limit: usize) -> anyhow::Result<JournalStatus> {
        let header = contents.header.clone();
        let fingerprint = header.fingerprint;
        let full = fingerprint.symmetry == Symmetry::Full;
        let left = if contents.is_complete() {
            Some(0.0)
        } else {
            estimate_left(contents, limit)
        };
        let partial_total = contents
            .tally
            .total_checked(fingerprint.n)
            .with_context(|| format!("the records of journal {}", path.display()))?;
        Ok(JournalStatus {
            kind: "journal",
            path: path.display().to_string(),
            done_items: contents.done_items(),
            complete: contents.is_complete(),
            partial_total: partial_total.to_string(),
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
/// estimated cost of the items left over that of the items done (the
/// plan built within `limit` subproblems). Where laying the join out takes
/// seconds (n = 22..25), by the items alone: its items are interleaved by
/// cost, so the items done are a fair sample of them; so too where its
/// items are drawn (the searched layout).
fn estimate_left(contents: &Contents, limit: usize) -> Option<f64> {
    let f = contents.header.fingerprint;
    let cost: Box<dyn Fn(usize) -> f64> = match f.engine {
        EngineId::Backtrack => {
            let plan = Plan::within(f.n, f.depth, f.symmetry, limit).ok()?;
            let engine = Backtrack::new(plan, Simd::None).ok()?;
            if engine.fingerprint() != f {
                return None;
            }
            Box::new(move |i| engine.cost(i))
        }
        // Searched, items are blocks of slots drawn at random: alike.
        EngineId::Join if f.layout != Some(JoinLayout::Table) || lays_out_slowly(f.n) => {
            Box::new(|_| 1.0)
        }
        EngineId::Join => {
            let costs = Join::costs(f.n, JoinLayout::Table).ok()?;
            Box::new(move |i| costs.get(i).copied().unwrap_or(0.0))
        }
        _ => return None,
    };
    let done: f64 = contents
        .done
        .iter()
        .flat_map(|r| r.clone())
        .map(&cost)
        .sum();
    let left: f64 = contents.remaining().map(&cost).sum();
    (done > 0.0 && contents.wall_s > 0.0).then(|| contents.wall_s * left / done)
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
        writeln!(out, "  written by   {}", printable(&self.header.program))
    }
}

/// What `status` says of a shard file, as text.
fn write_shard(file: &ShardFile, path: &Path, out: &mut dyn Write) -> io::Result<()> {
    writeln!(
        out,
        "shard {}/{} {}",
        file.shard[0],
        file.shard[1],
        path.display()
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
        "  time spent   {} on {} thread(s), simd {}",
        duration(file.elapsed_s),
        file.threads,
        printable(&file.simd)
    )?;
    writeln!(
        out,
        "  machine      {} ({})",
        printable(&file.host),
        printable(&file.cpu)
    )?;
    writeln!(out, "  written by   {}", printable(&file.program))
}

fn write_plan(out: &mut dyn Write, f: &Fingerprint) -> io::Result<()> {
    writeln!(out, "  n            {}", f.n)?;
    writeln!(out, "  engine       {}", f.engine)?;
    writeln!(out, "  symmetry     {}", f.symmetry)?;
    match f.engine {
        EngineId::Join => writeln!(out, "  quarter      {0}x{0}", f.depth),
        EngineId::Backtrack => writeln!(out, "  split depth  {}", f.depth),
        _ => writeln!(out, "  depth        {}", f.depth),
    }
}
