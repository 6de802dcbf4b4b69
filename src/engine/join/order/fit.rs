//! The measurements the cost model is fitted on (scripts/fit-costs.py):
//! every item of one board timed on one thread (the fastest of
//! `NQUEENS_FIT_PASSES` passes, default 3), beside the terms of its bound.
//! An ignored test, run by the script:
//! `NQUEENS_FIT_N=19 NQUEENS_FIT_OUT=FILE cargo test --release --lib -- --ignored item_times`.

use std::io::Write;
use std::time::Instant;

use crate::engine::join::count::items::{bound, Bound};
use crate::engine::join::{Join, JoinLayout, Simd};
use crate::engine::Engine;

#[test]
#[ignore = "measures every item of a board for scripts/fit-costs.py (minutes)"]
fn item_times() {
    let n: usize = std::env::var("NQUEENS_FIT_N").map_or(18, |v| v.parse().unwrap());
    let out =
        std::env::var("NQUEENS_FIT_OUT").unwrap_or_else(|_| format!("/tmp/item-times-{n}.csv"));
    let simd = std::env::var("NQUEENS_FIT_SIMD")
        .ok()
        .and_then(|name| Simd::ALL.iter().copied().find(|s| s.to_string() == name))
        .unwrap_or_else(Join::fastest);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let join = pool.install(|| Join::new(n, simd, u64::MAX)).unwrap();
    let layout = Join::layout(n, JoinLayout::Table).unwrap();
    let sizes = layout.sizes.as_ref().unwrap();
    let mut file = std::io::BufWriter::new(std::fs::File::create(&out).unwrap());
    writeln!(file, "item,kind,cost,glue,pairs,east,west,lower,seconds").unwrap();
    // Every item timed once a pass, and its fastest pass kept: this
    // machine is shared and its speed drifts over seconds, which repeating
    // an item at once would not see. Each pass visits the items in an
    // order of its own, shuffled: in the engine's order a slow minute
    // would fall on a few neighbouring shards (it did, by 15-20% at
    // n = 20), and the shards' sums would show the machine's drift, not
    // the model's.
    let passes: usize = std::env::var("NQUEENS_FIT_PASSES").map_or(3, |v| v.parse().unwrap());
    // Every `stride`-th item of the engine's order only (a sample of all
    // sizes, the order being interleaved by cost), for boards whose every
    // item would take hours; the others are left out of the CSV.
    let stride: usize = std::env::var("NQUEENS_FIT_STRIDE").map_or(1, |v| v.parse().unwrap());
    let mut seconds = vec![f64::INFINITY; join.items()];
    pool.install(|| {
        // Warm the scratch up on the costliest item.
        std::hint::black_box(join.count(0..1));
        for pass in 0..passes {
            let sampled = shuffled(join.items(), pass as u64).into_iter();
            for index in sampled.filter(|i| i % stride == 0) {
                let clock = Instant::now();
                std::hint::black_box(join.count(index..index + 1));
                seconds[index] = seconds[index].min(clock.elapsed().as_secs_f64());
            }
        }
    });
    // In the engine's order; a fixed-point item's kind names its search
    // (`fixed-I`, burnside::fixed_item I).
    let super::layout::Order::Listed { items, .. } = &*layout.order else {
        panic!("n = {n}: items drawn, not listed (no cell sizes to bound them)");
    };
    for (index, item) in items.iter().enumerate() {
        let (cost, t) = (join.cost(index), seconds[index]);
        if !t.is_finite() {
            continue; // not in the sample
        }
        if let Some(fixed) = item.fixed_index() {
            writeln!(file, "{index},fixed-{fixed},{cost},0,0,0,0,0,{t:.9}").unwrap();
            continue;
        }
        let frames = &layout.frames[layout.groups[item.group as usize].clone()];
        let b = bound(sizes, &layout.splits, frames, item);
        let Bound {
            glue,
            pairs,
            east,
            west,
            lower,
            ..
        } = b;
        writeln!(
            file,
            "{index},pair,{cost},{glue},{pairs},{east},{west},{lower},{t:.9}"
        )
        .unwrap();
    }
}

/// 0..len visited by a stride near len / φ (coprime with len, a
/// different one each pass): neighbours in the engine's order are timed far
/// apart.
fn shuffled(len: usize, pass: u64) -> Vec<usize> {
    fn gcd(a: usize, b: usize) -> usize {
        if b == 0 {
            a
        } else {
            gcd(b, a % b)
        }
    }
    if len == 0 {
        return Vec::new();
    }
    let mut step = ((len as f64 * (0.618 - 0.05 * pass as f64).max(0.1)) as usize).max(1);
    while gcd(step, len) != 1 {
        step += 1;
    }
    (0..len).map(|k| k * step % len).collect()
}

/// A pool of one thread, and board `n`'s join planned on it with no
/// memory bound (the ignored measurements below time units on it).
fn one_thread_join(n: usize) -> (rayon::ThreadPool, Join) {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let join = pool
        .install(|| Join::new(n, Join::fastest(), u64::MAX))
        .unwrap();
    (pool, join)
}

/// The units `NQUEENS_UNITS` names (none if unset).
fn named_units() -> Vec<u64> {
    std::env::var("NQUEENS_UNITS")
        .unwrap_or_default()
        .split_whitespace()
        .map(|u| u.parse().unwrap())
        .collect()
}

/// The sketch against the count, unit by unit (scripts/sketch-check.py):
/// `NQUEENS_FIT_N` units' sketches ([`Join::sketch_item`]) beside the
/// seconds counting them takes, on one thread, for `NQUEENS_SKETCH_UNITS`
/// units (default 64, drawn from stretches spread over the order) or the
/// units `NQUEENS_UNITS` names, each with its group and rows (what
/// scripts/sketch-strata.py sorts them by); and the whole board's sketch
/// (`NQUEENS_SKETCH_NO_BOARD=1` leaves it out). `NQUEENS_SKETCH_ONLY=1`
/// leaves the counts out (count_s empty): two builds' sketches of the
/// same units, in seconds rather than hours.
/// `NQUEENS_FIT_N=22 NQUEENS_FIT_OUT=FILE cargo test --release --lib -- --ignored sketch_against_count`.
#[test]
#[ignore = "counts units whole beside their sketches for scripts/sketch-check.py (minutes)"]
fn sketch_against_count() {
    use crate::engine::join::forecast::board::Draws;
    let n: usize = std::env::var("NQUEENS_FIT_N").map_or(20, |v| v.parse().unwrap());
    let out = std::env::var("NQUEENS_FIT_OUT").unwrap_or_else(|_| format!("/tmp/sketch-{n}.csv"));
    let wanted: u64 = std::env::var("NQUEENS_SKETCH_UNITS").map_or(64, |v| v.parse().unwrap());
    let sketch_only = std::env::var("NQUEENS_SKETCH_ONLY").is_ok_and(|v| v == "1");
    let (pool, join) = one_thread_join(n);
    let mut file = std::io::BufWriter::new(std::fs::File::create(&out).unwrap());
    writeln!(
        file,
        "unit,glue_s,pairs_s,pairs,sketch_s,sketched_in_s,count_s,priced_pairs_s,group,north,south,weight"
    )
    .unwrap();
    let units = join.order.units();
    // The units: those named in NQUEENS_UNITS, or a random unit of each of
    // 16 times as many stretches of the order as units wanted (most drawn
    // slots are empty: their orbit's smallest row set stands for them),
    // never at a fixed stride (the listed order is interleaved by bit
    // reversal), visited so that they are spread over the whole order.
    // Drawn apart from the sketches' own draws, so that two builds whose
    // sketches draw differently take the same units.
    let named = named_units();
    let taken: Vec<u64> = if named.is_empty() {
        let mut picks = Draws::stream(n as u64, 0);
        let grid = (16 * wanted).min(units);
        super::cost::interleave(grid as usize)
            .map(|place| picks.in_stretch(place as u64, grid, units).min(units - 1))
            .filter(|&unit| join.order.pair_unit(unit).is_some())
            .take(wanted as usize)
            .collect()
    } else {
        named
    };
    let mut draws = Draws::stream(n as u64, 1);
    pool.install(|| {
        for unit in taken {
            let Some(item) = join.order.unit(unit) else {
                continue;
            };
            let clock = Instant::now();
            let sketch = join.sketch_item(&item, &mut draws);
            let sketched_in = clock.elapsed().as_secs_f64();
            let counted = if sketch_only {
                String::new()
            } else {
                let clock = Instant::now();
                std::hint::black_box(join.count_item(&item));
                format!("{:.9}", clock.elapsed().as_secs_f64())
            };
            writeln!(
                file,
                "{unit},{:.9},{:.9},{:.6e},{:.9},{sketched_in:.6},{counted},{:.9},{},{},{},{}",
                sketch.glue_s,
                sketch.pairs_s,
                sketch.pairs,
                sketch.seconds(),
                sketch.priced_pairs_s,
                item.group,
                item.north,
                item.south,
                item.weight
            )
            .unwrap();
            file.flush().unwrap();
        }
        if std::env::var("NQUEENS_SKETCH_NO_BOARD").is_ok_and(|v| v == "1") {
            return;
        }
        // The whole board's sketch, as `estimate` makes it (256 units, 20 s).
        let board = join.sketch(256, 20.0, n as u64);
        let mut file = std::fs::File::create(format!("{out}.board")).unwrap();
        writeln!(
            file,
            "units,sampled,sketched_s,seconds,relative_error,glue_share,largest_s"
        )
        .unwrap();
        writeln!(
            file,
            "{},{},{:.3},{:.6e},{:.4},{:.4},{:.3}",
            board.units,
            board.sampled,
            board.sketched_s,
            board.seconds,
            board.relative_error,
            board.glue_share,
            board.largest_s
        )
        .unwrap();
    });
}

/// Units counted whole, one after the other on one thread, each once
/// (scripts/unit-times.py pairs two builds on them):
/// `NQUEENS_FIT_N=26 NQUEENS_UNITS="928496 4425054" NQUEENS_FIT_OUT=FILE cargo test --release --lib -- --ignored unit_times`.
#[test]
#[ignore = "counts the units named whole for scripts/unit-times.py (minutes)"]
fn unit_times() {
    let n: usize = std::env::var("NQUEENS_FIT_N").map_or(20, |v| v.parse().unwrap());
    let out = std::env::var("NQUEENS_FIT_OUT").unwrap_or_else(|_| format!("/tmp/units-{n}.csv"));
    let units = named_units();
    let (pool, join) = one_thread_join(n);
    let mut file = std::io::BufWriter::new(std::fs::File::create(&out).unwrap());
    writeln!(file, "unit,tally,count_s").unwrap();
    pool.install(|| {
        for unit in units {
            let clock = Instant::now();
            let item = join.order.pair_unit(unit);
            let tally = item.map_or(0, |item| join.count_item(&item));
            writeln!(file, "{unit},{tally},{:.6}", clock.elapsed().as_secs_f64()).unwrap();
            file.flush().unwrap();
        }
    });
}
