//! The backtracker's forecast: its nodes by Knuth's estimator
//! ([`estimate::nodes`]) on the very tree the count searches, paced by
//! timing the same search on one thread on the largest smaller board that
//! counts in about [`CALIBRATION_S`], whose nodes are estimated the same
//! way. A serial textbook search is forecast the same way ([`Search::Serial`]).

use std::time::Instant;

use super::estimate::{self, NodeEstimate};
use super::plan::Plan;
use super::Backtrack;
use crate::engine::cpu::Simd;
use crate::engine::forecast::{Basis, Workload};
use crate::engine::Engine;
use crate::problem::{Error, Symmetry};

/// Probes per estimate: a few percent of spread for the boards people count.
pub const PROBES: usize = 20_000;

/// How long the calibration's count may take, on one thread.
pub const CALIBRATION_S: f64 = 0.3;

/// Nodes a second no machine's thread beats in the kernel (for the quick
/// first look).
const KERNEL_FASTEST_NODES_PER_S: f64 = 2e9;

/// The search a forecast probes and times.
#[derive(Clone, Copy, Debug)]
pub enum Search {
    /// The engine's kernel on a plan of `symmetry`, on `simd`.
    Kernel {
        /// The symmetry its plan exploits.
        symmetry: Symmetry,
        /// The path its kernel counts on.
        simd: Simd,
    },
    /// A serial search of the whole tree.
    Serial {
        /// The search: the solutions of the n×n board.
        count: fn(usize) -> u64,
        /// Nodes a second no machine beats (for the quick first look).
        fastest_nodes_per_s: f64,
    },
}

impl Search {
    /// A plan of the tree the search walks, to probe: the kernel's at its
    /// one-thread depth (a deeper cut leaves the nodes below it all but the
    /// same, and would only cost planning); the whole tree cut after the
    /// first row for a serial search.
    fn plan(self, n: usize) -> Result<Plan, Error> {
        match self {
            Search::Kernel { symmetry, .. } => Plan::auto(n, symmetry, 1),
            Search::Serial { .. } => Plan::new(n, 1, Symmetry::None),
        }
    }

    /// Seconds on one thread no machine beats, from a quick estimate of
    /// the nodes (milliseconds): counts shorter than a threshold are not
    /// forecast at all.
    ///
    /// # Errors
    /// What planning the search refuses.
    pub fn least_one_thread_s(self, n: usize) -> Result<f64, Error> {
        let fastest = match self {
            Search::Kernel { .. } => KERNEL_FASTEST_NODES_PER_S,
            Search::Serial {
                fastest_nodes_per_s,
                ..
            } => fastest_nodes_per_s,
        };
        Ok(estimate::nodes(&self.plan(n)?, 2_000, 3).nodes / fastest)
    }

    /// The forecast of the search of the n×n board on one thread.
    ///
    /// # Errors
    /// What planning the search refuses; [`Error::ThreadPool`] if the
    /// one-thread pool of the calibration cannot start.
    pub fn workload(self, n: usize) -> Result<Workload, Error> {
        let nodes = estimate::nodes(&self.plan(n)?, PROBES, n as u64);
        let (calibration_n, calibration_s, calibration_nodes) = self.calibrate(n)?;
        let pace = calibration_nodes / calibration_s.max(1e-6);
        let NodeEstimate {
            nodes,
            relative_error,
            probes,
        } = nodes;
        // A tree with no node (n = 2, 3) takes no time, whatever the pace.
        let one_thread_s = if nodes > 0.0 {
            nodes / pace.max(1e-9)
        } else {
            0.0
        };
        Ok(Workload {
            one_thread_s,
            relative_error,
            basis: Basis::Search {
                nodes,
                nodes_relative_error: relative_error,
                probes,
                calibration_n,
                calibration_s,
                nodes_per_s_per_thread: pace,
            },
        })
    }

    /// Times the largest board up to n whose count takes about
    /// [`CALIBRATION_S`] on one thread: (its n, seconds, estimated nodes).
    fn calibrate(self, n: usize) -> Result<(usize, f64, f64), Error> {
        let one = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .map_err(|e| Error::ThreadPool { why: e.to_string() })?;
        let once = |board: usize| -> Result<f64, Error> {
            let start = Instant::now();
            match self {
                Search::Kernel { symmetry, simd } => {
                    // The smaller boards at their own automatic depth.
                    let engine = Backtrack::new(Plan::auto(board, symmetry, 1)?, simd)?;
                    one.install(|| std::hint::black_box(engine.count(0..engine.items())));
                }
                Search::Serial { count, .. } => {
                    std::hint::black_box(count(board));
                }
            }
            Ok(start.elapsed().as_secs_f64())
        };
        let nodes_of = |board: usize, probes: usize| -> Result<f64, Error> {
            Ok(estimate::nodes(&self.plan(board)?, probes, board as u64).nodes)
        };
        // Climb to the largest board that counts within CALIBRATION_S...
        let mut board = n.min(8);
        let mut seconds = once(board)?;
        let mut nodes = nodes_of(board, PROBES / 4)?;
        while board < n {
            let next = nodes_of(board + 1, PROBES / 4)?;
            if next * seconds / nodes.max(1.0) > CALIBRATION_S {
                break;
            }
            board += 1;
            (seconds, nodes) = (once(board)?, next);
        }
        // ...then time it again a few times (CALIBRATION_S in all) and keep
        // the fastest: one short run is at the mercy of everything else
        // running.
        let budget = Instant::now();
        while budget.elapsed().as_secs_f64() + seconds < CALIBRATION_S {
            seconds = seconds.min(once(board)?);
        }
        let nodes = nodes_of(board, PROBES)?;
        Ok((board, seconds, nodes))
    }
}

impl Backtrack {
    /// The search its forecast probes and times.
    pub fn search(&self) -> Search {
        Search::Kernel {
            symmetry: self.plan().symmetry,
            simd: self.simd(),
        }
    }
}
