//! `parquet-serde`: inspect and check Parquet files.
//!
//! ```text
//! parquet-serde cat FILE [--columns a,b.c] [--limit N]   one JSON object per row
//! parquet-serde schema FILE                              the message-type text
//! parquet-serde meta FILE                                row groups, columns, encodings, sizes, statistics
//! parquet-serde pages FILE                               the page layout of every column chunk
//! parquet-serde check FILE                               decode everything, verify every CRC
//! ```
//! `--no-verify` (any command) turns CRC verification off.

use std::io::{BufWriter, Write};
use std::process::ExitCode;

use parquet_serde::file::{FileReader, ReadOptions};
use parquet_serde::format::{LogicalType, Statistics, Type};
use parquet_serde::record::{write_json, RowAssembler};
use parquet_serde::schema::ColumnDescriptor;
use parquet_serde::Error;

const USAGE: &str = "usage: parquet-serde <cat|schema|meta|pages|check> FILE [options]
  cat FILE [--columns a,b.c] [--limit N]   print rows as JSON lines
  schema FILE                              print the schema (message-type text)
  meta FILE                                print row groups, columns, encodings, sizes, statistics
  pages FILE                               print the pages of every column chunk
  check FILE                               decode every page and verify every checksum
options: --no-verify  do not verify page checksums";

struct Args {
    command: String,
    file: String,
    columns: Vec<String>,
    limit: Option<usize>,
    verify: bool,
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
    };
    while let Some(a) = it.next() {
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
    let args = match parse_args() {
        Ok(a) => a,
        Err(msg) => {
            if !msg.is_empty() {
                eprintln!("parquet-serde: {msg}");
            }
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    let result = std::fs::File::open(&args.file)
        .map_err(Error::from)
        .and_then(|f| {
            FileReader::with_options(f, ReadOptions::default().verify_checksums(args.verify))
        })
        .and_then(|reader| {
            let stdout = std::io::stdout();
            let mut out = BufWriter::new(stdout.lock());
            let r = match args.command.as_str() {
                "cat" => cat(&reader, &args, &mut out),
                "schema" => writeln!(out, "{}", reader.schema()).map_err(Error::from),
                "meta" => meta(&reader, &mut out),
                "pages" => pages(&reader, &mut out),
                "check" => check(&reader, &mut out),
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

fn cat(reader: &FileReader<std::fs::File>, args: &Args, out: &mut impl Write) -> Result<(), Error> {
    let schema = reader.schema();
    let selected: Vec<usize> = (0..schema.num_columns())
        .filter(|&i| {
            let path = schema.columns()[i].path.to_string();
            args.columns.is_empty()
                || args
                    .columns
                    .iter()
                    .any(|c| path == *c || path.starts_with(&format!("{c}.")))
        })
        .collect();
    if selected.is_empty() && !args.columns.is_empty() {
        return Err(Error::invalid_argument(format!(
            "no column matches {}",
            args.columns.join(",")
        )));
    }
    let mut remaining = args.limit.unwrap_or(usize::MAX);
    let mut line = String::new();
    for rg in 0..reader.num_row_groups() {
        if remaining == 0 {
            break;
        }
        let batches = selected
            .iter()
            .map(|&c| reader.read_column(rg, c))
            .collect::<Result<Vec<_>, _>>()?;
        let mut rows = RowAssembler::new(schema.root(), schema.columns(), &selected, batches)
            .map_err(|e| e.with_row_group(rg))?;
        while remaining > 0 {
            let Some(row) = rows.next_row().map_err(|e| e.with_row_group(rg))? else {
                break;
            };
            line.clear();
            write_json(&row, &mut line);
            line.push('\n');
            out.write_all(line.as_bytes())?;
            remaining -= 1;
        }
    }
    Ok(())
}

fn meta(reader: &FileReader<std::fs::File>, out: &mut impl Write) -> Result<(), Error> {
    let md = reader.metadata();
    let f = &md.file;
    writeln!(out, "version: {}", f.version)?;
    writeln!(
        out,
        "created_by: {}",
        f.created_by.as_deref().unwrap_or("-")
    )?;
    writeln!(out, "rows: {}", f.num_rows)?;
    writeln!(out, "row groups: {}", f.row_groups.len())?;
    writeln!(out, "columns: {}", md.schema.num_columns())?;
    if let Some(kv) = &f.key_value_metadata {
        for e in kv {
            let v = e.value.as_deref().unwrap_or("");
            let v: String = if v.len() > 120 {
                format!(
                    "{}... ({} bytes)",
                    &v[..v.floor_char_boundary(120)],
                    v.len()
                )
            } else {
                v.to_string()
            };
            writeln!(out, "key_value: {} = {v}", e.key)?;
        }
    }
    for (i, rg) in f.row_groups.iter().enumerate() {
        writeln!(
            out,
            "row group {i}: {} rows, {} bytes uncompressed, {} bytes compressed",
            rg.num_rows,
            rg.total_byte_size,
            rg.total_compressed_size
                .map_or("-".to_string(), |s| s.to_string())
        )?;
        for (c, chunk) in rg.columns.iter().enumerate() {
            let descr = &md.schema.columns()[c];
            let Some(m) = &chunk.meta_data else {
                writeln!(out, "  {}: (metadata not in plaintext)", descr.path)?;
                continue;
            };
            writeln!(
                out,
                "  {}: {:?} {:?} values={} encodings={:?} compressed={} uncompressed={} data_page_offset={}{}",
                descr.path,
                m.r#type,
                m.codec,
                m.num_values,
                m.encodings,
                m.total_compressed_size,
                m.total_uncompressed_size,
                m.data_page_offset,
                m.dictionary_page_offset.map_or(String::new(), |d| format!(" dictionary_page_offset={d}")),
            )?;
            if let Some(s) = &m.statistics {
                writeln!(out, "    statistics: {}", stats_text(s, descr))?;
            }
        }
    }
    Ok(())
}

fn stats_text(s: &Statistics, d: &ColumnDescriptor) -> String {
    let mut parts = Vec::new();
    if let Some(n) = s.null_count {
        parts.push(format!("nulls={n}"));
    }
    if let Some(n) = s.distinct_count {
        parts.push(format!("distinct={n}"));
    }
    let (min, max) = match (&s.min_value, &s.max_value) {
        (Some(a), Some(b)) => (Some(a), Some(b)),
        _ => (s.min.as_ref(), s.max.as_ref()),
    };
    if let (Some(lo), Some(hi)) = (min, max) {
        parts.push(format!(
            "min={} max={}",
            stat_value(lo, d),
            stat_value(hi, d)
        ));
    }
    if let Some(n) = s.nan_count {
        parts.push(format!("nans={n}"));
    }
    parts.join(" ")
}

fn stat_value(b: &[u8], d: &ColumnDescriptor) -> String {
    let unsigned = matches!(
        d.logical_type,
        Some(LogicalType::Integer {
            is_signed: false,
            ..
        })
    );
    match (d.physical_type, b.len()) {
        (Type::Boolean, 1) => (b[0] != 0).to_string(),
        (Type::Int32, 4) => {
            let v = i32::from_le_bytes([b[0], b[1], b[2], b[3]]);
            if unsigned {
                (v as u32).to_string()
            } else {
                v.to_string()
            }
        }
        (Type::Int64, 8) => {
            let v = i64::from_le_bytes(b.try_into().unwrap_or([0; 8]));
            if unsigned {
                (v as u64).to_string()
            } else {
                v.to_string()
            }
        }
        (Type::Float, 4) => f32::from_le_bytes([b[0], b[1], b[2], b[3]]).to_string(),
        (Type::Double, 8) => f64::from_le_bytes(b.try_into().unwrap_or([0; 8])).to_string(),
        _ => match std::str::from_utf8(b) {
            Ok(s)
                if matches!(
                    d.logical_type,
                    Some(LogicalType::String | LogicalType::Enum | LogicalType::Json)
                ) || d.converted_type.is_some() && s.chars().all(|c| !c.is_control()) =>
            {
                format!("{s:?}")
            }
            _ => b.iter().map(|x| format!("{x:02x}")).collect::<String>(),
        },
    }
}

fn pages(reader: &FileReader<std::fs::File>, out: &mut impl Write) -> Result<(), Error> {
    let schema = reader.schema();
    for rg in 0..reader.num_row_groups() {
        for c in 0..schema.num_columns() {
            let chunk = reader.column_chunk(rg, c)?;
            writeln!(
                out,
                "row group {rg} column {} ({:?}):",
                schema.columns()[c].path,
                chunk.codec
            )?;
            let mut pages = chunk.pages(reader.options().page_options());
            let mut i = 0;
            while let Some(p) = pages.next_raw().map_err(|e| {
                e.with_row_group(rg)
                    .with_column(schema.columns()[c].path.to_string())
            })? {
                let h = &p.header;
                let detail = if let Some(d) = &h.data_page_header {
                    format!(
                        "values={} encoding={:?} def={:?} rep={:?}",
                        d.num_values,
                        d.encoding,
                        d.definition_level_encoding,
                        d.repetition_level_encoding
                    )
                } else if let Some(d) = &h.data_page_header_v2 {
                    format!(
                        "values={} nulls={} rows={} encoding={:?} def_bytes={} rep_bytes={} compressed={}",
                        d.num_values,
                        d.num_nulls,
                        d.num_rows,
                        d.encoding,
                        d.definition_levels_byte_length,
                        d.repetition_levels_byte_length,
                        d.is_compressed.unwrap_or(true)
                    )
                } else if let Some(d) = &h.dictionary_page_header {
                    format!("entries={} encoding={:?}", d.num_values, d.encoding)
                } else {
                    String::new()
                };
                writeln!(
                    out,
                    "  page {i}: {:?} offset={} header={} compressed={} uncompressed={} crc={} {detail}",
                    h.r#type,
                    p.offset,
                    p.header_len,
                    h.compressed_page_size,
                    h.uncompressed_page_size,
                    h.crc.map_or("-".to_string(), |c| format!("{:08x}", c as u32)),
                )?;
                i += 1;
            }
        }
    }
    Ok(())
}

fn check(reader: &FileReader<std::fs::File>, out: &mut impl Write) -> Result<(), Error> {
    let schema = reader.schema();
    let mut values = 0u64;
    for rg in 0..reader.num_row_groups() {
        let selected: Vec<usize> = (0..schema.num_columns()).collect();
        let batches = selected
            .iter()
            .map(|&c| reader.read_column(rg, c))
            .collect::<Result<Vec<_>, _>>()?;
        values += batches.iter().map(|b| b.num_levels() as u64).sum::<u64>();
        let mut rows = RowAssembler::new(schema.root(), schema.columns(), &selected, batches)
            .map_err(|e| e.with_row_group(rg))?;
        let mut n = 0i64;
        while rows.next_row().map_err(|e| e.with_row_group(rg))?.is_some() {
            n += 1;
        }
        let declared = reader.metadata().file.row_groups[rg].num_rows;
        if !selected.is_empty() && n != declared {
            return Err(Error::corrupt(format!(
                "row group holds {n} rows, its metadata says {declared}"
            ))
            .with_row_group(rg));
        }
    }
    writeln!(
        out,
        "ok: {} row groups, {} columns, {} rows, {values} values",
        reader.num_row_groups(),
        schema.num_columns(),
        reader.metadata().num_rows()
    )?;
    Ok(())
}
