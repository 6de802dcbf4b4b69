//! A shard file's seal: the CRC-32 of every field but the seal itself, in
//! a canonical form (object keys sorted, no whitespace, strings and
//! fractional numbers written one way, integers digit for digit), kept as
//! the `seal` field. The file stays plain JSON, and re-indenting it or
//! reordering its keys leaves the seal valid; changing a value does not.
//!
//! A checksum catches accidents and careless edits, not someone who
//! recomputes it: shards from machines one does not control are counted
//! twice, and `merge` compares the copies.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde_json::value::RawValue;

/// The key the seal is kept under.
pub const KEY: &str = "seal";

/// The seal of a JSON object's text (the `seal` key left out), as eight
/// hex digits; `None` if the text is no JSON object.
pub fn of(text: &str) -> Option<String> {
    let mut object: BTreeMap<String, &RawValue> = serde_json::from_str(text).ok()?;
    object.remove(KEY);
    let mut canonical = String::with_capacity(text.len());
    write_object(&object, &mut canonical)?;
    Some(format!("{:08x}", crc32fast::hash(canonical.as_bytes())))
}

fn write_object(object: &BTreeMap<String, &RawValue>, out: &mut String) -> Option<()> {
    out.push('{');
    for (i, (key, value)) in object.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(&serde_json::to_string(key).ok()?);
        out.push(':');
        write_value(value, out)?;
    }
    out.push('}');
    Some(())
}

/// A value in canonical form: objects and arrays element by element,
/// strings re-escaped one way, integers as written (they may pass u64),
/// other numbers as the shortest text of their f64.
fn write_value(value: &RawValue, out: &mut String) -> Option<()> {
    let text = value.get().trim();
    match text.as_bytes().first()? {
        b'{' => write_object(&serde_json::from_str(text).ok()?, out),
        b'[' => {
            let items: Vec<&RawValue> = serde_json::from_str(text).ok()?;
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_value(item, out)?;
            }
            out.push(']');
            Some(())
        }
        b'"' => {
            let string: String = serde_json::from_str(text).ok()?;
            out.push_str(&serde_json::to_string(&string).ok()?);
            Some(())
        }
        b'-' | b'0'..=b'9' if text.bytes().all(|b| b == b'-' || b.is_ascii_digit()) => {
            out.push_str(text);
            Some(())
        }
        b'-' | b'0'..=b'9' => {
            let number: f64 = serde_json::from_str(text).ok()?;
            write!(out, "{}", serde_json::to_string(&number).ok()?).ok()
        }
        _ => {
            // true, false, null
            out.push_str(text);
            Some(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FILE: &str = r#"{"kind":"nqueens-shard","total":"123","tally":{"weighted":340282366920938463463374607431768211455,"classes":null},"elapsed_s":0.00001,"cpu":"Caf\u00e9 \"EPYC\"","items":[0,3],"ok":true}"#;

    #[test]
    fn layout_key_order_and_number_spelling_do_not_change_the_seal() {
        let seal = of(FILE).unwrap();
        let pretty = r#"{
  "items": [ 0, 3 ],
  "ok": true,
  "cpu": "Café \"EPYC\"",
  "elapsed_s": 1e-5,
  "tally": { "classes": null, "weighted": 340282366920938463463374607431768211455 },
  "total": "123",
  "kind": "nqueens-shard",
  "seal": "whatever it said"
}"#;
        assert_eq!(of(pretty).unwrap(), seal);
    }

    #[test]
    fn any_changed_value_changes_the_seal() {
        let seal = of(FILE).unwrap();
        for (from, to) in [
            ("\"123\"", "\"122\""),
            ("211455", "211454"),
            ("[0,3]", "[0,4]"),
            ("true", "false"),
            ("0.00001", "0.00002"),
        ] {
            let edited = FILE.replace(from, to);
            assert_ne!(of(&edited).unwrap(), seal, "{from} -> {to}");
        }
        assert_eq!(of("[1, 2]"), None, "not an object");
        assert_eq!(of("{\"a\": 1"), None, "not JSON");
    }
}
