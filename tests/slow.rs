//! Slow known-count checks, left out of CI: `scripts/slow-tests.sh` runs them
//! (`cargo test --release -- --ignored`).

use nqueens::oeis::{known_total, known_unique};
use nqueens::{count, Algorithm, Options, Symmetry};

#[test]
#[ignore = "slow: minutes in release mode; run by scripts/slow-tests.sh"]
fn the_bitmask_algorithms_and_every_symmetry_match_oeis_at_fifteen_and_sixteen() {
    for n in 15..=16 {
        for algorithm in [Algorithm::Bitmask, Algorithm::BitmaskIter] {
            let options = Options::default().with_algorithm(algorithm);
            assert_eq!(count(n, &options).unwrap().total, known_total(n).unwrap());
        }
        for symmetry in [Symmetry::None, Symmetry::Mirror, Symmetry::Full] {
            let options = Options::default().with_symmetry(symmetry);
            let result = count(n, &options).unwrap();
            assert_eq!(result.total, known_total(n).unwrap(), "{symmetry} n = {n}");
            if symmetry == Symmetry::Full {
                assert_eq!(result.unique, known_unique(n), "n = {n}");
            }
        }
    }
}

#[test]
#[ignore = "slow: about a minute in release mode; run by scripts/slow-tests.sh"]
fn the_textbook_solvers_match_a000170_at_thirteen_and_fourteen() {
    for n in 13..=14 {
        for algorithm in [Algorithm::Set, Algorithm::Board] {
            let options = Options::default().with_algorithm(algorithm);
            assert_eq!(count(n, &options).unwrap().total, known_total(n).unwrap());
        }
    }
}

#[test]
#[ignore = "slow: a minute on 2 cores; run by scripts/slow-tests.sh"]
fn full_symmetry_matches_oeis_at_seventeen() {
    let parallel = Options::default().with_algorithm(Algorithm::Parallel);
    let result = count(17, &parallel).unwrap();
    assert_eq!(result.total, known_total(17).unwrap());
    assert_eq!(result.unique, known_unique(17));
}

#[test]
#[ignore = "slow: about 15 s a path in release mode on 2 cores; run by scripts/slow-tests.sh"]
fn the_join_matches_oeis_from_fifteen_to_eighteen_on_every_path() {
    for path in nqueens::Join::PATHS {
        let test = "the_join_matches_oeis_from_fifteen_to_eighteen_on_every_path";
        if !nqueens::engine::join::count::pairs::runs_in(path.simd, test) {
            continue;
        }
        for n in 15..=18 {
            let options = Options::default()
                .with_algorithm(Algorithm::Join)
                .with_simd(Some(path.simd));
            let result = count(n, &options).unwrap();
            assert_eq!(
                result.total,
                known_total(n).unwrap(),
                "n = {n} {}",
                path.simd
            );
            assert_eq!(result.unique, known_unique(n), "n = {n} {}", path.simd);
        }
    }
}

#[test]
#[ignore = "slow: about a minute in release mode on 2 cores; run by scripts/slow-tests.sh"]
fn the_backtracker_matches_oeis_at_fifteen_and_sixteen_on_every_path_and_symmetry() {
    use nqueens::engine::backtrack::Backtrack;
    let test = "the_backtracker_matches_oeis_at_fifteen_and_sixteen_on_every_path_and_symmetry";
    for path in Backtrack::PATHS {
        if !Backtrack::runs_in(path.simd, test) {
            continue;
        }
        for n in 15..=16 {
            for symmetry in [Symmetry::None, Symmetry::Mirror, Symmetry::Full] {
                let options = Options::default()
                    .with_algorithm(Algorithm::Parallel)
                    .with_symmetry(symmetry)
                    .with_simd(Some(path.simd));
                let result = count(n, &options).unwrap();
                let what = format!("n = {n}, {symmetry}, {}", path.simd);
                assert_eq!(result.total, known_total(n).unwrap(), "{what}");
                if symmetry == Symmetry::Full {
                    assert_eq!(result.unique, known_unique(n), "{what}");
                }
            }
        }
    }
}

/// The largest board [`each_join_layout_matches_oeis_from_four_to_twenty_two`]
/// counts: 22, or `NQUEENS_SLOW_LAYOUTS_TO` where a machine cannot spare
/// the hours n = 22 takes on 2 cores (about 50 minutes a layout; 16
/// cores take a few).
fn layouts_to() -> usize {
    match std::env::var("NQUEENS_SLOW_LAYOUTS_TO") {
        Ok(to) => to
            .parse()
            .expect("NQUEENS_SLOW_LAYOUTS_TO is a board size, 4..=22"),
        Err(_) => 22,
    }
}

#[test]
#[ignore = "slow: hours on 2 cores to n = 22 (NQUEENS_SLOW_LAYOUTS_TO caps it); run by scripts/slow-tests.sh"]
fn each_join_layout_matches_oeis_from_four_to_twenty_two() {
    use nqueens::JoinLayout;
    for n in 4..=layouts_to() {
        for layout in [JoinLayout::Table, JoinLayout::Searched] {
            let options = Options::default().with_layout(Some(layout));
            let started = std::time::Instant::now();
            let result = count(n, &options).unwrap();
            let what = format!("n = {n}, layout {layout:?}");
            assert_eq!(result.total, known_total(n).unwrap(), "{what}");
            assert_eq!(result.unique, known_unique(n), "{what}");
            eprintln!("{what}: exact, {:.1} s", started.elapsed().as_secs_f64());
        }
    }
}
