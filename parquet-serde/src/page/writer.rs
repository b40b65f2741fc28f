//! [`PageWriter`]: compresses a page, encrypts it when the column is encrypted, checksums it
//! and writes header + bytes.

use std::sync::Arc;

use crate::compression::Compression;
use crate::encryption::{module_aad, set_page_ordinal, ModuleKey, ModuleType};
use crate::error::{Error, Result};
use crate::format::{
    self, DataPageHeader, DataPageHeaderV2, DictionaryPageHeader, Encoding, PageHeader, PageType,
    Statistics,
};

/// What a [`PageWriter`] wrote for one page.
#[derive(Debug, Clone, PartialEq)]
pub struct WrittenPage {
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
    /// Header plus stored bytes: the page's size in the file.
    pub fn total_compressed(&self) -> usize {
        self.header_len + self.compressed_size
    }

    /// Header plus decompressed bytes.
    pub fn total_uncompressed(&self) -> usize {
        self.header_len + self.uncompressed_size
    }
}

/// Serializes pages: compression, encryption (of encrypted columns), CRC32 and the Thrift
/// header.
#[derive(Debug)]
pub struct PageWriter {
    compression: Compression,
    write_checksums: bool,
    scratch: Vec<u8>,
    encryptor: Option<Box<PageEncryptor>>,
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
    /// Ordinal of the next data page in the chunk.
    next_page: usize,
    header: Vec<u8>,
    body: Vec<u8>,
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
            next_page: 0,
            header: Vec::new(),
            body: Vec::new(),
        })
    }

    /// Encrypts `stored` (the compressed page) and `header`, and appends both modules to
    /// `out`: returns their lengths. The header's `compressed_page_size` is the body
    /// module's length, its CRC (when `checksum`) is over the body module as written, as
    /// the specification says and Arrow C++ does.
    fn write(
        &mut self,
        mut header: PageHeader,
        stored: &[u8],
        checksum: bool,
        out: &mut Vec<u8>,
    ) -> Result<(usize, usize)> {
        let dictionary = header.r#type == PageType::DictionaryPage;
        if !dictionary {
            set_page_ordinal(&mut self.data_aad, self.next_page)?;
            set_page_ordinal(&mut self.data_header_aad, self.next_page)?;
        }
        let (body_aad, header_aad) = if dictionary {
            (&self.dictionary_aad, &self.dictionary_header_aad)
        } else {
            (&self.data_aad, &self.data_header_aad)
        };
        self.body.clear();
        if self.ctr {
            self.key.ctr_encrypt(stored, &mut self.body)?;
        } else {
            self.key.gcm_encrypt(stored, body_aad, &mut self.body)?;
        }
        header.compressed_page_size = page_size(self.body.len())?;
        if checksum {
            header.crc = Some(crc32fast::hash(&self.body) as i32);
        }
        self.header.clear();
        format::encode(&header, &mut self.header);
        let start = out.len();
        self.key.gcm_encrypt(&self.header, header_aad, out)?;
        let header_len = out.len() - start;
        out.extend_from_slice(&self.body);
        if !dictionary {
            self.next_page += 1;
        }
        Ok((header_len, self.body.len()))
    }
}

fn page_size(n: usize) -> Result<i32> {
    i32::try_from(n)
        .map_err(|_| Error::invalid_argument(format!("page of {n} bytes exceeds 2 GiB")))
}

impl PageWriter {
    /// A writer compressing with `compression`, writing a CRC32 on every page when
    /// `write_checksums`.
    pub fn new(compression: Compression, write_checksums: bool) -> Self {
        PageWriter {
            compression,
            write_checksums,
            scratch: Vec::new(),
            encryptor: None,
        }
    }

    /// Encrypts every page written from now on with `encryptor`.
    pub(crate) fn set_encryptor(&mut self, encryptor: PageEncryptor) {
        self.encryptor = Some(Box::new(encryptor));
    }

    fn finish(
        &mut self,
        mut header: PageHeader,
        parts: &[&[u8]],
        compress: bool,
        out: &mut Vec<u8>,
    ) -> Result<(usize, usize)> {
        // `scratch` receives the stored page bytes: raw parts that are not compressed
        // (v2 levels) followed by the compressed rest.
        self.scratch.clear();
        let uncompressed: usize = parts.iter().map(|p| p.len()).sum();
        let (raw, rest) = parts.split_at(parts.len() - 1);
        for p in raw {
            self.scratch.extend_from_slice(p);
        }
        if compress && self.compression != Compression::Uncompressed {
            self.compression.compress(rest[0], &mut self.scratch)?;
        } else {
            self.scratch.extend_from_slice(rest[0]);
        }
        header.uncompressed_page_size = page_size(uncompressed)?;
        if let Some(encryptor) = self.encryptor.as_mut() {
            return encryptor.write(header, &self.scratch, self.write_checksums, out);
        }
        header.compressed_page_size = page_size(self.scratch.len())?;
        if self.write_checksums {
            header.crc = Some(crc32fast::hash(&self.scratch) as i32);
        }
        let start = out.len();
        format::encode(&header, out);
        let header_len = out.len() - start;
        out.extend_from_slice(&self.scratch);
        Ok((header_len, self.scratch.len()))
    }

    fn header(page_type: PageType) -> PageHeader {
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

    /// Writes a dictionary page of `num_values` PLAIN-encoded entries.
    pub fn write_dictionary(
        &mut self,
        values: &[u8],
        num_values: usize,
        out: &mut Vec<u8>,
    ) -> Result<WrittenPage> {
        let mut header = Self::header(PageType::DictionaryPage);
        header.dictionary_page_header = Some(DictionaryPageHeader {
            num_values: page_size(num_values)?,
            encoding: Encoding::Plain,
            is_sorted: Some(false),
        });
        let (header_len, compressed_size) = self.finish(header, &[values], true, out)?;
        Ok(WrittenPage {
            page_type: PageType::DictionaryPage,
            encoding: Encoding::Plain,
            header_len,
            compressed_size,
            uncompressed_size: values.len(),
            num_values,
        })
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
        let mut header = Self::header(PageType::DataPage);
        header.data_page_header = Some(DataPageHeader {
            num_values: page_size(num_values)?,
            encoding,
            definition_level_encoding: Encoding::Rle,
            repetition_level_encoding: Encoding::Rle,
            statistics,
        });
        let (header_len, compressed_size) = self.finish(header, &[body], true, out)?;
        Ok(WrittenPage {
            page_type: PageType::DataPage,
            encoding,
            header_len,
            compressed_size,
            uncompressed_size: body.len(),
            num_values,
        })
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
        let (num_values, num_nulls, num_rows) = counts;
        let compressed = self.compression != Compression::Uncompressed;
        let mut header = Self::header(PageType::DataPageV2);
        header.data_page_header_v2 = Some(DataPageHeaderV2 {
            num_values: page_size(num_values)?,
            num_nulls: page_size(num_nulls)?,
            num_rows: page_size(num_rows)?,
            encoding,
            definition_levels_byte_length: page_size(def_levels.len())?,
            repetition_levels_byte_length: page_size(rep_levels.len())?,
            is_compressed: Some(compressed),
            statistics,
        });
        let (header_len, compressed_size) =
            self.finish(header, &[rep_levels, def_levels, values], compressed, out)?;
        Ok(WrittenPage {
            page_type: PageType::DataPageV2,
            encoding,
            header_len,
            compressed_size,
            uncompressed_size: rep_levels.len() + def_levels.len() + values.len(),
            num_values,
        })
    }
}
