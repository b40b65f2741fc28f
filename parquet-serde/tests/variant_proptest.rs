//! Properties of VARIANT: random `serde_json::Value` trees round trip through Variant bytes
//! and through a Parquet VARIANT column; random Variant values of every primitive type round
//! trip through bytes; random and mutated bytes never panic the decoder.

use parquet_serde::variant::{from_variant, to_variant, Variant};
use parquet_serde::ParquetSchema;
use proptest::prelude::*;
use serde::{Deserialize, Serialize};
use serde_json::Value as J;

#[path = "common/variant_gen.rs"]
mod variant_gen;
use variant_gen::{json_leaf, json_tree, same, variant_tree};

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
        prop_assert_eq!(Variant::decode(&m, &b).unwrap().to_json(), j.clone());
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
        if let Ok(v) = Variant::decode(&m, &b) {
            let _ = v.to_json();
        }
    }

    #[test]
    fn mutated_values_never_panic(v in variant_tree(), at in any::<prop::sample::Index>(), byte in any::<u8>()) {
        let (m, mut b) = v.encode();
        let i = at.index(b.len());
        b[i] = byte;
        if let Ok(v) = Variant::decode(&m, &b) {
            let _ = v.to_json();
        }
        let mut m2 = m.clone();
        let j = at.index(m2.len());
        m2[j] = byte;
        let _ = Variant::decode(&m2, &b);
    }
}
