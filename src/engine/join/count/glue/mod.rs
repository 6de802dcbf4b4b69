//! Gluing halves from quarters and counting an item's pairs: the hot
//! part of the join, on per-thread scratch kept from item to item.

use std::cell::RefCell;
use std::ops::Range;
use std::time::Instant;

use super::frames::{Fold, Shape, Side};
use super::items::Item;
use super::pairs;
use super::quarter::{self, Quarter, QuarterTable, RowCache, RowSet, Source};
use crate::engine::join::Join;

#[cfg(target_arch = "x86_64")]
mod avx512;
pub(in crate::engine::join) mod keyed;

use keyed::ALL_PASSES;

thread_local! {
    /// Each worker's half lists and lower quarters, kept from item to item.
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

/// The lower quarters placed, column by column: their diagonals (sums,
/// differences) and their part of a half's pattern. A pattern is bitwise
/// in the diagonals, so a half's is its upper quarter's OR its lower
/// quarter's: worked out once per quarter, not once per pair.
#[derive(Default)]
pub(in crate::engine::join) struct Lower {
    pub(in crate::engine::join) sums: Vec<u64>,
    pub(in crate::engine::join) diffs: Vec<u64>,
    pub(in crate::engine::join) patterns: Vec<u64>,
}

impl Lower {
    /// All of them.
    pub(in crate::engine::join) fn all(&self) -> Lowers<'_> {
        self.range(0..self.sums.len())
    }

    /// Those at `places`.
    pub(in crate::engine::join) fn range(&self, places: Range<usize>) -> Lowers<'_> {
        Lowers {
            sums: &self.sums[places.clone()],
            diffs: &self.diffs[places.clone()],
            patterns: &self.patterns[places],
        }
    }
}

/// Some of a [`Lower`]'s quarters.
#[derive(Clone, Copy)]
pub(in crate::engine::join) struct Lowers<'a> {
    pub(in crate::engine::join) sums: &'a [u64],
    pub(in crate::engine::join) diffs: &'a [u64],
    pub(in crate::engine::join) patterns: &'a [u64],
}

/// An upper quarter placed: its diagonals and its part of the pattern
/// (with the item's extra bits).
#[derive(Clone, Copy)]
pub(in crate::engine::join) struct Upper {
    pub(in crate::engine::join) sum: u64,
    pub(in crate::engine::join) diff: u64,
    pub(in crate::engine::join) pattern: u64,
}

/// Slots past a list's end the vector loops may write (and not keep).
pub(in crate::engine::join) const SLACK: usize = 8;

/// One worker's half lists and lower quarters.
#[derive(Default)]
struct Scratch {
    east: Vec<u64>,
    west: Vec<u64>,
    /// The halves of one side off the long diagonals.
    spare: Vec<u64>,
    /// The east and the west halves' upper and lower quarters' row sets,
    /// where the join has no whole table: filled for an item whose rows
    /// the join's shared row sets lack ([`RowCache`], handed over while it
    /// has room), and kept while the next one's rows are the same.
    rows: [RowSet; 4],
    /// The east and the west halves' runs of column splits.
    runs: (Vec<Run>, Vec<Run>),
    /// The lower quarters placed and the upper and lower cells of the
    /// split being glued (where the join searches its cells one at a
    /// time), with what key passes sort them by ([`keyed`]).
    glue: keyed::Scratch,
}

/// The most halves one side's list holds at a time, bounded by their
/// quarter cells' sizes multiplied: a longer side is glued and paired in
/// runs of its column splits, each run against each of the other side's
/// (n = 26: sides bounded by about 1.7 × 10⁸ halves, 1.4 GB a list). Each
/// extra run of one side re-glues the other side's halves, a few ns each,
/// where pairing one of them with a run costs about 2^22 / 512 times ten
/// instructions: nothing to speak of. Boards to n = 23 never cut a run.
pub(in crate::engine::join) const RUN: u64 = 1 << 22;

/// A run of a half's column splits, and how many halves it may glue; a
/// split that alone may glue more than a run holds is cut into runs of
/// its upper quarters (`uppers`, places in its upper cell; else all).
#[derive(Clone, Debug)]
pub(in crate::engine::join) struct Run {
    pub(in crate::engine::join) splits: Range<usize>,
    pub(in crate::engine::join) uppers: Range<usize>,
    pub(in crate::engine::join) bound: u64,
}

/// A run's `uppers` when it glues all of its splits' upper quarters.
const ALL_UPPERS: Range<usize> = 0..usize::MAX;

impl Run {
    /// An empty run of whole splits, starting at split `at`.
    fn at(at: usize) -> Run {
        Run {
            splits: at..at,
            uppers: ALL_UPPERS,
            bound: 0,
        }
    }
}

/// What one half is glued from: its upper and lower quarters' cells, the
/// column splits it walks, its columns, the diagonals it keeps off, the
/// shape of its patterns and the bits set in them.
pub(in crate::engine::join) struct Half<'a> {
    pub(in crate::engine::join) uppers: Cells<'a>,
    pub(in crate::engine::join) lowers: Cells<'a>,
    pub(in crate::engine::join) splits: &'a [u32],
    pub(in crate::engine::join) side: Side,
    pub(in crate::engine::join) keep: ((u64, u64), Shape, u64),
}

impl Half<'_> {
    /// Its splits cut into runs of at most `most` halves (a split over it
    /// cut by its upper quarters, each run then at most `most` halves or
    /// one lower cell's worth), into `runs`.
    pub(in crate::engine::join) fn runs(&self, most: u64, runs: &mut Vec<Run>) {
        runs.clear();
        let mut run = Run::at(0);
        for (i, &upper_columns) in self.splits.iter().enumerate() {
            let (uppers, lowers) = (
                self.uppers.size(upper_columns),
                self.lowers.size(self.side.columns ^ upper_columns),
            );
            let glued = uppers * lowers;
            if glued > most && uppers > 1 {
                if !run.splits.is_empty() {
                    runs.push(run.clone());
                }
                let chunk = (most / lowers).max(1);
                for start in (0..uppers).step_by(chunk as usize) {
                    let end = (start + chunk).min(uppers);
                    runs.push(Run {
                        splits: i..i + 1,
                        uppers: start as usize..end as usize,
                        bound: (end - start) * lowers,
                    });
                }
                run = Run::at(i + 1);
                continue;
            }
            if run.bound + glued > most && !run.splits.is_empty() {
                runs.push(std::mem::replace(&mut run, Run::at(i)));
            }
            run.splits.end = i + 1;
            run.bound += glued;
        }
        if run.bound > 0 {
            runs.push(run);
        }
    }
}

/// The most placements a row set of the searched layout is filled with
/// in any memory (32 MiB of quarters; four a thread, what its plan
/// needs; more where --max-memory leaves room, `MemoryPlan::with_room`):
/// most row sets to h = 13 are smaller (their mean is about 8 × 10⁵
/// placements at 13×13, 4 × 10⁶ at 14×14), and one walk fills a row set
/// where searching its cells one at a time walked them again for every
/// cell, twice. Larger ones are counted and their cells searched.
pub(in crate::engine::join) const SEARCHED_FILL_MOST: u64 = 1 << 22;

/// A quarter's cells on one row set: from the whole table, from the row
/// set filled for this half, or searched one at a time (`Counted`: the
/// row set, too large to fill, counted by column set for their sizes).
pub(in crate::engine::join) enum Cells<'a> {
    Table(&'a QuarterTable, u32),
    Rows(&'a RowSet),
    Counted(&'a RowSet, usize, u32),
}

impl<'a> Cells<'a> {
    /// The placements on exactly the columns `columns`, searched into
    /// `cell` if need be.
    pub(in crate::engine::join) fn cell<'b>(
        &self,
        columns: u32,
        cell: &'b mut Vec<Quarter>,
    ) -> &'b [Quarter]
    where
        'a: 'b,
    {
        match self {
            Cells::Table(table, rows) => table.cell(*rows, columns),
            Cells::Rows(row_set) => row_set.cell(columns),
            Cells::Counted(_, h, rows) => {
                quarter::search_cell(*h, *rows, columns, cell);
                cell
            }
        }
    }

    /// How many placements [`Cells::cell`] holds.
    fn size(&self, columns: u32) -> u64 {
        match self {
            Cells::Table(table, rows) => table.cell(*rows, columns).len() as u64,
            Cells::Rows(row_set) => row_set.cell(columns).len() as u64,
            Cells::Counted(row_set, ..) => row_set.size(columns),
        }
    }

    /// The cells of the rows `rows` as `source` keeps them: the table's,
    /// the row set `cache` holds, or `row_set` filled with them (and
    /// handed to `cache` if it has room); for the searched layout, filled
    /// where it holds at most `fill_most` placements
    /// ([`SEARCHED_FILL_MOST`]), else counted and its cells searched.
    fn of(
        (source, fill_most): (Source, u64),
        (table, cache): (Option<&'a QuarterTable>, &'a RowCache),
        h: usize,
        rows: u32,
        row_set: &'a mut RowSet,
    ) -> Self {
        if let Some(table) = table {
            return Cells::Table(table, rows);
        }
        if let Some(held) = cache.get(rows) {
            return Cells::Rows(held);
        }
        let most = match source {
            Source::Searched => fill_most,
            Source::Table | Source::RowSets => u64::MAX,
        };
        let clock = Instant::now();
        if !row_set.fill_at_most((h, h), rows, most) {
            return Cells::Counted(row_set, h, rows);
        }
        match cache.offer(rows, row_set, clock.elapsed()) {
            Some(held) => Cells::Rows(held),
            None => Cells::Rows(row_set),
        }
    }
}

/// Appends the patterns of the halves `a` makes with the lower quarters
/// it meets on no diagonal; `patterns` has room for them all.
fn pair(a: Upper, lower: Lowers, patterns: &mut Vec<u64>) {
    let spare = &mut patterns.spare_capacity_mut()[..lower.sums.len()];
    let mut kept = 0;
    let quarters = lower.sums.iter().zip(lower.diffs).zip(lower.patterns);
    for ((&sum, &diff), &pattern) in quarters {
        spare[kept].write(a.pattern | pattern);
        kept += usize::from((a.sum & sum) | (a.diff & diff) == 0);
    }
    // SAFETY: the first `kept` slots of the spare capacity were written
    // above (each slot is written before `kept` passes it).
    unsafe { patterns.set_len(patterns.len() + kept) };
}

impl Join {
    /// What the half on the rows `north` and `south` (bit sets of the
    /// quarters' rows) and the columns of `side` is glued from, keeping off
    /// `forbidden`, its patterns of `shape` with the bits `extra` set; the
    /// row sets are filled into `row_sets` where there is no whole table.
    pub(in crate::engine::join) fn half<'a>(
        &'a self,
        (north, south): (u32, u32),
        side: Side,
        keep: ((u64, u64), Shape, u64),
        row_sets: (&'a mut RowSet, &'a mut RowSet),
    ) -> Half<'a> {
        let h = self.h;
        let source = (self.cells, self.fill_most);
        let cells = (self.square.as_ref(), &*self.row_cache);
        Half {
            uppers: Cells::of(source, cells, h, north, row_sets.0),
            lowers: Cells::of(source, cells, h, south, row_sets.1),
            splits: self.splits.of(side.columns, north.count_ones()),
            side,
            keep,
        }
    }

    /// Glues the halves of `half`'s splits in `run` and appends their
    /// patterns to `patterns` (`cells` holds the cells searched).
    pub(in crate::engine::join) fn glue(
        &self,
        half: &Half,
        run: &Run,
        (lower, cells): (&mut Lower, &mut [Vec<Quarter>; 2]),
        patterns: &mut Vec<u64>,
    ) {
        // Room for the whole run at once: no list grows past its bound.
        patterns.reserve_exact(run.bound as usize + SLACK);
        let [upper_cell, lower_cell] = cells;
        for &upper_columns in &half.splits[run.splits.clone()] {
            let upper = half.uppers.cell(upper_columns, upper_cell);
            let upper = &upper[run.uppers.start.min(upper.len())..run.uppers.end.min(upper.len())];
            if upper.is_empty() {
                continue;
            }
            // The lower quarters placed and sifted once for all the upper
            // ones.
            let cell = half
                .lowers
                .cell(half.side.columns ^ upper_columns, lower_cell);
            self.place_lowers(half, cell, lower);
            if lower.sums.is_empty() {
                continue;
            }
            patterns.reserve(upper.len() * lower.sums.len() + SLACK);
            for &a in upper {
                if let Some(a) = self.place_upper(half, a) {
                    self.pair_with(a, lower.all(), patterns);
                }
            }
        }
    }

    /// The lower quarters of `cell` placed for `half`, those that keep off
    /// its diagonals kept in `lower`.
    #[inline(always)]
    pub(in crate::engine::join) fn place_lowers(
        &self,
        half: &Half,
        cell: &[Quarter],
        lower: &mut Lower,
    ) {
        let (n, h) = (self.n, self.h);
        let (forbidden, shape, _) = half.keep;
        let Lower {
            sums,
            diffs,
            patterns: parts,
        } = lower;
        sums.clear();
        diffs.clear();
        parts.clear();
        for b in cell {
            // The south quarters' first row is n - h.
            let b = b.place(n, h, n - h, half.side.c0);
            if b.0 & forbidden.0 == 0 && b.1 & forbidden.1 == 0 {
                sums.push(b.0);
                diffs.push(b.1);
                parts.push(shape.pattern(b));
            }
        }
    }

    /// Upper quarter `a` placed for `half`, unless it meets the diagonals
    /// the half keeps off.
    #[inline(always)]
    pub(in crate::engine::join) fn place_upper(&self, half: &Half, a: Quarter) -> Option<Upper> {
        let (forbidden, shape, extra) = half.keep;
        let (sum, diff) = a.place(self.n, self.h, 0, half.side.c0);
        (sum & forbidden.0 == 0 && diff & forbidden.1 == 0).then(|| Upper {
            sum,
            diff,
            pattern: shape.pattern((sum, diff)) | extra,
        })
    }

    /// Appends the patterns of the halves `a` makes with `lower`'s
    /// quarters; `patterns` has room for them all and [`SLACK`].
    #[inline(always)]
    pub(in crate::engine::join) fn pair_with(
        &self,
        a: Upper,
        lower: Lowers,
        patterns: &mut Vec<u64>,
    ) {
        // Every pair is written and kept or not by its test, without a
        // branch: a third or so are kept, which no predictor learns.
        match self.simd {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: the join runs on AVX-512 only where the CPU has it
            // (Join::new checks), with the same features as the pair
            // counter; `patterns` has room for every pair and SLACK.
            crate::engine::cpu::Simd::Avx512 => unsafe { avx512::pair(a, lower, patterns) },
            _ => pair(a, lower, patterns),
        }
    }

    /// How a mirror item's pairs of an east list and a west list
    /// (mirrored) are counted, each pair standing for `weight` solutions:
    /// plainly, or with the diagonal reflections folded in
    /// ([`Join::count_reflected`]) unless `plain`; the third list is
    /// scratch.
    pub(in crate::engine::join) fn mirror_pairs(
        &self,
        plain: bool,
        weight: u64,
        shape: Shape,
    ) -> impl Fn(&mut [u64], &mut [u64], &mut Vec<u64>) -> u64 + '_ {
        move |east, west, spare| match plain {
            true => weight * pairs::count_on(self.counter(), east, west, shape.bits()),
            false => self.count_reflected((east, west), weight, spare, shape),
        }
    }

    /// The solutions of an even board's item, its orbit weight (2 or 4)
    /// included, with the two diagonal reflections folded in as well
    /// (../shared/JOIN.md).
    ///
    /// The reflection in the anti-diagonal fixes that diagonal queen by
    /// queen and moves a queen on the main diagonal from the east half to
    /// the west or back; the transpose does the same with the roles
    /// swapped. So, summed over all solutions, counting each one whose east
    /// half keeps off both long diagonals 2^k times, k its west half's
    /// queens on them, gives the total: pairs whose halves both touch a
    /// long diagonal need not be compared. The item stands for E and its
    /// mirror image (the complement, whose east half is this west half), so
    /// it counts both ways round, each for half its weight: clean east
    /// halves against every west one, and every east half against the clean
    /// west ones. About half the pairs are compared. (Only over all the
    /// items does this add up to the total: the reflections move solutions
    /// between items, so a board counts every item this way or none.)
    fn count_reflected(
        &self,
        (east, west): (&mut [u64], &mut [u64]),
        weight: u64,
        kept: &mut Vec<u64>,
        shape: Shape,
    ) -> u64 {
        debug_assert!(
            weight.is_multiple_of(2),
            "a mirror item stands for E and its complement"
        );
        let long = shape.long_diagonals(self.n);
        let bits = shape.bits();
        let mut both_ways = 0;
        for east_clean in [true, false] {
            let (keeps_off, others) = match east_clean {
                true => (&*east, &mut *west),
                false => (&*west, &mut *east),
            };
            // Kept without a branch: about a quarter are.
            kept.clear();
            kept.resize(keeps_off.len(), 0);
            let mut clean = 0;
            for &p in keeps_off {
                kept[clean] = p;
                clean += usize::from(p & long == 0);
            }
            kept.truncate(clean);
            // Counted by the weights the others hold (a list sorted in
            // place), so that the longer side may be sliced.
            both_ways += pairs::count_by_weight(self.counter(), kept, others, bits, long);
        }
        weight / 2 * both_ways
    }

    /// The solutions item `item` stands for.
    pub(in crate::engine::join) fn count_item(&self, item: &Item) -> u64 {
        SCRATCH.with_borrow_mut(|scratch| {
            let Scratch {
                east,
                west,
                spare,
                rows: [east_upper, east_lower, west_upper, west_lower],
                runs: (east_runs, west_runs),
                glue,
            } = scratch;
            let frames = &self.frames[self.groups[item.group as usize].clone()];
            let first = &frames[0];
            let shape = first.shape;
            let rows = (u32::from(item.north), u32::from(item.south));
            let others = (first.north ^ rows.0, first.south ^ rows.1);
            let weight = u64::from(item.weight);
            let mut total = 0;
            if first.fold == Fold::MirrorAndFlip {
                // The item's rows are the east half's. Mirrored left to
                // right, a west half on rows W is an east half on rows W
                // with its rising and falling diagonals swapped.
                let both = (first.forbidden, shape, 0);
                let east_half = self.half(rows, first.east, both, (east_upper, east_lower));
                let west_half = self.half(others, first.east, both, (west_upper, west_lower));
                east_half.runs(self.run, east_runs);
                west_half.runs(self.run, west_runs);
                // The centre queen holds both long diagonals; small lists
                // pay more for two passes than they save.
                let plain = first.forbidden != (0, 0) || !self.reflect;
                let pairs = self.mirror_pairs(plain, weight, shape);
                if east_runs.len() > 1 || west_runs.len() > 1 {
                    let lists = (east, west, spare);
                    let halves = (&east_half, &west_half);
                    return self.count_keyed(halves, shape, lists, glue, (pairs, ALL_PASSES));
                }
                let mut west_run = None;
                for east_run in east_runs.iter() {
                    east.clear();
                    self.glue(
                        &east_half,
                        east_run,
                        (&mut glue.lower, &mut glue.cells),
                        east,
                    );
                    if east.is_empty() {
                        continue;
                    }
                    for (j, run) in west_runs.iter().enumerate() {
                        if west_run != Some(j) {
                            west.clear();
                            self.glue(&west_half, run, (&mut glue.lower, &mut glue.cells), west);
                            for p in west.iter_mut() {
                                *p = shape.mirrored(*p);
                            }
                            west_run = Some(j);
                        }
                        total += pairs(east, west, spare);
                    }
                }
                return total;
            }
            // The item's rows are the west half's, shared by the group's
            // frames (one middle-column queen, the middle-row queens
            // apart): glued once, keeping off the middle-column queen. Each
            // frame's east halves carry its middle-row queen's pattern
            // bits, so that a west half on its diagonals meets none of them.
            let keep_off = (first.west_forbidden, shape, 0);
            let west_half = self.half(rows, first.west, keep_off, (west_upper, west_lower));
            west_half.runs(self.run, west_runs);
            if west_runs.len() > 1 {
                let pairs = |east: &[u64], west: &[u64]| {
                    weight * pairs::count_on(self.counter(), east, west, shape.bits())
                };
                return self.count_keyed_frames(
                    &west_half,
                    (frames, others, shape),
                    (east_upper, east_lower),
                    (east, west),
                    glue,
                    (pairs, ALL_PASSES),
                );
            }
            for west_run in west_runs.iter() {
                west.clear();
                self.glue(
                    &west_half,
                    west_run,
                    (&mut glue.lower, &mut glue.cells),
                    west,
                );
                if west.is_empty() {
                    continue;
                }
                for frame in frames {
                    let keep_off = (frame.forbidden, shape, frame.middle_row);
                    let row_sets = (&mut *east_upper, &mut *east_lower);
                    let east_half = self.half(others, frame.east, keep_off, row_sets);
                    east_half.runs(self.run, east_runs);
                    for east_run in east_runs.iter() {
                        east.clear();
                        self.glue(
                            &east_half,
                            east_run,
                            (&mut glue.lower, &mut glue.cells),
                            east,
                        );
                        if !east.is_empty() {
                            total +=
                                weight * pairs::count_on(self.counter(), east, west, shape.bits());
                        }
                    }
                }
            }
            total
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::cpu::{self, Simd};
    use proptest::prelude::*;

    /// What [`pair`] keeps of `lowers` for the upper `a`, by path.
    fn glued(simd: Simd, a: Upper, lowers: &Lower, before: &[u64]) -> Vec<u64> {
        let mut patterns = before.to_vec();
        patterns.reserve(lowers.sums.len() + SLACK);
        match simd {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: the caller checked the CPU; room reserved above.
            Simd::Avx512 => unsafe { avx512::pair(a, lowers.all(), &mut patterns) },
            _ => pair(a, lowers.all(), &mut patterns),
        }
        patterns
    }

    proptest! {
        #[test]
        fn the_avx512_glue_keeps_what_the_scalar_loop_keeps(
            upper in (any::<u64>(), any::<u64>(), any::<u64>()),
            lowers in prop::collection::vec((any::<u64>(), any::<u64>(), any::<u64>()), 0..40),
            sparse in 1u32..6,
            before in prop::collection::vec(any::<u64>(), 0..3),
        ) {
            // Diagonal sets thinned (a few bits each) so that about as
            // many pairs meet as not.
            let thin = |x: u64| (0..sparse).fold(x, |y, k| y & x.rotate_left(7 * k + 3));
            let a = Upper { sum: thin(upper.0), diff: thin(upper.1), pattern: upper.2 };
            let mut lower = Lower::default();
            for &(sum, diff, pattern) in &lowers {
                lower.sums.push(thin(sum));
                lower.diffs.push(thin(diff));
                lower.patterns.push(pattern);
            }
            let expected = glued(Simd::None, a, &lower, &before);
            let test = "the_avx512_glue_keeps_what_the_scalar_loop_keeps";
            if cpu::runs_or_skips(cpu::avx512_pairs(), test, "AVX-512 glue", cpu::AVX512_PAIRS_NEEDS) {
                prop_assert_eq!(&glued(Simd::Avx512, a, &lower, &before), &expected);
            }
        }
    }
}
