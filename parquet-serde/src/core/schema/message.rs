//! [`Schema`]: a validated root with its leaf column descriptors.

use std::ops::Range;

use super::descriptor::{collect_columns, ColumnDescriptor, ColumnPathQuery};
use super::validate::{validate_root, Mode};
use super::{NodeKind, Repetition, SchemaNode};
use crate::Result;

/// A validated schema: the root group (the "message") and its leaf columns in depth-first
/// order, each with its path and maximum definition and repetition levels.
///
/// ```
/// use parquet_serde::core::schema::Schema;
/// let schema: Schema = "message m {
///   required int64 id;
///   optional group tags (LIST) {
///     repeated group list {
///       optional binary element (STRING);
///     }
///   }
/// }".parse().unwrap();
/// assert_eq!(schema.num_columns(), 2);
/// let tags = schema.column(1).unwrap();
/// assert_eq!(tags.path.to_string(), "tags.list.element");
/// assert_eq!((tags.max_def_level, tags.max_rep_level), (3, 1));
/// assert_eq!(schema.column_index("tags.list.element"), Some(1));
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Schema {
    root: SchemaNode,
    columns: Vec<ColumnDescriptor>,
}

impl Schema {
    /// Validates `root` strictly (the rules of [`SchemaNode::validate`] plus: the root is a
    /// group, sibling names are unique, LIST and MAP groups have the standard layout, a
    /// converted type next to a logical type is the matching one) and computes the leaf
    /// columns. The root's repetition is set to `Required`.
    pub fn new(root: SchemaNode) -> Result<Schema> {
        Schema::with_mode(root, Mode::Strict)
    }

    /// Builds a schema validated with the given strictness.
    pub(crate) fn with_mode(mut root: SchemaNode, mode: Mode) -> Result<Schema> {
        root.repetition = Repetition::Required;
        validate_root(&root, mode)?;
        let columns = collect_columns(&root)?;
        Ok(Schema { root, columns })
    }

    /// Re-checks this schema with the strict rules of [`Schema::new`]. A schema read from
    /// a file or parsed from text is checked leniently (legacy layouts, duplicate names);
    /// a writer may call this before writing it.
    pub fn validate_strict(&self) -> Result<()> {
        validate_root(&self.root, Mode::Strict)
    }

    /// The same schema with each top-level field renamed to what `rename` gives for it
    /// (kept when `None`): how a table format that matches columns by field id (Iceberg)
    /// reads a file written before a column was renamed. Fails when two fields end up with
    /// one name.
    #[cfg_attr(not(feature = "iceberg"), allow(dead_code))] // Iceberg's reading
    pub(crate) fn with_top_level_names(
        &self,
        rename: impl Fn(&SchemaNode) -> Option<String>,
    ) -> Result<Schema> {
        let mut root = self.root.clone();
        if let NodeKind::Group { fields } = &mut root.kind {
            for f in fields.iter_mut() {
                if let Some(name) = rename(f) {
                    f.name = name;
                }
            }
            let mut names: Vec<&str> = fields.iter().map(|f| f.name.as_str()).collect();
            names.sort_unstable();
            if let Some(w) = names.windows(2).find(|w| w[0] == w[1]) {
                return Err(crate::error::Error::schema(format!(
                    "two top-level columns would be named `{}`",
                    w[0]
                )));
            }
        }
        Schema::with_mode(root, Mode::Lenient)
    }

    /// The root group.
    pub fn root(&self) -> &SchemaNode {
        &self.root
    }

    /// Consumes the schema, returning the root group.
    pub fn into_root(self) -> SchemaNode {
        self.root
    }

    /// The name of the root (the message name).
    pub fn name(&self) -> &str {
        &self.root.name
    }

    /// The top-level fields.
    pub fn fields(&self) -> &[SchemaNode] {
        self.root.fields()
    }

    /// The leaf columns, depth-first.
    pub fn columns(&self) -> &[ColumnDescriptor] {
        &self.columns
    }

    /// Leaf column `i`, if there is one.
    pub fn column(&self, i: usize) -> Option<&ColumnDescriptor> {
        self.columns.get(i)
    }

    /// The number of leaf columns.
    pub fn num_columns(&self) -> usize {
        self.columns.len()
    }

    /// The index of the first leaf column named by `path`: a dotted string
    /// (`"a.list.element"`), a slice, array or `Vec` of parts, or a [`ColumnPath`]. A dotted
    /// string is compared with the dotted form of each path, so `"a.b"` matches both
    /// `["a.b"]` and `["a", "b"]` (the first in schema order wins); parts are exact.
    ///
    /// [`ColumnPath`]: super::ColumnPath
    pub fn column_index<P: ColumnPathQuery>(&self, path: P) -> Option<usize> {
        self.columns
            .iter()
            .position(|c| path.matches_parts(c.path.parts()))
    }

    /// The leaf columns under the field at `prefix` (parts from a top-level field), as a
    /// range of column indices: the leaves of a subtree are contiguous. Empty when no
    /// column starts with `prefix`; all columns for an empty prefix.
    pub fn column_range<S: AsRef<str>>(&self, prefix: &[S]) -> Range<usize> {
        let Some(start) = self.columns.iter().position(|c| c.path.starts_with(prefix)) else {
            return 0..0;
        };
        let len = self.columns[start..]
            .iter()
            .take_while(|c| c.path.starts_with(prefix))
            .count();
        start..start + len
    }

    /// The nodes from the top-level field down to leaf column `i` (the root excluded), in
    /// the order of the column's path parts.
    pub fn column_nodes(&self, i: usize) -> Option<Vec<&SchemaNode>> {
        let column = self.columns.get(i)?;
        let mut out = Vec::with_capacity(column.path_nodes.len());
        let mut node = &self.root;
        for step in &column.path_nodes {
            node = node.fields().get(step.field_index)?;
            out.push(node);
        }
        Some(out)
    }

    /// The leaf node of column `i`.
    pub fn column_node(&self, i: usize) -> Option<&SchemaNode> {
        self.column_nodes(i)?.pop()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::format::{ConvertedType, LogicalType, Type};
    use crate::core::schema::descriptor::PathNode;
    use crate::ErrorKind;

    #[test]
    fn top_level_fields_are_renamed_and_columns_follow() {
        let schema: Schema = "message m { required int64 a = 1; optional group s = 2 { optional int32 x = 3; } required int32 b; }"
            .parse()
            .unwrap();
        let renamed = schema
            .with_top_level_names(|n| match n.field_id {
                Some(1) => Some("id".into()),
                Some(2) => Some("t".into()),
                _ => None,
            })
            .unwrap();
        let paths: Vec<String> = renamed
            .columns()
            .iter()
            .map(|c| c.path.to_string())
            .collect();
        assert_eq!(paths, ["id", "t.x", "b"]);
        assert_eq!(renamed.fields()[0].field_id, Some(1));
        // Two fields with one name: an error naming it, not a schema with two `b`s.
        let e = schema
            .with_top_level_names(|n| (n.field_id == Some(1)).then(|| "b".into()))
            .unwrap_err();
        assert!(e.to_string().contains("`b`"), "{e}");
    }

    /// The Document schema of the Dremel paper.
    pub(crate) fn dremel_document() -> SchemaNode {
        use crate::core::format::FieldRepetitionType::*;
        let links = SchemaNode::group(
            "Links",
            Optional,
            vec![
                SchemaNode::primitive("Backward", Repeated, Type::Int64),
                SchemaNode::primitive("Forward", Repeated, Type::Int64),
            ],
        );
        let language = SchemaNode::group(
            "Language",
            Repeated,
            vec![
                SchemaNode::primitive("Code", Required, Type::ByteArray)
                    .with_logical_type(LogicalType::String),
                SchemaNode::primitive("Country", Optional, Type::ByteArray)
                    .with_logical_type(LogicalType::String),
            ],
        );
        let name = SchemaNode::group(
            "Name",
            Repeated,
            vec![
                language,
                SchemaNode::primitive("Url", Optional, Type::ByteArray)
                    .with_logical_type(LogicalType::String),
            ],
        );
        SchemaNode::group(
            "Document",
            Required,
            vec![
                SchemaNode::primitive("DocId", Required, Type::Int64),
                links,
                name,
            ],
        )
    }

    #[test]
    fn dremel_levels() {
        let schema = Schema::new(dremel_document()).unwrap();
        let got: Vec<(String, i16, i16)> = schema
            .columns()
            .iter()
            .map(|c| (c.path.to_string(), c.max_rep_level, c.max_def_level))
            .collect();
        let expected = [
            ("DocId", 0, 0),
            ("Links.Backward", 1, 2),
            ("Links.Forward", 1, 2),
            ("Name.Language.Code", 2, 2),
            ("Name.Language.Country", 2, 3),
            ("Name.Url", 1, 2),
        ];
        assert_eq!(got.len(), expected.len());
        for ((p, r, d), (ep, er, ed)) in got.iter().zip(expected) {
            assert_eq!((p.as_str(), *r, *d), (ep, er, ed));
        }
        let country = schema.column(4).unwrap();
        assert_eq!(
            country.path_nodes.as_slice(),
            &[
                PathNode {
                    field_index: 2,
                    repetition: Repetition::Repeated,
                    def_level: 1,
                    rep_level: 1,
                    is_group: true
                },
                PathNode {
                    field_index: 0,
                    repetition: Repetition::Repeated,
                    def_level: 2,
                    rep_level: 2,
                    is_group: true
                },
                PathNode {
                    field_index: 1,
                    repetition: Repetition::Optional,
                    def_level: 3,
                    rep_level: 2,
                    is_group: false
                },
            ]
        );
        assert_eq!(country.def_level_node(1), Some(0));
        assert_eq!(country.def_level_node(3), Some(2));
        assert_eq!(country.def_level_node(4), None);
        assert_eq!(country.rep_level_node(2), Some(1));
        assert_eq!(country.rep_level_node(0), None);
        let code = schema.column(3).unwrap();
        // Code is required: def level 2 belongs to Language, not to Code.
        assert_eq!(code.def_level_node(2), Some(1));
        assert_eq!(
            schema
                .column_nodes(4)
                .unwrap()
                .iter()
                .map(|n| n.name.as_str())
                .collect::<Vec<_>>(),
            ["Name", "Language", "Country"]
        );
        assert_eq!(schema.column_node(5).unwrap().name, "Url");
        assert_eq!(schema.column_index("Name.Language.Country"), Some(4));
        assert_eq!(schema.column_index(&["Links", "Forward"]), Some(2));
        assert_eq!(schema.column_index("Name.Language"), None);
        assert_eq!(schema.column_range(&["Name"]), 3..6);
        assert_eq!(schema.column_range(&["Name", "Language"]), 3..5);
        assert_eq!(schema.column_range(&["Nope"]), 0..0);
        assert_eq!(schema.column_range::<&str>(&[]), 0..6);
        assert_eq!(schema.name(), "Document");
        assert_eq!(schema.num_columns(), 6);
        assert!(schema.column(6).is_none());
        assert!(schema.column_node(6).is_none());
    }

    #[test]
    fn builders_and_layouts() {
        let list = SchemaNode::list(
            "tags",
            Repetition::Optional,
            SchemaNode::primitive("x", Repetition::Optional, Type::ByteArray)
                .with_logical_type(LogicalType::String),
        );
        assert_eq!(list.converted_type, Some(ConvertedType::List));
        assert_eq!(list.fields()[0].name, "list");
        assert_eq!(list.fields()[0].fields()[0].name, "element");
        let map = SchemaNode::map(
            "m",
            Repetition::Required,
            SchemaNode::primitive("k", Repetition::Optional, Type::Int32),
            SchemaNode::primitive("v", Repetition::Optional, Type::Double),
        );
        assert_eq!(map.converted_type, Some(ConvertedType::Map));
        let kv = &map.fields()[0];
        assert_eq!(kv.name, "key_value");
        assert_eq!(kv.fields()[0].name, "key");
        assert_eq!(kv.fields()[0].repetition, Repetition::Required);
        assert_eq!(kv.fields()[1].name, "value");
        let dec = SchemaNode::primitive("d", Repetition::Required, Type::FixedLenByteArray)
            .with_type_length(16)
            .with_logical_type(LogicalType::Decimal {
                scale: 4,
                precision: 30,
            })
            .with_field_id(7);
        assert_eq!(
            (dec.precision(), dec.scale(), dec.type_length()),
            (30, 4, 16)
        );
        assert_eq!(dec.converted_type, Some(ConvertedType::Decimal));
        assert!(dec.validate().is_ok());
        let schema = Schema::new(SchemaNode::group(
            "s",
            Repetition::Required,
            vec![list, map, dec],
        ))
        .unwrap();
        let levels: Vec<(i16, i16)> = schema
            .columns()
            .iter()
            .map(|c| (c.max_def_level, c.max_rep_level))
            .collect();
        assert_eq!(levels, [(3, 1), (1, 1), (2, 1), (0, 0)]);
        assert_eq!(schema.column(3).unwrap().field_id, Some(7));
        assert!(schema.validate_strict().is_ok());
    }

    fn leaf(name: &str, t: Type) -> SchemaNode {
        SchemaNode::primitive(name, Repetition::Required, t)
    }

    fn root(fields: Vec<SchemaNode>) -> SchemaNode {
        SchemaNode::group("r", Repetition::Required, fields)
    }

    #[test]
    fn validation_errors_name_the_field() {
        let bad = root(vec![SchemaNode::group(
            "a",
            Repetition::Optional,
            vec![leaf("b", Type::Int32).with_logical_type(LogicalType::String)],
        )]);
        let e = Schema::new(bad).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Schema);
        assert_eq!(e.location().column.as_deref(), Some("a.b"));
        assert!(e.message().contains("STRING"), "{e}");

        let cases: Vec<(SchemaNode, &str)> = vec![
            (root(vec![leaf("", Type::Int32)]), "<unnamed>"),
            (
                root(vec![SchemaNode::group("g", Repetition::Optional, vec![])]),
                "g",
            ),
            (root(vec![leaf("f", Type::FixedLenByteArray)]), "f"),
            (
                root(vec![leaf("u", Type::FixedLenByteArray)
                    .with_type_length(15)
                    .with_logical_type(LogicalType::Uuid)]),
                "u",
            ),
            (
                root(vec![leaf("h", Type::FixedLenByteArray)
                    .with_type_length(4)
                    .with_logical_type(LogicalType::Float16)]),
                "h",
            ),
            (
                root(vec![leaf("i", Type::FixedLenByteArray)
                    .with_type_length(11)
                    .with_converted_type(ConvertedType::Interval)]),
                "i",
            ),
            (
                root(vec![leaf("d", Type::Int32).with_logical_type(
                    LogicalType::Decimal {
                        scale: 0,
                        precision: 10,
                    },
                )]),
                "d",
            ),
            (
                root(vec![leaf("d", Type::Int64)
                    .with_converted_type(ConvertedType::Decimal)
                    .with_precision_and_scale(19, 2)]),
                "d",
            ),
            (
                root(vec![leaf("x", Type::Int32), leaf("x", Type::Int64)]),
                "",
            ),
            (
                root(vec![SchemaNode::group(
                    "l",
                    Repetition::Optional,
                    vec![leaf("a", Type::Int32), leaf("b", Type::Int32)],
                )
                .with_logical_type(LogicalType::List)]),
                "l",
            ),
            (
                root(vec![SchemaNode::group(
                    "l",
                    Repetition::Optional,
                    vec![leaf("a", Type::Int32)],
                )
                .with_logical_type(LogicalType::List)]),
                "l",
            ),
            (
                root(vec![SchemaNode::map(
                    "m",
                    Repetition::Optional,
                    leaf("k", Type::Int32),
                    leaf("v", Type::Int32),
                )
                .with_repetition(Repetition::Repeated)]),
                "m",
            ),
            (
                root(vec![leaf("s", Type::ByteArray)
                    .with_logical_type(LogicalType::String)
                    .with_converted_type(ConvertedType::Enum)]),
                "s",
            ),
            (
                root(vec![SchemaNode::group(
                    "g",
                    Repetition::Optional,
                    vec![leaf("a", Type::Int32)],
                )
                .with_logical_type(LogicalType::String)]),
                "g",
            ),
        ];
        for (node, path) in cases {
            let printed = format!("{node:?}");
            let e = Schema::new(node).expect_err(&printed);
            assert_eq!(e.kind(), ErrorKind::Schema, "{e}");
            if !path.is_empty() {
                assert_eq!(e.location().column.as_deref(), Some(path), "{e}");
            }
        }
        // A primitive root is not a schema.
        assert!(Schema::new(leaf("r", Type::Int32)).is_err());
        // Unknown physical types and VECTOR repetition are unsupported, not invalid.
        let e = Schema::new(root(vec![leaf("z", Type::Unknown(9))])).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Unsupported);
        let e = Schema::new(root(vec![
            leaf("z", Type::Int32).with_repetition(Repetition::Vector)
        ]))
        .unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Unsupported);
        // An empty root is a schema with no columns.
        assert_eq!(Schema::new(root(vec![])).unwrap().num_columns(), 0);
    }

    #[test]
    fn depth_is_capped() {
        let mut node = leaf("leaf", Type::Int32);
        for i in 0..200 {
            node = SchemaNode::group(format!("g{i}"), Repetition::Optional, vec![node]);
        }
        let e = Schema::new(root(vec![node])).unwrap_err();
        assert!(e.message().contains("deeper"), "{e}");

        let mut node = leaf("leaf", Type::Int32);
        for i in 0..127 {
            node = SchemaNode::group(format!("g{i}"), Repetition::Repeated, vec![node]);
        }
        let schema = Schema::new(root(vec![node])).unwrap();
        assert_eq!(schema.column(0).unwrap().max_rep_level, 127);
        assert_eq!(schema.column(0).unwrap().max_def_level, 127);
    }

    #[test]
    fn effective_logical_type_from_legacy() {
        let node = leaf("t", Type::Int64).with_converted_type(ConvertedType::TimestampMillis);
        assert_eq!(
            node.effective_logical_type(),
            Some(LogicalType::Timestamp {
                is_adjusted_to_utc: true,
                unit: crate::core::format::TimeUnit::Millis
            })
        );
        let schema = Schema::new(root(vec![
            node,
            leaf("d", Type::ByteArray)
                .with_converted_type(ConvertedType::Decimal)
                .with_precision_and_scale(20, 3),
        ]))
        .unwrap();
        assert_eq!(
            schema.column(1).unwrap().effective_logical_type(),
            Some(LogicalType::Decimal {
                scale: 3,
                precision: 20
            })
        );
        let mut unknown = leaf("u", Type::Int32);
        unknown.logical_type = Some(LogicalType::Unknown(42));
        assert_eq!(unknown.effective_logical_type(), None);
        // Beside an unknown logical type, the legacy converted type stands.
        let legacy = unknown.with_converted_type(ConvertedType::Uint8);
        assert_eq!(
            legacy.effective_logical_type(),
            Some(LogicalType::Integer {
                bit_width: 8,
                is_signed: false
            })
        );
    }
}
