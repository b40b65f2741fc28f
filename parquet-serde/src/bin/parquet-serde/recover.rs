//! `recover`: turn the files a crashed log writer left behind into final files.

use std::io::Write;
use std::path::PathBuf;

use clap::Args;
use parquet_serde::logs::UnfinishedFile;
use parquet_serde::Error;

/// Arguments of `recover`.
#[derive(Debug, Args)]
pub struct RecoverArgs {
    /// A log folder (every unfinished file below it), or one unfinished file
    /// (`_part-*.journal` or `_part-*.parquet.inprogress`)
    pub path: PathBuf,
}

/// Recovers `args.path` and prints what became of each file. Files of a writer still
/// running are left alone. Fails (after recovering the others) when a file could not be
/// recovered.
pub fn run(args: &RecoverArgs, out: &mut impl Write) -> Result<(), Error> {
    if !args.path.is_dir() {
        return match UnfinishedFile::recover(&args.path)? {
            Some(path) => Ok(writeln!(out, "recovered {}", path.display())?),
            None => Ok(writeln!(
                out,
                "removed {} (no acknowledged rows)",
                args.path.display()
            )?),
        };
    }
    let report = UnfinishedFile::recover_all(&args.path)?;
    for path in &report.recovered {
        writeln!(out, "recovered {}", path.display())?;
    }
    for path in &report.removed {
        writeln!(out, "removed {} (no acknowledged rows)", path.display())?;
    }
    for path in &report.live {
        writeln!(out, "skipped {} (its writer is running)", path.display())?;
    }
    for (path, e) in &report.failed {
        writeln!(out, "failed {}: {e}", path.display())?;
    }
    writeln!(
        out,
        "{} files recovered ({} rows), {} removed, {} skipped, {} failed",
        report.recovered.len(),
        report.rows,
        report.removed.len(),
        report.live.len(),
        report.failed.len()
    )?;
    match report.failed.into_iter().next() {
        Some((path, e)) => Err(e.context(format!("recovering `{}`", path.display()))),
        None => Ok(()),
    }
}
