// In-server tests of the shared-memory rules (ARCHITECTURE.md, "Changing a shared-memory layout"):
// a library of an older layout running in the same server is refused, whichever attached first.

use super::*;
use crate::server::shmem::OlderLayouts;
use std::ffi::CStr;

fn message(e: pg_sys::panic::CaughtError) -> String {
    match e {
        pg_sys::panic::CaughtError::PostgresError(report)
        | pg_sys::panic::CaughtError::ErrorReport(report)
        | pg_sys::panic::CaughtError::RustPanic { ereport: report, .. } => report.message().to_string(),
    }
}

/// Attaches to struct `name` of `size` bytes as a library of that layout would; the ERROR it
/// raises, if any.
fn attach_as_older_library(name: &'static CStr, size: usize) -> Option<String> {
    PgTryBuilder::new(|| {
        let mut found = false;
        // SAFETY: ShmemInitStruct takes its own lock; nothing is read or written through the result.
        unsafe { pg_sys::ShmemInitStruct(name.as_ptr(), size, &mut found) };
        None
    })
    .catch_others(|e| Some(message(e)))
    .execute()
}

/// What `refuse` raised (its SQLSTATE must be 55000), if anything.
fn refused(layouts: &OlderLayouts) -> Option<String> {
    PgTryBuilder::new(|| {
        layouts.refuse("test");
        None
    })
    .catch_when(PgSqlErrorCode::ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE, |e| Some(message(e)))
    .execute()
}

#[pg_test(schema = "tests")]
fn an_older_layout_in_the_server_is_refused_whichever_attached_first() {
    // The older library attached first: its struct has its own size.
    static OLDER_FIRST: OlderLayouts = OlderLayouts::new(&[c"comb_ext test layout older first v1"]);
    assert_eq!(attach_as_older_library(c"comb_ext test layout older first v1", 64), None);
    let refusal = refused(&OLDER_FIRST).expect("an older layout in the server is refused");
    assert!(refusal.contains("older layout"), "{refusal}");

    // This version first: the name is taken, and an older library attaching afterwards fails.
    static THIS_FIRST: OlderLayouts = OlderLayouts::new(&[c"comb_ext test layout this first v1"]);
    assert_eq!(refused(&THIS_FIRST), None);
    let kept_out = attach_as_older_library(c"comb_ext test layout this first v1", 64);
    assert!(kept_out.is_some_and(|e| e.contains("size is wrong")), "an older library attaching later is kept out");

    // sno_new and muid_new keep 0.3.0's structs out the same way.
    Spi::run("SELECT sno_new(), muid_new()").unwrap();
    for name in [c"comb_ext sno generator v1", c"comb_ext muid timeline v1"] {
        let kept_out = attach_as_older_library(name, 64);
        assert!(kept_out.is_some_and(|e| e.contains("size is wrong")), "{name:?} is kept out");
    }
}
