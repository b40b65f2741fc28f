//! The protocol check of a reader (PROTOCOL.md, "Protocol Evolution", "Table Features"):
//! a table whose `protocol` asks for a reader version or a reader feature this crate lacks
//! is refused with an error naming the feature and the table, before any file is read.
//!
//! Reader version 1 is plain Parquet; version 2 is column mapping, read only when its mode
//! is `none`; version 3 lists `readerFeatures`, of which [`READABLE`] are read (the others,
//! such as `deletionVectors`, `columnMapping` with a mode, `v2Checkpoint`, are refused).

use super::action::{Metadata, Protocol};
use crate::error::{Error, Result};

/// The reader features this crate reads:
/// - `timestampNtz`: TIMESTAMP without a time zone, a plain Parquet timestamp;
/// - `vacuumProtocolCheck`: constrains VACUUM only, nothing to do when reading;
/// - `variantType`, `variantType-preview`: VARIANT columns, read as the Parquet file holds
///   them;
/// - `columnMapping` only when `delta.columnMapping.mode` is `none` (or unset).
pub(crate) const READABLE: &[&str] = &[
    "timestampNtz",
    "vacuumProtocolCheck",
    "variantType",
    "variantType-preview",
];

/// The highest reader version understood.
const MAX_READER_VERSION: i32 = 3;

/// Fails when reading the table `table` (for the message) needs something this crate lacks,
/// naming it.
pub(crate) fn check_readable(protocol: &Protocol, metadata: &Metadata, table: &str) -> Result<()> {
    let refuse = |what: String| {
        Err(Error::unsupported(format!(
            "{table}: the Delta table needs {what}, which parquet-serde cannot read"
        )))
    };
    let version = protocol.min_reader_version;
    if version < 1 {
        return Err(Error::corrupt(format!(
            "{table}: protocol minReaderVersion {version} (at least 1 expected)"
        )));
    }
    if version > MAX_READER_VERSION {
        return refuse(format!("reader version {version}"));
    }
    let mapping = metadata
        .configuration
        .get("delta.columnMapping.mode")
        .and_then(|m| m.as_deref())
        .unwrap_or("none");
    if version >= 2 && mapping != "none" {
        return refuse(format!(
            "the reader feature `columnMapping` (mode {mapping:?})"
        ));
    }
    if version == 3 {
        for feature in protocol.reader_features.iter().flatten() {
            let f = feature.as_str();
            let ok = READABLE.contains(&f) || (f == "columnMapping" && mapping == "none");
            if !ok {
                return refuse(format!("the reader feature `{f}`"));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::action::Format;
    use super::*;

    fn meta(mode: Option<&str>) -> Metadata {
        Metadata {
            id: "t".into(),
            name: None,
            description: None,
            format: Format::default(),
            schema_string: "{\"type\":\"struct\",\"fields\":[]}".into(),
            partition_columns: vec![],
            configuration: mode
                .map(|m| ("delta.columnMapping.mode".to_string(), Some(m.to_string())))
                .into_iter()
                .collect(),
            created_time: None,
        }
    }

    fn proto(reader: i32, features: &[&str]) -> Protocol {
        Protocol {
            min_reader_version: reader,
            min_writer_version: 7,
            reader_features: (reader == 3)
                .then(|| features.iter().map(|f| f.to_string()).collect()),
            writer_features: None,
        }
    }

    #[test]
    fn refuses_what_it_cannot_read_naming_the_feature_and_the_table() {
        let ok = |p: Protocol, m: Metadata| check_readable(&p, &m, "/t").is_ok();
        assert!(ok(proto(1, &[]), meta(None)));
        assert!(ok(proto(2, &[]), meta(Some("none"))));
        assert!(ok(proto(3, &["timestampNtz", "columnMapping"]), meta(None)));
        let err = |p: Protocol, m: Metadata| check_readable(&p, &m, "/t").unwrap_err();
        let e = err(proto(3, &["timestampNtz", "deletionVectors"]), meta(None));
        assert_eq!(e.kind(), crate::ErrorKind::Unsupported);
        assert!(e.message().contains("/t: "), "{e}");
        assert!(e.message().contains("`deletionVectors`"), "{e}");
        let e = err(proto(2, &[]), meta(Some("name")));
        assert!(
            e.message().contains("`columnMapping` (mode \"name\")"),
            "{e}"
        );
        let e = err(proto(3, &["columnMapping"]), meta(Some("id")));
        assert!(e.message().contains("`columnMapping`"), "{e}");
        let e = err(proto(3, &["v2Checkpoint"]), meta(None));
        assert!(e.message().contains("`v2Checkpoint`"), "{e}");
        let e = err(proto(4, &[]), meta(None));
        assert!(e.message().contains("reader version 4"), "{e}");
        let e = err(proto(0, &[]), meta(None));
        assert_eq!(e.kind(), crate::ErrorKind::Corrupt);
    }
}
