//! Streaming every solution, in lexicographic order of the column vectors.
//!
//! The bitmask search on an explicit stack, paused at each complete board:
//! memory stays at a few hundred bytes however many solutions there are, and
//! each item is a `Copy` [`Solution`].

use crate::board::Solution;
use crate::engine::backtrack::state::{full_mask, State};
use crate::problem::MAX_N;

/// An iterator over the solutions of an n×n board; see [`crate::solutions`].
#[derive(Clone, Debug)]
pub struct Solutions {
    n: usize,
    full: u32,
    /// The state before each row is filled.
    states: [State; MAX_N],
    /// For each row, the free columns not tried yet.
    untried: [u32; MAX_N],
    columns: [u8; MAX_N],
    /// The row being filled, or `None` once the search is over.
    row: Option<usize>,
}

impl Solutions {
    pub(crate) fn new(n: usize) -> Solutions {
        debug_assert!((1..=MAX_N).contains(&n));
        let full = full_mask(n);
        let mut untried = [0; MAX_N];
        untried[0] = full;
        Solutions {
            n,
            full,
            states: [State::EMPTY; MAX_N],
            untried,
            columns: [0; MAX_N],
            row: Some(0),
        }
    }
}

impl Iterator for Solutions {
    type Item = Solution;

    fn next(&mut self) -> Option<Solution> {
        let mut row = self.row?;
        loop {
            let free = self.untried[row];
            if free == 0 {
                if row == 0 {
                    self.row = None;
                    return None;
                }
                row -= 1;
                continue;
            }
            let bit = free & free.wrapping_neg(); // the lowest untried column
            self.untried[row] = free ^ bit;
            self.columns[row] = bit.trailing_zeros() as u8;
            if row + 1 == self.n {
                self.row = Some(row);
                return Some(Solution::from_columns(&self.columns[..self.n]));
            }
            let child = self.states[row].place(bit);
            row += 1;
            self.states[row] = child;
            self.untried[row] = child.free(self.full);
        }
    }
}

impl std::iter::FusedIterator for Solutions {}

#[cfg(test)]
mod tests {
    use crate::solutions;

    #[test]
    fn lists_the_two_four_queens_solutions_in_order() {
        let all: Vec<Vec<u8>> = solutions(4)
            .unwrap()
            .map(|s| s.columns().to_vec())
            .collect();
        assert_eq!(all, vec![vec![1, 3, 0, 2], vec![2, 0, 3, 1]]);
    }

    #[test]
    fn stays_finished_after_the_last_solution() {
        let mut it = solutions(3).unwrap();
        assert_eq!(it.next(), None);
        assert_eq!(it.next(), None);
        let mut it = solutions(1).unwrap();
        assert_eq!(it.next().map(|s| s.columns().to_vec()), Some(vec![0]));
        assert_eq!(it.next(), None);
    }
}
