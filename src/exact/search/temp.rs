//! Temporary directories for the probes' proof traces (`commsched-proof-*` in the system's
//! temporary directory; a long run's proofs take tens of gigabytes): [`tempfile`]'s, removed
//! when dropped, and registered so that an interrupt handler can remove them too
//! ([`remove_temporary_proofs`]), as an interrupt skips the drop.

use crate::error::{Error, Result};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};

/// The temporary proof directories of this process that are still in use.
static TEMPORARY: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// The temporary directories in use, even after a panic elsewhere.
fn temporary() -> MutexGuard<'static, Vec<PathBuf>> {
    TEMPORARY.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Removes the temporary directories that hold the probes' CNFs and proofs, for an interrupt
/// handler to call before the process exits. Directories kept for `--certificate` are not
/// temporary.
pub fn remove_temporary_proofs() {
    for dir in temporary().drain(..) {
        let _ = std::fs::remove_dir_all(dir);
    }
}

/// A temporary directory, removed when dropped, or by [`remove_temporary_proofs`].
pub(super) struct TempDir {
    /// Removes the directory when dropped (first: fields drop in order).
    dir: tempfile::TempDir,
    /// Leaves the register when dropped.
    registered: Registered,
}

/// A directory's place in the register of temporary directories.
struct Registered(PathBuf);

impl Drop for Registered {
    fn drop(&mut self) {
        temporary().retain(|dir| *dir != self.0);
    }
}

impl TempDir {
    pub(super) fn new() -> Result<Self> {
        let dir = tempfile::Builder::new()
            .prefix(&format!("commsched-proof-{}-", std::process::id()))
            .tempdir()
            .map_err(|source| Error::Io { path: std::env::temp_dir().display().to_string(), source })?;
        temporary().push(dir.path().to_path_buf());
        let registered = Registered(dir.path().to_path_buf());
        Ok(Self { dir, registered })
    }

    pub(super) fn path(&self) -> &Path {
        self.dir.path()
    }

    /// The directory, no longer removed when dropped.
    pub(super) fn keep(self) -> PathBuf {
        let Self { dir, registered } = self;
        drop(registered);
        dir.keep()
    }
}
