//! Whether the comb_ext library this backend runs is the only one its server can have run: its file
//! was last changed before the server started. A package installed or upgraded under a running server
//! leaves the sessions that loaded the earlier file on it (docs/upgrading.md), and uid8 runs ahead of
//! the clock only where no session can run 0.3.0, which hands a generator id over by the clock alone
//! (docs/uid8.md, "Running ahead of the clock").

use crate::rules::time;
use pgrx::pg_sys;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::MetadataExt;
use std::sync::atomic::{AtomicU8, Ordering};

/// 0 not known yet, 1 yes, 2 no: neither the file this backend loaded nor the server's start
/// changes under it (a later install leaves this backend on the file it mapped).
static ALONE: AtomicU8 = AtomicU8::new(0);

/// Whether this backend's library file was in place before the server started, so every session
/// of the server runs it. Found once per backend; the first time it is not, a LOG says why.
pub fn alone_since_server_start() -> bool {
    match ALONE.load(Ordering::Relaxed) {
        1 => return true,
        2 => return false,
        _ => {}
    }
    let found = changed_before_server_start();
    if let Err(why) = &found {
        crate::postgres::errors::log_to_server(format!(
            "comb_ext: uid8_new waits for the clock in this backend instead of running ahead of it \
             (comb_ext.uid8_run_ahead): {why}; a session of this server may still run an earlier comb_ext, \
             and 0.3.0 takes a generator id over by the clock alone. Restart the server to run ahead."
        ));
    }
    ALONE.store(if found.is_ok() { 1 } else { 2 }, Ordering::Relaxed);
    found.is_ok()
}

/// Ok if the file at this library's path was last changed before the server started, else why not
/// (changed after, or not found: either way another file may have been loaded before).
fn changed_before_server_start() -> Result<(), String> {
    let path = library_path().ok_or("the path of its library is unknown")?;
    let metadata = std::fs::metadata(&path).map_err(|e| format!("{} cannot be read ({e})", path.display()))?;
    let changed_us = metadata.ctime().saturating_mul(1_000_000).saturating_add(metadata.ctime_nsec() / 1_000);
    // SAFETY: PgStartTime is set once by the postmaster before any backend starts.
    let started_us = unsafe { pg_sys::PgStartTime }.saturating_add(time::PG_EPOCH_UNIX_US);
    if changed_us < started_us {
        Ok(())
    } else {
        Err(format!("its library {} was installed after the server started", path.display()))
    }
}

/// The file this library was loaded from, as the dynamic loader names it.
fn library_path() -> Option<std::path::PathBuf> {
    // SAFETY: dladdr reads the loader's tables for an address inside this library, and fills `info`;
    // dli_fname, when set, is a NUL-terminated string the loader keeps while the library is loaded.
    unsafe {
        let mut info: libc::Dl_info = std::mem::zeroed();
        let here = alone_since_server_start as *const () as *const libc::c_void;
        if libc::dladdr(here, &mut info) == 0 || info.dli_fname.is_null() {
            return None;
        }
        let name = std::ffi::CStr::from_ptr(info.dli_fname);
        Some(std::path::PathBuf::from(std::ffi::OsStr::from_bytes(name.to_bytes())))
    }
}
