//! Building one commit: the `add` of a data file from its footer, the first commit's
//! `protocol` and `metaData`, the `txn` and `commitInfo` that go with every commit.

use std::collections::BTreeMap;
use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};

use serde_json::json;

use super::action::{Action, Add, Format, Metadata, PartitionValues, Protocol, Txn};
use super::schema_from_parquet::{schema_string, Needs, PartitionType};
use super::stats_from_footer::stats_json;
use crate::core::file::ParquetMetaData;
use crate::error::{Error, Result};

/// A data file ready to be added: its `add` action and the schema it would give the table.
#[derive(Debug, Clone)]
pub(crate) struct PendingAdd {
    pub add: Add,
    /// The file's own schema (no partition columns) as a Delta schema string, with the
    /// partition columns typed by this file's values alone.
    pub schema: String,
    pub needs: Needs,
    pub partitions: Vec<(String, PartitionType)>,
}

/// Milliseconds since the epoch now.
pub(crate) fn now_millis() -> i64 {
    millis_of(SystemTime::now())
}

fn millis_of(t: SystemTime) -> i64 {
    t.duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

impl PendingAdd {
    /// The `add` of the file at `relative` (a `/`-separated path below the table root whose
    /// folders are `key=value` partitions), read from the local copy `local`.
    pub(crate) fn from_file(relative: &str, local: &Path) -> Result<PendingAdd> {
        let file = std::fs::File::open(local)
            .map_err(|e| Error::from(e).context(format!("opening {}", local.display())))?;
        PendingAdd::from_open(relative, &file, local)
    }

    /// [`from_file`](Self::from_file) of a file already open (its name may be gone).
    pub(crate) fn from_open(
        relative: &str,
        file: &std::fs::File,
        local: &Path,
    ) -> Result<PendingAdd> {
        let meta = file
            .metadata()
            .map_err(|e| Error::from(e).context(format!("reading {}", local.display())))?;
        let md = ParquetMetaData::parse(file)
            .map_err(|e| e.context(format!("reading the footer of {}", local.display())))?;
        let partition_values = partition_values(relative)?;
        let partitions: Vec<(String, PartitionType)> = partition_values
            .iter()
            .map(|(k, v)| (k.clone(), PartitionType::of(std::iter::once(v.as_deref()))))
            .collect();
        let (schema, needs) = schema_string(md.schema().root(), &[])
            .map_err(|e| e.context(format!("the Delta schema of {}", local.display())))?;
        let size = i64::try_from(meta.len()).unwrap_or(i64::MAX);
        let modification_time = meta.modified().map_or_else(|_| now_millis(), millis_of);
        Ok(PendingAdd {
            add: Add {
                path: encode_path(relative),
                partition_values,
                size,
                modification_time,
                data_change: true,
                stats: Some(stats_json(&md)),
                tags: None,
                deletion_vector: None,
            },
            schema,
            needs,
            partitions,
        })
    }
}

/// The partition values of `key=value` folders of a relative path (`%xx` decoded; Hive's
/// `__HIVE_DEFAULT_PARTITION__` is null).
pub(crate) fn partition_values(relative: &str) -> Result<PartitionValues> {
    let mut out = BTreeMap::new();
    let mut folders: Vec<&str> = relative.split('/').collect();
    folders.pop(); // the file name
    for folder in folders {
        let Some((key, value)) = folder.split_once('=') else {
            continue;
        };
        let (Some(key), Some(value)) = (unescape(key), unescape(value)) else {
            return Err(Error::invalid_argument(format!(
                "{relative}: partition folder `{folder}` is not valid %-escaped UTF-8"
            )));
        };
        let value = (value != "__HIVE_DEFAULT_PARTITION__").then_some(value);
        if out.insert(key.clone(), value).is_some() {
            return Err(Error::invalid_argument(format!(
                "{relative}: partition `{key}` appears twice"
            )));
        }
    }
    Ok(out)
}

fn unescape(s: &str) -> Option<String> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let hex = |c: Option<&u8>| c.and_then(|&c| (c as char).to_digit(16));
        match (b[i], hex(b.get(i + 1)), hex(b.get(i + 2))) {
            (b'%', Some(h), Some(l)) => {
                out.push((h * 16 + l) as u8);
                i += 3;
            }
            (c, _, _) => {
                out.push(c);
                i += 1;
            }
        }
    }
    String::from_utf8(out).ok()
}

/// A relative path as the log writes it: an RFC 2396 URI path (bytes other than
/// unreserved characters, `/` and `=` `%`-escaped).
pub(crate) fn encode_path(relative: &str) -> String {
    let mut out = String::with_capacity(relative.len());
    for &b in relative.as_bytes() {
        if b.is_ascii_alphanumeric() || b"-_.~/=".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// The path of an `add` back as a relative path (the inverse of [`encode_path`]).
pub(crate) fn decode_path(path: &str) -> Result<String> {
    unescape(path).ok_or_else(|| {
        Error::corrupt(format!(
            "data file path `{path}` is not valid %-escaped UTF-8"
        ))
    })
}

/// The lowest protocol the data needs.
pub(crate) fn protocol_for(needs: Needs) -> Protocol {
    let features: Vec<String> = [
        (needs.timestamp_ntz, "timestampNtz"),
        (needs.variant, "variantType"),
    ]
    .into_iter()
    .filter(|(needed, _)| *needed)
    .map(|(_, name)| name.to_string())
    .collect();
    if !features.is_empty() {
        Protocol {
            min_reader_version: 3,
            min_writer_version: 7,
            reader_features: Some(features.clone()),
            writer_features: Some(features),
        }
    } else {
        Protocol {
            min_reader_version: 1,
            min_writer_version: 2,
            reader_features: None,
            writer_features: None,
        }
    }
}

/// The first commit's `metaData`, from the first file's schema and the partition types of
/// all the files of the commit.
pub(crate) fn metadata_for(first: &PendingAdd, all: &[PendingAdd]) -> Result<Metadata> {
    let partitions: Vec<(String, PartitionType)> = first
        .partitions
        .iter()
        .map(|(name, _)| {
            let values = all
                .iter()
                .map(|p| p.add.partition_values.get(name).and_then(|v| v.as_deref()));
            (name.clone(), PartitionType::of(values))
        })
        .collect();
    let file_schema: serde_json::Value = serde_json::from_str(&first.schema)
        .map_err(|e| Error::internal(format!("schema string: {e}")))?;
    let mut fields = file_schema["fields"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    for f in &fields {
        if partitions
            .iter()
            .any(|(p, _)| Some(p.as_str()) == f["name"].as_str())
        {
            return Err(Error::schema(format!(
                "{}: column `{}` is both in the file and a partition folder",
                first.add.path, f["name"]
            )));
        }
    }
    for (name, ty) in &partitions {
        let ty = match ty {
            PartitionType::Date => "date",
            PartitionType::Integer => "integer",
            PartitionType::String => "string",
        };
        fields.push(json!({"name": name, "type": ty, "nullable": true, "metadata": {}}));
    }
    Ok(Metadata {
        id: random_id(),
        name: None,
        description: None,
        format: Format::default(),
        schema_string: json!({"type": "struct", "fields": fields}).to_string(),
        partition_columns: partitions.into_iter().map(|(n, _)| n).collect(),
        configuration: BTreeMap::new(),
        created_time: Some(now_millis()),
    })
}

/// The file schema part of a table's schema string (the partition columns left out), to
/// compare with a new file's.
pub(crate) fn file_part_of(metadata: &Metadata) -> Result<String> {
    let mut schema: serde_json::Value = serde_json::from_str(&metadata.schema_string)
        .map_err(|e| Error::corrupt(format!("the table's schemaString is not JSON: {e}")))?;
    if let Some(fields) = schema.get_mut("fields").and_then(|f| f.as_array_mut()) {
        fields.retain(|f| {
            !metadata
                .partition_columns
                .iter()
                .any(|p| Some(p.as_str()) == f["name"].as_str())
        });
    }
    Ok(schema.to_string())
}

/// A random UUID (version 4 form) for the table id.
pub(crate) fn random_id() -> String {
    use std::hash::{BuildHasher, Hasher};
    let mut words = [0u64; 2];
    for (i, w) in words.iter_mut().enumerate() {
        let mut h = std::collections::hash_map::RandomState::new().build_hasher();
        h.write_u128(
            SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos()),
        );
        h.write_usize(i);
        h.write_u32(std::process::id());
        *w = h.finish();
    }
    let b = (u128::from(words[0]) << 64 | u128::from(words[1])) & !(0xF000u128 << 64)
        | (0x4000u128 << 64);
    let b = b & !(0xC000u128 << 48) | (0x8000u128 << 48);
    let hex = format!("{b:032x}");
    format!(
        "{}-{}-{}-{}-{}",
        &hex[0..8],
        &hex[8..12],
        &hex[12..16],
        &hex[16..20],
        &hex[20..32]
    )
}

/// The `txn` of a commit.
pub(crate) fn txn(app_id: &str, version: i64) -> Action {
    Action::Txn(Txn {
        app_id: app_id.to_string(),
        version,
        last_updated: Some(now_millis()),
    })
}

/// The `commitInfo` of a commit.
pub(crate) fn commit_info(operation: &str, adds: usize, removes: usize) -> Action {
    let mut map = serde_json::Map::new();
    map.insert("timestamp".into(), json!(now_millis()));
    map.insert("operation".into(), json!(operation));
    map.insert(
        "operationParameters".into(),
        json!({"mode": "Append", "addedFiles": adds.to_string(), "removedFiles": removes.to_string()}),
    );
    map.insert("isBlindAppend".into(), json!(removes == 0));
    map.insert(
        "engineInfo".into(),
        json!(format!("parquet-serde/{}", env!("CARGO_PKG_VERSION"))),
    );
    Action::CommitInfo(map)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_and_partitions() {
        let pv = partition_values("date=2026-11-24/hour=07/part-1.parquet").unwrap();
        assert_eq!(pv["date"].as_deref(), Some("2026-11-24"));
        assert_eq!(pv["hour"].as_deref(), Some("07"));
        let pv = partition_values("k=a%2Fb/x=__HIVE_DEFAULT_PARTITION__/f.parquet").unwrap();
        assert_eq!(pv["k"].as_deref(), Some("a/b"));
        assert_eq!(pv["x"], None);
        assert!(partition_values("k=1/k=2/f.parquet").is_err());
        assert_eq!(encode_path("k=a b/f%.parquet"), "k=a%20b/f%25.parquet");
        assert_eq!(
            decode_path("k=a%20b/f%25.parquet").unwrap(),
            "k=a b/f%.parquet"
        );
        let id = random_id();
        assert_eq!(id.len(), 36);
        assert_eq!(&id[14..15], "4");
        assert_ne!(id, random_id());
    }
}
