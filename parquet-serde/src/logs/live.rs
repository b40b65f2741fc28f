//! Which in-progress files belong to a writer still running, so that recovery leaves them
//! alone: this process's open files are registered; another process is alive while
//! `/proc/<pid>` exists (Linux). Elsewhere files of other processes are taken as
//! abandoned, so run recovery there only when no other writer uses the folder.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

/// The journals this process is writing.
fn open_files() -> &'static Mutex<HashSet<PathBuf>> {
    static OPEN: OnceLock<Mutex<HashSet<PathBuf>>> = OnceLock::new();
    OPEN.get_or_init(|| Mutex::new(HashSet::new()))
}

/// Marks `journal` as written by this process until [`release`] is called.
pub(crate) fn register(journal: &Path) {
    open_files()
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(journal.to_path_buf());
}

/// Ends [`register`].
pub(crate) fn release(journal: &Path) {
    open_files()
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .remove(journal);
}

/// Whether the journal at `journal`, named with process `pid`, has a live writer.
pub(crate) fn is_live(journal: &Path, pid: Option<u32>) -> bool {
    let Some(pid) = pid else { return false };
    if pid == std::process::id() {
        return open_files()
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .contains(journal);
    }
    other_process_alive(pid)
}

#[cfg(target_os = "linux")]
fn other_process_alive(pid: u32) -> bool {
    Path::new("/proc").join(pid.to_string()).exists()
}

#[cfg(not(target_os = "linux"))]
fn other_process_alive(_pid: u32) -> bool {
    false
}

/// Syncs a folder, so that the names created or renamed in it survive a crash.
pub(crate) fn sync_dir(dir: &Path) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        std::fs::File::open(dir)?.sync_all()?;
    }
    #[cfg(not(unix))]
    let _ = dir;
    Ok(())
}

/// An I/O error turned into an [`Error`](crate::Error) naming `path`.
pub(crate) fn io_at(path: &Path) -> impl FnOnce(std::io::Error) -> crate::Error + '_ {
    move |e| crate::Error::from(e).context(format!("`{}`", path.display()))
}
