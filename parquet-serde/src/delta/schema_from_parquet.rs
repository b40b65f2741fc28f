//! The Delta schema string of a Parquet schema (PROTOCOL.md, "Schema Serialization Format"):
//! nested groups as `struct`, lists as `array`, maps as `map`, decimals, dates, timestamps
//! (`timestamp` for instants, `timestamp_ntz` for local date-times, which needs the
//! `timestampNtz` table feature), and VARIANT groups as `variant`, which needs the
//! `variantType` table feature (delta-rs 1.6.6 reads it, as the struct of the two binaries);
//! a shredded VARIANT (with `typed_value`) stays the struct of its binaries `metadata` and
//! `value`, which every reader reads (see [`Needs`]).

use serde_json::{json, Value as Json};

use crate::core::format::{LogicalType, Type};
use crate::core::schema::GroupShape;
use crate::core::schema::{NodeKind, Repetition, SchemaNode};
use crate::error::{Error, Result};

/// The table features the schema needs beyond protocol (1, 2).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Needs {
    /// A `timestamp_ntz` column: reader 3 / writer 7 with the `timestampNtz` feature.
    pub timestamp_ntz: bool,
    /// A `variant` column: reader 3 / writer 7 with the `variantType` feature.
    pub variant: bool,
}

/// The type of a partition column (`date=…` is a date, `hour=…` an integer).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum PartitionType {
    Date,
    Integer,
    String,
}

impl PartitionType {
    /// The narrowest type every value parses as (`None` values are nulls).
    pub(crate) fn of<'a>(values: impl Iterator<Item = Option<&'a str>> + Clone) -> Self {
        let present = values.flatten();
        if present.clone().all(is_plain_date) {
            PartitionType::Date
        } else if present.clone().all(|v| v.parse::<i32>().is_ok()) {
            PartitionType::Integer
        } else {
            PartitionType::String
        }
    }

    fn name(self) -> &'static str {
        match self {
            PartitionType::Date => "date",
            PartitionType::Integer => "integer",
            PartitionType::String => "string",
        }
    }
}

fn is_plain_date(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 10
        && b[4] == b'-'
        && b[7] == b'-'
        && b.iter()
            .enumerate()
            .all(|(i, c)| i == 4 || i == 7 || c.is_ascii_digit())
}

/// The schema string of a file whose root is `root`, with the partition columns appended
/// (they live in the folder names, not in the files).
pub(crate) fn schema_string(
    root: &SchemaNode,
    partitions: &[(String, PartitionType)],
) -> Result<(String, Needs)> {
    let mut needs = Needs::default();
    let mut fields = Vec::new();
    for field in root.fields() {
        if partitions.iter().any(|(p, _)| p == &field.name) {
            return Err(Error::schema(format!(
                "column `{}` is both in the files and a partition folder",
                field.name
            )));
        }
        fields.push(struct_field(field, &mut needs)?);
    }
    for (name, ty) in partitions {
        fields.push(json!({"name": name, "type": ty.name(), "nullable": true, "metadata": {}}));
    }
    let schema = json!({"type": "struct", "fields": fields});
    Ok((schema.to_string(), needs))
}

fn struct_field(node: &SchemaNode, needs: &mut Needs) -> Result<Json> {
    Ok(json!({
        "name": node.name,
        "type": data_type(node, needs)?,
        "nullable": node.repetition != Repetition::Required,
        "metadata": {},
    }))
}

/// A node's Delta type; a repeated node outside a LIST/MAP is an array of its own type.
fn data_type(node: &SchemaNode, needs: &mut Needs) -> Result<Json> {
    let inner = element_type(node, needs)?;
    if node.repetition == Repetition::Repeated {
        return Ok(json!({"type": "array", "elementType": inner, "containsNull": false}));
    }
    Ok(inner)
}

/// A node's type ignoring its own repetition.
fn element_type(node: &SchemaNode, needs: &mut Needs) -> Result<Json> {
    match &node.kind {
        NodeKind::Primitive { .. } => Ok(Json::String(primitive_type(node, needs)?)),
        NodeKind::Group { fields } => {
            if let Some(LogicalType::Variant { .. }) = node.logical_type {
                // Unshredded (the two binaries alone): Delta's `variant` type, as delta-rs
                // 1.6.6 reads it. Shredded: `variantShredding` is a preview feature no reader
                // here takes, so the struct of the two binaries (the `typed_value` column is
                // left undeclared: readers skip it).
                let unshredded = fields.len() == 2
                    && fields
                        .iter()
                        .all(|f| f.name == "metadata" || f.name == "value");
                if unshredded {
                    needs.variant = true;
                    return Ok(Json::String("variant".into()));
                }
                return Ok(json!({"type": "struct", "fields": [
                    {"name": "metadata", "type": "binary", "nullable": false, "metadata": {}},
                    {"name": "value", "type": "binary", "nullable": false, "metadata": {}},
                ]}));
            }
            match node.group_shape() {
                Some(GroupShape::List(list)) => {
                    let element = element_type(list.element, needs)?;
                    let contains_null = !list.element_is_repeated()
                        && list.element.repetition != Repetition::Required;
                    Ok(
                        json!({"type": "array", "elementType": element, "containsNull": contains_null}),
                    )
                }
                Some(GroupShape::Map(map)) => {
                    let key = element_type(map.key, needs)?;
                    let (value, value_null) = match map.value {
                        Some(v) => (
                            element_type(v, needs)?,
                            v.repetition != Repetition::Required,
                        ),
                        None => (Json::String("string".into()), true),
                    };
                    Ok(json!({"type": "map", "keyType": key, "valueType": value,
                              "valueContainsNull": value_null}))
                }
                _ => {
                    let mut out = Vec::with_capacity(fields.len());
                    for f in fields {
                        out.push(struct_field(f, needs)?);
                    }
                    Ok(json!({"type": "struct", "fields": out}))
                }
            }
        }
    }
}

fn primitive_type(node: &SchemaNode, needs: &mut Needs) -> Result<String> {
    let physical = node.physical_type().unwrap_or(Type::ByteArray);
    let unsupported = |what: &str| {
        Err(Error::unsupported(format!(
            "column `{}`: {what} has no Delta type",
            node.name
        )))
    };
    let logical = node.effective_logical_type();
    Ok(match (physical, logical) {
        (_, Some(LogicalType::Decimal { scale, precision })) => {
            if !(1..=38).contains(&precision) || scale < 0 || scale > precision {
                return unsupported(&format!("DECIMAL({precision}, {scale})"));
            }
            format!("decimal({precision},{scale})")
        }
        (Type::Boolean, _) => "boolean".into(),
        (Type::Int32, Some(LogicalType::Date)) => "date".into(),
        (
            Type::Int32 | Type::Int64,
            Some(LogicalType::Integer {
                bit_width,
                is_signed,
            }),
        ) => {
            match (bit_width, is_signed) {
                (8, true) => "byte".into(),
                (16, true) | (8, false) => "short".into(),
                (32, true) | (16, false) => "integer".into(),
                (64, true) | (32, false) => "long".into(),
                // Every u64 fits DECIMAL(20, 0), exactly.
                (64, false) => "decimal(20,0)".into(),
                _ => return unsupported(&format!("INTEGER({bit_width}, {is_signed})")),
            }
        }
        (
            Type::Int64,
            Some(LogicalType::Timestamp {
                is_adjusted_to_utc, ..
            }),
        ) => {
            if is_adjusted_to_utc {
                "timestamp".into()
            } else {
                needs.timestamp_ntz = true;
                "timestamp_ntz".into()
            }
        }
        (Type::Int32 | Type::Int64, Some(LogicalType::Time { .. })) => {
            return unsupported("TIME");
        }
        (Type::Int32, _) => "integer".into(),
        (Type::Int64, _) => "long".into(),
        (Type::Int96, _) => "timestamp".into(),
        (Type::Float, _) => "float".into(),
        (Type::Double, _) => "double".into(),
        (Type::ByteArray, Some(LogicalType::String | LogicalType::Enum | LogicalType::Json)) => {
            "string".into()
        }
        (Type::FixedLenByteArray, Some(LogicalType::Float16)) => return unsupported("FLOAT16"),
        (Type::ByteArray | Type::FixedLenByteArray, _) => "binary".into(),
        _ => return unsupported(&format!("{physical:?}")),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::schema::Schema;

    #[test]
    fn nested_types_map_to_delta_types() {
        let schema = Schema::parse(
            "message m {
              required int64 ts (TIMESTAMP(MICROS,true));
              optional int64 local (TIMESTAMP(MILLIS,false));
              optional binary msg (STRING);
              optional fixed_len_byte_array(9) amount (DECIMAL(20,2));
              optional int32 d (DATE);
              optional int32 small (INTEGER(16,true));
              optional group tags (LIST) { repeated group list { optional binary element (STRING); } }
              optional group attrs (MAP) { repeated group key_value {
                 required binary key (STRING); required double value; } }
              optional group inner { required boolean ok; }
              optional group fields (VARIANT(1)) { required binary metadata; required binary value; }
            }",
        )
        .unwrap();
        let (text, needs) = schema_string(
            schema.root(),
            &[
                ("date".into(), PartitionType::Date),
                ("hour".into(), PartitionType::Integer),
            ],
        )
        .unwrap();
        assert!(needs.timestamp_ntz);
        assert!(needs.variant);
        let v: Json = serde_json::from_str(&text).unwrap();
        let ty = |i: usize| v["fields"][i]["type"].clone();
        assert_eq!(ty(0), "timestamp");
        assert_eq!(v["fields"][0]["nullable"], false);
        assert_eq!(ty(1), "timestamp_ntz");
        assert_eq!(ty(2), "string");
        assert_eq!(ty(3), "decimal(20,2)");
        assert_eq!(ty(4), "date");
        assert_eq!(ty(5), "short");
        assert_eq!(
            ty(6),
            json!({"type":"array","elementType":"string","containsNull":true})
        );
        assert_eq!(
            ty(7),
            json!({"type":"map","keyType":"string","valueType":"double","valueContainsNull":false})
        );
        assert_eq!(ty(8)["fields"][0]["type"], "boolean");
        assert_eq!(ty(9), "variant");
        assert_eq!(ty(10), "date");
        assert_eq!(v["fields"][11]["name"], "hour");
        assert_eq!(ty(11), "integer");

        // A shredded VARIANT: the struct of its two binaries, no feature.
        let shredded = Schema::parse(
            "message m { optional group v (VARIANT(1)) { required binary metadata;
               optional binary value; optional int64 typed_value; } }",
        )
        .unwrap();
        let (text, needs) = schema_string(shredded.root(), &[]).unwrap();
        assert!(!needs.variant);
        let v: Json = serde_json::from_str(&text).unwrap();
        assert_eq!(v["fields"][0]["type"]["fields"][1]["name"], "value");

        let err =
            schema_string(schema.root(), &[("msg".into(), PartitionType::String)]).unwrap_err();
        assert!(err.to_string().contains("`msg`"), "{err}");
        let time = Schema::parse("message m { required int64 t (TIME(MICROS,true)); }").unwrap();
        let err = schema_string(time.root(), &[]).unwrap_err();
        assert!(err.to_string().contains("column `t`: TIME"), "{err}");
    }

    #[test]
    fn partition_types_are_the_narrowest() {
        let of = |v: &[Option<&str>]| PartitionType::of(v.iter().copied());
        assert_eq!(of(&[Some("2026-11-24"), None]), PartitionType::Date);
        assert_eq!(of(&[Some("07"), Some("23")]), PartitionType::Integer);
        assert_eq!(of(&[Some("07"), Some("x")]), PartitionType::String);
    }
}
