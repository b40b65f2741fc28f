//! Round trips of every type and width, and hostile bytes.

use std::collections::BTreeMap;

use super::*;

fn all_primitives() -> Vec<Variant> {
    vec![
        Variant::Null,
        Variant::Bool(true),
        Variant::Bool(false),
        Variant::Int8(-7),
        Variant::Int16(-300),
        Variant::Int32(1 << 20),
        Variant::Int64(-(1 << 40)),
        Variant::Float(1.5),
        Variant::Double(-2.25),
        Variant::Decimal4 {
            unscaled: -12345,
            scale: 2,
        },
        Variant::Decimal8 {
            unscaled: 1_234_567_890_123,
            scale: 5,
        },
        Variant::Decimal16 {
            unscaled: -12_345_678_901_234_567_890_123,
            scale: 38,
        },
        Variant::Date(19_752),
        Variant::Time(43_200_000_001),
        Variant::TimestampMicros(1_700_000_000_000_001),
        Variant::TimestampNtzMicros(-1),
        Variant::TimestampNanos(1_700_000_000_000_000_001),
        Variant::TimestampNtzNanos(5),
        Variant::Binary(vec![0, 1, 255]),
        Variant::String(String::new()),
        Variant::String("short".into()),
        Variant::String("x".repeat(64)),
        Variant::String("é".repeat(40)),
        Variant::Uuid([7; 16]),
    ]
}

#[test]
fn every_primitive_round_trips() {
    for v in all_primitives() {
        let (m, b) = v.encode();
        assert_eq!(Variant::decode(&m, &b).unwrap(), v, "{v:?}");
        // Through serde (binary form) and back.
        let again: Variant = from_variant(&v).unwrap();
        assert_eq!(again, v);
        assert_eq!(to_variant(&v).unwrap(), v);
    }
}

#[test]
fn short_and_long_strings_are_one_type() {
    let (m, b) = Variant::from("ab").encode();
    assert_eq!(b, [0x09, b'a', b'b']);
    let long = [0x40, 2, 0, 0, 0, b'a', b'b'];
    assert_eq!(Variant::decode(&m, &long).unwrap(), Variant::from("ab"));
}

#[test]
fn containers_of_every_width_round_trip() {
    // > 255 elements (is_large), > 255 names (2-byte ids), > 64 KiB (3-byte offsets).
    let wide: BTreeMap<String, Variant> = (0..300)
        .map(|i| (format!("f{i:03}"), Variant::Int32(i)))
        .collect();
    let big = Variant::Array(vec![Variant::String("y".repeat(70_000)), Variant::Int8(1)]);
    let nested = Variant::object([
        ("wide", Variant::Object(wide.clone())),
        ("big", big.clone()),
        ("list", Variant::Array((0..300).map(Variant::int).collect())),
        ("empty_o", Variant::Object(BTreeMap::new())),
        ("empty_a", Variant::Array(vec![])),
    ]);
    for v in [Variant::Object(wide), big, nested] {
        let (m, b) = v.encode();
        let view = VariantRef::new(&m, &b).unwrap();
        assert_eq!(view.to_variant().unwrap(), v);
        assert_eq!(view.to_json().unwrap(), v.to_json());
    }
}

#[test]
fn larger_widths_than_needed_are_read() {
    // Metadata with 4-byte offsets: one name "a".
    let m = [0xd1, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, b'a'];
    // Object, is_large, 4-byte ids and offsets: {"a": int8 5}.
    let header = (1 << 4 | 3 << 2 | 3) << 2 | 2;
    let mut b = vec![header, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0];
    b.extend([3 << 2, 5]);
    assert_eq!(
        Variant::decode(&m, &b).unwrap(),
        Variant::object([("a", Variant::Int8(5))])
    );
    // Array, is_large, 4-byte offsets: [true].
    let b = [
        (1 << 2 | 3) << 2 | 3,
        1,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        1,
        0,
        0,
        0,
        1 << 2,
    ];
    assert_eq!(
        Variant::decode(&m, &b).unwrap(),
        Variant::Array(vec![Variant::Bool(true)])
    );
}

#[test]
fn unsorted_metadata_and_out_of_order_values_are_read() {
    // Names "b", "a" unsorted; object {"a": 1, "b": 2} with values stored b first.
    let m = [0x01, 2, 0, 1, 2, b'b', b'a'];
    let b = [0x02, 2, 1, 0, 2, 0, 4, 3 << 2, 2, 3 << 2, 1];
    let v = Variant::decode(&m, &b).unwrap();
    assert_eq!(
        v,
        Variant::object([("a", Variant::Int8(1)), ("b", Variant::Int8(2))])
    );
    let view = VariantRef::new(&m, &b).unwrap();
    assert!(matches!(
        view.get("b").unwrap().unwrap().value().unwrap(),
        ValueRef::Int8(2)
    ));
}

#[test]
fn json_round_trips() {
    let j = serde_json::json!({
        "s": "x", "n": null, "t": true, "i": -5, "big": 1i64 << 40, "u": u64::MAX,
        "f": 1.25, "a": [1, "two", {"three": 3.0}], "o": {}
    });
    let v = Variant::from(&j);
    assert_eq!(v.get("u"), Variant::decimal(u64::MAX.into(), 0).as_ref());
    let (m, b) = v.encode();
    let back = Variant::decode(&m, &b).unwrap();
    assert_eq!(serde_json::Value::from(&back), j);
    let via_serde: serde_json::Value = from_variant(&back).unwrap();
    assert_eq!(via_serde, j);
    assert_eq!(VariantRef::new(&m, &b).unwrap().to_json().unwrap(), j);
    // serde_json sees the plain model.
    assert_eq!(serde_json::to_value(&back).unwrap(), j);
    let parsed: Variant = serde_json::from_value(j.clone()).unwrap();
    assert_eq!(parsed, v);
}

#[test]
fn text_forms_of_temporal_types() {
    let j = |v: Variant| serde_json::Value::from(&v);
    assert_eq!(j(Variant::Date(19_752)), "2024-01-30");
    assert_eq!(j(Variant::Time(1_000_001)), "00:00:01.000001");
    assert_eq!(
        j(Variant::TimestampMicros(1)),
        "1970-01-01T00:00:00.000001Z"
    );
    assert_eq!(
        j(Variant::TimestampNtzNanos(1)),
        "1970-01-01T00:00:00.000000001"
    );
    assert_eq!(
        j(Variant::Uuid([0xab; 16])),
        "abababab-abab-abab-abab-abababababab"
    );
    assert_eq!(j(Variant::Binary(vec![1, 2, 3])), "AQID");
    assert_eq!(
        j(Variant::Decimal4 {
            unscaled: 150,
            scale: 2
        }),
        "1.50"
    );
    assert_eq!(j(Variant::Double(f64::NAN)), "NaN");
}

#[test]
fn the_plain_model_gives_a_decimal_as_f64_only_when_its_shortest_form_is_the_decimal() {
    let plain = |u: i128, s: u8| -> serde_json::Value {
        from_variant(&Variant::decimal(u, s).unwrap()).unwrap()
    };
    assert_eq!(plain(150, 2), serde_json::json!(1.5));
    assert_eq!(plain(-5, 3), serde_json::json!(-0.005));
    // Parses to the f64 0.3, whose shortest form 0.3 is another number.
    assert_eq!(
        plain(29_999_999_999_999_999, 17),
        serde_json::json!("0.29999999999999999")
    );
    assert_eq!(
        plain(-123_456_789_987_654_321, 9),
        serde_json::json!("-123456789.987654321")
    );
    assert_eq!(plain(7, 0), serde_json::json!(7));
    assert_eq!(
        serde_json::to_value(Variant::decimal(29_999_999_999_999_999, 17).unwrap()).unwrap(),
        serde_json::json!("0.29999999999999999")
    );
}

#[test]
fn decimals_and_floats_print_every_digit_never_through_f64() {
    // The JSON text of a variant as `cat` writes it, which reads back as the JSON of the
    // owned value and of the view.
    let texts = |v: Variant| {
        let owned = v.to_json();
        let (m, b) = v.encode();
        assert_eq!(VariantRef::new(&m, &b).unwrap().to_json().unwrap(), owned);
        let mut cat = String::new();
        crate::Value::Variant(v).write_json(&mut cat);
        assert_eq!(
            serde_json::from_str::<serde_json::Value>(&cat).unwrap(),
            owned
        );
        cat
    };
    let d = |u: i128, s: u8| texts(Variant::decimal(u, s).unwrap());
    // shredded_variant case-027 (decimal8): f64 would print -123456789.98765433.
    assert_eq!(d(-123_456_789_987_654_321, 9), r#""-123456789.987654321""#);
    assert_eq!(d(123_456_789, 4), r#""12345.6789""#);
    assert_eq!(
        d(-9_876_543_210_123_456_789, 9),
        r#""-9876543210.123456789""#
    );
    // 38 digits (decimal16), the scale's trailing zeros and leading zeros kept.
    let max = 99_999_999_999_999_999_999_999_999_999_999_999_999_i128;
    assert_eq!(d(max, 38), format!(r#""0.{}""#, "9".repeat(38)));
    assert_eq!(d(-max, 0), format!(r#""-{}""#, "9".repeat(38)));
    assert_eq!(d(-5, 3), r#""-0.005""#);
    assert_eq!(d(100, 2), r#""1.00""#);
    // 0.29999999999999999 parses to the f64 0.3: a number would lose it.
    assert_eq!(d(29_999_999_999_999_999, 17), r#""0.29999999999999999""#);
    // Whole decimals of scale 0 within 64 bits are integers, exact.
    assert_eq!(d(i64::MIN.into(), 0), i64::MIN.to_string());
    assert_eq!(d(u64::MAX.into(), 0), u64::MAX.to_string());
    assert_eq!(d(i128::from(u64::MAX) + 1, 0), r#""18446744073709551616""#);
    // A float prints its own shortest form, which reads back to the same f32.
    for f in [
        0.1f32,
        10.11,
        -14.3,
        1e-7,
        f32::MAX,
        f32::MIN_POSITIVE,
        16_777_217.0,
    ] {
        let t = texts(Variant::Float(f));
        assert_eq!(t.parse::<f32>().unwrap().to_bits(), f.to_bits(), "{t}");
        assert_eq!(
            t.parse::<f64>().unwrap(),
            f.to_string().parse::<f64>().unwrap()
        );
    }
    assert_eq!(texts(Variant::Float(0.1)), "0.1");
    assert_eq!(texts(Variant::Float(f32::NEG_INFINITY)), r#""-Infinity""#);
    assert_eq!(texts(Variant::Double(0.1 + 0.2)), "0.30000000000000004");
    // Nanoseconds and int64 extremes keep their digits.
    assert_eq!(
        texts(Variant::TimestampNanos(-1)),
        r#""1969-12-31T23:59:59.999999999Z""#
    );
    assert_eq!(texts(Variant::Int64(i64::MAX)), i64::MAX.to_string());
}

#[derive(serde::Serialize, serde::Deserialize, Debug, PartialEq)]
enum Kind {
    Unit,
    New(u8),
    Tuple(i32, String),
    Struct { a: Option<bool> },
}

#[derive(serde::Serialize, serde::Deserialize, Debug, PartialEq)]
struct Event {
    id: u64,
    name: String,
    score: f32,
    kinds: Vec<Kind>,
    attrs: BTreeMap<String, i64>,
    by_id: BTreeMap<u32, String>,
    nothing: Option<i8>,
    #[serde(with = "serde_bytes_like")]
    raw: Vec<u8>,
    nested: Option<Box<Event>>,
}

mod serde_bytes_like {
    pub fn serialize<S: serde::Serializer>(v: &[u8], s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bytes(v)
    }
    pub fn deserialize<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<u8>, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = Vec<u8>;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("bytes")
            }
            fn visit_bytes<E>(self, v: &[u8]) -> Result<Vec<u8>, E> {
                Ok(v.to_vec())
            }
        }
        d.deserialize_bytes(V)
    }
}

#[test]
fn serde_types_round_trip() {
    let e = Event {
        id: u64::MAX,
        name: "n".into(),
        score: 0.5,
        kinds: vec![
            Kind::Unit,
            Kind::New(9),
            Kind::Tuple(-1, "t".into()),
            Kind::Struct { a: None },
        ],
        attrs: [("x".to_string(), -3)].into(),
        by_id: [(7, "seven".to_string())].into(),
        nothing: None,
        raw: vec![1, 2],
        nested: Some(Box::new(Event {
            id: 1,
            name: String::new(),
            score: 0.0,
            kinds: vec![],
            attrs: BTreeMap::new(),
            by_id: BTreeMap::new(),
            nothing: Some(1),
            raw: vec![],
            nested: None,
        })),
    };
    let v = to_variant(&e).unwrap();
    assert_eq!(
        v.get("kinds").and_then(|k| match k {
            Variant::Array(a) => a.first().cloned(),
            _ => None,
        }),
        Some(Variant::from("Unit"))
    );
    let (m, b) = v.encode();
    let back = Variant::decode(&m, &b).unwrap();
    let e2: Event = from_variant(&back).unwrap();
    assert_eq!(e2, e);
    let e3: Event = from_variant(&VariantRef::new(&m, &b).unwrap().to_variant().unwrap()).unwrap();
    assert_eq!(e3, e);
}

#[test]
fn a_variant_inside_a_serde_type_keeps_its_types() {
    #[derive(serde::Serialize, serde::Deserialize, PartialEq, Debug)]
    struct Holder {
        v: Variant,
    }
    let h = Holder {
        v: Variant::object([("d", Variant::Date(3)), ("t", Variant::TimestampNanos(4))]),
    };
    let v = to_variant(&h).unwrap();
    assert_eq!(v.get("v"), Some(&h.v));
    let back: Holder = from_variant(&v).unwrap();
    assert_eq!(back, h);
}

#[test]
fn hostile_values_are_errors_not_panics() {
    let (m, _) = Variant::object([("a", Variant::Null)]).encode();
    let cases: &[&[u8]] = &[
        &[],
        &[3 << 2],                                 // int8 without its byte
        &[21 << 2, 0],                             // unknown primitive
        &[16 << 2, 0xff, 0xff, 0xff, 0xff],        // string length past the end
        &[16 << 2, 1, 0, 0, 0, 0xff],              // string not UTF-8
        &[0x05 | 0x04, 0xff],                      // short string of 1 byte, not UTF-8
        &[0x09, b'a'],                             // short string cut short
        &[8 << 2, 39, 0, 0, 0, 0],                 // decimal scale 39
        &[0x02, 1, 5, 0, 1, 0],                    // field id 5 not in the metadata
        &[0x02, 1, 0, 9, 1, 0],                    // field offset past the values
        &[0x02, 0xff, 0, 0],                       // 255 fields in 4 bytes
        &[0x02 | 0x40, 0xff, 0xff, 0xff, 0xff, 0], // 4 billion fields
        &[0x03, 2, 0, 2, 1, 0, 0],                 // array offsets go back
        &[0x03, 1, 0, 2, 0],                       // array member past the end
        &[0x03 | 0x20, 0, 0],                      // array reserved bits
        &[0, 0],                                   // trailing byte
        &[0x02, 2, 0, 0, 0, 1, 2, 0, 0],           // field "a" twice
    ];
    for bytes in cases {
        let r = VariantRef::new(&m, bytes).and_then(|v| v.to_variant());
        assert!(r.is_err(), "{bytes:?} gave {r:?}");
        let j = VariantRef::new(&m, bytes).and_then(|v| v.to_json());
        assert!(j.is_err(), "{bytes:?} gave {j:?} as JSON");
    }
}

#[test]
fn deep_nesting_is_capped() {
    let m = Dictionary::default().to_bytes();
    // 200 nested one-element arrays around a null.
    let mut v = vec![0u8];
    for _ in 0..200 {
        let len = v.len();
        let mut outer = vec![0x03, 1, 0, len as u8];
        if len > 255 {
            // 2-byte offsets.
            outer = vec![
                0x03 | (1 << 2),
                1,
                0,
                0,
                (len & 0xff) as u8,
                (len >> 8) as u8,
            ];
        }
        outer.extend_from_slice(&v);
        v = outer;
    }
    let view = VariantRef::new(&m, &v).unwrap();
    let err = view.to_variant().unwrap_err();
    assert!(err.to_string().contains("nested deeper"), "{err}");
    assert!(view.to_json().is_err());
}

#[test]
fn a_named_field_missing_from_the_dictionary_is_an_error() {
    let v = Variant::object([("a", Variant::Null)]);
    let mut out = Vec::new();
    assert!(encode_value(&v, &Dictionary::new(["b"]), &mut out).is_err());
    out.clear();
    encode_value(&v, &Dictionary::new(["a", "b"]), &mut out).unwrap();
    let m = Dictionary::new(["a", "b"]).to_bytes();
    assert_eq!(Variant::decode(&m, &out).unwrap(), v);
}

#[test]
fn an_encoder_rewrites_its_metadata_when_the_dictionary_changes() {
    let mut enc = super::encoder::VariantEncoder::new();
    let check = |enc: &mut super::encoder::VariantEncoder, j: &serde_json::Value| {
        let (m, b) = enc.encode(j).unwrap();
        let back = VariantRef::new(m, b).unwrap().to_json().unwrap();
        assert_eq!(&back, j);
    };
    // Enough names to empty the global table before the next value: afterwards global
    // ids start again at 0, so the second map has the first one's ids, other names.
    let many = |prefix: &str| {
        let m: serde_json::Map<String, serde_json::Value> = (0..5000)
            .map(|i| (format!("{prefix}{i}"), i.into()))
            .collect();
        serde_json::Value::Object(m)
    };
    check(&mut enc, &many("k"));
    check(&mut enc, &many("j"));
    let ab = serde_json::json!({"a": 1, "b": 2});
    check(&mut enc, &ab);
    check(&mut enc, &ab);
    // Other names under the same local ids, then the first again.
    check(&mut enc, &serde_json::json!({"c": 1, "d": 2}));
    check(&mut enc, &ab);
    check(&mut enc, &many("k"));
    check(&mut enc, &serde_json::json!({"x": 1, "y": 2}));
    check(&mut enc, &ab);
    check(&mut enc, &serde_json::json!({}));
    check(&mut enc, &serde_json::json!([1, {"a": null}]));
}

#[test]
fn the_json_walk_caps_nesting_as_the_reader_does() {
    let mut enc = super::encoder::VariantEncoder::new();
    for (n, ok) in [(MAX_DEPTH, true), (MAX_DEPTH + 1, false)] {
        let mut j = serde_json::Value::Null;
        for _ in 0..n {
            j = serde_json::json!([j]);
        }
        assert_eq!(enc.encode_json(&j).is_ok(), ok, "{n}");
        // The encoder is usable after the error.
        let small = serde_json::json!({"a": [1, "x"]});
        let (m, b) = enc.encode_json(&small).unwrap();
        assert_eq!(VariantRef::new(m, b).unwrap().to_json().unwrap(), small);
    }
}
