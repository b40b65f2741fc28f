//! The enums of `parquet.thrift`. Each keeps values it does not know as `Unknown(n)`.

/// Declares a Thrift enum: a Rust enum with one variant per known value plus `Unknown(i32)`,
/// and `from_i32` / `to_i32` conversions.
macro_rules! thrift_enum {
    ($(#[$meta:meta])* $name:ident { $($(#[$vmeta:meta])* $variant:ident = $value:literal,)* }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        #[non_exhaustive]
        pub enum $name {
            $($(#[$vmeta])* $variant,)*
            /// A value this library does not know (written by a newer writer).
            Unknown(i32),
        }

        impl $name {
            /// The enum for a Thrift value; unknown values are kept as `Unknown(n)`.
            pub const fn from_i32(value: i32) -> Self {
                match value {
                    $($value => $name::$variant,)*
                    other => $name::Unknown(other),
                }
            }

            /// The Thrift value.
            pub const fn to_i32(self) -> i32 {
                match self {
                    $($name::$variant => $value,)*
                    $name::Unknown(other) => other,
                }
            }
        }
    };
}
#[allow(unused_imports)] // kept for modules that declare more Thrift enums
pub(crate) use thrift_enum;

thrift_enum! {
    /// Physical types (`Type` in parquet.thrift).
    Type {
        /// 1 bit per value.
        Boolean = 0,
        /// 32-bit signed integer.
        Int32 = 1,
        /// 64-bit signed integer.
        Int64 = 2,
        /// 96-bit value (deprecated; legacy timestamps).
        Int96 = 3,
        /// IEEE 754 single precision.
        Float = 4,
        /// IEEE 754 double precision.
        Double = 5,
        /// Variable-length bytes.
        ByteArray = 6,
        /// Fixed-length bytes (`type_length` in the schema).
        FixedLenByteArray = 7,
    }
}

impl Type {
    /// The format's name of the type (`FIXED_LEN_BYTE_ARRAY`), or `UNKNOWN(n)` for a value
    /// this library does not know.
    pub(crate) fn format_name(self) -> String {
        match self {
            Type::Boolean => "BOOLEAN".into(),
            Type::Int32 => "INT32".into(),
            Type::Int64 => "INT64".into(),
            Type::Int96 => "INT96".into(),
            Type::Float => "FLOAT".into(),
            Type::Double => "DOUBLE".into(),
            Type::ByteArray => "BYTE_ARRAY".into(),
            Type::FixedLenByteArray => "FIXED_LEN_BYTE_ARRAY".into(),
            Type::Unknown(t) => format!("UNKNOWN({t})"),
        }
    }

    /// [`format_name`](Self::format_name) with the width of a fixed-length type:
    /// `FIXED_LEN_BYTE_ARRAY(16)`.
    pub(crate) fn format_name_with_width(self, width: i32) -> String {
        match self {
            Type::FixedLenByteArray => format!("FIXED_LEN_BYTE_ARRAY({width})"),
            t => t.format_name(),
        }
    }
}

thrift_enum! {
    /// Deprecated type annotations, superseded by [`LogicalType`](super::LogicalType) but
    /// still written for old readers.
    ConvertedType {
        /// UTF-8 string.
        Utf8 = 0,
        /// Map group.
        Map = 1,
        /// Key/value group of a map (legacy).
        MapKeyValue = 2,
        /// List group.
        List = 3,
        /// Enum string.
        Enum = 4,
        /// Decimal (with scale and precision in the schema element).
        Decimal = 5,
        /// Days since the Unix epoch.
        Date = 6,
        /// Milliseconds since midnight.
        TimeMillis = 7,
        /// Microseconds since midnight.
        TimeMicros = 8,
        /// Milliseconds since the Unix epoch.
        TimestampMillis = 9,
        /// Microseconds since the Unix epoch.
        TimestampMicros = 10,
        /// Unsigned 8-bit integer.
        Uint8 = 11,
        /// Unsigned 16-bit integer.
        Uint16 = 12,
        /// Unsigned 32-bit integer.
        Uint32 = 13,
        /// Unsigned 64-bit integer.
        Uint64 = 14,
        /// Signed 8-bit integer.
        Int8 = 15,
        /// Signed 16-bit integer.
        Int16 = 16,
        /// Signed 32-bit integer.
        Int32 = 17,
        /// Signed 64-bit integer.
        Int64 = 18,
        /// JSON document.
        Json = 19,
        /// BSON document.
        Bson = 20,
        /// 12-byte interval (months, days, milliseconds).
        Interval = 21,
    }
}

thrift_enum! {
    /// Repetition of a schema field.
    FieldRepetitionType {
        /// Exactly one value per parent.
        Required = 0,
        /// Zero or one value.
        Optional = 1,
        /// Zero or more values.
        Repeated = 2,
        /// A fixed-size vector group (see LogicalTypes.md).
        Vector = 3,
    }
}

thrift_enum! {
    /// Encodings of values and levels.
    Encoding {
        /// Plain encoding.
        Plain = 0,
        /// Deprecated dictionary encoding (data pages and dictionary pages).
        PlainDictionary = 2,
        /// RLE / bit-packing hybrid.
        Rle = 3,
        /// Deprecated bit-packed levels.
        BitPacked = 4,
        /// Delta encoding for integers.
        DeltaBinaryPacked = 5,
        /// Delta-encoded lengths followed by the bytes.
        DeltaLengthByteArray = 6,
        /// Incremental (prefix) encoding of byte arrays.
        DeltaByteArray = 7,
        /// Dictionary indices, RLE / bit-packing hybrid encoded.
        RleDictionary = 8,
        /// Byte stream split for fixed-width values.
        ByteStreamSplit = 9,
    }
}

thrift_enum! {
    /// Compression codecs.
    CompressionCodec {
        /// No compression.
        Uncompressed = 0,
        /// Snappy (raw block format).
        Snappy = 1,
        /// Gzip.
        Gzip = 2,
        /// LZO (not supported by this library).
        Lzo = 3,
        /// Brotli.
        Brotli = 4,
        /// Deprecated LZ4 (Hadoop framing).
        Lz4 = 5,
        /// Zstandard.
        Zstd = 6,
        /// Raw LZ4 block.
        Lz4Raw = 7,
    }
}

thrift_enum! {
    /// Kind of page.
    PageType {
        /// Data page v1.
        DataPage = 0,
        /// Index page (unused by writers; skipped by readers).
        IndexPage = 1,
        /// Dictionary page.
        DictionaryPage = 2,
        /// Data page v2.
        DataPageV2 = 3,
    }
}

thrift_enum! {
    /// Order of the min/max values in a ColumnIndex.
    BoundaryOrder {
        /// No order.
        Unordered = 0,
        /// Ascending.
        Ascending = 1,
        /// Descending.
        Descending = 2,
    }
}

thrift_enum! {
    /// Edge interpolation algorithm of the GEOGRAPHY logical type.
    EdgeInterpolationAlgorithm {
        /// Spherical edges.
        Spherical = 0,
        /// Vincenty.
        Vincenty = 1,
        /// Thomas.
        Thomas = 2,
        /// Andoyer.
        Andoyer = 3,
        /// Karney.
        Karney = 4,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_values_are_kept() {
        assert_eq!(Type::from_i32(7), Type::FixedLenByteArray);
        assert_eq!(Type::from_i32(42), Type::Unknown(42));
        assert_eq!(Type::Unknown(42).to_i32(), 42);
        assert_eq!(Encoding::from_i32(1), Encoding::Unknown(1));
    }
}
