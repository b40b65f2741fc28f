//! `cat`: rows as JSON lines, of one file, or of every file of a folder or glob pattern
//! (a dataset, with its partition values), filtered by `--where`.

use std::io::Write;

use parquet_serde::core::file::FileReader;
use parquet_serde::dataset::Dataset;
use parquet_serde::record::Value;
use parquet_serde::{Error, ErrorKind, Reader};

use crate::read::{options, print_to_stdout, read, CatArgs};
use crate::variant_columns::{project, Projection};
use crate::Failure;

/// Runs `cat`: a folder, or a pattern that is not an existing file, is read as a
/// dataset; anything else as one file.
pub fn run(args: &CatArgs) -> Result<(), Failure> {
    let path = &args.read.file;
    let text = path.to_string_lossy();
    let is_dir = path.is_dir();
    let is_glob = Dataset::is_pattern(&text) && !path.exists();
    if !is_dir && !is_glob {
        if args.table_version.is_some() {
            return Err(Failure::Usage(Error::invalid_argument(format!(
                "--version: {} is not a Delta table (a folder with a _delta_log/) nor an \
                 Iceberg table (a folder with metadata/*.metadata.json)",
                path.display()
            ))));
        }
        return read(&args.read, |r, out| cat(r, args, out));
    }
    let failed = |e: Error| Failure::Run(format!("parquet-serde: {}", path.display()), e);
    let usage_or_failed = |e: Error| {
        if e.kind() == ErrorKind::InvalidArgument {
            Failure::Usage(e)
        } else {
            failed(e)
        }
    };
    let dataset = if is_dir {
        Dataset::open(path)
    } else {
        Dataset::glob(&text)
    };
    let read_options = options(&args.read)?;
    let mut dataset = dataset.map_err(usage_or_failed)?;
    if let Some(v) = args.table_version {
        dataset = dataset.version(v).map_err(usage_or_failed)?;
    }
    let mut dataset = dataset.read_options(read_options.clone());
    if let Some(p) = &args.filter {
        dataset = dataset.filter(p.clone()).map_err(usage_or_failed)?;
        // Before any row is printed: a predicate that cannot apply to some file.
        dataset.check_filter().map_err(usage_or_failed)?;
    }
    // Paths inside VARIANT columns are found in the first file's schema (a file that
    // cannot be opened is reported when its rows are read).
    let first = dataset.selected_files().next().and_then(|f| {
        let file = std::fs::File::open(f.path()).ok()?;
        FileReader::with_options(file, read_options).ok()
    });
    let projection = match first {
        Some(r) => project(r.schema(), &args.columns).map_err(Failure::Usage)?,
        None => Projection::unchanged(&args.columns),
    };
    let errors = print_dataset(&dataset, args, &projection).map_err(failed)?;
    match errors {
        None => Ok(()),
        Some((n, kind)) => Err(failed(Error::new(
            kind,
            format!("{n} error(s) reading the files (printed above)"),
        ))),
    }
}

/// Prints the rows of `dataset` (the columns and at most the rows `args` asks); an error
/// in a file or a row is printed on standard error and the rows go on. The number of
/// errors and the first one's kind, if any.
fn print_dataset(
    dataset: &Dataset,
    args: &CatArgs,
    projection: &Projection,
) -> Result<Option<(usize, ErrorKind)>, Error> {
    let rows = dataset
        .rows::<Value>()
        .select_columns(&projection.columns)?;
    let limit = args.limit.unwrap_or(usize::MAX);
    let mut errors: Option<(usize, ErrorKind)> = None;
    print_to_stdout(|out| {
        let mut line = String::new();
        let mut printed = 0;
        for row in rows {
            if printed >= limit {
                break;
            }
            match row {
                Ok(mut row) => {
                    projection.apply(&mut row);
                    line.clear();
                    row.write_json(&mut line);
                    line.push('\n');
                    out.write_all(line.as_bytes())?;
                    printed += 1;
                }
                Err(e) => {
                    out.flush()?;
                    eprintln!("parquet-serde: {e}");
                    errors.get_or_insert((0, e.kind())).0 += 1;
                }
            }
        }
        Ok(())
    })?;
    Ok(errors)
}

/// Writes the rows of `reader` (the columns `args` selects, those its `--where` holds
/// for, at most its limit) as JSON lines, read as `Value`s one row group at a time.
pub fn cat(
    reader: FileReader<std::fs::File>,
    args: &CatArgs,
    out: &mut impl Write,
) -> Result<(), Error> {
    let projection = project(reader.schema(), &args.columns)?;
    let mut rows =
        Reader::<_, Value>::from_file_reader(reader)?.select_columns(&projection.columns)?;
    if let Some(p) = &args.filter {
        rows = rows.filter(p.clone())?;
    }
    let mut line = String::new();
    for row in rows.take(args.limit.unwrap_or(usize::MAX)) {
        let mut row = row?;
        projection.apply(&mut row);
        line.clear();
        row.write_json(&mut line);
        line.push('\n');
        out.write_all(line.as_bytes())?;
    }
    Ok(())
}
