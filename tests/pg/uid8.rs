// In-server conformance for 8-byte unique IDs: uid8_from_parts, the decoders and the bytea
// conversion against every entry of tests/vectors/uid8/vectors.json, both directions.

use super::*;

const UID8_VECTORS: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/uid8/vectors.json"));

/// A vector's mode as uid8_mode; null is the library default, SPREAD.
const UID8_MODE: &str =
    "(CASE coalesce(e->'input'->>'mode', 'SPREAD') WHEN 'SPREAD' THEN 'spread' ELSE 'time_sequential' END)::uid8_mode";

#[pg_test(schema = "tests")]
fn uid8_functions_match_the_library_for_every_entry() {
    assert_eq!(load_entries(UID8_VECTORS, "->'vectors'"), 167);
    assert_eq!(
        failures(&format!(
            "uid8_from_parts((e->'input'->>'timestamp')::bigint, (e->'input'->>'sequence')::int,
                             (e->'input'->>'generator_id')::int, (e->'input'->>'cluster_id')::int, {UID8_MODE})
               = (e->>'int64')::bigint
             AND uid8_to_bytea((e->>'int64')::bigint) = decode(e->>'bytes_hex', 'hex')
             AND uid8_from_bytea(decode(e->>'bytes_hex', 'hex')) = (e->>'int64')::bigint"
        )),
        None
    );
    assert_eq!(
        failures(
            "uid8_timestamp((e->>'int64')::bigint) = to_timestamp(0) + (e->'decoded'->>'timestamp')::bigint * interval '1 millisecond'
             AND uid8_sequence((e->>'int64')::bigint) = (e->'decoded'->>'sequence')::int
             AND uid8_generator((e->>'int64')::bigint) = (e->'decoded'->>'generator_id')::int
             AND uid8_cluster((e->>'int64')::bigint) = (e->'decoded'->>'cluster_id')::int
             AND uid8_mode((e->>'int64')::bigint)::text = lower(e->'decoded'->>'mode')"
        ),
        None
    );
}

#[pg_test(schema = "tests")]
fn uid8_rejects_what_the_library_rejects() {
    assert_eq!(load_entries(UID8_VECTORS, "->'rejected'"), 7);
    create_sqlstate_function();
    let call = "CASE WHEN e->'input' ? 'bytes_hex'
                THEN format('SELECT uid8_from_bytea(decode(%L, ''hex''))', e->'input'->>'bytes_hex')
                ELSE format('SELECT uid8_from_parts(coalesce(%L::bigint, 0), coalesce(%L::int, 0), %L::int, %L::int)',
                            e->'input'->>'timestamp', e->'input'->>'sequence', e->'input'->>'generator_id',
                            e->'input'->>'cluster_id') END";
    let expected = "CASE WHEN e->'input' ? 'bytes_hex' THEN '22P03' ELSE '22003' END";
    assert_eq!(failures(&format!("pg_temp.sqlstate({call}) = {expected}")), None);
}
