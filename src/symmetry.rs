//! Full symmetry: every orbit under the 8 symmetries of the square searched
//! once, which gives the unique count (A002562), the symmetry classes, and the
//! fastest total.
//!
//! # Why the corner / side split, not Burnside
//!
//! Burnside's lemma (`unique = (total + 2·R90 + R180) / 8`) needs the total
//! first, at full price, plus two small searches. The classic corner / side
//! split (after Takaken, itself refining Wirth's and Somers' counters) instead
//! keeps one board per orbit and visits about a quarter of the tree's nodes
//! (half of the mirror search's, measured at n = 14 and 15: the pruning below
//! is strong for large `bound1` and weak for 1 and 2), so the unique count and
//! the classes come out of the *fastest* total for free:
//!
//! - **Corner**: a queen in the top-left corner. No such solution is fixed by
//!   any symmetry (a half turn would need the opposite corner, on the same
//!   diagonal), so each has an orbit of 8. Row 0 takes column 0, row 1 takes
//!   column `bound1` in `2..=n-2`, and the diagonal reflection is cut by
//!   keeping column 1 out of rows `2..bound1`. Once past row `bound1` there is
//!   no constraint left, and the subtree goes to the plain
//!   [kernel](crate::bitmask::count_subtree).
//! - **Side**: no corner queen; row 0 takes column `bound1` in the left half.
//!   Rows above `bound1` keep off the side columns, row `bound2 = n-1-bound1`
//!   must complete the side columns, and the last row keeps `bound1` columns
//!   off each edge: together these prune most non-canonical boards, and
//!   [`classify`] compares each remaining board with its rotations, keeping it
//!   only if it is the smallest of its orbit and telling the orbit's size.
//!
//! The class sizes: 8 (no symmetry), 4 (fixed by the half turn only), 2
//! (fixed by the quarter turn), and 1 (the lone queen of the 1×1 board).
//! No solution with n ≥ 2 is fixed by a reflection.

use serde::Serialize;

use crate::bitmask::{full_mask, State};
use crate::MAX_N;

/// Solutions counted once per orbit, split by orbit size.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Classes {
    /// Orbits of 8 solutions: no symmetry.
    pub orbit8: u64,
    /// Orbits of 4: symmetric under the half turn only.
    pub orbit4: u64,
    /// Orbits of 2: symmetric under the quarter turn.
    pub orbit2: u64,
    /// Orbits of 1: the 1×1 board.
    pub orbit1: u64,
}

impl Classes {
    /// Solutions distinct up to rotation and reflection (A002562).
    pub fn unique(&self) -> u64 {
        // No larger than the total, which the engine has checked fits.
        self.orbit8
            .saturating_add(self.orbit4)
            .saturating_add(self.orbit2)
            .saturating_add(self.orbit1)
    }

    /// All solutions: each orbit counted with its size, in `u128`.
    pub fn total(&self) -> u128 {
        8 * u128::from(self.orbit8)
            + 4 * u128::from(self.orbit4)
            + 2 * u128::from(self.orbit2)
            + u128::from(self.orbit1)
    }

    /// Adds another tally. Sums saturate rather than wrap: a saturated class
    /// makes [`Classes::total`] exceed `u64::MAX`, which the engine reports
    /// as an overflow.
    pub fn add(&mut self, other: Classes) {
        self.orbit8 = self.orbit8.saturating_add(other.orbit8);
        self.orbit4 = self.orbit4.saturating_add(other.orbit4);
        self.orbit2 = self.orbit2.saturating_add(other.orbit2);
        self.orbit1 = self.orbit1.saturating_add(other.orbit1);
    }
}

/// Where the first queens of a full-symmetry subproblem stand, and what that
/// implies for the rows below.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Branch {
    /// Row 0 in column 0, row 1 in column `bound1`.
    Corner {
        /// Row 1's column, in `2..=n-2`.
        bound1: u8,
    },
    /// Row 0 in column `bound1`, no corner queen; `placed` holds the one-hot
    /// row masks of the rows placed so far, which [`classify`] needs.
    Side {
        /// Row 0's column, in `1..` while `bound1 < n - 1 - bound1`.
        bound1: u8,
        /// One bit per placed row (bits of rows not yet placed are 0).
        placed: [u32; MAX_N],
    },
}

/// How many bottom rows of the side branch are unrolled into nested loops.
pub const SIDE_TAIL_ROWS: usize = 11;

/// Defines `Side::$name::<B1>`, filling the bottom `$k` rows by placing one
/// queen and handing the remaining rows to `$next`.
macro_rules! side_rows {
    ($name:ident, $next:ident, $k:expr) => {
        #[inline(always)]
        fn $name<const B1: usize>(
            &self,
            state: State,
            board: &mut [u32; MAX_N],
            classes: &mut Classes,
        ) {
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

/// The rules of the side branch for one board size and first-row column.
#[derive(Clone, Copy, Debug)]
pub struct Side {
    full: u32,
    bound1: usize,
    bound2: usize,
    last: usize,
    /// The two side columns.
    side_mask: u32,
    /// The columns each row may take before attacks: rows above `bound1`
    /// keep off the side columns, the last row keeps `bound1` columns off
    /// each edge.
    allowed: [u32; MAX_N],
    /// Where the last row's queen must stand for the board to be able to
    /// equal its half turn.
    end_bit: u32,
}

impl Side {
    /// The side branch with row 0 in column `bound1`.
    pub fn new(n: usize, bound1: usize) -> Side {
        debug_assert!(bound1 >= 1 && bound1 < n - 1 - bound1);
        let full = full_mask(n);
        let side_mask = 1 | 1 << (n - 1);
        let edges = full_mask(bound1) | full_mask(bound1) << (n - bound1);
        let mut allowed = [full; MAX_N];
        for row_mask in &mut allowed[..bound1] {
            *row_mask &= !side_mask;
        }
        allowed[n - 1] &= !edges;
        Side {
            full,
            bound1,
            bound2: n - 1 - bound1,
            last: n - 1,
            side_mask,
            allowed,
            end_bit: 1 << (n - 1 - bound1),
        }
    }

    /// The columns row `row` may take below `state`, under the side rules.
    #[inline(always)]
    pub fn candidates(&self, row: usize, state: State) -> u32 {
        let free = state.free(self.full) & self.allowed[row % MAX_N];
        if row == self.bound2 {
            self.complete_sides(state, free)
        } else {
            free
        }
    }

    /// Row `bound2`'s rule: by this row both side columns must be taken; if
    /// neither is, nothing fits; if one is, this row takes the other.
    #[inline(always)]
    fn complete_sides(&self, state: State, free: u32) -> u32 {
        let missing = self.side_mask & !state.cols;
        if missing == self.side_mask {
            0
        } else if missing != 0 {
            free & missing
        } else {
            free
        }
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
        let rows_left = self.last + 1 - row;
        match rows_left {
            0 => self.classify_into(board, classes),
            1 => self.rows_1::<0>(state, board, classes),
            2 => self.rows_2::<0>(state, board, classes),
            3 => self.rows_3::<0>(state, board, classes),
            4 => self.rows_4::<0>(state, board, classes),
            5 => self.rows_5::<0>(state, board, classes),
            6 => self.rows_6::<0>(state, board, classes),
            7 => self.rows_7::<0>(state, board, classes),
            8 => self.rows_8::<0>(state, board, classes),
            9 => self.rows_9::<0>(state, board, classes),
            10 => self.rows_10::<0>(state, board, classes),
            SIDE_TAIL_ROWS => self.tail(state, board, classes),
            _ => self.upper(row, state, board, classes),
        }
    }

    /// Rows above the tail: plain recursion.
    fn upper(&self, row: usize, state: State, board: &mut [u32; MAX_N], classes: &mut Classes) {
        let mut candidates = self.candidates(row, state);
        while candidates != 0 {
            let bit = candidates & candidates.wrapping_neg(); // the lowest candidate
            candidates ^= bit;
            board[row % MAX_N] = bit;
            let child = state.place(bit);
            if self.last - row == SIDE_TAIL_ROWS {
                self.tail(child, board, classes);
            } else {
                self.upper(row + 1, child, board, classes);
            }
        }
    }

    /// The bottom [`SIDE_TAIL_ROWS`] rows. Where none of them lies above
    /// `bound1`, the loops are compiled once per `bound1`, so that which of
    /// them is row `bound2` is known at compile time and the other rows test
    /// nothing but the attacks.
    fn tail(&self, state: State, board: &mut [u32; MAX_N], classes: &mut Classes) {
        if self.last + 1 - SIDE_TAIL_ROWS < self.bound1 {
            return self.tail_for::<0>(state, board, classes);
        }
        match self.bound1 {
            1 => self.tail_for::<1>(state, board, classes),
            2 => self.tail_for::<2>(state, board, classes),
            3 => self.tail_for::<3>(state, board, classes),
            4 => self.tail_for::<4>(state, board, classes),
            5 => self.tail_for::<5>(state, board, classes),
            6 => self.tail_for::<6>(state, board, classes),
            7 => self.tail_for::<7>(state, board, classes),
            8 => self.tail_for::<8>(state, board, classes),
            _ => self.tail_for::<0>(state, board, classes),
        }
    }

    /// The bottom rows as nested loops, out of line; `B1` is `bound1`, or 0
    /// for the general rules.
    #[inline(never)]
    fn tail_for<const B1: usize>(
        &self,
        state: State,
        board: &mut [u32; MAX_N],
        classes: &mut Classes,
    ) {
        self.rows_11::<B1>(state, board, classes)
    }

    /// The candidates of the row `K` rows from the bottom. With `B1` = 0 the
    /// general [`Side::candidates`]; otherwise `B1` is `bound1` and no row of
    /// the tail lies above it, so only the last row and row `bound2` (the row
    /// `B1 + 1` from the bottom) have a rule.
    #[inline(always)]
    fn tail_candidates<const B1: usize, const K: usize>(&self, state: State) -> u32 {
        if B1 == 0 {
            return self.candidates(self.last + 1 - K, state);
        }
        debug_assert_eq!(B1, self.bound1);
        let free = state.free(self.full);
        if K == 1 {
            free & self.allowed[self.last % MAX_N]
        } else if K == B1 + 1 {
            self.complete_sides(state, free)
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

    /// The last two rows: exactly two columns `a < b` remain, so the rows
    /// take them as (a, b) or (b, a). Both orders are tested without a
    /// branch, and the board is written only for a completion, which is rare.
    #[inline(always)]
    fn rows_2<const B1: usize>(
        &self,
        state: State,
        board: &mut [u32; MAX_N],
        classes: &mut Classes,
    ) {
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

    /// Adds a complete board to its class, if it is its orbit's canonical one.
    #[inline(always)]
    fn classify_into(&self, board: &[u32; MAX_N], classes: &mut Classes) {
        let top = 1 << self.last;
        // Most boards can equal none of their rotations: the first row of
        // each rotation differs from theirs. Those are canonical orbits of 8.
        if board[self.bound2 % MAX_N] != 1
            && board[self.last % MAX_N] != self.end_bit
            && board[self.bound1 % MAX_N] != top
        {
            classes.orbit8 += 1;
            return;
        }
        match classify(&board[..=self.last], self.bound1, self.bound2) {
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
        return crate::bitmask::count_subtree(n, state);
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

/// Classifies every solution by listing it and its 8 images: quadratic in the
/// number of solutions' size and slow, but obviously right. The oracle for the
/// corner / side search, and the answer for boards too small for it.
pub fn classify_by_enumeration(n: usize) -> Classes {
    let mut classes = Classes::default();
    for solution in crate::solutions::Solutions::new(n) {
        let columns = solution.columns();
        let images = images(columns);
        if images.iter().all(|image| columns <= image.as_slice()) {
            let mut distinct = images.clone();
            distinct.sort();
            distinct.dedup();
            match distinct.len() {
                8 => classes.orbit8 += 1,
                4 => classes.orbit4 += 1,
                2 => classes.orbit2 += 1,
                1 => classes.orbit1 += 1,
                other => unreachable!("an orbit of {other} under the dihedral group"),
            }
        }
    }
    classes
}

/// The 8 images of a placement under the symmetries of the square.
fn images(columns: &[u8]) -> Vec<Vec<u8>> {
    let n = columns.len();
    // A quarter turn takes the queen at (r, c) to (c, n-1-r).
    let rotate = |cols: &[u8]| {
        let mut turned = vec![0u8; n];
        for (r, &c) in cols.iter().enumerate() {
            turned[usize::from(c)] = (n - 1 - r) as u8;
        }
        turned
    };
    let reflect = |cols: &[u8]| cols.iter().map(|&c| (n - 1) as u8 - c).collect::<Vec<u8>>();
    let mut out = Vec::with_capacity(8);
    let mut current = columns.to_vec();
    for _ in 0..4 {
        out.push(reflect(&current));
        let next = rotate(&current);
        out.push(current);
        current = next;
    }
    out
}
