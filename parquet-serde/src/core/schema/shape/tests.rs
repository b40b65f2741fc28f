//! Unit tests of the shape and conversion rules, on schemas written as message-type text
//! (the layouts the parquet-testing corpus lacks) and built in code (annotations the text
//! cannot spell, such as an unknown LogicalType).

use super::*;
use crate::core::format::{ConvertedType, LogicalType, TimeUnit, Type};
use crate::core::schema::Schema;

fn schema(text: &str) -> Schema {
    text.parse()
        .unwrap_or_else(|e| panic!("{e}\nin schema:\n{text}"))
}

/// The shape of the top-level field `name`, summarised as text for table comparisons:
/// `struct`, `list <layout> <repeated name> -> <element name>` or
/// `map <key_value name> <key name> [value name]`.
fn shape_of(s: &Schema, name: &str) -> String {
    let node = s.root().field(name).unwrap();
    summary(node.group_shape().unwrap())
}

fn summary(shape: GroupShape<'_>) -> String {
    match shape {
        GroupShape::Struct => "struct".into(),
        GroupShape::List(l) => format!(
            "list {:?} {} -> {}",
            l.layout, l.repeated.name, l.element.name
        ),
        GroupShape::Map(m) => format!(
            "map {} {} {}",
            m.key_value.name,
            m.key.name,
            m.value.map_or("-", |v| v.name.as_str())
        ),
    }
}

#[test]
fn list_layouts() {
    let s = schema(
        "message m {
           optional group standard (LIST) { repeated group list { optional int32 element; } }
           optional group misnamed (LIST) { repeated group element { required binary str (STRING); } }
           optional group prim (LIST) { repeated int32 element; }
           optional group multi (LIST) { repeated group element { required binary str (STRING); required int32 num; } }
           optional group arr (LIST) { repeated group array { required binary str (STRING); } }
           optional group my_list (LIST) { repeated group my_list_tuple { required binary str (STRING); } }
           optional group other_tuple (LIST) { repeated group my_list_tuple { required binary str (STRING); } }
           optional group nested (LIST) { repeated group array (LIST) { repeated int32 array; } }
           optional group rep_only (LIST) { repeated group bag { repeated int32 x; } }
           repeated group rep_list (LIST) { repeated group list { required int32 element; } }
           optional group legacy (LIST) { repeated group bag { optional int64 x; } }
         }",
    );
    let table = [
        ("standard", "list ThreeLevel list -> element"),
        ("misnamed", "list ThreeLevel element -> str"),
        ("prim", "list RepeatedPrimitive element -> element"),
        ("multi", "list MultiField element -> element"),
        ("arr", "list ArrayName array -> array"),
        ("my_list", "list TupleName my_list_tuple -> my_list_tuple"),
        // `_tuple` counts only with the list's own name.
        ("other_tuple", "list ThreeLevel my_list_tuple -> str"),
        ("nested", "list ArrayName array -> array"),
        ("rep_only", "list RepeatedOnlyField bag -> bag"),
        // The group's own repetition does not matter.
        ("rep_list", "list ThreeLevel list -> element"),
        ("legacy", "list ThreeLevel bag -> x"),
    ];
    for (name, want) in table {
        assert_eq!(shape_of(&s, name), want, "{name}");
    }
    // The element of `nested` is itself a list (of its repeated primitive).
    let nested = s.root().field("nested").unwrap();
    let Some(GroupShape::List(outer)) = nested.group_shape() else {
        panic!("nested is a list")
    };
    assert!(outer.element_is_repeated());
    assert_eq!(
        summary(outer.element.group_shape().unwrap()),
        "list RepeatedPrimitive array -> array"
    );
    let Some(GroupShape::List(standard)) = s.root().field("standard").unwrap().group_shape() else {
        panic!()
    };
    assert!(!standard.element_is_repeated());
}

#[test]
fn map_layouts() {
    let s = schema(
        "message m {
           required group standard (MAP) { repeated group key_value { required binary key (STRING); optional int32 value; } }
           required group keys (MAP) { repeated group key_value { required int32 key; } }
           optional group legacy (MAP_KEY_VALUE) { repeated group map { required binary key (UTF8); optional int32 value; } }
           optional group impala (MAP) { repeated group map (MAP_KEY_VALUE) { required binary key (UTF8); required int32 value; } }
           optional group positional (MAP) { repeated group entries { required binary str (STRING); required int32 num; } }
           optional group optional_key (MAP) { repeated group key_value { optional binary key (STRING); optional binary value (STRING); } }
           optional group bare_prim (MAP) { repeated int32 k; }
           optional group three (MAP) { repeated group kv { required int32 a; required int32 b; required int32 c; } }
           repeated group rep_map (MAP) { repeated group key_value { required int32 key; } }
         }",
    );
    let table = [
        ("standard", "map key_value key value"),
        ("keys", "map key_value key -"),
        ("legacy", "map map key value"),
        ("impala", "map map key value"),
        ("positional", "map entries str num"),
        ("optional_key", "map key_value key value"),
        // Not a group of a key and an optional value: a list of the repeated level.
        ("bare_prim", "list RepeatedPrimitive k -> k"),
        ("three", "list MultiField kv -> kv"),
        ("rep_map", "map key_value key -"),
    ];
    for (name, want) in table {
        assert_eq!(shape_of(&s, name), want, "{name}");
    }
    assert_eq!(
        s.root().field("legacy").unwrap().container_annotation(),
        Some(ContainerAnnotation::Map)
    );
}

#[test]
fn structs() {
    let s = schema(
        "message m {
           optional group plain { required int32 a; }
           optional group phones { repeated group phone { required int64 number; } }
           optional group two (LIST) { repeated int32 a; repeated int32 b; }
           optional group not_repeated (LIST) { required group list { required int32 element; } }
           optional group not_repeated_map (MAP) { optional group key_value { required int32 key; } }
           optional group variant (VARIANT) { required binary metadata; required binary value; }
         }",
    );
    for name in [
        "plain",
        "phones",
        "two",
        "not_repeated",
        "not_repeated_map",
        "variant",
    ] {
        assert_eq!(shape_of(&s, name), "struct", "{name}");
    }
    // The annotation still says what the group claims to be.
    assert_eq!(
        s.root().field("two").unwrap().container_annotation(),
        Some(ContainerAnnotation::List)
    );
    assert_eq!(
        s.root().field("plain").unwrap().container_annotation(),
        None
    );
    assert_eq!(s.root().group_shape(), Some(GroupShape::Struct));
    let leaf = &s.root().field("plain").unwrap().fields()[0];
    assert_eq!(leaf.group_shape(), None);
    assert_eq!(leaf.container_annotation(), None);
}

#[test]
fn group_annotation_precedence() {
    let list_body = || {
        vec![SchemaNode::group(
            "list",
            Repetition::Repeated,
            vec![SchemaNode::primitive(
                "element",
                Repetition::Optional,
                Type::Int32,
            )],
        )]
    };
    let group = |lt: Option<LogicalType>, ct: Option<ConvertedType>| {
        let mut g = SchemaNode::group("g", Repetition::Optional, list_body());
        g.logical_type = lt;
        g.converted_type = ct;
        g
    };
    let table = [
        (
            None,
            Some(ConvertedType::List),
            Some(ContainerAnnotation::List),
        ),
        (
            Some(LogicalType::Unknown(42)),
            Some(ConvertedType::List),
            Some(ContainerAnnotation::List),
        ),
        (
            Some(LogicalType::Unknown(42)),
            Some(ConvertedType::MapKeyValue),
            Some(ContainerAnnotation::Map),
        ),
        (Some(LogicalType::Unknown(42)), None, None),
        // A known LogicalType wins over the ConvertedType.
        (
            Some(LogicalType::Map),
            Some(ConvertedType::List),
            Some(ContainerAnnotation::Map),
        ),
        (
            Some(LogicalType::Variant {
                specification_version: None,
            }),
            Some(ConvertedType::List),
            None,
        ),
        (None, None, None),
    ];
    for (lt, ct, want) in table {
        let g = group(lt.clone(), ct);
        assert_eq!(g.container_annotation(), want, "{lt:?} {ct:?}");
        // The body is one repeated group of one field: a list, or a map of keys only.
        let shape = match g.group_shape() {
            Some(GroupShape::List(_)) => Some(ContainerAnnotation::List),
            Some(GroupShape::Map(_)) => Some(ContainerAnnotation::Map),
            _ => None,
        };
        assert_eq!(shape, want, "{lt:?} {ct:?}");
    }
}

fn leaf(t: Type) -> SchemaNode {
    SchemaNode::primitive("x", Repetition::Optional, t)
}

#[test]
fn conversions_from_text() {
    let s = schema(
        "message m {
           required boolean b;
           required int32 i;
           required int64 l;
           required float f;
           required double d;
           required binary raw;
           required fixed_len_byte_array(3) fixed;
           required int96 ts96;
           required binary s (STRING);
           required binary u8 (UTF8);
           required binary e (ENUM);
           required binary j (JSON);
           required binary bs (BSON);
           required int32 i8 (INT_8);
           required int32 u16 (UINT_16);
           required int32 iu32 (INTEGER(32,false));
           required int64 iu64 (UINT_64);
           required int64 is64 (INTEGER(64,true));
           required int32 date (DATE);
           required int32 tms (TIME_MILLIS);
           required int64 tus (TIME(MICROS,false));
           required int64 tns (TIME(NANOS,true));
           required int64 tsms (TIMESTAMP_MILLIS);
           required int64 tsus (TIMESTAMP_MICROS);
           required int64 tsns (TIMESTAMP(NANOS,false));
           required int32 d32 (DECIMAL(9,2));
           required int64 d64 (DECIMAL(18,4));
           required fixed_len_byte_array(16) dfix (DECIMAL(38,10));
           required binary dbin (DECIMAL(50,3));
           required fixed_len_byte_array(16) id (UUID);
           required fixed_len_byte_array(2) half (FLOAT16);
           required fixed_len_byte_array(12) iv (INTERVAL);
           optional int32 nothing (UNKNOWN);
           optional binary geo (GEOMETRY);
         }",
    );
    let int = |bit_width, signed| Conversion::Integer { bit_width, signed };
    let text = Conversion::Text;
    let table = [
        ("b", Conversion::Plain),
        ("i", Conversion::Plain),
        ("l", Conversion::Plain),
        ("f", Conversion::Plain),
        ("d", Conversion::Plain),
        ("raw", Conversion::Plain),
        ("fixed", Conversion::Plain),
        ("ts96", Conversion::Int96),
        ("s", text(TextKind::String)),
        ("u8", text(TextKind::String)),
        ("e", text(TextKind::Enum)),
        ("j", text(TextKind::Json)),
        ("bs", Conversion::Plain),
        ("i8", int(8, true)),
        ("u16", int(16, false)),
        ("iu32", int(32, false)),
        ("iu64", int(64, false)),
        ("is64", int(64, true)),
        ("date", Conversion::Date),
        (
            "tms",
            Conversion::Time {
                unit: TimeUnit::Millis,
                utc: true,
            },
        ),
        (
            "tus",
            Conversion::Time {
                unit: TimeUnit::Micros,
                utc: false,
            },
        ),
        (
            "tns",
            Conversion::Time {
                unit: TimeUnit::Nanos,
                utc: true,
            },
        ),
        (
            "tsms",
            Conversion::Timestamp {
                unit: TimeUnit::Millis,
                utc: true,
            },
        ),
        (
            "tsus",
            Conversion::Timestamp {
                unit: TimeUnit::Micros,
                utc: true,
            },
        ),
        (
            "tsns",
            Conversion::Timestamp {
                unit: TimeUnit::Nanos,
                utc: false,
            },
        ),
        (
            "d32",
            Conversion::Decimal {
                precision: 9,
                scale: 2,
            },
        ),
        (
            "d64",
            Conversion::Decimal {
                precision: 18,
                scale: 4,
            },
        ),
        (
            "dfix",
            Conversion::Decimal {
                precision: 38,
                scale: 10,
            },
        ),
        (
            "dbin",
            Conversion::Decimal {
                precision: 50,
                scale: 3,
            },
        ),
        ("id", Conversion::Uuid),
        ("half", Conversion::Float16),
        ("iv", Conversion::Plain),
        ("nothing", Conversion::Plain),
        ("geo", Conversion::Plain),
    ];
    assert_eq!(table.len(), s.num_columns());
    for (name, want) in table {
        let node = s.root().field(name).unwrap();
        assert_eq!(node.conversion(), Some(want), "{name}");
    }
    assert_eq!(s.root().conversion(), None);
}

#[test]
fn legacy_decimal_takes_the_element_precision_and_scale() {
    let node = leaf(Type::FixedLenByteArray)
        .with_type_length(6)
        .with_converted_type(ConvertedType::Decimal)
        .with_precision_and_scale(13, 2);
    assert_eq!(
        node.conversion(),
        Some(Conversion::Decimal {
            precision: 13,
            scale: 2
        })
    );
    // With a DECIMAL LogicalType, the LogicalType's parameters rule.
    let mut node = node;
    node.logical_type = Some(LogicalType::Decimal {
        scale: 1,
        precision: 12,
    });
    assert_eq!(
        node.conversion(),
        Some(Conversion::Decimal {
            precision: 12,
            scale: 1
        })
    );
}

/// The rule for a legacy ConvertedType beside a LogicalType: the LogicalType decides when
/// it is known, the ConvertedType when it is not.
#[test]
fn unknown_logical_type_falls_back_to_the_converted_type() {
    let unknown = Some(LogicalType::Unknown(2555));
    let with = |mut node: SchemaNode, ct: Option<ConvertedType>| {
        node.logical_type = unknown.clone();
        node.converted_type = ct;
        node.conversion()
    };
    let table = [
        (
            leaf(Type::ByteArray),
            Some(ConvertedType::Utf8),
            Conversion::Text(TextKind::String),
        ),
        (
            leaf(Type::Int32),
            Some(ConvertedType::Uint8),
            Conversion::Integer {
                bit_width: 8,
                signed: false,
            },
        ),
        (
            leaf(Type::Int64),
            Some(ConvertedType::TimestampMillis),
            Conversion::Timestamp {
                unit: TimeUnit::Millis,
                utc: true,
            },
        ),
        (
            leaf(Type::Int32),
            Some(ConvertedType::Date),
            Conversion::Date,
        ),
        (
            leaf(Type::Int32)
                .with_converted_type(ConvertedType::Decimal)
                .with_precision_and_scale(5, 1),
            Some(ConvertedType::Decimal),
            Conversion::Decimal {
                precision: 5,
                scale: 1,
            },
        ),
        (leaf(Type::ByteArray), None, Conversion::Plain),
        (
            leaf(Type::Int96),
            Some(ConvertedType::Utf8),
            Conversion::Int96,
        ),
    ];
    for (node, ct, want) in table {
        assert_eq!(with(node, ct), Some(want), "{ct:?}");
    }
    // A time unit this library does not know makes the logical type unknown too.
    let mut t = leaf(Type::Int64).with_converted_type(ConvertedType::TimestampMicros);
    t.logical_type = Some(LogicalType::Timestamp {
        is_adjusted_to_utc: false,
        unit: TimeUnit::Unknown(9),
    });
    assert_eq!(
        t.conversion(),
        Some(Conversion::Timestamp {
            unit: TimeUnit::Micros,
            utc: true
        })
    );
    t.converted_type = None;
    assert_eq!(t.conversion(), Some(Conversion::Plain));
}

#[test]
fn known_logical_type_wins_over_the_converted_type() {
    let mut e = leaf(Type::ByteArray).with_converted_type(ConvertedType::Utf8);
    e.logical_type = Some(LogicalType::Enum);
    assert_eq!(e.conversion(), Some(Conversion::Text(TextKind::Enum)));
    // BSON reads as bytes even beside a UTF8 converted type.
    e.logical_type = Some(LogicalType::Bson);
    assert_eq!(e.conversion(), Some(Conversion::Plain));
    // A local timestamp keeps its flag (the converted type would say UTC).
    let mut t = leaf(Type::Int64).with_converted_type(ConvertedType::TimestampMillis);
    t.logical_type = Some(LogicalType::Timestamp {
        is_adjusted_to_utc: false,
        unit: TimeUnit::Millis,
    });
    assert_eq!(
        t.conversion(),
        Some(Conversion::Timestamp {
            unit: TimeUnit::Millis,
            utc: false
        })
    );
}

#[test]
fn annotations_that_do_not_fit_the_physical_type_read_plain() {
    // Unvalidated nodes: a reader never sees these in a `Schema`, but the rule holds.
    let mut uuid = leaf(Type::FixedLenByteArray).with_type_length(8);
    uuid.logical_type = Some(LogicalType::Uuid);
    assert_eq!(uuid.conversion(), Some(Conversion::Plain));
    let mut half = leaf(Type::FixedLenByteArray).with_type_length(4);
    half.logical_type = Some(LogicalType::Float16);
    assert_eq!(half.conversion(), Some(Conversion::Plain));
    let s = leaf(Type::Int32).with_converted_type(ConvertedType::Utf8);
    assert_eq!(s.conversion(), Some(Conversion::Plain));
    // A LogicalType that does not fit leaves the decision to a ConvertedType that does.
    let mut mixed = leaf(Type::Int32).with_converted_type(ConvertedType::Uint32);
    mixed.logical_type = Some(LogicalType::String);
    assert_eq!(
        mixed.conversion(),
        Some(Conversion::Integer {
            bit_width: 32,
            signed: false
        })
    );
}
