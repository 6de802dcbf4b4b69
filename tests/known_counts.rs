//! Every algorithm against OEIS A000170 and A002562, through the library's
//! `count`; the engine's kernels one by one are in `engine.rs`.

use nqueens::oeis::{known_total, known_unique};
use nqueens::reference::classify::classify_by_enumeration;
use nqueens::{count, Algorithm, Options, Symmetry};

fn total(n: usize, options: Options) -> u128 {
    count(n, &options).unwrap().total
}

fn with_algorithm(algorithm: Algorithm) -> Options {
    Options::default().with_algorithm(algorithm)
}

fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
}

#[test]
fn every_algorithm_matches_a000170_up_to_twelve() {
    for algorithm in Algorithm::ALL {
        for n in 1..=12 {
            assert_eq!(
                total(n, with_algorithm(algorithm)),
                known_total(n).unwrap(),
                "{algorithm} n = {n}"
            );
        }
    }
}

#[test]
fn the_bitmask_algorithms_match_a000170_at_thirteen_and_fourteen() {
    for algorithm in [
        Algorithm::Bitmask,
        Algorithm::BitmaskIter,
        Algorithm::Parallel,
    ] {
        for n in 13..=14 {
            assert_eq!(
                total(n, with_algorithm(algorithm)),
                known_total(n).unwrap(),
                "{algorithm} n = {n}"
            );
        }
    }
}

#[test]
fn results_describe_how_they_were_counted() {
    let serial = count(9, &with_algorithm(Algorithm::Set)).unwrap();
    assert_eq!(
        (
            serial.symmetry,
            serial.threads,
            serial.depth,
            serial.subproblems,
            serial.items
        ),
        (Symmetry::None, 1, 0, 1, 1)
    );
    let parallel = pool(3)
        .install(|| count(12, &with_algorithm(Algorithm::Parallel)))
        .unwrap();
    assert_eq!(parallel.symmetry, Symmetry::Full);
    assert_eq!(parallel.threads, 3);
    assert!(parallel.items >= 3 * nqueens::engine::backtrack::plan::ITEMS_PER_THREAD);
    assert!(parallel.subproblems >= parallel.items);
}

#[test]
fn board_sizes_outside_the_range_are_errors_not_panics() {
    for n in [0, nqueens::MAX_N + 1] {
        for algorithm in Algorithm::ALL {
            assert_eq!(
                count(n, &with_algorithm(algorithm)),
                Err(nqueens::Error::BoardSize { n })
            );
        }
        assert!(nqueens::solutions(n).is_err());
    }
    let too_deep = Options::default().with_depth(Some(9));
    assert_eq!(
        count(8, &too_deep),
        Err(nqueens::Error::Depth { depth: 9, n: 8 })
    );
}

#[test]
fn every_symmetry_mode_matches_a000170_up_to_fourteen() {
    for symmetry in [Symmetry::None, Symmetry::Mirror, Symmetry::Full] {
        for n in 1..=14 {
            let options = Options::default().with_symmetry(symmetry);
            assert_eq!(
                total(n, options),
                known_total(n).unwrap(),
                "{symmetry} n = {n}"
            );
        }
    }
}

#[test]
fn full_symmetry_counts_a002562_up_to_fourteen() {
    for n in 1..=14 {
        let result = count(n, &Options::default()).unwrap();
        assert_eq!(result.unique, known_unique(n), "n = {n}");
        let classes = result.classes.unwrap();
        assert_eq!(classes.unique(), result.unique.unwrap());
        assert_eq!(classes.total(), result.total, "n = {n}");
    }
}

#[test]
fn symmetry_classes_match_a_brute_force_classifier_up_to_ten() {
    for n in 1..=10 {
        let brute = classify_by_enumeration(n);
        for depth in 1..=n {
            let options = Options::default().with_depth(Some(depth));
            let result = count(n, &options).unwrap();
            assert_eq!(result.classes, Some(brute), "n = {n} depth = {depth}");
        }
    }
}

#[test]
fn the_brute_force_classifier_agrees_with_oeis() {
    for n in 1..=10 {
        let brute = classify_by_enumeration(n);
        assert_eq!(Some(brute.unique()), known_unique(n), "n = {n}");
        assert_eq!(brute.total(), known_total(n).unwrap(), "n = {n}");
    }
}

#[test]
fn only_full_symmetry_reports_unique_solutions() {
    for symmetry in [Symmetry::None, Symmetry::Mirror] {
        let options = Options::default().with_symmetry(symmetry);
        let result = count(9, &options).unwrap();
        assert_eq!((result.unique, result.classes), (None, None));
    }
}

#[test]
fn a_serial_count_is_one_work_item_reported_at_the_end() {
    let seen = std::sync::Mutex::new(Vec::new());
    let record = |phase| seen.lock().unwrap().push(phase);
    let options = with_algorithm(Algorithm::Bitmask);
    nqueens::count_with_progress(8, &options, &record).unwrap();
    assert_eq!(
        seen.into_inner().unwrap(),
        vec![nqueens::Phase::Counting { done: 1, items: 1 }]
    );
}
