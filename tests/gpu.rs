//! The GPU pair counter end to end (`--features gpu`): counts against OEIS,
//! a shard and a resumed journal through the GPU, and the refusals. Every
//! pair job goes to the GPU (NQUEENS_GPU_ALL=1, set here for the commands
//! these tests start), so that the small boards count on it too. Without
//! an adapter the tests say so and skip, unless NQUEENS_REQUIRE_GPU=1
//! (CI, on Mesa's lavapipe), where that is a failure.
#![cfg(feature = "gpu")]

mod common;

use common::{gpu_here, gpu_pairs, json_of, nqueens, rejects, start_and_kill};

#[test]
fn boards_4_to_16_count_on_the_gpu_as_oeis_lists_them() {
    if !gpu_here("boards_4_to_16_count_on_the_gpu_as_oeis_lists_them") {
        return;
    }
    for n in 4..=16 {
        let n_arg = n.to_string();
        let json = json_of(&["count", &n_arg, "--gpu", "--unique", "--json"]);
        assert_eq!(json["matches_oeis"], true, "n = {n}: {json}");
        assert_eq!(json["matches_oeis_unique"], true, "n = {n}: {json}");
        assert_eq!(json["algorithm"], "join", "{json}");
        let busy = json["gpu"]["busy"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&busy), "{json}");
        assert!(
            !json["gpu"]["adapter"].as_str().unwrap().is_empty(),
            "{json}"
        );
        // Boards from 8 join halves (below, one search counts the board).
        if n >= 8 {
            assert!(gpu_pairs(&json) > 0, "n = {n}: {json}");
        }
    }
    // Within the least GPU memory a count may give it: the same count.
    let json = json_of(&["count", "14", "--gpu", "--gpu-memory", "64M", "--json"]);
    assert_eq!(json["matches_oeis"], true, "{json}");
    assert!(gpu_pairs(&json) > 0, "{json}");
    // The text report says it too, in one line.
    let text = nqueens().args(["count", "12", "--gpu"]).output().unwrap();
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(text.contains("\n  gpu          "), "{text}");
}

#[test]
fn shards_and_journals_counted_with_and_without_the_gpu_merge_and_resume() {
    if !gpu_here("shards_and_journals_counted_with_and_without_the_gpu_merge_and_resume") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let names: Vec<String> = (1..=2)
        .map(|i| dir.path().join(format!("s{i}.json")).display().to_string())
        .collect();
    // Shard 1 on the GPU, shard 2 on the CPU: one fingerprint.
    for (i, name) in names.iter().enumerate() {
        let shard = format!("{}/2", i + 1);
        let mut args = vec!["count", "14", "--shard", &shard, "--out", name, "--json"];
        if i == 0 {
            args.push("--gpu");
        }
        assert_eq!(json_of(&args)["kind"], "nqueens-shard");
    }
    // In text, the shard says what its GPU did (the file leaves it out).
    let again = dir.path().join("s1-again.json").display().to_string();
    let text = nqueens()
        .args(["count", "14", "--shard", "1/2", "--out", &again, "--gpu"])
        .output()
        .unwrap();
    let text = String::from_utf8(text.stdout).unwrap();
    assert!(text.contains("\n  gpu          "), "{text}");
    let merged = json_of(&["merge", "--json", "--unique", &names[0], &names[1]]);
    assert_eq!(merged["matches_oeis"], true, "{merged}");
    assert_eq!(merged["matches_oeis_unique"], true, "{merged}");

    // A journal started on the GPU, killed, resumed on the CPU; and one
    // started on the CPU resumed on the GPU (boards that take seconds on
    // lavapipe).
    for (n, first, then) in [("16", true, false), ("15", false, true)] {
        let journal = dir.path().join(format!("n{n}.journal"));
        let path = journal.to_str().unwrap();
        let mut args = vec!["count", n, "--threads", "1"];
        if first {
            args.push("--gpu");
        }
        start_and_kill(&args, &journal);
        let mut args = vec!["count", n, "--checkpoint", path, "--json"];
        if then {
            args.push("--gpu");
        }
        let resumed = json_of(&args);
        assert_eq!(resumed["matches_oeis"], true, "{resumed}");
        assert!(resumed["resumed_items"].as_u64().unwrap() > 0, "{resumed}");
        assert_eq!(resumed.get("gpu").is_some(), then, "{resumed}");
    }
}

#[test]
fn the_gpu_is_refused_where_it_cannot_count() {
    if !gpu_here("the_gpu_is_refused_where_it_cannot_count") {
        return;
    }
    rejects(
        &["count", "12", "--gpu", "--algo", "parallel"],
        "--gpu",
        "applies only to --algo join or auto",
    );
    rejects(
        &["count", "12", "--gpu", "--gpu-device", "4096"],
        "--gpu-device <K>",
        "GPU adapter(s)",
    );
    // The sketch past 25 models the CPU's pair counter only.
    rejects(&["estimate", "27", "--gpu"], "--gpu", "up to 25");
}

#[test]
fn estimate_times_its_sample_with_the_pairs_on_the_gpu() {
    if !gpu_here("estimate_times_its_sample_with_the_pairs_on_the_gpu") {
        return;
    }
    let json = json_of(&["estimate", "14", "--gpu", "--json"]);
    assert_eq!(json["algorithm"], "join", "{json}");
    assert!(json["sampled_items"].as_u64().unwrap() > 0, "{json}");
    assert!(gpu_pairs(&json) > 0, "{json}");
    let busy = json["gpu"]["busy"].as_f64().unwrap();
    assert!(busy > 0.0 && busy <= 1.0, "{json}");
    // Without --gpu, no GPU.
    let cpu = json_of(&["estimate", "14", "--json"]);
    assert!(cpu.get("gpu").is_none(), "{cpu}");
}
