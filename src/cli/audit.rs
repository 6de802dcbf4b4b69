//! `nqueens audit N`: a sample of the join's work items, each counted by
//! the join and recounted another way, how a count is trusted where no
//! total is known (n = 26 and up). An item's tally is a weighted count of
//! a set of solutions it can describe (its rows, the odd board's middle
//! queens, its weight, the reflection rule of even boards from n = 18);
//! the [recount](nqueens::engine::recount) counts that set with no code of
//! the join's (the east and west placements listed by a plain search, the
//! pairs that share no line counted by splitting both lists), weighs each
//! solution by the same rule, and any difference is exit status 1.

use std::io::{self, IsTerminal, Write};
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use nqueens::engine::join::{LARGEST_N, SMALLEST_JOINED};
use nqueens::engine::recount;
use nqueens::stats::SplitMix64;
use nqueens::{Algorithm, AnyEngine, Engine, Job, Options, Run};
use serde::Serialize;

use super::args::{parse_threads, SimdFlag};
use super::errors::{job_error, usage_error};
use super::report::print;
use super::{thread_pool, Mismatch, UsageError};

/// Environment variable, for tests: the index of one item whose join tally
/// the audit takes as one more than the join counted, to see it fail.
pub const FAULT_VAR: &str = "NQUEENS_AUDIT_FAULT";

/// The most items one audit takes.
const MAX_ITEMS: u64 = 1_000_000;

/// `nqueens audit` flags.
#[derive(clap::Args, Debug)]
pub struct AuditArgs {
    /// Board size, 4..=25 (the boards the join counts by joining halves).
    #[arg(value_parser = super::args::parse_n, allow_negative_numbers = true)]
    pub n: usize,
    /// Items to audit, chosen at random among the join's pair items (all
    /// of them if there are fewer), 1..=1000000.
    #[arg(long, value_name = "K", default_value_t = 10, value_parser = parse_items, allow_negative_numbers = true)]
    pub items: usize,
    /// Seed of the random choice [default: from the clock, printed so that
    /// the audit can be repeated].
    #[arg(long, value_name = "S", value_parser = parse_seed, allow_negative_numbers = true)]
    pub seed: Option<u64>,
    /// Threads of the recounts [default: all logical cores].
    #[arg(long, value_name = "T", value_parser = parse_threads, allow_negative_numbers = true)]
    pub threads: Option<usize>,
    #[command(flatten)]
    pub simd: SimdFlag,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

fn parse_items(s: &str) -> Result<usize, String> {
    super::args::parse_in_range(s, 1, MAX_ITEMS).map(|v| v as usize)
}

fn parse_seed(s: &str) -> Result<u64, String> {
    super::args::parse_in_range(s, 0, u64::MAX)
        .map_err(|_| format!("must be an integer in 0..={}", u64::MAX))
}

/// One item audited.
#[derive(Serialize)]
struct Audited {
    item: usize,
    /// What it stands for, in words.
    stands_for: String,
    /// Its tally by the join, and by the recount (decimal strings: they
    /// may pass 2^64 one day).
    join: String,
    recount: String,
    matches: bool,
    join_s: f64,
    recount_s: f64,
}

/// What `audit` prints.
#[derive(Serialize)]
struct Audit {
    n: usize,
    seed: u64,
    /// Work items in all, and those that join pairs (the others count the
    /// rotations' fixed points, which no recount covers).
    total_items: usize,
    pair_items: usize,
    simd: String,
    threads: usize,
    items: Vec<Audited>,
    differences: usize,
    elapsed_s: f64,
}

/// `nqueens audit N`.
pub fn run(args: AuditArgs) -> anyhow::Result<()> {
    let start = Instant::now();
    if !(SMALLEST_JOINED..=LARGEST_N).contains(&args.n) {
        return Err(UsageError {
            value: args.n.to_string(),
            flag: "<N>",
            rule: format!(
                "must be in {SMALLEST_JOINED}..={LARGEST_N}, the boards the join counts by joining halves"
            ),
        }
        .into());
    }
    let fault = match std::env::var(FAULT_VAR) {
        Ok(text) => Some(
            text.trim()
                .parse::<usize>()
                .map_err(|_| anyhow::anyhow!("{FAULT_VAR}={text}: must be a work item's index"))?,
        ),
        Err(_) => None,
    };
    let pool = thread_pool(args.threads)?;
    let threads = pool.current_num_threads();
    let seed = args.seed.unwrap_or_else(|| {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64)
    });
    let terminal = io::stderr().is_terminal();
    if terminal {
        eprintln!(
            "audit: laying out the join for n = {} (seed {seed})",
            args.n
        );
    }
    // The join's job, as `count --algo join` resolves it, on this pool.
    let options = Options::default()
        .with_algorithm(Algorithm::Join)
        .with_simd(args.simd.path());
    let job = pool
        .install(|| Job::new(args.n, options, None, Run::default()))
        .map_err(job_error)?;
    let Some(AnyEngine::Join(join)) = pool.install(|| job.engine()).map_err(usage_error)? else {
        unreachable!("a join job counts with the join")
    };
    // The pair items' indices (the fixed-point searches lie among them).
    let pairs: Vec<usize> = (0..join.items()).filter(|&i| join.joins_pairs(i)).collect();
    let chosen = choose(pairs.len(), args.items, seed);
    let drawn = chosen.len();
    let mut audit = Audit {
        n: args.n,
        seed,
        total_items: join.items(),
        pair_items: pairs.len(),
        simd: join.simd().to_string(),
        threads,
        items: Vec::with_capacity(drawn),
        differences: 0,
        elapsed_s: 0.0,
    };
    for (done, pair) in chosen.into_iter().enumerate() {
        let item = pairs[pair];
        let described = join.describe(item).expect("a pair item describes itself");
        let clock = Instant::now();
        let mut tally = pool.install(|| join.count(item..item + 1)).weighted;
        let join_s = clock.elapsed().as_secs_f64();
        if fault == Some(item) {
            tally += 1;
        }
        let clock = Instant::now();
        let recounted = pool.install(|| recount::recount(&described.set));
        let recount_s = clock.elapsed().as_secs_f64();
        if terminal && !args.json {
            eprintln!(
                "audit: item {item} ({}/{drawn}) recounted in {recount_s:.1} s",
                done + 1
            );
        }
        audit.items.push(Audited {
            item,
            stands_for: described.text,
            join: tally.to_string(),
            recount: recounted.to_string(),
            matches: tally == recounted,
            join_s,
            recount_s,
        });
    }
    audit.differences = audit.items.iter().filter(|a| !a.matches).count();
    audit.elapsed_s = start.elapsed().as_secs_f64();
    print(&audit, args.json, write_text)?;
    if audit.differences > 0 {
        let wrong: Vec<String> = audit
            .items
            .iter()
            .filter(|a| !a.matches)
            .map(|a| format!("item {}: join {}, recount {}", a.item, a.join, a.recount))
            .collect();
        return Err(Mismatch(format!(
            "audit of n = {} FAILED: {} of {} items differ ({})",
            audit.n,
            audit.differences,
            audit.items.len(),
            wrong.join("; ")
        ))
        .into());
    }
    Ok(())
}

/// `k` distinct indices of `0..items` (all of them if `k >= items`), drawn
/// by a partial Fisher-Yates shuffle seeded by `seed`, in increasing order.
fn choose(items: usize, k: usize, seed: u64) -> Vec<usize> {
    let mut random = SplitMix64::new(seed);
    let k = k.min(items);
    // Only the swapped slots are stored: items may be millions.
    let mut swapped = std::collections::HashMap::new();
    let mut chosen = Vec::with_capacity(k);
    for i in 0..k {
        let j = i + random.below_by_remainder((items - i) as u64) as usize;
        let at_j = *swapped.get(&j).unwrap_or(&j);
        let at_i = *swapped.get(&i).unwrap_or(&i);
        swapped.insert(j, at_i);
        chosen.push(at_j);
    }
    chosen.sort_unstable();
    chosen
}

fn write_text(audit: &Audit, out: &mut dyn Write) -> io::Result<()> {
    writeln!(
        out,
        "audit of n = {}: {} of {} pair items (seed {}), join on {}, {} threads",
        audit.n,
        audit.items.len(),
        audit.pair_items,
        audit.seed,
        audit.simd,
        audit.threads
    )?;
    writeln!(
        out,
        "{:>9}  {:>22}  {:>22}  {:>8}  {:>9}  stands for",
        "item", "join", "recount", "join s", "recount s"
    )?;
    for a in &audit.items {
        writeln!(
            out,
            "{:>9}  {:>22}  {:>22}  {:>8.3}  {:>9.3}  {}{}",
            a.item,
            a.join,
            a.recount,
            a.join_s,
            a.recount_s,
            if a.matches { "" } else { "DIFFERS: " },
            a.stands_for
        )?;
    }
    let verdict = match audit.differences {
        0 => "every item matches".to_string(),
        d => format!("{d} DIFFER"),
    };
    writeln!(
        out,
        "{verdict}; the {} items counting the rotations' fixed points are not audited; {:.1} s",
        audit.total_items - audit.pair_items,
        audit.elapsed_s
    )
}

#[cfg(test)]
mod tests {
    use super::choose;

    #[test]
    fn choose_draws_distinct_items_repeatably() {
        let a = choose(1000, 50, 7);
        assert_eq!(a, choose(1000, 50, 7));
        assert_ne!(a, choose(1000, 50, 8));
        let mut unique = a.clone();
        unique.dedup();
        assert_eq!(unique.len(), 50);
        assert!(a.iter().all(|&i| i < 1000));
        assert_eq!(choose(5, 10, 1), vec![0, 1, 2, 3, 4]);
    }
}
