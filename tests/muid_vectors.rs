//! Rules conformance: every entry of tests/vectors/muid/vectors.json against `rules::muid`,
//! without PostgreSQL.

mod support;

use comb_ext::rules::muid::{self, Muid};
use serde_json::Value;
use support::{uuid_bytes, vector_list};

/// SQL offsets are `integer`: Gink stores any integer's low 32 bits (two's complement), which is
/// the `integer` with the same bits. Offsets outside `integer` are the documented departure.
fn offset_bits(offset: i64) -> i32 {
    offset as i32
}

fn field(entry: &Value, key: &str) -> i64 {
    entry[key].as_i64().unwrap_or_else(|| panic!("{key} missing in {entry}"))
}

#[test]
fn pack_unpack_and_text_match_gink_for_every_valid_entry() {
    let entries = vector_list("muid/vectors.json", "valid");
    let mut wrapped = 0;
    for entry in &entries {
        let input = &entry["input"];
        let offset = field(input, "offset");
        if i32::try_from(offset).is_err() {
            wrapped += 1;
        }
        let muid = Muid {
            timestamp: field(input, "timestamp"),
            medallion: field(input, "medallion"),
            offset: offset_bits(offset),
        };
        let bytes = muid.pack().unwrap_or_else(|f| panic!("{entry}: {f:?}"));
        assert_eq!(bytes, uuid_bytes(entry["uuid"].as_str().unwrap()), "{entry}");
        let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(hex, entry["bytes_hex"].as_str().unwrap(), "{entry}");
        assert_eq!(muid::to_text(&bytes), entry["canonical"].as_str().unwrap(), "{entry}");
        assert_eq!(muid::parse(entry["canonical"].as_str().unwrap()), Some(bytes), "{entry}");

        // Unpacking gives Gink's fields (its -1 for all bits set included); the offset as the
        // integer with those 32 bits.
        let theirs = &entry["muid"];
        let ours = Muid::unpack(&bytes);
        assert_eq!(ours.timestamp, field(theirs, "timestamp"), "{entry}");
        assert_eq!(ours.medallion, field(theirs, "medallion"), "{entry}");
        assert_eq!(ours.offset, offset_bits(field(theirs, "offset")), "{entry}");
    }
    assert_eq!(entries.len(), 167);
    // 2147483648 and -4294967295: Gink takes them, SQL's integer cannot hold them.
    assert_eq!(wrapped, 2);
}

#[test]
fn every_construct_gink_rejects_is_rejected() {
    let entries = vector_list("muid/vectors.json", "rejected_construct");
    for entry in &entries {
        let input = &entry["input"];
        let fields = (
            input["timestamp"].as_i64(),
            input["medallion"].as_i64(),
            input["offset"].as_i64().and_then(|o| i32::try_from(o).ok()),
        );
        let accepted = match fields {
            // A float timestamp or an offset outside integer cannot even reach muid_pack.
            (Some(timestamp), Some(medallion), Some(offset)) => Muid { timestamp, medallion, offset }.pack().is_ok(),
            _ => false,
        };
        assert!(!accepted, "{entry}");
    }
    assert_eq!(entries.len(), 5);
}

/// The grammar muid_parse accepts, written out here as a check on the parser: 13-11-8 hex digits,
/// or 13-11, or 13.
fn spec_form(text: &str) -> bool {
    let groups: Vec<&str> = text.split('-').collect();
    let widths: Vec<usize> = groups.iter().map(|g| g.len()).collect();
    [vec![13, 11, 8], vec![13, 11], vec![13]].contains(&widths)
        && groups.iter().all(|g| g.bytes().all(|b| b.is_ascii_hexdigit()))
}

#[test]
fn parse_agrees_with_gink_except_on_the_documented_forms() {
    let entries = vector_list("muid/vectors.json", "parse_string");
    let (mut short_forms, mut lax_forms) = (0, 0);
    for entry in &entries {
        let text = entry["string"].as_str().unwrap();
        let gink = entry["accepted"].as_bool().unwrap();
        let ours = muid::parse(text);
        assert_eq!(ours.is_some(), spec_form(text), "{entry}");
        match (gink, ours) {
            (true, Some(bytes)) => {
                let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
                assert_eq!(hex, entry["bytes_hex"].as_str().unwrap(), "{entry}");
                assert_eq!(muid::to_text(&bytes), entry["canonical"].as_str().unwrap(), "{entry}");
            }
            (false, None) => {}
            // Departure: the spec's short forms, which Gink's parser refuses.
            (false, Some(_)) => short_forms += 1,
            // Departure: odd widths, underscores and the like, which Gink's int() lets through.
            (true, None) => lax_forms += 1,
        }
    }
    assert_eq!(entries.len(), 10);
    assert_eq!((short_forms, lax_forms), (1, 2));
}
