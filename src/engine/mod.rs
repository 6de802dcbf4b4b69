//! The engines: what a work item is, and how to count one.
//!
//! Everything above an engine (the [pool](crate::exec), and next the
//! journal, shards and MPI) sees it through the small [`Engine`] trait: a
//! [`Fingerprint`], a number of work items with stable indices, an estimated
//! cost per item, and a count of any range of items. Items and their indices
//! depend only on the fingerprint, never on the thread count or the instruction-set path,
//! so a run can be split, resumed or merged across threads and machines, and
//! tallies of disjoint ranges add up to the whole.
//!
//! ```
//! use nqueens::engine::backtrack::Backtrack;
//! use nqueens::{exec, Engine, Plan, Symmetry};
//!
//! let engine = Backtrack::new(Plan::new(14, 4, Symmetry::Full)?, Backtrack::fastest())?;
//! let half = engine.items() / 2;
//! let first = exec::pool::count_items(&engine, 0..half, &|_| {});
//! let rest = exec::pool::count_items(&engine, half..engine.items(), &|_| {});
//! assert_eq!(first.sum(rest).total(), 365_596);
//! # Ok::<(), nqueens::Error>(())
//! ```
//!
//! Nothing here imports the executor or the command line.

pub mod any;
pub mod backtrack;
pub mod cpu;
pub mod forecast;
pub mod join;
pub mod recount;
pub mod sample;

use std::ops::Range;

use serde::{Deserialize, Serialize};

use self::forecast::Workload;
use crate::problem::{Error, Symmetry, MAX_N};
use crate::reduce::{Classes, Tally};

/// The engines there are.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum EngineId {
    /// Row-by-row backtracking on a plan of subproblems ([`backtrack`]).
    Backtrack,
    /// Half-boards joined from quarter tables ([`join`]; in progress).
    Join,
}

impl EngineId {
    /// The engine's name in files and reports.
    pub fn name(self) -> &'static str {
        match self {
            EngineId::Backtrack => "backtrack",
            EngineId::Join => "join",
        }
    }

    /// The engine's name in messages and its instruction-set paths.
    fn paths(self) -> (&'static str, &'static [cpu::Path]) {
        match self {
            EngineId::Backtrack => (backtrack::Backtrack::NAME, backtrack::Backtrack::PATHS),
            EngineId::Join => (join::Join::NAME, join::Join::PATHS),
        }
    }

    /// The path the engine counts on: `asked`, else the fastest it has on
    /// this CPU.
    pub fn simd(self, asked: Option<cpu::Simd>) -> cpu::Simd {
        asked.unwrap_or_else(|| cpu::fastest(self.paths().1))
    }

    /// `Ok` if the engine runs on `simd` on this CPU.
    ///
    /// # Errors
    /// [`Error::SimdUnavailable`],
    /// as [`cpu::check`].
    pub fn check(self, simd: cpu::Simd) -> Result<(), crate::problem::Error> {
        let (name, paths) = self.paths();
        cpu::check(name, paths, simd)
    }
}

impl std::fmt::Display for EngineId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// What fixes an engine's work items: two runs with equal fingerprints
/// have the same items with the same indices, whatever they run on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Fingerprint {
    /// The engine.
    pub engine: EngineId,
    /// The board size.
    pub n: usize,
    /// The symmetry the items' weights account for.
    pub symmetry: Symmetry,
    /// The split depth.
    pub depth: usize,
    /// The version of the engine's items.
    pub format: u32,
    /// The join's layout (absent for the backtracker): its items differ
    /// between the two.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub layout: Option<join::JoinLayout>,
}

/// `join n = 20 full depth 10 (format 7, layout table)`: every field, as
/// a message comparing two of them names them.
impl std::fmt::Display for Fingerprint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} n = {} {} depth {} (format {}",
            self.engine, self.n, self.symmetry, self.depth, self.format
        )?;
        if let Some(layout) = self.layout {
            write!(f, ", layout {layout}")?;
        }
        f.write_str(")")
    }
}

impl Fingerprint {
    /// The join's layout by name, `none` for an engine without one.
    pub fn layout_name(&self) -> &'static str {
        self.layout.map_or("none", join::JoinLayout::name)
    }

    /// The classes a whole count's tally gives: counted (backtracking,
    /// full symmetry) or by Burnside's lemma (the join, whose fixed-point
    /// items every whole count holds); `None` otherwise.
    ///
    /// # Errors
    /// [`Error::Overflow`] if the tally saturated; [`Error::NoFixedPoints`]
    /// for a join's tally without its fixed-point counts (a record or
    /// shard edited); [`Error::Burnside`] if the join's counts do not fall
    /// into orbits.
    pub fn classes(&self, tally: &Tally) -> Result<Option<Classes>, Error> {
        let n = self.n;
        match (self.engine, self.symmetry, tally.fixed) {
            (EngineId::Join, _, Some(fixed)) => {
                Classes::by_burnside(n, tally.total_checked(n)?, fixed).map(Some)
            }
            (EngineId::Join, _, None) => Err(Error::NoFixedPoints { n }),
            (EngineId::Backtrack, Symmetry::Full, _) => Ok(Some(tally.classes)),
            (EngineId::Backtrack, _, _) => Ok(None),
        }
    }

    /// The classes a part of a count (a shard) records: the tally's own
    /// where they add up across parts (backtracking, full symmetry); none
    /// for the join, whose classes come from the whole total.
    pub fn part_classes(&self, tally: &Tally) -> Option<Classes> {
        (self.engine == EngineId::Backtrack && self.symmetry == Symmetry::Full)
            .then_some(tally.classes)
    }
}

/// How many work items the plan `fingerprint` describes has, worked out
/// again from it (without building the plan or filling a table); or what
/// in it no plan of this program has, naming the field. Whatever is read
/// from a file (a journal's header, a shard file) is checked with this
/// before it sizes anything.
///
/// # Errors
/// A phrase naming the field, e.g. `n 33 is outside 1..=32`.
pub fn items_of(fingerprint: &Fingerprint, max_subproblems: usize) -> Result<usize, String> {
    let Fingerprint {
        engine,
        n,
        symmetry,
        depth,
        format,
        layout,
    } = *fingerprint;
    if !(1..=MAX_N).contains(&n) {
        return Err(format!("n {n} is outside 1..={MAX_N}"));
    }
    let ours = match engine {
        EngineId::Backtrack => backtrack::FORMAT,
        EngineId::Join => join::FORMAT,
    };
    if format != ours {
        return Err(format!(
            "item format {format} is not this program's {engine} format {ours}"
        ));
    }
    match engine {
        EngineId::Backtrack => {
            if let Some(layout) = layout {
                return Err(format!("layout {layout} is the join's, not the {engine}'s"));
            }
            if !(1..=n).contains(&depth) {
                return Err(format!("depth {depth} is outside 1..={n} for n = {n}"));
            }
            backtrack::plan::Plan::items_of(n, depth, symmetry, max_subproblems).ok_or_else(|| {
                format!(
                    "depth {depth} plans more than {max_subproblems} subproblems for n = {n} \
                     ({}; --max-memory allows more)",
                    crate::problem::bytes(max_subproblems as u64 * 32)
                )
            })
        }
        EngineId::Join => {
            if n > join::LARGEST_N {
                return Err(format!(
                    "n {n} is past the join's largest board, {}",
                    join::LARGEST_N
                ));
            }
            if symmetry != Symmetry::Full {
                return Err(format!("symmetry {symmetry} is not the join's, full"));
            }
            if depth != n / 2 {
                return Err(format!(
                    "depth {depth} is not the join's quarter, {}",
                    n / 2
                ));
            }
            let layout = layout.ok_or_else(|| "no layout: a join's names one".to_string())?;
            join::Join::items_of(n, layout).map_err(|e| e.to_string())
        }
    }
}

/// How many subproblems the plan `fingerprint` describes holds, as a
/// count of it reports them: the backtracker's plan's, the join's pair
/// items ([`join::Join::pair_items`]).
///
/// # Errors
/// As [`items_of`].
pub fn subproblems_of(fingerprint: &Fingerprint, max_subproblems: usize) -> Result<usize, String> {
    let items = items_of(fingerprint, max_subproblems)?;
    let Fingerprint {
        n, depth, symmetry, ..
    } = *fingerprint;
    match fingerprint.engine {
        EngineId::Backtrack => backtrack::plan::Plan::size(n, depth, symmetry, max_subproblems)
            .ok_or_else(|| format!("depth {depth} plans more than {max_subproblems} subproblems")),
        EngineId::Join if n > join::LISTED_TO => Ok(items),
        EngineId::Join => Ok(items - join::count::burnside::items(n)),
    }
}

/// A way of counting, cut into independent work items.
pub trait Engine: Sync {
    /// What fixes the items.
    fn fingerprint(&self) -> Fingerprint;

    /// The number of work items, indexed `0..items()`.
    fn items(&self) -> usize;

    /// An estimate of what item `item` costs to count, in units comparable
    /// between the items of one engine (for ordering and balancing shards).
    fn cost(&self, item: usize) -> f64;

    /// Counts the items in `items`.
    fn count(&self, items: Range<usize>) -> Tally;

    /// The items, in order, whose tallies carry counts of the rotations'
    /// fixed points ([`Tally::fixed`]), where the engine counts classes by
    /// Burnside's lemma: a record of one without them was edited, and is
    /// refused. None by default.
    fn items_with_fixed_points(&self) -> Vec<usize> {
        Vec::new()
    }

    /// The instruction-set path it counts on.
    fn simd(&self) -> cpu::Simd;

    /// The subproblems its items hold, as a count reports them (the
    /// backtracker's plan's, the join's pair items).
    fn subproblems(&self) -> usize;

    /// The memory it planned for, in bytes, where it plans its memory
    /// (the join); `None` by default.
    fn planned_bytes(&self) -> Option<u64> {
        None
    }

    /// Seconds spent so far building what its items share, once a count
    /// rather than once an item (the join's shared row sets): a timed
    /// sample of items takes them out of each item's time and adds them
    /// once ([`sample::time_by_cost`]). Zero by default.
    fn shared_s(&self) -> f64 {
        0.0
    }

    /// Seconds building the rest of what its items share should take,
    /// at most, by what [`Engine::shared_s`] has seen. Zero by default.
    fn shared_rest_s(&self) -> f64 {
        0.0
    }

    /// Seconds on one thread that no machine beats for every item, worked
    /// out in milliseconds: a count shorter than a threshold is not
    /// forecast at all. Infinite where every count is long.
    fn least_one_thread_s(&self) -> f64;

    /// The engine's forecast of every item on one thread, by its own
    /// method, spending about `budget_s` seconds of this thread.
    ///
    /// # Errors
    /// What the method's own planning or thread pool refuses.
    fn workload(&self, budget_s: f64) -> Result<Workload, Error>;
}
