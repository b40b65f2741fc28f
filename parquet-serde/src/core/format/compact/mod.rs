//! The Thrift compact protocol: a bounds-checked [`CompactReader`] over a borrowed slice and a
//! [`CompactWriter`] that appends to a `Vec<u8>`.
//!
//! Wire format in brief: integers are zigzag varints (`i8` is one raw byte), doubles are 8
//! little-endian bytes, binary/string is a varint length and the bytes, a struct is a run of
//! field headers (field-id delta in the high nibble, [`WireType`] in the low nibble; a zero delta
//! means a zigzag `i16` id follows) ended by a zero byte. A bool field keeps its value in the
//! header's type nibble (1 = true, 2 = false). A list/set header keeps a size up to 14 in the
//! high nibble (15 = a varint size follows) and the element type in the low nibble; a map header
//! is a varint size followed, for a non-empty map, by one byte of key and value types.

mod reader;
mod writer;

pub use reader::{CompactReader, DecodeLimits};
pub use writer::CompactWriter;

/// The type of a value on the wire, as told by a field, list or map header.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum WireType {
    /// Boolean (in a field header the value itself: nibble 1 = true, 2 = false).
    Bool,
    /// One raw byte.
    I8,
    /// Zigzag varint of at most 16 bits.
    I16,
    /// Zigzag varint of at most 32 bits.
    I32,
    /// Zigzag varint of at most 64 bits.
    I64,
    /// 8 bytes, IEEE 754, little-endian.
    Double,
    /// Varint length and bytes (Thrift `binary` and `string`).
    Binary,
    /// List header and elements.
    List,
    /// Set header and elements (same layout as a list).
    Set,
    /// Map header and key/value pairs.
    Map,
    /// Fields ended by a stop byte.
    Struct,
    /// 16 raw bytes (Thrift `uuid`, newer Thrift versions).
    Uuid,
}

impl WireType {
    /// The wire type of a compact type nibble, `None` for 0 (stop) and values above 13.
    /// Both boolean nibbles (1 and 2) map to [`WireType::Bool`].
    pub fn from_nibble(nibble: u8) -> Option<Self> {
        Some(match nibble {
            1 | 2 => WireType::Bool,
            3 => WireType::I8,
            4 => WireType::I16,
            5 => WireType::I32,
            6 => WireType::I64,
            7 => WireType::Double,
            8 => WireType::Binary,
            9 => WireType::List,
            10 => WireType::Set,
            11 => WireType::Map,
            12 => WireType::Struct,
            13 => WireType::Uuid,
            _ => return None,
        })
    }

    /// The compact type nibble (1 for [`WireType::Bool`], as used in list and map headers).
    pub fn nibble(self) -> u8 {
        match self {
            WireType::Bool => 1,
            WireType::I8 => 3,
            WireType::I16 => 4,
            WireType::I32 => 5,
            WireType::I64 => 6,
            WireType::Double => 7,
            WireType::Binary => 8,
            WireType::List => 9,
            WireType::Set => 10,
            WireType::Map => 11,
            WireType::Struct => 12,
            WireType::Uuid => 13,
        }
    }

    /// The fewest bytes one value of this type takes on the wire (used to bound element
    /// counts against the bytes left; an empty struct is its one stop byte).
    pub fn min_size(self) -> usize {
        match self {
            WireType::Double => 8,
            WireType::Uuid => 16,
            _ => 1,
        }
    }
}
