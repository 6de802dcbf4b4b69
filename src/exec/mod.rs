//! How work items run, over any [`Engine`](crate::engine::Engine)'s items:
//! on the current rayon [pool]; recorded in a crash-safe [journal] as they
//! finish, so that a count resumes where it stopped; cut into [shard]s that
//! run anywhere and are summed by [merge]; [forecast] before they run (from
//! what the engine says its items cost); timed whole, unit after unit, to [rate] a
//! machine.
//!
//! Nothing here knows how an item is counted.

pub mod forecast;
pub mod journal;
pub mod merge;
#[cfg(feature = "mpi")]
pub mod mpi;
pub mod pool;
pub mod ranks;
pub mod rate;
pub mod shard;

/// What a long count is doing, for a progress display.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Cutting the search into work items (the plan): no item done yet.
    Planning,
    /// Counting: `done` of `items` work items finished.
    Counting {
        /// Items finished.
        done: usize,
        /// Items in all.
        items: usize,
    },
}

/// Called as the count moves on, from whichever thread moved it.
pub type Progress<'a> = &'a (dyn Fn(Phase) + Sync);
