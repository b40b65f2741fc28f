//! Key flags shared by the commands that read (and write) encrypted files:
//! `--footer-key HEX`, `--column-key PATH:HEX` (repeatable), `--aad-prefix TEXT`.

use parquet_serde::core::encryption::FileDecryptionProperties;
use parquet_serde::Error;

/// Help lines of the key flags.
pub const HELP: &str =
    "  --footer-key HEX        footer key of an encrypted file (32, 48 or 64 hex digits)
  --column-key PATH:HEX   key of the column at dotted PATH (repeatable)
  --aad-prefix TEXT       AAD prefix the file was encrypted with, when it does not store it";

/// Keys and AAD prefix given on the command line.
#[derive(Default)]
pub struct KeyFlags {
    /// `--footer-key`.
    pub footer_key: Option<Vec<u8>>,
    /// `--column-key`, in the order given.
    pub column_keys: Vec<(String, Vec<u8>)>,
    /// `--aad-prefix`.
    pub aad_prefix: Option<Vec<u8>>,
}

impl std::fmt::Debug for KeyFlags {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never print key bytes.
        f.debug_struct("KeyFlags")
            .field("footer_key", &self.footer_key.is_some())
            .field(
                "column_keys",
                &self.column_keys.iter().map(|(p, _)| p).collect::<Vec<_>>(),
            )
            .field("aad_prefix", &self.aad_prefix)
            .finish()
    }
}

impl KeyFlags {
    /// Takes `flag` if it is a key flag, reading its value with `value`: `Ok(true)` when
    /// taken, `Ok(false)` for other flags.
    pub fn take(
        &mut self,
        flag: &str,
        value: &mut dyn FnMut() -> Option<String>,
    ) -> Result<bool, String> {
        let mut need = || value().ok_or_else(|| format!("{flag} needs a value"));
        match flag {
            "--footer-key" => {
                let key = parse_hex_key(&need()?).map_err(|e| format!("{flag}: {e}"))?;
                self.footer_key = Some(key);
            }
            "--column-key" => {
                let v = need()?;
                let (path, hex) = v
                    .rsplit_once(':')
                    .filter(|(p, _)| !p.is_empty())
                    .ok_or_else(|| format!("{flag}: expected PATH:HEX, got {v:?}"))?;
                let key = parse_hex_key(hex).map_err(|e| format!("{flag} {path}: {e}"))?;
                self.column_keys.push((path.to_string(), key));
            }
            "--aad-prefix" => self.aad_prefix = Some(need()?.into_bytes()),
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// Whether any key flag was given.
    pub fn is_empty(&self) -> bool {
        self.footer_key.is_none() && self.column_keys.is_empty() && self.aad_prefix.is_none()
    }

    /// The decryption properties these flags give (`None` without any flag).
    pub fn decryption(&self) -> Result<Option<FileDecryptionProperties>, Error> {
        if self.is_empty() {
            return Ok(None);
        }
        let mut b = FileDecryptionProperties::builder();
        if let Some(k) = &self.footer_key {
            b = b.footer_key(k.clone());
        }
        for (path, key) in &self.column_keys {
            b = b.column_key(path, key.clone());
        }
        if let Some(p) = &self.aad_prefix {
            b = b.aad_prefix(p.clone());
        }
        b.build().map(Some)
    }
}

/// An AES key from 32, 48 or 64 hex digits.
pub fn parse_hex_key(hex: &str) -> Result<Vec<u8>, String> {
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
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_keys() {
        assert_eq!(
            parse_hex_key("30313233343536373839303132333435").unwrap(),
            b"0123456789012345"
        );
        assert_eq!(parse_hex_key(&"aB".repeat(24)).unwrap(), vec![0xab; 24]);
        assert_eq!(parse_hex_key(&"00".repeat(32)).unwrap().len(), 32);
        assert!(parse_hex_key("3031").is_err());
        assert!(parse_hex_key(&"0g".repeat(16)).is_err());
        assert!(parse_hex_key(&"é".repeat(16)).is_err());
    }

    #[test]
    fn flags() {
        let mut k = KeyFlags::default();
        let mut values = vec![
            "tester".to_string(),
            format!("a.b:{}", "11".repeat(16)),
            "22".repeat(16),
        ];
        let mut next = || values.pop();
        assert!(k.take("--footer-key", &mut next).unwrap());
        assert!(k.take("--column-key", &mut next).unwrap());
        assert!(k.take("--aad-prefix", &mut next).unwrap());
        assert!(!k.take("--limit", &mut next).unwrap());
        assert!(k.take("--aad-prefix", &mut next).is_err());
        assert_eq!(k.footer_key, Some(vec![0x22; 16]));
        assert_eq!(k.column_keys, vec![("a.b".to_string(), vec![0x11; 16])]);
        assert_eq!(k.aad_prefix.as_deref(), Some(&b"tester"[..]));
        assert!(k.decryption().unwrap().is_some());
        assert!(KeyFlags::default().decryption().unwrap().is_none());
        let mut bad = || Some("nocolon".to_string());
        assert!(k.take("--column-key", &mut bad).is_err());
    }
}
