//! `nqueens count N`: the flags resolved into a [`Job`], run on the pool
//! (or, for a journal, a shard or MPI, by [`longrun`](super::longrun) and
//! [`mpi`](super::mpi)), reported as text or JSON.

use super::args::CountArgs;
use super::errors::usage_error;
use super::job::Job;
use super::report::{print_report, Report};
use super::{estimate, progress, signals, thread_pool};

pub fn run(args: CountArgs) -> anyhow::Result<()> {
    let job = Job::resolve(&args)?;
    if args.mpi {
        return super::mpi::count(&args, job);
    }
    if args.checkpoint.is_some() || args.shard.is_some() {
        return super::longrun::count(&args, job);
    }
    let pool = thread_pool(Some(job.threads))?;
    let bar = progress::CountBar::new();
    estimate::announce(job.n, &job.options, job.threads, 1.0, &bar)?;
    let shown = bar.handle();
    signals::on_interrupt(move || shown.finish_and_clear());
    let result =
        pool.install(|| nqueens::count_with_progress(job.n, &job.options, &|p| bar.show(p)));
    bar.finish();
    let count = result.map_err(usage_error)?;
    print_report(&Report::new(count, args.unique), args.json)
}
