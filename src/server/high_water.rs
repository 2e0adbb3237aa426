//! The generators' high-water marks on disk (`rules::high_water`): one small text file per family
//! in `comb_ext/` under the data directory (`sno.mark`, `muid.mark`, `uid8.mark`), replaced
//! atomically (write, fsync, rename, fsync the directory), read once per server start by the first
//! caller; and the record of where the identity settings were last checked beside them
//! (`read_identity`, `write_identity`).
//!
//! A mark is written ahead, by a thread of the backend whose call found one due, while every
//! backend goes on issuing values below the mark already on disk: a stalled disk holds values
//! back only once that reserve is used up, and then in waits that a cancel or a statement timeout
//! ends. No LWLock is held during any read or write.
//!
//! Version 0.4.0 wrote `sno`, `muid` and `uid8` under the generator's lock, and may run beside this
//! version after a package upgrade (it shares the generator structs): it writes its own file,
//! and sets `written` to a record it has made durable. This version sets `written` only to records
//! a mark of its own covers, so a value issued under `written` is covered by one file or the other,
//! and a restart reads both (and removes the old file once the new one covers it). No file is read
//! or written under a generator's lock: the first call after a start reads the marks before it
//! takes the lock.

use crate::postgres::errors;
use crate::rules::high_water::{self as rule, Persisted, Written, RECORD_MAX};
use crate::rules::identity::{self, IdentityRecord, Origin, OriginRecord, Place};
use crate::server::shmem::Shared;
use pgrx::{pg_guard, pg_sys, PgSqlErrorCode};
use std::ffi::{c_long, CStr};
use std::fs::{self, File};
use std::io::{ErrorKind, Read, Write};
use std::panic::RefUnwindSafe;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};

/// Relative to the data directory, every backend's working directory.
const DIR: &str = "comb_ext";

/// A generator state in shared memory, the record last made durable for it, and whether it has
/// been resumed from its file since the server started (shared memory starts afresh at every start
/// and crash restart). Layout shared with 0.4.0: never change it.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct Durable<P: Persisted> {
    state: P,
    written: Written<P::Record>,
    resumed: bool,
}

impl<P: Persisted> Durable<P> {
    pub const fn new(state: P) -> Self {
        Durable { state, written: Written::none(), resumed: false }
    }
}

/// The writer of one family's marks, beside its generator and used only under the generator's
/// lock, except `handoff`, which the writing thread fills. Plain integers, `repr(C)`: versions
/// after this one share it as it is (docs/upgrading.md, "Upgrading the package under a running server").
#[repr(C)]
#[derive(Clone, Copy)]
pub struct Writer {
    plan: Plan,
    /// Read and written through raw pointers only: the thread writes it while a backend may hold
    /// the generator's lock.
    handoff: Handoff,
}

#[repr(C)]
#[derive(Clone, Copy)]
struct Plan {
    /// The mark in this version's file once a write of it has completed (or the one a start
    /// resumed from): every value it covers may be returned.
    durable: [i64; RECORD_MAX],
    has_durable: u32,
    /// The backend whose thread writes `target`, 0 when no write is under way.
    writer_pid: i32,
    target: [i64; RECORD_MAX],
    /// Writes started since the server started; the last of them that failed, and why.
    started: u64,
    failed: u64,
    failure_len: u32,
    failure: [u8; MESSAGE_MAX],
    /// No write before this wall-clock µs, after a failure (`recent_failure`).
    retry_after_us: i64,
}

#[repr(C)]
#[derive(Clone, Copy)]
struct Handoff {
    /// WRITING, then WRITTEN or FAILED, set last by the thread.
    done: u32,
    message_len: u32,
    message: [u8; MESSAGE_MAX],
}

const WRITING: u32 = 0;
const WRITTEN: u32 = 1;
const FAILED: u32 = 2;
const MESSAGE_MAX: usize = 240;
/// How long writes pause after one failed: writes ahead, and calls that need a mark fail with its error.
const RETRY_AFTER_US: i64 = 100_000;
/// How often a backend whose value waits for a mark looks again (ms).
const POLL_MS: c_long = 1;

impl Writer {
    pub const fn new() -> Self {
        Writer {
            plan: Plan {
                durable: [0; RECORD_MAX],
                has_durable: 0,
                writer_pid: 0,
                target: [0; RECORD_MAX],
                started: 0,
                failed: 0,
                failure_len: 0,
                failure: [0; MESSAGE_MAX],
                retry_after_us: 0,
            },
            handoff: Handoff { done: WRITING, message_len: 0, message: [0; MESSAGE_MAX] },
        }
    }
}

impl Default for Writer {
    fn default() -> Self {
        Self::new()
    }
}

/// A generator in shared memory and the writer of its marks.
pub struct Marked<P: Persisted + Copy + RefUnwindSafe + 'static>
where
    P::Record: RefUnwindSafe,
{
    generator: Shared<Durable<P>>,
    writer: Shared<Writer>,
    /// Per backend: the state was seen resumed (`ensure_resumed`).
    known_resumed: std::sync::atomic::AtomicBool,
}

impl<P: Persisted + Copy + RefUnwindSafe + 'static> Marked<P>
where
    P::Record: RefUnwindSafe,
{
    /// `generator` is the struct's name since 0.4.0, `writer` its writer's; `tranche` names the
    /// wait for either lock in pg_stat_activity.
    pub const fn new(generator: &'static CStr, writer: &'static CStr, tranche: &'static CStr, state: P) -> Self {
        Marked {
            generator: Shared::new(generator, tranche, Durable::new(state)),
            writer: Shared::new(writer, tranche, Writer::new()),
            known_resumed: std::sync::atomic::AtomicBool::new(false),
        }
    }

    /// Bytes to reserve at server start.
    pub const fn size(&self) -> usize {
        self.generator.size() + self.writer.size()
    }
}

/// This version's file of the family, and 0.4.0's.
fn path<P: Persisted>() -> PathBuf {
    Path::new(DIR).join(file_name::<P>())
}

fn file_name<P: Persisted>() -> String {
    format!("{}.mark", P::NAME)
}

fn legacy_path<P: Persisted>() -> PathBuf {
    Path::new(DIR).join(P::NAME)
}

/// Why a mark cannot be used: the file could not be read or written (58030), or what it holds is
/// not a mark this server may resume from (XX001).
enum Unusable {
    Io(String),
    Damaged(String),
}

impl From<String> for Unusable {
    fn from(io: String) -> Self {
        Unusable::Io(io)
    }
}

/// The most a file the extension reads back may hold: a mark, the origin and a prepared
/// transaction's record are each one short line.
const READ_LIMIT: u64 = 4096;

/// The text of `path` if it is a regular file of at most `READ_LIMIT` bytes. The open neither
/// follows a last symbolic link (unless `follow`) nor blocks, so a FIFO, a device or a link put in
/// a mark's place is refused at once instead of waited on or read without end (a link to
/// /dev/zero would fill the backend's memory).
pub fn read_small_file(path: &Path, follow: bool) -> std::io::Result<String> {
    use std::os::unix::fs::OpenOptionsExt;
    let refused = |why: &str| std::io::Error::new(ErrorKind::InvalidData, why.to_string());
    let flags = libc::O_NONBLOCK | libc::O_NOCTTY | if follow { 0 } else { libc::O_NOFOLLOW };
    let file = fs::OpenOptions::new().read(true).custom_flags(flags).open(path).map_err(|e| {
        if e.raw_os_error() == Some(libc::ELOOP) {
            refused("is a symbolic link: only a regular file is read")
        } else {
            e
        }
    })?;
    let metadata = file.metadata()?;
    if !metadata.file_type().is_file() {
        return Err(refused("is not a regular file"));
    }
    let mut text = String::new();
    file.take(READ_LIMIT + 1).read_to_string(&mut text)?;
    if text.len() as u64 > READ_LIMIT {
        return Err(refused(&format!("holds more than {READ_LIMIT} bytes")));
    }
    Ok(text)
}

/// The record in the file at `path`, checked against the format and the clock; `None` only when
/// there is no file at all (a first start, or an operator removed it). A symbolic link, even one
/// that leads nowhere, is not "no file" (the mark it stood for is gone, and starting afresh could
/// repeat its values): it is refused as damaged, as anything but a small regular file is.
fn read<P: Persisted>(path: &Path) -> Result<Option<P::Record>, Unusable> {
    let damaged = |what: String| Unusable::Damaged(format!("{} {what}", path.display()));
    let Some(text) = read_text(path)? else { return Ok(None) };
    let record = rule::from_text::<P>(&text).ok_or_else(|| damaged(format!("holds {text:?}, not a mark")))?;
    P::check(&record, crate::rules::time::wall_clock_unix_us())
        .map_err(|why| damaged(format!("holds {:?}: {why}", text.trim_end())))?;
    Ok(Some(record))
}

/// The text of one of the extension's files, `None` if there is none; anything but a small
/// regular file (`read_small_file`) is damaged.
fn read_text(path: &Path) -> Result<Option<String>, Unusable> {
    match read_small_file(path, false) {
        Ok(text) => Ok(Some(text)),
        Err(e) if e.kind() == ErrorKind::NotFound => Ok(None),
        Err(e) if e.kind() == ErrorKind::InvalidData => Err(Unusable::Damaged(format!("{} {e}", path.display()))),
        Err(e) => Err(Unusable::Io(format!("could not read {}: {e}", path.display()))),
    }
}

/// Replaces `dir/name` by `text` so that after a crash it holds the old text or the new one,
/// creating `dir` if it is missing.
pub fn replace_file(dir: &Path, name: &str, text: &str) -> Result<(), String> {
    let path = dir.join(name);
    let fail = |what: &str, e: std::io::Error| format!("could not {what} {}: {e}", path.display());
    if !dir.is_dir() {
        // The families share the directory under locks of their own, so another one may create it
        // first: create_dir_all takes that as done.
        fs::create_dir_all(dir).map_err(|e| fail("create the directory of", e))?;
        let parent = dir.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
        File::open(parent).and_then(|d| d.sync_all()).map_err(|e| fail("fsync the directory above", e))?;
    }
    // A name of this process's own: backends that write the same file at once (the origin record
    // has no lock) must not rename each other's temporary file away.
    static WRITES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let write = WRITES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let temporary = dir.join(format!(".{name}.{}.{write}.tmp", std::process::id()));
    let written = File::create(&temporary)
        .and_then(|mut f| {
            f.write_all(text.as_bytes())?;
            f.sync_all()
        })
        .map_err(|e| fail("write", e))
        .and_then(|()| fs::rename(&temporary, &path).map_err(|e| fail("rename a new version into", e)));
    if written.is_err() {
        // A full disk fails every write: each must not leave a file behind.
        let _ = fs::remove_file(&temporary);
    }
    written?;
    File::open(dir).and_then(|d| d.sync_all()).map_err(|e| fail("fsync the directory of", e))
}

/// Removes the temporary files `replace_file` left in `dir` (a crash mid-write, or a removal that
/// failed) whose process is gone; one whose pid is alive may be a write under way, and stays.
pub fn remove_stale_temporaries(dir: &Path) {
    let Ok(entries) = fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name.to_str().and_then(temporary_file_pid) else { continue };
        if !alive(pid) {
            let _ = fs::remove_file(entry.path());
        }
    }
}

/// The pid in a temporary file's name, `.NAME.PID.N.tmp`.
fn temporary_file_pid(name: &str) -> Option<i32> {
    let inner = name.strip_prefix('.')?.strip_suffix(".tmp")?;
    let mut fields = inner.rsplitn(3, '.');
    let (_write, pid, _name) = (fields.next()?.parse::<u64>().ok()?, fields.next()?, fields.next()?);
    pid.parse().ok().filter(|&pid| pid > 0)
}

/// One file of a family's marks as `comb_ext_marks()` shows it.
pub struct MarkFile {
    /// Relative to the data directory.
    pub file: String,
    /// The values the file holds, if it holds a mark's text (checked or not).
    pub record: Option<Vec<i64>>,
    /// The reservation as unix µs.
    pub reservation_unix_us: Option<i64>,
    /// Why a start would refuse it (the error a generator gives), if it would.
    pub problem: Option<String>,
}

/// The files of `P`'s marks: this version's, whether it exists or not, and 0.4.0's if there is one,
/// as a start would read them.
pub fn mark_files<P: Persisted>() -> Vec<MarkFile> {
    let legacy = legacy_path::<P>();
    let legacy_exists = fs::symlink_metadata(&legacy).is_ok();
    let paths = std::iter::once(path::<P>()).chain(legacy_exists.then_some(legacy));
    paths
        .map(|path| {
            let record = read_small_file(&path, false).ok().and_then(|text| rule::from_text::<P>(&text));
            let problem = match read::<P>(&path) {
                Ok(_) => None,
                Err(Unusable::Io(why) | Unusable::Damaged(why)) => Some(why),
            };
            MarkFile {
                file: path.display().to_string(),
                record: record.map(|r| r.as_ref().to_vec()),
                reservation_unix_us: record.map(|r| P::reservation_unix_us(r.as_ref()[0])),
                problem,
            }
        })
        .collect()
}

/// The identity record, and 0.5.0's origin record while one is left, as `comb_ext_marks()` shows
/// them: no mark or values (the record holds places and digests), and why a check would refuse it.
pub fn record_files() -> Vec<MarkFile> {
    let identity: (&str, fn(&str) -> bool) = (IDENTITY, |text| IdentityRecord::from_text(text).is_some());
    let origin: (&str, fn(&str) -> bool) = (ORIGIN, |text| OriginRecord::from_text(text).is_some());
    [identity, origin]
        .into_iter()
        .filter_map(|(name, parses)| {
            let path = Path::new(DIR).join(name);
            let problem = match read_text(&path) {
                Ok(None) if name == ORIGIN => return None,
                Ok(None) => Some(format!("{} is missing: it is written by CREATE EXTENSION, ALTER EXTENSION UPDATE and the first generator call", path.display())),
                Ok(Some(text)) if parses(&text) => None,
                Ok(Some(text)) => Some(format!("{} holds {text:?}, not a {name} record", path.display())),
                Err(Unusable::Io(why) | Unusable::Damaged(why)) => Some(why),
            };
            Some(MarkFile { file: path.display().to_string(), record: None, reservation_unix_us: None, problem })
        })
        .collect()
}

/// Where the data directory is now (`rules::identity::Origin`): its inode, its birth time (statx's btime,
/// through std; 0 where the file system keeps none) and the machine's id.
pub fn origin_here(function: &str) -> Origin {
    use std::os::unix::fs::MetadataExt;
    let directory = fs::metadata(".")
        .unwrap_or_else(|e| failed(function, Unusable::Io(format!("could not stat the data directory: {e}"))));
    let born = directory
        .created()
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0, |d| u64::try_from(d.as_nanos()).unwrap_or(u64::MAX));
    Origin {
        inode: directory.ino(),
        machine: read_small_file(Path::new("/etc/machine-id"), true).map(|t| identity::machine_id(&t)).unwrap_or(0),
        born,
    }
}

/// `comb_ext/identity` (`rules::identity::IdentityRecord`), `None` before the first check. A data
/// directory last run by 0.5.0 has `comb_ext/origin` instead, read as the record of its place at
/// `here`'s system identifier and timeline, with uid8's cluster id (`uid8_digest`, its value now)
/// still refused if 0.5.0 had found a copy it had not seen set apart. Errors are 58030 (read) or
/// XX001 (damaged). The flag says whether it came from `comb_ext/identity` itself.
pub fn read_identity(function: &str, here: Place, uid8_digest: u64) -> (Option<IdentityRecord>, bool) {
    if let Some(text) = read_record_file(function, IDENTITY) {
        let record = IdentityRecord::from_text(&text).unwrap_or_else(|| {
            failed(function, Unusable::Damaged(format!("{DIR}/{IDENTITY} holds {text:?}, not an identity record")))
        });
        return (Some(record), true);
    }
    (from_origin(function, here, uid8_digest), false)
}

fn from_origin(function: &str, here: Place, uid8_digest: u64) -> Option<IdentityRecord> {
    let text = read_record_file(function, ORIGIN)?;
    let origin = OriginRecord::from_text(&text).unwrap_or_else(|| {
        failed(function, Unusable::Damaged(format!("{DIR}/{ORIGIN} holds {text:?}, not an origin record")))
    });
    Some(IdentityRecord {
        place: Place { origin: origin.origin, ..here },
        copied: [Default::default(), Default::default(), origin.copied_at.map(|_| uid8_digest).into_iter().collect()],
    })
}

/// The text of `comb_ext/<name>`, `None` when there is no such file.
fn read_record_file(function: &str, name: &str) -> Option<String> {
    read_text(&Path::new(DIR).join(name)).unwrap_or_else(|e| failed(function, e))
}

/// Replaces `comb_ext/identity` by `record`; 0.5.0's `comb_ext/origin`, which it replaces, goes.
pub fn write_identity(function: &str, record: &IdentityRecord) {
    replace_file(Path::new(DIR), IDENTITY, &record.to_text()).unwrap_or_else(|e| failed(function, Unusable::Io(e)));
    let _ = fs::remove_file(Path::new(DIR).join(ORIGIN));
}

const ORIGIN: &str = "origin";
const IDENTITY: &str = "identity";

/// Once per server start, outside the hot path and outside the generator's lock: the mark a start
/// resumes from, the later of this version's file and 0.4.0's. The files are read without a lock
/// held (a slow or stalled disk holds up only the callers that need them); no value is issued
/// before some caller resumes, so nothing moves them meanwhile. 0.4.0's file is removed once this
/// version's covers it: never before (a crash in between would lose what only it covers), and not
/// rewritten here (a caller resumed meanwhile may already have a newer mark written): the first
/// write ahead after the start covers it, and the next start removes it. A mark that cannot be used
/// fails every call the same way until an operator acts; nothing spins.
#[cold]
fn read_marks<P: Persisted>() -> Result<Option<P::Record>, Unusable> {
    let current = read::<P>(&path::<P>())?;
    let legacy = read::<P>(&legacy_path::<P>())?;
    Ok(match (current, legacy) {
        (Some(a), Some(b)) => {
            let mark = P::merge(&a, &b);
            if mark == a {
                // Not fsynced: if the removal is lost in a crash, the next start reads it again.
                let old = legacy_path::<P>();
                fs::remove_file(&old)
                    .or_else(|e| if e.kind() == ErrorKind::NotFound { Ok(()) } else { Err(e) })
                    .map_err(|e| format!("could not remove {}: {e}", old.display()))?;
            }
            Some(mark)
        }
        (a, b) => a.or(b),
    })
}

/// Under the generator's lock: the state resumed from the mark `read_marks` found, no I/O.
fn resume<P: Persisted>(durable: &mut Durable<P>, plan: &mut Plan, mark: Option<P::Record>) {
    if let Some(mark) = mark {
        durable.state.resume(mark);
        durable.written = Written::some(mark);
        plan.durable = to_array::<P>(&mark);
        plan.has_durable = 1;
    }
    durable.resumed = true;
}

/// What a call found under the lock: its result may be returned, or only once a mark covering
/// `needed` is on disk (the write under way, or the next, numbered `write`).
enum Step<R, Record> {
    Ready(R),
    Wait {
        result: R,
        needed: Record,
        write: u64,
    },
    /// The last write failed less than `RETRY_AFTER_US` ago: its error, without a new write.
    Failed(String),
}

/// Runs `f` on the state under its lock, the first time since the server started after resuming
/// it from its files, and returns its result once a mark on disk covers what it issued: at once
/// while the mark written ahead lasts (starting the next write ahead when one is due), else after
/// a wait for the write under way, which a cancel or statement timeout ends (nothing `f` issued
/// is returned then: the state stays ahead, which only skips values). If the write fails,
/// `function` fails with 58030.
#[inline]
pub fn update<P, R>(marked: &Marked<P>, function: &str, f: impl FnOnce(&mut P) -> R) -> R
where
    P: Persisted + Copy + RefUnwindSafe + 'static,
    P::Record: RefUnwindSafe,
{
    if !marked.known_resumed.load(Ordering::Relaxed) {
        ensure_resumed(marked, function);
    }
    let writer = marked.writer.as_ptr();
    let step = marked.generator.with_locked(|durable| {
        let result = f(&mut durable.state);
        let record = durable.state.record();
        let position = durable.state.position();
        // The common case, touching nothing but the state: it has taken the reservation of the
        // mark on disk (or 0.4.0 wrote it), and more than a window of it is left.
        if durable.written.get() == Some(record) && !rule::due::<P>(&record, position, clock::<P>) {
            return Step::Ready(result);
        }
        // SAFETY: the plan is used under the generator's lock only, and the handoff through raw
        // pointers only.
        let plan = unsafe { &mut (*writer).plan };
        collect(writer, plan);
        let Some(mark) = covering_mark(durable, plan, &record) else {
            if plan.writer_pid == 0 {
                if let Some(failure) = recent_failure(plan) {
                    return Step::Failed(failure);
                }
                start::<P>(writer, plan, &record, position);
            }
            return Step::Wait { result, needed: record, write: plan.started };
        };
        if rule::may_raise::<P>(&mark, &record) {
            durable.state.raise_reservation(mark.as_ref()[0]);
        }
        // What 0.4.0 compares its state with: equal, it writes nothing.
        durable.written = Written::some(durable.state.record());
        // A state that reserves nothing (nothing issued since the start; the watermarks' floor
        // before the first watermark) has nothing to write ahead of.
        if plan.writer_pid == 0 && rule::reserves_anything(mark.as_ref()) && rule::due::<P>(&mark, position, clock::<P>)
        {
            let now = crate::rules::time::wall_clock_unix_us();
            if now >= plan.retry_after_us {
                start::<P>(writer, plan, &durable.state.record(), position);
            }
        }
        Step::Ready(result)
    });
    match step {
        Step::Ready(result) => result,
        Step::Wait { result, needed, write } => {
            wait_for_mark(marked, function, &needed, write);
            result
        }
        Step::Failed(message) => failed(function, Unusable::Io(message)),
    }
}

/// The last write's error if it failed less than `RETRY_AFTER_US` ago: a call that needs a new mark
/// then fails with it at once, so a full disk is not written to on every call.
fn recent_failure(plan: &Plan) -> Option<String> {
    let last_failed = plan.failed > 0 && plan.failed == plan.started;
    (last_failed && crate::rules::time::wall_clock_unix_us() < plan.retry_after_us).then(|| failure(plan))
}

/// The error of the last write that failed.
fn failure(plan: &Plan) -> String {
    String::from_utf8_lossy(&plan.failure[..plan.failure_len as usize]).into_owned()
}

/// Once per backend and family: makes sure the state was resumed from its marks since the server
/// started, reading them, if it was not, before the lock is taken (`read_marks`). A state once
/// resumed stays so for the server's life (shared memory is made anew only with every backend).
#[cold]
#[inline(never)]
fn ensure_resumed<P>(marked: &Marked<P>, function: &str)
where
    P: Persisted + Copy + RefUnwindSafe + 'static,
    P::Record: RefUnwindSafe,
{
    if !marked.generator.with_locked(|durable| durable.resumed) {
        remove_stale_temporaries(Path::new(DIR));
        let mark = read_marks::<P>().unwrap_or_else(|e| failed(function, e));
        let writer = marked.writer.as_ptr();
        marked.generator.with_locked(|durable| {
            if !durable.resumed {
                // SAFETY: the plan is used under the generator's lock only.
                resume(durable, unsafe { &mut (*writer).plan }, mark);
            }
        });
    }
    marked.known_resumed.store(true, Ordering::Relaxed);
}

/// A mark on disk that covers `record`: this version's, or the record last made durable by either
/// version (`written`, which 0.4.0 sets after its own write); the record itself if it reserves
/// nothing (no value issued yet since the start: uid8 reads its state before its first claim).
fn covering_mark<P: Persisted>(durable: &Durable<P>, plan: &Plan, record: &P::Record) -> Option<P::Record> {
    if !rule::reserves_anything(record.as_ref()) {
        return Some(*record);
    }
    let on_disk = (plan.has_durable != 0).then(|| from_array::<P>(&plan.durable)).flatten();
    on_disk.into_iter().chain(durable.written.get()).find(|mark| rule::covers::<P>(mark, record))
}

/// Sleeps until a mark covering `needed` is on disk, starting writes as they are needed (a writer
/// whose backend has exited is replaced). Fails with 58030 when write number `write` or a later
/// one failed.
#[cold]
fn wait_for_mark<P>(marked: &Marked<P>, function: &str, needed: &P::Record, write: u64)
where
    P: Persisted + Copy + RefUnwindSafe + 'static,
    P::Record: RefUnwindSafe,
{
    let writer = marked.writer.as_ptr();
    loop {
        crate::server::latch::nap(POLL_MS);
        let outcome = marked.generator.with_locked(|durable| {
            // SAFETY: as in `update`.
            let plan = unsafe { &mut (*writer).plan };
            collect(writer, plan);
            if covering_mark(durable, plan, needed).is_some() {
                return Ok(true);
            }
            if plan.failed >= write && plan.failed > 0 {
                return Err(failure(plan));
            }
            if plan.writer_pid != 0 && !alive(plan.writer_pid) {
                // Its thread ended with it: whatever it wrote is at least the mark before.
                plan.writer_pid = 0;
            }
            if plan.writer_pid == 0 {
                let record = durable.state.record();
                start::<P>(writer, plan, &record, durable.state.position());
            }
            Ok(false)
        });
        match outcome {
            Ok(true) => return,
            Ok(false) => {}
            Err(message) => failed(function, Unusable::Io(message)),
        }
    }
}

fn alive(pid: i32) -> bool {
    // SAFETY: signal 0 only checks that the process exists.
    unsafe { libc::kill(pid, 0) == 0 || std::io::Error::last_os_error().raw_os_error() != Some(libc::ESRCH) }
}

/// Takes in the result of a finished write, if there is one.
#[inline]
fn collect(writer: *mut Writer, plan: &mut Plan) {
    if plan.writer_pid == 0 {
        return;
    }
    // SAFETY: the handoff lives in shared memory for the server's life; `done` is only ever
    // accessed atomically, and the message is written before `done` is released.
    let handoff = unsafe { std::ptr::addr_of_mut!((*writer).handoff) };
    match unsafe { AtomicU32::from_ptr(std::ptr::addr_of_mut!((*handoff).done)) }.load(Ordering::Acquire) {
        WRITTEN => {
            plan.durable = plan.target;
            plan.has_durable = 1;
            plan.writer_pid = 0;
        }
        FAILED => {
            // SAFETY: as above; the thread has finished with the handoff.
            let (len, message) = unsafe { ((*handoff).message_len as usize, (*handoff).message) };
            plan.failure = message;
            plan.failure_len = len.min(MESSAGE_MAX) as u32;
            plan.failed = plan.started;
            plan.writer_pid = 0;
            plan.retry_after_us = crate::rules::time::wall_clock_unix_us().saturating_add(RETRY_AFTER_US);
        }
        _ => {}
    }
}

/// The wall clock in the unit of `P`'s reservation.
fn clock<P: Persisted>() -> i64 {
    P::clock(crate::rules::time::wall_clock_unix_us())
}

/// Starts a thread that writes the next mark for a state at `record` standing at `position`
/// (`rule::next_mark`), with every signal blocked in it (PostgreSQL's handlers belong to the
/// backend's own thread). The thread touches nothing of PostgreSQL's but the handoff.
fn start<P: Persisted>(writer: *mut Writer, plan: &mut Plan, record: &P::Record, position: i64) {
    let on_disk = (plan.has_durable != 0).then(|| from_array::<P>(&plan.durable)).flatten();
    let target = rule::next_mark::<P>(on_disk.as_ref(), record, position, clock::<P>());
    plan.target = to_array::<P>(&target);
    plan.started += 1;
    // SAFETY: MyProcPid is this backend's pid; the handoff as in `collect`, and no thread writes
    // it while no write is under way.
    plan.writer_pid = unsafe { pg_sys::MyProcPid };
    let handoff = unsafe { std::ptr::addr_of_mut!((*writer).handoff) };
    unsafe { AtomicU32::from_ptr(std::ptr::addr_of_mut!((*handoff).done)) }.store(WRITING, Ordering::Relaxed);
    let (name, text, address) = (file_name::<P>(), rule::to_text::<P>(&target), handoff as usize);
    let spawned = spawn_without_signals(move || hand_off(address, replace_file(Path::new(DIR), &name, &text)));
    if let Err(e) = spawned {
        hand_off(address, Err(format!("could not start a thread to write {}: {e}", path::<P>().display())));
    }
}

/// Publishes a write's outcome to the backends.
fn hand_off(address: usize, outcome: Result<(), String>) {
    let handoff = address as *mut Handoff;
    // SAFETY: `address` is the family's handoff in shared memory, valid for the server's life;
    // only this write's thread writes it until `done` is released.
    unsafe {
        let done = if let Err(message) = outcome {
            let bytes = &message.as_bytes()[..message.len().min(MESSAGE_MAX)];
            std::ptr::copy_nonoverlapping(
                bytes.as_ptr(),
                std::ptr::addr_of_mut!((*handoff).message).cast::<u8>(),
                bytes.len(),
            );
            std::ptr::addr_of_mut!((*handoff).message_len).write(bytes.len() as u32);
            FAILED
        } else {
            WRITTEN
        };
        AtomicU32::from_ptr(std::ptr::addr_of_mut!((*handoff).done)).store(done, Ordering::Release);
    }
}

thread_local! {
    /// This backend's writing threads not yet seen to end.
    static WRITING_THREADS: std::cell::RefCell<Vec<std::thread::JoinHandle<()>>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Starts `work` in a thread with every signal blocked, and makes sure the backend does not exit
/// before the thread ends. A backend exits normally (a session that ends, `pg_terminate_backend`,
/// a FATAL) through `proc_exit`, whose callbacks join its writers: a thread killed with its process
/// mid-write would leave the family's plan naming a pid that lives on, or is reused, and every call
/// of the family would wait for a write that never ends. Any other death (a signal, a crash) makes
/// the postmaster reset shared memory, plans included.
fn spawn_without_signals(work: impl FnOnce() + Send + 'static) -> std::io::Result<()> {
    // SAFETY: the mask is set back right after the spawn; the new thread keeps the full one.
    let spawned = unsafe {
        let mut all: libc::sigset_t = std::mem::zeroed();
        let mut old: libc::sigset_t = std::mem::zeroed();
        libc::sigfillset(&mut all);
        libc::pthread_sigmask(libc::SIG_SETMASK, &all, &mut old);
        let spawned = std::thread::Builder::new().name("comb_ext mark".into()).stack_size(256 * 1024).spawn(work);
        libc::pthread_sigmask(libc::SIG_SETMASK, &old, std::ptr::null_mut());
        spawned
    }?;
    WRITING_THREADS.with_borrow_mut(|threads| {
        threads.retain(|thread| !thread.is_finished());
        static REGISTERED: AtomicU32 = AtomicU32::new(0);
        if REGISTERED.swap(1, Ordering::Relaxed) == 0 {
            // SAFETY: registered once per process, from its own thread; the callback only joins.
            unsafe { pg_sys::before_shmem_exit(Some(join_writing_threads), pg_sys::Datum::from(0)) };
        }
        threads.push(spawned);
    });
    Ok(())
}

/// At a backend's exit, before it detaches from shared memory: waits for its writes under way.
#[pg_guard]
unsafe extern "C-unwind" fn join_writing_threads(_code: std::ffi::c_int, _arg: pg_sys::Datum) {
    let threads = WRITING_THREADS.with_borrow_mut(std::mem::take);
    for thread in threads {
        let _ = thread.join();
    }
}

fn to_array<P: Persisted>(record: &P::Record) -> [i64; RECORD_MAX] {
    let mut values = [0; RECORD_MAX];
    values[..record.as_ref().len()].copy_from_slice(record.as_ref());
    values
}

fn from_array<P: Persisted>(values: &[i64; RECORD_MAX]) -> Option<P::Record> {
    let len = std::mem::size_of::<P::Record>() / std::mem::size_of::<i64>();
    P::Record::try_from(&values[..len.min(RECORD_MAX)]).ok()
}

#[cold]
fn failed(function: &str, e: Unusable) -> ! {
    match e {
        Unusable::Io(e) => errors::raise(
            PgSqlErrorCode::ERRCODE_IO_ERROR,
            format!("{function}: {e}"),
            Some("The file keeps values from repeating after a restart; nothing is issued without it. It belongs to the data directory and is written about once a second while ids are generated."),
        ),
        Unusable::Damaged(e) => errors::raise(
            PgSqlErrorCode::ERRCODE_DATA_CORRUPTED,
            format!("{function}: the high-water mark {e}; nothing is issued from it"),
            Some("The mark bounds every value issued before the server stopped. If the clock ran far ahead and has come back, or the file was damaged, stop the server and follow \"Marks on disk\" in docs/guarantees.md: find the largest value already stored, then write a mark past it (or remove the file if no stored value can be repeated)."),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Arc, Barrier};
    use std::thread;

    /// Runs `write(dir, i)` for i in 0..writers on as many threads, released at once; their results
    /// by i.
    fn at_once(
        writers: usize,
        dir: &Path,
        write: fn(&Path, usize) -> Result<(), String>,
    ) -> Vec<(usize, Result<(), String>)> {
        let start = Arc::new(Barrier::new(writers));
        let threads: Vec<_> = (0..writers)
            .map(|i| {
                let (dir, start) = (dir.to_path_buf(), Arc::clone(&start));
                thread::spawn(move || {
                    start.wait();
                    write(&dir, i)
                })
            })
            .collect();
        threads.into_iter().enumerate().map(|(i, t)| (i, t.join().unwrap())).collect()
    }

    /// Backends write the origin record without a lock: writers of one file at once all succeed,
    /// and it ends up holding one of their texts (seen on a real server: "could not rename a new
    /// version into comb_ext/origin", when all used one temporary name).
    #[test]
    fn writers_of_one_file_at_once_all_succeed() {
        const WRITERS: usize = 8;
        let dir = std::env::temp_dir().join(format!("comb_ext_one_file_{}", std::process::id())).join(DIR);
        let _ = fs::remove_dir_all(dir.parent().unwrap());
        fs::create_dir_all(&dir).unwrap();
        for round in 0..40 {
            for (i, result) in at_once(WRITERS, &dir, |dir, i| replace_file(dir, "origin", &format!("writer {i}\n"))) {
                assert_eq!(result, Ok(()), "round {round}, writer {i}");
            }
            let text = fs::read_to_string(dir.join("origin")).unwrap();
            assert!((0..WRITERS).any(|i| text == format!("writer {i}\n")), "{text:?}");
            assert_eq!(fs::read_dir(&dir).unwrap().count(), 1, "temporary files left behind");
        }
        fs::remove_dir_all(dir.parent().unwrap()).unwrap();
    }

    /// A write that fails leaves no temporary file (a full disk fails every write), and a start
    /// removes those a dead process left, not a live one's.
    #[test]
    fn temporary_files_do_not_pile_up() {
        let dir = std::env::temp_dir().join(format!("comb_ext_temporaries_{}", std::process::id())).join(DIR);
        let _ = fs::remove_dir_all(dir.parent().unwrap());
        fs::create_dir_all(dir.join("sno.mark").join("in the way")).unwrap();
        for _ in 0..3 {
            let error = replace_file(&dir, "sno.mark", "1\n").unwrap_err();
            assert!(error.contains("could not rename a new version into"), "{error}");
        }
        assert_eq!(fs::read_dir(&dir).unwrap().count(), 1, "temporary files left behind");
        let own = format!(".muid.mark.{}.7.tmp", std::process::id());
        for name in [".uid8.mark.4194305.0.tmp", &own, ".12345.4194306.3.tmp", ".not.ours.tmp"] {
            fs::write(dir.join(name), "").unwrap();
        }
        remove_stale_temporaries(&dir);
        let mut left: Vec<String> = fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
        left.sort();
        assert_eq!(left, [own, ".not.ours.tmp".to_string(), "sno.mark".to_string()]);
        assert_eq!(temporary_file_pid(".sno.mark.42.0.tmp"), Some(42));
        assert_eq!(temporary_file_pid(".42.0.tmp"), None);
        fs::remove_dir_all(dir.parent().unwrap()).unwrap();
    }

    /// The first marks of sno, muid and uid8 can be written at the same moment, each under its own
    /// lock, into a directory that does not exist yet (seen in CI: "File exists").
    #[test]
    fn writers_creating_the_directory_at_once_all_succeed() {
        const WRITERS: usize = 8;
        for round in 0..40 {
            let dir =
                std::env::temp_dir().join(format!("comb_ext_high_water_{}_{round}", std::process::id())).join(DIR);
            let data_directory = dir.parent().unwrap();
            let _ = fs::remove_dir_all(data_directory);
            fs::create_dir(data_directory).unwrap();
            let written =
                at_once(WRITERS, &dir, |dir, i| replace_file(dir, &format!("family{i}"), &format!("mark {i}\n")));
            for (i, result) in written {
                assert_eq!(result, Ok(()), "round {round}, writer {i}");
                let text = fs::read_to_string(dir.join(format!("family{i}"))).unwrap();
                assert_eq!(text, format!("mark {i}\n"));
            }
            fs::remove_dir_all(data_directory).unwrap();
        }
    }
}
