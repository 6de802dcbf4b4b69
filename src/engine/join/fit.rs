//! The measurements the cost model is fitted on (scripts/fit-costs.py):
//! every item of one board timed on one thread (the fastest of
//! `NQUEENS_FIT_PASSES` passes, default 3), beside the terms of its bound.
//! An ignored test, run by the script:
//! `NQUEENS_FIT_N=19 NQUEENS_FIT_OUT=FILE cargo test --release --lib -- --ignored item_times`.

use std::io::Write;
use std::time::Instant;

use super::items::bound;
use super::{burnside, Join, Simd};
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
    let layout = Join::layout(n).unwrap();
    let sizes = layout.sizes.as_ref().unwrap();
    let mut file = std::io::BufWriter::new(std::fs::File::create(&out).unwrap());
    writeln!(file, "item,kind,cost,glue,pairs,east,west,lower,seconds").unwrap();
    let fixed = burnside::items(n);
    // Every item timed once a pass, and its fastest pass kept: this
    // machine is shared and its speed drifts over seconds, which repeating
    // an item at once would not see.
    let passes: usize = std::env::var("NQUEENS_FIT_PASSES").map_or(3, |v| v.parse().unwrap());
    let mut seconds = vec![f64::INFINITY; join.items()];
    pool.install(|| {
        // Warm the scratch up on the largest item.
        join.count_item(&join.items[0]);
        for _ in 0..passes {
            for (index, best) in seconds.iter_mut().enumerate() {
                let clock = Instant::now();
                std::hint::black_box(join.count(index..index + 1));
                *best = best.min(clock.elapsed().as_secs_f64());
            }
        }
    });
    for (index, t) in seconds[..fixed].iter().enumerate() {
        writeln!(file, "{index},fixed,{},0,0,0,0,0,{t:.9}", join.cost(index)).unwrap();
    }
    for (pair, item) in join.items.iter().enumerate() {
        let frames = &layout.frames[layout.groups[item.group as usize].clone()];
        let b = bound(sizes, &layout.splits, frames, item);
        writeln!(
            file,
            "{},pair,{},{},{},{},{},{},{:.9}",
            fixed + pair,
            join.costs[pair],
            b.glue,
            b.pairs,
            b.east,
            b.west,
            b.lower,
            seconds[fixed + pair]
        )
        .unwrap();
    }
}
