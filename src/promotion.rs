//! Settings that set one server's ids apart, after a copy of the data directory, a `pg_upgrade`
//! or a promotion (`rules::identity::check_identity`): each generator refuses (55000) while a
//! setting it uses is still the one the server had when the copy or promotion was first seen, and
//! a copy must not go on with it: uid8's cluster id always (16 values, none drawn), an explicit sno
//! partition or medallion (derived ones differ by themselves). Only setting it to another value
//! lifts the refusal; the record of where the check last ran is `comb_ext/identity`.

use crate::errors;
use crate::rules::identity::{
    check_identity, setting_digest, version_keeps_record, IdentitySetting, Past, Place, IDENTITY_SETTINGS,
};
use pgrx::pg_sys;
use pgrx::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};

/// The identity settings, in `IDENTITY_SETTINGS`' order.
#[derive(Clone, Copy)]
pub enum IdentityOf {
    Sno = 0,
    Muid = 1,
    Uid8 = 2,
}

/// Per backend: the settings a check has let through, never checked again in this session (a
/// server does not become a copy under a running backend).
static LET_THROUGH: [AtomicBool; 3] = [AtomicBool::new(false), AtomicBool::new(false), AtomicBool::new(false)];

/// The settings as the check sees them now.
fn settings_now() -> [IdentitySetting; 3] {
    let sno = crate::sno::PARTITION.get();
    let medallion = crate::muid::MEDALLION.get();
    let medallion_text = medallion.as_deref().and_then(|v| v.to_str().ok()).unwrap_or("");
    let uid8 = crate::uid8::CLUSTER_ID.get();
    [
        IdentitySetting { digest: setting_digest(&sno.to_string()), must_change_on_copy: sno != -1 },
        IdentitySetting {
            digest: setting_digest(medallion_text),
            must_change_on_copy: crate::rules::muid::parse_medallion(medallion_text).is_some(),
        },
        IdentitySetting { digest: setting_digest(&uid8.to_string()), must_change_on_copy: true },
    ]
}

/// Checks the identity settings here and now, keeps the record, and says which are refused. Call
/// after `refuse_in_recovery`.
fn check(function: &str) -> [bool; 3] {
    // SAFETY: the control file's copy in shared memory; the timeline once recovery has ended.
    let (system_identifier, timeline) = unsafe { (pg_sys::GetSystemIdentifier(), crate::compat::wal_timeline()) };
    let here = Place { origin: crate::high_water::origin_here(function), system_identifier, timeline };
    let settings = settings_now();
    let (stored, in_its_file) =
        crate::high_water::read_identity(function, here, settings[IdentityOf::Uid8 as usize].digest);
    let past = match stored {
        Some(record) => Past::Checked(record),
        None if record_expected() => Past::Lost,
        None => Past::FirstCheck,
    };
    let (record, refused) = check_identity(past, here, settings);
    if !in_its_file || stored != Some(record) {
        crate::high_water::write_identity(function, &record);
    }
    refused
}

/// Whether this data directory should hold `comb_ext/identity` already: the extension's catalog is
/// at a version that writes it when created or updated, and its script is not running now (that is
/// where the first check is made). `pg_upgrade` carries the catalog but not `comb_ext/`.
fn record_expected() -> bool {
    // SAFETY: a backend global, set by CREATE/ALTER EXTENSION while the script runs.
    if unsafe { pg_sys::creating_extension } {
        return false;
    }
    let version = Spi::get_one::<String>(
        "SELECT extversion FROM pg_catalog.pg_extension WHERE extname OPERATOR(pg_catalog.=) 'comb_ext'",
    );
    version.ok().flatten().is_some_and(|v| version_keeps_record(&v))
}

/// Refuses (55000) while `setting` must be set apart after a copy, `pg_upgrade` or promotion; a
/// first call on a server records where it runs, so a later copy is recognised whichever
/// generator runs first there. Once let through, never checked again in the session.
pub fn refuse_until_set_apart(of: IdentityOf, function: &str) {
    if LET_THROUGH[of as usize].load(Ordering::Relaxed) {
        return;
    }
    let refused = check(function);
    // One check answers for every family: the others' first calls need not read the record again.
    for (let_through, refused) in LET_THROUGH.iter().zip(refused) {
        if !refused {
            let_through.store(true, Ordering::Relaxed);
        }
    }
    let setting = IDENTITY_SETTINGS[of as usize];
    if refused[of as usize] {
        errors::raise(
            pgrx::PgSqlErrorCode::ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE,
            format!("{function}: this data directory was copied, upgraded or promoted since {setting} was last set, so it is the setting of the server it came from, whose values it would repeat"),
            Some(&format!("Set {setting} to a value no other server uses (ALTER SYSTEM, then reload): only a value other than the one it had when the copy was found lifts this (docs/guarantees.md: \"Guarantees, situation by situation\").")),
        );
    }
}

/// The identity settings, and whether this server refuses the generator that uses each until it
/// is set apart (after a copy of its data directory, a `pg_upgrade` or a promotion). Records where
/// the data directory runs, so that a copy made later is recognised: the install and update
/// scripts call it.
#[pg_extern(volatile, parallel_unsafe)]
fn comb_ext_identity() -> TableIterator<'static, (name!(setting, String), name!(refused, bool))> {
    crate::standby::refuse_in_recovery("comb_ext_identity", "identity");
    let refused = check("comb_ext_identity");
    TableIterator::new(IDENTITY_SETTINGS.iter().zip(refused).map(|(s, r)| (s.to_string(), r)).collect::<Vec<_>>())
}
