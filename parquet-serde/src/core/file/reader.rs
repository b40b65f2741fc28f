//! [`FileReader`]: metadata and column chunks of a file, fetched range by range.

use std::borrow::Cow;

use crate::core::column::{ColumnBatch, ColumnChunkReader, LentValues, SizeHint};
use crate::core::format::{ColumnChunk, ColumnMetaData, CompressionCodec};
use crate::core::page::{PageReader, PageReaderOptions};
use crate::core::schema::{ColumnDescriptor, Schema};
use crate::error::{Error, Result};

use super::footer::{parse_footer_with, ParquetMetaData};
use super::options::ReadOptions;
use super::ChunkReader;
use super::PageDecryptor;

/// Byte range of a column chunk: it starts at the dictionary page when there is one.
///
/// Some writers set `dictionary_page_offset` to 0 or to a value past the first data
/// page; only an offset before the data page start is taken as the chunk start.
pub(crate) fn chunk_range(md: &ColumnMetaData) -> (u64, u64) {
    let data = md.data_page_offset.max(0) as u64;
    let start = match md.dictionary_page_offset {
        Some(d) if d > 0 && (d as u64) < data => d as u64,
        _ => data,
    };
    (start, md.total_compressed_size.max(0) as u64)
}

/// Padding for chunks of writers with the PARQUET-816 bug: the largest dictionary page header.
const MAX_DICTIONARY_HEADER_SIZE: u64 = 100;

/// Bytes read past the end of the chunk at `start` of `len` bytes: old parquet-mr left the
/// dictionary page header out of the chunk size, so up to 100 more bytes are read (never
/// into the footer); pages stop at num_values anyway.
pub(crate) fn parquet_816_padding(metadata: &ParquetMetaData, start: u64, len: u64) -> u64 {
    if !metadata.has_parquet_816_bug() {
        return 0;
    }
    let end = start.saturating_add(len);
    metadata
        .footer_offset
        .saturating_sub(end)
        .min(MAX_DICTIONARY_HEADER_SIZE)
}

/// The stored bytes of one column chunk, ready to be walked page by page.
#[derive(Debug)]
pub struct ColumnChunkData<'r> {
    /// The chunk's bytes (borrowed from in-memory sources, read for files).
    pub bytes: Cow<'r, [u8]>,
    /// File offset of the first byte.
    pub offset: u64,
    /// Codec of its pages.
    pub(crate) codec: CompressionCodec,
    /// Values (levels) in the chunk.
    pub num_values: i64,
    /// Row group ordinal.
    pub row_group: usize,
    /// Leaf column ordinal.
    pub column: usize,
    /// Page decryption of an encrypted chunk.
    pub(crate) decryptor: Option<PageDecryptor>,
    /// The bytes of its BYTE_ARRAY values, as its size statistics claim (a hint to size the
    /// decoded buffers with; never trusted beyond that).
    pub(crate) value_bytes: Option<i64>,
}

impl ColumnChunkData<'_> {
    /// A page reader over the chunk (decrypting its pages when the chunk is encrypted), with
    /// the page-level settings of `options` (checksums verified, largest page accepted).
    pub fn pages(&self, options: &ReadOptions) -> PageReader<'_> {
        self.page_reader(options.page_options())
    }

    /// [`pages`](Self::pages) with the page-level settings alone.
    pub(crate) fn page_reader(&self, options: PageReaderOptions) -> PageReader<'_> {
        PageReader::new(
            &self.bytes,
            self.offset,
            self.codec,
            self.num_values,
            options,
        )
        .with_decryptor(self.decryptor.clone())
    }

    /// Whether the chunk's pages are encrypted.
    pub fn is_encrypted(&self) -> bool {
        self.decryptor.is_some()
    }

    /// Decodes the whole chunk, leaf `descr` of the schema, into values and levels; errors
    /// name the chunk's row group and column.
    pub(crate) fn read_all(
        &self,
        descr: &ColumnDescriptor,
        options: PageReaderOptions,
    ) -> Result<ColumnBatch> {
        self.chunk_reader(descr, options)
            .read_all_sized(self.size_hint())
            .map_err(|e| self.locate(e, descr))
    }

    /// [`read_all`](Self::read_all) with the values of a dictionary-encoded BYTE_ARRAY
    /// chunk left in its dictionary (see [`ColumnChunkReader::read_all_lent`]).
    pub(crate) fn read_all_lent(
        &self,
        descr: &ColumnDescriptor,
        options: PageReaderOptions,
    ) -> Result<(ColumnBatch, Option<LentValues>)> {
        self.chunk_reader(descr, options)
            .read_all_lent(self.size_hint())
            .map_err(|e| self.locate(e, descr))
    }

    /// `e` located at the chunk: its row group, and leaf `descr`'s path.
    fn locate(&self, e: Error, descr: &ColumnDescriptor) -> Error {
        e.with_row_group(self.row_group)
            .with_column(descr.path.to_string())
    }

    /// A reader of the chunk's pages as leaf `descr` of the schema.
    pub(crate) fn chunk_reader(
        &self,
        descr: &ColumnDescriptor,
        options: PageReaderOptions,
    ) -> ColumnChunkReader<'_> {
        ColumnChunkReader::new(
            self.page_reader(options),
            descr.physical_type,
            descr.type_length,
            descr.max_def_level,
            descr.max_rep_level,
        )
    }

    /// What the chunk claims it decodes to, for [`ColumnChunkReader::read_all_sized`].
    fn size_hint(&self) -> SizeHint {
        SizeHint {
            values: usize::try_from(self.num_values).unwrap_or(0),
            value_bytes: self
                .value_bytes
                .and_then(|b| usize::try_from(b).ok())
                .unwrap_or(0),
            stored: self.bytes.len(),
        }
    }

    /// The chunk with its bytes owned (copied when borrowed), so that it can outlive its
    /// source, on another thread for example.
    pub fn into_owned(self) -> ColumnChunkData<'static> {
        ColumnChunkData {
            bytes: Cow::Owned(self.bytes.into_owned()),
            offset: self.offset,
            codec: self.codec,
            num_values: self.num_values,
            row_group: self.row_group,
            column: self.column,
            decryptor: self.decryptor,
            value_bytes: self.value_bytes,
        }
    }
}

/// Reads a Parquet file from any [`ChunkReader`]: the footer once, then only the byte ranges
/// of the column chunks asked for.
///
/// ```no_run
/// use parquet_serde::core::file::FileReader;
/// let file = std::fs::File::open("data.parquet")?;
/// let reader = FileReader::new(file)?;
/// println!("{} rows\n{}", reader.metadata().num_rows(), reader.schema());
/// let batch = reader.read_column(0, 0)?; // row group 0, leaf 0: values and levels
/// # Ok::<(), parquet_serde::Error>(())
/// ```
#[derive(Debug)]
pub struct FileReader<R> {
    reader: R,
    metadata: ParquetMetaData,
    options: ReadOptions,
}

impl<R: ChunkReader> FileReader<R> {
    /// Opens a file with default options (checksums verified).
    pub fn new(reader: R) -> Result<Self> {
        Self::with_options(reader, ReadOptions::default())
    }

    /// Opens a file with `options`.
    pub fn with_options(reader: R, options: ReadOptions) -> Result<Self> {
        let metadata = parse_footer_with(&reader, options.decryption.as_ref())?;
        Ok(FileReader {
            reader,
            metadata,
            options,
        })
    }

    /// A reader of a file whose footer was already parsed (and checked) from `reader`.
    #[cfg(any(feature = "object_store", feature = "tokio"))]
    pub(crate) fn from_metadata(
        reader: R,
        metadata: ParquetMetaData,
        options: ReadOptions,
    ) -> Self {
        FileReader {
            reader,
            metadata,
            options,
        }
    }

    /// The file's metadata.
    pub fn metadata(&self) -> &ParquetMetaData {
        &self.metadata
    }

    /// The file's schema.
    pub fn schema(&self) -> &Schema {
        &self.metadata.schema
    }

    /// Renames the top-level columns as [`Schema::with_top_level_names`] does, before any
    /// row is read: every use of the schema after it (rows, predicates, statistics) sees
    /// the new names. Fails, leaving the reader as it was, when two fields end up with one
    /// name.
    #[cfg_attr(not(feature = "iceberg"), allow(dead_code))] // Iceberg's reading
    pub(crate) fn rename_top_level(
        &mut self,
        rename: impl Fn(&crate::core::schema::SchemaNode) -> Option<String>,
    ) -> Result<()> {
        self.metadata.schema = self.metadata.schema.with_top_level_names(rename)?;
        Ok(())
    }

    /// The underlying reader.
    pub fn get_ref(&self) -> &R {
        &self.reader
    }

    /// Number of row groups.
    pub fn num_row_groups(&self) -> usize {
        self.metadata.num_row_groups()
    }

    /// The read options.
    pub fn options(&self) -> &ReadOptions {
        &self.options
    }

    /// Fetches the bytes of column chunk `column` of row group `row_group`.
    pub fn column_chunk(&self, row_group: usize, column: usize) -> Result<ColumnChunkData<'_>> {
        let at = |e: Error| {
            let e = e.with_row_group(row_group);
            match self.metadata.schema.columns().get(column) {
                Some(c) => e.with_column(c.path.to_string()),
                None => e,
            }
        };
        let chunk = self.metadata.column_chunk(row_group, column).map_err(at)?;
        // Before the metadata: an encrypted column without its key has none.
        let crypto = self
            .metadata
            .chunk_decryptor(row_group, column)
            .map_err(at)?;
        let md = chunk.meta_data.as_ref().ok_or_else(|| {
            at(Error::corrupt(
                "column chunk without metadata (neither plaintext nor encrypted)",
            ))
        })?;
        let (start, len) = self.chunk_span(chunk, md).map_err(at)?;
        let decryptor = match crypto {
            Some(c) => Some(
                c.pages(start < md.data_page_offset.max(0) as u64)
                    .map_err(at)?,
            ),
            None => None,
        };
        let bytes = self
            .read_chunk_bytes(row_group, column, start, len)
            .map_err(at)?;
        Ok(ColumnChunkData {
            bytes,
            offset: start,
            codec: md.codec,
            num_values: md.num_values,
            row_group,
            column,
            decryptor,
            value_bytes: md
                .size_statistics
                .as_ref()
                .and_then(|s| s.unencoded_byte_array_data_bytes),
        })
    }

    /// The bytes of column chunk `column` of `row_group` alone, as
    /// [`column_chunk`](Self::column_chunk) fetches them (for a reader that fetched the chunk
    /// once and goes on reading it later: no key is looked up again).
    pub(crate) fn column_chunk_bytes(
        &self,
        row_group: usize,
        column: usize,
    ) -> Result<Cow<'_, [u8]>> {
        let chunk = self.metadata.column_chunk(row_group, column)?;
        let md = chunk
            .meta_data
            .as_ref()
            .ok_or_else(|| Error::corrupt("column chunk without metadata"))?;
        let (start, len) = self.chunk_span(chunk, md)?;
        self.read_chunk_bytes(row_group, column, start, len)
    }

    /// Where the bytes of a column chunk (`chunk`, whose metadata is `md`) are: their first
    /// byte and length.
    fn chunk_span(&self, chunk: &ColumnChunk, md: &ColumnMetaData) -> Result<(u64, usize)> {
        let (start, mut len) = chunk_range(md);
        if chunk.file_path.is_none() {
            // Old parquet-mr left the dictionary page header out of the chunk size (a chunk
            // in another file has no footer of this file to stop at).
            len += parquet_816_padding(&self.metadata, start, len);
        }
        let len =
            usize::try_from(len).map_err(|_| Error::corrupt("column chunk larger than memory"))?;
        Ok((start, len))
    }

    /// `len` bytes at `start` of the file holding column chunk `column` of `row_group`: this
    /// file, or the one its `file_path` names (see [`ReadOptions::file_location`]).
    pub(crate) fn read_chunk_bytes(
        &self,
        row_group: usize,
        column: usize,
        start: u64,
        len: usize,
    ) -> Result<Cow<'_, [u8]>> {
        match &self.metadata.column_chunk(row_group, column)?.file_path {
            Some(path) => self.options.external.read(path, start, len),
            None => self.reader.read_range(start, len),
        }
    }

    pub(crate) fn descriptor(&self, column: usize) -> Result<&ColumnDescriptor> {
        self.metadata
            .schema
            .columns()
            .get(column)
            .ok_or_else(|| Error::invalid_argument(format!("no column {column}")))
    }

    /// Decodes a whole column chunk into values and levels.
    pub fn read_column(&self, row_group: usize, column: usize) -> Result<ColumnBatch> {
        let descr = self.descriptor(column)?;
        self.column_chunk(row_group, column)?
            .read_all(descr, self.options.page_options())
    }

    /// [`read_column`](Self::read_column) with the values of a dictionary-encoded
    /// BYTE_ARRAY chunk left in its dictionary (see [`ColumnChunkReader::read_all_lent`]).
    pub(crate) fn read_column_lent(
        &self,
        row_group: usize,
        column: usize,
    ) -> Result<(ColumnBatch, Option<LentValues>)> {
        let descr = self.descriptor(column)?;
        self.column_chunk(row_group, column)?
            .read_all_lent(descr, self.options.page_options())
    }
}
