//! `count --mpi`: the count spread over MPI ranks (the library's
//! [`exec::mpi`](nqueens::exec::mpi)). Built only with the cargo feature
//! `mpi`; without it, `--mpi` says how to build with it.

use super::args::CountArgs;
use super::job::Job;
use super::UsageError;

#[cfg(not(feature = "mpi"))]
pub fn count(_args: &CountArgs, _job: Job) -> anyhow::Result<()> {
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
pub fn count(args: &CountArgs, mut job: Job) -> anyhow::Result<()> {
    use std::time::Instant;

    use mpi::traits::*;
    use nqueens::exec::journal::Journal;
    use nqueens::{Count, Engine, Symmetry};

    use super::errors::{journal_error, usage_error};
    use super::report::{print_report, Report};
    use super::{progress, thread_pool};

    let universe = mpi::initialize().ok_or_else(|| anyhow::anyhow!("MPI could not start"))?;
    let world = universe.world();
    let (rank, ranks) = (world.rank(), world.size());
    let pool = thread_pool(Some(job.threads))?;
    let threads = pool.current_num_threads();
    if let Some(cpus) = allowed_cpus().filter(|&cpus| rank > 0 && cpus < threads) {
        eprintln!(
            "warning: rank {rank} counts on {threads} threads but may run on {cpus} CPU(s): \
             mpirun binds each rank to a core by default; start it with `mpirun --bind-to \
             none`, or give each rank its cores (OpenMPI: `--map-by ppr:1:node:PE={threads}`)"
        );
    }
    // Rank 0 plans (from its journal, or for every worker's threads) and
    // tells the others [n, symmetry, depth, join?, planned?]; a last word
    // of 0 means "stop".
    let mut plan = [0u64; 5];
    let mut planned = Ok(());
    if rank == 0 {
        let workers = usize::try_from(ranks - 1).unwrap_or(0).max(1);
        planned = if ranks < 2 {
            Err(UsageError {
                value: "true".to_string(),
                flag: "--mpi",
                rule: "needs at least 2 MPI ranks: rank 0 hands out the work, the others count"
                    .to_string(),
            }
            .into())
        } else {
            job.settle_depth(None, threads * workers)
        };
        let options = &job.options;
        if planned.is_ok() {
            let symmetry = Symmetry::ALL.iter().position(|&s| s == options.symmetry);
            plan = [
                args.n as u64,
                symmetry.unwrap_or(0) as u64,
                options.depth.unwrap_or(0) as u64,
                u64::from(options.algorithm == nqueens::Algorithm::Join),
                1,
            ];
        }
    }
    world.process_at_rank(0).broadcast_into(&mut plan[..]);
    if plan[4] == 0 {
        // Rank 0 could not plan: it reports why; the others leave quietly.
        return planned;
    }
    let mut options = job.options;
    options.symmetry = Symmetry::ALL[plan[1] as usize];
    options.depth = (plan[2] > 0).then_some(plan[2] as usize);
    options.algorithm = if plan[3] == 1 {
        nqueens::Algorithm::Join
    } else {
        nqueens::Algorithm::Parallel
    };
    let n = plan[0] as usize;
    let engine = pool
        .install(|| nqueens::build_engine(n, &options, threads))
        .map_err(usage_error)?;
    if rank != 0 {
        nqueens::exec::mpi::work(&world, &engine, &pool);
        return Ok(());
    }
    let start = Instant::now();
    let bar = progress::CountBar::new(n);
    let show = |phase| bar.show(phase);
    let mut resumed = None;
    let tally = match args.checkpoint.as_deref() {
        Some(path) => {
            match Journal::open(path, &engine, 0..engine.items()) {
                Ok((journal, contents)) => {
                    resumed = Some(contents.done_items());
                    nqueens::exec::mpi::coordinate(
                        &world,
                        &engine,
                        Some((&journal, &contents)),
                        &show,
                    )
                    .map_err(|e| journal_error(e, path))
                }
                Err(e) => {
                    // Nothing to hand out: stop the workers, then say why.
                    stop_workers(&world);
                    Err(journal_error(e, path))
                }
            }
        }
        None => Ok(nqueens::exec::mpi::coordinate(
            &world, &engine, None, &show,
        )?),
    };
    bar.finish();
    let tally = tally?;
    let workers = usize::try_from(ranks - 1).unwrap_or(0);
    let count = Count::of_engine(
        &engine,
        tally,
        threads * workers,
        start.elapsed().as_secs_f64(),
    )?;
    print_report(&Report::new(count, args.unique).resumed(resumed), args.json)
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
