//! Symmetry classes by brute force: every solution listed with its 8
//! images. Quadratic in the board's size per solution and slow, but
//! obviously right: the oracle for the engine's corner / side search.

use crate::reduce::Classes;
use crate::solutions::Solutions;

/// Classifies every solution of the n×n board by listing it and its 8
/// images.
pub fn classify_by_enumeration(n: usize) -> Classes {
    let mut classes = Classes::default();
    for solution in Solutions::new(n) {
        let columns = solution.columns();
        let images = images(columns);
        if images.iter().all(|image| columns <= image.as_slice()) {
            let mut distinct = images.clone();
            distinct.sort();
            distinct.dedup();
            match distinct.len() {
                8 => classes.orbit8 += 1,
                4 => classes.orbit4 += 1,
                2 => classes.orbit2 += 1,
                1 => classes.orbit1 += 1,
                other => unreachable!("an orbit of {other} under the dihedral group"),
            }
        }
    }
    classes
}

/// The 8 images of a placement under the symmetries of the square.
fn images(columns: &[u8]) -> Vec<Vec<u8>> {
    let n = columns.len();
    // A quarter turn takes the queen at (r, c) to (c, n-1-r).
    let rotate = |cols: &[u8]| {
        let mut turned = vec![0u8; n];
        for (r, &c) in cols.iter().enumerate() {
            turned[usize::from(c)] = (n - 1 - r) as u8;
        }
        turned
    };
    let reflect = |cols: &[u8]| cols.iter().map(|&c| (n - 1) as u8 - c).collect::<Vec<u8>>();
    let mut out = Vec::with_capacity(8);
    let mut current = columns.to_vec();
    for _ in 0..4 {
        out.push(reflect(&current));
        let next = rotate(&current);
        out.push(current);
        current = next;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::backtrack::state::State;
    use crate::engine::backtrack::symmetry::{corner_search, Side};

    #[test]
    fn the_corner_and_turned_side_branches_find_the_brute_force_classes() {
        // Every class of a small board comes out of the turned side branch
        // plus the corner branch exactly as listing the images says.
        for n in 4..=9 {
            let mut classes = Classes::default();
            for bound1 in (1..).take_while(|&b| b + 1 + b < n) {
                let side = Side::new(n, bound1);
                let (state, mut board) = side.start();
                side.search(0, state, &mut board, &mut classes);
            }
            for bound1 in 2..n - 1 {
                let state = State::EMPTY.place(1).place(1 << bound1);
                classes.orbit8 += u128::from(corner_search(n, bound1, 2, state));
            }
            assert_eq!(classes, classify_by_enumeration(n), "n={n}");
        }
    }
}
