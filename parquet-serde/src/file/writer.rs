//! [`FileWriter`]: magic, row groups of column chunks, footer.

use std::io::Write;

use crate::column::{ColumnChunkWriter, SortOrder, WrittenColumnChunk};
use crate::error::{Error, Result};
use crate::format::{
    self, ColumnChunk, ColumnOrder, ConvertedType, FileMetaData, KeyValue, LogicalType, RowGroup,
    Type,
};
use crate::schema::{ColumnDescriptor, Schema};

use super::footer::MAGIC;
use super::options::WriterOptions;

/// The `created_by` string of files this library writes.
pub const CREATED_BY: &str = concat!("parquet-serde version ", env!("CARGO_PKG_VERSION"));

/// Writes a Parquet file: one row group at a time, each made of one finished column chunk
/// per leaf column, then the footer.
///
/// ```
/// use parquet_serde::column::ColumnBatch;
/// use parquet_serde::file::{FileReader, FileWriter, WriterOptions};
/// use parquet_serde::schema::Schema;
/// use parquet_serde::values::ColumnValues;
///
/// let schema: Schema = "message m { required int64 id; optional binary name (STRING); }".parse()?;
/// let mut writer = FileWriter::new(Vec::new(), schema, WriterOptions::default())?;
/// let mut id = writer.column_writer(0)?;
/// id.write(&ColumnBatch { values: ColumnValues::Int64(vec![1, 2]), def_levels: vec![], rep_levels: vec![] })?;
/// let mut name = writer.column_writer(1)?;
/// let mut names = parquet_serde::values::ByteArrays::new();
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
    num_rows: i64,
}

impl<W: Write> FileWriter<W> {
    /// Starts a file: writes the leading magic.
    pub fn new(mut sink: W, schema: Schema, options: WriterOptions) -> Result<Self> {
        sink.write_all(MAGIC)?;
        Ok(FileWriter {
            sink,
            position: MAGIC.len() as u64,
            schema,
            options,
            row_groups: Vec::new(),
            num_rows: 0,
        })
    }

    /// The schema being written.
    pub fn schema(&self) -> &Schema {
        &self.schema
    }

    /// The writer options.
    pub fn options(&self) -> &WriterOptions {
        &self.options
    }

    /// Row groups written so far.
    pub fn num_row_groups(&self) -> usize {
        self.row_groups.len()
    }

    /// Bytes written so far.
    pub fn bytes_written(&self) -> u64 {
        self.position
    }

    /// A fresh writer for leaf column `column`, with its options and sort order.
    pub fn column_writer(&self, column: usize) -> Result<ColumnChunkWriter> {
        let descr = self
            .schema
            .columns()
            .get(column)
            .ok_or_else(|| Error::invalid_argument(format!("no column {column}")))?;
        let path = descr.path.to_string();
        ColumnChunkWriter::new(
            descr.path.parts().to_vec(),
            descr.physical_type,
            descr.type_length,
            descr.max_def_level,
            descr.max_rep_level,
            sort_order(descr),
            self.options.column_options(&path),
        )
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
        let ordinal = i16::try_from(self.row_groups.len())
            .map_err(|_| Error::invalid_argument("more than 32767 row groups"))?;
        let file_offset = self.position as i64;
        let mut columns = Vec::with_capacity(chunks.len());
        let (mut total_uncompressed, mut total_compressed) = (0i64, 0i64);
        for chunk in chunks {
            let start = self.position as i64;
            self.sink.write_all(&chunk.data)?;
            self.position += chunk.data.len() as u64;
            let mut md = chunk.metadata;
            md.data_page_offset += start;
            md.dictionary_page_offset = md.dictionary_page_offset.map(|o| o + start);
            total_uncompressed += md.total_uncompressed_size;
            total_compressed += md.total_compressed_size;
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
        self.num_rows += num_rows as i64;
        self.row_groups.push(RowGroup {
            columns,
            total_byte_size: total_uncompressed,
            num_rows: num_rows as i64,
            sorting_columns: None,
            file_offset: Some(file_offset),
            total_compressed_size: Some(total_compressed),
            ordinal: Some(ordinal),
        });
        Ok(())
    }

    /// Writes the footer and returns the sink and the file metadata.
    pub fn close(mut self) -> Result<(W, FileMetaData)> {
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
            column_orders: Some(vec![
                ColumnOrder::TypeDefinedOrder;
                self.schema.num_columns()
            ]),
            encryption_algorithm: None,
            footer_signing_key_metadata: None,
        };
        let mut footer = Vec::new();
        format::encode(&metadata, &mut footer);
        let len = u32::try_from(footer.len())
            .map_err(|_| Error::invalid_argument("footer larger than 4 GiB"))?;
        footer.extend_from_slice(&len.to_le_bytes());
        footer.extend_from_slice(MAGIC);
        self.sink.write_all(&footer)?;
        self.sink.flush()?;
        Ok((self.sink, metadata))
    }
}

/// How the values of a column compare for statistics: unsigned for unsigned integers and
/// byte strings, signed for other numbers, undefined where this writer does not implement
/// the type's order (INT96, INTERVAL, decimals and FLOAT16 stored as bytes).
pub fn sort_order(descr: &ColumnDescriptor) -> SortOrder {
    match (&descr.logical_type, descr.converted_type) {
        (
            Some(LogicalType::Integer {
                is_signed: false, ..
            }),
            _,
        ) => return SortOrder::Unsigned,
        (
            None,
            Some(
                ConvertedType::Uint8
                | ConvertedType::Uint16
                | ConvertedType::Uint32
                | ConvertedType::Uint64,
            ),
        ) => return SortOrder::Unsigned,
        (_, Some(ConvertedType::Interval)) => return SortOrder::Undefined,
        (Some(LogicalType::Decimal { .. } | LogicalType::Float16 | LogicalType::Unknown(_)), _) => {
            if matches!(
                descr.physical_type,
                Type::ByteArray | Type::FixedLenByteArray
            ) {
                return SortOrder::Undefined;
            }
        }
        (None, Some(ConvertedType::Decimal)) => {
            if matches!(
                descr.physical_type,
                Type::ByteArray | Type::FixedLenByteArray
            ) {
                return SortOrder::Undefined;
            }
        }
        _ => {}
    }
    match descr.physical_type {
        Type::Int96 | Type::Unknown(_) => SortOrder::Undefined,
        Type::ByteArray | Type::FixedLenByteArray => SortOrder::Unsigned,
        _ => SortOrder::Signed,
    }
}
