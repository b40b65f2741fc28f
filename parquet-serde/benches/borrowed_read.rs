//! Owned against borrowed rows, and row groups assembled sequentially against in parallel,
//! on the log workloads of shared/tools/compare-arrow (`flat`: application log records;
//! `nested`: events with tags, a string map, an optional struct and a list of structs),
//! written by `to_vec_with` (Snappy) in row groups of 50,000 rows.
//!
//! - `owned`: `from_slice::<T>` (helper threads decode, the calling thread assembles);
//! - `borrowed`: `Reader::<_, TRef>::batches()` and `Batch::rows::<TRef>()`, a type whose
//!   text fields are `&str` (no allocation per value);
//! - `parallel`: `Reader::read_all_par` (row groups decoded and assembled on several
//!   threads);
//! - `borrowed_windows`: the same batches of at most 16,384 rows
//!   (`ReadOptions::batch_rows`: a window's columns decoded at a time);
//! - `flat_one_group`: one row group of 200,000 rows (as compare-arrow's files are one
//!   row group), read owned, borrowed at once, borrowed in slices (`Batch::rows_in`), and
//!   borrowed in windows.

use std::collections::BTreeMap;
use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use parquet_serde::{Batch, Compression, ReadOptions, Reader, WriterOptions};
use serde::Deserialize;

#[path = "../tests/common/logs.rs"]
mod logs;
use logs::{flat_rows, nested_rows, Event, LogFlat};

#[derive(Deserialize)]
#[allow(dead_code)]
struct LogFlatRef<'a> {
    ts_micros: i64,
    level: &'a str,
    target: &'a str,
    message: &'a str,
    latency_ms: f64,
    status: i32,
    user_id: Option<i64>,
    request_id: &'a str,
}

#[derive(Deserialize)]
#[allow(dead_code)]
struct HttpRef<'a> {
    method: &'a str,
    path: &'a str,
    status: u16,
    latency_ms: f64,
}

#[derive(Deserialize)]
#[allow(dead_code)]
struct SpanRef<'a> {
    name: &'a str,
    dur_us: i64,
}

#[derive(Deserialize)]
#[allow(dead_code)]
struct EventRef<'a> {
    ts_micros: i64,
    level: &'a str,
    message: &'a str,
    #[serde(borrow)]
    tags: Vec<&'a str>,
    #[serde(borrow)]
    attrs: BTreeMap<&'a str, &'a str>,
    #[serde(borrow)]
    http: Option<HttpRef<'a>>,
    #[serde(borrow)]
    spans: Vec<SpanRef<'a>>,
}

/// Reads in windows of at most 16,384 rows.
fn windows() -> ReadOptions {
    ReadOptions::default().batch_rows(16_384)
}

/// Rows of `bytes` read borrowed: the batches of a reader of `R` (the borrowing type, which
/// names the columns read) opened with `options`, each batch's rows counted by `rows`.
fn borrowed<R: Deserialize<'static>>(
    bytes: &[u8],
    options: ReadOptions,
    rows: impl Fn(&Batch) -> usize,
) -> usize {
    let mut n = 0;
    for batch in Reader::<_, R>::with_options(bytes, options)
        .unwrap()
        .batches()
    {
        n += rows(&batch.unwrap());
    }
    n
}

fn options() -> WriterOptions {
    WriterOptions::default()
        .compression(Compression::Snappy)
        .row_group_rows(50_000)
}

fn bench(c: &mut Criterion) {
    let flat = parquet_serde::to_vec_with(&flat_rows(200_000), options()).unwrap();
    let nested = parquet_serde::to_vec_with(&nested_rows(100_000), options()).unwrap();

    let mut g = c.benchmark_group("borrowed_read/flat");
    g.sample_size(10).measurement_time(Duration::from_secs(3));
    g.throughput(Throughput::Elements(200_000));
    g.bench_function("owned", |b| {
        b.iter(|| parquet_serde::from_slice::<LogFlat>(&flat).unwrap().len())
    });
    g.bench_function("borrowed", |b| {
        b.iter(|| {
            borrowed::<LogFlatRef>(&flat, ReadOptions::default(), |batch| {
                black_box(batch.rows::<LogFlatRef>().unwrap()).len()
            })
        })
    });
    g.bench_function("borrowed_windows", |b| {
        b.iter(|| {
            borrowed::<LogFlatRef>(&flat, windows(), |batch| {
                black_box(batch.rows::<LogFlatRef>().unwrap()).len()
            })
        })
    });
    g.bench_function("parallel", |b| {
        b.iter(|| {
            Reader::<_, LogFlat>::new(&flat[..])
                .unwrap()
                .read_all_par()
                .unwrap()
                .len()
        })
    });
    g.finish();

    // One row group of 200,000 rows: borrowed rows at once or in slices of 16,384 rows
    // (`Batch::rows_in`).
    let one =
        parquet_serde::to_vec_with(&flat_rows(200_000), options().row_group_rows(200_000)).unwrap();
    let mut g = c.benchmark_group("borrowed_read/flat_one_group");
    g.sample_size(10).measurement_time(Duration::from_secs(3));
    g.throughput(Throughput::Elements(200_000));
    g.bench_function("owned", |b| {
        b.iter(|| parquet_serde::from_slice::<LogFlat>(&one).unwrap().len())
    });
    g.bench_function("borrowed", |b| {
        b.iter(|| {
            borrowed::<LogFlatRef>(&one, ReadOptions::default(), |batch| {
                black_box(batch.rows::<LogFlatRef>().unwrap()).len()
            })
        })
    });
    g.bench_function("borrowed_slices", |b| {
        let slices = |batch: &Batch| {
            let (mut n, mut start) = (0, 0);
            while start < batch.num_rows() {
                let end = (start + 16_384).min(batch.num_rows());
                n += black_box(batch.rows_in::<LogFlatRef>(start..end).unwrap()).len();
                start = end;
            }
            n
        };
        b.iter(|| borrowed::<LogFlatRef>(&one, ReadOptions::default(), slices))
    });
    g.bench_function("borrowed_windows", |b| {
        b.iter(|| {
            borrowed::<LogFlatRef>(&one, windows(), |batch| {
                black_box(batch.rows::<LogFlatRef>().unwrap()).len()
            })
        })
    });
    g.finish();

    let mut g = c.benchmark_group("borrowed_read/nested");
    g.sample_size(10).measurement_time(Duration::from_secs(3));
    g.throughput(Throughput::Elements(100_000));
    g.bench_function("owned", |b| {
        b.iter(|| parquet_serde::from_slice::<Event>(&nested).unwrap().len())
    });
    g.bench_function("borrowed", |b| {
        b.iter(|| {
            borrowed::<EventRef>(&nested, ReadOptions::default(), |batch| {
                black_box(batch.rows::<EventRef>().unwrap()).len()
            })
        })
    });
    g.bench_function("borrowed_windows", |b| {
        b.iter(|| {
            borrowed::<EventRef>(&nested, windows(), |batch| {
                black_box(batch.rows::<EventRef>().unwrap()).len()
            })
        })
    });
    g.bench_function("parallel", |b| {
        b.iter(|| {
            Reader::<_, Event>::new(&nested[..])
                .unwrap()
                .read_all_par()
                .unwrap()
                .len()
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
