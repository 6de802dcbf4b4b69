//! A pair job cut into the shader's tasks (`pairs.wgsl`): both sides are
//! in the sieve's buckets, bucket i of the sliced side meeting the
//! stream's buckets j with `i & j == 0`. A task is a tile of at most
//! [`TILE`] patterns of one sliced bucket against a run of stream ranges
//! (those buckets, adjacent ones merged, long ones cut) of at most
//! [`STRETCH`] patterns in all: a workgroup builds the tile's tables once
//! and streams the run past them, and its u32 sum stays bounded (see the
//! shader). Tasks go in dispatches of at most a given number of tasks and
//! [`MOST_RANGES`] ranges, each dispatch listing the ranges its tasks
//! read.

use super::super::sieve::Buckets;

/// Sliced patterns a task takes (`TILE` in `pairs.wgsl`).
pub(super) const TILE: usize = 256;

/// Stream patterns a task takes at most: a workgroup's stretch.
pub(super) const STRETCH: usize = 16384;

/// The most ranges a dispatch lists (2 MiB). One sliced bucket needs at
/// most one per stream bucket (4,096) and one per stretch of the stream
/// (128 for the longest side a job sends, `GPU_SIDE_MOST`).
pub(super) const MOST_RANGES: usize = 1 << 18;

/// A task as the shader reads it: the tile's first pattern and length,
/// then its ranges `first..end` in the dispatch's list.
pub(super) type Task = [u32; 4];

/// A range of the stream: its first pattern and the one past its last.
pub(super) type Range = [u32; 2];

/// One dispatch: its tasks and the ranges they read.
#[derive(Debug, Default)]
pub(super) struct Dispatch {
    pub(super) tasks: Vec<Task>,
    pub(super) ranges: Vec<Range>,
}

impl Dispatch {
    fn clear(&mut self) {
        self.tasks.clear();
        self.ranges.clear();
    }
}

/// Cuts counting `sliced` against `stream` into tasks, and calls
/// `dispatch` on each dispatch of at most `most_tasks` tasks in turn.
///
/// # Panics
/// If a side holds 2^32 patterns or more.
pub(super) fn plan(
    sliced: Buckets,
    stream: Buckets,
    most_tasks: usize,
    mut dispatch: impl FnMut(&Dispatch),
) {
    assert!(most_tasks > 0);
    let fits = |side: Buckets| u32::try_from(side.patterns.len()).is_ok();
    assert!(fits(sliced) && fits(stream), "a side of 2^32 patterns");
    assert_eq!(sliced.len(), stream.len(), "sides sorted on different keys");
    let every = sliced.len() - 1;
    let mut now = Dispatch::default();
    // The current sliced bucket's ranges and its runs of them
    // (`first..end`), each of at most STRETCH patterns.
    let (mut own, mut runs) = (Vec::<Range>::new(), Vec::<(usize, usize)>::new());
    for i in 0..=every {
        let (start, end) = (sliced.starts[i], sliced.starts[i + 1]);
        if start == end {
            continue;
        }
        ranges_met(stream, every & !i, &mut own);
        if own.is_empty() {
            continue;
        }
        runs_of(&own, &mut runs);
        assert!(
            own.len() <= MOST_RANGES,
            "{} ranges for a bucket",
            own.len()
        );
        if now.ranges.len() + own.len() > MOST_RANGES {
            dispatch(&now);
            now.clear();
        }
        let mut base = now.ranges.len();
        now.ranges.extend_from_slice(&own);
        for tile in (start..end).step_by(TILE) {
            let tile_len = TILE.min(end - tile);
            for &(first, last) in &runs {
                if now.tasks.len() == most_tasks {
                    dispatch(&now);
                    now.clear();
                    base = 0;
                    now.ranges.extend_from_slice(&own);
                }
                now.tasks.push([
                    tile as u32,
                    tile_len as u32,
                    (base + first) as u32,
                    (base + last) as u32,
                ]);
            }
        }
    }
    if !now.tasks.is_empty() {
        dispatch(&now);
    }
}

/// The nonempty buckets of `stream` inside `outside` (the subsets of the
/// bits a sliced bucket lacks, lowest first) as ranges, into `ranges`:
/// adjacent ones merged, then each cut into pieces of at most
/// [`STRETCH`].
fn ranges_met(stream: Buckets, outside: usize, ranges: &mut Vec<Range>) {
    ranges.clear();
    let mut merged: Option<(usize, usize)> = None;
    let push = |(start, end): (usize, usize), ranges: &mut Vec<Range>| {
        for piece in (start..end).step_by(STRETCH) {
            ranges.push([piece as u32, end.min(piece + STRETCH) as u32]);
        }
    };
    let mut j = 0usize;
    loop {
        let (start, end) = (stream.starts[j], stream.starts[j + 1]);
        if start < end {
            merged = match merged {
                Some((first, last)) if last == start => Some((first, end)),
                Some(done) => {
                    push(done, ranges);
                    Some((start, end))
                }
                None => Some((start, end)),
            };
        }
        if j == outside {
            break;
        }
        j = j.wrapping_sub(outside) & outside;
    }
    if let Some(done) = merged {
        push(done, ranges);
    }
}

/// `ranges` cut into runs `first..end` of consecutive ranges of at most
/// [`STRETCH`] patterns in all, into `runs` (each range holds at most
/// that many).
fn runs_of(ranges: &[Range], runs: &mut Vec<(usize, usize)>) {
    runs.clear();
    let (mut first, mut held) = (0, 0);
    for (r, &[start, end]) in ranges.iter().enumerate() {
        let len = (end - start) as usize;
        if held + len > STRETCH {
            runs.push((first, r));
            (first, held) = (r, 0);
        }
        held += len;
    }
    if first < ranges.len() {
        runs.push((first, ranges.len()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Buckets of the sizes `sizes` (patterns unused: the plan reads
    /// only the starts).
    fn starts(sizes: &[usize]) -> Vec<usize> {
        let mut starts = vec![0];
        for &size in sizes {
            starts.push(starts.last().unwrap() + size);
        }
        starts
    }

    /// How often the plan has each pattern `x` of the sliced side meet
    /// each pattern `y` of the stream, in every dispatch's tasks; and
    /// checks every task's bounds.
    fn met(sliced: &[usize], stream: &[usize], most_tasks: usize) -> (Vec<Vec<u32>>, usize) {
        let (a, b) = (starts(sliced), starts(stream));
        let (pa, pb) = (vec![0u64; a[a.len() - 1]], vec![0u64; b[b.len() - 1]]);
        let sides = (
            Buckets {
                patterns: &pa,
                starts: &a,
            },
            Buckets {
                patterns: &pb,
                starts: &b,
            },
        );
        let mut seen = vec![vec![0u32; pb.len()]; pa.len()];
        let mut dispatches = 0;
        plan(sides.0, sides.1, most_tasks, |d| {
            dispatches += 1;
            assert!(!d.tasks.is_empty() && d.tasks.len() <= most_tasks);
            assert!(d.ranges.len() <= MOST_RANGES);
            for &[tile, tile_len, first, end] in &d.tasks {
                let tile = tile as usize..(tile + tile_len) as usize;
                assert!((1..=TILE).contains(&tile.len()));
                // A tile inside one bucket.
                let bucket = a.partition_point(|&s| s <= tile.start) - 1;
                assert!(tile.end <= a[bucket + 1]);
                assert!(first < end, "a task with no range");
                let run = &d.ranges[first as usize..end as usize];
                let streamed: u32 = run.iter().map(|r| r[1] - r[0]).sum();
                assert!(streamed as usize <= STRETCH);
                for x in tile.clone() {
                    for &[start, end] in run {
                        for y in start..end {
                            seen[x][y as usize] += 1;
                        }
                    }
                }
            }
        });
        (seen, dispatches)
    }

    /// Checks that the plan has each pair meet once where their buckets
    /// are disjoint, never otherwise.
    fn covers(sliced: &[usize], stream: &[usize], most_tasks: usize) -> usize {
        let (seen, dispatches) = met(sliced, stream, most_tasks);
        let (a, b) = (starts(sliced), starts(stream));
        let bucket = |starts: &[usize], x: usize| starts.partition_point(|&s| s <= x) - 1;
        for (x, row) in seen.iter().enumerate() {
            for (y, &times) in row.iter().enumerate() {
                let disjoint = bucket(&a, x) & bucket(&b, y) == 0;
                assert_eq!(times, u32::from(disjoint), "{x} meets {y}");
            }
        }
        dispatches
    }

    #[test]
    fn a_plan_has_each_pair_of_disjoint_buckets_meet_once() {
        // One bucket each: the whole job, tiles against stretches.
        assert_eq!(covers(&[600], &[40_000], 1 << 18), 1);
        // Four and eight buckets, some empty, some past a tile.
        covers(&[300, 0, 5, 257], &[7, 20_000, 0, 3], 1 << 18);
        covers(
            &[1, 2, 3, 0, 600, 7, 8, 9],
            &[9, 0, 17_000, 6, 5, 4, 3, 2],
            1 << 18,
        );
        // Nothing met: an empty stream.
        assert_eq!(covers(&[5, 5], &[0, 0], 1 << 18), 0);
    }

    #[test]
    fn a_plan_cut_in_many_dispatches_still_meets_each_pair_once() {
        let (sliced, stream) = (
            [300, 1, 700, 0, 3, 2, 512, 1],
            [5, 30_000, 2, 2, 0, 9, 1, 40],
        );
        let whole = covers(&sliced, &stream, 1 << 18);
        assert_eq!(whole, 1);
        for most in [1, 2, 3, 7] {
            assert!(covers(&sliced, &stream, most) > 1, "{most}");
        }
    }

    #[test]
    fn adjacent_buckets_merge_into_one_range_and_long_ones_are_cut() {
        // Sliced bucket 0 meets every stream bucket: one range, cut in
        // stretches.
        let b = starts(&[10, 20, 30, 40_000]);
        let stream = Buckets {
            patterns: &[],
            starts: &b,
        };
        let mut ranges = Vec::new();
        ranges_met(stream, 3, &mut ranges);
        assert_eq!(ranges, [[0, 16384], [16384, 32768], [32768, 40060]]);
        // Bucket 1 (bit 0) meets buckets 0 and 2: apart.
        ranges_met(stream, 2, &mut ranges);
        assert_eq!(ranges, [[0, 10], [30, 60]]);
        let mut runs = Vec::new();
        runs_of(
            &[
                [0, 10_000],
                [10_000, 16_000],
                [20_000, 21_000],
                [30_000, 30_001],
            ],
            &mut runs,
        );
        assert_eq!(runs, [(0, 2), (2, 4)]);
    }
}
