//! The work items of the largest boards (from [`LISTED_TO`](crate::engine::join::LISTED_TO)
//! + 1), worked out from their index instead of listed and costed.
//!
//! Listing the items and bounding each one's cost needs every quarter
//! cell's size: 2^(2h) cells, 4 GiB at h = 15, and 11 minutes to bound
//! n = 27's 7 × 10⁷ items; n = 32 would have 1.5 × 10⁸ items (6 × 10⁸ row
//! sets before the mirror and flip fold them) and n = 31 about 10⁹. Here a
//! slot is one (group, row set) of the items' space, or one of the
//! [fixed-point searches](crate::engine::join::count::burnside): slots are numbered group by
//! group, each group's row sets in the combinatorial number system, the
//! searches last; the slots are put in a fixed pseudo-random order (a
//! Feistel permutation), and work item i is the i-th block of
//! `per_item` slots in that order. A row set that another of its
//! orbit stands for is an empty slot.
//!
//! So items are worked out in a microsecond from their index, the same on
//! every machine (integer arithmetic only), and every stretch of items is
//! a random sample of all the slots: contiguous shards, MPI's hand-outs
//! and the part of a count done so far take their share of the time
//! without a cost model (a shard of m slots strays from its share by
//! about the slots' spread over √m). Every item counts as its slots.

use crate::engine::join::count::burnside;
use crate::engine::join::count::frames::Frame;
use crate::engine::join::count::items::{item_of, wanted, Item};
use crate::engine::join::count::splits::spread;
use crate::stats::mix;

/// The most work items a board is cut into: blocks of slots are made
/// large enough to stay under it (n = 26: 3 slots an item; n = 32: 144),
/// so that what is kept per item above the engine (costs, journals,
/// hand-outs) stays bounded at every n.
pub(in crate::engine::join) const MOST_ITEMS: u64 = 1 << 22;

/// One group's slots: its row sets of the half glued once.
#[derive(Clone, Debug)]
struct Group {
    /// Its first slot.
    first: u64,
    /// The rows it may take: north in the low h bits, south above.
    rows: u64,
    /// How many of them a row set holds.
    wanted: u32,
    /// The group's first frame (its fold and rows).
    frame: Frame,
}

/// The slots of one board and the blocks they are cut into.
#[derive(Clone, Debug)]
pub(in crate::engine::join) struct Slots {
    h: usize,
    groups: Vec<Group>,
    /// Slots that join pairs (the fixed-point searches follow).
    pairs: u64,
    total: u64,
    per_item: u64,
    shuffle: Shuffle,
}

impl Slots {
    /// The slots of the n×n board whose groups start with the frames
    /// `firsts`.
    pub(in crate::engine::join) fn new(n: usize, h: usize, firsts: &[Frame]) -> Slots {
        let mut first = 0;
        let groups = firsts
            .iter()
            .map(|frame| {
                let rows = u64::from(frame.north) | u64::from(frame.south) << h;
                let group = Group {
                    first,
                    rows,
                    wanted: wanted(frame),
                    frame: *frame,
                };
                first += binomial(rows.count_ones(), group.wanted);
                group
            })
            .collect();
        let pairs = first;
        let total = pairs + burnside::items(n) as u64;
        Slots {
            h,
            groups,
            pairs,
            total,
            per_item: total.div_ceil(MOST_ITEMS).max(1),
            shuffle: Shuffle::new(total),
        }
    }

    /// The work items.
    pub(in crate::engine::join) fn items(&self) -> usize {
        self.total.div_ceil(self.per_item) as usize
    }

    /// The slots of work item `index`.
    pub(in crate::engine::join) fn slots(&self, index: usize) -> std::ops::Range<u64> {
        let start = (index as u64 * self.per_item).min(self.total);
        start..(start + self.per_item).min(self.total)
    }

    /// The items in work item `index` (its empty slots left out), in its
    /// order.
    pub(in crate::engine::join) fn items_of(
        &self,
        index: usize,
    ) -> impl Iterator<Item = Item> + '_ {
        self.slots(index).filter_map(|place| self.at(place))
    }

    /// All the slots, empty ones included.
    pub(in crate::engine::join) fn total(&self) -> u64 {
        self.total
    }

    /// Slots per work item.
    pub(in crate::engine::join) fn per_item(&self) -> u64 {
        self.per_item
    }

    /// What the slot at place `place` of the order holds.
    pub(in crate::engine::join) fn at(&self, place: u64) -> Option<Item> {
        self.slot(self.shuffle.apply(place))
    }

    /// What slot `slot` holds: a pair item, a fixed-point search, or
    /// nothing (a row set its orbit's smallest stands for).
    fn slot(&self, slot: u64) -> Option<Item> {
        if slot >= self.pairs {
            return Some(Item::fixed((slot - self.pairs) as usize));
        }
        let index = self.groups.partition_point(|g| g.first <= slot) - 1;
        let group = &self.groups[index];
        let rows = spread(unrank(slot - group.first, group.wanted), group.rows);
        let mask = (1u64 << self.h) - 1;
        let (north, south) = ((rows & mask) as u32, (rows >> self.h) as u32);
        item_of(self.h, index, &group.frame, (north, south))
    }

    /// The work items that hold a fixed-point search (the slots after
    /// the pairs'), in order.
    pub(in crate::engine::join) fn items_with_fixed_points(&self) -> Vec<usize> {
        let mut items: Vec<usize> = (self.pairs..self.total)
            .map(|slot| (self.shuffle.place_of(slot) / self.per_item) as usize)
            .collect();
        items.sort_unstable();
        items.dedup();
        items
    }

    /// The bytes the slots take.
    pub(in crate::engine::join) fn bytes(&self) -> u64 {
        (self.groups.len() * std::mem::size_of::<Group>()) as u64
    }
}

/// C(m, k) for m, k <= 32 (a row set of at most 2h = 32 rows).
fn binomial(m: u32, k: u32) -> u64 {
    BINOMIALS[m as usize][k as usize]
}

/// Pascal's triangle to row 32 (C(m, k) = 0 for k > m).
const BINOMIALS: [[u64; 33]; 33] = {
    let mut table = [[0u64; 33]; 33];
    let mut m = 0;
    while m <= 32 {
        table[m][0] = 1;
        let mut k = 1;
        while k <= m {
            table[m][k] = table[m - 1][k - 1] + table[m - 1][k];
            k += 1;
        }
        m += 1;
    }
    table
};

/// The k-subset of `0..32` of rank `rank` in the combinatorial number
/// system: {c_k > ... > c_1} has rank Σ C(c_i, i).
fn unrank(mut rank: u64, k: u32) -> u64 {
    let mut set = 0u64;
    for i in (1..=k).rev() {
        // The largest c with C(c, i) <= rank (c >= i - 1, C(i - 1, i) = 0).
        let mut c = i - 1;
        while c < 32 && binomial(c + 1, i) <= rank {
            c += 1;
        }
        rank -= binomial(c, i);
        set |= 1 << c;
    }
    set
}

/// A fixed pseudo-random permutation of `0..total`: a four-round Feistel
/// network on the smallest even number of bits that holds `total`, walked
/// again from any value past `total` until it lands inside (cycle walking:
/// at most four times the range, so a few steps on average).
#[derive(Clone, Debug)]
struct Shuffle {
    total: u64,
    half: u32,
}

/// The rounds' keys: any fixed values do (these are the first digits of
/// π in hexadecimal); they are part of the items' format.
const KEYS: [u64; 4] = [
    0x243F_6A88_85A3_08D3,
    0x1319_8A2E_0370_7344,
    0xA409_3822_299F_31D0,
    0x082E_FA98_EC4E_6C89,
];

impl Shuffle {
    fn new(total: u64) -> Shuffle {
        let bits = 64 - total.saturating_sub(1).leading_zeros();
        Shuffle {
            total,
            half: bits.div_ceil(2).max(1),
        }
    }

    /// Where place `place` (below the total) goes.
    fn apply(&self, place: u64) -> u64 {
        debug_assert!(place < self.total);
        let mut value = self.round_trip(place);
        while value >= self.total {
            value = self.round_trip(value);
        }
        value
    }

    /// The place that goes to `slot`: [`Shuffle::apply`] undone, the
    /// rounds in reverse, walked the same way.
    fn place_of(&self, slot: u64) -> u64 {
        debug_assert!(slot < self.total);
        let mut value = self.round_trip_back(slot);
        while value >= self.total {
            value = self.round_trip_back(value);
        }
        value
    }

    fn round_trip(&self, value: u64) -> u64 {
        let mask = (1u64 << self.half) - 1;
        let (mut left, mut right) = (value >> self.half, value & mask);
        for key in KEYS {
            (left, right) = (right, left ^ (mix(right ^ key) & mask));
        }
        left << self.half | right
    }

    fn round_trip_back(&self, value: u64) -> u64 {
        let mask = (1u64 << self.half) - 1;
        let (mut left, mut right) = (value >> self.half, value & mask);
        for key in KEYS.iter().rev() {
            (left, right) = (right ^ (mix(left ^ key) & mask), left);
        }
        left << self.half | right
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shuffle_permutes_every_range() {
        for total in [1u64, 2, 3, 5, 16, 17, 1000, 4097] {
            let shuffle = Shuffle::new(total);
            let mut seen = vec![false; total as usize];
            for place in 0..total {
                let slot = shuffle.apply(place);
                assert!(!seen[slot as usize], "total {total}: {slot} twice");
                seen[slot as usize] = true;
                assert_eq!(shuffle.place_of(slot), place, "total {total}");
            }
        }
    }

    #[test]
    fn unranking_walks_every_k_subset_once_in_order() {
        for (m, k) in [(6u32, 3u32), (8, 0), (8, 8), (10, 4)] {
            let subsets: Vec<u64> = (0..binomial(m, k)).map(|r| unrank(r, k)).collect();
            assert!(subsets.iter().all(|s| s.count_ones() == k && s >> m == 0));
            assert!(subsets.windows(2).all(|w| w[0] < w[1]), "m {m} k {k}");
        }
        assert_eq!(binomial(32, 16), 601_080_390);
    }
}
