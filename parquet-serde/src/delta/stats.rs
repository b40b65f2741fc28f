//! An `add` action's `stats` (PROTOCOL.md, "Per-file Statistics"): JSON text with
//! `numRecords` and, per column, `minValues`, `maxValues` and `nullCount`. Only top-level
//! columns are kept (nested objects are the statistics of nested fields, not used to prune).

use std::collections::BTreeMap;

use serde::Deserialize;
use serde_json::Value as Json;

use crate::error::{Error, Result};

/// The statistics of one data file.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct FileStats {
    pub num_records: Option<i64>,
    /// Top-level column -> smallest value (a JSON number, string or boolean).
    pub min: BTreeMap<String, Json>,
    /// Top-level column -> largest value.
    pub max: BTreeMap<String, Json>,
    /// Top-level column -> number of nulls.
    pub null_count: BTreeMap<String, i64>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Raw {
    #[serde(default)]
    num_records: Option<i64>,
    #[serde(default)]
    min_values: Option<serde_json::Map<String, Json>>,
    #[serde(default)]
    max_values: Option<serde_json::Map<String, Json>>,
    #[serde(default)]
    null_count: Option<serde_json::Map<String, Json>>,
}

impl FileStats {
    /// Parses `text`; `what` names the table and file for errors. Fields of unexpected
    /// types inside `minValues`/`maxValues`/`nullCount` are left out (no pruning by them);
    /// text that is not a JSON object of this shape is an error.
    pub(crate) fn parse(text: &str, what: &str) -> Result<FileStats> {
        let bad = |e: serde_json::Error| {
            Error::corrupt(format!("{what}: stats are not Delta statistics: {e}")).with_source(e)
        };
        let json: Json = serde_json::from_str(text).map_err(bad)?;
        if !json.is_object() {
            return Err(Error::corrupt(format!(
                "{what}: stats are not Delta statistics: not a JSON object"
            )));
        }
        let raw: Raw = serde_json::from_value(json).map_err(bad)?;
        if raw.num_records.is_some_and(|n| n < 0) {
            return Err(Error::corrupt(format!(
                "{what}: stats give a negative numRecords"
            )));
        }
        let scalars = |m: Option<serde_json::Map<String, Json>>| -> BTreeMap<String, Json> {
            m.into_iter()
                .flatten()
                .filter(|(_, v)| matches!(v, Json::Number(_) | Json::String(_) | Json::Bool(_)))
                .collect()
        };
        let null_count = raw
            .null_count
            .into_iter()
            .flatten()
            .filter_map(|(k, v)| Some((k, v.as_i64().filter(|n| *n >= 0)?)))
            .collect();
        Ok(FileStats {
            num_records: raw.num_records,
            min: scalars(raw.min_values),
            max: scalars(raw.max_values),
            null_count,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_top_level_statistics() {
        let s = FileStats::parse(
            r#"{"numRecords":3,"minValues":{"id":1,"s":{"x":1},"name":"a"},
                "maxValues":{"id":9},"nullCount":{"id":0,"s":{"x":1},"name":-1}}"#,
            "t",
        )
        .unwrap();
        assert_eq!(s.num_records, Some(3));
        assert_eq!(s.min.keys().collect::<Vec<_>>(), ["id", "name"]);
        assert_eq!(s.max["id"], Json::from(9));
        assert_eq!(s.null_count.keys().collect::<Vec<_>>(), ["id"]);
        for bad in ["", "[1]", r#"{"numRecords":"x"}"#, r#"{"numRecords":-1}"#] {
            let e = FileStats::parse(bad, "/t: add `f`").unwrap_err();
            assert!(e.message().starts_with("/t: add `f`: stats"), "{bad}: {e}");
        }
    }
}
