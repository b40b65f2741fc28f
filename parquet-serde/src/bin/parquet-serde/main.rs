//! `parquet-serde`: inspect and check Parquet files.
//!
//! ```text
//! parquet-serde cat FILE [--columns a,b.c] [--limit N]   one JSON object per row
//! parquet-serde schema FILE                              the message-type text
//! parquet-serde meta FILE                                row groups, columns, encodings, sizes, statistics
//! parquet-serde pages FILE                               the page layout of every column chunk
//! parquet-serde check FILE                               decode everything, verify every CRC
//! parquet-serde rewrite IN OUT [options]                 same values and schema, other options
//! ```
//! `--no-verify` (any command) turns CRC verification off. Encrypted files: `--footer-key HEX`,
//! `--column-key PATH:HEX` (repeatable), `--aad-prefix TEXT`.

use std::io::{BufWriter, Write};
use std::process::ExitCode;

use parquet_serde::file::{FileReader, ReadOptions};
use parquet_serde::Error;

mod cat;
mod check;
mod keys;
mod meta;
mod pages;
mod rewrite;
mod rewrite_crypto;
mod rewrite_flags;
mod stats_flags;

const USAGE: &str = "usage: parquet-serde <cat|schema|meta|pages|check> FILE [options]
       parquet-serde rewrite IN OUT [options]
  cat FILE [--columns a,b.c] [--limit N]   print rows as JSON lines
  schema FILE                              print the schema (message-type text)
  meta FILE                                print row groups, columns, encodings, sizes, statistics
  pages FILE                               print the pages of every column chunk
  check FILE                               decode every page and verify every checksum
options: --no-verify  do not verify page checksums";

fn usage() -> String {
    let mut u = format!(
        "{USAGE}\n{}\n{}\n{}",
        keys::HELP,
        rewrite::USAGE,
        rewrite_crypto::USAGE
    );
    for f in rewrite_flags::FLAGS {
        let value = if f.takes_value { " VALUE" } else { "" };
        u.push_str(&format!("\n          [--{}{value}]  {}", f.name, f.help));
    }
    u
}

pub(crate) struct Args {
    pub(crate) command: String,
    pub(crate) file: String,
    pub(crate) columns: Vec<String>,
    pub(crate) limit: Option<usize>,
    pub(crate) verify: bool,
    pub(crate) keys: keys::KeyFlags,
}

fn parse_args() -> Result<Args, String> {
    let mut it = std::env::args().skip(1);
    let command = it.next().ok_or("missing command")?;
    if command == "--help" || command == "-h" || command == "help" {
        return Err(String::new());
    }
    let mut file = None;
    let mut args = Args {
        command,
        file: String::new(),
        columns: Vec::new(),
        limit: None,
        verify: true,
        keys: keys::KeyFlags::default(),
    };
    while let Some(a) = it.next() {
        if args.keys.take(&a, &mut || it.next())? {
            continue;
        }
        match a.as_str() {
            "--columns" => {
                let v = it.next().ok_or("--columns needs a value")?;
                args.columns = v
                    .split(',')
                    .filter(|s| !s.is_empty())
                    .map(str::to_string)
                    .collect();
            }
            "--limit" => {
                let v = it.next().ok_or("--limit needs a value")?;
                args.limit = Some(
                    v.parse()
                        .map_err(|_| format!("--limit: not a number: {v}"))?,
                );
            }
            "--no-verify" => args.verify = false,
            s if s.starts_with("--") => return Err(format!("unknown option {s}")),
            s => {
                if file.replace(s.to_string()).is_some() {
                    return Err(format!("unexpected argument {s}"));
                }
            }
        }
    }
    args.file = file.ok_or("missing FILE")?;
    Ok(args)
}

fn main() -> ExitCode {
    let raw: Vec<String> = std::env::args().skip(1).collect();
    if raw.first().map(String::as_str) == Some("rewrite") {
        return match rewrite::run(&raw[1..]) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("parquet-serde rewrite: {e}");
                if e.kind() == parquet_serde::ErrorKind::InvalidArgument {
                    eprintln!("{}", usage());
                    ExitCode::from(2)
                } else {
                    ExitCode::from(1)
                }
            }
        };
    }
    let args = match parse_args() {
        Ok(a) => a,
        Err(msg) => {
            if !msg.is_empty() {
                eprintln!("parquet-serde: {msg}");
            }
            eprintln!("{}", usage());
            return ExitCode::from(2);
        }
    };
    let result = std::fs::File::open(&args.file)
        .map_err(Error::from)
        .and_then(|f| {
            let mut options = ReadOptions::default().verify_checksums(args.verify);
            if let Some(d) = args.keys.decryption()? {
                options = options.decryption(d);
            }
            FileReader::with_options(f, options)
        })
        .and_then(|reader| {
            let stdout = std::io::stdout();
            let mut out = BufWriter::new(stdout.lock());
            let r = match args.command.as_str() {
                "cat" => cat::cat(reader, &args, &mut out),
                "schema" => writeln!(out, "{}", reader.schema()).map_err(Error::from),
                "meta" => meta::meta(&reader, &mut out),
                "pages" => pages::pages(&reader, &mut out),
                "check" => check::check(reader, &mut out),
                other => Err(Error::invalid_argument(format!("unknown command {other}"))),
            };
            r.and_then(|_| out.flush().map_err(Error::from))
        });
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e)
            if e.kind() == parquet_serde::ErrorKind::Io && e.message().contains("Broken pipe") =>
        {
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("parquet-serde: {}: {e}", args.file);
            ExitCode::from(1)
        }
    }
}
