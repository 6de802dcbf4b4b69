//! The join engine against OEIS and the backtracking engine, and from the
//! command line: the same report, long runs (journal, shards, merge), and
//! its memory planning.

use nqueens::oeis::{known_total, known_unique};
use nqueens::{count, Algorithm, Engine, Join, Options};

mod common;

use common::{json_of, nqueens, rejects, start_and_kill};

fn join() -> Options {
    Options::default().with_algorithm(Algorithm::Join)
}

#[test]
fn every_board_to_fourteen_matches_oeis_and_the_backtracking_engine() {
    for n in 1..=14 {
        let joined = count(n, &join()).unwrap();
        let searched = count(n, &Options::default().with_algorithm(Algorithm::Parallel)).unwrap();
        assert_eq!(Some(joined.total), known_total(n), "n = {n}");
        assert_eq!(joined.unique, known_unique(n), "n = {n}");
        assert_eq!(joined.total, searched.total, "n = {n}");
        assert_eq!(joined.unique, searched.unique, "n = {n}");
        assert_eq!(joined.classes, searched.classes, "n = {n}");
        assert_eq!(joined.algorithm, Algorithm::Join);
    }
}

#[test]
fn every_pair_counter_this_cpu_runs_gives_the_same_counts() {
    for path in Join::PATHS {
        let counter = path.simd;
        let test = "every_pair_counter_this_cpu_runs_gives_the_same_counts";
        if !nqueens::engine::join::count::pairs::runs_in(counter, test) {
            continue;
        }
        for n in 1..=15 {
            let engine = Join::new(n, counter, u64::MAX).unwrap();
            let total = engine.count(0..engine.items()).total();
            assert_eq!(Some(total), known_total(n), "{counter} n = {n}");
            if n <= 11 {
                let searched = nqueens::reference::bitmask::count_iterative(n);
                assert_eq!(total as u64, searched, "{counter} n = {n}");
            }
        }
    }
}

#[test]
fn item_ranges_split_anywhere_add_up_to_the_whole() {
    let engine = Join::new(13, Join::fastest(), u64::MAX).unwrap();
    let items = engine.items();
    let whole = engine.count(0..items);
    for cut in [0, 1, items / 3, items - 1, items] {
        let parts = engine.count(0..cut).sum(engine.count(cut..items));
        assert_eq!(parts, whole, "cut at {cut}");
    }
    // 2n items count what the rotations fix, each a part of it, spread
    // among the pair items; all of them interleaved by cost, the costliest
    // first: the first half of the items holds about half the cost
    // (sorted, it would hold the larger part).
    let searches: Vec<usize> = (0..items)
        .filter(|&i| engine.count(i..i + 1).fixed.is_some())
        .collect();
    assert_eq!(
        searches.len(),
        nqueens::engine::join::count::burnside::items(13)
    );
    assert_eq!(searches.len(), 2 * 13);
    assert!(searches[0] < items / 4 && searches[searches.len() - 1] >= items * 3 / 4);
    let found = searches.iter().filter(|&&i| {
        let part = engine.count(i..i + 1).fixed.unwrap();
        part.half_turn + part.quarter_turn > 0
    });
    assert!(found.count() > 1, "the fixed points are spread over items");
    let costs: Vec<f64> = (0..items).map(|i| engine.cost(i)).collect();
    assert!(costs.iter().all(|&c| c > 0.0 && c <= costs[0]));
    let first_half: f64 = costs[..items / 2].iter().sum();
    let share = first_half / costs.iter().sum::<f64>();
    assert!(
        (0.45..0.55).contains(&share),
        "first half of the items: {share}"
    );
}

#[test]
fn count_algo_join_reports_like_the_backtracking_engine() {
    let joined = json_of(&["count", "12", "--algo", "join", "--unique", "--json"]);
    let searched = json_of(&["count", "12", "--algo", "parallel", "--unique", "--json"]);
    for field in [
        "total",
        "unique",
        "classes",
        "matches_oeis",
        "matches_oeis_unique",
    ] {
        assert_eq!(joined[field], searched[field], "{field}");
    }
    assert_eq!(joined["algorithm"], "join");
    assert_eq!(joined["symmetry"], "full");
    assert_eq!(joined["simd"], Join::fastest().name());
    assert!(joined["planned_bytes"].as_u64().unwrap() > 0);
    assert!(joined["peak_bytes"].as_u64().unwrap() > 0);
    let text = nqueens()
        .args(["count", "16", "--algo", "join", "--threads", "1"])
        .output()
        .unwrap();
    let text = String::from_utf8(text.stdout).unwrap();
    assert!(text.starts_with("14772512 solutions for n = 16"), "{text}");
    assert!(text.contains("  simd         "), "{text}");
    assert!(text.contains("peak memory"), "{text}");
}

#[test]
fn without_algo_count_takes_the_faster_engine_and_flags_of_the_search_pick_it() {
    let big = json_of(&["count", "16", "--json"]);
    let small = json_of(&["count", "5", "--json"]);
    let asked = json_of(&["count", "16", "--depth", "3", "--json"]);
    let auto = |n| {
        nqueens::Job::new(n, Options::default(), Some(2), nqueens::Run::default())
            .unwrap()
            .options()
            .algorithm
    };
    assert_eq!(big["algorithm"], auto(16).name());
    assert_eq!(small["algorithm"], auto(5).name());
    // Below the crossover the join's setup costs more than it saves.
    assert_eq!(auto(5), Algorithm::Parallel);
    assert_eq!(auto(16), Algorithm::Join);
    assert_eq!(asked["algorithm"], "parallel");
}

#[test]
fn every_command_chooses_the_engine_the_same_way_and_names_it() {
    // count, estimate and verify without --algo: one choice, the library's.
    let count = json_of(&["count", "14", "--json"]);
    let estimate = json_of(&["estimate", "14", "--json"]);
    assert_eq!(count["algorithm"], "join");
    assert_eq!(estimate["algorithm"], "join");
    let verify = nqueens().args(["verify", "--max", "14"]).output().unwrap();
    assert!(verify.status.success());
    let table = String::from_utf8(verify.stdout).unwrap();
    let row = |n: &str| {
        table
            .lines()
            .find(|l| l.split_whitespace().next() == Some(n))
            .unwrap()
            .to_string()
    };
    assert!(row("5").ends_with("parallel"), "{table}");
    assert!(row("14").ends_with("join"), "{table}");
    // The library's default options choose the same way.
    let fourteen = nqueens::count(14, &Options::default()).unwrap();
    assert_eq!(fourteen.algorithm, Algorithm::Join);
    assert_eq!(nqueens::count(3, &Options::default()).unwrap().total, 0);
}

#[test]
fn a_join_that_does_not_fit_the_memory_limit_falls_back_with_one_note() {
    // Without --algo the limit bounds the choice: backtracking counts.
    let output = nqueens()
        .args(["count", "16", "--max-memory", "1M", "--json"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    let count: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(count["algorithm"], "parallel");
    assert_eq!(count["total"], 14772512);
    assert_eq!(stderr.matches("note:").count(), 1, "{stderr}");
    assert!(!stderr.contains("error"), "{stderr}");
    // Asked for by name, the join refuses, naming what it needs.
    rejects(
        &["count", "16", "--algo", "join", "--max-memory", "1M"],
        "--max-memory",
        "the join for n = 16 needs",
    );
    // The backtracker's plan takes the limit too: the automatic depth
    // fits, a deeper one is refused naming the depth and the limit.
    let count = json_of(&[
        "count",
        "16",
        "--algo",
        "parallel",
        "--max-memory",
        "1M",
        "--json",
    ]);
    assert_eq!(count["total"], 14772512);
    rejects(
        &[
            "count",
            "16",
            "--algo",
            "parallel",
            "--max-memory",
            "1M",
            "--depth",
            "6",
        ],
        "--depth <K>",
        "more than 32768 subproblems (1.0 MiB, --max-memory)",
    );
}

#[test]
fn a_shard_whose_boards_join_does_not_fit_is_refused_not_counted_another_way() {
    // Another shard of the count, on a larger machine, takes the join: a
    // backtracked shard here could never merge with it.
    let out =
        std::env::temp_dir().join(format!("nqueens-shard-memory-{}.json", std::process::id()));
    let _ = std::fs::remove_file(&out);
    let out_arg = out.to_str().unwrap();
    rejects(
        &[
            "count",
            "16",
            "--shard",
            "1/4",
            "--out",
            out_arg,
            "--max-memory",
            "1M",
        ],
        "--max-memory",
        "every shard of a count takes the engine and layout its board does",
    );
    assert!(!out.exists(), "a refused shard wrote {}", out.display());
    // Below the join's boards, a shard is the backtracker's on any CPU.
    let shard = json_of(&["count", "11", "--shard", "1/2", "--out", out_arg, "--json"]);
    assert_eq!(shard["fingerprint"]["engine"], "backtrack", "{shard}");
    let _ = std::fs::remove_file(&out);
}

#[test]
fn estimate_times_a_sample_of_the_joins_items() {
    let e = json_of(&[
        "estimate",
        "15",
        "--algo",
        "join",
        "--threads",
        "1",
        "--json",
    ]);
    assert_eq!(e["algorithm"], "join");
    let (sampled, items) = (
        e["sampled_items"].as_u64().unwrap(),
        e["items"].as_u64().unwrap(),
    );
    assert!(0 < sampled && sampled <= items, "{e}");
    let (low, mid, high) = (
        e["estimated_low_s"].as_f64().unwrap(),
        e["estimated_s"].as_f64().unwrap(),
        e["estimated_high_s"].as_f64().unwrap(),
    );
    assert!(0.0 < mid && low <= mid && mid <= high, "{e}");
}

#[test]
fn join_flags_are_checked_before_anything_runs() {
    rejects(
        &["count", "12", "--algo", "join", "--depth", "3"],
        "--depth",
        "only to --algo parallel",
    );
    rejects(
        &["count", "12", "--max-memory", "1G", "--algo", "set"],
        "--max-memory",
        "only to --algo parallel or join",
    );
    rejects(
        &["count", "12", "--max-memory", "12"],
        "--max-memory",
        "at least 1M",
    );
    rejects(
        &["count", "12", "--max-memory", "lots"],
        "--max-memory",
        "512M",
    );
    rejects(
        &["count", "18", "--algo", "join", "--max-memory", "1M"],
        "--max-memory",
        "needs",
    );
    rejects(
        &["count", "32", "--algo", "join", "--max-memory", "1G"],
        "--max-memory",
        "needs",
    );
    rejects(
        &["estimate", "12", "--algo", "join", "--exact"],
        "--algo",
        "no search tree",
    );
}

#[test]
fn a_killed_join_resumes_from_its_journal_with_the_same_answer() {
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("n18.journal");
    start_and_kill(
        &["count", "18", "--algo", "join", "--threads", "1"],
        &journal,
    );
    let path = journal.to_str().unwrap();
    let status = json_of(&["status", path, "--json"]);
    assert!(status["done_items"].as_u64().unwrap() > 0, "{status}");
    assert_eq!(status["complete"], false, "{status}");
    assert_eq!(status["fingerprint"]["engine"], "join");
    let resumed = json_of(&["count", "18", "--checkpoint", path, "--json", "--unique"]);
    assert_eq!(resumed["algorithm"], "join");
    assert_eq!(resumed["matches_oeis"], true);
    assert_eq!(resumed["matches_oeis_unique"], true);
}

#[test]
fn a_join_resumes_from_its_journal_and_merges_from_shards() {
    let dir = tempfile::tempdir().unwrap();
    let whole = json_of(&["count", "13", "--algo", "join", "--unique", "--json"]);
    let journal = dir.path().join("j");
    let journal = journal.to_str().unwrap();
    let first = json_of(&[
        "count",
        "13",
        "--algo",
        "join",
        "--checkpoint",
        journal,
        "--json",
        "--unique",
    ]);
    // Resumed without --algo: the journal's engine decides.
    let again = json_of(&["count", "13", "--checkpoint", journal, "--json", "--unique"]);
    for field in ["total", "unique", "classes"] {
        assert_eq!(first[field], whole[field], "{field}");
        assert_eq!(again[field], whole[field], "{field}");
    }
    let mut names = Vec::new();
    for i in 1..=3 {
        let name = dir.path().join(format!("s{i}.json"));
        let name = name.to_str().unwrap().to_string();
        json_of(&[
            "count",
            "13",
            "--algo",
            "join",
            "--shard",
            &format!("{i}/3"),
            "--out",
            &name,
            "--json",
        ]);
        names.push(name);
    }
    let mut args = vec!["merge", "--json", "--unique"];
    args.extend(names.iter().map(String::as_str));
    let merged = json_of(&args);
    for field in ["total", "unique", "classes"] {
        assert_eq!(merged[field], whole[field], "{field}");
    }
    assert_eq!(merged["algorithm"], "join");
}

#[test]
fn a_large_join_says_at_once_that_it_is_planning_and_for_how_long() {
    // `count 22` printed nothing for about a minute (the quarter table
    // sized three times, then 256 items timed for the forecast).
    use std::io::{BufRead, BufReader};
    use std::process::Stdio;
    use std::time::Duration;
    let mut child = common::process()
        .args(["count", "22", "--threads", "1"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stderr = child.stderr.take().unwrap();
    let (send, receive) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut first = String::new();
        let _ = BufReader::new(stderr).read_line(&mut first);
        let _ = send.send(first);
    });
    let first = receive.recv_timeout(Duration::from_secs(10));
    child.kill().unwrap();
    child.wait().unwrap();
    let line = first.expect("no line on stderr within 10 s");
    assert!(line.starts_with("planning the count of n = 22"), "{line}");
    // And how long the planning will take, before it starts.
    assert!(
        line.contains("about ") && line.contains(" thread(s)"),
        "{line}"
    );
}
