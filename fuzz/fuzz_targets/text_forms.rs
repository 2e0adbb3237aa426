//! The text forms' parsers on arbitrary strings (base32hex, Crockford, TypeID, uid8): never panic; what
//! they accept prints back as the canonical text of the same id (upper case, Crockford's aliases read),
//! and every refusal names a position inside the text or its length.
#![no_main]
use comb_ext::rules::text::{self, Encoding, TextError, TypeIdError};
use libfuzzer_sys::fuzz_target;

fn ascii(digits: &[u8]) -> &str {
    std::str::from_utf8(digits).unwrap()
}

fn canonical(text: &str, encoding: Encoding) -> String {
    let upper = text.to_ascii_uppercase();
    match encoding {
        Encoding::Base32Hex => upper,
        Encoding::Crockford => upper.replace(['I', 'L'], "1").replace('O', "0"),
    }
}

fn position_inside(error: &TextError, text: &str) {
    let chars = text.chars().count();
    match error {
        TextError::Length { found, .. } => assert_eq!(*found, chars),
        TextError::NotADigit { position, found, .. }
        | TextError::FirstTooLarge { position, found, .. }
        | TextError::TrailingBits { position, found } => {
            assert_eq!(text.chars().nth(position - 1), Some(*found), "{text:?} {error:?}")
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(input) = std::str::from_utf8(data) else { return };
    for encoding in Encoding::ALL {
        match text::decode(input, encoding) {
            Ok(id) => {
                let again = text::encode(&id, encoding);
                assert_eq!(ascii(&again), canonical(input, encoding));
                assert_eq!(text::decode(ascii(&again), encoding), Ok(id));
            }
            Err(error) => position_inside(&error, input),
        }
    }
    match text::typeid_decode(input, None) {
        Ok((prefix, id)) => assert_eq!(text::typeid(&id, prefix).as_deref(), Ok(input)),
        Err(TypeIdError::Suffix(error)) => {
            if let TextError::Length { .. } = error {
            } else {
                position_inside(&error, input)
            }
        }
        Err(TypeIdError::PrefixCharacter { position, found, .. }) => {
            assert_eq!(input.chars().nth(position - 1), Some(found))
        }
        Err(_) => {}
    }
    match text::uid8_decode(input) {
        Ok(id) => assert_eq!(ascii(&text::uid8(id)), canonical(input, Encoding::Crockford)),
        Err(error) => position_inside(&error, input),
    }
});
