use crate::core::format::{ConvertedType, EdgeInterpolationAlgorithm, LogicalType, TimeUnit, Type};
use crate::core::schema::{Repetition, Schema, SchemaNode};
use crate::ErrorKind;

/// The example of the task: a timestamp and a list of strings.
const EXAMPLE: &str = "message m {
  required int64 ts (TIMESTAMP(MICROS,true));
  optional group tags (LIST) {
    repeated group list {
      optional binary element (STRING);
    }
  }
}";

#[test]
fn example_parses_and_prints_back() {
    let schema = Schema::parse(EXAMPLE).unwrap();
    assert_eq!(schema.name(), "m");
    assert_eq!(schema.num_columns(), 2);
    let ts = schema.column(0).unwrap();
    assert_eq!(ts.physical_type, Type::Int64);
    assert_eq!(
        ts.logical_type,
        Some(LogicalType::Timestamp {
            is_adjusted_to_utc: true,
            unit: TimeUnit::Micros
        })
    );
    assert_eq!(ts.converted_type, Some(ConvertedType::TimestampMicros));
    let element = schema.column(1).unwrap();
    assert_eq!(element.path.to_string(), "tags.list.element");
    assert_eq!((element.max_def_level, element.max_rep_level), (3, 1));
    assert_eq!(element.converted_type, Some(ConvertedType::Utf8));
    assert_eq!(schema.to_string(), EXAMPLE);
    // The same schema built in code.
    let built = Schema::new(SchemaNode::group(
        "m",
        Repetition::Required,
        vec![
            SchemaNode::primitive("ts", Repetition::Required, Type::Int64).with_logical_type(
                LogicalType::Timestamp {
                    is_adjusted_to_utc: true,
                    unit: TimeUnit::Micros,
                },
            ),
            SchemaNode::list(
                "tags",
                Repetition::Optional,
                SchemaNode::primitive("x", Repetition::Optional, Type::ByteArray)
                    .with_logical_type(LogicalType::String),
            ),
        ],
    ))
    .unwrap();
    assert_eq!(built, schema);
    assert_eq!(built.to_string(), EXAMPLE);
}

/// A schema with every annotation the text form knows, in printed form.
const EVERY_ANNOTATION: &str = r#"message everything (UNKNOWN) {
  required binary s (STRING) = 1;
  required binary e (ENUM);
  required fixed_len_byte_array(16) u (UUID);
  required binary j (JSON);
  required binary b (BSON);
  required int32 d (DATE);
  required fixed_len_byte_array(2) h (FLOAT16);
  optional int32 n (UNKNOWN);
  optional group v (VARIANT) {
    required binary metadata;
    required binary value;
  }
  optional group v1 (VARIANT(1)) {
    required binary metadata;
    optional binary value;
    optional int64 typed_value;
  }
  required binary g0 (GEOMETRY);
  required binary g1 (GEOMETRY(OGC:CRS84));
  required binary g2 (GEOMETRY("projjson:{\"id\": 4326}"));
  required binary gg0 (GEOGRAPHY);
  required binary gg1 (GEOGRAPHY(srid:4326));
  required binary gg2 (GEOGRAPHY(OGC:CRS84,KARNEY));
  optional group l (LIST) = 2 {
    repeated group list {
      required int32 element;
    }
  }
  optional group m (MAP) {
    repeated group key_value (MAP_KEY_VALUE) {
      required binary key (UTF8);
      optional int32 value;
    }
  }
  required group vec (VECTOR) {
    required float x;
  }
  required int64 t1 (TIMESTAMP(MILLIS,true));
  required int64 t2 (TIMESTAMP(MICROS,false));
  required int64 t3 (TIMESTAMP(NANOS,true));
  required int32 tm1 (TIME(MILLIS,false));
  required int64 tm2 (TIME(MICROS,true));
  required int64 tm3 (TIME(NANOS,false));
  required int32 i8 (INTEGER(8,true)) = 3;
  required int32 i16 (INTEGER(16,true));
  required int32 i32 (INTEGER(32,true));
  required int64 i64 (INTEGER(64,true));
  required int32 u8 (INTEGER(8,false));
  required int32 u16 (INTEGER(16,false));
  required int32 u32 (INTEGER(32,false));
  required int64 u64 (INTEGER(64,false));
  required int32 dec1 (DECIMAL(9,2));
  required int64 dec2 (DECIMAL(18,0));
  required fixed_len_byte_array(16) dec3 (DECIMAL(38,10));
  required binary dec4 (DECIMAL(60,30));
  required binary legacy_utf8 (UTF8);
  required int64 legacy_ts1 (TIMESTAMP_MILLIS);
  required int64 legacy_ts2 (TIMESTAMP_MICROS);
  required int32 legacy_t1 (TIME_MILLIS);
  required int64 legacy_t2 (TIME_MICROS);
  required int32 legacy_i8 (INT_8);
  required int32 legacy_i16 (INT_16);
  required int32 legacy_i32 (INT_32);
  required int64 legacy_i64 (INT_64);
  required int32 legacy_u8 (UINT_8);
  required int32 legacy_u16 (UINT_16);
  required int32 legacy_u32 (UINT_32);
  required int64 legacy_u64 (UINT_64);
  required fixed_len_byte_array(12) legacy_interval (INTERVAL);
  repeated boolean flags;
  optional int96 legacy_timestamp;
  required float f;
  required double x = 4;
  required group "odd name; with {punctuation}" {
    required int32 "has space";
    required int32 "quote \" and backslash \\ and\nnewline";
  }
}"#;

#[test]
fn every_annotation_round_trips() {
    let schema = Schema::parse(EVERY_ANNOTATION).unwrap();
    assert_eq!(schema.to_string(), EVERY_ANNOTATION);
    // Text -> schema -> elements -> schema -> text.
    let again = Schema::from_elements(&schema.to_elements()).unwrap();
    assert_eq!(again, schema);
    assert_eq!(again.to_string(), EVERY_ANNOTATION);

    let col = |path: &str| schema.column(schema.column_index(path).unwrap()).unwrap();
    assert_eq!(col("s").field_id, Some(1));
    assert_eq!(col("i8").field_id, Some(3));
    assert_eq!(
        schema.root().field("l").unwrap().field_id,
        Some(2),
        "group field id"
    );
    assert_eq!(col("legacy_utf8").logical_type, None);
    assert_eq!(col("legacy_utf8").converted_type, Some(ConvertedType::Utf8));
    assert_eq!(col("n").logical_type, Some(LogicalType::Null));
    assert_eq!(col("u64").converted_type, Some(ConvertedType::Uint64));
    assert_eq!(col("t3").converted_type, None);
    assert_eq!(col("tm1").converted_type, Some(ConvertedType::TimeMillis));
    assert_eq!((col("dec3").precision, col("dec3").scale), (38, 10));
    assert_eq!(col("dec3").converted_type, Some(ConvertedType::Decimal));
    assert_eq!(
        col("gg2").logical_type,
        Some(LogicalType::Geography {
            crs: Some("OGC:CRS84".into()),
            algorithm: Some(EdgeInterpolationAlgorithm::Karney)
        })
    );
    assert_eq!(
        col("g2").logical_type,
        Some(LogicalType::Geometry {
            crs: Some("projjson:{\"id\": 4326}".into())
        })
    );
    assert_eq!(
        schema.root().field("v1").unwrap().logical_type,
        Some(LogicalType::Variant {
            specification_version: Some(1)
        })
    );
    let odd = schema.root().field("odd name; with {punctuation}").unwrap();
    assert_eq!(
        odd.fields()[1].name,
        "quote \" and backslash \\ and\nnewline"
    );
    assert_eq!(
        col("legacy_interval").converted_type,
        Some(ConvertedType::Interval)
    );
}

#[test]
fn accepted_variants() {
    // Field id before the annotation, INT alias, DECIMAL with precision only, legacy
    // DECIMAL, lower-case annotations, upper-case keywords (arrow-rs prints those), a
    // `;` after a group, extra whitespace.
    let text = "MESSAGE schema {
        REQUIRED INT32 a = 3 (INT(8, true));
        optional binary d (decimal(5));
        optional group g (list) {
            repeated INT64 element;
        };
        required fixed_len_byte_array( 4 ) f (DECIMAL( 9 , 3 ));
    }
    ";
    let schema = Schema::parse(text).unwrap();
    assert_eq!(
        schema.to_string(),
        "message schema {
  required int32 a (INTEGER(8,true)) = 3;
  optional binary d (DECIMAL(5,0));
  optional group g (LIST) {
    repeated int64 element;
  }
  required fixed_len_byte_array(4) f (DECIMAL(9,3));
}"
    );
    let a = schema.column(0).unwrap();
    assert_eq!(a.field_id, Some(3));
    assert_eq!(a.converted_type, Some(ConvertedType::Int8));
    let f = schema.column(3).unwrap();
    assert_eq!((f.precision, f.scale), (9, 3));
    // A legacy decimal (converted type only) prints as DECIMAL(p,s) too.
    let legacy = Schema::new(SchemaNode::group(
        "r",
        Repetition::Required,
        vec![
            SchemaNode::primitive("d", Repetition::Required, Type::Int64)
                .with_converted_type(ConvertedType::Decimal)
                .with_precision_and_scale(12, 4),
        ],
    ))
    .unwrap();
    assert_eq!(
        legacy.to_string(),
        "message r {\n  required int64 d (DECIMAL(12,4));\n}"
    );
    let reparsed = Schema::parse(&legacy.to_string()).unwrap();
    assert_eq!(reparsed.to_string(), legacy.to_string());
    // An empty message.
    let empty = Schema::parse("message empty {}").unwrap();
    assert_eq!(empty.num_columns(), 0);
    assert_eq!(empty.to_string(), "message empty {\n}");
    assert_eq!(Schema::parse(&empty.to_string()).unwrap(), empty);
}

#[test]
fn node_display() {
    let node = SchemaNode::map(
        "m",
        Repetition::Optional,
        SchemaNode::primitive("k", Repetition::Required, Type::ByteArray)
            .with_logical_type(LogicalType::String),
        SchemaNode::primitive("v", Repetition::Optional, Type::Int32),
    )
    .with_field_id(9);
    assert_eq!(
        node.to_string(),
        "optional group m (MAP) = 9 {
  repeated group key_value {
    required binary key (STRING);
    optional int32 value;
  }
}"
    );
    let leaf = SchemaNode::primitive("x", Repetition::Repeated, Type::Double);
    assert_eq!(leaf.to_string(), "repeated double x;");
}

fn parse_err(text: &str) -> String {
    let e = Schema::parse(text).expect_err(text);
    assert!(
        matches!(e.kind(), ErrorKind::Schema | ErrorKind::Unsupported),
        "{e}"
    );
    e.message().to_string()
}

#[test]
fn errors_say_where_and_what() {
    let m = parse_err("message m {\n  required int33 a;\n}");
    assert!(m.starts_with("line 2, column 12: expected a type"), "{m}");
    assert!(m.contains("`int33`"), "{m}");
    let m = parse_err("message m {\n  required int32 a\n}");
    assert!(m.starts_with("line 3, column 1: expected `;`"), "{m}");
    let m = parse_err("message m {\n  optional binary a (STRNG);\n}");
    assert!(m.contains("line 2, column 22"), "{m}");
    assert!(m.contains("unknown annotation `STRNG`"), "{m}");
    let m = parse_err("message m { required int64 t (TIMESTAMP(SECONDS,true)); }");
    assert!(m.contains("time unit"), "{m}");
    let m = parse_err("message m { required int64 t (TIMESTAMP(MILLIS)); }");
    assert!(m.contains("TIMESTAMP takes 2 parameters, found 1"), "{m}");
    let m = parse_err("message m { required int32 t (INTEGER(8,yes)); }");
    assert!(m.contains("`true` or `false`"), "{m}");
    let m = parse_err("message m { required int32 t = x; }");
    assert!(m.contains("expected a field id"), "{m}");
    let m = parse_err("message m { required fixed_len_byte_array t; }");
    assert!(m.contains("expected `(`"), "{m}");
    let m = parse_err("message m { sometimes int32 t; }");
    assert!(m.contains("expected a repetition"), "{m}");
    let m = parse_err("schema m { }");
    assert!(m.starts_with("line 1, column 1: expected `message`"), "{m}");
    let m = parse_err("message m { required int32 a; } extra");
    assert!(m.contains("expected the end of the text"), "{m}");
    let m = parse_err("message m { required int32 a;");
    assert!(m.contains("found the end of the text"), "{m}");
    let m = parse_err("message m { required binary \"unterminated; }");
    assert!(m.contains("unterminated string"), "{m}");
    let m = parse_err("message m { required binary \"bad \\q\"; }");
    assert!(m.contains("unknown escape"), "{m}");
    let m = parse_err("message m { required binary \"bad \\u{110000}\"; }");
    assert!(m.contains("escape"), "{m}");
    // Parsed fine, but invalid: the annotation does not fit the type.
    let m = parse_err("message m { required int32 a (STRING); }");
    assert!(m.contains("STRING cannot annotate int32"), "{m}");
    let m = parse_err("message m { required fixed_len_byte_array(0) a; }");
    assert!(m.contains("positive length"), "{m}");
    let m = parse_err("message m { required group g { } }");
    assert!(m.contains("no fields"), "{m}");
}

#[test]
fn nesting_bomb_is_an_error() {
    let mut text = String::from("message m {");
    for _ in 0..10_000 {
        text.push_str(" required group g {");
    }
    let m = parse_err(&text);
    assert!(m.contains("deeper than 128"), "{m}");
}

#[test]
fn no_panic_on_prefixes_and_garbage() {
    for end in 0..EVERY_ANNOTATION.len() {
        if EVERY_ANNOTATION.is_char_boundary(end) {
            let _ = Schema::parse(&EVERY_ANNOTATION[..end]);
        }
    }
    for text in [
        "",
        "message",
        "message m",
        "message m {",
        "(",
        "\u{0}",
        "message \"",
        "=",
        "message m (DECIMAL(",
        "message m { required int32 a (DECIMAL(99999999999,1)); }",
    ] {
        assert!(Schema::parse(text).is_err(), "{text:?}");
    }
}

mod prop {
    use super::*;
    use proptest::prelude::*;

    fn name() -> impl Strategy<Value = String> {
        prop_oneof!["[a-z_][a-z0-9_]{0,8}", "[ -~]{1,6}"]
    }

    fn repetition() -> impl Strategy<Value = Repetition> {
        prop_oneof![
            Just(Repetition::Required),
            Just(Repetition::Optional),
            Just(Repetition::Repeated)
        ]
    }

    fn leaf() -> impl Strategy<Value = SchemaNode> {
        let annotated = prop_oneof![
            Just((Type::ByteArray, 0, Some(LogicalType::String), None)),
            Just((Type::ByteArray, 0, None, Some(ConvertedType::Utf8))),
            Just((Type::FixedLenByteArray, 16, Some(LogicalType::Uuid), None)),
            Just((Type::Int32, 0, Some(LogicalType::Date), None)),
            (1i32..=9, 0i32..=9).prop_map(|(p, s)| (
                Type::Int32,
                0,
                Some(LogicalType::Decimal {
                    precision: p,
                    scale: s.min(p)
                }),
                None
            )),
            (any::<bool>(), 0usize..3).prop_map(|(utc, u)| (
                Type::Int64,
                0,
                Some(LogicalType::Timestamp {
                    is_adjusted_to_utc: utc,
                    unit: [TimeUnit::Millis, TimeUnit::Micros, TimeUnit::Nanos][u]
                }),
                None
            )),
            Just((Type::Int64, 0, None, Some(ConvertedType::Uint64))),
            (1i32..40).prop_map(|n| (Type::FixedLenByteArray, n, None, None)),
            Just((Type::Boolean, 0, None, None)),
            Just((Type::Double, 0, None, None)),
            Just((Type::Int96, 0, None, None)),
        ];
        (
            name(),
            repetition(),
            annotated,
            proptest::option::of(any::<i32>()),
        )
            .prop_map(|(name, rep, (t, len, lt, ct), id)| {
                let mut node = SchemaNode::primitive(name, rep, t).with_type_length(len);
                if let Some(lt) = lt {
                    node = node.with_logical_type(lt);
                }
                if let Some(ct) = ct {
                    node = node.with_converted_type(ct);
                }
                node.field_id = id;
                node
            })
    }

    fn tree() -> impl Strategy<Value = SchemaNode> {
        leaf().prop_recursive(4, 24, 4, |inner| {
            (name(), repetition(), proptest::collection::vec(inner, 1..4))
                .prop_map(|(name, rep, fields)| SchemaNode::group(name, rep, fields))
        })
    }

    proptest! {
        #[test]
        fn print_parse_print(fields in proptest::collection::vec(tree(), 0..4), root in "[ -~]{0,6}") {
            // Names may repeat among siblings; the text form and lenient checks allow it.
            let schema = Schema::with_mode(
                SchemaNode::group(root, Repetition::Required, fields),
                crate::core::schema::validate::Mode::Lenient,
            );
            let schema = schema.unwrap();
            let text = schema.to_string();
            let parsed = Schema::parse(&text).unwrap();
            prop_assert_eq!(&parsed, &schema);
            prop_assert_eq!(parsed.to_string(), text);
            let from_elements = Schema::from_elements(&schema.to_elements()).unwrap();
            prop_assert_eq!(from_elements, schema);
        }
    }
}

#[test]
fn parsed_standard_layouts_pass_strict_checks() {
    let text = "message m {
  optional group m1 (MAP) {
    repeated group key_value (MAP_KEY_VALUE) {
      required binary key (UTF8);
      optional int32 value;
    }
  }
  required group l (LIST) {
    repeated group list {
      optional group element {
        required int32 a;
      }
    }
  }
}";
    let schema = Schema::parse(text).unwrap();
    schema.validate_strict().unwrap();
    assert_eq!(Schema::new(schema.root().clone()).unwrap(), schema);
    // Legacy layouts parse but are not what a writer may produce.
    let legacy =
        Schema::parse("message m { optional group l (LIST) { optional int32 x; } }").unwrap();
    assert!(legacy.validate_strict().is_err());
}
