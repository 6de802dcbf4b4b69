//! A job started: its engine built, its journal opened, its shard's items
//! cut out; then counted, into an [`Outcome`].

use std::sync::Arc;
use std::time::Instant;

use super::{Algorithm, Count, GpuUse, Job, JobError, ShardRun};
use crate::engine::any::AnyEngine;
use crate::engine::Engine;
use crate::exec::journal::{self, Contents, Journal};
use crate::exec::shard::{self, ShardFile};
use crate::exec::{pool, Phase, Progress};
use crate::files;
use crate::problem::{Error, Symmetry, PROGRAM};
use crate::reduce::Tally;
use crate::{reference, system};

/// A job whose engine is built and journal opened, about to count.
pub struct Started<'a> {
    pub(super) job: &'a Job,
    pub(super) engine: Option<&'a AnyEngine>,
    pub(super) items: std::ops::Range<usize>,
    pub(super) journal: Option<(Arc<Journal>, Contents)>,
    /// Since the start: a count's time includes building its engine.
    pub(super) clock: Instant,
}

impl Started<'_> {
    /// The engine (`None` for a serial search).
    pub fn engine(&self) -> Option<&AnyEngine> {
        self.engine
    }

    /// Seconds since [`Job::start`] (a count's time includes its planning).
    pub fn elapsed_s(&self) -> f64 {
        self.clock.elapsed().as_secs_f64()
    }

    /// The share of the whole count this run still does, by the items'
    /// estimated cost: 1 for a plain count, less for a shard or a journal
    /// resumed.
    pub fn share(&self) -> f64 {
        let Some(engine) = self.engine else {
            return 1.0;
        };
        if self.journal.is_none() && self.job.run.shard.is_none() {
            return 1.0;
        }
        let cost =
            |items: &mut dyn Iterator<Item = usize>| items.map(|i| engine.cost(i)).sum::<f64>();
        let todo = match &self.journal {
            Some((_, contents)) => cost(&mut contents.remaining()),
            None => cost(&mut self.items.clone()),
        };
        todo / cost(&mut (0..engine.items())).max(1e-9)
    }

    /// The journal, to flush when the process is told to stop.
    pub fn journal(&self) -> Option<Arc<Journal>> {
        self.journal
            .as_ref()
            .map(|(journal, _)| Arc::clone(journal))
    }

    /// The journal and what it held when opened (for an executor of its
    /// own, MPI's).
    pub fn journal_contents(&self) -> Option<(&Journal, &Contents)> {
        self.journal
            .as_ref()
            .map(|(journal, contents)| (&**journal, contents))
    }

    /// The items a resumed journal had done already.
    pub fn resumed(&self) -> Option<usize> {
        self.journal
            .as_ref()
            .map(|(_, contents)| contents.done_items())
    }

    /// Counts, on the job's pool, reporting `progress`; a shard's file is
    /// written before this returns.
    ///
    /// # Errors
    /// [`Error::Overflow`] if a sum saturated; a journal that cannot be
    /// written; a shard file that cannot.
    pub fn run(self, progress: Progress<'_>) -> Result<Outcome, JobError> {
        let job = self.job;
        let Some(engine) = self.engine else {
            return Ok(Outcome::Count {
                count: count_serially(job.n, job.options.algorithm, self.clock, progress)?,
                resumed: None,
            });
        };
        let resumed = self.resumed();
        let tally = job.install(|| match &self.journal {
            Some((journal, contents)) => journal::count(engine, journal, contents, progress),
            None => Ok(pool::count_items(engine, self.items.clone(), progress)),
        })??;
        let elapsed_s = self.clock.elapsed().as_secs_f64();
        match &job.run.shard {
            Some(run) => {
                let file = shard_file(engine, run, self.items, tally, job.threads, elapsed_s)?;
                files::write_atomically(&run.out, file.to_text().as_bytes()).map_err(|source| {
                    JobError::Write {
                        path: run.out.clone(),
                        source,
                    }
                })?;
                let gpu = job.gpu_use(elapsed_s);
                Ok(Outcome::Shard { file, resumed, gpu })
            }
            None => Ok(Outcome::Count {
                count: job.count_of(tally, job.threads, elapsed_s)?,
                resumed,
            }),
        }
    }
}

/// What a job did. (One a count: its size does not matter.)
#[derive(Clone, Debug)]
#[allow(clippy::large_enum_variant)]
#[non_exhaustive]
pub enum Outcome {
    /// The whole board counted.
    Count {
        /// The count.
        count: Count,
        /// The items a resumed journal had done already.
        resumed: Option<usize>,
    },
    /// One shard counted, its file written.
    Shard {
        /// What the file holds.
        file: ShardFile,
        /// The items a resumed journal had done already.
        resumed: Option<usize>,
        /// What the GPU did (`--gpu`); not in the file, whose shards merge
        /// whatever counted them.
        gpu: Option<GpuUse>,
    },
}

/// A serial textbook search of the whole board: one piece of work on this
/// thread.
fn count_serially(
    n: usize,
    algorithm: Algorithm,
    start: Instant,
    progress: Progress<'_>,
) -> Result<Count, Error> {
    let total = match algorithm {
        Algorithm::Set => reference::set_based::count(n),
        Algorithm::Board => reference::board_scan::count(n),
        Algorithm::Bitmask => reference::bitmask::count_recursive(n),
        _ => reference::bitmask::count_iterative(n),
    };
    progress(Phase::Counting { done: 1, items: 1 });
    // The serial counters saturate their u64 instead of wrapping.
    if total == u64::MAX {
        return Err(Error::Overflow { n });
    }
    Ok(Count {
        n,
        total: u128::from(total),
        algorithm,
        symmetry: Symmetry::None,
        threads: 1,
        depth: 0,
        subproblems: 1,
        items: 1,
        unique: None,
        classes: None,
        simd: None,
        layout: None,
        planned_bytes: None,
        peak_bytes: system::peak_memory(),
        elapsed_s: start.elapsed().as_secs_f64(),
        gpu: None,
    })
}

/// The file of a finished shard.
fn shard_file(
    engine: &AnyEngine,
    run: &ShardRun,
    items: std::ops::Range<usize>,
    tally: Tally,
    threads: usize,
    elapsed_s: f64,
) -> Result<ShardFile, Error> {
    let fingerprint = engine.fingerprint();
    // A saturated sum is no count.
    let total = tally.total_checked(fingerprint.n)?;
    Ok(ShardFile {
        kind: shard::KIND.to_string(),
        format: shard::FORMAT,
        fingerprint,
        shard: [run.index, run.shards],
        items: [items.start, items.end],
        total_items: engine.items(),
        tally,
        total: total.to_string(),
        classes: fingerprint.part_classes(&tally),
        elapsed_s,
        threads,
        simd: engine.simd().to_string(),
        host: system::hostname(),
        cpu: system::cpu_model(),
        program: PROGRAM.to_string(),
        seal: String::new(),
    })
}
