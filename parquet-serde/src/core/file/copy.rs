//! [`FileWriter::copy_row_group`]: a row group of one file appended to another as stored
//! bytes.

use std::io::Write;

use crate::core::column::WrittenColumnChunk;
use crate::error::{Error, Result};

use super::reader::chunk_range;
use super::{ChunkReader, FileReader, FileWriter};

impl<W: Write> FileWriter<W> {
    /// Appends row group `row_group` of `reader` to this file without decoding it: each column
    /// chunk's pages are copied byte for byte (same encodings, compression, checksums and
    /// statistics), its page index and Bloom filter moved along with it.
    ///
    /// The two schemas must have the same leaf columns (paths, physical types, levels).
    /// Encrypted files, in or out, are refused: their pages are bound to their file, row
    /// group and column. So are chunks this cannot copy exactly (stored in another file, or
    /// written by old parquet-mr with a wrong chunk size); rewrite those by decoding them
    /// ([`FileReader::read_column`] into [`FileWriter::column_writer`]).
    /// Errors are [`ErrorKind::Unsupported`](crate::ErrorKind::Unsupported) for the refused
    /// cases, [`ErrorKind::Schema`](crate::ErrorKind::Schema) for other schemas.
    ///
    /// ```
    /// use parquet_serde::core::file::{FileReader, FileWriter};
    ///
    /// #[derive(serde::Serialize, parquet_serde::ParquetSchema)]
    /// struct Row { id: i64 }
    /// let a = parquet_serde::to_vec(&[Row { id: 1 }, Row { id: 2 }])?;
    /// let b = parquet_serde::to_vec(&[Row { id: 3 }])?;
    /// let (a, b) = (FileReader::new(a)?, FileReader::new(b)?);
    /// let mut out = FileWriter::new(Vec::new(), a.schema().clone(), Default::default())?;
    /// out.copy_row_group(&a, 0)?;
    /// out.copy_row_group(&b, 0)?;
    /// let (bytes, _) = out.close()?;
    /// let ids: Vec<Row2> = parquet_serde::from_slice(&bytes)?;
    /// # #[derive(serde::Deserialize, PartialEq, Debug)] struct Row2 { id: i64 }
    /// assert_eq!(ids, [Row2 { id: 1 }, Row2 { id: 2 }, Row2 { id: 3 }]);
    /// # Ok::<(), parquet_serde::Error>(())
    /// ```
    pub fn copy_row_group<R: ChunkReader>(
        &mut self,
        reader: &FileReader<R>,
        row_group: usize,
    ) -> Result<()> {
        copy_row_group(self, reader, row_group)
    }
}

fn copy_row_group<R: ChunkReader, W: Write>(
    writer: &mut FileWriter<W>,
    reader: &FileReader<R>,
    row_group: usize,
) -> Result<()> {
    if writer.options().encryption.is_some() {
        return Err(Error::unsupported(
            "row groups cannot be copied into an encrypted file",
        ));
    }
    let metadata = reader.metadata();
    if metadata.is_encrypted() {
        return Err(Error::unsupported(
            "row groups of an encrypted file cannot be copied",
        ));
    }
    if metadata.has_parquet_816_bug() {
        return Err(Error::unsupported(
            "the file's column chunk sizes are wrong (PARQUET-816): its row groups cannot be \
             copied as stored",
        ));
    }
    same_columns(writer, reader)?;
    let group = metadata.file.row_groups.get(row_group).ok_or_else(|| {
        Error::invalid_argument(format!(
            "no row group {row_group} (the file has {})",
            metadata.num_row_groups()
        ))
    })?;
    let num_rows = u64::try_from(group.num_rows)
        .map_err(|_| Error::corrupt(format!("negative row count {}", group.num_rows)))?;
    let mut chunks = Vec::with_capacity(reader.schema().num_columns());
    for column in 0..reader.schema().num_columns() {
        let at = |e: Error| {
            e.with_row_group(row_group)
                .with_column(reader.schema().columns()[column].path.to_string())
        };
        let chunk = copy_chunk(reader, row_group, column, num_rows).map_err(at)?;
        chunks.push(chunk);
    }
    writer.write_row_group(chunks)
}

/// One column chunk of `reader` as a chunk ready for [`FileWriter::write_row_group`].
fn copy_chunk<R: ChunkReader>(
    reader: &FileReader<R>,
    row_group: usize,
    column: usize,
    num_rows: u64,
) -> Result<WrittenColumnChunk> {
    let stored = reader.metadata().column_chunk(row_group, column)?;
    if stored.file_path.is_some() {
        return Err(Error::unsupported(
            "column chunk stored in another file (file_path)",
        ));
    }
    let data = reader.column_chunk(row_group, column)?;
    let mut md = stored
        .meta_data
        .clone()
        .ok_or_else(|| Error::corrupt("column chunk without metadata"))?;
    let (start, len) = chunk_range(&md);
    if data.bytes.len() as u64 != len {
        return Err(Error::corrupt(format!(
            "column chunk of {len} bytes, {} read",
            data.bytes.len()
        )));
    }
    let rebase = |offset: i64| -> Result<i64> {
        u64::try_from(offset)
            .ok()
            .and_then(|o| o.checked_sub(start))
            .filter(|&o| o < len.max(1))
            .and_then(|o| i64::try_from(o).ok())
            .ok_or_else(|| {
                Error::corrupt(format!(
                    "page offset {offset} outside the column chunk at {start} ({len} bytes)"
                ))
            })
    };
    md.data_page_offset = rebase(md.data_page_offset)?;
    md.dictionary_page_offset = match md.dictionary_page_offset {
        Some(d) if d > 0 && (d as u64) == start && md.data_page_offset > 0 => Some(0),
        _ => None,
    };
    md.index_page_offset = None;
    md.bloom_filter_offset = None;
    md.bloom_filter_length = None;
    let mut offset_index = reader.offset_index(row_group, column)?;
    if let Some(oi) = offset_index.as_mut() {
        for page in &mut oi.page_locations {
            page.offset = rebase(page.offset)?;
        }
    }
    Ok(WrittenColumnChunk {
        pages: vec![data.bytes.into_owned()],
        metadata: md,
        num_rows,
        column_index: reader.column_index(row_group, column)?,
        offset_index,
        bloom_filter: reader.bloom_filter(row_group, column)?,
        encrypted_for: None,
    })
}

/// Whether the leaf columns of `writer` and `reader` are the same.
fn same_columns<R: ChunkReader, W: Write>(
    writer: &FileWriter<W>,
    reader: &FileReader<R>,
) -> Result<()> {
    let (ours, theirs) = (writer.schema().columns(), reader.schema().columns());
    if ours.len() != theirs.len() {
        return Err(Error::schema(format!(
            "the file has {} leaf columns, the output {}",
            theirs.len(),
            ours.len()
        )));
    }
    for (a, b) in ours.iter().zip(theirs) {
        if a.path != b.path
            || a.physical_type != b.physical_type
            || a.type_length != b.type_length
            || a.max_def_level != b.max_def_level
            || a.max_rep_level != b.max_rep_level
        {
            return Err(Error::schema(format!(
                "column {} of the file does not match column {} of the output",
                b.path, a.path
            )));
        }
    }
    Ok(())
}
