//! Encode and decode throughput of every value encoding beyond PLAIN and the RLE hybrid:
//! DELTA_BINARY_PACKED, DELTA_LENGTH_BYTE_ARRAY, DELTA_BYTE_ARRAY, BYTE_STREAM_SPLIT, RLE
//! booleans and ALP (a memory copy of the same bytes is measured next to BYTE_STREAM_SPLIT),
//! and the log workload: file size and write time of `Auto` against fixed choices.
//!
//! `cargo bench -p parquet-serde --bench encodings -- --warm-up-time 1 --measurement-time 3`
//! (`LOG_WORKLOAD_DIR=dir` keeps the log files written, for `parquet-serde meta`).
//!
//! Figures on one core of a shared 2-vCPU AMD EPYC (Zen 4) VM, baseline x86-64 target (no
//! `target-cpu=native`); quiet machine first, the same under load from other jobs second:
//!
//! | benchmark | quiet | loaded |
//! |---|---|---|
//! | DELTA_BINARY_PACKED decode, sorted timestamps, page of 64Ki | 1.47 Gvalues/s | 1.03 |
//! | same, 1Mi values (8 MiB out, memory bound) | 1.18 to 1.34 Gvalues/s | 0.98 |
//! | DELTA_BINARY_PACKED decode, random 64-bit | 1.20 Gvalues/s | 0.81 |
//! | DELTA_BINARY_PACKED encode, sorted timestamps | 0.40 Gvalues/s | 0.25 |
//! | BYTE_STREAM_SPLIT decode f32, 4 MiB (memcpy of the same: 28 GiB/s) | 11.7 GiB/s | 8.9 GB/s (memcpy 35) |
//! | BYTE_STREAM_SPLIT decode f64, 8 MiB (memcpy: 16.5 GiB/s) | 4.2 GiB/s | 4.2 GB/s (memcpy 21) |
//! | BYTE_STREAM_SPLIT decode FLOAT16, 2 MiB | 14.8 GiB/s | 19.8 GB/s |
//! | BYTE_STREAM_SPLIT encode f32 / f64 | 5.8 / 3.8 GiB/s | 8.1 / 3.1 GB/s |
//! | DELTA_LENGTH_BYTE_ARRAY decode / encode, URLs | | 194 / 145 Mvalues/s |
//! | DELTA_BYTE_ARRAY decode / encode, URLs | | 65 / 35 Mvalues/s |
//! | RLE booleans decode / encode, random | | 4.2 / 0.33 Gvalues/s |
//! | ALP decode / encode, prices with 2 decimals (20.1 bits a value) | | 0.83 / 0.08 Gvalues/s |
//!
//! Log workload (200,000 rows, 11 columns, one row group; CPU time of a write to memory):
//!
//! | codec | encodings | bytes | write |
//! |---|---|---|---|
//! | none | dictionary + PLAIN fallback (default) | 17,415,087 | 101 ms |
//! | none | PLAIN | 31,621,508 | 60 ms |
//! | none | fixed delta / BYTE_STREAM_SPLIT, no dictionary | 21,213,557 | 41 ms |
//! | none | Auto | 12,776,795 | 62 ms |
//! | Snappy | default | 9,607,389 | 84 ms |
//! | Snappy | PLAIN | 11,575,964 | 70 ms |
//! | Snappy | fixed delta / BYTE_STREAM_SPLIT | 10,844,220 | 76 ms |
//! | Snappy | Auto | 7,765,732 | 83 ms |
//! | Zstd(3) | default | 7,720,188 | 144 ms |
//! | Zstd(3) | PLAIN | 8,086,449 | 144 ms |
//! | Zstd(3) | fixed delta / BYTE_STREAM_SPLIT | 8,921,899 | 131 ms |
//! | Zstd(3) | Auto | 6,702,003 | 95 ms |

use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use parquet_serde::__internals::encoding::{
    alp, byte_stream_split, delta_binary_packed, delta_byte_array, delta_length_byte_array,
    rle_boolean,
};
use parquet_serde::core::column::{ColumnBatch, Encoding};
use parquet_serde::core::file::{FileWriter, WriterOptions};
use parquet_serde::core::values::{ByteArrays, ColumnValues, FixedLenByteArrays};
use parquet_serde::Compression;

const N: usize = 1 << 20;
const PAGE: usize = 1 << 16;

/// A small deterministic generator (xorshift), so runs compare.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// Microsecond timestamps of events about a millisecond apart, with jitter.
fn timestamps(rng: &mut Rng) -> Vec<i64> {
    let mut t = 1_700_000_000_000_000i64;
    (0..N)
        .map(|_| {
            t += 500 + (rng.next() % 1000) as i64;
            t
        })
        .collect()
}

fn bench_delta_binary_packed(c: &mut Criterion) {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut g = c.benchmark_group("delta_binary_packed");
    g.throughput(Throughput::Elements(N as u64));
    let ts = timestamps(&mut rng);
    let ids: Vec<i64> = (0..N as i64).map(|i| 1_000_000 + i).collect();
    let random: Vec<i64> = (0..N).map(|_| rng.next() as i64).collect();
    let small: Vec<i32> = (0..N).map(|_| (rng.next() % 1000) as i32).collect();
    // One page of 64Ki values (512 KiB decoded: stays in cache, as a reader decoding a page
    // at a time sees it).
    let page_values = &ts[..PAGE];
    let mut page = Vec::new();
    delta_binary_packed::encode(page_values, &mut page);
    let mut out: Vec<i64> = Vec::with_capacity(PAGE);
    g.throughput(Throughput::Elements(PAGE as u64));
    g.bench_function(
        BenchmarkId::new("decode_page", "sorted_timestamps_i64"),
        |b| {
            b.iter(|| {
                out.clear();
                delta_binary_packed::decode(black_box(&page), PAGE, &mut out).unwrap();
                black_box(out.len())
            })
        },
    );
    g.throughput(Throughput::Elements(N as u64));
    for (name, values) in [
        ("sorted_timestamps_i64", &ts),
        ("sequential_ids_i64", &ids),
        ("random_i64", &random),
    ] {
        let mut page = Vec::new();
        delta_binary_packed::encode(values, &mut page);
        let mut out: Vec<i64> = Vec::with_capacity(N);
        g.bench_function(BenchmarkId::new("decode", name), |b| {
            b.iter(|| {
                out.clear();
                delta_binary_packed::decode(black_box(&page), N, &mut out).unwrap();
                black_box(out.len())
            })
        });
        let mut enc = Vec::with_capacity(page.len());
        g.bench_function(BenchmarkId::new("encode", name), |b| {
            b.iter(|| {
                enc.clear();
                delta_binary_packed::encode(black_box(values), &mut enc);
                black_box(enc.len())
            })
        });
    }
    let mut page = Vec::new();
    delta_binary_packed::encode(&small, &mut page);
    let mut out: Vec<i32> = Vec::with_capacity(N);
    g.bench_function(BenchmarkId::new("decode", "small_random_i32"), |b| {
        b.iter(|| {
            out.clear();
            delta_binary_packed::decode(black_box(&page), N, &mut out).unwrap();
            black_box(out.len())
        })
    });
    let mut enc = Vec::new();
    g.bench_function(BenchmarkId::new("encode", "small_random_i32"), |b| {
        b.iter(|| {
            enc.clear();
            delta_binary_packed::encode(black_box(&small), &mut enc);
            black_box(enc.len())
        })
    });
    g.finish();
}

/// Log-like strings: URLs sharing long prefixes.
fn urls(rng: &mut Rng, n: usize) -> ByteArrays {
    let mut v = ByteArrays::new();
    let mut ids: Vec<u64> = (0..n).map(|_| rng.next() % 100_000).collect();
    ids.sort_unstable();
    for id in ids {
        let path = ["users", "orders", "items"][(id % 3) as usize];
        v.push(format!("https://api.example.com/v2/{path}/{id}/details").as_bytes());
    }
    v
}

fn bench_byte_arrays(c: &mut Criterion) {
    let mut rng = Rng(42);
    let n = N / 8;
    let values = urls(&mut rng, n);
    let mut g = c.benchmark_group("byte_arrays");
    g.throughput(Throughput::Elements(n as u64));
    let mut dlba = Vec::new();
    delta_length_byte_array::encode(&values, &mut dlba).unwrap();
    let mut dba = Vec::new();
    delta_byte_array::encode(&values, &mut dba).unwrap();
    let mut out = ByteArrays::with_capacity(n, values.data().len());
    g.bench_function("delta_length_byte_array/decode", |b| {
        b.iter(|| {
            out.clear();
            delta_length_byte_array::decode(black_box(&dlba), n, &mut out).unwrap();
            black_box(out.len())
        })
    });
    g.bench_function("delta_byte_array/decode", |b| {
        b.iter(|| {
            out.clear();
            delta_byte_array::decode(black_box(&dba), n, &mut out).unwrap();
            black_box(out.len())
        })
    });
    let mut enc = Vec::new();
    g.bench_function("delta_length_byte_array/encode", |b| {
        b.iter(|| {
            enc.clear();
            delta_length_byte_array::encode(black_box(&values), &mut enc).unwrap();
            black_box(enc.len())
        })
    });
    g.bench_function("delta_byte_array/encode", |b| {
        b.iter(|| {
            enc.clear();
            delta_byte_array::encode(black_box(&values), &mut enc).unwrap();
            black_box(enc.len())
        })
    });
    g.finish();
}

fn bench_byte_stream_split(c: &mut Criterion) {
    let mut rng = Rng(7);
    let mut g = c.benchmark_group("byte_stream_split");
    let f32s: Vec<f32> = (0..N)
        .map(|_| (rng.next() % 100_000) as f32 / 7.0)
        .collect();
    let f64s: Vec<f64> = (0..N)
        .map(|_| (rng.next() % 100_000) as f64 / 7.0)
        .collect();
    g.throughput(Throughput::Bytes((N * 4) as u64));
    let mut page = Vec::new();
    byte_stream_split::encode_values(&f32s, &mut page);
    let mut out32: Vec<f32> = Vec::with_capacity(N);
    g.bench_function("decode/f32", |b| {
        b.iter(|| {
            out32.clear();
            byte_stream_split::decode_values(black_box(&page), N, &mut out32).unwrap();
            black_box(out32.len())
        })
    });
    let mut enc = Vec::new();
    g.bench_function("encode/f32", |b| {
        b.iter(|| {
            enc.clear();
            byte_stream_split::encode_values(black_box(&f32s), &mut enc);
            black_box(enc.len())
        })
    });
    let mut copy: Vec<u8> = Vec::with_capacity(N * 8);
    g.bench_function("memcpy/f32", |b| {
        b.iter(|| {
            copy.clear();
            copy.extend_from_slice(black_box(&page));
            black_box(copy.len())
        })
    });
    g.throughput(Throughput::Bytes((N * 8) as u64));
    let mut page = Vec::new();
    byte_stream_split::encode_values(&f64s, &mut page);
    let mut out64: Vec<f64> = Vec::with_capacity(N);
    g.bench_function("decode/f64", |b| {
        b.iter(|| {
            out64.clear();
            byte_stream_split::decode_values(black_box(&page), N, &mut out64).unwrap();
            black_box(out64.len())
        })
    });
    g.bench_function("encode/f64", |b| {
        b.iter(|| {
            enc.clear();
            byte_stream_split::encode_values(black_box(&f64s), &mut enc);
            black_box(enc.len())
        })
    });
    g.bench_function("memcpy/f64", |b| {
        b.iter(|| {
            copy.clear();
            copy.extend_from_slice(black_box(&page));
            black_box(copy.len())
        })
    });
    // FLOAT16 (FIXED_LEN_BYTE_ARRAY(2)).
    g.throughput(Throughput::Bytes((N * 2) as u64));
    let halves: Vec<u8> = (0..N * 2).map(|_| rng.next() as u8).collect();
    let mut page = Vec::new();
    byte_stream_split::encode(&halves, 2, &mut page);
    let mut out = Vec::with_capacity(N * 2);
    g.bench_function("decode/flba2", |b| {
        b.iter(|| {
            out.clear();
            byte_stream_split::decode(black_box(&page), N, 2, &mut out).unwrap();
            black_box(out.len())
        })
    });
    g.finish();
}

fn bench_rle_boolean(c: &mut Criterion) {
    let mut rng = Rng(3);
    let mut g = c.benchmark_group("rle_boolean");
    g.throughput(Throughput::Elements(N as u64));
    let random: Vec<bool> = (0..N).map(|_| rng.next().is_multiple_of(2)).collect();
    let mut runs = Vec::with_capacity(N);
    while runs.len() < N {
        let len = 1 + (rng.next() % 200) as usize;
        let v = rng.next().is_multiple_of(2);
        runs.resize((runs.len() + len).min(N), v);
    }
    for (name, values) in [("random", &random), ("runs", &runs)] {
        let mut page = Vec::new();
        rle_boolean::encode(values, &mut page);
        let mut out = Vec::with_capacity(N);
        g.bench_function(BenchmarkId::new("decode", name), |b| {
            b.iter(|| {
                out.clear();
                rle_boolean::decode(black_box(&page), N, &mut out).unwrap();
                black_box(out.len())
            })
        });
        let mut enc = Vec::new();
        g.bench_function(BenchmarkId::new("encode", name), |b| {
            b.iter(|| {
                enc.clear();
                rle_boolean::encode(black_box(values), &mut enc);
                black_box(enc.len())
            })
        });
    }
    g.finish();
}

fn bench_alp(c: &mut Criterion) {
    let mut rng = Rng(11);
    let mut g = c.benchmark_group("alp");
    g.throughput(Throughput::Elements(N as u64));
    // Prices with two decimals.
    let prices: Vec<f64> = (0..N)
        .map(|_| (rng.next() % 1_000_000) as f64 / 100.0)
        .collect();
    let mut page = Vec::new();
    alp::encode(&prices, &mut page);
    let mut out: Vec<f64> = Vec::with_capacity(N);
    g.bench_function("decode/f64_prices", |b| {
        b.iter(|| {
            out.clear();
            alp::decode(black_box(&page), N, &mut out).unwrap();
            black_box(out.len())
        })
    });
    let mut enc = Vec::new();
    g.bench_function("encode/f64_prices", |b| {
        b.iter(|| {
            enc.clear();
            alp::encode(black_box(&prices), &mut enc);
            black_box(enc.len())
        })
    });
    g.finish();
}

const LOG_SCHEMA: &str = "message log {
  required int64 ts (TIMESTAMP(MICROS,true));
  required binary level (STRING);
  required binary service (STRING);
  required binary host (STRING);
  required binary path (STRING);
  required int32 status;
  required int64 bytes;
  required double latency_ms;
  optional binary user_id (STRING);
  required fixed_len_byte_array(16) trace_id;
  required binary message (STRING);
}";

const LOG_ROWS: usize = 200_000;

/// Web-service log records: sorted timestamps, a few levels and services, hosts, URL paths
/// with ids, status codes, sizes, latencies with three decimals, optional user ids, random
/// trace ids, and messages made from templates.
fn log_batches() -> Vec<ColumnBatch> {
    let mut rng = Rng(2024);
    let n = LOG_ROWS;
    let flat = |values| ColumnBatch {
        values,
        def_levels: vec![],
        rep_levels: vec![],
    };
    let strings = |f: &mut dyn FnMut(usize) -> String| {
        let mut b = ByteArrays::new();
        for i in 0..n {
            b.push(f(i).as_bytes());
        }
        ColumnValues::ByteArray(b)
    };
    let mut t = 1_700_000_000_000_000i64;
    let ts: Vec<i64> = (0..n)
        .map(|_| {
            t += (rng.next() % 2000) as i64;
            t
        })
        .collect();
    let mut r = Rng(7);
    let level = strings(&mut |_| {
        [
            "INFO", "INFO", "INFO", "INFO", "DEBUG", "DEBUG", "WARN", "ERROR",
        ][(r.next() % 8) as usize]
            .to_string()
    });
    let mut r = Rng(8);
    let service = strings(&mut |_| format!("svc-{}", r.next() % 30));
    let mut r = Rng(9);
    let host = strings(&mut |_| {
        let h = r.next() % 200;
        format!("ip-10-0-{}-{}.ec2.internal", h / 16, h % 16)
    });
    let mut r = Rng(10);
    let path = strings(&mut |_| {
        let id = r.next() % 100_000;
        ["/api/v2/users/", "/api/v2/orders/", "/static/img/"][(id % 3) as usize].to_string()
            + &id.to_string()
    });
    let mut r = Rng(11);
    let status: Vec<i32> = (0..n)
        .map(|_| [200, 200, 200, 200, 200, 201, 204, 304, 404, 500][(r.next() % 10) as usize])
        .collect();
    let bytes: Vec<i64> = (0..n).map(|_| (r.next() % 1_000_000) as i64).collect();
    let latency: Vec<f64> = (0..n)
        .map(|_| ((r.next() % 1000) * (r.next() % 1000) / 100) as f64 / 1000.0)
        .collect();
    let mut users = ByteArrays::new();
    let user_def: Vec<i16> = (0..n)
        .map(|_| {
            let u = r.next() % 14_000;
            if u < 4000 {
                0
            } else {
                users.push(format!("user-{u}").as_bytes());
                1
            }
        })
        .collect();
    let mut trace = FixedLenByteArrays::new(16);
    for _ in 0..n {
        let (a, b) = (r.next(), r.next());
        let mut v = [0u8; 16];
        v[..8].copy_from_slice(&a.to_le_bytes());
        v[8..].copy_from_slice(&b.to_le_bytes());
        trace.push(&v);
    }
    let mut r = Rng(12);
    let message = strings(&mut |i| match r.next() % 4 {
        0 => format!("request {i} served in {} ms", r.next() % 500),
        1 => format!("cache miss for key user:{}:profile", r.next() % 10_000),
        2 => "health check ok".to_string(),
        _ => format!(
            "retrying upstream call to svc-{} (attempt {})",
            r.next() % 30,
            r.next() % 3
        ),
    });
    vec![
        flat(ColumnValues::Int64(ts)),
        flat(level),
        flat(service),
        flat(host),
        flat(path),
        flat(ColumnValues::Int32(status)),
        flat(ColumnValues::Int64(bytes)),
        flat(ColumnValues::Double(latency)),
        ColumnBatch {
            values: ColumnValues::ByteArray(users),
            def_levels: user_def,
            rep_levels: vec![],
        },
        flat(ColumnValues::FixedLenByteArray(trace)),
        flat(message),
    ]
}

fn write_log(batches: &[ColumnBatch], options: WriterOptions) -> Vec<u8> {
    let schema = LOG_SCHEMA.parse().unwrap();
    let mut writer = FileWriter::new(Vec::new(), schema, options).unwrap();
    let mut chunks = Vec::new();
    for (c, b) in batches.iter().enumerate() {
        let mut w = writer.column_writer(c).unwrap();
        w.write(b).unwrap();
        chunks.push(w.close().unwrap());
    }
    writer.write_row_group(chunks).unwrap();
    writer.close().unwrap().0
}

/// The fixed encodings compared with `Auto`: (name, options for a codec).
fn log_choices(codec: Compression) -> Vec<(&'static str, WriterOptions)> {
    let base = WriterOptions::default().compression(codec);
    let delta = |o: WriterOptions| {
        o.column_encoding("ts", Encoding::DeltaBinaryPacked)
            .column_encoding("status", Encoding::DeltaBinaryPacked)
            .column_encoding("bytes", Encoding::DeltaBinaryPacked)
            .column_encoding("latency_ms", Encoding::ByteStreamSplit)
            .column_encoding("trace_id", Encoding::Plain)
            .column_encoding("level", Encoding::DeltaLengthByteArray)
            .column_encoding("service", Encoding::DeltaLengthByteArray)
            .column_encoding("host", Encoding::DeltaByteArray)
            .column_encoding("path", Encoding::DeltaByteArray)
            .column_encoding("user_id", Encoding::DeltaByteArray)
            .column_encoding("message", Encoding::DeltaLengthByteArray)
    };
    vec![
        ("dictionary+plain (default)", base.clone()),
        ("plain", base.clone().dictionary(false)),
        ("delta/bss, no dictionary", delta(base.clone())),
        ("auto", base.auto_encoding(true)),
    ]
}

/// File size and write time of the log workload with each choice: `Auto` against fixed
/// encodings, uncompressed, Snappy and Zstd. Sizes are printed once.
fn bench_log_workload(c: &mut Criterion) {
    let batches = log_batches();
    let mut g = c.benchmark_group("log_workload");
    g.throughput(Throughput::Elements(LOG_ROWS as u64));
    g.sample_size(10);
    for (codec_name, codec) in [
        ("uncompressed", Compression::Uncompressed),
        ("snappy", Compression::Snappy),
        ("zstd3", Compression::Zstd(3)),
    ] {
        for (name, options) in log_choices(codec) {
            let bytes = write_log(&batches, options.clone());
            let size = bytes.len();
            if let Some(dir) = std::env::var_os("LOG_WORKLOAD_DIR") {
                let file = format!(
                    "{codec_name}-{}.parquet",
                    name.replace(['/', ' ', ',', '(', ')', '+'], "_")
                );
                std::fs::write(std::path::Path::new(&dir).join(file), &bytes).unwrap();
            }
            eprintln!("log_workload {codec_name:12} {name:28} {size:>10} bytes");
            g.bench_function(BenchmarkId::new(codec_name, name), |b| {
                b.iter(|| black_box(write_log(&batches, options.clone()).len()))
            });
        }
    }
    g.finish();
}

criterion_group!(
    benches,
    bench_delta_binary_packed,
    bench_byte_arrays,
    bench_byte_stream_split,
    bench_rle_boolean,
    bench_alp,
    bench_log_workload
);
criterion_main!(benches);
