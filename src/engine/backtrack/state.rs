//! A partial placement as three bit masks, seen from the next empty row: the
//! one representation the plan, the symmetry branches and every kernel share.

use crate::problem::MAX_N;

/// A partial placement, seen from the next empty row.
///
/// Bits above `n` are ignored by [`State::free`]; diagonals may carry them
/// and lose them off the end of the word, which is harmless.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct State {
    /// Columns that hold a queen.
    pub cols: u32,
    /// Squares of the next row attacked along diagonals running toward higher
    /// columns (shifted left once per row).
    pub diag_up: u32,
    /// Squares of the next row attacked along diagonals running toward lower
    /// columns (shifted right once per row).
    pub diag_down: u32,
}

impl State {
    /// The empty board.
    pub const EMPTY: State = State {
        cols: 0,
        diag_up: 0,
        diag_down: 0,
    };

    /// The free columns of the next row, within `full` (the n low bits).
    #[inline(always)]
    pub fn free(self, full: u32) -> u32 {
        full & !(self.cols | self.diag_up | self.diag_down)
    }

    /// The state after a queen goes on the next row at the single-bit column
    /// `bit`.
    #[inline(always)]
    pub fn place(self, bit: u32) -> State {
        debug_assert_eq!(bit.count_ones(), 1);
        State {
            cols: self.cols | bit,
            diag_up: (self.diag_up | bit) << 1,
            diag_down: (self.diag_down | bit) >> 1,
        }
    }

    /// How many rows hold a queen.
    pub fn rows_placed(self) -> usize {
        self.cols.count_ones() as usize
    }
}

/// The mask of the n columns of an n×n board.
pub fn full_mask(n: usize) -> u32 {
    debug_assert!(n <= MAX_N);
    if n == 0 {
        0
    } else {
        u32::MAX >> (MAX_N - n)
    }
}

/// The columns of the queens placed so far, five bits a row, twenty bytes
/// for the 32 rows of the largest board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Placed([u32; 5]);

impl Placed {
    /// The placement with row `row`'s queen added at the one-bit column
    /// `bit` (the row must be empty).
    #[inline]
    pub fn with(self, row: usize, bit: u32) -> Placed {
        debug_assert_eq!(bit.count_ones(), 1);
        debug_assert_eq!(self.column(row), 0);
        let (word, shift) = (5 * row / 32, 5 * row % 32);
        let value = u64::from(bit.trailing_zeros()) << shift;
        let mut words = self.0;
        words[word] |= value as u32;
        if let Some(next) = words.get_mut(word + 1) {
            *next |= (value >> 32) as u32;
        }
        Placed(words)
    }

    /// The column of row `row`'s queen (0 for a row not placed).
    #[inline]
    pub fn column(&self, row: usize) -> u32 {
        let (word, shift) = (5 * row / 32, 5 * row % 32);
        let low = u64::from(self.0[word]);
        let high = u64::from(self.0.get(word + 1).copied().unwrap_or(0));
        ((low | high << 32) >> shift) as u32 & 31
    }
}

/// What the completions of a run of subproblems are worth; subproblems of
/// one family share their row rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Family {
    /// Each completion stands for this many solutions (symmetry none or
    /// mirror).
    Weighted(u64),
    /// The corner branch: row 0 in column 0, row 1 in column `bound1`
    /// (`2..=n-2`); completions are orbits of 8.
    Corner {
        /// Row 1's column.
        bound1: u8,
    },
    /// The side branch, searched a quarter turn round (see
    /// [`Side`](super::symmetry::Side)): the queen of column 0 stands in row
    /// `n - 1 - bound1`; completions are classified by orbit.
    Side {
        /// The first queen's distance from the corner, in Takaken's
        /// orientation.
        bound1: u8,
    },
    /// The 1×1 board under full symmetry: its one solution is an orbit of 1.
    Single,
}

/// One independent piece of the search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Subproblem {
    /// The attacks of the queens placed so far.
    pub state: State,
    /// How its completions are counted.
    pub family: Family,
    /// The next row to fill.
    pub row: usize,
    /// The queens placed so far (the side branch's classification needs the
    /// board; the side branch's column-0 queen is not in it).
    pub placed: Placed,
}

impl Subproblem {
    /// The subproblem's weight if it is [`Family::Weighted`].
    pub fn weight(&self) -> Option<u64> {
        match self.family {
            Family::Weighted(weight) => Some(weight),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn full_mask_has_n_low_bits() {
        assert_eq!(full_mask(0), 0);
        assert_eq!(full_mask(1), 1);
        assert_eq!(full_mask(8), 0xff);
        assert_eq!(full_mask(32), u32::MAX);
    }
}
