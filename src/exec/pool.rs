//! The pool executor: an engine's work items run on the current rayon pool.
//!
//! The pool splits the range of item indices (`into_par_iter` over
//! `0..items`) down to single items (`with_max_len(1)`), because item costs
//! vary by an order of magnitude and work stealing needs small pieces to
//! even out the finish; the engine below never touches rayon. Tallies are
//! summed as they come back ([`Tally::sum`]), so the result is the same for
//! any thread count and any order.
//!
//! The thread count is the pool's: run inside `ThreadPool::install` to choose it.

use std::ops::Range;
use std::sync::atomic::{AtomicUsize, Ordering};

use rayon::prelude::*;

use super::{Phase, Progress};
use crate::engine::Engine;
use crate::reduce::Tally;

/// Counts every item of `engine` on the current pool, reporting each
/// finished item to `progress`.
pub fn count(engine: &dyn Engine, progress: Progress<'_>) -> Tally {
    count_items(engine, 0..engine.items(), progress)
}

/// Counts the items in `items`, reporting each finished one to `progress`
/// (as `done` of `items.len()`).
pub fn count_items(engine: &dyn Engine, items: Range<usize>, progress: Progress<'_>) -> Tally {
    let all = items.len();
    let done = AtomicUsize::new(0);
    progress(Phase::Counting {
        done: 0,
        items: all,
    });
    items
        .into_par_iter()
        .with_max_len(1)
        .map(|item| {
            let tally = engine.count(item..item + 1);
            let finished = done.fetch_add(1, Ordering::Relaxed) + 1;
            progress(Phase::Counting {
                done: finished,
                items: all,
            });
            tally
        })
        .reduce(Tally::default, Tally::sum)
}
