//! Reading a journal back: every line checked, a torn last record
//! dropped, the header checked against the plan its fingerprint describes
//! before anything is sized by it (see the format in the parent module).

use std::fs::File;
use std::io::{Read, Seek};
use std::ops::Range;
use std::path::Path;

use serde::Deserialize;

use super::{Header, JournalError, Record, FORMAT, MAGIC};
use crate::files::{self, FileError};
use crate::reduce::Tally;

/// The most a journal's first two lines (its format and header) take: a
/// header is a few hundred bytes.
const MAX_HEAD_BYTES: u64 = 64 << 10;

/// The most one record line takes: its items, a tally of five numbers of
/// up to 39 digits and three of 20, its time, the keys and the checksum
/// come to about 500 bytes.
const MAX_RECORD_BYTES: u64 = 1 << 10;

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

/// What a journal read is checked against.
#[derive(Clone, Copy, Debug)]
pub enum Expect<'a> {
    /// Any plan of this program (a journal read on its own: `status`, or
    /// a count finding out what it resumes), with at most this many
    /// subproblems ([`max_subproblems`](crate::engine::backtrack::plan::max_subproblems)).
    AnyPlan {
        /// The most subproblems the backtracker's plan may hold.
        max_subproblems: usize,
    },
    /// The journal of one count: its header exactly (anything else is
    /// [`JournalError::Mismatch`]), and the items (sorted) whose tallies
    /// count the rotations' fixed points, which every record of them must
    /// hold ([`Engine::items_with_fixed_points`](crate::Engine::items_with_fixed_points)).
    Count {
        /// The count's header.
        header: &'a Header,
        /// Its items that count fixed points.
        fixed_point_items: &'a [usize],
    },
}

/// Reads a journal, checking every line against any plan of this program
/// of at most `max_subproblems`.
///
/// # Errors
/// [`JournalError::Io`] if it cannot be read, [`JournalError::NotAJournal`]
/// if it is no regular file, does not start like a journal (a file a
/// crash left without its whole header included: [`lacks_header`]) or is
/// longer than a journal of its plan can be, [`JournalError::Corrupt`] if
/// a line other than the last does not check.
pub fn read(path: &Path, max_subproblems: usize) -> Result<Contents, JournalError> {
    let mut file = files::open_regular(path).map_err(|e| file_error(e, path))?;
    let expect = Expect::AnyPlan { max_subproblems };
    let bytes = read_bounded(&mut file, path, expect)?;
    if lacks_header(&bytes) {
        return Err(JournalError::NotAJournal {
            path: path.to_path_buf(),
            why: "it holds no whole header: a count stopped before writing one (the next \
                  count with this --checkpoint starts it anew)"
                .to_string(),
        });
    }
    parse(path, &bytes, expect)
}

/// The header of the journal at `path`, if there is a journal: `None`
/// where there is no file, or a file a crash left before its header was
/// whole ([`lacks_header`]), which a count starts anew. Records are not
/// read.
///
/// # Errors
/// As [`read`], for the file's start.
pub fn header_of(path: &Path, max_subproblems: usize) -> Result<Option<Header>, JournalError> {
    if !path.exists() {
        return Ok(None);
    }
    let file = files::open_regular(path).map_err(|e| file_error(e, path))?;
    let mut head = Vec::new();
    file.take(MAX_HEAD_BYTES)
        .read_to_end(&mut head)
        .map_err(|source| JournalError::Io {
            path: path.to_path_buf(),
            source,
        })?;
    if lacks_header(&head) {
        return Ok(None);
    }
    match header_in(path, &head, Expect::AnyPlan { max_subproblems })? {
        Some(header) => Ok(Some(header)),
        // Not even its first lines: the full parse says what is wrong.
        None => parse(path, &head, Expect::AnyPlan { max_subproblems }).map(|c| Some(c.header)),
    }
}

/// A file that is no regular file, or too long, is no journal.
pub(super) fn file_error(err: FileError, path: &Path) -> JournalError {
    match err {
        FileError::Unfit(why) => JournalError::NotAJournal {
            path: path.to_path_buf(),
            why: format!("it {why}"),
        },
        FileError::Io(source) => JournalError::Io {
            path: path.to_path_buf(),
            source,
        },
    }
}

/// Whether `bytes` are what a crash between creating a journal and
/// syncing its header leaves: nothing, or the start of the format line, or
/// the format line and a header line without its end. Such a file holds
/// no record, and is a new journal.
pub fn lacks_header(bytes: &[u8]) -> bool {
    let magic = format!("{MAGIC} {FORMAT}\n");
    match bytes.strip_prefix(magic.as_bytes()) {
        Some(header) => !header.contains(&b'\n'),
        None => magic.as_bytes().starts_with(bytes),
    }
}

/// Reads the whole journal `file` from its start, refusing one longer
/// than a journal of the plan its header describes can be (each record
/// holds at least one of its items, and the last may be torn): the
/// header is read and checked first, within [`MAX_HEAD_BYTES`].
pub(super) fn read_bounded(
    file: &mut File,
    path: &Path,
    expect: Expect,
) -> Result<Vec<u8>, JournalError> {
    let io = |source| JournalError::Io {
        path: path.to_path_buf(),
        source,
    };
    file.rewind().map_err(io)?;
    let mut head = Vec::new();
    file.by_ref()
        .take(MAX_HEAD_BYTES)
        .read_to_end(&mut head)
        .map_err(io)?;
    if (head.len() as u64) < MAX_HEAD_BYTES {
        // The whole file is in `head`, whatever it holds.
        return Ok(head);
    }
    let Some(header) = header_in(path, &head, expect)? else {
        return Err(JournalError::NotAJournal {
            path: path.to_path_buf(),
            why: format!(
                "its first {} hold no header",
                crate::problem::bytes(MAX_HEAD_BYTES)
            ),
        });
    };
    let limit = MAX_HEAD_BYTES + (header.range().len() as u64 + 1) * MAX_RECORD_BYTES;
    file.rewind().map_err(io)?;
    files::read_at_most(file, limit, "a journal of its plan").map_err(|e| file_error(e, path))
}

/// The header in a journal's first bytes, if its first two lines are whole
/// there, checked as `expect` says (the records are not read).
fn header_in(path: &Path, bytes: &[u8], expect: Expect) -> Result<Option<Header>, JournalError> {
    let mut lines = Lines { bytes, offset: 0 };
    match (lines.next(), lines.next()) {
        (Some((_, Some(_))), Some((_, Some(_)))) => {}
        _ => return Ok(None),
    }
    let end = lines.offset;
    Ok(Some(parse(path, &bytes[..end], expect)?.header))
}

/// Checks every line of a journal's `bytes`, its header as `expect` says.
pub(super) fn parse(path: &Path, bytes: &[u8], expect: Expect) -> Result<Contents, JournalError> {
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
                crate::problem::printable(&String::from_utf8_lossy(first))
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
    // A count's own header, or one checked against the plan its
    // fingerprint describes before anything is sized by it.
    let fixed_point_items = match expect {
        Expect::Count {
            header: wanted,
            fixed_point_items,
        } => {
            let differences = header.differences(wanted);
            if !differences.is_empty() {
                return Err(JournalError::Mismatch {
                    path: path.to_path_buf(),
                    differences,
                });
            }
            fixed_point_items
        }
        Expect::AnyPlan { max_subproblems } => {
            check_header(&header, max_subproblems).map_err(|why| not_a_journal(&why))?;
            &[]
        }
    };
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
        // A line cut short or failing its checksum may be the last record
        // torn by a kill; a whole record (its checksum agrees) that this
        // journal cannot hold was made by hand, wherever it stands.
        let record = match line {
            None => Err((true, "the line has no end".to_string())),
            Some(line) => checked::<Record>(line)
                .map_err(|why| (true, why))
                .and_then(|r| {
                    check_record(r, &range, fixed_point_items).map_err(|why| (false, why))
                }),
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
            Err((true, _)) if last => contents.torn = true,
            Err((_, why)) => {
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

/// What in a header no plan of this program has (of at most
/// `max_subproblems`), as a phrase naming the field.
fn check_header(header: &Header, max_subproblems: usize) -> Result<(), String> {
    let planned = crate::engine::items_of(&header.fingerprint, max_subproblems)
        .map_err(|why| format!("its header describes no plan: {why}"))?;
    if header.total_items != planned {
        return Err(format!(
            "its header's total_items {} is not the {planned} items of the plan its \
             fingerprint describes",
            header.total_items
        ));
    }
    if header.items[0] > header.items[1] || header.items[1] > planned {
        return Err(format!(
            "its header's items {}..{} do not lie in the plan's 0..{planned}",
            header.items[0], header.items[1]
        ));
    }
    Ok(())
}

/// What in a whole record the journal of `range` cannot hold, where
/// `fixed_point_items` (sorted) must carry counts of the rotations' fixed
/// points.
fn check_record(
    r: Record,
    range: &Range<usize>,
    fixed_point_items: &[usize],
) -> Result<Record, String> {
    let items = r.items[0]..r.items[1];
    if items.is_empty() || items.start < range.start || items.end > range.end {
        return Err(format!(
            "items {}..{} lie outside the journal's {}..{}",
            items.start, items.end, range.start, range.end
        ));
    }
    if !(r.wall_s.is_finite() && r.wall_s >= 0.0) {
        return Err(format!("its wall_s {} is no time", r.wall_s));
    }
    if let Some(item) = r
        .tally
        .fixed
        .is_none()
        .then(|| fixed_in(fixed_point_items, &items))
        .flatten()
    {
        return Err(format!(
            "its items {}..{} hold item {item}, which counts the rotations' fixed points, \
             and it holds no such count (edited out)",
            items.start, items.end
        ));
    }
    Ok(r)
}

/// The first of the sorted `items` inside `range`.
fn fixed_in(items: &[usize], range: &Range<usize>) -> Option<usize> {
    let first = items.partition_point(|&i| i < range.start);
    items.get(first).copied().filter(|&i| i < range.end)
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
