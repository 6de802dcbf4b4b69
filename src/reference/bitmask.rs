//! The bitmask search on the whole tree, serially and with no symmetry: the
//! `bitmask` and `bitmask-iter` algorithms, the oracles the engine is
//! checked against.
//!
//! [`count_recursive`] is the engine's own hot kernel run from the empty
//! board; [`count_iterative`] is the same search written independently, with
//! no recursion, on a fixed-size explicit stack: a second oracle that shares
//! nothing with the kernel but [`State`].

use crate::engine::backtrack::kernel::scalar::count_subtree;
use crate::engine::backtrack::state::{full_mask, State};
use crate::problem::MAX_N;

/// Counts the whole n×n search tree with the hot kernel (no symmetry).
pub fn count_recursive(n: usize) -> u64 {
    count_subtree(n, State::EMPTY)
}

/// The same search as [`count_recursive`], with no recursion: a fixed-size
/// explicit stack holds, for each row, its state and the columns not yet tried.
pub fn count_iterative(n: usize) -> u64 {
    if n == 0 {
        return 1;
    }
    let full = full_mask(n);
    let mut states = [State::EMPTY; MAX_N];
    let mut untried = [0u32; MAX_N];
    untried[0] = full;
    let mut row = 0;
    let mut count = 0;
    loop {
        let free = untried[row];
        if free == 0 {
            if row == 0 {
                return count;
            }
            row -= 1;
            continue;
        }
        let bit = free & free.wrapping_neg(); // the lowest untried column
        untried[row] = free ^ bit;
        if row + 1 == n {
            count += 1;
            continue;
        }
        let child = states[row].place(bit);
        row += 1;
        states[row] = child;
        untried[row] = child.free(full);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::backtrack::kernel::scalar::TAIL_ROWS;
    use crate::oeis::A000170;

    #[test]
    fn kernel_counts_every_depth_of_the_tail_from_the_empty_board() {
        // n = 1..=TAIL_ROWS + 2 enters every arm of count_subtree's match.
        for (n, &known) in A000170.iter().enumerate().take(TAIL_ROWS + 3).skip(1) {
            assert_eq!(count_recursive(n), known, "n = {n}");
            assert_eq!(count_iterative(n), known, "n = {n}");
        }
    }
}
