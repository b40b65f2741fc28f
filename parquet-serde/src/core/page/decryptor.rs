//! Decryption of the modules of one column chunk (Parquet Modular Encryption): pages (the
//! page reader's last step before decompression), and the chunk's other modules (indexes,
//! Bloom filter parts). The file layer resolves the chunk's key and hands a
//! [`ChunkDecryptor`] down.

use std::fmt;
use std::sync::Arc;

use crate::core::encryption::{module_aad, module_len, set_page_ordinal, ModuleKey, ModuleType};
use crate::core::format::PageType;
use crate::error::{Error, Result};

/// Decryption of the modules of one column chunk: its key, file AAD and ordinals.
#[derive(Clone)]
pub(crate) struct ChunkDecryptor {
    key: Arc<ModuleKey>,
    file_aad: Arc<[u8]>,
    /// Modules use an empty AAD (files written that way by DuckDB).
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
    /// The decryptor of the chunk of `column` in row group `row_group` (its ordinal, as in
    /// the AADs): `no_aad` for files whose modules use an empty AAD (see the file layer's
    /// `FileDecryptor`), `ctr` when page bodies use AES-CTR.
    pub(crate) fn new(
        key: Arc<ModuleKey>,
        file_aad: Arc<[u8]>,
        no_aad: bool,
        row_group: usize,
        column: usize,
        ctr: bool,
    ) -> Self {
        ChunkDecryptor {
            key,
            file_aad,
            no_aad,
            row_group,
            column,
            ctr,
        }
    }

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
    use crate::error::ErrorKind;

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
