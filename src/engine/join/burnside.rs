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

/// The solutions of the n×n board fixed by the half turn, by the quarter
/// turn, and by every symmetry (n = 1 only).
pub fn fixed(n: usize) -> Fixed {
    Fixed {
        half_turn: count_fixed(n, 2),
        quarter_turn: count_fixed(n, 1),
        every: u64::from(n == 1),
    }
}

/// The solutions fixed by the rotation by `step` quarter turns (1 or 2).
fn count_fixed(n: usize, step: usize) -> u64 {
    assert!((1..=crate::problem::MAX_N).contains(&n));
    let mut search = Search {
        n,
        step,
        rows: 0,
        columns: 0,
        sums: 0,
        diffs: 0,
    };
    search.count()
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
    fn count(&mut self) -> u64 {
        let full = (1u64 << self.n) - 1;
        if self.rows == full {
            return 1;
        }
        let row = (!self.rows).trailing_zeros() as usize;
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
}
