//! `rewrite`'s copy of the rows: every column of every row group of IN read whole and written
//! again, cut into row groups of the size asked for.

use std::io::Write;

use parquet_serde::core::column::ColumnBatch;
use parquet_serde::core::file::{FileReader, FileWriter};
use parquet_serde::core::values::{ByteArrays, ColumnValues, FixedLenByteArrays};
use parquet_serde::Error;
/// Copies every row of `reader` into `writer`, in row groups of `row_group_rows` (IN's
/// row groups when `None`), closes it and returns its sink.
pub fn copy<W: Write>(
    reader: &FileReader<std::fs::File>,
    mut writer: FileWriter<W>,
    row_group_rows: Option<usize>,
) -> Result<W, Error> {
    let columns = reader.schema().columns().to_vec();
    let new_writers = |w: &FileWriter<_>| -> Result<Vec<_>, Error> {
        (0..columns.len()).map(|c| w.column_writer(c)).collect()
    };
    let mut writers = new_writers(&writer)?;
    let mut rows_in_group = 0usize;
    for rg in 0..reader.num_row_groups() {
        let batches = (0..columns.len())
            .map(|c| reader.read_column(rg, c))
            .collect::<Result<Vec<_>, _>>()?;
        let rows: Vec<Rows> = batches
            .iter()
            .zip(&columns)
            .map(|(b, d)| Rows::new(b, d.max_def_level))
            .collect();
        let num_rows = rows.first().map_or(0, |r| r.count());
        if let Some((c, r)) = rows.iter().enumerate().find(|(_, r)| r.count() != num_rows) {
            return Err(Error::corrupt(format!(
                "column {} holds {} rows in row group {rg}, column 0 {num_rows}",
                columns[c].path,
                r.count()
            )));
        }
        let target = row_group_rows.unwrap_or(num_rows.max(1));
        let mut at = 0;
        while at < num_rows {
            let take = (num_rows - at).min(target - rows_in_group);
            for (c, w) in writers.iter_mut().enumerate() {
                w.write(&rows[c].slice(&batches[c], at..at + take))?;
            }
            at += take;
            rows_in_group += take;
            if rows_in_group == target {
                // Column writers belong to the next row group (encrypted pages carry its
                // ordinal): make new ones only after this one is written.
                let chunks = std::mem::take(&mut writers)
                    .into_iter()
                    .map(|w| w.close())
                    .collect::<Result<Vec<_>, _>>()?;
                writer.write_row_group(chunks)?;
                writers = new_writers(&writer)?;
                rows_in_group = 0;
            }
        }
        if row_group_rows.is_none() && num_rows == 0 {
            // An empty row group stays an empty row group.
            let chunks = std::mem::take(&mut writers)
                .into_iter()
                .map(|w| w.close())
                .collect::<Result<Vec<_>, _>>()?;
            writer.write_row_group(chunks)?;
            writers = new_writers(&writer)?;
        }
    }
    if rows_in_group > 0 {
        let chunks = writers
            .into_iter()
            .map(|w| w.close())
            .collect::<Result<Vec<_>, _>>()?;
        writer.write_row_group(chunks)?;
    }
    let (sink, _) = writer.close()?;
    Ok(sink)
}

/// Where each row of a batch starts: its first level and its first value.
struct Rows {
    /// `(level, value)` at the start of each row, then at the end of the batch.
    starts: Vec<(usize, usize)>,
}

impl Rows {
    fn new(batch: &ColumnBatch, max_def: i16) -> Self {
        let n = batch.num_levels();
        let mut starts = Vec::new();
        let mut value = 0;
        for i in 0..n {
            if batch.rep_levels.get(i).is_none_or(|&r| r == 0) {
                starts.push((i, value));
            }
            if batch.def_levels.get(i).is_none_or(|&d| d == max_def) {
                value += 1;
            }
        }
        starts.push((n, value));
        Rows { starts }
    }

    fn count(&self) -> usize {
        self.starts.len() - 1
    }

    /// Rows `rows` of `batch` as a batch of their own.
    fn slice(&self, batch: &ColumnBatch, rows: std::ops::Range<usize>) -> ColumnBatch {
        let (l0, v0) = self.starts[rows.start];
        let (l1, v1) = self.starts[rows.end];
        let levels = |l: &Vec<i16>| {
            if l.is_empty() {
                Vec::new()
            } else {
                l[l0..l1].to_vec()
            }
        };
        ColumnBatch {
            values: slice_values(&batch.values, v0..v1),
            def_levels: levels(&batch.def_levels),
            rep_levels: levels(&batch.rep_levels),
        }
    }
}

fn slice_values(v: &ColumnValues, r: std::ops::Range<usize>) -> ColumnValues {
    match v {
        ColumnValues::Boolean(x) => ColumnValues::Boolean(x[r].to_vec()),
        ColumnValues::Int32(x) => ColumnValues::Int32(x[r].to_vec()),
        ColumnValues::Int64(x) => ColumnValues::Int64(x[r].to_vec()),
        ColumnValues::Int96(x) => ColumnValues::Int96(x[r].to_vec()),
        ColumnValues::Float(x) => ColumnValues::Float(x[r].to_vec()),
        ColumnValues::Double(x) => ColumnValues::Double(x[r].to_vec()),
        ColumnValues::ByteArray(x) => {
            let offsets = x.offsets();
            let mut o = ByteArrays::with_capacity(r.len(), offsets[r.end] - offsets[r.start]);
            for i in r {
                o.push(x.get(i));
            }
            ColumnValues::ByteArray(o)
        }
        ColumnValues::FixedLenByteArray(x) => {
            let mut o = FixedLenByteArrays::new(x.width());
            for i in r {
                o.push(x.get(i));
            }
            ColumnValues::FixedLenByteArray(o)
        }
    }
}
