//! Finding a dataset's files: a folder walked recursively, or a glob pattern; names that
//! start with `_` or `.` (files being written, metadata, hidden files) are skipped, folders
//! too. Each file's hive partition values come from the folders between the root and it.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};
use crate::record::Value;

use super::glob::{components_below, Glob};
use super::partition::{split_segment, KeyType, PartitionValue};

/// Folders deeper than this below the root are not searched (a bound on hostile trees).
const MAX_DEPTH: usize = 64;

/// One file of a dataset, with its partition values.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DataFile {
    path: PathBuf,
    partitions: Vec<(String, PartitionValue)>,
    /// Of an Iceberg table's file: the table schema's top-level names by field id, by
    /// which the file's columns are renamed when it is read.
    #[cfg(feature = "iceberg")]
    names_by_id: Option<std::sync::Arc<BTreeMap<i32, String>>>,
}

impl DataFile {
    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The `key=value` partition values of the folders above it, outermost first, as
    /// [`Value`]s: [`Value::Date`] when every value of the key in the dataset is a
    /// `YYYY-MM-DD` date, else [`Value::Int`] when every value is an integer (`hour=07` is
    /// 7), else [`Value::String`] (the decoded text); `__HIVE_DEFAULT_PARTITION__` is
    /// [`Value::Null`].
    pub fn partitions(&self) -> Vec<(&str, Value)> {
        self.partitions
            .iter()
            .map(|(k, v)| (k.as_str(), v.to_value()))
            .collect()
    }

    /// The value of partition key `key` (typed as in [`partitions`](Self::partitions)).
    pub fn partition(&self, key: &str) -> Option<Value> {
        self.partitions
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.to_value())
    }

    /// A file with its partition values, typed already (a Delta table's, from its log).
    #[cfg(any(feature = "delta", feature = "iceberg"))]
    pub(crate) fn new(path: PathBuf, partitions: Vec<(String, PartitionValue)>) -> DataFile {
        DataFile {
            path,
            partitions,
            #[cfg(feature = "iceberg")]
            names_by_id: None,
        }
    }

    /// A file of an Iceberg table, whose top-level columns are read under the names
    /// `names_by_id` gives their field ids (see [`rename_by_id`](Self::rename_by_id)).
    #[cfg(feature = "iceberg")]
    pub(crate) fn with_names_by_id(
        mut self,
        names_by_id: std::sync::Arc<BTreeMap<i32, String>>,
    ) -> DataFile {
        self.names_by_id = Some(names_by_id);
        self
    }

    /// The same file with partition value `value` for `key` (an Iceberg file lacking a
    /// column the table added later: null, as its rows read it).
    #[cfg(feature = "iceberg")]
    pub(crate) fn with_partition(mut self, key: &str, value: PartitionValue) -> DataFile {
        if !self.partitions.iter().any(|(k, _)| k == key) {
            self.partitions.push((key.to_string(), value));
        }
        self
    }

    /// Renames the top-level columns of `reader` (this file's) by their field ids, as
    /// Iceberg matches them: a column whose id the table schema has takes its current
    /// name (a renamed column reads under its new name); one whose id it lacks (a dropped
    /// column) is renamed `_dropped_field_ID`, so that it never reads as a column the
    /// table added later under its old name; a column without an id keeps its name.
    /// Nothing for a file not of an Iceberg table.
    pub(crate) fn rename_by_id<R: crate::core::file::ChunkReader>(
        &self,
        reader: &mut crate::core::file::FileReader<R>,
    ) -> Result<()> {
        #[cfg(feature = "iceberg")]
        if let Some(names) = &self.names_by_id {
            return reader.rename_top_level(|node| {
                let id = node.field_id?;
                Some(match names.get(&id) {
                    Some(name) => name.clone(),
                    None => format!("_dropped_field_{id}"),
                })
            });
        }
        let _ = reader;
        Ok(())
    }

    /// The partition values as the dataset types them.
    pub(crate) fn partition_values(&self) -> &[(String, PartitionValue)] {
        &self.partitions
    }
}

/// Whether a file or folder name is skipped (in progress, metadata or hidden).
pub(crate) fn skipped(name: &str) -> bool {
    name.starts_with('_') || name.starts_with('.')
}

/// What a walk keeps.
enum Select<'a> {
    /// Files named `*.parquet`.
    Parquet,
    /// Files the glob matches.
    Glob(&'a Glob),
}

/// The final `.parquet` files below `dir`, in time order (see [`order`]).
pub(crate) fn list_dir(dir: &Path) -> Result<Vec<DataFile>> {
    let meta = fs::metadata(dir).map_err(|e| Error::from(e).context(dir.display()))?;
    if !meta.is_dir() {
        return Err(Error::invalid_argument(format!(
            "{} is not a folder",
            dir.display()
        )));
    }
    let mut found = Vec::new();
    walk(dir, 0, &Select::Parquet, dir, &mut found)?;
    Ok(order(found))
}

/// The files `pattern` matches, in time order; partition folders are those below the
/// pattern's leading literal folders.
pub(crate) fn list_glob(pattern: &str) -> Result<Vec<DataFile>> {
    let glob = Glob::new(pattern)?;
    let mut found = Vec::new();
    if fs::metadata(&glob.base).is_ok_and(|m| m.is_dir()) {
        walk(&glob.base, 0, &Select::Glob(&glob), &glob.base, &mut found)?;
    }
    Ok(order(found))
}

fn walk(
    dir: &Path,
    depth: usize,
    select: &Select<'_>,
    root: &Path,
    found: &mut Vec<PathBuf>,
) -> Result<()> {
    if depth > MAX_DEPTH {
        return Ok(());
    }
    let at = |e: std::io::Error| Error::from(e).context(dir.display());
    let mut entries = Vec::new();
    for entry in fs::read_dir(dir).map_err(at)? {
        let entry = entry.map_err(at)?;
        let name = entry.file_name();
        // Names that are not UTF-8 are neither partitions nor `.parquet` names.
        let Some(name) = name.to_str() else { continue };
        if skipped(name) {
            continue;
        }
        entries.push((
            name.to_string(),
            entry.path(),
            entry.file_type().map_err(at)?,
        ));
    }
    entries.sort_by(|a, b| a.0.cmp(&b.0));
    for (name, path, kind) in entries {
        // A symbolic link is followed to a file, never to a folder (no cycles).
        let is_file = kind.is_file() || (kind.is_symlink() && path.is_file());
        if kind.is_dir() {
            let go = match select {
                Select::Parquet => true,
                Select::Glob(g) => components_below(root, &path).is_some_and(|r| g.may_descend(&r)),
            };
            if go {
                walk(&path, depth + 1, select, root, found)?;
            }
        } else if is_file {
            let keep = match select {
                Select::Parquet => name.ends_with(".parquet"),
                Select::Glob(g) => components_below(root, &path).is_some_and(|r| g.matches(&r)),
            };
            if keep {
                found.push(path);
            }
        }
    }
    Ok(())
}

/// The raw `key=value` pairs of the folders of `file`'s path, as given (so a root or a
/// glob's leading folders named `key=value` count too, as DuckDB reads them).
fn raw_partitions(file: &Path) -> Vec<(String, String)> {
    let Some(folder) = file.parent() else {
        return Vec::new();
    };
    folder
        .components()
        .filter_map(|c| split_segment(c.as_os_str().to_str()?))
        .collect()
}

/// Types each file's partition values (one type per key over every file, see
/// [`PartitionValue`]) and sorts the files by their partition values in folder order,
/// then by path: the time order of `date=/hour=` folders and of time-stamped names.
fn order(files: Vec<PathBuf>) -> Vec<DataFile> {
    let raw: Vec<Vec<(String, String)>> = files.iter().map(|f| raw_partitions(f)).collect();
    let mut by_key: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for (k, v) in raw.iter().flatten() {
        by_key.entry(k).or_default().push(v);
    }
    let types: BTreeMap<&str, KeyType> = by_key
        .iter()
        .map(|(k, vs)| (*k, KeyType::of(vs.iter().copied())))
        .collect();
    let mut out: Vec<DataFile> = files
        .iter()
        .zip(&raw)
        .map(|(path, raw)| DataFile {
            path: path.clone(),
            partitions: raw
                .iter()
                .map(|(k, v)| {
                    let t = types.get(k.as_str()).copied().unwrap_or(KeyType::String);
                    (k.clone(), t.value(v))
                })
                .collect(),
            #[cfg(feature = "iceberg")]
            names_by_id: None,
        })
        .collect();
    sort_files(&mut out);
    out
}

/// Sorts files by their partition values in order, then by path.
pub(crate) fn sort_files(files: &mut [DataFile]) {
    files.sort_by(|a, b| {
        let va = a.partitions.iter().map(|p| &p.1);
        let vb = b.partitions.iter().map(|p| &p.1);
        va.cmp(vb).then_with(|| a.path.cmp(&b.path))
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn touch(root: &Path, rel: &str) {
        let p = root.join(rel);
        fs::create_dir_all(p.parent().unwrap()).unwrap();
        fs::write(p, b"x").unwrap();
    }

    #[test]
    fn lists_final_files_in_time_order() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        touch(root, "date=2026-11-24/hour=13/part-2.parquet");
        touch(root, "date=2026-11-24/hour=13/part-1.parquet");
        touch(root, "date=2026-11-24/hour=9/part-1.parquet");
        touch(root, "date=2026-11-23/hour=23/part-1.parquet");
        touch(root, "date=2026-11-24/hour=13/_part-3.parquet");
        touch(root, "date=2026-11-24/hour=13/.part-4.parquet");
        touch(root, "date=2026-11-24/_tmp/part-5.parquet");
        touch(root, "date=2026-11-24/hour=13/notes.txt");
        let files = list_dir(root).unwrap();
        let rel: Vec<String> = files
            .iter()
            .map(|f| f.path().strip_prefix(root).unwrap().display().to_string())
            .collect();
        assert_eq!(
            rel,
            [
                "date=2026-11-23/hour=23/part-1.parquet",
                "date=2026-11-24/hour=9/part-1.parquet",
                "date=2026-11-24/hour=13/part-1.parquet",
                "date=2026-11-24/hour=13/part-2.parquet",
            ]
        );
        assert_eq!(files[1].partition("hour"), Some(Value::Int(9)));
        assert_eq!(files[1].partition("date"), Some(Value::Date(20_781)));
        let globbed = list_glob(&format!("{}/**/hour=1*/*.parquet", root.display())).unwrap();
        assert_eq!(globbed.len(), 2);
        assert_eq!(globbed[0].partition("hour"), Some(Value::Int(13)));
    }

    #[test]
    fn not_a_folder() {
        let dir = tempfile::tempdir().unwrap();
        touch(dir.path(), "f.parquet");
        let e = list_dir(&dir.path().join("f.parquet")).unwrap_err();
        assert!(e.message().contains("not a folder"), "{e}");
        let e = list_dir(&dir.path().join("missing")).unwrap_err();
        assert!(e.message().contains("missing"), "{e}");
    }
}
