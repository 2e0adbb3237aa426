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
    let temporary = path.with_extension("tmp");
    File::create(&temporary)
        .and_then(|mut f| {
            f.write_all(text.as_bytes())?;
            f.sync_all()
        })
        .map_err(|e| fail("write", e))?;
    fs::rename(&temporary, &path).map_err(|e| fail("rename a new version into", e))?;
    File::open(dir).and_then(|d| d.sync_all()).map_err(|e| fail("fsync the directory of", e))
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Arc, Barrier};
    use std::thread;

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
            let start = Arc::new(Barrier::new(WRITERS));
            let writers: Vec<_> = (0..WRITERS)
                .map(|i| {
                    let (dir, start) = (dir.clone(), Arc::clone(&start));
                    thread::spawn(move || {
                        start.wait();
                        replace_file(&dir, &format!("family{i}"), &format!("mark {i}\n"))
                    })
                })
                .collect();
            for (i, writer) in writers.into_iter().enumerate() {
                assert_eq!(writer.join().unwrap(), Ok(()), "round {round}, writer {i}");
                let text = fs::read_to_string(dir.join(format!("family{i}"))).unwrap();
                assert_eq!(text, format!("mark {i}\n"));
            }
            fs::remove_dir_all(data_directory).unwrap();
        }
    }
}
