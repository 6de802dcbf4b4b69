//! The parallel engine: a [plan](crate::plan) executed on the current rayon
//! pool.
//!
//! Every subproblem is its own job (`with_max_len(1)`), because subtree sizes
//! vary by an order of magnitude and work stealing needs small pieces to even
//! out the finish; the kernel below the split never touches rayon. Each job
//! returns `weight × count`, summed in `u128` so that no sum can wrap before
//! the final, checked conversion to `u64`.
//!
//! The thread count is the pool's: run inside `ThreadPool::install` to choose it.

use rayon::prelude::*;

use crate::bitmask::count_subtree;
use crate::plan::Plan;
use crate::Error;

/// Counts the solutions a plan stands for, in parallel.
///
/// # Errors
/// [`Error::Overflow`] if the total does not fit in a `u64`.
pub fn count_plan(plan: &Plan) -> Result<u64, Error> {
    let n = plan.n;
    let total: u128 = plan
        .subproblems
        .par_iter()
        .with_max_len(1)
        .map(|s| u128::from(s.weight) * u128::from(count_subtree(n, s.state)))
        .sum();
    u64::try_from(total).map_err(|_| Error::Overflow { n })
}
