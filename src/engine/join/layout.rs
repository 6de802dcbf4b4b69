//! The layout of a join before its table is filled: frames, items in
//! their order (by cost, interleaved), and the memory plan; worked out
//! once a process per board.

use std::ops::Range;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use rayon::prelude::*;

use super::cost;
use super::frames::{frames, groups, Frame};
use super::glue::RUN;
use super::items::{bound, items_of, Bound, Item};
use super::quarter;
use super::splits::Splits;
use super::{burnside, Join, LARGEST_N, LARGEST_QUARTER, SMALLEST_JOINED, WHOLE_TABLE_BYTES};
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
}

impl MemoryPlan {
    /// The same plan on `threads` threads.
    pub fn for_threads(self, threads: usize) -> MemoryPlan {
        MemoryPlan { threads, ..self }
    }

    /// All of it.
    pub fn total(&self) -> u64 {
        self.tables + self.items + self.per_thread * self.threads as u64
    }
}

/// A join before its table is filled.
pub(super) struct Layout {
    pub(super) sizes: Option<quarter::CellSizes>,
    /// Whether the whole quarter table is filled (else each worker fills
    /// the row sets its items glue from).
    pub(super) whole_table: bool,
    pub(super) splits: Splits,
    pub(super) frames: Vec<Frame>,
    pub(super) groups: Vec<Range<usize>>,
    pub(super) items: Vec<Item>,
    pub(super) costs: Vec<f32>,
    pub(super) memory: MemoryPlan,
}

impl Join {
    /// The layout of the n×n board, worked out once a process: sizing the
    /// quarter table takes seconds from n = 22 (54 s before this cache,
    /// when the plan, the costs and the engine each sized it), and a count
    /// asks for the memory plan, the costs and the engine in turn. The
    /// last board laid out is kept (its cell sizes are in the memory plan).
    pub(super) fn layout(n: usize) -> Result<Arc<Layout>, Error> {
        static LAID_OUT: Mutex<Option<(usize, Arc<Layout>)>> = Mutex::new(None);
        let mut laid_out = LAID_OUT.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((board, layout)) = laid_out.as_ref() {
            if *board == n {
                return Ok(Arc::clone(layout));
            }
        }
        let layout = Arc::new(Self::lay_out(n)?);
        *laid_out = Some((n, Arc::clone(&layout)));
        Ok(layout)
    }

    /// The frames, the items (in their order), their costs and the memory
    /// plan for one thread; the table is only walked to be sized.
    pub(super) fn lay_out(n: usize) -> Result<Layout, Error> {
        let threads = 1;
        check_board_size(n)?;
        let h = n / 2;
        if h > LARGEST_QUARTER {
            return Err(Error::JoinTooLarge {
                n,
                largest: LARGEST_N,
            });
        }
        let scratch = 64 << 10; // a block's tables and the stack's share
                                // The rotations' fixed points, searched by items of their own.
        let fixed =
            (0..burnside::items(n)).map(|index| (cost::fixed(n, index) as f32, Item::fixed(index)));
        if n < SMALLEST_JOINED {
            let memory = MemoryPlan {
                tables: 0,
                items: 0,
                per_thread: scratch,
                threads,
            };
            let (costs, items) = fixed.unzip();
            return Ok(Layout {
                sizes: None,
                whole_table: true,
                splits: Splits::default(),
                frames: Vec::new(),
                groups: Vec::new(),
                items,
                costs,
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
        // (not every bound: 48 bytes an item, 3 GB at n = 27).
        let (east, west, lower, split) = Default::default();
        let most = |most: &AtomicU64, value: u64| most.fetch_max(value, Ordering::Relaxed);
        let mut order: Vec<(f32, Item)> = items
            .par_iter()
            .map(|&item| {
                let frames = &frames[groups[item.group as usize].clone()];
                let b = bound(&sizes, &splits, frames, &item);
                most(&east, b.east);
                most(&west, b.west);
                most(&lower, b.lower);
                most(&split, b.split);
                (cost::pair(&b, n) as f32, item)
            })
            .collect();
        drop(items);
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
            split: split.into_inner(),
            ..Bound::default()
        };
        // The lists hold a run of splits at a time (a split over the run's
        // limit alone).
        let list = |halves: u64| halves.min(RUN.max(largest.split));
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
            // East, west, one side's halves off the long diagonals, lower
            // quarters; the pair counter's sieve sorts a copy of both
            // sides, with a byte per pattern of the longer; the upper and
            // lower quarters' row sets without the whole table.
            per_thread: scratch
                + row_sets
                + 8 * (east + west + east.max(west))
                + 16 * largest.lower
                + 8 * (east + west)
                + east.max(west),
            threads,
        };
        let (costs, items) = cost::interleave(order.len())
            .map(|rank| order[rank])
            .unzip();
        Ok(Layout {
            sizes: Some(sizes),
            whole_table,
            splits,
            frames,
            groups,
            items,
            costs,
            memory,
        })
    }
}
