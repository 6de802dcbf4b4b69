//! `nqueens verify`: every board from 1 to N counted and checked against
//! OEIS, as a table.

use std::io::{self, Write};

use nqueens::{oeis, Options, Symmetry};

use super::args::{reject_serial, VerifyArgs};
use super::errors::usage_error;
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
    let pool = thread_pool(args.threads)?;
    let options = Options {
        algorithm: args.algo,
        symmetry: Symmetry::Full,
        simd: args.simd.path(),
        ..Options::default()
    };
    // A path an engine of some row lacks is refused before the first row.
    if options.simd.is_some() {
        let threads = pool.current_num_threads();
        for n in 1..=args.max {
            let algorithm = nqueens::choose(n, &options, threads)
                .map_err(usage_error)?
                .algorithm;
            super::job::check_simd(&Options {
                algorithm,
                ..options
            })?;
        }
    }
    // Said up front: an hour-long last row must not look like a hang.
    let threads = pool.current_num_threads();
    let (longer, budget) = (Some(ANNOUNCE_VERIFY_AFTER_S), estimate::ANNOUNCE_BUDGET_S);
    // What the count will refuse is the count's to say.
    if let Ok(Some(e)) = nqueens::forecast(args.max, &options, threads, longer, budget, None) {
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
    for n in 1..=args.max {
        let result = pool.install(|| nqueens::count(n, &options))?;
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
