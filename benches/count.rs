//! Criterion benchmarks: the algorithms side by side on the same boards, the
//! parallel engine's thread scaling and its symmetry modes, the join against
//! it on one thread (`join/<algorithm>/n`) and the join's pair counters
//! alone (`pairs/<counter>`). The count is asserted inside every timed call.
//!
//! `cargo bench` runs everything (about 15 minutes); `cargo bench -- reference`
//! one group; `cargo bench -- 'bitmask/parallel'` one series. Ids are
//! `group/algorithm/n` with the CLI's algorithm names (`parallel-1t` and
//! `parallel-<T>t` for the engine on 1 and on all T threads) and
//! `threads/parallel/<T>` for the scaling group. HTML reports land in
//! `target/criterion/`.

use std::time::Duration;

use criterion::measurement::WallTime;
use criterion::{
    criterion_group, criterion_main, BenchmarkGroup, BenchmarkId, Criterion, SamplingMode,
};
use nqueens::engine::join::count::pairs;
use nqueens::oeis::known_total;
use nqueens::{count, Algorithm, Join, Options, Symmetry};

fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a thread pool")
}

/// Counts and checks the total against A000170.
fn count_checked(n: usize, options: &Options) -> u128 {
    let total = count(n, options).expect("n is in range").total;
    assert_eq!(Some(total), known_total(n), "{} n = {n}", options.algorithm);
    total
}

fn with(algorithm: Algorithm) -> Options {
    Options::default().with_algorithm(algorithm)
}

/// Boards past this size take long enough per call for flat sampling and a
/// sample size of 10.
const LARGE_N: usize = 10;

fn sampling_for(group: &mut BenchmarkGroup<'_, WallTime>, n: usize) {
    if n >= LARGE_N {
        group
            .sampling_mode(SamplingMode::Flat)
            .sample_size(10)
            .measurement_time(Duration::from_secs(10));
    } else {
        group
            .sampling_mode(SamplingMode::Auto)
            .sample_size(50)
            .measurement_time(Duration::from_secs(3));
    }
}

/// Every algorithm where the textbook solvers still finish in about a
/// second: the references against the bitmask search and the engine.
fn reference(c: &mut Criterion) {
    let mut group = c.benchmark_group("reference");
    let all = rayon::current_num_threads();
    let (one, many) = (pool(1), pool(all));
    for n in [6, 8, 10, 12] {
        sampling_for(&mut group, n);
        for algorithm in [
            Algorithm::Set,
            Algorithm::Board,
            Algorithm::Bitmask,
            Algorithm::BitmaskIter,
        ] {
            group.bench_with_input(BenchmarkId::new(algorithm.name(), n), &n, |b, &n| {
                b.iter(|| count_checked(n, &with(algorithm)))
            });
        }
        bench_parallel(&mut group, n, &one, 1);
        bench_parallel(&mut group, n, &many, all);
    }
    group.finish();
}

/// The bitmask family up to n = 16.
fn bitmask(c: &mut Criterion) {
    let mut group = c.benchmark_group("bitmask");
    let all = rayon::current_num_threads();
    let (one, many) = (pool(1), pool(all));
    for n in [12, 14, 16] {
        sampling_for(&mut group, n);
        for algorithm in [Algorithm::Bitmask, Algorithm::BitmaskIter] {
            group.bench_with_input(BenchmarkId::new(algorithm.name(), n), &n, |b, &n| {
                b.iter(|| count_checked(n, &with(algorithm)))
            });
        }
        bench_parallel(&mut group, n, &one, 1);
        bench_parallel(&mut group, n, &many, all);
    }
    group.finish();
}

fn bench_parallel(
    group: &mut BenchmarkGroup<'_, WallTime>,
    n: usize,
    pool: &rayon::ThreadPool,
    threads: usize,
) {
    let id = BenchmarkId::new(format!("parallel-{threads}t"), n);
    group.bench_with_input(id, &n, |b, &n| {
        b.iter(|| pool.install(|| count_checked(n, &with(Algorithm::Parallel))))
    });
}

/// The engine at n = 15 on 1, 2, 4, … threads up to the logical cores.
fn threads(c: &mut Criterion) {
    let mut group = c.benchmark_group("threads");
    sampling_for(&mut group, 15);
    let logical = num_cpus::get();
    let mut counts: Vec<usize> = std::iter::successors(Some(1usize), |t| t.checked_mul(2))
        .take_while(|&t| t < logical)
        .collect();
    counts.push(logical);
    for t in counts {
        let pool = pool(t);
        group.bench_with_input(BenchmarkId::new("parallel", t), &15, |b, &n| {
            b.iter(|| pool.install(|| count_checked(n, &with(Algorithm::Parallel))))
        });
    }
    group.finish();
}

/// The three symmetry modes of the engine on one thread.
fn symmetry(c: &mut Criterion) {
    let mut group = c.benchmark_group("symmetry");
    let one = pool(1);
    for n in [13, 15] {
        sampling_for(&mut group, n);
        for symmetry in [Symmetry::None, Symmetry::Mirror, Symmetry::Full] {
            let options = (with(Algorithm::Parallel)).with_symmetry(symmetry);
            group.bench_with_input(BenchmarkId::new(symmetry.name(), n), &n, |b, &n| {
                b.iter(|| one.install(|| count_checked(n, &options)))
            });
        }
    }
    group.finish();
}

/// The join against the backtracking engine on one thread, either side of
/// their crossover, and the join's pair counters alone.
fn join(c: &mut Criterion) {
    let mut group = c.benchmark_group("join");
    let one = pool(1);
    for n in [14, 15, 16] {
        sampling_for(&mut group, n);
        for algorithm in [Algorithm::Parallel, Algorithm::Join] {
            let options = with(algorithm);
            group.bench_with_input(BenchmarkId::new(algorithm.name(), n), &n, |b, &n| {
                b.iter(|| one.install(|| count_checked(n, &options)))
            });
        }
    }
    group.finish();
    let mut group = c.benchmark_group("pairs");
    // Sparse 30-bit patterns, as an odd board's halves have.
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state & state.rotate_left(23) & ((1 << 30) - 1)
    };
    let a: Vec<u64> = (0..600).map(|_| next()).collect();
    let b: Vec<u64> = (0..3000).map(|_| next()).collect();
    for path in Join::PATHS.iter().filter(|p| (p.detect)()) {
        group.bench_function(path.simd.name(), |bench| {
            bench.iter(|| pairs::count(path.simd, &a, &b, 30))
        });
    }
    group.finish();
}

criterion_group!(benches, reference, bitmask, threads, symmetry, join);
criterion_main!(benches);
