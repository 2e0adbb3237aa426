//! Rules conformance of keyed masking, without PostgreSQL: every entry of tests/vectors/uuidv47/ both ways.
//! `facades.json` is uuidv47's own encode (its C, through python-uuidv47) under four keys; `siphash.json`
//! is the SipHash paper's 64 reference vectors, which the whole construction rests on.

mod support;

use comb_ext::rules::comb::Format;
use comb_ext::rules::mask::{self, Key};
use support::{uuid_bytes, vector_list};

fn hex_bytes(hex: &str) -> Vec<u8> {
    data_encoding::HEXLOWER.decode(hex.as_bytes()).unwrap_or_else(|e| panic!("bad hex {hex}: {e}"))
}

#[test]
fn uuidv7_facades_match_uuidv47() {
    let entries = vector_list("uuidv47/facades.json", "");
    for entry in &entries {
        let key = Key::from_bytes(&hex_bytes(entry["key_hex"].as_str().unwrap())).unwrap();
        // The key's bytes are k0 then k1, each little-endian: the same key as uuidv47's (k0, k1).
        let k0 = u64::from_str_radix(entry["k0"].as_str().unwrap(), 16).unwrap();
        let k1 = u64::from_str_radix(entry["k1"].as_str().unwrap(), 16).unwrap();
        assert_eq!(key, Key::new(k0, k1), "{entry}");
        let id = uuid_bytes(entry["uuidv7"].as_str().unwrap());
        let facade = uuid_bytes(entry["facade"].as_str().unwrap());
        assert_eq!(mask::mask_comb(&id, Format::UuidV7, &key), Ok(facade), "{entry}");
        assert_eq!(mask::unmask_comb(&facade, Format::UuidV7, &key), Ok(id), "{entry}");
    }
    assert_eq!(entries.len(), 200);
}

#[test]
fn siphash_2_4_reference_vectors() {
    let entries = vector_list("uuidv47/siphash.json", "");
    for entry in &entries {
        let key = Key::from_bytes(&hex_bytes(entry["key_hex"].as_str().unwrap())).unwrap();
        let message = hex_bytes(entry["message_hex"].as_str().unwrap());
        let expected = u64::from_le_bytes(hex_bytes(entry["output_le_hex"].as_str().unwrap()).try_into().unwrap());
        assert_eq!(Some(expected), entry["output_u64"].as_u64(), "{entry}");
        assert_eq!(key.siphash(&message), expected, "{entry}");
    }
    assert_eq!(entries.len(), 64);
}
