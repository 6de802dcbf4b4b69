//! How big is the search? Knuth's estimator on the engine's own tree, and
//! an exact (slow) count of its nodes to check it against.
//!
//! A probe follows one random path down from a subproblem, picking each
//! row's queen uniformly among the columns the branch's rules allow; with
//! `d_i` candidates on the i-th row of the path, `1 + d_1 + d_1·d_2 + …` is
//! an unbiased estimate of the nodes of the subproblem's subtree (Knuth,
//! "Estimating the efficiency of backtrack programs", 1975). A subproblem
//! drawn uniformly from the plan's `P`, times `P`, estimates the whole.
//! The mean of many probes has a spread that falls as one over their
//! square root; subtrees differ so much in size that a few thousand probes
//! are needed for a few percent.
//!
//! Nodes are placements visited below the plan's cut (each subproblem
//! counts as one): the work the kernels do, whatever the kernel.

use super::plan::{Plan, Subproblem};
use super::rules::{with_rules, RowRules};
use super::state::State;
use crate::stats::{Moments, SplitMix64};

/// An estimate of the nodes of a plan's search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NodeEstimate {
    /// The estimated nodes.
    pub nodes: f64,
    /// The standard error of the estimate, relative to it.
    pub relative_error: f64,
    /// The probes it took.
    pub probes: usize,
}

/// Estimates the nodes of `plan`'s search by `probes` random probes from
/// subproblems drawn uniformly; `seed` makes the draw repeatable. A plan
/// with no subproblem (n = 2 and 3, whose second row has no place) has no
/// nodes below its cut: exactly 0.
pub fn nodes(plan: &Plan, probes: usize, seed: u64) -> NodeEstimate {
    let mut random = SplitMix64::new(seed);
    let count = plan.len();
    if count == 0 {
        return NodeEstimate {
            nodes: 0.0,
            relative_error: 0.0,
            probes: 0,
        };
    }
    let probes = probes.max(1);
    let mut subtrees = Moments::default();
    for _ in 0..probes {
        let index = random.below(count as u64) as usize;
        subtrees.push(probe(plan.n, &plan.subproblem(index), &mut random));
    }
    NodeEstimate {
        nodes: subtrees.mean() * count as f64,
        relative_error: subtrees.relative_error(),
        probes,
    }
}

/// One probe: Knuth's estimate of the nodes of `subproblem`'s subtree.
fn probe(n: usize, subproblem: &Subproblem, random: &mut SplitMix64) -> f64 {
    with_rules(n, subproblem.family, |rules| {
        let (mut state, mut row) = (subproblem.state, subproblem.row);
        let (mut nodes, mut width) = (1.0, 1.0);
        loop {
            (row, state) = rules.skip(row, state);
            if row >= n {
                return nodes;
            }
            let candidates = rules.candidates(row, state);
            let choices = candidates.count_ones();
            if choices == 0 {
                return nodes;
            }
            width *= f64::from(choices);
            nodes += width;
            let bit = nth_bit(candidates, random.below(u64::from(choices)) as u32);
            state = state.place(bit);
            row += 1;
        }
    })
}

/// The exact number of nodes of `plan`'s search (below the cut, each
/// subproblem one): a plain scalar search that counts them, far slower than
/// the kernels, for checking [`nodes`].
pub fn exact_nodes(plan: &Plan, subproblems: std::ops::Range<usize>) -> u64 {
    subproblems
        .map(|index| {
            let subproblem = plan.subproblem(index);
            with_rules(plan.n, subproblem.family, |rules| {
                count(rules, plan.n, subproblem.state, subproblem.row)
            })
        })
        .sum()
}

fn count(rules: &dyn RowRules, n: usize, state: State, row: usize) -> u64 {
    let (row, state) = rules.skip(row, state);
    if row >= n {
        return 1;
    }
    let mut candidates = rules.candidates(row, state);
    let mut nodes = 1;
    while candidates != 0 {
        let bit = candidates & candidates.wrapping_neg(); // the lowest candidate
        candidates ^= bit;
        nodes += count(rules, n, state.place(bit), row + 1);
    }
    nodes
}

/// The `k`-th lowest set bit of `bits`, as a mask.
fn nth_bit(mut bits: u32, k: u32) -> u32 {
    for _ in 0..k {
        bits &= bits - 1; // drop the lowest
    }
    bits & bits.wrapping_neg()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::Symmetry;

    #[test]
    fn the_estimate_lands_near_the_exact_count() {
        for symmetry in Symmetry::ALL {
            let plan = Plan::new(11, 3, symmetry).unwrap();
            let exact = exact_nodes(&plan, 0..plan.len()) as f64;
            let estimate = nodes(&plan, 20_000, 7);
            let error = (estimate.nodes - exact).abs() / exact;
            assert!(
                error < 0.1,
                "{symmetry}: {} against {exact}",
                estimate.nodes
            );
            assert!(estimate.relative_error < 0.05, "{estimate:?}");
        }
    }

    #[test]
    fn every_small_plan_is_estimated_even_an_empty_one() {
        // n = 2 and 3 plan no subproblem under full symmetry: probing one
        // panicked (`count 2`), where the answer is exactly 0 nodes.
        let mut empty = 0;
        for n in 1..=5 {
            for symmetry in Symmetry::ALL {
                for depth in 1..=n {
                    let plan = Plan::new(n, depth, symmetry).unwrap();
                    let estimate = nodes(&plan, 100, 1);
                    if plan.is_empty() {
                        empty += 1;
                        assert_eq!(estimate.nodes, 0.0, "n = {n}, {symmetry}, depth {depth}");
                    }
                    assert!(estimate.nodes.is_finite());
                }
            }
        }
        assert!(empty > 0, "no empty plan was tried");
    }

    #[test]
    fn exact_nodes_counts_every_placement_below_the_cut() {
        // n = 4, no symmetry, cut at row 1: the 4 subproblems and the
        // placements below them (rows 1..4): 4 + 6 + 4 + 2 = 16 of the
        // tree's 17 nodes, the root excepted.
        let plan = Plan::new(4, 1, Symmetry::None).unwrap();
        assert_eq!(exact_nodes(&plan, 0..plan.len()), 16);
    }

    #[test]
    fn nth_bit_walks_the_set_bits_in_order() {
        assert_eq!(nth_bit(0b1011_0100, 0), 0b100);
        assert_eq!(nth_bit(0b1011_0100, 1), 0b1_0000);
        assert_eq!(nth_bit(0b1011_0100, 3), 0b1000_0000);
    }
}
