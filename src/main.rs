//! The `nqueens` command: parses the arguments, dispatches to a subcommand in
//! [`cli`], and maps errors to exit codes.
//!
//! Exit status: 0 on success (also when a reader closes the pipe early),
//! 1 when a count fails, `verify` finds a mismatch or `bench` or `rate` a
//! wrong count,
//! 2 on a usage error.

use std::io::{self, Write};
use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod cli;

use cli::args::{CountArgs, EstimateArgs, MergeArgs, SolveArgs, StatusArgs, VerifyArgs};
use cli::UsageError;

/// `nqueens --version`: the crate version and what the binary was built
/// from, e.g. `0.1.0 (git a23de1e0a1, rustc 1.95.0 …, release)`.
const VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (git ",
    env!("NQUEENS_GIT_REVISION"),
    ", ",
    env!("NQUEENS_RUSTC_VERSION"),
    ", ",
    env!("NQUEENS_BUILD_PROFILE"),
    ")"
);

#[derive(Parser)]
#[command(
    name = "nqueens",
    version = VERSION,
    about = "Count and list the solutions of the n-queens puzzle, exactly and fast"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Count the solutions of the n×n board.
    Count(CountArgs),
    /// List the solutions of the n×n board, in lexicographic order.
    Solve(SolveArgs),
    /// Count n = 1..=MAX and check each total against OEIS A000170.
    Verify(VerifyArgs),
    /// Time a sweep over boards, algorithms, threads and depths; write CSV,
    /// JSON, SVG plots and a README into a results folder.
    Bench(cli::bench::BenchArgs),
    /// Estimate a count's size and time before running it: Knuth's
    /// estimator on its search tree, calibrated by a short timed count.
    Estimate(EstimateArgs),
    /// Say what a journal (--checkpoint) or a shard file holds: the plan,
    /// the work done, the partial total, the time spent and left.
    Status(StatusArgs),
    /// Sum shard files (count --shard I/M --out FILE) after checking that
    /// they make one whole count, and report it like count.
    Merge(MergeArgs),
    /// Rate this machine in a minute: work units per second on one thread,
    /// the physical and the logical cores, comparable across machines.
    Rate(cli::rate::RateArgs),
    /// Recount a random sample of the join's work items another way (the
    /// solutions each stands for, counted with none of the join's code):
    /// how a count is trusted where no total is known. Exit status 1 on
    /// any difference.
    Audit(cli::audit::AuditArgs),
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) => return clap_exit(err),
    };
    let result = match cli.command {
        // Every rank resolves; rank 0 alone draws (see `mpi`).
        Command::Count(args) if args.mpi => cli::mpi::count(&args),
        Command::Count(args) => cli::count::run(args),
        Command::Solve(args) => cli::solve::run(args),
        Command::Verify(args) => cli::verify::run(args),
        Command::Bench(args) => cli::bench::run(args),
        Command::Estimate(args) => cli::estimate::run(args),
        Command::Status(args) => cli::status::run(args),
        Command::Merge(args) => cli::merge::run(args),
        Command::Rate(args) => cli::rate::run(args),
        Command::Audit(args) => cli::audit::run(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) if is_broken_pipe(&err) => ExitCode::SUCCESS,
        Err(err) => {
            let status = if err.is::<UsageError>() { 2 } else { 1 };
            // One line: whatever a message quotes from a file or a path
            // reaches the terminal with its control characters written out.
            eprintln!(
                "error: {}",
                nqueens::problem::printable(&format!("{err:#}"))
            );
            if status == 2 {
                eprintln!("\nFor more information, try '--help'.");
            }
            ExitCode::from(status)
        }
    }
}

/// What clap has to say instead of running: `--help` and `--version` on
/// stdout (a failed write is an error, a reader gone early is not), usage
/// errors on stderr with status 2.
fn clap_exit(err: clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    if !matches!(
        err.kind(),
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion
    ) {
        err.exit();
    }
    let mut out = io::stdout().lock();
    match write!(out, "{}", err.render()).and_then(|()| out.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: cannot write to stdout: {e}");
            ExitCode::from(1)
        }
    }
}

/// Whether the error is a reader closing stdout early (`nqueens solve 12 |
/// head`): not a failure.
fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        let kind = match cause.downcast_ref::<io::Error>() {
            Some(io) => Some(io.kind()),
            None => cause
                .downcast_ref::<serde_json::Error>()
                .and_then(serde_json::Error::io_error_kind),
        };
        kind == Some(io::ErrorKind::BrokenPipe)
    })
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    /// clap checks the command line's definition (argument ids named in
    /// `conflicts_with`, duplicate flags…) only with debug assertions (the
    /// test profile has them), and only for the subcommand parsed: checked
    /// here for every subcommand at once.
    #[test]
    fn the_command_line_definition_is_consistent() {
        super::Cli::command().debug_assert();
    }
}
