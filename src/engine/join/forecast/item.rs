//! What a pair item would take on this machine, found by doing a sample
//! of its work instead of all of it: the forecast of boards whose items
//! take minutes each (from n = 26), where no item can be timed whole
//! within a minute.
//!
//! An item's time is its halves' glue and its pair count. For each half
//! [`SPLITS`] of its column splits are drawn; each drawn split's two cells
//! are searched and placed as the count would, and [`UPPERS`] of its
//! upper quarters, spread evenly, are glued to as many of its lower ones.
//! That gives, scaled up, the half's length (the halves glued), the tests
//! the glue makes, and a sample of the half's patterns (drawn in
//! proportion to the halves each split stands for). The cells' and the
//! tests' seconds are clocked as they run. The pair count is counted
//! whole where both lists are short ([`SLICED_CAP`], [`STREAM_CAP`]: lists
//! of the sampled patterns, as long as the item's); longer ones gain more
//! from the pair counter's sieve and stream from further out in the
//! caches, so their work is worked out for the whole lengths
//! ([`pairs::work`]: the sieve's key and buckets from the samples) and
//! priced at this machine's seconds per unit of work, timed on lists of
//! the item's own patterns ([`CALIBRATION`]). Nothing is fitted on another
//! board or carried over from one.
//!
//! An item counted by key passes (`count/glue/keyed.rs`) has hundreds
//! of passes, and the pace above priced n = 27's at 1.6-3.5 times what
//! the count takes (results/2026-12-06-vm-sketch-pace): its pairs'
//! seconds come from one of its passes, drawn in proportion to the work
//! the samples give it and counted as the count counts it, lists glued
//! and all ([`Join::real_pass`]); its seconds over the chance of drawing
//! it are the item's in expectation, whatever the work's errors. Where a
//! pass would take longer than [`REAL_PASS_MOST`] at the pace, checked on
//! a smaller pass of the item's (n = 28's and 30's largest items; odd
//! boards' passes take an eighth of the pace's price), the work is priced
//! at the pace, as before. Its glue is timed the same way: the walks of
//! [`WALKED`] of the key's values, counted as the count counts
//! them but for their pairs, in the run that times the drawn pass (the
//! walks test each quarter's key signature and place only the quarters a
//! pass keeps, which no sample of halves prices).
//!
//! Checked against counting the same items whole (`fit::sketch_against_count`,
//! results/2026-12-02-vm-sketch): the sketches add up to 0.94, 0.985, 1.21
//! and 0.77 of the count's time at n = 24, 25, 26 and 27 (24, 16, 5 and 3
//! items); one item's sketch strays 0.25x to 1.7x. Items counted by key
//! passes are sketched pass by pass (`sketch_passes`), on the count's own
//! key ([`Join::sample_side`]): 1.064 at n = 26 and
//! 1.053 at 27 (8 and 3 units, results/2026-12-03-vm-sketch; with the
//! glue bounded from above instead, 1.49 and 1.54, -sketch-456dc57). Whole boards' sketches
//! come to 1.04-1.09 times the forecast from timing whole items at n = 22,
//! 24, 25 (results/2026-12-02-vm-sketch-boards).

use std::cell::Cell;
use std::time::Instant;

use super::board::Draws;
use crate::engine::join::count::frames::{Fold, Shape, Side};
use crate::engine::join::count::glue::keyed::{self, SideSample};
use crate::engine::join::count::glue::{Half, Lower, SLACK};
use crate::engine::join::count::items::Item;
use crate::engine::join::count::pairs;
use crate::engine::join::count::quarter::RowSet;
use crate::engine::join::Join;

/// Column splits drawn per half.
const SPLITS: usize = 64;

/// Upper quarters glued per drawn split, each to as many lower ones.
const UPPERS: usize = 128;
const LOWERS: usize = 128;

/// Frames of an odd board's group sketched per item (each glues an east
/// half of its own against the group's west half): the first, on which
/// the count chooses a key pass's key, and others drawn.
const FRAMES: usize = 2;

/// Patterns kept per half: enough to fill the pair counter's lists, and
/// a key pass's outer list with hundreds of its own (2^9 passes at
/// n = 28). With 2^15 (and 32 splits of 48 × 48 quarters) a pass's list
/// held dozens, and its pair count's work came out at 0.5-0.85x what
/// counting the item whole did (n = 28, two units,
/// results/2026-12-05-vm-sketch-work).
const KEPT: usize = 1 << 18;

/// Patterns kept per drawn split before they are weighed.
const PER_SPLIT: usize = 1 << 14;

/// Patterns of an inner side a key pass's sketch filters (a pass keeps
/// a large share of them).
const INNER_KEPT: usize = 1 << 15;

/// The longest sides whose pairs are counted at their own lengths
/// (milliseconds); longer ones are worked out ([`pairs::work`]).
pub(in crate::engine::join) const SLICED_CAP: usize = 1 << 17;
pub(in crate::engine::join) const STREAM_CAP: usize = 1 << 16;

/// The lists (sliced, streamed) a count's pace per unit of work is timed
/// on: a few blocks against a stream of 8 MB, and many blocks sieved
/// against a shorter one.
const CALIBRATION: [(usize, usize); 2] = [(1 << 13, 1 << 20), (1 << 17, 1 << 16)];

/// What `count` returns, its seconds added to `took`.
fn clocked(took: &Cell<f64>, count: impl FnOnce() -> u64) -> u64 {
    let clock = Instant::now();
    let counted = count();
    took.set(took.get() + clock.elapsed().as_secs_f64());
    counted
}

/// Key passes' values whose walks an item's sketch times, spread over
/// the key's values from a random start: every pass walks the outer side
/// and each of its lists an inner side, which the samples cannot price
/// (the walks test each quarter's key signature and place only those the
/// pass keeps), so the count's own walks are timed.
///
/// One value, drawn uniformly: an item's walks differ less from value to
/// value (0.31 of their mean, median over items, at n = 28 and 30) than
/// from item to item (0.79 and 0.38), so walking one value instead of four
/// adds 1-3 % of a forecast's spread, where four cost 4-60 s a unit at
/// n = 32 (each walk 2-16 s) and made `estimate 32` take 13 minutes on 2
/// threads (results/2026-12-07-vm-one-walk).
const WALKED: usize = 1;

/// What a run of an item's key passes, counted as the count counts them,
/// is timed for: one pass's pairs, the walks of some values' passes, or
/// both in one run (one setup).
#[derive(Clone, Copy, Debug, Default)]
pub(in crate::engine::join) struct Timing<'a> {
    /// The pass (value, frame) whose pairs are counted and timed; no other
    /// pass's pairs are counted.
    pub(in crate::engine::join) pairs: Option<(u64, usize)>,
    /// The values whose passes (every frame) are made and their walks
    /// timed: the glue of their lists, their pairs left out.
    pub(in crate::engine::join) walks: &'a [u64],
}

impl Timing<'_> {
    /// The pairs of pass `pass` alone.
    fn pairs(pass: (u64, usize)) -> Self {
        Timing {
            pairs: Some(pass),
            walks: &[],
        }
    }
}

/// What a timed run of key passes took.
#[derive(Clone, Copy, Debug, Default)]
pub(in crate::engine::join) struct Timed {
    /// The timed pass's pairs.
    pub(in crate::engine::join) pairs_s: f64,
    /// The item's setup before its passes: its sides sampled and their
    /// quarters' signatures worked out.
    pub(in crate::engine::join) setup_s: f64,
    /// The walks of the values walked, and how many there were (all of
    /// [`Timing::walks`] when its key is the count's).
    pub(in crate::engine::join) walks_s: f64,
    pub(in crate::engine::join) walked: usize,
}

/// Times a keyed count for a [`Timing`]: its pair counts go through
/// [`Clocks::pairs`] and its passes through [`Clocks::passes`], whose
/// first call marks the end of the item's setup. The count makes its
/// passes value by value (an odd board's frames within each), so a value's
/// time runs from its first call to the next value's.
struct Clocks<'a> {
    timing: Timing<'a>,
    began: Instant,
    setup: Cell<Option<Instant>>,
    /// The pass the count is making, and since when its value.
    making: Cell<Option<((u64, usize), Instant)>>,
    pairs_s: Cell<f64>,
    walks_s: Cell<f64>,
    /// The timed pairs within the walked values, left out of their walks.
    walked_pairs_s: Cell<f64>,
    walked: Cell<usize>,
}

impl<'a> Clocks<'a> {
    fn new(timing: Timing<'a>) -> Self {
        Clocks {
            timing,
            began: Instant::now(),
            setup: Cell::new(None),
            making: Cell::new(None),
            pairs_s: Cell::new(0.0),
            walks_s: Cell::new(0.0),
            walked_pairs_s: Cell::new(0.0),
            walked: Cell::new(0),
        }
    }

    /// A pair count of the pass being made: clocked where it is the timed
    /// pass, else left out.
    fn pairs(&self, count: impl FnOnce() -> u64) -> u64 {
        let making = self.making.get().map(|(pass, _)| pass);
        if making.is_none() || making != self.timing.pairs {
            return 0;
        }
        let before = self.pairs_s.get();
        let counted = clocked(&self.pairs_s, count);
        if making.is_some_and(|(value, _)| self.timing.walks.contains(&value)) {
            let took = self.pairs_s.get() - before;
            self.walked_pairs_s.set(self.walked_pairs_s.get() + took);
        }
        counted
    }

    /// Whether the count makes pass (value, frame).
    fn passes(&self, value: u64, frame: usize) -> bool {
        let now = Instant::now();
        if self.setup.get().is_none() {
            self.setup.set(Some(now));
        }
        let since = match self.making.get() {
            Some(((making, _), since)) if making == value => since,
            _ => {
                self.close(now);
                if self.timing.walks.contains(&value) {
                    self.walked.set(self.walked.get() + 1);
                }
                now
            }
        };
        self.making.set(Some(((value, frame), since)));
        self.timing.pairs == Some((value, frame)) || self.timing.walks.contains(&value)
    }

    /// The value being made is done at `now`: its time is its walks' if
    /// it is walked.
    fn close(&self, now: Instant) {
        if let Some(((value, _), since)) = self.making.get() {
            if self.timing.walks.contains(&value) {
                let took = (now - since).as_secs_f64();
                self.walks_s.set(self.walks_s.get() + took);
            }
        }
    }

    fn timed(&self) -> Timed {
        let end = Instant::now();
        self.close(end);
        let setup = self.setup.get().unwrap_or(end);
        Timed {
            pairs_s: self.pairs_s.get(),
            setup_s: (setup - self.began).as_secs_f64(),
            walks_s: (self.walks_s.get() - self.walked_pairs_s.get()).max(0.0),
            walked: self.walked.get(),
        }
    }
}

/// Runs an item's key passes for a [`Timing`].
pub(in crate::engine::join) type TimePasses<'a> = &'a mut dyn FnMut(Timing) -> Timed;

/// `len` of `half`'s sampled patterns, over and over (one at least).
fn list(half: &HalfSketch, len: usize) -> Vec<u64> {
    half.patterns
        .iter()
        .copied()
        .cycle()
        .take(len.max(1))
        .collect()
}

/// A half's work, estimated from a sample of it.
#[derive(Default)]
struct HalfSketch {
    /// Halves glued.
    halves: f64,
    /// Halves the splits may glue (the cells' sizes multiplied).
    bound: f64,
    /// Seconds the glue takes once: its cells (searched, where they are)
    /// and placed, and its tests.
    glue_s: f64,
    /// Of which: its row sets filled (once an item).
    filled_s: f64,
    /// A sample of its patterns.
    patterns: Vec<u64>,
    /// The count's own sample of it ([`Join::sample_side`]): what key
    /// passes choose their key and their outer side on.
    sampled: SideSample,
}

/// One pair item's estimated seconds on one thread: its glue and its
/// pair count.
#[derive(Clone, Copy, Debug, Default)]
pub(in crate::engine::join) struct ItemSketch {
    /// Seconds gluing halves (cells searched and placed included).
    pub glue_s: f64,
    /// Seconds counting pairs.
    pub pairs_s: f64,
    /// Pairs of halves compared.
    pub pairs: f64,
    /// Of an item counted by key passes: its pair seconds as the pace
    /// prices them ([`Join::pass_pace`]), beside `pairs_s` from a real
    /// pass timed (the checks write both).
    pub priced_pairs_s: f64,
}

impl ItemSketch {
    /// All its seconds.
    pub(in crate::engine::join) fn seconds(&self) -> f64 {
        self.glue_s + self.pairs_s
    }
}

impl Join {
    /// The estimated time of pair item `item` on one thread of this
    /// machine, from a sample of its work drawn by `draws`.
    pub(in crate::engine::join) fn sketch_item(
        &self,
        item: &Item,
        draws: &mut Draws,
    ) -> ItemSketch {
        // The item's own rows' row sets and the others', as the count
        // keeps them: both stay filled for a key pass timed whole.
        let (mut own_rows, mut other_rows) = Default::default();
        let frames = &self.frames[self.groups[item.group as usize].clone()];
        let first = &frames[0];
        let shape = first.shape;
        let rows = (u32::from(item.north), u32::from(item.south));
        let others = (first.north ^ rows.0, first.south ^ rows.1);
        let mut sketch = ItemSketch::default();
        if first.fold == Fold::MirrorAndFlip {
            let both = (first.forbidden, shape, 0);
            let east = self.sketch_rows(rows, (first.east, both), draws, &mut own_rows);
            let mut west = self.sketch_rows(others, (first.east, both), draws, &mut other_rows);
            // The west halves mirrored, as the count does.
            for p in west.patterns.iter_mut().chain(&mut west.sampled.patterns) {
                *p = shape.mirrored(*p);
            }
            let plain = first.forbidden != (0, 0) || !self.reflect;
            let long = match plain {
                true => 0,
                false => shape.long_diagonals(self.n),
            };
            if self.runs_of(east.bound) > 1.0 || self.runs_of(west.bound) > 1.0 {
                // Sides over a run: counted by key passes, one of them
                // timed as the count makes it.
                let east_half =
                    self.half(rows, first.east, both, (&mut own_rows.0, &mut own_rows.1));
                let west_half = self.half(
                    others,
                    first.east,
                    both,
                    (&mut other_rows.0, &mut other_rows.1),
                );
                let mut time_pass = |timing: Timing| {
                    let (clocks, pairs) = (Clocks::new(timing), self.mirror_pairs(plain, 2, shape));
                    let timed = |east: &mut [u64], west: &mut [u64], spare: &mut Vec<u64>| {
                        clocks.pairs(|| pairs(east, west, spare))
                    };
                    let mut lists = (Vec::new(), Vec::new(), Vec::new());
                    let lists = (&mut lists.0, &mut lists.1, &mut lists.2);
                    let halves = (&east_half, &west_half);
                    let scratch = &mut keyed::Scratch::default();
                    let passes = &|value, frame| clocks.passes(value, frame);
                    std::hint::black_box(self.count_keyed(
                        halves,
                        shape,
                        lists,
                        scratch,
                        (timed, passes),
                    ));
                    clocks.timed()
                };
                self.sketch_keyed(
                    (east, west),
                    (shape, long),
                    draws,
                    &mut time_pass,
                    &mut sketch,
                );
                return sketch;
            }
            sketch.glue_s = east.glue_s + west.glue_s;
            if plain {
                self.time_pairs(&east, &west, (shape, 0), &mut sketch);
            } else {
                for (clean, others) in [(&east, &west), (&west, &east)] {
                    let clean = clean.off(long);
                    self.time_pairs(&clean, others, (shape, long), &mut sketch);
                }
            }
            return sketch;
        }
        let keep_off = (first.west_forbidden, shape, 0);
        let west = self.sketch_rows(rows, (first.west, keep_off), draws, &mut own_rows);
        let west_runs = self.runs_of(west.bound);
        sketch.glue_s = west.glue_s;
        // The group's first frame, on whose east side the count chooses
        // its key, and FRAMES - 1 of the others (all, where there are no
        // more), each standing for its share of them.
        let rest = frames.len() - 1;
        let drawn = (FRAMES - 1).min(rest);
        let easts: Vec<Inner> = (0..=drawn)
            .map(|k| {
                let (frame, stands_for) = match k {
                    0 => (0, 1.0),
                    _ if drawn == rest => (k, 1.0),
                    _ => (1 + draws.below(rest), rest as f64 / drawn as f64),
                };
                let on = &frames[frame];
                let keep_off = (on.forbidden, shape, on.middle_row);
                let east = self.sketch_rows(others, (on.east, keep_off), draws, &mut other_rows);
                Inner {
                    sketch: east,
                    stands_for,
                    frame,
                }
            })
            .collect();
        if west_runs > 1.0 {
            // A west side over a run: counted by key passes, the west side
            // the outer, one of them timed as the count makes it.
            if !west.patterns.is_empty() {
                let west_half = self.half(
                    rows,
                    first.west,
                    keep_off,
                    (&mut own_rows.0, &mut own_rows.1),
                );
                let mut time_pass = |timing: Timing| {
                    let clocks = Clocks::new(timing);
                    let timed = |east: &[u64], west: &[u64]| {
                        clocks.pairs(|| pairs::count_on(self.counter(), east, west, shape.bits()))
                    };
                    let mut lists = (Vec::new(), Vec::new());
                    let scratch = &mut keyed::Scratch::default();
                    let passes = &|value, frame| clocks.passes(value, frame);
                    std::hint::black_box(self.count_keyed_frames(
                        &west_half,
                        (frames, others, shape),
                        (&mut other_rows.0, &mut other_rows.1),
                        (&mut lists.0, &mut lists.1),
                        scratch,
                        (timed, passes),
                    ));
                    clocks.timed()
                };
                let sides = (&west, &easts[..]);
                self.sketch_passes(sides, (shape, 0), (draws, &mut time_pass), &mut sketch);
            }
            return sketch;
        }
        for inner in &easts {
            let mut frame = ItemSketch::default();
            self.time_pairs(&inner.sketch, &west, (shape, 0), &mut frame);
            sketch.glue_s += inner.sketch.glue_s * inner.stands_for;
            sketch.pairs_s += frame.pairs_s * inner.stands_for;
            sketch.pairs += frame.pairs * inner.stands_for;
        }
        sketch
    }

    /// [`Join::sketch_half`] of the half on the rows `rows` and the side
    /// `side`, keeping off what `keep` says, with the seconds its row sets
    /// take to fill (where the join fills them).
    fn sketch_rows(
        &self,
        rows: (u32, u32),
        (side, keep): (Side, ((u64, u64), Shape, u64)),
        draws: &mut Draws,
        (upper, lower): &mut (RowSet, RowSet),
    ) -> HalfSketch {
        let clock = Instant::now();
        let half = self.half(rows, side, keep, (upper, lower));
        let filled_s = clock.elapsed().as_secs_f64();
        let mut sketch = self.sketch_half(&half, draws);
        sketch.glue_s += filled_s;
        sketch.filled_s = filled_s;
        sketch.sampled = self.sample_side(&half, &mut keyed::Scratch::default());
        sketch
    }

    /// [`LOWERS`] of `lower`'s quarters, spread evenly from a random
    /// start, into `few`; `None` if it has no more.
    fn spread_lowers<'a>(
        &self,
        lower: &Lower,
        few: &'a mut Lower,
        draws: &mut Draws,
    ) -> Option<&'a Lower> {
        let len = lower.sums.len();
        if len <= LOWERS {
            return None;
        }
        few.sums.clear();
        few.diffs.clear();
        few.patterns.clear();
        for j in draws.spread(len, LOWERS) {
            few.sums.push(lower.sums[j]);
            few.diffs.push(lower.diffs[j]);
            few.patterns.push(lower.patterns[j]);
        }
        Some(few)
    }

    /// How many runs a half of `bound` halves is glued in, about.
    fn runs_of(&self, bound: f64) -> f64 {
        (bound / self.run as f64).ceil().max(1.0)
    }

    /// A half's length, glue time and patterns, from [`SPLITS`] of its
    /// column splits and [`UPPERS`] upper quarters of each.
    fn sketch_half(&self, half: &Half, draws: &mut Draws) -> HalfSketch {
        let mut sketch = HalfSketch::default();
        let splits = half.splits;
        if splits.is_empty() {
            return sketch;
        }
        let drawn = SPLITS.min(splits.len());
        let per_split = splits.len() as f64 / drawn as f64;
        let (mut upper_cell, mut lower_cell) = (Vec::new(), Vec::new());
        let (mut lower, mut few) = (Lower::default(), Lower::default());
        let mut glued: Vec<u64> = Vec::new();
        // Where each split's patterns end, and how many halves each stands for.
        let mut stand_for: Vec<(usize, f64)> = Vec::new();
        let (mut tests, mut tested, mut tests_s) = (0.0, 0.0, 0.0);
        for k in 0..drawn {
            let split = match drawn == splits.len() {
                true => splits[k],
                false => splits[draws.below(splits.len())],
            };
            // A cell searched is searched once (its row set, counted,
            // gives its size): read or searched, its time is the glue's.
            let clock = Instant::now();
            let upper = half.uppers.cell(split, &mut upper_cell);
            let cell = half.lowers.cell(half.side.columns ^ split, &mut lower_cell);
            self.place_lowers(half, cell, &mut lower);
            sketch.glue_s += clock.elapsed().as_secs_f64() * per_split;
            sketch.bound += (upper.len() * cell.len()) as f64 * per_split;
            if upper.is_empty() || lower.sums.is_empty() {
                continue;
            }
            // Uppers spread evenly over the cell, from a random start, and
            // as many lowers: a sample of pairs spread over the split (the
            // pair counter's sieve sorts on bits of both quarters).
            let (kept_lowers, lowers) = (
                lower.sums.len(),
                self.spread_lowers(&lower, &mut few, draws),
            );
            let lowers = lowers.unwrap_or(&lower);
            let taken = UPPERS.min(upper.len());
            let per_upper = upper.len() as f64 / taken as f64 * per_split;
            let per_pair = per_upper * kept_lowers as f64 / lowers.sums.len() as f64;
            let clock = Instant::now();
            let before = glued.len();
            for i in draws.spread(upper.len(), taken) {
                if let Some(a) = self.place_upper(half, upper[i]) {
                    glued.reserve(lowers.sums.len() + SLACK);
                    self.pair_with(a, lowers.all(), &mut glued);
                    tests += kept_lowers as f64 * per_upper;
                    tested += lowers.sums.len() as f64;
                }
            }
            tests_s += clock.elapsed().as_secs_f64();
            let made = glued.len() - before;
            sketch.halves += made as f64 * per_pair;
            // At most PER_SPLIT of a split's patterns kept, evenly spread,
            // each standing for its share of the halves.
            if made > PER_SPLIT {
                let mut i = 0;
                let mut kept = before;
                while i < PER_SPLIT {
                    glued[kept] = glued[before + i * made / PER_SPLIT];
                    kept += 1;
                    i += 1;
                }
                glued.truncate(kept);
            }
            if made > 0 {
                let each = made as f64 * per_pair / (glued.len() - before) as f64;
                stand_for.push((glued.len(), each));
            }
        }
        // The tests' seconds, at the pace the sample's took.
        if tested > 0.0 {
            sketch.glue_s += tests_s / tested * tests;
        }
        sketch.patterns = keyed::weighed(&glued, &stand_for, KEPT);
        sketch
    }

    /// Times the pair count of `sliced` against `stream` (as long as the
    /// halves they sketch, cut at the caps, from their sampled patterns),
    /// scaled up to their whole lengths, into `sketch`.
    fn time_pairs(
        &self,
        sliced: &HalfSketch,
        stream: &HalfSketch,
        (shape, weights): (Shape, u64),
        sketch: &mut ItemSketch,
    ) {
        let pairs = sliced.halves * stream.halves;
        if pairs < 1.0 || sliced.patterns.is_empty() || stream.patterns.is_empty() {
            return;
        }
        let lens = (sliced.halves, stream.halves);
        let seconds = if lens.0 <= SLICED_CAP as f64 && lens.1 <= STREAM_CAP as f64 {
            // Short enough to count whole, at their own lengths.
            let round = |len: f64| len.round() as usize;
            let (a, b) = (list(sliced, round(lens.0)), list(stream, round(lens.1)));
            self.timed(&a, &b, (shape, weights))
        } else {
            // Longer lists gain more from the sieve (more key bits, fuller
            // buckets) and stream from further out in the caches: the
            // count's work is worked out for the whole lengths
            // ([`pairs::work`]), and timed per unit on lists of this
            // item's patterns.
            let samples = (&sliced.patterns[..], &stream.patterns[..]);
            self.seconds_per_work(sliced, stream, (shape, weights))
                * pairs::work_by_weight(self.simd, samples, lens, shape.bits(), weights)
        };
        sketch.pairs += pairs;
        sketch.pairs_s += seconds;
    }

    /// Seconds counting the pairs of `a` (sliced) and `b` take.
    fn timed(&self, a: &[u64], b: &[u64], (shape, weights): (Shape, u64)) -> f64 {
        let clock = Instant::now();
        let mut b = b.to_vec();
        let count = pairs::count_by_weight(
            pairs::Counter::cpu(self.simd),
            a,
            &mut b,
            shape.bits(),
            weights,
        );
        std::hint::black_box(count);
        clock.elapsed().as_secs_f64()
    }

    /// This machine's seconds per unit of [`pairs::work`] counting lists
    /// of `sliced`'s and `stream`'s sampled patterns: timed on a few
    /// blocks against a stream longer than the caches, and on many
    /// blocks sieved against a shorter one ([`CALIBRATION`]).
    fn seconds_per_work(
        &self,
        sliced: &HalfSketch,
        stream: &HalfSketch,
        (shape, weights): (Shape, u64),
    ) -> f64 {
        let (mut took, mut work) = (0.0, 0.0);
        for (a_len, b_len) in CALIBRATION {
            let (a, b) = (list(sliced, a_len), list(stream, b_len));
            took += self.timed(&a, &b, (shape, weights));
            let lens = (a.len() as f64, b.len() as f64);
            work += pairs::work_by_weight(self.simd, (&a, &b), lens, shape.bits(), weights);
        }
        took / work.max(1.0)
    }

    /// The glue and pairs of a mirror item whose sides outgrow a run,
    /// counted by key passes (`count/glue/keyed.rs`), from their sketches
    /// `east` and `west` (mirrored), into `sketch`: halves of `shape`,
    /// the long diagonals `long` folded in (none: plain pairs). The side
    /// its samples ([`HalfSketch::sampled`]) give fewer halves is the outer, as
    /// in the count. `time_pass` counts one pass as the count would, and
    /// says how long its pairs took.
    fn sketch_keyed(
        &self,
        (east, west): (HalfSketch, HalfSketch),
        (shape, long): (Shape, u64),
        draws: &mut Draws,
        time_pass: TimePasses,
        sketch: &mut ItemSketch,
    ) {
        if east.patterns.is_empty() || west.patterns.is_empty() {
            sketch.glue_s += east.glue_s + west.glue_s;
            return;
        }
        let (outer, inner) = match east.sampled.halves <= west.sampled.halves {
            true => (east, west),
            false => (west, east),
        };
        let inner = Inner {
            sketch: inner,
            stands_for: 1.0,
            frame: 0,
        };
        let sides = (&outer, std::slice::from_ref(&inner));
        self.sketch_passes(sides, (shape, long), (draws, time_pass), sketch);
    }

    /// Key passes of the `outer` side against each of the `inners`, from
    /// their sketches, into `sketch` (as [`Join::sketch_keyed`]).
    ///
    /// The key, its passes and each pass's lists are the count's, worked
    /// out on the sampled patterns: the outer side's share with each
    /// value (a short list where the sample has none, [`UNSEEN`]), an
    /// inner side's share without any of its bits, each pass's lists cut
    /// into runs; the work of each pass's pairs is
    /// [`pairs::work`] on those samples. The pairs' seconds: one pass,
    /// drawn in proportion to its work, counted as the count counts it
    /// (`time_pass`), its pair seconds over the chance of drawing it
    /// ([`REAL_PASS_MOST`]: else the work at this item's seconds per
    /// unit of it). The glue: the walks of [`WALKED`] of the key's values
    /// (spread from a random start), counted as the count counts them but
    /// for their pairs (`time_pass`), for all of the values; the item's setup (its sides
    /// sampled, their quarters' signatures worked out) once; row sets are
    /// filled once.
    fn sketch_passes(
        &self,
        (outer, inners): (&HalfSketch, &[Inner]),
        (shape, long): (Shape, u64),
        (draws, time_pass): (&mut Draws, TimePasses),
        sketch: &mut ItemSketch,
    ) {
        // The pace is timed against the first inner side with halves.
        let Some(timed) = inners
            .iter()
            .find(|inner| !inner.sketch.patterns.is_empty())
        else {
            sketch.glue_s += outer.glue_s;
            return;
        };
        // The count's key, chosen on its own samples: the outer side's and
        // the first inner side's (an odd board's: its group's first frame).
        let bits = keyed::key_bits(outer.sampled.halves, self.run);
        let key = keyed::choose_key(
            &outer.sampled.patterns,
            &inners[0].sketch.sampled.patterns,
            shape.bits(),
            bits,
        );
        let most = self.run as f64;
        let rate = self.pass_pace((outer, &timed.sketch), key, (shape, long));
        // A pass keeps a 2^-bits share of the outer side's sample (hence
        // its width: a pass's pair count chooses its sieve's key on its
        // own lists, and on a few dozen sampled patterns that choice
        // looks better than it is) and a large share of each inner side's,
        // thinned to INNER_KEPT. The outer sample sorted by key value.
        let mut by_value: Vec<(u64, u64)> = outer.patterns.iter().map(|&x| (x & key, x)).collect();
        by_value.sort_unstable();
        let thinned: Vec<(&Inner, Vec<u64>)> = inners
            .iter()
            .map(|inner| {
                let patterns = &inner.sketch.patterns;
                let step = patterns.len().div_ceil(INNER_KEPT).max(1);
                (inner, patterns.iter().copied().step_by(step).collect())
            })
            .collect();
        // Every pass (value, inner side) and its work, empty ones too.
        let mut passes: Vec<Pass> = Vec::new();
        for v in 0..1u64 << key.count_ones() {
            let value = keyed::deposit(v, key);
            let from = by_value.partition_point(|&(held, _)| held < value);
            let to = by_value.partition_point(|&(held, _)| held <= value);
            let mut outer_v: Vec<u64> = by_value[from..to].iter().map(|&(_, x)| x).collect();
            let each = outer.halves / outer.patterns.len() as f64;
            let mut outer_len = each * outer_v.len() as f64;
            if outer_v.is_empty() && each > 1.0 {
                // A value the sample missed may still hold a short list
                // in the count ([`UNSEEN`]), which walks and streams the
                // whole of each inner side it keeps: priced as one
                // pattern (the value's own bits) of that length.
                outer_v.push(value);
                outer_len = each * UNSEEN;
            }
            let outer_lists = (outer_len / most).ceil();
            for (inner, thin) in &thinned {
                let mut pass = Pass {
                    value,
                    frame: inner.frame,
                    stands_for: inner.stands_for,
                    work: 0.0,
                };
                let (inner, scale) = (&inner.sketch, inner.stands_for);
                if outer_v.is_empty() || inner.patterns.is_empty() {
                    passes.push(pass);
                    continue;
                }
                let inner_v: Vec<u64> = thin.iter().copied().filter(|&x| x & value == 0).collect();
                let kept = inner_v.len() as f64 / thin.len() as f64;
                if inner_v.is_empty() {
                    passes.push(pass);
                    continue;
                }
                let inner_len = inner.halves * kept;
                let inner_lists = (inner_len / most).ceil();
                let each = (outer_len / outer_lists, inner_len / inner_lists);
                let calls = outer_lists * inner_lists * scale;
                sketch.pairs += outer_len * inner_len * scale;
                pass.work = calls * self.pass_work((&outer_v, &inner_v), each, (shape, long));
                passes.push(pass);
            }
        }
        let filled: f64 = inners
            .iter()
            .map(|i| i.sketch.filled_s * i.stands_for)
            .sum();
        let work: f64 = passes.iter().map(|pass| pass.work).sum();
        sketch.priced_pairs_s = rate * work;
        // The walks timed in the first run that counts a pass's pairs (one
        // setup for both), else alone.
        let values = 1usize << key.count_ones();
        let walked: Vec<u64> = draws
            .spread(values, WALKED.min(values))
            .map(|v| keyed::deposit(v as u64, key))
            .collect();
        let mut walks = None;
        let mut timed_with_walks = |timing: Timing| {
            let walks_too = Timing {
                walks: &walked,
                ..timing
            };
            match walks {
                Some(_) => time_pass(timing),
                None => *walks.insert(time_pass(walks_too)),
            }
        };
        sketch.pairs_s = self.real_pass(&passes, rate, draws, &mut timed_with_walks);
        let walks = walks.unwrap_or_else(|| {
            time_pass(Timing {
                pairs: None,
                walks: &walked,
            })
        });
        debug_assert_eq!(
            walks.walked,
            walked.len(),
            "the count's key is the sketch's"
        );
        let walks_s = walks.walks_s / walks.walked.max(1) as f64 * values as f64;
        sketch.glue_s += walks.setup_s + walks_s + outer.filled_s + filled;
    }

    /// [`pairs::work_by_weight`] of one key pass's pair count on lists of
    /// `each` patterns like the samples `outer` and `inner`: plain pairs,
    /// or (the long diagonals `long` folded in) both ways round, the
    /// clean halves of one against the other.
    fn pass_work(
        &self,
        (outer, inner): (&[u64], &[u64]),
        each: (f64, f64),
        (shape, long): (Shape, u64),
    ) -> f64 {
        if long == 0 {
            return pairs::work_by_weight(self.simd, (outer, inner), each, shape.bits(), 0);
        }
        let sides = [(outer, inner, each), (inner, outer, (each.1, each.0))];
        let mut work = 0.0;
        for (a, b, lens) in sides {
            let clean: Vec<u64> = a.iter().copied().filter(|&x| x & long == 0).collect();
            if clean.is_empty() {
                continue;
            }
            let lens = (lens.0 * clean.len() as f64 / a.len() as f64, lens.1);
            work += pairs::work_by_weight(self.simd, (&clean, b), lens, shape.bits(), long);
        }
        work
    }

    /// An item's pair seconds from one of its key `passes`, drawn by
    /// `draws` in proportion to its work (and a floor, so that a pass the
    /// samples saw empty may still be drawn) and counted by `time_pass`:
    /// its seconds times its share of the inner sides over the chance of
    /// drawing it, the sum of the item's passes' seconds in expectation
    /// (whatever the work's errors, which only make the estimate
    /// noisier). Where the pass drawn would take more than
    /// [`REAL_PASS_MOST`] on average at `rate` (seconds per unit of
    /// work), the rate is checked first on a pass it prices at most
    /// [`PROBE_MOST`] ([`Join::pace_checked`]; odd boards' passes take an
    /// eighth of their price), and where it still would, all the passes'
    /// work at that rate instead.
    fn real_pass(
        &self,
        passes: &[Pass],
        rate: f64,
        draws: &mut Draws,
        time_pass: TimePasses,
    ) -> f64 {
        let work: f64 = passes.iter().map(|pass| pass.work).sum();
        if work <= 0.0 {
            return 0.0;
        }
        let floor = FLOOR * work / passes.len() as f64;
        let chance = |pass: &Pass| (pass.work + floor) / (work * (1.0 + FLOOR));
        let drawn_s: f64 = passes
            .iter()
            .map(|pass| chance(pass) * rate * pass.work)
            .sum();
        if drawn_s > REAL_PASS_MOST
            && drawn_s * self.pace_checked(passes, rate, time_pass) > REAL_PASS_MOST
        {
            return rate * work;
        }
        let mut left = draws.fraction();
        let drawn = passes
            .iter()
            .find(|&pass| {
                left -= chance(pass);
                left < 0.0
            })
            .unwrap_or(&passes[passes.len() - 1]);
        time_pass(Timing::pairs((drawn.value, drawn.frame))).pairs_s * drawn.stands_for
            / chance(drawn)
    }

    /// The seconds a pass takes over what `rate` prices it at, on the
    /// item's largest pass priced between [`PROBE_LEAST`] and
    /// [`PROBE_MOST`], counted by `time_pass` (1 where there is none).
    ///
    /// It only decides whether the drawn pass is counted (which pass that
    /// is, and its estimate, do not depend on it): on even boards the
    /// rate prices key passes about right (n = 28: their real seconds
    /// 0.93 of the price, n = 30: 0.89), on odd ones at about eight
    /// times what they take (n = 27: 0.13, 29: 0.12, 31: 0.13; Intel
    /// Xeon, AVX-512), which left n = 29's and 31's largest items priced
    /// at the rate where a pass took a tenth of a second.
    fn pace_checked(&self, passes: &[Pass], rate: f64, time_pass: TimePasses) -> f64 {
        let priced = |pass: &Pass| rate * pass.work;
        let probe = passes
            .iter()
            .filter(|&pass| (PROBE_LEAST..=PROBE_MOST).contains(&priced(pass)))
            .max_by(|a, b| a.work.total_cmp(&b.work));
        match probe {
            None => 1.0,
            Some(pass) => {
                time_pass(Timing::pairs((pass.value, pass.frame))).pairs_s * pass.stands_for
                    / priced(pass)
            }
        }
    }
}

/// One key pass of an item's sketch: the outer side's value, the inner
/// side's frame, the share of the item's inner sides that frame stands
/// for, and the work of its pairs (that share included).
struct Pass {
    value: u64,
    frame: usize,
    stands_for: f64,
    work: f64,
}

/// An inner side of a key pass's sketch: its halves' sketch, the share of
/// the item's inner sides it stands for (an odd board's frames), and
/// which frame of its group it is.
struct Inner {
    sketch: HalfSketch,
    stands_for: f64,
    frame: usize,
}

/// The share of draws spread evenly over a key item's passes (the rest
/// follows their work).
const FLOOR: f64 = 0.1;

/// The sampled patterns a key value the outer side's sample missed is
/// taken to hold (its list, of that many patterns' halves, is short):
/// priced at nothing, such passes were drawn only by [`FLOOR`], at
/// chances near 2 × 10^-4, yet those with few key bits keep nearly all
/// of the inner side and stream it whole. At n = 28 (unit 32132238, 512
/// passes, Intel Xeon) 17 such passes took 12.1 s of the item's 85.7 s of
/// pairs, the one for value 0 alone 2.9 s: drawn, it made the item's
/// sketch 16,300 s where others came to about 100 s. Priced as half a
/// sampled pattern, the passes' prices add up to 0.93 of their times
/// (0.88 before), and one pass drawn by them strays by 0.62 of the
/// item's pairs, where it strayed by 3.4.
const UNSEEN: f64 = 0.5;

/// The longest pass a sketch counts, on average over its draws (seconds
/// at the pace): n = 27's drawn passes take hundredths of a second (the
/// pace prices them at 0.003-0.3), n = 28's tenths to a second and more
/// (priced at 0.1-2.2; Intel Xeon, AVX-512), so the sketch of an item
/// stays within a few times its glue's.
const REAL_PASS_MOST: f64 = 0.5;

/// The most a pass that checks the pace may cost at it (seconds): a
/// hundred milliseconds of pairs beside the pass's glue, paid only by
/// items whose drawn pass the pace prices past [`REAL_PASS_MOST`].
const PROBE_MOST: f64 = 0.1;

/// The least (seconds): shorter passes' clocks say more about the call
/// than about the pace.
const PROBE_LEAST: f64 = 0.005;

impl Join {
    /// This machine's seconds per unit of [`pairs::work`] in a key pass
    /// of `outer` against `inner` on `key`: timed on the lists of the
    /// value that keeps the most of the outer side's sample clear of the
    /// long diagonals `long` (the halves the timing slices), where the
    /// key's bits are dead, as in every pass (the count squeezes them
    /// out: fewer chunks than both whole sides would take).
    fn pass_pace(
        &self,
        (outer, inner): (&HalfSketch, &HalfSketch),
        key: u64,
        (shape, long): (Shape, u64),
    ) -> f64 {
        let clear = outer.off(long);
        let mut kept = std::collections::BTreeMap::new();
        for &x in &clear.patterns {
            *kept.entry(x & key).or_insert(0usize) += 1;
        }
        let pass = |half: &HalfSketch, keep: &dyn Fn(u64) -> bool| HalfSketch {
            patterns: half.patterns.iter().copied().filter(|&x| keep(x)).collect(),
            ..HalfSketch::default()
        };
        let timed = kept
            .into_iter()
            .max_by_key(|&(_, kept)| kept)
            .map(|(value, _)| {
                (
                    pass(&clear, &|x| x & key == value),
                    pass(inner, &|x| x & value == 0),
                )
            });
        // A list with nothing in it times nothing (one unit of work at
        // the price of a call): the whole sides then, as before key
        // passes, and unweighted where no outer half is clear.
        match timed {
            Some((a, b)) if !a.patterns.is_empty() && !b.patterns.is_empty() => {
                self.seconds_per_work(&a, &b, (shape, long))
            }
            _ if !clear.patterns.is_empty() => self.seconds_per_work(&clear, inner, (shape, long)),
            _ => self.seconds_per_work(outer, inner, (shape, 0)),
        }
    }
}

impl HalfSketch {
    /// The part of the half whose patterns keep off `bits`.
    fn off(&self, bits: u64) -> HalfSketch {
        let patterns: Vec<u64> = self
            .patterns
            .iter()
            .copied()
            .filter(|p| p & bits == 0)
            .collect();
        let share = patterns.len() as f64 / self.patterns.len().max(1) as f64;
        HalfSketch {
            halves: self.halves * share,
            bound: self.bound,
            patterns,
            ..HalfSketch::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A pass whose timed list would be empty (every sampled outer half
    /// of the chosen value on a long diagonal) is timed on the whole
    /// sides instead: an empty list times a call for one unit of work,
    /// and priced every pair of n = 26 at 10^5 times its cost.
    #[test]
    fn a_pass_pace_is_timed_on_halves_not_on_empty_lists() {
        let join = Join::new(16, Join::fastest(), u64::MAX).unwrap();
        let shape = join.frames[0].shape;
        let (long, key) = (1u64, 0b110);
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed & (u64::MAX >> (64 - shape.bits()))
        };
        let sketch = |patterns| HalfSketch {
            patterns,
            ..HalfSketch::default()
        };
        let outer = sketch((0..300).map(|_| next() & next() | long).collect());
        let inner = sketch((0..300).map(|_| next() & next() & !long).collect());
        let each = join.pass_pace((&outer, &inner), key, (shape, long));
        let whole = join.seconds_per_work(&outer, &inner, (shape, 0));
        assert!(
            each > 0.0 && each < 100.0 * whole,
            "{each} s a unit against {whole}"
        );
    }

    /// A pass's pair seconds as `time_pass` gives them, from `seconds`.
    fn pairs_timed(mut seconds: impl FnMut((u64, usize)) -> f64) -> impl FnMut(Timing) -> Timed {
        move |timing| match timing {
            Timing {
                pairs: Some(pass), ..
            } => Timed {
                pairs_s: seconds(pass),
                ..Timed::default()
            },
            Timing { pairs: None, .. } => Timed::default(),
        }
    }

    /// One pass drawn in proportion to its work and counted, over the
    /// chance of drawing it, averages to the sum of every pass's seconds
    /// (each times the share it stands for), however badly the work
    /// foretells them: passes whose work is nil included.
    #[test]
    fn a_pass_drawn_by_its_work_averages_to_all_the_passes() {
        let join = Join::new(16, Join::fastest(), u64::MAX).unwrap();
        let passes: Vec<Pass> = (0..40u64)
            .map(|value| Pass {
                value,
                frame: (value % 3) as usize,
                stands_for: [1.0, 4.0, 2.5][(value % 3) as usize],
                work: [0.0, 1.0, 30.0, 7.0, 0.0][(value % 5) as usize] * 1e6,
            })
            .collect();
        // Seconds that follow neither the work nor the value's order.
        let seconds =
            |(value, frame): (u64, usize)| ((value * 7 + 3) % 11) as f64 * 0.01 + frame as f64;
        let all: f64 = passes
            .iter()
            .map(|p| seconds((p.value, p.frame)) * p.stands_for)
            .sum();
        let mut draws = Draws::new(7);
        let (tries, mut sum) = (200_000, 0.0);
        for _ in 0..tries {
            sum += join.real_pass(&passes, 1e-12, &mut draws, &mut pairs_timed(seconds));
        }
        let mean = sum / f64::from(tries);
        assert!((mean / all - 1.0).abs() < 0.02, "{mean} against {all}");
        // A pass the pace prices past REAL_PASS_MOST is not counted.
        let priced = join.real_pass(&passes, 1.0, &mut draws, &mut |_| panic!("counted"));
        assert_eq!(priced, 1.0 * passes.iter().map(|p| p.work).sum::<f64>());
    }

    /// Where the pace prices the drawn pass past [`REAL_PASS_MOST`], a
    /// pass it prices under [`PROBE_MOST`] is counted first: where that
    /// pass takes its price, the item is priced; where it takes a
    /// hundredth of it, the drawn pass is counted too.
    #[test]
    fn a_pace_that_small_passes_find_too_dear_lets_the_drawn_pass_be_counted() {
        let join = Join::new(16, Join::fastest(), u64::MAX).unwrap();
        let rate = 1e-6;
        // A pass priced at 0.05 s and three at 10 s.
        let passes: Vec<Pass> = [5e4, 1e7, 1e7, 1e7]
            .into_iter()
            .enumerate()
            .map(|(value, work)| Pass {
                value: value as u64,
                frame: 0,
                stands_for: 1.0,
                work,
            })
            .collect();
        let all = rate * passes.iter().map(|p| p.work).sum::<f64>();
        let mut draws = Draws::new(5);
        for (share, counted_passes) in [(1.0, 1), (0.01, 2)] {
            let mut counted = Vec::new();
            let seconds = join.real_pass(
                &passes,
                rate,
                &mut draws,
                &mut pairs_timed(|pass| {
                    counted.push(pass);
                    share * rate * passes[pass.0 as usize].work
                }),
            );
            assert_eq!(counted.len(), counted_passes, "{share}: {counted:?}");
            assert_eq!(counted[0], (0, 0), "the probe first");
            match counted_passes {
                1 => assert_eq!(seconds, all),
                _ => assert!(seconds > 0.0 && seconds < 0.05 * all, "{seconds} of {all}"),
            }
        }
    }

    /// An item counted by key passes has its walks timed on the count's
    /// own key: every value `sketch_passes` draws to walk is a pass the
    /// count makes (its debug assertion), on even boards and odd (boards cut
    /// into runs of 40 halves, so that most items make key passes).
    #[test]
    fn key_pass_items_have_their_walks_timed_on_the_count_s_key() {
        for n in [13, 14] {
            let mut join = Join::new(n, Join::fastest(), u64::MAX).unwrap();
            join.run = 40;
            let mut draws = Draws::new(3);
            let mut sketched = 0;
            for unit in (0..join.order.units()).step_by(7) {
                let Some(item) = join.order.pair_unit(unit) else {
                    continue;
                };
                let sketch = join.sketch_item(&item, &mut draws);
                assert!(sketch.glue_s >= 0.0 && sketch.pairs_s >= 0.0, "{sketch:?}");
                sketched += 1;
            }
            assert!(sketched > 10, "n = {n}: {sketched} items");
        }
    }

    /// Where a half has no more splits than are drawn and no cell more
    /// upper quarters than are glued, the sketch glues all of it: its
    /// length is the list's, exactly.
    #[test]
    fn a_sketch_of_a_small_half_glues_all_of_it() {
        for n in [10, 11, 12, 13] {
            let join = Join::new(n, Join::fastest(), u64::MAX).unwrap();
            let mut draws = Draws::new(1);
            let (mut rows, mut cells, mut lower) = (
                (RowSet::default(), RowSet::default()),
                [Vec::new(), Vec::new()],
                Lower::default(),
            );
            let mut halves = 0;
            for unit in 0..join.order.units() {
                let Some(item) = join.order.pair_unit(unit) else {
                    continue;
                };
                let first = join.frames[join.groups[item.group as usize].start];
                let rows_of = (u32::from(item.north), u32::from(item.south));
                let others = (first.north ^ rows_of.0, first.south ^ rows_of.1);
                let keep = (first.forbidden, first.shape, first.middle_row);
                for (on, side) in [
                    (rows_of, first.east),
                    (others, first.east),
                    (rows_of, first.west),
                ] {
                    let whole = {
                        let half = join.half(on, side, keep, (&mut rows.0, &mut rows.1));
                        assert!(half.splits.len() <= SPLITS, "n = {n}");
                        let mut runs = Vec::new();
                        half.runs(u64::MAX, &mut runs);
                        let mut list = Vec::new();
                        for run in &runs {
                            join.glue(&half, run, (&mut lower, &mut cells), &mut list);
                        }
                        list.len()
                    };
                    let sketch = join.sketch_rows(on, (side, keep), &mut draws, &mut rows);
                    assert_eq!(sketch.halves, whole as f64, "n = {n}, {item:?}");
                    assert_eq!(sketch.patterns.len(), whole.min(KEPT));
                    halves += whole;
                }
            }
            assert!(halves > 0, "n = {n}");
        }
    }
}
