//! Server-wide generator state in PostgreSQL's main shared memory segment, behind an LWLock, for
//! generators whose values must be unique across every session of a server.
//!
//! A struct is found or created on first use (`ShmemInitStruct` under `AddinShmemInitLock`, the
//! way core and contrib modules attach to shared structs), so `CREATE EXTENSION` is enough. With
//! `shared_preload_libraries` its space is reserved at server start; without it the struct (a few
//! dozen bytes) comes from the spare space PostgreSQL leaves in the segment for late allocations.
//! Were that ever used up, the error says to preload the library.

use crate::errors;
use pgrx::prelude::*;
use pgrx::{pg_sys, GucSetting};
use std::ffi::{c_int, c_long, CStr};
use std::panic::RefUnwindSafe;
use std::sync::atomic::{AtomicPtr, AtomicU64, AtomicUsize, Ordering};

/// `AddinShmemInitLock` is `&MainLWLockArray[21].lock` in every supported version
/// (storage/lwlocknames.h), a macro bindgen cannot carry over.
const ADDIN_SHMEM_INIT_LOCK: usize = 21;

#[repr(C)]
struct Slot<T> {
    lock: pg_sys::LWLock,
    tranche: c_int,
    value: T,
}

/// One named struct in shared memory. `T` must be plain data (no pointers): every backend maps
/// the segment at the same address, but nothing else of one process is valid in another.
pub struct Shared<T: Copy + RefUnwindSafe + 'static> {
    /// The ShmemIndex key. Two versions of the library run side by side after a package upgrade
    /// without a restart, and must share one generator: a name and its layout never change (the
    /// rule is in the README, "Upgrading the package under a running server").
    name: &'static CStr,
    /// Wait-event name shown in pg_stat_activity while a backend waits for the lock.
    tranche_name: &'static CStr,
    initial: T,
    attached: AtomicPtr<Slot<T>>,
}

impl<T: Copy + RefUnwindSafe + 'static> Shared<T> {
    pub const fn new(name: &'static CStr, tranche_name: &'static CStr, initial: T) -> Self {
        Shared { name, tranche_name, initial, attached: AtomicPtr::new(std::ptr::null_mut()) }
    }

    /// Bytes to reserve at server start (from `shmem_request_hook`).
    pub const fn size(&self) -> usize {
        std::mem::size_of::<Slot<T>>()
    }

    /// Runs `f` on the value with the lock held exclusively. `f` must not raise an error or
    /// sleep: it runs while other backends may be waiting for the lock. (The one exception is
    /// `high_water::update`'s first read of a generator's marks after a server start.)
    #[inline]
    pub fn with_locked<R>(&self, f: impl FnOnce(&mut T) -> R) -> R {
        let slot = self.attach();
        // SAFETY: `slot` points at an initialised Slot<T> in shared memory for the life of the
        // server. The LWLock serialises access to `value`; PostgreSQL releases it on any error.
        unsafe {
            let lock = std::ptr::addr_of_mut!((*slot).lock);
            pg_sys::LWLockAcquire(lock, pg_sys::LWLockMode::LW_EXCLUSIVE);
            let result = f(&mut *std::ptr::addr_of_mut!((*slot).value));
            pg_sys::LWLockRelease(lock);
            result
        }
    }

    /// The value, for fields that are accessed atomically or under another struct's lock.
    pub fn as_ptr(&self) -> *mut T {
        let slot = self.attach();
        // SAFETY: `slot` points at an initialised Slot<T> for the life of the server.
        unsafe { std::ptr::addr_of_mut!((*slot).value) }
    }

    /// Runs `f` on the value without taking its lock, for a struct used only under another
    /// struct's lock (one LWLock a call less on a generator's hot path). `f` as for `with_locked`.
    ///
    /// # Safety
    /// The caller holds the other struct's lock, and every use of this struct, in every library
    /// version, is made under that same lock. Call `attach_now` before taking it.
    #[inline]
    pub unsafe fn with_guarded_by_other_lock<R>(&self, f: impl FnOnce(&mut T) -> R) -> R {
        let slot = self.attach();
        // SAFETY: `slot` is valid for the life of the server; the caller's lock serialises access.
        unsafe { f(&mut *std::ptr::addr_of_mut!((*slot).value)) }
    }

    /// Finds or creates the struct now rather than at its first use. A struct used under another's
    /// lock is attached before that lock is taken, so that no error is raised with it held.
    pub fn attach_now(&self) {
        self.attach();
    }

    // Inlined: every generator call attaches several structs, and after the first call each is
    // one load; the rest is out of line.
    #[inline]
    fn attach(&self) -> *mut Slot<T> {
        let attached = self.attached.load(Ordering::Relaxed);
        if !attached.is_null() {
            return attached;
        }
        self.attach_first()
    }

    #[cold]
    #[inline(never)]
    fn attach_first(&self) -> *mut Slot<T> {
        // SAFETY: a Slot<T> is initialised the first time it is created, under the init lock.
        let slot = unsafe {
            find_or_create(self.name, self.size(), |slot: *mut Slot<T>| {
                let tranche = pg_sys::LWLockNewTrancheId();
                pg_sys::LWLockInitialize(std::ptr::addr_of_mut!((*slot).lock), tranche);
                std::ptr::addr_of_mut!((*slot).tranche).write(tranche);
                std::ptr::addr_of_mut!((*slot).value).write(self.initial);
            })
        };
        // SAFETY: the slot is initialised; registering a tranche name is per backend.
        unsafe { pg_sys::LWLockRegisterTranche((*slot).tranche, self.tranche_name.as_ptr()) };
        self.attached.store(slot, Ordering::Relaxed);
        slot
    }
}

/// The struct `name` of `size` bytes in shared memory, found, or created and set up by `init`
/// (under `AddinShmemInitLock`, so exactly once). Out of shared memory is an ERROR that says to
/// preload the library.
///
/// SAFETY: called from a backend with a PGPROC (any SQL-calling backend), outside any lock; `init`
/// must initialise every byte the callers read.
unsafe fn find_or_create<S>(name: &'static CStr, size: usize, init: impl FnOnce(*mut S)) -> *mut S {
    let mut init = std::panic::AssertUnwindSafe(Some(init));
    PgTryBuilder::new(move || unsafe {
        let init_lock = std::ptr::addr_of_mut!((*pg_sys::MainLWLockArray.add(ADDIN_SHMEM_INIT_LOCK)).lock);
        pg_sys::LWLockAcquire(init_lock, pg_sys::LWLockMode::LW_EXCLUSIVE);
        let mut found = false;
        let slot = pg_sys::ShmemInitStruct(name.as_ptr(), size, &mut found).cast::<S>();
        if !found {
            if let Some(init) = init.take() {
                init(slot);
            }
        }
        pg_sys::LWLockRelease(init_lock);
        slot
    })
    .catch_when(PgSqlErrorCode::ERRCODE_OUT_OF_MEMORY, |_| {
        errors::raise(
            PgSqlErrorCode::ERRCODE_OUT_OF_MEMORY,
            format!("comb_ext: no shared memory left for {} ({size} bytes)", name.to_string_lossy()),
            Some("Add comb_ext to shared_preload_libraries so its space is reserved at server start."),
        )
    })
    .execute()
}

/// The value of integer setting `name` (0 if it has none): for sizes fixed at server start.
pub fn int_setting(name: &CStr) -> i32 {
    // SAFETY: the value is a C string PostgreSQL owns, or NULL; settings are read before any
    // library is loaded.
    unsafe {
        let value = pg_sys::GetConfigOption(name.as_ptr(), true, false);
        if value.is_null() {
            return 0;
        }
        CStr::from_ptr(value).to_str().ok().and_then(|v| v.parse().ok()).unwrap_or(0)
    }
}

/// An array in shared memory with one `T` per PGPROC (every backend and auxiliary process, and the
/// processes that stand for prepared transactions), found or created on first use. `T` is plain
/// data whose fields every backend uses atomically.
pub struct PerProc<T: Copy + 'static> {
    name: &'static CStr,
    initial: T,
    attached: AtomicPtr<T>,
    len: AtomicUsize,
}

impl<T: Copy + 'static> PerProc<T> {
    pub const fn new(name: &'static CStr, initial: T) -> Self {
        PerProc { name, initial, attached: AtomicPtr::new(std::ptr::null_mut()), len: AtomicUsize::new(0) }
    }

    /// Bytes to reserve at server start for `processes` PGPROCs.
    pub const fn size(processes: usize) -> usize {
        processes * std::mem::size_of::<T>()
    }

    pub fn len(&self) -> usize {
        self.attach();
        self.len.load(Ordering::Relaxed)
    }

    /// The element of PGPROC number `index` (below `len()`).
    pub fn at(&self, index: usize) -> *mut T {
        let first = self.attach();
        assert!(index < self.len.load(Ordering::Relaxed), "PGPROC {index} out of range");
        // SAFETY: within the array.
        unsafe { first.add(index) }
    }

    /// This backend's element.
    pub fn mine(&self) -> *mut T {
        // SAFETY: MyProc is this backend's PGPROC, one of ProcGlobal's.
        self.at(unsafe { crate::compat::my_proc_number() })
    }

    #[inline]
    fn attach(&self) -> *mut T {
        let attached = self.attached.load(Ordering::Relaxed);
        if !attached.is_null() {
            return attached;
        }
        self.attach_first()
    }

    #[cold]
    #[inline(never)]
    fn attach_first(&self) -> *mut T {
        // SAFETY: ProcGlobal is set up before any backend runs SQL; its count never changes.
        // `allProcCount` leaves out the processes of prepared transactions, which follow.
        let count = unsafe { (*pg_sys::ProcGlobal).allProcCount as usize }
            + int_setting(c"max_prepared_transactions").max(0) as usize;
        let initial = self.initial;
        // SAFETY: every element is written the first time the array is created.
        let first = unsafe {
            find_or_create(self.name, Self::size(count), |first: *mut T| {
                for i in 0..count {
                    first.add(i).write(initial);
                }
            })
        };
        self.len.store(count, Ordering::Relaxed);
        self.attached.store(first, Ordering::Relaxed);
        first
    }
}

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

/// The longest a generator waits for the wall clock (milliseconds, `comb_ext.max_clock_wait`).
pub static MAX_CLOCK_WAIT_MS: GucSetting<i32> = GucSetting::<i32>::new(5_000);

/// The longest slice a wait sleeps before it reads the clock again: a step of the clock during
/// a wait is seen within this, and the generator decides again.
const SLICE_MS: i64 = 10;

/// One call's waits for the wall clock. [`ClockWait::sleep_until`] sleeps toward a target in short
/// latch waits, which a cancel, a statement timeout or a server shutdown interrupt, and returns as
/// soon as the clock reaches the target or moves backwards, so that the caller asks its generator
/// again (after a step back sno toggles its tick at once, and uid8 goes on ahead of the clock).
/// The time all of one call's waits take is bounded by `comb_ext.max_clock_wait`, measured on the
/// monotonic clock (the wall clock is the one in doubt): past it the call fails with 55000 rather
/// than block every insert until the clock catches up. Nothing is issued then.
pub struct ClockWait {
    function: &'static str,
    started: Option<std::time::Instant>,
    /// The largest step back seen during the waits (µs).
    stepped_back_us: i64,
    /// For a generator that waits only to keep bursts from running its values more than this far
    /// ahead of the clock (µs): what its 55000 error says instead.
    run_ahead_limit_us: Option<i64>,
}

impl ClockWait {
    pub const fn new(function: &'static str) -> Self {
        ClockWait { function, started: None, stepped_back_us: 0, run_ahead_limit_us: None }
    }

    /// Waits of a generator whose values run ahead of the clock, but by at most `limit_us`
    /// (µs) through bursts of calls: its waits are for the clock to catch up with those.
    pub const fn pacing(function: &'static str, limit_us: i64) -> Self {
        ClockWait { function, started: None, stepped_back_us: 0, run_ahead_limit_us: Some(limit_us) }
    }

    /// Sleeps until the wall clock reaches `unix_us` (what the generator issued last, or the mark
    /// it reserved before a restart, is ahead of it) or steps back behind `read_us`, the reading
    /// the generator decided on (so a step between that reading and this call counts too),
    /// whichever comes first.
    pub fn sleep_until(&mut self, unix_us: i64, read_us: i64) {
        let started = *self.started.get_or_insert_with(std::time::Instant::now);
        let mut last = read_us;
        loop {
            pgrx::check_for_interrupts!();
            // The generators' clock: the wall clock, unless a watermark put it ahead (src/watermark.rs).
            let now = crate::watermark::clock_us();
            if now < last {
                self.stepped_back_us = self.stepped_back_us.max(last - now);
                return;
            }
            last = now;
            let remaining = unix_us - now;
            if remaining <= 0 {
                return;
            }
            let bound_ms = MAX_CLOCK_WAIT_MS.get().max(0) as i64;
            let waited_ms = started.elapsed().as_millis() as i64;
            if waited_ms >= bound_ms {
                self.fail(remaining, waited_ms, bound_ms);
            }
            nap(((remaining + 999) / 1000).min(SLICE_MS).min(bound_ms - waited_ms).max(1) as c_long);
        }
    }

    /// The 55000 error: how far ahead of the clock the value waited for is, and that the clock
    /// was set back only if a step back was seen (after a restart, the mark reserved before it is
    /// up to two seconds ahead of the values issued, and the clock may not have moved at all).
    fn fail(&self, ahead_us: i64, waited_ms: i64, bound_ms: i64) -> ! {
        if let Some(limit_us) = self.run_ahead_limit_us {
            errors::raise(
                pgrx::PgSqlErrorCode::ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE,
                format!(
                    "{}: bursts of calls have run its values {:.3} s ahead of the system clock, as far as they may; waited {waited_ms} ms for the clock to catch up, the limit (comb_ext.max_clock_wait) is {bound_ms} ms",
                    self.function,
                    limit_us as f64 / 1e6
                ),
                Some("Calls faster than one a microsecond run the values ahead of the clock, and past the limit each call waits for the clock. Many sessions at the limit at once can keep one waiting: make fewer calls at once, or raise comb_ext.max_clock_wait."),
            );
        }
        let seen = if self.stepped_back_us > 0 {
            format!("; the clock was seen to step back {:.3} s during the wait", self.stepped_back_us as f64 / 1e6)
        } else {
            String::new()
        };
        errors::raise(
            pgrx::PgSqlErrorCode::ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE,
            format!(
                "{}: the last value issued (or the mark reserved before a restart) is {:.3} s ahead of the system clock{seen}; waited {waited_ms} ms for the clock to reach it, the limit (comb_ext.max_clock_wait) is {bound_ms} ms",
                self.function,
                ahead_us as f64 / 1e6
            ),
            Some("Values must not repeat, so generation waits until the clock passes the last value issued. If the clock is right, wait and retry (a mark is at most two seconds ahead); if it was set back, correct it, or raise comb_ext.max_clock_wait."),
        )
    }
}

/// Refuses to generate on a server in recovery (a standby, or a server replaying WAL): it has its
/// primary's system identifier and copies of its configuration files, so the identity `function`
/// derives (or is given) is the primary's, and its values could repeat the primary's. 25006, the
/// SQLSTATE of writes on a standby.
pub fn refuse_in_recovery(function: &str, identity: &str) {
    // SAFETY: reads shared recovery state (a local flag once recovery has ended).
    if unsafe { pg_sys::RecoveryInProgress() } {
        errors::raise(
            pgrx::PgSqlErrorCode::ERRCODE_READ_ONLY_SQL_TRANSACTION,
            format!("{function}: cannot generate on a server in recovery (a standby): its {identity} is its primary's, so it could return the primary's values"),
            Some("Generate these ids on the primary. comb_uuid() works on a standby: its uniqueness does not depend on the server's identity."),
        );
    }
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
    let (system_identifier, timeline) = unsafe { (pg_sys::GetSystemIdentifier(), crate::compat::wal_timeline()) };
    let identity = crate::rules::identity::server_identity(system_identifier, timeline, nonce);
    IDENTITY.store(identity, Ordering::Relaxed);
    identity
}

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
        &format!("Set {settings} apart from the source's with ALTER SYSTEM and reload (README: \"Guarantees, situation by situation\")."),
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
            Some(&format!("Set {settings} to a value no other server uses with ALTER SYSTEM, and reload (README: \"Guarantees, situation by situation\"). After a failover whose old primary is gone for good, setting the same value again is enough.")),
        );
    }
    if let Some(copied_at) = origin.copied_at {
        let seen = std::time::UNIX_EPOCH + std::time::Duration::from_micros(copied_at.max(0) as u64);
        if newest_config_change().is_none_or(|changed| changed <= seen) {
            errors::raise(
                pgrx::PgSqlErrorCode::ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE,
                format!("{function}: this data directory was copied from another (found in a new place at {:.3} s since 1970) and its configuration has not changed since, so {settings} is the one of the server it was copied from, whose values it would repeat", copied_at as f64 / 1e6),
                Some(&format!("Set {settings} to a value no other server uses with ALTER SYSTEM, and reload (README: \"Copies of a data directory\"). If the data directory was moved, not copied, setting the same value again is enough.")),
            );
        }
        crate::high_water::write_origin(function, &crate::rules::identity::OriginRecord { copied_at: None, ..origin });
    }
    SETTINGS_SINCE_COPY.set(true);
}
