//! The rules each family's rows follow, and the walks that split a branch
//! into the placements of its first rows: the plan's subproblems
//! (`walk`) and a subproblem's own (`refine`, for the lanes).

use std::ops::ControlFlow;

use super::state::{full_mask, Family, Placed, State, Subproblem};
use super::symmetry::{corner_candidates, Side};
use crate::problem::Symmetry;

/// Runs `f` with the row rules of `family` on the n×n board.
pub(super) fn with_rules<T>(n: usize, family: Family, f: impl FnOnce(&dyn RowRules) -> T) -> T {
    match family {
        Family::Weighted(_) | Family::Single => f(&Plain::new(n)),
        Family::Corner { bound1 } => f(&Corner {
            n,
            bound1: usize::from(bound1),
        }),
        Family::Side { bound1 } => f(&Side::new(n, usize::from(bound1))),
    }
}

/// Splits `subproblem` further, into the placements of its rows down to
/// `depth` under the same rules its family follows (a subproblem already
/// that deep is passed on as it is), handing each to `emit` in index order
/// until it breaks. Their counts add up to the subproblem's.
pub fn refine(
    n: usize,
    subproblem: &Subproblem,
    depth: usize,
    emit: &mut impl FnMut(Subproblem) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let Subproblem {
        state,
        family,
        row,
        placed,
    } = *subproblem;
    let mut emit = |state, row, placed| {
        emit(Subproblem {
            state,
            family,
            row,
            placed,
        })
    };
    match family {
        Family::Weighted(_) => split(
            &Plain::new(n),
            state,
            placed,
            row,
            depth,
            &mut any_row,
            &mut emit,
        ),
        Family::Corner { bound1 } => {
            let corner = Corner {
                n,
                bound1: usize::from(bound1),
            };
            split(&corner, state, placed, row, depth, &mut any_row, &mut emit)
        }
        Family::Side { bound1 } => {
            let side = Side::new(n, usize::from(bound1));
            split(&side, state, placed, row, depth, &mut any_row, &mut emit)
        }
        Family::Single => emit(state, row, placed),
    }
}

/// Walks the plan's subproblems in index order, handing each with its
/// family to `emit` until it breaks; `pass` is told the row of every
/// placement the walk passes on its way down to them (see `split`).
pub(super) fn walk(
    n: usize,
    depth: usize,
    symmetry: Symmetry,
    pass: &mut impl FnMut(usize) -> ControlFlow<()>,
    emit: &mut impl FnMut(Family, State, Placed) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let (plain, empty) = (Plain::new(n), Placed::default());
    match symmetry {
        Symmetry::None => split(
            &plain,
            State::EMPTY,
            empty,
            0,
            depth,
            pass,
            &mut |s, _, p| emit(Family::Weighted(1), s, p),
        ),
        Symmetry::Mirror => {
            // The first queen placed keeps to the left half.
            let mut twice = |s, _, p| emit(Family::Weighted(2), s, p);
            let left = Plain {
                first: (0, full_mask(n / 2)),
                ..plain
            };
            split(&left, State::EMPTY, empty, 0, depth, pass, &mut twice)?;
            if n % 2 == 1 {
                let bit = 1 << (n / 2);
                let (middle, placed) = (State::EMPTY.place(bit), empty.with(0, bit));
                if n == 1 {
                    return emit(Family::Weighted(1), middle, placed);
                }
                let left = Plain {
                    first: (1, full_mask(n / 2)),
                    ..plain
                };
                split(&left, middle, placed, 1, depth.max(2), pass, &mut twice)?;
            }
            ControlFlow::Continue(())
        }
        Symmetry::Full => walk_full(n, depth, pass, emit),
    }
}

/// The full-symmetry subproblems: the corner branches (two rows placed), then
/// the side branches, each split down to `depth` rows under its row rules.
fn walk_full(
    n: usize,
    depth: usize,
    pass: &mut impl FnMut(usize) -> ControlFlow<()>,
    emit: &mut impl FnMut(Family, State, Placed) -> ControlFlow<()>,
) -> ControlFlow<()> {
    if n == 1 {
        return emit(Family::Single, State::EMPTY.place(1), Placed::default());
    }
    for bound1 in 2..n.saturating_sub(1) {
        let state = State::EMPTY.place(1).place(1 << bound1);
        let placed = Placed::default().with(0, 1).with(1, 1 << bound1);
        let family = Family::Corner {
            bound1: bound1 as u8,
        };
        let corner = Corner { n, bound1 };
        split(
            &corner,
            state,
            placed,
            2,
            depth.max(2),
            pass,
            &mut |s, _, p| emit(family, s, p),
        )?;
    }
    let mut bound1 = 1;
    while bound1 + 1 + bound1 < n {
        let side = Side::new(n, bound1);
        let (state, _) = side.start();
        let family = Family::Side {
            bound1: bound1 as u8,
        };
        split(
            &side,
            state,
            Placed::default(),
            0,
            depth,
            pass,
            &mut |s, _, p| emit(family, s, p),
        )?;
        bound1 += 1;
    }
    ControlFlow::Continue(())
}

/// The rules a branch's rows follow, as the plan splits it: which columns
/// a row may take, and which row is stepped over (the side branch's
/// pre-placed queen).
pub(super) trait RowRules {
    /// The columns row `row` may take below `state`.
    fn candidates(&self, row: usize, state: State) -> u32;

    /// The row to fill next and its state, if `row` is filled already.
    fn skip(&self, row: usize, state: State) -> (usize, State) {
        (row, state)
    }
}

/// No rule but the attacks, except that one row (the first the split
/// fills, under mirror symmetry) may keep to some columns.
#[derive(Clone, Copy)]
struct Plain {
    full: u32,
    /// A row and the columns it may take.
    first: (usize, u32),
}

impl Plain {
    fn new(n: usize) -> Plain {
        Plain {
            full: full_mask(n),
            first: (0, full_mask(n)),
        }
    }
}

impl RowRules for Plain {
    fn candidates(&self, row: usize, state: State) -> u32 {
        let (first_row, first_mask) = self.first;
        let free = state.free(self.full);
        if row == first_row {
            free & first_mask
        } else {
            free
        }
    }
}

/// The corner branch's rule ([`corner_candidates`]).
struct Corner {
    n: usize,
    bound1: usize,
}

impl RowRules for Corner {
    fn candidates(&self, row: usize, state: State) -> u32 {
        corner_candidates(self.n, self.bound1, row, state)
    }
}

impl RowRules for Side {
    fn candidates(&self, row: usize, state: State) -> u32 {
        Side::candidates(self, row, state)
    }

    fn skip(&self, row: usize, state: State) -> (usize, State) {
        self.skip_fixed(row, state)
    }
}

/// Hands every placement of the rows from `row` down to `depth` below
/// `state` under `rules` to `cut`, in index order, until it breaks (a
/// stepped-over row counts as placed, so a cut may hold one row more);
/// `pass` is told the row of every placement the walk passes above the
/// cut, and may break it too.
fn split(
    rules: &impl RowRules,
    state: State,
    placed: Placed,
    row: usize,
    depth: usize,
    pass: &mut impl FnMut(usize) -> ControlFlow<()>,
    cut: &mut dyn FnMut(State, usize, Placed) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let (row, state) = rules.skip(row, state);
    if row >= depth {
        return cut(state, row, placed);
    }
    pass(row)?;
    let mut candidates = rules.candidates(row, state);
    while candidates != 0 {
        let bit = candidates & candidates.wrapping_neg(); // the lowest candidate
        candidates ^= bit;
        let (child, columns) = (state.place(bit), placed.with(row, bit));
        split(rules, child, columns, row + 1, depth, pass, cut)?;
    }
    ControlFlow::Continue(())
}

/// A walk's `pass` that lets every row by.
pub(super) fn any_row(_: usize) -> ControlFlow<()> {
    ControlFlow::Continue(())
}
