//! `parquet-serde`: inspect, check and rewrite Parquet files.
//!
//! ```text
//! parquet-serde cat FILE|DIR|GLOB [--columns a,b.c] [--limit N] [--where PRED] [--version N]
//!                                                        one JSON object per row (DIR may be a Delta table)
//! parquet-serde tail DIR [-n N] [--where PRED]           last rows, then new rows as flushed
//! parquet-serde schema FILE                              the message-type text
//! parquet-serde meta FILE                                row groups, columns, encodings, sizes, statistics, geospatial statistics
//! parquet-serde pages FILE                               the page layout of every column chunk
//! parquet-serde check FILE                               decode everything, verify every CRC
//! parquet-serde rewrite IN OUT [options]                 same values and schema, other options
//! parquet-serde recover DIR|FILE                         finish the log files a crash left behind
//! parquet-serde from-jsonl IN.jsonl OUT.parquet [--schema FILE] [--sample N]   JSON lines to Parquet
//! parquet-serde from-csv IN.csv OUT.parquet              CSV (header row) to Parquet
//! parquet-serde concat OUT IN...                         row groups of every IN copied into OUT
//! ```
//! `--help` on any command lists its flags. Exit codes: 0 success, 1 a failure reading or
//! writing (message on standard error), 2 a usage error.

use std::io::Write;
use std::process::ExitCode;

use clap::{CommandFactory, Parser, Subcommand};
use parquet_serde::{Error, ErrorKind};

mod atomic_output;
mod cat;
mod check;
mod compact;
mod concat;
mod from_csv;
mod from_jsonl;
mod keys;
mod meta;
mod meta_stats;
mod names;
mod pages;
mod read;
mod recover;
mod rewrite;
mod rewrite_copy;
mod rewrite_crypto;
mod rewrite_layout;
mod stats_flags;
mod tail;
mod variant_columns;
mod write_args;

use read::{read, CatArgs, ReadArgs};
use rewrite::RewriteArgs;
use tail::TailArgs;

/// Inspect, check and rewrite Parquet files.
#[derive(Debug, Parser)]
#[command(name = "parquet-serde", version)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// The commands. A flag given twice keeps its last value, except the repeatable ones.
#[derive(Debug, Subcommand)]
enum Command {
    /// Print one JSON object per row
    ///
    /// FILE may be a folder, read as a dataset: every final `.parquet` file below it
    /// (names starting with `_` or `.` skipped) in time order, with the values of
    /// `key=value` folders as fields; or a glob pattern (`'logs/**/*.parquet'`). A folder
    /// with a `_delta_log/` is a Delta table: its files and partition values are those of
    /// the log's current snapshot (`--version N`: of version N), files pruned by the log's
    /// statistics. A folder with `metadata/*.metadata.json` is an Iceberg table: the files
    /// of its current snapshot (`--version ID`: of snapshot ID), columns matched by field
    /// id, files pruned by partition values and bounds.
    #[command(
        args_override_self = true,
        mut_arg("file", |a| a.help("The Parquet file, a folder of them, or a glob pattern"))
    )]
    Cat(CatArgs),
    /// Print the last rows of a folder's Parquet files, then new rows as they come
    ///
    /// Final files are read as they appear. Log files still being written by a
    /// `LogWriter` (or the `tracing` layer), `_part-…` with a journal, are read too: their
    /// rows are printed as soon as they are flushed, and, when the file becomes final, only
    /// its rows not printed yet. A log file whose writer crashed counts as one still being
    /// written: its flushed rows (those `recover` keeps) are printed. Other files being
    /// written (named `_…` or `.…`) are read once they get their final name. With
    /// `--final-only`, only final files are read.
    #[command(args_override_self = true)]
    Tail(TailArgs),
    /// Print the schema (message-type text)
    #[command(args_override_self = true)]
    Schema(ReadArgs),
    /// Print row groups, columns, encodings, sizes, statistics (as logical values) and
    /// geospatial statistics (bounding box, geometry types)
    #[command(args_override_self = true)]
    Meta(ReadArgs),
    /// Print the pages of every column chunk
    #[command(args_override_self = true)]
    Pages(ReadArgs),
    /// Decode every page, verify every checksum, and check that STRING/ENUM values are UTF-8,
    /// JSON values JSON text and BSON values BSON documents
    #[command(args_override_self = true)]
    Check(ReadArgs),
    /// Rewrite IN as OUT with other options, same values and schema
    ///
    /// What no option changes is kept from IN: each column's codec (its default level), its
    /// encodings (dictionary or not, and the value encoding of its other pages), the page
    /// version and the row groups. OUT is encrypted when given a footer key. OUT is written
    /// to a temporary file next to it and renamed over it once complete.
    #[command(
        args_override_self = true,
        mut_arg("footer_key", |a| a.help(
            "Footer key of OUT, which encrypts OUT (and of IN, unless --in-footer-key)"
        )),
        mut_arg("column_key", |a| a.help(
            "Key of OUT's column at dotted PATH (and of IN's, unless --in-column-key); the \
             other columns stay plaintext (repeatable)"
        )),
        mut_arg("aad_prefix", |a| a.help("AAD prefix of OUT (not used to read IN)")),
    )]
    Rewrite(Box<RewriteArgs>),
    /// Finish the log files a crashed writer left behind (parquet_serde::logs)
    ///
    /// Each unfinished file becomes a final `part-*.parquet` file holding every row its
    /// journal acknowledged; files holding none are removed. Files of a writer still
    /// running are skipped.
    Recover(recover::RecoverArgs),
    /// Write JSON lines (one object a line) as a Parquet file
    ///
    /// The schema is message-type text (--schema) or inferred from the first --sample
    /// lines: booleans, 64-bit integers, doubles (integers mixed with fractions), strings,
    /// objects as groups, arrays as LISTs, values of mixed kinds as JSON text. A line that
    /// is not JSON or does not fit the schema fails the command, naming the line.
    #[command(name = "from-jsonl", args_override_self = true)]
    FromJsonl(from_jsonl::FromJsonlArgs),
    /// Write a CSV file with a header row as a Parquet file
    ///
    /// Each column is BOOLEAN, INT64, DOUBLE or STRING by its cells; empty cells are nulls.
    #[command(name = "from-csv", args_override_self = true)]
    FromCsv(from_csv::FromCsvArgs),
    /// Concatenate Parquet files of the same schema, copying row groups as stored
    #[command(args_override_self = true)]
    Concat(concat::ConcatArgs),
    /// Merge the small files of each partition folder of a dataset into files near a
    /// target size (row groups copied verbatim where large enough); prints what it did
    ///
    /// Each output becomes visible under its final name before its inputs are removed, so a
    /// reader of the folder may see some rows twice in between; a crash there leaves
    /// duplicates that the next `compact` removes. Files starting with `_` or `.` are never
    /// touched; encrypted files are refused. On a Delta table's root (feature `delta`), no
    /// file is deleted: one commit removes the inputs from the table and adds the outputs
    /// (the inputs stay in storage until a vacuum).
    #[command(args_override_self = true)]
    Compact(compact::CompactArgs),
}

impl Command {
    /// The command's name, as typed.
    fn name(&self) -> &'static str {
        match self {
            Command::Cat(_) => "cat",
            Command::Tail(_) => "tail",
            Command::Schema(_) => "schema",
            Command::Meta(_) => "meta",
            Command::Pages(_) => "pages",
            Command::Check(_) => "check",
            Command::Rewrite(_) => "rewrite",
            Command::Recover(_) => "recover",
            Command::FromJsonl(_) => "from-jsonl",
            Command::FromCsv(_) => "from-csv",
            Command::Concat(_) => "concat",
            Command::Compact(_) => "compact",
        }
    }

    /// Runs the command. `rewrite`'s invalid-argument errors (options that do not fit IN,
    /// or each other) are usage failures.
    fn run(self) -> Result<(), Failure> {
        match self {
            Command::Cat(mut args) => {
                args.columns.retain(|c| !c.is_empty());
                cat::run(&args)
            }
            Command::Tail(mut args) => {
                args.columns.retain(|c| !c.is_empty());
                tail::run(&args)
            }
            Command::Schema(args) => read(&args, |r, out| {
                writeln!(out, "{}", r.schema()).map_err(Error::from)
            }),
            Command::Meta(args) => read(&args, |r, out| meta::meta(&r, out)),
            Command::Pages(args) => read(&args, |r, out| pages::pages(&r, out)),
            Command::Check(args) => read(&args, check::check),
            Command::Recover(args) => {
                let mut out = std::io::stdout().lock();
                recover::run(&args, &mut out)
                    .map_err(|e| Failure::Run("parquet-serde recover".to_string(), e))
            }
            Command::Rewrite(args) => rewrite::run(&args).map_err(|e| {
                if e.kind() == ErrorKind::InvalidArgument {
                    Failure::Usage(e)
                } else {
                    Failure::Run("parquet-serde rewrite".to_string(), e)
                }
            }),
            Command::FromJsonl(args) => from_jsonl::run(&args)
                .map_err(|e| Failure::Run("parquet-serde from-jsonl".to_string(), e)),
            Command::FromCsv(args) => from_csv::run(&args)
                .map_err(|e| Failure::Run("parquet-serde from-csv".to_string(), e)),
            Command::Concat(args) => {
                concat::run(&args).map_err(|e| Failure::Run("parquet-serde concat".to_string(), e))
            }
            Command::Compact(args) => {
                let mut out = std::io::stdout().lock();
                compact::run(&args, &mut out)
                    .map_err(|e| Failure::Run("parquet-serde compact".to_string(), e))
            }
        }
    }
}

/// Why a command failed, which decides its exit code.
#[derive(Debug)]
pub enum Failure {
    /// The arguments do not fit each other or the file: exit 2, with the command's usage.
    Usage(Error),
    /// Reading or writing failed: exit 1. The string starts the message: the tool and what
    /// failed (a file, a command).
    Run(String, Error),
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            // Help and version go to standard output with 0, usage errors to standard
            // error with 2.
            let _ = e.print();
            return ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2));
        }
    };
    let name = cli.command.name();
    match cli.command.run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Usage(e)) => {
            let mut cli = Cli::command();
            cli.build();
            let e = match cli.find_subcommand_mut(name) {
                Some(command) => command.error(clap::error::ErrorKind::ValueValidation, e),
                None => cli.error(clap::error::ErrorKind::ValueValidation, e),
            };
            let _ = e.print();
            ExitCode::from(2)
        }
        Err(Failure::Run(what, e)) => {
            eprintln!("{what}: {e}");
            ExitCode::from(1)
        }
    }
}
