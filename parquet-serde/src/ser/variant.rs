//! VARIANT groups on the write path: without `typed_value`, serde's value at a VARIANT node
//! is encoded straight to the row's `metadata` and `value` (through
//! [`to_variant_bytes`](crate::variant::to_variant_bytes)'s encoder). With a `typed_value`
//! it becomes a Variant (through [`to_variant`](crate::variant::to_variant)) whose names make
//! the row's `metadata`, and it is shredded by VariantShredding.md's writer rules: what matches the shredded
//! type goes to the typed columns, the rest to `value` (Variant-encoded against the same
//! metadata); an object's shredded fields are never also in `value`, a missing field has
//! both null, a present null is a Variant null in `value`; array elements are never missing.
//! `None` at the top makes the group null, anything else (a unit, a JSON null) is a present
//! Variant null.

use std::collections::BTreeMap;

use serde::ser::{self, Impossible, Serialize, SerializeMap, SerializeSeq};

use crate::core::format::TimeUnit;
use crate::error::{Error, Result};
use crate::variant::{blob, encode_value, to_variant, with_variant_bytes, Dictionary, Variant};

use super::plan::{Conv, Kind, Text};
use super::serializer::At;
use super::shredder::Shredder;
use crate::reject::{answer_false, reject_containers};

/// Serializes `value` at `node`: a Variant for a VARIANT node, else the ordinary shredding.
#[inline]
pub(crate) fn put<T: Serialize + ?Sized>(
    sh: &mut Shredder,
    node: u32,
    rep: i16,
    value: &T,
) -> Result<()> {
    match sh.nodes[node as usize].kind {
        Kind::Variant { .. } => put_variant(sh, node, rep, value),
        _ => value.serialize(At::new(sh, node, rep)),
    }
}

/// [`put`], with an error that does not name its column located at `node` (how a field,
/// element, map value or variant's value is written).
#[inline(always)]
pub(crate) fn put_located<T: Serialize + ?Sized>(
    sh: &mut Shredder,
    node: u32,
    rep: i16,
    value: &T,
) -> Result<()> {
    put(sh, node, rep, value).map_err(|e| sh.locate(e, node))
}

/// [`put`] at a VARIANT node: out of line, so that the common path stays small enough to
/// inline into each field's serialization.
#[inline(never)]
fn put_variant<T: Serialize + ?Sized>(
    sh: &mut Shredder,
    node: u32,
    rep: i16,
    value: &T,
) -> Result<()> {
    let Kind::Variant {
        metadata,
        value: v,
        typed,
    } = sh.nodes[node as usize].kind
    else {
        return value.serialize(At::new(sh, node, rep));
    };
    if value.serialize(IsNone).unwrap_or(false) {
        return sh.null_at(node, rep);
    }
    let Some(typed) = typed else {
        // An already encoded Variant (a `Variant` field read from bytes, the tracing
        // layer's fields) goes as it is.
        match super::variant_frame::put_frame(sh, metadata, v, rep, value) {
            Ok(true) => return Ok(()),
            Ok(false) => {}
            Err(e) => return Err(sh.locate(e, node)),
        }
        // Unshredded: straight to bytes, no owned value.
        let mut encoded = false;
        let done = with_variant_bytes(value, |m, b| {
            encoded = true;
            sh.put_bytes(metadata, rep, m)?;
            sh.put_bytes(v, rep, b)
        });
        return done.map_err(|e| if encoded { e } else { sh.locate(e, node) });
    };
    let variant = to_variant(value).map_err(|e| sh.locate(e, node))?;
    let dict = variant.dictionary();
    sh.put_bytes(metadata, rep, &dict.to_bytes())?;
    let (rest, shredded) = split(sh, &dict, typed, &variant)?;
    match rest {
        Some(b) => sh.put_bytes(v, rep, &b)?,
        None => sh.null_at(v, rep)?,
    }
    match shredded {
        Some(s) => s.serialize(At::new(sh, typed, rep)),
        None => sh.null_at(typed, rep),
    }
}

/// The shredded part of a value, shaped as its `typed_value` node.
enum Shred<'a> {
    /// A primitive of the column's type.
    Prim(&'a Variant),
    /// A shredded object: one slot per field of the group, in its order.
    Object(Vec<(String, Slot<'a>)>),
    /// A shredded array: one slot per element.
    List(Vec<Slot<'a>>),
}

/// A field or element group: `value` bytes and `typed_value`, both `None` when missing;
/// `typed` is `false` when the group has no `typed_value` column.
struct Slot<'a> {
    value: Option<Vec<u8>>,
    typed: Option<Shred<'a>>,
    has_typed: bool,
}

fn encode(v: &Variant, dict: &Dictionary) -> Result<Vec<u8>> {
    let mut out = Vec::with_capacity(16);
    encode_value(v, dict, &mut out)?;
    Ok(out)
}

/// Splits `v` against `typed_value` node `node`: the `value` bytes of what is not shredded
/// and the shredded part.
fn split<'a>(
    sh: &Shredder,
    dict: &Dictionary,
    node: u32,
    v: &'a Variant,
) -> Result<(Option<Vec<u8>>, Option<Shred<'a>>)> {
    match sh.nodes[node as usize].kind {
        Kind::Leaf(l) => {
            let leaf = &sh.leaves[l as usize];
            if fits(leaf.conv, leaf.utc, v) {
                Ok((None, Some(Shred::Prim(v))))
            } else {
                Ok((Some(encode(v, dict)?), None))
            }
        }
        Kind::Group { first, len } => {
            let Variant::Object(fields) = v else {
                return Ok((Some(encode(v, dict)?), None));
            };
            let mut slots = Vec::with_capacity(len as usize);
            let mut shredded_names = Vec::with_capacity(len as usize);
            for f in first..first + len {
                let name = &sh.nodes[f as usize].name;
                let slot = match fields.get(name) {
                    Some(x) => slot(sh, dict, f, x)?,
                    None => Slot {
                        value: None,
                        typed: None,
                        has_typed: typed_child(sh, f).is_some(),
                    },
                };
                shredded_names.push(name.as_str());
                slots.push((name.clone(), slot));
            }
            let rest: BTreeMap<String, Variant> = fields
                .iter()
                .filter(|(k, _)| !shredded_names.contains(&k.as_str()))
                .map(|(k, x)| (k.clone(), x.clone()))
                .collect();
            let rest = if rest.is_empty() {
                None
            } else {
                Some(encode(&Variant::Object(rest), dict)?)
            };
            Ok((rest, Some(Shred::Object(slots))))
        }
        Kind::List { element, .. } => {
            let Variant::Array(items) = v else {
                return Ok((Some(encode(v, dict)?), None));
            };
            let slots = items
                .iter()
                .map(|x| slot(sh, dict, element, x))
                .collect::<Result<Vec<_>>>()?;
            Ok((None, Some(Shred::List(slots))))
        }
        _ => Ok((Some(encode(v, dict)?), None)),
    }
}

/// The `typed_value` child of a field or element group.
fn typed_child(sh: &Shredder, group: u32) -> Option<u32> {
    let Kind::Group { first, len } = sh.nodes[group as usize].kind else {
        return None;
    };
    (first..first + len).find(|&c| sh.nodes[c as usize].name == "typed_value")
}

/// The slot of a present field or element.
fn slot<'a>(sh: &Shredder, dict: &Dictionary, group: u32, v: &'a Variant) -> Result<Slot<'a>> {
    match typed_child(sh, group) {
        Some(t) => {
            let (value, typed) = split(sh, dict, t, v)?;
            Ok(Slot {
                value,
                typed,
                has_typed: true,
            })
        }
        None => Ok(Slot {
            value: Some(encode(v, dict)?),
            typed: None,
            has_typed: false,
        }),
    }
}

/// Whether a primitive has the type of a shredded column (VariantShredding.md's table;
/// integers of any width in the column's range, as the encoding's exact numeric class).
fn fits(conv: Conv, utc: bool, v: &Variant) -> bool {
    let int = match v {
        Variant::Int8(_) | Variant::Int16(_) | Variant::Int32(_) | Variant::Int64(_) => v.as_i64(),
        _ => None,
    };
    match (conv, v) {
        (Conv::Bool, Variant::Bool(_)) => true,
        (
            Conv::Int32 {
                lo,
                hi,
                text: Text::None,
            },
            _,
        ) => int.is_some_and(|i| (lo..=hi).contains(&i)),
        (
            Conv::Int64 {
                lo,
                hi,
                text: Text::None,
            },
            _,
        ) => int.is_some_and(|i| (lo..=hi).contains(&i128::from(i))),
        (
            Conv::Int32 {
                text: Text::Date, ..
            },
            Variant::Date(_),
        ) => true,
        (
            Conv::Int64 {
                text: Text::Time(TimeUnit::Micros),
                ..
            },
            Variant::Time(_),
        ) => true,
        (
            Conv::Int64 {
                text: Text::Timestamp(unit),
                ..
            },
            _,
        ) => matches!(
            (unit, utc, v),
            (TimeUnit::Micros, true, Variant::TimestampMicros(_))
                | (TimeUnit::Micros, false, Variant::TimestampNtzMicros(_))
                | (TimeUnit::Nanos, true, Variant::TimestampNanos(_))
                | (TimeUnit::Nanos, false, Variant::TimestampNtzNanos(_))
        ),
        (
            Conv::Int32 {
                lo,
                hi,
                text: Text::Decimal(s),
            },
            _,
        ) => v
            .as_decimal()
            .is_some_and(|(u, sc)| u32::from(sc) == s && (lo as i128..=hi as i128).contains(&u)),
        (
            Conv::Int64 {
                lo,
                hi,
                text: Text::Decimal(s),
            },
            _,
        ) => v
            .as_decimal()
            .is_some_and(|(u, sc)| u32::from(sc) == s && (lo..=hi).contains(&u)),
        (
            Conv::Decimal {
                precision, scale, ..
            },
            _,
        ) => v.as_decimal().is_some_and(|(u, sc)| {
            u32::from(sc) == scale
                && u.unsigned_abs() <= super::plan::max_unscaled(precision) as u128
        }),
        (Conv::Float, Variant::Float(_)) | (Conv::Double, Variant::Double(_)) => true,
        (Conv::Str, Variant::String(_)) | (Conv::Binary, Variant::Binary(_)) => true,
        (Conv::Uuid, Variant::Uuid(_)) => true,
        _ => false,
    }
}

/// Bytes handed to serde as bytes.
struct Bytes<'a>(&'a [u8]);

impl Serialize for Bytes<'_> {
    fn serialize<S: ser::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.serialize_bytes(self.0)
    }
}

impl Serialize for Slot<'_> {
    fn serialize<S: ser::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(1 + self.has_typed as usize))?;
        m.serialize_entry("value", &self.value.as_deref().map(Bytes))?;
        if self.has_typed {
            m.serialize_entry("typed_value", &self.typed)?;
        }
        m.end()
    }
}

impl Serialize for Shred<'_> {
    fn serialize<S: ser::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        match self {
            Shred::Object(slots) => {
                let mut m = s.serialize_map(Some(slots.len()))?;
                for (name, slot) in slots {
                    m.serialize_entry(name, slot)?;
                }
                m.end()
            }
            Shred::List(slots) => {
                let mut q = s.serialize_seq(Some(slots.len()))?;
                for slot in slots {
                    q.serialize_element(slot)?;
                }
                q.end()
            }
            Shred::Prim(v) => match **v {
                Variant::Bool(b) => s.serialize_bool(b),
                Variant::Float(x) => s.serialize_f32(x),
                Variant::Double(x) => s.serialize_f64(x),
                Variant::Date(d) => s.serialize_i32(d),
                Variant::Time(t)
                | Variant::TimestampMicros(t)
                | Variant::TimestampNtzMicros(t)
                | Variant::TimestampNanos(t)
                | Variant::TimestampNtzNanos(t) => s.serialize_i64(t),
                Variant::String(ref x) => s.serialize_str(x),
                Variant::Binary(ref b) => s.serialize_bytes(b),
                Variant::Uuid(ref u) => s.serialize_bytes(u),
                ref other => match (other.as_decimal(), other.as_i64()) {
                    (Some((u, _)), _) => s.serialize_i128(u),
                    (None, Some(i)) => s.serialize_i64(i),
                    _ => Err(ser::Error::custom("a variant value that does not shred")),
                },
            },
        }
    }
}

/// Answers whether a value serializes as serde's `None` (looking through newtypes only).
struct IsNone;

impl IsNone {
    /// Ends the look at the first compound value.
    fn reject(&self) -> Error {
        Error::data("compound")
    }
}

impl ser::Serializer for IsNone {
    type Ok = bool;
    type Error = Error;
    type SerializeSeq = Impossible<bool, Error>;
    type SerializeTuple = Impossible<bool, Error>;
    type SerializeTupleStruct = Impossible<bool, Error>;
    type SerializeTupleVariant = Impossible<bool, Error>;
    type SerializeMap = Impossible<bool, Error>;
    type SerializeStruct = Impossible<bool, Error>;
    type SerializeStructVariant = Impossible<bool, Error>;

    fn serialize_none(self) -> Result<bool> {
        Ok(true)
    }
    answer_false!(
        serialize_bool(bool),
        serialize_i8(i8),
        serialize_i16(i16),
        serialize_i32(i32),
        serialize_i64(i64),
        serialize_i128(i128),
        serialize_u8(u8),
        serialize_u16(u16),
        serialize_u32(u32),
        serialize_u64(u64),
        serialize_u128(u128),
        serialize_f32(f32),
        serialize_f64(f64),
        serialize_char(char),
        serialize_str(&str),
        serialize_bytes(&[u8]),
        serialize_unit(),
        serialize_unit_struct(&'static str),
        serialize_unit_variant(&'static str, u32, &'static str)
    );
    fn serialize_some<T: Serialize + ?Sized>(self, _: &T) -> Result<bool> {
        Ok(false)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        value: &T,
    ) -> Result<bool> {
        if name == blob::TOKEN {
            return Ok(false);
        }
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<bool> {
        Ok(false)
    }
    reject_containers!();
    fn is_human_readable(&self) -> bool {
        false
    }
}
