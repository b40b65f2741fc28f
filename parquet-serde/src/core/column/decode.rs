//! Decoding the values section of a data page, by encoding.

use crate::core::encoding::{
    alp, byte_stream_split, delta_binary_packed, delta_byte_array, delta_length_byte_array,
    group_var_int, plain, rle_boolean,
};
use crate::core::format::Encoding;
use crate::core::values::ColumnValues;
use crate::error::{Error, Result};

use super::dictionary::Dictionary;

/// Decodes `n` PLAIN values, appending to `out` (whose variant is the physical type).
pub(crate) fn decode_plain(data: &[u8], n: usize, out: &mut ColumnValues) -> Result<usize> {
    match out {
        ColumnValues::Boolean(v) => plain::decode_boolean(data, n, v),
        ColumnValues::Int32(v) => plain::decode_fixed(data, n, v),
        ColumnValues::Int64(v) => plain::decode_fixed(data, n, v),
        ColumnValues::Int96(v) => plain::decode_fixed(data, n, v),
        ColumnValues::Float(v) => plain::decode_fixed(data, n, v),
        ColumnValues::Double(v) => plain::decode_fixed(data, n, v),
        ColumnValues::ByteArray(v) => plain::decode_byte_array(data, n, v),
        ColumnValues::FixedLenByteArray(v) => {
            if v.width == 0 {
                return Err(Error::corrupt(
                    "FIXED_LEN_BYTE_ARRAY column with type_length 0",
                ));
            }
            plain::decode_fixed_len_byte_array(data, n, v.width, &mut v.data)
        }
    }
}

/// The physical type of a values container, for messages.
pub(crate) fn type_name(values: &ColumnValues) -> &'static str {
    match values {
        ColumnValues::Boolean(_) => "BOOLEAN",
        ColumnValues::Int32(_) => "INT32",
        ColumnValues::Int64(_) => "INT64",
        ColumnValues::Int96(_) => "INT96",
        ColumnValues::Float(_) => "FLOAT",
        ColumnValues::Double(_) => "DOUBLE",
        ColumnValues::ByteArray(_) => "BYTE_ARRAY",
        ColumnValues::FixedLenByteArray(_) => "FIXED_LEN_BYTE_ARRAY",
    }
}

fn wrong_type(encoding: &str, out: &ColumnValues) -> Error {
    Error::corrupt(format!(
        "{encoding} values in a {} column (the encoding does not apply to that type)",
        type_name(out)
    ))
}

/// Decodes the `n` non-null values of a data page in `encoding`.
pub(crate) fn decode_values(
    encoding: Encoding,
    data: &[u8],
    n: usize,
    dictionary: Option<&Dictionary>,
    scratch: &mut Vec<u32>,
    out: &mut ColumnValues,
) -> Result<()> {
    if n == 0 {
        // A page of nulls (or an empty page) carries no values in any encoding.
        return Ok(());
    }
    // Bytes after the values (padding some writers leave) are ignored.
    let _consumed = match encoding {
        Encoding::Plain => decode_plain(data, n, out)?,
        Encoding::PlainDictionary | Encoding::RleDictionary => {
            let dict = dictionary.ok_or_else(|| {
                Error::corrupt("dictionary-encoded page but the chunk has no dictionary page")
            })?;
            dict.decode_indices(data, n, scratch, out)?;
            0
        }
        Encoding::Rle => match out {
            ColumnValues::Boolean(v) => rle_boolean::decode(data, n, v)?,
            _ => return Err(wrong_type("RLE", out)),
        },
        Encoding::DeltaBinaryPacked => match out {
            ColumnValues::Int32(v) => delta_binary_packed::decode(data, n, v)?,
            ColumnValues::Int64(v) => delta_binary_packed::decode(data, n, v)?,
            _ => return Err(wrong_type("DELTA_BINARY_PACKED", out)),
        },
        Encoding::DeltaLengthByteArray => match out {
            ColumnValues::ByteArray(v) => delta_length_byte_array::decode(data, n, v)?,
            _ => return Err(wrong_type("DELTA_LENGTH_BYTE_ARRAY", out)),
        },
        Encoding::DeltaByteArray => match out {
            ColumnValues::ByteArray(v) => delta_byte_array::decode(data, n, v)?,
            ColumnValues::FixedLenByteArray(v) => {
                delta_byte_array::decode_fixed(data, n, v.width, &mut v.data)?
            }
            _ => return Err(wrong_type("DELTA_BYTE_ARRAY", out)),
        },
        Encoding::ByteStreamSplit => match out {
            ColumnValues::Float(v) => byte_stream_split::decode_values(data, n, v)?,
            ColumnValues::Double(v) => byte_stream_split::decode_values(data, n, v)?,
            ColumnValues::Int32(v) => byte_stream_split::decode_values(data, n, v)?,
            ColumnValues::Int64(v) => byte_stream_split::decode_values(data, n, v)?,
            ColumnValues::FixedLenByteArray(v) => {
                byte_stream_split::decode(data, n, v.width, &mut v.data)?
            }
            _ => return Err(wrong_type("BYTE_STREAM_SPLIT", out)),
        },
        e if alp::is_alp(e) => match out {
            ColumnValues::Float(v) => alp::decode(data, n, v)?,
            ColumnValues::Double(v) => alp::decode(data, n, v)?,
            _ => return Err(wrong_type("ALP", out)),
        },
        e if group_var_int::is_group_var_int(e) => match out {
            ColumnValues::Int32(v) => group_var_int::decode(data, n, v)?,
            ColumnValues::Int64(v) => group_var_int::decode(data, n, v)?,
            _ => return Err(wrong_type("GROUP_VAR_INT", out)),
        },
        other => return Err(Error::unsupported(format!("value encoding {other:?}"))),
    };
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::column::batch::empty_values;
    use crate::core::encoding::alp;
    use crate::core::format::Type;
    use proptest::prelude::*;

    const ENCODINGS: [Encoding; 10] = [
        Encoding::Plain,
        Encoding::Rle,
        Encoding::BitPacked,
        Encoding::DeltaBinaryPacked,
        Encoding::DeltaLengthByteArray,
        Encoding::DeltaByteArray,
        Encoding::ByteStreamSplit,
        Encoding::RleDictionary,
        alp::ALP,
        crate::core::encoding::group_var_int::GROUP_VAR_INT,
    ];

    const TYPES: [Type; 8] = [
        Type::Boolean,
        Type::Int32,
        Type::Int64,
        Type::Int96,
        Type::Float,
        Type::Double,
        Type::ByteArray,
        Type::FixedLenByteArray,
    ];

    #[test]
    fn wrong_types_are_named() {
        let mut out = empty_values(Type::Double, 0);
        let e = decode_values(
            Encoding::DeltaBinaryPacked,
            &[0; 8],
            1,
            None,
            &mut vec![],
            &mut out,
        )
        .unwrap_err();
        assert_eq!(
            e.to_string(),
            "corrupt file: DELTA_BINARY_PACKED values in a DOUBLE column (the encoding does not \
             apply to that type)"
        );
        let e = decode_values(Encoding::BitPacked, &[0; 8], 1, None, &mut vec![], &mut out)
            .unwrap_err();
        assert_eq!(e.kind(), crate::ErrorKind::Unsupported);
    }

    proptest! {
        /// Any bytes, in any encoding, for any type: an error or values, never a panic.
        #[test]
        fn random_pages_never_panic(
            bytes in proptest::collection::vec(any::<u8>(), 0..300),
            e in 0usize..9,
            t in 0usize..8,
            n in 0usize..2000,
        ) {
            let mut out = empty_values(TYPES[t], 3);
            let _ = decode_values(ENCODINGS[e], &bytes, n, None, &mut vec![], &mut out);
        }
    }
}
