//! Criterion benchmarks: every algorithm on the same boards, the count
//! asserted inside each timed call.
//!
//! `cargo bench` runs them all; `cargo bench -- algorithms/parallel` one
//! series. Ids are `group/algorithm/n`, with the CLI's algorithm names.

use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, SamplingMode};
use nqueens::oeis::known_total;
use nqueens::{count, Algorithm, Options};

fn count_checked(n: usize, algorithm: Algorithm) -> u64 {
    let options = Options {
        algorithm,
        ..Options::default()
    };
    let total = count(n, &options).expect("n is in range").total;
    assert_eq!(Some(total), known_total(n), "{algorithm} n = {n}");
    total
}

/// Every algorithm on small boards, where the references still finish fast.
fn small_boards(c: &mut Criterion) {
    let mut group = c.benchmark_group("algorithms");
    for n in [8, 10, 12] {
        for algorithm in Algorithm::ALL {
            group.bench_with_input(BenchmarkId::new(algorithm.name(), n), &n, |b, &n| {
                b.iter(|| count_checked(n, algorithm))
            });
        }
    }
    group.finish();
}

/// The bitmask family where its differences show.
fn large_boards(c: &mut Criterion) {
    let mut group = c.benchmark_group("bitmask");
    group
        .sampling_mode(SamplingMode::Flat)
        .sample_size(10)
        .measurement_time(Duration::from_secs(10));
    for n in [14, 15] {
        for algorithm in [
            Algorithm::Bitmask,
            Algorithm::BitmaskIter,
            Algorithm::Parallel,
        ] {
            group.bench_with_input(BenchmarkId::new(algorithm.name(), n), &n, |b, &n| {
                b.iter(|| count_checked(n, algorithm))
            });
        }
    }
    group.finish();
}

criterion_group!(benches, small_boards, large_boards);
criterion_main!(benches);
