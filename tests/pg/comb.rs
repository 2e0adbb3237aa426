// In-server conformance: the SQL functions against every entry of the RT.Comb and seed 001
// vectors. The files are read at build time (the server process may not be able to read the
// checkout) and checked set-wise in SQL, so what is tested is exactly what users call.


const CREATE: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/rtcomb/create.json"));
const DECODE: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/rtcomb/decode.json"));
const TICKS: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/ticks.json"));

/// Vector rows with their `comb_format` and, where given, their time as a `timestamptz`
/// (to_timestamp of whole seconds is exact in float8; the µs are added as an interval).
const ROWS: &str = "
    CREATE TEMP VIEW rows AS
    SELECT e,
           (CASE e->>'combo' WHEN 'pg_unix' THEN 'postgresql' WHEN 'sql_unix' THEN 'sqlserver'
                             WHEN 'sql_sqldt' THEN 'legacy' WHEN 'bin_unix' THEN 'binary'
                             WHEN 'pg_sqldt' THEN 'postgresql_sqldatetime'
                             WHEN 'bin_sqldt' THEN 'binary_sqldatetime' END)::comb_format AS f,
           to_timestamp(((e->>'timestamp_unix_us')::bigint / 1000000)::float8)
             + ((e->>'timestamp_unix_us')::bigint % 1000000) * interval '1 microsecond' AS ts
    FROM jsonb_array_elements(current_setting('comb_test.vectors')::jsonb) e";

fn load(vectors: &str) -> i64 {
    Spi::run_with_args("SELECT set_config('comb_test.vectors', $1, true)", &[vectors.into()]).unwrap();
    Spi::run(ROWS).unwrap();
    Spi::get_one::<i64>("SELECT count(*) FROM rows").unwrap().unwrap()
}

/// `pg_temp.from_unix_us(us)`: the timestamptz of a unix µs count, exactly. (extract(epoch ...) is a
/// float8 on PostgreSQL 13, which cannot hold every µs of year 9999; whole seconds through
/// to_timestamp and the rest as an interval are exact on every major.)
fn create_from_unix_us_function() {
    Spi::run(
        "CREATE FUNCTION pg_temp.from_unix_us(us numeric) RETURNS timestamptz LANGUAGE sql IMMUTABLE AS $$
         SELECT to_timestamp(div(us, 1000000)::float8) + mod(us, 1000000)::int * interval '1 microsecond' $$",
    )
    .unwrap();
}

/// `pg_temp.sqlstate(statement)`: 'accepted', or the SQLSTATE the statement raised.
fn create_sqlstate_function() {
    Spi::run(
        "CREATE FUNCTION pg_temp.sqlstate(statement text) RETURNS text LANGUAGE plpgsql AS $$
         BEGIN EXECUTE statement; RETURN 'accepted';
         EXCEPTION WHEN others THEN RETURN SQLSTATE; END $$",
    )
    .unwrap();
}

/// Rows (as text) for which `condition` is false or NULL; empty means every entry passed. NULL
/// fails too (`IS NOT TRUE`, not `NOT`): a vector field we misread or a function returning NULL
/// must not count as a pass.
fn failures(condition: &str) -> Option<String> {
    Spi::get_one::<String>(&format!("SELECT string_agg(e::text, E'\\n') FROM rows WHERE ({condition}) IS NOT TRUE")).unwrap()
}

#[pg_test]
fn comb_stamp_reproduces_rtcomb_create() {
    let total = load(CREATE);
    assert_eq!(total, 345);
    let departure = "e->'tags' ?| array['ms_not_floor', 'day_rollover_quirk']";
    let exact = failures(&format!("{departure} OR comb_stamp((e->>'base_guid')::uuid, ts, f) = (e->>'comb')::uuid"));
    assert_eq!(exact, None);
    // Documented departure: RT.Comb's double arithmetic is one unit off floor(t / unit); ours
    // decodes to the start of t's own unit, RT.Comb's to a different one.
    let departed = failures(&format!(
        "NOT ({departure}) OR (comb_stamp((e->>'base_guid')::uuid, ts, f) <> (e->>'comb')::uuid
           AND comb_timestamp(comb_stamp((e->>'base_guid')::uuid, ts, f), f) <= ts
           AND comb_timestamp(comb_stamp((e->>'base_guid')::uuid, ts, f), f) > ts - interval '1 ms'
           AND comb_timestamp((e->>'comb')::uuid, f) <> comb_timestamp(comb_stamp((e->>'base_guid')::uuid, ts, f), f))"
    ));
    assert_eq!(departed, None);
    let departures = Spi::get_one::<i64>(&format!("SELECT count(*) FROM rows WHERE {departure}")).unwrap().unwrap();
    assert!(departures > 0);
}

#[pg_test]
fn comb_timestamp_reproduces_rtcomb_decode() {
    assert_eq!(load(DECODE), 594);
    create_sqlstate_function();
    let decode = "format('SELECT comb_timestamp(%L::uuid, %L::comb_format)', e->>'comb', f)";
    // Where RT.Comb throws, we raise 22008.
    assert_eq!(failures(&format!("(e->>'ok')::bool OR pg_temp.sqlstate({decode}) = '22008'")), None);
    // Elsewhere the same µs; for the sqldatetime clock the first whole µs of the 1/300 s unit,
    // which is RT.Comb's 100 ns-truncated value or 1 µs after it.
    create_from_unix_us_function();
    let decoded = "comb_timestamp((e->>'comb')::uuid, f) - pg_temp.from_unix_us((e->>'decoded_unix_us')::numeric)";
    assert_eq!(
        failures(&format!(
            "NOT (e->>'ok')::bool OR {decoded} = interval '0'
             OR ({decoded} = interval '1 microsecond' AND f IN ('legacy', 'postgresql_sqldatetime', 'binary_sqldatetime'))"
        )),
        None
    );
}

#[pg_test]
fn ticks_combs_of_seed_001_decode() {
    assert_eq!(load(TICKS), 100);
    create_from_unix_us_function();
    // .NET ticks count 100 ns from 0001-01-01; 62135596800 s separate it from the Unix epoch.
    assert_eq!(
        failures(
            "comb_is_ticks((e->>'comb')::uuid) = (e->>'is_comb')::bool
             AND comb_timestamp((e->>'comb')::uuid, 'ticks')
                 = pg_temp.from_unix_us(div((e->>'ticks')::numeric, 10) - 62135596800000000)"
        ),
        None
    );
}
