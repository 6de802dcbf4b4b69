//! The join engine (work in progress, issue 11): counting by joining
//! half-boards instead of backtracking row by row (../shared/JOIN.md).
//!
//! For an even board n = 2h, every solution has h queens in the east
//! columns `0..h`; the set E of their rows is the work item. The east half
//! for E is glued from two quarters of the [quarter table](quarter): the
//! north-east one on the rows E ∩ north and some columns C, the south-east
//! one on E ∩ south and the other east columns, kept if their diagonals do
//! not meet. The west half is glued the same way on the other rows. Rows
//! and columns are disjoint by construction, so an east and a west half
//! make a solution exactly when they share no diagonal; only the diagonals
//! crossing the middle column can be shared, 2h - 1 per direction, so a
//! half is reduced to a 62-bit (at most) pattern of them and the count for
//! E is the number of disjoint (east, west) [pattern pairs](pairs).
//!
//! Done so far: even n, the east-west mirror and the north-south flip (E,
//! its complement and their reverses count alike), a bit-sliced pair
//! counter (AVX-512 where the CPU has it).
//! Not yet: odd n, the diagonal reflections (about 1.9× more), unique counts
//! (Burnside), memory planning, the CLI. It is not wired into `count`.

pub mod pairs;
pub mod quarter;

use std::ops::Range;

use self::quarter::{Quarter, QuarterTable};
use super::{Engine, EngineId, Fingerprint};
use crate::reduce::Tally;
use crate::{Error, Symmetry};

/// The version of the join's work items.
pub const FORMAT: u32 = 1;

/// The join engine for one board.
#[derive(Clone, Debug)]
pub struct Join {
    n: usize,
    h: usize,
    table: QuarterTable,
    /// The work items: the east queens' rows, (north rows, south rows) as
    /// bit sets of the half's h rows, the smallest of its row sets that
    /// count alike, and how many those are.
    items: Vec<(u32, u32, u64)>,
}

impl Join {
    /// The join of the n×n board (even n, 2 <= n <= 24 for now).
    ///
    /// # Errors
    /// [`Error::BoardSize`] for odd n or n outside 2..=24.
    pub fn new(n: usize) -> Result<Join, Error> {
        if n % 2 == 1 || !(2..=24).contains(&n) {
            return Err(Error::BoardSize { n });
        }
        let h = n / 2;
        // E, its complement (the east-west mirror, see `count_item`), its
        // reverse (the north-south flip keeps east and west) and the
        // reverse's complement all give the same count: only the smallest
        // of them is an item, weighted by how many they are.
        let all = (1u32 << h) - 1;
        let rows = |north: u32, south: u32| u64::from(north) | u64::from(south) << h;
        let reverse = |bits: u32| bits.reverse_bits() >> (32 - h);
        let mut items = Vec::new();
        for north in 0u32..1 << h {
            for south in 0u32..1 << h {
                if (north.count_ones() + south.count_ones()) as usize != h {
                    continue;
                }
                let (flip_north, flip_south) = (reverse(south), reverse(north));
                let mut orbit = [
                    rows(north, south),
                    rows(all ^ north, all ^ south),
                    rows(flip_north, flip_south),
                    rows(all ^ flip_north, all ^ flip_south),
                ];
                if orbit[0] != *orbit.iter().min().expect("four row sets") {
                    continue;
                }
                orbit.sort_unstable();
                let weight = 1 + orbit.windows(2).filter(|w| w[0] != w[1]).count() as u64;
                items.push((north, south, weight));
            }
        }
        Ok(Join {
            n,
            h,
            table: QuarterTable::new(h),
            items,
        })
    }

    /// The patterns of the halves on the rows `north` and `south` (bit sets
    /// of the half's rows) whose quarters stand with their corners at
    /// column `c0` (0: east, h: west).
    fn halves(&self, north: u32, south: u32, c0: usize) -> Vec<u64> {
        let h = self.h;
        let all = (1u32 << h) - 1;
        let shared = (1u64 << (2 * h - 1)) - 1;
        let mut patterns = Vec::new();
        let k = north.count_ones();
        for columns in (0..=all).filter(|c| c.count_ones() == k) {
            let upper: &[Quarter] = self.table.cell(north, columns);
            let lower: &[Quarter] = self.table.cell(south, all ^ columns);
            for a in upper {
                let (a_sum, a_diff) = a.place(h, 0, c0);
                for b in lower {
                    let (b_sum, b_diff) = b.place(h, h, c0);
                    if a_sum & b_sum == 0 && a_diff & b_diff == 0 {
                        let sum = (a_sum | b_sum) >> h & shared;
                        let diff = (a_diff | b_diff) >> h & shared;
                        patterns.push(sum | diff << (2 * h - 1));
                    }
                }
            }
        }
        patterns
    }

    /// The solutions with the east queens on the rows of item `item`,
    /// times the row sets that count alike.
    ///
    /// Mirrored left to right, a west half on rows W is an east half on
    /// rows W with its rising and falling diagonals swapped; so the west
    /// halves for E are the east halves for the other rows, swapped, and
    /// the count for the other rows is the count for E.
    fn count_item(&self, item: usize) -> u64 {
        let (north, south, weight) = self.items[item];
        let all = (1u32 << self.h) - 1;
        let east = self.halves(north, south, 0);
        if east.is_empty() {
            return 0;
        }
        let bits = 2 * self.h - 1;
        let low = (1u64 << bits) - 1;
        let west: Vec<u64> = self
            .halves(all ^ north, all ^ south, 0)
            .into_iter()
            .map(|p| p >> bits | (p & low) << bits)
            .collect();
        weight * pairs::count_disjoint(&east, &west, 2 * bits)
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
        let weighted = items.map(|i| u128::from(self.count_item(i))).sum();
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
    fn the_join_counts_even_boards_as_oeis_lists() {
        for n in (2..=12).step_by(2) {
            let join = Join::new(n).unwrap();
            let total = join.count(0..join.items()).total();
            assert_eq!(Some(total as u64), known_total(n), "n = {n}");
        }
    }

    #[test]
    fn odd_boards_are_not_joined_yet() {
        assert_eq!(Join::new(9).unwrap_err(), Error::BoardSize { n: 9 });
    }
}
