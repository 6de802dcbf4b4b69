//! Records the git revision and the rustc version in the binary, so that every
//! benchmark result can say what measured it.

use std::process::Command;

fn main() {
    let git_output = |args: &[&str]| {
        Command::new("git")
            .args(args)
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
    };
    // "-dirty" only when what builds the binary differs from the commit:
    // results and docs changing during a benchmark run do not count.
    let git = match git_output(&["rev-parse", "--short=10", "HEAD"]) {
        Some(revision) => {
            let inputs = ["src", "benches", "build.rs", "Cargo.toml", "Cargo.lock"];
            let mut status = vec!["status", "--porcelain", "--untracked-files=no", "--"];
            status.extend(inputs);
            match git_output(&status) {
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
    println!("cargo:rustc-env=NQUEENS_GIT_REVISION={git}");
    println!("cargo:rustc-env=NQUEENS_RUSTC_VERSION={rustc_version}");
    println!("cargo:rustc-env=NQUEENS_BUILD_PROFILE={profile}");
    println!("cargo:rerun-if-changed=.git/HEAD");
    println!("cargo:rerun-if-changed=.git/index");
}
