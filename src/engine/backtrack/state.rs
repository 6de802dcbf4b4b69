//! A partial placement as three bit masks, seen from the next empty row: the
//! one representation the plan, the symmetry branches and every kernel share.

use crate::MAX_N;

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
