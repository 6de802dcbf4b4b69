//! Long runs end to end: a count killed and resumed from its journal, torn
//! and corrupt journals, journals of another count, `status`, shards and
//! `merge`.

use std::path::Path;
use std::process::{Command as Process, Stdio};

use serde_json::Value;

mod common;

use common::{journal_line, json_of, nqueens, reseal, start_and_kill, wait_for_a_record};

/// Runs a command that must fail with `status`; returns its stderr.
fn fails(args: &[&str], status: i32) -> String {
    let output = nqueens().args(args).output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr).to_string();
    assert_eq!(output.status.code(), Some(status), "{args:?}: {stderr}");
    assert!(output.stdout.is_empty(), "{args:?} printed to stdout");
    assert!(!stderr.contains("panicked"), "{stderr}");
    stderr
}

/// The count's answer, whatever ran it.
fn answer(json: &Value) -> (Value, Value, Value) {
    (
        json["total"].clone(),
        json["unique"].clone(),
        json["classes"].clone(),
    )
}

#[test]
fn a_killed_count_resumes_from_its_journal_on_any_thread_count_with_the_same_answer() {
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("n17.journal");
    let path = journal.to_str().unwrap();
    start_and_kill(
        &["count", "17", "--algo", "parallel", "--threads", "1"],
        &journal,
    );
    let status = json_of(&["status", path, "--json"]);
    let done = status["done_items"].as_u64().unwrap();
    assert!(done > 0, "{status}");
    assert!(!status["complete"].as_bool().unwrap(), "{status}");

    // Resumed without --algo: the journal's engine counts on.
    let resumed = json_of(&[
        "count",
        "17",
        "--threads",
        "2",
        "--checkpoint",
        path,
        "--json",
    ]);
    assert_eq!(resumed["algorithm"], "parallel");
    // It says how much it found done: what the journal held.
    assert_eq!(resumed["resumed_items"], status["done_items"]);
    let plain = json_of(&["count", "17", "--json"]);
    assert_eq!(answer(&resumed), answer(&plain));
    assert_eq!(resumed["matches_oeis"], true);
    assert_eq!(resumed["depth"], status["fingerprint"]["depth"]);

    // A finished journal answers without counting an item again, and says
    // it is complete.
    let again = json_of(&["count", "17", "--checkpoint", path, "--json"]);
    assert_eq!(answer(&again), answer(&plain));
    assert_eq!(again["resumed_items"], again["items"]);
    assert_eq!(
        plain.get("resumed_items"),
        None,
        "no journal, no such field"
    );
    assert_eq!(json_of(&["status", path, "--json"])["complete"], true);
}

#[test]
fn a_torn_last_record_is_dropped_and_recounted() {
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("j");
    let path = journal.to_str().unwrap();
    let whole = json_of(&[
        "count",
        "13",
        "--depth",
        "5",
        "--checkpoint",
        path,
        "--json",
    ]);
    let text = std::fs::read(&journal).unwrap();
    // Cut the last record in half, as a kill mid-write would.
    let last = text[..text.len() - 1]
        .iter()
        .rposition(|&b| b == b'\n')
        .unwrap();
    std::fs::write(&journal, &text[..last + 1 + (text.len() - last) / 2]).unwrap();
    assert_eq!(
        json_of(&["status", path, "--json"])["torn_last_record"],
        true
    );
    let resumed = json_of(&[
        "count",
        "13",
        "--depth",
        "5",
        "--checkpoint",
        path,
        "--json",
    ]);
    assert_eq!(answer(&resumed), answer(&whole));
    assert_eq!(
        json_of(&["status", path, "--json"])["torn_last_record"],
        false
    );
}

#[test]
fn a_corrupt_journal_is_an_error_naming_the_file_and_offset() {
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("j");
    let path = journal.to_str().unwrap();
    // One record per item: a deep plan, and a journal written in pieces.
    json_of(&[
        "count",
        "12",
        "--depth",
        "4",
        "--checkpoint",
        path,
        "--json",
    ]);
    let mut text = std::fs::read_to_string(&journal).unwrap();
    let lines: Vec<String> = text.lines().map(str::to_string).collect();
    assert!(lines.len() >= 3, "{text}");
    // Spoil the first record, then append a good one after it, so that the
    // bad record is not the last (which would count as torn).
    let offset = lines[0].len() + 1 + lines[1].len() + 1;
    let at = offset + text[offset..].find("orbit8\":").unwrap() + 8;
    let digit = text.as_bytes()[at];
    let other = if digit == b'1' { "2" } else { "1" };
    text.replace_range(at..at + 1, other);
    text.push_str(&lines[2]);
    text.push('\n');
    std::fs::write(&journal, &text).unwrap();
    let stderr = fails(&["count", "12", "--checkpoint", path], 1);
    assert!(
        stderr.contains(path) && stderr.contains(&format!("corrupt at byte {offset}")),
        "{stderr}"
    );
}

#[test]
fn a_journal_of_another_count_is_refused_naming_what_differs() {
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("j");
    let path = journal.to_str().unwrap();
    json_of(&[
        "count",
        "10",
        "--depth",
        "3",
        "--checkpoint",
        path,
        "--json",
    ]);
    let stderr = fails(&["count", "11", "--checkpoint", path], 2);
    assert!(
        stderr.contains("--checkpoint") && stderr.contains("n 10 (asked 11)"),
        "{stderr}"
    );
    let stderr = fails(&["count", "10", "--depth", "4", "--checkpoint", path], 2);
    assert!(stderr.contains("depth 3 (asked 4)"), "{stderr}");
    let stderr = fails(
        &["count", "10", "--symmetry", "mirror", "--checkpoint", path],
        2,
    );
    assert!(stderr.contains("symmetry full (asked mirror)"), "{stderr}");
    let not_a_journal = dir.path().join("notes.txt");
    std::fs::write(&not_a_journal, "my notes\n").unwrap();
    let stderr = fails(
        &[
            "count",
            "10",
            "--checkpoint",
            not_a_journal.to_str().unwrap(),
        ],
        2,
    );
    assert!(stderr.contains("not an nqueens journal"), "{stderr}");
    assert_eq!(
        std::fs::read_to_string(&not_a_journal).unwrap(),
        "my notes\n"
    );
}

#[test]
fn status_describes_a_journal_and_a_shard_in_text() {
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("j");
    let path = journal.to_str().unwrap();
    json_of(&["count", "11", "--checkpoint", path, "--json"]);
    let output = nqueens().args(["status", path]).output().unwrap();
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(
        text.contains("items done") && text.contains("complete"),
        "{text}"
    );
    assert!(text.contains("solutions    2680 so far"), "{text}");
    let shard = dir.path().join("s.json");
    let shard = shard.to_str().unwrap();
    json_of(&["count", "11", "--shard", "1/2", "--out", shard, "--json"]);
    let output = nqueens().args(["status", shard]).output().unwrap();
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(text.starts_with("shard 1/2"), "{text}");
    let missing = dir.path().join("missing");
    let stderr = fails(&["status", missing.to_str().unwrap()], 2);
    assert!(stderr.contains("cannot be read"), "{stderr}");
}

#[test]
fn shards_merge_into_the_whole_count_whatever_threads_ran_them() {
    let dir = tempfile::tempdir().unwrap();
    let names: Vec<String> = (1..=3)
        .map(|i| dir.path().join(format!("s{i}.json")).display().to_string())
        .collect();
    for (i, name) in names.iter().enumerate() {
        let shard = format!("{}/3", i + 1);
        let threads = (i + 1).to_string();
        let file = json_of(&[
            "count",
            "13",
            "--algo",
            "parallel",
            "--shard",
            &shard,
            "--threads",
            &threads,
            "--out",
            name,
            "--json",
        ]);
        assert_eq!(file["kind"], "nqueens-shard");
    }
    let plain = json_of(&["count", "13", "--json"]);
    let mut args = vec!["merge", "--json", "--unique"];
    args.extend(names.iter().map(String::as_str));
    let merged = json_of(&args);
    assert_eq!(answer(&merged), answer(&plain));
    assert_eq!(merged["matches_oeis_unique"], true);
    assert_eq!(merged["shards"], 3);

    // A duplicate that agrees is counted once.
    args.push(&names[1]);
    assert_eq!(json_of(&args)["duplicates"], 1);

    // A missing shard is named.
    let stderr = fails(&["merge", &names[0], &names[2]], 1);
    assert!(stderr.contains("shards 2 of 3"), "{stderr}");

    // A duplicate that disagrees names both files.
    let forged = dir.path().join("forged.json").display().to_string();
    let mut file: Value =
        serde_json::from_str(&std::fs::read_to_string(&names[1]).unwrap()).unwrap();
    let orbit8 = file["tally"]["classes"]["orbit8"].as_u64().unwrap();
    file["tally"]["classes"]["orbit8"] = (orbit8 + 1).into();
    file["classes"]["orbit8"] = (orbit8 + 1).into();
    file["total"] = (8 * (orbit8 + 1)
        + 4 * file["tally"]["classes"]["orbit4"].as_u64().unwrap()
        + 2 * file["tally"]["classes"]["orbit2"].as_u64().unwrap())
    .to_string()
    .into();
    // Edited without its seal: refused for that alone, naming the file.
    std::fs::write(&forged, file.to_string()).unwrap();
    let stderr = fails(&["merge", &names[0], &names[1], &forged, &names[2]], 1);
    assert!(
        stderr.contains(&forged) && stderr.contains("seal"),
        "{stderr}"
    );
    // Sealed again, as someone who recomputes the checksum would: the
    // copy counted on another machine disagrees, and both are named.
    write_sealed(&forged, &mut file);
    let stderr = fails(&["merge", &names[0], &names[1], &forged, &names[2]], 1);
    assert!(
        stderr.contains(&names[1]) && stderr.contains(&forged) && stderr.contains("disagree"),
        "{stderr}"
    );

    // Files that are not shards are usage errors naming the file.
    let junk = dir.path().join("junk.json").display().to_string();
    std::fs::write(&junk, "{\"kind\": 3}").unwrap();
    let stderr = fails(&["merge", &names[0], &junk], 2);
    assert!(stderr.contains(&junk), "{stderr}");
}

#[test]
fn shard_flags_are_checked_before_anything_runs() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("s.json");
    let out = out.to_str().unwrap();
    fails(&["count", "10", "--shard", "4/3", "--out", out], 2);
    fails(&["count", "10", "--shard", "0/3", "--out", out], 2);
    fails(&["count", "10", "--shard", "1/3"], 2);
    fails(&["count", "10", "--out", out], 2);
    let stderr = fails(
        &["count", "10", "--shard", "1/2", "--out", out, "--unique"],
        2,
    );
    assert!(stderr.contains("merge --unique"), "{stderr}");
    let stderr = fails(&["count", "10", "--algo", "set", "--checkpoint", out], 2);
    assert!(stderr.contains("--checkpoint"), "{stderr}");
    assert!(!Path::new(out).exists());
}

#[cfg(not(feature = "mpi"))]
#[test]
fn mpi_without_the_feature_says_how_to_build_it() {
    let stderr = fails(&["count", "10", "--mpi"], 2);
    assert!(stderr.contains("--features mpi"), "{stderr}");
}

/// Writes a shard file's fields with their seal recomputed: an edit the
/// seal cannot catch (someone who recomputes it).
fn write_sealed(path: &str, file: &mut Value) {
    reseal(file);
    std::fs::write(path, serde_json::to_string_pretty(file).unwrap()).unwrap();
}

/// Counts the n×n board (backtracking) as `shards` shard files in `dir`;
/// returns their paths, shard 1 first.
fn shard_files(dir: &Path, n: usize, shards: usize) -> Vec<String> {
    (1..=shards)
        .map(|i| {
            let name = dir.join(format!("s{i}.json")).display().to_string();
            let (n, shard) = (n.to_string(), format!("{i}/{shards}"));
            let args = ["count", &n, "--algo", "parallel", "--shard", &shard];
            json_of(&[&args[..], &["--out", &name, "--json"]].concat());
            name
        })
        .collect()
}

#[test]
fn forged_shard_files_are_refused_naming_the_field_not_merged() {
    let dir = tempfile::tempdir().unwrap();
    let names = shard_files(dir.path(), 13, 3);
    let original: Value =
        serde_json::from_str(&std::fs::read_to_string(&names[0]).unwrap()).unwrap();
    let last_item = original["items"][1].clone();
    let forgeries: [(&str, Value, &str); 5] = [
        ("total_items", last_item, "total_items"),
        ("shard", serde_json::json!([1, u64::MAX]), "shard 1 of"),
        ("elapsed_s", serde_json::json!(-1.0), "elapsed_s"),
        ("fingerprint", serde_json::json!({"n": 33}), "fingerprint"),
        ("fingerprint", serde_json::json!({"n": 0}), "fingerprint"),
    ];
    for (field, value, named) in forgeries {
        let mut forged = original.clone();
        match (field, &value) {
            ("fingerprint", Value::Object(edit)) => {
                for (key, v) in edit {
                    forged["fingerprint"][key] = v.clone();
                }
            }
            _ => forged[field] = value.clone(),
        }
        write_sealed(&names[0], &mut forged);
        let stderr = fails(&["merge", &names[0], &names[1], &names[2]], 2);
        assert!(stderr.contains(named), "{field}: {stderr}");
        let stderr = fails(&["status", &names[0]], 2);
        assert!(stderr.contains(named), "{field}: {stderr}");
    }
}

#[test]
fn a_shard_edited_and_re_totalled_is_refused_by_its_seal() {
    // n = 10: lower `total` and `tally` by 8 together; merge summed it.
    let dir = tempfile::tempdir().unwrap();
    let names = shard_files(dir.path(), 10, 2);
    let whole = std::fs::read_to_string(&names[0]).unwrap();
    let mut file: Value = serde_json::from_str(&whole).unwrap();
    let orbit8 = file["tally"]["classes"]["orbit8"].as_u64().unwrap();
    let total: u64 = file["total"].as_str().unwrap().parse().unwrap();
    file["tally"]["classes"]["orbit8"] = (orbit8 - 1).into();
    file["classes"]["orbit8"] = (orbit8 - 1).into();
    file["total"] = (total - 8).to_string().into();
    std::fs::write(&names[0], serde_json::to_string_pretty(&file).unwrap()).unwrap();
    for args in [
        vec!["merge", &names[0], &names[1]],
        vec!["status", &names[0]],
    ] {
        let stderr = fails(&args, 1);
        assert!(
            stderr.contains(&names[0]) && stderr.contains("seal"),
            "{stderr}"
        );
    }
    // Re-indented, keys reordered: the seal still fits.
    let original: Value = serde_json::from_str(&whole).unwrap();
    let mut keys: Vec<(&String, &Value)> = original.as_object().unwrap().iter().collect();
    keys.reverse();
    let reordered: String = format!(
        "{{\n{}\n}}",
        keys.iter()
            .map(|(k, v)| format!("    {}: {}", Value::from(k.as_str()), v))
            .collect::<Vec<_>>()
            .join(",\n")
    );
    std::fs::write(&names[0], reordered).unwrap();
    assert_eq!(
        json_of(&["merge", &names[0], &names[1], "--json"])["total"],
        724
    );
    // A file of nqueens 0.2 (format 1, unsealed) is refused, not trusted.
    let mut old = original.clone();
    old["format"] = 1.into();
    old.as_object_mut().unwrap().remove("seal");
    std::fs::write(&names[0], old.to_string()).unwrap();
    let stderr = fails(&["merge", &names[0], &names[1]], 2);
    assert!(
        stderr.contains("nqueens 0.2") && stderr.contains("count the shard again"),
        "{stderr}"
    );
}

#[test]
fn forged_journal_headers_are_refused_before_they_size_anything() {
    // `status` on a header claiming 2^40 items aborted allocating 8 TiB.
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("n12.journal");
    let path = journal.to_str().unwrap();
    json_of(&[
        "count",
        "12",
        "--algo",
        "parallel",
        "--checkpoint",
        path,
        "--json",
    ]);
    let text = std::fs::read_to_string(&journal).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let header_json = lines[1].rsplit_once(' ').unwrap().0;
    let header: Value = serde_json::from_str(header_json).unwrap();
    let edits: [(&str, Value, &str); 4] = [
        ("total_items", serde_json::json!(1u64 << 40), "total_items"),
        ("items", serde_json::json!([0, 1u64 << 40]), "items"),
        ("n", serde_json::json!(33), "n 33"),
        ("n", serde_json::json!(0), "n 0"),
    ];
    for (field, value, named) in edits {
        let mut forged = header.clone();
        if field == "n" {
            forged["fingerprint"]["n"] = value;
        } else {
            forged[field] = value;
        }
        let mut out = format!("{}\n{}", lines[0], journal_line(&forged));
        for record in &lines[2..] {
            out.push_str(record);
            out.push('\n');
        }
        std::fs::write(&journal, out).unwrap();
        let stderr = fails(&["status", path], 2);
        assert!(stderr.contains(named), "{field}: {stderr}");
        let stderr = fails(&["count", "12", "--checkpoint", path], 2);
        assert!(stderr.contains(named), "{field}: {stderr}");
    }
    // Windows line ends are named as such.
    std::fs::write(&journal, text.replace('\n', "\r\n")).unwrap();
    let stderr = fails(&["status", path], 2);
    assert!(stderr.contains("CR LF"), "{stderr}");
    assert!(!stderr.contains("another format"), "{stderr}");
}

#[test]
fn two_processes_never_count_into_one_journal_and_a_killed_one_lets_go() {
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("n17.journal");
    let path = journal.to_str().unwrap();
    let mut first = Process::new(env!("CARGO_BIN_EXE_nqueens"))
        .args(["count", "17", "--algo", "parallel", "--threads", "1"])
        .args(["--checkpoint", path])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    wait_for_a_record(&journal);
    // The second is refused while the first counts, and writes nothing.
    let before = std::fs::read(&journal).unwrap().len();
    let stderr = fails(&["count", "17", "--threads", "1", "--checkpoint", path], 2);
    assert!(
        stderr.contains(path) && stderr.contains("another nqueens process"),
        "{stderr}"
    );
    assert!(std::fs::read(&journal).unwrap().len() >= before);
    // kill -9 leaves no lock behind: the journal resumes to the answer.
    first.kill().unwrap();
    first.wait().unwrap();
    let resumed = json_of(&[
        "count",
        "17",
        "--threads",
        "2",
        "--checkpoint",
        path,
        "--json",
    ]);
    assert_eq!(resumed["total"], 95815104);
}

#[test]
fn a_merged_total_that_differs_from_oeis_is_exit_one_after_the_report() {
    // A shard whose tally was changed consistently (total, classes) and
    // sealed again passes every check of the file; only OEIS can tell:
    // exit 1, as verify does.
    let dir = tempfile::tempdir().unwrap();
    let names = shard_files(dir.path(), 12, 2);
    let mut forged: Value =
        serde_json::from_str(&std::fs::read_to_string(&names[0]).unwrap()).unwrap();
    let orbit8 = forged["tally"]["classes"]["orbit8"].as_u64().unwrap() + 1;
    let total: u64 = forged["total"].as_str().unwrap().parse::<u64>().unwrap() + 8;
    forged["tally"]["classes"]["orbit8"] = orbit8.into();
    forged["classes"]["orbit8"] = orbit8.into();
    forged["total"] = total.to_string().into();
    write_sealed(&names[0], &mut forged);
    let output = nqueens()
        .args(["merge", &names[0], &names[1]])
        .output()
        .unwrap();
    let (stdout, stderr) = (
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr),
    );
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(
        stdout.contains("14208 solutions") && stdout.contains("MISMATCH"),
        "{stdout}"
    );
    assert!(stderr.contains("differs from OEIS"), "{stderr}");
}

#[test]
fn journals_and_shards_of_one_layout_refuse_the_other() {
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("j");
    let path = journal.to_str().unwrap();
    let searched = json_of(&[
        "count",
        "12",
        "--layout",
        "searched",
        "--checkpoint",
        path,
        "--json",
    ]);
    assert_eq!(searched["layout"], "searched");
    assert_eq!(searched["total"], 14200);
    let stderr = fails(
        &["count", "12", "--layout", "table", "--checkpoint", path],
        2,
    );
    assert!(
        stderr.contains("--checkpoint") && stderr.contains("layout searched (asked table)"),
        "{stderr}"
    );
    // Without --layout, the journal's own is resumed (and it is complete).
    let resumed = json_of(&["count", "12", "--checkpoint", path, "--json"]);
    assert_eq!(resumed["layout"], "searched");
    assert_eq!(resumed["total"], 14200);

    // Shards cut from one layout's items do not merge with the other's.
    let names: Vec<String> = (1..=2)
        .map(|i| dir.path().join(format!("s{i}.json")).display().to_string())
        .collect();
    for (i, layout) in ["searched", "table"].into_iter().enumerate() {
        let shard = format!("{}/2", i + 1);
        let file = json_of(&[
            "count", "12", "--layout", layout, "--shard", &shard, "--out", &names[i], "--json",
        ]);
        assert_eq!(file["fingerprint"]["layout"], layout);
    }
    let output = nqueens()
        .args(["merge", &names[0], &names[1]])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_ne!(output.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains("layout searched") && stderr.contains("layout table"),
        "{stderr}"
    );
}
