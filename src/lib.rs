//! comb_ext: time-ordered identifiers generated and decoded inside PostgreSQL.
//! The byte layouts and generation rules, free of PostgreSQL, live in `rules`; each family has one
//! thin SQL-facing module.

// Under RUSTFLAGS="--cfg rules_only" (the loom model checker and the fuzzers, scripts/test.sh) only
// `rules` is built: it never touches PostgreSQL, and pgrx is not a dependency then (Cargo.toml).
#[cfg(not(rules_only))]
pgrx::pg_module_magic!(name, version);

pub mod rules;

// Everything else is left out of the rules-only build.
macro_rules! not_in_rules_only {
    ($($item:item)*) => { $(#[cfg(not(rules_only))] $item)* };
}

not_in_rules_only! {
    mod families;
    mod postgres;
    mod server;

    use families::{muid, sno, uid8};
    use postgres::compat;
    use server::{clock_wait, identity, watermark};
}

#[cfg(not(rules_only))]
use pgrx::{pg_guard, pg_sys, GucContext, GucFlags, GucRegistry};

#[cfg(not(rules_only))]
pgrx::extension_sql_file!(
    "../sql/sqlserver_order.sql",
    name = "sqlserver_order",
    requires = [
        sqlserver_order::uuid_sqlserver_lt,
        sqlserver_order::uuid_sqlserver_le,
        sqlserver_order::uuid_sqlserver_ge,
        sqlserver_order::uuid_sqlserver_gt,
        sqlserver_order::uuid_sqlserver_sortsupport,
        sqlserver_order::uuid_binary_lt,
        sqlserver_order::uuid_binary_le,
        sqlserver_order::uuid_binary_ge,
        sqlserver_order::uuid_binary_gt,
        sqlserver_order::uuid_binary_sortsupport,
    ]
);
#[cfg(not(rules_only))]
pgrx::extension_sql!("CREATE TYPE sno;", name = "sno_shell", creates = [Type(sno::Sno)]);
#[cfg(not(rules_only))]
pgrx::extension_sql_file!(
    "../sql/sno_type.sql",
    name = "sno_type",
    requires = ["sno_shell", sno::sno_in, sno::sno_out, sno::sno_recv, sno::sno_send]
);
#[cfg(not(rules_only))]
pgrx::extension_sql_file!(
    "../sql/sno_operators.sql",
    name = "sno_operators",
    requires = [
        "sno_type",
        sno::sno_eq,
        sno::sno_ne,
        sno::sno_lt,
        sno::sno_le,
        sno::sno_gt,
        sno::sno_ge,
        sno::sno_sortsupport,
        sno::sno_hash,
        sno::sno_hash_extended,
        sno::sno_smaller,
        sno::sno_larger,
        sno::sno_to_bytea,
        sno::sno_from_bytea,
    ]
);
#[cfg(not(rules_only))]
pgrx::extension_sql_file!(
    "../sql/muid.sql",
    name = "muid",
    requires = [muid::muid_timestamp_us, muid::muid_medallion, muid::muid_offset]
);
#[cfg(not(rules_only))]
pgrx::extension_sql_file!(
    "../sql/adopt.sql",
    name = "adopt",
    requires = ["sno_type", uid8::uid8_new, uid8::uid8_floor, muid::muid_new]
);
#[cfg(not(rules_only))]
pgrx::extension_sql_file!("../sql/finalize.sql", name = "finalize", finalize);

#[cfg(not(rules_only))]
#[pg_guard]
pub extern "C-unwind" fn _PG_init() {
    register_settings();
    // SAFETY: reading PostgreSQL's flag, set while it loads shared_preload_libraries.
    crate::server::mask_key::register(unsafe { pg_sys::process_shared_preload_libraries_in_progress });
    // SAFETY: _PG_init runs once per process, in the postmaster when preloaded.
    unsafe {
        compat::reserve_settings_prefix(c"comb_ext");
        // Preloaded: the generators' shared state gets its space at server start, so it never
        // depends on the segment's spare space (src/server/shmem.rs).
        if pg_sys::process_shared_preload_libraries_in_progress {
            compat::request_shared_memory(
                sno::SHARED_MEMORY_BYTES
                    + muid::SHARED_MEMORY_BYTES
                    + uid8::shared_memory_bytes()
                    + identity::SHARED_MEMORY_BYTES
                    + watermark::shared_memory_bytes(),
            );
        }
    }
}

/// Settings that decide uniqueness across servers are superuser-only (PGC_SUSET).
#[cfg(not(rules_only))]
fn register_settings() {
    GucRegistry::define_int_guc(
        c"comb_ext.sno_partition",
        c"Partition (0-65535) written into every sno this server generates.",
        c"Give each server that generates snos its own partition. -1 (the default) derives one from the cluster's system identifier.",
        &identity::SNO_PARTITION,
        -1,
        u16::MAX as i32,
        GucContext::Suset,
        GucFlags::default(),
    );
    GucRegistry::define_int_guc(
        c"comb_ext.sno_sequence_min",
        c"Lowest sno sequence number this server uses in each 4 ms unit.",
        c"With comb_ext.sno_sequence_max, shares one partition's sequence pool between servers (sno's sequence sharding).",
        &sno::SEQUENCE_MIN,
        0,
        u16::MAX as i32,
        GucContext::Suset,
        GucFlags::default(),
    );
    GucRegistry::define_int_guc(
        c"comb_ext.sno_sequence_max",
        c"Highest sno sequence number this server uses in each 4 ms unit.",
        c"Past it, sno_new waits for the next 4 ms unit.",
        &sno::SEQUENCE_MAX,
        0,
        u16::MAX as i32,
        GucContext::Suset,
        GucFlags::default(),
    );
    GucRegistry::define_int_guc(
        c"comb_ext.uid8_cluster_id",
        c"Cluster id (0-15) written into every uid8 this server generates; -1 derives it (a Citus node's group id, else 0).",
        c"Give each cluster of generators its own; generator ids keep sessions of one cluster id apart.",
        &identity::UID8_CLUSTER_ID,
        -1,
        15,
        GucContext::Suset,
        GucFlags::default(),
    );
    GucRegistry::define_int_guc(
        c"comb_ext.uid8_generator_id",
        c"Generator id (0-2047) this session claims for uid8_new; -1 claims any free one.",
        c"A claimed id is a session-level lock no other session of the server can take until this one ends.",
        &uid8::GENERATOR_ID,
        -1,
        2047,
        GucContext::Suset,
        GucFlags::default(),
    );
    GucRegistry::define_int_guc(
        c"comb_ext.uid8_generators_per_session",
        c"How many generator ids (1-2048) one session may hold for uid8_new.",
        c"A session claims one more free id each time it has used a millisecond's 64 sequence numbers on all it holds, up to this many, and keeps them until it ends. Ignored while comb_ext.uid8_generator_id pins one.",
        &uid8::GENERATORS_PER_SESSION,
        1,
        2048,
        GucContext::Suset,
        GucFlags::default(),
    );
    GucRegistry::define_int_guc(
        c"comb_ext.uid8_generator_share",
        c"Most uid8 generator ids (1-2048) of one cluster id that the sessions of one role, and those in one database, may hold.",
        c"A first id past it fails with 53400; extra ids for bulks stop at half of it. The claiming session's value applies (ALTER ROLE or ALTER DATABASE ... SET can give one more). Ordinary first ids also leave 128 ids for roles that hold none and for superusers, and extra ids 512 for everyone's first ids.",
        &uid8::GENERATOR_SHARE,
        1,
        2048,
        GucContext::Suset,
        GucFlags::default(),
    );
    GucRegistry::define_int_guc(
        c"comb_ext.uid8_run_ahead",
        c"How far (ms, 0-2000) a session's uid8s may run ahead of the clock when its milliseconds are full; 0 waits for the clock.",
        c"Past it uid8_new waits for the clock, as it always does at 0 (upstream's behaviour). uid8_timestamp of an id is at most this far past the time it was made. In force only where the library was installed before the server started (else 0, with a LOG).",
        &uid8::RUN_AHEAD,
        0,
        rules::uid8::RUN_AHEAD_MAX_MS as i32,
        GucContext::Userset,
        GucFlags::UNIT_MS,
    );
    GucRegistry::define_int_guc(
        c"comb_ext.max_clock_wait",
        c"Longest time (ms) one call of sno_new, uid8_new or muid_new waits for the system clock to reach the values it must follow.",
        c"A generator whose clock reads behind values it issued (or the mark reserved before a restart), or muid_new after bursts ran its values 2 s ahead, waits until the clock reaches them; past this it fails instead of blocking every insert.",
        &clock_wait::MAX_CLOCK_WAIT_MS,
        100,
        3_600_000,
        GucContext::Userset,
        GucFlags::UNIT_MS,
    );
    // SAFETY: the check hook is #[pg_guard]ed and never panics.
    unsafe {
        GucRegistry::define_string_guc_with_hooks(
            c"comb_ext.medallion",
            c"Medallion (Gink node id) written into every muid this server generates.",
            c"An integer below 2^44 - 1, decimal or 0x hex; give each server its own. Unset (the default) derives one in 0x10000000000..0x1FFFFFFFFFF from the cluster's system identifier.",
            &identity::MEDALLION,
            GucContext::Suset,
            GucFlags::default(),
            Some(muid::check_medallion),
            None,
            None,
        );
    }
}

/// Schema `tests`, where pgrx runs the in-server tests (`SELECT "tests"."<name>"()`). Empty: the
/// tests are in `pg_tests` and name the schema themselves, since `#[pg_schema]` cannot wrap a file
/// module.
#[cfg(not(rules_only))]
#[cfg(any(test, feature = "pg_test"))]
#[pgrx::pg_schema]
mod tests {}

/// In-server tests live beside the other tests, in tests/pg/.
#[cfg(not(rules_only))]
#[cfg(any(test, feature = "pg_test"))]
#[path = "../tests/pg/mod.rs"]
mod pg_tests;

/// Required by `cargo pgrx test`.
#[cfg(not(rules_only))]
#[cfg(test)]
pub mod pg_test {
    pub fn setup(_options: Vec<&str>) {}

    #[must_use]
    pub fn postgresql_conf_options() -> Vec<&'static str> {
        vec![]
    }
}
