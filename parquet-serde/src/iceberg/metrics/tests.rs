use super::*;
use crate::core::file::WriterOptions;
use crate::iceberg::field_ids::with_field_id_hook;
use proptest::prelude::*;

#[derive(serde::Serialize, crate::ParquetSchema)]
#[parquet(crate = "crate")]
struct Row {
    #[parquet(timestamp = "millis")]
    ts: i64,
    n: Option<i32>,
    text: String,
    x: f64,
    inner: Inner,
    tags: Vec<String>,
    #[parquet(bytes)]
    raw: Vec<u8>,
    #[parquet(decimal(precision = 9, scale = 2))]
    amount: i64,
}

#[derive(serde::Serialize, crate::ParquetSchema)]
#[parquet(crate = "crate")]
struct Inner {
    level: Option<i64>,
}

fn write<T: serde::Serialize + crate::ParquetSchema>(
    rows: &[T],
    options: WriterOptions,
) -> Vec<u8> {
    let mut w = crate::Writer::<_, T>::new(Vec::new(), with_field_id_hook(options, None)).unwrap();
    w.write_all(rows).unwrap();
    w.into_inner().unwrap()
}

fn md_of(bytes: &[u8]) -> ParquetMetaData {
    ParquetMetaData::parse(bytes).unwrap()
}

fn id(md: &ParquetMetaData, path: &str) -> i32 {
    let i = md.schema().column_index(path).unwrap();
    md.schema().column(i).unwrap().field_id.unwrap()
}

#[test]
fn counts_and_bounds_by_field_id_rounded_outward() {
    let long_a = format!("a{}", "z".repeat(40));
    let rows = [
        Row {
            ts: 1_000_001,
            n: None,
            text: long_a.clone(),
            x: 1.5,
            inner: Inner { level: Some(3) },
            tags: vec!["t".into(), "u".into()],
            raw: vec![0xFF; 20],
            amount: -12_345,
        },
        Row {
            ts: 2_000_000,
            n: Some(-4),
            text: "b".repeat(40),
            x: 0.0,
            inner: Inner { level: None },
            tags: vec![],
            raw: vec![1, 2],
            amount: 100,
        },
    ];
    let bytes = write(&rows, WriterOptions::default().row_group_rows(1));
    let md = md_of(&bytes);
    let m = data_file_metrics(&md, bytes.len() as u64).unwrap();
    assert_eq!(m.record_count, 2);
    assert_eq!(m.file_size_in_bytes, bytes.len() as i64);
    assert_eq!(m.split_offsets.len(), 2);
    assert!(m.split_offsets.windows(2).all(|w| w[0] < w[1]));

    let (ts, n, text, x) = (id(&md, "ts"), id(&md, "n"), id(&md, "text"), id(&md, "x"));
    let (level, tags, raw, amount) = (
        id(&md, "inner.level"),
        id(&md, "tags.list.element"),
        id(&md, "raw"),
        id(&md, "amount"),
    );
    assert_eq!(m.column_sizes.len(), md.schema().num_columns());
    // millis to micros, exact
    assert_eq!(m.lower_bounds[&ts], 1_000_001_000i64.to_le_bytes());
    assert_eq!(m.upper_bounds[&ts], 2_000_000_000i64.to_le_bytes());
    assert_eq!(m.null_value_counts[&n], 1);
    assert_eq!(m.lower_bounds[&n], (-4i32).to_le_bytes());
    assert_eq!(m.upper_bounds[&n], (-4i32).to_le_bytes());
    // truncate(16): lower cut, upper cut and incremented
    assert_eq!(m.lower_bounds[&text], long_a.as_bytes()[..16]);
    assert_eq!(
        m.upper_bounds[&text],
        format!("{}c", "b".repeat(15)).as_bytes()
    );
    // no NaN: bounds, zero widened to -0.0
    assert_eq!(m.nan_value_counts[&x], 0);
    assert_eq!(m.lower_bounds[&x], (-0.0f64).to_le_bytes());
    assert_eq!(m.upper_bounds[&x], 1.5f64.to_le_bytes());
    // a struct's field keeps its bounds (Iceberg Java's rule)
    assert_eq!(m.null_value_counts[&level], 1);
    assert_eq!(m.upper_bounds[&level], 3i64.to_le_bytes());
    // list elements: counts by element id, no bounds
    assert_eq!(m.value_counts[&tags], 3); // "t", "u" and the empty list's null level
    assert!(!m.lower_bounds.contains_key(&tags));
    assert!(!m.nan_value_counts.contains_key(&tags));
    // binary: 20 bytes of 0xFF have no upper bound in 16 bytes; the lower is cut
    assert_eq!(m.lower_bounds[&raw], [1, 2]);
    assert!(!m.upper_bounds.contains_key(&raw));
    // decimals: minimal big-endian two's complement
    assert_eq!(m.lower_bounds[&amount], [0xCF, 0xC7]);
    assert_eq!(m.upper_bounds[&amount], [100]);
}

#[derive(serde::Serialize, crate::ParquetSchema)]
#[parquet(crate = "crate")]
struct Floats {
    x: Option<f32>,
}

#[test]
fn floats_with_nan_get_counts_not_bounds() {
    let rows = [
        Floats { x: Some(1.0) },
        Floats { x: Some(f32::NAN) },
        Floats { x: None },
    ];
    let bytes = write(&rows, WriterOptions::default());
    let md = md_of(&bytes);
    let m = data_file_metrics(&md, bytes.len() as u64).unwrap();
    let x = id(&md, "x");
    assert_eq!(m.nan_value_counts[&x], 1);
    assert_eq!(m.null_value_counts[&x], 1);
    assert_eq!(m.value_counts[&x], 3);
    assert!(!m.lower_bounds.contains_key(&x) && !m.upper_bounds.contains_key(&x));
}

#[test]
fn a_file_without_ids_or_with_a_type_v2_cannot_hold_is_an_error() {
    let plain = crate::to_vec(&[Floats { x: None }]).unwrap();
    let err = data_file_metrics(&md_of(&plain), 1).unwrap_err();
    assert!(err.to_string().contains("`x` has no field id"), "{err}");

    #[derive(serde::Serialize, crate::ParquetSchema)]
    #[parquet(crate = "crate")]
    struct Unsigned {
        big: u64,
    }
    let bytes = write(&[Unsigned { big: 1 }], WriterOptions::default());
    let err = data_file_metrics(&md_of(&bytes), 1).unwrap_err();
    assert!(err.to_string().contains("`big`"), "{err}");
}

#[test]
fn string_and_binary_edges() {
    assert_eq!(string_bound("abc", Side::Upper).as_deref(), Some("abc"));
    let max_chars: String = std::iter::repeat_n(char::MAX, 20).collect();
    assert_eq!(string_bound(&max_chars, Side::Upper), None);
    assert_eq!(
        string_bound(&max_chars, Side::Lower).map(|s| s.chars().count()),
        Some(16)
    );
    let mut edge: String = "é".repeat(15);
    edge.push(char::MAX);
    edge.push_str("zz");
    // the last character cannot be incremented: the one before it is
    let rounded = format!("{}ê", "é".repeat(14));
    assert_eq!(string_bound(&edge, Side::Upper), Some(rounded));
    // a surrogate gap is skipped: U+D7FF + 1 is U+E000
    let gap: String = std::iter::repeat_n('\u{D7FF}', 17).collect();
    let up = string_bound(&gap, Side::Upper).unwrap();
    assert_eq!(up.chars().last(), Some('\u{E000}'));
    let mut bin = vec![7u8; 15];
    bin.extend([0xFF, 0xFF, 3]);
    let mut expected = vec![7u8; 14];
    expected.push(8);
    assert_eq!(binary_bound(&bin, Side::Upper), Some(expected));
    assert_eq!(binary_bound(&bin, Side::Lower).map(|b| b.len()), Some(16));
}

#[derive(serde::Serialize, crate::ParquetSchema, Debug, Clone)]
#[parquet(crate = "crate")]
struct Random {
    i: Option<i32>,
    l: i64,
    #[parquet(timestamp = "millis")]
    t: i64,
    d: f64,
    s: Option<String>,
    #[parquet(bytes)]
    b: Vec<u8>,
    #[parquet(decimal(precision = 18, scale = 3))]
    dec: i64,
}

fn arb_row() -> impl Strategy<Value = Random> {
    (
        any::<Option<i32>>(),
        any::<i64>(),
        -(1i64 << 50)..(1i64 << 50),
        any::<f64>().prop_filter("no NaN", |f| !f.is_nan()),
        proptest::option::of(".{0,24}"),
        prop::collection::vec(any::<u8>(), 0..24),
        -999_999_999_999_999_999i64..=999_999_999_999_999_999,
    )
        .prop_map(|(i, l, t, d, s, b, dec)| Random {
            i,
            l,
            t,
            d,
            s,
            b,
            dec,
        })
}

fn within(lo: Option<&Vec<u8>>, hi: Option<&Vec<u8>>, ty: PrimitiveType, v: Literal) -> bool {
    let lo = lo.map(|b| Literal::from_bytes(ty, b).unwrap());
    let hi = hi.map(|b| Literal::from_bytes(ty, b).unwrap());
    lo.is_none_or(|lo| lo.compare(&v) != Some(std::cmp::Ordering::Greater))
        && hi.is_none_or(|hi| hi.compare(&v) != Some(std::cmp::Ordering::Less))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn bounds_enclose_every_value(rows in prop::collection::vec(arb_row(), 1..60), rg in 1usize..20) {
        let bytes = write(&rows, WriterOptions::default().row_group_rows(rg));
        let md = md_of(&bytes);
        let m = data_file_metrics(&md, bytes.len() as u64).unwrap();
        prop_assert_eq!(m.record_count as usize, rows.len());
        let ids = |p: &str| id(&md, p);
        let (i, l, t, d, s, b, dec) =
            (ids("i"), ids("l"), ids("t"), ids("d"), ids("s"), ids("b"), ids("dec"));
        prop_assert_eq!(m.null_value_counts[&i] as usize, rows.iter().filter(|r| r.i.is_none()).count());
        prop_assert_eq!(m.value_counts[&l] as usize, rows.len());
        // every bound present where the column has a value (strings may lose the upper)
        prop_assert!(m.lower_bounds.contains_key(&l) && m.upper_bounds.contains_key(&l));
        prop_assert!(m.lower_bounds.contains_key(&d) && m.upper_bounds.contains_key(&d));
        for r in &rows {
            let bound = |id: i32| (m.lower_bounds.get(&id), m.upper_bounds.get(&id));
            if let Some(v) = r.i {
                let (lo, hi) = bound(i);
                prop_assert!(lo.is_some() && hi.is_some());
                prop_assert!(within(lo, hi, PrimitiveType::Int, Literal::Int(v)));
            }
            let (lo, hi) = bound(l);
            prop_assert!(within(lo, hi, PrimitiveType::Long, Literal::Long(r.l)));
            let (lo, hi) = bound(t);
            prop_assert!(within(lo, hi, PrimitiveType::Timestamp, Literal::Timestamp(r.t * 1000)));
            let (lo, hi) = bound(d);
            let v = if r.d == 0.0 { 0.0 } else { r.d };
            prop_assert!(within(lo, hi, PrimitiveType::Double, Literal::Double(v)));
            prop_assert!(within(lo, hi, PrimitiveType::Double, Literal::Double(-v)) || v != 0.0);
            if let Some(v) = &r.s {
                let (lo, hi) = bound(s);
                prop_assert!(lo.is_some());
                prop_assert!(within(lo, hi, PrimitiveType::String, Literal::String(v.clone())));
            }
            let (lo, hi) = bound(b);
            prop_assert!(within(lo, hi, PrimitiveType::Binary, Literal::Binary(r.b.clone())));
            let (lo, hi) = bound(dec);
            let ty = PrimitiveType::Decimal { precision: 18, scale: 3 };
            prop_assert!(within(lo, hi, ty, Literal::Decimal(i128::from(r.dec))));
        }
    }
}
