//! Merging shards: their tallies summed, after checking that they belong to
//! one count and cover it exactly.
//!
//! The checks, in order: every file has the same fingerprint (engine, n,
//! symmetry, depth, item format); a file whose items equal another's is a
//! duplicate, counted once if their tallies agree and an error naming both
//! if not; no two shards overlap otherwise; and no item is missing (the
//! error names the missing ranges and, where the files agree on M, the
//! missing shards).

use std::ops::Range;

use super::shard::ShardFile;
use crate::engine::Fingerprint;
use crate::reduce::Tally;

/// What merged shards add up to.
#[derive(Clone, Debug, PartialEq)]
pub struct Merged {
    /// The plan they share.
    pub fingerprint: Fingerprint,
    /// What all the items add up to.
    pub tally: Tally,
    /// The shards summed, duplicates left out.
    pub shards: usize,
    /// Duplicates that agreed and were counted once.
    pub duplicates: usize,
    /// The shards' wall-clock seconds, added up.
    pub elapsed_s: f64,
    /// The shards' threads, added up.
    pub threads: usize,
    /// The instruction-set path, if every shard counted on the same one.
    pub simd: Option<String>,
}

/// Why shards do not merge.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MergeError {
    /// No file was given.
    #[error("no shard files to merge")]
    Nothing,
    /// Two files belong to different counts.
    #[error("{first} and {second} belong to different counts: {what}")]
    Mismatch {
        /// A file of the first count.
        first: String,
        /// A file of another.
        second: String,
        /// What differs.
        what: String,
    },
    /// Two files counted the same items differently.
    #[error("{first} and {second} both count items {start}..{end} but disagree: {first_total} against {second_total} solutions")]
    Disagree {
        /// One file.
        first: String,
        /// The other.
        second: String,
        /// Their items.
        start: usize,
        /// Their items' end.
        end: usize,
        /// What the first says.
        first_total: String,
        /// What the second says.
        second_total: String,
    },
    /// Two files share some items but not all.
    #[error("{first} (items {a}) and {second} (items {b}) overlap")]
    Overlap {
        /// One file.
        first: String,
        /// Its items.
        a: String,
        /// The other.
        second: String,
        /// Its items.
        b: String,
    },
    /// Some items are in no file.
    #[error("items missing: {ranges}{shards}")]
    Gap {
        /// The missing ranges, e.g. `120..240, 600..602`.
        ranges: String,
        /// The missing shards, where the files agree on their number,
        /// e.g. ` (shards 2, 5 of 8)`.
        shards: String,
    },
}

/// Merges shards, given as (name, file) pairs.
///
/// # Errors
/// [`MergeError`] when the shards do not belong to one count, disagree,
/// overlap or leave items out.
pub fn merge(files: &[(String, ShardFile)]) -> Result<Merged, MergeError> {
    let (first_name, first) = files.first().ok_or(MergeError::Nothing)?;
    for (name, file) in files {
        let what = differences(first, file);
        if !what.is_empty() {
            return Err(MergeError::Mismatch {
                first: first_name.clone(),
                second: name.clone(),
                what,
            });
        }
    }
    let mut sorted: Vec<&(String, ShardFile)> = files.iter().collect();
    sorted.sort_by_key(|(_, f)| (f.items[0], f.items[1]));
    let mut kept: Vec<&(String, ShardFile)> = Vec::new();
    let mut duplicates = 0;
    // The shard reaching furthest so far: every range is checked against
    // all before it, not only the last (an empty shard, which overlaps
    // nothing, never hides one that does).
    let mut furthest: Option<&(String, ShardFile)> = None;
    for entry in sorted {
        let (name, file) = entry;
        if let Some((last_name, last)) = kept.last().copied() {
            if last.items == file.items {
                if last.tally != file.tally {
                    return Err(MergeError::Disagree {
                        first: last_name.clone(),
                        second: name.clone(),
                        start: file.items[0],
                        end: file.items[1],
                        first_total: last.total.clone(),
                        second_total: file.total.clone(),
                    });
                }
                duplicates += 1;
                continue;
            }
        }
        if !file.range().is_empty() {
            if let Some((reach_name, reach)) = furthest.filter(|(_, r)| file.items[0] < r.items[1])
            {
                return Err(MergeError::Overlap {
                    first: reach_name.clone(),
                    a: format!("{}..{}", reach.items[0], reach.items[1]),
                    second: name.clone(),
                    b: format!("{}..{}", file.items[0], file.items[1]),
                });
            }
            if furthest.is_none_or(|(_, r)| file.items[1] > r.items[1]) {
                furthest = Some(entry);
            }
        }
        kept.push(entry);
    }
    let missing = gaps(kept.iter().map(|(_, f)| f.range()), first.total_items);
    if !missing.is_empty() {
        return Err(MergeError::Gap {
            ranges: missing
                .iter()
                .map(|r| format!("{}..{}", r.start, r.end))
                .collect::<Vec<_>>()
                .join(", "),
            shards: missing_shards(files),
        });
    }
    let simd = Some(first.simd.clone()).filter(|k| kept.iter().all(|(_, f)| &f.simd == k));
    Ok(Merged {
        fingerprint: first.fingerprint,
        tally: kept
            .iter()
            .map(|(_, f)| f.tally)
            .fold(Tally::default(), Tally::sum),
        shards: kept.len(),
        duplicates,
        elapsed_s: kept.iter().map(|(_, f)| f.elapsed_s).sum(),
        threads: kept.iter().map(|(_, f)| f.threads).sum(),
        simd,
    })
}

/// What makes two shard files parts of different counts.
fn differences(a: &ShardFile, b: &ShardFile) -> String {
    let mut out = Vec::new();
    if a.fingerprint != b.fingerprint {
        out.push(format!("{} against {}", a.fingerprint, b.fingerprint));
    }
    if a.total_items != b.total_items {
        out.push(format!("{} items against {}", a.total_items, b.total_items));
    }
    out.join("; ")
}

/// The items of `0..total` that no range covers (ranges sorted by start).
fn gaps(ranges: impl Iterator<Item = Range<usize>>, total: usize) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut next = 0;
    for range in ranges {
        if range.start > next {
            out.push(next..range.start);
        }
        next = next.max(range.end);
    }
    if next < total {
        out.push(next..total);
    }
    out
}

/// ` (shards 2, 5 of 8)` when every file says it is one of M shards and
/// some numbers are missing; empty otherwise.
fn missing_shards(files: &[(String, ShardFile)]) -> String {
    let shards = files[0].1.shard[1];
    if files.iter().any(|(_, f)| f.shard[1] != shards) {
        return String::new();
    }
    let missing: Vec<String> = (1..=shards)
        .filter(|i| files.iter().all(|(_, f)| f.shard[0] != *i))
        .map(|i| i.to_string())
        .collect();
    if missing.is_empty() {
        String::new()
    } else {
        format!(" (shards {} of {shards})", missing.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::EngineId;
    use crate::problem::Symmetry;
    use crate::reduce::Classes;

    fn shard(index: usize, shards: usize, items: [usize; 2], orbit8: u128) -> (String, ShardFile) {
        let tally = Tally {
            weighted: 0,
            classes: Classes {
                orbit8,
                ..Classes::default()
            },
            fixed: None,
        };
        let file = ShardFile {
            kind: super::super::shard::KIND.to_string(),
            format: super::super::shard::FORMAT,
            fingerprint: Fingerprint {
                engine: EngineId::Backtrack,
                n: 12,
                symmetry: Symmetry::Full,
                depth: 3,
                format: 1,
                layout: None,
            },
            shard: [index, shards],
            items,
            total_items: 30,
            tally,
            total: tally.total().to_string(),
            classes: Some(tally.classes),
            elapsed_s: 1.0,
            threads: 2,
            simd: "avx512".to_string(),
            host: "h".to_string(),
            cpu: "c".to_string(),
            program: "p".to_string(),
            seal: String::new(),
        };
        (format!("s{index}.json"), file)
    }

    #[test]
    fn shards_covering_every_item_add_up_in_any_order() {
        let files = vec![
            shard(3, 3, [20, 30], 5),
            shard(1, 3, [0, 10], 1),
            shard(2, 3, [10, 20], 2),
        ];
        let merged = merge(&files).unwrap();
        assert_eq!(merged.tally.total(), 64);
        assert_eq!(
            (merged.shards, merged.duplicates, merged.threads),
            (3, 0, 6)
        );
        assert_eq!(merged.simd.as_deref(), Some("avx512"));
    }

    #[test]
    fn a_duplicate_that_agrees_counts_once_and_one_that_disagrees_is_named() {
        let mut files = vec![
            shard(1, 2, [0, 10], 1),
            shard(2, 2, [10, 30], 2),
            shard(2, 2, [10, 30], 2),
        ];
        let merged = merge(&files).unwrap();
        assert_eq!((merged.tally.total(), merged.duplicates), (24, 1));
        files[2].0 = "again.json".to_string();
        files[2].1.tally.classes.orbit8 = 3;
        files[2].1.total = "24".to_string();
        let err = merge(&files).unwrap_err().to_string();
        assert!(
            err.contains("s2.json") && err.contains("again.json"),
            "{err}"
        );
    }

    #[test]
    fn gaps_name_the_missing_items_and_shards() {
        let files = vec![shard(1, 4, [0, 7], 1), shard(3, 4, [15, 22], 1)];
        let err = merge(&files).unwrap_err();
        assert_eq!(
            err,
            MergeError::Gap {
                ranges: "7..15, 22..30".to_string(),
                shards: " (shards 2, 4 of 4)".to_string(),
            }
        );
    }

    #[test]
    fn an_empty_shard_between_two_overlapping_ones_hides_nothing() {
        // count 8: --shard 1/8 (0..2), 2/32 (1..1, empty), 3/32 (1..2).
        let files = vec![
            shard(1, 8, [0, 2], 1),
            shard(2, 32, [1, 1], 0),
            shard(3, 32, [1, 2], 1),
            shard(2, 8, [2, 30], 1),
        ];
        match merge(&files) {
            Err(MergeError::Overlap { first, second, .. }) => {
                assert_eq!((first.as_str(), second.as_str()), ("s1.json", "s3.json"))
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn overlaps_and_other_counts_are_refused() {
        let files = vec![shard(1, 2, [0, 16], 1), shard(2, 2, [15, 30], 1)];
        assert!(matches!(merge(&files), Err(MergeError::Overlap { .. })));
        let mut other = shard(2, 2, [16, 30], 1);
        other.1.fingerprint.depth = 4;
        let files = vec![shard(1, 2, [0, 16], 1), other];
        assert!(matches!(merge(&files), Err(MergeError::Mismatch { .. })));
        assert_eq!(merge(&[]), Err(MergeError::Nothing));
    }
}
