//! Shards: a count cut into M parts that run anywhere (other machines, a
//! job array, different days) and are summed by [`merge`](super::merge).
//!
//! Shard I of M is one contiguous range of the engine's work items, the
//! ranges cut where the items' estimated cost ([`Engine::cost`]) crosses
//! I/M of the total, so that shards take similar time. The cut depends on
//! the engine's items alone: every machine computes the same ranges.
//!
//! A finished shard is a JSON file ([`ShardFile`]) with the fingerprint,
//! its items, what they add up to, and how and where they were counted;
//! written through a temporary file and a rename, so a file that exists is
//! whole.

use std::ops::Range;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::engine::{Engine, EngineId, Fingerprint};
use crate::reduce::{Classes, Tally};

/// The `kind` of every shard file.
pub const KIND: &str = "nqueens-shard";

/// The version of the shard file's layout.
pub const FORMAT: u32 = 1;

/// The most shards a count may be cut into.
pub const MAX_SHARDS: usize = 1 << 20;

/// The items of each of `shards` shards of `engine`, in order: contiguous,
/// covering every item once, balanced by estimated cost. A shard may be
/// empty when there are fewer items than shards.
pub fn ranges(engine: &dyn Engine, shards: usize) -> Vec<Range<usize>> {
    let shards = shards.max(1);
    let items = engine.items();
    let costs: Vec<f64> = (0..items).map(|i| engine.cost(i).max(0.0)).collect();
    let total: f64 = costs.iter().sum();
    let mut out = Vec::with_capacity(shards);
    let (mut start, mut spent) = (0, 0.0);
    for (item, cost) in costs.iter().enumerate() {
        // Close shards whose share of the cost is spent, before this item.
        while out.len() + 1 < shards && spent >= total * (out.len() + 1) as f64 / shards as f64 {
            out.push(start..item);
            start = item;
        }
        spent += cost;
    }
    while out.len() + 1 < shards {
        out.push(start..items);
        start = items;
    }
    out.push(start..items);
    out
}

/// A finished shard, as written to its file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ShardFile {
    /// Always [`KIND`].
    pub kind: String,
    /// The layout's version, [`FORMAT`].
    pub format: u32,
    /// The engine's plan.
    pub fingerprint: Fingerprint,
    /// Which shard: `[I, M]`, 1-based.
    pub shard: [usize; 2],
    /// Its items, `[start, end)`.
    pub items: [usize; 2],
    /// How many items the engine has in all.
    pub total_items: usize,
    /// What its items add up to.
    pub tally: Tally,
    /// Its part of the total, `tally`'s solutions (a decimal string: it
    /// may exceed what JSON readers hold exactly).
    pub total: String,
    /// Its orbit classes (`tally`'s), when the symmetry is full.
    #[serde(default)]
    pub classes: Option<Classes>,
    /// Wall-clock seconds the shard took (the last run, if it resumed from
    /// a journal).
    pub elapsed_s: f64,
    /// Threads it ran on.
    pub threads: usize,
    /// The instruction-set path that counted it (`scalar`, `lanes`,
    /// `portable` in files of nqueens 0.2 and before, under `kernel`).
    #[serde(alias = "kernel")]
    pub simd: String,
    /// The machine it ran on (host name) and its CPU model.
    pub host: String,
    /// The CPU model.
    pub cpu: String,
    /// The program that counted it ([`crate::problem::PROGRAM`]).
    pub program: String,
}

impl ShardFile {
    /// Its items, as a range.
    pub fn range(&self) -> Range<usize> {
        self.items[0]..self.items[1]
    }
}

/// What goes wrong reading a shard file: the message names the file.
#[derive(Debug, thiserror::Error)]
#[error("{path}: {why}")]
pub struct BadShard {
    /// The file.
    pub path: String,
    /// What is wrong with it.
    pub why: String,
}

/// Reads and checks a shard file.
///
/// # Errors
/// [`BadShard`] if it cannot be read, is no shard file, or contradicts
/// itself (its items, its total and its tally).
pub fn read(path: &Path) -> Result<ShardFile, BadShard> {
    let bad = |why: String| BadShard {
        path: path.display().to_string(),
        why,
    };
    let text = std::fs::read_to_string(path).map_err(|e| bad(format!("cannot read it: {e}")))?;
    let file: ShardFile = serde_json::from_str(&text)
        .map_err(|e| bad(format!("is not an nqueens shard file ({e})")))?;
    if file.kind != KIND {
        return Err(bad(format!("is a '{}', not an nqueens shard", file.kind)));
    }
    if file.format != FORMAT {
        return Err(bad(format!(
            "is of shard format {}; this program reads format {FORMAT}",
            file.format
        )));
    }
    // Checked against the plan its fingerprint describes before anything
    // is sized by it.
    let planned = crate::engine::items_of(&file.fingerprint)
        .map_err(|why| bad(format!("its fingerprint describes no plan: {why}")))?;
    if file.total_items != planned {
        return Err(bad(format!(
            "its total_items {} is not the {planned} items of the plan its fingerprint describes",
            file.total_items
        )));
    }
    let [index, shards] = file.shard;
    if !(1..=MAX_SHARDS).contains(&shards) || !(1..=shards).contains(&index) {
        return Err(bad(format!(
            "its shard {index} of {shards} is not I of M with 1 <= I <= M <= {MAX_SHARDS}"
        )));
    }
    if !(file.elapsed_s.is_finite() && file.elapsed_s >= 0.0) {
        return Err(bad(format!("its elapsed_s {} is no time", file.elapsed_s)));
    }
    if file.items[0] > file.items[1] || file.items[1] > file.total_items {
        return Err(bad(format!(
            "items {}..{} do not lie in 0..{}",
            file.items[0], file.items[1], file.total_items
        )));
    }
    if file.classes != classes(&file.fingerprint, &file.tally) {
        return Err(bad("its classes are not its tally's".to_string()));
    }
    if file.total != file.tally.total().to_string() {
        return Err(bad(format!(
            "its total {} is not what its tally adds up to, {}",
            file.total,
            file.tally.total()
        )));
    }
    Ok(file)
}

/// The classes a shard file records: the tally's own where they add up
/// across shards (backtracking, full symmetry); none for the join, whose
/// classes come from the merged total.
pub fn classes(fingerprint: &Fingerprint, tally: &Tally) -> Option<Classes> {
    (fingerprint.engine == EngineId::Backtrack
        && fingerprint.symmetry == crate::problem::Symmetry::Full)
        .then_some(tally.classes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::backtrack::plan::Plan;
    use crate::engine::backtrack::Backtrack;
    use crate::engine::cpu::Simd;
    use crate::problem::Symmetry;

    #[test]
    fn shards_cover_every_item_once_in_order() {
        let engine = Backtrack::new(Plan::new(12, 4, Symmetry::Full).unwrap(), Simd::None).unwrap();
        for shards in [1, 2, 3, 7, 64, engine.items(), engine.items() + 5] {
            let ranges = ranges(&engine, shards);
            assert_eq!(ranges.len(), shards);
            let mut next = 0;
            for range in &ranges {
                assert_eq!(range.start, next);
                next = range.end;
            }
            assert_eq!(next, engine.items());
        }
    }

    #[test]
    fn shards_are_balanced_by_cost() {
        let engine =
            Backtrack::new(Plan::new(14, 5, Symmetry::Mirror).unwrap(), Simd::None).unwrap();
        let total: f64 = (0..engine.items()).map(|i| engine.cost(i)).sum();
        let largest = (0..engine.items())
            .map(|i| engine.cost(i))
            .fold(0.0, f64::max);
        for range in ranges(&engine, 4) {
            let cost: f64 = range.map(|i| engine.cost(i)).sum();
            assert!((cost - total / 4.0).abs() <= largest, "{cost} of {total}");
        }
    }
}
