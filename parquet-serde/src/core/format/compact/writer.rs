//! Encoding side of the compact protocol.

use super::WireType;

/// Writes compact-protocol values, appending to an owned `Vec<u8>`.
///
/// Structs are written as [`struct_begin`](Self::struct_begin), field headers and values,
/// [`struct_end`](Self::struct_end); the writer keeps the last field id of each open struct
/// so headers use the short (delta) form whenever they can. Writing cannot fail.
#[derive(Debug, Default, Clone)]
pub struct CompactWriter {
    buf: Vec<u8>,
    last_id: i16,
    /// Last field ids of the enclosing structs.
    stack: Vec<i16>,
}

impl CompactWriter {
    /// A writer with an empty buffer.
    pub fn new() -> Self {
        Self::default()
    }

    /// A writer appending to `buf` (its contents are kept).
    pub fn with_buffer(buf: Vec<u8>) -> Self {
        CompactWriter {
            buf,
            last_id: 0,
            stack: Vec::new(),
        }
    }

    /// The bytes written (and any the buffer held before).
    pub fn as_bytes(&self) -> &[u8] {
        &self.buf
    }

    /// Gives the buffer back.
    pub fn into_inner(self) -> Vec<u8> {
        self.buf
    }

    /// Appends one raw byte.
    #[inline]
    pub fn write_byte(&mut self, b: u8) {
        self.buf.push(b);
    }

    /// Appends an unsigned LEB128 varint.
    #[inline]
    pub fn write_varint(&mut self, mut v: u64) {
        while v >= 0x80 {
            self.buf.push((v as u8) | 0x80);
            v >>= 7;
        }
        self.buf.push(v as u8);
    }

    /// Appends an `i8` as one raw byte.
    #[inline]
    pub fn write_i8(&mut self, v: i8) {
        self.buf.push(v as u8);
    }

    /// Appends a zigzag varint `i16`.
    #[inline]
    pub fn write_i16(&mut self, v: i16) {
        self.write_i64(i64::from(v));
    }

    /// Appends a zigzag varint `i32`.
    #[inline]
    pub fn write_i32(&mut self, v: i32) {
        self.write_i64(i64::from(v));
    }

    /// Appends a zigzag varint `i64`.
    #[inline]
    pub fn write_i64(&mut self, v: i64) {
        self.write_varint(((v << 1) ^ (v >> 63)) as u64);
    }

    /// Appends a little-endian IEEE 754 double.
    #[inline]
    pub fn write_double(&mut self, v: f64) {
        self.buf.extend_from_slice(&v.to_le_bytes());
    }

    /// Appends a bool as a list element (1 = true, 2 = false). For a bool struct field use
    /// [`write_bool_field`](Self::write_bool_field).
    #[inline]
    pub fn write_bool(&mut self, v: bool) {
        self.buf.push(if v { 1 } else { 2 });
    }

    /// Appends a `binary` value: varint length and bytes.
    #[inline]
    pub fn write_binary(&mut self, v: &[u8]) {
        self.write_varint(v.len() as u64);
        self.buf.extend_from_slice(v);
    }

    /// Appends a `string` value.
    #[inline]
    pub fn write_str(&mut self, v: &str) {
        self.write_binary(v.as_bytes());
    }

    /// Opens a struct: its field ids start again from 0.
    #[inline]
    pub fn struct_begin(&mut self) {
        self.stack.push(self.last_id);
        self.last_id = 0;
    }

    /// Closes a struct: writes the stop byte.
    #[inline]
    pub fn struct_end(&mut self) {
        self.buf.push(0);
        self.last_id = self.stack.pop().unwrap_or(0);
    }

    fn header(&mut self, nibble: u8, id: i16) {
        let delta = i32::from(id) - i32::from(self.last_id);
        if (1..=15).contains(&delta) {
            self.buf.push(((delta as u8) << 4) | nibble);
        } else {
            self.buf.push(nibble);
            self.write_i16(id);
        }
        self.last_id = id;
    }

    /// Appends a field header; the value follows. A [`WireType::Bool`] field needs
    /// [`write_bool_field`](Self::write_bool_field) instead (this writes `true`).
    #[inline]
    pub fn write_field_header(&mut self, wire: WireType, id: i16) {
        debug_assert!(wire != WireType::Bool, "use write_bool_field");
        self.header(wire.nibble(), id);
    }

    /// Appends a bool field: the value is in the header's type nibble.
    #[inline]
    pub fn write_bool_field(&mut self, id: i16, v: bool) {
        self.header(if v { 1 } else { 2 }, id);
    }

    /// Appends a field holding an empty struct (a union member without fields).
    pub fn write_empty_struct_field(&mut self, id: i16) {
        self.write_field_header(WireType::Struct, id);
        self.buf.push(0);
    }

    /// Appends a list (or set) header.
    #[inline]
    pub fn write_list_header(&mut self, elem: WireType, len: usize) {
        if len < 15 {
            self.buf.push(((len as u8) << 4) | elem.nibble());
        } else {
            self.buf.push(0xf0 | elem.nibble());
            self.write_varint(len as u64);
        }
    }

    /// Appends a map header.
    pub fn write_map_header(&mut self, key: WireType, value: WireType, len: usize) {
        self.write_varint(len as u64);
        if len > 0 {
            self.buf.push((key.nibble() << 4) | value.nibble());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::CompactReader;
    use super::*;

    #[test]
    fn ints_round_trip() {
        let mut w = CompactWriter::new();
        let values = [0i64, -1, 1, -64, 64, i64::MIN, i64::MAX, 300, -300];
        for v in values {
            w.write_i64(v);
        }
        w.write_i32(i32::MIN);
        w.write_i16(i16::MIN);
        w.write_i8(-5);
        w.write_double(-0.25);
        let bytes = w.into_inner();
        let mut r = CompactReader::new(&bytes);
        for v in values {
            assert_eq!(r.read_i64().unwrap(), v);
        }
        assert_eq!(r.read_i32().unwrap(), i32::MIN);
        assert_eq!(r.read_i16().unwrap(), i16::MIN);
        assert_eq!(r.read_i8().unwrap(), -5);
        assert_eq!(r.read_double().unwrap(), -0.25);
        assert_eq!(r.remaining(), 0);
    }

    #[test]
    fn field_header_forms() {
        let mut w = CompactWriter::new();
        w.struct_begin();
        w.write_field_header(WireType::I32, 1); // delta 1
        w.write_i32(-1);
        w.write_bool_field(16, true); // delta 15
        w.write_bool_field(17, false); // delta 1
        w.write_field_header(WireType::Binary, 40); // delta 23: long form
        w.write_str("x");
        w.write_field_header(WireType::I8, 2); // going back: long form
        w.write_i8(9);
        w.struct_begin();
        w.write_field_header(WireType::I64, 1); // ids restart in a nested struct
        w.write_i64(1);
        w.struct_end();
        w.struct_end();
        assert_eq!(
            w.as_bytes(),
            &[
                0x15, 0x01, 0xf1, 0x12, 0x08, 0x50, 0x01, b'x', 0x03, 0x04, 0x09, 0x16, 0x02, 0x00,
                0x00
            ]
        );
    }

    #[test]
    fn list_headers() {
        let mut w = CompactWriter::new();
        w.write_list_header(WireType::I32, 14);
        w.write_list_header(WireType::Binary, 15);
        w.write_list_header(WireType::Struct, 300);
        w.write_map_header(WireType::I32, WireType::Binary, 0);
        w.write_map_header(WireType::I32, WireType::Binary, 2);
        assert_eq!(
            w.as_bytes(),
            &[0xe5, 0xf8, 0x0f, 0xfc, 0xac, 0x02, 0x00, 0x02, 0x58]
        );
    }
}
