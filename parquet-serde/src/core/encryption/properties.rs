//! What a writer encrypts with which key ([`FileEncryptionProperties`]) and how a reader finds
//! the keys it needs ([`FileDecryptionProperties`], [`KeyRetriever`]).

use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

use crate::error::{Error, ErrorKind, Result};

/// The encryption algorithm of a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum Algorithm {
    /// `AES_GCM_V1`: every module, pages included, under AES-GCM (authenticated).
    #[default]
    AesGcmV1,
    /// `AES_GCM_CTR_V1`: data and dictionary page bodies under AES-CTR (not authenticated,
    /// faster), every other module under AES-GCM.
    AesGcmCtrV1,
}

impl Algorithm {
    /// Whether page bodies (data and dictionary pages) use AES-CTR.
    pub fn pages_use_ctr(self) -> bool {
        self == Algorithm::AesGcmCtrV1
    }
}

/// How one column is encrypted.
#[derive(Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ColumnEncryption {
    /// Not encrypted (only in files that list column keys).
    Plaintext,
    /// Encrypted with the footer key; its metadata stays in the (encrypted) footer.
    FooterKey,
    /// Encrypted with its own key; its `ColumnMetaData` is encrypted with that key too.
    ColumnKey {
        /// The AES key (16, 24 or 32 bytes).
        key: Vec<u8>,
        /// Stored in the file for readers' key retrievers.
        key_metadata: Option<Vec<u8>>,
    },
}

impl fmt::Debug for ColumnEncryption {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ColumnEncryption::Plaintext => f.write_str("Plaintext"),
            ColumnEncryption::FooterKey => f.write_str("FooterKey"),
            ColumnEncryption::ColumnKey { key, key_metadata } => f
                .debug_struct("ColumnKey")
                .field("key", &format_args!("<{} bits>", key.len() * 8))
                .field("key_metadata", key_metadata)
                .finish(),
        }
    }
}

/// Encryption settings of a file being written.
///
/// With no column listed, every column is encrypted with the footer key ("uniform
/// encryption"). Once any column is listed, listed columns are encrypted (with their own key or
/// the footer key) and all others are written in plaintext.
///
/// ```
/// use parquet_serde::core::encryption::{Algorithm, FileEncryptionProperties};
/// let props = FileEncryptionProperties::builder(b"0123456789012345".to_vec())
///     .footer_key_metadata(b"kf".to_vec())
///     .column_key("double_field", b"1234567890123450".to_vec(), Some(b"kc1".to_vec()))
///     .algorithm(Algorithm::AesGcmCtrV1)
///     .aad_prefix(b"tester".to_vec())
///     .build()
///     .unwrap();
/// assert!(props.encrypted_footer());
/// ```
#[derive(Clone)]
pub struct FileEncryptionProperties {
    algorithm: Algorithm,
    footer_key: Vec<u8>,
    footer_key_metadata: Option<Vec<u8>>,
    encrypted_footer: bool,
    columns: BTreeMap<String, ColumnEncryption>,
    aad_prefix: Option<Vec<u8>>,
    store_aad_prefix: bool,
}

impl fmt::Debug for FileEncryptionProperties {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FileEncryptionProperties")
            .field("algorithm", &self.algorithm)
            .field(
                "footer_key",
                &format_args!("<{} bits>", self.footer_key.len() * 8),
            )
            .field("footer_key_metadata", &self.footer_key_metadata)
            .field("encrypted_footer", &self.encrypted_footer)
            .field("columns", &self.columns)
            .field("aad_prefix", &self.aad_prefix)
            .field("store_aad_prefix", &self.store_aad_prefix)
            .finish()
    }
}

impl FileEncryptionProperties {
    /// Starts settings with the footer key (16, 24 or 32 bytes), which encrypts the footer
    /// (or signs it, with [`plaintext_footer`](FileEncryptionPropertiesBuilder::plaintext_footer)).
    pub fn builder(footer_key: Vec<u8>) -> FileEncryptionPropertiesBuilder {
        FileEncryptionPropertiesBuilder {
            props: FileEncryptionProperties {
                algorithm: Algorithm::AesGcmV1,
                footer_key,
                footer_key_metadata: None,
                encrypted_footer: true,
                columns: BTreeMap::new(),
                aad_prefix: None,
                store_aad_prefix: true,
            },
        }
    }

    /// The algorithm.
    pub fn algorithm(&self) -> Algorithm {
        self.algorithm
    }

    /// The footer key.
    pub fn footer_key(&self) -> &[u8] {
        &self.footer_key
    }

    /// Key metadata stored for the footer key.
    pub fn footer_key_metadata(&self) -> Option<&[u8]> {
        self.footer_key_metadata.as_deref()
    }

    /// Whether the footer is encrypted (`PARE` file) rather than signed in plaintext.
    pub fn encrypted_footer(&self) -> bool {
        self.encrypted_footer
    }

    /// Whether no column is listed, so all are encrypted with the footer key.
    pub fn is_uniform(&self) -> bool {
        self.columns.is_empty()
    }

    /// The columns listed explicitly, by dotted path.
    pub fn columns(&self) -> &BTreeMap<String, ColumnEncryption> {
        &self.columns
    }

    /// How the column at dotted `path` (e.g. `int64_field.list.element`) is encrypted.
    pub fn column(&self, path: &str) -> ColumnEncryption {
        if self.columns.is_empty() {
            return ColumnEncryption::FooterKey;
        }
        self.columns
            .get(path)
            .cloned()
            .unwrap_or(ColumnEncryption::Plaintext)
    }

    /// The AAD prefix, if any.
    pub fn aad_prefix(&self) -> Option<&[u8]> {
        self.aad_prefix.as_deref()
    }

    /// Whether the AAD prefix is stored in the file (else readers must supply it).
    pub fn store_aad_prefix(&self) -> bool {
        self.store_aad_prefix
    }
}

/// Builder of [`FileEncryptionProperties`].
#[derive(Debug, Clone)]
pub struct FileEncryptionPropertiesBuilder {
    props: FileEncryptionProperties,
}

impl FileEncryptionPropertiesBuilder {
    /// The algorithm (default `AES_GCM_V1`).
    pub fn algorithm(mut self, algorithm: Algorithm) -> Self {
        self.props.algorithm = algorithm;
        self
    }

    /// Key metadata stored with the footer key, handed to readers' key retrievers.
    pub fn footer_key_metadata(mut self, metadata: Vec<u8>) -> Self {
        self.props.footer_key_metadata = Some(metadata);
        self
    }

    /// Writes the footer in plaintext (`PAR1`), signed with the footer key, so readers without
    /// keys can read the plaintext columns (default: encrypted footer).
    pub fn plaintext_footer(mut self, plaintext: bool) -> Self {
        self.props.encrypted_footer = !plaintext;
        self
    }

    /// Encrypts the column at dotted `path` with its own `key`, storing `key_metadata`.
    pub fn column_key(mut self, path: &str, key: Vec<u8>, key_metadata: Option<Vec<u8>>) -> Self {
        self.props.columns.insert(
            path.to_string(),
            ColumnEncryption::ColumnKey { key, key_metadata },
        );
        self
    }

    /// Encrypts the column at dotted `path` with the footer key.
    pub fn column_with_footer_key(mut self, path: &str) -> Self {
        self.props
            .columns
            .insert(path.to_string(), ColumnEncryption::FooterKey);
        self
    }

    /// An AAD prefix identifying the file (a table and partition name, say): every module is
    /// bound to it, so a file swapped for another fails to decrypt.
    pub fn aad_prefix(mut self, prefix: Vec<u8>) -> Self {
        self.props.aad_prefix = Some(prefix);
        self
    }

    /// Whether to store the AAD prefix in the file (default true). When false, readers must
    /// supply it ([`FileDecryptionPropertiesBuilder::aad_prefix`]).
    pub fn store_aad_prefix(mut self, store: bool) -> Self {
        self.props.store_aad_prefix = store;
        self
    }

    /// Checks the settings: key lengths, and an AAD prefix when it is not to be stored.
    pub fn build(self) -> Result<FileEncryptionProperties> {
        check_key(&self.props.footer_key, "footer key")?;
        for (path, c) in &self.props.columns {
            if path.is_empty() {
                return Err(Error::invalid_argument(
                    "column key for an empty column path",
                ));
            }
            if let ColumnEncryption::ColumnKey { key, .. } = c {
                check_key(key, &format!("key of column {path}"))?;
            }
        }
        if !self.props.store_aad_prefix && self.props.aad_prefix.is_none() {
            return Err(Error::invalid_argument(
                "store_aad_prefix(false) needs an aad_prefix to leave out of the file",
            ));
        }
        Ok(self.props)
    }
}

/// Finds keys from the key metadata stored in a file: a key management system client, a
/// key store, or a table of test keys. Errors it returns reach the reader's caller.
pub trait KeyRetriever: Send + Sync {
    /// The key (16, 24 or 32 bytes) that `key_metadata` names.
    fn retrieve_key(&self, key_metadata: &[u8]) -> Result<Vec<u8>>;
}

impl<F> KeyRetriever for F
where
    F: Fn(&[u8]) -> Result<Vec<u8>> + Send + Sync,
{
    fn retrieve_key(&self, key_metadata: &[u8]) -> Result<Vec<u8>> {
        self(key_metadata)
    }
}

/// Keys and settings for reading encrypted files.
///
/// Keys given explicitly win; otherwise the [`KeyRetriever`] is asked with the key metadata
/// stored in the file. Only the keys of the columns actually read are needed.
///
/// ```
/// use parquet_serde::core::encryption::FileDecryptionProperties;
/// let props = FileDecryptionProperties::builder()
///     .footer_key(b"0123456789012345".to_vec())
///     .column_key("double_field", b"1234567890123450".to_vec())
///     .aad_prefix(b"tester".to_vec())
///     .build()
///     .unwrap();
/// assert!(props.verify_plaintext_footer());
/// ```
#[derive(Clone, Default)]
pub struct FileDecryptionProperties {
    footer_key: Option<Vec<u8>>,
    column_keys: BTreeMap<String, Vec<u8>>,
    key_retriever: Option<Arc<dyn KeyRetriever>>,
    aad_prefix: Option<Vec<u8>>,
    verify_plaintext_footer: bool,
}

impl fmt::Debug for FileDecryptionProperties {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FileDecryptionProperties")
            .field("footer_key", &self.footer_key.as_ref().map(|k| k.len() * 8))
            .field("column_keys", &self.column_keys.keys().collect::<Vec<_>>())
            .field("key_retriever", &self.key_retriever.is_some())
            .field("aad_prefix", &self.aad_prefix)
            .field("verify_plaintext_footer", &self.verify_plaintext_footer)
            .finish()
    }
}

impl FileDecryptionProperties {
    /// Starts empty settings (no keys; plaintext footer signatures verified).
    pub fn builder() -> FileDecryptionPropertiesBuilder {
        FileDecryptionPropertiesBuilder {
            props: FileDecryptionProperties {
                verify_plaintext_footer: true,
                ..Default::default()
            },
        }
    }

    /// The AAD prefix the caller supplies, if any.
    pub fn aad_prefix(&self) -> Option<&[u8]> {
        self.aad_prefix.as_deref()
    }

    /// Whether a plaintext footer's signature is checked (needs the footer key).
    pub fn verify_plaintext_footer(&self) -> bool {
        self.verify_plaintext_footer
    }

    /// The footer key: the explicit one, else the retriever's answer for `key_metadata`.
    pub fn footer_key(&self, key_metadata: Option<&[u8]>) -> Result<Vec<u8>> {
        if let Some(k) = &self.footer_key {
            return Ok(k.clone());
        }
        match (&self.key_retriever, key_metadata) {
            (Some(r), Some(m)) => {
                let key = r
                    .retrieve_key(m)
                    .map_err(|e| e.context("retrieving the footer key"))?;
                check_key(&key, "footer key from the key retriever")?;
                Ok(key)
            }
            _ => Err(Error::new(
                ErrorKind::Crypto,
                "the file's footer is encrypted (or signed) and no footer key was given",
            )),
        }
    }

    /// Whether a footer key is available without asking the retriever.
    pub fn has_footer_key(&self) -> bool {
        self.footer_key.is_some()
    }

    /// Whether any key can be found: an explicit key or a retriever.
    pub fn has_key_source(&self) -> bool {
        self.footer_key.is_some() || !self.column_keys.is_empty() || self.key_retriever.is_some()
    }

    /// The key of the column at dotted `path`: the explicit one, else the retriever's
    /// answer for `key_metadata`. The error names the column.
    pub fn column_key(&self, path: &str, key_metadata: Option<&[u8]>) -> Result<Vec<u8>> {
        if let Some(k) = self.column_keys.get(path) {
            return Ok(k.clone());
        }
        match (&self.key_retriever, key_metadata) {
            (Some(r), Some(m)) => {
                let key = r.retrieve_key(m).map_err(|e| {
                    e.context(format_args!("retrieving the key of column {path}"))
                        .with_column(path)
                })?;
                check_key(
                    &key,
                    &format!("key of column {path} from the key retriever"),
                )?;
                Ok(key)
            }
            _ => Err(Error::new(
                ErrorKind::Crypto,
                format!("column {path} is encrypted with its own key and no key was given for it"),
            )
            .with_column(path)),
        }
    }
}

/// Builder of [`FileDecryptionProperties`].
#[derive(Debug, Clone)]
pub struct FileDecryptionPropertiesBuilder {
    props: FileDecryptionProperties,
}

impl FileDecryptionPropertiesBuilder {
    /// The footer key (it also decrypts columns encrypted with the footer key).
    pub fn footer_key(mut self, key: Vec<u8>) -> Self {
        self.props.footer_key = Some(key);
        self
    }

    /// The key of the column at dotted `path`.
    pub fn column_key(mut self, path: &str, key: Vec<u8>) -> Self {
        self.props.column_keys.insert(path.to_string(), key);
        self
    }

    /// Asked for every key not given explicitly, with the file's key metadata.
    pub fn key_retriever(mut self, retriever: Arc<dyn KeyRetriever>) -> Self {
        self.props.key_retriever = Some(retriever);
        self
    }

    /// The AAD prefix for files written without storing it; for files that store one it
    /// must equal the stored prefix.
    pub fn aad_prefix(mut self, prefix: Vec<u8>) -> Self {
        self.props.aad_prefix = Some(prefix);
        self
    }

    /// Whether to check a plaintext footer's signature (default true).
    pub fn verify_plaintext_footer(mut self, verify: bool) -> Self {
        self.props.verify_plaintext_footer = verify;
        self
    }

    /// Checks the explicit key lengths.
    pub fn build(self) -> Result<FileDecryptionProperties> {
        if let Some(k) = &self.props.footer_key {
            check_key(k, "footer key")?;
        }
        for (path, k) in &self.props.column_keys {
            check_key(k, &format!("key of column {path}"))?;
        }
        Ok(self.props)
    }
}

fn check_key(key: &[u8], what: &str) -> Result<()> {
    match key.len() {
        16 | 24 | 32 => Ok(()),
        n => Err(Error::invalid_argument(format!(
            "{what} has {n} bytes; AES keys have 16, 24 or 32"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uniform_and_column_modes() {
        let uniform = FileEncryptionProperties::builder(vec![0; 16])
            .build()
            .unwrap();
        assert!(uniform.is_uniform());
        assert_eq!(uniform.column("any.path"), ColumnEncryption::FooterKey);
        let cols = FileEncryptionProperties::builder(vec![0; 16])
            .column_key("a", vec![1; 24], None)
            .column_with_footer_key("b.c")
            .build()
            .unwrap();
        assert!(matches!(
            cols.column("a"),
            ColumnEncryption::ColumnKey { .. }
        ));
        assert_eq!(cols.column("b.c"), ColumnEncryption::FooterKey);
        assert_eq!(cols.column("d"), ColumnEncryption::Plaintext);
    }

    #[test]
    fn builder_checks() {
        assert!(FileEncryptionProperties::builder(vec![0; 15])
            .build()
            .is_err());
        assert!(FileEncryptionProperties::builder(vec![0; 16])
            .column_key("a", vec![0; 7], None)
            .build()
            .is_err());
        let e = FileEncryptionProperties::builder(vec![0; 16])
            .store_aad_prefix(false)
            .build()
            .unwrap_err();
        assert!(e.to_string().contains("aad_prefix"), "{e}");
        assert!(FileDecryptionProperties::builder()
            .footer_key(vec![0; 20])
            .build()
            .is_err());
    }

    #[test]
    fn key_resolution_explicit_then_retriever() {
        let retriever = |m: &[u8]| -> Result<Vec<u8>> {
            match m {
                b"kf" => Ok(vec![1; 16]),
                b"kc1" => Ok(vec![2; 16]),
                b"short" => Ok(vec![2; 3]),
                _ => Err(Error::new(ErrorKind::Crypto, "unknown key id")),
            }
        };
        let p = FileDecryptionProperties::builder()
            .column_key("x", vec![9; 32])
            .key_retriever(Arc::new(retriever))
            .build()
            .unwrap();
        assert_eq!(p.footer_key(Some(b"kf")).unwrap(), vec![1; 16]);
        assert_eq!(p.column_key("x", Some(b"kc1")).unwrap(), vec![9; 32]);
        assert_eq!(p.column_key("y", Some(b"kc1")).unwrap(), vec![2; 16]);
        let e = p.column_key("y", Some(b"nope")).unwrap_err();
        assert!(e.to_string().contains("column y"), "{e}");
        assert!(p.column_key("y", Some(b"short")).is_err());
        let none = FileDecryptionProperties::builder().build().unwrap();
        let e = none.column_key("z", None).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Crypto);
        assert!(e.to_string().contains("column z"), "{e}");
        assert!(none.footer_key(Some(b"kf")).is_err());
    }

    #[test]
    fn debug_never_prints_keys() {
        let p = FileEncryptionProperties::builder(b"0123456789012345".to_vec())
            .column_key("a", b"abcdefghijklmnop".to_vec(), None)
            .build()
            .unwrap();
        let s = format!("{p:?}");
        assert!(
            !s.contains("0123456789012345") && !s.contains("abcdefghijklmnop"),
            "{s}"
        );
    }
}
