//! The `nqueens` command end to end: outputs, JSON shape, exit codes and the
//! message of every bad input.

mod common;

use common::{json_of, nqueens, rejects, succeeds};
use predicates::prelude::*;

#[test]
fn solve_four_prints_the_two_classic_boards() {
    nqueens()
        .args(["solve", "4"])
        .assert()
        .success()
        .stdout(".Q..\n...Q\nQ...\n..Q.\n\n..Q.\nQ...\n...Q\n.Q..\n");
}

#[test]
fn solve_formats_columns_and_json_lines_and_stops_at_the_limit() {
    nqueens()
        .args(["solve", "6", "--format", "columns", "--limit", "2"])
        .assert()
        .success()
        .stdout("1 3 5 0 2 4\n2 5 1 4 0 3\n");
    nqueens()
        .args(["solve", "5", "--format", "json", "--limit", "1"])
        .assert()
        .success()
        .stdout("[0,2,4,1,3]\n");
}

#[test]
fn solve_prints_nothing_for_a_board_without_solutions() {
    nqueens().args(["solve", "3"]).assert().success().stdout("");
}

#[test]
fn count_prints_the_total_and_how_it_was_counted() {
    nqueens()
        .args(["count", "10", "--threads", "2", "--depth", "3"])
        .assert()
        .success()
        .stdout(
            predicate::str::starts_with("724 solutions for n = 10\n")
                .and(predicate::str::contains("algorithm    parallel"))
                .and(predicate::str::contains("threads      2"))
                .and(predicate::str::contains("split depth  3"))
                .and(predicate::str::contains("A000170      matches")),
        );
}

#[test]
fn count_json_is_one_object_with_the_documented_fields() {
    let output = nqueens()
        .args(["count", "9", "--json", "--threads", "3", "--depth", "2"])
        .output()
        .unwrap();
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).unwrap();
    assert_eq!(text.lines().count(), 1);
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(json["n"], 9);
    assert_eq!(json["total"], 352);
    assert_eq!(json["algorithm"], "parallel");
    assert_eq!(json["symmetry"], "full");
    assert_eq!(json["unique"], 46);
    assert_eq!(json["classes"]["orbit8"], 42);
    assert_eq!(json["classes"]["orbit4"], 4);
    assert_eq!(json["oeis_unique"], 46);
    assert_eq!(json["matches_oeis_unique"], true);
    assert_eq!(json["threads"], 3);
    assert_eq!(json["depth"], 2);
    assert!(json["subproblems"].as_u64().unwrap() > 1);
    let items = json["items"].as_u64().unwrap();
    assert!(items >= 1 && items <= json["subproblems"].as_u64().unwrap());
    assert!(json["elapsed_s"].as_f64().unwrap() >= 0.0);
    assert_eq!(json["oeis_total"], 352);
    assert_eq!(json["matches_oeis"], true);
}

#[test]
fn count_json_of_a_serial_algorithm_reports_one_thread_and_no_split() {
    let output = nqueens()
        .args(["count", "8", "--json", "--algo", "bitmask-iter"])
        .output()
        .unwrap();
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(json["total"], 92);
    assert_eq!(json["algorithm"], "bitmask-iter");
    assert_eq!(json["threads"], 1);
    assert_eq!(json["depth"], 0);
    assert_eq!(json["simd"], serde_json::Value::Null);
    assert_eq!(json["subproblems"], 1);
    assert_eq!(json["items"], 1);
}

#[test]
fn count_reports_its_path_and_takes_the_one_asked_for() {
    use nqueens::engine::backtrack::Backtrack;
    use nqueens::{Join, Simd};
    let json = json_of(&["count", "10", "--json", "--simd", "none"]);
    assert_eq!(json["total"], 724);
    assert_eq!(json["simd"], "none");
    // auto: the fastest path of the engine that counts (the child inherits
    // NQUEENS_NO_LANES, which fastest() reads too).
    let parallel = json_of(&["count", "10", "--json", "--algo", "parallel"]);
    assert_eq!(parallel["simd"], Backtrack::fastest().name());
    let join = json_of(&["count", "10", "--json", "--algo", "join"]);
    assert_eq!(join["simd"], Join::fastest().name());
    for simd in Simd::ALL {
        let name = simd.name();
        let join_runs =
            nqueens::engine::join::count::pairs::runs_in(simd, "count_reports_its_path");
        let args = ["count", "10", "--json", "--algo", "join", "--simd", name];
        if join_runs {
            let json = json_of(&args);
            assert_eq!(
                (json["simd"].as_str(), json["total"].as_u64()),
                (Some(name), Some(724))
            );
        } else {
            rejects(&args, "--simd", "this CPU runs the join on: ");
        }
        let args = [
            "count", "10", "--json", "--algo", "parallel", "--simd", name,
        ];
        if Backtrack::PATHS.iter().all(|p| p.simd != simd) {
            rejects(
                &args,
                "--simd",
                &format!("the backtracking engine has no {name} path"),
            );
        }
        // auto counts on the engine that has the path.
        if join_runs {
            let json = json_of(&["count", "10", "--json", "--simd", name]);
            assert_eq!(json["simd"], name);
        }
    }
    rejects(
        &["count", "8", "--simd", "sse"],
        "--simd",
        "avx512, avx2, neon, none",
    );
    rejects(
        &["count", "8", "--algo", "set", "--simd", "none"],
        "--simd",
        "applies only to",
    );
    rejects(
        &["verify", "--max", "8", "--algo", "set", "--simd", "none"],
        "--simd",
        "applies only to",
    );
}

#[test]
fn the_lanes_can_be_turned_off_where_the_path_is_not_asked_for() {
    let output = nqueens()
        .args(["count", "10", "--json", "--algo", "parallel"])
        .env("NQUEENS_NO_LANES", "1")
        .output()
        .unwrap();
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(json["simd"], "none");
    assert_eq!(json["total"], 724);
    // The join's pair counter too.
    let output = nqueens()
        .args(["count", "10", "--json", "--algo", "join"])
        .env("NQUEENS_NO_LANES", "1")
        .output()
        .unwrap();
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(json["simd"], "none");
    assert_eq!(json["total"], 724);
    // A path asked for by name wins.
    if nqueens::engine::join::count::pairs::runs_in(
        nqueens::Simd::Avx2,
        "the_lanes_can_be_turned_off",
    ) {
        let output = nqueens()
            .args(["count", "10", "--json", "--simd", "avx2"])
            .env("NQUEENS_NO_LANES", "1")
            .output()
            .unwrap();
        let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        assert_eq!(json["simd"], "avx2");
    }
}

#[test]
fn a_depth_whose_plan_would_not_fit_in_memory_is_refused_with_the_largest_that_fits() {
    rejects(
        &["count", "24", "--depth", "14"],
        "--depth <K>",
        "more than 33554432 subproblems (1.0 GiB, --max-memory) at some row of its walk; \
         depths 1..=5 fit",
    );
    let out = tempfile::tempdir().unwrap();
    let folder = out.path().join("sweep");
    let folder_arg = folder.to_str().unwrap();
    rejects(
        &["bench", "--n", "24", "--depth", "3,14", "--out", folder_arg],
        "--depth <LIST>",
        "depths 1..=5 fit",
    );
    assert!(!folder.exists(), "bench wrote files before refusing");
}

#[test]
fn one_solution_is_one_solution() {
    nqueens()
        .args(["count", "1"])
        .assert()
        .success()
        .stdout(predicate::str::starts_with("1 solution for n = 1\n"));
}

#[test]
fn verify_prints_a_table_and_succeeds_when_every_count_matches() {
    nqueens()
        .args(["verify", "--max", "9", "--algo", "board"])
        .assert()
        .success()
        .stdout(
            predicate::str::contains("352")
                .and(predicate::str::contains("ok"))
                .and(predicate::str::contains(
                    "all counts for n = 1..=9 match A000170",
                )),
        );
}

#[test]
fn board_size_zero_negative_too_large_or_not_a_number_is_rejected() {
    for n in ["0", "-3", "33", "abc", "1.5", ""] {
        rejects(&["count", n], "<N>", "1..=32");
        rejects(&["solve", n], "<N>", "1..=32");
    }
    rejects(&["verify", "--max", "0"], "--max", "1..=32");
    rejects(&["verify", "--max", "40"], "--max", "1..=32");
}

#[test]
fn zero_or_negative_threads_are_rejected() {
    rejects(&["count", "8", "--threads", "0"], "--threads", "1..=1024");
    rejects(&["count", "8", "--threads", "-2"], "--threads", "1..=1024");
    rejects(&["verify", "--threads", "0"], "--threads", "1..=1024");
}

#[test]
fn a_depth_outside_one_to_n_is_rejected() {
    rejects(&["count", "8", "--depth", "0"], "--depth", "1..=8");
    rejects(&["count", "8", "--depth", "9"], "--depth", "1..=8");
    rejects(&["count", "8", "--depth", "-1"], "--depth", "1..=N");
}

#[test]
fn an_estimate_budget_outside_one_second_to_a_day_is_rejected() {
    for budget in ["0", "-5", "86401", "1.5", "soon"] {
        rejects(
            &["estimate", "26", "--budget", budget],
            "--budget",
            "1..=86400",
        );
    }
}

#[test]
fn a_short_estimate_budget_sketches_for_about_that_long() {
    // The default sketches 20 s; one second takes the first 16 units (the
    // least a sketch takes, whatever its budget) and no more once the
    // second is up. Either it stopped at those 16 (they took longer than
    // the budget: 3-5 s on a 2-core VM, more while other tests run), or
    // it ended within about the budget (a unit in flight finished; each
    // well under a second at n = 26). A sketch that ran for the default
    // takes more units and longer, on any machine.
    let json = json_of(&[
        "estimate",
        "26",
        "--budget",
        "1",
        "--threads",
        "2",
        "--json",
    ]);
    let sketched = json["sketched_s"].as_f64().unwrap();
    let units = json["sampled_units"].as_u64().unwrap();
    assert!(units >= 16, "{json}");
    assert!(
        units == 16 || sketched < 3.0,
        "sketched {units} units in {sketched} s for a 1 s budget"
    );
}

#[test]
fn a_layout_is_the_joins_and_the_table_stops_at_25() {
    rejects(
        &["count", "12", "--algo", "parallel", "--layout", "table"],
        "--layout",
        "applies only to --algo join",
    );
    rejects(
        &["count", "12", "--layout", "searched", "--depth", "2"],
        "--depth",
        "applies only to --algo parallel",
    );
    rejects(
        &["count", "26", "--layout", "table"],
        "--layout",
        "up to n = 25",
    );
    rejects(
        &["estimate", "27", "--layout", "table"],
        "--layout",
        "up to n = 25",
    );
    rejects(
        &["count", "12", "--layout", "drawn"],
        "--layout",
        "must be `table` (n up to 25) or `searched`",
    );
}

#[test]
fn each_layout_counts_and_says_which_it_was() {
    for layout in ["table", "searched"] {
        let json = json_of(&["count", "13", "--layout", layout, "--unique", "--json"]);
        assert_eq!(
            (json["algorithm"].as_str(), json["layout"].as_str()),
            (Some("join"), Some(layout))
        );
        assert_eq!(
            (json["total"].as_u64(), json["unique"].as_u64()),
            (Some(73712), Some(9233))
        );
    }
    let text = nqueens()
        .args(["count", "13", "--layout", "searched"])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&text.stdout).contains("  layout       searched\n"));
    // The backtracker has none.
    let json = json_of(&["count", "9", "--algo", "parallel", "--json"]);
    assert!(json.get("layout").is_none(), "{json}");
}

#[test]
fn parallel_only_flags_are_rejected_with_a_serial_algorithm() {
    rejects(
        &["count", "8", "--algo", "set", "--depth", "2"],
        "--depth",
        "applies only to --algo parallel",
    );
    rejects(
        &["count", "8", "--algo", "bitmask", "--threads", "2"],
        "--threads",
        "applies only to --algo parallel",
    );
    rejects(
        &["count", "8", "--algo", "board", "--symmetry", "none"],
        "--symmetry",
        "applies only to --algo parallel",
    );
}

#[test]
fn unknown_algorithms_formats_and_symmetries_list_the_allowed_values() {
    rejects(&["count", "8", "--algo", "fast"], "--algo", "bitmask-iter");
    rejects(&["verify", "--algo", "fast"], "--algo", "parallel");
    rejects(&["solve", "8", "--format", "svg"], "--format", "columns");
    rejects(&["count", "8", "--symmetry", "all"], "--symmetry", "mirror");
    rejects(&["count", "8", "--simd", "gpu"], "--simd", "avx512");
}

#[test]
fn a_zero_limit_is_rejected() {
    rejects(&["solve", "8", "--limit", "0"], "--limit", "at least 1");
}

#[test]
fn a_reader_closing_the_pipe_early_ends_quietly_with_success() {
    // `nqueens solve 12 | head -1`, without a shell: read one line, then close.
    use std::io::{BufRead, BufReader};
    use std::process::{Command as Process, Stdio};
    let mut child = Process::new(assert_cmd::cargo::cargo_bin("nqueens"))
        .args(["solve", "12"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap(); // dropping the reader closes the pipe
    assert_eq!(first, "Q...........\n");
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&output.stderr), "");
}

#[test]
fn count_unique_reports_the_classes_and_checks_a002562() {
    nqueens()
        .args(["count", "8", "--unique"])
        .assert()
        .success()
        .stdout(
            predicate::str::starts_with("92 solutions for n = 8\n12 unique")
                .and(predicate::str::contains("orbits of 8            11"))
                .and(predicate::str::contains("orbits of 4             1"))
                .and(predicate::str::contains("A002562      matches")),
        );
}

#[test]
fn unique_needs_full_symmetry_and_the_parallel_engine() {
    rejects(
        &["count", "8", "--unique", "--symmetry", "mirror"],
        "--symmetry",
        "must be full with --unique",
    );
    rejects(
        &["count", "8", "--unique", "--algo", "set"],
        "--unique",
        "applies only to --algo parallel",
    );
    rejects(
        &["verify", "--unique", "--algo", "board"],
        "--unique",
        "applies only to --algo parallel",
    );
}

#[test]
fn verify_unique_adds_an_a002562_column() {
    nqueens()
        .args(["verify", "--max", "10", "--unique"])
        .assert()
        .success()
        .stdout(
            predicate::str::contains("A002562")
                .and(predicate::str::contains("   92  "))
                .and(predicate::str::contains(
                    "all counts for n = 1..=10 match A000170 and A002562",
                )),
        );
}

/// `nqueens bench ARGS --out OUT` (runs 1 unless ARGS say), which must succeed.
fn bench_into(out: &std::path::Path, args: &[&str]) -> std::process::Output {
    let runs = if args.contains(&"--runs") {
        &[][..]
    } else {
        &["--runs", "1"][..]
    };
    succeeds(
        nqueens()
            .arg("bench")
            .args(args)
            .args(runs)
            .arg("--out")
            .arg(out),
    )
}

#[test]
fn bench_sweeps_paths_like_threads_and_refuses_one_this_cpu_lacks() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("sweep");
    bench_into(
        &out,
        &[
            "--n",
            "9",
            "--algo",
            "join",
            "--threads",
            "1",
            "--simd",
            "none,auto",
        ],
    );
    let csv = std::fs::read_to_string(out.join("sweep.csv")).unwrap();
    let paths: Vec<&str> = csv
        .lines()
        .skip(1)
        .map(|l| l.split(',').nth(1).unwrap())
        .collect();
    let fastest = nqueens::Join::fastest().name();
    let expected: Vec<&str> = if fastest == "none" {
        vec!["none"]
    } else {
        vec!["none", fastest]
    };
    assert_eq!(paths, expected, "{csv}");
    let lacking = nqueens::Simd::ALL
        .into_iter()
        .find(|&s| !nqueens::engine::join::count::pairs::runs_in(s, "bench_sweeps_paths"));
    if let Some(lacking) = lacking {
        let args = [
            "bench",
            "--n",
            "9",
            "--algo",
            "join",
            "--simd",
            lacking.name(),
        ];
        // Refused before its default folder (results/<date>-<host>-<time>)
        // is made: a refusal leaves nothing behind.
        let results = || {
            std::fs::read_dir(env!("CARGO_MANIFEST_DIR").to_string() + "/results")
                .unwrap()
                .count()
        };
        let before = results();
        rejects(&args, "--simd", "which this CPU lacks");
        assert_eq!(results(), before);
    }
}

#[test]
fn bench_runs_a_tiny_sweep_and_writes_csv_json_plots_and_a_readme() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("sweep");
    // 5 and 6 below JOIN_FROM on every path, 13 and 14 past it.
    let output = bench_into(
        &out,
        &["--n", "5,6,13,14", "--threads", "1,2", "--runs", "2"],
    );
    // No progress bar when stderr is not a terminal.
    assert_eq!(String::from_utf8_lossy(&output.stderr), "");
    // Without --algo, each n gets the engine `count` would choose.
    let table = String::from_utf8(output.stdout).unwrap();
    assert!(
        table.contains("parallel") && table.contains("join"),
        "{table}"
    );

    let csv = std::fs::read_to_string(out.join("sweep.csv")).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), 1 + 8, "{csv}");
    assert!(lines[0].starts_with("algorithm,simd,symmetry,n,threads"));
    // algorithm, simd (the engine's fastest here), symmetry, n, threads, …
    let row = |engine: &str, rest: &str, end: &str| {
        lines.iter().any(|l| {
            let (algorithm, after) = l.split_once(',').unwrap();
            let (_simd, after) = after.split_once(',').unwrap();
            algorithm == engine && after.starts_with(rest) && l.ends_with(end)
        })
    };
    assert!(row("parallel", "full,6,2,", ",4,4"), "{csv}");
    assert!(row("join", "full,14,2,", ",365596,365596"), "{csv}");

    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("sweep.json")).unwrap()).unwrap();
    let rows = json["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 8);
    assert!(rows.iter().all(|r| r["runs"] == 2));
    assert_eq!(rows[1]["threads"], 2);
    assert!(rows[1]["speedup"].as_f64().unwrap() > 0.0);
    assert!(json["machine"]["logical_cores"].as_u64().unwrap() >= 1);
    assert!(json["command"]
        .as_str()
        .unwrap()
        .starts_with("nqueens bench"));

    let speedup = std::fs::read_to_string(out.join("speedup.svg")).unwrap();
    assert!(speedup.starts_with("<svg") && speedup.contains("n = 14") && speedup.contains("ideal"));
    assert!(out.join("time_vs_n.svg").exists());
    assert!(
        !out.join("efficiency_vs_depth.svg").exists(),
        "no depth list, no depth plot"
    );
    let readme = std::fs::read_to_string(out.join("README.md")).unwrap();
    for field in [
        "Command: `nqueens bench",
        "git revision",
        "rustc",
        "CPU",
        "physical cores",
        "build profile",
    ] {
        assert!(readme.contains(field), "README lacks {field}");
    }
    let leftovers: Vec<_> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|name| name.ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

#[test]
fn bench_rejects_bad_lists_and_counts_before_writing_anything() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("never");
    let out = out.to_str().unwrap();
    rejects(&["bench", "--n", "0", "--out", out], "--n", "1..=32");
    rejects(&["bench", "--n", "14..=12", "--out", out], "--n", "1..=32");
    rejects(
        &["bench", "--threads", "0,2", "--out", out],
        "--threads",
        "1..=1024",
    );
    rejects(
        &["bench", "--n", "8,9", "--depth", "9", "--out", out],
        "--depth",
        "1..=8",
    );
    rejects(
        &["bench", "--runs", "0", "--out", out],
        "--runs",
        "1..=1000",
    );
    rejects(
        &["bench", "--warmup", "-1", "--out", out],
        "--warmup",
        "0..=100",
    );
    rejects(
        &["bench", "--algo", "quick", "--out", out],
        "--algo",
        "bitmask-iter",
    );
    assert!(!dir.path().join("never").exists());
}

#[test]
fn bench_rejects_negative_list_values_and_serial_only_flags_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("never");
    let out = out.to_str().unwrap();
    rejects(
        &["bench", "--n", "-3", "--out", out],
        "--n <LIST>",
        "1..=32",
    );
    rejects(
        &["bench", "--threads", "-1", "--out", out],
        "--threads <LIST>",
        "1..=1024",
    );
    rejects(
        &["bench", "--depth", "-2", "--out", out],
        "--depth <LIST>",
        "1..=32",
    );
    for flag in [["--symmetry", "full"], ["--depth", "2"], ["--threads", "2"]] {
        rejects(
            &[
                "bench",
                "--algo",
                "set,board",
                flag[0],
                flag[1],
                "--out",
                out,
            ],
            flag[0],
            "applies only to --algo parallel",
        );
    }
    assert!(!dir.path().join("never").exists());
}

#[test]
fn bench_runs_each_algorithm_once_in_the_order_given() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("sweep");
    let output = nqueens()
        .args([
            "bench",
            "--n",
            "6",
            "--algo",
            "set,parallel,set",
            "--threads",
            "1",
        ])
        .args(["--runs", "1", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(output.status.success());
    let csv = std::fs::read_to_string(out.join("sweep.csv")).unwrap();
    let algorithms: Vec<&str> = csv
        .lines()
        .skip(1)
        .map(|l| l.split(',').next().unwrap())
        .collect();
    assert_eq!(algorithms, vec!["set", "parallel"]);
}

#[test]
fn bench_refuses_a_folder_holding_another_sweep_unless_forced_and_clears_stale_temporaries() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("sweep");
    let tiny = |extra: &[&str]| {
        nqueens()
            .args([
                "bench",
                "--n",
                "6",
                "--threads",
                "1",
                "--runs",
                "1",
                "--out",
            ])
            .arg(&out)
            .args(extra)
            .output()
            .unwrap()
    };
    assert!(tiny(&[]).status.success());
    std::fs::write(out.join(".sweep.csv.99999.nqueens-tmp"), "stale").unwrap();
    let again = tiny(&[]);
    assert_eq!(again.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&again.stderr).contains("--force"));
    assert!(tiny(&["--force"]).status.success());
    let names: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert!(names.iter().all(|n| !n.starts_with('.')), "{names:?}");
}

#[test]
fn bench_whose_reader_goes_away_still_writes_every_file() {
    use std::process::{Command as Process, Stdio};
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("sweep");
    let mut child = Process::new(env!("CARGO_BIN_EXE_nqueens"))
        .args([
            "bench",
            "--n",
            "8,9",
            "--threads",
            "1,2",
            "--runs",
            "1",
            "--out",
        ])
        .arg(&out)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    drop(child.stdout.take()); // like `| true`
    assert!(child.wait().unwrap().success());
    let readme = std::fs::read_to_string(out.join("README.md")).unwrap();
    assert!(readme.contains("Complete: 4 of 4 points"), "{readme}");
    assert!(out.join("speedup.svg").exists());
}

#[test]
fn an_interrupted_bench_leaves_agreeing_files_marked_incomplete() {
    use std::process::{Command as Process, Stdio};
    use std::time::{Duration, Instant};
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("sweep");
    // A quick first point, then a long one to interrupt.
    let mut child = Process::new(env!("CARGO_BIN_EXE_nqueens"))
        .args([
            "bench",
            "--n",
            "8,18",
            "--threads",
            "1",
            "--runs",
            "1",
            "--out",
        ])
        .arg(&out)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(30);
    while Instant::now() < deadline {
        let rows = std::fs::read_to_string(out.join("sweep.csv")).map_or(0, |c| c.lines().count());
        if rows >= 2 {
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(130));
    let readme = std::fs::read_to_string(out.join("README.md")).unwrap();
    assert!(readme.contains("**Incomplete**: 1 of 2 points"), "{readme}");
    let csv = std::fs::read_to_string(out.join("sweep.csv")).unwrap();
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("sweep.json")).unwrap()).unwrap();
    assert_eq!(
        csv.lines().count() - 1,
        json["rows"].as_array().unwrap().len()
    );
    let names: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert!(names.iter().all(|n| !n.starts_with('.')), "{names:?}");
}

#[test]
fn help_that_cannot_be_written_is_an_error_not_a_silent_success() {
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_nqueens"))
        .arg("--help")
        .stdout(full)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&output.stderr).contains("cannot write"));
}

#[test]
fn estimate_reports_nodes_time_and_spread_and_matches_exact_nodes_on_small_boards() {
    let output = nqueens()
        .args(["estimate", "12", "--exact", "--json", "--threads", "2"])
        .output()
        .unwrap();
    assert!(output.status.success());
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let (nodes, exact) = (
        json["nodes"].as_f64().unwrap(),
        json["exact_nodes"].as_f64().unwrap(),
    );
    assert!((nodes - exact).abs() / exact < 0.1, "{json}");
    assert!(json["estimated_s"].as_f64().unwrap() > 0.0);
    assert!(json["estimated_low_s"].as_f64() <= json["estimated_s"].as_f64());
    assert!(json["estimated_high_s"].as_f64() >= json["estimated_s"].as_f64());
    assert_eq!(json["threads"], 2);
    let serial = nqueens()
        .args([
            "estimate",
            "10",
            "--algo",
            "set",
            "--json",
            "--threads",
            "4",
        ])
        .output()
        .unwrap();
    let serial: serde_json::Value = serde_json::from_slice(&serial.stdout).unwrap();
    assert_eq!(
        serial["threads"], 1,
        "the serial algorithms run on one thread"
    );
}

#[test]
fn a_count_that_will_take_long_says_so_first_on_stderr() {
    use std::io::{BufRead, BufReader};
    use std::process::{Command as Process, Stdio};
    // The backtracker forecasts its search; the join past n = 25, whose
    // items take longer than a forecast may time, sketches a sample of its
    // slots (with `auto`, it counts n = 32 wherever its plan fits the
    // memory free).
    for (algo, said) in [("parallel", "nodes in all"), ("join", "slots sketched")] {
        let mut child = Process::new(env!("CARGO_BIN_EXE_nqueens"))
            .args(["count", "32", "--algo", algo])
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut first = String::new();
        BufReader::new(child.stderr.take().unwrap())
            .read_line(&mut first)
            .unwrap();
        child.kill().unwrap();
        child.wait().unwrap();
        assert!(
            first.starts_with("estimate: this count (n = 32"),
            "{algo}: {first}"
        );
        assert!(
            first.contains(said) && first.contains("years"),
            "{algo}: {first}"
        );
    }
}

#[test]
fn boards_without_solutions_count_zero_on_every_command() {
    // `count 2`, `count 3` and `verify --max 2|3` panicked: the size
    // announcement probed an empty plan.
    for n in ["2", "3"] {
        for algo in ["auto", "parallel", "join"] {
            let count = json_of(&["count", n, "--algo", algo, "--json"]);
            assert_eq!(count["total"], 0, "count {n} --algo {algo}");
        }
        let output = nqueens().args(["verify", "--max", n]).output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(output.status.success(), "verify --max {n}: {stderr}");
        let estimate = json_of(&["estimate", n, "--json"]);
        assert_eq!(estimate["nodes"], 0.0, "estimate {n}");
    }
}

#[test]
fn bench_whose_output_cannot_be_written_fails_after_writing_its_files() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("sweep");
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_nqueens"))
        .args([
            "bench",
            "--n",
            "6",
            "--threads",
            "1",
            "--runs",
            "1",
            "--out",
        ])
        .arg(&out)
        .stdout(full)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&output.stderr).contains("cannot write to stdout"));
    assert!(out.join("sweep.csv").is_file(), "the files are the product");
}

#[test]
fn bench_killed_at_any_moment_leaves_files_of_one_generation() {
    // A SIGKILL between the CSV's rename and the JSON's left them
    // disagreeing in 3 of 48 kills; scripts/bench-kill-loop.sh runs 200.
    use std::process::{Command as Process, Stdio};
    use std::time::Duration;
    let dir = tempfile::tempdir().unwrap();
    for (kill, delay_ms) in [5u64, 9, 14, 20, 27, 35, 44, 54].into_iter().enumerate() {
        let out = dir.path().join(format!("sweep-{kill}"));
        let mut child = Process::new(env!("CARGO_BIN_EXE_nqueens"))
            .args(["bench", "--n", "4..=11", "--threads", "1,2", "--runs", "1"])
            .arg("--out")
            .arg(&out)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(delay_ms));
        child.kill().unwrap();
        child.wait().unwrap();
        let Ok(csv) = std::fs::read_to_string(out.join("sweep.csv")) else {
            assert!(!out.join("sweep.json").exists() && !out.join("README.md").exists());
            continue;
        };
        let json: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(out.join("sweep.json")).unwrap())
                .unwrap();
        let readme = std::fs::read_to_string(out.join("README.md")).unwrap();
        let rows = json["rows"].as_array().unwrap();
        assert_eq!(csv.lines().count() - 1, rows.len(), "kill {kill}");
        for (line, row) in csv.lines().skip(1).zip(rows) {
            let total = row["total"].to_string();
            assert!(line.ends_with(&format!(",{total},{total}")) || line.contains(&total));
        }
        assert!(
            readme.contains(&format!("{} of ", rows.len())),
            "kill {kill}: {readme}"
        );
    }
}

#[test]
fn an_out_that_is_a_folder_is_refused_before_the_count_leaving_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let taken = dir.path().join("taken");
    std::fs::create_dir(&taken).unwrap();
    let output = nqueens()
        .current_dir(dir.path())
        .args(["count", "10", "--shard", "1/2", "--out", "taken"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.matches("is a directory").count(), 1, "{stderr}");
    assert!(stderr.contains("--out <FILE>"), "{stderr}");
    assert!(output.stdout.is_empty());
    let names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(names, ["taken"], "a temporary was left behind");
    // A journal that is a folder: its cause once too.
    let output = nqueens()
        .current_dir(dir.path())
        .args(["count", "10", "--checkpoint", "taken"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.matches("is a directory").count(), 1, "{stderr}");
}

#[test]
fn status_of_a_shard_names_its_kind_once() {
    let dir = tempfile::tempdir().unwrap();
    let shard = dir.path().join("s.json");
    let shard = shard.to_str().unwrap();
    json_of(&["count", "10", "--shard", "1/2", "--out", shard, "--json"]);
    let output = nqueens()
        .args(["status", shard, "--json"])
        .output()
        .unwrap();
    let text = String::from_utf8(output.stdout).unwrap();
    assert_eq!(text.matches("\"kind\"").count(), 1, "{text}");
    let status: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(status["kind"], "shard");
    assert_eq!(status["path"], shard);
}

#[cfg(not(feature = "gpu"))]
#[test]
fn gpu_without_the_feature_says_how_to_build_it() {
    rejects(
        &["count", "12", "--gpu"],
        "--gpu",
        "cargo build --release --features gpu",
    );
    // What the flags combine with is refused first, the same in any build.
    rejects(
        &["count", "12", "--gpu", "--algo", "parallel"],
        "--gpu",
        "applies only to --algo join or auto",
    );
    rejects(&["count", "12", "--gpu-device", "0"], "--gpu", "required");
    rejects(
        &["estimate", "16", "--gpu"],
        "--gpu",
        "cargo build --release --features gpu",
    );
}

#[test]
fn gpu_memory_is_refused_below_one_jobs_dispatch_and_without_a_gpu() {
    // Refused before any adapter is looked for: the same in every build.
    rejects(
        &["count", "12", "--gpu", "--gpu-memory", "1M"],
        "--gpu-memory <SIZE>",
        "must be at least 64.0 MiB",
    );
    rejects(&["count", "12", "--gpu-memory", "1G"], "--gpu", "required");
}
