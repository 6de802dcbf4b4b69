//! The layout of a join before its table is filled: frames, items in
//! their order (by cost, interleaved), and the memory plan; worked out
//! once a process per board.

use std::ops::Range;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use rayon::prelude::*;

use super::cost;
use super::slots::Slots;
use crate::engine::join::count::burnside;
use crate::engine::join::count::frames::{frames, groups, Frame};
use crate::engine::join::count::glue::{keyed, RUN};
use crate::engine::join::count::items::{count_items_of, items_of, Bound, Gathered, Item};
use crate::engine::join::count::quarter::{self, Source};
use crate::engine::join::count::splits::Splits;
use crate::engine::join::count::SEARCHED_FILL_MOST;
use crate::engine::join::{Join, JoinLayout, SMALLEST_JOINED, WHOLE_TABLE_BYTES};
use crate::problem::{check_board_size, Error};

/// What a join needs in memory, in bytes, planned before it allocates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct MemoryPlan {
    /// The quarter tables.
    pub tables: u64,
    /// The work items and their costs.
    pub items: u64,
    /// Each thread's scratch: the largest half lists one item can glue.
    pub per_thread: u64,
    /// The threads planned for.
    pub threads: usize,
    /// Where the glue searches cells (the searched layout): the most
    /// placements a thread fills a row set with (2^22, which `per_thread`
    /// plans for, or a larger power of two to 2^27 where half of what the
    /// limit leaves holds four a thread, once the join is built); 0
    /// elsewhere.
    pub fill_most: u64,
    /// What each thread's four row sets, and its key signatures of their
    /// quarters, may take beyond what `per_thread` plans for them, filled
    /// with up to `fill_most` placements ([`fill_room`]).
    pub fill_room: u64,
    /// The row sets every worker shares where there is no whole table
    /// (at most 1 GiB, or half of what the limit leaves), once the
    /// join is built: what it needs is the rest.
    pub row_cache: u64,
}

/// The most placements a thread fills a row set with where the limit
/// leaves room ([`MemoryPlan::fill_most`]): 1 GiB of quarters, four a
/// thread. A row set too large to fill has its cells searched one at a
/// time, once for each key pass and each of its outer lists: at n = 29
/// that search was 43 % of the forecast with row sets of at most
/// [`SEARCHED_FILL_MOST`] filled, 10 % with 2^25 (every 14×14 row set the
/// sketch drew); 15×15 ones (n = 30, 31) take 2^27.
pub(in crate::engine::join) const FILL_CEILING: u64 = 1 << 27;

/// The most the row sets shared by every worker may take
/// ([`MemoryPlan::row_cache`]): as much as the whole table may
/// ([`WHOLE_TABLE_BYTES`]), every row set to n = 23.
pub(in crate::engine::join) const ROW_CACHE_MOST: u64 = WHOLE_TABLE_BYTES;

impl MemoryPlan {
    /// The same plan on `threads` threads.
    pub fn for_threads(self, threads: usize) -> MemoryPlan {
        MemoryPlan { threads, ..self }
    }

    /// The same plan with the room `limit` bytes leave it, for quarters
    /// of h×h squares whose cells come from `cells`. Where cells are
    /// searched, each thread's row sets first: filled with up to the
    /// largest power of two of placements (to [`FILL_CEILING`]) whose
    /// four row sets a thread take at most half of what the plan leaves.
    /// Then, where there is no whole table, the shared row sets:
    /// [`ROW_CACHE_MOST`], or half of what is left.
    pub(in crate::engine::join) fn with_room(
        self,
        cells: Source,
        h: usize,
        limit: u64,
    ) -> MemoryPlan {
        let mut plan = self;
        if cells == Source::Searched {
            let spare = limit.saturating_sub(self.total()) / 2;
            let room = |most| fill_room(h, most);
            let mut most = SEARCHED_FILL_MOST;
            while most < FILL_CEILING && room(2 * most) * self.threads as u64 <= spare {
                most *= 2;
            }
            (plan.fill_most, plan.fill_room) = (most, room(most));
        }
        plan.row_cache = match cells {
            Source::Table => 0,
            Source::RowSets | Source::Searched => {
                ROW_CACHE_MOST.min(limit.saturating_sub(plan.total()) / 2)
            }
        };
        plan
    }

    /// All of it.
    pub fn total(&self) -> u64 {
        self.tables
            + self.items
            + (self.per_thread + self.fill_room) * self.threads as u64
            + self.row_cache
    }
}

/// What a thread takes beyond its plan where it fills its four h×h row
/// sets with up to `most` placements, not [`SEARCHED_FILL_MOST`]: the
/// row sets, and the key signatures of the two sides' quarters.
pub(in crate::engine::join) fn fill_room(h: usize, most: u64) -> u64 {
    4 * (quarter::RowSet::bytes(h, most) - quarter::RowSet::bytes(h, SEARCHED_FILL_MOST))
        + keyed::signature_bytes(h, most)
        - keyed::signature_bytes(h, SEARCHED_FILL_MOST)
}

/// The work items in their order.
#[derive(Clone, Debug)]
pub(in crate::engine::join) enum Order {
    /// Listed with their costs, interleaved by cost ([`cost::interleave`]),
    /// to [`LISTED_TO`](crate::engine::join::LISTED_TO).
    Listed { items: Vec<Item>, costs: Vec<f32> },
    /// Worked out from their index past it ([`Slots`]).
    Drawn(Slots),
}

impl Order {
    /// How many work items there are.
    pub(in crate::engine::join) fn len(&self) -> usize {
        match self {
            Order::Listed { items, .. } => items.len(),
            Order::Drawn(slots) => slots.items(),
        }
    }

    /// Work item `index`'s estimated cost: in the reference machine's
    /// nanoseconds for a listed item, its slots for a drawn one (every
    /// stretch of drawn items is a random sample of the slots).
    pub(in crate::engine::join) fn cost(&self, index: usize) -> f64 {
        match self {
            Order::Listed { costs, .. } => costs.get(index).map_or(1.0, |&c| f64::from(c)),
            Order::Drawn(slots) => {
                let slots = slots.slots(index);
                (slots.end - slots.start) as f64
            }
        }
    }

    /// The units items are made of: listed items, or drawn slots (each a
    /// pair item, a fixed-point search or empty). A sample of units is a
    /// sample of the count's work.
    pub(in crate::engine::join) fn units(&self) -> u64 {
        match self {
            Order::Listed { items, .. } => items.len() as u64,
            Order::Drawn(slots) => slots.total(),
        }
    }

    /// What unit `unit` holds (`None`: an empty slot).
    pub(in crate::engine::join) fn unit(&self, unit: u64) -> Option<Item> {
        match self {
            Order::Listed { items, .. } => items.get(unit as usize).copied(),
            Order::Drawn(slots) => slots.at(unit),
        }
    }

    /// The pair item unit `unit` holds, if it holds one (not an empty
    /// slot, not a fixed-point search).
    pub(in crate::engine::join) fn pair_unit(&self, unit: u64) -> Option<Item> {
        self.unit(unit).filter(|item| item.fixed_index().is_none())
    }

    /// Units per work item: 1 when listed.
    pub(in crate::engine::join) fn per_item(&self) -> u64 {
        match self {
            Order::Listed { .. } => 1,
            Order::Drawn(slots) => slots.per_item(),
        }
    }

    /// The work items that hold fixed-point searches, in order: found in
    /// the list, or placed from the searches' slots.
    pub(in crate::engine::join) fn items_with_fixed_points(&self) -> Vec<usize> {
        match self {
            Order::Listed { items, .. } => (0..items.len())
                .filter(|&i| items[i].fixed_index().is_some())
                .collect(),
            Order::Drawn(slots) => slots.items_with_fixed_points(),
        }
    }

    /// The items work item `index` counts: one listed item, or a drawn
    /// block's (none past the last).
    pub(in crate::engine::join) fn items_of(
        &self,
        index: usize,
    ) -> impl Iterator<Item = Item> + '_ {
        let (listed, drawn) = match self {
            Order::Listed { items, .. } => (items.get(index).copied(), None),
            Order::Drawn(slots) => (None, Some(slots.items_of(index))),
        };
        listed.into_iter().chain(drawn.into_iter().flatten())
    }
}

/// The largest quarter cell of the h×h square (0 <= h <= 16), for the
/// memory plan of boards whose cells are searched: counted to h = 13
/// (`CellSizes`), where it is 1.05-1.33 times Q(h), the h-queens
/// solutions (the full cell); from h = 14, 1.4 Q(h), an estimate.
const LARGEST_CELL: [u64; 17] = [
    1, 1, 1, 1, 2, 2, 10, 40, 92, 352, 946, 3_571, 15_003, 77_432, 512_000, 3_200_000, 20_700_000,
];

/// One thread's scratch for east and west lists of at most `east` and
/// `west` halves and lower cells of at most `lower` quarters: the lists,
/// one side's halves off the long diagonals, the lower quarters placed
/// (three words each); the pair counter's sieve sorts a copy of both
/// sides, with a byte per pattern of the longer; and 64 KiB for a block's
/// tables and the stack's share.
fn scratch(east: u64, west: u64, lower: u64) -> u64 {
    let longer = east.max(west);
    (64 << 10) + 8 * (east + west + longer) + 24 * lower + 8 * (east + west) + longer
}

/// How many work items [`Join::lay_out`] makes for the n×n board (1 <= n
/// <= 32) laid out as `kind`, without laying it out: its pair items are
/// the row sets of its groups (one per orbit, [`items_of`]), listed (the
/// table) or drawn in blocks (searched); the fixed-point searches come on
/// top. The table past [`LISTED_TO`](crate::engine::join::LISTED_TO) is
/// refused before this is asked.
pub(in crate::engine::join) fn count_items(n: usize, kind: JoinLayout) -> usize {
    let h = n / 2;
    if kind == JoinLayout::Searched && n >= SMALLEST_JOINED {
        return Join::lay_out_drawn(n).order.len();
    }
    let fixed = burnside::items(n);
    if n < SMALLEST_JOINED {
        return fixed;
    }
    let frames = frames(n, h);
    let pairs: usize = groups(&frames)
        .iter()
        .map(|group| count_items_of(h, &frames[group.start]))
        .sum();
    pairs + fixed
}

/// A join before its table is filled.
pub(in crate::engine::join) struct Layout {
    /// Which of the two layouts it is.
    pub(in crate::engine::join) kind: JoinLayout,
    pub(in crate::engine::join) sizes: Option<quarter::CellSizes>,
    pub(in crate::engine::join) cells: Source,
    pub(in crate::engine::join) splits: Splits,
    pub(in crate::engine::join) frames: Vec<Frame>,
    pub(in crate::engine::join) groups: Vec<Range<usize>>,
    pub(in crate::engine::join) order: Arc<Order>,
    pub(in crate::engine::join) memory: MemoryPlan,
}

impl Join {
    /// The layout of the n×n board as `kind`, worked out once a process:
    /// sizing the quarter table takes seconds from n = 22 (54 s before
    /// this cache, when the plan, the costs and the engine each sized it),
    /// and a count asks for the memory plan, the costs and the engine in
    /// turn. The last board laid out is kept (its cell sizes are in the
    /// memory plan).
    pub(in crate::engine::join) fn layout(
        n: usize,
        kind: JoinLayout,
    ) -> Result<Arc<Layout>, Error> {
        static LAID_OUT: Mutex<Option<(usize, Arc<Layout>)>> = Mutex::new(None);
        let mut laid_out = LAID_OUT.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((board, layout)) = laid_out.as_ref() {
            if *board == n && layout.kind == kind {
                return Ok(Arc::clone(layout));
            }
        }
        let layout = Arc::new(Self::lay_out(n, kind)?);
        *laid_out = Some((n, Arc::clone(&layout)));
        Ok(layout)
    }

    /// The frames, the items (in their order), their costs and the memory
    /// plan for one thread, laid out as `kind`; the table is only walked
    /// to be sized. Boards too small to join (below [`SMALLEST_JOINED`])
    /// list their one enumeration either way.
    ///
    /// # Errors
    /// [`Error::BoardSize`]; as [`JoinLayout::check`].
    pub(in crate::engine::join) fn lay_out(n: usize, kind: JoinLayout) -> Result<Layout, Error> {
        let threads = 1;
        check_board_size(n)?;
        kind.check(n)?;
        let h = n / 2;
        if kind == JoinLayout::Searched && n >= SMALLEST_JOINED {
            return Ok(Self::lay_out_drawn(n));
        }
        // The rotations' fixed points, searched by items of their own.
        let fixed =
            (0..burnside::items(n)).map(|index| (cost::fixed(n, index) as f32, Item::fixed(index)));
        if n < SMALLEST_JOINED {
            let memory = MemoryPlan {
                tables: 0,
                items: 0,
                per_thread: scratch(0, 0, 0),
                threads,
                fill_most: 0,
                fill_room: 0,
                row_cache: 0,
            };
            let (costs, items) = fixed.unzip();
            return Ok(Layout {
                kind,
                sizes: None,
                cells: Source::Table,
                splits: Splits::default(),
                frames: Vec::new(),
                groups: Vec::new(),
                order: Arc::new(Order::Listed { items, costs }),
                memory,
            });
        }
        let sizes = quarter::CellSizes::new(h, h);
        let frames = frames(n, h);
        let splits = Splits::new(h, &frames);
        let groups = groups(&frames);
        let mut items = Vec::new();
        for (index, group) in groups.iter().enumerate() {
            items_of(h, index, &frames[group.start], &mut items);
        }
        // Each item's cost kept, and the largest of each bound's terms
        // (not every bound: 48 bytes an item).
        let (east, west, lower) = Default::default();
        let most = |most: &AtomicU64, value: u64| most.fetch_max(value, Ordering::Relaxed);
        let gathered = Gathered::new(h, &sizes, &splits);
        let mut order: Vec<(f32, Item)> = items
            .par_iter()
            .map(|&item| {
                let frames = &frames[groups[item.group as usize].clone()];
                let b = gathered.bound(frames, &item);
                most(&east, b.east);
                most(&west, b.west);
                most(&lower, b.lower);
                (cost::pair(&b, n) as f32, item)
            })
            .collect();
        drop((items, gathered));
        order.extend(fixed);
        // Largest first, ties in the order the frames made them (then the
        // fixed-point items'); interleaved below, so that every stretch of
        // items is a sample of all sizes, the fixed-point searches spread
        // among the pairs.
        order.sort_by(|a, b| b.0.total_cmp(&a.0));
        let largest = Bound {
            east: east.into_inner(),
            west: west.into_inner(),
            lower: lower.into_inner(),
            ..Bound::default()
        };
        // The lists hold a run of splits at a time (a split over the run's
        // limit is cut by its upper quarters: at most a lower cell's worth).
        let list = |halves: u64| halves.min(RUN.max(largest.lower));
        let (east, west) = (list(largest.east), list(largest.west));
        let whole_table = sizes.table_bytes() <= WHOLE_TABLE_BYTES;
        let (table, row_sets) = match whole_table {
            true => (sizes.table_bytes(), 0),
            false => (0, 4 * quarter::RowSet::bytes(h, sizes.largest_row_set())),
        };
        let memory = MemoryPlan {
            // The table, and the cell sizes kept with the layout.
            tables: table + sizes.bytes(),
            items: (order.len() * (std::mem::size_of::<Item>() + 4)) as u64,
            // The upper and lower quarters' row sets without the whole
            // table.
            per_thread: scratch(east, west, largest.lower)
                + row_sets
                + keyed::scratch_bytes(largest.lower, (h, sizes.largest_row_set())),
            threads,
            fill_most: 0,
            fill_room: 0,
            row_cache: 0,
        };
        let (costs, items) = cost::interleave(order.len())
            .map(|rank| order[rank])
            .unzip();
        Ok(Layout {
            kind,
            sizes: Some(sizes),
            cells: match whole_table {
                true => Source::Table,
                false => Source::RowSets,
            },
            splits,
            frames,
            groups,
            order: Arc::new(Order::Listed { items, costs }),
            memory,
        })
    }

    /// The searched layout (every board past
    /// [`LISTED_TO`](crate::engine::join::LISTED_TO), any board from
    /// [`SMALLEST_JOINED`] asked for): items drawn from their index, cells
    /// searched as the glue reaches them; nothing sized or bounded item by
    /// item, so it takes milliseconds.
    pub(in crate::engine::join) fn lay_out_drawn(n: usize) -> Layout {
        let h = n / 2;
        let frames = frames(n, h);
        let splits = Splits::new(h, &frames);
        let groups = groups(&frames);
        let firsts: Vec<Frame> = groups.iter().map(|g| frames[g.start]).collect();
        let slots = Slots::new(n, h, &firsts);
        // A run of splits glues at most RUN halves, or one lower cell's
        // worth (a split over RUN is cut by its upper quarters).
        let cell = LARGEST_CELL[h];
        let list = RUN.max(cell);
        let memory = MemoryPlan {
            tables: splits.bytes(),
            items: slots.bytes(),
            // The upper cell of the split being glued (the lower one is
            // placed as the scratch's lower quarters), the four row sets
            // filled where they are small enough, and what key passes
            // sort the lower quarters by and test them on.
            per_thread: scratch(list, list, cell)
                + 8 * cell
                + 4 * quarter::RowSet::bytes(h, SEARCHED_FILL_MOST)
                + keyed::scratch_bytes(cell, (h, SEARCHED_FILL_MOST)),
            threads: 1,
            fill_most: SEARCHED_FILL_MOST,
            fill_room: 0,
            row_cache: 0,
        };
        Layout {
            kind: JoinLayout::Searched,
            sizes: None,
            cells: Source::Searched,
            splits,
            frames,
            groups,
            order: Arc::new(Order::Drawn(slots)),
            memory,
        }
    }
}
