//! The kernels that count a subproblem's subtree: [`scalar`] (one subtree
//! at a time, any CPU) and [`lanes`] (sixteen at once, AVX-512). Both give
//! the same counts for every subproblem of every plan; the engine runs the
//! one it is given, by default [`Kernel::fastest`].

pub mod lanes;
pub mod scalar;

use super::plan::{Family, Subproblem};
use super::symmetry::{corner_search, Side};
use crate::engine::cpu;
use crate::reduce::{Classes, Tally};

/// Which kernels count each subproblem.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "kebab-case")]
pub enum Kernel {
    /// The scalar kernels, one subtree at a time: any CPU.
    Scalar,
    /// Sixteen subtrees at once in SIMD lanes: needs AVX-512 F and CD.
    Lanes,
}

impl Kernel {
    /// Every kernel.
    pub const ALL: [Kernel; 2] = [Kernel::Scalar, Kernel::Lanes];

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
            Kernel::Lanes => cpu::avx512_lanes(),
        }
    }

    /// What the kernel needs of the CPU, for a refusal.
    pub fn needs(self) -> &'static str {
        match self {
            Kernel::Scalar => "nothing",
            Kernel::Lanes => cpu::AVX512_LANES_NEEDS,
        }
    }

    /// Whether a test may run the kernel here (a skip is said, once).
    #[doc(hidden)]
    pub fn runs_in(self, test: &str) -> bool {
        let path = format!("{self} kernel");
        cpu::runs_or_skips(self.available(), test, &path, self.needs())
    }

    /// The fastest kernel this machine runs: the lanes where the CPU has
    /// AVX-512 F and CD (unless [`NO_LANES_VAR`](cpu::NO_LANES_VAR) is
    /// set), else scalar.
    pub fn fastest() -> Kernel {
        if cpu::avx512_lanes() && !cpu::vectors_off() {
            Kernel::Lanes
        } else {
            Kernel::Scalar
        }
    }

    /// The kernels this machine runs.
    pub fn available_kernels() -> Vec<Kernel> {
        Kernel::ALL.into_iter().filter(|k| k.available()).collect()
    }
}

impl std::fmt::Display for Kernel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// One subproblem's tally, by the scalar kernels.
pub fn count_scalar(n: usize, subproblem: &Subproblem) -> Tally {
    let Subproblem {
        state,
        family,
        row,
        placed,
    } = *subproblem;
    let mut classes = Classes::default();
    match family {
        Family::Weighted(weight) => {
            let weighted = u128::from(weight) * u128::from(scalar::count_subtree(n, state));
            return Tally {
                weighted,
                classes,
                fixed: None,
            };
        }
        Family::Single => classes.orbit1 = scalar::count_subtree(n, state),
        Family::Corner { bound1 } => {
            classes.orbit8 = corner_search(n, usize::from(bound1), row, state)
        }
        Family::Side { bound1 } => {
            let side = Side::new(n, usize::from(bound1));
            let mut board = side.board(placed, row);
            side.search(row, state, &mut board, &mut classes);
        }
    }
    Tally {
        weighted: 0,
        classes,
        fixed: None,
    }
}
