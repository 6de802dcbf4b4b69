//! Every board size with every algorithm through every command that
//! counts: no panic, and every answer right. Boards to 12 run to the end;
//! larger ones are killed after a second if still running (a refusal and a
//! kill pass; a panic, an abort, or a count that differs from A000170 does
//! not: every `count` that finishes, at any n, is checked, and `verify`
//! checks its own rows).

use std::fs::File;
use std::process::{Child, Command, ExitStatus};
use std::time::{Duration, Instant};

use std::os::unix::process::ExitStatusExt;

const ALGORITHMS: [&str; 7] = [
    "auto",
    "parallel",
    "join",
    "set",
    "board",
    "bitmask",
    "bitmask-iter",
];

/// Boards up to this run to the end.
const WHOLE_UP_TO: usize = 12;

/// How many processes run at once.
const AT_ONCE: usize = 24;

struct Running {
    args: Vec<String>,
    child: Child,
    stdout: std::path::PathBuf,
    stderr: std::path::PathBuf,
    killed: bool,
}

fn commands() -> Vec<Vec<String>> {
    let mut all = Vec::new();
    for n in 1..=nqueens::MAX_N {
        for algo in ALGORITHMS {
            let n = n.to_string();
            all.push(vec![
                "count".into(),
                n.clone(),
                "--algo".into(),
                algo.into(),
            ]);
            all.push(vec![
                "estimate".into(),
                n.clone(),
                "--algo".into(),
                algo.into(),
            ]);
            all.push(vec![
                "verify".into(),
                "--max".into(),
                n,
                "--algo".into(),
                algo.into(),
            ]);
        }
    }
    all
}

fn board_of(args: &[String]) -> usize {
    let n = if args[0] == "verify" {
        &args[2]
    } else {
        &args[1]
    };
    n.parse().unwrap()
}

/// Whether the process panicked or aborted (a kill of ours does not count).
fn panicked(status: ExitStatus, killed: bool, stderr: &str) -> bool {
    let aborted = status.signal() == Some(libc::SIGABRT);
    let by_us = killed && status.signal() == Some(libc::SIGKILL);
    stderr.contains("panicked") || aborted || (!by_us && status.code() == Some(101))
}

/// Checks a finished command's answer: a count's total (its first line,
/// `T solutions for n = N`) against A000170 (`Ok(true)`: checked); a
/// `verify` that found a row differing (exit 1) is wrong.
fn check_answer(args: &[String], status: ExitStatus, stdout: &str) -> Result<bool, String> {
    let n = board_of(args);
    match args[0].as_str() {
        "count" if status.success() => {
            let first = stdout.split_whitespace().next().unwrap_or_default();
            let total: u128 = first
                .parse()
                .map_err(|_| format!("no total in its answer: {stdout}"))?;
            let known = nqueens::oeis::known_total(n).expect("A000170 lists every n a test counts");
            match total == known {
                true => Ok(true),
                false => Err(format!("counted {total}, A000170 has {known}")),
            }
        }
        "verify" if status.code() == Some(1) => Err(format!("a row differs:\n{stdout}")),
        _ => Ok(false),
    }
}

#[test]
fn no_board_size_algorithm_or_command_panics_or_counts_wrong() {
    let dir = tempfile::tempdir().unwrap();
    let mut waiting = commands().into_iter().enumerate();
    let mut running: Vec<(Running, Instant)> = Vec::new();
    let mut failures = Vec::new();
    let mut ran = 0;
    let mut checked = 0;
    loop {
        while running.len() < AT_ONCE {
            let Some((i, args)) = waiting.next() else {
                break;
            };
            let stdout = dir.path().join(format!("{i}.out"));
            let stderr = dir.path().join(format!("{i}.err"));
            let child = Command::new(env!("CARGO_BIN_EXE_nqueens"))
                .args(&args)
                .stdout(File::create(&stdout).unwrap())
                .stderr(File::create(&stderr).unwrap())
                .spawn()
                .unwrap();
            let run = Running {
                args,
                child,
                stdout,
                stderr,
                killed: false,
            };
            running.push((run, Instant::now()));
        }
        if running.is_empty() {
            break;
        }
        std::thread::sleep(Duration::from_millis(10));
        let mut still = Vec::new();
        for (mut run, started) in running {
            let status = match run.child.try_wait().unwrap() {
                Some(status) => status,
                None if board_of(&run.args) > WHOLE_UP_TO
                    && started.elapsed() > Duration::from_secs(1) =>
                {
                    run.child.kill().unwrap();
                    run.killed = true;
                    run.child.wait().unwrap()
                }
                None => {
                    still.push((run, started));
                    continue;
                }
            };
            ran += 1;
            let stderr = std::fs::read_to_string(&run.stderr).unwrap_or_default();
            if panicked(status, run.killed, &stderr) {
                failures.push(format!("{:?}: {status}: {stderr}", run.args));
            }
            let stdout = std::fs::read_to_string(&run.stdout).unwrap_or_default();
            match check_answer(&run.args, status, &stdout) {
                Ok(true) => checked += 1,
                Ok(false) => {}
                Err(wrong) => failures.push(format!("{:?}: {wrong}", run.args)),
            }
        }
        running = still;
    }
    assert_eq!(ran, 3 * ALGORITHMS.len() * nqueens::MAX_N);
    // Every count to 12 answered and was checked (and those past it that
    // finished within their second).
    assert!(
        checked >= ALGORITHMS.len() * WHOLE_UP_TO,
        "{checked} counts checked"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
