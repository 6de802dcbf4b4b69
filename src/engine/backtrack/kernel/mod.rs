//! The kernels that count a subproblem's subtree: [`scalar`] (one subtree
//! at a time, any CPU) and [`lanes`] (four at once on AVX2, sixteen on AVX-512). Both give
//! the same counts for every subproblem of every plan; the engine runs the
//! one of the path it is given ([`Backtrack::PATHS`](super::Backtrack::PATHS)).

pub mod lanes;
pub mod scalar;

use super::plan::{Family, Subproblem};
use super::symmetry::{corner_search, Side};
use crate::reduce::{Classes, Tally};

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
        Family::Single => classes.orbit1 = u128::from(scalar::count_subtree(n, state)),
        Family::Corner { bound1 } => {
            classes.orbit8 = u128::from(corner_search(n, usize::from(bound1), row, state))
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
