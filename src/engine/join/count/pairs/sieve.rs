//! The sieve: both sides sorted into buckets by a few key bits, so that a
//! bucket of the sliced side meets only the buckets of the other side that
//! hold none of its key bits. A pair clashing on a key bit is never
//! compared: a key bit held by a fraction p of one side and q of the other
//! rules out p q of the pairs, and k such bits about 1 - (1 - p q)^k. The
//! key takes the bits where p q is largest (counted on a sample of each
//! side), as many as make the least work by a simple model: more buckets
//! leave more blocks part empty, each paying for its tables, and sorting
//! costs a pass over both sides ([`Key::choose`]). The key bits are then
//! squeezed out of every pattern (they are known apart), so the count
//! needs fewer chunks as well; so are bits that one side never holds
//! (dead: no pair clashes on them, [`Key::without`]), as many as save a
//! chunk. A key pass of the widest boards leaves its key bits dead: whole
//! items of n = 26 took 0.86-0.92 of the time with them squeezed (AVX2,
//! AMD EPYC, one thread).
//!
//! Long lists gain: at n = 20 (sliced sides of 8,000 to 64,000 halves,
//! p q about 0.2 on the best bits; keys of 3 to 6 bits) the pair counting
//! takes about half the time it took without. At n = 18 (a few thousand)
//! it is even; below, keys are rare.

use std::cell::RefCell;

/// The most key bits: 4,096 buckets a side, two blocks each for a side
/// of four million patterns (the longest list a join glues). A whole item
/// of n = 26 (counted by key passes, `glue/keyed.rs`) took 25.0, 21.6,
/// 20.0 and 20.2 s with at most 8, 10, 12 and 13 (AVX2, AMD EPYC).
pub(super) const MOST_KEY_BITS: usize = 12;

// A pattern's bucket is kept in 16 bits while it is sorted.
const _: () = assert!(MOST_KEY_BITS <= 16);

/// Patterns of each side the key is chosen on.
const SAMPLE: usize = 256;

/// Lanes of a block, as the key's costs count them (AVX-512's; the
/// narrower paths pair two registers for as many).
const LANES: f64 = 512.0;

/// What building a block's tables costs, in patterns streamed past it:
/// about 10,000 operations (AVX-512, 40 bits) against 25 or so.
const TABLES: f64 = 400.0;

/// What sorting a pattern costs, in patterns streamed past a block: by
/// bit extraction and by the gathers.
const SORT_PEXT: f64 = 0.5;
const SORT_GATHERS: f64 = 3.0;

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

/// The bits patterns are sorted on, lowest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Key {
    mask: u64,
    /// Bits no pair can clash on, squeezed out with the key's
    /// ([`Key::without`]).
    dead: u64,
    /// The key's bits gathered: a pattern's bucket.
    value: Gather,
    /// The bits neither in the key nor dead, gathered: the pattern
    /// squeezed.
    rest: Gather,
}

impl Key {
    /// The key for counting `sliced` against `stream` (patterns of `bits`
    /// bits, the bits of `weights` never in a key), sorted by bit
    /// extraction if `pext`: none where the sliced side is too short to
    /// split.
    pub(super) fn choose(
        sliced: &[u64],
        stream: &[u64],
        (bits, weights): (usize, u64),
        pext: bool,
    ) -> Key {
        let lens = (sliced.len() as f64, stream.len() as f64);
        Key::choose_for((sliced, stream), lens, (bits, weights), pext)
    }

    /// [`Key::choose`] for sides of `lens` patterns like those of the
    /// samples `sliced` and `stream`.
    pub(super) fn choose_for(
        (sliced, stream): (&[u64], &[u64]),
        (sliced_len, stream_len): (f64, f64),
        (bits, weights): (usize, u64),
        pext: bool,
    ) -> Key {
        // Below two blocks nothing can gain.
        if sliced_len < 2.0 * LANES {
            return Key::of(0);
        }
        let ((a, a_sampled), (b, b_sampled)) = (held(sliced), held(stream));
        let mut candidates: Vec<(f64, usize)> = (0..bits.min(64))
            .filter(|&bit| weights >> bit & 1 == 0)
            .map(|bit| {
                (
                    f64::from(a[bit]) / a_sampled * f64::from(b[bit]) / b_sampled,
                    bit,
                )
            })
            .filter(|&(apart, _)| apart > 0.0)
            .collect();
        // The bits that rule out most pairs first; the lower among equals.
        candidates.sort_by(|x, y| y.0.total_cmp(&x.0).then(x.1.cmp(&y.1)));
        // The work of k key bits: the blocks' tables, the pairs that may
        // meet (the fraction left after each bit's, as if independent),
        // and the sorting; a bucket's last block is half empty on average.
        let sort_cost = if pext { SORT_PEXT } else { SORT_GATHERS };
        let mut best = ((sliced_len / LANES).ceil() * (TABLES + stream_len), 0);
        let mut left = 1.0;
        for (k, &(apart, _)) in candidates.iter().enumerate().take(MOST_KEY_BITS) {
            left *= 1.0 - apart;
            let blocks = sliced_len / LANES + f64::from(1u32 << k);
            let work =
                blocks * (TABLES + left * stream_len) + sort_cost * (sliced_len + stream_len);
            if work < best.0 {
                best = (work, k + 1);
            }
        }
        let mask = candidates[..best.1]
            .iter()
            .fold(0, |mask, &(_, bit)| mask | 1 << bit);
        Key::of(mask)
    }

    /// The key of the bits of `mask` (at most [`MOST_KEY_BITS`]).
    pub(super) fn of(mask: u64) -> Key {
        assert!(
            mask.count_ones() as usize <= MOST_KEY_BITS,
            "a key of {mask:#x}"
        );
        Key {
            mask,
            dead: 0,
            value: Gather::new(mask),
            rest: Gather::new(!mask),
        }
    }

    /// The key that also squeezes out the bits of `dead` (none of the
    /// key's): bits that one side never holds, so that no pair clashes
    /// on them, and no weight's. The count then needs fewer chunks. Key
    /// passes leave a pass's key bits dead (the outer side holds the
    /// value's, the inner side none of them, neither the others): the
    /// widest boards' items lose a chunk or two of the nine.
    pub(super) fn without(self, dead: u64) -> Key {
        debug_assert_eq!(self.mask & dead, 0, "a key bit {dead:#x} dead");
        Key {
            dead,
            rest: Gather::new(!(self.mask | dead)),
            ..self
        }
    }

    /// How many bits a squeezed pattern of `bits` bits keeps.
    pub(super) fn kept_bits(self, bits: usize) -> usize {
        (super::low_bits(bits) & !(self.mask | self.dead)).count_ones() as usize
    }

    /// Its bits.
    pub(super) fn mask(self) -> u64 {
        self.mask
    }

    /// How many bits it has.
    pub(super) fn len(self) -> usize {
        self.mask.count_ones() as usize
    }

    /// The key bits of `x`, the lowest key bit as bit 0.
    #[inline(always)]
    fn value(self, x: u64) -> usize {
        self.value.apply(x) as usize
    }

    /// `x` without its key bits, the bits above each moved down.
    #[inline(always)]
    fn squeeze(self, x: u64) -> u64 {
        self.rest.apply(x)
    }
}

/// What counting sides of `lens` patterns like the samples `sliced` and
/// `stream` through the sieve on `key` makes, in the units of
/// [`Key::choose`]'s costs: patterns streamed past a block, blocks' tables
/// ([`TABLES`] each) and patterns sorted ([`SORT_PEXT`] or
/// [`SORT_GATHERS`] each, as `pext` says). Buckets take the samples'
/// shares of each side (the sliced side's smoothed, below); a block holds
/// `lanes` patterns.
pub(super) fn work(
    key: Key,
    (sliced, stream): (&[u64], &[u64]),
    (sliced_len, stream_len): (f64, f64),
    lanes: f64,
    pext: bool,
) -> f64 {
    let buckets = 1usize << key.len();
    let held = |side: &[u64]| {
        let mut held = vec![0.0f64; buckets];
        for &x in side {
            held[key.value(x)] += 1.0;
        }
        held
    };
    let (a, mut b) = (held(sliced), held(stream));
    // b[m]: the stream's patterns in the buckets inside m (the subset
    // sums), so that bucket i meets b[!i].
    for bit in 0..key.len() {
        for m in 0..buckets {
            if m >> bit & 1 == 1 {
                b[m] += b[m ^ 1 << bit];
            }
        }
    }
    let per_b = stream_len / stream.len().max(1) as f64;
    // Each bucket of the sliced side pays a block's tables and a pass over
    // the stream's buckets it may pair with, for every block it fills or
    // starts. The sample sees fewer buckets than the side fills (its
    // patterns come from a few of the side's column splits): each bucket
    // is given one pattern more than the sample holds (Laplace's rule),
    // and a bucket expected to hold m < 1 patterns starts a block with
    // probability 1 - e^-m.
    let smoothed = sliced_len / (sliced.len() + buckets) as f64;
    let mut work = 0.0;
    for (i, &seen) in a.iter().enumerate() {
        let streamed = b[(buckets - 1) ^ i] * per_b;
        let held = (seen + 1.0) * smoothed;
        let blocks = match held >= 1.0 {
            true => (held / lanes).ceil(),
            false => 1.0 - (-held).exp(),
        };
        work += blocks * (TABLES + streamed);
    }
    if key.len() > 0 {
        let sort_cost = if pext { SORT_PEXT } else { SORT_GATHERS };
        work += sort_cost * (sliced_len + stream_len);
    }
    work
}

/// Runs of set bits a [`Gather`] moves, at most: a 64-bit mask has at
/// most 32 (a key's has at most [`MOST_KEY_BITS`], the bits around it one
/// more, and dead bits add their own).
const RUNS: usize = 32;

/// A mask's bits of a pattern moved to the bottom, in order: the software
/// twin of BMI2's `pext`, three operations for each run of adjacent bits
/// in the mask (a key of k bits has at most k runs, the bits around it at
/// most k + 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Gather {
    /// How far each run moves down (unused runs move nothing).
    shifts: [u32; RUNS],
    /// Where each run lands (unused runs: nowhere).
    masks: [u64; RUNS],
    /// How many runs it moves.
    used: usize,
}

impl Gather {
    /// The gather of the bits of `mask`, of at most [`RUNS`] runs.
    fn new(mask: u64) -> Gather {
        let (mut shifts, mut masks) = ([0; RUNS], [0; RUNS]);
        let (mut rest, mut landed, mut used) = (mask, 0, 0);
        for run in 0.. {
            if rest == 0 {
                break;
            }
            assert!(run < RUNS, "a mask {mask:#x} of more than {RUNS} runs");
            let start = rest.trailing_zeros();
            let length = (rest >> start).trailing_ones();
            let bits = u64::MAX >> (64 - length);
            shifts[run] = start - landed;
            masks[run] = bits << landed;
            rest &= !(bits << start);
            landed += length;
            used = run + 1;
        }
        Gather {
            shifts,
            masks,
            used,
        }
    }

    /// The gathered bits of `x`.
    #[inline(always)]
    fn apply(self, x: u64) -> u64 {
        self.apply_runs::<RUNS>(x)
    }

    /// [`Gather::apply`] for a gather of at most `R` runs: a loop of
    /// known length unrolls (a loop over the runs used does not, and
    /// sorted a third slower at n = 20).
    #[inline(always)]
    fn apply_runs<const R: usize>(self, x: u64) -> u64 {
        debug_assert!(self.used <= R && R <= RUNS);
        let mut gathered = 0;
        for run in 0..R {
            gathered |= x >> self.shifts[run] & self.masks[run];
        }
        gathered
    }
}

/// How many of (up to [`SAMPLE`] of) `side`'s patterns hold each bit,
/// and how many were looked at.
fn held(side: &[u64]) -> ([u32; 64], f64) {
    let (mut held, mut sampled) = ([0u32; 64], 0.0);
    for &x in side.iter().step_by(side.len().div_ceil(SAMPLE).max(1)) {
        let mut rest = x;
        while rest != 0 {
            held[rest.trailing_zeros() as usize] += 1;
            rest &= rest - 1;
        }
        sampled += 1.0;
    }
    (held, sampled)
}

/// Room for a side's bucket bounds: the most buckets and the end.
const BOUNDS: usize = (1 << MOST_KEY_BITS) + 1;
type Starts = [usize; BOUNDS];

/// Writes `patterns` into `sorted`, squeezed, bucket by bucket (by key
/// value, each worked out once into `values`); `starts[v]..starts[v + 1]`
/// is bucket v.
#[inline(always)]
fn sort_with(
    patterns: &[u64],
    buckets: usize,
    (value, squeeze): (impl Fn(u64) -> usize, impl Fn(u64) -> u64),
    values: &mut Vec<u16>,
    sorted: &mut Sorted,
) {
    debug_assert!(buckets <= 1 << MOST_KEY_BITS);
    // Every key value is below `buckets`: the mask changes none, and
    // lets the compiler see each index inside the fixed arrays (no
    // bounds checks in the two loops over the patterns).
    let inside = |v: usize| v & ((1 << MOST_KEY_BITS) - 1);
    sorted.buckets = buckets;
    let (starts, next) = (&mut *sorted.starts, &mut *sorted.next);
    starts[..=buckets].fill(0);
    values.clear();
    values.extend(patterns.iter().map(|&x| {
        let v = inside(value(x));
        starts[v + 1] += 1;
        v as u16
    }));
    for v in 0..buckets {
        starts[v + 1] += starts[v];
    }
    next[..buckets].copy_from_slice(&starts[..buckets]);
    let out = &mut sorted.patterns;
    out.clear();
    out.reserve(patterns.len());
    let slots = &mut out.spare_capacity_mut()[..patterns.len()];
    for (&x, &v) in patterns.iter().zip(values.iter()) {
        let v = inside(usize::from(v));
        let at = next[v];
        next[v] = at + 1;
        slots[at].write(squeeze(x));
    }
    // SAFETY: bucket v took slots starts[v]..starts[v + 1], as many as
    // its patterns, and the buckets cover 0..len: every slot was written.
    unsafe { out.set_len(patterns.len()) };
}

/// One side sorted on a key: the squeezed patterns, bucket by bucket
/// (`starts[v]..starts[v + 1]` is bucket v, for v below `buckets`;
/// `next`: scratch). The bounds sit in fixed arrays kept from sort to
/// sort: in Vecs, each pattern scattered loaded its bucket's next slot
/// twice and checked it against the Vec's length, and the scatter took
/// two thirds longer (`count 18`: 4.7 % of the whole; AVX-512, Intel
/// Xeon).
struct Sorted {
    patterns: Vec<u64>,
    starts: Box<Starts>,
    next: Box<Starts>,
    buckets: usize,
}

impl Default for Sorted {
    fn default() -> Sorted {
        Sorted {
            patterns: Vec::new(),
            starts: Box::new([0; BOUNDS]),
            next: Box::new([0; BOUNDS]),
            buckets: 0,
        }
    }
}

impl Sorted {
    /// Its buckets.
    fn buckets(&self) -> Buckets<'_> {
        Buckets {
            patterns: &self.patterns,
            starts: &self.starts[..=self.buckets],
        }
    }
}

/// A side sorted into buckets: `patterns[starts[v]..starts[v + 1]]` is
/// bucket v (a power of two of them). Bucket i of the sliced side meets
/// bucket j of the stream where `i & j == 0`.
#[derive(Clone, Copy, Debug)]
pub(super) struct Buckets<'a> {
    pub(super) patterns: &'a [u64],
    pub(super) starts: &'a [usize],
}

impl Buckets<'_> {
    /// How many buckets.
    pub(super) fn len(&self) -> usize {
        self.starts.len() - 1
    }

    /// Bucket `v`.
    fn bucket(&self, v: usize) -> &[u64] {
        &self.patterns[self.starts[v]..self.starts[v + 1]]
    }
}

/// `f` on `sliced` and `stream` as they are, a bucket each.
pub(super) fn whole<R>(
    (sliced, stream): (&[u64], &[u64]),
    f: impl FnOnce(Buckets, Buckets) -> R,
) -> R {
    let starts = ([0, sliced.len()], [0, stream.len()]);
    let a = Buckets {
        patterns: sliced,
        starts: &starts.0,
    };
    let b = Buckets {
        patterns: stream,
        starts: &starts.1,
    };
    f(a, b)
}

/// Each thread's sorted sides and key values, kept from call to call.
#[derive(Default)]
struct Scratch {
    sliced: Sorted,
    stream: Sorted,
    values: Vec<u16>,
    /// The other side's buckets one bucket meets.
    streams: Vec<(usize, usize)>,
}

/// Sorts `patterns` on `key` into `sorted`, by the gathers.
fn sort(key: Key, patterns: &[u64], values: &mut Vec<u16>, sorted: &mut Sorted) {
    // The gathers unrolled for as many runs as the key needs: most keys
    // have a few.
    match key.value.used.max(key.rest.used) {
        0..=5 => sort_runs::<5>(key, patterns, values, sorted),
        6..=9 => sort_runs::<9>(key, patterns, values, sorted),
        10..=16 => sort_runs::<16>(key, patterns, values, sorted),
        _ => sort_runs::<RUNS>(key, patterns, values, sorted),
    }
}

/// [`sort`] with gathers of at most `R` runs.
fn sort_runs<const R: usize>(
    key: Key,
    patterns: &[u64],
    values: &mut Vec<u16>,
    sorted: &mut Sorted,
) {
    let value = |x| key.value.apply_runs::<R>(x) as usize;
    let squeeze = |x| key.rest.apply_runs::<R>(x);
    sort_with(patterns, 1 << key.len(), (value, squeeze), values, sorted);
}

/// [`sort`] by BMI2's bit extraction, one instruction each way (only
/// where it is fast: every CPU with AVX-512 has it in hardware; some AVX2
/// ones run it in microcode, slower than the gathers).
///
/// # Safety
/// The CPU must have BMI2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2")]
unsafe fn sort_pext(key: Key, patterns: &[u64], values: &mut Vec<u16>, sorted: &mut Sorted) {
    use std::arch::x86_64::_pext_u64;
    let (mask, rest) = (key.mask, !(key.mask | key.dead));
    let by = (|x| _pext_u64(x, mask) as usize, |x| _pext_u64(x, rest));
    sort_with(patterns, 1 << key.len(), by, values, sorted);
}

/// Sorts `patterns` on `key` into `sorted`: by bit extraction where
/// `pext` says the CPU has it fast, else by the gathers.
fn sort_on(key: Key, pext: bool, patterns: &[u64], values: &mut Vec<u16>, sorted: &mut Sorted) {
    #[cfg(target_arch = "x86_64")]
    if pext {
        // SAFETY: the caller says the CPU has BMI2.
        return unsafe { sort_pext(key, patterns, values, sorted) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = pext; // no bit extraction off x86-64
    sort(key, patterns, values, sorted);
}

/// `f` on `sliced` and `stream` sorted on `key` and squeezed, and the
/// bits and weights of a squeezed pattern (`pext` as in [`count`]); a key
/// of no bit that squeezes none hands the sides as they are, a bucket
/// each.
pub(super) fn sorted<R>(
    key: Key,
    (sliced, stream): (&[u64], &[u64]),
    (bits, weights): (usize, u64),
    pext: bool,
    f: impl FnOnce(Buckets, Buckets, (usize, u64)) -> R,
) -> R {
    debug_assert_eq!((key.mask | key.dead) & weights, 0, "a weight bit squeezed");
    if key.mask | key.dead == 0 {
        return whole((sliced, stream), |a, b| f(a, b, (bits, weights)));
    }
    SCRATCH.with_borrow_mut(|scratch| {
        sort_on(key, pext, sliced, &mut scratch.values, &mut scratch.sliced);
        sort_on(key, pext, stream, &mut scratch.values, &mut scratch.stream);
        let squeezed = (key.kept_bits(bits), key.squeeze(weights));
        f(scratch.sliced.buckets(), scratch.stream.buckets(), squeezed)
    })
}

/// The pairs of `sliced` and `stream` with no common bit, each counted
/// 2^k times for the k bits of `weights` its `stream` pattern has, both
/// sides sorted on `key` (no bit of `weights`): `count` is called on each
/// bucket of the sliced side and the buckets of the other it may pair
/// with, on patterns of `bits - key.len()` bits. `pext`: whether the CPU
/// has BMI2 and it is fast.
pub(super) fn count(
    key: Key,
    (sliced, stream): (&[u64], &[u64]),
    (bits, weights): (usize, u64),
    pext: bool,
    count: impl Fn(&[u64], &[&[u64]], usize, u64) -> u64,
) -> u64 {
    debug_assert_eq!(key.mask & weights, 0, "a weight bit in the key");
    debug_assert_eq!(key.dead & weights, 0, "a weight bit dead");
    SCRATCH.with_borrow_mut(|scratch| {
        let Scratch {
            sliced: a,
            stream: b,
            values,
            streams: places,
        } = scratch;
        sort_on(key, pext, sliced, values, a);
        sort_on(key, pext, stream, values, b);
        let (bits, weights) = (key.kept_bits(bits), key.squeeze(weights));
        let (a, b) = (a.buckets(), b.buckets());
        let every = a.len() - 1;
        let mut total = 0;
        let mut streams: Vec<&[u64]> = Vec::new();
        for i in 0..=every {
            let part = a.bucket(i);
            if part.is_empty() {
                continue;
            }
            // The buckets j with i & j == 0: the subsets of !i, lowest
            // first.
            places.clear();
            let (outside, mut j) = (every & !i, 0usize);
            loop {
                let other = (b.starts[j], b.starts[j + 1]);
                if other.0 < other.1 {
                    places.push(other);
                }
                if j == outside {
                    break;
                }
                j = (j.wrapping_sub(outside)) & outside;
            }
            streams.clear();
            streams.extend(places.iter().map(|&(start, end)| &b.patterns[start..end]));
            total += count(part, &streams, bits, weights);
        }
        total
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn key(bits: &[u32]) -> Key {
        Key::of(bits.iter().fold(0, |mask, &bit| mask | 1 << bit))
    }

    proptest! {
        #[test]
        fn a_value_and_its_squeeze_give_the_pattern_back(
            x in any::<u64>(),
            bits in prop::collection::vec(0u32..64, 0..=MOST_KEY_BITS),
        ) {
            let key = key(&bits);
            let (value, squeezed) = (key.value(x), key.squeeze(x));
            // The squeezed bits spread back around the key's.
            let (mut back, mut rest, mut place) = (0u64, squeezed, 0);
            for bit in 0..64 {
                if key.mask >> bit & 1 == 1 {
                    back |= ((value >> place & 1) as u64) << bit;
                    place += 1;
                } else {
                    back |= (rest & 1) << bit;
                    rest >>= 1;
                }
            }
            prop_assert_eq!(back, x);
            prop_assert_eq!(rest, 0);
        }

        #[cfg(target_arch = "x86_64")]
        #[test]
        fn sorting_by_bit_extraction_is_sorting_by_the_gathers(
            patterns in prop::collection::vec(any::<u64>(), 0..300),
            bits in prop::collection::vec(0u32..64, 1..=MOST_KEY_BITS),
        ) {
            let test = "sorting_by_bit_extraction_is_sorting_by_the_gathers";
            let bmi2 = std::is_x86_feature_detected!("bmi2");
            if crate::engine::cpu::runs_or_skips(bmi2, test, "sieve's bit extraction", "BMI2") {
                let key = key(&bits);
                let (mut gathers, mut pext, mut values) = (Sorted::default(), Sorted::default(), Vec::new());
                sort(key, &patterns, &mut values, &mut gathers);
                // SAFETY: BMI2 was detected.
                unsafe { sort_pext(key, &patterns, &mut values, &mut pext) };
                prop_assert_eq!(gathers.buckets().starts, pext.buckets().starts);
                prop_assert_eq!(gathers.patterns, pext.patterns);
            }
        }
    }
}
