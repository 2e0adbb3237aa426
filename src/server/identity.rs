//! This server's identity (`rules::identity`), from which the sno partition and the muid
//! medallion are derived by default: the system identifier, the WAL timeline, and a number drawn at
//! every server start, kept in shared memory.

use crate::server::shmem::Shared;
use pgrx::{pg_sys, GucSetting};
use std::ffi::CString;
use std::sync::atomic::{AtomicI32, AtomicU64, Ordering};

// ---- the settings that set one server's ids apart (registered in lib.rs; the copy and promotion
// checks read them too) ------------------------------------------------------------------------

/// `comb_ext.sno_partition`: -1 derives one from the cluster's system identifier.
pub static SNO_PARTITION: GucSetting<i32> = GucSetting::<i32>::new(-1);
/// `comb_ext.medallion`: unset derives one from the cluster's system identifier.
pub static MEDALLION: GucSetting<Option<CString>> = GucSetting::<Option<CString>>::new(None);
/// `comb_ext.uid8_cluster_id`: -1 derived (a Citus node's group id, else 0); 0..15: this one.
pub static UID8_CLUSTER_ID: GucSetting<i32> = GucSetting::<i32>::new(-1);

/// The medallion `comb_ext.medallion` gives, if it gives one.
pub fn explicit_medallion() -> Option<i64> {
    MEDALLION.get().as_deref().and_then(|v| v.to_str().ok()).and_then(crate::rules::muid::parse_medallion)
}

/// The derived uid8 cluster id, looked up once per session (NOT_DERIVED until then). A plain static,
/// not a thread-local: a backend is a process of its own, and a thread-local costs a call into
/// the dynamic loader on every read from a shared library (uid8_new reads this on every call).
static DERIVED_UID8_CLUSTER_ID: AtomicI32 = AtomicI32::new(NOT_DERIVED);
const NOT_DERIVED: i32 = i32::MIN;

/// The cluster id this session's uid8 values would carry, as the identity check compares it
/// (`promotion`): the setting, or unset (-1) the derived one, on a Citus node its group id (the
/// coordinator's is 0, each worker's its own, so the nodes of a Citus cluster differ without
/// configuration), else 0; so an explicit 0 and a derived 0 are one value. A derived group id past
/// 15 is returned as it is (uid8_new refuses it).
pub fn effective_uid8_cluster_id() -> i32 {
    let setting = crate::postgres::setting::int(&UID8_CLUSTER_ID);
    if setting >= 0 {
        return setting;
    }
    derived_uid8_cluster_id()
}

/// The cluster id uid8's values carry where `comb_ext.uid8_cluster_id` is unset (-1): a Citus node's
/// group id, else 0.
pub fn derived_uid8_cluster_id() -> i32 {
    let derived = DERIVED_UID8_CLUSTER_ID.load(Ordering::Relaxed);
    if derived != NOT_DERIVED {
        return derived;
    }
    // Looked up by OID in pg_catalog, not through SQL: a query's unqualified names would resolve
    // through the caller's search_path, which may put someone else's functions first.
    // SAFETY: a catalog look-up by name in a fixed namespace.
    let citus = unsafe {
        pg_sys::get_relname_relid(c"pg_dist_local_group".as_ptr(), pg_sys::PG_CATALOG_NAMESPACE.into())
            != pg_sys::InvalidOid
    };
    let group = if citus {
        pgrx::spi::Spi::get_one::<i32>("SELECT groupid FROM pg_catalog.pg_dist_local_group").unwrap_or(None)
    } else {
        None
    };
    let derived = group.unwrap_or(0);
    DERIVED_UID8_CLUSTER_ID.store(derived, Ordering::Relaxed);
    derived
}

/// A random number drawn once per server start (at the first generator call after the start or a
/// crash restart, when shared memory is new), 0 until then.
static START_NONCE: Shared<u64> = Shared::new(c"comb_ext start nonce v1", c"comb_ext_identity", 0);
pub const SHARED_MEMORY_BYTES: usize = START_NONCE.size();

/// What this server's derived defaults (sno partition, muid medallion) are folded from: the system
/// identifier with the WAL timeline mixed in, and a random number drawn at every server start
/// (`rules::identity`). Copies of a data directory (`cp -a`, a disk snapshot, `pg_basebackup`
/// without -R, clones promoted to the same timeline) share the first two, so only the draw sets
/// them apart, as soon as each has started. Values never repeat across one server's restarts
/// whatever the defaults: the marks on disk carry on past every value issued before.
/// Call after `refuse_in_recovery`: a server in recovery has no timeline of its own. Computed once
/// per backend (the timeline cannot change once recovery has ended; a server goes back into
/// recovery only through a restart), as this is on every generator's hot path.
pub fn server_identity() -> u64 {
    static IDENTITY: AtomicU64 = AtomicU64::new(0);
    let cached = IDENTITY.load(Ordering::Relaxed);
    if cached != 0 {
        return cached;
    }
    let nonce = START_NONCE.with_locked(|nonce| {
        while *nonce == 0 {
            *nonce = rand::random();
        }
        *nonce
    });
    // SAFETY: the system identifier is the control-file copy in shared memory; the timeline is
    // read once recovery has ended, which the caller has checked.
    let (system_identifier, timeline) =
        unsafe { (pg_sys::GetSystemIdentifier(), crate::postgres::compat::wal_timeline()) };
    let identity = crate::rules::identity::server_identity(system_identifier, timeline, nonce);
    IDENTITY.store(identity, Ordering::Relaxed);
    identity
}
