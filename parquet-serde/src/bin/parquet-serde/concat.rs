//! `concat OUT IN...`: the row groups of every IN, in order, in one file. Files must have
//! the same schema; row groups are copied as stored (no decoding, same encodings, codecs,
//! statistics, page indexes and Bloom filters), except those of files whose chunks cannot
//! be copied exactly, which are decoded and encoded again. Encrypted files are refused.

use std::fs::File;
use std::io::{BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use crate::atomic_output::AtomicOutput;
use clap::Args;
use parquet_serde::core::file::{FileReader, FileWriter};
use parquet_serde::{Error, ErrorKind, WriterOptions};

/// The arguments of `concat`.
#[derive(Debug, Clone, Args)]
pub struct ConcatArgs {
    /// The file to write (replaced only once it is written whole)
    #[arg(value_name = "OUT")]
    pub output: PathBuf,
    /// The Parquet files to concatenate, in order
    #[arg(value_name = "IN", required = true, num_args = 1..)]
    pub inputs: Vec<PathBuf>,
}

/// Runs `concat`.
pub fn run(args: &ConcatArgs) -> Result<(), Error> {
    let readers = args
        .inputs
        .iter()
        .map(|p| open(p))
        .collect::<Result<Vec<_>, _>>()?;
    let Some(first) = readers.first() else {
        return Err(Error::invalid_argument("no input file"));
    };
    let schema = first.schema().clone();
    for (reader, path) in readers.iter().zip(&args.inputs).skip(1) {
        if reader.schema().root().fields() != schema.root().fields() {
            return Err(Error::schema(format!(
                "`{}` has another schema than `{}`:\n{}\nagainst\n{}",
                path.display(),
                args.inputs[0].display(),
                reader.schema(),
                schema
            )));
        }
    }
    let mut options = WriterOptions::default();
    for (key, value) in common_metadata(&readers) {
        options = options.key_value_metadata(key, value);
    }
    let (pending, file) = AtomicOutput::create(&args.output)?;
    let mut writer = FileWriter::new(BufWriter::with_capacity(1 << 16, file), schema, options)?;
    for (reader, path) in readers.iter().zip(&args.inputs) {
        let at = |e: Error| e.context(format!("`{}`", path.display()));
        for rg in 0..reader.num_row_groups() {
            match writer.copy_row_group(reader, rg) {
                Ok(()) => {}
                Err(e) if e.kind() == ErrorKind::Unsupported => {
                    reencode(&mut writer, reader, rg).map_err(at)?
                }
                Err(e) => return Err(at(e)),
            }
        }
    }
    let (mut sink, _) = writer.close()?;
    sink.flush()?;
    pending.commit()?;
    Ok(())
}

/// Opens `path`, refusing encrypted files.
fn open(path: &Path) -> Result<FileReader<File>, Error> {
    let at = |e: Error| e.context(format!("`{}`", path.display()));
    let mut file = File::open(path).map_err(|e| at(e.into()))?;
    let mut magic = [0u8; 4];
    let len = file.metadata().map_err(|e| at(e.into()))?.len();
    if len >= 4 {
        file.seek(SeekFrom::End(-4)).map_err(|e| at(e.into()))?;
        file.read_exact(&mut magic).map_err(|e| at(e.into()))?;
    }
    let encrypted = || {
        at(Error::unsupported(
            "the file is encrypted: concat copies plaintext files only (decrypt it first with \
             `parquet-serde rewrite`)",
        ))
    };
    if &magic == b"PARE" {
        return Err(encrypted());
    }
    let reader = FileReader::new(file).map_err(at)?;
    if reader.metadata().is_encrypted() {
        return Err(encrypted());
    }
    Ok(reader)
}

/// The key-value pairs every file has.
fn common_metadata(readers: &[FileReader<File>]) -> Vec<(String, String)> {
    let Some(first) = readers.first() else {
        return Vec::new();
    };
    first
        .metadata()
        .key_values()
        .filter_map(|(k, v)| Some((k.to_string(), v?.to_string())))
        .filter(|(k, v)| {
            readers[1..]
                .iter()
                .all(|r| r.metadata().key_value(k) == Some(v.as_str()))
        })
        .collect()
}

/// Writes row group `rg` of `reader` by decoding each column and encoding it again.
fn reencode<W: Write>(
    writer: &mut FileWriter<W>,
    reader: &FileReader<File>,
    rg: usize,
) -> Result<(), Error> {
    let mut chunks = Vec::with_capacity(reader.schema().num_columns());
    for c in 0..reader.schema().num_columns() {
        let batch = reader.read_column(rg, c)?;
        let mut column = writer.column_writer(c)?;
        column.write(&batch)?;
        chunks.push(column.close()?);
    }
    writer.write_row_group(chunks)
}
