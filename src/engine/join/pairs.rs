//! Counting disjoint pairs: how many (a, b) in A × B have `a & b == 0`.
//!
//! [`count_naive`] is the plain double loop, the oracle. [`count_sliced`]
//! stores B bit-sliced, 64 patterns to a block: for every bit j a word of
//! the block's patterns that lack bit j, and for every chunk of 5 bits the
//! 32 ANDs of those words, precomputed. A pattern a is then compared with
//! a whole block by one AND per chunk in which a has a bit, and a popcount:
//! about 13 instructions for 64 pairs with 62-bit patterns, where the plain
//! loop spends 2 or 3 per pair. [`PairCounter::Avx512`] runs the same
//! with 512 patterns to a block in AVX-512 registers (and `vpopcntq`)
//! where the CPU has them: about 0.03 instructions a pair.
//! [`PairCounter::fastest`] chooses at run time.

/// Bits per chunk of the precomputed ANDs.
const CHUNK: usize = 5;

use crate::engine::cpu;

/// Below this many patterns on the smaller side, the double loop is
/// faster than building a block's tables.
const NAIVE_BELOW: usize = 24;

/// The ways to count disjoint pairs of patterns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "kebab-case")]
pub enum PairCounter {
    /// 64 patterns a block in `u64` words: any CPU.
    Portable,
    /// 512 patterns a block in AVX-512 registers: needs AVX-512 F and
    /// VPOPCNTDQ.
    Avx512,
}

impl PairCounter {
    /// The counter's name in reports.
    pub fn name(self) -> &'static str {
        match self {
            PairCounter::Portable => "portable",
            PairCounter::Avx512 => "avx512",
        }
    }

    /// The fastest counter this CPU runs: AVX-512 where it has it (unless
    /// [`NO_LANES_VAR`](crate::engine::cpu::NO_LANES_VAR) is set, which
    /// keeps every engine on its portable path), else portable.
    pub fn fastest() -> PairCounter {
        if cpu::avx512_pairs() && !cpu::vectors_off() {
            PairCounter::Avx512
        } else {
            PairCounter::Portable
        }
    }

    /// What the counter needs of the CPU, for a refusal or a skip.
    pub fn needs(self) -> &'static str {
        match self {
            PairCounter::Portable => "nothing",
            PairCounter::Avx512 => cpu::AVX512_PAIRS_NEEDS,
        }
    }

    /// Whether a test may run the counter here (a skip is said, once).
    #[doc(hidden)]
    pub fn runs_in(self, test: &str) -> bool {
        let path = format!("{self} pair counter");
        cpu::runs_or_skips(self.available(), test, &path, self.needs())
    }

    /// Whether this CPU runs the counter.
    pub fn available(self) -> bool {
        match self {
            PairCounter::Portable => true,
            PairCounter::Avx512 => cpu::avx512_pairs(),
        }
    }

    /// The pairs of `a` and `b` with no common bit, among patterns of
    /// `bits` bits.
    ///
    /// # Panics
    /// If this CPU does not run the counter.
    pub fn count(self, a: &[u64], b: &[u64], bits: usize) -> u64 {
        // The smaller side is sliced: its tables stay in cache while the
        // larger streams past them (a few per cent faster at n = 16..18
        // than the other way round, where small sides pay for tables).
        let (sliced, stream) = if a.len() < b.len() { (a, b) } else { (b, a) };
        self.count_into(sliced, stream, bits, 0)
    }

    /// The pairs of `a` and `b` with no common bit, each counted 2^k times
    /// for the k bits of `weights` its `b` has (`a` is the side sliced).
    ///
    /// # Panics
    /// If this CPU does not run the counter.
    pub fn count_weighted(self, a: &[u64], b: &[u64], bits: usize, weights: u64) -> u64 {
        self.count_into(a, b, bits, weights)
    }

    fn count_into(self, sliced: &[u64], stream: &[u64], bits: usize, weights: u64) -> u64 {
        // Small lists do not pay for a block's tables.
        if sliced.len().min(stream.len()) < NAIVE_BELOW {
            return count_naive_weighted(sliced, stream, weights);
        }
        match self {
            PairCounter::Portable => sliced_core(sliced, stream, bits, weights),
            PairCounter::Avx512 => {
                assert!(
                    cpu::avx512_pairs(),
                    "the AVX-512 pair counter on a CPU without it"
                );
                #[cfg(target_arch = "x86_64")]
                // SAFETY: the features the function is compiled for were
                // detected just above.
                return unsafe { avx512::count(sliced, stream, bits, weights) };
                #[cfg(not(target_arch = "x86_64"))]
                unreachable!()
            }
        }
    }
}

impl std::fmt::Display for PairCounter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The pairs of `a` and `b` with no common bit, by the double loop.
pub fn count_naive(a: &[u64], b: &[u64]) -> u64 {
    a.iter()
        .map(|&x| b.iter().filter(|&&y| x & y == 0).count() as u64)
        .sum()
}

/// [`PairCounter::count_weighted`] by the double loop.
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

/// The pairs of `a` and `b` with no common bit, among patterns of `bits`
/// bits (<= 64), by the bit-sliced blocks of the larger side.
pub fn count_sliced(a: &[u64], b: &[u64], bits: usize) -> u64 {
    let (sliced, stream) = if a.len() < b.len() { (a, b) } else { (b, a) };
    sliced_core(sliced, stream, bits, 0)
}

/// [`count_sliced`] with `sliced` in the blocks and each pair counted 2^k
/// times for the k bits of `weights` its `stream` pattern has.
fn sliced_core(sliced: &[u64], stream: &[u64], bits: usize, weights: u64) -> u64 {
    if stream.is_empty() {
        return 0;
    }
    let chunks = bits.div_ceil(CHUNK);
    let mut tables = vec![0u64; chunks << CHUNK];
    let mut count = 0;
    for block in sliced.chunks(64) {
        build_tables(block, chunks, &mut tables);
        for &x in stream {
            let mut lanes = tables[0]; // chunk 0, value 0: the block's lanes
            let mut rest = x;
            let mut chunk = 0;
            while rest != 0 {
                let value = (rest & ((1 << CHUNK) - 1)) as usize;
                lanes &= tables[chunk << CHUNK | value];
                rest >>= CHUNK;
                chunk += 1;
            }
            count += u64::from(lanes.count_ones()) << (x & weights).count_ones();
        }
    }
    count
}

/// For each chunk and each value of its bits, the lanes of `block` whose
/// pattern has none of those bits.
fn build_tables(block: &[u64], chunks: usize, tables: &mut [u64]) {
    let lanes = if block.len() == 64 {
        u64::MAX
    } else {
        (1u64 << block.len()) - 1
    };
    for chunk in 0..chunks {
        let mut lack = [0u64; CHUNK];
        for (lane, &pattern) in block.iter().enumerate() {
            for (bit, word) in lack.iter_mut().enumerate() {
                // Bits past the word's 64 are lacking, like absent ones.
                let shifted = pattern
                    .checked_shr((chunk * CHUNK + bit) as u32)
                    .unwrap_or(0);
                if shifted & 1 == 0 {
                    *word |= 1 << lane;
                }
            }
        }
        let table = &mut tables[chunk << CHUNK..(chunk + 1) << CHUNK];
        table[0] = lanes;
        for value in 1..1usize << CHUNK {
            let low = value.trailing_zeros() as usize;
            table[value] = table[value & (value - 1)] & lack[low];
        }
    }
}

#[cfg(target_arch = "x86_64")]
mod avx512 {
    use std::arch::x86_64::*;

    use super::CHUNK;

    /// Patterns in one block: the bits of a 512-bit register.
    const BLOCK: usize = 512;

    /// [`super::count_sliced`] with 512 patterns a block: `sliced` in the
    /// blocks, `stream` past them, each pair counted 2^k times for the k
    /// bits of `weights` its `stream` pattern has.
    #[target_feature(enable = "avx512f,avx512vpopcntdq")]
    pub fn count(sliced: &[u64], stream: &[u64], bits: usize, weights: u64) -> u64 {
        // Monomorphized per chunk count: the chunk loop unrolls, and its
        // table lookups (a value masked to 0..32 into a [_; 32]) need no
        // bounds check.
        macro_rules! by_chunks {
            ($($chunks:literal)*) => {
                match bits.div_ceil(CHUNK).max(1) {
                    $($chunks => if weights == 0 {
                        count_chunks::<$chunks, false>(sliced, stream, 0)
                    } else {
                        count_chunks::<$chunks, true>(sliced, stream, weights)
                    },)*
                    _ => count_chunks::<13, false>(sliced, stream, weights),
                }
            };
        }
        by_chunks!(1 2 3 4 5 6 7 8 9 10 11 12 13)
    }

    /// [`count`] for patterns of at most `CHUNKS` chunks.
    #[target_feature(enable = "avx512f,avx512vpopcntdq")]
    fn count_chunks<const CHUNKS: usize, const WEIGHTED: bool>(
        sliced: &[u64],
        stream: &[u64],
        weights: u64,
    ) -> u64 {
        if stream.is_empty() {
            return 0;
        }
        let mut tables = vec![[_mm512_setzero_si512(); 1 << CHUNK]; CHUNKS];
        let mut sums = _mm512_setzero_si512();
        for block in sliced.chunks(BLOCK) {
            build_tables(block, &mut tables);
            let tables: &[[__m512i; 1 << CHUNK]; CHUNKS] =
                tables.as_slice().try_into().expect("CHUNKS tables");
            for &x in stream {
                let mut lanes = tables[0][x as usize & ((1 << CHUNK) - 1)];
                for (chunk, table) in tables.iter().enumerate().skip(1) {
                    let value = (x >> (chunk * CHUNK)) as usize & ((1 << CHUNK) - 1);
                    lanes = _mm512_and_si512(lanes, table[value]);
                }
                let mut found = _mm512_popcnt_epi64(lanes);
                if WEIGHTED {
                    let shift = _mm_cvtsi64_si128((x & weights).count_ones() as i64);
                    found = _mm512_sll_epi64(found, shift);
                }
                sums = _mm512_add_epi64(sums, found);
            }
        }
        _mm512_reduce_add_epi64(sums) as u64
    }

    /// For each chunk and value, the lanes of `block` lacking those bits.
    /// The transposition takes eight patterns at a time: one test gives a
    /// bit of each of them.
    #[target_feature(enable = "avx512f")]
    fn build_tables(block: &[u64], tables: &mut [[__m512i; 1 << CHUNK]]) {
        let chunks = tables.len();
        let mut lanes = [0u64; 8];
        for (word, lane) in lanes.iter_mut().enumerate() {
            let count = block.len().saturating_sub(64 * word).min(64);
            *lane = if count == 64 {
                u64::MAX
            } else {
                (1u64 << count) - 1
            };
        }
        let lanes = vector(lanes);
        // lack[bit][word]: bit i of word w set if pattern 64w + i lacks bit.
        let mut lack = [[0u64; 8]; 64];
        for (group, eight) in block.chunks(8).enumerate() {
            let mut words = [u64::MAX; 8]; // missing patterns lack nothing
            words[..eight.len()].copy_from_slice(eight);
            let patterns = vector(words);
            let (word, shift) = (group / 8, 8 * (group % 8));
            for (bit, lacking) in lack.iter_mut().enumerate().take(chunks * CHUNK) {
                let missing = _mm512_testn_epi64_mask(patterns, _mm512_set1_epi64(1i64 << bit));
                lacking[word] |= u64::from(missing) << shift;
            }
        }
        for (chunk, table) in tables.iter_mut().enumerate() {
            table[0] = lanes;
            for value in 1..1usize << CHUNK {
                let low = value.trailing_zeros() as usize;
                let bit = (chunk * CHUNK + low).min(63);
                table[value] = _mm512_and_si512(table[value & (value - 1)], vector(lack[bit]));
            }
        }
    }

    #[target_feature(enable = "avx512f")]
    fn vector(words: [u64; 8]) -> __m512i {
        // SAFETY: the pointer is to 8 initialized u64, the 64 bytes read.
        unsafe { _mm512_loadu_epi64(words.as_ptr().cast()) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn the_sliced_count_is_the_double_loop(
            a in prop::collection::vec(any::<u64>(), 0..150),
            b in prop::collection::vec(any::<u64>(), 0..150),
            bits in 1usize..=64,
            density in 1u32..6,
        ) {
            // Sparse patterns of `bits` bits, so that pairs are often disjoint.
            let mask = if bits == 64 { u64::MAX } else { (1 << bits) - 1 };
            let thin = |v: &Vec<u64>| -> Vec<u64> {
                v.iter().map(|&x| {
                    let mut y = x & mask;
                    for k in 1..density { y &= x.rotate_left(7 * k) }
                    y & mask
                }).collect()
            };
            let (a, b) = (thin(&a), thin(&b));
            let naive = count_naive(&a, &b);
            prop_assert_eq!(count_sliced(&a, &b, bits), naive);
            for counter in [PairCounter::Portable, PairCounter::Avx512] {
                if counter.runs_in("sliced_counts_are_the_double_loop") {
                    prop_assert_eq!(counter.count(&a, &b, bits), naive);
                }
            }
        }

        #[test]
        fn weighted_counts_are_the_weighted_double_loop(
            a in prop::collection::vec(any::<u64>(), 0..700),
            b in prop::collection::vec(any::<u64>(), 0..700),
            weights in any::<u64>(),
        ) {
            let thin = |v: &Vec<u64>| -> Vec<u64> {
                v.iter().map(|&x| x & x.rotate_left(13) & ((1 << 40) - 1)).collect()
            };
            let (a, b) = (thin(&a), thin(&b));
            let weights = weights & weights.rotate_left(7) & ((1 << 40) - 1);
            let naive = count_naive_weighted(&a, &b, weights);
            for counter in [PairCounter::Portable, PairCounter::Avx512] {
                if counter.runs_in("weighted_counts_are_the_weighted_double_loop") {
                    prop_assert_eq!(counter.count_weighted(&a, &b, 40, weights), naive);
                }
            }
        }

        #[test]
        fn the_wide_count_crosses_blocks_of_512(
            a in prop::collection::vec(any::<u64>(), 0..40),
            b in prop::collection::vec(any::<u64>(), 500..1200),
        ) {
            let thin = |v: &Vec<u64>| -> Vec<u64> {
                v.iter().map(|&x| x & x.rotate_left(13) & x.rotate_left(29) & ((1 << 62) - 1)).collect()
            };
            let (a, b) = (thin(&a), thin(&b));
            for counter in [PairCounter::Portable, PairCounter::Avx512] {
                if counter.runs_in("the_wide_count_crosses_blocks_of_512") {
                    prop_assert_eq!(counter.count(&a, &b, 62), count_naive(&a, &b));
                }
            }
        }
    }
}
