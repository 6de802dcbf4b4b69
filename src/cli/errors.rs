//! The library's and the journal's errors as the user should see them:
//! what a flag asked for is a usage error naming the flag (exit 2); what
//! went wrong while counting fails the count (exit 1).

use std::path::Path;

use nqueens::exec::journal::JournalError;
use nqueens::{Error, JobError};

use super::UsageError;

/// A plan too large for memory is the `--depth` flag's fault (the automatic
/// depth always fits), a join too large for memory `--max-memory`'s, a
/// board past the join's largest `--algo`'s: usage errors naming the flag.
/// Other errors pass through.
pub fn usage_error(err: Error) -> anyhow::Error {
    match err {
        Error::PlanTooLarge {
            n,
            depth,
            largest,
            max_subproblems,
        } => UsageError {
            value: depth.to_string(),
            flag: "--depth <K>",
            rule: format!(
                "the plan for n = {n} at this depth would hold more than {max_subproblems} \
                 subproblems ({}, --max-memory) at some row of its walk; depths 1..={largest} \
                 fit",
                nqueens::bytes(max_subproblems as u64 * 32)
            ),
        }
        .into(),
        Error::JoinMemory { n, needed, limit } => UsageError {
            value: nqueens::bytes(limit),
            flag: "--max-memory <SIZE>",
            rule: format!(
                "is less than the join for n = {n} needs: {} (quarter table, items, and each \
                 thread's half lists); allow more, use fewer --threads, or --algo parallel",
                nqueens::bytes(needed)
            ),
        }
        .into(),
        Error::Depth { depth, n } => UsageError {
            value: depth.to_string(),
            flag: "--depth <K>",
            rule: format!("must be in 1..={n} for n = {n}"),
        }
        .into(),
        Error::Refused { flag, value, rule } => UsageError { value, flag, rule }.into(),
        Error::SimdUnavailable { simd, .. } => UsageError {
            value: simd.to_string(),
            flag: "--simd <PATH>",
            rule: err.to_string(),
        }
        .into(),
        _ => err.into(),
    }
}

/// A job's refusal or failure as the user should see it: an option that
/// does not apply, or a value out of range, is a usage error naming its
/// flag; the library's errors as [`usage_error`]; the journal's as
/// [`journal_error`].
pub fn job_error(err: JobError) -> anyhow::Error {
    match err {
        JobError::Count(err) => usage_error(err),
        JobError::Journal(err) => {
            let path = journal_path(&err).to_path_buf();
            journal_error(err, &path)
        }
        other => other.into(),
    }
}

/// The journal a journal error is about.
fn journal_path(err: &JournalError) -> &Path {
    match err {
        JournalError::Io { path, .. }
        | JournalError::NotAJournal { path, .. }
        | JournalError::Locked { path }
        | JournalError::Mismatch { path, .. }
        | JournalError::Corrupt { path, .. } => path,
    }
}

/// A file that is no journal, one made for another count, or one another
/// process is counting into, is a usage error (exit 2) naming the flag; a
/// corrupt or unwritable one fails the count (exit 1).
pub fn journal_error(err: JournalError, path: &Path) -> anyhow::Error {
    let refused = |rule: String| {
        UsageError {
            value: path.display().to_string(),
            flag: "--checkpoint <FILE>",
            rule,
        }
        .into()
    };
    match err {
        JournalError::NotAJournal { why, .. } => {
            refused(format!("is not an nqueens journal ({why})"))
        }
        JournalError::Locked { .. } => refused(
            "is being counted into by another nqueens process (it holds the journal's lock); \
             wait for it to finish, or use another file"
                .to_string(),
        ),
        JournalError::Mismatch { differences, .. } => refused(format!(
            "was made for another count: {}; use another file, or the flags it was made with",
            differences.join(", ")
        )),
        other => other.into(),
    }
}
