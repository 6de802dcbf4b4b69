//! Full symmetry: every orbit under the 8 symmetries of the square searched
//! once, which gives the unique count (A002562), the symmetry classes, and the
//! fastest total.
//!
//! # Why the corner / side split, not Burnside
//!
//! Burnside's lemma (`unique = (total + 2·R90 + R180) / 8`) needs the total
//! first, at full price, plus two small searches. The classic corner / side
//! split (after Takaken, itself refining Wirth's and Somers' counters) instead
//! keeps one board per orbit, so the unique count and the classes come out of
//! the *fastest* total for free:
//!
//! - **Corner**: a queen in the top-left corner. No such solution is fixed by
//!   any symmetry (a half turn would need the opposite corner, on the same
//!   diagonal), so each has an orbit of 8. Row 0 takes column 0, row 1 takes
//!   column `bound1` in `2..=n-2`, and the diagonal reflection is cut by
//!   keeping column 1 out of rows `2..bound1`. Once past row `bound1` there is
//!   no constraint left, and the subtree goes to the plain
//!   [kernel](super::kernel::scalar::count_subtree).
//! - **Side**: no corner queen; the first row's queen stands `bound1` columns
//!   from the corner, in the left half, and every other edge's queen at least
//!   as far from both its corners: that prunes most non-canonical boards, and
//!   [`classify`] compares each remaining board with its rotations, keeping it
//!   only if it is the smallest of its orbit and telling the orbit's size.
//!   The branch is searched on its boards turned a quarter turn, with the
//!   first queen pre-placed in column 0 near the bottom (see [`Side`]).
//!
//! Node counts (placements visited), measured at n = 16: the mirror search
//! 571 M; the corner branch 26 M; the side branch 220 M in Takaken's
//! orientation, 166 M turned (n = 14: 5.34 M and 4.03 M). Together a third of
//! the mirror search, a sixth of the whole tree. Other orientations and a
//! canonical pre-placement of all four border queens (weighted by orbit
//! size) were counted too and visit more: 338 M for the border pre-placement
//! at n = 16, as each interior is searched once per compatible border.
//!
//! The class sizes: 8 (no symmetry), 4 (fixed by the half turn only), 2
//! (fixed by the quarter turn), and 1 (the lone queen of the 1×1 board).
//! No solution with n ≥ 2 is fixed by a reflection.

use super::kernel::scalar::count_subtree;
use super::state::{full_mask, Placed, State};
use crate::problem::MAX_N;
use crate::reduce::Classes;

/// How many bottom rows of the side branch are unrolled into nested loops.
pub const SIDE_TAIL_ROWS: usize = 11;

/// Defines `Side::$name::<B1>`, filling the bottom `$k` rows: on the fixed
/// queen's row it only steps over it, on any other row it places one queen;
/// then it hands the remaining rows to `$next`.
macro_rules! side_rows {
    ($name:ident, $next:ident, $k:expr) => {
        #[inline(always)]
        fn $name<const B1: usize>(
            &self,
            state: State,
            board: &mut [u32; MAX_N],
            classes: &mut Classes,
        ) {
            if $k == B1 + 1 {
                return self.$next::<B1>(state.place(1), board, classes);
            }
            let row = self.last + 1 - $k;
            let mut candidates = self.tail_candidates::<B1, $k>(state);
            while candidates != 0 {
                let bit = candidates & candidates.wrapping_neg(); // the lowest candidate
                candidates ^= bit;
                board[row % MAX_N] = bit;
                self.$next::<B1>(state.place(bit), board, classes);
            }
        }
    };
}

/// The side branch's search, on its boards turned a quarter turn.
///
/// In Takaken's orientation a side-branch board has its first-row queen in
/// column `bound1`, both side columns' queens in rows `bound1..=n-1-bound1`,
/// and its last-row queen in columns `bound1..=n-1-bound1`. Turned a quarter
/// turn (square `(r, c)` to `(n-1-c, r)`: the first row becomes column 0,
/// read upwards), the same boards have:
///
/// - the column-0 queen fixed in row `fixed = n-1-bound1`, placed before the
///   search starts (its column and rising diagonal) and stepped over;
/// - the first and last rows' queens in columns `bound1..=n-1-bound1`;
/// - the last column's queen in rows `bound1..fixed`: rows above `bound1`
///   keep off it, and row `fixed - 1` must take it if no row has.
///
/// Searched top-down this way round, the tree has about a quarter fewer
/// nodes (n = 14 and 16: 24% fewer than Takaken's orientation; the fixed
/// queen's column and diagonal prune every row, not only those below it),
/// and it finds the same boards turned, so [`classify`] takes them turned
/// back.
#[derive(Clone, Copy, Debug)]
pub struct Side {
    full: u32,
    bound1: usize,
    /// The fixed column-0 queen's row, `n - 1 - bound1`.
    fixed: usize,
    last: usize,
    /// The last column.
    right: u32,
    /// The columns each row may take before attacks: the first and last rows
    /// keep `bound1` columns off each edge, rows above `bound1` keep off the
    /// last column.
    allowed: [u32; MAX_N],
    /// Whether the bottom rows run as the nested loops compiled for this
    /// `bound1`: true when the board is large enough that none of them lies
    /// above row `bound1` or is row 0.
    unrolled_tail: bool,
}

impl Side {
    /// The side branch whose first queen stands `bound1` columns from the
    /// corner (Takaken's orientation).
    pub fn new(n: usize, bound1: usize) -> Side {
        debug_assert!(bound1 >= 1 && bound1 < n - 1 - bound1);
        let full = full_mask(n);
        let last = n - 1;
        let right = 1 << last;
        let middle = full & !(full_mask(bound1) | full_mask(bound1) << (n - bound1));
        let mut allowed = [full; MAX_N];
        for row_mask in &mut allowed[..bound1] {
            *row_mask &= !right;
        }
        allowed[0] &= middle;
        allowed[last] &= middle;
        let tail_top = (last + 1).saturating_sub(SIDE_TAIL_ROWS);
        Side {
            full,
            bound1,
            fixed: last - bound1,
            last,
            right,
            allowed,
            unrolled_tail: (1..=8).contains(&bound1) && tail_top >= bound1.max(1),
        }
    }

    /// The board (one bit per row) of a subproblem whose rows above `row`
    /// hold `placed`, with the column-0 queen in its row.
    pub fn board(&self, placed: Placed, row: usize) -> [u32; MAX_N] {
        let mut board = [0; MAX_N];
        for (r, square) in board.iter_mut().enumerate().take(row) {
            *square = 1 << placed.column(r);
        }
        board[self.fixed % MAX_N] = 1;
        board
    }

    /// The state and board before any row is filled: the column-0 queen
    /// holds its column, its rising diagonal and its row of the board.
    pub fn start(&self) -> (State, [u32; MAX_N]) {
        let mut board = [0; MAX_N];
        board[self.fixed % MAX_N] = 1;
        let state = State {
            cols: 1,
            diag_up: 0,
            diag_down: 1 << self.fixed,
        };
        (state, board)
    }

    /// The columns the last row may take (before attacks).
    pub fn last_row_mask(&self) -> u32 {
        self.allowed[self.last % MAX_N]
    }

    /// The row that must take the last column if no row above has.
    fn completes_right(&self) -> usize {
        self.fixed - 1
    }

    /// Steps over the fixed queen's row if `row` is it: the row and state to
    /// fill next.
    #[inline(always)]
    pub fn skip_fixed(&self, row: usize, state: State) -> (usize, State) {
        if row == self.fixed {
            (row + 1, state.place(1))
        } else {
            (row, state)
        }
    }

    /// The columns row `row` (not the fixed queen's) may take below `state`.
    #[inline(always)]
    pub fn candidates(&self, row: usize, state: State) -> u32 {
        let free = state.free(self.full) & self.allowed[row % MAX_N];
        if row == self.completes_right() {
            self.complete_right(state, free)
        } else {
            free
        }
    }

    /// Row `fixed - 1`'s rule: if no row above has taken the last column,
    /// this one must.
    #[inline(always)]
    fn complete_right(&self, state: State, free: u32) -> u32 {
        let keep = if state.cols & self.right == 0 {
            self.right
        } else {
            u32::MAX
        };
        free & keep
    }

    /// Counts the canonical completions of `board[..row]` (whose attacks are
    /// `state`) into `classes`.
    pub fn search(
        &self,
        row: usize,
        state: State,
        board: &mut [u32; MAX_N],
        classes: &mut Classes,
    ) {
        let (row, state) = self.skip_fixed(row, state);
        if row > self.last {
            return self.classify_into(board, classes);
        }
        if self.unrolled_tail && self.last + 1 - row == SIDE_TAIL_ROWS {
            return self.tail(state, board, classes);
        }
        let mut candidates = self.candidates(row, state);
        while candidates != 0 {
            let bit = candidates & candidates.wrapping_neg(); // the lowest candidate
            candidates ^= bit;
            board[row % MAX_N] = bit;
            self.search(row + 1, state.place(bit), board, classes);
        }
    }

    /// The bottom [`SIDE_TAIL_ROWS`] rows, compiled once per `bound1`, so
    /// that which of them holds the fixed queen and which completes the last
    /// column is known at compile time and the other rows test nothing but
    /// the attacks.
    fn tail(&self, state: State, board: &mut [u32; MAX_N], classes: &mut Classes) {
        match self.bound1 {
            1 => self.tail_for::<1>(state, board, classes),
            2 => self.tail_for::<2>(state, board, classes),
            3 => self.tail_for::<3>(state, board, classes),
            4 => self.tail_for::<4>(state, board, classes),
            5 => self.tail_for::<5>(state, board, classes),
            6 => self.tail_for::<6>(state, board, classes),
            7 => self.tail_for::<7>(state, board, classes),
            8 => self.tail_for::<8>(state, board, classes),
            _ => unreachable!("unrolled_tail holds only for bound1 in 1..=8"),
        }
    }

    /// The bottom rows as nested loops, out of line; `B1` is `bound1`.
    #[inline(never)]
    fn tail_for<const B1: usize>(
        &self,
        state: State,
        board: &mut [u32; MAX_N],
        classes: &mut Classes,
    ) {
        self.rows_11::<B1>(state, board, classes)
    }

    /// The candidates of the row `K` rows from the bottom, with `B1` =
    /// `bound1` and no row of the tail above row `bound1`: only the last row
    /// and the row completing the last column (`B1 + 2` from the bottom)
    /// have a rule.
    #[inline(always)]
    fn tail_candidates<const B1: usize, const K: usize>(&self, state: State) -> u32 {
        debug_assert_eq!(B1, self.bound1);
        let free = state.free(self.full);
        if K == 1 {
            free & self.allowed[self.last % MAX_N]
        } else if K == B1 + 2 {
            self.complete_right(state, free)
        } else {
            free
        }
    }

    /// The last row: at most one free square.
    #[inline(always)]
    fn rows_1<const B1: usize>(
        &self,
        state: State,
        board: &mut [u32; MAX_N],
        classes: &mut Classes,
    ) {
        let last = self.tail_candidates::<B1, 1>(state);
        if last != 0 {
            board[self.last % MAX_N] = last;
            self.classify_into(board, classes);
        }
    }

    /// The last two rows. With `bound1` = 1 the first of them is the fixed
    /// queen's; otherwise exactly two columns `a < b` remain, so the rows
    /// take them as (a, b) or (b, a). Both orders are tested without a
    /// branch, and the board is written only for a completion, which is rare.
    #[inline(always)]
    fn rows_2<const B1: usize>(
        &self,
        state: State,
        board: &mut [u32; MAX_N],
        classes: &mut Classes,
    ) {
        if B1 == 1 {
            return self.rows_1::<B1>(state.place(1), board, classes);
        }
        let (row, last) = (self.last - 1, self.last);
        let remaining = self.full & !state.cols;
        debug_assert_eq!(remaining.count_ones(), 2);
        let a = remaining & remaining.wrapping_neg();
        let b = remaining ^ a;
        let first_open = self.tail_candidates::<B1, 2>(state);
        let last_open =
            self.allowed[last % MAX_N] & !((state.diag_up << 1) | (state.diag_down >> 1));
        // Queens in adjacent columns on adjacent rows attack each other.
        let apart = b != a << 1;
        let a_then_b = apart & (a & first_open != 0) & (b & last_open != 0);
        let b_then_a = apart & (b & first_open != 0) & (a & last_open != 0);
        if !(a_then_b | b_then_a) {
            return;
        }
        for (x, y, fits) in [(a, b, a_then_b), (b, a, b_then_a)] {
            if fits {
                board[row % MAX_N] = x;
                board[last % MAX_N] = y;
                self.classify_into(board, classes);
            }
        }
    }

    side_rows!(rows_3, rows_2, 3);
    side_rows!(rows_4, rows_3, 4);
    side_rows!(rows_5, rows_4, 5);
    side_rows!(rows_6, rows_5, 6);
    side_rows!(rows_7, rows_6, 7);
    side_rows!(rows_8, rows_7, 8);
    side_rows!(rows_9, rows_8, 9);
    side_rows!(rows_10, rows_9, 10);
    side_rows!(rows_11, rows_10, 11);

    /// Adds a complete board (turned) to its class, if it is its orbit's
    /// canonical one.
    #[inline(always)]
    pub(crate) fn classify_into(&self, board: &[u32; MAX_N], classes: &mut Classes) {
        let (last, bound1) = (self.last, self.bound1);
        // Most boards can equal none of their rotations: the first row of
        // each rotation (in Takaken's orientation) differs from theirs. Those
        // are canonical orbits of 8. Turned, the squares to look at are: the
        // last row's queen in column n-1-bound1 (a quarter turn could match),
        // row bound1's in the last column (a half turn), row 0's in column
        // bound1 (three quarters).
        if board[last % MAX_N] != 1 << (last - bound1)
            && board[bound1 % MAX_N] != self.right
            && board[0] != 1 << bound1
        {
            classes.orbit8 += 1;
            return;
        }
        // Turn the board back: the queen at (x, y) goes to (y, n-1-x).
        let mut upright = [0u32; MAX_N];
        for (x, &queen) in board[..=last].iter().enumerate() {
            upright[queen.trailing_zeros() as usize % MAX_N] = 1 << (last - x);
        }
        match classify(&upright[..=last], bound1, self.fixed) {
            Some(8) => classes.orbit8 += 1,
            Some(4) => classes.orbit4 += 1,
            Some(2) => classes.orbit2 += 1,
            _ => {}
        }
    }
}

/// The columns row `row` may take below `state` in the corner branch.
#[inline(always)]
pub fn corner_candidates(n: usize, bound1: usize, row: usize, state: State) -> u32 {
    let free = state.free(full_mask(n));
    if row < bound1 {
        free & !0b10 // column 1 stays below row bound1: cuts the diagonal mirror
    } else {
        free
    }
}

/// Counts the completions of a corner-branch placement of `row` rows.
pub fn corner_search(n: usize, bound1: usize, row: usize, state: State) -> u64 {
    if row >= bound1 {
        return count_subtree(n, state);
    }
    let mut candidates = corner_candidates(n, bound1, row, state);
    let mut count = 0;
    while candidates != 0 {
        let bit = candidates & candidates.wrapping_neg(); // the lowest candidate
        candidates ^= bit;
        // Saturate, never wrap (see count_subtree).
        count = u64::saturating_add(count, corner_search(n, bound1, row + 1, state.place(bit)));
    }
    count
}

/// Compares a complete side-branch board (one-hot row masks) with its
/// rotations. Returns `None` if a rotation is smaller, row by row (another
/// board of the orbit is the one counted), else the orbit's size.
///
/// Each rotated row is found by scanning for the queen it comes from, and the
/// scan stops as soon as it is known to exceed the board's own row.
pub fn classify(board: &[u32], bound1: usize, bound2: usize) -> Option<u8> {
    let n = board.len();
    let last = n - 1;
    let top = 1u32 << last;
    // Quarter turn: rotated row i has its queen at column last - j, where
    // board row j has its queen at column i. Row 0 agrees iff board[bound2]
    // holds column 0.
    if board[bound2] == 1 {
        match compare_rows(board, |i, own| {
            let column = 1u32 << i;
            let (mut bit, mut you) = (1u32, last);
            while board[you] != column && own >= bit {
                bit <<= 1;
                you -= 1;
            }
            bit
        }) {
            Rotation::Smaller => return None,
            Rotation::Equal => return Some(2),
            Rotation::Larger => {}
        }
    }
    // Half turn: rotated row i is board row last - i, reversed. Row 0 agrees
    // iff the last row mirrors row 0.
    if board[last] == top >> bound1 {
        match compare_rows(board, |i, own| {
            let source = board[last - i];
            let (mut bit, mut column) = (1u32, top);
            while column != source && own >= bit {
                bit <<= 1;
                column >>= 1;
            }
            bit
        }) {
            Rotation::Smaller => return None,
            Rotation::Equal => return Some(4),
            Rotation::Larger => {}
        }
    }
    // Three-quarter turn: rotated row i has its queen at column j, where
    // board row j has its queen at column last - i.
    if board[bound1] == top {
        if let Rotation::Smaller = compare_rows(board, |i, own| {
            let column = top >> i;
            let (mut bit, mut you) = (1u32, 0);
            while board[you] != column && own >= bit {
                bit <<= 1;
                you += 1;
            }
            bit
        }) {
            return None;
        }
    }
    Some(8)
}

enum Rotation {
    Smaller,
    Equal,
    Larger,
}

/// Compares rows 1.. of `board` with a rotation's rows, given as
/// `rotated(i, own)` (which may return any value above `own` once it knows the
/// rotated row is larger).
#[inline(always)]
fn compare_rows(board: &[u32], rotated: impl Fn(usize, u32) -> u32) -> Rotation {
    for (i, &own) in board.iter().enumerate().skip(1) {
        let theirs = rotated(i, own);
        if own > theirs {
            return Rotation::Smaller;
        }
        if own < theirs {
            return Rotation::Larger;
        }
    }
    Rotation::Equal
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Counts one side branch from its start, with or without the unrolled
    /// tail.
    fn side_classes(n: usize, bound1: usize, unrolled_tail: bool) -> Classes {
        let side = Side {
            unrolled_tail,
            ..Side::new(n, bound1)
        };
        let (state, mut board) = side.start();
        let mut classes = Classes::default();
        side.search(0, state, &mut board, &mut classes);
        classes
    }

    #[test]
    fn the_unrolled_tail_finds_what_plain_recursion_finds() {
        let mut compared = 0;
        for n in 12..=14 {
            for bound1 in (1..).take_while(|&b| b + 1 + b < n) {
                if Side::new(n, bound1).unrolled_tail {
                    let unrolled = side_classes(n, bound1, true);
                    assert_eq!(
                        unrolled,
                        side_classes(n, bound1, false),
                        "n={n} bound1={bound1}"
                    );
                    assert!(unrolled.unique() > 0);
                    compared += 1;
                }
            }
        }
        // n = 12: bound1 1; 13: 1, 2; 14: 1, 2, 3.
        assert_eq!(compared, 6);
    }
}
