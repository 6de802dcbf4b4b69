//! Lockstep search: sixteen subtrees at once, one per SIMD lane.
//!
//! The scalar kernels spend most of a node's time on branches the predictor
//! cannot learn (how many candidates a row has is close to random). Here
//! every lane of an AVX-512 register runs its own depth-first search over one
//! subproblem, and one step moves every lane by one node, down (place the
//! lowest candidate) or up (back to the parent): both moves are computed for
//! all lanes and a mask picks one per lane, so the only branch is "did a lane
//! finish its subproblem", which is rare. Two groups of eight lanes are
//! interleaved so that one group's dependency chain hides the other's.
//!
//! There is no stack. Going up recomputes the parent from the child: the
//! placed column comes back from a history word (five bits per row above a 1
//! that marks the lane's start), the column mask loses it, the diagonals
//! shift back (the falling one is kept 32 bits up, so that no right shift
//! ever drops a bit), and the parent's remaining candidates are its free
//! columns above the one just tried, under the same row rules.
//!
//! A batch is one work item: a run of the plan's subproblems of one family
//! (see [`plan`](crate::engine::backtrack::plan)), refined lazily into
//! pieces a few rows deeper, which the lanes take a bounded buffer at a
//! time. Its pieces share one branch and one `bound1`, so the row rules (the
//! corner branch's column-1 rule; the side branch's last-column rules, fixed
//! column-0 queen and last-row edge mask, see
//! [`symmetry`](crate::engine::backtrack::symmetry)) are constants of the
//! batch, and the step is compiled once per branch with only its own rules.
//! The last row is counted, not entered. A side-branch board that might
//! equal one of its rotations (the quick test of
//! [`Side`](crate::engine::backtrack::symmetry::Side)'s classification, done
//! in the lanes) is rebuilt from the history and classified in scalar code,
//! as are the pieces too close to the bottom to be worth a lane.
//!
//! On the 2-core development machine, one thread, n = 16 (paired runs, see
//! `results/`): full symmetry 0.20× the time of the C yardstick (the scalar
//! kernels: 0.35×), mirror symmetry 0.33× (scalar: 0.89×). It needs AVX-512
//! F and CD, checked at run time; without them the engine runs the scalar
//! kernels, which give the same counts (`tests/kernels.rs`).

use std::ops::ControlFlow;

use super::count_scalar;
use crate::engine::backtrack::plan::Subproblem;
use crate::engine::backtrack::rules::refine;
use crate::reduce::Tally;

/// How many rows the history word holds: the lanes take subproblems with at
/// most this many rows left above the last one.
const HISTORY_ROWS: usize = 12;

/// How many pieces a batch wants, to keep the lanes busy to the end.
const PIECES_PER_BATCH: usize = 256;

/// How many pieces the lanes take at a time: refined pieces are counted
/// whenever this many are waiting, so a batch's memory is bounded (a few
/// hundred KiB) whatever the board.
const BUFFER_PIECES: usize = 4096;

/// Counts subproblems of one family (a work item) in the lanes, exactly as
/// the scalar kernels would.
///
/// # Panics
/// If the CPU lacks AVX-512 F and CD ([`avx512_lanes`](crate::engine::cpu::avx512_lanes)).
pub fn count(n: usize, subproblems: &[Subproblem]) -> Tally {
    assert!(
        crate::engine::cpu::avx512_lanes(),
        "the lanes need AVX-512 F and CD"
    );
    let Some(first) = subproblems.first() else {
        return Tally::default();
    };
    debug_assert!(subproblems.iter().all(|s| s.family == first.family));
    let depth = piece_depth(n, subproblems);
    let mut tally = Tally::default();
    let mut buffer: Vec<Subproblem> = Vec::with_capacity(BUFFER_PIECES);
    for subproblem in subproblems {
        let _ = refine(n, subproblem, depth, &mut |piece| {
            // Pieces near the bottom are too small to be worth a lane.
            if piece.row + 2 > n {
                tally.add(count_scalar(n, &piece));
            } else {
                buffer.push(piece);
                if buffer.len() == BUFFER_PIECES {
                    tally.add(count_in_lanes(n, &buffer));
                    buffer.clear();
                }
            }
            ControlFlow::Continue(())
        });
    }
    tally.add(count_in_lanes(n, &buffer));
    tally
}

/// The depth the subproblems are refined to: deep enough for the history
/// word, and deep enough for [`PIECES_PER_BATCH`] pieces if that leaves
/// them 10 rows or more.
fn piece_depth(n: usize, subproblems: &[Subproblem]) -> usize {
    let row = subproblems.iter().map(|s| s.row).min().unwrap_or(n);
    let mut depth = row.max(n.saturating_sub(HISTORY_ROWS + 1));
    while depth + 10 < n {
        let mut pieces = 0;
        for subproblem in subproblems {
            let counted = refine(n, subproblem, depth, &mut |_| {
                pieces += 1;
                if pieces >= PIECES_PER_BATCH {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            });
            if counted.is_break() {
                return depth;
            }
        }
        depth += 1;
    }
    depth
}

/// Counts pieces of one family, each with at most [`HISTORY_ROWS`] rows
/// left above the last and at least two rows left, in the lanes.
fn count_in_lanes(n: usize, pieces: &[Subproblem]) -> Tally {
    #[cfg(target_arch = "x86_64")]
    {
        // SAFETY: `count` checked the target features the kernel uses.
        unsafe { avx512::count_batch(n, pieces) }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = (n, pieces);
        unreachable!("the lanes run only on x86_64")
    }
}

#[cfg(target_arch = "x86_64")]
mod avx512 {
    use std::arch::x86_64::*;

    use crate::engine::backtrack::plan::{Family, Subproblem};
    use crate::engine::backtrack::state::full_mask;
    use crate::engine::backtrack::symmetry::Side;
    use crate::reduce::{Classes, Tally};

    const LANES: usize = 8;

    /// The branches, as the const parameter of the step: each compiles with
    /// only its own row rules.
    const PLAIN: u8 = 0;
    const CORNER: u8 = 1;
    const SIDE: u8 = 2;

    /// Eight lanes' values as a vector.
    #[target_feature(enable = "avx512f")]
    fn to_vector(values: [u64; LANES]) -> __m512i {
        // SAFETY: the pointer is to 8 initialized u64, the 64 bytes read.
        unsafe { _mm512_loadu_epi64(values.as_ptr().cast()) }
    }

    /// A vector's eight lanes.
    #[target_feature(enable = "avx512f")]
    fn to_array(vector: __m512i) -> [u64; LANES] {
        let mut values = [0u64; LANES];
        // SAFETY: the pointer is to 8 u64, the 64 bytes written.
        unsafe { _mm512_storeu_epi64(values.as_mut_ptr().cast(), vector) };
        values
    }

    /// The rules every piece of a batch shares (they all come from one
    /// subproblem, so one branch and one `bound1`), and the constants every
    /// step uses.
    struct Rules {
        n: usize,
        /// Rows below this keep off column 1 (corner branch).
        col1_until: __m512i,
        /// Rows below this keep off the last column (side branch).
        right_until: __m512i,
        /// The side branch's fixed column-0 queen's row.
        fixed: __m512i,
        /// The row that must complete the last column (side branch).
        completes: __m512i,
        /// The columns the last row may take.
        last_mask: __m512i,
        /// The side branch's last-row square that calls for a full
        /// classification, and where row `bound1` sits in a history word
        /// on the last row.
        quarter_turn: __m512i,
        bound1_shift: __m512i,
        bound1: usize,
        /// The side branch's rules, for the boards classified in scalar code.
        side: Option<Side>,
        full: __m512i,
        last: __m512i,
        right: __m512i,
        zero: __m512i,
        one: __m512i,
        five_bits: __m512i,
    }

    impl Rules {
        #[target_feature(enable = "avx512f")]
        fn new(n: usize, family: Family) -> Rules {
            let last = n - 1;
            let full = u64::from(full_mask(n));
            let broadcast = |value: usize| _mm512_set1_epi64(value as i64);
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
                last_mask: _mm512_set1_epi64(
                    side.map_or(full, |s| u64::from(s.last_row_mask())) as i64
                ),
                quarter_turn: broadcast(1 << fixed),
                bound1_shift: broadcast(5 * (last - 1).saturating_sub(bound1)),
                bound1,
                side,
                full: _mm512_set1_epi64(full as i64),
                last: broadcast(last),
                right: broadcast(1 << last),
                zero: _mm512_setzero_si512(),
                one: broadcast(1),
                five_bits: broadcast(31),
            }
        }

        /// The candidates of row `row` (per lane) among `free`.
        #[inline]
        #[target_feature(enable = "avx512f")]
        fn apply<const BRANCH: u8>(&self, row: __m512i, cols: __m512i, free: __m512i) -> __m512i {
            match BRANCH {
                CORNER => {
                    let above = _mm512_cmplt_epu64_mask(row, self.col1_until);
                    _mm512_mask_andnot_epi64(free, above, _mm512_slli_epi64::<1>(self.one), free)
                }
                SIDE => {
                    let above = _mm512_cmplt_epu64_mask(row, self.right_until);
                    let free = _mm512_mask_andnot_epi64(free, above, self.right, free);
                    let must_complete = _mm512_cmpeq_epi64_mask(row, self.completes)
                        & !_mm512_test_epi64_mask(cols, self.right);
                    let free = _mm512_mask_and_epi64(free, must_complete, free, self.right);
                    let on_last = _mm512_cmpeq_epi64_mask(row, self.last);
                    let free = _mm512_mask_and_epi64(free, on_last, free, self.last_mask);
                    _mm512_mask_mov_epi64(free, _mm512_cmpeq_epi64_mask(row, self.fixed), self.one)
                }
                _ => free,
            }
        }
    }

    /// Eight lanes' searches, as vectors.
    #[derive(Clone, Copy)]
    struct Group {
        cols: __m512i,
        diag_up: __m512i,
        /// The falling diagonal, 32 bits up, so that no right shift drops a
        /// bit and going up can shift it back.
        diag_down: __m512i,
        cand: __m512i,
        /// The columns placed below each lane's start, five bits a row, the
        /// latest lowest, above a 1 that marks the start: a lane whose
        /// history is back to 1 is at its start.
        history: __m512i,
        row: __m512i,
        live: __mmask8,
        /// Side branch: the lanes whose piece's rows above its start already
        /// call for a full classification, and those whose row `bound1` is
        /// in the history.
        flagged: __mmask8,
        bound1_in_history: __mmask8,
        /// Completed boards, apart from those sent to `settle`.
        solved: u64,
        /// Which piece each lane is counting.
        piece: [usize; LANES],
    }

    /// What a step reports.
    struct Events {
        /// The lanes that finished their piece.
        finished: __mmask8,
        /// The lanes whose board needs a full classification.
        rare: __mmask8,
        /// The lanes' history and last-row square before the step.
        history: __m512i,
        last_row: __m512i,
    }

    impl Group {
        /// A group on the pieces `picked` (a lane with none stays idle).
        #[target_feature(enable = "avx512f")]
        fn new<const BRANCH: u8>(
            rules: &Rules,
            pieces: &[Subproblem],
            picked: [Option<usize>; LANES],
        ) -> Group {
            let last = rules.n - 1;
            let (mut cols, mut diag_up, mut diag_down) =
                ([0u64; LANES], [0u64; LANES], [0u64; LANES]);
            let mut row = [u64::MAX; LANES];
            let (mut live, mut flagged, mut bound1_in_history) = (0u8, 0u8, 0u8);
            for (i, index) in picked.iter().enumerate() {
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
            let (cols, diag_up, diag_down) =
                (to_vector(cols), to_vector(diag_up), to_vector(diag_down));
            let row = to_vector(row);
            let attacked = _mm512_ternarylogic_epi64::<0xFE>(
                cols,
                diag_up,
                _mm512_srli_epi64::<32>(diag_down),
            );
            let cand = rules.apply::<BRANCH>(row, cols, _mm512_andnot_si512(attacked, rules.full));
            Group {
                cols,
                diag_up,
                diag_down,
                cand: _mm512_maskz_mov_epi64(live, cand),
                history: rules.one,
                row,
                live,
                flagged,
                bound1_in_history,
                solved: 0,
                piece: picked.map(|p| p.unwrap_or(usize::MAX)),
            }
        }

        /// Moves every live lane by one node: down to the lowest candidate,
        /// or up to the parent when none is left.
        #[inline]
        #[target_feature(enable = "avx512f,avx512cd")]
        fn step<const BRANCH: u8>(&mut self, r: &Rules) -> Events {
            let (cols, diag_up, diag_down, history, row) = (
                self.cols,
                self.diag_up,
                self.diag_down,
                self.history,
                self.row,
            );
            // The last row is counted, not entered: a free square completes
            // the board.
            let on_last = _mm512_cmpeq_epi64_mask(row, r.last);
            let solved = on_last & _mm512_test_epi64_mask(self.cand, self.cand);
            let rare = if BRANCH == SIDE {
                // The classification's quick test (see `Side`): a board
                // that might equal a rotation goes to `settle`.
                let bound1_row =
                    _mm512_and_si512(_mm512_srlv_epi64(history, r.bound1_shift), r.five_bits);
                let suspect = _mm512_cmpeq_epi64_mask(self.cand, r.quarter_turn)
                    | self.flagged
                    | (self.bound1_in_history & _mm512_cmpeq_epi64_mask(bound1_row, r.last));
                solved & suspect
            } else {
                0
            };
            let last_row = self.cand;
            self.solved += u64::from((solved & !rare).count_ones());
            let cand = _mm512_mask_mov_epi64(self.cand, on_last, r.zero);
            let down = _mm512_test_epi64_mask(cand, cand);
            // Down: place the lowest candidate.
            let bit = _mm512_and_si512(cand, _mm512_sub_epi64(r.zero, cand)); // the lowest candidate
            let column = _mm512_sub_epi64(_mm512_set1_epi64(63), _mm512_lzcnt_epi64(bit));
            let child_cols = _mm512_or_si512(cols, bit);
            let child_up = _mm512_slli_epi64::<1>(_mm512_or_si512(diag_up, bit));
            let child_down =
                _mm512_srli_epi64::<1>(_mm512_or_si512(diag_down, _mm512_slli_epi64::<32>(bit)));
            let child_row = _mm512_add_epi64(row, r.one);
            let attacked = _mm512_ternarylogic_epi64::<0xFE>(
                child_cols,
                child_up,
                _mm512_srli_epi64::<32>(child_down),
            );
            let child_cand =
                r.apply::<BRANCH>(child_row, child_cols, _mm512_andnot_si512(attacked, r.full));
            let child_history = _mm512_or_si512(_mm512_slli_epi64::<5>(history), column);
            // Up: the parent, from the column just tried, and its candidates
            // above that column.
            let tried = _mm512_sllv_epi64(r.one, _mm512_and_si512(history, r.five_bits));
            let parent_row = _mm512_sub_epi64(row, r.one);
            let mut parent_cols = _mm512_xor_si512(cols, tried);
            let mut parent_down = _mm512_andnot_si512(
                _mm512_slli_epi64::<32>(tried),
                _mm512_slli_epi64::<1>(diag_down),
            );
            if BRANCH == SIDE {
                // Column 0 and the fixed queen's own diagonal were set before
                // row 0: going up past the fixed row keeps them.
                parent_cols = _mm512_or_si512(parent_cols, r.one);
                let at_fixed = _mm512_cmpeq_epi64_mask(parent_row, r.fixed);
                parent_down =
                    _mm512_mask_mov_epi64(parent_down, at_fixed, _mm512_slli_epi64::<1>(diag_down));
            }
            let parent_up = _mm512_andnot_si512(tried, _mm512_srli_epi64::<1>(diag_up));
            let above = _mm512_sub_epi64(r.zero, _mm512_slli_epi64::<1>(tried));
            let attacked = _mm512_ternarylogic_epi64::<0xFE>(
                parent_cols,
                parent_up,
                _mm512_srli_epi64::<32>(parent_down),
            );
            let parent_cand = _mm512_and_si512(
                r.apply::<BRANCH>(
                    parent_row,
                    parent_cols,
                    _mm512_andnot_si512(attacked, r.full),
                ),
                above,
            );
            let finished = !down & _mm512_cmpeq_epi64_mask(history, r.one) & self.live;
            let up = !down & !finished & self.live;
            let pick = |stay: __m512i, child: __m512i, parent: __m512i| {
                _mm512_mask_mov_epi64(_mm512_mask_mov_epi64(stay, down, child), up, parent)
            };
            self.cols = pick(cols, child_cols, parent_cols);
            self.diag_up = pick(diag_up, child_up, parent_up);
            self.diag_down = pick(diag_down, child_down, parent_down);
            self.cand = pick(cand, child_cand, parent_cand);
            self.history = pick(history, child_history, _mm512_srli_epi64::<5>(history));
            self.row = pick(row, child_row, parent_row);
            Events {
                finished,
                rare,
                history,
                last_row,
            }
        }
    }

    /// Counts `pieces` (all of one family; each with its next row at
    /// most the second-to-last and at most [`super::HISTORY_ROWS`] rows above
    /// the last) in the lanes.
    #[target_feature(enable = "avx512f,avx512cd")]
    pub fn count_batch(n: usize, pieces: &[Subproblem]) -> Tally {
        let Some(first) = pieces.first() else {
            return Tally::default();
        };
        let rules = Rules::new(n, first.family);
        match first.family {
            Family::Corner { .. } => count_branch::<CORNER>(&rules, pieces),
            Family::Side { .. } => count_branch::<SIDE>(&rules, pieces),
            _ => count_branch::<PLAIN>(&rules, pieces),
        }
    }

    /// [`count_batch`] for one branch's pieces.
    #[target_feature(enable = "avx512f,avx512cd")]
    fn count_branch<const BRANCH: u8>(rules: &Rules, pieces: &[Subproblem]) -> Tally {
        let mut queue = 0..pieces.len();
        let mut tally = Tally::default();
        let mut first = Group::new::<BRANCH>(rules, pieces, std::array::from_fn(|_| queue.next()));
        let mut second = Group::new::<BRANCH>(rules, pieces, std::array::from_fn(|_| queue.next()));
        // Two groups as two variables, not an array: the compiler keeps their
        // vectors in registers only if no pointer to them escapes.
        while first.live | second.live != 0 {
            let (one, other) = (first.step::<BRANCH>(rules), second.step::<BRANCH>(rules));
            if one.finished | one.rare != 0 {
                first = settle::<BRANCH>(rules, pieces, first, one, &mut queue, &mut tally);
            }
            if other.finished | other.rare != 0 {
                second = settle::<BRANCH>(rules, pieces, second, other, &mut queue, &mut tally);
            }
        }
        // Every piece is of one family: one weight, or one orbit size.
        let solved = first.solved + second.solved;
        match pieces[0].family {
            Family::Weighted(weight) => tally.weighted += u128::from(weight) * u128::from(solved),
            _ => tally.classes.orbit8 = tally.classes.orbit8.saturating_add(solved),
        }
        tally
    }

    /// Classifies the boards of the step's rare lanes, adds up the finished
    /// lanes' counts and gives them the next pieces of `queue`.
    #[cold]
    #[inline(never)]
    #[target_feature(enable = "avx512f,avx512cd")]
    fn settle<const BRANCH: u8>(
        rules: &Rules,
        pieces: &[Subproblem],
        g: Group,
        events: Events,
        queue: &mut std::ops::Range<usize>,
        tally: &mut Tally,
    ) -> Group {
        if events.rare != 0 {
            classify_rare(rules, pieces, &g, &events, &mut tally.classes);
        }
        let finished = events.finished;
        if finished == 0 {
            return g;
        }
        let picked: [Option<usize>; LANES] =
            std::array::from_fn(|i| (finished >> i & 1 != 0).then(|| queue.next()).flatten());
        let fresh = Group::new::<BRANCH>(rules, pieces, picked);
        let keep = |old: __m512i, new: __m512i| _mm512_mask_mov_epi64(old, finished, new);
        let lanes = |old: __mmask8, new: __mmask8| (old & !finished) | (new & finished);
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
                if finished >> i & 1 != 0 {
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
    #[target_feature(enable = "avx512f")]
    fn classify_rare(
        rules: &Rules,
        pieces: &[Subproblem],
        group: &Group,
        events: &Events,
        classes: &mut Classes,
    ) {
        let n = rules.n;
        let last = n - 1;
        let (history, last_row) = (to_array(events.history), to_array(events.last_row));
        let side = rules.side.expect("only side-branch lanes are classified");
        for i in (0..LANES).filter(|&i| events.rare >> i & 1 != 0) {
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
}
