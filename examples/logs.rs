//! Application logs: nested records written with the streaming `Writer` in several row
//! groups, then queried back through a smaller projection struct (only the columns it names
//! are decoded) and filtered in Rust.
//!
//! `cargo run --example logs`

use std::collections::BTreeMap;

use parquet_serde::{Compression, ParquetSchema, Reader, Writer, WriterOptions};
use serde::{Deserialize, Serialize};

/// Severity, stored as a Parquet `ENUM` string.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ParquetSchema)]
#[serde(rename_all = "UPPERCASE")]
enum Level {
    Debug,
    Info,
    Warn,
    Error,
}

/// The HTTP request a record belongs to, if any.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ParquetSchema)]
struct Http {
    method: String,
    route: String,
    status: u16,
    latency_ms: f64,
}

/// One tracing span of the request.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ParquetSchema)]
struct Span {
    name: String,
    #[parquet(timestamp = "micros")]
    start: i64,
    dur_us: u32,
}

/// A full log record as the application emits it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ParquetSchema)]
struct LogRecord {
    #[parquet(timestamp = "micros")]
    ts: i64,
    level: Level,
    target: String,
    message: String,
    tags: Vec<String>,
    attrs: BTreeMap<String, String>,
    http: Option<Http>,
    spans: Vec<Span>,
}

/// What a query needs: three top-level columns only.
#[derive(Debug, Deserialize)]
struct Brief {
    ts: i64,
    level: Level,
    message: String,
}

/// Slow-request query: the record's time and the nested `http` group, minus `method`.
#[derive(Debug, Deserialize)]
struct Request {
    ts: i64,
    http: Option<RequestHttp>,
}

#[derive(Debug, Deserialize)]
struct RequestHttp {
    route: String,
    status: u16,
    latency_ms: f64,
}

const ROWS: usize = 20_000;
const ROW_GROUP_ROWS: usize = 4_096;
const START_US: i64 = 1_700_000_000_000_000;
const ROUTES: [&str; 4] = ["/orders", "/users", "/search", "/checkout"];

/// A deterministic record `i`: a small linear congruential generator picks the values.
fn record(i: usize) -> LogRecord {
    let r = (i as u64)
        .wrapping_mul(6_364_136_223_846_793_005)
        .wrapping_add(1_442_695_040_888_963_407)
        >> 33;
    let level = match r % 50 {
        0 => Level::Error,
        1..=4 => Level::Warn,
        5..=14 => Level::Debug,
        _ => Level::Info,
    };
    let ts = START_US + i as i64 * 1_500;
    let http = (i % 4 != 3).then(|| Http {
        method: ["GET", "POST"][i % 2].to_string(),
        route: ROUTES[(r as usize / 7) % ROUTES.len()].to_string(),
        status: if level == Level::Error { 500 } else { 200 },
        latency_ms: (r % 2_000) as f64 / 10.0,
    });
    let spans = (0..(r % 3) as usize)
        .map(|k| Span {
            name: ["db.query", "cache.get", "render"][k].to_string(),
            start: ts + k as i64 * 100,
            dur_us: (r % 997) as u32 + k as u32,
        })
        .collect();
    LogRecord {
        ts,
        level,
        target: format!("app::svc{}", r % 5),
        message: match level {
            Level::Error => format!("request {i} failed: upstream timeout"),
            _ => format!("request {i} handled"),
        },
        tags: (0..(r % 3) as usize).map(|k| format!("t{k}")).collect(),
        attrs: BTreeMap::from([
            ("host".to_string(), format!("web-{}", r % 3)),
            ("region".to_string(), "eu-west-1".to_string()),
        ]),
        http,
        spans,
    }
}

fn main() -> Result<(), parquet_serde::Error> {
    let dir = std::env::temp_dir().join(format!("parquet-serde-logs-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let path = dir.join("logs.parquet");

    // Write: one record at a time, a row group every ROW_GROUP_ROWS records.
    let options = WriterOptions::default()
        .compression(Compression::Zstd(3))
        .row_group_rows(ROW_GROUP_ROWS);
    let mut writer = Writer::<_, LogRecord>::from_path(&path, options)?;
    let (mut errors, mut slowest) = (0usize, (0.0f64, 0usize));
    for i in 0..ROWS {
        let rec = record(i);
        errors += usize::from(rec.level == Level::Error);
        if let Some(h) = &rec.http {
            if h.latency_ms > slowest.0 {
                slowest = (h.latency_ms, i);
            }
        }
        writer.write(&rec)?;
    }
    let (_, metadata) = writer.close()?;
    let row_groups = metadata.row_groups.len();
    assert_eq!(metadata.num_rows, ROWS as i64);
    assert_eq!(row_groups, ROWS.div_ceil(ROW_GROUP_ROWS));
    let size = std::fs::metadata(&path)?.len();
    println!(
        "wrote {ROWS} records in {row_groups} row groups: {size} bytes ({:.1} bytes/record)",
        size as f64 / ROWS as f64
    );

    // Query 1: a projection of three columns; count the errors and show the first few.
    let reader = Reader::<_, Brief>::from_path(&path)?;
    println!(
        "query 1 decodes {} of {} leaf columns",
        reader.projected_columns().len(),
        reader.schema().num_columns()
    );
    let mut found = Vec::new();
    let mut per_level: BTreeMap<String, usize> = BTreeMap::new();
    let mut last_ts = i64::MIN;
    for row in reader {
        let row = row?;
        assert!(row.ts > last_ts, "rows come back in write order");
        last_ts = row.ts;
        *per_level.entry(format!("{:?}", row.level)).or_default() += 1;
        if row.level == Level::Error {
            found.push(row);
        }
    }
    assert_eq!(found.len(), errors);
    assert!(found
        .iter()
        .all(|r| r.message.ends_with("upstream timeout")));
    println!("records per level: {per_level:?}");
    println!("{} errors, first ones:", found.len());
    for e in found.iter().take(3) {
        println!("  ts={} {:?} {}", e.ts, e.level, e.message);
    }

    // Query 2: the five slowest requests, from the nested `http` group.
    let mut requests: Vec<(f64, i64, RequestHttp)> = Reader::<_, Request>::from_path(&path)?
        .filter_map(|row| match row {
            Ok(Request { ts, http: Some(h) }) => Some(Ok((h.latency_ms, ts, h))),
            Ok(_) => None,
            Err(e) => Some(Err(e)),
        })
        .collect::<Result<_, _>>()?;
    assert_eq!(requests.len(), (0..ROWS).filter(|i| i % 4 != 3).count());
    requests.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    assert_eq!(requests[0].0, slowest.0);
    println!("slowest requests:");
    for (latency, ts, h) in requests.iter().take(5) {
        println!("  {latency:>6.1} ms  {} {} (ts={ts})", h.status, h.route);
    }

    // Full records still round-trip.
    let back: Vec<LogRecord> = parquet_serde::from_path(&path)?;
    assert_eq!(back.len(), ROWS);
    assert!(back.iter().enumerate().all(|(i, r)| *r == record(i)));
    println!("all {ROWS} full records read back equal");

    std::fs::remove_dir_all(&dir)?;
    Ok(())
}
