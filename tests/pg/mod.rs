//! The in-server tests (`#[pg_test]`), built into the extension with the `pg_test` feature, one
//! module per family, with the SQL helpers they share.
//!
//! pgrx runs each test as `SELECT "tests"."<name>"()`. `#[pg_schema]` puts functions in schema
//! `tests` only when written directly in an inline `mod tests { ... }` (it cannot wrap a file
//! module, and a nested module's functions are not in its schema), which is why these files were
//! once `include!`d flat. Instead each test names the schema (`schema = "tests"`), which an empty
//! `#[pg_schema] mod tests {}` in src/lib.rs declares, so these are ordinary modules.

use pgrx::prelude::*;

mod comb;
mod muid;
mod shared_memory;
mod sno;
mod sqlserver_order;
mod text;
mod uid8;

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
    Spi::get_one::<String>(&format!("SELECT string_agg(e::text, E'\\n') FROM rows WHERE ({condition}) IS NOT TRUE"))
        .unwrap()
}

/// The entries of a JSON array as a temp view `rows(e jsonb)`, for `failures`; `within` picks the
/// array out of the document (e.g. `->'valid'`), or is empty.
fn load_entries(vectors: &str, within: &str) -> i64 {
    Spi::run_with_args("SELECT set_config('comb_test.vectors', $1, true)", &[vectors.into()]).unwrap();
    Spi::run(&format!(
        "CREATE TEMP VIEW rows AS SELECT e FROM jsonb_array_elements(current_setting('comb_test.vectors')::jsonb{within}) e"
    ))
    .unwrap();
    Spi::get_one::<i64>("SELECT count(*) FROM rows").unwrap().unwrap()
}
