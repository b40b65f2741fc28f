//! `rewrite IN OUT [options]`: writes every value of IN into OUT with the same schema and
//! other writer options. What no option changes is kept from IN: each column's codec (its
//! default level), its encodings (dictionary or not, and the value encoding of its other
//! pages), the page version and the row groups.
//!
//! ```text
//! --compression CODEC[:LEVEL]   uncompressed, snappy, gzip, brotli, zstd, lz4_raw (all columns)
//! --encoding [COLUMN=]ENCODING  PLAIN, RLE, DELTA_BINARY_PACKED, DELTA_LENGTH_BYTE_ARRAY,
//!                               DELTA_BYTE_ARRAY, BYTE_STREAM_SPLIT, ALP, RLE_DICTIONARY
//!                               (dictionary, PLAIN fallback), AUTO (writer's choice) or KEEP;
//!                               COLUMN is a dotted path, or * (the default) for every column
//!                               the encoding fits; repeatable, later ones win
//! --page-version 1|2            data page format
//! --row-group-rows N            rows per row group (the last may hold fewer)
//! --no-verify                   do not verify page checksums of IN
//! ```
//! Encryption options (keys of IN and OUT) are in [`crate::rewrite_crypto`]; other
//! `--flag [VALUE]` options are looked up in [`crate::rewrite_flags`].

use std::io::BufWriter;

use parquet_serde::core::column::{check_encoding, ColumnBatch, DataPageVersion};
use parquet_serde::core::encoding::names;
use parquet_serde::core::file::{ColumnOverrides, FileReader, FileWriter, ReadOptions, WriterOptions};
use parquet_serde::core::format::{CompressionCodec, Encoding, PageType};
use parquet_serde::core::values::{ByteArrays, ColumnValues, FixedLenByteArrays};
use parquet_serde::{Compression, Error};

use crate::rewrite_crypto::{self, CryptoFlags};
use crate::rewrite_flags;

/// Usage lines of `rewrite`, for the tool's help.
pub const USAGE: &str = "  rewrite IN OUT [--compression CODEC[:LEVEL]] [--encoding [COLUMN=]ENCODING]...
          [--page-version 1|2] [--row-group-rows N]    rewrite with other options, same values and schema";

/// A parsed `--name [value]` option, in command-line order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Flag {
    /// The name without the leading `--`.
    pub name: String,
    /// The value, for options that take one.
    pub value: Option<String>,
}

/// The options of `rewrite` this module knows: (name, takes a value).
const FLAGS: &[(&str, bool)] = &[
    ("compression", true),
    ("encoding", true),
    ("page-version", true),
    ("row-group-rows", true),
    ("no-verify", false),
];

fn takes_value(name: &str) -> Option<bool> {
    FLAGS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|&(_, v)| v)
        .or_else(|| {
            rewrite_crypto::FLAGS
                .iter()
                .find(|(n, _)| *n == name)
                .map(|&(_, v)| v)
        })
        .or_else(|| {
            rewrite_flags::FLAGS
                .iter()
                .find(|f| f.name == name)
                .map(|f| f.takes_value)
        })
}

/// Splits the arguments after `rewrite` into the positional ones and the flags
/// (`--name value` or `--name=value`).
pub fn parse(args: &[String]) -> Result<(Vec<String>, Vec<Flag>), String> {
    let mut positional = Vec::new();
    let mut flags = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let Some(rest) = a.strip_prefix("--") else {
            positional.push(a.clone());
            continue;
        };
        let (name, inline) = match rest.split_once('=') {
            Some((n, v)) => (n.to_string(), Some(v.to_string())),
            None => (rest.to_string(), None),
        };
        let value = match takes_value(&name) {
            None => return Err(format!("unknown option --{name}")),
            Some(false) if inline.is_some() => {
                return Err(format!("--{name} takes no value"));
            }
            Some(false) => None,
            Some(true) => Some(match inline {
                Some(v) => v,
                None => it.next().ok_or(format!("--{name} needs a value"))?.clone(),
            }),
        };
        flags.push(Flag { name, value });
    }
    Ok((positional, flags))
}

/// A codec and optional level: `zstd`, `zstd:9`, `gzip:6`, `none`.
pub fn parse_compression(s: &str) -> Result<Compression, String> {
    let (name, level) = match s.split_once(':') {
        Some((n, l)) => (n, Some(l)),
        None => (s, None),
    };
    let level_i = |default: i64| -> Result<i64, String> {
        level.map_or(Ok(default), |l| {
            l.parse()
                .map_err(|_| format!("compression level {l:?} is not a number"))
        })
    };
    let out_of_range = |l: i64| format!("{name} level {l} is out of range");
    let c = match name.to_ascii_lowercase().as_str() {
        "none" | "uncompressed" => Compression::Uncompressed,
        "snappy" => Compression::Snappy,
        "gzip" => {
            let l = level_i(6)?;
            Compression::Gzip(u32::try_from(l).map_err(|_| out_of_range(l))?)
        }
        "brotli" => {
            let l = level_i(1)?;
            Compression::Brotli(u32::try_from(l).map_err(|_| out_of_range(l))?)
        }
        "zstd" => {
            let l = level_i(3)?;
            Compression::Zstd(i32::try_from(l).map_err(|_| out_of_range(l))?)
        }
        "lz4" | "lz4_raw" | "lz4raw" => Compression::Lz4Raw,
        other => return Err(format!("unknown codec {other}")),
    };
    if level.is_some()
        && matches!(
            c,
            Compression::Uncompressed | Compression::Snappy | Compression::Lz4Raw
        )
    {
        return Err(format!("{name} has no levels"));
    }
    c.validate().map_err(|e| e.message().to_string())?;
    Ok(c)
}

/// A column's layout in IN, read from the pages of its first chunk.
#[derive(Debug, Clone, Copy, Default)]
struct Layout {
    dictionary: bool,
    encoding: Option<Encoding>,
    v2: bool,
}

fn layout(reader: &FileReader<std::fs::File>, column: usize) -> Result<Layout, Error> {
    let mut l = Layout::default();
    if reader.num_row_groups() == 0 {
        return Ok(l);
    }
    let chunk = reader.column_chunk(0, column)?;
    let mut pages = chunk.pages(reader.options().page_options());
    while let Some(p) = pages.next_raw()? {
        let h = &p.header;
        let encoding = match h.r#type {
            PageType::DictionaryPage => {
                l.dictionary = true;
                continue;
            }
            PageType::DataPageV2 => {
                l.v2 = true;
                h.data_page_header_v2.as_ref().map(|d| d.encoding)
            }
            _ => h.data_page_header.as_ref().map(|d| d.encoding),
        };
        match encoding {
            Some(Encoding::PlainDictionary | Encoding::RleDictionary) | None => {}
            Some(e) => {
                l.encoding.get_or_insert(e);
            }
        }
    }
    Ok(l)
}

fn compression_of(codec: CompressionCodec) -> Compression {
    match codec {
        CompressionCodec::Uncompressed => Compression::Uncompressed,
        CompressionCodec::Gzip => Compression::GZIP_DEFAULT,
        CompressionCodec::Brotli => Compression::BROTLI_DEFAULT,
        CompressionCodec::Zstd => Compression::ZSTD_DEFAULT,
        CompressionCodec::Lz4 | CompressionCodec::Lz4Raw => Compression::Lz4Raw,
        _ => Compression::Snappy,
    }
}

/// What `--encoding` asks for one column.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Choice {
    Keep,
    Auto,
    Fixed(Encoding),
}

fn parse_choice(s: &str) -> Result<Choice, String> {
    match s.to_ascii_lowercase().as_str() {
        "keep" => Ok(Choice::Keep),
        "auto" => Ok(Choice::Auto),
        _ => names::parse(s)
            .map(Choice::Fixed)
            .ok_or_else(|| format!("unknown encoding {s}")),
    }
}

/// Builds the writer options: IN's layout, then the flags in order.
fn options(
    reader: &FileReader<std::fs::File>,
    flags: &[Flag],
) -> Result<(WriterOptions, Option<usize>), Error> {
    let bad = |m: String| Error::invalid_argument(m);
    let schema = reader.schema();
    let md = reader.metadata();
    let mut options = WriterOptions::default();
    for kv in md.file.key_value_metadata.iter().flatten() {
        options = options.key_value_metadata_entry(kv.key.clone(), kv.value.clone());
    }
    let mut choices = vec![Choice::Keep; schema.num_columns()];
    let mut layouts = Vec::with_capacity(schema.num_columns());
    for c in 0..schema.num_columns() {
        layouts.push(layout(reader, c)?);
    }
    let mut compression = None;
    let mut row_group_rows = None;
    let mut page_version = None;
    for f in flags {
        let value = f.value.as_deref().unwrap_or("");
        match f.name.as_str() {
            "compression" => compression = Some(parse_compression(value).map_err(bad)?),
            "page-version" => {
                page_version = Some(match value {
                    "1" | "v1" => DataPageVersion::V1,
                    "2" | "v2" => DataPageVersion::V2,
                    other => return Err(bad(format!("--page-version {other}: 1 or 2"))),
                })
            }
            "row-group-rows" => {
                let n: usize = value
                    .parse()
                    .map_err(|_| bad(format!("--row-group-rows {value}: not a number")))?;
                if n == 0 {
                    return Err(bad("--row-group-rows must be positive".into()));
                }
                row_group_rows = Some(n);
            }
            "encoding" => {
                let (column, enc) = match value.split_once('=') {
                    Some((c, e)) => (c, e),
                    None => ("*", value),
                };
                let choice = parse_choice(enc).map_err(bad)?;
                let mut matched = false;
                for (c, descr) in schema.columns().iter().enumerate() {
                    let path = descr.path.to_string();
                    let named = path == column || path.starts_with(&format!("{column}."));
                    if column != "*" && !named {
                        continue;
                    }
                    if let Choice::Fixed(e) = choice {
                        let fits = check_encoding(e, descr.physical_type);
                        if column == "*" && fits.is_err() {
                            continue;
                        }
                        fits.map_err(|err| err.with_column(path.clone()))?;
                    }
                    choices[c] = choice;
                    matched = true;
                }
                if !matched && column != "*" {
                    return Err(bad(format!("--encoding: no column {column}")));
                }
            }
            "no-verify" => {}
            name if rewrite_crypto::FLAGS.iter().any(|(n, _)| *n == name) => {}
            name => rewrite_flags::apply(name, f.value.as_deref(), &mut options).map_err(bad)?,
        }
    }
    if let Some(v) = page_version {
        options = options.data_page_version(v);
    } else if layouts.iter().any(|l| l.v2) {
        options = options.data_page_version(DataPageVersion::V2);
    }
    for (c, descr) in schema.columns().iter().enumerate() {
        let path = descr.path.to_string();
        let codec = match compression {
            Some(c) => c,
            None if reader.num_row_groups() > 0 => compression_of(reader.column_chunk(0, c)?.codec),
            None => options.column_options(&path).compression,
        };
        let l = layouts[c];
        let keep_encoding = l
            .encoding
            .filter(|&e| check_encoding(e, descr.physical_type).is_ok());
        let o = match choices[c] {
            Choice::Keep => ColumnOverrides::default()
                .compression(codec)
                .dictionary(l.dictionary)
                .encoding(keep_encoding.unwrap_or(Encoding::Plain)),
            Choice::Auto => ColumnOverrides::default()
                .compression(codec)
                .auto_encoding(true),
            Choice::Fixed(e) => ColumnOverrides::default().compression(codec).encoding(e),
        };
        // Another module's flag may have set something for this column: keep it, fill the rest.
        let merged = match options.column_overrides(&path) {
            Some(prev) => prev.clone().or(o),
            None => o,
        };
        options = options.column(path, merged);
    }
    options.validate(schema)?;
    Ok((options, row_group_rows))
}

/// Runs `rewrite` with the arguments after the command name.
pub fn run(args: &[String]) -> Result<(), Error> {
    let (positional, flags) = parse(args).map_err(Error::invalid_argument)?;
    let [input, output] = positional.as_slice() else {
        return Err(Error::invalid_argument(
            "rewrite needs IN and OUT (parquet-serde rewrite IN OUT [options])",
        ));
    };
    let verify = !flags.iter().any(|f| f.name == "no-verify");
    let mut crypto = CryptoFlags::default();
    for f in &flags {
        crypto
            .take(&f.name, f.value.as_deref())
            .map_err(Error::invalid_argument)?;
    }
    let mut read_options = ReadOptions::default().verify_checksums(verify);
    if let Some(d) = crypto.decryption()? {
        read_options = read_options.decryption(d);
    }
    let file = std::fs::File::open(input).map_err(|e| Error::from(e).context(input))?;
    let reader = FileReader::with_options(file, read_options)?;
    let (mut options, row_group_rows) = options(&reader, &flags)?;
    if let Some(encryption) = crypto.encryption(reader.schema())? {
        options = options.encryption(encryption);
    }
    options.validate(reader.schema())?;
    let out = std::fs::File::create(output).map_err(|e| Error::from(e).context(output))?;
    let writer = FileWriter::new(BufWriter::new(out), reader.schema().clone(), options)?;
    copy(&reader, writer, row_group_rows)
}

/// Copies every row of `reader` into `writer`, in row groups of `row_group_rows` (IN's
/// row groups when `None`).
fn copy(
    reader: &FileReader<std::fs::File>,
    mut writer: FileWriter<BufWriter<std::fs::File>>,
    row_group_rows: Option<usize>,
) -> Result<(), Error> {
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
    writer.close()?;
    Ok(())
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
            let mut o = ByteArrays::with_capacity(r.len(), x.offsets[r.end] - x.offsets[r.start]);
            for i in r {
                o.push(x.get(i));
            }
            ColumnValues::ByteArray(o)
        }
        ColumnValues::FixedLenByteArray(x) => ColumnValues::FixedLenByteArray(FixedLenByteArrays {
            width: x.width,
            data: x.data[r.start * x.width..r.end * x.width].to_vec(),
        }),
    }
}
