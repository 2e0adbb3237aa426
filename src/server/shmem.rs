//! Server-wide generator state in PostgreSQL's main shared memory segment, behind an LWLock, for
//! generators whose values must be unique across every session of a server.
//!
//! A struct is found or created on first use (`ShmemInitStruct` under `AddinShmemInitLock`, the
//! way core and contrib modules attach to shared structs), so `CREATE EXTENSION` is enough. With
//! `shared_preload_libraries` its space is reserved at server start; without it the struct (a few
//! dozen bytes) comes from the spare space PostgreSQL leaves in the segment for late allocations.
//! Were that ever used up, the error says to preload the library.
use crate::postgres::errors;

use pgrx::pg_sys;
use pgrx::prelude::*;
use std::ffi::{c_int, CStr};
use std::panic::RefUnwindSafe;
use std::sync::atomic::{AtomicBool, AtomicPtr, AtomicUsize, Ordering};

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
    /// rule is in the docs/upgrading.md, "Upgrading the package under a running server").
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
        let init_lock = init_lock();
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
        release_init_lock();
        errors::raise(
            PgSqlErrorCode::ERRCODE_OUT_OF_MEMORY,
            format!("comb_ext: no shared memory left for {} ({size} bytes)", name.to_string_lossy()),
            Some("Add comb_ext to shared_preload_libraries so its space is reserved at server start."),
        )
    })
    .execute()
}

/// Names of structs in which libraries of older, incompatible layouts kept a state that this
/// version keeps under another name (ARCHITECTURE.md, "Changing a shared-memory layout", rule 3):
/// such a library running in the same server would be a second generator of the family, and
/// repeat its values. Checked once per backend, before the family's first call.
pub struct OlderLayouts {
    names: &'static [&'static CStr],
    checked: AtomicBool,
}

impl OlderLayouts {
    pub const fn new(names: &'static [&'static CStr]) -> Self {
        OlderLayouts { names, checked: AtomicBool::new(false) }
    }

    /// Refuses (55000) while a struct of an older layout exists in this server, and keeps one
    /// from being made later: each name is taken for a struct of 0 bytes, so an older library that
    /// attaches afterwards fails in `ShmemInitStruct` (its size does not match) instead of running
    /// a generator of its own. An older library attached first: its struct has its own size, and
    /// taking the name fails here the same way.
    #[inline]
    pub fn refuse(&self, function: &str) {
        if !self.checked.load(Ordering::Relaxed) {
            self.check_first(function);
        }
    }

    #[cold]
    #[inline(never)]
    fn check_first(&self, function: &str) {
        for &name in self.names {
            // SAFETY: as in `find_or_create`; a struct of 0 bytes is never read or written.
            unsafe {
                PgTryBuilder::new(|| {
                    let init_lock = init_lock();
                    pg_sys::LWLockAcquire(init_lock, pg_sys::LWLockMode::LW_EXCLUSIVE);
                    let mut found = false;
                    pg_sys::ShmemInitStruct(name.as_ptr(), 0, &mut found);
                    pg_sys::LWLockRelease(init_lock);
                })
                .catch_when(PgSqlErrorCode::ERRCODE_INTERNAL_ERROR, |_| {
                    // ShmemInitStruct raised it with the init lock held: released before the ERROR
                    // goes on, for a caller that catches it without an abort.
                    release_init_lock();
                    errors::raise(
                        PgSqlErrorCode::ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE,
                        format!(
                            "{function}: a comb_ext library of an older layout (\"{}\", 0.3.0) has run in this server since it started; its generator and this one would repeat each other's values",
                            name.to_string_lossy()
                        ),
                        Some("Restart the server: an upgrade from 0.3.0 without a restart is not supported (docs/upgrading.md)."),
                    )
                })
                .execute()
            }
        }
        self.checked.store(true, Ordering::Relaxed);
    }
}

/// `AddinShmemInitLock`.
///
/// SAFETY: MainLWLockArray is set up before any backend runs SQL.
unsafe fn init_lock() -> *mut pg_sys::LWLock {
    std::ptr::addr_of_mut!((*pg_sys::MainLWLockArray.add(ADDIN_SHMEM_INIT_LOCK)).lock)
}

/// Releases `AddinShmemInitLock` if this backend holds it: after an ERROR caught between its
/// acquire and release.
fn release_init_lock() {
    // SAFETY: MainLWLockArray is set up before any backend runs SQL.
    unsafe {
        let init_lock = init_lock();
        if pg_sys::LWLockHeldByMe(init_lock) {
            pg_sys::LWLockRelease(init_lock);
        }
    }
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

/// A bound on the PGPROCs a server has, from the settings that size ProcGlobal (generously for the
/// auxiliary processes): for the space of `PerProc` arrays reserved at server start.
pub fn processes_at_start() -> usize {
    let processes = int_setting(c"max_connections")
        + int_setting(c"autovacuum_max_workers")
        + int_setting(c"max_worker_processes")
        + int_setting(c"max_wal_senders")
        + int_setting(c"max_prepared_transactions")
        + 64;
    processes.max(0) as usize
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
        self.at(unsafe { crate::postgres::compat::my_proc_number() })
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
