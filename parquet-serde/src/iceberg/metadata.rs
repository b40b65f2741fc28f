//! The table metadata file (`metadata/v{N}.metadata.json`), format version 2, as serde
//! structs: read, checked, and written (the Iceberg spec, "Table Metadata").
//!
//! Schemas stay JSON values (their form is `schema.rs`'s); fields this crate does not use
//! (`statistics`, a newer writer's additions) are kept in `other` and written back, so a
//! commit on top of another writer's metadata drops nothing.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::partition::{PartitionField, PartitionSpec};
use crate::error::{Error, Result};

/// The `metadata.json` of format version 2.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) struct TableMetadata {
    pub(crate) format_version: i32,
    pub(crate) table_uuid: String,
    pub(crate) location: String,
    pub(crate) last_sequence_number: i64,
    pub(crate) last_updated_ms: i64,
    pub(crate) last_column_id: i32,
    /// Each an Iceberg schema JSON object (`{"type":"struct","schema-id":0,"fields":[..]}`).
    pub(crate) schemas: Vec<serde_json::Value>,
    pub(crate) current_schema_id: i32,
    pub(crate) partition_specs: Vec<PartitionSpec>,
    pub(crate) default_spec_id: i32,
    pub(crate) last_partition_id: i32,
    #[serde(default)]
    pub(crate) properties: BTreeMap<String, String>,
    /// `None` (written as `null`; `-1`, as older writers wrote, reads as `None`) before the
    /// first snapshot.
    #[serde(default, deserialize_with = "snapshot_id_or_none")]
    pub(crate) current_snapshot_id: Option<i64>,
    #[serde(default)]
    pub(crate) snapshots: Vec<Snapshot>,
    #[serde(default)]
    pub(crate) snapshot_log: Vec<SnapshotLogEntry>,
    #[serde(default)]
    pub(crate) metadata_log: Vec<MetadataLogEntry>,
    pub(crate) sort_orders: Vec<serde_json::Value>,
    pub(crate) default_sort_order_id: i32,
    #[serde(default)]
    pub(crate) refs: BTreeMap<String, SnapshotRef>,
    /// Fields this crate does not interpret, written back as read.
    #[serde(flatten)]
    pub(crate) other: BTreeMap<String, serde_json::Value>,
}

/// A snapshot: the table's data files at one commit, through its manifest list.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) struct Snapshot {
    pub(crate) snapshot_id: i64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) parent_snapshot_id: Option<i64>,
    pub(crate) sequence_number: i64,
    pub(crate) timestamp_ms: i64,
    pub(crate) manifest_list: String,
    /// `operation` (`append`, `replace`, `overwrite`, `delete`) and free-form properties.
    pub(crate) summary: BTreeMap<String, String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) schema_id: Option<i32>,
}

impl Snapshot {
    /// The summary's `operation`.
    pub(crate) fn operation(&self) -> &str {
        self.summary.get("operation").map_or("", String::as_str)
    }
}

/// An entry of `snapshot-log`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) struct SnapshotLogEntry {
    pub(crate) snapshot_id: i64,
    pub(crate) timestamp_ms: i64,
}

/// An entry of `metadata-log`: an earlier metadata file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) struct MetadataLogEntry {
    pub(crate) metadata_file: String,
    pub(crate) timestamp_ms: i64,
}

/// A named reference (`main`): a branch or tag pointing at a snapshot.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) struct SnapshotRef {
    pub(crate) snapshot_id: i64,
    #[serde(rename = "type")]
    pub(crate) kind: String,
    /// Retention settings and other fields, kept as read.
    #[serde(flatten)]
    pub(crate) other: BTreeMap<String, serde_json::Value>,
}

fn snapshot_id_or_none<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> std::result::Result<Option<i64>, D::Error> {
    let id = Option::<i64>::deserialize(d)?;
    Ok(id.filter(|&id| id != -1))
}

impl TableMetadata {
    /// The metadata of a new table at `location` with one schema (id 0), one partition spec
    /// (id 0) and no snapshot.
    pub(crate) fn new(
        location: String,
        table_uuid: String,
        schema: serde_json::Value,
        last_column_id: i32,
        fields: Vec<PartitionField>,
        now_ms: i64,
    ) -> TableMetadata {
        let mut schema = schema;
        if let Some(obj) = schema.as_object_mut() {
            obj.insert("schema-id".into(), 0.into());
        }
        let last_partition_id = fields.iter().map(|f| f.field_id).max().unwrap_or(999);
        TableMetadata {
            format_version: 2,
            table_uuid,
            location,
            last_sequence_number: 0,
            last_updated_ms: now_ms,
            last_column_id,
            schemas: vec![schema],
            current_schema_id: 0,
            partition_specs: vec![PartitionSpec { spec_id: 0, fields }],
            default_spec_id: 0,
            last_partition_id,
            properties: BTreeMap::new(),
            current_snapshot_id: None,
            snapshots: Vec::new(),
            snapshot_log: Vec::new(),
            metadata_log: Vec::new(),
            sort_orders: vec![serde_json::json!({"order-id": 0, "fields": []})],
            default_sort_order_id: 0,
            refs: BTreeMap::new(),
            other: BTreeMap::new(),
        }
    }

    /// Parses and checks a metadata file; errors name `file`.
    pub(crate) fn parse(bytes: &[u8], file: &str) -> Result<TableMetadata> {
        let m: TableMetadata = serde_json::from_slice(bytes).map_err(|e| {
            Error::corrupt(format!("{file}: not an Iceberg table metadata file: {e}"))
                .with_source(e)
        })?;
        m.check().map_err(|e| e.context(file))?;
        Ok(m)
    }

    /// The file's bytes (pretty-printed JSON).
    pub(crate) fn to_bytes(&self) -> Vec<u8> {
        // Serializing maps with string keys and plain values cannot fail.
        serde_json::to_vec_pretty(self).unwrap_or_default()
    }

    /// The references between the parts hold: the current schema, spec and snapshot exist,
    /// `main` points at the current snapshot, sequence numbers do not run ahead.
    fn check(&self) -> Result<()> {
        let bad = |what: String| Err(Error::corrupt(what));
        if self.format_version != 2 {
            return bad(format!(
                "format-version {} (this crate reads and writes version 2)",
                self.format_version
            ));
        }
        if self.schema().is_none() {
            return bad(format!(
                "current-schema-id {} names no schema",
                self.current_schema_id
            ));
        }
        if self.spec().is_none() {
            return bad(format!(
                "default-spec-id {} names no partition spec",
                self.default_spec_id
            ));
        }
        for s in &self.snapshots {
            if s.sequence_number > self.last_sequence_number || s.sequence_number < 0 {
                return bad(format!(
                    "snapshot {} has sequence-number {} above last-sequence-number {}",
                    s.snapshot_id, s.sequence_number, self.last_sequence_number
                ));
            }
        }
        if let Some(id) = self.current_snapshot_id {
            if self.snapshot(id).is_none() {
                return bad(format!("current-snapshot-id {id} names no snapshot"));
            }
        }
        if let Some(main) = self.refs.get("main") {
            if Some(main.snapshot_id) != self.current_snapshot_id {
                return bad(format!(
                    "refs.main points at snapshot {}, current-snapshot-id is {:?}",
                    main.snapshot_id, self.current_snapshot_id
                ));
            }
        }
        Ok(())
    }

    /// The current schema (JSON).
    pub(crate) fn schema(&self) -> Option<&serde_json::Value> {
        self.schemas.iter().find(|s| {
            s.get("schema-id").and_then(serde_json::Value::as_i64)
                == Some(i64::from(self.current_schema_id))
        })
    }

    /// The default partition spec.
    pub(crate) fn spec(&self) -> Option<&PartitionSpec> {
        self.partition_specs
            .iter()
            .find(|s| s.spec_id == self.default_spec_id)
    }

    /// The partition spec `id`.
    pub(crate) fn spec_by_id(&self, id: i32) -> Option<&PartitionSpec> {
        self.partition_specs.iter().find(|s| s.spec_id == id)
    }

    /// The snapshot `id`.
    pub(crate) fn snapshot(&self, id: i64) -> Option<&Snapshot> {
        self.snapshots.iter().find(|s| s.snapshot_id == id)
    }

    /// The current snapshot.
    pub(crate) fn current_snapshot(&self) -> Option<&Snapshot> {
        self.current_snapshot_id.and_then(|id| self.snapshot(id))
    }

    /// Adds `snapshot` as the current one (its sequence number the next), moving `main`,
    /// and logs the previous metadata file.
    pub(crate) fn push_snapshot(&mut self, snapshot: Snapshot, previous_file: Option<String>) {
        if let Some(file) = previous_file {
            self.metadata_log.push(MetadataLogEntry {
                metadata_file: file,
                timestamp_ms: self.last_updated_ms,
            });
        }
        self.last_sequence_number = snapshot.sequence_number;
        self.last_updated_ms = snapshot.timestamp_ms.max(self.last_updated_ms);
        self.current_snapshot_id = Some(snapshot.snapshot_id);
        self.snapshot_log.push(SnapshotLogEntry {
            snapshot_id: snapshot.snapshot_id,
            timestamp_ms: snapshot.timestamp_ms,
        });
        let main = self.refs.entry("main".into()).or_insert(SnapshotRef {
            snapshot_id: snapshot.snapshot_id,
            kind: "branch".into(),
            other: BTreeMap::new(),
        });
        main.snapshot_id = snapshot.snapshot_id;
        self.snapshots.push(snapshot);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> TableMetadata {
        let schema = serde_json::json!({"type": "struct", "fields": [
            {"id": 1, "name": "ts", "required": false, "type": "timestamptz"},
            {"id": 2, "name": "k", "required": false, "type": "string"}]});
        let mut m = TableMetadata::new(
            "file:///t".into(),
            "7124ec42-46fc-4321-9dab-5b99a004ecad".into(),
            schema,
            2,
            vec![PartitionField {
                source_id: 2,
                field_id: 1000,
                name: "k".into(),
                transform: crate::iceberg::partition::Transform::Identity,
            }],
            1,
        );
        m.push_snapshot(
            Snapshot {
                snapshot_id: 42,
                parent_snapshot_id: None,
                sequence_number: 1,
                timestamp_ms: 5,
                manifest_list: "file:///t/metadata/snap-42.avro".into(),
                summary: [("operation".to_string(), "append".to_string())].into(),
                schema_id: Some(0),
            },
            None,
        );
        m
    }

    #[test]
    fn round_trips_with_every_required_field() {
        let m = sample();
        let bytes = m.to_bytes();
        let json: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
        for key in [
            "format-version",
            "table-uuid",
            "location",
            "last-sequence-number",
            "last-updated-ms",
            "last-column-id",
            "schemas",
            "current-schema-id",
            "partition-specs",
            "default-spec-id",
            "last-partition-id",
            "properties",
            "current-snapshot-id",
            "snapshots",
            "snapshot-log",
            "metadata-log",
            "sort-orders",
            "default-sort-order-id",
            "refs",
        ] {
            assert!(json.get(key).is_some(), "{key} missing");
        }
        assert_eq!(json["refs"]["main"]["snapshot-id"], 42);
        assert_eq!(json["refs"]["main"]["type"], "branch");
        assert_eq!(json["snapshots"][0]["summary"]["operation"], "append");
        assert_eq!(json["snapshots"][0]["schema-id"], 0);
        let back = TableMetadata::parse(&bytes, "v1.metadata.json").unwrap();
        assert_eq!(back, m);
        assert_eq!(back.current_snapshot().unwrap().operation(), "append");
    }

    #[test]
    fn reads_pyiceberg_metadata_and_keeps_unknown_fields() {
        // Written by pyiceberg 0.12 (SqlCatalog, one append), trimmed.
        let text = r#"{"location":"file:///tmp/wh/ns/t","table-uuid":"7124ec42-46fc-4321-9dab-5b99a004ecad","last-updated-ms":1795871946289,"last-column-id":3,"schemas":[{"type":"struct","fields":[{"id":1,"name":"ts","type":"timestamptz","required":false},{"id":2,"name":"k","type":"string","required":false},{"id":3,"name":"v","type":"long","required":false}],"schema-id":0,"identifier-field-ids":[]}],"current-schema-id":0,"partition-specs":[{"spec-id":0,"fields":[{"source-id":2,"field-id":1000,"transform":"identity","name":"k"}]}],"default-spec-id":0,"last-partition-id":1000,"properties":{},"current-snapshot-id":4155822272484882959,"snapshots":[{"snapshot-id":4155822272484882959,"sequence-number":1,"timestamp-ms":1795871946289,"manifest-list":"file:///tmp/wh/ns/t/metadata/snap-4155822272484882959-0-ec7af7a8.avro","summary":{"operation":"append","added-data-files":"1"},"schema-id":0}],"snapshot-log":[{"snapshot-id":4155822272484882959,"timestamp-ms":1795871946289}],"metadata-log":[{"metadata-file":"file:///tmp/wh/ns/t/metadata/00000-1c6b.metadata.json","timestamp-ms":1795871946182}],"sort-orders":[{"order-id":0,"fields":[]}],"default-sort-order-id":0,"refs":{"main":{"snapshot-id":4155822272484882959,"type":"branch"}},"statistics":[],"partition-statistics":[],"format-version":2,"last-sequence-number":1}"#;
        let m = TableMetadata::parse(text.as_bytes(), "00001.metadata.json").unwrap();
        assert_eq!(m.current_snapshot_id, Some(4155822272484882959));
        assert_eq!(
            m.spec().unwrap().fields[0].transform,
            crate::iceberg::partition::Transform::Identity
        );
        assert!(m.other.contains_key("partition-statistics"));
        let again = TableMetadata::parse(&m.to_bytes(), "x").unwrap();
        assert_eq!(again, m);
        let minus_one = text.replace(
            "\"current-snapshot-id\":4155822272484882959",
            "\"current-snapshot-id\":-1",
        );
        let err = TableMetadata::parse(minus_one.as_bytes(), "m.json").unwrap_err();
        assert!(err.to_string().contains("refs.main"), "{err}");
    }

    #[test]
    fn corrupt_metadata_is_an_error_naming_the_file() {
        let bytes = sample().to_bytes();
        let mut cases: Vec<Vec<u8>> = (0..bytes.len())
            .step_by(3)
            .map(|n| bytes[..n].to_vec())
            .collect();
        for i in (0..bytes.len()).step_by(5) {
            let mut c = bytes.clone();
            c[i] ^= 0x21;
            cases.push(c);
        }
        let text = String::from_utf8(bytes.clone()).unwrap();
        cases.push(
            text.replace("\"format-version\": 2", "\"format-version\": 3")
                .into(),
        );
        cases.push(
            text.replace("\"current-schema-id\": 0", "\"current-schema-id\": 7")
                .into(),
        );
        cases.push(
            text.replace("\"sequence-number\": 1", "\"sequence-number\": 9")
                .into(),
        );
        for case in cases {
            if let Err(e) = TableMetadata::parse(&case, "metadata/v3.metadata.json") {
                assert!(e.to_string().contains("metadata/v3.metadata.json"), "{e}");
            }
        }
        for text in [
            text.replace("\"format-version\": 2", "\"format-version\": 3"),
            text.replace("\"current-schema-id\": 0", "\"current-schema-id\": 7"),
            text.replace("\"sequence-number\": 1", "\"sequence-number\": 9"),
        ] {
            assert!(
                TableMetadata::parse(text.as_bytes(), "m").is_err(),
                "{text}"
            );
        }
    }
}
