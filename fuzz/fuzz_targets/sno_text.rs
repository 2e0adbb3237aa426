//! sno text input on arbitrary bytes: never panics; what it accepts prints back as the same text,
//! and every decoded field re-encodes to the same bytes.
#![no_main]
use comb_ext::rules::sno;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Some(id) = sno::from_text(data) {
        assert_eq!(&sno::to_text(&id)[..], data);
        assert_eq!(sno::encode(&sno::decode(&id)), id);
        let _ = sno::floor(sno::unix_us(sno::decode(&id).units));
    }
});
