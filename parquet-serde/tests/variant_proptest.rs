//! Properties of VARIANT: random `serde_json::Value` trees round trip through Variant bytes
//! and through a Parquet VARIANT column; random Variant values of every primitive type round
//! trip through bytes; random and mutated bytes never panic the decoder.

use parquet_serde::variant::{from_variant, to_variant, Variant, VariantRef};
use parquet_serde::ParquetSchema;
use proptest::prelude::*;
use serde::{Deserialize, Serialize};
use serde_json::Value as J;

fn json_leaf() -> impl Strategy<Value = J> {
    prop_oneof![
        Just(J::Null),
        any::<bool>().prop_map(J::Bool),
        any::<i64>().prop_map(J::from),
        any::<u64>().prop_map(J::from),
        // Finite doubles only: JSON has no NaN.
        (-1e300f64..1e300).prop_map(J::from),
        ".{0,80}".prop_map(J::String),
    ]
}

fn json_tree() -> impl Strategy<Value = J> {
    json_leaf().prop_recursive(5, 64, 8, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..8).prop_map(J::Array),
            prop::collection::btree_map("[a-z]{0,6}|.{0,10}", inner, 0..8)
                .prop_map(|m| J::Object(m.into_iter().collect())),
        ]
    })
}

fn variant_leaf() -> impl Strategy<Value = Variant> {
    prop_oneof![
        Just(Variant::Null),
        any::<bool>().prop_map(Variant::Bool),
        any::<i8>().prop_map(Variant::Int8),
        any::<i16>().prop_map(Variant::Int16),
        any::<i32>().prop_map(Variant::Int32),
        any::<i64>().prop_map(Variant::Int64),
        any::<f32>().prop_map(Variant::Float),
        any::<f64>().prop_map(Variant::Double),
        (-999_999_999i32..=999_999_999, 0u8..=9)
            .prop_map(|(unscaled, scale)| Variant::Decimal4 { unscaled, scale }),
        (any::<i64>(), 0u8..=18).prop_map(|(u, scale)| Variant::Decimal8 {
            unscaled: u % 1_000_000_000_000_000_000,
            scale
        }),
        (any::<i128>(), 0u8..=38).prop_map(|(u, scale)| Variant::Decimal16 {
            unscaled: u % 100_000_000_000_000_000_000_000_000_000_000_000_000,
            scale
        }),
        any::<i32>().prop_map(Variant::Date),
        any::<i64>().prop_map(Variant::Time),
        any::<i64>().prop_map(Variant::TimestampMicros),
        any::<i64>().prop_map(Variant::TimestampNtzMicros),
        any::<i64>().prop_map(Variant::TimestampNanos),
        any::<i64>().prop_map(Variant::TimestampNtzNanos),
        prop::collection::vec(any::<u8>(), 0..40).prop_map(Variant::Binary),
        ".{0,100}".prop_map(Variant::String),
        any::<[u8; 16]>().prop_map(Variant::Uuid),
    ]
}

fn variant_tree() -> impl Strategy<Value = Variant> {
    variant_leaf().prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Variant::Array),
            prop::collection::btree_map(".{0,8}", inner, 0..6).prop_map(Variant::Object),
        ]
    })
}

/// Equality with floats by bits (NaN payloads and signed zeros must survive).
fn same(a: &Variant, b: &Variant) -> bool {
    match (a, b) {
        (Variant::Float(x), Variant::Float(y)) => x.to_bits() == y.to_bits(),
        (Variant::Double(x), Variant::Double(y)) => x.to_bits() == y.to_bits(),
        (Variant::Array(x), Variant::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same(p, q))
        }
        (Variant::Object(x), Variant::Object(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|((k, p), (l, q))| k == l && same(p, q))
        }
        _ => a == b,
    }
}

#[derive(Serialize, Deserialize, ParquetSchema, Debug, PartialEq)]
struct Row {
    id: u32,
    #[parquet(variant)]
    doc: J,
    raw: Option<Variant>,
}

/// A shredding schema that random trees partly match.
#[derive(Serialize, Deserialize, ParquetSchema, Debug, PartialEq)]
struct Shape {
    a: i64,
    b: String,
    c: Vec<Option<f64>>,
    d: Inner,
}

#[derive(Serialize, Deserialize, ParquetSchema, Debug, PartialEq)]
struct Inner {
    a: bool,
    e: String,
}

#[derive(Serialize, Deserialize, ParquetSchema, Debug, PartialEq)]
struct ShreddedRow {
    #[parquet(variant(shred = "Shape"))]
    doc: J,
    #[parquet(variant(shred = "Vec<i32>"))]
    list: Option<J>,
}

/// Trees whose keys hit the shredded names often.
fn shaped_tree() -> impl Strategy<Value = J> {
    json_leaf().prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(J::Array),
            prop::collection::btree_map("[a-e]|x", inner, 0..6)
                .prop_map(|m| J::Object(m.into_iter().collect())),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn json_round_trips_through_bytes(j in json_tree()) {
        let v = Variant::from(&j);
        let (m, b) = v.encode();
        let back = Variant::decode(&m, &b).unwrap();
        prop_assert_eq!(&back, &v);
        prop_assert_eq!(J::from(&back), j.clone());
        prop_assert_eq!(VariantRef::new(&m, &b).unwrap().to_json().unwrap(), j.clone());
        let via_serde: J = from_variant(&back).unwrap();
        prop_assert_eq!(via_serde, j.clone());
        prop_assert_eq!(J::from(&to_variant(&j).unwrap()), j);
    }

    #[test]
    fn every_type_round_trips_through_bytes(v in variant_tree()) {
        let (m, b) = v.encode();
        let back = Variant::decode(&m, &b).unwrap();
        prop_assert!(same(&back, &v), "{:?} != {:?}", back, v);
    }

    #[test]
    fn json_round_trips_through_a_parquet_column(
        docs in prop::collection::vec((json_tree(), prop::option::of(variant_tree())), 1..20)
    ) {
        let rows: Vec<Row> = docs
            .into_iter()
            .enumerate()
            .map(|(i, (doc, raw))| Row { id: i as u32, doc, raw })
            .collect();
        let bytes = parquet_serde::to_vec(&rows).unwrap();
        let back: Vec<Row> = parquet_serde::from_slice(&bytes).unwrap();
        prop_assert_eq!(back.len(), rows.len());
        for (b, r) in back.iter().zip(&rows) {
            prop_assert_eq!(&b.doc, &r.doc);
            match (&b.raw, &r.raw) {
                (Some(x), Some(y)) => prop_assert!(same(x, y)),
                (None, None) => {}
                other => prop_assert!(false, "{:?}", other),
            }
        }
    }

    #[test]
    fn json_round_trips_through_a_shredded_column(
        docs in prop::collection::vec((shaped_tree(), prop::option::of(shaped_tree())), 1..20)
    ) {
        let rows: Vec<ShreddedRow> = docs
            .into_iter()
            .map(|(doc, list)| ShreddedRow { doc, list })
            .collect();
        let bytes = parquet_serde::to_vec(&rows).unwrap();
        let back: Vec<ShreddedRow> = parquet_serde::from_slice(&bytes).unwrap();
        prop_assert_eq!(back, rows);
    }

    #[test]
    fn random_bytes_never_panic(
        m in prop::collection::vec(any::<u8>(), 0..40),
        b in prop::collection::vec(any::<u8>(), 0..60),
    ) {
        if let Ok(v) = VariantRef::new(&m, &b) {
            let _ = v.to_variant();
            let _ = v.to_json();
        }
    }

    #[test]
    fn mutated_values_never_panic(v in variant_tree(), at in any::<prop::sample::Index>(), byte in any::<u8>()) {
        let (m, mut b) = v.encode();
        let i = at.index(b.len());
        b[i] = byte;
        if let Ok(view) = VariantRef::new(&m, &b) {
            let _ = view.to_variant();
            let _ = view.to_json();
        }
        let mut m2 = m.clone();
        let j = at.index(m2.len());
        m2[j] = byte;
        if let Ok(view) = VariantRef::new(&m2, &b) {
            let _ = view.to_variant();
        }
    }
}
