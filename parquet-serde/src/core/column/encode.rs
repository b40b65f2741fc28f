//! Encoding the values section of a data page, by encoding (the writer's side of
//! `decode.rs`), and which encodings fit which physical types.

use crate::core::encoding::{
    alp, byte_stream_split, delta_binary_packed, delta_byte_array, delta_length_byte_array,
    group_var_int, plain, rle_boolean,
};
use crate::core::format::{Encoding, Type};
use crate::core::values::ColumnValues;
use crate::error::{Error, Result};

/// The physical types a value encoding applies to (dictionary encodings: all but BOOLEAN).
pub(crate) fn types_of(encoding: Encoding) -> &'static [Type] {
    use Type::*;
    match encoding {
        Encoding::Plain => &[
            Boolean,
            Int32,
            Int64,
            Int96,
            Float,
            Double,
            ByteArray,
            FixedLenByteArray,
        ],
        Encoding::PlainDictionary | Encoding::RleDictionary => &[
            Int32,
            Int64,
            Int96,
            Float,
            Double,
            ByteArray,
            FixedLenByteArray,
        ],
        Encoding::Rle => &[Boolean],
        Encoding::DeltaBinaryPacked => &[Int32, Int64],
        Encoding::DeltaLengthByteArray => &[ByteArray],
        Encoding::DeltaByteArray => &[ByteArray, FixedLenByteArray],
        Encoding::ByteStreamSplit => &[Float, Double, Int32, Int64, FixedLenByteArray],
        e if alp::is_alp(e) => &[Float, Double],
        e if group_var_int::is_group_var_int(e) => &[Int32, Int64],
        _ => &[],
    }
}

/// Checks that `encoding` can write values of `physical_type` in data pages; the error
/// says which types it fits.
pub fn check_encoding(encoding: Encoding, physical_type: Type) -> Result<()> {
    let fits = types_of(encoding);
    if fits.contains(&physical_type) {
        return Ok(());
    }
    let name = encoding;
    Err(Error::invalid_argument(if fits.is_empty() {
        format!("{name} is not an encoding of values")
    } else {
        format!(
            "encoding {name} does not fit physical type {} (it encodes {})",
            physical_type.format_name(),
            fits.iter()
                .map(|t| t.format_name())
                .collect::<Vec<_>>()
                .join(", ")
        )
    }))
}

/// PLAIN-encodes values of any physical type; an error for a byte array of 4 GiB or more.
pub(crate) fn encode_plain(values: &ColumnValues, out: &mut Vec<u8>) -> Result<()> {
    match values {
        ColumnValues::Boolean(v) => plain::encode_boolean(v, out),
        ColumnValues::Int32(v) => plain::encode_fixed(v, out),
        ColumnValues::Int64(v) => plain::encode_fixed(v, out),
        ColumnValues::Int96(v) => plain::encode_fixed(v, out),
        ColumnValues::Float(v) => plain::encode_fixed(v, out),
        ColumnValues::Double(v) => plain::encode_fixed(v, out),
        ColumnValues::ByteArray(v) => plain::encode_byte_array(v.iter(), out)?,
        ColumnValues::FixedLenByteArray(v) => out.extend_from_slice(v.data()),
    }
    Ok(())
}

/// Appends `values` in `encoding` (a value encoding, not a dictionary one) to `out`.
pub(crate) fn encode_values(
    encoding: Encoding,
    values: &ColumnValues,
    out: &mut Vec<u8>,
) -> Result<()> {
    match (encoding, values) {
        (Encoding::Plain, v) => encode_plain(v, out)?,
        (Encoding::Rle, ColumnValues::Boolean(v)) => rle_boolean::encode(v, out),
        (Encoding::DeltaBinaryPacked, ColumnValues::Int32(v)) => {
            delta_binary_packed::encode(v, out)
        }
        (Encoding::DeltaBinaryPacked, ColumnValues::Int64(v)) => {
            delta_binary_packed::encode(v, out)
        }
        (Encoding::DeltaLengthByteArray, ColumnValues::ByteArray(v)) => {
            delta_length_byte_array::encode(v, out)?
        }
        (Encoding::DeltaByteArray, ColumnValues::ByteArray(v)) => delta_byte_array::encode(v, out)?,
        (Encoding::DeltaByteArray, ColumnValues::FixedLenByteArray(v)) => {
            delta_byte_array::encode_fixed(v, out)?
        }
        (Encoding::ByteStreamSplit, ColumnValues::Float(v)) => {
            byte_stream_split::encode_values(v, out)
        }
        (Encoding::ByteStreamSplit, ColumnValues::Double(v)) => {
            byte_stream_split::encode_values(v, out)
        }
        (Encoding::ByteStreamSplit, ColumnValues::Int32(v)) => {
            byte_stream_split::encode_values(v, out)
        }
        (Encoding::ByteStreamSplit, ColumnValues::Int64(v)) => {
            byte_stream_split::encode_values(v, out)
        }
        (Encoding::ByteStreamSplit, ColumnValues::FixedLenByteArray(v)) => {
            byte_stream_split::encode(&v.data, v.width, out)
        }
        (e, ColumnValues::Float(v)) if alp::is_alp(e) => alp::encode(v, out),
        (e, ColumnValues::Double(v)) if alp::is_alp(e) => alp::encode(v, out),
        (e, ColumnValues::Int32(v)) if group_var_int::is_group_var_int(e) => {
            group_var_int::encode(v, out)
        }
        (e, ColumnValues::Int64(v)) if group_var_int::is_group_var_int(e) => {
            group_var_int::encode(v, out)
        }
        (e, v) => {
            return Err(Error::invalid_argument(format!(
                "cannot write {} values in {}",
                super::decode::type_name(v),
                e
            )))
        }
    }
    Ok(())
}

/// Appends `dict[i]` for each index to `out` (same variant as `dict`); indices come from
/// the writer's own dictionary and are in range.
pub(crate) fn gather(dict: &ColumnValues, indices: &[u32], out: &mut ColumnValues) {
    let gathered = crate::core::values::gather(dict, indices, out);
    debug_assert!(gathered.is_ok(), "{gathered:?}");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::values::ByteArrays;

    #[test]
    fn fits_and_errors() {
        check_encoding(Encoding::DeltaBinaryPacked, Type::Int64).unwrap();
        check_encoding(Encoding::ByteStreamSplit, Type::FixedLenByteArray).unwrap();
        check_encoding(alp::ALP, Type::Float).unwrap();
        let e = check_encoding(Encoding::DeltaBinaryPacked, Type::Double).unwrap_err();
        assert_eq!(
            e.to_string(),
            "invalid argument: encoding DELTA_BINARY_PACKED does not fit physical type DOUBLE \
             (it encodes INT32, INT64)"
        );
        let e = check_encoding(Encoding::BitPacked, Type::Int32).unwrap_err();
        assert!(e
            .to_string()
            .contains("BIT_PACKED is not an encoding of values"));
        assert!(check_encoding(Encoding::Rle, Type::Int32).is_err());
        assert!(check_encoding(Encoding::RleDictionary, Type::Boolean).is_err());
    }

    #[test]
    fn gathers() {
        let mut d = ByteArrays::new();
        d.push(b"a");
        d.push(b"bc");
        let mut out = ColumnValues::ByteArray(ByteArrays::new());
        gather(&ColumnValues::ByteArray(d), &[1, 0, 1], &mut out);
        let ColumnValues::ByteArray(o) = out else {
            unreachable!()
        };
        assert_eq!(o.iter().collect::<Vec<_>>(), [&b"bc"[..], b"a", b"bc"]);
        let mut out = ColumnValues::Int64(vec![7]);
        gather(&ColumnValues::Int64(vec![5, 6]), &[1, 1, 0], &mut out);
        assert_eq!(out, ColumnValues::Int64(vec![7, 6, 6, 5]));
    }

    #[test]
    fn mismatched_encoding_is_an_error() {
        let e = encode_values(
            Encoding::DeltaBinaryPacked,
            &ColumnValues::Double(vec![1.0]),
            &mut vec![],
        )
        .unwrap_err();
        assert!(
            e.to_string()
                .contains("DOUBLE values in DELTA_BINARY_PACKED"),
            "{e}"
        );
    }
}
