//! Whole column chunks: write (encode + compress + CRC) and read (decompress + decode) of
//! 1M values through ColumnChunkWriter / FileReader, for a timestamp-like INT64 column,
//! low-cardinality string columns (dictionary: short level names, and 18-byte module
//! targets) and an optional double column.
//!
//! `cargo bench -p parquet-serde --bench column -- --warm-up-time 1 --measurement-time 3`

use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use parquet_serde::core::column::ColumnBatch;
use parquet_serde::core::file::{FileReader, FileWriter, WriterOptions};
use parquet_serde::core::values::{ByteArrays, ColumnValues};
use parquet_serde::Compression;

const N: usize = 1 << 20;

fn batches() -> Vec<(&'static str, &'static str, ColumnBatch)> {
    let ts = ColumnBatch {
        values: ColumnValues::Int64(
            (0..N as i64)
                .map(|i| 1_700_000_000_000_000 + i * 1_003)
                .collect(),
        ),
        def_levels: vec![],
        rep_levels: vec![],
    };
    let mut levels = ByteArrays::new();
    for i in 0..N {
        levels.push(["INFO", "WARN", "ERROR", "DEBUG"][(i * 7) % 4].as_bytes());
    }
    let strings = ColumnBatch {
        values: ColumnValues::ByteArray(levels),
        def_levels: vec![],
        rep_levels: vec![],
    };
    let mut targets = ByteArrays::new();
    for i in 0..N {
        let k = (i * 7919) % 50;
        targets.push(format!("app::module{}::sub{}", k % 10, k % 5).as_bytes());
    }
    let targets = ColumnBatch {
        values: ColumnValues::ByteArray(targets),
        def_levels: vec![],
        rep_levels: vec![],
    };
    let def: Vec<i16> = (0..N).map(|i| (i % 10 != 0) as i16).collect();
    let n = def.iter().filter(|&&d| d == 1).count();
    let doubles = ColumnBatch {
        values: ColumnValues::Double((0..n).map(|i| (i as f64).sqrt()).collect()),
        def_levels: def,
        rep_levels: vec![],
    };
    vec![
        ("ts_int64", "required int64 c;", ts),
        ("level_string", "required binary c (STRING);", strings),
        ("target_string", "required binary c (STRING);", targets),
        ("latency_double_optional", "optional double c;", doubles),
    ]
}

fn write(schema: &str, batch: &ColumnBatch, compression: Compression) -> Vec<u8> {
    let schema = format!("message m {{ {schema} }}").parse().unwrap();
    let mut w = FileWriter::new(
        Vec::new(),
        schema,
        WriterOptions::default().compression(compression),
    )
    .unwrap();
    let mut c = w.column_writer(0).unwrap();
    c.write(batch).unwrap();
    w.write_row_group(vec![c.close().unwrap()]).unwrap();
    w.close().unwrap().0
}

fn bench(c: &mut Criterion) {
    for (name, schema, batch) in batches() {
        let mut g = c.benchmark_group(format!("column/{name}"));
        g.throughput(Throughput::Elements(N as u64));
        for (codec_name, codec) in [
            ("uncompressed", Compression::Uncompressed),
            ("snappy", Compression::Snappy),
        ] {
            g.bench_function(BenchmarkId::new("write", codec_name), |b| {
                b.iter(|| black_box(write(schema, &batch, codec)))
            });
            let bytes = write(schema, &batch, codec);
            g.bench_function(BenchmarkId::new("read", codec_name), |b| {
                b.iter(|| {
                    let r = FileReader::new(bytes.as_slice()).unwrap();
                    black_box(r.read_column(0, 0).unwrap())
                })
            });
        }
        g.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
