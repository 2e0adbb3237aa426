//! Keyed masking on arbitrary keys and uuids: never panics; a COMB façade that unmasks masks back to
//! itself, and an id that masks unmasks back to itself; the Feistel networks invert on any value; the key
//! list parser takes any text.
#![no_main]
use comb_ext::rules::comb::Format;
use comb_ext::rules::mask::{mask_comb, parse_key_list, unmask_comb, Feistel, Key};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if data.len() < 33 {
        if let Ok(text) = std::str::from_utf8(data) {
            let _ = parse_key_list(text);
        }
        return;
    }
    let key = Key::from_bytes(&data[..16]).unwrap();
    let uuid: [u8; 16] = data[16..32].try_into().unwrap();
    let format = Format::ALL[data[32] as usize % Format::ALL.len()];
    if let Ok(id) = unmask_comb(&uuid, format, &key) {
        assert_eq!(mask_comb(&id, format, &key), Ok(uuid), "{format:?}");
    }
    if let Ok(facade) = mask_comb(&uuid, format, &key) {
        assert_eq!(unmask_comb(&facade, format, &key), Ok(uuid), "{format:?}");
    }
    let value = u128::from_be_bytes(uuid);
    for family in Feistel::ALL {
        let value = value >> (128 - family.bits());
        assert_eq!(family.unmask(family.mask(value, &key), &key), value);
        assert_eq!(family.mask(family.unmask(value, &key), &key), value);
    }
    if let Ok(text) = std::str::from_utf8(&data[33..]) {
        let _ = parse_key_list(text);
    }
});
