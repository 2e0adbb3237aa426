// In-server conformance for muids: muid_pack, muid_unpack, muid_text and muid_parse against every
// entry of tests/vectors/muid/vectors.json (read at build time, checked set-wise).

use super::*;

const MUID_VECTORS: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/muid/vectors.json"));

/// The input offset as the `integer` with the same low 32 bits (Gink stores those bits; two of
/// its inputs lie outside `integer`, the documented departure).
const OFFSET_BITS: &str = "(((e->'input'->>'offset')::bigint & 4294967295) - CASE WHEN (e->'input'->>'offset')::bigint & 2147483648 <> 0 THEN 4294967296 ELSE 0 END)::int";

#[pg_test(schema = "tests")]
fn muid_functions_match_gink_for_every_valid_entry() {
    assert_eq!(load_entries(MUID_VECTORS, "->'valid'"), 167);
    let packed =
        format!("muid_pack((e->'input'->>'timestamp')::bigint, (e->'input'->>'medallion')::bigint, {OFFSET_BITS})");
    assert_eq!(
        failures(&format!(
            "{packed} = (e->>'uuid')::uuid
             AND muid_text({packed}) = e->>'canonical'
             AND muid_parse(e->>'canonical') = (e->>'uuid')::uuid
             AND muid_parse(lower(e->>'canonical')) = (e->>'uuid')::uuid"
        )),
        None
    );
    // Unpacking gives Gink's fields, its -1 for all bits set included.
    let muid_offset_bits = OFFSET_BITS.replace("'input'", "'muid'");
    assert_eq!(
        failures(&format!(
            "(SELECT u.timestamp = (e->'muid'->>'timestamp')::bigint AND u.medallion = (e->'muid'->>'medallion')::bigint
                     AND u.offset = {muid_offset_bits}
              FROM muid_unpack((e->>'uuid')::uuid) u)
             AND muid_medallion((e->>'uuid')::uuid) = (e->'muid'->>'medallion')::bigint
             AND muid_offset((e->>'uuid')::uuid) = {muid_offset_bits}
             AND muid_timestamp((e->>'uuid')::uuid) = CASE (e->'muid'->>'timestamp')::bigint
                   WHEN -1 THEN 'infinity'::timestamptz
                   ELSE to_timestamp(0) + (e->'muid'->>'timestamp')::bigint * interval '1 microsecond' END"
        )),
        None
    );
}

#[pg_test(schema = "tests")]
fn muid_pack_rejects_what_gink_rejects() {
    assert_eq!(load_entries(MUID_VECTORS, "->'rejected_construct'"), 5);
    create_sqlstate_function();
    let pack = "format('SELECT muid_pack(%L::bigint, %L::bigint, %L::int)', e->'input'->>'timestamp',
                       e->'input'->>'medallion', e->'input'->>'offset')";
    // 22003 out of range (ours, or integer's for the offsets), 22P02 for the float timestamp.
    assert_eq!(failures(&format!("pg_temp.sqlstate({pack}) IN ('22003', '22P02')")), None);
}

#[pg_test(schema = "tests")]
fn muid_parse_agrees_with_gink_except_on_the_documented_forms() {
    assert_eq!(load_entries(MUID_VECTORS, "->'parse_string'"), 10);
    Spi::run(
        "CREATE FUNCTION pg_temp.parsed(t text) RETURNS uuid LANGUAGE plpgsql AS $$
         BEGIN RETURN muid_parse(t); EXCEPTION WHEN invalid_text_representation THEN RETURN NULL; END $$",
    )
    .unwrap();
    let spec_form = "(e->>'string') ~ '^[0-9A-Fa-f]{13}(-[0-9A-Fa-f]{11}(-[0-9A-Fa-f]{8})?)?$'";
    // Accepted exactly when in the spec's forms; where Gink accepts too, the same muid.
    assert_eq!(
        failures(&format!(
            "(pg_temp.parsed(e->>'string') IS NOT NULL) = {spec_form}
             AND (NOT (e->>'accepted')::bool OR NOT {spec_form}
                  OR muid_text(pg_temp.parsed(e->>'string')) = e->>'canonical')"
        )),
        None
    );
    // The departures: one short form Gink refuses, two lax forms Gink takes.
    let departures =
        Spi::get_one::<i64>(&format!("SELECT count(*) FROM rows WHERE (e->>'accepted')::bool <> {spec_form}"));
    assert_eq!(departures, Ok(Some(3)));
}
