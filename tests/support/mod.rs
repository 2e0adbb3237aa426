//! Shared by the rules conformance tests (`tests/*.rs`) and the in-server ones (`tests/pg/`): where
//! the vectors are and how their names map to ours.

use serde_json::Value;

/// The repo's copy of the vectors, `tests/vectors`, or `$COMB_EXT_VECTORS`. A missing file fails the
/// test: conformance is never skipped.
#[allow(dead_code)]
pub fn load(relative: &str) -> Value {
    let dir = std::env::var("COMB_EXT_VECTORS")
        .unwrap_or_else(|_| concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors").to_string());
    let path = format!("{dir}/{relative}");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path} is not JSON: {e}"))
}

/// The entries of one vector file: the array under `key`, or the whole file when `key` is empty.
#[allow(dead_code)]
pub fn vector_list(relative: &str, key: &str) -> Vec<Value> {
    let file = load(relative);
    let list = if key.is_empty() { &file } else { &file[key] };
    list.as_array().unwrap_or_else(|| panic!("{relative}: no array at {key:?}")).clone()
}

mod rtcomb_formats;

/// RT.Comb vector combos -> `comb_format` labels (`rtcomb_formats.rs`).
#[allow(dead_code)]
pub fn rtcomb_format(combo: &str) -> &'static str {
    rtcomb_formats::COMBO_TO_FORMAT
        .iter()
        .find(|(name, _)| *name == combo)
        .map(|(_, format)| *format)
        .unwrap_or_else(|| panic!("unknown combo {combo}"))
}

/// RT.Comb's floating-point artefacts, where our exact integer rule departs by one unit.
#[allow(dead_code)]
pub fn is_documented_departure(entry: &Value) -> bool {
    entry["tags"].as_array().is_some_and(|tags| tags.iter().any(|t| t == "ms_not_floor" || t == "day_rollover_quirk"))
}

#[allow(dead_code)]
pub fn uuid_bytes(text: &str) -> [u8; 16] {
    uuid::Uuid::parse_str(text).unwrap_or_else(|e| panic!("bad uuid {text}: {e}")).into_bytes()
}
