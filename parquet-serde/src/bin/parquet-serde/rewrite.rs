//! `rewrite IN OUT [options]`: writes every value of IN into OUT with the same schema and
//! other writer options. What no option changes is kept from IN (see
//! [`rewrite_layout`](crate::rewrite_layout)). OUT is replaced only once it is written whole.

use std::io::BufWriter;
use std::path::PathBuf;

use crate::atomic_output::AtomicOutput;
use clap::Args;
use parquet_serde::core::column::DataPageVersion;
use parquet_serde::core::column::Encoding;
use parquet_serde::core::file::{
    ColumnOverrides, FileReader, FileWriter, ReadOptions, WriterOptions,
};
use parquet_serde::core::schema::Schema;
use parquet_serde::{Compression, Error};

use crate::names::{parse_compression, parse_encoding};
use crate::rewrite_copy::copy;
use crate::rewrite_crypto::CryptoArgs;
use crate::rewrite_layout::{compression_of, layout};
use crate::stats_flags::StatsArgs;

/// The arguments of `rewrite`.
#[derive(Debug, Clone, Args)]
pub struct RewriteArgs {
    /// The Parquet file to read
    #[arg(value_name = "IN")]
    pub input: PathBuf,
    /// The file to write (replaced only once it is written whole)
    #[arg(value_name = "OUT")]
    pub output: PathBuf,
    /// Codec of every column: uncompressed, snappy, gzip, brotli, zstd or lz4_raw, with a
    /// level for gzip, brotli and zstd [default: IN's codecs]
    #[arg(long, value_name = "CODEC[:LEVEL]", value_parser = parse_compression)]
    pub compression: Option<Compression>,
    /// Encoding of COLUMN (a dotted path, or * for every column it fits, the default):
    /// PLAIN, RLE, DELTA_BINARY_PACKED, DELTA_LENGTH_BYTE_ARRAY, DELTA_BYTE_ARRAY,
    /// BYTE_STREAM_SPLIT, ALP, RLE_DICTIONARY (dictionary, PLAIN fallback), AUTO (the
    /// writer's choice) or KEEP (IN's); repeatable, later ones win
    #[arg(long, value_name = "[COLUMN=]ENCODING", value_parser = parse_encoding_spec)]
    pub encoding: Vec<EncodingSpec>,
    /// Data page format [default: IN's]
    #[arg(long, value_name = "1|2", value_parser = parse_page_version)]
    pub page_version: Option<DataPageVersion>,
    /// Rows per row group, the last may hold fewer [default: IN's row groups]
    #[arg(long, value_name = "N", value_parser = parse_row_count)]
    pub row_group_rows: Option<usize>,
    /// Do not verify the page checksums of IN
    #[arg(long)]
    pub no_verify: bool,
    /// Statistics, page index, Bloom filters and sort keys of OUT.
    #[command(flatten, next_help_heading = "Statistics")]
    pub stats: StatsArgs,
    /// Keys of IN and OUT, and how OUT is encrypted.
    #[command(flatten, next_help_heading = "Encryption")]
    pub crypto: CryptoArgs,
}

/// `--encoding [COLUMN=]ENCODING`.
#[derive(Debug, Clone, PartialEq)]
pub struct EncodingSpec {
    /// Dotted column path (a group names every leaf under it), or `*`.
    pub column: String,
    /// The encoding asked for.
    pub choice: Choice,
}

/// What `--encoding` asks for one column.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Choice {
    /// IN's layout.
    Keep,
    /// The writer's choice by the data.
    Auto,
    /// This encoding.
    Fixed(Encoding),
}

fn parse_encoding_spec(s: &str) -> Result<EncodingSpec, String> {
    let (column, enc) = s.split_once('=').unwrap_or(("*", s));
    let choice = match enc.to_ascii_lowercase().as_str() {
        "keep" => Choice::Keep,
        "auto" => Choice::Auto,
        _ => Choice::Fixed(parse_encoding(enc)?),
    };
    Ok(EncodingSpec {
        column: column.to_string(),
        choice,
    })
}

fn parse_page_version(s: &str) -> Result<DataPageVersion, String> {
    match s {
        "1" | "v1" => Ok(DataPageVersion::V1),
        "2" | "v2" => Ok(DataPageVersion::V2),
        _ => Err("expected 1 or 2".to_string()),
    }
}

fn parse_row_count(s: &str) -> Result<usize, String> {
    match s.parse::<usize>() {
        Ok(n) if n > 0 => Ok(n),
        Ok(_) => Err("must be positive".to_string()),
        Err(_) => Err("not a number".to_string()),
    }
}

/// Builds the writer options: IN's layout, changed by the flags.
fn options(reader: &FileReader<std::fs::File>, args: &RewriteArgs) -> Result<WriterOptions, Error> {
    let bad = |m: String| Error::invalid_argument(m);
    let schema = reader.schema();
    let md = reader.metadata();
    let mut options = WriterOptions::default();
    for (key, value) in md.key_values() {
        options = options.key_value_metadata_entry(key.to_string(), value.map(str::to_string));
    }
    let mut options = args.stats.apply(options);
    let mut choices = vec![Choice::Keep; schema.num_columns()];
    let mut layouts = Vec::with_capacity(schema.num_columns());
    for c in 0..schema.num_columns() {
        layouts.push(layout(reader, c)?);
    }
    for spec in &args.encoding {
        let column = spec.column.as_str();
        let mut matched = false;
        for (c, descr) in schema.columns().iter().enumerate() {
            let path = descr.path.to_string();
            let named = path == column || path.starts_with(&format!("{column}."));
            if column != "*" && !named {
                continue;
            }
            if let Choice::Fixed(e) = spec.choice {
                let fits = check_encoding(schema, &path, e);
                if column == "*" && fits.is_err() {
                    continue;
                }
                fits?;
            }
            choices[c] = spec.choice;
            matched = true;
        }
        if !matched && column != "*" {
            return Err(bad(format!("--encoding: no column {column}")));
        }
    }
    if let Some(v) = args.page_version {
        options = options.data_page_version(v);
    } else if layouts.iter().any(|l| l.v2) {
        options = options.data_page_version(DataPageVersion::V2);
    }
    for (c, descr) in schema.columns().iter().enumerate() {
        let path = descr.path.to_string();
        let codec = match args.compression {
            Some(c) => c,
            None if reader.num_row_groups() > 0 => md
                .row_group(0)
                .and_then(|rg| rg.column(c))
                .map_or(Compression::Snappy, compression_of),
            None => options.column_options(&path).compression,
        };
        let l = layouts[c];
        let keep_encoding = l
            .encoding
            .filter(|&e| check_encoding(schema, &path, e).is_ok());
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
    Ok(options)
}

/// Runs `rewrite`. OUT is written to a temporary file next to it and renamed over it once
/// complete: on any error OUT is left as it was (absent, or its old bytes).
pub fn run(args: &RewriteArgs) -> Result<(), Error> {
    let mut read_options = ReadOptions::default().verify_checksums(!args.no_verify);
    if let Some(d) = args.crypto.decryption()? {
        read_options = read_options.decryption(d);
    }
    let input = &args.input;
    let file = std::fs::File::open(input).map_err(|e| Error::from(e).context(input.display()))?;
    let reader = FileReader::with_options(file, read_options)?;
    let mut options = options(&reader, args)?;
    if let Some(encryption) = args.crypto.encryption(reader.schema())? {
        options = options.encryption(encryption);
    }
    options.validate(reader.schema())?;
    let (pending, out) = AtomicOutput::create(&args.output)?;
    let writer = FileWriter::new(BufWriter::new(out), reader.schema().clone(), options)?;
    let sink = copy(&reader, writer, args.row_group_rows)?;
    sink.into_inner()
        .map_err(|e| Error::from(e.into_error()).context(args.output.display()))?;
    pending.commit()
}

/// Checks that `encoding` fits the physical type of the column at `path`; the error names
/// the column and the types the encoding fits.
fn check_encoding(schema: &Schema, path: &str, encoding: Encoding) -> parquet_serde::Result<()> {
    WriterOptions::default()
        .column_encoding(path, encoding)
        .validate(schema)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encoding_specs() {
        assert_eq!(
            parse_encoding_spec("ts=delta-binary-packed"),
            Ok(EncodingSpec {
                column: "ts".to_string(),
                choice: Choice::Fixed(Encoding::DeltaBinaryPacked)
            })
        );
        assert_eq!(parse_encoding_spec("AUTO").unwrap().choice, Choice::Auto);
        assert_eq!(parse_encoding_spec("a.b=keep").unwrap().column, "a.b");
        assert_eq!(parse_encoding_spec("plain").unwrap().column, "*");
        let zip = parse_encoding_spec("x=zip").unwrap_err();
        assert!(zip.starts_with("unknown encoding zip"), "{zip}");
    }

    #[test]
    fn page_versions_and_row_counts() {
        assert_eq!(parse_page_version("v2"), Ok(DataPageVersion::V2));
        assert_eq!(parse_page_version("1"), Ok(DataPageVersion::V1));
        assert!(parse_page_version("3").is_err());
        assert_eq!(parse_row_count("10"), Ok(10));
        assert!(parse_row_count("0").is_err());
        assert!(parse_row_count("-1").is_err());
    }
}
