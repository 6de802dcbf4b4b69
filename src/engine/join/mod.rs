//! The join engine: counting by joining half-boards instead of
//! backtracking row by row (../shared/JOIN.md).
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
//! forbidden, and counted 8 times. The canonical pairs sharing a Q2 form a
//! group: their west halves are the same, glued once (keeping off Q2), and
//! each frame's east halves carry Q1's diagonals as pattern bits, so that
//! west halves on them pair with none.
//!
//! Work items are (group, rows of the half glued once: E for the mirror
//! frames, W for the others), ordered by estimated cost (the quarter
//! pairs their glue may try, and the pairs of halves), largest first; they
//! depend on n alone. Glued candidates are written and kept without a
//! branch, into per-thread scratch kept from item to item. The first item
//! (index 0, run first, beside the others) counts the solutions the
//! rotations fix ([`burnside`]), which with the total give the unique
//! solutions and the classes. Boards below 4 are counted by enumeration in
//! that item: the join needs two rows per half.
//!
//! Memory is planned before anything is allocated ([`Join::plan`]): the
//! quarter tables, the items, and per thread the largest half lists an item
//! can glue; a plan over the limit is refused with what it needs.
//!
//! Even boards from [`REFLECT_FROM`] also fold in the two diagonal
//! reflections (`Join::count_reflected`): about half the pairs are
//! compared. Not yet: a sieve on key bits (tried: its buckets leave blocks
//! too empty at n = 18).

pub mod burnside;
pub mod pairs;
pub mod quarter;

use std::cell::RefCell;
use std::ops::Range;
use std::sync::{Arc, Mutex};

use rayon::prelude::*;

use self::pairs::PairCounter;
use self::quarter::QuarterTable;
use super::{Engine, EngineId, Fingerprint};
use crate::problem::{check_board_size, Error, Symmetry};
use crate::reduce::Tally;

/// The version of the join's work items: bumped whenever the frames, the
/// items or their order change.
pub const FORMAT: u32 = 4;

/// The smallest board the join counts by joining; smaller ones are
/// enumerated.
pub const SMALLEST_JOINED: usize = 4;

/// The smallest even board whose items fold in the diagonal reflections
/// (`Join::count_reflected`): measured on one thread (AMD EPYC), n = 16
/// took 1.15× the plain count's time, n = 18 0.94×, and n = 20 on two
/// threads 0.74× (127.6 s against 171.4 s). Items' tallies differ between
/// the two ways (only their sums agree): changing this bumps [`FORMAT`].
pub const REFLECT_FROM: usize = 18;

/// The largest quarter the table indexes (its offsets are `u32`): 12×12,
/// for n = 24 and 25. Larger boards are refused (the 13×13 table holds
/// 6.4 × 10⁹ placements).
pub const LARGEST_QUARTER: usize = 12;

/// The largest board the join counts.
pub const LARGEST_N: usize = 2 * LARGEST_QUARTER + 1;

/// The boards from which laying the join out (sizing its quarter table,
/// bounding its items) takes more than a second: 1.8 s at n = 22, 17 s at
/// n = 24, 47 s at n = 25 (2-core Xeon dev VM).
pub const SLOW_LAYOUT_FROM: usize = 22;

/// The columns of one half: where its quarters stand, and which of their
/// columns are free.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Side {
    /// The board column of the quarters' first column.
    c0: usize,
    /// The free columns, as a bit set of the quarters' columns.
    columns: u32,
}

/// Which diagonals an east and a west half can share: the rising ones
/// `sum.0..sum.0 + sum.1` and the falling ones `diff.0..diff.0 + diff.1`
/// (first, count). A half's pattern holds them, rising ones in the low
/// bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Shape {
    sum: (usize, usize),
    diff: (usize, usize),
}

impl Shape {
    /// The diagonals shared by the columns `east` and `west` (inclusive
    /// ranges, east left of west) of the n×n board.
    fn between(n: usize, east: (usize, usize), west: (usize, usize)) -> Shape {
        // Rising r + c: east reaches n - 1 + east.1, west starts at west.0.
        // Falling r - c + n - 1: east starts at n - 1 - east.1, west
        // reaches 2n - 2 - west.0.
        let sum = (west.0, n + east.1 - west.0);
        let diff = (n - 1 - east.1, n + east.1 - west.0);
        Shape { sum, diff }
    }

    /// The pattern's width in bits.
    fn bits(self) -> usize {
        self.sum.1 + self.diff.1
    }

    /// The pattern of a half with diagonals `(sum, diff)`.
    fn pattern(self, (sum, diff): (u64, u64)) -> u64 {
        let low = |bits: usize| (1u64 << bits) - 1;
        (sum >> self.sum.0 & low(self.sum.1))
            | (diff >> self.diff.0 & low(self.diff.1)) << self.sum.1
    }
}

/// What the queens outside the quarters leave to a join: the columns of
/// each side, the rows, the diagonals held outside, and how many boards of
/// the orbit each counted one stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Frame {
    east: Side,
    west: Side,
    /// North and south rows free, as bit sets of the quarters' rows.
    north: u32,
    south: u32,
    /// Diagonals held outside the quarters (rising, falling).
    forbidden: (u64, u64),
    /// Those the west half keeps off when it is glued once for a group:
    /// the middle column's queen's (all of them for a mirror frame).
    west_forbidden: (u64, u64),
    /// The middle row's queen's diagonals as pattern bits, set in the east
    /// halves when the west ones are glued once for a group (so that west
    /// halves on them pair with none).
    middle_row: u64,
    shape: Shape,
    /// The boards each counted solution stands for.
    weight: u64,
    /// Which row sets count alike.
    fold: Fold,
}

/// The symmetries of a frame that fold its items.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Fold {
    /// The west side is the east's mirror image and the frame its own
    /// north-south flip (even n, and the centre queen of odd n): E, its
    /// complement and their flips count alike.
    MirrorAndFlip,
    /// None: the frame stands for its images (the off-centre pairs of odd
    /// n, weight 8).
    None,
}

/// One work item: a group of frames and the rows of the half built once
/// for all of them (the east half's for a mirror frame, else the west's).
#[derive(Clone, Copy, Debug)]
struct Item {
    group: u32,
    north: u16,
    south: u16,
    /// The row sets this one stands for (its orbit under the flip, and the
    /// mirror), times the frame's weight.
    weight: u32,
}

/// What one item's halves may glue, at most: for each half, the sum over
/// its column splits of the two quarter cells' sizes multiplied.
#[derive(Clone, Copy, Debug, Default)]
struct Bound {
    /// The largest east and west halves.
    east: u64,
    west: u64,
    /// The largest lower cell placed on the way.
    lower: u64,
    /// All the halves the item glues.
    glue: u64,
    /// The pairs of glued halves it compares.
    pairs: f64,
}

impl Bound {
    /// The item's estimated cost: gluing the halves, and the pairs.
    fn cost(self) -> f64 {
        // Each glued candidate costs about as much as 2,000 pairs in the
        // bit-sliced counter; about a third of the candidates survive.
        self.glue as f64 + self.pairs / 9.0 / 2_000.0
    }
}

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

/// The join engine for one board.
#[derive(Clone, Debug)]
pub struct Join {
    n: usize,
    h: usize,
    /// The h×h table (empty below [`SMALLEST_JOINED`]).
    square: QuarterTable,
    splits: Splits,
    frames: Vec<Frame>,
    /// Runs of frames that share their west half (each a single frame, but
    /// for the off-centre ones of odd n: one per middle-column queen).
    groups: Vec<Range<usize>>,
    /// The pair items, largest estimated cost first, as work items
    /// 1..=len; work item 0 counts what the rotations fix (and below
    /// [`SMALLEST_JOINED`] the whole board): first, so that its searches
    /// (36 ms at n = 18) run beside the pairs rather than after them.
    items: Vec<Item>,
    costs: Vec<f32>,
    counter: PairCounter,
    memory: MemoryPlan,
    /// Whether even boards fold in the diagonal reflections (from
    /// [`REFLECT_FROM`]).
    reflect: bool,
}

/// The k-subsets of every column set the frames use, listed once: the
/// column splits a half's glue walks.
#[derive(Clone, Debug, Default)]
struct Splits {
    /// `lists[columns][k]`, empty for the sets no frame uses.
    lists: Vec<Vec<Vec<u32>>>,
}

impl Splits {
    fn new(h: usize, frames: &[Frame]) -> Splits {
        let mut lists = vec![Vec::new(); 1 << h];
        for frame in frames {
            for columns in [frame.east.columns, frame.west.columns] {
                let slot: &mut Vec<Vec<u32>> = &mut lists[columns as usize];
                if slot.is_empty() {
                    *slot = (0..=h as u32)
                        .map(|k| subsets(columns, k).collect())
                        .collect();
                }
            }
        }
        Splits { lists }
    }

    /// The k-subsets of `columns` (a set some frame uses).
    fn of(&self, columns: u32, k: u32) -> &[u32] {
        &self.lists[columns as usize][k as usize]
    }
}

/// A join before its table is filled.
struct Layout {
    sizes: Option<quarter::CellSizes>,
    splits: Splits,
    frames: Vec<Frame>,
    groups: Vec<Range<usize>>,
    items: Vec<Item>,
    costs: Vec<f32>,
    memory: MemoryPlan,
}

thread_local! {
    /// Each worker's half lists and lower quarters, kept from item to item.
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

#[derive(Default)]
struct Scratch {
    east: Vec<u64>,
    west: Vec<u64>,
    lower: Vec<(u64, u64)>,
    /// The halves of one side off the long diagonals.
    spare: Vec<u64>,
}

impl Join {
    /// What the join of the n×n board needs in memory on `threads`
    /// threads, planned without allocating the tables.
    ///
    /// # Errors
    /// [`Error::BoardSize`] unless 1 <= n <= [`MAX_N`](crate::problem::MAX_N);
    /// [`Error::JoinTooLarge`] for quarters over [`LARGEST_QUARTER`].
    pub fn plan(n: usize, threads: usize) -> Result<MemoryPlan, Error> {
        Ok(Self::layout(n)?.memory.for_threads(threads))
    }

    /// The join of the n×n board, counting pairs with `counter`, if its
    /// [plan](Join::plan) on the current rayon pool's threads fits in
    /// `max_memory` bytes.
    ///
    /// # Errors
    /// As [`Join::plan`], and [`Error::JoinMemory`] if the plan needs more
    /// than `max_memory`; [`Error::CpuLacks`] if this CPU does not run
    /// `counter`.
    pub fn new(n: usize, counter: PairCounter, max_memory: u64) -> Result<Join, Error> {
        if !counter.available() {
            return Err(Error::CpuLacks {
                path: "AVX-512 pair counter",
                needs: crate::engine::cpu::AVX512_PAIRS_NEEDS,
            });
        }
        let threads = rayon::current_num_threads();
        let layout = Self::layout(n)?;
        let memory = layout.memory.for_threads(threads);
        if memory.total() > max_memory {
            return Err(Error::JoinMemory {
                n,
                needed: memory.total(),
                limit: max_memory,
            });
        }
        let h = n / 2;
        Ok(Join {
            n,
            h,
            square: match &layout.sizes {
                Some(sizes) => QuarterTable::from_sizes(sizes),
                None => QuarterTable::new(1, 1),
            },
            splits: layout.splits.clone(),
            frames: layout.frames.clone(),
            groups: layout.groups.clone(),
            items: layout.items.clone(),
            costs: layout.costs.clone(),
            counter,
            memory,
            reflect: n >= REFLECT_FROM,
        })
    }

    /// The layout of the n×n board, worked out once a process: sizing the
    /// quarter table takes seconds from n = 22 (54 s before this cache,
    /// when the plan, the costs and the engine each sized it), and a count
    /// asks for the memory plan, the costs and the engine in turn. The
    /// last board laid out is kept (its cell sizes are in the memory plan).
    fn layout(n: usize) -> Result<Arc<Layout>, Error> {
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

    /// The frames, the items (sorted by cost), their costs and the memory
    /// plan for one thread; the table is only walked to be sized.
    fn lay_out(n: usize) -> Result<Layout, Error> {
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
        if n < SMALLEST_JOINED {
            let memory = MemoryPlan {
                tables: 0,
                items: 0,
                per_thread: scratch,
                threads,
            };
            return Ok(Layout {
                sizes: None,
                splits: Splits::default(),
                frames: Vec::new(),
                groups: Vec::new(),
                items: Vec::new(),
                costs: Vec::new(),
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
        let bounds: Vec<Bound> = items
            .par_iter()
            .map(|item| {
                let frames = &frames[groups[item.group as usize].clone()];
                bound(&sizes, &splits, frames, item)
            })
            .collect();
        let mut order: Vec<(f32, Item)> = bounds
            .iter()
            .zip(&items)
            .map(|(b, &item)| (b.cost() as f32, item))
            .collect();
        // Largest first; ties in the order the frames made them.
        order.sort_by(|a, b| b.0.total_cmp(&a.0));
        let largest = bounds.iter().fold(Bound::default(), |m, b| Bound {
            east: m.east.max(b.east),
            west: m.west.max(b.west),
            lower: m.lower.max(b.lower),
            ..Bound::default()
        });
        let memory = MemoryPlan {
            // The table, and the cell sizes kept with the layout.
            tables: sizes.table_bytes() + sizes.bytes(),
            items: (order.len() * (std::mem::size_of::<Item>() + 4)) as u64,
            // East, west, one side's halves off the long diagonals, lower
            // quarters.
            per_thread: scratch
                + 8 * (largest.east + largest.west + largest.east.max(largest.west))
                + 16 * largest.lower,
            threads,
        };
        let (costs, items) = order.into_iter().unzip();
        Ok(Layout {
            sizes: Some(sizes),
            splits,
            frames,
            groups,
            items,
            costs,
            memory,
        })
    }

    /// The estimated cost of every work item, as [`Engine::cost`] gives
    /// them, without filling the table.
    ///
    /// # Errors
    /// As [`Join::plan`].
    pub fn costs(n: usize) -> Result<Vec<f64>, Error> {
        let layout = Self::layout(n)?;
        let first = layout.costs.last().map_or(1.0, |&c| f64::from(c));
        Ok([first]
            .into_iter()
            .chain(layout.costs.iter().map(|&c| f64::from(c)))
            .collect())
    }

    /// The board size.
    pub fn n(&self) -> usize {
        self.n
    }

    /// The pair counter.
    pub fn counter(&self) -> PairCounter {
        self.counter
    }

    /// The memory planned.
    pub fn memory(&self) -> MemoryPlan {
        self.memory
    }

    /// How many items join pairs (the others: the last one).
    pub fn pair_items(&self) -> usize {
        self.items.len()
    }

    /// Glues the halves on the rows `north` and `south` (bit sets of the
    /// quarters' rows) and the columns of `side` that keep off `forbidden`,
    /// and appends their patterns (of `shape`), with the bits `extra` set,
    /// to `patterns`.
    fn halves(
        &self,
        (north, south): (u32, u32),
        side: Side,
        (forbidden, shape, extra): ((u64, u64), Shape, u64),
        lower: &mut Vec<(u64, u64)>,
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
            lower.clear();
            lower.reserve(cell.len());
            let spare = lower.spare_capacity_mut();
            let mut placed = 0;
            for b in cell {
                let b = b.place(n, h, below, c0);
                spare[placed].write(b);
                placed += usize::from(keeps_off(b));
            }
            // SAFETY: the first `placed` slots were written just above.
            unsafe { lower.set_len(placed) };
            if lower.is_empty() {
                continue;
            }
            // Every pair is written and kept or not by its test, without a
            // branch: a third or so are kept, which no predictor learns.
            patterns.reserve(upper.len() * lower.len());
            let spare = patterns.spare_capacity_mut();
            let mut kept = 0;
            for a in upper {
                let (a_sum, a_diff) = a.place(n, h, 0, c0);
                if !keeps_off((a_sum, a_diff)) {
                    continue;
                }
                for &(b_sum, b_diff) in lower.iter() {
                    spare[kept].write(shape.pattern((a_sum | b_sum, a_diff | b_diff)) | extra);
                    kept += usize::from((a_sum & b_sum) | (a_diff & b_diff) == 0);
                }
            }
            // SAFETY: the first `kept` slots of the spare capacity were
            // written above (each slot is written before `kept` passes it).
            unsafe { patterns.set_len(patterns.len() + kept) };
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
            both_ways += self.counter.count_weighted(kept, others, bits, long);
        }
        weight / 2 * both_ways
    }

    /// The solutions item `item` stands for.
    fn count_item(&self, item: &Item) -> u64 {
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
                    return weight * self.counter.count(east, west, shape.bits());
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
                    total += weight * self.counter.count(east, west, shape.bits());
                }
            }
            total
        })
    }
}

/// What `item` of the frames `frames` may glue, from the quarter cells'
/// sizes.
fn bound(sizes: &quarter::CellSizes, splits: &Splits, frames: &[Frame], item: &Item) -> Bound {
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
    let square = |c0| Side { c0, columns: all };
    // East columns 0..h, west n - h..n (the middle column of odd n apart).
    let whole = Frame {
        east: square(0),
        west: square(n - h),
        north: all,
        south: all,
        forbidden: (0, 0),
        west_forbidden: (0, 0),
        middle_row: 0,
        shape: Shape::between(n, (0, h - 1), (n - h, n - 1)),
        weight: 1,
        fold: Fold::MirrorAndFlip,
    };
    if n.is_multiple_of(2) {
        return vec![whole];
    }
    let diagonals = |r: usize, c: usize| (1u64 << (r + c), 1u64 << (r + n - 1 - c));
    let centre = diagonals(h, h);
    let mut frames = vec![Frame {
        forbidden: centre,
        west_forbidden: centre,
        ..whole
    }];
    let h_signed = h as i64;
    let offsets = (-h_signed..=h_signed).filter(|&x| x != 0);
    // By the middle column's queen first, so that the frames sharing it
    // (and so their west halves) stand together.
    for b in offsets.clone() {
        for a in offsets.clone() {
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
                east: Side {
                    columns: east,
                    ..whole.east
                },
                west: Side {
                    columns: west,
                    ..whole.west
                },
                north,
                south,
                forbidden: (s1 | s2, d1 | d2),
                // Q1 in the east: the west halves need only keep off Q2
                // when glued, and are sifted for Q1 by pattern bits (its
                // diagonals the west can reach all cross the middle).
                west_forbidden: if a < 0 { (s2, d2) } else { (s1 | s2, d1 | d2) },
                middle_row: if a < 0 {
                    whole.shape.pattern((s1, d1))
                } else {
                    0
                },
                weight: 8,
                fold: Fold::None,
                ..whole
            });
        }
    }
    frames
}

/// The runs of consecutive frames that can share their west halves: the
/// off-centre frames of odd n with the same west side, rows and west
/// forbidden diagonals; every other frame alone.
fn groups(frames: &[Frame]) -> Vec<Range<usize>> {
    let shares = |a: &Frame, b: &Frame| {
        a.fold == Fold::None
            && b.fold == Fold::None
            && (a.west, a.north, a.south, a.west_forbidden)
                == (b.west, b.north, b.south, b.west_forbidden)
    };
    let mut groups: Vec<Range<usize>> = Vec::new();
    for (index, frame) in frames.iter().enumerate() {
        match groups.last_mut() {
            Some(last) if shares(&frames[last.start], frame) => last.end = index + 1,
            _ => groups.push(index..index + 1),
        }
    }
    groups
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
/// many as its east columns) and west, one per orbit under the frame's
/// fold.
fn items_of(h: usize, index: usize, frame: &Frame, items: &mut Vec<Item>) {
    // The rows of the half built once: the east's for a mirror frame, else
    // the west's.
    let wanted = match frame.fold {
        Fold::MirrorAndFlip => frame.east.columns.count_ones(),
        Fold::None => frame.west.columns.count_ones(),
    };
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
            if frame.fold == Fold::MirrorAndFlip {
                // E, its complement (the east-west mirror), its reverse
                // (the north-south flip) and the reverse's complement count
                // alike: the smallest stands for all of them.
                let (flip_north, flip_south) = (reverse(south), reverse(north));
                let mut orbit = [
                    rows(north, south),
                    rows(frame.north ^ north, frame.south ^ south),
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
                group: index as u32,
                north: north as u16,
                south: south as u16,
                weight: weight as u32,
            });
        }
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
        }
    }

    fn items(&self) -> usize {
        self.items.len() + 1
    }

    fn cost(&self, item: usize) -> f64 {
        // The first item's searches cost about as little as the least
        // pair item.
        let cost = match item {
            0 => self.costs.last(),
            _ => self.costs.get(item - 1),
        };
        cost.map_or(1.0, |&c| f64::from(c))
    }

    fn count(&self, items: Range<usize>) -> Tally {
        let mut tally = Tally::default();
        for index in items {
            match index.checked_sub(1).and_then(|i| self.items.get(i)) {
                Some(item) => tally.weighted += u128::from(self.count_item(item)),
                None => {
                    if self.n < SMALLEST_JOINED {
                        tally.weighted += u128::from(count_small(self.n));
                    }
                    tally.add(Tally {
                        fixed: Some(burnside::fixed(self.n)),
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
    use super::*;
    use crate::oeis::known_total;

    #[test]
    fn the_join_counts_every_board_as_oeis_lists() {
        for n in 1..=16 {
            let join = Join::new(n, PairCounter::fastest(), u64::MAX).unwrap();
            let total = join.count(0..join.items()).total();
            assert_eq!(Some(total as u64), known_total(n), "n = {n}");
        }
    }

    #[test]
    fn folding_in_the_diagonal_reflections_keeps_every_total() {
        // The board sizes the fast tests reach count the plain way: force
        // the reflections on them.
        for n in (4..=16).step_by(2) {
            let mut join = Join::new(n, PairCounter::fastest(), u64::MAX).unwrap();
            join.reflect = true;
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
    fn boards_past_the_largest_quarter_are_refused_before_any_table() {
        let refused = Error::JoinTooLarge { n: 26, largest: 25 };
        assert_eq!(Join::plan(26, 1).unwrap_err(), refused);
        let zero = Join::new(0, PairCounter::Portable, u64::MAX).unwrap_err();
        assert_eq!(zero, Error::BoardSize { n: 0 });
    }

    #[test]
    fn a_plan_over_the_limit_is_refused_with_what_it_needs() {
        let needed = Join::plan(14, rayon::current_num_threads())
            .unwrap()
            .total();
        assert_eq!(
            Join::new(14, PairCounter::Portable, needed - 1).unwrap_err(),
            Error::JoinMemory {
                n: 14,
                needed,
                limit: needed - 1
            }
        );
    }
}
