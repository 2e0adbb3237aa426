//! comb_ext: time-ordered identifiers generated and decoded inside PostgreSQL.
//! Layouts live in `core` (pure Rust); each family has one thin SQL-facing module.

pgrx::pg_module_magic!(name, version);

pub mod core;

mod comb;
mod errors;
mod planner;
mod sqlserver_order;

pgrx::extension_sql_file!(
    "../sql/sqlserver_order.sql",
    name = "sqlserver_order",
    requires = [
        sqlserver_order::uuid_sqlserver_cmp,
        sqlserver_order::uuid_sqlserver_lt,
        sqlserver_order::uuid_sqlserver_le,
        sqlserver_order::uuid_sqlserver_ge,
        sqlserver_order::uuid_sqlserver_gt,
        sqlserver_order::uuid_sqlserver_sortsupport,
    ]
);
pgrx::extension_sql_file!("../sql/comments.sql", name = "comments", finalize);

/// In-server tests live beside the other tests, in tests/pg/.
#[cfg(any(test, feature = "pg_test"))]
#[pgrx::pg_schema]
mod tests {
    include!("../tests/pg/mod.rs");
}

/// Required by `cargo pgrx test`.
#[cfg(test)]
pub mod pg_test {
    pub fn setup(_options: Vec<&str>) {}

    #[must_use]
    pub fn postgresql_conf_options() -> Vec<&'static str> {
        vec![]
    }
}
