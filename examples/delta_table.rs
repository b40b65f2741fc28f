//! A service whose logs land in a Delta Lake table that other engines query.
//!
//! 1. The service installs `parquet_serde::logs::TracingLayer` with the `on_finished` hook of
//!    a `parquet_serde::delta::DeltaTable` in the same folder: every file the layer makes
//!    final (each roll, and at close) is committed to the table at once, with its
//!    statistics; a checkpoint is written every 5 commits.
//! 2. At start-up `commit_folder` commits the files a crash left between becoming final and
//!    being committed (recovery hands the files it rebuilds to the hook itself).
//! 3. The table is then read as delta-rs reads it: with `PARQUET_SERDE_PYTHON` pointing at a
//!    Python with `deltalake` installed, the example runs the query of the README; otherwise
//!    it prints it.
//!
//! `cargo run --example delta_table --features delta,tracing [-- FOLDER]`

use parquet_serde::delta::DeltaTable;
use parquet_serde::logs::{Overflow, TracingLayer};
use std::path::{Path, PathBuf};
use tracing_subscriber::layer::SubscriberExt;

/// The query of the README's Delta section (`logs/app` replaced by the table's folder).
const QUERY: &str = r#"
from deltalake import DeltaTable
import pyarrow.compute as pc
dt = DeltaTable("logs/app")
print("version", dt.version(), "files", len(dt.file_uris()))
events = dt.to_pyarrow_table(columns=["ts", "level", "message"])
errors = events.filter(pc.equal(events["level"], "ERROR"))
print(errors.num_rows, "errors of", events.num_rows, "events")
# delta-rs 1.6.6 may abort at interpreter exit ("terminate called without an active
# exception", about 1 run in 20 with several at once): leave before the teardown.
import os as _os, sys as _sys
_sys.stdout.flush()
_os._exit(0)
"#;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    match std::env::args_os().nth(1) {
        Some(d) => run(&PathBuf::from(d)),
        None => {
            let dir =
                std::env::temp_dir().join(format!("parquet-serde-delta-{}", std::process::id()));
            let result = run(&dir);
            let _ = std::fs::remove_dir_all(&dir);
            result
        }
    }
}

fn run(dir: &Path) -> Result<(), Box<dyn std::error::Error>> {
    let table = DeltaTable::open(dir)
        .app_id("example-service-1")
        .checkpoint_every(5);
    // Files a crash left final but uncommitted join the table first.
    let started = table.commit_folder()?;
    println!("start-up: {} file(s) committed", started.added);

    let (layer, guard) = TracingLayer::builder(dir)
        .overflow(Overflow::Block)
        .roll_bytes(64 << 10) // small files, so that the example makes several commits
        .on_finished(table.hook())
        .build()?;
    let dispatch = tracing::Dispatch::new(tracing_subscriber::registry().with(layer));
    tracing::dispatcher::with_default(&dispatch, || {
        for id in 0..20_000u64 {
            let span = tracing::info_span!("request", id, route = "/orders");
            let _entered = span.enter();
            if id % 97 == 0 {
                tracing::error!(status = 500u64, error = "db timeout", "request failed");
            } else {
                tracing::info!(
                    status = 200u64,
                    latency_ms = (id % 50) as f64,
                    "request handled"
                );
            }
        }
    });
    guard.close()?;
    if let Some(e) = table.take_last_error() {
        return Err(e.into());
    }
    println!(
        "table {}: version {:?}, {} files",
        table.location(),
        table.version()?,
        table.files()?.len()
    );
    query(dir)
}

/// Runs the README's delta-rs query on the table, or prints it.
fn query(dir: &Path) -> Result<(), Box<dyn std::error::Error>> {
    let script = QUERY.replace("logs/app", &dir.display().to_string());
    match std::env::var_os("PARQUET_SERDE_PYTHON") {
        Some(python) => {
            let out = std::process::Command::new(python)
                .args(["-c", &script])
                .output()?;
            print!("{}", String::from_utf8_lossy(&out.stdout));
            if !out.status.success() {
                return Err(String::from_utf8_lossy(&out.stderr).into_owned().into());
            }
        }
        None => println!("query it with delta-rs (pip install deltalake):\n{script}"),
    }
    Ok(())
}
