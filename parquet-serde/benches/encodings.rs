//! Encode and decode throughput of every value encoding beyond PLAIN and the RLE hybrid:
//! DELTA_BINARY_PACKED, DELTA_LENGTH_BYTE_ARRAY, DELTA_BYTE_ARRAY, BYTE_STREAM_SPLIT, RLE
//! booleans and ALP. A memory copy of the same bytes is measured next to BYTE_STREAM_SPLIT.
//!
//! `cargo bench -p parquet-serde --bench encodings -- --warm-up-time 1 --measurement-time 3`

use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use parquet_serde::encoding::{
    alp, byte_stream_split, delta_binary_packed, delta_byte_array, delta_length_byte_array,
    rle_boolean,
};
use parquet_serde::values::ByteArrays;

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
    let mut out = ByteArrays::with_capacity(n, values.data.len());
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
    let random: Vec<bool> = (0..N).map(|_| rng.next() % 2 == 0).collect();
    let mut runs = Vec::with_capacity(N);
    while runs.len() < N {
        let len = 1 + (rng.next() % 200) as usize;
        let v = rng.next() % 2 == 0;
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

criterion_group!(
    benches,
    bench_delta_binary_packed,
    bench_byte_arrays,
    bench_byte_stream_split,
    bench_rle_boolean,
    bench_alp
);
criterion_main!(benches);
