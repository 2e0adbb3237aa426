// In-server conformance for the text forms: comb_text/comb_parse against tests/vectors/text/uuid.json
// (Python's base64 and python-ulid), uid8_text/uid8_parse against tests/vectors/text/uid8.json, and
// typeid_text/typeid_parse/typeid_prefix against the TypeID spec's valid and invalid lists
// (tests/vectors/typeid/), read at build time.

use super::*;

const UUID_TEXT: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/text/uuid.json"));
const UID8_TEXT: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/text/uid8.json"));
const TYPEID_VALID: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/typeid/valid.json"));
const TYPEID_INVALID: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/typeid/invalid.json"));

#[pg_test(schema = "tests")]
fn comb_text_matches_python_base64_and_python_ulid_for_every_entry() {
    assert_eq!(load_entries(UUID_TEXT, ""), 415);
    assert_eq!(
        failures(
            "comb_text((e->>'uuid')::uuid, 'base32hex') = e->>'base32hex'
             AND comb_text((e->>'uuid')::uuid, 'crockford') = e->>'crockford'
             AND comb_parse(e->>'base32hex', 'base32hex') = (e->>'uuid')::uuid
             AND comb_parse(lower(e->>'base32hex'), 'base32hex') = (e->>'uuid')::uuid
             AND comb_parse(e->>'crockford', 'crockford') = (e->>'uuid')::uuid
             AND comb_parse(lower(e->>'crockford'), 'crockford') = (e->>'uuid')::uuid"
        ),
        None
    );
}

#[pg_test(schema = "tests")]
fn uid8_text_matches_its_definition_for_every_entry() {
    assert_eq!(load_entries(UID8_TEXT, ""), 333);
    assert_eq!(
        failures(
            "uid8_text((e->>'int64')::bigint) = e->>'text' AND uid8_parse(e->>'text') = (e->>'int64')::bigint
             AND uid8_parse(lower(e->>'text')) = (e->>'int64')::bigint"
        ),
        None
    );
}

#[pg_test(schema = "tests")]
fn typeid_functions_match_the_spec_for_every_valid_entry() {
    assert_eq!(load_entries(TYPEID_VALID, ""), 9);
    assert_eq!(
        failures(
            "typeid_text((e->>'uuid')::uuid, e->>'prefix') = e->>'typeid'
             AND typeid_parse(e->>'typeid') = (e->>'uuid')::uuid
             AND typeid_parse(e->>'typeid', e->>'prefix') = (e->>'uuid')::uuid
             AND typeid_prefix(e->>'typeid') = e->>'prefix'"
        ),
        None
    );
}

#[pg_test(schema = "tests")]
fn typeid_functions_refuse_every_invalid_entry_with_22p02() {
    assert_eq!(load_entries(TYPEID_INVALID, ""), 21);
    create_sqlstate_function();
    assert_eq!(
        failures(
            "pg_temp.sqlstate(format('SELECT typeid_parse(%L)', e->>'typeid')) = '22P02'
             AND pg_temp.sqlstate(format('SELECT typeid_prefix(%L)', e->>'typeid')) = '22P02'
             AND pg_temp.sqlstate(format('SELECT typeid_parse(%L, %L)', e->>'typeid', 'prefix')) = '22P02'"
        ),
        None
    );
}
