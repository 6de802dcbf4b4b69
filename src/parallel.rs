//! The parallel engine: a [plan](crate::plan) executed on the current rayon
//! pool.
//!
//! Every job is its own rayon task (`with_max_len(1)`), because subtree sizes
//! vary by an order of magnitude and work stealing needs small pieces to even
//! out the finish; the kernel below the split never touches rayon. Each job
//! returns `weight × count`, summed in `u128` so that no sum can wrap before
//! the final, checked conversion to `u64`.
//!
//! With the scalar kernels a job is one subproblem. Where the CPU has
//! AVX-512, the [lanes](crate::lanes) count sixteen pieces at a time, and a
//! job is a short run of subproblems of one branch
//! ([`batches`](crate::lanes::batches)), enough to fill them; both give the
//! same counts ([`Kernel`]).
//!
//! The thread count is the pool's: run inside `ThreadPool::install` to choose it.
//! A progress callback hears of every finished subproblem.

use std::sync::atomic::{AtomicUsize, Ordering};

use rayon::prelude::*;

use crate::bitmask::count_subtree;
use crate::plan::{Kind, Plan, Subproblem};
use crate::symmetry::{corner_search, Branch, Classes, Side};
use crate::Error;

/// What a plan adds up to.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// The number of solutions.
    pub total: u64,
    /// The orbit classes, for a full-symmetry plan.
    pub classes: Option<Classes>,
}

/// Called with (subproblems finished, subproblems in the plan) each time a
/// subproblem finishes, from whichever worker thread finished it.
pub type Progress<'a> = &'a (dyn Fn(usize, usize) + Sync);

/// Which kernels count each subproblem: the scalar ones
/// ([`count_subtree`] and the symmetry branches' searches) or the
/// [lanes](crate::lanes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, clap::ValueEnum, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kernel {
    /// The scalar kernels, one subtree at a time: any CPU.
    Scalar,
    /// Sixteen subtrees at once in SIMD lanes: needs AVX-512 F and CD.
    Lanes,
}

impl Kernel {
    /// The name used on the command line and in results.
    pub fn name(self) -> &'static str {
        match self {
            Kernel::Scalar => "scalar",
            Kernel::Lanes => "lanes",
        }
    }

    /// Whether this machine runs the kernel.
    pub fn available(self) -> bool {
        match self {
            Kernel::Scalar => true,
            Kernel::Lanes => crate::lanes::available(),
        }
    }

    /// The fastest kernel this machine runs.
    pub fn fastest() -> Kernel {
        if crate::lanes::available() {
            Kernel::Lanes
        } else {
            Kernel::Scalar
        }
    }
}

impl std::fmt::Display for Kernel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Counts the solutions a plan stands for, in parallel, with the fastest
/// kernel.
///
/// # Errors
/// [`Error::Overflow`] if the total does not fit in a `u64`.
pub fn count_plan(plan: &Plan) -> Result<Tally, Error> {
    count_plan_with_progress(plan, &|_, _| {})
}

/// [`count_plan`], reporting each finished subproblem to `progress`.
///
/// # Errors
/// [`Error::Overflow`] if the total does not fit in a `u64`.
pub fn count_plan_with_progress(plan: &Plan, progress: Progress<'_>) -> Result<Tally, Error> {
    count_plan_with(plan, Kernel::fastest(), progress)
}

/// [`count_plan_with_progress`] with the kernel chosen by the caller.
///
/// # Errors
/// [`Error::Overflow`] if the total does not fit in a `u64`.
///
/// # Panics
/// With [`Kernel::Lanes`] on a machine without AVX-512 F and CD.
pub fn count_plan_with(
    plan: &Plan,
    kernel: Kernel,
    progress: Progress<'_>,
) -> Result<Tally, Error> {
    let n = plan.n;
    let total_subproblems = plan.subproblems.len();
    let finished = AtomicUsize::new(0);
    // The lanes take several subproblems of one branch at a time, so that a
    // deep plan's small subproblems still fill them; the scalar kernels one.
    let jobs: Vec<&[Subproblem]> = match kernel {
        Kernel::Scalar => plan.subproblems.chunks(1).collect(),
        Kernel::Lanes => crate::lanes::batches(&plan.subproblems, rayon::current_num_threads()),
    };
    let (weighted, classes) = jobs
        .par_iter()
        .with_max_len(1)
        .map(|&job| {
            let counted = match kernel {
                Kernel::Scalar => count_scalar(n, &job[0]),
                Kernel::Lanes => crate::lanes::count(n, job),
            };
            for _ in job {
                progress(
                    finished.fetch_add(1, Ordering::Relaxed) + 1,
                    total_subproblems,
                );
            }
            counted
        })
        .reduce(
            || (0u128, Classes::default()),
            |(w1, mut c1), (w2, c2)| {
                c1.add(c2);
                (w1 + w2, c1)
            },
        );
    let total = weighted + classes.total();
    // The kernels saturate at u64::MAX rather than wrap.
    let total = u64::try_from(total)
        .ok()
        .filter(|&t| t != u64::MAX)
        .ok_or(Error::Overflow { n })?;
    let full = plan.symmetry == crate::Symmetry::Full;
    Ok(Tally {
        total,
        classes: full.then_some(classes),
    })
}

/// One subproblem's weighted count and orbit classes, by the scalar kernels.
pub(crate) fn count_scalar(n: usize, subproblem: &Subproblem) -> (u128, Classes) {
    let state = subproblem.state;
    let row = state.rows_placed();
    let mut classes = Classes::default();
    match subproblem.kind {
        Kind::Weighted(weight) => {
            return (
                u128::from(weight) * u128::from(count_subtree(n, state)),
                classes,
            )
        }
        Kind::Single => classes.orbit1 = count_subtree(n, state),
        Kind::Orbit(Branch::Corner { bound1 }) => {
            classes.orbit8 = corner_search(n, usize::from(bound1), row, state)
        }
        Kind::Orbit(Branch::Side {
            bound1,
            row,
            mut placed,
        }) => Side::new(n, usize::from(bound1)).search(
            usize::from(row),
            state,
            &mut placed,
            &mut classes,
        ),
    }
    (0, classes)
}
