//! Reading classic Parquet checkpoints (PROTOCOL.md, "Checkpoints"): one file, or the parts
//! `…N.checkpoint.0000000001.0000000003.parquet`, each row holding one action in the column
//! named after it (`add`, `remove`, `metaData`, `protocol`, `txn`). Read with this crate's
//! own reader into a tolerant row type: columns it does not name (`stats_parsed`,
//! `partitionValues_parsed`, `commitInfo`, `domainMetadata`, ...) are never read.

use std::collections::BTreeMap;

use serde::Deserialize;

use super::action::{Action, Add, Metadata, Protocol, Remove, Txn};
use super::log_store::{LogFile, LogStore, LOG_DIR};
use crate::error::{Error, Result};

/// One row of a checkpoint: at most one of the actions is set.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct CheckpointRow {
    #[serde(default)]
    add: Option<Add>,
    #[serde(default)]
    remove: Option<Remove>,
    #[serde(default)]
    meta_data: Option<Metadata>,
    #[serde(default)]
    protocol: Option<Protocol>,
    #[serde(default)]
    txn: Option<Txn>,
}

/// A checkpoint present in a listing: its version and the names of its files (one, or
/// every part in order).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Checkpoint {
    pub version: u64,
    /// Paths relative to the table root.
    pub files: Vec<String>,
}

/// The newest complete checkpoint at a version `<= target` among the log's file `names`: a
/// single file, or parts 1..=n all present for one n. Incomplete multi-part checkpoints
/// (a writer that stopped half-way) are passed over.
///
/// `_last_checkpoint` is a hint for stores where listing is expensive; the listing is read
/// anyway to find the commits, so a missing, stale or unreadable `_last_checkpoint` changes
/// nothing here.
pub(crate) fn newest_checkpoint(names: &[String], target: u64) -> Option<Checkpoint> {
    // version -> (single file present, parts by count -> part numbers seen)
    let mut found: BTreeMap<u64, (bool, BTreeMap<u32, Vec<u32>>)> = BTreeMap::new();
    for name in names {
        if let LogFile::Checkpoint { version, part } = LogFile::classify(name) {
            if version > target {
                continue;
            }
            let entry = found.entry(version).or_default();
            match part {
                None => entry.0 = true,
                Some((p, n)) => entry.1.entry(n).or_default().push(p),
            }
        }
    }
    for (&version, (single, parts)) in found.iter_mut().rev() {
        if *single {
            return Some(Checkpoint {
                version,
                files: vec![format!("{LOG_DIR}/{version:020}.checkpoint.parquet")],
            });
        }
        for (&n, seen) in parts.iter_mut() {
            seen.sort_unstable();
            seen.dedup();
            if seen.len() == n as usize {
                return Some(Checkpoint {
                    version,
                    files: (1..=n)
                        .map(|p| {
                            format!("{LOG_DIR}/{version:020}.checkpoint.{p:010}.{n:010}.parquet")
                        })
                        .collect(),
                });
            }
        }
    }
    None
}

impl Checkpoint {
    /// The actions of every part, in order. An error naming the part that is not a
    /// readable Parquet file of actions.
    pub(crate) fn read(&self, store: &dyn LogStore) -> Result<Vec<Action>> {
        let mut actions = Vec::new();
        for path in &self.files {
            let file = format!("{}/{path}", store.describe());
            let bytes = store.read(path)?;
            let rows: Vec<CheckpointRow> = crate::de::from_slice(&bytes).map_err(|e| {
                let message = format!("{file}: not a readable Delta checkpoint: {e}");
                Error::corrupt(message).with_source(e)
            })?;
            for row in rows {
                actions.extend(row.add.map(Action::Add));
                actions.extend(row.remove.map(Action::Remove));
                actions.extend(row.meta_data.map(Action::Metadata));
                actions.extend(row.protocol.map(Action::Protocol));
                actions.extend(row.txn.map(Action::Txn));
            }
        }
        Ok(actions)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn picks_the_newest_complete_checkpoint_at_or_below_the_target() {
        let listing = names(&[
            "00000000000000000000.json",
            "00000000000000000002.checkpoint.parquet",
            "00000000000000000004.checkpoint.0000000001.0000000002.parquet",
            "00000000000000000004.checkpoint.0000000002.0000000002.parquet",
            // Incomplete: part 2 of 3 missing.
            "00000000000000000006.checkpoint.0000000001.0000000003.parquet",
            "00000000000000000006.checkpoint.0000000003.0000000003.parquet",
            "_last_checkpoint",
        ]);
        let c = newest_checkpoint(&listing, 10).unwrap();
        assert_eq!(c.version, 4);
        assert_eq!(
            c.files,
            [
                "_delta_log/00000000000000000004.checkpoint.0000000001.0000000002.parquet",
                "_delta_log/00000000000000000004.checkpoint.0000000002.0000000002.parquet"
            ]
        );
        let c = newest_checkpoint(&listing, 3).unwrap();
        assert_eq!(c.version, 2);
        assert_eq!(
            c.files,
            ["_delta_log/00000000000000000002.checkpoint.parquet"]
        );
        assert_eq!(newest_checkpoint(&listing, 1), None);
    }
}
