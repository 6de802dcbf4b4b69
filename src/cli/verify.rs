//! `nqueens verify`: every board from 1 to N counted and checked against
//! OEIS, as a table.

use std::io::{self, Write};

use nqueens::{oeis, Job, Options, Run, Symmetry};

use super::args::{reject_serial, VerifyArgs};
use super::errors::job_error;
use super::report::{duration, write_verified};
use super::{estimate, thread_pool, Mismatch};

/// `verify` says how long its largest board will take when that is longer
/// than this.
const ANNOUNCE_VERIFY_AFTER_S: f64 = 10.0;

pub fn run(args: VerifyArgs) -> anyhow::Result<()> {
    let pooled_only = [
        ("--threads <T>", args.threads.map(|t| t.to_string())),
        ("--unique", args.unique.then(|| "true".to_string())),
        ("--simd <PATH>", args.simd.path().map(|s| s.to_string())),
    ];
    reject_serial(args.algo, pooled_only)?;
    // One pool for every row: each row's job runs on the pool it is
    // called from.
    let pool = thread_pool(args.threads)?;
    let options = Options::default()
        .with_algorithm(args.algo)
        .with_symmetry(Symmetry::Full)
        .with_simd(args.simd.path());
    let job = |n| Job::new(n, options, None, Run::default()).map_err(job_error);
    // Every row's job resolved before the first counts: a path an engine
    // of some row lacks is refused up front.
    let jobs = pool.install(|| {
        (1..=args.max)
            .map(job)
            .collect::<anyhow::Result<Vec<Job>>>()
    })?;
    // Said up front: an hour-long last row must not look like a hang.
    let (longer, budget) = (Some(ANNOUNCE_VERIFY_AFTER_S), estimate::ANNOUNCE_BUDGET_S);
    let largest = jobs.last().expect("max >= 1");
    // What the count will refuse is the count's to say.
    if let Ok(Some(e)) = pool.install(|| largest.forecast(longer, budget)) {
        eprintln!(
            "estimate: the largest board, n = {}, should take about {} on {} thread(s), between {} and {}",
            args.max,
            duration(e.estimated_s),
            e.threads,
            duration(e.estimated_low_s),
            duration(e.estimated_high_s),
        );
    }
    let mut out = io::stdout().lock();
    writeln!(out, "algorithm: {}", args.algo)?;
    write!(
        out,
        "{:>3}  {:>20}  {:>20}  {:>4}",
        "n", "total", "A000170", "ok"
    )?;
    if args.unique {
        write!(out, "  {:>18}  {:>18}  {:>4}", "unique", "A002562", "ok")?;
    }
    writeln!(out, "  {:>10}  algorithm", "time (s)")?;
    let mut mismatches = Vec::new();
    for job in jobs {
        let n = job.n();
        let result = pool.install(|| job.count(&|_| {})).map_err(job_error)?;
        write!(out, "{n:>3}")?;
        let mut wrong =
            write_verified(&mut out, 20, result.total, oeis::known_total(n))?.is_mismatch();
        if args.unique {
            let unique = result
                .unique
                .expect("full symmetry counts unique solutions");
            wrong |= write_verified(&mut out, 18, unique, oeis::known_unique(n))?.is_mismatch();
        }
        writeln!(out, "  {:>10.3}  {}", result.elapsed_s, result.algorithm)?;
        out.flush()?;
        if wrong {
            mismatches.push(n);
        }
    }
    let sequences = if args.unique {
        "A000170 and A002562"
    } else {
        "A000170"
    };
    if mismatches.is_empty() {
        writeln!(out, "all counts for n = 1..={} match {sequences}", args.max)?;
        Ok(())
    } else {
        Err(Mismatch(format!(
            "counts differ from {sequences} for n = {mismatches:?}"
        ))
        .into())
    }
}
