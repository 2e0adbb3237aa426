//! Settings that may be a clone's copy of its source's: a server promoted, or a data directory
//! copied, whose configuration has not changed since. A WARNING for identities with many values
//! (sno partition, medallion), a refusal for uid8's 16 cluster ids.

use crate::errors;
use pgrx::pg_sys;
use std::ffi::CStr;

thread_local! {
    /// The functions this session has checked `warn_if_settings_predate_promotion` for.
    static PROMOTION_CHECKED: std::cell::RefCell<Vec<&'static str>> = const { std::cell::RefCell::new(Vec::new()) };
    /// Whether `refuse_if_settings_predate_copy` has found the settings changed since the last
    /// promotion or copy.
    static SETTINGS_SINCE_COPY: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// The timeline, when this server was promoted (it is on a timeline past 1) and neither
/// configuration file has changed since (the timeline's history file is older than both). A clone
/// keeps its source's files, and a copied setting cannot be told from a deliberate one. Heuristic
/// by nature: `ALTER SYSTEM` of any setting after the promotion counts as a change. Call after
/// `refuse_in_recovery`.
fn promoted_with_settings_unchanged() -> Option<u32> {
    // SAFETY: the caller has checked that recovery has ended.
    let timeline = unsafe { crate::compat::wal_timeline() };
    if timeline <= 1 {
        return None;
    }
    let promoted = std::fs::metadata(format!("pg_wal/{timeline:08X}.history")).and_then(|m| m.modified()).ok()?;
    newest_config_change().is_none_or(|changed| changed <= promoted).then_some(timeline)
}

/// When either configuration file (postgresql.conf, postgresql.auto.conf) last changed.
fn newest_config_change() -> Option<std::time::SystemTime> {
    // SAFETY: ConfigFileName is the postmaster's setting, a C string (or NULL) for the backend's life.
    let config_file = unsafe {
        let name = pg_sys::ConfigFileName;
        (!name.is_null()).then(|| CStr::from_ptr(name).to_string_lossy().into_owned())
    };
    let modified = |path: &str| std::fs::metadata(path).and_then(|m| m.modified()).ok();
    [config_file.as_deref(), Some("postgresql.auto.conf")].into_iter().flatten().filter_map(modified).max()
}

/// Once per session and function: a WARNING when this server was promoted and its configuration
/// has not changed since (`promoted_with_settings_unchanged`): `settings` (the identity `function`
/// uses, as the user would write it) may be the source's. For identities with many values to draw
/// from (the sno partition, the medallion), whose derived defaults fold the timeline in.
pub fn warn_if_settings_predate_promotion(function: &'static str, settings: &str) {
    if PROMOTION_CHECKED.with_borrow(|checked| checked.contains(&function)) {
        return;
    }
    PROMOTION_CHECKED.with_borrow_mut(|checked| checked.push(function));
    let Some(timeline) = promoted_with_settings_unchanged() else { return };
    errors::warn(
        format!("{function}: this server was promoted (timeline {timeline}) and its configuration has not changed since: {settings} may be copied from the server it was cloned from, and then its values can repeat that server's"),
        "A clone keeps its source's configuration files and catalog settings, and a copy cannot be told from a deliberate choice.",
        &format!("Set {settings} apart from the source's with ALTER SYSTEM and reload (docs/guarantees.md: \"Guarantees, situation by situation\")."),
    );
}

/// Refuses (55000) while this server was promoted, or its data directory copied, and its
/// configuration has not changed since (`promoted_with_settings_unchanged`,
/// `high_water::origin_now`). For uid8's cluster id: 16 values, nothing derived from the server, so
/// a copy beside its source repeats its values (a WARNING reaches no application). Checked on every
/// call until the settings have changed, then never again in the session.
pub fn refuse_if_settings_predate_copy(function: &str, settings: &str) {
    if SETTINGS_SINCE_COPY.get() {
        return;
    }
    // First, so that a copy is on record from its first call, whatever is refused first.
    let origin = crate::high_water::origin_now(function);
    if let Some(timeline) = promoted_with_settings_unchanged() {
        errors::raise(
            pgrx::PgSqlErrorCode::ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE,
            format!("{function}: this server was promoted (timeline {timeline}) and its configuration has not changed since, so {settings} is the server's it was cloned from, whose values it would repeat"),
            Some(&format!("Set {settings} to a value no other server uses with ALTER SYSTEM, and reload (docs/guarantees.md: \"Guarantees, situation by situation\"). After a failover whose old primary is gone for good, setting the same value again is enough.")),
        );
    }
    if let Some(copied_at) = origin.copied_at {
        let seen = std::time::UNIX_EPOCH + std::time::Duration::from_micros(copied_at.max(0) as u64);
        if newest_config_change().is_none_or(|changed| changed <= seen) {
            errors::raise(
                pgrx::PgSqlErrorCode::ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE,
                format!("{function}: this data directory was copied from another (found in a new place at {:.3} s since 1970) and its configuration has not changed since, so {settings} is the one of the server it was copied from, whose values it would repeat", copied_at as f64 / 1e6),
                Some(&format!("Set {settings} to a value no other server uses with ALTER SYSTEM, and reload (docs/guarantees.md: \"Copies of a data directory\"). If the data directory was moved, not copied, setting the same value again is enough.")),
            );
        }
        crate::high_water::write_origin(function, &crate::rules::identity::OriginRecord { copied_at: None, ..origin });
    }
    SETTINGS_SINCE_COPY.set(true);
}
