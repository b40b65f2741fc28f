//! The footer: magic bytes, metadata length, FileMetaData and the schema built from it.

use std::sync::Arc;

use crate::core::encryption::{
    module_len, Algorithm, FileDecryptionProperties, ModuleKey, SIGNATURE_LEN,
};
use crate::core::format::{self, EncryptionAlgorithm, FileCryptoMetaData, FileMetaData};
use crate::core::schema::Schema;
use crate::error::{Error, ErrorKind, Result};

use super::decryptor::{
    algorithm_params, decrypt_footer, resolve_file_aad, verify_footer, FileDecryptor,
};
use super::ChunkReader;

/// Magic bytes at both ends of a Parquet file.
pub(crate) const MAGIC: &[u8; 4] = b"PAR1";
/// Magic bytes of a file whose footer is encrypted.
pub(crate) const MAGIC_ENCRYPTED: &[u8; 4] = b"PARE";
/// The 4-byte metadata length plus the 4 magic bytes at the end.
pub(crate) const FOOTER_SIZE: usize = 8;

/// A file's metadata: the footer (`FileMetaData` of parquet.thrift) and the schema built
/// from it, read through accessors: [`num_rows`](Self::num_rows),
/// [`row_group`](Self::row_group) ([`RowGroupMetaData`](super::RowGroupMetaData)), its
/// columns ([`ColumnChunkMetaData`](super::ColumnChunkMetaData)), [`schema`](Self::schema),
/// [`key_value`](Self::key_value) and the rest.
///
/// ```
/// use parquet_serde::core::file::ParquetMetaData;
///
/// #[derive(serde::Serialize, parquet_serde::ParquetSchema)]
/// struct Row { id: i64 }
///
/// let bytes = parquet_serde::to_vec(&[Row { id: 1 }, Row { id: 2 }])?;
/// let md = ParquetMetaData::parse(&bytes[..])?;
/// assert_eq!(md.num_rows(), 2);
/// let rg = md.row_group(0).unwrap();
/// assert_eq!(rg.column(0).unwrap().num_values(), 2);
/// # Ok::<(), parquet_serde::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct ParquetMetaData {
    /// The decoded footer.
    pub(crate) file: FileMetaData,
    /// The schema tree and its column descriptors.
    pub(crate) schema: Schema,
    /// File offset where the serialized FileMetaData starts (column data ends before it).
    pub(crate) footer_offset: u64,
    /// Decryption state of an encrypted file (`None` for plaintext files).
    pub(crate) decryptor: Option<Arc<FileDecryptor>>,
}

impl ParquetMetaData {
    /// Reads and checks the footer of a plaintext file (or the plaintext columns of an
    /// encrypted file with a plaintext footer): magic at both ends, metadata length within
    /// the file, the footer, the schema, and one column chunk per leaf in every row group.
    /// Encrypted files need [`parse_with`](Self::parse_with) and their keys.
    pub fn parse<R: ChunkReader + ?Sized>(reader: &R) -> Result<ParquetMetaData> {
        parse_footer_with(reader, None)
    }

    /// [`parse`](Self::parse) for encrypted files too: with `decryption`, an encrypted
    /// footer (`PARE`) is decrypted, a plaintext footer's signature verified (when the
    /// footer key is known), and the metadata of columns encrypted with their own key
    /// decrypted where their key is known. Columns whose key is missing or wrong stay in the
    /// metadata; reading them fails with an [`ErrorKind::Crypto`](crate::ErrorKind::Crypto)
    /// error naming the column.
    pub fn parse_with<R: ChunkReader + ?Sized>(
        reader: &R,
        decryption: Option<&FileDecryptionProperties>,
    ) -> Result<ParquetMetaData> {
        parse_footer_with(reader, decryption)
    }

    /// Whether the writer is parquet-mr before 1.2.9, whose column chunk sizes leave out the
    /// dictionary page header (PARQUET-816); readers pad those chunks as other readers do.
    pub fn has_parquet_816_bug(&self) -> bool {
        let Some(created_by) = self.file.created_by.as_deref() else {
            return false;
        };
        let mut words = created_by.split_whitespace();
        if words.next() != Some("parquet-mr") {
            return false;
        }
        let version = match (words.next(), words.next()) {
            (Some("version"), Some(v)) => v,
            _ => return true, // no version: older than any fixed one
        };
        let parts: Vec<u32> = version
            .split(|c: char| !c.is_ascii_digit())
            .take(3)
            .map(|p| p.parse().unwrap_or(0))
            .collect();
        let v = (
            parts.first().copied().unwrap_or(0),
            parts.get(1).copied().unwrap_or(0),
            parts.get(2).copied().unwrap_or(0),
        );
        v < (1, 2, 9)
    }

    /// Whether the file uses modular encryption (an encrypted footer, or a signed plaintext
    /// footer with encrypted columns).
    pub fn is_encrypted(&self) -> bool {
        self.decryptor.is_some()
    }

    /// Whether the footer is encrypted (a `PARE` file).
    pub fn has_encrypted_footer(&self) -> bool {
        self.decryptor
            .as_ref()
            .is_some_and(|d| d.encrypted_footer())
    }

    /// The encryption algorithm of an encrypted file.
    pub fn encryption_algorithm(&self) -> Option<Algorithm> {
        self.decryptor.as_ref().map(|d| d.algorithm())
    }

    /// Whether leaf `column` is encrypted.
    pub fn is_column_encrypted(&self, column: usize) -> bool {
        self.decryptor
            .as_ref()
            .is_some_and(|d| d.is_column_encrypted(column))
    }

    /// Whether leaf `column` can be read: it is not encrypted, or its key was given (or
    /// retrieved) and its metadata decrypted.
    pub fn is_column_readable(&self, column: usize) -> bool {
        match &self.decryptor {
            None => true,
            Some(d) => !d.is_column_encrypted(column) || d.has_column_key(column),
        }
    }

    /// Key-value metadata value for `key` (`None` when absent or without a value).
    pub fn key_value(&self, key: &str) -> Option<&str> {
        self.file
            .key_value_metadata
            .as_ref()?
            .iter()
            .find(|kv| kv.key == key)
            .and_then(|kv| kv.value.as_deref())
    }
}

/// [`ParquetMetaData::parse_with`].
pub(crate) fn parse_footer_with<R: ChunkReader + ?Sized>(
    reader: &R,
    decryption: Option<&FileDecryptionProperties>,
) -> Result<ParquetMetaData> {
    parse_footer_checked(reader, decryption, true)
}

/// [`ParquetMetaData::parse_with`] reading only the end of the file: the magic at the start is left
/// for the caller to check (a remote reader fetches it with the first column data).
#[cfg(any(feature = "object_store", feature = "tokio"))]
pub(crate) fn parse_footer_tail<R: ChunkReader + ?Sized>(
    reader: &R,
    decryption: Option<&FileDecryptionProperties>,
) -> Result<ParquetMetaData> {
    parse_footer_checked(reader, decryption, false)
}

fn parse_footer_checked<R: ChunkReader + ?Sized>(
    reader: &R,
    decryption: Option<&FileDecryptionProperties>,
    check_head: bool,
) -> Result<ParquetMetaData> {
    let len = reader.len_bytes();
    if len < (MAGIC.len() + FOOTER_SIZE) as u64 {
        return Err(Error::corrupt(format!(
            "file of {len} bytes is too small to be Parquet (at least 12)"
        )));
    }
    let tail = reader.read_range(len - FOOTER_SIZE as u64, FOOTER_SIZE)?;
    let magic: [u8; 4] = [tail[4], tail[5], tail[6], tail[7]];
    let encrypted_footer = &magic == MAGIC_ENCRYPTED;
    if !encrypted_footer && &magic != MAGIC {
        return Err(Error::corrupt(format!(
            "no PAR1 magic at the end of the file (found {magic:02x?})"
        ))
        .with_offset(len - 4));
    }
    if check_head {
        check_head_magic(&reader.read_range(0, MAGIC.len())?, &magic)?;
    }
    let metadata_len = u32::from_le_bytes([tail[0], tail[1], tail[2], tail[3]]) as u64;
    let max = len - (MAGIC.len() + FOOTER_SIZE) as u64;
    if metadata_len > max {
        return Err(Error::corrupt(format!(
            "footer length {metadata_len} exceeds the {max} bytes between the magic numbers"
        ))
        .with_offset(len - 8));
    }
    let start = len - FOOTER_SIZE as u64 - metadata_len;
    let bytes = reader.read_range(start, metadata_len as usize)?;
    if encrypted_footer {
        return parse_encrypted_footer(&bytes, start, decryption);
    }
    let (mut file, used) = format::decode::<FileMetaData>(&bytes)
        .map_err(|e| e.context("file metadata").with_offset(start))?;
    let schema =
        Schema::from_elements(&file.schema).map_err(|e| e.context("schema in the footer"))?;
    let decryptor = match file.encryption_algorithm.clone() {
        None => None,
        Some(alg) => {
            let d = plaintext_footer_decryptor(&alg, &bytes, used, &mut file, &schema, decryption)
                .map_err(|e| e.with_offset(start))?;
            Some(Arc::new(d))
        }
    };
    check_row_groups(&file, &schema, start)?;
    Ok(ParquetMetaData {
        file,
        schema,
        footer_offset: start,
        decryptor,
    })
}

/// Checks that the file starts with `magic`, the magic found at its end.
pub(crate) fn check_head_magic(head: &[u8], magic: &[u8; 4]) -> Result<()> {
    if head != magic {
        return Err(Error::corrupt(format!(
            "no {} magic at the start of the file",
            String::from_utf8_lossy(magic)
        ))
        .with_offset(0));
    }
    Ok(())
}

/// The footer region of a `PARE` file: FileCryptoMetaData, then the FileMetaData module.
fn parse_encrypted_footer(
    bytes: &[u8],
    start: u64,
    decryption: Option<&FileDecryptionProperties>,
) -> Result<ParquetMetaData> {
    let Some(props) = decryption else {
        return Err(Error::new(
            ErrorKind::Crypto,
            "encrypted footer (PARE file); give a footer key (ReadOptions::decryption) to read it",
        ));
    };
    let (crypto, used) = format::decode::<FileCryptoMetaData>(bytes)
        .map_err(|e| e.context("file crypto metadata").with_offset(start))?;
    let params = algorithm_params(&crypto.encryption_algorithm)?;
    let aad = resolve_file_aad(&params, Some(props))?;
    let key = props.footer_key(crypto.key_metadata.as_deref())?;
    let key = ModuleKey::new(&key)
        .map(Arc::new)
        .map_err(|e| Error::new(ErrorKind::Crypto, format!("footer key: {}", e.message())))?;
    let module = &bytes[used..];
    let module_start = start + used as u64;
    let n = module_len(module).map_err(|e| e.context("footer").with_offset(module_start))?;
    if n > module.len() {
        return Err(Error::corrupt(format!(
            "encrypted footer module of {n} bytes, the footer region holds {}",
            module.len()
        ))
        .with_offset(module_start));
    }
    let (plain, no_aad) =
        decrypt_footer(&key, &module[..n], &aad).map_err(|e| e.with_offset(module_start))?;
    let (mut file, _) = format::decode::<FileMetaData>(&plain).map_err(|e| {
        e.context("decrypted file metadata")
            .with_offset(module_start)
    })?;
    let schema =
        Schema::from_elements(&file.schema).map_err(|e| e.context("schema in the footer"))?;
    let decryptor = FileDecryptor::new(
        params.algorithm,
        aad,
        no_aad,
        true,
        Some(key),
        Some(props),
        &mut file,
        &schema,
    )?;
    check_row_groups(&file, &schema, start)?;
    Ok(ParquetMetaData {
        file,
        schema,
        footer_offset: start,
        decryptor: Some(Arc::new(decryptor)),
    })
}

/// A plaintext footer of an encrypted file: FileMetaData (its first `used` bytes of
/// `bytes`) followed by its 28-byte signature, checked when the footer key is known.
fn plaintext_footer_decryptor(
    alg: &EncryptionAlgorithm,
    bytes: &[u8],
    used: usize,
    file: &mut FileMetaData,
    schema: &Schema,
    decryption: Option<&FileDecryptionProperties>,
) -> Result<FileDecryptor> {
    let signature = &bytes[used..];
    if signature.len() != SIGNATURE_LEN {
        return Err(Error::corrupt(format!(
            "plaintext footer of an encrypted file is followed by {} bytes, not its \
             {SIGNATURE_LEN}-byte signature",
            signature.len()
        )));
    }
    let params = algorithm_params(alg)?;
    // Without keys the plaintext columns are readable; the file AAD matters only with keys.
    let aad = match decryption {
        Some(p) => resolve_file_aad(&params, Some(p))?,
        None => params.aad_file_unique.to_vec(),
    };
    let footer_key = decryption.and_then(|p| {
        p.footer_key(file.footer_signing_key_metadata.as_deref())
            .ok()
            .and_then(|k| ModuleKey::new(&k).ok())
            .map(Arc::new)
    });
    if let (Some(key), Some(p)) = (&footer_key, decryption) {
        if p.verify_plaintext_footer() {
            verify_footer(key, &bytes[..used], signature, &aad)?;
        }
    }
    FileDecryptor::new(
        params.algorithm,
        aad,
        false,
        false,
        footer_key,
        decryption,
        file,
        schema,
    )
}

fn check_row_groups(file: &FileMetaData, schema: &Schema, footer_start: u64) -> Result<()> {
    if file.num_rows < 0 {
        return Err(Error::corrupt(format!(
            "negative num_rows {}",
            file.num_rows
        )));
    }
    for (i, rg) in file.row_groups.iter().enumerate() {
        if rg.columns.len() != schema.num_columns() {
            return Err(Error::corrupt(format!(
                "row group has {} column chunks, the schema {} leaves",
                rg.columns.len(),
                schema.num_columns()
            ))
            .with_row_group(i));
        }
        if rg.num_rows < 0 {
            return Err(
                Error::corrupt(format!("negative num_rows {}", rg.num_rows)).with_row_group(i)
            );
        }
        for (c, chunk) in rg.columns.iter().enumerate() {
            let path = || schema.columns()[c].path.to_string();
            if let Some(md) = &chunk.meta_data {
                if md.total_compressed_size < 0 || md.data_page_offset < 0 || md.num_values < 0 {
                    return Err(Error::corrupt(
                        "negative size, offset or count in column metadata",
                    )
                    .with_row_group(i)
                    .with_column(path()));
                }
                let (start, len) = super::reader::chunk_range(md);
                if start.checked_add(len).is_none_or(|end| end > footer_start) {
                    return Err(Error::corrupt(format!(
                        "column chunk at {start}..{} overlaps the footer at {footer_start}",
                        start as u128 + len as u128
                    ))
                    .with_row_group(i)
                    .with_column(path()));
                }
            }
        }
    }
    Ok(())
}
