//! Rules conformance of the text forms, without PostgreSQL: every entry of tests/vectors/text/ (base32hex
//! from Python's base64, Crockford from python-ulid, uid8 from its definition) and of the TypeID spec's
//! valid and invalid lists (tests/vectors/typeid/), both directions.

mod support;

use comb_ext::rules::text::{self, Encoding};
use support::{uuid_bytes, vector_list};

fn ascii(digits: &[u8]) -> &str {
    std::str::from_utf8(digits).unwrap()
}

#[test]
fn base32hex_and_crockford_match_the_references() {
    let entries = vector_list("text/uuid.json", "");
    for entry in &entries {
        let id = uuid_bytes(entry["uuid"].as_str().unwrap());
        for (encoding, key) in [(Encoding::Base32Hex, "base32hex"), (Encoding::Crockford, "crockford")] {
            let expected = entry[key].as_str().unwrap();
            assert_eq!(ascii(&text::encode(&id, encoding)), expected, "{entry}");
            assert_eq!(text::decode(expected, encoding), Ok(id), "{entry}");
            assert_eq!(text::decode(&expected.to_lowercase(), encoding), Ok(id), "{entry}");
        }
    }
    assert_eq!(entries.len(), 415);
}

#[test]
fn uid8_matches_its_definition() {
    let entries = vector_list("text/uid8.json", "");
    for entry in &entries {
        let id = entry["int64"].as_i64().unwrap();
        let expected = entry["text"].as_str().unwrap();
        assert_eq!(ascii(&text::uid8(id)), expected, "{entry}");
        assert_eq!(text::uid8_decode(expected), Ok(id), "{entry}");
    }
    assert_eq!(entries.len(), 333);
}

/// The `typeid:` strings of a spec YAML file, in order (its entries are flat maps of quoted strings).
fn yaml_typeids(relative: &str) -> Vec<String> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/").to_string() + relative;
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"));
    text.lines()
        .filter_map(|line| line.trim_start().strip_prefix("typeid: "))
        .map(|value| serde_json::from_str::<String>(value).unwrap_or_else(|e| panic!("{value}: {e}")))
        .collect()
}

#[test]
fn typeid_spec_valid_vectors_both_ways() {
    let entries = vector_list("typeid/valid.json", "");
    let typeids: Vec<String> = entries.iter().map(|e| e["typeid"].as_str().unwrap().to_string()).collect();
    assert_eq!(typeids, yaml_typeids("typeid/valid.yml"), "valid.json and valid.yml differ");
    for entry in &entries {
        let (typeid, prefix) = (entry["typeid"].as_str().unwrap(), entry["prefix"].as_str().unwrap());
        let id = uuid_bytes(entry["uuid"].as_str().unwrap());
        assert_eq!(text::typeid(&id, prefix).as_deref(), Ok(typeid), "{entry}");
        assert_eq!(text::typeid_decode(typeid, None), Ok((prefix, id)), "{entry}");
        assert_eq!(text::typeid_decode(typeid, Some(prefix)), Ok((prefix, id)), "{entry}");
    }
    assert_eq!(entries.len(), 9);
}

#[test]
fn typeid_spec_invalid_vectors_are_refused() {
    let entries = vector_list("typeid/invalid.json", "");
    let typeids: Vec<String> = entries.iter().map(|e| e["typeid"].as_str().unwrap().to_string()).collect();
    assert_eq!(typeids, yaml_typeids("typeid/invalid.yml"), "invalid.json and invalid.yml differ");
    for entry in &entries {
        let typeid = entry["typeid"].as_str().unwrap();
        assert!(text::typeid_decode(typeid, None).is_err(), "{entry}");
    }
    assert_eq!(entries.len(), 21);
}
