//! Reading encrypted files (Parquet Modular Encryption): the per-file decryption state (file
//! AAD, algorithm, footer key, the key of every encrypted column) and the decryption of each
//! module with its AAD.
//!
//! The footer code builds a [`FileDecryptor`] once; column keys are resolved once per column
//! and a column whose key is missing or wrong makes only reads of that column fail.

use std::fmt;
use std::sync::Arc;

use crate::encryption::{
    file_aad, footer_aad, module_aad, module_len, set_page_ordinal, Algorithm,
    FileDecryptionProperties, ModuleKey, ModuleType,
};
use crate::error::{Error, ErrorKind, Result};
use crate::format::{
    self, ColumnCryptoMetaData, ColumnMetaData, EncryptionAlgorithm, FileMetaData, PageType,
};
use crate::schema::Schema;

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
            Some(ColumnKey::Key(key)) => Ok(Some(ChunkDecryptor {
                key: key.clone(),
                file_aad: self.file_aad.clone(),
                no_aad: self.no_aad,
                row_group: row_group_ordinal(rg_ordinal, row_group)?,
                column,
                ctr: self.algorithm.pages_use_ctr(),
            })),
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

/// Decryption of the modules of one column chunk: its key, file AAD and ordinals.
#[derive(Clone)]
pub(crate) struct ChunkDecryptor {
    key: Arc<ModuleKey>,
    file_aad: Arc<[u8]>,
    /// Modules use an empty AAD (see [`FileDecryptor`]).
    no_aad: bool,
    row_group: usize,
    column: usize,
    ctr: bool,
}

impl fmt::Debug for ChunkDecryptor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ChunkDecryptor")
            .field("key", &self.key)
            .field("row_group", &self.row_group)
            .field("column", &self.column)
            .field("ctr", &self.ctr)
            .finish()
    }
}

impl ChunkDecryptor {
    /// A chunk decryptor from its parts, for tests of the page reader.
    #[cfg(test)]
    pub(crate) fn for_tests(
        key: &[u8],
        file_aad: &[u8],
        row_group: usize,
        column: usize,
        ctr: bool,
    ) -> Self {
        ChunkDecryptor {
            key: Arc::new(ModuleKey::new(key).expect("test key")),
            file_aad: Arc::from(file_aad),
            no_aad: false,
            row_group,
            column,
            ctr,
        }
    }

    fn aad(&self, module: ModuleType, page: usize) -> Result<Vec<u8>> {
        if self.no_aad {
            return Ok(Vec::new());
        }
        module_aad(&self.file_aad, module, self.row_group, self.column, page)
    }

    /// Decrypts a whole GCM module (length prefix included) that is not a page: an index, a
    /// Bloom filter part.
    pub(crate) fn decrypt_module(&self, module: &[u8], what: ModuleType) -> Result<Vec<u8>> {
        self.key.gcm_decrypt(module, &self.aad(what, 0)?, what)
    }

    /// The page decryptor of this chunk; `has_dictionary`: its first page is a dictionary
    /// page.
    pub(crate) fn pages(&self, has_dictionary: bool) -> Result<PageDecryptor> {
        Ok(PageDecryptor {
            header_aad: self.aad(ModuleType::DataPageHeader, 0)?,
            body_aad: self.aad(ModuleType::DataPage, 0)?,
            chunk: self.clone(),
            has_dictionary,
            data_page_ordinals: None,
        })
    }
}

/// Decryption of the pages of one column chunk, held by a page reader.
#[derive(Debug, Clone)]
pub(crate) struct PageDecryptor {
    chunk: ChunkDecryptor,
    header_aad: Vec<u8>,
    body_aad: Vec<u8>,
    has_dictionary: bool,
    /// The ordinals within the chunk of the data pages the reader walks, when it walks only
    /// some of them (pages selected by the offset index).
    data_page_ordinals: Option<Vec<usize>>,
}

impl PageDecryptor {
    /// The reader walks only the data pages with these ordinals (in order).
    pub(crate) fn with_data_page_ordinals(mut self, ordinals: Vec<usize>) -> Self {
        self.data_page_ordinals = Some(ordinals);
        self
    }

    /// The chunk ordinal of the `n`-th data page the reader meets.
    fn data_ordinal(&self, n: usize) -> usize {
        match &self.data_page_ordinals {
            Some(o) => o.get(n).copied().unwrap_or(n),
            None => n,
        }
    }

    /// Whether page bodies are delimited by their module's length prefix rather than by
    /// `compressed_page_size`: AAD-less (DuckDB) files store the size before encryption.
    pub(crate) fn body_len_from_prefix(&self) -> bool {
        self.chunk.no_aad
    }

    /// The length of the page header module at the start of `bytes`.
    pub(crate) fn header_len(&self, bytes: &[u8]) -> Result<usize> {
        let len = module_len(bytes).map_err(|e| e.context("encrypted page header"))?;
        if len > bytes.len() {
            return Err(Error::corrupt(format!(
                "encrypted page header of {len} bytes runs past the end of the column chunk \
                 ({} bytes left)",
                bytes.len()
            )));
        }
        Ok(len)
    }

    /// Decrypts the header module of the `page`-th page the reader meets, the `data_pages`-th
    /// data page if it is one. The first page of a chunk with a dictionary is the dictionary
    /// page.
    pub(crate) fn decrypt_header(
        &mut self,
        module: &[u8],
        page: usize,
        data_pages: usize,
    ) -> Result<Vec<u8>> {
        let dictionary = page == 0 && self.has_dictionary;
        let first = self.decrypt_header_as(module, dictionary, data_pages);
        match first {
            // A writer that left out (or misplaced) dictionary_page_offset: the first page's
            // header authenticates under the other AAD or not at all.
            Err(e) if page == 0 => self
                .decrypt_header_as(module, !dictionary, data_pages)
                .map_err(|_| e),
            r => r,
        }
    }

    fn decrypt_header_as(
        &mut self,
        module: &[u8],
        dictionary: bool,
        data_pages: usize,
    ) -> Result<Vec<u8>> {
        if dictionary {
            let aad = self.chunk.aad(ModuleType::DictionaryPageHeader, 0)?;
            return self
                .chunk
                .key
                .gcm_decrypt(module, &aad, ModuleType::DictionaryPageHeader);
        }
        let ordinal = self.data_ordinal(data_pages);
        if !self.chunk.no_aad {
            set_page_ordinal(&mut self.header_aad, ordinal)?;
        }
        self.chunk
            .key
            .gcm_decrypt(module, &self.header_aad, ModuleType::DataPageHeader)
    }

    /// Decrypts a page body of type `page_type` (the `data_pages`-th data page if a data
    /// page); `None` for page types that carry no data readers use.
    pub(crate) fn decrypt_body(
        &mut self,
        module: &[u8],
        page_type: PageType,
        data_pages: usize,
    ) -> Result<Option<Vec<u8>>> {
        let what = match page_type {
            PageType::DictionaryPage => ModuleType::DictionaryPage,
            PageType::DataPage | PageType::DataPageV2 => ModuleType::DataPage,
            PageType::IndexPage | PageType::Unknown(_) => return Ok(None),
        };
        if self.chunk.ctr {
            return self.chunk.key.ctr_decrypt(module, what).map(Some);
        }
        let plain = if what == ModuleType::DataPage {
            let ordinal = self.data_ordinal(data_pages);
            if !self.chunk.no_aad {
                set_page_ordinal(&mut self.body_aad, ordinal)?;
            }
            self.chunk.key.gcm_decrypt(module, &self.body_aad, what)?
        } else {
            let aad = self.chunk.aad(what, 0)?;
            self.chunk.key.gcm_decrypt(module, &aad, what)?
        };
        Ok(Some(plain))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::{AesGcmCtrV1, AesGcmV1};

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

    fn chunk(ctr: bool) -> ChunkDecryptor {
        ChunkDecryptor {
            key: Arc::new(ModuleKey::new(b"0123456789012345").unwrap()),
            file_aad: Arc::from(&b"file"[..]),
            no_aad: false,
            row_group: 1,
            column: 2,
            ctr,
        }
    }

    #[test]
    fn pages_use_their_ordinals_and_types() {
        let c = chunk(false);
        let mut out = Vec::new();
        let aad = module_aad(b"file", ModuleType::DataPageHeader, 1, 2, 3).unwrap();
        c.key.gcm_encrypt(b"header3", &aad, &mut out).unwrap();
        let mut pages = c.pages(true).unwrap();
        // Page 4 of the walk (dictionary + 3 data pages before it): data page ordinal 3.
        assert_eq!(pages.decrypt_header(&out, 4, 3).unwrap(), b"header3");
        assert_eq!(
            pages.decrypt_header(&out, 4, 2).unwrap_err().kind(),
            ErrorKind::Crypto
        );
        // Only some pages walked: the second data page met is ordinal 3.
        let mut some = c.pages(true).unwrap().with_data_page_ordinals(vec![0, 3]);
        assert_eq!(some.decrypt_header(&out, 2, 1).unwrap(), b"header3");

        let mut dict = Vec::new();
        let aad = module_aad(b"file", ModuleType::DictionaryPageHeader, 1, 2, 0).unwrap();
        c.key.gcm_encrypt(b"dict", &aad, &mut dict).unwrap();
        assert_eq!(pages.decrypt_header(&dict, 0, 0).unwrap(), b"dict");
        // The dictionary page header only decrypts as the first page.
        let e = pages.decrypt_header(&dict, 1, 0).unwrap_err();
        assert!(e.message().contains("data page header"), "{e}");

        let mut body = Vec::new();
        let aad = module_aad(b"file", ModuleType::DictionaryPage, 1, 2, 0).unwrap();
        c.key.gcm_encrypt(b"values", &aad, &mut body).unwrap();
        assert_eq!(
            pages
                .decrypt_body(&body, PageType::DictionaryPage, 0)
                .unwrap(),
            Some(b"values".to_vec())
        );
        let e = pages
            .decrypt_body(&body, PageType::DataPage, 0)
            .unwrap_err();
        assert!(e.message().contains("data page"), "{e}");
        assert_eq!(
            pages.decrypt_body(&body, PageType::IndexPage, 0).unwrap(),
            None
        );
    }

    #[test]
    fn ctr_bodies() {
        let c = chunk(true);
        let mut body = Vec::new();
        c.key.ctr_encrypt(b"ctr values", &mut body).unwrap();
        let mut pages = c.pages(false).unwrap();
        assert_eq!(
            pages.decrypt_body(&body, PageType::DataPage, 5).unwrap(),
            Some(b"ctr values".to_vec())
        );
        assert!(pages.header_len(&body[..3]).is_err());
        assert!(pages.header_len(&body[..10]).is_err());
        assert_eq!(pages.header_len(&body).unwrap(), body.len());
    }
}
