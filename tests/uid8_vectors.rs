//! Rules conformance: every entry of tests/vectors/uid8/vectors.json against `rules::uid8`, both
//! directions, without PostgreSQL.

mod support;

use comb_ext::rules::uid8::{Mode, Parts};
use serde_json::Value;
use support::vector_list;

fn mode(value: &Value) -> Mode {
    match value.as_str() {
        // null is the library default.
        None | Some("SPREAD") => Mode::Spread,
        Some("TIME_SEQUENTIAL") => Mode::TimeSequential,
        Some(other) => panic!("unknown mode {other}"),
    }
}

fn parts(fields: &Value) -> Parts {
    let int = |key: &str| fields[key].as_i64().unwrap_or_else(|| panic!("{key} missing in {fields}"));
    Parts {
        timestamp_ms: int("timestamp"),
        sequence: int("sequence") as i32,
        generator: int("generator_id") as i32,
        cluster: int("cluster_id") as i32,
        mode: mode(&fields["mode"]),
    }
}

#[test]
fn encode_and_decode_match_the_library_for_every_entry() {
    let entries = vector_list("uid8/vectors.json", "vectors");
    for entry in &entries {
        let id = parts(&entry["input"]).encode().unwrap_or_else(|e| panic!("{entry}: {e:?}"));
        assert_eq!(id, entry["int64"].as_i64().unwrap(), "{entry}");
        let hex: String = id.to_be_bytes().iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(hex, entry["bytes_hex"].as_str().unwrap(), "{entry}");
        assert_eq!(Parts::decode(id), parts(&entry["decoded"]), "{entry}");
    }
    assert_eq!(entries.len(), 167);
}

#[test]
fn every_input_the_library_rejects_is_rejected() {
    let entries = vector_list("uid8/vectors.json", "rejected");
    for entry in &entries {
        let input = &entry["input"];
        if let Some(hex) = input["bytes_hex"].as_str() {
            // An ID is exactly 8 bytes.
            assert_ne!(hex.len(), 16, "{entry}");
            continue;
        }
        let int = |key: &str| input[key].as_i64().unwrap_or(0);
        let parts = Parts {
            timestamp_ms: int("timestamp"),
            sequence: int("sequence") as i32,
            generator: int("generator_id") as i32,
            cluster: int("cluster_id") as i32,
            mode: Mode::Spread,
        };
        assert!(parts.encode().is_err(), "{entry}");
    }
    assert_eq!(entries.len(), 7);
}
