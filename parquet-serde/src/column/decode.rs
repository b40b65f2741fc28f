//! Decoding the values section of a data page, by encoding.

use crate::encoding::{plain, rle::RleDecoder};
use crate::error::{Error, Result};
use crate::format::Encoding;
use crate::values::ColumnValues;

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

/// Decodes RLE-encoded booleans (4-byte length prefix, then the hybrid with bit width 1).
fn decode_rle_boolean(data: &[u8], n: usize, out: &mut Vec<bool>) -> Result<()> {
    let len = data
        .get(..4)
        .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize)
        .ok_or_else(|| Error::corrupt("RLE boolean values without their length"))?;
    let body = data
        .get(4..4 + len.min(data.len()))
        .filter(|b| b.len() == len)
        .ok_or_else(|| {
            Error::corrupt(format!(
                "RLE boolean section of {len} bytes runs past the page"
            ))
        })?;
    let mut scratch = vec![0u32; n];
    let got = RleDecoder::new(body, 1).next_batch_u32(&mut scratch)?;
    if got != n {
        return Err(Error::corrupt(format!(
            "page holds {got} RLE booleans, expected {n}"
        )));
    }
    out.extend(scratch.iter().map(|&b| b != 0));
    Ok(())
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
    match encoding {
        Encoding::Plain => decode_plain(data, n, out).map(|_| ()),
        Encoding::PlainDictionary | Encoding::RleDictionary => {
            let dict = dictionary.ok_or_else(|| {
                Error::corrupt("dictionary-encoded page but the chunk has no dictionary page")
            })?;
            dict.decode_indices(data, n, scratch, out)
        }
        Encoding::Rle => match out {
            ColumnValues::Boolean(v) => decode_rle_boolean(data, n, v),
            _ => Err(Error::corrupt(
                "RLE encoding for values other than booleans",
            )),
        },
        other => Err(Error::unsupported(format!("value encoding {other:?}"))),
    }
}
