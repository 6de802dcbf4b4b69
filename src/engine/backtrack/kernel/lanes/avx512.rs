//! The lanes on AVX-512: eight 64-bit lanes a vector, masks in mask
//! registers, the column of a lane's bit by `vplzcntq` (AVX-512 CD). Needs
//! AVX-512 F and CD ([`cpu::avx512_lanes`](crate::engine::cpu::avx512_lanes)).

use std::arch::x86_64::*;

use super::search::{self, Vector, MAX_LANES};
use crate::engine::backtrack::plan::Subproblem;
use crate::reduce::Tally;

#[derive(Clone, Copy)]
pub(super) struct Avx512(__m512i);

/// Counts a batch of pieces in the lanes ([`search::count_batch`]).
#[target_feature(enable = "avx512f,avx512cd")]
pub(super) fn count_batch(n: usize, pieces: &[Subproblem]) -> Tally {
    search::count_batch::<Avx512>(n, pieces)
}

// SAFETY (every method): inlined only into `count_batch`, compiled for
// AVX-512 F and CD; `load` and `store` touch the eight u64 of their
// array, 64 bytes.
impl Vector for Avx512 {
    type Mask = __mmask8;

    const LANES: usize = 8;

    const INTERLEAVED: bool = true;

    #[inline(always)]
    fn splat(value: u64) -> Self {
        Avx512(unsafe { _mm512_set1_epi64(value as i64) })
    }

    #[inline(always)]
    fn load(values: &[u64; MAX_LANES]) -> Self {
        Avx512(unsafe { _mm512_loadu_epi64(values.as_ptr().cast()) })
    }

    #[inline(always)]
    fn store(self) -> [u64; MAX_LANES] {
        let mut values = [0u64; MAX_LANES];
        unsafe { _mm512_storeu_epi64(values.as_mut_ptr().cast(), self.0) };
        values
    }

    #[inline(always)]
    fn and(self, other: Self) -> Self {
        Avx512(unsafe { _mm512_and_si512(self.0, other.0) })
    }

    #[inline(always)]
    fn or(self, other: Self) -> Self {
        Avx512(unsafe { _mm512_or_si512(self.0, other.0) })
    }

    #[inline(always)]
    fn xor(self, other: Self) -> Self {
        Avx512(unsafe { _mm512_xor_si512(self.0, other.0) })
    }

    #[inline(always)]
    fn and_not(self, other: Self) -> Self {
        Avx512(unsafe { _mm512_andnot_si512(self.0, other.0) })
    }

    #[inline(always)]
    fn add(self, other: Self) -> Self {
        Avx512(unsafe { _mm512_add_epi64(self.0, other.0) })
    }

    #[inline(always)]
    fn sub(self, other: Self) -> Self {
        Avx512(unsafe { _mm512_sub_epi64(self.0, other.0) })
    }

    #[inline(always)]
    fn shl<const K: u32>(self) -> Self {
        Avx512(unsafe { _mm512_slli_epi64::<K>(self.0) })
    }

    #[inline(always)]
    fn shr<const K: u32>(self) -> Self {
        Avx512(unsafe { _mm512_srli_epi64::<K>(self.0) })
    }

    #[inline(always)]
    fn shlv(self, counts: Self) -> Self {
        Avx512(unsafe { _mm512_sllv_epi64(self.0, counts.0) })
    }

    #[inline(always)]
    fn shrv(self, counts: Self) -> Self {
        Avx512(unsafe { _mm512_srlv_epi64(self.0, counts.0) })
    }

    #[inline(always)]
    fn eq(self, other: Self) -> __mmask8 {
        unsafe { _mm512_cmpeq_epi64_mask(self.0, other.0) }
    }

    #[inline(always)]
    fn lt(self, other: Self) -> __mmask8 {
        unsafe { _mm512_cmplt_epu64_mask(self.0, other.0) }
    }

    #[inline(always)]
    fn test(self, other: Self) -> __mmask8 {
        unsafe { _mm512_test_epi64_mask(self.0, other.0) }
    }

    #[inline(always)]
    fn select(mask: __mmask8, clear: Self, set: Self) -> Self {
        Avx512(unsafe { _mm512_mask_mov_epi64(clear.0, mask, set.0) })
    }

    #[inline(always)]
    fn column(bit: Self) -> Self {
        unsafe {
            Avx512(_mm512_sub_epi64(
                _mm512_set1_epi64(63),
                _mm512_lzcnt_epi64(bit.0),
            ))
        }
    }

    #[inline(always)]
    fn bits(mask: __mmask8) -> u8 {
        mask
    }

    #[inline(always)]
    fn mask(bits: u8) -> __mmask8 {
        bits
    }
}
