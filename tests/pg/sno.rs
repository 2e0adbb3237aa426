// In-server conformance for sno: the type's text input and output, sno_from_parts and the
// accessors against every entry of tests/vectors/sno (read at build time, checked set-wise).

use super::*;

const SNO_ENCODE: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/sno/encode.json"));
const SNO_COMPONENTS: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/sno/components.json"));
const SNO_DECODE_INVALID: &str =
    include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/sno/decode_invalid.json"));

#[pg_test(schema = "tests")]
fn sno_text_io_matches_sno_encode() {
    assert_eq!(load_entries(SNO_ENCODE, ""), 167);
    assert_eq!(
        failures(
            "(e->>'string')::sno::text = e->>'string'
             AND (e->>'string')::sno::bytea = decode(e->>'hex', 'hex')
             AND decode(e->>'hex', 'hex')::sno::text = e->>'string'"
        ),
        None
    );
}

#[pg_test(schema = "tests")]
fn sno_from_parts_and_accessors_match_sno_components() {
    assert_eq!(load_entries(SNO_COMPONENTS, ""), 86);
    // The input's ns floored to µs: the same 4 ms unit.
    let ts = "(to_timestamp(((e->'input'->>'unix_ns')::bigint / 1000000000)::float8)
               + ((e->'input'->>'unix_ns')::bigint % 1000000000 / 1000) * interval '1 microsecond')";
    assert_eq!(
        failures(&format!(
            "sno_from_parts({ts}, (e->'input'->>'meta')::int, (e->'input'->>'partition')::int,
                            (e->'input'->>'sequence')::int, (e->'input'->>'tick')::int = 1)::text = e->>'string'"
        )),
        None
    );
    assert_eq!(
        failures(
            "(extract(epoch FROM sno_time((e->>'string')::sno)) * 1000)::bigint = (e->>'time_unix_ms')::bigint
             AND sno_meta((e->>'string')::sno) = (e->>'meta')::int
             AND sno_partition((e->>'string')::sno) = (e->>'partition')::int
             AND sno_sequence((e->>'string')::sno) = (e->>'sequence')::int
             AND sno_tick((e->>'string')::sno) = ((e->>'tick_bit')::int = 1)"
        ),
        None
    );
}

/// SQLSTATE of the sno type's input function on raw bytes (up to the first NUL, as a C string
/// ends there), called the way PostgreSQL calls it for any text input.
fn sno_input_sqlstate(bytes: &[u8]) -> String {
    let text: Vec<u8> = bytes.iter().copied().take_while(|&b| b != 0).collect();
    let text = std::ffi::CString::new(text).unwrap();
    PgTryBuilder::new(|| unsafe {
        let (mut input, mut ioparam) = (pg_sys::InvalidOid, pg_sys::InvalidOid);
        pg_sys::getTypeInputInfo(pgrx::wrappers::regtypein("sno"), &mut input, &mut ioparam);
        pg_sys::OidInputFunctionCall(input, text.as_ptr().cast_mut(), ioparam, -1);
        "accepted".to_string()
    })
    .catch_others(|error| match error {
        pg_sys::panic::CaughtError::PostgresError(report) | pg_sys::panic::CaughtError::ErrorReport(report) => {
            format!("{:?}", report.sql_error_code())
        }
        other => format!("{other:?}"),
    })
    .execute()
}

#[pg_test(schema = "tests")]
fn sno_input_rejects_every_decode_invalid_entry() {
    // One input holds a NUL, which PostgreSQL's JSON functions refuse to unescape even in a
    // field not read; only `input_hex` is used, so the escape is swapped out before parsing.
    let hexes = Spi::get_one_with_args::<Vec<String>>(
        "SELECT array_agg(e->>'input_hex') FROM jsonb_array_elements($1::jsonb) e",
        &[SNO_DECODE_INVALID.replace("\\u0000", "NUL").into()],
    )
    .unwrap()
    .unwrap();
    assert_eq!(hexes.len(), 163);
    Spi::run(
        "CREATE FUNCTION pg_temp.cast_sqlstate(t text) RETURNS text LANGUAGE plpgsql AS
         $$ BEGIN PERFORM t::sno; RETURN 'accepted'; EXCEPTION WHEN others THEN RETURN SQLSTATE; END $$",
    )
    .unwrap();
    let mut through_sql = 0;
    for hex in &hexes {
        let bytes: Vec<u8> =
            (0..hex.len()).step_by(2).map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap()).collect();
        assert_eq!(sno_input_sqlstate(&bytes), "ERRCODE_INVALID_TEXT_REPRESENTATION", "input {hex}");
        // Entries a UTF-8 database can carry as text also go through an SQL cast.
        if let Some(text) = std::str::from_utf8(&bytes).ok().filter(|t| !t.contains('\0')) {
            let state = Spi::get_one_with_args::<String>("SELECT pg_temp.cast_sqlstate($1)", &[text.into()]).unwrap();
            assert_eq!(state.as_deref(), Some("22P02"), "input {hex}");
            through_sql += 1;
        }
    }
    assert!(through_sql > 70, "only {through_sql} entries went through SQL");
}

/// This server does not preload comb_ext: the generator's shared struct is created on first use.
#[pg_test(schema = "tests")]
fn sno_new_works_without_shared_preload_libraries() {
    let preloaded = Spi::get_one::<bool>("SELECT current_setting('shared_preload_libraries') LIKE '%comb_ext%'");
    assert_eq!(preloaded, Ok(Some(false)));
    Spi::run("CREATE TEMP TABLE made AS SELECT n, sno_new() AS id FROM generate_series(1, 10000) n").unwrap();
    let check = Spi::get_one::<bool>(
        "SELECT count(DISTINCT id) = 10000 AND bool_and(id::bytea > previous::bytea) FILTER (WHERE n > 1)
         FROM (SELECT n, id, lag(id) OVER (ORDER BY n) AS previous FROM made) s",
    );
    assert_eq!(check, Ok(Some(true)));
    let attached =
        Spi::get_one::<i64>("SELECT count(*) FROM pg_shmem_allocations WHERE name = 'comb_ext sno generator v2'");
    assert_eq!(attached, Ok(Some(1)));
}
