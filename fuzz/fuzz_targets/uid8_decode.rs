//! uid8 decode on arbitrary 64-bit values: never panics, and every bit pattern re-encodes to
//! itself (the fields cover all 64 bits).
#![no_main]
use comb_ext::rules::uid8::Parts;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if data.len() < 8 {
        return;
    }
    let id = i64::from_be_bytes(data[..8].try_into().unwrap());
    assert_eq!(Parts::decode(id).encode(), Ok(id));
});
