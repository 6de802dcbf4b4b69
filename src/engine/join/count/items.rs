//! The work items of a join (a group of frames and the rows of the half
//! glued once for all of them) and what each may cost, bounded from the
//! quarter cells' sizes before any table is filled.

use super::frames::{Fold, Frame};
use super::quarter;
use super::splits::Splits;

/// One work item: a group of frames and the rows of the half built once
/// for all of them (the east half's for a mirror frame, else the west's),
/// or one of the searches for the rotations' fixed points
/// ([`Item::fixed`]), placed among them.
#[derive(Clone, Copy, Debug)]
pub(in crate::engine::join) struct Item {
    pub(in crate::engine::join) group: u32,
    pub(in crate::engine::join) north: u16,
    pub(in crate::engine::join) south: u16,
    /// The row sets this one stands for (its orbit under the flip, and the
    /// mirror), times the frame's weight.
    pub(in crate::engine::join) weight: u32,
}

/// The group of a fixed-point item: no group of frames.
const FIXED: u32 = u32::MAX;

impl Item {
    /// Fixed-point item `index` ([`burnside::fixed_item`](super::burnside::fixed_item)).
    pub(in crate::engine::join) fn fixed(index: usize) -> Item {
        Item {
            group: FIXED,
            north: u16::try_from(index).expect("2n fixed-point items"),
            south: 0,
            weight: 0,
        }
    }

    /// Which fixed-point item this is, if it is one (else it joins pairs).
    pub(in crate::engine::join) fn fixed_index(&self) -> Option<usize> {
        (self.group == FIXED).then_some(usize::from(self.north))
    }
}

/// What one item's halves may glue, at most: for each half, the sum over
/// its column splits of the two quarter cells' sizes multiplied.
#[derive(Clone, Copy, Debug, Default)]
pub(in crate::engine::join) struct Bound {
    /// The largest east and west halves.
    pub(in crate::engine::join) east: u64,
    pub(in crate::engine::join) west: u64,
    /// The largest lower cell placed on the way.
    pub(in crate::engine::join) lower: u64,
    /// All the halves the item glues.
    pub(in crate::engine::join) glue: u64,
    /// The pairs of glued halves it compares.
    pub(in crate::engine::join) pairs: f64,
}

/// What `item` of the frames `frames` may glue, from the quarter cells'
/// sizes: the definition, split by split ([`Gathered::bound`] gives the
/// same numbers faster, and is what lays the boards out).
#[cfg(test)]
pub(in crate::engine::join) fn bound(
    sizes: &quarter::CellSizes,
    splits: &Splits,
    frames: &[Frame],
    item: &Item,
) -> Bound {
    bound_by(frames, item, |(north, south), columns| {
        let (mut glued, mut lower) = (0u64, 0u64);
        for &upper_columns in splits.of(columns, north.count_ones()) {
            let below = u64::from(sizes.cell(south, columns ^ upper_columns));
            glued += u64::from(sizes.cell(north, upper_columns)) * below;
            lower = lower.max(below);
        }
        (glued, lower)
    })
}

/// An item's bound from `side`, which gives for rows (north, south) and a
/// half's columns the halves its splits may glue and the largest lower
/// cell on the way.
fn bound_by(frames: &[Frame], item: &Item, side: impl Fn((u32, u32), u32) -> (u64, u64)) -> Bound {
    let first = &frames[0];
    let rows = (u32::from(item.north), u32::from(item.south));
    let others = (first.north ^ rows.0, first.south ^ rows.1);
    if first.fold == Fold::MirrorAndFlip {
        let (east, east_lower) = side(rows, first.east.columns);
        let (west, west_lower) = side(others, first.east.columns);
        return Bound {
            east,
            west,
            lower: east_lower.max(west_lower),
            glue: east + west,
            pairs: east as f64 * west as f64,
        };
    }
    let (west, west_lower) = side(rows, first.west.columns);
    let mut bound = Bound {
        west,
        lower: west_lower,
        glue: west,
        ..Bound::default()
    };
    for frame in frames {
        let (east, east_lower) = side(others, frame.east.columns);
        bound.east = bound.east.max(east);
        bound.lower = bound.lower.max(east_lower);
        bound.glue += east;
        bound.pairs += east as f64 * west as f64;
    }
    bound
}

/// The quarter cells' sizes gathered for bounding items: for every column
/// set a half may take and every row set, the sizes of the cells on those
/// rows and each split of the columns, in the order the splits are listed
/// (`Splits::of`), side by side. A half's bound is then a dot product of
/// two of them, one read backwards (the complement of the i-th k-subset
/// of m columns is the (L-1-i)-th (m-k)-subset, L of each), where
/// [`bound`] looks each cell up in a 64 MiB table: 72 s of n = 25's 78 s
/// layout on the 2-core AMD EPYC. It takes C(h+m, h) sizes a column set
/// (2.7 million at h = m = 12, 16 bits each).
pub(in crate::engine::join) struct Gathered {
    /// For each column set (by its bits), its place among those gathered.
    set: Vec<u32>,
    /// For each (place, row set): where its sizes start; one more at the
    /// end.
    starts: Vec<u32>,
    sizes: Vec<u16>,
    /// For each (place, row set): the largest of its sizes.
    largest: Vec<u16>,
    h: usize,
}

impl Gathered {
    /// The sizes of the column sets `splits` lists (h×h quarters, whose
    /// cells hold at most 15,003 placements to h = 12: 16 bits each).
    pub(in crate::engine::join) fn new(
        h: usize,
        sizes: &quarter::CellSizes,
        splits: &Splits,
    ) -> Gathered {
        let used: Vec<u32> = (0..1u32 << h)
            .filter(|&c| !splits.lists[c as usize].is_empty())
            .collect();
        let mut set = vec![u32::MAX; 1 << h];
        for (place, &columns) in used.iter().enumerate() {
            set[columns as usize] = place as u32;
        }
        let mut starts = Vec::with_capacity((used.len() << h) + 1);
        let mut gathered = Vec::new();
        let mut largest = Vec::with_capacity(used.len() << h);
        for &columns in &used {
            for rows in 0..1u32 << h {
                starts.push(u32::try_from(gathered.len()).expect("under 2^32 sizes"));
                let mut most = 0;
                for &split in splits.of(columns, rows.count_ones()) {
                    let size = u16::try_from(sizes.cell(rows, split))
                        .expect("cells of at most 15,003 placements to h = 12");
                    most = most.max(size);
                    gathered.push(size);
                }
                largest.push(most);
            }
        }
        starts.push(u32::try_from(gathered.len()).expect("under 2^32 sizes"));
        Gathered {
            set,
            starts,
            sizes: gathered,
            largest,
            h,
        }
    }

    /// The sizes of the cells on `rows` and each split of `columns`.
    fn of(&self, rows: u32, columns: u32) -> (&[u16], u16) {
        let at = ((self.set[columns as usize] as usize) << self.h) + rows as usize;
        let range = self.starts[at] as usize..self.starts[at + 1] as usize;
        (&self.sizes[range], self.largest[at])
    }

    /// What `item` may glue: [`bound`]'s numbers.
    pub(in crate::engine::join) fn bound(&self, frames: &[Frame], item: &Item) -> Bound {
        bound_by(frames, item, |(north, south), columns| {
            if north.count_ones() + south.count_ones() != columns.count_ones() {
                return (0, 0); // no split fills both cells
            }
            let (upper, _) = self.of(north, columns);
            let (lower, largest) = self.of(south, columns);
            (dot_reversed(upper, lower), u64::from(largest))
        })
    }
}

/// The work items of a frame: every split of its rows between east (as
/// many as its east columns) and west, one per orbit under the frame's
/// fold.
pub(in crate::engine::join) fn items_of(
    h: usize,
    index: usize,
    frame: &Frame,
    items: &mut Vec<Item>,
) {
    items.extend(row_sets(h, frame).filter_map(|rows| item_of(h, index, frame, rows)));
}

/// How many work items [`items_of`] makes of a frame, storing none.
pub(in crate::engine::join) fn count_items_of(h: usize, frame: &Frame) -> usize {
    row_sets(h, frame)
        .filter(|&rows| item_of(h, 0, frame, rows).is_some())
        .count()
}

/// The row sets (north, south) of the half a frame's items glue once:
/// [`wanted`] rows inside the frame's.
fn row_sets(h: usize, frame: &Frame) -> impl Iterator<Item = (u32, u32)> + '_ {
    let wanted = wanted(frame);
    (0u32..1 << h)
        .filter(move |north| north & !frame.north == 0)
        .flat_map(move |north| {
            (0u32..1 << h)
                .filter(move |south| {
                    south & !frame.south == 0 && north.count_ones() + south.count_ones() == wanted
                })
                .map(move |south| (north, south))
        })
}

/// How many rows the half built once holds: the east's for a mirror
/// frame, else the west's (as many as its columns).
pub(in crate::engine::join) fn wanted(frame: &Frame) -> u32 {
    match frame.fold {
        Fold::MirrorAndFlip => frame.east.columns.count_ones(),
        Fold::None => frame.west.columns.count_ones(),
    }
}

/// The item of group `index` (whose first frame is `frame`) on the rows
/// `(north, south)` of the half built once ([`wanted`] of them, inside
/// the frame's rows), with its weight; `None` if another row set of its
/// orbit stands for it.
pub(in crate::engine::join) fn item_of(
    h: usize,
    index: usize,
    frame: &Frame,
    (north, south): (u32, u32),
) -> Option<Item> {
    let rows = |north: u32, south: u32| u64::from(north) | u64::from(south) << h;
    let reverse = |bits: u32| bits.reverse_bits() >> (32 - h);
    let mut weight = frame.weight;
    if frame.fold == Fold::MirrorAndFlip {
        // E, its complement (the east-west mirror), its reverse (the
        // north-south flip) and the reverse's complement count alike: the
        // smallest stands for all of them.
        let (flip_north, flip_south) = (reverse(south), reverse(north));
        let mut orbit = [
            rows(north, south),
            rows(frame.north ^ north, frame.south ^ south),
            rows(flip_north, flip_south),
            rows(frame.north ^ flip_north, frame.south ^ flip_south),
        ];
        if orbit[0] != *orbit.iter().min().expect("four row sets") {
            return None;
        }
        orbit.sort_unstable();
        weight *= 1 + orbit.windows(2).filter(|w| w[0] != w[1]).count() as u64;
    }
    Some(Item {
        group: index as u32,
        north: north as u16,
        south: south as u16,
        weight: weight as u32,
    })
}

/// Σ a[i]·b[len-1-i], for equal lengths: 64 products at a time, eight to
/// each of eight 32-bit lanes (a product is below 15,003², eight below
/// 2³¹), which the compiler keeps in vector registers.
fn dot_reversed(a: &[u16], b: &[u16]) -> u64 {
    const BLOCK: usize = 64;
    const LANES: usize = 8;
    debug_assert_eq!(a.len(), b.len());
    let mut sum = 0u64;
    let (a_blocks, b_blocks) = (a.chunks_exact(BLOCK), b.rchunks_exact(BLOCK));
    let (a_rest, b_rest) = (a_blocks.remainder(), b_blocks.remainder());
    for (x, y) in a_blocks.zip(b_blocks) {
        let mut lanes = [0u32; LANES];
        for (x, y) in x.chunks_exact(LANES).zip(y.rchunks_exact(LANES)) {
            for lane in 0..LANES {
                lanes[lane] += u32::from(x[lane]) * u32::from(y[LANES - 1 - lane]);
            }
        }
        sum += lanes.iter().map(|&lane| u64::from(lane)).sum::<u64>();
    }
    // The tail of `a` meets the head of `b`.
    for (&u, &l) in a_rest.iter().zip(b_rest.iter().rev()) {
        sum += u64::from(u32::from(u) * u32::from(l));
    }
    sum
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::join::count::frames::{frames, groups};

    #[test]
    fn gathered_sizes_bound_every_item_as_the_definition_does() {
        // Odd boards (groups of many frames) and even ones (mirror and
        // flip): the same numbers, bit for bit, so the items' costs and
        // order (FORMAT 6) do not move.
        for n in 4..=19 {
            let h = n / 2;
            let sizes = quarter::CellSizes::new(h, h);
            let frames = frames(n, h);
            let splits = Splits::new(h, &frames);
            let gathered = Gathered::new(h, &sizes, &splits);
            for (index, group) in groups(&frames).iter().enumerate() {
                let mut items = Vec::new();
                items_of(h, index, &frames[group.start], &mut items);
                let frames = &frames[group.clone()];
                for item in &items {
                    let (a, b) = (
                        bound(&sizes, &splits, frames, item),
                        gathered.bound(frames, item),
                    );
                    assert_eq!(
                        (a.east, a.west, a.lower, a.glue, a.pairs.to_bits()),
                        (b.east, b.west, b.lower, b.glue, b.pairs.to_bits()),
                        "n = {n}, item {item:?}"
                    );
                }
            }
        }
    }
}
