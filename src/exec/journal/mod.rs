//! The journal: a crash-safe, append-only record of finished work items, so
//! that a count killed at 99% resumes at 99%.
//!
//! # Format
//!
//! A text file of lines, each but the first ending in a space and the CRC-32
//! of what comes before it, in hex:
//!
//! ```text
//! nqueens-journal 1
//! {"fingerprint":{…},"items":[0,502],"total_items":502,"program":"nqueens 0.1.0 (git …)"} 1f0c93aa
//! {"items":[0,3],"tally":{"weighted":0,"classes":{…}},"wall_s":1.02} 7e11c0b5
//! {"items":[5,6],"tally":{…},"wall_s":0.0} 09d2e4c1
//! ```
//!
//! The header (format version, the engine's [`Fingerprint`], the range of
//! items the journal covers and the program that wrote it) is written whole
//! and synced before any record; a header a crash cut short is written
//! again. Each record holds a range of finished items, what they add up to,
//! and the wall-clock seconds of the run since its previous record
//! (`wall_s`: they add up to the time the runs spent counting). Records are batched: workers
//! hand finished items to the journal, which writes and `fsync`s them at
//! most once a second, so the disk costs far below 1% of a count.
//!
//! # Reading it back
//!
//! A last line that does not check (a record torn by a kill mid-write) is
//! dropped, and cut off the file before anything is appended. Any other line
//! that does not check, or a record that overlaps another or lies outside the
//! journal's items, is corruption: an error naming the file and the byte
//! offset, never a wrong total. A journal made for another plan (engine, n,
//! symmetry, depth, format, or shard) is refused, naming what differs.
//!
//! # One process at a time
//!
//! [`Journal::open`] takes an exclusive lock on the file (`flock`) and
//! holds it until the journal is dropped: a second process counting into
//! the same journal is refused ([`JournalError::Locked`]) instead of
//! recording the same items twice. The kernel drops the lock with the
//! process however it ends, `kill -9` included. On NFS, Linux emulates
//! `flock` with the server's byte-range locks (NFSv4, or v3 with lockd):
//! the lock holds across machines there; where the server has no lock
//! service the open fails with the system's error rather than run
//! unlocked.

use std::fmt::Write as _;
use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

mod read;

pub use self::read::{header_of, lacks_header, read, Contents, Expect};
use super::{Phase, Progress};
use crate::engine::{Engine, Fingerprint};
use crate::reduce::Tally;

/// The first line of every journal.
pub const MAGIC: &str = "nqueens-journal";

/// The version of the journal's layout (the first line's number).
pub const FORMAT: u32 = 1;

/// How often, at most, finished items are written and synced.
pub const FLUSH_EVERY: Duration = Duration::from_secs(1);

/// What a journal is for: the plan, the items it covers, and who wrote it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Header {
    /// The engine's plan.
    pub fingerprint: Fingerprint,
    /// The items the journal covers, `[start, end)`: all of the engine's,
    /// or a shard's.
    pub items: [usize; 2],
    /// How many items the engine has in all.
    pub total_items: usize,
    /// The program that wrote the header ([`crate::problem::PROGRAM`]); a journal
    /// may be resumed by another version if the fingerprint agrees.
    pub program: String,
}

impl Header {
    /// The header of a journal of `items` of `engine`, written by this
    /// program.
    pub fn new(engine: &dyn Engine, items: Range<usize>) -> Header {
        Header {
            fingerprint: engine.fingerprint(),
            items: [items.start, items.end],
            total_items: engine.items(),
            program: crate::problem::PROGRAM.to_string(),
        }
    }

    /// The items covered, as a range.
    pub fn range(&self) -> Range<usize> {
        self.items[0]..self.items[1]
    }

    /// What in `self` (a journal's header) differs from `wanted` (the
    /// count asked for), one phrase each, e.g. `depth 5 (asked 6)`; empty
    /// if the journal fits. The program is not compared.
    pub fn differences(&self, wanted: &Header) -> Vec<String> {
        let (a, b) = (&self.fingerprint, &wanted.fingerprint);
        let pairs = [
            ("engine", a.engine.to_string(), b.engine.to_string()),
            ("n", a.n.to_string(), b.n.to_string()),
            ("symmetry", a.symmetry.to_string(), b.symmetry.to_string()),
            ("depth", a.depth.to_string(), b.depth.to_string()),
            ("item format", a.format.to_string(), b.format.to_string()),
            ("layout", a.layout_name().into(), b.layout_name().into()),
        ];
        let mut out: Vec<String> = pairs
            .into_iter()
            .filter(|(_, have, want)| have != want)
            .map(|(what, have, want)| format!("{what} {have} (asked {want})"))
            .collect();
        // The items follow from the plan: compared only for the same plan
        // (another shard of it).
        if out.is_empty() && self.items != wanted.items {
            out.push(format!(
                "items {}..{} (asked {}..{})",
                self.items[0], self.items[1], wanted.items[0], wanted.items[1]
            ));
        }
        if out.is_empty() && self.total_items != wanted.total_items {
            out.push(format!(
                "total_items {} (asked {})",
                self.total_items, wanted.total_items
            ));
        }
        out
    }
}

/// One line of finished items.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct Record {
    items: [usize; 2],
    tally: Tally,
    wall_s: f64,
}

/// What goes wrong with a journal.
#[derive(Debug, thiserror::Error)]
pub enum JournalError {
    /// Reading or writing failed.
    #[error("journal {}", path.display())]
    Io {
        /// The journal.
        path: PathBuf,
        /// What the system said.
        source: io::Error,
    },
    /// The file is there but is no journal (not even a torn one).
    #[error("{} is not an nqueens journal ({why})", path.display())]
    NotAJournal {
        /// The file.
        path: PathBuf,
        /// What is wrong with its start.
        why: String,
    },
    /// Another process holds the journal: it is counting into it now.
    #[error("journal {} is being counted into by another process", path.display())]
    Locked {
        /// The journal.
        path: PathBuf,
    },
    /// The journal was made for another count.
    #[error("journal {} was made for another count: {}", path.display(), differences.join(", "))]
    Mismatch {
        /// The journal.
        path: PathBuf,
        /// What differs, one phrase each.
        differences: Vec<String>,
    },
    /// A record other than the last does not check.
    #[error("journal {} is corrupt at byte {offset}: {why}", path.display())]
    Corrupt {
        /// The journal.
        path: PathBuf,
        /// Where the bad line starts.
        offset: u64,
        /// What is wrong with it.
        why: String,
    },
}

/// A value as a journal line: compact JSON, a space, its CRC-32, a newline.
fn line<T: Serialize>(value: &T) -> String {
    let body = serde_json::to_string(value).expect("journal values serialize");
    let crc = crc32fast::hash(body.as_bytes());
    format!("{body} {crc:08x}\n")
}

/// An open journal, appending finished items.
pub struct Journal {
    path: PathBuf,
    /// Finished items not written yet, a slot per worker thread (by rayon
    /// index), so that workers never wait for each other or share a cache
    /// line to note an item.
    slots: Vec<Slot>,
    writer: Mutex<Writer>,
    /// When the next write is due, in nanoseconds since `epoch`.
    due_ns: AtomicU64,
    epoch: Instant,
}

/// A slot of finished items, on a cache line of its own.
#[repr(align(128))]
#[derive(Default)]
struct Slot(Mutex<Vec<(usize, Tally)>>);

/// How many slots: threads beyond share them.
const SLOTS: usize = 64;

struct Writer {
    file: File,
    last_write: Instant,
}

impl Journal {
    /// Opens the journal at `path` for the count of `items` of `engine`:
    /// creates it if there is no file (or a file a crash left without its
    /// whole header, [`lacks_header`]), or reads it, checks that it was
    /// made for the same count, and cuts off a torn last record. Returns
    /// the journal and what it already holds.
    ///
    /// # Errors
    /// [`JournalError::Mismatch`] if the journal was made for another count;
    /// [`JournalError::NotAJournal`] for a path that is no regular file;
    /// [`JournalError::Corrupt`] also for a record of an item that counts
    /// the rotations' fixed points without such a count; as [`read`]
    /// otherwise.
    pub fn open(
        path: &Path,
        engine: &dyn Engine,
        items: Range<usize>,
    ) -> Result<(Journal, Contents), JournalError> {
        let header = Header::new(engine, items);
        let io_error = |source| JournalError::Io {
            path: path.to_path_buf(),
            source,
        };
        // Opened (made if missing, never replaced) and locked before it is
        // read: two processes never count into one journal. The kernel
        // drops the lock with the process, however it ends (kill -9 too).
        // A FIFO or a device is refused before it is opened (and the open
        // file checked again: nothing blocks, nothing reads for ever).
        let mut file = crate::files::open_with(
            path,
            OpenOptions::new().read(true).append(true).create(true),
        )
        .map_err(|e| read::file_error(e, path))?;
        match file.try_lock() {
            Ok(()) => {}
            Err(std::fs::TryLockError::WouldBlock) => {
                return Err(JournalError::Locked {
                    path: path.to_path_buf(),
                })
            }
            Err(std::fs::TryLockError::Error(e)) => return Err(io_error(e)),
        }
        // The file is read once, and what is read is what is parsed: the
        // header first (a journal of another count is named as such before
        // its records are read against this one), then every record.
        let fixed_point_items = engine.items_with_fixed_points();
        let expect = Expect::Count {
            header: &header,
            fixed_point_items: &fixed_point_items,
        };
        let mut bytes = read::read_bounded(&mut file, path, expect)?;
        if lacks_header(&bytes) {
            // A new journal (or one a crash left before its header was
            // whole): its header, whole and synced, before any record.
            let text = format!("{MAGIC} {FORMAT}\n{}", line(&header));
            file.set_len(0).map_err(io_error)?;
            (&file).write_all(text.as_bytes()).map_err(io_error)?;
            file.sync_all().map_err(io_error)?;
            bytes = text.into_bytes();
        }
        let contents = read::parse(path, &bytes, expect)?;
        if contents.torn {
            file.set_len(contents.valid_len).map_err(io_error)?;
            file.sync_data().map_err(io_error)?;
        }
        let epoch = Instant::now();
        let journal = Journal {
            path: path.to_path_buf(),
            slots: (0..SLOTS).map(|_| Slot::default()).collect(),
            writer: Mutex::new(Writer {
                file,
                last_write: epoch,
            }),
            due_ns: AtomicU64::new(FLUSH_EVERY.as_nanos() as u64),
            epoch,
        };
        Ok((journal, contents))
    }

    /// Notes a finished item; writes and syncs the items noted so far if
    /// the last write is [`FLUSH_EVERY`] old (unless another thread is
    /// writing them).
    ///
    /// # Errors
    /// [`JournalError::Io`] if the write fails.
    pub fn record(&self, item: usize, tally: Tally) -> Result<(), JournalError> {
        let slot = rayon::current_thread_index().unwrap_or(0) % SLOTS;
        lock(&self.slots[slot].0).push((item, tally));
        let now_ns = self.epoch.elapsed().as_nanos() as u64;
        if now_ns >= self.due_ns.load(Ordering::Relaxed) {
            if let Ok(mut writer) = self.writer.try_lock() {
                return self.write(&mut writer);
            }
        }
        Ok(())
    }

    /// Writes and syncs every item noted so far.
    ///
    /// # Errors
    /// [`JournalError::Io`] if the write fails.
    pub fn flush(&self) -> Result<(), JournalError> {
        self.write(&mut lock(&self.writer))
    }

    fn write(&self, writer: &mut Writer) -> Result<(), JournalError> {
        let wall_s = writer.last_write.elapsed().as_secs_f64();
        writer.last_write = Instant::now();
        let due = self.epoch.elapsed() + FLUSH_EVERY;
        self.due_ns.store(due.as_nanos() as u64, Ordering::Relaxed);
        let mut pending: Vec<(usize, Tally)> = Vec::new();
        for slot in &self.slots {
            pending.append(&mut lock(&slot.0));
        }
        if pending.is_empty() {
            return Ok(());
        }
        pending.sort_unstable_by_key(|&(item, _)| item);
        // Consecutive items go into one record.
        let mut records: Vec<Record> = Vec::new();
        for &(item, tally) in &pending {
            match records.last_mut() {
                Some(r) if r.items[1] == item => {
                    r.items[1] += 1;
                    r.tally.add(tally);
                }
                _ => records.push(Record {
                    items: [item, item + 1],
                    tally,
                    wall_s: if records.is_empty() { wall_s } else { 0.0 },
                }),
            }
        }
        let mut text = String::new();
        for record in &records {
            let _ = write!(text, "{}", line(record));
        }
        let io_error = |source| JournalError::Io {
            path: self.path.clone(),
            source,
        };
        writer.file.write_all(text.as_bytes()).map_err(io_error)?;
        writer.file.sync_data().map_err(io_error)
    }
}

/// Locks a mutex, whether or not a thread panicked holding it (what it
/// guards stays consistent: whole entries are pushed or drained).
fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

/// Counts the items of `journal` not finished yet on the current pool,
/// recording each as it finishes; returns what all of the journal's items
/// add up to. Progress starts from the items already done.
///
/// # Errors
/// [`JournalError::Io`] if the journal cannot be written: the count stops
/// (what was recorded stays).
pub fn count(
    engine: &dyn Engine,
    journal: &Journal,
    contents: &Contents,
    progress: Progress<'_>,
) -> Result<Tally, JournalError> {
    let all = contents.header.range().len();
    let done = AtomicUsize::new(contents.done_items());
    progress(Phase::Counting {
        done: done.load(Ordering::Relaxed),
        items: all,
    });
    let count_item = |item: usize| {
        let tally = engine.count(item..item + 1);
        journal.record(item, tally)?;
        let finished = done.fetch_add(1, Ordering::Relaxed) + 1;
        progress(Phase::Counting {
            done: finished,
            items: all,
        });
        Ok(tally)
    };
    let sum = |a: Tally, b: Tally| Ok(a.sum(b));
    let remaining = contents.remaining_ranges();
    // Like the pool: the range of items split down to single items (a
    // fresh journal has one range; a resumed one, the gaps between runs).
    let fresh = match remaining.as_slice() {
        [items] => items
            .clone()
            .into_par_iter()
            .with_max_len(1)
            .map(count_item)
            .try_reduce(Tally::default, sum),
        _ => remaining
            .into_par_iter()
            .flat_map(|items| items.into_par_iter().with_max_len(1))
            .map(count_item)
            .try_reduce(Tally::default, sum),
    };
    // Whatever happened, what finished reaches the disk.
    let flushed = journal.flush();
    let fresh = fresh?;
    flushed?;
    Ok(contents.tally.sum(fresh))
}

#[cfg(test)]
mod tests {
    use super::read::parse;
    use super::*;
    use crate::engine::EngineId;
    use crate::problem::Symmetry;
    use crate::reduce::Classes;

    const ANY: Expect = Expect::AnyPlan {
        max_subproblems: crate::engine::backtrack::plan::MAX_SUBPROBLEMS,
    };

    /// A journal of the first 10 items of a plan (as a shard's would be).
    fn header() -> Header {
        let fingerprint = Fingerprint {
            engine: EngineId::Backtrack,
            n: 12,
            symmetry: Symmetry::Full,
            depth: 3,
            format: 1,
            layout: None,
        };
        Header {
            fingerprint,
            items: [0, 10],
            total_items: crate::engine::items_of(
                &fingerprint,
                crate::engine::backtrack::plan::MAX_SUBPROBLEMS,
            )
            .unwrap(),
            program: "test".to_string(),
        }
    }

    fn tally(orbit8: u128) -> Tally {
        Tally {
            weighted: 0,
            classes: Classes {
                orbit8,
                ..Classes::default()
            },
            fixed: None,
        }
    }

    fn journal_text(records: &[Record]) -> String {
        let mut text = format!("{MAGIC} {FORMAT}\n{}", line(&header()));
        for record in records {
            text.push_str(&line(record));
        }
        text
    }

    fn record(items: [usize; 2], orbit8: u64) -> Record {
        Record {
            items,
            tally: tally(u128::from(orbit8)),
            wall_s: 0.25,
        }
    }

    #[test]
    fn records_add_up_and_merge_into_ranges() {
        let text = journal_text(&[record([3, 5], 7), record([0, 3], 1), record([6, 7], 2)]);
        let contents = parse(Path::new("j"), text.as_bytes(), ANY).unwrap();
        assert_eq!(contents.done, vec![0..5, 6..7]);
        assert_eq!(contents.tally, tally(10));
        assert_eq!(contents.remaining().collect::<Vec<_>>(), vec![5, 7, 8, 9]);
        assert_eq!(contents.records, 3);
        assert_eq!(contents.wall_s, 0.75);
        assert!(!contents.torn && !contents.is_complete());
        assert_eq!(contents.valid_len, text.len() as u64);
    }

    #[test]
    fn a_torn_last_record_is_dropped_wherever_it_was_cut() {
        let whole = journal_text(&[record([0, 3], 1), record([3, 4], 2)]);
        let kept = journal_text(&[record([0, 3], 1)]);
        for cut in kept.len() + 1..whole.len() {
            let contents = parse(Path::new("j"), &whole.as_bytes()[..cut], ANY).unwrap();
            assert!(contents.torn, "cut at {cut}");
            assert_eq!(contents.tally, tally(1), "cut at {cut}");
            assert_eq!(contents.valid_len, kept.len() as u64);
        }
        let mut zeros = kept.clone().into_bytes();
        zeros.extend([0u8; 40]);
        assert!(parse(Path::new("j"), &zeros, ANY).unwrap().torn);
    }

    #[test]
    fn a_bad_record_before_the_last_is_corruption_at_its_offset() {
        let good = journal_text(&[record([0, 3], 1)]);
        let mut text = journal_text(&[record([0, 3], 1), record([3, 4], 2), record([4, 5], 3)]);
        // Flip a digit of the second record's tally.
        let at = good.len() + text[good.len()..].find("\"orbit8\":2").unwrap() + 9;
        text.replace_range(at..at + 1, "5");
        match parse(Path::new("j"), text.as_bytes(), ANY) {
            Err(JournalError::Corrupt { offset, why, .. }) => {
                assert_eq!(offset, good.len() as u64);
                assert!(why.contains("checksum"), "{why}");
            }
            other => panic!("expected corruption, got {other:?}"),
        }
    }

    #[test]
    fn overlapping_or_outside_records_are_corruption() {
        let text = journal_text(&[record([0, 3], 1), record([2, 4], 2), record([8, 9], 0)]);
        assert!(matches!(
            parse(Path::new("j"), text.as_bytes(), ANY),
            Err(JournalError::Corrupt { .. })
        ));
        let text = journal_text(&[record([9, 11], 1), record([0, 1], 0)]);
        assert!(matches!(
            parse(Path::new("j"), text.as_bytes(), ANY),
            Err(JournalError::Corrupt { .. })
        ));
    }

    #[test]
    fn other_files_are_not_journals() {
        for text in [
            "",
            "hello\n",
            "nqueens-journal 9\n{}\n",
            "nqueens-journal 1\n",
        ] {
            assert!(
                matches!(
                    parse(Path::new("j"), text.as_bytes(), ANY),
                    Err(JournalError::NotAJournal { .. })
                ),
                "{text:?}"
            );
        }
    }

    #[test]
    fn a_header_is_checked_against_its_plan_before_it_sizes_anything() {
        // `status` on a header claiming 2^40 items tried to allocate 8 TiB.
        let forge = |edit: &dyn Fn(&mut Header)| {
            let mut forged = header();
            edit(&mut forged);
            format!("{MAGIC} {FORMAT}\n{}", line(&forged))
        };
        type Edit<'a> = &'a dyn Fn(&mut Header);
        let cases: [(Edit, &str); 5] = [
            (&|h| h.items = [0, 1 << 40], "items"),
            (&|h| h.total_items = 1 << 40, "total_items"),
            (&|h| h.fingerprint.n = 33, "n 33"),
            (&|h| h.fingerprint.n = 0, "n 0"),
            (&|h| h.fingerprint.depth = 13, "depth 13"),
        ];
        for (edit, field) in cases {
            match parse(Path::new("j"), forge(edit).as_bytes(), ANY) {
                Err(JournalError::NotAJournal { why, .. }) => {
                    assert!(why.contains(field), "{field}: {why}")
                }
                other => panic!("{field}: {other:?}"),
            }
        }
    }

    #[test]
    fn a_journal_with_windows_line_ends_is_named_as_such() {
        let text = journal_text(&[record([0, 3], 5)]).replace('\n', "\r\n");
        match parse(Path::new("j"), text.as_bytes(), ANY) {
            Err(JournalError::NotAJournal { why, .. }) => assert!(why.contains("CR LF"), "{why}"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_record_of_negative_time_is_corruption() {
        let mut bad = record([0, 3], 5);
        bad.wall_s = -1.0;
        let text = journal_text(&[bad, record([3, 4], 1)]);
        assert!(matches!(
            parse(Path::new("j"), text.as_bytes(), ANY),
            Err(JournalError::Corrupt { .. })
        ));
    }

    #[test]
    fn headers_name_what_differs() {
        let mut other = header();
        other.fingerprint.depth = 4;
        other.fingerprint.n = 13;
        other.program = "another version".to_string();
        let differences = header().differences(&other);
        assert_eq!(
            differences,
            vec![
                "n 12 (asked 13)".to_string(),
                "depth 3 (asked 4)".to_string()
            ]
        );
        assert!(header().differences(&header()).is_empty());
    }
}
