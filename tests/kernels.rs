//! The scalar kernels and the SIMD lanes count every plan alike.

use nqueens::oeis::{known_total, known_unique};
use nqueens::parallel::{count_plan_with, Kernel};
use nqueens::plan::Plan;
use nqueens::{lanes, Symmetry};
use proptest::prelude::*;

const SYMMETRIES: [Symmetry; 3] = [Symmetry::None, Symmetry::Mirror, Symmetry::Full];

fn tally(plan: &Plan, kernel: Kernel) -> nqueens::parallel::Tally {
    count_plan_with(plan, kernel, &|_, _| {}).unwrap()
}

/// Every symmetry's plan for n = 1..=max_n, counted by `kernel`, against
/// A000170 and (full symmetry) A002562.
fn assert_matches_oeis(kernel: Kernel, max_n: usize) {
    for symmetry in SYMMETRIES {
        for n in 1..=max_n {
            let plan = Plan::auto(n, symmetry, 2).unwrap();
            let counted = tally(&plan, kernel);
            assert_eq!(
                Some(counted.total),
                known_total(n),
                "{kernel:?} {symmetry:?} n={n}"
            );
            if let Some(classes) = counted.classes {
                assert_eq!(Some(classes.unique()), known_unique(n), "{kernel:?} n={n}");
            }
        }
    }
}

#[test]
fn the_scalar_kernels_match_oeis_under_every_symmetry() {
    assert_matches_oeis(Kernel::Scalar, 13);
}

#[test]
fn the_lanes_match_oeis_under_every_symmetry() {
    if !lanes::available() {
        eprintln!("skipped: this machine has no AVX-512 F and CD");
        return;
    }
    assert_matches_oeis(Kernel::Lanes, 14);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn the_lanes_count_every_plan_as_the_scalar_kernels_do(
        n in 4usize..=12,
        depth_fraction in 0.0f64..1.0,
        symmetry in prop::sample::select(SYMMETRIES.to_vec()),
    ) {
        if !lanes::available() {
            return Ok(()); // nothing to compare on this machine
        }
        let depth = 1 + ((n - 1) as f64 * depth_fraction) as usize;
        let plan = Plan::new(n, depth, symmetry).unwrap();
        prop_assert_eq!(tally(&plan, Kernel::Lanes), tally(&plan, Kernel::Scalar));
    }
}
