//! The [`Page`] type: a decompressed page with what its header says about it.

use std::borrow::Cow;

use crate::core::format::Encoding;

/// A decompressed page of a column chunk.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub enum Page<'a> {
    /// The dictionary of the chunk (at most one, first).
    Dictionary {
        /// PLAIN-encoded dictionary values.
        buf: Cow<'a, [u8]>,
        /// Number of dictionary entries.
        num_values: usize,
        /// PLAIN or PLAIN_DICTIONARY (both mean PLAIN here).
        encoding: Encoding,
    },
    /// A data page v1: repetition levels, definition levels and values, all in `buf`.
    DataV1 {
        /// The whole decompressed page.
        buf: Cow<'a, [u8]>,
        /// Number of values including nulls (level count).
        num_values: usize,
        /// Encoding of the values.
        encoding: Encoding,
        /// Encoding of the definition levels.
        def_level_encoding: Encoding,
        /// Encoding of the repetition levels.
        rep_level_encoding: Encoding,
    },
    /// A data page v2: levels uncompressed, values possibly compressed (decompressed here).
    DataV2 {
        /// Repetition level bytes (RLE, no length prefix).
        rep_levels: Cow<'a, [u8]>,
        /// Definition level bytes (RLE, no length prefix).
        def_levels: Cow<'a, [u8]>,
        /// The decompressed values section.
        values: Cow<'a, [u8]>,
        /// Number of values including nulls.
        num_values: usize,
        /// Number of nulls.
        num_nulls: usize,
        /// Number of rows.
        num_rows: usize,
        /// Encoding of the values.
        encoding: Encoding,
    },
}

impl Page<'_> {
    /// Whether this is a dictionary page.
    pub fn is_dictionary(&self) -> bool {
        matches!(self, Page::Dictionary { .. })
    }

    /// Number of values (levels) in the page; entries for a dictionary page.
    pub fn num_values(&self) -> usize {
        match self {
            Page::Dictionary { num_values, .. }
            | Page::DataV1 { num_values, .. }
            | Page::DataV2 { num_values, .. } => *num_values,
        }
    }

    /// Encoding of the values.
    pub fn encoding(&self) -> Encoding {
        match self {
            Page::Dictionary { encoding, .. }
            | Page::DataV1 { encoding, .. }
            | Page::DataV2 { encoding, .. } => *encoding,
        }
    }
}
