//! An Iceberg table read as a dataset: the data files of one snapshot (from its manifest
//! list and manifests, not from a folder walk), their columns matched by field id to the
//! table schema, and each file's partition values and metrics for pruning before any
//! file is opened.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::core::column::Scalar;
use crate::error::{Error, Result};
use crate::filter::{CmpOp, Predicate};
use crate::iceberg::literal::Literal;
use crate::iceberg::manifest::{self, EntryStatus};
use crate::iceberg::manifest_list;
use crate::iceberg::metadata::TableMetadata;
use crate::iceberg::partition::{PartitionField, PartitionSpec, Transform};
use crate::iceberg::schema::{IcebergSchema, IcebergType, PrimitiveType};

use super::bounds_prune::{bounds_may, micros_may, FileBounds};
use super::list::{sort_files, DataFile};
use super::partition::PartitionValue;
use super::prune::compare;

/// The folder of a table's metadata files.
const METADATA_DIR: &str = "metadata";
/// The file naming the current metadata version (`vN.metadata.json`) of a file-system table.
const VERSION_HINT: &str = "version-hint.text";
/// At most this many bytes of a metadata file, manifest list or manifest are read (a
/// bound on hostile input; real ones are far smaller).
const MAX_METADATA_BYTES: u64 = 1 << 30;

/// What a dataset keeps of the Iceberg table it was opened from.
#[derive(Debug, Clone)]
pub(crate) struct IcebergSnapshot {
    pub root: PathBuf,
    /// The snapshot read (`None`: the table has none yet, so no file).
    pub snapshot_id: Option<i64>,
    /// The table's top-level columns by name: field id and Iceberg type (`None` when not
    /// primitive).
    columns: BTreeMap<String, (i32, Option<PrimitiveType>)>,
    /// Each file's manifest entry and the partition fields of its spec, by its local path.
    pub files: HashMap<PathBuf, (manifest::DataFile, Arc<Vec<PartitionField>>)>,
    /// The table's current schema and default partition spec (what a commit writes).
    pub current: (IcebergSchema, PartitionSpec),
    /// Whether the metadata file read is named `vN.metadata.json` (a file-system table,
    /// which this crate's committer can commit to) rather than by a catalog.
    pub file_system_table: bool,
}

/// Whether `dir` is the root of an Iceberg table: a `metadata/` folder holding a
/// `*.metadata.json` file.
pub(crate) fn is_iceberg_root(dir: &Path) -> bool {
    let Ok(entries) = std::fs::read_dir(dir.join(METADATA_DIR)) else {
        return false;
    };
    entries.flatten().any(|e| {
        e.file_name()
            .to_str()
            .is_some_and(|n| n.ends_with(".metadata.json"))
    })
}

/// The current metadata file of the table at `root`: the `*.metadata.json` of the highest
/// version (`vN.metadata.json` or `NNNNN-<uuid>.metadata.json`). `version-hint.text` is
/// only a hint: a writer killed between creating `v{N+1}.metadata.json` and rewriting the
/// hint leaves it naming N, while N+1 is the table (as Java's file-system tables look
/// past the hint too); it is used when no file name gives a version.
pub(crate) fn current_metadata_file(root: &Path) -> Result<PathBuf> {
    let dir = root.join(METADATA_DIR);
    let entries = std::fs::read_dir(&dir).map_err(|e| Error::from(e).context(dir.display()))?;
    let mut best: Option<(u64, String)> = None;
    for e in entries {
        let e = e.map_err(|e| Error::from(e).context(dir.display()))?;
        let Some(name) = e.file_name().to_str().map(str::to_string) else {
            continue;
        };
        let Some(version) = metadata_version(&name) else {
            continue;
        };
        if best
            .as_ref()
            .is_none_or(|(v, n)| (version, &name) > (*v, n))
        {
            best = Some((version, name));
        }
    }
    if let Some((_, name)) = best {
        return Ok(dir.join(name));
    }
    if let Ok(hint) = std::fs::read_to_string(dir.join(VERSION_HINT)) {
        let named = dir.join(format!("v{}.metadata.json", hint.trim()));
        if named.is_file() {
            return Ok(named);
        }
    }
    Err(Error::corrupt(format!(
        "{}: no `*.metadata.json` file",
        dir.display()
    )))
}

/// The version of a metadata file named `vN.metadata.json` or `NNNNN-<uuid>.metadata.json`
/// (optionally compressed names are not read).
fn metadata_version(name: &str) -> Option<u64> {
    let stem = name.strip_suffix(".metadata.json")?;
    let stem = stem.strip_prefix('v').unwrap_or(stem);
    let digits = stem.split('-').next()?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

/// Reads a file of the table's metadata, at most [`MAX_METADATA_BYTES`]; errors name it.
fn read_bounded(path: &Path) -> Result<Vec<u8>> {
    let at = |e: std::io::Error| Error::from(e).context(path.display());
    let len = std::fs::metadata(path).map_err(at)?.len();
    if len > MAX_METADATA_BYTES {
        return Err(Error::corrupt(format!(
            "{}: {len} bytes, more than the {MAX_METADATA_BYTES} a table's metadata file may have here",
            path.display()
        )));
    }
    std::fs::read(path).map_err(at)
}

/// The files of snapshot `snapshot` (the current one when `None`) of the table at
/// `root`, and what pruning needs. Fails when a metadata file, manifest list or manifest
/// is corrupt (the error names it), when the snapshot does not exist, when it has delete
/// files (which this crate cannot apply: reading the data files whole would bring deleted
/// rows back), and when a data file is missing or not of the size its manifest states.
pub(crate) fn open(root: &Path, snapshot: Option<u64>) -> Result<(Vec<DataFile>, IcebergSnapshot)> {
    let metadata_file = current_metadata_file(root)?;
    let shown = metadata_file.display().to_string();
    let metadata = TableMetadata::parse(&read_bounded(&metadata_file)?, &shown)?;
    let table = format!("Iceberg table {}", root.display());
    let snap = match snapshot {
        Some(id) => {
            let found = i64::try_from(id).ok().and_then(|i| metadata.snapshot(i));
            Some(found.ok_or_else(|| {
                let mut ids: Vec<String> = metadata
                    .snapshots
                    .iter()
                    .map(|s| s.snapshot_id.to_string())
                    .collect();
                ids.truncate(20);
                Error::invalid_argument(format!(
                    "{table}: snapshot {id} does not exist (snapshots: {})",
                    if ids.is_empty() {
                        "none".to_string()
                    } else {
                        ids.join(", ")
                    }
                ))
            })?)
        }
        None => metadata.current_snapshot(),
    };
    // A snapshot is read with the schema it was written with (time travel), the
    // current one otherwise.
    let schema = snap
        .and_then(|s| s.schema_id)
        .and_then(|id| {
            metadata
                .schemas
                .iter()
                .find(|s| s.get("schema-id").and_then(|v| v.as_i64()) == Some(i64::from(id)))
        })
        .or_else(|| metadata.schema())
        .ok_or_else(|| Error::corrupt(format!("{shown}: no current schema")))?;
    let columns = top_level_columns(schema).map_err(|e| e.context(&shown))?;
    let names_by_id: Arc<BTreeMap<i32, String>> = Arc::new(
        columns
            .iter()
            .map(|(name, (id, _))| (*id, name.clone()))
            .collect(),
    );
    let current_schema = metadata
        .schema()
        .ok_or_else(|| Error::corrupt(format!("{shown}: no current schema")))
        .and_then(|s| IcebergSchema::from_json(s).map_err(|e| e.context(&shown)))?;
    let default_spec = metadata
        .spec()
        .cloned()
        .ok_or_else(|| Error::corrupt(format!("{shown}: no default partition spec")))?;
    let file_system_table = metadata_file
        .file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.starts_with('v'));
    let mut info = IcebergSnapshot {
        root: root.to_path_buf(),
        snapshot_id: snap.map(|s| s.snapshot_id),
        columns,
        files: HashMap::new(),
        current: (current_schema, default_spec),
        file_system_table,
    };
    let Some(snap) = snap else {
        return Ok((Vec::new(), info));
    };
    let location = metadata.location.clone();
    let list_path = local_path(root, &location, &snap.manifest_list)
        .map_err(|e| e.context(format_args!("{shown}: manifest list")))?;
    let list_shown = list_path.display().to_string();
    let manifests = manifest_list::read_manifest_list(&read_bounded(&list_path)?, &list_shown)?;
    let mut files = Vec::new();
    let mut specs: HashMap<i32, Arc<Vec<PartitionField>>> = HashMap::new();
    for m in &manifests {
        if m.content != 0 {
            return Err(Error::unsupported(format!(
                "{table}: snapshot {} has delete files (manifest {}), which parquet-serde \
                 cannot apply: reading its data files whole would bring deleted rows back",
                snap.snapshot_id, m.manifest_path
            )));
        }
        let path = local_path(root, &location, &m.manifest_path)
            .map_err(|e| e.context(format_args!("{list_shown}: manifest")))?;
        let shown = path.display().to_string();
        let manifest = manifest::read_manifest(&read_bounded(&path)?, &shown)?;
        if manifest.content != "data" {
            return Err(Error::unsupported(format!(
                "{table}: manifest {shown} holds delete files (content `{}`), which \
                 parquet-serde cannot apply",
                manifest.content
            )));
        }
        // A manifest cut at an Avro block boundary is still a valid file, with fewer
        // entries: the counts of the manifest list catch it.
        let counts = manifest::counts(&manifest.entries);
        if counts != m.counts {
            return Err(Error::corrupt(format!(
                "{shown}: holds {} added, {} existing and {} deleted files ({} rows); \
                 the manifest list {list_shown} states {}, {} and {} ({} rows)",
                counts.added_files,
                counts.existing_files,
                counts.deleted_files,
                rows(&counts),
                m.counts.added_files,
                m.counts.existing_files,
                m.counts.deleted_files,
                rows(&m.counts),
            )));
        }
        let spec = match specs.get(&m.partition_spec_id) {
            Some(s) => s.clone(),
            None => {
                let s = metadata.spec_by_id(m.partition_spec_id).ok_or_else(|| {
                    Error::corrupt(format!(
                        "{list_shown}: manifest {shown} names partition spec {}, which the \
                         table metadata lacks",
                        m.partition_spec_id
                    ))
                })?;
                let s = Arc::new(s.fields.clone());
                specs.insert(m.partition_spec_id, s.clone());
                s
            }
        };
        for (i, entry) in manifest.entries.into_iter().enumerate() {
            if entry.status == EntryStatus::Deleted {
                continue;
            }
            let what = format!("{shown}: entry {i} (`{}`)", entry.data_file.file_path);
            let f = entry.data_file;
            if f.content != 0 {
                return Err(Error::unsupported(format!(
                    "{what}: a delete file (content {}), which parquet-serde cannot apply",
                    f.content
                )));
            }
            if !f.file_format.eq_ignore_ascii_case("parquet") {
                return Err(Error::unsupported(format!(
                    "{what}: a {} file (only Parquet is read)",
                    f.file_format
                )));
            }
            let local = local_path(root, &location, &f.file_path).map_err(|e| e.context(&what))?;
            check_size(&local, f.file_size_in_bytes).map_err(|e| e.context(&what))?;
            if info.files.contains_key(&local) {
                return Err(Error::corrupt(format!(
                    "{what}: the snapshot lists the file twice"
                )));
            }
            let partitions = identity_values(&spec, &f.partition, &names_by_id);
            files.push(
                DataFile::new(local.clone(), partitions).with_names_by_id(names_by_id.clone()),
            );
            info.files.insert(local, (f, spec.clone()));
        }
    }
    check_totals(&snap.summary, &info, &list_shown)?;
    sort_files(&mut files);
    Ok((files, info))
}

/// The values of the identity partition fields of a file, named by their source columns:
/// the values of a column the files may not store (the Hive keys of this crate's
/// committer, which readers fill from the partition tuple), typed as partition values
/// (`string` as text, `int`/`long` as integers, `date` as a date; other types are left to
/// the files, which store them).
fn identity_values(
    spec: &[PartitionField],
    tuple: &[Option<Literal>],
    names_by_id: &BTreeMap<i32, String>,
) -> Vec<(String, PartitionValue)> {
    let mut out = Vec::new();
    for (p, v) in spec.iter().zip(tuple) {
        if p.transform != Transform::Identity {
            continue;
        }
        let Some(name) = names_by_id.get(&p.source_id) else {
            continue;
        };
        let value = match v {
            None => PartitionValue::Null,
            Some(Literal::String(s)) => PartitionValue::String(s.clone()),
            Some(Literal::Int(i)) => PartitionValue::Int(i64::from(*i)),
            Some(Literal::Long(i)) => PartitionValue::Int(*i),
            Some(Literal::Date(d)) => PartitionValue::Date(*d),
            Some(_) => continue,
        };
        out.push((name.clone(), value));
    }
    out
}

/// The rows a manifest's counts count (saturating: counts come from the file).
fn rows(c: &manifest::ManifestCounts) -> i64 {
    c.added_rows
        .saturating_add(c.existing_rows)
        .saturating_add(c.deleted_rows)
}

/// The files and rows read are the totals the snapshot's summary states, when it states
/// them (a manifest list cut at an Avro block boundary is still a valid file, with fewer
/// manifests).
fn check_totals(
    summary: &BTreeMap<String, String>,
    info: &IcebergSnapshot,
    list: &str,
) -> Result<()> {
    let total = |k: &str| summary.get(k).and_then(|v| v.trim().parse::<i64>().ok());
    let files = info.files.len() as i64;
    let rows = info
        .files
        .values()
        .fold(0i64, |a, (f, _)| a.saturating_add(f.record_count));
    for (key, read) in [("total-data-files", files), ("total-records", rows)] {
        if let Some(stated) = total(key) {
            if stated != read {
                return Err(Error::corrupt(format!(
                    "{list}: its manifests list {read} for `{key}`; the snapshot summary \
                     states {stated}"
                )));
            }
        }
    }
    Ok(())
}

/// The top-level fields of a schema (JSON): name → (field id, primitive type).
fn top_level_columns(
    schema: &serde_json::Value,
) -> Result<BTreeMap<String, (i32, Option<PrimitiveType>)>> {
    let schema = IcebergSchema::from_json(schema)?;
    let mut out = BTreeMap::new();
    for f in schema.fields {
        let ty = match f.field_type {
            IcebergType::Primitive(p) => Some(p),
            _ => None,
        };
        if out.insert(f.name.clone(), (f.id, ty)).is_some() {
            return Err(Error::corrupt(format!(
                "the schema has two top-level fields named `{}`",
                f.name
            )));
        }
    }
    Ok(out)
}

/// The local path of a path the table's metadata states: a `file:` URI or an absolute
/// path; one below the table's `location` is taken below `root` instead (a table copied
/// or moved keeps working). Other URIs (`s3://`, ...) are refused: this reader reads
/// local folders only.
fn local_path(root: &Path, location: &str, stated: &str) -> Result<PathBuf> {
    let location = location.trim_end_matches('/');
    if let Some(rest) = stated
        .strip_prefix(location)
        .and_then(|r| r.strip_prefix('/'))
    {
        return relative(root, rest);
    }
    let plain = stated
        .strip_prefix("file://")
        .or_else(|| stated.strip_prefix("file:"))
        .unwrap_or(stated);
    if plain.contains("://") {
        return Err(Error::unsupported(format!(
            "`{stated}` is not in a local folder (only local tables are read)"
        )));
    }
    if !plain.starts_with('/') {
        return Err(Error::corrupt(format!(
            "`{stated}` is neither an absolute path nor below the table location `{location}`"
        )));
    }
    Ok(PathBuf::from(plain))
}

/// `rest` (a path below the table's location) below `root`, refused when it leaves it.
fn relative(root: &Path, rest: &str) -> Result<PathBuf> {
    let p = Path::new(rest);
    if p.components().any(|c| {
        !matches!(
            c,
            std::path::Component::Normal(_) | std::path::Component::CurDir
        )
    }) {
        return Err(Error::corrupt(format!("`{rest}` leaves the table folder")));
    }
    Ok(root.join(p))
}

/// The file exists and has the size the manifest states.
fn check_size(path: &Path, stated: i64) -> Result<()> {
    let meta = std::fs::metadata(path).map_err(|e| {
        Error::from(e).context(format_args!(
            "data file {} listed in a manifest",
            path.display()
        ))
    })?;
    if i64::try_from(meta.len()).ok() != Some(stated) {
        return Err(Error::corrupt(format!(
            "data file {} is {} bytes; the manifest states {stated}",
            path.display(),
            meta.len()
        )));
    }
    Ok(())
}

impl IcebergSnapshot {
    /// Whether `file`'s partition values and metrics leave some row that may satisfy
    /// `rest`.
    pub(crate) fn may_match(&self, file: &DataFile, rest: &Predicate) -> bool {
        match self.files.get(file.path()) {
            Some((f, spec)) => super::bounds_prune::may_match(
                rest,
                &Facts {
                    file: f,
                    spec,
                    columns: &self.columns,
                },
            ),
            None => true,
        }
    }

    /// `files`, each with a null partition value for every top-level column of the table
    /// that `p` names and the file lacks (written before the column was added): a test of
    /// it is then decided as on a null, as Iceberg reads such a file. Whether a file has
    /// the column is told by its manifest metrics when they count it, else by its footer
    /// (field ids, or the name of a column without one); a file that cannot be opened is
    /// left as it is, for the reading to report.
    pub(crate) fn nulls_for_missing(&self, files: &[DataFile], p: &Predicate) -> Vec<DataFile> {
        let wanted: Vec<(&str, i32)> = p
            .columns()
            .into_iter()
            .filter_map(|c| self.columns.get(c).map(|(id, _)| (c, *id)))
            .collect();
        files
            .iter()
            .map(|f| {
                let Some((entry, _)) = self.files.get(f.path()) else {
                    return f.clone();
                };
                let unknown: Vec<&(&str, i32)> = wanted
                    .iter()
                    .filter(|(name, id)| {
                        !entry.value_counts.contains_key(id)
                            && !entry.column_sizes.contains_key(id)
                            && f.partition(name).is_none()
                    })
                    .collect();
                if unknown.is_empty() {
                    return f.clone();
                }
                let Some(fields) = top_level_fields(f.path()) else {
                    return f.clone();
                };
                let mut out = f.clone();
                for (name, id) in unknown {
                    let has = fields.iter().any(|(fid, fname)| match fid {
                        Some(fid) => fid == id,
                        None => fname == name,
                    });
                    if !has {
                        out = out.with_partition(name, PartitionValue::Null);
                    }
                }
                out
            })
            .collect()
    }

    /// Whether `file` was written with the table's current partition spec.
    pub(crate) fn has_current_spec(&self, file: &Path) -> bool {
        self.files
            .get(file)
            .is_some_and(|(_, spec)| **spec == self.current.1.fields)
    }
}

/// The field ids and names of the top-level columns of the Parquet file at `path`;
/// `None` when it cannot be opened.
fn top_level_fields(path: &Path) -> Option<Vec<(Option<i32>, String)>> {
    let file = std::fs::File::open(path).ok()?;
    let reader = crate::core::file::FileReader::new(file).ok()?;
    Some(
        reader
            .schema()
            .fields()
            .iter()
            .map(|n| (n.field_id, n.name.clone()))
            .collect(),
    )
}

/// What a manifest states of one file, seen by the pruning.
struct Facts<'a> {
    file: &'a manifest::DataFile,
    spec: &'a [PartitionField],
    columns: &'a BTreeMap<String, (i32, Option<PrimitiveType>)>,
}

/// A bound of a column's values, typed.
#[derive(Debug, Clone, PartialEq)]
enum Bound {
    /// int, long, date, string: compared as partition values are.
    Value(PartitionValue),
    /// float, double.
    Float(f64),
    /// timestamp, timestamptz: microseconds.
    Micros(i128),
}

const HOUR_MICROS: i128 = 3_600_000_000;
const DAY_MICROS: i128 = 24 * HOUR_MICROS;

impl Facts<'_> {
    /// The partition value of the identity field over column `id`, if the spec has one
    /// (`Some(None)`: null).
    fn identity(&self, id: i32) -> Option<&Option<Literal>> {
        self.spec
            .iter()
            .position(|p| p.source_id == id && p.transform == Transform::Identity)
            .and_then(|i| self.file.partition.get(i))
    }

    /// The bounds of column `id` of type `ty`: the metrics' lower and upper bounds,
    /// narrowed by what the partition values say (identity: the value; hour and day of a
    /// timestamp, day of a date: that hour or day).
    fn bounds(&self, id: i32, ty: PrimitiveType) -> (Option<Bound>, Option<Bound>) {
        let decode = |b: Option<&Vec<u8>>| {
            b.and_then(|b| Literal::from_bytes(ty, b).ok())
                .and_then(|l| bound(&l))
        };
        let mut lo = decode(self.file.lower_bounds.get(&id));
        let mut hi = decode(self.file.upper_bounds.get(&id));
        for (i, p) in self.spec.iter().enumerate() {
            if p.source_id != id {
                continue;
            }
            let Some(Some(v)) = self.file.partition.get(i) else {
                continue;
            };
            let timestamp = matches!(ty, PrimitiveType::Timestamp | PrimitiveType::Timestamptz);
            let range = match (&p.transform, v) {
                (Transform::Identity, v) => bound(v).map(|b| (b.clone(), b)),
                (Transform::Hour, Literal::Int(h)) if timestamp => {
                    let s = i128::from(*h) * HOUR_MICROS;
                    Some((Bound::Micros(s), Bound::Micros(s + HOUR_MICROS - 1)))
                }
                (Transform::Day, Literal::Date(d) | Literal::Int(d)) if timestamp => {
                    let s = i128::from(*d) * DAY_MICROS;
                    Some((Bound::Micros(s), Bound::Micros(s + DAY_MICROS - 1)))
                }
                (Transform::Day, Literal::Date(d) | Literal::Int(d))
                    if ty == PrimitiveType::Date =>
                {
                    let d = Bound::Value(PartitionValue::Date(*d));
                    Some((d.clone(), d))
                }
                _ => None,
            };
            if let Some((l, h)) = range {
                lo = Some(narrow(lo, l, true));
                hi = Some(narrow(hi, h, false));
            }
        }
        (lo, hi)
    }
}

/// A value as a bound the pruning compares (`None` for types it does not use).
fn bound(v: &Literal) -> Option<Bound> {
    Some(match v {
        Literal::Int(i) => Bound::Value(PartitionValue::Int(i64::from(*i))),
        Literal::Long(i) => Bound::Value(PartitionValue::Int(*i)),
        Literal::Date(d) => Bound::Value(PartitionValue::Date(*d)),
        Literal::String(s) => Bound::Value(PartitionValue::String(s.clone())),
        Literal::Timestamp(t) | Literal::Timestamptz(t) => Bound::Micros(i128::from(*t)),
        Literal::Float(f) if !f.is_nan() => Bound::Float(f64::from(*f)),
        Literal::Double(f) if !f.is_nan() => Bound::Float(*f),
        _ => return None,
    })
}

/// The tighter of `old` and `new` (the greater for a lower bound).
fn narrow(old: Option<Bound>, new: Bound, lower: bool) -> Bound {
    let Some(old) = old else { return new };
    let ord = match (&old, &new) {
        (Bound::Micros(a), Bound::Micros(b)) => a.cmp(b),
        (Bound::Float(a), Bound::Float(b)) => a.total_cmp(b),
        (Bound::Value(a), Bound::Value(b)) => a.cmp(b),
        _ => return new,
    };
    if ord.is_lt() == lower {
        new
    } else {
        old
    }
}

impl FileBounds for Facts<'_> {
    fn num_records(&self) -> Option<i64> {
        Some(self.file.record_count)
    }

    fn null_count(&self, column: &str) -> Option<i64> {
        let (id, _) = self.columns.get(column)?;
        match self.identity(*id) {
            Some(None) => return Some(self.file.record_count),
            Some(Some(_)) => return Some(0),
            None => {}
        }
        self.file.null_value_counts.get(id).copied()
    }

    fn compare_may(&self, column: &str, op: CmpOp, literal: &Scalar) -> bool {
        let Some((id, Some(ty))) = self.columns.get(column) else {
            return true;
        };
        let (lo, hi) = self.bounds(*id, *ty);
        if matches!(ty, PrimitiveType::Timestamp | PrimitiveType::Timestamptz) {
            let micros = |b: Option<Bound>| match b {
                Some(Bound::Micros(m)) => Some(m),
                _ => None,
            };
            return micros_may(micros(lo), micros(hi), op, literal);
        }
        let order = |b: Option<Bound>| -> Option<std::cmp::Ordering> {
            match b? {
                Bound::Value(v) => compare(&v, literal, column).ok().flatten(),
                Bound::Float(f) => match literal {
                    Scalar::Int(_) | Scalar::Float(_) | Scalar::Decimal(_) => {
                        Scalar::Float(f).partial_cmp(literal)
                    }
                    _ => None,
                },
                Bound::Micros(_) => None,
            }
        };
        bounds_may(order(lo), order(hi), op)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn metadata_versions_are_read_from_both_naming_schemes() {
        assert_eq!(metadata_version("v12.metadata.json"), Some(12));
        assert_eq!(
            metadata_version("00008-25a9f465-0f9a-4872-b5d6-881076d65da8.metadata.json"),
            Some(8)
        );
        for bad in [
            "x.metadata.json",
            "v.metadata.json",
            "00001.avro",
            "v1.metadata.json.gz",
        ] {
            assert_eq!(metadata_version(bad), None, "{bad}");
        }
    }

    #[test]
    fn stated_paths_are_local_and_kept_inside_the_root() {
        let root = Path::new("/copy/t");
        let loc = "file:///w/default/t";
        assert_eq!(
            local_path(root, loc, "file:///w/default/t/data/a.parquet").unwrap(),
            Path::new("/copy/t/data/a.parquet")
        );
        assert_eq!(
            local_path(root, loc, "file:///elsewhere/b.parquet").unwrap(),
            Path::new("/elsewhere/b.parquet")
        );
        assert_eq!(
            local_path(root, "/w/t", "/w/t/metadata/snap.avro").unwrap(),
            Path::new("/copy/t/metadata/snap.avro")
        );
        let e = local_path(root, loc, "s3://bucket/t/data/a.parquet").unwrap_err();
        assert_eq!(e.kind(), crate::ErrorKind::Unsupported, "{e}");
        assert!(local_path(root, loc, "file:///w/default/t/../../x").is_err());
        assert!(local_path(root, loc, "data/relative.parquet").is_err());
    }

    #[test]
    fn bounds_are_narrowed_by_hour_and_identity_partitions() {
        let spec = vec![
            PartitionField {
                source_id: 3,
                field_id: 1000,
                name: "region".into(),
                transform: Transform::Identity,
            },
            PartitionField {
                source_id: 2,
                field_id: 1001,
                name: "ts_hour".into(),
                transform: Transform::Hour,
            },
        ];
        let file = manifest::DataFile {
            partition: vec![
                Some(Literal::String("eu".into())),
                Some(Literal::Int(493_680)),
            ],
            record_count: 10,
            lower_bounds: [(1, 5i64.to_le_bytes().to_vec())].into(),
            upper_bounds: [(1, 9i64.to_le_bytes().to_vec())].into(),
            null_value_counts: [(1, 0)].into(),
            ..Default::default()
        };
        let columns = [
            ("id".to_string(), (1, Some(PrimitiveType::Long))),
            ("ts".to_string(), (2, Some(PrimitiveType::Timestamptz))),
            ("region".to_string(), (3, Some(PrimitiveType::String))),
        ]
        .into();
        let facts = Facts {
            file: &file,
            spec: &spec,
            columns: &columns,
        };
        let may = |p: Predicate| super::super::bounds_prune::may_match(&p, &facts);
        let parse = |t: &str| may(Predicate::parse(t).unwrap());
        use crate::filter::col;
        // Hour 493680 is 2026-04-27T00:00Z.
        assert!(parse("ts >= '2026-04-27T00:30:00Z'"));
        assert!(!parse("ts >= '2026-04-27T01:00:00Z'"));
        assert!(!parse("ts < '2026-04-27T00:00:00Z'"));
        assert!(parse("ts < '2026-04-27T00:00:00.000001Z'"));
        assert!(may(col("region").eq("eu")) && !may(col("region").eq("us")));
        assert!(!may(col("region").is_null()));
        assert!(may(col("id").eq(7)) && !may(col("id").gt(9)) && !may(col("id").is_null()));
        assert!(may(col("unknown").eq(1)));
    }
}
