//! How work items run: today on the current rayon [pool]; a journal,
//! shards and MPI come next, all over the same [`Engine`](crate::engine::Engine)
//! items.
//!
//! Nothing here knows how an item is counted.

pub mod pool;

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
