//! VARIANT groups: one instance is read as `metadata`, `value` and `typed_value` (each
//! child as a dynamic [`Value`], consuming its cursors), then reconstructed as one
//! [`Variant`] per VariantShredding.md, and handed to the visitor: as the value itself
//! ([`Variant`]'s own `Deserialize`, [`Value::Variant`]) or through the Variant
//! deserializer for any other Rust type.

use serde::de::{
    self, Deserialize, DeserializeSeed, Deserializer, EnumAccess, VariantAccess, Visitor,
};

use crate::core::format::{TimeUnit, Type};
use crate::error::{Error, Result};
use crate::value::Value;
use crate::variant::{blob, Metadata, Variant, VariantDeserializer, VariantRef};

use super::error::DeError;
use super::node::{NodeDe, Res, Want};
use super::tree::{Conv, Kind, NodeId, Shape, Tree};

fn conflict(what: &str) -> Error {
    Error::data(format!("invalid variant, {what}"))
}

impl NodeDe<'_> {
    /// Reads this VARIANT group's instance (its presence already settled) and answers `want`.
    pub(super) fn variant<'de, V: Visitor<'de>>(
        self,
        (metadata, value, typed): (NodeId, Option<NodeId>, Option<NodeId>),
        want: Want,
        visitor: V,
    ) -> Res<V::Value> {
        let tree = self.tree;
        let mut parts = (Value::Null, Value::Null, Value::Null);
        let probing = self.st.probing();
        for &child in tree.nodes[self.id].children() {
            // A child left out of the selection (one shredded path read alone) is absent.
            if !probing && tree.nodes[child].decide.is_none() {
                continue;
            }
            let read = Value::deserialize(NodeDe::field(tree, self.st, child))?;
            if child == metadata {
                parts.0 = read;
            } else if Some(child) == value {
                parts.1 = read;
            } else if Some(child) == typed {
                parts.2 = read;
            }
        }
        let v = if self.st.probe.is_some() {
            // Stand-in values: nothing to reconstruct, the columns are recorded. An empty
            // container lets map and sequence types (and structs whose fields all have
            // defaults) finish the probe, which keeps the projection of the other columns.
            match want {
                Want::Map | Want::Struct(_) => Variant::Object(Default::default()),
                Want::Seq | Want::Tuple(_) => Variant::Array(Vec::new()),
                _ => Variant::Null,
            }
        } else {
            let selected = tree.nodes[metadata].decide.is_some();
            assemble(tree, typed, &parts, selected).map_err(DeError::new)?
        };
        hand_over(v, want, visitor)
    }
}

/// An empty dictionary: the metadata of a group read without its `metadata` column (no
/// `value` column is read then, see `select_leaves`).
const NO_NAMES: [u8; 3] = [0x01, 0, 0];

/// The whole variant of one group instance from its children read as values (those of
/// its columns that are read: `metadata_read` tells whether the metadata is).
fn assemble(
    tree: &Tree,
    typed: Option<NodeId>,
    parts: &(Value, Value, Value),
    metadata_read: bool,
) -> Result<Variant> {
    let metadata = match &parts.0 {
        Value::Bytes(b) => b.as_slice(),
        Value::String(s) => s.as_bytes(),
        _ if !metadata_read => &NO_NAMES,
        _ => return Err(Error::data("variant metadata is null")),
    };
    let metadata = Metadata::new(metadata)?;
    if let Some(t) = typed {
        check_typed(tree, t, 0)?;
    }
    Ok(
        construct(tree, metadata, &parts.1, typed.map(|t| (t, &parts.2)), 0)?
            .unwrap_or(Variant::Null),
    )
}

/// `construct_variant` of VariantShredding.md: `None` when the value is missing.
fn construct(
    tree: &Tree,
    metadata: Metadata<'_>,
    value: &Value,
    typed: Option<(NodeId, &Value)>,
    depth: usize,
) -> Result<Option<Variant>> {
    if depth > crate::variant::MAX_DEPTH {
        return Err(Error::data("shredded variant nested too deep"));
    }
    let value = match value {
        Value::Null => None,
        Value::Bytes(b) => Some(VariantRef::with_metadata(metadata, b)?.to_variant()?),
        _ => return Err(Error::data("a variant value column is not BYTE_ARRAY")),
    };
    let Some((id, typed)) = typed.filter(|(_, t)| !t.is_null()) else {
        return Ok(value);
    };
    let node = &tree.nodes[id];
    match (&node.kind, typed) {
        (
            Kind::Group {
                shape: Shape::List { element, .. },
                ..
            },
            Value::List(items),
        ) => {
            if value.is_some() {
                return Err(conflict("conflicting value and typed_value"));
            }
            let mut out = Vec::with_capacity(items.len());
            for item in items {
                let v = shredded(tree, metadata, *element, item, depth)?;
                out.push(v.unwrap_or(Variant::Null));
            }
            Ok(Some(Variant::Array(out)))
        }
        (
            Kind::Group {
                shape: Shape::Plain,
                children,
            },
            Value::Group(fields),
        ) => {
            let mut object = match value {
                None => Default::default(),
                Some(Variant::Object(o)) => o,
                Some(_) => return Err(conflict("non-object value with shredded fields")),
            };
            // By name: fields whose columns are not read are not in `fields`.
            for (name, field) in fields {
                let Some(&child) = children.iter().find(|&&c| tree.nodes[c].name == *name) else {
                    continue;
                };
                // A shredded field wins over one of the same name in `value` (an invalid
                // file; the spec lets readers use the shredded one).
                match shredded(tree, metadata, child, field, depth)? {
                    Some(v) => {
                        object.insert(name.clone(), v);
                    }
                    None => {
                        object.remove(name);
                    }
                }
            }
            Ok(Some(Variant::Object(object)))
        }
        (Kind::Leaf { .. }, leaf) => {
            if value.is_some() {
                return Err(conflict("conflicting value and typed_value"));
            }
            primitive(node.kind.clone(), leaf).map(Some)
        }
        _ => Err(Error::unsupported(format!(
            "unsupported shredded value type: {} `{}`",
            node.describe(),
            node.path
        ))),
    }
}

/// A shredded field or element: a group of optional `value` and `typed_value`.
fn shredded(
    tree: &Tree,
    metadata: Metadata<'_>,
    group: NodeId,
    read: &Value,
    depth: usize,
) -> Result<Option<Variant>> {
    let fields = match read {
        Value::Null => return Ok(None),
        Value::Group(f) => f,
        _ => return Err(Error::data("a shredded field is not a group")),
    };
    let children = tree.nodes[group].children();
    let mut value = &Value::Null;
    let mut typed = None;
    // By name: a child whose columns are not read is not in `fields`.
    for (name, v) in fields {
        match name.as_str() {
            "value" => value = v,
            "typed_value" => {
                let child = children
                    .iter()
                    .copied()
                    .find(|&c| tree.nodes[c].name == "typed_value");
                typed = child.map(|c| (c, v));
            }
            _ => {}
        }
    }
    construct(tree, metadata, value, typed, depth + 1)
}

/// Whether a `typed_value` node has a type VariantShredding.md allows (checked whatever the
/// rows hold, so a file with an unsupported shredded type is an error on every row).
fn check_typed(tree: &Tree, id: NodeId, depth: usize) -> Result<()> {
    let node = &tree.nodes[id];
    let unsupported = || {
        Error::unsupported(format!(
            "unsupported shredded value type: {} `{}`",
            node.describe(),
            node.path
        ))
    };
    if depth > crate::variant::MAX_DEPTH {
        return Err(unsupported());
    }
    let inner = |group: NodeId| -> Result<()> {
        match tree.nodes[group]
            .children()
            .iter()
            .find(|&&c| tree.nodes[c].name == "typed_value")
        {
            Some(&t) => check_typed(tree, t, depth + 1),
            None => Ok(()),
        }
    };
    match &node.kind {
        Kind::Leaf {
            physical,
            conv,
            bits,
            ..
        } => {
            let ok = match (physical, conv) {
                (Type::Boolean | Type::Float | Type::Double, Conv::Plain) => true,
                (Type::Int32, Conv::Plain) => matches!(bits, 0 | 8 | 16 | 32),
                (Type::Int64, Conv::Plain) => matches!(bits, 0 | 64),
                (
                    Type::Int32 | Type::Int64 | Type::ByteArray | Type::FixedLenByteArray,
                    Conv::Decimal(_),
                ) => true,
                (Type::Int32, Conv::Date) => true,
                (Type::Int64, Conv::Time(TimeUnit::Micros)) => true,
                (Type::Int64, Conv::Timestamp(TimeUnit::Micros | TimeUnit::Nanos, _)) => true,
                (Type::ByteArray, Conv::String | Conv::Plain) => true,
                (Type::FixedLenByteArray, Conv::Uuid) => true,
                _ => false,
            };
            if ok {
                Ok(())
            } else {
                Err(unsupported())
            }
        }
        Kind::Group {
            shape: Shape::List { element, .. },
            ..
        } => inner(*element),
        Kind::Group {
            shape: Shape::Plain,
            children,
        } => children.iter().try_for_each(|&c| inner(c)),
        Kind::Group { .. } => Err(unsupported()),
    }
}

/// A shredded primitive, by the Parquet type table of VariantShredding.md.
fn primitive(kind: Kind, v: &Value) -> Result<Variant> {
    let Kind::Leaf {
        physical,
        conv,
        bits,
        ..
    } = kind
    else {
        return Err(Error::data("not a leaf"));
    };
    let unsupported = || {
        Error::unsupported(format!(
            "unsupported shredded value type: {physical:?} {conv:?}{}",
            if bits > 0 {
                format!(" INTEGER({bits})")
            } else {
                String::new()
            }
        ))
    };
    Ok(match (physical, conv, v) {
        (_, Conv::Unsigned, _) | (_, Conv::Float16, _) | (Type::Int96, ..) => {
            return Err(unsupported())
        }
        (Type::Boolean, _, Value::Bool(b)) => Variant::Bool(*b),
        (Type::Int32, Conv::Plain, Value::Int(i)) => match bits {
            8 => Variant::Int8(*i as i8),
            16 => Variant::Int16(*i as i16),
            _ => Variant::Int32(*i as i32),
        },
        (Type::Int64, Conv::Plain, Value::Int(i)) => Variant::Int64(*i),
        (Type::Float, _, Value::Float(f)) => Variant::Float(*f),
        (Type::Double, _, Value::Double(f)) => Variant::Double(*f),
        (_, Conv::Date, Value::Date(d)) => Variant::Date(*d),
        (Type::Int64, Conv::Time(TimeUnit::Micros), Value::Time { value, .. }) => {
            Variant::Time(*value)
        }
        (_, Conv::Timestamp(unit, utc), Value::Timestamp { value, .. }) => match (unit, utc) {
            (TimeUnit::Micros, true) => Variant::TimestampMicros(*value),
            (TimeUnit::Micros, false) => Variant::TimestampNtzMicros(*value),
            (TimeUnit::Nanos, true) => Variant::TimestampNanos(*value),
            (TimeUnit::Nanos, false) => Variant::TimestampNtzNanos(*value),
            _ => return Err(unsupported()),
        },
        (_, Conv::Decimal(_), Value::Decimal { unscaled, scale }) => {
            let scale = u8::try_from(*scale)
                .ok()
                .filter(|&s| s <= 38)
                .ok_or_else(unsupported)?;
            let unscaled = be_i128(unscaled).ok_or_else(unsupported)?;
            match physical {
                Type::Int32 => Variant::Decimal4 {
                    unscaled: unscaled as i32,
                    scale,
                },
                Type::Int64 => Variant::Decimal8 {
                    unscaled: unscaled as i64,
                    scale,
                },
                _ => Variant::decimal(unscaled, scale)
                    .map(|_| Variant::Decimal16 { unscaled, scale })
                    .ok_or_else(unsupported)?,
            }
        }
        (Type::ByteArray, Conv::String, Value::String(s)) => Variant::String(s.clone()),
        (Type::ByteArray, Conv::Plain, Value::Bytes(b)) => Variant::Binary(b.clone()),
        (Type::FixedLenByteArray, Conv::Uuid, Value::Uuid(u)) => Variant::Uuid(*u),
        _ => return Err(unsupported()),
    })
}

/// A big-endian two's complement integer of at most 16 bytes.
fn be_i128(b: &[u8]) -> Option<i128> {
    if b.is_empty() || b.len() > 16 {
        return (b.is_empty()).then_some(0);
    }
    let fill = if b[0] & 0x80 != 0 { 0xff } else { 0 };
    let mut buf = [fill; 16];
    buf[16 - b.len()..].copy_from_slice(b);
    Some(i128::from_be_bytes(buf))
}

/// Hands a reconstructed variant to the visitor: itself for [`Variant`] and [`Value`],
/// else through the Variant deserializer as `want` asks.
pub(super) fn hand_over<'de, V: Visitor<'de>>(v: Variant, want: Want, visitor: V) -> Res<V::Value> {
    let d = VariantDeserializer::new(&v);
    let r = match want {
        Want::Variant => return visitor.visit_newtype_struct(MagicFrame(blob::encode(&v))),
        Want::Value => return visitor.visit_enum(MagicFrame(blob::encode(&v))),
        Want::Any => d.deserialize_any(visitor),
        Want::Bool => d.deserialize_bool(visitor),
        Want::Int => d.deserialize_i64(visitor),
        Want::I128 => d.deserialize_i128(visitor),
        Want::U128 => d.deserialize_u128(visitor),
        Want::Float => d.deserialize_f64(visitor),
        Want::Char => d.deserialize_char(visitor),
        Want::Str | Want::String => d.deserialize_string(visitor),
        Want::Bytes => d.deserialize_byte_buf(visitor),
        Want::Option => d.deserialize_option(visitor),
        Want::Unit => d.deserialize_unit(visitor),
        Want::Seq => d.deserialize_seq(visitor),
        Want::Tuple(len) => d.deserialize_tuple(len, visitor),
        Want::Map => d.deserialize_map(visitor),
        Want::Struct(fields) => d.deserialize_struct("", fields, visitor),
        Want::Enum(variants) => d.deserialize_enum("", variants, visitor),
        Want::Newtype => d.deserialize_newtype_struct("", visitor),
        Want::Ignored => d.deserialize_ignored_any(visitor),
    };
    r.map_err(DeError::new)
}

/// A variant's [`blob`] frame handed to [`Variant`]'s `Deserialize` (as the newtype it
/// asks for) or to [`Value`]'s (as an enum tagged [`blob::TOKEN`]).
struct MagicFrame(Vec<u8>);

impl<'de> Deserializer<'de> for MagicFrame {
    type Error = DeError;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Res<V::Value> {
        visitor.visit_byte_buf(self.0)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Res<V::Value> {
        visitor.visit_newtype_struct(self)
    }

    fn is_human_readable(&self) -> bool {
        false
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct seq tuple tuple_struct map struct enum identifier ignored_any
    }
}

impl<'de> EnumAccess<'de> for MagicFrame {
    type Error = DeError;
    type Variant = MagicFrame;

    fn variant_seed<S: DeserializeSeed<'de>>(self, seed: S) -> Res<(S::Value, MagicFrame)> {
        let tag = seed.deserialize(de::value::StrDeserializer::<DeError>::new(blob::TOKEN))?;
        Ok((tag, self))
    }
}

impl<'de> VariantAccess<'de> for MagicFrame {
    type Error = DeError;

    fn unit_variant(self) -> Res<()> {
        Err(de::Error::custom("a variant frame is not a unit"))
    }

    fn newtype_variant_seed<S: DeserializeSeed<'de>>(self, seed: S) -> Res<S::Value> {
        seed.deserialize(self)
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Res<V::Value> {
        self.deserialize_any(visitor)
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Res<V::Value> {
        self.deserialize_any(visitor)
    }
}

#[cfg(test)]
mod tests {
    use super::be_i128;

    #[test]
    fn big_endian_decimals() {
        assert_eq!(be_i128(&[0xff]), Some(-1));
        assert_eq!(be_i128(&[0x01, 0x00]), Some(256));
        assert_eq!(be_i128(&[]), Some(0));
        assert_eq!(be_i128(&[0; 17]), None);
    }
}
