//! Shredder tests against schemas written as message-type text, with serde values that do
//! and do not fit them.

use std::collections::BTreeMap;

use serde::ser::{SerializeMap, SerializeStruct};
use serde::{Serialize, Serializer};

use super::shredder::Shredder;
use crate::core::column::ColumnBatch;
use crate::core::values::{ByteArrays, ColumnValues, FixedLenByteArrays};
use crate::ErrorKind;

fn shredder(schema: &str) -> Shredder {
    Shredder::new(&schema.parse().unwrap(), false).unwrap()
}

fn wrapped(schema: &str) -> Shredder {
    Shredder::new(&schema.parse().unwrap(), true).unwrap()
}

fn batches(mut sh: Shredder) -> Vec<ColumnBatch> {
    sh.take_batches()
}

fn strings(v: &[&[u8]]) -> ColumnValues {
    let mut b = ByteArrays::new();
    for s in v {
        b.push(s);
    }
    ColumnValues::ByteArray(b)
}

/// Writes the fields it is given, in the order given (a hand-made struct).
struct Fields(Vec<(&'static str, i32)>);

impl Serialize for Fields {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct("Fields", self.0.len())?;
        for (k, v) in &self.0 {
            st.serialize_field(k, v)?;
        }
        st.end()
    }
}

#[test]
fn struct_fields_any_order_once_each() {
    let schema = "message m { required int32 a; optional int32 b; required int32 c; }";
    let mut sh = shredder(schema);
    sh.shred(&Fields(vec![("a", 1), ("b", 2), ("c", 3)]))
        .unwrap();
    sh.shred(&Fields(vec![("c", 6), ("a", 4)])).unwrap();
    sh.shred(&Fields(vec![("b", 8), ("a", 7), ("c", 9)]))
        .unwrap();
    let e = sh
        .shred(&Fields(vec![("a", 1), ("c", 2), ("a", 3)]))
        .unwrap_err();
    assert!(
        e.to_string().contains("written twice") && e.to_string().contains("column a"),
        "{e}"
    );
    assert_eq!(e.location().row, Some(3));
    let e = sh.shred(&Fields(vec![("a", 1), ("zz", 2)])).unwrap_err();
    assert!(e.to_string().contains("no field `zz`"), "{e}");
    let e = sh.shred(&Fields(vec![("b", 1), ("a", 2)])).unwrap_err();
    assert!(
        e.to_string().contains("required field is missing") && e.to_string().contains("column c"),
        "{e}"
    );
    let b = batches(sh);
    assert_eq!(b[0].values, ColumnValues::Int32(vec![1, 4, 7]));
    assert_eq!(b[1].values, ColumnValues::Int32(vec![2, 8]));
    assert_eq!(b[1].def_levels, [1, 0, 1]);
    assert_eq!(b[2].values, ColumnValues::Int32(vec![3, 6, 9]));
}

/// A map whose keys and values are given as calls.
struct MapCalls(Vec<MapCall>);

enum MapCall {
    Key(&'static str),
    Value(i32),
}

impl Serialize for MapCalls {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(None)?;
        for c in &self.0 {
            match c {
                MapCall::Key(k) => m.serialize_key(k)?,
                MapCall::Value(v) => m.serialize_value(v)?,
            }
        }
        m.end()
    }
}

#[test]
fn maps_need_key_value_pairs() {
    let schema = "message m { required group v (MAP) { repeated group key_value {
        required binary key (STRING); required int32 value; } } }";
    let mut sh = wrapped(schema);
    use MapCall::*;
    sh.shred(&MapCalls(vec![Key("a"), Value(1), Key("b"), Value(2)]))
        .unwrap();
    sh.shred(&MapCalls(vec![])).unwrap();
    for bad in [
        vec![Key("a"), Key("b")],
        vec![Value(1)],
        vec![Key("a"), Value(1), Key("b")],
    ] {
        let e = sh.shred(&MapCalls(bad)).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Data);
    }
    let b = batches(sh);
    assert_eq!(b[0].values, strings(&[b"a", b"b"]));
    assert_eq!(
        (b[0].def_levels.as_slice(), b[0].rep_levels.as_slice()),
        (&[1, 1, 0][..], &[0, 1, 0][..])
    );
    assert_eq!(b[1].values, ColumnValues::Int32(vec![1, 2]));
    // A struct serialized as a map (flatten) is matched by name.
    let mut sh = shredder("message m { required int32 a; optional int32 b; }");
    sh.shred(&MapCalls(vec![Key("b"), Value(2), Key("a"), Value(1)]))
        .unwrap();
    sh.shred(&MapCalls(vec![Key("a"), Value(3)])).unwrap();
    let e = sh.shred(&MapCalls(vec![Key("c"), Value(3)])).unwrap_err();
    assert!(e.to_string().contains("no field `c`"), "{e}");
    let b = batches(sh);
    assert_eq!(b[0].values, ColumnValues::Int32(vec![1, 3]));
    assert_eq!(b[1].def_levels, [1, 0]);
}

#[test]
fn fixed_length_bytes() {
    let schema = "message m { required fixed_len_byte_array(3) f; optional fixed_len_byte_array(16) u (UUID); }";
    #[derive(Serialize)]
    struct R<'a> {
        #[serde(with = "serde_bytes")]
        f: &'a [u8],
        u: Option<u128>,
    }
    #[derive(Serialize)]
    struct T {
        f: [u8; 3],
        u: Option<&'static str>,
    }
    let mut sh = shredder(schema);
    sh.shred(&R {
        f: b"abc",
        u: Some(u128::MAX),
    })
    .unwrap();
    sh.shred(&T {
        f: [1, 2, 3],
        u: Some("00000000-0000-0000-0000-000000000001"),
    })
    .unwrap();
    let e = sh
        .shred(&R {
            f: b"abcd",
            u: None,
        })
        .unwrap_err();
    assert!(
        e.to_string()
            .contains("4 bytes for a fixed-length column of 3"),
        "{e}"
    );
    #[derive(Serialize)]
    struct Short {
        f: [u8; 2],
        u: Option<u8>,
    }
    let e = sh.shred(&Short { f: [1, 2], u: None }).unwrap_err();
    assert!(
        e.to_string()
            .contains("2 bytes for a fixed-length column of 3"),
        "{e}"
    );
    let e = sh
        .shred(&T {
            f: [7, 7, 7],
            u: Some("not a uuid"),
        })
        .unwrap_err();
    assert_eq!(e.location().column.as_deref(), Some("u"));
    let b = batches(sh);
    let mut f = FixedLenByteArrays::new(3);
    f.push(b"abc");
    f.push(&[1, 2, 3]);
    assert_eq!(b[0].values, ColumnValues::FixedLenByteArray(f));
    let mut u = FixedLenByteArrays::new(16);
    u.push(&[0xff; 16]);
    u.push(&1u128.to_be_bytes());
    assert_eq!(b[1].values, ColumnValues::FixedLenByteArray(u));
}

#[test]
fn decimals_check_precision_and_width() {
    let schema = "message m { required fixed_len_byte_array(2) d (DECIMAL(4,1)); required binary v (DECIMAL(30,2)); }";
    #[derive(Serialize)]
    struct R(i64, &'static str);
    let mut sh = shredder(schema);
    sh.shred(&R(9_999, "-0.5")).unwrap();
    sh.shred(&R(-9_999, "123456789012345678901234567.89"))
        .unwrap();
    assert!(sh.shred(&R(10_000, "0")).is_err());
    assert!(sh.shred(&R(0, "0.001")).is_err());
    // Exponents are decimal text (BigDecimal writes them), but not past the precision.
    assert!(sh.shred(&R(0, "1e")).is_err());
    let e = sh.shred(&R(0, "1e28")).unwrap_err();
    assert!(
        e.to_string()
            .contains("more than the column's precision 30"),
        "{e}"
    );
    assert_eq!(e.location().column.as_deref(), Some("v"));
    let b = batches(sh);
    let mut d = FixedLenByteArrays::new(2);
    d.push(&9_999i16.to_be_bytes());
    d.push(&(-9_999i16).to_be_bytes());
    assert_eq!(b[0].values, ColumnValues::FixedLenByteArray(d));
    let big = 12_345_678_901_234_567_890_123_456_789i128.to_be_bytes();
    assert_eq!(b[1].values, strings(&[&[0xce], &big[4..]]));
}

#[test]
fn integers_check_the_annotated_range() {
    let schema =
        "message m { required int32 a (INTEGER(16,false)); required int64 b (INTEGER(64,false));
        required int32 c (INTEGER(8,true)); }";
    let mut sh = shredder(schema);
    sh.shred(&(65_535u32, u64::MAX, -128i64)).unwrap();
    sh.shred(&(0u8, 0i8, 127i128)).unwrap();
    for bad in [
        (65_536i64, 0i64, 0i64),
        (-1, 0, 0),
        (0, -1, 0),
        (0, 0, 128),
        (0, 0, -129),
    ] {
        let e = sh.shred(&bad).unwrap_err();
        assert!(e.to_string().contains("out of the column's range"), "{e}");
    }
    let e = sh.shred(&(0u8, 0u8, 1.5f64)).unwrap_err();
    assert!(
        e.to_string()
            .contains("found an f64 where an integer is expected"),
        "{e}"
    );
    let b = batches(sh);
    assert_eq!(b[0].values, ColumnValues::Int32(vec![65_535, 0]));
    assert_eq!(b[1].values, ColumnValues::Int64(vec![-1, 0]));
    assert_eq!(b[2].values, ColumnValues::Int32(vec![-128, 127]));
}

#[test]
fn text_and_bytes_leaves() {
    let schema =
        "message m { required binary s (STRING); required binary b; required binary e (ENUM); }";
    #[derive(Serialize)]
    enum E {
        #[serde(rename = "first-one")]
        First,
    }
    #[derive(Serialize)]
    struct R<'a>(char, &'a serde_bytes::Bytes, E);
    #[derive(Serialize)]
    struct S<'a>(&'a serde_bytes::Bytes, Vec<u8>, &'a str);
    let mut sh = shredder(schema);
    sh.shred(&R('é', serde_bytes::Bytes::new(b"\xff\x00"), E::First))
        .unwrap();
    sh.shred(&S(serde_bytes::Bytes::new(b"ok"), vec![1, 2], "x"))
        .unwrap();
    let e = sh
        .shred(&S(serde_bytes::Bytes::new(b"\xff"), vec![], "x"))
        .unwrap_err();
    assert!(e.to_string().contains("not UTF-8"), "{e}");
    let e = sh
        .shred(&S(serde_bytes::Bytes::new(b""), vec![], "x"))
        .map(|_| ());
    assert!(e.is_ok());
    let e = sh.shred(&("s", vec![300u16], "e")).unwrap_err();
    assert!(e.to_string().contains("values other than bytes"), "{e}");
    let b = batches(sh);
    assert_eq!(b[0].values, strings(&["é".as_bytes(), b"ok", b""]));
    assert_eq!(b[1].values, strings(&[b"\xff\x00", &[1, 2], b""]));
    assert_eq!(b[2].values, strings(&[b"first-one", b"x", b"x"]));
}

#[test]
fn bytes_at_a_list_of_small_integers() {
    let schema = "message m { required group v (LIST) { repeated group list { required int32 element (INTEGER(8,false)); } } }";
    let mut sh = wrapped(schema);
    sh.shred(serde_bytes::Bytes::new(&[1, 2])).unwrap();
    sh.shred(serde_bytes::Bytes::new(&[])).unwrap();
    sh.shred(&vec![3u8]).unwrap();
    let b = batches(sh);
    assert_eq!(b[0].values, ColumnValues::Int32(vec![1, 2, 3]));
    assert_eq!(b[0].def_levels, [1, 1, 0, 1]);
    assert_eq!(b[0].rep_levels, [0, 1, 0, 0]);
}

#[test]
fn enums_need_optional_variant_fields() {
    #[derive(Serialize)]
    enum E {
        A(i32),
        B { x: i32 },
        C,
        D(i32, i32),
    }
    let enum_schema =
        "message m { optional int32 A; optional group B { required int32 x; } optional boolean C;
        optional group D { required int32 _0; required int32 _1; } }";
    let mut sh = shredder(enum_schema);
    for e in [E::A(1), E::B { x: 2 }, E::C, E::D(3, 4)] {
        sh.shred(&e).unwrap();
    }
    let b = batches(sh);
    assert_eq!(b[0].def_levels, [1, 0, 0, 0]);
    assert_eq!(b[1].def_levels, [0, 1, 0, 0]);
    assert_eq!(b[2].values, ColumnValues::Boolean(vec![true]));
    assert_eq!(b[3].values, ColumnValues::Int32(vec![3]));
    assert_eq!(b[4].values, ColumnValues::Int32(vec![4]));
    let mut sh = shredder("message m { required int32 A; optional int32 B; }");
    let e = sh.shred(&E::A(1)).unwrap_err();
    assert!(
        e.to_string()
            .contains("found enum variant `A` where a struct is expected"),
        "{e}"
    );
    let mut sh = shredder("message m { optional int32 X; }");
    let e = sh.shred(&E::A(1)).unwrap_err();
    assert!(
        e.to_string().contains("no field for enum variant `A`"),
        "{e}"
    );
}

#[test]
fn tuples_take_exactly_their_fields() {
    let mut sh = shredder("message m { required int32 _0; optional binary _1 (STRING); }");
    sh.shred(&(1, "a")).unwrap();
    sh.shred(&(2,)).unwrap();
    let e = sh.shred(&(3, "b", 4)).unwrap_err();
    assert!(
        e.to_string().contains("more values than the 2 fields"),
        "{e}"
    );
    let e = sh.shred(&()).unwrap_err();
    assert!(
        e.to_string()
            .contains("found a unit value where a struct is expected"),
        "{e}"
    );
    let e = sh.shred(&vec![1]).unwrap_err();
    assert!(
        e.to_string()
            .contains("found a sequence where a struct is expected"),
        "{e}"
    );
    let b = batches(sh);
    assert_eq!(b[0].values, ColumnValues::Int32(vec![1, 2]));
    assert_eq!(b[1].def_levels, [1, 0]);
}

#[test]
fn system_time_in_each_unit() {
    use std::time::{Duration, UNIX_EPOCH};
    let schema = "message m { required int64 a (TIMESTAMP(MILLIS,true)); required int64 b (TIMESTAMP(MICROS,true));
        required int64 c (TIMESTAMP(NANOS,true)); }";
    let t = UNIX_EPOCH + Duration::new(1_700_000_000, 123_456_789);
    let mut sh = shredder(schema);
    sh.shred(&(t, t, t)).unwrap();
    let b = batches(sh);
    assert_eq!(b[0].values, ColumnValues::Int64(vec![1_700_000_000_123]));
    assert_eq!(
        b[1].values,
        ColumnValues::Int64(vec![1_700_000_000_123_456])
    );
    assert_eq!(
        b[2].values,
        ColumnValues::Int64(vec![1_700_000_000_123_456_789])
    );
    // Nanoseconds overflow i64 past 2262.
    let mut sh = shredder(schema);
    let far = UNIX_EPOCH + Duration::from_secs(300 * 365 * 86_400);
    let e = sh.shred(&(far, far, far)).unwrap_err();
    assert_eq!(e.location().column.as_deref(), Some("c"));
    // A struct that is not SystemTime is refused.
    #[derive(Serialize)]
    struct SystemTime {
        secs: u64,
    }
    let e = sh.shred(&(SystemTime { secs: 1 }, 0, 0)).unwrap_err();
    assert_eq!(e.location().column.as_deref(), Some("a"));
}

#[test]
fn rollback_restores_every_buffer() {
    let schema = "message m {
        optional group l (LIST) { repeated group list { optional group element {
            required binary s (STRING);
            required group m (MAP) { repeated group key_value { required int32 key; optional fixed_len_byte_array(2) value; } }
        } } }
        required int32 x (INTEGER(8,false));
    }";
    #[derive(Serialize)]
    struct El {
        s: String,
        m: BTreeMap<i32, Option<[u8; 2]>>,
    }
    #[derive(Serialize)]
    struct R {
        l: Option<Vec<Option<El>>>,
        x: i32,
    }
    let el = |s: &str, n: i32| {
        Some(El {
            s: s.into(),
            m: (0..n)
                .map(|k| (k, (k % 2 == 0).then_some([k as u8, 1])))
                .collect(),
        })
    };
    let good = |i: i32| R {
        l: Some(vec![el("a", i % 3), None, el("bb", 2)]),
        x: i,
    };
    let mut sh = shredder(schema);
    let mut reference = shredder(schema);
    for i in 0..6 {
        sh.shred(&good(i)).unwrap();
        reference.shred(&good(i)).unwrap();
        // Fails at the last leaf, after every other leaf took values.
        let bad = R {
            l: Some(vec![el("zz", 3), el("y", 1)]),
            x: 256,
        };
        assert!(sh.shred(&bad).is_err());
        // Fails inside the map, half way through the leaves.
        type Entries = BTreeMap<i32, Option<[u8; 3]>>;
        #[derive(Serialize)]
        struct Bad {
            l: Vec<(String, Entries)>,
            x: i32,
        }
        let bad = Bad {
            l: vec![("q".into(), [(1, Some([1, 2, 3]))].into())],
            x: 1,
        };
        assert!(sh.shred(&bad).is_err());
    }
    assert_eq!(sh.rows(), 6);
    assert_eq!(batches(sh), batches(reference));
}
