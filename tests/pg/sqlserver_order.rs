// Conformance of uuid_sqlserver_ops with System.Data.SqlTypes.SqlGuid: every uuid of
// tests/vectors/rtcomb/sqlguid_order.json (ascending SqlGuid order), shuffled, comes back in
// the file's order from an in-memory sort and from an index scan.

use super::*;

const SQLGUID_ORDER: &str =
    include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/rtcomb/sqlguid_order.json"));

/// The uuids in the order a query returns them, numbered by their position in the file.
fn positions(query: &str) -> Vec<i64> {
    Spi::connect(|client| {
        client.select(query, None, &[]).unwrap().map(|row| row.get::<i64>(1).unwrap().unwrap()).collect()
    })
}

fn load_sqlguid_order() -> usize {
    Spi::run_with_args(
        "CREATE TEMP TABLE expected AS
         SELECT (value #>> '{}')::uuid AS id, ordinality AS position
         FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY",
        &[SQLGUID_ORDER.into()],
    )
    .unwrap();
    // Stored shuffled, so neither sort can inherit the file's order.
    Spi::run("CREATE TEMP TABLE shuffled AS SELECT id FROM expected ORDER BY md5(id::text)").unwrap();
    Spi::get_one::<i64>("SELECT count(*) FROM shuffled").unwrap().unwrap() as usize
}

const BY_POSITION: &str = "SELECT e.position FROM sorted s JOIN expected e USING (id) ORDER BY s.n";

#[pg_test(schema = "tests")]
fn sqlguid_order_by_in_memory_sort() {
    let total = load_sqlguid_order();
    assert_eq!(total, 600);
    Spi::run("SET enable_indexscan = off").unwrap();
    Spi::run("CREATE TEMP TABLE sorted AS SELECT id, row_number() OVER (ORDER BY id USING #<#) AS n FROM shuffled")
        .unwrap();
    let got = positions(BY_POSITION);
    assert_eq!(got, (1..=total as i64).collect::<Vec<_>>());
}

#[pg_test(schema = "tests")]
fn sqlguid_order_by_index_scan() {
    let total = load_sqlguid_order();
    Spi::run("CREATE INDEX shuffled_sqlserver ON shuffled (id uuid_sqlserver_ops)").unwrap();
    Spi::run("ANALYZE shuffled").unwrap();
    assert_index_returns_file_order("shuffled", "shuffled_sqlserver", total);
}

/// `table`'s uuids read in SQL Server order through its index `index` (sorts and sequential scans
/// off, and the plan checked) are the file's, in the file's order.
fn assert_index_returns_file_order(table: &str, index: &str, total: usize) {
    Spi::run("SET enable_seqscan = off").unwrap();
    Spi::run("SET enable_sort = off").unwrap();
    let in_order = format!("SELECT id FROM {table} ORDER BY id USING #<#");
    let plan = Spi::get_one::<String>(&format!("EXPLAIN (COSTS OFF) {in_order}")).unwrap().unwrap();
    assert!(plan.contains(&format!("Index Only Scan using {index}")), "{plan}");
    Spi::run(&format!("CREATE TEMP TABLE sorted AS SELECT id, row_number() OVER () AS n FROM ({in_order}) s")).unwrap();
    let got = positions(BY_POSITION);
    assert_eq!(got, (1..=total as i64).collect::<Vec<_>>());
}

/// Built by inserts (not by a sort, which compares with sort support): each key finds its place
/// through `uuid_sqlserver_cmp`, the bare C comparator (src/postgres/btree_cmp.rs), and the index
/// returns the file's order.
#[pg_test(schema = "tests")]
fn sqlguid_order_by_index_built_by_inserts() {
    let total = load_sqlguid_order();
    Spi::run("CREATE TEMP TABLE inserted (id uuid NOT NULL)").unwrap();
    Spi::run("CREATE UNIQUE INDEX inserted_sqlserver ON inserted (id uuid_sqlserver_ops)").unwrap();
    Spi::run("INSERT INTO inserted SELECT id FROM shuffled").unwrap();
    // A duplicate is found by the comparator too.
    create_sqlstate_function();
    let duplicate = Spi::get_one::<String>(
        "SELECT pg_temp.sqlstate('INSERT INTO inserted SELECT id FROM shuffled ORDER BY md5(id::text) DESC LIMIT 1')",
    )
    .unwrap()
    .unwrap();
    assert_eq!(duplicate, "23505");
    Spi::run("ANALYZE inserted").unwrap();
    assert_index_returns_file_order("inserted", "inserted_sqlserver", total);
}

/// The bare comparators' contract check: a NULL argument (only a C caller could pass one: the
/// functions are STRICT) gives SQL NULL, which the function manager turns into an ERROR, rather
/// than a read through a null pointer.
#[pg_test(schema = "tests")]
fn bare_comparators_answer_null_for_a_null_argument() {
    use crate::families::{sno::sno_cmp_wrapper, sqlserver_order::uuid_sqlserver_cmp_wrapper};
    let comparators: [unsafe extern "C-unwind" fn(pg_sys::FunctionCallInfo) -> pg_sys::Datum; 2] =
        [uuid_sqlserver_cmp_wrapper, sno_cmp_wrapper];
    for comparator in comparators {
        for null in [0, 1] {
            // SAFETY: a zeroed FunctionCallInfo with room for two arguments, as fmgr.h sizes one; the
            // non-null argument points at 16 zero bytes, enough for a uuid or a sno.
            unsafe {
                let size = std::mem::size_of::<pg_sys::FunctionCallInfoBaseData>()
                    + 2 * std::mem::size_of::<pg_sys::NullableDatum>();
                let fcinfo = pg_sys::palloc0(size).cast::<pg_sys::FunctionCallInfoBaseData>();
                let zeros = pg_sys::palloc0(16);
                (*fcinfo).nargs = 2;
                let args = (*fcinfo).args.as_mut_slice(2);
                for arg in args.iter_mut() {
                    arg.value = pg_sys::Datum::from(zeros);
                }
                args[null].isnull = true;
                comparator(fcinfo);
                assert!((*fcinfo).isnull);
                // Both present: equal, and not NULL.
                (*fcinfo).isnull = false;
                (*fcinfo).args.as_mut_slice(2)[null].isnull = false;
                assert_eq!(comparator(fcinfo).value() as i32, 0);
                assert!(!(*fcinfo).isnull);
            }
        }
    }
}
