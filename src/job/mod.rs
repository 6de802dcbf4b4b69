//! A count, resolved once: the one room that decides what runs.
//!
//! [`Job::new`] takes what a command was asked (the board, the
//! [`Options`], the threads, and how to [`Run`]: plainly, recorded in a
//! journal, as one shard of many, or over MPI) and settles, once: the
//! engine (the private `choose`, after a resumed journal's own plan), its
//! instruction-set path, the backtracker's depth, the memory plan, and what
//! is refused, naming the flag. Everything after asks the job:
//! [`Job::describe`] says what will run, [`Job::forecast`] how long it will
//! take, [`Job::start`] builds the engine on the job's pool and opens the
//! journal, and [`Started::run`] counts and returns an [`Outcome`].
//!
//! `count`, `estimate`, `verify`, `bench`, `audit`, `rate` and the MPI
//! workers all build their Job here; nothing else picks an engine. This is
//! the one room above [`exec`](crate::exec) and [`engine`](crate::engine)
//! that may name both.

mod checks;
mod choice;
mod count;
mod options;
mod started;

use std::path::PathBuf;
use std::sync::{Arc, OnceLock};
use std::time::Instant;

use self::checks::{check_options, check_run};
use self::choice::Decider;
pub use self::choice::{memory_limit, Choice, JoinMemory, JOIN_FROM};
pub use self::count::{Count, Counted, GpuUse};
pub use self::options::{Algorithm, Options};
pub use self::started::{Outcome, Started};
use crate::engine::any::AnyEngine;
use crate::engine::backtrack::forecast::Search;
use crate::engine::backtrack::plan::Plan;
use crate::engine::backtrack::Backtrack;
use crate::engine::cpu::Simd;
use crate::engine::join::{self, Adapter, Gpu, GpuError, GpuReport, Join, JoinLayout};
use crate::engine::{Engine, EngineId, Fingerprint};
use crate::exec::forecast::{self, Forecast};
use crate::exec::journal::{self, Journal, JournalError};
use crate::exec::ranks::{MpiLoad, RankGpu};
use crate::exec::shard;
use crate::exec::Progress;
use crate::files::FileError;
use crate::problem::{check_board_size, Error, Symmetry};
use crate::reduce::Tally;
use crate::reference;

/// The threads per shard the automatic depth of a sharded count plans for:
/// every shard gets at least 64 work items for each of them, whatever
/// machine takes it.
pub const SHARD_THREADS: usize = 16;

/// How a count runs: plainly on the job's pool (the default), recorded in
/// a journal it resumes from, as one shard of many, or as rank 0 of an MPI
/// run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Run {
    /// The journal (`--checkpoint`): created, or resumed, whose plan then
    /// decides the engine, symmetry and depth.
    pub checkpoint: Option<PathBuf>,
    /// Count only this shard, written to its file (`--shard I/M --out`).
    pub shard: Option<ShardRun>,
    /// Share the items among this many MPI ranks, rank 0 among them
    /// (`--mpi`, resolved on rank 0): the backtracker's depth is planned
    /// for all their threads.
    pub mpi_ranks: Option<usize>,
}

/// One shard of a count: items cut by cost, the same on every machine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShardRun {
    /// Which shard, `1..=shards`.
    pub index: usize,
    /// Of how many.
    pub shards: usize,
    /// Where its file goes.
    pub out: PathBuf,
}

/// Why a job is refused or fails.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum JobError {
    /// What counting refuses or fails at (board size, memory, a path this
    /// CPU lacks, an overflow...).
    #[error(transparent)]
    Count(#[from] Error),
    /// The journal cannot be read, is another count's, or cannot be written.
    #[error(transparent)]
    Journal(#[from] JournalError),
    /// The shard's file cannot be written.
    #[error("cannot write {}: {source}", path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// Why.
        source: FileError,
    },
}

impl JobError {
    /// The library's own error (what [`count`](crate::count) returns): a
    /// journal's or a file's error as a refusal of the flag that named it.
    pub fn into_error(self) -> Error {
        match self {
            JobError::Count(e) => e,
            JobError::Journal(e) => Error::Refused {
                flag: "--checkpoint <FILE>",
                value: String::new(),
                rule: e.to_string(),
            },
            JobError::Write { path, source } => Error::Refused {
                flag: "--out <FILE>",
                value: path.display().to_string(),
                rule: source.to_string(),
            },
        }
    }
}

/// What a job will run, in the words of its report: the algorithm, the
/// path, and the backtracker's symmetry and depth.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Description {
    /// The algorithm (never `auto`).
    pub algorithm: Algorithm,
    /// The instruction-set path of its engine (`None` for a serial search).
    pub simd: Option<Simd>,
    /// The symmetry its search exploits (`none` for a serial search; the
    /// join's is full).
    pub symmetry: Symmetry,
    /// The backtracker's split depth (0 for a serial search; the join's
    /// quarter side).
    pub depth: usize,
    /// The join's layout (`None` for the others).
    pub layout: Option<JoinLayout>,
    /// Set when `auto` would have taken the join in its automatic layout
    /// but that memory plan does not fit: the join's other layout counts
    /// (`layout` says it), else the backtracker.
    pub join_memory: Option<JoinMemory>,
}

/// A count, resolved: see the [module](self).
pub struct Job {
    n: usize,
    /// A concrete algorithm (never `auto`), and for the backtracker its
    /// settled depth.
    options: Options,
    threads: usize,
    /// `None`: the pool the job is run from (the library's [`count`](crate::count)).
    own_pool: Option<OnceLock<rayon::ThreadPool>>,
    run: Run,
    join_memory: Option<JoinMemory>,
    /// The GPU the join counts its long pair jobs on (`--gpu`).
    gpu: Option<Arc<Gpu>>,
    engine: OnceLock<AnyEngine>,
}

impl Job {
    /// Resolves a count of the n×n board with `options` on `threads`
    /// threads (`None`: on the pool the job is started from), run as
    /// `run` says.
    ///
    /// # Errors
    /// [`Error::Refused`] naming the flag of an option that does not
    /// apply or is out of range; [`JobError::Count`] for what counting
    /// refuses ([`Error::BoardSize`], [`Error::JoinMemory`] for the join
    /// asked for by name, [`Error::SimdUnavailable`]); a journal to resume
    /// that cannot be read.
    pub fn new(
        n: usize,
        options: Options,
        threads: Option<usize>,
        run: Run,
    ) -> Result<Job, JobError> {
        check_board_size(n)?;
        check_run(&run)?;
        let own_pool = threads.map(|_| OnceLock::new());
        let threads = threads.unwrap_or_else(rayon::current_num_threads).max(1);
        let max_subproblems = options.max_subproblems();
        // A journal resumed decides the plan: its engine, depth and
        // symmetry (a file a crash left before its header was whole is a
        // new one).
        let planned = match run.checkpoint.as_deref() {
            Some(path) => {
                journal::header_of(path, max_subproblems)?.map(|header| header.fingerprint)
            }
            None => None,
        };
        let mut options = options;
        if let Some(planned) = planned {
            if options.algorithm == Algorithm::Auto {
                options.algorithm = Algorithm::of_engine(planned.engine);
            }
            // The journal's symmetry, unless another than the default was
            // asked for (then a journal of another is refused when it
            // opens, naming both).
            if planned.engine == EngineId::Backtrack && options.symmetry == Symmetry::Full {
                options.symmetry = planned.symmetry;
            }
            // The journal's layout, unless one was asked for (then a
            // journal of the other is refused when it opens).
            if options.layout.is_none() {
                options.layout = planned.layout;
            }
        }
        // A layout and a GPU are the join's: asking for one asks for the
        // join.
        let join_only = options.layout.is_some() || options.gpu.is_some();
        if join_only && options.algorithm == Algorithm::Auto {
            options.algorithm = Algorithm::Join;
        }
        check_options(n, &options, &run)?;
        // A shard's engine and layout follow its board, so that every
        // machine that takes one of its count's shards counts the same items.
        let decider = match run.shard {
            Some(_) => Decider::Board,
            None => Decider::Machine,
        };
        let choice = choice::choose(n, &options, threads, decider)?;
        options.algorithm = choice.algorithm;
        options.layout = choice.layout;
        if let (Some(simd), Some(engine)) = (options.simd, options.algorithm.engine()) {
            engine.check(simd)?;
        }
        if options.algorithm == Algorithm::Parallel && options.depth.is_none() {
            options.depth = Some(match planned {
                Some(planned) if planned.engine == EngineId::Backtrack => planned.depth,
                // Items that must not depend on this machine: shards run
                // on machines of any size; MPI plans for every worker.
                _ => {
                    let planned_threads = match (&run.shard, run.mpi_ranks) {
                        (Some(shard), _) => SHARD_THREADS.saturating_mul(shard.shards),
                        (None, Some(ranks)) => threads.saturating_mul(ranks.max(1)),
                        (None, None) => threads,
                    };
                    Plan::auto_depth(n, options.symmetry, planned_threads, max_subproblems)?
                }
            });
        }
        // The GPU opened once, here: no adapter is a refusal before
        // anything runs.
        let gpu = match options.gpu.filter(|_| options.algorithm == Algorithm::Join) {
            Some(adapter) => Some(Arc::new(open_gpu(adapter, options.gpu_memory)?)),
            None => None,
        };
        Ok(Job {
            n,
            options,
            threads,
            own_pool,
            run,
            join_memory: choice.join_memory,
            gpu,
            engine: OnceLock::new(),
        })
    }

    /// The board size.
    pub fn n(&self) -> usize {
        self.n
    }

    /// The threads it counts on (1 for a serial search).
    pub fn threads(&self) -> usize {
        match self.options.algorithm.is_parallel() {
            true => self.threads,
            false => 1,
        }
    }

    /// The options resolved: a concrete algorithm, and the backtracker's
    /// depth.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// What will run.
    pub fn describe(&self) -> Description {
        let algorithm = self.options.algorithm;
        let (symmetry, depth) = match algorithm {
            Algorithm::Parallel => (self.options.symmetry, self.options.depth.unwrap_or(0)),
            Algorithm::Join => (Symmetry::Full, self.n / 2),
            _ => (Symmetry::None, 0),
        };
        Description {
            algorithm,
            simd: algorithm.engine().map(|e| e.simd(self.options.simd)),
            symmetry,
            depth,
            layout: self.options.layout,
            join_memory: self.join_memory,
        }
    }

    /// Seconds the join takes to lay out its table and items before its
    /// first item counts, where that is long enough to say (the table
    /// layout from n = 22); `None` for the backtracker and quick layouts.
    pub fn layout_seconds(&self) -> Option<f64> {
        match self.options.layout {
            Some(JoinLayout::Table) => join::layout_seconds(self.n, rayon::current_num_threads()),
            _ => None,
        }
    }

    /// Whether the join's forecast sketches slots rather than timing whole
    /// items (its items take minutes to days).
    pub fn sketches(&self) -> bool {
        self.options.algorithm == Algorithm::Join && self.n > join::LARGEST_SAMPLED
    }

    /// The job's own pool, started on first use (`None`: it runs on the
    /// pool it is called from).
    ///
    /// # Errors
    /// [`Error::ThreadPool`] if its threads cannot start.
    pub fn pool(&self) -> Result<Option<&rayon::ThreadPool>, Error> {
        let Some(cell) = &self.own_pool else {
            return Ok(None);
        };
        if cell.get().is_none() {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(self.threads)
                .build()
                .map_err(|e| Error::ThreadPool {
                    why: format!("{} worker threads: {e}", self.threads),
                })?;
            let _ = cell.set(pool);
        }
        Ok(cell.get())
    }

    /// Runs `f` on the job's pool.
    fn install<R: Send>(&self, f: impl FnOnce() -> R + Send) -> Result<R, Error> {
        Ok(match self.pool()? {
            Some(pool) => pool.install(f),
            None => f(),
        })
    }

    /// The engine, built once, on the job's pool (planned there: built on
    /// another thread, the backtracker's plan left the workers about 1 %
    /// slower); `None` for a serial search.
    ///
    /// # Errors
    /// [`Error::PlanTooLarge`] for a depth whose plan does not fit;
    /// [`Error::JoinMemory`]; [`Error::ThreadPool`].
    pub fn engine(&self) -> Result<Option<&AnyEngine>, Error> {
        if !self.options.algorithm.is_parallel() {
            return Ok(None);
        }
        if let Some(engine) = self.engine.get() {
            return Ok(Some(engine));
        }
        let built = self.install(|| build(self.n, &self.options, self.threads))??;
        let built = match (built, &self.gpu) {
            (AnyEngine::Join(join), Some(gpu)) => AnyEngine::Join(join.with_gpu(Arc::clone(gpu))),
            (built, _) => built,
        };
        Ok(Some(self.engine.get_or_init(|| built)))
    }

    /// The fingerprint of its items (`None` for a serial search).
    ///
    /// # Errors
    /// As [`Job::engine`].
    pub fn fingerprint(&self) -> Result<Option<Fingerprint>, Error> {
        Ok(self.engine()?.map(|e| e.fingerprint()))
    }

    /// The forecast of the whole count on its threads, by the engine's own
    /// method ([`exec::forecast`](crate::exec::forecast)); with
    /// `longer_than`, `None` for a count that surely takes less (decided
    /// in milliseconds). Builds the engine (the count's own, kept).
    ///
    /// # Errors
    /// As [`Job::engine`], and what the forecast's planning refuses.
    pub fn forecast(
        &self,
        longer_than: Option<f64>,
        budget_s: f64,
    ) -> Result<Option<Forecast>, Error> {
        let serial = |count: fn(usize) -> u64, fastest_nodes_per_s| Search::Serial {
            count,
            fastest_nodes_per_s,
        };
        let search = match self.options.algorithm {
            Algorithm::Set => serial(reference::set_based::count, 1e8),
            Algorithm::Board => serial(reference::board_scan::count, 2e8),
            Algorithm::Bitmask => serial(reference::bitmask::count_recursive, 1e9),
            Algorithm::BitmaskIter => serial(reference::bitmask::count_iterative, 1e9),
            Algorithm::Auto | Algorithm::Parallel | Algorithm::Join => {
                let engine = self.engine()?.expect("a pooled algorithm has an engine");
                return forecast::forecast(engine, self.threads, longer_than, budget_s);
            }
        };
        forecast::forecast_with(
            self.n,
            1,
            longer_than,
            || search.least_one_thread_s(self.n),
            || search.workload(self.n),
        )
    }

    /// Builds the engine (on the job's pool), opens the journal, and cuts
    /// out the shard's items: everything but the counting.
    ///
    /// # Errors
    /// As [`Job::engine`]; a journal that cannot be opened or is another
    /// count's.
    pub fn start(&self) -> Result<Started<'_>, JobError> {
        let clock = Instant::now();
        let Some(engine) = self.engine()? else {
            return Ok(Started {
                job: self,
                engine: None,
                items: 0..1,
                journal: None,
                clock,
            });
        };
        let items = match &self.run.shard {
            Some(shard) => shard::ranges(engine, shard.shards)[shard.index - 1].clone(),
            None => 0..engine.items(),
        };
        let journal = match self.run.checkpoint.as_deref() {
            Some(path) => {
                let (journal, contents) = Journal::open(path, engine, items.clone())?;
                Some((Arc::new(journal), contents))
            }
            None => None,
        };
        Ok(Started {
            job: self,
            engine: Some(engine),
            items,
            journal,
            clock,
        })
    }

    /// Counts the whole board and returns its [`Count`]: [`Job::start`]
    /// and [`Started::run`] for a job that writes no file.
    ///
    /// # Errors
    /// As [`Job::start`] and [`Started::run`].
    pub fn count(&self, progress: Progress<'_>) -> Result<Count, JobError> {
        match self.start()?.run(progress)? {
            Outcome::Count { count, .. } => Ok(count),
            Outcome::Shard { file, .. } => Err(Error::Refused {
                flag: "--shard <I/M>",
                value: format!("{}/{}", file.shard[0], file.shard[1]),
                rule: "counts a part: read its file".to_string(),
            }
            .into()),
        }
    }

    /// The plan an MPI run sends its workers: `[n, symmetry, depth,
    /// engine and layout, 1]` (a last word of 0 means "no plan": the
    /// workers stop).
    pub fn plan_words(&self) -> [u64; 5] {
        let symmetry = Symmetry::ALL
            .iter()
            .position(|&s| s == self.options.symmetry)
            .unwrap_or(0);
        // The engine: 0 the backtracker, 1 the join laid out as a table,
        // 2 the join searched.
        let engine = match (self.options.algorithm, self.options.layout) {
            (Algorithm::Join, Some(JoinLayout::Searched)) => 2,
            (Algorithm::Join, _) => 1,
            _ => 0,
        };
        [
            self.n as u64,
            symmetry as u64,
            self.options.depth.unwrap_or(0) as u64,
            engine,
            1,
        ]
    }

    /// The job of an MPI worker from rank 0's [`Job::plan_words`], on
    /// `threads` threads, with `options`' path and memory limit.
    ///
    /// # Errors
    /// As [`Job::new`], for words no plan of this program sends.
    pub fn from_plan_words(
        words: [u64; 5],
        options: Options,
        threads: usize,
    ) -> Result<Job, JobError> {
        let symmetry = *Symmetry::ALL
            .get(words[1] as usize)
            .ok_or(Error::BoardSize { n: 0 })?;
        let (algorithm, depth, layout) = match words[3] {
            1 => (Algorithm::Join, None, Some(JoinLayout::Table)),
            2 => (Algorithm::Join, None, Some(JoinLayout::Searched)),
            _ => (Algorithm::Parallel, Some(words[2] as usize), None),
        };
        let options = Options {
            algorithm,
            symmetry,
            depth,
            layout,
            ..options
        };
        Job::new(words[0] as usize, options, Some(threads), Run::default())
    }

    /// The [`Count`] of a tally of every item, counted elsewhere (MPI) on
    /// `threads` threads in all.
    ///
    /// # Errors
    /// As [`Count::of_engine`]; as [`Job::engine`].
    pub fn count_of(&self, tally: Tally, threads: usize, elapsed_s: f64) -> Result<Count, Error> {
        let engine = self.engine()?.expect("a pooled count has an engine");
        let mut count = Count::of_engine(engine, tally, threads, elapsed_s)?;
        count.gpu = self.gpu_use(elapsed_s);
        Ok(count)
    }

    /// What its GPU (`--gpu`) did so far: every pair job since the job
    /// opened it, a forecast's sample included.
    pub fn gpu_report(&self) -> Option<GpuReport> {
        self.gpu.as_ref().map(|gpu| gpu.report())
    }

    /// [`Job::gpu_report`] as a count of `elapsed_s` seconds reports it.
    pub(crate) fn gpu_use(&self, elapsed_s: f64) -> Option<GpuUse> {
        self.gpu_report()
            .map(|report| GpuUse::of(report, elapsed_s))
    }

    /// What the GPUs (`--gpu`) of an MPI count that took `elapsed_s`
    /// seconds did, every rank's as `load` has them: the pairs they all
    /// compared, their mean busy share, and this rank's (rank 0's) adapter
    /// and backend. (Ranks on other nodes may name others; `load` holds
    /// each rank's pairs.)
    pub fn gpu_use_over_ranks(&self, load: &MpiLoad, elapsed_s: f64) -> Option<GpuUse> {
        let mut report = self.gpu_report()?;
        if let Some(ranks) = load.gpu() {
            report.pairs = ranks.pairs;
            report.busy_s = ranks.busy_s;
        }
        Some(GpuUse::of(report, elapsed_s))
    }

    /// What this rank's GPU (`--gpu`) did so far, as an MPI rank reports
    /// it to rank 0 (`None` without one).
    pub fn rank_gpu(&self) -> Option<RankGpu> {
        self.gpu_report().map(|report| RankGpu {
            pairs: report.pairs,
            busy_s: report.busy_s,
        })
    }
}

/// The GPU `adapter` names, its jobs in flight holding at most `memory`
/// bytes (`None`: the adapter's default), or the refusal of the flag that
/// asked for it.
fn open_gpu(adapter: Adapter, memory: Option<u64>) -> Result<Gpu, Error> {
    Gpu::open(adapter, memory).map_err(|e| {
        let (flag, value) = match (&e, adapter) {
            (GpuError::NoSuchDevice { .. }, Adapter::Index(k)) => {
                ("--gpu-device <K>", k.to_string())
            }
            _ => ("--gpu", "true".to_string()),
        };
        Error::Refused {
            flag,
            value,
            rule: e.to_string(),
        }
    })
}

/// The engine `options` (a concrete algorithm) say, at the depth they
/// settled.
fn build(n: usize, options: &Options, threads: usize) -> Result<AnyEngine, Error> {
    if options.algorithm == Algorithm::Join {
        let simd = EngineId::Join.simd(options.simd);
        let layout = options.layout.unwrap_or(JoinLayout::automatic(n));
        return Ok(AnyEngine::Join(Join::with_layout(
            n,
            layout,
            simd,
            memory_limit(options),
        )?));
    }
    let simd = EngineId::Backtrack.simd(options.simd);
    let limit = options.max_subproblems();
    let plan = match options.depth {
        Some(depth) => Plan::within(n, depth, options.symmetry, limit)?,
        None => Plan::auto_within(n, options.symmetry, threads, limit)?,
    };
    Ok(AnyEngine::Backtrack(Backtrack::new(plan, simd)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_that_do_not_go_together_are_refused_naming_the_flag() {
        let join = Options::default().with_algorithm(Algorithm::Join);
        let refused = |options: Options| match crate::count(12, &options) {
            Err(Error::Refused { flag, .. }) => flag,
            other => panic!("{other:?}"),
        };
        assert_eq!(refused(join.with_depth(Some(3))), "--depth <K>");
        assert_eq!(
            refused(join.with_symmetry(Symmetry::Mirror)),
            "--symmetry <S>"
        );
        let set = Options::default().with_algorithm(Algorithm::Set);
        let shard = Run {
            shard: Some(ShardRun {
                index: 1,
                shards: 2,
                out: std::env::temp_dir().join("nqueens-job-test.json"),
            }),
            ..Run::default()
        };
        match Job::new(8, set, None, shard) {
            Err(JobError::Count(Error::Refused { flag, .. })) => assert_eq!(flag, "--shard <I/M>"),
            other => panic!("{:?}", other.map(|job| job.describe())),
        }
        assert_eq!(
            crate::count(8, &Options::default().with_depth(Some(9))),
            Err(Error::Depth { depth: 9, n: 8 })
        );
    }

    #[test]
    fn an_mpi_worker_resolves_the_job_rank_0_sent() {
        for (n, options) in [
            (12, Options::default()),
            (12, Options::default().with_symmetry(Symmetry::Mirror)),
            (9, Options::default().with_depth(Some(3))),
        ] {
            let run = Run {
                mpi_ranks: Some(3),
                ..Run::default()
            };
            let sent = Job::new(n, options, Some(2), run).unwrap();
            let worker = Job::from_plan_words(sent.plan_words(), Options::default(), 2).unwrap();
            assert_eq!(worker.describe(), sent.describe(), "n = {n} {options:?}");
            assert_eq!(
                worker.fingerprint().unwrap(),
                sent.fingerprint().unwrap(),
                "n = {n}"
            );
        }
    }

    #[test]
    fn a_shard_plans_for_the_same_threads_on_every_machine() {
        let shard = |threads| {
            let run = Run {
                shard: Some(ShardRun {
                    index: 1,
                    shards: 4,
                    out: std::env::temp_dir().join("nqueens-job-shard.json"),
                }),
                ..Run::default()
            };
            let options = Options::default().with_algorithm(Algorithm::Parallel);
            Job::new(16, options, Some(threads), run)
                .unwrap()
                .describe()
        };
        assert_eq!(shard(1), shard(64));
    }

    fn shard_of(n: usize, options: Options) -> Result<Description, JobError> {
        let run = Run {
            shard: Some(ShardRun {
                index: 1,
                shards: 4,
                out: std::env::temp_dir().join("nqueens-job-board.json"),
            }),
            ..Run::default()
        };
        Job::new(n, options, Some(2), run).map(|job| job.describe())
    }

    #[test]
    fn a_shard_takes_the_engine_and_layout_of_its_board_whatever_the_machine() {
        // The crossover every path reaches, not this CPU's: on AVX-512 a
        // plain count of n = 10 or 11 takes the join.
        let (even, odd) = JOIN_FROM.1;
        for n in [even - 2, even, odd - 2, odd, 22, 26] {
            let described = shard_of(n, Options::default()).unwrap();
            let join = n >= if n % 2 == 0 { even } else { odd };
            let expected = (
                if join {
                    Algorithm::Join
                } else {
                    Algorithm::Parallel
                },
                join.then(|| JoinLayout::automatic(n)),
            );
            assert_eq!((described.algorithm, described.layout), expected, "n = {n}");
        }
        // Where the board's join does not fit this machine the shard is
        // refused, naming the flag; a plain count takes the backtracker.
        let small = Options::default().with_max_memory(Some(1 << 20));
        match shard_of(16, small) {
            Err(JobError::Count(Error::Refused { flag, rule, .. })) => {
                assert_eq!(flag, "--max-memory <SIZE>");
                assert!(rule.contains("--algo parallel"), "{rule}");
            }
            other => panic!("{other:?}"),
        }
        let plain = Job::new(16, small, Some(2), Run::default()).unwrap();
        assert_eq!(plain.describe().algorithm, Algorithm::Parallel);
        assert!(plain.describe().join_memory.is_some());
    }

    #[test]
    fn a_plain_count_lays_the_join_out_as_its_memory_allows() {
        let n = 22;
        let plan = |layout| Join::plan(n, layout, 2).unwrap().total();
        let (table, searched) = (plan(JoinLayout::Table), plan(JoinLayout::Searched));
        assert!(searched < table, "{searched} {table}");
        let within = |bytes| {
            let options = Options::default().with_max_memory(Some(bytes));
            Job::new(n, options, Some(2), Run::default())
                .unwrap()
                .describe()
        };
        let roomy = within(table);
        assert_eq!(roomy.layout, Some(JoinLayout::Table));
        assert_eq!(roomy.join_memory, None);
        let tight = within(searched);
        assert_eq!(
            (tight.algorithm, tight.layout),
            (Algorithm::Join, Some(JoinLayout::Searched))
        );
        assert_eq!(tight.join_memory.map(|m| m.needed_bytes), Some(table));
        let short = within(searched - 1);
        assert_eq!((short.algorithm, short.layout), (Algorithm::Parallel, None));
        // A shard never trades its board's layout for memory.
        let options = Options::default().with_max_memory(Some(searched));
        assert!(shard_of(n, options).is_err());
    }
}
