//! Encryption options of `rewrite`: keys to read an encrypted IN and to encrypt OUT.
//!
//! With a footer key and without `--decrypt`, OUT is encrypted: every column with the footer
//! key when no `--column-key` is given, else the listed columns with their keys and the others
//! in plaintext.

use clap::{Args, ValueEnum};
use parquet_serde::core::encryption::{
    Algorithm, FileDecryptionProperties, FileEncryptionProperties,
};
use parquet_serde::core::schema::Schema;
use parquet_serde::Error;

use crate::keys::{ColumnKey, InKeyArgs, KeyArgs};

/// Every encryption option of `rewrite`: OUT's keys (which also read IN), IN's own keys, and
/// how OUT is encrypted.
#[derive(Debug, Clone, Default, Args)]
pub struct CryptoArgs {
    /// Keys of OUT, and of IN unless the `--in-*` keys are given.
    #[command(flatten)]
    pub out: KeyArgs,
    /// Keys of IN only.
    #[command(flatten)]
    pub input: InKeyArgs,
    /// How OUT is encrypted.
    #[command(flatten)]
    pub settings: EncryptArgs,
}

/// How OUT is encrypted, beyond its keys.
#[derive(Debug, Clone, Default, Args)]
pub struct EncryptArgs {
    /// Encryption algorithm of OUT [default: gcm]
    #[arg(long, value_name = "gcm|gcm-ctr")]
    pub algorithm: Option<AlgorithmArg>,
    /// Signed plaintext footer (PAR1) instead of an encrypted one
    #[arg(long)]
    pub plaintext_footer: bool,
    /// Leave the AAD prefix out of OUT (readers must supply it)
    #[arg(long)]
    pub no_store_aad_prefix: bool,
    /// Key metadata stored for the footer key
    #[arg(long, value_name = "TEXT")]
    pub footer_key_metadata: Option<String>,
    /// Key metadata stored for a column key (repeatable)
    #[arg(long, value_name = "PATH:TEXT", value_parser = parse_key_metadata)]
    pub column_key_metadata: Vec<KeyMetadata>,
    /// Write OUT without encryption (the keys only read IN)
    #[arg(long)]
    pub decrypt: bool,
}

/// `--algorithm`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum AlgorithmArg {
    /// AES_GCM_V1: every module under AES-GCM
    #[value(name = "gcm", alias = "aes-gcm", alias = "AES_GCM_V1")]
    Gcm,
    /// AES_GCM_CTR_V1: page bodies under AES-CTR, other modules under AES-GCM
    #[value(name = "gcm-ctr", alias = "aes-gcm-ctr", alias = "AES_GCM_CTR_V1")]
    GcmCtr,
}

/// `--column-key-metadata PATH:TEXT`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyMetadata {
    /// Dotted column path.
    pub path: String,
    /// The metadata stored with the column's key.
    pub metadata: Vec<u8>,
}

fn parse_key_metadata(s: &str) -> Result<KeyMetadata, String> {
    let (path, text) = s
        .split_once(':')
        .filter(|(p, _)| !p.is_empty())
        .ok_or_else(|| format!("expected PATH:TEXT, got {s:?}"))?;
    Ok(KeyMetadata {
        path: path.to_string(),
        metadata: text.as_bytes().to_vec(),
    })
}

impl EncryptArgs {
    /// Whether an option that only makes sense for an encrypted OUT was given.
    fn any(&self) -> bool {
        self.algorithm.is_some()
            || self.plaintext_footer
            || self.no_store_aad_prefix
            || self.footer_key_metadata.is_some()
            || !self.column_key_metadata.is_empty()
    }
}

impl CryptoArgs {
    /// Keys to read IN: each `--in-*` key, else the OUT key of the same part (OUT's AAD
    /// prefix is never used for IN). `None` without any key.
    pub fn decryption(&self) -> Result<Option<FileDecryptionProperties>, Error> {
        let input = self.input.keys();
        let mut column_key: Vec<ColumnKey> = input.column_key;
        for c in &self.out.column_key {
            if !column_key.iter().any(|k| k.path == c.path) {
                column_key.push(c.clone());
            }
        }
        KeyArgs {
            footer_key: input.footer_key.or_else(|| self.out.footer_key.clone()),
            column_key,
            aad_prefix: input.aad_prefix,
        }
        .decryption()
    }

    /// How to encrypt OUT: `None` for a plaintext OUT.
    pub fn encryption(&self, schema: &Schema) -> Result<Option<FileEncryptionProperties>, Error> {
        let bad = |m: String| Error::invalid_argument(m);
        let s = &self.settings;
        let write_only = s.any() || self.out.aad_prefix.is_some();
        if s.decrypt {
            if write_only {
                return Err(bad(
                    "--decrypt writes OUT in plaintext: it takes no OUT encryption options".into(),
                ));
            }
            return Ok(None);
        }
        let Some(footer_key) = self.out.footer_key.clone() else {
            if write_only || !self.out.column_key.is_empty() {
                return Err(bad("encrypting OUT needs --footer-key".into()));
            }
            return Ok(None);
        };
        let algorithm = match s.algorithm {
            None | Some(AlgorithmArg::Gcm) => Algorithm::AesGcmV1,
            Some(AlgorithmArg::GcmCtr) => Algorithm::AesGcmCtrV1,
        };
        let mut b = FileEncryptionProperties::builder(footer_key.0)
            .algorithm(algorithm)
            .plaintext_footer(s.plaintext_footer)
            .store_aad_prefix(!s.no_store_aad_prefix);
        if let Some(m) = &s.footer_key_metadata {
            b = b.footer_key_metadata(m.as_bytes().to_vec());
        }
        if let Some(p) = &self.out.aad_prefix {
            b = b.aad_prefix(p.as_bytes().to_vec());
        }
        for c in &self.out.column_key {
            if schema.column_index(c.path.as_str()).is_none() {
                return Err(bad(format!("--column-key: no column {}", c.path)));
            }
            let metadata = s
                .column_key_metadata
                .iter()
                .rev()
                .find(|m| m.path == c.path)
                .map(|m| m.metadata.clone());
            b = b.column_key(&c.path, c.key.0.clone(), metadata);
        }
        for m in &s.column_key_metadata {
            if !self.out.column_key.iter().any(|c| c.path == m.path) {
                return Err(bad(format!(
                    "--column-key-metadata {}: the column has no --column-key",
                    m.path
                )));
            }
        }
        b.build().map(Some)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Crypto {
        #[command(flatten)]
        crypto: CryptoArgs,
    }

    fn flags(args: &[&str]) -> Result<CryptoArgs, clap::Error> {
        Crypto::try_parse_from(std::iter::once("t").chain(args.iter().copied())).map(|c| c.crypto)
    }

    fn schema() -> Schema {
        "message m { required int32 a; optional binary b (STRING); }"
            .parse()
            .unwrap()
    }

    const K: &str = "30313233343536373839303132333435";

    #[test]
    fn plaintext_without_keys() {
        let f = flags(&[]).unwrap();
        assert!(f.encryption(&schema()).unwrap().is_none());
        assert!(f.decryption().unwrap().is_none());
    }

    #[test]
    fn column_keys_metadata_and_options() {
        let ka = format!("a:{}", "11".repeat(16));
        let f = flags(&[
            "--footer-key",
            K,
            "--column-key",
            &ka,
            "--column-key-metadata",
            "a:kc1",
            "--footer-key-metadata",
            "kf",
            "--algorithm",
            "gcm-ctr",
            "--plaintext-footer",
            "--aad-prefix",
            "t",
            "--no-store-aad-prefix",
        ])
        .unwrap();
        let p = f.encryption(&schema()).unwrap().unwrap();
        assert_eq!(p.algorithm(), Algorithm::AesGcmCtrV1);
        assert!(!p.encrypted_footer());
        assert!(!p.store_aad_prefix());
        assert_eq!(p.aad_prefix(), Some(&b"t"[..]));
        assert_eq!(p.footer_key_metadata(), Some(&b"kf"[..]));
        match p.column("a") {
            parquet_serde::core::encryption::ColumnEncryption::ColumnKey {
                key_metadata, ..
            } => {
                assert_eq!(key_metadata.as_deref(), Some(&b"kc1"[..]))
            }
            other => panic!("{other:?}"),
        }
        // IN is read with the same keys but not OUT's AAD prefix.
        let d = f.decryption().unwrap().unwrap();
        assert!(d.aad_prefix().is_none());
        // The algorithm's long spellings.
        let f = flags(&["--footer-key", K, "--algorithm", "AES_GCM_V1"]).unwrap();
        let p = f.encryption(&schema()).unwrap().unwrap();
        assert_eq!(p.algorithm(), Algorithm::AesGcmV1);
    }

    #[test]
    fn mistakes_are_errors() {
        let err = flags(&["--algorithm", "cbc"]).err().unwrap().to_string();
        assert!(err.contains("--algorithm"), "{err}");
        let err = flags(&["--column-key-metadata", "nocolon"])
            .err()
            .unwrap()
            .to_string();
        assert!(err.contains("PATH:TEXT"), "{err}");
        let no_key = flags(&["--plaintext-footer"]).unwrap();
        assert!(no_key.encryption(&schema()).is_err());
        let unknown = flags(&["--footer-key", K, "--column-key", &format!("z:{K}")]).unwrap();
        assert!(unknown.encryption(&schema()).is_err());
        let orphan = flags(&["--footer-key", K, "--column-key-metadata", "a:x"]).unwrap();
        assert!(orphan.encryption(&schema()).is_err());
        let both = flags(&["--decrypt", "--algorithm", "gcm"]).unwrap();
        assert!(both.encryption(&schema()).is_err());
        let decrypt = flags(&["--footer-key", K, "--decrypt"]).unwrap();
        assert!(decrypt.encryption(&schema()).unwrap().is_none());
        assert!(decrypt.decryption().unwrap().is_some());
    }
}
