//! What a long run really meets, tried as a hostile user would: shard
//! files of different cuts in one folder, results edited by hand, mistyped
//! paths, special files where a file is expected, forged headers. Every
//! refusal must come before the work, which the tests tell by what it
//! leaves (no journal created, nothing on stdout), not by timing.

mod common;

use std::path::Path;
use std::time::Duration;

use common::{journal_line, json_of, nqueens, rejects, reseal};
use serde_json::Value;

/// Runs a command that must fail with `status` within a minute (a read
/// that blocks or never ends fails the test instead of hanging it), with
/// nothing on stdout and no panic; returns its stderr.
fn fails(args: &[&str], status: i32) -> String {
    let output = nqueens()
        .args(args)
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr).to_string();
    assert_eq!(output.status.code(), Some(status), "{args:?}: {stderr}");
    assert!(output.stdout.is_empty(), "{args:?} printed to stdout");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(stderr.matches("error:").count(), 1, "{args:?}: {stderr}");
    stderr
}

fn text(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// A journal's lines, each record's JSON edited by `edit`, checksums
/// recomputed (a forgery, not corruption).
fn forge_records(journal: &Path, edit: impl Fn(&mut Value)) {
    let original = std::fs::read_to_string(journal).unwrap();
    let mut lines = original.lines();
    let mut out = format!("{}\n{}\n", lines.next().unwrap(), lines.next().unwrap());
    for line in lines {
        let mut record: Value = serde_json::from_str(line.rsplit_once(' ').unwrap().0).unwrap();
        edit(&mut record);
        out.push_str(&journal_line(&record));
    }
    std::fs::write(journal, out).unwrap();
}

/// A finished count's journal (`count ARGS --checkpoint j`), in a folder
/// of its own that lives as long as the first value.
fn journal_of(args: &[&str]) -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("j");
    let mut args = args.to_vec();
    args.extend(["--checkpoint", text(&journal), "--json"]);
    json_of(&args);
    (dir, journal)
}

#[cfg(unix)]
fn mkfifo(path: &Path) {
    let name = std::ffi::CString::new(text(path)).unwrap();
    // SAFETY: a valid, NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o600) }, 0);
}

#[test]
fn an_overlap_hidden_behind_an_empty_shard_is_refused_naming_both_files() {
    // n = 8 has 16 items: 2/32 is empty and sorts between 1/8 and 3/32,
    // which overlap. The ten files summed to 100 solutions.
    let dir = tempfile::tempdir().unwrap();
    let cuts = [
        "1/8", "2/32", "3/32", "2/8", "3/8", "4/8", "5/8", "6/8", "7/8", "8/8",
    ];
    let mut names = Vec::new();
    for cut in cuts {
        let name = dir
            .path()
            .join(format!("{}.json", cut.replace('/', "-of-")));
        json_of(&["count", "8", "--shard", cut, "--out", text(&name), "--json"]);
        names.push(name.display().to_string());
    }
    let mut args = vec!["merge"];
    args.extend(names.iter().map(String::as_str));
    let stderr = fails(&args, 1);
    assert!(
        stderr.contains("1-of-8.json") && stderr.contains("3-of-32.json"),
        "{stderr}"
    );
    assert!(stderr.contains("overlap"), "{stderr}");
}

#[test]
fn a_status_of_records_summing_past_u128_is_an_overflow_not_a_total() {
    let (_dir, journal) = journal_of(&["count", "12", "--depth", "4"]);
    // Every record claims 2^127 orbits of 8: together past u128.
    let original = std::fs::read_to_string(&journal).unwrap();
    let mut lines = original.lines();
    let mut out = format!("{}\n{}\n", lines.next().unwrap(), lines.next().unwrap());
    for line in lines {
        let body = line.rsplit_once(' ').unwrap().0;
        let at = body.find("\"orbit8\":").unwrap() + "\"orbit8\":".len();
        let end = at + body[at..].find(',').unwrap();
        let body = format!("{}{}{}", &body[..at], 1u128 << 127, &body[end..]);
        out.push_str(&format!(
            "{body} {:08x}\n",
            crc32fast::hash(body.as_bytes())
        ));
    }
    std::fs::write(&journal, out).unwrap();
    let stderr = fails(&["status", text(&journal)], 1);
    assert!(stderr.contains("overflowed"), "{stderr}");
    let stderr = fails(
        &[
            "count",
            "12",
            "--depth",
            "4",
            "--checkpoint",
            text(&journal),
        ],
        1,
    );
    assert!(stderr.contains("overflowed"), "{stderr}");
}

#[test]
fn a_join_journal_whose_fixed_point_counts_were_removed_is_refused() {
    // Records edited by hand (checksums recomputed) lose the counts of
    // the rotations' fixed points: the count said "no unique count", exit 0.
    let (_dir, journal) = journal_of(&["count", "12", "--algo", "join"]);
    forge_records(&journal, |record| {
        record["tally"].as_object_mut().unwrap().remove("fixed");
    });
    for args in [
        vec!["count", "12", "--checkpoint", text(&journal)],
        vec!["count", "12", "--unique", "--checkpoint", text(&journal)],
    ] {
        let stderr = fails(&args, 1);
        assert!(
            stderr.contains("fixed points") && stderr.contains("corrupt"),
            "{stderr}"
        );
    }
}

#[test]
fn join_shards_without_their_fixed_point_counts_do_not_merge() {
    // Shards sealed again after the edit: the seal cannot tell, the
    // merged tally can.
    let dir = tempfile::tempdir().unwrap();
    let mut names = Vec::new();
    for i in 1..=2 {
        let name = dir.path().join(format!("s{i}.json")).display().to_string();
        let shard = format!("{i}/2");
        json_of(&[
            "count", "12", "--algo", "join", "--shard", &shard, "--out", &name, "--json",
        ]);
        let mut file: Value =
            serde_json::from_str(&std::fs::read_to_string(&name).unwrap()).unwrap();
        file["tally"].as_object_mut().unwrap().remove("fixed");
        reseal(&mut file);
        std::fs::write(&name, file.to_string()).unwrap();
        names.push(name);
    }
    let stderr = fails(&["merge", &names[0], &names[1], "--unique"], 1);
    assert!(stderr.contains("fixed points"), "{stderr}");
}

#[test]
fn destinations_are_checked_before_anything_is_counted() {
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("n19.journal");
    // A missing folder for --out: refused at once, no journal begun.
    let missing = dir.path().join("no-such-folder").join("x.json");
    let stderr = fails(
        &[
            "count",
            "19",
            "--shard",
            "1/2",
            "--out",
            text(&missing),
            "--checkpoint",
            text(&journal),
        ],
        2,
    );
    assert!(
        stderr.contains("--out <FILE>") && stderr.contains("does not exist"),
        "{stderr}"
    );
    assert!(!journal.exists(), "a journal was begun before the refusal");
    // The same for --checkpoint, and for rate --save (a minute of rating
    // otherwise).
    let stderr = fails(&["count", "19", "--checkpoint", text(&missing)], 2);
    assert!(stderr.contains("--checkpoint <FILE>"), "{stderr}");
    let stderr = fails(&["rate", "--save", text(&missing)], 2);
    assert!(stderr.contains("--save <FILE>"), "{stderr}");
    // A folder that refuses new files (unless we are root, whom it lets).
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let locked = dir.path().join("locked");
        std::fs::create_dir(&locked).unwrap();
        std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o500)).unwrap();
        let probe = locked.join("probe");
        if std::fs::write(&probe, "").is_err() {
            let out = locked.join("x.json");
            let stderr = fails(&["count", "19", "--shard", "1/2", "--out", text(&out)], 2);
            assert!(stderr.contains("refuses a new file"), "{stderr}");
        }
        std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o700)).unwrap();
    }
}

#[test]
fn a_result_that_would_overwrite_its_own_journal_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("j");
    let same = |out: &Path| {
        let stderr = fails(
            &[
                "count",
                "10",
                "--shard",
                "1/1",
                "--checkpoint",
                text(&journal),
                "--out",
                text(out),
            ],
            2,
        );
        assert!(
            stderr.contains("--out <FILE>") && stderr.contains("journal"),
            "{stderr}"
        );
    };
    same(&journal);
    same(&dir.path().join(".").join("j"));
    #[cfg(unix)]
    {
        // Through a symbolic link to a journal not made yet, then to one
        // that exists, and a hard link.
        let link = dir.path().join("link");
        std::os::unix::fs::symlink(&journal, &link).unwrap();
        same(&link);
        std::fs::write(&journal, "").unwrap();
        same(&link);
        let hard = dir.path().join("hard");
        std::fs::hard_link(&journal, &hard).unwrap();
        same(&hard);
        assert_eq!(
            std::fs::read(&journal).unwrap(),
            b"",
            "the journal was touched"
        );
    }
}

#[cfg(unix)]
#[test]
fn special_files_are_refused_without_blocking_or_reading_for_ever() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("fifo");
    mkfifo(&fifo);
    for special in ["/dev/zero", text(&fifo)] {
        for args in [
            vec!["status", special],
            vec!["merge", special],
            vec!["rate", "--compare", special],
            vec!["count", "10", "--checkpoint", special],
            vec!["count", "10", "--shard", "1/2", "--out", special],
        ] {
            let stderr = fails(&args, 2);
            assert!(stderr.contains("not a regular file"), "{args:?}: {stderr}");
        }
    }
    // The FIFO is still a FIFO: nothing was renamed over it.
    use std::os::unix::fs::FileTypeExt;
    assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo());
}

#[test]
fn a_file_longer_than_its_format_allows_is_refused_unread() {
    let dir = tempfile::tempdir().unwrap();
    // A shard file: a few hundred bytes; this one claims 1 MiB of spaces.
    let shard = dir.path().join("s.json");
    json_of(&[
        "count",
        "10",
        "--shard",
        "1/2",
        "--out",
        text(&shard),
        "--json",
    ]);
    let mut padded = std::fs::read_to_string(&shard).unwrap();
    padded.push_str(&" ".repeat(1 << 20));
    std::fs::write(&shard, padded).unwrap();
    let stderr = fails(&["merge", text(&shard)], 2);
    assert!(stderr.contains("more than a shard file can be"), "{stderr}");
    // A journal: its records, at most one per item, and one torn.
    let journal = dir.path().join("j");
    json_of(&[
        "count",
        "10",
        "--depth",
        "3",
        "--checkpoint",
        text(&journal),
        "--json",
    ]);
    let mut text_of = std::fs::read_to_string(&journal).unwrap();
    text_of.push_str(&"x".repeat(4 << 20));
    std::fs::write(&journal, text_of).unwrap();
    let stderr = fails(&["status", text(&journal)], 2);
    assert!(
        stderr.contains("more than a journal of its plan can be"),
        "{stderr}"
    );
}

#[test]
fn a_forged_header_is_refused_before_the_plan_it_names_is_built() {
    // n = 16's header forged to n = 25 (checksum recomputed): status laid
    // n = 25's join out (40 s, 400 MB) before it refused.
    let (_dir, journal) = journal_of(&["count", "16", "--algo", "join"]);
    let original = std::fs::read_to_string(&journal).unwrap();
    let mut lines = original.lines();
    let magic = lines.next().unwrap();
    let mut header: Value =
        serde_json::from_str(lines.next().unwrap().rsplit_once(' ').unwrap().0).unwrap();
    header["fingerprint"]["n"] = 25.into();
    header["fingerprint"]["depth"] = 12.into();
    std::fs::write(&journal, format!("{magic}\n{}", journal_line(&header))).unwrap();
    let stderr = fails(&["status", text(&journal)], 2);
    assert!(stderr.contains("total_items"), "{stderr}");
    let stderr = fails(&["count", "25", "--checkpoint", text(&journal)], 2);
    assert!(stderr.contains("total_items"), "{stderr}");
}

#[test]
fn a_journal_a_crash_left_without_its_header_is_a_new_one() {
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("j");
    let whole = json_of(&["count", "10", "--json"]);
    for start in [
        "",
        "nqueens-jour",
        "nqueens-journal 1\n{\"fingerprint\":{\"eng",
    ] {
        std::fs::write(&journal, start).unwrap();
        let resumed = json_of(&["count", "10", "--checkpoint", text(&journal), "--json"]);
        assert_eq!(resumed["total"], whole["total"], "{start:?}");
        assert_eq!(resumed["resumed_items"], 0, "{start:?}");
    }
    // status says what it is, and anything else that is no journal is
    // refused as before, untouched.
    std::fs::write(&journal, "").unwrap();
    let stderr = fails(&["status", text(&journal)], 2);
    assert!(stderr.contains("no whole header"), "{stderr}");
    std::fs::write(&journal, "my notes\n").unwrap();
    let stderr = fails(&["count", "10", "--checkpoint", text(&journal)], 2);
    assert!(stderr.contains("not an nqueens journal"), "{stderr}");
    assert_eq!(std::fs::read_to_string(&journal).unwrap(), "my notes\n");
}

#[test]
fn a_deep_plan_is_refused_at_once_naming_the_depths_that_fit() {
    // The sizing walk took more than 30 s before it refused.
    rejects(
        &["count", "20", "--depth", "20", "--threads", "1"],
        "--depth <K>",
        "depths 1..=6 fit",
    );
    // --max-memory raises and lowers the limit of the backtracker's plan.
    rejects(
        &["count", "20", "--depth", "6", "--max-memory", "64M"],
        "--depth <K>",
        "depths 1..=5 fit",
    );
}

#[test]
fn auto_takes_what_the_default_takes() {
    let default = json_of(&["count", "12", "--depth", "3", "--json"]);
    let auto = json_of(&["count", "12", "--algo", "auto", "--depth", "3", "--json"]);
    assert_eq!(auto["algorithm"], "parallel");
    assert_eq!(auto["depth"], 3);
    assert_eq!(auto["total"], default["total"]);
    let auto = json_of(&[
        "count",
        "12",
        "--algo",
        "auto",
        "--symmetry",
        "mirror",
        "--json",
    ]);
    assert_eq!(auto["algorithm"], "parallel");
}

#[test]
fn ratings_must_be_positive_and_their_strings_reach_the_terminal_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let saved = dir.path().join("one.json");
    common::succeeds(
        nqueens()
            .args(["rate", "--json", "--threads", "1", "--save", text(&saved)])
            .env("NQUEENS_RATE_WINDOW_MS", "20"),
    );
    let rating: Value = serde_json::from_str(&std::fs::read_to_string(&saved).unwrap()).unwrap();
    let forged = dir.path().join("forged.json");
    for (field, value) in [("rating", -5.0), ("rating", 0.0), ("join", -1.0)] {
        let mut edited = rating.clone();
        edited["points"][0][field] = value.into();
        std::fs::write(&forged, edited.to_string()).unwrap();
        let stderr = fails(&["rate", "--compare", text(&saved), text(&forged)], 2);
        assert!(
            stderr.contains("no positive number"),
            "{field} {value}: {stderr}"
        );
    }
    let mut edited = rating.clone();
    edited["single"] = (-2.0).into();
    std::fs::write(&forged, edited.to_string()).unwrap();
    fails(&["rate", "--compare", text(&saved), text(&forged)], 2);
    // A CPU name with an ANSI escape and a newline in it.
    let mut edited = rating.clone();
    edited["machine"]["cpu_model"] = "Evil\u{1b}[31mCPU\nforged line".into();
    std::fs::write(&forged, edited.to_string()).unwrap();
    let output =
        common::succeeds(nqueens().args(["rate", "--compare", text(&saved), text(&forged)]));
    let table = String::from_utf8(output.stdout).unwrap();
    assert!(!table.contains('\u{1b}'), "{table}");
    assert!(table.contains("Evil\\u{1b}[31mCPU\\u{a}forged"), "{table}");
    assert!(!table.contains("\nforged line"), "{table}");
}

#[test]
fn strings_of_a_shard_file_reach_the_terminal_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let shard = dir.path().join("s.json");
    json_of(&[
        "count",
        "10",
        "--shard",
        "1/2",
        "--out",
        text(&shard),
        "--json",
    ]);
    let mut file: Value = serde_json::from_str(&std::fs::read_to_string(&shard).unwrap()).unwrap();
    file["host"] = "box\u{1b}]0;owned\u{7}".into();
    reseal(&mut file);
    std::fs::write(&shard, file.to_string()).unwrap();
    let output = common::succeeds(nqueens().args(["status", text(&shard)]));
    let status = String::from_utf8(output.stdout).unwrap();
    assert!(
        !status.contains('\u{1b}') && !status.contains('\u{7}'),
        "{status}"
    );
    assert!(status.contains("box\\u{1b}]0;owned\\u{7}"), "{status}");
    // An error quoting a file's first line escapes it too.
    let journal = dir.path().join("j");
    std::fs::write(&journal, "nqueens-journal 9\u{1b}[2J\n").unwrap();
    let stderr = fails(&["status", text(&journal)], 2);
    assert!(!stderr.contains('\u{1b}'), "{stderr}");
}

#[test]
fn merge_counts_the_subproblems_count_counts() {
    let dir = tempfile::tempdir().unwrap();
    for algo in ["join", "parallel"] {
        let whole = json_of(&["count", "14", "--algo", algo, "--json"]);
        assert!(whole["subproblems"].as_u64().unwrap() > 0);
        let mut names = Vec::new();
        for i in 1..=3 {
            let name = dir
                .path()
                .join(format!("{algo}{i}.json"))
                .display()
                .to_string();
            let shard = format!("{i}/3");
            json_of(&[
                "count", "14", "--algo", algo, "--shard", &shard, "--out", &name, "--json",
            ]);
            names.push(name);
        }
        let mut args = vec!["merge", "--json"];
        args.extend(names.iter().map(String::as_str));
        let merged = json_of(&args);
        // The backtracker's shards plan for 16 threads each: the count of
        // that plan.
        let depth = merged["depth"].to_string();
        let whole = match algo {
            "join" => whole,
            _ => json_of(&["count", "14", "--algo", algo, "--depth", &depth, "--json"]),
        };
        assert_eq!(merged["subproblems"], whole["subproblems"], "{algo}");
        assert_eq!(merged["items"], whole["items"], "{algo}");
        assert_eq!(merged["total"], whole["total"], "{algo}");
    }
}

#[test]
fn bench_names_a_refused_list_as_it_was_given() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("sweep");
    let stderr = fails(
        &[
            "bench",
            "--n",
            "8",
            "--algo",
            "set",
            "--threads",
            "1,2",
            "--out",
            text(&out),
        ],
        2,
    );
    assert!(stderr.contains("invalid value '1,2'"), "{stderr}");
    assert!(!stderr.contains('['), "{stderr}");
}
