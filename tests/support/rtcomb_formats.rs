//! RT.Comb's vector combos (tests/vectors/README.md) and the `comb_format` label each stands for:
//! one table for the Rust-level conformance tests (`tests/support`) and the in-server ones
//! (`tests/pg/comb.rs`, which builds its SQL from it).

pub const COMBO_TO_FORMAT: [(&str, &str); 6] = [
    ("pg_unix", "postgresql"),
    ("sql_unix", "sqlserver"),
    ("sql_sqldt", "legacy"),
    ("bin_unix", "binary"),
    ("pg_sqldt", "postgresql_sqldatetime"),
    ("bin_sqldt", "binary_sqldatetime"),
];
