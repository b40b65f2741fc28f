//! The footer: magic bytes, metadata length, FileMetaData and the schema built from it.

use crate::error::{Error, Result};
use crate::format::{self, FileMetaData};
use crate::schema::Schema;

use super::ChunkReader;

/// Magic bytes at both ends of a Parquet file.
pub const MAGIC: &[u8; 4] = b"PAR1";
/// Magic bytes of a file whose footer is encrypted.
pub const MAGIC_ENCRYPTED: &[u8; 4] = b"PARE";
/// The 4-byte metadata length plus the 4 magic bytes at the end.
pub const FOOTER_SIZE: usize = 8;

/// A file's metadata: the Thrift FileMetaData and the schema built from it.
#[derive(Debug, Clone)]
pub struct ParquetMetaData {
    /// The decoded footer.
    pub file: FileMetaData,
    /// The schema tree and its column descriptors.
    pub schema: Schema,
    /// File offset where the serialized FileMetaData starts (column data ends before it).
    pub footer_offset: u64,
}

impl ParquetMetaData {
    /// Number of row groups.
    pub fn num_row_groups(&self) -> usize {
        self.file.row_groups.len()
    }

    /// Total rows.
    pub fn num_rows(&self) -> i64 {
        self.file.num_rows
    }

    /// Whether the writer is parquet-mr before 1.2.9, whose column chunk sizes leave out the
    /// dictionary page header (PARQUET-816); readers pad those chunks as other readers do.
    pub fn has_parquet_816_bug(&self) -> bool {
        let Some(created_by) = self.file.created_by.as_deref() else {
            return false;
        };
        let mut words = created_by.split_whitespace();
        if words.next() != Some("parquet-mr") {
            return false;
        }
        let version = match (words.next(), words.next()) {
            (Some("version"), Some(v)) => v,
            _ => return true, // no version: older than any fixed one
        };
        let parts: Vec<u32> = version
            .split(|c: char| !c.is_ascii_digit())
            .take(3)
            .map(|p| p.parse().unwrap_or(0))
            .collect();
        let v = (
            parts.first().copied().unwrap_or(0),
            parts.get(1).copied().unwrap_or(0),
            parts.get(2).copied().unwrap_or(0),
        );
        v < (1, 2, 9)
    }

    /// Key-value metadata value for `key` (`None` when absent or without a value).
    pub fn key_value(&self, key: &str) -> Option<&str> {
        self.file
            .key_value_metadata
            .as_ref()?
            .iter()
            .find(|kv| kv.key == key)
            .and_then(|kv| kv.value.as_deref())
    }
}

/// Reads and checks the footer of a file: magic at both ends, metadata length within the
/// file, FileMetaData, schema, and one column chunk per leaf in every row group.
pub fn parse_footer<R: ChunkReader + ?Sized>(reader: &R) -> Result<ParquetMetaData> {
    let len = reader.len_bytes();
    if len < (MAGIC.len() + FOOTER_SIZE) as u64 {
        return Err(Error::corrupt(format!(
            "file of {len} bytes is too small to be Parquet (at least 12)"
        )));
    }
    let tail = reader.read_range(len - FOOTER_SIZE as u64, FOOTER_SIZE)?;
    let magic = &tail[4..8];
    if magic == MAGIC_ENCRYPTED {
        return Err(Error::unsupported(
            "encrypted footer (PARE): this build reads only plaintext footers",
        ));
    }
    if magic != MAGIC {
        return Err(Error::corrupt(format!(
            "no PAR1 magic at the end of the file (found {magic:02x?})"
        ))
        .with_offset(len - 4));
    }
    let head = reader.read_range(0, MAGIC.len())?;
    if &head[..] != MAGIC {
        return Err(Error::corrupt("no PAR1 magic at the start of the file").with_offset(0));
    }
    let metadata_len = u32::from_le_bytes([tail[0], tail[1], tail[2], tail[3]]) as u64;
    let max = len - (MAGIC.len() + FOOTER_SIZE) as u64;
    if metadata_len > max {
        return Err(Error::corrupt(format!(
            "footer length {metadata_len} exceeds the {max} bytes between the magic numbers"
        ))
        .with_offset(len - 8));
    }
    let start = len - FOOTER_SIZE as u64 - metadata_len;
    let bytes = reader.read_range(start, metadata_len as usize)?;
    let (file, _) = format::decode::<FileMetaData>(&bytes)
        .map_err(|e| e.context("file metadata").with_offset(start))?;
    let schema =
        Schema::from_elements(&file.schema).map_err(|e| e.context("schema in the footer"))?;
    check_row_groups(&file, &schema, start)?;
    Ok(ParquetMetaData {
        file,
        schema,
        footer_offset: start,
    })
}

fn check_row_groups(file: &FileMetaData, schema: &Schema, footer_start: u64) -> Result<()> {
    if file.num_rows < 0 {
        return Err(Error::corrupt(format!(
            "negative num_rows {}",
            file.num_rows
        )));
    }
    for (i, rg) in file.row_groups.iter().enumerate() {
        if rg.columns.len() != schema.num_columns() {
            return Err(Error::corrupt(format!(
                "row group has {} column chunks, the schema {} leaves",
                rg.columns.len(),
                schema.num_columns()
            ))
            .with_row_group(i));
        }
        if rg.num_rows < 0 {
            return Err(
                Error::corrupt(format!("negative num_rows {}", rg.num_rows)).with_row_group(i)
            );
        }
        for (c, chunk) in rg.columns.iter().enumerate() {
            let path = || schema.columns()[c].path.to_string();
            if let Some(md) = &chunk.meta_data {
                if md.total_compressed_size < 0 || md.data_page_offset < 0 || md.num_values < 0 {
                    return Err(Error::corrupt(
                        "negative size, offset or count in column metadata",
                    )
                    .with_row_group(i)
                    .with_column(path()));
                }
                let (start, len) = super::reader::chunk_range(md);
                if start.checked_add(len).is_none_or(|end| end > footer_start) {
                    return Err(Error::corrupt(format!(
                        "column chunk at {start}..{} overlaps the footer at {footer_start}",
                        start as u128 + len as u128
                    ))
                    .with_row_group(i)
                    .with_column(path()));
                }
            }
        }
    }
    Ok(())
}
