//! `tail DIR`: the last rows of a dataset, then its new rows as they come: the rows of
//! each final file as it appears, and the rows a `LogWriter` flushes into the files it is
//! still writing (read from their journals with `UnfinishedFile::snapshot`; when such a file becomes
//! final, only the rows not printed yet are; a file whose writer crashed is read the same
//! way, up to its last flush). Other files being written (named `_…` or `.…`) are read once
//! renamed. With `--final-only`, only final files are read.

use std::collections::{HashMap, HashSet};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use clap::Args;
use parquet_serde::dataset::{DataFile, Dataset};
use parquet_serde::logs::UnfinishedFile;
use parquet_serde::record::Value;
use parquet_serde::{Error, ErrorKind, Predicate, ReadOptions};

use crate::keys::KeyArgs;
use crate::read::{options, parse_predicate, print_to_stdout, ReadArgs};
use crate::Failure;

/// The arguments of `tail`.
#[derive(Debug, Clone, Args)]
pub struct TailArgs {
    /// The dataset's folder (a Delta table's root: the files of its snapshot, each new
    /// commit's files as they are added)
    pub dir: PathBuf,
    /// First print the last N rows of the files already there (0: only the files to come)
    #[arg(short = 'n', long, value_name = "N", default_value_t = 10)]
    pub lines: usize,
    /// Only these columns: dotted paths, comma-separated
    #[arg(long, value_name = "a,b.c", value_delimiter = ',')]
    pub columns: Vec<String>,
    /// Only the rows where this holds (as `cat --where`)
    #[arg(long = "where", value_name = "PREDICATE", value_parser = parse_predicate)]
    pub filter: Option<Predicate>,
    /// Seconds between looks for new files
    #[arg(long, value_name = "SECONDS", default_value = "1", value_parser = parse_seconds)]
    pub interval: Duration,
    /// Stop after this many seconds (default: follow until interrupted)
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    pub timeout: Option<Duration>,
    /// Print the last rows and stop, without following
    #[arg(long)]
    pub once: bool,
    /// Only final files: not the flushed rows of log files still being written, nor of
    /// those a crashed writer left (until `recover` makes them final)
    #[arg(long)]
    pub final_only: bool,
    /// Do not verify page checksums
    #[arg(long)]
    pub no_verify: bool,
    /// Keys of encrypted files.
    #[command(flatten, next_help_heading = "Decryption")]
    pub keys: KeyArgs,
}

fn parse_seconds(s: &str) -> Result<Duration, String> {
    let secs: f64 = s
        .parse()
        .map_err(|_| format!("{s:?} is not a number of seconds"))?;
    Duration::try_from_secs_f64(secs).map_err(|_| format!("{s:?} is not a number of seconds"))
}

/// Where snapshots of unfinished files are read: a temporary folder, with the options of
/// the final files.
struct Mirror {
    dir: PathBuf,
    options: ReadOptions,
}

/// What `tail` has seen of the folder.
#[derive(Default)]
struct Seen {
    /// Files printed (or given up on).
    done: HashSet<PathBuf>,
    /// Files that failed to open, with their size then: retried once while they grow
    /// (a writer that does not rename its files may be caught half-way).
    failed: HashMap<PathBuf, u64>,
    /// Errors printed.
    errors: usize,
    /// Rows printed from log files still being written, by their final path (skipped when
    /// the final file is printed).
    printed: HashMap<PathBuf, usize>,
    /// The size and modification time of each journal when it was last read.
    journals: HashMap<PathBuf, (u64, Option<std::time::SystemTime>)>,
}

/// Runs `tail`.
pub fn run(args: &TailArgs) -> Result<(), Failure> {
    let read_args = ReadArgs {
        file: args.dir.clone(),
        no_verify: args.no_verify,
        keys: args.keys.clone(),
    };
    let options = options(&read_args)?;
    let failed = |e: Error| Failure::Run(format!("parquet-serde: {}", args.dir.display()), e);
    let list = || -> Result<Dataset, Failure> {
        let d = Dataset::open(&args.dir)
            .map_err(failed)?
            .read_options(options.clone());
        match &args.filter {
            Some(p) => d.filter(p.clone()).map_err(Failure::Usage),
            None => Ok(d),
        }
    };
    let deadline = args.timeout.map(|t| Instant::now() + t);
    let mut seen = Seen::default();
    // Snapshots of unfinished files are read through a mirror of their folders, so that
    // partition columns, `--columns` and `--where` apply to them as to final files.
    let temp = tempfile::tempdir()
        .map_err(|e| failed(Error::from(e).context("creating a temporary folder")))?;
    let mirror = Mirror {
        dir: temp.path().to_path_buf(),
        options: options.clone(),
    };
    let first = list()?;
    last_rows(&first, args, &mut seen, &mirror).map_err(failed)?;
    if args.once {
        return finish(&seen, failed);
    }
    loop {
        let now = Instant::now();
        let wait = match deadline {
            Some(d) if d <= now => break,
            Some(d) => args.interval.min(d - now),
            None => args.interval,
        };
        std::thread::sleep(wait);
        let dataset = list()?;
        let new: Vec<DataFile> = dataset
            .selected_files()
            .filter(|f| !seen.done.contains(f.path()))
            .cloned()
            .collect();
        for file in new {
            print_file(&dataset, &file, args, &mut seen).map_err(failed)?;
        }
        let lines = unfinished_lines(args, &mut seen, &mirror);
        print_lines(&lines).map_err(failed)?;
    }
    finish(&seen, failed)
}

/// Success, or a failure counting the errors printed.
fn finish(seen: &Seen, failed: impl Fn(Error) -> Failure) -> Result<(), Failure> {
    match seen.errors {
        0 => Ok(()),
        n => Err(failed(Error::new(
            ErrorKind::Corrupt,
            format!("{n} error(s) reading the files (printed above)"),
        ))),
    }
}

/// The rows of `file` of `dataset` as JSON lines; errors are printed on standard error
/// (a file that cannot be opened is retried at the next look while it grows).
fn file_lines(dataset: &Dataset, file: &DataFile, args: &TailArgs, seen: &mut Seen) -> Vec<String> {
    let path = file.path();
    let rows = dataset
        .clone()
        .retain(|f| f.path() == path)
        .rows::<Value>()
        .select_columns(&args.columns);
    let mut lines = Vec::new();
    let rows = match rows {
        Ok(rows) => rows,
        Err(e) => {
            report(seen, &e);
            seen.done.insert(path.to_path_buf());
            return lines;
        }
    };
    for (i, row) in rows.enumerate() {
        match row {
            Ok(row) => {
                let mut line = String::new();
                row.write_json(&mut line);
                line.push('\n');
                lines.push(line);
            }
            Err(_) if i == 0 && !args.once && retry(path, seen) => return lines,
            Err(e) => report(seen, &e),
        }
    }
    seen.done.insert(path.to_path_buf());
    seen.failed.remove(path);
    // Rows already printed while the file was being written.
    if let Some(n) = seen.printed.remove(path) {
        lines.drain(..n.min(lines.len()));
    }
    lines
}

/// The new rows of the log files still being written under the folder: for each journal
/// that changed since the last look, the rows of its snapshot not printed yet.
fn unfinished_lines(args: &TailArgs, seen: &mut Seen, mirror: &Mirror) -> Vec<String> {
    if args.final_only {
        return Vec::new();
    }
    let files = match UnfinishedFile::list(&args.dir) {
        Ok(files) => files,
        Err(e) => {
            report(seen, &e);
            return Vec::new();
        }
    };
    let mut lines = Vec::new();
    for file in files {
        let meta = std::fs::metadata(&file.journal);
        let Ok(meta) = meta else { continue };
        let stamp = (meta.len(), meta.modified().ok());
        if seen.journals.get(&file.journal) == Some(&stamp) || seen.done.contains(&file.final_path)
        {
            continue;
        }
        match snapshot_lines(args, &file, mirror) {
            Ok(all) => {
                seen.journals.insert(file.journal.clone(), stamp);
                let printed = seen.printed.entry(file.final_path).or_default();
                lines.extend(all.into_iter().skip(*printed).inspect(|_| *printed += 1));
            }
            // The writer finished (or recovery ran) between the listing and the read: the
            // final file is printed at the next look.
            Err(_) if !file.journal.exists() => {}
            Err(e) => {
                seen.journals.insert(file.journal.clone(), stamp);
                report(seen, &e);
            }
        }
    }
    lines
}

/// The rows a journal acknowledges, through the same dataset reading as final files.
fn snapshot_lines(
    args: &TailArgs,
    file: &UnfinishedFile,
    at: &Mirror,
) -> Result<Vec<String>, Error> {
    let mirror = at.dir.as_path();
    let Some(bytes) = UnfinishedFile::snapshot(&file.journal)? else {
        return Ok(Vec::new());
    };
    let rel = file
        .final_path
        .strip_prefix(&args.dir)
        .unwrap_or(&file.final_path);
    let copy = mirror.join(rel);
    if let Some(parent) = copy.parent() {
        std::fs::create_dir_all(parent).map_err(Error::from)?;
    }
    std::fs::write(&copy, bytes).map_err(Error::from)?;
    let mut dataset = Dataset::open(mirror)?
        .read_options(at.options.clone())
        .retain(|f| f.path() == copy);
    if let Some(p) = &args.filter {
        dataset = dataset.filter(p.clone())?;
    }
    let mut lines = Vec::new();
    for row in dataset.rows::<Value>().select_columns(&args.columns)? {
        let mut line = String::new();
        row?.write_json(&mut line);
        line.push('\n');
        lines.push(line);
    }
    let _ = std::fs::remove_file(&copy);
    Ok(lines)
}

fn print_lines(lines: &[String]) -> Result<(), Error> {
    print_to_stdout(|out| {
        for l in lines {
            out.write_all(l.as_bytes())?;
        }
        Ok(())
    })
}

/// Whether a file that failed at its first row is worth another try: its size changed
/// since it last failed (or it never did).
fn retry(path: &Path, seen: &mut Seen) -> bool {
    let size = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
    match seen.failed.insert(path.to_path_buf(), size) {
        Some(before) => before != size,
        None => true,
    }
}

fn report(seen: &mut Seen, e: &Error) {
    let _ = std::io::stdout().flush();
    eprintln!("parquet-serde: {e}");
    seen.errors += 1;
}

/// Prints the rows of one new file.
fn print_file(
    dataset: &Dataset,
    file: &DataFile,
    args: &TailArgs,
    seen: &mut Seen,
) -> Result<(), Error> {
    let lines = file_lines(dataset, file, args, seen);
    print_to_stdout(|out| {
        for l in &lines {
            out.write_all(l.as_bytes())?;
        }
        Ok(())
    })
}

/// Prints the last `args.lines` rows of the files there now (reading files from the last
/// one back until enough rows are found), and marks every file seen (but those to try
/// again).
fn last_rows(
    dataset: &Dataset,
    args: &TailArgs,
    seen: &mut Seen,
    mirror: &Mirror,
) -> Result<(), Error> {
    let files: Vec<DataFile> = dataset.selected_files().cloned().collect();
    let mut tail: Vec<Vec<String>> = Vec::new();
    let mut count = 0;
    for file in files.iter().rev() {
        if count >= args.lines {
            seen.done.insert(file.path().to_path_buf());
            continue;
        }
        let lines = file_lines(dataset, file, args, seen);
        count += lines.len();
        tail.push(lines);
    }
    for f in dataset.files() {
        if !seen.failed.contains_key(f.path()) {
            seen.done.insert(f.path().to_path_buf());
        }
    }
    let mut all: Vec<String> = tail.into_iter().rev().flatten().collect();
    // The files still being written hold the newest rows.
    all.extend(unfinished_lines(args, seen, mirror));
    let skip = all.len().saturating_sub(args.lines);
    print_to_stdout(|out| {
        for l in &all[skip..] {
            out.write_all(l.as_bytes())?;
        }
        Ok(())
    })
}
