//! The table schema as the log states it (`metaData.schemaString`, PROTOCOL.md, "Schema
//! Serialization Format"): only the top-level fields and their types are needed to read,
//! to type partition values and statistics; nested types are kept as "nested".

use serde_json::Value as Json;

use crate::error::{Error, Result};

/// A top-level field's type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum FieldType {
    /// A primitive type by its Delta name: `string`, `long`, `integer`, `short`, `byte`,
    /// `date`, `timestamp`, `timestamp_ntz`, `boolean`, `double`, `float`, `binary`,
    /// `decimal(p,s)`, `variant`, ...
    Primitive(String),
    /// A struct, array or map.
    Nested,
}

impl FieldType {
    /// Whether values are whole numbers that fit an `i64` (byte, short, integer, long).
    pub(crate) fn is_integer(&self) -> bool {
        matches!(self, FieldType::Primitive(t) if matches!(t.as_str(), "byte" | "short" | "integer" | "long"))
    }

    /// Whether this is `name`.
    pub(crate) fn is(&self, name: &str) -> bool {
        matches!(self, FieldType::Primitive(t) if t == name)
    }
}

/// The top-level fields of `schema_string`, in order. `what` names the table for errors.
pub(crate) fn top_level_fields(
    schema_string: &str,
    what: &str,
) -> Result<Vec<(String, FieldType)>> {
    let bad = |m: String| Error::corrupt(format!("{what}: metaData.schemaString {m}"));
    let root: Json =
        serde_json::from_str(schema_string).map_err(|e| bad(format!("is not JSON: {e}")))?;
    let fields = root
        .get("fields")
        .and_then(Json::as_array)
        .ok_or_else(|| bad("has no `fields` array".into()))?;
    let mut out = Vec::with_capacity(fields.len());
    for f in fields {
        let name = f
            .get("name")
            .and_then(Json::as_str)
            .ok_or_else(|| bad("has a field without a `name`".into()))?;
        let ty = match f.get("type") {
            Some(Json::String(t)) => FieldType::Primitive(t.clone()),
            Some(Json::Object(_)) => FieldType::Nested,
            _ => return Err(bad(format!("gives field {name:?} no type"))),
        };
        out.push((name.to_string(), ty));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_top_level_fields() {
        let s = r#"{"type":"struct","fields":[
            {"name":"id","type":"long","nullable":true,"metadata":{}},
            {"name":"s","type":{"type":"struct","fields":[]},"nullable":true,"metadata":{}}]}"#;
        let f = top_level_fields(s, "t").unwrap();
        assert_eq!(f[0], ("id".into(), FieldType::Primitive("long".into())));
        assert!(f[0].1.is_integer());
        assert_eq!(f[1], ("s".into(), FieldType::Nested));
        for bad in [
            "{",
            "{}",
            r#"{"fields":[{"type":"long"}]}"#,
            r#"{"fields":[{"name":"a"}]}"#,
        ] {
            let e = top_level_fields(bad, "/t").unwrap_err();
            assert!(e.message().starts_with("/t: metaData.schemaString"), "{e}");
        }
    }
}
