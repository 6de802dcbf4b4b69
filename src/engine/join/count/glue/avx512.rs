//! Gluing on AVX-512: an upper quarter against eight lower ones at a time.
//! Two masked tests keep the pairs whose diagonals do not meet, and a
//! compress packs their patterns into one store: about 9 instructions for
//! eight pairs, where the scalar loop spends about 15 on one.

use std::arch::x86_64::*;

use super::{Lowers, Upper, SLACK};

/// [`super::pair`] eight lower quarters at a time.
///
/// # Safety
/// The CPU must have AVX-512 F (and what the pair counter's path needs);
/// `patterns` must have room for `lower`'s length plus [`SLACK`] more.
#[target_feature(enable = "avx512f,avx512vpopcntdq,popcnt,bmi1,bmi2")]
pub(super) unsafe fn pair(a: Upper, lower: Lowers, patterns: &mut Vec<u64>) {
    let len = lower.sums.len();
    debug_assert!(patterns.capacity() - patterns.len() >= len + SLACK);
    let (sum, diff, pattern) = (
        _mm512_set1_epi64(a.sum as i64),
        _mm512_set1_epi64(a.diff as i64),
        _mm512_set1_epi64(a.pattern as i64),
    );
    let out = patterns.as_mut_ptr().add(patterns.len());
    let mut kept = 0;
    let mut i = 0;
    while i < len {
        // The last group's lanes past the end are masked off.
        let lanes: __mmask8 = if len - i >= 8 {
            0xff
        } else {
            (1u8 << (len - i)) - 1
        };
        let sums = _mm512_maskz_loadu_epi64(lanes, lower.sums.as_ptr().add(i).cast());
        let diffs = _mm512_maskz_loadu_epi64(lanes, lower.diffs.as_ptr().add(i).cast());
        let parts = _mm512_maskz_loadu_epi64(lanes, lower.patterns.as_ptr().add(i).cast());
        let apart = _mm512_mask_testn_epi64_mask(lanes, sums, sum);
        let apart = _mm512_mask_testn_epi64_mask(apart, diffs, diff);
        let packed = _mm512_maskz_compress_epi64(apart, _mm512_or_si512(parts, pattern));
        // A whole register stored; only the `apart` first slots are kept.
        _mm512_storeu_epi64(out.add(kept).cast(), packed);
        kept += apart.count_ones() as usize;
        i += 8;
    }
    patterns.set_len(patterns.len() + kept);
}
