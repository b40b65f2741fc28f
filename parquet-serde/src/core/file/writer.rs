//! [`FileWriter`]: magic, row groups of column chunks, footer.

use std::io::Write;

use crate::core::column::{ColumnChunkWriter, WrittenColumnChunk};
use crate::core::encryption::ModuleType;
use crate::core::format::{
    self, ColumnChunk, ColumnIndex, ColumnOrder, FileMetaData, KeyValue, OffsetIndex, RowGroup,
    SortingColumn,
};
use crate::core::schema::Schema;
use crate::error::{Error, Result};

use super::footer::{ParquetMetaData, MAGIC, MAGIC_ENCRYPTED};
use super::options::WriterOptions;
use super::write_crypto::FileEncryptor;
use crate::core::column::SortOrder;

/// The `created_by` string of files this library writes.
pub const CREATED_BY: &str = concat!("parquet-serde version ", env!("CARGO_PKG_VERSION"));

/// Writes a Parquet file: one row group at a time, each made of one finished column chunk
/// per leaf column, then the footer.
///
/// With [`WriterOptions::encryption`] the file is encrypted (Parquet modular encryption):
/// the column writers of [`column_writer`](Self::column_writer) encrypt their pages for the
/// row group written next, so make them after writing the previous row group.
///
/// ```
/// use parquet_serde::core::column::ColumnBatch;
/// use parquet_serde::core::file::{FileReader, FileWriter, WriterOptions};
/// use parquet_serde::core::schema::Schema;
/// use parquet_serde::core::values::ColumnValues;
///
/// let schema: Schema = "message m { required int64 id; optional binary name (STRING); }".parse()?;
/// let mut writer = FileWriter::new(Vec::new(), schema, WriterOptions::default())?;
/// let mut id = writer.column_writer(0)?;
/// id.write(&ColumnBatch { values: ColumnValues::Int64(vec![1, 2]), def_levels: vec![], rep_levels: vec![] })?;
/// let mut name = writer.column_writer(1)?;
/// let mut names = parquet_serde::core::values::ByteArrays::new();
/// names.push(b"ann");
/// name.write(&ColumnBatch { values: ColumnValues::ByteArray(names), def_levels: vec![1, 0], rep_levels: vec![] })?;
/// writer.write_row_group(vec![id.close()?, name.close()?])?;
/// let (bytes, _metadata) = writer.close()?;
///
/// let reader = FileReader::new(bytes)?;
/// assert_eq!(reader.read_column(0, 0)?.values, ColumnValues::Int64(vec![1, 2]));
/// assert_eq!(reader.read_column(0, 1)?.def_levels, vec![1, 0]);
/// # Ok::<(), parquet_serde::Error>(())
/// ```
#[derive(Debug)]
pub struct FileWriter<W: Write> {
    sink: W,
    position: u64,
    schema: Schema,
    options: WriterOptions,
    row_groups: Vec<RowGroup>,
    /// Page indexes of every chunk written, by row group then column: written at close.
    page_indexes: Vec<Vec<(Option<ColumnIndex>, Option<OffsetIndex>)>>,
    sorting_columns: Option<Vec<SortingColumn>>,
    num_rows: i64,
    crypto: Option<FileEncryptor>,
    /// Writes a row group's pages, in order, to the sink at once (for sinks that can do
    /// better than one `write_all` per page).
    bulk: Option<BulkWrite<W>>,
}

/// Writes pieces of bytes, in order, to a sink, with up to the given number of threads.
pub(crate) type BulkWrite<W> = fn(&mut W, &[&[u8]], usize) -> std::io::Result<()>;

impl<W: Write> FileWriter<W> {
    /// Starts a file: writes the leading magic. Fails when a declared sort key names no
    /// leaf column.
    pub fn new(mut sink: W, schema: Schema, options: WriterOptions) -> Result<Self> {
        let sorting_columns = sorting_columns(&schema, &options)?;
        let crypto = match &options.encryption {
            Some(props) => Some(FileEncryptor::new(props.clone(), &schema)?),
            None => None,
        };
        let magic = match &crypto {
            Some(c) if c.encrypted_footer() => MAGIC_ENCRYPTED,
            _ => MAGIC,
        };
        sink.write_all(magic)?;
        Ok(FileWriter {
            sink,
            position: MAGIC.len() as u64,
            schema,
            options,
            row_groups: Vec::new(),
            page_indexes: Vec::new(),
            sorting_columns,
            num_rows: 0,
            crypto,
            bulk: None,
        })
    }

    /// Continues a file whose first `position` bytes (magic and row groups) are already in
    /// `sink`, as a [`FileProgress`] recorded them: the log store's recovery appends the last
    /// row group and the footer to a file a crash left unfinished. Plaintext files only.
    #[cfg_attr(not(feature = "logs"), allow(dead_code))] // only the log store (logs/) uses it
    pub(crate) fn resume(
        sink: W,
        schema: Schema,
        options: WriterOptions,
        progress: FileProgress,
    ) -> Result<Self> {
        if options.encryption.is_some() {
            return Err(Error::unsupported(
                "resuming an encrypted file is not supported",
            ));
        }
        if progress.page_indexes.len() != progress.row_groups.len()
            || progress.position < MAGIC.len() as u64
        {
            return Err(Error::corrupt(format!(
                "file progress of {} row groups with {} page index sets at byte {} does not \
                 hold together",
                progress.row_groups.len(),
                progress.page_indexes.len(),
                progress.position
            )));
        }
        let sorting_columns = sorting_columns(&schema, &options)?;
        let num_rows = progress
            .row_groups
            .iter()
            .try_fold(0i64, |n, g| n.checked_add(g.num_rows))
            .ok_or_else(|| Error::corrupt("row counts of the row groups overflow"))?;
        Ok(FileWriter {
            sink,
            position: progress.position,
            schema,
            options,
            row_groups: progress.row_groups,
            page_indexes: progress.page_indexes,
            sorting_columns,
            num_rows,
            crypto: None,
            bulk: None,
        })
    }

    /// What a checkpoint records of the file so far: its length, row groups and their page
    /// indexes (which [`close`](Self::close) writes).
    #[cfg_attr(not(feature = "logs"), allow(dead_code))] // only the log store (logs/) uses it
    pub(crate) fn progress(&self) -> FileProgress {
        FileProgress {
            position: self.position,
            row_groups: self.row_groups.clone(),
            page_indexes: self.page_indexes.clone(),
        }
    }

    /// The sink, to flush or sync what was written.
    #[cfg_attr(not(feature = "logs"), allow(dead_code))] // only the log store (logs/) uses it
    pub(crate) fn sink_mut(&mut self) -> &mut W {
        &mut self.sink
    }
}

/// The part of a file written so far: bytes, row groups, and each chunk's page indexes.
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(not(feature = "logs"), allow(dead_code))] // only the log store (logs/) uses it
pub(crate) struct FileProgress {
    /// Bytes written: the magic and the row groups' pages and Bloom filters.
    pub position: u64,
    /// The row groups written, as the footer will hold them.
    pub row_groups: Vec<RowGroup>,
    /// Per row group, per column: the page indexes written at close.
    pub page_indexes: Vec<Vec<(Option<ColumnIndex>, Option<OffsetIndex>)>>,
}

/// The statistics order of every leaf, as the footer declares it: `TYPE_ORDER`, except
/// IEEE 754 total order for floating point columns and chronological order for INT96 when
/// the options ask for them (the column writers then bound values in those orders).
pub(super) fn column_orders(schema: &Schema, options: &WriterOptions) -> Vec<ColumnOrder> {
    schema
        .columns()
        .iter()
        .map(|c| {
            let floating = matches!(c.physical_type, format::Type::Float | format::Type::Double)
                || SortOrder::for_column(c) == SortOrder::Float16;
            if floating && options.float_total_order {
                ColumnOrder::Ieee754TotalOrder
            } else if c.physical_type == format::Type::Int96 && options.int96_order {
                ColumnOrder::Int96TimestampOrder
            } else {
                ColumnOrder::TypeDefinedOrder
            }
        })
        .collect()
}

/// The sort keys of `options` as the footer holds them; fails when one names no leaf.
fn sorting_columns(schema: &Schema, options: &WriterOptions) -> Result<Option<Vec<SortingColumn>>> {
    Ok(if options.sorting_columns.is_empty() {
        None
    } else {
        let mut keys = Vec::with_capacity(options.sorting_columns.len());
        for k in &options.sorting_columns {
            let i = schema.column_index(k.column.as_str()).ok_or_else(|| {
                Error::invalid_argument(format!("sort key {:?} is not a leaf column", k.column))
            })?;
            keys.push(SortingColumn {
                // Leaf ordinals are far below i32::MAX (checked when the schema was built).
                column_idx: i32::try_from(i)
                    .map_err(|_| Error::invalid_argument("too many columns"))?,
                descending: k.descending,
                nulls_first: k.nulls_first,
            });
        }
        Some(keys)
    })
}

impl<W: Write> FileWriter<W> {
    /// Writes the pages of every row group with `bulk` rather than page by page.
    pub(crate) fn set_bulk_write(&mut self, bulk: BulkWrite<W>) {
        self.bulk = Some(bulk);
    }

    /// The schema being written.
    pub fn schema(&self) -> &Schema {
        &self.schema
    }

    /// The writer options.
    pub fn options(&self) -> &WriterOptions {
        &self.options
    }

    /// Adds a key-value pair to the footer, once the rows are known (compaction lists the
    /// inputs an output holds).
    pub(crate) fn push_key_value(&mut self, key: String, value: String) {
        self.options.key_value_metadata.push((key, Some(value)));
    }

    /// Row groups written so far.
    pub fn num_row_groups(&self) -> usize {
        self.row_groups.len()
    }

    /// Bytes written so far.
    pub fn bytes_written(&self) -> u64 {
        self.position
    }

    /// A fresh writer for leaf column `column`, with its options and sort order. In an
    /// encrypted file it encrypts its pages for the next row group to be written (the chunk
    /// cannot go into another one).
    pub fn column_writer(&self, column: usize) -> Result<ColumnChunkWriter> {
        let descr = self
            .schema
            .columns()
            .get(column)
            .ok_or_else(|| Error::invalid_argument(format!("no column {column}")))?;
        let path = descr.path.to_string();
        let mut writer = ColumnChunkWriter::for_column(descr, self.options.column_options(&path))?;
        if let Some(crypto) = &self.crypto {
            let row_group = self.row_groups.len();
            if let Some(e) = crypto
                .page_encryptor(row_group, column)
                .map_err(|e| e.with_column(path.clone()))?
            {
                writer.set_encryptor(e, (row_group, column));
            }
        }
        Ok(writer)
    }

    /// Checks that chunk `c` was encrypted (or not) as row group `row_group` needs.
    fn check_encryption(
        &self,
        row_group: usize,
        c: usize,
        chunk: &WrittenColumnChunk,
    ) -> Result<()> {
        let wanted = self
            .crypto
            .as_ref()
            .filter(|crypto| crypto.is_encrypted(c))
            .map(|_| (row_group, c));
        if chunk.encrypted_for == wanted {
            return Ok(());
        }
        let path = self.schema.columns()[c].path.to_string();
        Err(match (wanted, chunk.encrypted_for) {
            (Some(_), None) => Error::invalid_argument(
                "column chunk is not encrypted but the column is: make column writers with \
                 FileWriter::column_writer",
            ),
            (None, Some(_)) => Error::invalid_argument(
                "column chunk is encrypted but the column is written in plaintext",
            ),
            (_, Some((rg, col))) => Error::invalid_argument(format!(
                "column chunk was encrypted for row group {rg}, column {col} but is written as \
                 row group {row_group}, column {c}: make the column writers of a row group \
                 after writing the previous one"
            )),
            (_, None) => Error::invalid_argument("column chunk encryption mismatch"),
        }
        .with_column(path))
    }

    /// Writes a row group made of one finished chunk per leaf column, in schema order.
    pub fn write_row_group(&mut self, chunks: Vec<WrittenColumnChunk>) -> Result<()> {
        if chunks.len() != self.schema.num_columns() {
            return Err(Error::invalid_argument(format!(
                "row group has {} column chunks, the schema {} leaves",
                chunks.len(),
                self.schema.num_columns()
            )));
        }
        let num_rows = chunks.first().map_or(0, |c| c.num_rows);
        if let Some((i, c)) = chunks
            .iter()
            .enumerate()
            .find(|(_, c)| c.num_rows != num_rows)
        {
            return Err(Error::data(format!(
                "column chunk holds {} rows, the first one {num_rows}",
                c.num_rows
            ))
            .with_column(self.schema.columns()[i].path.to_string()));
        }
        let row_group = self.row_groups.len();
        let ordinal = i16::try_from(row_group)
            .map_err(|_| Error::invalid_argument("more than 32767 row groups"))?;
        for (c, chunk) in chunks.iter().enumerate() {
            self.check_encryption(row_group, c, chunk)?;
        }
        let file_offset = self.position as i64;
        let mut columns = Vec::with_capacity(chunks.len());
        let mut indexes = Vec::with_capacity(chunks.len());
        let mut blooms = Vec::new();
        let mut pages = Vec::with_capacity(chunks.len());
        let (mut total_uncompressed, mut total_compressed) = (0i64, 0i64);
        // Where every chunk goes; the bytes are written once all are placed.
        let mut position = self.position;
        for (c, chunk) in chunks.into_iter().enumerate() {
            let start = position as i64;
            position += chunk.len() as u64;
            pages.push(chunk.pages);
            let mut md = chunk.metadata;
            md.data_page_offset += start;
            md.dictionary_page_offset = md.dictionary_page_offset.map(|o| o + start);
            total_uncompressed += md.total_uncompressed_size;
            total_compressed += md.total_compressed_size;
            let mut offset_index = chunk.offset_index;
            if let Some(oi) = offset_index.as_mut() {
                for l in &mut oi.page_locations {
                    l.offset += start;
                }
            }
            indexes.push((chunk.column_index, offset_index));
            if let Some(b) = chunk.bloom_filter {
                blooms.push((c, b));
            }
            columns.push(ColumnChunk {
                file_path: None,
                file_offset: start,
                meta_data: Some(md),
                offset_index_offset: None,
                offset_index_length: None,
                column_index_offset: None,
                column_index_length: None,
                crypto_metadata: None,
                encrypted_column_metadata: None,
            });
        }
        let parts: Vec<&[u8]> = pages.iter().flatten().map(Vec::as_slice).collect();
        match self.bulk {
            Some(bulk) => bulk(&mut self.sink, &parts, self.options.threads)?,
            None => {
                for part in &parts {
                    self.sink.write_all(part)?;
                }
            }
        }
        drop(parts);
        drop(pages);
        self.position = position;
        // Bloom filters follow the row group's data.
        let mut buf = Vec::new();
        let mut plain = Vec::new();
        for (c, bloom) in blooms {
            buf.clear();
            match &self.crypto {
                Some(crypto) if crypto.is_encrypted(c) => {
                    // Header and bitset are two modules.
                    plain.clear();
                    format::encode(&bloom.header(), &mut plain);
                    crypto.module(
                        ModuleType::BloomFilterHeader,
                        row_group,
                        c,
                        &plain,
                        &mut buf,
                    )?;
                    crypto.module(
                        ModuleType::BloomFilterBitset,
                        row_group,
                        c,
                        &bloom.bitset(),
                        &mut buf,
                    )?;
                }
                _ => bloom.write(&mut buf),
            }
            let md = columns[c].meta_data.as_mut();
            if let Some(md) = md {
                md.bloom_filter_offset = Some(self.position as i64);
                md.bloom_filter_length = Some(
                    i32::try_from(buf.len())
                        .map_err(|_| Error::invalid_argument("Bloom filter larger than 2 GiB"))?,
                );
            }
            self.sink.write_all(&buf)?;
            self.position += buf.len() as u64;
        }
        if let Some(crypto) = &self.crypto {
            for (c, chunk) in columns.iter_mut().enumerate() {
                crypto.seal_column_chunk(row_group, c, chunk)?;
            }
        }
        self.page_indexes.push(indexes);
        self.num_rows += num_rows as i64;
        self.row_groups.push(RowGroup {
            columns,
            total_byte_size: total_uncompressed,
            num_rows: num_rows as i64,
            sorting_columns: self.sorting_columns.clone(),
            file_offset: Some(file_offset),
            total_compressed_size: Some(total_compressed),
            ordinal: Some(ordinal),
        });
        Ok(())
    }

    /// Writes the page indexes of every chunk: all ColumnIndexes, then all OffsetIndexes,
    /// and records where they are in the column chunks.
    fn write_page_indexes(&mut self) -> Result<()> {
        let mut buf = Vec::new();
        let mut plain = Vec::new();
        let indexes = std::mem::take(&mut self.page_indexes);
        let len = |n: usize| {
            i32::try_from(n).map_err(|_| Error::invalid_argument("page index larger than 2 GiB"))
        };
        for (rg, chunks) in indexes.iter().enumerate() {
            for (c, (ci, _)) in chunks.iter().enumerate() {
                if let Some(ci) = ci {
                    buf.clear();
                    match &self.crypto {
                        Some(crypto) => {
                            plain.clear();
                            format::encode(ci, &mut plain);
                            crypto.module(ModuleType::ColumnIndex, rg, c, &plain, &mut buf)?;
                        }
                        None => format::encode(ci, &mut buf),
                    }
                    let chunk = &mut self.row_groups[rg].columns[c];
                    chunk.column_index_offset = Some(self.position as i64);
                    chunk.column_index_length = Some(len(buf.len())?);
                    self.sink.write_all(&buf)?;
                    self.position += buf.len() as u64;
                }
            }
        }
        for (rg, chunks) in indexes.iter().enumerate() {
            for (c, (_, oi)) in chunks.iter().enumerate() {
                if let Some(oi) = oi {
                    buf.clear();
                    match &self.crypto {
                        Some(crypto) => {
                            plain.clear();
                            format::encode(oi, &mut plain);
                            crypto.module(ModuleType::OffsetIndex, rg, c, &plain, &mut buf)?;
                        }
                        None => format::encode(oi, &mut buf),
                    }
                    let chunk = &mut self.row_groups[rg].columns[c];
                    chunk.offset_index_offset = Some(self.position as i64);
                    chunk.offset_index_length = Some(len(buf.len())?);
                    self.sink.write_all(&buf)?;
                    self.position += buf.len() as u64;
                }
            }
        }
        Ok(())
    }

    /// Writes the page indexes and the footer, and returns the sink and the file's metadata
    /// (the footer as [`ParquetMetaData`] reads it back).
    ///
    /// In an encrypted file the metadata returned is the footer's before encryption: every
    /// column chunk keeps its whole metadata (the file stores it encrypted, or redacted
    /// under a plaintext footer), and it holds no keys: `is_encrypted()` is `false` on it.
    pub fn close(mut self) -> Result<(W, ParquetMetaData)> {
        self.write_page_indexes()?;
        let metadata = FileMetaData {
            version: 1,
            schema: self.schema.to_elements(),
            num_rows: self.num_rows,
            row_groups: std::mem::take(&mut self.row_groups),
            key_value_metadata: (!self.options.key_value_metadata.is_empty()).then(|| {
                self.options
                    .key_value_metadata
                    .iter()
                    .map(|(k, v)| KeyValue {
                        key: k.clone(),
                        value: v.clone(),
                    })
                    .collect()
            }),
            created_by: Some(CREATED_BY.to_string()),
            column_orders: Some(column_orders(&self.schema, &self.options)),
            encryption_algorithm: None,
            footer_signing_key_metadata: None,
        };
        let mut footer = Vec::new();
        let magic = match &self.crypto {
            Some(crypto) => {
                let written = crypto.footer_form(&metadata);
                crypto.write_footer(&written, &mut footer)?;
                if crypto.encrypted_footer() {
                    MAGIC_ENCRYPTED
                } else {
                    MAGIC
                }
            }
            None => {
                format::encode(&metadata, &mut footer);
                MAGIC
            }
        };
        let len = u32::try_from(footer.len())
            .map_err(|_| Error::invalid_argument("footer larger than 4 GiB"))?;
        footer.extend_from_slice(&len.to_le_bytes());
        footer.extend_from_slice(magic);
        let footer_offset = self.position;
        self.sink.write_all(&footer)?;
        self.sink.flush()?;
        let metadata = ParquetMetaData {
            file: metadata,
            schema: self.schema,
            footer_offset,
            decryptor: None,
        };
        Ok((self.sink, metadata))
    }
}

/// Room to leave after an in-memory file of `len` bytes for what follows a row group (more
/// row groups, page indexes, footer) without moving the file: pages never written are
/// never mapped.
fn slack(len: usize) -> usize {
    (len >> 6) + (1 << 20)
}

/// [`BulkWrite`] for an in-memory file: appends `parts` to `sink`, on up to `threads`
/// threads when they are many bytes (the copy is mostly page faults of fresh memory, which
/// threads take in parallel). The new buffer comes zeroed from the allocator, which maps
/// large ones lazily, so its pages are first touched by the threads copying into them.
pub(crate) fn extend_vec(
    sink: &mut Vec<u8>,
    parts: &[&[u8]],
    threads: usize,
) -> std::io::Result<()> {
    /// Below this, or with little room to gain over the bytes already in `sink`, one
    /// thread appends.
    const PARALLEL_BYTES: usize = 16 << 20;
    let total: usize = parts.iter().map(|p| p.len()).sum();
    let threads = threads.min(total / (PARALLEL_BYTES / 2)).min(parts.len());
    if threads < 2 || total < PARALLEL_BYTES || sink.len() > total / 4 {
        if total >= PARALLEL_BYTES {
            // As below: room for what follows, so that the page indexes and the footer
            // do not move the file (a copy of every byte, into fresh pages).
            sink.reserve(total + slack(sink.len() + total));
        } else {
            sink.reserve(total);
        }
        for part in parts {
            sink.extend_from_slice(part);
        }
        return Ok(());
    }
    let len = sink.len() + total;
    let mut out = vec![0u8; len + slack(len)];
    let (head, mut rest) = out.split_at_mut(sink.len());
    head.copy_from_slice(sink);
    // `threads` runs of parts of about equal bytes.
    let mut runs = Vec::with_capacity(threads);
    let mut parts = parts;
    for t in (1..=threads).rev() {
        let remaining: usize = parts.iter().map(|p| p.len()).sum();
        let target = remaining / t;
        let (mut k, mut bytes) = (0, 0);
        while k < parts.len() && (bytes < target || t == 1) {
            bytes += parts[k].len();
            k += 1;
        }
        let (run, more) = parts.split_at(k);
        let (dst, tail) = std::mem::take(&mut rest).split_at_mut(bytes);
        runs.push((dst, run));
        parts = more;
        rest = tail;
    }
    fn fill(dst: &mut [u8], parts: &[&[u8]]) {
        let mut at = 0;
        for p in parts {
            dst[at..at + p.len()].copy_from_slice(p);
            at += p.len();
        }
    }
    // A run per thread; without a helper thread (one that could not start), this one
    // copies them all.
    let runs: Vec<Vec<_>> = runs.into_iter().map(|run| vec![run]).collect();
    let copied = crate::exec::run_groups("parquet-serde-copy", threads, runs, |(dst, run)| {
        fill(dst, run);
        Ok(())
    });
    for done in copied.into_iter().flatten() {
        done?;
    }
    out.truncate(len);
    *sink = out;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extend_vec_appends_in_order() {
        // Parts of uneven sizes, 20 MiB in all: copied on several threads.
        let parts: Vec<Vec<u8>> = (0..57u32)
            .map(|i| {
                let len = (i as usize * 7919) % 700_000 + 1;
                (0..len).map(|j| (i as usize * 31 + j) as u8).collect()
            })
            .collect();
        let mut refs: Vec<&[u8]> = parts.iter().map(Vec::as_slice).collect();
        let extra = vec![9u8; 21 << 20];
        refs.push(&extra);
        let want: Vec<u8> = b"PAR1".iter().copied().chain(refs.concat()).collect();
        for threads in [1, 2, 3, 8] {
            let mut sink = b"PAR1".to_vec();
            extend_vec(&mut sink, &refs, threads).unwrap();
            assert!(sink == want, "{threads} threads");
            // Room for the page indexes and footer that follow, without moving the file
            // (on one thread too).
            assert!(
                sink.capacity() >= sink.len() + (1 << 20),
                "{threads} threads"
            );
        }
        // Small appends and a sink already holding much: one thread.
        let mut sink = want.clone();
        extend_vec(&mut sink, &[b"ab", b"", b"c"], 4).unwrap();
        assert_eq!(&sink[want.len()..], b"abc");
        let mut sink = Vec::new();
        extend_vec(&mut sink, &[], 4).unwrap();
        assert!(sink.is_empty());
    }
}
