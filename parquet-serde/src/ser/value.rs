//! Dynamic rows ([`Value`] trees) shredded by a schema given at run time.
//!
//! The walk follows the plan like the serde serializer does (same [`Shredder`] operations,
//! same [`GroupCursor`] for the fields of a group), but knows `Value`'s logical variants:
//! a TIMESTAMP or TIME is converted to the column's unit, a DECIMAL to the column's scale,
//! which serde's data model (a bare integer) would lose. A leaf annotated JSON takes a
//! `String` as its JSON text and any other value as the JSON form of
//! [`Value::write_json`].

use crate::core::values::text::{self, nanos_per};
use crate::core::values::ByteCheck;
use crate::error::Result;
use crate::value::Value;

use super::plan::{Conv, Kind, Text};
use super::serializer::GroupCursor;
use super::shredder::Shredder;

/// Shreds `value` at plan node `node`, its first entry in each leaf at repetition level
/// `rep`.
pub(crate) fn shred_value(sh: &mut Shredder, node: u32, rep: i16, value: &Value) -> Result<()> {
    if value.is_null() {
        return sh.null_at(node, rep);
    }
    match (sh.nodes[node as usize].kind, value) {
        // A VARIANT group takes any value: its serde form encoded as a Variant.
        (Kind::Variant { .. }, _) => super::variant::put(sh, node, rep, value),
        (Kind::Leaf(leaf), _) => put_leaf(sh, node, leaf, rep, value),
        (Kind::Group { first, len }, Value::Group(fields)) => {
            let mut cursor = GroupCursor::new(node, first, len, rep);
            for (name, v) in fields {
                let field = cursor.field_named(sh, name)?;
                shred_value(sh, field, rep, v).map_err(|e| sh.locate(e, field))?;
            }
            cursor.finish(sh)
        }
        (Kind::Group { first, len }, Value::Map(pairs)) => {
            let mut cursor = GroupCursor::new(node, first, len, rep);
            for (key, v) in pairs {
                let Value::String(name) = key else {
                    return Err(sh.error(node, "a map key that is not a string for a group"));
                };
                let field = cursor.field_named(sh, name)?;
                shred_value(sh, field, rep, v).map_err(|e| sh.locate(e, field))?;
            }
            cursor.finish(sh)
        }
        (Kind::List { element, entry_rep }, Value::List(items)) => {
            let mut r = rep;
            for item in items {
                shred_value(sh, element, r, item).map_err(|e| sh.locate(e, element))?;
                r = entry_rep;
            }
            if items.is_empty() {
                empty(sh, node, rep);
            }
            Ok(())
        }
        (Kind::Map { key, entry_rep }, Value::Map(pairs)) => {
            let mut r = rep;
            for (k, v) in pairs {
                shred_value(sh, key, r, k).map_err(|e| sh.locate(e, key))?;
                shred_value(sh, key + 1, r, v).map_err(|e| sh.locate(e, key + 1))?;
                r = entry_rep;
            }
            if pairs.is_empty() {
                empty(sh, node, rep);
            }
            Ok(())
        }
        (Kind::Map { key, entry_rep }, Value::Group(fields)) => {
            let mut r = rep;
            for (k, v) in fields {
                sh.put_str(key, r, k).map_err(|e| sh.locate(e, key))?;
                shred_value(sh, key + 1, r, v).map_err(|e| sh.locate(e, key + 1))?;
                r = entry_rep;
            }
            if fields.is_empty() {
                empty(sh, node, rep);
            }
            Ok(())
        }
        _ => Err(sh.mismatch(node, describe(value))),
    }
}

/// An empty LIST or MAP at `node`: a null with the node's own definition level.
fn empty(sh: &mut Shredder, node: u32, rep: i16) {
    let def = sh.nodes[node as usize].def;
    sh.nulls(node, def, rep);
}

/// A non-null `value` at leaf `leaf` (plan node `node`).
fn put_leaf(sh: &mut Shredder, node: u32, leaf: u32, rep: i16, value: &Value) -> Result<()> {
    let (conv, json) = {
        let l = &sh.leaves[leaf as usize];
        (l.conv, l.check == ByteCheck::Json)
    };
    if json && !matches!(value, Value::String(_)) {
        let mut buf = std::mem::take(&mut sh.scratch);
        buf.clear();
        value.write_json(&mut buf);
        let result = sh.put_str(node, rep, &buf);
        sh.scratch = buf;
        return result;
    }
    match value {
        Value::Bool(b) => sh.put_bool(node, rep, *b),
        Value::Int(v) => put_integer(sh, node, rep, conv, *v as i128),
        Value::UInt(v) => put_integer(sh, node, rep, conv, *v as i128),
        Value::Float(v) | Value::Float16(v) => sh.put_float(node, rep, *v as f64, "an f32"),
        Value::Double(v) => sh.put_float(node, rep, *v, "an f64"),
        Value::String(s) => sh.put_str(node, rep, s),
        Value::Bytes(b) => sh.put_bytes(node, rep, b),
        Value::Uuid(b) => sh.put_bytes(node, rep, b),
        Value::Date(days) => match text_of(conv) {
            Some(Text::Date) => sh.put_int(node, rep, *days as i128),
            _ => Err(sh.mismatch(node, "a DATE")),
        },
        Value::Time { value, unit } => match text_of(conv) {
            Some(Text::Time(to)) => {
                sh.put_time_nanos(node, rep, *value as i128 * nanos_per(*unit), to)
            }
            _ => Err(sh.mismatch(node, "a TIME")),
        },
        Value::Timestamp { value, unit, .. } => match text_of(conv) {
            Some(Text::Timestamp(to)) => {
                sh.put_time_nanos(node, rep, *value as i128 * nanos_per(*unit), to)
            }
            _ => Err(sh.mismatch(node, "a TIMESTAMP")),
        },
        Value::Int96(v) => match (text_of(conv), v.to_nanos()) {
            (Some(Text::Timestamp(to)), Some(nanos)) => {
                sh.put_time_nanos(node, rep, nanos as i128, to)
            }
            (Some(Text::Timestamp(_)), None) => Err(sh.error(
                node,
                "the INT96 timestamp is out of the 64-bit nanosecond range",
            )),
            _ => Err(sh.mismatch(node, "an INT96 timestamp")),
        },
        // The decimal's text, which a decimal column parses at its own scale (and refuses
        // when digits would be lost).
        Value::Decimal { unscaled, scale } => match conv {
            Conv::Decimal { .. }
            | Conv::Int32 {
                text: Text::Decimal(_),
                ..
            }
            | Conv::Int64 {
                text: Text::Decimal(_),
                ..
            } => sh.put_str(node, rep, &text::decimal_be(unscaled, *scale)),
            _ => Err(sh.mismatch(node, "a DECIMAL")),
        },
        Value::Null | Value::List(_) | Value::Map(_) | Value::Group(_) | Value::Variant(_) => {
            Err(sh.mismatch(node, describe(value)))
        }
    }
}

/// An integer at a leaf: integer, decimal and UUID columns take it as such, FLOAT and
/// DOUBLE columns as the nearest float (JSON numbers mix integers and fractions).
#[inline]
pub(crate) fn put_integer(
    sh: &mut Shredder,
    node: u32,
    rep: i16,
    conv: Conv,
    v: i128,
) -> Result<()> {
    match conv {
        Conv::Float | Conv::Double => sh.put_float(node, rep, v as f64, "an integer"),
        _ => sh.put_int(node, rep, v),
    }
}

/// The text form an integer column also takes (its logical type).
fn text_of(conv: Conv) -> Option<Text> {
    match conv {
        Conv::Int32 { text, .. } | Conv::Int64 { text, .. } => Some(text),
        _ => None,
    }
}

/// What `value` is, for mismatch errors.
fn describe(value: &Value) -> &'static str {
    match value {
        Value::Null => "a null",
        Value::Bool(_) => "a bool",
        Value::Int(_) | Value::UInt(_) => "an integer",
        Value::Float(_) | Value::Float16(_) | Value::Double(_) => "a float",
        Value::String(_) => "a string",
        Value::Bytes(_) => "bytes",
        Value::Date(_) => "a DATE",
        Value::Time { .. } => "a TIME",
        Value::Timestamp { .. } => "a TIMESTAMP",
        Value::Int96(_) => "an INT96 timestamp",
        Value::Decimal { .. } => "a DECIMAL",
        Value::Uuid(_) => "a UUID",
        Value::List(_) => "a list",
        Value::Map(_) => "a map",
        Value::Group(_) => "a group",
        Value::Variant(_) => "a VARIANT",
    }
}
