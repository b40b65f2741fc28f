//! The commands that read one file and print about it (`cat`, `schema`, `meta`, `pages`,
//! `check`): their arguments, and opening the file with them.

use std::io::{BufWriter, StdoutLock, Write};
use std::path::PathBuf;

use clap::Args;
use parquet_serde::core::file::{FileReader, ReadOptions};
use parquet_serde::Error;

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
    /// Only these columns: dotted paths, comma-separated (a group selects its leaves)
    #[arg(long, value_name = "a,b.c", value_delimiter = ',')]
    pub columns: Vec<String>,
    /// At most N rows
    #[arg(long, value_name = "N")]
    pub limit: Option<usize>,
    /// The file and its keys (last: their help heading would take the flags after them).
    #[command(flatten)]
    pub read: ReadArgs,
}

/// Where the reading commands print.
pub type Out = BufWriter<StdoutLock<'static>>;

/// Opens `args.file` with its keys and checksum setting and hands it to `print` with
/// standard output. Bad key flags are a usage failure; anything else failing is a run
/// failure, except a closed standard output (`| head`), which ends the command quietly.
pub fn read(
    args: &ReadArgs,
    print: impl FnOnce(FileReader<std::fs::File>, &mut Out) -> Result<(), Error>,
) -> Result<(), Failure> {
    let mut options = ReadOptions::default().verify_checksums(!args.no_verify);
    if let Some(d) = args.keys.decryption().map_err(Failure::Usage)? {
        options = options.decryption(d);
    }
    let failed = |e: Error| Failure::Run(format!("parquet-serde: {}", args.file.display()), e);
    let file = std::fs::File::open(&args.file).map_err(|e| failed(e.into()))?;
    let reader = FileReader::with_options(file, options).map_err(failed)?;
    let mut out = BufWriter::new(std::io::stdout().lock());
    let result = print(reader, &mut out).and_then(|()| out.flush().map_err(Error::from));
    match result {
        Err(e)
            if e.kind() == parquet_serde::ErrorKind::Io && e.message().contains("Broken pipe") =>
        {
            Ok(())
        }
        r => r.map_err(failed),
    }
}
