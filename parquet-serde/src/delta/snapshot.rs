//! A table at one version: its commits replayed in order.
//!
//! The replay starts from the newest complete Parquet checkpoint at or below the version
//! asked for (see [`newest_checkpoint`]), or from version 0 when there is none, then applies
//! the JSON commits after it, which must be contiguous.

use std::collections::{BTreeMap, HashMap};

use super::action::{Action, Add, Metadata, Protocol, Remove};
use super::checkpoint::newest_checkpoint;
use super::log_store::{commit_path, LogFile, LogStore, LOG_DIR};
use crate::error::{Error, Result};

/// The state of a table at `version`.
#[derive(Debug, Clone)]
pub(crate) struct Snapshot {
    pub version: u64,
    pub protocol: Protocol,
    pub metadata: Metadata,
    /// The live data files, by path.
    pub files: BTreeMap<String, Add>,
    /// The files removed and not re-added, by path: what VACUUM may delete after the grace
    /// period (by `deletion_timestamp`).
    pub tombstones: BTreeMap<String, Remove>,
    /// Each application's last committed transaction version (`txn` actions).
    pub txns: HashMap<String, i64>,
}

/// The versions of the commit files in a log listing, sorted.
pub(crate) fn commit_versions(names: &[String]) -> Vec<u64> {
    let mut versions: Vec<u64> = names
        .iter()
        .filter_map(|n| match LogFile::classify(n) {
            LogFile::Commit { version } => Some(version),
            _ => None,
        })
        .collect();
    versions.sort_unstable();
    versions
}

impl Snapshot {
    /// The table at `version` (the latest when `None`). An error when the store holds no
    /// table, when the version does not exist, or when a commit is missing or corrupt (naming
    /// the file).
    pub(crate) fn load(store: &dyn LogStore, version: Option<u64>) -> Result<Snapshot> {
        let names = store.list(LOG_DIR)?;
        let versions = commit_versions(&names);
        let newest_checkpoint_version = newest_checkpoint(&names, u64::MAX).map(|c| c.version);
        let Some(latest) = versions.last().copied().max(newest_checkpoint_version) else {
            return Err(Error::invalid_argument(format!(
                "{}: not a Delta table (no commit in _delta_log/)",
                store.describe()
            )));
        };
        let target = version.unwrap_or(latest);
        if target > latest {
            return Err(Error::invalid_argument(format!(
                "{}: version {target} does not exist (the latest is {latest})",
                store.describe()
            )));
        }
        let mut state = Replay::default();
        let mut next = 0;
        if let Some(checkpoint) = newest_checkpoint(&names, target) {
            let file = format!("{}/{}", store.describe(), checkpoint.files[0]);
            let actions = checkpoint.read(store)?;
            for needed in ["protocol", "metaData"] {
                let found = actions.iter().any(|a| match a {
                    Action::Protocol(_) => needed == "protocol",
                    Action::Metadata(_) => needed == "metaData",
                    _ => false,
                });
                if !found {
                    return Err(Error::corrupt(format!(
                        "{file}: the checkpoint holds no {needed} action"
                    )));
                }
            }
            for action in actions {
                check_action(&action, &file)?;
                state.apply(action, checkpoint.version);
            }
            next = checkpoint.version + 1;
        }
        let first = next;
        for &v in versions.iter().filter(|&&v| v >= first && v <= target) {
            if v != next {
                return Err(Error::corrupt(format!(
                    "{}: commit {} is missing from _delta_log/ (found {v} after it)",
                    store.describe(),
                    commit_path(next)
                )));
            }
            let path = commit_path(v);
            let bytes = store.read(&path)?;
            let file = format!("{}/{path}", store.describe());
            for action in Action::parse_commit(&bytes, &file)? {
                check_action(&action, &file)?;
                state.apply(action, v);
            }
            next = v + 1;
        }
        if next <= target {
            return Err(Error::corrupt(format!(
                "{}: commit {} is missing from _delta_log/ (version {target} was asked for)",
                store.describe(),
                commit_path(next)
            )));
        }
        state.finish(target, store)
    }
}

/// Refuses an action whose values no table can hold: an empty path, a negative size or
/// record count (a huge one is left to the data file's own check when it is read).
fn check_action(action: &Action, file: &str) -> Result<()> {
    let bad = |what: String| Err(Error::corrupt(format!("{file}: {what}")));
    match action {
        Action::Add(a) if a.path.is_empty() => bad("an add action with an empty path".into()),
        Action::Add(a) if a.size < 0 => bad(format!("add `{}`: negative size {}", a.path, a.size)),
        Action::Remove(r) if r.path.is_empty() => bad("a remove action with an empty path".into()),
        _ => Ok(()),
    }
}

/// The replay's running state.
#[derive(Default)]
pub(crate) struct Replay {
    protocol: Option<Protocol>,
    metadata: Option<Metadata>,
    files: BTreeMap<String, Add>,
    tombstones: BTreeMap<String, Remove>,
    txns: HashMap<String, i64>,
}

impl Replay {
    /// Applies one action of commit `version`, in log order.
    pub(crate) fn apply(&mut self, action: Action, _version: u64) {
        match action {
            Action::Add(add) => {
                self.tombstones.remove(&add.path);
                self.files.insert(add.path.clone(), add);
            }
            Action::Remove(remove) => {
                self.files.remove(&remove.path);
                self.tombstones.insert(remove.path.clone(), remove);
            }
            Action::Metadata(m) => self.metadata = Some(m),
            Action::Protocol(p) => self.protocol = Some(p),
            Action::Txn(t) => {
                self.txns.insert(t.app_id, t.version);
            }
            Action::CommitInfo(_) | Action::Other(_) => {}
        }
    }

    /// The snapshot, once every commit up to `version` is applied.
    pub(crate) fn finish(self, version: u64, store: &dyn LogStore) -> Result<Snapshot> {
        let protocol = self.protocol.ok_or_else(|| {
            Error::corrupt(format!(
                "{}: no protocol action up to version {version}",
                store.describe()
            ))
        })?;
        let metadata = self.metadata.ok_or_else(|| {
            Error::corrupt(format!(
                "{}: no metaData action up to version {version}",
                store.describe()
            ))
        })?;
        Ok(Snapshot {
            version,
            protocol,
            metadata,
            files: self.files,
            tombstones: self.tombstones,
            txns: self.txns,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::action::{Format, Txn};
    use super::super::log_store::LocalLogStore;
    use super::*;

    fn add(path: &str) -> Action {
        Action::Add(Add {
            path: path.into(),
            partition_values: Default::default(),
            size: 1,
            modification_time: 0,
            data_change: true,
            stats: None,
            tags: None,
            deletion_vector: None,
        })
    }

    #[test]
    fn replay_keeps_live_files_txns_and_versions() {
        let dir = tempfile::tempdir().unwrap();
        let store = LocalLogStore::new(dir.path());
        let meta = Action::Metadata(Metadata {
            id: "t".into(),
            name: None,
            description: None,
            format: Format::default(),
            schema_string: "{\"type\":\"struct\",\"fields\":[]}".into(),
            partition_columns: vec![],
            configuration: Default::default(),
            created_time: None,
        });
        let protocol = Action::Protocol(Protocol {
            min_reader_version: 1,
            min_writer_version: 2,
            reader_features: None,
            writer_features: None,
        });
        let commits = [
            vec![protocol, meta, add("a")],
            vec![
                add("b"),
                Action::Txn(Txn {
                    app_id: "w".into(),
                    version: 3,
                    last_updated: None,
                }),
            ],
            vec![Action::Remove(Remove {
                path: "a".into(),
                deletion_timestamp: Some(5),
                data_change: true,
                extended_file_metadata: None,
                partition_values: None,
                size: None,
                deletion_vector: None,
            })],
        ];
        for (v, actions) in commits.iter().enumerate() {
            assert!(store
                .put_if_absent(&commit_path(v as u64), &Action::commit_bytes(actions))
                .unwrap());
        }
        let latest = Snapshot::load(&store, None).unwrap();
        assert_eq!(latest.version, 2);
        assert_eq!(latest.files.keys().collect::<Vec<_>>(), ["b"]);
        assert_eq!(latest.tombstones.keys().collect::<Vec<_>>(), ["a"]);
        assert_eq!(latest.txns["w"], 3);
        let first = Snapshot::load(&store, Some(0)).unwrap();
        assert_eq!(first.files.keys().collect::<Vec<_>>(), ["a"]);
        assert!(first.txns.is_empty());
        let err = Snapshot::load(&store, Some(3)).unwrap_err();
        assert!(err.to_string().contains("the latest is 2"), "{err}");

        std::fs::remove_file(dir.path().join(commit_path(1))).unwrap();
        let err = Snapshot::load(&store, None).unwrap_err();
        assert!(
            err.to_string()
                .contains("00000000000000000001.json is missing"),
            "{err}"
        );
        std::fs::write(dir.path().join(commit_path(1)), "{not json").unwrap();
        let err = Snapshot::load(&store, None).unwrap_err();
        assert!(
            err.to_string()
                .contains("00000000000000000001.json, line 1"),
            "{err}"
        );
        let empty = tempfile::tempdir().unwrap();
        let err = Snapshot::load(&LocalLogStore::new(empty.path()), None).unwrap_err();
        assert!(err.to_string().contains("not a Delta table"), "{err}");
    }
}
