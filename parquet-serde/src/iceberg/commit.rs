//! Building one commit: a data file's manifest entry from its footer (metrics and partition
//! tuple by field id), the first commit's schema and partition spec, the table's state at
//! its newest version (the current snapshot's manifests and every data file any snapshot
//! held), and the manifest, manifest list and metadata of the next snapshot.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::Path;
use std::sync::{Arc, Mutex};

use super::catalog::{unique_id, Catalog};
use super::literal::Literal;
use super::manifest::{
    counts, read_manifest, write_manifest, DataFile, EntryStatus, Manifest, ManifestEntry,
};
use super::manifest_list::{read_manifest_list, write_manifest_list, FieldSummary, ManifestFile};
use super::metadata::{Snapshot, TableMetadata};
use super::metrics::data_file_metrics;
use super::partition::{PartitionSpec, Transform, FIRST_PARTITION_FIELD_ID};
use super::schema::{iceberg_schema, IcebergSchema, IcebergType, NestedField, PrimitiveType};
use crate::core::file::ParquetMetaData;
use crate::error::{Error, Result};

/// The summary keys of this crate's exactly-once scheme.
pub(crate) const APP_ID_KEY: &str = "parquet-serde.app-id";
pub(crate) const APP_VERSION_KEY: &str = "parquet-serde.app-version";

/// How a new table is partitioned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum PartitionChoice {
    /// Identity on each `key=value` folder of the first file's path (none: unpartitioned).
    HiveKeys,
    /// `day` of a top-level date or timestamp column.
    Day(String),
    /// `hour` of a top-level timestamp column.
    Hour(String),
}

/// A data file to add: its path below the root and its footer.
#[derive(Debug, Clone)]
pub(crate) struct PendingFile {
    pub(crate) relative: String,
    pub(crate) md: ParquetMetaData,
    pub(crate) size: u64,
}

impl PendingFile {
    /// The file at `relative` (below the root), read from the local copy `local`.
    pub(crate) fn from_file(relative: &str, local: &Path) -> Result<PendingFile> {
        let file = std::fs::File::open(local)
            .map_err(|e| Error::from(e).context(format!("opening {}", local.display())))?;
        PendingFile::from_open(relative, &file, local)
    }

    /// [`from_file`](Self::from_file) of a file already open (its name may be gone).
    pub(crate) fn from_open(
        relative: &str,
        file: &std::fs::File,
        local: &Path,
    ) -> Result<PendingFile> {
        let size = file
            .metadata()
            .map_err(|e| Error::from(e).context(format!("reading {}", local.display())))?
            .len();
        let md = ParquetMetaData::parse(file)
            .map_err(|e| e.context(format!("reading the footer of {}", local.display())))?;
        Ok(PendingFile {
            relative: relative.to_string(),
            md,
            size,
        })
    }

    /// The file's Iceberg schema: an error naming it when a column has no field id.
    pub(crate) fn schema(&self) -> Result<IcebergSchema> {
        iceberg_schema(self.md.schema(), 0).map_err(|e| {
            let hint = if e.to_string().contains("no field id") {
                " (Iceberg matches columns by field id: write files for an Iceberg table \
                 with LogWriterBuilder::iceberg, or give every field an id)"
            } else {
                ""
            };
            e.context(format!("data file `{}`{hint}", self.relative))
        })
    }
}

/// The `key=value` folders of a relative path, `%xx` decoded, in order.
fn hive_keys(relative: &str) -> Vec<(String, Option<String>)> {
    let mut folders: Vec<&str> = relative.split('/').collect();
    folders.pop();
    folders
        .into_iter()
        .filter_map(|f| {
            let (k, v) = f.split_once('=')?;
            let v = (v != "__HIVE_DEFAULT_PARTITION__").then(|| unescape(v));
            Some((unescape(k), v))
        })
        .collect()
}

fn unescape(s: &str) -> String {
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
    String::from_utf8_lossy(&out).into_owned()
}

/// The type of a Hive key column, by its first value: `date` for `YYYY-MM-DD`, `long` for
/// an integer, `string` otherwise.
fn hive_type(value: Option<&str>) -> PrimitiveType {
    let Some(v) = value else {
        return PrimitiveType::String;
    };
    let b = v.as_bytes();
    let date = b.len() == 10
        && b[4] == b'-'
        && b[7] == b'-'
        && b.iter()
            .enumerate()
            .all(|(i, c)| i == 4 || i == 7 || c.is_ascii_digit());
    if date {
        PrimitiveType::Date
    } else if !v.is_empty() && v.len() < 19 && v.parse::<i64>().is_ok() {
        PrimitiveType::Long
    } else {
        PrimitiveType::String
    }
}

/// The metadata of a new table whose first file is `first`: its schema (plus a column for
/// each Hive key, filled by readers from the partition tuple) and the chosen spec.
pub(crate) fn new_table(
    catalog: &Catalog,
    first: &PendingFile,
    choice: &PartitionChoice,
    now_ms: i64,
) -> Result<TableMetadata> {
    let mut schema = first.schema()?;
    let mut parts: Vec<(String, Transform)> = Vec::new();
    match choice {
        PartitionChoice::HiveKeys => {
            let first_id = schema.highest_field_id() + 1;
            for (next, (key, value)) in (first_id..).zip(hive_keys(&first.relative)) {
                if schema.fields.iter().any(|f| f.name == key) {
                    return Err(Error::schema(format!(
                        "data file `{}`: the partition folder `{key}=` is also a column of \
                         the file",
                        first.relative
                    )));
                }
                schema.fields.push(NestedField {
                    id: next,
                    name: key.clone(),
                    required: false,
                    field_type: IcebergType::Primitive(hive_type(value.as_deref())),
                    doc: None,
                });
                parts.push((key, Transform::Identity));
            }
        }
        PartitionChoice::Day(c) => parts.push((c.clone(), Transform::Day)),
        PartitionChoice::Hour(c) => parts.push((c.clone(), Transform::Hour)),
    }
    let refs: Vec<(&str, Transform)> = parts.iter().map(|(c, t)| (c.as_str(), t.clone())).collect();
    let spec = PartitionSpec::build(&schema, 0, FIRST_PARTITION_FIELD_ID, &refs)
        .map_err(|e| e.context(catalog.describe()))?;
    let last_column_id = schema.highest_field_id();
    Ok(TableMetadata::new(
        catalog.location.clone(),
        unique_id(),
        schema.to_json(),
        last_column_id,
        spec.fields,
        now_ms,
    ))
}

/// The table's current schema, read from its JSON.
pub(crate) fn current_schema(m: &TableMetadata, catalog: &Catalog) -> Result<IcebergSchema> {
    let json = m.schema().ok_or_else(|| {
        Error::corrupt(format!(
            "{}: current-schema-id {} names no schema",
            catalog.describe(),
            m.current_schema_id
        ))
    })?;
    IcebergSchema::from_json(json).map_err(|e| e.context(catalog.describe()))
}

/// An error unless the file's columns fit the table's schema (ice-ids'
/// [`IcebergSchema::check_file_fits`]: same ids, paths and types or Iceberg promotions;
/// the Hive-key columns of identity partitions, optional and absent from files, aside).
pub(crate) fn check_fits(p: &PendingFile, table: &IcebergSchema, catalog: &Catalog) -> Result<()> {
    table.check_file_fits(&p.schema()?).map_err(|e| {
        e.context(format!(
            "{}: `{}` does not have the table's schema",
            catalog.describe(),
            p.relative
        ))
    })
}

/// The manifest entry of a file added by snapshot `snapshot_id` (sequence numbers
/// inherited from the manifest list).
pub(crate) fn added_entry(
    catalog: &Catalog,
    p: &PendingFile,
    schema: &IcebergSchema,
    spec: &PartitionSpec,
) -> Result<ManifestEntry> {
    let m = data_file_metrics(&p.md, p.size)
        .map_err(|e| e.context(format!("data file `{}`", p.relative)))?;
    let partition = spec
        .partition_values(schema, &p.relative, &p.md)
        .map_err(|e| e.context(catalog.describe()))?;
    Ok(ManifestEntry {
        status: EntryStatus::Added,
        snapshot_id: None,
        sequence_number: None,
        file_sequence_number: None,
        data_file: DataFile {
            content: 0,
            file_path: catalog.uri(&p.relative),
            file_format: "PARQUET".into(),
            partition,
            record_count: m.record_count,
            file_size_in_bytes: m.file_size_in_bytes,
            column_sizes: m.column_sizes,
            value_counts: m.value_counts,
            null_value_counts: m.null_value_counts,
            nan_value_counts: m.nan_value_counts,
            lower_bounds: m.lower_bounds,
            upper_bounds: m.upper_bounds,
            split_offsets: (!m.split_offsets.is_empty()).then_some(m.split_offsets),
            sort_order_id: None,
        },
    })
}

/// Manifests and manifest lists read so far (they never change once written), by URI.
#[derive(Default)]
pub(crate) struct Cache {
    lists: Mutex<HashMap<String, Arc<Vec<ManifestFile>>>>,
    manifests: Mutex<HashMap<String, Arc<Manifest>>>,
}

impl Cache {
    pub(crate) fn list(&self, catalog: &Catalog, uri: &str) -> Result<Arc<Vec<ManifestFile>>> {
        if let Some(l) = self
            .lists
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get(uri)
        {
            return Ok(Arc::clone(l));
        }
        let (name, bytes) = catalog.read_uri(uri, "manifest list")?;
        let list = Arc::new(read_manifest_list(&bytes, &name)?);
        self.lists
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert(uri.to_string(), Arc::clone(&list));
        Ok(list)
    }

    pub(crate) fn manifest(&self, catalog: &Catalog, m: &ManifestFile) -> Result<Arc<Manifest>> {
        let uri = &m.manifest_path;
        if let Some(l) = self
            .manifests
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get(uri)
        {
            return Ok(Arc::clone(l));
        }
        let (name, bytes) = catalog.read_uri(uri, "manifest")?;
        let mut manifest = read_manifest(&bytes, &name)?;
        // Inheritance: null ids and sequence numbers are the manifest list entry's.
        for e in &mut manifest.entries {
            e.snapshot_id.get_or_insert(m.added_snapshot_id);
            if e.status == EntryStatus::Added || e.sequence_number.is_some() {
                e.sequence_number.get_or_insert(m.sequence_number);
                e.file_sequence_number.get_or_insert(m.sequence_number);
            }
        }
        let manifest = Arc::new(manifest);
        self.manifests
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert(uri.to_string(), Arc::clone(&manifest));
        Ok(manifest)
    }
}

/// A table at its newest metadata version, as a commit needs it.
pub(crate) struct TableState {
    pub(crate) version: u64,
    pub(crate) metadata: TableMetadata,
    /// The current snapshot's manifests (empty before the first snapshot).
    pub(crate) manifests: Vec<ManifestFile>,
    /// The live data files: URI -> (index in `manifests`, entry).
    pub(crate) live: BTreeMap<String, (usize, ManifestEntry)>,
}

impl TableState {
    /// The table at its newest version; `None` when it has no metadata file yet.
    pub(crate) fn load(catalog: &Catalog, cache: &Cache) -> Result<Option<TableState>> {
        let Some((version, metadata)) = catalog.latest()? else {
            return Ok(None);
        };
        let as_of = |e: Error| {
            e.context(format!(
                "the table as of {}",
                super::catalog::metadata_path(version)
            ))
        };
        let mut manifests = Vec::new();
        let mut live = BTreeMap::new();
        if let Some(s) = metadata.current_snapshot() {
            manifests = cache
                .list(catalog, &s.manifest_list)
                .map_err(as_of)?
                .as_ref()
                .clone();
            for (i, m) in manifests.iter().enumerate() {
                let manifest = cache
                    .manifest(catalog, m)
                    .map_err(|e| as_of(e.context(format!("listed in {}", s.manifest_list))))?;
                for e in &manifest.entries {
                    if e.status != EntryStatus::Deleted && m.content == 0 {
                        live.insert(e.data_file.file_path.clone(), (i, e.clone()));
                    }
                }
            }
        }
        Ok(Some(TableState {
            version,
            metadata,
            manifests,
            live,
        }))
    }

    /// Every data file URI any snapshot of the metadata held: a path once committed is never
    /// added again (exactly-once across removals).
    pub(crate) fn ever(&self, catalog: &Catalog, cache: &Cache) -> Result<BTreeSet<String>> {
        let mut out: BTreeSet<String> = self.live.keys().cloned().collect();
        let mut seen = BTreeSet::new();
        let as_of = |e: Error| {
            e.context(format!(
                "the table as of {}",
                super::catalog::metadata_path(self.version)
            ))
        };
        for s in &self.metadata.snapshots {
            for m in cache.list(catalog, &s.manifest_list).map_err(as_of)?.iter() {
                if m.content != 0 || !seen.insert(m.manifest_path.clone()) {
                    continue;
                }
                let manifest = cache
                    .manifest(catalog, m)
                    .map_err(|e| as_of(e.context(format!("listed in {}", s.manifest_list))))?;
                for e in &manifest.entries {
                    out.insert(e.data_file.file_path.clone());
                }
            }
        }
        Ok(out)
    }

    /// The last `app-version` application `app_id` committed, if any.
    pub(crate) fn app_version(&self, app_id: &str) -> Option<i64> {
        self.metadata
            .snapshots
            .iter()
            .filter(|s| s.summary.get(APP_ID_KEY).map(String::as_str) == Some(app_id))
            .filter_map(|s| s.summary.get(APP_VERSION_KEY)?.parse::<i64>().ok())
            .max()
    }
}

/// The partition summaries of a manifest's files.
fn summaries(entries: &[ManifestEntry], n_fields: usize) -> Vec<FieldSummary> {
    (0..n_fields)
        .map(|i| {
            let mut s = FieldSummary::default();
            let mut lo: Option<&Literal> = None;
            let mut hi: Option<&Literal> = None;
            for e in entries {
                match e.data_file.partition.get(i) {
                    Some(Some(v)) => {
                        if lo.is_none_or(|l| v.compare(l) == Some(std::cmp::Ordering::Less)) {
                            lo = Some(v);
                        }
                        if hi.is_none_or(|h| v.compare(h) == Some(std::cmp::Ordering::Greater)) {
                            hi = Some(v);
                        }
                    }
                    _ => s.contains_null = true,
                }
            }
            s.lower_bound = lo.map(Literal::to_bytes);
            s.upper_bound = hi.map(Literal::to_bytes);
            s
        })
        .collect()
}

/// What the next snapshot does.
pub(crate) struct Plan<'a> {
    pub(crate) operation: &'a str,
    pub(crate) added: Vec<ManifestEntry>,
    /// The URIs of live files to remove (`replace`).
    pub(crate) removed: BTreeSet<String>,
    pub(crate) app_id: &'a str,
}

/// A random positive snapshot id.
fn snapshot_id() -> i64 {
    let hex = unique_id().replace('-', "");
    (u64::from_str_radix(&hex[..16], 16).unwrap_or(1) >> 1).max(1) as i64
}

/// Writes the manifests and the manifest list of the next snapshot and returns the next
/// metadata (not yet committed) and the new snapshot's id. `state` is `None` for a new
/// table, whose metadata is `fresh`.
pub(crate) fn next_metadata(
    catalog: &Catalog,
    cache: &Cache,
    state: Option<&TableState>,
    fresh: Option<TableMetadata>,
    plan: &Plan<'_>,
    now_ms: i64,
) -> Result<(TableMetadata, i64)> {
    let (mut metadata, manifests, live, previous_file) = match (state, fresh) {
        (Some(s), _) => (
            s.metadata.clone(),
            s.manifests.clone(),
            Some(&s.live),
            Some(catalog.uri(&super::catalog::metadata_path(s.version))),
        ),
        (None, Some(m)) => (m, Vec::new(), None, None),
        (None, None) => return Err(Error::internal("a commit without a table")),
    };
    let spec = metadata
        .spec()
        .cloned()
        .ok_or_else(|| Error::corrupt(format!("{}: no default spec", catalog.describe())))?;
    let schema = current_schema(&metadata, catalog)?;
    let types: Vec<PrimitiveType> = spec
        .partition_type(&schema)?
        .into_iter()
        .map(|(_, t)| t)
        .collect();
    let schema_json = metadata.schema().cloned().unwrap_or_default();
    let id = snapshot_id();
    let seq = metadata.last_sequence_number + 1;
    let parent = metadata.current_snapshot_id;

    // Manifests that hold a removed file are rewritten: the removed entries DELETED, the
    // others EXISTING with their inherited values made explicit.
    let mut out_manifests = Vec::with_capacity(manifests.len() + 1);
    let mut deleted_files = 0i64;
    let mut deleted_rows = 0i64;
    let mut deleted_size = 0i64;
    for (i, m) in manifests.iter().enumerate() {
        let touched = live.is_some_and(|l| {
            plan.removed
                .iter()
                .any(|r| l.get(r).is_some_and(|(at, _)| *at == i))
        });
        if !touched {
            out_manifests.push(m.clone());
            continue;
        }
        let old = cache.manifest(catalog, m)?;
        let mut entries = Vec::with_capacity(old.entries.len());
        for e in &old.entries {
            if e.status == EntryStatus::Deleted {
                continue; // deletes of an earlier snapshot are not carried
            }
            let mut e = e.clone();
            if plan.removed.contains(&e.data_file.file_path) {
                e.status = EntryStatus::Deleted;
                e.snapshot_id = Some(id);
                deleted_files += 1;
                deleted_rows += e.data_file.record_count;
                deleted_size += e.data_file.file_size_in_bytes;
            } else {
                e.status = EntryStatus::Existing;
            }
            entries.push(e);
        }
        let old_spec = metadata
            .spec_by_id(old.spec_id)
            .cloned()
            .unwrap_or(spec.clone());
        let old_types: Vec<PrimitiveType> = old_spec
            .partition_type(&schema)?
            .into_iter()
            .map(|(_, t)| t)
            .collect();
        out_manifests.push(write_manifest_file(
            catalog,
            &entries,
            &old_spec,
            &old_types,
            &schema_json,
            id,
            seq,
            m.min_sequence_number,
        )?);
    }
    if !plan.added.is_empty() {
        out_manifests.push(write_manifest_file(
            catalog,
            &plan.added,
            &spec,
            &types,
            &schema_json,
            id,
            seq,
            seq,
        )?);
    }
    let list = write_manifest_list(&out_manifests, id, parent, seq)?;
    let list_uri =
        catalog.write_new(&format!("metadata/snap-{id}-1-{}.avro", unique_id()), &list)?;

    let added_rows: i64 = plan.added.iter().map(|e| e.data_file.record_count).sum();
    let added_size: i64 = plan
        .added
        .iter()
        .map(|e| e.data_file.file_size_in_bytes)
        .sum();
    let (mut total_files, mut total_rows, mut total_size) = (0i64, 0i64, 0i64);
    if let Some(l) = live {
        for (_, e) in l.values() {
            total_files += 1;
            total_rows += e.data_file.record_count;
            total_size += e.data_file.file_size_in_bytes;
        }
    }
    let app_version = state
        .and_then(|s| s.app_version(plan.app_id))
        .map_or(0, |v| v.saturating_add(1));
    let mut summary: BTreeMap<String, String> = BTreeMap::new();
    for (k, v) in [
        ("operation", plan.operation.to_string()),
        ("added-data-files", plan.added.len().to_string()),
        ("added-records", added_rows.to_string()),
        ("added-files-size", added_size.to_string()),
        ("deleted-data-files", deleted_files.to_string()),
        ("deleted-records", deleted_rows.to_string()),
        ("removed-files-size", deleted_size.to_string()),
        (
            "total-data-files",
            (total_files + plan.added.len() as i64 - deleted_files).to_string(),
        ),
        (
            "total-records",
            (total_rows + added_rows - deleted_rows).to_string(),
        ),
        (
            "total-files-size",
            (total_size + added_size - deleted_size).to_string(),
        ),
        ("total-delete-files", "0".to_string()),
        ("total-position-deletes", "0".to_string()),
        ("total-equality-deletes", "0".to_string()),
        (APP_ID_KEY, plan.app_id.to_string()),
        (APP_VERSION_KEY, app_version.to_string()),
    ] {
        summary.insert(k.to_string(), v);
    }
    metadata.push_snapshot(
        Snapshot {
            snapshot_id: id,
            parent_snapshot_id: parent,
            sequence_number: seq,
            timestamp_ms: now_ms,
            manifest_list: list_uri,
            summary,
            schema_id: Some(metadata.current_schema_id),
        },
        previous_file,
    );
    Ok((metadata, id))
}

#[allow(clippy::too_many_arguments)]
fn write_manifest_file(
    catalog: &Catalog,
    entries: &[ManifestEntry],
    spec: &PartitionSpec,
    types: &[PrimitiveType],
    schema_json: &serde_json::Value,
    snapshot_id: i64,
    seq: i64,
    min_seq: i64,
) -> Result<ManifestFile> {
    let bytes = write_manifest(entries, spec, types, schema_json)?;
    let uri = catalog.write_new(&format!("metadata/{}-m0.avro", unique_id()), &bytes)?;
    let min_seq = entries
        .iter()
        .filter_map(|e| e.sequence_number)
        .min()
        .unwrap_or(seq)
        .min(min_seq);
    Ok(ManifestFile {
        manifest_path: uri,
        manifest_length: bytes.len() as i64,
        partition_spec_id: spec.spec_id,
        content: 0,
        sequence_number: seq,
        min_sequence_number: min_seq,
        added_snapshot_id: snapshot_id,
        counts: counts(entries),
        partitions: Some(summaries(entries, spec.fields.len())),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hive_keys_and_types() {
        assert_eq!(
            hive_keys("date=2026-11-24/k=a%2Fb/f.parquet"),
            [
                ("date".to_string(), Some("2026-11-24".to_string())),
                ("k".to_string(), Some("a/b".to_string()))
            ]
        );
        assert_eq!(
            hive_keys("k=__HIVE_DEFAULT_PARTITION__/f.parquet"),
            [("k".to_string(), None)]
        );
        assert!(hive_keys("f.parquet").is_empty());
        assert_eq!(hive_type(Some("2026-11-24")), PrimitiveType::Date);
        assert_eq!(hive_type(Some("42")), PrimitiveType::Long);
        assert_eq!(hive_type(Some("eu-west")), PrimitiveType::String);
        assert_eq!(hive_type(None), PrimitiveType::String);
    }
}
