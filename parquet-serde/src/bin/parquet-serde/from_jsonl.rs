//! `from-jsonl IN.jsonl OUT.parquet [--schema FILE] [--sample N]`: JSON lines (one object a
//! line) into a Parquet file, by a schema given as message-type text or inferred from the
//! first lines.

use std::fs::File;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};

use clap::Args;
use parquet_serde::core::schema::Schema;
use parquet_serde::record::{InferOptions, SchemaInferrer, ValueWriter};
use parquet_serde::Error;

use crate::write_args::WriteArgs;

/// Lines read to infer the schema when `--sample` is not given.
const DEFAULT_SAMPLE: u64 = 20_000;

/// The arguments of `from-jsonl`.
#[derive(Debug, Clone, Args)]
pub struct FromJsonlArgs {
    /// The JSON lines file: one JSON object per line (blank lines are skipped)
    #[arg(value_name = "IN.jsonl")]
    pub input: PathBuf,
    /// The Parquet file to write (replaced only once it is written whole)
    #[arg(value_name = "OUT.parquet")]
    pub output: PathBuf,
    /// The schema, as message-type text (what `parquet-serde schema` prints); else it is
    /// inferred from the first lines
    #[arg(long, value_name = "FILE")]
    pub schema: Option<PathBuf>,
    /// Lines to infer the schema from (0: every line)
    #[arg(long, value_name = "N", default_value_t = DEFAULT_SAMPLE)]
    pub sample: u64,
    /// Strings that are all RFC 3339 date-times in the sample become TIMESTAMP columns
    #[arg(long)]
    pub timestamps: bool,
    /// Fail on integers beyond 64 bits in the sample rather than make their column DOUBLE
    #[arg(long)]
    pub strict_integers: bool,
    /// Values of mixed kinds in the sample (and empty objects, null-only fields) become
    /// JSON text columns rather than VARIANT ones (for readers without VARIANT)
    #[arg(long)]
    pub mixed_as_json: bool,
    /// Writer options.
    #[command(flatten)]
    pub write: WriteArgs,
}

/// Runs `from-jsonl`.
pub fn run(args: &FromJsonlArgs) -> Result<(), Error> {
    let schema = match &args.schema {
        Some(path) => read_schema(path)?,
        None => infer(args)?,
    };
    let mut writer = ValueWriter::from_path(&args.output, schema, args.write.options())?;
    for_each_line(&args.input, u64::MAX, |line| writer.write_json_slice(line))?;
    writer.close()?;
    Ok(())
}

/// The schema in the message-type text of `path`.
pub fn read_schema(path: &Path) -> Result<Schema, Error> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| Error::from(e).context(format!("reading the schema `{}`", path.display())))?;
    text.parse::<Schema>()
        .map_err(|e| e.context(format!("the schema `{}`", path.display())))
}

/// The schema of the first `--sample` lines. Fields are optional unless the sample was
/// the whole file and every line had them.
fn infer(args: &FromJsonlArgs) -> Result<Schema, Error> {
    let limit = if args.sample == 0 {
        u64::MAX
    } else {
        args.sample
    };
    let options = InferOptions::default()
        .timestamps(args.timestamps)
        .mixed_as_json(args.mixed_as_json)
        .big_integers_error(args.strict_integers);
    let mut inferrer = SchemaInferrer::new(options);
    let whole = for_each_line(&args.input, limit, |line| inferrer.add_json_slice(line))?;
    inferrer.set_nullable(!whole);
    let schema = inferrer.schema();
    schema.map_err(|e| {
        e.context(format!(
            "inferring the schema of `{}`",
            args.input.display()
        ))
    })
}

/// Calls `f` with each non-blank line of `path` (at most `limit` of them); an error names
/// the line (counted from 1). Returns whether the whole file was read.
fn for_each_line(
    path: &Path,
    limit: u64,
    mut f: impl FnMut(&[u8]) -> Result<(), Error>,
) -> Result<bool, Error> {
    let file = File::open(path)
        .map_err(|e| Error::from(e).context(format!("opening `{}`", path.display())))?;
    let mut reader = BufReader::with_capacity(1 << 20, file);
    let mut line = Vec::with_capacity(1 << 12);
    let (mut number, mut rows) = (0u64, 0u64);
    loop {
        if rows == limit {
            return Ok(reader.fill_buf()?.is_empty());
        }
        line.clear();
        if reader.read_until(b'\n', &mut line)? == 0 {
            return Ok(true);
        }
        number += 1;
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        f(&line).map_err(|e| e.context(format!("`{}` line {number}", path.display())))?;
        rows += 1;
    }
}
