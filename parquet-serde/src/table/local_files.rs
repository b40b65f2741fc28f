//! The data files of a table in a local folder: a path given to a committer resolved below
//! the root, and the final `*.parquet` files a folder holds.

use std::path::{Component, Path, PathBuf};

use crate::error::{Error, Result};

/// `file` (absolute, or relative to `root`) as a full path and as the `/`-separated path
/// relative to `root`; an error when it is not below it.
pub(crate) fn in_table(root: &Path, file: &Path) -> Result<(PathBuf, String)> {
    let full = if file.is_absolute() {
        file.to_path_buf()
    } else {
        root.join(file)
    };
    let relative = relative_to(root, &full)?;
    Ok((full, relative))
}

/// `full` relative to `root`, `/`-separated; an error when it is not below it.
pub(crate) fn relative_to(root: &Path, full: &Path) -> Result<String> {
    let rel = full.strip_prefix(root).map_err(|_| {
        Error::invalid_argument(format!(
            "{} is not in the table folder {}",
            full.display(),
            root.display()
        ))
    })?;
    let mut parts = Vec::new();
    for c in rel.components() {
        match c {
            Component::Normal(s) => parts.push(s.to_str().ok_or_else(|| {
                Error::invalid_argument(format!("{}: the path is not UTF-8", full.display()))
            })?),
            _ => {
                return Err(Error::invalid_argument(format!(
                    "{}: not a plain path below {}",
                    full.display(),
                    root.display()
                )))
            }
        }
    }
    if parts.is_empty() {
        return Err(Error::invalid_argument(format!(
            "{} is the table folder, not a file in it",
            full.display()
        )));
    }
    Ok(parts.join("/"))
}

/// The `*.parquet` files below `root`, sorted, outside names and folders that start with
/// `_` or `.` (Delta's `_delta_log`, files being written, journals, hidden files) and
/// outside the root's folder `skip_at_root` when given (Iceberg's `metadata`). A missing
/// root holds no file.
pub(crate) fn list_data_files(root: &Path, skip_at_root: Option<&str>) -> Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    walk(root, root, skip_at_root, &mut out)?;
    out.sort();
    Ok(out)
}

fn walk(root: &Path, dir: &Path, skip_at_root: Option<&str>, out: &mut Vec<PathBuf>) -> Result<()> {
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        // No folder yet: no file.
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(Error::from(e).context(format!("listing {}", dir.display()))),
    };
    for entry in entries {
        let entry =
            entry.map_err(|e| Error::from(e).context(format!("listing {}", dir.display())))?;
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        if name.starts_with('_')
            || name.starts_with('.')
            || (dir == root && skip_at_root == Some(name))
        {
            continue;
        }
        let path = entry.path();
        let kind = entry
            .file_type()
            .map_err(|e| Error::from(e).context(format!("listing {}", path.display())))?;
        if kind.is_dir() {
            walk(root, &path, skip_at_root, out)?;
        } else if kind.is_file() && name.ends_with(".parquet") {
            out.push(path);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_below_the_root_only() {
        let root = Path::new("/t");
        assert_eq!(
            in_table(root, Path::new("k=a/f.parquet")).unwrap(),
            (
                PathBuf::from("/t/k=a/f.parquet"),
                "k=a/f.parquet".to_string()
            )
        );
        assert_eq!(
            relative_to(root, Path::new("/t/f.parquet")).unwrap(),
            "f.parquet"
        );
        assert!(relative_to(root, Path::new("/u/f.parquet")).is_err());
        assert!(relative_to(root, Path::new("/t/../f.parquet")).is_err());
        assert!(relative_to(root, Path::new("/t")).is_err());
    }

    #[test]
    fn data_files_skip_logs_metadata_and_hidden_names() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        for f in [
            "a.parquet",
            "k=1/b.parquet",
            "k=1/.c.parquet",
            "_delta_log/d.parquet",
            "metadata/e.parquet",
            "k=1/metadata/f.parquet",
            "g.txt",
        ] {
            let p = root.join(f);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, b"x").unwrap();
        }
        let names = |v: Vec<PathBuf>| -> Vec<String> {
            v.iter().map(|p| relative_to(root, p).unwrap()).collect()
        };
        assert_eq!(
            names(list_data_files(root, None).unwrap()),
            [
                "a.parquet",
                "k=1/b.parquet",
                "k=1/metadata/f.parquet",
                "metadata/e.parquet"
            ]
        );
        assert_eq!(
            names(list_data_files(root, Some("metadata")).unwrap()),
            ["a.parquet", "k=1/b.parquet", "k=1/metadata/f.parquet"]
        );
        assert!(list_data_files(&root.join("none"), None)
            .unwrap()
            .is_empty());
    }
}
