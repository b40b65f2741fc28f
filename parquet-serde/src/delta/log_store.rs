//! Where a table's log lives, and the one primitive that makes commits atomic: put-if-absent.
//!
//! A `LogStore` sees paths relative to the table root (`_delta_log/00000000000000000003.json`).
//! It is the storage every table format shares (`table/store.rs`: a local folder;
//! `table/object_store.rs`: an object store, feature `object_store`); this file adds the
//! names of the Delta log.

pub(crate) use crate::table::store::{LocalStore as LocalLogStore, TableStore as LogStore};

/// The log folder, relative to the table root.
pub(crate) const LOG_DIR: &str = "_delta_log";

/// What a file of `_delta_log/` is, by its name (PROTOCOL.md, "Delta Log Entries").
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum LogFile {
    /// `00000000000000000010.json`
    Commit { version: u64 },
    /// `00000000000000000010.checkpoint.parquet` (`parts: None`), or part `part` of `parts`
    /// of a multi-part checkpoint `…10.checkpoint.0000000001.0000000003.parquet`.
    Checkpoint {
        version: u64,
        part: Option<(u32, u32)>,
    },
    /// `_last_checkpoint`
    LastCheckpoint,
    /// Anything else (`.crc` files, V2 checkpoints, log compactions, temporary files): not
    /// needed to replay the log with the features we read.
    Other,
}

impl LogFile {
    /// Classifies a file name of `_delta_log/` (the name alone, no folder).
    pub(crate) fn classify(name: &str) -> LogFile {
        if name == "_last_checkpoint" {
            return LogFile::LastCheckpoint;
        }
        let Some((digits, rest)) = name.split_once('.') else {
            return LogFile::Other;
        };
        if digits.len() != 20 || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return LogFile::Other;
        }
        let Ok(version) = digits.parse::<u64>() else {
            return LogFile::Other;
        };
        if rest == "json" {
            return LogFile::Commit { version };
        }
        if rest == "checkpoint.parquet" {
            return LogFile::Checkpoint {
                version,
                part: None,
            };
        }
        let mut pieces = rest.split('.');
        if let (Some("checkpoint"), Some(p), Some(n), Some("parquet"), None) = (
            pieces.next(),
            pieces.next(),
            pieces.next(),
            pieces.next(),
            pieces.next(),
        ) {
            if p.len() == 10 && n.len() == 10 {
                if let (Ok(p), Ok(n)) = (p.parse::<u32>(), n.parse::<u32>()) {
                    if p >= 1 && p <= n {
                        return LogFile::Checkpoint {
                            version,
                            part: Some((p, n)),
                        };
                    }
                }
            }
        }
        LogFile::Other
    }
}

/// The relative path of commit `version`.
pub(crate) fn commit_path(version: u64) -> String {
    format!("{LOG_DIR}/{version:020}.json")
}

/// The relative path of the single-file checkpoint at `version`.
pub(crate) fn checkpoint_path(version: u64) -> String {
    format!("{LOG_DIR}/{version:020}.checkpoint.parquet")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_classify() {
        assert_eq!(
            LogFile::classify("00000000000000000010.json"),
            LogFile::Commit { version: 10 }
        );
        assert_eq!(
            LogFile::classify("00000000000000000010.checkpoint.parquet"),
            LogFile::Checkpoint {
                version: 10,
                part: None
            }
        );
        assert_eq!(
            LogFile::classify("00000000000000000010.checkpoint.0000000002.0000000003.parquet"),
            LogFile::Checkpoint {
                version: 10,
                part: Some((2, 3))
            }
        );
        assert_eq!(
            LogFile::classify("_last_checkpoint"),
            LogFile::LastCheckpoint
        );
        for other in [
            "00000000000000000010.crc",
            "0000000000000000010.json",
            "00000000000000000010.checkpoint.0000000004.0000000003.parquet",
            "00000000000000000001.00000000000000000009.compacted.json",
            ".tmp-x",
        ] {
            assert_eq!(LogFile::classify(other), LogFile::Other, "{other}");
        }
        assert_eq!(commit_path(3), "_delta_log/00000000000000000003.json");
    }
}
