//! The backtracking engine on every path (`--simd`) this CPU runs: against OEIS, the
//! serial bitmask search and each other, for every symmetry, thread count
//! and split depth; and its work items, the same whatever runs them.
//!
//! A path this CPU cannot run is reported on the test output (stderr, not
//! captured) as skipped, never passed silently. `.ci/run` runs this suite a
//! second time with `NQUEENS_NO_LANES=1`, so that the default path is the
//! scalar kernel there too.

use nqueens::engine::backtrack::Backtrack;
use nqueens::exec::pool;
use nqueens::oeis::{known_total, known_unique};
use nqueens::reference::bitmask::count_iterative;
use nqueens::{count, Algorithm, Engine, Options, Plan, Simd, Symmetry, Tally};
use proptest::prelude::*;

const SYMMETRIES: [Symmetry; 3] = [Symmetry::None, Symmetry::Mirror, Symmetry::Full];

/// The engine's paths this CPU runs; each one it cannot run is reported
/// skipped.
fn kernels_under_test(test: &str) -> Vec<Simd> {
    Backtrack::PATHS
        .iter()
        .map(|p| p.simd)
        .filter(|&s| Backtrack::runs_in(s, test))
        .collect()
}

fn pool_of(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
}

fn engine(n: usize, depth: usize, symmetry: Symmetry, kernel: Simd) -> Backtrack {
    Backtrack::new(Plan::new(n, depth, symmetry).unwrap(), kernel).unwrap()
}

fn tally(engine: &Backtrack) -> Tally {
    pool::count(engine, &|_| {})
}

#[test]
fn every_kernel_matches_oeis_under_every_symmetry() {
    for kernel in kernels_under_test("every_kernel_matches_oeis_under_every_symmetry") {
        for symmetry in SYMMETRIES {
            for n in 1..=13 {
                let engine = Backtrack::new(Plan::auto(n, symmetry, 2).unwrap(), kernel).unwrap();
                let counted = tally(&engine);
                assert_eq!(
                    counted.total_checked(n).ok(),
                    known_total(n),
                    "{kernel} {symmetry} n={n}"
                );
                if symmetry == Symmetry::Full {
                    assert_eq!(
                        Some(counted.classes.unique()),
                        known_unique(n),
                        "{kernel} n={n}"
                    );
                }
            }
        }
    }
}

#[test]
fn every_kernel_agrees_with_the_serial_search_for_every_thread_count_depth_and_symmetry() {
    let kernels = kernels_under_test("every_kernel_agrees_with_the_serial_search");
    for threads in 1..=4 {
        let pool = pool_of(threads);
        for n in 1..=11 {
            let serial = count_iterative(n);
            for depth in 1..=n {
                for symmetry in SYMMETRIES {
                    for &kernel in &kernels {
                        let options = Options::default()
                            .with_algorithm(Algorithm::Parallel)
                            .with_symmetry(symmetry)
                            .with_depth(Some(depth))
                            .with_simd(Some(kernel));
                        let result = pool.install(|| count(n, &options)).unwrap();
                        let case =
                            format!("n={n} depth={depth} threads={threads} {symmetry} {kernel}");
                        assert_eq!(result.total, u128::from(serial), "{case}");
                        assert_eq!(result.threads, threads, "{case}");
                        assert_eq!(result.depth, depth, "{case}");
                        assert_eq!(result.simd, Some(kernel), "{case}");
                    }
                }
            }
        }
    }
}

#[test]
fn items_depend_on_the_plan_alone_and_any_split_of_them_adds_up() {
    let kernels = kernels_under_test("items_depend_on_the_plan_alone");
    for symmetry in SYMMETRIES {
        let first = engine(12, 4, symmetry, Simd::None);
        let whole = tally(&first);
        let items = first.items();
        for &kernel in &kernels {
            for threads in [1, 3] {
                let engine = engine(12, 4, symmetry, kernel);
                assert_eq!(engine.fingerprint(), first.fingerprint());
                assert_eq!(engine.items(), items);
                for cut in [0, 1, items / 3, items - 1, items] {
                    let (low, high) = pool_of(threads).install(|| {
                        (
                            pool::count_items(&engine, 0..cut, &|_| {}),
                            pool::count_items(&engine, cut..items, &|_| {}),
                        )
                    });
                    assert_eq!(low.sum(high), whole, "{symmetry} {kernel} cut {cut}");
                }
                let one_by_one = (0..items)
                    .map(|i| engine.count(i..i + 1))
                    .fold(Tally::default(), Tally::sum);
                assert_eq!(one_by_one, whole, "{symmetry} {kernel}");
            }
        }
    }
}

#[test]
fn progress_reports_planning_then_every_work_item_once() {
    for kernel in kernels_under_test("progress_reports_planning_then_every_work_item_once") {
        let seen = std::sync::Mutex::new(Vec::new());
        let record = |phase| seen.lock().unwrap().push(phase);
        let options = Options::default().with_simd(Some(kernel));
        let result = pool_of(3)
            .install(|| nqueens::count_with_progress(12, &options, &record))
            .unwrap();
        let seen = seen.into_inner().unwrap();
        assert_eq!(seen[0], nqueens::Phase::Planning);
        let mut done: Vec<usize> = seen[1..]
            .iter()
            .map(|phase| match *phase {
                nqueens::Phase::Counting { done, items } => {
                    assert_eq!(items, result.items);
                    done
                }
                nqueens::Phase::Planning => panic!("planning after counting began"),
            })
            .collect();
        done.sort_unstable();
        assert_eq!(done, (0..=result.items).collect::<Vec<_>>());
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn every_kernel_counts_every_plan_alike(
        n in 4usize..=12,
        depth_fraction in 0.0f64..1.0,
        symmetry in prop::sample::select(SYMMETRIES.to_vec()),
        threads in 1usize..=4,
    ) {
        let depth = 1 + ((n - 1) as f64 * depth_fraction) as usize;
        let scalar = tally(&engine(n, depth, symmetry, Simd::None));
        prop_assert_eq!(scalar.total_checked(n).ok(), known_total(n));
        for kernel in kernels_under_test("every_kernel_counts_every_plan_alike") {
            let counted = pool_of(threads).install(|| tally(&engine(n, depth, symmetry, kernel)));
            prop_assert_eq!(counted, scalar, "{} n={} depth={}", kernel, n, depth);
        }
    }
}
