//! Compaction's two ways of moving a row group (a bench binary, not a timed test): copied
//! verbatim (`FileWriter::copy_row_group`: pages byte for byte) against decoded and
//! encoded again (`FileReader::read_column` into `FileWriter::column_writer`), over the
//! same row groups of the log workload (8 files of 25,000 flat log rows, row groups of
//! 5,000 rows, zstd), in memory. Throughput is in stored (compressed) bytes moved.
//!
//! `cargo bench -p parquet-serde --bench compact [-- --quick]`

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use parquet_serde::core::file::{FileReader, FileWriter};
use parquet_serde::{Compression, WriterOptions};

#[path = "../tests/common/logs.rs"]
mod logs;

/// The inputs: files in memory.
fn inputs() -> Vec<FileReader<Vec<u8>>> {
    let rows = logs::flat_rows(200_000);
    let options = WriterOptions::default()
        .compression(Compression::Zstd(3))
        .row_group_rows(5_000);
    rows.chunks(25_000)
        .map(|chunk| {
            let bytes = parquet_serde::to_vec_with(chunk, options.clone()).unwrap();
            FileReader::new(bytes).unwrap()
        })
        .collect()
}

/// Stored bytes of every row group of `files`.
fn stored_bytes(files: &[FileReader<Vec<u8>>]) -> u64 {
    files
        .iter()
        .flat_map(|f| {
            f.metadata()
                .row_groups()
                .map(|g| g.compressed_size().unwrap_or(0))
        })
        .sum::<i64>() as u64
}

fn verbatim(files: &[FileReader<Vec<u8>>]) -> usize {
    let schema = files[0].schema().clone();
    let mut out = FileWriter::new(Vec::new(), schema, WriterOptions::default()).unwrap();
    for f in files {
        for rg in 0..f.num_row_groups() {
            out.copy_row_group(f, rg).unwrap();
        }
    }
    out.close().unwrap().0.len()
}

fn reencode(files: &[FileReader<Vec<u8>>]) -> usize {
    let schema = files[0].schema().clone();
    let options = WriterOptions::default().compression(Compression::Zstd(3));
    let mut out = FileWriter::new(Vec::new(), schema, options).unwrap();
    for f in files {
        for rg in 0..f.num_row_groups() {
            let mut chunks = Vec::new();
            for c in 0..f.schema().num_columns() {
                let batch = f.read_column(rg, c).unwrap();
                let mut column = out.column_writer(c).unwrap();
                column.write(&batch).unwrap();
                chunks.push(column.close().unwrap());
            }
            out.write_row_group(chunks).unwrap();
        }
    }
    out.close().unwrap().0.len()
}

fn bench(c: &mut Criterion) {
    let files = inputs();
    let bytes = stored_bytes(&files);
    let mut group = c.benchmark_group("compact");
    group.throughput(Throughput::Bytes(bytes));
    group.bench_function("verbatim", |b| b.iter(|| verbatim(&files)));
    group.bench_function("reencode", |b| b.iter(|| reencode(&files)));
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
