use super::*;

fn parse(text: &str) -> Schema {
    Schema::parse(text).unwrap()
}

#[test]
fn nested_schema_serializes_as_pyiceberg_json() {
    let schema = parse(
        "message m {
          required int64 ts (TIMESTAMP(MICROS,true)) = 1;
          optional int64 local (TIMESTAMP(MILLIS,false)) = 2;
          optional binary msg (STRING) = 3;
          optional fixed_len_byte_array(9) amount (DECIMAL(20,2)) = 4;
          optional int32 d (DATE) = 5;
          optional int32 small (INTEGER(16,true)) = 6;
          optional int32 u (INTEGER(32,false)) = 7;
          optional group tags (LIST) = 8 { repeated group list { optional binary element (STRING) = 9; } }
          optional group attrs (MAP) = 10 { repeated group key_value {
             required binary key (STRING) = 11; required double value = 12; } }
          optional group inner = 13 { required boolean ok = 14; optional int64 t (TIME(MICROS,false)) = 15; }
          required fixed_len_byte_array(16) id (UUID) = 16;
          optional binary raw = 17;
          optional fixed_len_byte_array(3) f3 = 18;
          optional float x = 19;
        }",
    );
    let ice = iceberg_schema(&schema, 0).unwrap();
    let json = serde_json::to_value(&ice).unwrap();
    let expected = json!({
        "type": "struct", "schema-id": 0, "identifier-field-ids": [],
        "fields": [
            {"id": 1, "name": "ts", "required": true, "type": "timestamptz"},
            {"id": 2, "name": "local", "required": false, "type": "timestamp"},
            {"id": 3, "name": "msg", "required": false, "type": "string"},
            {"id": 4, "name": "amount", "required": false, "type": "decimal(20,2)"},
            {"id": 5, "name": "d", "required": false, "type": "date"},
            {"id": 6, "name": "small", "required": false, "type": "int"},
            {"id": 7, "name": "u", "required": false, "type": "long"},
            {"id": 8, "name": "tags", "required": false, "type":
                {"type": "list", "element-id": 9, "element": "string", "element-required": false}},
            {"id": 10, "name": "attrs", "required": false, "type":
                {"type": "map", "key-id": 11, "key": "string", "value-id": 12, "value": "double",
                 "value-required": true}},
            {"id": 13, "name": "inner", "required": false, "type": {"type": "struct", "fields": [
                {"id": 14, "name": "ok", "required": true, "type": "boolean"},
                {"id": 15, "name": "t", "required": false, "type": "time"}]}},
            {"id": 16, "name": "id", "required": true, "type": "uuid"},
            {"id": 17, "name": "raw", "required": false, "type": "binary"},
            {"id": 18, "name": "f3", "required": false, "type": "fixed[3]"},
            {"id": 19, "name": "x", "required": false, "type": "float"},
        ]
    });
    assert_eq!(json, expected);
    // and back
    let back: IcebergSchema = serde_json::from_value(json).unwrap();
    assert_eq!(back, ice);
    let types = back.primitive_types_by_id();
    assert_eq!(
        types[&4],
        PrimitiveType::Decimal {
            precision: 20,
            scale: 2
        }
    );
    assert_eq!(types[&9], PrimitiveType::String);
    assert_eq!(types[&12], PrimitiveType::Double);
    assert!(!types.contains_key(&8));
    assert_eq!(back.highest_field_id(), 19);
    let paths = back.ids_by_path();
    let p = |s: &str| s.split('.').map(str::to_string).collect::<Vec<_>>();
    assert_eq!(paths[&p("tags.element")], 9);
    assert_eq!(paths[&p("attrs.value")], 12);
    assert_eq!(paths[&p("inner.t")], 15);
}

#[test]
fn types_v2_cannot_hold_are_errors_naming_the_column() {
    for (decl, what) in [
        ("required int64 n (INTEGER(64,false)) = 1;", "INTEGER(64, unsigned)"),
        ("required int64 n (TIMESTAMP(NANOS,true)) = 1;", "NANOS"),
        ("required int32 n (TIME(MILLIS,true)) = 1;", "TIME(MILLIS)"),
        ("required int96 n = 1;", "INT96"),
        ("required fixed_len_byte_array(2) n (FLOAT16) = 1;", "Float16"),
        ("required fixed_len_byte_array(12) n (INTERVAL) = 1;", "INTERVAL"),
        (
            "required group n (VARIANT(1)) = 1 { required binary metadata; required binary value; }",
            "VARIANT",
        ),
        ("repeated int32 n = 1;", "repeated"),
    ] {
        let schema = parse(&format!("message m {{ required int32 ok = 2; {decl} }}"));
        let err = iceberg_schema(&schema, 0).unwrap_err();
        assert_eq!(err.kind(), crate::ErrorKind::Unsupported, "{decl}");
        assert!(err.to_string().contains("`n`"), "{decl}: {err}");
        assert!(err.to_string().contains(what), "{decl}: {err}");
    }
    let missing =
        parse("message m { required int32 a = 1; optional group g = 2 { optional int32 b; } }");
    let err = iceberg_schema(&missing, 0).unwrap_err();
    assert!(err.to_string().contains("`g.b` has no field id"), "{err}");
}

#[test]
fn reading_hostile_or_foreign_json_is_an_error() {
    for bad in [
        json!({"type": "struct", "fields": [{"id": 1, "name": "a", "required": true, "type": "timestamp_ns"}]}),
        json!({"type": "struct", "fields": [{"id": 1, "name": "a", "required": true, "type": "decimal(39,1)"}]}),
        json!({"type": "struct", "fields": [{"id": "x", "name": "a", "required": true, "type": "int"}]}),
        json!({"type": "struct", "fields": [{"id": 1, "name": "a", "required": true,
            "type": {"type": "list", "element-id": 2, "element": "int"}}]}),
        json!({"type": "struct"}),
        json!([1]),
    ] {
        assert!(IcebergSchema::from_json(&bad).is_err(), "{bad}");
    }
    // nesting beyond the cap is an error, not a deep recursion
    let mut t = json!("int");
    for i in 0..100 {
        t = json!({"type": "list", "element-id": i, "element": t, "element-required": true});
    }
    let deep =
        json!({"type": "struct", "fields": [{"id": 1, "name": "a", "required": true, "type": t}]});
    let err = IcebergSchema::from_json(&deep).unwrap_err();
    assert!(err.to_string().contains("deeper than"), "{err}");
}

#[test]
fn type_strings_parse_with_spaces_and_print_back() {
    for t in ["decimal(9,2)", "fixed[16]", "timestamptz", "uuid", "binary"] {
        assert_eq!(t.parse::<PrimitiveType>().unwrap().to_string(), t);
    }
    assert_eq!(
        "decimal(9, 2)".parse::<PrimitiveType>().unwrap(),
        PrimitiveType::Decimal {
            precision: 9,
            scale: 2
        }
    );
    assert!("fixed[0]".parse::<PrimitiveType>().is_err());
    assert!("decimal(3,4)".parse::<PrimitiveType>().is_err());
}

#[test]
fn a_file_fits_the_table_or_an_error_names_the_column() {
    let table = iceberg_schema(
        &parse(
            "message m { required int64 ts (TIMESTAMP(MICROS,true)) = 1; optional int64 n = 2;
              optional double x = 3; optional fixed_len_byte_array(9) amount (DECIMAL(20,2)) = 4;
              optional group tags (LIST) = 5 { repeated group list { optional binary element (STRING) = 6; } } }",
        ),
        0,
    )
    .unwrap();
    let fits = |text: &str| {
        let file = iceberg_schema(&parse(text), 0).unwrap();
        table.check_file_fits(&file)
    };
    // the same, a subset, and promotions
    fits(
        "message m { required int64 ts (TIMESTAMP(MICROS,true)) = 1; optional int32 n = 2;
          optional float x = 3; optional int64 amount (DECIMAL(12,2)) = 4; }",
    )
    .unwrap();
    fits("message m { required int64 ts (TIMESTAMP(MILLIS,true)) = 1;
          optional group tags (LIST) = 5 { repeated group list { required binary element (STRING) = 6; } } }")
    .unwrap();
    for (text, what) in [
        ("message m { required int64 ts (TIMESTAMP(MICROS,true)) = 1; optional int64 new = 9; }", "`new` (field id 9) is not in"),
        ("message m { required int64 ts (TIMESTAMP(MICROS,true)) = 1; optional int64 m = 2; }", "`m` has field id 2, which is `n`"),
        ("message m { optional int64 ts (TIMESTAMP(MICROS,true)) = 1; }", "`ts` is optional in the file"),
        ("message m { optional int64 n = 2; }", "requires column `ts`"),
        ("message m { required int64 ts (TIMESTAMP(MICROS,true)) = 1; optional binary n (STRING) = 2; }", "`n` is `string` in the file, `long` in the table"),
        ("message m { required int64 ts (TIMESTAMP(MICROS,true)) = 1; optional fixed_len_byte_array(9) amount (DECIMAL(20,3)) = 4; }", "`amount`"),
        ("message m { required int64 ts (TIMESTAMP(MICROS,true)) = 1; optional group tags = 5 { optional binary element (STRING) = 6; } }", "a struct in the file, a list"),
    ] {
        let err = fits(text).unwrap_err();
        assert!(err.to_string().contains(what), "{text}: {err}");
    }
}
