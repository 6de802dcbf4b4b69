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
pub(super) struct Item {
    pub(super) group: u32,
    pub(super) north: u16,
    pub(super) south: u16,
    /// The row sets this one stands for (its orbit under the flip, and the
    /// mirror), times the frame's weight.
    pub(super) weight: u32,
}

/// The group of a fixed-point item: no group of frames.
const FIXED: u32 = u32::MAX;

impl Item {
    /// Fixed-point item `index` ([`burnside::fixed_item`](super::burnside::fixed_item)).
    pub(super) fn fixed(index: usize) -> Item {
        Item {
            group: FIXED,
            north: u16::try_from(index).expect("2n fixed-point items"),
            south: 0,
            weight: 0,
        }
    }

    /// Which fixed-point item this is, if it is one (else it joins pairs).
    pub(super) fn fixed_index(&self) -> Option<usize> {
        (self.group == FIXED).then_some(usize::from(self.north))
    }
}

/// What one item's halves may glue, at most: for each half, the sum over
/// its column splits of the two quarter cells' sizes multiplied.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Bound {
    /// The largest east and west halves.
    pub(super) east: u64,
    pub(super) west: u64,
    /// The largest lower cell placed on the way.
    pub(super) lower: u64,
    /// All the halves the item glues.
    pub(super) glue: u64,
    /// The pairs of glued halves it compares.
    pub(super) pairs: f64,
}

/// What `item` of the frames `frames` may glue, from the quarter cells'
/// sizes.
pub(super) fn bound(
    sizes: &quarter::CellSizes,
    splits: &Splits,
    frames: &[Frame],
    item: &Item,
) -> Bound {
    let side = |(north, south): (u32, u32), columns: u32| {
        let (mut glued, mut lower) = (0u64, 0u64);
        for &upper_columns in splits.of(columns, north.count_ones()) {
            let below = u64::from(sizes.cell(south, columns ^ upper_columns));
            glued += u64::from(sizes.cell(north, upper_columns)) * below;
            lower = lower.max(below);
        }
        (glued, lower)
    };
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

/// The work items of a frame: every split of its rows between east (as
/// many as its east columns) and west, one per orbit under the frame's
/// fold.
pub(super) fn items_of(h: usize, index: usize, frame: &Frame, items: &mut Vec<Item>) {
    let wanted = wanted(frame);
    for north in 0u32..1 << h {
        if north & !frame.north != 0 {
            continue;
        }
        for south in 0u32..1 << h {
            if south & !frame.south != 0 || north.count_ones() + south.count_ones() != wanted {
                continue;
            }
            items.extend(item_of(h, index, frame, (north, south)));
        }
    }
}

/// How many rows the half built once holds: the east's for a mirror
/// frame, else the west's (as many as its columns).
pub(super) fn wanted(frame: &Frame) -> u32 {
    match frame.fold {
        Fold::MirrorAndFlip => frame.east.columns.count_ones(),
        Fold::None => frame.west.columns.count_ones(),
    }
}

/// The item of group `index` (whose first frame is `frame`) on the rows
/// `(north, south)` of the half built once ([`wanted`] of them, inside
/// the frame's rows), with its weight; `None` if another row set of its
/// orbit stands for it.
pub(super) fn item_of(
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
