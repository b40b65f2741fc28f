//! [`FileEncryptor`]: what a [`FileWriter`](super::FileWriter) needs to encrypt a file: the
//! file AAD, one [`ModuleKey`] per distinct key, the key and crypto metadata of every leaf
//! column, and the footer forms (encrypted `PARE` footer, or signed plaintext footer).

use std::sync::Arc;

use crate::core::encryption::{
    file_aad, footer_aad, module_aad, random_bytes, Algorithm, ColumnEncryption,
    FileEncryptionProperties, ModuleKey, ModuleType,
};
use crate::core::format::{
    self, AesGcmCtrV1, AesGcmV1, ColumnChunk, ColumnCryptoMetaData, ColumnMetaData,
    EncryptionAlgorithm, EncryptionWithColumnKey, FileCryptoMetaData, FileMetaData,
};
use crate::core::page::PageEncryptor;
use crate::core::schema::Schema;
use crate::error::{Error, Result};

/// Bytes of `aad_file_unique` (as Arrow C++ and parquet-java write).
const AAD_FILE_UNIQUE_LEN: usize = 8;

/// The key of one encrypted column and how the file records it.
#[derive(Debug)]
struct ColumnKey {
    key: Arc<ModuleKey>,
    crypto: ColumnCryptoMetaData,
}

/// Encryption state of one file being written.
#[derive(Debug)]
pub(crate) struct FileEncryptor {
    props: FileEncryptionProperties,
    aad_file_unique: Vec<u8>,
    file_aad: Vec<u8>,
    footer_key: Arc<ModuleKey>,
    /// By leaf column ordinal; `None` for plaintext columns.
    columns: Vec<Option<ColumnKey>>,
}

/// Checks that every column `props` lists is a leaf column of `schema`.
pub(crate) fn check_columns(props: &FileEncryptionProperties, schema: &Schema) -> Result<()> {
    match props
        .columns()
        .keys()
        .find(|p| schema.column_index(p.as_str()).is_none())
    {
        Some(p) => Err(Error::invalid_argument(format!(
            "encryption properties name column {p}, which is not a leaf column of the schema"
        ))),
        None => Ok(()),
    }
}

impl FileEncryptor {
    /// The encryptor of a file of `schema` encrypted as `props` say. Fails when `props`
    /// lists a column that is not a leaf of `schema`.
    pub(crate) fn new(props: FileEncryptionProperties, schema: &Schema) -> Result<Self> {
        Self::with_file_unique(props, schema, random_bytes(AAD_FILE_UNIQUE_LEN))
    }

    fn with_file_unique(
        props: FileEncryptionProperties,
        schema: &Schema,
        aad_file_unique: Vec<u8>,
    ) -> Result<Self> {
        check_columns(&props, schema)?;
        let paths: Vec<String> = schema
            .columns()
            .iter()
            .map(|c| c.path.to_string())
            .collect();
        let footer_key = Arc::new(ModuleKey::new(props.footer_key())?);
        // One ModuleKey per distinct key, so that GCM invocations are counted per key.
        let mut keys: Vec<(Vec<u8>, Arc<ModuleKey>)> =
            vec![(props.footer_key().to_vec(), footer_key.clone())];
        let mut columns = Vec::with_capacity(paths.len());
        for (descr, path) in schema.columns().iter().zip(&paths) {
            let column = match props.column(path) {
                ColumnEncryption::Plaintext => None,
                ColumnEncryption::FooterKey => Some(ColumnKey {
                    key: footer_key.clone(),
                    crypto: ColumnCryptoMetaData::EncryptionWithFooterKey,
                }),
                ColumnEncryption::ColumnKey { key, key_metadata } => {
                    let module_key = match keys.iter().find(|(k, _)| *k == key) {
                        Some((_, m)) => m.clone(),
                        None => {
                            let m = Arc::new(
                                ModuleKey::new(&key).map_err(|e| e.with_column(path.clone()))?,
                            );
                            keys.push((key, m.clone()));
                            m
                        }
                    };
                    Some(ColumnKey {
                        key: module_key,
                        crypto: ColumnCryptoMetaData::EncryptionWithColumnKey(
                            EncryptionWithColumnKey {
                                path_in_schema: descr.path.parts().to_vec(),
                                key_metadata,
                            },
                        ),
                    })
                }
            };
            columns.push(column);
        }
        let file_aad = file_aad(props.aad_prefix().unwrap_or_default(), &aad_file_unique);
        Ok(FileEncryptor {
            props,
            aad_file_unique,
            file_aad,
            footer_key,
            columns,
        })
    }

    /// Whether the footer is encrypted (`PARE`).
    pub(crate) fn encrypted_footer(&self) -> bool {
        self.props.encrypted_footer()
    }

    /// Whether leaf column `column` is encrypted.
    pub(crate) fn is_encrypted(&self, column: usize) -> bool {
        matches!(self.columns.get(column), Some(Some(_)))
    }

    /// The page encryptor of column `column` in row group `row_group`, if it is encrypted.
    pub(crate) fn page_encryptor(
        &self,
        row_group: usize,
        column: usize,
    ) -> Result<Option<PageEncryptor>> {
        let Some(Some(c)) = self.columns.get(column) else {
            return Ok(None);
        };
        PageEncryptor::new(
            c.key.clone(),
            self.props.algorithm().pages_use_ctr(),
            &self.file_aad,
            row_group,
            column,
        )
        .map(Some)
    }

    /// Appends to `out` the GCM module of `plaintext`, a `module` of column `column` in row
    /// group `row_group`, encrypted with the column's key; or `plaintext` itself when the
    /// column is not encrypted.
    pub(crate) fn module(
        &self,
        module: ModuleType,
        row_group: usize,
        column: usize,
        plaintext: &[u8],
        out: &mut Vec<u8>,
    ) -> Result<()> {
        match self.columns.get(column) {
            Some(Some(c)) => {
                let aad = module_aad(&self.file_aad, module, row_group, column, 0)?;
                c.key.gcm_encrypt(plaintext, &aad, out)
            }
            _ => {
                out.extend_from_slice(plaintext);
                Ok(())
            }
        }
    }

    /// Sets the crypto metadata of chunk `column` of row group `row_group` and, where its
    /// metadata is kept apart from the footer (a column key, or any encrypted column under a
    /// plaintext footer), encrypts its full `meta_data` into `encrypted_column_metadata`.
    /// `meta_data` stays whole: [`footer_form`](Self::footer_form) redacts it.
    pub(crate) fn seal_column_chunk(
        &self,
        row_group: usize,
        column: usize,
        chunk: &mut ColumnChunk,
    ) -> Result<()> {
        let Some(Some(c)) = self.columns.get(column) else {
            return Ok(());
        };
        chunk.crypto_metadata = Some(c.crypto.clone());
        let separate = !self.encrypted_footer()
            || matches!(c.crypto, ColumnCryptoMetaData::EncryptionWithColumnKey(_));
        if let (true, Some(md)) = (separate, chunk.meta_data.as_ref()) {
            let mut plain = Vec::new();
            format::encode(md, &mut plain);
            let aad = module_aad(
                &self.file_aad,
                ModuleType::ColumnMetaData,
                row_group,
                column,
                0,
            )?;
            let mut sealed =
                Vec::with_capacity(plain.len() + crate::core::encryption::GCM_OVERHEAD);
            c.key.gcm_encrypt(&plain, &aad, &mut sealed)?;
            chunk.encrypted_column_metadata = Some(sealed);
        }
        Ok(())
    }

    /// The column chunk as the footer stores it: without `meta_data` when the footer is
    /// encrypted and the metadata is encrypted apart; with a redacted `meta_data` (no
    /// statistics, encoding stats, size or geospatial statistics, Bloom filter location or
    /// key-value metadata, as Arrow C++, parquet-java and arrow-rs strip) for old readers
    /// when the footer is plaintext.
    fn footer_chunk(&self, chunk: &ColumnChunk) -> ColumnChunk {
        let mut out = chunk.clone();
        if out.encrypted_column_metadata.is_some() {
            if self.encrypted_footer() {
                out.meta_data = None;
            } else if let Some(md) = out.meta_data.as_mut() {
                redact(md);
            }
        }
        out
    }

    /// The Thrift encryption algorithm of the file.
    fn algorithm(&self) -> EncryptionAlgorithm {
        let prefix = self.props.aad_prefix();
        let aad_prefix = prefix
            .filter(|_| self.props.store_aad_prefix())
            .map(<[u8]>::to_vec);
        let supply_aad_prefix = prefix.map(|_| !self.props.store_aad_prefix());
        let aad_file_unique = Some(self.aad_file_unique.clone());
        match self.props.algorithm() {
            Algorithm::AesGcmV1 => EncryptionAlgorithm::AesGcmV1(AesGcmV1 {
                aad_prefix,
                aad_file_unique,
                supply_aad_prefix,
            }),
            Algorithm::AesGcmCtrV1 => EncryptionAlgorithm::AesGcmCtrV1(AesGcmCtrV1 {
                aad_prefix,
                aad_file_unique,
                supply_aad_prefix,
            }),
        }
    }

    /// `metadata` as the file stores it: column chunks in footer form, and for a plaintext
    /// footer the encryption algorithm and footer signing key metadata.
    pub(crate) fn footer_form(&self, metadata: &FileMetaData) -> FileMetaData {
        let mut written = metadata.clone();
        for rg in &mut written.row_groups {
            for chunk in &mut rg.columns {
                *chunk = self.footer_chunk(chunk);
            }
        }
        if !self.encrypted_footer() {
            written.encryption_algorithm = Some(self.algorithm());
            written.footer_signing_key_metadata =
                self.props.footer_key_metadata().map(<[u8]>::to_vec);
        }
        written
    }

    /// Appends the footer region of `written` (the footer form) to `out`: FileCryptoMetaData
    /// and the encrypted FileMetaData, or the plaintext FileMetaData and its signature.
    pub(crate) fn write_footer(&self, written: &FileMetaData, out: &mut Vec<u8>) -> Result<()> {
        let aad = footer_aad(&self.file_aad);
        let mut plain = Vec::new();
        format::encode(written, &mut plain);
        if self.encrypted_footer() {
            let crypto = FileCryptoMetaData {
                encryption_algorithm: self.algorithm(),
                key_metadata: self.props.footer_key_metadata().map(<[u8]>::to_vec),
            };
            format::encode(&crypto, out);
            self.footer_key.gcm_encrypt(&plain, &aad, out)
        } else {
            let signature = self.footer_key.sign(&plain, &aad)?;
            out.extend_from_slice(&plain);
            out.extend_from_slice(&signature);
            Ok(())
        }
    }
}

/// Removes what a plaintext footer must not show of an encrypted column.
fn redact(md: &mut ColumnMetaData) {
    md.statistics = None;
    md.encoding_stats = None;
    md.size_statistics = None;
    md.geospatial_statistics = None;
    md.bloom_filter_offset = None;
    md.bloom_filter_length = None;
    md.key_value_metadata = None;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::encryption::FileDecryptionProperties;

    const FOOTER: &[u8] = b"0123456789012345";
    const COL: &[u8] = b"1234567890123450";

    fn schema() -> Schema {
        "message m { required int64 a; optional binary b (STRING); required int32 c; }"
            .parse()
            .unwrap()
    }

    #[test]
    fn one_module_key_per_distinct_key() {
        let props = FileEncryptionProperties::builder(FOOTER.to_vec())
            .column_key("a", COL.to_vec(), None)
            .column_key("b", COL.to_vec(), Some(b"kb".to_vec()))
            .column_with_footer_key("c")
            .build()
            .unwrap();
        let e = FileEncryptor::new(props, &schema()).unwrap();
        let k = |i: usize| e.columns[i].as_ref().unwrap().key.clone();
        assert!(Arc::ptr_eq(&k(0), &k(1)));
        assert!(Arc::ptr_eq(&k(2), &e.footer_key));
        assert!(!Arc::ptr_eq(&k(0), &e.footer_key));
        assert_eq!(e.aad_file_unique.len(), 8);
        assert_eq!(
            e.columns[1].as_ref().unwrap().crypto,
            ColumnCryptoMetaData::EncryptionWithColumnKey(EncryptionWithColumnKey {
                path_in_schema: vec!["b".into()],
                key_metadata: Some(b"kb".to_vec()),
            })
        );
    }

    #[test]
    fn unknown_column_is_refused() {
        let props = FileEncryptionProperties::builder(FOOTER.to_vec())
            .column_key("zz", COL.to_vec(), None)
            .build()
            .unwrap();
        let err = FileEncryptor::new(props, &schema()).unwrap_err();
        assert!(err.to_string().contains("zz"), "{err}");
    }

    #[test]
    fn uniform_encrypts_every_column_with_the_footer_key() {
        let props = FileEncryptionProperties::builder(FOOTER.to_vec())
            .build()
            .unwrap();
        let e = FileEncryptor::new(props, &schema()).unwrap();
        assert!((0..3).all(|c| e.is_encrypted(c)));
        assert!(!e.is_encrypted(3));
    }

    #[test]
    fn algorithm_records_prefix_and_file_unique() {
        let props = FileEncryptionProperties::builder(FOOTER.to_vec())
            .aad_prefix(b"tbl".to_vec())
            .store_aad_prefix(false)
            .algorithm(Algorithm::AesGcmCtrV1)
            .build()
            .unwrap();
        let e = FileEncryptor::with_file_unique(props, &schema(), b"12345678".to_vec()).unwrap();
        assert_eq!(e.file_aad, b"tbl12345678");
        assert_eq!(
            e.algorithm(),
            EncryptionAlgorithm::AesGcmCtrV1(AesGcmCtrV1 {
                aad_prefix: None,
                aad_file_unique: Some(b"12345678".to_vec()),
                supply_aad_prefix: Some(true),
            })
        );
    }

    #[test]
    fn column_metadata_sealed_and_redacted() {
        let props = FileEncryptionProperties::builder(FOOTER.to_vec())
            .plaintext_footer(true)
            .column_key("a", COL.to_vec(), None)
            .build()
            .unwrap();
        let e = FileEncryptor::with_file_unique(props, &schema(), b"abcdefgh".to_vec()).unwrap();
        let md = ColumnMetaData {
            r#type: format::Type::Int64,
            encodings: vec![format::Encoding::Plain],
            path_in_schema: vec!["a".into()],
            codec: format::CompressionCodec::Uncompressed,
            num_values: 1,
            total_uncompressed_size: 10,
            total_compressed_size: 10,
            key_value_metadata: None,
            data_page_offset: 4,
            index_page_offset: None,
            dictionary_page_offset: None,
            statistics: Some(format::Statistics {
                null_count: Some(0),
                ..Default::default()
            }),
            encoding_stats: Some(vec![]),
            bloom_filter_offset: Some(100),
            bloom_filter_length: Some(10),
            size_statistics: None,
            geospatial_statistics: None,
        };
        let mut chunk = ColumnChunk {
            file_path: None,
            file_offset: 4,
            meta_data: Some(md.clone()),
            offset_index_offset: None,
            offset_index_length: None,
            column_index_offset: None,
            column_index_length: None,
            crypto_metadata: None,
            encrypted_column_metadata: None,
        };
        e.seal_column_chunk(0, 0, &mut chunk).unwrap();
        let sealed = chunk.encrypted_column_metadata.clone().unwrap();
        let aad = module_aad(b"abcdefgh", ModuleType::ColumnMetaData, 0, 0, 0).unwrap();
        let plain = ModuleKey::new(COL)
            .unwrap()
            .gcm_decrypt(&sealed, &aad, ModuleType::ColumnMetaData)
            .unwrap();
        assert_eq!(format::decode::<ColumnMetaData>(&plain).unwrap().0, md);
        let footer = e.footer_chunk(&chunk);
        let shown = footer.meta_data.unwrap();
        assert!(shown.statistics.is_none() && shown.encoding_stats.is_none());
        assert!(shown.bloom_filter_offset.is_none());
        assert_eq!(shown.data_page_offset, 4);
        // A plaintext column keeps everything and gets no crypto metadata.
        let mut plain_chunk = chunk.clone();
        plain_chunk.crypto_metadata = None;
        plain_chunk.encrypted_column_metadata = None;
        e.seal_column_chunk(0, 1, &mut plain_chunk).unwrap();
        assert!(plain_chunk.crypto_metadata.is_none());
        assert_eq!(e.footer_chunk(&plain_chunk).meta_data, Some(md));
    }

    #[test]
    fn footer_signature_verifies() {
        let props = FileEncryptionProperties::builder(FOOTER.to_vec())
            .plaintext_footer(true)
            .footer_key_metadata(b"kf".to_vec())
            .build()
            .unwrap();
        let e = FileEncryptor::with_file_unique(props, &schema(), b"abcdefgh".to_vec()).unwrap();
        let md = FileMetaData {
            version: 1,
            schema: schema().to_elements(),
            num_rows: 0,
            row_groups: vec![],
            key_value_metadata: None,
            created_by: None,
            column_orders: None,
            encryption_algorithm: None,
            footer_signing_key_metadata: None,
        };
        let written = e.footer_form(&md);
        assert_eq!(written.footer_signing_key_metadata, Some(b"kf".to_vec()));
        let mut out = Vec::new();
        e.write_footer(&written, &mut out).unwrap();
        let (back, n) = format::decode::<FileMetaData>(&out).unwrap();
        assert_eq!(back, written);
        assert_eq!(out.len() - n, 28);
        let key = FileDecryptionProperties::builder()
            .footer_key(FOOTER.to_vec())
            .build()
            .unwrap()
            .footer_key(None)
            .unwrap();
        ModuleKey::new(&key)
            .unwrap()
            .verify_signature(&out[..n], &footer_aad(b"abcdefgh"), &out[n..])
            .unwrap();
    }
}
