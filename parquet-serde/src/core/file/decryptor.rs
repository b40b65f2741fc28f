//! Reading encrypted files (Parquet Modular Encryption): the per-file decryption state (file
//! AAD, algorithm, footer key, the key of every encrypted column) and the decryption of each
//! module with its AAD.
//!
//! The footer code builds a [`FileDecryptor`] once; column keys are resolved once per column
//! and a column whose key is missing or wrong makes only reads of that column fail.

use std::fmt;
use std::sync::Arc;

use crate::core::encryption::{
    file_aad, footer_aad, module_aad, Algorithm, FileDecryptionProperties, ModuleKey, ModuleType,
};
use crate::core::format::{
    self, ColumnCryptoMetaData, ColumnMetaData, EncryptionAlgorithm, FileMetaData,
};
use crate::core::page::ChunkDecryptor;
use crate::core::schema::Schema;
use crate::error::{Error, ErrorKind, Result};

/// The AAD parameters of a file's encryption algorithm.
pub(crate) struct AlgorithmParams<'a> {
    pub algorithm: Algorithm,
    pub aad_prefix: Option<&'a [u8]>,
    pub aad_file_unique: &'a [u8],
    pub supply_aad_prefix: bool,
}

/// The algorithm of a file and its AAD fields.
pub(crate) fn algorithm_params(alg: &EncryptionAlgorithm) -> Result<AlgorithmParams<'_>> {
    match alg {
        EncryptionAlgorithm::AesGcmV1(a) => Ok(AlgorithmParams {
            algorithm: Algorithm::AesGcmV1,
            aad_prefix: a.aad_prefix.as_deref(),
            aad_file_unique: a.aad_file_unique.as_deref().unwrap_or_default(),
            supply_aad_prefix: a.supply_aad_prefix.unwrap_or(false),
        }),
        EncryptionAlgorithm::AesGcmCtrV1(a) => Ok(AlgorithmParams {
            algorithm: Algorithm::AesGcmCtrV1,
            aad_prefix: a.aad_prefix.as_deref(),
            aad_file_unique: a.aad_file_unique.as_deref().unwrap_or_default(),
            supply_aad_prefix: a.supply_aad_prefix.unwrap_or(false),
        }),
        EncryptionAlgorithm::Unknown(id) => Err(Error::unsupported(format!(
            "encryption algorithm {id} (this reader knows AES_GCM_V1 and AES_GCM_CTR_V1)"
        ))),
    }
}

/// The file AAD: the AAD prefix the caller supplies or the file stores (they must agree),
/// followed by the file's unique part.
pub(crate) fn resolve_file_aad(
    params: &AlgorithmParams<'_>,
    props: Option<&FileDecryptionProperties>,
) -> Result<Vec<u8>> {
    let supplied = props.and_then(|p| p.aad_prefix());
    let prefix = match (params.aad_prefix, supplied) {
        (Some(stored), Some(given)) if stored != given => {
            return Err(Error::new(
                ErrorKind::Crypto,
                format!(
                    "AAD prefix mismatch: the file stores {:?}, the reader supplied {:?}",
                    String::from_utf8_lossy(stored),
                    String::from_utf8_lossy(given)
                ),
            ))
        }
        (Some(_), Some(given)) => given,
        (None, Some(given)) if params.supply_aad_prefix => given,
        (None, Some(given)) => {
            return Err(Error::new(
                ErrorKind::Crypto,
                format!(
                    "AAD prefix mismatch: the reader supplied {:?}, the file was written without \
                     an AAD prefix",
                    String::from_utf8_lossy(given)
                ),
            ))
        }
        (Some(stored), None) => stored,
        (None, None) if params.supply_aad_prefix => {
            return Err(Error::new(
                ErrorKind::Crypto,
                "the file needs an AAD prefix that it does not store: supply it \
                 (FileDecryptionProperties::builder().aad_prefix(..))",
            ))
        }
        (None, None) => &[],
    };
    Ok(file_aad(prefix, params.aad_file_unique))
}

/// The key state of one leaf column.
enum ColumnKey {
    /// The column's chunks are not encrypted.
    Plaintext,
    /// The key of its pages, indexes and metadata.
    Key(Arc<ModuleKey>),
    /// Encrypted, and its key is missing or wrong: the error every read reports.
    Unavailable(ErrorKind, String),
}

/// Decryption state of one encrypted file.
pub(crate) struct FileDecryptor {
    algorithm: Algorithm,
    file_aad: Arc<[u8]>,
    /// Every module authenticates with an empty AAD: files of writers (DuckDB 1.x-2.0) that
    /// store no aad_file_unique and use no AAD at all; detected on the footer.
    no_aad: bool,
    encrypted_footer: bool,
    footer_key: Option<Arc<ModuleKey>>,
    columns: Vec<ColumnKey>,
    /// Column paths (dotted), for error messages.
    paths: Vec<String>,
}

impl fmt::Debug for FileDecryptor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Keys are never printed (ModuleKey's Debug shows only the size).
        f.debug_struct("FileDecryptor")
            .field("algorithm", &self.algorithm)
            .field("encrypted_footer", &self.encrypted_footer)
            .field("footer_key", &self.footer_key)
            .finish_non_exhaustive()
    }
}

/// A key made from bytes the caller or a retriever gave.
fn module_key(bytes: &[u8], what: &str) -> Result<Arc<ModuleKey>> {
    ModuleKey::new(bytes)
        .map(Arc::new)
        .map_err(|e| Error::new(ErrorKind::Crypto, format!("{what}: {}", e.message())))
}

impl FileDecryptor {
    /// The state for a file of `algorithm` whose FileMetaData is decoded (and, for an
    /// encrypted footer, decrypted with `footer_key`): resolves every encrypted column's key
    /// and replaces the `meta_data` of chunks whose `encrypted_column_metadata` decrypts.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn new(
        algorithm: Algorithm,
        file_aad: Vec<u8>,
        no_aad: bool,
        encrypted_footer: bool,
        footer_key: Option<Arc<ModuleKey>>,
        props: Option<&FileDecryptionProperties>,
        file: &mut FileMetaData,
        schema: &Schema,
    ) -> Result<Self> {
        let paths: Vec<String> = schema
            .columns()
            .iter()
            .map(|c| c.path.to_string())
            .collect();
        let mut dec = FileDecryptor {
            algorithm,
            file_aad: file_aad.into(),
            no_aad,
            encrypted_footer,
            footer_key,
            columns: Vec::with_capacity(paths.len()),
            paths,
        };
        for c in 0..dec.paths.len() {
            let crypto = file
                .row_groups
                .iter()
                .filter_map(|rg| rg.columns.get(c))
                .find_map(|chunk| chunk.crypto_metadata.as_ref());
            let state = dec.resolve_column(c, crypto, props);
            dec.columns.push(state);
        }
        for (i, rg) in file.row_groups.iter_mut().enumerate() {
            let ordinal = row_group_ordinal(rg.ordinal, i)?;
            for (c, chunk) in rg.columns.iter_mut().enumerate() {
                let Some(bytes) = chunk.encrypted_column_metadata.as_deref() else {
                    continue;
                };
                let Some(ColumnKey::Key(key)) = dec.columns.get(c) else {
                    continue;
                };
                let aad = if dec.no_aad {
                    Vec::new()
                } else {
                    module_aad(&dec.file_aad, ModuleType::ColumnMetaData, ordinal, c, 0)?
                };
                let decoded = key
                    .gcm_decrypt(bytes, &aad, ModuleType::ColumnMetaData)
                    .and_then(|plain| format::decode::<ColumnMetaData>(&plain).map(|(md, _)| md));
                match decoded {
                    Ok(md) => chunk.meta_data = Some(md),
                    Err(e) => {
                        let msg =
                            format!("column {}: {} (row group {i})", dec.paths[c], e.message());
                        dec.columns[c] = ColumnKey::Unavailable(e.kind(), msg);
                    }
                }
            }
        }
        Ok(dec)
    }

    fn resolve_column(
        &self,
        c: usize,
        crypto: Option<&ColumnCryptoMetaData>,
        props: Option<&FileDecryptionProperties>,
    ) -> ColumnKey {
        let path = &self.paths[c];
        // AAD-less files (DuckDB) encrypt every column with the footer key and store no
        // crypto metadata for it.
        let footer = ColumnCryptoMetaData::EncryptionWithFooterKey;
        let crypto = crypto.or(self.no_aad.then_some(&footer));
        match crypto {
            None => ColumnKey::Plaintext,
            Some(ColumnCryptoMetaData::EncryptionWithFooterKey) => match &self.footer_key {
                Some(k) => ColumnKey::Key(k.clone()),
                None => ColumnKey::Unavailable(
                    ErrorKind::Crypto,
                    format!(
                        "no key for column {path}: it is encrypted with the footer key and no \
                         footer key was given"
                    ),
                ),
            },
            Some(ColumnCryptoMetaData::EncryptionWithColumnKey(ck)) => {
                let Some(props) = props else {
                    return ColumnKey::Unavailable(
                        ErrorKind::Crypto,
                        format!("no key for column {path}: no decryption keys were given"),
                    );
                };
                let key = props
                    .column_key(path, ck.key_metadata.as_deref())
                    .and_then(|k| module_key(&k, &format!("key of column {path}")));
                match key {
                    Ok(k) => ColumnKey::Key(k),
                    // The properties' own "no key was given" message names the column
                    // already; a retriever's error is passed on.
                    Err(e) if e.message().contains("no key was given") => ColumnKey::Unavailable(
                        ErrorKind::Crypto,
                        format!(
                            "no key for column {path}: it is encrypted with its own key and none \
                             was given"
                        ),
                    ),
                    Err(e) => ColumnKey::Unavailable(
                        ErrorKind::Crypto,
                        format!("no key for column {path}: {}", e.message()),
                    ),
                }
            }
            Some(ColumnCryptoMetaData::Unknown(id)) => ColumnKey::Unavailable(
                ErrorKind::Unsupported,
                format!("column {path}: unknown column crypto metadata {id}"),
            ),
        }
    }

    /// Whether the footer is encrypted (a `PARE` file).
    pub(crate) fn encrypted_footer(&self) -> bool {
        self.encrypted_footer
    }

    /// The file's algorithm.
    pub(crate) fn algorithm(&self) -> Algorithm {
        self.algorithm
    }

    /// Whether leaf `column` is encrypted (in the chunks that carry crypto metadata).
    pub(crate) fn is_column_encrypted(&self, column: usize) -> bool {
        !matches!(self.columns.get(column), None | Some(ColumnKey::Plaintext))
    }

    /// Whether leaf `column` is encrypted and can be decrypted.
    pub(crate) fn has_column_key(&self, column: usize) -> bool {
        matches!(self.columns.get(column), Some(ColumnKey::Key(_)))
    }

    /// The decryption context of a column chunk: `None` when the chunk is not encrypted, an
    /// error naming the column when its key is missing or wrong.
    pub(crate) fn chunk(
        &self,
        encrypted: bool,
        row_group: usize,
        rg_ordinal: Option<i16>,
        column: usize,
    ) -> Result<Option<ChunkDecryptor>> {
        if !encrypted {
            return Ok(None);
        }
        let path = self.paths.get(column).map(String::as_str).unwrap_or("?");
        match self.columns.get(column) {
            Some(ColumnKey::Key(key)) => Ok(Some(ChunkDecryptor::new(
                key.clone(),
                self.file_aad.clone(),
                self.no_aad,
                row_group_ordinal(rg_ordinal, row_group)?,
                column,
                self.algorithm.pages_use_ctr(),
            ))),
            Some(ColumnKey::Unavailable(kind, msg)) => {
                Err(Error::new(*kind, msg.clone()).with_column(path))
            }
            // A chunk with crypto metadata in a column whose first chunk had none.
            Some(ColumnKey::Plaintext) | None => Err(Error::corrupt(format!(
                "column {path}: chunks disagree on whether the column is encrypted"
            ))
            .with_column(path)),
        }
    }
}

impl super::ParquetMetaData {
    /// The decryption context of column chunk (`row_group`, `column`): `None` when it is not
    /// encrypted; a Crypto error naming the column when its key is missing or wrong.
    pub(crate) fn chunk_decryptor(
        &self,
        row_group: usize,
        column: usize,
    ) -> Result<Option<ChunkDecryptor>> {
        let Some(dec) = &self.decryptor else {
            return Ok(None);
        };
        let chunk = self.column_chunk(row_group, column)?;
        // `column_chunk` found the row group.
        let ordinal = self.file.row_groups[row_group].ordinal;
        dec.chunk(
            chunk.crypto_metadata.is_some() || dec.no_aad,
            row_group,
            ordinal,
            column,
        )
        .map_err(|e| e.with_row_group(row_group))
    }
}

/// The row group ordinal of the AADs: `RowGroup.ordinal` when written, else its index.
fn row_group_ordinal(ordinal: Option<i16>, index: usize) -> Result<usize> {
    match ordinal {
        None => Ok(index),
        Some(o) => usize::try_from(o)
            .map_err(|_| Error::corrupt(format!("negative row group ordinal {o}"))),
    }
}

/// Decrypts the footer module of a `PARE` file: the plaintext, and whether the file uses no
/// AAD at all. A file without aad_file_unique and AAD prefix (DuckDB writes such files, with
/// an empty AAD for every module) whose footer authenticates only under the empty AAD is read
/// in that mode; spec-conforming writers always store aad_file_unique.
pub(crate) fn decrypt_footer(
    key: &ModuleKey,
    module: &[u8],
    file_aad: &[u8],
) -> Result<(Vec<u8>, bool)> {
    match key.gcm_decrypt(module, &footer_aad(file_aad), ModuleType::Footer) {
        Ok(plain) => Ok((plain, false)),
        Err(e) if file_aad.is_empty() => match key.gcm_decrypt(module, &[], ModuleType::Footer) {
            Ok(plain) => Ok((plain, true)),
            Err(_) => Err(e),
        },
        Err(e) => Err(e),
    }
}

/// Checks the signature of a plaintext footer.
pub(crate) fn verify_footer(
    key: &ModuleKey,
    footer: &[u8],
    signature: &[u8],
    file_aad: &[u8],
) -> Result<()> {
    key.verify_signature(footer, &footer_aad(file_aad), signature)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::format::{AesGcmCtrV1, AesGcmV1};

    fn params(prefix: Option<&[u8]>, supply: bool) -> EncryptionAlgorithm {
        EncryptionAlgorithm::AesGcmV1(AesGcmV1 {
            aad_prefix: prefix.map(<[u8]>::to_vec),
            aad_file_unique: Some(vec![9, 8]),
            supply_aad_prefix: Some(supply),
        })
    }

    fn props(prefix: Option<&[u8]>) -> FileDecryptionProperties {
        let mut b = FileDecryptionProperties::builder().footer_key(vec![0; 16]);
        if let Some(p) = prefix {
            b = b.aad_prefix(p.to_vec());
        }
        b.build().unwrap()
    }

    #[test]
    fn file_aad_rules() {
        let alg = params(Some(b"ab"), false);
        let p = algorithm_params(&alg).unwrap();
        assert_eq!(resolve_file_aad(&p, None).unwrap(), b"ab\x09\x08");
        let same = props(Some(b"ab"));
        assert_eq!(resolve_file_aad(&p, Some(&same)).unwrap(), b"ab\x09\x08");
        let other = props(Some(b"xy"));
        let e = resolve_file_aad(&p, Some(&other)).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Crypto);
        assert!(e.message().contains("AAD prefix mismatch"), "{e}");

        let alg = params(None, true);
        let p = algorithm_params(&alg).unwrap();
        let e = resolve_file_aad(&p, Some(&props(None))).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Crypto);
        assert!(e.message().contains("needs an AAD prefix"), "{e}");
        assert_eq!(
            resolve_file_aad(&p, Some(&other)).unwrap(),
            b"xy\x09\x08".to_vec()
        );
        let alg = params(None, false);
        let p = algorithm_params(&alg).unwrap();
        let e = resolve_file_aad(&p, Some(&other)).unwrap_err();
        assert!(e.message().contains("without an AAD prefix"), "{e}");

        let ctr = EncryptionAlgorithm::AesGcmCtrV1(AesGcmCtrV1::default());
        let p = algorithm_params(&ctr).unwrap();
        assert_eq!(p.algorithm, Algorithm::AesGcmCtrV1);
        assert_eq!(resolve_file_aad(&p, None).unwrap(), Vec::<u8>::new());
    }
}
