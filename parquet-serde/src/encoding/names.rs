//! The specification's names of encodings (`DELTA_BINARY_PACKED`), for options, messages
//! and the command line.

use crate::format::Encoding;

use super::alp;

/// The name of `encoding` as the specification spells it (`"DELTA_BINARY_PACKED"`), or
/// `"UNKNOWN(n)"`.
///
/// ```
/// use parquet_serde::core::encoding::names::{name, parse};
/// use parquet_serde::core::format::Encoding;
/// assert_eq!(name(Encoding::ByteStreamSplit), "BYTE_STREAM_SPLIT");
/// assert_eq!(parse("delta_binary_packed"), Some(Encoding::DeltaBinaryPacked));
/// assert_eq!(parse("alp").map(name).as_deref(), Some("ALP"));
/// assert_eq!(parse("zip"), None);
/// ```
pub fn name(encoding: Encoding) -> String {
    let s = match encoding {
        Encoding::Plain => "PLAIN",
        Encoding::PlainDictionary => "PLAIN_DICTIONARY",
        Encoding::Rle => "RLE",
        Encoding::BitPacked => "BIT_PACKED",
        Encoding::DeltaBinaryPacked => "DELTA_BINARY_PACKED",
        Encoding::DeltaLengthByteArray => "DELTA_LENGTH_BYTE_ARRAY",
        Encoding::DeltaByteArray => "DELTA_BYTE_ARRAY",
        Encoding::RleDictionary => "RLE_DICTIONARY",
        Encoding::ByteStreamSplit => "BYTE_STREAM_SPLIT",
        e if alp::is_alp(e) => "ALP",
        other => return format!("UNKNOWN({})", other.to_i32()),
    };
    s.to_string()
}

/// The encoding named `name` (any case; `-` for `_` allowed), or `None`.
pub fn parse(name: &str) -> Option<Encoding> {
    let n = name.trim().to_ascii_uppercase().replace('-', "_");
    Some(match n.as_str() {
        "PLAIN" => Encoding::Plain,
        "PLAIN_DICTIONARY" => Encoding::PlainDictionary,
        "RLE" => Encoding::Rle,
        "BIT_PACKED" => Encoding::BitPacked,
        "DELTA_BINARY_PACKED" => Encoding::DeltaBinaryPacked,
        "DELTA_LENGTH_BYTE_ARRAY" => Encoding::DeltaLengthByteArray,
        "DELTA_BYTE_ARRAY" => Encoding::DeltaByteArray,
        "RLE_DICTIONARY" | "DICTIONARY" => Encoding::RleDictionary,
        "BYTE_STREAM_SPLIT" => Encoding::ByteStreamSplit,
        "ALP" => alp::ALP,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for v in 0..=10 {
            let e = Encoding::from_i32(v);
            if v == 1 {
                assert_eq!(name(e), "UNKNOWN(1)");
                continue;
            }
            assert_eq!(parse(&name(e)), Some(e), "{v}");
        }
        assert_eq!(parse(" Delta-Byte-Array "), Some(Encoding::DeltaByteArray));
    }
}
