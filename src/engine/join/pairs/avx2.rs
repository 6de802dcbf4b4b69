//! The AVX2 pair counter: blocks of 256 patterns, one 256-bit register a
//! table entry, so a pattern meets 256 others in one AND per chunk. AVX2
//! has no vector popcount: the lanes' bytes are counted by two nibble
//! lookups (`vpshufb`) and summed per 64-bit word by `vpsadbw`. Needs AVX2,
//! BMI1, BMI2 and POPCNT (every AVX2 CPU has them), checked at run time.

use std::arch::x86_64::*;

use super::blocks::{Lanes, Words};
use super::CHUNK;

/// Words a block: one 256-bit register.
const W: usize = 4;

#[derive(Clone, Copy)]
struct Avx2(__m256i);

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
        unsafe {
            // Bits set in each nibble, looked up; bytes summed per word.
            let nibbles = _mm256_setr_epi8(
                0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4, //
                0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4,
            );
            let low = _mm256_set1_epi8(0x0f);
            let v = lanes.0;
            let low_half = _mm256_and_si256(v, low);
            let high_half = _mm256_and_si256(_mm256_srli_epi16::<4>(v), low);
            let bytes = _mm256_add_epi8(
                _mm256_shuffle_epi8(nibbles, low_half),
                _mm256_shuffle_epi8(nibbles, high_half),
            );
            let words = _mm256_sad_epu8(bytes, _mm256_setzero_si256());
            let weighted = _mm256_sll_epi64(words, _mm_cvtsi32_si128(shift as i32));
            _mm256_add_epi64(sums, weighted)
        }
    }

    #[inline(always)]
    fn total(sums: __m256i) -> u64 {
        let mut words = [0u64; W];
        unsafe { _mm256_storeu_si256(words.as_mut_ptr().cast(), sums) };
        words.iter().sum()
    }
}

/// The pairs of `sliced` and `stream` with no common bit among patterns
/// of `bits` bits, each counted 2^k times for the k bits of `weights` its
/// `stream` pattern has.
///
/// # Safety
/// The CPU must have AVX2, BMI1, BMI2 and POPCNT.
#[target_feature(enable = "avx2,bmi1,bmi2,popcnt")]
pub(super) unsafe fn count(sliced: &[u64], stream: &[u64], bits: usize, weights: u64) -> u64 {
    by_chunks!(Avx2, W, sliced, stream, bits, weights)
}
