use super::*;
use crate::core::format::Type;
use crate::core::schema::Repetition;
use crate::iceberg::schema::iceberg_schema;
use proptest::prelude::*;

const NESTED: &str = "message m {
  required int64 a;
  optional group tags (LIST) { repeated group list { optional binary element (STRING); } }
  optional group attrs (MAP) { repeated group key_value {
    required binary key (STRING); optional int32 value; } }
  optional group inner { required boolean ok; }
}";

fn ids(schema: &Schema) -> Vec<(String, Option<i32>)> {
    let mut out = Vec::new();
    fn walk(n: &SchemaNode, path: String, out: &mut Vec<(String, Option<i32>)>) {
        for f in n.fields() {
            let p = if path.is_empty() {
                f.name.clone()
            } else {
                format!("{path}.{}", f.name)
            };
            out.push((p.clone(), f.field_id));
            walk(f, p, out);
        }
    }
    walk(schema.root(), String::new(), &mut out);
    out
}

fn id_of(schema: &Schema, path: &str) -> Option<i32> {
    ids(schema).into_iter().find(|(p, _)| p == path)?.1
}

#[test]
fn fresh_ids_are_a_pre_order_walk() {
    let schema = Schema::parse(NESTED).unwrap();
    let (out, highest) = with_field_ids(&schema, None).unwrap();
    assert_eq!(highest, 8);
    let expected = [
        ("a", Some(1)),
        ("tags", Some(2)),
        ("tags.list", None),
        ("tags.list.element", Some(3)),
        ("attrs", Some(4)),
        ("attrs.key_value", None),
        ("attrs.key_value.key", Some(5)),
        ("attrs.key_value.value", Some(6)),
        ("inner", Some(7)),
        ("inner.ok", Some(8)),
    ];
    let got = ids(&out);
    assert_eq!(
        got,
        expected
            .iter()
            .map(|(p, i)| (p.to_string(), *i))
            .collect::<Vec<_>>()
    );
    // Only the ids changed.
    let mut stripped = out.root().clone();
    strip(&mut stripped);
    assert_eq!(&stripped, schema.root());
    // The result has an Iceberg schema.
    iceberg_schema(&out, 0).unwrap();
}

fn strip(n: &mut SchemaNode) {
    n.field_id = None;
    if let NodeKind::Group { fields } = &mut n.kind {
        fields.iter_mut().for_each(strip);
    }
}

#[test]
fn explicit_ids_are_kept_and_skipped() {
    let schema = Schema::parse(
        "message m { required int64 a; required int64 b = 2; required int64 c; required int64 d = 1; }",
    )
    .unwrap();
    let (out, highest) = with_field_ids(&schema, None).unwrap();
    assert_eq!(
        ids(&out)
            .iter()
            .map(|(_, i)| i.unwrap())
            .collect::<Vec<_>>(),
        [3, 2, 4, 1]
    );
    assert_eq!(highest, 4);
}

#[test]
fn table_ids_are_taken_by_path_and_new_columns_go_above() {
    let table = Schema::parse(
        "message m { required int64 a = 7; optional group tags (LIST) = 3 {
           repeated group list { optional binary element (STRING) = 9; } } }",
    )
    .unwrap();
    let table = iceberg_schema(&table, 0).unwrap();
    let schema = Schema::parse(
        "message m { optional binary new (STRING); required int64 a;
           optional group tags (LIST) { repeated group list { optional binary element (STRING); } } }",
    )
    .unwrap();
    let (out, highest) = with_field_ids(&schema, Some(&table)).unwrap();
    assert_eq!(id_of(&out, "new"), Some(10));
    assert_eq!(id_of(&out, "a"), Some(7));
    assert_eq!(id_of(&out, "tags"), Some(3));
    assert_eq!(id_of(&out, "tags.list.element"), Some(9));
    assert_eq!(highest, 10);
}

#[test]
fn conflicting_ids_are_errors_naming_the_columns() {
    let dup = Schema::parse("message m { required int64 a = 1; required int64 b = 1; }").unwrap();
    let err = with_field_ids(&dup, None).unwrap_err();
    assert!(err.to_string().contains("`a` and `b`"), "{err}");

    let table = iceberg_schema(
        &Schema::parse("message m { required int64 a = 1; required int64 b = 2; }").unwrap(),
        0,
    )
    .unwrap();
    let moved = Schema::parse("message m { required int64 b = 1; }").unwrap();
    let err = with_field_ids(&moved, Some(&table)).unwrap_err();
    assert!(
        err.to_string().contains("`b` has field id 1, which is `a`"),
        "{err}"
    );
    let renumbered = Schema::parse("message m { required int64 a = 5; }").unwrap();
    let err = with_field_ids(&renumbered, Some(&table)).unwrap_err();
    assert!(err.to_string().contains("gives it 1"), "{err}");
    let taken = Schema::parse("message m { required int64 x = 2; required int64 b; }").unwrap();
    // x = 2 is b's id in the table: x is refused first
    assert!(with_field_ids(&taken, Some(&table)).is_err());
}

#[derive(serde::Serialize, crate::ParquetSchema)]
#[parquet(crate = "crate")]
struct Row {
    #[parquet(field_id = 5)]
    id: i64,
    name: String,
    tags: Vec<String>,
}

fn rows() -> Vec<Row> {
    vec![
        Row {
            id: 1,
            name: "a".into(),
            tags: vec!["x".into()],
        },
        Row {
            id: 2,
            name: "b".into(),
            tags: vec![],
        },
    ]
}

#[test]
fn writers_without_the_hook_write_what_they_wrote_before() {
    let plain = crate::to_vec(&rows()).unwrap();
    let mut w = crate::Writer::<_, Row>::new(Vec::new(), WriterOptions::default()).unwrap();
    w.write_all(&rows()).unwrap();
    let same = w.into_inner().unwrap();
    assert_eq!(plain, same);
    let md = crate::core::file::ParquetMetaData::parse(&plain[..]).unwrap();
    // Only the derive's own id.
    let got: Vec<_> = ids(md.schema())
        .into_iter()
        .filter_map(|(_, i)| i)
        .collect();
    assert_eq!(got, [5]);
}

#[test]
fn typed_and_value_writers_with_the_hook_write_ids() {
    let options = with_field_id_hook(WriterOptions::default(), None);
    let mut w = crate::Writer::<_, Row>::new(Vec::new(), options.clone()).unwrap();
    w.write_all(&rows()).unwrap();
    let bytes = w.into_inner().unwrap();
    let md = crate::core::file::ParquetMetaData::parse(&bytes[..]).unwrap();
    assert_eq!(id_of(md.schema(), "id"), Some(5));
    assert_eq!(id_of(md.schema(), "name"), Some(1));
    assert_eq!(id_of(md.schema(), "tags"), Some(2));
    assert_eq!(id_of(md.schema(), "tags.list.element"), Some(3));
    let back: Vec<serde_json::Value> = crate::from_slice(&bytes).unwrap();
    assert_eq!(back.len(), 2);

    // ValueWriter with an inferred schema.
    let mut inferrer = crate::record::SchemaInferrer::new(Default::default());
    inferrer
        .add(&serde_json::json!({"k": 1, "v": {"w": "x"}}))
        .unwrap();
    let schema = inferrer.schema().unwrap();
    let mut vw = crate::record::ValueWriter::new(Vec::new(), schema, options).unwrap();
    vw.write_json_value(&serde_json::json!({"k": 1, "v": {"w": "x"}}))
        .unwrap();
    let bytes = vw.into_inner().unwrap();
    let md = crate::core::file::ParquetMetaData::parse(&bytes[..]).unwrap();
    assert!(ids(md.schema()).iter().all(|(_, i)| i.is_some()));
}

#[cfg(feature = "logs")]
#[test]
fn log_writer_with_the_hook_writes_ids_and_keeps_them_through_recovery() {
    let dir = tempfile::tempdir().unwrap();
    let options = with_field_id_hook(WriterOptions::default(), None);
    let mut logs = crate::logs::LogWriter::<Row>::builder(dir.path())
        .options(options.clone())
        .open()
        .unwrap();
    logs.write_all(&rows()).unwrap();
    logs.flush().unwrap();
    // abandoned (as after a crash): recovery rebuilds the file from its journal
    logs.abandon_current();
    drop(logs);
    let logs = crate::logs::LogWriter::<Row>::builder(dir.path())
        .options(options)
        .open()
        .unwrap();
    let files = logs.close().unwrap();
    let mut found = 0;
    for entry in walk_files(dir.path()) {
        if entry.extension().is_some_and(|e| e == "parquet") {
            let bytes = std::fs::read(&entry).unwrap();
            let md = crate::core::file::ParquetMetaData::parse(&bytes[..]).unwrap();
            assert_eq!(
                id_of(md.schema(), "tags.list.element"),
                Some(3),
                "{entry:?}"
            );
            found += 1;
        }
    }
    assert!(found >= 1, "no file in {files:?}");
}

#[cfg(feature = "logs")]
fn walk_files(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            out.extend(walk_files(&p));
        } else {
            out.push(p);
        }
    }
    out
}

/// A random nested field named `name`, some with an explicit id (from a pool above 10,000
/// that [`unique_ids`] makes unique).
fn arb_field(name: String) -> impl Strategy<Value = SchemaNode> {
    let leaf = (0..5u8, any::<bool>(), any::<bool>()).prop_map(|(t, opt, id)| {
        let rep = if opt {
            Repetition::Optional
        } else {
            Repetition::Required
        };
        let mut n = match t {
            0 => SchemaNode::primitive("x", rep, Type::Int32),
            1 => SchemaNode::primitive("x", rep, Type::Int64),
            2 => SchemaNode::primitive("x", rep, Type::Double),
            3 => SchemaNode::primitive("x", rep, Type::Boolean),
            _ => SchemaNode::primitive("x", rep, Type::ByteArray)
                .with_logical_type(LogicalType::String),
        };
        if id {
            n.field_id = Some(-1);
        }
        n
    });
    leaf.prop_recursive(4, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 1..4).prop_map(|fields| {
                let fields = fields
                    .into_iter()
                    .enumerate()
                    .map(|(i, f)| f.with_name(format!("f{i}")))
                    .collect();
                SchemaNode::group("x", Repetition::Optional, fields)
            }),
            inner
                .clone()
                .prop_map(|e| SchemaNode::list("x", Repetition::Optional, e)),
            inner.prop_map(|v| SchemaNode::map(
                "x",
                Repetition::Optional,
                SchemaNode::primitive("k", Repetition::Required, Type::ByteArray)
                    .with_logical_type(LogicalType::String),
                v
            )),
        ]
    })
    .prop_map(move |n| n.with_name(name.clone()))
}

fn unique_ids(n: &mut SchemaNode, next: &mut i32) {
    if n.field_id.is_some() {
        *next += 1;
        n.field_id = Some(*next);
    }
    if let NodeKind::Group { fields } = &mut n.kind {
        for f in fields {
            unique_ids(f, next);
        }
    }
}

fn arb_schema() -> impl Strategy<Value = Schema> {
    prop::collection::vec(any::<u8>(), 1..5)
        .prop_flat_map(|names| {
            names
                .iter()
                .enumerate()
                .map(|(i, _)| arb_field(format!("c{i}")))
                .collect::<Vec<_>>()
        })
        .prop_map(|fields| {
            let mut root = SchemaNode::group("m", Repetition::Required, fields);
            let mut next = 10_000;
            unique_ids(&mut root, &mut next);
            Schema::new(root).unwrap()
        })
}

fn all_ids(n: &SchemaNode, out: &mut Vec<i32>) {
    for f in n.fields() {
        out.extend(f.field_id);
        all_ids(f, out);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn ids_are_unique_complete_stable_and_kept(schema in arb_schema()) {
        let (out, highest) = with_field_ids(&schema, None).unwrap();
        let mut got = Vec::new();
        all_ids(out.root(), &mut got);
        let n = got.len();
        got.sort_unstable();
        got.dedup();
        prop_assert_eq!(got.len(), n, "duplicate ids");
        prop_assert_eq!(got.last().copied().unwrap_or(0), highest);
        // every node Iceberg gives an id has one: the Iceberg schema builds
        let ice = iceberg_schema(&out, 0).unwrap();
        prop_assert_eq!(ice.types_by_id().len(), n);
        // explicit ids kept
        let mut before = Vec::new();
        all_ids(schema.root(), &mut before);
        for id in &before {
            prop_assert!(got.contains(id));
        }
        // stable: the same input gives the same ids, and the result keeps its own
        let (again, _) = with_field_ids(&schema, None).unwrap();
        prop_assert_eq!(&again, &out);
        let (fixed, _) = with_field_ids(&out, None).unwrap();
        prop_assert_eq!(&fixed, &out);
        // the table's schema gives the same ids to the schema without any
        let mut bare = schema.root().clone();
        strip(&mut bare);
        let bare = Schema::new(bare).unwrap();
        let (matched, _) = with_field_ids(&bare, Some(&ice)).unwrap();
        prop_assert_eq!(&matched, &out);
    }
}
