//! Where files go: Hive partition folders (`date=YYYY-MM-DD/hour=HH`) and file names
//! (`part-<UTC time>-<pid>-<random>.parquet`; `_`-prefixed while being written).

use std::collections::hash_map::RandomState;
use std::fs::DirEntry;
use std::hash::{BuildHasher, Hasher};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use crate::core::values::text::civil_from_days;

const MICROS_PER_HOUR: i64 = 3_600_000_000;
const MICROS_PER_DAY: i64 = 24 * MICROS_PER_HOUR;

/// How rows are spread over folders by their time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TimePartition {
    /// Every file directly in the log folder.
    #[default]
    None,
    /// One folder per UTC day: `date=YYYY-MM-DD`.
    Daily,
    /// One folder per UTC hour: `date=YYYY-MM-DD/hour=HH`.
    Hourly,
}

impl TimePartition {
    /// The partition a time (microseconds since the Unix epoch, UTC) falls in, as a number
    /// that changes exactly when the folder does.
    pub(crate) fn key(self, micros: i64) -> i64 {
        match self {
            TimePartition::None => 0,
            TimePartition::Daily => micros.div_euclid(MICROS_PER_DAY),
            TimePartition::Hourly => micros.div_euclid(MICROS_PER_HOUR),
        }
    }

    /// The folder, relative to the log folder, of the rows at `micros`.
    pub fn folder(self, micros: i64) -> PathBuf {
        let days = micros.div_euclid(MICROS_PER_DAY);
        let hour = micros.rem_euclid(MICROS_PER_DAY) / MICROS_PER_HOUR;
        let (y, m, d) = civil_from_days(days);
        let date = format!("date={y:04}-{m:02}-{d:02}");
        match self {
            TimePartition::None => PathBuf::new(),
            TimePartition::Daily => PathBuf::from(date),
            TimePartition::Hourly => PathBuf::from(date).join(format!("hour={hour:02}")),
        }
    }
}

/// Microseconds since the Unix epoch now (0 before it, saturating far after).
pub(crate) fn now_micros() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_micros()).unwrap_or(i64::MAX))
}

/// `YYYYMMDDTHHMMSS.ffffffZ` for a time in microseconds (UTC).
pub(crate) fn compact_time(micros: i64) -> String {
    let days = micros.div_euclid(MICROS_PER_DAY);
    let in_day = micros.rem_euclid(MICROS_PER_DAY);
    let (y, m, d) = civil_from_days(days);
    let secs = in_day / 1_000_000;
    format!(
        "{y:04}{m:02}{d:02}T{:02}{:02}{:02}.{:06}Z",
        secs / 3600,
        secs / 60 % 60,
        secs % 60,
        in_day % 1_000_000
    )
}

/// A new file stem, unique across processes: `part-<UTC time>-<pid>-<random>`.
pub(crate) fn new_stem() -> String {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let mut h = RandomState::new().build_hasher();
    h.write_u64(COUNTER.fetch_add(1, Ordering::Relaxed));
    h.write_i64(now_micros());
    format!(
        "part-{}-{}-{:08x}",
        compact_time(now_micros()),
        std::process::id(),
        h.finish() as u32
    )
}

/// The final name of a file.
pub(crate) fn final_name(stem: &str) -> String {
    format!("{stem}.parquet")
}

/// The data file's name while it is written (skipped by engines: leading `_`, and no
/// `.parquet` suffix for globs).
pub(crate) fn data_name(stem: &str) -> String {
    format!("_{stem}.parquet.inprogress")
}

/// The journal's name.
pub(crate) fn journal_name(stem: &str) -> String {
    format!("_{stem}.journal")
}

/// The name a new journal is written under before it replaces the journal.
pub(crate) fn journal_temp_name(stem: &str) -> String {
    format!("_{stem}.journal.tmp")
}

/// What a file in a log folder is, by its name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Kind {
    /// A final data file.
    Final,
    /// A journal, with the stem of its file.
    Journal(String),
    /// A journal being replaced.
    JournalTemp(String),
    /// A data file being written.
    InProgress(String),
    /// Anything else.
    Other,
}

/// Classifies a file name.
pub(crate) fn kind(name: &str) -> Kind {
    let stem_of = |rest: &str| rest.starts_with("part-").then(|| rest.to_string());
    if let Some(rest) = name.strip_prefix('_') {
        if let Some(s) = rest.strip_suffix(".journal").and_then(stem_of) {
            return Kind::Journal(s);
        }
        if let Some(s) = rest.strip_suffix(".journal.tmp").and_then(stem_of) {
            return Kind::JournalTemp(s);
        }
        if let Some(s) = rest.strip_suffix(".parquet.inprogress").and_then(stem_of) {
            return Kind::InProgress(s);
        }
        return Kind::Other;
    }
    if name.starts_with("part-") && name.ends_with(".parquet") {
        return Kind::Final;
    }
    Kind::Other
}

/// Calls `visit` with each file under `dir` (partition folders descended), the folder it
/// is in and what its name makes it; an entry that cannot be read is handed over as its
/// error, for the caller to skip or report. Entries whose type cannot be read are skipped.
/// Fails when a folder cannot be listed, or when `visit` fails.
pub(crate) fn walk(
    dir: &Path,
    mut visit: impl FnMut(&Path, std::io::Result<(DirEntry, Kind)>) -> crate::Result<()>,
) -> crate::Result<()> {
    let mut folders = vec![dir.to_path_buf()];
    while let Some(folder) = folders.pop() {
        let entries = std::fs::read_dir(&folder).map_err(|e| {
            crate::Error::from(e).context(format!("listing `{}`", folder.display()))
        })?;
        for entry in entries {
            let entry = match entry {
                Ok(entry) => entry,
                Err(e) => {
                    visit(&folder, Err(e))?;
                    continue;
                }
            };
            match entry.file_type() {
                Ok(t) if t.is_dir() => folders.push(entry.path()),
                Ok(_) => {
                    let kind = kind(&entry.file_name().to_string_lossy());
                    visit(&folder, Ok((entry, kind)))?;
                }
                Err(_) => {}
            }
        }
    }
    Ok(())
}

/// The process id in a stem (`part-<time>-<pid>-<random>`).
pub(crate) fn stem_pid(stem: &str) -> Option<u32> {
    let mut parts = stem.rsplitn(3, '-');
    parts.next()?;
    parts.next()?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folders_and_names() {
        // 2026-11-24T13:05:00Z
        let t = 1_795_525_500_000_000i64;
        assert_eq!(
            TimePartition::Hourly.folder(t),
            PathBuf::from("date=2026-11-24/hour=13")
        );
        assert_eq!(
            TimePartition::Daily.folder(t),
            PathBuf::from("date=2026-11-24")
        );
        assert_eq!(TimePartition::None.folder(t), PathBuf::new());
        assert_eq!(
            TimePartition::Hourly.folder(-1),
            PathBuf::from("date=1969-12-31/hour=23")
        );
        assert_eq!(compact_time(t + 7), "20261124T130500.000007Z");
        assert_eq!(
            TimePartition::Hourly.key(t),
            TimePartition::Hourly.key(t + 1)
        );
        assert_ne!(
            TimePartition::Hourly.key(t),
            TimePartition::Hourly.key(t + MICROS_PER_HOUR)
        );

        let (a, b) = (new_stem(), new_stem());
        assert_ne!(a, b);
        assert_eq!(stem_pid(&a), Some(std::process::id()));
        assert_eq!(kind(&final_name(&a)), Kind::Final);
        assert_eq!(kind(&data_name(&a)), Kind::InProgress(a.clone()));
        assert_eq!(kind(&journal_name(&a)), Kind::Journal(a.clone()));
        assert_eq!(kind(&journal_temp_name(&a)), Kind::JournalTemp(a.clone()));
        assert_eq!(kind("_common_metadata"), Kind::Other);
        assert_eq!(kind("notes.txt"), Kind::Other);
    }
}
