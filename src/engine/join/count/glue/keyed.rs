//! Counting an item whose sides outgrow a run, by key passes.
//!
//! A side longer than a run ([`super::RUN`]) used to be glued and paired
//! in runs of its column splits, each run of one side against each of the
//! other's: the pair counter's sieve (`pairs/sieve.rs`) then sorts on a
//! few key bits inside one run pair, and a pair of halves that clash on a
//! bit no key holds is still compared. Past n = 24 those comparisons are
//! the cost (results/2026-12-03-vm-parts): the lists' product grows about
//! 2.4 times faster than the count per two steps of n.
//!
//! Key passes sieve the whole item instead. The item's key is a few
//! pattern bits, the ones held most often by both sides (their share
//! multiplied, as the sieve chooses its own). One side, the outer, is
//! glued once for each value of the key, keeping only the halves with
//! exactly that value on the key's bits; the other, the inner, is glued
//! for each outer list, keeping only the halves with none of that value's
//! bits. A disjoint pair is counted in the one pass of its outer half's
//! value, and a pair that clashes on a key bit in none. Quarters whose
//! own pattern already rules a pass out are left out before they are
//! paired (an upper or lower quarter with a key bit the value lacks, or,
//! for the inner side, any of its bits): the glue's work shrinks with
//! what it keeps. Each list holds at most a run's worth; a full one is
//! counted and emptied (flushed), so memory stays as it was, but for a
//! bucket per lower quarter. Inside a pass the pair counter's own sieve
//! (up to 12 bits) goes on where the key leaves off.
//!
//! The key and which side is the outer are chosen on a sample of each
//! side's halves spread over all its column splits ([`Join::sample_side`]),
//! not on its first run: a run is a few neighbouring splits, whose
//! patterns share their column bits, and a key chosen on them missed the
//! bits the whole sides hold (n = 28, AMD EPYC Zen 2, one thread: one
//! item compared 8.8 × 10^14 pairs where a sampled key leaves about
//! 3 × 10^14).
//!
//! The outer side, with the fewer halves, gets enough key bits that a
//! pass fills about a sixteenth of a list ([`key_bits`]); an outer side
//! that fits in a run still gets three (eight passes). Whole items of n = 26,
//! against the runs (AVX2, AMD EPYC, one thread, the two builds in
//! turn): 84.6 -> 16.1 s, 62.3 -> 17.9 s and 8.9 -> 2.0 s, the 12-bit
//! sieve included; n = 24: 0.92-3.02 -> 0.64-1.72 s (five items).

use super::{Cells, Half, Lower, Quarter};
use crate::engine::join::count::frames::{Frame, Shape};
use crate::engine::join::count::quarter::RowSet;
use crate::engine::join::Join;

/// Which halves a glue keeps: those whose pattern holds exactly `value`'s
/// bits among `mask`'s (all halves: [`Filter::ALL`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(in crate::engine::join) struct Filter {
    pub(in crate::engine::join) mask: u64,
    pub(in crate::engine::join) value: u64,
}

impl Filter {
    /// Whether no half with `part` in its pattern (a quarter's share) can
    /// be kept: it holds a key bit the value lacks.
    #[inline(always)]
    pub(in crate::engine::join) fn rules_out(self, part: u64) -> bool {
        part & self.mask & !self.value != 0
    }

    /// The bucket of a half or quarter with pattern `x` among the
    /// value's: `x`'s bits on the value's, packed (BMI2's `pext`).
    #[inline(always)]
    fn bucket(self, x: u64) -> usize {
        let (mut out, mut rest, mut place) = (0, self.value, 0);
        while rest != 0 {
            let bit = rest & rest.wrapping_neg();
            if x & bit != 0 {
                out |= 1 << place;
            }
            rest &= rest - 1;
            place += 1;
        }
        out
    }

    /// How many buckets a value's bits make.
    fn buckets(self) -> usize {
        1 << self.value.count_ones()
    }

    /// The filter on a west half's own patterns that keeps what this one
    /// keeps of them mirrored ([`Shape::mirrored`], its own inverse on the
    /// shapes of mirror frames).
    fn mirrored(self, shape: Shape) -> Filter {
        debug_assert_eq!(shape.sum.1, shape.diff.1, "a mirror frame's shape");
        Filter {
            mask: shape.mirrored(self.mask),
            value: shape.mirrored(self.value),
        }
    }
}

/// Which key passes a keyed count makes, by the outer side's value and
/// the inner side's frame (0 on even boards): all of them (the count,
/// [`ALL_PASSES`]), or some (the forecast times one, `forecast/item.rs`).
/// A keyed count asks value by value, in the key's order, and first right
/// after its setup (its sides sampled, their signatures worked out): the
/// forecast's clocks time each value from its first question to the next
/// value's, and the setup up to the first.
pub(in crate::engine::join) type Passes<'a> = &'a dyn Fn(u64, usize) -> bool;

/// Every key pass.
pub(in crate::engine::join) const ALL_PASSES: Passes = &|_, _| true;

/// The most key bits: 2^12 outer passes.
pub(in crate::engine::join) const MOST_KEY_BITS: u32 = 12;

// A lower quarter's bucket is kept in 16 bits, one value left for none.
const _: () = assert!(MOST_KEY_BITS < 16);

/// Patterns of each side looked at to choose the key.
const SAMPLE: usize = 4096;

/// Column splits a side's sample glues (spread evenly over its splits),
/// and upper and lower quarters of each (spread evenly over its cells):
/// at most 32 × 48 × 48 halves, milliseconds against an item's seconds.
const SAMPLED_SPLITS: usize = 32;
const SAMPLED_QUARTERS: usize = 48;

/// `taken` places of `0..len` (`taken` <= `len`), spread evenly: the
/// middle of each of `taken` equal stretches.
fn spread(len: usize, taken: usize) -> impl Iterator<Item = usize> {
    (0..taken).map(move |i| (2 * i + 1) * len / (2 * taken))
}

/// `kept` patterns drawn from `glued` in proportion to the halves each
/// stands for (systematic sampling): `stand_for` gives, stretch by
/// stretch, where its patterns end and the halves each one stands for.
/// A split whose cells are large is as large a share of the sample as of
/// the half (its bits are what the key and the pair counter's sieve sort
/// on). All of `glued` where it is short and every pattern stands for as
/// many halves.
pub(in crate::engine::join) fn weighed(
    glued: &[u64],
    stand_for: &[(usize, f64)],
    kept: usize,
) -> Vec<u64> {
    let total: f64 = stand_for
        .iter()
        .scan(0, |start, &(end, each)| {
            let halves = (end - *start) as f64 * each;
            *start = end;
            Some(halves)
        })
        .sum();
    if glued.is_empty() || total <= 0.0 {
        return Vec::new();
    }
    if glued.len() <= kept && stand_for.windows(2).all(|w| w[0].1 == w[1].1) {
        return glued.to_vec();
    }
    let step = total / kept as f64;
    let (mut sample, mut at, mut next) = (Vec::with_capacity(kept), 0.0, step / 2.0);
    let mut start = 0;
    for &(end, each) in stand_for {
        for &pattern in &glued[start..end] {
            at += each;
            while next < at && sample.len() < kept {
                sample.push(pattern);
                next += step;
            }
        }
        start = end;
    }
    sample
}

/// The key bits for sides like the samples `outer` and `inner` (patterns
/// of `bits` bits): the `count` bits the two sides hold most often
/// together (the product of their shares), the lower among equals, none
/// that only one side holds.
pub(in crate::engine::join) fn choose_key(
    outer: &[u64],
    inner: &[u64],
    bits: usize,
    count: u32,
) -> u64 {
    let held = |side: &[u64]| {
        let mut held = [0u32; 64];
        for &x in side.iter().step_by(side.len().div_ceil(SAMPLE).max(1)) {
            let mut rest = x;
            while rest != 0 {
                held[rest.trailing_zeros() as usize] += 1;
                rest &= rest - 1;
            }
        }
        held
    };
    let (a, b) = (held(outer), held(inner));
    let mut candidates: Vec<(u64, usize)> = (0..bits.min(64))
        .map(|bit| (u64::from(a[bit]) * u64::from(b[bit]), bit))
        .filter(|&(both, _)| both > 0)
        .collect();
    candidates.sort_by(|x, y| y.0.cmp(&x.0).then(x.1.cmp(&y.1)));
    candidates
        .iter()
        .take(count as usize)
        .fold(0, |mask, &(_, bit)| mask | 1 << bit)
}

/// `v`'s low bits spread onto the bits of `mask`, lowest first (BMI2's
/// `pdep`).
pub(in crate::engine::join) fn deposit(v: u64, mask: u64) -> u64 {
    let (mut out, mut rest, mut place) = (0, mask, 0);
    while rest != 0 {
        let bit = rest & rest.wrapping_neg();
        if v >> place & 1 == 1 {
            out |= bit;
        }
        rest &= rest - 1;
        place += 1;
    }
    out
}

/// A glue's scratch in key passes, the outer side's and the inner's in
/// turn: the lower quarters of a split that the filter does not rule out,
/// sorted by their bucket ([`Filter::bucket`]; `starts[b]..starts[b + 1]`
/// hold bucket b), each one's bucket, and the split's two cells where
/// they are searched.
#[derive(Default)]
pub(in crate::engine::join) struct Scratch {
    pub(super) lower: Lower,
    starts: Vec<usize>,
    buckets: Vec<u16>,
    pub(super) cells: [Vec<Quarter>; 2],
    /// The outer side's key signatures and the inner side's, while an
    /// item is counted.
    signatures: [Signatures; 2],
}

/// A quarter's key signature when it meets the diagonals its half keeps
/// off: no pass keeps it.
const OFF: u16 = 1 << 15;

// A signature holds the key's bits below OFF.
const _: () = assert!(MOST_KEY_BITS < 15);

/// The key signatures of a side's quarters, worked out once an item: for
/// each quarter, the key's bits its part of a pattern holds, packed
/// ([`Filter::bucket`] on the key), or [`OFF`]. A pass keeps few of a
/// side's quarters (an inner side's, those with none of its value's bits:
/// at n = 30 about 4 % of the upper quarters and 3 % of the lower,
/// results/2026-12-07-vm-key-pass-walks; an outer side's, those with no
/// key bit the value lacks), so a walk tests two bytes a quarter and
/// places only those it keeps, where it placed every one and tested it.
/// Split k's upper quarters' signatures are `marks[starts[2k]..starts[2k
/// + 1]]`, in its upper cell's order, its lower ones' the next stretch.
/// Two bytes a quarter of the side's two row sets at most
/// ([`signature_bytes`]): a split's cells are its own column sets.
#[derive(Default)]
pub(in crate::engine::join) struct Signatures {
    /// The key on the side's own patterns: `value` holds its bits.
    on_key: Filter,
    starts: Vec<usize>,
    marks: Vec<u16>,
}

impl Signatures {
    /// The walk that keeps what `filter` keeps (on the side's own
    /// patterns, its bits among the key's) by testing signatures: a
    /// quarter is kept if it holds none of the key bits the filter rules
    /// out, and is not [`OFF`].
    fn walk(&self, filter: Filter) -> Walk<'_> {
        debug_assert_eq!(
            filter.mask & !self.on_key.value,
            0,
            "a filter on the key's bits"
        );
        let test = self.on_key.bucket(filter.mask & !filter.value) as u16 | OFF;
        Walk {
            filter,
            signed: Some((self, test)),
        }
    }

    /// The signatures of split `k`'s upper and lower quarters.
    fn of_split(&self, k: usize) -> (&[u16], &[u16]) {
        let starts = &self.starts[2 * k..2 * k + 3];
        (
            &self.marks[starts[0]..starts[1]],
            &self.marks[starts[1]..starts[2]],
        )
    }
}

/// The places of a cell a walk looks at: all of them from one on, or
/// those whose signature holds none of `test`'s bits, found 64 at a
/// time.
#[derive(Clone)]
enum Places<'a> {
    All(std::ops::Range<usize>),
    Kept {
        marks: &'a [u16],
        test: u16,
        /// Where the next 64 start, and which of the last 64 are still to
        /// go.
        next: usize,
        bits: u64,
    },
}

impl<'a> Places<'a> {
    /// The places of a cell of `len` quarters from `from` on that a walk
    /// keeps: by `signed`'s test on `marks` (the cell's signatures), or
    /// all of them.
    fn of(len: usize, from: usize, signed: Option<(&'a [u16], u16)>) -> Self {
        match signed {
            None => Places::All(from.min(len)..len),
            Some((marks, test)) => {
                debug_assert_eq!(marks.len(), len, "a signature for each quarter");
                Places::Kept {
                    marks,
                    test,
                    next: from,
                    bits: 0,
                }
            }
        }
    }
}

impl Iterator for Places<'_> {
    type Item = usize;

    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        match self {
            Places::All(range) => range.next(),
            Places::Kept {
                marks,
                test,
                next,
                bits,
            } => {
                while *bits == 0 {
                    let rest = marks.get(*next..).filter(|rest| !rest.is_empty())?;
                    *bits = match rest.first_chunk::<64>() {
                        Some(chunk) => kept_of_64(chunk, *test),
                        None => rest.iter().enumerate().fold(0, |bits, (j, &mark)| {
                            bits | u64::from(mark & *test == 0) << j
                        }),
                    };
                    *next += 64;
                }
                let place = *next - 64 + bits.trailing_zeros() as usize;
                *bits &= *bits - 1;
                Some(place)
            }
        }
    }
}

/// Which of 64 signatures hold none of `test`'s bits, as bits. A byte for
/// each first (a loop the compiler vectorises on any x86-64), then eight
/// bytes of 0 or 1 gathered into eight bits by one multiplication: bit
/// 8i times 2^(56 - 7i) lands on bit 56 + i, and no two of the products
/// fall on one bit. A loop that shifted each test into the word took
/// about 30 instructions for four signatures.
#[inline(always)]
fn kept_of_64(marks: &[u16; 64], test: u16) -> u64 {
    let mut kept = [0u8; 64];
    for (byte, &mark) in kept.iter_mut().zip(marks) {
        *byte = u8::from(mark & test == 0);
    }
    kept.chunks_exact(8)
        .enumerate()
        .fold(0, |bits, (k, eight)| {
            let eight = u64::from_le_bytes(eight.try_into().expect("eight bytes"));
            bits | (eight.wrapping_mul(0x0102_0408_1020_4080) >> 56) << (8 * k)
        })
}

/// [`Filter::bucket`] by eight table lookups, one for each byte of the
/// pattern (a bucket is bitwise in the pattern): where one filter packs a
/// whole side's quarters, about 60 instructions a quarter less.
struct Packer([[u16; 256]; 8]);

impl Packer {
    fn new(filter: Filter) -> Packer {
        let mut tables = [[0; 256]; 8];
        for (k, table) in tables.iter_mut().enumerate() {
            for (byte, packed) in table.iter_mut().enumerate() {
                *packed = filter.bucket((byte as u64) << (8 * k)) as u16;
            }
        }
        Packer(tables)
    }

    #[inline(always)]
    fn pack(&self, x: u64) -> u16 {
        let bytes = x.to_le_bytes();
        bytes.iter().zip(&self.0).fold(0, |packed, (&byte, table)| {
            packed | table[usize::from(byte)]
        })
    }
}

/// How a key pass walks a side: which halves it keeps (its filter), and
/// the side's signatures with their test where they are worked out
/// ([`Signatures::walk`]).
#[derive(Clone, Copy)]
pub(in crate::engine::join) struct Walk<'a> {
    filter: Filter,
    signed: Option<(&'a Signatures, u16)>,
}

/// The walk that keeps what `filter` keeps: by `signed`'s signatures
/// where they are worked out, else placing every quarter and testing it.
fn walk(signed: Option<&Signatures>, filter: Filter) -> Walk<'_> {
    match signed {
        Some(signatures) => signatures.walk(filter),
        None => Walk {
            filter,
            signed: None,
        },
    }
}

/// A side's halves as key passes see them before gluing it: a sample of
/// its patterns ([`SAMPLE`], each standing for as many halves) and about
/// how many halves it glues in all.
#[derive(Default)]
pub(in crate::engine::join) struct SideSample {
    pub(in crate::engine::join) patterns: Vec<u64>,
    pub(in crate::engine::join) halves: f64,
}

impl Join {
    /// A sample of the halves `half` glues, from [`SAMPLED_SPLITS`] of its
    /// column splits and [`SAMPLED_QUARTERS`] upper and lower quarters of
    /// each, spread evenly: all of a small half, exactly.
    pub(in crate::engine::join) fn sample_side(
        &self,
        half: &Half,
        scratch: &mut Scratch,
    ) -> SideSample {
        let Scratch {
            lower,
            cells: [upper_cell, lower_cell],
            ..
        } = scratch;
        let splits = half.splits;
        let drawn = SAMPLED_SPLITS.min(splits.len());
        let (mut glued, mut stand_for, mut halves) = (Vec::new(), Vec::new(), 0.0);
        let mut few = Lower::default();
        for k in spread(splits.len(), drawn) {
            let upper = half.uppers.cell(splits[k], upper_cell);
            if upper.is_empty() {
                continue;
            }
            let cell = half.lowers.cell(half.side.columns ^ splits[k], lower_cell);
            self.place_lowers(half, cell, lower);
            let (uppers, lowers) = (
                SAMPLED_QUARTERS.min(upper.len()),
                SAMPLED_QUARTERS.min(lower.sums.len()),
            );
            if lowers == 0 {
                continue;
            }
            few.sums.clear();
            few.diffs.clear();
            few.patterns.clear();
            for j in spread(lower.sums.len(), lowers) {
                few.sums.push(lower.sums[j]);
                few.diffs.push(lower.diffs[j]);
                few.patterns.push(lower.patterns[j]);
            }
            // Each half glued stands for this many of the side's.
            let each = splits.len() as f64 / drawn as f64 * upper.len() as f64 / uppers as f64
                * lower.sums.len() as f64
                / lowers as f64;
            let before = glued.len();
            glued.reserve(uppers * lowers + super::SLACK);
            for i in spread(upper.len(), uppers) {
                if let Some(a) = self.place_upper(half, upper[i]) {
                    self.pair_with(a, few.all(), &mut glued);
                }
            }
            if glued.len() > before {
                halves += (glued.len() - before) as f64 * each;
                stand_for.push((glued.len(), each));
            }
        }
        SideSample {
            patterns: weighed(&glued, &stand_for, SAMPLE),
            halves,
        }
    }
}

impl Join {
    /// Glues every half of `half` that `filter` keeps into `patterns`,
    /// handing the list and the scratch to `flush` whenever the next
    /// upper quarter's halves might not fit in `most` (and once at the
    /// end, if it holds any); `flush` empties the list and may use the
    /// scratch (the inner side's glue does): the split being glued is
    /// then set up again, from the upper quarter it stopped at.
    ///
    /// A half's pattern is its upper quarter's OR its lower quarter's, so
    /// neither may hold a key bit the value lacks; and of the bits of the
    /// value, an upper quarter `u` lacks some, which its lower quarters
    /// must hold. With the lower quarters sorted by which of the value's
    /// bits they hold, `u` meets only the buckets that hold all it lacks
    /// (each of the subsets of what it holds): every pair it is glued with
    /// makes a half with the value, and the glue's work follows what it
    /// keeps.
    pub(in crate::engine::join) fn glue_through(
        &self,
        half: &Half,
        walk: Walk,
        scratch: &mut Scratch,
        (patterns, most): (&mut Vec<u64>, usize),
        mut flush: impl FnMut(&mut Vec<u64>, &mut Scratch),
    ) {
        for k in 0..half.splits.len() {
            let mut from = 0;
            while let Some(stopped) =
                self.glue_split(half, (k, from), walk, scratch, (patterns, most))
            {
                flush(patterns, scratch);
                debug_assert!(patterns.is_empty(), "a flush empties the list");
                from = stopped;
            }
        }
        if !patterns.is_empty() {
            flush(patterns, scratch);
        }
    }

    /// Glues the halves of split `k` that `walk` keeps, from its upper
    /// quarter `from` on, into `patterns`; stops at the first upper
    /// quarter whose halves might not fit in `most` (unless the list is
    /// empty) and says which.
    fn glue_split(
        &self,
        half: &Half,
        (k, from): (usize, usize),
        walk: Walk,
        scratch: &mut Scratch,
        (patterns, most): (&mut Vec<u64>, usize),
    ) -> Option<usize> {
        let upper_columns = half.splits[k];
        let [upper_cell, lower_cell] = &mut scratch.cells;
        let upper = half.uppers.cell(upper_columns, upper_cell);
        if upper.len() <= from {
            return None;
        }
        let cell = half
            .lowers
            .cell(half.side.columns ^ upper_columns, lower_cell);
        let (upper_marks, lower_marks) = match walk.signed {
            Some((signatures, test)) => {
                let (upper, lower) = signatures.of_split(k);
                (Some((upper, test)), Some((lower, test)))
            }
            None => (None, None),
        };
        let filter = walk.filter;
        let sorted = (
            &mut scratch.lower,
            &mut scratch.starts,
            &mut scratch.buckets,
        );
        let lowers = Places::of(cell.len(), 0, lower_marks);
        if !self.sort_lowers(half, (cell, lowers), filter, sorted) {
            return None;
        }
        let (lower, starts) = (&scratch.lower, &scratch.starts);
        let every = filter.buckets() - 1;
        // The buckets an upper quarter holding `held` meets: every one
        // with what it lacks, and any of what it holds.
        let meets = |held: usize| {
            let mut next = Some(held);
            std::iter::from_fn(move || {
                let some = next?;
                next = (some != 0).then(|| (some - 1) & held);
                Some((every & !held) | some)
            })
        };
        for i in Places::of(upper.len(), from, upper_marks) {
            let Some(a) = self.place_upper(half, upper[i]) else {
                continue;
            };
            if filter.rules_out(a.pattern) {
                continue;
            }
            let held = filter.bucket(a.pattern);
            let halves: usize = meets(held).map(|b| starts[b + 1] - starts[b]).sum();
            if patterns.len() + halves > most && !patterns.is_empty() {
                return Some(i);
            }
            patterns.reserve(halves + super::SLACK);
            for bucket in meets(held) {
                let places = starts[bucket]..starts[bucket + 1];
                if !places.is_empty() {
                    self.pair_with(a, lower.range(places), patterns);
                }
            }
        }
        None
    }

    /// Works out the key signatures of `half`'s quarters for the key bits
    /// `key` (on its own patterns) into `signatures`, and says whether it
    /// did: not where a cell is searched (a row set too large to fill),
    /// which a walk searches again anyway.
    fn sign(
        &self,
        half: &Half,
        key: u64,
        cells: &mut [Vec<Quarter>; 2],
        signatures: &mut Signatures,
    ) -> bool {
        if matches!(half.uppers, Cells::Counted(..)) || matches!(half.lowers, Cells::Counted(..)) {
            return false;
        }
        let on_key = Filter {
            mask: key,
            value: key,
        };
        let packed = Packer::new(on_key);
        let (n, h) = (self.n, self.h);
        let (forbidden, shape, _) = half.keep;
        let Signatures {
            on_key: kept_on,
            starts,
            marks,
        } = signatures;
        *kept_on = on_key;
        starts.clear();
        marks.clear();
        starts.push(0);
        let [upper_cell, lower_cell] = cells;
        for &upper_columns in half.splits {
            let upper = half.uppers.cell(upper_columns, upper_cell);
            marks.extend(upper.iter().map(|&a| match self.place_upper(half, a) {
                Some(a) => packed.pack(a.pattern),
                None => OFF,
            }));
            starts.push(marks.len());
            let cell = half
                .lowers
                .cell(half.side.columns ^ upper_columns, lower_cell);
            marks.extend(cell.iter().map(|b| {
                // The south quarters' first row is n - h.
                let b = b.place(n, h, n - h, half.side.c0);
                match b.0 & forbidden.0 == 0 && b.1 & forbidden.1 == 0 {
                    true => packed.pack(shape.pattern(b)),
                    false => OFF,
                }
            }));
            starts.push(marks.len());
        }
        true
    }

    /// Places `cell`'s lower quarters at `places` (all, or those their
    /// signatures keep) for `half` into `sorted`, those that `filter`
    /// does not rule out, sorted by bucket; whether any are. Placed twice
    /// (their buckets counted, then each put in its place): a placement
    /// is a few shifts, and no second copy of the cell's lower quarters
    /// is kept. A filter of one bucket (an inner side's pass: no bit of
    /// the value) places each once, in order.
    fn sort_lowers(
        &self,
        half: &Half,
        (cell, places): (&[Quarter], Places),
        filter: Filter,
        (lower, starts, buckets): (&mut Lower, &mut Vec<usize>, &mut Vec<u16>),
    ) -> bool {
        let (n, h) = (self.n, self.h);
        let (forbidden, shape, _) = half.keep;
        // The south quarters' first row is n - h.
        let placed = places.map(|j| {
            let b = cell[j].place(n, h, n - h, half.side.c0);
            let part = shape.pattern(b);
            let kept = b.0 & forbidden.0 == 0 && b.1 & forbidden.1 == 0 && !filter.rules_out(part);
            (b, part, kept)
        });
        if filter.buckets() == 1 {
            for vector in [&mut lower.sums, &mut lower.diffs, &mut lower.patterns] {
                vector.clear();
            }
            for (b, part, _) in placed.filter(|&(_, _, kept)| kept) {
                lower.sums.push(b.0);
                lower.diffs.push(b.1);
                lower.patterns.push(part);
            }
            let kept = lower.sums.len();
            starts.clear();
            starts.extend([0, kept]);
            return kept > 0;
        }
        starts.clear();
        starts.resize(filter.buckets() + 1, 0);
        buckets.clear();
        for (_, part, kept) in placed.clone() {
            let bucket = match kept {
                true => filter.bucket(part),
                false => RULED_OUT,
            };
            if kept {
                starts[bucket + 1] += 1;
            }
            buckets.push(bucket as u16);
        }
        for b in 1..starts.len() {
            starts[b] += starts[b - 1];
        }
        let kept = starts[starts.len() - 1];
        for vector in [&mut lower.sums, &mut lower.diffs, &mut lower.patterns] {
            vector.clear();
            vector.resize(kept, 0);
        }
        // `starts` walked forward as each bucket fills, then moved back.
        for ((b, part, _), &bucket) in placed.zip(buckets.iter()) {
            if bucket != RULED_OUT as u16 {
                let place = &mut starts[usize::from(bucket)];
                lower.sums[*place] = b.0;
                lower.diffs[*place] = b.1;
                lower.patterns[*place] = part;
                *place += 1;
            }
        }
        starts.rotate_right(1);
        starts[0] = 0;
        kept > 0
    }
}

/// A lower quarter's bucket when the filter rules it out.
const RULED_OUT: usize = u16::MAX as usize;

/// How many key bits an item whose outer side keeps about `halves`
/// halves gets, its lists holding `most`: enough that an outer pass fills
/// about a sixteenth of a list, and three at least (eight passes).
///
/// Each bit halves the outer side's passes' lists and rules out the pairs
/// that clash on it (a share p q of them); each outer list then glues the
/// inner side again, so a bit pays while pairs outweigh that glue. With
/// the row sets filled (not searched once a pass), a sixteenth took, in
/// the forecast's one-thread seconds (AMD EPYC Zen 2, AVX2, the same
/// binary, two bits more than a quarter against none): n = 26 0.75x,
/// 27 0.91x, 28 0.64x, 29 0.90x, 30 0.42x; three bits more gave 0.76x,
/// 1.01x, 0.61x, 1.02x, 0.35x (odd boards lose: their inner sides are
/// glued once per frame).
pub(in crate::engine::join) fn key_bits(halves: f64, most: u64) -> u32 {
    let passes = halves / (most as f64 / 16.0);
    (passes.log2().ceil().max(3.0) as u32).min(MOST_KEY_BITS)
}

/// The bytes a thread's key passes keep beside the item's own scratch,
/// for lower cells of at most `cell` quarters and h×h row sets of at most
/// `row_set` placements: a bucket for each lower quarter and where each
/// bucket starts (the lower quarters are sorted into the item's own
/// scratch, the outer side's and the inner's in turn), and both sides'
/// signatures ([`signature_bytes`]).
pub(in crate::engine::join) fn scratch_bytes(cell: u64, (h, row_set): (usize, u64)) -> u64 {
    2 * cell + 8 * ((1 << MOST_KEY_BITS) + 1) + signature_bytes(h, row_set)
}

/// The bytes both sides' [`Signatures`] take where each side's two h×h
/// row sets hold at most `row_set` placements: two bytes a quarter, and
/// where each split's stretches start (a side has at most 2^h splits).
pub(in crate::engine::join) fn signature_bytes(h: usize, row_set: u64) -> u64 {
    2 * (2 * 2 * row_set + 8 * (2 * (1 << h) + 1))
}

impl Join {
    /// The pairs of a mirror item's sides `east` and `west` (halves of
    /// `shape`, one of them longer than a run), counted by
    /// `pairs` (east list, west list mirrored, spare) over key passes, in
    /// `lists` (east, west, spare) and one glue scratch that the outer
    /// and the inner side take in turn.
    pub(in crate::engine::join) fn count_keyed(
        &self,
        (east, west): (&Half, &Half),
        shape: Shape,
        (east_list, west_list, spare): (&mut Vec<u64>, &mut Vec<u64>, &mut Vec<u64>),
        scratch: &mut Scratch,
        (pairs, passes): (
            impl Fn(&mut [u64], &mut [u64], &mut Vec<u64>) -> u64,
            Passes,
        ),
    ) -> u64 {
        // Each side sampled: the key is chosen on the samples, and the
        // side that keeps fewer halves is the outer (fewer passes).
        let east_sample = self.sample_side(east, scratch);
        let mut west_sample = self.sample_side(west, scratch);
        for p in west_sample.patterns.iter_mut() {
            *p = shape.mirrored(*p);
        }
        let east_outer = east_sample.halves <= west_sample.halves;
        let (outer_sample, inner_sample) = match east_outer {
            true => (&east_sample, &west_sample),
            false => (&west_sample, &east_sample),
        };
        let bits = key_bits(outer_sample.halves, self.run);
        let key = choose_key(
            &outer_sample.patterns,
            &inner_sample.patterns,
            shape.bits(),
            bits,
        );
        let most = self.run as usize;
        let (outer, inner, outer_list, inner_list) = match east_outer {
            true => (east, west, east_list, west_list),
            false => (west, east, west_list, east_list),
        };
        // A filter on east patterns, for a side's own (a west half's are
        // mirrored after it is glued).
        let own = |filter: Filter, is_east: bool| match is_east {
            true => filter,
            false => filter.mirrored(shape),
        };
        let mirror = |list: &mut Vec<u64>, is_east: bool| {
            if !is_east {
                for p in list.iter_mut() {
                    *p = shape.mirrored(*p);
                }
            }
        };
        outer_list.clear();
        inner_list.clear();
        outer_list.reserve_exact(most + super::SLACK);
        inner_list.reserve_exact(most + super::SLACK);
        // Each side's signatures on its own key bits, kept out of the
        // scratch while the walks borrow it.
        let [mut outer_signatures, mut inner_signatures] = std::mem::take(&mut scratch.signatures);
        let on_key = |is_east| {
            let key = Filter {
                mask: key,
                value: key,
            };
            own(key, is_east).value
        };
        let outer_signed = self
            .sign(
                outer,
                on_key(east_outer),
                &mut scratch.cells,
                &mut outer_signatures,
            )
            .then_some(&outer_signatures);
        let inner_signed = self
            .sign(
                inner,
                on_key(!east_outer),
                &mut scratch.cells,
                &mut inner_signatures,
            )
            .then_some(&inner_signatures);
        let mut total = 0;
        for v in 0..1u64 << key.count_ones() {
            let value = deposit(v, key);
            if !passes(value, 0) {
                continue;
            }
            let outer_filter = own(Filter { mask: key, value }, east_outer);
            let inner_filter = own(
                Filter {
                    mask: value,
                    value: 0,
                },
                !east_outer,
            );
            let inner_walk = walk(inner_signed, inner_filter);
            let outer_list = (&mut *outer_list, most);
            self.glue_through(
                outer,
                walk(outer_signed, outer_filter),
                scratch,
                outer_list,
                |outer_list, scratch| {
                    mirror(outer_list, east_outer);
                    let inner_list = (&mut *inner_list, most);
                    self.glue_through(inner, inner_walk, scratch, inner_list, |inner_list, _| {
                        mirror(inner_list, !east_outer);
                        total += match east_outer {
                            true => pairs(outer_list, inner_list, spare),
                            false => pairs(inner_list, outer_list, spare),
                        };
                        inner_list.clear();
                    });
                    outer_list.clear();
                },
            );
        }
        scratch.signatures = [outer_signatures, inner_signatures];
        total
    }
}

impl Join {
    /// The pairs of an odd board's item whose west side `west`, shared by
    /// the group's `frames`, outgrows a run, against each frame's east
    /// half on the rows `others` (its row sets filled into `east_rows`),
    /// counted by `pairs` (east list, west list) over key passes, in
    /// `lists` (east, west): the west side is the outer.
    pub(in crate::engine::join) fn count_keyed_frames(
        &self,
        west: &Half,
        (frames, others, shape): (&[Frame], (u32, u32), Shape),
        (east_upper, east_lower): (&mut RowSet, &mut RowSet),
        (east_list, west_list): (&mut Vec<u64>, &mut Vec<u64>),
        scratch: &mut Scratch,
        (pairs, passes): (impl Fn(&[u64], &[u64]) -> u64, Passes),
    ) -> u64 {
        let keep_off = |frame: &Frame| (frame.forbidden, shape, frame.middle_row);
        // The west side and the first frame's east one sampled: the key
        // is chosen on the samples.
        let west_sample = self.sample_side(west, scratch);
        let east_sample = {
            let rows = (&mut *east_upper, &mut *east_lower);
            let first = self.half(others, frames[0].east, keep_off(&frames[0]), rows);
            self.sample_side(&first, scratch)
        };
        let key = choose_key(
            &west_sample.patterns,
            &east_sample.patterns,
            shape.bits(),
            key_bits(west_sample.halves, self.run),
        );
        let most = self.run as usize;
        west_list.clear();
        east_list.clear();
        west_list.reserve_exact(most + super::SLACK);
        east_list.reserve_exact(most + super::SLACK);
        // The west side's signatures (each frame's east side is laid out
        // again for each west list: walked with its filter).
        let [mut west_signatures, inner_signatures] = std::mem::take(&mut scratch.signatures);
        let west_signed = self
            .sign(west, key, &mut scratch.cells, &mut west_signatures)
            .then_some(&west_signatures);
        let mut total = 0;
        for v in 0..1u64 << key.count_ones() {
            let value = deposit(v, key);
            if !(0..frames.len()).any(|k| passes(value, k)) {
                continue;
            }
            let outer = Filter { mask: key, value };
            let inner = Filter {
                mask: value,
                value: 0,
            };
            let west_list = (&mut *west_list, most);
            let outer = walk(west_signed, outer);
            self.glue_through(west, outer, scratch, west_list, |west_list, scratch| {
                for (k, frame) in frames.iter().enumerate() {
                    if !passes(value, k) {
                        continue;
                    }
                    let rows = (&mut *east_upper, &mut *east_lower);
                    let half = self.half(others, frame.east, keep_off(frame), rows);
                    let east_list = (&mut *east_list, most);
                    let inner = walk(None, inner);
                    self.glue_through(&half, inner, scratch, east_list, |east_list, _| {
                        total += pairs(east_list, west_list);
                        east_list.clear();
                    });
                }
                west_list.clear();
            });
        }
        scratch.signatures = [west_signatures, inner_signatures];
        total
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every half of every `stride`-th pair unit of board `n` (east on the
    /// item's rows, east on the others, west on the item's), glued whole:
    /// its patterns beside the side's sample.
    fn sides_and_samples(n: usize, stride: usize, each: &mut dyn FnMut(&[u64], SideSample)) {
        use crate::engine::join::count::glue::Run;
        let join = Join::new(n, Join::fastest(), u64::MAX).unwrap();
        let (mut rows, mut scratch) = ((RowSet::default(), RowSet::default()), Scratch::default());
        for unit in (0..join.order.units()).step_by(stride) {
            let Some(item) = join.order.pair_unit(unit) else {
                continue;
            };
            let first = join.frames[join.groups[item.group as usize].start];
            let on = (u32::from(item.north), u32::from(item.south));
            let others = (first.north ^ on.0, first.south ^ on.1);
            let keep = (first.forbidden, first.shape, first.middle_row);
            for (on, side) in [(on, first.east), (others, first.east), (on, first.west)] {
                let half = join.half(on, side, keep, (&mut rows.0, &mut rows.1));
                let all = Run {
                    splits: 0..half.splits.len(),
                    uppers: 0..usize::MAX,
                    bound: 0,
                };
                let mut whole = Vec::new();
                join.glue(
                    &half,
                    &all,
                    (&mut scratch.lower, &mut scratch.cells),
                    &mut whole,
                );
                let sample = join.sample_side(&half, &mut scratch);
                each(&whole, sample);
            }
        }
    }

    /// The key passes a selector makes and those it leaves out add up to
    /// all of them, item by item (the forecast counts one pass alone):
    /// boards whose lists are cut into runs of 40 halves, so that most
    /// items are counted by key passes, an odd board's over its frames.
    #[test]
    fn passes_made_and_left_out_add_up_to_all_of_them() {
        use crate::engine::join::count::frames::Fold;
        let some: Passes = &|value, frame| (value.count_ones() as usize + frame).is_multiple_of(2);
        let others: Passes = &|value, frame| !some(value, frame);
        for n in [12, 13] {
            let mut join = Join::new(n, Join::fastest(), u64::MAX).unwrap();
            join.run = 40;
            let mut rows = [(); 4].map(|_| RowSet::default());
            let [east_upper, east_lower, west_upper, west_lower] = &mut rows;
            let (mut lists, mut scratch) = ([(); 3].map(|_| Vec::new()), Scratch::default());
            let [east, west, spare] = &mut lists;
            let mut split = 0;
            for unit in 0..join.order.units() {
                let Some(item) = join.order.pair_unit(unit) else {
                    continue;
                };
                let frames = &join.frames[join.groups[item.group as usize].clone()];
                let first = &frames[0];
                let shape = first.shape;
                let on = (u32::from(item.north), u32::from(item.south));
                let others_rows = (first.north ^ on.0, first.south ^ on.1);
                let mut tallies = [ALL_PASSES, some, others].map(|passes| {
                    if first.fold == Fold::MirrorAndFlip {
                        let keep = (first.forbidden, shape, 0);
                        let e = join.half(on, first.east, keep, (east_upper, east_lower));
                        let w = join.half(others_rows, first.east, keep, (west_upper, west_lower));
                        let pairs = join.mirror_pairs(false, 2, shape);
                        let lists = (&mut *east, &mut *west, &mut *spare);
                        join.count_keyed((&e, &w), shape, lists, &mut scratch, (pairs, passes))
                    } else {
                        let keep = (first.west_forbidden, shape, 0);
                        let w = join.half(on, first.west, keep, (west_upper, west_lower));
                        let pairs = |e: &[u64], w: &[u64]| {
                            crate::engine::join::count::pairs::count(join.simd, e, w, shape.bits())
                        };
                        join.count_keyed_frames(
                            &w,
                            (frames, others_rows, shape),
                            (east_upper, east_lower),
                            (&mut *east, &mut *west),
                            &mut scratch,
                            (pairs, passes),
                        )
                    }
                });
                let all = tallies[0];
                tallies[0] = 0;
                assert_eq!(tallies.iter().sum::<u64>(), all, "n = {n}, {item:?}");
                split += usize::from(tallies[1] != 0 && tallies[2] != 0);
            }
            assert!(split > 0, "n = {n}: no item's passes were split");
        }
    }

    #[test]
    fn a_small_side_is_sampled_whole() {
        // To n = 13 no half has more splits than are sampled, nor cells
        // with more quarters: the sample is the side.
        for n in [8, 11, 12, 13] {
            let mut sides = 0;
            sides_and_samples(n, 1, &mut |whole, sample| {
                assert_eq!(sample.halves, whole.len() as f64, "n = {n}");
                if whole.len() <= SAMPLE {
                    let (mut a, mut b) = (whole.to_vec(), sample.patterns);
                    a.sort_unstable();
                    b.sort_unstable();
                    assert_eq!(a, b, "n = {n}");
                }
                sides += usize::from(!whole.is_empty());
            });
            assert!(sides > 0, "n = {n}");
        }
    }

    #[test]
    fn a_large_side_s_sample_tells_its_length_and_its_bits() {
        // n = 19: sides of up to 10^4 halves, from hundreds of splits.
        // Their sum is the samples' to within 2 %, each large one's to
        // within 40 % (measured 0.71-1.25); and the key chosen on the
        // sample is worth, to the whole side, at least 75 % of the key
        // chosen on all of it, 95 % on average (measured: 82-100 %,
        // mean 97 %, over 839 sides).
        let (mut whole_sum, mut sampled_sum, mut large, mut worth_sum) = (0.0, 0.0, 0, 0.0);
        sides_and_samples(19, 53, &mut |whole, sample| {
            whole_sum += whole.len() as f64;
            sampled_sum += sample.halves;
            if whole.len() >= 5_000 {
                large += 1;
                let ratio = sample.halves / whole.len() as f64;
                assert!(
                    (0.6..1.4).contains(&ratio),
                    "{} halves sampled as {}",
                    whole.len(),
                    sample.halves
                );
                // A key's worth to the whole side: the shares of its halves
                // that hold each of its bits, squared (as both sides
                // holding it), added up.
                let worth = |key: u64| -> f64 {
                    let held = |bit: u32| whole.iter().filter(|&&x| x >> bit & 1 == 1).count();
                    let bits = (0..64).filter(|&bit| key >> bit & 1 == 1);
                    bits.map(|bit| (held(bit) as f64 / whole.len() as f64).powi(2))
                        .sum()
                };
                let key = |list: &[u64]| choose_key(list, list, 64, 4);
                let (best, sampled) = (worth(key(whole)), worth(key(&sample.patterns)));
                assert!(
                    sampled >= 0.75 * best,
                    "the sampled key is worth {sampled}, the best {best}"
                );
                worth_sum += sampled / best;
            }
        });
        let worth_mean = worth_sum / f64::from(large);
        assert!(
            worth_mean > 0.95,
            "sampled keys worth {worth_mean} of the best"
        );
        assert!(large > 100, "{large} large sides");
        let ratio = sampled_sum / whole_sum;
        assert!(
            (0.98..1.02).contains(&ratio),
            "{whole_sum} halves sampled as {sampled_sum}"
        );
    }

    #[test]
    fn a_walk_keeps_the_places_whose_signatures_hold_none_of_the_test() {
        // Lengths about whole 64s, walks from places inside them.
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for len in [0, 1, 63, 64, 65, 127, 128, 200] {
            let marks: Vec<u16> = (0..len)
                .map(|_| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    (x & 0x800f) as u16
                })
                .collect();
            for test in [OFF, OFF | 0b1, OFF | 0b1010, OFF | 0b1111] {
                for from in [0, 1, 63, 64, 70].into_iter().filter(|&f| f <= len) {
                    let kept: Vec<usize> = Places::of(len, from, Some((&marks, test))).collect();
                    let want: Vec<usize> = (from..len).filter(|&i| marks[i] & test == 0).collect();
                    assert_eq!(kept, want, "len {len}, test {test:b}, from {from}");
                    let all: Vec<usize> = Places::of(len, from, None).collect();
                    assert_eq!(all, (from..len).collect::<Vec<_>>());
                }
            }
        }
    }

    #[test]
    fn a_packer_packs_as_the_filter_buckets() {
        let filter = Filter {
            mask: 0,
            value: 0x8000_0100_0f00_0031,
        };
        let packer = Packer::new(filter);
        let mut x = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..1000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            assert_eq!(usize::from(packer.pack(x)), filter.bucket(x), "{x:x}");
        }
    }

    #[test]
    fn deposit_spreads_the_low_bits_onto_the_mask() {
        assert_eq!(deposit(0b101, 0b1011_0000), 0b1001_0000);
        assert_eq!(deposit(0b111, 0b1011_0000), 0b1011_0000);
        assert_eq!(deposit(0, u64::MAX), 0);
        assert_eq!(deposit(5, 0), 0);
    }

    #[test]
    fn a_filter_rules_out_key_bits_its_value_lacks_and_buckets_by_its_bits() {
        let filter = Filter {
            mask: 0b1111,
            value: 0b0101,
        };
        assert!(filter.rules_out(0b0010));
        assert!(!filter.rules_out(0b1_0100));
        assert_eq!(filter.buckets(), 4);
        assert_eq!(filter.bucket(0b1_0100), 0b10);
        assert_eq!(filter.bucket(0b0101), 0b11);
        let inner = Filter {
            mask: 0b0101,
            value: 0,
        };
        assert!(inner.rules_out(0b0100) && !inner.rules_out(0b1010));
        assert_eq!((inner.buckets(), inner.bucket(0b1010)), (1, 0));
    }

    #[test]
    fn the_key_takes_the_bits_both_sides_hold_most() {
        // Bit 3 in all of both, bit 1 in half of both, bit 0 in one side only.
        let outer = [0b1001, 0b1011, 0b1001, 0b1011];
        let inner = [0b1000, 0b1010];
        assert_eq!(choose_key(&outer, &inner, 4, 1), 0b1000);
        assert_eq!(choose_key(&outer, &inner, 4, 2), 0b1010);
        assert_eq!(choose_key(&outer, &inner, 4, 3), 0b1010);
    }
}
