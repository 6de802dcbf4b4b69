//! The lockstep search, written once over a path's [`Vector`]: the row
//! rules, a group of lanes, its step, and the hand-over of finished lanes.
//! Every function here is inlined into the path's entry point,
//! [`count_batch`], compiled with its target features.

use std::ops::{BitAnd, BitOr, Not};

use crate::engine::backtrack::plan::{Family, Subproblem};
use crate::engine::backtrack::state::full_mask;
use crate::engine::backtrack::symmetry::Side;
use crate::reduce::{Classes, Tally};

/// The most lanes a vector has (AVX-512: eight 64-bit lanes).
pub(super) const MAX_LANES: usize = 8;

/// A path's vector of 64-bit lanes and the operations the lockstep search
/// needs, the search being written once over it. A mask says which lanes an operation
/// takes: a bit per lane on AVX-512, an all-ones lane on AVX2.
///
/// Every method is `#[inline(always)]`, to be inlined with
/// [`count_batch`] into the path's entry point, a function
/// compiled with the path's target features: LLVM inlines an intrinsic
/// only into a function that has its features.
pub(super) trait Vector: Copy {
    type Mask: Copy
        + BitAnd<Output = Self::Mask>
        + BitOr<Output = Self::Mask>
        + Not<Output = Self::Mask>;

    /// Lanes a vector, at most [`MAX_LANES`].
    const LANES: usize;

    /// Whether two groups of lanes step in turn, one's dependency chain
    /// hiding the other's: where the registers hold both.
    const INTERLEAVED: bool;

    fn splat(value: u64) -> Self;
    /// The first [`LANES`](Vector::LANES) values as a vector.
    fn load(values: &[u64; MAX_LANES]) -> Self;
    /// The lanes, then zeros up to [`MAX_LANES`].
    fn store(self) -> [u64; MAX_LANES];
    fn and(self, other: Self) -> Self;
    fn or(self, other: Self) -> Self;
    fn xor(self, other: Self) -> Self;
    /// `!self & other`.
    fn and_not(self, other: Self) -> Self;
    fn add(self, other: Self) -> Self;
    fn sub(self, other: Self) -> Self;
    fn shl<const K: u32>(self) -> Self;
    fn shr<const K: u32>(self) -> Self;
    /// Each lane shifted left by its lane of `counts`.
    fn shlv(self, counts: Self) -> Self;
    /// Each lane shifted right by its lane of `counts`.
    fn shrv(self, counts: Self) -> Self;
    fn eq(self, other: Self) -> Self::Mask;
    /// `self < other`, for values below 2^63 (and u64::MAX, which is less
    /// than everything on AVX2: the idle lanes' row, never looked at).
    fn lt(self, other: Self) -> Self::Mask;
    /// The lanes where `self & other` is not zero.
    fn test(self, other: Self) -> Self::Mask;
    /// `set` in the lanes of `mask`, `clear` in the others.
    fn select(mask: Self::Mask, clear: Self, set: Self) -> Self;
    /// The index of each lane's one set bit, below 2^32 (anything where
    /// the lane is zero).
    fn column(bit: Self) -> Self;
    /// A mask as a bit per lane.
    fn bits(mask: Self::Mask) -> u8;
    /// A bit per lane as a mask.
    fn mask(bits: u8) -> Self::Mask;
}

/// The branches, as the const parameter of the step: each compiles with
/// only its own row rules.
const PLAIN: u8 = 0;
const CORNER: u8 = 1;
const SIDE: u8 = 2;

/// The rules every piece of a batch shares (they all come from one
/// subproblem, so one branch and one `bound1`), and the constants every
/// step uses.
struct Rules<V: Vector> {
    n: usize,
    /// Rows below this keep off column 1 (corner branch).
    col1_until: V,
    /// Rows below this keep off the last column (side branch).
    right_until: V,
    /// The side branch's fixed column-0 queen's row.
    fixed: V,
    /// The row that must complete the last column (side branch).
    completes: V,
    /// The columns the last row may take.
    last_mask: V,
    /// The side branch's last-row square that calls for a full
    /// classification, and where row `bound1` sits in a history word
    /// on the last row.
    quarter_turn: V,
    bound1_shift: V,
    bound1: usize,
    /// The side branch's rules, for the boards classified in scalar code.
    side: Option<Side>,
    full: V,
    last: V,
    right: V,
    zero: V,
    one: V,
    two: V,
    five_bits: V,
}

impl<V: Vector> Rules<V> {
    #[inline(always)]
    fn new(n: usize, family: Family) -> Rules<V> {
        let last = n - 1;
        let full = u64::from(full_mask(n));
        let broadcast = |value: usize| V::splat(value as u64);
        let (col1_until, bound1) = match family {
            Family::Corner { bound1 } => (usize::from(bound1), 0),
            Family::Side { bound1 } => (0, usize::from(bound1)),
            _ => (0, 0),
        };
        let side = (bound1 > 0).then(|| Side::new(n, bound1));
        let fixed = last - bound1;
        Rules {
            n,
            col1_until: broadcast(col1_until),
            right_until: broadcast(bound1),
            fixed: broadcast(fixed),
            completes: broadcast(fixed.wrapping_sub(1)),
            last_mask: V::splat(side.map_or(full, |s| u64::from(s.last_row_mask()))),
            quarter_turn: broadcast(1 << fixed),
            bound1_shift: broadcast(5 * (last - 1).saturating_sub(bound1)),
            bound1,
            side,
            full: V::splat(full),
            last: broadcast(last),
            right: broadcast(1 << last),
            zero: V::splat(0),
            one: V::splat(1),
            two: V::splat(2),
            five_bits: V::splat(31),
        }
    }

    /// The candidates of row `row` (per lane) among `free`.
    #[inline(always)]
    fn apply<const BRANCH: u8>(&self, row: V, cols: V, free: V) -> V {
        match BRANCH {
            CORNER => {
                let above = row.lt(self.col1_until);
                V::select(above, free, self.two.and_not(free))
            }
            SIDE => {
                let above = row.lt(self.right_until);
                let free = V::select(above, free, self.right.and_not(free));
                let must_complete = row.eq(self.completes) & !cols.test(self.right);
                let free = V::select(must_complete, free, free.and(self.right));
                let on_last = row.eq(self.last);
                let free = V::select(on_last, free, free.and(self.last_mask));
                V::select(row.eq(self.fixed), free, self.one)
            }
            _ => free,
        }
    }

    /// The squares no queen attacks, of the row after `cols`, `up`, `down`.
    #[inline(always)]
    fn free(&self, cols: V, up: V, down: V) -> V {
        cols.or(up).or(down.shr::<32>()).and_not(self.full)
    }
}

/// A vector's worth of lanes' searches.
#[derive(Clone, Copy)]
struct Group<V: Vector> {
    cols: V,
    diag_up: V,
    /// The falling diagonal, 32 bits up, so that no right shift drops a
    /// bit and going up can shift it back.
    diag_down: V,
    cand: V,
    /// The columns placed below each lane's start, five bits a row, the
    /// latest lowest, above a 1 that marks the start: a lane whose
    /// history is back to 1 is at its start.
    history: V,
    row: V,
    live: V::Mask,
    /// Side branch: the lanes whose piece's rows above its start already
    /// call for a full classification, and those whose row `bound1` is
    /// in the history.
    flagged: V::Mask,
    bound1_in_history: V::Mask,
    /// Completed boards, apart from those sent to `settle`.
    solved: u64,
    /// Which piece each lane is counting.
    piece: [usize; MAX_LANES],
}

/// What a step reports.
struct Events<V: Vector> {
    /// The lanes that finished their piece.
    finished: V::Mask,
    /// The lanes whose board needs a full classification.
    rare: V::Mask,
    /// The lanes' history and last-row square before the step.
    history: V,
    last_row: V,
}

impl<V: Vector> Group<V> {
    /// A group on the pieces `picked` (a lane with none stays idle).
    #[inline(always)]
    fn new<const BRANCH: u8>(
        rules: &Rules<V>,
        pieces: &[Subproblem],
        picked: [Option<usize>; MAX_LANES],
    ) -> Group<V> {
        let last = rules.n - 1;
        let (mut cols, mut diag_up, mut diag_down) =
            ([0u64; MAX_LANES], [0u64; MAX_LANES], [0u64; MAX_LANES]);
        let mut row = [u64::MAX; MAX_LANES];
        let (mut live, mut flagged, mut bound1_in_history) = (0u8, 0u8, 0u8);
        for (i, index) in picked.iter().enumerate().take(V::LANES) {
            let Some(piece) = index.map(|p| &pieces[p]) else {
                continue;
            };
            live |= 1 << i;
            let start = piece.row;
            cols[i] = u64::from(piece.state.cols);
            diag_up[i] = u64::from(piece.state.diag_up);
            diag_down[i] = u64::from(piece.state.diag_down) << 32;
            row[i] = start as u64;
            if let Family::Side { .. } = piece.family {
                // The quick test of the rows above the piece (see
                // `Side::classify_into`): row 0's queen in column
                // bound1, or row bound1's in the last column.
                let (bound1, placed) = (rules.bound1, piece.placed);
                if bound1 >= start {
                    bound1_in_history |= 1 << i;
                }
                let row0_suspect = start > 0 && placed.column(0) as usize == bound1;
                let bound1_suspect = bound1 < start && placed.column(bound1) as usize == last;
                if row0_suspect || bound1_suspect {
                    flagged |= 1 << i;
                }
            }
        }
        let (cols, diag_up, diag_down) = (V::load(&cols), V::load(&diag_up), V::load(&diag_down));
        let row = V::load(&row);
        let live = V::mask(live);
        let cand = rules.apply::<BRANCH>(row, cols, rules.free(cols, diag_up, diag_down));
        Group {
            cols,
            diag_up,
            diag_down,
            cand: V::select(live, rules.zero, cand),
            history: rules.one,
            row,
            live,
            flagged: V::mask(flagged),
            bound1_in_history: V::mask(bound1_in_history),
            solved: 0,
            piece: picked.map(|p| p.unwrap_or(usize::MAX)),
        }
    }

    /// Moves every live lane by one node: down to the lowest candidate,
    /// or up to the parent when none is left.
    #[inline(always)]
    fn step<const BRANCH: u8>(&mut self, r: &Rules<V>) -> Events<V> {
        let (cols, diag_up, diag_down, history, row) = (
            self.cols,
            self.diag_up,
            self.diag_down,
            self.history,
            self.row,
        );
        // The last row is counted, not entered: a free square completes
        // the board.
        let on_last = row.eq(r.last);
        let solved = on_last & self.cand.test(self.cand);
        let rare = if BRANCH == SIDE {
            // The classification's quick test (see `Side`): a board
            // that might equal a rotation goes to `settle`.
            let bound1_row = history.shrv(r.bound1_shift).and(r.five_bits);
            let suspect = self.cand.eq(r.quarter_turn)
                | self.flagged
                | (self.bound1_in_history & bound1_row.eq(r.last));
            solved & suspect
        } else {
            V::mask(0)
        };
        let last_row = self.cand;
        self.solved += u64::from(V::bits(solved & !rare).count_ones());
        let cand = V::select(on_last, self.cand, r.zero);
        let down = cand.test(cand);
        // Down: place the lowest candidate.
        let bit = cand.and(r.zero.sub(cand)); // the lowest candidate
        let column = V::column(bit);
        let child_cols = cols.or(bit);
        let child_up = diag_up.or(bit).shl::<1>();
        let child_down = diag_down.or(bit.shl::<32>()).shr::<1>();
        let child_row = row.add(r.one);
        let child_cand = r.apply::<BRANCH>(
            child_row,
            child_cols,
            r.free(child_cols, child_up, child_down),
        );
        let child_history = history.shl::<5>().or(column);
        // Up: the parent, from the column just tried, and its candidates
        // above that column.
        let tried = r.one.shlv(history.and(r.five_bits));
        let parent_row = row.sub(r.one);
        let mut parent_cols = cols.xor(tried);
        let mut parent_down = tried.shl::<32>().and_not(diag_down.shl::<1>());
        if BRANCH == SIDE {
            // Column 0 and the fixed queen's own diagonal were set before
            // row 0: going up past the fixed row keeps them.
            parent_cols = parent_cols.or(r.one);
            let at_fixed = parent_row.eq(r.fixed);
            parent_down = V::select(at_fixed, parent_down, diag_down.shl::<1>());
        }
        let parent_up = tried.and_not(diag_up.shr::<1>());
        let above = r.zero.sub(tried.shl::<1>());
        let parent_cand = r
            .apply::<BRANCH>(
                parent_row,
                parent_cols,
                r.free(parent_cols, parent_up, parent_down),
            )
            .and(above);
        let finished = !down & history.eq(r.one) & self.live;
        let up = !down & !finished & self.live;
        let pick =
            |stay: V, child: V, parent: V| V::select(up, V::select(down, stay, child), parent);
        self.cols = pick(cols, child_cols, parent_cols);
        self.diag_up = pick(diag_up, child_up, parent_up);
        self.diag_down = pick(diag_down, child_down, parent_down);
        self.cand = pick(cand, child_cand, parent_cand);
        self.history = pick(history, child_history, history.shr::<5>());
        self.row = pick(row, child_row, parent_row);
        Events {
            finished,
            rare,
            history,
            last_row,
        }
    }
}

/// Counts `pieces` (all of one family; each with its next row at most the
/// second-to-last and at most [`super::HISTORY_ROWS`] rows above the last)
/// in the lanes. Runs inside the path's target features.
#[inline(always)]
pub(super) fn count_batch<V: Vector>(n: usize, pieces: &[Subproblem]) -> Tally {
    let Some(first) = pieces.first() else {
        return Tally::default();
    };
    let rules = Rules::<V>::new(n, first.family);
    match first.family {
        Family::Corner { .. } => count_branch::<V, CORNER>(&rules, pieces),
        Family::Side { .. } => count_branch::<V, SIDE>(&rules, pieces),
        _ => count_branch::<V, PLAIN>(&rules, pieces),
    }
}

/// [`count_batch`] for one branch's pieces.
#[inline(always)]
fn count_branch<V: Vector, const BRANCH: u8>(rules: &Rules<V>, pieces: &[Subproblem]) -> Tally {
    let mut queue = 0..pieces.len();
    let mut tally = Tally::default();
    let mut next = || std::array::from_fn(|i| if i < V::LANES { queue.next() } else { None });
    let picked_first = next();
    let mut first = Group::new::<BRANCH>(rules, pieces, picked_first);
    if !V::INTERLEAVED {
        while V::bits(first.live) != 0 {
            let events = first.step::<BRANCH>(rules);
            if V::bits(events.finished | events.rare) != 0 {
                first = settle::<V, BRANCH>(rules, pieces, first, events, &mut queue, &mut tally);
            }
        }
        return add_solved(tally, pieces, first.solved);
    }
    let picked_second = next();
    let mut second = Group::new::<BRANCH>(rules, pieces, picked_second);
    // Two groups as two variables, not an array: the compiler keeps their
    // vectors in registers only if no pointer to them escapes.
    while V::bits(first.live | second.live) != 0 {
        let (one, other) = (first.step::<BRANCH>(rules), second.step::<BRANCH>(rules));
        if V::bits(one.finished | one.rare) != 0 {
            first = settle::<V, BRANCH>(rules, pieces, first, one, &mut queue, &mut tally);
        }
        if V::bits(other.finished | other.rare) != 0 {
            second = settle::<V, BRANCH>(rules, pieces, second, other, &mut queue, &mut tally);
        }
    }
    add_solved(tally, pieces, first.solved + second.solved)
}

/// `tally` plus the boards the lanes completed, `solved`.
#[inline(always)]
fn add_solved(mut tally: Tally, pieces: &[Subproblem], solved: u64) -> Tally {
    // Every piece is of one family: one weight, or one orbit size.
    match pieces[0].family {
        Family::Weighted(weight) => tally.weighted += u128::from(weight) * u128::from(solved),
        _ => tally.classes.orbit8 = tally.classes.orbit8.saturating_add(u128::from(solved)),
    }
    tally
}

/// Classifies the boards of the step's rare lanes, adds up the finished
/// lanes' counts and gives them the next pieces of `queue`.
#[inline(always)]
fn settle<V: Vector, const BRANCH: u8>(
    rules: &Rules<V>,
    pieces: &[Subproblem],
    g: Group<V>,
    events: Events<V>,
    queue: &mut std::ops::Range<usize>,
    tally: &mut Tally,
) -> Group<V> {
    cold_path();
    if V::bits(events.rare) != 0 {
        classify_rare(rules, pieces, &g, &events, &mut tally.classes);
    }
    let finished = events.finished;
    let bits = V::bits(finished);
    if bits == 0 {
        return g;
    }
    let picked: [Option<usize>; MAX_LANES] =
        std::array::from_fn(|i| (bits >> i & 1 != 0).then(|| queue.next()).flatten());
    let fresh = Group::new::<BRANCH>(rules, pieces, picked);
    let keep = |old: V, new: V| V::select(finished, old, new);
    let lanes = |old: V::Mask, new: V::Mask| (old & !finished) | (new & finished);
    Group {
        cols: keep(g.cols, fresh.cols),
        diag_up: keep(g.diag_up, fresh.diag_up),
        diag_down: keep(g.diag_down, fresh.diag_down),
        cand: keep(g.cand, fresh.cand),
        history: keep(g.history, fresh.history),
        row: keep(g.row, fresh.row),
        live: lanes(g.live, fresh.live),
        flagged: lanes(g.flagged, fresh.flagged),
        bound1_in_history: lanes(g.bound1_in_history, fresh.bound1_in_history),
        solved: g.solved,
        piece: std::array::from_fn(|i| {
            if bits >> i & 1 != 0 {
                fresh.piece[i]
            } else {
                g.piece[i]
            }
        }),
    }
}

/// Classifies the side-branch boards the lanes in `events.rare` have
/// just completed: rebuilt from their piece's placed rows, the history
/// and the last row's square.
#[inline(always)]
fn classify_rare<V: Vector>(
    rules: &Rules<V>,
    pieces: &[Subproblem],
    group: &Group<V>,
    events: &Events<V>,
    classes: &mut Classes,
) {
    let n = rules.n;
    let last = n - 1;
    let (history, last_row) = (events.history.store(), events.last_row.store());
    let side = rules.side.expect("only side-branch lanes are classified");
    let rare = V::bits(events.rare);
    for i in (0..V::LANES).filter(|&i| rare >> i & 1 != 0) {
        let piece = &pieces[group.piece[i]];
        let start = piece.row;
        let mut board = side.board(piece.placed, start);
        for (row, square) in board.iter_mut().enumerate().take(last).skip(start) {
            *square = 1 << ((history[i] >> (5 * (last - 1 - row))) & 31);
        }
        board[last] = last_row[i] as u32;
        side.classify_into(&board, classes);
    }
}

/// Marks the branch that calls it as rarely taken (as
/// `std::hint::cold_path`, stable only from Rust 1.95), so that the step's
/// loop is laid out for the common case.
#[cold]
#[inline(never)]
fn cold_path() {}
