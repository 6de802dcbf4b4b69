//! What the command-line tests share: the binary, a successful command's
//! JSON, the shape every refused command line must have, and whether a
//! GPU counts here (`--features gpu`).
#![allow(dead_code)] // each test file uses a part

use std::path::Path;
use std::process::{Command as Process, Stdio};
use std::time::{Duration, Instant};

use assert_cmd::Command;
use serde_json::Value;

/// The `nqueens` binary this test run built, as an assert_cmd command.
pub fn nqueens() -> Command {
    Command::from_std(process())
}

/// The `nqueens` binary this test run built, as a plain process: run
/// through `NQUEENS_TEST_RUNNER` when it is set (e.g. `qemu-aarch64 -L
/// /usr/aarch64-linux-gnu` for a cross-built binary, as `.ci/run` does).
pub fn process() -> Process {
    let binary = env!("CARGO_BIN_EXE_nqueens");
    let runner = std::env::var("NQUEENS_TEST_RUNNER").unwrap_or_default();
    let mut words = runner.split_whitespace();
    match words.next() {
        Some(program) => {
            let mut command = Process::new(program);
            command.args(words).arg(binary);
            command
        }
        None => Process::new(binary),
    }
}

/// Runs a command that must succeed (its stderr shown if not): its output.
pub fn succeeds(command: &mut Command) -> std::process::Output {
    let output = command.output().unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

/// Runs a command that must succeed and print one JSON value.
pub fn json_of(args: &[&str]) -> Value {
    let output = nqueens().args(args).output().unwrap();
    assert!(
        output.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).unwrap()
}

/// Runs a bad command line and checks it fails with status 2, prints nothing
/// on stdout, and says one thing on stderr: which flag, and what it accepts.
pub fn rejects(args: &[&str], flag: &str, rule: &str) {
    let output = nqueens().args(args).output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
    assert!(output.stdout.is_empty(), "{args:?} printed to stdout");
    assert!(stderr.starts_with("error: "), "{args:?}: {stderr}");
    assert_eq!(stderr.matches("error:").count(), 1, "{args:?}: {stderr}");
    assert!(
        stderr.contains(flag),
        "{args:?} should name {flag}: {stderr}"
    );
    assert!(
        stderr.contains(rule),
        "{args:?} should say {rule}: {stderr}"
    );
    assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
}

/// Waits, a minute at most, until `journal` holds a record (more than its
/// two header lines).
pub fn wait_for_a_record(journal: &Path) {
    let deadline = Instant::now() + Duration::from_secs(60);
    while Instant::now() < deadline {
        let lines = std::fs::read_to_string(journal).map_or(0, |t| t.lines().count());
        if lines > 2 {
            return;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    panic!("no record in {} after 60 s", journal.display());
}

/// Starts `nqueens ARGS --checkpoint JOURNAL` and kills it (SIGKILL) once
/// the journal holds a record: the crash every resume test starts from.
pub fn start_and_kill(args: &[&str], journal: &Path) {
    let mut child = process()
        .args(args)
        .arg("--checkpoint")
        .arg(journal)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    wait_for_a_record(journal);
    child.kill().unwrap();
    child.wait().unwrap();
}

/// A line of a journal: its JSON and the CRC-32 of it, as the journal
/// writes them (a record or header forged with its checksum recomputed).
pub fn journal_line(value: &Value) -> String {
    let body = value.to_string();
    format!("{body} {:08x}\n", crc32fast::hash(body.as_bytes()))
}

/// A shard file's fields with their seal recomputed, as someone who edits
/// a file and recomputes its checksum would.
pub fn reseal(file: &mut Value) {
    file["seal"] = "".into();
    file["seal"] = nqueens::exec::shard::seal::of(&file.to_string())
        .unwrap()
        .into();
}

/// Whether a GPU counts here (a skip is said); sets NQUEENS_GPU_ALL=1 for
/// the commands the test starts (every test here wants it: no race), and
/// a private XDG_RUNTIME_DIR where there is none: Mesa's drivers print an
/// error line at every start without one, which the refusals' single line
/// would not survive.
pub fn gpu_here(test: &str) -> bool {
    std::env::set_var("NQUEENS_GPU_ALL", "1");
    if std::env::var_os("XDG_RUNTIME_DIR").is_none() {
        use std::os::unix::fs::DirBuilderExt;
        let dir = std::env::temp_dir().join(format!("nqueens-gpu-xdg-{}", std::process::id()));
        let _ = std::fs::DirBuilder::new().mode(0o700).create(&dir);
        std::env::set_var("XDG_RUNTIME_DIR", &dir);
    }
    let output = nqueens().args(["count", "8", "--gpu"]).output().unwrap();
    if output.status.success() {
        return true;
    }
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("no GPU adapter"), "{stderr}");
    let required = std::env::var_os("NQUEENS_REQUIRE_GPU").is_some_and(|v| v == "1");
    assert!(!required, "NQUEENS_REQUIRE_GPU=1 and no GPU: {stderr}");
    eprintln!("skipped {test}: no GPU adapter here");
    false
}

/// The pairs the GPU compared, as the JSON report says.
pub fn gpu_pairs(json: &Value) -> u64 {
    json["gpu"]["pairs"]
        .as_u64()
        .unwrap_or_else(|| panic!("{json}"))
}
