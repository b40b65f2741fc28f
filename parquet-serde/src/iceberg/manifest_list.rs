//! Manifest lists: the Avro file a snapshot points at, one `manifest_file` record per
//! manifest of the snapshot (the Iceberg spec, "Manifest Lists", format v2), with the spec's
//! field ids and the file metadata keys `snapshot-id`, `parent-snapshot-id`,
//! `sequence-number`, `format-version`.

use apache_avro::types::Value;
use apache_avro::Schema;

use super::manifest::{read_container, write_container, Fields, ManifestCounts};
use crate::error::{Error, Result};

/// One manifest of a snapshot.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ManifestFile {
    /// The full URI of the manifest.
    pub(crate) manifest_path: String,
    pub(crate) manifest_length: i64,
    pub(crate) partition_spec_id: i32,
    /// 0: data, 1: deletes.
    pub(crate) content: i32,
    pub(crate) sequence_number: i64,
    pub(crate) min_sequence_number: i64,
    pub(crate) added_snapshot_id: i64,
    pub(crate) counts: ManifestCounts,
    /// One summary per partition field; `None` when the writer kept none.
    pub(crate) partitions: Option<Vec<FieldSummary>>,
}

/// The values of one partition field across a manifest's files.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct FieldSummary {
    pub(crate) contains_null: bool,
    pub(crate) contains_nan: Option<bool>,
    /// Single-value serialization.
    pub(crate) lower_bound: Option<Vec<u8>>,
    pub(crate) upper_bound: Option<Vec<u8>>,
}

const SCHEMA: &str = r#"{"type": "record", "name": "manifest_file", "fields": [
  {"name": "manifest_path", "field-id": 500, "type": "string"},
  {"name": "manifest_length", "field-id": 501, "type": "long"},
  {"name": "partition_spec_id", "field-id": 502, "type": "int"},
  {"name": "content", "field-id": 517, "type": "int"},
  {"name": "sequence_number", "field-id": 515, "type": "long"},
  {"name": "min_sequence_number", "field-id": 516, "type": "long"},
  {"name": "added_snapshot_id", "field-id": 503, "type": "long"},
  {"name": "added_files_count", "field-id": 504, "type": "int"},
  {"name": "existing_files_count", "field-id": 505, "type": "int"},
  {"name": "deleted_files_count", "field-id": 506, "type": "int"},
  {"name": "added_rows_count", "field-id": 512, "type": "long"},
  {"name": "existing_rows_count", "field-id": 513, "type": "long"},
  {"name": "deleted_rows_count", "field-id": 514, "type": "long"},
  {"name": "partitions", "field-id": 507, "default": null, "type": ["null", {"type": "array", "element-id": 508, "items": {"type": "record", "name": "r508", "fields": [
    {"name": "contains_null", "field-id": 509, "type": "boolean"},
    {"name": "contains_nan", "field-id": 518, "default": null, "type": ["null", "boolean"]},
    {"name": "lower_bound", "field-id": 510, "default": null, "type": ["null", "bytes"]},
    {"name": "upper_bound", "field-id": 511, "default": null, "type": ["null", "bytes"]}
  ]}}]},
  {"name": "key_metadata", "field-id": 519, "default": null, "type": ["null", "bytes"]}
]}"#;

fn opt<T>(v: Option<T>, wrap: impl Fn(T) -> Value) -> Value {
    match v {
        None => Value::Union(0, Box::new(Value::Null)),
        Some(v) => Value::Union(1, Box::new(wrap(v))),
    }
}

fn value(m: &ManifestFile) -> Value {
    let c = &m.counts;
    let partitions = opt(m.partitions.as_ref(), |p| {
        Value::Array(
            p.iter()
                .map(|s| {
                    Value::Record(vec![
                        ("contains_null".into(), Value::Boolean(s.contains_null)),
                        ("contains_nan".into(), opt(s.contains_nan, Value::Boolean)),
                        (
                            "lower_bound".into(),
                            opt(s.lower_bound.clone(), Value::Bytes),
                        ),
                        (
                            "upper_bound".into(),
                            opt(s.upper_bound.clone(), Value::Bytes),
                        ),
                    ])
                })
                .collect(),
        )
    });
    Value::Record(vec![
        (
            "manifest_path".into(),
            Value::String(m.manifest_path.clone()),
        ),
        ("manifest_length".into(), Value::Long(m.manifest_length)),
        ("partition_spec_id".into(), Value::Int(m.partition_spec_id)),
        ("content".into(), Value::Int(m.content)),
        ("sequence_number".into(), Value::Long(m.sequence_number)),
        (
            "min_sequence_number".into(),
            Value::Long(m.min_sequence_number),
        ),
        ("added_snapshot_id".into(), Value::Long(m.added_snapshot_id)),
        ("added_files_count".into(), Value::Int(c.added_files)),
        ("existing_files_count".into(), Value::Int(c.existing_files)),
        ("deleted_files_count".into(), Value::Int(c.deleted_files)),
        ("added_rows_count".into(), Value::Long(c.added_rows)),
        ("existing_rows_count".into(), Value::Long(c.existing_rows)),
        ("deleted_rows_count".into(), Value::Long(c.deleted_rows)),
        ("partitions".into(), partitions),
        (
            "key_metadata".into(),
            Value::Union(0, Box::new(Value::Null)),
        ),
    ])
}

/// The bytes of the manifest list of snapshot `snapshot_id`.
pub(crate) fn write_manifest_list(
    manifests: &[ManifestFile],
    snapshot_id: i64,
    parent_snapshot_id: Option<i64>,
    sequence_number: i64,
) -> Result<Vec<u8>> {
    let schema = Schema::parse_str(SCHEMA)
        .map_err(|e| Error::internal(format!("the manifest_file Avro schema: {e}")))?;
    let meta = [
        ("snapshot-id", snapshot_id.to_string()),
        (
            "parent-snapshot-id",
            parent_snapshot_id.map_or("null".into(), |p| p.to_string()),
        ),
        ("sequence-number", sequence_number.to_string()),
        ("format-version", "2".to_string()),
    ];
    let values = manifests.iter().map(value).collect();
    write_container(SCHEMA, &schema, &meta, values, "a manifest list")
}

/// Reads a manifest list; every error names `file`.
pub(crate) fn read_manifest_list(bytes: &[u8], file: &str) -> Result<Vec<ManifestFile>> {
    let (values, _) = read_container(bytes, file)?;
    let mut out = Vec::with_capacity(values.len());
    for (i, v) in values.iter().enumerate() {
        out.push(
            from_value(v)
                .map_err(|what| Error::corrupt(format!("{file}: manifest {i}: {what}")))?,
        );
    }
    Ok(out)
}

fn count32(f: &Fields<'_>, name: &str) -> std::result::Result<i32, String> {
    let v = f.count(name)?;
    i32::try_from(v).map_err(|_| format!("{name} {v} is out of range"))
}

fn from_value(v: &Value) -> std::result::Result<ManifestFile, String> {
    let f = Fields::of(v, "the manifest_file")?;
    let partitions = match f.get("partitions") {
        None => None,
        Some(Value::Array(items)) => Some(
            items
                .iter()
                .map(|s| {
                    let s = Fields::of(s, "a partition summary")?;
                    Ok(FieldSummary {
                        contains_null: s.boolean("contains_null")?.unwrap_or(true),
                        contains_nan: s.boolean("contains_nan")?,
                        lower_bound: s.bytes("lower_bound")?.map(<[u8]>::to_vec),
                        upper_bound: s.bytes("upper_bound")?.map(<[u8]>::to_vec),
                    })
                })
                .collect::<std::result::Result<_, String>>()?,
        ),
        Some(_) => return Err("partitions is not an array".into()),
    };
    let content = f.int("content")?.unwrap_or(0);
    if !(0..=1).contains(&content) {
        return Err(format!("content {content} is not 0 (data) or 1 (deletes)"));
    }
    let sequence_number = f.count("sequence_number")?;
    let min_sequence_number = f.count("min_sequence_number")?;
    if min_sequence_number > sequence_number {
        return Err(format!(
            "min_sequence_number {min_sequence_number} is above sequence_number {sequence_number}"
        ));
    }
    Ok(ManifestFile {
        manifest_path: f.string("manifest_path")?.to_string(),
        manifest_length: f.count("manifest_length")?,
        partition_spec_id: f.int("partition_spec_id")?.unwrap_or(0),
        content,
        sequence_number,
        min_sequence_number,
        added_snapshot_id: f
            .long("added_snapshot_id")?
            .ok_or("added_snapshot_id is missing")?,
        counts: ManifestCounts {
            added_files: count32(&f, "added_files_count")?,
            existing_files: count32(&f, "existing_files_count")?,
            deleted_files: count32(&f, "deleted_files_count")?,
            added_rows: f.count("added_rows_count")?,
            existing_rows: f.count("existing_rows_count")?,
            deleted_rows: f.count("deleted_rows_count")?,
        },
        partitions,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Vec<ManifestFile> {
        vec![
            ManifestFile {
                manifest_path: "file:///t/metadata/m-1.avro".into(),
                manifest_length: 4096,
                partition_spec_id: 0,
                content: 0,
                sequence_number: 3,
                min_sequence_number: 2,
                added_snapshot_id: 99,
                counts: ManifestCounts {
                    added_files: 2,
                    existing_files: 1,
                    deleted_files: 0,
                    added_rows: 20,
                    existing_rows: 10,
                    deleted_rows: 0,
                },
                partitions: Some(vec![FieldSummary {
                    contains_null: false,
                    contains_nan: None,
                    lower_bound: Some(b"a".to_vec()),
                    upper_bound: Some(b"z".to_vec()),
                }]),
            },
            ManifestFile {
                manifest_path: "file:///t/metadata/m-2.avro".into(),
                manifest_length: 1,
                partition_spec_id: 0,
                content: 0,
                sequence_number: 1,
                min_sequence_number: 1,
                added_snapshot_id: 98,
                counts: ManifestCounts::default(),
                partitions: None,
            },
        ]
    }

    #[test]
    fn round_trips_with_field_ids_and_metadata() {
        let bytes = write_manifest_list(&sample(), 99, Some(98), 3).unwrap();
        assert_eq!(read_manifest_list(&bytes, "snap.avro").unwrap(), sample());
        let reader = apache_avro::Reader::new(&bytes[..]).unwrap();
        let meta = reader.user_metadata();
        assert_eq!(meta["snapshot-id"], b"99");
        assert_eq!(meta["parent-snapshot-id"], b"98");
        assert_eq!(meta["sequence-number"], b"3");
        assert_eq!(meta["format-version"], b"2");
        let header = super::super::manifest::tests::meta_schema(&bytes);
        let header: serde_json::Value = serde_json::from_slice(&header).unwrap();
        let header = header.to_string();
        for needle in [
            r#""field-id":500"#,
            r#""element-id":508"#,
            r#""field-id":519"#,
        ] {
            assert!(header.contains(needle), "{needle} not in {header}");
        }
    }

    #[test]
    fn corrupt_manifest_lists_are_errors_naming_the_file() {
        let bytes = write_manifest_list(&sample(), 99, None, 3).unwrap();
        let mut cases: Vec<Vec<u8>> = (0..bytes.len()).map(|n| bytes[..n].to_vec()).collect();
        for i in 0..bytes.len() {
            for x in [0x01, 0x80, 0xff] {
                let mut c = bytes.clone();
                c[i] ^= x;
                cases.push(c);
            }
        }
        for case in cases {
            if let Err(e) = read_manifest_list(&case, "metadata/snap-9.avro") {
                assert!(e.to_string().contains("metadata/snap-9.avro"), "{e}");
            }
        }
    }
}
