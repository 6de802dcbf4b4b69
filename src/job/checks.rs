//! What a job refuses before anything runs, naming the flag.

use std::path::Path;

use super::{Algorithm, Options, Run};
use crate::engine::join::GPU_MEMORY_LEAST;
use crate::files::{self, FileError};
use crate::problem::{Error, Symmetry};

/// Refuses, before any work, a file the run could not write when it ends,
/// and a shard result that would overwrite its own journal.
pub(super) fn check_run(run: &Run) -> Result<(), Error> {
    let unfit = |path: &Path, flag: &'static str| {
        files::check_destination(path).map_err(|e| Error::Refused {
            flag,
            value: path.display().to_string(),
            rule: match e {
                FileError::Unfit(why) => why,
                FileError::Io(e) => format!("cannot be written: {e}"),
            },
        })
    };
    if let Some(journal) = &run.checkpoint {
        unfit(journal, "--checkpoint <FILE>")?;
    }
    if let Some(shard) = &run.shard {
        unfit(&shard.out, "--out <FILE>")?;
        if let Some(journal) = run
            .checkpoint
            .as_deref()
            .filter(|j| files::same_file(j, &shard.out))
        {
            return Err(Error::Refused {
                flag: "--out <FILE>",
                value: shard.out.display().to_string(),
                rule: format!(
                    "is the --checkpoint journal {} (or a link to it): the shard's result \
                     would overwrite the journal; write it to another file",
                    journal.display()
                ),
            });
        }
        if !(1..=shard.shards).contains(&shard.index) {
            return Err(Error::Refused {
                flag: "--shard <I/M>",
                value: format!("{}/{}", shard.index, shard.shards),
                rule: "needs 1 <= I <= M".to_string(),
            });
        }
    }
    Ok(())
}

/// Refuses the options that do not go together: a depth out of range; a
/// depth or symmetry with the join, which has neither; a layout with the
/// backtracker, or one the board cannot take; a GPU with any engine but
/// the join, GPU memory without a GPU or below one job's; a run only the
/// pooled engines do (a journal, a shard, MPI) with a serial search. (The serial
/// searches ignore the pooled engines' options.)
pub(super) fn check_options(n: usize, options: &Options, run: &Run) -> Result<(), Error> {
    if let Some(depth) = options.depth {
        if !(1..=n).contains(&depth) {
            return Err(Error::Depth { depth, n });
        }
    }
    let refuse = |flag, value: String, applies_to| Error::Refused {
        flag,
        value,
        rule: format!(
            "applies only to --algo {applies_to}, not {}",
            options.algorithm
        ),
    };
    if options.algorithm == Algorithm::Join {
        if let Some(depth) = options.depth {
            return Err(refuse("--depth <K>", depth.to_string(), "parallel"));
        }
        if options.symmetry != Symmetry::Full {
            let symmetry = options.symmetry.to_string();
            return Err(refuse("--symmetry <S>", symmetry, "parallel"));
        }
    }
    if let Some(layout) = options.layout {
        if options.algorithm != Algorithm::Join {
            return Err(refuse("--layout <LAYOUT>", layout.to_string(), "join"));
        }
        layout.check(n)?;
    }
    if let Some(bytes) = options.gpu_memory {
        let rule = match options.gpu {
            None => Some("applies only with --gpu".to_string()),
            Some(_) if bytes < GPU_MEMORY_LEAST => Some(format!(
                "must be at least {} (one pair job's largest dispatch)",
                crate::problem::bytes(GPU_MEMORY_LEAST)
            )),
            Some(_) => None,
        };
        if let Some(rule) = rule {
            return Err(Error::Refused {
                flag: "--gpu-memory <SIZE>",
                value: crate::problem::bytes(bytes),
                rule,
            });
        }
    }
    if options.gpu.is_some() && options.algorithm != Algorithm::Join {
        let rule = format!(
            "counts the join's pairs on a GPU: it applies only to --algo join or auto, not {}",
            options.algorithm
        );
        return Err(Error::Refused {
            flag: "--gpu",
            value: "true".to_string(),
            rule,
        });
    }
    if !options.algorithm.is_parallel() {
        let pooled_only = [
            (
                "--checkpoint <FILE>",
                run.checkpoint.as_ref().map(|p| p.display().to_string()),
            ),
            (
                "--shard <I/M>",
                run.shard
                    .as_ref()
                    .map(|s| format!("{}/{}", s.index, s.shards)),
            ),
            ("--mpi", run.mpi_ranks.map(|_| "true".to_string())),
        ];
        if let Some((flag, value)) = pooled_only
            .into_iter()
            .find_map(|(flag, value)| value.map(|v| (flag, v)))
        {
            return Err(refuse(flag, value, "parallel or join"));
        }
    }
    Ok(())
}
