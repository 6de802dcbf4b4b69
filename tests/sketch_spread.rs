//! The join's sketch of a whole board under several seeds, as `estimate`
//! makes it on all the threads, one line per seed: how far its forecast
//! moves with the draw, beside the error it reports
//! (scripts/sketch-spread.py runs it on two builds, paired).

use std::io::Write;

use nqueens::Join;

/// `NQUEENS_FIT_N=28 NQUEENS_SEEDS="1 2" NQUEENS_BUDGET=20 NQUEENS_FIT_OUT=FILE
/// cargo test --release --test sketch_spread -- --ignored`
#[test]
#[ignore = "sketches whole boards for scripts/sketch-spread.py (a budget a seed)"]
fn sketch_seeds() {
    let var = |name: &str, default: &str| std::env::var(name).unwrap_or_else(|_| default.into());
    let n: usize = var("NQUEENS_FIT_N", "26").parse().unwrap();
    let budget: f64 = var("NQUEENS_BUDGET", "20").parse().unwrap();
    let seeds: Vec<u64> = var("NQUEENS_SEEDS", "1")
        .split_whitespace()
        .map(|s| s.parse().unwrap())
        .collect();
    let out = var("NQUEENS_FIT_OUT", "/tmp/sketch-spread.csv");
    // As `estimate` sizes it: 4,096 units for each 20 s of budget.
    let samples = (4096.0 * (budget / 20.0).max(1.0)) as usize;
    let join = Join::new(n, Join::fastest(), u64::MAX).unwrap();
    let mut file = std::fs::File::create(&out).unwrap();
    writeln!(
        file,
        "seed,sampled,sketched_s,seconds,relative_error,glue_share,largest_s"
    )
    .unwrap();
    for seed in seeds {
        let s = join.sketch(samples, budget, seed);
        writeln!(
            file,
            "{seed},{},{:.3},{:.6e},{:.4},{:.4},{:.3}",
            s.sampled, s.sketched_s, s.seconds, s.relative_error, s.glue_share, s.largest_s
        )
        .unwrap();
    }
}
