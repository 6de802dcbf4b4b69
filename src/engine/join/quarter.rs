//! The quarter table: every non-attacking placement of 0..=h queens in an
//! h×h square (at most one per row and per column), grouped into cells by
//! (row set, column set). The four quarters of a 2h×2h board are
//! translations of the same square, so one table serves all four.
//!
//! An entry is its two diagonal masks in the square's own coordinates: the
//! rising diagonals `r + c` and the falling ones `r - c + h - 1`, each in
//! `0..2h-1`. Placed at row `r0`, column `c0` of the board, they shift by
//! `r0 + c0` and `r0 - c0 + n - h` (see [`Quarter::place`]).

/// The diagonals of one placement in the square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Quarter {
    /// Bit `r + c` for each queen.
    pub sum: u32,
    /// Bit `r - c + h - 1` for each queen.
    pub diff: u32,
}

impl Quarter {
    /// The placement's diagonals on the n×n board (n = 2h or 2h + 1), with
    /// the square's corner at row `r0`, column `c0` (each 0 or n - h): bit
    /// `r + c` of the board's rising diagonals, bit `r - c + n - 1` of its
    /// falling ones.
    pub fn place(self, n: usize, h: usize, r0: usize, c0: usize) -> (u64, u64) {
        let sum = u64::from(self.sum) << (r0 + c0);
        let diff = u64::from(self.diff) << (r0 + n - h - c0);
        (sum, diff)
    }
}

/// Every placement of the h×h square, by cell.
#[derive(Clone, Debug)]
pub struct QuarterTable {
    h: usize,
    /// `starts[cell]..starts[cell + 1]` are the cell's entries, the cell
    /// being `rows << h | columns`.
    starts: Vec<u32>,
    entries: Vec<Quarter>,
}

impl QuarterTable {
    /// The table of the h×h square (1 <= h <= 12).
    pub fn new(h: usize) -> QuarterTable {
        assert!((1..=12).contains(&h), "quarter side {h}");
        let cells = 1usize << (2 * h);
        // Two walks: one to size each cell, one to fill it.
        let mut sizes = vec![0u32; cells];
        walk(h, 0, 0, 0, Quarter { sum: 0, diff: 0 }, &mut |cell, _| {
            sizes[cell] += 1
        });
        let mut starts = Vec::with_capacity(cells + 1);
        let mut total = 0u32;
        starts.push(0);
        for size in &sizes {
            total += size;
            starts.push(total);
        }
        let mut next: Vec<u32> = starts[..cells].to_vec();
        let mut entries = vec![Quarter { sum: 0, diff: 0 }; total as usize];
        walk(
            h,
            0,
            0,
            0,
            Quarter { sum: 0, diff: 0 },
            &mut |cell, quarter| {
                entries[next[cell] as usize] = quarter;
                next[cell] += 1;
            },
        );
        QuarterTable { h, starts, entries }
    }

    /// The square's side.
    pub fn side(&self) -> usize {
        self.h
    }

    /// The placements with queens on exactly the rows `rows` and the
    /// columns `columns` (bit sets of the square).
    pub fn cell(&self, rows: u32, columns: u32) -> &[Quarter] {
        let cell = (rows as usize) << self.h | columns as usize;
        &self.entries[self.starts[cell] as usize..self.starts[cell + 1] as usize]
    }

    /// How many placements the table holds.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the table is empty (it never is: the empty placement).
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The bytes the table takes.
    pub fn bytes(&self) -> usize {
        self.entries.len() * std::mem::size_of::<Quarter>() + self.starts.len() * 4
    }
}

/// Visits every placement of rows `row..h` below `quarter` (rows and
/// columns used so far as bit sets).
fn walk(
    h: usize,
    row: usize,
    rows: u32,
    columns: u32,
    quarter: Quarter,
    visit: &mut impl FnMut(usize, Quarter),
) {
    if row == h {
        visit((rows as usize) << h | columns as usize, quarter);
        return;
    }
    // The row stays empty...
    walk(h, row + 1, rows, columns, quarter, visit);
    // ...or takes a queen in a free column on free diagonals.
    for column in 0..h {
        let (sum, diff) = (1 << (row + column), 1 << (row + h - 1 - column));
        if columns & 1 << column == 0 && quarter.sum & sum == 0 && quarter.diff & diff == 0 {
            let placed = Quarter {
                sum: quarter.sum | sum,
                diff: quarter.diff | diff,
            };
            walk(
                h,
                row + 1,
                rows | 1 << row,
                columns | 1 << column,
                placed,
                visit,
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn full_cells_hold_the_solutions_of_the_square() {
        // The cell with every row and column holds the h-queens solutions.
        for (h, solutions) in [(4, 2), (5, 10), (6, 4), (8, 92)] {
            let table = QuarterTable::new(h);
            let all = (1u32 << h) - 1;
            assert_eq!(table.cell(all, all).len(), solutions, "h = {h}");
            assert_eq!(table.cell(0, 0).len(), 1, "the empty placement");
        }
    }

    #[test]
    fn one_queen_cells_hold_one_placement_each() {
        let table = QuarterTable::new(5);
        for r in 0..5 {
            for c in 0..5 {
                assert_eq!(table.cell(1 << r, 1 << c).len(), 1);
            }
        }
        assert_eq!(
            table.cell(0b11, 0b1).len(),
            0,
            "rows and columns differ in number"
        );
    }
}
