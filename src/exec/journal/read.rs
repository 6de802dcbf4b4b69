//! Reading a journal back: every line checked, a torn last record
//! dropped, the header checked against the plan its fingerprint describes
//! before anything is sized by it (see the format in the parent module).

use std::ops::Range;
use std::path::Path;

use serde::Deserialize;

use super::{Header, JournalError, Record, FORMAT, MAGIC};
use crate::reduce::Tally;

/// What a journal holds.
#[derive(Clone, Debug, PartialEq)]
pub struct Contents {
    /// Its header.
    pub header: Header,
    /// The finished items, as sorted, disjoint, merged ranges.
    pub done: Vec<Range<usize>>,
    /// What they add up to.
    pub tally: Tally,
    /// The wall-clock seconds the runs that wrote them took.
    pub wall_s: f64,
    /// The number of valid records.
    pub records: usize,
    /// The length of the valid part of the file, in bytes.
    pub valid_len: u64,
    /// Whether a torn last record follows the valid part.
    pub torn: bool,
}

impl Contents {
    /// How many items are finished.
    pub fn done_items(&self) -> usize {
        self.done.iter().map(|r| r.len()).sum()
    }

    /// Whether every item of the journal is finished.
    pub fn is_complete(&self) -> bool {
        self.done_items() == self.header.range().len()
    }

    /// The journal's items not finished yet, as sorted ranges.
    pub fn remaining_ranges(&self) -> Vec<Range<usize>> {
        let mut out = Vec::new();
        let mut next = self.header.items[0];
        let end = self.header.items[1]..usize::MAX;
        for range in self.done.iter().chain([&end]) {
            if range.start > next {
                out.push(next..range.start);
            }
            next = range.end;
        }
        out
    }

    /// The journal's items not finished yet, in order (nothing is
    /// allocated per item).
    pub fn remaining(&self) -> impl Iterator<Item = usize> {
        self.remaining_ranges().into_iter().flatten()
    }
}

/// Reads a journal, checking every line.
///
/// # Errors
/// [`JournalError::Io`] if it cannot be read, [`JournalError::NotAJournal`]
/// if it does not start like one, [`JournalError::Corrupt`] if a line other
/// than the last does not check.
pub fn read(path: &Path) -> Result<Contents, JournalError> {
    let bytes = std::fs::read(path).map_err(|source| JournalError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    parse(path, &bytes)
}

pub(super) fn parse(path: &Path, bytes: &[u8]) -> Result<Contents, JournalError> {
    let not_a_journal = |why: &str| JournalError::NotAJournal {
        path: path.to_path_buf(),
        why: why.to_string(),
    };
    let mut lines = Lines { bytes, offset: 0 };
    let magic = format!("{MAGIC} {FORMAT}");
    match lines.next() {
        Some((_, Some(first))) if first == magic.as_bytes() => {}
        Some((_, Some(first))) if first.ends_with(b"\r") => {
            return Err(not_a_journal(
                "its lines end in CR LF, as an editor on Windows writes them; its checksums \
                 are of lines ending in LF alone (dos2unix restores it)",
            ))
        }
        Some((_, Some(first))) if first.starts_with(MAGIC.as_bytes()) => {
            return Err(not_a_journal(&format!(
                "it is of another format, {}; this program reads format {FORMAT}",
                String::from_utf8_lossy(first)
            )))
        }
        _ => return Err(not_a_journal(&format!("its first line is not '{magic}'"))),
    }
    let header: Header = match lines.next() {
        Some((_, Some(line))) => {
            checked(line).map_err(|why| not_a_journal(&format!("its header {why}")))?
        }
        _ => return Err(not_a_journal("it has no header line")),
    };
    // Checked against the plan its fingerprint describes before anything
    // is sized by it.
    let planned = crate::engine::items_of(&header.fingerprint)
        .map_err(|why| not_a_journal(&format!("its header describes no plan: {why}")))?;
    if header.total_items != planned {
        return Err(not_a_journal(&format!(
            "its header's total_items {} is not the {planned} items of the plan its \
             fingerprint describes",
            header.total_items
        )));
    }
    if header.items[0] > header.items[1] || header.items[1] > planned {
        return Err(not_a_journal(&format!(
            "its header's items {}..{} do not lie in the plan's 0..{planned}",
            header.items[0], header.items[1]
        )));
    }
    let range = header.range();
    let mut contents = Contents {
        done: Vec::new(),
        tally: Tally::default(),
        wall_s: 0.0,
        records: 0,
        valid_len: lines.offset as u64,
        torn: false,
        header,
    };
    let mut spans: Vec<Range<usize>> = Vec::new();
    while let Some((offset, line)) = lines.next() {
        let last = lines.offset == bytes.len();
        let record = match line.ok_or_else(|| "the line has no end".to_string()) {
            Ok(line) => checked::<Record>(line).and_then(|r| {
                let items = r.items[0]..r.items[1];
                if items.is_empty() || items.start < range.start || items.end > range.end {
                    Err(format!(
                        "items {}..{} lie outside the journal's {}..{}",
                        items.start, items.end, range.start, range.end
                    ))
                } else if !(r.wall_s.is_finite() && r.wall_s >= 0.0) {
                    Err(format!("its wall_s {} is no time", r.wall_s))
                } else {
                    Ok(r)
                }
            }),
            Err(why) => Err(why),
        };
        match record {
            Ok(record) => {
                spans.push(record.items[0]..record.items[1]);
                contents.tally.add(record.tally);
                contents.wall_s += record.wall_s;
                contents.records += 1;
                contents.valid_len = lines.offset as u64;
            }
            // A kill mid-write tears the last record only.
            Err(_) if last => contents.torn = true,
            Err(why) => {
                return Err(JournalError::Corrupt {
                    path: path.to_path_buf(),
                    offset: offset as u64,
                    why,
                })
            }
        }
    }
    spans.sort_unstable_by_key(|r| r.start);
    for span in spans {
        match contents.done.last_mut() {
            Some(prev) if span.start < prev.end => {
                return Err(JournalError::Corrupt {
                    path: path.to_path_buf(),
                    offset: contents.valid_len,
                    why: format!(
                        "items {}..{} are recorded twice (overlapping {}..{})",
                        span.start, span.end, prev.start, prev.end
                    ),
                })
            }
            Some(prev) if span.start == prev.end => prev.end = span.end,
            _ => contents.done.push(span),
        }
    }
    Ok(contents)
}

/// The lines of a file, with their offsets; a line without its newline is
/// `None` (it can only be the last).
struct Lines<'a> {
    bytes: &'a [u8],
    offset: usize,
}

impl<'a> Iterator for Lines<'a> {
    type Item = (usize, Option<&'a [u8]>);

    fn next(&mut self) -> Option<Self::Item> {
        let start = self.offset;
        let rest = self.bytes.get(start..).filter(|r| !r.is_empty())?;
        match rest.iter().position(|&b| b == b'\n') {
            Some(end) => {
                self.offset = start + end + 1;
                Some((start, Some(&rest[..end])))
            }
            None => {
                self.offset = self.bytes.len();
                Some((start, None))
            }
        }
    }
}

/// A line's value, if its checksum agrees and it parses.
fn checked<T: for<'de> Deserialize<'de>>(line: &[u8]) -> Result<T, String> {
    let text = std::str::from_utf8(line).map_err(|_| "is not text".to_string())?;
    let (body, crc) = text
        .rsplit_once(' ')
        .ok_or_else(|| "has no checksum".to_string())?;
    let crc = u32::from_str_radix(crc, 16).map_err(|_| "has no checksum".to_string())?;
    if crc32fast::hash(body.as_bytes()) != crc {
        return Err("fails its checksum".to_string());
    }
    serde_json::from_str(body).map_err(|e| format!("does not parse: {e}"))
}
