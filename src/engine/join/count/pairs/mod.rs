//! Counting disjoint pairs: how many (a, b) in A × B have `a & b == 0`.
//!
//! [`count_naive`] is the plain double loop, the oracle. The counters store
//! the smaller side bit-sliced (`blocks.rs`): for every bit, words of "the
//! block's patterns that lack this bit", and for every chunk of 5 bits the
//! 32 ANDs of those words, precomputed. A pattern of the other side is then
//! compared with a whole block by one AND per chunk in which it has a bit,
//! and a popcount. The [`PATHS`] differ in the width of a block and how
//! they count its lanes: portable (256 patterns in four `u64`, POPCNT
//! where the CPU has it), AVX2 (one 256-bit register), NEON (two 128-bit
//! registers, aarch64) and AVX-512 (512 patterns in one register,
//! `vpopcntq`: about 0.03 instructions a pair). The join counts on the one
//! it is given; every path gives the same counts (the tests below run each
//! one this CPU runs against the double loop). Long lists go through the
//! sieve (`sieve.rs`) first: sorted on a few key bits, so that buckets
//! clashing on them are never compared.

/// Bits per chunk of the precomputed ANDs.
const CHUNK: usize = 5;

/// Calls [`blocks::stream`] with the chunk count of `$bits`,
/// monomorphized per count: the chunk loop unrolls, and its table lookups
/// (a value masked to 0..32 into a `[_; 32]`) need no bounds check.
macro_rules! by_chunks {
    ($lanes:ty, $w:expr, $sliced:expr, $stream:expr, $bits:expr, $weights:expr) => {
        by_chunks!(@ $lanes, $w, $sliced, $stream, $bits, $weights; 1 2 3 4 5 6 7 8 9 10 11 12 13)
    };
    (@ $lanes:ty, $w:expr, $sliced:expr, $stream:expr, $bits:expr, $weights:expr; $($chunks:literal)*) => {
        match $bits.div_ceil(CHUNK).max(1) {
            $($chunks => if $weights == 0 {
                super::blocks::stream::<$lanes, $w, $chunks, false>($sliced, $stream, 0)
            } else {
                super::blocks::stream::<$lanes, $w, $chunks, true>($sliced, $stream, $weights)
            },)*
            _ => unreachable!("patterns of more than 64 bits"),
        }
    };
}

/// Runs `$body` with `$chunk` bound to 1, 2, … up to `$chunks - 1`: the
/// chunk loop of a pattern, unrolled by hand (with a constant `$chunks`
/// the branches fold away). LLVM keeps a loop for wide lanes otherwise: a
/// compare and a jump per chunk, 12% of the time of the AVX2 counter at
/// n = 18.
macro_rules! for_each_chunk {
    ($chunks:expr, $chunk:ident => $body:block) => {
        for_each_chunk!(@ $chunks, $chunk, $body; 1 2 3 4 5 6 7 8 9 10 11 12)
    };
    (@ $chunks:expr, $chunk:ident, $body:block; $($n:literal)*) => {$(
        if $n < $chunks {
            let $chunk: usize = $n;
            $body
        }
    )*};
}

#[cfg(target_arch = "x86_64")]
mod avx2;
#[cfg(target_arch = "x86_64")]
mod avx512;
mod blocks;
pub mod gpu;
#[cfg(target_arch = "aarch64")]
mod neon;
mod portable;
mod sieve;

use crate::engine::cpu;

use crate::engine::cpu::{Path, Simd};

/// Below this many patterns on the smaller side, the double loop is
/// faster than building a block's tables.
const NAIVE_BELOW: usize = 24;

/// The same for a sieve's bucket against the other side's buckets it
/// meets: long keys leave many small buckets, each meeting long streams,
/// where a block's tables cost less than the double loop from 8 patterns
/// (a whole item of n = 26: 8 instead of 24 took 8 % less time).
const STREAMS_NAIVE_BELOW: usize = 8;

/// The pair counter's paths: portable, AVX2, AVX-512 and NEON.
pub const PATHS: [Path; 4] = [
    cpu::PORTABLE,
    Path {
        simd: Simd::Avx2,
        needs: cpu::AVX2_NEEDS,
        detect: cpu::avx2,
    },
    Path {
        simd: Simd::Avx512,
        needs: cpu::AVX512_PAIRS_NEEDS,
        detect: cpu::avx512_pairs,
    },
    Path {
        simd: Simd::Neon,
        needs: cpu::NEON_NEEDS,
        detect: cpu::neon,
    },
];

/// Whether a test may run the counter on `simd` here (a skip is said,
/// once).
#[doc(hidden)]
pub fn runs_in(simd: Simd, test: &str) -> bool {
    cpu::path_runs_in(&PATHS, simd, "pair counter", test)
}

/// What pairs are counted on: a CPU path, and a GPU (`--gpu`) that takes
/// the pair jobs long enough to pay for their transfers, where a count
/// has one.
#[derive(Clone, Copy, Debug)]
pub struct Counter<'a> {
    /// The CPU path: the sieve, short jobs and all of them without a GPU.
    pub simd: Simd,
    /// The GPU, if any.
    pub gpu: Option<&'a gpu::Gpu>,
}

impl Counter<'_> {
    /// The CPU path `simd` alone.
    pub fn cpu(simd: Simd) -> Counter<'static> {
        Counter { simd, gpu: None }
    }
}

/// The pairs of `a` and `b` with no common bit, among patterns of `bits`
/// bits, counted on `simd`.
///
/// # Panics
/// If this CPU does not run the counter on `simd` ([`PATHS`]).
pub fn count(simd: Simd, a: &[u64], b: &[u64], bits: usize) -> u64 {
    count_on(Counter::cpu(simd), a, b, bits)
}

/// [`count`] on `counter`.
pub fn count_on(counter: Counter, a: &[u64], b: &[u64], bits: usize) -> u64 {
    let (sliced, stream) = match slices_first(a.len(), b.len()) {
        true => (a, b),
        false => (b, a),
    };
    count_into(counter, sliced, stream, bits, 0)
}

/// From this many patterns on the longer side, [`count`] slices it.
const SLICE_LONGER_FROM: usize = 1 << 18;

/// Whether [`count`] slices the first of two sides of `a` and `b`
/// patterns. Short sides: the shorter, whose tables stay in cache while
/// the longer streams past them (a few per cent faster at n = 16..18 than
/// the other way round). From `SLICE_LONGER_FROM`: the longer, whose
/// buckets the sieve can cut on more key bits while each still fills a
/// block (lists glued at n = 24..28: 1.0-3.1x faster, the most where one
/// side is several times the other).
pub fn slices_first(a: usize, b: usize) -> bool {
    match a.max(b) >= SLICE_LONGER_FROM {
        true => a >= b,
        false => a < b,
    }
}

/// The pairs of `a` and `b` with no common bit, each counted 2^k times
/// for the k bits of `weights` its `b` has, on `simd`. Where either side
/// is long (`SLICE_LONGER_FROM`), as plain counts: `b` sorted in place
/// by which bits of `weights` it holds, each part counted by [`count`]
/// (so the longer side may be sliced; [`count_weighted`] must slice `a`,
/// the weights riding on the stream) and weighted. Shorter sides are
/// counted by [`count_weighted`] (four short counts sort and build tables
/// four times: 1.36x the time at n = 20).
pub fn count_by_weight(
    counter: Counter,
    a: &[u64],
    b: &mut [u64],
    bits: usize,
    weights: u64,
) -> u64 {
    if a.len().max(b.len()) < SLICE_LONGER_FROM {
        return count_into(counter, a, b, bits, weights);
    }
    count_by_parts(counter, a, b, bits, weights)
}

/// [`count_by_weight`] as plain counts, whatever the lengths.
fn count_by_parts(counter: Counter, a: &[u64], b: &mut [u64], bits: usize, weights: u64) -> u64 {
    if weights == 0 || b.is_empty() {
        return count_on(counter, a, b, bits);
    }
    let bit = weights & weights.wrapping_neg();
    // Those without `bit` first.
    let mut without = 0;
    for i in 0..b.len() {
        if b[i] & bit == 0 {
            b.swap(i, without);
            without += 1;
        }
    }
    let (lacking, holding) = b.split_at_mut(without);
    let rest = weights & !bit;
    count_by_parts(counter, a, lacking, bits, rest)
        + 2 * count_by_parts(counter, a, holding, bits, rest)
}

/// The pairs of `a` and `b` with no common bit, each counted 2^k times for
/// the k bits of `weights` its `b` has (`a` is the side sliced), on `simd`.
///
/// # Panics
/// If this CPU does not run the counter on `simd` ([`PATHS`]).
pub fn count_weighted(simd: Simd, a: &[u64], b: &[u64], bits: usize, weights: u64) -> u64 {
    count_into(Counter::cpu(simd), a, b, bits, weights)
}

fn count_into(counter: Counter, sliced: &[u64], stream: &[u64], bits: usize, weights: u64) -> u64 {
    if let Some(gpu) = counter
        .gpu
        .filter(|gpu| gpu.takes(sliced.len(), stream.len(), weights))
    {
        return count_on_gpu(gpu, counter.simd, (sliced, stream), bits, weights);
    }
    let simd = counter.simd;
    // Small lists do not pay for a block's tables.
    if sliced.len().min(stream.len()) < NAIVE_BELOW {
        return count_naive_weighted(sliced, stream, weights);
    }
    let key = sieve::Key::choose(sliced, stream, (bits, weights), extracts_bits(simd));
    if key.len() == 0 {
        return count_streams(simd, sliced, &[stream], bits, weights);
    }
    let key = squeezing_dead(key, (sliced, stream), bits, weights);
    count_sieved(simd, key, (sliced, stream), bits, weights)
}

/// `key` also squeezing out the bits no pair of `sliced` and `stream`
/// clashes on, as many as save chunks: the sieve copies both sides, and
/// they may as well go.
fn squeezing_dead(
    key: sieve::Key,
    (sliced, stream): (&[u64], &[u64]),
    bits: usize,
    weights: u64,
) -> sieve::Key {
    let dead = dead_bits((sliced, stream), bits, weights) & !key.mask();
    key.without(fewest_saving_chunks(dead, key.kept_bits(bits)))
}

/// [`count_into`] on `gpu`: sides past [`gpu::GPU_SIDE_MOST`] cut in
/// halves, each job sorted into the sieve's buckets here (by bit
/// extraction where `simd` has it fast) and counted there.
fn count_on_gpu(
    gpu: &gpu::Gpu,
    simd: Simd,
    (sliced, stream): (&[u64], &[u64]),
    bits: usize,
    weights: u64,
) -> u64 {
    if sliced.len() > gpu::GPU_SIDE_MOST {
        let (x, y) = sliced.split_at(sliced.len() / 2);
        return count_on_gpu(gpu, simd, (x, stream), bits, weights)
            + count_on_gpu(gpu, simd, (y, stream), bits, weights);
    }
    if stream.len() > gpu::GPU_SIDE_MOST {
        let (x, y) = stream.split_at(stream.len() / 2);
        return count_on_gpu(gpu, simd, (sliced, x), bits, weights)
            + count_on_gpu(gpu, simd, (sliced, y), bits, weights);
    }
    let key = sieve::Key::choose(sliced, stream, (bits, weights), extracts_bits(simd));
    let key = squeezing_dead(key, (sliced, stream), bits, weights);
    sieve::sorted(
        key,
        (sliced, stream),
        (bits, weights),
        extracts_bits(simd),
        |a, b, (bits, weights)| gpu.count(a, b, bits, weights),
    )
}

/// The bits of patterns of `bits` bits that no pair of `a` and `b` can
/// clash on, one side never holding them, and that are not `weights`.
fn dead_bits((a, b): (&[u64], &[u64]), bits: usize, weights: u64) -> u64 {
    let held = |side: &[u64]| side.iter().fold(0, |held, &x| held | x);
    low_bits(bits) & !(held(a) & held(b)) & !weights
}

/// The bits a pattern of `bits` bits may hold.
fn low_bits(bits: usize) -> u64 {
    u64::MAX >> (64 - bits.clamp(1, 64))
}

/// The fewest of the `dead` bits, the highest first, that leave as few
/// chunks of patterns of `kept` bits as all of them would: a chunk saved
/// is an AND for every pattern streamed past a block, and a bit squeezed
/// that saves none only makes the sorting's gathers longer (the highest
/// shorten the top run, no new one).
fn fewest_saving_chunks(dead: u64, kept: usize) -> u64 {
    let fewest = kept - dead.count_ones() as usize;
    let need = kept.saturating_sub(fewest.div_ceil(CHUNK) * CHUNK);
    let (mut taken, mut rest) = (0u64, dead);
    for _ in 0..need {
        let top = 1u64 << (63 - rest.leading_zeros());
        taken |= top;
        rest &= !top;
    }
    taken
}

/// The work of [`count_weighted`] on sides of `lens` patterns like the
/// samples `a` (sliced) and `b` (a few hundred patterns of each are
/// plenty): the sieve's key chosen as for the whole sides, its buckets
/// filled in the samples' proportions, and the work of each counted in
/// patterns streamed past a block (a block's tables and a pattern sorted
/// counted at the sieve's own estimates of them). On one CPU and one
/// pattern width the time of a count is about proportional to it, past a
/// few blocks; `count_weighted` on any sides calibrates it.
pub fn work(
    simd: Simd,
    (a, b): (&[u64], &[u64]),
    lens: (f64, f64),
    bits: usize,
    weights: u64,
) -> f64 {
    let lanes = match simd {
        Simd::Avx512 => 512.0,
        _ => 256.0,
    };
    if lens.0.min(lens.1) < NAIVE_BELOW as f64 {
        // A pair of the double loop, about a lane's share of a pattern
        // streamed past a block.
        return lens.0 * lens.1 / lanes;
    }
    let key = sieve::Key::choose_for((a, b), lens, (bits, weights), extracts_bits(simd));
    sieve::work(key, (a, b), lens, lanes, extracts_bits(simd))
}

/// The work of [`count_by_weight`] on sides of `lens` patterns like the
/// samples `a` and `b`, in the units of [`work`]: of long sides, each part
/// of `b` by the weights it holds (its share of `b`'s length as of the
/// sample), counted as [`count`] counts it (the side [`slices_first`]
/// says sliced).
pub fn work_by_weight(
    simd: Simd,
    (a, b): (&[u64], &[u64]),
    lens: (f64, f64),
    bits: usize,
    weights: u64,
) -> f64 {
    if b.is_empty() || a.is_empty() {
        return 0.0;
    }
    if lens.0.max(lens.1) < SLICE_LONGER_FROM as f64 {
        return work(simd, (a, b), lens, bits, weights);
    }
    let mut total = 0.0;
    let mut held = weights;
    // Each subset of the weight bits, the empty one last.
    loop {
        let part: Vec<u64> = b.iter().copied().filter(|&y| y & weights == held).collect();
        if !part.is_empty() {
            let len = lens.1 * part.len() as f64 / b.len() as f64;
            let round = |x: f64| x.round() as usize;
            total += match slices_first(round(lens.0), round(len)) {
                true => work(simd, (a, &part), (lens.0, len), bits, 0),
                false => work(simd, (&part, a), (len, lens.0), bits, 0),
            };
        }
        if held == 0 {
            break;
        }
        held = (held - 1) & weights;
    }
    total
}

/// Whether the sieve sorts by bit extraction on `simd`: every CPU with
/// AVX-512 has it in hardware; some AVX2 ones run it in microcode, slower
/// than the gathers.
fn extracts_bits(simd: Simd) -> bool {
    simd == Simd::Avx512
}

/// [`count_into`] through the sieve on `key`.
fn count_sieved(
    simd: Simd,
    key: sieve::Key,
    sides: (&[u64], &[u64]),
    bits: usize,
    weights: u64,
) -> u64 {
    sieve::count(
        key,
        sides,
        (bits, weights),
        extracts_bits(simd),
        |a, streams, bits, weights| count_streams(simd, a, streams, bits, weights),
    )
}

/// The pairs of `sliced` and the patterns of `streams` with no common
/// bit, each counted 2^k times for the k bits of `weights` its stream
/// pattern has, on `simd`.
fn count_streams(simd: Simd, sliced: &[u64], streams: &[&[u64]], bits: usize, weights: u64) -> u64 {
    let streamed: usize = streams.iter().map(|s| s.len()).sum();
    if sliced.len().min(streamed) < STREAMS_NAIVE_BELOW {
        return streams
            .iter()
            .map(|stream| count_naive_weighted(sliced, stream, weights))
            .sum();
    }
    match simd {
        Simd::None => portable::count(sliced, streams, bits, weights),
        #[cfg(target_arch = "x86_64")]
        Simd::Avx2 if cpu::avx2() => {
            // SAFETY: the features the function is compiled for are here.
            unsafe { avx2::count(sliced, streams, bits, weights) }
        }
        #[cfg(target_arch = "x86_64")]
        Simd::Avx512 if cpu::avx512_pairs() => {
            // SAFETY: the features the function is compiled for are here.
            unsafe { avx512::count(sliced, streams, bits, weights) }
        }
        #[cfg(target_arch = "aarch64")]
        Simd::Neon => neon::count(sliced, streams, bits, weights),
        _ => panic!("the {simd} pair counter on a CPU without it"),
    }
}

/// The pairs of `a` and `b` with no common bit, by the double loop.
pub fn count_naive(a: &[u64], b: &[u64]) -> u64 {
    a.iter()
        .map(|&x| b.iter().filter(|&&y| x & y == 0).count() as u64)
        .sum()
}

/// [`count_weighted`] by the double loop.
pub fn count_naive_weighted(a: &[u64], b: &[u64], weights: u64) -> u64 {
    if weights == 0 {
        return count_naive(a, b);
    }
    b.iter()
        .map(|&y| {
            let pairs = a.iter().filter(|&&x| x & y == 0).count() as u64;
            pairs << (y & weights).count_ones()
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Sparse patterns of `bits` bits (ANDs of `density` rotations), so
    /// that pairs are often disjoint.
    fn thin(v: &[u64], bits: usize, density: u32) -> Vec<u64> {
        let mask = u64::MAX >> (64 - bits);
        v.iter()
            .map(|&x| (1..density).fold(x, |y, k| y & x.rotate_left(7 * k)) & mask)
            .collect()
    }

    /// One proptest suite per counter, each against the double loop: any
    /// width, sides across several blocks (512 and more), weights.
    macro_rules! against_the_double_loop {
        ($($name:ident: $counter:expr,)*) => {$(
            mod $name {
                use super::*;

                proptest! {
                    #[test]
                    fn counts_are_the_double_loop(
                        a in prop::collection::vec(any::<u64>(), 0..150),
                        b in prop::collection::vec(any::<u64>(), 0..150),
                        bits in 1usize..=64,
                        density in 1u32..6,
                    ) {
                        if runs_in($counter, "counts_are_the_double_loop") {
                            let (a, b) = (thin(&a, bits, density), thin(&b, bits, density));
                            prop_assert_eq!(count($counter, &a, &b, bits), count_naive(&a, &b));
                        }
                    }

                    #[test]
                    fn weighted_counts_are_the_weighted_double_loop(
                        a in prop::collection::vec(any::<u64>(), 0..700),
                        b in prop::collection::vec(any::<u64>(), 0..700),
                        weights in any::<u64>(),
                    ) {
                        if runs_in($counter, "weighted_counts_are_the_weighted_double_loop") {
                            let (a, b) = (thin(&a, 40, 2), thin(&b, 40, 2));
                            let weights = thin(&[weights], 40, 2)[0];
                            prop_assert_eq!(
                                count_weighted($counter, &a, &b, 40, weights),
                                count_naive_weighted(&a, &b, weights)
                            );
                        }
                    }

                    #[test]
                    fn sieved_counts_are_the_weighted_double_loop(
                        a in prop::collection::vec(any::<u64>(), 0..1500),
                        b in prop::collection::vec(any::<u64>(), 0..700),
                        key in prop::collection::vec(0u32..40, 1..=sieve::MOST_KEY_BITS),
                        weights in any::<u64>(),
                        dead in any::<u64>(),
                    ) {
                        if runs_in($counter, "sieved_counts_are_the_weighted_double_loop") {
                            let (a, b) = (thin(&a, 40, 2), thin(&b, 40, 2));
                            let key = key.iter().fold(0u64, |mask, &bit| mask | 1 << bit);
                            let weights = thin(&[weights], 40, 3)[0] & !key;
                            let expected = count_naive_weighted(&a, &b, weights);
                            prop_assert_eq!(
                                count_sieved($counter, sieve::Key::of(key), (&a, &b), 40, weights),
                                expected
                            );
                            // Bits the sliced side never holds squeezed out
                            // as well (scattered: up to 32 runs around them).
                            let dead = dead & !key & !weights & (u64::MAX >> 24);
                            let a: Vec<u64> = a.iter().map(|&x| x & !dead).collect();
                            let expected = count_naive_weighted(&a, &b, weights);
                            let key = sieve::Key::of(key).without(dead);
                            prop_assert_eq!(count_sieved($counter, key, (&a, &b), 40, weights), expected);
                        }
                    }

                    #[test]
                    fn counts_cross_blocks(
                        a in prop::collection::vec(any::<u64>(), 0..40),
                        b in prop::collection::vec(any::<u64>(), 500..1200),
                    ) {
                        if runs_in($counter, "counts_cross_blocks") {
                            let (a, b) = (thin(&a, 62, 3), thin(&b, 62, 3));
                            prop_assert_eq!(count($counter, &a, &b, 62), count_naive(&a, &b));
                            // Both sides past a block: the large one sliced.
                            let big: Vec<u64> = b.iter().map(|x| x.rotate_left(17) & (u64::MAX >> 2)).collect();
                            prop_assert_eq!(count($counter, &big, &b, 62), count_naive(&big, &b));
                        }
                    }
                }
            }
        )*};
    }

    proptest! {
        #[test]
        fn counts_by_weight_are_the_weighted_double_loop(
            a in prop::collection::vec(any::<u64>(), 0..700),
            b in prop::collection::vec(any::<u64>(), 0..700),
            weights in prop::collection::vec(0u32..40, 0..=3),
        ) {
            let simd = cpu::fastest(&PATHS);
            let (a, mut b) = (thin(&a, 40, 2), thin(&b, 40, 2));
            let weights = weights.iter().fold(0u64, |mask, &bit| mask | 1 << bit);
            let expected = count_naive_weighted(&a, &b, weights);
            prop_assert_eq!(count_by_weight(Counter::cpu(simd), &a, &mut b, 40, weights), expected);
            // As plain counts by part, as long sides are.
            prop_assert_eq!(count_by_parts(Counter::cpu(simd), &a, &mut b, 40, weights), expected);
        }
    }

    #[test]
    fn dead_bits_are_those_one_side_never_holds_and_no_weight() {
        let (a, b) = ([0b0011, 0b0101], [0b1100, 0b0110]);
        // Held by both: bits 1 and 2; bit 3 a weight.
        assert_eq!(dead_bits((&a, &b), 6, 0b1000), 0b11_0001);
        assert_eq!(dead_bits((&a, &[]), 6, 0), 0b11_1111);
    }

    #[test]
    fn dead_bits_are_squeezed_only_as_far_as_they_save_chunks() {
        // 43 bits kept: 9 chunks; 6 dead leave 37, 8 chunks, which 40
        // make as well: the 3 highest dead bits.
        let dead = 0b1011_0000_0110_0001;
        assert_eq!(fewest_saving_chunks(dead, 43), 0b1011_0000_0000_0000);
        // 40 kept, 2 dead: 38 is 8 chunks as 40 is: none.
        assert_eq!(fewest_saving_chunks(0b11, 40), 0);
        assert_eq!(fewest_saving_chunks(0, 40), 0);
        // 36 kept, 2 dead: 35 makes 7 chunks as 34 does: the higher one.
        assert_eq!(fewest_saving_chunks(0b1_0001, 36), 0b1_0000);
        // All of them where every one counts.
        assert_eq!(fewest_saving_chunks(0b11_0001, 38), 0b11_0001);
    }

    #[test]
    fn the_longer_side_is_sliced_from_a_quarter_million_patterns() {
        assert!(slices_first(10, 20) && !slices_first(20, 10));
        assert!(slices_first(1 << 18, 5) && !slices_first(5, 1 << 18));
        assert!(slices_first(1 << 18, 1 << 18));
    }

    #[test]
    fn work_is_blocks_times_the_stream_without_a_sieve_and_grows_with_it() {
        let patterns = |len: usize, seed: u64| -> Vec<u64> {
            let v: Vec<u64> = (0..len as u64)
                .map(|i| (i ^ seed).wrapping_mul(0x9E37_79B9_7F4A_7C15))
                .collect();
            thin(&v, 40, 3)
        };
        // Under two blocks nothing is sieved: the one bucket's blocks each
        // meet the whole stream.
        let (a, b) = (patterns(600, 1), patterns(5000, 2));
        let simd = cpu::fastest(&PATHS);
        let lanes = if simd == Simd::Avx512 { 512.0 } else { 256.0 };

        if lanes == 512.0 {
            let work = work(simd, (&a, &b), (600.0, 5000.0), 40, 0);
            assert_eq!(work, 2.0 * (400.0 + 5000.0));
        }
        // A longer stream, the same sides' patterns: about as much more
        // work (a block's tables and the sorting aside).
        let (a, b) = (patterns(4096, 3), patterns(4096, 4));
        let one = work(simd, (&a, &b), (1e6, 1e7), 40, 0);
        let ten = work(simd, (&a, &b), (1e6, 1e8), 40, 0);
        assert!((9.0..10.5).contains(&(ten / one)), "{one} {ten}");
    }

    against_the_double_loop! {
        portable: Simd::None,
        avx2: Simd::Avx2,
        avx512: Simd::Avx512,
        neon: Simd::Neon,
    }
}
