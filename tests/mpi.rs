//! `count --mpi` under mpirun (three ranks, each counting; rank 0 also
//! hands out work): exact totals, and a killed job resumed from its journal. Built
//! with `--features mpi`; .ci/run installs OpenMPI and runs it.
#![cfg(feature = "mpi")]

use std::process::{Command, Output, Stdio};

use nqueens::oeis::{known_total, known_unique};
use serde_json::Value;

mod common;

use common::wait_for_a_record;

/// `mpirun -np RANKS nqueens`, handing every rank the variables `exported`
/// names from this process's environment (`-x`).
fn mpirun(ranks: usize, exported: &[&str]) -> Command {
    let mut command = Command::new("mpirun");
    command
        .args(["--allow-run-as-root", "--oversubscribe", "-np"])
        .arg(ranks.to_string());
    for var in exported {
        command.args(["-x", var]);
    }
    command.arg(env!("CARGO_BIN_EXE_nqueens"));
    command
}

fn json(output: &Output) -> Value {
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).unwrap()
}

#[test]
fn three_ranks_count_exactly() {
    for algo in ["parallel", "join"] {
        for n in 12..=14 {
            let output = mpirun(3, &[])
                .args(["count", &n.to_string(), "--mpi", "--threads", "1", "--json"])
                .args(["--algo", algo])
                .output()
                .unwrap();
            let result = json(&output);
            assert_eq!(
                result["total"].as_u64().map(u128::from),
                known_total(n),
                "{algo} n = {n}"
            );
            assert_eq!(
                result["unique"].as_u64().map(u128::from),
                known_unique(n),
                "{algo} n = {n}"
            );
            assert_eq!(result["algorithm"], algo);
            assert_eq!(
                result["threads"], 3,
                "three ranks of one thread, rank 0 counting too"
            );
            // Every rank accounts for its share: the items add up, a
            // worker's first request is a round trip, and one that was
            // handed items reports them in another (one that asks after
            // rank 0 has taken every item is stopped at its first).
            let ranks = result["mpi"]["ranks"].as_array().expect("mpi.ranks");
            let ranks_seen: Vec<u64> = ranks.iter().map(|r| r["rank"].as_u64().unwrap()).collect();
            assert_eq!(ranks_seen, [0, 1, 2], "{algo} n = {n}");
            let items: u64 = ranks.iter().map(|r| r["items"].as_u64().unwrap()).sum();
            assert_eq!(Some(items), result["items"].as_u64(), "{algo} n = {n}");
            let workers = ranks.len() as u64 - 1;
            let handed = ranks[1..]
                .iter()
                .filter(|r| r["items"].as_u64().unwrap() > 0)
                .count() as u64;
            let round_trips = result["mpi"]["round_trips"].as_u64().unwrap();
            assert!(
                round_trips >= workers + handed,
                "{algo} n = {n}: {round_trips} round trips, {handed} of {workers} workers handed items"
            );
            for rank in ranks {
                let share = rank["busy_share"].as_f64().unwrap();
                assert!((0.0..=1.0).contains(&share), "{rank}");
            }
        }
    }
}

/// With `--gpu` every rank counts its pairs on its GPU (ranks on one node
/// take them round-robin; here all three share lavapipe's), tells rank 0
/// what its GPU did, and the report's `gpu.pairs` adds every rank's up
/// (rank 0's alone would leave out two thirds of the work).
#[cfg(feature = "gpu")]
#[test]
fn every_rank_counts_on_its_gpu_and_the_report_adds_them_up() {
    if !common::gpu_here("every_rank_counts_on_its_gpu_and_the_report_adds_them_up") {
        return;
    }
    // The ranks get what gpu_here set: every pair job to the GPU, and
    // Mesa's runtime directory.
    let output = mpirun(3, &["NQUEENS_GPU_ALL", "XDG_RUNTIME_DIR"])
        .args([
            "count",
            "12",
            "--mpi",
            "--gpu",
            "--threads",
            "1",
            "--unique",
            "--json",
        ])
        .output()
        .unwrap();
    let result = json(&output);
    assert_eq!(result["matches_oeis"], true, "{result}");
    assert_eq!(result["matches_oeis_unique"], true, "{result}");
    let ranks = result["mpi"]["ranks"].as_array().expect("mpi.ranks");
    let pairs: Vec<u64> = ranks.iter().map(common::gpu_pairs).collect();
    assert_eq!(pairs.len(), 3);
    for (rank, &pairs) in ranks.iter().zip(&pairs) {
        let items = rank["items"].as_u64().unwrap();
        assert_eq!(
            pairs > 0,
            items > 0,
            "a rank's pairs follow its items: {rank}"
        );
    }
    assert!(pairs.iter().filter(|&&p| p > 0).count() >= 2, "{result}");
    assert_eq!(
        common::gpu_pairs(&result),
        pairs.iter().sum::<u64>(),
        "{result}"
    );
    let busy = result["gpu"]["busy"].as_f64().unwrap();
    assert!((0.0..=1.0).contains(&busy), "{result}");
}

#[test]
fn every_rank_counts_the_layout_rank_0_chose() {
    for layout in ["table", "searched"] {
        let output = mpirun(3, &[])
            .args(["count", "13", "--mpi", "--threads", "1", "--json"])
            .args(["--layout", layout])
            .output()
            .unwrap();
        let result = json(&output);
        assert_eq!(result["layout"], layout);
        assert_eq!(result["total"].as_u64().map(u128::from), known_total(13));
    }
}

#[test]
fn a_killed_mpi_job_resumes_from_its_journal() {
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("mpi.journal");
    let mut job = mpirun(3, &[])
        .args([
            "count",
            "17",
            "--mpi",
            "--threads",
            "1",
            "--algo",
            "parallel",
        ])
        .arg("--checkpoint")
        .arg(&journal)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    wait_for_a_record(&journal);
    // SIGTERM: mpirun passes it on to every rank.
    unsafe { libc::kill(job.id() as i32, libc::SIGTERM) };
    job.wait().unwrap();

    let status = Command::new(env!("CARGO_BIN_EXE_nqueens"))
        .args(["status", "--json"])
        .arg(&journal)
        .output()
        .unwrap();
    let status = json(&status);
    assert!(status["done_items"].as_u64().unwrap() > 0, "{status}");
    assert_eq!(status["complete"], false, "{status}");

    let resumed = mpirun(3, &[])
        .args(["count", "17", "--mpi", "--json", "--checkpoint"])
        .arg(&journal)
        .output()
        .unwrap();
    let resumed = json(&resumed);
    assert_eq!(resumed["total"].as_u64().map(u128::from), known_total(17));
    assert_eq!(resumed["unique"].as_u64().map(u128::from), known_unique(17));
}
