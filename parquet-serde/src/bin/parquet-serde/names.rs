//! Codec and encoding names on the command line: one parser per type, used as clap value
//! parsers.

use parquet_serde::core::encoding::names;
use parquet_serde::core::format::Encoding;
use parquet_serde::Compression;

/// A codec and optional level: `zstd`, `zstd:9`, `gzip:6`, `none`.
pub fn parse_compression(s: &str) -> Result<Compression, String> {
    let (name, level) = match s.split_once(':') {
        Some((n, l)) => (n, Some(l)),
        None => (s, None),
    };
    let level_i = |default: i64| -> Result<i64, String> {
        level.map_or(Ok(default), |l| {
            l.parse()
                .map_err(|_| format!("compression level {l:?} is not a number"))
        })
    };
    let out_of_range = |l: i64| format!("{name} level {l} is out of range");
    let c = match name.to_ascii_lowercase().as_str() {
        "none" | "uncompressed" => Compression::Uncompressed,
        "snappy" => Compression::Snappy,
        "gzip" => {
            let l = level_i(6)?;
            Compression::Gzip(u32::try_from(l).map_err(|_| out_of_range(l))?)
        }
        "brotli" => {
            let l = level_i(1)?;
            Compression::Brotli(u32::try_from(l).map_err(|_| out_of_range(l))?)
        }
        "zstd" => {
            let l = level_i(3)?;
            Compression::Zstd(i32::try_from(l).map_err(|_| out_of_range(l))?)
        }
        "lz4" | "lz4_raw" | "lz4raw" => Compression::Lz4Raw,
        other => return Err(format!("unknown codec {other}")),
    };
    if level.is_some()
        && matches!(
            c,
            Compression::Uncompressed | Compression::Snappy | Compression::Lz4Raw
        )
    {
        return Err(format!("{name} has no levels"));
    }
    c.validate().map_err(|e| e.message().to_string())?;
    Ok(c)
}

/// An encoding by its Parquet name, in any case (`DELTA_BINARY_PACKED`, `delta-binary-packed`,
/// `dictionary` for RLE_DICTIONARY, `alp`).
pub fn parse_encoding(s: &str) -> Result<Encoding, String> {
    names::parse(s).ok_or_else(|| format!("unknown encoding {s}"))
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
        assert_eq!(
            parse_encoding("zip"),
            Err("unknown encoding zip".to_string())
        );
    }
}
