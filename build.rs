//! Records the git revision and the rustc version in the binary, so that every
//! benchmark result can say what measured it.
//!
//! The script re-runs whenever what builds the binary changes (the sources,
//! the manifest, the lock file, this script) or the commit does, so the
//! revision a binary reports is always the one it was built from, with
//! `-dirty` when those inputs differ from it. Changes under `results/` or to
//! the docs alone are not dirt.

use std::path::{Path, PathBuf};
use std::process::Command;

/// What the binary is built from (the codegen flags in .cargo/ included).
const INPUTS: [&str; 6] = [
    "src",
    "benches",
    "build.rs",
    "Cargo.toml",
    "Cargo.lock",
    ".cargo",
];

fn git(args: &[&str]) -> Option<String> {
    Command::new("git")
        .args(args)
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
}

fn main() {
    for input in INPUTS {
        println!("cargo:rerun-if-changed={input}");
    }
    let git_dir = git(&["rev-parse", "--git-dir"]).map(PathBuf::from);
    if let Some(dir) = &git_dir {
        watch_commit(dir);
    }
    let revision = match git(&["rev-parse", "--short=10", "HEAD"]) {
        Some(revision) => {
            let mut status = vec!["status", "--porcelain", "--"];
            status.extend(INPUTS);
            match git(&status) {
                Some(changes) if !changes.is_empty() => format!("{revision}-dirty"),
                _ => revision,
            }
        }
        None => "unknown".to_string(),
    };
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".to_string());
    let rustc_version = Command::new(rustc)
        .arg("--version")
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_else(|| "unknown".to_string());
    let profile = std::env::var("PROFILE").unwrap_or_else(|_| "unknown".to_string());
    println!("cargo:rustc-env=NQUEENS_GIT_REVISION={revision}");
    println!("cargo:rustc-env=NQUEENS_RUSTC_VERSION={rustc_version}");
    println!("cargo:rustc-env=NQUEENS_BUILD_PROFILE={profile}");
}

/// Re-runs the script when HEAD moves: HEAD itself (a checkout), the branch
/// it names (a commit), the packed refs, and the index (staging).
fn watch_commit(git_dir: &Path) {
    let head = git_dir.join("HEAD");
    println!("cargo:rerun-if-changed={}", head.display());
    println!("cargo:rerun-if-changed={}", git_dir.join("index").display());
    println!(
        "cargo:rerun-if-changed={}",
        git_dir.join("packed-refs").display()
    );
    if let Ok(text) = std::fs::read_to_string(&head) {
        if let Some(branch) = text.trim().strip_prefix("ref: ") {
            println!("cargo:rerun-if-changed={}", git_dir.join(branch).display());
        }
    }
}
