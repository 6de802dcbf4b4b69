//! `nqueens rate`: its JSON, its saved file, `--compare`, its refusals and
//! an interrupted rating. Windows of 20 ms (NQUEENS_RATE_WINDOW_MS), so
//! that a rating takes about two seconds here; the figures themselves are
//! measured, never checked by a test.

mod common;

use std::time::Duration;

use common::{nqueens, process, rejects, succeeds};
use serde_json::Value;

const WINDOW_VAR: &str = "NQUEENS_RATE_WINDOW_MS";

/// A quick rating on `threads` threads, saved to `save`: its stdout line.
fn rate(threads: &str, save: &std::path::Path) -> String {
    let output = succeeds(
        nqueens()
            .args(["rate", "--json", "--threads", threads, "--save"])
            .arg(save)
            .env(WINDOW_VAR, "20"),
    );
    String::from_utf8(output.stdout).unwrap()
}

#[test]
fn a_rating_is_one_json_line_saved_as_printed_and_compared_side_by_side() {
    let dir = tempfile::tempdir().unwrap();
    let (one, two) = (dir.path().join("one.json"), dir.path().join("two.json"));
    let line = rate("1", &one);
    assert_eq!(line.lines().count(), 1, "{line}");
    assert_eq!(std::fs::read_to_string(&one).unwrap(), line);
    let rating: Value = serde_json::from_str(&line).unwrap();
    assert_eq!(rating["rating_version"], 1);
    assert_eq!(rating["workload"]["window_s"], 0.02);
    let point = &rating["points"][0];
    assert_eq!(point["threads"], 1);
    assert!(point["passes"].as_u64().unwrap() >= 3, "{point}");
    for part in ["rating", "join", "backtracking"] {
        assert!(point[part].as_f64().unwrap() > 0.0, "{point}");
    }
    assert_eq!(rating["single"], point["rating"]);
    assert_eq!(rating["multi"], Value::Null);
    assert!(rating["machine"]["logical_cores"].as_u64().unwrap() >= 1);

    let line = rate("2", &two);
    let rating: Value = serde_json::from_str(&line).unwrap();
    assert_eq!(rating["multi_threads"], 2);
    assert_eq!(rating["single"], Value::Null);

    let output = nqueens()
        .args(["rate", "--compare"])
        .args([&one, &two, &one])
        .output()
        .unwrap();
    assert!(output.status.success());
    let table = String::from_utf8(output.stdout).unwrap();
    assert_eq!(table.lines().count(), 6, "{table}");
    assert!(table.starts_with("nqueens rating 1\n"), "{table}");
    // The first file against itself: ratios of 1.
    assert!(
        table.lines().nth(4).unwrap().ends_with("1.00        -"),
        "{table}"
    );
}

#[test]
fn ratings_of_different_versions_or_workloads_are_refused_naming_both() {
    let dir = tempfile::tempdir().unwrap();
    let one = dir.path().join("one.json");
    let line = rate("1", &one);
    let next = dir.path().join("next.json");
    std::fs::write(
        &next,
        line.replace("\"rating_version\":1", "\"rating_version\":2"),
    )
    .unwrap();
    let (one_s, next_s) = (one.to_str().unwrap(), next.to_str().unwrap());
    rejects(
        &["rate", "--compare", one_s, next_s],
        "--compare <FILE>...",
        &format!("holds rating version 2, {one_s} holds version 1"),
    );
    let other = dir.path().join("other.json");
    std::fs::write(
        &other,
        line.replace("\"window_s\":0.02", "\"window_s\":0.5"),
    )
    .unwrap();
    rejects(
        &["rate", "--compare", one_s, other.to_str().unwrap()],
        "--compare <FILE>...",
        "was rated on another workload",
    );
    let junk = dir.path().join("junk.json");
    std::fs::write(&junk, "{}").unwrap();
    rejects(
        &["rate", "--compare", junk.to_str().unwrap()],
        "--compare <FILE>...",
        "is not a saved rating",
    );
    rejects(
        &["rate", "--compare", "/no/such/rating.json"],
        "--compare <FILE>...",
        "cannot be read",
    );
}

#[test]
fn bad_flags_are_refused_with_the_allowed_values() {
    rejects(&["rate", "--threads", "0"], "--threads <T>", "1..=1024");
    rejects(
        &["rate", "--simd", "sse"],
        "--simd <PATH>",
        "auto, avx512, avx2, neon, none",
    );
    rejects(
        &["rate", "--compare", "a.json", "--save", "b.json"],
        "--compare <FILE>...",
        "cannot be used with",
    );
    let output = nqueens()
        .args(["rate", "--threads", "1"])
        .env(WINDOW_VAR, "0")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("1..=60000"), "{stderr}");
}

#[test]
fn an_interrupted_rating_saves_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("rating.json");
    let mut command = process();
    command
        .args(["rate", "--threads", "1", "--save"])
        .arg(&save)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null());
    // A test run in the background of a shell without job control (nohup,
    // cron, `sh -c '... &'`) inherits SIGINT ignored, and so would the
    // child: give it the default action, as a terminal's Ctrl-C meets it.
    use std::os::unix::process::CommandExt;
    // SAFETY: signal(2) is async-signal-safe, as pre_exec requires.
    unsafe {
        command.pre_exec(|| {
            libc::signal(libc::SIGINT, libc::SIG_DFL);
            Ok(())
        });
    }
    let mut child = command.spawn().unwrap();
    std::thread::sleep(Duration::from_millis(1500));
    // SAFETY: kill(2) on the child's pid, which has not been waited for.
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let status = child.wait().unwrap();
    // Killed by the signal while it rated, not ended by an error before.
    use std::os::unix::process::ExitStatusExt;
    assert_eq!(status.signal(), Some(libc::SIGINT), "{status:?}");
    let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert!(left.is_empty(), "{left:?}");
}
