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

#[cold]
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

/// Once per server start, outside the hot path.
#[cold]
fn resume<P: Persisted>(durable: &mut Durable<P>) -> Result<(), String> {
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
        if durable.written != Some(record) {
            write::<P>(&record)?;
            durable.written = Some(record);
        }
        Ok(result)
    });
    outcome.unwrap_or_else(|e: String| failed(function, e))
}

#[cold]
fn failed(function: &str, e: String) -> ! {
    errors::raise(
            PgSqlErrorCode::ERRCODE_IO_ERROR,
            format!("{function}: {e}"),
            Some("The file keeps values from repeating after a restart; nothing is issued without it. It belongs to the data directory and is written about once a second while ids are generated."),
        )
}
