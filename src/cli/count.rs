//! `nqueens count N`: the flags resolved into a [`Job`], counted by the
//! [executor](super::execute) (the pool, a journal, a shard) or over
//! [MPI](super::mpi), or by a serial textbook search, and reported as text
//! or JSON.

use super::args::CountArgs;
use super::errors::usage_error;
use super::job::Job;
use super::report::{print_report, Report};
use super::{estimate, progress, signals};

pub fn run(args: CountArgs) -> anyhow::Result<()> {
    if args.mpi {
        // Every rank resolves; rank 0 alone draws (see `mpi`).
        return super::mpi::count(&args, Job::resolve(&args, None)?);
    }
    // Made first: planning a large join takes seconds, and says so.
    let bar = progress::CountBar::new(args.n);
    let job = Job::resolve(&args, Some(&bar)).inspect_err(|_| bar.finish())?;
    if job.options.algorithm.is_parallel() {
        return super::execute::count(&args, job, bar);
    }
    // A serial search: one piece of work on this thread.
    estimate::announce(job.n, &job.options, 1, 1.0, None, &bar)?;
    let shown = bar.handle();
    signals::on_interrupt(move || shown.finish_and_clear());
    let result = nqueens::count_with_progress(job.n, &job.options, &|p| bar.show(p));
    bar.finish();
    let count = result.map_err(usage_error)?;
    print_report(&Report::new(count, args.unique), args.json)
}
