//! Lockstep search: many subtrees at once, one per SIMD lane.
//!
//! The scalar kernels spend most of a node's time on branches the predictor
//! cannot learn (how many candidates a row has is close to random). Here
//! every 64-bit lane of a vector runs its own depth-first search over one
//! subproblem, and one step moves every lane by one node, down (place the
//! lowest candidate) or up (back to the parent): both moves are computed for
//! all lanes and a mask picks one per lane, so the only branch is "did a lane
//! finish its subproblem", which is rare.
//!
//! The search is written once (`search`) over a path's `Vector`:
//! `avx512` runs two groups of eight lanes, interleaved so that one
//! group's dependency chain hides the other's; `avx2` one group of four
//! (two would not fit in its sixteen registers: no faster, measured) and
//! leaves the side branch to the scalar kernels (see `Lanes::side`).
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
//! `results/`): on AVX-512, full symmetry 0.20× the time of the C
//! yardstick (the scalar kernels: 0.35×), mirror symmetry 0.33× (scalar:
//! 0.89×); on AVX2 (forced on the same machine), 1.0× (n = 16) and 0.94×
//! (n = 17) the scalar kernels' time with full symmetry, 0.79× with mirror
//! symmetry and 0.78× with none (`scripts/targets.py kernels`). Each path's features are checked at run
//! time; every path gives the scalar kernels' counts (`tests/engine.rs`).

use std::ops::ControlFlow;

#[cfg(target_arch = "x86_64")]
mod avx2;
#[cfg(target_arch = "x86_64")]
mod avx512;
#[cfg(target_arch = "x86_64")]
mod search;

use super::count_scalar;
use crate::engine::backtrack::plan::{Family, Subproblem};
use crate::engine::backtrack::rules::refine;
#[cfg(target_arch = "x86_64")]
use crate::engine::cpu;
use crate::engine::cpu::Simd;
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

/// Counts subproblems of one family (a work item) in the lanes of `simd`,
/// exactly as the scalar kernels would.
///
/// # Panics
/// If `simd` has no lanes kernel, or the CPU lacks what it needs (the
/// engine checks both first, against [`Backtrack::PATHS`](super::super::Backtrack::PATHS)).
pub fn count(n: usize, subproblems: &[Subproblem], simd: Simd) -> Tally {
    let lanes = path_lanes(simd);
    let Some(first) = subproblems.first() else {
        return Tally::default();
    };
    if let Family::Side { .. } = first.family {
        if !lanes.side {
            return subproblems
                .iter()
                .map(|subproblem| count_scalar(n, subproblem))
                .fold(Tally::default(), Tally::sum);
        }
    }
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
                    tally.add((lanes.count)(n, &buffer));
                    buffer.clear();
                }
            }
            ControlFlow::Continue(())
        });
    }
    tally.add((lanes.count)(n, &buffer));
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

/// A path's lanes.
struct Lanes {
    /// Counts pieces of one family, each with at most [`HISTORY_ROWS`]
    /// rows left above the last and at least two rows left.
    count: fn(usize, &[Subproblem]) -> Tally,
    /// Whether the lanes take the side branch (of full symmetry), whose
    /// row rules cost a narrow path more than the lanes win: on AVX2 it
    /// runs the scalar kernels (full symmetry, n = 16, one thread: 1.38x
    /// the scalar kernels' time with the side branch in the lanes, 1.0x
    /// without).
    side: bool,
}

/// The lanes of `simd`.
fn path_lanes(simd: Simd) -> Lanes {
    match simd {
        #[cfg(target_arch = "x86_64")]
        Simd::Avx512 => {
            assert!(
                cpu::avx512_lanes(),
                "the lanes need {}",
                cpu::AVX512_LANES_NEEDS
            );
            Lanes {
                // SAFETY: the CPU has the features of the path, just checked.
                count: |n, pieces| unsafe { avx512::count_batch(n, pieces) },
                side: true,
            }
        }
        #[cfg(target_arch = "x86_64")]
        Simd::Avx2 => {
            assert!(cpu::avx2(), "the lanes need {}", cpu::AVX2_NEEDS);
            Lanes {
                // SAFETY: as above.
                count: |n, pieces| unsafe { avx2::count_batch(n, pieces) },
                side: false,
            }
        }
        _ => panic!("the backtracking engine has no lanes on {}", simd.name()),
    }
}
