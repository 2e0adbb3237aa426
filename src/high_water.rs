//! The generators' high-water marks on disk (`core::high_water`): one small text file per family
//! in `comb_ext/` under the data directory, replaced atomically (write, fsync, rename, fsync the
//! directory), read once per server start by the first caller; and the data directory's origin
//! record beside them (`origin_now`).

use crate::core::high_water::{self as rule, Persisted};
use crate::core::identity::{self, Origin, OriginRecord};
use crate::errors;
use crate::shared::Shared;
use pgrx::PgSqlErrorCode;
use std::fs::{self, File};
use std::io::{ErrorKind, Write};
use std::panic::RefUnwindSafe;
use std::path::{Path, PathBuf};

/// Relative to the data directory, every backend's working directory.
const DIR: &str = "comb_ext";

/// A generator state in shared memory, the record last written for it, and whether it has been
/// resumed from its file since the server started (shared memory starts afresh at every start and
/// crash restart).
#[repr(C)]
#[derive(Clone, Copy)]
pub struct Durable<P: Persisted> {
    state: P,
    written: Option<P::Record>,
    resumed: bool,
}

impl<P: Persisted> Durable<P> {
    pub const fn new(state: P) -> Self {
        Durable { state, written: None, resumed: false }
    }
}

fn path<P: Persisted>() -> PathBuf {
    Path::new(DIR).join(P::NAME)
}

/// Why a mark cannot be used: the file could not be read (58030), or what it holds is not a mark
/// this server may resume from (XX001).
enum Unusable {
    Io(String),
    Damaged(String),
}

impl From<String> for Unusable {
    fn from(io: String) -> Self {
        Unusable::Io(io)
    }
}

/// The record on disk, checked against the format and the clock; `None` only when there is no
/// file at all (a first start, or an operator removed it). A symbolic link that leads nowhere is
/// not "no file": the mark it stood for is gone, and starting afresh could repeat its values.
fn read<P: Persisted>() -> Result<Option<P::Record>, Unusable> {
    let path = path::<P>();
    let damaged = |what: String| Unusable::Damaged(format!("{} {what}", path.display()));
    match fs::read_to_string(&path) {
        Ok(text) => {
            let record = rule::from_text::<P>(&text).ok_or_else(|| damaged(format!("holds {text:?}, not a mark")))?;
            P::check(&record, crate::core::time::wall_clock_unix_us())
                .map_err(|why| damaged(format!("holds {:?}: {why}", text.trim_end())))?;
            Ok(Some(record))
        }
        Err(e) if e.kind() == ErrorKind::NotFound => match fs::symlink_metadata(&path) {
            Ok(_) => Err(damaged("is a symbolic link to a file that does not exist".into())),
            Err(_) => Ok(None),
        },
        Err(e) => Err(Unusable::Io(format!("could not read {}: {e}", path.display()))),
    }
}

#[cold]
fn write<P: Persisted>(record: &P::Record) -> Result<(), String> {
    replace_file(Path::new(DIR), P::NAME, &rule::to_text::<P>(record))
}

/// Replaces `dir/name` by `text` so that after a crash it holds the old text or the new one,
/// creating `dir` if it is missing.
fn replace_file(dir: &Path, name: &str, text: &str) -> Result<(), String> {
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
    File::create(&temporary)
        .and_then(|mut f| {
            f.write_all(text.as_bytes())?;
            f.sync_all()
        })
        .map_err(|e| fail("write", e))?;
    fs::rename(&temporary, &path).map_err(|e| fail("rename a new version into", e))?;
    File::open(dir).and_then(|d| d.sync_all()).map_err(|e| fail("fsync the directory of", e))
}

/// `comb_ext/origin`: where the data directory was when a generator last ran
/// (`core::identity::OriginRecord`), brought up to date with where it is now, and written if that
/// changed it. `None` from a first run. Errors are 58030 (read or written) or XX001 (damaged).
pub fn origin_now(function: &str) -> OriginRecord {
    use std::os::unix::fs::MetadataExt;
    let here = Origin {
        inode: fs::metadata(".")
            .map(|m| m.ino())
            .unwrap_or_else(|e| failed(function, Unusable::Io(format!("could not stat the data directory: {e}")))),
        machine: fs::read_to_string("/etc/machine-id").map(|t| identity::machine_id(&t)).unwrap_or(0),
    };
    let path = Path::new(DIR).join(ORIGIN);
    let stored = match fs::read_to_string(&path) {
        Ok(text) => Some(OriginRecord::from_text(&text).unwrap_or_else(|| {
            failed(function, Unusable::Damaged(format!("{} holds {text:?}, not an origin record", path.display())))
        })),
        Err(e) if e.kind() == ErrorKind::NotFound => None,
        Err(e) => failed(function, Unusable::Io(format!("could not read {}: {e}", path.display()))),
    };
    let now = crate::core::time::wall_clock_unix_us();
    let current = stored.map_or(OriginRecord { origin: here, copied_at: None }, |s| s.seen_at(here, now));
    if stored != Some(current) {
        write_origin(function, &current);
    }
    current
}

/// Replaces `comb_ext/origin` by `record`.
pub fn write_origin(function: &str, record: &OriginRecord) {
    replace_file(Path::new(DIR), ORIGIN, &record.to_text()).unwrap_or_else(|e| failed(function, Unusable::Io(e)));
}

const ORIGIN: &str = "origin";

/// Once per server start, outside the hot path. A mark that cannot be used leaves the state
/// unresumed, so every call fails the same way until an operator acts; nothing spins.
#[cold]
fn resume<P: Persisted>(durable: &mut Durable<P>) -> Result<(), Unusable> {
    if let Some(record) = read::<P>()? {
        durable.state.resume(record);
        durable.written = Some(record);
    }
    durable.resumed = true;
    Ok(())
}

/// Runs `f` on the state under its lock, the first time since the server started after resuming
/// it from its file. If the record then differs from the one last written, it is written to disk
/// before the lock is let go and before `f`'s result is used. If that fails, `function` fails
/// with 58030: nothing `f` issued is returned, and the state stays as `f` left it (ahead, which
/// only skips values), with its record unwritten, so the next call writes it first.
#[inline]
pub fn update<P, R>(shared: &Shared<Durable<P>>, function: &str, f: impl FnOnce(&mut P) -> R) -> R
where
    P: Persisted + Copy + RefUnwindSafe + 'static,
    P::Record: RefUnwindSafe,
{
    let outcome = shared.with_locked(|durable| {
        if !durable.resumed {
            resume(durable)?;
        }
        let result = f(&mut durable.state);
        let record = durable.state.record();
        if durable.written != Some(record) && rule::reserves_anything(record.as_ref()) {
            write::<P>(&record)?;
            durable.written = Some(record);
        }
        Ok(result)
    });
    outcome.unwrap_or_else(|e: Unusable| failed(function, e))
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
            Some("The mark bounds every value issued before the server stopped. If the clock ran far ahead and has come back, or the file was damaged, stop the server and follow \"Marks on disk\" in the README: find the largest value already stored, then write a mark past it (or remove the file if no stored value can be repeated)."),
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
