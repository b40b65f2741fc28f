//! Every allocation sized from file metadata is bounded: files whose footer or page headers
//! claim huge counts and sizes (row counts, value counts, page sizes, Thrift list lengths,
//! index and Bloom filter lengths) are read under a small `ulimit -v` through every read
//! entry point — `from_slice` with 1 and 2 threads, `Reader` (whole row groups and windows
//! of rows), `Reader::filter`, the page index, Bloom filter and dictionary readers, and the
//! command-line tool's `cat`, `schema`, `meta`, `pages` and `check` — and each returns an
//! error or rows: none aborts on a failed allocation (the process would die of SIGABRT) or
//! is killed.
//!
//! The test re-executes its own binary for each file (the `#[ignore]`d `child` test, with
//! the file named in `BOUNDED_ALLOC_FILE`) under `sh -c 'ulimit -v ...; exec ...'`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use parquet_serde::__internals::format;
use parquet_serde::__internals::format::{FileMetaData, PageHeader};
use parquet_serde::core::bloom::BloomFilterOptions;
use parquet_serde::core::file::{FileReader, WriterOptions};
use parquet_serde::filter::col;
use parquet_serde::{ParquetSchema, ReadOptions, Reader, Value};
use serde::Serialize;

/// Address space of each reading process, in KiB: the test binary and its libraries map
/// ~100 MiB of it; the rest is far below any of the claimed sizes.
const LIMIT_KIB: u64 = 1 << 20;

const HUGE_I64: [i64; 2] = [1 << 40, i64::MAX];
const HUGE_I32: [i32; 2] = [1 << 30, i32::MAX];

/// The columns whose metadata is mutated: a required dictionary-encoded one, a nested
/// optional one (list elements) and a map's values (the other columns take the same paths).
const COLUMNS: [usize; 3] = [0, 3, 5];

#[derive(Serialize, ParquetSchema)]
struct Row {
    id: i64,
    name: String,
    score: Option<f64>,
    tags: Vec<Option<String>>,
    attrs: BTreeMap<String, i32>,
}

fn original() -> Vec<u8> {
    let rows: Vec<Row> = (0..300)
        .map(|i| Row {
            id: i,
            name: format!("name {}", i % 7),
            score: (i % 3 != 0).then_some(i as f64),
            tags: (0..i % 3)
                .map(|j| (j != 1).then(|| format!("t{j}")))
                .collect(),
            attrs: (0..i % 2).map(|j| (format!("k{j}"), j as i32)).collect(),
        })
        .collect();
    let options = WriterOptions::default()
        .page_row_limit(50)
        .row_group_rows(150)
        .page_index(true)
        .bloom_filter("name", BloomFilterOptions::default());
    parquet_serde::to_vec_with(&rows, options).unwrap()
}

/// `bytes` with its footer replaced by `meta`.
fn with_footer(bytes: &[u8], meta: &FileMetaData) -> Vec<u8> {
    let len = u32::from_le_bytes(bytes[bytes.len() - 8..bytes.len() - 4].try_into().unwrap());
    let body = &bytes[..bytes.len() - 8 - len as usize];
    let mut footer = Vec::new();
    format::encode(meta, &mut footer);
    let mut out = body.to_vec();
    out.extend_from_slice(&footer);
    out.extend_from_slice(&(footer.len() as u32).to_le_bytes());
    out.extend_from_slice(b"PAR1");
    out
}

fn footer_of(bytes: &[u8]) -> (FileMetaData, usize) {
    let len = u32::from_le_bytes(bytes[bytes.len() - 8..bytes.len() - 4].try_into().unwrap());
    let start = bytes.len() - 8 - len as usize;
    let (meta, _) = format::decode::<FileMetaData>(&bytes[start..bytes.len() - 8]).unwrap();
    (meta, start)
}

/// Files with one footer field set huge: row counts, value counts, chunk sizes, offsets and
/// lengths of the page index and Bloom filters, statistics' counts.
fn footer_mutations(bytes: &[u8]) -> Vec<(String, Vec<u8>)> {
    let (meta, _) = footer_of(bytes);
    let mut out = Vec::new();
    let mut push = |name: String, f: &dyn Fn(&mut FileMetaData)| {
        let mut m = meta.clone();
        f(&mut m);
        out.push((name, with_footer(bytes, &m)));
    };
    for &h in &HUGE_I64 {
        push(format!("file num_rows {h}"), &|m| m.num_rows = h);
        push(format!("row group num_rows {h}"), &|m| {
            m.row_groups.iter_mut().for_each(|g| g.num_rows = h)
        });
        push(format!("total_byte_size {h}"), &|m| {
            m.row_groups.iter_mut().for_each(|g| g.total_byte_size = h)
        });
        for c in COLUMNS {
            let chunk = |m: &mut FileMetaData, f: &dyn Fn(&mut format::ColumnChunk)| {
                m.row_groups.iter_mut().for_each(|g| f(&mut g.columns[c]))
            };
            let md = |m: &mut FileMetaData, f: &dyn Fn(&mut format::ColumnMetaData)| {
                chunk(m, &|ch| {
                    if let Some(md) = ch.meta_data.as_mut() {
                        f(md)
                    }
                })
            };
            push(format!("column {c} num_values {h}"), &|m| {
                md(m, &|d| d.num_values = h)
            });
            push(format!("column {c} total_compressed_size {h}"), &|m| {
                md(m, &|d| d.total_compressed_size = h)
            });
            push(format!("column {c} total_uncompressed_size {h}"), &|m| {
                md(m, &|d| d.total_uncompressed_size = h)
            });
            push(format!("column {c} statistics null_count {h}"), &|m| {
                md(m, &|d| {
                    if let Some(s) = d.statistics.as_mut() {
                        s.null_count = Some(h)
                    }
                })
            });
            push(format!("column {c} index offsets {h}"), &|m| {
                chunk(m, &|ch| {
                    ch.column_index_offset = Some(h);
                    ch.offset_index_offset = Some(h);
                })
            });
        }
    }
    for &h in &HUGE_I32 {
        for c in COLUMNS {
            push(format!("column {c} index and bloom lengths {h}"), &|m| {
                m.row_groups.iter_mut().for_each(|g| {
                    let ch = &mut g.columns[c];
                    ch.column_index_length = ch.column_index_length.map(|_| h);
                    ch.offset_index_length = ch.offset_index_length.map(|_| h);
                    if let Some(md) = ch.meta_data.as_mut() {
                        md.bloom_filter_length = md.bloom_filter_length.map(|_| h);
                    }
                })
            });
        }
    }
    out
}

/// Files whose footer bytes claim huge Thrift list lengths: each list header (short form,
/// element type struct, binary or i32/i64) rewritten to claim 2^28 - 1 or 2^31 - 1
/// elements, the footer otherwise unchanged.
fn list_length_mutations(bytes: &[u8]) -> Vec<(String, Vec<u8>)> {
    let (_, start) = footer_of(bytes);
    let footer = &bytes[start..bytes.len() - 8];
    let mut out = Vec::new();
    for (i, &b) in footer.iter().enumerate() {
        // Short-form list header: size (1..14) in the high nibble, element type in the low.
        let (size, elem) = (b >> 4, b & 0x0f);
        if !(1..15).contains(&size) || ![5, 6, 8, 12].contains(&elem) {
            continue;
        }
        // Only where a list field can be: the byte before is a field header of type list.
        if i == 0 || footer[i - 1] & 0x0f != 9 {
            continue;
        }
        {
            // 2^31 - 1 elements.
            let varint = [0xff, 0xff, 0xff, 0xff, 0x07];
            let mut f = footer[..i].to_vec();
            f.push(0xf0 | elem);
            f.extend_from_slice(&varint);
            f.extend_from_slice(&footer[i + 1..]);
            let mut file = bytes[..start].to_vec();
            file.extend_from_slice(&f);
            file.extend_from_slice(&(f.len() as u32).to_le_bytes());
            file.extend_from_slice(b"PAR1");
            out.push((
                format!("footer list at byte {i} claims 2^31 - 1 elements"),
                file,
            ));
        }
    }
    out
}

/// The pages of the chunk at `start..start + len`: (header, body).
fn pages_of(bytes: &[u8], start: usize, len: usize) -> Vec<(PageHeader, Vec<u8>)> {
    let mut pages = Vec::new();
    let mut pos = start;
    while pos < start + len {
        let (h, n): (PageHeader, usize) = format::decode(&bytes[pos..]).unwrap();
        let body = bytes[pos + n..pos + n + h.compressed_page_size as usize].to_vec();
        pos += n + body.len();
        pages.push((h, body));
    }
    pages
}

/// Sets one field of a page header to a value; `false` when the header has no such field.
type Mutation = fn(&mut PageHeader, i32) -> bool;

/// Files whose page headers claim huge sizes and counts: for each column, its first data
/// page (and its dictionary page) with `uncompressed_page_size`, `num_values` or the
/// dictionary's `num_values` set huge. The file is laid out again around the longer headers
/// (the page index and Bloom filters dropped, their offsets would be off).
fn page_mutations(bytes: &[u8]) -> Vec<(String, Vec<u8>)> {
    let (meta, _) = footer_of(bytes);
    let mutations: [(&str, Mutation); 4] = [
        ("uncompressed_page_size", |h, v| {
            h.uncompressed_page_size = v;
            true
        }),
        ("data page num_values", |h, v| {
            match (&mut h.data_page_header, &mut h.data_page_header_v2) {
                (Some(d), _) => (d.num_values = v, true).1,
                (_, Some(d)) => (d.num_values = v, true).1,
                _ => false,
            }
        }),
        ("v2 num_rows", |h, v| match &mut h.data_page_header_v2 {
            Some(d) => (d.num_rows = v, true).1,
            None => false,
        }),
        ("dictionary num_values", |h, v| {
            match &mut h.dictionary_page_header {
                Some(d) => (d.num_values = v, true).1,
                None => false,
            }
        }),
    ];
    let mut out = Vec::new();
    for c in COLUMNS {
        for (name, mutate) in mutations {
            for &v in &HUGE_I32 {
                let mut m = meta.clone();
                let mut file = b"PAR1".to_vec();
                let mut changed = false;
                for g in &mut m.row_groups {
                    for (k, ch) in g.columns.iter_mut().enumerate() {
                        let md = ch.meta_data.as_mut().unwrap();
                        let start =
                            md.dictionary_page_offset.unwrap_or(md.data_page_offset) as usize;
                        let mut pages = pages_of(bytes, start, md.total_compressed_size as usize);
                        if k == c {
                            for (h, _) in pages.iter_mut() {
                                if mutate(h, v) {
                                    changed = true;
                                    break;
                                }
                            }
                        }
                        let new_start = file.len() as i64;
                        for (i, (h, body)) in pages.iter().enumerate() {
                            if i == 1 && md.dictionary_page_offset.is_some() {
                                md.data_page_offset = file.len() as i64;
                            }
                            format::encode(h, &mut file);
                            file.extend_from_slice(body);
                        }
                        if md.dictionary_page_offset.is_some() {
                            md.dictionary_page_offset = Some(new_start);
                        } else {
                            md.data_page_offset = new_start;
                        }
                        md.total_compressed_size = file.len() as i64 - new_start;
                        md.bloom_filter_offset = None;
                        md.bloom_filter_length = None;
                        ch.file_offset = new_start;
                        ch.column_index_offset = None;
                        ch.column_index_length = None;
                        ch.offset_index_offset = None;
                        ch.offset_index_length = None;
                    }
                }
                if !changed {
                    continue;
                }
                let mut footer = Vec::new();
                format::encode(&m, &mut footer);
                file.extend_from_slice(&footer);
                file.extend_from_slice(&(footer.len() as u32).to_le_bytes());
                file.extend_from_slice(b"PAR1");
                out.push((format!("column {c} {name} {v}"), file));
            }
        }
    }
    out
}

/// Every library read entry point over `bytes`; returns normally whatever they answer.
fn read_everything(bytes: &[u8]) {
    for threads in [1, 2] {
        let options = ReadOptions::default().threads(threads);
        let _ = parquet_serde::from_slice_with::<Value>(bytes, options);
    }
    for options in [ReadOptions::default(), ReadOptions::default().batch_rows(7)] {
        if let Ok(reader) = Reader::<_, Value>::with_options(bytes, options) {
            for row in reader {
                if row.is_err() {
                    break;
                }
            }
        }
    }
    let Ok(file) = FileReader::new(bytes) else {
        return;
    };
    let paths: Vec<String> = file
        .schema()
        .columns()
        .iter()
        .map(|c| c.path.to_string())
        .collect();
    for path in &paths {
        for p in [
            col(path.as_str()).is_not_null(),
            col(path.as_str()).eq("name 3"),
            col(path.as_str()).gt(5),
        ] {
            if let Ok(reader) = Reader::<_, Value>::new(bytes).and_then(|r| r.filter(p)) {
                for row in reader {
                    if row.is_err() {
                        break;
                    }
                }
            }
        }
    }
    for rg in 0..file.num_row_groups() {
        for c in 0..paths.len() {
            let _ = parquet_serde::__internals::column_index(&file, rg, c);
            let _ = parquet_serde::__internals::offset_index(&file, rg, c);
            let _ = file.page_index(rg, c);
            let _ = file.bloom_filter(rg, c);
            let _ = file.dictionary(rg, c);
            let _ = file.metadata().column_statistics(rg, c);
            let _ = file.read_column(rg, c);
        }
    }
}

/// The child: reads the file named in `BOUNDED_ALLOC_FILE` through every entry point.
#[test]
#[ignore = "run by bounded_allocations_on_hostile_metadata under ulimit -v"]
fn child() {
    let path = std::env::var_os("BOUNDED_ALLOC_FILE").expect("BOUNDED_ALLOC_FILE");
    read_everything(&std::fs::read(path).unwrap());
}

/// Runs `program args` under the address-space limit: whether it ended by itself (exit code
/// 0 or 1), with its stderr.
fn run_limited(program: &Path, args: &[&str], env: Option<&Path>) -> (bool, String) {
    let mut cmd = Command::new("sh");
    cmd.arg("-c")
        .arg(format!("ulimit -v {LIMIT_KIB} && exec \"$0\" \"$@\""))
        .arg(program)
        .args(args);
    if let Some(file) = env {
        cmd.env("BOUNDED_ALLOC_FILE", file);
    }
    let out = cmd.output().unwrap();
    let ok = matches!(out.status.code(), Some(0 | 1));
    (ok, String::from_utf8_lossy(&out.stderr).into_owned())
}

/// The line of `stderr` that says what went wrong (a failed allocation, a panic).
fn first_line(stderr: &str) -> &str {
    stderr
        .lines()
        .find(|l| l.contains("memory allocation") || l.contains("panicked") || l.contains("error"))
        .unwrap_or_else(|| stderr.lines().next().unwrap_or("killed by a signal"))
}

#[test]
fn bounded_allocations_on_hostile_metadata() {
    let bytes = original();
    let mut cases = footer_mutations(&bytes);
    cases.extend(list_length_mutations(&bytes));
    cases.extend(page_mutations(&bytes));
    assert!(cases.len() > 50, "{} cases", cases.len());
    let dir = tempfile::tempdir().unwrap();
    // BOUNDED_ALLOC_KEEP=1 keeps the files (named in the failures) for a closer look.
    let dir_path = match std::env::var_os("BOUNDED_ALLOC_KEEP") {
        Some(_) => dir.keep(),
        None => dir.path().to_path_buf(),
    };
    let dir = dir_path.as_path();
    let exe = std::env::current_exe().unwrap();
    let cli: Option<PathBuf> = option_env!("CARGO_BIN_EXE_parquet-serde").map(PathBuf::from);
    // The limit leaves room for a clean read.
    let clean = dir.join("clean.parquet");
    std::fs::write(&clean, &bytes).unwrap();
    let (ok, err) = run_limited(
        &exe,
        &["--ignored", "--exact", "child", "--test-threads=1"],
        Some(&clean),
    );
    assert!(ok, "a valid file fails under the limit: {err}");
    // Two cases at a time (each is a few processes).
    let check = |i: usize, name: &str, file: &[u8]| -> Vec<String> {
        let mut failures = Vec::new();
        let path = dir.join(format!("case{i}.parquet"));
        std::fs::write(&path, file).unwrap();
        let (ok, err) = run_limited(
            &exe,
            &["--ignored", "--exact", "child", "--test-threads=1"],
            Some(&path),
        );
        if !ok {
            failures.push(format!(
                "{name} ({}): library: {}",
                path.display(),
                first_line(&err)
            ));
        }
        if let Some(cli) = &cli {
            for command in ["cat", "schema", "meta", "pages", "check"] {
                let (ok, err) = run_limited(cli, &[command, path.to_str().unwrap()], None);
                if !ok {
                    failures.push(format!(
                        "{name} ({}): parquet-serde {command}: {}",
                        path.display(),
                        first_line(&err)
                    ));
                }
            }
        }
        failures
    };
    let failures: Vec<String> = std::thread::scope(|s| {
        let workers: Vec<_> = (0..2)
            .map(|w| {
                let (cases, check) = (&cases, &check);
                s.spawn(move || {
                    cases
                        .iter()
                        .enumerate()
                        .skip(w)
                        .step_by(2)
                        .flat_map(|(i, (name, file))| check(i, name, file))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect()
    });
    assert!(
        failures.is_empty(),
        "{} of {} files:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}
