//! The generators' high-water marks on disk (`core::high_water`): one small text file per family
//! in `comb_ext/` under the data directory, replaced atomically (write, fsync, rename, fsync the
//! directory), read once per server start by the first caller.

use crate::core::high_water::{self as rule, Persisted};
use crate::errors;
use crate::shared::Shared;
use pgrx::PgSqlErrorCode;
use std::fs::{self, File};
use std::io::{ErrorKind, Write};
use std::panic::RefUnwindSafe;
use std::path::{Path, PathBuf};

/// Relative to the data directory, every backend's working directory.
const DIR: &str = "comb_ext";

/// A generator state in shared memory and whether its mark has been read since the server started
/// (shared memory starts afresh at every start and crash restart).
#[repr(C)]
#[derive(Clone, Copy)]
pub struct Durable<T> {
    state: T,
    resumed: bool,
}

impl<T> Durable<T> {
    pub const fn new(state: T) -> Self {
        Durable { state, resumed: false }
    }
}

fn path<P: Persisted>() -> PathBuf {
    Path::new(DIR).join(P::NAME)
}

fn read<P: Persisted>() -> Result<Option<P::Record>, String> {
    let path = path::<P>();
    match fs::read_to_string(&path) {
        Ok(text) => rule::from_text::<P>(&text)
            .map(Some)
            .ok_or_else(|| format!("{} holds {text:?}, not a high-water mark", path.display())),
        Err(e) if e.kind() == ErrorKind::NotFound => Ok(None),
        Err(e) => Err(format!("could not read {}: {e}", path.display())),
    }
}

fn write<P: Persisted>(record: &P::Record) -> Result<(), String> {
    let path = path::<P>();
    let fail = |what: &str, e: std::io::Error| format!("could not {what} {}: {e}", path.display());
    if !Path::new(DIR).is_dir() {
        fs::create_dir(DIR).map_err(|e| fail("create the directory of", e))?;
        File::open(".").and_then(|d| d.sync_all()).map_err(|e| fail("fsync the data directory for", e))?;
    }
    let temporary = path.with_extension("tmp");
    File::create(&temporary)
        .and_then(|mut f| {
            f.write_all(rule::to_text::<P>(record).as_bytes())?;
            f.sync_all()
        })
        .map_err(|e| fail("write", e))?;
    fs::rename(&temporary, &path).map_err(|e| fail("rename a new version into", e))?;
    File::open(DIR).and_then(|d| d.sync_all()).map_err(|e| fail("fsync the directory of", e))
}

/// Runs `f` on the state under its lock, the first time since the server started after resuming
/// it from its file. If `f` changed the record, the record is written to disk before the lock is
/// let go and before `f`'s result is used; if that fails, the state is put back as it was and
/// `function` fails with 58030: nothing `f` issued is returned.
pub fn update<P, R>(shared: &Shared<Durable<P>>, function: &str, f: impl FnOnce(&mut P) -> R) -> R
where
    P: Persisted + Copy + RefUnwindSafe + 'static,
{
    let outcome = shared.with_locked(|durable| {
        if !durable.resumed {
            if let Some(record) = read::<P>()? {
                durable.state.resume(record);
            }
            durable.resumed = true;
        }
        let before = durable.state;
        let result = f(&mut durable.state);
        let record = durable.state.record();
        if record != before.record() {
            if let Err(e) = write::<P>(&record) {
                durable.state = before;
                return Err(e);
            }
        }
        Ok(result)
    });
    outcome.unwrap_or_else(|e: String| {
        errors::raise(
            PgSqlErrorCode::ERRCODE_IO_ERROR,
            format!("{function}: {e}"),
            Some("The file keeps values from repeating after a restart; nothing is issued without it. It belongs to the data directory and is written about once a second while ids are generated."),
        )
    })
}
