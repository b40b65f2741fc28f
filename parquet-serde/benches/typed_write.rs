//! Throughput of typed writing: `to_vec` of log records (the compare-arrow workloads: a flat
//! record and a nested event) on one thread and on two, and the shredding alone.
//!
//! `direct_vs_serde` writes the nested rows the derive's direct way (`to_vec`) and through
//! serde alone (the same rows behind a wrapper whose `ParquetSchema` has no direct writer).
//!
//! `cargo bench -p parquet-serde --bench typed_write -- --warm-up-time 1 --measurement-time 3`

use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use parquet_serde::core::schema::typed::{ColumnOptions, FieldAttrs};
use parquet_serde::core::schema::SchemaNode;
use parquet_serde::{Compression, ParquetSchema, WriterOptions};
use serde::{Serialize, Serializer};

const ROWS: usize = 100_000;

#[path = "../tests/common/logs.rs"]
mod logs;
use logs::{flat_rows, nested_rows};

fn bench_to_vec(c: &mut Criterion) {
    let flat = flat_rows(ROWS);
    let nested = nested_rows(ROWS);
    let mut g = c.benchmark_group("typed_write");
    g.sample_size(10);
    g.throughput(Throughput::Elements(ROWS as u64));
    // One thread (everything on the calling thread), and two (helper threads encode and
    // compress the columns while the calling thread shreds).
    for (name, codec, threads) in [
        ("uncompressed", Compression::Uncompressed, 1),
        ("snappy", Compression::Snappy, 1),
        ("snappy_2_threads", Compression::Snappy, 2),
    ] {
        let options = WriterOptions::default().compression(codec).threads(threads);
        g.bench_function(BenchmarkId::new("flat_to_vec", name), |b| {
            b.iter(|| {
                black_box(
                    parquet_serde::to_vec_with(black_box(&flat), options.clone())
                        .unwrap()
                        .len(),
                )
            })
        });
        g.bench_function(BenchmarkId::new("nested_to_vec", name), |b| {
            b.iter(|| {
                black_box(
                    parquet_serde::to_vec_with(black_box(&nested), options.clone())
                        .unwrap()
                        .len(),
                )
            })
        });
    }
    g.bench_function("flat_shred_only", |b| {
        b.iter(|| black_box(parquet_serde::shred(black_box(&flat)).unwrap().1.len()))
    });
    g.bench_function("nested_shred_only", |b| {
        b.iter(|| black_box(parquet_serde::shred(black_box(&nested)).unwrap().1.len()))
    });
    g.finish();
}

/// A row written through serde only: `T`'s schema and options, no direct writer.
struct SerdeOnly<'a, T>(&'a T);

impl<T: Serialize> Serialize for SerdeOnly<'_, T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(s)
    }
}

impl<T: ParquetSchema> ParquetSchema for SerdeOnly<'_, T> {
    const PARQUET_MESSAGE_NAME: &'static str = T::PARQUET_MESSAGE_NAME;

    fn parquet_node(name: &str, attrs: &FieldAttrs) -> SchemaNode {
        T::parquet_node(name, attrs)
    }

    fn parquet_collect_column_options(path: &mut Vec<String>, out: &mut Vec<ColumnOptions>) {
        T::parquet_collect_column_options(path, out)
    }
}

fn bench_direct_vs_serde(c: &mut Criterion) {
    let nested = nested_rows(ROWS);
    let wrapped: Vec<_> = nested.iter().map(SerdeOnly).collect();
    let mut g = c.benchmark_group("direct_vs_serde");
    g.sample_size(10);
    g.throughput(Throughput::Elements(ROWS as u64));
    for (name, codec) in [
        ("uncompressed", Compression::Uncompressed),
        ("snappy", Compression::Snappy),
    ] {
        let options = WriterOptions::default().compression(codec).threads(1);
        g.bench_function(BenchmarkId::new("nested_direct", name), |b| {
            b.iter(|| {
                black_box(
                    parquet_serde::to_vec_with(black_box(&nested), options.clone())
                        .unwrap()
                        .len(),
                )
            })
        });
        g.bench_function(BenchmarkId::new("nested_serde", name), |b| {
            b.iter(|| {
                black_box(
                    parquet_serde::to_vec_with(black_box(&wrapped), options.clone())
                        .unwrap()
                        .len(),
                )
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench_to_vec, bench_direct_vs_serde);
criterion_main!(benches);
