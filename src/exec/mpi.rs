//! The MPI executor (cargo feature `mpi`): one process per node or socket,
//! each counting on its own rayon pool, rank 0 handing out work items.
//!
//! Rank 0 coordinates and counts nothing: it orders the items not done yet
//! by estimated cost, largest first, and answers each worker's message
//! (its first request, then each batch's results) with the next batch, so a
//! worker that finishes early simply gets more. It adds up the results, and
//! records them in the journal when there is one, so that a killed job
//! started again with the same journal resumes. Workers only count.
//!
//! Messages are vectors of `u64`:
//! - worker to rank 0 (tag [`RESULTS`]): its thread count, then for each
//!   item of the batch just counted: the item, the weighted sum (low and
//!   high words), the four orbit classes, and whether the item counted
//!   the solutions the rotations fix (1 or 0) and those three counts; the
//!   first message has no items.
//! - rank 0 to a worker: the items of its next batch (tag [`WORK`]), or
//!   nothing (tag [`STOP`]).

use std::collections::HashMap;

use mpi::topology::Rank;
use mpi::traits::*;
use rayon::prelude::*;

use super::journal::{Contents, Journal, JournalError};
use super::{Phase, Progress};
use crate::engine::Engine;
use crate::reduce::{Classes, Fixed, Tally};

/// A batch of items for a worker.
pub const WORK: i32 = 1;
/// No more work: the worker returns.
pub const STOP: i32 = 2;
/// A worker's results, and its request for more.
pub const RESULTS: i32 = 3;

/// Words per item in a results message.
const WORDS_PER_RESULT: usize = 11;

/// Runs rank 0's side: hands out the items not yet in `contents` (all of
/// `engine`'s items when there is no journal), largest estimated cost
/// first, to the other ranks of `world`, and returns what every item adds
/// up to (the journal's included).
///
/// # Errors
/// [`JournalError::Io`] if the journal cannot be written; the workers are
/// stopped first.
pub fn coordinate<C: Communicator>(
    world: &C,
    engine: &dyn Engine,
    journal: Option<(&Journal, &Contents)>,
    progress: Progress<'_>,
) -> Result<Tally, JournalError> {
    let (mut todo, mut tally, mut done, all): (Vec<usize>, _, _, _) = match journal {
        Some((_, contents)) => (
            contents.remaining().collect(),
            contents.tally,
            contents.done_items(),
            contents.header.range().len(),
        ),
        None => (
            (0..engine.items()).collect(),
            Tally::default(),
            0,
            engine.items(),
        ),
    };
    // Largest first: popped from the end.
    let costs: HashMap<usize, f64> = todo.iter().map(|&i| (i, engine.cost(i))).collect();
    todo.sort_by(|a, b| costs[a].total_cmp(&costs[b]).then(b.cmp(a)));
    let workers = (world.size() - 1).max(1) as usize;
    let mut running = workers;
    let mut failure = None;
    progress(Phase::Counting { done, items: all });
    while running > 0 {
        let (words, status) = world.any_process().receive_vec_with_tag::<u64>(RESULTS);
        let threads = words.first().copied().unwrap_or(1).max(1) as usize;
        for result in words[1..].chunks_exact(WORDS_PER_RESULT) {
            let (item, item_tally) = decode(result);
            tally.add(item_tally);
            done += 1;
            if let (Some((journal, _)), None) = (journal, &failure) {
                if let Err(e) = journal.record(item, item_tally) {
                    failure = Some(e);
                }
            }
            progress(Phase::Counting { done, items: all });
        }
        let worker = world.process_at_rank(status.source_rank());
        // Enough to keep the worker's pool busy, small enough that the last
        // items spread over every worker.
        let batch = (todo.len() / (2 * workers)).clamp(1, 4 * threads);
        if failure.is_some() || todo.is_empty() {
            worker.send_with_tag(&[0u64; 0][..], STOP);
            running -= 1;
        } else {
            let next: Vec<u64> = (0..batch.min(todo.len()))
                .filter_map(|_| todo.pop())
                .map(|i| i as u64)
                .collect();
            worker.send_with_tag(&next[..], WORK);
        }
    }
    if let Some((journal, _)) = journal {
        let flushed = journal.flush();
        if let Some(e) = failure {
            return Err(e);
        }
        flushed?;
    }
    Ok(tally)
}

/// Runs a worker's side: asks rank 0 for work, counts each batch on
/// `pool`, sends the results back, until told to stop. Only the calling
/// thread talks to MPI.
pub fn work<C: Communicator>(world: &C, engine: &dyn Engine, pool: &rayon::ThreadPool) {
    let root = world.process_at_rank(0 as Rank);
    let mut message = vec![pool.current_num_threads() as u64];
    loop {
        root.send_with_tag(&message[..], RESULTS);
        let (items, status) = root.receive_vec::<u64>();
        if status.tag() != WORK {
            return;
        }
        let results: Vec<(usize, Tally)> = pool.install(|| {
            items
                .par_iter()
                .with_max_len(1)
                .map(|&item| {
                    (
                        item as usize,
                        engine.count(item as usize..item as usize + 1),
                    )
                })
                .collect()
        });
        message.truncate(1);
        for (item, tally) in results {
            message.extend(encode(item, tally));
        }
    }
}

fn encode(item: usize, tally: Tally) -> [u64; WORDS_PER_RESULT] {
    let c = tally.classes;
    let f = tally.fixed.unwrap_or_default();
    [
        item as u64,
        tally.weighted as u64,
        (tally.weighted >> 64) as u64,
        c.orbit8,
        c.orbit4,
        c.orbit2,
        c.orbit1,
        u64::from(tally.fixed.is_some()),
        f.half_turn,
        f.quarter_turn,
        f.every,
    ]
}

fn decode(words: &[u64]) -> (usize, Tally) {
    let tally = Tally {
        weighted: u128::from(words[1]) | u128::from(words[2]) << 64,
        classes: Classes {
            orbit8: words[3],
            orbit4: words[4],
            orbit2: words[5],
            orbit1: words[6],
        },
        fixed: (words[7] == 1).then_some(Fixed {
            half_turn: words[8],
            quarter_turn: words[9],
            every: words[10],
        }),
    };
    (words[0] as usize, tally)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_cross_the_wire_unchanged() {
        let tally = Tally {
            weighted: u128::from(u64::MAX) * 3 + 7,
            classes: Classes {
                orbit8: 1,
                orbit4: 2,
                orbit2: 3,
                orbit1: 4,
            },
            fixed: None,
        };
        assert_eq!(decode(&encode(42, tally)), (42, tally));
        let fixed = Tally {
            fixed: Some(Fixed {
                half_turn: 5,
                quarter_turn: 6,
                every: 0,
            }),
            ..tally
        };
        assert_eq!(decode(&encode(7, fixed)), (7, fixed));
    }
}
