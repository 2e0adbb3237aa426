//! Rules conformance of keyed masking, without PostgreSQL: every entry of tests/vectors/mask/mask.json,
//! computed by an independent Python implementation of the construction as docs/ids-that-do-not-tell-
//! their-age.md writes it down (SipHash-2-4 included), both ways: every COMB format's façade under four
//! keys, and the Feistel networks of muid, sno and uid8.

mod support;

use comb_ext::rules::comb::Format;
use comb_ext::rules::mask::{mask_comb, unmask_comb, Feistel, Key};
use support::{load, uuid_bytes};

fn key(entry: &serde_json::Value) -> Key {
    let hex = entry["key"].as_str().unwrap();
    let bytes: Vec<u8> = (0..16).map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).unwrap()).collect();
    Key::from_bytes(&bytes).unwrap()
}

#[test]
fn every_comb_format_matches_the_reference() {
    let vectors = load("mask/mask.json");
    let entries = vectors["comb"].as_array().unwrap();
    for entry in entries {
        let format = Format::from_name(entry["format"].as_str().unwrap()).unwrap();
        let (id, facade) = (uuid_bytes(entry["id"].as_str().unwrap()), uuid_bytes(entry["facade"].as_str().unwrap()));
        assert_eq!(mask_comb(&id, format, &key(entry)), Ok(facade), "{entry}");
        assert_eq!(unmask_comb(&facade, format, &key(entry)), Ok(id), "{entry}");
    }
    assert_eq!(entries.len(), 4 * 8 * 12);
}

#[test]
fn every_feistel_family_matches_the_reference() {
    let vectors = load("mask/mask.json");
    let entries = vectors["feistel"].as_array().unwrap();
    for entry in entries {
        let family = match entry["family"].as_str().unwrap() {
            "muid" => Feistel::Muid,
            "sno" => Feistel::Sno,
            "uid8" => Feistel::Uid8,
            other => panic!("unknown family {other}"),
        };
        let id = u128::from_str_radix(entry["id"].as_str().unwrap(), 16).unwrap();
        let masked = u128::from_str_radix(entry["masked"].as_str().unwrap(), 16).unwrap();
        assert_eq!(family.mask(id, &key(entry)), masked, "{entry}");
        assert_eq!(family.unmask(masked, &key(entry)), id, "{entry}");
    }
    assert_eq!(entries.len(), 4 * 3 * 15);
}
