//! [`VariantEncoder`] and [`to_variant_bytes`]: any `T: Serialize` straight to Variant
//! metadata and value bytes, with no owned [`Variant`](super::Variant) tree in between.
//!
//! Values are written into one output buffer as serde hands them over. Field names are
//! interned into the metadata dictionary as they come (ids in first-use order, so the
//! dictionary is marked sorted only when that order happens to be sorted; the encoding
//! allows both). An object's members are written first; at its end the small table of
//! (field id, offset) pairs is sorted by name, as the encoding requires of field ids, and
//! its header is put in front of the members with one shift. Arrays likewise. Offsets, ids
//! and counts take the fewest bytes that hold them.
//!
//! The mapping from serde's data model is [`to_variant`](super::to_variant)'s, so the bytes
//! decode to the value `to_variant` builds; a map or struct that gives the same key twice
//! keeps the last value, as [`Variant::object`](super::Variant::object) does.

use std::cell::RefCell;
use std::cmp::Ordering;

use serde::Serialize;

use crate::error::{Error, Result};

use super::direct::Direct;
use super::intern::Names;
use super::metadata::{uint_size, write_uint, VERSION};
use super::sort::{Entry, Sorter};
use super::view::{value_size, ARRAY, OBJECT};

/// Encodes serde values as Variant metadata and value bytes, reusing its buffers from one
/// value to the next (the fast path for many rows; [`to_variant_bytes`] for one value).
///
/// ```
/// use parquet_serde::__internals::variant::VariantEncoder;
/// use parquet_serde::variant::Variant;
/// #[derive(serde::Serialize)]
/// struct Event<'a> { status: u16, path: &'a str }
/// let mut enc = VariantEncoder::new();
/// for (status, path) in [(200, "/"), (500, "/api")] {
///     let (metadata, value) = enc.encode(&Event { status, path })?;
///     let v = Variant::decode(metadata, value)?;
///     assert_eq!(v.get("path"), Some(&Variant::from(path)));
/// }
/// # Ok::<(), parquet_serde::Error>(())
/// ```
#[derive(Debug, Default, Clone)]
pub struct VariantEncoder {
    pub(super) names: Names,
    pub(super) value: Vec<u8>,
    metadata: Vec<u8>,
    /// (name prefix, field id, member offset) of the objects being written, innermost
    /// last.
    pub(super) fields: Vec<Entry>,
    /// Member offsets of the arrays being written, innermost last.
    pub(super) offsets: Vec<usize>,
    sorter: Sorter,
    /// A map key being built.
    pub(super) key: String,
    /// The dictionary `metadata` holds (see [`Names::order`]); values of one shape share
    /// it, so their metadata is written once.
    written: (Vec<u32>, u64),
}

/// Serializes `value` (any `T: Serialize`, a `serde_json::Value` too) as Variant bytes: its
/// metadata and its value, straight from serde without an owned [`Variant`](super::Variant)
/// tree; the mapping is [`to_variant`](super::to_variant)'s. Each thread reuses one
/// encoder's buffers across calls. Object fields are written sorted by name and the
/// metadata is marked sorted.
///
/// ```
/// use parquet_serde::variant::{to_variant, to_variant_bytes, Variant};
/// let json = serde_json::json!({"status": 500, "tags": ["a", "b"], "http": {"path": "/"}});
/// let (metadata, value) = to_variant_bytes(&json)?;
/// assert_eq!(Variant::decode(&metadata, &value)?, to_variant(&json)?);
/// # Ok::<(), parquet_serde::Error>(())
/// ```
pub fn to_variant_bytes<T: Serialize + ?Sized>(value: &T) -> Result<(Vec<u8>, Vec<u8>)> {
    with_variant_bytes(value, |m, v| Ok((m.to_vec(), v.to_vec())))
}

/// Encodes `value` with this thread's encoder (its buffers and tables serve every call)
/// and hands its metadata and value bytes to `f` (the crate's writers copy them into their
/// columns).
pub(crate) fn with_variant_bytes<T: Serialize + ?Sized, R>(
    value: &T,
    f: impl FnOnce(&[u8], &[u8]) -> Result<R>,
) -> Result<R> {
    ENCODER.with(|cell| match cell.try_borrow_mut() {
        Ok(mut enc) => {
            let out = enc.encode(value).and_then(|(m, v)| f(m, v));
            enc.shrink();
            out
        }
        // Called again from inside a value's `Serialize`: an encoder of its own.
        Err(_) => VariantEncoder::new()
            .encode(value)
            .and_then(|(m, v)| f(m, v)),
    })
}

thread_local! {
    /// This thread's encoder (its buffers and tables serve every call).
    static ENCODER: RefCell<VariantEncoder> = RefCell::new(VariantEncoder::new());
}

/// Runs `f` with this thread's encoder (or a new one when it is in use).
pub(super) fn with_encoder<R>(f: impl FnOnce(&mut VariantEncoder) -> Result<R>) -> Result<R> {
    ENCODER.with(|cell| match cell.try_borrow_mut() {
        Ok(mut enc) => {
            let out = f(&mut enc);
            enc.shrink();
            out
        }
        Err(_) => f(&mut VariantEncoder::new()),
    })
}

/// Writes `values` little-endian, `size` (1 to 4) bytes each, into `out` (as many as
/// fit; the callers size `out` exactly).
#[inline]
fn put_uints(out: &mut [u8], values: impl IntoIterator<Item = usize>, size: usize) {
    let values = values.into_iter();
    match size {
        1 => out.iter_mut().zip(values).for_each(|(d, v)| *d = v as u8),
        2 => out
            .chunks_exact_mut(2)
            .zip(values)
            .for_each(|(d, v)| d.copy_from_slice(&(v as u16).to_le_bytes())),
        3 => out
            .chunks_exact_mut(3)
            .zip(values)
            .for_each(|(d, v)| d.copy_from_slice(&(v as u32).to_le_bytes()[..3])),
        _ => out
            .chunks_exact_mut(4)
            .zip(values)
            .for_each(|(d, v)| d.copy_from_slice(&(v as u32).to_le_bytes())),
    }
}

/// A size or count as the encoding's 4-byte unsigned integer at most.
#[inline]
pub(super) fn len32(n: usize, what: &str) -> Result<usize> {
    if u32::try_from(n).is_ok() {
        Ok(n)
    } else {
        Err(Error::invalid_argument(format!(
            "a variant {what} of {n} is above the encoding's 4-byte limit"
        )))
    }
}

impl VariantEncoder {
    /// An encoder with empty buffers.
    pub fn new() -> VariantEncoder {
        VariantEncoder::default()
    }

    /// Encodes `value`: its metadata and value bytes, borrowed until the next call.
    pub fn encode<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(&[u8], &[u8])> {
        self.write(value)?;
        self.write_metadata()?;
        Ok((&self.metadata, &self.value))
    }

    /// Encodes a JSON value as [`encode`](Self::encode) does (the same bytes), walking
    /// the `serde_json::Value` itself rather than through serde's `Serializer`; nesting
    /// deeper than [`MAX_DEPTH`](super::MAX_DEPTH) is an error (bytes that deep could not
    /// be read back).
    ///
    /// ```
    /// use parquet_serde::__internals::variant::VariantEncoder;
    /// use parquet_serde::variant::to_variant_bytes;
    /// let json = serde_json::json!({"level": "info", "http": {"status": 200}});
    /// let mut enc = VariantEncoder::new();
    /// let (metadata, value) = enc.encode_json(&json)?;
    /// assert_eq!((metadata.to_vec(), value.to_vec()), to_variant_bytes(&json)?);
    /// # Ok::<(), parquet_serde::Error>(())
    /// ```
    pub fn encode_json(&mut self, value: &serde_json::Value) -> Result<(&[u8], &[u8])> {
        self.begin();
        let done = self.json(value, 0);
        self.end(done)?;
        self.write_metadata()?;
        Ok((&self.metadata, &self.value))
    }

    /// Lets go of buffers a large value left behind (a thread's encoder lives as long as
    /// the thread).
    fn shrink(&mut self) {
        const KEEP: usize = 1 << 20;
        if self.value.capacity() > KEEP {
            self.value = Vec::new();
        }
        if self.metadata.capacity() > KEEP || self.written.0.capacity() > KEEP / 4 {
            // Together: empty metadata is what says no dictionary is written.
            self.metadata = Vec::new();
            self.written.0 = Vec::new();
        }
        if self.fields.capacity() > KEEP / 16 {
            self.fields = Vec::new();
        }
        if self.offsets.capacity() > KEEP / 8 {
            self.offsets = Vec::new();
        }
    }

    /// Writes the value bytes of `value` (clearing what was there).
    fn write<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        self.begin();
        let done = value.serialize(Direct { enc: self });
        self.end(done)
    }

    /// Clears what the last value left.
    fn begin(&mut self) {
        self.names.clear();
        self.value.clear();
        self.fields.clear();
        self.offsets.clear();
    }

    /// Ends a value whose writing gave `done`.
    fn end(&mut self, done: Result<()>) -> Result<()> {
        if done.is_err() {
            // Leave nothing half-written for the next value.
            self.value.clear();
            self.fields.clear();
            self.offsets.clear();
        }
        done?;
        len32(self.value.len(), "value size")?;
        Ok(())
    }

    /// Writes the metadata of the names interned: version 1, the narrowest offset size,
    /// marked sorted when the first-use order is sorted.
    fn write_metadata(&mut self) -> Result<()> {
        let names = &self.names;
        let (order, resets) = names.order();
        if !self.metadata.is_empty() && self.written.1 == resets && self.written.0 == order {
            return Ok(());
        }
        // Not valid until written whole.
        self.metadata.clear();
        self.written.0.clear();
        self.write_new_metadata()?;
        let (order, resets) = self.names.order();
        self.written.0.extend_from_slice(order);
        self.written.1 = resets;
        Ok(())
    }

    /// Writes the metadata of the names interned (the dictionary differs from the last).
    fn write_new_metadata(&mut self) -> Result<()> {
        let names = &self.names;
        let n = len32(names.len(), "dictionary count")? as u32;
        let sorted = (1..n).all(|i| {
            names.cmp((names.prefix(i - 1), i - 1), (names.prefix(i), i)) == Ordering::Less
        });
        let out = &mut self.metadata;
        out.clear();
        if let Some((bytes, ends)) = names.in_place() {
            let total = len32(bytes.len(), "dictionary size")?;
            let size = uint_size(total.max(n as usize));
            out.reserve(1 + size * (n as usize + 2) + total);
            out.push(VERSION | (u8::from(sorted) << 4) | (((size - 1) as u8) << 6));
            write_uint(out, n as usize, size);
            write_uint(out, 0, size);
            for &end in ends {
                write_uint(out, end, size);
            }
            out.extend_from_slice(bytes);
            return Ok(());
        }
        let total = len32((0..n).map(|i| names.get(i).len()).sum(), "dictionary size")?;
        let size = uint_size(total.max(n as usize));
        out.reserve(1 + size * (n as usize + 2) + total);
        out.push(VERSION | (u8::from(sorted) << 4) | (((size - 1) as u8) << 6));
        write_uint(out, n as usize, size);
        write_uint(out, 0, size);
        let mut end = 0;
        for i in 0..n {
            end += names.get(i).len();
            write_uint(out, end, size);
        }
        for i in 0..n {
            out.extend_from_slice(names.get(i));
        }
        Ok(())
    }

    /// Records field `id` of the object being written, its member starting at `at`.
    #[inline]
    pub(super) fn push_field(&mut self, id: u32, at: usize) {
        self.fields.push((self.names.prefix(id), id, at));
    }

    /// Makes room for a header of `h` bytes in front of the bytes from `start` (one shift
    /// of them); returns the room.
    fn open_head(&mut self, start: usize, h: usize) -> &mut [u8] {
        let end = self.value.len();
        self.value.resize(end + h, 0);
        self.value.copy_within(start..end, start + h);
        &mut self.value[start..start + h]
    }

    /// Ends the array whose members start at `start` and whose member offsets start at
    /// `self.offsets[base]`: writes its header in front of them.
    pub(super) fn finish_array(&mut self, start: usize, base: usize) -> Result<()> {
        let total = len32(self.value.len() - start, "array size")?;
        let n = len32(self.offsets.len() - base, "array length")?;
        let size = uint_size(total);
        let large = n > 0xff;
        let count = if large { 4 } else { 1 };
        self.offsets.push(total);
        let offsets = std::mem::take(&mut self.offsets);
        let head = self.open_head(start, 1 + count + (n + 1) * size);
        head[0] = ARRAY | ((u8::from(large) << 2 | (size as u8 - 1)) << 2);
        put_uints(&mut head[1..1 + count], [n], count);
        put_uints(
            &mut head[1 + count..],
            offsets[base..].iter().copied(),
            size,
        );
        self.offsets = offsets;
        self.offsets.truncate(base);
        Ok(())
    }

    /// Ends the object whose members start at `start` and whose (id, offset) pairs start
    /// at `self.fields[base]`: sorts the pairs by name, keeps the last of a repeated name,
    /// and writes the header in front of the members.
    pub(super) fn finish_object(&mut self, start: usize, base: usize) -> Result<()> {
        let names = &self.names;
        let fields = &mut self.fields[base..];
        // Strictly increasing prefixes: sorted, no name twice (the usual case); else
        // distinct prefixes sort by them alone.
        if !fields.windows(2).all(|w| w[0].0 < w[1].0) && !self.sorter.sort(fields) {
            // By prefix, then by position (members are written in order, so a later
            // offset is a later field).
            fields.sort_unstable_by_key(|f| (f.0, f.2));
            let (mut repeated, mut tie) = (false, false);
            for w in fields.windows(2) {
                if w[0].0 == w[1].0 {
                    if w[0].1 == w[1].1 {
                        repeated = true;
                    } else {
                        tie = true;
                    }
                }
            }
            if tie {
                // Distinct names with one prefix: by the whole name.
                fields
                    .sort_unstable_by(|a, b| names.cmp((a.0, a.1), (b.0, b.1)).then(a.2.cmp(&b.2)));
                repeated = fields.windows(2).any(|w| w[0].1 == w[1].1);
            }
            if repeated {
                // Of entries with one name, the last written is last: it stays.
                self.drop_repeated(start, base)?;
            }
        }
        let fields = &self.fields[base..];
        let total = len32(self.value.len() - start, "object size")?;
        let n = len32(fields.len(), "object length")?;
        let max_id = fields.iter().map(|f| f.1).max().unwrap_or(0);
        let id_size = uint_size(max_id as usize);
        let size = uint_size(total);
        let large = n > 0xff;
        let count = if large { 4 } else { 1 };
        let fields = std::mem::take(&mut self.fields);
        let entries = &fields[base..];
        let ids = 1 + count;
        let offsets = ids + n * id_size;
        let head = self.open_head(start, offsets + (n + 1) * size);
        let header = u8::from(large) << 4 | ((id_size as u8 - 1) << 2) | (size as u8 - 1);
        head[0] = OBJECT | (header << 2);
        put_uints(&mut head[1..ids], [n], count);
        put_uints(
            &mut head[ids..offsets],
            entries.iter().map(|f| f.1 as usize),
            id_size,
        );
        put_uints(
            &mut head[offsets..],
            entries.iter().map(|f| f.2).chain([total]),
            size,
        );
        self.fields = fields;
        self.fields.truncate(base);
        Ok(())
    }

    /// Keeps the last of each run of pairs with one id (sorted by name) and rewrites the
    /// members so that no unused bytes stay between them (the rare path: a map that gives
    /// a key twice).
    fn drop_repeated(&mut self, start: usize, base: usize) -> Result<()> {
        let mut kept: Vec<Entry> = Vec::with_capacity(self.fields.len() - base);
        for &f in &self.fields[base..] {
            match kept.last_mut() {
                Some(last) if last.1 == f.1 => *last = f,
                _ => kept.push(f),
            }
        }
        let mut members = Vec::with_capacity(self.value.len() - start);
        for f in &mut kept {
            let at = start + f.2;
            let size = value_size(&self.value[at..])?;
            f.2 = members.len();
            members.extend_from_slice(&self.value[at..at + size]);
        }
        self.value.truncate(start);
        self.value.extend_from_slice(&members);
        self.fields.truncate(base);
        self.fields.extend_from_slice(&kept);
        Ok(())
    }
}
