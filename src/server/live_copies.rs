//! Copies that no signal tells from their source, running beside it on one machine (a block-level
//! clone of its volume, mounted elsewhere and started): each identity value a copy must not go on
//! with is held by one running server at a time (`rules::identity::holding`), as a small file per
//! value, named by the system identifier, the setting and the value's digest, in
//! `/dev/shm/comb_ext-<uid>/` (tmpfs: gone at a reboot, with the servers it named). A backend's
//! first identity check takes the value for its server, or refuses it while another server that
//! holds it still runs (its pid alive, and its `postmaster.pid` naming that pid and start time).
//! Where the registry cannot be used (no `/dev/shm`, a directory that is not this user's alone, a
//! file that cannot be locked within a second), nothing is refused: the defence does not apply
//! there, and docs/guarantees.md says where it does.

use crate::rules::identity::{holder_file_name, holding, Holding, LiveHolder};
use crate::server::high_water::read_small_file;
use pgrx::pg_sys;
use std::ffi::CStr;
use std::fs::{self, File, TryLockError};
use std::io::Read;
use std::os::unix::fs::{DirBuilderExt, FileExt, MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// tmpfs on Linux: one per machine (a container usually has its own).
const ROOT: &str = "/dev/shm";

/// This server and the registry, found once for a check of several values.
pub struct Registry {
    me: LiveHolder,
    directory: PathBuf,
}

impl Registry {
    /// None where the registry cannot be used (then nothing is refused by it).
    pub fn open() -> Option<Registry> {
        Some(Registry { me: this_server()?, directory: registry()? })
    }

    /// The server that `value` of identity setting `setting` must stay with, if it is another one
    /// that runs now on this machine; else this server takes it (or keeps it) and the answer is None.
    pub fn held_elsewhere(&self, system_identifier: u64, setting: usize, digest: u64) -> Option<LiveHolder> {
        let path = self.directory.join(holder_file_name(system_identifier, setting, digest));
        let file = fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .mode(0o600)
            .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
            .open(path)
            .ok()?;
        if !file.metadata().ok()?.file_type().is_file() || !lock_within_a_second(&file) {
            return None;
        }
        let mut text = String::new();
        (&file).take(4096).read_to_string(&mut text).ok()?;
        match holding(Some(text.as_str()).filter(|t| !t.is_empty()), &self.me, runs) {
            Holding::Other(holder) => Some(holder),
            Holding::Ours => None,
            Holding::Free => {
                let _ = file.set_len(0).and_then(|_| file.write_all_at(self.me.to_text().as_bytes(), 0));
                None
            }
        }
        // The lock goes with the file.
    }
}

/// Holders keep the lock for a read and a write; one stopped while it holds it (SIGSTOP) must not
/// hold up a first call for long.
fn lock_within_a_second(file: &File) -> bool {
    for _ in 0..100 {
        match file.try_lock() {
            Ok(()) => return true,
            Err(TryLockError::WouldBlock) => std::thread::sleep(Duration::from_millis(10)),
            Err(TryLockError::Error(_)) => return false,
        }
    }
    false
}

/// `/dev/shm/comb_ext-<uid>`, made if missing; None unless it is a directory of this user's that
/// no one else can write in.
fn registry() -> Option<PathBuf> {
    // SAFETY: geteuid cannot fail.
    let uid = unsafe { libc::geteuid() };
    let dir = Path::new(ROOT).join(format!("comb_ext-{uid}"));
    let _ = fs::DirBuilder::new().mode(0o700).create(&dir);
    let metadata = fs::symlink_metadata(&dir).ok()?;
    (metadata.file_type().is_dir() && metadata.uid() == uid && metadata.mode() & 0o077 == 0).then_some(dir)
}

/// This server as the registry names it, None if its `postmaster.pid` cannot say.
fn this_server() -> Option<LiveHolder> {
    // SAFETY: DataDir (absolute) and PostmasterPid are set before any backend runs and never change.
    let (data_directory, pid) = unsafe {
        if pg_sys::DataDir.is_null() {
            return None;
        }
        (CStr::from_ptr(pg_sys::DataDir).to_str().ok()?.to_string(), u32::try_from(pg_sys::PostmasterPid).ok()?)
    };
    let started = started_of(Path::new(&data_directory), pid)?;
    Some(LiveHolder { pid, started, data_directory })
}

/// The start time (third line) of `directory/postmaster.pid`, if its first line is `pid`.
fn started_of(directory: &Path, pid: u32) -> Option<String> {
    let text = read_small_file(&directory.join("postmaster.pid"), false).ok()?;
    let mut lines = text.lines();
    (lines.next()?.trim() == pid.to_string()).then_some(())?;
    lines.next()?;
    Some(lines.next()?.trim().to_string())
}

/// Whether `holder` still runs: its pid is a process, and its data directory's `postmaster.pid`
/// names that pid and start time (a pid given to another process, or a restart, does not).
fn runs(holder: &LiveHolder) -> bool {
    Path::new("/proc").join(holder.pid.to_string()).exists()
        && started_of(Path::new(&holder.data_directory), holder.pid).as_deref() == Some(holder.started.as_str())
}
