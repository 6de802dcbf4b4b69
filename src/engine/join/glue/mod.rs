//! Gluing halves from quarters and counting an item's pairs: the hot
//! part of the join, on per-thread scratch kept from item to item.

use std::cell::RefCell;

use super::frames::{Fold, Shape, Side};
use super::items::Item;
use super::pairs;
use super::Join;

#[cfg(target_arch = "x86_64")]
mod avx512;

thread_local! {
    /// Each worker's half lists and lower quarters, kept from item to item.
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

/// The lower quarters placed, column by column: their diagonals (sums,
/// differences) and their part of a half's pattern. A pattern is bitwise
/// in the diagonals, so a half's is its upper quarter's OR its lower
/// quarter's: worked out once per quarter, not once per pair.
#[derive(Default)]
struct Lower {
    sums: Vec<u64>,
    diffs: Vec<u64>,
    patterns: Vec<u64>,
}

/// An upper quarter placed: its diagonals and its part of the pattern
/// (with the item's extra bits).
#[derive(Clone, Copy)]
struct Upper {
    sum: u64,
    diff: u64,
    pattern: u64,
}

/// Slots past a list's end the vector loops may write (and not keep).
const SLACK: usize = 8;

/// One worker's half lists and lower quarters.
#[derive(Default)]
struct Scratch {
    east: Vec<u64>,
    west: Vec<u64>,
    lower: Lower,
    /// The halves of one side off the long diagonals.
    spare: Vec<u64>,
}

/// Appends the patterns of the halves `a` makes with the lower quarters
/// it meets on no diagonal; `patterns` has room for them all.
fn pair(a: Upper, lower: &Lower, patterns: &mut Vec<u64>) {
    let spare = &mut patterns.spare_capacity_mut()[..lower.sums.len()];
    let mut kept = 0;
    let quarters = lower.sums.iter().zip(&lower.diffs).zip(&lower.patterns);
    for ((&sum, &diff), &pattern) in quarters {
        spare[kept].write(a.pattern | pattern);
        kept += usize::from((a.sum & sum) | (a.diff & diff) == 0);
    }
    // SAFETY: the first `kept` slots of the spare capacity were written
    // above (each slot is written before `kept` passes it).
    unsafe { patterns.set_len(patterns.len() + kept) };
}

impl Join {
    /// Glues the halves on the rows `north` and `south` (bit sets of the
    /// quarters' rows) and the columns of `side` that keep off `forbidden`,
    /// and appends their patterns (of `shape`), with the bits `extra` set,
    /// to `patterns`.
    fn halves(
        &self,
        (north, south): (u32, u32),
        side: Side,
        (forbidden, shape, extra): ((u64, u64), Shape, u64),
        lower: &mut Lower,
        patterns: &mut Vec<u64>,
    ) {
        let (n, h) = (self.n, self.h);
        let table = &self.square;
        let (c0, columns) = (side.c0, side.columns);
        let below = n - h; // the south quarters' first row
        let keeps_off = |(sum, diff): (u64, u64)| sum & forbidden.0 == 0 && diff & forbidden.1 == 0;
        let k = north.count_ones();
        for &upper_columns in self.splits.of(columns, k) {
            let upper = table.cell(north, upper_columns);
            if upper.is_empty() {
                continue;
            }
            // The lower quarters placed and sifted once for all the upper
            // ones.
            let cell = table.cell(south, columns ^ upper_columns);
            let Lower {
                sums,
                diffs,
                patterns: parts,
            } = lower;
            sums.clear();
            diffs.clear();
            parts.clear();
            for b in cell {
                let b = b.place(n, h, below, c0);
                if keeps_off(b) {
                    sums.push(b.0);
                    diffs.push(b.1);
                    parts.push(shape.pattern(b));
                }
            }
            if sums.is_empty() {
                continue;
            }
            // Every pair is written and kept or not by its test, without a
            // branch: a third or so are kept, which no predictor learns.
            patterns.reserve(upper.len() * sums.len() + SLACK);
            for a in upper {
                let (sum, diff) = a.place(n, h, 0, c0);
                if !keeps_off((sum, diff)) {
                    continue;
                }
                let a = Upper {
                    sum,
                    diff,
                    pattern: shape.pattern((sum, diff)) | extra,
                };
                match self.simd {
                    #[cfg(target_arch = "x86_64")]
                    // SAFETY: the join runs on AVX-512 only where the CPU
                    // has it (Join::new checks), with the same features as
                    // the pair counter; `patterns` has room for every pair
                    // and SLACK.
                    crate::engine::cpu::Simd::Avx512 => unsafe { avx512::pair(a, lower, patterns) },
                    _ => pair(a, lower, patterns),
                }
            }
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
        (east, west): (&[u64], &[u64]),
        weight: u64,
        kept: &mut Vec<u64>,
        shape: Shape,
    ) -> u64 {
        debug_assert!(
            weight.is_multiple_of(2),
            "a mirror item stands for E and its complement"
        );
        let long_diagonal = 1u64 << (self.n - 1);
        let long = shape.pattern((long_diagonal, 0)) | shape.pattern((0, long_diagonal));
        let bits = shape.bits();
        let mut both_ways = 0;
        for (keeps_off, others) in [(east, west), (west, east)] {
            // Kept without a branch: about a quarter are.
            kept.clear();
            kept.resize(keeps_off.len(), 0);
            let mut clean = 0;
            for &p in keeps_off {
                kept[clean] = p;
                clean += usize::from(p & long == 0);
            }
            kept.truncate(clean);
            both_ways += pairs::count_weighted(self.simd, kept, others, bits, long);
        }
        weight / 2 * both_ways
    }

    /// The solutions item `item` stands for.
    pub(super) fn count_item(&self, item: &Item) -> u64 {
        SCRATCH.with_borrow_mut(|scratch| {
            let Scratch {
                east,
                west,
                lower,
                spare,
            } = scratch;
            let frames = &self.frames[self.groups[item.group as usize].clone()];
            let first = &frames[0];
            let shape = first.shape;
            let rows = (u32::from(item.north), u32::from(item.south));
            let others = (first.north ^ rows.0, first.south ^ rows.1);
            let weight = u64::from(item.weight);
            if first.fold == Fold::MirrorAndFlip {
                // The item's rows are the east half's. Mirrored left to
                // right, a west half on rows W is an east half on rows W
                // with its rising and falling diagonals swapped.
                let both = (first.forbidden, shape, 0);
                east.clear();
                self.halves(rows, first.east, both, lower, east);
                if east.is_empty() {
                    return 0;
                }
                west.clear();
                self.halves(others, first.east, both, lower, west);
                let low = (1u64 << shape.sum.1) - 1;
                for p in west.iter_mut() {
                    *p = *p >> shape.sum.1 | (*p & low) << shape.sum.1;
                }
                if first.forbidden != (0, 0) || !self.reflect {
                    // The centre queen holds both long diagonals; small
                    // lists pay more for two passes than they save.
                    return weight * pairs::count(self.simd, east, west, shape.bits());
                }
                return self.count_reflected((east, west), weight, spare, shape);
            }
            // The item's rows are the west half's, shared by the group's
            // frames (one middle-column queen, the middle-row queens
            // apart): glued once, keeping off the middle-column queen. Each
            // frame's east halves carry its middle-row queen's pattern
            // bits, so that a west half on its diagonals meets none of them.
            west.clear();
            let keep_off = (first.west_forbidden, shape, 0);
            self.halves(rows, first.west, keep_off, lower, west);
            if west.is_empty() {
                return 0;
            }
            let mut total = 0;
            for frame in frames {
                east.clear();
                let keep_off = (frame.forbidden, shape, frame.middle_row);
                self.halves(others, frame.east, keep_off, lower, east);
                if !east.is_empty() {
                    total += weight * pairs::count(self.simd, east, west, shape.bits());
                }
            }
            total
        })
    }
}
