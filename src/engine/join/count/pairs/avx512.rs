//! The AVX-512 pair counter: blocks of 512 patterns, one 512-bit register
//! a table entry, counted by `vpopcntq`: about 0.03 instructions a pair.
//! Its tables are built eight patterns at a time by mask tests. Needs
//! AVX-512 F and VPOPCNTDQ, checked at run time.

use std::arch::x86_64::*;

use super::CHUNK;

/// Patterns in one block: the bits of a 512-bit register.
const BLOCK: usize = 512;

/// The bit-sliced count with 512 patterns a block: `sliced` in the
/// blocks (their tables built once), the patterns of `streams` past them,
/// each pair counted 2^k times for the k bits of `weights` its stream
/// pattern has.
#[target_feature(enable = "avx512f,avx512vpopcntdq,popcnt,bmi1,bmi2")]
pub(super) fn count(sliced: &[u64], streams: &[&[u64]], bits: usize, weights: u64) -> u64 {
    // Monomorphized per chunk count: the chunk loop unrolls, and its
    // table lookups (a value masked to 0..32 into a [_; 32]) need no
    // bounds check.
    macro_rules! by_chunks {
        ($($chunks:literal)*) => {
            match bits.div_ceil(CHUNK).max(1) {
                $($chunks => if weights == 0 {
                    count_chunks::<$chunks, false>(sliced, streams, 0)
                } else {
                    count_chunks::<$chunks, true>(sliced, streams, weights)
                },)*
                _ => count_chunks::<13, false>(sliced, streams, weights),
            }
        };
    }
    by_chunks!(1 2 3 4 5 6 7 8 9 10 11 12 13)
}

/// [`count`] for patterns of at most `CHUNKS` chunks. Blocks go two at a
/// time where the sliced side has more than one: a pattern's chunk values
/// are then worked out once for 1,024 lanes (at n = 16 and 18 most of
/// the pairs meet sides of two blocks or more).
#[target_feature(enable = "avx512f,avx512vpopcntdq,popcnt,bmi1,bmi2")]
fn count_chunks<const CHUNKS: usize, const WEIGHTED: bool>(
    sliced: &[u64],
    streams: &[&[u64]],
    weights: u64,
) -> u64 {
    if streams.iter().all(|s| s.is_empty()) {
        return 0;
    }
    let mut first = vec![[_mm512_setzero_si512(); 1 << CHUNK]; CHUNKS];
    let mut second = first.clone();
    let mut sums = _mm512_setzero_si512();
    for blocks in sliced.chunks(2 * BLOCK) {
        let (a, b) = blocks.split_at(blocks.len().min(BLOCK));
        build_tables(a, &mut first);
        let first: &Tables<CHUNKS> = first.as_slice().try_into().expect("CHUNKS tables");
        if b.is_empty() {
            for stream in streams {
                sums = stream_one::<CHUNKS, WEIGHTED>(first, stream, weights, sums);
            }
        } else {
            build_tables(b, &mut second);
            let second: &Tables<CHUNKS> = second.as_slice().try_into().expect("CHUNKS tables");
            for stream in streams {
                sums = stream_two::<CHUNKS, WEIGHTED>([first, second], stream, weights, sums);
            }
        }
    }
    _mm512_reduce_add_epi64(sums) as u64
}

/// One block's chunk tables: for each chunk and value, its lanes.
type Tables<const CHUNKS: usize> = [[__m512i; 1 << CHUNK]; CHUNKS];

/// The value of chunk `chunk` of `x`.
#[inline(always)]
fn value(x: u64, chunk: usize) -> usize {
    (x >> (chunk * CHUNK)) as usize & ((1 << CHUNK) - 1)
}

/// `sums` plus each lane's count of `lanes`, times 2^k for the k bits of
/// `weights` in `x` when `WEIGHTED`.
#[inline]
#[target_feature(enable = "avx512f,avx512vpopcntdq,popcnt,bmi1,bmi2")]
fn add_found<const WEIGHTED: bool>(sums: __m512i, found: __m512i, x: u64, weights: u64) -> __m512i {
    let found = if WEIGHTED {
        let shift = _mm_cvtsi64_si128((x & weights).count_ones() as i64);
        _mm512_sll_epi64(found, shift)
    } else {
        found
    };
    _mm512_add_epi64(sums, found)
}

/// `stream` past one block.
#[inline]
#[target_feature(enable = "avx512f,avx512vpopcntdq,popcnt,bmi1,bmi2")]
fn stream_one<const CHUNKS: usize, const WEIGHTED: bool>(
    tables: &Tables<CHUNKS>,
    stream: &[u64],
    weights: u64,
    mut sums: __m512i,
) -> __m512i {
    for &x in stream {
        let mut lanes = tables[0][value(x, 0)];
        for (chunk, table) in tables.iter().enumerate().skip(1) {
            lanes = _mm512_and_si512(lanes, table[value(x, chunk)]);
        }
        sums = add_found::<WEIGHTED>(sums, _mm512_popcnt_epi64(lanes), x, weights);
    }
    sums
}

/// `stream` past two blocks at once: one chunk value, two ANDs.
#[inline]
#[target_feature(enable = "avx512f,avx512vpopcntdq,popcnt,bmi1,bmi2")]
fn stream_two<const CHUNKS: usize, const WEIGHTED: bool>(
    [first, second]: [&Tables<CHUNKS>; 2],
    stream: &[u64],
    weights: u64,
    mut sums: __m512i,
) -> __m512i {
    for &x in stream {
        let v = value(x, 0);
        let (mut a, mut b) = (first[0][v], second[0][v]);
        for chunk in 1..CHUNKS {
            let v = value(x, chunk);
            a = _mm512_and_si512(a, first[chunk][v]);
            b = _mm512_and_si512(b, second[chunk][v]);
        }
        let found = _mm512_add_epi64(_mm512_popcnt_epi64(a), _mm512_popcnt_epi64(b));
        sums = add_found::<WEIGHTED>(sums, found, x, weights);
    }
    sums
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
