//! The MPI executor (cargo feature `mpi`): one process per node or socket,
//! each counting on its own rayon pool, rank 0 handing out work items.
//!
//! Rank 0 coordinates and counts nothing: it orders the items not done yet
//! by estimated cost, largest first, and answers each worker's message
//! with the next batch, so a worker that finishes early simply gets more.
//! It adds up the results, and records them in the journal when there is
//! one, so that a killed job started again with the same journal resumes.
//! It waits for messages by probing with a sleep between probes, never in
//! a blocking receive: MPI libraries poll a core at full speed there
//! (OpenMPI did: `-np 2 … --threads 2` on 2 cores took twice the time of
//! the same count without MPI).
//!
//! A worker keeps its pool fed: it asks for the next batch while fewer
//! items than it has threads are still queued or running, so that no
//! thread waits for a round trip to rank 0 or for the slowest item of a
//! batch; items run on the pool as they arrive and their results go back
//! with the next request. Only the worker's calling thread talks to MPI.
//!
//! Messages are vectors of `u64`:
//! - worker to rank 0 (tag [`RESULTS`]): its thread count, then for each
//!   item counted since its last message: the item, the weighted sum (low
//!   and high words), the four orbit classes, and whether the item counted
//!   the solutions the rotations fix (1 or 0) and those three counts.
//! - rank 0 to a worker, answering each message: the items of its next
//!   batch (tag [`WORK`]; none when every item is handed out but some of
//!   the worker's are still counting: it reports them when done), or
//!   nothing (tag [`STOP`], once all its items are reported).

use std::collections::HashMap;
use std::sync::mpsc;
use std::time::Duration;

use mpi::topology::Rank;
use mpi::traits::*;

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

/// A batch is at most this fraction of the cost left, per worker: with
/// items of a few microseconds (the join at n = 17 has 48,345), batches of
/// a few items made rank 0 and the workers wait on each other thousands
/// of times.
const BATCHES_PER_WORKER: usize = 4;

/// Words per item in a results message: the item, five u128 sums as two
/// words each, whether the rotations' fixed points were counted, and them.
const WORDS_PER_RESULT: usize = 15;

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
    let mut remaining_cost: f64 = costs.values().sum();
    let workers = (world.size() - 1).max(1) as usize;
    let mut running = workers;
    let mut failure = None;
    progress(Phase::Counting { done, items: all });
    // Items handed to each worker and not reported yet.
    let mut outstanding: HashMap<Rank, usize> = HashMap::new();
    while running > 0 {
        let (words, status) = receive_results(world);
        let threads = words.first().copied().unwrap_or(1).max(1) as usize;
        let rank = status.source_rank();
        let results = words
            .get(1..)
            .unwrap_or_default()
            .chunks_exact(WORDS_PER_RESULT);
        *outstanding.entry(rank).or_default() -= results.len();
        for result in results {
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
        let worker = world.process_at_rank(rank);
        let pending = outstanding[&rank];
        if (failure.is_some() || todo.is_empty()) && pending == 0 {
            worker.send_with_tag(&[0u64; 0][..], STOP);
            running -= 1;
        } else {
            // Guided by cost: a share of what is left (large batches while
            // much is left, small ones at the end, so that the last items
            // spread over every worker) and at least an item a thread;
            // none once it failed or every item is out.
            let share = remaining_cost / (BATCHES_PER_WORKER * workers) as f64;
            let mut next = Vec::new();
            let mut cost = 0.0;
            while failure.is_none() && (next.len() < threads || cost < share) {
                let Some(item) = todo.pop() else { break };
                cost += costs[&item];
                next.push(item as u64);
            }
            remaining_cost -= cost;
            *outstanding.get_mut(&rank).expect("entered above") += next.len();
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

/// The next results message from any worker, waited for by probing with
/// short sleeps (a blocking receive would poll a core at full speed).
fn receive_results<C: Communicator>(world: &C) -> (Vec<u64>, mpi::point_to_point::Status) {
    let mut nap = Duration::from_micros(20);
    loop {
        if let Some(message) = world
            .any_process()
            .immediate_matched_probe_with_tag(RESULTS)
        {
            return message.matched_receive_vec::<u64>();
        }
        std::thread::sleep(nap);
        nap = (nap * 2).min(MAX_NAP);
    }
}

/// The longest sleep between two probes for a message: the most a
/// message waits to be seen.
const MAX_NAP: Duration = Duration::from_micros(200);

/// Runs a worker's side: asks rank 0 for work and counts it on `pool`,
/// asking for more while fewer items than the pool has threads are left,
/// and sending each finished item's result with the next message, until
/// told to stop. Only the calling thread talks to MPI.
pub fn work<C: Communicator>(world: &C, engine: &dyn Engine, pool: &rayon::ThreadPool) {
    let root = world.process_at_rank(0 as Rank);
    let threads = pool.current_num_threads();
    let (finished, results) = mpsc::channel::<(usize, Tally)>();
    pool.in_place_scope(|scope| {
        let mut message = vec![threads as u64];
        let mut in_flight = 0usize;
        let mut asked = false;
        // Whether rank 0 answered with no items: every item is out.
        let mut drained = false;
        loop {
            let wants_more = if drained {
                in_flight == 0
            } else {
                in_flight < threads
            };
            if !asked && wants_more {
                root.send_with_tag(&message[..], RESULTS);
                message.truncate(1);
                asked = true;
            }
            if asked {
                if let Some(reply) = root.immediate_matched_probe() {
                    let (items, status) = reply.matched_receive_vec::<u64>();
                    asked = false;
                    if status.tag() != WORK {
                        return;
                    }
                    drained = items.is_empty();
                    in_flight += items.len();
                    for item in items {
                        let finished = finished.clone();
                        scope.spawn(move |_| {
                            let item = item as usize;
                            let tally = engine.count(item..item + 1);
                            // The receiver outlives the scope.
                            let _ = finished.send((item, tally));
                        });
                    }
                    continue;
                }
            }
            // Wait a little for an item to finish (or for the reply).
            if let Ok(first) = results.recv_timeout(Duration::from_micros(200)) {
                for (item, tally) in std::iter::once(first).chain(results.try_iter()) {
                    in_flight -= 1;
                    message.extend(encode(item, tally));
                }
            }
        }
    });
}

fn encode(item: usize, tally: Tally) -> [u64; WORDS_PER_RESULT] {
    let c = tally.classes;
    let f = tally.fixed.unwrap_or_default();
    let mut words = [0u64; WORDS_PER_RESULT];
    words[0] = item as u64;
    // The u128 sums as low and high words.
    for (i, value) in [tally.weighted, c.orbit8, c.orbit4, c.orbit2, c.orbit1]
        .into_iter()
        .enumerate()
    {
        words[1 + 2 * i] = value as u64;
        words[2 + 2 * i] = (value >> 64) as u64;
    }
    words[11] = u64::from(tally.fixed.is_some());
    words[12..15].copy_from_slice(&[f.half_turn, f.quarter_turn, f.every]);
    words
}

fn decode(words: &[u64]) -> (usize, Tally) {
    let wide = |i: usize| u128::from(words[1 + 2 * i]) | u128::from(words[2 + 2 * i]) << 64;
    let tally = Tally {
        weighted: wide(0),
        classes: Classes {
            orbit8: wide(1),
            orbit4: wide(2),
            orbit2: wide(3),
            orbit1: wide(4),
        },
        fixed: (words[11] == 1).then_some(Fixed {
            half_turn: words[12],
            quarter_turn: words[13],
            every: words[14],
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
