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
    Spi::run("SET enable_seqscan = off").unwrap();
    Spi::run("SET enable_sort = off").unwrap();
    let plan =
        Spi::get_one::<String>("EXPLAIN (COSTS OFF) SELECT id FROM shuffled ORDER BY id USING #<#").unwrap().unwrap();
    assert!(plan.contains("Index Only Scan using shuffled_sqlserver"), "{plan}");
    Spi::run("CREATE TEMP TABLE sorted AS SELECT id, row_number() OVER () AS n FROM (SELECT id FROM shuffled ORDER BY id USING #<#) s").unwrap();
    let got = positions(BY_POSITION);
    assert_eq!(got, (1..=total as i64).collect::<Vec<_>>());
}
