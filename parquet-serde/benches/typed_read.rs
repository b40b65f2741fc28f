//! Typed reading throughput: `from_slice::<T>` over files written by the low-level writer.
//!
//! - `flat`: 1,000,000 application log records (the `flat` workload of
//!   shared/tools/compare-arrow: timestamp, level, target, message, latency, status,
//!   optional user id, request id), Snappy, one row group.
//! - `nested`: 200,000 events with a list of tags, a string map, an optional struct and a
//!   list of structs.

use std::time::Instant;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use parquet_serde::core::column::ColumnBatch;
use parquet_serde::core::file::{FileWriter, WriterOptions};
use parquet_serde::core::values::{ByteArrays, ColumnValues};

#[path = "../tests/common/logs.rs"]
mod logs;
use logs::{message, Event, LogFlat, Rng, LEVELS};

const FLAT_SCHEMA: &str = "message LogFlat {
  required int64 ts_micros;
  required binary level (STRING);
  required binary target (STRING);
  required binary message (STRING);
  required double latency_ms;
  required int32 status;
  optional int64 user_id;
  required binary request_id (STRING);
}";

fn strings(v: &[String]) -> ColumnValues {
    let mut b = ByteArrays::with_capacity(v.len(), v.iter().map(String::len).sum());
    for s in v {
        b.push(s.as_bytes());
    }
    ColumnValues::ByteArray(b)
}

fn batch(values: ColumnValues, def: Vec<i16>, rep: Vec<i16>) -> ColumnBatch {
    ColumnBatch {
        values,
        def_levels: def,
        rep_levels: rep,
    }
}

fn write(schema: &str, columns: Vec<ColumnBatch>) -> Vec<u8> {
    let mut w = FileWriter::new(
        Vec::new(),
        schema.parse().unwrap(),
        WriterOptions::default(),
    )
    .unwrap();
    let mut chunks = Vec::new();
    for (i, b) in columns.iter().enumerate() {
        let mut cw = w.column_writer(i).unwrap();
        cw.write(b).unwrap();
        chunks.push(cw.close().unwrap());
    }
    w.write_row_group(chunks).unwrap();
    w.close().unwrap().0
}

fn flat_file(n: usize) -> Vec<u8> {
    let mut r = Rng::new(42);
    let mut ts = 1_700_000_000_000_000i64;
    let (mut tss, mut levels, mut targets, mut messages) = (vec![], vec![], vec![], vec![]);
    let (mut latency, mut status, mut users, mut user_def, mut requests) =
        (vec![], vec![], vec![], vec![], vec![]);
    for _ in 0..n {
        ts += r.below(1000) as i64;
        tss.push(ts);
        let x = r.below(100);
        let lvl = if x < 5 {
            4
        } else if x < 15 {
            3
        } else if x < 70 {
            2
        } else if x < 90 {
            1
        } else {
            0
        };
        levels.push(LEVELS[lvl].to_string());
        let t = r.below(50);
        targets.push(format!("app::module{}::sub{}", t % 10, t % 5));
        messages.push(message(&mut r));
        latency.push(r.below(1_000_000) as f64 / 1000.0);
        status.push([200, 200, 200, 201, 204, 301, 404, 500][r.below(8) as usize]);
        if r.below(10) < 3 {
            user_def.push(0);
        } else {
            user_def.push(1);
            users.push(r.below(100_000) as i64);
        }
        requests.push(format!("{:016x}", r.next()));
    }
    write(
        FLAT_SCHEMA,
        vec![
            batch(ColumnValues::Int64(tss), vec![], vec![]),
            batch(strings(&levels), vec![], vec![]),
            batch(strings(&targets), vec![], vec![]),
            batch(strings(&messages), vec![], vec![]),
            batch(ColumnValues::Double(latency), vec![], vec![]),
            batch(ColumnValues::Int32(status), vec![], vec![]),
            batch(ColumnValues::Int64(users), user_def, vec![]),
            batch(strings(&requests), vec![], vec![]),
        ],
    )
}

const NESTED_SCHEMA: &str = "message Event {
  required int64 ts_micros;
  required binary level (STRING);
  required binary message (STRING);
  required group tags (LIST) { repeated group list { required binary element (STRING); } }
  required group attrs (MAP) { repeated group key_value { required binary key (STRING); required binary value (STRING); } }
  optional group http {
    required binary method (STRING);
    required binary path (STRING);
    required int32 status (INTEGER(16,false));
    required double latency_ms;
  }
  required group spans (LIST) { repeated group list { required group element { required binary name (STRING); required int64 dur_us; } } }
}";

/// Levels of a required list of `lens[i]` elements: (def, rep) with def 1 for an element
/// and 0 for an empty list.
fn list_levels(lens: &[usize]) -> (Vec<i16>, Vec<i16>) {
    let (mut def, mut rep) = (vec![], vec![]);
    for &n in lens {
        if n == 0 {
            def.push(0);
            rep.push(0);
        }
        for j in 0..n {
            def.push(1);
            rep.push((j > 0) as i16);
        }
    }
    (def, rep)
}

fn nested_file(n: usize) -> Vec<u8> {
    let mut r = Rng::new(7);
    let mut ts = 1_700_000_000_000_000i64;
    let (mut tss, mut levels, mut messages) = (vec![], vec![], vec![]);
    let (mut tags, mut tag_lens, mut keys, mut vals, mut attr_lens) =
        (vec![], vec![], vec![], vec![], vec![]);
    let (mut http_def, mut methods, mut paths, mut statuses, mut lat) =
        (vec![], vec![], vec![], vec![], vec![]);
    let (mut span_names, mut span_durs, mut span_lens) = (vec![], vec![], vec![]);
    for _ in 0..n {
        ts += r.below(1000) as i64;
        tss.push(ts);
        let ntags = r.below(5) as usize;
        let nattrs = r.below(4) as usize;
        let nspans = r.below(4) as usize;
        levels.push(LEVELS[r.below(5) as usize].to_string());
        messages.push(message(&mut r));
        for _ in 0..ntags {
            tags.push(format!("tag{}", r.below(20)));
        }
        tag_lens.push(ntags);
        for k in 0..nattrs {
            keys.push(format!("key{}", k * 3 + r.below(3) as usize));
            vals.push(format!("v{}", r.below(1000)));
        }
        attr_lens.push(nattrs);
        if r.below(3) == 0 {
            http_def.push(0);
        } else {
            http_def.push(1);
            methods.push(["GET", "POST", "PUT", "DELETE"][r.below(4) as usize].to_string());
            paths.push(format!("/api/v1/items/{}", r.below(10_000)));
            statuses.push([200, 201, 404, 500][r.below(4) as usize]);
            lat.push(r.below(100_000) as f64 / 100.0);
        }
        for _ in 0..nspans {
            span_names.push(format!("span{}", r.below(30)));
            span_durs.push(r.below(1_000_000) as i64);
        }
        span_lens.push(nspans);
    }
    let (tag_def, tag_rep) = list_levels(&tag_lens);
    let (attr_def, attr_rep) = list_levels(&attr_lens);
    let (span_def, span_rep) = list_levels(&span_lens);
    write(
        NESTED_SCHEMA,
        vec![
            batch(ColumnValues::Int64(tss), vec![], vec![]),
            batch(strings(&levels), vec![], vec![]),
            batch(strings(&messages), vec![], vec![]),
            batch(strings(&tags), tag_def, tag_rep),
            batch(strings(&keys), attr_def.clone(), attr_rep.clone()),
            batch(strings(&vals), attr_def, attr_rep),
            batch(strings(&methods), http_def.clone(), vec![]),
            batch(strings(&paths), http_def.clone(), vec![]),
            batch(ColumnValues::Int32(statuses), http_def.clone(), vec![]),
            batch(ColumnValues::Double(lat), http_def, vec![]),
            batch(strings(&span_names), span_def.clone(), span_rep.clone()),
            batch(ColumnValues::Int64(span_durs), span_def, span_rep),
        ],
    )
}

/// Streams the rows of `bytes` through the row iterator, each handled (by `f`) and dropped
/// as a streaming reader does.
fn stream<T: serde::de::DeserializeOwned>(
    bytes: &[u8],
    options: &parquet_serde::ReadOptions,
    f: impl Fn(&T) -> usize,
) -> usize {
    parquet_serde::Reader::<_, T>::with_options(bytes, options.clone())
        .unwrap()
        .map(|row| f(&row.unwrap()))
        .sum()
}

/// Streams the rows a filter selects through the row iterator, as [`stream`] does.
fn stream_filtered<T: serde::de::DeserializeOwned>(
    bytes: &[u8],
    options: &parquet_serde::ReadOptions,
    predicate: parquet_serde::filter::Predicate,
    f: impl Fn(&T) -> usize,
) -> usize {
    parquet_serde::Reader::<_, T>::with_options(bytes, options.clone())
        .unwrap()
        .filter(predicate)
        .unwrap()
        .map(|row| f(&row.unwrap()))
        .sum()
}

fn bench(c: &mut Criterion) {
    const FLAT: usize = 1_000_000;
    let flat = flat_file(FLAT);
    let start = Instant::now();
    let rows = parquet_serde::from_slice::<LogFlat>(&flat).unwrap();
    assert_eq!(rows.len(), FLAT);
    eprintln!(
        "flat: {} bytes, first read {:?}",
        flat.len(),
        start.elapsed()
    );
    drop(rows);
    let mut g = c.benchmark_group("typed_read");
    g.sample_size(10);
    g.throughput(Throughput::Elements(FLAT as u64));
    for threads in [1, 2] {
        let options = parquet_serde::ReadOptions::default().threads(threads);
        g.bench_function(format!("flat_1m_threads_{threads}"), |b| {
            b.iter(|| parquet_serde::from_slice_with::<LogFlat>(&flat, options.clone()).unwrap())
        });
        g.bench_function(format!("flat_1m_iter_threads_{threads}"), |b| {
            b.iter(|| stream(&flat, &options, |r: &LogFlat| r.message.len()))
        });
        // A filter keeping 90% of the rows: the selected rows' columns are decoded on
        // `threads` threads.
        g.bench_function(format!("flat_1m_filtered_iter_threads_{threads}"), |b| {
            b.iter(|| {
                let keep = parquet_serde::filter::col("level").ne("TRACE");
                stream_filtered(&flat, &options, keep, |r: &LogFlat| r.message.len())
            })
        });
    }

    const NESTED: usize = 200_000;
    let nested = nested_file(NESTED);
    assert_eq!(
        parquet_serde::from_slice::<Event>(&nested).unwrap().len(),
        NESTED
    );
    // The same rows in ten row groups: the iterator decodes the next one ahead.
    let grouped = parquet_serde::to_vec_with(
        &parquet_serde::from_slice::<Event>(&nested).unwrap(),
        parquet_serde::WriterOptions::default().row_group_rows(NESTED / 10),
    )
    .unwrap();
    g.throughput(Throughput::Elements(NESTED as u64));
    for threads in [1, 2] {
        let options = parquet_serde::ReadOptions::default().threads(threads);
        g.bench_function(format!("nested_200k_10rg_iter_threads_{threads}"), |b| {
            b.iter(|| stream(&grouped, &options, |r: &Event| r.tags.len()))
        });
    }
    for threads in [1, 2] {
        let options = parquet_serde::ReadOptions::default().threads(threads);
        g.bench_function(format!("nested_200k_threads_{threads}"), |b| {
            b.iter(|| parquet_serde::from_slice_with::<Event>(&nested, options.clone()).unwrap())
        });
        // The row iterator (the row group's columns decoded on `threads` threads).
        g.bench_function(format!("nested_200k_iter_threads_{threads}"), |b| {
            b.iter(|| stream(&nested, &options, |r: &Event| r.tags.len()))
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
