//! Benchmark (ignored; prints figures, asserts only that both answers agree): DuckDB's
//! "errors per target in one hour" over an hourly-partitioned Parquet dataset written by
//! this library against the same events as JSON lines in the same folders (the shape of
//! `tracing_subscriber::fmt().json()` output rolled hourly).
//!
//! ```text
//! PARQUET_SERDE_PYTHON=.venv/bin/python cargo test --release -p parquet-serde-workspace \
//!     --test dataset_bench -- --ignored --nocapture
//! ```
//! `BENCH_ROWS` sets the number of events (default 2,000,000 over 24 hours).

#[path = "../parquet-serde/tests/common/mod.rs"]
mod common;

use std::io::Write;
use std::path::Path;
use std::process::Command;

use parquet_serde::{Compression, ParquetSchema, WriterOptions};
use serde::Serialize;

#[derive(Serialize, ParquetSchema)]
struct Event {
    #[parquet(timestamp = "micros")]
    ts: i64,
    level: String,
    target: String,
    message: String,
    module_path: String,
    line: u32,
    thread_id: u64,
    latency_ms: f64,
}

/// 2026-11-24T00:00:00Z in microseconds.
const DAY: i64 = 1_795_478_400_000_000;
const HOUR: i64 = 3_600_000_000;
const TARGETS: [&str; 12] = [
    "api::http",
    "api::auth",
    "db::pool",
    "db::query",
    "cache::redis",
    "queue::kafka",
    "billing",
    "search::index",
    "search::query",
    "mail",
    "storage::s3",
    "scheduler",
];

fn event(i: u64, per_hour: u64) -> Event {
    let hour = (i / per_hour) as i64;
    let within = (i % per_hour) as i64 * (HOUR / per_hour as i64);
    let h = i.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32;
    let level = match h % 100 {
        0..=1 => "ERROR",
        2..=6 => "WARN",
        7..=69 => "INFO",
        _ => "DEBUG",
    };
    let target = TARGETS[(h / 100 % TARGETS.len() as u64) as usize];
    Event {
        ts: DAY + hour * HOUR + within,
        level: level.into(),
        target: target.into(),
        message: format!(
            "request {} finished with status {}",
            h % 100_000,
            200 + h % 5 * 100
        ),
        module_path: format!("{}::handler", target.replace("::", "_")),
        line: (h % 900) as u32 + 10,
        thread_id: h % 16,
        latency_ms: (h % 10_000) as f64 / 7.0,
    }
}

/// The event as a JSON line, as `fmt().json()` prints it (timestamp text, fields flat).
fn json_line(e: &Event, out: &mut impl Write) {
    let secs = e.ts.div_euclid(1_000_000);
    let micros = e.ts.rem_euclid(1_000_000);
    let (h, m, s) = (secs / 3600 % 24, secs / 60 % 60, secs % 60);
    let line = serde_json::json!({
        "timestamp": format!("2026-11-24T{h:02}:{m:02}:{s:02}.{micros:06}Z"),
        "level": e.level, "target": e.target, "message": e.message,
        "module_path": e.module_path, "line": e.line, "thread_id": e.thread_id,
        "latency_ms": e.latency_ms,
    });
    writeln!(out, "{line}").unwrap();
}

fn dir_size(dir: &Path) -> u64 {
    let mut n = 0;
    for e in std::fs::read_dir(dir).unwrap() {
        let e = e.unwrap();
        let m = e.metadata().unwrap();
        n += if m.is_dir() {
            dir_size(&e.path())
        } else {
            m.len()
        };
    }
    n
}

#[test]
#[ignore = "benchmark: run with --ignored --nocapture, prints figures"]
fn duckdb_errors_per_target_in_one_hour_parquet_vs_json_lines() {
    let rows: u64 = std::env::var("BENCH_ROWS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2_000_000);
    let per_hour = rows.div_ceil(24);
    let dir = tempfile::tempdir().unwrap();
    let (pq, js) = (dir.path().join("parquet"), dir.path().join("json"));
    let options = WriterOptions::default().compression(Compression::Zstd(3));
    for hour in 0..24u64 {
        let rel = format!("date=2026-11-24/hour={hour:02}");
        let events: Vec<Event> = (hour * per_hour..((hour + 1) * per_hour).min(rows))
            .map(|i| event(i, per_hour))
            .collect();
        std::fs::create_dir_all(pq.join(&rel)).unwrap();
        std::fs::create_dir_all(js.join(&rel)).unwrap();
        parquet_serde::to_path_with(
            pq.join(&rel).join("part-0.parquet"),
            &events,
            options.clone(),
        )
        .unwrap();
        let mut out = std::io::BufWriter::new(
            std::fs::File::create(js.join(&rel).join("part-0.jsonl")).unwrap(),
        );
        for e in &events {
            json_line(e, &mut out);
        }
        out.flush().unwrap();
    }
    println!(
        "{rows} events over 24 hourly partitions: parquet (zstd 3) {} bytes, json lines {} bytes",
        dir_size(&pq),
        dir_size(&js)
    );
    let out = Command::new(common::python())
        .arg(common::testdata().join("dataset_bench.py"))
        .arg(&pq)
        .arg(&js)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    print!("{}", String::from_utf8_lossy(&out.stdout));
}
