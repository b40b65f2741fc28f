//! [`PageWriter`]: compresses a page, encrypts it when the column is encrypted, checksums it
//! and writes header + bytes.

use std::borrow::Cow;
use std::sync::Arc;

use crate::core::compression::Compression;
use crate::core::encryption::{module_aad, set_page_ordinal, ModuleKey, ModuleType};
use crate::core::format::{
    self, DataPageHeader, DataPageHeaderV2, DictionaryPageHeader, Encoding, PageHeader, PageType,
    Statistics,
};
use crate::error::{Error, Result};

/// What was stored for one page.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct WrittenPage {
    /// Kind of page.
    pub page_type: PageType,
    /// Encoding of its values.
    pub encoding: Encoding,
    /// Bytes of the serialized header (of its encrypted module in encrypted columns).
    pub header_len: usize,
    /// Stored (compressed, and encrypted in encrypted columns) bytes after the header.
    pub compressed_size: usize,
    /// Decompressed bytes after the header.
    pub uncompressed_size: usize,
    /// Values (levels) in the page; entries for a dictionary page.
    pub num_values: usize,
}

impl WrittenPage {
    /// Header plus decompressed bytes.
    pub fn total_uncompressed(&self) -> usize {
        self.header_len + self.uncompressed_size
    }
}

/// A page encoded and not yet stored: the codec compresses it (and encrypts it in encrypted
/// columns), checksums it and writes its header. Pages of one column chunk can be stored
/// on any thread, in any order.
#[derive(Debug)]
pub(crate) struct EncodedPage {
    /// The header, without sizes and CRC (the codec fills them in).
    pub header: PageHeader,
    /// The page as decompressed: a v1 data page's levels and values, a v2 data page's
    /// repetition levels, definition levels and values, a dictionary page's values.
    pub body: Vec<u8>,
    /// Bytes at the start of `body` stored as they are (the levels of a v2 data page).
    pub raw_prefix: usize,
    /// Whether the rest of `body` is compressed (when the codec compresses at all).
    pub compress: bool,
    /// Ordinal of a data page in its chunk (encrypted columns bind pages to it).
    pub ordinal: usize,
}

impl EncodedPage {
    /// What the page is, as [`WrittenPage`] says it once stored (sizes left at 0).
    fn describe(&self) -> WrittenPage {
        let h = &self.header;
        let (encoding, num_values) = if let Some(d) = &h.data_page_header {
            (d.encoding, d.num_values)
        } else if let Some(d) = &h.data_page_header_v2 {
            (d.encoding, d.num_values)
        } else if let Some(d) = &h.dictionary_page_header {
            (d.encoding, d.num_values)
        } else {
            (Encoding::Plain, 0)
        };
        WrittenPage {
            page_type: h.r#type,
            encoding,
            header_len: 0,
            compressed_size: 0,
            uncompressed_size: self.body.len(),
            num_values: num_values.max(0) as usize,
        }
    }
}

/// A stored page: its header followed by its stored bytes, as they go in the file.
#[derive(Debug)]
pub(crate) struct StoredPage {
    /// Header and stored bytes.
    pub bytes: Vec<u8>,
    /// What was written.
    pub info: WrittenPage,
}

/// Turns [`EncodedPage`]s into [`StoredPage`]s: compression, encryption (of encrypted
/// columns), CRC32 and the Thrift header. Shared by the threads storing a chunk's pages.
#[derive(Debug)]
pub(crate) struct PageCodec {
    compression: Compression,
    write_checksums: bool,
    encryptor: Option<PageEncryptor>,
}

impl PageCodec {
    /// A codec compressing with `compression`, writing a CRC32 on every page when
    /// `write_checksums`, encrypting with `encryptor` when given.
    pub(crate) fn new(
        compression: Compression,
        write_checksums: bool,
        encryptor: Option<PageEncryptor>,
    ) -> Self {
        PageCodec {
            compression,
            write_checksums,
            encryptor,
        }
    }

    /// Stores `page`; `scratch` is working memory (kept between calls by the caller).
    pub(crate) fn store(&self, page: &EncodedPage, scratch: &mut Vec<u8>) -> Result<StoredPage> {
        let mut info = page.describe();
        let mut header = page.header.clone();
        header.uncompressed_page_size = page_size(page.body.len())?;
        let raw = page.raw_prefix.min(page.body.len());
        // The stored bytes: the body itself when nothing is compressed, else `scratch`
        // holding the raw prefix and the compressed rest.
        let stored: &[u8] = if page.compress && self.compression != Compression::Uncompressed {
            // `scratch` keeps its length between pages (see `compress_reusing`): only its
            // first `end` bytes are this page's.
            if scratch.len() < raw {
                scratch.resize(raw, 0);
            }
            scratch[..raw].copy_from_slice(&page.body[..raw]);
            let end = self
                .compression
                .compress_reusing(&page.body[raw..], scratch, raw)?;
            &scratch[..end]
        } else {
            &page.body
        };
        if let Some(encryptor) = &self.encryptor {
            let (bytes, header_len, body_len) =
                encryptor.write(header, stored, page.ordinal, self.write_checksums)?;
            info.header_len = header_len;
            info.compressed_size = body_len;
            return Ok(StoredPage { bytes, info });
        }
        header.compressed_page_size = page_size(stored.len())?;
        if self.write_checksums {
            header.crc = Some(crc32fast::hash(stored) as i32);
        }
        let mut bytes = Vec::with_capacity(stored.len() + 64);
        format::encode(&header, &mut bytes);
        info.header_len = bytes.len();
        info.compressed_size = stored.len();
        bytes.extend_from_slice(stored);
        Ok(StoredPage { bytes, info })
    }
}

/// Encrypts the pages of one column chunk (Parquet modular encryption): each page body and
/// each page header becomes a module of its own, bound by its AAD to the file, the row
/// group, the column and (for data pages) the page ordinal.
#[derive(Debug)]
pub(crate) struct PageEncryptor {
    key: Arc<ModuleKey>,
    /// AES-CTR for page bodies (`AES_GCM_CTR_V1`); headers always use AES-GCM.
    ctr: bool,
    data_aad: Vec<u8>,
    data_header_aad: Vec<u8>,
    dictionary_aad: Vec<u8>,
    dictionary_header_aad: Vec<u8>,
}

impl PageEncryptor {
    /// Pages of column `column` in row group `row_group` of the file whose AAD is `file_aad`,
    /// encrypted with `key`; page bodies under AES-CTR when `ctr`.
    pub(crate) fn new(
        key: Arc<ModuleKey>,
        ctr: bool,
        file_aad: &[u8],
        row_group: usize,
        column: usize,
    ) -> Result<Self> {
        let aad = |m| module_aad(file_aad, m, row_group, column, 0);
        Ok(PageEncryptor {
            key,
            ctr,
            data_aad: aad(ModuleType::DataPage)?,
            data_header_aad: aad(ModuleType::DataPageHeader)?,
            dictionary_aad: aad(ModuleType::DictionaryPage)?,
            dictionary_header_aad: aad(ModuleType::DictionaryPageHeader)?,
        })
    }

    /// Encrypts `stored` (the compressed page) and `header` of data page `ordinal` (ignored
    /// for a dictionary page): returns both modules, header first, and their lengths. The
    /// header's `compressed_page_size` is the body module's length, its CRC (when
    /// `checksum`) is over the body module as written, as the specification says and Arrow
    /// C++ does.
    fn write(
        &self,
        mut header: PageHeader,
        stored: &[u8],
        ordinal: usize,
        checksum: bool,
    ) -> Result<(Vec<u8>, usize, usize)> {
        let dictionary = header.r#type == PageType::DictionaryPage;
        let (body_aad, header_aad) = if dictionary {
            (
                Cow::Borrowed(&self.dictionary_aad),
                Cow::Borrowed(&self.dictionary_header_aad),
            )
        } else {
            let mut body_aad = self.data_aad.clone();
            let mut header_aad = self.data_header_aad.clone();
            set_page_ordinal(&mut body_aad, ordinal)?;
            set_page_ordinal(&mut header_aad, ordinal)?;
            (Cow::Owned(body_aad), Cow::Owned(header_aad))
        };
        let mut body = Vec::new();
        if self.ctr {
            self.key.ctr_encrypt(stored, &mut body)?;
        } else {
            self.key.gcm_encrypt(stored, &body_aad, &mut body)?;
        }
        header.compressed_page_size = page_size(body.len())?;
        if checksum {
            header.crc = Some(crc32fast::hash(&body) as i32);
        }
        let mut plain_header = Vec::new();
        format::encode(&header, &mut plain_header);
        let mut out = Vec::with_capacity(plain_header.len() + 64 + body.len());
        self.key.gcm_encrypt(&plain_header, &header_aad, &mut out)?;
        let header_len = out.len();
        out.extend_from_slice(&body);
        Ok((out, header_len, body.len()))
    }
}

fn page_size(n: usize) -> Result<i32> {
    i32::try_from(n)
        .map_err(|_| Error::invalid_argument(format!("page of {n} bytes exceeds 2 GiB")))
}

/// Serializes pages: compression, encryption (of encrypted columns), CRC32 and the Thrift
/// header (the unit tests' page source; the column writer stores pages through
/// [`PageCodec`]).
#[cfg(test)]
#[derive(Debug)]
pub(crate) struct PageWriter {
    codec: PageCodec,
    /// Ordinal of the next data page.
    next_page: usize,
    scratch: Vec<u8>,
}

/// A header of `page_type` with no sizes, CRC or kind-specific part yet.
fn bare_header(page_type: PageType) -> PageHeader {
    PageHeader {
        r#type: page_type,
        uncompressed_page_size: 0,
        compressed_page_size: 0,
        crc: None,
        data_page_header: None,
        index_page_header: None,
        dictionary_page_header: None,
        data_page_header_v2: None,
    }
}

/// An encoded dictionary page of `num_values` PLAIN-encoded entries in `values`.
pub(crate) fn dictionary_page(values: Vec<u8>, num_values: usize) -> Result<EncodedPage> {
    let mut header = bare_header(PageType::DictionaryPage);
    header.dictionary_page_header = Some(DictionaryPageHeader {
        num_values: page_size(num_values)?,
        encoding: Encoding::Plain,
        is_sorted: Some(false),
    });
    Ok(EncodedPage {
        header,
        body: values,
        raw_prefix: 0,
        compress: true,
        ordinal: 0,
    })
}

/// An encoded data page v1 (data page `ordinal` of its chunk) whose `body` holds the
/// repetition levels, definition levels (each RLE with a 4-byte length) and the values.
pub(crate) fn data_page_v1(
    body: Vec<u8>,
    num_values: usize,
    encoding: Encoding,
    statistics: Option<Statistics>,
    ordinal: usize,
) -> Result<EncodedPage> {
    let mut header = bare_header(PageType::DataPage);
    header.data_page_header = Some(DataPageHeader {
        num_values: page_size(num_values)?,
        encoding,
        definition_level_encoding: Encoding::Rle,
        repetition_level_encoding: Encoding::Rle,
        statistics,
    });
    Ok(EncodedPage {
        header,
        body,
        raw_prefix: 0,
        compress: true,
        ordinal,
    })
}

/// An encoded data page v2 (data page `ordinal` of its chunk) whose `body` holds
/// `rep_len` bytes of repetition levels, `def_len` bytes of definition levels (stored
/// uncompressed), then the values (compressed when `compressed`). `counts` are the
/// numbers of values, nulls and rows.
#[allow(clippy::too_many_arguments)]
pub(crate) fn data_page_v2(
    body: Vec<u8>,
    rep_len: usize,
    def_len: usize,
    counts: (usize, usize, usize),
    encoding: Encoding,
    statistics: Option<Statistics>,
    compressed: bool,
    ordinal: usize,
) -> Result<EncodedPage> {
    let (num_values, num_nulls, num_rows) = counts;
    let mut header = bare_header(PageType::DataPageV2);
    header.data_page_header_v2 = Some(DataPageHeaderV2 {
        num_values: page_size(num_values)?,
        num_nulls: page_size(num_nulls)?,
        num_rows: page_size(num_rows)?,
        encoding,
        definition_levels_byte_length: page_size(def_len)?,
        repetition_levels_byte_length: page_size(rep_len)?,
        is_compressed: Some(compressed),
        statistics,
    });
    Ok(EncodedPage {
        header,
        body,
        raw_prefix: rep_len + def_len,
        compress: compressed,
        ordinal,
    })
}

#[cfg(test)]
#[allow(dead_code)] // the unit tests use some of the page kinds
impl PageWriter {
    /// A writer compressing with `compression`, writing a CRC32 on every page when
    /// `write_checksums`.
    pub fn new(compression: Compression, write_checksums: bool) -> Self {
        PageWriter {
            codec: PageCodec::new(compression, write_checksums, None),
            next_page: 0,
            scratch: Vec::new(),
        }
    }

    fn store(&mut self, page: EncodedPage, out: &mut Vec<u8>) -> Result<WrittenPage> {
        let stored = self.codec.store(&page, &mut self.scratch)?;
        out.extend_from_slice(&stored.bytes);
        Ok(stored.info)
    }

    /// Writes a dictionary page of `num_values` PLAIN-encoded entries.
    pub fn write_dictionary(
        &mut self,
        values: &[u8],
        num_values: usize,
        out: &mut Vec<u8>,
    ) -> Result<WrittenPage> {
        let page = dictionary_page(values.to_vec(), num_values)?;
        self.store(page, out)
    }

    /// Writes a data page v1 whose `body` holds the repetition levels, definition levels
    /// (each RLE with a 4-byte length) and the values.
    pub fn write_data_v1(
        &mut self,
        body: &[u8],
        num_values: usize,
        encoding: Encoding,
        statistics: Option<Statistics>,
        out: &mut Vec<u8>,
    ) -> Result<WrittenPage> {
        let page = data_page_v1(
            body.to_vec(),
            num_values,
            encoding,
            statistics,
            self.next_page,
        )?;
        let written = self.store(page, out)?;
        self.next_page += 1;
        Ok(written)
    }

    /// Writes a data page v2: levels stored uncompressed, values compressed (when the
    /// writer compresses at all).
    #[allow(clippy::too_many_arguments)]
    pub fn write_data_v2(
        &mut self,
        rep_levels: &[u8],
        def_levels: &[u8],
        values: &[u8],
        counts: (usize, usize, usize),
        encoding: Encoding,
        statistics: Option<Statistics>,
        out: &mut Vec<u8>,
    ) -> Result<WrittenPage> {
        let compressed = self.codec.compression != Compression::Uncompressed;
        let mut body = Vec::with_capacity(rep_levels.len() + def_levels.len() + values.len());
        body.extend_from_slice(rep_levels);
        body.extend_from_slice(def_levels);
        body.extend_from_slice(values);
        let page = data_page_v2(
            body,
            rep_levels.len(),
            def_levels.len(),
            counts,
            encoding,
            statistics,
            compressed,
            self.next_page,
        )?;
        let written = self.store(page, out)?;
        self.next_page += 1;
        Ok(written)
    }
}
