//! Random `serde_json::Value` and `Variant` trees for the VARIANT unit tests (a copy of
//! `tests/common/variant_gen.rs`, which the integration tests use), and equality of
//! Variants with floats compared by bits.

use super::Variant;
use proptest::prelude::*;
use serde_json::Value as J;

pub(super) fn json_leaf() -> impl Strategy<Value = J> {
    prop_oneof![
        Just(J::Null),
        any::<bool>().prop_map(J::Bool),
        any::<i64>().prop_map(J::from),
        any::<u64>().prop_map(J::from),
        // Any finite double (subnormals and the extremes included): JSON has no NaN.
        any::<f64>()
            .prop_filter("JSON numbers are finite", |f| f.is_finite())
            .prop_map(J::from),
        ".{0,80}".prop_map(J::String),
    ]
}

pub(super) fn json_tree() -> impl Strategy<Value = J> {
    json_leaf().prop_recursive(5, 64, 8, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..8).prop_map(J::Array),
            prop::collection::btree_map("[a-z]{0,6}|.{0,10}", inner, 0..8)
                .prop_map(|m| J::Object(m.into_iter().collect())),
        ]
    })
}

pub(super) fn variant_leaf() -> impl Strategy<Value = Variant> {
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

pub(super) fn variant_tree() -> impl Strategy<Value = Variant> {
    variant_leaf().prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Variant::Array),
            prop::collection::btree_map(".{0,8}", inner, 0..6).prop_map(Variant::Object),
        ]
    })
}

/// Equality with floats by bits (NaN payloads and signed zeros must survive).
pub(super) fn same(a: &Variant, b: &Variant) -> bool {
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
