//! Key flags: `--footer-key HEX`, `--column-key PATH:HEX` (repeatable), `--aad-prefix TEXT`
//! to read encrypted files, and `rewrite`'s `--in-*` spellings of the same flags for IN.

use clap::Args;
use parquet_serde::core::encryption::FileDecryptionProperties;
use parquet_serde::Error;

/// An AES key given in hex. Its `Debug` never shows the key bytes.
#[derive(Clone, PartialEq, Eq)]
pub struct Key(pub Vec<u8>);

impl std::fmt::Debug for Key {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Key({} bytes)", self.0.len())
    }
}

/// `PATH:HEX`: the key of the column at dotted `PATH`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ColumnKey {
    /// Dotted column path.
    pub path: String,
    /// The column's key.
    pub key: Key,
}

/// The read-side key flags of `cat`, `schema`, `meta`, `pages` and `check`; `rewrite` takes
/// the same spellings for the keys of OUT.
#[derive(Debug, Clone, Default, Args)]
pub struct KeyArgs {
    /// Footer key of an encrypted file (32, 48 or 64 hex digits)
    #[arg(long, value_name = "HEX", value_parser = parse_key)]
    pub footer_key: Option<Key>,
    /// Key of the column at dotted PATH (repeatable)
    #[arg(long, value_name = "PATH:HEX", value_parser = parse_column_key)]
    pub column_key: Vec<ColumnKey>,
    /// AAD prefix the file was encrypted with, when it does not store it
    #[arg(long, value_name = "TEXT")]
    pub aad_prefix: Option<String>,
}

/// `rewrite`'s keys of IN only: `--in-footer-key`, `--in-column-key`, `--in-aad-prefix`.
#[derive(Debug, Clone, Default, Args)]
pub struct InKeyArgs {
    /// Footer key of IN, when it differs from --footer-key
    #[arg(long, value_name = "HEX", value_parser = parse_key)]
    pub in_footer_key: Option<Key>,
    /// Key of a column of IN, when it differs from --column-key (repeatable)
    #[arg(long, value_name = "PATH:HEX", value_parser = parse_column_key)]
    pub in_column_key: Vec<ColumnKey>,
    /// AAD prefix IN was encrypted with, when it does not store it
    #[arg(long, value_name = "TEXT")]
    pub in_aad_prefix: Option<String>,
}

impl InKeyArgs {
    /// The same keys under the read-side names.
    pub fn keys(&self) -> KeyArgs {
        KeyArgs {
            footer_key: self.in_footer_key.clone(),
            column_key: self.in_column_key.clone(),
            aad_prefix: self.in_aad_prefix.clone(),
        }
    }
}

impl KeyArgs {
    /// Whether any key flag was given.
    pub fn is_empty(&self) -> bool {
        self.footer_key.is_none() && self.column_key.is_empty() && self.aad_prefix.is_none()
    }

    /// The decryption properties these flags give (`None` without any flag).
    pub fn decryption(&self) -> Result<Option<FileDecryptionProperties>, Error> {
        if self.is_empty() {
            return Ok(None);
        }
        let mut b = FileDecryptionProperties::builder();
        if let Some(k) = &self.footer_key {
            b = b.footer_key(k.0.clone());
        }
        for c in &self.column_key {
            b = b.column_key(&c.path, c.key.0.clone());
        }
        if let Some(p) = &self.aad_prefix {
            b = b.aad_prefix(p.as_bytes().to_vec());
        }
        b.build().map(Some)
    }
}

/// An AES key from 32, 48 or 64 hex digits.
pub fn parse_key(hex: &str) -> Result<Key, String> {
    let digits = hex.as_bytes();
    if !matches!(digits.len(), 32 | 48 | 64) {
        return Err(format!(
            "a key is 32, 48 or 64 hex digits (128, 192 or 256 bits), got {} characters",
            digits.len()
        ));
    }
    let nibble = |c: u8| -> Result<u8, String> {
        (c as char)
            .to_digit(16)
            .map(|d| d as u8)
            .ok_or_else(|| format!("{:?} is not a hex digit", c as char))
    };
    digits
        .chunks(2)
        .map(|p| Ok(nibble(p[0])? << 4 | nibble(p[1])?))
        .collect::<Result<Vec<u8>, String>>()
        .map(Key)
}

/// `PATH:HEX` (the path may hold `:`; the key is after the last one).
pub fn parse_column_key(s: &str) -> Result<ColumnKey, String> {
    let (path, hex) = s
        .rsplit_once(':')
        .filter(|(p, _)| !p.is_empty())
        .ok_or_else(|| format!("expected PATH:HEX, got {s:?}"))?;
    let key = parse_key(hex).map_err(|e| format!("column {path}: {e}"))?;
    Ok(ColumnKey {
        path: path.to_string(),
        key,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Keys {
        #[command(flatten)]
        keys: KeyArgs,
    }

    #[test]
    fn hex_keys() {
        assert_eq!(
            parse_key("30313233343536373839303132333435").unwrap().0,
            b"0123456789012345"
        );
        assert_eq!(parse_key(&"aB".repeat(24)).unwrap().0, vec![0xab; 24]);
        assert_eq!(parse_key(&"00".repeat(32)).unwrap().0.len(), 32);
        assert!(parse_key("3031").is_err());
        assert!(parse_key(&"0g".repeat(16)).is_err());
        assert!(parse_key(&"é".repeat(16)).is_err());
        assert_eq!(
            format!("{:?}", parse_key(&"aB".repeat(16))),
            "Ok(Key(16 bytes))"
        );
    }

    #[test]
    fn flags() {
        let k = Keys::try_parse_from([
            "t",
            "--footer-key",
            &"22".repeat(16),
            "--column-key",
            &format!("a.b:{}", "11".repeat(16)),
            "--aad-prefix",
            "tester",
        ])
        .unwrap()
        .keys;
        assert_eq!(k.footer_key, Some(Key(vec![0x22; 16])));
        assert_eq!(
            k.column_key,
            vec![ColumnKey {
                path: "a.b".to_string(),
                key: Key(vec![0x11; 16])
            }]
        );
        assert_eq!(k.aad_prefix.as_deref(), Some("tester"));
        assert!(k.decryption().unwrap().is_some());
        assert!(KeyArgs::default().decryption().unwrap().is_none());
        let err = Keys::try_parse_from(["t", "--column-key", "nocolon"])
            .err()
            .unwrap()
            .to_string();
        assert!(
            err.contains("--column-key") && err.contains("PATH:HEX"),
            "{err}"
        );
        let err = Keys::try_parse_from(["t", "--aad-prefix"]).err().unwrap();
        assert_eq!(err.kind(), clap::error::ErrorKind::InvalidValue);
    }
}
