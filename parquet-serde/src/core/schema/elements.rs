//! Conversion between the schema tree and the footer's depth-first list of
//! [`SchemaElement`]s.

use super::validate::{Mode, MAX_SCHEMA_DEPTH};
use super::{NodeKind, Repetition, Schema, SchemaNode};
use crate::core::format::{ConvertedType, LogicalType, SchemaElement, Type};
use crate::{Error, Result};

impl Schema {
    /// Rebuilds the tree from the footer's flattened schema (depth-first, groups carrying
    /// `num_children`) and validates it leniently.
    ///
    /// Structural problems are [`ErrorKind::Corrupt`]: an empty list, a `num_children`
    /// that is negative or larger than the elements left, a leaf without a type, a field
    /// without a repetition, nesting deeper than 128 levels, elements left over
    /// after the tree ends. Tolerated: a repetition on the root (ignored), a leaf written
    /// with `num_children = 0`, a converted type without a logical type (kept as is; see
    /// [`SchemaNode::effective_logical_type`]), an unknown logical type (kept; the column
    /// reads by its converted type if any, else as its physical type).
    ///
    /// [`ErrorKind::Corrupt`]: crate::ErrorKind::Corrupt
    pub(crate) fn from_elements(elements: &[SchemaElement]) -> Result<Schema> {
        if elements.is_empty() {
            return Err(Error::corrupt("the schema has no elements"));
        }
        let mut pos = 0;
        let root = build(elements, &mut pos, 0)?;
        if !root.is_group() {
            return Err(Error::corrupt(format!(
                "the schema root `{}` is a primitive, not a group",
                root.name
            )));
        }
        if pos != elements.len() {
            return Err(Error::corrupt(format!(
                "{} schema elements follow the end of the schema tree (at element {pos})",
                elements.len() - pos
            )));
        }
        Schema::with_mode(root, Mode::Lenient)
    }

    /// Flattens the tree depth-first into [`SchemaElement`]s for the footer. The root has no
    /// repetition; leaves carry their type, FIXED_LEN_BYTE_ARRAY length, and for decimals
    /// precision and scale (from the DECIMAL logical type when there is one).
    pub(crate) fn to_elements(&self) -> Vec<SchemaElement> {
        let mut out = Vec::new();
        flatten(self.root(), true, &mut out);
        out
    }
}

fn corrupt_at(index: usize, element: &SchemaElement, message: impl std::fmt::Display) -> Error {
    Error::corrupt(format!(
        "schema element {index} (`{}`): {message}",
        element.name
    ))
}

/// Builds the node starting at `elements[*pos]` and its subtree, advancing `pos`.
fn build(elements: &[SchemaElement], pos: &mut usize, depth: usize) -> Result<SchemaNode> {
    let index = *pos;
    let Some(e) = elements.get(index) else {
        return Err(Error::corrupt(format!(
            "the schema elements end at {index} inside a group"
        )));
    };
    *pos += 1;
    if depth > MAX_SCHEMA_DEPTH {
        return Err(corrupt_at(
            index,
            e,
            format!("schema nested deeper than {MAX_SCHEMA_DEPTH} levels"),
        ));
    }
    let num_children = match (e.num_children, e.r#type) {
        (Some(n), _) if n < 0 => {
            return Err(corrupt_at(index, e, format!("negative num_children {n}")))
        }
        // Some writers mark leaves with num_children = 0.
        (Some(0), Some(_)) | (None, Some(_)) => None,
        (Some(n), _) => Some(n),
        (None, None) => {
            return Err(corrupt_at(
                index,
                e,
                "a leaf without a physical type (neither type nor num_children is set)",
            ))
        }
    };
    let repetition = if depth == 0 {
        // The root has no repetition; one that is set anyway is ignored.
        Repetition::Required
    } else {
        e.repetition_type
            .ok_or_else(|| corrupt_at(index, e, "no repetition_type"))?
    };
    let kind = match num_children {
        Some(n) => {
            // Checked above: n >= 0, so the cast is lossless.
            let n = n as usize;
            let left = elements.len() - *pos;
            if n > left {
                return Err(corrupt_at(
                    index,
                    e,
                    format!("num_children {n} exceeds the {left} elements left"),
                ));
            }
            let mut fields = Vec::with_capacity(n);
            for _ in 0..n {
                fields.push(build(elements, pos, depth + 1)?);
            }
            NodeKind::Group { fields }
        }
        None => {
            // `type` is set on every leaf (see the match above).
            let physical_type = e.r#type.unwrap_or(Type::Unknown(-1));
            let (precision, scale) = match &e.logical_type {
                Some(LogicalType::Decimal { scale, precision }) => (*precision, *scale),
                _ => (e.precision.unwrap_or(0), e.scale.unwrap_or(0)),
            };
            NodeKind::Primitive {
                physical_type,
                type_length: e.type_length.unwrap_or(0),
                precision,
                scale,
            }
        }
    };
    Ok(SchemaNode {
        name: e.name.clone(),
        repetition,
        field_id: e.field_id,
        logical_type: e.logical_type.clone(),
        converted_type: e.converted_type,
        kind,
    })
}

fn flatten(node: &SchemaNode, is_root: bool, out: &mut Vec<SchemaElement>) {
    let repetition_type = if is_root { None } else { Some(node.repetition) };
    match &node.kind {
        NodeKind::Group { fields } => {
            out.push(SchemaElement {
                name: node.name.clone(),
                repetition_type,
                // A group of more than i32::MAX fields cannot exist in memory.
                num_children: Some(i32::try_from(fields.len()).unwrap_or(i32::MAX)),
                converted_type: node.converted_type,
                logical_type: node.logical_type.clone(),
                field_id: node.field_id,
                ..SchemaElement::default()
            });
            for field in fields {
                flatten(field, false, out);
            }
        }
        NodeKind::Primitive {
            physical_type,
            type_length,
            precision,
            scale,
        } => {
            let is_decimal = matches!(node.logical_type, Some(LogicalType::Decimal { .. }))
                || node.converted_type == Some(ConvertedType::Decimal);
            let (precision, scale) = match &node.logical_type {
                Some(LogicalType::Decimal { scale, precision }) => (*precision, *scale),
                _ => (*precision, *scale),
            };
            let keep = |v: i32| (is_decimal || v != 0).then_some(v);
            out.push(SchemaElement {
                r#type: Some(*physical_type),
                type_length: (*physical_type == Type::FixedLenByteArray || *type_length != 0)
                    .then_some(*type_length),
                repetition_type,
                name: node.name.clone(),
                num_children: None,
                converted_type: node.converted_type,
                scale: keep(scale),
                precision: keep(precision),
                field_id: node.field_id,
                logical_type: node.logical_type.clone(),
                vector_length: None,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::format::{FieldRepetitionType, TimeUnit};
    use crate::ErrorKind;

    fn group(name: &str, rep: Option<FieldRepetitionType>, n: i32) -> SchemaElement {
        SchemaElement {
            name: name.into(),
            repetition_type: rep,
            num_children: Some(n),
            ..SchemaElement::default()
        }
    }

    fn leaf(name: &str, rep: FieldRepetitionType, t: Type) -> SchemaElement {
        SchemaElement {
            name: name.into(),
            repetition_type: Some(rep),
            r#type: Some(t),
            ..SchemaElement::default()
        }
    }

    /// A footer schema as parquet-java/arrow write it, with legacy and modern annotations.
    fn sample() -> Vec<SchemaElement> {
        use FieldRepetitionType::*;
        vec![
            group("spark_schema", None, 5),
            SchemaElement {
                field_id: Some(1),
                ..leaf("id", Required, Type::Int64)
            },
            SchemaElement {
                converted_type: Some(ConvertedType::Utf8),
                logical_type: Some(LogicalType::String),
                ..leaf("name", Optional, Type::ByteArray)
            },
            SchemaElement {
                converted_type: Some(ConvertedType::List),
                logical_type: Some(LogicalType::List),
                ..group("tags", Some(Optional), 1)
            },
            group("list", Some(Repeated), 1),
            SchemaElement {
                converted_type: Some(ConvertedType::Decimal),
                logical_type: Some(LogicalType::Decimal {
                    scale: 2,
                    precision: 20,
                }),
                type_length: Some(9),
                precision: Some(20),
                scale: Some(2),
                ..leaf("element", Optional, Type::FixedLenByteArray)
            },
            // Legacy: converted type only.
            SchemaElement {
                converted_type: Some(ConvertedType::TimestampMillis),
                ..leaf("ts", Optional, Type::Int64)
            },
            // A logical type from the future.
            SchemaElement {
                logical_type: Some(LogicalType::Unknown(77)),
                ..leaf("future", Optional, Type::ByteArray)
            },
        ]
    }

    #[test]
    fn round_trip() {
        let elements = sample();
        let schema = Schema::from_elements(&elements).unwrap();
        assert_eq!(schema.name(), "spark_schema");
        assert_eq!(schema.num_columns(), 5);
        assert_eq!(schema.to_elements(), elements);
        let tags = schema.column(2).unwrap();
        assert_eq!(tags.path.to_string(), "tags.list.element");
        assert_eq!((tags.max_def_level, tags.max_rep_level), (3, 1));
        assert_eq!((tags.precision, tags.scale, tags.type_length), (20, 2, 9));
        let ts = schema.column(3).unwrap();
        assert_eq!(ts.logical_type, None);
        assert_eq!(ts.converted_type, Some(ConvertedType::TimestampMillis));
        assert_eq!(
            ts.effective_logical_type(),
            Some(LogicalType::Timestamp {
                is_adjusted_to_utc: true,
                unit: TimeUnit::Millis
            })
        );
        let future = schema.column(4).unwrap();
        assert_eq!(future.logical_type, Some(LogicalType::Unknown(77)));
        assert_eq!(future.effective_logical_type(), None);
        // Tree -> elements -> tree.
        let again = Schema::from_elements(&schema.to_elements()).unwrap();
        assert_eq!(again, schema);
    }

    #[test]
    fn tolerated_forms() {
        use FieldRepetitionType::*;
        // Root with a repetition; a leaf with num_children = 0.
        let elements = vec![
            group("root", Some(Required), 2),
            SchemaElement {
                num_children: Some(0),
                ..leaf("a", Optional, Type::Int32)
            },
            leaf("b", Repeated, Type::Boolean),
        ];
        let schema = Schema::from_elements(&elements).unwrap();
        assert_eq!(schema.num_columns(), 2);
        assert_eq!(schema.column(1).unwrap().max_rep_level, 1);
        // Empty root: a file with no columns.
        let schema = Schema::from_elements(&[group("root", None, 0)]).unwrap();
        assert_eq!(schema.num_columns(), 0);
        // Duplicate names and a 2-level list are accepted when reading.
        let elements = vec![
            group("root", None, 3),
            SchemaElement {
                converted_type: Some(ConvertedType::List),
                ..group("l", Some(Optional), 1)
            },
            leaf("element", Repeated, Type::Int32),
            leaf("x", Optional, Type::Int32),
            leaf("x", Optional, Type::Int64),
        ];
        let schema = Schema::from_elements(&elements).unwrap();
        assert_eq!(schema.column_index("x"), Some(1));
        // The strict rules (for writing) reject the duplicate.
        assert!(schema.validate_strict().is_err());
    }

    fn assert_corrupt(elements: &[SchemaElement]) {
        let e = Schema::from_elements(elements).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Corrupt, "{e}");
    }

    #[test]
    fn malformed_lists() {
        use FieldRepetitionType::*;
        assert_corrupt(&[]);
        // num_children larger than what is left.
        assert_corrupt(&[group("r", None, 3), leaf("a", Required, Type::Int32)]);
        assert_corrupt(&[group("r", None, i32::MAX), leaf("a", Required, Type::Int32)]);
        // Negative num_children.
        assert_corrupt(&[group("r", None, -1), leaf("a", Required, Type::Int32)]);
        assert_corrupt(&[group("r", None, 1), group("g", Some(Optional), i32::MIN)]);
        // Leaf without a type.
        assert_corrupt(&[
            group("r", None, 1),
            SchemaElement {
                name: "a".into(),
                repetition_type: Some(Required),
                ..SchemaElement::default()
            },
        ]);
        // Field without a repetition.
        assert_corrupt(&[
            group("r", None, 1),
            SchemaElement {
                name: "a".into(),
                r#type: Some(Type::Int32),
                ..SchemaElement::default()
            },
        ]);
        // Elements after the tree.
        assert_corrupt(&[
            group("r", None, 1),
            leaf("a", Required, Type::Int32),
            leaf("b", Required, Type::Int32),
        ]);
        // Primitive root.
        assert_corrupt(&[leaf("a", Required, Type::Int32)]);
        // Depth bomb: a long chain of one-child groups.
        let mut bomb = vec![group("r", None, 1)];
        for i in 0..100_000 {
            bomb.push(group(&format!("g{i}"), Some(Optional), 1));
        }
        bomb.push(leaf("x", Required, Type::Int32));
        assert_corrupt(&bomb);
        // Annotation mismatch is a schema error.
        let e = Schema::from_elements(&[
            group("r", None, 1),
            SchemaElement {
                logical_type: Some(LogicalType::String),
                ..leaf("a", Required, Type::Int32)
            },
        ])
        .unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Schema);
        // FIXED_LEN_BYTE_ARRAY without a length.
        let e = Schema::from_elements(&[
            group("r", None, 1),
            leaf("a", Required, Type::FixedLenByteArray),
        ])
        .unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Schema);
    }

    #[test]
    fn every_truncation_is_an_error() {
        let elements = sample();
        for len in 0..elements.len() {
            assert!(
                Schema::from_elements(&elements[..len]).is_err(),
                "len {len}"
            );
        }
    }
}
