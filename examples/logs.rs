//! A service that logs through `tracing` into Parquet: it crashes, its logs are
//! recovered, then queried with a predicate.
//!
//! 1. The "service" (this program run again as a child process) installs
//!    `parquet_serde::logs::TracingLayer`, handles requests inside spans, logs an event per
//!    request, flushes once (the rows so far are durable), handles more requests, and
//!    dies without closing anything (`std::process::exit`, as a crash would).
//! 2. The parent finds the unfinished files (`_part-*`), recovers them with
//!    `parquet_serde::logs::UnfinishedFile::recover_all`, and reads the errors of the whole dataset back with
//!    `parquet_serde::dataset::Dataset` and a predicate (`level = 'ERROR'`), which skips
//!    row groups and pages by their statistics.
//!
//! `cargo run --example logs --features tracing`

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use parquet_serde::dataset::Dataset;
use parquet_serde::logs::{Overflow, TracingLayer, UnfinishedFile};
use parquet_serde::variant::Variant;
use parquet_serde::Predicate;
use serde::Deserialize;
use tracing_subscriber::layer::SubscriberExt;

/// Set in the child process: the folder to log to.
const SERVICE_DIR: &str = "PARQUET_SERDE_EXAMPLE_SERVICE_DIR";
/// Requests handled before the flush, and after it (before the crash).
const BEFORE_FLUSH: u64 = 1500;
const AFTER_FLUSH: u64 = 500;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    if let Some(dir) = std::env::var_os(SERVICE_DIR) {
        return service(Path::new(&dir));
    }
    let dir = std::env::temp_dir().join(format!("parquet-serde-logs-{}", std::process::id()));
    let result = run(&dir);
    let _ = std::fs::remove_dir_all(&dir);
    result
}

/// The child: a service logging through the tracing layer, then a crash.
fn service(dir: &Path) -> Result<(), Box<dyn std::error::Error>> {
    let (layer, guard) = TracingLayer::builder(dir)
        .overflow(Overflow::Block)
        .flush_interval(Duration::from_secs(1))
        .build()?;
    tracing::subscriber::set_global_default(tracing_subscriber::registry().with(layer))?;
    for id in 0..BEFORE_FLUSH + AFTER_FLUSH {
        handle_request(id);
        if id + 1 == BEFORE_FLUSH {
            guard.flush()?; // every event so far is durable
            println!("service: {BEFORE_FLUSH} requests logged and flushed");
        }
    }
    println!("service: crashing after {AFTER_FLUSH} more requests (nothing closed)");
    std::process::exit(1);
}

fn handle_request(id: u64) {
    let route = ["/users", "/orders", "/search"][(id % 3) as usize];
    let span = tracing::info_span!("request", id, route);
    let _entered = span.enter();
    let latency_ms = 3.0 + (id * 7919 % 200) as f64 / 10.0;
    if id.is_multiple_of(37) {
        tracing::error!(
            status = 500u64,
            latency_ms,
            error = "db timeout",
            "request failed"
        );
    } else {
        tracing::info!(status = 200u64, latency_ms, "request handled");
    }
}

/// The rows the query wants: a projection of the tracing layer's `LogEvent` (only these
/// columns are decoded).
#[derive(Debug, Deserialize)]
struct ErrorRow {
    ts: String,
    message: Option<String>,
    /// The event's fields: a VARIANT object (numbers stay numbers).
    fields: Variant,
}

fn run(dir: &Path) -> Result<(), Box<dyn std::error::Error>> {
    // 1. The service runs and crashes.
    let out = Command::new(std::env::current_exe()?)
        .env(SERVICE_DIR, dir)
        .output()?;
    print!("{}", String::from_utf8_lossy(&out.stdout));
    println!("service exited with {}", out.status);
    let unfinished: Vec<PathBuf> = files(dir)?
        .into_iter()
        .filter(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with('_'))
        })
        .collect();
    println!("unfinished files left behind: {}", unfinished.len());

    // 2. Recovery: every flushed event comes back; the files become final.
    let report = UnfinishedFile::recover_all(dir)?;
    println!(
        "recovered {} files, {} rows (at least the {BEFORE_FLUSH} flushed)",
        report.recovered.len(),
        report.rows
    );
    assert!(report.rows >= BEFORE_FLUSH && report.failed.is_empty());

    // 3. The query over the whole dataset (every final file under `dir`, hour folders
    //    included), errors only: the same text `parquet-serde cat DIR --where` takes.
    let errors: Vec<ErrorRow> = Dataset::open(dir)?
        .filter(Predicate::parse("level = 'ERROR'")?)?
        .read_all()?;
    println!("{} errors, the first three:", errors.len());
    for e in errors.iter().take(3) {
        let status = e.fields.get("status").and_then(Variant::as_i64);
        let error = e.fields.get("error").and_then(Variant::as_str);
        println!(
            "  {} {:?} status={status:?} error={error:?}",
            e.ts,
            e.message.as_deref()
        );
    }
    assert!(errors.len() as u64 >= BEFORE_FLUSH.div_ceil(37));
    Ok(())
}

/// Every file under `dir`, sorted by name (final files start with their UTC time).
fn files(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    let mut folders = vec![dir.to_path_buf()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder)? {
            let path = entry?.path();
            if path.is_dir() {
                folders.push(path);
            } else {
                out.push(path);
            }
        }
    }
    out.sort_by_key(|p| p.file_name().map(|n| n.to_owned()));
    Ok(out)
}
