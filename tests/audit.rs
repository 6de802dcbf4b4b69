//! `nqueens audit`: join items recounted another way, a fault injected into
//! one item seen, and bad command lines refused.

mod common;

use common::{json_of, nqueens, rejects};

#[test]
fn an_audit_recounts_every_item_it_draws_and_names_them() {
    // n = 13: odd, with the centre and off-centre frames; 14 even; 18
    // even with the diagonal reflections folded in.
    for n in ["13", "14", "18"] {
        let audit = json_of(&["audit", n, "--items", "6", "--seed", "5", "--json"]);
        let items = audit["items"].as_array().unwrap();
        assert_eq!(items.len(), 6, "{audit}");
        assert_eq!(audit["differences"], 0, "{audit}");
        for item in items {
            assert_eq!(item["join"], item["recount"], "{item}");
            assert_eq!(item["matches"], true, "{item}");
            assert!(item["stands_for"]
                .as_str()
                .unwrap()
                .contains("queens on rows"));
        }
        // The seed decides the items.
        let again = json_of(&["audit", n, "--items", "6", "--seed", "5", "--json"]);
        let indices = |a: &serde_json::Value| {
            a["items"]
                .as_array()
                .unwrap()
                .iter()
                .map(|i| i["item"].as_u64().unwrap())
                .collect::<Vec<_>>()
        };
        assert_eq!(indices(&audit), indices(&again));
    }
}

#[test]
fn every_item_of_a_small_board_is_audited_when_asked_for_more_than_there_are() {
    let audit = json_of(&["audit", "8", "--items", "1000", "--json"]);
    assert_eq!(
        audit["items"].as_array().unwrap().len() as u64,
        audit["pair_items"].as_u64().unwrap()
    );
}

#[test]
fn a_fault_injected_into_one_item_fails_the_audit_naming_it() {
    let all = json_of(&["audit", "12", "--items", "1000", "--json"]);
    let victim = all["items"][3]["item"].as_u64().unwrap().to_string();
    let output = nqueens()
        .args(["audit", "12", "--items", "1000"])
        .env("NQUEENS_AUDIT_FAULT", &victim)
        .output()
        .unwrap();
    let (stdout, stderr) = (
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr),
    );
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(stdout.contains("1 DIFFER"), "{stdout}");
    assert!(
        stderr.contains(&format!(
            "1 of {} items differ (item {victim}:",
            all["items"].as_array().unwrap().len()
        )),
        "{stderr}"
    );
}

#[test]
fn bad_audits_are_refused_naming_the_flag_and_range() {
    rejects(&["audit", "3"], "<N>", "must be in 4..=32");
    rejects(&["audit", "33"], "<N>", "1..=32");
    rejects(
        &["audit", "12", "--items", "0"],
        "--items <K>",
        "1..=1000000",
    );
    rejects(&["audit", "12", "--seed", "-1"], "--seed <S>", "0..=");
    rejects(&["audit", "12", "--threads", "0"], "--threads <T>", "1..=");
}

#[test]
#[ignore = "slow: audits of n = 20 and 21 (scripts/slow-tests.sh)"]
fn audits_of_larger_boards_match() {
    for n in ["20", "21"] {
        let audit = json_of(&["audit", n, "--items", "20", "--seed", "11", "--json"]);
        assert_eq!(audit["items"].as_array().unwrap().len(), 20, "{audit}");
        assert_eq!(audit["differences"], 0, "{audit}");
    }
}
