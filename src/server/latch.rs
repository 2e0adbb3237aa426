//! Sleeping on the backend's latch: the one wait primitive, below both the clock waits (which read
//! the clock through the watermarks' floor) and the marks (which the floor is written with), so
//! neither depends on the other to sleep.

use pgrx::pg_sys;
use std::ffi::{c_int, c_long};

/// Sleeps up to `ms` milliseconds on the backend's latch, seen as an extension wait in
/// pg_stat_activity, after handling any pending cancel, statement timeout or termination.
pub fn nap(ms: c_long) {
    pgrx::check_for_interrupts!();
    // SAFETY: MyLatch is this backend's own latch, valid for its whole life.
    unsafe {
        pg_sys::WaitLatch(
            pg_sys::MyLatch,
            (pg_sys::WL_LATCH_SET | pg_sys::WL_TIMEOUT | pg_sys::WL_EXIT_ON_PM_DEATH) as c_int,
            ms,
            pg_sys::PG_WAIT_EXTENSION,
        );
        pg_sys::ResetLatch(pg_sys::MyLatch);
    }
}
