//! [`FileWriter::copy_row_group`]: a row group of one file appended to another as stored
//! bytes.

use std::io::Write;

use crate::core::column::WrittenColumnChunk;
use crate::core::format::Type;
use crate::error::{Error, Result};

use super::reader::chunk_range;
use super::writer::column_orders;
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
    ///
    /// Statistics stay as they are, except the min/max and ColumnIndex of an INT96 chunk
    /// whose file does not declare `INT96_TIMESTAMP_ORDER` when this one does (and the
    /// other way round): they are dropped, as their order is not the one declared. Float
    /// bounds hold in either order (`TYPE_ORDER` and IEEE 754 total order bound the same
    /// non-NaN values), so they stay.
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
    let orders = column_orders(writer.schema(), writer.options());
    let mut chunks = Vec::with_capacity(reader.schema().num_columns());
    for column in 0..reader.schema().num_columns() {
        let at = |e: Error| {
            e.with_row_group(row_group)
                .with_column(reader.schema().columns()[column].path.to_string())
        };
        let mut chunk = copy_chunk(reader, row_group, column, num_rows).map_err(at)?;
        // INT96 bounds mean something only in INT96_TIMESTAMP_ORDER: copied into a file
        // that declares that order from one that does not (older writers ordered INT96
        // otherwise), they are dropped, with the ColumnIndex, rather than trusted.
        let int96 = reader.schema().columns()[column].physical_type == Type::Int96;
        if int96 && metadata.column_order(column) != orders.get(column) {
            if let Some(s) = chunk.metadata.statistics.as_mut() {
                (s.min_value, s.max_value, s.min, s.max) = (None, None, None, None);
                (s.is_min_value_exact, s.is_max_value_exact) = (None, None);
            }
            chunk.column_index = None;
        }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::column::{ColumnBatch, Scalar};
    use crate::core::file::WriterOptions;
    use crate::core::values::{ColumnValues, Int96};

    fn int96_file(options: WriterOptions) -> FileReader<Vec<u8>> {
        let schema: crate::core::schema::Schema =
            "message m { required int96 t; }".parse().unwrap();
        let mut w = FileWriter::new(Vec::new(), schema, options).unwrap();
        let mut c = w.column_writer(0).unwrap();
        let values = ColumnValues::Int96(vec![Int96::from_nanos(7), Int96::from_nanos(-3)]);
        c.write(&ColumnBatch {
            values,
            def_levels: vec![],
            rep_levels: vec![],
        })
        .unwrap();
        w.write_row_group(vec![c.close().unwrap()]).unwrap();
        FileReader::new(w.close().unwrap().0).unwrap()
    }

    fn copied(from: &FileReader<Vec<u8>>, options: WriterOptions) -> FileReader<Vec<u8>> {
        let mut w = FileWriter::new(Vec::new(), from.schema().clone(), options).unwrap();
        w.copy_row_group(from, 0).unwrap();
        FileReader::new(w.close().unwrap().0).unwrap()
    }

    #[test]
    fn int96_bounds_are_copied_only_into_the_same_order() {
        let source = int96_file(WriterOptions::default());
        let same = copied(&source, WriterOptions::default());
        let s = same.metadata().column_statistics(0, 0).unwrap();
        assert_eq!(
            (s.min, s.max),
            (Some(Scalar::Int(-3)), Some(Scalar::Int(7)))
        );
        assert!(same.column_index(0, 0).unwrap().is_some());
        // Into a TYPE_ORDER file the bounds (and ColumnIndex) would claim an order the
        // footer does not declare: dropped; the rows are the same.
        let other = copied(
            &source,
            WriterOptions::default().int96_timestamp_order(false),
        );
        assert_eq!(other.metadata().column_order_name(0), Some("TYPE_ORDER"));
        let raw = other
            .metadata()
            .row_group(0)
            .unwrap()
            .column(0)
            .unwrap()
            .raw_statistics()
            .unwrap();
        assert_eq!(
            (raw.min_value(), raw.max_value(), raw.null_count()),
            (None, None, Some(0))
        );
        assert!(other.column_index(0, 0).unwrap().is_none());
        assert_eq!(
            other.read_column(0, 0).unwrap().values,
            source.read_column(0, 0).unwrap().values
        );
    }
}
