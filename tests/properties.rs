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
        let reference = count(n, &Options::default().with_algorithm(Algorithm::Set))
            .unwrap()
            .total;
        let options = Options::default().with_algorithm(Algorithm::Parallel).with_symmetry(symmetry).with_depth(Some(depth));
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
        let options = Options::default().with_depth(Some(depth));
        let split = pool.install(|| count(n, &options)).unwrap();
        let whole = count(n, &Options::default().with_depth(Some(1))).unwrap();
        prop_assert_eq!(split.classes, whole.classes);
        prop_assert_eq!(split.total, whole.total);
    }
}

/// The shard files of a count cut at `cuts` (a sorted list of item
/// indices): one shard per range between cuts, empty ones included, each
/// with the tally its items add up to.
fn shards_of(
    engine: &nqueens::AnyEngine,
    tallies: &[nqueens::Tally],
    cuts: &[usize],
) -> Vec<(String, nqueens::exec::shard::ShardFile)> {
    use nqueens::exec::shard::{self, ShardFile};
    use nqueens::Engine;
    let shards = cuts.len() - 1;
    (0..shards)
        .map(|i| {
            let items = cuts[i]..cuts[i + 1];
            let tally = tallies[items.clone()]
                .iter()
                .fold(nqueens::Tally::default(), |a, &b| a.sum(b));
            let file = ShardFile {
                kind: shard::KIND.to_string(),
                format: shard::FORMAT,
                fingerprint: engine.fingerprint(),
                shard: [i + 1, shards],
                items: [items.start, items.end],
                total_items: engine.items(),
                tally,
                total: tally.total().to_string(),
                classes: engine.fingerprint().part_classes(&tally),
                elapsed_s: 0.0,
                threads: 1,
                simd: "none".to_string(),
                host: "h".to_string(),
                cpu: "c".to_string(),
                program: "p".to_string(),
                seal: String::new(),
            };
            (format!("{i}.json"), file)
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn random_cuts_merge_to_the_count_and_any_overlap_is_refused(
        n in 6usize..=10,
        cuts in proptest::collection::vec(0.0f64..=1.0, 1..12),
        cuts2 in proptest::collection::vec(0.0f64..=1.0, 1..12),
        overlap in (0.0f64..1.0, 0.0f64..=1.0),
    ) {
        use nqueens::exec::merge::{merge, MergeError};
        use nqueens::Engine;
        let job = nqueens::Job::new(n, Options::default().with_depth(Some(3)), Some(1), nqueens::Run::default()).unwrap();
        let engine = job.engine().unwrap().unwrap();
        let items = engine.items();
        let tallies: Vec<nqueens::Tally> = (0..items).map(|i| engine.count(i..i + 1)).collect();
        let cut = |fractions: &[f64]| {
            let mut at: Vec<usize> = fractions.iter().map(|f| (f * items as f64) as usize).collect();
            at.extend([0, items]);
            at.sort_unstable();
            at // repeated cuts make empty shards
        };
        // An exact cover (repeated cuts make empty shards): the total.
        let mut files = shards_of(engine, &tallies, &cut(&cuts));
        let whole = merge(&files).unwrap();
        prop_assert_eq!(Some(whole.tally.total()), nqueens::oeis::known_total(n));
        // A range that shares some items with the cover (not a duplicate
        // of one of its shards) is refused, wherever the empty shards of
        // another cut lie.
        let (a, b) = (overlap.0 * items as f64, overlap.1 * items as f64);
        let (start, end) = (a.min(b) as usize, (a.max(b) as usize).max(a.min(b) as usize + 1).min(items));
        let mut extra = shards_of(engine, &tallies, &[start, end]);
        let (name, mut file) = extra.remove(0);
        file.shard = [1, 1];
        let duplicate = files.iter().any(|(_, f)| f.items == file.items);
        files.push((format!("extra-{name}"), file));
        files.extend(shards_of(engine, &tallies, &cut(&cuts2)).into_iter()
            .filter(|(_, f)| f.items[0] == f.items[1])
            .map(|(name, f)| (format!("empty-{name}"), f)));
        match merge(&files) {
            Ok(merged) => {
                prop_assert!(duplicate, "an overlap was merged");
                prop_assert_eq!(merged.tally, whole.tally);
            }
            Err(MergeError::Overlap { .. }) => prop_assert!(!duplicate),
            Err(other) => prop_assert!(false, "{other}"),
        }
    }
}
