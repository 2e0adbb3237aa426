//! The masking keys of `comb_ext.mask_key` (docs/ids-that-do-not-tell-their-age.md#the-key): a setting
//! only a superuser can change and no role can read back, and the key it holds for each call.
//!
//! - Set at server start only (PGC_POSTMASTER): a reload that changes a setting logs its new value
//!   ("parameter ... changed to ..."), and no setting can opt out of that line.
//! - Used only when the library is preloaded: otherwise a session that has not loaded it holds the value as
//!   a placeholder, which any role can `SHOW` (loading the library then warns).
//! - Hidden: superuser-only, out of `SHOW ALL` and `pg_settings`, not settable by `ALTER SYSTEM` (its statement
//!   would reach the log), no check hook (PostgreSQL logs a refused value), and a show hook that gives
//!   `(hidden)`, so neither `SHOW` nor `current_setting` returns it, even to `pg_read_all_settings`.

use crate::postgres::errors;
use crate::rules::mask::{parse_key_list, Key, KeyEntry, KeyListError};
use pgrx::prelude::*;
use pgrx::{GucContext, GucFlags, GucRegistry, GucSetting, PgSqlErrorCode};
use std::cell::OnceCell;
use std::ffi::{c_char, CString};
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};

pub static MASK_KEY: GucSetting<Option<CString>> = GucSetting::<Option<CString>>::new(None);

/// Whether the library was loaded by `shared_preload_libraries`.
static PRELOADED: AtomicBool = AtomicBool::new(false);

const SET_HINT: &str = "A superuser puts comb_ext.mask_key = '<key id>:<32 hex digits>' in postgresql.conf (or a file \
     it includes) and restarts the server; or pass the key itself, a 16-byte bytea, as the last argument.";

pub fn register(preloading: bool) {
    PRELOADED.store(preloading, Ordering::Relaxed);
    // PostgreSQL makes a PGC_POSTMASTER setting FATAL outside shared_preload_libraries. Loaded later, the
    // library still defines the setting (so it is hidden from then on in this session), at SIGHUP, and
    // refuses to use it.
    let context = if preloading { GucContext::Postmaster } else { GucContext::Sighup };
    // SAFETY: the show hook is #[pg_guard]ed and never panics.
    unsafe {
        GucRegistry::define_string_guc_with_hooks(
            c"comb_ext.mask_key",
            c"Keys of comb_mask, muid_mask, sno_mask and uid8_mask: '<key id>:<32 hex digits>', comma-separated, the first the default.",
            c"Read at server start, with comb_ext in shared_preload_libraries. SHOW gives (hidden).",
            &MASK_KEY,
            context,
            GucFlags::SUPERUSER_ONLY | GucFlags::NO_SHOW_ALL | GucFlags::DISALLOW_IN_AUTO_FILE,
            None,
            None,
            Some(show_mask_key),
        );
    }
    if !preloading && MASK_KEY.get().is_some_and(|value| !value.as_bytes().is_empty()) {
        pgrx::warning!(
            "comb_ext.mask_key is set, but comb_ext is not in shared_preload_libraries: any role can read the setting \
             in a session that has not loaded the library, and the masking functions do not use it"
        );
    }
}

/// What `SHOW comb_ext.mask_key` and `current_setting` give: never the value.
#[pg_guard]
unsafe extern "C-unwind" fn show_mask_key() -> *const c_char {
    match MASK_KEY.get() {
        Some(value) if !value.as_bytes().is_empty() => c"(hidden)".as_ptr(),
        _ => c"".as_ptr(),
    }
}

thread_local! {
    /// The setting's keys, read once: it cannot change while the server runs.
    /// An `Rc`, so that each call's copy is a count, not the list (a mask's hot path).
    static KEYS: OnceCell<Option<Result<Rc<[KeyEntry]>, KeyListError>>> = const { OnceCell::new() };
}

/// The key a setting-form call uses: the setting's first (`key_id` None) or the one with `key_id`.
/// Errors name the setting and what is wrong, never any part of its value.
pub fn key(function: &str, key_id: Option<i32>) -> Key {
    if !PRELOADED.load(Ordering::Relaxed) {
        errors::raise(
            PgSqlErrorCode::ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE,
            format!("{function}: comb_ext.mask_key is read only with comb_ext in shared_preload_libraries"),
            Some("Without it, a session that has not loaded the library holds the setting as a placeholder that any role can SHOW. Add comb_ext to shared_preload_libraries and restart, or pass the key itself as the last argument."),
        );
    }
    let keys = KEYS.with(|cell| {
        cell.get_or_init(|| {
            let value = MASK_KEY.get()?;
            let text = value.to_str().ok()?;
            (!text.trim().is_empty()).then(|| parse_key_list(text).map(Rc::from))
        })
        .clone()
    });
    let entries = match keys {
        None => errors::raise(
            PgSqlErrorCode::ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE,
            format!("{function}: comb_ext.mask_key is not set"),
            Some(SET_HINT),
        ),
        Some(Err(error)) => errors::invalid_parameter(
            format!("{function}: comb_ext.mask_key is malformed: {error}"),
            Some("It lists entries '<key id>:<32 hex digits>' separated by commas; a key id is 0 to 2147483647."),
        ),
        Some(Ok(entries)) => entries,
    };
    match key_id {
        None => entries[0].key,
        Some(id) => match entries.iter().find(|entry| entry.id == id) {
            Some(entry) => entry.key,
            None => {
                let ids: Vec<String> = entries.iter().map(|entry| entry.id.to_string()).collect();
                errors::invalid_parameter(
                    format!("{function}: comb_ext.mask_key has no key id {id}: its key ids are {}", ids.join(", ")),
                    None,
                )
            }
        },
    }
}

/// The key of a key argument: 16 bytes, or 22023 naming its length (never its bytes).
pub fn explicit_key(function: &str, bytes: &[u8]) -> Key {
    match Key::from_bytes(bytes) {
        Some(key) => key,
        None => errors::invalid_parameter(
            format!("{function}: a key is 16 bytes, not {}", bytes.len()),
            Some("16 bytes: k0 then k1, each a little-endian 64-bit integer, as uuidv47 lays a key out."),
        ),
    }
}
