//! The portable pair counter: blocks of 256 patterns in four `u64` words,
//! no hand-written vector code (the compiler may vectorize the four ANDs),
//! and the CPU's POPCNT instruction where it has one, chosen at run time:
//! without it a popcount is a dozen instructions.

use super::blocks::{Lanes, Words};
use super::CHUNK;

/// Words a block: four amortize a pattern's chunk lookups over 256 lanes.
const W: usize = 4;

#[derive(Clone, Copy)]
struct Portable([u64; W]);

impl Lanes<W> for Portable {
    type Sums = u64;

    #[inline(always)]
    fn zero() -> u64 {
        0
    }

    #[inline(always)]
    fn load(words: &Words<W>) -> Self {
        Portable(words.0)
    }

    #[inline(always)]
    fn and(self, words: &Words<W>) -> Self {
        Portable(std::array::from_fn(|i| self.0[i] & words.0[i]))
    }

    #[inline(always)]
    fn add_count(sums: u64, lanes: Self, shift: u32) -> u64 {
        let found: u32 = lanes.0.iter().map(|w| w.count_ones()).sum();
        sums + (u64::from(found) << shift)
    }

    #[inline(always)]
    fn total(sums: u64) -> u64 {
        sums
    }
}

/// The pairs of `sliced` and the patterns of `streams` with no common bit
/// among patterns of `bits` bits, each counted 2^k times for the k bits of
/// `weights` its stream pattern has.
pub(super) fn count(sliced: &[u64], streams: &[&[u64]], bits: usize, weights: u64) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("popcnt") {
        // SAFETY: the feature the function is compiled for was detected.
        return unsafe { count_popcnt(sliced, streams, bits, weights) };
    }
    count_any(sliced, streams, bits, weights)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
fn count_popcnt(sliced: &[u64], streams: &[&[u64]], bits: usize, weights: u64) -> u64 {
    by_chunks!(Portable, W, sliced, streams, bits, weights)
}

fn count_any(sliced: &[u64], streams: &[&[u64]], bits: usize, weights: u64) -> u64 {
    by_chunks!(Portable, W, sliced, streams, bits, weights)
}
