//! The fields of an event or span as one VARIANT object, encoded straight into bytes
//! (VariantEncoding.md) without building a [`Variant`](crate::variant::Variant): names are
//! `tracing`'s `&'static str`s, values are kept typed in a small reusable buffer.
//!
//! Values: signed and unsigned integers as the narrowest Variant int (`int8` .. `int64`);
//! integers beyond `i64` (a `u64` above `i64::MAX`, `i128`, `u128`) as `decimal16` with
//! scale 0, exact (beyond 38 digits, as text); `f64` as `double`; `bool` as a boolean;
//! text, `Debug` / `Display` values and errors as strings (all the text of one event's
//! fields together is cut at 1 GiB).
//!
//! The bytes are a frame as the crate's serde path carries a Variant: the metadata length
//! (`u32`, little-endian), the metadata (sorted dictionary of the names), the value.

use std::fmt::{self, Write};

/// Basic type of an object value.
const OBJECT: u8 = 2;
/// Basic type of a short string.
const SHORT_STRING: u8 = 1;
/// Metadata header: version 1, sorted names (the offset size goes in bits 6-7).
const METADATA_SORTED_V1: u8 = 0x11;
/// The most text the fields of one event or span keep (beyond, text is cut).
const MAX_TEXT: usize = 1 << 30;

/// Fields kept at most (more are ignored).
const MAX_FIELDS: usize = 1024;

/// The frame of an object without fields.
pub(crate) const EMPTY_FRAME: [u8; 10] = [
    3,
    0,
    0,
    0, // metadata length
    METADATA_SORTED_V1,
    0,
    0, // no names
    OBJECT,
    0,
    0, // no fields; one offset
];

/// One field value.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Val {
    Int(i64),
    Big(i128),
    Double(f64),
    Bool(bool),
    /// A range of [`Fields::text`].
    Str(usize, usize),
}

/// Fields being collected; reusable (`clear` keeps the allocations).
#[derive(Debug, Default, Clone)]
pub(crate) struct Fields {
    names: Vec<&'static str>,
    vals: Vec<Val>,
    text: String,
}

impl Fields {
    /// Room for `n` fields.
    pub fn with_capacity(n: usize) -> Fields {
        Fields {
            names: Vec::with_capacity(n),
            vals: Vec::with_capacity(n),
            text: String::new(),
        }
    }

    /// Forgets the fields, keeping the buffers.
    pub fn clear(&mut self) {
        self.names.clear();
        self.vals.clear();
        self.text.clear();
    }

    fn put(&mut self, name: &'static str, v: Val) {
        // A field recorded again (a span's `record`) replaces its value; the text of the
        // old value stays in `text` until `clear`.
        match self.names.iter().position(|n| *n == name) {
            Some(i) => self.vals[i] = v,
            // `tracing` callsites have at most 32 fields; the bound keeps ids in `u16`.
            None if self.names.len() >= MAX_FIELDS => {}
            None => {
                self.names.push(name);
                self.vals.push(v);
            }
        }
    }

    /// Drops the text of replaced values once it outweighs the live text (a span whose
    /// fields are recorded again and again stays small).
    pub fn compact(&mut self) {
        let live: usize = self
            .vals
            .iter()
            .map(|v| match v {
                Val::Str(a, b) => b - a,
                _ => 0,
            })
            .sum();
        if self.text.len() <= 2 * live + 256 {
            return;
        }
        let mut text = String::with_capacity(live);
        for v in &mut self.vals {
            if let Val::Str(a, b) = v {
                let start = text.len();
                text.push_str(self.text.get(*a..*b).unwrap_or_default());
                (*a, *b) = (start, text.len());
            }
        }
        self.text = text;
    }

    /// Bytes of text kept (live and replaced).
    #[cfg(test)]
    pub fn text_len(&self) -> usize {
        self.text.len()
    }

    /// A signed integer.
    pub fn int(&mut self, name: &'static str, v: i64) {
        self.put(name, Val::Int(v));
    }

    /// An unsigned integer: an int up to `i64::MAX`, a decimal above.
    pub fn uint(&mut self, name: &'static str, v: u64) {
        let v = match i64::try_from(v) {
            Ok(i) => Val::Int(i),
            Err(_) => Val::Big(i128::from(v)),
        };
        self.put(name, v);
    }

    /// A 128-bit integer: an int when it fits 64 bits, a decimal up to 38 digits, else
    /// its text.
    pub fn int128(&mut self, name: &'static str, v: i128) {
        const MAX_DECIMAL: i128 = 10i128.pow(38) - 1;
        if let Ok(i) = i64::try_from(v) {
            self.put(name, Val::Int(i));
        } else if (-MAX_DECIMAL..=MAX_DECIMAL).contains(&v) {
            self.put(name, Val::Big(v));
        } else {
            self.display(name, &v);
        }
    }

    /// An unsigned 128-bit integer, as [`int128`](Self::int128).
    pub fn uint128(&mut self, name: &'static str, v: u128) {
        match i128::try_from(v) {
            Ok(i) => self.int128(name, i),
            Err(_) => self.display(name, &v),
        }
    }

    /// A double.
    pub fn double(&mut self, name: &'static str, v: f64) {
        self.put(name, Val::Double(v));
    }

    /// A boolean.
    pub fn bool(&mut self, name: &'static str, v: bool) {
        self.put(name, Val::Bool(v));
    }

    /// Text.
    pub fn str(&mut self, name: &'static str, v: &str) {
        let start = self.text.len();
        push_capped(&mut self.text, v);
        let end = self.text.len();
        self.put(name, Val::Str(start, end));
    }

    /// The `Debug` text of a value.
    pub fn debug(&mut self, name: &'static str, v: &dyn fmt::Debug) {
        let start = self.text.len();
        let _ = write!(Capped::new(&mut self.text), "{v:?}");
        let end = self.text.len();
        self.put(name, Val::Str(start, end));
    }

    /// The `Display` text of a value.
    pub fn display(&mut self, name: &'static str, v: &dyn fmt::Display) {
        let start = self.text.len();
        let _ = write!(Capped::new(&mut self.text), "{v}");
        let end = self.text.len();
        self.put(name, Val::Str(start, end));
    }

    /// Appends the frame (metadata length, metadata, value) of the object to `out`.
    pub fn encode(&mut self, out: &mut Vec<u8>) {
        if self.names.is_empty() {
            out.extend_from_slice(&EMPTY_FRAME);
            return;
        }
        let n = self.names.len();
        // The indexes of `names` in name order (on the stack for the usual few fields).
        let mut small = [0u16; 32];
        let mut large = Vec::new();
        let order: &mut [u16] = if n <= small.len() {
            &mut small[..n]
        } else {
            large.resize(n, 0);
            &mut large
        };
        for (i, o) in order.iter_mut().enumerate() {
            *o = i as u16;
        }
        let names = &self.names;
        order.sort_unstable_by(|&a, &b| names[usize::from(a)].cmp(names[usize::from(b)]));
        let order: &[u16] = order;

        let name_bytes: usize = names.iter().map(|s| s.len()).sum();
        let size = uint_size(name_bytes.max(n));
        let total: usize = order
            .iter()
            .map(|&i| self.val_len(self.vals[usize::from(i)]))
            .sum();
        let offset_size = uint_size(total);
        let id_size = uint_size(n - 1);
        let large = n > 0xff;
        let count_size = if large { 4 } else { 1 };
        let metadata_len = 1 + size * (n + 2) + name_bytes;
        let value_len = 1 + count_size + n * id_size + (n + 1) * offset_size + total;
        out.reserve(4 + metadata_len + value_len);

        // Metadata: the names in order (the ids are their positions).
        let len_at = out.len();
        out.extend_from_slice(&[0; 4]);
        out.push(METADATA_SORTED_V1 | ((size as u8 - 1) << 6));
        write_uint(out, n, size);
        let mut off = 0;
        write_uint(out, 0, size);
        for &i in order {
            off += names[usize::from(i)].len();
            write_uint(out, off, size);
        }
        for &i in order {
            out.extend_from_slice(names[usize::from(i)].as_bytes());
        }
        debug_assert_eq!(out.len() - len_at - 4, metadata_len);
        // At most `MAX_FIELDS` names from the program's static strings: far below 4 GiB.
        out[len_at..len_at + 4].copy_from_slice(&(metadata_len as u32).to_le_bytes());

        // Value: the object header, ids 0..n, offsets, then the values in name order.
        let header = (u8::from(large) << 4) | ((id_size as u8 - 1) << 2) | (offset_size as u8 - 1);
        out.push(OBJECT | (header << 2));
        write_uint(out, n, count_size);
        for id in 0..n {
            write_uint(out, id, id_size);
        }
        let mut off = 0;
        write_uint(out, 0, offset_size);
        for &i in order {
            off += self.val_len(self.vals[usize::from(i)]);
            write_uint(out, off, offset_size);
        }
        for &i in order {
            self.put_val(self.vals[usize::from(i)], out);
        }
        debug_assert_eq!(out.len() - len_at, 4 + metadata_len + value_len);
    }

    fn val_len(&self, v: Val) -> usize {
        match v {
            Val::Int(i) => 1 + int_width(i),
            Val::Big(_) => 1 + 1 + 16,
            Val::Double(_) => 1 + 8,
            Val::Bool(_) => 1,
            Val::Str(a, b) if b - a < 64 => 1 + (b - a),
            Val::Str(a, b) => 1 + 4 + (b - a),
        }
    }

    fn put_val(&self, v: Val, out: &mut Vec<u8>) {
        match v {
            Val::Int(i) => match int_width(i) {
                1 => {
                    out.push(3 << 2);
                    out.push(i as i8 as u8);
                }
                2 => {
                    out.push(4 << 2);
                    out.extend_from_slice(&(i as i16).to_le_bytes());
                }
                4 => {
                    out.push(5 << 2);
                    out.extend_from_slice(&(i as i32).to_le_bytes());
                }
                _ => {
                    out.push(6 << 2);
                    out.extend_from_slice(&i.to_le_bytes());
                }
            },
            Val::Big(i) => {
                out.push(10 << 2);
                out.push(0); // scale
                out.extend_from_slice(&i.to_le_bytes());
            }
            Val::Double(f) => {
                out.push(7 << 2);
                out.extend_from_slice(&f.to_le_bytes());
            }
            Val::Bool(b) => out.push(if b { 1 << 2 } else { 2 << 2 }),
            Val::Str(a, b) => {
                let s = self.text.as_bytes().get(a..b).unwrap_or_default();
                if s.len() < 64 {
                    out.push(SHORT_STRING | ((s.len() as u8) << 2));
                } else {
                    out.push(16 << 2);
                    // At most MAX_TEXT bytes (`push_capped`), so it fits.
                    out.extend_from_slice(&(s.len() as u32).to_le_bytes());
                }
                out.extend_from_slice(s);
            }
        }
    }
}

/// Bytes of the narrowest Variant int holding `i`.
fn int_width(i: i64) -> usize {
    if i8::try_from(i).is_ok() {
        1
    } else if i16::try_from(i).is_ok() {
        2
    } else if i32::try_from(i).is_ok() {
        4
    } else {
        8
    }
}

/// Bytes (1 to 4) an unsigned value up to `max` takes.
fn uint_size(max: usize) -> usize {
    match max {
        0..=0xff => 1,
        0x100..=0xffff => 2,
        0x1_0000..=0xff_ffff => 3,
        _ => 4,
    }
}

/// Appends the low `size` bytes of `v`, little-endian.
fn write_uint(out: &mut Vec<u8>, v: usize, size: usize) {
    out.extend_from_slice(&(v as u32).to_le_bytes()[..size]);
}

/// Appends `s` as far as [`Capped`] lets it.
fn push_capped(text: &mut String, s: &str) {
    let _ = Capped::new(text).write_str(s);
}

/// A writer appending to a string until it holds [`MAX_TEXT`] bytes (cut at a character
/// boundary): the text of all the fields of one event or span together stays below it, so
/// every length and offset of the VARIANT bytes fits 32 bits.
pub(crate) struct Capped<'a> {
    text: &'a mut String,
}

impl<'a> Capped<'a> {
    /// Appends to `text`.
    pub fn new(text: &'a mut String) -> Self {
        Capped { text }
    }
}

impl Write for Capped<'_> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let room = MAX_TEXT.saturating_sub(self.text.len());
        if s.len() <= room {
            self.text.push_str(s);
            return Ok(());
        }
        let mut cut = room;
        while !s.is_char_boundary(cut) {
            cut -= 1;
        }
        self.text.push_str(s.get(..cut).unwrap_or_default());
        // Stops the formatting: the rest would be cut anyway.
        Err(fmt::Error)
    }
}
