//! Throughput of typed writing: `to_vec` of log records (the compare-arrow workloads: a flat
//! record and a nested event) on one thread and on two, and the shredding alone.
//!
//! `cargo bench -p parquet-serde --bench typed_write -- --warm-up-time 1 --measurement-time 3`

use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use parquet_serde::{Compression, WriterOptions};

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

criterion_group!(benches, bench_to_vec);
criterion_main!(benches);
