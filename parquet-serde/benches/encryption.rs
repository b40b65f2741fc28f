//! Speed of the module ciphers on ~1 MiB pages and on small metadata modules: AES-GCM
//! encryption and decryption (128 and 256-bit keys), AES-CTR, and footer signing.
//!
//! `cargo bench -p parquet-serde --bench encryption -- --warm-up-time 1 --measurement-time 2`

use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use parquet_serde::__internals::encryption::{module_aad, ModuleKey, ModuleType};

fn page(len: usize) -> Vec<u8> {
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u8
        })
        .collect()
}

fn ciphers(c: &mut Criterion) {
    let aad = module_aad(b"file-unique", ModuleType::DataPage, 3, 7, 11).unwrap();
    for &len in &[1usize << 20, 256] {
        let plain = page(len);
        let mut g = c.benchmark_group(format!("module_{len}B"));
        g.throughput(Throughput::Bytes(len as u64));
        for bits in [128usize, 256] {
            let key = ModuleKey::new(&vec![7u8; bits / 8]).unwrap();
            let mut out = Vec::with_capacity(len + 64);
            g.bench_function(BenchmarkId::new("gcm_encrypt", bits), |b| {
                b.iter(|| {
                    out.clear();
                    key.gcm_encrypt(black_box(&plain), &aad, &mut out).unwrap();
                })
            });
            let mut module = Vec::new();
            key.gcm_encrypt(&plain, &aad, &mut module).unwrap();
            g.bench_function(BenchmarkId::new("gcm_decrypt", bits), |b| {
                b.iter(|| {
                    key.gcm_decrypt(black_box(&module), &aad, ModuleType::DataPage)
                        .unwrap()
                })
            });
            g.bench_function(BenchmarkId::new("ctr_encrypt", bits), |b| {
                b.iter(|| {
                    out.clear();
                    key.ctr_encrypt(black_box(&plain), &mut out).unwrap();
                })
            });
            let mut ctr = Vec::new();
            key.ctr_encrypt(&plain, &mut ctr).unwrap();
            g.bench_function(BenchmarkId::new("ctr_decrypt", bits), |b| {
                b.iter(|| {
                    key.ctr_decrypt(black_box(&ctr), ModuleType::DataPage)
                        .unwrap()
                })
            });
            g.bench_function(BenchmarkId::new("sign", bits), |b| {
                b.iter(|| key.sign(black_box(&plain), &aad).unwrap())
            });
        }
        g.finish();
    }
}

criterion_group!(benches, ciphers);
criterion_main!(benches);
