//! SQL surface of 8-byte unique IDs (as `bigint`): `uid8_new`, decoders, the builder, bytea
//! conversion, and the claiming of generator ids through PostgreSQL's lock manager.

use crate::postgres::enum_arg::enum_arg;
use crate::postgres::errors;
use crate::postgres::setting;
use crate::postgres::timestamptz;
use crate::rules::time;
use crate::rules::uid8::{self, clock_sequence, Generators, Holdings, Mode, Next, Parts, Refusal, Reservation};
use crate::rules::watermark::Family;
use crate::server::high_water::{self, Marked};
use crate::server::shmem::{self, PerProc, Shared};
use crate::server::watermark;
use crate::server::{clock_wait, identity, installed, promotion, standby};
use pgrx::callconv::{BoxRet, FcInfo};
use pgrx::pgrx_sql_entity_graph::metadata::{
    ArgumentError, ReturnsError, ReturnsRef, SqlMappingRef, SqlTranslatable, TypeOrigin,
};
use pgrx::prelude::*;
use pgrx::{pg_sys, GucSetting, PgSqlErrorCode};
use std::cell::RefCell;
use std::sync::atomic::{AtomicI32, Ordering};

#[allow(non_camel_case_types)]
#[derive(PostgresEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum uid8_mode {
    spread,
    time_sequential,
}

impl From<uid8_mode> for Mode {
    fn from(mode: uid8_mode) -> Mode {
        match mode {
            uid8_mode::spread => Mode::Spread,
            uid8_mode::time_sequential => Mode::TimeSequential,
        }
    }
}

enum_arg!(
    /// A `uid8_mode` argument, read through `postgres::enum_arg`'s cache.
    ModeArg,
    uid8_mode,
    Mode,
    "uid8_mode"
);

// ---- settings (registered in lib.rs) -------------------------------------------------------

/// -1: claim any free generator id; 0..2047: claim this one.
pub static GENERATOR_ID: GucSetting<i32> = GucSetting::<i32>::new(-1);
/// How many generator ids one session may hold; it claims more as it fills milliseconds.
pub static GENERATORS_PER_SESSION: GucSetting<i32> = GucSetting::<i32>::new(16);
/// How many generator ids of a cluster id one role, and one database, may hold.
pub static GENERATOR_SHARE: GucSetting<i32> = GucSetting::<i32>::new(uid8::GENERATOR_SHARE_DEFAULT);
/// How far past the clock (ms) a session's ids may run when its milliseconds are full; 0 waits.
pub static RUN_AHEAD: GucSetting<i32> = GucSetting::<i32>::new(uid8::RUN_AHEAD_MAX_MS as i32);

/// The run-ahead bound in force: the setting, or 0 (upstream's wait) while the library may not be
/// the only one its server runs (`server::installed`).
fn run_ahead_ms() -> i64 {
    match setting::int(&RUN_AHEAD) {
        0 => 0,
        ms if installed::alone_since_server_start() => ms as i64,
        _ => 0,
    }
}

/// The cluster id setting, or unset (-1) the derived one (`identity::effective_uid8_cluster_id`):
/// on a Citus node its group id, else 0. A group id past 15 fails: it must be set by hand.
fn cluster_id() -> i32 {
    let id = identity::effective_uid8_cluster_id();
    if !(0..=uid8::CLUSTER_MAX).contains(&id) {
        errors::raise(
            PgSqlErrorCode::ERRCODE_CONFIGURATION_LIMIT_EXCEEDED,
            format!("uid8_new: this Citus node's group id {id} is past the cluster ids a uid8 holds (0 to {})", uid8::CLUSTER_MAX),
            Some("Set comb_ext.uid8_cluster_id on each node (0 to 15, each its own), e.g. with run_command_on_all_nodes('ALTER SYSTEM SET ...')."),
        );
    }
    id
}

// ---- generator ids -------------------------------------------------------------------------

/// Generator ids are session-level advisory locks in a key space of the extension's own: database
/// 0 (SQL's advisory locks always carry the current database), key 0x75696438 ("uid8"), the
/// cluster id and generator id as the second key, and 8 in the field where SQL's advisory locks
/// put 1 or 2. They show in pg_locks as advisory locks on database 0. Being session locks in the
/// user lock method, an ERROR does not release them; `pg_advisory_unlock_all()` (and
/// `DISCARD ALL`) does, which each call checks for the id it is about to use (`LockHeldByMe`, a
/// local look-up).
fn lock_tag(cluster: i32, generator: i32) -> pg_sys::LOCKTAG {
    pg_sys::LOCKTAG {
        locktag_field1: 0,
        locktag_field2: 0x7569_6438,
        locktag_field3: uid8::claim_key(cluster, generator),
        locktag_field4: 8,
        locktag_type: pg_sys::LockTagType::LOCKTAG_ADVISORY as u8,
        locktag_lockmethodid: pg_sys::USER_LOCKMETHOD as u8,
    }
}

const LOCK_MODE: pg_sys::LOCKMODE = pg_sys::ExclusiveLock as pg_sys::LOCKMODE;

/// Whether this backend still holds `generator` of `cluster` (a look-up in its local lock table).
fn still_held(cluster: i32, generator: i32) -> bool {
    // SAFETY: looks the tag up in this backend's local lock table.
    unsafe { crate::postgres::compat::lock_held_by_me(&lock_tag(cluster, generator), LOCK_MODE) }
}

fn release(cluster: i32, generator: i32) {
    if still_held(cluster, generator) {
        release_held(cluster, generator);
    }
}

/// Releases `generator` of `cluster`, which this backend holds ([`still_held`]: releasing one it
/// does not hold would WARN).
fn release_held(cluster: i32, generator: i32) {
    // SAFETY: releases a session lock this backend holds, as the caller checked.
    unsafe {
        pg_sys::LockRelease(&lock_tag(cluster, generator), LOCK_MODE, true);
    }
}

/// The generator ids this session holds, all of one cluster id, and their state.
struct Session {
    cluster: i32,
    generators: Generators,
    /// (generator id, last millisecond this session wrote to HIGH_WATER for it).
    published: Vec<(i32, i64)>,
    /// The extra ids of `cluster` the last transaction that held any let go, each with the last
    /// millisecond this session issued on it: while HIGH_WATER still reads that, every ID issued on
    /// the id is this session's, and a claim takes it back usable at once (`Generators::reclaimed`).
    let_go: Vec<(i32, i64)>,
}

/// The last millisecond any session of this server issued on each generator id (whatever its
/// cluster id: a bound that is only ever too high). A session claiming an id another one let go
/// (session end, `DISCARD ALL`, `pg_advisory_unlock_all()`) starts after it, even when the clock
/// was set back meanwhile. Shared memory: lost at a restart, when RESERVATION takes over.
static HIGH_WATER: Shared<[i64; uid8::GENERATOR_MAX as usize + 1]> =
    Shared::new(c"comb_ext uid8 high-water v1", c"comb_ext_uid8", [i64::MIN; uid8::GENERATOR_MAX as usize + 1]);
/// A bound on every millisecond issued on any id, on disk: ids claimed after a restart start past it.
static RESERVATION: Marked<Reservation> =
    Marked::new(c"comb_ext uid8 reservation v1", c"comb_ext uid8 mark writer v1", c"comb_ext_uid8", Reservation::new());

/// How many generator ids each process holds, so a claim can count what a role and a database hold
/// (`rules::uid8::may_claim`). A struct 0.5.0 does not know: its sessions' ids go uncounted, which
/// only lets a claim through that the share would refuse; which ids are issued is still decided by
/// the lock manager and HIGH_WATER alone (rule 2 of ARCHITECTURE.md's layout rule). Raised only
/// under HIGH_WATER's lock, after the counting; lowered by its process at any time.
#[repr(C)]
#[derive(Clone, Copy)]
struct Claims {
    /// The process that set `held`: a PGPROC now another process's does not count.
    pid: i32,
    cluster: i32,
    held: i32,
}

static CLAIMS: PerProc<Claims> = PerProc::new(c"comb_ext uid8 claims v1", Claims { pid: 0, cluster: 0, held: 0 });

/// Bytes to reserve at server start.
pub fn shared_memory_bytes() -> usize {
    HIGH_WATER.size() + RESERVATION.size() + PerProc::<Claims>::size(shmem::processes_at_start())
}

fn atomic(value: &mut i32) -> &AtomicI32 {
    // SAFETY: every access to these fields, in every backend, is atomic.
    unsafe { AtomicI32::from_ptr(value) }
}

thread_local! {
    /// What this process's element of CLAIMS says it holds: shared memory is touched only when
    /// that changes (so not at the end of a transaction that claimed nothing, nor ever before the
    /// first claim attached the struct).
    static COUNTED: std::cell::Cell<i32> = const { std::cell::Cell::new(0) };
}

/// Records that this process holds `held` ids of `cluster` (after a claim, a release, or a loss
/// found out).
fn count_held(cluster: i32, held: usize) {
    if COUNTED.get() == held as i32 {
        return;
    }
    let mine = CLAIMS.mine();
    // SAFETY: this process's own element; other processes only read it.
    unsafe {
        atomic(&mut (*mine).pid).store(pg_sys::MyProcPid, Ordering::Relaxed);
        atomic(&mut (*mine).cluster).store(cluster, Ordering::Relaxed);
        atomic(&mut (*mine).held).store(held as i32, Ordering::Release);
    }
    COUNTED.set(held as i32);
}

/// At the backend's exit (PostgreSQL releases its ids then), its count goes too.
#[pg_guard]
unsafe extern "C-unwind" fn forget_claims_at_exit(_code: std::ffi::c_int, _arg: pg_sys::Datum) {
    if COUNTED.get() != 0 {
        // SAFETY: this process's own element, stored atomically.
        unsafe { atomic(&mut (*CLAIMS.mine()).held).store(0, Ordering::Release) };
    }
}

/// The role this session logged in as (its PGPROC's, which pg_stat_activity shows as `usename`),
/// and its database.
fn my_role_and_database() -> (pg_sys::Oid, pg_sys::Oid) {
    // SAFETY: this backend's own PGPROC.
    let (database, role) =
        unsafe { crate::postgres::compat::proc_database_and_role(crate::postgres::compat::my_proc_number()) };
    (role, database)
}

/// Counts what is held of `cluster` and, if `rules::uid8::may_claim` lets a claim by a session
/// holding `session_held` ids through, counts the claim (undone with `count_held` if no id is
/// free). Under HIGH_WATER's lock, so two claims are never both let through on one count.
fn admit(cluster: i32, session_held: usize) -> Result<(), (Refusal, Holdings)> {
    let (role, database) = my_role_and_database();
    // SAFETY: a catalog look-up of the session's role, before the lock is taken.
    let superuser = unsafe { pg_sys::superuser_arg(role) };
    let share = GENERATOR_SHARE.get();
    let processes = CLAIMS.len(); // attached before the lock is taken
    HIGH_WATER.with_locked(|_| {
        let mut held = Holdings { session: session_held as i32, ..Holdings::default() };
        for index in 0..processes {
            let entry = CLAIMS.at(index);
            // SAFETY: index is a PGPROC's; its element and PGPROC fields are read as one word each.
            let (count, of_cluster, live) = unsafe {
                let count = atomic(&mut (*entry).held).load(Ordering::Acquire);
                let pid = atomic(&mut (*entry).pid).load(Ordering::Relaxed);
                (
                    count,
                    atomic(&mut (*entry).cluster).load(Ordering::Relaxed),
                    pid == crate::postgres::compat::proc_pid(index),
                )
            };
            if count <= 0 || of_cluster != cluster || !live {
                continue;
            }
            // SAFETY: as above.
            let (their_database, their_role) = unsafe { crate::postgres::compat::proc_database_and_role(index) };
            held.all += count;
            held.role += if their_role == role { count } else { 0 };
            held.database += if their_database == database { count } else { 0 };
            held.role_in_database += if their_role == role && their_database == database { count } else { 0 };
        }
        uid8::may_claim(held, share, superuser).map_err(|refusal| (refusal, held))?;
        count_held(cluster, session_held + 1);
        Ok(())
    })
}

/// The 53400 for a first claim the share refused.
fn refuse_first_id(cluster: i32, refusal: Refusal, held: Holdings) -> ! {
    let (role, database) = my_role_and_database();
    // SAFETY: catalog look-ups by OID; NULL if gone, which names the OID instead.
    let name = |name: *mut std::ffi::c_char, oid: pg_sys::Oid| unsafe {
        if name.is_null() {
            format!("with OID {}", oid.to_u32())
        } else {
            format!("\"{}\"", std::ffi::CStr::from_ptr(name).to_string_lossy())
        }
    };
    // SAFETY: as above.
    let role_name = name(unsafe { pg_sys::GetUserNameFromId(role, true) }, role);
    // SAFETY: as above.
    let database_name = name(unsafe { pg_sys::get_database_name(database) }, database);
    let count = uid8::GENERATOR_COUNT;
    let (message, hint) = match refusal {
        Refusal::RoleShare { limit } => (
            format!("uid8_new: role {role_name} holds {} of cluster id {cluster}'s {count} generator ids: its share, comb_ext.uid8_generator_share, is {limit}", held.role),
            "Each session holds its first id until it ends, and extra ones until its transaction ends: end idle sessions of the role (idle in transaction ones hold the most), or give the role a larger share (ALTER ROLE ... SET comb_ext.uid8_generator_share, superuser only).",
        ),
        Refusal::DatabaseShare { limit } => (
            format!("uid8_new: the sessions in database {database_name} hold {} of cluster id {cluster}'s {count} generator ids: its share, comb_ext.uid8_generator_share, is {limit}", held.database),
            "Each session holds its first id until it ends, and extra ones until its transaction ends: end idle sessions in the database (idle in transaction ones hold the most), or give it a larger share (ALTER DATABASE ... SET comb_ext.uid8_generator_share, superuser only).",
        ),
        Refusal::DatabaseReserve { share, kept } => (
            format!("uid8_new: the sessions in database {database_name} hold {} of cluster id {cluster}'s {count} generator ids, and the last {kept} of its share, comb_ext.uid8_generator_share = {share}, are kept for roles that hold none there (role {role_name} holds {} there)", held.database, held.role_in_database),
            "Each session holds its first id until it ends, and extra ones until its transaction ends: end idle sessions in the database (idle in transaction ones hold the most), or give it a larger share (ALTER DATABASE ... SET comb_ext.uid8_generator_share, superuser only).",
        ),
        Refusal::Kept { kept } => (
            format!(
                "uid8_new: {} of cluster id {cluster}'s {count} generator ids are held, and the last {kept} are kept for {} (role {role_name} holds {})",
                held.all,
                if held.role == 0 { "superusers" } else { "roles that hold none and for superusers" },
                held.role
            ),
            "Each session holds its first id until it ends, and extra ones until its transaction ends: end idle sessions (idle in transaction ones hold the most), lower comb_ext.uid8_generator_share, or use another cluster id.",
        ),
    };
    errors::raise(PgSqlErrorCode::ERRCODE_CONFIGURATION_LIMIT_EXCEEDED, message, Some(hint))
}

impl Session {
    /// Whether `ms` is a millisecond this session has not yet published for `generator`: its first
    /// id there is about to be made.
    fn is_new(&self, generator: i32, ms: i64) -> bool {
        self.published.iter().find(|&&(g, _)| g == generator).is_none_or(|&(_, last)| last < ms)
    }

    /// Records in HIGH_WATER that `generator` issued `ms`, before the value is returned (so before
    /// the id can be let go), and reserves `ms` on disk with the clock at `now_ms`; at the first id
    /// of each millisecond on each id (`is_new`).
    fn publish(&mut self, generator: i32, ms: i64, now_ms: i64) {
        let index = self.published.iter().position(|&(g, _)| g == generator);
        HIGH_WATER.with_locked(|high| {
            let slot = &mut high[generator as usize];
            *slot = (*slot).max(ms);
        });
        high_water::update(&RESERVATION, "uid8_new", |reservation| reservation.issue(ms, now_ms));
        match index {
            Some(i) => self.published[i].1 = ms,
            None => self.published.push((generator, ms)),
        }
    }

    /// Lets go of the held ids for which `keep` is false.
    fn release_unless(&mut self, mut keep: impl FnMut(i32) -> bool) {
        let cluster = self.cluster;
        self.generators.retain(|g| {
            keep(g) || {
                release(cluster, g);
                false
            }
        });
        count_held(cluster, self.generators.len());
    }

    /// At a transaction's end: lets go of every id but the lowest, each one still held recorded in
    /// `let_go` with the last millisecond this session published for it, and forgets the lowest if it
    /// is no longer held. One look-up in the local lock table per id.
    fn let_go_of_extras(&mut self) {
        let cluster = self.cluster;
        let lowest = self.generators.generators().next();
        let published = &self.published;
        let mut let_go = Vec::new();
        self.generators.retain(|g| {
            let held = still_held(cluster, g);
            if Some(g) == lowest {
                return held;
            }
            if held {
                release_held(cluster, g);
                let_go.extend(published.iter().find(|&&(p, _)| p == g));
            }
            false
        });
        if !let_go.is_empty() {
            self.let_go = let_go;
        }
        count_held(cluster, self.generators.len());
    }

    /// Forgets the ids no longer held (`pg_advisory_unlock_all()`, `DISCARD ALL`).
    fn forget_lost(&mut self) {
        let cluster = self.cluster;
        self.generators.retain(|g| still_held(cluster, g));
        count_held(cluster, self.generators.len());
    }

    /// Brings the held ids in line with the settings: all let go on a change of cluster id,
    /// all but the pinned one when one is pinned, the highest ones past the limit; and the ones
    /// no longer held (`pg_advisory_unlock_all()`, `DISCARD ALL`) forgotten.
    fn follow_settings(&mut self, cluster: i32, pinned: i32, limit: usize) {
        if cluster != self.cluster {
            self.release_unless(|_| false);
            self.cluster = cluster;
            self.let_go.clear();
        }
        if pinned >= 0 {
            self.release_unless(|g| g == pinned);
        }
        if self.generators.len() > limit {
            let keep: Vec<i32> = self.generators.generators().take(limit).collect();
            self.release_unless(|g| keep.contains(&g));
        }
    }
}

thread_local! {
    static SESSION: RefCell<Session> = const {
        RefCell::new(Session { cluster: 0, generators: Generators::new(), published: Vec::new(), let_go: Vec::new() })
    };
}

fn try_claim(cluster: i32, generator: i32) -> bool {
    let tag = lock_tag(cluster, generator);
    // SAFETY: a session-level, non-waiting acquisition of a lock tag of our own.
    match unsafe { pg_sys::LockAcquire(&tag, LOCK_MODE, true, true) } {
        pg_sys::LockAcquireResult::LOCKACQUIRE_NOT_AVAIL => false,
        // Held already, though the session did not know it (a claim whose next step failed with
        // an error): the lock manager now counts it twice, and one release would keep it held
        // for good. Back to one.
        // SAFETY: releases the second count of a session lock this backend holds.
        pg_sys::LockAcquireResult::LOCKACQUIRE_ALREADY_HELD => unsafe {
            pg_sys::LockRelease(&tag, LOCK_MODE, true);
            true
        },
        _ => true,
    }
}

/// At the end of every transaction (commit, abort, prepare) a session lets go of every generator
/// id but its lowest: extra ids serve a bulk insert while it runs, and an idle session, which a
/// connection pool may keep for hours, holds one. So sessions cannot hoard the 2,048 ids of a
/// cluster id (they are server-wide, shared by every database and role), and a new session's
/// first claim stays possible while fewer sessions than that are connected. Their last
/// milliseconds are in HIGH_WATER already (published before each value is returned), so whoever
/// claims them next starts after them.
#[pg_guard]
unsafe extern "C-unwind" fn at_transaction_end(event: pg_sys::XactEvent::Type, _arg: *mut std::ffi::c_void) {
    if matches!(
        event,
        pg_sys::XactEvent::XACT_EVENT_COMMIT
            | pg_sys::XactEvent::XACT_EVENT_ABORT
            | pg_sys::XactEvent::XACT_EVENT_PREPARE
    ) {
        // Not borrowed unless the transaction ends inside uid8_new itself: then it is left as is.
        SESSION.with(|session| {
            if let Ok(mut session) = session.try_borrow_mut() {
                session.generators.transaction_ended();
                session.let_go_of_extras();
            }
        });
    }
}

/// Registers `at_transaction_end` and `forget_claims_at_exit` once per backend, at its first
/// `uid8_new`.
fn release_extra_ids_at_transaction_end() {
    // A plain static: a backend is a process, and a thread-local read from a shared library is a
    // call into the dynamic loader on every uid8_new.
    static REGISTERED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
    if !REGISTERED.load(Ordering::Relaxed) {
        // SAFETY: a callback for the life of the backend; it reads only this backend's state.
        unsafe {
            pg_sys::RegisterXactCallback(Some(at_transaction_end), std::ptr::null_mut());
            pg_sys::before_shmem_exit(Some(forget_claims_at_exit), pg_sys::Datum::from(0));
        }
        REGISTERED.store(true, Ordering::Relaxed);
    }
}

/// Claims a generator id for `cluster`: the pinned one, or the first free one the session does
/// not hold yet, starting from a point that spreads backends apart (so claims rarely probe
/// taken ids), if the role's and the database's shares allow (`admit`). Only the session's first
/// claim fails with an error; an extra one reports None.
fn claim(cluster: i32, pinned: i32, held: &Generators) -> Option<i32> {
    // Attached before any id is held, so the count's updates at transaction end, even an abort's,
    // never need to attach (which can fail).
    CLAIMS.len();
    if pinned >= 0 {
        if !try_claim(cluster, pinned) {
            errors::raise(
                PgSqlErrorCode::ERRCODE_LOCK_NOT_AVAILABLE,
                format!("uid8_new: generator id {pinned} of cluster id {cluster} is held by another session"),
                Some("Pin another comb_ext.uid8_generator_id, or set it to -1 to claim any free one."),
            );
        }
        return Some(pinned);
    }
    if let Err((refusal, holdings)) = admit(cluster, held.len()) {
        if held.is_empty() {
            refuse_first_id(cluster, refusal, holdings);
        }
        return None;
    }
    // SAFETY: MyProcPid is a plain int set at process start.
    let mut order = uid8::probe_order(unsafe { pg_sys::MyProcPid });
    let free = order.find(|&g| !held.generators().any(|h| h == g) && try_claim(cluster, g));
    if free.is_none() {
        count_held(cluster, held.len());
    }
    if free.is_none() && held.is_empty() {
        errors::raise(
            PgSqlErrorCode::ERRCODE_CONFIGURATION_LIMIT_EXCEEDED,
            format!("uid8_new: all 2048 generator ids of cluster id {cluster} are held by other sessions"),
            Some("Each generating session holds up to comb_ext.uid8_generators_per_session ids until it ends; use another cluster id, fewer sessions or a lower setting."),
        );
    }
    free
}

fn now_ms() -> i64 {
    watermark::clock_us().div_euclid(time::US_PER_MS)
}

/// A new ID: one of this session's generator ids (claimed on first use, and as more are needed, up
/// to comb_ext.uid8_generators_per_session: when a millisecond's 64 sequence numbers of every held
/// id are used, or time_sequential ids run ahead of the clock's pace; the extra ones let go at the
/// end of each transaction), the cluster id setting; its millisecond the clock's, or up to
/// comb_ext.uid8_run_ahead past it when the session's milliseconds are full.
#[pg_extern(volatile, parallel_restricted)]
fn uid8_new(mode: default!(ModeArg, "'spread'")) -> i64 {
    new_id(mode.into())
}

fn new_id(mode: Mode) -> i64 {
    // A standby's generator-id locks are its own: the primary's sessions cannot see them.
    standby::refuse_in_recovery("uid8_new", "cluster id");
    let cluster = cluster_id();
    promotion::refuse_until_set_apart(promotion::IdentityOf::Uid8, cluster.into(), "uid8_new");
    release_extra_ids_at_transaction_end();
    let pinned = setting::int(&GENERATOR_ID);
    let limit = if pinned >= 0 { 1 } else { setting::int(&GENERATORS_PER_SESSION).max(1) as usize };
    let run_ahead = run_ahead_ms();
    SESSION.with_borrow_mut(|session| {
        session.follow_settings(cluster, pinned, limit);
        let mut wait = clock_wait::ClockWait::new("uid8_new");
        loop {
            // The generators' clock (src/server/watermark.rs), in µs for the watermark and in ms.
            let now_us = watermark::clock_us();
            let now = now_us.div_euclid(time::US_PER_MS);
            // time_sequential ids keep the clock's pace through a millisecond (Generators::next_paced),
            // except at 0, upstream's behaviour; spread ids do not sort by time, so they keep every sequence.
            let paced = (mode == Mode::TimeSequential && run_ahead > 0).then(|| clock_sequence(now_us));
            match session.generators.next_paced(now, paced, limit, run_ahead) {
                Next::Issue { timestamp_ms, sequence, generator } => {
                    // The first id of a millisecond on an id checks that the id is still held (if
                    // not, none may be). The rest of that millisecond need not: the id can be let
                    // go only between calls, by this session (pg_advisory_unlock_all()), after
                    // the millisecond is in HIGH_WATER, so whoever claims it next starts past it.
                    let first_of_its_ms = session.is_new(generator, timestamp_ms);
                    if first_of_its_ms && !still_held(cluster, generator) {
                        session.forget_lost();
                        continue;
                    }
                    // Made again, past the floor, if a watermark was taken meanwhile.
                    if !watermark::hold(Family::Uid8, now_us) {
                        continue;
                    }
                    let parts = Parts { timestamp_ms, sequence, generator, cluster, mode };
                    if first_of_its_ms {
                        session.publish(generator, timestamp_ms, now);
                    }
                    return parts.encode().unwrap_or_else(|_| {
                        errors::datetime_out_of_range(format!(
                            "uid8_new: the system clock ({timestamp_ms} ms since 1970) is outside the IDs' range: 0 to {}",
                            crate::rules::uid8::TIMESTAMP_LIMIT - 1
                        ))
                    });
                }
                Next::WaitUntil { timestamp_ms } => {
                    wait.sleep_until(timestamp_ms * time::US_PER_MS, now * time::US_PER_MS)
                }
                Next::Claim => match claim(cluster, pinned, &session.generators) {
                    Some(generator) => {
                        let high = HIGH_WATER.with_locked(|high| high[generator as usize]);
                        // Claimed back: usable at once where every library the server runs
                        // publishes what it issues (`server::installed`: no 0.3.0).
                        if session.let_go.contains(&(generator, high)) && installed::alone_since_server_start() {
                            session.generators.reclaimed(generator);
                        } else {
                            let last_issued = high
                                .max(high_water::update(&RESERVATION, "uid8_new", |reservation| reservation.last_ms()));
                            session.generators.claimed(generator, now_ms().max(last_issued));
                        }
                        count_held(cluster, session.generators.len());
                    }
                    None => session.generators.claim_failed(),
                },
            }
        }
    })
}

// ---- decoders, builder, bytea ----------------------------------------------------------------

#[pg_extern(immutable, strict, parallel_safe)]
fn uid8_timestamp(id: i64) -> TimestampWithTimeZone {
    timestamptz::from_unix_us(Parts::decode(id).timestamp_ms * time::US_PER_MS)
}

/// The smallest `time_sequential` id whose `uid8_timestamp` is at or after `ts` (that of the first
/// millisecond at or after it, sequence, generator and cluster 0), for range and partition bounds:
/// `id >= uid8_floor(lower) AND id < uid8_floor(upper)`. Before 1970: the first id of 1970.
#[pg_extern(immutable, strict, parallel_safe)]
fn uid8_floor(ts: TimestampWithTimeZone) -> i64 {
    match timestamptz::floor_unix_us(ts).and_then(uid8::time_sequential_floor) {
        Some(bound) => bound,
        None => errors::datetime_out_of_range(format!(
            "uid8_floor: timestamp {ts} is out of range for time_sequential uid8s in bigint order: valid range is \
             -infinity to {} (later time_sequential ids are negative, so bigint order is no longer time order)",
            uid8::TIME_SEQUENTIAL_ORDERED_LAST
        )),
    }
}

#[pg_extern(immutable, strict, parallel_safe)]
fn uid8_sequence(id: i64) -> i32 {
    Parts::decode(id).sequence
}

#[pg_extern(immutable, strict, parallel_safe)]
fn uid8_generator(id: i64) -> i32 {
    Parts::decode(id).generator
}

#[pg_extern(immutable, strict, parallel_safe)]
fn uid8_cluster(id: i64) -> i32 {
    Parts::decode(id).cluster
}

#[pg_extern(immutable, strict, parallel_safe, name = "uid8_mode")]
fn uid8_mode_of(id: i64) -> ModeResult {
    ModeResult(Parts::decode(id).mode)
}

/// A `uid8_mode` result, made from the enum type the function is declared to return. pgrx's own
/// conversion finds the type by name through the search_path, which fails with an empty one
/// (autovacuum's ANALYZE, REINDEX, a pg_dump restore of an expression index) and finds the wrong
/// type when another `uid8_mode` comes first.
pub struct ModeResult(Mode);

thread_local! {
    /// (function OID, its `uid8_mode` result type's label OIDs: spread, time_sequential).
    static MODE_LABELS: std::cell::Cell<Option<(pg_sys::Oid, [pg_sys::Oid; 2])>> = const { std::cell::Cell::new(None) };
}

unsafe impl BoxRet for ModeResult {
    unsafe fn box_into<'fcx>(self, fcinfo: &mut FcInfo<'fcx>) -> pgrx::datum::Datum<'fcx> {
        // SAFETY: pgrx passes the call's own FunctionCallInfo, whose flinfo describes this function.
        let function = unsafe { (*(*fcinfo.as_mut_ptr()).flinfo).fn_oid };
        let labels = match MODE_LABELS.get() {
            Some((cached, labels)) if cached == function => labels,
            _ => {
                // SAFETY: syscache look-ups by OID and by (type OID, label).
                let labels = unsafe {
                    let result_type = pg_sys::get_func_rettype(function);
                    [c"spread", c"time_sequential"].map(|label| {
                        let tuple = pg_sys::SearchSysCache2(
                            pg_sys::SysCacheIdentifier::ENUMTYPOIDNAME as i32,
                            pg_sys::Datum::from(result_type),
                            pg_sys::Datum::from(label.as_ptr()),
                        );
                        if tuple.is_null() {
                            errors::raise(
                                PgSqlErrorCode::ERRCODE_UNDEFINED_OBJECT,
                                format!("uid8_mode: the result type (OID {result_type:?}) has no label {label:?}"),
                                None,
                            );
                        }
                        let oid = (*pg_sys::heap_tuple_get_struct::<pg_sys::FormData_pg_enum>(tuple)).oid;
                        pg_sys::ReleaseSysCache(tuple);
                        oid
                    })
                };
                MODE_LABELS.set(Some((function, labels)));
                labels
            }
        };
        let label = labels[match self.0 {
            Mode::Spread => 0,
            Mode::TimeSequential => 1,
        }];
        // SAFETY: an enum value is its label's OID, passed by value.
        unsafe { fcinfo.return_raw_datum(pg_sys::Datum::from(label)) }
    }
}

unsafe impl SqlTranslatable for ModeResult {
    const TYPE_IDENT: &'static str = <uid8_mode as SqlTranslatable>::TYPE_IDENT;
    const TYPE_ORIGIN: TypeOrigin = TypeOrigin::ThisExtension;
    const ARGUMENT_SQL: Result<SqlMappingRef, ArgumentError> = Ok(SqlMappingRef::literal("uid8_mode"));
    const RETURN_SQL: Result<ReturnsRef, ReturnsError> = Ok(ReturnsRef::One(SqlMappingRef::literal("uid8_mode")));
}

/// The smallest `time_sequential` ID of the uid8 watermark's millisecond (src/server/watermark.rs): every
/// `uid8_new('time_sequential')` below it belongs to a transaction that has ended, and none made
/// after this call is below it. (`spread` IDs are not in time order: no bound orders them.)
#[pg_extern(volatile, parallel_restricted)]
fn uid8_watermark() -> i64 {
    let at = watermark::watermark_us("uid8_watermark", crate::rules::watermark::Family::Uid8);
    let parts = Parts {
        timestamp_ms: at.div_euclid(time::US_PER_MS),
        sequence: 0,
        generator: 0,
        cluster: 0,
        mode: Mode::TimeSequential,
    };
    parts.encode().unwrap_or_else(|e| errors::out_of_range("uid8_watermark", &e))
}

/// The library's `Blueprint` with every field given, for migrations and tests.
#[pg_extern(immutable, strict, parallel_safe)]
fn uid8_from_parts(
    timestamp_ms: i64,
    sequence: i32,
    generator: i32,
    cluster: i32,
    mode: default!(ModeArg, "'spread'"),
) -> i64 {
    from_parts(Parts { timestamp_ms, sequence, generator, cluster, mode: mode.into() })
}

fn from_parts(parts: Parts) -> i64 {
    parts.encode().unwrap_or_else(|e| errors::out_of_range("uid8_from_parts", &e))
}

/// The 8 bytes of an ID, big-endian (the library's byte form).
#[pg_extern(immutable, strict, parallel_safe)]
fn uid8_to_bytea(id: i64) -> Vec<u8> {
    id.to_be_bytes().to_vec()
}

#[pg_extern(immutable, strict, parallel_safe)]
fn uid8_from_bytea(bytes: &[u8]) -> i64 {
    match <[u8; 8]>::try_from(bytes) {
        Ok(bytes) => i64::from_be_bytes(bytes),
        Err(_) => errors::raise(
            PgSqlErrorCode::ERRCODE_INVALID_BINARY_REPRESENTATION,
            format!("invalid uid8: bytea of {} bytes: an ID is exactly 8 bytes", bytes.len()),
            None,
        ),
    }
}
