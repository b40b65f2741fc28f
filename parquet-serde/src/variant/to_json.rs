//! [`VariantRef::to_json`]: Variant bytes straight to a `serde_json::Value`, in one walk.
//!
//! Each container's header is read and checked once (its count, ids and offsets fit in
//! its bytes, its members fit in its body), then its members are decoded in place; no
//! owned [`Variant`](super::Variant) and no intermediate view is built. The checks are
//! those of [`VariantRef::to_variant`] (a member outside its container, a field id not in
//! the metadata, a field named twice, nesting deeper than [`MAX_DEPTH`](super::MAX_DEPTH)
//! are errors), and the JSON is the one [`Variant::to_json`](super::Variant::to_json)
//! gives.

use base64::engine::general_purpose::STANDARD as BASE64;
use base64::Engine;
use serde_json::{Map, Value as Json};

use crate::error::Result;

use super::json::{decimal, float, float32};
use super::metadata::{read_uint, Metadata};
use super::view::{
    container, corrupt, deeper, value_size, ValueRef, VariantRef, ARRAY, OBJECT, PRIMITIVE,
    SHORT_STRING,
};

impl VariantRef<'_> {
    /// The value as JSON, straight from the bytes (as
    /// [`Variant::to_json`](super::Variant::to_json) maps it); nesting deeper than
    /// [`MAX_DEPTH`](super::MAX_DEPTH) and a field named twice in one object are errors.
    pub fn to_json(&self) -> Result<Json> {
        json(self.metadata, self.value, 0)
    }
}

/// The JSON of the value at the start of `bytes` (which may go on past it: a member is
/// given the rest of its container's body). `depth` counts the containers around it.
fn json(metadata: Metadata<'_>, bytes: &[u8], depth: usize) -> Result<Json> {
    let &first = bytes.first().ok_or_else(|| corrupt("empty value"))?;
    let basic = first & 3;
    if let Some(json) = common(first, bytes)? {
        return Ok(json);
    }
    if basic != OBJECT && basic != ARRAY {
        let size = value_size(bytes)?;
        let view = VariantRef {
            metadata,
            value: &bytes[..size],
        };
        return primitive(view);
    }
    let c = container(bytes, basic, first >> 2)?;
    let end = c
        .head
        .checked_add(c.body)
        .filter(|&e| e <= bytes.len())
        .ok_or_else(|| {
            corrupt(format!(
                "a value of {} bytes in {} bytes",
                c.head.saturating_add(c.body),
                bytes.len()
            ))
        })?;
    let depth = deeper(depth)?;
    let ids_at = 1 + c.count_size;
    let offsets_at = ids_at + c.len * c.id_size;
    // In range: `container` checked that the ids and offsets end at `head`.
    let offsets = &bytes[offsets_at..c.head];
    let body = &bytes[c.head..end];
    let offset = |i: usize| {
        read_uint(offsets, i * c.offset_size, c.offset_size)
            .ok_or_else(|| corrupt(format!("offset {i} is cut short")))
    };
    if basic == ARRAY {
        // `len` offsets were checked to fit in the bytes, so this is bounded.
        let mut items = Vec::with_capacity(c.len);
        let mut start = offset(0)?;
        for i in 0..c.len {
            let next = offset(i + 1)?;
            if start > next {
                return Err(corrupt(format!("array offsets {start} and {next} go back")));
            }
            items.push(json(metadata, member(body, start, next)?, depth)?);
            start = next;
        }
        return Ok(Json::Array(items));
    }
    let ids = &bytes[ids_at..offsets_at];
    let mut fields = Map::new();
    for i in 0..c.len {
        let id = read_uint(ids, i * c.id_size, c.id_size).unwrap_or(usize::MAX);
        let name = metadata.get(id).ok_or_else(|| {
            corrupt(format!(
                "field id {id} is not in the metadata ({} names)",
                metadata.len()
            ))
        })?;
        let value = json(metadata, member(body, offset(i)?, body.len())?, depth)?;
        if fields.insert(name.to_owned(), value).is_some() {
            return Err(corrupt(format!("field {name:?} appears twice")));
        }
    }
    Ok(Json::Object(fields))
}

/// The bytes of a member starting at `start`, which must end by `end`.
fn member(body: &[u8], start: usize, end: usize) -> Result<&[u8]> {
    body.get(start..end)
        .filter(|s| !s.is_empty())
        .ok_or_else(|| corrupt(format!("member offset {start} is outside 0..{end}")))
}

/// The JSON of the commonest primitives, read in place: null, booleans, integers, doubles
/// and short strings (`None` for the others, which [`primitive`] decodes).
#[inline]
fn common(first: u8, bytes: &[u8]) -> Result<Option<Json>> {
    fn int<const N: usize>(bytes: &[u8]) -> Result<[u8; N]> {
        bytes
            .get(1..1 + N)
            .and_then(|b| b.try_into().ok())
            .ok_or_else(|| corrupt("primitive is cut short"))
    }
    let header = first >> 2;
    Ok(Some(match first & 3 {
        SHORT_STRING => {
            let text = bytes.get(1..1 + usize::from(header)).ok_or_else(|| {
                corrupt(format!(
                    "a value of {} bytes in {} bytes",
                    1 + header,
                    bytes.len()
                ))
            })?;
            let text = std::str::from_utf8(text)
                .map_err(|e| corrupt("short string is not UTF-8").with_source(e))?;
            Json::String(text.to_owned())
        }
        PRIMITIVE => match header {
            0 => Json::Null,
            1 => Json::Bool(true),
            2 => Json::Bool(false),
            3 => Json::Number(i8::from_le_bytes(int(bytes)?).into()),
            4 => Json::Number(i16::from_le_bytes(int(bytes)?).into()),
            5 => Json::Number(i32::from_le_bytes(int(bytes)?).into()),
            6 => Json::Number(i64::from_le_bytes(int(bytes)?).into()),
            7 => float(f64::from_le_bytes(int(bytes)?)),
            _ => return Ok(None),
        },
        _ => return Ok(None),
    }))
}

/// The JSON of a value that is not an array or object.
fn primitive(view: VariantRef<'_>) -> Result<Json> {
    Ok(match view.value()? {
        ValueRef::Null => Json::Null,
        ValueRef::Bool(b) => Json::Bool(b),
        ValueRef::Int8(x) => Json::Number(x.into()),
        ValueRef::Int16(x) => Json::Number(x.into()),
        ValueRef::Int32(x) => Json::Number(x.into()),
        ValueRef::Int64(x) => Json::Number(x.into()),
        ValueRef::Float(x) => float32(x),
        ValueRef::Double(x) => float(x),
        ValueRef::Decimal4(u, s) => decimal(u.into(), s),
        ValueRef::Decimal8(u, s) => decimal(u.into(), s),
        ValueRef::Decimal16(u, s) => decimal(u, s),
        ValueRef::String(s) => Json::String(s.to_owned()),
        ValueRef::Binary(b) => Json::String(BASE64.encode(b)),
        _ => Json::from(&view.to_variant()?),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::{Variant, MAX_DEPTH};

    #[test]
    fn depth_is_capped_at_max_depth() {
        let m = crate::variant::Dictionary::default().to_bytes();
        // MAX_DEPTH one-element arrays around a null decode; one more is refused.
        for (n, ok) in [(MAX_DEPTH, true), (MAX_DEPTH + 1, false)] {
            let mut v = Variant::Null;
            for _ in 0..n {
                v = Variant::Array(vec![v]);
            }
            let mut bytes = Vec::new();
            crate::variant::encode_value(&v, &Default::default(), &mut bytes).unwrap();
            let view = VariantRef::new(&m, &bytes).unwrap();
            assert_eq!(view.to_json().is_ok(), ok, "{n}");
            assert_eq!(view.to_variant().is_ok(), ok, "{n}");
        }
    }
}
