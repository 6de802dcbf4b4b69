//! The join engine: counting by joining half-boards instead of
//! backtracking row by row (../shared/JOIN.md).
//!
//! For a board n = 2h (or 2h + 1, see below), every solution has h queens
//! in the east columns `0..h`; the set E of their rows is the work item.
//! The east half for E is glued from two quarters of the [quarter
//! table](count::quarter): the north-east one on the rows E ∩ north and some
//! columns C, the south-east one on E ∩ south and the other east columns,
//! kept if their diagonals do not meet. The west half is glued the same way
//! on the other rows. Rows and columns are disjoint by construction, so an
//! east and a west half make a solution exactly when they share no
//! diagonal; only the diagonals crossing the middle can be shared, 2h - 1
//! per direction, so a half is reduced to a pattern of at most 62 bits and
//! the count for E is the number of disjoint (east, west) [pattern
//! pairs](count::pairs).
//!
//! Odd n = 2h + 1: the middle row and column belong to no quarter. Either
//! the centre holds a queen (the join above, with the centre's diagonals
//! forbidden), or the middle row's queen Q1 = (h, h + a) and the middle
//! column's Q2 = (h + b, h) are off centre, with |a| != |b| (else they
//! attack). The 8 symmetries of the square move such pairs freely, (a, b)
//! to (-b, a) and (b, a) and their products: one (a, b) per orbit is
//! joined, over the other rows and columns with Q1's and Q2's diagonals
//! forbidden, and counted 8 times. The canonical pairs sharing a Q2 form a
//! group: their west halves are the same, glued once (keeping off Q2), and
//! each frame's east halves carry Q1's diagonals as pattern bits, so that
//! west halves on them pair with none.
//!
//! Work items are (group, rows of the half glued once: E for the mirror
//! frames, W for the others), and [`burnside::items`](count::burnside::items) more that count the
//! solutions the rotations fix ([`burnside`](count::burnside)), each a part of them, which
//! with the total give the unique solutions and the classes. To
//! [`LISTED_TO`] all are listed, costed by a model of their time fitted
//! offline (`cost`: for a pair item, the quarter pairs its glue may try
//! and the pairs of halves) and interleaved by cost, so that every stretch
//! of items holds large and small ones alike; past it a work item is a
//! block of them drawn from a fixed pseudo-random order (`slots`), worked
//! out from its index. Either way they depend on n alone. Glued candidates are written
//! and kept without a branch, into per-thread scratch kept from item to
//! item. Boards below 4 are counted by enumeration in fixed-point item 0:
//! the join needs two rows per half.
//!
//! Memory is planned before anything is allocated ([`Join::plan`]): the
//! quarter table, the items, and per thread the largest half lists an item
//! can glue; a plan over the limit is refused with what it needs. The
//! whole table is filled while it takes at most [`WHOLE_TABLE_BYTES`] (to
//! n = 23); past it each worker fills the row sets an item glues from
//! ([`quarter::RowSet`](count::quarter::RowSet)), and past [`LISTED_TO`] searches each cell as
//! the glue reaches it ([`quarter::search_cell`](count::quarter::search_cell)); a side longer than
//! `glue::RUN` halves is glued and paired in runs of its column splits (a
//! split over it cut by its upper quarters): memory grows with the
//! threads, not with the table (n = 24: 451 MiB on 2 threads, against
//! 6.3 GiB with the table; n = 32: 2.8 GiB on 2 threads).
//!
//! The rooms, one job each (the `impl Join` of a job lives in its room):
//! [`count`] counts items (the frames the queens outside the quarters
//! leave, the items and their bounds, the column splits, the quarter
//! tables, the glue of halves and the [pair counters](count::pairs), the
//! rotations' fixed points); `order` says which item is where (the layout
//! and memory plan, the cost model and order, the drawn slots, what an
//! item stands for); `forecast` sketches the board and its items, and
//! times a sample of them ([`Engine::workload`]). This file holds the
//! engine's face: [`Join::new`], its constants and the [`Engine`] trait.
//!
//! Even boards from [`REFLECT_FROM`] also fold in the two diagonal
//! reflections (`Join::count_reflected`): about half the pairs are
//! compared. Long half lists are sieved on key bits before their pairs are
//! counted (`count/pairs/sieve.rs`): from n = 20 on, about half the pair work.

pub mod count;
mod forecast;
mod order;

use std::ops::Range;
use std::sync::Arc;

use self::count::pairs;
pub use self::count::pairs::gpu::{
    Adapter, Gpu, GpuError, GpuReport, GPU_MEMORY_DEFAULT, GPU_MEMORY_LEAST, GPU_MEMORY_SHARE,
};
use self::count::{Frame, QuarterTable, RowCache, Source, Splits, RUN};
pub use self::forecast::{Sketch, BUDGET_STEP_S};
use self::order::{count_items, Layout, Order};
pub use self::order::{Described, MemoryPlan};
use crate::engine::cpu;
use crate::engine::cpu::{Path, Simd};
use crate::engine::forecast::Workload;
use crate::engine::{Engine, EngineId, Fingerprint};
use crate::problem::{Error, Symmetry};
use crate::reduce::Tally;

/// The version of the join's work items: bumped whenever the frames, the
/// items, their costs or their order change (5: the rotations' fixed
/// points cut into items of their own, [`burnside::items`](count::burnside::items); 6: costs in
/// the reference machine's nanoseconds, items interleaved by cost,
/// `cost`). Boards past [`LISTED_TO`] were drawn (`slots`) within 6,
/// without a bump: no journal of theirs was kept, and one of the listed
/// items would be refused anyway, its `total_items` not the plan's; 7:
/// the layout ([`JoinLayout`]) is in the fingerprint, and either may be
/// asked for at any board it fits).
pub const FORMAT: u32 = 7;

/// The smallest board the join counts by joining; smaller ones are
/// enumerated.
pub const SMALLEST_JOINED: usize = 4;

/// The smallest even board whose items fold in the diagonal reflections
/// (`Join::count_reflected`): measured on one thread (AMD EPYC), n = 16
/// took 1.15× the plain count's time, n = 18 0.94×, and n = 20 on two
/// threads 0.74× (127.6 s against 171.4 s). Items' tallies differ between
/// the two ways (only their sums agree): changing this bumps [`FORMAT`].
pub const REFLECT_FROM: usize = 18;

/// The largest board whose items are listed and costed one by one, from
/// the sizes of all the quarter cells (4 bytes a cell: 64 MiB at 12×12;
/// at n = 27, 7 × 10⁷ items bounded in 11 minutes). Past it the items are
/// drawn from their index and the cells searched one at a time
/// (`slots`): laying a board out takes milliseconds, to
/// n = 32.
pub const LISTED_TO: usize = 25;

/// How the join lays its items out and finds its quarter cells: the two
/// ways the boards to [`LISTED_TO`] and those past it take by default
/// ([`JoinLayout::automatic`]), either of which a count may ask for
/// (`--layout`) where it fits. It is part of the fingerprint: the items
/// differ, so journals, shards and MPI ranks of one layout refuse the
/// other's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum JoinLayout {
    /// Every item listed and costed from the sizes of all the quarter
    /// cells, in the order interleaved by cost; cells read from the quarter
    /// table filled once (or, past [`WHOLE_TABLE_BYTES`], from the row sets
    /// each worker fills). Boards to [`LISTED_TO`]: past it, sizing every
    /// cell takes hours and gigabytes.
    Table,
    /// Items drawn from their index in blocks of slots (a fixed
    /// pseudo-random order, no cost model); nothing filled beforehand:
    /// each worker fills the row sets an item glues from where they hold
    /// at most [`MemoryPlan::fill_most`] placements (2^22, more where
    /// --max-memory leaves room), shares them with the others while
    /// [`MemoryPlan::row_cache`] has room, and searches
    /// the cells of larger ones one at a time as the glue reaches them.
    /// Every board.
    Searched,
}

impl JoinLayout {
    /// Both, in the order the flag lists them.
    pub const ALL: [JoinLayout; 2] = [JoinLayout::Table, JoinLayout::Searched];

    /// The layout the n×n board takes unless another is asked for: the
    /// table to [`LISTED_TO`], searched past it.
    pub fn automatic(n: usize) -> JoinLayout {
        match n > LISTED_TO {
            true => JoinLayout::Searched,
            false => JoinLayout::Table,
        }
    }

    /// Its name, as `--layout` takes it.
    pub fn name(self) -> &'static str {
        match self {
            JoinLayout::Table => "table",
            JoinLayout::Searched => "searched",
        }
    }

    /// `Ok` if the n×n board can be laid out this way.
    ///
    /// # Errors
    /// [`Error::Refused`] (naming `--layout`) for the table past
    /// [`LISTED_TO`].
    pub fn check(self, n: usize) -> Result<(), Error> {
        if self == JoinLayout::Table && n > LISTED_TO {
            return Err(Error::Refused {
                flag: "--layout <LAYOUT>",
                value: self.name().to_string(),
                rule: format!(
                    "the table layout sizes every quarter cell and lists every item, boards \
                     up to n = {LISTED_TO}; n = {n} takes `searched`"
                ),
            });
        }
        Ok(())
    }
}

impl std::fmt::Display for JoinLayout {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for JoinLayout {
    type Err = String;

    fn from_str(s: &str) -> Result<JoinLayout, String> {
        JoinLayout::ALL
            .into_iter()
            .find(|layout| layout.name() == s)
            .ok_or_else(|| format!("expected `table` or `searched`, got `{s}`"))
    }
}

/// The most the whole quarter table may take to be filled once for all
/// workers: 540 MB at 11×11 (n = 22, 23). Past it (5.1 GB at 12×12, 51 GB
/// at 13×13) each worker fills the row sets an item glues from
/// ([`quarter::RowSet`](count::quarter::RowSet)), a few MB each, and hands
/// them to the workers' shared row sets ([`quarter::RowCache`](count::quarter::RowCache))
/// while they have room; a row set they lack is filled again for each item
/// that glues from it (before the row sets were shared: at n = 18,
/// 1.4-1.9× the time with the whole table, at n = 20 1.26×, 2 threads,
/// Xeon dev VM); where a row set is large its filling is small next to
/// the pairs its cells make.
pub const WHOLE_TABLE_BYTES: u64 = 1 << 30;

/// The largest board the join counts: every board the program takes (a
/// half's pattern of 2h - 1 diagonals each way fits 64 bits to h = 16).
pub const LARGEST_N: usize = crate::problem::MAX_N;

/// The largest board whose join a forecast times whole items of: at
/// n = 26 an item takes minutes to hours, more than a forecast may spend
/// (n = 24: 35 s the largest, results/2026-12-01-vm-forecasts); past it
/// the forecast sketches its slots ([`Join::sketch`]).
pub const LARGEST_SAMPLED: usize = 25;

/// The boards from which laying the join out (sizing its quarter table,
/// bounding its items) may take a second: 0.45 s at n = 22, 2.4 s at 23,
/// 3.0 s at 24, 23 s at 25 ([`LAYOUT_TIMES`]).
pub const SLOW_LAYOUT_FROM: usize = 22;

/// Whether laying the join out for the n×n board takes seconds (from
/// [`SLOW_LAYOUT_FROM`] to [`LISTED_TO`]): a count or a forecast then
/// says it is planning, and for how long, before it starts.
pub fn lays_out_slowly(n: usize) -> bool {
    (SLOW_LAYOUT_FROM..=LISTED_TO).contains(&n)
}

/// What laying out the boards that take seconds took, measured on the
/// 2-core AMD EPYC dev VM (`Join::costs` in a process of its own, wall
/// and user time): (n, seconds on one thread alone, core-seconds shared
/// by the threads). Sizing the quarter table and bounding the items run
/// on every thread of the pool; listing, sorting and interleaving the
/// items on one. n = 25 took 64 s on 2 threads before its items were
/// bounded from gathered sizes (`items::Gathered`), 23 s after.
pub const LAYOUT_TIMES: [(usize, f64, f64); 4] = [
    (22, 0.1, 0.7),
    (23, 0.9, 3.1),
    (24, 0.3, 5.3),
    (25, 3.9, 37.5),
];

/// About how long laying the n×n board's join out takes on a pool of
/// `threads`, by [`LAYOUT_TIMES`] (a machine like the dev VM); `None`
/// for the boards laid out in milliseconds.
pub fn layout_seconds(n: usize, threads: usize) -> Option<f64> {
    LAYOUT_TIMES
        .iter()
        .find(|&&(board, _, _)| board == n)
        .map(|&(_, serial, parallel)| serial + parallel / threads.max(1) as f64)
}

/// The join engine for one board.
#[derive(Clone, Debug)]
pub struct Join {
    n: usize,
    h: usize,
    /// The whole h×h table, where it is small enough to fill (empty below
    /// [`SMALLEST_JOINED`]); else each worker fills the row sets an item
    /// glues from ([`quarter::RowSet`](count::quarter::RowSet)), or searches each cell.
    square: Option<QuarterTable>,
    cells: Source,
    splits: Splits,
    frames: Vec<Frame>,
    /// Runs of frames that share their west half (each a single frame, but
    /// for the off-centre ones of odd n: one per middle-column queen).
    groups: Vec<Range<usize>>,
    /// The work items in their order (listed and interleaved by cost,
    /// [`cost::interleave`], or drawn): the pair items and the
    /// [`burnside::items`](count::burnside::items) that count what the rotations fix (fixed-point
    /// item 0 also the whole board below [`SMALLEST_JOINED`]), spread
    /// among them.
    order: Arc<Order>,
    /// How its items are laid out and its cells found.
    layout: JoinLayout,
    simd: Simd,
    memory: MemoryPlan,
    /// Whether even boards fold in the diagonal reflections (from
    /// [`REFLECT_FROM`]).
    reflect: bool,
    /// The most halves a side's list holds at a time ([`glue::RUN`]).
    run: u64,
    /// The most placements a worker fills a row set with where cells are
    /// searched ([`MemoryPlan::fill_most`]).
    fill_most: u64,
    /// The row sets filled once for every worker, where there is no whole
    /// table ([`MemoryPlan::row_cache`] bytes of them).
    row_cache: Arc<RowCache>,
    /// The GPU that takes its long pair jobs (`--gpu`), if any.
    gpu: Option<Arc<Gpu>>,
}

impl Join {
    /// What the join of the n×n board laid out as `layout` needs in
    /// memory on `threads` threads, planned without allocating the tables.
    ///
    /// # Errors
    /// [`Error::BoardSize`] unless 1 <= n <= [`MAX_N`](crate::problem::MAX_N);
    /// as [`JoinLayout::check`].
    pub fn plan(n: usize, layout: JoinLayout, threads: usize) -> Result<MemoryPlan, Error> {
        Ok(Self::layout(n, layout)?.memory.for_threads(threads))
    }

    /// The instruction-set paths of its pair counter: every one.
    pub const PATHS: &'static [Path] = &count::pairs::PATHS;

    /// The join's name in messages.
    pub const NAME: &'static str = "join";

    /// The fastest of its [`PATHS`](Join::PATHS) this CPU runs.
    pub fn fastest() -> Simd {
        cpu::fastest(Self::PATHS)
    }

    /// The join of the n×n board in its [automatic](JoinLayout::automatic)
    /// layout, counting pairs on `simd`, if its [plan](Join::plan) on the
    /// current rayon pool's threads fits in `max_memory` bytes.
    ///
    /// # Errors
    /// As [`Join::with_layout`].
    pub fn new(n: usize, simd: Simd, max_memory: u64) -> Result<Join, Error> {
        Self::with_layout(n, JoinLayout::automatic(n), simd, max_memory)
    }

    /// The join of the n×n board laid out as `layout`, counting pairs on
    /// `simd`, if its [plan](Join::plan) on the current rayon pool's
    /// threads fits in `max_memory` bytes.
    ///
    /// # Errors
    /// [`Error::SimdUnavailable`] if this CPU does not run the pair counter
    /// on `simd`; as [`Join::plan`], and [`Error::JoinMemory`] if the plan
    /// needs more than `max_memory`.
    pub fn with_layout(
        n: usize,
        layout: JoinLayout,
        simd: Simd,
        max_memory: u64,
    ) -> Result<Join, Error> {
        cpu::check(Self::NAME, Self::PATHS, simd)?;
        let threads = rayon::current_num_threads();
        let layout = Self::layout(n, layout)?;
        let memory = layout.memory.for_threads(threads);
        if memory.total() > max_memory {
            return Err(Error::JoinMemory {
                n,
                needed: memory.total(),
                limit: max_memory,
            });
        }
        let memory = memory.with_room(layout.cells, n / 2, max_memory);
        Ok(Self::laid_out(n, simd, &layout, memory))
    }

    /// The join of the n×n board as `layout` lays it out.
    fn laid_out(n: usize, simd: Simd, layout: &Layout, memory: MemoryPlan) -> Join {
        Join {
            n,
            h: n / 2,
            square: match (&layout.sizes, layout.cells) {
                (Some(sizes), Source::Table) => Some(QuarterTable::from_sizes(sizes)),
                (None, Source::Table) => Some(QuarterTable::new(1, 1)),
                _ => None,
            },
            cells: layout.cells,
            splits: layout.splits.clone(),
            frames: layout.frames.clone(),
            groups: layout.groups.clone(),
            order: Arc::clone(&layout.order),
            layout: layout.kind,
            simd,
            memory,
            reflect: n >= REFLECT_FROM,
            run: RUN,
            fill_most: memory.fill_most,
            row_cache: Arc::new(RowCache::new(n / 2, memory.row_cache)),
            gpu: None,
        }
    }

    /// This join with its long pair jobs counted on `gpu`: the same
    /// items, the same counts (the fingerprint does not change, so a
    /// journal or a shard may be counted partly with and partly without).
    pub fn with_gpu(self, gpu: Arc<Gpu>) -> Join {
        Join {
            gpu: Some(gpu),
            ..self
        }
    }

    /// What its pairs are counted on.
    pub(in crate::engine::join) fn counter(&self) -> pairs::Counter<'_> {
        pairs::Counter {
            simd: self.simd,
            gpu: self.gpu.as_deref(),
        }
    }

    /// The estimated cost of every work item of the n×n board laid out as
    /// `layout`, as [`Engine::cost`] gives them, without filling the table.
    ///
    /// # Errors
    /// As [`Join::plan`].
    pub fn costs(n: usize, layout: JoinLayout) -> Result<Vec<f64>, Error> {
        let layout = Self::layout(n, layout)?;
        Ok((0..layout.order.len())
            .map(|i| layout.order.cost(i))
            .collect())
    }

    /// How many work items the n×n board's join laid out as `layout` has,
    /// worked out from the frames and their row sets alone (no cell sized,
    /// nothing costed or ordered: milliseconds at every n, where laying
    /// the board out takes 80 s at n = 25): what a file's header is
    /// checked against before anything is built for it.
    ///
    /// # Errors
    /// [`Error::BoardSize`] unless 1 <= n <= [`MAX_N`](crate::problem::MAX_N);
    /// as [`JoinLayout::check`].
    pub fn items_of(n: usize, layout: JoinLayout) -> Result<usize, Error> {
        crate::problem::check_board_size(n)?;
        layout.check(n)?;
        Ok(count_items(n, layout))
    }

    /// The board size.
    pub fn n(&self) -> usize {
        self.n
    }

    /// The instruction-set path its pairs are counted on.
    pub fn simd(&self) -> Simd {
        self.simd
    }

    /// The memory planned.
    pub fn memory(&self) -> MemoryPlan {
        self.memory
    }

    /// How many items join pairs (the others, [`burnside::items`](count::burnside::items) of
    /// them, search for the rotations' fixed points); where items are
    /// drawn, all of them (a block of slots holds pair items).
    pub fn pair_items(&self) -> usize {
        match &*self.order {
            Order::Listed { items, .. } => items.len() - count::burnside::items(self.n),
            Order::Drawn(slots) => slots.items(),
        }
    }

    /// Whether work item `index` joins pairs (else it searches for fixed
    /// points only, or lies past the last item).
    pub fn joins_pairs(&self, index: usize) -> bool {
        self.order
            .items_of(index)
            .any(|item| item.fixed_index().is_none())
    }
}

impl Engine for Join {
    fn fingerprint(&self) -> Fingerprint {
        Fingerprint {
            engine: EngineId::Join,
            n: self.n,
            symmetry: Symmetry::Full,
            depth: self.h,
            format: FORMAT,
            layout: Some(self.layout),
        }
    }

    fn items(&self) -> usize {
        self.order.len()
    }

    fn cost(&self, item: usize) -> f64 {
        self.order.cost(item)
    }

    fn items_with_fixed_points(&self) -> Vec<usize> {
        self.order.items_with_fixed_points()
    }

    fn simd(&self) -> Simd {
        self.simd
    }

    fn subproblems(&self) -> usize {
        self.pair_items()
    }

    fn planned_bytes(&self) -> Option<u64> {
        Some(self.memory().total())
    }

    fn shared_s(&self) -> f64 {
        self.row_cache.filled_s()
    }

    fn shared_rest_s(&self) -> f64 {
        self.row_cache.rest_s()
    }

    fn least_one_thread_s(&self) -> f64 {
        self.least_seconds()
    }

    fn workload(&self, budget_s: f64) -> Result<Workload, Error> {
        Ok(self.forecast(budget_s))
    }

    fn count(&self, items: Range<usize>) -> Tally {
        let mut tally = Tally::default();
        for item in items.flat_map(|index| self.order.items_of(index)) {
            match item.fixed_index() {
                None => tally.weighted += u128::from(self.count_item(&item)),
                Some(fixed) => {
                    if fixed == 0 && self.n < SMALLEST_JOINED {
                        tally.weighted += u128::from(count_small(self.n));
                    }
                    tally.add(Tally {
                        fixed: Some(count::burnside::fixed_item(self.n, fixed)),
                        ..Tally::default()
                    });
                }
            }
        }
        tally
    }
}

/// The solutions of a board too small to be cut into halves (n < 4), by
/// trying every column in every row: at most 3³ placements.
fn count_small(n: usize) -> u64 {
    fn place(n: usize, row: usize, columns: &mut Vec<usize>) -> u64 {
        if row == n {
            return 1;
        }
        let mut count = 0;
        for column in 0..n {
            let attacked = columns
                .iter()
                .enumerate()
                .any(|(r, &c)| c == column || row - r == column.abs_diff(c));
            if !attacked {
                columns.push(column);
                count += place(n, row + 1, columns);
                columns.pop();
            }
        }
        count
    }
    place(n, 0, &mut Vec::with_capacity(n))
}

#[cfg(test)]
mod tests {
    use super::count::frames::{canonical, frames};
    use super::count::items::Item;
    use super::count::splits::subsets;
    use super::count::SEARCHED_FILL_MOST;
    use super::*;
    use crate::oeis::known_total;

    #[test]
    fn items_are_counted_without_laying_the_board_out() {
        for n in (1..=20).chain([26, 32]) {
            let layouts = match n > LISTED_TO {
                true => &[JoinLayout::Searched][..],
                false => &JoinLayout::ALL[..],
            };
            for &layout in layouts {
                assert_eq!(
                    Join::items_of(n, layout).unwrap(),
                    Join::lay_out(n, layout).unwrap().order.len(),
                    "n = {n}, {layout}"
                );
            }
        }
    }

    #[test]
    fn either_layout_counts_every_board_and_names_itself() {
        for n in 1..=13 {
            for layout in JoinLayout::ALL {
                let join = Join::with_layout(n, layout, Join::fastest(), u64::MAX).unwrap();
                assert_eq!(join.fingerprint().layout, Some(layout), "n = {n}");
                let tally = join.count(0..join.items());
                assert_eq!(Some(tally.total()), known_total(n), "n = {n}, {layout}");
            }
        }
        assert_eq!(JoinLayout::automatic(LISTED_TO), JoinLayout::Table);
        assert_eq!(JoinLayout::automatic(LISTED_TO + 1), JoinLayout::Searched);
        assert_eq!("searched".parse(), Ok(JoinLayout::Searched));
        assert!("drawn".parse::<JoinLayout>().is_err());
    }

    #[test]
    fn the_table_is_refused_past_the_listed_boards() {
        let n = LISTED_TO + 1;
        let refused = |e: Error| {
            matches!(
                e,
                Error::Refused {
                    flag: "--layout <LAYOUT>",
                    ..
                }
            )
        };
        assert!(refused(Join::items_of(n, JoinLayout::Table).unwrap_err()));
        assert!(refused(Join::plan(n, JoinLayout::Table, 1).unwrap_err()));
        let join = Join::with_layout(n, JoinLayout::Table, Simd::None, u64::MAX);
        assert!(refused(join.unwrap_err()));
        assert!(Join::items_of(n, JoinLayout::Searched).is_ok());
    }

    #[test]
    fn fixed_point_items_are_found_in_every_order() {
        // Listed (n = 12) and drawn (n = 12 laid out as the largest
        // boards are): the items a scan of every item finds.
        for order in [
            Join::lay_out(12, JoinLayout::Table).unwrap().order,
            Join::lay_out_drawn(12).order,
        ] {
            let scanned: Vec<usize> = (0..order.len())
                .filter(|&i| order.items_of(i).any(|item| item.fixed_index().is_some()))
                .collect();
            assert_eq!(order.items_with_fixed_points(), scanned);
            assert!(!scanned.is_empty());
        }
    }

    #[test]
    fn the_join_counts_every_board_as_oeis_lists() {
        for n in 1..=16 {
            let join = Join::new(n, Join::fastest(), u64::MAX).unwrap();
            let total = join.count(0..join.items()).total();
            assert_eq!(Some(total), known_total(n), "n = {n}");
        }
    }

    #[test]
    fn folding_in_the_diagonal_reflections_keeps_every_total() {
        // The board sizes the fast tests reach count the plain way: force
        // the reflections on them.
        for n in (4..=16).step_by(2) {
            let mut join = Join::new(n, Join::fastest(), u64::MAX).unwrap();
            join.reflect = true;
            let total = join.count(0..join.items()).total();
            assert_eq!(Some(total), known_total(n), "n = {n}");
        }
    }

    #[test]
    fn every_pair_item_recounted_from_its_description_gives_its_tally() {
        // Odd boards (centre and off-centre frames), even boards plain and
        // with the reflections folded in.
        for (n, reflect) in [(5, false), (7, false), (9, false), (11, false), (13, false)]
            .into_iter()
            .chain((4..=12).step_by(2).flat_map(|n| [(n, false), (n, true)]))
        {
            let mut join = Join::new(n, Join::fastest(), u64::MAX).unwrap();
            join.reflect = reflect;
            let fixed = (0..join.items()).filter(|&i| !join.joins_pairs(i));
            assert!(
                fixed.map(|i| join.describe(i)).all(|d| d.is_none()),
                "fixed-point items"
            );
            assert_eq!(join.describe(join.items()), None, "past the end");
            for index in (0..join.items()).filter(|&i| join.joins_pairs(i)) {
                let described = join.describe(index).unwrap();
                let tally = join.count(index..index + 1).weighted;
                let recounted = crate::engine::recount::recount(&described.set);
                assert_eq!(
                    recounted, tally,
                    "n = {n}, item {index}: {}",
                    described.text
                );
            }
        }
    }

    #[test]
    fn row_sets_and_runs_give_every_item_the_tables_tally() {
        // Boards whose whole table is filled, joined as the large ones are:
        // row sets filled per item, and lists cut into runs of a split or
        // a few (reflections folded in on the even ones).
        for n in 4..=14 {
            let whole = Join::new(n, Join::fastest(), u64::MAX).unwrap();
            for run in [1, 40] {
                let mut join = whole.clone();
                join.square = None;
                join.run = run;
                join.reflect = n % 2 == 0;
                let mut reference = whole.clone();
                reference.reflect = join.reflect;
                let mut total = 0;
                for index in 0..join.items() {
                    let tally = join.count(index..index + 1);
                    assert_eq!(
                        tally,
                        reference.count(index..index + 1),
                        "n = {n}, run {run}, item {index}"
                    );
                    total += tally.total();
                }
                assert_eq!(Some(total), known_total(n), "n = {n}, run {run}");
            }
        }
    }

    #[test]
    fn drawn_items_are_the_listed_ones_in_another_order() {
        let key = |i: &Item| (i.group, i.north, i.south, i.weight);
        for n in 4..=16 {
            let listed = Join::lay_out(n, JoinLayout::Table).unwrap();
            let drawn = Join::lay_out_drawn(n);
            let all = |order: &Order| {
                let mut items: Vec<_> = (0..order.len())
                    .flat_map(|i| order.items_of(i))
                    .map(|i| key(&i))
                    .collect();
                items.sort_unstable();
                items
            };
            assert_eq!(all(&drawn.order), all(&listed.order), "n = {n}");
        }
    }

    #[test]
    fn searched_cells_and_drawn_items_count_every_board_alike() {
        // Even boards with the reflections folded in and without; runs of
        // a split (or of its upper quarters) and of a few.
        // Row sets filled, counted with their cells searched, and both;
        // shared by the workers, none, some and all of them.
        for n in 4..=14 {
            let listed = Join::new(n, Join::fastest(), u64::MAX).unwrap();
            let layout = Join::lay_out_drawn(n);
            let cases = [
                (false, 1, 0, 0),
                (n % 2 == 0, 40, 30, 1 << 12),
                (false, RUN, SEARCHED_FILL_MOST, 0),
                (n % 2 == 0, RUN, SEARCHED_FILL_MOST, 1 << 30),
            ];
            for (reflect, run, fill_most, row_cache) in cases {
                let memory = MemoryPlan {
                    row_cache,
                    ..layout.memory
                };
                let mut drawn = Join::laid_out(n, Join::fastest(), &layout, memory);
                drawn.reflect = reflect;
                drawn.run = run;
                drawn.fill_most = fill_most;
                let mut reference = listed.clone();
                reference.reflect = reflect;
                let tally = drawn.count(0..drawn.items());
                assert_eq!(
                    tally,
                    reference.count(0..reference.items()),
                    "n = {n}, run {run}"
                );
                assert_eq!(Some(tally.total()), known_total(n), "n = {n}");
                let (shared, bytes) = drawn.row_cache.held();
                assert!(bytes <= row_cache, "n = {n}: {bytes} bytes shared");
                if row_cache > 1 << 20 {
                    assert!(shared > 0, "n = {n}: no row set shared");
                }
            }
        }
    }

    #[test]
    fn every_drawn_board_to_32_is_planned_within_4_gib_on_two_threads() {
        for n in LISTED_TO + 1..=LARGEST_N {
            let plan = Join::plan(n, JoinLayout::Searched, 2).unwrap();
            assert!(plan.total() < 4 << 30, "n = {n}: {plan:?}");
            let items = Join::items_of(n, JoinLayout::Searched).unwrap();
            assert!(
                (1 << 20..=1 << 22).contains(&items),
                "n = {n}: {items} items"
            );
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
    fn shapes_cover_the_diagonals_both_halves_reach() {
        // Brute force: the diagonals an east and a west queen can share.
        for n in 4..=13 {
            let h = n / 2;
            let frame = &frames(n, h)[0];
            let (east, west) = ((0, h - 1), (n - h, n - 1));
            let reach = |cols: (usize, usize), diagonal: &dyn Fn(usize, usize) -> usize| {
                let mut set = 0u64;
                for r in 0..n {
                    for c in cols.0..=cols.1 {
                        set |= 1 << diagonal(r, c);
                    }
                }
                set
            };
            let sums = reach(east, &|r, c| r + c) & reach(west, &|r, c| r + c);
            let diffs = reach(east, &|r, c| r + n - 1 - c) & reach(west, &|r, c| r + n - 1 - c);
            let low = |bits: usize| (1u64 << bits) - 1;
            assert_eq!(sums, low(frame.shape.sum.1) << frame.shape.sum.0, "n = {n}");
            assert_eq!(
                diffs,
                low(frame.shape.diff.1) << frame.shape.diff.0,
                "n = {n}"
            );
        }
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
    fn boards_past_the_largest_are_refused_before_any_table() {
        let past = Join::new(LARGEST_N + 1, Simd::None, u64::MAX).unwrap_err();
        assert_eq!(past, Error::BoardSize { n: LARGEST_N + 1 });
        let zero = Join::new(0, Simd::None, u64::MAX).unwrap_err();
        assert_eq!(zero, Error::BoardSize { n: 0 });
    }

    #[test]
    fn row_sets_are_filled_as_far_as_the_limit_leaves_room() {
        use super::order::layout::{fill_room, FILL_CEILING};
        // n = 28: 14×14 row sets; the searched layout plans for four of
        // SEARCHED_FILL_MOST placements a thread and fills larger ones only
        // where the limit leaves room for them, within it.
        let (n, h) = (28, 14);
        let threads = rayon::current_num_threads() as u64;
        let needed = Join::plan(n, JoinLayout::Searched, threads as usize)
            .unwrap()
            .total();
        let room = |most| fill_room(h, most);
        let limits = [
            (needed, SEARCHED_FILL_MOST),
            (
                needed + 2 * threads * room(2 * SEARCHED_FILL_MOST) - 1,
                SEARCHED_FILL_MOST,
            ),
            (
                needed + 2 * threads * room(2 * SEARCHED_FILL_MOST),
                2 * SEARCHED_FILL_MOST,
            ),
            (needed + 2 * threads * room(FILL_CEILING), FILL_CEILING),
            (u64::MAX, FILL_CEILING),
        ];
        for (limit, most) in limits {
            let join = Join::with_layout(n, JoinLayout::Searched, Simd::None, limit).unwrap();
            let plan = join.memory();
            assert_eq!(
                (plan.fill_most, join.fill_most),
                (most, most),
                "limit {limit}"
            );
            assert_eq!(plan.fill_room, room(most), "limit {limit}");
            assert!(plan.total() <= limit, "limit {limit}: {plan:?}");
        }
        // The table layout reads its cells from the table (or fills its
        // row sets whole, at n = 24, 25).
        let table = Join::with_layout(14, JoinLayout::Table, Simd::None, u64::MAX).unwrap();
        assert_eq!((table.memory().fill_most, table.memory().fill_room), (0, 0));
    }

    #[test]
    fn a_plan_over_the_limit_is_refused_with_what_it_needs() {
        let needed = Join::plan(14, JoinLayout::Table, rayon::current_num_threads())
            .unwrap()
            .total();
        assert_eq!(
            Join::new(14, Simd::None, needed - 1).unwrap_err(),
            Error::JoinMemory {
                n: 14,
                needed,
                limit: needed - 1
            }
        );
    }
}
