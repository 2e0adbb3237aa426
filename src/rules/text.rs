//! Short, fixed-width text forms of ids that sort as the ids do (docs/ids-that-do-not-tell-their-age.md).
//!
//! A uuid's 128 bits, most significant (string byte 0) first, in 26 base32 digits:
//! - **base32hex** (RFC 4648 section 7, alphabet `0-9A-V`): the bits, then two zero bits, as PostgreSQL 19's
//!   `rtrim(encode(id::bytea, 'base32hex'), '=')` writes them (upper case). The last digit carries 3 bits
//!   and the two zero bits, so it is one of `048CGKOS`.
//! - **Crockford base32** (ULID's text, alphabet `0-9A-Z` less `ILOU`): two zero bits, then the bits, so the
//!   first digit is at most 7. Written upper case, as ULIDs are.
//! - **TypeID** (jetify-com/typeid, spec 0.3.0): a lower-case prefix, `_`, and the Crockford digits in lower
//!   case.
//!
//! A uid8 (a signed bigint) in 13 Crockford digits: its 64 bits with the sign bit flipped, so that the
//! unsigned order of the digits is the signed order of the bigint, after one zero bit (the first digit is at
//! most F).
//!
//! Both alphabets are in ASCII order, and every form has a fixed width, so under collation "C" the text of
//! one case sorts exactly as the bytes (or the bigint) do. Parsers take either case (TypeID: lower case only,
//! as its spec says); the Crockford ones also read `I` and `L` as 1 and `O` as 0, as the ULID spec does.
//! Every other character, a first digit past the largest value, and a base32hex last digit with bits past the
//! 128 are errors naming the first such character's position (1-based, in characters).

use std::fmt;

/// Digits of a uuid in either base32 form.
pub const UUID_TEXT_LEN: usize = 26;
/// Digits of a uid8.
pub const UID8_TEXT_LEN: usize = 13;
/// The longest TypeID prefix.
pub const TYPEID_PREFIX_MAX: usize = 63;
pub const BASE32HEX_ALPHABET: &[u8; 32] = b"0123456789ABCDEFGHIJKLMNOPQRSTUV";
pub const CROCKFORD_ALPHABET: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";
/// TypeID's suffix alphabet: Crockford's, lower case.
pub const TYPEID_ALPHABET: &[u8; 32] = b"0123456789abcdefghjkmnpqrstvwxyz";

/// The text forms of a uuid that `comb_text`/`comb_parse` name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Encoding {
    Base32Hex,
    Crockford,
}

impl Encoding {
    pub const ALL: [Encoding; 2] = [Encoding::Base32Hex, Encoding::Crockford];

    /// The SQL name.
    pub fn name(self) -> &'static str {
        match self {
            Encoding::Base32Hex => "base32hex",
            Encoding::Crockford => "crockford",
        }
    }

    /// The encoding of a SQL name: exactly the lower-case names, nothing else.
    pub fn from_name(name: &str) -> Option<Encoding> {
        Encoding::ALL.into_iter().find(|e| e.name() == name)
    }

    /// "base32hex, crockford": what an error lists as the valid values.
    pub fn names() -> String {
        Encoding::ALL.map(Encoding::name).join(", ")
    }

    fn form(self) -> Form {
        match self {
            Encoding::Base32Hex => Form::Base32Hex,
            Encoding::Crockford => Form::Crockford,
        }
    }
}

/// A parser's rules: which characters are digits, and which values the first and last may take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    Base32Hex,
    Crockford,
    /// The 26 digits after a TypeID's prefix: Crockford's alphabet in lower case, no aliases.
    TypeIdSuffix,
    /// A uid8's 13 Crockford digits.
    Uid8,
}

impl Form {
    /// How an error message names the form's digits.
    pub fn digit_name(self) -> &'static str {
        match self {
            Form::Base32Hex => "base32hex digit",
            Form::Crockford | Form::Uid8 => "Crockford base32 digit",
            Form::TypeIdSuffix => "TypeID suffix digit (0-9 and a-z but i, l, o, u; lower case)",
        }
    }

    fn len(self) -> usize {
        match self {
            Form::Uid8 => UID8_TEXT_LEN,
            _ => UUID_TEXT_LEN,
        }
    }

    /// The value of one character, if it is a digit of the form.
    fn digit(self, c: char) -> Option<u8> {
        if !c.is_ascii() {
            return None;
        }
        let b = c as u8;
        match self {
            Form::Base32Hex => match b {
                b'0'..=b'9' => Some(b - b'0'),
                b'A'..=b'V' => Some(b - b'A' + 10),
                b'a'..=b'v' => Some(b - b'a' + 10),
                _ => None,
            },
            Form::Crockford | Form::Uid8 => match b.to_ascii_uppercase() {
                b'I' | b'L' => Some(1),
                b'O' => Some(0),
                upper => CROCKFORD_ALPHABET.iter().position(|&d| d == upper).map(|v| v as u8),
            },
            Form::TypeIdSuffix => TYPEID_ALPHABET.iter().position(|&d| d == b).map(|v| v as u8),
        }
    }

    /// The largest value the first digit may take (the digits hold more bits than the id has).
    fn first_max(self) -> u8 {
        match self {
            Form::Base32Hex => 31,
            Form::Crockford | Form::TypeIdSuffix => 7,
            Form::Uid8 => 15,
        }
    }
}

/// Why a text is not one of a form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TextError {
    /// `found` characters where the form has `expected`.
    Length { found: usize, expected: usize },
    /// The character at `position` (1-based, in characters) is not a digit of the form.
    NotADigit { position: usize, found: char, form: Form },
    /// The first digit is larger than the top bits of the id can be: 7 for a uuid, F for a uid8.
    FirstTooLarge { position: usize, found: char, max: char },
    /// A base32hex last digit whose two low bits, past the uuid's 128, are not zero.
    TrailingBits { position: usize, found: char },
}

impl TextError {
    /// The same error `offset` characters further into a longer text (a TypeID's suffix).
    fn shifted(self, offset: usize) -> TextError {
        match self {
            TextError::Length { .. } => self,
            TextError::NotADigit { position, found, form } => {
                TextError::NotADigit { position: position + offset, found, form }
            }
            TextError::FirstTooLarge { position, found, max } => {
                TextError::FirstTooLarge { position: position + offset, found, max }
            }
            TextError::TrailingBits { position, found } => {
                TextError::TrailingBits { position: position + offset, found }
            }
        }
    }
}

impl fmt::Display for TextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TextError::Length { found, expected } => write!(f, "{found} characters, expected {expected}"),
            TextError::NotADigit { position, found, form } => {
                write!(f, "\"{found}\" at position {position} is not a {}", form.digit_name())
            }
            TextError::FirstTooLarge { position, found, max } => {
                write!(f, "\"{found}\" at position {position} is above {max}, the largest first digit")
            }
            TextError::TrailingBits { position, found } => write!(
                f,
                "\"{found}\" at position {position} sets bits past the 128 of a uuid: the last digit is one of 048CGKOS"
            ),
        }
    }
}

/// The 26 base32hex digits of a uuid, upper case: PostgreSQL 19's `rtrim(encode(id::bytea, 'base32hex'), '=')`.
pub fn base32hex(id: &[u8; 16]) -> [u8; UUID_TEXT_LEN] {
    let v = u128::from_be_bytes(*id);
    let mut text = [0u8; UUID_TEXT_LEN];
    for (i, digit) in text.iter_mut().enumerate().take(UUID_TEXT_LEN - 1) {
        *digit = BASE32HEX_ALPHABET[((v >> (123 - 5 * i)) & 31) as usize];
    }
    text[UUID_TEXT_LEN - 1] = BASE32HEX_ALPHABET[((v & 7) << 2) as usize];
    text
}

/// The 26 Crockford digits of a uuid, from `alphabet` (upper case for ULID text, lower case for TypeID).
fn crockford_with(id: &[u8; 16], alphabet: &[u8; 32]) -> [u8; UUID_TEXT_LEN] {
    let v = u128::from_be_bytes(*id);
    let mut text = [0u8; UUID_TEXT_LEN];
    for (i, digit) in text.iter_mut().enumerate() {
        *digit = alphabet[((v >> (125 - 5 * i)) & 31) as usize];
    }
    text
}

/// The 26 Crockford base32 digits of a uuid, upper case: the ULID text of the same 128 bits.
pub fn crockford(id: &[u8; 16]) -> [u8; UUID_TEXT_LEN] {
    crockford_with(id, CROCKFORD_ALPHABET)
}

/// The text of a uuid in `encoding` (ASCII).
pub fn encode(id: &[u8; 16], encoding: Encoding) -> [u8; UUID_TEXT_LEN] {
    match encoding {
        Encoding::Base32Hex => base32hex(id),
        Encoding::Crockford => crockford(id),
    }
}

/// The digit values of `text` in `form`: its length, then each character, then the first digit's range,
/// then (base32hex) the last digit's low bits.
fn digits(text: &str, form: Form) -> Result<[u8; UUID_TEXT_LEN], TextError> {
    let expected = form.len();
    let found = text.chars().count();
    if found != expected {
        return Err(TextError::Length { found, expected });
    }
    let mut values = [0u8; UUID_TEXT_LEN];
    for (i, c) in text.chars().enumerate() {
        let position = i + 1;
        let value = form.digit(c).ok_or(TextError::NotADigit { position, found: c, form })?;
        if i == 0 && value > form.first_max() {
            let max = CROCKFORD_ALPHABET[form.first_max() as usize] as char;
            return Err(TextError::FirstTooLarge { position, found: c, max });
        }
        if form == Form::Base32Hex && i == expected - 1 && value & 3 != 0 {
            return Err(TextError::TrailingBits { position, found: c });
        }
        values[i] = value;
    }
    Ok(values)
}

/// A uuid from its text in `encoding`.
pub fn decode(text: &str, encoding: Encoding) -> Result<[u8; 16], TextError> {
    decode_form(text, encoding.form())
}

fn decode_form(text: &str, form: Form) -> Result<[u8; 16], TextError> {
    let values = digits(text, form)?;
    let v = match form {
        Form::Base32Hex => base32hex_value(&values),
        // Two zero bits and then the bits: the first digit is at most 7, so no bit is shifted out.
        _ => values.iter().fold(0u128, |v, &d| (v << 5) | d as u128),
    };
    Ok(v.to_be_bytes())
}

/// The 128 bits of 26 base32hex digits (130 bits whose last two are zero).
fn base32hex_value(values: &[u8; UUID_TEXT_LEN]) -> u128 {
    let head = values[..UUID_TEXT_LEN - 1].iter().fold(0u128, |v, &d| (v << 5) | d as u128);
    (head << 3) | (values[UUID_TEXT_LEN - 1] >> 2) as u128
}

/// A uid8's 13 Crockford digits, upper case: the bigint with its sign bit flipped, so the text sorts as
/// the bigint does (negative ids begin 0-7, the others 8-F).
pub fn uid8(id: i64) -> [u8; UID8_TEXT_LEN] {
    let u = (id as u64) ^ (1 << 63);
    let mut text = [0u8; UID8_TEXT_LEN];
    for (i, digit) in text.iter_mut().enumerate() {
        *digit = CROCKFORD_ALPHABET[((u >> (60 - 5 * i)) & 31) as usize];
    }
    text
}

/// A uid8 from its 13 Crockford digits.
pub fn uid8_decode(text: &str) -> Result<i64, TextError> {
    let values = digits(text, Form::Uid8)?;
    let u = values[..UID8_TEXT_LEN].iter().fold(0u64, |v, &d| (v << 5) | d as u64);
    Ok((u ^ (1 << 63)) as i64)
}

/// Why a TypeID or a TypeID prefix is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TypeIdError {
    /// A prefix longer than 63 characters.
    PrefixLength { found: usize },
    /// The prefix's character at `position` is not a lower-case ASCII letter (`underscore_allowed`: nor `_`,
    /// which may not begin or end a prefix).
    PrefixCharacter { position: usize, found: char, underscore_allowed: bool },
    /// A `_` at position 1 with nothing before it: a TypeID without a prefix has no separator.
    EmptyPrefixSeparator,
    /// The 26 digits after the prefix (positions counted in the whole text).
    Suffix(TextError),
    /// A valid TypeID of another type than the one expected.
    PrefixMismatch { found: String, expected: String },
}

impl fmt::Display for TypeIdError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TypeIdError::PrefixLength { found } => {
                write!(f, "a prefix of {found} characters, expected at most {TYPEID_PREFIX_MAX}")
            }
            TypeIdError::PrefixCharacter { position, found, underscore_allowed: true } => {
                write!(f, "\"{found}\" at position {position} is not a lower-case letter or _")
            }
            TypeIdError::PrefixCharacter { position, found, underscore_allowed: false } => write!(
                f,
                "\"{found}\" at position {position} is not a lower-case letter (a prefix begins and ends with one)"
            ),
            TypeIdError::EmptyPrefixSeparator => {
                write!(f, "\"_\" at position 1 is a separator without a prefix (no prefix, no _)")
            }
            TypeIdError::Suffix(TextError::Length { found, expected }) => {
                write!(f, "a suffix of {found} characters, expected {expected}")
            }
            TypeIdError::Suffix(error) => error.fmt(f),
            TypeIdError::PrefixMismatch { found, expected } => {
                write!(f, "the prefix is \"{found}\", expected \"{expected}\"")
            }
        }
    }
}

/// Checks a TypeID prefix: at most 63 characters of `a-z` and `_`, beginning and ending with a letter, or
/// empty. `offset` is where it starts in the text positions are counted in (0: the prefix alone).
pub fn check_prefix(prefix: &str, offset: usize) -> Result<(), TypeIdError> {
    let found = prefix.chars().count();
    if found > TYPEID_PREFIX_MAX {
        return Err(TypeIdError::PrefixLength { found });
    }
    for (i, c) in prefix.chars().enumerate() {
        let edge = i == 0 || i == found - 1;
        if !(c.is_ascii_lowercase() || (c == '_' && !edge)) {
            return Err(TypeIdError::PrefixCharacter { position: offset + i + 1, found: c, underscore_allowed: !edge });
        }
    }
    Ok(())
}

/// The TypeID of a uuid: `prefix`, `_` and the 26 lower-case Crockford digits; no `_` for an empty prefix.
pub fn typeid(id: &[u8; 16], prefix: &str) -> Result<String, TypeIdError> {
    check_prefix(prefix, 0)?;
    let suffix = crockford_with(id, TYPEID_ALPHABET);
    let mut text = String::with_capacity(prefix.len() + 1 + UUID_TEXT_LEN);
    if !prefix.is_empty() {
        text.push_str(prefix);
        text.push('_');
    }
    // The alphabet is ASCII.
    text.extend(suffix.iter().map(|&b| b as char));
    Ok(text)
}

/// The prefix and uuid of a TypeID, as the spec parses it: the prefix is what comes before the last `_`
/// (none without one), checked first, then the suffix; then, if given, the prefix must be `expected`.
pub fn typeid_decode<'a>(text: &'a str, expected: Option<&str>) -> Result<(&'a str, [u8; 16]), TypeIdError> {
    let (prefix, suffix, offset) = match text.rfind('_') {
        None => ("", text, 0),
        Some(0) => return Err(TypeIdError::EmptyPrefixSeparator),
        Some(at) => (&text[..at], &text[at + 1..], text[..at].chars().count() + 1),
    };
    check_prefix(prefix, 0)?;
    let id = decode_form(suffix, Form::TypeIdSuffix).map_err(|e| TypeIdError::Suffix(e.shifted(offset)))?;
    if let Some(expected) = expected {
        if prefix != expected {
            return Err(TypeIdError::PrefixMismatch { found: prefix.into(), expected: expected.into() });
        }
    }
    Ok((prefix, id))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn text(bytes: &[u8]) -> &str {
        std::str::from_utf8(bytes).unwrap()
    }

    fn id(hex: &str) -> [u8; 16] {
        u128::from_str_radix(&hex.replace('-', ""), 16).unwrap().to_be_bytes()
    }

    #[test]
    fn known_values() {
        // RFC 4648's base32hex test vectors ("foobar" and its prefixes) reach no 16 bytes; these are worked
        // out by hand from the bit layout and agree with Python's base64.b32hexencode (tests/text_forms.py).
        let zero = [0u8; 16];
        let ones = [0xffu8; 16];
        assert_eq!(text(&base32hex(&zero)), "00000000000000000000000000");
        assert_eq!(text(&base32hex(&ones)), "VVVVVVVVVVVVVVVVVVVVVVVVVS");
        assert_eq!(text(&crockford(&zero)), "00000000000000000000000000");
        assert_eq!(text(&crockford(&ones)), "7ZZZZZZZZZZZZZZZZZZZZZZZZZ");
        // The ULID spec's example bits (01ARZ3NDEKTSV4RRFFQ69G5FAV) and TypeID's valid-uuidv7 vector.
        assert_eq!(text(&crockford(&id("01563e3a-b5d3-d676-4c61-efb99302bd5b"))), "01ARZ3NDEKTSV4RRFFQ69G5FAV");
        assert_eq!(
            typeid(&id("01890a5d-ac96-774b-bcce-b302099a8057"), "prefix").unwrap(),
            "prefix_01h455vb4pex5vsknk084sn02q"
        );
        // base32hex of the last bit alone: 1 << 2 in the last digit.
        assert_eq!(text(&base32hex(&id("00000000-0000-0000-0000-000000000001"))), "00000000000000000000000004");
        assert_eq!(text(&uid8(0)), "8000000000000");
        assert_eq!(text(&uid8(i64::MIN)), "0000000000000");
        assert_eq!(text(&uid8(i64::MAX)), "FZZZZZZZZZZZZ");
        assert_eq!(text(&uid8(-1)), "7ZZZZZZZZZZZZ");
    }

    #[test]
    fn the_parsers_take_either_case_and_crockford_aliases() {
        let v = id("01563e3a-b5d3-d676-4c61-efb99302bd5b");
        assert_eq!(decode("01arz3ndektsv4rrffq69g5fav", Encoding::Crockford), Ok(v));
        assert_eq!(decode("O1ARZ3NDEKTSV4RRFFQ69G5FAV", Encoding::Crockford), Ok(v));
        // I and L are 1, O is 0, in either case.
        let ones = decode("01111111111111111111111111", Encoding::Crockford).unwrap();
        for alias in ["0IiLl111111111111111111111", "oiIlL111111111111111111111"] {
            assert_eq!(decode(alias, Encoding::Crockford), Ok(ones), "{alias}");
        }
        assert_eq!(uid8_decode("fzzzzzzzzzzzz"), Ok(i64::MAX));
        assert_eq!(uid8_decode("OOOOOOOOOOOOO"), Ok(i64::MIN));
        let b = base32hex(&v);
        assert_eq!(decode(&text(&b).to_lowercase(), Encoding::Base32Hex), Ok(v));
        // base32hex has no aliases: W-Z are not digits, I, L, O are (18, 21, 24).
        assert!(decode("0000000000000000000000000W", Encoding::Base32Hex).is_err());
        assert_eq!(
            decode("I0000000000000000000000000", Encoding::Base32Hex),
            Ok(id("90000000-0000-0000-0000-000000000000"))
        );
    }

    #[test]
    fn errors_name_the_length_or_the_first_bad_position() {
        assert_eq!(decode("", Encoding::Crockford), Err(TextError::Length { found: 0, expected: 26 }));
        assert_eq!(decode(&"0".repeat(27), Encoding::Base32Hex), Err(TextError::Length { found: 27, expected: 26 }));
        // Characters, not bytes: é is two bytes and one character.
        let accented = format!("{}é{}", "0".repeat(10), "0".repeat(15));
        assert_eq!(
            decode(&accented, Encoding::Crockford),
            Err(TextError::NotADigit { position: 11, found: 'é', form: Form::Crockford })
        );
        assert_eq!(
            decode("0000000000000000000000000U", Encoding::Crockford),
            Err(TextError::NotADigit { position: 26, found: 'U', form: Form::Crockford })
        );
        assert_eq!(
            decode("8ZZZZZZZZZZZZZZZZZZZZZZZZZ", Encoding::Crockford),
            Err(TextError::FirstTooLarge { position: 1, found: '8', max: '7' })
        );
        // A bad character earlier than a bad first digit's range is not checked first: position 1 first.
        assert_eq!(
            decode("80000000000000000000000U00", Encoding::Crockford),
            Err(TextError::FirstTooLarge { position: 1, found: '8', max: '7' })
        );
        assert_eq!(
            decode("0000000000000000000000000V", Encoding::Base32Hex),
            Err(TextError::TrailingBits { position: 26, found: 'V' })
        );
        assert_eq!(uid8_decode("G000000000000"), Err(TextError::FirstTooLarge { position: 1, found: 'G', max: 'F' }));
        assert_eq!(uid8_decode("000000000000"), Err(TextError::Length { found: 12, expected: 13 }));
        assert_eq!(
            decode("0000000000000000000000000U", Encoding::Crockford).unwrap_err().to_string(),
            "\"U\" at position 26 is not a Crockford base32 digit"
        );
    }

    #[test]
    fn encoding_names() {
        assert_eq!(Encoding::from_name("base32hex"), Some(Encoding::Base32Hex));
        assert_eq!(Encoding::from_name("crockford"), Some(Encoding::Crockford));
        for bad in ["Crockford", "ulid", "base32", "", "base32hex "] {
            assert_eq!(Encoding::from_name(bad), None, "{bad}");
        }
        assert_eq!(Encoding::names(), "base32hex, crockford");
    }

    #[test]
    fn typeid_prefixes() {
        let v = [0u8; 16];
        assert_eq!(typeid(&v, "").unwrap(), "00000000000000000000000000");
        assert_eq!(typeid(&v, "a_b").unwrap(), "a_b_00000000000000000000000000");
        let longest = "a".repeat(63);
        assert!(typeid(&v, &longest).is_ok());
        assert_eq!(typeid(&v, &"a".repeat(64)), Err(TypeIdError::PrefixLength { found: 64 }));
        assert_eq!(
            typeid(&v, "_a"),
            Err(TypeIdError::PrefixCharacter { position: 1, found: '_', underscore_allowed: false })
        );
        assert_eq!(
            typeid(&v, "ab_"),
            Err(TypeIdError::PrefixCharacter { position: 3, found: '_', underscore_allowed: false })
        );
        assert_eq!(
            typeid(&v, "aBc"),
            Err(TypeIdError::PrefixCharacter { position: 2, found: 'B', underscore_allowed: true })
        );
        assert_eq!(
            typeid(&v, "_"),
            Err(TypeIdError::PrefixCharacter { position: 1, found: '_', underscore_allowed: false })
        );
    }

    #[test]
    fn typeid_parsing() {
        let v = id("01890a5d-ac96-774b-bcce-b302099a8057");
        assert_eq!(typeid_decode("prefix_01h455vb4pex5vsknk084sn02q", None), Ok(("prefix", v)));
        assert_eq!(typeid_decode("prefix_01h455vb4pex5vsknk084sn02q", Some("prefix")), Ok(("prefix", v)));
        assert_eq!(
            typeid_decode("prefix_01h455vb4pex5vsknk084sn02q", Some("user")),
            Err(TypeIdError::PrefixMismatch { found: "prefix".into(), expected: "user".into() })
        );
        assert_eq!(
            typeid_decode("01h455vb4pex5vsknk084sn02q", Some("user")),
            Err(TypeIdError::PrefixMismatch { found: "".into(), expected: "user".into() })
        );
        assert_eq!(typeid_decode("01h455vb4pex5vsknk084sn02q", Some("")), Ok(("", v)));
        assert_eq!(typeid_decode("_01h455vb4pex5vsknk084sn02q", None), Err(TypeIdError::EmptyPrefixSeparator));
        // Positions count the whole text: the suffix starts at 8 after "prefix_".
        assert_eq!(
            typeid_decode("prefix_8zzzzzzzzzzzzzzzzzzzzzzzzz", None),
            Err(TypeIdError::Suffix(TextError::FirstTooLarge { position: 8, found: '8', max: '7' }))
        );
        assert_eq!(
            typeid_decode("prefix_0123456789ABCDEFGHJKMNPQRS", None),
            Err(TypeIdError::Suffix(TextError::NotADigit { position: 18, found: 'A', form: Form::TypeIdSuffix }))
        );
        assert_eq!(
            typeid_decode("préfix_00000000000000000000000000", None),
            Err(TypeIdError::PrefixCharacter { position: 3, found: 'é', underscore_allowed: true })
        );
        assert_eq!(
            typeid_decode("prefix_", None),
            Err(TypeIdError::Suffix(TextError::Length { found: 0, expected: 26 }))
        );
    }

    /// Characters that are never a digit of any form, and, per form, digits of the others that are not its.
    fn bad_characters(form: Form) -> Vec<char> {
        let mut bad: Vec<char> =
            vec!['-', '_', ' ', '=', '\t', '\n', '\0', '.', '/', ':', '@', '[', '`', '{', '~', 'é', 'ß', '€', '😀'];
        bad.extend(match form {
            Form::Base32Hex => "WXYZwxyz".chars().collect::<Vec<_>>(),
            Form::Crockford | Form::Uid8 => "Uu".chars().collect(),
            Form::TypeIdSuffix => "ABCDEFGHJKMNPQRSTVWXYZIiLlOoUu".chars().collect(),
        });
        bad
    }

    #[test]
    fn every_bad_character_at_every_position_is_refused_there() {
        let good = [
            (Form::Base32Hex, text(&base32hex(&[0x5a; 16])).to_string()),
            (Form::Crockford, text(&crockford(&[0x5a; 16])).to_string()),
            (Form::TypeIdSuffix, text(&crockford_with(&[0x5a; 16], TYPEID_ALPHABET)).to_string()),
            (Form::Uid8, text(&uid8(0x5a5a_5a5a_5a5a_5a5a)).to_string()),
        ];
        let mut checked = 0;
        for (form, good) in good {
            assert!(decode_form_or_uid8(&good, form).is_ok());
            let chars: Vec<char> = good.chars().collect();
            for position in 1..=chars.len() {
                for bad in bad_characters(form) {
                    let mut with = chars.clone();
                    with[position - 1] = bad;
                    let with: String = with.into_iter().collect();
                    assert_eq!(
                        decode_form_or_uid8(&with, form),
                        Err(TextError::NotADigit { position, found: bad, form }),
                        "{form:?} {with:?}"
                    );
                    checked += 1;
                }
            }
        }
        assert!(checked > 2000);
    }

    fn decode_form_or_uid8(text: &str, form: Form) -> Result<(), TextError> {
        match form {
            Form::Uid8 => uid8_decode(text).map(|_| ()),
            _ => decode_form(text, form).map(|_| ()),
        }
    }

    #[test]
    fn every_too_large_first_digit_and_every_base32hex_last_digit_with_low_bits() {
        for (i, &d) in CROCKFORD_ALPHABET.iter().enumerate() {
            let t = format!("{}{}", d as char, "0".repeat(25));
            assert_eq!(decode(&t, Encoding::Crockford).is_ok(), i <= 7, "{t}");
            let t = format!("{}{}", d as char, "0".repeat(12));
            assert_eq!(uid8_decode(&t).is_ok(), i <= 15, "{t}");
        }
        for (i, &d) in BASE32HEX_ALPHABET.iter().enumerate() {
            let t = format!("{}{}", "0".repeat(25), d as char);
            assert_eq!(decode(&t, Encoding::Base32Hex).is_ok(), i % 4 == 0, "{t}");
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(20_000))]

        #[test]
        fn uuid_round_trips_and_order(a: u128, b: u128) {
            let (x, y) = (a.to_be_bytes(), b.to_be_bytes());
            for encoding in Encoding::ALL {
                let (tx, ty) = (encode(&x, encoding), encode(&y, encoding));
                prop_assert_eq!(decode(text(&tx), encoding), Ok(x));
                prop_assert_eq!(decode(&text(&tx).to_lowercase(), encoding), Ok(x));
                prop_assert_eq!(tx.cmp(&ty), x.cmp(&y));
                // Lower case sorts the same way among itself (digits before letters in ASCII).
                prop_assert_eq!(text(&tx).to_lowercase().cmp(&text(&ty).to_lowercase()), x.cmp(&y));
            }
            let t = typeid(&x, "user").unwrap();
            prop_assert_eq!(typeid_decode(&t, Some("user")), Ok(("user", x)));
            prop_assert_eq!(&t[5..], text(&crockford(&x)).to_lowercase());
        }

        #[test]
        fn uid8_round_trips_and_sorts_as_the_bigint(a: i64, b: i64) {
            let (ta, tb) = (uid8(a), uid8(b));
            prop_assert_eq!(uid8_decode(text(&ta)), Ok(a));
            prop_assert_eq!(ta.cmp(&tb), a.cmp(&b));
        }

        #[test]
        fn near_valid_text_parses_only_to_what_writes_it_back(s in "[0-9A-Za-z_=-]{12,28}") {
            for encoding in Encoding::ALL {
                match decode(&s, encoding) {
                    Ok(v) => {
                        let again = encode(&v, encoding);
                        prop_assert_eq!(text(&again), canonical(&s, encoding));
                    }
                    Err(TextError::Length { found, .. }) => prop_assert_eq!(found, s.len()),
                    Err(_) => {}
                }
            }
            if let Ok(v) = uid8_decode(&s) {
                let again = uid8(v);
                prop_assert_eq!(text(&again), canonical(&s, Encoding::Crockford));
            }
            if let Ok((prefix, v)) = typeid_decode(&s, None) {
                prop_assert_eq!(typeid(&v, prefix).unwrap(), s.clone());
            }
        }

        #[test]
        fn decoders_never_panic_and_accept_only_what_re_encodes(s in "\\PC{0,30}") {
            for encoding in Encoding::ALL {
                if let Ok(v) = decode(&s, encoding) {
                    let again = encode(&v, encoding);
                    prop_assert_eq!(text(&again), canonical(&s, encoding));
                }
            }
            if let Ok((prefix, v)) = typeid_decode(&s, None) {
                prop_assert_eq!(typeid(&v, prefix).unwrap(), s.clone());
            }
            let _ = uid8_decode(&s);
        }
    }

    /// What a parsed text is once written back: upper case, Crockford's aliases resolved.
    fn canonical(s: &str, encoding: Encoding) -> String {
        let upper = s.to_ascii_uppercase();
        match encoding {
            Encoding::Base32Hex => upper,
            Encoding::Crockford => upper.replace(['I', 'L'], "1").replace('O', "0"),
        }
    }
}
