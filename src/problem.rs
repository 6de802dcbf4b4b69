//! The floor every room stands on: the board-size rule, the symmetry
//! names, the one error type, and the program's name as files record it.
//!
//! Nothing here names an engine, an executor or the command line; every
//! other module may import from here, and this module imports from none of
//! them.

use std::fmt;

use serde::{Deserialize, Serialize};

/// This program and the revision it was built from, e.g.
/// `nqueens 0.2.0 (git a23de1eafd)`: written into journals and shard files.
pub const PROGRAM: &str = concat!(
    "nqueens ",
    env!("CARGO_PKG_VERSION"),
    " (git ",
    env!("NQUEENS_GIT_REVISION"),
    ")"
);

/// The largest board every algorithm accepts: one bit per column in a `u32`.
///
/// Counts are exact up to it, in `u128` (Q(32) is about 10²²; the largest
/// known count, n = 27, is 2.3 × 10¹⁷): a sum that saturated is reported as
/// [`Error::Overflow`], never wrapped.
pub const MAX_N: usize = 32;

/// Checks the board size: `1..=MAX_N`.
///
/// # Errors
/// [`Error::BoardSize`] otherwise.
pub fn check_board_size(n: usize) -> Result<(), Error> {
    if (1..=MAX_N).contains(&n) {
        Ok(())
    } else {
        Err(Error::BoardSize { n })
    }
}

/// Which symmetries of the board the backtracking engine exploits.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "kebab-case")]
pub enum Symmetry {
    /// Search the whole tree.
    None,
    /// Search the left half of the first row and count it twice (the middle
    /// column of an odd board with its second row halved the same way).
    Mirror,
    /// Search one board per orbit of the 8 symmetries of the square (corner /
    /// side split) and weight it by the orbit's size; gives the unique count.
    #[default]
    Full,
}

impl Symmetry {
    /// Every symmetry mode.
    pub const ALL: [Symmetry; 3] = [Symmetry::None, Symmetry::Mirror, Symmetry::Full];

    /// The name used on the command line and in results.
    pub fn name(self) -> &'static str {
        match self {
            Symmetry::None => "none",
            Symmetry::Mirror => "mirror",
            Symmetry::Full => "full",
        }
    }
}

impl fmt::Display for Symmetry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What can go wrong. Every variant but [`Error::Burnside`] is a property
/// of the request, not a bug.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The board size is outside `1..=MAX_N`.
    #[error("n must be in 1..={MAX_N}, got {n}")]
    BoardSize {
        /// The size asked for.
        n: usize,
    },
    /// The split depth is outside `1..=n`.
    #[error("the split depth must be in 1..={n} for n = {n}, got {depth}")]
    Depth {
        /// The depth asked for.
        depth: usize,
        /// The board size.
        n: usize,
    },
    /// A sum of the count saturated (its `u128`, or a serial counter's
    /// `u64`).
    #[error("the number of solutions for n = {n} overflowed its counter")]
    Overflow {
        /// The board size.
        n: usize,
    },
    /// The split depth asks for a plan larger than the backtracking
    /// engine's plans may be (1 GiB, or `--max-memory`): the plan itself,
    /// or a row its walk passes on the way down.
    #[error(
        "the plan for n = {n} at depth {depth} would hold more than {max_subproblems} \
         subproblems ({}) at some row of its walk; depths 1..={largest} fit",
        bytes(*max_subproblems as u64 * 32)
    )]
    PlanTooLarge {
        /// The board size.
        n: usize,
        /// The depth asked for.
        depth: usize,
        /// Every split down to this depth fits.
        largest: usize,
        /// The most subproblems a plan may hold.
        max_subproblems: usize,
    },
    /// The join would need more memory than it may take.
    #[error(
        "the join for n = {n} needs {} of memory (quarter table, items, and each thread's \
         half lists), more than the {} it may take",
        bytes(*needed),
        bytes(*limit)
    )]
    JoinMemory {
        /// The bytes it needs.
        needed: u64,
        /// The bytes it may take.
        limit: u64,
        /// The board size.
        n: usize,
    },
    /// An instruction-set path (`--simd`) the engine does not have, or
    /// whose features this CPU lacks.
    #[error("{reason}; this CPU runs the {engine} on: {available}")]
    SimdUnavailable {
        /// The path, e.g. `avx512`.
        simd: &'static str,
        /// What is missing, e.g. `the join's avx512 path needs AVX-512 F
        /// and VPOPCNTDQ, which this CPU lacks`.
        reason: String,
        /// The engine, e.g. `join`.
        engine: &'static str,
        /// The paths this CPU runs the engine on, e.g. `avx2, none`.
        available: String,
    },
    /// Options that do not go together, or a value out of its range, named
    /// by the command-line flag that sets it (a depth for the join, a
    /// journal for a serial search...).
    #[error("{flag} {value}: {rule}")]
    Refused {
        /// The flag, e.g. `--depth <K>`.
        flag: &'static str,
        /// The value given.
        value: String,
        /// What is allowed.
        rule: String,
    },
    /// A thread pool the library needs for itself (the one thread a
    /// forecast's calibration counts on) could not start.
    #[error("could not start a thread pool: {why}")]
    ThreadPool {
        /// What the system said.
        why: String,
    },
    /// A whole count of the join whose tally holds no count of the
    /// rotations' fixed points: its fixed-point items were left out or
    /// their counts removed (a journal or shard edited), so no unique
    /// count can come of it, and the total is not to be trusted either.
    #[error(
        "the join's count for n = {n} holds no count of the rotations' fixed points: \
         records of its fixed-point items are missing or were edited"
    )]
    NoFixedPoints {
        /// The board size.
        n: usize,
    },
    /// The solutions fixed by the rotations do not fit the total: some count
    /// is wrong (a bug, never a property of the request).
    #[error("the counts for n = {n} do not fall into orbits (Burnside's lemma): a count is wrong")]
    Burnside {
        /// The board size.
        n: usize,
    },
}

/// `text` as it may reach a terminal: control characters (an ANSI escape,
/// a newline, a carriage return) written out as `\u{1b}`, so that a string
/// read from a file cannot move the cursor, recolour the screen or forge
/// a line of the report.
pub fn printable(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.chars().any(char::is_control) {
        return text.into();
    }
    text.chars()
        .map(|c| match c.is_control() {
            true => c.escape_unicode().to_string(),
            false => c.to_string(),
        })
        .collect::<String>()
        .into()
}

/// A byte count for people: `512 B`, `3.4 MiB`, `1.2 GiB`.
pub fn bytes(bytes: u64) -> String {
    const UNITS: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{bytes} B")
    } else {
        format!("{value:.1} {}", UNITS[unit])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boards_from_one_to_max_n_are_accepted_and_no_others() {
        assert_eq!(check_board_size(0), Err(Error::BoardSize { n: 0 }));
        assert_eq!(check_board_size(1), Ok(()));
        assert_eq!(check_board_size(MAX_N), Ok(()));
        assert_eq!(
            check_board_size(MAX_N + 1),
            Err(Error::BoardSize { n: MAX_N + 1 })
        );
    }

    #[test]
    fn control_characters_are_written_out() {
        assert_eq!(printable("AMD EPYC"), "AMD EPYC");
        assert_eq!(
            printable("Intel\u{1b}[31m\nforged"),
            "Intel\\u{1b}[31m\\u{a}forged"
        );
    }

    #[test]
    fn byte_counts_read_in_binary_units() {
        assert_eq!(bytes(512), "512 B");
        assert_eq!(bytes(1536), "1.5 KiB");
        assert_eq!(bytes(3 << 30), "3.0 GiB");
    }
}
