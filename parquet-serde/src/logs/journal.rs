//! The journal's records: a header (schema, codec, data file), checkpoints of the data
//! file's row groups, and rows not yet in a row group, as raw column batches (LZ4).

use std::str::FromStr;

use crate::core::column::{decode_plain, empty_values, encode_plain, ColumnBatch};
use crate::core::compression::Compression;
use crate::core::file::{FileProgress, WriterOptions};
use crate::core::format::{self, ColumnIndex, FileMetaData, KeyValue, OffsetIndex, RowGroup};
use crate::core::schema::{ColumnDescriptor, Schema};
use crate::error::{Error, Result};

use super::frame::{put_bytes, Cursor};

/// Record kinds.
pub(crate) const HEADER: u8 = 1;
/// A checkpoint of the data file.
pub(crate) const CHECKPOINT: u8 = 2;
/// Rows after the last checkpoint's row groups.
pub(crate) const ROWS: u8 = 3;
/// The same, the payload LZ4-compressed: `[raw length u32][LZ4 block]` (what writers write
/// since the journal was compressed; [`ROWS`] is still read).
pub(crate) const ROWS_LZ4: u8 = 4;

/// The largest decompressed rows payload accepted (a frame is at most 1 GiB compressed;
/// raw row batches of one row group stay far below this).
const MAX_RAW_ROWS: usize = 1 << 31;

/// The first bytes of a header's payload.
const MAGIC: &[u8; 8] = b"PSLOGJ01";

/// What a journal says about its data file.
#[derive(Debug)]
pub(crate) struct Header {
    /// The schema of the rows.
    pub schema: Schema,
    /// The file's default codec.
    pub compression: Compression,
    /// The footer's key-value metadata.
    pub key_value_metadata: Vec<(String, Option<String>)>,
}

/// A header record's payload for a file of `schema` written with `options`.
pub(crate) fn encode_header(schema: &Schema, options: &WriterOptions) -> Result<Vec<u8>> {
    let mut out = MAGIC.to_vec();
    put_bytes(options.compression.to_string().as_bytes(), &mut out)?;
    let metadata = FileMetaData {
        version: 1,
        schema: schema.to_elements(),
        num_rows: 0,
        row_groups: Vec::new(),
        key_value_metadata: Some(
            options
                .key_value_metadata
                .iter()
                .map(|(k, v)| KeyValue {
                    key: k.clone(),
                    value: v.clone(),
                })
                .collect(),
        ),
        created_by: None,
        column_orders: None,
        encryption_algorithm: None,
        footer_signing_key_metadata: None,
    };
    format::encode(&metadata, &mut out);
    Ok(out)
}

/// Reads a header record's payload.
pub(crate) fn decode_header(payload: &[u8]) -> Result<Header> {
    let mut c = Cursor::new(payload, "journal header");
    if c.take(MAGIC.len())? != MAGIC {
        return Err(Error::corrupt(
            "not a parquet-serde log journal (bad magic)",
        ));
    }
    let codec = c.str()?;
    let compression = Compression::from_str(codec)
        .map_err(|e| e.context(format!("the journal's codec `{codec}`")))?;
    let (metadata, _) = format::decode::<FileMetaData>(c.rest())
        .map_err(|e| e.context("the journal header's schema"))?;
    let schema = Schema::from_elements(&metadata.schema)
        .map_err(|e| e.context("the journal header's schema"))?;
    let key_value_metadata = metadata
        .key_value_metadata
        .unwrap_or_default()
        .into_iter()
        .map(|kv| (kv.key, kv.value))
        .collect();
    Ok(Header {
        schema,
        compression,
        key_value_metadata,
    })
}

/// A checkpoint record's payload: the data file's length, row groups and page indexes.
pub(crate) fn encode_checkpoint(progress: &FileProgress) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    out.extend_from_slice(&progress.position.to_le_bytes());
    let groups = u32::try_from(progress.row_groups.len())
        .map_err(|_| Error::invalid_argument("too many row groups"))?;
    out.extend_from_slice(&groups.to_le_bytes());
    let mut buf = Vec::new();
    for (group, indexes) in progress.row_groups.iter().zip(&progress.page_indexes) {
        buf.clear();
        format::encode(group, &mut buf);
        put_bytes(&buf, &mut out)?;
        for (ci, oi) in indexes {
            out.push(u8::from(ci.is_some()) | (u8::from(oi.is_some()) << 1));
            if let Some(ci) = ci {
                buf.clear();
                format::encode(ci, &mut buf);
                put_bytes(&buf, &mut out)?;
            }
            if let Some(oi) = oi {
                buf.clear();
                format::encode(oi, &mut buf);
                put_bytes(&buf, &mut out)?;
            }
        }
    }
    Ok(out)
}

/// Reads a checkpoint record's payload, checking it against `schema`.
pub(crate) fn decode_checkpoint(payload: &[u8], schema: &Schema) -> Result<FileProgress> {
    let mut c = Cursor::new(payload, "journal checkpoint");
    let position = c.u64()?;
    let groups = c.u32()? as usize;
    // Each row group takes at least its length: no allocation past the payload's size.
    if groups > payload.len() / 4 {
        return Err(Error::corrupt(format!(
            "journal checkpoint claims {groups} row groups in {} bytes",
            payload.len()
        )));
    }
    let columns = schema.num_columns();
    let mut progress = FileProgress {
        position,
        row_groups: Vec::with_capacity(groups),
        page_indexes: Vec::with_capacity(groups),
    };
    for g in 0..groups {
        let (group, _) = format::decode::<RowGroup>(c.bytes()?)
            .map_err(|e| e.context(format!("journal checkpoint, row group {g}")))?;
        check_group(&group, g, columns, position)?;
        let mut indexes = Vec::with_capacity(columns);
        for _ in 0..columns {
            let flags = c.u8()?;
            let ci = if flags & 1 != 0 {
                Some(format::decode::<ColumnIndex>(c.bytes()?)?.0)
            } else {
                None
            };
            let oi = if flags & 2 != 0 {
                Some(format::decode::<OffsetIndex>(c.bytes()?)?.0)
            } else {
                None
            };
            indexes.push((ci, oi));
        }
        progress.row_groups.push(group);
        progress.page_indexes.push(indexes);
    }
    if !c.is_done() {
        return Err(Error::corrupt(
            "journal checkpoint has bytes after its row groups",
        ));
    }
    Ok(progress)
}

/// Checks that a checkpointed row group fits the schema and lies within the file's first
/// `position` bytes.
fn check_group(group: &RowGroup, g: usize, columns: usize, position: u64) -> Result<()> {
    let bad = |m: String| Err(Error::corrupt(m).with_row_group(g));
    if group.columns.len() != columns {
        return bad(format!(
            "checkpointed row group has {} columns, the schema {columns}",
            group.columns.len()
        ));
    }
    if group.num_rows < 0 {
        return bad(format!(
            "checkpointed row group has {} rows",
            group.num_rows
        ));
    }
    for chunk in &group.columns {
        let Some(md) = &chunk.meta_data else {
            return bad("checkpointed column chunk has no metadata".into());
        };
        let start = md.dictionary_page_offset.unwrap_or(md.data_page_offset);
        let end = start.checked_add(md.total_compressed_size);
        if start < 4 || end.is_none_or(|e| e as u64 > position) {
            return bad(format!(
                "checkpointed column chunk at byte {start} of {} bytes lies outside the \
                 {position} bytes checkpointed",
                md.total_compressed_size
            ));
        }
    }
    Ok(())
}

/// Appends a rows record's payload for `rows` rows held in `batches` (one per leaf).
pub(crate) fn encode_rows(rows: usize, batches: &[ColumnBatch], out: &mut Vec<u8>) -> Result<()> {
    let count = |n: usize| {
        u32::try_from(n).map_err(|_| Error::invalid_argument("journal record too large"))
    };
    out.extend_from_slice(&count(rows)?.to_le_bytes());
    out.extend_from_slice(&count(batches.len())?.to_le_bytes());
    for b in batches {
        for levels in [&b.def_levels, &b.rep_levels] {
            out.extend_from_slice(&count(levels.len())?.to_le_bytes());
            out.extend(levels.iter().flat_map(|l| l.to_le_bytes()));
        }
        out.extend_from_slice(&count(b.values.len())?.to_le_bytes());
        let at = out.len();
        out.extend_from_slice(&[0; 4]);
        encode_plain(&b.values, out)?;
        let len = count(out.len() - at - 4)?;
        out[at..at + 4].copy_from_slice(&len.to_le_bytes());
    }
    Ok(())
}

/// Appends a [`ROWS_LZ4`] record's payload for `rows` rows held in `batches`: the raw
/// payload of [`encode_rows`] (built in `raw`, whose allocation is reused) compressed. Row
/// batches of log data compress 5-10x, so the journal writes and syncs that much less.
pub(crate) fn encode_rows_lz4(
    rows: usize,
    batches: &[ColumnBatch],
    raw: &mut Vec<u8>,
    out: &mut Vec<u8>,
) -> Result<()> {
    raw.clear();
    encode_rows(rows, batches, raw)?;
    let len = u32::try_from(raw.len())
        .ok()
        .filter(|&n| n as usize <= MAX_RAW_ROWS)
        .ok_or_else(|| Error::invalid_argument("journal record too large"))?;
    out.extend_from_slice(&len.to_le_bytes());
    let at = out.len();
    out.resize(at + lz4_flex::block::get_maximum_output_size(raw.len()), 0);
    let n = lz4_flex::block::compress_into(raw, &mut out[at..]).map_err(|e| {
        Error::new(crate::ErrorKind::Internal, format!("LZ4 compression: {e}")).with_source(e)
    })?;
    out.truncate(at + n);
    Ok(())
}

/// Reads a [`ROWS_LZ4`] record's payload (see [`decode_rows`]).
pub(crate) fn decode_rows_lz4(
    payload: &[u8],
    schema: &Schema,
) -> Result<(usize, Vec<ColumnBatch>)> {
    let (len, block) = payload
        .split_first_chunk::<4>()
        .ok_or_else(|| Error::corrupt("journal rows record shorter than its length"))?;
    let len = u32::from_le_bytes(*len) as usize;
    // LZ4 expands at most 255x; a length beyond that (or the cap) is corrupt, not a reason
    // to allocate.
    if len > MAX_RAW_ROWS || len > block.len().saturating_mul(255) {
        return Err(Error::corrupt(format!(
            "journal rows record claims {len} bytes from {} compressed",
            block.len()
        )));
    }
    let mut raw = vec![0u8; len];
    let n = lz4_flex::block::decompress_into(block, &mut raw)
        .map_err(|e| Error::corrupt(format!("journal rows record: LZ4: {e}")).with_source(e))?;
    if n != len {
        return Err(Error::corrupt(format!(
            "journal rows record holds {n} bytes, its length says {len}"
        )));
    }
    decode_rows(&raw, schema)
}

/// Reads a rows record's payload: the row count and one checked batch per leaf of `schema`.
pub(crate) fn decode_rows(payload: &[u8], schema: &Schema) -> Result<(usize, Vec<ColumnBatch>)> {
    let mut c = Cursor::new(payload, "journal rows");
    let rows = c.u32()? as usize;
    let columns = c.u32()? as usize;
    if columns != schema.num_columns() {
        return Err(Error::corrupt(format!(
            "journal rows record has {columns} columns, the schema {}",
            schema.num_columns()
        )));
    }
    let mut out = Vec::with_capacity(columns);
    for descr in schema.columns() {
        let mut levels = [Vec::new(), Vec::new()];
        for l in &mut levels {
            let n = c.u32()? as usize;
            let bytes = c.take(
                n.checked_mul(2)
                    .ok_or_else(|| Error::corrupt("level count"))?,
            )?;
            *l = bytes
                .chunks_exact(2)
                .map(|b| i16::from_le_bytes([b[0], b[1]]))
                .collect();
        }
        let [def_levels, rep_levels] = levels;
        let n = c.u32()? as usize;
        let bytes = c.bytes()?;
        let mut values = empty_values(descr.physical_type, descr.type_length);
        let used = decode_plain(bytes, n, &mut values)?;
        if used != bytes.len() {
            return Err(Error::corrupt("journal values have trailing bytes"));
        }
        let batch = ColumnBatch {
            values,
            def_levels,
            rep_levels,
        };
        check_batch(&batch, descr, rows).map_err(|e| e.with_column(descr.path.to_string()))?;
        out.push(batch);
    }
    if !c.is_done() {
        return Err(Error::corrupt("journal rows record has trailing bytes"));
    }
    Ok((rows, out))
}

/// Checks that `batch` holds `rows` whole rows of `descr`'s column with consistent levels
/// and values, so that the column writer accepts it.
fn check_batch(batch: &ColumnBatch, descr: &ColumnDescriptor, rows: usize) -> Result<()> {
    let (max_def, max_rep) = (descr.max_def_level, descr.max_rep_level);
    let defs = &batch.def_levels;
    let reps = &batch.rep_levels;
    let slots = if max_def > 0 {
        defs.len()
    } else {
        batch.values.len()
    };
    let values = if max_def > 0 {
        defs.iter().filter(|&&d| d == max_def).count()
    } else {
        slots
    };
    let levels_ok = (max_def > 0 || defs.is_empty())
        && defs.iter().all(|&d| (0..=max_def).contains(&d))
        && if max_rep > 0 {
            reps.len() == slots
                && reps.iter().all(|&r| (0..=max_rep).contains(&r))
                && reps.first().is_none_or(|&r| r == 0)
                && reps.iter().filter(|&&r| r == 0).count() == rows
        } else {
            reps.is_empty() && slots == rows
        };
    if !levels_ok || values != batch.values.len() {
        return Err(Error::corrupt(format!(
            "journal batch of {} values, {} definition and {} repetition levels does not hold \
             {rows} rows",
            batch.values.len(),
            defs.len(),
            reps.len()
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::values::{ByteArrays, ColumnValues};

    fn schema() -> Schema {
        "message m { required int64 id; optional group tags (LIST) { repeated group list { \
         optional binary element (STRING); } } }"
            .parse()
            .unwrap()
    }

    fn batches() -> Vec<ColumnBatch> {
        let mut tags = ByteArrays::new();
        tags.push(b"a");
        tags.push(b"bc");
        vec![
            ColumnBatch {
                values: ColumnValues::Int64(vec![1, 2, 3]),
                def_levels: vec![],
                rep_levels: vec![],
            },
            ColumnBatch {
                values: ColumnValues::ByteArray(tags),
                def_levels: vec![3, 2, 3, 0],
                rep_levels: vec![0, 1, 0, 0],
            },
        ]
    }

    #[test]
    fn rows_round_trip_and_bad_rows_are_errors() {
        let schema = schema();
        let mut payload = Vec::new();
        encode_rows(3, &batches(), &mut payload).unwrap();
        let (rows, back) = decode_rows(&payload, &schema).unwrap();
        assert_eq!((rows, back), (3, batches()));
        // Wrong row count, every truncation, every flipped byte: errors or valid, no panic.
        let mut wrong = payload.clone();
        wrong[0] = 4;
        assert!(decode_rows(&wrong, &schema).is_err());
        for cut in 0..payload.len() {
            assert!(decode_rows(&payload[..cut], &schema).is_err());
        }
        for i in 0..payload.len() {
            let mut p = payload.clone();
            p[i] ^= 0x41;
            let _ = decode_rows(&p, &schema);
        }
    }

    #[test]
    fn compressed_rows_round_trip_and_bad_lengths_are_errors() {
        let schema = schema();
        let (mut raw, mut payload) = (Vec::new(), Vec::new());
        encode_rows_lz4(3, &batches(), &mut raw, &mut payload).unwrap();
        let (rows, back) = decode_rows_lz4(&payload, &schema).unwrap();
        assert_eq!((rows, back), (3, batches()));
        // The raw form is the uncompressed record's payload.
        let mut plain = Vec::new();
        encode_rows(3, &batches(), &mut plain).unwrap();
        assert_eq!(raw, plain);
        assert_eq!(&payload[..4], &(plain.len() as u32).to_le_bytes());

        // Lengths beyond what the block can hold are refused before allocating.
        for claim in [u32::MAX, (payload.len() as u32 - 4) * 255 + 1] {
            let mut p = payload.clone();
            p[..4].copy_from_slice(&claim.to_le_bytes());
            let err = decode_rows_lz4(&p, &schema).unwrap_err();
            assert!(err.to_string().contains("claims"), "{err}");
        }
        // A length that does not match the block's contents.
        let mut p = payload.clone();
        p[..4].copy_from_slice(&(plain.len() as u32 + 1).to_le_bytes());
        assert!(decode_rows_lz4(&p, &schema).is_err());
        // Every truncation, every flipped byte: errors or valid, no panic.
        for cut in 0..payload.len() {
            assert!(decode_rows_lz4(&payload[..cut], &schema).is_err());
        }
        for i in 0..payload.len() {
            let mut p = payload.clone();
            p[i] ^= 0x41;
            let _ = decode_rows_lz4(&p, &schema);
        }
    }

    #[test]
    fn header_and_checkpoint_round_trip() {
        let schema = schema();
        let options = WriterOptions::default()
            .compression(Compression::Zstd(3))
            .key_value_metadata("k", "v");
        let h = decode_header(&encode_header(&schema, &options).unwrap()).unwrap();
        assert_eq!(h.schema.columns().len(), 2);
        assert_eq!(h.compression, Compression::Zstd(3));
        assert_eq!(h.key_value_metadata, vec![("k".into(), Some("v".into()))]);
        assert!(decode_header(b"PSLOGJ0").is_err());

        let empty = FileProgress {
            position: 4,
            ..FileProgress::default()
        };
        let p = decode_checkpoint(&encode_checkpoint(&empty).unwrap(), &schema).unwrap();
        assert_eq!(p, empty);
        let mut huge = 4u64.to_le_bytes().to_vec();
        huge.extend_from_slice(&u32::MAX.to_le_bytes());
        assert!(decode_checkpoint(&huge, &schema).is_err());
    }
}
