//! A log file written with the low-level writer, sorted by timestamp, with a Bloom filter on
//! the request id: a one-minute time range and a rare request id read under 5% and 6% of the
//! file's bytes (counted by a `CountingReader`), and select the same rows as a full scan. The
//! request id reads the `request_id` chunk of one row group and the Bloom filters of all
//! ten, 128 KiB each at their 1% false-positive rate over 100,000 ids (5.29% of 21 MB).
//!
//! 1,000,000 rows by default; the 10,000,000-row version is `#[ignore]`d (run it with
//! `cargo test --release --test log_workload -- --ignored`).

mod common;

use std::time::Instant;

use parquet_serde::__internals::CountingReader;
use parquet_serde::core::bloom::BloomFilterOptions;
use parquet_serde::core::column::ColumnBatch;
use parquet_serde::core::file::{FileReader, FileWriter, WriterOptions};
use parquet_serde::core::schema::Schema;
use parquet_serde::core::values::{ByteArrays, ColumnValues};
use parquet_serde::filter::{col, FilterOptions, Predicate};
use parquet_serde::record::Value;

const SCHEMA: &str = "message log {
  required int64 ts (TIMESTAMP(MICROS,true));
  required binary level (STRING);
  required binary service (STRING);
  required binary request_id (STRING);
  optional int32 status;
  required int32 latency_ms;
  required binary message (STRING);
}";

/// 2024-01-01T00:00:00Z in microseconds.
const START: i64 = 1_704_067_200_000_000;
/// One day of logs whatever the row count.
const DAY: i64 = 86_400_000_000;
const ROWS_PER_GROUP: usize = 100_000;

fn mix(x: u64) -> u64 {
    let x = (x ^ (x >> 33)).wrapping_mul(0xff51_afd7_ed55_8ccd);
    let x = (x ^ (x >> 33)).wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    x ^ (x >> 33)
}

struct Log {
    rows: usize,
}

impl Log {
    fn step(&self) -> i64 {
        DAY / self.rows as i64
    }
    /// Increasing: the jitter stays below the step.
    fn ts(&self, i: usize) -> i64 {
        START + i as i64 * self.step() + (mix(i as u64) % (self.step() as u64 / 2).max(1)) as i64
    }
    fn level(&self, i: usize) -> &'static str {
        match mix(i as u64 ^ 0xabc) % 1000 {
            0..=4 => "ERROR",
            5..=54 => "WARN",
            55..=854 => "INFO",
            _ => "DEBUG",
        }
    }
    fn service(&self, i: usize) -> String {
        format!("svc-{:02}", mix(i as u64 / 4) % 20)
    }
    /// Requests of about four consecutive lines.
    fn request_id(&self, i: usize) -> String {
        format!("{:016x}", mix(i as u64 / 4 + 77))
    }
    fn status(&self, i: usize) -> Option<i32> {
        let h = mix(i as u64 ^ 0x5555);
        (!h.is_multiple_of(10))
            .then(|| [200, 200, 200, 201, 204, 301, 400, 404, 500][(h % 9) as usize])
    }
    fn latency(&self, i: usize) -> i32 {
        (mix(i as u64 ^ 0x77) % 2000) as i32
    }
    fn message(&self, i: usize) -> String {
        let h = mix(i as u64 ^ 0x1234);
        match h % 4 {
            0 => format!(
                "GET /api/v1/users/{} returned in {}ms",
                h % 100_000,
                self.latency(i)
            ),
            1 => format!("cache miss for key session:{:x}", h % 1_000_000),
            2 => format!(
                "POST /api/v1/orders/{}/items accepted ({} items)",
                h % 50_000,
                h % 17
            ),
            _ => format!(
                "worker {} finished job {} after {} retries",
                h % 64,
                h % 1_000_000,
                h % 4
            ),
        }
    }

    fn options() -> WriterOptions {
        WriterOptions::default()
            .row_group_rows(ROWS_PER_GROUP)
            .page_size(256 * 1024)
            .page_row_limit(10_000)
            .column_dictionary("ts", false)
            .column_dictionary("request_id", false)
            .column_dictionary("message", false)
            .bloom_filter("request_id", BloomFilterOptions::default())
            .sorting_column("ts", false, false)
    }

    fn write(&self, options: WriterOptions) -> Vec<u8> {
        let schema: Schema = SCHEMA.parse().unwrap();
        let mut w = FileWriter::new(Vec::new(), schema, options).unwrap();
        let mut start = 0;
        while start < self.rows {
            let end = (start + ROWS_PER_GROUP).min(self.rows);
            let r = start..end;
            let strings = |f: &dyn Fn(usize) -> String| {
                let mut b = ByteArrays::with_capacity(r.len(), r.len() * 24);
                for i in r.clone() {
                    b.push(f(i).as_bytes());
                }
                ColumnValues::ByteArray(b)
            };
            let required = |values| ColumnBatch {
                values,
                def_levels: vec![],
                rep_levels: vec![],
            };
            let batches = [
                required(ColumnValues::Int64(r.clone().map(|i| self.ts(i)).collect())),
                required(strings(&|i| self.level(i).to_string())),
                required(strings(&|i| self.service(i))),
                required(strings(&|i| self.request_id(i))),
                ColumnBatch {
                    values: ColumnValues::Int32(r.clone().filter_map(|i| self.status(i)).collect()),
                    def_levels: r.clone().map(|i| self.status(i).is_some() as i16).collect(),
                    rep_levels: vec![],
                },
                required(ColumnValues::Int32(
                    r.clone().map(|i| self.latency(i)).collect(),
                )),
                required(strings(&|i| self.message(i))),
            ];
            let mut chunks = Vec::new();
            for (c, b) in batches.iter().enumerate() {
                let mut cw = w.column_writer(c).unwrap();
                cw.write(b).unwrap();
                chunks.push(cw.close().unwrap());
            }
            w.write_row_group(chunks).unwrap();
            start = end;
        }
        w.close().unwrap().0
    }

    fn row(&self, i: usize) -> Value {
        let s = |v: String| Value::String(v);
        Value::Group(vec![
            (
                "ts".into(),
                Value::Timestamp {
                    value: self.ts(i),
                    unit: parquet_serde::core::schema::TimeUnit::Micros,
                    utc: true,
                },
            ),
            ("level".into(), s(self.level(i).to_string())),
            ("service".into(), s(self.service(i))),
            ("request_id".into(), s(self.request_id(i))),
            (
                "status".into(),
                self.status(i).map_or(Value::Null, |v| Value::Int(v as i64)),
            ),
            ("latency_ms".into(), Value::Int(self.latency(i) as i64)),
            ("message".into(), s(self.message(i))),
        ])
    }
}

/// Row numbers a full scan selects: every row group's predicate columns decoded and
/// tested in plain Rust.
fn full_scan(reader: &FileReader<&[u8]>, test: impl Fn(i64, &[u8]) -> bool) -> Vec<usize> {
    let mut out = Vec::new();
    let mut base = 0;
    for rg in 0..reader.num_row_groups() {
        let ts = reader.read_column(rg, 0).unwrap().values;
        let ids = reader.read_column(rg, 3).unwrap().values;
        let (ColumnValues::Int64(ts), ColumnValues::ByteArray(ids)) = (ts, ids) else {
            panic!()
        };
        for (k, t) in ts.iter().enumerate() {
            if test(*t, ids.get(k)) {
                out.push(base + k);
            }
        }
        base += ts.len();
    }
    out
}

fn query(bytes: &[u8], p: Predicate) -> (Vec<Value>, u64, parquet_serde::filter::FilterReport) {
    let reader = FileReader::new(CountingReader::new(bytes)).unwrap();
    let filter = reader.filter(p).unwrap();
    let report = filter.select().unwrap().report;
    let before = reader.get_ref().bytes_read();
    let _ = before;
    let reader = FileReader::new(CountingReader::new(bytes)).unwrap();
    let rows = reader
        .filter(filter.predicate().clone())
        .unwrap()
        .read_rows(&[])
        .unwrap();
    (rows, reader.get_ref().bytes_read(), report)
}

fn workload(rows: usize) {
    let log = Log { rows };
    let t = Instant::now();
    let bytes = log.write(Log::options());
    println!("{rows} rows: {} bytes in {:.2?}", bytes.len(), t.elapsed());
    let plain = FileReader::new(bytes.as_slice()).unwrap();
    let total = bytes.len() as u64;

    // A one-minute range in the middle of the day.
    let from = START + DAY / 2 + 17_000_000;
    let to = from + 60_000_000 - 1;
    let t = Instant::now();
    let (got, used, report) = query(&bytes, col("ts").between(from, to));
    let want = full_scan(&plain, |ts, _| (from..=to).contains(&ts));
    assert!(!want.is_empty());
    assert_eq!(got, want.iter().map(|&i| log.row(i)).collect::<Vec<_>>());
    println!(
        "one minute: {} rows, {used} of {total} bytes ({:.3}%) in {:.2?}; {report:?}",
        got.len(),
        100.0 * used as f64 / total as f64,
        t.elapsed()
    );
    assert!(used * 20 < total, "time range read {used} of {total} bytes");

    // A rare request id (one request: about four lines).
    let id = log.request_id(rows / 3);
    let t = Instant::now();
    let (got, used, report) = query(&bytes, col("request_id").eq(id.as_str()));
    let want = full_scan(&plain, |_, r| r == id.as_bytes());
    assert!(!want.is_empty() && want.len() <= 4);
    assert_eq!(got, want.iter().map(|&i| log.row(i)).collect::<Vec<_>>());
    println!(
        "request id: {} rows, {used} of {total} bytes ({:.3}%) in {:.2?}; {report:?}",
        got.len(),
        100.0 * used as f64 / total as f64,
        t.elapsed()
    );
    assert!(
        used * 100 < total * 6,
        "request id read {used} of {total} bytes"
    );

    // Both together, and errors among them: still exact, pruned or not.
    let p = col("ts")
        .between(from, to + 3_600_000_000)
        .and(col("level").eq("ERROR"));
    let reader = FileReader::new(bytes.as_slice()).unwrap();
    let fast = reader.filter(p.clone()).unwrap().select().unwrap();
    let slow = reader
        .filter(p)
        .unwrap()
        .with_options(FilterOptions::none())
        .select()
        .unwrap();
    assert_eq!(fast.row_groups, slow.row_groups);
    assert!(fast.row_count() > 0);
}

#[test]
fn log_one_million_rows() {
    workload(1_000_000);
}

#[test]
#[ignore = "10 million rows: run in release"]
fn log_ten_million_rows() {
    workload(10_000_000);
}
