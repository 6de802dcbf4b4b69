//! The plan: an n×n search cut at depth k into weighted, independent
//! subproblems, grouped into work items.
//!
//! A subproblem is a partial placement of the first k rows; its subtree is
//! counted by a [kernel](super::kernel) and weighted by its
//! [`Family`]. Subproblems are numbered in the order a depth-first walk
//! meets them, and that order depends on (n, depth, symmetry) alone: shards,
//! checkpoints and batches can name them.
//!
//! A **work item** is a run of at most [`Plan::run`] consecutive subproblems
//! of one family, so that the lanes can take it as one batch with the row
//! rules as constants. The run length depends on the plan's size alone
//! (the size over [`MIN_ITEMS`], at most [`MAX_RUN`]): the same items for 1
//! thread or 1024, and for either kernel. The automatic depth is the
//! shallowest that gives every thread [`ITEMS_PER_THREAD`] items.
//!
//! With [`Symmetry::Mirror`] the first-row queen stays in the left half with
//! weight 2, since reflecting a solution left to right maps it to one with the
//! first queen in the right half. For odd n the middle column is its own
//! mirror image; its second-row queen is cut the same way (left half, weight
//! 2), so the middle branch is always split at least two rows deep.
//!
//! With [`Symmetry::Full`] the subproblems are the corner and side branches of
//! [`symmetry`](super::symmetry), split further down to depth k under the same
//! row rules the kernels apply; their completions are weighted by the size
//! of their orbit. The corner branch always places two rows; the side
//! branch's pre-placed queen fills a row of its own, which a cut never stops
//! on.
//!
//! # Memory
//!
//! A stored subproblem takes 32 bytes (its three masks and its columns, five
//! bits a row). The plan is sized before it is allocated: a walk counts the
//! subproblems, and the placements it passes on every row above them,
//! stopping as soon as a row or the cut passes the limit
//! ([`MAX_SUBPROBLEMS`], 1 GiB, or what `--max-memory` allows). A plan
//! whose walk passes more placements on some row than it may hold is
//! refused too, with [`Error::PlanTooLarge`], which names the depths that
//! fit: past the tree's widest row a deep plan can be small while
//! the walk to it is not (n = 20 at depth 20 passes 10⁹ placements a row
//! to reach its 6 × 10⁸ subproblems: 30 s and more before a refusal that
//! now comes after the first row over the limit, about a second). So
//! every depth up to the largest fits, and sizing one costs at most a
//! walk of the limit's size a row. The automatic depth always fits. Kernels that
//! split a subproblem further ([`refine`](super::rules::refine)) walk it lazily, with no copy of
//! the plan.

use std::ops::{ControlFlow, Range};

use super::rules::{any_row, walk};
use super::state::{full_mask, Placed, State};
pub use super::state::{Family, Subproblem};
use crate::problem::{check_board_size, Error, Symmetry};

/// How many work items per thread the automatic split depth aims for.
///
/// Subtree sizes are uneven (by 10× and more at the same depth); tens of
/// items per thread let work stealing even out the finish, while the
/// per-item overhead stays far below a millisecond-sized item.
pub const ITEMS_PER_THREAD: usize = 64;

/// The most memory a plan may take: 1 GiB.
pub const MAX_PLAN_BYTES: usize = 1 << 30;

/// The most subproblems `max_memory` bytes hold (32 bytes each), at least
/// one; [`MAX_SUBPROBLEMS`] where no limit is given.
pub fn max_subproblems(max_memory: Option<u64>) -> usize {
    max_memory.map_or(MAX_SUBPROBLEMS, |bytes| {
        usize::try_from(bytes / std::mem::size_of::<Stored>() as u64)
            .unwrap_or(usize::MAX)
            .max(1)
    })
}

/// The most subproblems a plan may hold: [`MAX_PLAN_BYTES`] of 32-byte
/// subproblems.
pub const MAX_SUBPROBLEMS: usize = MAX_PLAN_BYTES / std::mem::size_of::<Stored>();

/// A plan is cut into about this many work items, or more: its runs hold
/// its size over `MIN_ITEMS` subproblems (at least one, at most
/// [`MAX_RUN`]). Several subproblems to an item let the lanes refine them
/// into one batch of shallow pieces, which keeps them busier than a batch
/// per subproblem (3–4% at n = 16 on one thread).
pub const MIN_ITEMS: usize = 64;

/// The longest run of subproblems in one work item.
pub const MAX_RUN: usize = 64;

/// A subproblem as the plan stores it: 32 bytes. Its family is its
/// segment's, its row follows from its masks.
#[derive(Clone, Copy, Debug)]
struct Stored {
    state: State,
    placed: Placed,
}

/// A run of consecutive subproblems of one family.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Segment {
    family: Family,
    /// The index of its first subproblem.
    first: usize,
    /// The index of its first work item.
    first_item: usize,
}

/// A search cut into subproblems, grouped into work items.
#[derive(Clone, Debug)]
pub struct Plan {
    /// The board size.
    pub n: usize,
    /// The number of rows placed in each subproblem (the middle branch of an
    /// odd board under mirror symmetry is placed at least two deep).
    pub depth: usize,
    /// The symmetry the weights account for.
    pub symmetry: Symmetry,
    stored: Vec<Stored>,
    segments: Vec<Segment>,
    run: usize,
    items: usize,
}

impl Plan {
    /// The plan for an n×n board cut at `depth` rows.
    ///
    /// # Errors
    /// [`Error::BoardSize`] unless `1 <= n <= MAX_N`; [`Error::Depth`] unless
    /// `1 <= depth <= n`; [`Error::PlanTooLarge`] if the plan would hold
    /// more than [`MAX_SUBPROBLEMS`].
    pub fn new(n: usize, depth: usize, symmetry: Symmetry) -> Result<Plan, Error> {
        Plan::within(n, depth, symmetry, MAX_SUBPROBLEMS)
    }

    /// [`Plan::new`] with room for at most `max_subproblems` (see
    /// [`max_subproblems`]).
    ///
    /// # Errors
    /// As [`Plan::new`], [`Error::PlanTooLarge`] against this limit.
    pub fn within(
        n: usize,
        depth: usize,
        symmetry: Symmetry,
        max_subproblems: usize,
    ) -> Result<Plan, Error> {
        check_board_size(n)?;
        if !(1..=n).contains(&depth) {
            return Err(Error::Depth { depth, n });
        }
        let (size, _) = match Plan::shape_or_first_unfit(n, depth, symmetry, max_subproblems) {
            Ok(shape) => shape,
            Err(first) => {
                return Err(Error::PlanTooLarge {
                    n,
                    depth,
                    largest: first.map_or_else(
                        || Plan::largest_depth(n, symmetry, max_subproblems),
                        |first| first - 1,
                    ),
                    max_subproblems,
                })
            }
        };
        Ok(Plan::build(n, depth, symmetry, size))
    }

    /// The plan at the automatic depth for `threads` threads: the smallest
    /// depth with at least [`ITEMS_PER_THREAD`] work items per thread (or
    /// depth n, for boards too small to have that many; or the deepest that
    /// fits in memory, for a thread count too large for it).
    ///
    /// # Errors
    /// [`Error::BoardSize`] unless `1 <= n <= MAX_N`.
    pub fn auto(n: usize, symmetry: Symmetry, threads: usize) -> Result<Plan, Error> {
        Plan::auto_within(n, symmetry, threads, MAX_SUBPROBLEMS)
    }

    /// [`Plan::auto`] with room for at most `max_subproblems`.
    ///
    /// # Errors
    /// As [`Plan::auto`].
    pub fn auto_within(
        n: usize,
        symmetry: Symmetry,
        threads: usize,
        max_subproblems: usize,
    ) -> Result<Plan, Error> {
        let (depth, size) = Plan::auto_shape(n, symmetry, threads, max_subproblems)?;
        Ok(Plan::build(n, depth, symmetry, size))
    }

    /// The depth [`Plan::auto_within`] chooses, without building the plan.
    ///
    /// # Errors
    /// [`Error::BoardSize`] unless `1 <= n <= MAX_N`.
    pub fn auto_depth(
        n: usize,
        symmetry: Symmetry,
        threads: usize,
        max_subproblems: usize,
    ) -> Result<usize, Error> {
        Plan::auto_shape(n, symmetry, threads, max_subproblems).map(|(depth, _)| depth)
    }

    /// The automatic depth and its plan's size.
    fn auto_shape(
        n: usize,
        symmetry: Symmetry,
        threads: usize,
        max_subproblems: usize,
    ) -> Result<(usize, usize), Error> {
        check_board_size(n)?;
        let wanted = ITEMS_PER_THREAD.saturating_mul(threads.max(1));
        let mut depth = 1;
        let mut fits = None;
        loop {
            match Plan::shape(n, depth, symmetry, max_subproblems.max(1)) {
                Some((size, items)) if items < wanted && depth < n => {
                    fits = Some((depth, size));
                    depth += 1;
                }
                Some((size, _)) => return Ok((depth, size)),
                // Too many threads for a plan in memory: the deepest that fits.
                None => return Ok(fits.expect("depth 1 always fits")),
            }
        }
    }

    /// How many subproblems the plan for (n, depth, symmetry) holds, or
    /// `None` if more than `limit`, or if its walk passes more than
    /// `limit` placements on some row above them; the walk stops as soon
    /// as it knows.
    pub fn size(n: usize, depth: usize, symmetry: Symmetry, limit: usize) -> Option<usize> {
        Plan::shape(n, depth, symmetry, limit).map(|(size, _)| size)
    }

    /// How many work items the plan for (n, depth, symmetry) has, or
    /// `None` if it would not fit in `max_subproblems` (as
    /// [`Plan::size`]); nothing is stored.
    pub fn items_of(
        n: usize,
        depth: usize,
        symmetry: Symmetry,
        max_subproblems: usize,
    ) -> Option<usize> {
        Plan::shape(n, depth, symmetry, max_subproblems).map(|(_, items)| items)
    }

    /// The subproblems and work items of the plan for (n, depth, symmetry),
    /// or `None` if it, or a row its walk passes, has more than `limit`.
    ///
    /// The rows grow several times a row down to the tree's widest, and a
    /// walk to a deeper cut meets the first row over the limit only after
    /// walking the deeper rows' share too (n = 20 at depth 20: 2.7 s,
    /// against 0.6 s one depth at a time). So the shallower plans are
    /// sized first, one depth at a time while they grow (a few times the
    /// last one's walk in all), then this one.
    fn shape(n: usize, depth: usize, symmetry: Symmetry, limit: usize) -> Option<(usize, usize)> {
        Plan::shape_or_first_unfit(n, depth, symmetry, limit).ok()
    }

    /// [`Plan::shape`], or when it does not fit, the first depth known not
    /// to fit with every shallower one fitting (`None` if the walk to
    /// `depth` itself failed after the shallower ones grew past the
    /// widest row: a depth in between may be the first).
    fn shape_or_first_unfit(
        n: usize,
        depth: usize,
        symmetry: Symmetry,
        limit: usize,
    ) -> Result<(usize, usize), Option<usize>> {
        let mut last = 0;
        let mut sized_to = 0;
        for shallower in 1..depth {
            let (size, _) = Plan::shape_at(n, shallower, symmetry, limit).ok_or(Some(shallower))?;
            sized_to = shallower;
            if size <= last {
                break; // past the widest row
            }
            last = size;
        }
        Plan::shape_at(n, depth, symmetry, limit).ok_or((sized_to + 1 == depth).then_some(depth))
    }

    /// [`Plan::shape`] by one walk to the cut.
    fn shape_at(
        n: usize,
        depth: usize,
        symmetry: Symmetry,
        limit: usize,
    ) -> Option<(usize, usize)> {
        let mut segments: Vec<(Family, usize)> = Vec::new();
        let mut size = 0usize;
        let mut passed = [0usize; crate::problem::MAX_N + 1];
        let mut pass = |row: usize| {
            passed[row] += 1;
            match passed[row] > limit {
                true => ControlFlow::Break(()),
                false => ControlFlow::Continue(()),
            }
        };
        let walked = walk(n, depth, symmetry, &mut pass, &mut |family, _, _| {
            match segments.last_mut() {
                Some((last, len)) if *last == family => *len += 1,
                _ => segments.push((family, 1)),
            }
            size += 1;
            if size > limit {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        });
        let run = run_for(size);
        let items = segments.iter().map(|&(_, len)| len.div_ceil(run)).sum();
        walked.is_continue().then_some((size, items))
    }

    /// The depth up to which every plan fits in `max_subproblems`: the one
    /// before the first that does not (see [`Plan::size`]; the walks stop
    /// at the first row over the limit).
    pub fn largest_depth(n: usize, symmetry: Symmetry, max_subproblems: usize) -> usize {
        match Plan::shape_or_first_unfit(n, n, symmetry, max_subproblems) {
            Ok(_) => n,
            Err(Some(first)) => first - 1,
            Err(None) => (1..=n)
                .take_while(|&depth| Plan::size(n, depth, symmetry, max_subproblems).is_some())
                .last()
                .unwrap_or(0),
        }
    }

    /// Walks the plan a second time into storage sized for `size`
    /// subproblems.
    fn build(n: usize, depth: usize, symmetry: Symmetry, size: usize) -> Plan {
        let mut stored = Vec::with_capacity(size);
        let mut families: Vec<(Family, usize)> = Vec::new();
        let _ = walk(
            n,
            depth,
            symmetry,
            &mut any_row,
            &mut |family, state, placed| {
                if families.last().map(|&(f, _)| f) != Some(family) {
                    families.push((family, stored.len()));
                }
                stored.push(Stored { state, placed });
                ControlFlow::Continue(())
            },
        );
        debug_assert_eq!(stored.len(), size);
        let run = run_for(size);
        let mut segments = Vec::with_capacity(families.len());
        let mut items = 0;
        for (i, &(family, first)) in families.iter().enumerate() {
            let end = families.get(i + 1).map_or(size, |&(_, next)| next);
            segments.push(Segment {
                family,
                first,
                first_item: items,
            });
            items += (end - first).div_ceil(run);
        }
        Plan {
            n,
            depth,
            symmetry,
            stored,
            segments,
            run,
            items,
        }
    }

    /// The number of subproblems.
    pub fn len(&self) -> usize {
        self.stored.len()
    }

    /// Whether the plan has no subproblem: n = 2 and 3, where no second
    /// queen fits beside the first (other boards without a solution can
    /// still have subproblems).
    pub fn is_empty(&self) -> bool {
        self.stored.is_empty()
    }

    /// The subproblem with index `index`.
    pub fn subproblem(&self, index: usize) -> Subproblem {
        self.decode(self.segments[self.segment_of(index)].family, index)
    }

    /// The subproblems of work item `item`, decoded.
    pub fn item_subproblems(&self, item: usize) -> impl Iterator<Item = Subproblem> + '_ {
        let range = self.item(item);
        let family = self.segments[self.segment_of(range.start)].family;
        range.map(move |index| self.decode(family, index))
    }

    /// Subproblem `index`, of `family`.
    fn decode(&self, family: Family, index: usize) -> Subproblem {
        let Stored { state, placed } = self.stored[index];
        let placed_rows = state.rows_placed();
        let row = match family {
            // The column-0 queen is in the masks from the start, and a cut
            // never stops on its row.
            Family::Side { bound1 } => {
                let fixed = self.n - 1 - usize::from(bound1);
                if placed_rows - 1 < fixed {
                    placed_rows - 1
                } else {
                    placed_rows
                }
            }
            _ => placed_rows,
        };
        Subproblem {
            state,
            family,
            row,
            placed,
        }
    }

    /// Every subproblem, in index order.
    pub fn subproblems(&self) -> impl Iterator<Item = Subproblem> + '_ {
        (0..self.len()).map(|i| self.subproblem(i))
    }

    /// The most subproblems in one work item.
    pub fn run(&self) -> usize {
        self.run
    }

    /// The number of work items.
    pub fn items(&self) -> usize {
        self.items
    }

    /// The subproblems of work item `item`: consecutive, of one family.
    pub fn item(&self, item: usize) -> Range<usize> {
        assert!(item < self.items, "item {item} of {}", self.items);
        let s = self.segments.partition_point(|seg| seg.first_item <= item) - 1;
        let segment = self.segments[s];
        let end = self
            .segments
            .get(s + 1)
            .map_or(self.len(), |next| next.first);
        let start = segment.first + (item - segment.first_item) * self.run;
        start..(start + self.run).min(end)
    }

    /// A rough estimate of what work item `item` costs, in arbitrary units
    /// (comparable within one plan): for each subproblem, one for the visit
    /// plus its free squares on the next row times a branching factor of 3
    /// for each row below.
    pub fn item_cost(&self, item: usize) -> f64 {
        let full = full_mask(self.n);
        self.item_subproblems(item)
            .map(|s| {
                let rows_left = self.n.saturating_sub(s.row) as i32;
                let free = f64::from(s.state.free(full).count_ones());
                1.0 + free * 3f64.powi((rows_left - 1).max(0))
            })
            .sum()
    }

    /// The sum of the weights of weighted subproblems: how many solutions the
    /// plan would stand for if every subtree had exactly one completion.
    pub fn total_weight(&self) -> u64 {
        self.subproblems().filter_map(|s| s.weight()).sum()
    }

    fn segment_of(&self, index: usize) -> usize {
        self.segments.partition_point(|seg| seg.first <= index) - 1
    }
}

/// The run length of the items of a plan of `size` subproblems.
fn run_for(size: usize) -> usize {
    (size / MIN_ITEMS).clamp(1, MAX_RUN)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::backtrack::rules::refine;

    #[test]
    fn a_stored_subproblem_takes_thirty_two_bytes() {
        assert_eq!(std::mem::size_of::<Stored>(), 32);
    }

    #[test]
    fn placed_columns_round_trip_in_every_row() {
        let mut placed = Placed::default();
        for row in 0..32 {
            placed = placed.with(row, 1 << ((row * 7 + 3) % 32));
        }
        for row in 0..32 {
            assert_eq!(placed.column(row), ((row * 7 + 3) % 32) as u32, "row {row}");
        }
    }

    #[test]
    fn depth_one_without_symmetry_is_one_subproblem_per_column() {
        let plan = Plan::new(6, 1, Symmetry::None).unwrap();
        assert_eq!(plan.len(), 6);
        assert!(plan.subproblems().all(|s| s.weight() == Some(1)));
    }

    #[test]
    fn mirror_keeps_the_left_half_of_the_first_row_at_weight_two() {
        let plan = Plan::new(8, 1, Symmetry::Mirror).unwrap();
        let firsts: Vec<u32> = plan.subproblems().map(|s| s.state.cols).collect();
        assert_eq!(firsts, vec![1, 2, 4, 8]);
        assert_eq!(plan.total_weight(), 8);
    }

    #[test]
    fn mirror_on_odd_boards_cuts_the_middle_branch_two_rows_deep() {
        let plan = Plan::new(5, 1, Symmetry::Mirror).unwrap();
        // Columns 0 and 1 at depth 1, then the middle column 2 with a second
        // queen in column 0 (column 1 is attacked): 3 subproblems.
        let middle: Vec<Subproblem> = plan
            .subproblems()
            .filter(|s| s.state.cols & 0b100 != 0)
            .collect();
        assert_eq!(plan.len(), 3);
        assert_eq!(middle.len(), 1);
        assert_eq!(middle[0].state.cols, 0b101);
        assert_eq!(middle[0].row, 2);
        assert_eq!(middle[0].weight(), Some(2));
    }

    #[test]
    fn the_one_by_one_board_is_a_single_subproblem() {
        let plan = Plan::new(1, 1, Symmetry::Mirror).unwrap();
        assert_eq!(plan.len(), 1);
        assert_eq!(plan.subproblem(0).weight(), Some(1));
    }

    #[test]
    fn depth_must_lie_between_one_and_n() {
        assert_eq!(
            Plan::new(6, 0, Symmetry::Mirror).unwrap_err(),
            Error::Depth { depth: 0, n: 6 }
        );
        assert_eq!(
            Plan::new(6, 7, Symmetry::None).unwrap_err(),
            Error::Depth { depth: 7, n: 6 }
        );
        assert!(Plan::new(6, 6, Symmetry::None).is_ok());
    }

    #[test]
    fn auto_depth_gives_every_thread_many_items() {
        for symmetry in [Symmetry::None, Symmetry::Mirror, Symmetry::Full] {
            for threads in [1, 2, 4, 16] {
                let plan = Plan::auto(16, symmetry, threads).unwrap();
                assert!(plan.items() >= threads * ITEMS_PER_THREAD);
                let shallower = Plan::new(16, plan.depth - 1, symmetry).unwrap();
                assert!(shallower.items() < threads * ITEMS_PER_THREAD);
            }
        }
    }

    #[test]
    fn the_automatic_depth_fits_for_every_board_and_thread_count() {
        for n in [1, 2, 8, 20, 27, 32] {
            for threads in [1, 1024] {
                let plan = Plan::auto(n, Symmetry::Full, threads).unwrap();
                assert!(plan.len() <= MAX_SUBPROBLEMS, "n = {n}");
            }
        }
    }

    #[test]
    fn sizing_stops_at_the_limit_and_agrees_with_the_built_plan() {
        for symmetry in [Symmetry::None, Symmetry::Mirror, Symmetry::Full] {
            for depth in 1..=8 {
                let plan = Plan::new(11, depth, symmetry).unwrap();
                assert_eq!(
                    Plan::size(11, depth, symmetry, usize::MAX),
                    Some(plan.len())
                );
                assert_eq!(Plan::size(11, depth, symmetry, plan.len() - 1), None);
            }
        }
    }

    #[test]
    fn a_plan_past_the_limit_is_refused_with_the_largest_depth_that_fits() {
        let err = Plan::new(24, 14, Symmetry::Full).unwrap_err();
        let Error::PlanTooLarge { largest, .. } = err else {
            panic!("expected PlanTooLarge, got {err:?}");
        };
        assert!((5..14).contains(&largest), "largest depth {largest}");
        assert!(Plan::size(24, largest, Symmetry::Full, MAX_SUBPROBLEMS).is_some());
        assert!(Plan::size(24, largest + 1, Symmetry::Full, MAX_SUBPROBLEMS).is_none());
    }

    #[test]
    fn a_deep_plan_is_refused_at_the_first_row_over_the_limit() {
        // n = 12 at depth 12 holds its 1787 unique solutions' completions
        // (fewer than the rows above hold): a limit below its widest row
        // refuses it, as it refuses every depth past that row, and the
        // largest depth that fits is the last one below.
        let widest = (1..=12)
            .map(|d| Plan::size(12, d, Symmetry::Full, usize::MAX).unwrap())
            .max()
            .unwrap();
        let leaves = Plan::size(12, 12, Symmetry::Full, usize::MAX).unwrap();
        assert!(leaves < widest);
        assert_eq!(Plan::size(12, 12, Symmetry::Full, leaves), None);
        let largest = Plan::largest_depth(12, Symmetry::Full, leaves);
        assert!((1..=largest).all(|d| Plan::size(12, d, Symmetry::Full, leaves).is_some()));
        assert_eq!(Plan::size(12, largest + 1, Symmetry::Full, leaves), None);
        match Plan::within(12, 12, Symmetry::Full, leaves) {
            Err(Error::PlanTooLarge { largest: l, .. }) => assert_eq!(l, largest),
            other => panic!("{other:?}"),
        }
        assert_eq!(max_subproblems(None), MAX_SUBPROBLEMS);
        assert_eq!(max_subproblems(Some(1 << 20)), 1 << 15);
    }

    #[test]
    fn items_are_runs_of_one_family_covering_every_subproblem_once() {
        for (n, depth, symmetry) in [
            (12, 4, Symmetry::Full),
            (13, 3, Symmetry::Mirror),
            (16, 7, Symmetry::Full),
        ] {
            let plan = Plan::new(n, depth, symmetry).unwrap();
            assert_eq!(plan.run(), (plan.len() / MIN_ITEMS).clamp(1, MAX_RUN));
            let mut next = 0;
            for item in 0..plan.items() {
                let range = plan.item(item);
                assert_eq!(range.start, next);
                assert!(!range.is_empty() && range.len() <= plan.run());
                let family = plan.subproblem(range.start).family;
                assert!(range.clone().all(|i| plan.subproblem(i).family == family));
                assert!(plan.item_cost(item) > 0.0);
                next = range.end;
            }
            assert_eq!(next, plan.len());
        }
    }

    #[test]
    fn refining_splits_a_subproblem_into_the_plan_one_level_deeper() {
        for symmetry in [Symmetry::None, Symmetry::Mirror, Symmetry::Full] {
            let shallow = Plan::new(10, 3, symmetry).unwrap();
            let deep = Plan::new(10, 5, symmetry).unwrap();
            let mut refined = Vec::new();
            for s in shallow.subproblems() {
                let _ = refine(10, &s, 5, &mut |piece| {
                    refined.push(piece);
                    ControlFlow::Continue(())
                });
            }
            let expected: Vec<Subproblem> = deep.subproblems().collect();
            assert_eq!(refined, expected, "{symmetry}");
        }
    }
}
