//! Board-scan backtracking: the oldest formulation.
//!
//! An n×n board of booleans; before a queen goes on a square, the column above
//! it and both upper diagonals are scanned for another queen (rows below are
//! still empty). Each test costs O(n), so the search is O(n) slower per node
//! than the set or bitmask versions: the baseline everything else beats.

/// Counts the solutions on an n×n board.
pub fn count(n: usize) -> u64 {
    let mut board = Board::new(n);
    place_row(&mut board, 0)
}

struct Board {
    n: usize,
    queens: Vec<bool>,
}

impl Board {
    fn new(n: usize) -> Board {
        Board {
            n,
            queens: vec![false; n * n],
        }
    }

    fn has_queen(&self, row: usize, col: usize) -> bool {
        self.queens[row * self.n + col]
    }

    fn set(&mut self, row: usize, col: usize, queen: bool) {
        self.queens[row * self.n + col] = queen;
    }

    /// Whether a queen at (row, col) is attacked by one in the rows above.
    fn is_attacked(&self, row: usize, col: usize) -> bool {
        (1..=row).any(|up| {
            let r = row - up;
            self.has_queen(r, col)
                || (col >= up && self.has_queen(r, col - up))
                || (col + up < self.n && self.has_queen(r, col + up))
        })
    }
}

fn place_row(board: &mut Board, row: usize) -> u64 {
    if row == board.n {
        return 1;
    }
    let mut count = 0;
    for col in 0..board.n {
        if board.is_attacked(row, col) {
            continue;
        }
        board.set(row, col, true);
        count = u64::saturating_add(count, place_row(board, row + 1));
        board.set(row, col, false);
    }
    count
}
