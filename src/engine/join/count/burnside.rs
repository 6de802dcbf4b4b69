//! The solutions the rotations of the square fix, by searches of their own:
//! with the join's total they give the unique solutions and the classes
//! ([`Classes::by_burnside`](crate::Classes::by_burnside)).
//!
//! A solution the half turn fixes is known from its northern rows: every
//! queen (r, c) brings its image (n-1-r, n-1-c). One the quarter turn fixes
//! brings the whole orbit (r, c), (c, n-1-r), (n-1-r, n-1-c), (n-1-c, r).
//! The search fills the first empty row with a queen and its images, and
//! goes on with the next empty row: about n/2 (half turn) or n/4 (quarter
//! turn) levels instead of n, so it costs next to nothing beside the total.

use crate::reduce::Fixed;

/// How many work items the searches are cut into: for each rotation (the
/// half turn, then the quarter turn), one per column of the first row's
/// queen. Whole, they were the largest item at every n (7% of n = 16,
/// 1.75% of n = 18); so cut, the largest is 6 ms of 79 ms at n = 18 (2-core
/// Intel Xeon VM). Cut by the first two rows' columns too (2n² items) the
/// largest was 0.75 ms, but the forecast, which times a sample of items
/// spread over their order, then drew a few of hundreds of items whose
/// times range from nothing to the largest, and forecast 2.2 s ± 50% for a
/// count of 1.5 s (1.4 s ± 7% before): 2n items keep them inside the
/// forecast's first stratum.
pub fn items(n: usize) -> usize {
    2 * n
}

/// Which search fixed-point item `item` (below [`items`]) is: whether it
/// is the half turn's (the first n) or the quarter turn's, and the column
/// of its first row's queen.
pub fn search_of(n: usize, item: usize) -> (bool, usize) {
    (item < n, item % n)
}

/// What fixed-point item `item` (below [`items`]) finds: its rotation's
/// solutions whose first row's queen stands in its column ([`search_of`]).
/// Item 0 also counts the solution every symmetry fixes (n = 1).
pub fn fixed_item(n: usize, item: usize) -> Fixed {
    assert!(item < items(n), "fixed-point item {item} of {}", items(n));
    let (half_turn, column) = search_of(n, item);
    let found = Search::new(n, if half_turn { 2 } else { 1 }).count_from(column);
    Fixed {
        half_turn: if half_turn { found } else { 0 },
        quarter_turn: if half_turn { 0 } else { found },
        every: u64::from(n == 1 && item == 0),
    }
}

/// The solutions of the n×n board fixed by the half turn, by the quarter
/// turn, and by every symmetry (n = 1 only), in one search each: what the
/// items add up to.
#[cfg(test)]
pub fn fixed(n: usize) -> Fixed {
    Fixed {
        half_turn: Search::new(n, 2).count(),
        quarter_turn: Search::new(n, 1).count(),
        every: u64::from(n == 1),
    }
}

/// A board being filled an orbit at a time.
struct Search {
    n: usize,
    step: usize,
    rows: u64,
    columns: u64,
    sums: u64,
    diffs: u64,
}

impl Search {
    /// An empty board, to be filled by the rotation by `step` quarter
    /// turns (1 or 2).
    fn new(n: usize, step: usize) -> Search {
        assert!((1..=crate::problem::MAX_N).contains(&n));
        Search {
            n,
            step,
            rows: 0,
            columns: 0,
            sums: 0,
            diffs: 0,
        }
    }

    fn full(&self) -> bool {
        self.rows == (1u64 << self.n) - 1
    }

    /// The first empty row.
    fn next_row(&self) -> usize {
        (!self.rows).trailing_zeros() as usize
    }

    /// The solutions with the first row's queen in column `column`.
    fn count_from(&mut self, column: usize) -> u64 {
        if !self.place_orbit(0, column) {
            return 0;
        }
        self.count()
    }

    fn count(&mut self) -> u64 {
        if self.full() {
            return 1;
        }
        let row = self.next_row();
        let mut total = 0;
        for column in 0..self.n {
            let saved = (self.rows, self.columns, self.sums, self.diffs);
            if self.place_orbit(row, column) {
                total += self.count();
            }
            (self.rows, self.columns, self.sums, self.diffs) = saved;
        }
        total
    }

    /// Places the queen (row, column) and its images under the rotation;
    /// false if any of them attacks another or one placed before.
    fn place_orbit(&mut self, row: usize, column: usize) -> bool {
        let n = self.n;
        let (mut r, mut c) = (row, column);
        loop {
            if !self.place(r, c) {
                return false;
            }
            // Rotated by `step` quarter turns: (r, c) -> (c, n-1-r).
            for _ in 0..self.step {
                (r, c) = (c, n - 1 - r);
            }
            if (r, c) == (row, column) {
                return true;
            }
        }
    }

    fn place(&mut self, r: usize, c: usize) -> bool {
        let (row, column) = (1u64 << r, 1u64 << c);
        let (sum, diff) = (1u64 << (r + c), 1u64 << (r + self.n - 1 - c));
        if self.rows & row != 0
            || self.columns & column != 0
            || self.sums & sum != 0
            || self.diffs & diff != 0
        {
            return false;
        }
        self.rows |= row;
        self.columns |= column;
        self.sums |= sum;
        self.diffs |= diff;
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A solution turned by a quarter turn: the queen of row r moves to
    /// row c, column n - 1 - r.
    fn turned(columns: &[u8]) -> Vec<u8> {
        let n = columns.len();
        let mut out = vec![0; n];
        for (r, &c) in columns.iter().enumerate() {
            out[usize::from(c)] = (n - 1 - r) as u8;
        }
        out
    }

    #[test]
    fn the_searches_find_what_turning_every_solution_finds() {
        for n in 1..=10 {
            let mut want = Fixed {
                every: u64::from(n == 1),
                ..Fixed::default()
            };
            for solution in crate::solutions(n).unwrap() {
                let once = turned(solution.columns());
                let twice = turned(&once);
                want.half_turn += u64::from(twice == solution.columns());
                want.quarter_turn += u64::from(once == solution.columns());
            }
            assert_eq!(fixed(n), want, "n = {n}");
        }
    }

    #[test]
    fn the_items_add_up_to_the_whole_searches() {
        for n in 1..=14 {
            let mut sum = Fixed::default();
            for item in 0..items(n) {
                sum.add(fixed_item(n, item));
            }
            assert_eq!(sum, fixed(n), "n = {n}");
        }
    }
}
