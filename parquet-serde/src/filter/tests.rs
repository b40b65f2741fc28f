//! Filters select exactly the rows a row-by-row evaluation in plain Rust selects, with and
//! without pruning, for random predicates over flat, nullable, floating point and nested
//! columns.

use proptest::prelude::*;

use super::*;
use crate::core::bloom::BloomFilterOptions;
use crate::core::column::{ColumnBatch, Scalar};
use crate::core::file::{CountingReader, FileReader, FileWriter, WriterOptions};
use crate::core::values::{ByteArrays, ColumnValues};

const ROWS: usize = 1200;
const PER_GROUP: usize = 400;

const SCHEMA: &str = "message m {
  required int64 id;
  optional int32 grp;
  optional binary name (STRING);
  optional double x;
  optional group tags (LIST) { repeated group list { optional int32 element; } }
}";

fn grp(i: usize) -> Option<i32> {
    (!i.is_multiple_of(11)).then_some((i % 17) as i32)
}

fn name(i: usize) -> Option<String> {
    (!i.is_multiple_of(13)).then(|| format!("n{:03}", (i * 7) % 300))
}

fn x(i: usize) -> Option<f64> {
    if i.is_multiple_of(29) {
        None
    } else if i.is_multiple_of(37) {
        Some(f64::NAN)
    } else if i.is_multiple_of(41) {
        Some(-0.0)
    } else {
        Some((i % 50) as f64 / 4.0 - 3.0)
    }
}

fn tags(i: usize) -> Option<Vec<Option<i32>>> {
    (!i.is_multiple_of(23)).then(|| {
        (0..i % 4)
            .map(|j| (!(i + j).is_multiple_of(9)).then_some(((i + j) % 10) as i32))
            .collect()
    })
}

fn file() -> Vec<u8> {
    let options = WriterOptions::default()
        .page_row_limit(50)
        .bloom_filter("name", BloomFilterOptions::default())
        .bloom_filter("grp", BloomFilterOptions::default());
    let mut w = FileWriter::new(Vec::new(), SCHEMA.parse().unwrap(), options).unwrap();
    for g in 0..ROWS / PER_GROUP {
        let rows = g * PER_GROUP..(g + 1) * PER_GROUP;
        let mut chunks = Vec::new();
        let mut c = w.column_writer(0).unwrap();
        c.write(&ColumnBatch {
            values: ColumnValues::Int64(rows.clone().map(|i| i as i64).collect()),
            def_levels: vec![],
            rep_levels: vec![],
        })
        .unwrap();
        chunks.push(c.close().unwrap());
        let mut c = w.column_writer(1).unwrap();
        c.write(&ColumnBatch {
            values: ColumnValues::Int32(rows.clone().filter_map(grp).collect()),
            def_levels: rows.clone().map(|i| grp(i).is_some() as i16).collect(),
            rep_levels: vec![],
        })
        .unwrap();
        chunks.push(c.close().unwrap());
        let mut names = ByteArrays::new();
        for n in rows.clone().filter_map(name) {
            names.push(n.as_bytes());
        }
        let mut c = w.column_writer(2).unwrap();
        c.write(&ColumnBatch {
            values: ColumnValues::ByteArray(names),
            def_levels: rows.clone().map(|i| name(i).is_some() as i16).collect(),
            rep_levels: vec![],
        })
        .unwrap();
        chunks.push(c.close().unwrap());
        let mut c = w.column_writer(3).unwrap();
        c.write(&ColumnBatch {
            values: ColumnValues::Double(rows.clone().filter_map(x).collect()),
            def_levels: rows.clone().map(|i| x(i).is_some() as i16).collect(),
            rep_levels: vec![],
        })
        .unwrap();
        chunks.push(c.close().unwrap());
        let (mut v, mut d, mut r) = (Vec::new(), Vec::new(), Vec::new());
        for i in rows {
            match tags(i) {
                None => {
                    d.push(0);
                    r.push(0);
                }
                Some(t) if t.is_empty() => {
                    d.push(1);
                    r.push(0);
                }
                Some(t) => {
                    for (j, e) in t.iter().enumerate() {
                        r.push(if j == 0 { 0 } else { 1 });
                        match e {
                            Some(e) => {
                                d.push(3);
                                v.push(*e);
                            }
                            None => d.push(2),
                        }
                    }
                }
            }
        }
        let mut c = w.column_writer(4).unwrap();
        c.write(&ColumnBatch {
            values: ColumnValues::Int32(v),
            def_levels: d,
            rep_levels: r,
        })
        .unwrap();
        chunks.push(c.close().unwrap());
        w.write_row_group(chunks).unwrap();
    }
    w.close().unwrap().0
}

/// Three-valued reference evaluation of a predicate on row `i`, in plain Rust.
fn reference(p: &Predicate, i: usize) -> Option<bool> {
    use std::cmp::Ordering;
    fn cmp_op(o: Ordering, op: CmpOp) -> bool {
        match op {
            CmpOp::Eq => o == Ordering::Equal,
            CmpOp::Ne => o != Ordering::Equal,
            CmpOp::Lt => o == Ordering::Less,
            CmpOp::Le => o != Ordering::Greater,
            CmpOp::Gt => o == Ordering::Greater,
            CmpOp::Ge => o != Ordering::Less,
        }
    }
    fn fcmp(a: f64, b: f64) -> Ordering {
        // NaN greatest and equal to itself; -0 == +0.
        match (a.is_nan(), b.is_nan()) {
            (true, true) => Ordering::Equal,
            (true, false) => Ordering::Greater,
            (false, true) => Ordering::Less,
            _ => a.partial_cmp(&b).unwrap(),
        }
    }
    // The values of the column in row i (a list for tags), None for a null slot.
    let values = |c: &str| -> Vec<Option<Scalar>> {
        match c {
            "id" => vec![Some(Scalar::Int(i as i128))],
            "grp" => vec![grp(i).map(Scalar::from)],
            "name" => vec![name(i).map(Scalar::from)],
            "x" => vec![x(i).map(Scalar::Float)],
            "tags.list.element" => match tags(i) {
                None => vec![None],
                Some(t) if t.is_empty() => vec![None],
                Some(t) => t.into_iter().map(|e| e.map(Scalar::from)).collect(),
            },
            _ => unreachable!(),
        }
    };
    let order = |a: &Scalar, b: &Scalar| match (a, b) {
        (Scalar::Float(a), Scalar::Float(b)) => fcmp(*a, *b),
        (Scalar::Float(a), Scalar::Int(b)) => fcmp(*a, *b as f64),
        _ => a.compare(b).unwrap(),
    };
    // Any value in the row: Kleene OR over slots.
    let any = |c: &str, f: &dyn Fn(&Scalar) -> bool, null: Option<bool>| {
        let mut acc = Some(false);
        for v in values(c) {
            let r = v.as_ref().map_or(null, |v| Some(f(v)));
            acc = match (acc, r) {
                (Some(true), _) | (_, Some(true)) => Some(true),
                (None, _) | (_, None) => None,
                _ => Some(false),
            };
        }
        acc
    };
    match p {
        Predicate::Compare { column, op, value } => {
            any(column, &|v| cmp_op(order(v, value), *op), None)
        }
        Predicate::Between { column, low, high } => any(
            column,
            &|v| order(v, low) != Ordering::Less && order(v, high) != Ordering::Greater,
            None,
        ),
        Predicate::InList { column, values } => any(
            column,
            &|v| values.iter().any(|w| order(v, w) == Ordering::Equal),
            None,
        ),
        Predicate::IsNull { column } => any(column, &|_| false, Some(true)),
        Predicate::IsNotNull { column } => any(column, &|_| true, Some(false)),
        Predicate::IntersectsBbox { .. } => unreachable!("the generated predicates test no boxes"),
        Predicate::Like { column, pattern } => any(
            column,
            &|v| super::like::like(v.as_bytes().unwrap_or_default(), pattern),
            None,
        ),
        Predicate::CompareColumns { left, op, right } => {
            match (&values(left)[0], &values(right)[0]) {
                (Some(a), Some(b)) => Some(cmp_op(order(a, b), *op)),
                _ => None,
            }
        }
        Predicate::Unknown => None,
        Predicate::And(a, b) => match (reference(a, i), reference(b, i)) {
            (Some(false), _) | (_, Some(false)) => Some(false),
            (Some(true), Some(true)) => Some(true),
            _ => None,
        },
        Predicate::Or(a, b) => match (reference(a, i), reference(b, i)) {
            (Some(true), _) | (_, Some(true)) => Some(true),
            (Some(false), Some(false)) => Some(false),
            _ => None,
        },
        Predicate::Not(a) => reference(a, i).map(|b| !b),
    }
}

fn selected_ids(
    reader: &FileReader<impl crate::core::file::ChunkReader>,
    p: &Predicate,
    o: FilterOptions,
) -> Vec<usize> {
    let sel = reader
        .filter(p.clone())
        .unwrap()
        .with_options(o)
        .select()
        .unwrap();
    sel.row_groups
        .iter()
        .flat_map(|(rg, s)| {
            s.ranges()
                .iter()
                .flat_map(move |r| r.clone().map(move |row| rg * PER_GROUP + row as usize))
                .collect::<Vec<_>>()
        })
        .collect()
}

fn leaf() -> impl Strategy<Value = Predicate> {
    let op = prop_oneof![
        Just(CmpOp::Eq),
        Just(CmpOp::Ne),
        Just(CmpOp::Lt),
        Just(CmpOp::Le),
        Just(CmpOp::Gt),
        Just(CmpOp::Ge)
    ];
    prop_oneof![
        (op.clone(), 0..1300i64).prop_map(|(o, v)| Predicate::Compare {
            column: "id".into(),
            op: o,
            value: v.into()
        }),
        (op.clone(), -1..18i32).prop_map(|(o, v)| Predicate::Compare {
            column: "grp".into(),
            op: o,
            value: v.into()
        }),
        (op.clone(), 0..310usize).prop_map(|(o, v)| Predicate::Compare {
            column: "name".into(),
            op: o,
            value: format!("n{v:03}").into()
        }),
        (
            op.clone(),
            prop_oneof![
                (-16..50i32).prop_map(|v| v as f64 / 4.0),
                Just(f64::NAN),
                Just(0.0)
            ]
        )
            .prop_map(|(o, v)| Predicate::Compare {
                column: "x".into(),
                op: o,
                value: v.into()
            }),
        (op.clone(), 0..11i32).prop_map(|(o, v)| Predicate::Compare {
            column: "tags.list.element".into(),
            op: o,
            value: v.into()
        }),
        (0..1300i64, 0..200i64).prop_map(|(a, w)| col("id").between(a, a + w)),
        (-2..20i32, 0..5i32).prop_map(|(a, w)| col("x").between(a, a + w)),
        proptest::collection::vec(0..20i32, 0..4).prop_map(|v| col("grp").in_list(v)),
        proptest::collection::vec(0..300usize, 1..4)
            .prop_map(|v| col("name").in_list(v.into_iter().map(|k| format!("n{k:03}")))),
        prop_oneof![
            Just("grp"),
            Just("name"),
            Just("x"),
            Just("tags.list.element")
        ]
        .prop_flat_map(|c| prop_oneof![Just(col(c).is_null()), Just(col(c).is_not_null())]),
        // Decimal literals against an integer column compare exactly (`grp > 3.5`, `grp = 3.0`).
        (
            op.clone(),
            -3..20i32,
            prop_oneof![Just(".5"), Just(".0"), Just(".001")]
        )
            .prop_map(|(o, v, f)| Predicate::Compare {
                column: "grp".into(),
                op: o,
                value: Scalar::Decimal(format!("{v}{f}").parse().unwrap())
            }),
        // LIKE on text: its prefix prunes.
        prop_oneof![
            Just("n0%"),
            Just("n1_3"),
            Just("%7"),
            Just("n2%5"),
            Just("n%"),
            Just("x%")
        ]
        .prop_map(|p| col("name").like(p)),
        // IN with null, as SQL: `or null`.
        proptest::collection::vec(0..20i32, 0..3)
            .prop_map(|v| col("grp").in_list(v).or(Predicate::Unknown)),
        // Column against column.
        (
            op,
            prop_oneof![Just(("grp", "x")), Just(("x", "grp")), Just(("id", "grp"))]
        )
            .prop_map(|(o, (a, b))| Predicate::CompareColumns {
                left: a.into(),
                op: o,
                right: b.into()
            }),
    ]
}

fn predicate() -> impl Strategy<Value = Predicate> {
    leaf().prop_recursive(3, 12, 2, |inner| {
        prop_oneof![
            (inner.clone(), inner.clone()).prop_map(|(a, b)| a.and(b)),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| a.or(b)),
            inner.prop_map(not),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]
    #[test]
    fn filters_equal_row_by_row_evaluation(p in predicate()) {
        thread_local! {
            static FILE: Vec<u8> = file();
        }
        FILE.with(|bytes| {
            let reader = FileReader::new(bytes.as_slice()).unwrap();
            let want: Vec<usize> = (0..ROWS).filter(|&i| reference(&p, i) == Some(true)).collect();
            let pruned = selected_ids(&reader, &p, FilterOptions::default());
            prop_assert_eq!(&pruned, &want, "{}", p);
            let full = selected_ids(&reader, &p, FilterOptions::none());
            prop_assert_eq!(&full, &want, "{}", p);
            Ok(())
        })?;
    }
}

#[test]
fn pruning_reads_less() {
    let bytes = file();
    let reader = FileReader::new(CountingReader::new(bytes.as_slice())).unwrap();
    let footer = reader.get_ref().bytes_read();
    let p = col("id").between(410, 420);
    let sel = reader.filter(p.clone()).unwrap().select().unwrap();
    assert_eq!(sel.row_count(), 11);
    assert_eq!(sel.report.pruned_by_statistics, 2);
    assert_eq!(sel.report.rows_candidate, 50);
    let used = reader.get_ref().bytes_read() - footer;
    assert!(used * 10 < bytes.len() as u64, "{used} of {}", bytes.len());
    // Bloom filters: a name that does not occur.
    let sel = reader
        .filter(col("name").eq("zzz"))
        .unwrap()
        .select()
        .unwrap();
    assert_eq!(sel.report.pruned_by_statistics, 3);
    let sel = reader
        .filter(col("name").eq("n001x"))
        .unwrap()
        .select()
        .unwrap();
    assert_eq!(sel.row_count(), 0);
    assert!(sel.report.pruned_by_bloom_filter >= 2, "{:?}", sel.report);
    // Dictionaries: grp has a Bloom filter, tags does not.
    let sel = reader
        .filter(col("tags.list.element").eq(11))
        .unwrap()
        .select()
        .unwrap();
    assert_eq!(sel.report.pruned_by_statistics, 3);
    let sel = reader
        .filter(col("tags.list.element").in_list([-5, 20]))
        .unwrap()
        .with_options(FilterOptions {
            statistics: false,
            ..Default::default()
        })
        .select()
        .unwrap();
    assert_eq!(sel.report.pruned_by_dictionary, 3, "{:?}", sel.report);
}

#[test]
fn rows_read_back() {
    let bytes = file();
    let reader = FileReader::new(bytes.as_slice()).unwrap();
    let rows = reader
        .filter(
            col("id")
                .ge(1195)
                .and(col("tags.list.element").is_not_null()),
        )
        .unwrap()
        .read_rows(&["id", "tags"])
        .unwrap();
    let ids: Vec<_> = rows.iter().map(|r| r.get("id").cloned()).collect();
    use crate::record::Value;
    assert_eq!(
        ids,
        (1195..1200)
            .filter(|&i| tags(i).is_some_and(|t| t.iter().any(Option::is_some)))
            .map(|i| Some(Value::Int(i as i64)))
            .collect::<Vec<_>>()
    );
    assert!(reader
        .filter(col("id").eq(1))
        .unwrap()
        .read_rows(&["nope"])
        .is_err());
}
