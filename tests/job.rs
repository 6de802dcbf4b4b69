//! One job, resolved once: `count`, `estimate` and `verify` build the same
//! job from the same flags, so they name the same engine, path, symmetry
//! and depth for every board.

mod common;

use common::json_of;

/// The flag sets that change what runs, beside none.
const FLAGS: [&[&str]; 6] = [
    &[],
    &["--algo", "auto"],
    &["--symmetry", "mirror"],
    &["--depth", "2"],
    &["--max-memory", "1M"],
    &["--layout", "searched"],
];

/// What a report says runs: algorithm, path and the join's layout, and
/// for the backtracker its symmetry and depth.
fn what_runs(json: &serde_json::Value) -> (String, String, Option<(String, u64)>) {
    let algorithm = json["algorithm"].as_str().unwrap().to_string();
    let simd = format!("{} {}", json["simd"], json["layout"]);
    let search = (algorithm == "parallel").then(|| {
        (
            json["symmetry"].as_str().unwrap().to_string(),
            json["depth"].as_u64().unwrap(),
        )
    });
    (algorithm, simd, search)
}

#[test]
fn count_and_estimate_name_the_same_engine_for_every_board_and_flag() {
    for n in [2usize, 9, 10, 11, 12, 16] {
        for flags in FLAGS {
            let n = n.to_string();
            let args = |command: &'static str| {
                let mut args = vec![command, n.as_str(), "--threads", "2", "--json"];
                args.extend_from_slice(flags);
                args
            };
            let count = json_of(&args("count"));
            let estimate = json_of(&args("estimate"));
            assert_eq!(
                what_runs(&count),
                what_runs(&estimate),
                "n = {n} {flags:?}\ncount: {count}\nestimate: {estimate}"
            );
        }
    }
}

#[test]
fn verify_counts_each_row_with_the_engine_count_chooses() {
    let out = common::nqueens()
        .args(["verify", "--max", "14", "--threads", "2"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let table = String::from_utf8(out.stdout).unwrap();
    let mut rows = 0;
    for line in table.lines() {
        let cells: Vec<&str> = line.split_whitespace().collect();
        let Some(n) = cells.first().and_then(|c| c.parse::<usize>().ok()) else {
            continue;
        };
        let count = json_of(&["count", &n.to_string(), "--threads", "2", "--json"]);
        assert_eq!(
            cells.last().copied(),
            count["algorithm"].as_str(),
            "n = {n}: {line}"
        );
        rows += 1;
    }
    assert_eq!(rows, 14, "{table}");
}
