//! Property tests: whatever the board, split depth, symmetry and thread count,
//! the parallel engine agrees with the reference solvers.

use nqueens::{count, Algorithm, Options, Plan, Symmetry};
use proptest::prelude::*;

fn symmetry() -> impl Strategy<Value = Symmetry> {
    prop_oneof![
        Just(Symmetry::None),
        Just(Symmetry::Mirror),
        Just(Symmetry::Full)
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn parallel_agrees_with_the_set_reference(
        (n, depth) in (1usize..=10).prop_flat_map(|n| (Just(n), 1..=n)),
        threads in 1usize..=4,
        symmetry in symmetry(),
    ) {
        let reference = count(n, &Options { algorithm: Algorithm::Set, ..Options::default() })
            .unwrap()
            .total;
        let options = Options { algorithm: Algorithm::Parallel, symmetry, depth: Some(depth), ..Options::default() };
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        let parallel = pool.install(|| count(n, &options)).unwrap();
        prop_assert_eq!(parallel.total, reference);
        prop_assert_eq!(parallel.threads, threads);
    }

    #[test]
    fn every_weighted_plan_weights_its_subtrees_to_the_total(
        (n, depth) in (1usize..=10).prop_flat_map(|n| (Just(n), 1..=n)),
        symmetry in prop_oneof![Just(Symmetry::None), Just(Symmetry::Mirror)],
    ) {
        // Summing weight × completions over the plan's subproblems, serially
        // and with the iterative search as the oracle, gives the total.
        let plan = Plan::new(n, depth, symmetry).unwrap();
        prop_assert!(plan.subproblems().all(|s| s.state.rows_placed() >= depth));
        let total: u64 = plan
            .subproblems()
            .map(|s| s.weight().unwrap() * nqueens::engine::backtrack::kernel::scalar::count_subtree(n, s.state))
            .sum();
        prop_assert_eq!(total, nqueens::reference::bitmask::count_iterative(n));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    #[test]
    fn full_symmetry_classes_agree_across_depths_and_threads(
        (n, depth) in (4usize..=11).prop_flat_map(|n| (Just(n), 1..=n)),
        threads in 1usize..=4,
    ) {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        let options = Options { depth: Some(depth), ..Options::default() };
        let split = pool.install(|| count(n, &options)).unwrap();
        let whole = count(n, &Options { depth: Some(1), ..Options::default() }).unwrap();
        prop_assert_eq!(split.classes, whole.classes);
        prop_assert_eq!(split.total, whole.total);
    }
}
