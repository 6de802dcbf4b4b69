//! The NEON pair counter (aarch64): blocks of 256 patterns in two 128-bit
//! registers a table entry; the lanes' bytes are counted by `cnt` and
//! summed pairwise into 64-bit words. NEON is part of every aarch64 CPU.

use std::arch::aarch64::*;

use super::blocks::{Lanes, Words};
use super::CHUNK;

/// Words a block: two 128-bit registers.
const W: usize = 4;

#[derive(Clone, Copy)]
struct Neon(uint64x2_t, uint64x2_t);

impl Lanes<W> for Neon {
    type Sums = uint64x2_t;

    #[inline(always)]
    fn zero() -> uint64x2_t {
        // SAFETY (every method): NEON is in every aarch64 CPU; loads read
        // one `Words<4>`, 32 bytes.
        unsafe { vdupq_n_u64(0) }
    }

    #[inline(always)]
    fn load(words: &Words<W>) -> Self {
        let p = words.0.as_ptr();
        unsafe { Neon(vld1q_u64(p), vld1q_u64(p.add(2))) }
    }

    #[inline(always)]
    fn and(self, words: &Words<W>) -> Self {
        let other = Neon::load(words);
        unsafe { Neon(vandq_u64(self.0, other.0), vandq_u64(self.1, other.1)) }
    }

    #[inline(always)]
    fn add_count(sums: uint64x2_t, lanes: Self, shift: u32) -> uint64x2_t {
        unsafe {
            // Bits per byte (at most 8 + 8 after the add), then pairwise
            // sums widening to 16, 32 and 64 bits.
            let bytes = vaddq_u8(
                vcntq_u8(vreinterpretq_u8_u64(lanes.0)),
                vcntq_u8(vreinterpretq_u8_u64(lanes.1)),
            );
            let words = vpaddlq_u32(vpaddlq_u16(vpaddlq_u8(bytes)));
            vaddq_u64(sums, vshlq_u64(words, vdupq_n_s64(i64::from(shift))))
        }
    }

    #[inline(always)]
    fn total(sums: uint64x2_t) -> u64 {
        unsafe { vaddvq_u64(sums) }
    }
}

/// The pairs of `sliced` and the patterns of `streams` with no common bit
/// among patterns of `bits` bits, each counted 2^k times for the k bits of
/// `weights` its stream pattern has.
pub(super) fn count(sliced: &[u64], streams: &[&[u64]], bits: usize, weights: u64) -> u64 {
    by_chunks!(Neon, W, sliced, streams, bits, weights)
}
