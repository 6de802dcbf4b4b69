//! What the commands print: one printer for text or one line of JSON, a
//! count's report, durations for people, and the one comparison with OEIS
//! behind every verdict (count, merge, verify, bench).

use std::io::{self, Write};

use nqueens::exec::ranks::MpiLoad;
use nqueens::{oeis, Count, GpuUse};
use serde::Serialize;

use super::Mismatch;

/// Prints `value` to stdout as one line of JSON, or as text by
/// `write_text`, and flushes: the one printer every command's result goes
/// through.
pub fn print<T: Serialize + ?Sized>(
    value: &T,
    json: bool,
    write_text: impl FnOnce(&T, &mut dyn Write) -> io::Result<()>,
) -> anyhow::Result<()> {
    let mut out = io::stdout().lock();
    if json {
        serde_json::to_writer(&mut out, value)?;
        writeln!(out)?;
    } else {
        write_text(value, &mut out)?;
    }
    out.flush()?;
    Ok(())
}

/// Prints a count's report as text or as one line of JSON; a total (or
/// unique count) that differs from OEIS is then an error, exit status 1,
/// after the report that shows it.
pub fn print_report(report: &Report, json: bool) -> anyhow::Result<()> {
    print(report, json, |r, out| write_report(out, r))?;
    report.check()
}

/// Seconds as `1h 02m`, `4m 05s` or `6.7 s`; days and years for the rest
/// (`3.9 years`, `5,359 years`, `1.3e8 years`); `unknown` for a time that
/// is not a finite number of seconds.
pub fn duration(seconds: f64) -> String {
    if !seconds.is_finite() || seconds < 0.0 {
        return "unknown".to_string();
    }
    let whole = seconds.round() as u64;
    let years = seconds / 31_557_600.0;
    match whole {
        0..60 => format!("{seconds:.1} s"),
        60..3600 => format!("{}m {:02}s", whole / 60, whole % 60),
        3600..86_400 => format!("{}h {:02}m", whole / 3600, whole % 3600 / 60),
        86_400..31_557_600 => format!("{:.1} days", seconds / 86_400.0),
        _ if years < 10.0 => format!("{years:.1} years"),
        _ if years < 1e6 => format!("{} years", thousands(years.round() as u64)),
        _ => format!("{years:.1e} years"),
    }
}

/// An integer with commas between thousands: `5,359`.
fn thousands(value: u64) -> String {
    let digits = value.to_string();
    let mut out = String::new();
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

/// What a resumed journal held: `2400 of 2588 items done before` (or
/// `nothing done before` for a new journal).
pub fn resumed(done: usize, items: usize) -> String {
    match done {
        0 => "nothing done before (new journal)".to_string(),
        _ => format!("{done} of {items} items done before, from the journal"),
    }
}

/// A computed value against the one OEIS lists.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// OEIS lists the same value.
    Matches,
    /// OEIS lists another value: the count is wrong (exit status 1).
    Differs {
        /// The value OEIS lists.
        known: u128,
    },
    /// OEIS lists no value for this n.
    Unknown,
}

impl Verdict {
    /// Compares `computed` with `known`, the OEIS value if there is one.
    pub fn of(computed: u128, known: Option<u128>) -> Verdict {
        match known {
            Some(known) if known == computed => Verdict::Matches,
            Some(known) => Verdict::Differs { known },
            None => Verdict::Unknown,
        }
    }

    /// Whether the count may be wrong.
    pub fn is_mismatch(self) -> bool {
        matches!(self, Verdict::Differs { .. })
    }

    /// `Some(true)` or `Some(false)` where OEIS lists a value.
    pub fn matches(self) -> Option<bool> {
        match self {
            Verdict::Matches => Some(true),
            Verdict::Differs { .. } => Some(false),
            Verdict::Unknown => None,
        }
    }
}

/// The version of the fields `count --json` and `merge --json` print:
/// raised when one changes meaning or goes away (fields are only added
/// within a version).
pub const SCHEMA_VERSION: u32 = 1;

/// What `count` prints: the library's result and its checks against OEIS.
#[derive(Serialize)]
pub struct Report {
    /// [`SCHEMA_VERSION`].
    schema_version: u32,
    #[serde(flatten)]
    count: Count,
    /// The A000170 value, where OEIS lists one.
    oeis_total: Option<u128>,
    /// Whether `total` equals it (null where OEIS lists no value).
    matches_oeis: Option<bool>,
    /// The A002562 value, where OEIS lists one and the count found `unique`.
    oeis_unique: Option<u128>,
    /// Whether `unique` equals it.
    matches_oeis_unique: Option<bool>,
    /// The items a journal (`--checkpoint`) held when this run resumed
    /// it, counted by earlier runs; absent without a journal.
    #[serde(skip_serializing_if = "Option::is_none")]
    resumed_items: Option<usize>,
    /// How the ranks of an MPI count (`--mpi`) spent it; absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    mpi: Option<MpiLoad>,
    /// Whether the text report shows the unique count.
    #[serde(skip)]
    show_unique: bool,
}

impl Report {
    pub fn new(count: Count, show_unique: bool) -> Report {
        let oeis_total = oeis::known_total(count.n);
        let oeis_unique = count.unique.and(oeis::known_unique(count.n));
        Report {
            schema_version: SCHEMA_VERSION,
            matches_oeis: Verdict::of(count.total, oeis_total).matches(),
            oeis_total,
            matches_oeis_unique: count
                .unique
                .and_then(|u| Verdict::of(u, oeis_unique).matches()),
            oeis_unique,
            count,
            resumed_items: None,
            mpi: None,
            show_unique,
        }
    }

    /// The report of a count that resumed a journal holding `items` done.
    pub fn resumed(self, items: Option<usize>) -> Report {
        Report {
            resumed_items: items,
            ..self
        }
    }

    /// The report of an MPI count whose ranks spent it as `load` says
    /// (called only where the binary is built with the feature `mpi`).
    #[cfg_attr(not(feature = "mpi"), allow(dead_code))]
    pub fn mpi(self, load: MpiLoad) -> Report {
        Report {
            mpi: Some(load),
            ..self
        }
    }
}

impl Report {
    /// An error naming what differs from OEIS, if anything does.
    pub fn check(&self) -> anyhow::Result<()> {
        let c = &self.count;
        let mut wrong = Vec::new();
        if let Verdict::Differs { known } = Verdict::of(c.total, self.oeis_total) {
            wrong.push(format!("{} solutions, A000170 lists {known}", c.total));
        }
        if let Some(unique) = c.unique {
            if let Verdict::Differs { known } = Verdict::of(unique, self.oeis_unique) {
                wrong.push(format!("{unique} unique, A002562 lists {known}"));
            }
        }
        if wrong.is_empty() {
            return Ok(());
        }
        Err(Mismatch(format!(
            "the count for n = {} differs from OEIS: {}",
            c.n,
            wrong.join("; ")
        ))
        .into())
    }
}

pub fn write_report(out: &mut dyn Write, report: &Report) -> io::Result<()> {
    let c = &report.count;
    let noun = if c.total == 1 {
        "solution"
    } else {
        "solutions"
    };
    writeln!(out, "{} {noun} for n = {}", c.total, c.n)?;
    if let (true, Some(unique), Some(classes)) = (report.show_unique, c.unique, c.classes) {
        writeln!(out, "{unique} unique up to rotation and reflection")?;
        let rows = [
            (8, classes.orbit8, "no symmetry"),
            (4, classes.orbit4, "half-turn symmetric"),
            (2, classes.orbit2, "quarter-turn symmetric"),
        ];
        for (size, orbits, what) in rows {
            writeln!(out, "  orbits of {size}  {orbits:>12}   ({what})")?;
        }
        if classes.orbit1 > 0 {
            writeln!(
                out,
                "  orbits of 1  {:>12}   (the 1x1 board)",
                classes.orbit1
            )?;
        }
    }
    writeln!(out, "  algorithm    {}", c.algorithm)?;
    writeln!(out, "  symmetry     {}", c.symmetry)?;
    writeln!(out, "  threads      {}", c.threads)?;
    if c.algorithm == nqueens::Algorithm::Join {
        writeln!(out, "  quarter      {0}x{0}", c.depth)?;
    } else {
        writeln!(out, "  split depth  {}", c.depth)?;
    }
    if let Some(simd) = c.simd {
        writeln!(out, "  simd         {simd}")?;
    }
    if let Some(layout) = c.layout {
        writeln!(out, "  layout       {layout}")?;
    }
    if let Some(gpu) = &c.gpu {
        write_gpu(gpu, out)?;
    }
    writeln!(out, "  subproblems  {}", c.subproblems)?;
    writeln!(out, "  work items   {}", c.items)?;
    if let Some(done) = report.resumed_items {
        writeln!(out, "  resumed      {}", resumed(done, c.items))?;
    }
    if let Some(load) = &report.mpi {
        write_mpi(out, load)?;
    }
    if let Some(planned) = c.planned_bytes {
        writeln!(out, "  memory plan  {}", nqueens::bytes(planned))?;
    }
    if let Some(peak) = c.peak_bytes {
        writeln!(out, "  peak memory  {}", nqueens::bytes(peak))?;
    }
    writeln!(out, "  elapsed      {:.3} s", c.elapsed_s)?;
    write_check(out, "A000170", Verdict::of(c.total, report.oeis_total))?;
    if report.show_unique {
        if let Some(unique) = c.unique {
            write_check(out, "A002562", Verdict::of(unique, report.oeis_unique))?;
        }
    }
    Ok(())
}

/// The report's line of what the GPU did (`--gpu`).
pub fn write_gpu(gpu: &GpuUse, out: &mut dyn Write) -> io::Result<()> {
    writeln!(
        out,
        "  gpu          {} ({}): {} pairs, busy {:.0} %",
        gpu.adapter,
        gpu.backend,
        gpu.pairs,
        100.0 * gpu.busy
    )
}

/// Two lines on an MPI count's ranks: how busy each kept its threads and
/// the tail; the round trips and what rank 0's MPI thread cost.
fn write_mpi(out: &mut dyn Write, load: &MpiLoad) -> io::Result<()> {
    let busy: Vec<String> = load
        .ranks
        .iter()
        .map(|r| format!("{:.1}%", 100.0 * r.busy_share))
        .collect();
    writeln!(
        out,
        "  ranks        {} (busy {}; tail {:.2} s)",
        load.ranks.len(),
        busy.join(" "),
        load.tail_s
    )?;
    let coordinator = load.coordinator_cpu_s.map_or(String::new(), |s| {
        format!("; rank 0's MPI thread {s:.2} s of CPU")
    });
    writeln!(out, "  round trips  {}{coordinator}", load.round_trips)
}

fn write_check(out: &mut dyn Write, sequence: &str, verdict: Verdict) -> io::Result<()> {
    match verdict {
        Verdict::Matches => writeln!(out, "  {sequence}      matches"),
        Verdict::Differs { known } => {
            writeln!(out, "  {sequence}      MISMATCH: OEIS lists {known}")
        }
        Verdict::Unknown => writeln!(out, "  {sequence}      no known value"),
    }
}

/// Writes `computed`, the known value and whether they agree, as columns of
/// a `verify` row; returns the verdict.
pub fn write_verified(
    out: &mut impl Write,
    width: usize,
    computed: u128,
    known: Option<u128>,
) -> io::Result<Verdict> {
    let known_text = known.map_or("-".to_string(), |k| k.to_string());
    let verdict = Verdict::of(computed, known);
    let word = match verdict {
        Verdict::Matches => "ok",
        Verdict::Differs { .. } => "FAIL",
        Verdict::Unknown => "-",
    };
    write!(out, "  {computed:>width$}  {known_text:>width$}  {word:>4}")?;
    Ok(verdict)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_as_people_write_them() {
        let year = 31_557_600.0;
        assert_eq!(duration(6.66), "6.7 s");
        assert_eq!(duration(245.0), "4m 05s");
        assert_eq!(duration(3.918 * year), "3.9 years");
        assert_eq!(duration(5359.2 * year), "5,359 years");
        assert_eq!(duration(1.3e8 * year), "1.3e8 years");
        assert_eq!(duration(f64::NAN), "unknown");
    }

    #[test]
    fn an_mpi_count_says_how_busy_each_rank_was() {
        use nqueens::exec::ranks::RankLoad;
        let mut ranks = [RankLoad::new(0), RankLoad::new(1)];
        ranks[0].add_batch(10, 1.9);
        ranks[0].finished_s = 1.95;
        ranks[1].threads = 2;
        ranks[1].add_batch(12, 3.0);
        ranks[1].finished_s = 2.0;
        let load = MpiLoad::new(ranks.to_vec(), 9, 2.0, Some(0.0123));
        let mut out = Vec::new();
        write_mpi(&mut out, &load).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "  ranks        2 (busy 95.0% 75.0%; tail 0.05 s)\n  \
             round trips  9; rank 0's MPI thread 0.01 s of CPU\n"
        );
    }

    #[test]
    fn a_count_matches_only_the_value_oeis_lists() {
        assert_eq!(Verdict::of(92, Some(92)), Verdict::Matches);
        assert_eq!(Verdict::of(93, Some(92)), Verdict::Differs { known: 92 });
        assert_eq!(Verdict::of(0, Some(92)), Verdict::Differs { known: 92 });
        assert_eq!(Verdict::of(92, None), Verdict::Unknown);
        assert!(Verdict::of(93, Some(92)).is_mismatch());
        assert!(!Verdict::of(92, Some(92)).is_mismatch());
        assert!(!Verdict::of(92, None).is_mismatch());
        assert_eq!(Verdict::of(92, Some(92)).matches(), Some(true));
        assert_eq!(Verdict::of(91, Some(92)).matches(), Some(false));
        assert_eq!(Verdict::of(91, None).matches(), None);
    }

    /// A real count of a small board, its figures then set as a test
    /// needs them.
    fn count(n: usize, total: u128, unique: Option<u128>) -> Count {
        let mut count = nqueens::count(4, &nqueens::Options::default()).unwrap();
        (count.n, count.total, count.unique) = (n, total, unique);
        count
    }

    #[test]
    fn a_report_that_differs_from_oeis_is_an_error_naming_both_values() {
        assert!(Report::new(count(8, 92, Some(12)), true).check().is_ok());
        assert!(
            Report::new(count(33 - 5, 1, None), false).check().is_ok(),
            "unknown"
        );
        let wrong = Report::new(count(8, 91, Some(12)), false)
            .check()
            .unwrap_err();
        assert!(wrong.is::<Mismatch>());
        assert!(
            wrong.to_string().contains("91 solutions, A000170 lists 92"),
            "{wrong}"
        );
        let wrong = Report::new(count(8, 92, Some(11)), false)
            .check()
            .unwrap_err();
        assert!(
            wrong.to_string().contains("11 unique, A002562 lists 12"),
            "{wrong}"
        );
    }

    #[test]
    fn verify_rows_say_ok_fail_or_unknown() {
        let mut row = Vec::new();
        let verdict = write_verified(&mut row, 5, 93, Some(92)).unwrap();
        assert_eq!(verdict, Verdict::Differs { known: 92 });
        assert_eq!(String::from_utf8(row).unwrap(), "     93     92  FAIL");
        let mut row = Vec::new();
        assert_eq!(
            write_verified(&mut row, 3, 92, None).unwrap(),
            Verdict::Unknown
        );
        assert_eq!(String::from_utf8(row).unwrap(), "   92    -     -");
    }
}
