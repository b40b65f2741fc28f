//! Throughput of the value and level encodings.
//!
//! `cargo bench -p parquet-serde --bench encoding -- --warm-up-time 1 --measurement-time 2`

use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use parquet_serde::__internals::encoding::{levels, plain, rle};
use parquet_serde::core::column::Encoding;
use parquet_serde::core::values::ByteArrays;

const N: usize = 1 << 20;

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

fn bench_levels(c: &mut Criterion) {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut g = c.benchmark_group("levels");
    g.throughput(Throughput::Elements(N as u64));

    // Mostly long runs: an optional column with runs of nulls and values.
    let mut runs = Vec::with_capacity(N);
    while runs.len() < N {
        let len = 50 + (rng.next() % 500) as usize;
        let v = (rng.next() % 2) as i16;
        let end = (runs.len() + len).min(N);
        runs.resize(end, v);
    }
    // Random levels of a nested column (max 3): bit-packed runs.
    let packed: Vec<i16> = (0..N).map(|_| (rng.next() % 4) as i16).collect();

    for (name, values, max) in [("rle_runs", &runs, 1i16), ("bit_packed_w2", &packed, 3)] {
        let mut page = Vec::new();
        levels::encode_rle(values, max, false, &mut page);
        let mut out = Vec::with_capacity(N);
        g.bench_function(BenchmarkId::new("decode_v2", name), |b| {
            b.iter(|| {
                out.clear();
                levels::decode_v2(black_box(&page), max, N, &mut out).unwrap();
                black_box(out.len())
            })
        });
        let mut v1 = Vec::new();
        levels::encode_rle(values, max, true, &mut v1);
        g.bench_function(BenchmarkId::new("decode_v1", name), |b| {
            b.iter(|| {
                out.clear();
                levels::decode_v1(Encoding::Rle, black_box(&v1), max, N, &mut out).unwrap();
                black_box(out.len())
            })
        });
        let mut enc = Vec::with_capacity(page.len());
        g.bench_function(BenchmarkId::new("encode", name), |b| {
            b.iter(|| {
                enc.clear();
                levels::encode_rle(black_box(values), max, false, &mut enc);
                black_box(enc.len())
            })
        });
    }
    g.finish();
}

fn bench_dict_indices(c: &mut Criterion) {
    let mut rng = Rng(0xDEAD_BEEF_CAFE_F00D);
    let mut g = c.benchmark_group("dict_indices");
    g.throughput(Throughput::Elements(N as u64));
    for width in [1u8, 8, 12, 20] {
        let dict_len = 1usize << width;
        let values: Vec<u32> = (0..N)
            .map(|_| (rng.next() % dict_len as u64) as u32)
            .collect();
        let mut enc = rle::RleEncoder::with_buffer(width, vec![width]);
        enc.put_u32(&values);
        let page = enc.finish();
        let mut out = Vec::with_capacity(N);
        g.bench_with_input(BenchmarkId::new("decode", width), &page, |b, page| {
            b.iter(|| {
                out.clear();
                rle::decode_dict_indices(black_box(page), N, dict_len, &mut out).unwrap();
                black_box(out.len())
            })
        });
        // The streaming decoder in batches of 1024 into a reused buffer, as a column
        // reader would use it.
        let mut batch = vec![0u32; 1024];
        g.bench_with_input(BenchmarkId::new("stream_1024", width), &page, |b, page| {
            b.iter(|| {
                let mut dec = rle::RleDecoder::new(&black_box(page)[1..], width);
                let mut total = 0;
                while total < N {
                    total += dec.next_batch_u32(&mut batch).unwrap();
                }
                black_box(total)
            })
        });
    }
    g.finish();
}

fn bench_plain(c: &mut Criterion) {
    let mut rng = Rng(0x0123_4567_89AB_CDEF);
    let mut g = c.benchmark_group("plain");

    let i32s: Vec<i32> = (0..N).map(|_| rng.next() as i32).collect();
    let i64s: Vec<i64> = (0..N).map(|_| rng.next() as i64).collect();
    let f64s: Vec<f64> = (0..N).map(|_| rng.next() as f64 / 3.0).collect();
    fn fixed<T: plain::FixedWidth>(
        g: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
        name: &str,
        values: &[T],
    ) {
        let mut page = Vec::new();
        plain::encode_fixed(values, &mut page);
        g.throughput(Throughput::Bytes(page.len() as u64));
        let mut out: Vec<T> = Vec::with_capacity(values.len());
        g.bench_function(BenchmarkId::new("decode", name), |b| {
            b.iter(|| {
                out.clear();
                plain::decode_fixed(black_box(&page), values.len(), &mut out).unwrap();
                black_box(out.len())
            })
        });
        let mut enc = Vec::with_capacity(page.len());
        g.bench_function(BenchmarkId::new("encode", name), |b| {
            b.iter(|| {
                enc.clear();
                plain::encode_fixed(black_box(values), &mut enc);
                black_box(enc.len())
            })
        });
    }
    fixed(&mut g, "i32", &i32s);
    fixed(&mut g, "i64", &i64s);
    fixed(&mut g, "f64", &f64s);

    // Strings of 0 to 40 bytes, like names and ids.
    let n = N / 4;
    let mut strings = ByteArrays::new();
    for i in 0..n {
        let len = (rng.next() % 41) as usize;
        let s: Vec<u8> = (0..len).map(|j| b'a' + ((i + j) % 26) as u8).collect();
        strings.push(&s);
    }
    let mut page = Vec::new();
    plain::encode_byte_array(strings.iter(), &mut page).unwrap();
    g.throughput(Throughput::Bytes(page.len() as u64));
    let mut out = ByteArrays::with_capacity(n, page.len());
    g.bench_function(BenchmarkId::new("decode", "byte_array"), |b| {
        b.iter(|| {
            out.clear();
            plain::decode_byte_array(black_box(&page), n, &mut out).unwrap();
            black_box(out.len())
        })
    });
    let mut enc = Vec::with_capacity(page.len());
    g.bench_function(BenchmarkId::new("encode", "byte_array"), |b| {
        b.iter(|| {
            enc.clear();
            plain::encode_byte_array(black_box(&strings).iter(), &mut enc).unwrap();
            black_box(enc.len())
        })
    });

    let bools: Vec<bool> = (0..N).map(|_| rng.next() % 3 == 1).collect();
    let mut page = Vec::new();
    plain::encode_boolean(&bools, &mut page);
    g.throughput(Throughput::Elements(N as u64));
    let mut out = Vec::with_capacity(N);
    g.bench_function(BenchmarkId::new("decode", "bool"), |b| {
        b.iter(|| {
            out.clear();
            plain::decode_boolean(black_box(&page), N, &mut out).unwrap();
            black_box(out.len())
        })
    });
    g.finish();
}

criterion_group!(benches, bench_levels, bench_dict_indices, bench_plain);
criterion_main!(benches);
