//! SQL surface of keyed masking (docs/ids-that-do-not-tell-their-age.md#masking): `comb_mask`/
//! `comb_unmask`, `muid_mask`/`muid_unmask`, `sno_mask`/`sno_unmask` and `uid8_mask`/`uid8_unmask`,
//! each with the setting's default key, a key id of the setting, or a key passed as bytea (that form
//! alone is IMMUTABLE: it depends on nothing but its arguments). The permutations are `rules::mask`.

use crate::families::comb::FormatArg;
use crate::families::sno::Sno;
use crate::postgres::errors;
use crate::rules::comb::Format;
use crate::rules::mask::{self, Feistel, Key, MaskError};
use crate::server::mask_key;
use pgrx::prelude::*;
use pgrx::{PgSqlErrorCode, Uuid};

const NOT_OF_FORMAT_HINT: &str = "comb_mask takes a COMB of the format: version 4 and variant bits 10 (uuidv7: \
     version 7; ticks: the marker c as the third group's third hex digit) and a time the format holds.";

fn mask_uuid(function: &str, id: Uuid, format: Format, key: Key) -> Uuid {
    // The errors name neither the id nor its time: the id is the value masking hides, and an error
    // can reach whoever the masked ids are for (a client, a log).
    match mask::mask_comb(id.as_bytes(), format, &key) {
        Ok(facade) => Uuid::from_bytes(facade),
        Err(MaskError::Comb(_)) => errors::datetime_out_of_range(format!(
            "{function}: the id is not a comb_format {} value: its time field holds no time the format holds",
            format.name()
        )),
        Err(error @ MaskError::FixedBits { .. }) => errors::raise(
            PgSqlErrorCode::ERRCODE_INVALID_TEXT_REPRESENTATION,
            format!("{function}: the id is not a comb_format {} value: {error}", format.name()),
            Some(NOT_OF_FORMAT_HINT),
        ),
    }
}

fn unmask_uuid(function: &str, facade: Uuid, format: Format, key: Key) -> Uuid {
    match mask::unmask_comb(facade.as_bytes(), format, &key) {
        Ok(id) => Uuid::from_bytes(id),
        Err(error) => errors::raise(
            PgSqlErrorCode::ERRCODE_INVALID_TEXT_REPRESENTATION,
            format!(
                "{function}: uuid {facade} is not a masked comb_format {} value under this key: {}",
                format.name(),
                match error {
                    // Not the unmasked field itself: an error must not decrypt for whoever sends ids.
                    MaskError::Comb(_) => "it unmasks to no time the format holds".to_string(),
                    other => other.to_string(),
                }
            ),
            Some("comb_mask makes masked values; each unmasks only in the format and under the key that made it."),
        ),
    }
}

// ---- COMB formats: uuidv47's construction on the format's time field.

/// The masked form of a COMB of `format` (default postgresql), under the default key of
/// comb_ext.mask_key: the time field hidden, version 4. For uuidv7, uuidv47's façade.
#[pg_extern(stable, strict, parallel_safe)]
fn comb_mask(id: Uuid, format: default!(FormatArg, "'postgresql'")) -> Uuid {
    mask_uuid("comb_mask", id, format.into(), mask_key::key("comb_mask", None))
}

/// `comb_mask` under the key with `key_id` in comb_ext.mask_key.
#[pg_extern(stable, strict, parallel_safe, name = "comb_mask")]
fn comb_mask_key_id(id: Uuid, format: FormatArg, key_id: i32) -> Uuid {
    mask_uuid("comb_mask", id, format.into(), mask_key::key("comb_mask", Some(key_id)))
}

/// `comb_mask` under a key given as 16 bytes (k0 then k1, each little-endian).
#[pg_extern(immutable, strict, parallel_safe, name = "comb_mask")]
fn comb_mask_key(id: Uuid, format: FormatArg, key: &[u8]) -> Uuid {
    mask_uuid("comb_mask", id, format.into(), mask_key::explicit_key("comb_mask", key))
}

/// The COMB of `format` (default postgresql) a masked value stands for, under the default key of
/// comb_ext.mask_key. A uuid that no COMB of the format masks to under it is 22P02.
#[pg_extern(stable, strict, parallel_safe)]
fn comb_unmask(id: Uuid, format: default!(FormatArg, "'postgresql'")) -> Uuid {
    unmask_uuid("comb_unmask", id, format.into(), mask_key::key("comb_unmask", None))
}

/// `comb_unmask` under the key with `key_id` in comb_ext.mask_key.
#[pg_extern(stable, strict, parallel_safe, name = "comb_unmask")]
fn comb_unmask_key_id(id: Uuid, format: FormatArg, key_id: i32) -> Uuid {
    unmask_uuid("comb_unmask", id, format.into(), mask_key::key("comb_unmask", Some(key_id)))
}

/// `comb_unmask` under a key given as 16 bytes.
#[pg_extern(immutable, strict, parallel_safe, name = "comb_unmask")]
fn comb_unmask_key(id: Uuid, format: FormatArg, key: &[u8]) -> Uuid {
    unmask_uuid("comb_unmask", id, format.into(), mask_key::explicit_key("comb_unmask", key))
}

// ---- muid, sno, uid8: a Feistel network over the whole id; every value of the type is some id's mask.

fn muid_apply(id: Uuid, key: Key, unmask: bool) -> Uuid {
    Uuid::from_bytes(Feistel::Muid.apply(id.as_bytes(), &key, unmask))
}

fn sno_apply(id: Sno, key: Key, unmask: bool) -> Sno {
    Sno::from_bytes(Feistel::Sno.apply(&id.bytes(), &key, unmask))
}

fn uid8_apply(id: i64, key: Key, unmask: bool) -> i64 {
    i64::from_be_bytes(Feistel::Uid8.apply(&id.to_be_bytes(), &key, unmask))
}

/// The masked form of a muid under the default key of comb_ext.mask_key: another uuid, from which
/// nothing of the muid can be read without the key.
#[pg_extern(stable, strict, parallel_safe)]
fn muid_mask(id: Uuid) -> Uuid {
    muid_apply(id, mask_key::key("muid_mask", None), false)
}

/// `muid_mask` under the key with `key_id` in comb_ext.mask_key.
#[pg_extern(stable, strict, parallel_safe, name = "muid_mask")]
fn muid_mask_key_id(id: Uuid, key_id: i32) -> Uuid {
    muid_apply(id, mask_key::key("muid_mask", Some(key_id)), false)
}

/// `muid_mask` under a key given as 16 bytes.
#[pg_extern(immutable, strict, parallel_safe, name = "muid_mask")]
fn muid_mask_key(id: Uuid, key: &[u8]) -> Uuid {
    muid_apply(id, mask_key::explicit_key("muid_mask", key), false)
}

/// The muid a masked uuid stands for, under the default key of comb_ext.mask_key.
#[pg_extern(stable, strict, parallel_safe)]
fn muid_unmask(id: Uuid) -> Uuid {
    muid_apply(id, mask_key::key("muid_unmask", None), true)
}

/// `muid_unmask` under the key with `key_id` in comb_ext.mask_key.
#[pg_extern(stable, strict, parallel_safe, name = "muid_unmask")]
fn muid_unmask_key_id(id: Uuid, key_id: i32) -> Uuid {
    muid_apply(id, mask_key::key("muid_unmask", Some(key_id)), true)
}

/// `muid_unmask` under a key given as 16 bytes.
#[pg_extern(immutable, strict, parallel_safe, name = "muid_unmask")]
fn muid_unmask_key(id: Uuid, key: &[u8]) -> Uuid {
    muid_apply(id, mask_key::explicit_key("muid_unmask", key), true)
}

/// The masked form of a sno under the default key of comb_ext.mask_key: another sno.
#[pg_extern(stable, strict, parallel_safe, requires = ["sno_type"])]
fn sno_mask(id: Sno) -> Sno {
    sno_apply(id, mask_key::key("sno_mask", None), false)
}

/// `sno_mask` under the key with `key_id` in comb_ext.mask_key.
#[pg_extern(stable, strict, parallel_safe, name = "sno_mask", requires = ["sno_type"])]
fn sno_mask_key_id(id: Sno, key_id: i32) -> Sno {
    sno_apply(id, mask_key::key("sno_mask", Some(key_id)), false)
}

/// `sno_mask` under a key given as 16 bytes.
#[pg_extern(immutable, strict, parallel_safe, name = "sno_mask", requires = ["sno_type"])]
fn sno_mask_key(id: Sno, key: &[u8]) -> Sno {
    sno_apply(id, mask_key::explicit_key("sno_mask", key), false)
}

/// The sno a masked sno stands for, under the default key of comb_ext.mask_key.
#[pg_extern(stable, strict, parallel_safe, requires = ["sno_type"])]
fn sno_unmask(id: Sno) -> Sno {
    sno_apply(id, mask_key::key("sno_unmask", None), true)
}

/// `sno_unmask` under the key with `key_id` in comb_ext.mask_key.
#[pg_extern(stable, strict, parallel_safe, name = "sno_unmask", requires = ["sno_type"])]
fn sno_unmask_key_id(id: Sno, key_id: i32) -> Sno {
    sno_apply(id, mask_key::key("sno_unmask", Some(key_id)), true)
}

/// `sno_unmask` under a key given as 16 bytes.
#[pg_extern(immutable, strict, parallel_safe, name = "sno_unmask", requires = ["sno_type"])]
fn sno_unmask_key(id: Sno, key: &[u8]) -> Sno {
    sno_apply(id, mask_key::explicit_key("sno_unmask", key), true)
}

/// The masked form of a bigint (a uid8 or any other) under the default key of comb_ext.mask_key.
#[pg_extern(stable, strict, parallel_safe)]
fn uid8_mask(id: i64) -> i64 {
    uid8_apply(id, mask_key::key("uid8_mask", None), false)
}

/// `uid8_mask` under the key with `key_id` in comb_ext.mask_key.
#[pg_extern(stable, strict, parallel_safe, name = "uid8_mask")]
fn uid8_mask_key_id(id: i64, key_id: i32) -> i64 {
    uid8_apply(id, mask_key::key("uid8_mask", Some(key_id)), false)
}

/// `uid8_mask` under a key given as 16 bytes.
#[pg_extern(immutable, strict, parallel_safe, name = "uid8_mask")]
fn uid8_mask_key(id: i64, key: &[u8]) -> i64 {
    uid8_apply(id, mask_key::explicit_key("uid8_mask", key), false)
}

/// The bigint a masked bigint stands for, under the default key of comb_ext.mask_key.
#[pg_extern(stable, strict, parallel_safe)]
fn uid8_unmask(id: i64) -> i64 {
    uid8_apply(id, mask_key::key("uid8_unmask", None), true)
}

/// `uid8_unmask` under the key with `key_id` in comb_ext.mask_key.
#[pg_extern(stable, strict, parallel_safe, name = "uid8_unmask")]
fn uid8_unmask_key_id(id: i64, key_id: i32) -> i64 {
    uid8_apply(id, mask_key::key("uid8_unmask", Some(key_id)), true)
}

/// `uid8_unmask` under a key given as 16 bytes.
#[pg_extern(immutable, strict, parallel_safe, name = "uid8_unmask")]
fn uid8_unmask_key(id: i64, key: &[u8]) -> i64 {
    uid8_apply(id, mask_key::explicit_key("uid8_unmask", key), true)
}
