//! The lanes on AVX2: four 64-bit lanes a vector, masks as all-ones lanes
//! (`vpblendvb` picks by them, `vmovmskpd` reads them out), the column of a
//! lane's bit from the exponent of its value as a float (AVX2 has no vector
//! leading-zero count). Needs [`cpu::AVX2_NEEDS`](crate::engine::cpu::AVX2_NEEDS).

use std::arch::x86_64::*;
use std::ops::{BitAnd, BitOr, Not};

use super::search::{self, Vector, MAX_LANES};
use crate::engine::backtrack::plan::Subproblem;
use crate::reduce::Tally;

#[derive(Clone, Copy)]
pub(super) struct Avx2(__m256i);

/// Lanes of all ones (taken) or zeros.
#[derive(Clone, Copy)]
pub(super) struct Mask(__m256i);

/// Counts a batch of pieces in the lanes ([`search::count_batch`]).
#[target_feature(enable = "avx2,bmi1,bmi2,popcnt")]
pub(super) fn count_batch(n: usize, pieces: &[Subproblem]) -> Tally {
    search::count_batch::<Avx2>(n, pieces)
}

// SAFETY (every method, and the mask operators): inlined only into
// `count_batch`, compiled for AVX2; `load` and `store` touch the first
// four u64 of their array, 32 bytes.
impl Vector for Avx2 {
    type Mask = Mask;

    const LANES: usize = 4;

    const INTERLEAVED: bool = false;

    #[inline(always)]
    fn splat(value: u64) -> Self {
        Avx2(unsafe { _mm256_set1_epi64x(value as i64) })
    }

    #[inline(always)]
    fn load(values: &[u64; MAX_LANES]) -> Self {
        Avx2(unsafe { _mm256_loadu_si256(values.as_ptr().cast()) })
    }

    #[inline(always)]
    fn store(self) -> [u64; MAX_LANES] {
        let mut values = [0u64; MAX_LANES];
        unsafe { _mm256_storeu_si256(values.as_mut_ptr().cast(), self.0) };
        values
    }

    #[inline(always)]
    fn and(self, other: Self) -> Self {
        Avx2(unsafe { _mm256_and_si256(self.0, other.0) })
    }

    #[inline(always)]
    fn or(self, other: Self) -> Self {
        Avx2(unsafe { _mm256_or_si256(self.0, other.0) })
    }

    #[inline(always)]
    fn xor(self, other: Self) -> Self {
        Avx2(unsafe { _mm256_xor_si256(self.0, other.0) })
    }

    #[inline(always)]
    fn and_not(self, other: Self) -> Self {
        Avx2(unsafe { _mm256_andnot_si256(self.0, other.0) })
    }

    #[inline(always)]
    fn add(self, other: Self) -> Self {
        Avx2(unsafe { _mm256_add_epi64(self.0, other.0) })
    }

    #[inline(always)]
    fn sub(self, other: Self) -> Self {
        Avx2(unsafe { _mm256_sub_epi64(self.0, other.0) })
    }

    #[inline(always)]
    fn shl<const K: u32>(self) -> Self {
        // A constant count: compiled to the immediate shift.
        Avx2(unsafe { _mm256_sll_epi64(self.0, _mm_cvtsi32_si128(K as i32)) })
    }

    #[inline(always)]
    fn shr<const K: u32>(self) -> Self {
        Avx2(unsafe { _mm256_srl_epi64(self.0, _mm_cvtsi32_si128(K as i32)) })
    }

    #[inline(always)]
    fn shlv(self, counts: Self) -> Self {
        Avx2(unsafe { _mm256_sllv_epi64(self.0, counts.0) })
    }

    #[inline(always)]
    fn shrv(self, counts: Self) -> Self {
        Avx2(unsafe { _mm256_srlv_epi64(self.0, counts.0) })
    }

    #[inline(always)]
    fn eq(self, other: Self) -> Mask {
        Mask(unsafe { _mm256_cmpeq_epi64(self.0, other.0) })
    }

    #[inline(always)]
    fn lt(self, other: Self) -> Mask {
        // Signed: every value compared is a row or a row bound, or an idle
        // lane's u64::MAX (-1 here), whose result is never used.
        Mask(unsafe { _mm256_cmpgt_epi64(other.0, self.0) })
    }

    #[inline(always)]
    fn test(self, other: Self) -> Mask {
        let zero = Avx2::splat(0);
        !self.and(other).eq(zero)
    }

    #[inline(always)]
    fn select(mask: Mask, clear: Self, set: Self) -> Self {
        unsafe {
            let pick = _mm256_blendv_pd(
                _mm256_castsi256_pd(clear.0),
                _mm256_castsi256_pd(set.0),
                _mm256_castsi256_pd(mask.0),
            );
            Avx2(_mm256_castpd_si256(pick))
        }
    }

    #[inline(always)]
    fn column(bit: Self) -> Self {
        // Each lane's bit, as a float in its low half (the high half is
        // zero, 0.0), has its index plus 127 as its exponent: bits 23..31.
        unsafe {
            let float = _mm256_castps_si256(_mm256_cvtepi32_ps(bit.0));
            let exponent =
                _mm256_and_si256(_mm256_srli_epi64::<23>(float), _mm256_set1_epi64x(0xff));
            Avx2(_mm256_sub_epi64(exponent, _mm256_set1_epi64x(127)))
        }
    }

    #[inline(always)]
    fn bits(mask: Mask) -> u8 {
        (unsafe { _mm256_movemask_pd(_mm256_castsi256_pd(mask.0)) }) as u8
    }

    #[inline(always)]
    fn mask(bits: u8) -> Mask {
        let lane_bits = unsafe { Avx2(_mm256_setr_epi64x(1, 2, 4, 8)) };
        Avx2::splat(u64::from(bits)).and(lane_bits).eq(lane_bits)
    }
}

impl BitAnd for Mask {
    type Output = Mask;

    #[inline(always)]
    fn bitand(self, other: Mask) -> Mask {
        Mask(unsafe { _mm256_and_si256(self.0, other.0) })
    }
}

impl BitOr for Mask {
    type Output = Mask;

    #[inline(always)]
    fn bitor(self, other: Mask) -> Mask {
        Mask(unsafe { _mm256_or_si256(self.0, other.0) })
    }
}

impl Not for Mask {
    type Output = Mask;

    #[inline(always)]
    fn not(self) -> Mask {
        Mask(unsafe { _mm256_xor_si256(self.0, _mm256_set1_epi64x(-1)) })
    }
}
