//! A solution as the column of the queen in each row, its validity check and
//! its renderings.

use std::fmt;

use crate::problem::MAX_N;

/// One placement of n queens, one per row: `columns()[r]` is the column of the
/// queen in row `r` (0-based, column 0 on the left).
///
/// Fixed-size and `Copy`, so that streaming solutions allocates nothing.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Solution {
    len: u8,
    columns: [u8; MAX_N],
}

impl Solution {
    /// A placement from its column vector.
    ///
    /// # Panics
    /// If there are more than [`MAX_N`] rows or a column is not below the
    /// number of rows. Any column vector in range is accepted, valid or not:
    /// see [`Solution::is_valid`].
    pub fn from_columns(columns: &[u8]) -> Solution {
        let n = columns.len();
        assert!(n <= MAX_N, "a board has at most {MAX_N} rows, got {n}");
        assert!(
            columns.iter().all(|&c| usize::from(c) < n),
            "every column must be below {n}: {columns:?}"
        );
        let mut fixed = [0; MAX_N];
        fixed[..n].copy_from_slice(columns);
        Solution {
            len: n as u8,
            columns: fixed,
        }
    }

    /// The board size n.
    pub fn n(&self) -> usize {
        usize::from(self.len)
    }

    /// The column of the queen in each row.
    pub fn columns(&self) -> &[u8] {
        &self.columns[..self.n()]
    }

    /// Whether no two queens share a column or a diagonal (rows are distinct
    /// by construction). Quadratic and obvious, for checking the solvers.
    pub fn is_valid(&self) -> bool {
        let cols = self.columns();
        (0..cols.len()).all(|r1| {
            (r1 + 1..cols.len()).all(|r2| {
                let (c1, c2) = (i64::from(cols[r1]), i64::from(cols[r2]));
                c1 != c2 && (c1 - c2).abs() != (r2 - r1) as i64
            })
        })
    }

    /// The classic picture: one line per row, `Q` for the queen and `.` for an
    /// empty square, rows separated by `\n` (no trailing newline).
    pub fn board(&self) -> impl fmt::Display + '_ {
        BoardPicture(self)
    }
}

impl fmt::Debug for Solution {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Solution{:?}", self.columns())
    }
}

/// Columns separated by single spaces, e.g. `1 3 0 2`.
impl fmt::Display for Solution {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, c) in self.columns().iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{c}")?;
        }
        Ok(())
    }
}

struct BoardPicture<'a>(&'a Solution);

impl fmt::Display for BoardPicture<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.0.n();
        let mut line = [b'.'; MAX_N];
        for (r, &c) in self.0.columns().iter().enumerate() {
            if r > 0 {
                f.write_str("\n")?;
            }
            line[usize::from(c)] = b'Q';
            // The line holds only ASCII '.' and 'Q'.
            f.write_str(std::str::from_utf8(&line[..n]).expect("ASCII"))?;
            line[usize::from(c)] = b'.';
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_the_first_four_queens_solution_as_rows_of_dots_and_q() {
        let s = Solution::from_columns(&[1, 3, 0, 2]);
        assert_eq!(s.board().to_string(), ".Q..\n...Q\nQ...\n..Q.");
        assert_eq!(s.to_string(), "1 3 0 2");
    }

    #[test]
    fn validity_rejects_shared_columns_and_diagonals() {
        assert!(Solution::from_columns(&[1, 3, 0, 2]).is_valid());
        assert!(Solution::from_columns(&[0]).is_valid());
        assert!(!Solution::from_columns(&[0, 0]).is_valid(), "column");
        assert!(!Solution::from_columns(&[0, 1]).is_valid(), "diagonal");
        assert!(
            !Solution::from_columns(&[2, 0, 1]).is_valid(),
            "anti-diagonal"
        );
        assert!(!Solution::from_columns(&[0, 2, 3, 1]).is_valid());
    }

    #[test]
    #[should_panic(expected = "every column must be below")]
    fn from_columns_rejects_a_column_off_the_board() {
        Solution::from_columns(&[0, 2]);
    }
}
