//! `nqueens merge FILE...`: shard files summed, after checking that they
//! make one whole count, and reported like `count`.

use anyhow::Context;
use nqueens::engine::backtrack::plan::max_subproblems;
use nqueens::engine::subproblems_of;
use nqueens::exec::merge::{self, MergeError};
use nqueens::exec::shard;
use nqueens::{Count, Counted, Simd, Symmetry};
use serde::Serialize;

use super::args::MergeArgs;
use super::report::{print, write_report, Report};
use super::{Mismatch, UsageError};

/// `nqueens merge FILE...`.
pub fn run(args: MergeArgs) -> anyhow::Result<()> {
    let mut files = Vec::with_capacity(args.files.len());
    for path in &args.files {
        // A file whose seal does not fit its fields is a check that
        // failed (exit 1); one that is no shard of this program, a usage
        // error (2).
        let file =
            shard::read(path, max_subproblems(args.max_memory)).map_err(|e| match e.altered {
                true => anyhow::Error::from(Mismatch(e.to_string())),
                false => UsageError {
                    value: path.display().to_string(),
                    flag: "<FILE>...",
                    rule: e.why,
                }
                .into(),
            })?;
        files.push((path.display().to_string(), file));
    }
    let merged = merge::merge(&files).map_err(|e| match e {
        MergeError::Nothing => anyhow::Error::from(e),
        other => Mismatch(other.to_string()).into(),
    })?;
    let f = merged.fingerprint;
    let full = f.symmetry == Symmetry::Full;
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
    let total_items = files[0].1.total_items;
    let counted = Counted {
        items: total_items,
        // Counted as `count` counts them (every file passed the same check).
        subproblems: subproblems_of(&f, max_subproblems(args.max_memory)).unwrap_or(0),
        simd: merged.simd.as_deref().and_then(Simd::named),
        planned_bytes: None,
        threads: merged.threads,
        elapsed_s: merged.elapsed_s,
    };
    let mut count = Count::of_tally(&f, &merged.tally, counted).context("the merged count")?;
    count.peak_bytes = None; // the shards' memory, not this process's
    let report = MergeReport {
        report: Report::new(count, args.unique),
        shards: merged.shards,
        duplicates: merged.duplicates,
    };
    print(&report, args.json, |report, out| {
        write_report(out, &report.report)?;
        writeln!(
            out,
            "  merged       {} shard(s){}; threads and elapsed are the shards' added up",
            report.shards,
            match report.duplicates {
                0 => String::new(),
                d => format!(", {d} agreeing duplicate(s) counted once"),
            }
        )
    })?;
    report.report.check()
}

/// What `merge --json` prints: a count's report and the shards merged.
#[derive(Serialize)]
struct MergeReport {
    #[serde(flatten)]
    report: Report,
    shards: usize,
    duplicates: usize,
}
