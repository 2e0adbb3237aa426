//! muid text input on arbitrary strings: never panics; what it accepts prints back as canonical
//! text that parses to the same muid, and unpack/pack round-trip.
#![no_main]
use comb_ext::rules::muid::{self, Muid};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Some(bytes) = muid::parse(text) {
        let canonical = muid::to_text(&bytes);
        assert_eq!(canonical.len(), muid::TEXT_LEN);
        assert_eq!(muid::parse(&canonical), Some(bytes));
        assert_eq!(Muid::unpack(&bytes).pack(), Ok(bytes));
        if text.len() == muid::TEXT_LEN {
            assert_eq!(canonical, text.to_uppercase());
        }
    }
});
