//! Module AADs: the additional authenticated data that binds every encrypted module to its file
//! and to its place in the file (module type, row group, column and page ordinals).

use crate::error::{Error, Result};

/// The kind of an encrypted module, the one-byte module type of its AAD suffix.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ModuleType {
    /// The serialized `FileMetaData` (encrypted, or signed in plaintext-footer mode).
    Footer = 0,
    /// A column's `ColumnMetaData` stored in `encrypted_column_metadata`.
    ColumnMetaData = 1,
    /// The body of a data page (v1 or v2).
    DataPage = 2,
    /// The body of a dictionary page.
    DictionaryPage = 3,
    /// The `PageHeader` of a data page.
    DataPageHeader = 4,
    /// The `PageHeader` of a dictionary page.
    DictionaryPageHeader = 5,
    /// A chunk's `ColumnIndex`.
    ColumnIndex = 6,
    /// A chunk's `OffsetIndex`.
    OffsetIndex = 7,
    /// A Bloom filter's `BloomFilterHeader`.
    BloomFilterHeader = 8,
    /// A Bloom filter's bitset.
    BloomFilterBitset = 9,
}

impl ModuleType {
    /// The module's name as error messages print it.
    pub fn name(self) -> &'static str {
        match self {
            ModuleType::Footer => "footer",
            ModuleType::ColumnMetaData => "column metadata",
            ModuleType::DataPage => "data page",
            ModuleType::DictionaryPage => "dictionary page",
            ModuleType::DataPageHeader => "data page header",
            ModuleType::DictionaryPageHeader => "dictionary page header",
            ModuleType::ColumnIndex => "column index",
            ModuleType::OffsetIndex => "offset index",
            ModuleType::BloomFilterHeader => "bloom filter header",
            ModuleType::BloomFilterBitset => "bloom filter bitset",
        }
    }

    /// Whether the AAD of this module carries a page ordinal.
    pub fn has_page_ordinal(self) -> bool {
        matches!(self, ModuleType::DataPage | ModuleType::DataPageHeader)
    }
}

/// The file part of every module AAD: AAD prefix (possibly empty) followed by the file's
/// unique identifier.
pub fn file_aad(aad_prefix: &[u8], aad_file_unique: &[u8]) -> Vec<u8> {
    let mut aad = Vec::with_capacity(aad_prefix.len() + aad_file_unique.len());
    aad.extend_from_slice(aad_prefix);
    aad.extend_from_slice(aad_file_unique);
    aad
}

/// The AAD of the footer module: the file AAD followed by module type 0.
pub fn footer_aad(file_aad: &[u8]) -> Vec<u8> {
    let mut aad = Vec::with_capacity(file_aad.len() + 1);
    aad.extend_from_slice(file_aad);
    aad.push(ModuleType::Footer as u8);
    aad
}

/// The AAD of a module other than the footer: file AAD, module type, row group ordinal,
/// column ordinal and, for data pages and their headers, the page ordinal (each a
/// little-endian 16-bit integer). Ordinals above 32767 are an error, as the format stores
/// them as `i16`.
pub fn module_aad(
    file_aad: &[u8],
    module: ModuleType,
    row_group: usize,
    column: usize,
    page: usize,
) -> Result<Vec<u8>> {
    if module == ModuleType::Footer {
        return Ok(footer_aad(file_aad));
    }
    let mut aad = Vec::with_capacity(file_aad.len() + 7);
    aad.extend_from_slice(file_aad);
    aad.push(module as u8);
    aad.extend_from_slice(&ordinal(row_group, "row group")?);
    aad.extend_from_slice(&ordinal(column, "column")?);
    if module.has_page_ordinal() {
        aad.extend_from_slice(&ordinal(page, "page")?);
    }
    Ok(aad)
}

/// Rewrites the page ordinal (the last two bytes) of a data page or data page header AAD made
/// by [`module_aad`], so a column reader or writer builds the AAD once per chunk.
pub fn set_page_ordinal(aad: &mut [u8], page: usize) -> Result<()> {
    let bytes = ordinal(page, "page")?;
    let n = aad.len();
    if n < 2 {
        return Err(Error::invalid_argument(
            "module AAD too short for a page ordinal",
        ));
    }
    aad[n - 2..].copy_from_slice(&bytes);
    Ok(())
}

fn ordinal(value: usize, what: &str) -> Result<[u8; 2]> {
    if value > i16::MAX as usize {
        return Err(Error::new(
            crate::ErrorKind::Crypto,
            format!(
                "{what} ordinal {value} is above 32767, the limit of encrypted files' module AADs"
            ),
        ));
    }
    Ok((value as u16).to_le_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suffix_layout_per_module_type() {
        let file = file_aad(b"", b"UU");
        assert_eq!(footer_aad(&file), b"UU\x00");
        assert_eq!(
            module_aad(&file, ModuleType::Footer, 5, 5, 5).unwrap(),
            b"UU\x00"
        );
        assert_eq!(
            module_aad(&file, ModuleType::ColumnMetaData, 258, 1, 9).unwrap(),
            b"UU\x01\x02\x01\x01\x00"
        );
        assert_eq!(
            module_aad(&file, ModuleType::DataPageHeader, 0, 3, 513).unwrap(),
            b"UU\x04\x00\x00\x03\x00\x01\x02"
        );
        for m in [
            ModuleType::DictionaryPage,
            ModuleType::DictionaryPageHeader,
            ModuleType::ColumnIndex,
            ModuleType::OffsetIndex,
            ModuleType::BloomFilterHeader,
            ModuleType::BloomFilterBitset,
        ] {
            let aad = module_aad(&file, m, 1, 1, 7).unwrap();
            assert_eq!(aad.len(), 2 + 5, "{m:?} has no page ordinal");
            assert_eq!(aad[2], m as u8);
        }
    }

    #[test]
    fn ordinals_limited_to_i16() {
        assert!(module_aad(b"", ModuleType::DataPage, 32767, 32767, 32767).is_ok());
        let e = module_aad(b"", ModuleType::DataPage, 0, 0, 32768).unwrap_err();
        assert!(e.to_string().contains("page ordinal 32768"), "{e}");
        assert!(module_aad(b"", ModuleType::ColumnIndex, 40000, 0, 0).is_err());
    }

    #[test]
    fn page_ordinal_rewritten_in_place() {
        let mut aad = module_aad(b"F", ModuleType::DataPage, 1, 2, 0).unwrap();
        set_page_ordinal(&mut aad, 300).unwrap();
        assert_eq!(
            aad,
            module_aad(b"F", ModuleType::DataPage, 1, 2, 300).unwrap()
        );
        assert!(set_page_ordinal(&mut aad, 1 << 15).is_err());
    }
}

/// The examples that were doc tests while these items were public.
#[cfg(test)]
mod doc_examples {
    #[test]
    fn file_aad_example() {
        use crate::core::encryption::{file_aad, module_aad, ModuleType};
        let file = file_aad(b"tester", &[1, 2, 3]);
        assert_eq!(file, b"tester\x01\x02\x03");
        let aad = module_aad(&file, ModuleType::DataPage, 1, 2, 3).unwrap();
        assert_eq!(aad, b"tester\x01\x02\x03\x02\x01\x00\x02\x00\x03\x00");
    }
}
