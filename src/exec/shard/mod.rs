//! Shards: a count cut into M parts that run anywhere (other machines, a
//! job array, different days) and are summed by [`merge`](super::merge).
//!
//! Shard I of M is one contiguous range of the engine's work items, the
//! ranges cut where the items' estimated cost ([`Engine::cost`]) crosses
//! I/M of the total, so that shards take similar time. The cut depends on
//! the engine's items alone: every machine computes the same ranges.
//!
//! A finished shard is a JSON file ([`ShardFile`]) with the fingerprint,
//! its items, what they add up to, and how and where they were counted,
//! sealed with a checksum of its fields ([`seal`]); written through a
//! synced temporary file and a rename, so a file that exists is whole.

pub mod seal;

use std::ops::Range;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::engine::{Engine, Fingerprint};
use crate::files::{self, FileError};
use crate::reduce::{Classes, Tally};

/// The `kind` of every shard file.
pub const KIND: &str = "nqueens-shard";

/// The version of the shard file's layout: 2 since the files are sealed
/// ([`seal`]); format 1 (nqueens 0.2, unsealed) is refused, since an
/// unsealed file accepted would make the seal pointless.
pub const FORMAT: u32 = 2;

/// The longest shard file read: a few hundred bytes of fields, with room
/// for long host and CPU names.
pub const MAX_BYTES: u64 = 64 << 10;

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
    /// The instruction-set path that counted it.
    pub simd: String,
    /// The machine it ran on (host name) and its CPU model.
    pub host: String,
    /// The CPU model.
    pub cpu: String,
    /// The program that counted it ([`crate::problem::PROGRAM`]).
    pub program: String,
    /// The CRC-32 of every other field in canonical form ([`seal`]), in
    /// hex; set by [`ShardFile::to_text`].
    #[serde(default)]
    pub seal: String,
}

impl ShardFile {
    /// Its items, as a range.
    pub fn range(&self) -> Range<usize> {
        self.items[0]..self.items[1]
    }

    /// The file's text: pretty JSON, sealed.
    pub fn to_text(&self) -> String {
        let mut sealed = self.clone();
        let compact = serde_json::to_string(&sealed).expect("shard files serialize");
        sealed.seal = seal::of(&compact).expect("a shard file is a JSON object");
        let mut text = serde_json::to_string_pretty(&sealed).expect("shard files serialize");
        text.push('\n');
        text
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
    /// Whether the file is a shard file whose seal no longer fits its
    /// fields (damaged or edited: a check failed), rather than one that
    /// cannot be read or is no shard file of this program.
    pub altered: bool,
}

/// The fields read before any other: what the file is.
#[derive(Deserialize)]
struct Kind {
    kind: String,
    format: u32,
}

/// Reads and checks a shard file, whose plan may hold at most
/// `max_subproblems` ([`max_subproblems`](crate::engine::backtrack::plan::max_subproblems)).
///
/// # Errors
/// [`BadShard`] if it cannot be read (or is no regular file, or longer
/// than any shard file), is no shard file of this format, its seal does
/// not fit its fields, or it contradicts itself or its plan (its items,
/// its total and its tally).
pub fn read(path: &Path, max_subproblems: usize) -> Result<ShardFile, BadShard> {
    let bad = |why: String| BadShard {
        path: crate::problem::printable(&path.display().to_string()).into_owned(),
        why,
        altered: false,
    };
    let bytes = files::read_regular(path, MAX_BYTES, "a shard file").map_err(|e| match e {
        FileError::Unfit(why) => bad(why),
        FileError::Io(e) => bad(format!("cannot read it: {e}")),
    })?;
    let text =
        String::from_utf8(bytes).map_err(|_| bad("is not text: no shard file".to_string()))?;
    let what: Kind = serde_json::from_str(&text)
        .map_err(|e| bad(format!("is not an nqueens shard file ({e})")))?;
    if what.kind != KIND {
        return Err(bad(format!(
            "is a '{}', not an nqueens shard",
            crate::problem::printable(&what.kind)
        )));
    }
    if what.format == 1 {
        return Err(bad(
            "is of shard format 1, written by nqueens 0.2 without a seal; this program reads \
             only sealed shards (format 2): count the shard again with this version"
                .to_string(),
        ));
    }
    if what.format != FORMAT {
        return Err(bad(format!(
            "is of shard format {}; this program reads format {FORMAT}",
            what.format
        )));
    }
    let file: ShardFile = serde_json::from_str(&text)
        .map_err(|e| bad(format!("is not an nqueens shard file ({e})")))?;
    if seal::of(&text).as_deref() != Some(file.seal.as_str()) {
        return Err(BadShard {
            altered: true,
            ..bad(format!(
                "its seal {} does not fit its fields: the file was damaged or edited after \
                 it was written (count the shard again)",
                crate::problem::printable(&file.seal)
            ))
        });
    }
    // Checked against the plan its fingerprint describes before anything
    // is sized by it.
    let planned = crate::engine::items_of(&file.fingerprint, max_subproblems)
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
    if file.range().is_empty() && file.tally != Tally::default() {
        return Err(bad(
            "it counts solutions in an empty range of items".to_string()
        ));
    }
    if file.tally.total_checked(file.fingerprint.n).is_err() {
        return Err(bad(
            "its tally saturated: no count adds up to it".to_string()
        ));
    }
    if file.classes != file.fingerprint.part_classes(&file.tally) {
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
