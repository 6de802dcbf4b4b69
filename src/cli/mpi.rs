//! `count --mpi`: the count spread over MPI ranks (the library's
//! [`exec::mpi`](nqueens::exec::mpi)). Built only with the cargo feature
//! `mpi`; without it, `--mpi` says how to build with it. Every rank's
//! job is the library's [`Job`](nqueens::Job): rank 0 resolves it and
//! sends its plan ([`Job::plan_words`](nqueens::Job::plan_words)).

use super::args::CountArgs;
#[cfg(not(feature = "mpi"))]
use super::UsageError;

#[cfg(not(feature = "mpi"))]
pub fn count(_args: &CountArgs) -> anyhow::Result<()> {
    Err(UsageError {
        value: "true".to_string(),
        flag: "--mpi",
        rule: "this nqueens was built without MPI; install OpenMPI (Debian: libopenmpi-dev \
               openmpi-bin libclang-dev) and build with `cargo build --release --features mpi`"
            .to_string(),
    }
    .into())
}

#[cfg(feature = "mpi")]
pub fn count(args: &CountArgs) -> anyhow::Result<()> {
    use mpi::traits::*;
    use nqueens::{Job, Run};

    use super::errors::{job_error, usage_error};
    use super::progress;
    use super::report::{print_report, Report};

    let universe = mpi::initialize().ok_or_else(|| anyhow::anyhow!("MPI could not start"))?;
    let world = universe.world();
    let (rank, ranks) = (world.rank(), world.size());
    // Every rank counts, rank 0 too, on the CPUs its binding gives it:
    // more threads than those would only take turns on them.
    let mut threads = args.job.threads();
    if let Some(cpus) = allowed_cpus().filter(|&cpus| cpus < threads) {
        eprintln!(
            "note: rank {rank} may run on {cpus} CPU(s) (mpirun binds each rank to a core by \
             default), so it counts on {cpus} thread(s), not {threads}; to give each rank its \
             cores, start one rank per node with `--map-by ppr:1:node:PE={threads}` or \
             `--bind-to none`"
        );
        threads = cpus;
    }
    // Rank 0 resolves the job (from its journal, planned for every rank's
    // threads) and sends the others its plan; a last word of 0 means
    // "stop".
    let ranks_counting = usize::try_from(ranks).unwrap_or(1).max(1);
    let mut words = [0u64; 5];
    let mut resolved = None;
    if rank == 0 {
        let run = Run {
            mpi_ranks: Some(ranks_counting),
            ..args.run()
        };
        match super::count::resolve(args, run, threads) {
            Ok(job) => {
                words = job.plan_words();
                resolved = Some(Ok(job));
            }
            Err(e) => resolved = Some(Err(e)),
        }
    }
    world.process_at_rank(0).broadcast_into(&mut words[..]);
    if words[4] == 0 {
        // Rank 0 could not plan: it reports why; the others leave quietly.
        return resolved.map_or(Ok(()), |r| r.map(|_| ()));
    }
    if rank != 0 {
        let job = Job::from_plan_words(words, args.options(false), threads).map_err(job_error)?;
        let engine = job.engine().map_err(usage_error)?.expect("a pooled job");
        let pool = job
            .pool()
            .map_err(usage_error)?
            .expect("the job's own pool");
        nqueens::exec::mpi::work(&world, engine, pool, &|| job.rank_gpu());
        return Ok(());
    }
    let job = resolved.expect("rank 0 resolved")?;
    let bar = progress::CountBar::new(args.n);
    let show = |phase| bar.show(phase);
    let started = match job.start() {
        Ok(started) => started,
        Err(e) => {
            // Nothing to hand out: stop the workers, then say why.
            stop_workers(&world);
            bar.finish();
            return Err(job_error(e));
        }
    };
    let engine = started.engine().expect("a pooled job");
    let pool = job
        .pool()
        .map_err(usage_error)?
        .expect("the job's own pool");
    let journal = started.journal_contents();
    let coordinated =
        nqueens::exec::mpi::coordinate(&world, engine, pool, journal, &show, &|| job.rank_gpu());
    bar.finish();
    let coordinated = coordinated.map_err(|e| job_error(e.into()))?;
    let threads = coordinated.load.threads();
    let elapsed_s = started.elapsed_s();
    let mut count = job.count_of(coordinated.tally, threads, elapsed_s)?;
    count.gpu = job.gpu_use_over_ranks(&coordinated.load, elapsed_s);
    let report = Report::new(count, args.unique)
        .resumed(started.resumed())
        .mpi(coordinated.load);
    print_report(&report, args.json)
}

/// Answers every worker's first request with STOP.
#[cfg(feature = "mpi")]
fn stop_workers<C: mpi::traits::Communicator>(world: &C) {
    use mpi::traits::*;
    for _ in 1..world.size() {
        let (_, status) = world
            .any_process()
            .receive_vec_with_tag::<u64>(nqueens::exec::mpi::RESULTS);
        world
            .process_at_rank(status.source_rank())
            .send_with_tag(&[0u64; 0][..], nqueens::exec::mpi::STOP);
    }
}

/// How many CPUs this process may run on (`sched_getaffinity`), where the
/// OS says: mpirun binds ranks to cores, which confines a rank's pool.
#[cfg(all(feature = "mpi", target_os = "linux"))]
fn allowed_cpus() -> Option<usize> {
    // SAFETY: a zeroed cpu_set_t is a valid empty set; sched_getaffinity
    // writes at most its size, and CPU_COUNT reads the set it filled.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        let rc = libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set);
        (rc == 0).then(|| libc::CPU_COUNT(&set) as usize)
    }
}

#[cfg(all(feature = "mpi", not(target_os = "linux")))]
fn allowed_cpus() -> Option<usize> {
    None
}
