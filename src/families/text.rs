//! SQL surface of the short text forms (docs/ids-that-do-not-tell-their-age.md#short-text-forms-that-sort):
//! `comb_text`/`comb_parse` (base32hex and Crockford base32 of any uuid), `typeid_text`/`typeid_parse`/
//! `typeid_prefix` (TypeID), `uid8_text`/`uid8_parse` (13 Crockford digits of a bigint); argument checks
//! and error reports around `rules::text`.

use crate::postgres::errors;
use crate::rules::text::{self, Encoding, TextError, TypeIdError};
use pgrx::prelude::*;
use pgrx::Uuid;

const BASE32HEX_HINT: &str = "A base32hex uuid is 26 digits of 0123456789ABCDEFGHIJKLMNOPQRSTUV in either case, the last \
     one of 048CGKOS, as PostgreSQL 19's rtrim(encode(id::bytea, 'base32hex'), '=') writes it.";
const CROCKFORD_HINT: &str = "A crockford uuid is 26 digits of 0123456789ABCDEFGHJKMNPQRSTVWXYZ in either case (I and L \
     read as 1, O as 0), the first at most 7.";
const TYPEID_HINT: &str = "A TypeID is a prefix of at most 63 characters of a-z and _ that begins and ends with a \
     letter, then _, then 26 digits of 0123456789abcdefghjkmnpqrstvwxyz, the first at most 7; without a prefix, the 26 \
     digits alone.";
const PREFIX_HINT: &str =
    "A TypeID prefix is at most 63 characters of a-z and _ that begins and ends with a letter, or empty.";
const UID8_HINT: &str = "A uid8 text is 13 digits of 0123456789ABCDEFGHJKMNPQRSTVWXYZ in either case (I and L read as \
     1, O as 0), the first at most F.";

/// The encoding a `comb_text`/`comb_parse` argument names, or 22023 listing the valid ones.
fn encoding_of(function: &str, name: &str) -> Encoding {
    match Encoding::from_name(name) {
        Some(encoding) => encoding,
        None => errors::invalid_parameter(
            format!("{function}: unknown encoding \"{name}\": valid values are {}", Encoding::names()),
            None,
        ),
    }
}

/// The digits as text (they are ASCII).
fn ascii(digits: &[u8]) -> String {
    digits.iter().map(|&b| b as char).collect()
}

/// The 26 digits of a uuid in `encoding` (base32hex or crockford), upper case; fixed width, so under
/// COLLATE "C" the texts sort as the uuids do.
#[pg_extern(immutable, strict, parallel_safe)]
fn comb_text(id: Uuid, encoding: &str) -> String {
    ascii(&text::encode(id.as_bytes(), encoding_of("comb_text", encoding)))
}

/// The uuid of 26 digits in `encoding`, either case (crockford: I and L are 1, O is 0).
#[pg_extern(immutable, strict, parallel_safe)]
fn comb_parse(text: &str, encoding: &str) -> Uuid {
    let encoding = encoding_of("comb_parse", encoding);
    match text::decode(text, encoding) {
        Ok(bytes) => Uuid::from_bytes(bytes),
        Err(error) => {
            let hint = match encoding {
                Encoding::Base32Hex => BASE32HEX_HINT,
                Encoding::Crockford => CROCKFORD_HINT,
            };
            errors::invalid_text(format!("comb_parse: invalid {} text \"{text}\": {error}", encoding.name()), hint)
        }
    }
}

/// 22023 for a prefix argument that breaks the TypeID spec's rules.
fn invalid_prefix(function: &str, prefix: &str, error: TypeIdError) -> ! {
    errors::invalid_parameter(format!("{function}: invalid TypeID prefix \"{prefix}\": {error}"), Some(PREFIX_HINT))
}

/// The TypeID of a uuid: `prefix`, `_`, and its 26 lower-case Crockford digits (no `_` when `prefix` is
/// empty). A prefix that is not at most 63 characters of a-z and _, beginning and ending with a letter, is
/// 22023.
#[pg_extern(immutable, strict, parallel_safe)]
fn typeid_text(id: Uuid, prefix: &str) -> String {
    match text::typeid(id.as_bytes(), prefix) {
        Ok(typeid) => typeid,
        Err(error) => invalid_prefix("typeid_text", prefix, error),
    }
}

fn parse_typeid<'a>(function: &str, typeid: &'a str, expected: Option<&str>) -> (&'a str, Uuid) {
    match text::typeid_decode(typeid, expected) {
        Ok((prefix, bytes)) => (prefix, Uuid::from_bytes(bytes)),
        Err(error) => errors::invalid_text(format!("{function}: invalid TypeID \"{typeid}\": {error}"), TYPEID_HINT),
    }
}

/// The uuid of a TypeID of any prefix (the TypeID spec's rules; 22P02 naming the first bad position).
#[pg_extern(immutable, strict, parallel_safe, name = "typeid_parse")]
fn typeid_parse_any(text: &str) -> Uuid {
    parse_typeid("typeid_parse", text, None).1
}

/// The uuid of a TypeID whose prefix is `expected_prefix` ('' for none); another prefix is 22P02.
#[pg_extern(immutable, strict, parallel_safe, name = "typeid_parse")]
fn typeid_parse_expected(text: &str, expected_prefix: &str) -> Uuid {
    if let Err(error) = text::check_prefix(expected_prefix, 0) {
        invalid_prefix("typeid_parse", expected_prefix, error)
    }
    parse_typeid("typeid_parse", text, Some(expected_prefix)).1
}

/// The prefix of a valid TypeID ('' for none).
#[pg_extern(immutable, strict, parallel_safe)]
fn typeid_prefix(text: &str) -> String {
    parse_typeid("typeid_prefix", text, None).0.to_string()
}

/// A uid8's 13 Crockford digits, upper case: the bigint with its sign bit flipped, so that under
/// COLLATE "C" the texts sort as the bigints do.
#[pg_extern(immutable, strict, parallel_safe)]
fn uid8_text(id: i64) -> String {
    ascii(&text::uid8(id))
}

/// The bigint of 13 Crockford digits, either case (I and L are 1, O is 0).
#[pg_extern(immutable, strict, parallel_safe)]
fn uid8_parse(text: &str) -> i64 {
    match text::uid8_decode(text) {
        Ok(id) => id,
        Err(error) => invalid_uid8(text, error),
    }
}

fn invalid_uid8(text: &str, error: TextError) -> ! {
    errors::invalid_text(format!("uid8_parse: invalid uid8 text \"{text}\": {error}"), UID8_HINT)
}
