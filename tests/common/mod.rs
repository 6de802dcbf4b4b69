//! What the command-line tests share: the binary, a successful command's
//! JSON, and the shape every refused command line must have.
#![allow(dead_code)] // each test file uses a part

use assert_cmd::Command;
use serde_json::Value;

/// The `nqueens` binary this test run built.
pub fn nqueens() -> Command {
    Command::cargo_bin("nqueens").unwrap()
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
