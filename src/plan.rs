//! The plan: an n×n search cut at depth k into weighted, independent
//! subproblems.
//!
//! A subproblem is a partial placement of the first k rows; its subtree is
//! counted by the [kernel](crate::bitmask::count_subtree) and multiplied by its
//! weight. A subproblem's index in [`Plan::subproblems`] is stable for a given
//! (n, depth, symmetry), so shards, checkpoints and batches can name it.
//!
//! With [`Symmetry::Mirror`] the first-row queen stays in the left half with
//! weight 2, since reflecting a solution left to right maps it to one with the
//! first queen in the right half. For odd n the middle column is its own
//! mirror image; its second-row queen is cut the same way (left half, weight
//! 2), so the middle branch is always split at least two rows deep.
//!
//! With [`Symmetry::Full`] the subproblems are the corner and side branches of
//! [`symmetry`](crate::symmetry), split further down to depth k under the same
//! row rules the kernel applies; their completions are weighted by the size
//! of their orbit. The corner branch always places two rows; the side
//! branch's pre-placed queen fills a row of its own, which a cut never stops
//! on.

use crate::bitmask::{full_mask, State};
use crate::symmetry::{corner_candidates, Branch, Side};
use crate::{Error, Symmetry, MAX_N};

/// How many subproblems per thread the automatic split depth aims for.
///
/// Subtree sizes are uneven (by 10× and more at the same depth); tens of
/// subproblems per thread let work stealing even out the finish, while the
/// per-subproblem overhead stays far below a microsecond-sized subtree.
pub const SUBPROBLEMS_PER_THREAD: usize = 64;

/// One independent piece of the search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Subproblem {
    /// The partial placement of the first rows.
    pub state: State,
    /// How its completions are counted.
    pub kind: Kind,
}

/// How the completions of a subproblem are counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Each completion stands for `weight` solutions (symmetry none or mirror).
    Weighted(u64),
    /// A full-symmetry branch: completions are counted once per orbit and
    /// weighted by the orbit's size.
    Orbit(Branch),
    /// The 1×1 board under full symmetry: its one solution is an orbit of 1.
    Single,
}

impl Subproblem {
    /// The subproblem's weight if it is [`Kind::Weighted`].
    pub fn weight(&self) -> Option<u64> {
        match self.kind {
            Kind::Weighted(weight) => Some(weight),
            _ => None,
        }
    }
}

/// A search cut into subproblems.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    /// The board size.
    pub n: usize,
    /// The number of rows placed in each subproblem (the middle branch of an
    /// odd board under mirror symmetry is placed at least two deep).
    pub depth: usize,
    /// The symmetry the weights account for.
    pub symmetry: Symmetry,
    /// The subproblems, in a stable order.
    pub subproblems: Vec<Subproblem>,
}

impl Plan {
    /// The plan for an n×n board cut at `depth` rows.
    ///
    /// # Errors
    /// [`Error::BoardSize`] unless `1 <= n <= MAX_N`; [`Error::Depth`] unless
    /// `1 <= depth <= n`.
    pub fn new(n: usize, depth: usize, symmetry: Symmetry) -> Result<Plan, Error> {
        crate::check_board_size(n)?;
        if !(1..=n).contains(&depth) {
            return Err(Error::Depth { depth, n });
        }
        let full = full_mask(n);
        let mut subproblems = Vec::new();
        let mut weighted = |state, weight| {
            subproblems.push(Subproblem {
                state,
                kind: Kind::Weighted(weight),
            })
        };
        match symmetry {
            Symmetry::None => split(full, State::EMPTY, full, depth, 1, &mut weighted),
            Symmetry::Mirror => {
                let left_half = full_mask(n / 2);
                split(full, State::EMPTY, left_half, depth, 2, &mut weighted);
                if n % 2 == 1 {
                    let middle = State::EMPTY.place(1 << (n / 2));
                    if n == 1 {
                        weighted(middle, 1);
                    } else {
                        split(full, middle, left_half, depth.max(2), 2, &mut weighted);
                    }
                }
            }
            Symmetry::Full => split_full(n, depth, &mut subproblems),
        }
        Ok(Plan {
            n,
            depth,
            symmetry,
            subproblems,
        })
    }

    /// The plan at the automatic depth for `threads` threads: the smallest
    /// depth with at least [`SUBPROBLEMS_PER_THREAD`] subproblems per thread
    /// (or depth n, for boards too small to have that many).
    pub fn auto(n: usize, symmetry: Symmetry, threads: usize) -> Result<Plan, Error> {
        let wanted = SUBPROBLEMS_PER_THREAD.saturating_mul(threads.max(1));
        let mut plan = Plan::new(n, 1, symmetry)?;
        while plan.subproblems.len() < wanted && plan.depth < n {
            plan = Plan::new(n, plan.depth + 1, symmetry)?;
        }
        Ok(plan)
    }

    /// The sum of the weights of weighted subproblems: how many solutions the
    /// plan would stand for if every subtree had exactly one completion.
    pub fn total_weight(&self) -> u64 {
        self.subproblems.iter().filter_map(Subproblem::weight).sum()
    }
}

/// Splits `subproblem` further, into the placements of its rows down to
/// `depth` under the same rules its branch follows (a subproblem already that
/// deep is passed on as it is). Their counts add up to the subproblem's.
pub fn refine(n: usize, subproblem: &Subproblem, depth: usize, out: &mut Vec<Subproblem>) {
    let state = subproblem.state;
    match subproblem.kind {
        Kind::Weighted(weight) => split(
            full_mask(n),
            state,
            full_mask(n),
            depth,
            weight,
            &mut |state, weight| {
                out.push(Subproblem {
                    state,
                    kind: Kind::Weighted(weight),
                })
            },
        ),
        Kind::Orbit(Branch::Corner { bound1 }) => {
            split_corner(n, usize::from(bound1), state, depth, out)
        }
        Kind::Orbit(Branch::Side {
            bound1,
            row,
            placed,
        }) => {
            let bound1 = usize::from(bound1);
            let side = Side::new(n, bound1);
            split_side(&side, bound1, usize::from(row), state, placed, depth, out);
        }
        Kind::Single => out.push(*subproblem),
    }
}

/// The full-symmetry subproblems: the corner branches (two rows placed), then
/// the side branches, each split down to `depth` rows under its row rules.
fn split_full(n: usize, depth: usize, out: &mut Vec<Subproblem>) {
    if n == 1 {
        out.push(Subproblem {
            state: State::EMPTY.place(1),
            kind: Kind::Single,
        });
        return;
    }
    for bound1 in 2..n.saturating_sub(1) {
        let state = State::EMPTY.place(1).place(1 << bound1);
        split_corner(n, bound1, state, depth.max(2), out);
    }
    let mut bound1 = 1;
    while bound1 + 1 + bound1 < n {
        let side = Side::new(n, bound1);
        let (state, placed) = side.start();
        split_side(&side, bound1, 0, state, placed, depth, out);
        bound1 += 1;
    }
}

fn split_corner(n: usize, bound1: usize, state: State, depth: usize, out: &mut Vec<Subproblem>) {
    let row = state.rows_placed();
    if row >= depth {
        let bound1 = bound1 as u8;
        out.push(Subproblem {
            state,
            kind: Kind::Orbit(Branch::Corner { bound1 }),
        });
        return;
    }
    let mut candidates = corner_candidates(n, bound1, row, state);
    while candidates != 0 {
        let bit = candidates & candidates.wrapping_neg(); // the lowest candidate
        candidates ^= bit;
        split_corner(n, bound1, state.place(bit), depth, out);
    }
}

/// Emits the side branch's placements of rows `..depth` (the fixed queen's
/// row counts as placed, so a cut may hold one row more).
fn split_side(
    side: &Side,
    bound1: usize,
    row: usize,
    state: State,
    mut placed: [u32; MAX_N],
    depth: usize,
    out: &mut Vec<Subproblem>,
) {
    let (row, state) = side.skip_fixed(row, state);
    if row >= depth {
        out.push(Subproblem {
            state,
            kind: Kind::Orbit(Branch::Side {
                bound1: bound1 as u8,
                row: row as u8,
                placed,
            }),
        });
        return;
    }
    let mut candidates = side.candidates(row, state);
    while candidates != 0 {
        let bit = candidates & candidates.wrapping_neg(); // the lowest candidate
        candidates ^= bit;
        placed[row] = bit;
        split_side(side, bound1, row + 1, state.place(bit), placed, depth, out);
    }
}

/// Emits every placement of rows down to `depth` below `state`, with the next
/// row restricted to the columns in `next_row`.
fn split(
    full: u32,
    state: State,
    next_row: u32,
    depth: usize,
    weight: u64,
    cut: &mut impl FnMut(State, u64),
) {
    if state.rows_placed() >= depth {
        cut(state, weight);
        return;
    }
    let mut free = state.free(full) & next_row;
    while free != 0 {
        let bit = free & free.wrapping_neg(); // the lowest free column
        free ^= bit;
        split(full, state.place(bit), full, depth, weight, cut);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn depth_one_without_symmetry_is_one_subproblem_per_column() {
        let plan = Plan::new(6, 1, Symmetry::None).unwrap();
        assert_eq!(plan.subproblems.len(), 6);
        assert!(plan.subproblems.iter().all(|s| s.weight() == Some(1)));
    }

    #[test]
    fn mirror_keeps_the_left_half_of_the_first_row_at_weight_two() {
        let plan = Plan::new(8, 1, Symmetry::Mirror).unwrap();
        let firsts: Vec<u32> = plan.subproblems.iter().map(|s| s.state.cols).collect();
        assert_eq!(firsts, vec![1, 2, 4, 8]);
        assert_eq!(plan.total_weight(), 8);
    }

    #[test]
    fn mirror_on_odd_boards_cuts_the_middle_branch_two_rows_deep() {
        let plan = Plan::new(5, 1, Symmetry::Mirror).unwrap();
        // Columns 0 and 1 at depth 1, then the middle column 2 with a second
        // queen in column 0 (column 1 is attacked): 3 subproblems.
        let middle: Vec<&Subproblem> = plan
            .subproblems
            .iter()
            .filter(|s| s.state.cols & 0b100 != 0)
            .collect();
        assert_eq!(plan.subproblems.len(), 3);
        assert_eq!(middle.len(), 1);
        assert_eq!(middle[0].state.cols, 0b101);
        assert_eq!(middle[0].weight(), Some(2));
    }

    #[test]
    fn the_one_by_one_board_is_a_single_subproblem() {
        let plan = Plan::new(1, 1, Symmetry::Mirror).unwrap();
        assert_eq!(plan.subproblems.len(), 1);
        assert_eq!(plan.subproblems[0].weight(), Some(1));
    }

    #[test]
    fn depth_must_lie_between_one_and_n() {
        assert_eq!(
            Plan::new(6, 0, Symmetry::Mirror),
            Err(Error::Depth { depth: 0, n: 6 })
        );
        assert_eq!(
            Plan::new(6, 7, Symmetry::None),
            Err(Error::Depth { depth: 7, n: 6 })
        );
        assert!(Plan::new(6, 6, Symmetry::None).is_ok());
    }

    #[test]
    fn auto_depth_gives_every_thread_many_subproblems() {
        let plan = Plan::auto(16, Symmetry::Mirror, 4).unwrap();
        assert!(plan.subproblems.len() >= 4 * SUBPROBLEMS_PER_THREAD);
        let shallower = Plan::new(16, plan.depth - 1, Symmetry::Mirror).unwrap();
        assert!(shallower.subproblems.len() < 4 * SUBPROBLEMS_PER_THREAD);
    }
}
