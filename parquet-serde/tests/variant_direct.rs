//! The direct encoder (`to_variant_bytes`, `VariantEncoder`) against the owned path
//! (`to_variant`): for random JSON-like trees, random Variant trees, maps that repeat keys
//! and every shape of the serde data model, its bytes pass the checked `VariantRef` and
//! decode to the value `to_variant` builds; objects list their fields sorted by name; every
//! id and offset width is reached.

use std::collections::{BTreeMap, HashMap};

// The encoders and the borrowed view this test compares against are crate-private (not API).
use parquet_serde::__internals::variant::{
    json_to_variant_bytes, ValueRef, VariantEncoder, VariantRef,
};
use parquet_serde::variant::{to_variant, to_variant_bytes, Variant};
use proptest::prelude::*;
use serde::ser::{SerializeMap, Serializer};
use serde::Serialize;
use serde_json::Value as J;

#[path = "common/variant_gen.rs"]
mod variant_gen;
use variant_gen::{json_leaf, json_tree, same, variant_tree};

/// Every object below `v` lists its fields strictly sorted by name, and every field is
/// found again by name (the binary search readers use).
fn sorted_everywhere(v: VariantRef<'_>) -> bool {
    match v.value().unwrap() {
        ValueRef::Object(o) => {
            let fields: Vec<_> = o.iter().map(Result::unwrap).collect();
            fields.windows(2).all(|w| w[0].0 < w[1].0)
                && fields.iter().all(|(name, f)| {
                    o.get(name).unwrap().map(|g| g.value_bytes()) == Some(f.value_bytes())
                })
                && fields.iter().all(|(_, f)| sorted_everywhere(*f))
        }
        ValueRef::Array(a) => a.iter().all(|x| sorted_everywhere(x.unwrap())),
        _ => true,
    }
}

/// The direct bytes of `value`, checked and decoded.
fn direct<T: Serialize + ?Sized>(value: &T) -> Variant {
    let (m, b) = to_variant_bytes(value).unwrap();
    let view = VariantRef::new(&m, &b).unwrap();
    assert!(sorted_everywhere(view), "fields out of order: {b:?}");
    view.to_variant().unwrap()
}

/// A map that gives its entries in the order held, repeats included.
struct Entries(Vec<(String, J)>);

impl Serialize for Entries {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            m.serialize_entry(k, v)?;
        }
        m.end()
    }
}

/// Entries with repeats from a small alphabet, at the top and nested.
fn entries() -> impl Strategy<Value = Vec<(String, J)>> {
    let value = prop_oneof![
        json_leaf(),
        prop::collection::vec(("[a-d]", json_leaf()), 0..6)
            .prop_map(|kv| J::Object(kv.into_iter().collect())),
        prop::collection::vec(json_leaf(), 0..4).prop_map(J::Array),
    ];
    prop::collection::vec(("[a-d]{1,2}", value), 0..12)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    #[test]
    fn json_trees_decode_to_the_owned_value(j in json_tree()) {
        let owned = to_variant(&j).unwrap();
        prop_assert!(same(&direct(&j), &owned));
        prop_assert!(same(&owned, &Variant::from(&j)));
    }

    #[test]
    fn variant_trees_keep_every_type(v in variant_tree()) {
        prop_assert!(same(&direct(&v), &v));
        // Nested in a serde type: re-encoded against the outer dictionary.
        let outer = BTreeMap::from([("inner", vec![v.clone(), Variant::Int8(1)])]);
        let want = Variant::object([("inner", Variant::Array(vec![v, Variant::Int8(1)]))]);
        prop_assert!(same(&direct(&outer), &want));
    }

    #[test]
    fn repeated_keys_keep_the_last_value(kv in entries()) {
        let e = Entries(kv.clone());
        let got = direct(&e);
        prop_assert!(same(&got, &to_variant(&e).unwrap()));
        // The last value of each key, as the documentation says.
        let last: BTreeMap<String, J> = kv.into_iter().collect();
        prop_assert!(same(&got, &to_variant(&last).unwrap()));
    }

    #[test]
    fn field_orders_are_right_when_shapes_repeat(
        maps in prop::collection::vec(
            prop::collection::vec(("[a-c]{1,2}|longprefix[a-c]{0,2}", json_leaf()), 0..8),
            1..12,
        )
    ) {
        // Keys in random order, some sharing their first 8 bytes, some repeated, the same
        // shapes coming back: through one encoder, so remembered orders are used.
        let mut enc = VariantEncoder::new();
        for round in 0..2 {
            for kv in &maps {
                let e = Entries(kv.clone());
                let (m, b) = enc.encode(&e).unwrap();
                let view = VariantRef::new(m, b).unwrap();
                prop_assert!(sorted_everywhere(view), "round {}", round);
                prop_assert!(same(&view.to_variant().unwrap(), &to_variant(&e).unwrap()));
            }
        }
    }

    #[test]
    fn one_encoder_serves_many_values(docs in prop::collection::vec(json_tree(), 1..8)) {
        let mut enc = VariantEncoder::new();
        for j in &docs {
            let (m, b) = enc.encode(j).unwrap();
            let got = VariantRef::new(m, b).unwrap().to_variant().unwrap();
            prop_assert!(same(&got, &to_variant(j).unwrap()));
        }
    }

    #[test]
    fn the_json_walk_gives_the_serializer_bytes(docs in prop::collection::vec(json_tree(), 1..8)) {
        // Through one encoder each (remembered names, orders and metadata) and through
        // the thread's; the JSON read back is the JSON written.
        let (mut walk, mut ser) = (VariantEncoder::new(), VariantEncoder::new());
        for j in &docs {
            let want = ser.encode(j).unwrap();
            let want = (want.0.to_vec(), want.1.to_vec());
            let (m, b) = walk.encode_json(j).unwrap();
            prop_assert_eq!((m, b), (&want.0[..], &want.1[..]));
            prop_assert_eq!(json_to_variant_bytes(j).unwrap(), want.clone());
            prop_assert_eq!(&VariantRef::new(&want.0, &want.1).unwrap().to_json().unwrap(), j);
        }
    }
}

#[derive(Serialize)]
enum Shape {
    Unit,
    Newtype(i32),
    Tuple(u8, String),
    Struct { z: bool, a: Option<u64> },
}

#[derive(Serialize)]
struct Unit;

#[derive(Serialize)]
struct Wrapper(&'static str);

#[derive(Serialize)]
struct Everything {
    zeta: i8,
    alpha: (i16, i32, i64, u8, u16, u32, u64),
    wide: (i128, u128, i128),
    floats: (f32, f64),
    text: (char, &'static str, String),
    #[serde(with = "serde_bytes")]
    bytes: Vec<u8>,
    none: Option<u8>,
    some: Option<Option<u8>>,
    units: ((), Unit),
    wrapper: Wrapper,
    shapes: Vec<Shape>,
    int_keys: BTreeMap<i64, u8>,
    big_keys: BTreeMap<u64, u8>,
    bool_keys: BTreeMap<bool, u8>,
    char_keys: BTreeMap<char, u8>,
    hash: HashMap<String, Vec<Option<String>>>,
    variant: Variant,
}

#[test]
fn every_serde_shape_matches_the_owned_path() {
    let e = Everything {
        zeta: -3,
        alpha: (
            -300,
            70_000,
            -(1 << 40),
            200,
            60_000,
            4_000_000_000,
            u64::MAX,
        ),
        wide: (i128::from(i64::MIN) - 1, u128::from(u64::MAX) + 7, -5),
        floats: (-0.0, f64::NAN),
        text: ('é', "short", "long ".repeat(30)),
        bytes: vec![0, 255, 7],
        none: None,
        some: Some(None),
        units: ((), Unit),
        wrapper: Wrapper("w"),
        shapes: vec![
            Shape::Unit,
            Shape::Newtype(-1),
            Shape::Tuple(9, "t".into()),
            Shape::Struct {
                z: true,
                a: Some(1 << 63),
            },
        ],
        int_keys: BTreeMap::from([(-1, 1), (i64::MAX, 2), (10, 3)]),
        big_keys: BTreeMap::from([(u64::MAX, 1)]),
        bool_keys: BTreeMap::from([(true, 1), (false, 0)]),
        char_keys: BTreeMap::from([('x', 1)]),
        hash: HashMap::from([("k".into(), vec![None, Some("v".into())])]),
        variant: Variant::object([
            ("when", Variant::TimestampMicros(5)),
            ("zeta", Variant::Array(vec![Variant::Uuid([1; 16])])),
        ]),
    };
    assert!(same(&direct(&e), &to_variant(&e).unwrap()));
}

#[test]
fn keys_and_values_the_owned_path_refuses_are_errors() {
    struct FloatKeys(Vec<(f64, u8)>);
    impl Serialize for FloatKeys {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.collect_map(self.0.iter().map(|(k, v)| (k, v)))
        }
    }
    let fk = FloatKeys(vec![(1.5, 2)]);
    assert!(to_variant(&fk).is_err());
    assert!(to_variant_bytes(&fk).is_err());
    let seq_key = BTreeMap::from([(vec![1u8], 1u8)]);
    assert!(to_variant(&seq_key).is_err());
    assert!(to_variant_bytes(&seq_key).is_err());
    assert!(to_variant_bytes(&u128::MAX).is_err());
    assert!(to_variant_bytes(&i128::MAX).is_err());
    // The encoder is usable again after an error.
    let mut enc = VariantEncoder::new();
    assert!(enc.encode(&fk).is_err());
    let (m, b) = enc.encode(&serde_json::json!({"a": [1]})).unwrap();
    assert_eq!(
        Variant::decode(m, b).unwrap(),
        Variant::object([("a", Variant::Array(vec![Variant::Int8(1)]))])
    );
}

#[test]
fn every_width_is_reached() {
    // 300 names (2-byte ids, a large object), a 70,000-byte string (3-byte offsets), a
    // 300-element array (a large array).
    let wide: BTreeMap<String, u32> = (0..300).map(|i| (format!("f{i:03}"), i)).collect();
    let doc = serde_json::json!({
        "wide": wide,
        "big": ["y".repeat(70_000), 1],
        "list": (0..300).collect::<Vec<_>>(),
        "empty_o": {},
        "empty_a": [],
    });
    let (m, b) = to_variant_bytes(&doc).unwrap();
    let view = VariantRef::new(&m, &b).unwrap();
    assert!(sorted_everywhere(view));
    assert_eq!(view.to_variant().unwrap(), to_variant(&doc).unwrap());
    let ValueRef::Object(top) = view.value().unwrap() else {
        panic!("not an object")
    };
    let wide = top.get("wide").unwrap().unwrap().value_bytes();
    // Object header: is_large, 2-byte ids.
    assert_eq!(wide[0] >> 2 & 0x1c, 0x10 | 1 << 2);
    let big = top.get("big").unwrap().unwrap().value_bytes();
    // Array header: 3-byte offsets.
    assert_eq!(big[0] >> 2 & 3, 2);
    let list = top.get("list").unwrap().unwrap().value_bytes();
    assert_eq!(list[0] >> 2 & 4, 4);
}

#[test]
fn the_dictionary_is_marked_sorted_only_when_it_is() {
    #[derive(Serialize)]
    struct Sorted {
        a: u8,
        b: u8,
    }
    #[derive(Serialize)]
    struct Unsorted {
        b: u8,
        a: u8,
    }
    let (m, _) = to_variant_bytes(&Sorted { a: 1, b: 2 }).unwrap();
    assert_eq!(m[0] & 0x10, 0x10);
    let (m, b) = to_variant_bytes(&Unsorted { b: 2, a: 1 }).unwrap();
    assert_eq!(m[0] & 0x10, 0);
    assert_eq!(
        Variant::decode(&m, &b).unwrap(),
        Variant::object([("a", Variant::Int8(1)), ("b", Variant::Int8(2))])
    );
}
