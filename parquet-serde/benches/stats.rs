//! Bloom filter insert and check, and the cost of statistics, the page index and Bloom
//! filters on writing a log workload.
//!
//! `cargo bench -p parquet-serde --bench stats -- --warm-up-time 1 --measurement-time 3`

use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use parquet_serde::__internals::bloom::{hash, BloomFilterBuilder};
use parquet_serde::core::bloom::{BloomFilterOptions, Sbbf};
use parquet_serde::core::column::ColumnBatch;
use parquet_serde::core::file::{FileWriter, StatisticsLevel, WriterOptions};
use parquet_serde::core::values::{ByteArrays, ColumnValues};

const N: usize = 1 << 20;

fn mix(x: u64) -> u64 {
    let x = (x ^ (x >> 33)).wrapping_mul(0xff51_afd7_ed55_8ccd);
    let x = (x ^ (x >> 33)).wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    x ^ (x >> 33)
}

fn bench_bloom(c: &mut Criterion) {
    let mut g = c.benchmark_group("bloom");
    g.throughput(Throughput::Elements(N as u64));
    let hashes: Vec<u64> = (0..N as u64).map(mix).collect();
    g.bench_function("insert_hash", |b| {
        b.iter(|| {
            let mut f = Sbbf::with_ndv_fpp(N as u64, 0.01);
            for &h in &hashes {
                f.insert_hash(h);
            }
            black_box(f.num_bytes())
        })
    });
    let mut f = Sbbf::with_ndv_fpp(N as u64, 0.01);
    for &h in &hashes[..N / 2] {
        f.insert_hash(h);
    }
    g.bench_function("check_hash", |b| {
        b.iter(|| hashes.iter().filter(|&&h| f.check_hash(h)).count())
    });
    let ids: Vec<String> = (0..N as u64).map(|i| format!("{:016x}", mix(i))).collect();
    g.bench_function("xxhash64_16_bytes", |b| {
        b.iter(|| {
            ids.iter()
                .map(|s| hash::hash_bytes(s.as_bytes()))
                .fold(0, u64::wrapping_add)
        })
    });
    let mut values = ByteArrays::new();
    for s in &ids {
        values.push(s.as_bytes());
    }
    let values = ColumnValues::ByteArray(values);
    g.bench_function("builder_strings_counted_ndv", |b| {
        b.iter(|| {
            let mut builder = BloomFilterBuilder::new(BloomFilterOptions::default());
            builder.insert_values(&values, 0..N);
            black_box(builder.finish().num_bytes())
        })
    });
    g.bench_function("builder_strings_given_ndv", |b| {
        b.iter(|| {
            let mut builder = BloomFilterBuilder::new(BloomFilterOptions::new(N as u64, 0.01));
            builder.insert_values(&values, 0..N);
            black_box(builder.finish().num_bytes())
        })
    });
    g.finish();
}

const SCHEMA: &str = "message log {
  required int64 ts (TIMESTAMP(MICROS,true));
  required binary level (STRING);
  required binary request_id (STRING);
  required int32 latency_ms;
  required binary message (STRING);
}";

const ROWS: usize = 200_000;

fn log_batches() -> Vec<ColumnBatch> {
    let strings = |f: &dyn Fn(u64) -> String| {
        let mut b = ByteArrays::new();
        for i in 0..ROWS as u64 {
            b.push(f(i).as_bytes());
        }
        ColumnValues::ByteArray(b)
    };
    let required = |values| ColumnBatch {
        values,
        def_levels: vec![],
        rep_levels: vec![],
    };
    vec![
        required(ColumnValues::Int64(
            (0..ROWS as i64)
                .map(|i| 1_704_067_200_000_000 + i * 8_640)
                .collect(),
        )),
        required(strings(&|i| {
            ["INFO", "DEBUG", "WARN", "ERROR"][(mix(i) % 4) as usize].into()
        })),
        required(strings(&|i| format!("{:016x}", mix(i / 4)))),
        required(ColumnValues::Int32(
            (0..ROWS as u64).map(|i| (mix(i) % 2000) as i32).collect(),
        )),
        required(strings(&|i| {
            format!(
                "GET /api/v1/users/{} returned in {}ms",
                mix(i) % 100_000,
                mix(i ^ 7) % 2000
            )
        })),
    ]
}

fn write(batches: &[ColumnBatch], options: WriterOptions) -> usize {
    let schema = SCHEMA.parse().unwrap();
    let mut w = FileWriter::new(Vec::new(), schema, options).unwrap();
    let mut chunks = Vec::new();
    for (c, b) in batches.iter().enumerate() {
        let mut cw = w.column_writer(c).unwrap();
        cw.write(b).unwrap();
        chunks.push(cw.close().unwrap());
    }
    w.write_row_group(chunks).unwrap();
    w.close().unwrap().0.len()
}

fn bench_log_write(c: &mut Criterion) {
    let batches = log_batches();
    let base = WriterOptions::default()
        .column_dictionary("ts", false)
        .column_dictionary("request_id", false)
        .column_dictionary("message", false);
    let configs = [
        (
            "no_statistics",
            base.clone()
                .statistics(StatisticsLevel::None)
                .page_index(false)
                .size_statistics(false),
        ),
        (
            "chunk_statistics",
            base.clone()
                .statistics(StatisticsLevel::Chunk)
                .page_index(false),
        ),
        ("page_statistics_and_index", base.clone()),
        (
            "page_index_and_bloom_request_id",
            base.clone()
                .bloom_filter("request_id", BloomFilterOptions::default()),
        ),
        (
            "page_index_and_bloom_every_string",
            base.clone()
                .bloom_filter("request_id", BloomFilterOptions::default())
                .bloom_filter("level", BloomFilterOptions::default())
                .bloom_filter("message", BloomFilterOptions::default()),
        ),
    ];
    let mut g = c.benchmark_group("log_write");
    g.throughput(Throughput::Elements(ROWS as u64));
    g.sample_size(10);
    for (name, options) in configs {
        println!("{name}: {} bytes", write(&batches, options.clone()));
        g.bench_with_input(BenchmarkId::from_parameter(name), &options, |b, o| {
            b.iter(|| write(&batches, o.clone()))
        });
    }
    g.finish();
}

criterion_group!(benches, bench_bloom, bench_log_write);
criterion_main!(benches);
