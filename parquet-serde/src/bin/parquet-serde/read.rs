//! The commands that read one file and print about it (`cat`, `schema`, `meta`, `pages`,
//! `check`): their arguments, and opening the file with them.

use std::io::{BufWriter, StdoutLock, Write};
use std::path::PathBuf;

use clap::Args;
use parquet_serde::core::file::{FileReader, ReadOptions};
use parquet_serde::{Error, Predicate};

use crate::keys::KeyArgs;
use crate::Failure;

/// The arguments every reading command takes.
#[derive(Debug, Clone, Args)]
pub struct ReadArgs {
    /// The Parquet file
    pub file: PathBuf,
    /// Do not verify page checksums
    #[arg(long)]
    pub no_verify: bool,
    /// Keys of an encrypted file.
    #[command(flatten, next_help_heading = "Decryption")]
    pub keys: KeyArgs,
}

/// The arguments of `cat`.
#[derive(Debug, Clone, Args)]
pub struct CatArgs {
    /// Only these columns: dotted paths, comma-separated (a group selects its leaves; a
    /// path inside a VARIANT column, `fields.status`, keeps only that field of it)
    #[arg(long, value_name = "a,b.c", value_delimiter = ',')]
    pub columns: Vec<String>,
    /// At most N rows
    #[arg(long, value_name = "N")]
    pub limit: Option<usize>,
    /// Only the rows where this holds: `level = 'ERROR' and ts >= '2026-11-24T13:00:00Z'`
    /// (and/or/not, = != < <= > >=, in (...), between, [not] like, is [not] null|true|false,
    /// a bare boolean column, column against column; literals compare exactly in the column's
    /// type: DECIMAL by value, timestamps to every digit; partition keys of a folder's
    /// `key=value` subfolders too; paths inside VARIANT columns, `fields.status = 500`,
    /// compare as DuckDB's TRY_CAST to the literal's type)
    #[arg(long = "where", value_name = "PREDICATE", value_parser = parse_predicate)]
    pub filter: Option<Predicate>,
    /// Of a Delta table (a folder with a `_delta_log/`), the snapshot at this version
    /// instead of the latest; of an Iceberg table (a folder with
    /// `metadata/*.metadata.json`), the snapshot of this id
    #[arg(long = "version", value_name = "N")]
    pub table_version: Option<u64>,
    /// The file and its keys (last: their help heading would take the flags after them).
    #[command(flatten)]
    pub read: ReadArgs,
}

/// Where the reading commands print.
pub type Out = BufWriter<StdoutLock<'static>>;

/// A `--where` predicate (the parser's message says where it went wrong).
pub fn parse_predicate(s: &str) -> Result<Predicate, String> {
    Predicate::parse(s).map_err(|e| e.message().to_string())
}

/// The reader options of `args`: checksums and keys (bad key flags are a usage failure).
pub fn options(args: &ReadArgs) -> Result<ReadOptions, Failure> {
    let mut options = ReadOptions::default().verify_checksums(!args.no_verify);
    if let Some(d) = args.keys.decryption().map_err(Failure::Usage)? {
        options = options.decryption(d);
    }
    Ok(options)
}

/// Standard output for printing, and the end of printing: a closed standard output
/// (`| head`) ends the command quietly.
pub fn print_to_stdout(print: impl FnOnce(&mut Out) -> Result<(), Error>) -> Result<(), Error> {
    let mut out = BufWriter::new(std::io::stdout().lock());
    let result = print(&mut out).and_then(|()| out.flush().map_err(Error::from));
    match result {
        Err(e) if broken_pipe(&e) => Ok(()),
        r => r,
    }
}

/// Whether `e` is a write to a closed pipe.
pub fn broken_pipe(e: &Error) -> bool {
    e.kind() == parquet_serde::ErrorKind::Io && e.message().contains("Broken pipe")
}

/// Opens `args.file` with its keys and checksum setting and hands it to `print` with
/// standard output. Bad key flags are a usage failure; anything else failing is a run
/// failure, except a closed standard output (`| head`), which ends the command quietly.
pub fn read(
    args: &ReadArgs,
    print: impl FnOnce(FileReader<std::fs::File>, &mut Out) -> Result<(), Error>,
) -> Result<(), Failure> {
    let options = options(args)?;
    let failed = |e: Error| Failure::Run(format!("parquet-serde: {}", args.file.display()), e);
    if args.file.is_dir() {
        return Err(Failure::Usage(Error::invalid_argument(format!(
            "`{}` is a folder: this command reads one Parquet file (`cat` and `tail` read \
             the files of a folder)",
            args.file.display()
        ))));
    }
    let file = std::fs::File::open(&args.file).map_err(|e| failed(e.into()))?;
    let reader = FileReader::with_options(file, options).map_err(failed)?;
    print_to_stdout(|out| print(reader, out)).map_err(failed)
}
