//! A Delta table read as a dataset: the files of one snapshot of its log (not of a folder
//! walk), with the partition values the log states, typed by the table schema, and each
//! file's statistics for pruning before any file is opened.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use crate::delta::action::Add;
use crate::delta::log_store::{LocalLogStore, LogFile, LogStore, LOG_DIR};
use crate::delta::protocol::check_readable;
use crate::delta::schema::{top_level_fields, FieldType};
use crate::delta::snapshot::Snapshot;
use crate::delta::stats::FileStats;
use crate::error::{Error, Result};
use crate::filter::Predicate;

use super::list::{sort_files, DataFile};
use super::partition::{parse_date, parse_int, unescape, PartitionValue};

/// What a dataset keeps of the table it was opened from.
#[derive(Debug, Clone)]
pub(crate) struct DeltaTable {
    pub root: PathBuf,
    /// The snapshot's version.
    pub version: u64,
    /// The top-level columns' types.
    pub types: BTreeMap<String, FieldType>,
    /// Each file's statistics, by its path (files without statistics are absent).
    pub stats: HashMap<PathBuf, FileStats>,
    /// Each file's path as its `add` in the log states it, by its local path (what a
    /// compaction removes).
    pub paths: HashMap<PathBuf, String>,
}

/// Whether `dir` is the root of a Delta table: a `_delta_log/` folder holding a commit or
/// a checkpoint.
pub(crate) fn is_delta_root(dir: &Path) -> bool {
    if !dir.join(LOG_DIR).is_dir() {
        return false;
    }
    LocalLogStore::new(dir)
        .list(LOG_DIR)
        .map(|names| {
            names.iter().any(|n| {
                matches!(
                    LogFile::classify(n),
                    LogFile::Commit { .. } | LogFile::Checkpoint { .. }
                )
            })
        })
        .unwrap_or(false)
}

/// The files of the table at `root` at `version` (the latest when `None`), in the order
/// of their partition values then paths, and what pruning needs. Fails when the log is
/// corrupt, when the table needs a reader feature this crate lacks, and when a file the
/// log lists is missing or not of the size the log states (each error names the file).
pub(crate) fn open(root: &Path, version: Option<u64>) -> Result<(Vec<DataFile>, DeltaTable)> {
    let store = LocalLogStore::new(root);
    let snapshot = Snapshot::load(&store, version)?;
    let table = store.describe();
    check_readable(&snapshot.protocol, &snapshot.metadata, &table)?;
    let types: BTreeMap<String, FieldType> =
        top_level_fields(&snapshot.metadata.schema_string, &table)?
            .into_iter()
            .collect();
    let partition_columns = &snapshot.metadata.partition_columns;
    for c in partition_columns {
        if !types.contains_key(c) {
            return Err(Error::corrupt(format!(
                "{table}: partition column {c:?} is not in the table schema"
            )));
        }
    }
    let mut files = Vec::with_capacity(snapshot.files.len());
    let mut stats = HashMap::new();
    let mut paths = HashMap::new();
    for add in snapshot.files.values() {
        let what = format!("{table}: add `{}`", add.path);
        if add.deletion_vector.as_ref().is_some_and(|dv| !dv.is_null()) {
            // Rows of the file are deleted: reading it whole would bring them back.
            return Err(Error::unsupported(format!(
                "{what}: the file has a deletion vector (the reader feature \
                 `deletionVectors`), which parquet-serde cannot read"
            )));
        }
        let path = data_path(root, &add.path).map_err(|e| e.context(&what))?;
        check_size(&path, add).map_err(|e| e.context(&what))?;
        let mut partitions = Vec::with_capacity(partition_columns.len());
        for c in partition_columns {
            let raw = match add.partition_values.get(c) {
                Some(v) => v.as_deref(),
                None => {
                    return Err(Error::corrupt(format!(
                        "{what}: no value for partition column {c:?}"
                    )))
                }
            };
            let value = partition_value(raw, &types[c])
                .map_err(|e| e.context(format_args!("{what}: partition column {c:?}")))?;
            partitions.push((c.clone(), value));
        }
        if let Some(text) = &add.stats {
            stats.insert(path.clone(), FileStats::parse(text, &what)?);
        }
        paths.insert(path.clone(), add.path.clone());
        files.push(DataFile::new(path, partitions));
    }
    sort_files(&mut files);
    let info = DeltaTable {
        root: root.to_path_buf(),
        version: snapshot.version,
        types,
        stats,
        paths,
    };
    Ok((files, info))
}

impl DeltaTable {
    /// Whether `file`'s statistics leave some row that may satisfy `rest` (what is left of
    /// the predicate once its partition tests are decided).
    pub(crate) fn may_match(&self, file: &DataFile, rest: &Predicate) -> bool {
        match self.stats.get(file.path()) {
            Some(s) => super::delta_stats::may_match(rest, s, &self.types),
            None => true,
        }
    }
}

/// The local path of an `add`'s path: relative to the root and URL-encoded, or a
/// `file:` URI. Other URIs, absolute paths and `..` are refused (a log names only files of
/// its own table here).
fn data_path(root: &Path, encoded: &str) -> Result<PathBuf> {
    if let Some(rest) = encoded.strip_prefix("file://") {
        let decoded = unescape(rest).ok_or_else(|| bad_path("does not decode to UTF-8"))?;
        return Ok(PathBuf::from(decoded));
    }
    if encoded.contains("://") || encoded.starts_with("file:") {
        return Err(Error::unsupported(
            "the data file is not in a local folder (a URI other than file:)",
        ));
    }
    let decoded = unescape(encoded).ok_or_else(|| bad_path("does not decode to UTF-8"))?;
    let relative = Path::new(&decoded);
    if relative.is_absolute() || decoded.starts_with('/') {
        return Err(bad_path(
            "is absolute (a path relative to the table root expected)",
        ));
    }
    if relative.components().any(|c| {
        !matches!(
            c,
            std::path::Component::Normal(_) | std::path::Component::CurDir
        )
    }) {
        return Err(bad_path("leaves the table root"));
    }
    Ok(root.join(relative))
}

fn bad_path(why: &str) -> Error {
    Error::corrupt(format!("the path {why}"))
}

/// The file exists and has the size the log states.
fn check_size(path: &Path, add: &Add) -> Result<()> {
    let meta = std::fs::metadata(path).map_err(|e| {
        Error::from(e).context(format_args!(
            "data file {} listed in the log",
            path.display()
        ))
    })?;
    if meta.len() != add.size as u64 {
        return Err(Error::corrupt(format!(
            "data file {} is {} bytes; the log states {}",
            path.display(),
            meta.len(),
            add.size
        )));
    }
    Ok(())
}

/// A partition value as the log writes it (text, or null), typed by the column's type:
/// dates and integers parsed (an error when they do not parse), every other type kept as
/// its text.
fn partition_value(raw: Option<&str>, ty: &FieldType) -> Result<PartitionValue> {
    let Some(raw) = raw else {
        return Ok(PartitionValue::Null);
    };
    let parsed = if ty.is("date") {
        parse_date(raw).map(PartitionValue::Date)
    } else if ty.is_integer() {
        parse_int(raw).map(PartitionValue::Int)
    } else {
        Some(PartitionValue::String(raw.to_string()))
    };
    parsed.ok_or_else(|| Error::corrupt(format!("{raw:?} is not a value of type {ty:?}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn data_paths_are_decoded_and_kept_inside_the_root() {
        let root = Path::new("/t");
        assert_eq!(
            data_path(root, "a%3Db/x%20y.parquet").unwrap(),
            Path::new("/t/a=b/x y.parquet")
        );
        assert_eq!(
            data_path(root, "file:///data/x.parquet").unwrap(),
            Path::new("/data/x.parquet")
        );
        for bad in [
            "../x.parquet",
            "/etc/x",
            "%2Fetc/x",
            "a/../../x",
            "s3://b/x",
            "k=%FF/x",
        ] {
            assert!(data_path(root, bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn partition_values_are_typed_by_the_schema() {
        let t = |s: &str| FieldType::Primitive(s.into());
        assert_eq!(
            partition_value(Some("2026-11-02"), &t("date")).unwrap(),
            PartitionValue::Date(20_759)
        );
        assert_eq!(
            partition_value(Some("07"), &t("integer")).unwrap(),
            PartitionValue::Int(7)
        );
        assert_eq!(
            partition_value(Some("07"), &t("string")).unwrap(),
            PartitionValue::String("07".into())
        );
        assert_eq!(
            partition_value(None, &t("long")).unwrap(),
            PartitionValue::Null
        );
        let e = partition_value(Some("x"), &t("long")).unwrap_err();
        assert!(e.message().contains("\"x\" is not a value"), "{e}");
    }
}
