//! Encoding owned [`Variant`]s to metadata and value bytes.

use std::collections::BTreeSet;

use crate::error::{Error, Result};

use super::metadata::{uint_size, write_uint, Dictionary, Metadata};
use super::value::Variant;
use super::view::{VariantRef, ARRAY, OBJECT, SHORT_STRING};

impl Variant {
    /// Encodes the value: its metadata (the sorted names of every object field in it) and
    /// its value bytes.
    pub fn encode(&self) -> (Vec<u8>, Vec<u8>) {
        let dict = self.dictionary();
        let mut value = Vec::with_capacity(64);
        // Every name is in the dictionary: it was built from this value.
        if encode_value(self, &dict, &mut value).is_err() {
            value.clear();
            value.push(0);
        }
        (dict.to_bytes(), value)
    }

    /// The dictionary of every object field name in the value.
    pub(crate) fn dictionary(&self) -> Dictionary {
        let mut names = BTreeSet::new();
        collect_names(self, &mut names);
        Dictionary::new(names)
    }

    /// Decodes and checks a whole value from its metadata and value bytes.
    pub fn decode(metadata: &[u8], value: &[u8]) -> Result<Variant> {
        VariantRef::new(metadata, value)?.to_variant()
    }

    /// Decodes a value stored as metadata bytes followed by value bytes (the metadata's own
    /// header gives its length), as the `*.variant.bin` files of the test corpus hold them.
    pub fn decode_concatenated(bytes: &[u8]) -> Result<Variant> {
        let (metadata, used) = Metadata::prefix(bytes)?;
        VariantRef::with_metadata(metadata, &bytes[used..])?.to_variant()
    }
}

fn collect_names<'a>(v: &'a Variant, names: &mut BTreeSet<&'a str>) {
    match v {
        Variant::Array(items) => items.iter().for_each(|i| collect_names(i, names)),
        Variant::Object(fields) => {
            for (k, v) in fields {
                names.insert(k);
                collect_names(v, names);
            }
        }
        _ => {}
    }
}

#[inline]
fn primitive(out: &mut Vec<u8>, type_id: u8) {
    out.push(type_id << 2);
}

/// Appends the value bytes of `v` to `out`, naming fields by their ids in `dict` (a field
/// name missing from `dict` is an error).
pub fn encode_value(v: &Variant, dict: &Dictionary, out: &mut Vec<u8>) -> Result<()> {
    match v {
        Variant::Null => primitive(out, 0),
        Variant::Bool(true) => primitive(out, 1),
        Variant::Bool(false) => primitive(out, 2),
        Variant::Int8(x) => {
            primitive(out, 3);
            out.extend_from_slice(&x.to_le_bytes());
        }
        Variant::Int16(x) => {
            primitive(out, 4);
            out.extend_from_slice(&x.to_le_bytes());
        }
        Variant::Int32(x) => {
            primitive(out, 5);
            out.extend_from_slice(&x.to_le_bytes());
        }
        Variant::Int64(x) => {
            primitive(out, 6);
            out.extend_from_slice(&x.to_le_bytes());
        }
        Variant::Double(x) => {
            primitive(out, 7);
            out.extend_from_slice(&x.to_le_bytes());
        }
        Variant::Decimal4 { unscaled, scale } => {
            primitive(out, 8);
            out.push(*scale);
            out.extend_from_slice(&unscaled.to_le_bytes());
        }
        Variant::Decimal8 { unscaled, scale } => {
            primitive(out, 9);
            out.push(*scale);
            out.extend_from_slice(&unscaled.to_le_bytes());
        }
        Variant::Decimal16 { unscaled, scale } => {
            primitive(out, 10);
            out.push(*scale);
            out.extend_from_slice(&unscaled.to_le_bytes());
        }
        Variant::Date(x) => {
            primitive(out, 11);
            out.extend_from_slice(&x.to_le_bytes());
        }
        Variant::TimestampMicros(x) => {
            primitive(out, 12);
            out.extend_from_slice(&x.to_le_bytes());
        }
        Variant::TimestampNtzMicros(x) => {
            primitive(out, 13);
            out.extend_from_slice(&x.to_le_bytes());
        }
        Variant::Float(x) => {
            primitive(out, 14);
            out.extend_from_slice(&x.to_le_bytes());
        }
        Variant::Binary(b) => {
            primitive(out, 15);
            out.extend_from_slice(&len32(b.len())?.to_le_bytes());
            out.extend_from_slice(b);
        }
        Variant::String(s) => encode_str(s, out)?,
        Variant::Time(x) => {
            primitive(out, 17);
            out.extend_from_slice(&x.to_le_bytes());
        }
        Variant::TimestampNanos(x) => {
            primitive(out, 18);
            out.extend_from_slice(&x.to_le_bytes());
        }
        Variant::TimestampNtzNanos(x) => {
            primitive(out, 19);
            out.extend_from_slice(&x.to_le_bytes());
        }
        Variant::Uuid(u) => {
            primitive(out, 20);
            out.extend_from_slice(u);
        }
        Variant::Array(items) => {
            let start = out.len();
            let mut offsets = Vec::with_capacity(items.len() + 1);
            for item in items {
                offsets.push(out.len() - start);
                encode_value(item, dict, out)?;
            }
            offsets.push(out.len() - start);
            finish_array(out, start, &offsets)?;
        }
        Variant::Object(fields) => {
            let start = out.len();
            let mut ids = Vec::with_capacity(fields.len());
            let mut offsets = Vec::with_capacity(fields.len() + 1);
            for (name, value) in fields {
                let id = dict.id(name).ok_or_else(|| {
                    Error::invalid_argument(format!(
                        "variant field {name:?} is not in the metadata dictionary"
                    ))
                })?;
                ids.push(id);
                offsets.push(out.len() - start);
                encode_value(value, dict, out)?;
            }
            offsets.push(out.len() - start);
            finish_object(out, start, &ids, &offsets, dict.len())?;
        }
    }
    Ok(())
}

/// Appends a string: a short string under 64 bytes, else a long one.
#[inline]
pub(crate) fn encode_str(s: &str, out: &mut Vec<u8>) -> Result<()> {
    if s.len() < 64 {
        out.push(SHORT_STRING | ((s.len() as u8) << 2));
    } else {
        primitive(out, 16);
        out.extend_from_slice(&len32(s.len())?.to_le_bytes());
    }
    out.extend_from_slice(s.as_bytes());
    Ok(())
}

fn len32(n: usize) -> Result<u32> {
    u32::try_from(n).map_err(|_| {
        Error::invalid_argument(format!("a variant value of {n} bytes is above 4 GiB"))
    })
}

/// Inserts an array header before the members written at `out[start..]`; `offsets` are
/// the members' starts relative to `start`, then the end.
pub(crate) fn finish_array(out: &mut Vec<u8>, start: usize, offsets: &[usize]) -> Result<()> {
    let n = offsets.len() - 1;
    let total = len32(out.len() - start)? as usize;
    let size = uint_size(total);
    let large = n > 0xff;
    let mut head = Vec::with_capacity(5 + offsets.len() * size);
    head.push(ARRAY | (((large as u8) << 2 | (size as u8 - 1)) << 2));
    write_uint(&mut head, n, if large { 4 } else { 1 });
    for &o in offsets {
        write_uint(&mut head, o, size);
    }
    out.splice(start..start, head);
    Ok(())
}

/// Inserts an object header before the members written at `out[start..]` in id order.
pub(crate) fn finish_object(
    out: &mut Vec<u8>,
    start: usize,
    ids: &[usize],
    offsets: &[usize],
    dict_len: usize,
) -> Result<()> {
    let n = ids.len();
    let total = len32(out.len() - start)? as usize;
    let size = uint_size(total);
    let id_size = uint_size(dict_len.saturating_sub(1));
    let large = n > 0xff;
    let mut head = Vec::with_capacity(5 + n * id_size + offsets.len() * size);
    let header = (large as u8) << 4 | ((id_size as u8 - 1) << 2) | (size as u8 - 1);
    head.push(OBJECT | (header << 2));
    write_uint(&mut head, n, if large { 4 } else { 1 });
    for &id in ids {
        write_uint(&mut head, id, id_size);
    }
    for &o in offsets {
        write_uint(&mut head, o, size);
    }
    out.splice(start..start, head);
    Ok(())
}
