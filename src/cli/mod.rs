//! The command line: one module per subcommand, the text and JSON reports,
//! progress on stderr, and the benchmark sweeps. Everything that prints
//! lives here; the library only counts.

pub mod args;
pub mod audit;
pub mod bench;
pub mod count;
pub mod errors;
pub mod estimate;
pub mod machine;
pub mod merge;
pub mod mpi;
pub mod progress;
pub mod rate;
pub mod report;
pub mod signals;
pub mod solve;
pub mod status;
pub mod verify;

/// A mistake in the command line: printed once, exit status 2.
#[derive(Debug, thiserror::Error)]
#[error("invalid value '{value}' for '{flag}': {rule}")]
pub struct UsageError {
    /// The value given.
    pub value: String,
    /// The flag, as `--help` shows it (`--depth <K>`).
    pub flag: &'static str,
    /// What the flag accepts.
    pub rule: String,
}

/// A count that did not match OEIS: exit status 1.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct Mismatch(pub String);

/// A rayon pool of `threads` workers (all logical cores by default).
///
/// # Errors
/// If the system cannot start that many threads: one message, with the
/// system's reason once (rayon's error repeats it as its source).
pub fn thread_pool(threads: Option<usize>) -> anyhow::Result<rayon::ThreadPool> {
    let threads = threads.unwrap_or_else(num_cpus::get);
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| anyhow::anyhow!("could not start {threads} worker threads: {e}"))
}

/// Writes `text` to `path` so that readers, an interrupted run or a power
/// cut see the old file or the new one, never half of one
/// ([`files::write_atomically`](nqueens::files::write_atomically)). (A
/// sweep's folder writes its files together: see `bench::folder`.)
pub fn write_atomically(path: &std::path::Path, text: &str) -> anyhow::Result<()> {
    nqueens::files::write_atomically(path, text.as_bytes())
        .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))
}

/// Refuses, before any work, a destination `flag` names that could not be
/// written when the work is done: something other than a regular file
/// there, a missing folder, a folder that refuses new files.
///
/// # Errors
/// A [`UsageError`] naming the flag and the file.
pub fn check_destination(path: &std::path::Path, flag: &'static str) -> Result<(), UsageError> {
    nqueens::files::check_destination(path).map_err(|e| UsageError {
        value: path.display().to_string(),
        flag,
        rule: match e {
            nqueens::files::FileError::Unfit(why) => why,
            nqueens::files::FileError::Io(e) => format!("cannot be written: {e}"),
        },
    })
}
