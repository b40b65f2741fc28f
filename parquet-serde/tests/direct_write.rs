//! The derive's direct row writer (rows of a plain derived struct written field by field,
//! after the row's `Serialize` has shown it writes just those fields) against the serde path
//! (`shred`, which always goes through the `Serializer`): the same values and levels in
//! every column, and the same errors, for scalar fields, fields that fall back to serde, field
//! attributes that change the leaf's conversion, and hand-written `Serialize` impls that do
//! not write the fields as they are (those rows must not go the direct way).

use std::collections::BTreeMap;

use parquet_serde::core::column::ColumnBatch;
use parquet_serde::core::file::FileReader;
use parquet_serde::{ParquetSchema, Writer, WriterOptions};
use serde::ser::SerializeStruct;
use serde::{Serialize, Serializer};

/// The column batches of `rows` written with `to_vec` (the direct path where it applies)
/// and read back, and those the serde path shreds: they must be equal.
fn assert_same_as_serde<T: Serialize + ParquetSchema>(rows: &[T]) {
    let (schema, want) = parquet_serde::shred(rows).expect("the serde path shreds");
    let bytes = parquet_serde::to_vec(rows).expect("the writer writes");
    let reader = FileReader::new(bytes).expect("the file opens");
    assert_eq!(reader.num_row_groups(), 1);
    let got: Vec<ColumnBatch> = (0..schema.columns().len())
        .map(|c| reader.read_column(0, c).expect("the column reads"))
        .collect();
    for (c, (g, w)) in got.iter().zip(&want).enumerate() {
        assert_eq!(g, w, "column {}", schema.columns()[c].path);
    }
}

/// The error the serde path gives for `rows` and the one the writer gives.
fn errors<T: Serialize + ParquetSchema>(rows: &[T]) -> (String, String) {
    let serde = parquet_serde::shred(rows)
        .expect_err("the serde path refuses a row")
        .to_string();
    let direct = parquet_serde::to_vec(rows)
        .expect_err("the writer refuses a row")
        .to_string();
    (serde, direct)
}

#[derive(Serialize, ParquetSchema)]
struct Scalars {
    i8: i8,
    i16: i16,
    i32: i32,
    i64: i64,
    u8: u8,
    u16: u16,
    u32: u32,
    u64: u64,
    f32: f32,
    f64: f64,
    flag: bool,
    text: String,
    oi64: Option<i64>,
    ou32: Option<u32>,
    of32: Option<f32>,
    oflag: Option<bool>,
    otext: Option<String>,
}

fn scalars(k: i64) -> Scalars {
    let odd = k % 2 == 1;
    Scalars {
        i8: if odd { i8::MIN } else { i8::MAX },
        i16: if odd { i16::MIN } else { i16::MAX },
        i32: if odd { i32::MIN } else { k as i32 },
        i64: if odd { i64::MIN } else { i64::MAX - k },
        u8: if odd { 0 } else { u8::MAX },
        u16: if odd { 0 } else { u16::MAX },
        u32: if odd { u32::MAX } else { k as u32 },
        u64: if odd { u64::MAX } else { k as u64 },
        f32: k as f32 * 0.5,
        f64: -(k as f64) / 3.0,
        flag: odd,
        text: "x".repeat(k as usize % 40),
        oi64: odd.then_some(k),
        ou32: (!odd).then_some(u32::MAX - k as u32),
        of32: odd.then_some(1.5),
        oflag: (k % 3 != 0).then_some(odd),
        otext: (k % 3 == 0).then(|| format!("t{k}")),
    }
}

#[test]
fn scalar_fields_and_options_of_them() {
    let rows: Vec<Scalars> = (0..300).map(scalars).collect();
    assert_same_as_serde(&rows);
}

#[derive(Serialize, ParquetSchema)]
struct Borrowed<'a> {
    name: &'a str,
    alias: Option<&'a str>,
    n: &'a i64,
}

#[test]
fn borrowed_fields() {
    let names: Vec<String> = (0..50).map(|i| format!("n{i}")).collect();
    let ns: Vec<i64> = (0..50).collect();
    let rows: Vec<Borrowed> = names
        .iter()
        .zip(&ns)
        .map(|(s, n)| Borrowed {
            name: s,
            alias: (n % 2 == 0).then_some(s.as_str()),
            n,
        })
        .collect();
    assert_same_as_serde(&rows);
}

#[derive(Serialize, ParquetSchema)]
struct Inner {
    a: i32,
    b: Option<String>,
}

#[derive(Serialize, ParquetSchema)]
enum Shape {
    Dot,
    Circle { r: f64 },
}

#[derive(Serialize, ParquetSchema)]
struct Nested {
    id: u64,
    inner: Inner,
    maybe: Option<Inner>,
    tags: Vec<String>,
    attrs: BTreeMap<String, i64>,
    shape: Shape,
    last: String,
}

#[test]
fn fields_that_go_through_serde_beside_direct_ones() {
    let rows: Vec<Nested> = (0..200)
        .map(|i| Nested {
            id: i,
            inner: Inner {
                a: i as i32,
                b: (i % 2 == 0).then(|| format!("b{i}")),
            },
            maybe: (i % 3 == 0).then_some(Inner { a: -1, b: None }),
            tags: (0..i % 4).map(|t| format!("t{t}")).collect(),
            attrs: (0..i % 3).map(|k| (format!("k{k}"), k as i64)).collect(),
            shape: if i % 2 == 0 {
                Shape::Dot
            } else {
                Shape::Circle { r: i as f64 }
            },
            last: format!("l{i}"),
        })
        .collect();
    assert_same_as_serde(&rows);
}

#[derive(Serialize, ParquetSchema)]
struct Converted {
    #[parquet(timestamp = "micros")]
    ts: i64,
    #[parquet(date)]
    day: i32,
    #[parquet(decimal(precision = 4, scale = 2))]
    price: i64,
    #[parquet(uuid)]
    id: String,
    #[parquet(json)]
    doc: String,
}

fn converted(price: i64) -> Converted {
    Converted {
        ts: 1_700_000_000_000_000,
        day: 19_000,
        price,
        id: "67e55044-10b1-426f-9247-bb680e5fe0c8".into(),
        doc: r#"{"a":1}"#.into(),
    }
}

#[test]
fn attributes_that_change_the_conversion() {
    let rows: Vec<Converted> = (0..20).map(|i| converted(i * 37 - 300)).collect();
    assert_same_as_serde(&rows);
    // A value the conversion refuses: the same error (column and row) both ways.
    let rows = vec![converted(1), converted(12_345), converted(2)];
    let (serde, direct) = errors(&rows);
    assert_eq!(serde, direct);
    assert!(direct.contains("price"), "{direct}");
    assert!(direct.contains("row 1"), "{direct}");
    // A text that is not a UUID.
    let mut bad = converted(1);
    bad.id = "not a uuid".into();
    let (serde, direct) = errors(&[converted(1), bad]);
    assert_eq!(serde, direct);
}

#[test]
fn a_refused_row_leaves_the_writer_as_it_was() {
    let mut w = Writer::new(Vec::new(), WriterOptions::default()).unwrap();
    w.write(&converted(1)).unwrap();
    let e = w.write(&converted(99_999)).unwrap_err();
    assert!(e.to_string().contains("price"), "{e}");
    w.write(&converted(2)).unwrap();
    let bytes = w.into_inner().unwrap();
    let reader = FileReader::new(bytes).unwrap();
    assert_eq!(reader.metadata().num_rows(), 2);
}

#[derive(Serialize, ParquetSchema)]
struct Generic<T> {
    x: T,
    y: i64,
}

#[test]
fn generic_fields() {
    let rows: Vec<Generic<String>> = (0..30)
        .map(|i| Generic {
            x: format!("g{i}"),
            y: i,
        })
        .collect();
    assert_same_as_serde(&rows);
}

// ---------------------------------------------------------------------------------------------
// Hand-written `Serialize` impls with a derived schema: rows they do not write field for
// field must go through serde.

/// Masks `secret` (a temporary, not the field, goes to `serialize_field`).
#[derive(ParquetSchema)]
struct Masked {
    user: String,
    secret: String,
}

impl Serialize for Masked {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct("Masked", 2)?;
        st.serialize_field("user", &self.user)?;
        st.serialize_field("secret", "***")?;
        st.end()
    }
}

/// Doubles odd numbers only: some rows write the field, some a temporary.
#[derive(ParquetSchema)]
struct Sometimes {
    n: i64,
    s: String,
}

impl Serialize for Sometimes {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct("Sometimes", 2)?;
        if self.n % 2 == 1 {
            st.serialize_field("n", &(self.n * 2))?;
        } else {
            st.serialize_field("n", &self.n)?;
        }
        st.serialize_field("s", &self.s)?;
        st.end()
    }
}

/// Writes the fields in the other order.
#[derive(ParquetSchema)]
struct Swapped {
    a: i64,
    b: String,
}

impl Serialize for Swapped {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct("Swapped", 2)?;
        st.serialize_field("b", &self.b)?;
        st.serialize_field("a", &self.a)?;
        st.end()
    }
}

/// A newtype whose own `Serialize` scales the value.
#[derive(ParquetSchema)]
struct Cents(f64);

impl Serialize for Cents {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_f64(self.0 * 100.0)
    }
}

/// Hands the newtype's inner `f64`, at the field's own address, under the field's name.
#[derive(ParquetSchema)]
struct Unwrapped {
    price: Cents,
}

impl Serialize for Unwrapped {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct("Unwrapped", 1)?;
        st.serialize_field("price", &self.price.0)?;
        st.end()
    }
}

/// Writes under other names (the key decides the column on the serde path).
#[derive(ParquetSchema)]
struct Renamed {
    first: i64,
    second: i64,
}

impl Serialize for Renamed {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct("Renamed", 2)?;
        if self.first < 0 {
            st.serialize_field("second", &self.first)?;
            st.serialize_field("first", &self.second)?;
        } else {
            st.serialize_field("first", &self.first)?;
            st.serialize_field("second", &self.second)?;
        }
        st.end()
    }
}

#[test]
fn a_masked_field() {
    let rows: Vec<Masked> = (0..10)
        .map(|i| Masked {
            user: format!("u{i}"),
            secret: format!("s{i}"),
        })
        .collect();
    assert_same_as_serde(&rows);
    let bytes = parquet_serde::to_vec(&rows).unwrap();
    let reader = FileReader::new(bytes).unwrap();
    let secret = reader.read_column(0, 1).unwrap();
    let parquet_serde::core::values::ColumnValues::ByteArray(v) = &secret.values else {
        panic!("text column");
    };
    assert!(v.iter().all(|s| s == b"***"));
}

#[test]
fn a_field_replaced_on_some_rows() {
    let rows: Vec<Sometimes> = (0..20)
        .map(|n| Sometimes {
            n,
            s: format!("s{n}"),
        })
        .collect();
    assert_same_as_serde(&rows);
}

#[test]
fn fields_in_another_order() {
    let rows: Vec<Swapped> = (0..10)
        .map(|a| Swapped {
            a,
            b: format!("b{a}"),
        })
        .collect();
    assert_same_as_serde(&rows);
}

#[test]
fn a_value_of_another_type_at_the_field_address() {
    let rows: Vec<Unwrapped> = (0..10)
        .map(|i| Unwrapped {
            price: Cents(i as f64 + 0.25),
        })
        .collect();
    assert_same_as_serde(&rows);
}

#[test]
fn fields_under_each_others_names_on_some_rows() {
    let rows: Vec<Renamed> = (-5..5)
        .map(|i| Renamed {
            first: i,
            second: i * 10,
        })
        .collect();
    assert_same_as_serde(&rows);
}

static COUNTED_CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// Counts its `serialize` calls (and writes a temporary, so rows cannot go directly).
#[derive(ParquetSchema)]
struct Counted {
    n: i64,
}

impl Serialize for Counted {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        COUNTED_CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let mut st = s.serialize_struct("Counted", 1)?;
        st.serialize_field("n", &(self.n + 1))?;
        st.end()
    }
}

#[test]
fn a_hand_written_serialize_runs_once_per_row_after_the_first() {
    let rows: Vec<Counted> = (0..100).map(|n| Counted { n }).collect();
    COUNTED_CALLS.store(0, std::sync::atomic::Ordering::Relaxed);
    parquet_serde::to_vec(&rows).unwrap();
    // The first row is checked, refused, then written through serde; the direct path is
    // off from then on.
    assert_eq!(
        COUNTED_CALLS.load(std::sync::atomic::Ordering::Relaxed),
        rows.len() + 1
    );
}

// ---------------------------------------------------------------------------------------------
// Random rows

/// Every scalar kind, optional and not, beside a field that goes through serde.
#[derive(Debug, Serialize, ParquetSchema)]
struct Random {
    a: i8,
    b: Option<i16>,
    c: u32,
    d: Option<u64>,
    e: f32,
    f: Option<f64>,
    g: bool,
    h: Option<String>,
    list: Vec<Option<i32>>,
    i: String,
}

fn random_row() -> impl proptest::strategy::Strategy<Value = Random> {
    use proptest::prelude::*;
    (
        any::<i8>(),
        any::<Option<i16>>(),
        any::<u32>(),
        any::<Option<u64>>(),
        // Finite floats: NaN is not equal to itself in the comparison.
        -1e30f32..1e30f32,
        proptest::option::of(-1e300f64..1e300f64),
        any::<bool>(),
        proptest::option::of("[a-z\u{e9}\u{4e16}]{0,40}"),
        proptest::collection::vec(any::<Option<i32>>(), 0..4),
        ".{0,20}",
    )
        .prop_map(|(a, b, c, d, e, f, g, h, list, i)| Random {
            a,
            b,
            c,
            d,
            e,
            f,
            g,
            h,
            list,
            i,
        })
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]

    #[test]
    fn random_rows_as_through_serde(rows in proptest::collection::vec(random_row(), 1..60)) {
        assert_same_as_serde(&rows);
    }
}

#[derive(Serialize, ParquetSchema)]
#[serde(rename_all = "camelCase")]
struct SerdeNamed {
    user_id: i64,
    #[serde(rename = "msg")]
    message: String,
    #[serde(skip)]
    #[allow(dead_code)]
    cache: Vec<u8>,
    last_seen: Option<i64>,
    r#type: String,
}

#[test]
fn serde_names_and_skipped_fields() {
    let rows: Vec<SerdeNamed> = (0..40)
        .map(|i| SerdeNamed {
            user_id: i,
            message: format!("m{i}"),
            cache: vec![1, 2, 3],
            last_seen: (i % 2 == 0).then_some(i * 1000),
            r#type: format!("t{}", i % 3),
        })
        .collect();
    assert_same_as_serde(&rows);
}

/// Fields of a packed struct cannot be borrowed: no direct writer, and it still compiles.
#[derive(Serialize, ParquetSchema)]
#[repr(C, packed)]
struct Packed {
    a: u8,
    b: i64,
}

#[test]
fn packed_structs_go_through_serde() {
    let rows: Vec<Packed> = (0..10)
        .map(|i| Packed {
            a: i as u8,
            b: i * 3,
        })
        .collect();
    assert_same_as_serde(&rows);
}

#[derive(Serialize, ParquetSchema)]
#[repr(C, packed(2))]
struct PackedTo2 {
    a: u8,
    b: i64,
}

#[test]
fn structs_packed_to_an_alignment_go_through_serde() {
    let rows: Vec<PackedTo2> = (0..10).map(|i| PackedTo2 { a: i as u8, b: -i }).collect();
    assert_same_as_serde(&rows);
}
