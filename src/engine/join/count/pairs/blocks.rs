//! The bit-sliced blocks every pair counter narrower than AVX-512 shares:
//! one side's patterns, `64 W` to a block, transposed so that for every bit
//! there are W words of "patterns lacking this bit", and for every chunk of
//! [`CHUNK`] bits the 32 ANDs of those words, precomputed. A pattern of the
//! other side is then compared with a whole block by one AND per chunk (of W
//! words) and a popcount; [`stream`] runs that loop over a path's
//! [`Lanes`], the one thing the portable, AVX2 and NEON counters each
//! write their own way.

use super::CHUNK;

/// Table entries per chunk: every value of its bits.
const VALUES: usize = 1 << CHUNK;

/// W words of a block's lanes: word i holds patterns 64i..64i+63, one a
/// bit. Aligned for a 256-bit load.
#[derive(Clone, Copy)]
#[repr(C, align(32))]
pub(super) struct Words<const W: usize>(pub(super) [u64; W]);

/// A path's registers for one block's lanes: how it loads, ANDs and counts
/// them. Every method is `#[inline(always)]`, so that it is compiled with
/// the target features of the counter it is inlined into.
pub(super) trait Lanes<const W: usize>: Copy {
    /// Sums of counts, kept in registers until the end.
    type Sums: Copy;
    /// No counts yet.
    fn zero() -> Self::Sums;
    /// The lanes of a table entry.
    fn load(words: &Words<W>) -> Self;
    /// These lanes ANDed with a table entry's.
    fn and(self, words: &Words<W>) -> Self;
    /// `sums` plus the number of set lanes times 2^shift.
    fn add_count(sums: Self::Sums, lanes: Self, shift: u32) -> Self::Sums;
    /// The total of the sums.
    fn total(sums: Self::Sums) -> u64;
}

/// The pairs of `sliced` and the patterns of `streams` with no common
/// bit, each counted 2^k times for the k bits of `weights` its stream
/// pattern has (all bits of every pattern below `CHUNKS * CHUNK`),
/// `sliced` in blocks of `64 W`, each block's tables built once for all
/// the streams.
#[inline(always)]
pub(super) fn stream<L: Lanes<W>, const W: usize, const CHUNKS: usize, const WEIGHTED: bool>(
    sliced: &[u64],
    streams: &[&[u64]],
    weights: u64,
) -> u64 {
    if streams.iter().all(|s| s.is_empty()) {
        return 0;
    }
    let mut tables = vec![[Words([0; W]); VALUES]; CHUNKS];
    let mut sums = L::zero();
    for block in sliced.chunks(64 * W) {
        build_tables(block, &mut tables);
        let tables: &[[Words<W>; VALUES]; CHUNKS] =
            tables.as_slice().try_into().expect("CHUNKS tables");
        for stream in streams {
            for &x in *stream {
                let mut lanes = L::load(&tables[0][x as usize % VALUES]);
                for_each_chunk!(CHUNKS, chunk => {
                    lanes = lanes.and(&tables[chunk][(x >> (chunk * CHUNK)) as usize % VALUES]);
                });
                let shift = if WEIGHTED {
                    (x & weights).count_ones()
                } else {
                    0
                };
                sums = L::add_count(sums, lanes, shift);
            }
        }
    }
    L::total(sums)
}

/// For each chunk and value of its bits, the lanes of `block` (at most
/// `64 W` patterns) whose pattern has none of those bits; lanes past the
/// block's end are clear in every entry.
#[inline(always)]
pub(super) fn build_tables<const W: usize>(block: &[u64], tables: &mut [[Words<W>; VALUES]]) {
    // lack[bit].0[word]: bit i set if pattern 64 word + i lacks `bit`.
    let mut lack = [Words([0u64; W]); 64];
    let mut lanes = Words([0u64; W]);
    for (word, patterns) in block.chunks(64).enumerate() {
        let mut rows = [0u64; 64];
        for (row, &pattern) in rows.iter_mut().zip(patterns) {
            *row = !pattern;
        }
        transpose(&mut rows);
        for (lacking, &row) in lack.iter_mut().zip(&rows) {
            lacking.0[word] = row;
        }
        lanes.0[word] = u64::MAX >> (64 - patterns.len());
    }
    for (chunk, table) in tables.iter_mut().enumerate() {
        table[0] = lanes;
        for value in 1..VALUES {
            let low = value.trailing_zeros() as usize;
            // Values with a bit past 63 never occur (patterns are u64):
            // what bit 63 gives their entries is never read.
            let bit = (chunk * CHUNK + low).min(63);
            let (rest, lacking) = (table[value & (value - 1)].0, lack[bit].0);
            table[value] = Words(std::array::from_fn(|i| rest[i] & lacking[i]));
        }
    }
}

/// Transposes a 64 x 64 bit matrix in place: bit j of `rows[i]` becomes
/// bit i of `rows[j]`. Six rounds of swapping the off-diagonal halves of
/// ever smaller blocks (Hacker's Delight, 7-3), about 1,300 operations
/// where bit by bit takes 16,000.
#[inline(always)]
pub(super) fn transpose(rows: &mut [u64; 64]) {
    let mut width = 32;
    let mut low = u64::MAX >> 32;
    while width != 0 {
        let mut k = 0;
        while k < 64 {
            // The upper bits of row k swap with the lower bits of row k + width.
            let swap = (rows[k] >> width ^ rows[k + width]) & low;
            rows[k] ^= swap << width;
            rows[k + width] ^= swap;
            k = (k + width + 1) & !width;
        }
        width >>= 1;
        low ^= low << width;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn transposing_moves_bit_j_of_row_i_to_bit_i_of_row_j(
            seed in prop::collection::vec(any::<u64>(), 64)
        ) {
            let rows: [u64; 64] = seed.try_into().unwrap();
            let mut moved = rows;
            transpose(&mut moved);
            for (i, row) in rows.iter().enumerate() {
                for (j, other) in moved.iter().enumerate() {
                    prop_assert_eq!(row >> j & 1, other >> i & 1);
                }
            }
        }
    }
}
