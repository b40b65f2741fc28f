//! The actions of a Delta commit file: one JSON object per line, each with exactly one key
//! naming the action (PROTOCOL.md, "Actions"). Unknown actions and unknown fields are kept
//! out of the way (readers must ignore what they do not know); the protocol check decides
//! whether the table needs something we lack.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

/// Partition values as the log writes them: the column's value as text, `null` for null.
pub(crate) type PartitionValues = BTreeMap<String, Option<String>>;

/// `add`: a data file joins the table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Add {
    /// Relative to the table root, URL-encoded (RFC 2396 URI), or an absolute URI.
    pub path: String,
    #[serde(default)]
    pub partition_values: PartitionValues,
    pub size: i64,
    /// Milliseconds since the epoch.
    pub modification_time: i64,
    pub data_change: bool,
    /// JSON text: `numRecords`, `minValues`, `maxValues`, `nullCount`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stats: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tags: Option<BTreeMap<String, Option<String>>>,
    /// Present only on tables with the `deletionVectors` feature (which we refuse to read).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deletion_vector: Option<serde_json::Value>,
}

/// `remove`: a data file leaves the table (a tombstone until VACUUM deletes it).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Remove {
    pub path: String,
    /// Milliseconds since the epoch.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deletion_timestamp: Option<i64>,
    pub data_change: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extended_file_metadata: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub partition_values: Option<PartitionValues>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deletion_vector: Option<serde_json::Value>,
}

/// `metaData`: the table's schema, partition columns and configuration.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Metadata {
    pub id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    pub format: Format,
    /// The table schema as Delta's JSON schema text.
    pub schema_string: String,
    #[serde(default)]
    pub partition_columns: Vec<String>,
    #[serde(default)]
    pub configuration: BTreeMap<String, Option<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub created_time: Option<i64>,
}

/// The data files' format: always `parquet`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct Format {
    pub provider: String,
    #[serde(default)]
    pub options: BTreeMap<String, String>,
}

impl Default for Format {
    fn default() -> Self {
        Format {
            provider: "parquet".into(),
            options: BTreeMap::new(),
        }
    }
}

/// `protocol`: the reader and writer versions (and, from 3 / 7, the named table features) a
/// client must support.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Protocol {
    pub min_reader_version: i32,
    pub min_writer_version: i32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reader_features: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub writer_features: Option<Vec<String>>,
}

/// `txn`: the last version an application committed (its idempotence marker).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Txn {
    pub app_id: String,
    pub version: i64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_updated: Option<i64>,
}

/// One line of a commit file.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Action {
    Add(Add),
    Remove(Remove),
    Metadata(Metadata),
    Protocol(Protocol),
    Txn(Txn),
    /// Free-form provenance (operation, timestamp, engine): kept as JSON.
    CommitInfo(serde_json::Map<String, serde_json::Value>),
    /// An action this crate does not interpret (`cdc`, `domainMetadata`, `sidecar`,
    /// `checkpointMetadata`, ...): its key, kept so callers can see it was there.
    Other(String),
}

/// The serde form of a line: exactly one of these keys is set.
#[derive(Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Line {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    add: Option<Add>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    remove: Option<Remove>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    meta_data: Option<Metadata>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    protocol: Option<Protocol>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    txn: Option<Txn>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    commit_info: Option<serde_json::Map<String, serde_json::Value>>,
    #[serde(flatten)]
    other: BTreeMap<String, serde_json::Value>,
}

impl Action {
    /// The JSON line of this action (no trailing newline).
    pub(crate) fn to_json_line(&self) -> String {
        let mut line = Line::default();
        match self {
            Action::Add(a) => line.add = Some(a.clone()),
            Action::Remove(r) => line.remove = Some(r.clone()),
            Action::Metadata(m) => line.meta_data = Some(m.clone()),
            Action::Protocol(p) => line.protocol = Some(p.clone()),
            Action::Txn(t) => line.txn = Some(t.clone()),
            Action::CommitInfo(c) => line.commit_info = Some(c.clone()),
            Action::Other(key) => {
                line.other
                    .insert(key.clone(), serde_json::Value::Object(Default::default()));
            }
        }
        serde_json::to_string(&line).expect("actions serialize to JSON")
    }

    /// Parses one non-empty line; `what` names the file (and line) for errors.
    pub(crate) fn parse_line(text: &str, what: &dyn std::fmt::Display) -> Result<Action> {
        let line: Line = serde_json::from_str(text).map_err(|e| {
            Error::corrupt(format!("{what}: not a Delta action: {e}")).with_source(e)
        })?;
        let mut found = Vec::new();
        if let Some(a) = line.add {
            found.push(Action::Add(a));
        }
        if let Some(r) = line.remove {
            found.push(Action::Remove(r));
        }
        if let Some(m) = line.meta_data {
            found.push(Action::Metadata(m));
        }
        if let Some(p) = line.protocol {
            found.push(Action::Protocol(p));
        }
        if let Some(t) = line.txn {
            found.push(Action::Txn(t));
        }
        if let Some(c) = line.commit_info {
            found.push(Action::CommitInfo(c));
        }
        for key in line.other.into_keys() {
            found.push(Action::Other(key));
        }
        match found.len() {
            1 => Ok(found.pop().expect("one action")),
            0 => Err(Error::corrupt(format!("{what}: a line with no action"))),
            n => Err(Error::corrupt(format!(
                "{what}: a line with {n} actions (one expected)"
            ))),
        }
    }

    /// Parses a whole commit file: one action per non-empty line.
    pub(crate) fn parse_commit(bytes: &[u8], file: &str) -> Result<Vec<Action>> {
        let text = std::str::from_utf8(bytes)
            .map_err(|e| Error::corrupt(format!("{file}: commit is not UTF-8: {e}")))?;
        let mut actions = Vec::new();
        for (i, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let at = format!("{file}, line {}", i + 1);
            actions.push(Action::parse_line(line, &at)?);
        }
        Ok(actions)
    }

    /// A commit file's bytes: each action on its own line, newline-terminated.
    pub(crate) fn commit_bytes(actions: &[Action]) -> Vec<u8> {
        let mut out = String::new();
        for action in actions {
            out.push_str(&action.to_json_line());
            out.push('\n');
        }
        out.into_bytes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_round_trip_and_name_the_line_on_error() {
        let add = Action::Add(Add {
            path: "date=2026-11-28/part-0.parquet".into(),
            partition_values: [("date".to_string(), Some("2026-11-28".to_string()))].into(),
            size: 10,
            modification_time: 1,
            data_change: true,
            stats: Some("{\"numRecords\":3}".into()),
            tags: None,
            deletion_vector: None,
        });
        let txn = Action::Txn(Txn {
            app_id: "svc".into(),
            version: 7,
            last_updated: None,
        });
        let bytes = Action::commit_bytes(&[add.clone(), txn.clone()]);
        let text = String::from_utf8(bytes.clone()).unwrap();
        assert!(text.starts_with("{\"add\":{\"path\":"), "{text}");
        assert!(
            text.contains("\"partitionValues\":{\"date\":\"2026-11-28\"}"),
            "{text}"
        );
        assert_eq!(Action::parse_commit(&bytes, "00.json").unwrap(), [add, txn]);

        let other = Action::parse_line("{\"domainMetadata\":{\"domain\":\"x\"}}", &"f").unwrap();
        assert_eq!(other, Action::Other("domainMetadata".into()));
        let err = Action::parse_commit(
            b"{\"txn\":{\"appId\":\"a\",\"version\":1}}\n{oops",
            "c.json",
        )
        .unwrap_err();
        assert!(err.to_string().contains("c.json, line 2"), "{err}");
        let err = Action::parse_line("{}", &"c.json, line 1").unwrap_err();
        assert!(err.to_string().contains("no action"), "{err}");
    }
}
