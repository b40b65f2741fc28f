//! Writes, with arrow-rs (parquet 60.1), the files parquet-serde's suite reads value for value,
//! and checks parquet-serde's ALP files value for value. Not part of the workspace.
//!
//! - `write-alp DIR` (testdata/alp): `alp_arrow_rs.parquet` (ALP f32/f64 columns) with its
//!   expectations `alp_arrow_rs.expected` (one line per row: the bits of each value in hex,
//!   or `null`);
//! - `write-orders DIR` (testdata/orders): `total_order_arrow_rs.parquet` (FLOAT/DOUBLE/
//!   FLOAT16 statistics in IEEE 754 total order, arrow-rs's default) and
//!   `int96_order_arrow_rs.parquet` (INT96 statistics in chronological order);
//! - `check ALP_FILE PLAIN_FILE`: reads both files with arrow-rs and compares every value of
//!   every column bit for bit; fails unless each float column of the first is ALP-encoded.

use std::fs::File;
use std::io::Write;
use std::path::Path;
use std::sync::Arc;

use arrow_array::{Array, ArrayRef, Float16Array, Float32Array, Float64Array, RecordBatch};
use arrow_schema::{DataType, Field, Schema};
use half::f16;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use parquet::arrow::ArrowWriter;
use parquet::basic::{Encoding, Repetition, Type as PhysicalType};
use parquet::data_type::{Int96, Int96Type};
use parquet::file::properties::{EnabledStatistics, WriterProperties};
use parquet::file::reader::{FileReader, SerializedFileReader};
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::types::{ColumnPath, Type};

type Res<T> = Result<T, Box<dyn std::error::Error>>;

/// Rows of the ALP file.
const ALP_ROWS: usize = 4000;

/// The f64 value of row `i` (`None`: null): mostly decimals ALP keeps exact, with
/// exceptions (values with more digits than ALP's exponents reach, NaN, infinities, -0.0).
fn f64_value(i: usize) -> Option<f64> {
    if i % 17 == 5 {
        return None;
    }
    Some(match i % 101 {
        3 => f64::NAN,
        7 => f64::INFINITY,
        11 => f64::NEG_INFINITY,
        13 => -0.0,
        19 => 0.0,
        23 => std::f64::consts::PI * i as f64,
        29 => f64::from_bits(0x7ff8_0000_0000_0001), // a NaN with a payload
        31 => 1e300,
        37 => f64::MIN_POSITIVE / 4.0, // subnormal
        41 => -(i as f64) / 3.0,
        _ => (i as f64 * 37.0 % 10_000.0 - 5_000.0) / 100.0,
    })
}

/// The f32 value of row `i`, from the same pattern.
fn f32_value(i: usize) -> Option<f32> {
    if i % 13 == 2 {
        return None;
    }
    Some(match i % 97 {
        3 => f32::NAN,
        7 => f32::INFINITY,
        11 => f32::NEG_INFINITY,
        13 => -0.0,
        19 => 0.0,
        23 => std::f32::consts::E * i as f32,
        29 => f32::from_bits(0xffc0_0001), // a negative NaN with a payload
        31 => 3.0e38,
        37 => f32::MIN_POSITIVE / 8.0,
        41 => -(i as f32) / 7.0,
        _ => ((i * 13 % 2000) as f32 - 1000.0) / 10.0,
    })
}

fn write_alp(dir: &Path) -> Res<()> {
    let f32s: Float32Array = (0..ALP_ROWS).map(f32_value).collect();
    let f64s: Float64Array = (0..ALP_ROWS).map(f64_value).collect();
    let schema = Arc::new(Schema::new(vec![
        Field::new("f32", DataType::Float32, true),
        Field::new("f64", DataType::Float64, true),
    ]));
    let batch = RecordBatch::try_new(
        schema.clone(),
        vec![Arc::new(f32s.clone()) as ArrayRef, Arc::new(f64s.clone())],
    )?;
    let props = WriterProperties::builder()
        .set_dictionary_enabled(false)
        .set_column_encoding(ColumnPath::from("f32"), Encoding::ALP)
        .set_column_encoding(ColumnPath::from("f64"), Encoding::ALP)
        // Pages of 1500 values: a full 1024-value vector and a partial one each.
        .set_data_page_row_count_limit(1500)
        .set_write_batch_size(500)
        .build();
    let mut w = ArrowWriter::try_new(File::create(dir.join("alp_arrow_rs.parquet"))?, schema, Some(props))?;
    w.write(&batch)?;
    w.close()?;
    let mut out = String::new();
    for i in 0..ALP_ROWS {
        let a = f32_value(i).map_or("null".to_string(), |v| format!("{:08x}", v.to_bits()));
        let b = f64_value(i).map_or("null".to_string(), |v| format!("{:016x}", v.to_bits()));
        out.push_str(&format!("{a} {b}\n"));
    }
    File::create(dir.join("alp_arrow_rs.expected"))?.write_all(out.as_bytes())?;
    Ok(())
}

/// Row groups of the total-order file, as f64 (each row group is one batch).
fn total_order_groups() -> Vec<Vec<Option<f64>>> {
    let neg_nan = f64::from_bits(0xfff8_0000_0000_0000);
    vec![
        // Ordinary values with NaN, both zeros and nulls.
        vec![Some(1.5), Some(f64::NAN), Some(-0.0), None, Some(0.0), Some(-2.25), Some(4.0)],
        // Only NaNs (of both signs) and nulls.
        vec![Some(f64::NAN), None, Some(neg_nan), Some(f64::NAN)],
        // Only zeros: +0.0 alone, then -0.0 alone.
        vec![Some(0.0), Some(0.0)],
        vec![Some(-0.0), None],
        // Infinities.
        vec![Some(f64::NEG_INFINITY), Some(1.0), Some(f64::INFINITY), Some(neg_nan)],
    ]
}

fn write_total_order(dir: &Path) -> Res<()> {
    let schema = Arc::new(Schema::new(vec![
        Field::new("f32", DataType::Float32, true),
        Field::new("f64", DataType::Float64, true),
        Field::new("f16", DataType::Float16, true),
    ]));
    let props = WriterProperties::builder()
        .set_dictionary_enabled(false)
        .set_statistics_enabled(EnabledStatistics::Page)
        .build();
    let mut w = ArrowWriter::try_new(
        File::create(dir.join("total_order_arrow_rs.parquet"))?,
        schema.clone(),
        Some(props),
    )?;
    for g in total_order_groups() {
        // NaN keeps its sign through `as f32` and f16::from_f64.
        let a: Float32Array = g.iter().map(|v| v.map(|x| x as f32)).collect();
        let b: Float64Array = g.iter().copied().collect();
        let c: Float16Array = g.iter().map(|v| v.map(f16::from_f64)).collect();
        let batch = RecordBatch::try_new(
            schema.clone(),
            vec![Arc::new(a) as ArrayRef, Arc::new(b), Arc::new(c)],
        )?;
        w.write(&batch)?;
        w.flush()?;
    }
    w.close()?;
    Ok(())
}

/// INT96 value of (julian day, nanoseconds of the day).
fn int96(day: u32, nanos: u64) -> Int96 {
    let mut v = Int96::new();
    v.set_data(nanos as u32, (nanos >> 32) as u32, day);
    v
}

/// Row groups of the INT96 file: (julian day, nanos) pairs; 2440588 is 1970-01-01.
fn int96_groups() -> Vec<Vec<(u32, u64)>> {
    vec![
        vec![(2440588, 5), (2440587, 86_399_999_999_999), (2440589, 0)],
        vec![(2451545, 43_200_000_000_000), (2451545, 1), (2415021, 0)],
    ]
}

fn write_int96(dir: &Path) -> Res<()> {
    let schema = Arc::new(
        Type::group_type_builder("schema")
            .with_fields(vec![Arc::new(
                Type::primitive_type_builder("ts", PhysicalType::INT96)
                    .with_repetition(Repetition::REQUIRED)
                    .build()?,
            )])
            .build()?,
    );
    let props = Arc::new(
        WriterProperties::builder()
            .set_dictionary_enabled(false)
            .set_statistics_enabled(EnabledStatistics::Page)
            .build(),
    );
    let mut w = SerializedFileWriter::new(
        File::create(dir.join("int96_order_arrow_rs.parquet"))?,
        schema,
        props,
    )?;
    for g in int96_groups() {
        let mut rg = w.next_row_group()?;
        let mut col = rg.next_column()?.expect("one column");
        let values: Vec<Int96> = g.iter().map(|&(d, n)| int96(d, n)).collect();
        col.typed::<Int96Type>().write_batch(&values, None, None)?;
        col.close()?;
        rg.close()?;
    }
    w.close()?;
    Ok(())
}

/// Every value of every column, as bits (`None`: null), with the column names.
fn read_bits(path: &Path) -> Res<Vec<(String, Vec<Option<u64>>)>> {
    let reader = ParquetRecordBatchReaderBuilder::try_new(File::open(path)?)?.build()?;
    let mut cols: Vec<(String, Vec<Option<u64>>)> = Vec::new();
    for batch in reader {
        let batch = batch?;
        for (i, field) in batch.schema().fields().iter().enumerate() {
            if cols.len() <= i {
                cols.push((field.name().clone(), Vec::new()));
            }
            let a = batch.column(i);
            let out = &mut cols[i].1;
            if let Some(a) = a.as_any().downcast_ref::<Float32Array>() {
                out.extend((0..a.len()).map(|j| a.is_valid(j).then(|| a.value(j).to_bits() as u64)));
            } else if let Some(a) = a.as_any().downcast_ref::<Float64Array>() {
                out.extend((0..a.len()).map(|j| a.is_valid(j).then(|| a.value(j).to_bits())));
            } else {
                return Err(format!("{}: column {} is not FLOAT or DOUBLE", path.display(), field.name()).into());
            }
        }
    }
    Ok(cols)
}

fn check(alp: &Path, plain: &Path) -> Res<()> {
    let meta = SerializedFileReader::new(File::open(alp)?)?;
    for rg in meta.metadata().row_groups() {
        for c in rg.columns() {
            if !c.encodings().any(|e| e == Encoding::ALP) {
                return Err(format!("{}: column {} has no ALP pages", alp.display(), c.column_path()).into());
            }
        }
    }
    let (a, b) = (read_bits(alp)?, read_bits(plain)?);
    if a.len() != b.len() {
        return Err("column counts differ".into());
    }
    for ((name, x), (_, y)) in a.iter().zip(&b) {
        if x.len() != y.len() {
            return Err(format!("{name}: {} rows against {}", x.len(), y.len()).into());
        }
        if let Some(i) = (0..x.len()).find(|&i| x[i] != y[i]) {
            return Err(format!("{name}: row {i}: {:x?} against {:x?}", x[i], y[i]).into());
        }
        let nulls = x.iter().filter(|v| v.is_none()).count();
        println!(
            "{}: column {name}: {} values ({nulls} null) equal bit for bit to {}",
            alp.display(),
            x.len(),
            plain.display()
        );
    }
    Ok(())
}

fn main() -> Res<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.iter().map(String::as_str).collect::<Vec<_>>()[..] {
        ["write-alp", dir] => write_alp(Path::new(dir)),
        ["write-orders", dir] => {
            write_total_order(Path::new(dir))?;
            write_int96(Path::new(dir))
        }
        ["check", alp, plain] => check(Path::new(alp), Path::new(plain)),
        _ => Err("usage: alp-harness write-alp DIR | write-orders DIR | check ALP_FILE PLAIN_FILE".into()),
    }
}
