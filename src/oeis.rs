//! Known values of OEIS A000170 and A002562, shipped to *check* computed counts.
//!
//! Nothing in the crate returns these numbers as a computed count: they are
//! read only by `verify`, by tests and by benchmarks, which compare them with
//! what a solver found.

/// A000170: the number of solutions of the n-queens puzzle, for n = 0..=27.
///
/// `A000170[n]` is the count for an n×n board (a(0) = 1 by OEIS convention).
pub const A000170: [u64; 28] = [
    1,
    1,
    0,
    0,
    2,
    10,
    4,
    40,
    92,
    352,
    724,
    2_680,
    14_200,
    73_712,
    365_596,
    2_279_184,
    14_772_512,
    95_815_104,
    666_090_624,
    4_968_057_848,
    39_029_188_884,
    314_666_222_712,
    2_691_008_701_644,
    24_233_937_684_440,
    227_514_171_973_736,
    2_207_893_435_808_352,
    22_317_699_616_364_044,
    234_907_967_154_122_528,
];

/// A002562: solutions counted once per orbit under the 8 symmetries of the
/// square ("unique" or fundamental solutions), for n = 1..=27.
///
/// `A002562[n - 1]` is the count for an n×n board (OEIS offset 1).
pub const A002562: [u64; 27] = [
    1,
    0,
    0,
    1,
    2,
    1,
    6,
    12,
    46,
    92,
    341,
    1_787,
    9_233,
    45_752,
    285_053,
    1_846_955,
    11_977_939,
    83_263_591,
    621_012_754,
    4_878_666_808,
    39_333_324_973,
    336_376_244_042,
    3_029_242_658_210,
    28_439_272_956_934,
    275_986_683_743_434,
    2_789_712_466_510_289,
    29_363_495_934_315_694,
];

/// The known total for an n×n board, if OEIS lists one.
pub fn known_total(n: usize) -> Option<u128> {
    A000170.get(n).copied().map(u128::from)
}

/// The known number of unique solutions for an n×n board (n ≥ 1), if OEIS
/// lists one.
pub fn known_unique(n: usize) -> Option<u128> {
    n.checked_sub(1)
        .and_then(|i| A002562.get(i))
        .copied()
        .map(u128::from)
}
