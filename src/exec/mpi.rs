//! The MPI executor (cargo feature `mpi`): one process per node or socket,
//! each counting on its own rayon pool, rank 0 handing out work items.
//!
//! Rank 0 orders the items not done yet by estimated cost, largest first,
//! and answers each worker's message with the next batch, so a worker that
//! finishes early simply gets more; its own threads take the next items
//! one at a time as they free, so `-np P` counts on every rank's cores. It
//! adds up the results, and records them in the journal when there is
//! one, so that a killed job started again with the same journal resumes.
//! Its calling thread waits for messages by probing between short waits
//! on its own threads' results, never in a blocking receive: MPI
//! libraries poll a core at full speed there (OpenMPI does).
//!
//! Every rank keeps its pool fed: it holds a batch queued behind the one
//! it counts, so that no thread waits for a round trip to rank 0; a batch
//! is one job on the pool (its items spread over the threads), whose
//! results go back with the next request. Only a rank's calling thread
//! talks to MPI, and it sleeps between batches and probes.
//!
//! Every rank keeps account of its time ([`RankLoad`]: thread-seconds
//! counting, time spent holding no batch, CPU time, when its last results
//! arrived) and rank 0 returns them with the count, so that what a run
//! loses to coordination is measured, not guessed (`count --mpi --json`
//! prints them under `mpi`).
//!
//! Messages are vectors of `u64`:
//! - worker to rank 0 (tag [`RESULTS`]): its load so far ([`HEADER_WORDS`]
//!   words: threads, items, batches, busy, starved and CPU nanoseconds,
//!   its GPU's pairs and busy nanoseconds),
//!   then for each item counted since its last message: the item, the
//!   weighted sum (low and high words), the four orbit classes, and
//!   whether the item counted the solutions the rotations fix (1 or 0) and
//!   those three counts.
//! - rank 0 to a worker, answering each message: the items of its next
//!   batch (tag [`WORK`]; none when every item is handed out but some of
//!   the worker's are still counting: it reports them when done), or
//!   nothing (tag [`STOP`], once all its items are reported).

use std::collections::HashMap;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use mpi::topology::Rank;
use mpi::traits::*;

use super::journal::{Contents, Journal, JournalError};
use super::ranks::{MpiLoad, RankGpu, RankLoad};
use super::{Phase, Progress};
use crate::engine::Engine;
use crate::reduce::{Classes, Fixed, Tally};
use crate::system;

/// A batch of items for a worker.
pub const WORK: i32 = 1;
/// No more work: the worker returns.
pub const STOP: i32 = 2;
/// A worker's results, and its request for more.
pub const RESULTS: i32 = 3;

/// A batch is a share of the cost left: one part in this many per rank
/// (rank 0 counting too). With items of a few microseconds (the join at
/// n = 17 has 48,345), batches of a few items made rank 0 and the workers
/// wait on each other thousands of times.
const BATCHES_PER_RANK: usize = 4;

/// Words at the head of a results message: the worker's [`RankLoad`] so
/// far (threads, items, batches, then busy, starved and CPU time in
/// nanoseconds, then its GPU's pairs and busy nanoseconds).
const HEADER_WORDS: usize = 8;

/// A header word that stands for nothing: no CPU time where the OS does
/// not say, no pairs where the rank has no GPU.
const ABSENT: u64 = u64::MAX;

/// Words per item in a results message: the item, five u128 sums as two
/// words each, whether the rotations' fixed points were counted, and them.
const WORDS_PER_RESULT: usize = 15;

/// Runs rank 0's side: hands out the items not yet in `contents` (all of
/// `engine`'s items when there is no journal), largest estimated cost
/// first, in batches to the other ranks of `world` and to its own `pool`,
/// so that no core of rank 0's is lost to coordination. Returns what every
/// item adds up to (the journal's included) and how each rank spent the
/// count; `gpu` says what rank 0's GPU (`--gpu`) did, read once the last
/// item is in (`None` without one).
///
/// # Errors
/// [`JournalError::Io`] if the journal cannot be written; the workers are
/// stopped first.
pub fn coordinate<C: Communicator>(
    world: &C,
    engine: &dyn Engine,
    pool: &rayon::ThreadPool,
    journal: Option<(&Journal, &Contents)>,
    progress: Progress<'_>,
    gpu: &dyn Fn() -> Option<RankGpu>,
) -> Result<Coordinated, JournalError> {
    let start = Instant::now();
    let coordinator_cpu_before = system::thread_cpu_s();
    let (todo, mut tally, mut done, all): (Vec<usize>, _, _, _) = match journal {
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
    let ranks = usize::try_from(world.size()).unwrap_or(1).max(1);
    let mut queue = Queue::new(engine, todo, ranks);
    let local_threads = pool.current_num_threads();
    let mut loads: Vec<RankLoad> = (0..ranks).map(RankLoad::new).collect();
    loads[0].threads = local_threads;
    let mut round_trips = 0u64;
    let mut running = ranks - 1;
    let mut failure = None;
    progress(Phase::Counting { done, items: all });
    // Items handed to each worker and not reported yet.
    let mut outstanding: HashMap<Rank, usize> = HashMap::new();
    let (finished, local_results) = mpsc::channel::<Batch>();
    let mut local_batches = 0usize;
    let mut nap = MIN_NAP;
    // A local batch that finished while this thread waited.
    let mut arrived: Option<Batch> = None;
    let mut record = |item: usize, item_tally: Tally, failure: &mut Option<JournalError>| {
        tally.add(item_tally);
        done += 1;
        if let (Some((journal, _)), None) = (journal, &*failure) {
            if let Err(e) = journal.record(item, item_tally) {
                *failure = Some(e);
            }
        }
        progress(Phase::Counting { done, items: all });
    };
    pool.in_place_scope(|scope| loop {
        let mut busy = false;
        for batch in arrived.take().into_iter().chain(local_results.try_iter()) {
            local_batches -= 1;
            loads[0].add_batch(batch.results.len(), batch.busy.as_secs_f64());
            loads[0].finished_s = start.elapsed().as_secs_f64();
            for (item, t) in batch.results {
                record(item, t, &mut failure);
            }
            busy = true;
        }
        // Rank 0's own threads count batches like a worker's, one queued
        // behind the one running.
        while failure.is_none() && local_batches < BATCHES_HELD {
            let batch = queue.next_batch(local_threads);
            if batch.is_empty() {
                break;
            }
            local_batches += 1;
            count_batch(scope, engine, batch, finished.clone());
        }
        if running > 0 {
            if let Some(message) = world
                .any_process()
                .immediate_matched_probe_with_tag(RESULTS)
            {
                busy = true;
                round_trips += 1;
                let (words, status) = message.matched_receive_vec::<u64>();
                let rank = status.source_rank();
                let load = &mut loads[usize::try_from(rank).expect("ranks are not negative")];
                read_header(load, &words);
                load.finished_s = start.elapsed().as_secs_f64();
                let threads = load.threads;
                let results = words
                    .get(HEADER_WORDS..)
                    .unwrap_or_default()
                    .chunks_exact(WORDS_PER_RESULT);
                *outstanding.entry(rank).or_default() -= results.len();
                for result in results {
                    let (item, item_tally) = decode(result);
                    record(item, item_tally, &mut failure);
                }
                let worker = world.process_at_rank(rank);
                let pending = outstanding[&rank];
                if (failure.is_some() || queue.is_empty()) && pending == 0 {
                    worker.send_with_tag(&[0u64; 0][..], STOP);
                    running -= 1;
                } else {
                    // None once it failed or every item is out: the
                    // worker reports what it holds, then stops.
                    let next: Vec<u64> = match failure {
                        Some(_) => Vec::new(),
                        None => queue
                            .next_batch(threads)
                            .into_iter()
                            .map(|i| i as u64)
                            .collect(),
                    };
                    *outstanding.get_mut(&rank).expect("entered above") += next.len();
                    worker.send_with_tag(&next[..], WORK);
                }
            }
        }
        if running == 0 && local_batches == 0 && (queue.is_empty() || failure.is_some()) {
            break;
        }
        if busy {
            nap = MIN_NAP;
            continue;
        }
        // Nothing arrived: wait for a local batch (which wakes this at
        // once) or the next probe; never a spin.
        match local_results.recv_timeout(nap) {
            Ok(batch) => {
                arrived = Some(batch);
                nap = MIN_NAP;
            }
            Err(_) => nap = (nap * 2).min(MAX_NAP),
        }
    });
    if let Some((journal, _)) = journal {
        let flushed = journal.flush();
        if let Some(e) = failure {
            return Err(e);
        }
        flushed?;
    }
    loads[0].cpu_s = system::process_cpu_s();
    loads[0].gpu = gpu();
    let wall_s = start.elapsed().as_secs_f64();
    let coordinator_cpu_s = system::thread_cpu_s()
        .zip(coordinator_cpu_before)
        .map(|(after, before)| after - before);
    Ok(Coordinated {
        tally,
        load: MpiLoad::new(loads, round_trips, wall_s, coordinator_cpu_s),
    })
}

/// What rank 0 returns: the sum of every item, and how every rank spent
/// the count.
#[derive(Clone, Debug, PartialEq)]
pub struct Coordinated {
    /// What every item adds up to.
    pub tally: Tally,
    /// How each rank spent the count.
    pub load: MpiLoad,
}

/// The header of a worker's results message: its load so far.
fn header(load: &RankLoad) -> [u64; HEADER_WORDS] {
    let nanos = |s: f64| (s * 1e9) as u64;
    [
        load.threads as u64,
        load.items as u64,
        load.batches as u64,
        nanos(load.busy_s),
        nanos(load.starved_s),
        load.cpu_s.map_or(ABSENT, nanos),
        load.gpu.map_or(ABSENT, |gpu| gpu.pairs),
        load.gpu.map_or(0, |gpu| nanos(gpu.busy_s)),
    ]
}

/// Rank 0's side of [`header`]: the load a worker sent, into `load`
/// (everything but its rank and when its message arrived).
fn read_header(load: &mut RankLoad, words: &[u64]) {
    let word = |i: usize| words.get(i).copied().unwrap_or(0);
    let seconds = |i: usize| word(i) as f64 / 1e9;
    load.threads = (word(0) as usize).max(1);
    load.items = word(1) as usize;
    load.batches = word(2) as usize;
    load.busy_s = seconds(3);
    load.starved_s = seconds(4);
    load.cpu_s = (word(5) != ABSENT).then(|| seconds(5));
    load.gpu = (word(6) != ABSENT).then(|| RankGpu {
        pairs: word(6),
        busy_s: seconds(7),
    });
}

/// The items not handed out yet with their estimated cost, largest last
/// (popped first), and the cost they add up to.
struct Queue {
    todo: Vec<(f64, usize)>,
    remaining_cost: f64,
    ranks: usize,
}

impl Queue {
    fn new(engine: &dyn Engine, todo: Vec<usize>, ranks: usize) -> Queue {
        let mut todo: Vec<(f64, usize)> = todo.into_iter().map(|i| (engine.cost(i), i)).collect();
        todo.sort_by(|a, b| a.0.total_cmp(&b.0).then(b.1.cmp(&a.1)));
        Queue {
            remaining_cost: todo.iter().map(|&(cost, _)| cost).sum(),
            todo,
            ranks,
        }
    }

    fn is_empty(&self) -> bool {
        self.todo.is_empty()
    }

    /// The next batch for a rank of `threads` threads, guided by cost: a
    /// share of what is left (large batches while much is left, small ones
    /// at the end, so that the last items spread over every rank), and at
    /// least an item a thread.
    fn next_batch(&mut self, threads: usize) -> Vec<usize> {
        let share = self.remaining_cost / (BATCHES_PER_RANK * self.ranks) as f64;
        let mut batch = Vec::new();
        let mut cost = 0.0;
        while batch.len() < threads || cost < share {
            let Some((item_cost, item)) = self.todo.pop() else {
                break;
            };
            cost += item_cost;
            batch.push(item);
        }
        self.remaining_cost -= cost;
        batch
    }
}

/// A counted batch: each item's tally, and the thread time they took.
struct Batch {
    results: Vec<(usize, Tally)>,
    busy: Duration,
}

/// Counts `batch` on the scope's pool as one job (its items spread over
/// the threads by rayon), and sends every item's tally when all are done:
/// one wakeup of the calling thread a batch, not one an item (at n = 19,
/// 16,000 items a second on 2 threads).
fn count_batch<'scope>(
    scope: &rayon::Scope<'scope>,
    engine: &'scope dyn Engine,
    batch: Vec<usize>,
    finished: mpsc::Sender<Batch>,
) {
    scope.spawn(move |_| {
        use rayon::prelude::*;
        let timed: Vec<(usize, Tally, Duration)> = batch
            .into_par_iter()
            .with_max_len(1)
            .map(|item| {
                let clock = Instant::now();
                let tally = engine.count(item..item + 1);
                (item, tally, clock.elapsed())
            })
            .collect();
        let busy = timed.iter().map(|&(_, _, took)| took).sum();
        let results = timed.into_iter().map(|(item, t, _)| (item, t)).collect();
        // The receiver outlives the scope.
        let _ = finished.send(Batch { results, busy });
    });
}

/// The shortest wait for a message: the first after one arrived.
const MIN_NAP: Duration = Duration::from_micros(20);

/// The longest sleep between two probes for a message: the most a
/// message waits to be seen. Every rank holds a batch queued behind the
/// one it counts ([`BATCHES_HELD`]), so a reply this late idles no thread;
/// shorter naps only cost wakeups.
const MAX_NAP: Duration = Duration::from_millis(2);

/// Batches a rank holds, the one counting and one queued behind it, so
/// that no thread waits for a round trip to rank 0.
const BATCHES_HELD: usize = 2;

/// Runs a worker's side: asks rank 0 for work and counts it on `pool`, a
/// batch at a time with the next one queued ([`BATCHES_HELD`]), and sends
/// each finished batch's results with the next request, until told to
/// stop. Only the calling thread talks to MPI; it sleeps until a batch
/// finishes, or between probes while it waits for a reply. `gpu` says what
/// this rank's GPU (`--gpu`) did so far, sent with every report (`None`
/// without one).
pub fn work<C: Communicator>(
    world: &C,
    engine: &dyn Engine,
    pool: &rayon::ThreadPool,
    gpu: &dyn Fn() -> Option<RankGpu>,
) {
    let root = world.process_at_rank(0 as Rank);
    let mut load = RankLoad::new(usize::try_from(world.rank()).unwrap_or(0));
    load.threads = pool.current_num_threads();
    let (finished, results) = mpsc::channel::<Batch>();
    pool.in_place_scope(|scope| {
        let mut message = Vec::new();
        let mut batches = 0usize;
        let mut asked = false;
        let mut nap = MIN_NAP;
        // Whether rank 0 answered with no items: every item is out.
        let mut drained = false;
        // Since when the pool has held no batch, while more may come.
        let mut starved_since = Some(Instant::now());
        loop {
            let wants_more = if drained {
                batches == 0
            } else {
                batches < BATCHES_HELD
            };
            if !asked && wants_more {
                load.cpu_s = system::process_cpu_s();
                load.gpu = gpu();
                let mut words = header(&load).to_vec();
                words.append(&mut message);
                root.send_with_tag(&words[..], RESULTS);
                asked = true;
            }
            if asked {
                if let Some(reply) = root.immediate_matched_probe() {
                    let (items, status) = reply.matched_receive_vec::<u64>();
                    asked = false;
                    nap = MIN_NAP;
                    if status.tag() != WORK {
                        return;
                    }
                    drained = items.is_empty();
                    if drained {
                        starved_since = None;
                    } else {
                        if let Some(since) = starved_since.take() {
                            load.starved_s += since.elapsed().as_secs_f64();
                        }
                        batches += 1;
                        let batch = items.into_iter().map(|i| i as usize).collect();
                        count_batch(scope, engine, batch, finished.clone());
                    }
                    continue;
                }
            }
            // Wait for a batch to finish; while a reply is awaited, only
            // until the next probe.
            let first = match asked {
                true => {
                    let first = results.recv_timeout(nap).ok();
                    nap = (nap * 2).min(MAX_NAP);
                    first
                }
                false => results.recv().ok(),
            };
            for batch in first.into_iter().chain(results.try_iter()) {
                batches -= 1;
                load.add_batch(batch.results.len(), batch.busy.as_secs_f64());
                for (item, tally) in batch.results {
                    message.extend(encode(item, tally));
                }
            }
            if batches == 0 && !drained && starved_since.is_none() {
                starved_since = Some(Instant::now());
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

    #[test]
    fn a_load_crosses_the_wire_with_its_gpu_or_without_one() {
        let mut sent = RankLoad::new(3);
        sent.threads = 16;
        sent.add_batch(40, 2.5);
        sent.starved_s = 0.25;
        sent.cpu_s = Some(9.0);
        for gpu in [
            None,
            Some(RankGpu {
                pairs: 1 << 40,
                busy_s: 1.5,
            }),
        ] {
            sent.gpu = gpu;
            // Rank 0 fills in the rank and the arrival itself.
            let mut read = RankLoad::new(3);
            read_header(&mut read, &header(&sent));
            assert_eq!(read, sent);
        }
        sent.cpu_s = None;
        let mut read = RankLoad::new(3);
        read_header(&mut read, &header(&sent));
        assert_eq!(read.cpu_s, None);
    }
}
