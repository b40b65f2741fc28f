//! [`PageReader`]: the pages of one column chunk, checked and decompressed.

use std::borrow::Cow;

use super::PageDecryptor;
use super::RawStatistics;
use crate::core::compression::decompress_reusing;
use crate::core::format::{self, CompressionCodec, Encoding, PageHeader, PageType};
use crate::error::{Error, Result};

use super::Page;

/// Options of a [`PageReader`] (from `ReadOptions`: `verify_checksums`, `max_page_size`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PageReaderOptions {
    /// Verify page CRC32 checksums where the writer stored them (default true).
    pub verify_checksums: bool,
    /// Largest decompressed page accepted, in bytes (default 1 GiB): a header claiming more
    /// is treated as corrupt rather than allocated.
    pub max_page_size: usize,
}

impl Default for PageReaderOptions {
    fn default() -> Self {
        PageReaderOptions {
            verify_checksums: true,
            max_page_size: 1 << 30,
        }
    }
}

/// A page as stored: its header (read through accessors) and its (compressed) bytes.
#[derive(Debug, Clone)]
pub struct RawPage<'a> {
    /// The decoded header.
    pub(crate) header: PageHeader,
    /// File offset of the header.
    pub offset: u64,
    /// Bytes of the serialized header (of its encrypted module in encrypted chunks).
    pub header_len: usize,
    /// The stored page bytes (compressed, after the header); in encrypted chunks the
    /// encrypted module.
    pub data: &'a [u8],
    /// The decrypted page bytes (still compressed) of an encrypted chunk.
    pub decrypted: Option<Vec<u8>>,
}

impl RawPage<'_> {
    /// The page bytes as the codec sees them: decrypted when the chunk is encrypted.
    pub fn body(&self) -> &[u8] {
        self.decrypted.as_deref().unwrap_or(self.data)
    }

    /// Kind of page (`PageHeader.type`).
    pub fn page_type(&self) -> PageType {
        self.header.r#type
    }

    /// Size of the page after its header as stored (`PageHeader.compressed_page_size`).
    pub fn compressed_size(&self) -> i32 {
        self.header.compressed_page_size
    }

    /// Size of the page after its header, uncompressed
    /// (`PageHeader.uncompressed_page_size`).
    pub fn uncompressed_size(&self) -> i32 {
        self.header.uncompressed_page_size
    }

    /// CRC32 of the stored page bytes (`PageHeader.crc`), when written.
    pub fn crc(&self) -> Option<u32> {
        self.header.crc.map(|c| c as u32)
    }

    /// Number of values, nulls included (`num_values` of the data page v1 or v2 header),
    /// or entries of a dictionary page; `None` for other pages.
    pub fn num_values(&self) -> Option<i32> {
        let h = &self.header;
        h.data_page_header
            .as_ref()
            .map(|d| d.num_values)
            .or_else(|| h.data_page_header_v2.as_ref().map(|d| d.num_values))
            .or_else(|| h.dictionary_page_header.as_ref().map(|d| d.num_values))
    }

    /// Encoding of the values (`encoding` of the data page v1 or v2 or dictionary page
    /// header); `None` for other pages.
    pub fn encoding(&self) -> Option<Encoding> {
        let h = &self.header;
        h.data_page_header
            .as_ref()
            .map(|d| d.encoding)
            .or_else(|| h.data_page_header_v2.as_ref().map(|d| d.encoding))
            .or_else(|| h.dictionary_page_header.as_ref().map(|d| d.encoding))
    }

    /// Encodings of the definition and repetition levels of a data page v1
    /// (`DataPageHeader.definition_level_encoding`, `.repetition_level_encoding`).
    pub fn level_encodings(&self) -> Option<(Encoding, Encoding)> {
        let d = self.header.data_page_header.as_ref()?;
        Some((d.definition_level_encoding, d.repetition_level_encoding))
    }

    /// Nulls of a data page v2 (`DataPageHeaderV2.num_nulls`).
    pub fn num_nulls(&self) -> Option<i32> {
        Some(self.header.data_page_header_v2.as_ref()?.num_nulls)
    }

    /// Rows of a data page v2 (`DataPageHeaderV2.num_rows`).
    pub fn num_rows(&self) -> Option<i32> {
        Some(self.header.data_page_header_v2.as_ref()?.num_rows)
    }

    /// Byte lengths of the definition and repetition levels of a data page v2
    /// (`DataPageHeaderV2.definition_levels_byte_length`, `.repetition_levels_byte_length`).
    pub fn level_byte_lengths(&self) -> Option<(i32, i32)> {
        let d = self.header.data_page_header_v2.as_ref()?;
        Some((
            d.definition_levels_byte_length,
            d.repetition_levels_byte_length,
        ))
    }

    /// Whether the values of a data page v2 are compressed
    /// (`DataPageHeaderV2.is_compressed`, `true` when absent).
    pub fn values_compressed(&self) -> Option<bool> {
        Some(
            self.header
                .data_page_header_v2
                .as_ref()?
                .values_compressed(),
        )
    }

    /// Statistics of a data page (`statistics` of its v1 or v2 header), as written.
    pub fn statistics(&self) -> Option<RawStatistics<'_>> {
        let h = &self.header;
        h.data_page_header
            .as_ref()
            .and_then(|d| d.statistics.as_ref())
            .or_else(|| {
                h.data_page_header_v2
                    .as_ref()
                    .and_then(|d| d.statistics.as_ref())
            })
            .map(RawStatistics)
    }
}

/// Walks the pages of one column chunk held in memory.
///
/// It stops after the data pages have covered `num_values` values (the column chunk's
/// count), so bytes a writer left after the last page are never decoded.
#[derive(Debug)]
pub struct PageReader<'a> {
    data: &'a [u8],
    /// The length of the chunk's bytes when [`park`](Self::park)ed (its `data` is then
    /// empty); 0 otherwise.
    parked_len: usize,
    pos: usize,
    file_offset: u64,
    codec: CompressionCodec,
    options: PageReaderOptions,
    num_values: u64,
    values_seen: u64,
    ordinal: usize,
    data_pages: usize,
    decryptor: Option<Box<PageDecryptor>>,
    /// A decompression buffer handed back by [`recycle`](Self::recycle), reused for the
    /// next compressed page (its memory is already mapped and warm).
    spare: Vec<u8>,
}

impl PageReader<'static> {
    /// A [`park`](PageReader::park)ed reader over `data`, the bytes of the same column chunk
    /// again: it goes on at the page where it stopped. Bytes of another length are an
    /// error (they cannot be the same chunk).
    pub(crate) fn resume(self, data: &[u8]) -> Result<PageReader<'_>> {
        if data.len() != self.parked_len {
            return Err(Error::new(
                crate::error::ErrorKind::Internal,
                format!(
                    "a column chunk of {} bytes resumed over {} bytes",
                    self.parked_len,
                    data.len()
                ),
            ));
        }
        let parked_len = self.parked_len;
        Ok(self.rebind(data, parked_len))
    }
}

impl<'a> PageReader<'a> {
    /// A reader over the bytes of one column chunk that starts at `file_offset` in the file,
    /// compressed with `codec`, holding `num_values` values (from the column metadata).
    pub(crate) fn new(
        data: &'a [u8],
        file_offset: u64,
        codec: CompressionCodec,
        num_values: i64,
        options: PageReaderOptions,
    ) -> Self {
        PageReader {
            data,
            parked_len: 0,
            pos: 0,
            file_offset,
            codec,
            options,
            num_values: num_values.max(0) as u64,
            values_seen: 0,
            ordinal: 0,
            data_pages: 0,
            decryptor: None,
            spare: Vec::new(),
        }
    }

    /// This reader without its chunk's bytes, to be kept between calls that each hold the
    /// bytes for a while (a column chunk read a window of rows at a time): every position
    /// and count stays, and [`resume`](PageReader::resume) goes on where it stopped.
    pub(crate) fn park(self) -> PageReader<'static> {
        let parked_len = self.data.len();
        self.rebind(&[], parked_len)
    }

    /// This reader over `data` instead, every position and count kept (what
    /// [`park`](Self::park) and [`resume`](PageReader::resume) share).
    fn rebind(self, data: &[u8], parked_len: usize) -> PageReader<'_> {
        PageReader {
            data,
            parked_len,
            pos: self.pos,
            file_offset: self.file_offset,
            codec: self.codec,
            options: self.options,
            num_values: self.num_values,
            values_seen: self.values_seen,
            ordinal: self.ordinal,
            data_pages: self.data_pages,
            decryptor: self.decryptor,
            spare: self.spare,
        }
    }

    /// Hands back a page this reader returned once its bytes are no longer needed: its
    /// decompression buffer serves the next compressed page instead of a fresh allocation.
    pub fn recycle(&mut self, page: Page<'a>) {
        let buf = match page {
            Page::Dictionary { buf, .. } | Page::DataV1 { buf, .. } => buf,
            Page::DataV2 { values, .. } => values,
        };
        if let Cow::Owned(v) = buf {
            if v.capacity() > self.spare.capacity() {
                self.spare = v;
            }
        }
    }

    /// Decrypts every page header and page with `decryptor` (encrypted column chunks).
    pub(crate) fn with_decryptor(mut self, decryptor: Option<PageDecryptor>) -> Self {
        self.decryptor = decryptor.map(Box::new);
        self
    }

    /// Ordinal of the next page (dictionary page included).
    pub fn page_ordinal(&self) -> usize {
        self.ordinal
    }

    fn offset(&self) -> u64 {
        self.file_offset + self.pos as u64
    }

    /// The next page header and its stored bytes, or `None` after the last page.
    pub fn next_raw(&mut self) -> Result<Option<RawPage<'a>>> {
        if self.pos >= self.data.len() || self.values_seen >= self.num_values {
            return Ok(None);
        }
        let offset = self.offset();
        let page = self.ordinal;
        let at = |e: Error| e.with_page(page).with_offset(offset);
        let rest = &self.data[self.pos..];
        let (header, header_len) = match self.decryptor.as_deref_mut() {
            None => format::decode::<PageHeader>(rest).map_err(|e| at(e.context("page header")))?,
            Some(d) => {
                let len = d.header_len(rest).map_err(at)?;
                let plain = d
                    .decrypt_header(&rest[..len], page, self.data_pages)
                    .map_err(at)?;
                let (header, _) = format::decode::<PageHeader>(&plain)
                    .map_err(|e| at(e.context("decrypted page header")))?;
                (header, len)
            }
        };
        let compressed = usize::try_from(header.compressed_page_size).map_err(|_| {
            at(Error::corrupt(format!(
                "negative compressed_page_size {}",
                header.compressed_page_size
            )))
        })?;
        if header.uncompressed_page_size < 0 {
            return Err(at(Error::corrupt(format!(
                "negative uncompressed_page_size {}",
                header.uncompressed_page_size
            ))));
        }
        let start = self.pos + header_len;
        let compressed = match self.decryptor.as_deref() {
            Some(d) if d.body_len_from_prefix() => d
                .header_len(&self.data[start.min(self.data.len())..])
                .map_err(|e| at(e.context("encrypted page")))?,
            _ => compressed,
        };
        let end = start
            .checked_add(compressed)
            .filter(|&end| end <= self.data.len())
            .ok_or_else(|| {
                at(Error::corrupt(format!(
                    "page of {compressed} bytes runs past the end of the column chunk ({} bytes left)",
                    self.data.len() - start.min(self.data.len())
                )))
            })?;
        let data = &self.data[start..end];
        let decrypted = match self.decryptor.as_deref_mut() {
            None => None,
            Some(d) => d
                .decrypt_body(data, header.r#type, self.data_pages)
                .map_err(at)?,
        };
        if self.options.verify_checksums {
            if let Some(crc) = header.crc {
                // Writers of encrypted files (parquet-java, Arrow C++) checksum the stored,
                // encrypted bytes; the decrypted bytes are accepted as well.
                let actual = crc32fast::hash(data);
                let matches = actual == crc as u32
                    || decrypted
                        .as_deref()
                        .is_some_and(|p| crc32fast::hash(p) == crc as u32);
                if !matches {
                    return Err(at(Error::new(
                        crate::ErrorKind::Checksum,
                        format!(
                            "page CRC32 is {actual:#010x}, header says {:#010x}",
                            crc as u32
                        ),
                    )));
                }
            }
        }
        let values = match header.r#type {
            PageType::DataPage => header.data_page_header.as_ref().map(|h| h.num_values),
            PageType::DataPageV2 => header.data_page_header_v2.as_ref().map(|h| h.num_values),
            _ => Some(0),
        }
        .ok_or_else(|| at(Error::corrupt("data page without its data page header")))?;
        if values < 0 {
            return Err(at(Error::corrupt(format!("negative num_values {values}"))));
        }
        self.values_seen += values as u64;
        if matches!(header.r#type, PageType::DataPage | PageType::DataPageV2) {
            self.data_pages += 1;
        }
        self.pos = end;
        self.ordinal += 1;
        Ok(Some(RawPage {
            header,
            offset,
            header_len,
            data,
            decrypted,
        }))
    }

    /// The next page, checked and decompressed; index pages and unknown page types are
    /// skipped. `None` after the last page.
    pub fn next_page(&mut self) -> Result<Option<Page<'a>>> {
        loop {
            let page = self.ordinal;
            let Some(raw) = self.next_raw()? else {
                return Ok(None);
            };
            let offset = raw.offset;
            match self.decode(raw) {
                Ok(Some(p)) => return Ok(Some(p)),
                Ok(None) => continue,
                Err(e) => return Err(e.with_page(page).with_offset(offset)),
            }
        }
    }

    fn check_size(&self, size: i32) -> Result<usize> {
        let size = size.max(0) as usize;
        if size > self.options.max_page_size {
            return Err(Error::unsupported(format!(
                "page of {size} decompressed bytes exceeds the reader's limit of {} \
                 (raise ReadOptions::max_page_size to read it)",
                self.options.max_page_size
            )));
        }
        Ok(size)
    }

    fn inflate(&mut self, data: Cow<'a, [u8]>, size: usize) -> Result<Cow<'a, [u8]>> {
        if self.codec == CompressionCodec::Uncompressed {
            if data.len() != size {
                return Err(Error::corrupt(format!(
                    "uncompressed page has {} bytes, header says {size}",
                    data.len()
                )));
            }
            return Ok(data);
        }
        // The spare buffer's old bytes are overwritten, not zero-filled first.
        let mut out = std::mem::take(&mut self.spare);
        decompress_reusing(self.codec, &data, size, &mut out)?;
        Ok(Cow::Owned(out))
    }

    /// Decompresses a raw page (`None` for pages readers skip).
    pub fn decode(&mut self, raw: RawPage<'a>) -> Result<Option<Page<'a>>> {
        let h = raw.header;
        let size = self.check_size(h.uncompressed_page_size)?;
        let body: Cow<'a, [u8]> = match raw.decrypted {
            Some(plain) => Cow::Owned(plain),
            None => Cow::Borrowed(raw.data),
        };
        match h.r#type {
            PageType::DictionaryPage => {
                let d = h
                    .dictionary_page_header
                    .ok_or_else(|| Error::corrupt("dictionary page without its header"))?;
                let num_values = usize::try_from(d.num_values).map_err(|_| {
                    Error::corrupt(format!("negative dictionary size {}", d.num_values))
                })?;
                Ok(Some(Page::Dictionary {
                    buf: self.inflate(body, size)?,
                    num_values,
                    encoding: d.encoding,
                }))
            }
            PageType::DataPage => {
                let d = h
                    .data_page_header
                    .ok_or_else(|| Error::corrupt("data page without its header"))?;
                Ok(Some(Page::DataV1 {
                    buf: self.inflate(body, size)?,
                    num_values: d.num_values as usize,
                    encoding: d.encoding,
                    def_level_encoding: d.definition_level_encoding,
                    rep_level_encoding: d.repetition_level_encoding,
                }))
            }
            PageType::DataPageV2 => {
                let d = h
                    .data_page_header_v2
                    .ok_or_else(|| Error::corrupt("data page v2 without its header"))?;
                let (rep_len, def_len) = match (
                    usize::try_from(d.repetition_levels_byte_length),
                    usize::try_from(d.definition_levels_byte_length),
                ) {
                    (Ok(r), Ok(d)) if r + d <= body.len() && r + d <= size => (r, d),
                    _ => {
                        return Err(Error::corrupt(format!(
                            "level sections of {} + {} bytes do not fit a page of {} stored / {size} decompressed bytes",
                            d.repetition_levels_byte_length,
                            d.definition_levels_byte_length,
                            body.len()
                        )))
                    }
                };
                let num_nulls = usize::try_from(d.num_nulls)
                    .ok()
                    .filter(|&n| n <= d.num_values as usize)
                    .ok_or_else(|| {
                        Error::corrupt(format!("num_nulls {} out of range", d.num_nulls))
                    })?;
                let levels = rep_len + def_len;
                let (rep_levels, def_levels, stored_values) = match body {
                    Cow::Borrowed(b) => (
                        Cow::Borrowed(&b[..rep_len]),
                        Cow::Borrowed(&b[rep_len..levels]),
                        Cow::Borrowed(&b[levels..]),
                    ),
                    Cow::Owned(mut v) => {
                        let head: Vec<u8> = v.drain(..levels).collect();
                        (
                            Cow::Owned(head[..rep_len].to_vec()),
                            Cow::Owned(head[rep_len..].to_vec()),
                            Cow::Owned(v),
                        )
                    }
                };
                let values_size = size - rep_len - def_len;
                let compressed = d.is_compressed.unwrap_or(true);
                let values = if !compressed || stored_values.is_empty() && values_size == 0 {
                    if stored_values.len() != values_size {
                        return Err(Error::corrupt(format!(
                            "uncompressed values section has {} bytes, header says {values_size}",
                            stored_values.len()
                        )));
                    }
                    stored_values
                } else {
                    self.inflate(stored_values, values_size)?
                };
                Ok(Some(Page::DataV2 {
                    rep_levels,
                    def_levels,
                    values,
                    num_values: d.num_values as usize,
                    num_nulls,
                    num_rows: d.num_rows.max(0) as usize,
                    encoding: d.encoding,
                }))
            }
            // Index pages are not used by any writer; unknown page types come from newer
            // writers. Neither carries data this reader needs.
            PageType::IndexPage | PageType::Unknown(_) => Ok(None),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::encryption::{module_aad, ModuleKey, ModuleType};
    use crate::core::format::{DataPageHeaderV2, DictionaryPageHeader, Encoding};
    use crate::core::page::ChunkDecryptor;

    const KEY: &[u8] = b"0123456789012345";
    const AAD: &[u8] = b"file-aad";

    fn header(r#type: PageType, size: usize, stored: usize) -> PageHeader {
        PageHeader {
            r#type,
            uncompressed_page_size: size as i32,
            compressed_page_size: stored as i32,
            crc: None,
            data_page_header: None,
            index_page_header: None,
            dictionary_page_header: None,
            data_page_header_v2: None,
        }
    }

    /// A chunk of (rg 1, column 2): a dictionary page and two v2 data pages, encrypted.
    fn chunk(ctr: bool, crc_on_stored: bool) -> Vec<u8> {
        let key = ModuleKey::new(KEY).unwrap();
        let mut out = Vec::new();
        let seal = |body: &[u8], module: ModuleType, page: usize, out: &mut Vec<u8>| {
            let aad = module_aad(AAD, module, 1, 2, page).unwrap();
            if ctr && matches!(module, ModuleType::DataPage | ModuleType::DictionaryPage) {
                key.ctr_encrypt(body, out).unwrap();
            } else {
                key.gcm_encrypt(body, &aad, out).unwrap();
            }
        };
        // Dictionary page.
        let dict = [7u8, 0, 0, 0];
        let mut body = Vec::new();
        seal(&dict, ModuleType::DictionaryPage, 0, &mut body);
        let mut h = header(PageType::DictionaryPage, 4, body.len());
        h.dictionary_page_header = Some(DictionaryPageHeader {
            num_values: 1,
            encoding: Encoding::Plain,
            is_sorted: None,
        });
        let mut hb = Vec::new();
        format::encode(&h, &mut hb);
        seal(&hb, ModuleType::DictionaryPageHeader, 0, &mut out);
        out.extend_from_slice(&body);
        // Two data pages v2: one repetition level byte, two definition level bytes, values.
        for page in 0..2u8 {
            let plain = [0xAA, 0xBB, 0xCC, page, 0, 0, 0];
            let mut body = Vec::new();
            seal(&plain, ModuleType::DataPage, page as usize, &mut body);
            let mut h = header(PageType::DataPageV2, plain.len(), body.len());
            h.crc = Some(if crc_on_stored {
                crc32fast::hash(&body) as i32
            } else {
                crc32fast::hash(&plain) as i32
            });
            h.data_page_header_v2 = Some(DataPageHeaderV2 {
                num_values: 1,
                num_nulls: 0,
                num_rows: 1,
                encoding: Encoding::Plain,
                definition_levels_byte_length: 2,
                repetition_levels_byte_length: 1,
                is_compressed: Some(false),
                statistics: None,
            });
            let mut hb = Vec::new();
            format::encode(&h, &mut hb);
            seal(&hb, ModuleType::DataPageHeader, page as usize, &mut out);
            out.extend_from_slice(&body);
        }
        out
    }

    /// Snappy data pages of the given body sizes (distinct bytes in each).
    fn snappy_chunk(sizes: &[usize]) -> Vec<u8> {
        use crate::core::format::DataPageHeader;
        let mut out = Vec::new();
        for (k, &size) in sizes.iter().enumerate() {
            let body: Vec<u8> = (0..size).map(|i| (i * 7 + k * 13) as u8).collect();
            let mut stored = Vec::new();
            crate::Compression::Snappy
                .compress(&body, &mut stored)
                .unwrap();
            let mut h = header(PageType::DataPage, size, stored.len());
            h.data_page_header = Some(DataPageHeader {
                num_values: 1,
                encoding: Encoding::Plain,
                definition_level_encoding: Encoding::Rle,
                repetition_level_encoding: Encoding::Rle,
                statistics: None,
            });
            format::encode(&h, &mut out);
            out.extend_from_slice(&stored);
        }
        out
    }

    #[test]
    fn recycled_buffers_serve_pages_of_any_size() {
        let sizes = [5000, 10, 20_000, 3000, 0, 7];
        let data = snappy_chunk(&sizes);
        let mut pages = PageReader::new(
            &data,
            0,
            CompressionCodec::Snappy,
            sizes.len() as i64,
            PageReaderOptions::default(),
        );
        for (k, &size) in sizes.iter().enumerate() {
            let page = pages.next_page().unwrap().unwrap();
            let Page::DataV1 { buf, .. } = &page else {
                panic!("a data page")
            };
            let want: Vec<u8> = (0..size).map(|i| (i * 7 + k * 13) as u8).collect();
            assert_eq!(&buf[..], &want[..], "page {k}");
            pages.recycle(page);
            // The largest buffer so far is kept for the next page.
            let largest = sizes[..=k].iter().copied().max().unwrap();
            assert!(pages.spare.capacity() >= largest, "page {k}");
        }
        assert!(pages.next_page().unwrap().is_none());
    }

    fn reader(data: &[u8], ctr: bool) -> PageReader<'_> {
        let d = ChunkDecryptor::for_tests(KEY, AAD, 1, 2, ctr)
            .pages(true)
            .unwrap();
        PageReader::new(
            data,
            100,
            CompressionCodec::Uncompressed,
            2,
            PageReaderOptions::default(),
        )
        .with_decryptor(Some(d))
    }

    #[test]
    fn encrypted_pages_decrypt() {
        for ctr in [false, true] {
            for crc_on_stored in [true, false] {
                let data = chunk(ctr, crc_on_stored);
                let mut pages = reader(&data, ctr);
                match pages.next_page().unwrap().unwrap() {
                    Page::Dictionary {
                        buf, num_values, ..
                    } => {
                        assert_eq!((&buf[..], num_values), (&[7u8, 0, 0, 0][..], 1));
                    }
                    p => panic!("{p:?}"),
                }
                for page in 0..2u8 {
                    match pages.next_page().unwrap().unwrap() {
                        Page::DataV2 {
                            rep_levels,
                            def_levels,
                            values,
                            ..
                        } => {
                            assert_eq!(&rep_levels[..], [0xAA]);
                            assert_eq!(&def_levels[..], [0xBB, 0xCC]);
                            assert_eq!(&values[..], [page, 0, 0, 0]);
                        }
                        p => panic!("{p:?}"),
                    }
                }
                assert!(pages.next_page().unwrap().is_none());
            }
        }
    }

    #[test]
    fn wrong_place_or_bytes_fail() {
        let data = chunk(false, true);
        // Another column ordinal: every module's AAD differs.
        let d = ChunkDecryptor::for_tests(KEY, AAD, 1, 3, false)
            .pages(true)
            .unwrap();
        let mut pages = PageReader::new(
            &data,
            0,
            CompressionCodec::Uncompressed,
            2,
            PageReaderOptions::default(),
        )
        .with_decryptor(Some(d));
        let e = pages.next_page().unwrap_err();
        assert_eq!(e.kind(), crate::ErrorKind::Crypto);
        // Every single-byte change and every truncation fails (GCM), never panics.
        for at in 0..data.len() {
            let mut bad = data.clone();
            bad[at] ^= 1;
            let mut pages = reader(&bad, false);
            let mut r = Ok(());
            while let Some(p) = pages.next_page().transpose() {
                if let Err(e) = p {
                    r = Err(e);
                    break;
                }
            }
            assert!(r.is_err(), "byte {at}");
        }
        for len in 0..data.len() {
            let mut pages = reader(&data[..len], false);
            let mut n = 0;
            while let Ok(Some(_)) = pages.next_page() {
                n += 1;
            }
            assert!(n < 3, "{len}");
        }
    }
}
