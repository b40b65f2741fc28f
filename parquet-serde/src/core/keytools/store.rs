//! External key material: `_KEY_MATERIAL_FOR_<data file name>.json` next to the data file,
//! a JSON object mapping each key's reference (`footerKey`, `columnKey0`, ...) to its key
//! material JSON *as a string* (parquet-java's `HadoopFSKeyMaterialStore`, Arrow C++'s
//! `FileSystemKeyMaterialStore`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::error::{Error, ErrorKind, Result};

/// Prefix of external key material file names.
pub const KEY_MATERIAL_FILE_PREFIX: &str = "_KEY_MATERIAL_FOR_";
/// Suffix of external key material file names.
pub const KEY_MATERIAL_FILE_SUFFIX: &str = ".json";
/// Largest key material file read (a few hundred bytes per key in practice).
const MAX_KEY_MATERIAL_FILE: u64 = 64 << 20;

/// The external key material file of the Parquet file at `parquet_file`.
pub fn key_material_path(parquet_file: &Path) -> Result<PathBuf> {
    let name = parquet_file.file_name().ok_or_else(|| {
        Error::invalid_argument(format!(
            "{} has no file name to derive the key material file from",
            parquet_file.display()
        ))
    })?;
    let mut file = std::ffi::OsString::from(KEY_MATERIAL_FILE_PREFIX);
    file.push(name);
    file.push(KEY_MATERIAL_FILE_SUFFIX);
    Ok(parquet_file.with_file_name(file))
}

/// The key materials of one Parquet file, kept outside it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct KeyMaterialStore {
    materials: BTreeMap<String, String>,
}

impl KeyMaterialStore {
    /// An empty store.
    pub fn new() -> Self {
        Self::default()
    }

    /// Parses the text of a key material file.
    pub fn parse(json: &str) -> Result<Self> {
        let obj = match serde_json::from_str::<Value>(json) {
            Ok(Value::Object(o)) => o,
            Ok(_) => {
                return Err(Error::new(
                    ErrorKind::Crypto,
                    "key material file is not a JSON object",
                ))
            }
            Err(e) => {
                return Err(Error::new(
                    ErrorKind::Crypto,
                    format!("key material file is not valid JSON: {e}"),
                )
                .with_source(e))
            }
        };
        let mut materials = BTreeMap::new();
        for (id, v) in obj {
            match v {
                Value::String(s) => {
                    materials.insert(id, s);
                }
                _ => {
                    return Err(Error::new(
                        ErrorKind::Crypto,
                        format!("key material file: entry {id:?} is not a string"),
                    ))
                }
            }
        }
        Ok(KeyMaterialStore { materials })
    }

    /// Reads the key material file of the Parquet file at `parquet_file`.
    pub fn load(parquet_file: &Path) -> Result<Self> {
        let path = key_material_path(parquet_file)?;
        let context = |e: Error| e.context(format_args!("key material file {}", path.display()));
        let file = std::fs::File::open(&path).map_err(|e| context(e.into()))?;
        let mut text = String::new();
        std::io::Read::read_to_string(
            &mut std::io::Read::take(file, MAX_KEY_MATERIAL_FILE),
            &mut text,
        )
        .map_err(|e| context(e.into()))?;
        Self::parse(&text).map_err(context)
    }

    /// The JSON text of the file.
    pub fn to_json(&self) -> String {
        // A map of strings always serializes.
        serde_json::to_string(&self.materials).expect("string map to JSON")
    }

    /// Writes the key material file of the Parquet file at `parquet_file`.
    pub fn save(&self, parquet_file: &Path) -> Result<()> {
        let path = key_material_path(parquet_file)?;
        std::fs::write(&path, self.to_json()).map_err(|e| {
            Error::from(e).context(format_args!("writing key material file {}", path.display()))
        })
    }

    /// Adds (or replaces) the material JSON of `key_id`.
    pub fn add(&mut self, key_id: &str, material_json: String) {
        self.materials.insert(key_id.to_string(), material_json);
    }

    /// The material JSON of `key_id`.
    pub fn get(&self, key_id: &str) -> Option<&str> {
        self.materials.get(key_id).map(String::as_str)
    }

    /// The key references held, sorted.
    pub fn key_ids(&self) -> impl Iterator<Item = &str> {
        self.materials.keys().map(String::as_str)
    }

    /// Whether the store holds no material.
    pub fn is_empty(&self) -> bool {
        self.materials.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn path_and_round_trip() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("x.parquet");
        assert_eq!(
            key_material_path(&file).unwrap(),
            dir.path().join("_KEY_MATERIAL_FOR_x.parquet.json")
        );
        assert!(key_material_path(Path::new("/")).is_err());
        let mut s = KeyMaterialStore::new();
        s.add("footerKey", r#"{"a":"b\"c"}"#.to_string());
        s.add("columnKey0", "{}".to_string());
        s.save(&file).unwrap();
        let text = std::fs::read_to_string(key_material_path(&file).unwrap()).unwrap();
        assert_eq!(
            text,
            r#"{"columnKey0":"{}","footerKey":"{\"a\":\"b\\\"c\"}"}"#
        );
        let back = KeyMaterialStore::load(&file).unwrap();
        assert_eq!(back, s);
        assert_eq!(
            back.key_ids().collect::<Vec<_>>(),
            ["columnKey0", "footerKey"]
        );
        assert_eq!(back.get("footerKey"), Some(r#"{"a":"b\"c"}"#));
        assert!(KeyMaterialStore::load(&dir.path().join("missing.parquet")).is_err());
    }

    #[test]
    fn bad_files() {
        for bad in ["", "[]", "{\"a\":1}", "{\"a\":", "nul"] {
            let e = KeyMaterialStore::parse(bad).unwrap_err();
            assert_eq!(e.kind(), ErrorKind::Crypto, "{bad}");
        }
    }
}

/// The examples that were doc tests while these items were public.
#[cfg(test)]
mod doc_examples {
    #[test]
    fn key_material_path_example() {
        use crate::core::keytools::store::key_material_path;
        use std::path::Path;
        assert_eq!(
            key_material_path(Path::new("/data/t/part-0.parquet")).unwrap(),
            Path::new("/data/t/_KEY_MATERIAL_FOR_part-0.parquet.json"),
        );
    }
}
