//! `from-csv IN.csv OUT.parquet`: a CSV file with a header row into a Parquet file, each
//! column typed by its cells: BOOLEAN (`true` / `false`, any case), INT64, DOUBLE or STRING;
//! an empty cell is a null.

use std::fs::File;
use std::io::BufReader;
use std::path::{Path, PathBuf};

use clap::Args;
use parquet_serde::core::schema::{LogicalType, PhysicalType as Type};
use parquet_serde::core::schema::{Repetition, Schema, SchemaNode};
use parquet_serde::record::{Value, ValueWriter};
use parquet_serde::Error;

use crate::write_args::WriteArgs;

/// The arguments of `from-csv`.
#[derive(Debug, Clone, Args)]
pub struct FromCsvArgs {
    /// The CSV file: a header row of column names, then one row per record
    #[arg(value_name = "IN.csv")]
    pub input: PathBuf,
    /// The Parquet file to write (replaced only once it is written whole)
    #[arg(value_name = "OUT.parquet")]
    pub output: PathBuf,
    /// Field delimiter (one byte)
    #[arg(long, value_name = "CHAR", default_value_t = ',')]
    pub delimiter: char,
    /// Records to infer the column types from (0: every record)
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub sample: u64,
    /// Writer options.
    #[command(flatten)]
    pub write: WriteArgs,
}

/// A column's type, widened cell by cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    /// Only empty cells so far.
    Unknown,
    Bool,
    Int,
    Double,
    Str,
}

/// What the cells of one column were.
#[derive(Debug, Clone, Copy)]
struct Column {
    kind: Kind,
    null: bool,
}

/// Runs `from-csv`.
pub fn run(args: &FromCsvArgs) -> Result<(), Error> {
    let delimiter = u8::try_from(args.delimiter)
        .ok()
        .filter(u8::is_ascii)
        .ok_or_else(|| Error::invalid_argument("--delimiter must be one ASCII character"))?;
    let (names, columns, whole) = infer(&args.input, delimiter, args.sample)?;
    let schema = schema(&names, &columns, whole)?;
    let mut writer = ValueWriter::from_path(&args.output, schema, args.write.options())?;
    let mut reader = open(&args.input, delimiter)?;
    let mut record = csv::ByteRecord::new();
    let mut fields = Vec::with_capacity(names.len());
    while read(&mut reader, &mut record, &args.input)? {
        let line = line_of(&record);
        let at = |e: Error| e.context(format!("`{}` line {line}", args.input.display()));
        fields.clear();
        for ((name, column), cell) in names.iter().zip(&columns).zip(record.iter()) {
            let value = value_of(cell, column.kind).map_err(|e| at(e.with_column(name.clone())))?;
            fields.push((name.clone(), value));
        }
        writer
            .write(&Value::Group(std::mem::take(&mut fields)))
            .map_err(at)?;
    }
    writer.close()?;
    Ok(())
}

fn open(path: &Path, delimiter: u8) -> Result<csv::Reader<BufReader<File>>, Error> {
    let file = File::open(path)
        .map_err(|e| Error::from(e).context(format!("opening `{}`", path.display())))?;
    Ok(csv::ReaderBuilder::new()
        .has_headers(true)
        .delimiter(delimiter)
        .from_reader(BufReader::with_capacity(1 << 20, file)))
}

/// Reads the next record; `false` at the end. Records must have as many fields as the
/// header (the csv crate checks).
fn read(
    reader: &mut csv::Reader<BufReader<File>>,
    record: &mut csv::ByteRecord,
    path: &Path,
) -> Result<bool, Error> {
    reader.read_byte_record(record).map_err(|e| {
        let line = e.position().map_or(0, |p| p.line());
        Error::data(format!("`{}` line {line}: {e}", path.display())).with_source(e)
    })
}

fn line_of(record: &csv::ByteRecord) -> u64 {
    record.position().map_or(0, |p| p.line())
}

/// The header's names, each column's type from the first `sample` records (every record
/// when 0), and whether those were all the records.
fn infer(
    path: &Path,
    delimiter: u8,
    sample: u64,
) -> Result<(Vec<String>, Vec<Column>, bool), Error> {
    let mut reader = open(path, delimiter)?;
    let header = reader.byte_headers().map_err(|e| {
        Error::data(format!("`{}`: reading the header: {e}", path.display())).with_source(e)
    })?;
    let mut names = Vec::with_capacity(header.len());
    for (i, name) in header.iter().enumerate() {
        let name = std::str::from_utf8(name).map_err(|e| {
            Error::data(format!(
                "`{}`: the name of column {} is not UTF-8",
                path.display(),
                i + 1
            ))
            .with_source(e)
        })?;
        if name.is_empty() || names.iter().any(|n| n == name) {
            return Err(Error::data(format!(
                "`{}`: column {} has {} name `{name}`: every column needs its own name",
                path.display(),
                i + 1,
                if name.is_empty() {
                    "an empty"
                } else {
                    "the repeated"
                }
            )));
        }
        names.push(name.to_string());
    }
    let mut columns = vec![
        Column {
            kind: Kind::Unknown,
            null: false
        };
        names.len()
    ];
    let limit = if sample == 0 { u64::MAX } else { sample };
    let mut record = csv::ByteRecord::new();
    let mut rows = 0u64;
    while rows < limit {
        if !read(&mut reader, &mut record, path)? {
            return Ok((names, columns, true));
        }
        for (column, cell) in columns.iter_mut().zip(record.iter()) {
            match kind_of(cell) {
                None => column.null = true,
                Some(k) => column.kind = widen(column.kind, k),
            }
        }
        rows += 1;
    }
    let whole = !read(&mut reader, &mut record, path)?;
    Ok((names, columns, whole))
}

/// The narrowest type of a cell; `None` when empty.
fn kind_of(cell: &[u8]) -> Option<Kind> {
    if cell.is_empty() {
        return None;
    }
    let Ok(text) = std::str::from_utf8(cell) else {
        return Some(Kind::Str);
    };
    Some(if parse_bool(text).is_some() {
        Kind::Bool
    } else if text.parse::<i64>().is_ok() {
        Kind::Int
    } else if parse_double(text).is_some() {
        Kind::Double
    } else {
        Kind::Str
    })
}

/// Two cell types in one column: integers widen to doubles, anything else mixed is text.
fn widen(a: Kind, b: Kind) -> Kind {
    match (a, b) {
        (Kind::Unknown, k) | (k, Kind::Unknown) => k,
        (a, b) if a == b => a,
        (Kind::Int, Kind::Double) | (Kind::Double, Kind::Int) => Kind::Double,
        _ => Kind::Str,
    }
}

fn parse_bool(text: &str) -> Option<bool> {
    if text.eq_ignore_ascii_case("true") {
        Some(true)
    } else if text.eq_ignore_ascii_case("false") {
        Some(false)
    } else {
        None
    }
}

/// A decimal number (`1.5`, `-2e3`, `.5`); not `inf` or `NaN`, which are text in CSV.
fn parse_double(text: &str) -> Option<f64> {
    if !text.bytes().any(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse::<f64>().ok().filter(|v| v.is_finite())
}

/// The schema: one optional column per header name when some sampled cell was empty or the
/// sample was not the whole file, else required; a column with only empty cells is STRING.
fn schema(names: &[String], columns: &[Column], whole: bool) -> Result<Schema, Error> {
    if names.is_empty() {
        return Err(Error::data("the CSV header names no column"));
    }
    let fields = names
        .iter()
        .zip(columns)
        .map(|(name, c)| {
            let repetition = if c.null || !whole || c.kind == Kind::Unknown {
                Repetition::Optional
            } else {
                Repetition::Required
            };
            let node = |t| SchemaNode::primitive(name.clone(), repetition, t);
            match c.kind {
                Kind::Bool => node(Type::Boolean),
                Kind::Int => node(Type::Int64),
                Kind::Double => node(Type::Double),
                Kind::Unknown | Kind::Str => {
                    node(Type::ByteArray).with_logical_type(LogicalType::String)
                }
            }
        })
        .collect();
    Schema::new(SchemaNode::group("schema", Repetition::Required, fields))
}

/// The value of a cell in a column of type `kind`.
fn value_of(cell: &[u8], kind: Kind) -> Result<Value, Error> {
    if cell.is_empty() {
        return Ok(Value::Null);
    }
    let text = std::str::from_utf8(cell).map_err(|_| Error::data("the cell is not UTF-8"))?;
    let bad = |what: &str| Error::data(format!("`{text}` is not {what} (the column's type)"));
    Ok(match kind {
        Kind::Bool => Value::Bool(parse_bool(text).ok_or_else(|| bad("true or false"))?),
        Kind::Int => Value::Int(text.parse().map_err(|_| bad("a 64-bit integer"))?),
        Kind::Double => Value::Double(parse_double(text).ok_or_else(|| bad("a number"))?),
        Kind::Unknown | Kind::Str => Value::String(text.to_string()),
    })
}
