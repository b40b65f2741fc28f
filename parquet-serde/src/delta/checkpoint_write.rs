//! Writing a checkpoint: the table at a version as one Parquet file of actions
//! (`_delta_log/<version>.checkpoint.parquet`, written with this crate's own writer) and
//! `_last_checkpoint` pointing at it (PROTOCOL.md, "Checkpoints").
//!
//! Each row holds one action in its column (`txn`, `add`, `remove`, `metaData`, `protocol`),
//! the others null, with the field names and types delta-rs and Spark write: `add.stats` as
//! JSON text, `partitionValues` as a map of strings. The removes still in the table (the
//! files VACUUM has not deleted yet) are kept so that exactly-once can recognise them.

use std::collections::BTreeMap;

use serde::Serialize;

use super::action::{Add, Metadata, Protocol, Remove};
use super::log_store::{checkpoint_path, LogStore, LOG_DIR};
use super::snapshot::Snapshot;
use crate::error::Result;

type StringMap = BTreeMap<String, Option<String>>;

#[derive(Serialize, crate::ParquetSchema)]
#[parquet(crate = "crate", name = "spark_schema")]
#[serde(rename_all = "camelCase")]
struct Row {
    txn: Option<TxnRow>,
    add: Option<AddRow>,
    remove: Option<RemoveRow>,
    meta_data: Option<MetadataRow>,
    protocol: Option<ProtocolRow>,
}

#[derive(Serialize, crate::ParquetSchema)]
#[parquet(crate = "crate")]
#[serde(rename_all = "camelCase")]
struct TxnRow {
    app_id: String,
    version: i64,
    last_updated: Option<i64>,
}

#[derive(Serialize, crate::ParquetSchema)]
#[parquet(crate = "crate")]
#[serde(rename_all = "camelCase")]
struct AddRow {
    path: String,
    partition_values: StringMap,
    size: i64,
    modification_time: i64,
    data_change: bool,
    stats: Option<String>,
    tags: Option<StringMap>,
}

#[derive(Serialize, crate::ParquetSchema)]
#[parquet(crate = "crate")]
#[serde(rename_all = "camelCase")]
struct RemoveRow {
    path: String,
    deletion_timestamp: Option<i64>,
    data_change: bool,
    extended_file_metadata: Option<bool>,
    partition_values: Option<StringMap>,
    size: Option<i64>,
}

#[derive(Serialize, crate::ParquetSchema)]
#[parquet(crate = "crate")]
#[serde(rename_all = "camelCase")]
struct MetadataRow {
    id: String,
    name: Option<String>,
    description: Option<String>,
    format: FormatRow,
    schema_string: String,
    partition_columns: Vec<String>,
    configuration: StringMap,
    created_time: Option<i64>,
}

#[derive(Serialize, crate::ParquetSchema)]
#[parquet(crate = "crate")]
struct FormatRow {
    provider: String,
    options: StringMap,
}

#[derive(Serialize, crate::ParquetSchema)]
#[parquet(crate = "crate")]
#[serde(rename_all = "camelCase")]
struct ProtocolRow {
    min_reader_version: i32,
    min_writer_version: i32,
    reader_features: Option<Vec<String>>,
    writer_features: Option<Vec<String>>,
}

const EMPTY: Row = Row {
    txn: None,
    add: None,
    remove: None,
    meta_data: None,
    protocol: None,
};

fn add_row(a: &Add) -> AddRow {
    AddRow {
        path: a.path.clone(),
        partition_values: a.partition_values.clone(),
        size: a.size,
        modification_time: a.modification_time,
        data_change: a.data_change,
        stats: a.stats.clone(),
        tags: a.tags.clone(),
    }
}

fn remove_row(r: &Remove) -> RemoveRow {
    RemoveRow {
        path: r.path.clone(),
        deletion_timestamp: r.deletion_timestamp,
        data_change: r.data_change,
        extended_file_metadata: r.extended_file_metadata,
        partition_values: r.partition_values.clone(),
        size: r.size,
    }
}

fn metadata_row(m: &Metadata) -> MetadataRow {
    MetadataRow {
        id: m.id.clone(),
        name: m.name.clone(),
        description: m.description.clone(),
        format: FormatRow {
            provider: m.format.provider.clone(),
            options: m
                .format
                .options
                .iter()
                .map(|(k, v)| (k.clone(), Some(v.clone())))
                .collect(),
        },
        schema_string: m.schema_string.clone(),
        partition_columns: m.partition_columns.clone(),
        configuration: m.configuration.clone(),
        created_time: m.created_time,
    }
}

fn protocol_row(p: &Protocol) -> ProtocolRow {
    ProtocolRow {
        min_reader_version: p.min_reader_version,
        min_writer_version: p.min_writer_version,
        reader_features: p.reader_features.clone(),
        writer_features: p.writer_features.clone(),
    }
}

/// The checkpoint file's bytes and its number of actions.
pub(crate) fn checkpoint_bytes(snapshot: &Snapshot) -> Result<(Vec<u8>, usize)> {
    let mut rows = Vec::with_capacity(snapshot.files.len() + snapshot.tombstones.len() + 2);
    rows.push(Row {
        protocol: Some(protocol_row(&snapshot.protocol)),
        ..EMPTY
    });
    rows.push(Row {
        meta_data: Some(metadata_row(&snapshot.metadata)),
        ..EMPTY
    });
    let mut txns: Vec<(&String, &i64)> = snapshot.txns.iter().collect();
    txns.sort();
    for (app_id, &version) in txns {
        rows.push(Row {
            txn: Some(TxnRow {
                app_id: app_id.clone(),
                version,
                last_updated: None,
            }),
            ..EMPTY
        });
    }
    for add in snapshot.files.values() {
        rows.push(Row {
            add: Some(add_row(add)),
            ..EMPTY
        });
    }
    for remove in snapshot.tombstones.values() {
        rows.push(Row {
            remove: Some(remove_row(remove)),
            ..EMPTY
        });
    }
    let n = rows.len();
    Ok((crate::ser::to_vec(&rows)?, n))
}

/// Writes the checkpoint of `snapshot` and then `_last_checkpoint`. A checkpoint already
/// there (another writer's of the same version) is left as it is.
pub(crate) fn write(store: &dyn LogStore, snapshot: &Snapshot) -> Result<()> {
    let (bytes, actions) = checkpoint_bytes(snapshot)?;
    let size_in_bytes = bytes.len();
    // Put-if-absent: a reader never sees a partial checkpoint, and two writers of the same
    // version's checkpoint (same content up to ordering) do not replace each other's.
    store.put_if_absent(&checkpoint_path(snapshot.version), &bytes)?;
    let last = serde_json::json!({
        "version": snapshot.version,
        "size": actions,
        "sizeInBytes": size_in_bytes,
        "numOfAddFiles": snapshot.files.len(),
    });
    // `_last_checkpoint` only moves forward: a slower writer of an older checkpoint leaves
    // a newer pointer alone (a hint only: readers list the log anyway).
    let path = format!("{LOG_DIR}/_last_checkpoint");
    if let Ok(old) = store.read(&path) {
        if let Ok(old) = serde_json::from_slice::<serde_json::Value>(&old) {
            if old["version"]
                .as_u64()
                .is_some_and(|v| v >= snapshot.version)
            {
                return Ok(());
            }
        }
    }
    store.put(&path, last.to_string().as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::file::ParquetMetaData;

    #[test]
    fn the_checkpoint_schema_has_the_action_columns() {
        let snapshot = Snapshot {
            version: 3,
            protocol: Protocol {
                min_reader_version: 1,
                min_writer_version: 2,
                reader_features: None,
                writer_features: None,
            },
            metadata: Metadata {
                id: "id".into(),
                name: None,
                description: None,
                format: Default::default(),
                schema_string: "{}".into(),
                partition_columns: vec!["date".into()],
                configuration: Default::default(),
                created_time: Some(1),
            },
            files: Default::default(),
            tombstones: Default::default(),
            txns: [("app".to_string(), 4)].into(),
        };
        let (bytes, n) = checkpoint_bytes(&snapshot).unwrap();
        assert_eq!(n, 3);
        let md = ParquetMetaData::parse(&bytes[..]).unwrap();
        let paths: Vec<String> = md
            .schema()
            .columns()
            .iter()
            .map(|c| c.path.parts().join("."))
            .collect();
        for want in [
            "txn.appId",
            "add.path",
            "add.partitionValues.key_value.key",
            "add.stats",
            "remove.deletionTimestamp",
            "metaData.schemaString",
            "metaData.format.provider",
            "protocol.minReaderVersion",
        ] {
            assert!(paths.iter().any(|p| p == want), "{want} in {paths:?}");
        }
    }
}
