//! How a schema reads: the shape of each group (struct, LIST, MAP) and the value conversion
//! of each leaf, decided once here by the rules of LogicalTypes.md (its
//! backward-compatibility sections included) for every part of the library that reads or
//! writes rows.
//!
//! The rules are documented on [`GroupShape`] (groups) and [`Conversion`] (leaves).

use super::annotation::{check_converted_on_leaf, check_logical_on_leaf, logical_type_for, Leaf};
use super::{NodeKind, Repetition, SchemaNode};
use crate::core::format::{ConvertedType, LogicalType, TimeUnit, Type};
use crate::core::values::ByteCheck;

/// What a group's annotation claims it is (see [`SchemaNode::container_annotation`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ContainerAnnotation {
    /// LIST.
    List,
    /// MAP, or the legacy MAP_KEY_VALUE used in its place.
    Map,
}

/// How a group reads.
///
/// [`SchemaNode::container_annotation`] says what a group *claims* to be:
/// the LogicalType decides (LIST, MAP); when it is absent or one this library does not know,
/// the legacy ConvertedType decides (LIST; MAP; MAP_KEY_VALUE, which old writers put in
/// place of MAP). [`SchemaNode::group_shape`] says how the group *reads*:
///
/// - A LIST-annotated group whose only field is repeated is a [`ListShape`]. Its element is
///   decided by the backward-compatibility rules ([`ListLayout`]): the repeated field itself
///   when it is a primitive, a group of several fields, a group named `array` or
///   `<list name>_tuple`, or a group whose only field is repeated (parquet-java's rule, which
///   `old_list_structure.parquet` needs: `repeated group array (LIST) { repeated int32
///   array; }` is a list of lists); otherwise the repeated group's only field (the 3-level
///   layout, whatever the levels are named).
/// - A MAP-annotated group whose only field is a repeated group of one or two fields is a
///   [`MapShape`]: key first, value second when present (names are not enforced; the key
///   may be optional, as in `incorrect_map_schema.parquet`). A MAP without a value column
///   reads as a map whose values are all null.
/// - A MAP-annotated group whose only field is repeated but is not such a group (a repeated
///   primitive, a group of three fields) reads leniently as a LIST of that repeated field,
///   by the LIST rules.
/// - Anything else is a [`GroupShape::Struct`], an annotated group whose layout does not fit
///   its annotation included (readers fall back to the fields as they are; strict
///   validation and the writer report the layout instead).
///
/// The group's own repetition does not matter: a repeated LIST group is a list of lists.
/// A repeated field that is not the repeated level of a LIST or MAP shape (a "bare"
/// repeated field, `repeated int32 x;` or `repeated group phone { ... }` inside a struct) is
/// a required list of required elements, each element being the field itself.
///
/// The repeated level of a MAP (`key_value`) is the map's entries, a struct of the key and
/// the value, whatever its own annotation: old writers annotate it MAP_KEY_VALUE, which only
/// means MAP outside a MAP-annotated group. Its own [`group_shape`] is therefore never the
/// answer for it; walkers of the whole tree take [`MapShape::key_value`] as a struct.
///
/// [`group_shape`]: SchemaNode::group_shape
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum GroupShape<'a> {
    /// A struct of named fields (also an annotated group whose layout does not fit).
    Struct,
    /// A list.
    List(ListShape<'a>),
    /// A map.
    Map(MapShape<'a>),
}

/// A list: its repeated level and its element node.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ListShape<'a> {
    /// The group's only field, repeated: one instance per list entry.
    pub repeated: &'a SchemaNode,
    /// The element node: `repeated` itself, or its only field in the 3-level layout.
    pub element: &'a SchemaNode,
    /// Which rule chose the element.
    pub layout: ListLayout,
}

impl ListShape<'_> {
    /// Whether the repeated level is itself the element (every layout but the 3-level
    /// one). Such elements are required: their repetition is the list's.
    pub fn element_is_repeated(&self) -> bool {
        self.layout != ListLayout::ThreeLevel
    }
}

/// The rule of LogicalTypes.md that decided a list's element.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ListLayout {
    /// `repeated group <any name> { <element> }`: the element is the repeated group's only
    /// field (names are not enforced).
    ThreeLevel,
    /// `repeated <primitive> <name>;`: the repeated field is the element.
    RepeatedPrimitive,
    /// A repeated group of several fields is the element (a struct).
    MultiField,
    /// A repeated group named `array` is the element.
    ArrayName,
    /// A repeated group named `<list name>_tuple` is the element.
    TupleName,
    /// A repeated group whose only field is itself repeated is the element (a list of
    /// lists in 2-level layouts).
    RepeatedOnlyField,
}

/// A map: its repeated key/value level, its key and its optional value.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MapShape<'a> {
    /// The group's only field, a repeated group: one instance per entry. It reads as the
    /// entries, never by its own annotation.
    pub key_value: &'a SchemaNode,
    /// The key: the first field of `key_value`.
    pub key: &'a SchemaNode,
    /// The value: the second field of `key_value`, `None` when there is none (every value
    /// then reads as null).
    pub value: Option<&'a SchemaNode>,
}

/// How a leaf's physical values become typed values ([`SchemaNode::conversion`]).
///
/// [`SchemaNode::conversion`] says how a leaf's physical values become typed values
/// ([`Conversion`]). INT96 is always [`Conversion::Int96`]. Otherwise the LogicalType
/// decides when this library knows it (a TIME or TIMESTAMP with an unknown unit counts as
/// unknown) and it may annotate the leaf's physical type; failing that, the legacy
/// ConvertedType decides under the same condition (so an old writer's UTF8 or UINT_8
/// column beside a LogicalType from a newer format version still reads as text or as an
/// unsigned integer); failing that, the physical value reads as it is
/// ([`Conversion::Plain`]). A known LogicalType always wins over the ConvertedType, also
/// when it reads as plain values (BSON, UNKNOWN/null, GEOMETRY, ...).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Conversion {
    /// The physical value as it is: BOOLEAN, INT32, INT64, FLOAT, DOUBLE, or the bytes of a
    /// BYTE_ARRAY / FIXED_LEN_BYTE_ARRAY (unannotated, BSON, INTERVAL, UNKNOWN, GEOMETRY,
    /// GEOGRAPHY, or an annotation this library does not know).
    Plain,
    /// UTF-8 text in a BYTE_ARRAY.
    Text(TextKind),
    /// An integer annotated with its width and signedness (INT32 for widths 8 to 32,
    /// INT64 for 64). An unsigned one stores its bits in the signed physical type.
    Integer {
        /// 8, 16, 32 or 64.
        bit_width: u8,
        /// Whether the integer is signed.
        signed: bool,
    },
    /// Days since 1970-01-01 (INT32).
    Date,
    /// Time of day in `unit` (INT32 for milliseconds, INT64 otherwise).
    Time {
        /// Milliseconds, microseconds or nanoseconds (never [`TimeUnit::Unknown`]).
        unit: TimeUnit,
        /// Whether the time is adjusted to UTC (legacy TIME_* annotations: `true`).
        utc: bool,
    },
    /// Units since the epoch (INT64).
    Timestamp {
        /// Milliseconds, microseconds or nanoseconds (never [`TimeUnit::Unknown`]).
        unit: TimeUnit,
        /// Whether the instant is adjusted to UTC (legacy TIMESTAMP_* annotations: `true`).
        utc: bool,
    },
    /// An unscaled decimal: INT32, INT64, or big-endian two's complement bytes.
    Decimal {
        /// Decimal digits.
        precision: i32,
        /// Digits after the point.
        scale: i32,
    },
    /// A 16-byte UUID (FIXED_LEN_BYTE_ARRAY(16)).
    Uuid,
    /// An IEEE 754 half float (FIXED_LEN_BYTE_ARRAY(2)), little-endian.
    Float16,
    /// A legacy INT96 timestamp: nanoseconds of the day and a Julian day number.
    Int96,
}

/// The flavour of a [`Conversion::Text`] leaf.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TextKind {
    /// STRING (or legacy UTF8).
    String,
    /// ENUM.
    Enum,
    /// JSON.
    Json,
}

impl SchemaNode {
    /// What the annotation of this group claims it is: the LogicalType's LIST or MAP, or
    /// when the LogicalType is absent or unknown the ConvertedType's LIST, MAP or
    /// MAP_KEY_VALUE. `None` for other annotations and for primitives.
    pub(crate) fn container_annotation(&self) -> Option<ContainerAnnotation> {
        if !self.is_group() {
            return None;
        }
        match &self.logical_type {
            Some(LogicalType::List) => Some(ContainerAnnotation::List),
            Some(LogicalType::Map) => Some(ContainerAnnotation::Map),
            None | Some(LogicalType::Unknown(_)) => match self.converted_type {
                Some(ConvertedType::List) => Some(ContainerAnnotation::List),
                Some(ConvertedType::Map | ConvertedType::MapKeyValue) => {
                    Some(ContainerAnnotation::Map)
                }
                _ => None,
            },
            Some(_) => None,
        }
    }

    /// How this group reads as a field (see [`GroupShape`] for the rules); `None` for a
    /// primitive.
    pub(crate) fn group_shape(&self) -> Option<GroupShape<'_>> {
        let NodeKind::Group { fields } = &self.kind else {
            return None;
        };
        let Some(annotation) = self.container_annotation() else {
            return Some(GroupShape::Struct);
        };
        let [repeated] = fields.as_slice() else {
            return Some(GroupShape::Struct);
        };
        if repeated.repetition != Repetition::Repeated {
            return Some(GroupShape::Struct);
        }
        if annotation == ContainerAnnotation::Map {
            if let [key, rest @ ..] = repeated.fields() {
                if rest.len() <= 1 {
                    return Some(GroupShape::Map(MapShape {
                        key_value: repeated,
                        key,
                        value: rest.first(),
                    }));
                }
            }
        }
        let layout = list_layout(&self.name, repeated);
        let element = match (layout, repeated.fields()) {
            (ListLayout::ThreeLevel, [only]) => only,
            _ => repeated,
        };
        Some(GroupShape::List(ListShape {
            repeated,
            element,
            layout,
        }))
    }

    /// How this leaf's physical values read (see [`Conversion`] for the rules);
    /// `None` for a group.
    pub(crate) fn conversion(&self) -> Option<Conversion> {
        let NodeKind::Primitive {
            physical_type,
            type_length,
            precision,
            scale,
        } = self.kind
        else {
            return None;
        };
        if physical_type == Type::Int96 {
            return Some(Conversion::Int96);
        }
        let leaf = Leaf {
            physical_type,
            type_length,
            precision,
            scale,
        };
        let logical = self
            .logical_type
            .as_ref()
            .filter(|lt| check_logical_on_leaf(lt, &leaf).is_ok())
            .and_then(known_conversion);
        let legacy = || {
            self.converted_type
                .filter(|&ct| check_converted_on_leaf(ct, &leaf).is_ok())
                .and_then(|ct| logical_type_for(ct, precision, scale))
                .as_ref()
                .and_then(known_conversion)
        };
        Some(logical.or_else(legacy).unwrap_or(Conversion::Plain))
    }

    /// Whether this leaf's annotation asks anything of the bytes of its values (STRING,
    /// ENUM, JSON, BSON): whether [`check_bytes`](Self::check_bytes) can fail.
    pub fn checks_bytes(&self) -> bool {
        self.byte_check() != ByteCheck::None
    }

    /// Checks `value` against what this leaf's annotation asks of the bytes of its values,
    /// as the writer does and the CLI's `check` verifies: UTF-8 for STRING and ENUM, JSON
    /// text (as serde_json parses it, no lone surrogate escape) for JSON, one document for
    /// BSON; any bytes for other nodes. The [`ErrorKind::Data`](crate::ErrorKind::Data)
    /// error says what is wrong, without quoting the value.
    ///
    /// ```
    /// use parquet_serde::core::schema::Schema;
    /// let s: Schema = "message m { required binary j (JSON); required binary b (BSON); }"
    ///     .parse()
    ///     .unwrap();
    /// let (json, bson) = (&s.fields()[0], &s.fields()[1]);
    /// assert!(json.checks_bytes() && bson.checks_bytes());
    /// assert!(json.check_bytes(br#"{"a": [1, null]}"#).is_ok());
    /// let e = json.check_bytes(b"{bad json").unwrap_err();
    /// assert!(e.message().starts_with("a value of the JSON column is not valid JSON"));
    /// // The smallest BSON document: its length (5), no element, the terminator.
    /// assert!(bson.check_bytes(&[5, 0, 0, 0, 0]).is_ok());
    /// assert!(bson.check_bytes(b"{}").is_err());
    /// ```
    pub fn check_bytes(&self, value: &[u8]) -> crate::Result<()> {
        let check = self.byte_check();
        check.check(value).map_err(|why| {
            let kind = match check {
                ByteCheck::Json => "JSON",
                ByteCheck::Bson => "BSON",
                _ => "string",
            };
            crate::Error::data(format!("a value of the {kind} column is {why}"))
        })
    }

    /// What this leaf's annotation asks of the bytes of its values
    /// ([`ByteCheck::None`] for other nodes).
    pub(crate) fn byte_check(&self) -> ByteCheck {
        match (self.conversion(), &self.kind) {
            (Some(Conversion::Text(TextKind::Json)), _) => ByteCheck::Json,
            (Some(Conversion::Text(_)), _) => ByteCheck::Utf8,
            (
                Some(Conversion::Plain),
                NodeKind::Primitive {
                    physical_type: Type::ByteArray,
                    precision,
                    scale,
                    ..
                },
            ) if effective_logical_type(
                self.logical_type.as_ref(),
                self.converted_type,
                *precision,
                *scale,
            ) == Some(LogicalType::Bson) =>
            {
                ByteCheck::Bson
            }
            _ => ByteCheck::None,
        }
    }
}

/// The logical type a stored pair of annotations stands for, by the rule of
/// [`SchemaNode::conversion`] without its physical-type check: the LogicalType when this
/// library knows it (an unknown member or a TIME/TIMESTAMP with an unknown unit is not
/// known), otherwise the one the legacy ConvertedType stands for.
pub(crate) fn effective_logical_type(
    logical: Option<&LogicalType>,
    converted: Option<ConvertedType>,
    precision: i32,
    scale: i32,
) -> Option<LogicalType> {
    match logical {
        Some(
            LogicalType::Unknown(_)
            | LogicalType::Time {
                unit: TimeUnit::Unknown(_),
                ..
            }
            | LogicalType::Timestamp {
                unit: TimeUnit::Unknown(_),
                ..
            },
        )
        | None => converted.and_then(|ct| logical_type_for(ct, precision, scale)),
        Some(lt) => Some(lt.clone()),
    }
}

/// The rule choosing a list's element, for the list group named `list_name` whose only
/// field is `repeated`.
pub(super) fn list_layout(list_name: &str, repeated: &SchemaNode) -> ListLayout {
    match repeated.fields() {
        _ if repeated.is_primitive() => ListLayout::RepeatedPrimitive,
        [only] => {
            if repeated.name == "array" {
                ListLayout::ArrayName
            } else if repeated.name.strip_suffix("_tuple") == Some(list_name) {
                ListLayout::TupleName
            } else if only.repetition == Repetition::Repeated {
                ListLayout::RepeatedOnlyField
            } else {
                ListLayout::ThreeLevel
            }
        }
        _ => ListLayout::MultiField,
    }
}

/// The conversion a logical type stands for on a leaf it may annotate; `None` when this
/// library does not know the logical type (an unknown member, a time unit it does not know,
/// a group annotation).
fn known_conversion(logical: &LogicalType) -> Option<Conversion> {
    let known_unit = |unit: &TimeUnit| !matches!(unit, TimeUnit::Unknown(_));
    Some(match logical {
        LogicalType::String => Conversion::Text(TextKind::String),
        LogicalType::Enum => Conversion::Text(TextKind::Enum),
        LogicalType::Json => Conversion::Text(TextKind::Json),
        LogicalType::Integer {
            bit_width,
            is_signed,
        } => Conversion::Integer {
            bit_width: u8::try_from(*bit_width).ok()?,
            signed: *is_signed,
        },
        LogicalType::Date => Conversion::Date,
        LogicalType::Time {
            is_adjusted_to_utc,
            unit,
        } if known_unit(unit) => Conversion::Time {
            unit: *unit,
            utc: *is_adjusted_to_utc,
        },
        LogicalType::Timestamp {
            is_adjusted_to_utc,
            unit,
        } if known_unit(unit) => Conversion::Timestamp {
            unit: *unit,
            utc: *is_adjusted_to_utc,
        },
        LogicalType::Decimal { scale, precision } => Conversion::Decimal {
            precision: *precision,
            scale: *scale,
        },
        LogicalType::Uuid => Conversion::Uuid,
        LogicalType::Float16 => Conversion::Float16,
        LogicalType::Bson
        | LogicalType::Null
        | LogicalType::Geometry { .. }
        | LogicalType::Geography { .. } => Conversion::Plain,
        LogicalType::Time { .. }
        | LogicalType::Timestamp { .. }
        | LogicalType::Unknown(_)
        | LogicalType::List
        | LogicalType::Map
        | LogicalType::Variant { .. }
        | LogicalType::Vector => return None,
    })
}

#[cfg(test)]
mod tests;

/// The examples that were doc tests while these items were public.
#[cfg(test)]
mod doc_examples {
    #[test]
    fn container_annotation_example() {
        use crate::core::schema::{ContainerAnnotation, Schema};
        let s: Schema = "message m { optional group l (LIST) { repeated int32 x; } }"
            .parse()
            .unwrap();
        assert_eq!(
            s.fields()[0].container_annotation(),
            Some(ContainerAnnotation::List)
        );
    }

    #[test]
    fn group_shape_example() {
        use crate::core::schema::{GroupShape, ListLayout, Schema};
        let s: Schema = "message m {
          optional group a (LIST) { repeated group list { optional int32 element; } }
          optional group b (LIST) { repeated int32 b; }
        }"
        .parse()
        .unwrap();
        let Some(GroupShape::List(a)) = s.fields()[0].group_shape() else {
            panic!()
        };
        assert_eq!(
            (a.layout, a.element.name.as_str()),
            (ListLayout::ThreeLevel, "element")
        );
        let Some(GroupShape::List(b)) = s.fields()[1].group_shape() else {
            panic!()
        };
        assert_eq!(b.layout, ListLayout::RepeatedPrimitive);
        assert!(b.element_is_repeated());
    }

    #[test]
    fn conversion_example() {
        use crate::core::schema::{Conversion, Schema, TextKind};
        let s: Schema = "message m { required binary s (UTF8); required int32 u (UINT_16); }"
            .parse()
            .unwrap();
        assert_eq!(
            s.fields()[0].conversion(),
            Some(Conversion::Text(TextKind::String))
        );
        assert_eq!(
            s.fields()[1].conversion(),
            Some(Conversion::Integer {
                bit_width: 16,
                signed: false
            })
        );
    }
}
