//! The AVX2 pair counter: blocks of 256 patterns, one 256-bit register a
//! table entry, so a pattern meets 256 others in one AND per chunk; where
//! the sliced side has more, blocks of 512 in two registers. AVX2
//! has no vector popcount: the lanes' bytes are counted by two nibble
//! lookups (`vpshufb`) and summed per 64-bit word by `vpsadbw`. Needs AVX2,
//! BMI1, BMI2 and POPCNT (every AVX2 CPU has them), checked at run time.

use std::arch::x86_64::*;

use super::blocks::{Lanes, Words};
use super::CHUNK;

/// Words a block: one 256-bit register.
const W: usize = 4;

/// Words a block of two registers, for sliced sides past one: a pattern's
/// chunk values are worked out once for 512 lanes.
const W2: usize = 2 * W;

#[derive(Clone, Copy)]
struct Avx2(__m256i);

#[derive(Clone, Copy)]
struct Avx2Pair(__m256i, __m256i);

impl Lanes<W> for Avx2 {
    type Sums = __m256i;

    #[inline(always)]
    fn zero() -> __m256i {
        // SAFETY (every method): inlined only into `count`, compiled for
        // AVX2; loads read one aligned `Words<4>`, 32 bytes.
        unsafe { _mm256_setzero_si256() }
    }

    #[inline(always)]
    fn load(words: &Words<W>) -> Self {
        Avx2(unsafe { _mm256_load_si256(words.0.as_ptr().cast()) })
    }

    #[inline(always)]
    fn and(self, words: &Words<W>) -> Self {
        Avx2(unsafe { _mm256_and_si256(self.0, _mm256_load_si256(words.0.as_ptr().cast())) })
    }

    #[inline(always)]
    fn add_count(sums: __m256i, lanes: Self, shift: u32) -> __m256i {
        unsafe { add_words(sums, bytes_set(lanes.0), shift) }
    }

    #[inline(always)]
    fn total(sums: __m256i) -> u64 {
        let mut words = [0u64; W];
        unsafe { _mm256_storeu_si256(words.as_mut_ptr().cast(), sums) };
        words.iter().sum()
    }
}

impl Lanes<W2> for Avx2Pair {
    type Sums = __m256i;

    #[inline(always)]
    fn zero() -> __m256i {
        Avx2::zero()
    }

    #[inline(always)]
    fn load(words: &Words<W2>) -> Self {
        let p: *const __m256i = words.0.as_ptr().cast();
        // SAFETY: one aligned `Words<8>`, 64 bytes.
        unsafe { Avx2Pair(_mm256_load_si256(p), _mm256_load_si256(p.add(1))) }
    }

    #[inline(always)]
    fn and(self, words: &Words<W2>) -> Self {
        let other = Avx2Pair::load(words);
        unsafe {
            Avx2Pair(
                _mm256_and_si256(self.0, other.0),
                _mm256_and_si256(self.1, other.1),
            )
        }
    }

    #[inline(always)]
    fn add_count(sums: __m256i, lanes: Self, shift: u32) -> __m256i {
        // Bytes of the two registers add up to at most 16: one vpsadbw.
        unsafe {
            let bytes = _mm256_add_epi8(bytes_set(lanes.0), bytes_set(lanes.1));
            add_words(sums, bytes, shift)
        }
    }

    #[inline(always)]
    fn total(sums: __m256i) -> u64 {
        Avx2::total(sums)
    }
}

/// The bits set in each byte of `v`: two nibble lookups (`vpshufb`).
#[inline(always)]
unsafe fn bytes_set(v: __m256i) -> __m256i {
    let nibbles = _mm256_setr_epi8(
        0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4, //
        0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4,
    );
    let low = _mm256_set1_epi8(0x0f);
    let low_half = _mm256_and_si256(v, low);
    let high_half = _mm256_and_si256(_mm256_srli_epi16::<4>(v), low);
    _mm256_add_epi8(
        _mm256_shuffle_epi8(nibbles, low_half),
        _mm256_shuffle_epi8(nibbles, high_half),
    )
}

/// `sums` plus the bytes of `bytes` summed per 64-bit word (`vpsadbw`),
/// times 2^shift.
#[inline(always)]
unsafe fn add_words(sums: __m256i, bytes: __m256i, shift: u32) -> __m256i {
    let words = _mm256_sad_epu8(bytes, _mm256_setzero_si256());
    let weighted = _mm256_sll_epi64(words, _mm_cvtsi32_si128(shift as i32));
    _mm256_add_epi64(sums, weighted)
}

/// The pairs of `sliced` and the patterns of `streams` with no common bit
/// among patterns of `bits` bits, each counted 2^k times for the k bits of
/// `weights` its stream pattern has.
///
/// # Safety
/// The CPU must have AVX2, BMI1, BMI2 and POPCNT.
#[target_feature(enable = "avx2,bmi1,bmi2,popcnt")]
pub(super) unsafe fn count(sliced: &[u64], streams: &[&[u64]], bits: usize, weights: u64) -> u64 {
    // Whole blocks of 512 in register pairs; a rest of up to 256 in one.
    let rest = sliced.len() % (64 * W2);
    let (wide, narrow) = sliced.split_at(if rest > 64 * W {
        sliced.len()
    } else {
        sliced.len() - rest
    });
    let mut pairs = 0;
    if !wide.is_empty() {
        pairs += by_chunks!(Avx2Pair, W2, wide, streams, bits, weights);
    }
    if !narrow.is_empty() {
        pairs += by_chunks!(Avx2, W, narrow, streams, bits, weights);
    }
    pairs
}
