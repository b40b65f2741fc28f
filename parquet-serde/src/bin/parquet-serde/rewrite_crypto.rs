//! Encryption options of `rewrite`: keys to read an encrypted IN and to encrypt OUT.
//!
//! ```text
//! --footer-key HEX               footer key of OUT (and of IN, unless --in-footer-key)
//! --column-key PATH:HEX          a column key of OUT (and of IN, unless --in-column-key); repeatable
//! --aad-prefix TEXT              AAD prefix of OUT
//! --algorithm gcm|gcm-ctr        AES_GCM_V1 (default) or AES_GCM_CTR_V1
//! --plaintext-footer             signed plaintext footer (PAR1) instead of an encrypted one
//! --no-store-aad-prefix          leave the AAD prefix out of OUT (readers must supply it)
//! --footer-key-metadata TEXT     key metadata stored for the footer key
//! --column-key-metadata PATH:TEXT  key metadata stored for a column key; repeatable
//! --in-footer-key HEX, --in-column-key PATH:HEX, --in-aad-prefix TEXT   keys of IN only
//! --decrypt                      write OUT without encryption (the keys only read IN)
//! ```
//! With a footer key and without `--decrypt`, OUT is encrypted: every column with the footer
//! key when no `--column-key` is given, else the listed columns with their keys and the others
//! in plaintext.

use parquet_serde::core::encryption::{Algorithm, FileDecryptionProperties, FileEncryptionProperties};
use parquet_serde::core::schema::Schema;
use parquet_serde::Error;

use crate::keys::KeyFlags;

/// Names of the encryption options (without `--`) and whether each takes a value.
pub const FLAGS: &[(&str, bool)] = &[
    ("footer-key", true),
    ("column-key", true),
    ("aad-prefix", true),
    ("algorithm", true),
    ("plaintext-footer", false),
    ("no-store-aad-prefix", false),
    ("footer-key-metadata", true),
    ("column-key-metadata", true),
    ("in-footer-key", true),
    ("in-column-key", true),
    ("in-aad-prefix", true),
    ("decrypt", false),
];

/// Usage lines of the encryption options.
pub const USAGE: &str = "          [--footer-key HEX] [--column-key PATH:HEX]... [--aad-prefix TEXT]   encrypt OUT (keys also read IN)
          [--algorithm gcm|gcm-ctr] [--plaintext-footer] [--no-store-aad-prefix]
          [--footer-key-metadata TEXT] [--column-key-metadata PATH:TEXT]...
          [--in-footer-key HEX] [--in-column-key PATH:HEX]... [--in-aad-prefix TEXT]   keys of IN only
          [--decrypt]                                  write OUT in plaintext";

/// The encryption options given to `rewrite`.
#[derive(Debug, Default)]
pub struct CryptoFlags {
    out: KeyFlags,
    input: KeyFlags,
    algorithm: Algorithm,
    plaintext_footer: bool,
    no_store_aad_prefix: bool,
    footer_key_metadata: Option<Vec<u8>>,
    column_key_metadata: Vec<(String, Vec<u8>)>,
    decrypt: bool,
    /// Whether an option that only makes sense for an encrypted OUT was given.
    write_only: bool,
}

impl CryptoFlags {
    /// Takes option `name` (without `--`) if it is an encryption option: `Ok(true)` when taken.
    pub fn take(&mut self, name: &str, value: Option<&str>) -> Result<bool, String> {
        let mut value_once = value.map(str::to_string);
        let mut next = || value_once.take();
        let need = || value.ok_or_else(|| format!("--{name} needs a value"));
        match name {
            "footer-key" | "column-key" => {
                self.out.take(&format!("--{name}"), &mut next)?;
            }
            "aad-prefix" => {
                self.out.take("--aad-prefix", &mut next)?;
                self.write_only = true;
            }
            "in-footer-key" | "in-column-key" | "in-aad-prefix" => {
                self.input.take(&format!("--{}", &name[3..]), &mut next)?;
            }
            "algorithm" => {
                self.algorithm = match need()? {
                    "gcm" | "aes-gcm" | "AES_GCM_V1" => Algorithm::AesGcmV1,
                    "gcm-ctr" | "aes-gcm-ctr" | "AES_GCM_CTR_V1" => Algorithm::AesGcmCtrV1,
                    other => return Err(format!("--algorithm {other}: gcm or gcm-ctr")),
                };
                self.write_only = true;
            }
            "plaintext-footer" => {
                self.plaintext_footer = true;
                self.write_only = true;
            }
            "no-store-aad-prefix" => {
                self.no_store_aad_prefix = true;
                self.write_only = true;
            }
            "footer-key-metadata" => {
                self.footer_key_metadata = Some(need()?.as_bytes().to_vec());
                self.write_only = true;
            }
            "column-key-metadata" => {
                let v = need()?;
                let (path, text) = v
                    .split_once(':')
                    .filter(|(p, _)| !p.is_empty())
                    .ok_or_else(|| {
                        format!("--column-key-metadata: expected PATH:TEXT, got {v:?}")
                    })?;
                self.column_key_metadata
                    .push((path.to_string(), text.as_bytes().to_vec()));
                self.write_only = true;
            }
            "decrypt" => self.decrypt = true,
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// Keys to read IN: each `--in-*` key, else the OUT key of the same part (OUT's AAD
    /// prefix is never used for IN). `None` without any key.
    pub fn decryption(&self) -> Result<Option<FileDecryptionProperties>, Error> {
        let mut column_keys = self.input.column_keys.clone();
        for (path, key) in &self.out.column_keys {
            if !column_keys.iter().any(|(p, _)| p == path) {
                column_keys.push((path.clone(), key.clone()));
            }
        }
        let keys = KeyFlags {
            footer_key: self
                .input
                .footer_key
                .clone()
                .or_else(|| self.out.footer_key.clone()),
            column_keys,
            aad_prefix: self.input.aad_prefix.clone(),
        };
        keys.decryption()
    }

    /// How to encrypt OUT: `None` for a plaintext OUT.
    pub fn encryption(&self, schema: &Schema) -> Result<Option<FileEncryptionProperties>, Error> {
        let bad = |m: String| Error::invalid_argument(m);
        if self.decrypt {
            if self.write_only {
                return Err(bad(
                    "--decrypt writes OUT in plaintext: it takes no OUT encryption options".into(),
                ));
            }
            return Ok(None);
        }
        let Some(footer_key) = self.out.footer_key.clone() else {
            if self.write_only || !self.out.column_keys.is_empty() {
                return Err(bad("encrypting OUT needs --footer-key".into()));
            }
            return Ok(None);
        };
        let mut b = FileEncryptionProperties::builder(footer_key)
            .algorithm(self.algorithm)
            .plaintext_footer(self.plaintext_footer)
            .store_aad_prefix(!self.no_store_aad_prefix);
        if let Some(m) = &self.footer_key_metadata {
            b = b.footer_key_metadata(m.clone());
        }
        if let Some(p) = &self.out.aad_prefix {
            b = b.aad_prefix(p.clone());
        }
        for (path, key) in &self.out.column_keys {
            if schema.column_index(path.as_str()).is_none() {
                return Err(bad(format!("--column-key: no column {path}")));
            }
            let metadata = self
                .column_key_metadata
                .iter()
                .rev()
                .find(|(p, _)| p == path)
                .map(|(_, m)| m.clone());
            b = b.column_key(path, key.clone(), metadata);
        }
        for (path, _) in &self.column_key_metadata {
            if !self.out.column_keys.iter().any(|(p, _)| p == path) {
                return Err(bad(format!(
                    "--column-key-metadata {path}: the column has no --column-key"
                )));
            }
        }
        b.build().map(Some)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flags(args: &[(&str, Option<&str>)]) -> Result<CryptoFlags, String> {
        let mut f = CryptoFlags::default();
        for (name, value) in args {
            assert!(f.take(name, *value)?, "{name}");
        }
        Ok(f)
    }

    fn schema() -> Schema {
        "message m { required int32 a; optional binary b (STRING); }"
            .parse()
            .unwrap()
    }

    #[test]
    fn plaintext_without_keys() {
        let f = flags(&[]).unwrap();
        assert!(f.encryption(&schema()).unwrap().is_none());
        assert!(f.decryption().unwrap().is_none());
        assert!(!CryptoFlags::default()
            .take("compression", Some("zstd"))
            .unwrap());
    }

    #[test]
    fn column_keys_metadata_and_options() {
        let k = "30313233343536373839303132333435";
        let ka = format!("a:{}", "11".repeat(16));
        let f = flags(&[
            ("footer-key", Some(k)),
            ("column-key", Some(&ka)),
            ("column-key-metadata", Some("a:kc1")),
            ("footer-key-metadata", Some("kf")),
            ("algorithm", Some("gcm-ctr")),
            ("plaintext-footer", None),
            ("aad-prefix", Some("t")),
            ("no-store-aad-prefix", None),
        ])
        .unwrap();
        let p = f.encryption(&schema()).unwrap().unwrap();
        assert_eq!(p.algorithm(), Algorithm::AesGcmCtrV1);
        assert!(!p.encrypted_footer());
        assert!(!p.store_aad_prefix());
        assert_eq!(p.aad_prefix(), Some(&b"t"[..]));
        assert_eq!(p.footer_key_metadata(), Some(&b"kf"[..]));
        match p.column("a") {
            parquet_serde::core::encryption::ColumnEncryption::ColumnKey { key_metadata, .. } => {
                assert_eq!(key_metadata.as_deref(), Some(&b"kc1"[..]))
            }
            other => panic!("{other:?}"),
        }
        // IN is read with the same keys but not OUT's AAD prefix.
        let d = f.decryption().unwrap().unwrap();
        assert!(d.aad_prefix().is_none());
    }

    #[test]
    fn mistakes_are_errors() {
        let k = "30313233343536373839303132333435";
        assert!(flags(&[("algorithm", Some("cbc"))]).is_err());
        let no_key = flags(&[("plaintext-footer", None)]).unwrap();
        assert!(no_key.encryption(&schema()).is_err());
        let unknown = flags(&[
            ("footer-key", Some(k)),
            ("column-key", Some(&format!("z:{k}"))),
        ])
        .unwrap();
        assert!(unknown.encryption(&schema()).is_err());
        let orphan = flags(&[
            ("footer-key", Some(k)),
            ("column-key-metadata", Some("a:x")),
        ])
        .unwrap();
        assert!(orphan.encryption(&schema()).is_err());
        let both = flags(&[("decrypt", None), ("algorithm", Some("gcm"))]).unwrap();
        assert!(both.encryption(&schema()).is_err());
        let decrypt = flags(&[("footer-key", Some(k)), ("decrypt", None)]).unwrap();
        assert!(decrypt.encryption(&schema()).unwrap().is_none());
        assert!(decrypt.decryption().unwrap().is_some());
    }
}
