//! The specification's names of encodings (`DELTA_BINARY_PACKED`): the one table behind
//! [`Encoding`]'s `Display` and `FromStr`, for options, messages and the command line.
//!
//! `Display` prints the name as parquet.thrift spells it (`ALP` for the ALP encoding, which
//! the enum keeps as `Unknown(10)`, and `GROUP_VAR_INT` for `Unknown(1)`; `UNKNOWN(n)` for a value the specification does not name).
//! `FromStr` takes any case, `-` for `_` and surrounding spaces, and `DICTIONARY` for
//! `RLE_DICTIONARY`. The `#[parquet(encoding = "...")]` attribute of the derive recognises the
//! same names (it refuses the ones that are not value encodings at compile time).
//!
//! ```
//! use parquet_serde::core::column::Encoding;
//! assert_eq!(Encoding::ByteStreamSplit.to_string(), "BYTE_STREAM_SPLIT");
//! assert_eq!("delta-binary-packed".parse::<Encoding>()?, Encoding::DeltaBinaryPacked);
//! assert_eq!("alp".parse::<Encoding>()?.to_string(), "ALP");
//! assert_eq!("group_var_int".parse::<Encoding>()?, Encoding::Unknown(1));
//! assert_eq!(Encoding::Unknown(1).to_string(), "GROUP_VAR_INT");
//! assert!("zip".parse::<Encoding>().is_err());
//! # Ok::<(), parquet_serde::Error>(())
//! ```

use std::fmt;
use std::str::FromStr;

use crate::core::format::Encoding;
use crate::error::Error;

use super::{alp, group_var_int};

/// Every encoding the specification names, with its name.
const NAMES: [(Encoding, &str); 11] = [
    (Encoding::Plain, "PLAIN"),
    (Encoding::PlainDictionary, "PLAIN_DICTIONARY"),
    (Encoding::Rle, "RLE"),
    (Encoding::BitPacked, "BIT_PACKED"),
    (Encoding::DeltaBinaryPacked, "DELTA_BINARY_PACKED"),
    (Encoding::DeltaLengthByteArray, "DELTA_LENGTH_BYTE_ARRAY"),
    (Encoding::DeltaByteArray, "DELTA_BYTE_ARRAY"),
    (Encoding::RleDictionary, "RLE_DICTIONARY"),
    (Encoding::ByteStreamSplit, "BYTE_STREAM_SPLIT"),
    (alp::ALP, "ALP"),
    (group_var_int::GROUP_VAR_INT, "GROUP_VAR_INT"),
];

/// Other spellings `FromStr` accepts, after normalisation.
const ALIASES: [(&str, Encoding); 1] = [("DICTIONARY", Encoding::RleDictionary)];

impl fmt::Display for Encoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match NAMES.iter().find(|(e, _)| e == self) {
            Some((_, name)) => f.write_str(name),
            None => write!(f, "UNKNOWN({})", self.to_i32()),
        }
    }
}

impl FromStr for Encoding {
    type Err = Error;

    /// The encoding named `s` (any case; `-` for `_`; `DICTIONARY` for `RLE_DICTIONARY`).
    /// Fails with [`ErrorKind::InvalidArgument`](crate::ErrorKind::InvalidArgument) for
    /// another name.
    fn from_str(s: &str) -> Result<Self, Error> {
        let n = s.trim().to_ascii_uppercase().replace('-', "_");
        NAMES
            .iter()
            .find(|(_, name)| *name == n)
            .map(|(e, _)| *e)
            .or_else(|| ALIASES.iter().find(|(a, _)| *a == n).map(|(_, e)| *e))
            .ok_or_else(|| {
                let names: Vec<&str> = NAMES.iter().map(|(_, n)| *n).collect();
                Error::invalid_argument(format!(
                    "unknown encoding {s} (expected one of {})",
                    names.join(", ")
                ))
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for v in 0..=10 {
            let e = Encoding::from_i32(v);
            if v == 1 {
                // Commented out in parquet.thrift; named here as the seed documents name it.
                assert_eq!(e.to_string(), "GROUP_VAR_INT");
            }
            assert_eq!(e.to_string().parse::<Encoding>().unwrap(), e, "{v}");
            assert_eq!(e.to_string().parse::<Encoding>().ok(), Some(e), "{v}");
            // Lower case and dashes parse too.
            let loose = e.to_string().to_lowercase().replace('_', "-");
            assert_eq!(loose.parse::<Encoding>().unwrap(), e, "{loose}");
        }
        assert_eq!(Encoding::Unknown(11).to_string(), "UNKNOWN(11)");
        assert_eq!(
            " Delta-Byte-Array ".parse::<Encoding>().unwrap(),
            Encoding::DeltaByteArray
        );
        assert_eq!(
            "dictionary".parse::<Encoding>().unwrap(),
            Encoding::RleDictionary
        );
    }

    #[test]
    fn unknown_names_are_invalid_arguments() {
        for bad in ["zip", "", "UNKNOWN(1)", "plain dictionary", "PLAIN_"] {
            let e = bad.parse::<Encoding>().unwrap_err();
            assert_eq!(e.kind(), crate::ErrorKind::InvalidArgument, "{bad}");
            assert!(
                e.message().contains(&format!("unknown encoding {bad}")),
                "{e}"
            );
        }
    }
}
