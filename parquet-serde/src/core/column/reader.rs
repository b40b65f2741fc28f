//! [`ColumnChunkReader`]: decodes the pages of one column chunk into values and levels.

use std::convert::Infallible;

use crate::core::encoding::levels;
use crate::core::format::{Encoding, Type};
use crate::core::page::{Page, PageReader};
use crate::core::values::{ByteArrays, ColumnValues};
use crate::error::{Error, Result};

use super::batch::{count_level, empty_values, level_outside, ColumnBatch, SizeHint};
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
    /// While BYTE_ARRAY values are lent from the dictionary (see
    /// [`read_all_lent`](Self::read_all_lent)): the indices of the values so far.
    lent: Option<Vec<u32>>,
}

/// The values of a column chunk whose data pages are all dictionary-encoded, left in the
/// dictionary: value `i` is `dictionary[indices[i]]` (every index checked in range).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct LentValues {
    /// The dictionary page's values.
    pub dictionary: ByteArrays,
    /// One index per value of the chunk.
    pub indices: Vec<u32>,
}

impl ColumnChunkReader<'static> {
    /// A [`park`](ColumnChunkReader::park)ed reader over `data`, the bytes of the same
    /// column chunk again: it goes on at the page where it stopped, with the dictionary it
    /// read. Bytes of another length are an error.
    pub(crate) fn resume(self, data: &[u8]) -> Result<ColumnChunkReader<'_>> {
        self.map_pages(|pages| pages.resume(data))
    }
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
            lent: None,
        }
    }

    /// This reader without its chunk's bytes, to be kept between calls that each hold the
    /// bytes for a while (a column chunk read a window of rows at a time): its page, its
    /// dictionary and its counts stay, and [`resume`](ColumnChunkReader::resume) goes on
    /// where it stopped.
    pub(crate) fn park(self) -> ColumnChunkReader<'static> {
        let Ok(parked) = self.map_pages(|pages| Ok::<_, Infallible>(pages.park()));
        parked
    }

    /// This reader with its page reader replaced by `f`'s (what [`park`](Self::park) and
    /// [`resume`](ColumnChunkReader::resume) share).
    fn map_pages<'b, E>(
        self,
        f: impl FnOnce(PageReader<'a>) -> std::result::Result<PageReader<'b>, E>,
    ) -> std::result::Result<ColumnChunkReader<'b>, E> {
        Ok(ColumnChunkReader {
            pages: f(self.pages)?,
            physical_type: self.physical_type,
            type_length: self.type_length,
            max_def: self.max_def,
            max_rep: self.max_rep,
            dictionary: self.dictionary,
            scratch: self.scratch,
            lent: self.lent,
        })
    }

    /// Lends the values of the data pages read next (see
    /// [`read_all_lent`](Self::read_all_lent)) while they are dictionary-encoded: their
    /// dictionary indices are appended to `indices` (values lent earlier), which
    /// [`take_lent`](Self::take_lent) hands back. A page of another encoding first copies
    /// the values lent so far out, then ends the lending. Only BYTE_ARRAY chunks lend.
    pub(crate) fn lend(&mut self, indices: Vec<u32>) {
        if self.physical_type == Type::ByteArray {
            self.lent = Some(indices);
        }
    }

    /// Values lent so far (see [`lend`](Self::lend)).
    pub(crate) fn lent_len(&self) -> usize {
        self.lent.as_ref().map_or(0, Vec::len)
    }

    /// The indices of the values lent since [`lend`](Self::lend) (and ends the lending),
    /// `None` when it ended at a page of another encoding (the values were copied out).
    pub(crate) fn take_lent(&mut self) -> Option<Vec<u32>> {
        self.lent.take()
    }

    /// A copy of the dictionary's values, when it has BYTE_ARRAY values of at most
    /// `max_bytes` bytes.
    pub(crate) fn dictionary_copy(&self, max_bytes: usize) -> Option<ByteArrays> {
        self.dictionary.as_ref()?.byte_arrays(max_bytes)
    }

    /// Appends the dictionary values at `indices` to `out` (values lent, copied out).
    pub(crate) fn gather_lent(&self, indices: &[u32], out: &mut ColumnValues) -> Result<()> {
        match &self.dictionary {
            Some(dict) => dict.gather(indices, out),
            None if indices.is_empty() => Ok(()),
            None => Err(Error::corrupt(
                "dictionary indices without a dictionary page",
            )),
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
    pub fn read_all(self) -> Result<ColumnBatch> {
        self.read_all_sized(SizeHint::default())
    }

    /// [`read_all`](Self::read_all) into buffers sized once for what the chunk claims it
    /// holds (see [`ColumnBatch::reserve`]).
    pub(crate) fn read_all_sized(mut self, hint: SizeHint) -> Result<ColumnBatch> {
        self.decode_rest(hint)
    }

    /// Decodes every remaining page into one batch whose buffers are first reserved for
    /// what `hint` claims.
    fn decode_rest(&mut self, hint: SizeHint) -> Result<ColumnBatch> {
        let mut out = self.new_batch();
        out.reserve(hint, self.max_def, self.max_rep);
        while self.read_page(&mut out)? {}
        Ok(out)
    }

    /// [`read_all_sized`](Self::read_all_sized) that leaves the values of a BYTE_ARRAY
    /// chunk whose data pages are all dictionary-encoded in the dictionary: the batch then
    /// holds the levels alone, and the values come as [`LentValues`]. This saves copying
    /// each value out, and the memory of the copies. Any other chunk decodes as
    /// `read_all_sized` decodes it (a chunk that falls back to another encoding part-way
    /// gets the values lent so far copied out first).
    pub(crate) fn read_all_lent(
        mut self,
        hint: SizeHint,
    ) -> Result<(ColumnBatch, Option<LentValues>)> {
        let hint = if self.physical_type == Type::ByteArray {
            self.lent = Some(Vec::new());
            // No room for the text: lent values need none, and values copied out after a
            // fallback grow as they come.
            SizeHint {
                value_bytes: 0,
                ..hint
            }
        } else {
            hint
        };
        let out = self.decode_rest(hint)?;
        let lent = match (self.lent.take(), self.dictionary.take()) {
            (Some(indices), Some(dict)) if !indices.is_empty() => Some(LentValues {
                dictionary: dict.into_byte_arrays()?,
                indices,
            }),
            _ => None,
        };
        Ok((out, lent))
    }

    /// Decodes the `non_null` values of a data page (`buf`, in `encoding`) into `out`, or,
    /// while values are lent, their dictionary indices.
    fn page_values(
        &mut self,
        encoding: Encoding,
        buf: &[u8],
        non_null: usize,
        out: &mut ColumnBatch,
    ) -> Result<()> {
        if let Some(lent) = &mut self.lent {
            let dictionary_encoded = matches!(
                encoding,
                Encoding::PlainDictionary | Encoding::RleDictionary
            );
            match &self.dictionary {
                Some(dict) if dictionary_encoded => {
                    return dict.decode_indices_lent(buf, non_null, lent);
                }
                // Another encoding (or no dictionary, which `decode_values` refuses): the
                // values lent so far are copied out, and the rest decode in place.
                Some(dict) => dict.gather(lent, &mut out.values)?,
                None => {}
            }
            self.lent = None;
        }
        decode_values(
            encoding,
            buf,
            non_null,
            self.dictionary.as_ref(),
            &mut self.scratch,
            &mut out.values,
        )
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
                self.page_values(encoding, &buf[pos..], non_null, out)
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
                self.page_values(encoding, values, non_null, out)
            }
        }
    }

    /// Checks levels decoded from the file against the column's maximum.
    fn check_levels(levels: &[i16], max: i16, what: &str) -> Result<()> {
        match level_outside(levels, max) {
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
            count_level(def_levels, self.max_def)
        }
    }
}
