//! Watermarks for readers that follow ids in order (`rules::watermark` says why they hold): the
//! floor every generator reads the clock through, the holdings each transaction publishes before
//! its first id of a family, the transaction callbacks that clear them (and hand a prepared
//! transaction's over to it, on disk too), and `comb_watermark_holders()`. The families' own
//! `*_watermark()` functions turn the time this module gives into their smallest id.

use crate::postgres::errors;
use crate::rules::time;
use crate::rules::watermark::{self as rule, Family, Floor, GeneratorClock, Held, Slot, SlotWords, NONE, NO_RECORD};
use crate::server::high_water::{self, Marked};
use crate::server::shmem::{self, PerProc, Shared};
use crate::server::standby;
use pgrx::prelude::*;
use pgrx::{pg_sys, PgSqlErrorCode};
use std::cell::Cell;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicI64, AtomicU32, Ordering};

/// The floor, on disk (comb_ext/watermark.mark) and under a lock: raised by every watermark.
static FLOOR: Marked<Floor> = Marked::new(
    c"comb_ext watermark floor v1",
    c"comb_ext watermark floor writer v1",
    c"comb_ext_watermark",
    Floor::new(),
);

/// The generators' clock: its floor read atomically without the lock (the wall clock is at or past
/// it but after a step back), changed only under the lock, through atomic stores.
#[repr(C)]
#[derive(Clone, Copy)]
struct Published {
    /// Its floor is UNLOADED until the first call since the server started has read the floor's mark.
    clock: GeneratorClock,
    /// Whether prepared transactions' holdings have been read back from disk since the start.
    prepared_loaded: u32,
}

const UNLOADED: i64 = i64::MIN;

static PUBLISHED: Shared<Published> = Shared::new(
    c"comb_ext watermark v1",
    c"comb_ext_watermark",
    Published { clock: GeneratorClock { floor: UNLOADED, anchor: 0 }, prepared_loaded: 0 },
);

/// One slot per PGPROC: backends, and the dummy processes of prepared transactions. Used only
/// through `rules::watermark::Slot`, whose protocol the model checker checks.
static HOLDINGS: PerProc<SlotWords> = PerProc::new(c"comb_ext watermark holdings v1", SlotWords::EMPTY);

fn slot(index: usize) -> &'static Slot {
    // SAFETY: the array lives in shared memory for the server's life; every process uses it as Slots.
    unsafe { Slot::over(HOLDINGS.at(index)) }
}

fn my_slot() -> &'static Slot {
    // SAFETY: as in `slot`.
    unsafe { Slot::over(HOLDINGS.mine()) }
}

/// Bytes to reserve at server start: the floor, and a holding per process.
pub fn shared_memory_bytes() -> usize {
    FLOOR.size() + PUBLISHED.size() + PerProc::<SlotWords>::size(shmem::processes_at_start())
}

fn atomic(value: &mut i64) -> &AtomicI64 {
    // SAFETY: every access to these fields, in every backend, is atomic.
    unsafe { AtomicI64::from_ptr(value) }
}

fn published() -> *mut Published {
    PUBLISHED.as_ptr()
}

/// The floor the generators read the clock through (`clock`), read from its mark by the first
/// call after a server start (0 while no watermark was ever taken). Call it before taking a
/// generator's lock: that first read takes the floor's lock, and may fail.
#[inline]
fn floor_us() -> i64 {
    // SAFETY: the field lives in shared memory for the server's life and is only read atomically
    // outside its lock.
    let floor = atomic(unsafe { &mut (*published()).clock.floor }).load(Ordering::Relaxed);
    if floor != UNLOADED {
        floor
    } else {
        load_floor()
    }
}

#[cold]
fn load_floor() -> i64 {
    let durable = high_water::update(&FLOOR, "comb_ext", |floor| floor.floor());
    let monotonic = time::monotonic_us();
    PUBLISHED.with_locked(|published| {
        if published.clock.floor == UNLOADED {
            published.clock.anchor = monotonic;
            atomic(&mut published.clock.floor).store(durable, Ordering::SeqCst);
        }
        published.clock.floor
    })
}

/// The clock the generators read (µs): the wall clock, never below a watermark already taken
/// (`rules::watermark::GeneratorClock`).
#[inline]
pub fn clock_us() -> i64 {
    clock().now_us()
}

/// The generators' clock with its floor as read now: take it before a generator's lock (the
/// first read after a start takes the floor's lock, and may fail), read it under the lock. A
/// floor raised in between is not missed: `hold` reads it again, and the id is made again.
#[inline]
pub fn clock() -> Clock {
    Clock { floor: floor_us() }
}

#[derive(Clone, Copy)]
pub struct Clock {
    floor: i64,
}

impl Clock {
    #[inline]
    pub fn now_us(self) -> i64 {
        let wall = time::wall_clock_unix_us();
        if wall >= self.floor {
            return wall;
        }
        behind_the_floor(wall)
    }
}

/// The wall clock stepped back behind the floor: the floor advances at half speed, and is the clock.
#[cold]
fn behind_the_floor(wall: i64) -> i64 {
    let monotonic = time::monotonic_us();
    PUBLISHED.with_locked(|published| {
        let mut clock = published.clock;
        let reading = clock.read(wall, monotonic);
        published.clock.anchor = clock.anchor;
        atomic(&mut published.clock.floor).store(clock.floor, Ordering::SeqCst);
        reading
    })
}

/// What this backend's open transaction has published. A plain static, not a thread-local: a
/// library's thread-locals cost a `__tls_get_addr` call at every access, on every generator call.
/// Only the backend's own thread touches it (the marks' writing threads never do).
struct BackendOnly(Cell<Held>);

// SAFETY: see above: one thread per backend process uses it.
unsafe impl Sync for BackendOnly {}

static HELD: BackendOnly = BackendOnly(Cell::new(Held::new()));

/// Before an id of `family` made with the clock at `at` (from `clock_us`) is returned: publishes
/// the transaction's holding if it is the first of the family or earlier than the one published.
/// False if a watermark raised the floor past `at` meanwhile: the id must not be returned, and
/// the caller makes another with the clock read again (`rules::watermark`, "An order").
#[inline]
pub fn hold(family: Family, at: i64) -> bool {
    // SAFETY: the backend's thread only; `Held` is plain data, read without copying it whole.
    let must = unsafe { (*HELD.0.as_ptr()).must_publish(family, at) };
    if !must {
        return true;
    }
    publish(family, at)
}

#[cold]
fn publish(family: Family, at: i64) -> bool {
    clear_at_transaction_end();
    let mut held = HELD.0.get();
    held.publish(family, at);
    HELD.0.set(held);
    my_slot().publish(family, at);
    // SAFETY: as in `floor_us`.
    atomic(unsafe { &mut (*published()).clock.floor }).load(Ordering::SeqCst) <= at
}

/// The watermark of `family` (µs): every id of it made at a time below this belongs to a
/// transaction that has ended. Refused on a server in recovery: its primary's transactions are
/// not its own to see.
pub fn watermark_us(function: &str, family: Family) -> i64 {
    standby::refuse_in_recovery(function, "watermark");
    load_prepared_holdings(function);
    let now = clock_us();
    let wall = time::wall_clock_unix_us();
    let floor = high_water::update(&FLOOR, function, |floor| floor.raise(now, wall));
    let monotonic = time::monotonic_us();
    let floor = PUBLISHED.with_locked(|published| {
        let mut clock = published.clock;
        clock.raise(floor, monotonic);
        published.clock.anchor = clock.anchor;
        atomic(&mut published.clock.floor).store(clock.floor, Ordering::SeqCst);
        clock.floor
    });
    // Two passes, the backends' slots then the prepared transactions', clearing nothing
    // (`rules::watermark::scan`).
    let slots = || (0..HOLDINGS.len()).filter(|&index| in_this_database(index)).map(slot);
    rule::scan(floor, family, slots, still_prepared)
}

/// Whether process `index` (a backend, or a prepared transaction's) belongs to this database: a
/// reader's rows are in its own database, so a transaction in another one, open or prepared, does
/// not hold its watermark back.
fn in_this_database(index: usize) -> bool {
    // SAFETY: index is a PGPROC's; MyDatabaseId is set once the backend has connected.
    unsafe { crate::postgres::compat::proc_database_and_role(index).0 == pg_sys::MyDatabaseId }
}

/// Whether prepared transaction `xid` is still prepared; its file is removed once it is not. An id
/// outside the server's live window has ended (`rule::within_live_xids`), whatever
/// `TransactionIdIsInProgress` says of it. (tests/watermark_interleaving.py stops a scan at the
/// `in_progress` call.)
fn still_prepared(xid: i64) -> bool {
    if live(xid as u32) {
        return true;
    }
    let _ = std::fs::remove_file(prepared_path(xid as u32));
    false
}

/// Whether transaction `xid`, read from a slot or a record's name, is running or prepared: within
/// the server's live window of ids, and in progress.
fn live(xid: u32) -> bool {
    // SAFETY: shared memory is attached; ReadNextFullTransactionId takes its own lock.
    let (oldest, next) = unsafe { (crate::postgres::compat::oldest_xid(), pg_sys::ReadNextFullTransactionId().value as u32) };
    rule::still_prepared(xid.into(), oldest, next, in_progress)
}

/// Whether transaction `xid` is running or prepared.
fn in_progress(xid: u32) -> bool {
    // SAFETY: any transaction id; the call takes its own locks.
    unsafe { pg_sys::TransactionIdIsInProgress(pg_sys::TransactionId::from_inner(xid)) }
}

const PREPARED_DIR: &str = "comb_ext/prepared";

fn prepared_path(xid: u32) -> PathBuf {
    Path::new(PREPARED_DIR).join(xid.to_string())
}

/// Once per server start (or promotion), before the first watermark: the holdings of the
/// transactions prepared before it, from their records, onto their processes' slots. One with no
/// record, or one that is damaged or out of range (`Held::from_record`), holds every family at
/// NO_RECORD until it ends: its ids could be of any age. Reads one record per prepared transaction
/// (at most max_prepared_transactions), then removes the records of transactions that have ended.
fn load_prepared_holdings(function: &str) {
    // SAFETY: as in `floor_us`.
    let loaded = unsafe { AtomicU32::from_ptr(&mut (*published()).prepared_loaded) };
    // A standby's prepared transactions are its primary's: read once it is promoted.
    // SAFETY: reads shared state.
    if loaded.load(Ordering::SeqCst) != 0 || unsafe { pg_sys::RecoveryInProgress() } {
        return;
    }
    high_water::remove_stale_temporaries(Path::new(PREPARED_DIR));
    let now = time::wall_clock_unix_us();
    let mut restored = vec![];
    for index in 0..HOLDINGS.len() {
        // SAFETY: index is a PGPROC's.
        let (pid, xid) = unsafe { (crate::postgres::compat::proc_pid(index), crate::postgres::compat::proc_xid(index)) };
        // A prepared transaction's process that stands for one still prepared.
        if pid != 0 || xid == 0 || !in_progress(xid) {
            continue;
        }
        pg_sys::check_for_interrupts!();
        let path = prepared_path(xid);
        let record = high_water::read_small_file(&path, false)
            .map_err(|e| e.to_string())
            .and_then(|text| Held::from_record(&text, now));
        let at = match record {
            Ok(held) => held.words(),
            Err(why) => {
                pgrx::warning!(
                    "{function}: prepared transaction {xid} has no valid record of its watermark holdings ({}: {why}); it holds every watermark of its database at 1970-01-01 until it is committed or rolled back",
                    path.display()
                );
                [NO_RECORD; 4]
            }
        };
        restored.push((index, xid, at));
    }
    // Under the lock a PREPARE hands over under: a process that stands for another transaction by
    // now (this one ended) keeps what it was handed.
    PUBLISHED.with_locked(|_| {
        for &(index, xid, at) in &restored {
            // SAFETY: as above.
            if unsafe { crate::postgres::compat::proc_xid(index) } == xid {
                slot(index).hand_over(xid as i64, at);
            }
        }
    });
    remove_ended_records(function);
    loaded.store(1, Ordering::SeqCst);
}

/// Removes the records of transactions no longer in progress (ended while the server was down, or
/// before a scan noticed). A record being written for a PREPARE under way is in progress, and kept.
fn remove_ended_records(function: &str) {
    let entries = match std::fs::read_dir(PREPARED_DIR) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return,
        Err(e) => errors::raise(
            PgSqlErrorCode::ERRCODE_IO_ERROR,
            format!("{function}: could not read {PREPARED_DIR}: {e}"),
            None,
        ),
    };
    for entry in entries.flatten() {
        pg_sys::check_for_interrupts!();
        let Some(xid) = entry.file_name().to_str().and_then(|n| n.parse::<u32>().ok()) else { continue };
        if !live(xid) {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// The records of prepared transactions' holdings, as `comb_ext_marks()` shows them: the four
/// times (comb, sno, muid, uid8; `i64::MIN` for none) and why one cannot be read.
fn prepared_files() -> Vec<high_water::MarkFile> {
    let Ok(entries) = std::fs::read_dir(PREPARED_DIR) else { return Vec::new() };
    let mut files: Vec<_> = entries
        .flatten()
        .map(|entry| {
            let path = entry.path();
            let now = time::wall_clock_unix_us();
            let record = high_water::read_small_file(&path, false)
                .map_err(|e| e.to_string())
                .and_then(|text| Held::from_record(&text, now));
            let problem = record.as_ref().err().map(|why| format!("{}: {why}", path.display()));
            high_water::MarkFile {
                file: path.display().to_string(),
                record: record.ok().map(|held| held.words().to_vec()),
                reservation_unix_us: None,
                problem,
            }
        })
        .collect();
    files.sort_by(|a, b| a.file.cmp(&b.file));
    files
}

/// Whether the current user has the privileges of `role`: what shows it others' times, as
/// pg_stat_activity shows others' sessions (`role` pg_read_all_stats: everyone's).
fn user_has_privs_of(role: pg_sys::Oid) -> bool {
    // SAFETY: catalog look-ups of the current user's memberships.
    unsafe { pg_sys::has_privs_of_role(pg_sys::GetUserId(), role) }
}

/// `prepared_files()` as `comb_ext_marks()` shows them to the current user, filtered as
/// `comb_watermark_holders()` is: a record of a transaction prepared in another database, or of none
/// still prepared (its database unknown), is left out; one prepared by a role the user has no
/// privileges of shows without its times. pg_read_all_stats sees every record.
pub fn prepared_files_shown() -> Vec<high_water::MarkFile> {
    let sees_all = user_has_privs_of(crate::postgres::compat::READ_ALL_STATS);
    let mut files = prepared_files();
    if sees_all {
        return files;
    }
    files.retain_mut(|file| {
        let xid = Path::new(&file.file).file_name().and_then(|name| name.to_str()?.parse::<u32>().ok());
        let Some(index) = xid.and_then(prepared_process) else { return false };
        if !in_this_database(index) {
            return false;
        }
        // SAFETY: index is a PGPROC's.
        let role = unsafe { crate::postgres::compat::proc_database_and_role(index).1 };
        if !user_has_privs_of(role) {
            (file.record, file.problem) = (None, None);
        }
        true
    });
    files
}

/// The process (PGPROC index) that stands for prepared transaction `xid`, if it is still prepared.
fn prepared_process(xid: u32) -> Option<usize> {
    (0..HOLDINGS.len()).find(|&index| {
        // SAFETY: index is a PGPROC's.
        unsafe { crate::postgres::compat::proc_pid(index) == 0 && crate::postgres::compat::proc_xid(index) == xid }
    })
}

/// Registers `at_transaction_end` and `after_commit` once per backend, at its first holding.
fn clear_at_transaction_end() {
    thread_local! {
        static REGISTERED: Cell<bool> = const { Cell::new(false) };
    }
    if !REGISTERED.get() {
        // SAFETY: callbacks for the life of the backend; they use only this backend's state and slot.
        unsafe {
            pg_sys::RegisterXactCallback(Some(at_transaction_end), std::ptr::null_mut());
            pg_sys::RegisterResourceReleaseCallback(Some(after_commit), std::ptr::null_mut());
        }
        REGISTERED.set(true);
    }
}

/// A committed transaction lets go of its holdings only once every transaction callback has run:
/// Citus commits a distributed transaction's prepared parts on the workers in its own commit
/// callback, which runs after this library's (callbacks run newest first), and a holding let go
/// before then would let a reader through the coordinator pass rows not yet visible on a worker.
/// The top transaction's resources are released after all of them (`CommitTransaction` in xact.c).
#[pg_guard]
unsafe extern "C-unwind" fn after_commit(
    phase: pg_sys::ResourceReleasePhase::Type,
    _is_commit: bool,
    is_top_level: bool,
    _arg: *mut std::ffi::c_void,
) {
    if is_top_level && phase == pg_sys::ResourceReleasePhase::RESOURCE_RELEASE_AFTER_LOCKS {
        let held = HELD.0.get();
        if held != Held::new() {
            release(&held);
        }
    }
}

/// A transaction that ends lets go of its holdings. One that prepares writes them to disk first
/// (they must outlive a restart while it stays prepared), and then hands them to the process that
/// stands for it until COMMIT PREPARED or ROLLBACK PREPARED.
#[pg_guard]
unsafe extern "C-unwind" fn at_transaction_end(event: pg_sys::XactEvent::Type, _arg: *mut std::ffi::c_void) {
    let held = HELD.0.get();
    if held == Held::new() {
        return;
    }
    match event {
        pg_sys::XactEvent::XACT_EVENT_PRE_PREPARE => {
            // SAFETY: inside the transaction being prepared.
            let xid = unsafe { pg_sys::GetTopTransactionIdIfAny() }.into_inner();
            if xid != 0 {
                write_prepared(xid, &held);
            }
        }
        pg_sys::XactEvent::XACT_EVENT_PREPARE => {
            // The prepared transaction's own id is gone from this backend by now: find its process
            // by the file written before.
            if let Some((xid, index)) = prepared_process_of_this_transaction() {
                // Before this backend lets go (`release`); under the lock `load_prepared_holdings`
                // restores under, so a restore of the transaction before it does not overwrite it.
                let earlier = PUBLISHED.with_locked(|_| slot(index).hand_over(xid as i64, held.words()));
                // The process stands for this transaction now, so the one before it has ended.
                if earlier != 0 && earlier != xid as i64 {
                    let _ = std::fs::remove_file(prepared_path(earlier as u32));
                }
            }
            release(&held);
        }
        // A rolled-back transaction's rows are never seen: its holdings may go at once. One whose
        // PREPARE failed after its holdings were written (max_prepared_transactions = 0, a GID in
        // use) removes the file: it will never be prepared.
        pg_sys::XactEvent::XACT_EVENT_ABORT | pg_sys::XactEvent::XACT_EVENT_PARALLEL_ABORT => {
            let preparing = PREPARING.replace(0);
            if preparing != 0 {
                let _ = std::fs::remove_file(prepared_path(preparing));
            }
            release(&held)
        }
        // XACT_EVENT_COMMIT: `after_commit`, once every callback has run.
        _ => {}
    }
}

thread_local! {
    /// The transaction id whose holdings `write_prepared` put on disk, until it is prepared.
    static PREPARING: Cell<u32> = const { Cell::new(0) };
}

fn write_prepared(xid: u32, held: &Held) {
    PREPARING.set(xid);
    if let Err(e) = high_water::replace_file(Path::new(PREPARED_DIR), &xid.to_string(), &held.record()) {
        errors::raise(
            PgSqlErrorCode::ERRCODE_IO_ERROR,
            format!("PREPARE TRANSACTION: comb_ext could not keep the watermark holdings of transaction {xid}: {e}"),
            Some("A prepared transaction that made ids holds watermarks back until it is finished, across restarts too; its holdings are kept in comb_ext/prepared/ under the data directory."),
        );
    }
}

/// The transaction `write_prepared` kept the holdings of, and the process that now stands for it.
fn prepared_process_of_this_transaction() -> Option<(u32, usize)> {
    let xid = PREPARING.replace(0);
    (xid != 0).then_some(xid).and_then(|xid| prepared_process(xid).map(|index| (xid, index)))
}

fn release(held: &Held) {
    for (family, _) in held.holdings() {
        my_slot().let_go(family);
    }
    HELD.0.set(Held::new());
}

/// The transactions holding watermarks back: one row per family held, oldest first.
#[pg_extern(volatile, parallel_safe)]
#[allow(clippy::type_complexity)] // pgrx reads the columns from this tuple
fn comb_watermark_holders() -> TableIterator<
    'static,
    (
        name!(pid, Option<i32>),
        name!(family, String),
        name!(held_since, Option<TimestampWithTimeZone>),
        name!(prepared_xid, Option<i64>),
    ),
> {
    // After a restart, the prepared transactions' holdings are on disk until read back.
    load_prepared_holdings("comb_watermark_holders");
    let mut rows = vec![];
    // As pg_stat_activity shows others' sessions: their times only to their own role, its members
    // and pg_read_all_stats.
    let sees_all = user_has_privs_of(crate::postgres::compat::READ_ALL_STATS);
    for index in 0..HOLDINGS.len() {
        if !in_this_database(index) {
            continue;
        }
        // SAFETY: as in `in_this_database`.
        let role = unsafe { crate::postgres::compat::proc_database_and_role(index).1 };
        let shown = sees_all || user_has_privs_of(role);
        // SAFETY: the pid is read as one word.
        let pid = unsafe { crate::postgres::compat::proc_pid(index) };
        let (xid, held) = slot(index).read();
        if xid != 0 && !still_prepared(xid) {
            continue;
        }
        for family in Family::ALL {
            let at = held[family as usize];
            if at != NONE {
                let prepared = xid != 0;
                rows.push((
                    (!prepared).then_some(pid),
                    family.name().to_string(),
                    shown.then(|| crate::postgres::timestamptz::from_unix_us(at)),
                    prepared.then_some(xid),
                ));
            }
        }
    }
    rows.sort_by_key(|row| (row.2.is_none(), row.2));
    TableIterator::new(rows)
}
