//! Settings that set one server's ids apart, after a copy of the data directory, a `pg_upgrade`
//! or a promotion (`rules::identity::check_identity`): each generator refuses (55000) while a
//! setting it uses is still the one the server had when the copy or promotion was first seen, and
//! a copy must not go on with it: uid8's cluster id always (16 values, none drawn), an explicit sno
//! partition or medallion (derived ones differ by themselves). Only setting it to another value
//! lifts the refusal; the record of where the check last ran is `comb_ext/identity`.

use crate::postgres::errors;
use crate::rules::identity::{check_identity, version_keeps_record, IdentitySetting, Past, Place, IDENTITY_SETTINGS};
use pgrx::pg_sys;
use pgrx::prelude::*;
use std::sync::atomic::{AtomicI64, Ordering};

/// The identity settings, in `IDENTITY_SETTINGS`' order.
#[derive(Clone, Copy)]
pub enum IdentityOf {
    Sno = 0,
    Muid = 1,
    Uid8 = 2,
}

/// Per backend: the value of each setting a check last let through (`NOT_CHECKED` before). That
/// value is not checked again in the session (a server does not become a copy under a running
/// backend); another one, from a `SET` or a reload, is.
const NOT_CHECKED: i64 = i64::MIN;
static LET_THROUGH: [AtomicI64; 3] = [const { AtomicI64::new(NOT_CHECKED) }; 3];

/// The settings' values as the check compares them: the sno partition and the medallion (-1 when
/// derived), and the cluster id uid8's values carry (an explicit 0 and a derived one are one value).
fn values_now() -> [i64; 3] {
    [
        crate::server::identity::SNO_PARTITION.get().into(),
        crate::server::identity::explicit_medallion().unwrap_or(-1),
        crate::server::identity::effective_uid8_cluster_id().into(),
    ]
}

/// Checks the identity settings here and now, keeps the record, and says which are refused. Call
/// after `refuse_in_recovery`.
fn check(function: &str, values: [i64; 3]) -> [bool; 3] {
    // SAFETY: the control file's copy in shared memory; the timeline once recovery has ended.
    let (system_identifier, timeline) = unsafe { (pg_sys::GetSystemIdentifier(), crate::postgres::compat::wal_timeline()) };
    let here = Place { origin: crate::server::high_water::origin_here(function), system_identifier, timeline };
    // uid8's cluster id always (16 values, none drawn); an explicit sno partition or medallion.
    let settings = [
        IdentitySetting::of(values[0], values[0] != -1),
        IdentitySetting::of(values[1], values[1] != -1),
        IdentitySetting::of(values[2], true),
    ];
    let (stored, in_its_file) =
        crate::server::high_water::read_identity(function, here, settings[IdentityOf::Uid8 as usize].digest);
    let past = match stored {
        Some(record) => Past::Checked(record),
        None if record_expected() => Past::Lost,
        None => Past::FirstCheck,
    };
    let (record, refused) = check_identity(past, here, settings);
    if !in_its_file || stored != Some(record) {
        crate::server::high_water::write_identity(function, &record);
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
#[inline]
pub fn refuse_until_set_apart(of: IdentityOf, value: i64, function: &str) {
    if LET_THROUGH[of as usize].load(Ordering::Relaxed) != value {
        check_and_refuse(of, value, function);
    }
}

/// `refuse_until_set_apart` for a value not let through yet in this session: off the hot path.
#[cold]
#[inline(never)]
fn check_and_refuse(of: IdentityOf, value: i64, function: &str) {
    let mut values = values_now();
    values[of as usize] = value;
    let refused = check(function, values);
    // One check answers for every family: the others' first calls need not read the record again.
    for ((let_through, refused), value) in LET_THROUGH.iter().zip(refused).zip(values) {
        if !refused {
            let_through.store(value, Ordering::Relaxed);
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
    crate::server::standby::refuse_in_recovery("comb_ext_identity", "identity");
    let refused = check("comb_ext_identity", values_now());
    TableIterator::new(IDENTITY_SETTINGS.iter().zip(refused).map(|(s, r)| (s.to_string(), r)).collect::<Vec<_>>())
}
