//! Where a join's time goes, part by part (scripts/join-parts.py): for a
//! board and a layout, a sample of its units, each pair item sketched as
//! the forecast sketches it ([`Join::sketch_item`]: its glue, quarter
//! cells read, filled or searched included, done in part and timed; its
//! pairs counted in part and timed), added up over the sample and scaled
//! to every unit. An ignored test, run by the script:
//! `NQUEENS_PARTS_N="20 21" NQUEENS_PARTS_OUT=FILE cargo test --release --lib -- --ignored parts`.

use std::io::Write;
use std::time::Instant;

use super::board::Draws;
use crate::engine::join::{Join, JoinLayout, LISTED_TO};
use crate::engine::Engine;

#[test]
#[ignore = "sketches the parts of whole boards for scripts/join-parts.py (minutes)"]
fn parts() {
    let boards: Vec<usize> = std::env::var("NQUEENS_PARTS_N")
        .unwrap_or_else(|_| "20".to_string())
        .split_whitespace()
        .map(|n| n.parse().unwrap())
        .collect();
    let samples: u64 = std::env::var("NQUEENS_PARTS_SAMPLES").map_or(512, |v| v.parse().unwrap());
    let out = std::env::var("NQUEENS_PARTS_OUT").unwrap_or_else(|_| "/tmp/parts.csv".to_string());
    let mut file = std::io::BufWriter::new(std::fs::File::create(&out).unwrap());
    writeln!(
        file,
        "n,layout,units,sampled,pair_units,layout_s,glue_s,pairs_s,pairs,sketch_s"
    )
    .unwrap();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    for n in boards {
        for layout in JoinLayout::ALL {
            if layout == JoinLayout::Table && n > LISTED_TO {
                continue;
            }
            let clock = Instant::now();
            let join = pool
                .install(|| Join::with_layout(n, layout, Join::fastest(), u64::MAX))
                .unwrap();
            let layout_s = clock.elapsed().as_secs_f64();
            let clock = Instant::now();
            let units = join.order.units();
            let grid = samples.min(units);
            let mut draws = Draws::new(n as u64);
            let (mut glue_s, mut pairs_s, mut pairs, mut pair_units) = (0.0, 0.0, 0.0, 0u64);
            pool.install(|| {
                // One unit drawn from each of `grid` equal stretches of the
                // order: a sample of the whole count.
                for place in 0..grid {
                    let unit = draws.in_stretch(place, grid, units);
                    let Some(item) = join.order.unit(unit) else {
                        continue;
                    };
                    if item.fixed_index().is_some() {
                        continue;
                    }
                    let sketch = join.sketch_item(&item, &mut draws);
                    glue_s += sketch.glue_s;
                    pairs_s += sketch.pairs_s;
                    pairs += sketch.pairs;
                    pair_units += 1;
                }
            });
            // Scaled from the sample to every unit.
            let scale = units as f64 / grid as f64;
            writeln!(
                file,
                "{n},{layout},{units},{grid},{pair_units},{layout_s:.3},{:.6},{:.6},{:.6e},{:.3}",
                glue_s * scale,
                pairs_s * scale,
                pairs * scale,
                clock.elapsed().as_secs_f64()
            )
            .unwrap();
            file.flush().unwrap();
            assert_eq!(join.items(), Join::items_of(n, layout).unwrap());
        }
    }
}
