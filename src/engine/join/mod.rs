//! The join engine (work in progress, issue 11): counting by joining
//! half-boards instead of backtracking row by row (../shared/JOIN.md).
//!
//! For a board n = 2h (or 2h + 1, see below), every solution has h queens
//! in the east columns `0..h`; the set E of their rows is the work item.
//! The east half for E is glued from two quarters of the [quarter
//! table](quarter): the north-east one on the rows E ∩ north and some
//! columns C, the south-east one on E ∩ south and the other east columns,
//! kept if their diagonals do not meet. The west half is glued the same way
//! on the other rows. Rows and columns are disjoint by construction, so an
//! east and a west half make a solution exactly when they share no
//! diagonal; only the diagonals crossing the middle can be shared, 2h - 1
//! per direction, so a half is reduced to a pattern of at most 62 bits and
//! the count for E is the number of disjoint (east, west) [pattern
//! pairs](pairs).
//!
//! Odd n = 2h + 1: the middle row and column belong to no quarter. Either
//! the centre holds a queen (the join above, with the centre's diagonals
//! forbidden), or the middle row's queen Q1 = (h, h + a) and the middle
//! column's Q2 = (h + b, h) are off centre, with |a| != |b| (else they
//! attack). The 8 symmetries of the square move such pairs freely, (a, b)
//! to (-b, a) and (b, a) and their products: one (a, b) per orbit is
//! joined, over the other rows and columns with Q1's and Q2's diagonals
//! forbidden, and counted 8 times.
//!
//! Done so far: even and odd n (4..=24); for even n and the centre case
//! the east-west mirror and the north-south flip (E, its complement and
//! their reverses count alike); a bit-sliced pair counter (AVX-512 where
//! the CPU has it). Not yet: the diagonal reflections (about 1.9× more), a
//! sieve, unique counts (Burnside), memory planning, small n, the CLI. It
//! is not wired into `count`.

pub mod pairs;
pub mod quarter;

use std::ops::Range;

use self::quarter::QuarterTable;
use super::{Engine, EngineId, Fingerprint};
use crate::reduce::Tally;
use crate::{Error, Symmetry};

/// The version of the join's work items.
pub const FORMAT: u32 = 1;

/// What the queens outside the quarters leave to a join: the columns each
/// side may use, the rows, the diagonals they hold, and how many boards of
/// the orbit the join stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Frame {
    /// East and west columns free, as bit sets of the quarter's columns.
    east: u32,
    west: u32,
    /// North and south rows free, as bit sets of the quarter's rows.
    north: u32,
    south: u32,
    /// Diagonals held outside the quarters (rising, falling).
    forbidden: (u64, u64),
    /// The boards each counted solution stands for.
    weight: u64,
    /// Whether the frame is its own east-west mirror and north-south flip,
    /// so that its row sets can be folded into orbits (even n, the centre).
    symmetric: bool,
}

/// One work item: a frame and the east queens' rows in it.
#[derive(Clone, Copy, Debug)]
struct Item {
    frame: usize,
    north: u32,
    south: u32,
    /// The row sets this one stands for (its orbit under the mirror and
    /// the flip), times the frame's weight.
    weight: u64,
}

/// The join engine for one board.
#[derive(Clone, Debug)]
pub struct Join {
    n: usize,
    h: usize,
    table: QuarterTable,
    frames: Vec<Frame>,
    items: Vec<Item>,
}

impl Join {
    /// The join of the n×n board (4 <= n <= 24 for now).
    ///
    /// # Errors
    /// [`Error::BoardSize`] for n outside 4..=24.
    pub fn new(n: usize) -> Result<Join, Error> {
        if !(4..=24).contains(&n) {
            return Err(Error::BoardSize { n });
        }
        let h = n / 2;
        let frames = frames(n, h);
        let mut items = Vec::new();
        for (index, frame) in frames.iter().enumerate() {
            items_of(h, index, frame, &mut items);
        }
        Ok(Join {
            n,
            h,
            table: QuarterTable::new(h),
            frames,
            items,
        })
    }

    /// The patterns of the halves on the rows `north` and `south` and the
    /// columns `columns` (bit sets of the quarters' rows and columns), with
    /// their quarters' corners at column `c0`, that keep off `forbidden`.
    fn halves(
        &self,
        (north, south): (u32, u32),
        columns: u32,
        c0: usize,
        forbidden: (u64, u64),
    ) -> Vec<u64> {
        let (n, h) = (self.n, self.h);
        let below = n - h; // the south quarters' first row, the west's column
        let bits = 2 * h - 1;
        let shared = (1u64 << bits) - 1;
        let mut patterns = Vec::new();
        let mut lower: Vec<(u64, u64)> = Vec::new();
        let keeps_off = |(sum, diff): (u64, u64)| sum & forbidden.0 == 0 && diff & forbidden.1 == 0;
        let k = north.count_ones();
        for upper_columns in subsets(columns, k) {
            // The lower quarters placed and sifted once for all the upper
            // ones.
            lower.clear();
            lower.extend(
                self.table
                    .cell(south, columns ^ upper_columns)
                    .iter()
                    .map(|b| b.place(n, h, below, c0))
                    .filter(|&b| keeps_off(b)),
            );
            if lower.is_empty() {
                continue;
            }
            for a in self.table.cell(north, upper_columns) {
                let (a_sum, a_diff) = a.place(n, h, 0, c0);
                if !keeps_off((a_sum, a_diff)) {
                    continue;
                }
                for &(b_sum, b_diff) in &lower {
                    if (a_sum & b_sum) | (a_diff & b_diff) == 0 {
                        let (sum, diff) = (a_sum | b_sum, a_diff | b_diff);
                        patterns.push((sum >> below & shared) | (diff >> below & shared) << bits);
                    }
                }
            }
        }
        patterns
    }

    fn count_item(&self, item: &Item) -> u64 {
        let frame = &self.frames[item.frame];
        let east_rows = (item.north, item.south);
        let west_rows = (frame.north ^ item.north, frame.south ^ item.south);
        let east = self.halves(east_rows, frame.east, 0, frame.forbidden);
        if east.is_empty() {
            return 0;
        }
        let bits = 2 * self.h - 1;
        let west: Vec<u64> = if frame.symmetric {
            // Mirrored left to right, a west half on rows W is an east half
            // on rows W with its rising and falling diagonals swapped.
            let low = (1u64 << bits) - 1;
            self.halves(west_rows, frame.east, 0, frame.forbidden)
                .into_iter()
                .map(|p| p >> bits | (p & low) << bits)
                .collect()
        } else {
            self.halves(west_rows, frame.west, self.n - self.h, frame.forbidden)
        };
        item.weight * pairs::count_disjoint(&east, &west, 2 * bits)
    }
}

/// The subsets of `set` with `k` members: Gosper's walk over k-subsets of
/// `0..|set|`, each spread onto the members of `set`.
fn subsets(set: u32, k: u32) -> impl Iterator<Item = u32> {
    let size = set.count_ones();
    let first = if k == 0 { 0 } else { (1u32 << k) - 1 };
    let end = 1u64 << size;
    let mut next = (k <= size).then_some(first);
    std::iter::from_fn(move || {
        let current = next?;
        next = if current == 0 {
            None
        } else {
            // The next k-subset in order (Gosper's hack).
            let low = current & current.wrapping_neg();
            let ripple = current + low;
            let successor = (((ripple ^ current) >> 2) / low) | ripple;
            (u64::from(successor) < end).then_some(successor)
        };
        Some(spread(current, set))
    })
}

/// Bit i of `bits` placed on the i-th member of `set` (a software PDEP).
fn spread(mut bits: u32, set: u32) -> u32 {
    let (mut out, mut members) = (0, set);
    while bits != 0 && members != 0 {
        let member = members & members.wrapping_neg();
        if bits & 1 != 0 {
            out |= member;
        }
        bits >>= 1;
        members ^= member;
    }
    out
}

/// The frames of the n×n board: for even n the whole board; for odd n the
/// centre queen, and one pair (Q1, Q2) per orbit of the off-centre ones.
fn frames(n: usize, h: usize) -> Vec<Frame> {
    let all = (1u32 << h) - 1;
    let whole = Frame {
        east: all,
        west: all,
        north: all,
        south: all,
        forbidden: (0, 0),
        weight: 1,
        symmetric: true,
    };
    if n.is_multiple_of(2) {
        return vec![whole];
    }
    let diagonals = |r: usize, c: usize| (1u64 << (r + c), 1u64 << (r + n - 1 - c));
    let centre = diagonals(h, h);
    let mut frames = vec![Frame {
        forbidden: centre,
        ..whole
    }];
    let h_signed = h as i64;
    let offsets = (-h_signed..=h_signed).filter(|&x| x != 0);
    for a in offsets.clone() {
        for b in offsets.clone() {
            // Q1 = (h, h + a) and Q2 = (h + b, h) attack each other when
            // |a| == |b|; otherwise their orbit has 8 members.
            if a.abs() == b.abs() || (a, b) != canonical(a, b) {
                continue;
            }
            let (q1, q2) = (h as i64 + a, h as i64 + b);
            let (s1, d1) = diagonals(h, q1 as usize);
            let (s2, d2) = diagonals(q2 as usize, h);
            // The quarters' own columns and rows: east 0..h, west h+1..;
            // north 0..h, south h+1...
            let (mut east, mut west, mut north, mut south) = (all, all, all, all);
            if a < 0 {
                east &= !(1 << q1);
            } else {
                west &= !(1 << (q1 as usize - h - 1));
            }
            if b < 0 {
                north &= !(1 << q2);
            } else {
                south &= !(1 << (q2 as usize - h - 1));
            }
            frames.push(Frame {
                east,
                west,
                north,
                south,
                forbidden: (s1 | s2, d1 | d2),
                weight: 8,
                symmetric: false,
            });
        }
    }
    frames
}

/// The smallest of the 8 images of the off-centre pair (a, b) under the
/// square's symmetries: the quarter turn (a, b) -> (-b, a) and the
/// transpose (a, b) -> (b, a) generate them.
fn canonical(a: i64, b: i64) -> (i64, i64) {
    let mut best = (a, b);
    let mut current = (a, b);
    for _ in 0..4 {
        current = (-current.1, current.0);
        best = best.min(current).min((current.1, current.0));
    }
    best
}

/// The work items of a frame: every split of its rows between east (as
/// many as its east columns) and west; for a symmetric frame, one per orbit
/// under the mirror and the flip.
fn items_of(h: usize, index: usize, frame: &Frame, items: &mut Vec<Item>) {
    let wanted = frame.east.count_ones();
    let rows = |north: u32, south: u32| u64::from(north) | u64::from(south) << h;
    let reverse = |bits: u32| bits.reverse_bits() >> (32 - h);
    for north in 0u32..1 << h {
        if north & !frame.north != 0 {
            continue;
        }
        for south in 0u32..1 << h {
            if south & !frame.south != 0 || north.count_ones() + south.count_ones() != wanted {
                continue;
            }
            let mut weight = frame.weight;
            if frame.symmetric {
                // E, its complement (the east-west mirror), its reverse
                // (the north-south flip) and the reverse's complement count
                // alike: the smallest stands for all of them.
                let (flip_north, flip_south) = (reverse(south), reverse(north));
                let (other_north, other_south) = (frame.north ^ north, frame.south ^ south);
                let mut orbit = [
                    rows(north, south),
                    rows(other_north, other_south),
                    rows(flip_north, flip_south),
                    rows(frame.north ^ flip_north, frame.south ^ flip_south),
                ];
                if orbit[0] != *orbit.iter().min().expect("four row sets") {
                    continue;
                }
                orbit.sort_unstable();
                weight *= 1 + orbit.windows(2).filter(|w| w[0] != w[1]).count() as u64;
            }
            items.push(Item {
                frame: index,
                north,
                south,
                weight,
            });
        }
    }
}

impl Engine for Join {
    fn fingerprint(&self) -> Fingerprint {
        Fingerprint {
            engine: EngineId::Join,
            n: self.n,
            symmetry: Symmetry::None,
            depth: self.h,
            format: FORMAT,
        }
    }

    fn items(&self) -> usize {
        self.items.len()
    }

    fn cost(&self, _item: usize) -> f64 {
        1.0
    }

    fn count(&self, items: Range<usize>) -> Tally {
        let weighted = self.items[items]
            .iter()
            .map(|item| u128::from(self.count_item(item)))
            .sum();
        Tally {
            weighted,
            ..Tally::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oeis::known_total;

    #[test]
    fn the_join_counts_every_board_as_oeis_lists() {
        for n in 4..=16 {
            let join = Join::new(n).unwrap();
            let total = join.count(0..join.items()).total();
            assert_eq!(Some(total as u64), known_total(n), "n = {n}");
        }
    }

    #[test]
    fn off_centre_pairs_fall_into_orbits_of_eight() {
        let h = 5i64;
        let pairs: Vec<(i64, i64)> = (-h..=h)
            .flat_map(|a| (-h..=h).map(move |b| (a, b)))
            .filter(|&(a, b)| a != 0 && b != 0 && a.abs() != b.abs())
            .collect();
        let canonical_ones = pairs
            .iter()
            .filter(|&&(a, b)| canonical(a, b) == (a, b))
            .count();
        assert_eq!(canonical_ones * 8, pairs.len());
    }

    #[test]
    fn subsets_walks_every_k_subset_of_a_set_once() {
        for set in [0b1011_0110u32, 0b1111, 0] {
            for k in 0..=set.count_ones() + 1 {
                let mut got: Vec<u32> = subsets(set, k).collect();
                got.sort_unstable();
                let mut want: Vec<u32> = (0..=set)
                    .filter(|&x| x & !set == 0 && x.count_ones() == k)
                    .collect();
                want.sort_unstable();
                assert_eq!(got, want, "set {set:b} k {k}");
            }
        }
    }

    #[test]
    fn boards_outside_four_to_twenty_four_are_refused() {
        assert_eq!(Join::new(3).unwrap_err(), Error::BoardSize { n: 3 });
        assert_eq!(Join::new(25).unwrap_err(), Error::BoardSize { n: 25 });
    }
}
