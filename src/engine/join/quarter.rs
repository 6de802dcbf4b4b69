//! The quarter table: every non-attacking placement of queens in an h×w
//! rectangle (h rows, w columns, at most one queen per row and per column),
//! grouped into cells by (row set, column set). The four quarters of a
//! 2h×2h board (and of a (2h+1)×(2h+1) one, the middle row and column
//! apart) are translations of the same h×h square, so one table serves all
//! four. Rectangles other than squares are built and tested but not joined
//! today (a frame per middle-row queen, with the middle column in h×(h+1)
//! west quarters, glued 1.6× the halves of the (Q1, Q2) frames at n = 17).
//!
//! An entry is its two diagonal masks in the rectangle's own coordinates:
//! the rising diagonals `r + c` and the falling ones `r - c + w - 1`, each
//! in `0..h+w-1`. Placed at row `r0`, column `c0` of the board, they shift
//! by `r0 + c0` and `r0 - c0 + n - w` (see [`Quarter::place`]).

/// The diagonals of one placement in the square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Quarter {
    /// Bit `r + c` for each queen.
    pub sum: u32,
    /// Bit `r - c + h - 1` for each queen.
    pub diff: u32,
}

impl Quarter {
    /// The placement's diagonals on the n×n board, for a rectangle `w`
    /// columns wide with its corner at row `r0`, column `c0`: bit `r + c`
    /// of the board's rising diagonals, bit `r - c + n - 1` of its falling
    /// ones.
    pub fn place(self, n: usize, w: usize, r0: usize, c0: usize) -> (u64, u64) {
        let sum = u64::from(self.sum) << (r0 + c0);
        let diff = u64::from(self.diff) << (r0 + n - w - c0);
        (sum, diff)
    }
}

/// Every placement of the h×w rectangle, by cell.
#[derive(Clone, Debug)]
pub struct QuarterTable {
    /// The rectangle's width: cells are indexed by columns in its low bits.
    w: usize,
    /// `starts[cell]..starts[cell + 1]` are the cell's entries, the cell
    /// being `rows << w | columns`.
    starts: Vec<u32>,
    entries: Vec<Quarter>,
}

/// How many placements each cell of the h×w rectangle's table holds:
/// the table's size, known before it is allocated.
#[derive(Clone, Debug)]
pub struct CellSizes {
    h: usize,
    w: usize,
    sizes: Vec<u32>,
}

impl CellSizes {
    /// The sizes for the h×w rectangle (1 <= h, w <= 13), by one walk
    /// over its placements that stores none of them.
    pub fn new(h: usize, w: usize) -> CellSizes {
        assert!(
            (1..=13).contains(&h) && (1..=13).contains(&w),
            "quarter {h}×{w}"
        );
        let mut sizes = vec![0u32; 1 << (h + w)];
        walk(
            (h, w),
            0,
            0,
            0,
            Quarter { sum: 0, diff: 0 },
            &mut |cell, _| sizes[cell] += 1,
        );
        CellSizes { h, w, sizes }
    }

    /// The placements with queens on exactly `rows` and `columns`.
    pub fn cell(&self, rows: u32, columns: u32) -> u32 {
        self.sizes[(rows as usize) << self.w | columns as usize]
    }

    /// The placements in all.
    pub fn total(&self) -> u64 {
        self.sizes.iter().map(|&s| u64::from(s)).sum()
    }

    /// The bytes the sizes themselves take.
    pub fn bytes(&self) -> u64 {
        4 * self.sizes.len() as u64
    }

    /// The bytes the table of these sizes takes.
    pub fn table_bytes(&self) -> u64 {
        self.total() * std::mem::size_of::<Quarter>() as u64 + 4 * (self.sizes.len() as u64 + 1)
    }
}

impl QuarterTable {
    /// The table of the h×w rectangle (1 <= h, w <= 13).
    pub fn new(h: usize, w: usize) -> QuarterTable {
        QuarterTable::from_sizes(&CellSizes::new(h, w))
    }

    /// The table of the rectangle `sizes` were counted for.
    pub fn from_sizes(sizes: &CellSizes) -> QuarterTable {
        let (h, w) = (sizes.h, sizes.w);
        let cells = sizes.sizes.len();
        let mut starts = Vec::with_capacity(cells + 1);
        let mut total = 0u32;
        starts.push(0);
        for size in &sizes.sizes {
            total = total
                .checked_add(*size)
                .expect("a table of at most 2^32 placements");
            starts.push(total);
        }
        let mut next: Vec<u32> = starts[..cells].to_vec();
        let mut entries = vec![Quarter { sum: 0, diff: 0 }; total as usize];
        walk(
            (h, w),
            0,
            0,
            0,
            Quarter { sum: 0, diff: 0 },
            &mut |cell, quarter| {
                entries[next[cell] as usize] = quarter;
                next[cell] += 1;
            },
        );
        QuarterTable { w, starts, entries }
    }

    /// The placements with queens on exactly the rows `rows` and the
    /// columns `columns` (bit sets of the rectangle).
    pub fn cell(&self, rows: u32, columns: u32) -> &[Quarter] {
        let cell = (rows as usize) << self.w | columns as usize;
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
}

/// Visits every placement of rows `row..h` below `quarter` (rows and
/// columns used so far as bit sets) in the h×w rectangle.
fn walk(
    (h, w): (usize, usize),
    row: usize,
    rows: u32,
    columns: u32,
    quarter: Quarter,
    visit: &mut impl FnMut(usize, Quarter),
) {
    if row == h {
        visit((rows as usize) << w | columns as usize, quarter);
        return;
    }
    // The row stays empty...
    walk((h, w), row + 1, rows, columns, quarter, visit);
    // ...or takes a queen in a free column on free diagonals.
    for column in 0..w {
        let (sum, diff) = (1 << (row + column), 1 << (row + w - 1 - column));
        if columns & 1 << column == 0 && quarter.sum & sum == 0 && quarter.diff & diff == 0 {
            let placed = Quarter {
                sum: quarter.sum | sum,
                diff: quarter.diff | diff,
            };
            walk(
                (h, w),
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
            let table = QuarterTable::new(h, h);
            let all = (1u32 << h) - 1;
            assert_eq!(table.cell(all, all).len(), solutions, "h = {h}");
            assert_eq!(table.cell(0, 0).len(), 1, "the empty placement");
        }
    }

    #[test]
    fn rectangles_hold_every_non_attacking_placement() {
        // Brute force over every subset of the rectangle's cells.
        for (h, w) in [(2, 3), (3, 3), (3, 4), (4, 3)] {
            let cells = h * w;
            let mut want = 0;
            for set in 0u32..1 << cells {
                let queens: Vec<(i32, i32)> = (0..cells)
                    .filter(|&i| set & 1 << i != 0)
                    .map(|i| ((i / w) as i32, (i % w) as i32))
                    .collect();
                let attack = |&(r1, c1): &(i32, i32), &(r2, c2): &(i32, i32)| {
                    r1 == r2 || c1 == c2 || (r1 - r2).abs() == (c1 - c2).abs()
                };
                let free = queens
                    .iter()
                    .enumerate()
                    .all(|(i, a)| queens[i + 1..].iter().all(|b| !attack(a, b)));
                want += usize::from(free);
            }
            assert_eq!(QuarterTable::new(h, w).len(), want, "{h}×{w}");
        }
    }

    #[test]
    fn one_queen_cells_hold_one_placement_each() {
        let table = QuarterTable::new(5, 6);
        for r in 0..5 {
            for c in 0..6 {
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
