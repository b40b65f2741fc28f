//! The schema's shape and conversion answers for every legacy and edge layout of the
//! parquet-testing corpus: each group's shape and each leaf's conversion, file by file.
//! (A unit test since `SchemaNode::group_shape` and `conversion` are crate-private; here,
//! beside the file reader, because it reads the schemas from the corpus's footers.)

use crate::core::file::FileReader;
use crate::core::schema::{GroupShape, Repetition, SchemaNode};

/// The bytes of `data/<name>` in the parquet-testing corpus.
fn corpus_file(name: &str) -> Vec<u8> {
    let dir = crate::test_support::corpus_dir();
    let path = dir.join("data").join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// One line per node below the root, depth first: `path: answer`, the answer being a
/// leaf's conversion, a group's shape, or `entries` for a level that is only a container's
/// entries (the key/value level of a map, the repeated level of a 3-level list). A repeated
/// field of a struct (a bare repeated field: a required list of required elements) is
/// marked `bare list of`.
fn answers(node: &SchemaNode, prefix: &str, role: Role, out: &mut Vec<String>) {
    let path = if prefix.is_empty() {
        node.name.clone()
    } else {
        format!("{prefix}.{}", node.name)
    };
    let mut entry_level = None;
    let answer = match (node.conversion(), node.group_shape()) {
        (Some(conversion), _) => format!("{conversion:?}"),
        _ if role == Role::Entries => "entries".to_string(),
        (None, Some(GroupShape::Struct)) => "struct".to_string(),
        (None, Some(GroupShape::List(l))) => {
            if !l.element_is_repeated() {
                entry_level = Some(l.repeated);
            }
            format!("list {:?} element={}", l.layout, l.element.name)
        }
        (None, Some(GroupShape::Map(m))) => {
            entry_level = Some(m.key_value);
            format!(
                "map key={} value={}",
                m.key.name,
                m.value.map_or("-", |v| v.name.as_str())
            )
        }
        (None, None) => unreachable!("a node is a leaf or a group"),
    };
    let bare = role == Role::Field && node.repetition == Repetition::Repeated;
    let bare = if bare { "bare list of " } else { "" };
    out.push(format!("{path}: {bare}{answer}"));
    let in_container = !matches!(node.group_shape(), Some(GroupShape::Struct) | None);
    for field in node.fields() {
        let role = if entry_level.is_some_and(|level| std::ptr::eq(level, field)) {
            Role::Entries
        } else if in_container {
            Role::Container
        } else {
            Role::Field
        };
        answers(field, &path, role, out);
    }
}

/// Where a node sits.
#[derive(Clone, Copy, PartialEq)]
enum Role {
    /// A field of a struct (the root included).
    Field,
    /// The entry level of a LIST or MAP, read only as its entries.
    Entries,
    /// The repeated level of a LIST that is itself the element.
    Container,
}

fn file_answers(name: &str) -> Vec<String> {
    let bytes = corpus_file(name);
    let file = FileReader::new(&bytes[..]).unwrap_or_else(|e| panic!("{name}: {e}"));
    let mut out = Vec::new();
    for field in file.schema().fields() {
        answers(field, "", Role::Field, &mut out);
    }
    out
}

/// Every node of each file with a legacy or edge layout, or a logical type worth checking.
/// Reading notes:
/// - old_list_structure: `repeated group array (LIST) { repeated int32 array; }` is a
///   2-level element named `array`, itself a 2-level list of its repeated primitive.
/// - repeated_no_annotation, repeated_primitive_no_list: unannotated repeated fields are
///   lists of themselves; their groups stay structs.
/// - map_no_value: `my_map_no_v` has no value column (values read as null).
/// - incorrect_map_schema: optional key and value; still a map.
/// - *.impala: MAP_KEY_VALUE on the key/value level of a MAP is the map's entries.
/// - unknown-logical-type: an unknown LogicalType and no ConvertedType reads plain.
/// - the decimal files: legacy DECIMAL with the element's precision and scale.
const CORPUS: &[(&str, &[&str])] = &[
    (
        "old_list_structure.parquet",
        &[
            "a: list ArrayName element=array",
            "a.array: list RepeatedPrimitive element=array",
            "a.array.array: Plain",
        ],
    ),
    (
        "repeated_no_annotation.parquet",
        &[
            "id: Plain",
            "phoneNumbers: struct",
            "phoneNumbers.phone: bare list of struct",
            "phoneNumbers.phone.number: Plain",
            "phoneNumbers.phone.kind: Text(String)",
        ],
    ),
    (
        "repeated_primitive_no_list.parquet",
        &[
            "Int32_list: bare list of Plain",
            "String_list: bare list of Text(String)",
            "group_of_lists: struct",
            "group_of_lists.Int32_list_in_group: bare list of Plain",
            "group_of_lists.String_list_in_group: bare list of Text(String)",
        ],
    ),
    (
        "nested_lists.snappy.parquet",
        &[
            "a: list ThreeLevel element=element",
            "a.list: entries",
            "a.list.element: list ThreeLevel element=element",
            "a.list.element.list: entries",
            "a.list.element.list.element: list ThreeLevel element=element",
            "a.list.element.list.element.list: entries",
            "a.list.element.list.element.list.element: Text(String)",
            "b: Plain",
        ],
    ),
    (
        "nested_maps.snappy.parquet",
        &[
            "a: map key=key value=value",
            "a.key_value: entries",
            "a.key_value.key: Text(String)",
            "a.key_value.value: map key=key value=value",
            "a.key_value.value.key_value: entries",
            "a.key_value.value.key_value.key: Plain",
            "a.key_value.value.key_value.value: Plain",
            "b: Plain",
            "c: Plain",
        ],
    ),
    (
        "map_no_value.parquet",
        &[
            "my_map: map key=key value=value",
            "my_map.key_value: entries",
            "my_map.key_value.key: Plain",
            "my_map.key_value.value: Plain",
            "my_map_no_v: map key=key value=-",
            "my_map_no_v.key_value: entries",
            "my_map_no_v.key_value.key: Plain",
            "my_list: list ThreeLevel element=element",
            "my_list.list: entries",
            "my_list.list.element: Plain",
        ],
    ),
    (
        "incorrect_map_schema.parquet",
        &[
            "my_map: map key=key value=value",
            "my_map.key_value: entries",
            "my_map.key_value.key: Text(String)",
            "my_map.key_value.value: Text(String)",
        ],
    ),
    (
        "list_columns.parquet",
        &[
            "int64_list: list ThreeLevel element=item",
            "int64_list.list: entries",
            "int64_list.list.item: Plain",
            "utf8_list: list ThreeLevel element=item",
            "utf8_list.list: entries",
            "utf8_list.list.item: Text(String)",
        ],
    ),
    (
        "null_list.parquet",
        &[
            "emptylist: list ThreeLevel element=item",
            "emptylist.list: entries",
            "emptylist.list.item: Plain",
        ],
    ),
    (
        "nonnullable.impala.parquet",
        &[
            "ID: Plain",
            "Int_Array: list ThreeLevel element=element",
            "Int_Array.list: entries",
            "Int_Array.list.element: Plain",
            "int_array_array: list ThreeLevel element=element",
            "int_array_array.list: entries",
            "int_array_array.list.element: list ThreeLevel element=element",
            "int_array_array.list.element.list: entries",
            "int_array_array.list.element.list.element: Plain",
            "Int_Map: map key=key value=value",
            "Int_Map.map: entries",
            "Int_Map.map.key: Text(String)",
            "Int_Map.map.value: Plain",
            "int_map_array: list ThreeLevel element=element",
            "int_map_array.list: entries",
            "int_map_array.list.element: map key=key value=value",
            "int_map_array.list.element.map: entries",
            "int_map_array.list.element.map.key: Text(String)",
            "int_map_array.list.element.map.value: Plain",
            "nested_Struct: struct",
            "nested_Struct.a: Plain",
            "nested_Struct.B: list ThreeLevel element=element",
            "nested_Struct.B.list: entries",
            "nested_Struct.B.list.element: Plain",
            "nested_Struct.c: struct",
            "nested_Struct.c.D: list ThreeLevel element=element",
            "nested_Struct.c.D.list: entries",
            "nested_Struct.c.D.list.element: list ThreeLevel element=element",
            "nested_Struct.c.D.list.element.list: entries",
            "nested_Struct.c.D.list.element.list.element: struct",
            "nested_Struct.c.D.list.element.list.element.e: Plain",
            "nested_Struct.c.D.list.element.list.element.f: Text(String)",
            "nested_Struct.G: map key=key value=value",
            "nested_Struct.G.map: entries",
            "nested_Struct.G.map.key: Text(String)",
            "nested_Struct.G.map.value: struct",
            "nested_Struct.G.map.value.h: struct",
            "nested_Struct.G.map.value.h.i: list ThreeLevel element=element",
            "nested_Struct.G.map.value.h.i.list: entries",
            "nested_Struct.G.map.value.h.i.list.element: Plain",
        ],
    ),
    (
        "nullable.impala.parquet",
        &[
            "id: Plain",
            "int_array: list ThreeLevel element=element",
            "int_array.list: entries",
            "int_array.list.element: Plain",
            "int_array_Array: list ThreeLevel element=element",
            "int_array_Array.list: entries",
            "int_array_Array.list.element: list ThreeLevel element=element",
            "int_array_Array.list.element.list: entries",
            "int_array_Array.list.element.list.element: Plain",
            "int_map: map key=key value=value",
            "int_map.map: entries",
            "int_map.map.key: Text(String)",
            "int_map.map.value: Plain",
            "int_Map_Array: list ThreeLevel element=element",
            "int_Map_Array.list: entries",
            "int_Map_Array.list.element: map key=key value=value",
            "int_Map_Array.list.element.map: entries",
            "int_Map_Array.list.element.map.key: Text(String)",
            "int_Map_Array.list.element.map.value: Plain",
            "nested_struct: struct",
            "nested_struct.A: Plain",
            "nested_struct.b: list ThreeLevel element=element",
            "nested_struct.b.list: entries",
            "nested_struct.b.list.element: Plain",
            "nested_struct.C: struct",
            "nested_struct.C.d: list ThreeLevel element=element",
            "nested_struct.C.d.list: entries",
            "nested_struct.C.d.list.element: list ThreeLevel element=element",
            "nested_struct.C.d.list.element.list: entries",
            "nested_struct.C.d.list.element.list.element: struct",
            "nested_struct.C.d.list.element.list.element.E: Plain",
            "nested_struct.C.d.list.element.list.element.F: Text(String)",
            "nested_struct.g: map key=key value=value",
            "nested_struct.g.map: entries",
            "nested_struct.g.map.key: Text(String)",
            "nested_struct.g.map.value: struct",
            "nested_struct.g.map.value.H: struct",
            "nested_struct.g.map.value.H.i: list ThreeLevel element=element",
            "nested_struct.g.map.value.H.i.list: entries",
            "nested_struct.g.map.value.H.i.list.element: Plain",
        ],
    ),
    (
        "unknown-logical-type.parquet",
        &[
            "column with known type: Text(String)",
            "column with unknown type: Plain",
        ],
    ),
    ("int96_from_spark.parquet", &["a: Int96"]),
    (
        "alltypes_plain.parquet",
        &[
            "id: Plain",
            "bool_col: Plain",
            "tinyint_col: Plain",
            "smallint_col: Plain",
            "int_col: Plain",
            "bigint_col: Plain",
            "float_col: Plain",
            "double_col: Plain",
            "date_string_col: Plain",
            "string_col: Plain",
            "timestamp_col: Int96",
        ],
    ),
    (
        "alltypes_tiny_pages.parquet",
        &[
            "id: Plain",
            "bool_col: Plain",
            "tinyint_col: Integer { bit_width: 8, signed: true }",
            "smallint_col: Integer { bit_width: 16, signed: true }",
            "int_col: Plain",
            "bigint_col: Plain",
            "float_col: Plain",
            "double_col: Plain",
            "date_string_col: Text(String)",
            "string_col: Text(String)",
            "timestamp_col: Int96",
            "year: Plain",
            "month: Plain",
        ],
    ),
    (
        "concatenated_gzip_members.parquet",
        &["long_col: Integer { bit_width: 64, signed: false }"],
    ),
    (
        "datapage_v2.snappy.parquet",
        &[
            "a: Text(String)",
            "b: Plain",
            "c: Plain",
            "d: Plain",
            "e: list ThreeLevel element=element",
            "e.list: entries",
            "e.list.element: Plain",
        ],
    ),
    (
        "byte_array_decimal.parquet",
        &["value: Decimal { precision: 4, scale: 2 }"],
    ),
    (
        "fixed_length_decimal.parquet",
        &["value: Decimal { precision: 25, scale: 2 }"],
    ),
    (
        "fixed_length_decimal_legacy.parquet",
        &["value: Decimal { precision: 13, scale: 2 }"],
    ),
    (
        "int32_decimal.parquet",
        &["value: Decimal { precision: 4, scale: 2 }"],
    ),
    (
        "int64_decimal.parquet",
        &["value: Decimal { precision: 10, scale: 2 }"],
    ),
    (
        "byte_stream_split_extended.gzip.parquet",
        &[
            "float16_plain: Float16",
            "float16_byte_stream_split: Float16",
            "float_plain: Plain",
            "float_byte_stream_split: Plain",
            "double_plain: Plain",
            "double_byte_stream_split: Plain",
            "int32_plain: Plain",
            "int32_byte_stream_split: Plain",
            "int64_plain: Plain",
            "int64_byte_stream_split: Plain",
            "flba5_plain: Plain",
            "flba5_byte_stream_split: Plain",
            "decimal_plain: Decimal { precision: 7, scale: 3 }",
            "decimal_byte_stream_split: Decimal { precision: 7, scale: 3 }",
        ],
    ),
    ("float16_nonzeros_and_nans.parquet", &["x: Float16"]),
    (
        "large_string_map.brotli.parquet",
        &[
            "arr: map key=key value=value",
            "arr.key_value: entries",
            "arr.key_value.key: Text(String)",
            "arr.key_value.value: Plain",
        ],
    ),
];

#[test]
fn every_group_shape_and_leaf_conversion() {
    for (name, want) in CORPUS {
        let got = file_answers(name);
        assert_eq!(got, *want, "{name}: got\n{:#?}", got);
    }
}

/// Spot checks in a file too wide to list: legacy-only INT_64, UINT_64 and
/// TIMESTAMP_MICROS annotations.
#[test]
fn legacy_integer_and_timestamp_annotations() {
    let got = file_answers("nested_structs.rust.parquet");
    for line in [
        "roll_num: struct",
        "roll_num.min: Integer { bit_width: 64, signed: true }",
        "roll_num.count: Integer { bit_width: 64, signed: false }",
        "ul_observation_date.min: Timestamp { unit: Micros, utc: true }",
    ] {
        assert!(
            got.iter().any(|l| l == line),
            "missing `{line}` in {got:#?}"
        );
    }
}
