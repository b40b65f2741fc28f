//! Throughput of typed writing: `to_vec` of log records (the compare-arrow workloads: a flat
//! record and a nested event) on one thread and on two, and the shredding alone.
//!
//! `cargo bench -p parquet-serde --bench typed_write -- --warm-up-time 1 --measurement-time 3`

use std::collections::BTreeMap;

use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use parquet_serde::{Compression, ParquetSchema, WriterOptions};
use serde::Serialize;

const ROWS: usize = 100_000;

/// A small deterministic generator (xorshift), so runs compare.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

const LEVELS: [&str; 5] = ["TRACE", "DEBUG", "INFO", "WARN", "ERROR"];
const WORDS: [&str; 8] = [
    "request", "handled", "user", "cache", "miss", "db", "timeout", "ok",
];

fn message(r: &mut Rng) -> String {
    let n = 3 + r.below(10) as usize;
    let mut s = String::with_capacity(80);
    for k in 0..n {
        if k > 0 {
            s.push(' ');
        }
        s.push_str(WORDS[r.below(8) as usize]);
        if r.below(4) == 0 {
            s.push('=');
            s.push_str(&r.below(100_000).to_string());
        }
    }
    s
}

#[derive(Serialize, ParquetSchema)]
struct LogFlat {
    ts_micros: i64,
    level: String,
    target: String,
    message: String,
    latency_ms: f64,
    status: i32,
    user_id: Option<i64>,
    request_id: String,
}

fn flat_rows(n: usize) -> Vec<LogFlat> {
    let mut r = Rng(0x9E37_79B9_7F4A_7C15);
    let mut ts = 1_700_000_000_000_000i64;
    (0..n)
        .map(|_| {
            ts += r.below(1000) as i64;
            LogFlat {
                ts_micros: ts,
                level: LEVELS[r.below(5) as usize].to_string(),
                target: format!("app::module{}::sub{}", r.below(10), r.below(5)),
                message: message(&mut r),
                latency_ms: r.below(1_000_000) as f64 / 1000.0,
                status: [200, 200, 201, 404, 500][r.below(5) as usize],
                user_id: (r.below(10) >= 3).then(|| r.below(100_000) as i64),
                request_id: format!("{:016x}", r.next()),
            }
        })
        .collect()
}

#[derive(Serialize, ParquetSchema)]
struct Http {
    method: String,
    path: String,
    status: u16,
    latency_ms: f64,
}

#[derive(Serialize, ParquetSchema)]
struct Span {
    name: String,
    dur_us: i64,
}

#[derive(Serialize, ParquetSchema)]
struct Event {
    ts_micros: i64,
    level: String,
    message: String,
    tags: Vec<String>,
    attrs: BTreeMap<String, String>,
    http: Option<Http>,
    spans: Vec<Span>,
}

fn nested_rows(n: usize) -> Vec<Event> {
    let mut r = Rng(0x2545_F491_4F6C_DD1D);
    let mut ts = 1_700_000_000_000_000i64;
    (0..n)
        .map(|_| {
            ts += r.below(1000) as i64;
            let (ntags, nattrs, nspans) = (r.below(5), r.below(4), r.below(4));
            Event {
                ts_micros: ts,
                level: LEVELS[r.below(5) as usize].to_string(),
                message: message(&mut r),
                tags: (0..ntags).map(|_| format!("tag{}", r.below(20))).collect(),
                attrs: (0..nattrs)
                    .map(|k| {
                        (
                            format!("key{}", k * 3 + r.below(3)),
                            format!("v{}", r.below(1000)),
                        )
                    })
                    .collect(),
                http: (r.below(3) != 0).then(|| Http {
                    method: ["GET", "POST", "PUT", "DELETE"][r.below(4) as usize].to_string(),
                    path: format!("/api/v1/items/{}", r.below(10_000)),
                    status: [200, 201, 404, 500][r.below(4) as usize],
                    latency_ms: r.below(100_000) as f64 / 100.0,
                }),
                spans: (0..nspans)
                    .map(|_| Span {
                        name: format!("span{}", r.below(30)),
                        dur_us: r.below(1_000_000) as i64,
                    })
                    .collect(),
            }
        })
        .collect()
}

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
                    parquet_serde::to_vec_with(black_box(&flat), &options)
                        .unwrap()
                        .len(),
                )
            })
        });
        g.bench_function(BenchmarkId::new("nested_to_vec", name), |b| {
            b.iter(|| {
                black_box(
                    parquet_serde::to_vec_with(black_box(&nested), &options)
                        .unwrap()
                        .len(),
                )
            })
        });
    }
    g.bench_function("flat_shred_only", |b| {
        b.iter(|| black_box(parquet_serde::ser::shred(black_box(&flat)).unwrap().1.len()))
    });
    g.bench_function("nested_shred_only", |b| {
        b.iter(|| {
            black_box(
                parquet_serde::ser::shred(black_box(&nested))
                    .unwrap()
                    .1
                    .len(),
            )
        })
    });
    g.finish();
}

criterion_group!(benches, bench_to_vec);
criterion_main!(benches);
