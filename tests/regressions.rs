//! The files of `testdata/regressions`: each once aborted, hung or made a file another
//! engine rejects (issue 18). Each test reads its file the way the report did and must now
//! get an error or the rows, within a time bound, and files we write from them must be
//! readable by pyarrow.

#[path = "../parquet-serde/tests/common/mod.rs"]
mod common;

use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use common::{python, regression_file};
use parquet_serde::core::file::{FileReader, FileWriter, WriterOptions};
use parquet_serde::core::schema::PhysicalType as Type;
use parquet_serde::filter::col;
use parquet_serde::{ReadOptions, Reader, Value};

/// Runs `f` on a thread of its own; its result, or a failure naming `what` when it has not
/// returned within `secs` seconds (a hang fails the test instead of blocking it).
fn within<T: Send + 'static>(what: &str, secs: u64, f: impl FnOnce() -> T + Send + 'static) -> T {
    let (done, wait) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = done.send(f());
    });
    wait.recv_timeout(Duration::from_secs(secs))
        .unwrap_or_else(|_| panic!("{what}: not done within {secs} s, it hangs"))
}

/// A footer whose row group claims 2^40 rows: a filtered read used to reserve room for that
/// many row results before looking at the column and abort the process.
#[test]
fn filter_on_a_huge_row_group_count_is_an_error() {
    let bytes = regression_file("filter-num-rows-2e40.parquet");
    let claimed = FileReader::new(bytes.clone())
        .unwrap()
        .metadata()
        .row_group(0)
        .unwrap()
        .num_rows();
    assert!(claimed >= 1 << 40, "the reproducer claims {claimed} rows");
    for predicate in [
        col("long_col").gt(5u64),
        col("long_col").is_null(),
        col("long_col").is_not_null(),
    ] {
        let read = Reader::<_, Value>::new(&bytes[..])
            .and_then(|r| r.filter(predicate.clone()))
            .and_then(|r| r.collect::<parquet_serde::Result<Vec<_>>>());
        let e = read.expect_err("2^40 rows cannot be in 1655 bytes");
        assert!(e.to_string().contains("rows"), "{e}");
    }
}

/// One corrupted byte in a snappy page of a nested column: the pipelined reader (default
/// options, helper threads) used to deadlock, a helper waiting for room in one column while
/// the calling thread waited for another. Now every thread count gives the error the
/// sequential read gives.
#[test]
fn corrupt_nested_page_does_not_hang_the_pipeline() {
    let bytes = regression_file("pipeline-deadlock-nested.parquet");
    let b = bytes.clone();
    let default = within("from_slice with default options", 60, move || {
        parquet_serde::from_slice::<Value>(&b)
    });
    let sequential =
        parquet_serde::from_slice_with::<Value>(&bytes, ReadOptions::default().threads(1));
    let e = sequential.expect_err("the reproducer's page is corrupt");
    assert!(
        default.is_err(),
        "default options read {:?} rows",
        default.map(|r| r.len())
    );
    for threads in [2, 3, 4, 8] {
        let b = bytes.clone();
        let r = within(&format!("{threads} threads"), 60, move || {
            parquet_serde::from_slice_with::<Value>(&b, ReadOptions::default().threads(threads))
        });
        let got = r.expect_err("the page is corrupt whatever the threads");
        // The pipelined reader may meet another defect first; the error is about the data.
        assert_eq!(got.kind(), e.kind(), "{got} / {e}");
    }
}

/// `path` rewritten by the library with default writer options, column by column (what
/// `parquet-serde rewrite IN OUT` does for flat files).
fn rewrite_default(bytes: Vec<u8>, out: &Path) {
    let reader = FileReader::new(bytes).unwrap();
    let mut writer = FileWriter::new(
        Vec::new(),
        reader.schema().clone(),
        WriterOptions::default(),
    )
    .unwrap();
    for rg in 0..reader.num_row_groups() {
        let mut chunks = Vec::new();
        for c in 0..reader.schema().num_columns() {
            let batch = reader.read_column(rg, c).unwrap();
            let mut w = writer.column_writer(c).unwrap();
            w.write(&batch).unwrap();
            chunks.push(w.close().unwrap());
        }
        writer.write_row_group(chunks).unwrap();
    }
    let (bytes, _) = writer.close().unwrap();
    std::fs::write(out, bytes).unwrap();
}

/// Runs `script` with `args` under the project's Python, killing it after `secs` seconds:
/// its stdout, or a failure with its stderr (or the hang).
fn python_within(script: &str, args: &[&Path], secs: u64) -> String {
    let mut child = Command::new(python())
        .arg("-c")
        .arg(script)
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run python");
    let start = Instant::now();
    loop {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        if start.elapsed() > Duration::from_secs(secs) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("python did not finish within {secs} s: it hangs on our file");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "python failed on our file: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// Checks, in the file at `path`, that every FIXED_LEN_BYTE_ARRAY min/max (column chunk
/// statistics and page index) holds exactly the column's `type_length` bytes; the number of
/// bounds checked.
fn flba_bounds_are_whole(path: &Path) -> usize {
    let reader = FileReader::new(std::fs::read(path).unwrap()).unwrap();
    let mut checked = 0;
    for (c, d) in reader.schema().columns().iter().enumerate() {
        if d.physical_type != Type::FixedLenByteArray {
            continue;
        }
        let width = d.type_length as usize;
        for rg in 0..reader.num_row_groups() {
            let meta = reader.metadata().row_group(rg).unwrap().column(c).unwrap();
            assert!(meta.has_metadata());
            let stats = meta.raw_statistics().unwrap();
            for b in [stats.min_value(), stats.max_value()].into_iter().flatten() {
                assert_eq!(b.len(), width, "{} chunk bound {b:?}", d.path);
                checked += 1;
            }
            let index = parquet_serde::__internals::column_index(&reader, rg, c).unwrap();
            for ci in index.iter() {
                for b in ci.min_values.iter().chain(&ci.max_values) {
                    if !b.is_empty() {
                        assert_eq!(b.len(), width, "{} page index bound {b:?}", d.path);
                        checked += 1;
                    }
                }
            }
        }
    }
    checked
}

/// A FIXED_LEN_BYTE_ARRAY(100) column rewritten with default options (statistics cut at 64
/// bytes) used to get 64-65 byte bounds, which abort pyarrow's statistics reader and hang
/// its filtered read. Bounds are now rounded within the 100 bytes.
#[test]
fn flba100_rewritten_keeps_whole_bounds_for_pyarrow() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("flba100.parquet");
    rewrite_default(regression_file("flba100.parquet"), &out);
    assert!(flba_bounds_are_whole(&out) >= 4);
    let script = r#"
import sys
import pyarrow.parquet as pq
import pyarrow.compute as pc
path = sys.argv[1]
f = pq.ParquetFile(path)
s = f.metadata.row_group(0).column(0).statistics
assert s.has_min_max
assert len(s.min) == 100 and len(s.max) == 100, (len(s.min), len(s.max))
assert s.min <= b"a" * 100 and s.max >= b"z" * 100, (s.min, s.max)
t = pq.read_table(path, filters=[("f", "=", b"z" * 100)])
print(t.num_rows)
t = pq.read_table(path, filters=[("f", ">", b"b" * 100)])
print(t.num_rows)
"#;
    let out = python_within(script, &[&out], 120);
    assert_eq!(out.split_whitespace().collect::<Vec<_>>(), ["1", "1"]);
}
