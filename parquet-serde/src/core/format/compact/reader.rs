//! Decoding side of the compact protocol.

use super::WireType;
use crate::{Error, Result};

/// Bounds a [`CompactReader`] enforces on hostile input.
///
/// Element counts of lists, sets and maps are always checked against the bytes left (every
/// element takes at least [`WireType::min_size`] bytes), so no count can make the reader
/// allocate more than a small multiple of its input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DecodeLimits {
    /// Deepest nesting of structs, lists, sets and maps (the top-level struct counts as 1).
    pub max_depth: usize,
    /// Longest `binary` or `string` value, in bytes.
    pub max_string_size: usize,
    /// Most elements of one list, set or map.
    pub max_container_len: usize,
}

impl DecodeLimits {
    /// Default nesting depth cap; parquet.thrift needs fewer than 10 levels.
    pub const DEFAULT_MAX_DEPTH: usize = 64;
    /// Default cap on one `binary`/`string` value: 100 MiB.
    pub const DEFAULT_MAX_STRING_SIZE: usize = 100 << 20;
}

impl Default for DecodeLimits {
    fn default() -> Self {
        DecodeLimits {
            max_depth: Self::DEFAULT_MAX_DEPTH,
            max_string_size: Self::DEFAULT_MAX_STRING_SIZE,
            max_container_len: i32::MAX as usize,
        }
    }
}

/// Reads compact-protocol values from a borrowed byte slice, tracking the position.
///
/// Every read checks the bytes left; malformed input gives an `Err` of kind
/// [`Corrupt`](crate::ErrorKind::Corrupt) carrying the byte offset, never a panic.
#[derive(Debug, Clone)]
pub struct CompactReader<'a> {
    buf: &'a [u8],
    pos: usize,
    depth: usize,
    /// Value of the bool field whose header was just read (the value lives in the header).
    pending_bool: Option<bool>,
    limits: DecodeLimits,
}

impl<'a> CompactReader<'a> {
    /// A reader at the start of `buf` with [`DecodeLimits::default`].
    pub fn new(buf: &'a [u8]) -> Self {
        Self::with_limits(buf, DecodeLimits::default())
    }

    /// A reader at the start of `buf` with the given limits.
    pub fn with_limits(buf: &'a [u8], limits: DecodeLimits) -> Self {
        CompactReader {
            buf,
            pos: 0,
            depth: 0,
            pending_bool: None,
            limits,
        }
    }

    /// Bytes consumed so far.
    pub fn position(&self) -> usize {
        self.pos
    }

    /// Bytes not consumed yet.
    pub fn remaining(&self) -> usize {
        self.buf.len() - self.pos
    }

    /// The limits in force.
    pub fn limits(&self) -> &DecodeLimits {
        &self.limits
    }

    /// A `Corrupt` error at the current offset.
    pub fn error(&self, message: impl Into<String>) -> Error {
        Error::corrupt(message).with_offset(self.pos as u64)
    }

    fn eof(&self, what: &str) -> Error {
        self.error(format!("thrift: unexpected end of input reading {what}"))
    }

    /// Reads one raw byte.
    #[inline]
    pub fn read_byte(&mut self) -> Result<u8> {
        match self.buf.get(self.pos) {
            Some(&b) => {
                self.pos += 1;
                Ok(b)
            }
            None => Err(self.eof("a byte")),
        }
    }

    /// Reads `n` raw bytes, borrowed from the input.
    #[inline]
    pub fn read_bytes(&mut self, n: usize) -> Result<&'a [u8]> {
        if n > self.remaining() {
            return Err(self.eof(&format!("{n} bytes")));
        }
        let bytes = &self.buf[self.pos..self.pos + n];
        self.pos += n;
        Ok(bytes)
    }

    /// Reads an unsigned LEB128 varint of at most 64 bits.
    #[inline]
    pub fn read_varint(&mut self) -> Result<u64> {
        // Fast path: one byte.
        if let Some(&b) = self.buf.get(self.pos) {
            if b & 0x80 == 0 {
                self.pos += 1;
                return Ok(u64::from(b));
            }
        }
        let start = self.pos;
        let mut value = 0u64;
        for i in 0..10 {
            let b = match self.buf.get(self.pos) {
                Some(&b) => b,
                None => return Err(self.eof("a varint")),
            };
            self.pos += 1;
            if i == 9 && b > 1 {
                self.pos = start;
                return Err(self.error("thrift: varint overflows 64 bits"));
            }
            value |= u64::from(b & 0x7f) << (7 * i);
            if b & 0x80 == 0 {
                return Ok(value);
            }
        }
        self.pos = start;
        Err(self.error("thrift: varint longer than 10 bytes"))
    }

    /// Reads a varint that must fit in `max` (an unsigned bound), restoring the position on error.
    #[inline]
    fn read_varint_max(&mut self, max: u64, what: &str) -> Result<u64> {
        let start = self.pos;
        let v = self.read_varint()?;
        if v > max {
            self.pos = start;
            return Err(self.error(format!("thrift: varint {v} out of range for {what}")));
        }
        Ok(v)
    }

    /// Reads an `i8` (one raw byte).
    #[inline]
    pub fn read_i8(&mut self) -> Result<i8> {
        Ok(self.read_byte()? as i8)
    }

    /// Reads a zigzag varint `i16`.
    #[inline]
    pub fn read_i16(&mut self) -> Result<i16> {
        let v = self.read_varint_max(u64::from(u16::MAX), "i16")?;
        Ok(zigzag_decode(v) as i16)
    }

    /// Reads a zigzag varint `i32`.
    #[inline]
    pub fn read_i32(&mut self) -> Result<i32> {
        let v = self.read_varint_max(u64::from(u32::MAX), "i32")?;
        Ok(zigzag_decode(v) as i32)
    }

    /// Reads a zigzag varint `i64`.
    #[inline]
    pub fn read_i64(&mut self) -> Result<i64> {
        Ok(zigzag_decode(self.read_varint()?))
    }

    /// Reads a little-endian IEEE 754 double.
    #[inline]
    pub fn read_double(&mut self) -> Result<f64> {
        let bytes = self.read_bytes(8)?;
        let mut arr = [0u8; 8];
        arr.copy_from_slice(bytes);
        Ok(f64::from_le_bytes(arr))
    }

    /// Reads a bool: the value of the bool field header just read, else one byte
    /// (list elements: 1 = true, 0 or 2 = false).
    #[inline]
    pub fn read_bool(&mut self) -> Result<bool> {
        if let Some(b) = self.pending_bool.take() {
            return Ok(b);
        }
        match self.read_byte()? {
            1 => Ok(true),
            0 | 2 => Ok(false),
            other => {
                self.pos -= 1;
                Err(self.error(format!("thrift: invalid bool byte {other}")))
            }
        }
    }

    /// Reads a `binary` value, borrowed from the input. The length is checked against the
    /// bytes left and [`DecodeLimits::max_string_size`].
    #[inline]
    pub fn read_binary(&mut self) -> Result<&'a [u8]> {
        let start = self.pos;
        let len = self.read_varint()?;
        if len > self.limits.max_string_size as u64 {
            self.pos = start;
            return Err(self.error(format!(
                "thrift: binary of {len} bytes exceeds the limit of {} bytes",
                self.limits.max_string_size
            )));
        }
        if len > self.remaining() as u64 {
            self.pos = start;
            return Err(self.error(format!(
                "thrift: binary of {len} bytes but only {} bytes left",
                self.remaining()
            )));
        }
        // `len <= remaining`, so it fits in usize.
        self.read_bytes(len as usize)
    }

    /// Reads a `string` value, borrowed from the input; it must be valid UTF-8.
    pub fn read_str(&mut self) -> Result<&'a str> {
        let start = self.pos;
        let bytes = self.read_binary()?;
        std::str::from_utf8(bytes).map_err(|e| {
            Error::corrupt(format!("thrift: string is not UTF-8: {e}"))
                .with_offset(start as u64)
                .with_source(e)
        })
    }

    /// Enters a struct (or any nested value): counts one nesting level against
    /// [`DecodeLimits::max_depth`]. Pair with [`struct_end`](Self::struct_end).
    #[inline]
    pub fn struct_begin(&mut self) -> Result<()> {
        if self.depth >= self.limits.max_depth {
            return Err(self.error(format!(
                "thrift: nesting deeper than {} levels",
                self.limits.max_depth
            )));
        }
        self.depth += 1;
        Ok(())
    }

    /// Leaves a struct entered with [`struct_begin`](Self::struct_begin).
    #[inline]
    pub fn struct_end(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }

    /// Reads a field header. `last_id` is the previous field id of the enclosing struct (start
    /// it at 0) and is updated. Returns `None` at the stop byte. For a bool field the value is
    /// kept for the next [`read_bool`](Self::read_bool) (or [`skip`](Self::skip)).
    #[inline]
    pub fn field_begin(&mut self, last_id: &mut i16) -> Result<Option<(WireType, i16)>> {
        self.pending_bool = None;
        let header = self.read_byte()?;
        if header == 0 {
            return Ok(None);
        }
        let nibble = header & 0x0f;
        let Some(wire) = WireType::from_nibble(nibble) else {
            self.pos -= 1;
            return Err(self.error(format!("thrift: invalid field type {nibble}")));
        };
        let delta = header >> 4;
        let id = if delta == 0 {
            self.read_i16()?
        } else {
            match last_id.checked_add(i16::from(delta)) {
                Some(id) => id,
                None => {
                    self.pos -= 1;
                    return Err(self.error("thrift: field id overflows i16"));
                }
            }
        };
        if wire == WireType::Bool {
            self.pending_bool = Some(nibble == 1);
        }
        *last_id = id;
        Ok(Some((wire, id)))
    }

    /// Checks an element count read from the input against the limits and the bytes left.
    fn check_len(
        &self,
        start: usize,
        len: u64,
        min_bytes_each: usize,
        what: &str,
    ) -> Result<usize> {
        let fits = len <= self.limits.max_container_len as u64
            && len
                .checked_mul(min_bytes_each as u64)
                .is_some_and(|need| need <= self.remaining() as u64);
        if !fits {
            return Err(Error::corrupt(format!(
                "thrift: {what} of {len} elements cannot fit in the {} bytes left",
                self.remaining()
            ))
            .with_offset(start as u64));
        }
        // `len` is at most the bytes left, so it fits in usize.
        Ok(len as usize)
    }

    /// Reads a list or set header: element type and count. The count is checked against the
    /// bytes left (each element takes at least [`WireType::min_size`] bytes).
    #[inline]
    pub fn list_begin(&mut self) -> Result<(WireType, usize)> {
        let start = self.pos;
        let header = self.read_byte()?;
        let nibble = header & 0x0f;
        let Some(elem) = WireType::from_nibble(nibble) else {
            self.pos = start;
            return Err(self.error(format!("thrift: invalid list element type {nibble}")));
        };
        let short = header >> 4;
        let len = if short == 15 {
            self.read_varint()?
        } else {
            u64::from(short)
        };
        if len > i32::MAX as u64 {
            self.pos = start;
            return Err(self.error(format!("thrift: list size {len} exceeds i32")));
        }
        let len = self.check_len(start, len, elem.min_size(), "list")?;
        Ok((elem, len))
    }

    /// Reads a map header: count and, for a non-empty map, key and value types.
    pub fn map_begin(&mut self) -> Result<(usize, Option<(WireType, WireType)>)> {
        let start = self.pos;
        let len = self.read_varint()?;
        if len > i32::MAX as u64 {
            self.pos = start;
            return Err(self.error(format!("thrift: map size {len} exceeds i32")));
        }
        if len == 0 {
            return Ok((0, None));
        }
        let types = self.read_byte()?;
        let (Some(k), Some(v)) = (
            WireType::from_nibble(types >> 4),
            WireType::from_nibble(types & 0x0f),
        ) else {
            self.pos = start;
            return Err(self.error(format!("thrift: invalid map types byte {types:#04x}")));
        };
        let len = self.check_len(start, len, k.min_size() + v.min_size(), "map")?;
        Ok((len, Some((k, v))))
    }

    /// Skips one value of the given type, nested structs, lists and maps included.
    pub fn skip(&mut self, wire: WireType) -> Result<()> {
        match wire {
            WireType::Bool => {
                self.read_bool()?;
            }
            WireType::I8 => {
                self.read_byte()?;
            }
            WireType::I16 | WireType::I32 | WireType::I64 => {
                self.read_varint()?;
            }
            WireType::Double => {
                self.read_bytes(8)?;
            }
            WireType::Uuid => {
                self.read_bytes(16)?;
            }
            WireType::Binary => {
                let start = self.pos;
                let len = self.read_varint()?;
                if len > self.remaining() as u64 {
                    self.pos = start;
                    return Err(self.eof("a binary"));
                }
                self.pos += len as usize;
            }
            WireType::List | WireType::Set => {
                let (elem, len) = self.list_begin()?;
                self.struct_begin()?;
                for _ in 0..len {
                    self.skip(elem)?;
                }
                self.struct_end();
            }
            WireType::Map => {
                let (len, types) = self.map_begin()?;
                if let Some((k, v)) = types {
                    self.struct_begin()?;
                    for _ in 0..len {
                        self.skip(k)?;
                        self.skip(v)?;
                    }
                    self.struct_end();
                }
            }
            WireType::Struct => {
                self.struct_begin()?;
                let mut last_id = 0;
                while let Some((field_wire, _)) = self.field_begin(&mut last_id)? {
                    self.skip(field_wire)?;
                }
                self.struct_end();
            }
        }
        Ok(())
    }
}

/// Zigzag decoding: 0, 1, 2, 3, ... -> 0, -1, 1, -2, ...
#[inline]
fn zigzag_decode(v: u64) -> i64 {
    ((v >> 1) as i64) ^ -((v & 1) as i64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invalid_utf8_keeps_the_utf8_error_as_source() {
        // A binary of length 2 (varint), then bytes that are not UTF-8.
        let mut r = CompactReader::new(&[0x02, 0xc3, 0x28]);
        let e = r.read_str().unwrap_err();
        assert_eq!(e.kind(), crate::ErrorKind::Corrupt);
        assert_eq!(e.location().offset, Some(0));
        let source = std::error::Error::source(&e).expect("a source");
        let utf8 = source
            .downcast_ref::<std::str::Utf8Error>()
            .expect("the Utf8Error");
        assert_eq!(utf8.valid_up_to(), 0);
    }

    #[test]
    fn varints() {
        let mut r = CompactReader::new(&[0x00, 0x7f, 0x80, 0x01, 0xac, 0x02]);
        assert_eq!(r.read_varint().unwrap(), 0);
        assert_eq!(r.read_varint().unwrap(), 127);
        assert_eq!(r.read_varint().unwrap(), 128);
        assert_eq!(r.read_varint().unwrap(), 300);
        assert_eq!(r.remaining(), 0);
        assert!(r.read_varint().is_err());

        let max = [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01];
        assert_eq!(CompactReader::new(&max).read_varint().unwrap(), u64::MAX);
        let over = [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02];
        assert!(CompactReader::new(&over).read_varint().is_err());
        let long = [0x80; 11];
        assert!(CompactReader::new(&long).read_varint().is_err());
        assert!(CompactReader::new(&[0x80, 0x80]).read_varint().is_err());
    }

    #[test]
    fn zigzag_ints() {
        // 0 -> 0, -1 -> 1, 1 -> 2, -2 -> 3, i32::MIN -> 0xffff_ffff
        let mut r = CompactReader::new(&[0, 1, 2, 3, 0xff, 0xff, 0xff, 0xff, 0x0f]);
        assert_eq!(r.read_i32().unwrap(), 0);
        assert_eq!(r.read_i32().unwrap(), -1);
        assert_eq!(r.read_i32().unwrap(), 1);
        assert_eq!(r.read_i32().unwrap(), -2);
        assert_eq!(r.read_i32().unwrap(), i32::MIN);
        // 2^32 does not fit an i32; i16 rejects 2^16.
        let mut r = CompactReader::new(&[0x80, 0x80, 0x80, 0x80, 0x10]);
        assert!(r.read_i32().is_err());
        assert_eq!(r.position(), 0);
        assert!(CompactReader::new(&[0x80, 0x80, 0x04]).read_i16().is_err());
        assert_eq!(
            CompactReader::new(&[0xfe, 0xff, 0x03]).read_i16().unwrap(),
            i16::MAX
        );
    }

    #[test]
    fn binary_is_bounded() {
        let mut r = CompactReader::new(&[3, b'a', b'b', b'c', 5, b'x']);
        assert_eq!(r.read_str().unwrap(), "abc");
        let err = r.read_binary().unwrap_err();
        assert_eq!(err.location().offset, Some(4));

        let limits = DecodeLimits {
            max_string_size: 2,
            ..DecodeLimits::default()
        };
        let mut r = CompactReader::with_limits(&[3, b'a', b'b', b'c'], limits);
        assert!(r.read_binary().is_err());
        assert!(CompactReader::new(&[2, 0xff, 0xfe]).read_str().is_err());
    }

    #[test]
    fn field_headers() {
        // delta 1 i32, delta 2 bool true, long form id 300 binary, bool false delta 1, stop
        let bytes = [0x15, 0x02, 0x21, 0x08, 0xd8, 0x04, 0x00, 0x12, 0x00];
        let mut r = CompactReader::new(&bytes);
        let mut last = 0;
        assert_eq!(r.field_begin(&mut last).unwrap(), Some((WireType::I32, 1)));
        assert_eq!(r.read_i32().unwrap(), 1);
        assert_eq!(r.field_begin(&mut last).unwrap(), Some((WireType::Bool, 3)));
        assert!(r.read_bool().unwrap());
        assert_eq!(
            r.field_begin(&mut last).unwrap(),
            Some((WireType::Binary, 300))
        );
        assert_eq!(r.read_binary().unwrap(), b"");
        assert_eq!(
            r.field_begin(&mut last).unwrap(),
            Some((WireType::Bool, 301))
        );
        assert!(!r.read_bool().unwrap());
        assert_eq!(r.field_begin(&mut last).unwrap(), None);
    }

    #[test]
    fn invalid_headers() {
        let mut last = 0;
        assert!(CompactReader::new(&[0x1e]).field_begin(&mut last).is_err());
        let mut last = i16::MAX;
        assert!(CompactReader::new(&[0x15]).field_begin(&mut last).is_err());
        assert!(CompactReader::new(&[0x10]).list_begin().is_err());
        assert!(CompactReader::new(&[0x01, 0x00]).map_begin().is_err());
    }

    #[test]
    fn list_counts_are_bounded() {
        // 3 i32 elements in 3 bytes: fine; 4 claimed: error.
        assert_eq!(
            CompactReader::new(&[0x35, 0, 0, 0]).list_begin().unwrap(),
            (WireType::I32, 3)
        );
        assert!(CompactReader::new(&[0x45, 0, 0, 0]).list_begin().is_err());
        // Doubles take 8 bytes each.
        assert!(CompactReader::new(&[0x17, 0, 0, 0, 0])
            .list_begin()
            .is_err());
        // Long form: 2^31 elements.
        let bomb = [0xf5, 0x80, 0x80, 0x80, 0x80, 0x08];
        assert!(CompactReader::new(&bomb).list_begin().is_err());
        // Maps: each pair takes at least two bytes.
        assert!(CompactReader::new(&[0x02, 0x55, 0, 0]).map_begin().is_err());
        assert_eq!(
            CompactReader::new(&[0x02, 0x55, 0, 0, 0, 0])
                .map_begin()
                .unwrap(),
            (2, Some((WireType::I32, WireType::I32)))
        );
        assert_eq!(CompactReader::new(&[0x00]).map_begin().unwrap(), (0, None));
    }

    #[test]
    fn skip_every_type() {
        // struct { 1: bool, 2: i8, 3: i16, 4: i32, 5: i64, 6: double, 7: binary, 8: list<i32>,
        //          9: set<bool>, 10: map<i32,binary>, 11: struct{1: i32}, 12: uuid }
        let mut bytes = vec![0x11, 0x13, 0x7f, 0x14, 0x04, 0x15, 0x06, 0x16, 0x08, 0x17];
        bytes.extend_from_slice(&1.5f64.to_le_bytes());
        bytes.extend_from_slice(&[0x18, 0x02, b'h', b'i']);
        bytes.extend_from_slice(&[0x19, 0x25, 0x02, 0x04]);
        bytes.extend_from_slice(&[0x1a, 0x21, 0x01, 0x02]);
        bytes.extend_from_slice(&[0x1b, 0x01, 0x58, 0x02, 0x01, b'z']);
        bytes.extend_from_slice(&[0x1c, 0x15, 0x02, 0x00]);
        bytes.push(0x1d);
        bytes.extend_from_slice(&[7u8; 16]);
        bytes.push(0x00);
        bytes.push(0xaa); // trailing byte, not consumed
        let mut r = CompactReader::new(&bytes);
        r.skip(WireType::Struct).unwrap();
        assert_eq!(r.remaining(), 1);
        for cut in 0..bytes.len() - 1 {
            let mut r = CompactReader::new(&bytes[..cut]);
            assert!(r.skip(WireType::Struct).is_err(), "cut at {cut}");
        }
    }

    #[test]
    fn depth_is_capped() {
        // 100 nested lists of one list each.
        let bytes = vec![0x19; 100];
        let mut r = CompactReader::new(&bytes);
        let err = r.skip(WireType::List).unwrap_err();
        assert!(err.message().contains("nesting"), "{err}");
        // Nested structs through field headers.
        let bytes = vec![0x1c; 100];
        assert!(CompactReader::new(&bytes).skip(WireType::Struct).is_err());
    }
}
