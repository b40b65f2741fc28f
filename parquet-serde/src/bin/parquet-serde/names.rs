//! Codec and encoding names on the command line: one parser per type, used as clap value
//! parsers.

use parquet_serde::core::column::Encoding;
use parquet_serde::Compression;

/// A codec's parquet.thrift name (`LZ4_RAW`) in the form `meta` and `pages` print it
/// (`Lz4Raw`).
pub fn codec_debug_name(name: &str) -> String {
    name.split('_')
        .map(|w| {
            let mut cs = w.chars();
            match cs.next() {
                Some(first) => first.to_string() + &cs.as_str().to_lowercase(),
                None => String::new(),
            }
        })
        .collect()
}

/// A codec and optional level: `zstd`, `zstd:9`, `zstd(9)`, `gzip:6`, `none` (the names
/// [`Compression`]'s `FromStr` accepts).
pub fn parse_compression(s: &str) -> Result<Compression, String> {
    s.parse::<Compression>()
        .map_err(|e| e.message().to_string())
}

/// An encoding by its Parquet name, in any case (`DELTA_BINARY_PACKED`, `delta-binary-packed`,
/// `dictionary` for RLE_DICTIONARY, `alp`).
pub fn parse_encoding(s: &str) -> Result<Encoding, String> {
    s.parse::<Encoding>().map_err(|e| e.message().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codecs() {
        assert_eq!(parse_compression("zstd:5"), Ok(Compression::Zstd(5)));
        assert_eq!(parse_compression("ZSTD"), Ok(Compression::Zstd(3)));
        assert_eq!(parse_compression("gzip"), Ok(Compression::Gzip(6)));
        assert_eq!(parse_compression("none"), Ok(Compression::Uncompressed));
        assert_eq!(parse_compression("lz4"), Ok(Compression::Lz4Raw));
        assert_eq!(
            parse_compression("snappy:3"),
            Err("snappy has no levels".to_string())
        );
        assert!(parse_compression("gzip:-1").is_err());
        assert!(parse_compression("gzip:x").is_err());
        assert!(parse_compression("lzo").is_err());
    }

    #[test]
    fn encodings() {
        assert_eq!(
            parse_encoding("delta-binary-packed"),
            Ok(Encoding::DeltaBinaryPacked)
        );
        assert_eq!(parse_encoding("dictionary"), Ok(Encoding::RleDictionary));
        let zip = parse_encoding("zip").unwrap_err();
        assert!(zip.starts_with("unknown encoding zip"), "{zip}");
    }
}
