//! [`ColumnChunkReader`]: decodes the pages of one column chunk into values and levels.

use crate::core::encoding::levels;
use crate::core::format::{Encoding, Type};
use crate::core::page::{Page, PageReader};
use crate::error::{Error, Result};

use super::batch::{empty_values, ColumnBatch};
use super::decode::decode_values;
use super::dictionary::Dictionary;

/// Decodes one column chunk, a data page at a time, into [`ColumnBatch`]es.
///
/// Supports data pages v1 and v2, dictionary pages (PLAIN_DICTIONARY and RLE_DICTIONARY
/// data pages), PLAIN values, RLE booleans, and RLE or BIT_PACKED levels.
#[derive(Debug)]
pub struct ColumnChunkReader<'a> {
    pages: PageReader<'a>,
    physical_type: Type,
    type_length: i32,
    max_def: i16,
    max_rep: i16,
    dictionary: Option<Dictionary>,
    scratch: Vec<u32>,
}

impl<'a> ColumnChunkReader<'a> {
    /// A reader of the pages of a leaf column of `physical_type` (with `type_length` for
    /// FIXED_LEN_BYTE_ARRAY) and the given maximum levels.
    pub fn new(
        pages: PageReader<'a>,
        physical_type: Type,
        type_length: i32,
        max_def: i16,
        max_rep: i16,
    ) -> Self {
        ColumnChunkReader {
            pages,
            physical_type,
            type_length,
            max_def,
            max_rep,
            dictionary: None,
            scratch: Vec::new(),
        }
    }

    /// An empty batch of this column's type.
    pub fn new_batch(&self) -> ColumnBatch {
        ColumnBatch::new(self.physical_type, self.type_length)
    }

    /// Decodes the next data page and appends it to `out`; `false` after the last page.
    pub fn read_page(&mut self, out: &mut ColumnBatch) -> Result<bool> {
        loop {
            let ordinal = self.pages.page_ordinal();
            let Some(page) = self.pages.next_page()? else {
                return Ok(false);
            };
            let is_dict = page.is_dictionary();
            self.decode_page(&page, out)
                .map_err(|e| e.with_page(ordinal))?;
            self.pages.recycle(page);
            if !is_dict {
                return Ok(true);
            }
        }
    }

    /// Decodes every remaining page into one batch.
    pub fn read_all(mut self) -> Result<ColumnBatch> {
        let mut out = self.new_batch();
        while self.read_page(&mut out)? {}
        Ok(out)
    }

    fn decode_page(&mut self, page: &Page<'_>, out: &mut ColumnBatch) -> Result<()> {
        if let Type::Unknown(t) = self.physical_type {
            return Err(Error::unsupported(format!("physical type {t}")));
        }
        match *page {
            Page::Dictionary {
                ref buf,
                num_values,
                encoding,
            } => {
                if !matches!(encoding, Encoding::Plain | Encoding::PlainDictionary) {
                    return Err(Error::unsupported(format!(
                        "dictionary page encoding {encoding:?}"
                    )));
                }
                if self.dictionary.is_some() {
                    return Err(Error::corrupt("second dictionary page in one column chunk"));
                }
                let empty = empty_values(self.physical_type, self.type_length);
                self.dictionary = Some(Dictionary::decode(buf, num_values, empty)?);
                Ok(())
            }
            Page::DataV1 {
                ref buf,
                num_values,
                encoding,
                def_level_encoding,
                rep_level_encoding,
                ..
            } => {
                let rep_start = out.rep_levels.len();
                let mut pos = levels::decode_v1(
                    rep_level_encoding,
                    buf,
                    self.max_rep,
                    num_values,
                    &mut out.rep_levels,
                )
                .map_err(|e| e.context("repetition levels"))?;
                let def_start = out.def_levels.len();
                pos += levels::decode_v1(
                    def_level_encoding,
                    &buf[pos..],
                    self.max_def,
                    num_values,
                    &mut out.def_levels,
                )
                .map_err(|e| e.context("definition levels"))?;
                Self::check_levels(&out.def_levels[def_start..], self.max_def, "definition")?;
                Self::check_levels(&out.rep_levels[rep_start..], self.max_rep, "repetition")?;
                let non_null = self.count_non_null(&out.def_levels[def_start..], num_values);
                decode_values(
                    encoding,
                    &buf[pos..],
                    non_null,
                    self.dictionary.as_ref(),
                    &mut self.scratch,
                    &mut out.values,
                )
            }
            Page::DataV2 {
                ref rep_levels,
                ref def_levels,
                ref values,
                num_values,
                encoding,
                ..
            } => {
                let rep_start = out.rep_levels.len();
                if self.max_rep > 0 {
                    levels::decode_v2(rep_levels, self.max_rep, num_values, &mut out.rep_levels)
                        .map_err(|e| e.context("repetition levels"))?;
                }
                let def_start = out.def_levels.len();
                if self.max_def > 0 {
                    levels::decode_v2(def_levels, self.max_def, num_values, &mut out.def_levels)
                        .map_err(|e| e.context("definition levels"))?;
                }
                Self::check_levels(&out.def_levels[def_start..], self.max_def, "definition")?;
                Self::check_levels(&out.rep_levels[rep_start..], self.max_rep, "repetition")?;
                let non_null = self.count_non_null(&out.def_levels[def_start..], num_values);
                decode_values(
                    encoding,
                    values,
                    non_null,
                    self.dictionary.as_ref(),
                    &mut self.scratch,
                    &mut out.values,
                )
            }
        }
    }

    /// Checks levels decoded from the file against the column's maximum.
    fn check_levels(levels: &[i16], max: i16, what: &str) -> Result<()> {
        match levels.iter().find(|&&l| l < 0 || l > max) {
            Some(bad) => Err(Error::corrupt(format!(
                "{what} level {bad} exceeds the column's maximum {max}"
            ))),
            None => Ok(()),
        }
    }

    fn count_non_null(&self, def_levels: &[i16], num_values: usize) -> usize {
        if self.max_def == 0 {
            num_values
        } else {
            let max = self.max_def;
            def_levels.iter().filter(|&&d| d == max).count()
        }
    }
}
