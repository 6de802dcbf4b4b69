//! Listing: exact output for n = 4, and for n ≤ 9 valid, distinct, ordered
//! boards, as many as the count.

use nqueens::oeis::A000170;
use nqueens::solutions;

#[test]
fn four_queens_has_exactly_two_boards() {
    let boards: Vec<String> = solutions(4)
        .unwrap()
        .map(|s| s.board().to_string())
        .collect();
    assert_eq!(boards, [".Q..\n...Q\nQ...\n..Q.", "..Q.\nQ...\n...Q\n.Q.."]);
}

#[test]
fn listed_boards_are_valid_strictly_increasing_and_as_many_as_the_count() {
    for (n, &known) in A000170.iter().enumerate().take(10).skip(1) {
        let listed: Vec<_> = solutions(n).unwrap().collect();
        assert_eq!(listed.len() as u64, known, "n = {n}");
        for s in &listed {
            assert_eq!(s.n(), n);
            assert!(s.is_valid(), "n = {n}: {s:?}");
        }
        // Strictly increasing columns vectors: in order, and so distinct.
        assert!(
            listed.windows(2).all(|w| w[0].columns() < w[1].columns()),
            "n = {n}"
        );
    }
}

#[test]
fn listing_matches_a_brute_force_over_all_permutations_for_six() {
    // Every permutation of 0..6 in lexicographic order, filtered by validity.
    fn permutations(prefix: &mut Vec<u8>, n: u8, out: &mut Vec<Vec<u8>>) {
        if prefix.len() == usize::from(n) {
            out.push(prefix.clone());
            return;
        }
        for c in 0..n {
            if !prefix.contains(&c) {
                prefix.push(c);
                permutations(prefix, n, out);
                prefix.pop();
            }
        }
    }
    let mut all = Vec::new();
    permutations(&mut Vec::new(), 6, &mut all);
    let expected: Vec<Vec<u8>> = all
        .into_iter()
        .filter(|p| nqueens::Solution::from_columns(p).is_valid())
        .collect();
    let listed: Vec<Vec<u8>> = solutions(6)
        .unwrap()
        .map(|s| s.columns().to_vec())
        .collect();
    assert_eq!(listed, expected);
}
