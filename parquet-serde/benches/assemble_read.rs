//! Reads of the log workload (shared/tools/compare-arrow's shapes, from
//! tests/common/logs.rs) through serde's derive (`serde_*`) against the same structs with
//! `#[parquet(assemble)]` (`assembled_*`), whose fields are read straight from the columns;
//! owned rows (`from_slice`) and rows that borrow their text from a batch (`*_borrowed_*`,
//! `Batch::rows_in` slices of 65,536 rows).
//!
//! `ASSEMBLE_BENCH_ONLY=serde_flat|assembled_flat|serde_nested|assembled_nested` runs one
//! read loop outside criterion (for `perf stat -e instructions`).

use std::collections::BTreeMap;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use parquet_serde::ParquetSchema;
use serde::{Deserialize, Serialize};

#[path = "../tests/common/logs.rs"]
mod logs;

/// `logs::LogFlat`, assembled.
#[derive(Debug, Clone, PartialEq, Serialize, ParquetSchema)]
#[parquet(assemble)]
pub struct LogFlat {
    pub ts_micros: i64,
    pub level: String,
    pub target: String,
    pub message: String,
    pub latency_ms: f64,
    pub status: i32,
    pub user_id: Option<i64>,
    pub request_id: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, ParquetSchema)]
#[parquet(assemble)]
pub struct Http {
    pub method: String,
    pub path: String,
    pub status: u16,
    pub latency_ms: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize, ParquetSchema)]
#[parquet(assemble)]
pub struct Span {
    pub name: String,
    pub dur_us: i64,
}

/// `logs::Event`, assembled.
#[derive(Debug, Clone, PartialEq, Serialize, ParquetSchema)]
#[parquet(assemble)]
pub struct Event {
    pub ts_micros: i64,
    pub level: String,
    pub message: String,
    pub tags: Vec<String>,
    pub attrs: BTreeMap<String, String>,
    pub http: Option<Http>,
    pub spans: Vec<Span>,
}

/// `LogFlat`'s borrowing twin, through serde's derive.
#[derive(Debug, Deserialize)]
pub struct SerdeFlatRef<'a> {
    pub ts_micros: i64,
    pub level: &'a str,
    pub target: &'a str,
    pub message: &'a str,
    pub latency_ms: f64,
    pub status: i32,
    pub user_id: Option<i64>,
    pub request_id: &'a str,
}

/// The same, assembled.
#[derive(Debug, Serialize, ParquetSchema)]
#[parquet(assemble)]
pub struct FlatRef<'a> {
    pub ts_micros: i64,
    pub level: &'a str,
    pub target: &'a str,
    pub message: &'a str,
    pub latency_ms: f64,
    pub status: i32,
    pub user_id: Option<i64>,
    pub request_id: &'a str,
}

/// A borrowing row type at any lifetime.
trait Borrows {
    type R<'b>: Deserialize<'b>;
}
impl Borrows for SerdeFlatRef<'static> {
    type R<'b> = SerdeFlatRef<'b>;
}
impl Borrows for FlatRef<'static> {
    type R<'b> = FlatRef<'b>;
}

/// Borrowed rows of `T` in `bytes`, 65,536 at a time; how many.
fn read_borrowed<T: Borrows>(bytes: &[u8]) -> usize {
    const SLICE: usize = 65_536;
    let mut n = 0;
    for batch in parquet_serde::Reader::<_, T::R<'static>>::new(bytes)
        .unwrap()
        .batches()
    {
        let batch = batch.unwrap();
        let mut start = 0;
        while start < batch.num_rows() {
            let end = (start + SLICE).min(batch.num_rows());
            let rows: Vec<T::R<'_>> = batch.rows_in(start..end).unwrap();
            n += std::hint::black_box(rows).len();
            start = end;
        }
    }
    n
}

const FLAT: usize = 1_000_000;
const NESTED: usize = 500_000;

fn files() -> (Vec<u8>, Vec<u8>) {
    let flat = parquet_serde::to_vec(&logs::flat_rows(FLAT)).unwrap();
    let nested = parquet_serde::to_vec(&logs::nested_rows(NESTED)).unwrap();
    (flat, nested)
}

/// Rows of `T` in `bytes`, read on the calling thread alone (the work the assembler
/// changes, without the decoder threads' noise).
fn read<T: serde::de::DeserializeOwned>(bytes: &[u8]) -> usize {
    let options = parquet_serde::ReadOptions::default().threads(1);
    parquet_serde::from_slice_with::<T>(bytes, options)
        .unwrap()
        .len()
}

fn bench(c: &mut Criterion) {
    let (flat, nested) = files();
    // Same rows both ways.
    let s = parquet_serde::from_slice::<logs::LogFlat>(&flat).unwrap();
    let a = parquet_serde::from_slice::<LogFlat>(&flat).unwrap();
    assert_eq!(format!("{:?}", &s[..100]), format!("{:?}", &a[..100]));
    drop((s, a));
    if let Ok(only) = std::env::var("ASSEMBLE_BENCH_ONLY") {
        let n = match only.as_str() {
            "serde_flat" => read::<logs::LogFlat>(&flat),
            "assembled_flat" => read::<LogFlat>(&flat),
            "serde_nested" => read::<logs::Event>(&nested),
            "assembled_nested" => read::<Event>(&nested),
            "serde_flat_borrowed" => read_borrowed::<SerdeFlatRef<'static>>(&flat),
            "assembled_flat_borrowed" => read_borrowed::<FlatRef<'static>>(&flat),
            other => panic!("unknown ASSEMBLE_BENCH_ONLY={other}"),
        };
        eprintln!("{only}: {n} rows");
        return;
    }
    let mut g = c.benchmark_group("assemble_read");
    g.sample_size(10);
    g.throughput(Throughput::Elements(FLAT as u64));
    g.bench_function("serde_flat_1m", |b| b.iter(|| read::<logs::LogFlat>(&flat)));
    g.bench_function("assembled_flat_1m", |b| b.iter(|| read::<LogFlat>(&flat)));
    g.bench_function("serde_flat_borrowed_1m", |b| {
        b.iter(|| read_borrowed::<SerdeFlatRef<'static>>(&flat))
    });
    g.bench_function("assembled_flat_borrowed_1m", |b| {
        b.iter(|| read_borrowed::<FlatRef<'static>>(&flat))
    });
    g.throughput(Throughput::Elements(NESTED as u64));
    g.bench_function("serde_nested_500k", |b| {
        b.iter(|| read::<logs::Event>(&nested))
    });
    g.bench_function("assembled_nested_500k", |b| {
        b.iter(|| read::<Event>(&nested))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
