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

/// Why a setting's value is refused here.
enum Refusal {
    /// It is the one the server had when a copy, `pg_upgrade` or promotion was first seen.
    SetApart,
    /// Another server that runs on this machine, with this one's system identifier, holds it
    /// (`live_copies`: a copy no signal tells from its source, beside it).
    HeldByRunningServer(u32),
}

/// Checks the identity settings here and now, keeps the record, and says which are refused. Call
/// after `refuse_in_recovery`.
fn check(function: &str, values: [i64; 3]) -> [Option<Refusal>; 3] {
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
    let past = match &stored {
        Some(record) => Past::Checked(record.clone()),
        None if record_expected() => Past::Lost,
        None => Past::FirstCheck,
    };
    let (record, refused) = check_identity(past, here, settings, values_everywhere);
    if !in_its_file || stored.as_ref() != Some(&record) {
        crate::server::high_water::write_identity(function, &record);
    }
    let registry = settings
        .iter()
        .any(|s| s.must_change_on_copy)
        .then(crate::server::live_copies::Registry::open)
        .flatten();
    std::array::from_fn(|i| {
        if refused[i] {
            Some(Refusal::SetApart)
        } else if settings[i].must_change_on_copy {
            registry
                .as_ref()?
                .held_elsewhere(system_identifier, i, settings[i].digest)
                .map(|holder| Refusal::HeldByRunningServer(holder.pid))
        } else {
            None
        }
    })
}

/// Every value the identity settings have on this server besides the session's, as `check` compares
/// them: the configuration files' (`postgresql.conf` with what it includes, then
/// `postgresql.auto.conf`: the one PostgreSQL applies) and each `pg_db_role_setting` entry's (a shared
/// catalog: every database's and role's, which travel with a copy). Asked only when a copy or
/// promotion is first seen, so that a database or role with a value of its own is refused too, whichever
/// session sees the copy first. Values given on the postmaster's command line or by clients (`SET`,
/// connection options) are not the data directory's, and count only in the session that has them.
fn values_everywhere() -> [Vec<IdentitySetting>; 3] {
    let mut texts: [Vec<String>; 3] = Default::default();
    let files = configuration_files();
    for (i, name) in IDENTITY_SETTINGS.iter().enumerate() {
        if let Some((_, value)) = files.iter().rev().find(|(n, _)| n.eq_ignore_ascii_case(name)) {
            texts[i].push(value.clone());
        }
    }
    for entry in database_and_role_settings() {
        let Some((name, value)) = entry.split_once('=') else { continue };
        if let Some(i) = IDENTITY_SETTINGS.iter().position(|s| s.eq_ignore_ascii_case(name)) {
            texts[i].push(value.to_string());
        }
    }
    // As the settings read them; a value the setting would not take is no value it has.
    let [sno, medallion, uid8] = texts;
    [
        sno.iter().filter_map(|t| guc_int(t)).filter(|v| (-1..=i32::from(u16::MAX)).contains(v)).map(|v| IdentitySetting::of(v.into(), v != -1)).collect(),
        medallion.iter().filter_map(|t| crate::rules::muid::parse_medallion(t)).map(|v| IdentitySetting::of(v, true)).collect(),
        uid8.iter()
            .filter_map(|t| guc_int(t))
            .filter(|v| (-1..=15).contains(v))
            .map(|v| if v == -1 { crate::server::identity::derived_uid8_cluster_id() } else { v })
            .map(|v| IdentitySetting::of(v.into(), true))
            .collect(),
    ]
}

/// An integer setting's text as PostgreSQL reads it (decimal, 0x hex, octal, spaces around).
fn guc_int(text: &str) -> Option<i32> {
    let text = std::ffi::CString::new(text).ok()?;
    let mut value = 0;
    // SAFETY: a NUL-terminated string; parse_int reports a bad value by its result, it raises nothing.
    unsafe { pg_sys::parse_int(text.as_ptr(), &mut value, 0, std::ptr::null_mut()) }.then_some(value)
}

/// Every `name = value` of the configuration files, in the order PostgreSQL applies them.
fn configuration_files() -> Vec<(String, String)> {
    let mut lines = Vec::new();
    let (mut head, mut tail) = (std::ptr::null_mut(), std::ptr::null_mut());
    // SAFETY: ParseConfigFile reads the files as pg_file_settings does, reporting what it cannot read at
    // DEBUG1 (not an error: a file it cannot read holds no value); the list is palloc'd and freed here.
    unsafe {
        let elevel = pg_sys::DEBUG1 as i32;
        if !pg_sys::ConfigFileName.is_null() {
            pg_sys::ParseConfigFile(pg_sys::ConfigFileName, true, std::ptr::null(), 0, 0, elevel, &mut head, &mut tail);
        }
        // Relative to the data directory, as PostgreSQL reads it.
        pg_sys::ParseConfigFile(c"postgresql.auto.conf".as_ptr(), false, std::ptr::null(), 0, 0, elevel, &mut head, &mut tail);
        let mut item = head;
        while !item.is_null() {
            let text = |p: *mut std::ffi::c_char| {
                if p.is_null() { String::new() } else { std::ffi::CStr::from_ptr(p).to_string_lossy().into_owned() }
            };
            lines.push((text((*item).name), text((*item).value)));
            item = (*item).next;
        }
        pg_sys::FreeConfigVariables(head);
    }
    lines
}

/// Every `name=value` of `pg_db_role_setting`: each database's, role's, and role's in a database.
fn database_and_role_settings() -> Vec<String> {
    let query = "SELECT pg_catalog.unnest(setconfig) FROM pg_catalog.pg_db_role_setting";
    Spi::connect(|client| -> pgrx::spi::SpiResult<Vec<String>> {
        let mut entries = Vec::new();
        for row in client.select(query, None, &[])? {
            entries.extend(row.get::<String>(1)?);
        }
        Ok(entries)
    })
    .unwrap_or_else(|e| pgrx::error!("could not read pg_db_role_setting: {e}"))
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
    for ((let_through, refused), value) in LET_THROUGH.iter().zip(&refused).zip(values) {
        if refused.is_none() {
            let_through.store(value, Ordering::Relaxed);
        }
    }
    let setting = IDENTITY_SETTINGS[of as usize];
    let (message, hint) = match refused[of as usize] {
        None => return,
        Some(Refusal::SetApart) => (
            format!("{function}: this data directory was copied, upgraded or promoted since {setting} was last set, so it is the setting of the server it came from, whose values it would repeat"),
            format!("Set {setting} to a value no other server uses (ALTER SYSTEM, then reload): only a value other than the one it had when the copy was found lifts this (docs/guarantees.md: \"Guarantees, situation by situation\")."),
        ),
        Some(Refusal::HeldByRunningServer(pid)) => (
            format!("{function}: another server on this machine (postmaster pid {pid}) runs with this server's system identifier and the same {setting}: a copy of one data directory, whose values the two would repeat"),
            format!("Set {setting} to a value no other server uses (ALTER SYSTEM, then reload) on one of them, or stop the other (docs/guarantees.md: \"Guarantees, situation by situation\")."),
        ),
    };
    errors::raise(pgrx::PgSqlErrorCode::ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE, message, Some(&hint));
}

/// The identity settings, and whether this server refuses the generator that uses each until it
/// is set apart (after a copy of its data directory, a `pg_upgrade` or a promotion). Records where
/// the data directory runs, so that a copy made later is recognised: the install and update
/// scripts call it.
#[pg_extern(volatile, parallel_unsafe)]
fn comb_ext_identity() -> TableIterator<'static, (name!(setting, String), name!(refused, bool))> {
    crate::server::standby::refuse_in_recovery("comb_ext_identity", "identity");
    let refused = check("comb_ext_identity", values_now());
    TableIterator::new(IDENTITY_SETTINGS.iter().zip(refused).map(|(s, r)| (s.to_string(), r.is_some())).collect::<Vec<_>>())
}
