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

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;
use std::time::Duration;

use rayon::prelude::*;

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
    /// The sizes for the h×w rectangle (1 <= h, w <= 13), row set by row
    /// set on the rayon pool, storing no placement: each row set's
    /// counts stay in cache (one walk over the whole rectangle,
    /// incrementing all over 64 MiB of counts, took 27 s at 12×12).
    pub fn new(h: usize, w: usize) -> CellSizes {
        assert!(
            (1..=13).contains(&h) && (1..=13).contains(&w),
            "quarter {h}×{w}"
        );
        let mut sizes = vec![0u32; 1 << (h + w)];
        sizes
            .par_chunks_mut(1 << w)
            .enumerate()
            .for_each(|(rows, counts)| count_rows(w, rows as u32, (0, 0, 0), counts));
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

    /// The placements of the largest row set (over all its column sets).
    pub fn largest_row_set(&self) -> u64 {
        self.sizes
            .chunks(1 << self.w)
            .map(|row_set| row_set.iter().map(|&s| u64::from(s)).sum())
            .max()
            .unwrap_or(0)
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
        let empty = Quarter { sum: 0, diff: 0 };
        for rows in 0u32..1 << h {
            let cells = &mut next[(rows as usize) << w..][..1 << w];
            place_rows(
                w,
                full(w),
                rows,
                (0, 0, 0),
                empty,
                &mut |columns, quarter| {
                    let slot = &mut cells[columns as usize];
                    entries[*slot as usize] = quarter;
                    *slot += 1;
                },
            );
        }
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

/// Where a half's quarter cells come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::engine::join) enum Source {
    /// The whole quarter table, filled once (to n = 23).
    Table,
    /// The row sets an item glues from, filled by each worker (n = 24, 25).
    RowSets,
    /// Each cell searched on its own as the glue reaches it (past
    /// [`LISTED_TO`](crate::engine::join::LISTED_TO): a row set of 16×16 holds about 10⁹ placements).
    Searched,
}

/// One row set's share of the h×w rectangle's table, produced on demand:
/// every placement with queens on exactly those rows, by column set. What
/// the whole table would hold grows about 10× per step of h (6.4 × 10⁹
/// placements at 13×13); a row set's share is 2^h times smaller, and a
/// worker fills the few an item glues from.
#[derive(Clone, Debug, Default)]
pub struct RowSet {
    /// The rectangle and the rows it holds, once filled.
    filled: Option<(usize, usize, u32)>,
    /// The rectangle and the rows whose placements `starts` counts, when
    /// they were too many to fill ([`RowSet::fill_at_most`]).
    counted: Option<(usize, usize, u32)>,
    /// `starts[columns]..starts[columns + 1]` are the column set's entries.
    starts: Vec<u32>,
    entries: Vec<Quarter>,
}

impl RowSet {
    /// Holds the placements of the h×w rectangle (1 <= h, w <= 16) with
    /// queens on exactly the rows `rows`, unless it holds them already.
    pub fn fill(&mut self, (h, w): (usize, usize), rows: u32) {
        self.fill_at_most((h, w), rows, u64::MAX);
    }

    /// Fills the row set as [`RowSet::fill`] does if it holds at most
    /// `most` placements, and says whether it did; else it only counts
    /// them by column set ([`RowSet::size`]), and its cells are to be
    /// searched one at a time. The count is the first half of a fill, so
    /// a row set too large to keep costs one walk of its placements, and
    /// spares a search per cell for its size.
    pub fn fill_at_most(&mut self, (h, w): (usize, usize), rows: u32, most: u64) -> bool {
        assert!(
            (1..=16).contains(&h) && (1..=16).contains(&w) && rows >> h == 0,
            "rows {rows:b} of a {h}×{w} rectangle"
        );
        if self.filled == Some((h, w, rows)) {
            return true;
        }
        // Counted by column set first (unless it was, just before), then
        // placed: exactly the memory the placements take.
        self.filled = None;
        if self.counted != Some((h, w, rows)) {
            self.entries.clear();
            self.starts.clear();
            self.starts.resize((1 << w) + 1, 0);
            count_rows(w, rows, (0, 0, 0), &mut self.starts[1..]);
            for i in 1..self.starts.len() {
                self.starts[i] += self.starts[i - 1];
            }
            self.counted = Some((h, w, rows));
        }
        let placements = self.starts[1 << w] as usize;
        if placements as u64 > most {
            return false;
        }
        self.counted = None;
        self.entries.clear();
        self.entries.reserve_exact(placements);
        self.entries.resize(placements, Quarter { sum: 0, diff: 0 });
        let mut next = std::mem::take(&mut self.starts);
        let empty = Quarter { sum: 0, diff: 0 };
        place_rows(
            w,
            full(w),
            rows,
            (0, 0, 0),
            empty,
            &mut |columns, quarter| {
                let slot = &mut next[columns as usize];
                self.entries[*slot as usize] = quarter;
                *slot += 1;
            },
        );
        // Each start moved to the next one's: shift them back.
        next.rotate_right(1);
        next[0] = 0;
        self.starts = next;
        self.filled = Some((h, w, rows));
        true
    }

    /// How many placements its rows have on exactly the columns
    /// `columns`: the cell's length, filled or only counted.
    pub fn size(&self, columns: u32) -> u64 {
        let columns = columns as usize;
        u64::from(self.starts[columns + 1] - self.starts[columns])
    }

    /// The placements on its rows and exactly the columns `columns`.
    pub fn cell(&self, columns: u32) -> &[Quarter] {
        let columns = columns as usize;
        &self.entries[self.starts[columns] as usize..self.starts[columns + 1] as usize]
    }

    /// How many placements it holds.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether it holds none (rows no placement fills).
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The bytes it holds: its entries and starts as allocated.
    pub fn bytes_held(&self) -> u64 {
        (self.entries.capacity() * std::mem::size_of::<Quarter>()
            + self.starts.capacity() * std::mem::size_of::<u32>()) as u64
    }

    /// The bytes a row set of `placements` takes on an h×w rectangle:
    /// the entries and the column sets' starts.
    pub fn bytes(w: usize, placements: u64) -> u64 {
        placements * std::mem::size_of::<Quarter>() as u64 + 4 * ((1 << w) + 1)
    }
}

/// Row sets filled once and shared by every worker of a join without the
/// whole table, up to a number of bytes: a worker that fills a row set
/// hands it over while there is room, and every later item that glues
/// from those rows reads it instead of filling its own again. Nothing is
/// ever dropped, so the first row sets filled stay: items come in a
/// pseudo-random order (drawn) or by cost (listed), so those are a sample
/// of what the items glue from, the row sets most of them share first.
/// At n = 21 (10×10, 1,024 row sets, 60 MB in all) every row set is
/// filled once a count instead of four times an item.
pub struct RowCache {
    /// The rectangle (h×h) whose row sets it holds.
    h: usize,
    /// Row set `rows` in slot `rows`, once filled (none: no cache).
    slots: Vec<OnceLock<RowSet>>,
    /// The bytes it may still take.
    room: AtomicU64,
    /// Nanoseconds spent filling the row sets it took: work a count does
    /// once, not once an item, which a timed sample of items must not
    /// spread over every item it stands for.
    filled_ns: AtomicU64,
}

impl RowCache {
    /// A cache of the h×h rectangle's row sets holding at most `bytes`
    /// (none at all for 0).
    pub fn new(h: usize, bytes: u64) -> RowCache {
        let slots = match bytes {
            0 => Vec::new(),
            _ => (0..1usize << h).map(|_| OnceLock::new()).collect(),
        };
        RowCache {
            h,
            slots,
            room: AtomicU64::new(bytes),
            filled_ns: AtomicU64::new(0),
        }
    }

    /// The row set of `rows`, if it was handed over.
    #[inline]
    pub fn get(&self, rows: u32) -> Option<&RowSet> {
        self.slots.get(rows as usize)?.get()
    }

    /// Takes the row set `row_set` (filled with `rows` of the h×h
    /// rectangle, in `filled_in`) if there is room for it, leaving
    /// `row_set` empty, and gives back the one it holds for those rows;
    /// `None` (and `row_set` as it was) if it is full.
    pub fn offer(&self, rows: u32, row_set: &mut RowSet, filled_in: Duration) -> Option<&RowSet> {
        let h = self.h;
        debug_assert_eq!(row_set.filled, Some((h, h, rows)), "a filled row set");
        let slot = self.slots.get(rows as usize)?;
        if let Some(held) = slot.get() {
            return Some(held);
        }
        let bytes = row_set.bytes_held();
        self.room
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |room| {
                room.checked_sub(bytes)
            })
            .ok()?;
        match slot.set(std::mem::take(row_set)) {
            Ok(()) => {
                let ns = u64::try_from(filled_in.as_nanos()).unwrap_or(u64::MAX);
                self.filled_ns.fetch_add(ns, Ordering::Relaxed);
            }
            // Another worker handed the same rows over first.
            Err(_lost) => {
                self.room.fetch_add(bytes, Ordering::Relaxed);
            }
        }
        slot.get()
    }

    /// Seconds spent filling the row sets it holds.
    pub fn filled_s(&self) -> f64 {
        self.filled_ns.load(Ordering::Relaxed) as f64 * 1e-9
    }

    /// Seconds filling the row sets it does not hold yet should take, at
    /// the mean of those it holds, as many as its room and its slots
    /// allow: an upper bound of what a count has left to fill once (a
    /// count that never glues from some rows never fills them).
    pub fn rest_s(&self) -> f64 {
        let (sets, bytes) = self.held();
        if sets == 0 {
            return 0.0;
        }
        let mean_bytes = (bytes / sets as u64).max(1);
        let fit = self.room.load(Ordering::Relaxed) / mean_bytes;
        let rest = ((self.slots.len() - sets) as u64).min(fit);
        rest as f64 * self.filled_s() / sets as f64
    }

    /// How many row sets it holds, and their bytes.
    pub fn held(&self) -> (usize, u64) {
        self.slots
            .iter()
            .filter_map(OnceLock::get)
            .fold((0, 0), |(sets, bytes), set| {
                (sets + 1, bytes + set.bytes_held())
            })
    }
}

impl std::fmt::Debug for RowCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (sets, bytes) = self.held();
        f.debug_struct("RowCache")
            .field("h", &self.h)
            .field("sets", &sets)
            .field("bytes", &bytes)
            .field("room", &self.room.load(Ordering::Relaxed))
            .finish()
    }
}

/// One cell of the h×w rectangle's table, searched on its own: the
/// placements on exactly the rows `rows` and the columns `columns` (as
/// many of one as of the other), into `cell`. Where neither the table nor
/// a row set fits in memory (a row set of 16×16 holds about 10⁹
/// placements, its largest cell about 2 × 10⁷), a half is glued cell by
/// cell: the search only tries the cell's columns, so it walks about what
/// the cell holds.
pub fn search_cell(w: usize, rows: u32, columns: u32, cell: &mut Vec<Quarter>) {
    assert!(
        (1..=16).contains(&w) && columns >> w == 0,
        "columns {columns:b} of a rectangle {w} wide"
    );
    cell.clear();
    if rows.count_ones() != columns.count_ones() {
        return;
    }
    let empty = Quarter { sum: 0, diff: 0 };
    place_rows(w, columns, rows, (0, 0, 0), empty, &mut |_, quarter| {
        cell.push(quarter)
    });
}

/// How many placements [`search_cell`] finds, storing none.
pub fn cell_size(w: usize, rows: u32, columns: u32) -> u64 {
    if rows.count_ones() != columns.count_ones() {
        return 0;
    }
    let mut size = 0;
    let empty = Quarter { sum: 0, diff: 0 };
    place_rows(w, columns, rows, (0, 0, 0), empty, &mut |_, _| size += 1);
    size
}

/// Counts every placement on the rows `rows` (those left) by its column
/// set into `counts`, as [`place_rows`] would list them.
fn count_rows(
    w: usize,
    rows: u32,
    (columns, rising, falling): (u32, u32, u32),
    counts: &mut [u32],
) {
    let all = (1u32 << w) - 1;
    let mut free = all & !(columns | rising | falling);
    let rest = rows & rows.wrapping_sub(1);
    if rows == 0 {
        counts[columns as usize] += 1;
        return;
    }
    if rest == 0 {
        // The last row: one placement a free column.
        while free != 0 {
            let bit = free & free.wrapping_neg();
            free ^= bit;
            counts[(columns | bit) as usize] += 1;
        }
        return;
    }
    let step = rest.trailing_zeros() - rows.trailing_zeros();
    while free != 0 {
        let bit = free & free.wrapping_neg();
        free ^= bit;
        let taken = (
            columns | bit,
            (rising | bit) >> step,
            (falling | bit) << step & all,
        );
        count_rows(w, rest, taken, counts);
    }
}

/// The columns of a rectangle `w` wide.
fn full(w: usize) -> u32 {
    (1u32 << w) - 1
}

/// Visits every placement on the rows `rows` (those left, lowest first)
/// in the columns `allowed` with its column set, below `quarter`; `taken` holds the columns used
/// and the rising and falling diagonals' columns as seen from the next
/// row (bit c: column c is attacked on that diagonal).
fn place_rows(
    w: usize,
    allowed: u32,
    rows: u32,
    (columns, rising, falling): (u32, u32, u32),
    quarter: Quarter,
    visit: &mut impl FnMut(u32, Quarter),
) {
    if rows == 0 {
        visit(columns, quarter);
        return;
    }
    let row = rows.trailing_zeros() as usize;
    let rest = rows & (rows - 1);
    // The rows skipped to the next one move the diagonals' columns: a
    // rising diagonal (r + c) one column left a row, a falling one right.
    let step = if rest == 0 {
        0
    } else {
        rest.trailing_zeros() as usize - row
    };
    let all = full(w);
    let mut free = allowed & !(columns | rising | falling);
    while free != 0 {
        let bit = free & free.wrapping_neg();
        free ^= bit;
        let column = bit.trailing_zeros() as usize;
        let placed = Quarter {
            sum: quarter.sum | 1 << (row + column),
            diff: quarter.diff | 1 << (row + w - 1 - column),
        };
        let rising = (rising | bit) >> step;
        let falling = (falling | bit) << step & all;
        place_rows(
            w,
            allowed,
            rest,
            (columns | bit, rising, falling),
            placed,
            visit,
        );
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
    fn the_row_cache_keeps_what_fits_and_gives_back_what_it_holds() {
        let h = 6;
        let filled = |rows| {
            let mut row_set = RowSet::default();
            row_set.fill((h, h), rows);
            row_set
        };
        let (a, b) = (0b000111, 0b111000);
        let bytes = filled(a).bytes_held();
        let cache = RowCache::new(h, bytes + bytes / 2);
        assert!(cache.get(a).is_none());
        let mut first = filled(a);
        let ms = Duration::from_millis;
        let held = cache.offer(a, &mut first, ms(3)).unwrap();
        assert_eq!(held.len(), filled(a).len());
        assert!(first.is_empty(), "handed over");
        // The same rows again: the one it holds, the offer left alone.
        let mut again = filled(a);
        assert!(cache.offer(a, &mut again, ms(5)).is_some());
        assert_eq!(again.len(), held.len());
        // No room for another as large.
        let mut other = filled(b);
        assert!(cache.offer(b, &mut other, ms(7)).is_none());
        assert_eq!(other.len(), filled(b).len(), "kept by its worker");
        assert!(cache.get(b).is_none());
        assert_eq!(cache.held(), (1, bytes));
        // Only the fill it took is its own, and it has room for no more.
        assert!(
            (cache.filled_s() - 0.003).abs() < 1e-12,
            "{}",
            cache.filled_s()
        );
        assert_eq!(cache.rest_s(), 0.0);
        // No cache at all.
        let none = RowCache::new(h, 0);
        assert!(none.offer(a, &mut filled(a), ms(3)).is_none());
        assert!(none.get(a).is_none());
        assert_eq!((none.filled_s(), none.rest_s()), (0.0, 0.0));
    }

    #[test]
    fn the_row_cache_forecasts_its_rest_at_the_mean_of_its_fills() {
        let h = 6;
        let mut row_set = RowSet::default();
        row_set.fill((h, h), 0b000111);
        let bytes = row_set.bytes_held();
        // Room for ten such sets: one held, nine more to fill.
        let cache = RowCache::new(h, 10 * bytes);
        assert_eq!(cache.rest_s(), 0.0, "nothing filled, nothing to go by");
        cache.offer(0b000111, &mut row_set, Duration::from_millis(3));
        assert!(
            (cache.rest_s() - 9.0 * 0.003).abs() < 1e-12,
            "{}",
            cache.rest_s()
        );
        // Room for every set: the 63 row sets of 6 rows it does not hold.
        let ample = RowCache::new(h, 1 << 30);
        row_set.fill((h, h), 0b000111);
        ample.offer(0b000111, &mut row_set, Duration::from_millis(3));
        assert!(
            (ample.rest_s() - 63.0 * 0.003).abs() < 1e-12,
            "{}",
            ample.rest_s()
        );
    }

    #[test]
    fn row_sets_hold_the_tables_cells() {
        // Every row set of a few rectangles, filled into one reused
        // RowSet, against the whole table: the same placements, cell by
        // cell (in any order).
        let mut row_set = RowSet::default();
        for (h, w) in [(1, 1), (3, 5), (5, 3), (6, 6), (7, 7)] {
            let table = QuarterTable::new(h, w);
            let mut seen = 0;
            for rows in 0u32..1 << h {
                row_set.fill((h, w), rows);
                seen += row_set.len();
                for columns in 0u32..1 << w {
                    let key = |q: &Quarter| (q.sum, q.diff);
                    let mut want = table.cell(rows, columns).to_vec();
                    let mut got = row_set.cell(columns).to_vec();
                    want.sort_unstable_by_key(key);
                    got.sort_unstable_by_key(key);
                    assert_eq!(got, want, "{h}×{w}, rows {rows:b}, columns {columns:b}");
                }
            }
            assert_eq!(seen, table.len(), "{h}×{w}");
        }
    }

    #[test]
    fn searched_cells_are_the_tables() {
        let mut cell = Vec::new();
        for h in [1, 4, 6, 7] {
            let table = QuarterTable::new(h, h);
            for rows in 0u32..1 << h {
                for columns in 0u32..1 << h {
                    search_cell(h, rows, columns, &mut cell);
                    let key = |q: &Quarter| (q.sum, q.diff);
                    let mut want = table.cell(rows, columns).to_vec();
                    want.sort_unstable_by_key(key);
                    cell.sort_unstable_by_key(key);
                    assert_eq!(cell, want, "{h}×{h}, rows {rows:b}, columns {columns:b}");
                    assert_eq!(cell_size(h, rows, columns), want.len() as u64);
                }
            }
        }
    }

    #[test]
    fn a_row_set_too_large_to_fill_is_counted_by_column_set() {
        let h = 6;
        let table = QuarterTable::new(h, h);
        let mut row_set = RowSet::default();
        for rows in [0b101101u32, 0b111, 0b10] {
            let placements: usize = (0u32..1 << h).map(|c| table.cell(rows, c).len()).sum();
            let most = placements as u64 - 1;
            assert!(!row_set.fill_at_most((h, h), rows, most), "rows {rows:b}");
            assert!(row_set.is_empty(), "counted, not filled");
            for columns in 0u32..1 << h {
                assert_eq!(
                    row_set.size(columns),
                    table.cell(rows, columns).len() as u64
                );
            }
            // The same rows with room enough: filled, the same sizes.
            assert!(row_set.fill_at_most((h, h), rows, placements as u64));
            assert_eq!(row_set.len(), placements);
            for columns in 0u32..1 << h {
                assert_eq!(row_set.cell(columns), table.cell(rows, columns));
            }
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
