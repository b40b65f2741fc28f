//! Names of codecs: [`Compression`]'s `Display` and `FromStr` (a codec with its level, as
//! options and the command line write it) and [`CompressionCodec`]'s `Display` (the codec id
//! as parquet.thrift spells it, for messages).
//!
//! `Compression` prints as `uncompressed`, `snappy`, `gzip(6)`, `brotli(1)`, `zstd(3)` or
//! `lz4_raw`, the form of `#[parquet(compression = "...")]`. It parses from any case, with
//! `-` for `_` and surrounding spaces; the level goes in parentheses (`zstd(9)`) or after a
//! colon (`zstd:9`, the command line's form) and may be left out for the codec's default
//! (gzip 6, brotli 1, zstd 3); `none` means `uncompressed`, `lz4` and `lz4raw` mean `lz4_raw`
//! (the only LZ4 this library writes). Levels are checked as
//! [`Compression::validate`] checks them. The derive's `compression` attribute takes the
//! same names.
//!
//! ```
//! use parquet_serde::Compression;
//! assert_eq!("zstd:9".parse::<Compression>()?, Compression::Zstd(9));
//! assert_eq!("ZSTD(9)".parse::<Compression>()?, Compression::Zstd(9));
//! assert_eq!("gzip".parse::<Compression>()?, Compression::GZIP_DEFAULT);
//! assert_eq!(Compression::Zstd(9).to_string(), "zstd(9)");
//! assert!("snappy:1".parse::<Compression>().is_err());
//! # Ok::<(), parquet_serde::Error>(())
//! ```

use std::fmt;
use std::str::FromStr;

use super::Compression;
use crate::core::format::CompressionCodec;
use crate::error::Error;

/// The names `FromStr` accepts (after normalisation) and the codec each means, its level
/// left at the default.
const NAMES: [(&str, Compression); 9] = [
    ("uncompressed", Compression::Uncompressed),
    ("none", Compression::Uncompressed),
    ("snappy", Compression::Snappy),
    ("gzip", Compression::GZIP_DEFAULT),
    ("brotli", Compression::BROTLI_DEFAULT),
    ("zstd", Compression::ZSTD_DEFAULT),
    ("lz4_raw", Compression::Lz4Raw),
    ("lz4", Compression::Lz4Raw),
    ("lz4raw", Compression::Lz4Raw),
];

impl fmt::Display for Compression {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Compression::Uncompressed => f.write_str("uncompressed"),
            Compression::Snappy => f.write_str("snappy"),
            Compression::Gzip(level) => write!(f, "gzip({level})"),
            Compression::Brotli(quality) => write!(f, "brotli({quality})"),
            Compression::Zstd(level) => write!(f, "zstd({level})"),
            Compression::Lz4Raw => f.write_str("lz4_raw"),
        }
    }
}

impl FromStr for Compression {
    type Err = Error;

    /// A codec and optional level: `zstd`, `zstd(9)`, `zstd:9`, `gzip:6`, `none`. Fails with
    /// [`ErrorKind::InvalidArgument`](crate::ErrorKind::InvalidArgument) for an unknown
    /// codec, a level on a codec without levels, or a level out of range.
    fn from_str(s: &str) -> Result<Self, Error> {
        let s = s.trim();
        let (name, level) = split_level(s)?;
        let name = name.trim().to_ascii_lowercase().replace('-', "_");
        let codec = NAMES
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, c)| *c)
            .ok_or_else(|| {
                Error::invalid_argument(format!(
                    "unknown compression {s} (expected uncompressed, snappy, gzip[(LEVEL)], \
                     brotli[(LEVEL)], zstd[(LEVEL)] or lz4_raw)"
                ))
            })?;
        let Some(level) = level else {
            return Ok(codec);
        };
        let level: i64 = level.trim().parse().map_err(|_| {
            Error::invalid_argument(format!(
                "compression level {:?} is not an integer",
                level.trim()
            ))
        })?;
        let out_of_range =
            || Error::invalid_argument(format!("{name} level {level} is out of range"));
        let c = match codec {
            Compression::Gzip(_) => {
                Compression::Gzip(u32::try_from(level).map_err(|_| out_of_range())?)
            }
            Compression::Brotli(_) => {
                Compression::Brotli(u32::try_from(level).map_err(|_| out_of_range())?)
            }
            Compression::Zstd(_) => {
                Compression::Zstd(i32::try_from(level).map_err(|_| out_of_range())?)
            }
            Compression::Uncompressed | Compression::Snappy | Compression::Lz4Raw => {
                return Err(Error::invalid_argument(format!("{name} has no levels")))
            }
        };
        c.validate()?;
        Ok(c)
    }
}

/// `name(level)` or `name:level` into the name and the level text; `name` alone has none.
fn split_level(s: &str) -> Result<(&str, Option<&str>), Error> {
    if let Some((name, rest)) = s.split_once('(') {
        let level = rest.strip_suffix(')').ok_or_else(|| {
            Error::invalid_argument(format!("expected `{}(LEVEL)`, got {s}", name.trim()))
        })?;
        return Ok((name, Some(level)));
    }
    Ok(match s.split_once(':') {
        Some((name, level)) => (name, Some(level)),
        None => (s, None),
    })
}

impl fmt::Display for CompressionCodec {
    /// The codec id as parquet.thrift spells it (`SNAPPY`, `LZ4_RAW`), `UNKNOWN(n)` for an
    /// id it does not name.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            CompressionCodec::Uncompressed => "UNCOMPRESSED",
            CompressionCodec::Snappy => "SNAPPY",
            CompressionCodec::Gzip => "GZIP",
            CompressionCodec::Lzo => "LZO",
            CompressionCodec::Brotli => "BROTLI",
            CompressionCodec::Lz4 => "LZ4",
            CompressionCodec::Zstd => "ZSTD",
            CompressionCodec::Lz4Raw => "LZ4_RAW",
            CompressionCodec::Unknown(id) => return write!(f, "UNKNOWN({id})"),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ErrorKind;

    fn all_levels() -> Vec<Compression> {
        let mut all = vec![
            Compression::Uncompressed,
            Compression::Snappy,
            Compression::Lz4Raw,
        ];
        all.extend((0..=9).map(Compression::Gzip));
        all.extend((0..=11).map(Compression::Brotli));
        let zstd = ::zstd::compression_level_range();
        all.extend([*zstd.start(), -1, 0, 1, 3, 19, *zstd.end()].map(Compression::Zstd));
        all
    }

    #[test]
    fn display_round_trips_in_both_level_forms() {
        for c in all_levels() {
            let shown = c.to_string();
            assert_eq!(shown.parse::<Compression>().unwrap(), c, "{shown}");
            let colon = shown.replace('(', ":").replace(')', "");
            assert_eq!(colon.parse::<Compression>().unwrap(), c, "{colon}");
            assert_eq!(
                shown.to_uppercase().parse::<Compression>().unwrap(),
                c,
                "{shown}"
            );
        }
        assert_eq!(Compression::Zstd(-5).to_string(), "zstd(-5)");
        assert_eq!(Compression::Lz4Raw.to_string(), "lz4_raw");
    }

    #[test]
    fn names_defaults_and_aliases() {
        let p = |s: &str| s.parse::<Compression>().unwrap();
        assert_eq!(p("none"), Compression::Uncompressed);
        assert_eq!(p(" Snappy "), Compression::Snappy);
        assert_eq!(p("lz4"), Compression::Lz4Raw);
        assert_eq!(p("LZ4-RAW"), Compression::Lz4Raw);
        assert_eq!(p("lz4raw"), Compression::Lz4Raw);
        assert_eq!(p("gzip"), Compression::Gzip(6));
        assert_eq!(p("brotli"), Compression::Brotli(1));
        assert_eq!(p("zstd"), Compression::Zstd(3));
        assert_eq!(p("zstd( 7 )"), Compression::Zstd(7));
        assert_eq!(p("zstd:-1"), Compression::Zstd(-1));
    }

    #[test]
    fn bad_names_and_levels() {
        for (bad, wanted) in [
            ("zip", "unknown compression zip"),
            ("", "unknown compression"),
            ("snappy:3", "snappy has no levels"),
            ("lz4_raw(1)", "lz4_raw has no levels"),
            ("none:0", "none has no levels"),
            ("gzip:10", "gzip level 10 is out of range"),
            ("gzip(-1)", "gzip level -1 is out of range"),
            ("brotli(12)", "brotli quality 12 is out of range"),
            ("zstd(99)", "zstd level 99 is out of range"),
            ("zstd:99999999999", "zstd level 99999999999 is out of range"),
            ("zstd(x)", "compression level \"x\" is not an integer"),
            ("zstd:", "compression level \"\" is not an integer"),
            ("zstd(3", "expected `zstd(LEVEL)`"),
        ] {
            let e = bad.parse::<Compression>().unwrap_err();
            assert_eq!(e.kind(), ErrorKind::InvalidArgument, "{bad}");
            assert!(e.message().contains(wanted), "{bad}: {e}");
        }
    }

    #[test]
    fn codec_ids_print_as_the_specification_spells_them() {
        for c in all_levels() {
            assert_eq!(
                c.codec().to_string(),
                c.to_string()
                    .split('(')
                    .next()
                    .unwrap()
                    .to_ascii_uppercase(),
            );
        }
        assert_eq!(CompressionCodec::Lz4.to_string(), "LZ4");
        assert_eq!(CompressionCodec::Lzo.to_string(), "LZO");
        assert_eq!(CompressionCodec::Unknown(9).to_string(), "UNKNOWN(9)");
    }
}
