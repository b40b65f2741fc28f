//! Compression and decompression speed of each codec on ~1 MiB pages.
//!
//! `cargo bench -p parquet-serde --bench compression -- --warm-up-time 1 --measurement-time 2`

use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use parquet_serde::__internals::compression::{compress_reusing, decompress, decompress_reusing};
use parquet_serde::Compression;

const PAGE: usize = 1 << 20;

/// Log lines with timestamps, levels, paths, ids and latencies.
fn log_page() -> Vec<u8> {
    let levels = ["INFO", "INFO", "INFO", "DEBUG", "WARN", "ERROR"];
    let paths = [
        "/api/v1/users",
        "/api/v1/orders",
        "/health",
        "/static/app.js",
        "/login",
    ];
    let mut x = 0x2545_F491_4F6C_DD1Du64;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let mut out = Vec::with_capacity(PAGE + 200);
    let mut t = 1_714_560_000u64;
    while out.len() < PAGE {
        t += next() % 3;
        let r = next();
        let line = format!(
            "{t} {} [{}] {} GET {} status={} user={} latency_ms={}\n",
            format_args!(
                "2024-05-01T{:02}:{:02}:{:02}Z",
                t / 3600 % 24,
                t / 60 % 60,
                t % 60
            ),
            levels[(r % 6) as usize],
            format_args!("req-{:016x}", next()),
            paths[(r >> 8) as usize % 5],
            [200, 200, 200, 304, 404, 500][(r >> 16) as usize % 6],
            r >> 20 & 0xFFFF,
            r >> 40 & 0x3FF,
        );
        out.extend_from_slice(line.as_bytes());
    }
    out.truncate(PAGE);
    out
}

/// PLAIN-encoded sorted i64s (timestamps with small random gaps).
fn sorted_i64_page() -> Vec<u8> {
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    let mut v = 1_700_000_000_000i64;
    let mut out = Vec::with_capacity(PAGE);
    while out.len() < PAGE {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        v += (x % 1000) as i64;
        out.extend_from_slice(&v.to_le_bytes());
    }
    out
}

fn bench_codecs(c: &mut Criterion) {
    let pages = [("logs", log_page()), ("sorted_i64", sorted_i64_page())];
    let codecs = [
        ("snappy", Compression::Snappy),
        ("gzip6", Compression::Gzip(6)),
        ("brotli1", Compression::Brotli(1)),
        ("zstd1", Compression::Zstd(1)),
        ("zstd3", Compression::Zstd(3)),
        ("lz4_raw", Compression::Lz4Raw),
    ];
    for (page_name, page) in &pages {
        let mut g = c.benchmark_group(format!("compression/{page_name}"));
        g.throughput(Throughput::Bytes(page.len() as u64));
        for (name, codec) in codecs {
            let mut compressed = Vec::new();
            codec.compress(page, &mut compressed).unwrap();
            eprintln!(
                "{page_name} {name}: {} -> {} bytes (ratio {:.2})",
                page.len(),
                compressed.len(),
                page.len() as f64 / compressed.len() as f64
            );
            let mut out = Vec::with_capacity(compressed.len().max(page.len()) * 2);
            g.bench_function(BenchmarkId::new("compress", name), |b| {
                b.iter(|| {
                    out.clear();
                    codec.compress(black_box(page), &mut out).unwrap();
                    black_box(out.len())
                })
            });
            g.bench_function(BenchmarkId::new("decompress", name), |b| {
                b.iter(|| {
                    out.clear();
                    decompress(codec, black_box(&compressed), page.len(), &mut out).unwrap();
                    black_box(out.len())
                })
            });
            // One buffer kept between pages, as the page writer and reader keep theirs.
            let mut kept = Vec::new();
            g.bench_function(BenchmarkId::new("compress_reusing", name), |b| {
                b.iter(|| compress_reusing(codec, black_box(page), &mut kept, 0).unwrap())
            });
            g.bench_function(BenchmarkId::new("decompress_reusing", name), |b| {
                b.iter(|| {
                    decompress_reusing(codec, black_box(&compressed), page.len(), &mut kept)
                        .unwrap();
                    black_box(kept.len())
                })
            });
        }
        g.finish();
    }
}

criterion_group!(benches, bench_codecs);
criterion_main!(benches);
