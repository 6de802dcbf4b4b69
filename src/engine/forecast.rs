//! What a count of every item of an engine costs on one thread, by the
//! engine's own method: the backtracker probes its search tree and times a
//! smaller board ([`backtrack::forecast`](super::backtrack::forecast)); the
//! join times a sample of its items ([`sample`](super::sample)) or, past
//! [`LARGEST_SAMPLED`](super::join::LARGEST_SAMPLED), sketches a sample of
//! its slots. The executor turns a [`Workload`] into wall time on some
//! threads ([`exec::forecast`](crate::exec::forecast)).

use serde::Serialize;

/// One thread's seconds for every item, and what they rest on.
#[derive(Clone, Debug, PartialEq)]
pub struct Workload {
    /// Seconds on one thread: the count's core time.
    pub one_thread_s: f64,
    /// The standard error of `one_thread_s`, relative to it.
    pub relative_error: f64,
    /// What it rests on.
    pub basis: Basis,
}

/// What a forecast rests on.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
#[non_exhaustive]
pub enum Basis {
    /// The nodes of the search and this machine's pace.
    Search {
        /// Nodes of the search (placements below the plan's cut).
        nodes: f64,
        /// The standard error of `nodes`, relative to it.
        nodes_relative_error: f64,
        /// The probes that estimated them.
        probes: usize,
        /// The board timed for the pace.
        calibration_n: usize,
        /// How long it took, on one thread.
        calibration_s: f64,
        /// The pace: nodes a second on one thread.
        nodes_per_s_per_thread: f64,
    },
    /// A sketch of a sample of the join's units (drawn slots), each
    /// one's glue and pair count done in part and timed.
    Sketch {
        /// The units in all (slots, empty ones included).
        units: u64,
        /// Units per work item.
        units_per_item: u64,
        /// The pair units sketched (a census weighs them by how many
        /// rows each holds north; empty slots are not sketched).
        sampled_units: usize,
        /// Seconds the sketch took.
        sketched_s: f64,
        /// The share of the time the glue takes (the rest counts pairs).
        glue_share: f64,
        /// Seconds the largest item should take, about: the least the
        /// count takes on any number of threads.
        largest_item_s: f64,
    },
    /// A timed sample of the engine's work items.
    Sample {
        /// The work items in all.
        items: usize,
        /// The items timed.
        sampled_items: usize,
        /// Seconds the sample took on one thread.
        sampled_s: f64,
        /// Seconds the largest item should take: the least the count
        /// takes on any number of threads.
        largest_item_s: f64,
    },
}

impl Basis {
    /// Seconds below which no count ends on any number of threads: its
    /// largest item's, where the basis knows it (0 for a search).
    pub fn largest_item_s(&self) -> f64 {
        match *self {
            Basis::Sample { largest_item_s, .. } | Basis::Sketch { largest_item_s, .. } => {
                largest_item_s
            }
            Basis::Search { .. } => 0.0,
        }
    }

    /// How big the count is, in words: `1.23e+12 nodes in all`, or
    /// `176871 work items, 105 timed`.
    pub fn size(&self) -> String {
        match *self {
            Basis::Search { nodes, .. } => format!("{nodes:.2e} nodes in all"),
            Basis::Sample {
                items,
                sampled_items,
                ..
            } => format!("{items} work items, {sampled_items} timed"),
            Basis::Sketch {
                units,
                units_per_item,
                sampled_units,
                ..
            } => format!(
                "{} work items of {units_per_item} slots, {sampled_units} pair slots sketched",
                units.div_ceil(units_per_item)
            ),
        }
    }
}
