//! The comb_ext.medallion setting's parser on arbitrary strings: never panics; what it accepts is
//! a usable medallion (below Gink's all-ones sentinel) that prints back, in decimal and in hex, to
//! text it parses to the same value.
#![no_main]
use comb_ext::rules::muid;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Some(medallion) = muid::parse_medallion(text) {
        assert!((0..muid::MEDALLION_MAX).contains(&medallion));
        assert_eq!(muid::parse_medallion(&medallion.to_string()), Some(medallion));
        assert_eq!(muid::parse_medallion(&format!("0x{medallion:x}")), Some(medallion));
        let trimmed = text.trim();
        if !trimmed.starts_with("0x") && !trimmed.starts_with("0X") {
            assert_eq!(trimmed.trim_start_matches('0').parse::<i64>().unwrap_or(0), medallion);
        }
    }
});
