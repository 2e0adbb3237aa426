//! Rules conformance: every entry of tests/vectors/sno/{encode,components,decode_invalid}.json
//! against `rules::sno`, without PostgreSQL.

mod support;

use comb_ext::rules::sno::{self, Parts};
use serde_json::Value;
use support::vector_list;

fn hex10(text: &str) -> [u8; sno::LEN] {
    let bytes: Vec<u8> = (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&text[i..i + 2], 16).unwrap_or_else(|e| panic!("bad hex {text}: {e}")))
        .collect();
    bytes.try_into().unwrap_or_else(|_| panic!("{text} is not 10 bytes"))
}

fn int(entry: &Value, key: &str) -> i64 {
    entry[key].as_i64().unwrap_or_else(|| panic!("{key} missing in {entry}"))
}

#[test]
fn text_matches_sno_for_every_encode_entry() {
    let entries = vector_list("sno/encode.json", "");
    for entry in &entries {
        let id = hex10(entry["hex"].as_str().unwrap());
        let text = entry["string"].as_str().unwrap();
        assert_eq!(std::str::from_utf8(&sno::to_text(&id)).unwrap(), text, "{entry}");
        assert_eq!(sno::from_text(text.as_bytes()), Some(id), "{entry}");
    }
    assert_eq!(entries.len(), 167);
}

#[test]
fn fields_match_sno_for_every_components_entry() {
    let entries = vector_list("sno/components.json", "");
    for entry in &entries {
        let input = &entry["input"];
        // Our times are µs; flooring ns to µs first lands in the same 4 ms unit.
        let unix_us = int(input, "unix_ns").div_euclid(1000);
        let parts = Parts {
            units: sno::units(unix_us).unwrap_or_else(|| panic!("in range: {entry}")),
            tick: int(input, "tick") == 1,
            meta: int(input, "meta") as u8,
            partition: int(input, "partition") as u16,
            sequence: int(input, "sequence") as u16,
        };
        let id = hex10(entry["hex"].as_str().unwrap());
        assert_eq!(sno::encode(&parts), id, "{entry}");
        assert_eq!(std::str::from_utf8(&sno::to_text(&id)).unwrap(), entry["string"].as_str().unwrap(), "{entry}");

        let decoded = sno::decode(&id);
        assert_eq!(decoded.units as i64, int(entry, "timestamp_units"), "{entry}");
        assert_eq!(sno::unix_us(decoded.units), int(entry, "time_unix_ms") * 1000, "{entry}");
        assert_eq!(decoded.tick as i64, int(entry, "tick_bit"), "{entry}");
        assert_eq!(decoded.meta as i64, int(entry, "meta"), "{entry}");
        assert_eq!(decoded.partition as i64, int(entry, "partition"), "{entry}");
        assert_eq!(decoded.sequence as i64, int(entry, "sequence"), "{entry}");
    }
    assert_eq!(entries.len(), 86);
}

#[test]
fn every_decode_invalid_entry_is_rejected() {
    let entries = vector_list("sno/decode_invalid.json", "");
    let mut sno_accepted = 0;
    for entry in &entries {
        let hex = entry["input_hex"].as_str().unwrap();
        let bytes: Vec<u8> =
            (0..hex.len()).step_by(2).map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap()).collect();
        if let Some(text) = entry["input"].as_str() {
            assert_eq!(text.as_bytes(), bytes.as_slice(), "{entry}");
        }
        assert_eq!(sno::from_text(&bytes), None, "{entry}");
        sno_accepted += entry["accepted"].as_bool().unwrap() as usize;
    }
    assert_eq!(entries.len(), 163);
    // Most of these are the departure: sno's decoder takes them (garbage in, garbage out).
    assert!(sno_accepted > 0);
}
